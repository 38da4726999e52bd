/*
 * ETMv3 packet decoder (pft_etm3_pkt_*): hand-built vectors for every
 * packet form, each with the section of shared/spec/etmv3-protocol.md it
 * follows and the arithmetic written out; truncation at every byte; the
 * same packets whatever the feed boundaries; bad arguments.
 */
#include "ptunit.h"
#include "pft.h"

#define ASYNC 0x00, 0x00, 0x00, 0x00, 0x00, 0x80

enum { MAXP = 64 };

struct result {
	int n;
	struct pft_etm3_packet p[MAXP];
	int status[MAXP];
	uint8_t raw[MAXP][48];
};

/* Decode @s fed in pieces cut at @cuts (ascending, < @len), then finish. */
static void decode(const struct pft_etm3_config *cfg, const uint8_t *s, size_t len,
		   const size_t *cuts, size_t ncuts, struct result *r)
{
	int err = 1;
	struct pft_etm3_pkt_decoder *d = pft_etm3_pkt_alloc(cfg, &err);
	size_t from = 0;

	PTU_EQ(err, 0);
	memset(r, 0, sizeof(*r));
	for (size_t c = 0; c <= ncuts; c++) {
		size_t to = c < ncuts ? cuts[c] : len;
		if (c == ncuts)
			PTU_EQ(pft_etm3_pkt_feed(d, s + from, to - from), 0);
		else
			PTU_EQ(pft_etm3_pkt_feed(d, s + from, to - from), 0);
		if (c == ncuts)
			PTU_EQ(pft_etm3_pkt_finish(d), 0);
		for (;;) {
			struct pft_etm3_packet p;
			int st = pft_etm3_pkt_next(d, &p, sizeof(p));
			if (st == -PFT_ERR_NEED_INPUT || st == -PFT_ERR_EOS)
				break;
			if (r->n == MAXP)
				break;
			r->p[r->n] = p;
			r->status[r->n] = st;
			if (p.size <= sizeof(r->raw[0]))
				memcpy(r->raw[r->n], p.raw, p.size);
			r->p[r->n].raw = NULL;
			r->n++;
		}
		from = to;
	}
	pft_etm3_pkt_free(d);
}

/* Join consecutive NOTSYNC packets (feed boundaries cut them). */
static void join_notsync(struct result *r)
{
	int w = 0;
	for (int i = 0; i < r->n; i++) {
		if (w > 0 && r->p[i].type == PFT_ETM3_PKT_NOTSYNC &&
		    r->p[w - 1].type == PFT_ETM3_PKT_NOTSYNC) {
			memcpy(r->raw[w - 1] + r->p[w - 1].size, r->raw[i], r->p[i].size);
			r->p[w - 1].size = (uint16_t)(r->p[w - 1].size + r->p[i].size);
			continue;
		}
		r->p[w] = r->p[i];
		r->status[w] = r->status[i];
		memcpy(r->raw[w], r->raw[i], sizeof(r->raw[0]));
		w++;
	}
	r->n = w;
}

static int same(const struct result *a, const struct result *b)
{
	if (a->n != b->n)
		return 0;
	for (int i = 0; i < a->n; i++)
		if (memcmp(&a->p[i], &b->p[i], sizeof(a->p[i])) || a->status[i] != b->status[i] ||
		    memcmp(a->raw[i], b->raw[i], a->p[i].size))
			return 0;
	return 1;
}

static int status_of(const struct pft_etm3_packet *e)
{
	if (e->type != PFT_ETM3_PKT_BAD)
		return 0;
	switch (e->bad) {
	case PFT_ERR_PKT_RESERVED_HEADER:
	case PFT_ERR_PKT_DATA_DISABLED:
		return -PFT_ERR_BAD_OPCODE;
	case PFT_ERR_PKT_TRUNCATED:
		return -PFT_ERR_TRUNCATED;
	default:
		return -PFT_ERR_BAD_PACKET;
	}
}

/*
 * @s decodes to @e (offsets are filled in from the sizes: every byte comes
 * back once, in order), fed whole, cut at every point, and a byte at a
 * time.
 */
static void check(int line, const struct pft_etm3_config *cfg, const uint8_t *s, size_t len,
		  const struct pft_etm3_packet *e, int ne)
{
	struct result whole, cut;
	uint64_t off = 0;
	int fails = ptu_failed_checks;

	decode(cfg, s, len, NULL, 0, &whole);
	PTU_EQ(whole.n, ne);
	for (int i = 0; i < ne && i < whole.n; i++) {
		struct pft_etm3_packet x = e[i];
		x.offset = off;
		off += x.size;
		if (memcmp(&x, &whole.p[i], sizeof(x))) {
			fprintf(stderr, "line %d: packet %d differs: type %u/%u size %u/%u "
				"addr 0x%x/0x%x atoms 0x%x/0x%x n %u/%u cycles %u/%u\n",
				line, i, x.type, whole.p[i].type, x.size, whole.p[i].size, x.addr,
				whole.p[i].addr, x.atoms, whole.p[i].atoms, x.n_atoms,
				whole.p[i].n_atoms, x.cycles, whole.p[i].cycles);
			ptu_failed_checks++;
		}
		PTU_CHECK(memcmp(whole.raw[i], s + x.offset, x.size) == 0);
		PTU_EQ(whole.status[i], status_of(&x));
	}
	PTU_EQ(off, len);

	join_notsync(&whole);
	for (size_t c = 0; c <= len; c++) {
		size_t cuts[1] = { c };
		decode(cfg, s, len, cuts, 1, &cut);
		join_notsync(&cut);
		if (!same(&whole, &cut)) {
			fprintf(stderr, "line %d: cut at %zu differs\n", line, c);
			ptu_failed_checks++;
		}
	}
	size_t every[256];
	for (size_t c = 0; c + 1 < len && c < 256; c++)
		every[c] = c + 1;
	decode(cfg, s, len, every, len > 1 ? len - 1 : 0, &cut);
	join_notsync(&cut);
	if (!same(&whole, &cut)) {
		fprintf(stderr, "line %d: byte-at-a-time feed differs\n", line);
		ptu_failed_checks++;
	}
	if (ptu_failed_checks != fails)
		fprintf(stderr, "  (vector at line %d)\n", line);
}

