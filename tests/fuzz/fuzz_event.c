/* fuzz_event - event register expressions: parse, canonical format.
 *
 * Input: bytes 0-3 an event register value (little-endian, all 32 bits,
 * so that values with bits above 16 are tried too); bytes 4-15 ETMCCR,
 * ETMCCER and ETMIDR for the resource limits (byte 16 bit 0 set: no limits,
 * the architectural maximum); the rest is an expression.
 *
 * Properties (pft.h, event section):
 *  - a value that formats gives a canonical expression of at most
 *    PFT_EVENT_EXPR_MAX bytes that parses back to the value (with B = 0
 *    when the function ignores B), and a buffer one byte too short fails;
 *  - a value with bits above 16 fails with PFT_ERR_EVENT_HIGH_BITS;
 *  - an expression that parses gives a 17-bit value whose canonical form
 *    parses to the same value; one that does not names a column inside it;
 *  - pack(unpack(v)) == v; a resource's canonical name parses to it.
 */
#include <string.h>

#include "fuzz_util.h"
#include "pft.h"

enum { B_MASK = 0x7f << 7 };

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* Format @value; when it formats, check that the text parses back. */
static void check_format(uint32_t value, const struct pft_event_limits *lim)
{
	char buf[PFT_EVENT_EXPR_MAX + 8];
	struct pft_event_diag diag;
	int r = pft_event_format(value, lim, buf, sizeof(buf), &diag);

	if (value > 0x1ffff) {
		FUZZ_CHECK(r == -PFT_ERR_INVALID && diag.problem == PFT_ERR_EVENT_HIGH_BITS);
		return;
	}
	if (r < 0) {
		FUZZ_CHECK(r == -PFT_ERR_INVALID || r == -PFT_ERR_BAD_CONFIG);
		FUZZ_CHECK(diag.problem == (r == -PFT_ERR_BAD_CONFIG ? PFT_ERR_EVENT_UNIMPLEMENTED
								     : PFT_ERR_EVENT_RESERVED));
		return;
	}
	FUZZ_CHECK((size_t)r == strlen(buf) && r < PFT_EVENT_EXPR_MAX);
	FUZZ_CHECK(diag.problem == PFT_ERR_OK || diag.problem == PFT_ERR_EVENT_B_IGNORED);
	uint32_t want = diag.problem == PFT_ERR_EVENT_B_IGNORED ? value & ~(uint32_t)B_MASK : value;
	uint32_t back = 0xffffffff;
	FUZZ_CHECK(pft_event_parse(buf, lim, &back, NULL) == 0);
	FUZZ_CHECK(back == want);

	char small[PFT_EVENT_EXPR_MAX];
	FUZZ_CHECK(pft_event_format(value, lim, small, (size_t)r, NULL) == -PFT_ERR_NOSPACE);
	FUZZ_CHECK(pft_event_format(value, lim, small, (size_t)r + 1, NULL) == r);
	FUZZ_CHECK(!strcmp(small, buf));
}

static void check_parse(const char *expr, const struct pft_event_limits *lim)
{
	struct pft_event_diag diag;
	uint32_t value = 0xffffffff;
	int r = pft_event_parse(expr, lim, &value, &diag);

	if (r < 0) {
		size_t len = strlen(expr);
		FUZZ_CHECK(r == -PFT_ERR_INVALID || r == -PFT_ERR_BAD_CONFIG);
		FUZZ_CHECK(diag.problem >= PFT_ERR_EVENT_EMPTY && diag.problem <= PFT_ERR_EVENT_B_IGNORED);
		FUZZ_CHECK((r == -PFT_ERR_BAD_CONFIG) == (diag.problem == PFT_ERR_EVENT_UNIMPLEMENTED));
		FUZZ_CHECK(diag.column <= len && diag.length <= len - diag.column);
		return;
	}
	FUZZ_CHECK(r == 0 && value <= 0x1ffff);
	char buf[PFT_EVENT_EXPR_MAX];
	struct pft_event_diag fd;
	int n = pft_event_format(value, lim, buf, sizeof(buf), &fd);
	FUZZ_CHECK(n > 0 && fd.problem == PFT_ERR_OK);
	uint32_t back = 0xffffffff;
	FUZZ_CHECK(pft_event_parse(buf, lim, &back, NULL) == 0 && back == value);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pft_event_limits limits = { .size = sizeof(limits) };
	const struct pft_event_limits *lim = NULL;

	if (size < 17)
		return 0;
	uint32_t value = le32(data);
	if (!(data[16] & 1) &&
	    pft_event_limits_from_regs(&limits, le32(data + 4), le32(data + 8),
				       le32(data + 12)) == 0)
		lim = &limits;

	check_format(value, lim);
	check_format(value & 0x1ffff, lim);

	struct pft_event ev;
	uint32_t packed = 0;
	FUZZ_CHECK(pft_event_unpack(value & 0x1ffff, &ev) == 0);
	FUZZ_CHECK(pft_event_pack(&ev, &packed) == 0 && packed == (value & 0x1ffff));

	char name[32];
	int n = pft_event_resource_name(value & 0x7f, name, sizeof(name));
	if (n > 0) {
		uint32_t back = 0xffffffff;
		FUZZ_CHECK((size_t)n == strlen(name));
		FUZZ_CHECK(pft_event_parse(name, NULL, &back, NULL) == 0 && back == (value & 0x7f));
	}

	char *expr = malloc(size - 17 + 1);
	FUZZ_CHECK(expr);
	memcpy(expr, data + 17, size - 17);
	expr[size - 17] = 0;
	check_parse(expr, lim);
	free(expr);
	return 0;
}
