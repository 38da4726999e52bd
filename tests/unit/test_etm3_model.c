/* ETMv3 encoder and model tests.  The encoder is checked against real
 * bytes of the TC2 Cortex-A7 capture and the worked examples of
 * etmv3-protocol.md (section numbers below); the model against hand-built
 * streams for small hand-assembled programs (encodings from the ARM ARM),
 * worked out next to each test.  Every model stream is decoded back by
 * the ETMv3 packet and flow decoders. */
#include "ptunit.h"

#include "pft.h"

enum { MAX_BYTES = 512 };

static struct pft_etm3_config config(int ca, unsigned ctxid_bytes)
{
	struct pft_etm3_config c;

	pft_etm3_config_init(&c);
	c.cycle_accurate = (uint8_t)ca;
	c.ctxid_bytes = (uint8_t)ctxid_bytes;
	c.virtualization = 1;
	return c;
}

/* Encode @p and compare with the @n bytes @want. */
static void check_enc(struct pft_etm3_encoder *e, const struct pft_etm3_packet *p,
		      const uint8_t *want, size_t n)
{
	uint8_t out[PFT_ETM3_ENC_MAX_PACKET];
	int got = pft_etm3_enc_packet(e, p, out, sizeof(out));

	PTU_EQ(got, n);
	if (got == (int)n)
		PTU_CHECK(!memcmp(out, want, n));
}

#define ENC(e, p, ...)                                                         \
	do {                                                                   \
		static const uint8_t want_[] = { __VA_ARGS__ };                \
		check_enc(e, p, want_, sizeof(want_));                         \
	} while (0)

/* TC2 0x10 (sections 4.4, 6.2, 6.3, 4.8). */
static void enc_tc2_bytes(void)
{
	struct pft_etm3_config c = config(1, 0);
	struct pft_etm3_encoder *e = pft_etm3_enc_alloc(&c, NULL);
	struct pft_etm3_packet p;

	PTU_CHECK(e != NULL);
	/* Periodic I-sync, Thumb @ 0xC002115C. */
	p = (struct pft_etm3_packet){ .type = PFT_ETM3_PKT_ISYNC, .addr = 0xc002115c,
				      .isa = PFT_ISA_THUMB };
	ENC(e, &p, 0x08, 0x01, 0x5d, 0x11, 0x02, 0xc0);
	/* Trace-on I-sync with cycle count 7695 = 0x0F + (0x3C << 7). */
	p = (struct pft_etm3_packet){ .type = PFT_ETM3_PKT_ISYNC, .addr = 0xc004f698,
				      .isa = PFT_ISA_THUMB, .reason = PFT_ISYNC_TRACE_ON,
				      .has_cycles = 1, .cycles = 7695 };
	ENC(e, &p, 0x70, 0x8f, 0x3c, 0x21, 0x99, 0xf6, 0x04, 0xc0);
	/* Section 6.2: base = the I-sync 0xC004EFB4; target 0xC004F680 needs
	 * A[13:1] (original encoding: 7 bits in byte 1, no exception flag). */
	p = (struct pft_etm3_packet){ .type = PFT_ETM3_PKT_ISYNC, .addr = 0xc004efb4,
				      .isa = PFT_ISA_THUMB, .reason = PFT_ISYNC_TRACE_ON,
				      .has_cycles = 1, .cycles = 1 };
	ENC(e, &p, 0x70, 0x01, 0x21, 0xb5, 0xef, 0x04, 0xc0);
	p = (struct pft_etm3_packet){ .type = PFT_ETM3_PKT_BRANCH, .addr = 0xc004f680,
				      .isa = PFT_ISA_THUMB };
	ENC(e, &p, 0x81, 0x6d);
	/* To 0xC0025E16 (A[18:1] differ: 3 bytes), then 0xC0025EC0 against
	 * it: bit 7 differs, so two bytes (section 6.2: `c1 3d`). */
	p.addr = 0xc0025e16;
	ENC(e, &p, 0x97, 0xbc, 0x09);
	p.addr = 0xc0025ec0;
	ENC(e, &p, 0xc1, 0x3d);
	/* Section 6.3: to ARM 0xB6C33AAC, 5 bytes (the ISA changes). */
	p = (struct pft_etm3_packet){ .type = PFT_ETM3_PKT_BRANCH, .addr = 0xb6c33aac,
				      .isa = PFT_ISA_ARM };
	ENC(e, &p, 0xd7, 0xba, 0x86, 0xdb, 0x0d);
	/* Section 4.8: a full 64-bit timestamp, then the changed 14 bits. */
	p = (struct pft_etm3_packet){ .type = PFT_ETM3_PKT_TIMESTAMP, .ts = 0x82f9d0cd3dull };
	ENC(e, &p, 0x42, 0xbd, 0x9a, 0xc3, 0xce, 0xaf, 0x90, 0x80, 0x80, 0x00);
	p.ts = 0x82f9d0d585ull;
	ENC(e, &p, 0x42, 0x85, 0x2b);
	/* Section 4.3: cycle count 133. */
	p = (struct pft_etm3_packet){ .type = PFT_ETM3_PKT_CYCLE_COUNT, .cycles = 133 };
	ENC(e, &p, 0x04, 0x85, 0x01);
	pft_etm3_enc_free(e);
}

