/*
 * Packet decoder: branch-address (pft-protocol.md 4.2, 4.3, 5.4) and
 * waypoint-update packets (5.5).  Each case is a base set up by an I-sync
 * (or a 5-byte Jazelle branch), the packet under test and a trigger; the
 * address arithmetic is written out next to the bytes.  Bits not sent
 * are copied from the base (4.2.3): the bases are chosen so that adding
 * instead would give another address.
 */
#include "pkt_check.h"

static struct pft_ptm_config plain, ca;

/* Bases.  Periodic I-syncs, so that they carry no cycle count in CA. */

/* A = 0xABCDEFFC, T = 0: ARM 0xABCDEFFC. */
static const uint8_t isync_arm[] = { 0x08, 0xfc, 0xef, 0xcd, 0xab, 0x01 };
static const struct pft_ptm_packet isync_arm_e = {
	.type = PFT_PTM_PKT_ISYNC, .size = 6, .addr = 0xABCDEFFC, .isa = PFT_ISA_ARM
};

/* A = 0xABCDEFFF, T = 1: Thumb 0xABCDEFFE. */
static const uint8_t isync_thumb[] = { 0x08, 0xff, 0xef, 0xcd, 0xab, 0x01 };
static const struct pft_ptm_packet isync_thumb_e = {
	.type = PFT_PTM_PKT_ISYNC, .size = 6, .addr = 0xABCDEFFE, .isa = PFT_ISA_THUMB
};

/*
 * ARM I-sync, then a 5-byte Jazelle branch to 0x12345679:
 * AB0 f3 = 1_111001_1: A[5:0] = 0x39; AB1 d9: A[12:6] = 0x59;
 * AB2 a2: A[19:13] = 0x22; AB3 a3: A[26:20] = 0x23; AB4 22 = 0_0_1_00010:
 * Jazelle (bit 5), A[31:27] = 2.
 * 2<<27 + 0x23<<20 + 0x22<<13 + 0x59<<6 + 0x39 = 0x10000000 + 0x2300000 +
 * 0x44000 + 0x1640 + 0x39 = 0x12345679.
 */
static const uint8_t jazelle_base[] = { 0x08, 0xfc, 0xef, 0xcd, 0xab, 0x01,
					0xf3, 0xd9, 0xa2, 0xa3, 0x22 };
static const struct pft_ptm_packet jazelle_base_e[] = {
	{ .type = PFT_PTM_PKT_ISYNC, .size = 6, .addr = 0xABCDEFFC, .isa = PFT_ISA_ARM },
	{ .type = PFT_PTM_PKT_BRANCH, .size = 5, .addr = 0x12345679,
	  .isa = PFT_ISA_JAZELLE, .addr_bytes = 5 },
};

/* A-sync, @pre (expected @pre_e), the packets @pkt (expected @pkt_e), a
 * trigger. */
static void check_after(int line, const struct pft_ptm_config *cfg,
			const uint8_t *pre, size_t npre,
			const struct pft_ptm_packet *pre_e, size_t npre_e,
			const uint8_t *pkt, size_t npkt,
			const struct pft_ptm_packet *pkt_e, size_t npkt_e, int opts)
{
	uint8_t s[128] = { ASYNC6 };
	struct pft_ptm_packet e[32];
	size_t n = 6, ne = 0;

	memset(e, 0, sizeof(e));
	e[ne].type = PFT_PTM_PKT_ASYNC;
	e[ne++].size = 6;
	memcpy(s + n, pre, npre);
	n += npre;
	memcpy(e + ne, pre_e, npre_e * sizeof(*e));
	ne += npre_e;
	memcpy(s + n, pkt, npkt);
	n += npkt;
	memcpy(e + ne, pkt_e, npkt_e * sizeof(*e));
	ne += npkt_e;
	s[n++] = 0x0c;
	e[ne].type = PFT_PTM_PKT_TRIGGER;
	e[ne++].size = 1;
	pc_check_stream_opt(__FILE__, line, cfg, s, n, e, ne, opts);
}

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define AFTER_ARM(cfg, pkt, ...)                                              \
	do {                                                                  \
		static const uint8_t p_[] = pkt;                              \
		static const struct pft_ptm_packet e_[] = { __VA_ARGS__ };        \
		check_after(__LINE__, cfg, isync_arm, sizeof(isync_arm),      \
			    &isync_arm_e, 1, p_, sizeof(p_), e_, N(e_), 0);   \
	} while (0)
