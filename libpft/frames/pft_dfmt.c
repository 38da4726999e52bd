/* Frames: CoreSight formatter frames -> per-ID byte chunks.
 *
 * A frame is 16 bytes: even bytes 0-14 are an ID (bit 0 = 1) or data
 * whose bit 0 is in the auxiliary byte 15; odd bytes 1-13 are data
 * (pft-flow.md 11).  A whole frame is decoded into chunk descriptors that
 * next() hands out one by one.  A frame without ID bytes, the common
 * case, is a single chunk built with two 64-bit operations.
 */
#include <stdlib.h>
#include <string.h>

#include "frames/pft_dfmt.h"
#include "pft.h"
#include "common/pft_size.h"

enum {
	FRAME_SIZE = 16,
	FRAME_DATA = 15,         /* bytes 0-14; byte 15 is the auxiliary byte */
	FRAME_HALFWORDS = 8,
	ID_NONE = PFT_DFMT_ID_NONE,
	ID_RESERVED_MIN = 0x70,
	MAX_SEGS = FRAME_DATA    /* every chunk holds at least one data byte */
};

/* FF FF FF 7F shifted in, first byte most significant. */
#define FSYNC_WINDOW 0xffffff7fu

/* Bit 0 of the even bytes of a little-endian 64-bit load. */
#define EVEN_BIT0 0x0001000100010001ull

/* Auxiliary nibble -> bit 0 of the even bytes of a 64-bit word. */
#define SPREAD(n)                                                          \
	((uint64_t)((n) & 1) | (uint64_t)(((n) >> 1) & 1) << 16 |          \
	 (uint64_t)(((n) >> 2) & 1) << 32 | (uint64_t)(((n) >> 3) & 1) << 48)
static const uint64_t aux_spread[16] = {
	SPREAD(0),  SPREAD(1),  SPREAD(2),  SPREAD(3),
	SPREAD(4),  SPREAD(5),  SPREAD(6),  SPREAD(7),
	SPREAD(8),  SPREAD(9),  SPREAD(10), SPREAD(11),
	SPREAD(12), SPREAD(13), SPREAD(14), SPREAD(15)
};

/* Four FSYNCs filling a frame (memory buffers: the perf driver's marker). */
static const uint8_t fsync_frame[FRAME_SIZE] = {
	0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f,
	0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f
};

enum dfmt_state {
	ST_BOUNDARY, /* at a frame boundary, nothing held back */
	ST_PARTIAL,  /* part of a frame (or of a sync pattern) is held back */
	ST_UNSYNCED  /* trace port: looking for an FSYNC */
};

/* A chunk of the decoded frame: out[start .. start + len). */
struct dfmt_seg {
	uint64_t offset;
	uint8_t id, flags, start, len;
};

struct pft_dfmt {
	/* Borrowed input: in[in_pos .. in_len); in[0] is at offset in_base. */
	const uint8_t *in;
	size_t in_len, in_pos;
	uint64_t in_base;

	uint8_t tpiu;
	uint8_t state;       /* enum dfmt_state */
	uint8_t cur_id;      /* ID of the next data byte, or ID_NONE */
	uint8_t finished;

	/* The decoded frame: data bytes with bit 0 restored, and its chunks. */
	uint8_t out[FRAME_SIZE];
	struct dfmt_seg seg[MAX_SEGS];
	uint8_t nseg, next_seg;

	/* A frame held back between feeds (or assembled around HSYNCs).
	 * hw_off[k] is the input offset of frame bytes 2k and 2k+1; in
	 * memory mode only hw_off[0] is used (the frame is contiguous). */
	uint8_t part[FRAME_SIZE];
	uint8_t part_len;
	uint64_t hw_off[FRAME_HALFWORDS];

	/* Trace port: the first byte of a half-word, an FF FF half-word at a
	 * frame boundary that may begin an FSYNC, the current run of FSYNCs,
	 * and the last four bytes seen while looking for sync. */
	uint8_t have_half, half, fsync_half;
	uint64_t half_off, fsync_half_off;
	unsigned fsync_run;
	uint64_t run_off;
	uint32_t window;

