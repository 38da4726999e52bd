/*
 * Flow decoder: packets of one trace source + program image -> executed
 * instruction ranges (shared/spec/pft-flow.md sections 3-9).
 *
 * The straight-line code between waypoints is classified once per basic
 * block: a 2-way set-associative cache maps (address, instruction set,
 * memory space) to the block's waypoint, so a loop costs one lookup per
 * iteration, not one classification per instruction.
 *
 * Elements are written to f->out: the decoder's own queue for
 * pft_flow_put(), the caller's array for pft_flow_decode().
 */
#include <stdlib.h>
#include <string.h>

#include "pft.h"
#include "ptm/pft_config_int.h"
#include "image/pft_isa.h"
#include "common/pft_size.h"
#include "core/pft_sync_state.h"

enum {
	QUEUE_MAX = PFT_FLOW_ELEMS_MAX,
	RETSTACK_MAX = FLOW_SYNC_RS_MAX, /* deeper than any PTM's stack (pft-flow.md 6) */
	CACHE_SETS = 4096,       /* power of two; 2 ways each */
	/* The PTM reports a waypoint update after 4096 bytes without a
	 * waypoint; a longer walk means the image and the trace disagree. */
	WALK_LIMIT = 4096 + 64
};

enum flow_state {
	ST_NO_SYNC = 0,   /* waiting for an A-sync */
	ST_WAIT_ISYNC,    /* aligned, waiting for the first I-sync */
	ST_DECODE
};

/* What walking from an address finds: the instructions up to and including
 * the first waypoint, or up to memory no image covers. */
struct block {
	uint32_t start;
	uint8_t isa, space, valid;
	uint8_t kind;            /* of the last instruction (enum pft_wp_kind) */
	uint8_t link, last_size, target_isa, nacc;
	uint8_t iclass;          /* of the last instruction (enum pft_iclass) */
	uint8_t too_long, bad_isa;
	uint8_t special;         /* bad_isa, too_long or nacc: no plain range */
	uint32_t last;           /* last instruction walked */
	uint32_t ninsn;
	uint32_t target;         /* DIRECT target */
	uint32_t nacc_addr;      /* nacc: the address that could not be read */
};

struct ret_entry {
	uint32_t addr;
	uint8_t isa;
};

struct pft_flow {
	struct pft_config cfg;
	struct pft_image *image;
	unsigned isa_flags;

	enum flow_state state;
	int started;             /* NO_SYNC reported at the first packet */
	int pc_valid;
	uint32_t pc;
	uint8_t isa;
	uint8_t ns, hyp, vmid;
	uint32_t ctxid;
	int ctx_known, vmid_known;

	struct ret_entry rs[RETSTACK_MAX];
	unsigned rs_top, rs_count;  /* ring: rs_top is the next free slot */

	struct pft_elem queue[QUEUE_MAX];
	unsigned q_head, q_len;
	struct pft_elem *out;    /* where elements go: queue or the caller's */
	size_t nout;

	uint64_t insns;
	/* [set][0] is the most recently filled way. */
	struct block cache[CACHE_SETS][2];
};

const char *pft_elem_type_name(enum pft_elem_type type)
{
	static const char *const names[PFT_ELEM_TYPE_MAX] = {
		[PFT_ELEM_RANGE] = "range",
		[PFT_ELEM_NO_SYNC] = "no_sync",
		[PFT_ELEM_TRACE_ON] = "trace_on",
		[PFT_ELEM_CONTEXT] = "context",
		[PFT_ELEM_EXCEPTION] = "exception",
		[PFT_ELEM_EXCEPTION_RETURN] = "exception_return",
		[PFT_ELEM_TIMESTAMP] = "timestamp",
		[PFT_ELEM_TRIGGER] = "trigger",
		[PFT_ELEM_ADDR_NACC] = "addr_nacc",
		[PFT_ELEM_ERROR] = "error",
	};
	return (unsigned)type < PFT_ELEM_TYPE_MAX ? names[type] : "unknown";
}

