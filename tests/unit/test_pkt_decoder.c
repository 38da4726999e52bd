/*
 * Packet decoder: synchronisation, errors, small packets and the API.
 * Expected values come from shared/spec/pft-protocol.md (section numbers
 * in the comments) and from the contract comments in include/pft.h.
 * I-sync/atoms, branches/waypoints, timestamps and the fuzz check are in
 * the other test_pkt_*.c files.
 */
#include "pkt_check.h"

static struct pft_ptm_config plain, ca;

/* ---- A-sync and NOTSYNC (1, 5.1) ---- */

static void async_five_zeros(void)
{
	/* 5.1: 00 00 00 00 00 80 aligns; the next byte is a header (0C,
	 * trigger, 5.6). */
	static const uint8_t s[] = { ASYNC6, 0x0c };
	static const struct pft_ptm_packet e[] = { E_ASYNC(6), E_TRIGGER };

	PC_CHECK(&plain, s, e);
}

/* m zeros then 0x80, both as the first A-sync and as a later one. */
static void async_more_zeros_up_to_15(void)
{
	for (unsigned m = 5; m <= 15; m++) {
		uint8_t s[32];
		size_t n = 0;

		memset(s, 0, m);
		n = m;
		s[n++] = 0x80;
		s[n++] = 0x0c;
		const struct pft_ptm_packet e[] = { E_ASYNC(m + 1), E_TRIGGER };

		pc_check_stream(__FILE__, __LINE__, &plain, s, n, e, 2);

		/* The same A-sync while synchronised. */
		uint8_t s2[40] = { ASYNC6 };

		memcpy(s2 + 6, s, n);
		const struct pft_ptm_packet e2[] = { E_ASYNC(6), E_ASYNC(m + 1),
						 E_TRIGGER };

		pc_check_stream(__FILE__, __LINE__, &plain, s2, n + 6, e2, 3);
	}
}

/*
 * More than 15 zeros while synchronised: still an A-sync (5.1: decoders
 * accept more than five zeros).  One A-sync packet holds at most 15 zeros
 * and the 0x80; the zeros before come first in pieces of at most 16 (pft.h,
 * pft_ptm_pkt_next), split off while 31 or more zeros are left:
 *   16 zeros:  1, then 15 + 0x80
 *   30 zeros: 15, then 15 + 0x80
 *   31 zeros: 16, then 15 + 0x80
 *  100 zeros: 16 x 5 (100 -> 20 left), 5, then 15 + 0x80
 * Decoding goes on synchronised: the trigger after it is a trigger.
 */
static void async_many_zeros_synced(void)
{
	static const struct {
		unsigned zeros;
		unsigned npieces;
		unsigned pieces[8];
	} cases[] = {
		{ 16, 2, { 1, 16 } },
		{ 30, 2, { 15, 16 } },
		{ 31, 2, { 16, 16 } },
		{ 100, 7, { 16, 16, 16, 16, 16, 5, 16 } },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		uint8_t s[128] = { ASYNC6 };
		size_t n = 6 + cases[c].zeros;
		struct pft_ptm_packet e[10] = { E_ASYNC(6) };
		size_t ne = 1;

		s[n++] = 0x80;
		s[n++] = 0x0c;
		for (unsigned k = 0; k < cases[c].npieces; k++)
			e[ne++] = (struct pft_ptm_packet)E_ASYNC(cases[c].pieces[k]);
		e[ne++] = (struct pft_ptm_packet)E_TRIGGER;
		pc_check_stream_opt(__FILE__, __LINE__, &plain, s, n, e, ne,
				    PC_OPT_NO_TRUNC);
	}
}

/*
 * 100,000 zeros and 0x80 while synchronised, fed in blocks of 4096 and
 * 1 byte: every byte comes back once, in A-sync packets of at most 16
 * bytes (so the decoder holds at most a carry's worth), the last one
 * 15 zeros and 0x80, and the trigger after it is decoded.
 */
static void async_hundred_thousand_zeros(void)
{
	enum { ZEROS = 100000 };
	const size_t len = 6 + ZEROS + 2;
	uint8_t *s = calloc(len, 1);

	PTU_CHECK(s != NULL);
	if (!s)
		return;
	s[5] = 0x80;
	s[6 + ZEROS] = 0x80;
	s[6 + ZEROS + 1] = 0x0c;
	static const size_t blocks[] = { 4096, 1 };
	for (size_t b = 0; b < 2; b++) {
		struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(&plain, NULL);
		struct pft_ptm_packet p;
		uint64_t next = 0;
		size_t asyncs = 0, triggers = 0, others = 0, last_size = 0;
		int last_ends_80 = 0;

		PTU_CHECK(d != NULL);
		if (!d)
			break;
		for (size_t at = 0; at < len; at += blocks[b]) {
			size_t k = len - at < blocks[b] ? len - at : blocks[b];
			int st;

			PTU_EQ(pft_ptm_pkt_feed(d, s + at, k), 0);
			if (at + k == len)
				pft_ptm_pkt_finish(d);
			while ((st = pft_ptm_pkt_next(d, &p, sizeof(p))) == 0) {
				if (p.offset != next || p.size > 16)
					others++;
				next = p.offset + p.size;
				if (p.type == PFT_PTM_PKT_ASYNC) {
					asyncs++;
					last_size = p.size;
					last_ends_80 = p.raw[p.size - 1] == 0x80;
				} else if (p.type == PFT_PTM_PKT_TRIGGER) {
					triggers++;
				} else {
					others++;
				}
			}
			PTU_EQ(st, at + k == len ? -PFT_ERR_EOS : -PFT_ERR_NEED_INPUT);
		}
		PTU_EQ(next, len);
		PTU_EQ(others, 0);
		PTU_EQ(triggers, 1);
		PTU_EQ(last_size, 16);
		PTU_CHECK(last_ends_80);
		/* The first A-sync, (100000 - 15) / 16 rounded up pieces, and
		 * the closing 15 zeros and 0x80. */
		PTU_EQ(asyncs, 1 + (ZEROS - 15 + 15) / 16 + 1);
		pft_ptm_pkt_free(d);
	}
	free(s);
}

/*
 * A synchronised stream ending in zeros: a truncated A-sync (at finish,
 * the carried zeros, up to 30 of them).  From 31 zeros on, 16 have been
 * given as an A-sync piece before the end is seen.
 */
static void async_zero_run_at_end_synced(void)
{
	for (unsigned m = 1; m <= 40; m++) {
		uint8_t s[64] = { ASYNC6, 0x0c };

		const struct pft_ptm_packet trunc[] = {
			E_ASYNC(6), E_TRIGGER, E_BAD(PFT_ERR_PKT_TRUNCATED, m)
		};
		const struct pft_ptm_packet piece[] = {
			E_ASYNC(6), E_TRIGGER, E_ASYNC(16),
			E_BAD(PFT_ERR_PKT_TRUNCATED, m - 16)
		};

		if (m <= 30)
			pc_check_stream_opt(__FILE__, __LINE__, &plain, s, 7 + m,
					    trunc, 3, PC_OPT_NO_TRUNC);
		else
			pc_check_stream_opt(__FILE__, __LINE__, &plain, s, 7 + m,
					    piece, 4, PC_OPT_NO_TRUNC);
	}
}