/* An A-sync, then @pkt: every proper prefix of @pkt, then finish, gives
 * the A-sync and a truncated BAD packet holding the prefix. */
static void check_truncation(int line, const struct pft_etm3_config *cfg, const uint8_t *pre,
			     size_t npre, const uint8_t *pkt, size_t n)
{
	uint8_t s[128];

	memcpy(s, pre, npre);
	memcpy(s + npre, pkt, n);
	for (size_t k = 1; k < n; k++) {
		struct result r;
		decode(cfg, s, npre + k, NULL, 0, &r);
		if (r.n < 1 || r.p[r.n - 1].type != PFT_ETM3_PKT_BAD ||
		    r.p[r.n - 1].bad != PFT_ERR_PKT_TRUNCATED || r.p[r.n - 1].size != k ||
		    r.p[r.n - 1].offset != npre || r.status[r.n - 1] != -PFT_ERR_TRUNCATED) {
			fprintf(stderr, "line %d: prefix of %zu bytes not truncated\n", line, k);
			ptu_failed_checks++;
		}
	}
}

static struct pft_etm3_config tc2, plain, wide;

#define P(...) ((struct pft_etm3_packet){ __VA_ARGS__ })
#define CHECK(cfg, s, ...)                                                      \
	do {                                                                    \
		const struct pft_etm3_packet e_[] = { __VA_ARGS__ };            \
		check(__LINE__, cfg, s, sizeof(s), e_, (int)(sizeof(e_) / sizeof(e_[0]))); \
	} while (0)

static const struct pft_etm3_packet async6 = { .type = PFT_ETM3_PKT_ASYNC, .size = 6 };

/* Section 3.3: A-sync; bytes before it are NOTSYNC; 5-15 zeros. */
static void test_async(void)
{
	static const uint8_t s[] = { 0x11, 0x22, ASYNC, 0x00, 0x00, 0x00, 0x00, 0x00,
				     0x00, 0x00, 0x80 };
	CHECK(&tc2, s, P(.type = PFT_ETM3_PKT_NOTSYNC, .size = 2), async6,
	      P(.type = PFT_ETM3_PKT_ASYNC, .size = 8));
	/* 20 zeros and 0x80: the 5 oldest zeros cannot be part of an A-sync
	 * of at most 15. */
	uint8_t z[21] = { 0 };
	z[20] = 0x80;
	CHECK(&tc2, z, P(.type = PFT_ETM3_PKT_NOTSYNC, .size = 5),
	      P(.type = PFT_ETM3_PKT_ASYNC, .size = 16));
	/* Synchronised, zeros ended by another byte: BAD, then NOTSYNC to
	 * the next A-sync. */
	static const uint8_t b[] = { ASYNC, 0x00, 0x00, 0x00, 0x05, 0x07, ASYNC };
	CHECK(&tc2, b, async6, P(.type = PFT_ETM3_PKT_BAD, .size = 3, .bad = PFT_ERR_PKT_ASYNC),
	      P(.type = PFT_ETM3_PKT_NOTSYNC, .size = 2), async6);
	/* Four zeros and 0x80 while synchronised: too short. */
	static const uint8_t f[] = { ASYNC, 0x00, 0x00, 0x00, 0x00, 0x80, 0x0c };
	CHECK(&tc2, f, async6, P(.type = PFT_ETM3_PKT_BAD, .size = 5, .bad = PFT_ERR_PKT_ASYNC),
	      P(.type = PFT_ETM3_PKT_NOTSYNC, .size = 1));
	/* Held zeros followed by 0x80 too early (fuzz regression: the 0x80
	 * was lost when a feed ended after the zeros). */
	static const uint8_t h[] = { 0x00, 0x80, 0x11 };
	CHECK(&tc2, h, P(.type = PFT_ETM3_PKT_NOTSYNC, .size = 3));
	/* Only zeros, then the end: NOTSYNC. */
	static const uint8_t o[] = { 0x00, 0x00, 0x00 };
	CHECK(&tc2, o, P(.type = PFT_ETM3_PKT_NOTSYNC, .size = 3));
}

