/* The PTM's table of operations for the pipeline (core/pft_proto.h). */
#include <stddef.h>

#include "core/pft_proto.h"
#include "pft.h"

enum { PTM_BATCH = 64 };

static void *pkt_alloc(const void *cfg, int *errcode)
{
	return pft_pkt_alloc(cfg, errcode);
}

static void pkt_free(void *d)
{
	pft_pkt_free(d);
}

static int pkt_feed_at(void *d, const uint8_t *buf, size_t len, uint64_t offset)
{
	return pft_pkt_feed_at(d, buf, len, offset);
}

static int pkt_finish(void *d)
{
	return pft_pkt_finish(d);
}

static int pkt_reset(void *d)
{
	return pft_pkt_reset(d);
}

static int pkt_sync_forward(void *d)
{
	return pft_pkt_sync_forward(d);
}

static int pkt_next_batch(void *d, void *pkts, int n)
{
	return pft_pkt_next_batch(d, pkts, (size_t)n, sizeof(struct pft_packet));
}

static void *flow_alloc(const void *cfg, struct pft_image *image, int *errcode)
{
	return pft_flow_alloc(cfg, image, errcode);
}

static void flow_free(void *f)
{
	pft_flow_free(f);
}

static int flow_reset(void *f)
{
	return pft_flow_reset(f);
}

static int flow_decode(void *f, const void *pkts, int n, struct pft_elem *elems, size_t room,
		       size_t *end)
{
	return pft_flow_decode(f, pkts, (size_t)n, sizeof(struct pft_packet), elems, room, end);
}

const struct pft_proto pft_ptm_proto = {
	.protocol = PFT_PROTO_PTM,
	.staged = 1,
	.packet_size = sizeof(struct pft_packet),
	.type_offset = offsetof(struct pft_packet, type),
	.bad_type = PFT_PKT_BAD,
	.batch_max = PTM_BATCH,
	.pkt_alloc = pkt_alloc,
	.pkt_free = pkt_free,
	.pkt_feed_at = pkt_feed_at,
	.pkt_finish = pkt_finish,
	.pkt_reset = pkt_reset,
	.pkt_sync_forward = pkt_sync_forward,
	.pkt_next_batch = pkt_next_batch,
	.flow_alloc = flow_alloc,
	.flow_free = flow_free,
	.flow_reset = flow_reset,
	.flow_decode = flow_decode,
	.flow_finish = NULL,
};