	uint64_t offset;     /* see pft_dfmt_get_offset() */
	uint64_t reserved_bytes;
};

static inline uint64_t load_le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

static inline void store_le64(uint8_t *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	memcpy(p, &v, sizeof(v));
}

/* Store frame bytes 0-15 (loaded as @lo, @hi) in @out with bit 0 of each
 * even data byte taken from @aux. */
static inline void restore_bit0(uint8_t *out, uint64_t lo, uint64_t hi,
				uint8_t aux)
{
	store_le64(out, lo | aux_spread[aux & 15]);
	store_le64(out + 8, hi | aux_spread[aux >> 4]);
}

/* 0x01-0x6f: a trace source whose data is delivered. */
static inline int is_source(uint8_t id)
{
	return (uint8_t)(id - 1) < PFT_ID_MAX_VALID;
}

/* Bits 0-3: which of the even bytes 0, 2, 4, 6 of a little-endian
 * 64-bit load are ID bytes (bit 0 set). */
static inline unsigned id_bytes(uint64_t w)
{
	uint64_t m = w & EVEN_BIT0;

	return (unsigned)((m | m >> 15 | m >> 30 | m >> 45) & 0xf);
}

static void discard(struct pft_dfmt *d, uint8_t id, unsigned n)
{
	if (id >= ID_RESERVED_MIN && id != ID_NONE)
		d->reserved_bytes += n;
}

/* An even byte 0xff is the ID 0x7f, which no frame may hold. */
static int has_id_7f(const uint8_t *f)
{
	for (unsigned p = 0; p < FRAME_SIZE; p += 2)
		if (f[p] == 0xff)
			return 1;
	return 0;
}

static void push_seg(struct pft_dfmt *d, uint8_t id, uint8_t flags,
		     unsigned start, unsigned len, uint64_t offset)
{
	if (d->nseg >= MAX_SEGS)
		return; /* cannot happen: each chunk owns a distinct byte */
	struct dfmt_seg *s = &d->seg[d->nseg++];
	s->offset = offset;
	s->id = id;
	s->flags = flags;
	s->start = (uint8_t)start;
	s->len = (uint8_t)len;
}

static void push_discontinuity(struct pft_dfmt *d, uint64_t offset)
{
	d->nseg = d->next_seg = 0;
	push_seg(d, PFT_ID_NULL, PFT_DFMT_DISCONTINUITY, 0, 0, offset);
	d->cur_id = ID_NONE;
	d->offset = offset;
}

/*
 * Frame bytes [start, end) belong to @id.  With @hw_off (an assembled
 * frame), the chunk also ends where a removed HSYNC left a gap.
 */
static void add_seg(struct pft_dfmt *d, uint8_t id, unsigned start,
		    unsigned end, uint64_t frame_off, const uint64_t *hw_off)
{
	if (end <= start)
		return;
	if (!is_source(id)) {
		discard(d, id, end - start);
		return;
	}
	while (start < end) {
		unsigned stop = end;
		uint64_t offset = frame_off + start;

		if (hw_off) {
			offset = hw_off[start / 2] + (start & 1);
			for (unsigned p = (start | 1) + 1; p < end; p += 2) {
				if (hw_off[p / 2] != hw_off[p / 2 - 1] + 2) {
					stop = p;
					break;
				}
			}
		}
		push_seg(d, id, 0, start, stop - start, offset);
		start = stop;
	}
}

/*
 * Decode the 16 bytes @f of the frame at @frame_off into out[] and seg[].
 * @hw_off is NULL when the frame is contiguous in the input.
 */
