/*
 * Calls and returns over flow elements: a stack of frames moved by the
 * class of each range's last instruction (pft.h, section calls, has the
 * rules).  A taken branch waits in @pending until the next element shows
 * where it went.
 */
#include <stdlib.h>
#include <string.h>

#include "pft.h"
#include "views/pft_calls.h"
#include "common/pft_size.h"

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

	if (cfg && cfg->size >= PFT_FIRST_SIZE(struct pft_calls_config)) {
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
	free(c->fold);
	free(c->queue);
	free(c->rets.keys);
	free(c->rets.counts);
	free(c->exc_rets.keys);
	free(c->exc_rets.counts);
	free(c->funcs.keys);
	free(c->funcs.counts);
	free(c);
}

uint32_t pft_calls_depth(const struct pft_calls *c)
{
	return c ? (uint32_t)(c->nframes - 1) : 0;
}

static unsigned ret_hash(uint32_t ret)
{
	return (ret * 0x9e3779b1u) >> (32 - UNINDEXED_HASH_BITS);
}

static size_t cset_slot(const struct count_set *s, uint32_t key)
{
	size_t i = (key * 0x9e3779b1u) & (s->cap - 1);

	while (s->counts[i] && s->keys[i] != key)
		i = (i + 1) & (s->cap - 1);
	return i;
}

static size_t cset_count(const struct count_set *s, uint32_t key)
{
	return s->cap ? s->counts[cset_slot(s, key)] : 0;
}

static int cset_add(struct count_set *s, uint32_t key)
{
	if (2 * (s->n + 1) > s->cap) {
		struct count_set b = { .cap = s->cap ? 2 * s->cap : 64 };
		b.keys = malloc(b.cap * sizeof(*b.keys));
		b.counts = calloc(b.cap, sizeof(*b.counts));
		if (!b.keys || !b.counts) {
			free(b.keys);
			free(b.counts);
			return -PFT_ERR_NOMEM;
		}
		for (size_t i = 0; i < s->cap; i++) {
			if (s->counts[i]) {
				size_t j = cset_slot(&b, s->keys[i]);
				b.keys[j] = s->keys[i];
				b.counts[j] = s->counts[i];
			}
		}
		b.n = s->n;
		free(s->keys);
		free(s->counts);
		*s = b;
	}
	size_t i = cset_slot(s, key);
	if (!s->counts[i]) {
		s->keys[i] = key;
		s->n++;
	}
	s->counts[i]++;
	return 0;
}

/* Remove one @key (there); an emptied slot is filled from the cluster
 * after it, so that probes never stop early. */
static void cset_remove(struct count_set *s, uint32_t key)
{
	size_t i = cset_slot(s, key), j = i;

	if (--s->counts[i])
		return;
	s->n--;
	for (;;) {
		j = (j + 1) & (s->cap - 1);
		if (!s->counts[j])
			return;
		size_t home = (s->keys[j] * 0x9e3779b1u) & (s->cap - 1);
		/* Move j to the hole i unless its home lies in (i, j]. */
		if (i <= j ? (home <= i || home > j) : (home <= i && home > j)) {
			s->keys[i] = s->keys[j];
			s->counts[i] = s->counts[j];
			s->counts[j] = 0;
			i = j;
		}
	}
}

/* The set of frame @f's return address. */
static struct count_set *rets_of(struct pft_calls *c, const struct frame *f)
{
	return f->exception ? &c->exc_rets : &c->rets;
}

/* Count the lowest frame not in the sets in them. */
static int index_next_frame(struct pft_calls *c)
{
	size_t k = c->indexed;
	const struct frame *f = calls_frame_at(c, k);
	int err = 0;

	if (k)
		err = cset_add(rets_of(c, f), f->ret);
	if (!err && f->func_end)
		err = cset_add(&c->funcs, f->func);
	if (err)
		return err;
	if (k)
		c->unindexed_rets[ret_hash(f->ret)]--;
	c->indexed++;
	return 0;
}

/* Frame @k (@f) leaves the stack: out of the sets if it is in them. */
static void unindex_frame(struct pft_calls *c, size_t k, const struct frame *f)
{
	if (k < c->indexed) {
		if (k)
			cset_remove(rets_of(c, f), f->ret);
		if (f->func_end)
			cset_remove(&c->funcs, f->func);
		c->indexed--;
	} else if (k) {
		c->unindexed_rets[ret_hash(f->ret)]--;
	}
	c->exceptions -= k && f->exception;
}