/* Zeros ended by something other than 0x80 after a long run: the pieces
 * seen before are A-sync, the rest (at most 16 bytes) is the malformed
 * A-sync, then NOTSYNC up to the next A-sync. */
static void async_long_run_malformed(void)
{
	uint8_t s[80] = { ASYNC6 };
	size_t n = 6 + 40;

	s[n++] = 0x05;
	const uint8_t tail[] = { ASYNC6, 0x0c };
	memcpy(s + n, tail, sizeof(tail));
	n += sizeof(tail);
	/* 40 zeros: a piece of 16 (31 in sight), then 24 zeros and 05: BAD
	 * (16 bytes) merged with the NOTSYNC 8 zeros and 05. */
	const struct pft_ptm_packet e[] = {
		E_ASYNC(6), E_ASYNC(16), E_BAD(PFT_ERR_PKT_ASYNC, 25), E_ASYNC(6),
		E_TRIGGER
	};

	pc_check_stream_opt(__FILE__, __LINE__, &plain, s, n, e, 5,
			    PC_OPT_NO_TRUNC);
}

static void async_too_many_zeros_unsynced(void)
{
	/* 20 zeros, 0x80: the first 5 are not part of the A-sync (at most 15
	 * zeros), they are NOTSYNC. */
	uint8_t s[22] = { 0 };

	s[20] = 0x80;
	s[21] = 0x0c;
	static const struct pft_ptm_packet e[] = { E_NOTSYNC(5), E_ASYNC(16),
					       E_TRIGGER };
	PC_CHECK(&plain, s, e);
}

/* 5.1: inside a synchronised stream, a 0x00 header not followed by at
 * least 5 zeros in all and 0x80 is a malformed A-sync: BAD (PFT_ERR_PKT_ASYNC,
 * -PFT_ERR_BAD_PACKET), then NOTSYNC up to the next A-sync. */
static void async_malformed_synced(void)
{
	for (unsigned z = 1; z <= 4; z++) {
		/* z zeros and 0x80 (too few zeros), then 84 (not decoded:
		 * not synchronised), then an A-sync and a trigger. */
		uint8_t s[32] = { ASYNC6, 0x0c };
		size_t n = 7 + z;

		s[n++] = 0x80;
		s[n++] = 0x84;
		const uint8_t tail[] = { ASYNC6, 0x0c };

		memcpy(s + n, tail, sizeof(tail));
		n += sizeof(tail);
		const struct pft_ptm_packet e[] = {
			E_ASYNC(6), E_TRIGGER, E_BAD(PFT_ERR_PKT_ASYNC, z + 2),
			E_ASYNC(6), E_TRIGGER
		};

		pc_check_stream(__FILE__, __LINE__, &plain, s, n, e, 5);
	}
	/* 00 00 05: zeros ended by something other than 0x00/0x80. */
	static const uint8_t s[] = { ASYNC6, 0x00, 0x00, 0x05, ASYNC6, 0x0c };
	static const struct pft_ptm_packet e[] = {
		E_ASYNC(6), E_BAD(PFT_ERR_PKT_ASYNC, 3), E_ASYNC(6), E_TRIGGER
	};

	PC_CHECK(&plain, s, e);
}

static void notsync_before_first_async(void)
{
	/* 1: bytes before the first A-sync are NOTSYNC, offsets 0..9; a
	 * 0x80 after only 4 zeros does not synchronise. */
	static const uint8_t s1[] = { 0x11, 0x22, 0x00, 0x33, 0x00, 0x00, 0x00,
				      0x00, 0x80, 0x44, ASYNC6, 0x0c };
	static const struct pft_ptm_packet e1[] = { E_NOTSYNC(10), E_ASYNC(6),
						E_TRIGGER };
	PC_CHECK(&plain, s1, e1);

	/* 40 bytes of packet-like junk (I-syncs, branches, 4-zero runs). */
	static const uint8_t s2[] = {
		0x08, 0x00, 0x10, 0x00, 0x00, 0x21, 0x84, 0x2f, 0x00, 0x00,
		0x00, 0x00, 0x80, 0x02, 0x42, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0x00, 0x80, 0x00, 0x00, 0x80, 0x00,
		0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x7f, 0x80, 0x81,
		ASYNC6, 0x66
	};
	static const struct pft_ptm_packet e2[] = {
		E_NOTSYNC(40), E_ASYNC(6), { .type = PFT_PTM_PKT_IGNORE, .size = 1 }
	};
	PC_CHECK(&plain, s2, e2);

	/* No A-sync at all: everything is NOTSYNC, also trailing zeros
	 * (they might have begun an A-sync, but the stream ended). */
	static const uint8_t s3[] = { 0x84, 0x05, 0x00, 0x00, 0x00 };
	static const struct pft_ptm_packet e3[] = { E_NOTSYNC(5) };
	PC_CHECK(&plain, s3, e3);

	static const uint8_t s4[] = { 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
				      0x00, 0x00, 0x00, 0x00 };
	static const struct pft_ptm_packet e4[] = { E_NOTSYNC(10) };
	PC_CHECK(&plain, s4, e4);

	/* Unaligned NOTSYNC offsets: check them packet by packet on a whole
	 * feed (the merged comparison above only sees the first). */
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(&plain, NULL);
	struct pft_ptm_packet p;
	uint64_t next = 0;

	PTU_CHECK(d != NULL);
	if (!d)
		return;
	PTU_EQ(pft_ptm_pkt_feed(d, s2, sizeof(s2)), 0);
	while (pft_ptm_pkt_next(d, &p, sizeof(p)) == 0 && p.type == PFT_PTM_PKT_NOTSYNC) {
		PTU_EQ(p.offset, next);
		PTU_CHECK(p.size > 0);
		PTU_CHECK(memcmp(p.raw, s2 + p.offset, p.size) == 0);
		next = p.offset + p.size;
	}
	PTU_EQ(next, 40);
	PTU_EQ(p.type, PFT_PTM_PKT_ASYNC);
	PTU_EQ(p.offset, 40);
	pft_ptm_pkt_free(d);
}

/* ---- reserved headers (2, 5.12) ---- */

/* The 54 reserved values listed in section 2. */
static const uint8_t reserved_headers[54] = {
	0x02, 0x04, 0x06, 0x0A, 0x0E, 0x10, 0x12, 0x14, 0x16, 0x18, 0x1A,
	0x1C, 0x1E, 0x20, 0x22, 0x24, 0x26, 0x28, 0x2A, 0x2C, 0x2E, 0x30,
	0x32, 0x34, 0x36, 0x38, 0x3A, 0x3E, 0x40, 0x44, 0x48, 0x4A, 0x4C,
	0x4E, 0x50, 0x52, 0x54, 0x56, 0x58, 0x5A, 0x5C, 0x5E, 0x60, 0x62,
	0x64, 0x68, 0x6A, 0x6C, 0x70, 0x74, 0x78, 0x7A, 0x7C, 0x7E
};

