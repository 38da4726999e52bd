/* Packet encoder tests.  Expected bytes are the worked examples of
 * pft-protocol.md (section numbers below) or hand computations written
 * next to them.
 *
 * Every packet goes through expect(), which records the stream; once the
 * packet decoder (pft_ptm_pkt_*) is in the tree, set PFT_TEST_ROUNDTRIP to 1 and
 * each stream is also decoded and compared with the packets it came from. */
#include "ptunit.h"

#include "pft.h"

#ifndef PFT_TEST_ROUNDTRIP
#define PFT_TEST_ROUNDTRIP 1
#endif

enum { MAX_STREAM = 4096, MAX_PKTS = 256 };

struct stream {
	struct pft_ptm_config cfg;
	struct pft_ptm_encoder *enc;
	uint8_t bytes[MAX_STREAM];
	size_t len;
	struct pft_ptm_packet pkts[MAX_PKTS];
	size_t npkts;
};

/* Configurations of the three captures the examples come from. */
enum cfg_kind {
	CFG_TC2,      /* A15, PFTv1.1, cycle-accurate, 64-bit binary timestamps */
	CFG_A9,       /* A9, PFTv1.0, cycle-accurate, 48-bit Gray timestamps */
	CFG_RSTK      /* A15, PFTv1.1, not cycle-accurate */
};

static void stream_open(struct stream *s, enum cfg_kind kind,
			uint8_t ctxid_bytes)
{
	int err = 1;

	memset(s, 0, sizeof(*s));
	pft_ptm_config_init(&s->cfg);
	s->cfg.cycle_accurate = kind != CFG_RSTK;
	s->cfg.version_minor = kind != CFG_A9;
	s->cfg.ts_64bit = kind != CFG_A9;
	s->cfg.ts_gray = kind == CFG_A9;
	s->cfg.ctxid_bytes = ctxid_bytes;
	s->enc = pft_ptm_enc_alloc(&s->cfg, &err);
	PTU_CHECK(s->enc != NULL);
	PTU_EQ(err, 0);
}

static size_t parse_hex(const char *hex, uint8_t *out, size_t cap)
{
	size_t n = 0;

	while (*hex && n < cap) {
		unsigned v;
		int used;

		if (sscanf(hex, " %2x%n", &v, &used) != 1)
			break;
		out[n++] = (uint8_t)v;
		hex += used;
	}
	return n;
}

static void print_bytes(const char *what, const uint8_t *b, size_t n)
{
	fprintf(stderr, "  %s:", what);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, " %02x", b[i]);
	fprintf(stderr, "\n");
}

/* Encode @p and check that it gives exactly @hex; keep both. */
static void expect(struct stream *s, const struct pft_ptm_packet *p,
		   const char *hex, int line)
{
	uint8_t want[32], got[PFT_PTM_ENC_MAX_PACKET];
	size_t nwant = parse_hex(hex, want, sizeof(want));
	int n;

	if (!s->enc)
		return;
	n = pft_ptm_enc_packet(s->enc, p, got, sizeof(got));
	if (n != (int)nwant || memcmp(got, want, nwant) != 0) {
		fprintf(stderr, "%s:%d: encoded packet differs (%s)\n",
			__FILE__, line, pft_ptm_pkt_type_name(p->type));
		print_bytes("want", want, nwant);
		if (n >= 0)
			print_bytes("got ", got, (size_t)n);
		else
			fprintf(stderr, "  got  error %d\n", n);
		ptu_failed_checks++;
		return;
	}
	if (s->len + nwant <= MAX_STREAM && s->npkts < MAX_PKTS) {
		memcpy(s->bytes + s->len, want, nwant);
		s->len += nwant;
		s->pkts[s->npkts++] = *p;
	}
}

#define EXPECT(s, hex, ...) \
	expect(s, &(struct pft_ptm_packet){ __VA_ARGS__ }, hex, __LINE__)

/* Encode @p; it must be rejected with @code. */
static void expect_error(struct stream *s, const struct pft_ptm_packet *p,
			 int code, int line)
{
	uint8_t got[PFT_PTM_ENC_MAX_PACKET];
	int n = pft_ptm_enc_packet(s->enc, p, got, sizeof(got));

	if (n != code) {
		fprintf(stderr, "%s:%d: expected error %d, got %d\n", __FILE__,
			line, code, n);
		ptu_failed_checks++;
	}
}

#define EXPECT_INVALID(s, ...) \
	expect_error(s, &(struct pft_ptm_packet){ __VA_ARGS__ }, -PFT_ERR_INVALID, \
		     __LINE__)

#if PFT_TEST_ROUNDTRIP
/* The fields the encoder takes must come back from the decoder. */
static void compare_decoded(const struct pft_ptm_packet *want,
			    const struct pft_ptm_packet *got, uint32_t ctxid)
{
	PTU_EQ(got->type, want->type);
	if (got->type != want->type)
		return;
	switch (want->type) {
	case PFT_PTM_PKT_ISYNC:
		PTU_EQ(got->addr, want->addr);
		PTU_EQ(got->isa, want->isa);
		PTU_EQ(got->reason, want->reason);
		PTU_EQ(got->ns, want->ns);
		PTU_EQ(got->hyp, want->hyp);
		PTU_EQ(got->has_cycles, want->has_cycles);
		PTU_EQ(got->cycles, want->cycles);
		PTU_EQ(got->ctxid, ctxid);
		break;
	case PFT_PTM_PKT_ATOM:
		PTU_EQ(got->n_atoms, want->n_atoms);
		PTU_EQ(got->atoms, want->atoms & ((1u << want->n_atoms) - 1));
		PTU_EQ(got->cycles, want->cycles);
		break;
	case PFT_PTM_PKT_BRANCH:
		PTU_EQ(got->addr, want->addr);
		PTU_EQ(got->isa, want->isa);
		PTU_EQ(got->exception, want->exception);
		PTU_EQ(got->cycles, want->cycles);
		if (got->exc_bytes)
			PTU_EQ(got->ns, want->ns);
		if (got->exc_bytes > 1)
			PTU_EQ(got->hyp, want->hyp);
		break;
	case PFT_PTM_PKT_WAYPOINT:
		PTU_EQ(got->addr, want->addr);
		break;
	case PFT_PTM_PKT_CONTEXTID:
		PTU_EQ(got->ctxid, want->ctxid);
		break;
	case PFT_PTM_PKT_VMID:
		PTU_EQ(got->vmid, want->vmid);
		break;
	case PFT_PTM_PKT_TIMESTAMP:
		PTU_EQ(got->ts, want->ts);
		PTU_EQ(got->ts_clock_change, want->ts_clock_change);
		PTU_EQ(got->cycles, want->cycles);
		break;
	default:
		break;
	}
}

/* Decode the stream (after an A-sync, so that the decoder syncs) and
 * compare packet by packet. */
