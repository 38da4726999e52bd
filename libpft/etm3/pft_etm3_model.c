/*
 * ETMv3 model: executed instructions -> ETMv3 packets (pft.h, section
 * etm3; doc/model.md "ETMv3 model").
 *
 * The log is read as for the PTM model (pft_model_log.c); what differs is
 * the trace: one atom per instruction (E executed, N condition failed), a
 * branch packet after every taken indirect branch, cycles as W's in the
 * P-headers.  Each instruction waits in t.prev until the next one arrives:
 * only the next address tells whether a branch was taken.
 */
#include <stdlib.h>
#include <string.h>

#include "pft.h"
#include "etm3/pft_etm3_config.h"
#include "core/pft_model_log.h"
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
	struct pft_etm3_config cfg;
	struct pft_model_config mc;
	struct pft_etm3_encoder *enc;
	uint32_t ctxid_mask;

	struct model_track t;
	int finished, trace_on, synced;

	/* Atoms not sent yet: @n_pend of them, bit i = atom i (1 = E).
	 * Cycle-accurate: each has exactly one W (format 1). */
	uint8_t n_pend;
	uint16_t pend;

	uint64_t bytes_at_sync, insns;
	uint32_t branches;       /* taken branches traced, for ts_period */
	/* Cycle times: now; when the last traced instruction completed. */
	uint64_t now, t_traced;
	uint64_t prev_start;     /* when t.prev started */
	uint32_t ctxid;
	uint8_t vmid;

	struct model_queue q;
};

/* ETMv3 can express everything the model configuration asks for except
 * data trace, which the log cannot give. */
static int config_ok(const struct pft_etm3_config *c, const struct pft_model_config *mc)
{
	return !c->data_value && !c->data_address && !c->data_only && model_filter_ok(mc);
}

struct pft_etm3_model *pft_etm3_model_alloc(const struct pft_etm3_config *cfg,
					    const struct pft_model_config *mcfg,
					    struct pft_image *image, int *errcode)
{
	struct pft_etm3_model *m = NULL;
	struct pft_etm3_config c;
	struct pft_model_config mc;
	int err = -PFT_ERR_INVALID;

	if (!image || model_config_copy(&mc, mcfg))
		goto fail;
	err = pft_etm3_config_copy(&c, cfg);
	if (err)
		goto fail;
	err = -PFT_ERR_BAD_CONFIG;
	if (!config_ok(&c, &mc))
		goto fail;
	err = -PFT_ERR_NOMEM;
	m = calloc(1, sizeof(*m));
	if (!m)
		goto fail;
	m->cfg = c;
	m->mc = mc;
	m->enc = pft_etm3_enc_alloc(&m->cfg, &err);
	if (!m->enc)
		goto fail;
	m->t.image = image;
	m->t.mc = &m->mc;
	m->q.pkt_size = sizeof(struct pft_etm3_packet);
	m->ctxid_mask = c.ctxid_bytes == 4 ? 0xffffffffu : (1u << (8 * c.ctxid_bytes)) - 1;
	if (errcode)
		*errcode = 0;
	return m;
fail:
	pft_etm3_model_free(m);
	if (errcode)
		*errcode = err;
	return NULL;
}

void pft_etm3_model_free(struct pft_etm3_model *m)
{
	if (!m)
		return;
	pft_etm3_enc_free(m->enc);
	free(m);
}

enum pft_error_code pft_etm3_model_error(const struct pft_etm3_model *m)
{
	return m ? m->t.err : PFT_ERR_OK;
}

uint64_t pft_etm3_model_bytes(const struct pft_etm3_model *m)
{
	return m ? m->q.bytes : 0;
}

uint64_t pft_etm3_model_insns(const struct pft_etm3_model *m)
{
	return m ? m->insns : 0;
}

/* ---- Packet output ---- */

