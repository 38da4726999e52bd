/* pft_ptm_pkt_next_batch() must give exactly the packets pft_ptm_pkt_next() gives:
 * on the real TC2 stream and on random streams fed in random pieces, for
 * several batch sizes; a bad packet comes alone; arguments are checked.
 * The counting path (pft_ptm_pkt_skip_counted()) must pass over atoms and
 * branches that add up to those pft_ptm_pkt_next() gives, and leave the
 * decoder as they would have: every other packet the same. */
#include "ptunit.h"

#include "pft.h"
#include "ptm/pft_pkt_decoder.h"

struct pkt_list {
	struct pft_ptm_packet *p;
	uint8_t (*raw)[16];
	int *status;
	size_t n, cap;
};

static void list_add(struct pkt_list *l, const struct pft_ptm_packet *p, int status)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 1024;
		l->p = realloc(l->p, l->cap * sizeof(*l->p));
		l->raw = realloc(l->raw, l->cap * sizeof(*l->raw));
		l->status = realloc(l->status, l->cap * sizeof(*l->status));
	}
	l->p[l->n] = *p;
	memset(l->raw[l->n], 0, 16);
	memcpy(l->raw[l->n], p->raw, p->size < 16 ? p->size : 16);
	l->p[l->n].raw = NULL; /* compared by content */
	l->status[l->n] = status;
	l->n++;
}

static void list_free(struct pkt_list *l)
{
	free(l->p);
	free(l->raw);
	free(l->status);
}

/* Feed @d the next piece of @buf (of a random size), or finish it at
 * the end. */
static void feed_next(struct pft_ptm_pkt_decoder *d, const uint8_t *buf, size_t len, size_t *pos)
{
	if (*pos == len) {
		pft_ptm_pkt_finish(d);
		return;
	}
	size_t piece = 1 + (size_t)rand() % 300;
	if (piece > len - *pos)
		piece = len - *pos;
	pft_ptm_pkt_feed(d, buf + *pos, piece);
	*pos += piece;
}

/* Decode @buf fed in pieces of the sizes @rng gives, with pft_ptm_pkt_next
 * (batch == 0) or pft_ptm_pkt_next_batch with up to @batch packets a call.
 * With @sk, pft_ptm_pkt_skip_counted() runs before each pft_ptm_pkt_next(), at
 * random limits (from their own generator: the feeds must be those
 * without it, where NOTSYNC packets end): the packets it passes over go
 * to *@sk, the others to @out. */
static void decode(const struct pft_ptm_config *cfg, const uint8_t *buf, size_t len,
		   size_t batch, unsigned seed, struct pkt_list *out, struct pkt_skipped *sk)
{
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(cfg, NULL);
	struct pft_ptm_packet pkts[64];
	size_t pos = 0;
	uint32_t lcg = seed;

	srand(seed);
	for (;;) {
		int st;
		if (batch) {
			st = pft_ptm_pkt_next_batch(d, pkts, batch, sizeof(pkts[0]));
			if (st > 0) {
				PTU_CHECK((size_t)st <= batch);
				for (int i = 0; i < st; i++)
					list_add(out, &pkts[i], 0);
				continue;
			}
		} else {
			lcg = lcg * 1103515245u + 12345u;
			uint64_t limit = pft_ptm_pkt_get_offset(d) + (lcg >> 16) % 200;
			while (sk && pft_ptm_pkt_skip_counted(d, limit, sk, &pkts[0])) {
				PTU_CHECK(pkts[0].type != PFT_PTM_PKT_ATOM && pkts[0].type != PFT_PTM_PKT_BRANCH &&
					  pkts[0].type != PFT_PTM_PKT_BAD);
				list_add(out, &pkts[0], 0);
			}
			st = pft_ptm_pkt_next(d, &pkts[0], sizeof(pkts[0]));
			if (st == 0) {
				list_add(out, &pkts[0], 0);
				continue;
			}
		}
		if (st == -PFT_ERR_NEED_INPUT) {
			feed_next(d, buf, len, &pos);
			continue;
		}
		if (st == -PFT_ERR_EOS)
			break;
		PTU_EQ(pkts[0].type, PFT_PTM_PKT_BAD);
		list_add(out, &pkts[0], st);
	}
	pft_ptm_pkt_free(d);
}

