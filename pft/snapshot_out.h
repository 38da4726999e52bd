/* snapshot_out.h - write an OpenCSD snapshot directory (pft-flow.md 12)
 * for one PTM or ETMv3: its registers, its trace buffer and a core's memory. */
#ifndef PFT_SNAPSHOT_OUT_H
#define PFT_SNAPSHOT_OUT_H

#include <stdint.h>
#include <stdio.h>

#include "pft.h"

/* The file names inside the directory. */
#define SNAP_OUT_TRACE "trace.bin"

/* The registers of the modelled source (pft_ptm_config_to_regs(),
 * pft_etm3_config_to_regs()) and its synchronisation period. */
struct ptm_regs {
	struct pft_trace_regs regs;
	uint32_t etmsyncfr;
	int etm3;                /* an ETMv3.5 (Cortex-A7), not a PTM */
	const char *core;        /* the traced core's type ("Cortex-M4"); NULL:
				  * the Cortex-A7 of an ETMv3, the Cortex-A15
				  * or (PFTv1.0) Cortex-A9 of a PTM */
};

/* Create @dir (if needed) and open @dir/trace.bin for writing.  Returns
 * the file, or NULL after printing an error. */
FILE *snap_out_begin(const char *dir);

/* Write the .ini files (the trace source: a PTM or, with @regs->etm3, an
 * ETMv3, of core @regs->core) and one .bin file per section of @img.  The trace
 * buffer (frame-formatted, "coresight" format) must be in trace.bin.
 * Returns 0, or -1 after printing an error. */
int snap_out_finish(const char *dir, const struct ptm_regs *regs,
		    const struct pft_ptm_config *cfg, struct pft_image *img);

#endif