#define AFTER_THUMB(cfg, pkt, ...)                                            \
	do {                                                                  \
		static const uint8_t p_[] = pkt;                              \
		static const struct pft_ptm_packet e_[] = { __VA_ARGS__ };        \
		check_after(__LINE__, cfg, isync_thumb, sizeof(isync_thumb),  \
			    &isync_thumb_e, 1, p_, sizeof(p_), e_, N(e_), 0); \
	} while (0)
#define AFTER_JAZELLE(cfg, pkt, ...)                                          \
	do {                                                                  \
		static const uint8_t p_[] = pkt;                              \
		static const struct pft_ptm_packet e_[] = { __VA_ARGS__ };        \
		check_after(__LINE__, cfg, jazelle_base, sizeof(jazelle_base), \
			    jazelle_base_e, 2, p_, sizeof(p_), e_, N(e_), 0); \
	} while (0)
/* Brace-enclosed byte lists inside macro arguments. */
#define B(...) { __VA_ARGS__ }

#define BR(sz, a, i, k) \
	.type = PFT_PTM_PKT_BRANCH, .size = (sz), .addr = (a), .isa = (i), .addr_bytes = (k)
#define WP(sz, a, i, k) \
	.type = PFT_PTM_PKT_WAYPOINT, .size = (sz), .addr = (a), .isa = (i), .addr_bytes = (k)

/* ---- address lengths ---- */

static void branch_arm_lengths(void)
{
	/* Base 0xABCDEFFC.  k = 1: AB0 03 = 0_000001_1: A[7:2] = 1 -> low 8
	 * bits 0x04: 0xABCDEF04 (adding would give 0xABCDF000). */
	AFTER_ARM(&plain, B(0x03), { BR(1, 0xABCDEF04, PFT_ISA_ARM, 1) });
	/* k = 2: AB0 ab = 1_010101_1: A[7:2] = 0x15 -> 0x54; AB1 2a =
	 * 0_0_101010 (last, E = 0): A[13:8] = 0x2A -> low 14 bits 0x2A54;
	 * 0xABCDEFFC & ~0x3FFF = 0xABCDC000 -> 0xABCDEA54. */
	AFTER_ARM(&plain, B(0xab, 0x2a), { BR(2, 0xABCDEA54, PFT_ISA_ARM, 2) });
	/* k = 3: cf = 1_100111_1: A[7:2] = 0x27 -> 0x9C; d7: A[14:8] = 0x57
	 * -> 0x5700; 26 (last): A[20:15] = 0x26 -> 0x130000; low 21 bits
	 * 0x13579C; base & ~0x1FFFFF = 0xABC00000 -> 0xABD3579C. */
	AFTER_ARM(&plain, B(0xcf, 0xd7, 0x26), { BR(3, 0xABD3579C, PFT_ISA_ARM, 3) });
	/* k = 4: 97: A[7:2] = 0x0B -> 0x2C; c3: A[14:8] = 0x43 -> 0x4300;
	 * ca: A[21:15] = 0x4A -> 0x250000; 1d (last): A[27:22] = 0x1D ->
	 * 0x7400000; low 28 bits 0x765432C; base & ~0xFFFFFFF = 0xA0000000
	 * -> 0xA765432C. */
	AFTER_ARM(&plain, B(0x97, 0xc3, 0xca, 0x1d), { BR(4, 0xA765432C, PFT_ISA_ARM, 4) });
	/* k = 5: b5: A[7:2] = 0x1A -> 0x68; a4: A[14:8] = 0x24; ae:
	 * A[21:15] = 0x2E; cd: A[28:22] = 0x4D; AB4 0f = 0_0_001_111: ARM,
	 * A[31:29] = 7.  0xE0000000 + 0x4D<<22 (0x13400000) + 0x2E<<15
	 * (0x170000) + 0x2400 + 0x68 = 0xF3572468. */
	AFTER_ARM(&plain, B(0xb5, 0xa4, 0xae, 0xcd, 0x0f),
		  { BR(5, 0xF3572468, PFT_ISA_ARM, 5) });
}