static void roundtrip(struct stream *s)
{
	static const uint8_t async[6] = { 0, 0, 0, 0, 0, 0x80 };
	static uint8_t buf[MAX_STREAM + 6];
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(&s->cfg, NULL);
	struct pft_ptm_packet pkt;
	uint32_t ctxid = 0;
	size_t i = 0;
	int first = 1;

	PTU_CHECK(d != NULL);
	if (!d)
		return;
	memcpy(buf, async, sizeof(async));
	memcpy(buf + sizeof(async), s->bytes, s->len);
	PTU_EQ(pft_ptm_pkt_feed(d, buf, s->len + sizeof(async)), 0);
	PTU_EQ(pft_ptm_pkt_finish(d), 0);
	for (;;) {
		int r = pft_ptm_pkt_next(d, &pkt, sizeof(pkt));

		if (r == -PFT_ERR_EOS)
			break;
		PTU_EQ(r, 0);
		if (r < 0)
			break;
		if (first && pkt.type == PFT_PTM_PKT_ASYNC) {
			first = 0;
			continue;
		}
		first = 0;
		PTU_CHECK(i < s->npkts);
		if (i >= s->npkts)
			break;
		if (s->pkts[i].type == PFT_PTM_PKT_CONTEXTID ||
		    s->pkts[i].has_ctxid)
			ctxid = s->pkts[i].ctxid;
		compare_decoded(&s->pkts[i], &pkt, ctxid);
		i++;
	}
	PTU_EQ(i, s->npkts);
	pft_ptm_pkt_free(d);
}
#endif

static void stream_close(struct stream *s)
{
#if PFT_TEST_ROUNDTRIP
	roundtrip(s);
#endif
	pft_ptm_enc_free(s->enc);
	s->enc = NULL;
}

/* ---- Address decompression written from section 4.2.3, to check the
 * byte counts the encoder chooses. ---- */

/* Valid bits after k address bytes (table 4.2.2): ARM, Thumb, Jazelle. */
static const unsigned valid_bits[3][5] = {
	{ 8, 14, 21, 28, 32 }, { 7, 13, 20, 27, 32 }, { 6, 12, 19, 26, 32 }
};

/* @b: address bytes; @shift: 2 ARM, 1 Thumb, 0 Jazelle (of the base, used
 * unless k = 5).  Returns the address, the byte count in *@k. */
static uint32_t decode_address(const uint8_t *b, uint32_t base, unsigned shift,
			       unsigned *k)
{
	uint64_t v = (b[0] >> 1) & 0x3f;
	unsigned bits = 6, n = 1, cls;

	while (n < 5 && (b[n - 1] & 0x80))
		n++;
	if (n == 5) {
		/* AB4 bits [5:3]: 1xx Jazelle, 01x Thumb, 001 ARM. */
		shift = (b[4] & 0x20) ? 0 : (b[4] & 0x10) ? 1 : 2;
	}
	for (unsigned i = 1; i < n; i++) {
		/* AB4: ARM 3 bits, Thumb 4, Jazelle 5; a last AB1-AB3: 6. */
		unsigned w = i == 4 ? 5 - shift : (i + 1 < n ? 7 : 6);

		v |= (uint64_t)(b[i] & ((1u << w) - 1)) << bits;
		bits += w;
	}
	*k = n;
	cls = 2 - shift;
	{
		unsigned nvalid = valid_bits[cls][n - 1];
		uint64_t mask = (((uint64_t)1 << nvalid) - 1);

		return (uint32_t)((base & ~mask) | ((v << shift) & mask));
	}
}

/* ---- Tests ---- */

static void test_async_and_single_byte_packets(void)
{
	struct stream s;

	stream_open(&s, CFG_RSTK, 0);
	EXPECT(&s, "00 00 00 00 00 80", .type = PFT_PTM_PKT_ASYNC);     /* 5.1 */
	EXPECT(&s, "0c", .type = PFT_PTM_PKT_TRIGGER);                   /* 5.6 */
	EXPECT(&s, "66", .type = PFT_PTM_PKT_IGNORE);                    /* 5.11 */
	EXPECT(&s, "76", .type = PFT_PTM_PKT_EXCEPTION_RETURN);          /* 5.10 */
	stream_close(&s);
}

/* 5.2 worked examples. */
static void test_isync_examples(void)
{
	struct stream s;

	stream_open(&s, CFG_TC2, 0);
	/* Periodic: no cycle count even though cycle-accurate. */
	EXPECT(&s, "08 83 8d 01 c0 01", .type = PFT_PTM_PKT_ISYNC,
	       .addr = 0xC0018D82, .isa = PFT_ISA_THUMB,
	       .reason = PFT_ISYNC_PERIODIC);
	/* Trace-on with CC 51 = `cc 03` (4.1). */
	EXPECT(&s, "08 df 8d 01 c0 21 cc 03", .type = PFT_PTM_PKT_ISYNC,
	       .addr = 0xC0018DDE, .isa = PFT_ISA_THUMB,
	       .reason = PFT_ISYNC_TRACE_ON, .has_cycles = 1, .cycles = 51);
	/* Single CC byte `90` = 4 (4.1). */
	EXPECT(&s, "08 e5 03 04 c0 21 90", .type = PFT_PTM_PKT_ISYNC,
	       .addr = 0xC00403E4, .isa = PFT_ISA_THUMB,
	       .reason = PFT_ISYNC_TRACE_ON, .has_cycles = 1, .cycles = 4);
	stream_close(&s);

	stream_open(&s, CFG_RSTK, 0);
	EXPECT(&s, "08 54 05 00 80 61", .type = PFT_PTM_PKT_ISYNC,
	       .addr = 0x80000554, .isa = PFT_ISA_ARM,
	       .reason = PFT_ISYNC_DEBUG_EXIT);
	EXPECT(&s, "08 fc 26 05 c0 09", .type = PFT_PTM_PKT_ISYNC,
	       .addr = 0xC00526FC, .isa = PFT_ISA_ARM,
	       .reason = PFT_ISYNC_PERIODIC, .ns = 1);
	stream_close(&s);

	/* Synthetic, context-ID size 4. */
	stream_open(&s, CFG_TC2, 4);
	EXPECT(&s, "08 00 80 00 80 21 84 78 56 34 12", .type = PFT_PTM_PKT_ISYNC,
	       .addr = 0x80008000, .isa = PFT_ISA_ARM,
	       .reason = PFT_ISYNC_TRACE_ON, .has_cycles = 1, .cycles = 1,
	       .has_ctxid = 1, .ctxid = 0x12345678);
	stream_close(&s);
}

/* I-sync fields without a capture example, by the 5.2 bit table. */
static void test_isync_fields(void)
{
	struct stream s;

	stream_open(&s, CFG_RSTK, 2);
	/* ThumbEE: T = 1, AltIS = info bit 2: 0x04 | 0x01. */
	EXPECT(&s, "08 01 80 00 00 05 00 00", .type = PFT_PTM_PKT_ISYNC,
	       .addr = 0x8000, .isa = PFT_ISA_THUMBEE);
	/* Hyp = info bit 1, overflow = reason 10 -> 0x40 | 0x02 | 0x01;
	 * context ID 0x1234 little-endian in 2 bytes. */
	EXPECT(&s, "08 00 80 00 00 43 34 12", .type = PFT_PTM_PKT_ISYNC,
	       .addr = 0x8000, .isa = PFT_ISA_ARM, .reason = 2, .hyp = 1,
	       .has_ctxid = 1, .ctxid = 0x1234);
	/* Without has_ctxid the last context ID sent is repeated: first
	 * the I-sync's, then a Context-ID packet's. */
	EXPECT(&s, "08 00 80 00 00 01 34 12", .type = PFT_PTM_PKT_ISYNC,
	       .addr = 0x8000, .isa = PFT_ISA_ARM);
	EXPECT(&s, "6e cd ab", .type = PFT_PTM_PKT_CONTEXTID, .ctxid = 0xABCD);
	EXPECT(&s, "08 00 80 00 00 01 cd ab", .type = PFT_PTM_PKT_ISYNC,
	       .addr = 0x8000, .isa = PFT_ISA_ARM);
	stream_close(&s);
}