struct pft_flow *pft_flow_alloc(const struct pft_config *cfg, struct pft_image *image,
				int *errcode)
{
	struct pft_config c;
	struct pft_flow *f = NULL;
	int err = pft_config_copy(&c, cfg);

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
	f->isa_flags = c.dmb_dsb_waypoints ? PFT_ISA_DMB_DSB_WAYPOINTS : 0;
	return f;
}

void pft_flow_free(struct pft_flow *f)
{
	free(f);
}

int pft_flow_reset(struct pft_flow *f)
{
	if (!f)
		return -PFT_ERR_INVALID;
	f->state = ST_NO_SYNC;
	f->started = 0;
	f->pc_valid = 0;
	f->pc = 0;
	f->isa = 0;
	f->ns = f->hyp = f->vmid = 0;
	f->ctxid = 0;
	f->ctx_known = f->vmid_known = 0;
	f->rs_top = f->rs_count = 0;
	f->q_head = f->q_len = 0;
	return 0;
}

uint64_t pft_flow_insn_count(const struct pft_flow *f)
{
	return f ? f->insns : 0;
}

static struct pft_elem *push_elem(struct pft_flow *f, enum pft_elem_type type,
				  uint64_t offset)
{
	/* Each packet starts with room for QUEUE_MAX elements, at most what
	 * one packet produces, so this cannot overflow. */
	struct pft_elem *e = &f->out[f->nout++];
	*e = (struct pft_elem){ .offset = offset, .type = (uint8_t)type };
	return e;
}

static enum pft_mem_space current_space(const struct pft_flow *f)
{
	return f->ns ? PFT_SPACE_NONSECURE : PFT_SPACE_SECURE;
}

/* Walk from @addr to the first waypoint, classifying every instruction.
 * Out of line: a miss is rare, and inlined it would cost the hit path
 * (walk_to_waypoint) its registers. */
static __attribute__((noinline)) void walk_block(struct pft_flow *f, uint32_t addr,
						 uint8_t isa, enum pft_mem_space space,
						 struct block *b)
{
	memset(b, 0, sizeof(*b));
	b->start = addr;
	b->isa = isa;
	b->space = (uint8_t)space;
	b->valid = 1;
	if (isa != PFT_ISA_ARM && isa != PFT_ISA_THUMB) {
		b->bad_isa = 1;
		return;
	}
	const uint8_t *code = NULL;
	int avail = 0;
	uint32_t pc = addr;
	uint8_t tmp[4];

	for (uint32_t walked = 0;; walked += b->last_size) {
		if (walked > WALK_LIMIT) {
			b->too_long = 1;
			return;
		}
		if (avail < 4) {
			/* Refill: map the bytes at pc; an instruction may span
			 * two sections, so read it whole when the map is short. */
			avail = f->image ? pft_image_map(f->image, pc, space, &code) : -1;
			if (avail > 0 && avail < 4) {
				int n = pft_image_read(f->image, pc, space, tmp, sizeof(tmp));
				code = tmp;
				avail = n;
			}
			if (avail <= 0) {
				b->nacc = 1;
				b->nacc_addr = pc;
				return;
			}
		}
		struct pft_insn_class c;
		int size = pft_isa_classify((enum pft_isa)isa, pc, code, (size_t)avail,
					    f->isa_flags, &c);
		if (size < 0) {
			b->nacc = 1;
			b->nacc_addr = pc;
			return;
		}
		b->ninsn++;
		b->last = pc;
		b->last_size = (uint8_t)size;
		if (c.kind != PFT_WP_NONE) {
			b->kind = c.kind;
			b->link = c.link;
			b->iclass = (uint8_t)pft_isa_iclass(&c);
			b->target = c.target;
			b->target_isa = c.target_isa;
			return;
		}
		pc += (uint32_t)size;
		code += size;
		avail -= size;
	}
}

static const struct block *get_block(struct pft_flow *f, uint32_t addr, uint8_t isa,
				     enum pft_mem_space space)
{
	uint32_t h = (addr >> 1) ^ (addr >> 13) ^ isa;
	struct block *set = f->cache[h & (CACHE_SETS - 1)];