/* The packets decode() gave skipping are those of @ref less some atoms
 * and branches, which add up with the ones passed over to @ref's. */
static void compare_skipping(const struct pft_ptm_config *cfg, const uint8_t *buf, size_t len,
			     unsigned seed, const struct pkt_list *ref)
{
	struct pkt_list got = { 0 };
	struct pkt_skipped sk = { 0, 0 };
	uint64_t atoms = 0, branches = 0;
	size_t i = 0;

	decode(cfg, buf, len, 0, seed, &got, &sk);
	for (size_t k = 0; k < ref->n; k++) {
		const struct pft_ptm_packet *r = &ref->p[k];
		if (i < got.n && got.p[i].offset == r->offset) {
			if (memcmp(&got.p[i], r, sizeof(*r)) || memcmp(got.raw[i], ref->raw[k], 16) ||
			    got.status[i] != ref->status[k]) {
				fprintf(stderr, "skipping: packet at offset %llu differs\n",
					(unsigned long long)r->offset);
				ptu_failed_checks++;
				break;
			}
			i++;
		} else if (r->type == PFT_PTM_PKT_ATOM) {
			atoms++;
		} else if (r->type == PFT_PTM_PKT_BRANCH) {
			branches++;
		} else {
			fprintf(stderr, "skipping: packet at offset %llu (type %u) was lost\n",
				(unsigned long long)r->offset, r->type);
			ptu_failed_checks++;
			break;
		}
	}
	PTU_EQ(i, got.n);
	PTU_EQ(sk.atoms, atoms);
	PTU_EQ(sk.branches, branches);
	list_free(&got);
}

static void compare(const struct pft_ptm_config *cfg, const uint8_t *buf, size_t len,
		    unsigned seed)
{
	struct pkt_list ref = { 0 };
	static const size_t sizes[] = { 1, 2, 5, 64 };

	decode(cfg, buf, len, 0, seed, &ref, NULL);
	PTU_CHECK(ref.n > 0);
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		struct pkt_list got = { 0 };
		decode(cfg, buf, len, sizes[s], seed, &got, NULL);
		PTU_EQ(got.n, ref.n);
		for (size_t i = 0; i < got.n && i < ref.n; i++) {
			if (memcmp(&got.p[i], &ref.p[i], sizeof(got.p[i])) ||
			    memcmp(got.raw[i], ref.raw[i], 16) || got.status[i] != ref.status[i]) {
				fprintf(stderr, "batch %zu: packet %zu (offset %llu) differs\n",
					sizes[s], i, (unsigned long long)ref.p[i].offset);
				ptu_failed_checks++;
				break;
			}
		}
		list_free(&got);
	}
	compare_skipping(cfg, buf, len, seed, &ref);
	list_free(&ref);
}

static void batch_matches_next_on_tc2(void)
{
	char path[4096];
	const char *shared = getenv("PFT_SHARED");
	snprintf(path, sizeof(path), "%s/testdata/opencsd-snapshots/TC2/cstrace.bin",
		 shared ? shared : "../shared");
	FILE *f = fopen(path, "rb");
	PTU_CHECK(f != NULL);
	if (!f)
		return;
	static uint8_t frames[32768], stream[32768];
	size_t flen = fread(frames, 1, sizeof(frames), f), slen = 0;
	fclose(f);

	/* Trace ID 0x13's bytes, through the deformatter. */
	struct pft_dfmt *dfmt = pft_dfmt_alloc(NULL, NULL);
	struct pft_dfmt_chunk c;
	pft_dfmt_feed(dfmt, frames, flen);
	pft_dfmt_finish(dfmt);
	while (pft_dfmt_next(dfmt, &c, sizeof(c)) != -PFT_ERR_EOS)
		if (c.id == 0x13 && slen + c.len <= sizeof(stream)) {
			memcpy(stream + slen, c.data, c.len);
			slen += c.len;
		}
	pft_dfmt_free(dfmt);
	PTU_EQ(slen, 4533); /* pft dump --count and OpenCSD agree on 4533 bytes */

	struct pft_ptm_config cfg;
	pft_ptm_config_init(&cfg);
	pft_ptm_config_from_regs(&cfg, 0x10001000, 0x34C01AC2, 0x411CF312, 0x13);
	for (unsigned seed = 1; seed <= 20; seed++)
		compare(&cfg, stream, slen, seed);
}

