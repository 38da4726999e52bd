/*
 * ETMv3 flow decoder: packets + program image -> executed instructions
 * (shared/spec/etmv3-protocol.md section 5; doc/etmv3.md).
 *
 * Unlike PFT, every atom is one instruction: E executed, N condition
 * failed.  Executed instructions in sequence are grouped into one RANGE;
 * the open range is reported when the flow leaves it (a taken branch, an
 * N atom, a branch packet) or before any other element.  Its last
 * instruction stays retractable until then: an exception packet with
 * Cancel says that instruction did not complete (section 5.3).
 *
 * The M profile (cfg.m_profile) is a variant: exception numbers are the
 * ETM's M-profile encoding, given as IPSR numbers; the instruction before
 * an exception-return packet returned from an exception (whatever its
 * class), and a Cancel after that packet cancels the return, not the
 * instruction: the next exception was tail-chained (section 5.3); Thumb
 * is the only instruction set.
 *
 * What every protocol's flow decoder shares (synchronisation, context,
 * the element queue) is core/pft_flow_core.h, reading instructions
 * core/pft_walk.h; here is what ETMv3's packets do.
 */
#include <stdlib.h>
#include <string.h>

#include "pft.h"
#include "etm3/pft_etm3_config.h"
#include "common/pft_size.h"
#include "core/pft_flow_core.h"
#include "core/pft_walk.h"

/* The open range: instructions executed in sequence, not reported yet. */
struct open_range {
	int valid;
	uint32_t start, last, end, prev_last, ninsn, cycles;
	uint32_t last_cycles;     /* of the last instruction (for Cancel) */
	uint8_t isa, space, iclass;
	uint8_t failed;           /* its last instruction failed its condition */
	uint64_t offset;
};

struct pft_etm3_flow {
	struct pft_flow_core c;   /* first: the core's functions take it */
	struct pft_etm3_config cfg;
	struct pft_walk walk;

	int indirect_pending;     /* pc unknown after an E on an indirect branch */
	/* M profile: an exception-return packet came, and nothing since but
	 * W's: a Cancel now is a tail-chain's. */
	int exc_return;
	uint32_t wpend;           /* W cycles not yet given to an atom */
	struct open_range open;
	/* One atom is one instruction: each would otherwise be read and
	 * classified again. */
	struct pft_walk_insn_cache cache;
};

static const struct pft_flow_ops etm3_ops;

static int etm3_init(struct pft_flow_core *c, const void *cfg, struct pft_image *image)
{
	struct pft_etm3_flow *f = (struct pft_etm3_flow *)c;

	f->walk.image = image;
	return pft_etm3_config_copy(&f->cfg, cfg);
}

/* Everything after the configuration and image goes, the count too. */
static void etm3_reset(struct pft_flow_core *c)
{
	struct pft_etm3_flow *f = (struct pft_etm3_flow *)c;
	size_t keep = offsetof(struct pft_etm3_flow, indirect_pending);

	memset((uint8_t *)f + keep, 0, sizeof(*f) - keep);
	c->insns = 0;
}

/* Report the open range (if any); @taken: its last instruction changed
 * the flow. */
static void close_range(struct pft_etm3_flow *f, int taken)
{
	struct open_range *r = &f->open;

	if (!r->valid)
		return;
	struct pft_elem *e = pft_flow_core_range(&f->c, r->offset, r->start, r->last, r->end,
						 r->ninsn, r->isa, r->space);
	e->iclass = r->iclass;
	e->taken = (uint8_t)taken;
	e->flags = (uint8_t)(PFT_ELEM_F_CONDS | (r->failed ? PFT_ELEM_F_FAILED : 0));
	r->failed = 0;
	if (f->cfg.cycle_accurate) {
		e->has_cycles = 1;
		e->cycles = r->cycles;
	}
	r->valid = 0;
}

static void report_error(struct pft_etm3_flow *f, uint64_t offset, enum pft_error_code why)
{
	close_range(f, f->indirect_pending);
	pft_flow_core_error(&f->c, offset, why);
}

/* A bad packet: the core loses sync, and the W cycles and an indirect
 * branch pending go. */
