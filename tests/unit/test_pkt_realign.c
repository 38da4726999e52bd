/* A damaged packet that swallows the first zeros of an A-sync: the decoder
 * still realigns on it (pft-protocol.md 5.1: 47 zero bits and a one cannot
 * occur inside packets), however the stream is fed. */
#include "ptunit.h"

#include "pft.h"

struct got {
	uint8_t type[16];
	uint16_t size[16];
	uint64_t offset[16];
	int n;
};

/* Decode @s fed in two pieces split at @cut (cut = len: whole). */
static void decode(const struct pft_ptm_config *cfg, const uint8_t *s, size_t len, size_t cut,
		   struct got *g)
{
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(cfg, NULL);
	struct pft_ptm_packet p;
	int fed = 0;

	memset(g, 0, sizeof(*g));
	pft_ptm_pkt_feed(d, s, cut);
	for (;;) {
		int st = pft_ptm_pkt_next(d, &p, sizeof(p));
		if (st == -PFT_ERR_NEED_INPUT) {
			if (fed++)
				pft_ptm_pkt_finish(d);
			else
				pft_ptm_pkt_feed(d, s + cut, len - cut);
			continue;
		}
		if (st == -PFT_ERR_EOS || g->n == 16)
			break;
		g->type[g->n] = p.type;
		g->size[g->n] = p.size;
		g->offset[g->n++] = p.offset;
	}
	pft_ptm_pkt_free(d);
}

static void check_every_split(const struct pft_ptm_config *cfg, const uint8_t *s, size_t len,
			      const struct got *want)
{
	for (size_t cut = 0; cut <= len; cut++) {
		struct got g;
		decode(cfg, s, len, cut, &g);
		PTU_EQ(g.n, want->n);
		for (int i = 0; i < g.n && i < want->n; i++) {
			PTU_EQ(g.type[i], want->type[i]);
			PTU_EQ(g.size[i], want->size[i]);
			PTU_EQ(g.offset[i], want->offset[i]);
		}
	}
}

/* The corruption test's case: bit 6 set in a cycle-accurate atom (86 ->
 * c6) makes its count take the first zero of the A-sync that follows. */
static void atom_takes_first_zero(void)
{
	static const uint8_t s[] = { 0, 0, 0, 0, 0, 0x80, /* A-sync */
				     0xc6, 0,             /* atom N, count 1 + 0 << 4 */
				     0, 0, 0, 0, 0x80,    /* the rest of the A-sync */
				     0x84 };              /* atom E, synchronised */
	struct pft_ptm_config cfg;
	pft_ptm_config_init(&cfg);
	cfg.cycle_accurate = 1;
	const struct got want = {
		.n = 4,
		.type = { PFT_PTM_PKT_ASYNC, PFT_PTM_PKT_ATOM, PFT_PTM_PKT_ASYNC, PFT_PTM_PKT_ATOM },
		.size = { 6, 2, 5, 1 },
		.offset = { 0, 6, 8, 13 },
	};
	check_every_split(&cfg, s, sizeof(s), &want);
}

/* A damaged byte read as an I-sync header takes the whole zero run as its
 * address and information byte: the 0x80 that follows ends an A-sync. */
static void isync_takes_all_zeros(void)
{
	static const uint8_t s[] = { 0, 0, 0, 0, 0, 0x80, /* A-sync */
				     0x08, 0, 0, 0, 0, 0,  /* "I-sync" of the zeros */
				     0x80,                 /* end of the A-sync */
				     0x84 };
	struct pft_ptm_config cfg;
	pft_ptm_config_init(&cfg);
	const struct got want = {
		.n = 4,
		.type = { PFT_PTM_PKT_ASYNC, PFT_PTM_PKT_ISYNC, PFT_PTM_PKT_ASYNC, PFT_PTM_PKT_ATOM },
		.size = { 6, 6, 1, 1 },
		.offset = { 0, 6, 12, 13 },
	};
	check_every_split(&cfg, s, sizeof(s), &want);
}

/* Four zeros and 0x80 with no zeros before them stay a malformed A-sync. */
static void short_zero_run_is_bad(void)
{
	static const uint8_t s[] = { 0, 0, 0, 0, 0, 0x80, 0x84, 0, 0, 0, 0, 0x80, 0x84 };
	struct pft_ptm_config cfg;
	pft_ptm_config_init(&cfg);
	const struct got want = {
		.n = 4,
		.type = { PFT_PTM_PKT_ASYNC, PFT_PTM_PKT_ATOM, PFT_PTM_PKT_BAD, PFT_PTM_PKT_NOTSYNC },
		.size = { 6, 1, 5, 1 },
		.offset = { 0, 6, 7, 12 },
	};
	check_every_split(&cfg, s, sizeof(s), &want);
}

int main(void)
{
	PTU_RUN(atom_takes_first_zero);
	PTU_RUN(isync_takes_all_zeros);
	PTU_RUN(short_zero_run_is_bad);
	PTU_MAIN_END();
}
