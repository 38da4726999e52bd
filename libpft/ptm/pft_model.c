/*
 * PTM model: executed instructions -> PFT packets (pft.h, section model).
 *
 * The walk over the log is core/pft_model_walk.c's; this file is what a
 * PTM traces (its struct model_ops): atoms five to a packet, branch
 * packets, waypoint updates, the return stack, I-syncs and timestamps.
 */
#include <stdlib.h>
#include <string.h>

#include "pft.h"
#include "ptm/pft_config_int.h"
#include "core/pft_model_walk.h"
#include "core/pft_etm_regs.h"
#include "common/pft_size.h"

_Static_assert(sizeof(struct pft_ptm_packet) <= MODEL_PKT_MAX &&
		       (int)PFT_PTM_ENC_MAX_PACKET <= (int)MODEL_BYTES_MAX,
	       "model queue slots too small");

enum {
	RS_DEPTH = 16,           /* as OpenCSD's (pft-flow.md 6) */
	ATOMS_PER_PACKET = 5,
	WP_UPDATE_BYTES = 4096   /* straight-line bytes before a waypoint update */
};

struct ret_entry {
	uint32_t addr;
	uint8_t isa, ns;
};

struct pft_ptm_model {
	struct model_walk w;     /* the log, the queue, what every model has */
	struct pft_ptm_config cfg;

	uint8_t n_atoms, atoms;  /* pending atoms (not cycle-accurate) */

	struct ret_entry rs[RS_DEPTH];
	unsigned rs_top, rs_count;  /* ring: rs_top is the next free slot */

	/* Straight-line run since the last waypoint (or update, or I-sync). */
	uint32_t straight_bytes, straight_last;
	uint8_t straight_isa;

	uint32_t waypoints;      /* traced, for ts_period */
	/* Cycle times: the last cycle count's end; the last waypoint
	 * executed; the last one traced (or the trace-on point). */
	uint64_t last_ref, t_last_wp, t_traced;
};

_Static_assert(offsetof(struct pft_ptm_model, w) == 0, "the walk comes first");

static const struct model_ops ptm_ops;

/* The configuration as a model takes it (@c: the defaults at least):
 * 0, -PFT_ERR_INVALID or -PFT_ERR_BAD_CONFIG (pft_ptm_config_check()). */
static int take_config(struct pft_ptm_config *c, const struct pft_ptm_config *cfg)
{
	pft_ptm_config_init(c);
	if (!cfg || cfg->size < PFT_FIRST_SIZE(struct pft_ptm_config))
		return -PFT_ERR_INVALID;
	pft_copy_known(c, cfg, cfg->size, sizeof(*c));
	c->size = sizeof(*c);
	return pft_ptm_config_check(c) ? -PFT_ERR_BAD_CONFIG : 0;
}

struct pft_ptm_model *pft_ptm_model_alloc(const struct pft_ptm_config *cfg,
				  const struct pft_model_config *mcfg,
				  struct pft_image *image, int *errcode)
{
	struct pft_ptm_config c;
	int err = take_config(&c, cfg);
	const struct model_trace trace = {
		c.ctxid_bytes, c.vmid, c.dmb_dsb_waypoints ? PFT_ISA_DMB_DSB_WAYPOINTS : 0, 0
	};

	return pft_model_walk_alloc(&ptm_ops, &c, err, &trace, mcfg, image, errcode);
}

MODEL_WALK_EXPORTS(pft_ptm_model, struct pft_ptm_model, struct pft_ptm_packet)

/* ---- Packet output ---- */

static void emit(struct pft_ptm_model *m, struct pft_ptm_packet *p)
{
	pft_model_emit(&m->w, p);
}

static void flush_atoms(struct model_walk *w)
{
	struct pft_ptm_model *m = (struct pft_ptm_model *)w;
	struct pft_ptm_packet p = { .type = PFT_PTM_PKT_ATOM };

	if (!m->n_atoms)
		return;
	p.n_atoms = m->n_atoms;
	p.atoms = m->atoms;
	m->n_atoms = 0;
	m->atoms = 0;
	emit(m, &p);
}

/* Every packet but an atom goes out after the pending atoms. */
static void emit_after_atoms(struct pft_ptm_model *m, struct pft_ptm_packet *p)
{
	pft_model_emit_after_atoms(&m->w, p);
}

/* Cycles since the last count up to @t; @t becomes the reference. */
static uint32_t take_cycles(struct pft_ptm_model *m, uint64_t t)
{
	uint64_t d = t > m->last_ref ? t - m->last_ref : 0;

	if (t > m->last_ref)
		m->last_ref = t;
	return d > 0xfffffffeu ? 0xffffffffu : (uint32_t)d;
}

