/* pft_par.h - the parallel decode of one source's trace file, raw or a
 * formatted memory buffer (pft_par.c), as pft_input.c drives it. */
#ifndef PFT_PAR_H
#define PFT_PAR_H

#include <stddef.h>
#include <stdint.h>

#include "pft.h"
#include "decode/pft_fold.h"

struct par;

struct par_config {
	const char *path;          /* a regular file, read with pread() */
	uint64_t length;           /* its size */
	uint8_t protocol;          /* enum pft_protocol of the source */
	const void *proto_cfg;     /* its configuration (borrowed) */
	struct pft_ptm_config cfg;     /* PTM: the same, for the fit checks */
	struct pft_image *image;   /* borrowed; read from every thread */
	uint8_t packets, elements, fit_check, runs;   /* as pft_input_config */
	/* Count in the workers (pft_input_count()): pft_par_next() then returns
	 * only the BAD packets (with @packets), and pft_par_total() the counts. */
	uint8_t count_only;
	unsigned threads;          /* worker threads, >= 2 */
	uint32_t piece_size;       /* bytes of trace per piece, > 0 (frames: a
				      multiple of 16) */
	/* A thread that comes to its piece's end before the next piece is
	 * begun decodes that one too, rather than wait (which pieces are
	 * absorbed then depends on the threads' timing). */
	uint8_t absorb_unbegun;
	/* CoreSight frames of a memory buffer (PFT_PIPE_FORMATTED), of which
	 * the bytes of trace ID @trace_id are decoded, the others ignored. */
	uint8_t frames, trace_id;
	/* The serial decode's feeds: from offset 0, this many bytes each
	 * (raw: unsynchronised bytes come back in NOTSYNC packets that end
	 * where a feed does, so the pieces' feeds end there too). */
	uint32_t feed_block;
	/* Called (NULL: not) after each batch the reader takes, from its
	 * thread: progress (pft_par_position()). */
	void (*progress)(void *ctx);
	void *progress_ctx;
	/* Run on the elements in the workers (pft_fold.h; borrowed); NULL:
	 * none.  Only with @elements and @runs, without @packets. */
	const struct pft_fold *fold;
};

/* 1 when the parallel decode takes a source of @protocol, raw or (@frames)
 * in a formatted buffer. */
int pft_par_protocol_ok(unsigned protocol, int frames);

/* The bytes per piece for @threads workers when the caller gives none: a
 * piece's records must fit in its share of the memory the records may
 * take.  Counting only (@count_only), there are next to none; with a fold
 * that folds (@fold), up to about 16 bytes per byte of trace; else 30 to
 * 60. */
uint32_t pft_par_piece_size(unsigned threads, int count_only, int fold);

/* Start decoding @c's file in pieces: *@out is the decode, or NULL when
 * the file is too small to split (fewer than two pieces).  Returns 0,
 * -PFT_ERR_NOMEM, or -PFT_ERR_INVALID (a thread could not be started). */
int pft_par_alloc(const struct par_config *c, struct par **out);
/* Stops the threads and frees everything.  NULL: no-op. */
void pft_par_free(struct par *p);

/* The next item, in trace order, as pft_pipe_next() would return it from
 * the whole file (item->source is 0); -PFT_ERR_EOS at the end, or an
 * error (pft_par_error() says which file and offset). */
int pft_par_next(struct par *p, struct pft_item *item, size_t size);
const struct pft_diag *pft_par_error(const struct par *p);

/* The source's counts and fit verdict over the items returned so far. */
void pft_par_source_stats(const struct par *p, struct pft_pipe_stats *st);
int pft_par_fit(const struct par *p, struct pft_fit_verdict *v, size_t size);
void pft_par_counts(struct par *p, struct pft_input_parallel *st);
/* Frames: the data bytes of trace ID @id in the pieces passed (the whole
 * buffer at the end), as pft_pipe_id_bytes() counts them. */
uint64_t pft_par_id_bytes(const struct par *p, unsigned id);
/* The bytes of the file before the piece being read: how far the items
 * returned have got (the reader's thread only). */
uint64_t pft_par_position(const struct par *p);
/* With count_only: the counts of the items returned so far (all of them
 * at the end). */
void pft_par_total(const struct par *p, struct pft_input_counts *c);

#endif