static void batch_matches_next_on_random(void)
{
	static uint8_t buf[4096];
	struct pft_ptm_config cfg;

	for (unsigned seed = 1; seed <= 300; seed++) {
		srand(seed * 7919);
		size_t len = 1 + (size_t)rand() % sizeof(buf);
		for (size_t i = 0; i < len; i++) {
			/* Mostly atoms and A-syncs, so that decoding runs long. */
			int r = rand() % 16;
			buf[i] = r < 2 ? 0 : r < 3 ? 0x80 : (uint8_t)rand();
		}
		pft_ptm_config_init(&cfg);
		cfg.cycle_accurate = seed & 1;
		cfg.ctxid_bytes = (uint8_t)((seed >> 1) & 3) == 3 ? 4 : (uint8_t)((seed >> 1) & 3);
		compare(&cfg, buf, len, seed);
	}
}

static void batch_bad_packet_alone(void)
{
	/* A-sync, two atoms, a reserved header, an atom. */
	static const uint8_t s[] = { 0, 0, 0, 0, 0, 0x80, 0x84, 0x88, 0x02, 0x84 };
	struct pft_ptm_config cfg;
	struct pft_ptm_packet p[8];
	pft_ptm_config_init(&cfg);
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(&cfg, NULL);

	pft_ptm_pkt_feed(d, s, sizeof(s));
	PTU_EQ(pft_ptm_pkt_next_batch(d, p, 8, sizeof(p[0])), 1); /* A-sync (unsynced path) */
	PTU_EQ(p[0].type, PFT_PTM_PKT_ASYNC);
	PTU_EQ(pft_ptm_pkt_next_batch(d, p, 8, sizeof(p[0])), 2); /* the atoms stop before 0x02 */
	PTU_EQ(p[0].type, PFT_PTM_PKT_ATOM);
	PTU_EQ(p[1].offset, 7);
	PTU_EQ(pft_ptm_pkt_next_batch(d, p, 8, sizeof(p[0])), -PFT_ERR_BAD_OPCODE);
	PTU_EQ(p[0].type, PFT_PTM_PKT_BAD);
	PTU_EQ(p[0].offset, 8);
	PTU_EQ(pft_ptm_pkt_next_batch(d, p, 8, sizeof(p[0])), 1); /* not synchronised */
	PTU_EQ(p[0].type, PFT_PTM_PKT_NOTSYNC);
	PTU_EQ(pft_ptm_pkt_next_batch(d, p, 8, sizeof(p[0])), -PFT_ERR_NEED_INPUT);
	pft_ptm_pkt_free(d);
}

static void batch_arguments(void)
{
	struct pft_ptm_config cfg;
	struct pft_ptm_packet p[2];
	pft_ptm_config_init(&cfg);
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(&cfg, NULL);

	PTU_EQ(pft_ptm_pkt_next_batch(NULL, p, 2, sizeof(p[0])), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_pkt_next_batch(d, NULL, 2, sizeof(p[0])), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_pkt_next_batch(d, p, 0, sizeof(p[0])), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_pkt_next_batch(d, p, 2, sizeof(p[0]) - 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_pkt_next_batch(d, p, 2, sizeof(p[0])), -PFT_ERR_NEED_INPUT);
	pft_ptm_pkt_finish(d);
	PTU_EQ(pft_ptm_pkt_next_batch(d, p, 2, sizeof(p[0])), -PFT_ERR_EOS);
	pft_ptm_pkt_free(d);
}

int main(void)
{
	PTU_RUN(batch_matches_next_on_tc2);
	PTU_RUN(batch_matches_next_on_random);
	PTU_RUN(batch_bad_packet_alone);
	PTU_RUN(batch_arguments);
	PTU_MAIN_END();
}