static int decode_frame(struct pft_dfmt *d, const uint8_t *f,
			uint64_t frame_off, const uint64_t *hw_off)
{
	uint64_t lo = load_le64(f), hi = load_le64(f + 8);
	uint8_t aux = f[FRAME_DATA], id = d->cur_id;
	unsigned ids = id_bytes(lo) | id_bytes(hi) << 4, start = 0;

	d->offset = frame_off;
	d->nseg = d->next_seg = 0;
	d->fsync_run = 0;
	if (!d->tpiu && f[0] == 0xff &&
	    memcmp(f, fsync_frame, FRAME_SIZE) == 0) {
		push_discontinuity(d, frame_off);
		return 0;
	}
	for (unsigned rest = ids; rest; rest &= rest - 1) {
		if (f[2 * (unsigned)__builtin_ctz(rest)] == 0xff) {
			/* ID 0x7f: the frame's IDs cannot be trusted, so
			 * neither can the data after it. */
			d->cur_id = ID_NONE;
			return -PFT_ERR_BAD_FRAME;
		}
	}
	/* The ID bytes this spoils are not part of any chunk. */
	restore_bit0(d->out, lo, hi, aux);
	for (; ids; ids &= ids - 1) {
		unsigned k = (unsigned)__builtin_ctz(ids), p = 2 * k;
		uint8_t new_id = f[p] >> 1;

		add_seg(d, id, start, p, frame_off, hw_off);
		if (p == FRAME_DATA - 1) {
			/* An ID in byte 14 applies from the next frame. */
			d->cur_id = new_id;
			return 0;
		}
		start = p + 1;
		if (((aux >> k) & 1) && new_id != id) {
			/* Aux bit 1: byte p + 1 still belongs to the old ID. */
			add_seg(d, id, p + 1, p + 2, frame_off, hw_off);
			start = p + 2;
		}
		id = new_id;
	}
	add_seg(d, id, start, FRAME_DATA, frame_off, hw_off);
	d->cur_id = id;
	return 0;
}

/* Memory mode: gather a frame that does not lie whole in the input. */
static int mem_step(struct pft_dfmt *d)
{
	size_t avail = d->in_len - d->in_pos;
	size_t n = FRAME_SIZE - d->part_len;

	if (d->part_len == 0)
		d->hw_off[0] = d->in_base + d->in_pos;
	if (n > avail)
		n = avail;
	memcpy(d->part + d->part_len, d->in + d->in_pos, n);
	d->in_pos += n;
	d->part_len += (uint8_t)n;
	if (d->part_len < FRAME_SIZE) {
		d->state = ST_PARTIAL;
		return 0;
	}
	d->part_len = 0;
	d->state = ST_BOUNDARY;
	return decode_frame(d, d->part, d->hw_off[0], NULL);
}

/* Trace port: drop everything held and look for the next FSYNC, as if
 * the search had begun with the bytes in @window. */
static int lose_sync(struct pft_dfmt *d, uint64_t bad_off, uint32_t window)
{
	d->offset = bad_off;
	d->part_len = 0;
	d->fsync_half = 0;
	d->fsync_run = 0;
	d->state = ST_UNSYNCED;
	d->window = window;
	d->cur_id = ID_NONE;
	return -PFT_ERR_BAD_FRAME;
}

static void fsync_seen(struct pft_dfmt *d, uint64_t offset)
{
	if (d->fsync_run >= 4)
		return; /* one discontinuity per run */
	if (d->fsync_run++ == 0)
		d->run_off = offset;
	if (d->fsync_run == 4)
		push_discontinuity(d, d->run_off);
}

