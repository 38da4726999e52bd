/*
 * A fold: work a consumer of flow elements has done in the parallel
 * decode's workers (pft_par.c), on the elements of their pieces, so that
 * its own thread (the reader's) has less to do with them.  The consumer
 * makes it (pft_views_fold(), pft_calls_fold(), pft_listing_fold_alloc())
 * and the input hands it to the decode (pft_input_set_fold()).
 *
 * Each worker has its own state (@worker_alloc).  A worker folds only
 * where everything it writes will be read: from the start of the file,
 * or after a piece's last hand-over candidate, up to the piece's end;
 * before it leaves such a stretch it calls @close, so that what it
 * folded there comes out in the same stretch.
 */
#ifndef PFT_FOLD_H
#define PFT_FOLD_H

#include <stddef.h>

#include "pft.h"

/* Static: a worker's state may be freed after the fold's context. */
struct pft_fold_ops {
	/* A worker's state, or NULL when out of memory. */
	void *(*worker_alloc)(void *ctx);
	void (*worker_free)(void *w);
	/*
	 * Fold the @n elements at @in into @out (room for
	 * PFT_FOLD_OUT_MAX(@n)): returns how many it wrote.  It may hold
	 * the last ranges back for the next call or @close.  Negative:
	 * out of memory.
	 */
	int (*fold)(void *w, const struct pft_elem *in, size_t n, struct pft_elem *out);
	/* Whether the worker should @close soon (its tables fill up). */
	int (*full)(void *w);
	/* The elements it has folded so far: ranges joined to the one
	 * before, or counted and dropped; elements written as lines. */
	uint64_t (*folded)(const void *w);
	/*
	 * Write what is held back, then the counts (RANGE_COUNT elements),
	 * at most @room elements at @out: returns how many it wrote; call
	 * again while it returns @room.
	 */
	size_t (*close)(void *w, struct pft_elem *out, size_t room);
	/* It writes about as many elements as it is given (a listing's
	 * lines): its pieces are those of a decode without a fold. */
	int keeps_size;
	/*
	 * Optional, with @watch: whether worker @w lacks what only the
	 * reader's progress frees (a calls listing's logs), so that it would
	 * hand its elements over unfolded; it may first do work the reader
	 * made for any thread.  @ahead: its piece is ahead of the one the
	 * reader reads (which may then be left what is left).  A worker
	 * ahead then waits before its next batch, until the fold calls the
	 * wake-up that @watch gave it, or the reader reaches its piece.
	 */
	int (*blocked)(void *w, int ahead);
	/* The decode's wake-up: the fold calls @wake(@arg) from then on,
	 * from any thread, under its own locks too (the decode calls no op
	 * that takes them while it holds its own); NULL once the decode's
	 * threads have stopped. */
	void (*watch)(void *ctx, void (*wake)(void *arg), void *arg);
};

/* The most elements a fold writes for @n (a stack's state with its frames
 * among them: pft_views_fold.c), and what @close is given at least. */
enum { PFT_FOLD_EXTRA = 72 };
#define PFT_FOLD_OUT_MAX(n) (3 * (size_t)(n) + PFT_FOLD_EXTRA)

struct pft_fold {
	const struct pft_fold_ops *ops;
	void *ctx;
};

#endif
