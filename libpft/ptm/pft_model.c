/*
 * PTM model: executed instructions -> PFT packets (pft.h, section model).
 *
 * Each instruction waits in @prev until the next one arrives: only the next
 * address tells whether a waypoint was taken.  Packets are encoded as they
 * are made, so the sync period can count real bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "pft.h"
#include "core/pft_model_log.h"
#include "core/pft_etm_regs.h"
#include "common/pft_size.h"

_Static_assert(sizeof(struct pft_packet) <= MODEL_PKT_MAX &&
		       (int)PFT_ENC_MAX_PACKET <= (int)MODEL_BYTES_MAX,
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

struct pft_model {
	struct pft_config cfg;
	struct pft_model_config mc;
	struct pft_encoder *enc;
	uint32_t ctxid_mask;

	struct model_track t;    /* the log: previous instruction, state */
	int finished, trace_on, synced;

	uint8_t n_atoms, atoms;  /* pending atoms (not cycle-accurate) */

	struct ret_entry rs[RS_DEPTH];
	unsigned rs_top, rs_count;  /* ring: rs_top is the next free slot */

	/* Straight-line run since the last waypoint (or update, or I-sync). */
	uint32_t straight_bytes, straight_last;
	uint8_t straight_isa;

	uint64_t bytes_at_sync, insns;
	uint32_t waypoints;      /* traced, for ts_period */
	/* Cycle times: now; the last cycle count's end; the last waypoint
	 * executed; the last one traced (or the trace-on point). */
	uint64_t now, last_ref, t_last_wp, t_traced;
	uint32_t ctxid;
	uint8_t vmid;

	struct model_queue q;
};

static int config_ok(const struct pft_config *c, const struct pft_model_config *mc)
{
	if (!pft_ctxid_bytes_ok(c->ctxid_bytes))
		return 0;
	if (c->vmid && c->version_minor == 0)
		return 0;
	if (c->return_stack && c->branch_broadcast)
		return 0;
	return model_filter_ok(mc);
}

struct pft_model *pft_model_alloc(const struct pft_config *cfg,
				  const struct pft_model_config *mcfg,
				  struct pft_image *image, int *errcode)
{
	struct pft_model_config mc;
	struct pft_model *m = NULL;
	int err = -PFT_ERR_INVALID;

	if (!cfg || !image || cfg->size < PFT_FIRST_SIZE(struct pft_config) ||
	    model_config_copy(&mc, mcfg))
		goto fail;
	m = calloc(1, sizeof(*m));
	if (!m) {
		err = -PFT_ERR_NOMEM;
		goto fail;
	}
	pft_config_init(&m->cfg);
	pft_copy_known(&m->cfg, cfg, cfg->size, sizeof(m->cfg));
	m->cfg.size = sizeof(m->cfg);
	m->mc = mc;
	if (!config_ok(&m->cfg, &m->mc)) {
		err = -PFT_ERR_BAD_CONFIG;
		goto fail;
	}
	m->enc = pft_enc_alloc(&m->cfg, &err);
	if (!m->enc)
		goto fail;
	m->t.image = image;
	m->t.isa_flags = m->cfg.dmb_dsb_waypoints ? PFT_ISA_DMB_DSB_WAYPOINTS : 0;
	m->t.mc = &m->mc;
	m->q.pkt_size = sizeof(struct pft_packet);
	m->ctxid_mask = m->cfg.ctxid_bytes == 4 ? 0xffffffffu
						: (1u << (8 * m->cfg.ctxid_bytes)) - 1;
	if (errcode)
		*errcode = 0;
	return m;
fail:
	pft_model_free(m);
	if (errcode)
		*errcode = err;
	return NULL;
}

void pft_model_free(struct pft_model *m)
{
	if (!m)
		return;
	pft_enc_free(m->enc);
	free(m);
}

enum pft_error_code pft_model_error(const struct pft_model *m)
{
	return m ? m->t.err : PFT_ERR_OK;
}

uint64_t pft_model_bytes(const struct pft_model *m)
{
	return m ? m->q.bytes : 0;
}

uint64_t pft_model_insns(const struct pft_model *m)
{
	return m ? m->insns : 0;
}

/* ---- Packet output ---- */

static void emit(struct pft_model *m, struct pft_packet *p)
{
	struct model_slot *slot = model_queue_slot(&m->q);
	int n = pft_enc_packet(m->enc, p, slot->bytes, sizeof(slot->bytes));

	p->offset = m->q.bytes;
	p->size = (uint16_t)(n > 0 ? n : 0);
	p->raw = slot->bytes;
	model_queue_push(&m->q, p, n);
}

static void flush_atoms(struct pft_model *m)
{
	struct pft_packet p = { .type = PFT_PKT_ATOM };

	if (!m->n_atoms)
		return;
	p.n_atoms = m->n_atoms;
	p.atoms = m->atoms;
	m->n_atoms = 0;
	m->atoms = 0;
	emit(m, &p);
}