	for (int way = 0; way < 2; way++) {
		struct block *b = &set[way];
		if (b->valid && b->start == addr && b->isa == isa && b->space == space)
			return b;
	}
	/* A miss: the older way goes, the newer one takes its place. */
	set[1] = set[0];
	walk_block(f, addr, isa, space, &set[0]);
	set[0].special = set[0].bad_isa | set[0].too_long | set[0].nacc;
	return &set[0];
}

static void rs_push(struct pft_flow *f, uint32_t addr, uint8_t isa)
{
	f->rs[f->rs_top] = (struct ret_entry){ addr, isa };
	f->rs_top = (f->rs_top + 1) % RETSTACK_MAX;
	if (f->rs_count < RETSTACK_MAX)
		f->rs_count++;
}

static int rs_pop(struct pft_flow *f, struct ret_entry *e)
{
	if (!f->rs_count)
		return -1;
	f->rs_top = (f->rs_top + RETSTACK_MAX - 1) % RETSTACK_MAX;
	f->rs_count--;
	*e = f->rs[f->rs_top];
	return 0;
}

static void report_error(struct pft_flow *f, uint64_t offset, enum pft_error_code why)
{
	push_elem(f, PFT_ELEM_ERROR, offset)->reason = (uint8_t)why;
}

/* A RANGE of @ninsn instructions @start .. @last (@end just past it). */
static struct pft_elem *push_range(struct pft_flow *f, uint64_t offset, uint32_t start,
				   uint32_t last, uint32_t end, uint32_t ninsn, uint8_t isa)
{
	struct pft_elem *e = &f->out[f->nout++];

	*e = (struct pft_elem){ .offset = offset, .type = PFT_ELEM_RANGE, .start = start,
				.last = last, .end = end, .ninsn = ninsn, .isa = isa,
				.space = (uint8_t)current_space(f) };
	f->insns += ninsn;
	return e;
}

/*
 * Walk from the PC to the next waypoint and emit its range.  Returns the
 * block (with the PC at its last instruction), or NULL after reporting why
 * no waypoint was reached (the PC is then invalid).
 */
static const struct block *walk_to_waypoint(struct pft_flow *f, uint64_t offset,
					    int taken, const struct pft_packet *pkt)
{
	const enum pft_mem_space space = current_space(f);
	const struct block *b = get_block(f, f->pc, f->isa, space);

	if (__builtin_expect(b->special, 0)) {
		if (b->nacc) {
			/* Report what ran (if anything), then where memory ran
			 * out; the packet's cycle count goes on the last of
			 * them so that the running total stays right. */
			struct pft_elem *e;
			if (b->ninsn)
				push_range(f, offset, b->start, b->last,
					   b->last + b->last_size, b->ninsn, b->isa);
			e = push_elem(f, PFT_ELEM_ADDR_NACC, offset);
			e->addr = b->nacc_addr;
			if (pkt->has_cycles) {
				e->has_cycles = 1;
				e->cycles = pkt->cycles;
			}
		} else {
			report_error(f, offset, b->bad_isa ? PFT_ERR_FLOW_BAD_INSN
							   : PFT_ERR_FLOW_NO_WAYPOINT);
		}
		f->pc_valid = 0;
		return NULL;
	}
	/* push_range(), written once with the rest (most elements). */
	f->out[f->nout++] = (struct pft_elem){
		.offset = offset, .type = PFT_ELEM_RANGE, .start = b->start, .last = b->last,
		.end = b->last + b->last_size, .ninsn = b->ninsn, .isa = b->isa,
		.space = (uint8_t)space, .taken = (uint8_t)taken, .iclass = b->iclass,
		.has_cycles = pkt->has_cycles, .cycles = pkt->has_cycles ? pkt->cycles : 0 };
	f->insns += b->ninsn;
	return b;
}

