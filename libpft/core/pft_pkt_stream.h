/* pft_pkt_stream.h - the byte stream under every protocol's packet
 * decoder: feeds, offsets, the carry buffer for a packet cut by a feed,
 * the search for an A-sync while unsynchronised, and the loop that turns
 * them into packets.
 *
 * PTM (PFT) and ETMv3 share all of it; what differs (the header bytes and
 * the packets' formats) a protocol gives as a struct pkt_proto of its
 * functions.  The loop (pft_stream_next()) is a static inline template:
 * a protocol calls it with a static const struct pkt_proto, so that the
 * compiler calls (or inlines) the protocol's functions directly, with no
 * function pointer on any path.  Each protocol keeps its own hot path for
 * the packets whole in the buffer, and comes here for the rest.
 *
 * Both protocols synchronise on an A-sync of at least five zero bytes and
 * 0x80 (pft-protocol.md 5.1, etmv3-protocol.md 3.3); one A-sync packet
 * holds at most PKT_ASYNC_MAX_ZEROS zeros.  Unsynchronised bytes come
 * back as NOTSYNC packets of at most PKT_NOTSYNC_MAX bytes; a run of zeros
 * at the end of a feed, which may begin an A-sync, is held in the carry.
 */
#ifndef PFT_PKT_STREAM_H
#define PFT_PKT_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pft.h"

enum {
	PKT_ASYNC_MIN_ZEROS = 5,
	PKT_ASYNC_MAX_ZEROS = 15,
	PKT_ASYNC_END = 0x80,
	PKT_NOTSYNC_MAX = 16,
	/* Bytes looked at unsynchronised: an A-sync that starts within the
	 * next PKT_NOTSYNC_MAX bytes ends within them. */
	PKT_SCAN_WINDOW = PKT_NOTSYNC_MAX + PKT_ASYNC_MAX_ZEROS + 1,
	/* The carry: twice the longest packet of any protocol (ETMv3's 20). */
	PKT_CARRY_MAX = 40
};

/* The @pos given to pkt_proto.decode for a packet in the carry. */
#define PKT_CARRIED ((size_t)-1)

struct pkt_stream {
	/* The current feed. */
	const uint8_t *buf;
	size_t len, pos;
	uint64_t buf_offset;      /* stream offset of buf[0] */
	int finished;
	int synced;
	/* Bytes set aside from earlier feeds: synchronised, the start of a
	 * packet cut by a feed; unsynchronised, zeros that may begin an
	 * A-sync. */
	size_t ncarry;
	uint64_t carry_offset;
	size_t carry_notsync;     /* leading carried bytes to give as NOTSYNC */
	size_t carry_shift;       /* carried bytes already returned, to drop */
	/* Zero bytes that ended the last packet, for a protocol whose
	 * damaged packets may swallow an A-sync's first zeros (ETMv3; PTM
	 * looks back in the bytes instead, and leaves it 0), and the same
	 * for the zeros held unsynchronised. */
	uint8_t zeros_behind;
	uint8_t held_prior;
	uint8_t carry[PKT_CARRY_MAX];
};

/* What the unsynchronised paths give: bytes to return as a packet. */
enum pkt_span_kind { PKT_SPAN_NOTSYNC, PKT_SPAN_ASYNC, PKT_SPAN_TRUNCATED };

struct pkt_span {
	const uint8_t *raw;
	uint64_t offset;
	size_t size;
	enum pkt_span_kind kind;
};

/*
 * A protocol's part of the loop; @d is its decoder, @pkt its packet type.
 *  decode   the packet at @p (synchronised; @pos its index in the feed,
 *           or PKT_CARRIED): its length (> 0), 0 when @avail ends first,
 *           or -(bytes) of a bad packet; nothing committed.
 *  deliver  the packet of @n bytes (as decode returned) at @raw, @offset:
 *           set its bytes and offset, commit it (or give up sync after a
 *           bad one) and return the status pft_stream_next() returns.
 *  emit     make @pkt the span's packet (NOTSYNC, ASYNC, or a BAD packet
 *           truncated by the end of the stream); return its status.
 *           @pkt is clear but for a truncated packet (decode may have
 *           filled some of its fields).
 *  clear    zero a packet.
 *  hold     (or NULL) the synchronised packet at buf[@pos] is cut by
 *           the feed's end: its bytes go to the carry next.
 *  need     (or NULL) input is needed: the feed may go now.
 *  pkt_max  the longest packet.
 */