static void etm3_lost(struct pft_flow_core *c, uint64_t offset)
{
	struct pft_etm3_flow *f = (struct pft_etm3_flow *)c;

	report_error(f, offset, PFT_ERR_FLOW_BAD_PACKET);
	f->indirect_pending = 0;
	f->exc_return = 0;
	f->wpend = 0;
}

/* One atom: the instruction at the PC, executed (E) or not (N), with the
 * @cycles since the previous atom. */
static void apply_atom(struct pft_etm3_flow *f, uint64_t offset, int executed,
		       uint32_t cycles)
{
	struct pft_flow_core *fc = &f->c;

	if (!fc->pc_valid) {
		/* Atoms with no address: after a NACC they were reported; after
		 * an indirect branch the trace broke its own rule. */
		if (f->indirect_pending) {
			report_error(f, offset, PFT_ERR_FLOW_INDIRECT_ATOM);
			f->indirect_pending = 0;
		}
		return;
	}
	f->exc_return = 0;
	if ((fc->isa != PFT_ISA_ARM && fc->isa != PFT_ISA_THUMB && fc->isa != PFT_ISA_THUMBEE) ||
	    (f->cfg.m_profile && fc->isa != PFT_ISA_THUMB)) {
		report_error(f, offset, PFT_ERR_FLOW_BAD_INSN);
		fc->pc_valid = 0;
		return;
	}
	const enum pft_mem_space space = pft_flow_core_space(fc);
	const struct pft_walk_insn_entry *ie = pft_walk_insn_cached(&f->walk, &f->cache, fc->pc,
								     fc->isa, space);
	if (!ie) {
		close_range(f, 0);
		pft_flow_core_push(fc, PFT_ELEM_ADDR_NACC, offset)->addr = fc->pc;
		fc->pc_valid = 0;
		return;
	}
	const struct pft_insn_class c = ie->c;
	const int size = ie->size;

	struct open_range *r = &f->open;
	if (r->valid && (r->end != fc->pc || r->isa != fc->isa || r->space != space))
		close_range(f, 0);
	if (!r->valid) {
		r->valid = 1;
		r->start = fc->pc;
		r->ninsn = 0;
		r->cycles = 0;
		r->isa = fc->isa;
		r->space = (uint8_t)space;
	}
	r->prev_last = r->last;
	r->last = fc->pc;
	r->end = fc->pc + (uint32_t)size;
	r->ninsn++;
	r->cycles += cycles;
	r->last_cycles = cycles;
	r->iclass = (uint8_t)pft_isa_iclass(&c);
	r->offset = offset;

	fc->pc += (uint32_t)size;
	if (!executed) {
		r->failed = 1;
		close_range(f, 0);
		return;
	}
	if (c.kind == PFT_WP_DIRECT) {
		fc->pc = c.target;
		fc->isa = c.target_isa;
		close_range(f, 1);
	} else if (c.kind == PFT_WP_INDIRECT) {
		/* The target comes in a branch packet (section 5.1); the range
		 * waits too, in case an exception cancels the branch. */
		fc->pc_valid = 0;
		f->indirect_pending = 1;
	}
}

static void apply_pheader(struct pft_etm3_flow *f, const struct pft_etm3_packet *pkt)
{
	/* Section 5.5: each atom takes the W's since the previous atom. */
	for (unsigned i = 0; i < pkt->n_atoms; i++) {
		uint32_t w = 0;
		switch (pkt->format) {
		case 1: w = 1; break;
		case 2: w = i == 0; break;
		case 3: w = pkt->cycles; break;
		default: break;
		}
		if (!f->cfg.cycle_accurate)
			w = 0;
		apply_atom(f, pkt->offset, (pkt->atoms >> i) & 1, f->wpend + w);
		f->wpend = 0;
	}
	if (f->cfg.cycle_accurate && pkt->format == 3 && !pkt->n_atoms)
		f->wpend += pkt->cycles;
}

static void emit_context(struct pft_etm3_flow *f, uint64_t offset, uint8_t changed)
{
	close_range(f, 0);
	pft_flow_core_context(&f->c, offset, changed);
}

