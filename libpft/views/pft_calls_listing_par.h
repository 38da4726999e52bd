/* pft_calls_listing_par.h - the calls listing of a parallel decode
 * (pft_calls_listing_fold(), pft_calls_listing_par.c), and what it uses
 * of the listing (pft_calls_listing.c). */
#ifndef PFT_CALLS_LISTING_PAR_H
#define PFT_CALLS_LISTING_PAR_H

#include "pft.h"

struct listing_par;

/* pft_calls_listing.c: the lines of the @n events at @ev but those @sel
 * leaves out; returns the writer's first error. */
int pft_calls_listing_events(struct pft_calls_listing *l, const struct pft_call_event *ev,
			     size_t n, const struct pft_select *sel, const struct pft_image *image,
			     int id, int cpu);
const struct pft_calls_listing_config *pft_calls_listing_config(const struct pft_calls_listing *l);
/* Where @l's lines go from now on. */
void pft_calls_listing_set_writer(struct pft_calls_listing *l,
				  int (*write)(void *ctx, const char *buf, size_t len), void *ctx);
/* What @l holds, to its writer: 0 or the writer's first error. */
int pft_calls_listing_flush_buffer(struct pft_calls_listing *l);
/* @l's lines made in place (@sink NULL: in @l's own buffer, to its
 * writer): at each flush, @sink(@ctx, @len) takes the @len bytes made at
 * the place it gave last and gives the next, with room for
 * CALLS_LISTING_ROOM; the listing's writer appends what does not fit
 * there, at that place.  Returns 0 or -PFT_ERR_NOMEM (no place). */
enum { CALLS_LISTING_ROOM = (1 << 16) + 1024 };
int pft_calls_listing_set_sink(struct pft_calls_listing *l,
			       char *(*sink)(void *ctx, size_t len), void *ctx);
/* @l's parallel part, NULL until made. */
struct listing_par **pft_calls_listing_par(struct pft_calls_listing *l);

/* pft_calls_listing_par.c: every piece's lines written, in order, after
 * those the listing wrote before them (the listing's buffer flushed
 * first): 0 or the first error. */
int pft_listing_par_drain(struct listing_par *p);
void pft_listing_par_free(struct listing_par *p);

#endif
