/* pft_proto.h - a trace protocol as the pipeline and the parallel decode
 * drive it: its packet and flow decoders behind one table of operations,
 * so that they never ask which protocol a source has.  Each protocol
 * defines its table beside its decoders (ptm/pft_ptm_proto.c,
 * etm3/pft_etm3_proto.c); a new protocol is a new table. */
#ifndef PFT_PROTO_H
#define PFT_PROTO_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pft.h"

struct pft_proto {
	uint8_t protocol;          /* enum pft_protocol */
	/* Formatted input: the source's chunks are staged (decode/pft_stage.h)
	 * and its packets may be counted in place (pft_pipe_count_into());
	 * both need the PTM decoder's stream positions. */
	uint8_t staged;
	uint16_t packet_size;      /* its packet struct */
	/* Where a packet's fields are (every protocol's packet has them):
	 * uint64_t offset, const uint8_t *raw, uint16_t size, uint8_t type. */
	uint8_t offset_at, raw_at, size_at, type_offset;
	uint8_t bad_type, isync_type;  /* the BAD and I-sync packet types */
	uint8_t pkt_bytes_max;         /* the longest packet */
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
	/* Offset of the next byte the decoder will look at. */
	uint64_t (*pkt_get_offset)(const void *d);
	/* Count @n packets into @c (by the protocol's types). */
	void (*count_packets)(struct pft_input_counts *c, const void *pkts, size_t n);
	/* What packet @pkt tells a clock (decode/pft_merge.c): the cycles it
	 * counts (0: none); 1 when it is a timestamp, its value in *@ts. */
	int (*pkt_clock)(const void *pkt, uint64_t *ts, uint32_t *cycles);

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

	/* Detection: how cleanly @buf (a prefix) reads as this protocol: 0
	 * with its errors in *@score and its syncs, 1 when it cannot be read
	 * as it at all, or -PFT_ERR_NOMEM. */
	int (*detect)(const uint8_t *buf, size_t len, uint32_t *score, uint32_t *asyncs,
		      uint32_t *isyncs);

	/* What a packet or flow decoder carries from one packet to the next
	 * (core/pft_sync_state.h): two decoders whose states are equal (by
	 * memcmp) give the same output from there on.  The parallel decode
	 * hands over between pieces where they are; NULL: it cannot. */
	uint16_t pkt_state_size, flow_state_size;
	void (*pkt_sync_state)(const void *d, void *state);
	void (*flow_sync_state)(const void *f, void *state);
};

/* The fields every protocol's packet has, at the places its table says. */
static inline uint64_t pft_proto_pkt_offset(const struct pft_proto *pr, const void *pkt)
{
	uint64_t v;
	memcpy(&v, (const unsigned char *)pkt + pr->offset_at, sizeof(v));
	return v;
}

static inline void pft_proto_set_pkt_offset(const struct pft_proto *pr, void *pkt, uint64_t v)
{
	memcpy((unsigned char *)pkt + pr->offset_at, &v, sizeof(v));
}

static inline uint16_t pft_proto_pkt_size(const struct pft_proto *pr, const void *pkt)
{
	uint16_t v;
	memcpy(&v, (const unsigned char *)pkt + pr->size_at, sizeof(v));
	return v;
}

static inline const uint8_t *pft_proto_pkt_raw(const struct pft_proto *pr, const void *pkt)
{
	const uint8_t *v;
	memcpy(&v, (const unsigned char *)pkt + pr->raw_at, sizeof(v));
	return v;
}

static inline void pft_proto_set_pkt_raw(const struct pft_proto *pr, void *pkt, const uint8_t *v)
{
	memcpy((unsigned char *)pkt + pr->raw_at, &v, sizeof(v));
}

static inline uint8_t pft_proto_pkt_type(const struct pft_proto *pr, const void *pkt)
{
	return ((const unsigned char *)pkt)[pr->type_offset];
}

