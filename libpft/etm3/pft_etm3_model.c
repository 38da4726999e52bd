/*
 * ETMv3 model: executed instructions -> ETMv3 packets (pft.h, section
 * etm3; doc/model.md "ETMv3 model").
 *
 * The walk over the log is core/pft_model_walk.c's; this file is what an
 * ETM traces (its struct model_ops): one atom per instruction (E executed,
 * N condition failed), a branch packet after every taken indirect branch,
 * cycles as W's in the P-headers.
 */
#include <stdlib.h>
#include <string.h>

#include "pft.h"
#include "etm3/pft_etm3_config.h"
#include "core/pft_model_walk.h"
#include "common/pft_size.h"

_Static_assert(sizeof(struct pft_etm3_packet) <= MODEL_PKT_MAX &&
		       (int)PFT_ETM3_ENC_MAX_PACKET <= (int)MODEL_BYTES_MAX,
	       "model queue slots too small");

enum {
	CA_RUN_MAX = 7,          /* WE's in a cycle-accurate format 1 */
	RUN_MAX = 15,            /* E's in a format 1 */
	CA_W_MAX = 8             /* W's in a format 3 */
};

struct pft_etm3_model {
	struct model_walk w;     /* the log, the queue, what every model has */
	struct pft_etm3_config cfg;

	/* Atoms not sent yet: @n_pend of them, bit i = atom i (1 = E).
	 * Cycle-accurate: each has exactly one W (format 1). */
	uint8_t n_pend;
	uint16_t pend;

	uint32_t branches;       /* taken branches traced, for ts_period */
	uint64_t t_traced;       /* when the last traced instruction completed */
};

_Static_assert(offsetof(struct pft_etm3_model, w) == 0, "the walk comes first");

static const struct model_ops etm3_ops;

/* The configuration as the model takes it (@c: the defaults at least):
 * 0, -PFT_ERR_INVALID or -PFT_ERR_BAD_CONFIG.  ETMv3 can express
 * everything the model configuration asks for except data trace, which
 * the log cannot give. */
static int take_config(struct pft_etm3_config *c, const struct pft_etm3_config *cfg)
{
	pft_etm3_config_init(c);

	int err = pft_etm3_config_copy(c, cfg);
	if (!err && (c->data_value || c->data_address || c->data_only))
		err = -PFT_ERR_BAD_CONFIG;
	return err;
}

struct pft_etm3_model *pft_etm3_model_alloc(const struct pft_etm3_config *cfg,
					    const struct pft_model_config *mcfg,
					    struct pft_image *image, int *errcode)
{
	struct pft_etm3_config c;
	int err = take_config(&c, cfg);
	const struct model_trace trace = { c.ctxid_bytes, c.vmid, 0 };

	return pft_model_walk_alloc(&etm3_ops, &c, err, &trace, mcfg, image, errcode);
}

MODEL_WALK_EXPORTS(pft_etm3_model, struct pft_etm3_model, struct pft_etm3_packet)

/* ---- Packet output ---- */

static void emit(struct pft_etm3_model *m, struct pft_etm3_packet *p)
{
	pft_model_emit(&m->w, p);
}

static void emit_pheader(struct pft_etm3_model *m, unsigned format, unsigned n,
			 unsigned atoms, unsigned cycles)
{
	struct pft_etm3_packet p = { .type = PFT_ETM3_PKT_PHEADER, .format = (uint8_t)format,
				     .n_atoms = (uint8_t)n, .atoms = atoms, .cycles = cycles };
	emit(m, &p);
}

/* Send the pending atoms: E..E[N] as format 1; N then one atom as
 * format 2 (not cycle-accurate). */
static void flush_atoms(struct model_walk *w)
{
	struct pft_etm3_model *m = (struct pft_etm3_model *)w;
	const unsigned n = m->n_pend;

	if (!n)
		return;
	if (n == 2 && !(m->pend & 1) && !m->cfg.cycle_accurate)
		emit_pheader(m, 2, 2, m->pend, 0);
	else
		emit_pheader(m, 1, n, m->pend, m->cfg.cycle_accurate ? n : 0);
	m->n_pend = 0;
	m->pend = 0;
}

