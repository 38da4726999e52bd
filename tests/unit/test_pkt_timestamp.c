/*
 * Packet decoder: timestamp packets (pft-protocol.md 5.9): 48- and 64-bit
 * lengths, merging with the previous value, Gray decoding, the R bit and
 * cycle counts.
 */
#include "pkt_check.h"

#define TS(sz, v, raw, bits) \
	.type = PFT_PTM_PKT_TIMESTAMP, .size = (sz), .ts = (v), .ts_raw = (raw), .ts_bits = (bits)
/* Binary streams: ts_raw is the value itself. */
#define TSB(sz, v, bits) TS(sz, v, v, bits)

static struct pft_ptm_config bin64, bin48, bin64ca, gray48, gray64;

static void check_ts(int line, const struct pft_ptm_config *cfg, const uint8_t *s,
		     size_t n, const struct pft_ptm_packet *e, size_t ne)
{
	pc_check_stream(__FILE__, line, cfg, s, n, e, ne);
}

/*
 * Every length of a 64-bit packet.  After an all-ones value, k groups of
 * zeros clear exactly the low 7k bits (k = 9: all 64); after all zeros,
 * k groups of ones set them.
 */
static void timestamp_64bit_lengths(void)
{
	static const uint64_t cleared[10] = {
		0, 0xFFFFFFFFFFFFFF80ull, 0xFFFFFFFFFFFFC000ull,
		0xFFFFFFFFFFE00000ull, 0xFFFFFFFFF0000000ull,
		0xFFFFFFF800000000ull, 0xFFFFFC0000000000ull,
		0xFFFE000000000000ull, 0xFF00000000000000ull, 0
	};
	static const uint64_t set[10] = {
		0, 0x7Full, 0x3FFFull, 0x1FFFFFull, 0xFFFFFFFull,
		0x7FFFFFFFFull, 0x3FFFFFFFFFFull, 0x1FFFFFFFFFFFFull,
		0xFFFFFFFFFFFFFFull, 0xFFFFFFFFFFFFFFFFull
	};

	for (unsigned k = 1; k <= 9; k++) {
		uint8_t s[32] = { ASYNC6, 0x42 };
		size_t n = 7;

		/* Full all ones: 8 bytes ff (C + 0x7F) and a last 8-bit ff. */
		memset(s + n, 0xff, 9);
		n += 9;
		s[n++] = 0x42;
		for (unsigned j = 1; j < k; j++)
			s[n++] = 0x80;
		/* The k-th byte: no C bit (k <= 8), or the 9th byte. */
		s[n++] = 0x00;
		s[n++] = 0x0c;
		const unsigned bits = k == 9 ? 64 : 7 * k;
		const struct pft_ptm_packet e[] = {
			E_ASYNC(6), { TSB(10, ~0ull, 64) },
			{ TSB(1 + k, cleared[k], bits) }, E_TRIGGER
		};

		check_ts(__LINE__, &bin64, s, n, e, 4);

		/* Full zeros, then k groups of ones. */
		uint8_t t[32] = { ASYNC6, 0x42 };

		n = 7;
		memset(t + n, 0x80, 8);
		n += 8;
		t[n++] = 0x00;
		t[n++] = 0x42;
		for (unsigned j = 1; j < k; j++)
			t[n++] = 0xff;
		t[n++] = k == 9 ? 0xff : 0x7f;
		t[n++] = 0x0c;
		const struct pft_ptm_packet f[] = {
			E_ASYNC(6), { TSB(10, 0, 64) },
			{ TSB(1 + k, set[k], bits) }, E_TRIGGER
		};

		check_ts(__LINE__, &bin64, t, n, f, 4);
	}

	/* The 9th byte is 8 value bits, bit 7 included (no C bit): 80 is
	 * TS[63] and 0c after it is a trigger. */
	static const uint8_t s[] = { ASYNC6, 0x42, 0x80, 0x80, 0x80, 0x80, 0x80,
				     0x80, 0x80, 0x80, 0x80, 0x0c };
	static const struct pft_ptm_packet e[] = {
		E_ASYNC(6), { TSB(10, 0x8000000000000000ull, 64) }, E_TRIGGER
	};
	PC_CHECK(&bin64, s, e);
}

