/* snapshot_out.h - write an OpenCSD snapshot directory (pft-flow.md 12)
 * for PTMs and ETMv3s: their registers, their trace buffer and their cores'
 * memory. */
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

/* One trace source of the snapshot, with its core. */
struct snap_out_source {
	struct ptm_regs regs;
	const struct pft_ptm_config *cfg;   /* its options (the PFT version) */
	struct pft_image *img;              /* its core's memory */
};

/* Write the .ini files: @n trace sources (PTM_K, or with @regs.etm3 the
 * ETMv3 ETM_K, in ptm_K.ini or etm_K.ini), each with its core (cpu_K.ini,
 * one .bin file per section of its image), all writing to the one trace
 * buffer (frame-formatted, "coresight" format), which must be in
 * trace.bin; with @ts_frequency, trace.ini's [timestamp] frequency.
 * Returns 0, or -1 after printing an error. */
int snap_out_finish(const char *dir, const struct snap_out_source *src, size_t n,
		    uint64_t ts_frequency);

#endif
