/* The one error model: every enum pft_error_code value has its own message
 * from pft_errstr(), reasons fit the uint8_t fields that carry them, and
 * misuse and full output buffers get the codes that say so. */
#include <string.h>

#include "ptunit.h"
#include "pft.h"

/* Every value of enum pft_error_code, written out so that a value added to
 * pft.h without a message (or with another's message) fails here. */
static const enum pft_error_code all_codes[] = {
	PFT_ERR_OK, PFT_ERR_INTERNAL, PFT_ERR_INVALID, PFT_ERR_NOMEM,
	PFT_ERR_BAD_CONFIG, PFT_ERR_NEED_INPUT, PFT_ERR_EOS, PFT_ERR_NOSYNC,
	PFT_ERR_BAD_OPCODE, PFT_ERR_BAD_PACKET, PFT_ERR_TRUNCATED,
	PFT_ERR_BAD_FRAME, PFT_ERR_NOMAP, PFT_ERR_BAD_INSN, PFT_ERR_BAD_FILE,
	PFT_ERR_NOT_SUPPORTED, PFT_ERR_NOSPACE, PFT_ERR_NO_SOURCE, PFT_ERR_NOT_FOUND, PFT_ERR_BAD_IMAGE,

	PFT_ERR_PKT_RESERVED_HEADER, PFT_ERR_PKT_ATOM_NO_MARKER, PFT_ERR_PKT_ASYNC,
	PFT_ERR_PKT_TRUNCATED, PFT_ERR_PKT_DATA_DISABLED, PFT_ERR_PKT_BAD_ISA,

	PFT_ERR_FLOW_BAD_PACKET, PFT_ERR_FLOW_NO_WAYPOINT, PFT_ERR_FLOW_RETSTACK_EMPTY,
	PFT_ERR_FLOW_INDIRECT_ATOM, PFT_ERR_FLOW_WP_UPDATE_PAST, PFT_ERR_FLOW_BAD_INSN,

	PFT_ERR_MODEL_NOT_IN_IMAGE, PFT_ERR_MODEL_NOT_BRANCH,
	PFT_ERR_MODEL_DIRECT_ELSEWHERE, PFT_ERR_MODEL_ISA_CHANGE,
	PFT_ERR_MODEL_MISALIGNED, PFT_ERR_MODEL_BAD_ISA, PFT_ERR_MODEL_EXC_RET_UNKNOWN,
	PFT_ERR_MODEL_BAD_EXCEPTION,

	PFT_ERR_EVENT_EMPTY, PFT_ERR_EVENT_BAD_CHAR, PFT_ERR_EVENT_EXPECTED_OPERAND,
	PFT_ERR_EVENT_EXPECTED_OPERATOR, PFT_ERR_EVENT_UNCLOSED_PAREN,
	PFT_ERR_EVENT_UNOPENED_PAREN, PFT_ERR_EVENT_UNKNOWN_RESOURCE,
	PFT_ERR_EVENT_BAD_INDEX, PFT_ERR_EVENT_TOO_MANY_RESOURCES,
	PFT_ERR_EVENT_TOO_DEEP, PFT_ERR_EVENT_UNIMPLEMENTED, PFT_ERR_EVENT_RESERVED,
	PFT_ERR_EVENT_HIGH_BITS, PFT_ERR_EVENT_B_IGNORED,
};
enum { N_CODES = sizeof(all_codes) / sizeof(all_codes[0]) };

static int is_listed(unsigned v)
{
	for (size_t i = 0; i < N_CODES; i++)
		if ((unsigned)all_codes[i] == v)
			return 1;
	return 0;
}

static void messages_distinct(void)
{
	for (size_t i = 0; i < N_CODES; i++) {
		const char *s = pft_errstr(all_codes[i]);

		PTU_CHECK(s != NULL && s[0] != '\0');
		if (!s)
			continue;
		PTU_CHECK(strcmp(s, "unknown error") != 0);
		for (size_t j = 0; j < i; j++)
			PTU_CHECK(strcmp(s, pft_errstr(all_codes[j])) != 0);
	}
}

/* Values that are no code get the generic message, never NULL. */
static void unknown_values(void)
{
	for (unsigned v = 0; v < 0x200; v++)
		if (!is_listed(v))
			PTU_STREQ(pft_errstr((enum pft_error_code)v), "unknown error");
	PTU_STREQ(pft_errstr(PFT_ERR_MAX), "unknown error");
	PTU_STREQ(pft_errstr((enum pft_error_code)-1), "unknown error");
	PTU_STREQ(pft_errstr((enum pft_error_code)0x7fffffff), "unknown error");
}

