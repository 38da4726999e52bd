/* pft_stage.h - a formatted PTM source's frame payloads joined into long
 * feeds for its packet decoder: the serial pipeline (pft_pipe.c) and the
 * parallel decode's workers (pft_par.c) stage alike, so that their
 * packets, offsets and NOTSYNC cuts are the same.
 *
 * A frame holds at most 15 bytes of a source, and a packet decoder fed
 * that little spends its time at the edges.  So consecutive chunks are
 * joined in a stage; the decoder sees them at "stream" offsets (the
 * source's bytes so far), mapped back to input offsets through the table
 * of where each joined chunk began.  Unsynchronised, a decoder cuts
 * NOTSYNC packets where its feeds end: then it gets one chunk at a time,
 * as without the staging, so the packets are the same. */
#ifndef PFT_STAGE_H
#define PFT_STAGE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pft.h"
#include "ptm/pft_pkt_decoder.h"

enum {
	STAGE_BYTES = 16384,
	/* Chunks staged at once, plus those the decoder's carried bytes came
	 * from (at most 32 bytes, one chunk each at worst). */
	STAGE_CHUNKS = 2048,
	STAGE_MAP_KEPT_MAX = 64,
	STAGE_MAP_ROOM = STAGE_CHUNKS + STAGE_MAP_KEPT_MAX
};

/* Stream offset @stream on is input offset @input on. */
struct stage_map_entry {
	uint64_t stream, input;
};

/* A source's map (STAGE_MAP_ROOM entries) of the bytes its decoder may
 * still report; @at: where the last look-up ended (offsets mostly grow). */
struct stage_map {
	struct stage_map_entry *e;
	size_t n, at;
};

/* The staged bytes (STAGE_BYTES room): @buf[0] is at stream offset
 * @stream, those before @fed are the decoder's. */
struct stage {
	uint8_t *buf;
	size_t len, fed;
	uint64_t stream;
};

/* The entry of stream offset @stream (the last that starts at or before
 * it; the first if none does).  @m->n > 0. */
static inline size_t stage_map_find(const struct stage_map *m, uint64_t stream)
{
	size_t lo = 0, hi = m->n;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->e[mid].stream <= stream)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The input offset of stream offset @stream. */
static inline uint64_t stage_input_offset(struct stage_map *m, uint64_t stream)
{
	size_t i = m->at;

	if (!m->n)
		return stream;
	/* Packets come in stream order: the next entry, or this one. */
	if (i >= m->n || m->e[i].stream > stream)
		i = stage_map_find(m, stream);
	while (i + 1 < m->n && m->e[i + 1].stream <= stream)
		i++;
	m->at = i;
	return m->e[i].input + (stream - m->e[i].stream);
}

/* Start staging for decoder @pkt at stream offset @stream (the bytes it
 * was fed so far): the map keeps only the entries of bytes the decoder
 * has not done with (those of a packet it carries). */
static inline void stage_begin(struct stage *st, struct stage_map *m,
			       const struct pft_ptm_pkt_decoder *pkt, uint64_t stream)
{
	uint64_t oldest = pft_ptm_pkt_get_offset(pkt);
	size_t keep = 0;

	while (keep + 1 < m->n && m->e[keep + 1].stream <= oldest)
		keep++;
	if (m->n - keep > STAGE_MAP_KEPT_MAX)
		keep = m->n - STAGE_MAP_KEPT_MAX;
	memmove(m->e, m->e + keep, (m->n - keep) * sizeof(*m->e));
	m->n -= keep;
	m->at = 0;
	st->len = st->fed = 0;
	st->stream = stream;
}

/* 1 when a chunk of @len bytes fits the stage, else 0 (feed it first). */
static inline int stage_room(const struct stage *st, const struct stage_map *m, size_t len)
{
	return len <= STAGE_BYTES - st->len && m->n < STAGE_MAP_ROOM;
}

/* Stage a chunk (one map entry each: the chunks are where NOTSYNC
 * packets end). */
static inline void stage_add(struct stage *st, struct stage_map *m, const uint8_t *data,
			     size_t len, uint64_t input)
{
	m->e[m->n++] = (struct stage_map_entry){ .stream = st->stream + st->len, .input = input };
	memcpy(st->buf + st->len, data, len);
	st->len += len;
}

/* The end of decoder @pkt's next feed: all that is left while it is
 * synchronised, else the rest of one chunk. */
static inline size_t stage_feed_end(const struct stage *st, const struct stage_map *m,
				    const struct pft_ptm_pkt_decoder *pkt)
{
	if (!pft_ptm_pkt_synced(pkt)) {
		size_t i = stage_map_find(m, st->stream + st->fed);
		if (i + 1 < m->n)
			return (size_t)(m->e[i + 1].stream - st->stream);
	}
	return st->len;
}

/* A bad packet has cost decoder @pkt its sync: its NOTSYNC packets must
 * end where the chunk does, as with a feed per chunk, so its feed ends
 * there and the rest of the stage is given again, a chunk at a time.
 * Returns the bytes taken back. */
static inline size_t stage_cut_at_chunk_end(struct stage *st, const struct stage_map *m,
					    struct pft_ptm_pkt_decoder *pkt)
{
	size_t i = stage_map_find(m, pft_ptm_pkt_feed_pos(pkt));
	uint64_t end = i + 1 < m->n ? m->e[i + 1].stream : st->stream + st->len;
	int dropped = pft_ptm_pkt_cut_feed(pkt, end);

	if (dropped <= 0)
		return 0;
	st->fed -= (size_t)dropped;
	return (size_t)dropped;
}

/* A deformatter result taken but not acted on yet, while the stage is fed
 * first (its chunk's data stay valid: the deformatter is not called until
 * it is used). */
struct stage_held {
	int held, status;
	uint64_t err_offset;
	struct pft_dfmt_chunk chunk;
};

/* The held result, else deformatter @d's next: its status, the chunk in
 * *@c, pft_dfmt_get_offset() after an error in *@err_offset; *@fresh is 1
 * when it came from @d now. */
static inline int stage_next_chunk(struct stage_held *h, struct pft_dfmt *d,
				   struct pft_dfmt_chunk *c, uint64_t *err_offset, int *fresh)
{
	*fresh = !h->held;
	if (h->held) {
		h->held = 0;
		*c = h->chunk;
		*err_offset = h->err_offset;
		return h->status;
	}
	int r = pft_dfmt_next(d, c, sizeof(*c));
	*err_offset = r < 0 ? pft_dfmt_get_offset(d) : 0;
	return r;
}

static inline void stage_hold(struct stage_held *h, const struct pft_dfmt_chunk *c, int status,
			      uint64_t err_offset)
{
	*h = (struct stage_held){ .held = 1, .status = status, .err_offset = err_offset,
				  .chunk = *c };
}

#endif
