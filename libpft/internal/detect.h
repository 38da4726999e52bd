/* detect.h - detection internals shared by the pft_detect*.c modules. */
#ifndef PFT_INTERNAL_DETECT_H
#define PFT_INTERNAL_DETECT_H

#include <stddef.h>
#include <stdint.h>

#include "pft.h"

/* What one PTM packet-decoder pass over a prefix saw. */
struct detect_ptm_scan {
	uint32_t bad;           /* bad packets after the first A-sync */
	uint32_t implausible;   /* I-syncs with reserved bits set or a misaligned ARM address */
	uint32_t ctxid_jumps;   /* I-sync context IDs differing from the current one */
	uint32_t asyncs, isyncs;
	uint32_t timestamps, vmids, ctxids, exc_returns, hyp_isyncs;
	uint32_t ts_falls_binary, ts_falls_gray; /* consecutive timestamps that fall */
};

/* Decode @buf[0..len) under @cfg.  Returns 0, -PFT_ERR_NOMEM or
 * -PFT_ERR_BAD_CONFIG. */
int detect_ptm_scan(const uint8_t *buf, size_t len, const struct pft_config *cfg,
		    struct detect_ptm_scan *scan);

/* The score the parse detection minimises. */
static inline uint32_t detect_ptm_score(const struct detect_ptm_scan *s)
{
	return s->bad + s->implausible + s->ctxid_jumps;
}

#endif
