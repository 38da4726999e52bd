/* The PTM's table of operations for the pipeline (core/pft_proto.h). */
#include <stddef.h>

#include "core/pft_proto.h"
#include "core/pft_sync_state.h"
#include "pft.h"

enum {
	PTM_BATCH = 64,
	PTM_PACKET_MAX = 16   /* the longest PTM packet */
};

PFT_PROTO_DECODER_OPS(pft_ptm)

static int pkt_next_batch(void *d, void *pkts, int n)
{
	return pft_ptm_pkt_next_batch(d, pkts, (size_t)n, sizeof(struct pft_ptm_packet));
}

/* Four tables: a run of one type (atoms) is then four chains of
 * increments, not one chain through one counter. */
static void count_packets(struct pft_input_counts *c, const void *packets, size_t n)
{
	const struct pft_ptm_packet *pkts = packets;
	uint32_t t[4][PFT_PTM_PKT_TYPE_MAX] = { { 0 } };
	size_t k = 0;

	for (; k + 4 <= n; k += 4) {
		t[0][pkts[k].type]++;
		t[1][pkts[k + 1].type]++;
		t[2][pkts[k + 2].type]++;
		t[3][pkts[k + 3].type]++;
	}
	for (; k < n; k++)
		t[0][pkts[k].type]++;
	for (int i = 0; i < PFT_PTM_PKT_TYPE_MAX; i++)
		c->packets[i] += (uint64_t)t[0][i] + t[1][i] + t[2][i] + t[3][i];
}

static int pkt_clock(const void *pkt, uint64_t *ts, uint32_t *cycles)
{
	const struct pft_ptm_packet *p = pkt;

	*cycles = p->has_cycles ? p->cycles : 0;
	*ts = p->ts;
	return p->type == PFT_PTM_PKT_TIMESTAMP;
}

static int detect(const uint8_t *buf, size_t len, uint32_t *score, uint32_t *asyncs,
		  uint32_t *isyncs)
{
	struct pft_detect_ptm_result r;
	int err = pft_detect_ptm(buf, len, NULL, &r, sizeof(r));

	if (err == -PFT_ERR_NOMEM)
		return err;
	if (err < 0)
		return 1;
	*score = r.errors;
	*asyncs = r.asyncs;
	*isyncs = r.isyncs;
	return 0;
}

static int flow_decode(void *f, const void *pkts, int n, struct pft_elem *elems, size_t room,
		       size_t *end)
{
	return pft_ptm_flow_decode(f, pkts, (size_t)n, sizeof(struct pft_ptm_packet), elems, room, end);
}

const struct pft_proto pft_ptm_proto = {
	.protocol = PFT_PROTO_PTM,
	.staged = 1,
	PFT_PROTO_PACKET_FIELDS(pft_ptm_packet),
	.bad_type = PFT_PTM_PKT_BAD,
	.isync_type = PFT_PTM_PKT_ISYNC,
	.pkt_bytes_max = PTM_PACKET_MAX,
	.batch_max = PTM_BATCH,
	PFT_PROTO_DECODER_FIELDS,
	.pkt_next_batch = pkt_next_batch,
	.count_packets = count_packets,
	.pkt_clock = pkt_clock,
	.flow_decode = flow_decode,
	.flow_finish = NULL,
	.detect = detect,
	.pkt_state_size = sizeof(struct pkt_sync_state),
	.flow_state_size = sizeof(struct flow_sync_state),
};
