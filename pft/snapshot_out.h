/* snapshot_out.h - write an OpenCSD snapshot directory (pft-flow.md 12)
 * for one PTM or ETMv3: its registers, its trace buffer and a core's memory. */
#ifndef PFT_SNAPSHOT_OUT_H
#define PFT_SNAPSHOT_OUT_H

#include <stdint.h>
#include <stdio.h>

#include "pft.h"

/* The file names inside the directory. */
#define SNAP_OUT_TRACE "trace.bin"

/* The PTM registers that describe @cfg (trace ID from @trace_id). */
struct ptm_regs {
	uint32_t etmcr, etmccer, etmidr, etmtraceidr, etmsyncfr;
	int etm3;                /* an ETMv3.5 (Cortex-A7), not a PTM */
};
void ptm_regs_from_config(struct ptm_regs *r, const struct pft_config *cfg,
			  uint8_t trace_id, uint32_t sync_period);
/* The same for an ETMv3.5 of a Cortex-A7 with the options of @cfg that
 * ETMv3 has (cycle-accurate, context ID, timestamps, VMID, branch
 * broadcast). */
void etm3_regs_from_config(struct ptm_regs *r, const struct pft_config *cfg,
			   uint8_t trace_id, uint32_t sync_period);

/* Create @dir (if needed) and open @dir/trace.bin for writing.  Returns
 * the file, or NULL after printing an error. */
FILE *snap_out_begin(const char *dir);

/* Write the .ini files (the trace source: a PTM or, with @regs->etm3, an
 * ETMv3) and one .bin file per section of @img.  The trace
 * buffer (frame-formatted, "coresight" format) must be in trace.bin.
 * Returns 0, or -1 after printing an error. */
int snap_out_finish(const char *dir, const struct ptm_regs *regs,
		    const struct pft_config *cfg, struct pft_image *img);

#endif
