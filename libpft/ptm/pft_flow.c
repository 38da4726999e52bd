/*
 * Flow decoder: packets of one trace source + program image -> executed
 * instruction ranges (shared/spec/pft-flow.md sections 3-9).
 *
 * What every protocol's flow decoder shares (synchronisation, context,
 * the element queue) is core/pft_flow_core.h; the image walk from
 * waypoint to waypoint, with its block cache, and the return stack are
 * core/pft_walk.h.  Here: what PTM's packets do (atoms on waypoints,
 * branch addresses, waypoint updates, the return stack's E atoms).
 *
 * Elements are written to f->c.out: the decoder's own queue for
 * pft_ptm_flow_put(), the caller's array for pft_ptm_flow_decode().
 */
#include <stdlib.h>
#include <string.h>

#include "pft.h"
#include "ptm/pft_config_int.h"
#include "core/pft_flow_core.h"
#include "core/pft_walk.h"

struct pft_ptm_flow {
	struct pft_flow_core c;  /* first: the core's functions take it */
	struct pft_ptm_config cfg;
	struct pft_walk walk;
	struct pft_retstack rs;
	struct pft_walk_cache cache;
};

static const struct pft_flow_ops ptm_ops;

static int ptm_init(struct pft_flow_core *c, const void *cfg, struct pft_image *image)
{
	struct pft_ptm_flow *f = (struct pft_ptm_flow *)c;
	int err = pft_ptm_config_copy(&f->cfg, cfg);

	f->walk.image = image;
	f->walk.isa_flags = f->cfg.dmb_dsb_waypoints ? PFT_ISA_DMB_DSB_WAYPOINTS : 0;
	return err;
}

static void ptm_reset(struct pft_flow_core *c)
{
	pft_retstack_clear(&((struct pft_ptm_flow *)c)->rs);
}

static void report_error(struct pft_ptm_flow *f, uint64_t offset, enum pft_error_code why)
{
	pft_flow_core_error(&f->c, offset, why);
}

/* A RANGE of @ninsn instructions @start .. @last (@end just past it). */
static struct pft_elem *push_range(struct pft_ptm_flow *f, uint64_t offset, uint32_t start,
				   uint32_t last, uint32_t end, uint32_t ninsn, uint8_t isa)
{
	return pft_flow_core_range(&f->c, offset, start, last, end, ninsn, isa,
				   (uint8_t)pft_flow_core_space(&f->c));
}

/*
 * Walk from the PC to the next waypoint and emit its range.  Returns the
 * block (with the PC at its last instruction), or NULL after reporting why
 * no waypoint was reached (the PC is then invalid).
 */
static const struct pft_walk_block *walk_to_waypoint(struct pft_ptm_flow *f, uint64_t offset,
						     int taken, const struct pft_ptm_packet *pkt)
{
	const enum pft_mem_space space = pft_flow_core_space(&f->c);
	const struct pft_walk_block *b = pft_walk_get(&f->walk, &f->cache, f->c.pc, f->c.isa,
						      space);

	if (__builtin_expect(b->special, 0)) {
		if (b->nacc) {
			/* Report what ran (if anything), then where memory ran
			 * out; the packet's cycle count goes on the last of
			 * them so that the running total stays right. */
			struct pft_elem *e;
			if (b->ninsn)
				push_range(f, offset, b->start, b->last,
					   b->last + b->last_size, b->ninsn, b->isa);
			e = pft_flow_core_push(&f->c, PFT_ELEM_ADDR_NACC, offset);
			e->addr = b->nacc_addr;
			if (pkt->has_cycles) {
				e->has_cycles = 1;
				e->cycles = pkt->cycles;
			}
		} else {
			report_error(f, offset, b->bad_isa ? PFT_ERR_FLOW_BAD_INSN
							   : PFT_ERR_FLOW_NO_WAYPOINT);
		}
		f->c.pc_valid = 0;
		return NULL;
	}
	/* push_range(), written once with the rest (most elements). */
	f->c.out[f->c.nout++] = (struct pft_elem){
		.offset = offset, .type = PFT_ELEM_RANGE, .start = b->start, .last = b->last,
		.end = b->last + b->last_size, .ninsn = b->ninsn, .isa = b->isa,
		.space = (uint8_t)space, .taken = (uint8_t)taken, .iclass = b->iclass,
		.has_cycles = pkt->has_cycles, .cycles = pkt->has_cycles ? pkt->cycles : 0 };
	f->c.insns += b->ninsn;
	return b;
}