/* Section 6.4 (ETMCR 4-byte context ID): the I-sync, and the data abort
 * with Cancel on ARM 0xFFFF0018 (E0 = 0x38: cancel, exception 12). */
static void enc_exception(void)
{
	struct pft_etm3_config c = config(0, 4);
	struct pft_etm3_encoder *e = pft_etm3_enc_alloc(&c, NULL);
	struct pft_etm3_packet p = { .type = PFT_ETM3_PKT_ISYNC, .addr = 0xc002115c,
				     .isa = PFT_ISA_THUMB, .reason = PFT_ISYNC_TRACE_ON,
				     .ctxid = 0x12345678 };

	ENC(e, &p, 0x08, 0x78, 0x56, 0x34, 0x12, 0x21, 0x5d, 0x11, 0x02, 0xc0);
	p = (struct pft_etm3_packet){ .type = PFT_ETM3_PKT_BRANCH, .addr = 0xffff0018,
				      .isa = PFT_ISA_ARM, .exception = 12, .cancel = 1 };
	ENC(e, &p, 0x8d, 0x80, 0xfe, 0xff, 0x4f, 0x38);
	p = (struct pft_etm3_packet){ .type = PFT_ETM3_PKT_CONTEXTID, .ctxid = 0x11223344 };
	ENC(e, &p, 0x6e, 0x44, 0x33, 0x22, 0x11);
	/* IRQ (14), no cancel: E0 = 0x1C. */
	p = (struct pft_etm3_packet){ .type = PFT_ETM3_PKT_BRANCH, .addr = 0xffff0018,
				      .isa = PFT_ISA_ARM, .exception = 14 };
	ENC(e, &p, 0x8d, 0x80, 0xfe, 0xff, 0x4f, 0x1c);
	/* A short branch without exception: one byte against that base. */
	p.exception = 0;
	p.addr = 0xffff001c;
	ENC(e, &p, 0x0f);
	/* Context ID too wide for 4 bytes cannot happen; a 1-byte config
	 * refuses 0x100. */
	pft_etm3_enc_free(e);
	c = config(0, 1);
	e = pft_etm3_enc_alloc(&c, NULL);
	p = (struct pft_etm3_packet){ .type = PFT_ETM3_PKT_CONTEXTID, .ctxid = 0x100 };
	uint8_t out[PFT_ETM3_ENC_MAX_PACKET];
	PTU_EQ(pft_etm3_enc_packet(e, &p, out, sizeof(out)), -PFT_ERR_INVALID);
	pft_etm3_enc_free(e);
}

