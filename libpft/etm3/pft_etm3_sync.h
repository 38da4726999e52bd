/* pft_etm3_sync.h - what an ETMv3 packet or flow decoder carries from one
 * packet to the next, compactly, so that two decoders can be compared
 * (the parallel decode's hand-overs, core/pft_proto.h), as
 * core/pft_sync_state.h is for PTM.  Buffering and caches are left out;
 * unused bytes are zero, so that states compare with memcmp. */
#ifndef PFT_ETM3_SYNC_H
#define PFT_ETM3_SYNC_H

#include <stdint.h>

#include "pft.h"

struct etm3_pkt_sync_state {
	uint64_t ts_raw;
	uint32_t base_addr, data_addr;
	uint32_t zpend;
	uint8_t synced, base_isa, altis, zeros_behind, zprior;
};

struct etm3_flow_sync_state {
	uint64_t range_offset;
	uint32_t pc, ctxid, wpend;
	uint32_t range_start, range_last, range_end, range_prev_last, range_ninsn;
	uint32_t range_cycles, range_last_cycles;
	uint32_t queued;                         /* elements not yet taken */
	uint8_t state, started, pc_valid, indirect_pending, isa, ns, hyp, vmid;
	uint8_t ctx_known, vmid_known;
	uint8_t range_valid, range_isa, range_space, range_iclass;
};

void pft_etm3_pkt_sync_state(const struct pft_etm3_pkt_decoder *d,
			     struct etm3_pkt_sync_state *s);
void pft_etm3_flow_sync_state(const struct pft_etm3_flow *f, struct etm3_flow_sync_state *s);

#endif