static void branch_thumb_lengths(void)
{
	/* Base 0xABCDEFFE.  k = 1: 0b = 0_000101_1: A[6:1] = 5 -> 0x0A; low
	 * 7 bits: 0xABCDEF80 | 0x0A = 0xABCDEF8A. */
	AFTER_THUMB(&plain, B(0x0b), { BR(1, 0xABCDEF8A, PFT_ISA_THUMB, 1) });
	/* k = 2: df = 1_101111_1: A[6:1] = 0x2F -> 0x5E; 34 (last):
	 * A[12:7] = 0x34 -> 0x1A00; low 13 bits 0x1A5E; base & ~0x1FFF =
	 * 0xABCDE000 -> 0xABCDFA5E. */
	AFTER_THUMB(&plain, B(0xdf, 0x34), { BR(2, 0xABCDFA5E, PFT_ISA_THUMB, 2) });
	/* k = 3: df -> 0x5E; f9: A[13:7] = 0x79 -> 0x3C80; 26 (last):
	 * A[19:14] = 0x26 -> 0x98000; low 20 bits 0x9BCDE; base & ~0xFFFFF
	 * = 0xABC00000 -> 0xABC9BCDE. */
	AFTER_THUMB(&plain, B(0xdf, 0xf9, 0x26), { BR(3, 0xABC9BCDE, PFT_ISA_THUMB, 3) });
	/* k = 4: a7 = 1_010011_1: A[6:1] = 0x13 -> 0x26; cb: A[13:7] = 0x4B
	 * -> 0x2580; 96: A[20:14] = 0x16 -> 0x58000; 2d (last): A[26:21] =
	 * 0x2D -> 0x5A00000; low 27 bits 0x5A5A5A6; base & ~0x7FFFFFF =
	 * 0xA8000000 -> 0xADA5A5A6. */
	AFTER_THUMB(&plain, B(0xa7, 0xcb, 0x96, 0x2d),
		    { BR(4, 0xADA5A5A6, PFT_ISA_THUMB, 4) });
	/* k = 5: ab: A[6:1] = 0x15 -> 0x2A; 86: A[13:7] = 6 -> 0x300; 95:
	 * A[20:14] = 0x15 -> 0x54000; bb: A[27:21] = 0x3B -> 0x7600000; AB4
	 * 18 = 0_0_01_1000: Thumb, A[31:28] = 8 -> 0x8765432A.  From a Thumb
	 * and from an ARM base (alignment change, 4.2.4). */
	AFTER_THUMB(&plain, B(0xab, 0x86, 0x95, 0xbb, 0x18),
		    { BR(5, 0x8765432A, PFT_ISA_THUMB, 5) });
	AFTER_ARM(&plain, B(0xab, 0x86, 0x95, 0xbb, 0x18),
		  { BR(5, 0x8765432A, PFT_ISA_THUMB, 5) });
}