/* Every packet but an atom goes out after the pending atoms. */
static void emit_after_atoms(struct pft_model *m, struct pft_packet *p)
{
	flush_atoms(m);
	emit(m, p);
}

/* Cycles since the last count up to @t; @t becomes the reference. */
static uint32_t take_cycles(struct pft_model *m, uint64_t t)
{
	uint64_t d = t > m->last_ref ? t - m->last_ref : 0;

	if (t > m->last_ref)
		m->last_ref = t;
	return d > 0xfffffffeu ? 0xffffffffu : (uint32_t)d;
}

static void set_cycles(struct pft_model *m, struct pft_packet *p, uint64_t t)
{
	if (m->cfg.cycle_accurate) {
		p->has_cycles = 1;
		p->cycles = take_cycles(m, t);
	}
}

static void put_atom(struct pft_model *m, int executed, uint64_t t)
{
	if (m->cfg.cycle_accurate) {
		struct pft_packet p = { .type = PFT_PKT_ATOM, .n_atoms = 1,
					.atoms = (uint8_t)executed };
		set_cycles(m, &p, t);
		emit(m, &p);
		return;
	}
	m->atoms |= (uint8_t)(executed << m->n_atoms);
	if (++m->n_atoms == ATOMS_PER_PACKET)
		flush_atoms(m);
}

static void put_branch(struct pft_model *m, uint32_t addr, uint8_t isa, uint8_t ns,
		       uint64_t t)
{
	struct pft_packet p = { .type = PFT_PKT_BRANCH, .addr = addr, .isa = isa, .ns = ns };

	flush_atoms(m);
	set_cycles(m, &p, t);
	emit(m, &p);
}

static void put_waypoint_update(struct pft_model *m)
{
	struct pft_packet p = { .type = PFT_PKT_WAYPOINT, .addr = m->straight_last,
				.isa = m->straight_isa };

	emit_after_atoms(m, &p);
	m->straight_bytes = 0;
}

static void put_timestamp(struct pft_model *m)
{
	struct pft_packet p = { .type = PFT_PKT_TIMESTAMP };
	uint64_t width = m->cfg.ts_64bit ? ~0ull : (1ull << 48) - 1;

	flush_atoms(m);
	if (m->cfg.version_minor == 0) {
		/* v1.0: the time the packet is made, with the cycles up to it. */
		set_cycles(m, &p, m->now);
		p.ts = m->now & width;
	} else {
		/* v1.1: the time of the last traced waypoint (count 0). */
		p.ts = m->t_traced & width;
		set_cycles(m, &p, m->t_traced);
	}
	emit(m, &p);
}

static void put_vmid(struct pft_model *m)
{
	struct pft_packet p = { .type = PFT_PKT_VMID, .vmid = m->vmid };

	emit_after_atoms(m, &p);
}

/* A-sync (when due or first) and an I-sync at @in, then what a PTM sends
 * after an I-sync. */
static void put_sync(struct pft_model *m, const struct model_insn *in, unsigned reason)
{
	struct pft_packet p = { .type = PFT_PKT_ISYNC, .addr = in->addr, .isa = in->isa,
				.reason = (uint8_t)reason, .ns = in->ns };

	flush_atoms(m);
	if (!m->synced || m->q.bytes - m->bytes_at_sync >= m->mc.sync_period) {
		struct pft_packet a = { .type = PFT_PKT_ASYNC };
		m->bytes_at_sync = m->q.bytes;
		m->synced = 1;
		emit(m, &a);
		pft_enc_force_tsync(m->enc);
	}
	if (reason != PFT_ISYNC_PERIODIC) {
		set_cycles(m, &p, m->t_last_wp);
		m->t_traced = m->t_last_wp;
	}
	if (m->cfg.ctxid_bytes) {
		p.has_ctxid = 1;
		p.ctxid = m->ctxid;
	}
	emit(m, &p);
	/* Both decoder policies (empty on every I-sync, or on trace-on only)
	 * stay in step with a PTM that empties its stack here. */
	m->rs_count = 0;
	m->straight_bytes = 0;
	if (m->cfg.vmid)
		put_vmid(m);
	if (m->cfg.timestamps)
		put_timestamp(m);
}

/* ---- Return stack ---- */

static void rs_push(struct pft_model *m, uint32_t addr, uint8_t isa, uint8_t ns)
{
	m->rs[m->rs_top] = (struct ret_entry){ addr, isa, ns };
	m->rs_top = (m->rs_top + 1) % RS_DEPTH;
	if (m->rs_count < RS_DEPTH)
		m->rs_count++;
}

/* Pop the top entry if it is (@addr, @isa, @ns). */
static int rs_match_pop(struct pft_model *m, uint32_t addr, uint8_t isa, uint8_t ns)
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

static void trace_off(struct pft_model *m)
{
	flush_atoms(m);
	m->trace_on = 0;
}

