/* The walk every model makes over the log (pft_model_walk.h). */
#include <stdlib.h>
#include <string.h>

#include "core/pft_model_walk.h"
#include "common/pft_size.h"
#include "common/pft_diag.h"

void *pft_model_walk_alloc(const struct model_ops *ops, const void *cfg, int cfg_err,
		       const struct model_trace *trace, const struct pft_model_config *mcfg,
		       struct pft_image *image, int *errcode)
{
	struct pft_model_config mc;
	struct model_walk *w = NULL;
	int err = 0;

	if (!image || pft_model_config_copy(&mc, mcfg))
		err = -PFT_ERR_INVALID;
	else if (cfg_err)
		err = cfg_err;
	else if (!pft_model_filter_ok(&mc))
		err = -PFT_ERR_BAD_CONFIG;
	else if (!(w = calloc(1, ops->model_size)))
		err = -PFT_ERR_NOMEM;
	if (w) {
		unsigned char *own_cfg = (unsigned char *)w + ops->at_cfg;

		memcpy(own_cfg, cfg, ops->cfg_size);
		w->ops = ops;
		w->mc = mc;
		w->t.image = image;
		w->t.mc = &w->mc;
		w->t.isa_flags = trace->isa_flags;
		w->q.pkt_size = ops->pkt_size;
		w->trace_ctxid = trace->ctxid_bytes != 0;
		w->ctxid_mask = trace->ctxid_bytes >= 4 ? 0xffffffffu
							 : (1u << (8 * trace->ctxid_bytes)) - 1;
		w->trace_vmid = trace->vmid != 0;
		w->enc = ops->enc_alloc(own_cfg, &err);
		if (!w->enc) {
			free(w);
			w = NULL;
		}
	}
	if (errcode)
		*errcode = err;
	return w;
}

void pft_model_walk_free(struct model_walk *w)
{
	if (!w)
		return;
	if (w->enc)
		w->ops->enc_free(w->enc);
	free(w);
}

/* ---- Packet output ---- */

void pft_model_emit(struct model_walk *w, void *pkt)
{
	const struct model_ops *o = w->ops;
	struct model_slot *slot = pft_model_queue_slot(&w->q);
	int n = o->encode(w->enc, pkt, slot->bytes, sizeof(slot->bytes));
	const uint8_t *raw = slot->bytes;
	uint16_t size = (uint16_t)(n > 0 ? n : 0);
	unsigned char *p = pkt;

	memcpy(p + o->at_offset, &w->q.bytes, sizeof(w->q.bytes));
	memcpy(p + o->at_size, &size, sizeof(size));
	memcpy(p + o->at_raw, &raw, sizeof(raw));
	pft_model_queue_push(&w->q, pkt, n);
}

void pft_model_emit_after_atoms(struct model_walk *w, void *pkt)
{
	w->ops->flush_atoms(w);
	pft_model_emit(w, pkt);
}

/* A packet of @type with nothing but its context ID and VMID fields. */
static void emit_simple(struct model_walk *w, uint8_t type)
{
	const struct model_ops *o = w->ops;
	struct model_slot pkt;   /* its pkt: aligned for any packet struct */

	memset(pkt.pkt, 0, o->pkt_size);
	pkt.pkt[o->at_type] = type;
	if (type == o->type_ctxid)
		memcpy(pkt.pkt + o->at_ctxid, &w->ctxid, sizeof(w->ctxid));
	if (type == o->type_vmid)
		pkt.pkt[o->at_vmid] = w->vmid;
	if (type == o->type_async)
		pft_model_emit(w, pkt.pkt);
	else
		pft_model_emit_after_atoms(w, pkt.pkt);
}

void pft_model_put_vmid(struct model_walk *w)
{
	emit_simple(w, w->ops->type_vmid);
}

void pft_model_sync_begin(struct model_walk *w)
{
	w->ops->flush_atoms(w);
	if (!w->synced || w->q.bytes - w->bytes_at_sync >= w->mc.sync_period) {
		w->bytes_at_sync = w->q.bytes;
		w->synced = 1;
		emit_simple(w, w->ops->type_async);
		w->ops->force_tsync(w->enc);
	}
}

