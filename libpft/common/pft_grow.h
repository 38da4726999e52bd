/* pft_grow.h - growing arrays, for the modules that keep tables. */
#ifndef PFT_GROW_H
#define PFT_GROW_H

#include <stddef.h>

#include "pft.h"

/* Make *@arr (@elem-byte elements, room for *@cap) hold at least @need,
 * doubling.  Returns 0 or -PFT_ERR_NOMEM (*@arr unchanged). */
int pft_grow(void **arr, size_t *cap, size_t need, size_t elem);

#endif