/* Section 4.4: I-sync. */
static void test_isync(void)
{
	/* TC2 0x10 Idx 884: periodic, Secure, A = 0xC002115D -> Thumb @ C002115C. */
	static const uint8_t a[] = { ASYNC, 0x08, 0x01, 0x5d, 0x11, 0x02, 0xc0 };
	CHECK(&tc2, a, async6, P(.type = PFT_ETM3_PKT_ISYNC, .size = 6, .addr = 0xC002115C,
				 .isa = PFT_ISA_THUMB, .reason = 0));
	/* Idx 919: 0x70, cc 8f 3c = 0x0f + 0x3c << 7 = 15 + 7680 = 7695, info
	 * 0x21: reason 01, then A = 0xC004F699 -> Thumb @ C004F698. */
	static const uint8_t b[] = { ASYNC, 0x70, 0x8f, 0x3c, 0x21, 0x99, 0xf6, 0x04, 0xc0 };
	CHECK(&tc2, b, async6, P(.type = PFT_ETM3_PKT_ISYNC, .size = 8, .addr = 0xC004F698,
				 .isa = PFT_ISA_THUMB, .reason = 1, .has_cycles = 1,
				 .cycles = 7695));
	check_truncation(__LINE__, &tc2, a, 6, b + 6, 8);
	/* Section 6.4: 4-byte context ID 0x12345678 before the info byte. */
	static const uint8_t c[] = { ASYNC, 0x08, 0x78, 0x56, 0x34, 0x12, 0x21, 0x5d, 0x11,
				     0x02, 0xc0 };
	CHECK(&wide, c, async6, P(.type = PFT_ETM3_PKT_ISYNC, .size = 10, .addr = 0xC002115C,
				  .isa = PFT_ISA_THUMB, .reason = 1, .ctxid = 0x12345678,
				  .has_ctxid = 1));
	check_truncation(__LINE__, &wide, c, 6, c + 6, 10);
	/* Info 0x8b = LSiP, NS, Hyp: ARM load/store at 0x1000, continuation
	 * address 09 = A[7:2] 000010 -> 0x10 over 0x1000 -> 0x1010.  Hyp only
	 * with the Virtualization Extensions (tc2 has them, plain not). */
	static const uint8_t d[] = { ASYNC, 0x08, 0x8b, 0x00, 0x10, 0x00, 0x00, 0x09 };
	CHECK(&tc2, d, async6, P(.type = PFT_ETM3_PKT_ISYNC, .size = 7, .addr = 0x1000,
				 .isa = PFT_ISA_ARM, .ns = 1, .hyp = 1, .lsip = 1,
				 .lsip_addr = 0x1010));
	CHECK(&plain, d, async6, P(.type = PFT_ETM3_PKT_ISYNC, .size = 7, .addr = 0x1000,
				  .isa = PFT_ISA_ARM, .ns = 1, .lsip = 1, .lsip_addr = 0x1010));
	check_truncation(__LINE__, &tc2, d, 6, d + 6, 7);
	/* Info 0x14: J and AltISA: Jazelle keeps address bit 0. */
	static const uint8_t j[] = { ASYNC, 0x08, 0x15, 0x03, 0x00, 0x00, 0x80 };
	CHECK(&tc2, j, async6, P(.type = PFT_ETM3_PKT_ISYNC, .size = 6, .addr = 0x80000003,
				 .isa = PFT_ISA_JAZELLE, .jazelle = 1, .altis = 1));
	/* Data-only mode (ETMCR[20]): header and information byte only. */
	struct pft_etm3_config donly = plain;
	donly.data_only = 1;
	donly.data_value = 1;
	static const uint8_t e[] = { ASYNC, 0x08, 0x21, 0x0c };
	CHECK(&donly, e, async6, P(.type = PFT_ETM3_PKT_ISYNC, .size = 2, .reason = 1),
	      P(.type = PFT_ETM3_PKT_TRIGGER, .size = 1));
}

/* Section 4.1: non-cycle-accurate P-headers. */
static void test_pheader_plain(void)
{
	/* C8 = 1_1_0010_00: two E, then N (EEN); 8A = format 2, bit 3 = 1
	 * (older N), bit 2 = 0 (newer E): NE; 80: no atoms; BC: 15 E;
	 * FC: 15 E and N. */
	static const uint8_t s[] = { ASYNC, 0xc8, 0x8a, 0x80, 0xbc, 0xfc, 0x92 };
	CHECK(&plain, s, async6,
	      P(.type = PFT_ETM3_PKT_PHEADER, .size = 1, .format = 1, .n_atoms = 3, .atoms = 0x3),
	      P(.type = PFT_ETM3_PKT_PHEADER, .size = 1, .format = 2, .n_atoms = 2, .atoms = 0x2),
	      P(.type = PFT_ETM3_PKT_PHEADER, .size = 1, .format = 1),
	      P(.type = PFT_ETM3_PKT_PHEADER, .size = 1, .format = 1, .n_atoms = 15,
		.atoms = 0x7fff),
	      P(.type = PFT_ETM3_PKT_PHEADER, .size = 1, .format = 1, .n_atoms = 16,
		.atoms = 0x7fff),
	      /* 92 = b1001xx10: reserved without cycle accuracy. */
	      P(.type = PFT_ETM3_PKT_BAD, .size = 1, .bad = PFT_ERR_PKT_RESERVED_HEADER));
}

/* Section 4.2: cycle-accurate P-headers (W = one cycle). */
static void test_pheader_ca(void)
{
	/* C4 = 1_1_0_001_00: WE WN; 82: W E E; 86: W E N; 8A: W N E;
	 * BC = 1_0_1_111_00: 8 W; E0 = 1_1_1_000_00: W E; 92: E (format 4);
	 * 96: N; 80: format 0, nothing. */
	static const uint8_t s[] = { ASYNC, 0xc4, 0x82, 0x86, 0x8a, 0xbc, 0xe0, 0x92, 0x96, 0x80,
				     0xb2 };
	CHECK(&tc2, s, async6,
	      P(.type = PFT_ETM3_PKT_PHEADER, .size = 1, .format = 1, .n_atoms = 2, .atoms = 1,
		.cycles = 2),
	      P(.type = PFT_ETM3_PKT_PHEADER, .size = 1, .format = 2, .n_atoms = 2, .atoms = 3,
		.cycles = 1),
	      P(.type = PFT_ETM3_PKT_PHEADER, .size = 1, .format = 2, .n_atoms = 2, .atoms = 1,
		.cycles = 1),
	      P(.type = PFT_ETM3_PKT_PHEADER, .size = 1, .format = 2, .n_atoms = 2, .atoms = 2,
		.cycles = 1),
	      P(.type = PFT_ETM3_PKT_PHEADER, .size = 1, .format = 3, .cycles = 8),
	      P(.type = PFT_ETM3_PKT_PHEADER, .size = 1, .format = 3, .n_atoms = 1, .atoms = 1,
		.cycles = 1),
	      P(.type = PFT_ETM3_PKT_PHEADER, .size = 1, .format = 4, .n_atoms = 1, .atoms = 1),
	      P(.type = PFT_ETM3_PKT_PHEADER, .size = 1, .format = 4, .n_atoms = 1),
	      P(.type = PFT_ETM3_PKT_PHEADER, .size = 1, .format = 0),
	      /* B2 = b1x1xxx10: reserved. */
	      P(.type = PFT_ETM3_PKT_BAD, .size = 1, .bad = PFT_ERR_PKT_RESERVED_HEADER));
}

