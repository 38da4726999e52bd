/* pft_flow_core.h - what the flow decoders of every protocol share
 * (shared/spec/pft-flow.md sections 3-9): synchronisation (NO_SYNC, the
 * A-sync, the first I-sync), the PC, the context (context ID, VMID,
 * security state and Hyp mode), the element queue and its put/next/
 * finish/reset plumbing, and the elements every protocol reports alike.
 *
 * A protocol's flow decoder (ptm/pft_flow.c, etm3/pft_etm3_flow.c) is a
 * struct that starts with a struct pft_flow_core c, a table of operations
 * (struct pft_flow_ops: its packet types the core applies, how to check
 * and apply the others, what it holds back, what to do when sync is lost,
 * at the end and on reset, what else it carries) and one line
 * PFT_FLOW_CORE_FUNCTIONS() for its public functions.  Reading the image
 * is core/pft_walk.h.
 *
 * Speed: the per-packet functions (PFT_FLOW_CORE_APPLY(), the put() that
 * PFT_FLOW_CORE_FUNCTIONS() writes) are inline and take the table as a
 * constant, so that the calls through it compile to direct calls; only the
 * coarse ones (reset, finish, the sync state) go through it at run time.
 */
#ifndef PFT_FLOW_CORE_H
#define PFT_FLOW_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "pft.h"
#include "core/pft_sync_state.h"

enum pft_flow_sync {
	PFT_FLOW_NO_SYNC = 0,   /* waiting for an A-sync */
	PFT_FLOW_WAIT_ISYNC,    /* aligned, waiting for the first I-sync */
	PFT_FLOW_DECODE
};

/* The most elements one packet of any protocol produces (ETMv3: a range,
 * NACC or error per atom, 16 atoms, plus context, trace-on, exception). */
enum { PFT_FLOW_QUEUE_MAX = 48 };

struct pft_flow_core;

struct pft_flow_ops {
	/* The protocol's packet types that the core applies itself
	 * (pft_flow_core_gate()): a bad packet, A-sync, I-sync, context ID,
	 * VMID, trigger. */
	uint8_t type_bad, type_async, type_isync, type_ctxid, type_vmid, type_trigger;
	/* Set up a new decoder (zeroed, its core's ops set) for
	 * configuration @cfg (copied) and @image: 0 or a negative code. */
	int (*init)(struct pft_flow_core *c, const void *cfg, struct pft_image *image);
	/* 0 when put() may apply @pkt (@size bytes), else -PFT_ERR_INVALID:
	 * a field out of range could overflow the element queue. */
	int (*check)(const void *pkt, size_t size);
	/* Apply one packet while decoding, after the core's part (see
	 * PFT_FLOW_CORE_APPLY()). */
	void (*apply)(struct pft_flow_core *c, const void *pkt);
	/* Apply an I-sync (after the first A-sync). */
	void (*isync)(struct pft_flow_core *c, const void *pkt);
	/* Before an element that is not a range: report the instructions
	 * held back, if the protocol holds any. */
	void (*flush)(struct pft_flow_core *c);
	/* A bad packet at @offset: report it (PFT_ERR_FLOW_BAD_PACKET) and
	 * forget the protocol's own state; the core then loses sync. */
	void (*lost)(struct pft_flow_core *c, uint64_t offset);
	/* The end of the trace: report what is held back. */
	void (*finish)(struct pft_flow_core *c);
	/* Forget the protocol's own state (the core's is reset already). */
	void (*reset)(struct pft_flow_core *c);
	/* The protocol's part of the sync state. */
	void (*sync_state)(const struct pft_flow_core *c, struct flow_sync_state *s);
};

struct pft_flow_core {
	const struct pft_flow_ops *ops;
	enum pft_flow_sync state;
	int started;             /* NO_SYNC reported at the first packet */
	int pc_valid;
	uint32_t pc;
	uint8_t isa, ns, hyp, vmid;
	uint32_t ctxid;
	int ctx_known, vmid_known;

