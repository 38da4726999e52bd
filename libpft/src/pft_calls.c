/*
 * Calls and returns over flow elements: a stack of frames moved by the
 * class of each range's last instruction (pft.h, section calls, has the
 * rules).  A taken branch waits in @pending until the next element shows
 * where it went.
 */
#include <stdlib.h>
#include <string.h>

#include "pft.h"

struct frame {
	uint32_t ret;             /* return address (0: none known) */
	uint32_t func, func_end;  /* the function running in it; end 0 = unknown */
	uint64_t entry_insns;
	uint8_t exception;        /* pushed by an exception */
};

/* The branch's own instruction is decoded (for a direct target) only
 * when the next element does not say where it went. */
struct pending_branch {
	uint8_t active, iclass, isa, space;
	uint8_t in_range;         /* @site is a range's last instruction */
	uint32_t site, ret;
};

struct pending_exception {
	uint8_t active, has_ret;
	uint16_t number;
	uint32_t ret;
};

/* A function looked up by address (calls and jumps go to the same few
 * targets over and over): direct-mapped by address. */
struct symbol_cache {
	uint32_t addr, start, end;
	uint8_t valid, found;
};

enum { SYMBOL_CACHE_SIZE = 256 };

struct pft_calls {
	struct pft_image *image;
	struct symbol_cache symbols[SYMBOL_CACHE_SIZE];
	uint32_t max_depth;
	struct frame *frames;     /* [0] is the outermost function */
	size_t nframes, cap_frames;
	struct pft_call_event *queue;
	size_t nqueue, head, cap_queue;
	struct pending_branch pend;
	struct pending_exception pexc;
	uint8_t gap, started, finished, last_exc_return;
	uint64_t insns, cycles, ts;
	uint8_t has_cycles, has_ts;
};

static const char *const kind_names[PFT_CALL_KIND_MAX] = {
	"call", "return", "tail_call", "exception", "exception_return",
	"unmatched_return"
};

const char *pft_call_kind_name(unsigned kind)
{
	return kind < PFT_CALL_KIND_MAX ? kind_names[kind] : "unknown";
}

struct pft_calls *pft_calls_alloc(const struct pft_calls_config *cfg, int *errcode)
{
	struct pft_calls *c = NULL;
	int err = -PFT_ERR_INVALID;

	if (cfg && cfg->size >= sizeof(*cfg)) {
		err = -PFT_ERR_NOMEM;
		c = calloc(1, sizeof(*c));
		if (c) {
			c->cap_frames = 16;
			c->frames = calloc(c->cap_frames, sizeof(*c->frames));
			if (!c->frames) {
				free(c);
				c = NULL;
			}
		}
		if (c) {
			err = 0;
			c->image = cfg->image;
			c->max_depth = cfg->max_depth ? cfg->max_depth : 65536;
			c->nframes = 1;
		}
	}
	if (errcode)
		*errcode = err;
	return c;
}

void pft_calls_free(struct pft_calls *c)
{
	if (!c)
		return;
	free(c->frames);
	free(c->queue);
	free(c);
}

uint32_t pft_calls_depth(const struct pft_calls *c)
{
	return c ? (uint32_t)(c->nframes - 1) : 0;
}

/* The symbol around @addr (0 when none): its extent. */
static int symbol_of(struct pft_calls *c, uint32_t addr, uint32_t *start, uint32_t *end)
{
	struct symbol_cache *e = &c->symbols[(addr >> 1) % SYMBOL_CACHE_SIZE];
	struct pft_image_symbol sym;

	if (!e->valid || e->addr != addr) {
		int found = c->image && pft_image_symbol_at(c->image, addr, &sym, sizeof(sym)) == 0;
		*e = (struct symbol_cache){ .addr = addr, .valid = 1, .found = (uint8_t)found,
					    .start = found ? sym.start : 0,
					    .end = found ? sym.end : 0 };
	}
	*start = e->start;
	*end = e->end;
	return e->found;
}

/* The function around @addr: a symbol's extent, else @addr alone with an
 * unknown end. */