/* Base for branches: Thumb I-sync at 0xC004EFB4 (A = 0xC004EFB5). */
#define ISYNC_T 0x08, 0x01, 0xb5, 0xef, 0x04, 0xc0
static const struct pft_etm3_packet isync_t = { .type = PFT_ETM3_PKT_ISYNC, .size = 6,
						.addr = 0xC004EFB4, .isa = PFT_ISA_THUMB };

/* Section 4.5: branch addresses, original encoding. */
static void test_branch_original(void)
{
	/* Section 6.2: 81 = A[6:1] 0, C; 6d = A[13:7] 0x6d (7 bits, no
	 * exception flag): 0x6d << 7 = 0x3680 over 0xC004EFB4 -> 0xC004F680.
	 * Then 2b = A[6:1] 0x15 -> 0x2a over 0xC004F680 -> 0xC004F6AA. */
	static const uint8_t a[] = { ASYNC, ISYNC_T, 0x81, 0x6d, 0x2b };
	CHECK(&tc2, a, async6, isync_t,
	      P(.type = PFT_ETM3_PKT_BRANCH, .size = 2, .addr = 0xC004F680, .isa = PFT_ISA_THUMB,
		.addr_bytes = 2),
	      P(.type = PFT_ETM3_PKT_BRANCH, .size = 1, .addr = 0xC004F6AA, .isa = PFT_ISA_THUMB,
		.addr_bytes = 1));
	/* Section 6.3: d7 ba 86 db 0d: A[7:2] 0x2b, A[14:8] 0x3a, A[21:15] 6,
	 * A[28:22] 0x5b, 0d = b00001101: ARM, A[31:29] = 5 -> 0xB6C33AAC. */
	static const uint8_t b[] = { ASYNC, ISYNC_T, 0xd7, 0xba, 0x86, 0xdb, 0x0d };
	CHECK(&tc2, b, async6, isync_t,
	      P(.type = PFT_ETM3_PKT_BRANCH, .size = 5, .addr = 0xB6C33AAC, .isa = PFT_ISA_ARM,
		.addr_bytes = 5));
	check_truncation(__LINE__, &tc2, b, 12, b + 12, 5);
	/* Section 6.4: 8d 80 fe ff 4f: A[7:2] 6 (0x18), A[14:8] 0, A[21:15]
	 * 0x7e, A[28:22] 0x7f, 4f = b01001111: ARM, exception bytes follow,
	 * A[31:29] 7 -> 0xFFFF0018.  E0 38 = b00111000: Cancel, exception
	 * 1100 = 12 (data fault), Secure. */
	static const uint8_t c[] = { ASYNC, ISYNC_T, 0x8d, 0x80, 0xfe, 0xff, 0x4f, 0x38 };
	CHECK(&tc2, c, async6, isync_t,
	      P(.type = PFT_ETM3_PKT_BRANCH, .size = 6, .addr = 0xFFFF0018, .isa = PFT_ISA_ARM,
		.addr_bytes = 5, .exc_bytes = 1, .exception = 12, .cancel = 1));
	check_truncation(__LINE__, &tc2, c, 12, c + 12, 6);
	/* E0 9d = C, exception 14 (IRQ), NS; E1 a0 = C, Hyp, Exception[8:4]
	 * 0; E2 43 = b01000011: resume 3.  Three exception bytes. */
	static const uint8_t d[] = { ASYNC, ISYNC_T, 0x8d, 0x80, 0xfe, 0xff, 0x4f, 0x9d, 0xa0,
				     0x43 };
	CHECK(&tc2, d, async6, isync_t,
	      P(.type = PFT_ETM3_PKT_BRANCH, .size = 8, .addr = 0xFFFF0018, .isa = PFT_ISA_ARM,
		.addr_bytes = 5, .exc_bytes = 3, .exception = 14, .ns = 1, .hyp = 1,
		.resume = 3));
	check_truncation(__LINE__, &tc2, d, 12, d + 12, 8);
	/* E0 9c then 41: bit 6 set, so E2 (resume 1) and E1 is skipped. */
	static const uint8_t e[] = { ASYNC, ISYNC_T, 0x8d, 0x80, 0xfe, 0xff, 0x4f, 0x9c, 0x41 };
	CHECK(&tc2, e, async6, isync_t,
	      P(.type = PFT_ETM3_PKT_BRANCH, .size = 7, .addr = 0xFFFF0018, .isa = PFT_ISA_ARM,
		.addr_bytes = 5, .exc_bytes = 2, .exception = 14, .resume = 1));
	/* 5th byte 5d = b01011101: Thumb, exception bytes follow, A[31:28] 0xd; E0 41 = AltISA, NS:
	 * ThumbEE.  81 80 80 80: A[27:1] 0 -> 0xD0000000. */
	static const uint8_t f[] = { ASYNC, ISYNC_T, 0x81, 0x80, 0x80, 0x80, 0x5d, 0x41 };
	CHECK(&tc2, f, async6, isync_t,
	      P(.type = PFT_ETM3_PKT_BRANCH, .size = 6, .addr = 0xD0000000,
		.isa = PFT_ISA_THUMBEE, .addr_bytes = 5, .exc_bytes = 1, .ns = 1, .altis = 1));
	/* 5th byte 23 = b00100011: Jazelle, A[31:27] 3: 0x18000000 | A[0] 0. */
	static const uint8_t g[] = { ASYNC, ISYNC_T, 0x81, 0x80, 0x80, 0x80, 0x23 };
	CHECK(&tc2, g, async6, isync_t,
	      P(.type = PFT_ETM3_PKT_BRANCH, .size = 5, .addr = 0x18000000,
		.isa = PFT_ISA_JAZELLE, .addr_bytes = 5));
	/* Deprecated form 8b = b1_0_001_011: ARM, exception X = 1 (IRQ),
	 * A[31:29] 3 -> 0x60000000. */
	static const uint8_t h[] = { ASYNC, ISYNC_T, 0x81, 0x80, 0x80, 0x80, 0x8b };
	CHECK(&tc2, h, async6, isync_t,
	      P(.type = PFT_ETM3_PKT_BRANCH, .size = 5, .addr = 0x60000000, .isa = PFT_ISA_ARM,
		.addr_bytes = 5, .exception = PFT_EXC_IRQ));
	/* 5th byte 07 = b0E000xxx: no instruction set; reserved deprecated X=2
	 * (0x90) too. */
	static const uint8_t i[] = { ASYNC, ISYNC_T, 0x81, 0x80, 0x80, 0x80, 0x07, 0x0c };
	CHECK(&tc2, i, async6, isync_t,
	      P(.type = PFT_ETM3_PKT_BAD, .size = 5, .bad = PFT_ERR_PKT_BAD_ISA),
	      P(.type = PFT_ETM3_PKT_NOTSYNC, .size = 1));
	static const uint8_t k[] = { ASYNC, ISYNC_T, 0x81, 0x80, 0x80, 0x80, 0x90 };
	CHECK(&tc2, k, async6, isync_t,
	      P(.type = PFT_ETM3_PKT_BAD, .size = 5, .bad = PFT_ERR_PKT_BAD_ISA));
}

