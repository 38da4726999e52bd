/*
 * Packet decoder: random input.  200 000 random buffers (random lengths,
 * random configurations, A-syncs and zero runs mixed in so that the
 * synchronised paths are reached) are fed in random pieces.  Checked:
 *   - no crash or hang (ASan/UBSan build), the stream ends with EOS;
 *   - every packet has size > 0, starts where the previous one ended
 *     (so offsets strictly increase and no byte is lost or repeated), its
 *     raw bytes are the input bytes, its status matches its type, and its
 *     size is within the limits of pft-protocol.md section 3;
 *   - the sizes add up to the bytes fed;
 *   - decoding in pieces gives the same packets as decoding whole;
 *   - pft_ptm_pkt_next never returns NEED_INPUT after pft_ptm_pkt_finish;
 *   - fields that mean nothing for the packet type are zero (pft.h);
 *   - with random pft_ptm_pkt_sync_forward calls, bytes are still accounted
 *     for exactly and A-sync packets are zeros and 0x80.
 * Each property is its own test so that one bug fails one test.
 */
#include "pkt_check.h"

enum { ROUNDS = 200000, MAXLEN = 160 };

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1Dull;
}

static unsigned rnd_below(unsigned n)
{
	return n ? (unsigned)(rnd() % n) : 0;
}

/* A random buffer: random bytes, A-syncs of 4..20 zeros, zero runs and
 * bytes that are often headers. */
static size_t make_buffer(uint8_t *b)
{
	size_t len = rnd_below(8) == 0 ? rnd_below(8) : rnd_below(MAXLEN + 1);
	size_t n = 0;

	while (n < len) {
		unsigned what = rnd_below(10);

		if (what == 0) {
			unsigned z = 4 + rnd_below(17);

			for (unsigned i = 0; i < z && n < len; i++)
				b[n++] = 0;
			if (n < len)
				b[n++] = 0x80;
		} else if (what == 1) {
			unsigned z = 1 + rnd_below(20);

			for (unsigned i = 0; i < z && n < len; i++)
				b[n++] = 0;
		} else if (what == 2) {
			static const uint8_t hdr[] = { 0x08, 0x0c, 0x3c, 0x42,
						       0x46, 0x66, 0x6e, 0x72,
						       0x76, 0x80, 0x82 };
			b[n++] = hdr[rnd_below(sizeof(hdr))];
		} else {
			b[n++] = (uint8_t)rnd();
		}
	}
	return len;
}

static struct pft_ptm_config random_config(void)
{
	static const uint8_t ctx[4] = { 0, 1, 2, 4 };
	struct pft_ptm_config c = pc_cfg((int)rnd_below(2), ctx[rnd_below(4)],
				     (int)rnd_below(2), (int)rnd_below(2));

	c.version_minor = (uint8_t)rnd_below(2);
	return c;
}

/* Failures per property, with the first example of each. */
enum prop {
	P_BASIC,          /* size, contiguity, raw, status, limits, EOS */
	P_SPLIT,          /* pieces == whole (draining before finish) */
	P_FINISH_FIRST,   /* finish before the last next() == after */
	P_NEED_AFTER_FINISH,
	P_ZERO_FIELDS,
	P_SYNC_FORWARD,
	P_MAX
};
static unsigned prop_fail[P_MAX];
static char prop_msg[P_MAX][512];
static unsigned long long total_packets, total_bytes;

static void fail(enum prop p, const char *fmt, ...)
{
	if (!prop_fail[p]++) {
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(prop_msg[p], sizeof(prop_msg[p]), fmt, ap);
		va_end(ap);
	}
}

/* An A-sync is zeros and 0x80, with at least five zero bytes counting
 * those just before it in the stream: a damaged packet may have taken the
 * first ones (pft-protocol.md 5.1: the pattern cannot occur inside
 * packets, so the decoder realigns on it). */