/* A traced waypoint @p whose successor is @n: its atom or branch packet. */
static void trace_waypoint(struct pft_model *m, const struct model_insn *p, const struct model_insn *n)
{
	int taken = model_branch_taken(p, n);
	int ns_change = n->ns != m->t.ns;
	int call = p->c.link && taken && m->cfg.return_stack;
	int branch = 0;

	switch (p->c.kind) {
	case PFT_WP_DIRECT:
		branch = taken && (m->cfg.branch_broadcast || ns_change);
		break;
	case PFT_WP_INDIRECT:
		branch = taken && !(m->cfg.return_stack &&
				    rs_match_pop(m, n->addr, n->isa, n->ns));
		break;
	default:
		/* ISB: executed (from v1.1 an N would mean it was not). */
		taken = 1;
		break;
	}
	if (branch)
		put_branch(m, n->addr, n->isa, n->ns, p->t_done);
	else
		put_atom(m, taken, p->t_done);
	if (call)
		rs_push(m, model_insn_next(p), p->isa, m->t.ns);
	m->t_traced = p->t_done;
	m->straight_bytes = 0;
	m->waypoints++;
	if (m->cfg.timestamps && m->mc.ts_period && m->waypoints % m->mc.ts_period == 0)
		put_timestamp(m);
	/* A security change that no branch packet carried needs an I-sync. */
	if (ns_change && !branch)
		trace_off(m);
}

/* A traced instruction that is not a waypoint ran. */
static void add_straight(struct pft_model *m, const struct model_insn *p)
{
	m->straight_bytes += p->c.size;
	m->straight_last = p->addr;
	m->straight_isa = p->isa;
}

/* The previous instruction @p is done and @n follows it. */
static void complete(struct pft_model *m, const struct model_insn *p, const struct model_insn *n)
{
	if (!p->known || p->c.kind != PFT_WP_NONE)
		m->t_last_wp = p->t_done;
	if (!p->traced || !m->trace_on)
		return;
	if (p->c.kind == PFT_WP_NONE) {
		add_straight(m, p);
		if (!n->traceable || n->ns != m->t.ns) {
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

/* @n starts executing: its state changes, then trace on or a periodic sync. */
static void enter(struct pft_model *m, const struct pft_model_insn *src, struct model_insn *n)
{
	if (src->has_ctxid && (src->ctxid & m->ctxid_mask) != m->ctxid) {
		m->ctxid = src->ctxid & m->ctxid_mask;
		if (m->trace_on && m->cfg.ctxid_bytes) {
			struct pft_packet p = { .type = PFT_PKT_CONTEXTID, .ctxid = m->ctxid };
			emit_after_atoms(m, &p);
		}
	}
	if (src->has_vmid && src->vmid != m->vmid) {
		m->vmid = src->vmid;
		if (m->trace_on && m->cfg.vmid)
			put_vmid(m);
	}
	m->t.ns = n->ns;
	if (m->trace_on && m->straight_bytes == 0 &&
	    m->q.bytes - m->bytes_at_sync >= m->mc.sync_period) {
		put_sync(m, n, PFT_ISYNC_PERIODIC);
	} else if (!m->trace_on && n->traceable) {
		put_sync(m, n, PFT_ISYNC_TRACE_ON);
		m->trace_on = 1;
	}
	n->traced = m->trace_on;
}

int pft_model_put(struct pft_model *m, const struct pft_model_insn *insn, size_t size)
{
	struct model_insn in;
	int err;

	if (!m || !insn || size < PFT_FIRST_SIZE(struct pft_model_insn))
		return -PFT_ERR_INVALID;
	if (m->finished)
		return -PFT_ERR_EOS;
	if (model_queue_begin(&m->q))
		return -PFT_ERR_INVALID;
	m->t.err = PFT_ERR_OK;
	err = model_prepare(&m->t, insn, &in);
	if (err < 0)
		return err;
	in.t_done = m->now + (insn->has_cycles ? insn->cycles : 1);
	if (m->t.have_prev)
		complete(m, &m->t.prev, &in);
	enter(m, insn, &in);
	m->now = in.t_done;
	m->t.prev = in;
	m->t.have_prev = 1;
	m->insns++;
	return 0;
}

int pft_model_finish(struct pft_model *m)
{
	if (!m)
		return -PFT_ERR_INVALID;

	const struct model_insn *p = &m->t.prev;

	if (m->finished)
		return -PFT_ERR_EOS;
	if (model_queue_begin(&m->q))
		return -PFT_ERR_INVALID;
	m->finished = 1;
	if (!m->t.have_prev || !p->traced || !m->trace_on)
		return 0;
	if (p->c.kind == PFT_WP_NONE)
		add_straight(m, p);
	/* A waypoint's outcome is unknown: only what ran before it. */
	if (m->straight_bytes)
		put_waypoint_update(m);
	trace_off(m);
	return 0;
}

int pft_model_next(struct pft_model *m, struct pft_packet *pkt, size_t size)
{
	if (!m || !pkt || !size)
		return -PFT_ERR_INVALID;
	return model_queue_next(&m->q, m->finished, pkt, size);
}
