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
/* M profile, T32: 0x4000 movs r0, #1 / svc 0 / movs r1, #2; 0x4100 (a
 * handler) movs r2, #3 / bx lr; 0x4200 (another) bx lr. */
static const uint8_t code_m[] = { 0x01, 0x20, 0x00, 0xdf, 0x02, 0x21 };
static const uint8_t code_h1[] = { 0x03, 0x22, 0x70, 0x47 }, code_h2[] = { 0x70, 0x47 };
/* 0x4300 cbz r0, 0x4306 (b108: i:imm5 1, target 0x4304 + 2) / bne 0x4306
 * (d100: imm8 0, target 0x4306) / bx lr / movs r3, #4. */
static const uint8_t code_br[] = { 0x08, 0xb1, 0x00, 0xd1, 0x70, 0x47, 0x04, 0x23 };

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
	pft_image_add_buffer(img, 0x4000, code_m, sizeof(code_m), PFT_SPACE_ANY, 0);
	pft_image_add_buffer(img, 0x4100, code_h1, sizeof(code_h1), PFT_SPACE_ANY, 0);
	pft_image_add_buffer(img, 0x4200, code_h2, sizeof(code_h2), PFT_SPACE_ANY, 0);
	pft_image_add_buffer(img, 0x4300, code_br, sizeof(code_br), PFT_SPACE_ANY, 0);
	return img;
}

struct step {
	uint32_t addr;
	uint8_t isa, nzcv, cycles;
	uint16_t exception;      /* taken before it (0: none) */
	uint32_t exc_ret;        /* its return address (0: inferred) */
	uint8_t exc_return;      /* M: the one before returned from an exception */
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
						     .exc_ret = steps[i].exc_ret,
						     .exc_return = steps[i].exc_return };
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
	struct step fail[] = { { 0x1000, PFT_ISA_ARM, 0, 0, 0, 0, 0 }, { 0x1004, PFT_ISA_ARM, 0, 0, 0, 0, 0 },
			       { 0x1008, PFT_ISA_ARM, 0, 0, 0, 0, 0 }, { 0x2000, PFT_ISA_ARM, 0, 0, 0, 0, 0 } };
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
	const struct step s[] = { { 0x3000, PFT_ISA_THUMB, 0, 0, 0, 0, 0 }, { 0x3002, PFT_ISA_THUMB, 0, 0, 0, 0, 0 },
				  { 0x3004, PFT_ISA_THUMB, 0, 0, 0, 0, 0 }, { 0x2000, PFT_ISA_ARM, 0, 0, 0, 0, 0 } };
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
	const struct step s[] = { { 0x1000, PFT_ISA_ARM, 0, 0, 0, 0, 0 },
				  { 0x1008, PFT_ISA_ARM, 0, 0, PFT_EXC_IRQ, 0, 0 },
				  { 0x1004, PFT_ISA_ARM, 4, 0, 0, 0, 0 },
				  { 0x1008, PFT_ISA_ARM, 0, 0, 0, 0, 0 },
				  { 0x2000, PFT_ISA_ARM, 0, 0, PFT_EXC_SVC, 0x3000, 0 } };
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
	const struct step s[] = { { 0x1000, PFT_ISA_ARM, 0, 1, 0, 0, 0 }, { 0x1004, PFT_ISA_ARM, 0, 3, 0, 0, 0 },
				  { 0x1008, PFT_ISA_ARM, 0, 1, 0, 0, 0 }, { 0x2000, PFT_ISA_ARM, 0, 10, 0, 0, 0 } };
	int n = run_model(&c, img, s, 4, out);

	EXPECT_STREAM(out, n, 0, 0, 0, 0, 0, 0x80,
		      0x70, 0x00, 0x21, 0x00, 0x10, 0x00, 0x00,
		      0x84,                   /* WE */
		      0xa4, 0xc0,             /* WW, WN */
		      0x84, 0x81, 0x20,       /* WE, branch */
		      0xbc, 0xe4);            /* 8 W, WWE */
	pft_image_free(img);
}

/* Put @in into @m, its packets taken. */
static int put_drain(struct pft_etm3_model *m, const struct pft_model_insn *in)
{
	struct pft_etm3_packet p;
	int err = pft_etm3_model_put(m, in, sizeof(*in));

	while (pft_etm3_model_next(m, &p, sizeof(p)) == 0)
		;
	return err;
}