/* Every other packet goes out after the pending atoms. */
static void emit_after_atoms(struct pft_etm3_model *m, struct pft_etm3_packet *p)
{
	pft_model_emit_after_atoms(&m->w, p);
}

static void put_atom_run(struct pft_etm3_model *m, int executed)
{
	const unsigned max = m->cfg.cycle_accurate ? CA_RUN_MAX : RUN_MAX;

	/* A format 1 ends at its N; an N alone may pair with the next atom
	 * in a format 2. */
	if (m->n_pend && !(m->pend >> (m->n_pend - 1) & 1) &&
	    (m->n_pend > 1 || m->cfg.cycle_accurate))
		flush_atoms(&m->w);
	m->pend |= (uint16_t)(executed << m->n_pend);
	m->n_pend++;
	if (m->n_pend == 2 && !(m->pend & 1))
		flush_atoms(&m->w);
	else if (executed && m->n_pend == max)
		flush_atoms(&m->w);
}

/* The atom of an instruction that took @cycles: cycle-accurate, W's
 * before it (section 5.5: an atom takes every W since the previous one). */
static void put_atom(struct pft_etm3_model *m, int executed, uint64_t cycles)
{
	if (!m->cfg.cycle_accurate || cycles == 1) {
		put_atom_run(m, executed);
		return;
	}
	flush_atoms(&m->w);
	if (cycles == 0) {
		emit_pheader(m, 4, 1, (unsigned)executed, 0);
		return;
	}
	/* W-only format 3 headers, then the atom with its last W's. */
	uint64_t last = executed ? (cycles - 1) % CA_W_MAX + 1 : 1;
	for (uint64_t w = cycles - last; w;) {
		unsigned chunk = w > CA_W_MAX ? CA_W_MAX : (unsigned)w;
		emit_pheader(m, 3, 0, 0, chunk);
		w -= chunk;
	}
	if (executed)
		emit_pheader(m, 3, 1, 1, (unsigned)last);
	else
		emit_pheader(m, 1, 1, 0, 1);
}

static void put_timestamp(struct pft_etm3_model *m)
{
	struct pft_etm3_packet p = { .type = PFT_ETM3_PKT_TIMESTAMP };

	p.ts = m->t_traced & (m->cfg.ts_64bit ? ~0ull : (1ull << 48) - 1);
	emit_after_atoms(m, &p);
}

/* A-sync (when due or first) and an I-sync at @in, then what follows an
 * I-sync (VMID, timestamp).  A cycle-accurate trace-on I-sync carries the
 * cycles of the gap (section 4.4: every non-periodic one needs a count). */
static void put_sync(struct model_walk *w, const struct model_insn *in, unsigned reason,
		     uint64_t start)
{
	struct pft_etm3_model *m = (struct pft_etm3_model *)w;
	struct pft_etm3_packet p = { .type = PFT_ETM3_PKT_ISYNC, .addr = in->addr, .isa = in->isa,
				     .reason = (uint8_t)reason, .ns = in->ns };

	pft_model_sync_begin(w);
	if (reason != PFT_ISYNC_PERIODIC && m->cfg.cycle_accurate) {
		uint64_t gap = start > m->t_traced ? start - m->t_traced : 0;
		p.has_cycles = 1;
		p.cycles = gap > 0xffffffffu ? 0 : (uint32_t)gap;  /* 0: unknown */
		m->t_traced = start;
	}
	p.ctxid = w->ctxid;
	p.has_ctxid = m->cfg.ctxid_bytes != 0;
	emit(m, &p);
	if (m->cfg.vmid)
		pft_model_put_vmid(w);
	if (m->cfg.timestamps)
		put_timestamp(m);
}