/* 5.3 atom examples; section 4.1 count encoding. */
static void test_atom_examples(void)
{
	/* E = 1 in pft_ptm_packet.atoms, oldest atom in bit 0. */
	static const struct {
		const char *hex;
		uint8_t n, atoms;
	} nonca[] = {
		{ "84", 1, 0x1 },   /* E */
		{ "86", 1, 0x0 },   /* N */
		{ "88", 2, 0x3 },   /* E E */
		{ "8a", 2, 0x1 },   /* E N */
		{ "94", 3, 0x5 },   /* E N E */
		{ "a8", 4, 0xd },   /* E N E E */
		{ "c2", 5, 0x0f },  /* E E E E N */
		{ "c8", 5, 0x1b },  /* E E N E E */
		{ "dc", 5, 0x11 },  /* E N N N E */
	};
	struct stream s;

	stream_open(&s, CFG_RSTK, 0);
	for (size_t i = 0; i < sizeof(nonca) / sizeof(nonca[0]); i++)
		EXPECT(&s, nonca[i].hex, .type = PFT_PTM_PKT_ATOM,
		       .n_atoms = nonca[i].n, .atoms = nonca[i].atoms);
	/* Bits above n_atoms are ignored. */
	EXPECT(&s, "84", .type = PFT_PTM_PKT_ATOM, .n_atoms = 1, .atoms = 0xff);
	stream_close(&s);

	stream_open(&s, CFG_TC2, 0);
	EXPECT(&s, "e8 20", .type = PFT_PTM_PKT_ATOM, .n_atoms = 1, .atoms = 1,
	       .has_cycles = 1, .cycles = 522);
	EXPECT(&s, "de 01", .type = PFT_PTM_PKT_ATOM, .n_atoms = 1, .atoms = 0,
	       .has_cycles = 1, .cycles = 23);
	EXPECT(&s, "bc", .type = PFT_PTM_PKT_ATOM, .n_atoms = 1, .atoms = 1,
	       .has_cycles = 1, .cycles = 15);
	EXPECT(&s, "84", .type = PFT_PTM_PKT_ATOM, .n_atoms = 1, .atoms = 1,
	       .has_cycles = 1, .cycles = 1);
	EXPECT(&s, "86", .type = PFT_PTM_PKT_ATOM, .n_atoms = 1, .atoms = 0,
	       .has_cycles = 1, .cycles = 1);
	/* Count 0 is legal in CA mode: 0x80 = E, 0x82 = N. */
	EXPECT(&s, "80", .type = PFT_PTM_PKT_ATOM, .n_atoms = 1, .atoms = 1,
	       .has_cycles = 1, .cycles = 0);
	EXPECT(&s, "82", .type = PFT_PTM_PKT_ATOM, .n_atoms = 1, .atoms = 0,
	       .has_cycles = 1, .cycles = 0);
	stream_close(&s);
}

/* Table 4.8 boundaries, hand-encoded: CC0 = C<<6 | Count[3:0]<<2 (plus
 * 0x80 in an atom), then 7-bit groups with C in bit 7, CC4 without. */
static void test_cycle_count_boundaries(void)
{
	static const struct {
		uint32_t count;
		const char *atom;     /* CA E atom */
		const char *branch;   /* the branch's CC field (bit 7 = 0) */
	} cases[] = {
		{ 0, "80", "00" },
		{ 15, "bc", "3c" },                          /* 1 byte */
		{ 16, "c0 01", "40 01" },                    /* 2 bytes */
		{ 2047, "fc 7f", "7c 7f" },                  /* 0x7ff */
		{ 2048, "c0 80 01", "40 80 01" },            /* 3 bytes */
		{ (1u << 18) - 1, "fc ff 7f", "7c ff 7f" },
		{ 1u << 18, "c0 80 80 01", "40 80 80 01" },  /* 4 bytes */
		{ (1u << 25) - 1, "fc ff ff 7f", "7c ff ff 7f" },
		{ 1u << 25, "c0 80 80 80 01", "40 80 80 80 01" }, /* 5 bytes */
		{ 0xFFFFFFFF, "fc ff ff ff 7f", "7c ff ff ff 7f" },
	};
	struct stream s;
	char hex[64];

	stream_open(&s, CFG_TC2, 0);
	/* A base, so that branches to it need one address byte (0x01). */
	EXPECT(&s, "08 00 00 00 00 01", .type = PFT_PTM_PKT_ISYNC, .addr = 0,
	       .isa = PFT_ISA_ARM);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		EXPECT(&s, cases[i].atom, .type = PFT_PTM_PKT_ATOM, .n_atoms = 1,
		       .atoms = 1, .has_cycles = 1, .cycles = cases[i].count);
		snprintf(hex, sizeof(hex), "01 %s", cases[i].branch);
		EXPECT(&s, hex, .type = PFT_PTM_PKT_BRANCH, .addr = 0,
		       .isa = PFT_ISA_ARM, .has_cycles = 1,
		       .cycles = cases[i].count);
	}
	/* The I-sync's CC0 has bit 7 set: 16 -> `c0 01`. */
	EXPECT(&s, "08 00 00 00 00 21 c0 01", .type = PFT_PTM_PKT_ISYNC,
	       .addr = 0, .isa = PFT_ISA_ARM, .reason = PFT_ISYNC_TRACE_ON,
	       .has_cycles = 1, .cycles = 16);
	stream_close(&s);
}