	struct pft_elem *out;    /* where elements go: queue or the caller's */
	size_t nout;
	unsigned q_head, q_len;
	uint64_t insns;          /* in the ranges reported */
	struct pft_elem queue[PFT_FLOW_QUEUE_MAX];
};

/* A new decoder of @size bytes starting with its core (ops->init()), or
 * NULL with *@errcode (if not NULL) set. */
void *pft_flow_core_new(const struct pft_flow_ops *ops, size_t size, const void *cfg,
			struct pft_image *image, int *errcode);

/* The public functions' work: 0 or a negative error code. */
int pft_flow_core_reset(struct pft_flow_core *c);
int pft_flow_core_next(struct pft_flow_core *c, struct pft_elem *elem, size_t size);
int pft_flow_core_finish(struct pft_flow_core *c);
void pft_flow_core_sync_state(const struct pft_flow_core *c, struct flow_sync_state *s);

/* Elements go to the queue: -PFT_ERR_INVALID when the previous packet's
 * are not all taken. */
static inline int pft_flow_core_begin(struct pft_flow_core *c)
{
	if (c->q_len)
		return -PFT_ERR_INVALID;
	c->q_head = 0;
	c->out = c->queue;
	c->nout = 0;
	return 0;
}

static inline void pft_flow_core_end(struct pft_flow_core *c)
{
	c->q_len = (unsigned)c->nout;
}

static inline struct pft_elem *pft_flow_core_push(struct pft_flow_core *c,
						  enum pft_elem_type type, uint64_t offset)
{
	/* Each packet starts with room for a packet's elements at the most,
	 * so this cannot overflow. */
	struct pft_elem *e = &c->out[c->nout++];
	*e = (struct pft_elem){ .offset = offset, .type = (uint8_t)type };
	return e;
}

static inline enum pft_mem_space pft_flow_core_space(const struct pft_flow_core *c)
{
	return c->ns ? PFT_SPACE_NONSECURE : PFT_SPACE_SECURE;
}

static inline void pft_flow_core_error(struct pft_flow_core *c, uint64_t offset,
				       enum pft_error_code why)
{
	struct pft_elem *e = pft_flow_core_push(c, PFT_ELEM_ERROR, offset);

	e->reason = (uint8_t)why;
	e->addr = c->pc_valid ? c->pc : 0;   /* where the flow was */
}

/* A RANGE of @ninsn instructions @start .. @last (@end just past it),
 * read from @space, counted. */
static inline struct pft_elem *pft_flow_core_range(struct pft_flow_core *c, uint64_t offset,
						   uint32_t start, uint32_t last, uint32_t end,
						   uint32_t ninsn, uint8_t isa, uint8_t space)
{
	struct pft_elem *e = &c->out[c->nout++];

	*e = (struct pft_elem){ .offset = offset, .type = PFT_ELEM_RANGE, .start = start,
				.last = last, .end = end, .ninsn = ninsn, .isa = isa,
				.space = space };
	c->insns += ninsn;
	return e;
}

/* A CONTEXT element with the current context; @changed: what changed. */
static inline void pft_flow_core_context(struct pft_flow_core *c, uint64_t offset,
					 uint8_t changed)
{
	struct pft_elem *e = pft_flow_core_push(c, PFT_ELEM_CONTEXT, offset);
	e->changed = changed;
	e->ctxid = c->ctxid;
	e->vmid = c->vmid;
	e->ns = c->ns;
	e->hyp = c->hyp;
	e->isa = c->isa;
}

/*
 * What every protocol does with a packet (@type, at @offset, with the
 * @ctxid and @vmid fields of its packet struct): NO_SYNC before the first,
 * a bad packet (ops->lost(), then sync lost), the A-sync, the wait for and
 * the application of an I-sync (ops->isync()), context ID, VMID and
 * trigger packets.  Returns 1 when the protocol is to apply the packet
 * (decoding), else 0.
 */
