/* A damaged ETMv3 packet that swallows the first zeros of an A-sync: the
 * packet decoder still realigns on it (etmv3-protocol.md 3.3: without
 * data trace no packet holds five zero bytes), however the stream is fed;
 * with data trace, where values can be zero, it does not guess. */
#include "ptunit.h"

#include "pft.h"

struct got {
	uint8_t type[16];
	uint16_t size[16];
	int n;
};

/* Decode @s fed in two pieces split at @cut. */
static void decode(const struct pft_etm3_config *cfg, const uint8_t *s, size_t len, size_t cut,
		   struct got *g)
{
	struct pft_etm3_pkt_decoder *d = pft_etm3_pkt_alloc(cfg, NULL);
	struct pft_etm3_packet p;
	int fed = 0;

	memset(g, 0, sizeof(*g));
	pft_etm3_pkt_feed(d, s, cut);
	for (;;) {
		int st = pft_etm3_pkt_next(d, &p, sizeof(p));
		if (st == -PFT_ERR_NEED_INPUT) {
			if (fed++)
				pft_etm3_pkt_finish(d);
			else
				pft_etm3_pkt_feed_at(d, s + cut, len - cut, cut);
			continue;
		}
		if (st == -PFT_ERR_EOS || g->n == 16)
			break;
		g->type[g->n] = p.type;
		g->size[g->n++] = p.size;
	}
	pft_etm3_pkt_free(d);
}

/* A-sync, I-sync (ARM 0x1000), a branch whose last address byte is a zero
 * the damage made (81 00: it took the first zero of the A-sync), the rest
 * of the A-sync (4 zeros and 0x80), a P-header. */
static const uint8_t stream[] = { 0, 0, 0, 0, 0, 0x80, 0x08, 0x21, 0x00, 0x10, 0x00, 0x00,
				  0x81, 0x00, 0, 0, 0, 0, 0x80, 0x84 };

static void realigns(void)
{
	struct pft_etm3_config c;
	struct got g;

	pft_etm3_config_init(&c);
	for (size_t cut = 0; cut <= sizeof(stream); cut++) {
		decode(&c, stream, sizeof(stream), cut, &g);
		PTU_EQ(g.n, 5);
		PTU_EQ(g.type[2], PFT_ETM3_PKT_BRANCH);
		PTU_EQ(g.size[2], 2);
		PTU_EQ(g.type[3], PFT_ETM3_PKT_ASYNC);
		PTU_EQ(g.size[3], 5);
		PTU_EQ(g.type[4], PFT_ETM3_PKT_PHEADER);
	}
}

/* The same when the damaged packet is bad rather than valid: a flipped
 * header bit (0xd8 P-header -> 0xd9) makes a branch that runs over the
 * next bytes and the A-sync's first zero (d9 d8 d8 84 00, refused), and
 * the four zeros and 0x80 left are still the A-sync.  The bytes are from
 * a pft encode --protocol etmv3 --cycle-accurate --timestamps stream whose
 * corruption test found it. */
static void realigns_after_bad_packet(void)
{
	static const uint8_t s[] = { 0, 0, 0, 0, 0, 0x80, 0x08, 0x01, 0x25, 0x30, 0x04, 0x00,
				     0xd9, 0xd8, 0xd8, 0x84, 0x00, 0, 0, 0, 0, 0x80,
				     0x08, 0x01, 0x25, 0x30, 0x04, 0x00 };
	struct pft_etm3_config c;
	struct got g;

	pft_etm3_config_init(&c);
	PTU_EQ(pft_etm3_config_from_regs(&c, 0x10001000, 0x344008F2, 0x410CF250, 0x10), 0);
	for (size_t cut = 0; cut <= sizeof(s); cut++) {
		decode(&c, s, sizeof(s), cut, &g);
		PTU_EQ(g.n, 5);
		PTU_EQ(g.type[1], PFT_ETM3_PKT_ISYNC);
		PTU_EQ(g.type[2], PFT_ETM3_PKT_BAD);
		PTU_EQ(g.size[2], 5);
		PTU_EQ(g.type[3], PFT_ETM3_PKT_ASYNC);
		PTU_EQ(g.size[3], 5);
		PTU_EQ(g.type[4], PFT_ETM3_PKT_ISYNC);
	}
}

/* A P-header 0x80 after a packet that ended with fewer than five zeros in
 * all (a context ID of 0: 6e 00 00 00 00) is a P-header. */
static void no_false_async(void)
{
	static const uint8_t s[] = { 0, 0, 0, 0, 0, 0x80, 0x08, 0, 0, 0, 0, 0x21, 0x00, 0x10,
				     0x00, 0x00, 0x6e, 0, 0, 0, 0, 0x80, 0x84 };
	struct pft_etm3_config c;
	struct got g;

	pft_etm3_config_init(&c);
	c.ctxid_bytes = 4;
	decode(&c, s, sizeof(s), sizeof(s), &g);
	PTU_EQ(g.n, 5);
	PTU_EQ(g.type[2], PFT_ETM3_PKT_CONTEXTID);
	PTU_EQ(g.type[3], PFT_ETM3_PKT_PHEADER);
	PTU_EQ(g.size[3], 1);
}

/* With data trace a value can end in zeros: no realignment guessed. */
static void data_trace_no_guess(void)
{
	struct pft_etm3_config c;
	struct got g;

	pft_etm3_config_init(&c);
	c.data_value = 1;
	decode(&c, stream, sizeof(stream), sizeof(stream), &g);
	PTU_CHECK(g.n >= 4);
	PTU_EQ(g.type[3], PFT_ETM3_PKT_BAD);
}

int main(void)
{
	PTU_RUN(realigns);
	PTU_RUN(realigns_after_bad_packet);
	PTU_RUN(no_false_async);
	PTU_RUN(data_trace_no_guess);
	PTU_MAIN_END();
}