static int async_shape(const uint8_t *b, uint64_t off, uint32_t size)
{
	uint32_t zeros = 0;

	/* The leading zeros of a long A-sync: a piece of at most 16 zeros
	 * with 15 more zeros after it (pft.h, pft_ptm_pkt_next). */
	if (size >= 1 && size <= 16 && b[off + size - 1] == 0) {
		for (uint32_t j = 0; j < size + 15; j++)
			if (b[off + j])
				return 0;
		return 1;
	}
	if (size < 1 || b[off + size - 1] != 0x80)
		return 0;
	for (uint32_t j = 0; j + 1 < size; j++)
		if (b[off + j])
			return 0;
	for (uint64_t k = off; k > 0 && b[k - 1] == 0 && zeros < 5; k--)
		zeros++;
	return size - 1 + zeros >= 5;
}

static void hexdump(char *out, size_t outlen, const uint8_t *b, size_t n)
{
	size_t o = 0;

	out[0] = 0;
	for (size_t i = 0; i < n && o + 4 < outlen; i++)
		o += (size_t)snprintf(out + o, outlen - o, "%02x ", b[i]);
}

static void describe(char *out, size_t outlen, const struct pft_ptm_config *c,
		     const uint8_t *b, size_t n)
{
	char hex[3 * MAXLEN + 8];

	hexdump(hex, sizeof(hex), b, n);
	snprintf(out, outlen, "[ca %u ctxid %u ts64 %u gray %u] %s",
		 c->cycle_accurate, c->ctxid_bytes, c->ts_64bit, c->ts_gray, hex);
}

/* Maximum packet sizes (section 3; A-sync: 15 zeros and 0x80). */
static uint32_t max_size(enum pft_ptm_packet_type t)
{
	switch (t) {
	case PFT_PTM_PKT_ASYNC: return 16;
	case PFT_PTM_PKT_ISYNC: return 15;
	case PFT_PTM_PKT_ATOM: return 5;
	case PFT_PTM_PKT_BRANCH: return 12;
	case PFT_PTM_PKT_WAYPOINT: return 7;
	case PFT_PTM_PKT_TIMESTAMP: return 15;
	case PFT_PTM_PKT_CONTEXTID: return 5;
	case PFT_PTM_PKT_VMID: return 2;
	case PFT_PTM_PKT_TRIGGER:
	case PFT_PTM_PKT_IGNORE:
	case PFT_PTM_PKT_EXCEPTION_RETURN: return 1;
	default: return UINT32_MAX; /* NOTSYNC, BAD: any */
	}
}

/* The structural checks of one run; returns 0 if all hold. */
static int check_basic(const struct pc_run *r, const uint8_t *b, size_t n,
		       const char *what)
{
	uint64_t off = 0;

	if (r->setup_err || r->overflow || r->hang || r->eos_early) {
		fail(P_BASIC, "%s: setup %d overflow %d hang %d early EOS %d",
		     what, r->setup_err, r->overflow, r->hang, r->eos_early);
		return 1;
	}
	for (size_t i = 0; i < r->n; i++) {
		const struct pft_ptm_packet *p = &r->p[i].pkt;
		const int st = r->p[i].status;

		if (p->size == 0 || p->offset != off) {
			fail(P_BASIC, "%s: packet %zu (type %d) offset %llu size %u, expected offset %llu",
			     what, i, p->type, (unsigned long long)p->offset,
			     p->size, (unsigned long long)off);
			return 1;
		}
		if (!r->p[i].raw_ok) {
			fail(P_BASIC, "%s: packet %zu (type %d, offset %llu, size %u): raw differs from input",
			     what, i, p->type, (unsigned long long)p->offset, p->size);
			return 1;
		}
		int bad_st = st == -PFT_ERR_BAD_OPCODE || st == -PFT_ERR_BAD_PACKET ||
			     st == -PFT_ERR_TRUNCATED;
		if ((unsigned)p->type >= PFT_PTM_PKT_TYPE_MAX ||
		    (p->type == PFT_PTM_PKT_BAD ? !bad_st || p->bad == PFT_ERR_OK : st != 0)) {
			fail(P_BASIC, "%s: packet %zu type %d bad %d with status %d",
			     what, i, p->type, p->bad, st);
			return 1;
		}
		if (p->size > max_size(p->type)) {
			fail(P_BASIC, "%s: packet %zu type %d has %u bytes",
			     what, i, p->type, p->size);
			return 1;
		}
		if (p->type == PFT_PTM_PKT_ASYNC) {
			if (!async_shape(b, p->offset, p->size)) {
				fail(P_BASIC, "%s: packet %zu: A-sync that is neither zeros and 0x80 nor a piece of zeros",
				     what, i);
				return 1;
			}
		}
		off += p->size;
	}
	if (off != n) {
		fail(P_BASIC, "%s: packets cover %llu of %zu bytes", what,
		     (unsigned long long)off, n);
		return 1;
	}
	return 0;
}