/* Numbers that programs built against older headers compiled in. */
static void stable_values(void)
{
	PTU_EQ(PFT_ERR_OK, 0);
	PTU_EQ(PFT_ERR_INTERNAL, 1);
	PTU_EQ(PFT_ERR_INVALID, 2);
	PTU_EQ(PFT_ERR_NOMEM, 3);
	PTU_EQ(PFT_ERR_NEED_INPUT, 5);
	PTU_EQ(PFT_ERR_EOS, 6);
	PTU_EQ(PFT_ERR_NOT_SUPPORTED, 15);
	PTU_EQ(PFT_ERR_NOSPACE, 16);
	/* Reasons go in uint8_t fields and never collide with return codes. */
	for (size_t i = 0; i < N_CODES; i++)
		if (all_codes[i] > PFT_ERR_MAX)
			PTU_CHECK(all_codes[i] < 256);
}

static void errcode_of_status(void)
{
	PTU_EQ(pft_errcode(0), PFT_ERR_OK);
	PTU_EQ(pft_errcode(42), PFT_ERR_OK);
	PTU_EQ(pft_errcode(-PFT_ERR_INVALID), PFT_ERR_INVALID);
	PTU_EQ(pft_errcode(-PFT_ERR_NOSPACE), PFT_ERR_NOSPACE);
	/* Not a code a function returns: a bug somewhere. */
	PTU_EQ(pft_errcode(-PFT_ERR_MAX), PFT_ERR_INTERNAL);
	PTU_EQ(pft_errcode(-1000), PFT_ERR_INTERNAL);
}

/* Caller misuse is INVALID (not INTERNAL): a packet put before the
 * elements of the previous one were taken. */
static void misuse_is_invalid(void)
{
	struct pft_ptm_config cfg;
	struct pft_ptm_packet p = { .type = PFT_PTM_PKT_ASYNC };
	struct pft_elem e;
	int err = 1;

	pft_ptm_config_init(&cfg);
	struct pft_ptm_flow *f = pft_ptm_flow_alloc(&cfg, NULL, &err);

	PTU_CHECK(f != NULL);
	PTU_EQ(err, 0);
	if (!f)
		return;
	PTU_EQ(pft_ptm_flow_put(f, &p, sizeof(p)), 0);
	PTU_EQ(pft_ptm_flow_put(f, &p, sizeof(p)), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_flow_next(f, &e, sizeof(e)), 0);
	PTU_EQ(pft_ptm_flow_put(f, &p, sizeof(p)), 0);
	pft_ptm_flow_free(f);

	PTU_CHECK(pft_ptm_pkt_alloc(NULL, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_pkt_feed(NULL, NULL, 0), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_config_init(NULL), -PFT_ERR_INVALID);
}

/* A full output buffer is NOSPACE, not NOMEM. */
static void full_buffer_is_nospace(void)
{
	struct pft_ptm_config cfg;
	char s[8];
	uint8_t out[2];
	int err = 1;

	pft_ptm_config_init(&cfg);
	cfg.cycle_accurate = 1; /* "--cycle-accurate": 16 bytes and a NUL */
	PTU_EQ(pft_ptm_config_options(&cfg, s, sizeof(s)), -PFT_ERR_NOSPACE);

	/* "arc3" and its NUL need 5 bytes. */
	PTU_EQ(pft_event_resource_name(0x12, s, 4), -PFT_ERR_NOSPACE);
	PTU_EQ(pft_event_resource_name(0x12, s, 5), 4);

	/* An A-sync is 6 bytes (5 zeros and 0x80). */
	struct pft_ptm_encoder *enc = pft_ptm_enc_alloc(&cfg, &err);
	struct pft_ptm_packet p = { .type = PFT_PTM_PKT_ASYNC };

	PTU_CHECK(enc != NULL);
	if (!enc)
		return;
	PTU_EQ(pft_ptm_enc_packet(enc, &p, out, sizeof(out)), -PFT_ERR_NOSPACE);
	pft_ptm_enc_free(enc);
}

int main(void)
{
	PTU_RUN(messages_distinct);
	PTU_RUN(unknown_values);
	PTU_RUN(stable_values);
	PTU_RUN(errcode_of_status);
	PTU_RUN(misuse_is_invalid);
	PTU_RUN(full_buffer_is_nospace);
	PTU_MAIN_END();
}