/* Section 4.5, alternative encoding (and section 6.5). */
static void test_branch_alternative(void)
{
	struct pft_etm3_config m;
	pft_etm3_config_init(&m);
	PTU_EQ(pft_etm3_config_from_regs(&m, 0, 0, 0x4114F240, 0x22), 0);
	PTU_EQ(m.alt_branch, 1);
	/* Thumb base 0x20000000 (A = 0x20000001).  81 44: A[6:1] 0, then
	 * 44 = last byte with bit 6 set (exception follows), A[12:7] 4 ->
	 * 0x200; E0 90: C, exception[3:0] 8; E1 01: exception[8:4] 1 -> 24
	 * (IRQ8). */
	static const uint8_t a[] = { ASYNC, 0x08, 0x01, 0x01, 0x00, 0x00, 0x20, 0x81, 0x44, 0x90,
				     0x01, 0x9b, 0xc4, 0x0b };
	/* 9b c4 0b: A[6:1] 0x0d, A[13:7] 0x44, last 0b: A[19:14] 0x0b (bit 6
	 * clear): 0x1a | 0x44 << 7 | 0x0b << 14 = 0x2E21A over 0x20000200. */
	CHECK(&m, a, async6,
	      P(.type = PFT_ETM3_PKT_ISYNC, .size = 6, .addr = 0x20000000, .isa = PFT_ISA_THUMB),
	      P(.type = PFT_ETM3_PKT_BRANCH, .size = 4, .addr = 0x20000200, .isa = PFT_ISA_THUMB,
		.addr_bytes = 2, .exc_bytes = 2, .exception = 24),
	      P(.type = PFT_ETM3_PKT_BRANCH, .size = 3, .addr = 0x2002E21A,
		.isa = PFT_ISA_THUMB, .addr_bytes = 3));
	/* The same 44 in the original encoding is 7 address bits (section 6.2). */
	static const uint8_t b[] = { ASYNC, 0x08, 0x01, 0x01, 0x00, 0x00, 0x20, 0x81, 0x44 };
	CHECK(&tc2, b, async6,
	      P(.type = PFT_ETM3_PKT_ISYNC, .size = 6, .addr = 0x20000000, .isa = PFT_ISA_THUMB),
	      P(.type = PFT_ETM3_PKT_BRANCH, .size = 2, .addr = 0x20002200, .isa = PFT_ISA_THUMB,
		.addr_bytes = 2));
}