/* A Cortex-M4's ETM (M profile: alternative encoding): an SVC (IPSR 11,
 * the ETM's 11), the handler's return tail-chained to PendSV (IPSR 14):
 * the return's atom, 0x76, the new handler's branch with Cancel (section
 * 5.3); PendSV returns to after the SVC: atom, 0x76, the branch there. */
static void model_m_profile(void)
{
	struct pft_etm3_config c;
	struct pft_ptm_config none = { .size = sizeof(none) };
	struct pft_image *img = program();
	uint8_t out[MAX_BYTES];

	pft_etm3_config_init(&c);
	PTU_EQ(pft_etm3_config_for_core(&c, pft_core_find("cortex-m4"), &none), 0);
	struct step s[] = { { 0x4000, PFT_ISA_THUMB, 0, 0, 0, 0, 0 },
			    { 0x4002, PFT_ISA_THUMB, 0, 0, 0, 0, 0 },
			    { 0x4100, PFT_ISA_THUMB, 0, 0, PFT_MEXC_SVCALL, 0, 0 },
			    { 0x4102, PFT_ISA_THUMB, 0, 0, 0, 0, 0 },
			    { 0x4200, PFT_ISA_THUMB, 0, 0, PFT_MEXC_PENDSV, 0, 1 },
			    { 0x4004, PFT_ISA_THUMB, 0, 0, 0, 0, 1 } };
	int n = run_model(&c, img, s, 6, out);

	EXPECT_STREAM(out, n, 0, 0, 0, 0, 0, 0x80,
		      0x08, 0x21, 0x01, 0x40, 0x00, 0x00, /* I-sync, Thumb 0x4000 */
		      0x88,                               /* E E (movs, svc) */
		      0x81, 0x42, 0x16,                   /* 0x4100: A[12:7] 2, exception
							   * bytes; E0 11 << 1 */
		      0x88,                               /* E E (movs, bx lr) */
		      0x76,                               /* exception return */
		      0x81, 0x44, 0x3c,                   /* 0x4200; E0 Cancel, 14 << 1 */
		      0x84, 0x76,                         /* E (bx lr), return */
		      0x85, 0x00,                         /* to 0x4004: A[6:1] 2, A[12:7] 0 */
		      0x84);                              /* E (movs) */
	uint32_t addrs[8];
	PTU_EQ(decode_insns(&c, img, out, (size_t)n, addrs, 8), 6);
	PTU_EQ(addrs[4], 0x4200);
	PTU_EQ(addrs[5], 0x4004);

	/* Refused: a return after an instruction that cannot load the PC; a
	 * number the M profile reserves (7); ARM code. */
	struct pft_etm3_model *m = pft_etm3_model_alloc(&c, NULL, img, NULL);
	struct pft_model_insn in = { .addr = 0x4000, .isa = PFT_ISA_THUMB };
	struct pft_diag d;
	PTU_EQ(put_drain(m, &in), 0);
	in = (struct pft_model_insn){ .addr = 0x4002, .isa = PFT_ISA_THUMB, .exc_return = 1 };
	PTU_EQ(put_drain(m, &in), -PFT_ERR_BAD_INSN);
	pft_etm3_model_diag(m, &d);
	PTU_EQ(d.reason, PFT_ERR_MODEL_EXC_RETURN);
	in = (struct pft_model_insn){ .addr = 0x4100, .isa = PFT_ISA_THUMB, .exception = 7 };
	PTU_EQ(put_drain(m, &in), -PFT_ERR_INVALID);
	pft_etm3_model_diag(m, &d);
	PTU_EQ(d.reason, PFT_ERR_MODEL_BAD_EXCEPTION);
	in = (struct pft_model_insn){ .addr = 0x4002, .isa = PFT_ISA_ARM };
	PTU_EQ(put_drain(m, &in), -PFT_ERR_NOT_SUPPORTED);
	pft_etm3_model_diag(m, &d);
	PTU_EQ(d.reason, PFT_ERR_MODEL_BAD_ISA);
	pft_etm3_model_free(m);

	/* An A/R core's ETM takes no exception return (a PTM neither:
	 * test_model.c). */
	struct pft_etm3_config a = config(0, 0);
	m = pft_etm3_model_alloc(&a, NULL, img, NULL);
	in = (struct pft_model_insn){ .addr = 0x3004, .isa = PFT_ISA_THUMB };
	PTU_EQ(put_drain(m, &in), 0);
	in = (struct pft_model_insn){ .addr = 0x3000, .isa = PFT_ISA_THUMB, .exc_return = 1 };
	PTU_EQ(put_drain(m, &in), -PFT_ERR_NOT_SUPPORTED);
	pft_etm3_model_diag(m, &d);
	PTU_EQ(d.reason, PFT_ERR_MODEL_EXC_RETURN);
	pft_etm3_model_free(m);
	pft_image_free(img);
}

