/* pft_model_walk.h - the walk every model makes over the executed-
 * instruction log (doc/model.md): each instruction waits as t.prev until
 * the next one tells whether it branched; context ID and VMID changes,
 * trace on and periodic synchronisation, the A-sync before an I-sync, the
 * packet queue, trace off.  What a protocol traces differently (atoms,
 * branches, I-sync contents, timestamps) is its struct model_ops. */
#ifndef PFT_MODEL_WALK_H
#define PFT_MODEL_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "pft.h"
#include "core/pft_model_log.h"

struct model_walk;

/* A protocol's model: its packet struct and its trace. */
struct model_ops {
	/* The packet struct: its size, and where the fields the walk fills
	 * are (offsetof: uint64_t offset, const uint8_t *raw, uint16_t size,
	 * uint8_t type, uint32_t ctxid, uint8_t vmid). */
	size_t pkt_size, at_offset, at_raw, at_size, at_type, at_ctxid, at_vmid;
	/* The packet types of A-sync, context ID and VMID packets. */
	uint8_t type_async, type_ctxid, type_vmid;

	/* The model struct (a struct model_walk first) and where in it the
	 * protocol's configuration is, of @cfg_size bytes. */
	size_t model_size, at_cfg, cfg_size;

	/* The encoder: made for the configuration, a packet into @out (@cap
	 * bytes, the longest packet fits), a full timestamp next, freeing it. */
	void *(*enc_alloc)(const void *cfg, int *err);
	int (*encode)(void *enc, const void *pkt, uint8_t *out, size_t cap);
	void (*force_tsync)(void *enc);
	void (*enc_free)(void *enc);

	/* Send the atoms not sent yet: every other packet goes after them. */
	void (*flush_atoms)(struct model_walk *w);
	/* The previous instruction @p, which started at @start, is done and
	 * @n follows it. */
	void (*complete)(struct model_walk *w, const struct model_insn *p,
			 const struct model_insn *n, uint64_t start);
	/* May a periodic I-sync go out now (trace on, period due)?  NULL:
	 * between any two instructions. */
	int (*may_resync)(const struct model_walk *w);
	/* An I-sync at @in (started at @start) and what follows it; called
	 * after pft_model_sync_begin()'s A-sync. */
	void (*put_sync)(struct model_walk *w, const struct model_insn *in, unsigned reason,
			 uint64_t start);
	/* An exception @number is taken before @in, the first instruction of
	 * its handler, while trace is on; the instruction before it is
	 * complete.  Traces the exception, or turns trace off when @in is
	 * not traceable. */
	void (*exception)(struct model_walk *w, const struct model_insn *in, unsigned number);
	/* The log ended after @p (traced, trace on): what it still gives. */
	void (*finish)(struct model_walk *w, const struct model_insn *p);
};

struct model_walk {
	const struct model_ops *ops;
	void *enc;                /* the protocol's encoder */
	struct pft_model_config mc;
	struct model_track t;     /* the log: previous instruction, state */
	int finished, trace_on, synced;
	uint8_t trace_ctxid;      /* context ID packets configured */
	uint8_t trace_vmid;       /* VMID packets configured */
	uint8_t vmid;
	uint32_t ctxid, ctxid_mask;
	uint64_t bytes_at_sync, insns;
	uint64_t now;             /* cycle time */
	uint64_t prev_start;      /* when t.prev started */
	struct model_queue q;
};

/* What of a protocol's configuration the walk needs. */
struct model_trace {
	unsigned ctxid_bytes;     /* 0, 1, 2 or 4 */
	int vmid;                 /* VMID packets */
	unsigned isa_flags;       /* enum pft_isa_flags for classification */
};

/*
 * A model (ops->model_size bytes, zeroed) of the protocol configuration
 * @cfg, its walk and encoder set up.  @cfg_err is the protocol's verdict
 * on @cfg (0, -PFT_ERR_INVALID or -PFT_ERR_BAD_CONFIG), taken after the
 * arguments and before the filter of @mcfg.  Returns the model, or NULL
 * with *@errcode (when not NULL) set: the errors of pft_ptm_model_alloc().
 */
void *pft_model_walk_alloc(const struct model_ops *ops, const void *cfg, int cfg_err,
		       const struct model_trace *trace, const struct pft_model_config *mcfg,
		       struct pft_image *image, int *errcode);