/* An I-sync (after the first A-sync). */
static void etm3_isync(struct pft_flow_core *c, const void *p)
{
	const struct pft_etm3_packet *pkt = p;
	struct pft_etm3_flow *f = (struct pft_etm3_flow *)c;
	const int first = f->c.state != PFT_FLOW_DECODE;

	close_range(f, f->indirect_pending);
	struct pft_elem *e = pft_flow_core_trace_on(&f->c, first, pkt->offset, pkt->reason);
	if (e) {
		/* The gap's cycles: the W's pending plus the I-sync's count. */
		if (f->cfg.cycle_accurate && pkt->has_cycles) {
			e->has_cycles = 1;
			e->cycles = f->wpend + pkt->cycles;
		}
		f->wpend = 0;
	}
	uint8_t changed = pft_flow_core_isync(&f->c, first, pkt->addr, pkt->isa, pkt->ns,
					      pkt->hyp, pkt->has_ctxid, pkt->ctxid);
	f->indirect_pending = 0;
	f->exc_return = 0;
	f->c.pc_valid = !f->cfg.data_only;
	if (changed)
		emit_context(f, pkt->offset, changed);
	if (pkt->lsip && f->c.pc_valid) {
		/* The load/store at the address executed; trace goes on at the
		 * continuation address (section 4.4). */
		apply_atom(f, pkt->offset, 1, 0);
		close_range(f, 0);
		f->c.pc = pkt->lsip_addr;
		f->c.pc_valid = 1;
	}
}

/* An exception with Cancel: the last atom's instruction did not
 * complete; it is the return address, and not part of the range. */
static uint32_t cancel_last(struct pft_etm3_flow *f)
{
	struct open_range *r = &f->open;
	uint32_t ret = r->last;

	f->wpend += r->last_cycles;
	if (--r->ninsn == 0) {
		r->valid = 0;
	} else {
		r->end = r->last;
		r->last = r->prev_last;
		r->cycles -= r->last_cycles;
		r->iclass = PFT_ICLASS_OTHER; /* it did not end a branch */
	}
	close_range(f, 0);
	return ret;
}

/* The exception of branch packet @pkt: its element, with the preferred
 * return address where it is known. */
static void apply_exception(struct pft_etm3_flow *f, const struct pft_etm3_packet *pkt)
{
	uint32_t ret = f->c.pc;
	int has_ret = f->c.pc_valid;
	int number = pkt->exception;

	/* M profile: after an exception return, Cancel says the return did
	 * not happen (tail-chaining); the return instruction completed. */
	if (pkt->cancel && f->open.valid && !f->exc_return) {
		ret = cancel_last(f);
		has_ret = 1;
	} else {
		close_range(f, f->indirect_pending);
	}
	if (f->cfg.m_profile && (number = pft_etm3_m_exception_ipsr(pkt->exception)) < 0) {
		pft_flow_core_error(&f->c, pkt->offset, PFT_ERR_FLOW_BAD_EXCEPTION);
		return;
	}
	struct pft_elem *e = pft_flow_core_exception(&f->c, pkt->offset, (uint16_t)number,
						     has_ret, ret);
	if (f->cfg.m_profile)
		e->profile = PFT_PROFILE_M;
}

static void apply_branch(struct pft_etm3_flow *f, const struct pft_etm3_packet *pkt)
{
	if (pkt->exception)
		apply_exception(f, pkt);
	else
		close_range(f, f->indirect_pending);
	f->indirect_pending = 0;
	f->exc_return = 0;
	pft_flow_core_branch(&f->c, pkt->addr, pkt->isa);
	if (pkt->exc_bytes) {
		uint8_t hyp = pkt->exc_bytes > 1 && f->cfg.virtualization ? pkt->hyp : f->c.hyp;
		uint8_t changed = pft_flow_core_security(&f->c, pkt->ns, hyp);
		if (changed)
			emit_context(f, pkt->offset, changed);
	}
	/* Debug-state entry has no meaningful address: wait for the I-sync
	 * after the exit from Debug state. */
	if (pkt->exception == PFT_EXC_DEBUG_HALT && !f->cfg.m_profile)
		f->c.pc_valid = 0;
}

/* Packets from pft_etm3_pkt_next() always pass; a hand-made one that does
 * not could overflow the element queue. */
static int etm3_check(const void *p, size_t size)
{
	const struct pft_etm3_packet *pkt = p;

	if (size < PFT_FIRST_SIZE(struct pft_etm3_packet))
		return -PFT_ERR_INVALID;
	if (pkt->type >= PFT_ETM3_PKT_TYPE_MAX || pkt->n_atoms > 16 ||
	    pkt->isa > PFT_ISA_UNKNOWN || pkt->format > 4)
		return -PFT_ERR_INVALID;
	return 0;
}