/* 5.4 worked examples, with their bases set by I-syncs. */
static void test_branch_examples(void)
{
	struct stream s;

	/* Return-stack capture (not cycle-accurate). */
	stream_open(&s, CFG_RSTK, 0);
	EXPECT(&s, "08 a0 1b 00 80 01", .type = PFT_PTM_PKT_ISYNC,
	       .addr = 0x80001BA0, .isa = PFT_ISA_ARM);
	EXPECT(&s, "ad 05", .type = PFT_PTM_PKT_BRANCH, .addr = 0x80000558,
	       .isa = PFT_ISA_ARM);
	EXPECT(&s, "2f", .type = PFT_PTM_PKT_BRANCH, .addr = 0x8000055C,
	       .isa = PFT_ISA_ARM);
	/* ARM -> Thumb: 5 bytes although only low bits differ. */
	EXPECT(&s, "fd 9e 80 80 18", .type = PFT_PTM_PKT_BRANCH,
	       .addr = 0x80000F7C, .isa = PFT_ISA_THUMB);
	EXPECT(&s, "bd 85 80 80 0c", .type = PFT_PTM_PKT_BRANCH,
	       .addr = 0x80000578, .isa = PFT_ISA_ARM);
	stream_close(&s);

	/* TC2 (cycle-accurate, Thumb). */
	stream_open(&s, CFG_TC2, 0);
	EXPECT(&s, "08 af 8d 01 c0 01", .type = PFT_PTM_PKT_ISYNC,
	       .addr = 0xC0018DAE, .isa = PFT_ISA_THUMB);
	EXPECT(&s, "a3 0b 68 17", .type = PFT_PTM_PKT_BRANCH, .addr = 0xC00185A2,
	       .isa = PFT_ISA_THUMB, .has_cycles = 1, .cycles = 378);
	EXPECT(&s, "bb b6 bd 01 04", .type = PFT_PTM_PKT_BRANCH,
	       .addr = 0xC02F5B3A, .isa = PFT_ISA_THUMB, .has_cycles = 1,
	       .cycles = 1);
	EXPECT(&s, "08 55 3f 05 c0 01", .type = PFT_PTM_PKT_ISYNC,
	       .addr = 0xC0053F54, .isa = PFT_ISA_THUMB);
	EXPECT(&s, "a9 8d 15 78 08", .type = PFT_PTM_PKT_BRANCH,
	       .addr = 0xC00546A8, .isa = PFT_ISA_THUMB, .has_cycles = 1,
	       .cycles = 142);
	stream_close(&s);

	/* A9: waypoint update then IRQ (5.5 and 5.4), Non-secure. */
	stream_open(&s, CFG_A9, 0);
	EXPECT(&s, "08 f0 0e 01 c0 09", .type = PFT_PTM_PKT_ISYNC,
	       .addr = 0xC0010EF0, .isa = PFT_ISA_ARM, .ns = 1);
	EXPECT(&s, "72 79", .type = PFT_PTM_PKT_WAYPOINT, .addr = 0xC0010EF0,
	       .isa = PFT_ISA_ARM);
	EXPECT(&s, "8d 80 fe ff 4f 1d 3c", .type = PFT_PTM_PKT_BRANCH,
	       .addr = 0xFFFF0018, .isa = PFT_ISA_ARM,
	       .exception = PFT_EXC_IRQ, .ns = 1, .has_cycles = 1,
	       .cycles = 15);
	stream_close(&s);

	/* Debug state entry (address 0, Secure). */
	stream_open(&s, CFG_RSTK, 0);
	EXPECT(&s, "08 54 05 00 80 61", .type = PFT_PTM_PKT_ISYNC,
	       .addr = 0x80000554, .isa = PFT_ISA_ARM,
	       .reason = PFT_ISYNC_DEBUG_EXIT);
	EXPECT(&s, "81 80 80 80 48 02", .type = PFT_PTM_PKT_BRANCH, .addr = 0,
	       .isa = PFT_ISA_ARM, .exception = PFT_EXC_DEBUG_HALT);
	stream_close(&s);
}

/* Table 4.5 for every msb of (new XOR base), ARM and Thumb, with and
 * without an exception byte.  The bytes must also decompress (4.2.3) to
 * the new address. */
static unsigned table_4_5(int thumb, int msb, int with_exception)
{
	/* msb < 0: equal addresses. */
	if (msb <= (thumb ? 6 : 7))
		return with_exception ? 2 : 1;
	if (msb <= (thumb ? 12 : 13))
		return 2;
	if (msb <= (thumb ? 19 : 20))
		return 3;
	if (msb <= (thumb ? 26 : 27))
		return 4;
	return 5;
}

static void test_address_byte_table(void)
{
	const uint32_t base = 0x12345678;
	struct pft_ptm_config cfg;
	uint8_t out[PFT_PTM_ENC_MAX_PACKET];
	struct pft_ptm_encoder *e;

	pft_ptm_config_init(&cfg);
	e = pft_ptm_enc_alloc(&cfg, NULL);
	PTU_CHECK(e != NULL);
	if (!e)
		return;
	for (int thumb = 0; thumb <= 1; thumb++) {
		enum pft_isa isa = thumb ? PFT_ISA_THUMB : PFT_ISA_ARM;
		int lowest = thumb ? 1 : 2;

		for (int msb = lowest - 1; msb <= 31; msb++) {
			for (int ex = 0; ex <= 1; ex++) {
				uint32_t addr = msb < lowest ? base
							     : base ^ (1u << msb);
				struct pft_ptm_packet is = { .type = PFT_PTM_PKT_ISYNC,
							 .addr = base,
							 .isa = isa };
				struct pft_ptm_packet br = {
					.type = PFT_PTM_PKT_BRANCH, .addr = addr,
					.isa = isa,
					.exception = ex ? PFT_EXC_SVC : 0
				};
				unsigned want = table_4_5(thumb,
							  msb < lowest ? -1 : msb,
							  ex);
				unsigned k = 0;
				int n;

				PTU_EQ(pft_ptm_enc_packet(e, &is, out, sizeof(out)), 6);
				n = pft_ptm_enc_packet(e, &br, out, sizeof(out));
				PTU_EQ(n, want + ex);
				if (n < 1)
					continue;
				PTU_EQ(decode_address(out, base, 2 - thumb, &k),
				       addr);
				PTU_EQ(k, want);
				/* E flag = bit 6 of the last address byte. */
				if (k > 1)
					PTU_EQ((out[k - 1] >> 6) & 1, ex);
				if (ex)  /* EX0: SVC = 10, Secure */
					PTU_EQ(out[k], 10 << 1);
			}
		}
	}
	pft_ptm_enc_free(e);
}

/* Alignment changes (4.2.4 override), Jazelle, state-only EX0, EX1. */
static void test_branch_state(void)
{
	struct stream s;

	stream_open(&s, CFG_RSTK, 0);
	/* No base and no state yet: 5 bytes and EX0. */
	EXPECT(&s, "bd 85 80 80 4c 00", .type = PFT_PTM_PKT_BRANCH,
	       .addr = 0x80000578, .isa = PFT_ISA_ARM);
	/* Same address, now compressible: AB0 only, A[7:2] = 0x1e. */
	EXPECT(&s, "3d", .type = PFT_PTM_PKT_BRANCH, .addr = 0x80000578,
	       .isa = PFT_ISA_ARM);
	EXPECT(&s, "3f", .type = PFT_PTM_PKT_BRANCH, .addr = 0x8000057C,
	       .isa = PFT_ISA_ARM);
	stream_close(&s);

	stream_open(&s, CFG_RSTK, 0);
	EXPECT(&s, "08 00 10 00 00 01", .type = PFT_PTM_PKT_ISYNC, .addr = 0x1000,
	       .isa = PFT_ISA_ARM);
	/* NS changes without an exception: v = 0x1004 >> 2 = 0x401:
	 * AB0 = 0x80 | 0x01 << 1 | 1, AB1 = E | 0x401 >> 6; EX0 = NS. */
	EXPECT(&s, "83 50 01", .type = PFT_PTM_PKT_BRANCH, .addr = 0x1004,
	       .isa = PFT_ISA_ARM, .ns = 1);
	/* NS unchanged: no EX0.  0x1008 >> 2 = 0x402: AB0 = 0x02 << 1 | 1. */
	EXPECT(&s, "05", .type = PFT_PTM_PKT_BRANCH, .addr = 0x1008,
	       .isa = PFT_ISA_ARM, .ns = 1);
	/* Exception 16 > 15: EX0 with C, EX1 = Exception[8:4] = 1. */
	EXPECT(&s, "83 50 81 01", .type = PFT_PTM_PKT_BRANCH, .addr = 0x1004,
	       .isa = PFT_ISA_ARM, .ns = 1, .exception = 16);
	/* Hyp changes (A8): EX1 with Hyp (bit 5). */
	EXPECT(&s, "85 50 81 20", .type = PFT_PTM_PKT_BRANCH, .addr = 0x1008,
	       .isa = PFT_ISA_ARM, .ns = 1, .hyp = 1);
	/* Largest exception: 0x1ff -> EX0 0x80 | 0xf << 1, EX1 0x1f. */
	EXPECT(&s, "83 50 9f 3f", .type = PFT_PTM_PKT_BRANCH, .addr = 0x1004,
	       .isa = PFT_ISA_ARM, .ns = 1, .hyp = 1, .exception = 0x1ff);
	/* Into Jazelle at 0x12345679: always 5 bytes; AB4 = 0x20 | A[31:27].
	 * A[5:0] = 0x39, A[12:6] = 0x59, A[19:13] = 0x22, A[26:20] = 0x23. */
	EXPECT(&s, "f3 d9 a2 a3 22", .type = PFT_PTM_PKT_BRANCH,
	       .addr = 0x12345679, .isa = PFT_ISA_JAZELLE, .ns = 1, .hyp = 1);
	/* Jazelle to Jazelle compresses (6 bits in AB0): A[5:0] = 0x3a. */
	EXPECT(&s, "75", .type = PFT_PTM_PKT_BRANCH, .addr = 0x1234567a,
	       .isa = PFT_ISA_JAZELLE, .ns = 1, .hyp = 1);
	stream_close(&s);

	stream_open(&s, CFG_RSTK, 0);
	EXPECT(&s, "08 01 80 00 00 01", .type = PFT_PTM_PKT_ISYNC, .addr = 0x8000,
	       .isa = PFT_ISA_THUMB);
	/* Thumb -> ThumbEE is no alignment change, but AltIS changed: EX0
	 * 0x40 forces a second address byte.  v = 0x8002 >> 1 = 0x4001. */
	EXPECT(&s, "83 40 40", .type = PFT_PTM_PKT_BRANCH, .addr = 0x8002,
	       .isa = PFT_ISA_THUMBEE);
	EXPECT(&s, "05", .type = PFT_PTM_PKT_BRANCH, .addr = 0x8004,
	       .isa = PFT_ISA_THUMBEE);
	/* Back to Thumb: AltIS 0 in EX0. */
	EXPECT(&s, "83 40 00", .type = PFT_PTM_PKT_BRANCH, .addr = 0x8002,
	       .isa = PFT_ISA_THUMB);
	stream_close(&s);
}