static void function_of(struct pft_calls *c, uint32_t addr, uint32_t *start, uint32_t *end)
{
	if (!symbol_of(c, addr, start, end)) {
		*start = addr;
		*end = 0;
	}
}

static int is_function_entry(struct pft_calls *c, uint32_t addr)
{
	uint32_t start, end;

	return symbol_of(c, addr, &start, &end) && start == addr;
}

static int contains(const struct frame *f, uint32_t addr)
{
	return f->func_end && f->func <= addr && addr < f->func_end;
}

static int emit(struct pft_calls *c, unsigned kind, unsigned flags,
		uint32_t site, uint32_t target, uint32_t callee,
		uint32_t caller, uint64_t entry_insns)
{
	if (c->nqueue == c->cap_queue) {
		size_t n = c->cap_queue ? c->cap_queue * 2 : 16;
		struct pft_call_event *q = realloc(c->queue, n * sizeof(*q));
		if (!q)
			return -PFT_ERR_NOMEM;
		c->queue = q;
		c->cap_queue = n;
	}
	c->queue[c->nqueue++] = (struct pft_call_event){
		.kind = (uint8_t)kind, .flags = (uint8_t)flags,
		.depth = (uint32_t)(c->nframes - 1), .site = site,
		.target = target, .callee = callee, .caller = caller,
		.insns = c->insns, .cycles = c->cycles, .ts = c->ts,
		.entry_insns = entry_insns, .has_cycles = c->has_cycles,
		.has_ts = c->has_ts
	};
	return 0;
}

static int push(struct pft_calls *c, unsigned kind, unsigned flags,
		uint32_t site, uint32_t ret, uint32_t callee, uint16_t number)
{
	struct frame f = { .ret = ret, .entry_insns = c->insns,
			   .exception = kind == PFT_CALL_EXCEPTION };

	if (callee)
		function_of(c, callee, &f.func, &f.func_end);
	if (c->nframes - 1 >= c->max_depth) {
		memmove(&c->frames[1], &c->frames[2], (c->nframes - 2) * sizeof(*c->frames));
		c->nframes--;
	}
	if (c->nframes == c->cap_frames) {
		struct frame *p = realloc(c->frames, 2 * c->cap_frames * sizeof(*p));
		if (!p)
			return -PFT_ERR_NOMEM;
		c->frames = p;
		c->cap_frames *= 2;
	}
	uint32_t caller = c->frames[c->nframes - 1].func;
	c->frames[c->nframes++] = f;
	int err = emit(c, kind, flags | (callee ? 0 : PFT_CALL_F_NO_TARGET),
		       site, callee, callee ? f.func : 0, caller, 0);
	if (!err)
		c->queue[c->nqueue - 1].exception = number;
	return err;
}

/* Pop frames until @keep are left; the last one popped (the frame whose
 * return is taken) gets @flags, those above it @flags | UNWOUND too. */
static int pop_to(struct pft_calls *c, size_t keep, unsigned flags,
		  uint32_t site, uint32_t target, int last_unwound)
{
	while (c->nframes > keep) {
		struct frame f = c->frames[--c->nframes];
		unsigned fl = flags;

		if (c->nframes > keep || last_unwound)
			fl |= PFT_CALL_F_UNWOUND;
		int err = emit(c, f.exception ? PFT_CALL_EXCEPTION_RETURN : PFT_CALL_RETURN,
			       fl, site, target, f.func, c->frames[c->nframes - 1].func,
			       f.entry_insns);
		if (err)
			return err;
	}
	return 0;
}

/* The deepest frame (above the outermost) returning to @addr, or 0. */
static size_t frame_returning_to(const struct pft_calls *c, uint32_t addr)
{
	for (size_t k = c->nframes; k-- > 1;)
		if (c->frames[k].ret == addr)
			return k;
	return 0;
}