static void emit(struct pft_etm3_model *m, struct pft_etm3_packet *p)
{
	struct model_slot *slot = model_queue_slot(&m->q);
	int n = pft_etm3_enc_packet(m->enc, p, slot->bytes, sizeof(slot->bytes));

	p->offset = m->q.bytes;
	p->size = (uint16_t)(n > 0 ? n : 0);
	p->raw = slot->bytes;
	model_queue_push(&m->q, p, n);
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
static void flush_atoms(struct pft_etm3_model *m)
{
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
	flush_atoms(m);
	emit(m, p);
}

static void put_atom_run(struct pft_etm3_model *m, int executed)
{
	const unsigned max = m->cfg.cycle_accurate ? CA_RUN_MAX : RUN_MAX;

	/* A format 1 ends at its N; an N alone may pair with the next atom
	 * in a format 2. */
	if (m->n_pend && !(m->pend >> (m->n_pend - 1) & 1) &&
	    (m->n_pend > 1 || m->cfg.cycle_accurate))
		flush_atoms(m);
	m->pend |= (uint16_t)(executed << m->n_pend);
	m->n_pend++;
	if (m->n_pend == 2 && !(m->pend & 1))
		flush_atoms(m);
	else if (executed && m->n_pend == max)
		flush_atoms(m);
}

/* The atom of an instruction that took @cycles: cycle-accurate, W's
 * before it (section 5.5: an atom takes every W since the previous one). */
static void put_atom(struct pft_etm3_model *m, int executed, uint64_t cycles)
{
	if (!m->cfg.cycle_accurate || cycles == 1) {
		put_atom_run(m, executed);
		return;
	}
	flush_atoms(m);
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

static void put_vmid(struct pft_etm3_model *m)
{
	struct pft_etm3_packet p = { .type = PFT_ETM3_PKT_VMID, .vmid = m->vmid };

	emit_after_atoms(m, &p);
}

/* A-sync (when due or first) and an I-sync at @in, then what follows an
 * I-sync (VMID, timestamp).  A cycle-accurate trace-on I-sync carries the
 * cycles of the gap (section 4.4: every non-periodic one needs a count). */
static void put_sync(struct pft_etm3_model *m, const struct model_insn *in, unsigned reason,
		     uint64_t start)
{
	struct pft_etm3_packet p = { .type = PFT_ETM3_PKT_ISYNC, .addr = in->addr, .isa = in->isa,
				     .reason = (uint8_t)reason, .ns = in->ns };

	flush_atoms(m);
	if (!m->synced || m->q.bytes - m->bytes_at_sync >= m->mc.sync_period) {
		struct pft_etm3_packet a = { .type = PFT_ETM3_PKT_ASYNC };
		m->bytes_at_sync = m->q.bytes;
		m->synced = 1;
		emit(m, &a);
		pft_etm3_enc_force_tsync(m->enc);
	}
	if (reason != PFT_ISYNC_PERIODIC && m->cfg.cycle_accurate) {
		uint64_t gap = start > m->t_traced ? start - m->t_traced : 0;
		p.has_cycles = 1;
		p.cycles = gap > 0xffffffffu ? 0 : (uint32_t)gap;  /* 0: unknown */
		m->t_traced = start;
	}
	p.ctxid = m->ctxid;
	p.has_ctxid = m->cfg.ctxid_bytes != 0;
	emit(m, &p);
	if (m->cfg.vmid)
		put_vmid(m);
	if (m->cfg.timestamps)
		put_timestamp(m);
}

static void trace_off(struct pft_etm3_model *m)
{
	flush_atoms(m);
	m->trace_on = 0;
}

/* A traced instruction @p whose successor is @n: its atom, and the branch
 * packet that gives the target where the opcode does not. */
static void trace_insn(struct pft_etm3_model *m, const struct model_insn *p,
		       const struct model_insn *n, uint64_t cycles)
{
	const int branch = p->c.kind == PFT_WP_DIRECT || p->c.kind == PFT_WP_INDIRECT;
	const int taken = branch && model_branch_taken(p, n);
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
					     .isa = n->isa, .ns = m->t.ns };
		emit_after_atoms(m, &b);
	}
	if (taken && m->cfg.timestamps && m->mc.ts_period && ++m->branches % m->mc.ts_period == 0)
		put_timestamp(m);
}