struct pkt_proto {
	int (*decode)(const void *d, const uint8_t *p, size_t avail, size_t pos, void *pkt);
	int (*deliver)(void *d, void *pkt, int n, const uint8_t *raw, uint64_t offset);
	int (*emit)(void *pkt, const struct pkt_span *sp);
	void (*clear)(void *pkt);
	void (*hold)(void *d, size_t pos);
	void (*need)(void *d);
	size_t pkt_max;
};

/* ---- Feeds and offsets. ---- */

/* The feed's bytes are borrowed until the next -PFT_ERR_NEED_INPUT; a
 * feed while bytes of the last one are undecoded is refused (they would
 * be lost, and every offset after them wrong). */
static inline int pft_stream_feed_at(struct pkt_stream *s, const uint8_t *buf, size_t len,
				     uint64_t offset)
{
	if (!s || (!buf && len))
		return -PFT_ERR_INVALID;
	if (s->finished)
		return -PFT_ERR_EOS;
	if (s->buf && s->pos < s->len)
		return -PFT_ERR_INVALID;
	s->buf = buf;
	s->len = len;
	s->pos = 0;
	s->buf_offset = offset;
	return 0;
}

static inline int pft_stream_feed(struct pkt_stream *s, const uint8_t *buf, size_t len)
{
	if (!s)
		return -PFT_ERR_INVALID;
	return pft_stream_feed_at(s, buf, len, s->buf_offset + s->len);
}

static inline int pft_stream_finish(struct pkt_stream *s)
{
	if (!s)
		return -PFT_ERR_INVALID;
	s->finished = 1;
	return 0;
}

/* Offset of the oldest byte not yet given back in a packet, or of one
 * still held (0 for NULL @s). */
static inline uint64_t pft_stream_offset(const struct pkt_stream *s)
{
	if (!s)
		return 0;
	if (s->ncarry)
		return s->carry_offset;
	return s->buf_offset + s->pos;
}

/* Give up synchronisation.  A cut packet's bytes become NOTSYNC, but its
 * trailing zeros (at most @zeros_max) may still begin an A-sync. */
void pft_stream_sync_forward(struct pkt_stream *s, size_t zeros_max);

/* Allocate a decoder of @size bytes (zeroed) unless @err (a configuration
 * error) says not to; *@errcode (if not NULL) gets @err or
 * -PFT_ERR_NOMEM. */
void *pft_stream_decoder_alloc(size_t size, int err, int *errcode);

/*
 * The public functions of protocol PREFIX (pft_ptm_pkt, pft_etm3_pkt) that
 * only its stream needs, for its decoder TYPE, whose struct pkt_stream is
 * the member MEMBER, followed by all the state that _reset clears (to
 * zero): _free, _reset, _feed, _feed_at, _finish, _get_offset and
 * _sync_forward (keeping at most ZEROS_MAX trailing zeros of a cut packet
 * for an A-sync), as include/pft.h documents them.
 */
#define PKT_DECODER_API(PREFIX, TYPE, MEMBER, ZEROS_MAX)                                 \
	void PREFIX##_free(TYPE *d)                                                      \
	{                                                                                \
		free(d);                                                                 \
	}                                                                                \
	int PREFIX##_reset(TYPE *d)                                                      \
	{                                                                                \
		if (!d)                                                                  \
			return -PFT_ERR_INVALID;                                         \
		memset(&d->MEMBER, 0, sizeof(*d) - offsetof(TYPE, MEMBER));             \
		return 0;                                                                \
	}                                                                                \
	int PREFIX##_feed_at(TYPE *d, const uint8_t *buf, size_t len, uint64_t offset)   \
	{                                                                                \
		return pft_stream_feed_at(d ? &d->MEMBER : NULL, buf, len, offset);      \
	}                                                                                \
	int PREFIX##_feed(TYPE *d, const uint8_t *buf, size_t len)                       \
	{                                                                                \
		return pft_stream_feed(d ? &d->MEMBER : NULL, buf, len);                 \
	}                                                                                \
	int PREFIX##_finish(TYPE *d)                                                     \
	{                                                                                \
		return pft_stream_finish(d ? &d->MEMBER : NULL);                         \
	}                                                                                \
	uint64_t PREFIX##_get_offset(const TYPE *d)                                      \
	{                                                                                \
		return pft_stream_offset(d ? &d->MEMBER : NULL);                         \
	}                                                                                \
	int PREFIX##_sync_forward(TYPE *d)                                               \
	{                                                                                \
		if (!d)                                                                  \
			return -PFT_ERR_INVALID;                                         \
		pft_stream_sync_forward(&d->MEMBER, ZEROS_MAX);                          \
		return 0;                                                                \
	}

