/*
 * pft/frames.h - CoreSight formatter frames: the deformatter (frames -> the bytes of
 * each trace ID, pft_dfmt_) and the formatter (per-ID bytes -> frames,
 * pft_ffmt_).
 *
 * Link with libpft (pkg-config libpft).  <pft.h> includes every header;
 * its head comment gives the conventions and the prefixes.
 */
#ifndef PFT_PUBLIC_FRAMES_H
#define PFT_PUBLIC_FRAMES_H

#include "pft/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================
 * Frames: CoreSight formatter frames (deformatter)
 * ====================================================================== */

/* Trace IDs with a special meaning. */
enum {
	PFT_ID_NULL = 0x00,     /* padding */
	PFT_ID_MAX_VALID = 0x6f /* 0x01-0x6f are sources; 0x70-0x7f reserved */
};

/*
 * What the deformatter delivers: the bytes of the source IDs 0x01-0x6f.
 * Data for ID 0x00 (padding), for the reserved IDs 0x70-0x7e and for no
 * ID at all (before the first ID byte, after a discontinuity or a bad
 * frame) is discarded.  An ID byte 0x7f (0xff) makes the frame bad.
 */
struct pft_dfmt_config {
	size_t size;            /* sizeof(struct pft_dfmt_config) */
	/* 0: memory buffer (ETB/ETF/ETR): frames from offset 0, no syncs;
	 *    a frame made of four FSYNCs (the Linux perf driver's marker
	 *    between buffer chunks) is a discontinuity.
	 * 1: trace-port capture (TPIU/DSTREAM): bytes up to the first FSYNC
	 *    (FF FF FF 7F, at any byte offset) are skipped; frames start
	 *    after it; FSYNCs between frames and HSYNCs (FF 7F) at any
	 *    16-bit aligned place are removed; four FSYNCs in a row are a
	 *    discontinuity. */
	uint8_t tpiu;
	uint8_t reserved[7];    /* must be zero */
};

enum pft_dfmt_chunk_flags {
	/* Four FSYNCs in a row (one frame): the capture is discontinuous
	 * here; per-ID decoders should be reset.  The chunk has no data
	 * (len 0, id 0); offset is that of the first of the FSYNCs.  The
	 * current ID is forgotten. */
	PFT_DFMT_DISCONTINUITY = 1 << 0
};

/* Bytes of one trace ID taken from one frame.  data[i] was at input
 * offset offset + i (its bit 0 may come from the auxiliary byte).
 * Offsets count every byte fed, syncs included.  A chunk ends at each
 * ID byte, at the end of the frame and at a removed HSYNC; the byte that
 * an ID change with auxiliary bit 1 leaves to the previous ID is a
 * chunk of its own. */
struct pft_dfmt_chunk {
	uint8_t id;
	uint8_t flags;          /* pft_dfmt_chunk_flags */
	const uint8_t *data;    /* valid until the next call on the deformatter */
	size_t len;
	uint64_t offset;
};

struct pft_dfmt;

/* Returns NULL on failure, with the error code in *@errcode if given
 * (-PFT_ERR_INVALID: @cfg->size too small, @cfg->tpiu not 0 or 1, or a
 * reserved byte not zero; -PFT_ERR_NOMEM). @cfg may be NULL (memory
 * buffer).  The deformatter never allocates afterwards. */
pft_export struct pft_dfmt *pft_dfmt_alloc(const struct pft_dfmt_config *cfg,
					   int *errcode);
pft_export void pft_dfmt_free(struct pft_dfmt *d);

/* Give the deformatter the next @len bytes of input (any size: an
 * incomplete frame is kept until the rest comes).  The buffer is
 * borrowed until pft_dfmt_next() returns -PFT_ERR_NEED_INPUT.  Returns 0,
 * -PFT_ERR_INVALID (NULL @d, NULL @buf with @len > 0, or the previous
 * buffer is not used up yet), or -PFT_ERR_EOS after pft_dfmt_finish(). */
pft_export int pft_dfmt_feed(struct pft_dfmt *d, const uint8_t *buf, size_t len);