static inline int pft_flow_core_gate(struct pft_flow_core *c, const struct pft_flow_ops *ops,
				     const void *pkt, uint8_t type, uint64_t offset,
				     uint32_t ctxid, uint8_t vmid)
{
	if (!c->started) {
		c->started = 1;
		pft_flow_core_push(c, PFT_ELEM_NO_SYNC, offset);
	}
	if (type == ops->type_bad) {
		ops->lost(c, offset);
		c->state = PFT_FLOW_NO_SYNC;
		c->pc_valid = 0;
		return 0;
	}
	if (type == ops->type_async) {
		if (c->state == PFT_FLOW_NO_SYNC)
			c->state = PFT_FLOW_WAIT_ISYNC;
		return 0;
	}
	if (type == ops->type_isync) {
		if (c->state != PFT_FLOW_NO_SYNC)
			ops->isync(c, pkt);
		return 0;
	}
	if (c->state != PFT_FLOW_DECODE)
		return 0;
	if (type == ops->type_ctxid) {
		if (!c->ctx_known || ctxid != c->ctxid) {
			c->ctxid = ctxid;
			ops->flush(c);
			pft_flow_core_context(c, offset, PFT_CTX_CTXID);
		}
		return 0;
	}
	if (type == ops->type_vmid) {
		if (!c->vmid_known || vmid != c->vmid) {
			c->vmid = vmid;
			c->vmid_known = 1;
			ops->flush(c);
			pft_flow_core_context(c, offset, PFT_CTX_VMID);
		}
		return 0;
	}
	if (type == ops->type_trigger) {
		ops->flush(c);
		pft_flow_core_push(c, PFT_ELEM_TRIGGER, offset);
		return 0;
	}
	return 1;
}

/* Apply one packet @pkt (a struct with the fields type, offset, ctxid and
 * vmid) of the protocol of table @ops: the core's part, then, while
 * decoding, the protocol's. */
#define PFT_FLOW_CORE_APPLY(c, ops, pkt)                                                    \
	(pft_flow_core_gate((c), (ops), (pkt), (pkt)->type, (pkt)->offset, (pkt)->ctxid,    \
			    (pkt)->vmid)                                                     \
		 ? (ops)->apply((c), (pkt))                                                  \
		 : (void)0)

/* An I-sync's TRACE_ON element, or NULL for a periodic one while
 * decoding (no discontinuity).  @first: the first I-sync since sync. */
static inline struct pft_elem *pft_flow_core_trace_on(struct pft_flow_core *c, int first,
						      uint64_t offset, uint8_t reason)
{
	if (!first && reason == PFT_ISYNC_PERIODIC)
		return NULL;
	struct pft_elem *e = pft_flow_core_push(c, PFT_ELEM_TRACE_ON, offset);
	e->reason = reason;
	return e;
}

/* An I-sync's address and context: decoding from here.  Returns what
 * changed (everything after the first I-sync); CONTEXT is the caller's. */
static inline uint8_t pft_flow_core_isync(struct pft_flow_core *c, int first, uint32_t addr,
					  uint8_t isa, uint8_t ns, uint8_t hyp, int has_ctxid,
					  uint32_t ctxid)
{
	uint8_t changed = 0;

	if (first || !c->ctx_known) {
		changed = PFT_CTX_NS | PFT_CTX_HYP | PFT_CTX_ISA | (has_ctxid ? PFT_CTX_CTXID : 0);
	} else {
		if (ns != c->ns)
			changed |= PFT_CTX_NS;
		if (hyp != c->hyp)
			changed |= PFT_CTX_HYP;
		if (has_ctxid && ctxid != c->ctxid)
			changed |= PFT_CTX_CTXID;
	}
	c->ns = ns;
	c->hyp = hyp;
	if (has_ctxid)
		c->ctxid = ctxid;
	c->ctx_known = 1;
	c->pc = addr;
	c->isa = isa;
	c->pc_valid = 1;
	c->state = PFT_FLOW_DECODE;
	return changed;
}