static void branch_jazelle_short(void)
{
	/* Base Jazelle 0x12345679.  k = 1: 0b = 0_000101_1: A[5:0] = 5 ->
	 * 0x12345640 | 5 = 0x12345645. */
	AFTER_JAZELLE(&plain, B(0x0b), { BR(1, 0x12345645, PFT_ISA_JAZELLE, 1) });
	/* k = 2: f9 = 1_111100_1: A[5:0] = 0x3C; 2a (last): A[11:6] = 0x2A
	 * -> 0xA80; low 12 bits 0xABC -> 0x12345ABC. */
	AFTER_JAZELLE(&plain, B(0xf9, 0x2a), { BR(2, 0x12345ABC, PFT_ISA_JAZELLE, 2) });
	/* k = 3: e3: A[5:0] = 0x31; fb: A[12:6] = 0x7B -> 0x1EC0; 3e
	 * (last): A[18:13] = 0x3E -> 0x7C000; low 19 bits 0x7DEF1; base &
	 * ~0x7FFFF = 0x12300000 -> 0x1237DEF1. */
	AFTER_JAZELLE(&plain, B(0xe3, 0xfb, 0x3e), { BR(3, 0x1237DEF1, PFT_ISA_JAZELLE, 3) });
	/* k = 4: df: A[5:0] = 0x2F; b7: A[12:6] = 0x37 -> 0xDC0; de:
	 * A[19:13] = 0x5E -> 0xBC000; 2a (last): A[25:20] = 0x2A ->
	 * 0x2A00000; low 26 bits 0x2ABCDEF; base & ~0x3FFFFFF = 0x10000000
	 * -> 0x12ABCDEF. */
	AFTER_JAZELLE(&plain, B(0xdf, 0xb7, 0xde, 0x2a),
		      { BR(4, 0x12ABCDEF, PFT_ISA_JAZELLE, 4) });
}

/* The worked examples of 5.4 are .pftt files: tests/pftt/
 * spec_branch_addresses.pftt and spec_branch_cycles.pftt. */

/* ---- exception information bytes (4.3) ---- */

static void branch_exception_bytes(void)
{
	/* Cut at every byte and fed in pieces here; the fields of this and
	 * the other plain ARM forms are tests/pftt/pkt_branch_exceptions.pftt.
	 * EX0 87: C, exception[3:0] = 3, NS; EX1 12: [8:4] = 0x12 -> 0x123. */
	AFTER_ARM(&plain, B(0xab, 0x6a, 0x87, 0x12),
		  { BR(4, 0xABCDEA54, PFT_ISA_ARM, 2), .exc_bytes = 2,
		    .exception = 0x123, .ns = 1 });
	/* 5-byte ARM, AB4 4f (E = 1) -> 0xF3572468; EX0 9d = 1001_1101:
	 * C, exception[3:0] 14, NS; EX1 01: [8:4] = 1 -> 0x1E = 30; CC 04. */
	AFTER_ARM(&ca, B(0xb5, 0xa4, 0xae, 0xcd, 0x4f, 0x9d, 0x01, 0x04),
		  { BR(8, 0xF3572468, PFT_ISA_ARM, 5), .exc_bytes = 2,
		    .exception = 30, .ns = 1, .has_cycles = 1, .cycles = 1 });
	/* Jazelle 2-byte with E: AB1 6a: E = 1, A[11:6] = 0x2A ->
	 * 0x12345ABC; EX0 01: NS. */
	AFTER_JAZELLE(&plain, B(0xf9, 0x6a, 0x01),
		      { BR(3, 0x12345ABC, PFT_ISA_JAZELLE, 2), .exc_bytes = 1,
			.ns = 1 });
	/* A 1-byte branch never has exception bytes: 43 = 0_100001_1 ->
	 * 0xABCDEF84; 1d is the next branch: A[7:2] = 0x0E -> 0xABCDEF38. */
	AFTER_ARM(&plain, B(0x43, 0x1d),
		  { BR(1, 0xABCDEF84, PFT_ISA_ARM, 1) },
		  { BR(1, 0xABCDEF38, PFT_ISA_ARM, 1) });
}