/* Trace port, synchronised: one 16-bit aligned pair of bytes. */
static int tpiu_halfword(struct pft_dfmt *d, uint8_t b0, uint8_t b1,
			 uint64_t offset)
{
	int ff = b0 == 0xff;

	if (d->fsync_half) {
		d->fsync_half = 0;
		if (ff && b1 == 0x7f) {
			fsync_seen(d, d->fsync_half_off);
			return 0;
		}
		return lose_sync(d, d->fsync_half_off,
				 0xffff0000u | (uint32_t)b0 << 8 | b1);
	}
	if (ff && b1 == 0x7f)
		return 0; /* HSYNC */
	if (ff && b1 == 0xff) {
		if (d->part_len)
			return lose_sync(d, d->hw_off[0], 0xffffu);
		d->fsync_half = 1;
		d->fsync_half_off = offset;
		return 0;
	}
	d->hw_off[d->part_len / 2] = offset;
	d->part[d->part_len++] = b0;
	d->part[d->part_len++] = b1;
	if (d->part_len < FRAME_SIZE)
		return 0;
	d->part_len = 0;
	return decode_frame(d, d->part, d->hw_off[0], d->hw_off);
}

/* Trace port: consume input until a frame, a sync, an error or the end.
 * Always consumes at least one byte. */
static int tpiu_step(struct pft_dfmt *d)
{
	while (d->in_pos < d->in_len) {
		uint64_t offset = d->in_base + d->in_pos;
		uint8_t b = d->in[d->in_pos++];

		if (d->state == ST_UNSYNCED) {
			d->window = d->window << 8 | b;
			if (d->window == FSYNC_WINDOW) {
				d->state = ST_BOUNDARY;
				d->fsync_run = 0;
				fsync_seen(d, offset - 3);
				return 0;
			}
			continue;
		}
		if (!d->have_half) {
			d->have_half = 1;
			d->half = b;
			d->half_off = offset;
			d->state = ST_PARTIAL;
			continue;
		}
		d->have_half = 0;
		int r = tpiu_halfword(d, d->half, b, d->half_off);
		if (d->state == ST_PARTIAL && d->part_len == 0 && !d->fsync_half)
			d->state = ST_BOUNDARY;
		if (r < 0 || d->state == ST_BOUNDARY)
			return r;
	}
	return 0;
}

/* Offset of what is held back (state ST_PARTIAL). */
static uint64_t held_offset(const struct pft_dfmt *d)
{
	if (d->part_len)
		return d->hw_off[0];
	if (d->fsync_half)
		return d->fsync_half_off;
	return d->half_off;
}

static int input_used_up(struct pft_dfmt *d)
{
	d->in_base += d->in_len;
	d->in = NULL;
	d->in_len = d->in_pos = 0;
	if (!d->finished)
		return -PFT_ERR_NEED_INPUT;
	if (d->state == ST_PARTIAL) {
		d->offset = held_offset(d);
		d->part_len = 0;
		d->have_half = d->fsync_half = 0;
		d->state = ST_BOUNDARY;
		return -PFT_ERR_TRUNCATED;
	}
	return -PFT_ERR_EOS;
}

static int pop_seg(struct pft_dfmt *d, struct pft_dfmt_chunk *chunk)
{
	const struct dfmt_seg *s = &d->seg[d->next_seg++];

	chunk->id = s->id;
	chunk->flags = s->flags;
	chunk->data = d->out + s->start;
	chunk->len = s->len;
	chunk->offset = s->offset;
	return 0;
}

struct pft_dfmt *pft_dfmt_alloc(const struct pft_dfmt_config *cfg,
				int *errcode)
{
	struct pft_dfmt *d;
	int err = 0;

	if (cfg) {
		size_t first = PFT_FIRST_SIZE(struct pft_dfmt_config);

		if (cfg->size < first || cfg->tpiu > 1)
			err = -PFT_ERR_INVALID;
		for (size_t i = first; i < cfg->size && i < sizeof(*cfg); i++)
			if (((const uint8_t *)cfg)[i])
				err = -PFT_ERR_INVALID;
	}
	d = err ? NULL : calloc(1, sizeof(*d));
	if (!d && !err)
		err = -PFT_ERR_NOMEM;
	if (errcode)
		*errcode = err;
	if (!d)
		return NULL;
	d->tpiu = cfg ? cfg->tpiu : 0;
	d->state = d->tpiu ? ST_UNSYNCED : ST_BOUNDARY;
	d->cur_id = ID_NONE;
	return d;
}

