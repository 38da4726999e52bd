/* bench_ocsd.h - driving OpenCSD's PTM decoder from the benchmarks. */
#ifndef BENCH_OCSD_H
#define BENCH_OCSD_H

#include <opencsd/c_api/opencsd_c_api.h>

#include "bench_common.h"

/* A decode tree for one PTM with @cfg's registers, raw or (@formatted) in
 * CoreSight frames of a memory buffer, and a decoder made with @flags
 * (packet processor only, or full decoder). */
static inline dcd_tree_handle_t ocsd_tree_of(const struct pft_ptm_config *cfg, int flags,
					     int formatted, unsigned char *csid)
{
	dcd_tree_handle_t t = formatted
		? ocsd_create_dcd_tree(OCSD_TRC_SRC_FRAME_FORMATTED, OCSD_DFRMTR_FRAME_MEM_ALIGN)
		: ocsd_create_dcd_tree(OCSD_TRC_SRC_SINGLE, 0);
	ocsd_ptm_cfg pc = { .reg_idr = cfg->etmidr, .reg_ctrl = cfg->etmcr,
			    .reg_ccer = cfg->etmccer, .reg_trc_id = cfg->etmtraceidr,
			    .arch_ver = ARCH_V7, .core_prof = profile_CortexA };

	if (!t || ocsd_dt_create_decoder(t, OCSD_BUILTIN_DCD_PTM, flags, &pc, csid) != OCSD_OK) {
		fprintf(stderr, "bench: cannot set up OpenCSD\n");
		exit(2);
	}
	return t;
}

/* Instructions in ranges, as both decoders count them. */
struct counts {
	uint64_t ranges, insns;
};

/* OpenCSD callbacks that only count: packets (@ctx a uint64_t) and
 * instruction ranges (@ctx a struct counts). */
static inline ocsd_datapath_resp_t count_pkt(const void *ctx, const ocsd_datapath_op_t op,
					     const ocsd_trc_index_t index, const void *pkt)
{
	(void)index;
	(void)pkt;
	if (op == OCSD_OP_DATA)
		(*(uint64_t *)ctx)++;
	return OCSD_RESP_CONT;
}

static inline ocsd_datapath_resp_t count_elem(const void *ctx, const ocsd_trc_index_t index,
					      const uint8_t chan,
					      const ocsd_generic_trace_elem *elem)
{
	struct counts *c = (struct counts *)ctx;
	(void)index;
	(void)chan;
	if (elem->elem_type == OCSD_GEN_TRC_ELEM_INSTR_RANGE) {
		c->ranges++;
		c->insns += elem->num_instr_range;
	}
	return OCSD_RESP_CONT;
}

static inline dcd_tree_handle_t ocsd_tree(const struct pft_ptm_config *cfg, int flags,
					  unsigned char *csid)
{
	return ocsd_tree_of(cfg, flags, 0, csid);
}

/* Feed @len bytes that start at stream offset @index. */
static inline void ocsd_feed(dcd_tree_handle_t t, const uint8_t *buf, size_t len,
			     uint64_t index)
{
	size_t done = 0;

	while (done < len) {
		uint32_t chunk = len - done > (1u << 30) ? (1u << 30) : (uint32_t)(len - done);
		uint32_t used = 0;
		ocsd_datapath_resp_t r = ocsd_dt_process_data(t, OCSD_OP_DATA, index + done, chunk,
							      buf + done, &used);
		if (OCSD_DATA_RESP_IS_FATAL(r)) {
			fprintf(stderr, "bench: OpenCSD fatal error at %llu\n",
				(unsigned long long)(index + done));
			exit(2);
		}
		done += used;
	}
}

/* Feed the whole stream, end it, and free the tree. */
static inline void ocsd_run(dcd_tree_handle_t t, const uint8_t *buf, size_t len)
{
	ocsd_feed(t, buf, len, 0);
	ocsd_dt_process_data(t, OCSD_OP_EOT, 0, 0, NULL, NULL);
	ocsd_destroy_dcd_tree(t);
}

#endif