static int do_return(struct pft_calls *c, uint32_t site, uint32_t target)
{
	size_t k = frame_returning_to(c, target);

	if (k)
		return pop_to(c, k, 0, site, target, 0);
	/* A longjmp into a function further down the stack. */
	for (k = c->nframes - 1; k-- > 0;)
		if (contains(&c->frames[k], target))
			return pop_to(c, k + 1, 0, site, target, 1);
	if (c->nframes == 1)
		function_of(c, target, &c->frames[0].func, &c->frames[0].func_end);
	return emit(c, PFT_CALL_UNMATCHED_RETURN, 0, site, target, 0,
		    c->frames[c->nframes - 1].func, 0);
}

static int do_exception_return(struct pft_calls *c, uint32_t site, uint32_t target)
{
	for (size_t k = c->nframes; k-- > 1;)
		if (c->frames[k].exception)
			return pop_to(c, k, 0, site, target, 0);
	return do_return(c, site, target);
}

static int tail_call(struct pft_calls *c, uint32_t site, uint32_t target)
{
	struct frame *top = &c->frames[c->nframes - 1];
	uint32_t old = top->func;

	/* Most taken jumps are loops: the cheap checks first. */
	if (target == top->func || contains(top, target) || !is_function_entry(c, target))
		return 0;
	function_of(c, target, &top->func, &top->func_end);
	top->entry_insns = c->insns;
	return emit(c, PFT_CALL_TAIL_CALL, 0, site, target, top->func, old, 0);
}

/* The encoded target of the pending branch when it is direct. */
static int direct_target(const struct pft_calls *c, const struct pending_branch *p,
			 uint32_t *target)
{
	const uint8_t *code;
	struct pft_insn insn;
	int n;

	if (!c->image)
		return 0;
	n = pft_image_map(c->image, p->site, (enum pft_mem_space)p->space, &code);
	if (n <= 0 || pft_insn_decode((enum pft_isa)p->isa, p->site, code, (size_t)n,
				      &insn, sizeof(insn)) <= 0)
		return 0;
	*target = insn.target;
	return insn.iclass == PFT_ICLASS_CALL || insn.iclass == PFT_ICLASS_JUMP;
}

/* Settle the pending branch: @known says whether @target is its
 * destination; without it a direct branch's encoded target serves. */
static int settle(struct pft_calls *c, int known, uint32_t target)
{
	struct pending_branch p = c->pend;

	c->pend.active = 0;
	if (!p.active)
		return 0;
	if (!known && p.in_range)
		known = direct_target(c, &p, &target);
	switch (p.iclass) {
	case PFT_ICLASS_CALL:
	case PFT_ICLASS_INDIRECT_CALL:
		return push(c, PFT_CALL_CALL, 0, p.site, p.ret, known ? target : 0, 0);
	case PFT_ICLASS_RETURN:
		return known ? do_return(c, p.site, target) : 0;
	case PFT_ICLASS_EXC_RETURN:
		return known ? do_exception_return(c, p.site, target) : 0;
	case PFT_ICLASS_INDIRECT_JUMP:
		if (known && frame_returning_to(c, target))
			return do_return(c, p.site, target);
		/* fall through */
	case PFT_ICLASS_JUMP:
		return known ? tail_call(c, p.site, target) : 0;
	default:
		return 0;
	}
}

static int settle_exception(struct pft_calls *c, uint32_t vector)
{
	struct pending_exception p = c->pexc;

	c->pexc.active = 0;
	if (!p.active)
		return 0;
	return push(c, PFT_CALL_EXCEPTION, 0, 0, p.has_ret ? p.ret : 0, vector, p.number);
}

