/* pft_detect_ptm.h - one PTM packet-decoder pass over a trace prefix, as
 * detection and the fit check score a configuration by. */
#ifndef PFT_DETECT_PTM_H
#define PFT_DETECT_PTM_H

#include <stddef.h>
#include <stdint.h>

#include "pft.h"
#include "core/pft_trace_common.h"

/* What one PTM packet-decoder pass over a prefix saw. */
struct pft_ptm_detect_scan {
	uint32_t bad;           /* bad packets after the first A-sync */
	uint32_t implausible;   /* I-syncs with reserved bits set or a misaligned ARM address */
	uint32_t ctxid_jumps;   /* I-sync context IDs differing from the current one */
	uint32_t asyncs, isyncs;
	uint32_t timestamps, vmids, ctxids, exc_returns, hyp_isyncs;
	uint32_t ts_falls_binary, ts_falls_gray; /* consecutive timestamps that fall */
	uint64_t signature;     /* a hash of what the packets say: equal for two
				 * readings that decode the prefix alike */
};

/* Decode @buf[0..len) under @cfg.  Returns 0, -PFT_ERR_NOMEM or
 * -PFT_ERR_BAD_CONFIG. */
int pft_ptm_detect_scan(const uint8_t *buf, size_t len, const struct pft_ptm_config *cfg,
		    struct pft_ptm_detect_scan *scan);

/* Count a fall from timestamp @prev to @cur (both as sent, merged) under
 * the binary and the Gray reading: the right reading rises. */
static inline void detect_ts_falls(uint64_t prev, uint64_t cur, uint32_t *falls_binary,
				   uint32_t *falls_gray)
{
	*falls_binary += cur < prev;
	*falls_gray += trace_gray_to_binary(cur) < trace_gray_to_binary(prev);
}

/* The enum pft_detect_field bits only an image decides, when detection
 * ran with @image (may be NULL): all of them without code, else none.
 * One rule for every detection path (decode, dump, info). */
uint32_t pft_detect_needs_image(const struct pft_image *image);

/* The score the parse detection minimises. */
static inline uint32_t detect_ptm_score(const struct pft_ptm_detect_scan *s)
{
	return s->bad + s->implausible + s->ctxid_jumps;
}

#endif