/* AltIS: Thumb <-> ThumbEE; sticky when no EX0 is sent (4.2.1, A11). */
static void branch_altis(void)
{
	AFTER_THUMB(&plain,
		B(0xdf, 0x74, 0x40,   /* AB1 74: E = 1, A[12:7] = 0x34; EX0 40: AltIS */
		  0x0b,               /* 1 byte: A[6:1] = 5 -> ...FA0A, still ThumbEE */
		  0xdf, 0x74, 0x00,   /* EX0 00: AltIS 0 -> Thumb again */
		  0x0b),              /* still Thumb */
		{ BR(3, 0xABCDFA5E, PFT_ISA_THUMBEE, 2), .exc_bytes = 1, .altis = 1 },
		/* base 0xABCDFA5E & ~0x7F = 0xABCDFA00 | 0x0A */
		{ BR(1, 0xABCDFA0A, PFT_ISA_THUMBEE, 1) },
		/* base 0xABCDFA0A & ~0x1FFF = 0xABCDE000 | 0x1A5E */
		{ BR(3, 0xABCDFA5E, PFT_ISA_THUMB, 2), .exc_bytes = 1 },
		{ BR(1, 0xABCDFA0A, PFT_ISA_THUMB, 1) });
	/* 5-byte Thumb with E (AB4 58 = 0_1_01_1000) and EX0 40 ->
	 * ThumbEE 0x8765432A; the next 5-byte Thumb address without EX0 is
	 * still ThumbEE (the previous state, 4.2.1). */
	AFTER_ARM(&plain,
		B(0xab, 0x86, 0x95, 0xbb, 0x58, 0x40,
		  0xab, 0x86, 0x95, 0xbb, 0x18),
		{ BR(6, 0x8765432A, PFT_ISA_THUMBEE, 5), .exc_bytes = 1, .altis = 1 },
		{ BR(5, 0x8765432A, PFT_ISA_THUMBEE, 5) });
	/* An I-sync into ThumbEE (info 25: AltIS) is remembered by later
	 * branches without EX0 (A11: AltIS is set by I-sync info bit 2). */
	static const uint8_t tee[] = { 0x08, 0xff, 0xef, 0xcd, 0xab, 0x25 };
	static const struct pft_ptm_packet tee_e = {
		.type = PFT_PTM_PKT_ISYNC, .size = 6, .addr = 0xABCDEFFE,
		.isa = PFT_ISA_THUMBEE, .altis = 1, .reason = PFT_ISYNC_TRACE_ON
	};
	static const uint8_t p[] = { 0x0b, 0xab, 0x86, 0x95, 0xbb, 0x18 };
	static const struct pft_ptm_packet e[] = {
		{ BR(1, 0xABCDEF8A, PFT_ISA_THUMBEE, 1) },
		{ BR(5, 0x8765432A, PFT_ISA_THUMBEE, 5) },
	};
	check_after(__LINE__, &plain, tee, 6, &tee_e, 1, p, sizeof(p), e, 2, 0);
}

/*
 * EX0 bit 6 sets AltIS whatever the target (A11: "set by I-sync info bit 2
 * and by EX0 bit 6"), and for an ARM target it is 0 (4.3).  So ThumbEE ->
 * ARM branch with EX0 (AltIS 0) -> 5-byte Thumb branch without EX0 is
 * Thumb: AltIS did not change since the last branch packet, so the PTM
 * sent no EX0.  OpenCSD's trc_pkt_lister decodes this sequence (with the
 * ThumbEE state entered by an EX0) as ThumbEE, ARM, Thumb2.  Without EX0
 * on the ARM branch, AltIS stays 1 (ThumbEE).
 */