/* Set frame @k's function (its sets follow). */
static int set_function(struct pft_calls *c, size_t k, uint32_t func, uint32_t func_end)
{
	struct frame *f = calls_frame_at(c, k);
	int indexed = k < c->indexed;

	if (indexed && f->func_end)
		cset_remove(&c->funcs, f->func);
	f->func = func;
	f->func_end = func_end;
	return indexed && func_end ? cset_add(&c->funcs, func) : 0;
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

static int __attribute__((noinline)) grow_queue(struct pft_calls *c)
{
	size_t n = c->cap_queue ? c->cap_queue * 2 : 16;
	struct pft_call_event *q = realloc(c->queue, n * sizeof(*q));

	if (!q)
		return -PFT_ERR_NOMEM;
	c->queue = q;
	c->cap_queue = n;
	return 0;
}

/* The queue's next slot, taken; NULL when out of memory. */
static inline __attribute__((always_inline)) struct pft_call_event *queue_slot(struct pft_calls *c)
{
	if (c->nqueue == c->cap_queue && grow_queue(c))
		return NULL;
	return &c->queue[c->nqueue++];
}

/* Queue an event (inline: there is an event per call or return, and
 * an out-of-line call with eight arguments cost a fifth of it). */
static inline __attribute__((always_inline)) int
emit(struct pft_calls *c, unsigned kind, unsigned flags, uint32_t site, uint32_t target,
     uint32_t callee, uint32_t caller, uint64_t entry_insns)
{
	struct pft_call_event *q = queue_slot(c);

	if (!q)
		return -PFT_ERR_NOMEM;
	*q = (struct pft_call_event){
		.kind = (uint8_t)kind, .flags = (uint8_t)flags,
		.depth = (uint32_t)(c->nframes - 1), .site = site,
		.target = target, .callee = callee, .caller = caller,
		.insns = c->insns, .cycles = c->cycles, .ts = c->ts,
		.entry_insns = entry_insns, .has_cycles = c->has_cycles,
		.has_ts = c->has_ts
	};
	return 0;
}

/* Forget the oldest call frame: the outermost moves over it. */
static void forget_oldest(struct pft_calls *c)
{
	unindex_frame(c, 1, calls_frame_at(c, 1));
	c->frames[c->base + 1] = c->frames[c->base];
	c->base++;
	c->nframes--;
}

/* A new top frame (the oldest call frame forgotten at max_depth): its
 * caller's function in *@caller. */
static inline int push_frame(struct pft_calls *c, uint32_t ret, uint32_t func, uint32_t func_end,
			     uint64_t entry_insns, uint8_t exception, uint32_t *caller)
{
	if (c->nframes - 1 >= c->max_depth)
		forget_oldest(c);
	if (c->base + c->nframes == c->cap_frames) {
		if (c->base >= c->nframes) {
			/* Once per nframes forgotten: O(1) amortized. */
			memmove(&c->frames[0], &c->frames[c->base],
				c->nframes * sizeof(*c->frames));
			c->base = 0;
		} else {
			struct frame *p = realloc(c->frames, 2 * c->cap_frames * sizeof(*p));
			if (!p)
				return -PFT_ERR_NOMEM;
			c->frames = p;
			c->cap_frames *= 2;
		}
	}
	*caller = calls_frame_at(c, c->nframes - 1)->func;
	if (c->nframes - c->indexed == UNINDEXED_MAX) {
		int err = index_next_frame(c);
		if (err)
			return err;
	}
	/* Field by field: a frame built aside and copied whole was read
	 * back before its stores had landed (a store forwarding stall). */
	struct frame *f = calls_frame_at(c, c->nframes);
	f->ret = ret;
	f->func = func;
	f->func_end = func_end;
	f->entry_insns = entry_insns;
	f->exception = exception;
	c->nframes++;
	c->unindexed_rets[ret_hash(ret)]++;
	c->exceptions += exception;
	return 0;
}

static int push(struct pft_calls *c, unsigned kind, unsigned flags,
		uint32_t site, uint32_t ret, uint32_t callee, uint16_t number, uint8_t profile)
{
	uint32_t func = 0, func_end = 0, caller;
	uint8_t exception = kind == PFT_CALL_EXCEPTION;

	if (callee)
		function_of(c, callee, &func, &func_end);
	int err = push_frame(c, ret, func, func_end, c->insns, exception, &caller);
	if (!err)
		err = emit(c, kind, flags | (callee ? 0 : PFT_CALL_F_NO_TARGET),
			   site, callee, func, caller, 0);
	if (!err) {
		c->queue[c->nqueue - 1].exception = number;
		c->queue[c->nqueue - 1].profile = profile;
	}
	return err;
}

/* Pop frames until @keep are left; the last one popped (the frame whose
 * return is taken) gets @flags, those above it @flags | UNWOUND too. */
static int pop_to(struct pft_calls *c, size_t keep, unsigned flags,
		  uint32_t site, uint32_t target, int last_unwound)
{
	while (c->nframes > keep) {
		struct frame f = *calls_frame_at(c, --c->nframes);
		unsigned fl = flags;

		unindex_frame(c, c->nframes, &f);
		if (c->nframes == 1 && c->base) {
			c->frames[0] = c->frames[c->base];
			c->base = 0;
		}

		if (c->nframes > keep || last_unwound)
			fl |= PFT_CALL_F_UNWOUND;
		int err = emit(c, f.exception ? PFT_CALL_EXCEPTION_RETURN : PFT_CALL_RETURN,
			       fl, site, target, f.func, calls_frame_at(c, c->nframes - 1)->func,
			       f.entry_insns);
		if (err)
			return err;
	}
	return 0;
}

/* Whether frame @f returns to @addr, an exception frame only when
 * @calls_only is 0. */
static int returns_to(const struct frame *f, uint32_t addr, int calls_only)
{
	return f->ret == addr && !(calls_only && f->exception);
}

/* The deepest frame (above the outermost) returning to @addr, or 0; with
 * @calls_only, the deepest call frame. */
static size_t frame_returning_to(const struct pft_calls *c, uint32_t addr, int calls_only)
{
	/* Most returns are to the top frame: no probe of the set. */
	size_t k = c->nframes, lowest = c->indexed > 1 ? c->indexed : 1;

	if (c->unindexed_rets[ret_hash(addr)])
		while (k-- > lowest)
			if (returns_to(calls_frame_at(c, k), addr, calls_only))
				return k;
	/* Below them, a frame is searched for only when one is there. */
	if (!cset_count(&c->rets, addr) && (calls_only || !cset_count(&c->exc_rets, addr)))
		return 0;
	for (k = lowest; k-- > 1;)
		if (returns_to(calls_frame_at(c, k), addr, calls_only))
			return k;
	return 0;
}

int pft_calls_call_ends_at(struct pft_image *image, uint32_t addr)
{
	static const uint8_t isas[] = { PFT_ISA_ARM, PFT_ISA_THUMB, PFT_ISA_THUMBEE };
	static const uint8_t spaces[] = { PFT_SPACE_ANY, PFT_SPACE_SECURE, PFT_SPACE_NONSECURE };

	if (!image || addr < 4)
		return 1;
	for (size_t s = 0; s < sizeof(spaces); s++) {
		/* T32: the halfword before; A32 and T32: the word before. */
		for (unsigned size = 2; size <= 4; size += 2) {
			uint8_t code[4];
			if (pft_image_read(image, addr - size, (enum pft_mem_space)spaces[s], code,
					   size) != (int)size)
				continue;
			/* A32 has no halfword instructions. */
			for (size_t i = size == 2 ? 1 : 0; i < sizeof(isas); i++) {
				struct pft_insn insn;
				if (pft_insn_decode((enum pft_isa)isas[i], addr - size, code, size,
						    &insn, sizeof(insn)) == (int)size &&
				    (insn.iclass == PFT_ICLASS_CALL ||
				     insn.iclass == PFT_ICLASS_INDIRECT_CALL))
					return 1;
			}
		}
	}
	return 0;
}

/* pft_calls_call_ends_at() of the tracker's image, through its cache. */
static int call_ends_at(struct pft_calls *c, uint32_t addr)
{
	struct call_end_cache *e = &c->call_ends[(addr >> 1) % CALL_END_CACHE_SIZE];

	if (!e->valid || e->addr != addr)
		*e = (struct call_end_cache){ .addr = addr, .valid = 1,
					      .call_ends = (uint8_t)pft_calls_call_ends_at(c->image,
											 addr) };
	return e->call_ends;
}

static int runs(const struct frame *f, uint32_t func)
{
	return f->func_end && f->func == func;
}

/* Whether a frame below the top may run the function around @addr: the
 * functions of the frames are those of function_of() of their entry. */
static int below_top_runs(struct pft_calls *c, uint32_t addr)
{
	uint32_t start, end;
	size_t n;

	function_of(c, addr, &start, &end);
	if (!end)
		return 0;
	n = cset_count(&c->funcs, start);
	for (size_t k = c->indexed; k < c->nframes; k++)
		n += runs(calls_frame_at(c, k), start);
	return n > (size_t)runs(calls_frame_at(c, c->nframes - 1), start);
}

/* A return to @target, which frame @k (0: none) returns to. */
static int return_to(struct pft_calls *c, uint32_t site, uint32_t target, size_t k)
{
	if (k)
		return pop_to(c, k, 0, site, target, 0);
	/* A longjmp into a function further down the stack. */
	if (below_top_runs(c, target))
		for (k = c->nframes - 1; k-- > 0;)
			if (frame_contains(calls_frame_at(c, k), target))
				return pop_to(c, k + 1, 0, site, target, 1);
	if (c->nframes == 1) {
		uint32_t start, end;
		function_of(c, target, &start, &end);
		int err = set_function(c, 0, start, end);
		if (err)
			return err;
	}
	return emit(c, PFT_CALL_UNMATCHED_RETURN, 0, site, target, 0,
		    calls_frame_at(c, c->nframes - 1)->func, 0);
}

static int do_return(struct pft_calls *c, uint32_t site, uint32_t target)
{
	return return_to(c, site, target, frame_returning_to(c, target, 0));
}

static int do_exception_return(struct pft_calls *c, uint32_t site, uint32_t target)
{
	for (size_t k = c->nframes; c->exceptions && k-- > 1;)
		if (calls_frame_at(c, k)->exception)
			return pop_to(c, k, 0, site, target, 0);
	return do_return(c, site, target);
}

static int tail_call(struct pft_calls *c, uint32_t site, uint32_t target)
{
	struct frame *top = calls_frame_at(c, c->nframes - 1);
	uint32_t old = top->func, start, end;

	/* Most taken jumps are loops: the cheap checks first. */
	if (target == top->func || frame_contains(top, target) || !is_function_entry(c, target))
		return 0;
	function_of(c, target, &start, &end);
	int err = set_function(c, c->nframes - 1, start, end);
	if (err)
		return err;
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
	/* Its fields read one by one, not copied whole: it was written a
	 * few instructions ago (a store forwarding stall). */
	const struct pending_branch *p = &c->pend;
	unsigned iclass = p->iclass;
	uint32_t site = p->site;

	if (!p->active)
		return 0;
	c->pend.active = 0;
	if (!known && p->in_range)
		known = direct_target(c, p, &target);
	/* Compares, most frequent first: a switch's jump through a table
	 * was the tracker's most mispredicted branch (cachegrind). */
	if (iclass == PFT_ICLASS_CALL || iclass == PFT_ICLASS_INDIRECT_CALL)
		return push(c, PFT_CALL_CALL, 0, site, p->ret, known ? target : 0, 0, 0);
	/* An exception return whose destination is not known (an M-profile
	 * return cancelled by a tail-chained exception, or trace going off)
	 * still ends its handler. */
	if (!known)
		return iclass == PFT_ICLASS_EXC_RETURN && c->exceptions
			       ? do_exception_return(c, site, 0) : 0;
	if (iclass == PFT_ICLASS_RETURN)
		return do_return(c, site, target);
	if (iclass == PFT_ICLASS_INDIRECT_JUMP) {
		/* It returns to a call frame, but not from an exception:
		 * that takes an exception return. */
		size_t k = frame_returning_to(c, target, 1);
		return k ? return_to(c, site, target, k) : tail_call(c, site, target);
	}
	if (iclass == PFT_ICLASS_JUMP)
		return tail_call(c, site, target);
	if (iclass == PFT_ICLASS_EXC_RETURN)
		return do_exception_return(c, site, target);
	return 0;
}

static int settle_exception(struct pft_calls *c, uint32_t vector)
{
	struct pending_exception p = c->pexc;

	c->pexc.active = 0;
	if (!p.active)
		return 0;
	return push(c, PFT_CALL_EXCEPTION, 0, 0, p.has_ret ? p.ret : 0, vector, p.number,
		    p.profile);
}

static int put_range(struct pft_calls *c, const struct pft_elem *e)
{
	int err = 0;

	/* Checked here: a call per range was a good part of the tracker's
	 * time, and most ranges have nothing to settle or a loop's jump. */
	if (c->pend.active)
		err = settle(c, 1, e->start);
	if (!err && c->pexc.active)
		err = settle_exception(c, e->start);
	if (!err && c->gap) {
		size_t k = frame_returning_to(c, e->start, 0);
		if (k)
			err = pop_to(c, k, PFT_CALL_F_UNTRACED, 0, e->start, 0);
	}
	if (err)
		return err;
	c->gap = 0;
	if (!c->started) {
		c->started = 1;
		if (c->nframes == 1) {
			uint32_t start, end;
			function_of(c, e->start, &start, &end);
			err = set_function(c, 0, start, end);
			if (err)
				return err;
		}
	}
	calls_add_range(c, e);
	return 0;
}

/* One element, checked (pft_calls_put()). */
static int put_elem(struct pft_calls *c, const struct pft_elem *e)
{
	int err = 0;

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
		/* Its cycles are those of what ran since the last cycle count
		 * (a waypoint update's instructions have none of their own). */
		if (e->has_cycles) {
			c->cycles += e->cycles;
			c->has_cycles = 1;
		}
		c->pexc = (struct pending_exception){ .active = 1, .has_ret = e->has_ret,
						      .number = e->exception, .ret = e->addr,
						      .profile = e->profile };
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

int pft_calls_take_leaf_calls(struct pft_calls *c, const struct pft_elem *e)
{
	int err = calls_start_input(c);

	if (err)
		return err;
	if (!c->quiet || c->nframes - 1 >= c->max_depth || !e->ninsn ||
	    (c->pend.active && ((c->pend.iclass != PFT_ICLASS_CALL &&
				 c->pend.iclass != PFT_ICLASS_INDIRECT_CALL) ||
				c->pend.site != e->last)))
		return -PFT_ERR_INVALID;
	c->pend.active = 0;
	c->last_exc_return = 0;
	c->insns += e->offset;
	if (e->has_cycles) {
		c->cycles += e->ts;
		c->has_cycles = 1;
	}
	return 0;
}

int pft_calls_settle_range(struct pft_calls *c, const struct pft_elem *e)
{
	/* Quiet: started, no gap, no exception pending, which settling a
	 * branch does not change. */
	int err = settle(c, 1, e->start);

	if (!err)
		calls_add_range(c, e);
	return err;
}

int pft_calls_settle_jump(struct pft_calls *c, const struct pft_elem *e)
{
	const struct pending_branch *p = &c->pend;
	uint32_t site = p->site, target = e->start;
	int err;

	if (p->iclass == PFT_ICLASS_INDIRECT_JUMP) {
		/* settle_kind() and settle() in one look at the frames. */
		size_t k = frame_returning_to(c, target, 1);
		if (!k && call_ends_at(c, target))
			return 0;
		c->pend.active = 0;
		err = k ? return_to(c, site, target, k) : tail_call(c, site, target);
	} else {
		c->pend.active = 0;
		err = tail_call(c, site, target);
	}
	if (err)
		return err;
	calls_add_range(c, e);
	return 1;
}

void pft_calls_leaf_call(struct pft_calls *c, const struct pft_elem *x, const struct pft_elem *next,
			 struct pft_call_event ev[2])
{
	/* As push() then pop_to() would queue them: the frame pushed is
	 * the one above the top, its caller the top's function. */
	uint32_t func, func_end, caller = calls_frame_at(c, c->nframes - 1)->func;
	uint64_t entry = c->insns;

	function_of(c, x->start, &func, &func_end);
	ev[0] = (struct pft_call_event){
		.kind = PFT_CALL_CALL, .depth = (uint32_t)c->nframes, .site = c->pend.site,
		.target = x->start, .callee = func, .caller = caller,
		.insns = c->insns, .cycles = c->cycles, .ts = c->ts,
		.has_cycles = c->has_cycles, .has_ts = c->has_ts
	};
	c->pend.active = 0;
	calls_add_range(c, x);
	c->pend.active = 0;
	ev[1] = (struct pft_call_event){
		.kind = PFT_CALL_RETURN, .depth = (uint32_t)(c->nframes - 1), .site = x->last,
		.target = next->start, .callee = func, .caller = caller,
		.insns = c->insns, .cycles = c->cycles, .ts = c->ts, .entry_insns = entry,
		.has_cycles = c->has_cycles, .has_ts = c->has_ts
	};
}

int pft_calls_put_one(struct pft_calls *c, const struct pft_elem *e)
{
	int err = put_elem(c, e);

	c->quiet = c->started && !c->gap && !c->pexc.active;
	return err;
}

int pft_calls_put_checked(struct pft_calls *c, const struct pft_elem *e, size_t n, size_t size)
{
	return calls_put_until_events(c, e, n, size, NULL, NULL);
}

/* The arguments of pft_calls_put_run() and pft_calls_put_all(). */
static int run_args_ok(const struct pft_calls *c, const struct pft_elem *e, size_t n,
		       size_t size)
{
	return c && e && n && n <= INT32_MAX && size >= PFT_FIRST_SIZE(struct pft_elem);
}

int pft_calls_put_run(struct pft_calls *c, const struct pft_elem *e, size_t n, size_t size)
{
	return run_args_ok(c, e, n, size) ? pft_calls_put_checked(c, e, n, size) : -PFT_ERR_INVALID;
}

/* A leaf call's two events queued (pft_calls_leaf_call() makes them as
 * push() and pop_to() would). */
static int queue_leaf(void *ctx, const struct pft_call_event ev[2], const struct pft_elem *x)
{
	struct pft_calls *c = ctx;

	(void)x;
	for (int i = 0; i < 2; i++) {
		struct pft_call_event *q = queue_slot(c);
		if (!q)
			return -PFT_ERR_NOMEM;
		*q = ev[i];
	}
	return 0;
}

static const struct calls_put_ops queue_ops = { .on_leaf = queue_leaf };

int pft_calls_queue_leaf_call(struct pft_calls *c, const struct pft_elem *x,
			      const struct pft_elem *next)
{
	struct pft_call_event ev[2];

	pft_calls_leaf_call(c, x, next, ev);
	return queue_leaf(c, ev, x);
}

int pft_calls_put_all(struct pft_calls *c, const struct pft_elem *e, size_t n, size_t size)
{
	return run_args_ok(c, e, n, size) ? calls_put_elems(c, e, n, size, 0, &queue_ops, c)
					  : -PFT_ERR_INVALID;
}

int pft_calls_put(struct pft_calls *c, const struct pft_elem *e, size_t size)
{
	int n = pft_calls_put_run(c, e, 1, size);

	return n < 0 ? n : 0;
}

int pft_calls_finish(struct pft_calls *c)
{
	int err;

	if (!c)
		return -PFT_ERR_INVALID;
	err = calls_start_input(c);
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
	if (!c || !ev || size < PFT_FIRST_SIZE(struct pft_call_event))
		return -PFT_ERR_INVALID;
	if (c->head == c->nqueue)
		return c->finished ? -PFT_ERR_EOS : -PFT_ERR_NEED_INPUT;
	/* Every view takes every event: a copy of a size known when
	 * compiled when the caller's struct is this one. */
	if (size == sizeof(*ev))
		*ev = c->queue[c->head++];
	else
		pft_copy_known(ev, &c->queue[c->head++], size, sizeof(*ev));
	return 0;
}

const struct pft_call_event *pft_calls_next_in_place(struct pft_calls *c)
{
	return c ? pft_calls_take(c) : NULL;
}

/*
 * The stack run in the parallel decode's workers (pft_views_fold.c).  A
 * worker's tracker starts after a range it hands over (pft_calls_seed()),
 * with frame 0 standing for the frames it does not know: the reading
 * thread's, which takes that range itself.  Of the elements after it
 * (pft_calls_fold_kind()):
 *  - most look at and move only frames above frame 0: the worker takes
 *    them (CALLS_LOCAL);
 *  - a branch that only those frames could settle (a return, a jump that
 *    may be a tail call, ...) when the worker has none above frame 0 is
 *    settled by the reading thread's tracker (CALLS_BASE): the worker
 *    sends it (pft_calls_fold_branch()) and goes on: whichever frame its
 *    frame 0 then stands for, nothing it does looks at it;
 *  - the others (the same with frames above frame 0, a gap) it hands over
 *    (CALLS_HANDOVER), after what the elements it took did to the stack
 *    (pft_calls_fold_state()).
 * The reading thread's tracker applies what the worker sends in order
 * (pft_calls_apply_fold()), as if it had taken the elements itself.
 */

enum {
	FOLD_PEND = 1 << 0,        /* CALLS_STATE and _BRANCH flags: pend.active, */
	FOLD_IN_RANGE = 1 << 1,    /* pend.in_range, */
	FOLD_EXCEPTION = 1 << 2,   /* pexc.active, */
	FOLD_EXC_RETURN = 1 << 3,  /* last_exc_return, */
	FOLD_TS = 1 << 4,          /* has_ts, */
	FOLD_KNOWN = 1 << 5        /* the branch's destination is known */
};

/* What settling the pending branch (to @target when @known) depends on,
 * @depth_max frames at most above frame 0. */
static int settle_kind(struct pft_calls *c, int known, uint32_t target, size_t depth_max)
{
	const struct pending_branch *p = &c->pend;
	int root = c->nframes == 1;

	if (!p->active)
		return CALLS_LOCAL;
	if (p->iclass == PFT_ICLASS_CALL || p->iclass == PFT_ICLASS_INDIRECT_CALL)
		return c->nframes <= depth_max ? CALLS_LOCAL : CALLS_HANDOVER;
	if (p->iclass == PFT_ICLASS_EXC_RETURN)
		return c->exceptions ? CALLS_LOCAL : root ? CALLS_BASE : CALLS_HANDOVER;
	if (!known && p->in_range)
		known = direct_target(c, p, &target);
	if (!known)
		return CALLS_LOCAL;
	if (p->iclass == PFT_ICLASS_RETURN)
		return frame_returning_to(c, target, 0) ? CALLS_LOCAL
		       : root ? CALLS_BASE : CALLS_HANDOVER;
	if (p->iclass == PFT_ICLASS_INDIRECT_JUMP) {
		if (frame_returning_to(c, target, 1))
			return CALLS_LOCAL;
		/* Where no call ends, no frame before returns either: a
		 * jump as the direct ones below. */
		if (call_ends_at(c, target))
			return root ? CALLS_BASE : CALLS_HANDOVER;
	}
	if ((p->iclass == PFT_ICLASS_JUMP || p->iclass == PFT_ICLASS_INDIRECT_JUMP) && root &&
	    is_function_entry(c, target))
		return CALLS_BASE;
	return CALLS_LOCAL;
}

int pft_calls_fold_kind(struct pft_calls *c, const struct pft_elem *e, size_t depth_max)
{
	/* An exception pending and a call settled: two frames. */
	int room2 = c->nframes + 1 <= depth_max;

	switch (e->type) {
	case PFT_ELEM_RANGE:
		return c->pexc.active && !room2 ? CALLS_HANDOVER
		       : settle_kind(c, 1, e->start, depth_max);
	case PFT_ELEM_EXCEPTION:
		return c->pexc.active && !room2 ? CALLS_HANDOVER
		       : settle_kind(c, e->has_ret, e->addr, depth_max);
	case PFT_ELEM_EXCEPTION_RETURN:
		if (c->last_exc_return || (c->pend.active && c->pend.iclass == PFT_ICLASS_EXC_RETURN))
			return CALLS_LOCAL;
		return settle_kind(c, 0, 0, depth_max);
	case PFT_ELEM_TIMESTAMP:
	case PFT_ELEM_CONTEXT:
	case PFT_ELEM_TRIGGER:
		return CALLS_LOCAL;
	default:
		/* A gap (frames are searched for where the trace resumes), or
		 * a fold's own element. */
		return CALLS_HANDOVER;
	}
}

int pft_calls_is_entry(struct pft_calls *c, uint32_t addr)
{
	return is_function_entry(c, addr);
}

void pft_calls_seed(struct pft_calls *c, const struct pft_elem *e)
{
	if (c->rets.n)
		memset(c->rets.counts, 0, c->rets.cap * sizeof(*c->rets.counts));
	if (c->funcs.n)
		memset(c->funcs.counts, 0, c->funcs.cap * sizeof(*c->funcs.counts));
	if (c->exc_rets.n)
		memset(c->exc_rets.counts, 0, c->exc_rets.cap * sizeof(*c->exc_rets.counts));
	c->rets.n = c->exc_rets.n = c->funcs.n = 0;
	memset(c->unindexed_rets, 0, sizeof(c->unindexed_rets));
	c->indexed = c->exceptions = 0;
	c->base = 0;
	c->nframes = 1;
	c->frames[0] = (struct frame){ 0 };
	c->head = c->nqueue = 0;
	c->pend.active = 0;
	c->pexc.active = 0;
	c->gap = c->finished = 0;
	c->started = c->quiet = 1;
	calls_add_range(c, e);
	c->insns = c->cycles = c->ts = 0;
	c->has_cycles = c->has_ts = 0;
}

/* The counters of @c (a worker's: since its seed) in @out. */
static void fold_counters(const struct pft_calls *c, unsigned peak, struct pft_elem *out)
{
	out->offset = c->insns;
	out->cycles = (uint32_t)c->cycles;
	out->ctxid = (uint32_t)(c->cycles >> 32);
	out->has_cycles = c->has_cycles;
	out->ts = c->ts;
	out->flags |= c->has_ts ? FOLD_TS : 0;
	out->reason = (uint8_t)peak;
}

void pft_calls_fold_branch(struct pft_calls *c, unsigned peak, const struct pft_elem *e,
			   struct pft_elem *out)
{
	const struct pending_branch *p = &c->pend;
	int known = e->type == PFT_ELEM_RANGE || (e->type == PFT_ELEM_EXCEPTION && e->has_ret);

	*out = (struct pft_elem){
		.type = PFT_ELEM_CALLS_BRANCH, .iclass = p->iclass, .isa = p->isa,
		.space = p->space, .last = p->site, .end = p->ret,
		.addr = !known ? 0 : e->type == PFT_ELEM_RANGE ? e->start : e->addr,
		.flags = (uint8_t)((p->in_range ? FOLD_IN_RANGE : 0) | (known ? FOLD_KNOWN : 0))
	};
	fold_counters(c, peak, out);
	c->pend.active = 0;
}

size_t pft_calls_fold_state(const struct pft_calls *c, unsigned peak, struct pft_elem *out)
{
	const struct pending_branch *p = &c->pend;
	const struct pending_exception *x = &c->pexc;
	size_t n = c->nframes - 1;

	out[0] = (struct pft_elem){
		.type = PFT_ELEM_CALLS_STATE,
		.flags = (uint8_t)((p->active ? FOLD_PEND : 0) | (p->in_range ? FOLD_IN_RANGE : 0) |
				   (x->active ? FOLD_EXCEPTION : 0) |
				   (c->last_exc_return ? FOLD_EXC_RETURN : 0)),
		.iclass = p->iclass, .isa = p->isa, .space = p->space, .last = p->site, .end = p->ret,
		.has_ret = x->has_ret, .exception = x->number, .addr = x->ret, .profile = x->profile,
		.changed = (uint8_t)n
	};
	fold_counters(c, peak, &out[0]);
	for (size_t k = 1; k <= n; k++) {
		const struct frame *f = calls_frame_at(c, k);
		out[k] = (struct pft_elem){ .type = PFT_ELEM_CALLS_FRAME, .end = f->ret,
					    .start = f->func, .last = f->func_end,
					    .offset = f->entry_insns, .taken = f->exception };
	}
	return n + 1;
}

/* A worker's counters and the depth it reached (@e's), applied: the
 * frames its deepest calls made the stack forget first (never the top
 * one, which its frame 0 stood for). */
static void apply_counters(struct pft_calls *c, const struct pft_elem *e)
{
	if (!c->fold_open) {
		c->fold_open = 1;
		c->fold_insns = c->insns;
		c->fold_cycles = c->cycles;
	}
	size_t depth = c->nframes - 1;
	for (size_t forget = depth + e->reason > c->max_depth ? depth + e->reason - c->max_depth : 0;
	     forget && c->nframes > 2; forget--)
		forget_oldest(c);
	c->insns = c->fold_insns + e->offset;
	c->cycles = c->fold_cycles + (e->cycles | (uint64_t)e->ctxid << 32);
	c->has_cycles |= e->has_cycles;
	if (e->flags & FOLD_TS) {
		c->ts = e->ts;
		c->has_ts = 1;
	}
}

int pft_calls_apply_fold(struct pft_calls *c, const struct pft_elem *e)
{
	int err = calls_start_input(c);

	if (err)
		return err;
	if (e->type == PFT_ELEM_CALLS_FRAME) {
		uint32_t caller;
		return push_frame(c, e->end, e->start, e->last, c->fold_insns + e->offset,
				  e->taken != 0, &caller);
	}
	if (e->type != PFT_ELEM_CALLS_STATE && e->type != PFT_ELEM_CALLS_BRANCH)
		return -PFT_ERR_INVALID;
	apply_counters(c, e);
	c->gap = 0;
	c->started = 1;
	c->last_exc_return = 0;
	c->pend = (struct pending_branch){ .active = 1, .in_range = (e->flags & FOLD_IN_RANGE) != 0,
					   .iclass = e->iclass, .isa = e->isa, .space = e->space,
					   .site = e->last, .ret = e->end };
	if (e->type == PFT_ELEM_CALLS_BRANCH)
		return settle(c, (e->flags & FOLD_KNOWN) != 0, e->addr);
	c->fold_open = 0;
	c->pend.active = (e->flags & FOLD_PEND) != 0;
	c->pexc = (struct pending_exception){ .active = (e->flags & FOLD_EXCEPTION) != 0,
					      .has_ret = e->has_ret, .number = e->exception,
					      .ret = e->addr, .profile = e->profile };
	c->last_exc_return = (e->flags & FOLD_EXC_RETURN) != 0;
	c->quiet = !c->pexc.active;
	return 0;
}
