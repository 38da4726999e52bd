/* pft_etm3_detect.h - how cleanly a prefix reads as ETMv3 (detection). */
#ifndef PFT_ETM3_DETECT_H
#define PFT_ETM3_DETECT_H

#include <stddef.h>
#include <stdint.h>

#include "core/pft_detect_scan.h"

/* The best ETMv3 reading of @p over cycle-accurate mode and context ID
 * size, in *@best. */
void pft_etm3_detect_scan(const uint8_t *p, size_t n, struct pft_scan_counts *best);

#endif
