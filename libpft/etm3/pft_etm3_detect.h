/* pft_etm3_detect.h - how cleanly a prefix reads as ETMv3 (detection). */
#ifndef PFT_ETM3_DETECT_H
#define PFT_ETM3_DETECT_H

#include <stddef.h>
#include <stdint.h>

#include "core/pft_detect_scan.h"

/* The best ETMv3 reading of @p over cycle-accurate mode and context ID
 * size, in *@best. */
void pft_etm3_detect_scan(const uint8_t *p, size_t n, struct pft_scan_counts *best);

/* The reading of @p as the ETM of an M-profile core (the alternative
 * branch encoding, no cycle-accurate mode, no context ID), in *@c: its
 * packets have the lengths of PFT's, so it reads as cleanly as a PTM. */
void pft_etm3_detect_scan_m(const uint8_t *p, size_t n, struct pft_scan_counts *c);

#endif