/* A traced instruction @p whose successor is @n: its atom, and the branch
 * packet that gives the target where the opcode does not. */
static void trace_insn(struct pft_etm3_model *m, const struct model_insn *p,
		       const struct model_insn *n, uint64_t cycles)
{
	const int branch = p->c.kind == PFT_WP_DIRECT || p->c.kind == PFT_WP_INDIRECT;
	const int taken = branch && pft_model_branch_taken(p, n);
	int executed = !p->cond_failed;

	if (branch)
		executed = taken || !(p->c.conditional || p->in_it);
	put_atom(m, executed, cycles);
	m->t_traced = p->t_done;
	/* A BLX immediate changes the ISA: its target is in the opcode, but
	 * OpenCSD (1.3.3) restores the old ISA at the next P-header without
	 * a branch packet; section 5.2 allows one for an ISA change. */
	if (taken && (p->c.kind == PFT_WP_INDIRECT || m->cfg.branch_broadcast ||
		      n->isa != p->isa)) {
		struct pft_etm3_packet b = { .type = PFT_ETM3_PKT_BRANCH, .addr = n->addr,
					     .isa = n->isa, .ns = m->w.t.ns };
		emit_after_atoms(m, &b);
	}
	if (taken && m->cfg.timestamps && m->w.mc.ts_period && ++m->branches % m->w.mc.ts_period == 0)
		put_timestamp(m);
}

/* The previous instruction @p (which started at @start) is done and @n
 * follows it. */
static void complete(struct model_walk *w, const struct model_insn *p,
		     const struct model_insn *n, uint64_t start)
{
	if (!p->traced || !w->trace_on)
		return;
	trace_insn((struct pft_etm3_model *)w, p, n, p->t_done - start);
	/* A change of security state: trace restarts with an I-sync. */
	if (!n->traceable || n->ns != w->t.ns)
		pft_model_trace_off(w);
}

/* An exception before @in: after the atoms of what ran, a branch packet
 * to the vector with the exception's number (Cancel 0: the interrupted
 * instruction, if any, was left out of the log, so no atom is taken
 * back). */
static void exception(struct model_walk *w, const struct model_insn *in, unsigned number)
{
	struct pft_etm3_model *m = (struct pft_etm3_model *)w;
	struct pft_etm3_packet b = { .type = PFT_ETM3_PKT_BRANCH, .addr = in->addr, .isa = in->isa,
				     .ns = in->ns, .exception = (uint16_t)number };

	if (!in->traceable) {
		pft_model_trace_off(w);
		return;
	}
	emit_after_atoms(m, &b);
	m->t_traced = w->now;
}

/* The log ended after @p: a branch's outcome is unknown without a next
 * instruction, any other instruction's atom is known. */
static void finish(struct model_walk *w, const struct model_insn *p)
{
	struct pft_etm3_model *m = (struct pft_etm3_model *)w;

	if (p->c.kind != PFT_WP_DIRECT && p->c.kind != PFT_WP_INDIRECT) {
		put_atom(m, !p->cond_failed, p->t_done - w->prev_start);
		m->t_traced = p->t_done;
	}
}

MODEL_ENCODER(pft_etm3_enc, struct pft_etm3_encoder, struct pft_etm3_packet,
	      struct pft_etm3_config)

static const struct model_ops etm3_ops = {
	.model_size = sizeof(struct pft_etm3_model),
	.at_cfg = offsetof(struct pft_etm3_model, cfg),
	.cfg_size = sizeof(struct pft_etm3_config),
	MODEL_PKT_LAYOUT(struct pft_etm3_packet, PFT_ETM3_PKT_ASYNC, PFT_ETM3_PKT_CONTEXTID, PFT_ETM3_PKT_VMID),
	MODEL_ENCODER_OPS,
	.flush_atoms = flush_atoms,
	.complete = complete,
	.put_sync = put_sync,
	.exception = exception,
	.finish = finish,
};