/*
 * The next chunk, in @chunk (@size = sizeof *chunk).  Returns 0 and fills
 * @chunk; -PFT_ERR_NEED_INPUT when the fed input is used up;
 * -PFT_ERR_EOS after pft_dfmt_finish() once all is returned;
 * -PFT_ERR_TRUNCATED once, after finish, when the input ended inside a
 * frame (get_offset tells where; its bytes are dropped);
 * -PFT_ERR_BAD_FRAME for a frame that cannot be valid (an ID byte 0x7f;
 * in trace-port mode an FF FF pair inside a frame, or an FSYNC cut short):
 * get_offset gives the frame's offset, none of its bytes are delivered,
 * the current ID is forgotten and decoding goes on with the next frame
 * (trace-port mode: after the next FSYNC, searched from the FF FF pair);
 * -PFT_ERR_INVALID for NULL @d or @chunk, or @size < sizeof *chunk.
 * @chunk is only written when 0 is returned.
 */
pft_export int pft_dfmt_next(struct pft_dfmt *d, struct pft_dfmt_chunk *chunk,
			     size_t size);

/* No more input will come. Returns 0 or -PFT_ERR_INVALID. */
pft_export int pft_dfmt_finish(struct pft_dfmt *d);

/* Input offset of the frame being worked on (or of the last error);
 * 0 for NULL @d. */
pft_export uint64_t pft_dfmt_get_offset(const struct pft_dfmt *d);

/* frames: formatter */

/*
 * The formatter interleaves several sources' byte streams into 16-byte
 * CoreSight frames (pft-flow.md section 11).  Each ID change costs one
 * byte: when the previous source's last byte would take an ID-or-data slot,
 * the ID goes there with aux bit 1 and that byte moves to the following
 * data slot (it still belongs to the previous ID).
 *
 * Memory-buffer mode (ETB/ETF/ETR): frames only.  Trace-port mode (TPIU):
 * an FSYNC (`ff ff ff 7f`) before the first frame and then before every
 * @fsync_period-th frame, and the current ID repeated in a frame's first
 * slot when the previous 7 frames had no ID byte.  No HSYNCs.
 */
struct pft_ffmt_config {
	size_t size;            /* sizeof(struct pft_ffmt_config) */
	uint8_t tpiu;           /* 0: memory buffer, 1: trace port */
	uint8_t fsync_period;   /* TPIU: frames per FSYNC; 0 means 8 */
	uint8_t reserved[6];
};

struct pft_ffmt;

/* Returns NULL on failure, with the error code in *@errcode if given
 * (-PFT_ERR_INVALID: @cfg->size too small; -PFT_ERR_NOMEM). @cfg may be
 * NULL (memory buffer). */
pft_export struct pft_ffmt *pft_ffmt_alloc(const struct pft_ffmt_config *cfg,
					   int *errcode);
pft_export void pft_ffmt_free(struct pft_ffmt *f);

/* Append @len bytes of source @id (0x01-0x6f).  The bytes are copied.
 * Returns 0, -PFT_ERR_INVALID (NULL @f, NULL @data with @len > 0, or @id
 * out of range) or -PFT_ERR_NOMEM. */
pft_export int pft_ffmt_put(struct pft_ffmt *f, uint8_t id,
			    const uint8_t *data, size_t len);

/* Move up to @cap bytes of finished output (whole frames, with their
 * FSYNCs in TPIU mode; a small @cap may split a frame) to @out.  Returns
 * the number of bytes moved (0 when none is ready; at most INT_MAX) or
 * -PFT_ERR_INVALID (NULL @f, or NULL @out with @cap > 0). */
pft_export int pft_ffmt_take(struct pft_ffmt *f, uint8_t *out, size_t cap);

/* Bytes of finished output waiting for pft_ffmt_take() (0 for NULL @f). */
pft_export size_t pft_ffmt_ready(const struct pft_ffmt *f);

/* Finish the frame being built by padding it with ID 0 data (as an ETB
 * does when stopped), so that all bytes put so far can be taken.  Nothing
 * is added when no frame is open.  Returns 0, -PFT_ERR_INVALID or
 * -PFT_ERR_NOMEM. */
pft_export int pft_ffmt_flush(struct pft_ffmt *f);

#ifdef __cplusplus
}
#endif

#endif /* PFT_PUBLIC_FRAMES_H */