/* ---- Payload fields both protocols encode alike. ---- */

/* @n bytes (0-4) at @p, little-endian: context IDs, I-sync addresses. */
static inline uint32_t pkt_le32(const uint8_t *p, unsigned n)
{
	uint32_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint32_t)p[i] << (8 * i);
	return v;
}

/* The context ID packet (a header and @bytes bytes of ID) or VMID packet
 * (a header and one byte) at @p: its @size, or 0 when @avail ends first,
 * and its @id (0 when @avail ends first).  Returned by value: an
 * address-taken local would cost the packet parsers a stack canary. */
struct pft_stream_id {
	uint32_t id, size;
};

static inline struct pft_stream_id pft_stream_id_payload(const uint8_t *p, size_t avail,
							 unsigned bytes)
{
	if (avail < 1u + bytes)
		return (struct pft_stream_id){ 0, 0 };
	return (struct pft_stream_id){ pkt_le32(p + 1, bytes), 1u + bytes };
}

/*
 * Damage can make a packet swallow the first zeros of an A-sync (an
 * address or cycle count that goes on over them).  Five zero bytes and a
 * one cannot occur inside a packet, so zeros and 0x80 at @p that make
 * five zero bytes with the @prior zero bytes before @p are an A-sync.
 * Returns its length, or 0 (also when @p starts a whole A-sync: the usual
 * rules apply).
 */
static inline size_t pft_stream_async_after(const uint8_t *p, size_t avail, unsigned prior)
{
	size_t z = 0;

	if (!prior)
		return 0;
	while (z < avail && z < PKT_ASYNC_MIN_ZEROS && p[z] == 0)
		z++;
	if (z >= PKT_ASYNC_MIN_ZEROS || z >= avail || p[z] != PKT_ASYNC_END)
		return 0;
	return z + prior >= PKT_ASYNC_MIN_ZEROS ? z + 1 : 0;
}

/* What a decoder returns for a bad packet with reason @bad (its
 * PFT_ERR_PKT_* reason): a reserved header is a bad opcode, a packet cut
 * by the end of the stream truncated, anything else a bad packet. */
static inline int pft_stream_bad_status(uint8_t bad)
{
	switch (bad) {
	case PFT_ERR_PKT_RESERVED_HEADER:
	case PFT_ERR_PKT_ATOM_NO_MARKER: /* PTM: reserved without CA (pft-protocol.md 5.12) */
	case PFT_ERR_PKT_DATA_DISABLED:  /* ETMv3: a data header without data trace */
		return -PFT_ERR_BAD_OPCODE;
	case PFT_ERR_PKT_TRUNCATED:
		return -PFT_ERR_TRUNCATED;
	default:
		return -PFT_ERR_BAD_PACKET;
	}
}

/* ---- The unsynchronised paths (pft_pkt_stream.c).  Each returns 0 with
 * a packet in *@sp, or -PFT_ERR_NEED_INPUT. ---- */

/* Unsynchronised, nothing carried: look for an A-sync from buf[pos]. */
int pft_stream_scan(struct pkt_stream *s, struct pkt_span *sp);
/* Unsynchronised, zeros held in the carry, bytes in the feed. */
int pft_stream_held_zeros(struct pkt_stream *s, struct pkt_span *sp);
/* After finish, what is left in the carry (a packet cut by the end of the
 * stream is at most @pkt_max bytes: the rest comes next, unsynchronised). */
void pft_stream_flush(struct pkt_stream *s, size_t pkt_max, struct pkt_span *sp);

/* ---- The loop. ---- */

