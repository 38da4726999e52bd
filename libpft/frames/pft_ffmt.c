/* Formatter: per-ID byte streams -> CoreSight 16-byte frames
 * (pft-flow.md section 11).
 *
 * Frame slots: even bytes 0-14 are ID-or-data (data bit 0 goes to the
 * auxiliary byte 15), odd bytes 1-13 are data.  Data bytes of the current
 * ID fill the slots in order, except that a byte which would land in an
 * even slot (0-12) is held back ("pending") until the next byte shows
 * whether the ID changes: if it does, the new ID takes that even slot with
 * aux bit 1 and the held byte goes to the odd slot after it, where it still
 * belongs to the previous ID.  An ID change thus always costs one slot. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "pft.h"

enum {
	FRAME_SIZE = 16,
	LAST_SLOT = 14,            /* the ID-or-data slot with no data slot after it */
	FSYNC_SIZE = 4,
	TPIU_ID_REPEAT = 8,        /* a TPIU sends an ID at least every 8 frames */
	DEFAULT_FSYNC_PERIOD = 8
};

static const uint8_t fsync[FSYNC_SIZE] = { 0xff, 0xff, 0xff, 0x7f };

struct pft_ffmt {
	uint8_t tpiu;
	uint8_t fsync_period;

	/* The open frame: slots below @pos are written, @pos is even. */
	uint8_t frame[FRAME_SIZE];
	unsigned pos;
	uint8_t aux;
	uint8_t frame_has_id;

	uint8_t cur_id;            /* the ID a deformatter is at; 0 = none */
	uint8_t pending;           /* @pending_byte (of @cur_id) waits for slot @pos */
	uint8_t pending_byte;

	unsigned frames_without_id;
	uint64_t frames;           /* frames finished */

	/* Finished output: bytes [out_head, out_len) of out. */
	uint8_t *out;
	size_t out_head, out_len, out_cap;
};

struct pft_ffmt *pft_ffmt_alloc(const struct pft_ffmt_config *cfg, int *errcode)
{
	struct pft_ffmt *f = NULL;
	int err = 0;

	if (cfg && cfg->size < offsetof(struct pft_ffmt_config, fsync_period) + 1)
		err = -PFT_ERR_INVALID;
	else if (!(f = calloc(1, sizeof(*f))))
		err = -PFT_ERR_NOMEM;
	if (errcode)
		*errcode = err;
	if (err)
		return NULL;
	if (cfg) {
		f->tpiu = !!cfg->tpiu;
		f->fsync_period = cfg->fsync_period;
	}
	if (!f->fsync_period)
		f->fsync_period = DEFAULT_FSYNC_PERIOD;
	return f;
}

void pft_ffmt_free(struct pft_ffmt *f)
{
	if (!f)
		return;
	free(f->out);
	free(f);
}

/* Make room for @frames more finished frames (and their FSYNCs). */
static int reserve_frames(struct pft_ffmt *f, size_t frames)
{
	size_t need, cap;
	uint8_t *p;

	if (frames > (SIZE_MAX / 2 - f->out_len) / (FRAME_SIZE + FSYNC_SIZE))
		return -PFT_ERR_NOMEM;
	need = frames * (FRAME_SIZE + FSYNC_SIZE);
	if (f->out_head && f->out_cap - f->out_len < need) {
		/* Move the untaken bytes down before growing. */
		memmove(f->out, f->out + f->out_head, f->out_len - f->out_head);
		f->out_len -= f->out_head;
		f->out_head = 0;
	}
	if (f->out_cap - f->out_len >= need)
		return 0;
	cap = f->out_cap ? f->out_cap : 256;
	while (cap - f->out_len < need)
		cap *= 2;
	p = realloc(f->out, cap);
	if (!p)
		return -PFT_ERR_NOMEM;
	f->out = p;
	f->out_cap = cap;
	return 0;
}

/* Slot 14 is written: complete the frame (room was reserved). */
static void finish_frame(struct pft_ffmt *f)
{
	f->frame[FRAME_SIZE - 1] = f->aux;
	if (f->tpiu && f->frames % f->fsync_period == 0) {
		memcpy(f->out + f->out_len, fsync, FSYNC_SIZE);
		f->out_len += FSYNC_SIZE;
	}
	memcpy(f->out + f->out_len, f->frame, FRAME_SIZE);
	f->out_len += FRAME_SIZE;
	f->frames++;
	f->frames_without_id = f->frame_has_id ? 0 : f->frames_without_id + 1;
	f->pos = 0;
	f->aux = 0;
	f->frame_has_id = 0;
}

/* Data in the even slot @pos: bits [7:1] there, bit 0 in aux. */
static void even_data(struct pft_ffmt *f, uint8_t b)
{
	f->frame[f->pos] = b & 0xfe;
	f->aux |= (uint8_t)((b & 1) << (f->pos >> 1));
}

