/* pft_etm3_config.h - ETMv3 helpers shared by the packet and flow decoders. */
#ifndef PFT_ETM3_INT_H
#define PFT_ETM3_INT_H

#include "pft.h"

/*
 * Copy a caller's ETMv3 configuration into @dst: the part @src->size
 * covers, defaults (pft_etm3_config_init) for the rest.  Returns 0,
 * -PFT_ERR_INVALID (NULL, or @src too short to hold the fields before
 * @reserved) or -PFT_ERR_BAD_CONFIG (ctxid_bytes not 0, 1, 2 or 4).
 */
int pft_etm3_config_copy(struct pft_etm3_config *dst, const struct pft_etm3_config *src);

#endif