/* Finish a packet cut by a feed: append new bytes to the carry. */
static inline __attribute__((always_inline)) int
pft_stream_resolve_carry(struct pkt_stream *s, const struct pkt_proto *pr, void *d, void *pkt)
{
	const size_t avail = s->len - s->pos;
	size_t take = PKT_CARRY_MAX - s->ncarry;

	if (take > avail)
		take = avail;
	memcpy(s->carry + s->ncarry, s->buf + s->pos, take);
	const size_t have = s->ncarry + take;
	const int n = pr->decode(d, s->carry, have, PKT_CARRIED, pkt);

	if (n == 0) {
		if (take < avail)
			return -PFT_ERR_INTERNAL; /* longer than any packet */
		s->ncarry = have;
		s->pos = s->len;
		return -PFT_ERR_NEED_INPUT;
	}
	const size_t used = (size_t)(n > 0 ? n : -n);
	const uint64_t offset = s->carry_offset;
	if (used < s->ncarry) {
		/* Only zeros (of a long A-sync, or a bad run) end inside the
		 * carried bytes; the rest of them stay. */
		memmove(s->carry, s->carry + used, s->ncarry - used);
		s->ncarry -= used;
		s->carry_offset += used;
	} else {
		s->pos += used - s->ncarry;
		s->ncarry = 0;
	}
	return pr->deliver(d, pkt, n, s->carry, offset);
}

/* The next packet or status, without the retries after finish. */
static inline __attribute__((always_inline)) int
pft_stream_next_packet(struct pkt_stream *s, const struct pkt_proto *pr, void *d, void *pkt)
{
	struct pkt_span sp;

	/* Most often: synchronised, nothing carried, bytes in the feed. */
	if (__builtin_expect((s->carry_notsync | s->carry_shift | s->ncarry) == 0 &&
			     s->synced && s->pos < s->len, 1))
		goto decode;
	if (s->carry_notsync) {
		sp = (struct pkt_span){ .raw = s->carry, .offset = s->carry_offset,
					.size = s->carry_notsync, .kind = PKT_SPAN_NOTSYNC };
		/* The packet points into the carry: move the rest on the next
		 * call, not now. */
		s->carry_shift = s->carry_notsync;
		s->carry_notsync = 0;
		return pr->emit(pkt, &sp);
	}
	if (s->carry_shift) {
		memmove(s->carry, s->carry + s->carry_shift, s->ncarry - s->carry_shift);
		s->ncarry -= s->carry_shift;
		s->carry_offset += s->carry_shift;
		s->carry_shift = 0;
	}
	if (s->ncarry) {
		if (s->pos < s->len) {
			if (s->synced)
				return pft_stream_resolve_carry(s, pr, d, pkt);
			if (pft_stream_held_zeros(s, &sp))
				return -PFT_ERR_NEED_INPUT;
			return pr->emit(pkt, &sp);
		}
		if (!s->finished)
			return -PFT_ERR_NEED_INPUT;
		pft_stream_flush(s, pr->pkt_max, &sp);
		return pr->emit(pkt, &sp);
	}
	if (s->pos >= s->len)
		return s->finished ? -PFT_ERR_EOS : -PFT_ERR_NEED_INPUT;
	if (!s->synced) {
		if (pft_stream_scan(s, &sp))
			return -PFT_ERR_NEED_INPUT;
		return pr->emit(pkt, &sp);
	}
decode:;
	const uint8_t *p = s->buf + s->pos;
	const size_t avail = s->len - s->pos;
	const uint64_t offset = s->buf_offset + s->pos;
	const int n = pr->decode(d, p, avail, s->pos, pkt);

	if (n == 0) {
		if (avail > PKT_CARRY_MAX)
			return -PFT_ERR_INTERNAL; /* longer than any packet */
		if (pr->hold)
			pr->hold(d, s->pos);
		memcpy(s->carry, p, avail);
		s->ncarry = avail;
		s->carry_offset = offset;
		s->pos = s->len;
		if (!s->finished)
			return -PFT_ERR_NEED_INPUT;
		pft_stream_flush(s, pr->pkt_max, &sp);
		return pr->emit(pkt, &sp);
	}
	s->pos += (size_t)(n > 0 ? n : -n);
	return pr->deliver(d, pkt, n, p, offset);
}

/* The next packet into *@pkt (cleared first), or a status.  After finish
 * it never asks for input: a path that set bytes aside for the next feed
 * runs again to flush them. */
static inline __attribute__((always_inline)) int
pft_stream_next(struct pkt_stream *s, const struct pkt_proto *pr, void *d, void *pkt)
{
	/* Each retry flushes what the previous one set aside, so two are
	 * enough; the bound only guards against a bug turning into a hang. */
	for (int tries = 0; tries < 4; tries++) {
		pr->clear(pkt);
		const int status = pft_stream_next_packet(s, pr, d, pkt);
		if (status != -PFT_ERR_NEED_INPUT || !s->finished) {
			if (status == -PFT_ERR_NEED_INPUT && pr->need)
				pr->need(d);
			return status;
		}
	}
	return -PFT_ERR_INTERNAL;
}

#endif
