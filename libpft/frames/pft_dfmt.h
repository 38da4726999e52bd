/* pft_dfmt.h - deformatter internals shared inside libpft (and its tests). */
#ifndef PFT_INTERNAL_DFMT_H
#define PFT_INTERNAL_DFMT_H

#include <stdint.h>

#include "pft.h"

/* The current ID before any ID byte, and after an FSYNC frame or a frame
 * with ID 0x7f: data bytes with it are discarded. */
#define PFT_DFMT_ID_NONE 0xff

/* Data bytes discarded because their ID is reserved (0x70-0x7e); 0 for
 * NULL @d.  Padding (ID 0) and bytes with no ID yet are not counted. */
uint64_t pft_dfmt_reserved_bytes(const struct pft_dfmt *d);

/* Memory buffers, decoded from the middle (the parallel decode): what
 * the 16-byte frame @f leaves as the current ID, in *@id, with 1; 0 when
 * it has no ID byte (the current ID stays). */
int pft_dfmt_frame_id(const uint8_t *f, uint8_t *id);

/* Start memory-mode deformatter @d afresh at the frame at input offset
 * @offset (its next feed's first byte) with current ID @id, as if the
 * frames before it had been decoded. */
void pft_dfmt_start_at(struct pft_dfmt *d, uint64_t offset, uint8_t id);

/* The ID of @d's next data byte (PFT_DFMT_ID_NONE: none yet). */
uint8_t pft_dfmt_current_id(const struct pft_dfmt *d);

#endif
