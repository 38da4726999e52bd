/* pft_merge.h - what the input (pft_input.c) asks of a merge beyond its
 * public functions (pft/decode.h, merge section). */
#ifndef PFT_MERGE_INT_H
#define PFT_MERGE_INT_H

#include <stdint.h>

#include "pft.h"

/* Whether @item's elements or packets fit the merge's window: put at
 * once, they go out as they would put one at a time (only a full window
 * gives up on what a source holds, and it would not fill in between). */
int pft_merge_fits(const struct pft_merge *m, const struct pft_item *item);

#endif