static void timestamp_48bit_lengths(void)
{
	static const uint64_t cleared[8] = {
		0, 0xFFFFFFFFFF80ull, 0xFFFFFFFFC000ull, 0xFFFFFFE00000ull,
		0xFFFFF0000000ull, 0xFFF800000000ull, 0xFC0000000000ull, 0
	};

	for (unsigned k = 1; k <= 7; k++) {
		/* Full all ones: 6 bytes ff and a last byte 3f (TS[47:42]). */
		uint8_t s[32] = { ASYNC6, 0x42, 0xff, 0xff, 0xff, 0xff, 0xff,
				  0xff, 0x3f, 0x42 };
		size_t n = 15;

		for (unsigned j = 1; j < k; j++)
			s[n++] = 0x80;
		s[n++] = 0x00;
		s[n++] = 0x0c;
		const unsigned bits = k == 7 ? 48 : 7 * k;
		const struct pft_ptm_packet e[] = {
			E_ASYNC(6), { TSB(8, 0xFFFFFFFFFFFFull, 48) },
			{ TSB(1 + k, cleared[k], bits) }, E_TRIGGER
		};

		check_ts(__LINE__, &bin48, s, n, e, 4);
	}

	/* The 7th byte is the last one; its bits 7:6 are reserved: ff gives
	 * TS[47:42] = 0x3F and 0c after it is a trigger. */
	static const uint8_t s[] = { ASYNC6, 0x42, 0x80, 0x80, 0x80, 0x80, 0x80,
				     0x80, 0xff, 0x0c };
	static const struct pft_ptm_packet e[] = {
		E_ASYNC(6), { TSB(8, 0xFC0000000000ull, 48) }, E_TRIGGER
	};
	PC_CHECK(&bin48, s, e);
}

/* The value is kept across A-syncs: a compressed timestamp after a new
 * A-sync still merges with it (5.9: a full one need not follow every
 * A-sync). */
static void timestamp_kept_across_async(void)
{
	static const uint8_t s[] = {
		ASYNC6,
		0x42, 0xcc, 0x97, 0xc6, 0xce, 0xaf, 0x90, 0x80, 0x80, 0x00,
		ASYNC6,
		0x42, 0x49,
		0x0c
	};
	static const struct pft_ptm_packet e[] = {
		E_ASYNC(6), { TSB(10, 0x82F9D18BCCull, 64) }, E_ASYNC(6),
		/* 0x82F9D18BCC with TS[6:0] = 0x49: 0x82F9D18B80 | 0x49. */
		{ TSB(2, 0x82F9D18BC9ull, 7) }, E_TRIGGER
	};

	PC_CHECK(&bin64, s, e);
}