/* Ambiguities A4 (base after a waypoint update) and A5 (info byte). */
static void test_waypoint_compression(void)
{
	struct stream s;
	unsigned k;
	uint8_t b[2];

	stream_open(&s, CFG_RSTK, 0);
	EXPECT(&s, "08 00 10 00 00 01", .type = PFT_PTM_PKT_ISYNC, .addr = 0x1000,
	       .isa = PFT_ISA_ARM);
	/* 0x2000 ^ 0x1000 has msb 13: 2 bytes; v = 0x800: AB0 0x81, AB1
	 * 0x800 >> 6 = 0x20 with bit 6 (A5) clear. */
	EXPECT(&s, "72 81 20", .type = PFT_PTM_PKT_WAYPOINT, .addr = 0x2000,
	       .isa = PFT_ISA_ARM);
	/* 0x1004 is 1 byte from the spec's base (0x1000) but 2 from
	 * OpenCSD's (0x2000): 2 bytes, right under both. */
	EXPECT(&s, "83 10", .type = PFT_PTM_PKT_BRANCH, .addr = 0x1004,
	       .isa = PFT_ISA_ARM);
	b[0] = 0x83;
	b[1] = 0x10;
	PTU_EQ(decode_address(b, 0x1000, 2, &k), 0x1004);
	PTU_EQ(decode_address(b, 0x2000, 2, &k), 0x1004);
	/* Both bases are 0x1004 again: 1 byte. */
	EXPECT(&s, "05", .type = PFT_PTM_PKT_BRANCH, .addr = 0x1008,
	       .isa = PFT_ISA_ARM);
	/* The other way round: waypoint at 0x2000 (from 0x1008: 2 bytes),
	 * then 0x2004, 1 byte from OpenCSD's base, 2 from the spec's. */
	EXPECT(&s, "72 81 20", .type = PFT_PTM_PKT_WAYPOINT, .addr = 0x2000,
	       .isa = PFT_ISA_ARM);
	EXPECT(&s, "83 20", .type = PFT_PTM_PKT_BRANCH, .addr = 0x2004,
	       .isa = PFT_ISA_ARM);
	stream_close(&s);

	stream_open(&s, CFG_RSTK, 0);
	EXPECT(&s, "08 01 80 00 00 01", .type = PFT_PTM_PKT_ISYNC, .addr = 0x8000,
	       .isa = PFT_ISA_THUMB);
	/* Same AltIS: no info byte. v = 0x8010 >> 1 = 0x4008: AB0 0x11. */
	EXPECT(&s, "72 11", .type = PFT_PTM_PKT_WAYPOINT, .addr = 0x8010,
	       .isa = PFT_ISA_THUMB);
	/* ThumbEE waypoint: 5 bytes, AB4 bit 6 set, info byte AltIS = 0x40.
	 * v = 0x4008: AB0 0x91, AB1 0x80, AB2 0x80 | 2, AB3 0x80,
	 * AB4 0x40 | 0x10 (Thumb) | 0. */
	EXPECT(&s, "72 91 80 82 80 50 40", .type = PFT_PTM_PKT_WAYPOINT,
	       .addr = 0x8010, .isa = PFT_ISA_THUMBEE);
	/* Decoders may or may not have applied it: the next branch states
	 * AltIS in EX0.  v = 0x4010: AB0 0xa1, AB1 E | 0. */
	EXPECT(&s, "a1 40 40", .type = PFT_PTM_PKT_BRANCH, .addr = 0x8020,
	       .isa = PFT_ISA_THUMBEE);
	stream_close(&s);
}

/* 5.7 and 5.8 examples. */
static void test_ctxid_vmid(void)
{
	struct stream s;

	stream_open(&s, CFG_TC2, 4);
	EXPECT(&s, "6e 78 56 34 12", .type = PFT_PTM_PKT_CONTEXTID,
	       .ctxid = 0x12345678);
	EXPECT(&s, "3c 05", .type = PFT_PTM_PKT_VMID, .vmid = 5);
	stream_close(&s);

	stream_open(&s, CFG_TC2, 1);
	EXPECT(&s, "6e 2a", .type = PFT_PTM_PKT_CONTEXTID, .ctxid = 0x2A);
	stream_close(&s);
}