static struct zero_kind {
	enum pft_ptm_packet_type type;
	const char *field;
	unsigned count;
	char example[1024];
} zero_kinds[32];
static size_t n_zero_kinds;

/* pft.h: fields not meaningful for the type are zero. */
static void check_zero_fields(const struct pft_ptm_packet *p, const char *what)
{
	const enum pft_ptm_packet_type t = p->type;
	const int addr_t = t == PFT_PTM_PKT_ISYNC || t == PFT_PTM_PKT_BRANCH ||
			   t == PFT_PTM_PKT_WAYPOINT;
	const int cyc_t = t == PFT_PTM_PKT_ISYNC || t == PFT_PTM_PKT_BRANCH ||
			  t == PFT_PTM_PKT_ATOM || t == PFT_PTM_PKT_TIMESTAMP;
	const int state_t = t == PFT_PTM_PKT_ISYNC ||
			    (t == PFT_PTM_PKT_BRANCH && p->exc_bytes);
	const char *bad = NULL;

	if (!addr_t && (p->addr || p->isa))
		bad = "addr/isa";
	else if (t != PFT_PTM_PKT_BRANCH && t != PFT_PTM_PKT_WAYPOINT && p->addr_bytes)
		bad = "addr_bytes";
	else if (t != PFT_PTM_PKT_ISYNC && p->reason)
		bad = "reason";
	else if (!state_t && (p->ns || (p->altis && !(t == PFT_PTM_PKT_WAYPOINT &&
							   p->exc_bytes))))
		bad = "ns/altis"; /* a waypoint's information byte holds AltIS */
	else if (!(t == PFT_PTM_PKT_ISYNC || (t == PFT_PTM_PKT_BRANCH && p->exc_bytes == 2)) &&
		 p->hyp)
		bad = "hyp";
	else if (t != PFT_PTM_PKT_BRANCH && t != PFT_PTM_PKT_WAYPOINT && p->exc_bytes)
		bad = "exc_bytes";
	else if (t != PFT_PTM_PKT_BRANCH && p->exception)
		bad = "exception";
	else if ((!cyc_t && (p->has_cycles || p->cycles)) ||
		 (!p->has_cycles && p->cycles))
		bad = "has_cycles/cycles";
	else if (t != PFT_PTM_PKT_ATOM && (p->n_atoms || p->atoms))
		bad = "n_atoms/atoms";
	else if (t != PFT_PTM_PKT_ISYNC && t != PFT_PTM_PKT_CONTEXTID &&
		 (p->has_ctxid || p->ctxid))
		bad = "has_ctxid/ctxid";
	else if (t != PFT_PTM_PKT_VMID && p->vmid)
		bad = "vmid";
	else if (t != PFT_PTM_PKT_TIMESTAMP &&
		 (p->ts || p->ts_raw || p->ts_bits || p->ts_clock_change))
		bad = "ts fields";
	else if (t != PFT_PTM_PKT_BAD && p->bad)
		bad = "bad";
	if (!bad)
		return;
	/* Keep one example per (type, field) so that distinct problems do
	 * not hide each other. */
	fail(P_ZERO_FIELDS, "see the list");
	for (size_t i = 0; i < n_zero_kinds; i++) {
		if (zero_kinds[i].type == t && zero_kinds[i].field == bad) {
			zero_kinds[i].count++;
			return;
		}
	}
	if (n_zero_kinds < sizeof(zero_kinds) / sizeof(zero_kinds[0])) {
		struct zero_kind *k = &zero_kinds[n_zero_kinds++];

		k->type = t;
		k->field = bad;
		k->count = 1;
		snprintf(k->example, sizeof(k->example),
			 "%s packet (offset %llu, size %u, bad %d) has %s set; input %.700s",
			 pft_ptm_pkt_type_name(t), (unsigned long long)p->offset,
			 p->size, p->bad, bad, what);
	}
}