/* The previous instruction @p (which started at @start) is done and @n
 * follows it. */
static void complete(struct pft_etm3_model *m, const struct model_insn *p,
		     const struct model_insn *n, uint64_t start)
{
	if (!p->traced || !m->trace_on)
		return;
	trace_insn(m, p, n, p->t_done - start);
	/* A change of security state: trace restarts with an I-sync. */
	if (!n->traceable || n->ns != m->t.ns)
		trace_off(m);
}

/* @n starts executing at @start: its state changes, then trace on or a
 * periodic sync. */
static void enter(struct pft_etm3_model *m, const struct pft_model_insn *src,
		  struct model_insn *n, uint64_t start)
{
	if (src->has_ctxid && (src->ctxid & m->ctxid_mask) != m->ctxid) {
		m->ctxid = src->ctxid & m->ctxid_mask;
		if (m->trace_on && m->cfg.ctxid_bytes) {
			struct pft_etm3_packet p = { .type = PFT_ETM3_PKT_CONTEXTID,
						     .ctxid = m->ctxid };
			emit_after_atoms(m, &p);
		}
	}
	if (src->has_vmid && src->vmid != m->vmid) {
		m->vmid = src->vmid;
		if (m->trace_on && m->cfg.vmid)
			put_vmid(m);
	}
	m->t.ns = n->ns;
	if (m->trace_on && m->q.bytes - m->bytes_at_sync >= m->mc.sync_period) {
		put_sync(m, n, PFT_ISYNC_PERIODIC, start);
	} else if (!m->trace_on && n->traceable) {
		put_sync(m, n, PFT_ISYNC_TRACE_ON, start);
		m->trace_on = 1;
	}
	n->traced = (uint8_t)m->trace_on;
}

int pft_etm3_model_put(struct pft_etm3_model *m, const struct pft_model_insn *insn,
		       size_t size)
{
	struct model_insn in;

	if (!m || !insn || size < PFT_FIRST_SIZE(struct pft_model_insn))
		return -PFT_ERR_INVALID;
	if (m->finished)
		return -PFT_ERR_EOS;
	if (model_queue_begin(&m->q))
		return -PFT_ERR_INVALID;
	m->t.err = PFT_ERR_OK;
	int err = model_prepare(&m->t, insn, &in);
	if (err < 0)
		return err;
	const uint64_t start = m->now;
	in.t_done = start + (insn->has_cycles ? insn->cycles : 1);
	if (m->t.have_prev)
		complete(m, &m->t.prev, &in, m->prev_start);
	enter(m, insn, &in, start);
	m->prev_start = start;
	m->now = in.t_done;
	m->t.prev = in;
	m->t.have_prev = 1;
	m->insns++;
	return 0;
}

int pft_etm3_model_finish(struct pft_etm3_model *m)
{
	if (!m)
		return -PFT_ERR_INVALID;
	if (m->finished)
		return -PFT_ERR_EOS;
	if (model_queue_begin(&m->q))
		return -PFT_ERR_INVALID;
	m->finished = 1;

	const struct model_insn *p = &m->t.prev;
	if (!m->t.have_prev || !p->traced || !m->trace_on)
		return 0;
	/* A branch's outcome is unknown without a next instruction. */
	if (p->c.kind != PFT_WP_DIRECT && p->c.kind != PFT_WP_INDIRECT) {
		put_atom(m, !p->cond_failed, p->t_done - m->prev_start);
		m->t_traced = p->t_done;
	}
	trace_off(m);
	return 0;
}

int pft_etm3_model_next(struct pft_etm3_model *m, struct pft_etm3_packet *pkt, size_t size)
{
	if (!m || !pkt || !size)
		return -PFT_ERR_INVALID;
	return model_queue_next(&m->q, m->finished, pkt, size);
}
