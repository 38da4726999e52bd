/* The ETMv3's table of operations for the pipeline (core/pft_proto.h).
 * Its flow decoder takes one packet at a time and holds its last range
 * back until the next packet or the end shows it complete. */
#include <stddef.h>

#include "core/pft_proto.h"
#include "core/pft_sync_state.h"
#include "etm3/pft_etm3_detect.h"
#include "etm3/pft_etm3_sync.h"
#include "pft.h"

/* The longest packet: 0x70, 5 count bytes, 4 context ID bytes, the
 * information byte, 4 address bytes and 5 LSiP address bytes. */
enum { ETM3_PACKET_MAX = 20 };

PFT_PROTO_DECODER_OPS(pft_etm3)

static int pkt_next_batch(void *d, void *pkts, int n)
{
	(void)n;
	int r = pft_etm3_pkt_next(d, pkts, sizeof(struct pft_etm3_packet));
	return r < 0 ? r : 1;
}

static void count_packets(struct pft_input_counts *c, const void *packets, size_t n)
{
	const struct pft_etm3_packet *pkts = packets;

	for (size_t k = 0; k < n; k++)
		c->etm3_packets[pkts[k].type]++;
}

/* Cycles: a cycle-accurate P-header's W's, a cycle count packet, an
 * I-sync's count. */
static int pkt_clock(const void *pkt, uint64_t *ts, uint32_t *cycles)
{
	const struct pft_etm3_packet *p = pkt;

	*cycles = p->type == PFT_ETM3_PKT_PHEADER || p->type == PFT_ETM3_PKT_CYCLE_COUNT ||
			  (p->type == PFT_ETM3_PKT_ISYNC && p->has_cycles)
		  ? p->cycles : 0;
	*ts = p->ts;
	return p->type == PFT_ETM3_PKT_TIMESTAMP;
}

static int detect(const uint8_t *buf, size_t len, uint32_t *score, uint32_t *asyncs,
		  uint32_t *isyncs)
{
	struct pft_scan_counts c;

	pft_etm3_detect_scan(buf, len, &c);
	*score = pft_scan_score(&c);
	*asyncs = c.asyncs;
	*isyncs = c.isyncs;
	return 0;
}

/* The elements the decoder has ready into @elems[@n ..): the new count,
 * or -PFT_ERR_INTERNAL when they do not fit. */
static int take_elems(void *f, struct pft_elem *elems, size_t room, size_t n)
{
	for (;;) {
		if (n == room)
			return -PFT_ERR_INTERNAL;
		if (pft_etm3_flow_next(f, &elems[n], sizeof(elems[n])) < 0)
			return (int)n;
		n++;
	}
}

static int flow_decode(void *f, const void *pkts, int n, struct pft_elem *elems, size_t room,
		       size_t *end)
{
	const struct pft_etm3_packet *p = pkts;
	size_t got = 0;

	for (int k = 0; k < n; k++) {
		if (pft_etm3_flow_put(f, &p[k], sizeof(p[k])) < 0)
			return -PFT_ERR_INTERNAL;
		int r = take_elems(f, elems, room, got);
		if (r < 0)
			return r;
		end[k] = got = (size_t)r;
	}
	return n;
}

static int flow_finish(void *f, struct pft_elem *elems, size_t room)
{
	if (pft_etm3_flow_finish(f) < 0)
		return -PFT_ERR_INTERNAL;
	return take_elems(f, elems, room, 0);
}

const struct pft_proto pft_etm3_proto = {
	.protocol = PFT_PROTO_ETMV3,
	.staged = 0,
	PFT_PROTO_PACKET_FIELDS(pft_etm3_packet),
	.bad_type = PFT_ETM3_PKT_BAD,
	.isync_type = PFT_ETM3_PKT_ISYNC,
	.pkt_bytes_max = ETM3_PACKET_MAX,
	.batch_max = 1,
	PFT_PROTO_DECODER_FIELDS,
	.pkt_next_batch = pkt_next_batch,
	.count_packets = count_packets,
	.pkt_clock = pkt_clock,
	.flow_decode = flow_decode,
	.flow_finish = flow_finish,
	.detect = detect,
	.pkt_state_size = sizeof(struct etm3_pkt_sync_state),
	.flow_state_size = sizeof(struct flow_sync_state),
};