/* 5.9 examples. */
static void test_timestamp_examples(void)
{
	struct stream s;

	stream_open(&s, CFG_TC2, 0);
	/* First timestamp: full 64-bit width (9 value bytes), CC 0. */
	EXPECT(&s, "42 cc 97 c6 ce af 90 80 80 00 00", .type = PFT_PTM_PKT_TIMESTAMP,
	       .ts = 0x82F9D18BCC, .has_cycles = 1, .cycles = 0);
	EXPECT(&s, "42 c8 19 00", .type = PFT_PTM_PKT_TIMESTAMP,
	       .ts = 0x82F9D18CC8, .has_cycles = 1, .cycles = 0);
	EXPECT(&s, "42 49 00", .type = PFT_PTM_PKT_TIMESTAMP, .ts = 0x82F9D18CC9,
	       .has_cycles = 1, .cycles = 0);
	/* Unchanged: one byte.  R bit: header 0x46. */
	EXPECT(&s, "46 49 00", .type = PFT_PTM_PKT_TIMESTAMP, .ts = 0x82F9D18CC9,
	       .ts_clock_change = 1, .has_cycles = 1, .cycles = 0);
	/* Forced T-sync. */
	PTU_EQ(pft_ptm_enc_force_tsync(s.enc), 0);
	EXPECT(&s, "42 c9 99 c6 ce af 90 80 80 00 00", .type = PFT_PTM_PKT_TIMESTAMP,
	       .ts = 0x82F9D18CC9, .has_cycles = 1, .cycles = 0);
	/* All 64 bits: the last byte carries TS[63:56], no C bit. */
	EXPECT(&s, "42 ff ff ff ff ff ff ff ff ff 00", .type = PFT_PTM_PKT_TIMESTAMP,
	       .ts = ~(uint64_t)0, .has_cycles = 1, .cycles = 0);
	stream_close(&s);

	/* A9: 48-bit Gray.  Gray(0x6F4E0D2FBA) = x ^ x >> 1 = 0x58E90BB867. */
	stream_open(&s, CFG_A9, 0);
	EXPECT(&s, "42 e7 f0 ae c8 8e 8b 00 0c", .type = PFT_PTM_PKT_TIMESTAMP,
	       .ts = 0x6F4E0D2FBA, .has_cycles = 1, .cycles = 3);
	/* +1: binary bit 0 flips, so does Gray bit 0: 0x..866, one byte. */
	EXPECT(&s, "42 66 0c", .type = PFT_PTM_PKT_TIMESTAMP, .ts = 0x6F4E0D2FBB,
	       .has_cycles = 1, .cycles = 3);
	/* +1 more (..BC): Gray 0x..862 differs in bit 2 only. */
	EXPECT(&s, "42 62 0c", .type = PFT_PTM_PKT_TIMESTAMP, .ts = 0x6F4E0D2FBC,
	       .has_cycles = 1, .cycles = 3);
	/* All 48 bits ones: Gray 0x800000000000: final byte TS[47:42]. */
	EXPECT(&s, "42 80 80 80 80 80 80 20 0c", .type = PFT_PTM_PKT_TIMESTAMP,
	       .ts = 0xFFFFFFFFFFFF, .has_cycles = 1, .cycles = 3);
	stream_close(&s);
}

/* Compressed size by the highest changed bit: 7-bit groups, capped at 7
 * (48-bit) or 9 (64-bit) value bytes. */
static unsigned ts_bytes(int ts64, int msb)
{
	static const int group_ends[] = { 6, 13, 20, 27, 34, 41, 48, 55 };
	unsigned n = 1;

	for (size_t i = 0; i < sizeof(group_ends) / sizeof(group_ends[0]); i++)
		if (msb > group_ends[i])
			n = (unsigned)i + 2;
	return n > (ts64 ? 9u : 7u) ? (ts64 ? 9u : 7u) : n;
}

static void test_timestamp_table(void)
{
	uint8_t out[PFT_PTM_ENC_MAX_PACKET];

	/* Independent spot checks of the helper against 5.9's layout. */
	PTU_EQ(ts_bytes(0, 47), 7);
	PTU_EQ(ts_bytes(0, 41), 6);
	PTU_EQ(ts_bytes(1, 48), 7);
	PTU_EQ(ts_bytes(1, 49), 8);
	PTU_EQ(ts_bytes(1, 56), 9);
	PTU_EQ(ts_bytes(1, 63), 9);

	for (int ts64 = 0; ts64 <= 1; ts64++) {
		struct pft_ptm_config cfg;
		struct pft_ptm_encoder *e;

		pft_ptm_config_init(&cfg);
		cfg.ts_64bit = (uint8_t)ts64;
		e = pft_ptm_enc_alloc(&cfg, NULL);
		PTU_CHECK(e != NULL);
		if (!e)
			return;
		for (int msb = 0; msb < (ts64 ? 64 : 48); msb++) {
			struct pft_ptm_packet zero = { .type = PFT_PTM_PKT_TIMESTAMP };
			struct pft_ptm_packet one = { .type = PFT_PTM_PKT_TIMESTAMP,
						  .ts = (uint64_t)1 << msb };
			unsigned want = ts_bytes(ts64, msb);
			int n;

			PTU_EQ(pft_ptm_enc_reset(e), 0);
			PTU_EQ(pft_ptm_enc_packet(e, &zero, out, sizeof(out)),
			       ts64 ? 10 : 8);
			n = pft_ptm_enc_packet(e, &one, out, sizeof(out));
			PTU_EQ(n, 1 + want);
			if (n < 2)
				continue;
			/* Continuation bits: 1 on all but the last byte. */
			for (int i = 1; i < n - 1; i++)
				PTU_EQ(out[i] >> 7, 1);
			if ((unsigned)n - 1 < (ts64 ? 9u : 7u))
				PTU_EQ(out[n - 1] >> 7, 0);
			/* The one set bit: 7 per byte, the rest in the
			 * final byte of a full-width value. */
			{
				int byte = msb / 7 < n - 2 ? msb / 7 : n - 2;
				int bit = msb - 7 * byte;

				PTU_EQ(out[1 + byte] & (1u << bit), 1u << bit);
			}
		}
		pft_ptm_enc_free(e);
	}
}

/* Section 6: the annotated start of the TC2 stream, byte for byte. */
static void test_tc2_stream(void)
{
	static const char *const tc2 =
		"00 00 00 00 00 80 08 83 8d 01 c0 01 "
		"42 cc 97 c6 ce af 90 80 80 00 00 e8 20 de 01 bc "
		"08 df 8d 01 c0 21 cc 03 84 a3 0b 68 17 bb b6 bd 01 04 88";
	static const struct pft_ptm_packet pkts[] = {
		{ .type = PFT_PTM_PKT_ASYNC },
		{ .type = PFT_PTM_PKT_ISYNC, .addr = 0xC0018D82,
		  .isa = PFT_ISA_THUMB },
		{ .type = PFT_PTM_PKT_TIMESTAMP, .ts = 0x82F9D18BCC,
		  .has_cycles = 1 },
		{ .type = PFT_PTM_PKT_ATOM, .n_atoms = 1, .atoms = 1,
		  .has_cycles = 1, .cycles = 522 },
		{ .type = PFT_PTM_PKT_ATOM, .n_atoms = 1, .atoms = 0,
		  .has_cycles = 1, .cycles = 23 },
		{ .type = PFT_PTM_PKT_ATOM, .n_atoms = 1, .atoms = 1,
		  .has_cycles = 1, .cycles = 15 },
		{ .type = PFT_PTM_PKT_ISYNC, .addr = 0xC0018DDE,
		  .isa = PFT_ISA_THUMB, .reason = PFT_ISYNC_TRACE_ON,
		  .has_cycles = 1, .cycles = 51 },
		{ .type = PFT_PTM_PKT_ATOM, .n_atoms = 1, .atoms = 1,
		  .has_cycles = 1, .cycles = 1 },
		{ .type = PFT_PTM_PKT_BRANCH, .addr = 0xC00185A2,
		  .isa = PFT_ISA_THUMB, .has_cycles = 1, .cycles = 378 },
		{ .type = PFT_PTM_PKT_BRANCH, .addr = 0xC02F5B3A,
		  .isa = PFT_ISA_THUMB, .has_cycles = 1, .cycles = 1 },
		{ .type = PFT_PTM_PKT_ATOM, .n_atoms = 1, .atoms = 1,
		  .has_cycles = 1, .cycles = 2 },
	};
	uint8_t want[64], got[64];
	size_t nwant = parse_hex(tc2, want, sizeof(want)), len = 0;
	struct stream s;

	stream_open(&s, CFG_TC2, 0);
	for (size_t i = 0; i < sizeof(pkts) / sizeof(pkts[0]); i++) {
		int n = pft_ptm_enc_packet(s.enc, &pkts[i], got + len,
				       sizeof(got) - len);

		PTU_CHECK(n > 0);
		if (n <= 0)
			break;
		len += (size_t)n;
		s.pkts[s.npkts++] = pkts[i];
	}
	PTU_EQ(len, nwant);
	PTU_CHECK(memcmp(got, want, nwant) == 0);
	memcpy(s.bytes, got, len);
	s.len = len;
	stream_close(&s);
}