/* An ID in the even slot @pos; @aux_prev: the next slot keeps the old ID. */
static void even_id(struct pft_ffmt *f, uint8_t id, unsigned aux_prev)
{
	f->frame[f->pos] = (uint8_t)(id << 1 | 1);
	f->aux |= (uint8_t)(aux_prev << (f->pos >> 1));
	f->frame_has_id = 1;
	f->cur_id = id;
}

/* Does a byte of @id need an ID slot first (a change, or a TPIU repeat)? */
static int needs_id(const struct pft_ffmt *f, uint8_t id)
{
	return id != f->cur_id ||
	       (f->tpiu && f->pos == 0 &&
		f->frames_without_id >= TPIU_ID_REPEAT - 1);
}

/* A byte of the current ID with nothing pending. */
static void put_same(struct pft_ffmt *f, uint8_t b)
{
	if (f->pos == LAST_SLOT) {
		even_data(f, b);
		finish_frame(f);
	} else {
		f->pending = 1;
		f->pending_byte = b;
	}
}

static void put_byte(struct pft_ffmt *f, uint8_t id, uint8_t b)
{
	if (f->pending) {
		f->pending = 0;
		if (id == f->cur_id) {
			even_data(f, f->pending_byte);
			f->frame[f->pos + 1] = b;
			f->pos += 2;
			return;
		}
		/* The aux-bit rule: the held byte follows the new ID but
		 * still belongs to the old one. */
		even_id(f, id, 1);
		f->frame[f->pos + 1] = f->pending_byte;
		f->pos += 2;
	}
	if (!needs_id(f, id)) {
		put_same(f, b);
		return;
	}
	even_id(f, id, 0);
	if (f->pos == LAST_SLOT) {
		/* An ID in slot 14 applies from the next frame. */
		finish_frame(f);
		put_same(f, b);
		return;
	}
	f->frame[f->pos + 1] = b;
	f->pos += 2;
}

int pft_ffmt_put(struct pft_ffmt *f, uint8_t id, const uint8_t *data,
		 size_t len)
{
	size_t i = 0;
	int err;

	if (!f || (!data && len) || id < 1 || id > PFT_ID_MAX_VALID)
		return -PFT_ERR_INVALID;
	/* Each frame takes at least 14 of these bytes (one slot may be a
	 * TPIU ID repeat); one more slot for the ID change, one pending. */
	err = reserve_frames(f, (len + 2) / 14 + 2);
	if (err)
		return err;

	while (i < len) {
		/* Fast path: pairs of the current ID into (even, odd) slots. */
		if (!f->pending && !needs_id(f, id)) {
			while (f->pos < LAST_SLOT && i + 1 < len) {
				even_data(f, data[i]);
				f->frame[f->pos + 1] = data[i + 1];
				f->pos += 2;
				i += 2;
			}
			if (i == len)
				break;
		}
		put_byte(f, id, data[i++]);
	}
	return 0;
}

int pft_ffmt_flush(struct pft_ffmt *f)
{
	int err;

	if (!f)
		return -PFT_ERR_INVALID;
	if (!f->pending && f->pos == 0)
		return 0;
	err = reserve_frames(f, 1);
	if (err)
		return err;

	if (f->pending) {
		f->pending = 0;
		even_id(f, PFT_ID_NULL, 1);
		f->frame[f->pos + 1] = f->pending_byte;
		f->pos += 2;
	} else {
		even_id(f, PFT_ID_NULL, 0);
		if (f->pos == LAST_SLOT) {
			finish_frame(f);
			return 0;
		}
		f->frame[f->pos + 1] = 0;
		f->pos += 2;
	}
	/* The rest is data of ID 0, which deformatters discard. */
	for (; f->pos < LAST_SLOT; f->pos += 2) {
		f->frame[f->pos] = 0;
		f->frame[f->pos + 1] = 0;
	}
	f->frame[LAST_SLOT] = 0;
	finish_frame(f);
	return 0;
}

int pft_ffmt_take(struct pft_ffmt *f, uint8_t *out, size_t cap)
{
	size_t n;

	if (!f || (!out && cap))
		return -PFT_ERR_INVALID;
	n = f->out_len - f->out_head;
	if (n > cap)
		n = cap;
	if (n > INT_MAX)
		n = INT_MAX;
	if (n)
		memcpy(out, f->out + f->out_head, n);
	f->out_head += n;
	if (f->out_head == f->out_len)
		f->out_head = f->out_len = 0;
	return (int)n;
}

size_t pft_ffmt_ready(const struct pft_ffmt *f)
{
	return f ? f->out_len - f->out_head : 0;
}