static void apply_atom(struct pft_ptm_flow *f, const struct pft_ptm_packet *pkt, int executed)
{
	const struct pft_walk_block *b = walk_to_waypoint(f, pkt->offset, executed, pkt);

	if (!b)
		return;
	uint32_t next = b->last + b->last_size;

	switch (b->kind) {
	case PFT_WP_DIRECT:
		if (!executed) {
			f->c.pc = next;
			return;
		}
		if (b->link && f->cfg.return_stack)
			pft_retstack_push(&f->rs, next, b->isa);
		f->c.pc = b->target;
		f->c.isa = b->target_isa;
		return;
	case PFT_WP_INDIRECT: {
		if (!executed) {
			f->c.pc = next;
			return;
		}
		/* An E atom on an indirect branch: the PTM matched the top of
		 * its return stack (pft-flow.md 5.1). */
		if (!f->cfg.return_stack) {
			report_error(f, pkt->offset, PFT_ERR_FLOW_INDIRECT_ATOM);
			f->c.pc_valid = 0;
			return;
		}
		uint32_t addr;
		uint8_t isa;
		if (pft_retstack_pop(&f->rs, &addr, &isa)) {
			report_error(f, pkt->offset, PFT_ERR_FLOW_RETSTACK_EMPTY);
			f->c.pc_valid = 0;
			return;
		}
		if (b->link)
			pft_retstack_push(&f->rs, next, b->isa);
		f->c.pc = addr;
		f->c.isa = isa;
		return;
	}
	default:
		/* ISB (and DMB/DSB when they are waypoints): no change of flow. */
		f->c.pc = next;
		return;
	}
}

/* An I-sync (after the first A-sync). */
static void ptm_isync(struct pft_flow_core *c, const void *p)
{
	struct pft_ptm_flow *f = (struct pft_ptm_flow *)c;
	const struct pft_ptm_packet *pkt = p;
	const int first = f->c.state != PFT_FLOW_DECODE;
	struct pft_elem *e = pft_flow_core_trace_on(&f->c, first, pkt->offset, pkt->reason);

	if (e) {
		/* From PFTv1.1 the count of an overflow or debug-exit I-sync
		 * is UNKNOWN (pft-protocol.md 5.2, pft-flow.md 8). */
		int unknown = f->cfg.version_minor >= 1 &&
			      (pkt->reason == PFT_ISYNC_OVERFLOW ||
			       pkt->reason == PFT_ISYNC_DEBUG_EXIT);
		if (pkt->has_cycles && !unknown) {
			e->has_cycles = 1;
			e->cycles = pkt->cycles;
		}
		/* A discontinuity: the return stack no longer matches the
		 * PTM's (pft-flow.md 3, A16: kept over periodic I-syncs). */
		f->rs.count = 0;
	}
	uint8_t changed = pft_flow_core_isync(&f->c, first, pkt->addr, pkt->isa, pkt->ns,
					      pkt->hyp, pkt->has_ctxid, pkt->ctxid);
	if (changed)
		pft_flow_core_context(&f->c, pkt->offset, changed);
}

static void apply_branch(struct pft_ptm_flow *f, const struct pft_ptm_packet *pkt)
{
	if (pkt->exception) {
		/* An exception: no atom, no instruction (pft-flow.md 5.3). */
		struct pft_elem *e = pft_flow_core_exception(&f->c, pkt->offset, pkt->exception,
							     f->c.pc_valid, f->c.pc);
		if (pkt->has_cycles) {
			e->has_cycles = 1;
			e->cycles = pkt->cycles;
		}
	} else if (f->c.pc_valid) {
		/* An ordinary branch implies one E atom; never a pop. */
		const struct pft_walk_block *b = walk_to_waypoint(f, pkt->offset, 1, pkt);
		if (b && b->link && f->cfg.return_stack)
			pft_retstack_push(&f->rs, b->last + b->last_size, b->isa);
	}
	pft_flow_core_branch(&f->c, pkt->addr, pkt->isa);
	if (pkt->exc_bytes) {
		uint8_t changed = pft_flow_core_security(&f->c, pkt->ns,
							 pkt->exc_bytes > 1 ? pkt->hyp : f->c.hyp);
		if (changed)
			pft_flow_core_context(&f->c, pkt->offset, changed);
	}
	/* Debug-state entry carries no meaningful address: wait for the
	 * I-sync that follows the exit from Debug state. */
	if (pkt->exception == PFT_EXC_DEBUG_HALT)
		f->c.pc_valid = 0;
}

/* Everything from the PC up to and including @pkt->addr executed, with no
 * waypoint before it (pft-flow.md 5.4). */
static void apply_waypoint_update(struct pft_ptm_flow *f, const struct pft_ptm_packet *pkt)
{
	struct pft_walk_span s;

	if (!f->c.pc_valid)
		return;
	if (f->c.isa != PFT_ISA_ARM && f->c.isa != PFT_ISA_THUMB) {
		report_error(f, pkt->offset, PFT_ERR_FLOW_BAD_INSN);
		f->c.pc_valid = 0;
		return;
	}
	switch (pft_walk_to(&f->walk, f->c.pc, f->c.isa, pft_flow_core_space(&f->c), pkt->addr,
			    &s)) {
	case PFT_WALK_REACHED:
		push_range(f, pkt->offset, f->c.pc, s.last, s.end, s.ninsn, f->c.isa)->iclass =
			s.iclass;
		f->c.pc = s.end;
		return;
	case PFT_WALK_NACC:
		if (s.ninsn)
			push_range(f, pkt->offset, f->c.pc, s.last, s.end, s.ninsn, f->c.isa);
		pft_flow_core_push(&f->c, PFT_ELEM_ADDR_NACC, pkt->offset)->addr = s.end;
		break;
	default:
		report_error(f, pkt->offset, PFT_ERR_FLOW_WP_UPDATE_PAST);
		break;
	}
	f->c.pc_valid = 0;
}