static void apply_atom(struct pft_flow *f, const struct pft_packet *pkt, int executed)
{
	const struct block *b = walk_to_waypoint(f, pkt->offset, executed, pkt);

	if (!b)
		return;
	uint32_t next = b->last + b->last_size;
	struct ret_entry r;

	switch (b->kind) {
	case PFT_WP_DIRECT:
		if (!executed) {
			f->pc = next;
			return;
		}
		if (b->link && f->cfg.return_stack)
			rs_push(f, next, b->isa);
		f->pc = b->target;
		f->isa = b->target_isa;
		return;
	case PFT_WP_INDIRECT:
		if (!executed) {
			f->pc = next;
			return;
		}
		/* An E atom on an indirect branch: the PTM matched the top of
		 * its return stack (pft-flow.md 5.1). */
		if (!f->cfg.return_stack) {
			report_error(f, pkt->offset, PFT_ERR_FLOW_INDIRECT_ATOM);
			f->pc_valid = 0;
			return;
		}
		if (rs_pop(f, &r)) {
			report_error(f, pkt->offset, PFT_ERR_FLOW_RETSTACK_EMPTY);
			f->pc_valid = 0;
			return;
		}
		if (b->link)
			rs_push(f, next, b->isa);
		f->pc = r.addr;
		f->isa = r.isa;
		return;
	default:
		/* ISB (and DMB/DSB when they are waypoints): no change of flow. */
		f->pc = next;
		return;
	}
}

static void emit_context(struct pft_flow *f, uint64_t offset, uint8_t changed)
{
	struct pft_elem *e = push_elem(f, PFT_ELEM_CONTEXT, offset);
	e->changed = changed;
	e->ctxid = f->ctxid;
	e->vmid = f->vmid;
	e->ns = f->ns;
	e->hyp = f->hyp;
	e->isa = f->isa;
}

static void set_security(struct pft_flow *f, uint64_t offset, uint8_t ns, uint8_t hyp)
{
	uint8_t changed = 0;

	if (ns != f->ns)
		changed |= PFT_CTX_NS;
	if (hyp != f->hyp)
		changed |= PFT_CTX_HYP;
	f->ns = ns;
	f->hyp = hyp;
	if (changed)
		emit_context(f, offset, changed);
}