/* A-sync keeps the state; reset forgets it. */
static void test_async_and_reset_state(void)
{
	struct stream s;

	stream_open(&s, CFG_TC2, 0);
	EXPECT(&s, "08 00 10 00 00 09", .type = PFT_PTM_PKT_ISYNC, .addr = 0x1000,
	       .isa = PFT_ISA_ARM, .ns = 1);
	EXPECT(&s, "42 81 80 80 80 80 80 80 80 00 00", .type = PFT_PTM_PKT_TIMESTAMP,
	       .ts = 1, .has_cycles = 1);
	EXPECT(&s, "00 00 00 00 00 80", .type = PFT_PTM_PKT_ASYNC);
	EXPECT(&s, "05 00", .type = PFT_PTM_PKT_BRANCH, .addr = 0x1008,
	       .isa = PFT_ISA_ARM, .ns = 1, .has_cycles = 1);
	EXPECT(&s, "42 02 00", .type = PFT_PTM_PKT_TIMESTAMP, .ts = 2,
	       .has_cycles = 1);
	PTU_EQ(pft_ptm_enc_reset(s.enc), 0);
	/* Base, state and timestamp forgotten: 0x1008 >> 2 = 0x402:
	 * 5 bytes + EX0 (NS), and a full timestamp. */
	EXPECT(&s, "85 90 80 80 48 01 00", .type = PFT_PTM_PKT_BRANCH,
	       .addr = 0x1008, .isa = PFT_ISA_ARM, .ns = 1, .has_cycles = 1);
	EXPECT(&s, "42 82 80 80 80 80 80 80 80 00 00", .type = PFT_PTM_PKT_TIMESTAMP,
	       .ts = 2, .has_cycles = 1);
	stream_close(&s);
}

static void test_invalid_packets(void)
{
	struct stream s;

	stream_open(&s, CFG_RSTK, 0);
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_NOTSYNC);
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_BAD);
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_TYPE_MAX);
	EXPECT_INVALID(&s, .type = (enum pft_ptm_packet_type)(PFT_PTM_PKT_TYPE_MAX + 2));
	/* Atoms: 0 or more than 5; cycles without cycle-accurate mode. */
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_ATOM, .n_atoms = 0);
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_ATOM, .n_atoms = 6);
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_ATOM, .n_atoms = 1,
		       .has_cycles = 1);
	/* I-sync: reason, flags, ISA, alignment, context ID. */
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_ISYNC, .reason = 4);
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_ISYNC, .ns = 2);
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_ISYNC, .isa = PFT_ISA_JAZELLE);
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_ISYNC, .isa = PFT_ISA_UNKNOWN);
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_ISYNC, .addr = 2);
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_ISYNC, .addr = 1,
		       .isa = PFT_ISA_THUMB);
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_ISYNC, .has_ctxid = 1);
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_ISYNC, .reason = 1,
		       .has_cycles = 1);
	/* Branch: exception range, alignment, cycles. */
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_BRANCH, .exception = 512);
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_BRANCH, .addr = 0x1002);
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_BRANCH, .isa = PFT_ISA_UNKNOWN);
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_BRANCH, .hyp = 2);
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_BRANCH, .has_cycles = 1);
	/* Waypoint update: no Jazelle format, never cycles. */
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_WAYPOINT, .isa = PFT_ISA_JAZELLE);
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_WAYPOINT, .has_cycles = 1);
	/* Context ID with ctxid_bytes = 0. */
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_CONTEXTID, .ctxid = 1);
	/* R is a flag. */
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_TIMESTAMP, .ts_clock_change = 2);
	stream_close(&s);

	stream_open(&s, CFG_TC2, 1);
	/* Cycle-accurate: one atom per packet, always a count. */
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_ATOM, .n_atoms = 2,
		       .has_cycles = 1);
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_ATOM, .n_atoms = 1);
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_BRANCH);
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_TIMESTAMP);
	/* Periodic I-syncs never carry cycles; the others always do. */
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_ISYNC, .has_cycles = 1);
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_ISYNC, .reason = 1);
	/* The context ID must fit in 1 byte. */
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_CONTEXTID, .ctxid = 0x100);
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_ISYNC, .has_ctxid = 1,
		       .ctxid = 0x100);
	stream_close(&s);

	/* PFTv1.0: no Hyp, no VMID. */
	stream_open(&s, CFG_A9, 0);
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_VMID, .vmid = 1);
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_ISYNC, .hyp = 1);
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_BRANCH, .hyp = 1, .has_cycles = 1);
	/* 48-bit timestamps: bit 48 does not fit. */
	EXPECT_INVALID(&s, .type = PFT_PTM_PKT_TIMESTAMP, .ts = 1ull << 48,
		       .has_cycles = 1);
	stream_close(&s);
}

/* Errors leave the state alone; a short buffer gives NOMEM. */
static void test_errors_keep_state(void)
{
	struct pft_ptm_packet isync = { .type = PFT_PTM_PKT_ISYNC, .addr = 0x1000,
				    .isa = PFT_ISA_ARM };
	struct pft_ptm_packet far = { .type = PFT_PTM_PKT_BRANCH, .addr = 0x80001000,
				  .isa = PFT_ISA_ARM };
	struct pft_ptm_packet bad = { .type = PFT_PTM_PKT_BRANCH, .addr = 0x1004,
				  .isa = PFT_ISA_ARM, .exception = 600 };
	struct pft_ptm_packet near = { .type = PFT_PTM_PKT_BRANCH, .addr = 0x1004,
				   .isa = PFT_ISA_ARM };
	struct pft_ptm_packet ts = { .type = PFT_PTM_PKT_TIMESTAMP, .ts = 5 };
	struct pft_ptm_config cfg;
	struct pft_ptm_encoder *e;
	uint8_t out[PFT_PTM_ENC_MAX_PACKET];

	pft_ptm_config_init(&cfg);
	e = pft_ptm_enc_alloc(&cfg, NULL);
	PTU_CHECK(e != NULL);
	if (!e)
		return;
	PTU_EQ(pft_ptm_enc_packet(e, &isync, out, sizeof(out)), 6);
	PTU_EQ(pft_ptm_enc_packet(e, &bad, out, sizeof(out)), -PFT_ERR_INVALID);
	/* Still relative to 0x1000: 0x1004 is AB0 only, A[7:2] = 1. */
	PTU_EQ(pft_ptm_enc_packet(e, &near, out, 1), 1);
	PTU_EQ(out[0], 0x03);
	/* 0x80001000 needs 5 bytes: 4 is too small, and the state (base
	 * 0x1004) must stay, so the retry gives the same 5 bytes. */
	memset(out, 0xee, sizeof(out));
	PTU_EQ(pft_ptm_enc_packet(e, &far, out, 4), -PFT_ERR_NOSPACE);
	PTU_EQ(out[0], 0xee);
	PTU_EQ(pft_ptm_enc_packet(e, &far, out, 0), -PFT_ERR_NOSPACE);
	PTU_EQ(pft_ptm_enc_packet(e, &far, out, 5), 5);
	/* v = 0x20000400: AB0 0x81, AB1 0x80 | 0x10, 0x80, 0x80, AB4 0x08|4. */
	PTU_EQ(out[0], 0x81);
	PTU_EQ(out[1], 0x90);
	PTU_EQ(out[4], 0x0c);
	/* The first timestamp is full even after a NOMEM on it. */
	PTU_EQ(pft_ptm_enc_packet(e, &ts, out, 3), -PFT_ERR_NOSPACE);
	PTU_EQ(pft_ptm_enc_packet(e, &ts, out, 10), 10);

	PTU_EQ(pft_ptm_enc_packet(NULL, &ts, out, sizeof(out)), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_enc_packet(e, NULL, out, sizeof(out)), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_enc_packet(e, &ts, NULL, sizeof(out)), -PFT_ERR_INVALID);
	pft_ptm_enc_free(e);
}