/* Packets from pft_ptm_pkt_next() always pass; a hand-made one that does not
 * could overflow the element queue. */
static inline int ptm_in_range(const struct pft_ptm_packet *pkt)
{
	return pkt->type < PFT_PTM_PKT_TYPE_MAX && pkt->n_atoms <= 5 && pkt->isa <= PFT_ISA_UNKNOWN;
}

static int ptm_check(const void *pkt, size_t size)
{
	return size >= sizeof(struct pft_ptm_packet) && ptm_in_range(pkt) ? 0 : -PFT_ERR_INVALID;
}

/* The packets PTM applies itself while decoding. */
static void ptm_apply(struct pft_flow_core *c, const void *p)
{
	struct pft_ptm_flow *f = (struct pft_ptm_flow *)c;
	const struct pft_ptm_packet *pkt = p;

	switch (pkt->type) {
	case PFT_PTM_PKT_ATOM:
		for (unsigned i = 0; i < pkt->n_atoms && f->c.pc_valid; i++)
			apply_atom(f, pkt, (pkt->atoms >> i) & 1);
		break;
	case PFT_PTM_PKT_BRANCH:
		apply_branch(f, pkt);
		break;
	case PFT_PTM_PKT_TIMESTAMP: {
		struct pft_elem *e = pft_flow_core_timestamp(&f->c, pkt->offset, pkt->ts);
		if (pkt->has_cycles) {
			e->has_cycles = 1;
			e->cycles = pkt->cycles;
		}
		break;
	}
	case PFT_PTM_PKT_WAYPOINT:
		apply_waypoint_update(f, pkt);
		break;
	case PFT_PTM_PKT_EXCEPTION_RETURN:
		pft_flow_core_push(&f->c, PFT_ELEM_EXCEPTION_RETURN, pkt->offset);
		break;
	default:
		break;
	}
}

static void ptm_lost(struct pft_flow_core *c, uint64_t offset)
{
	pft_flow_core_error(c, offset, PFT_ERR_FLOW_BAD_PACKET);
}

/* PTM reports every instruction when its waypoint is reached: nothing is
 * held back. */
static void ptm_nothing_held(struct pft_flow_core *c)
{
	(void)c;
}

static void ptm_sync_state(const struct pft_flow_core *c, struct flow_sync_state *s)
{
	pft_retstack_sync_state(&((const struct pft_ptm_flow *)c)->rs, s);
}

static const struct pft_flow_ops ptm_ops = {
	.type_bad = PFT_PTM_PKT_BAD, .type_async = PFT_PTM_PKT_ASYNC, .type_isync = PFT_PTM_PKT_ISYNC,
	.type_ctxid = PFT_PTM_PKT_CONTEXTID, .type_vmid = PFT_PTM_PKT_VMID,
	.type_trigger = PFT_PTM_PKT_TRIGGER,
	.init = ptm_init, .check = ptm_check, .apply = ptm_apply, .isync = ptm_isync,
	.flush = ptm_nothing_held, .lost = ptm_lost, .finish = ptm_nothing_held,
	.reset = ptm_reset, .sync_state = ptm_sync_state,
};

int pft_ptm_flow_decode(struct pft_ptm_flow *f, const struct pft_ptm_packet *pkts, size_t npkts,
		    size_t pkt_size, struct pft_elem *elems, size_t nelems, size_t *pkt_end)
{
	if (!f || (!pkts && npkts) || pkt_size != sizeof(*pkts) || !elems ||
	    nelems < PFT_FLOW_ELEMS_MAX || !pkt_end)
		return -PFT_ERR_INVALID;
	if (f->c.q_len)
		return -PFT_ERR_INTERNAL;
	f->c.out = elems;
	f->c.nout = 0;
	size_t i = 0;
	for (; i < npkts && nelems - f->c.nout >= PFT_FLOW_ELEMS_MAX; i++) {
		const struct pft_ptm_packet *pkt = &pkts[i];
		if (!ptm_in_range(pkt))
			break;
		/* Atoms while decoding (most packets): ptm_apply()'s case,
		 * without the dispatch to it. */
		if (pkt->type == PFT_PTM_PKT_ATOM && f->c.state == PFT_FLOW_DECODE && f->c.started) {
			for (unsigned a = 0; a < pkt->n_atoms && f->c.pc_valid; a++)
				apply_atom(f, pkt, (pkt->atoms >> a) & 1);
		} else {
			PFT_FLOW_CORE_APPLY(&f->c, &ptm_ops, pkt);
		}
		pkt_end[i] = f->c.nout;
	}
	/* A packet out of range stops the run; on its own it is an error. */
	if (!i && npkts)
		return -PFT_ERR_INVALID;
	return (int)i;
}

PFT_FLOW_CORE_FUNCTIONS(pft_ptm_flow, pft_ptm_flow, pft_ptm_config, pft_ptm_packet, ptm_ops)