void pft_model_trace_off(struct model_walk *w)
{
	w->ops->flush_atoms(w);
	w->trace_on = 0;
}

/* ---- Instructions ---- */

/* @n starts executing at @start: its state changes, then trace on or a
 * periodic sync. */
static void enter(struct model_walk *w, const struct pft_model_insn *src, struct model_insn *n,
		  uint64_t start)
{
	if (src->has_ctxid && (src->ctxid & w->ctxid_mask) != w->ctxid) {
		w->ctxid = src->ctxid & w->ctxid_mask;
		if (w->trace_on && w->trace_ctxid)
			emit_simple(w, w->ops->type_ctxid);
	}
	if (src->has_vmid && src->vmid != w->vmid) {
		w->vmid = src->vmid;
		if (w->trace_on && w->trace_vmid)
			pft_model_put_vmid(w);
	}
	w->t.ns = n->ns;
	if (w->trace_on && (!w->ops->may_resync || w->ops->may_resync(w)) &&
	    w->q.bytes - w->bytes_at_sync >= w->mc.sync_period) {
		w->ops->put_sync(w, n, PFT_ISYNC_PERIODIC, start);
	} else if (!w->trace_on && n->traceable) {
		w->ops->put_sync(w, n, PFT_ISYNC_TRACE_ON, start);
		w->trace_on = 1;
	}
	n->traced = (uint8_t)w->trace_on;
}

int pft_model_walk_put(struct model_walk *w, const struct pft_model_insn *given, size_t size)
{
	struct pft_model_insn insn;
	struct model_insn in, ret;

	if (!w || !given || size < PFT_FIRST_SIZE(struct pft_model_insn))
		return -PFT_ERR_INVALID;
	if (w->finished)
		return pft_diag_set(&w->t.diag, -PFT_ERR_EOS,
				    "an instruction after the end of the log");
	if (pft_model_queue_begin(&w->q))
		return pft_diag_set(&w->t.diag, -PFT_ERR_INVALID,
				    "the packets of the instruction before are not all taken");
	pft_diag_clear(&w->t.diag);
	/* A caller built against an older, shorter struct: the rest is 0. */
	memset(&insn, 0, sizeof(insn));
	pft_copy_known(&insn, given, size, sizeof(insn));
	int err = pft_model_prepare(&w->t, &insn, &in, &ret);
	if (err < 0)
		return err;
	const uint64_t start = w->now;
	in.t_done = start + (insn.has_cycles ? insn.cycles : 1);
	if (w->t.have_prev) {
		/* An exception: the previous instruction completes as if the
		 * interrupted flow had gone on, then the exception is traced. */
		w->ops->complete(w, &w->t.prev, insn.exception ? &ret : &in, w->prev_start);
		if (insn.exception && w->trace_on)
			w->ops->exception(w, &in, insn.exception);
	}
	enter(w, &insn, &in, start);
	w->prev_start = start;
	w->now = in.t_done;
	w->t.prev = in;
	w->t.have_prev = 1;
	w->insns++;
	return 0;
}

int pft_model_walk_finish(struct model_walk *w)
{
	if (!w)
		return -PFT_ERR_INVALID;
	if (w->finished)
		return -PFT_ERR_EOS;
	if (pft_model_queue_begin(&w->q))
		return -PFT_ERR_INVALID;
	w->finished = 1;
	if (!w->t.have_prev || !w->t.prev.traced || !w->trace_on)
		return 0;
	w->ops->finish(w, &w->t.prev);
	pft_model_trace_off(w);
	return 0;
}

int pft_model_walk_next(struct model_walk *w, void *pkt, size_t size)
{
	if (!w || !pkt || !size)
		return -PFT_ERR_INVALID;
	return pft_model_queue_next(&w->q, w->finished, pkt, size);
}