/* Sections 4.3, 4.6-4.10: the short packets. */
static void test_others(void)
{
	/* 04 85 01: 5 + 1 << 7 = 133; 04 ff ff ff ff 0f: 7+7+7+7 bits of 1,
	 * then 4 -> 0xFFFFFFFF.  3c 05: VMID 5.  6e: context ID 0x11223344
	 * (wide: 4 bytes).  0c trigger, 66 ignore, 76 exception return, 7e
	 * exception entry. */
	static const uint8_t s[] = { ASYNC, 0x04, 0x85, 0x01, 0x04, 0xff, 0xff, 0xff, 0xff, 0x0f,
				     0x3c, 0x05, 0x6e, 0x44, 0x33, 0x22, 0x11, 0x0c, 0x66, 0x76,
				     0x7e };
	struct pft_etm3_config c = wide;
	c.cycle_accurate = 1;
	CHECK(&c, s, async6, P(.type = PFT_ETM3_PKT_CYCLE_COUNT, .size = 3, .cycles = 133),
	      P(.type = PFT_ETM3_PKT_CYCLE_COUNT, .size = 6, .cycles = 0xFFFFFFFF),
	      P(.type = PFT_ETM3_PKT_VMID, .size = 2, .vmid = 5),
	      P(.type = PFT_ETM3_PKT_CONTEXTID, .size = 5, .ctxid = 0x11223344, .has_ctxid = 1),
	      P(.type = PFT_ETM3_PKT_TRIGGER, .size = 1), P(.type = PFT_ETM3_PKT_IGNORE, .size = 1),
	      P(.type = PFT_ETM3_PKT_EXCEPTION_RETURN, .size = 1),
	      P(.type = PFT_ETM3_PKT_EXCEPTION_ENTRY, .size = 1));
	check_truncation(__LINE__, &c, s, 6, s + 9, 6);
	check_truncation(__LINE__, &c, s, 6, s + 17, 5);
	/* 0x04 without cycle accuracy is reserved, as are 0x10 and 0x72
	 * (PFT's waypoint update). */
	static const uint8_t r[] = { ASYNC, 0x04, ASYNC, 0x10, ASYNC, 0x72 };
	CHECK(&plain, r, async6,
	      P(.type = PFT_ETM3_PKT_BAD, .size = 1, .bad = PFT_ERR_PKT_RESERVED_HEADER), async6,
	      P(.type = PFT_ETM3_PKT_BAD, .size = 1, .bad = PFT_ERR_PKT_RESERVED_HEADER), async6,
	      P(.type = PFT_ETM3_PKT_BAD, .size = 1, .bad = PFT_ERR_PKT_RESERVED_HEADER));
}

/* Section 4.8: timestamps. */
static void test_timestamp(void)
{
	/* TC2 0x10 Idx 865: bd 9a c3 ce af 90 80 80 00 = 0x3d | 0x1a<<7 |
	 * 0x43<<14 | 0x4e<<21 | 0x2f<<28 | 0x10<<35 = 0x82F9D0CD3D; then
	 * 42 85 2b: bits [13:0] = 0x05 | 0x2b<<7 = 0x1585 -> 0x82F9D0D585. */
	static const uint8_t s[] = { ASYNC, 0x42, 0xbd, 0x9a, 0xc3, 0xce, 0xaf, 0x90, 0x80, 0x80,
				     0x00, 0x46, 0x85, 0x2b };
	CHECK(&tc2, s, async6,
	      P(.type = PFT_ETM3_PKT_TIMESTAMP, .size = 10, .ts = 0x82F9D0CD3D,
		.ts_raw = 0x82F9D0CD3D, .ts_bits = 64),
	      P(.type = PFT_ETM3_PKT_TIMESTAMP, .size = 3, .ts = 0x82F9D0D585,
		.ts_raw = 0x82F9D0D585, .ts_bits = 14, .ts_clock_change = 1));
	check_truncation(__LINE__, &tc2, s, 6, s + 6, 10);
	/* 64-bit: nine bytes, the last with 8 bits: all ones. */
	static const uint8_t f[] = { ASYNC, 0x42, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				     0xff };
	CHECK(&tc2, f, async6, P(.type = PFT_ETM3_PKT_TIMESTAMP, .size = 10, .ts = ~0ull,
				 .ts_raw = ~0ull, .ts_bits = 64));
	/* Gray coded (ETMCCER[28] = 0), 48-bit: raw 3 (Gray 11) is binary 2. */
	static const uint8_t g[] = { ASYNC, 0x42, 0x03 };
	struct pft_etm3_config gc = plain;
	gc.ts_gray = 1;
	gc.ts_64bit = 0;
	CHECK(&gc, g, async6, P(.type = PFT_ETM3_PKT_TIMESTAMP, .size = 2, .ts = 2, .ts_raw = 3,
				.ts_bits = 7));
}

/* Section 4.11: data trace packets (wide traces values and addresses). */
static void test_data(void)
{
	/* 2e = b00101110: A, SS = 11: address 05 (one byte: 5), value
	 * 78 56 34 12; 06 = SS 01: one byte ab; 2c = b00101100: out of
	 * order, tag 1, SS 11; 74 = b01110100: placeholder, A, tag 1,
	 * address 85 01 = 5 | 1 << 7 = 0x85; 50 store failed; 62
	 * suppressed; 7a = b01111010: value not traced, A, address 03 over
	 * 0x85 = 0x83 (the low 7 bits replaced); 22 = A, SS 00 with a 5-byte
	 * address ff ff ff ff 0f = 0xFFFFFFFF. */
	static const uint8_t s[] = { ASYNC, 0x2e, 0x05, 0x78, 0x56, 0x34, 0x12, 0x06, 0xab, 0x2c,
				     0x11, 0x22, 0x33, 0x44, 0x74, 0x85, 0x01, 0x50, 0x62, 0x7a,
				     0x03, 0x22, 0xff, 0xff, 0xff, 0xff, 0x0f };
	CHECK(&wide, s, async6,
	      P(.type = PFT_ETM3_PKT_DATA, .size = 6, .addr = 5, .has_data_addr = 1,
		.value = 0x12345678, .value_bytes = 4),
	      P(.type = PFT_ETM3_PKT_DATA, .size = 2, .value = 0xab, .value_bytes = 1),
	      P(.type = PFT_ETM3_PKT_DATA_OOO, .size = 5, .tag = 1, .value = 0x44332211,
		.value_bytes = 4),
	      P(.type = PFT_ETM3_PKT_DATA_PLACEHOLDER, .size = 3, .tag = 1, .addr = 0x85,
		.has_data_addr = 1),
	      P(.type = PFT_ETM3_PKT_STORE_FAILED, .size = 1),
	      P(.type = PFT_ETM3_PKT_DATA_SUPPRESSED, .size = 1),
	      P(.type = PFT_ETM3_PKT_VALUE_NOT_TRACED, .size = 2, .addr = 0x83, .has_data_addr = 1),
	      P(.type = PFT_ETM3_PKT_DATA, .size = 6, .addr = 0xFFFFFFFF, .has_data_addr = 1));
	check_truncation(__LINE__, &wide, s, 6, s + 6, 6);
	check_truncation(__LINE__, &wide, s, 6, s + 26, 6);
	/* Without data trace (ETMCR[3:2] = 00) a data header is bad. */
	static const uint8_t b[] = { ASYNC, 0x06, 0xab };
	CHECK(&tc2, b, async6,
	      P(.type = PFT_ETM3_PKT_BAD, .size = 1, .bad = PFT_ERR_PKT_DATA_DISABLED),
	      P(.type = PFT_ETM3_PKT_NOTSYNC, .size = 1));
}

