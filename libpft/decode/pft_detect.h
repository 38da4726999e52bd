/* pft_detect.h - detection internals shared by pft_detect.c, pft_detect_fit.c,
 * the pipeline and the parallel decode: the fit check's state. */
#ifndef PFT_INTERNAL_DETECT_H
#define PFT_INTERNAL_DETECT_H

#include <stddef.h>
#include <stdint.h>

#include "pft.h"
#include "ptm/pft_detect_ptm.h"

/* The packet types pft_fit_packet() counts; the others it only copies
 * into its prefix, so once PFT_DETECT_PREFIX bytes of packets are given
 * they need not be (the pipeline skips them: a call per atom or branch
 * was a fifth of `pft dump --count`).  Keep in step with its switch. */
#define PFT_FIT_COUNTED_TYPES                                                 \
	(1u << PFT_PTM_PKT_ASYNC | 1u << PFT_PTM_PKT_BAD | 1u << PFT_PTM_PKT_ISYNC |       \
	 1u << PFT_PTM_PKT_VMID | 1u << PFT_PTM_PKT_EXCEPTION_RETURN | 1u << PFT_PTM_PKT_TIMESTAMP)

/* A fit check (pft_detect_fit.c); here for the parallel decode, which
 * runs one per piece and adds the pieces' parts up. */
struct pft_fit {
	struct pft_ptm_config cfg;
	struct pft_image *image;
	uint8_t *prefix;
	size_t prefix_len;

	int synced, error_since_sync, flow_error_since_sync;
	uint32_t bad, asyncs, isyncs, errored_syncs;
	uint32_t flow_errors, nacc, flow_errored_syncs;
	int first_after_isync;
	uint32_t isync_ranges, nacc_after_isync;
	int have_ts;
	uint64_t last_ts;
	uint32_t ts_falls_binary, ts_falls_gray;
	uint32_t vmids, exc_returns, hyp_isyncs;
	/* The first flow error (not one after a bad packet): where. */
	int have_flow_error;
	uint64_t flow_error_offset;
	uint32_t flow_error_addr;
	uint8_t flow_error_reason;
	/* Set by pft_fit_verdict(): its evidence is conclusive by itself
	 * (pft_fit_sure()). */
	int sure;
};

/* Whether the last verdict of @fit may be reported: the evidence recurs
 * after several syncs (pft_fit_evident()), or the verdict is conclusive
 * on its own (another reading decodes cleanly where this one does not,
 * timestamps that fall one way and rise the other, flow contradicting an
 * image under a clean packet decode, flow with no image). */
int pft_fit_sure(const struct pft_fit *fit);

/* pft_fit_verdict(), as reported: PFT_FIT_OK unless pft_fit_sure();
 * quick when nothing went wrong at all. */
int pft_fit_report(struct pft_fit *fit, struct pft_fit_verdict *v, size_t size);

/* 1 when @a and @b count the same from here on, given the same packets
 * and elements (their counters may differ), else 0. */
int pft_fit_same_future(const struct pft_fit *a, const struct pft_fit *b);

/* Add to @into what @end saw after @start (a copy of @end's check taken
 * earlier; NULL: from its beginning), @into having reached that point:
 * the counters, the state, and the prefix bytes. */
void pft_fit_add_part(struct pft_fit *into, const struct pft_fit *end, const struct pft_fit *start);

#endif
