/* pft_config_int.h - configuration helpers shared inside libpft. */
#ifndef PFT_CONFIG_INT_H
#define PFT_CONFIG_INT_H

#include "pft.h"

/*
 * Copy a caller's configuration into @dst: the part @src->size covers,
 * defaults (pft_ptm_config_init) for the rest.  Returns 0, -PFT_ERR_INVALID
 * (NULL, or @src too short to hold the fields before @reserved) or
 * -PFT_ERR_BAD_CONFIG (ctxid_bytes not 0, 1, 2 or 4).
 */
int pft_ptm_config_copy(struct pft_ptm_config *dst, const struct pft_ptm_config *src);

#endif