/* Section 2: configuration from registers. */
static void test_config(void)
{
	struct pft_etm3_config c;

	PTU_EQ(pft_etm3_config_init(NULL), -PFT_ERR_INVALID);
	PTU_EQ(pft_etm3_config_from_regs(NULL, 0, 0, 0x410CF250, 0), -PFT_ERR_INVALID);
	pft_etm3_config_init(&c);
	/* TC2 ETM_0 (section 2.5). */
	PTU_EQ(pft_etm3_config_from_regs(&c, 0x10001860, 0x344008F2, 0x410CF250, 0x10), 0);
	PTU_EQ(c.version_minor, 5);
	PTU_EQ(c.cycle_accurate, 1);
	PTU_EQ(c.timestamps, 1);
	PTU_EQ(c.ts_64bit, 1);
	PTU_EQ(c.ts_gray, 0);
	PTU_EQ(c.virtualization, 1);
	PTU_EQ(c.ctxid_bytes, 0);
	PTU_EQ(c.alt_branch, 0);
	PTU_EQ(c.data_value | c.data_address | c.data_only | c.vmid, 0);
	PTU_EQ(c.trace_id, 0x10);
	PTU_EQ(c.etmcr, 0x10001860);
	/* ETMCR 0x4010C00C: VMID, data-only, 4-byte ctxid, data both. */
	PTU_EQ(pft_etm3_config_from_regs(&c, 0x4010C00C, 0, 0x410CF250, 0x10), 0);
	PTU_EQ(c.vmid, 1);
	PTU_EQ(c.data_only, 1);
	PTU_EQ(c.ctxid_bytes, 4);
	PTU_EQ(c.data_value, 1);
	PTU_EQ(c.data_address, 1);
	/* IDR[20] without v3.4: original encoding. */
	PTU_EQ(pft_etm3_config_from_regs(&c, 0, 0, 0x4114F230, 0), 0);
	PTU_EQ(c.alt_branch, 0);
	/* A PTM (major 3) is not ETMv3: refused, unchanged. */
	c.trace_id = 0x33;
	PTU_EQ(pft_etm3_config_from_regs(&c, 0, 0, 0x411CF312, 0x13), -PFT_ERR_BAD_CONFIG);
	PTU_EQ(c.trace_id, 0x33);
}

