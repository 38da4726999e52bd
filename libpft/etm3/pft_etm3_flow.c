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
 */
#include <stdlib.h>
#include <string.h>

#include "pft.h"
#include "etm3/pft_etm3_config.h"
#include "etm3/pft_etm3_sync.h"
#include "image/pft_isa.h"
#include "common/pft_size.h"

enum {
	/* Elements one packet can produce: a range, NACC or error per atom
	 * (16 atoms), plus context, trace-on, exception. */
	QUEUE_MAX = 48,
	/* Classified instructions by address (power of two): one atom is
	 * one instruction, so each would otherwise be read and decoded. */
	INSN_CACHE_SIZE = 4096
};

struct insn_entry {
	uint32_t addr;
	uint8_t valid, isa, space, size;
	struct pft_insn_class c;
};

enum flow_state {
	ST_NO_SYNC = 0,   /* waiting for an A-sync */
	ST_WAIT_ISYNC,    /* aligned, waiting for the first I-sync */
	ST_DECODE
};

/* The open range: instructions executed in sequence, not reported yet. */
struct open_range {
	int valid;
	uint32_t start, last, end, prev_last, ninsn, cycles;
	uint32_t last_cycles;     /* of the last instruction (for Cancel) */
	uint8_t isa, space, iclass;
	uint64_t offset;
};

struct pft_etm3_flow {
	struct pft_etm3_config cfg;
	struct pft_image *image;

	enum flow_state state;
	int started;
	int pc_valid;
	int indirect_pending;     /* pc unknown after an E on an indirect branch */
	uint32_t pc;
	uint8_t isa, ns, hyp, vmid;
	uint32_t ctxid;
	int ctx_known, vmid_known;
	uint32_t wpend;           /* W cycles not yet given to an atom */

	struct open_range open;

	struct pft_elem queue[QUEUE_MAX];
	unsigned q_head, q_len;
	uint64_t insns;
	struct insn_entry cache[INSN_CACHE_SIZE];
};

struct pft_etm3_flow *pft_etm3_flow_alloc(const struct pft_etm3_config *cfg,
					  struct pft_image *image, int *errcode)
{
	struct pft_etm3_config c;
	struct pft_etm3_flow *f = NULL;
	int err = pft_etm3_config_copy(&c, cfg);

	if (!err) {
		f = calloc(1, sizeof(*f));
		if (!f)
			err = -PFT_ERR_NOMEM;
	}
	if (errcode)
		*errcode = err;
	if (err)
		return NULL;
	f->cfg = c;
	f->image = image;
	return f;
}

void pft_etm3_flow_free(struct pft_etm3_flow *f)
{
	free(f);
}

int pft_etm3_flow_reset(struct pft_etm3_flow *f)
{
	if (!f)
		return -PFT_ERR_INVALID;
	size_t keep = offsetof(struct pft_etm3_flow, state);
	memset((uint8_t *)f + keep, 0, sizeof(*f) - keep);
	return 0;
}

uint64_t pft_etm3_flow_insn_count(const struct pft_etm3_flow *f)
{
	return f ? f->insns : 0;
}

static struct pft_elem *push_elem(struct pft_etm3_flow *f, enum pft_elem_type type,
				  uint64_t offset)
{
	static const struct pft_elem empty; /* copied: cheaper than memset */
	struct pft_elem *e = &f->queue[(f->q_head + f->q_len++) % QUEUE_MAX];
	*e = empty;
	e->type = (uint8_t)type;
	e->offset = offset;
	return e;
}

static enum pft_mem_space current_space(const struct pft_etm3_flow *f)
{
	return f->ns ? PFT_SPACE_NONSECURE : PFT_SPACE_SECURE;
}

/* Report the open range (if any); @taken: its last instruction changed
 * the flow. */
static void close_range(struct pft_etm3_flow *f, int taken)
{
	struct open_range *r = &f->open;

	if (!r->valid)
		return;
	struct pft_elem *e = push_elem(f, PFT_ELEM_RANGE, r->offset);
	e->start = r->start;
	e->last = r->last;
	e->end = r->end;
	e->ninsn = r->ninsn;
	e->isa = r->isa;
	e->space = r->space;
	e->iclass = r->iclass;
	e->taken = (uint8_t)taken;
	if (f->cfg.cycle_accurate) {
		e->has_cycles = 1;
		e->cycles = r->cycles;
	}
	f->insns += r->ninsn;
	r->valid = 0;
}