static void test_alloc(void)
{
	struct pft_ptm_config cfg;
	struct pft_ptm_encoder *e;
	int err = 0;

	PTU_CHECK(pft_ptm_enc_alloc(NULL, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	PTU_CHECK(pft_ptm_enc_alloc(NULL, NULL) == NULL);

	pft_ptm_config_init(&cfg);
	cfg.size = 0;
	err = 0;
	PTU_CHECK(pft_ptm_enc_alloc(&cfg, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);

	pft_ptm_config_init(&cfg);
	cfg.ctxid_bytes = 3;
	err = 0;
	PTU_CHECK(pft_ptm_enc_alloc(&cfg, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_BAD_CONFIG);

	cfg.ctxid_bytes = 2;
	err = 1;
	e = pft_ptm_enc_alloc(&cfg, &err);
	PTU_CHECK(e != NULL);
	PTU_EQ(err, 0);
	pft_ptm_enc_free(e);
	pft_ptm_enc_free(NULL);

	PTU_EQ(pft_ptm_enc_reset(NULL), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_enc_force_tsync(NULL), -PFT_ERR_INVALID);
}

/* A small deterministic generator (xorshift32). */
static uint32_t next_random(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* Random field values: every packet is either rejected or has the header
 * class of section 2 and a length within section 3's limits. */
static void test_random_packets(void)
{
	/* Longest packet per type (section 3). */
	static const int max_len[PFT_PTM_PKT_TYPE_MAX] = {
		[PFT_PTM_PKT_ASYNC] = 6, [PFT_PTM_PKT_ISYNC] = 15,
		[PFT_PTM_PKT_ATOM] = 5, [PFT_PTM_PKT_BRANCH] = 12,
		[PFT_PTM_PKT_WAYPOINT] = 7, [PFT_PTM_PKT_TRIGGER] = 1,
		[PFT_PTM_PKT_CONTEXTID] = 5, [PFT_PTM_PKT_VMID] = 2,
		[PFT_PTM_PKT_TIMESTAMP] = 15, [PFT_PTM_PKT_IGNORE] = 1,
		[PFT_PTM_PKT_EXCEPTION_RETURN] = 1,
	};
	static const uint8_t ctxid_sizes[4] = { 0, 1, 2, 4 };
	uint32_t seed = 777;
	int valid = 0;

	for (int c = 0; c < 16; c++) {
		struct pft_ptm_config cfg;
		struct pft_ptm_encoder *e;

		pft_ptm_config_init(&cfg);
		cfg.cycle_accurate = c & 1;
		cfg.ts_64bit = c >> 1 & 1;
		cfg.ts_gray = c >> 2 & 1;
		cfg.version_minor = c >> 3 & 1;
		cfg.ctxid_bytes = ctxid_sizes[c & 3];
		e = pft_ptm_enc_alloc(&cfg, NULL);
		PTU_CHECK(e != NULL);
		if (!e)
			return;
		for (int i = 0; i < 20000; i++) {
			uint32_t r = next_random(&seed);
			struct pft_ptm_packet p = {
				.type = (enum pft_ptm_packet_type)(r % PFT_PTM_PKT_TYPE_MAX),
				.addr = next_random(&seed) & ~(r >> 8 & 3u),
				.isa = (enum pft_isa)(r >> 10 & 3),
				.reason = r >> 12 & 3,
				.ns = r >> 14 & 1,
				.hyp = (r >> 15 & 7) == 0,
				.exception = (r >> 18 & 1) ? r >> 19 & 0x1ff : 0,
				.has_cycles = cfg.cycle_accurate,
				.cycles = next_random(&seed) >> (r >> 27),
				.n_atoms = 1 + (r >> 16 & 3),
				.atoms = (uint8_t)(r >> 20),
				.has_ctxid = (r >> 28 & 1) && cfg.ctxid_bytes,
				.ctxid = cfg.ctxid_bytes ? next_random(&seed) >>
					 (32 - 8 * cfg.ctxid_bytes) : 0,
				.vmid = (uint8_t)r,
				.ts = ((uint64_t)next_random(&seed) << 32 |
				       next_random(&seed)) >> (r >> 26),
				.ts_clock_change = r >> 29 & 1,
			};
			uint8_t out[PFT_PTM_ENC_MAX_PACKET];
			int n;

			if (p.type == PFT_PTM_PKT_ISYNC && p.reason == 0)
				p.has_cycles = 0;
			n = pft_ptm_enc_packet(e, &p, out, sizeof(out));
			if (n == -PFT_ERR_INVALID)
				continue;
			valid++;
			PTU_CHECK(n >= 1 && n <= max_len[p.type]);
			if (n < 1)
				continue;
			switch (p.type) {
			case PFT_PTM_PKT_BRANCH:
				PTU_EQ(out[0] & 1, 1);
				break;
			case PFT_PTM_PKT_ATOM:
				PTU_EQ(out[0] & 0x81, 0x80);
				/* 0x80/0x82 only when cycle-accurate (A2). */
				if (!cfg.cycle_accurate)
					PTU_CHECK(out[0] > 0x83);
				break;
			case PFT_PTM_PKT_TIMESTAMP:
				PTU_EQ(out[0] & 0xfb, 0x42);
				break;
			case PFT_PTM_PKT_ISYNC:
				PTU_EQ(out[0], 0x08);
				break;
			case PFT_PTM_PKT_WAYPOINT:
				PTU_EQ(out[0], 0x72);
				PTU_EQ(out[1] & 1, 1);
				break;
			default:
				break;
			}
		}
		pft_ptm_enc_free(e);
	}
	/* Most packets are valid: the test exercises the encoders. */
	PTU_CHECK(valid > 16 * 20000 / 2);
}

int main(void)
{
	PTU_RUN(test_async_and_single_byte_packets);
	PTU_RUN(test_isync_examples);
	PTU_RUN(test_isync_fields);
	PTU_RUN(test_atom_examples);
	PTU_RUN(test_cycle_count_boundaries);
	PTU_RUN(test_branch_examples);
	PTU_RUN(test_address_byte_table);
	PTU_RUN(test_branch_state);
	PTU_RUN(test_waypoint_compression);
	PTU_RUN(test_ctxid_vmid);
	PTU_RUN(test_timestamp_examples);
	PTU_RUN(test_timestamp_table);
	PTU_RUN(test_tc2_stream);
	PTU_RUN(test_async_and_reset_state);
	PTU_RUN(test_invalid_packets);
	PTU_RUN(test_errors_keep_state);
	PTU_RUN(test_alloc);
	PTU_RUN(test_random_packets);
	PTU_MAIN_END();
}