static int put_range(struct pft_calls *c, const struct pft_elem *e)
{
	int err = settle(c, 1, e->start);

	if (!err)
		err = settle_exception(c, e->start);
	if (!err && c->gap) {
		size_t k = frame_returning_to(c, e->start);
		if (k)
			err = pop_to(c, k, PFT_CALL_F_UNTRACED, 0, e->start, 0);
	}
	if (err)
		return err;
	c->gap = 0;
	if (!c->started) {
		c->started = 1;
		if (c->nframes == 1)
			function_of(c, e->start, &c->frames[0].func, &c->frames[0].func_end);
	}
	c->insns += e->ninsn;
	if (e->has_cycles) {
		c->cycles += e->cycles;
		c->has_cycles = 1;
	}
	c->last_exc_return = 0;
	if (!e->taken)
		return 0;
	switch (e->iclass) {
	case PFT_ICLASS_CALL:
	case PFT_ICLASS_INDIRECT_CALL:
	case PFT_ICLASS_RETURN:
	case PFT_ICLASS_JUMP:
	case PFT_ICLASS_INDIRECT_JUMP:
	case PFT_ICLASS_EXC_RETURN:
		c->pend = (struct pending_branch){ .active = 1, .iclass = e->iclass,
						   .isa = e->isa, .space = e->space, .in_range = 1,
						   .site = e->last, .ret = e->end };
		c->last_exc_return = e->iclass == PFT_ICLASS_EXC_RETURN;
		break;
	default:
		break;
	}
	return 0;
}

/* Before a put or finish: not finished, the last events taken; the
 * queue starts empty. */
static int start_input(struct pft_calls *c)
{
	if (c->finished)
		return -PFT_ERR_EOS;
	if (c->head < c->nqueue)
		return -PFT_ERR_INTERNAL;
	c->head = c->nqueue = 0;
	return 0;
}

int pft_calls_put(struct pft_calls *c, const struct pft_elem *e, size_t size)
{
	int err;

	if (!c || !e || size < sizeof(*e) || e->type >= PFT_ELEM_TYPE_MAX)
		return -PFT_ERR_INVALID;
	err = start_input(c);
	if (err)
		return err;

	switch (e->type) {
	case PFT_ELEM_RANGE:
		return put_range(c, e);
	case PFT_ELEM_ADDR_NACC:
		err = settle(c, 1, e->addr);
		if (!err)
			err = settle_exception(c, e->addr);
		c->gap = 1;
		return err;
	case PFT_ELEM_NO_SYNC:
	case PFT_ELEM_TRACE_ON:
	case PFT_ELEM_ERROR:
		err = settle(c, 0, 0);
		if (!err)
			err = settle_exception(c, 0);
		c->gap = 1;
		return err;
	case PFT_ELEM_EXCEPTION:
		/* The branch before it, if taken, went to the preferred return
		 * address: the exception came before its first instruction. */
		err = settle(c, e->has_ret, e->addr);
		if (!err)
			err = settle_exception(c, 0);
		c->pexc = (struct pending_exception){ .active = 1, .has_ret = e->has_ret,
						      .number = e->exception, .ret = e->addr };
		return err;
	case PFT_ELEM_EXCEPTION_RETURN:
		if (!c->last_exc_return && !(c->pend.active && c->pend.iclass == PFT_ICLASS_EXC_RETURN)) {
			err = settle(c, 0, 0);
			c->pend = (struct pending_branch){ .active = 1,
							   .iclass = PFT_ICLASS_EXC_RETURN };
		}
		return err;
	case PFT_ELEM_TIMESTAMP:
		c->ts = e->ts;
		c->has_ts = 1;
		return 0;
	default:
		return 0;
	}
}

int pft_calls_finish(struct pft_calls *c)
{
	int err;

	if (!c)
		return -PFT_ERR_INVALID;
	err = start_input(c);
	if (err)
		return err;
	/* A branch or exception whose destination never ran is dropped. */
	c->pend.active = 0;
	c->pexc.active = 0;
	c->finished = 1;
	return pop_to(c, 1, PFT_CALL_F_END, 0, 0, 0);
}

int pft_calls_next(struct pft_calls *c, struct pft_call_event *ev, size_t size)
{
	if (!c || !ev || size < sizeof(*ev))
		return -PFT_ERR_INVALID;
	if (c->head == c->nqueue)
		return c->finished ? -PFT_ERR_EOS : -PFT_ERR_NEED_INPUT;
	*ev = c->queue[c->head++];
	return 0;
}