static void reserved_header_table_is_complete(void)
{
	/* Section 2: the even values below 0x80 are the 10 defined headers
	 * and the 54 reserved ones (a check of this test's table). */
	static const uint8_t defined[] = { 0x00, 0x08, 0x0C, 0x3C, 0x42,
					   0x46, 0x66, 0x6E, 0x72, 0x76 };
	unsigned seen[128] = { 0 };

	for (size_t i = 0; i < sizeof(reserved_headers); i++)
		seen[reserved_headers[i]]++;
	for (size_t i = 0; i < sizeof(defined); i++)
		seen[defined[i]]++;
	for (unsigned h = 0; h < 128; h += 2)
		PTU_EQ(seen[h], 1);
}

static void reserved_headers_resync(void)
{
	for (size_t i = 0; i < sizeof(reserved_headers); i++) {
		const uint8_t h = reserved_headers[i];
		/* A-sync, reserved header, 84 05 (NOTSYNC: not decoded),
		 * A-sync, trigger. */
		const uint8_t s[] = { ASYNC6, h, 0x84, 0x05, ASYNC6, 0x0c };
		const struct pft_ptm_packet e[] = {
			E_ASYNC(6), E_BAD(PFT_ERR_PKT_RESERVED_HEADER, 3),
			E_ASYNC(6), E_TRIGGER
		};

		pc_check_stream(__FILE__, __LINE__, &plain, s, sizeof(s), e, 4);
		pc_check_stream(__FILE__, __LINE__, &ca, s, sizeof(s), e, 4);

		/* Unmerged: the BAD packet is the header byte alone, then the
		 * following bytes are NOTSYNC. */
		struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(&plain, NULL);
		struct pft_ptm_packet p;

		PTU_CHECK(d != NULL);
		if (!d)
			return;
		PTU_EQ(pft_ptm_pkt_feed(d, s, sizeof(s)), 0);
		PTU_EQ(pft_ptm_pkt_next(d, &p, sizeof(p)), 0);
		PTU_EQ(pft_ptm_pkt_next(d, &p, sizeof(p)), -PFT_ERR_BAD_OPCODE);
		PTU_EQ(p.type, PFT_PTM_PKT_BAD);
		PTU_EQ(p.bad, PFT_ERR_PKT_RESERVED_HEADER);
		PTU_EQ(p.offset, 6);
		PTU_EQ(p.size, 1);
		PTU_EQ(p.raw[0], h);
		PTU_EQ(pft_ptm_pkt_next(d, &p, sizeof(p)), 0);
		PTU_EQ(p.type, PFT_PTM_PKT_NOTSYNC);
		PTU_EQ(p.offset, 7);
		pft_ptm_pkt_free(d);
	}
}

/* ---- one- and two-byte packets (5.6, 5.7, 5.8, 5.10, 5.11) ---- */

static void context_id_packet(void)
{
	/* 5.7: 6E and n = ETMCR[15:14] bytes, least significant first. */
	struct pft_ptm_config c0 = pc_cfg(0, 0, 1, 0), c1 = pc_cfg(0, 1, 1, 0),
			  c2 = pc_cfg(1, 2, 1, 0), c4 = pc_cfg(0, 4, 1, 0);

	/* n = 0: the header alone (section 3 "Context ID: n (0...)"). */
	static const uint8_t s0[] = { ASYNC6, 0x6e, 0x0c };
	static const struct pft_ptm_packet e0[] = {
		E_ASYNC(6),
		{ .type = PFT_PTM_PKT_CONTEXTID, .size = 1, .has_ctxid = 1 },
		E_TRIGGER
	};
	PC_CHECK(&c0, s0, e0);

	/* n = 1: 6e 2a -> 0x2A (5.7); 6e ff -> 0xFF. */
	static const uint8_t s1[] = { ASYNC6, 0x6e, 0x2a, 0x6e, 0xff, 0x0c };
	static const struct pft_ptm_packet e1[] = {
		E_ASYNC(6),
		{ .type = PFT_PTM_PKT_CONTEXTID, .size = 2, .has_ctxid = 1, .ctxid = 0x2a },
		{ .type = PFT_PTM_PKT_CONTEXTID, .size = 2, .has_ctxid = 1, .ctxid = 0xff },
		E_TRIGGER
	};
	PC_CHECK(&c1, s1, e1);

	/* n = 2 (cycle-accurate: no cycle count in this packet). */
	static const uint8_t s2[] = { ASYNC6, 0x6e, 0x34, 0x12, 0x0c };
	static const struct pft_ptm_packet e2[] = {
		E_ASYNC(6),
		{ .type = PFT_PTM_PKT_CONTEXTID, .size = 3, .has_ctxid = 1, .ctxid = 0x1234 },
		E_TRIGGER
	};
	PC_CHECK(&c2, s2, e2);

	/* n = 4: 6e 78 56 34 12 -> 0x12345678 (5.7; more values of it are
	 * tests/pftt/pkt_ctxid.pftt). */
	static const uint8_t s4[] = { ASYNC6, 0x6e, 0x78, 0x56, 0x34, 0x12, 0x0c };
	static const struct pft_ptm_packet e4[] = {
		E_ASYNC(6),
		{ .type = PFT_PTM_PKT_CONTEXTID, .size = 5, .has_ctxid = 1, .ctxid = 0x12345678 },
		E_TRIGGER
	};
	PC_CHECK(&c4, s4, e4);
}

/* 5.8: 3C and VMID[7:0], cut at each byte and fed in pieces (the values
 * of VMID packets are tests/pftt/pkt_short.pftt). */
static void vmid_packet(void)
{
	static const uint8_t s[] = { ASYNC6, 0x3c, 0x05, 0x0c };
	static const struct pft_ptm_packet e[] = {
		E_ASYNC(6),
		{ .type = PFT_PTM_PKT_VMID, .size = 2, .vmid = 5 },
		E_TRIGGER
	};

	PC_CHECK(&plain, s, e);
}

/* ---- the annotated start of the TC2 capture (section 6) ---- */

/* ---- configuration from registers ---- */

static void config_from_regs_tc2(void)
{
	struct pft_ptm_config c;

	pft_ptm_config_init(&c);
	/* ETMCR 0x10001000: bit 28 TS, bit 12 CA, [15:14] = 0 no ctxid.
	 * ETMCCER 0x34C01AC2 = 0011_0100 1100_0000 ...: bit 29 = 1 (64-bit),
	 * bit 28 = 1 (binary), bit 26 = 1 (virtualization), bit 24 = 0.
	 * ETMIDR 0x411CF312: [11:8] = 3 (PFT), [7:4] = 1 (v1.1). */
	PTU_EQ(pft_ptm_config_from_regs(&c, 0x10001000, 0x34C01AC2, 0x411CF312,
				    0x13), 0);
	PTU_EQ(c.size, sizeof(c));
	PTU_EQ(c.version_minor, 1);
	PTU_EQ(c.cycle_accurate, 1);
	PTU_EQ(c.ctxid_bytes, 0);
	PTU_EQ(c.timestamps, 1);
	PTU_EQ(c.ts_64bit, 1);
	PTU_EQ(c.ts_gray, 0);
	PTU_EQ(c.vmid, 0);
	PTU_EQ(c.return_stack, 0);
	PTU_EQ(c.branch_broadcast, 0);
	PTU_EQ(c.dmb_dsb_waypoints, 0);
	PTU_EQ(c.trace_id, 0x13);
	PTU_EQ(c.virtualization, 1);
	PTU_EQ(c.etmcr, 0x10001000);
	PTU_EQ(c.etmccer, 0x34C01AC2);
	PTU_EQ(c.etmidr, 0x411CF312);
	PTU_EQ(c.etmtraceidr, 0x13);
}

