/*
 * The executed-instruction log as the models read it (pft_model_log.h):
 * each instruction is classified from the image and checked against the
 * one before it, whatever trace protocol is then modelled.
 */
#include <inttypes.h>
#include <string.h>

#include "core/pft_model_log.h"
#include "common/pft_size.h"
#include "common/pft_diag.h"

enum { COND_AL = 0xe, EXCEPTION_MAX = 511 };

int pft_model_filter_ok(const struct pft_model_config *mc)
{
	return !mc->filter || mc->filter_end > mc->filter_start;
}

int pft_model_config_copy(struct pft_model_config *dst, const struct pft_model_config *src)
{
	memset(dst, 0, sizeof(*dst));
	if (src) {
		if (src->size < PFT_FIRST_SIZE(struct pft_model_config))
			return -PFT_ERR_INVALID;
		pft_copy_known(dst, src, src->size, sizeof(*dst));
	}
	dst->size = sizeof(*dst);
	if (!dst->sync_period)
		dst->sync_period = 1024;
	return 0;
}

static int in_filter(const struct model_track *t, uint32_t addr)
{
	return !t->mc->filter || (addr >= t->mc->filter_start && addr < t->mc->filter_end);
}

/* Read and classify @in (known = 0 when the image does not cover it). */
static void classify(struct model_track *t, struct model_insn *in)
{
	enum pft_mem_space space = in->ns ? PFT_SPACE_NONSECURE : PFT_SPACE_SECURE;
	const uint8_t *code;
	uint8_t tmp[4];
	int avail = pft_image_map(t->image, in->addr, space, &code);

	if (avail > 0 && avail < 4) {
		/* The instruction may continue in the next section. */
		avail = pft_image_read(t->image, in->addr, space, tmp, sizeof(tmp));
		code = tmp;
	}
	in->known = avail > 0 &&
		    pft_isa_classify((enum pft_isa)in->isa, in->addr, code, (size_t)avail,
				     t->isa_flags, &in->c) > 0;
	in->traceable = in->known && in_filter(t, in->addr);
}

int pft_model_branch_taken(const struct model_insn *p, const struct model_insn *n)
{
	int sequential = n->addr == model_insn_next(p) && n->isa == p->isa;

	switch (p->c.kind) {
	case PFT_WP_DIRECT:
		/* A branch to the next instruction counts as taken. */
		return n->addr == p->c.target && n->isa == p->c.target_isa;
	case PFT_WP_INDIRECT:
		return !sequential || !(p->c.conditional || p->in_it);
	default:
		return 0;
	}
}

/* The ISA of @n when the caller does not know it. */
static uint8_t infer_isa(struct model_track *t, const struct pft_model_insn *n)
{
	const struct model_insn *p = &t->prev;
	int mapped = pft_image_isa(t->image, n->addr);
	uint8_t isa = mapped == PFT_ISA_ARM || mapped == PFT_ISA_THUMB ? (uint8_t)mapped
								       : PFT_ISA_UNKNOWN;

	if (t->have_prev && p->known) {
		if (p->c.kind == PFT_WP_DIRECT && n->addr == p->c.target)
			return p->c.target_isa;
		if (n->addr == model_insn_next(p) || p->c.kind != PFT_WP_INDIRECT ||
		    isa == PFT_ISA_UNKNOWN)
			return p->isa;
		return isa;
	}
	if (isa != PFT_ISA_UNKNOWN)
		return isa;
	if (t->have_prev)
		return t->prev.isa;
	return n->addr & 2 ? PFT_ISA_THUMB : PFT_ISA_ARM;
}

/* Refuse @in with @err, for reason @why (a PFT_ERR_MODEL_* value). */
static int refuse(struct model_track *t, const struct model_insn *in, enum pft_error_code why,
		  int err)
{
	struct pft_diag *d = &t->diag;

	if (why == PFT_ERR_MODEL_NOT_IN_IMAGE)
		pft_diag_set(d, err, "0x%08" PRIx32 " is not in the image%s", in->addr,
			     t->have_prev ? " (and no branch leads there)" : "");
	else if (why == PFT_ERR_MODEL_MISALIGNED || why == PFT_ERR_MODEL_BAD_ISA || !t->have_prev)
		pft_diag_set(d, err, "0x%08" PRIx32 ": %s", in->addr, pft_errstr(why));
	else
		pft_diag_set(d, err, "0x%08" PRIx32 " cannot follow 0x%08" PRIx32 ": %s", in->addr,
			     t->prev.addr, pft_errstr(why));
	d->reason = why;
	return err;
}