static void timestamp_gray(void)
{
	struct pft_ptm_config a9;

	pft_ptm_config_init(&a9);
	PTU_EQ(pft_ptm_config_from_regs(&a9, 0x10001000, 0x000008EA, 0x411CF301,
				    0x10), 0);
	/* 5.9, A9 (48-bit Gray, CA): groups 0x67 0x70 0x2E 0x48 0x0E 0x0B
	 * and last byte 0 -> 0x67 + 0x3800 + 0xB8000 + 0x9000000 +
	 * 0xE0000000 + 0x5800000000 = 0x58E90BB867 (Gray) -> binary
	 * 0x6F4E0D2FBA; CC 0c = 3.  Then 42 00 | 00: Gray bits [6:0] = 0 ->
	 * raw 0x58E90BB800; binary bits >= 7 are unchanged (they depend only
	 * on Gray bits >= 7) and binary[7] = 1 (0xBA = 1011_1010), so bits
	 * [6:0] = 1 XOR 0 ... = 0x7F -> 0x6F4E0D2FFF; CC 0. */
	static const uint8_t s[] = {
		ASYNC6,
		0x42, 0xe7, 0xf0, 0xae, 0xc8, 0x8e, 0x8b, 0x00, 0x0c,
		0x42, 0x00, 0x00,
		0x0c
	};
	static const struct pft_ptm_packet e[] = {
		E_ASYNC(6),
		{ TS(9, 0x6F4E0D2FBAull, 0x58E90BB867ull, 48), .has_cycles = 1,
		  .cycles = 3 },
		{ TS(3, 0x6F4E0D2FFFull, 0x58E90BB800ull, 7), .has_cycles = 1 },
		E_TRIGGER
	};
	PC_CHECK(&a9, s, e);

	/* Gray 1000...0 is binary 111...1, over the stream's width: 48-bit
	 * 42 80 80 80 80 80 80 20 (TS[47] = bit 5 of the last byte). */
	static const uint8_t s48[] = { ASYNC6, 0x42, 0x80, 0x80, 0x80, 0x80,
				       0x80, 0x80, 0x20, 0x0c };
	static const struct pft_ptm_packet e48[] = {
		E_ASYNC(6), { TS(8, 0xFFFFFFFFFFFFull, 0x800000000000ull, 48) },
		E_TRIGGER
	};
	PC_CHECK(&gray48, s48, e48);

	/* 64-bit Gray (v1.1, ETMCCER[28] = 0, [29] = 1). */
	static const uint8_t s64[] = { ASYNC6, 0x42, 0x80, 0x80, 0x80, 0x80,
				       0x80, 0x80, 0x80, 0x80, 0x80, 0x0c };
	static const struct pft_ptm_packet e64[] = {
		E_ASYNC(6),
		{ TS(10, 0xFFFFFFFFFFFFFFFFull, 0x8000000000000000ull, 64) },
		E_TRIGGER
	};
	PC_CHECK(&gray64, s64, e64);
}

static void timestamp_clock_change_and_cycles(void)
{
	/* 46 = 0100_0110: R = 1 (clock changed).  42: R = 0. */
	static const uint8_t s[] = { ASYNC6, 0x46, 0x05, 0x42, 0x06, 0x0c };
	static const struct pft_ptm_packet e[] = {
		E_ASYNC(6), { TSB(2, 5, 7), .ts_clock_change = 1 },
		{ TSB(2, 6, 7) }, E_TRIGGER
	};
	PC_CHECK(&bin64, s, e);

	/* CA: a cycle count of every length after the value (4.1; CC0
	 * bit 7 = 0 for timestamps). */
	static const uint8_t t[] = {
		ASYNC6,
		0x46, 0x05, 0x04,                         /* 1 */
		0x42, 0x05, 0x68, 0x17,                   /* 378 */
		0x42, 0x05, 0x54, 0xb4, 0x24,             /* 0x12345 */
		0x42, 0x05, 0x7c, 0xde, 0xf9, 0x2a,       /* 0xABCDEF */
		0x42, 0x05, 0x78, 0xff, 0xff, 0xff, 0x7f, /* 0xFFFFFFFE */
		0x0c
	};
	static const struct pft_ptm_packet f[] = {
		E_ASYNC(6),
		{ TSB(3, 5, 7), .ts_clock_change = 1, .has_cycles = 1, .cycles = 1 },
		{ TSB(4, 5, 7), .has_cycles = 1, .cycles = 378 },
		{ TSB(5, 5, 7), .has_cycles = 1, .cycles = 0x12345 },
		{ TSB(6, 5, 7), .has_cycles = 1, .cycles = 0xABCDEF },
		{ TSB(7, 5, 7), .has_cycles = 1, .cycles = 0xFFFFFFFE },
		E_TRIGGER
	};
	PC_CHECK(&bin64ca, t, f);
}

int main(void)
{
	bin64 = pc_cfg(0, 0, 1, 0);
	bin48 = pc_cfg(0, 0, 0, 0);
	bin64ca = pc_cfg(1, 0, 1, 0);
	gray48 = pc_cfg(0, 0, 0, 1);
	gray64 = pc_cfg(0, 0, 1, 1);

	PTU_RUN(timestamp_64bit_lengths);
	PTU_RUN(timestamp_48bit_lengths);
	PTU_RUN(timestamp_kept_across_async);
	PTU_RUN(timestamp_gray);
	PTU_RUN(timestamp_clock_change_and_cycles);
	PC_CATEGORY_TESTS();
	PTU_MAIN_END();
}