static void set_cycles(struct pft_ptm_model *m, struct pft_ptm_packet *p, uint64_t t)
{
	if (m->cfg.cycle_accurate) {
		p->has_cycles = 1;
		p->cycles = take_cycles(m, t);
	}
}

static void put_atom(struct pft_ptm_model *m, int executed, uint64_t t)
{
	if (m->cfg.cycle_accurate) {
		struct pft_ptm_packet p = { .type = PFT_PTM_PKT_ATOM, .n_atoms = 1,
					.atoms = (uint8_t)executed };
		set_cycles(m, &p, t);
		emit(m, &p);
		return;
	}
	m->atoms |= (uint8_t)(executed << m->n_atoms);
	if (++m->n_atoms == ATOMS_PER_PACKET)
		flush_atoms(&m->w);
}

/* A branch packet to @addr at time @t: of exception @exception (0: an
 * ordinary branch). */
static void put_branch(struct pft_ptm_model *m, uint32_t addr, uint8_t isa, uint8_t ns,
		       uint16_t exception, uint64_t t)
{
	struct pft_ptm_packet p = { .type = PFT_PTM_PKT_BRANCH, .addr = addr, .isa = isa, .ns = ns,
				    .exception = exception };

	flush_atoms(&m->w);
	set_cycles(m, &p, t);
	emit(m, &p);
}

static void put_waypoint_update(struct pft_ptm_model *m)
{
	struct pft_ptm_packet p = { .type = PFT_PTM_PKT_WAYPOINT, .addr = m->straight_last,
				.isa = m->straight_isa };

	emit_after_atoms(m, &p);
	m->straight_bytes = 0;
}

static void put_timestamp(struct pft_ptm_model *m)
{
	struct pft_ptm_packet p = { .type = PFT_PTM_PKT_TIMESTAMP };

	flush_atoms(&m->w);
	if (m->cfg.version_minor == 0) {
		/* v1.0: the time the packet is made, with the cycles up to it. */
		set_cycles(m, &p, m->w.now);
		p.ts = pft_model_ts(&m->w, m->w.now, m->cfg.ts_64bit);
	} else {
		/* v1.1: the time of the last traced waypoint (count 0). */
		p.ts = pft_model_ts(&m->w, m->t_traced, m->cfg.ts_64bit);
		set_cycles(m, &p, m->t_traced);
	}
	emit(m, &p);
}

/* A-sync (when due or first) and an I-sync at @in, then what a PTM sends
 * after an I-sync. */
static void put_sync(struct model_walk *w, const struct model_insn *in, unsigned reason,
		     uint64_t start)
{
	struct pft_ptm_model *m = (struct pft_ptm_model *)w;
	struct pft_ptm_packet p = { .type = PFT_PTM_PKT_ISYNC, .addr = in->addr, .isa = in->isa,
				.reason = (uint8_t)reason, .ns = in->ns };

	(void)start;
	pft_model_sync_begin(w);
	if (reason != PFT_ISYNC_PERIODIC) {
		set_cycles(m, &p, m->t_last_wp);
		m->t_traced = m->t_last_wp;
	}
	if (m->cfg.ctxid_bytes) {
		p.has_ctxid = 1;
		p.ctxid = w->ctxid;
	}
	emit(m, &p);
	/* Both decoder policies (empty on every I-sync, or on trace-on only)
	 * stay in step with a PTM that empties its stack here. */
	m->rs_count = 0;
	m->straight_bytes = 0;
	if (m->cfg.vmid)
		pft_model_put_vmid(w);
	if (m->cfg.timestamps)
		put_timestamp(m);
}

/* ---- Return stack ---- */

static void rs_push(struct pft_ptm_model *m, uint32_t addr, uint8_t isa, uint8_t ns)
{
	m->rs[m->rs_top] = (struct ret_entry){ addr, isa, ns };
	m->rs_top = (m->rs_top + 1) % RS_DEPTH;
	if (m->rs_count < RS_DEPTH)
		m->rs_count++;
}

/* Pop the top entry if it is (@addr, @isa, @ns). */
static int rs_match_pop(struct pft_ptm_model *m, uint32_t addr, uint8_t isa, uint8_t ns)
{
	unsigned top = (m->rs_top + RS_DEPTH - 1) % RS_DEPTH;

	if (!m->rs_count || m->rs[top].addr != addr || m->rs[top].isa != isa ||
	    m->rs[top].ns != ns)
		return 0;
	m->rs_top = top;
	m->rs_count--;
	return 1;
}

/* ---- Instructions ---- */

static void trace_off(struct pft_ptm_model *m)
{
	pft_model_trace_off(&m->w);
}