static struct pc_run whole, pieces, pieces_ff;

static void random_cuts(size_t n, size_t *cuts, size_t *ncuts)
{
	size_t k = 0, at = 0;

	if (rnd_below(4) == 0) {
		/* one byte at a time */
		for (size_t i = 1; i < n; i++)
			cuts[k++] = i;
		*ncuts = k;
		return;
	}
	while (at < n) {
		at += rnd_below(rnd_below(2) ? 4 : 24);
		if (at > n)
			at = n;
		cuts[k++] = at; /* empty pieces happen, on purpose */
	}
	*ncuts = k;
}

/* Normalised comparison of two runs of the same input. */
static void compare_runs(enum prop prop, const struct pc_run *a,
			 const struct pc_run *b, const char *what,
			 const char *how)
{
	static struct pc_pkt na[PC_MAXPKT], nb[PC_MAXPKT];
	char why[400];

	memcpy(na, a->p, a->n * sizeof(a->p[0]));
	memcpy(nb, b->p, b->n * sizeof(b->p[0]));
	size_t ma = pc_normalize(na, a->n), mb = pc_normalize(nb, b->n);

	if (ma != mb) {
		fail(prop, "%s: %zu packets vs %zu (%s)", what, ma, mb, how);
		return;
	}
	for (size_t i = 0; i < ma; i++) {
		if (pc_cmp_pkt(&nb[i], &na[i], why, sizeof(why))) {
			fail(prop, "%s: packet %zu (%s): %s", what, i, how, why);
			return;
		}
	}
}

static void fuzz_round(void)
{
	static uint8_t b[MAXLEN + 8];
	static size_t cuts[2 * MAXLEN + 8];
	char what[4 * MAXLEN + 128], how[64];
	struct pft_ptm_config c = random_config();
	size_t n = make_buffer(b), ncuts;

	random_cuts(n, cuts, &ncuts);
	pc_run_pieces(&c, b, n, NULL, 0, PC_DRAIN_FIRST, &whole);
	pc_run_pieces(&c, b, n, cuts, ncuts, PC_DRAIN_FIRST, &pieces);
	pc_run_pieces(&c, b, n, cuts, ncuts, PC_FINISH_FIRST, &pieces_ff);
	total_bytes += n;
	total_packets += pieces.n;

	describe(what, sizeof(what), &c, b, n);
	if (check_basic(&whole, b, n, what) || check_basic(&pieces, b, n, what) ||
	    check_basic(&pieces_ff, b, n, what))
		return;
	if (whole.need_after_finish || pieces.need_after_finish ||
	    pieces_ff.need_after_finish)
		fail(P_NEED_AFTER_FINISH, "%s (%zu pieces)", what, ncuts + 1);
	for (size_t i = 0; i < pieces.n; i++)
		check_zero_fields(&pieces.p[i].pkt, what);
	for (size_t i = 0; i < pieces_ff.n; i++)
		check_zero_fields(&pieces_ff.p[i].pkt, what);
	snprintf(how, sizeof(how), "%zu pieces vs whole", ncuts + 1);
	compare_runs(P_SPLIT, &whole, &pieces, what, how);
	snprintf(how, sizeof(how), "%zu pieces, finish first vs last", ncuts + 1);
	compare_runs(P_FINISH_FIRST, &pieces, &pieces_ff, what, how);
}