static void config_from_regs_a9(void)
{
	struct pft_ptm_config c;

	pft_ptm_config_init(&c);
	/* Snowball A9: ETMCR 0x10001000, ETMCCER 0x000008EA, ETMIDR
	 * 0x411CF301: [7:4] = 0 -> PFTv1.0: 48-bit Gray timestamps whatever
	 * ETMCCER[29:28] say (5.9); no virtualization in v1.0. */
	PTU_EQ(pft_ptm_config_from_regs(&c, 0x10001000, 0x000008EA, 0x411CF301,
				    0x10), 0);
	PTU_EQ(c.version_minor, 0);
	PTU_EQ(c.cycle_accurate, 1);
	PTU_EQ(c.timestamps, 1);
	PTU_EQ(c.ts_64bit, 0);
	PTU_EQ(c.ts_gray, 1);
	PTU_EQ(c.ctxid_bytes, 0);
	PTU_EQ(c.trace_id, 0x10);
	PTU_EQ(c.virtualization, 0);
	PTU_EQ(c.vmid, 0);

	/* v1.0 with ETMCCER bits 29/28 set (they read 0 on v1.0) and ETMCR
	 * bit 30 set (reserved in v1.0): still 48-bit Gray, no VMID. */
	PTU_EQ(pft_ptm_config_from_regs(&c, 0x40000000, 0x34000000, 0x411CF301,
				    0), 0);
	PTU_EQ(c.ts_64bit, 0);
	PTU_EQ(c.ts_gray, 1);
	PTU_EQ(c.vmid, 0);
}

static void config_from_regs_return_stack(void)
{
	struct pft_ptm_config c;

	pft_ptm_config_init(&c);
	/* tc2-ptm-rstk-t32: ETMCR 0x20000400: bit 29 return stack, bit 10
	 * programming; not CA, no TS, no ctxid.  ETMTRACEIDR 0x82: ID is
	 * bits [6:0] = 0x02. */
	PTU_EQ(pft_ptm_config_from_regs(&c, 0x20000400, 0x34C01AC2, 0x411CF312,
				    0x82), 0);
	PTU_EQ(c.return_stack, 1);
	PTU_EQ(c.cycle_accurate, 0);
	PTU_EQ(c.timestamps, 0);
	PTU_EQ(c.ctxid_bytes, 0);
	PTU_EQ(c.branch_broadcast, 0);
	PTU_EQ(c.trace_id, 0x02);
	PTU_EQ(c.version_minor, 1);
}

static void config_from_regs_fields(void)
{
	static const uint8_t sizes[4] = { 0, 1, 2, 4 };
	struct pft_ptm_config c;

	/* ETMCR[15:14] = 00/01/10/11 -> 0/1/2/4 context-ID bytes. */
	for (uint32_t v = 0; v < 4; v++) {
		pft_ptm_config_init(&c);
		PTU_EQ(pft_ptm_config_from_regs(&c, v << 14, 0, 0x411CF312, 0), 0);
		PTU_EQ(c.ctxid_bytes, sizes[v]);
	}
	/* v1.1: ETMCR bit 8 branch broadcast, bit 30 VMID; ETMCCER bit 24
	 * DMB/DSB waypoints; [29:28] = 00 -> 48-bit Gray. */
	pft_ptm_config_init(&c);
	PTU_EQ(pft_ptm_config_from_regs(&c, 0x40000100, 0x05000000, 0x411CF312, 0),
	       0);
	PTU_EQ(c.branch_broadcast, 1);
	PTU_EQ(c.vmid, 1);
	PTU_EQ(c.dmb_dsb_waypoints, 1);
	PTU_EQ(c.virtualization, 1);
	PTU_EQ(c.ts_64bit, 0);
	PTU_EQ(c.ts_gray, 1);
	PTU_EQ(c.cycle_accurate, 0);
}

static void config_from_regs_errors(void)
{
	struct pft_ptm_config c, before;

	PTU_EQ(pft_ptm_config_from_regs(NULL, 0, 0, 0x411CF312, 0), -PFT_ERR_INVALID);
	/* ETMv3.5 (Cortex-A7): ETMIDR[11:8] = 2 -> not a PTM; cfg untouched. */
	pft_ptm_config_init(&c);
	c.ctxid_bytes = 2;
	c.trace_id = 0x55;
	before = c;
	PTU_EQ(pft_ptm_config_from_regs(&c, 0x10001000, 0x34C01AC2, 0x410CF250, 0),
	       -PFT_ERR_BAD_CONFIG);
	PTU_CHECK(memcmp(&c, &before, sizeof(c)) == 0);
	PTU_EQ(pft_ptm_config_from_regs(&c, 0, 0, 0, 0), -PFT_ERR_BAD_CONFIG);
	PTU_CHECK(memcmp(&c, &before, sizeof(c)) == 0);
}

static void config_from_regs_partial_size(void)
{
	/* An older caller whose struct ends at its first layout (before
	 * reserved): only its part is written, the size stays its own. */
	union {
		struct pft_ptm_config c;
		uint8_t b[sizeof(struct pft_ptm_config)];
	} u;
	const size_t n = offsetof(struct pft_ptm_config, reserved);

	memset(&u, 0xee, sizeof(u));
	u.c.size = n;
	PTU_EQ(pft_ptm_config_from_regs(&u.c, 0x10001000, 0x34C01AC2, 0x411CF312,
				    0x13), 0);
	PTU_EQ(u.c.size, n);
	PTU_EQ(u.c.cycle_accurate, 1);
	PTU_EQ(u.c.ts_64bit, 1);
	PTU_EQ(u.c.version_minor, 1);
	for (size_t i = n; i < sizeof(u); i++)
		PTU_EQ(u.b[i], 0xee);
	/* One byte less than the first layout: refused, nothing written. */
	memset(&u, 0xee, sizeof(u));
	u.c.size = n - 1;
	PTU_EQ(pft_ptm_config_from_regs(&u.c, 0x10001000, 0x34C01AC2, 0x411CF312,
				    0x13), -PFT_ERR_INVALID);
	PTU_EQ(u.c.cycle_accurate, 0xee);
}

/* ---- API ---- */