/*
 * The operations every protocol's decoders have under the same names,
 * PREFIX_pkt_alloc, _free, _feed_at, _finish, _reset, _sync_forward,
 * _get_offset, _sync_state and PREFIX_flow_alloc, _free, _reset,
 * _sync_state, as static functions of the table's types (proto_pkt_alloc,
 * ...), for a protocol's table file.
 */
#define PFT_PROTO_DECODER_OPS(PREFIX)                                              \
	static void *proto_pkt_alloc(const void *cfg, int *errcode)                 \
	{                                                                           \
		return PREFIX##_pkt_alloc(cfg, errcode);                            \
	}                                                                           \
	static void proto_pkt_free(void *d)                                         \
	{                                                                           \
		PREFIX##_pkt_free(d);                                               \
	}                                                                           \
	static int proto_pkt_feed_at(void *d, const uint8_t *buf, size_t len,       \
				     uint64_t offset)                               \
	{                                                                           \
		return PREFIX##_pkt_feed_at(d, buf, len, offset);                   \
	}                                                                           \
	static int proto_pkt_finish(void *d)                                        \
	{                                                                           \
		return PREFIX##_pkt_finish(d);                                      \
	}                                                                           \
	static int proto_pkt_reset(void *d)                                         \
	{                                                                           \
		return PREFIX##_pkt_reset(d);                                       \
	}                                                                           \
	static int proto_pkt_sync_forward(void *d)                                  \
	{                                                                           \
		return PREFIX##_pkt_sync_forward(d);                                \
	}                                                                           \
	static uint64_t proto_pkt_get_offset(const void *d)                         \
	{                                                                           \
		return PREFIX##_pkt_get_offset(d);                                  \
	}                                                                           \
	static void *proto_flow_alloc(const void *cfg, struct pft_image *image,     \
				      int *errcode)                                 \
	{                                                                           \
		return PREFIX##_flow_alloc(cfg, image, errcode);                    \
	}                                                                           \
	static void proto_flow_free(void *f)                                        \
	{                                                                           \
		PREFIX##_flow_free(f);                                              \
	}                                                                           \
	static int proto_flow_reset(void *f)                                        \
	{                                                                           \
		return PREFIX##_flow_reset(f);                                      \
	}                                                                           \
	static void proto_pkt_sync_state(const void *d, void *state)                \
	{                                                                           \
		PREFIX##_pkt_sync_state(d, state);                                  \
	}                                                                           \
	static void proto_flow_sync_state(const void *f, void *state)               \
	{                                                                           \
		PREFIX##_flow_sync_state(f, state);                                 \
	}

/* The table's fields those functions fill. */
#define PFT_PROTO_DECODER_FIELDS                                                    \
	.pkt_alloc = proto_pkt_alloc, .pkt_free = proto_pkt_free,                   \
	.pkt_feed_at = proto_pkt_feed_at, .pkt_finish = proto_pkt_finish,           \
	.pkt_reset = proto_pkt_reset, .pkt_sync_forward = proto_pkt_sync_forward,   \
	.pkt_get_offset = proto_pkt_get_offset, .flow_alloc = proto_flow_alloc,     \
	.flow_free = proto_flow_free, .flow_reset = proto_flow_reset,               \
	.pkt_sync_state = proto_pkt_sync_state,                                     \
	.flow_sync_state = proto_flow_sync_state

/* The table's fields that say where packet struct PACKET's common fields
 * are. */
#define PFT_PROTO_PACKET_FIELDS(PACKET)                                             \
	.packet_size = sizeof(struct PACKET),                                       \
	.offset_at = offsetof(struct PACKET, offset),                               \
	.raw_at = offsetof(struct PACKET, raw),                                     \
	.size_at = offsetof(struct PACKET, size),                                   \
	.type_offset = offsetof(struct PACKET, type)

extern const struct pft_proto pft_ptm_proto;
extern const struct pft_proto pft_etm3_proto;

#endif