/* The exceptions a Cortex-M4's ETM model makes of @insns[0 .. @n), as the
 * ETMv3 decoders read them back: "number@ret" (ret "-" when not known)
 * and the instructions, into @out. */
static void m_exceptions(const struct pft_model_insn *insns, size_t n, char *out, size_t len)
{
	struct pft_etm3_config c;
	struct pft_ptm_config none = { .size = sizeof(none) };
	struct pft_image *img = program();
	uint8_t bytes[MAX_BYTES];
	struct pft_etm3_packet p;
	struct pft_elem e;
	size_t nb = 0, k = 0;

	pft_etm3_config_init(&c);
	pft_etm3_config_for_core(&c, pft_core_find("cortex-m4"), &none);
	struct pft_etm3_model *m = pft_etm3_model_alloc(&c, NULL, img, NULL);
	for (size_t i = 0; i <= n; i++) {
		PTU_EQ(i < n ? pft_etm3_model_put(m, &insns[i], sizeof(insns[i]))
			     : pft_etm3_model_finish(m), 0);
		while (pft_etm3_model_next(m, &p, sizeof(p)) == 0)
			memcpy(bytes + nb, p.raw, p.size), nb += p.size;
	}
	pft_etm3_model_free(m);
	struct pft_etm3_pkt_decoder *d = pft_etm3_pkt_alloc(&c, NULL);
	struct pft_etm3_flow *f = pft_etm3_flow_alloc(&c, img, NULL);
	pft_etm3_pkt_feed(d, bytes, nb);
	pft_etm3_pkt_finish(d);
	out[0] = 0;
	for (int done = 0; !done;) {
		if (pft_etm3_pkt_next(d, &p, sizeof(p)) == 0)
			pft_etm3_flow_put(f, &p, sizeof(p));
		else
			done = 1, pft_etm3_flow_finish(f);
		while (pft_etm3_flow_next(f, &e, sizeof(e)) == 0) {
			if (e.type == PFT_ELEM_EXCEPTION && e.has_ret)
				k += (size_t)snprintf(out + k, len - k, "%u@%x ", e.exception, e.addr);
			else if (e.type == PFT_ELEM_EXCEPTION)
				k += (size_t)snprintf(out + k, len - k, "%u@- ", e.exception);
			else if (e.type == PFT_ELEM_RANGE)
				for (uint32_t a = e.start; a < e.end; a += 2)
					k += (size_t)snprintf(out + k, len - k, "%x ", a);
			else if (e.type == PFT_ELEM_ERROR || e.type == PFT_ELEM_ADDR_NACC)
				k += (size_t)snprintf(out + k, len - k, "ERROR ");
		}
	}
	pft_etm3_flow_free(f);
	pft_etm3_pkt_free(d);
	pft_image_free(img);
}

#define T(a) .addr = (a), .isa = PFT_ISA_THUMB
#define CHECK_M(want, ...)                                                     \
	do {                                                                   \
		const struct pft_model_insn in_[] = { __VA_ARGS__ };          \
		char got_[512];                                                \
		m_exceptions(in_, sizeof(in_) / sizeof(in_[0]), got_, sizeof(got_)); \
		PTU_EQ(strcmp(got_, want), 0);                                 \
		if (strcmp(got_, want))                                        \
			fprintf(stderr, "  got  '%s'\n  want '%s'\n", got_, want); \
	} while (0)

/* M profile: where an exception returns when the log gives no address:
 * after a CBZ, the register it tested (R0: zero, taken; else not); after
 * BNE, the flags (Z: not taken); after a BX LR, unknown: its atom, no
 * branch packet, and the exception has no return address.  The handler
 * at 0x4100 starts with a MOVS. */
