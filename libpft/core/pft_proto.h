/* pft_proto.h - a trace protocol as the pipeline and the parallel decode
 * drive it: its packet and flow decoders behind one table of operations,
 * so that they never ask which protocol a source has.  Each protocol
 * defines its table beside its decoders (ptm/pft_ptm_proto.c,
 * etm3/pft_etm3_proto.c); a new protocol is a new table. */
#ifndef PFT_PROTO_H
#define PFT_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "pft.h"

struct pft_proto {
	uint8_t protocol;          /* enum pft_protocol */
	/* Formatted input: the source's chunks are staged (decode/pft_stage.h)
	 * and its packets may be counted in place (pft_pipe_count_into());
	 * both need the PTM decoder's stream positions. */
	uint8_t staged;
	uint16_t packet_size;      /* its packet struct */
	/* Where a packet's type byte is, and the BAD packet's type. */
	uint8_t type_offset, bad_type;
	/* Packets returned at once: a BAD packet always comes alone. */
	uint16_t batch_max;

	/* @cfg is the protocol's configuration struct. */
	void *(*pkt_alloc)(const void *cfg, int *errcode);
	void (*pkt_free)(void *d);
	int (*pkt_feed_at)(void *d, const uint8_t *buf, size_t len, uint64_t offset);
	int (*pkt_finish)(void *d);
	int (*pkt_reset)(void *d);
	int (*pkt_sync_forward)(void *d);
	/* Up to @n (<= batch_max) packets into @pkts: how many, or the
	 * decoder's code (-PFT_ERR_NEED_INPUT, -PFT_ERR_EOS, or a BAD
	 * packet's, which is then in @pkts). */
	int (*pkt_next_batch)(void *d, void *pkts, int n);

	void *(*flow_alloc)(const void *cfg, struct pft_image *image, int *errcode);
	void (*flow_free)(void *f);
	int (*flow_reset)(void *f);
	/* Apply @pkts[0 .. @n), their elements into @elems (room for
	 * @room), packet k's ending at @end[k]: @n, or a negative code. */
	int (*flow_decode)(void *f, const void *pkts, int n, struct pft_elem *elems,
			   size_t room, size_t *end);
	/* The end of the stream: the elements the flow decoder still holds
	 * into @elems, how many; NULL when it holds none back. */
	int (*flow_finish)(void *f, struct pft_elem *elems, size_t room);
};

extern const struct pft_proto pft_ptm_proto;
extern const struct pft_proto pft_etm3_proto;

#endif