static void test_args(void)
{
	struct pft_etm3_config c = tc2;
	struct pft_etm3_packet p;
	int err = 0;

	PTU_CHECK(!pft_etm3_pkt_alloc(NULL, &err));
	PTU_EQ(err, -PFT_ERR_INVALID);
	c.ctxid_bytes = 3;
	PTU_CHECK(!pft_etm3_pkt_alloc(&c, &err));
	PTU_EQ(err, -PFT_ERR_BAD_CONFIG);
	c = tc2;
	c.size = 4;
	PTU_CHECK(!pft_etm3_pkt_alloc(&c, &err));
	PTU_EQ(err, -PFT_ERR_INVALID);
	pft_etm3_pkt_free(NULL);

	struct pft_etm3_pkt_decoder *d = pft_etm3_pkt_alloc(&tc2, NULL);
	PTU_CHECK(d != NULL);
	PTU_EQ(pft_etm3_pkt_feed(NULL, (const uint8_t *)"", 0), -PFT_ERR_INVALID);
	PTU_EQ(pft_etm3_pkt_feed(d, NULL, 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_etm3_pkt_feed_at(NULL, NULL, 0, 0), -PFT_ERR_INVALID);
	PTU_EQ(pft_etm3_pkt_next(NULL, &p, sizeof(p)), -PFT_ERR_INVALID);
	PTU_EQ(pft_etm3_pkt_next(d, NULL, sizeof(p)), -PFT_ERR_INVALID);
	PTU_EQ(pft_etm3_pkt_next(d, &p, 8), -PFT_ERR_INVALID);
	PTU_EQ(pft_etm3_pkt_next(d, &p, sizeof(p)), -PFT_ERR_NEED_INPUT);
	PTU_EQ(pft_etm3_pkt_finish(NULL), -PFT_ERR_INVALID);
	PTU_EQ(pft_etm3_pkt_reset(NULL), -PFT_ERR_INVALID);
	PTU_EQ(pft_etm3_pkt_sync_forward(NULL), -PFT_ERR_INVALID);
	PTU_EQ(pft_etm3_pkt_get_offset(NULL), 0);

	/* feed_at offsets; get_offset; sync_forward turns a cut packet into
	 * NOTSYNC; finish then EOS; feed after finish. */
	static const uint8_t s[] = { ASYNC, 0x42, 0x85 };
	PTU_EQ(pft_etm3_pkt_feed_at(d, s, sizeof(s), 1000), 0);
	PTU_EQ(pft_etm3_pkt_next(d, &p, sizeof(p)), 0);
	PTU_EQ(p.type, PFT_ETM3_PKT_ASYNC);
	PTU_EQ(p.offset, 1000);
	PTU_EQ(pft_etm3_pkt_get_offset(d), 1006);
	PTU_EQ(pft_etm3_pkt_next(d, &p, sizeof(p)), -PFT_ERR_NEED_INPUT);
	PTU_EQ(pft_etm3_pkt_get_offset(d), 1006);
	PTU_EQ(pft_etm3_pkt_sync_forward(d), 0);
	PTU_EQ(pft_etm3_pkt_next(d, &p, sizeof(p)), 0);
	PTU_EQ(p.type, PFT_ETM3_PKT_NOTSYNC);
	PTU_EQ(p.size, 2);
	PTU_EQ(p.offset, 1006);
	PTU_EQ(pft_etm3_pkt_finish(d), 0);
	PTU_EQ(pft_etm3_pkt_next(d, &p, sizeof(p)), -PFT_ERR_EOS);
	PTU_EQ(pft_etm3_pkt_feed(d, s, 1), -PFT_ERR_EOS);
	/* reset: as new. */
	PTU_EQ(pft_etm3_pkt_reset(d), 0);
	PTU_EQ(pft_etm3_pkt_feed(d, s, 6), 0);
	PTU_EQ(pft_etm3_pkt_next(d, &p, sizeof(p)), 0);
	PTU_EQ(p.type, PFT_ETM3_PKT_ASYNC);
	PTU_EQ(p.offset, 0);
	pft_etm3_pkt_free(d);

	PTU_STREQ(pft_etm3_pkt_type_name(PFT_ETM3_PKT_PHEADER), "pheader");
	PTU_STREQ(pft_etm3_pkt_type_name(PFT_ETM3_PKT_BAD), "error");
	PTU_STREQ(pft_etm3_pkt_type_name(PFT_ETM3_PKT_TYPE_MAX), "unknown");
}

/* A feed while bytes of the last one are undecoded is refused (as for
 * PTM): they would be lost, and every offset after them wrong. */
static void test_feed_refused(void)
{
	static const uint8_t s[] = { ASYNC, 0x0c, 0x0c, 0x42, 0x85 };
	struct pft_etm3_packet p;
	struct pft_etm3_pkt_decoder *d = pft_etm3_pkt_alloc(&plain, NULL);

	PTU_EQ(pft_etm3_pkt_feed_at(d, s, sizeof(s), 100), 0);
	PTU_EQ(pft_etm3_pkt_next(d, &p, sizeof(p)), 0);
	PTU_EQ(p.type, PFT_ETM3_PKT_ASYNC);
	PTU_EQ(pft_etm3_pkt_feed_at(d, s, 6, 200), -PFT_ERR_INVALID);
	PTU_EQ(pft_etm3_pkt_feed(d, s, 6), -PFT_ERR_INVALID);
	PTU_EQ(pft_etm3_pkt_get_offset(d), 106);
	PTU_EQ(pft_etm3_pkt_next(d, &p, sizeof(p)), 0);
	PTU_EQ(p.type, PFT_ETM3_PKT_TRIGGER);
	PTU_EQ(p.offset, 106);
	PTU_EQ(pft_etm3_pkt_next(d, &p, sizeof(p)), 0);
	PTU_EQ(p.offset, 107);
	/* The timestamp is cut: its bytes are carried, the feed may go. */
	PTU_EQ(pft_etm3_pkt_next(d, &p, sizeof(p)), -PFT_ERR_NEED_INPUT);
	PTU_EQ(pft_etm3_pkt_sync_forward(d), 0);
	PTU_EQ(pft_etm3_pkt_next(d, &p, sizeof(p)), 0);
	PTU_EQ(p.type, PFT_ETM3_PKT_NOTSYNC);
	PTU_EQ(p.offset, 108);
	PTU_EQ(p.size, 2);
	PTU_EQ(pft_etm3_pkt_feed_at(d, s, 6, 300), 0);
	PTU_EQ(pft_etm3_pkt_next(d, &p, sizeof(p)), 0);
	PTU_EQ(p.type, PFT_ETM3_PKT_ASYNC);
	PTU_EQ(p.offset, 300);
	pft_etm3_pkt_free(d);
}

int main(void)
{
	pft_etm3_config_init(&tc2);
	pft_etm3_config_from_regs(&tc2, 0x10001860, 0x344008F2, 0x410CF250, 0x10);
	pft_etm3_config_init(&plain);
	pft_etm3_config_from_regs(&plain, 0x00000000, 0x30000000, 0x410CF250, 0x10);
	/* 4-byte context ID, data values and addresses (ETMCR 0xC00C). */
	pft_etm3_config_init(&wide);
	pft_etm3_config_from_regs(&wide, 0x0000C00C, 0x30000000, 0x410CF250, 0x10);

	PTU_RUN(test_async);
	PTU_RUN(test_isync);
	PTU_RUN(test_pheader_plain);
	PTU_RUN(test_pheader_ca);
	PTU_RUN(test_branch_original);
	PTU_RUN(test_branch_alternative);
	PTU_RUN(test_others);
	PTU_RUN(test_timestamp);
	PTU_RUN(test_data);
	PTU_RUN(test_config);
	PTU_RUN(test_args);
	PTU_RUN(test_feed_refused);
	PTU_MAIN_END();
}
