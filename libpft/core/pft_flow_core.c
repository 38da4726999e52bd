/*
 * The flow decoders' shared part (pft_flow_core.h): allocation, reset,
 * the element queue, finishing, the sync state.
 */
#include <stdlib.h>
#include <string.h>

#include "core/pft_flow_core.h"
#include "common/pft_linefmt.h"
#include "common/pft_size.h"

const struct lf_name *pft_elem_type_lf_name(unsigned type)
{
	static const struct lf_name names[PFT_ELEM_TYPE_MAX + 1] = {
		[PFT_ELEM_RANGE] = LF_NAME("range"),
		[PFT_ELEM_NO_SYNC] = LF_NAME("no_sync"),
		[PFT_ELEM_TRACE_ON] = LF_NAME("trace_on"),
		[PFT_ELEM_CONTEXT] = LF_NAME("context"),
		[PFT_ELEM_EXCEPTION] = LF_NAME("exception"),
		[PFT_ELEM_EXCEPTION_RETURN] = LF_NAME("exception_return"),
		[PFT_ELEM_TIMESTAMP] = LF_NAME("timestamp"),
		[PFT_ELEM_TRIGGER] = LF_NAME("trigger"),
		[PFT_ELEM_ADDR_NACC] = LF_NAME("addr_nacc"),
		[PFT_ELEM_ERROR] = LF_NAME("error"),
		[PFT_ELEM_RANGE_COUNT] = LF_NAME("range_count"),
		[PFT_ELEM_ENTRY_COUNT] = LF_NAME("entry_count"),
		[PFT_ELEM_CALLS_BRANCH] = LF_NAME("calls_branch"),
		[PFT_ELEM_CALLS_STATE] = LF_NAME("calls_state"),
		[PFT_ELEM_CALLS_FRAME] = LF_NAME("calls_frame"),
		[PFT_ELEM_TEXT] = LF_NAME("text"),
		[PFT_ELEM_LEAF_CALLS] = LF_NAME("leaf_calls"),
		[PFT_ELEM_CALLS_LOG] = LF_NAME("calls_log"),
		[PFT_ELEM_TYPE_MAX] = LF_NAME("unknown"),
	};
	return &names[type < PFT_ELEM_TYPE_MAX ? type : PFT_ELEM_TYPE_MAX];
}

const char *pft_elem_type_name(enum pft_elem_type type)
{
	return pft_elem_type_lf_name(type)->s;
}

void *pft_flow_core_new(const struct pft_flow_ops *ops, size_t size, const void *cfg,
			struct pft_image *image, int *errcode)
{
	struct pft_flow_core *c = calloc(1, size);
	int err = -PFT_ERR_NOMEM;

	if (c) {
		c->ops = ops;
		err = ops->init(c, cfg, image);
	}
	if (errcode)
		*errcode = err;
	if (err) {
		free(c);
		return NULL;
	}
	return c;
}

int pft_flow_core_reset(struct pft_flow_core *c)
{
	if (!c)
		return -PFT_ERR_INVALID;
	c->state = PFT_FLOW_NO_SYNC;
	c->started = 0;
	c->pc_valid = 0;
	c->pc = 0;
	c->isa = 0;
	c->ns = c->hyp = c->vmid = 0;
	c->ctxid = 0;
	c->ctx_known = c->vmid_known = 0;
	c->q_head = c->q_len = 0;
	c->ops->reset(c);
	return 0;
}

int pft_flow_core_next(struct pft_flow_core *c, struct pft_elem *elem, size_t size)
{
	if (!c || !elem || size < PFT_FIRST_SIZE(struct pft_elem))
		return -PFT_ERR_INVALID;
	if (!c->q_len)
		return -PFT_ERR_NEED_INPUT;
	pft_copy_known(elem, &c->queue[c->q_head], size, sizeof(c->queue[0]));
	c->q_head++;
	c->q_len--;
	return 0;
}

int pft_flow_core_finish(struct pft_flow_core *c)
{
	if (!c)
		return -PFT_ERR_INVALID;
	int status = pft_flow_core_begin(c);
	if (status)
		return status;
	c->ops->finish(c);
	pft_flow_core_end(c);
	return 0;
}

void pft_flow_core_sync_state(const struct pft_flow_core *c, struct flow_sync_state *s)
{
	memset(s, 0, sizeof(*s));
	s->pc = c->pc;
	s->ctxid = c->ctxid;
	s->state = (uint8_t)c->state;
	s->started = (uint8_t)c->started;
	s->pc_valid = (uint8_t)c->pc_valid;
	s->isa = c->isa;
	s->ns = c->ns;
	s->hyp = c->hyp;
	s->vmid = c->vmid;
	s->ctx_known = (uint8_t)c->ctx_known;
	s->vmid_known = (uint8_t)c->vmid_known;
	s->queued = c->q_len;
	c->ops->sync_state(c, s);
}