/* Random sync_forward calls between next() calls and feeds. */
static void sync_forward_round(void)
{
	static uint8_t b[MAXLEN + 8];
	static size_t cuts[2 * MAXLEN + 8];
	char what[4 * MAXLEN + 128];
	struct pft_ptm_config c = random_config();
	size_t n = make_buffer(b), ncuts, start = 0;
	uint64_t off = 0;
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(&c, NULL);

	if (!d) {
		fail(P_SYNC_FORWARD, "alloc failed");
		return;
	}
	random_cuts(n, cuts, &ncuts);
	describe(what, sizeof(what), &c, b, n);
	for (size_t i = 0; i <= ncuts; i++) {
		size_t end = i < ncuts ? cuts[i] : n;
		int last = i == ncuts;

		pft_ptm_pkt_feed(d, b + start, end - start);
		if (last)
			pft_ptm_pkt_finish(d);
		start = end;
		for (unsigned guard = 0; guard < 10000; guard++) {
			struct pft_ptm_packet p;

			if (rnd_below(3) == 0)
				pft_ptm_pkt_sync_forward(d);
			int st = pft_ptm_pkt_next(d, &p, sizeof(p));

			if (st == -PFT_ERR_EOS)
				break;
			if (st == -PFT_ERR_NEED_INPUT) {
				if (!last)
					break;
				continue;
			}
			int ok = p.size > 0 && p.offset == off &&
				 p.offset + p.size <= n &&
				 memcmp(p.raw, b + p.offset, p.size) == 0;
			if (ok && p.type == PFT_PTM_PKT_ASYNC)
				ok = async_shape(b, p.offset, p.size);
			if (!ok) {
				fail(P_SYNC_FORWARD, "%s: %s packet offset %llu size %u (expected offset %llu): %s",
				     what, pft_ptm_pkt_type_name(p.type),
				     (unsigned long long)p.offset, p.size,
				     (unsigned long long)off,
				     p.type == PFT_PTM_PKT_ASYNC ? "not zeros and 0x80 / raw or offset wrong"
							     : "raw or offset wrong");
				pft_ptm_pkt_free(d);
				return;
			}
			off += p.size;
		}
	}
	if (off != n)
		fail(P_SYNC_FORWARD, "%s: packets cover %llu of %zu bytes", what,
		     (unsigned long long)off, n);
	pft_ptm_pkt_free(d);
}

static int fuzz_done;

static void run_fuzz(void)
{
	if (fuzz_done)
		return;
	fuzz_done = 1;
	for (unsigned i = 0; i < ROUNDS; i++)
		fuzz_round();
	for (unsigned i = 0; i < ROUNDS / 4; i++)
		sync_forward_round();
	printf("fuzz: %u buffers, %llu bytes, %llu packets\n", ROUNDS,
	       total_bytes, total_packets);
}

static void report(enum prop p, const char *name)
{
	run_fuzz();
	if (prop_fail[p]) {
		fprintf(stderr, "%s: %u failures; first: %s\n", name,
			prop_fail[p], prop_msg[p]);
		ptu_failed_checks++;
	}
}

static void fuzz_sizes_offsets_no_loss(void)
{
	report(P_BASIC, "sizes/offsets/raw/status");
	/* The run itself must have produced something to check. */
	PTU_CHECK(total_packets > ROUNDS);
}
static void fuzz_pieces_decode_as_whole(void)
{
	report(P_SPLIT, "pieces vs whole");
}
static void fuzz_finish_first_decodes_the_same(void)
{
	report(P_FINISH_FIRST, "finish before the last next() vs after");
}
static void fuzz_no_need_input_after_finish(void)
{
	report(P_NEED_AFTER_FINISH, "NEED_INPUT after finish");
}
static void fuzz_unused_fields_zero(void)
{
	run_fuzz();
	for (size_t i = 0; i < n_zero_kinds; i++)
		fprintf(stderr, "fields not meaningful for the type: %u times: %s\n",
			zero_kinds[i].count, zero_kinds[i].example);
	PTU_EQ(n_zero_kinds, 0);
}
static void fuzz_sync_forward_accounting(void)
{
	report(P_SYNC_FORWARD, "sync_forward");
}

int main(void)
{
	PTU_RUN(fuzz_sizes_offsets_no_loss);
	PTU_RUN(fuzz_pieces_decode_as_whole);
	PTU_RUN(fuzz_finish_first_decodes_the_same);
	PTU_RUN(fuzz_no_need_input_after_finish);
	PTU_RUN(fuzz_unused_fields_zero);
	PTU_RUN(fuzz_sync_forward_accounting);
	PTU_MAIN_END();
}