static void branch_altis_cleared_by_arm_ex0(void)
{
	static const uint8_t tee[] = { 0x08, 0xff, 0xef, 0xcd, 0xab, 0x25 };
	static const struct pft_ptm_packet tee_e = {
		.type = PFT_PTM_PKT_ISYNC, .size = 6, .addr = 0xABCDEFFE,
		.isa = PFT_ISA_THUMBEE, .altis = 1, .reason = PFT_ISYNC_TRACE_ON
	};
	/* b5 a4 ae cd 4f: ARM 0xF3572468 with E; EX0 01: NS, AltIS 0;
	 * ab 86 95 bb 18: Thumb 0x8765432A, no EX0. */
	static const uint8_t p[] = { 0xb5, 0xa4, 0xae, 0xcd, 0x4f, 0x01,
				     0xab, 0x86, 0x95, 0xbb, 0x18 };
	static const struct pft_ptm_packet e[] = {
		{ BR(6, 0xF3572468, PFT_ISA_ARM, 5), .exc_bytes = 1, .ns = 1 },
		{ BR(5, 0x8765432A, PFT_ISA_THUMB, 5) },
	};
	check_after(__LINE__, &plain, tee, 6, &tee_e, 1, p, sizeof(p), e, 2, 0);

	/* Same through an EX0 into ThumbEE (AB4 58, EX0 40). */
	AFTER_ARM(&plain,
		B(0xab, 0x86, 0x95, 0xbb, 0x58, 0x40,
		  0xb5, 0xa4, 0xae, 0xcd, 0x4f, 0x01,
		  0xab, 0x86, 0x95, 0xbb, 0x18),
		{ BR(6, 0x8765432A, PFT_ISA_THUMBEE, 5), .exc_bytes = 1, .altis = 1 },
		{ BR(6, 0xF3572468, PFT_ISA_ARM, 5), .exc_bytes = 1, .ns = 1 },
		{ BR(5, 0x8765432A, PFT_ISA_THUMB, 5) });

	/* No EX0 on the ARM branch (AB4 0f): AltIS unchanged, ThumbEE. */
	static const uint8_t q[] = { 0xb5, 0xa4, 0xae, 0xcd, 0x0f,
				     0xab, 0x86, 0x95, 0xbb, 0x18 };
	static const struct pft_ptm_packet f[] = {
		{ BR(5, 0xF3572468, PFT_ISA_ARM, 5) },
		{ BR(5, 0x8765432A, PFT_ISA_THUMBEE, 5) },
	};
	check_after(__LINE__, &plain, tee, 6, &tee_e, 1, q, sizeof(q), f, 2, 0);
}

/* ---- cycle counts (4.1): branch CC0 has bits 7, 1, 0 = 0 ---- */

static void branch_cycle_counts(void)
{
	/* 03 -> 0xABCDEF04 each time (same low byte over the same upper
	 * bits), followed by a count of each length. */
	AFTER_ARM(&ca,
		B(0x03, 0x04,                         /* 0000_0100: 1 */
		  0x03, 0x68, 0x17,                   /* 10 + 23*16 = 378 */
		  0x03, 0x54, 0xb4, 0x24,             /* 5 + 0x34<<4 + 0x24<<11 = 0x12345 */
		  0x03, 0x7c, 0xde, 0xf9, 0x2a,       /* 0xF + 0x5E<<4 + 0x79<<11 + 0x2A<<18 = 0xABCDEF */
		  0x03, 0x78, 0xff, 0xff, 0xff, 0x7f, /* 0xE + ... + 0x7F<<25 = 0xFFFFFFFE */
		  0x03, 0x40, 0x80, 0x80, 0x80, 0xc0, /* 0x40<<25 = 0x80000000; CC4 is last */
		  0x03, 0x00),                        /* 0 */
		{ BR(2, 0xABCDEF04, PFT_ISA_ARM, 1), .has_cycles = 1, .cycles = 1 },
		{ BR(3, 0xABCDEF04, PFT_ISA_ARM, 1), .has_cycles = 1, .cycles = 378 },
		{ BR(4, 0xABCDEF04, PFT_ISA_ARM, 1), .has_cycles = 1, .cycles = 0x12345 },
		{ BR(5, 0xABCDEF04, PFT_ISA_ARM, 1), .has_cycles = 1, .cycles = 0xABCDEF },
		{ BR(6, 0xABCDEF04, PFT_ISA_ARM, 1), .has_cycles = 1, .cycles = 0xFFFFFFFE },
		{ BR(6, 0xABCDEF04, PFT_ISA_ARM, 1), .has_cycles = 1, .cycles = 0x80000000 },
		{ BR(2, 0xABCDEF04, PFT_ISA_ARM, 1), .has_cycles = 1, .cycles = 0 });
	/* After a 5-byte address, after EX0 and after EX1. */
	AFTER_ARM(&ca,
		B(0xb5, 0xa4, 0xae, 0xcd, 0x0f, 0x68, 0x17,
		  0xab, 0x6a, 0x01, 0x54, 0xb4, 0x24,
		  0xab, 0x6a, 0x9c, 0x20, 0x7c, 0xde, 0xf9, 0x2a),
		{ BR(7, 0xF3572468, PFT_ISA_ARM, 5), .has_cycles = 1, .cycles = 378 },
		/* base 0xF3572468 & ~0x3FFF = 0xF3570000 | 0x2A54 */
		{ BR(6, 0xF3572A54, PFT_ISA_ARM, 2), .exc_bytes = 1, .ns = 1,
		  .has_cycles = 1, .cycles = 0x12345 },
		{ BR(8, 0xF3572A54, PFT_ISA_ARM, 2), .exc_bytes = 2,
		  .exception = PFT_EXC_IRQ, .hyp = 1, .has_cycles = 1,
		  .cycles = 0xABCDEF });
}

