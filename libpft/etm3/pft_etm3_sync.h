/* pft_etm3_sync.h - what an ETMv3 packet decoder carries from one packet
 * to the next, compactly, so that two decoders can be compared (the
 * parallel decode's hand-overs, core/pft_proto.h), as
 * core/pft_sync_state.h is for PTM; the flow decoders share theirs there.
 * Buffering and caches are left out; unused bytes are zero, so that states
 * compare with memcmp. */
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

void pft_etm3_pkt_sync_state(const struct pft_etm3_pkt_decoder *d,
			     struct etm3_pkt_sync_state *s);

#endif