/* A traced waypoint @p whose successor is @n: its atom or branch packet. */
static void trace_waypoint(struct pft_ptm_model *m, const struct model_insn *p, const struct model_insn *n)
{
	int taken = pft_model_branch_taken(p, n);
	int ns_change = n->ns != m->w.t.ns;
	int call = p->c.link && taken && m->cfg.return_stack;
	int branch = 0;

	switch (p->c.kind) {
	case PFT_WP_DIRECT:
		branch = taken && (m->cfg.branch_broadcast || ns_change);
		break;
	case PFT_WP_INDIRECT:
		/* An exception return, which changes the mode, goes out as an
		 * address even when it matches the stack (a PTM may; pft-flow.md
		 * 6 saw an A15 do so for a return): decoders that do not take
		 * an A32 ERET for a waypoint (OpenCSD, pft-protocol.md A17)
		 * then still follow it. */
		branch = taken && !(m->cfg.return_stack && !p->c.exc_return &&
				    rs_match_pop(m, n->addr, n->isa, n->ns));
		break;
	default:
		/* ISB: executed (from v1.1 an N would mean it was not). */
		taken = 1;
		break;
	}
	if (branch)
		put_branch(m, n->addr, n->isa, n->ns, 0, p->t_done);
	else
		put_atom(m, taken, p->t_done);
	if (call)
		rs_push(m, model_insn_next(p), p->isa, m->w.t.ns);
	m->t_traced = p->t_done;
	m->straight_bytes = 0;
	m->waypoints++;
	if (m->cfg.timestamps && m->w.mc.ts_period && m->waypoints % m->w.mc.ts_period == 0)
		put_timestamp(m);
	/* A security change that no branch packet carried needs an I-sync. */
	if (ns_change && !branch)
		trace_off(m);
}

/* A traced instruction that is not a waypoint ran. */
static void add_straight(struct pft_ptm_model *m, const struct model_insn *p)
{
	m->straight_bytes += p->c.size;
	m->straight_last = p->addr;
	m->straight_isa = p->isa;
}

/* The previous instruction @p is done and @n follows it. */
static void complete(struct model_walk *w, const struct model_insn *p, const struct model_insn *n,
		     uint64_t start)
{
	struct pft_ptm_model *m = (struct pft_ptm_model *)w;

	(void)start;
	if (!p->known || p->c.kind != PFT_WP_NONE)
		m->t_last_wp = p->t_done;
	if (!p->traced || !w->trace_on)
		return;
	if (p->c.kind == PFT_WP_NONE) {
		add_straight(m, p);
		if (!n->traceable || n->ns != m->w.t.ns) {
			put_waypoint_update(m);
			trace_off(m);
		} else if (m->straight_bytes >= WP_UPDATE_BYTES) {
			put_waypoint_update(m);
		}
		return;
	}
	trace_waypoint(m, p, n);
	if (!n->traceable)
		trace_off(m);
}

/* An exception before @in (pft-flow.md 5.3): what ran since the last
 * waypoint ends in a waypoint update, then the exception branch to the
 * vector, which implies no atom. */
static void exception(struct model_walk *w, const struct model_insn *in, unsigned number,
		      int tail_chain)
{
	(void)tail_chain; /* never: no M-profile core has a PTM */
	struct pft_ptm_model *m = (struct pft_ptm_model *)w;

	if (m->straight_bytes)
		put_waypoint_update(m);
	if (!in->traceable) {
		trace_off(m);
		return;
	}
	put_branch(m, in->addr, in->isa, in->ns, (uint16_t)number, w->now);
	m->t_traced = w->now;
}

/* A periodic I-sync waits for the end of a straight-line run. */
static int may_resync(const struct model_walk *w)
{
	return ((const struct pft_ptm_model *)w)->straight_bytes == 0;
}

/* The log ended after @p: a waypoint's outcome is unknown, so only what
 * ran before it is traced. */
static void finish(struct model_walk *w, const struct model_insn *p)
{
	struct pft_ptm_model *m = (struct pft_ptm_model *)w;

	if (p->c.kind == PFT_WP_NONE)
		add_straight(m, p);
	if (m->straight_bytes)
		put_waypoint_update(m);
}

MODEL_ENCODER(pft_ptm_enc, struct pft_ptm_encoder, struct pft_ptm_packet, struct pft_ptm_config)

static const struct model_ops ptm_ops = {
	.model_size = sizeof(struct pft_ptm_model),
	.at_cfg = offsetof(struct pft_ptm_model, cfg),
	.cfg_size = sizeof(struct pft_ptm_config),
	MODEL_PKT_LAYOUT(struct pft_ptm_packet, PFT_PTM_PKT_ASYNC, PFT_PTM_PKT_CONTEXTID, PFT_PTM_PKT_VMID),
	MODEL_ENCODER_OPS,
	.flush_atoms = flush_atoms,
	.complete = complete,
	.may_resync = may_resync,
	.put_sync = put_sync,
	.exception = exception,
	.finish = finish,
};