/* The packets ETMv3 applies itself while decoding. */
static void etm3_apply(struct pft_flow_core *c, const void *p)
{
	const struct pft_etm3_packet *pkt = p;
	struct pft_etm3_flow *f = (struct pft_etm3_flow *)c;

	switch (pkt->type) {
	case PFT_ETM3_PKT_PHEADER:
		apply_pheader(f, pkt);
		break;
	case PFT_ETM3_PKT_BRANCH:
		apply_branch(f, pkt);
		break;
	case PFT_ETM3_PKT_TIMESTAMP:
		close_range(f, 0);
		pft_flow_core_timestamp(&f->c, pkt->offset, pkt->ts);
		break;
	case PFT_ETM3_PKT_EXCEPTION_RETURN:
		/* M profile: any instruction that loads EXC_RETURN into the PC
		 * returns (section 4.9), a BX LR as well as a POP. */
		if (f->cfg.m_profile && f->open.valid)
			f->open.iclass = PFT_ICLASS_EXC_RETURN;
		close_range(f, f->indirect_pending);
		pft_flow_core_push(&f->c, PFT_ELEM_EXCEPTION_RETURN, pkt->offset);
		f->exc_return = f->cfg.m_profile;
		break;
	default:
		/* Cycle counts, data trace and padding: no element. */
		break;
	}
}

/* Before another element: the open range (its last instruction did not
 * change the flow, or its branch is still pending). */
static void etm3_flush(struct pft_flow_core *c)
{
	close_range((struct pft_etm3_flow *)c, 0);
}

/* The end: the open range, taken if its indirect branch is. */
static void etm3_finish(struct pft_flow_core *c)
{
	struct pft_etm3_flow *f = (struct pft_etm3_flow *)c;

	close_range(f, f->indirect_pending);
}

/* What the core does not carry: the W cycles pending, an indirect branch
 * waiting for its address, and the range not reported yet, whole (a later
 * atom adds to it, a Cancel takes its last instruction back). */
static void etm3_sync_state(const struct pft_flow_core *c, struct flow_sync_state *s)
{
	const struct pft_etm3_flow *f = (const struct pft_etm3_flow *)c;
	const struct open_range *r = &f->open;

	s->proto[0] = f->wpend;
	s->proto[1] = (uint32_t)f->indirect_pending | (uint32_t)r->valid << 1 |
		      (uint32_t)f->exc_return << 2;
	if (!r->valid)
		return;
	s->proto[2] = r->start;
	s->proto[3] = r->last;
	s->proto[4] = r->end;
	s->proto[5] = r->prev_last;
	s->proto[6] = r->ninsn;
	s->proto[7] = r->cycles;
	s->proto[8] = r->last_cycles;
	s->proto[9] = (uint32_t)r->offset;
	s->proto[10] = (uint32_t)(r->offset >> 32);
	s->proto[11] = (uint32_t)r->isa | (uint32_t)r->space << 8 | (uint32_t)r->iclass << 16;
}

static const struct pft_flow_ops etm3_ops = {
	.type_bad = PFT_ETM3_PKT_BAD, .type_async = PFT_ETM3_PKT_ASYNC,
	.type_isync = PFT_ETM3_PKT_ISYNC, .type_ctxid = PFT_ETM3_PKT_CONTEXTID,
	.type_vmid = PFT_ETM3_PKT_VMID, .type_trigger = PFT_ETM3_PKT_TRIGGER,
	.init = etm3_init, .check = etm3_check, .apply = etm3_apply, .isync = etm3_isync,
	.flush = etm3_flush, .lost = etm3_lost, .finish = etm3_finish, .reset = etm3_reset,
	.sync_state = etm3_sync_state,
};

PFT_FLOW_CORE_FUNCTIONS(pft_etm3_flow, pft_etm3_flow, pft_etm3_config, pft_etm3_packet,
			etm3_ops)

int pft_etm3_flow_finish(struct pft_etm3_flow *f)
{
	return f ? pft_flow_core_finish(&f->c) : -PFT_ERR_INVALID;
}
