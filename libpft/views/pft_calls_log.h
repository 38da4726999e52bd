/* pft_calls_log.h - a piece of the trace's calls, made by a tracker that
 * does not know the stack at the piece's start, and made exact once it is
 * known: the calls listing's work split over the parallel decode's
 * threads (pft_calls_log.c says how).
 *
 * Use: pft_calls_log_put() the piece's elements in order with a worker's
 * tracker (most of the work), pft_calls_log_end(); then, with the tracker
 * that took every element before the piece, pft_calls_log_stitch() (the
 * serial part, which looks only at what the worker could not settle and
 * leaves that tracker as if it had taken the piece), then
 * pft_calls_log_replay() (the piece's events, field by field those the
 * tracker would have made, in order; any thread), then
 * pft_calls_log_reset() for the next piece. */
#ifndef PFT_CALLS_LOG_H
#define PFT_CALLS_LOG_H

#include "pft.h"

struct calls_log;

/* An empty log that is full at @size events and items (0: never; its
 * events' memory taken at once), or NULL when out of memory. */
struct calls_log *pft_calls_log_alloc(size_t size);
void pft_calls_log_free(struct calls_log *l);
/* Empty, for the next piece. */
void pft_calls_log_reset(struct calls_log *l);
/* The next @n elements of the piece, up to an ERROR element (which the
 * caller counts: it gives it to the tracker that has the whole stack
 * after stitching the log, as the start of the next) or until the log is
 * full (pft_calls_log_full(): the next log goes on), taken by worker's
 * tracker @w (of the image and stack limit of the whole tracker; any
 * state, as it starts again after the log's first range): returns how
 * many it took, or -PFT_ERR_NOMEM (or the tracker's codes for a malformed
 * element: the log is then unusable until reset). */
int pft_calls_log_put(struct calls_log *l, struct pft_calls *w, const struct pft_elem *e,
		      size_t n);
/* The piece ends: what @w did to the stack since its last start, as the
 * log's last items.  Returns 0 or -PFT_ERR_NOMEM (which the stitch
 * returns too). */
int pft_calls_log_end(struct calls_log *l, const struct pft_calls *w);
/* Tracker @c, which took every element before the piece (with the same
 * image and stack limit), takes the piece (ended): 0, -PFT_ERR_INVALID
 * (not ended), or the tracker's codes. */
int pft_calls_log_stitch(struct calls_log *l, struct pft_calls *c);
/* After the stitch, the piece's events in order, some at a time to
 * @on_events, whose non-zero return ends the replay with it. */
int pft_calls_log_replay(const struct calls_log *l,
			 int (*on_events)(void *ctx, const struct pft_call_event *ev, size_t n),
			 void *ctx);
/* The events the worker's tracker made of the piece (the rest the stitch
 * makes). */
size_t pft_calls_log_made(const struct calls_log *l);
/* Whether it holds its size's events and items: it takes no more. */
int pft_calls_log_full(const struct calls_log *l);

#endif