/* A branch's address (and instruction set): the PC from here. */
static inline void pft_flow_core_branch(struct pft_flow_core *c, uint32_t addr, uint8_t isa)
{
	c->pc = addr;
	c->isa = isa;
	c->pc_valid = 1;
}

/* The security state (and Hyp mode) a branch's exception bytes give;
 * returns what changed. */
static inline uint8_t pft_flow_core_security(struct pft_flow_core *c, uint8_t ns, uint8_t hyp)
{
	uint8_t changed = 0;

	if (ns != c->ns)
		changed |= PFT_CTX_NS;
	if (hyp != c->hyp)
		changed |= PFT_CTX_HYP;
	c->ns = ns;
	c->hyp = hyp;
	return changed;
}

/* An EXCEPTION element; @has_ret: @ret is its preferred return address. */
static inline struct pft_elem *pft_flow_core_exception(struct pft_flow_core *c,
						       uint64_t offset, uint16_t exception,
						       int has_ret, uint32_t ret)
{
	struct pft_elem *e = pft_flow_core_push(c, PFT_ELEM_EXCEPTION, offset);
	e->exception = exception;
	if (has_ret) {
		e->has_ret = 1;
		e->addr = ret;
	}
	return e;
}

/* A TIMESTAMP element. */
static inline struct pft_elem *pft_flow_core_timestamp(struct pft_flow_core *c,
						       uint64_t offset, uint64_t ts)
{
	struct pft_elem *e = pft_flow_core_push(c, PFT_ELEM_TIMESTAMP, offset);
	e->ts = ts;
	return e;
}

/*
 * The public functions of a protocol's flow decoder, written once:
 * PREFIX_alloc, _free, _reset, _insn_count, _put, _next and _sync_state
 * for struct FLOW (which starts with its struct pft_flow_core c),
 * configuration struct CFG, packets struct PKT and table OPS.  put()
 * checks the packet (OPS.check()), then applies it, its elements queued.
 */
#define PFT_FLOW_CORE_FUNCTIONS(PREFIX, FLOW, CFG, PKT, OPS)                                 \
	struct FLOW *PREFIX##_alloc(const struct CFG *cfg, struct pft_image *image,          \
				    int *errcode)                                            \
	{                                                                                    \
		return pft_flow_core_new(&(OPS), sizeof(struct FLOW), cfg, image, errcode);  \
	}                                                                                    \
	void PREFIX##_free(struct FLOW *f)                                                   \
	{                                                                                    \
		free(f);                                                                     \
	}                                                                                    \
	int PREFIX##_reset(struct FLOW *f)                                                   \
	{                                                                                    \
		return f ? pft_flow_core_reset(&f->c) : -PFT_ERR_INVALID;                    \
	}                                                                                    \
	uint64_t PREFIX##_insn_count(const struct FLOW *f)                                   \
	{                                                                                    \
		return f ? f->c.insns : 0;                                                   \
	}                                                                                    \
	int PREFIX##_put(struct FLOW *f, const struct PKT *pkt, size_t size)                 \
	{                                                                                    \
		if (!f || !pkt)                                                              \
			return -PFT_ERR_INVALID;                                             \
		int status = (OPS).check(pkt, size);                                         \
		if (!status)                                                                 \
			status = pft_flow_core_begin(&f->c);                                 \
		if (status)                                                                  \
			return status;                                                       \
		PFT_FLOW_CORE_APPLY(&f->c, &(OPS), pkt);                                     \
		pft_flow_core_end(&f->c);                                                    \
		return 0;                                                                    \
	}                                                                                    \
	int PREFIX##_next(struct FLOW *f, struct pft_elem *elem, size_t size)                \
	{                                                                                    \
		return f ? pft_flow_core_next(&f->c, elem, size) : -PFT_ERR_INVALID;         \
	}                                                                                    \
	void PREFIX##_sync_state(const struct FLOW *f, struct flow_sync_state *s)            \
	{                                                                                    \
		pft_flow_core_sync_state(&f->c, s);                                          \
	}

#endif /* PFT_FLOW_CORE_H */