/* Can @in follow @p (known), the previous instruction? */
static int check_flow(struct model_track *t, const struct model_insn *p,
		      const struct model_insn *in)
{
	int sequential = in->addr == model_insn_next(p);

	switch (p->c.kind) {
	case PFT_WP_NONE:
	case PFT_WP_BARRIER:
		if (!sequential)
			return refuse(t, in, PFT_ERR_MODEL_NOT_BRANCH, -PFT_ERR_BAD_INSN);
		if (in->isa != p->isa)
			return refuse(t, in, PFT_ERR_MODEL_ISA_CHANGE, -PFT_ERR_BAD_INSN);
		return 0;
	case PFT_WP_DIRECT:
		if ((in->addr == p->c.target && in->isa == p->c.target_isa) ||
		    (sequential && in->isa == p->isa))
			return 0;
		if (sequential || in->addr == p->c.target)
			return refuse(t, in, PFT_ERR_MODEL_ISA_CHANGE, -PFT_ERR_BAD_INSN);
		return refuse(t, in, PFT_ERR_MODEL_DIRECT_ELSEWHERE, -PFT_ERR_BAD_INSN);
	default:
		return 0;
	}
}

/* Does condition @cond (ARM ARM A8.3) hold with the flags @nzcv? */
static int cond_holds(unsigned cond, unsigned nzcv)
{
	const int n = nzcv >> 3 & 1, z = nzcv >> 2 & 1, c = nzcv >> 1 & 1, v = nzcv & 1;
	int r;

	switch (cond >> 1) {
	case 0: r = z; break;
	case 1: r = c; break;
	case 2: r = n; break;
	case 3: r = v; break;
	case 4: r = c && !z; break;
	case 5: r = n == v; break;
	case 6: r = n == v && !z; break;
	default: return 1;  /* AL (and 1111, unconditional) */
	}
	return (cond & 1) ? !r : r;
}

/* The condition of a known @in that is not a branch (the flow tells a
 * branch's outcome), or COND_AL. */
static unsigned insn_cond(const struct model_insn *in)
{
	if (in->c.kind != PFT_WP_NONE && in->c.kind != PFT_WP_BARRIER)
		return COND_AL;
	if (in->in_it)
		return in->it_state >> 4;
	if (in->isa == PFT_ISA_ARM && in->c.opcode >> 28 < COND_AL)
		return in->c.opcode >> 28;
	return COND_AL;
}

/* Thumb IT blocks: the instructions in them are conditional; ITSTATE
 * (firstcond:mask) advances by one bit per instruction (ARM ARM A8.8.54). */
static void track_it(const struct model_insn *p, struct model_insn *in)
{
	if (!in->known || !p->it_after || in->isa != PFT_ISA_THUMB)
		return;
	in->in_it = 1;
	in->it_after = (uint8_t)(p->it_after - 1);
	if (p->c.it_count)
		in->it_state = (uint8_t)(p->c.opcode >> 16);
	else
		in->it_state = (uint8_t)((p->it_state & 0xe0) | ((p->it_state << 1) & 0x1f));
}

/* What build() makes: an instruction that runs, the first of an
 * exception handler, or where an exception interrupted the flow
 * (nothing runs there: it may be memory the image does not have, which
 * trace does not leave for it). */
enum build_as { AS_INSN, AS_ENTRY, AS_RETURN_POINT };

/* Build @in from @n, following @p (NULL: the first instruction, or the
 * first of an exception handler). */
