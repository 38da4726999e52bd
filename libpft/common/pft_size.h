/* Size-prefixed structs (pft.h, "Conventions"): a caller built against an
 * older pft.h passes the size of its own, shorter struct. */
#ifndef PFT_SIZE_H
#define PFT_SIZE_H

#include <stddef.h>
#include <string.h>

/* The smallest size accepted for a struct with reserved bytes: its first
 * layout, which ends where those bytes begin (later fields take their
 * place or come after them).  A struct without them has only one layout. */
#define PFT_FIRST_SIZE(type) offsetof(type, reserved)

/* Copy the bytes both the caller (@theirs) and the library (@ours) know. */
static inline void pft_copy_known(void *dst, const void *src, size_t theirs, size_t ours)
{
	memcpy(dst, src, theirs < ours ? theirs : ours);
}

#endif
