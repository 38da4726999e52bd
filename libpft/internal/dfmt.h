/* dfmt.h - deformatter internals shared inside libpft (and its tests). */
#ifndef PFT_INTERNAL_DFMT_H
#define PFT_INTERNAL_DFMT_H

#include <stdint.h>

#include "pft.h"

/* Data bytes discarded because their ID is reserved (0x70-0x7e); 0 for
 * NULL @d.  Padding (ID 0) and bytes with no ID yet are not counted. */
uint64_t pft_dfmt_reserved_bytes(const struct pft_dfmt *d);

#endif