static int build(struct model_track *t, const struct model_insn *p,
		 const struct pft_model_insn *n, struct model_insn *in, enum build_as as)
{
	const int entry = as == AS_ENTRY;
	int err;

	memset(in, 0, sizeof(*in));
	in->addr = n->addr;
	in->ns = n->has_ns ? (uint8_t)(n->ns != 0) : t->ns;
	in->isa = n->isa;
	if (in->isa == PFT_ISA_UNKNOWN) {
		/* A vector's ISA: the image's mapping symbols, else ARM
		 * (SCTLR.TE = 0). */
		int mapped = pft_image_isa(t->image, n->addr);
		in->isa = !entry ? infer_isa(t, n)
			  : mapped == PFT_ISA_THUMB ? PFT_ISA_THUMB : PFT_ISA_ARM;
	}
	if (in->isa != PFT_ISA_ARM && in->isa != PFT_ISA_THUMB)
		return refuse(t, in, PFT_ERR_MODEL_BAD_ISA, -PFT_ERR_NOT_SUPPORTED);
	if (in->addr & (in->isa == PFT_ISA_ARM ? 3u : 1u))
		return refuse(t, in, PFT_ERR_MODEL_MISALIGNED, -PFT_ERR_BAD_INSN);
	classify(t, in);
	if (p && p->known && (err = check_flow(t, p, in)) < 0)
		return err;
	/* Memory outside the image is only reached by a branch, an exception
	 * (or from other such memory); a taken branch to the next address
	 * counts. */
	if (as == AS_INSN && !in->known &&
	    (!p || (p->known && in->addr == model_insn_next(p) &&
		    !(p->c.kind != PFT_WP_NONE && pft_model_branch_taken(p, in)))))
		return refuse(t, in, PFT_ERR_MODEL_NOT_IN_IMAGE, -PFT_ERR_NOMAP);
	if (as == AS_RETURN_POINT)
		in->traceable = (uint8_t)in_filter(t, in->addr);
	if (p)
		track_it(p, in);
	if (in->known && in->c.it_count)
		in->it_after = in->c.it_count;
	if (in->known && n->has_nzcv)
		in->cond_failed = (uint8_t)!cond_holds(insn_cond(in), n->nzcv);
	return 0;
}

/* Where the flow interrupted by exception entry @n would have gone after
 * @p, into @r: the given return address, else what @p tells. */
static int return_point(struct model_track *t, const struct model_insn *p,
			const struct pft_model_insn *n, struct pft_model_insn *r)
{
	memset(r, 0, sizeof(*r));
	r->has_ns = 1;
	r->ns = p->ns;
	if (n->has_exc_ret) {
		r->addr = n->exc_ret;
		r->isa = n->exc_ret_isa;
		return 0;
	}
	r->isa = p->isa;
	if (!p->known || p->c.kind == PFT_WP_NONE || p->c.kind == PFT_WP_BARRIER) {
		/* Outside the image nothing is traced: any successor will do. */
		r->addr = p->known ? model_insn_next(p) : p->addr;
		return 0;
	}
	if (p->c.kind == PFT_WP_DIRECT && !p->c.conditional && !p->in_it) {
		r->addr = p->c.target;
		r->isa = p->c.target_isa;
		return 0;
	}
	pft_diag_set(&t->diag, -PFT_ERR_BAD_INSN,
		     "0x%08" PRIx32 ": an exception right after the branch at 0x%08" PRIx32
		     ", whose outcome nothing tells: give its return address (qemu: log "
		     "with -d exec,nochain,int,cpu)", n->addr, p->addr);
	t->diag.reason = PFT_ERR_MODEL_EXC_RET_UNKNOWN;
	return -PFT_ERR_BAD_INSN;
}

int pft_model_prepare(struct model_track *t, const struct pft_model_insn *n,
		      struct model_insn *in, struct model_insn *ret)
{
	const struct model_insn *p = t->have_prev ? &t->prev : NULL;
	int err;

	if (!n->exception)
		return build(t, p, n, in, 0);
	/* Debug state entry is no handler to trace: its address means
	 * nothing to a decoder, which waits for the I-sync of the exit. */
	if (n->exception > EXCEPTION_MAX || n->exception == PFT_EXC_DEBUG_HALT) {
		memset(in, 0, sizeof(*in));
		in->addr = n->addr;
		return refuse(t, in, PFT_ERR_MODEL_BAD_EXCEPTION, -PFT_ERR_INVALID);
	}
	if (p) {
		struct pft_model_insn r;
		if ((err = return_point(t, p, n, &r)) < 0 ||
		    (err = build(t, p, &r, ret, AS_RETURN_POINT)) < 0)
			return err;
	}
	return build(t, NULL, n, in, AS_ENTRY);
}

void pft_model_queue_push(struct model_queue *q, const void *pkt, int n)
{
	if (n <= 0)
		return;
	memcpy(pft_model_queue_slot(q)->pkt, pkt, q->pkt_size);
	q->len++;
	q->bytes += (uint64_t)n;
}

int pft_model_queue_begin(struct model_queue *q)
{
	if (q->len)
		return -PFT_ERR_INVALID;
	q->head = 0;
	return 0;
}

int pft_model_queue_next(struct model_queue *q, int finished, void *pkt, size_t size)
{
	if (!q->len)
		return finished ? -PFT_ERR_EOS : -PFT_ERR_NEED_INPUT;
	memcpy(pkt, q->q[q->head].pkt, size < q->pkt_size ? size : q->pkt_size);
	q->head = (q->head + 1) % MODEL_QUEUE_MAX;
	q->len--;
	return 0;
}