static void apply_isync(struct pft_flow *f, const struct pft_packet *pkt)
{
	int first = f->state != ST_DECODE;
	uint8_t changed = 0;

	if (first || pkt->reason != PFT_ISYNC_PERIODIC) {
		struct pft_elem *e = push_elem(f, PFT_ELEM_TRACE_ON, pkt->offset);
		e->reason = pkt->reason;
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
		f->rs_count = 0;
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
	f->pc = pkt->addr;
	f->isa = pkt->isa;
	f->pc_valid = 1;
	f->state = ST_DECODE;
	if (changed)
		emit_context(f, pkt->offset, changed);
}

static void apply_branch(struct pft_flow *f, const struct pft_packet *pkt)
{
	if (pkt->exception) {
		/* An exception: no atom, no instruction (pft-flow.md 5.3). */
		struct pft_elem *e = push_elem(f, PFT_ELEM_EXCEPTION, pkt->offset);
		e->exception = pkt->exception;
		if (f->pc_valid) {
			e->has_ret = 1;
			e->addr = f->pc;
		}
		if (pkt->has_cycles) {
			e->has_cycles = 1;
			e->cycles = pkt->cycles;
		}
	} else if (f->pc_valid) {
		/* An ordinary branch implies one E atom; never a pop. */
		const struct block *b = walk_to_waypoint(f, pkt->offset, 1, pkt);
		if (b && b->link && f->cfg.return_stack)
			rs_push(f, b->last + b->last_size, b->isa);
	}
	f->pc = pkt->addr;
	f->isa = pkt->isa;
	f->pc_valid = 1;
	if (pkt->exc_bytes)
		set_security(f, pkt->offset, pkt->ns, pkt->exc_bytes > 1 ? pkt->hyp : f->hyp);
	/* Debug-state entry carries no meaningful address: wait for the
	 * I-sync that follows the exit from Debug state. */
	if (pkt->exception == PFT_EXC_DEBUG_HALT)
		f->pc_valid = 0;
}

/* Everything from the PC up to and including @pkt->addr executed, with no
 * waypoint before it (pft-flow.md 5.4).  Rare, so walked without the cache. */
static void apply_waypoint_update(struct pft_flow *f, const struct pft_packet *pkt)
{
	const enum pft_mem_space space = current_space(f);
	uint32_t pc = f->pc, n = 0, last = 0;

	if (!f->pc_valid)
		return;
	if (f->isa != PFT_ISA_ARM && f->isa != PFT_ISA_THUMB) {
		report_error(f, pkt->offset, PFT_ERR_FLOW_BAD_INSN);
		f->pc_valid = 0;
		return;
	}
	for (uint32_t walked = 0; walked <= WALK_LIMIT;) {
		uint8_t code[4];
		struct pft_insn_class c;
		int avail = f->image ? pft_image_read(f->image, pc, space, code, sizeof(code)) : -1;
		int size = avail > 0 ? pft_isa_classify((enum pft_isa)f->isa, pc, code,
							(size_t)avail, f->isa_flags, &c)
				     : -1;
		if (size < 0) {
			if (n)
				push_range(f, pkt->offset, f->pc, last, pc, n, f->isa);
			push_elem(f, PFT_ELEM_ADDR_NACC, pkt->offset)->addr = pc;
			f->pc_valid = 0;
			return;
		}
		n++;
		last = pc;
		if (pc == pkt->addr) {
			push_range(f, pkt->offset, f->pc, pc, pc + (uint32_t)size, n, f->isa)
				->iclass = (uint8_t)pft_isa_iclass(&c);
			f->pc = pc + (uint32_t)size;
			return;
		}
		if (c.kind != PFT_WP_NONE)
			break; /* the trace skips a waypoint: it and the image disagree */
		pc += (uint32_t)size;
		walked += (uint32_t)size;
	}
	report_error(f, pkt->offset, PFT_ERR_FLOW_WP_UPDATE_PAST);
	f->pc_valid = 0;
}

static void apply_packet(struct pft_flow *f, const struct pft_packet *pkt)
{
	if (!f->started) {
		f->started = 1;
		push_elem(f, PFT_ELEM_NO_SYNC, pkt->offset);
	}
	switch (pkt->type) {
	case PFT_PKT_BAD:
		report_error(f, pkt->offset, PFT_ERR_FLOW_BAD_PACKET);
		f->state = ST_NO_SYNC;
		f->pc_valid = 0;
		return;
	case PFT_PKT_ASYNC:
		if (f->state == ST_NO_SYNC)
			f->state = ST_WAIT_ISYNC;
		return;
	case PFT_PKT_ISYNC:
		if (f->state != ST_NO_SYNC)
			apply_isync(f, pkt);
		return;
	default:
		break;
	}
	if (f->state != ST_DECODE)
		return;

	switch (pkt->type) {
	case PFT_PKT_ATOM:
		for (unsigned i = 0; i < pkt->n_atoms && f->pc_valid; i++)
			apply_atom(f, pkt, (pkt->atoms >> i) & 1);
		break;
	case PFT_PKT_BRANCH:
		apply_branch(f, pkt);
		break;
	case PFT_PKT_WAYPOINT:
		apply_waypoint_update(f, pkt);
		break;
	case PFT_PKT_CONTEXTID:
		if (!f->ctx_known || pkt->ctxid != f->ctxid) {
			f->ctxid = pkt->ctxid;
			emit_context(f, pkt->offset, PFT_CTX_CTXID);
		}
		break;
	case PFT_PKT_VMID:
		if (!f->vmid_known || pkt->vmid != f->vmid) {
			f->vmid = pkt->vmid;
			f->vmid_known = 1;
			emit_context(f, pkt->offset, PFT_CTX_VMID);
		}
		break;
	case PFT_PKT_TIMESTAMP: {
		struct pft_elem *e = push_elem(f, PFT_ELEM_TIMESTAMP, pkt->offset);
		e->ts = pkt->ts;
		if (pkt->has_cycles) {
			e->has_cycles = 1;
			e->cycles = pkt->cycles;
		}
		break;
	}
	case PFT_PKT_TRIGGER:
		push_elem(f, PFT_ELEM_TRIGGER, pkt->offset);
		break;
	case PFT_PKT_EXCEPTION_RETURN:
		push_elem(f, PFT_ELEM_EXCEPTION_RETURN, pkt->offset);
		break;
	default:
		break;
	}
}

int pft_flow_put(struct pft_flow *f, const struct pft_packet *pkt, size_t size)
{
	if (!f || !pkt || size < sizeof(*pkt))
		return -PFT_ERR_INVALID;
	/* Packets from pft_pkt_next() always pass; a hand-made one that does
	 * not could overflow the element queue. */
	if (pkt->type >= PFT_PKT_TYPE_MAX || pkt->n_atoms > 5 || pkt->isa > PFT_ISA_UNKNOWN)
		return -PFT_ERR_INVALID;
	if (f->q_len)
		return -PFT_ERR_INVALID;
	f->q_head = 0;
	f->out = f->queue;
	f->nout = 0;
	apply_packet(f, pkt);
	f->q_len = (unsigned)f->nout;
	return 0;
}

int pft_flow_decode(struct pft_flow *f, const struct pft_packet *pkts, size_t npkts,
		    size_t pkt_size, struct pft_elem *elems, size_t nelems, size_t *pkt_end)
{
	if (!f || (!pkts && npkts) || pkt_size != sizeof(*pkts) || !elems ||
	    nelems < PFT_FLOW_ELEMS_MAX || !pkt_end)
		return -PFT_ERR_INVALID;
	if (f->q_len)
		return -PFT_ERR_INTERNAL;
	f->out = elems;
	f->nout = 0;
	size_t i = 0;
	for (; i < npkts && nelems - f->nout >= PFT_FLOW_ELEMS_MAX; i++) {
		const struct pft_packet *pkt = &pkts[i];
		if (pkt->type >= PFT_PKT_TYPE_MAX || pkt->n_atoms > 5 ||
		    pkt->isa > PFT_ISA_UNKNOWN)
			break;
		/* Atoms while decoding (most packets): apply_packet()'s case,
		 * without its dispatch. */
		if (pkt->type == PFT_PKT_ATOM && f->state == ST_DECODE && f->started) {
			for (unsigned a = 0; a < pkt->n_atoms && f->pc_valid; a++)
				apply_atom(f, pkt, (pkt->atoms >> a) & 1);
		} else {
			apply_packet(f, pkt);
		}
		pkt_end[i] = f->nout;
	}
	/* A packet out of range stops the run; on its own it is an error. */
	if (!i && npkts)
		return -PFT_ERR_INVALID;
	return (int)i;
}

int pft_flow_next(struct pft_flow *f, struct pft_elem *elem, size_t size)
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

void pft_flow_sync_state(const struct pft_flow *f, struct flow_sync_state *s)
{
	memset(s, 0, sizeof(*s));
	s->pc = f->pc;
	s->ctxid = f->ctxid;
	s->state = (uint8_t)f->state;
	s->started = (uint8_t)f->started;
	s->pc_valid = (uint8_t)f->pc_valid;
	s->isa = f->isa;
	s->ns = f->ns;
	s->hyp = f->hyp;
	s->vmid = f->vmid;
	s->ctx_known = (uint8_t)f->ctx_known;
	s->vmid_known = (uint8_t)f->vmid_known;
	s->rs_count = (uint8_t)f->rs_count;
	s->queued = f->q_len;
	for (unsigned i = 0; i < f->rs_count; i++) {
		const struct ret_entry *e = &f->rs[(f->rs_top + RETSTACK_MAX - 1 - i) % RETSTACK_MAX];
		s->rs[i].addr = e->addr;
		s->rs[i].isa = e->isa;
	}
}

int pft_flow_sync_state_equal(const struct flow_sync_state *a, const struct flow_sync_state *b)
{
	return !memcmp(a, b, sizeof(*a));
}