/* P-header forms (sections 4.1, 4.2): atoms bit i = atom i, 1 = E. */
static void enc_pheaders(void)
{
	struct pft_etm3_config c = config(0, 0);
	struct pft_etm3_encoder *e = pft_etm3_enc_alloc(&c, NULL);
	struct pft_etm3_packet p = { .type = PFT_ETM3_PKT_PHEADER, .format = 1, .n_atoms = 3,
				     .atoms = 3 };
	uint8_t out[PFT_ETM3_ENC_MAX_PACKET];

	ENC(e, &p, 0xc8);                         /* EEN */
	p = (struct pft_etm3_packet){ .type = PFT_ETM3_PKT_PHEADER, .format = 2, .n_atoms = 2,
				      .atoms = 2 };
	ENC(e, &p, 0x8a);                         /* NE */
	p = (struct pft_etm3_packet){ .type = PFT_ETM3_PKT_PHEADER, .format = 1, .n_atoms = 15,
				      .atoms = 0x7fff };
	ENC(e, &p, 0xbc);                         /* 15 E */
	/* Not format 1 (an N before an E), and no cycle formats here. */
	p = (struct pft_etm3_packet){ .type = PFT_ETM3_PKT_PHEADER, .format = 1, .n_atoms = 2,
				      .atoms = 2 };
	PTU_EQ(pft_etm3_enc_packet(e, &p, out, sizeof(out)), -PFT_ERR_INVALID);
	p.format = 3;
	p.n_atoms = 0;
	p.cycles = 8;
	PTU_EQ(pft_etm3_enc_packet(e, &p, out, sizeof(out)), -PFT_ERR_INVALID);
	pft_etm3_enc_free(e);

	c = config(1, 0);
	e = pft_etm3_enc_alloc(&c, NULL);
	p = (struct pft_etm3_packet){ .type = PFT_ETM3_PKT_PHEADER, .format = 1, .n_atoms = 2,
				      .atoms = 1, .cycles = 2 };
	ENC(e, &p, 0xc4);                         /* WEWN */
	p = (struct pft_etm3_packet){ .type = PFT_ETM3_PKT_PHEADER, .format = 3, .cycles = 8 };
	ENC(e, &p, 0xbc);                         /* 8 W */
	p = (struct pft_etm3_packet){ .type = PFT_ETM3_PKT_PHEADER, .format = 3, .n_atoms = 1,
				      .atoms = 1, .cycles = 1 };
	ENC(e, &p, 0xe0);                         /* WE */
	p = (struct pft_etm3_packet){ .type = PFT_ETM3_PKT_PHEADER, .format = 2, .n_atoms = 2,
				      .atoms = 3, .cycles = 1 };
	ENC(e, &p, 0x82);                         /* WEE */
	p = (struct pft_etm3_packet){ .type = PFT_ETM3_PKT_PHEADER, .format = 4, .n_atoms = 1,
				      .atoms = 0 };
	ENC(e, &p, 0x96);                         /* N */
	/* Format 1 with 8 WE does not exist (EEE is 3 bits). */
	p = (struct pft_etm3_packet){ .type = PFT_ETM3_PKT_PHEADER, .format = 1, .n_atoms = 8,
				      .atoms = 0xff, .cycles = 8 };
	PTU_EQ(pft_etm3_enc_packet(e, &p, out, sizeof(out)), -PFT_ERR_INVALID);
	/* Too short a buffer: nothing written, state unchanged. */
	p = (struct pft_etm3_packet){ .type = PFT_ETM3_PKT_ASYNC };
	PTU_EQ(pft_etm3_enc_packet(e, &p, out, 5), -PFT_ERR_NOSPACE);
	ENC(e, &p, 0, 0, 0, 0, 0, 0x80);
	PTU_EQ(pft_etm3_enc_packet(NULL, &p, out, sizeof(out)), -PFT_ERR_INVALID);
	pft_etm3_enc_free(e);
	pft_etm3_enc_free(NULL);

	int err = 0;
	c.data_value = 1;
	PTU_CHECK(pft_etm3_enc_alloc(&c, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_BAD_CONFIG);
	PTU_CHECK(pft_etm3_enc_alloc(NULL, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
}

/* ---- Model ---- */

/* A32 at 0x1000: cmp r0, #0 / moveq r1, #1 / bx lr; 0x2000: nop.
 * T32 at 0x3000: it eq / movs r0, #1 (moveq in the block) / bx lr. */
static uint8_t code_arm[12], code_nop[4], code_thumb[6];

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static struct pft_image *program(void)
{
	struct pft_image *img = pft_image_alloc(NULL);

	put32(code_arm, 0xe3500000);      /* cmp r0, #0 */
	put32(code_arm + 4, 0x03a01001);  /* moveq r1, #1 */
	put32(code_arm + 8, 0xe12fff1e);  /* bx lr */
	put32(code_nop, 0xe320f000);      /* nop */
	code_thumb[0] = 0x08; code_thumb[1] = 0xbf;  /* it eq */
	code_thumb[2] = 0x01; code_thumb[3] = 0x20;  /* movs r0, #1 */
	code_thumb[4] = 0x70; code_thumb[5] = 0x47;  /* bx lr */
	pft_image_add_buffer(img, 0x1000, code_arm, sizeof(code_arm), PFT_SPACE_ANY, 0);
	pft_image_add_buffer(img, 0x2000, code_nop, sizeof(code_nop), PFT_SPACE_ANY, 0);
	pft_image_add_buffer(img, 0x3000, code_thumb, sizeof(code_thumb), PFT_SPACE_ANY, 0);
	return img;
}

struct step {
	uint32_t addr;
	uint8_t isa, nzcv, cycles;
	uint16_t exception;      /* taken before it (0: none) */
	uint32_t exc_ret;        /* its return address (0: inferred) */
};

/* Run the model over @steps; the stream goes to @out (returns its length,
 * or -1 when a call failed). */
static int run_model(const struct pft_etm3_config *c, struct pft_image *img,
		     const struct step *steps, size_t n, uint8_t *out)
{
	struct pft_etm3_model *m = pft_etm3_model_alloc(c, NULL, img, NULL);
	struct pft_etm3_packet p;
	size_t len = 0;
	int rc = 0;

	if (!m)
		return -1;
	for (size_t i = 0; i <= n && !rc; i++) {
		if (i < n) {
			struct pft_model_insn in = { .addr = steps[i].addr, .isa = steps[i].isa,
						     .has_nzcv = 1, .nzcv = steps[i].nzcv,
						     .has_cycles = steps[i].cycles != 0,
						     .cycles = steps[i].cycles,
						     .exception = steps[i].exception,
						     .has_exc_ret = steps[i].exc_ret != 0,
						     .exc_ret = steps[i].exc_ret };
			rc = pft_etm3_model_put(m, &in, sizeof(in));
		} else {
			rc = pft_etm3_model_finish(m);
		}
		while (!rc && pft_etm3_model_next(m, &p, sizeof(p)) == 0) {
			if (len + p.size > MAX_BYTES)
				rc = -1;
			else
				memcpy(out + len, p.raw, p.size), len += p.size;
		}
	}
	pft_etm3_model_free(m);
	return rc ? -1 : (int)len;
}

/* The instructions the flow decoder finds in @buf, as addresses. */
static size_t decode_insns(const struct pft_etm3_config *c, struct pft_image *img,
			   const uint8_t *buf, size_t len, uint32_t *addrs, size_t max)
{
	struct pft_etm3_pkt_decoder *d = pft_etm3_pkt_alloc(c, NULL);
	struct pft_etm3_flow *f = pft_etm3_flow_alloc(c, img, NULL);
	struct pft_etm3_packet p;
	struct pft_elem e;
	size_t n = 0;

	pft_etm3_pkt_feed(d, buf, len);
	pft_etm3_pkt_finish(d);
	for (int done = 0; !done;) {
		if (pft_etm3_pkt_next(d, &p, sizeof(p)) == 0)
			pft_etm3_flow_put(f, &p, sizeof(p));
		else
			done = 1, pft_etm3_flow_finish(f);
		while (pft_etm3_flow_next(f, &e, sizeof(e)) == 0) {
			if (e.type != PFT_ELEM_RANGE)
				continue;
			for (uint32_t a = e.start; a < e.end && n < max;
			     a += e.isa == PFT_ISA_ARM ? 4 : 2)
				addrs[n++] = a;
		}
	}
	pft_etm3_flow_free(f);
	pft_etm3_pkt_free(d);
	return n;
}

#define EXPECT_STREAM(got, len, ...)                                           \
	do {                                                                   \
		static const uint8_t want_[] = { __VA_ARGS__ };                \
		PTU_EQ(len, sizeof(want_));                                    \
		if ((size_t)(len) == sizeof(want_))                            \
			PTU_CHECK(!memcmp(got, want_, sizeof(want_)));         \
	} while (0)

/* moveq with Z clear fails: N; with Z set: E.  Section 4.1 format 1; the
 * bx lr target 0x2000 against the I-sync base 0x1000: A[14:2], 2 bytes. */
static void model_condition(void)
{
	struct pft_etm3_config c = config(0, 0);
	struct pft_image *img = program();
	uint8_t out[MAX_BYTES];
	struct step fail[] = { { 0x1000, PFT_ISA_ARM, 0, 0, 0, 0 }, { 0x1004, PFT_ISA_ARM, 0, 0, 0, 0 },
			       { 0x1008, PFT_ISA_ARM, 0, 0, 0, 0 }, { 0x2000, PFT_ISA_ARM, 0, 0, 0, 0 } };
	int n = run_model(&c, img, fail, 4, out);

	EXPECT_STREAM(out, n, 0, 0, 0, 0, 0, 0x80,      /* A-sync */
		      0x08, 0x21, 0x00, 0x10, 0x00, 0x00, /* I-sync trace on, ARM 0x1000 */
		      0xc4,                               /* E N */
		      0x84,                               /* E (bx lr) */
		      0x81, 0x20,                         /* branch to 0x2000 */
		      0x84);                              /* E (nop) */
	uint32_t addrs[8];
	PTU_EQ(decode_insns(&c, img, out, (size_t)n, addrs, 8), 4);
	PTU_EQ(addrs[1], 0x1004);
	PTU_EQ(addrs[3], 0x2000);

	for (int i = 0; i < 4; i++)
		fail[i].nzcv = 4;  /* Z */
	n = run_model(&c, img, fail, 4, out);
	EXPECT_STREAM(out, n, 0, 0, 0, 0, 0, 0x80, 0x08, 0x21, 0x00, 0x10, 0x00, 0x00,
		      0x8c,                               /* E E E */
		      0x81, 0x20, 0x84);
	pft_image_free(img);
}

/* IT block: ITSTATE gives moveq the condition EQ, which fails with Z
 * clear; bx lr to ARM needs 5 bytes (the ISA changes). */
static void model_it_block(void)
{
	struct pft_etm3_config c = config(0, 0);
	struct pft_image *img = program();
	uint8_t out[MAX_BYTES];
	const struct step s[] = { { 0x3000, PFT_ISA_THUMB, 0, 0, 0, 0 }, { 0x3002, PFT_ISA_THUMB, 0, 0, 0, 0 },
				  { 0x3004, PFT_ISA_THUMB, 0, 0, 0, 0 }, { 0x2000, PFT_ISA_ARM, 0, 0, 0, 0 } };
	int n = run_model(&c, img, s, 4, out);

	EXPECT_STREAM(out, n, 0, 0, 0, 0, 0, 0x80,
		      0x08, 0x21, 0x01, 0x30, 0x00, 0x00, /* Thumb 0x3000 */
		      0xc4, 0x84,                         /* E N, E */
		      0x81, 0xa0, 0x80, 0x80, 0x08,       /* ARM 0x2000 */
		      0x84);
	pft_image_free(img);
}

/* Exceptions (section 5.3): after the atoms of what ran, a branch packet
 * to the handler with the exception number (5-byte address, original
 * encoding, then E0), Cancel 0; the decoder reports it with the next
 * address as the return address.  After a taken indirect branch, its
 * branch packet comes first and the exception returns to its target. */
static void model_exception(void)
{
	struct pft_etm3_config c = config(0, 0);
	struct pft_image *img = program();
	uint8_t out[MAX_BYTES];
	/* cmp; an IRQ whose handler is the bx lr, back to moveq; bx lr to
	 * 0x3000 and an SVC (at that address, as the return address says)
	 * to the nop. */
	const struct step s[] = { { 0x1000, PFT_ISA_ARM, 0, 0, 0, 0 },
				  { 0x1008, PFT_ISA_ARM, 0, 0, PFT_EXC_IRQ, 0 },
				  { 0x1004, PFT_ISA_ARM, 4, 0, 0, 0 },
				  { 0x1008, PFT_ISA_ARM, 0, 0, 0, 0 },
				  { 0x2000, PFT_ISA_ARM, 0, 0, PFT_EXC_SVC, 0x3000 } };
	int n = run_model(&c, img, s, 5, out);

	EXPECT_STREAM(out, n, 0, 0, 0, 0, 0, 0x80,      /* A-sync */
		      0x08, 0x21, 0x00, 0x10, 0x00, 0x00, /* I-sync trace on, ARM 0x1000 */
		      0x84,                               /* E (cmp) */
		      0x85, 0x90, 0x80, 0x80, 0x48, 0x1c, /* IRQ: 0x1008, E0 = 14 << 1 */
		      0x84,                               /* E (bx lr) */
		      0x03,                               /* branch to 0x1004 */
		      0x88,                               /* E E (moveq, bx lr) */
		      0x81, 0x30,                         /* branch to 0x3000 */
		      0x81, 0xa0, 0x80, 0x80, 0x48, 0x14, /* SVC: 0x2000, E0 = 10 << 1 */
		      0x84);                              /* E (nop) */
	struct pft_etm3_pkt_decoder *d = pft_etm3_pkt_alloc(&c, NULL);
	struct pft_etm3_flow *f = pft_etm3_flow_alloc(&c, img, NULL);
	struct pft_etm3_packet p;
	struct pft_elem e;
	unsigned got[2] = { 0, 0 };
	uint32_t ret[2] = { 0, 0 };
	int k = 0;

	pft_etm3_pkt_feed(d, out, (size_t)n);
	pft_etm3_pkt_finish(d);
	while (pft_etm3_pkt_next(d, &p, sizeof(p)) == 0) {
		pft_etm3_flow_put(f, &p, sizeof(p));
		while (pft_etm3_flow_next(f, &e, sizeof(e)) == 0)
			if (e.type == PFT_ELEM_EXCEPTION && k < 2) {
				got[k] = e.exception;
				ret[k++] = e.has_ret ? e.addr : 0;
			}
	}
	PTU_EQ(k, 2);
	PTU_EQ(got[0], PFT_EXC_IRQ);
	PTU_EQ(ret[0], 0x1004);
	PTU_EQ(got[1], PFT_EXC_SVC);
	PTU_EQ(ret[1], 0x3000);
	pft_etm3_flow_free(f);
	pft_etm3_pkt_free(d);
	pft_image_free(img);
}

/* Cycle-accurate (section 4.2, 5.5): cmp 1 cycle (WE, format 1), moveq 3
 * cycles N (2 W alone in format 3, then WN), bx 1 cycle, nop 10 cycles
 * (8 W, then format 3 with 2 W and E); the trace-on I-sync is 0x70 with
 * the gap before it (0). */
static void model_cycles(void)
{
	struct pft_etm3_config c = config(1, 0);
	struct pft_image *img = program();
	uint8_t out[MAX_BYTES];
	const struct step s[] = { { 0x1000, PFT_ISA_ARM, 0, 1, 0, 0 }, { 0x1004, PFT_ISA_ARM, 0, 3, 0, 0 },
				  { 0x1008, PFT_ISA_ARM, 0, 1, 0, 0 }, { 0x2000, PFT_ISA_ARM, 0, 10, 0, 0 } };
	int n = run_model(&c, img, s, 4, out);

	EXPECT_STREAM(out, n, 0, 0, 0, 0, 0, 0x80,
		      0x70, 0x00, 0x21, 0x00, 0x10, 0x00, 0x00,
		      0x84,                   /* WE */
		      0xa4, 0xc0,             /* WW, WN */
		      0x84, 0x81, 0x20,       /* WE, branch */
		      0xbc, 0xe4);            /* 8 W, WWE */
	pft_image_free(img);
}

static void model_errors(void)
{
	struct pft_etm3_config c = config(0, 0);
	struct pft_image *img = program();
	struct pft_model_insn in = { .addr = 0x1000, .isa = PFT_ISA_ARM };
	int err = 0;

	PTU_CHECK(pft_etm3_model_alloc(NULL, NULL, img, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	PTU_CHECK(pft_etm3_model_alloc(&c, NULL, NULL, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	c.data_address = 1;
	PTU_CHECK(pft_etm3_model_alloc(&c, NULL, img, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_BAD_CONFIG);
	c.data_address = 0;
	struct pft_etm3_model *m = pft_etm3_model_alloc(&c, NULL, img, &err);
	PTU_CHECK(m != NULL);
	PTU_EQ(pft_etm3_model_put(m, &in, sizeof(in)), 0);
	/* Not sequential after cmp, which cannot branch. */
	in.addr = 0x2000;
	struct pft_etm3_packet p;
	while (pft_etm3_model_next(m, &p, sizeof(p)) == 0)
		;
	PTU_EQ(pft_etm3_model_put(m, &in, sizeof(in)), -PFT_ERR_BAD_INSN);
	struct pft_diag d;
	PTU_EQ(pft_etm3_model_diag(m, &d), 0);
	PTU_EQ(d.reason, PFT_ERR_MODEL_NOT_BRANCH);
	PTU_EQ(d.code, PFT_ERR_BAD_INSN);
	PTU_EQ(pft_etm3_model_insns(m), 1);
	PTU_CHECK(pft_etm3_model_bytes(m) > 0);
	PTU_EQ(pft_etm3_model_put(NULL, &in, sizeof(in)), -PFT_ERR_INVALID);
	PTU_EQ(pft_etm3_model_next(m, NULL, sizeof(p)), -PFT_ERR_INVALID);
	PTU_EQ(pft_etm3_model_finish(m), 0);
	PTU_EQ(pft_etm3_model_finish(m), -PFT_ERR_EOS);
	PTU_EQ(pft_etm3_model_put(m, &in, sizeof(in)), -PFT_ERR_EOS);
	pft_etm3_model_free(m);
	pft_etm3_model_free(NULL);
	PTU_EQ(pft_etm3_model_diag(NULL, &d), -PFT_ERR_INVALID);
	pft_image_free(img);
}

int main(void)
{
	PTU_RUN(enc_tc2_bytes);
	PTU_RUN(enc_exception);
	PTU_RUN(enc_pheaders);
	PTU_RUN(model_condition);
	PTU_RUN(model_it_block);
	PTU_RUN(model_exception);
	PTU_RUN(model_cycles);
	PTU_RUN(model_errors);
	PTU_MAIN_END();
}
