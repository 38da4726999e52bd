/* pft_merge.h - what the input (pft_input.c) asks of a merge beyond its
 * public functions (pft/decode.h, merge section). */
#ifndef PFT_MERGE_INT_H
#define PFT_MERGE_INT_H

#include <stdint.h>

#include "pft.h"

/*
 * pft_merge_put() of @item's elements or packets from @from on, stopping
 * after the one that fills the merge's window past its size: returns how
 * many it put (a GAP: 1), or pft_merge_put()'s codes.  Take what is ready
 * before putting the rest: so the window gives up at the same element
 * whatever the items' boundaries (the serial decode's batches, the
 * parallel one's records).
 */
int pft_merge_put_until_full(struct pft_merge *m, const struct pft_item *item, uint32_t from);

#endif