static void report_error(struct pft_etm3_flow *f, uint64_t offset, enum pft_error_code why)
{
	close_range(f, f->indirect_pending);
	push_elem(f, PFT_ELEM_ERROR, offset)->reason = (uint8_t)why;
}

/* One atom: the instruction at the PC, executed (E) or not (N), with the
 * @cycles since the previous atom. */
static void apply_atom(struct pft_etm3_flow *f, uint64_t offset, int executed,
		       uint32_t cycles)
{
	if (!f->pc_valid) {
		/* Atoms with no address: after a NACC they were reported; after
		 * an indirect branch the trace broke its own rule. */
		if (f->indirect_pending) {
			report_error(f, offset, PFT_ERR_FLOW_INDIRECT_ATOM);
			f->indirect_pending = 0;
		}
		return;
	}
	if (f->isa != PFT_ISA_ARM && f->isa != PFT_ISA_THUMB && f->isa != PFT_ISA_THUMBEE) {
		report_error(f, offset, PFT_ERR_FLOW_BAD_INSN);
		f->pc_valid = 0;
		return;
	}
	const enum pft_mem_space space = current_space(f);
	struct insn_entry *ie = &f->cache[(f->pc >> 1) & (INSN_CACHE_SIZE - 1)];
	if (!ie->valid || ie->addr != f->pc || ie->isa != f->isa || ie->space != space) {
		uint8_t code[4];
		int avail = f->image ? pft_image_read(f->image, f->pc, space, code, sizeof(code))
				     : -1;
		int n = avail > 0 ? pft_isa_classify((enum pft_isa)f->isa, f->pc, code,
						     (size_t)avail, 0, &ie->c)
				  : -1;
		if (n < 0) {
			ie->valid = 0;
			close_range(f, 0);
			push_elem(f, PFT_ELEM_ADDR_NACC, offset)->addr = f->pc;
			f->pc_valid = 0;
			return;
		}
		ie->valid = 1;
		ie->addr = f->pc;
		ie->isa = f->isa;
		ie->space = (uint8_t)space;
		ie->size = (uint8_t)n;
	}
	const struct pft_insn_class c = ie->c;
	const int size = ie->size;

	struct open_range *r = &f->open;
	if (r->valid && (r->end != f->pc || r->isa != f->isa || r->space != space))
		close_range(f, 0);
	if (!r->valid) {
		r->valid = 1;
		r->start = f->pc;
		r->ninsn = 0;
		r->cycles = 0;
		r->isa = f->isa;
		r->space = (uint8_t)space;
	}
	r->prev_last = r->last;
	r->last = f->pc;
	r->end = f->pc + (uint32_t)size;
	r->ninsn++;
	r->cycles += cycles;
	r->last_cycles = cycles;
	r->iclass = (uint8_t)pft_isa_iclass(&c);
	r->offset = offset;

	f->pc += (uint32_t)size;
	if (!executed) {
		close_range(f, 0);
		return;
	}
	if (c.kind == PFT_WP_DIRECT) {
		f->pc = c.target;
		f->isa = c.target_isa;
		close_range(f, 1);
	} else if (c.kind == PFT_WP_INDIRECT) {
		/* The target comes in a branch packet (section 5.1); the range
		 * waits too, in case an exception cancels the branch. */
		f->pc_valid = 0;
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
	struct pft_elem *e = push_elem(f, PFT_ELEM_CONTEXT, offset);
	e->changed = changed;
	e->ctxid = f->ctxid;
	e->vmid = f->vmid;
	e->ns = f->ns;
	e->hyp = f->hyp;
	e->isa = f->isa;
}

static void apply_isync(struct pft_etm3_flow *f, const struct pft_etm3_packet *pkt)
{
	const int first = f->state != ST_DECODE;
	uint8_t changed = 0;

	close_range(f, f->indirect_pending);
	if (first || pkt->reason != PFT_ISYNC_PERIODIC) {
		struct pft_elem *e = push_elem(f, PFT_ELEM_TRACE_ON, pkt->offset);
		e->reason = pkt->reason;
		/* The gap's cycles: the W's pending plus the I-sync's count. */
		if (f->cfg.cycle_accurate && pkt->has_cycles) {
			e->has_cycles = 1;
			e->cycles = f->wpend + pkt->cycles;
		}
		f->wpend = 0;
	}
	if (first || !f->ctx_known) {
		changed = PFT_CTX_NS | PFT_CTX_HYP | PFT_CTX_ISA |
			  (pkt->has_ctxid ? PFT_CTX_CTXID : 0);
	} else {
		if (pkt->ns != f->ns)
			changed |= PFT_CTX_NS;
		if (pkt->hyp != f->hyp)
			changed |= PFT_CTX_HYP;
		if (pkt->has_ctxid && pkt->ctxid != f->ctxid)
			changed |= PFT_CTX_CTXID;
	}
	f->ns = pkt->ns;
	f->hyp = pkt->hyp;
	if (pkt->has_ctxid)
		f->ctxid = pkt->ctxid;
	f->ctx_known = 1;
	f->state = ST_DECODE;
	f->indirect_pending = 0;
	f->pc_valid = !f->cfg.data_only;
	f->pc = pkt->addr;
	f->isa = pkt->isa;
	if (changed)
		emit_context(f, pkt->offset, changed);
	if (pkt->lsip && f->pc_valid) {
		/* The load/store at the address executed; trace goes on at the
		 * continuation address (section 4.4). */
		apply_atom(f, pkt->offset, 1, 0);
		close_range(f, 0);
		f->pc = pkt->lsip_addr;
		f->pc_valid = 1;
	}
}

static void apply_branch(struct pft_etm3_flow *f, const struct pft_etm3_packet *pkt)
{
	struct open_range *r = &f->open;

	if (pkt->exception) {
		struct pft_elem *e;
		uint32_t ret = f->pc;
		int has_ret = f->pc_valid;
		if (pkt->cancel && r->valid) {
			/* The last atom's instruction did not complete: it is
			 * the return address, and not part of the range. */
			ret = r->last;
			has_ret = 1;
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
		} else {
			close_range(f, f->indirect_pending);
		}
		e = push_elem(f, PFT_ELEM_EXCEPTION, pkt->offset);
		e->exception = pkt->exception;
		e->has_ret = (uint8_t)has_ret;
		e->addr = has_ret ? ret : 0;
	} else {
		close_range(f, f->indirect_pending);
	}
	f->indirect_pending = 0;
	f->pc = pkt->addr;
	f->isa = pkt->isa;
	f->pc_valid = 1;
	if (pkt->exc_bytes) {
		uint8_t changed = 0;
		uint8_t hyp = pkt->exc_bytes > 1 && f->cfg.virtualization ? pkt->hyp : f->hyp;
		if (pkt->ns != f->ns)
			changed |= PFT_CTX_NS;
		if (hyp != f->hyp)
			changed |= PFT_CTX_HYP;
		f->ns = pkt->ns;
		f->hyp = hyp;
		if (changed)
			emit_context(f, pkt->offset, changed);
	}
	/* Debug-state entry has no meaningful address: wait for the I-sync
	 * after the exit from Debug state. */
	if (pkt->exception == PFT_EXC_DEBUG_HALT)
		f->pc_valid = 0;
}

static void apply_packet(struct pft_etm3_flow *f, const struct pft_etm3_packet *pkt)
{
	if (!f->started) {
		f->started = 1;
		push_elem(f, PFT_ELEM_NO_SYNC, pkt->offset);
	}
	switch (pkt->type) {
	case PFT_ETM3_PKT_BAD:
		report_error(f, pkt->offset, PFT_ERR_FLOW_BAD_PACKET);
		f->state = ST_NO_SYNC;
		f->pc_valid = 0;
		f->indirect_pending = 0;
		f->wpend = 0;
		return;
	case PFT_ETM3_PKT_ASYNC:
		if (f->state == ST_NO_SYNC)
			f->state = ST_WAIT_ISYNC;
		return;
	case PFT_ETM3_PKT_ISYNC:
		if (f->state != ST_NO_SYNC)
			apply_isync(f, pkt);
		return;
	default:
		break;
	}
	if (f->state != ST_DECODE)
		return;

	switch (pkt->type) {
	case PFT_ETM3_PKT_PHEADER:
		apply_pheader(f, pkt);
		break;
	case PFT_ETM3_PKT_BRANCH:
		apply_branch(f, pkt);
		break;
	case PFT_ETM3_PKT_CONTEXTID:
		if (pkt->ctxid != f->ctxid) {
			f->ctxid = pkt->ctxid;
			emit_context(f, pkt->offset, PFT_CTX_CTXID);
		}
		break;
	case PFT_ETM3_PKT_VMID:
		if (!f->vmid_known || pkt->vmid != f->vmid) {
			f->vmid = pkt->vmid;
			f->vmid_known = 1;
			emit_context(f, pkt->offset, PFT_CTX_VMID);
		}
		break;
	case PFT_ETM3_PKT_TIMESTAMP:
		close_range(f, 0);
		push_elem(f, PFT_ELEM_TIMESTAMP, pkt->offset)->ts = pkt->ts;
		break;
	case PFT_ETM3_PKT_TRIGGER:
		close_range(f, 0);
		push_elem(f, PFT_ELEM_TRIGGER, pkt->offset);
		break;
	case PFT_ETM3_PKT_EXCEPTION_RETURN:
		close_range(f, f->indirect_pending);
		push_elem(f, PFT_ELEM_EXCEPTION_RETURN, pkt->offset);
		break;
	default:
		/* Cycle counts, data trace and padding: no element. */
		break;
	}
}

static int check_queue(struct pft_etm3_flow *f)
{
	if (f->q_len)
		return -PFT_ERR_INVALID;
	f->q_head = 0;
	return 0;
}

int pft_etm3_flow_put(struct pft_etm3_flow *f, const struct pft_etm3_packet *pkt, size_t size)
{
	if (!f || !pkt || size < PFT_FIRST_SIZE(struct pft_etm3_packet))
		return -PFT_ERR_INVALID;
	/* Packets from pft_etm3_pkt_next() always pass; a hand-made one that
	 * does not could overflow the element queue. */
	if (pkt->type >= PFT_ETM3_PKT_TYPE_MAX || pkt->n_atoms > 16 ||
	    pkt->isa > PFT_ISA_UNKNOWN || pkt->format > 4)
		return -PFT_ERR_INVALID;
	int status = check_queue(f);
	if (status)
		return status;
	apply_packet(f, pkt);
	return 0;
}

int pft_etm3_flow_finish(struct pft_etm3_flow *f)
{
	if (!f)
		return -PFT_ERR_INVALID;
	int status = check_queue(f);
	if (status)
		return status;
	close_range(f, f->indirect_pending);
	return 0;
}

int pft_etm3_flow_next(struct pft_etm3_flow *f, struct pft_elem *elem, size_t size)
{
	if (!f || !elem || size < PFT_FIRST_SIZE(struct pft_elem))
		return -PFT_ERR_INVALID;
	if (!f->q_len)
		return -PFT_ERR_NEED_INPUT;
	const struct pft_elem *e = &f->queue[f->q_head];
	pft_copy_known(elem, e, size, sizeof(*e));
	f->q_head = (f->q_head + 1) % QUEUE_MAX;
	f->q_len--;
	return 0;
}

void pft_etm3_flow_sync_state(const struct pft_etm3_flow *f, struct etm3_flow_sync_state *s)
{
	const struct open_range *r = &f->open;

	memset(s, 0, sizeof(*s));
	s->pc = f->pc;
	s->ctxid = f->ctxid;
	s->wpend = f->wpend;
	s->queued = f->q_len;
	s->state = (uint8_t)f->state;
	s->started = (uint8_t)f->started;
	s->pc_valid = (uint8_t)f->pc_valid;
	s->indirect_pending = (uint8_t)f->indirect_pending;
	s->isa = f->isa;
	s->ns = f->ns;
	s->hyp = f->hyp;
	s->vmid = f->vmid;
	s->ctx_known = (uint8_t)f->ctx_known;
	s->vmid_known = (uint8_t)f->vmid_known;
	if (r->valid) {
		s->range_valid = 1;
		s->range_offset = r->offset;
		s->range_start = r->start;
		s->range_last = r->last;
		s->range_end = r->end;
		s->range_prev_last = r->prev_last;
		s->range_ninsn = r->ninsn;
		s->range_cycles = r->cycles;
		s->range_last_cycles = r->last_cycles;
		s->range_isa = r->isa;
		s->range_space = r->space;
		s->range_iclass = r->iclass;
	}
}
