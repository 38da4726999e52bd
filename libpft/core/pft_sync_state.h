/* pft_sync_state.h - what a PTM packet decoder, or a flow decoder of any
 * protocol, carries from one packet to the next, compactly, so that two
 * decoders can be compared (etm3/pft_etm3_sync.h: the ETMv3 packet
 * decoder's).
 *
 * The parallel decode (pft_par.c) starts a decoder afresh inside the
 * trace; at an I-sync both it and the decoder that came from the start
 * have the same future output only if these states are equal there.
 * Buffering (carried bytes, the input position) and caches are left out:
 * they change how, not what, a decoder decodes. */
#ifndef PFT_SYNC_STATE_H
#define PFT_SYNC_STATE_H

#include <stdint.h>

#include "pft.h"

struct pkt_sync_state {
	uint64_t ts_raw;
	uint32_t base_addr;
	uint8_t synced, base_isa, known_bits, isa_known, altis;
};

/* The return stack holds at most this many entries (core/pft_walk.h). */
enum { FLOW_SYNC_RS_MAX = 32 };

/* A flow decoder's state, the same for every protocol (core/pft_flow_core.h):
 * the core's synchronisation and context, its return stack, and @proto,
 * what the protocol's own decoder carries (0 where it carries nothing). */
struct flow_sync_state {
	uint32_t pc, ctxid;
	uint8_t state, started, pc_valid, isa, ns, hyp, vmid, ctx_known, vmid_known;
	uint8_t rs_count;
	uint32_t queued;                         /* elements not yet taken */
	struct {
		uint32_t addr;
		uint8_t isa;
	} rs[FLOW_SYNC_RS_MAX];                  /* newest first; rs_count used */
	uint32_t proto[12];                      /* what one protocol alone carries */
};

/* Write @d's (or @f's) state; unused bytes are zero, so that states
 * compare with memcmp. */
void pft_ptm_pkt_sync_state(const struct pft_ptm_pkt_decoder *d, struct pkt_sync_state *s);
void pft_ptm_flow_sync_state(const struct pft_ptm_flow *f, struct flow_sync_state *s);
void pft_etm3_flow_sync_state(const struct pft_etm3_flow *f, struct flow_sync_state *s);

/* Two states are equal (the decoders' outputs from here on are the same
 * for the same input) when memcmp() finds them equal, as the parallel
 * decode compares them through the protocol table's sizes. */

#endif