void pft_model_walk_free(struct model_walk *w);
int pft_model_walk_put(struct model_walk *w, const struct pft_model_insn *insn, size_t size);
int pft_model_walk_finish(struct model_walk *w);
int pft_model_walk_next(struct model_walk *w, void *pkt, size_t size);

/* Encode packet @pkt (a struct of ops->pkt_size), note its offset, size
 * and bytes in it and queue it. */
void pft_model_emit(struct model_walk *w, void *pkt);
/* The same after the pending atoms. */
void pft_model_emit_after_atoms(struct model_walk *w, void *pkt);
/* A VMID packet (w->vmid) after the pending atoms. */
void pft_model_put_vmid(struct model_walk *w);
/* Before an I-sync: the pending atoms, then an A-sync when the first or
 * the sync period is due (with a full timestamp next). */
void pft_model_sync_begin(struct model_walk *w);
/* Trace goes off after the pending atoms. */
void pft_model_trace_off(struct model_walk *w);

/* The packet part of a struct model_ops for packet struct @pkt whose
 * A-sync, context ID and VMID types are @t_async, @t_ctxid and @t_vmid. */
#define MODEL_PKT_LAYOUT(pkt, t_async, t_ctxid, t_vmid)                                     \
	.pkt_size = sizeof(pkt), .at_offset = offsetof(pkt, offset),                  \
	.at_raw = offsetof(pkt, raw), .at_size = offsetof(pkt, size),                 \
	.at_type = offsetof(pkt, type), .at_ctxid = offsetof(pkt, ctxid),             \
	.at_vmid = offsetof(pkt, vmid), .type_async = t_async, .type_ctxid = t_ctxid, \
	.type_vmid = t_vmid

/* The encoder part of a struct model_ops for the encoder whose functions
 * are @prefix_alloc, _packet, _force_tsync and _free (pft.h), of struct
 * @enc for packets @pkt and configurations @cfg: static model_encode()
 * etc. to put in it with MODEL_ENCODER_OPS. */
#define MODEL_ENCODER(prefix, enc, pkt, cfg)                                          \
	static void *model_enc_alloc(const void *c, int *err)                         \
	{                                                                             \
		return prefix##_alloc((const cfg *)c, err);                           \
	}                                                                             \
	static int model_encode(void *e, const void *p, uint8_t *out, size_t cap)      \
	{                                                                             \
		return prefix##_packet((enc *)e, (const pkt *)p, out, cap);           \
	}                                                                             \
	static void model_force_tsync(void *e) { prefix##_force_tsync((enc *)e); }    \
	static void model_enc_free(void *e) { prefix##_free((enc *)e); }
#define MODEL_ENCODER_OPS                                                             \
	.enc_alloc = model_enc_alloc, .encode = model_encode, .force_tsync = model_force_tsync, .enc_free = model_enc_free

/*
 * The public functions of a model @type (a struct model_walk first) whose
 * packets are @pkt: @prefix_free, _diag, _bytes, _insns, _put, _finish
 * and _next (pft.h, section model).
 */
#define MODEL_WALK_EXPORTS(prefix, type, pkt)                                         \
	static struct model_walk *prefix##_walk(const type *m)                        \
	{                                                                             \
		return m ? (struct model_walk *)(uintptr_t)m : NULL;                  \
	}                                                                             \
	void prefix##_free(type *m) { pft_model_walk_free(prefix##_walk(m)); }            \
	int prefix##_diag(const type *m, struct pft_diag *d)                          \
	{                                                                             \
		if (!m || !d)                                                         \
			return -PFT_ERR_INVALID;                                      \
		*d = prefix##_walk(m)->t.diag;                                        \
		return 0;                                                             \
	}                                                                             \
	uint64_t prefix##_bytes(const type *m) { return m ? prefix##_walk(m)->q.bytes : 0; } \
	uint64_t prefix##_insns(const type *m) { return m ? prefix##_walk(m)->insns : 0; }   \
	int prefix##_put(type *m, const struct pft_model_insn *insn, size_t size)    \
	{                                                                             \
		return pft_model_walk_put(prefix##_walk(m), insn, size);                  \
	}                                                                             \
	int prefix##_finish(type *m) { return pft_model_walk_finish(prefix##_walk(m)); } \
	int prefix##_next(type *m, pkt *p, size_t size)                               \
	{                                                                             \
		return pft_model_walk_next(prefix##_walk(m), p, size);                    \
	}

#endif