/* ---- waypoint updates (5.5) ---- */

static void waypoint_lengths(void)
{
	/* Same address bytes as the ARM branches, after the 72 header. */
	AFTER_ARM(&plain, B(0x72, 0x03), { WP(2, 0xABCDEF04, PFT_ISA_ARM, 1) });
	AFTER_ARM(&plain, B(0x72, 0xab, 0x2a), { WP(3, 0xABCDEA54, PFT_ISA_ARM, 2) });
	AFTER_ARM(&plain, B(0x72, 0xcf, 0xd7, 0x26), { WP(4, 0xABD3579C, PFT_ISA_ARM, 3) });
	AFTER_ARM(&plain, B(0x72, 0x97, 0xc3, 0xca, 0x1d),
		  { WP(5, 0xA765432C, PFT_ISA_ARM, 4) });
	/* 5 bytes, AB4 0f has bit 6 = 0: no information byte. */
	AFTER_ARM(&plain, B(0x72, 0xb5, 0xa4, 0xae, 0xcd, 0x0f),
		  { WP(6, 0xF3572468, PFT_ISA_ARM, 5) });
	/* Thumb, short and 5 bytes (AB4 18: Thumb, bit 6 = 0). */
	AFTER_THUMB(&plain, B(0x72, 0xdf, 0x34), { WP(3, 0xABCDFA5E, PFT_ISA_THUMB, 2) });
	AFTER_ARM(&plain, B(0x72, 0xab, 0x86, 0x95, 0xbb, 0x18),
		  { WP(6, 0x8765432A, PFT_ISA_THUMB, 5) });
	/* A5: bit 6 of a shorter final byte is no flag: 72 ab 6a is 3
	 * bytes (A[13:8] = 0x2A as usual) and 0c is a trigger. */
	AFTER_ARM(&plain, B(0x72, 0xab, 0x6a), { WP(3, 0xABCDEA54, PFT_ISA_ARM, 2) });
	/* No cycle count in CA mode: 84 after it is a CA atom. */
	AFTER_ARM(&ca, B(0x72, 0x03, 0x84),
		  { WP(2, 0xABCDEF04, PFT_ISA_ARM, 1) },
		  { .type = PFT_PTM_PKT_ATOM, .size = 1, .n_atoms = 1, .atoms = 1,
		    .has_cycles = 1, .cycles = 1 });
}

/*
 * A5: the information byte follows a 5-byte address whose AB4 has bit 6
 * set; its bit 6 is AltIS.  pft.h documents altis for ISYNC and BRANCH
 * only ("the others are zero"), so the ThumbEE selection shows in @isa and
 * exc_bytes = 1.  The altis field is compared in its own core-only check.
 */
static void waypoint_information_byte(void)
{
	static const uint8_t p[] = { 0x72, 0xab, 0x86, 0x95, 0xbb, 0x58, 0x40,
				     0x72, 0xab, 0x86, 0x95, 0xbb, 0x58, 0x00 };
	static const struct pft_ptm_packet e[] = {
		{ WP(7, 0x8765432A, PFT_ISA_THUMBEE, 5), .exc_bytes = 1, .altis = 1 },
		{ WP(7, 0x8765432A, PFT_ISA_THUMB, 5), .exc_bytes = 1 },
	};

	check_after(__LINE__, &plain, isync_arm, 6, &isync_arm_e, 1, p,
		    sizeof(p), e, 2, PC_OPT_IGNORE_ALTIS);
}

