/* pft_calls_int.h - the calls tracker as the views accumulator
 * (pft_views.c) drives it: without the public functions' checks (done
 * once per run by the caller) and without copying each event. */
#ifndef PFT_CALLS_INT_H
#define PFT_CALLS_INT_H

#include "pft.h"

/* pft_calls_put_run() with its arguments checked: non-NULL, @n from 1 to
 * INT32_MAX, @size large enough. */
int pft_calls_put_checked(struct pft_calls *c, const struct pft_elem *e, size_t n,
			  size_t size);

/* Element @i of a run whose elements are @size bytes apart. */
static inline const struct pft_elem *pft_elem_at(const struct pft_elem *e, size_t i, size_t size)
{
	return (const struct pft_elem *)(const void *)((const char *)e + i * size);
}

/* The next event, valid until the next put or finish; NULL when all
 * are taken. */
const struct pft_call_event *pft_calls_take(struct pft_calls *c);

#endif