static void model_m_return_points(void)
{
	CHECK_M("4300 19@4306 4100 ",
		{ T(0x4300), .has_regs = 1 }, { T(0x4100), .exception = 19 });
	uint32_t five[8] = { 5 };
	struct pft_model_insn cbz = { T(0x4300), .has_regs = 1 };
	memcpy(cbz.regs, five, sizeof(five));
	CHECK_M("4300 19@4302 4100 ", cbz, { T(0x4100), .exception = 19 });
	CHECK_M("4302 19@4304 4100 ",
		{ T(0x4302), .has_nzcv = 1, .nzcv = 4 }, { T(0x4100), .exception = 19 });
	CHECK_M("4302 19@4306 4100 ",
		{ T(0x4302), .has_nzcv = 1, .nzcv = 0 }, { T(0x4100), .exception = 19 });
	CHECK_M("4304 19@- 4100 ", { T(0x4304) }, { T(0x4100), .exception = 19 });
	/* IRQ3 entered at 0x4100, SysTick before its first instruction ran
	 * (returning to it), then IRQ3's handler (its BX LR, last, has no
	 * atom: where it went is not known). */
	CHECK_M("4000 19@4002 15@4100 4200 4100 ",
		{ T(0x4000) }, { T(0x4100), .exception = 19, .exc_only = 1 },
		{ T(0x4200), .exception = 15, .has_exc_ret = 1, .exc_ret = 0x4100 },
		{ T(0x4100), .exc_return = 1 }, { T(0x4102) });
	/* A return to 0x4002, where SysTick came before anything ran there
	 * (qemu: the instruction returned to faulted, or was interrupted):
	 * the return's packets, then the exception, returning there. */
	CHECK_M("4000 19@4002 4100 4102 15@4002 4200 4002 ",
		{ T(0x4000) }, { T(0x4100), .exception = 19 }, { T(0x4102) },
		{ T(0x4200), .exception = 15, .exc_return = 1, .has_exc_ret = 1,
		  .exc_ret = 0x4002, .exc_ret_isa = PFT_ISA_THUMB }, { T(0x4002), .exc_return = 1 });
	/* Without the flags, a BNE's outcome is not known: refused. */
	struct pft_etm3_config c;
	struct pft_ptm_config none = { .size = sizeof(none) };
	struct pft_image *img = program();
	pft_etm3_config_init(&c);
	pft_etm3_config_for_core(&c, pft_core_find("cortex-m4"), &none);
	struct pft_etm3_model *m = pft_etm3_model_alloc(&c, NULL, img, NULL);
	struct pft_model_insn in = { T(0x4302) };
	PTU_EQ(put_drain(m, &in), 0);
	in = (struct pft_model_insn){ T(0x4200), .exception = 19 };
	PTU_EQ(put_drain(m, &in), -PFT_ERR_BAD_INSN);
	struct pft_diag d;
	pft_etm3_model_diag(m, &d);
	PTU_EQ(d.reason, PFT_ERR_MODEL_EXC_RET_UNKNOWN);
	/* After an entry whose handler did not start, only an exception
	 * returning to that handler can come. */
	pft_etm3_model_free(m);
	m = pft_etm3_model_alloc(&c, NULL, img, NULL);
	in = (struct pft_model_insn){ T(0x4100), .exception = 19, .exc_only = 1 };
	PTU_EQ(put_drain(m, &in), 0);
	in = (struct pft_model_insn){ T(0x4102) };
	PTU_EQ(put_drain(m, &in), -PFT_ERR_BAD_INSN);
	in = (struct pft_model_insn){ T(0x4200), .exception = 15, .has_exc_ret = 1,
				      .exc_ret = 0x4102 };
	PTU_EQ(put_drain(m, &in), -PFT_ERR_BAD_INSN);
	in.exc_ret = 0x4100;
	PTU_EQ(put_drain(m, &in), 0);
	in = (struct pft_model_insn){ T(0x4000), .exc_only = 1 };
	PTU_EQ(put_drain(m, &in), -PFT_ERR_INVALID);
	pft_etm3_model_free(m);
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
	PTU_RUN(model_m_profile);
	PTU_RUN(model_m_return_points);
	PTU_MAIN_END();
}