static void waypoint_altis_field_per_contract(void)
{
	static const uint8_t p[] = { 0x72, 0xab, 0x86, 0x95, 0xbb, 0x58, 0x40 };
	static const struct pft_ptm_packet e[] = {
		{ WP(7, 0x8765432A, PFT_ISA_THUMBEE, 5), .exc_bytes = 1, .altis = 1 },
	};

	check_after(__LINE__, &plain, isync_arm, 6, &isync_arm_e, 1, p,
		    sizeof(p), e, 1, PC_OPT_CORE_ONLY);
}

/* A4: the decoder follows OpenCSD: a waypoint update is an address-bearing
 * packet for the compression base and the instruction set. */
static void waypoint_updates_base(void)
{
	/* 72 cf d7 26 -> 0xABD3579C; then branch 03: low 8 bits 0x04 over
	 * 0xABD3579C -> 0xABD35704 (over the I-sync it would be 0xABCDEF04). */
	AFTER_ARM(&plain, B(0x72, 0xcf, 0xd7, 0x26, 0x03),
		  { WP(4, 0xABD3579C, PFT_ISA_ARM, 3) },
		  { BR(1, 0xABD35704, PFT_ISA_ARM, 1) });
	/* 5-byte Thumb waypoint from an ARM base, then a 1-byte branch:
	 * Thumb, 0x8765432A & ~0x7F | 0x0A = 0x8765430A. */
	AFTER_ARM(&plain, B(0x72, 0xab, 0x86, 0x95, 0xbb, 0x18, 0x0b),
		  { WP(6, 0x8765432A, PFT_ISA_THUMB, 5) },
		  { BR(1, 0x8765430A, PFT_ISA_THUMB, 1) });
	/* 5.5 (A9, CA): base ARM 0xC0010EF0; 72 79: A[7:2] = 0x3C ->
	 * 0xC0010EF0; then the IRQ exception branch of 5.4. */
	static const uint8_t b[] = { 0x08, 0xf0, 0x0e, 0x01, 0xc0, 0x01 };
	static const struct pft_ptm_packet be = { .type = PFT_PTM_PKT_ISYNC, .size = 6,
					      .addr = 0xC0010EF0 };
	static const uint8_t p[] = { 0x72, 0x79, 0x8d, 0x80, 0xfe, 0xff, 0x4f,
				     0x1d, 0x3c };
	static const struct pft_ptm_packet e[] = {
		{ WP(2, 0xC0010EF0, PFT_ISA_ARM, 1) },
		{ BR(7, 0xFFFF0018, PFT_ISA_ARM, 5), .exc_bytes = 1,
		  .exception = PFT_EXC_IRQ, .ns = 1, .has_cycles = 1, .cycles = 15 },
	};
	check_after(__LINE__, &ca, b, 6, &be, 1, p, sizeof(p), e, 2, 0);
}

int main(void)
{
	plain = pc_cfg(0, 0, 1, 0);
	ca = pc_cfg(1, 0, 1, 0);

	PTU_RUN(branch_arm_lengths);
	PTU_RUN(branch_thumb_lengths);
	PTU_RUN(branch_jazelle_short);
	PTU_RUN(branch_exception_bytes);
	PTU_RUN(branch_altis);
	PTU_RUN(branch_altis_cleared_by_arm_ex0);
	PTU_RUN(branch_cycle_counts);
	PTU_RUN(waypoint_lengths);
	PTU_RUN(waypoint_information_byte);
	PTU_RUN(waypoint_altis_field_per_contract);
	PTU_RUN(waypoint_updates_base);
	PC_CATEGORY_TESTS();
	PTU_MAIN_END();
}