static void alloc_errors(void)
{
	struct pft_ptm_config c = pc_cfg(0, 0, 1, 0);
	int err = 12345;

	PTU_CHECK(pft_ptm_pkt_alloc(NULL, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	PTU_CHECK(pft_ptm_pkt_alloc(NULL, NULL) == NULL);
	static const uint8_t bad_sizes[] = { 3, 5, 6, 7, 8, 16, 255 };
	for (size_t i = 0; i < sizeof(bad_sizes); i++) {
		c.ctxid_bytes = bad_sizes[i];
		err = 0;
		PTU_CHECK(pft_ptm_pkt_alloc(&c, &err) == NULL);
		PTU_EQ(err, -PFT_ERR_BAD_CONFIG);
		PTU_CHECK(pft_ptm_pkt_alloc(&c, NULL) == NULL);
	}
	static const uint8_t good_sizes[] = { 0, 1, 2, 4 };
	for (size_t i = 0; i < sizeof(good_sizes); i++) {
		c.ctxid_bytes = good_sizes[i];
		err = 12345;
		struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(&c, &err);

		PTU_CHECK(d != NULL);
		PTU_EQ(err, 0);
		pft_ptm_pkt_free(d);
	}
	pft_ptm_pkt_free(NULL);
}

static void null_arguments(void)
{
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(&plain, NULL);
	struct pft_ptm_packet p;
	static const uint8_t b[1] = { 0x0c };

	PTU_CHECK(d != NULL);
	if (!d)
		return;
	PTU_EQ(pft_ptm_pkt_feed(NULL, b, 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_pkt_feed(d, NULL, 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_pkt_feed_at(NULL, b, 1, 0), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_pkt_feed_at(d, NULL, 1, 0), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_pkt_next(NULL, &p, sizeof(p)), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_pkt_next(d, NULL, sizeof(p)), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_pkt_next(d, &p, 0), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_pkt_finish(NULL), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_pkt_sync_forward(NULL), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_pkt_reset(NULL), -PFT_ERR_INVALID);
	/* Not documented; the only sensible answer without a decoder. */
	PTU_EQ(pft_ptm_pkt_get_offset(NULL), 0);
	PTU_EQ(pft_ptm_config_init(NULL), -PFT_ERR_INVALID);
	/* The decoder still works after the rejected calls. */
	static const uint8_t s[] = { ASYNC6, 0x0c };
	PTU_EQ(pft_ptm_pkt_feed(d, s, sizeof(s)), 0);
	PTU_EQ(pft_ptm_pkt_next(d, &p, sizeof(p)), 0);
	PTU_EQ(p.type, PFT_PTM_PKT_ASYNC);
	PTU_EQ(p.offset, 0);
	pft_ptm_pkt_free(d);
}

static int next_pkt(struct pft_ptm_pkt_decoder *d, struct pft_ptm_packet *p)
{
	return pft_ptm_pkt_next(d, p, sizeof(*p));
}

static void need_input_then_eos(void)
{
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(&plain, NULL);
	struct pft_ptm_packet p;
	static const uint8_t s[] = { ASYNC6, 0x0c };

	PTU_CHECK(d != NULL);
	if (!d)
		return;
	/* Nothing fed yet. */
	PTU_EQ(pft_ptm_pkt_next(d, &p, sizeof(p)), -PFT_ERR_NEED_INPUT);
	PTU_EQ(pft_ptm_pkt_feed(d, s, sizeof(s)), 0);
	PTU_EQ(pft_ptm_pkt_next(d, &p, sizeof(p)), 0);
	PTU_EQ(p.type, PFT_PTM_PKT_ASYNC);
	PTU_EQ(pft_ptm_pkt_next(d, &p, sizeof(p)), 0);
	PTU_EQ(p.type, PFT_PTM_PKT_TRIGGER);
	PTU_EQ(p.offset, 6);
	/* Used up, not finished: more input wanted, again and again. */
	PTU_EQ(pft_ptm_pkt_next(d, &p, sizeof(p)), -PFT_ERR_NEED_INPUT);
	PTU_EQ(pft_ptm_pkt_next(d, &p, sizeof(p)), -PFT_ERR_NEED_INPUT);
	/* An empty feed changes nothing. */
	PTU_EQ(pft_ptm_pkt_feed(d, s, 0), 0);
	PTU_EQ(pft_ptm_pkt_next(d, &p, sizeof(p)), -PFT_ERR_NEED_INPUT);
	PTU_EQ(pft_ptm_pkt_finish(d), 0);
	PTU_EQ(pft_ptm_pkt_next(d, &p, sizeof(p)), -PFT_ERR_EOS);
	PTU_EQ(pft_ptm_pkt_next(d, &p, sizeof(p)), -PFT_ERR_EOS);
	/* Feeding after finish. */
	PTU_EQ(pft_ptm_pkt_feed(d, s, sizeof(s)), -PFT_ERR_EOS);
	PTU_EQ(pft_ptm_pkt_feed_at(d, s, sizeof(s), 100), -PFT_ERR_EOS);
	PTU_EQ(pft_ptm_pkt_next(d, &p, sizeof(p)), -PFT_ERR_EOS);
	PTU_EQ(pft_ptm_pkt_finish(d), 0);
	PTU_EQ(pft_ptm_pkt_next(d, &p, sizeof(p)), -PFT_ERR_EOS);
	pft_ptm_pkt_free(d);

	/* Finish with nothing ever fed. */
	d = pft_ptm_pkt_alloc(&plain, NULL);
	PTU_CHECK(d != NULL);
	if (!d)
		return;
	PTU_EQ(pft_ptm_pkt_finish(d), 0);
	PTU_EQ(pft_ptm_pkt_next(d, &p, sizeof(p)), -PFT_ERR_EOS);
	pft_ptm_pkt_free(d);
}


/*
 * pft.h: NEED_INPUT means "feed more (or finish)"; after pft_ptm_pkt_finish()
 * feeding returns EOS, so the next packet must come at once.  Three ways
 * to end with bytes the decoder is still holding:
 *  (a) unsynchronised, the input ends in zeros that might begin an A-sync:
 *      feed 11 00 00 00, finish -> NOTSYNC (11), NOTSYNC (00 00 00), EOS;
 *  (b) the same zeros carried over from an earlier feed: feed 00 00, next
 *      (NEED_INPUT), feed 00, finish -> NOTSYNC 00 00 00 at offset 0;
 *  (c) synchronised, a packet cut by a feed and still cut after the last
 *      one: CA, A-sync, feed a3, next (NEED_INPUT), feed 0b, finish ->
 *      BAD/TRUNCATED a3 0b at offset 6.
 */
static void no_need_input_once_finished(void)
{
	struct pft_ptm_pkt_decoder *d;
	struct pft_ptm_packet p;
	int st;

	static const uint8_t a[] = { 0x11, 0x00, 0x00, 0x00 };
	d = pft_ptm_pkt_alloc(&plain, NULL);
	PTU_CHECK(d != NULL);
	if (!d)
		return;
	PTU_EQ(pft_ptm_pkt_feed(d, a, sizeof(a)), 0);
	PTU_EQ(pft_ptm_pkt_finish(d), 0);
	uint64_t next = 0;
	while ((st = next_pkt(d, &p)) == 0 && next < 4) {
		PTU_EQ(p.type, PFT_PTM_PKT_NOTSYNC);
		PTU_EQ(p.offset, next);
		next += p.size;
	}
	PTU_EQ(st, -PFT_ERR_EOS);
	PTU_EQ(next, 4);
	pft_ptm_pkt_free(d);

	static const uint8_t z[] = { 0x00, 0x00, 0x00 };
	d = pft_ptm_pkt_alloc(&plain, NULL);
	PTU_CHECK(d != NULL);
	if (!d)
		return;
	PTU_EQ(pft_ptm_pkt_feed(d, z, 2), 0);
	PTU_EQ(next_pkt(d, &p), -PFT_ERR_NEED_INPUT);
	PTU_EQ(pft_ptm_pkt_feed(d, z + 2, 1), 0);
	PTU_EQ(pft_ptm_pkt_finish(d), 0);
	PTU_EQ(next_pkt(d, &p), 0);
	PTU_EQ(p.type, PFT_PTM_PKT_NOTSYNC);
	PTU_EQ(p.offset, 0);
	PTU_EQ(p.size, 3);
	pft_ptm_pkt_free(d);

	static const uint8_t c[] = { ASYNC6, 0xa3, 0x0b };
	d = pft_ptm_pkt_alloc(&ca, NULL);
	PTU_CHECK(d != NULL);
	if (!d)
		return;
	PTU_EQ(pft_ptm_pkt_feed(d, c, 7), 0);
	PTU_EQ(next_pkt(d, &p), 0);
	PTU_EQ(next_pkt(d, &p), -PFT_ERR_NEED_INPUT);
	PTU_EQ(pft_ptm_pkt_feed(d, c + 7, 1), 0);
	PTU_EQ(pft_ptm_pkt_finish(d), 0);
	PTU_EQ(next_pkt(d, &p), -PFT_ERR_TRUNCATED);
	PTU_EQ(p.type, PFT_PTM_PKT_BAD);
	PTU_EQ(p.bad, PFT_ERR_PKT_TRUNCATED);
	PTU_EQ(p.offset, 6);
	PTU_EQ(p.size, 2);
	pft_ptm_pkt_free(d);
}

/*
 * A truncated packet is a BAD packet: only type, size, offset, raw and
 * bad mean something, "the others are zero" (pft.h).  CA: A-sync, then
 * a3 0b 68 (a branch with two address bytes, cut in its cycle count),
 * finish, next.
 */
static void truncated_packet_has_no_stale_fields(void)
{
	static const uint8_t s[] = { ASYNC6, 0xa3, 0x0b, 0x68 };
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(&ca, NULL);
	struct pft_ptm_packet p;

	PTU_CHECK(d != NULL);
	if (!d)
		return;
	PTU_EQ(pft_ptm_pkt_feed(d, s, sizeof(s)), 0);
	PTU_EQ(pft_ptm_pkt_finish(d), 0);
	PTU_EQ(next_pkt(d, &p), 0);
	PTU_EQ(next_pkt(d, &p), -PFT_ERR_TRUNCATED);
	PTU_EQ(p.type, PFT_PTM_PKT_BAD);
	PTU_EQ(p.bad, PFT_ERR_PKT_TRUNCATED);
	PTU_EQ(p.offset, 6);
	PTU_EQ(p.size, 3);
	PTU_EQ(p.addr, 0);
	PTU_EQ(p.isa, 0);
	PTU_EQ(p.addr_bytes, 0);
	PTU_EQ(p.has_cycles, 0);
	PTU_EQ(next_pkt(d, &p), -PFT_ERR_EOS);
	pft_ptm_pkt_free(d);
}

static void feed_at_offsets(void)
{
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(&plain, NULL);
	struct pft_ptm_packet p;
	static const uint8_t s[] = { ASYNC6, 0x0c, 0x66 };

	PTU_CHECK(d != NULL);
	if (!d)
		return;
	PTU_EQ(pft_ptm_pkt_feed_at(d, s, sizeof(s), 0x1000), 0);
	PTU_EQ(pft_ptm_pkt_get_offset(d), 0x1000);
	PTU_EQ(next_pkt(d, &p), 0);
	PTU_EQ(p.type, PFT_PTM_PKT_ASYNC);
	PTU_EQ(p.offset, 0x1000);
	PTU_EQ(pft_ptm_pkt_get_offset(d), 0x1006);
	PTU_EQ(next_pkt(d, &p), 0);
	PTU_EQ(p.offset, 0x1006);
	PTU_EQ(next_pkt(d, &p), 0);
	PTU_EQ(p.type, PFT_PTM_PKT_IGNORE);
	PTU_EQ(p.offset, 0x1007);
	PTU_EQ(next_pkt(d, &p), -PFT_ERR_NEED_INPUT);

	/* pft_ptm_pkt_feed continues after the previous buffer. */
	static const uint8_t t[] = { 0x76 };
	PTU_EQ(pft_ptm_pkt_feed(d, t, 1), 0);
	PTU_EQ(next_pkt(d, &p), 0);
	PTU_EQ(p.type, PFT_PTM_PKT_EXCEPTION_RETURN);
	PTU_EQ(p.offset, 0x1008);
	PTU_EQ(next_pkt(d, &p), -PFT_ERR_NEED_INPUT);

	/* A packet split over two non-contiguous buffers (frames): its
	 * offset is that of its first byte; later packets follow the second
	 * buffer's offset.  I-sync 08 00 10 00 00 21 = ARM 0x1000 trace-on. */
	static const uint8_t a[] = { 0x08, 0x00, 0x10 };
	static const uint8_t b[] = { 0x00, 0x00, 0x21, 0x0c };
	PTU_EQ(pft_ptm_pkt_feed_at(d, a, sizeof(a), 0x2000), 0);
	PTU_EQ(next_pkt(d, &p), -PFT_ERR_NEED_INPUT);
	PTU_EQ(pft_ptm_pkt_get_offset(d), 0x2000);
	PTU_EQ(pft_ptm_pkt_feed_at(d, b, sizeof(b), 0x3000), 0);
	PTU_EQ(next_pkt(d, &p), 0);
	PTU_EQ(p.type, PFT_PTM_PKT_ISYNC);
	PTU_EQ(p.offset, 0x2000);
	PTU_EQ(p.size, 6);
	PTU_EQ(p.addr, 0x1000);
	PTU_EQ(p.reason, PFT_ISYNC_TRACE_ON);
	static const uint8_t whole[] = { 0x08, 0x00, 0x10, 0x00, 0x00, 0x21 };
	PTU_CHECK(memcmp(p.raw, whole, 6) == 0);
	PTU_EQ(next_pkt(d, &p), 0);
	PTU_EQ(p.type, PFT_PTM_PKT_TRIGGER);
	PTU_EQ(p.offset, 0x3003);
	PTU_EQ(pft_ptm_pkt_get_offset(d), 0x3004);
	pft_ptm_pkt_free(d);

	/* Unsynchronised: an A-sync whose zeros are split over two buffers
	 * starts at the first buffer's offset. */
	static const uint8_t z1[] = { 0x00, 0x00, 0x00 };
	static const uint8_t z2[] = { 0x00, 0x00, 0x80, 0x0c };
	d = pft_ptm_pkt_alloc(&plain, NULL);
	PTU_CHECK(d != NULL);
	if (!d)
		return;
	PTU_EQ(pft_ptm_pkt_feed_at(d, z1, sizeof(z1), 100), 0);
	PTU_EQ(next_pkt(d, &p), -PFT_ERR_NEED_INPUT);
	PTU_EQ(pft_ptm_pkt_feed_at(d, z2, sizeof(z2), 500), 0);
	PTU_EQ(next_pkt(d, &p), 0);
	PTU_EQ(p.type, PFT_PTM_PKT_ASYNC);
	PTU_EQ(p.offset, 100);
	PTU_EQ(p.size, 6);
	PTU_EQ(next_pkt(d, &p), 0);
	PTU_EQ(p.type, PFT_PTM_PKT_TRIGGER);
	PTU_EQ(p.offset, 503);
	pft_ptm_pkt_free(d);
}

static void get_offset_tracks_position(void)
{
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(&plain, NULL);
	struct pft_ptm_packet p;
	static const uint8_t s[] = { 0x11, ASYNC6, 0x0c, 0x08, 0x00, 0x10 };

	PTU_CHECK(d != NULL);
	if (!d)
		return;
	PTU_EQ(pft_ptm_pkt_get_offset(d), 0);
	PTU_EQ(pft_ptm_pkt_feed(d, s, sizeof(s)), 0);
	PTU_EQ(next_pkt(d, &p), 0);
	PTU_EQ(p.type, PFT_PTM_PKT_NOTSYNC);
	PTU_EQ(pft_ptm_pkt_get_offset(d), 1);
	PTU_EQ(next_pkt(d, &p), 0);
	PTU_EQ(p.type, PFT_PTM_PKT_ASYNC);
	PTU_EQ(pft_ptm_pkt_get_offset(d), 7);
	PTU_EQ(next_pkt(d, &p), 0);
	PTU_EQ(pft_ptm_pkt_get_offset(d), 8);
	/* An incomplete I-sync: the next byte looked at is still its first. */
	PTU_EQ(next_pkt(d, &p), -PFT_ERR_NEED_INPUT);
	PTU_EQ(pft_ptm_pkt_get_offset(d), 8);
	pft_ptm_pkt_free(d);
}

static void reset_forgets_everything(void)
{
	/* I-sync ARM 0xABCDEFFC; timestamp 42 7f (TS[6:0] = 0x7F);
	 * then an unfinished I-sync; then finish. */
	static const uint8_t first[] = { ASYNC6, 0x08, 0xfc, 0xef, 0xcd, 0xab,
					 0x21, 0x42, 0x7f, 0x08, 0x00 };
	/* After reset: a branch 03 and a timestamp 42 01 right after an
	 * A-sync.  Decoded exactly as by a new decoder. */
	static const uint8_t second[] = { 0x11, ASYNC6, 0x03, 0x42, 0x01, 0x0c };
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(&plain, NULL);
	struct pft_ptm_pkt_decoder *fresh = pft_ptm_pkt_alloc(&plain, NULL);
	struct pft_ptm_packet p, q;

	PTU_CHECK(d && fresh);
	if (!d || !fresh)
		return;
	PTU_EQ(pft_ptm_pkt_feed(d, first, sizeof(first)), 0);
	while (next_pkt(d, &p) == 0)
		;
	PTU_EQ(pft_ptm_pkt_finish(d), 0);
	PTU_EQ(pft_ptm_pkt_reset(d), 0);
	PTU_EQ(pft_ptm_pkt_get_offset(d), 0);
	/* Not finished any more, not synchronised, nothing pending. */
	PTU_EQ(next_pkt(d, &p), -PFT_ERR_NEED_INPUT);
	PTU_EQ(pft_ptm_pkt_feed(d, second, sizeof(second)), 0);
	PTU_EQ(pft_ptm_pkt_feed(fresh, second, sizeof(second)), 0);
	PTU_EQ(pft_ptm_pkt_finish(d), 0);
	PTU_EQ(pft_ptm_pkt_finish(fresh), 0);
	unsigned n = 0;
	for (;;) {
		int a = next_pkt(d, &p), b = next_pkt(fresh, &q);

		PTU_EQ(a, b);
		if (a != b || a == -PFT_ERR_EOS || n > 20)
			break;
		n++;
		PTU_EQ(p.type, q.type);
		PTU_EQ(p.offset, q.offset);
		PTU_EQ(p.size, q.size);
		PTU_EQ(p.addr, q.addr);
		PTU_EQ(p.isa, q.isa);
		PTU_EQ(p.ts, q.ts);
		PTU_EQ(p.ts_raw, q.ts_raw);
	}
	/* NOTSYNC 11, A-sync, branch, timestamp, trigger. */
	PTU_EQ(n, 5);
	pft_ptm_pkt_free(d);
	pft_ptm_pkt_free(fresh);
}

static void sync_forward_keeps_state(void)
{
	/* I-sync ARM 0xABCDEFFC (the compression base), timestamp 42 ff 01,
	 * then sync_forward.  84 is then NOTSYNC; after the A-sync, branch 03
	 * (A[7:2] = 1 -> low 8 bits 0x04) still uses the base: 0xABCDEF04
	 * (4.2.3), and timestamp 42 05 merges into the kept value. */
	static const uint8_t a[] = { ASYNC6, 0x08, 0xfc, 0xef, 0xcd, 0xab, 0x21,
				     0x42, 0xff, 0x01 };
	static const uint8_t b[] = { 0x84, ASYNC6, 0x03, 0x42, 0x05 };
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(&plain, NULL);
	struct pft_ptm_packet p;

	PTU_CHECK(d != NULL);
	if (!d)
		return;
	PTU_EQ(pft_ptm_pkt_feed(d, a, sizeof(a)), 0);
	PTU_EQ(next_pkt(d, &p), 0);
	PTU_EQ(next_pkt(d, &p), 0);
	PTU_EQ(p.type, PFT_PTM_PKT_ISYNC);
	PTU_EQ(next_pkt(d, &p), 0);
	/* 42 ff 01: TS[6:0] = 0x7F, TS[13:7] = 1 -> 0xFF. */
	PTU_EQ(p.type, PFT_PTM_PKT_TIMESTAMP);
	PTU_EQ(p.ts, 0xff);
	PTU_EQ(next_pkt(d, &p), -PFT_ERR_NEED_INPUT);
	PTU_EQ(pft_ptm_pkt_sync_forward(d), 0);
	PTU_EQ(pft_ptm_pkt_feed(d, b, sizeof(b)), 0);
	PTU_EQ(next_pkt(d, &p), 0);
	PTU_EQ(p.type, PFT_PTM_PKT_NOTSYNC);
	PTU_EQ(p.offset, 15); /* a is 6 + 6 + 3 bytes */
	PTU_EQ(p.size, 1);
	PTU_EQ(next_pkt(d, &p), 0);
	PTU_EQ(p.type, PFT_PTM_PKT_ASYNC);
	PTU_EQ(next_pkt(d, &p), 0);
	PTU_EQ(p.type, PFT_PTM_PKT_BRANCH);
	PTU_EQ(p.addr, 0xABCDEF04);
	PTU_EQ(p.isa, PFT_ISA_ARM);
	PTU_EQ(next_pkt(d, &p), 0);
	/* 42 05: TS[6:0] = 5 over 0xFF -> 0x85. */
	PTU_EQ(p.type, PFT_PTM_PKT_TIMESTAMP);
	PTU_EQ(p.ts, 0x85);
	PTU_EQ(p.ts_bits, 7);
	pft_ptm_pkt_free(d);
}

/*
 * sync_forward while a packet is half received: its bytes are "bytes up
 * to the next A-sync" and so NOTSYNC, holding the input bytes.  They are
 * not zeros of an A-sync: 08 00 80 (half an I-sync) followed by 00 00 80
 * must not make an A-sync.
 */
static void sync_forward_with_pending_packet(void)
{
	static const uint8_t a[] = { ASYNC6, 0x08, 0x00, 0x80 };
	static const uint8_t tails[2][3] = { { 0x05, 0x0c, 0x0c },
					     { 0x00, 0x00, 0x80 } };

	for (int t = 0; t < 2; t++) {
		struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(&plain, NULL);
		struct pft_ptm_packet p;
		uint8_t all[12];

		PTU_CHECK(d != NULL);
		if (!d)
			return;
		memcpy(all, a, 9);
		memcpy(all + 9, tails[t], 3);
		PTU_EQ(pft_ptm_pkt_feed(d, a, sizeof(a)), 0);
		PTU_EQ(next_pkt(d, &p), 0);
		PTU_EQ(p.type, PFT_PTM_PKT_ASYNC);
		PTU_EQ(next_pkt(d, &p), -PFT_ERR_NEED_INPUT);
		PTU_EQ(pft_ptm_pkt_sync_forward(d), 0);
		PTU_EQ(pft_ptm_pkt_feed(d, tails[t], 3), 0);
		PTU_EQ(pft_ptm_pkt_finish(d), 0);
		uint64_t next = 6;
		int st, guard = 0;

		while ((st = next_pkt(d, &p)) != -PFT_ERR_EOS && guard++ < 20) {
			if (st == -PFT_ERR_NEED_INPUT)
				continue; /* counted by other tests */
			PTU_EQ(st, 0);
			PTU_EQ(p.type, PFT_PTM_PKT_NOTSYNC);
			PTU_EQ(p.offset, next);
			PTU_CHECK(p.size > 0 && p.offset + p.size <= 12 &&
				  memcmp(p.raw, all + p.offset, p.size) == 0);
			next = p.offset + p.size;
		}
		PTU_EQ(next, 12);
		pft_ptm_pkt_free(d);
	}
}

static void next_with_short_size(void)
{
	/* struct pft_ptm_packet has a single layout: a shorter size is refused,
	 * nothing is written and the packet is still there for the next
	 * call.  I-sync 08 54 05 00 80 61 (5.2). */
	static const uint8_t s[] = { ASYNC6, 0x08, 0x54, 0x05, 0x00, 0x80, 0x61,
				     0x0c };
	union {
		struct pft_ptm_packet p;
		uint8_t b[sizeof(struct pft_ptm_packet)];
	} u;
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(&plain, NULL);

	PTU_CHECK(d != NULL);
	if (!d)
		return;
	PTU_EQ(pft_ptm_pkt_feed(d, s, sizeof(s)), 0);
	memset(&u, 0xee, sizeof(u));
	PTU_EQ(pft_ptm_pkt_next(d, &u.p, sizeof(u.p) - 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_pkt_next(d, &u.p, 1), -PFT_ERR_INVALID);
	for (size_t i = 0; i < sizeof(u); i++)
		PTU_EQ(u.b[i], 0xee);
	PTU_EQ(pft_ptm_pkt_next(d, &u.p, sizeof(u.p)), 0);
	PTU_EQ(u.p.type, PFT_PTM_PKT_ASYNC);
	PTU_EQ(pft_ptm_pkt_next(d, &u.p, sizeof(u.p)), 0);
	PTU_EQ(u.p.type, PFT_PTM_PKT_ISYNC);
	PTU_EQ(u.p.offset, 6);
	PTU_EQ(u.p.addr, 0x80000554);
	pft_ptm_pkt_free(d);
}

static void config_size_of_older_caller(void)
{
	/* pft_ptm_pkt_alloc with a struct pft_ptm_config that ends before the
	 * register copies still decodes by its fields (CA here). */
	struct pft_ptm_config c = pc_cfg(1, 0, 1, 0);

	c.size = offsetof(struct pft_ptm_config, etmcr);
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(&c, NULL);
	struct pft_ptm_packet p;
	/* CA atom 84: E, count 1. */
	static const uint8_t s[] = { ASYNC6, 0x84 };

	PTU_CHECK(d != NULL);
	if (!d)
		return;
	PTU_EQ(pft_ptm_pkt_feed(d, s, sizeof(s)), 0);
	PTU_EQ(next_pkt(d, &p), 0);
	PTU_EQ(next_pkt(d, &p), 0);
	PTU_EQ(p.type, PFT_PTM_PKT_ATOM);
	PTU_EQ(p.has_cycles, 1);
	PTU_EQ(p.cycles, 1);
	pft_ptm_pkt_free(d);
}

int main(void)
{
	plain = pc_cfg(0, 0, 1, 0);
	ca = pc_cfg(1, 0, 1, 0);

	PTU_RUN(async_five_zeros);
	PTU_RUN(async_more_zeros_up_to_15);
	PTU_RUN(async_many_zeros_synced);
	PTU_RUN(async_hundred_thousand_zeros);
	PTU_RUN(async_long_run_malformed);
	PTU_RUN(async_zero_run_at_end_synced);
	PTU_RUN(async_too_many_zeros_unsynced);
	PTU_RUN(async_malformed_synced);
	PTU_RUN(notsync_before_first_async);
	PTU_RUN(reserved_header_table_is_complete);
	PTU_RUN(reserved_headers_resync);
	PTU_RUN(context_id_packet);
	PTU_RUN(vmid_packet);
	PTU_RUN(config_from_regs_tc2);
	PTU_RUN(config_from_regs_a9);
	PTU_RUN(config_from_regs_return_stack);
	PTU_RUN(config_from_regs_fields);
	PTU_RUN(config_from_regs_errors);
	PTU_RUN(config_from_regs_partial_size);
	PTU_RUN(alloc_errors);
	PTU_RUN(null_arguments);
	PTU_RUN(need_input_then_eos);
	PTU_RUN(no_need_input_once_finished);
	PTU_RUN(truncated_packet_has_no_stale_fields);
	PTU_RUN(feed_at_offsets);
	PTU_RUN(get_offset_tracks_position);
	PTU_RUN(reset_forgets_everything);
	PTU_RUN(sync_forward_keeps_state);
	PTU_RUN(sync_forward_with_pending_packet);
	PTU_RUN(next_with_short_size);
	PTU_RUN(config_size_of_older_caller);
	PC_CATEGORY_TESTS();
	PTU_MAIN_END();
}