void pft_dfmt_free(struct pft_dfmt *d)
{
	free(d);
}

int pft_dfmt_feed(struct pft_dfmt *d, const uint8_t *buf, size_t len)
{
	if (!d || (!buf && len))
		return -PFT_ERR_INVALID;
	if (d->finished)
		return -PFT_ERR_EOS;
	if (d->in_pos < d->in_len)
		return -PFT_ERR_INVALID;
	d->in_base += d->in_len;
	d->in = buf;
	d->in_len = len;
	d->in_pos = 0;
	return 0;
}

int pft_dfmt_next(struct pft_dfmt *d, struct pft_dfmt_chunk *chunk,
		  size_t size)
{
	if (!d || !chunk || size < sizeof(*chunk))
		return -PFT_ERR_INVALID;
	for (;;) {
		if (d->next_seg < d->nseg)
			return pop_seg(d, chunk);

		size_t avail = d->in_len - d->in_pos;
		if (d->state == ST_BOUNDARY && avail >= FRAME_SIZE) {
			const uint8_t *f = d->in + d->in_pos;
			uint64_t lo = load_le64(f), hi = load_le64(f + 8);
			uint64_t offset = d->in_base + d->in_pos;

			if (!((lo | hi) & EVEN_BIT0)) {
				/* No ID byte (hence no sync): one chunk. */
				d->in_pos += FRAME_SIZE;
				d->offset = offset;
				d->fsync_run = 0;
				if (!is_source(d->cur_id)) {
					discard(d, d->cur_id, FRAME_DATA);
					continue;
				}
				restore_bit0(d->out, lo, hi, f[FRAME_DATA]);
				chunk->id = d->cur_id;
				chunk->flags = 0;
				chunk->data = d->out;
				chunk->len = FRAME_DATA;
				chunk->offset = offset;
				return 0;
			}
			/* A trace port frame with 0xff in an even byte may hold
			 * syncs: assemble it half-word by half-word. */
			if (!d->tpiu || !has_id_7f(f)) {
				d->in_pos += FRAME_SIZE;
				int r = decode_frame(d, f, offset, NULL);
				if (r < 0)
					return r;
				continue;
			}
		}
		if (avail == 0)
			return input_used_up(d);
		int r = d->tpiu ? tpiu_step(d) : mem_step(d);
		if (r < 0)
			return r;
	}
}

int pft_dfmt_finish(struct pft_dfmt *d)
{
	if (!d)
		return -PFT_ERR_INVALID;
	d->finished = 1;
	return 0;
}

uint64_t pft_dfmt_get_offset(const struct pft_dfmt *d)
{
	return d ? d->offset : 0;
}

uint64_t pft_dfmt_reserved_bytes(const struct pft_dfmt *d)
{
	return d ? d->reserved_bytes : 0;
}

int pft_dfmt_frame_id(const uint8_t *f, uint8_t *id)
{
	int found = 0;

	/* As decode_frame(): the last ID byte wins; 0xff (ID 0x7f, and an
	 * FSYNC frame's bytes) leaves none. */
	for (unsigned p = 0; p < FRAME_DATA; p += 2) {
		if (!(f[p] & 1))
			continue;
		if (f[p] == 0xff) {
			*id = ID_NONE;
			return 1;
		}
		*id = f[p] >> 1;
		found = 1;
	}
	return found;
}

void pft_dfmt_start_at(struct pft_dfmt *d, uint64_t offset, uint8_t id)
{
	uint64_t reserved = d->reserved_bytes;

	memset(d, 0, sizeof(*d));
	d->state = ST_BOUNDARY;
	d->cur_id = id;
	d->in_base = offset;
	d->offset = offset;
	d->reserved_bytes = reserved;
}

uint8_t pft_dfmt_current_id(const struct pft_dfmt *d)
{
	return d->cur_id;
}
