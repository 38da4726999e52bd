/*
 * The folds of the calls tracker and the views (pft_views_fold.h), run in
 * the parallel decode's workers.
 *
 * Why a fold gives what the unfolded elements give.  The tracker moves
 * its stack only at a range whose last instruction is a taken call,
 * return, jump or exception return, and only once the next range shows
 * where it went (pft_calls.c, settle()); of those, a jump to an address
 * that is no function's entry moves nothing whatever the stack
 * (tail_call()) if it is direct, or indirect to where no call ends (an
 * indirect jump returns to a call frame: pft_calls_call_ends_at()).  So
 * between two ranges where nothing moves, the tracker only adds
 * instructions and cycles: a run of such ranges is, to it, one
 * range with the first one's start (which settles the branch before it),
 * the last one's end (whose branch the next element settles), and the
 * instructions and cycles of all.  The views add each range's
 * instructions to the function it is in, in the top frame (pft_views.c,
 * attribute()): for ranges of one function that is one addition.  What
 * is left, how often each distinct range ran, the worker counts itself
 * and sends as RANGE_COUNT elements.  Anything else (other elements,
 * ranges that leave their function or are in none, a branch that may
 * move the stack) ends a run and goes through as it is.
 *
 * Without calling contexts (VFOLD_ENTRIES) the views need of the stack only
 * which calls, tail calls and exceptions enter a function.  A worker runs
 * a tracker of its own over the ranges it counts, from just after a range
 * it hands over, whose frame 0 stands for the reading thread's frames
 * (pft_calls.c): it takes the elements that move only its own frames and
 * counts what they enter, sends the branches that only the frames before
 * settle (CALLS_BRANCH), and before an element that needs both, what it
 * did to the stack (CALLS_STATE, CALLS_FRAME); that element goes through
 * as it is, to the reading thread's tracker, which has the whole stack.
 * The next range it hands over starts its tracker again.
 */
#include <stdlib.h>
#include <string.h>

#include "pft.h"
#include "views/pft_calls.h"
#include "views/pft_views.h"
#include "views/pft_views_fold.h"

enum {
	TABLE_SIZE = 4096,         /* distinct ranges a worker counts at once */
	TABLE_FULL = TABLE_SIZE / 2,
	MEMO_SIZE = 256,           /* slots of ranges seen last */
	ENTRY_CACHE = 1024,        /* jump targets looked up lately (jump_to()) */
	TARGETS_SIZE = 1024,       /* distinct call targets a worker counts at once */
	TARGETS_FULL = TARGETS_SIZE / 2
};

_Static_assert(CALLS_SEEDED_DEPTH_MAX + 2 <= PFT_FOLD_EXTRA,
	       "a stack's state fits a fold's extra room");

/* How often calls (@tail 0) or tail calls entered @target. */
struct target_count {
	uint64_t count;            /* 0: free */
	uint32_t target;
	uint8_t tail;
};

/* A distinct range, how often it ran, and the function it is in. */
struct counted {
	uint64_t key;              /* vrange_key(); 0: free */
	uint64_t count;
	uint64_t func_key;         /* pft_vfunc_find()'s key */
	uint32_t start, last, ninsn;
	uint32_t shape;            /* range_shape() of the element first seen */
	uint8_t eflags;            /* that element's flags */
	uint8_t holds;             /* stays in its function (vfunc_holds()) */
	uint8_t entry;             /* @start is a function's entry (jump_to()) */
};

/* What a jump to @addr may do to the stack: @entry, and @call_ends
 * unless CALL_ENDS_UNKNOWN. */
struct entry_cache {
	uint32_t addr;
	uint8_t known, entry, call_ends;
};

enum { CALL_ENDS_UNKNOWN = 2 };

/* VFOLD_VIEWS: the calls of a chain (leaf_chain) from one call site into
 * one function, as their LEAF_CALLS element counts them (pft_calls.h). */
struct leaf_group {
	uint32_t site, target, n;
	uint32_t min_insns, max_insns, min_cycles, max_cycles;
	uint64_t insns, cycles;
	uint8_t has_cycles;
};

enum { LEAF_GROUPS_MAX = 8 };

/* Where the runs written so far leave the search for leaf calls. */
enum chain_state {
	CHAIN_NONE,
	CHAIN_CALLED,       /* the last run written ends in a call (@site, @ret) */
	CHAIN_CALLEE,       /* ... and the run written after it may be its callee's */
	CHAIN_OPEN,         /* a leaf call returned to a run that calls again: the
			     * chain is open (that run written, or @call) */
	CHAIN_OPEN_CALLEE   /* ... and the run after it may be its callee's (@callee) */
};

/*
 * VFOLD_VIEWS: a chain of leaf calls, calls whose callee runs as one run
 * that returns to where it was called from (pft_calls.h,
 * calls_leaf_call()), of one function that calls again and again: from
 * its second call on, the worker holds back the runs and sends the
 * calls counted by call site and callee (LEAF_CALLS) and the caller's
 * runs between them as one.  The first leaf call goes through as it is:
 * after it the stack is below its limit, so that no call of the chain
 * forgets a frame, and the tracker has a clock (pft_views.c,
 * apply_leaf_calls()).
 */
struct leaf_chain {
	uint8_t state;             /* enum chain_state */
	uint8_t call_held;         /* CHAIN_OPEN*: @call is held back */
	uint32_t site, ret;        /* the call pending */
	uint64_t func;             /* CHAIN_OPEN*: the caller's function key */
	struct pft_elem call, callee;
	struct leaf_group groups[LEAF_GROUPS_MAX];
	unsigned ngroups;
	struct pft_elem caller;    /* the caller's runs taken, as one (ninsn 0: none) */
};

struct fold_worker {
	const struct vfold *f;
	struct leaf_chain chain;
	struct pft_elem run;       /* the ranges folded so far (when @open) */
	uint64_t run_func;         /* VFOLD_VIEWS: their function's key */
	int open;
	struct counted *table;     /* TABLE_SIZE slots */
	struct counted *memo[MEMO_SIZE];
	size_t ncounted;
	size_t emitted;            /* close(): the slots written so far */
	uint64_t folded;           /* ranges joined to the run before, or counted
				    * and dropped (VFOLD_COUNTS) */
	struct entry_cache entries[ENTRY_CACHE];
	/* VFOLD_ENTRIES: the stack run from just after the last range handed
	 * over (@seg: since then), the elements it took, the most frames it
	 * held above frame 0, and the call targets counted. */
	struct pft_calls *calls;
	int seg;
	uint64_t seg_elems;
	unsigned peak;
	struct target_count *targets;   /* TARGETS_SIZE slots */
	size_t ntargets;
	size_t targets_emitted;
};

static void fold_worker_free(void *worker)
{
	struct fold_worker *w = worker;

	if (w) {
		free(w->table);
		free(w->targets);
		pft_calls_free(w->calls);
	}
	free(w);
}

static void *fold_worker_alloc(void *ctx)
{
	struct fold_worker *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->f = ctx;
	if (w->f->mode != VFOLD_CALLS && !(w->table = calloc(TABLE_SIZE, sizeof(*w->table))))
		goto fail;
	if (w->f->mode == VFOLD_ENTRIES) {
		/* The image is only read. */
		struct pft_calls_config cc = { .size = sizeof(cc),
					       .image = (struct pft_image *)(uintptr_t)w->f->image,
					       .max_depth = w->f->max_depth };
		w->calls = pft_calls_alloc(&cc, NULL);
		w->targets = calloc(TARGETS_SIZE, sizeof(*w->targets));
		if (!w->calls || !w->targets)
			goto fail;
	}
	return w;
fail:
	fold_worker_free(w);
	return NULL;
}

/* The image, which the workers only read. */
static struct pft_image *image_of(const struct fold_worker *w)
{
	return (struct pft_image *)(uintptr_t)w->f->image;
}

/* A jump to @addr in the cache: whether @addr is a function's entry to
 * the tracker, a symbol's start (pft_calls.c, is_function_entry()). */
static struct entry_cache *jump_to(struct fold_worker *w, uint32_t addr)
{
	struct entry_cache *c = &w->entries[(addr >> 1) % ENTRY_CACHE];

	if (!c->known || c->addr != addr) {
		struct pft_image_symbol sym;
		int found = w->f->image &&
			    pft_image_symbol_at(w->f->image, addr, &sym, sizeof(sym)) == 0;
		*c = (struct entry_cache){ .addr = addr, .known = 1,
					   .entry = (uint8_t)(found && sym.start == addr),
					   .call_ends = CALL_ENDS_UNKNOWN };
	}
	return c;
}

/* Whether a call may end at @addr (pft_calls_call_ends_at()), looked up
 * the first time it is asked, as only indirect jumps ask. */
static int jump_call_ends(struct fold_worker *w, uint32_t addr)
{
	struct entry_cache *c = jump_to(w, addr);

	if (c->call_ends == CALL_ENDS_UNKNOWN)
		c->call_ends = (uint8_t)pft_calls_call_ends_at(image_of(w), addr);
	return c->call_ends;
}

/* Whether the taken branch that ends range @last moves no frame when
 * range @e (@c: its count, NULL when not counted) follows: a jump to no
 * function's entry, which no frame returns to. */
static inline int jump_moves_nothing(struct fold_worker *w, const struct pft_elem *last,
				     const struct pft_elem *e, const struct counted *c)
{
	if (last->iclass != PFT_ICLASS_JUMP && last->iclass != PFT_ICLASS_INDIRECT_JUMP)
		return 0;
	if (c ? c->entry : jump_to(w, e->start)->entry)
		return 0;
	return last->iclass == PFT_ICLASS_JUMP || !jump_call_ends(w, e->start);
}

/* The bytes of range @e that, with its start, instruction count and
 * flags, make its key: its instruction set, taken, class (of its code, as
 * the rest) and memory space, read at once. */
static inline uint32_t range_shape(const struct pft_elem *e)
{
	uint32_t shape;

	_Static_assert(offsetof(struct pft_elem, taken) == offsetof(struct pft_elem, isa) + 1 &&
		       offsetof(struct pft_elem, iclass) == offsetof(struct pft_elem, isa) + 2 &&
		       offsetof(struct pft_elem, space) == offsetof(struct pft_elem, isa) + 3,
		       "isa, taken, iclass and space are adjacent");
	memcpy(&shape, &e->isa, sizeof(shape));
	return shape;
}

/* Whether range @e can be counted in a worker's table: 1 to
 * VRANGE_INSNS_MAX - 1 instructions at even addresses. */
static inline int countable(const struct pft_elem *e)
{
	return e->ninsn - 1u < VRANGE_INSNS_MAX - 1u && !(e->start & 1);
}

/* counted_of() when the memo does not have @e: its slot in the table,
 * found by its key, remembered at @m.  Out of line: inlined, it made the
 * loop keep the element's fields on the stack, stored as bytes and loaded
 * back as words (a store forwarding stall per range). */
static __attribute__((noinline)) struct counted *
counted_slow(struct fold_worker *w, const struct pft_elem *e, struct counted **m)
{
	if (!countable(e))
		return NULL;
	uint64_t key = vrange_key(e, w->f->image_index);
	size_t i = (size_t)(key * 0x9e3779b97f4a7c15ull >> 52) & (TABLE_SIZE - 1);
	struct counted *c;
	while ((c = &w->table[i])->key && c->key != key)
		i = (i + 1) & (TABLE_SIZE - 1);
	if (!c->key) {
		if (w->ncounted == TABLE_FULL)
			return NULL;
		struct vfunc fn;
		*c = (struct counted){ .key = key, .start = e->start, .last = e->last,
				       .ninsn = e->ninsn, .shape = range_shape(e),
				       .eflags = e->flags };
		c->func_key = pft_vfunc_find(w->f->lines, w->f->image, w->f->image_index, e->start,
					     &fn);
		c->holds = (uint8_t)vfunc_holds(&fn, e);
		c->entry = jump_to(w, e->start)->entry;
		w->ncounted++;
	}
	*m = c;
	return c;
}

/* Range @e's slot, added on first sight; NULL when @e is not countable,
 * or the table is full and @e not in it.  The same few ranges come again
 * and again (a loop): the memo has most, found by the fields of the
 * element that made them (a key costs more to make than they to
 * compare). */
static inline struct counted *counted_of(struct fold_worker *w, const struct pft_elem *e)
{
	struct counted **m = &w->memo[(e->start >> 1 ^ e->ninsn) % MEMO_SIZE];
	const struct counted *c = *m;

	if (c && c->start == e->start && c->ninsn == e->ninsn && c->shape == range_shape(e) &&
	    c->eflags == e->flags)
		return *m;
	return counted_slow(w, e, m);
}

/* A call (@tail 0) or tail call into @target, counted (the caller keeps
 * room in the table). */
static void count_target(struct fold_worker *w, uint32_t target, int tail)
{
	size_t i = ((target >> 1) * 0x9e3779b1u ^ (unsigned)tail) & (TARGETS_SIZE - 1);
	struct target_count *t;

	while ((t = &w->targets[i])->count && (t->target != target || t->tail != tail))
		i = (i + 1) & (TARGETS_SIZE - 1);
	if (!t->count) {
		w->ntargets++;
		*t = (struct target_count){ .target = target, .tail = (uint8_t)tail };
	}
	t->count++;
}

/* VFOLD_ENTRIES: take element @e into the worker's stack (when it can:
 * 1) and count the entries it makes; counted as a range if it is one.  A
 * branch it leaves to the frames before goes to @out (*@k).  @next: the
 * element after it, if at hand (a leaf call is then taken at once). */
static int take_entries(struct fold_worker *w, const struct pft_elem *e,
			const struct pft_elem *next, struct pft_elem *out, size_t *k)
{
	struct pft_calls *c = w->calls;
	struct counted *r = NULL;

	/* An element makes at most two entries (a call and an exception). */
	if (!w->seg || w->ntargets + 2 > TARGETS_FULL)
		return 0;
	if (e->type == PFT_ELEM_RANGE &&
	    !(r = counted_of(w, e)))
		return 0;
	c->head = c->nqueue = 0;
	int took = calls_seeded_take(c, e, next, calls_seeded_depth_max(c->max_depth), &w->peak,
				     out, k);
	if (took <= 0)
		return took;
	const struct pft_call_event *ev;
	while ((ev = pft_calls_take(c)))
		if (calls_enters(ev->kind))
			count_target(w, ev->target, ev->kind == PFT_CALL_TAIL_CALL);
	if (r) {
		r->count++;
		w->folded++;
	}
	w->seg_elems++;
	return 1;
}

/* VFOLD_ENTRIES: the worker's stack ends; what it did, at @out (if it took
 * anything): returns how many elements. */
static size_t end_seg(struct fold_worker *w, struct pft_elem *out)
{
	size_t k = w->seg && w->seg_elems ? pft_calls_fold_state(w->calls, w->peak, out) : 0;

	w->seg = 0;
	return k;
}

static int fold_entries(struct fold_worker *w, const struct pft_elem *in, size_t n,
			struct pft_elem *out)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		const struct pft_elem *e = &in[i];
		int took = take_entries(w, e, i + 1 < n ? &in[i + 1] : NULL, out, &k);
		if (took < 0)
			return -1;
		if (took)
			continue;
		k += end_seg(w, out + k);
		out[k++] = *e;
		if (e->type == PFT_ELEM_RANGE) {
			pft_calls_seed(w->calls, e);
			w->seg = 1;
			w->seg_elems = 0;
			w->peak = 0;
		}
	}
	return (int)k;
}

static int is_call_run(const struct pft_elem *r)
{
	return r->taken && (r->iclass == PFT_ICLASS_CALL || r->iclass == PFT_ICLASS_INDIRECT_CALL);
}

/* Whether run @r, after a call, may be a leaf's callee (calls_leaf_call()). */
static int may_be_leaf(const struct pft_elem *r)
{
	return r->taken && (r->iclass == PFT_ICLASS_RETURN || r->iclass == PFT_ICLASS_INDIRECT_JUMP) &&
	       r->start;
}

/* The chain's state after run @r is written, outside a chain. */
static void chain_after(struct leaf_chain *ch, const struct pft_elem *r)
{
	ch->state = is_call_run(r) ? CHAIN_CALLED : CHAIN_NONE;
	ch->site = r->last;
	ch->ret = r->end;
}

/* A leaf call returned to run @r (of function key @func), which calls
 * again: the chain is open, that call pending. */
static void chain_open(struct leaf_chain *ch, const struct pft_elem *r, uint64_t func)
{
	ch->state = CHAIN_OPEN;
	ch->func = func;
	ch->site = r->last;
	ch->ret = r->end;
}

/* Write what the chain holds, in order: its calls, the caller's runs,
 * then as they are the run that called last and its callee's. */
static size_t chain_flush(struct leaf_chain *ch, struct pft_elem *out, size_t k)
{
	for (unsigned i = 0; i < ch->ngroups; i++) {
		const struct leaf_group *g = &ch->groups[i];
		out[k++] = (struct pft_elem){
			.type = PFT_ELEM_LEAF_CALLS, .start = g->target, .last = g->site,
			.ninsn = g->n, .offset = g->insns, .ts = g->cycles,
			.has_cycles = g->has_cycles, .addr = g->min_insns, .ctxid = g->max_insns,
			.end = g->min_cycles, .cycles = g->max_cycles
		};
	}
	if (ch->caller.ninsn)
		out[k++] = ch->caller;
	if (ch->state >= CHAIN_OPEN && ch->call_held)
		out[k++] = ch->call;
	if (ch->state == CHAIN_OPEN_CALLEE)
		out[k++] = ch->callee;
	ch->ngroups = 0;
	ch->caller.ninsn = 0;
	ch->call_held = 0;
	ch->state = CHAIN_NONE;
	return k;
}

/* chain_flush() before the run at out[@k], which moves after what it
 * writes: returns where that run is now. */
static size_t chain_flush_before(struct leaf_chain *ch, struct pft_elem *out, size_t k)
{
	struct pft_elem r = out[k];

	k = chain_flush(ch, out, k);
	out[k] = r;
	return k;
}

/* Leaf call @x (the held callee), returned to: into its group, and the
 * run that made it (if held) into the caller's.  0: no room (a new group
 * past the table, a count past its field), nothing taken. */
static int chain_take(struct fold_worker *w, const struct pft_elem *x)
{
	struct leaf_chain *ch = &w->chain;
	struct leaf_group *g = ch->groups;
	const struct pft_elem *c = &ch->call;

	while (g < ch->groups + ch->ngroups && (g->site != ch->site || g->target != x->start))
		g++;
	if ((g == ch->groups + LEAF_GROUPS_MAX) || (g < ch->groups + ch->ngroups && g->n == UINT32_MAX))
		return 0;
	if (ch->call_held && ch->caller.ninsn &&
	    (c->ninsn >= VRANGE_INSNS_MAX - ch->caller.ninsn ||
	     (c->has_cycles && c->cycles > UINT32_MAX - ch->caller.cycles)))
		return 0;
	uint32_t cycles = x->has_cycles ? x->cycles : 0;
	if (g == ch->groups + ch->ngroups) {
		*g = (struct leaf_group){ .site = ch->site, .target = x->start,
					  .min_insns = x->ninsn, .min_cycles = cycles };
		ch->ngroups++;
	}
	g->n++;
	g->insns += x->ninsn;
	g->cycles += cycles;
	g->has_cycles |= x->has_cycles;
	g->min_insns = x->ninsn < g->min_insns ? x->ninsn : g->min_insns;
	g->max_insns = x->ninsn > g->max_insns ? x->ninsn : g->max_insns;
	g->min_cycles = cycles < g->min_cycles ? cycles : g->min_cycles;
	g->max_cycles = cycles > g->max_cycles ? cycles : g->max_cycles;
	w->folded++;
	if (ch->call_held) {
		if (!ch->caller.ninsn) {
			/* Not a call any more: the tracker only adds it. */
			ch->caller = *c;
			ch->caller.taken = 0;
			ch->caller.iclass = PFT_ICLASS_OTHER;
		} else {
			ch->caller.ts += c->ts;   /* the ranges in it (put_run()) */
			ch->caller.ninsn += c->ninsn;
			ch->caller.cycles += c->has_cycles ? c->cycles : 0;
			ch->caller.has_cycles |= c->has_cycles;
		}
		ch->call_held = 0;
		w->folded++;
	}
	return 1;
}

/*
 * VFOLD_VIEWS: the run at out[@k] (of function key @func), just written,
 * goes through the chain (struct leaf_chain): it stays there, or is held
 * back, or goes after what the chain writes first.  Returns the elements
 * written.
 */
static size_t chain_run(struct fold_worker *w, struct pft_elem *out, size_t k, uint64_t func)
{
	struct leaf_chain *ch = &w->chain;
	const struct pft_elem *r = &out[k];

	switch (ch->state) {
	case CHAIN_CALLED:
		if (may_be_leaf(r))
			ch->state = CHAIN_CALLEE;
		else
			chain_after(ch, r);
		return k + 1;
	case CHAIN_CALLEE:
		if (r->start == ch->ret && is_call_run(r))
			/* A leaf call gone through, and a call after it. */
			chain_open(ch, r, func);
		else
			chain_after(ch, r);
		return k + 1;
	case CHAIN_OPEN:
		if (may_be_leaf(r)) {
			ch->callee = *r;
			ch->state = CHAIN_OPEN_CALLEE;
			return k;
		}
		k = chain_flush_before(ch, out, k);
		chain_after(ch, &out[k]);
		return k + 1;
	case CHAIN_OPEN_CALLEE:
		if (r->start == ch->ret && func == ch->func && chain_take(w, &ch->callee)) {
			if (is_call_run(r)) {
				ch->call = *r;
				ch->call_held = 1;
				chain_open(ch, r, func);
				return k;
			}
			/* The last call's return: the chain ends. */
			ch->state = CHAIN_OPEN;
			k = chain_flush_before(ch, out, k);
			chain_after(ch, &out[k]);
			return k + 1;
		}
		/* The callee's run goes through as it is; if @r returned
		 * to it, that was a leaf call: a chain may open again. */
		int leaf = r->start == ch->ret;
		k = chain_flush_before(ch, out, k);
		if (leaf && is_call_run(&out[k]))
			chain_open(ch, &out[k], func);
		else
			chain_after(ch, &out[k]);
		return k + 1;
	default:
		chain_after(ch, r);
		return k + 1;
	}
}

/* The run of @first (its first range) to @last, with @ninsn instructions,
 * @cycles cycles (@has_cycles) and @count ranges, at @out. */
static inline void put_run(struct pft_elem *out, const struct pft_elem *first,
			   const struct pft_elem *last, uint32_t ninsn, uint32_t cycles,
			   uint8_t has_cycles, uint32_t count)
{
	*out = *first;
	out->flags = PFT_ELEM_F_FOLDED;
	out->ts = count;
	out->ninsn = ninsn;
	out->cycles = cycles;
	out->has_cycles = has_cycles;
	out->end = last->end;
	out->last = last->last;
	out->taken = last->taken;
	out->iclass = last->iclass;
	out->isa = last->isa;
	out->space = last->space;
}

/* The run of @first to @last (put_run()) at out[@k]; in VFOLD_VIEWS (@mode
 * a constant) through the chain of leaf calls.  Returns the elements
 * written. */
static inline __attribute__((always_inline)) size_t
write_run(struct fold_worker *w, struct pft_elem *out, size_t k, const struct pft_elem *first,
	  const struct pft_elem *last, uint32_t ninsn, uint32_t cycles, uint8_t has_cycles,
	  uint32_t count, uint64_t func, const unsigned mode)
{
	put_run(&out[k], first, last, ninsn, cycles, has_cycles, count);
	return mode == VFOLD_VIEWS ? chain_run(w, out, k, func) : k + 1;
}

/*
 * The folds of runs (VFOLD_CALLS, VFOLD_VIEWS) and of counts
 * (VFOLD_COUNTS), @mode a constant.  A range joins the run when its
 * counts fit, it is of the run's function (VFOLD_VIEWS), and the run's
 * last range moves no frame followed by it: no taken branch that may move
 * the stack, or a jump that moves nothing (jump_moves_nothing()).  The run
 * is kept in locals (its first and last elements, in the input or the
 * worker's copy, and its sums) and copied to the worker at the end: kept
 * in the worker, each field was loaded and stored again for each range,
 * as the stores to @out might alias it.
 */
static inline __attribute__((always_inline)) int
fold_runs(struct fold_worker *w, const struct pft_elem *in, size_t n, struct pft_elem *out,
	  const unsigned mode)
{
	/* @first: NULL when no run is open. */
	const struct pft_elem *first = w->open ? &w->run : NULL, *last = &w->run;
	uint64_t func = w->run_func, folded = 0;
	/* A run's ranges have an instruction each at least. */
	uint32_t ninsn = w->run.ninsn, cycles = w->run.cycles, count = (uint32_t)w->run.ts;
	uint8_t has_cycles = w->run.has_cycles;
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		const struct pft_elem *e = &in[i];
		struct counted *c = NULL;
		uint64_t f = 0;

		if (e->type != PFT_ELEM_RANGE)
			goto pass;
		if (mode != VFOLD_CALLS) {
			if (!(c = counted_of(w, e)))
				goto pass;
			if (mode == VFOLD_COUNTS) {
				c->count++;
				folded++;
				continue;
			}
			if (!c->holds)
				goto pass;
			c->count++;
			f = c->func_key;
		} else if (!countable(e)) {
			goto pass;
		}
		if (first && f == func && e->ninsn < VRANGE_INSNS_MAX - ninsn &&
		    (!e->has_cycles || e->cycles <= UINT32_MAX - cycles) &&
		    (!last->taken || !calls_moves_stack(last->iclass) ||
		     jump_moves_nothing(w, last, e, c))) {
			ninsn += e->ninsn;
			count++;
			if (e->has_cycles) {
				cycles += e->cycles;
				has_cycles = 1;
			}
			last = e;
			folded++;
			continue;
		}
		if (first)
			k = write_run(w, out, k, first, last, ninsn, cycles, has_cycles, count, func,
				      mode);
		first = last = e;
		ninsn = e->ninsn;
		cycles = e->has_cycles ? e->cycles : 0;
		has_cycles = e->has_cycles;
		count = 1;
		func = f;
		continue;
pass:
		if (first)
			k = write_run(w, out, k, first, last, ninsn, cycles, has_cycles, count, func,
				      mode);
		first = NULL;
		if (mode == VFOLD_VIEWS)
			k = chain_flush(&w->chain, out, k);   /* no run: the chain ends */
		out[k++] = *e;
	}
	if (first && last != &w->run)
		put_run(&w->run, first, last, ninsn, cycles, has_cycles, count);
	w->run_func = func;
	w->open = first != NULL;
	w->folded += folded;
	return (int)k;
}

static int fold_elems(void *worker, const struct pft_elem *in, size_t n, struct pft_elem *out)
{
	struct fold_worker *w = worker;

	switch (w->f->mode) {
	case VFOLD_ENTRIES:
		return fold_entries(w, in, n, out);
	case VFOLD_CALLS:
		return fold_runs(w, in, n, out, VFOLD_CALLS);
	case VFOLD_VIEWS:
		return fold_runs(w, in, n, out, VFOLD_VIEWS);
	default:
		return fold_runs(w, in, n, out, VFOLD_COUNTS);
	}
}

static int fold_full(void *worker)
{
	const struct fold_worker *w = worker;

	return w->ncounted >= TABLE_FULL * 3 / 4 || w->ntargets >= TARGETS_FULL * 3 / 4;
}

static uint64_t fold_folded(const void *worker)
{
	return ((const struct fold_worker *)worker)->folded;
}

static size_t fold_close(void *worker, struct pft_elem *out, size_t room)
{
	struct fold_worker *w = worker;
	size_t k = 0;

	if (w->open && room) {
		out[k] = w->run;
		k = w->f->mode == VFOLD_VIEWS ? chain_run(w, out, k, w->run_func) : k + 1;
		w->open = 0;
	}
	if (w->f->mode == VFOLD_VIEWS)
		k = chain_flush(&w->chain, out, k);
	if (w->seg && room - k >= PFT_FOLD_EXTRA)
		k += end_seg(w, out + k);
	for (; w->table && w->emitted < TABLE_SIZE && k < room; w->emitted++) {
		struct counted *c = &w->table[w->emitted];
		if (!c->key)
			continue;
		c->key = 0;
		uint32_t ninsn = c->ninsn;
		c->ninsn = 0;   /* no range's, for the memo */
		if (!c->count)   /* looked up, never folded */
			continue;
		uint8_t b[4];   /* range_shape()'s: isa, taken, iclass, space */
		memcpy(b, &c->shape, sizeof(b));
		out[k++] = (struct pft_elem){ .type = PFT_ELEM_RANGE_COUNT, .ts = c->count,
					      .start = c->start, .last = c->last,
					      .ninsn = ninsn, .isa = b[0], .taken = b[1] != 0,
					      .space = b[3],
					      .flags = c->eflags & (PFT_ELEM_F_CONDS | PFT_ELEM_F_FAILED) };
	}
	for (; w->targets && w->emitted == TABLE_SIZE && w->targets_emitted < TARGETS_SIZE &&
	       k < room; w->targets_emitted++) {
		struct target_count *t = &w->targets[w->targets_emitted];
		if (!t->count)
			continue;
		out[k++] = (struct pft_elem){ .type = PFT_ELEM_ENTRY_COUNT, .ts = t->count,
					      .addr = t->target, .taken = t->tail };
		t->count = 0;
	}
	if ((!w->table || w->emitted == TABLE_SIZE) &&
	    (!w->targets || w->targets_emitted == TARGETS_SIZE)) {
		w->emitted = 0;
		w->ncounted = 0;
		w->targets_emitted = 0;
		w->ntargets = 0;
		memset(w->memo, 0, sizeof(w->memo));
	}
	return k;
}

static const struct pft_fold_ops fold_ops = {
	.worker_alloc = fold_worker_alloc,
	.worker_free = fold_worker_free,
	.fold = fold_elems,
	.full = fold_full,
	.folded = fold_folded,
	.close = fold_close,
};

/* *@slot (its consumer's, freed with it), made or remade: @image is what
 * the consumer reads the source's code from.  NULL: out of memory. */
static const struct pft_fold *make_fold(struct vfold **slot, unsigned mode,
					 const struct pft_image *image, unsigned image_index,
					 const struct pft_lines *lines, uint32_t max_depth)
{
	struct vfold *f = *slot ? *slot : malloc(sizeof(*f));

	if (!f)
		return NULL;
	*f = (struct vfold){ .fold = { .ops = &fold_ops, .ctx = f }, .mode = (uint8_t)mode,
			     .image_index = (uint8_t)image_index, .image = image,
			     .lines = mode == VFOLD_VIEWS ? lines : NULL, .max_depth = max_depth };
	*slot = f;
	return &f->fold;
}

const struct pft_fold *pft_calls_fold(struct pft_calls *c)
{
	return c ? make_fold(&c->fold, VFOLD_CALLS, c->image, 0, NULL, 0) : NULL;
}

const struct pft_fold *pft_views_fold(struct pft_views *v, unsigned source)
{
	unsigned image;

	if (!v || source >= 128 || v->finished || pft_views_source_image(v, source, &image))
		return NULL;
	return make_fold(&v->fold, v->insns_only ? VFOLD_COUNTS
				   : v->no_contexts ? VFOLD_ENTRIES : VFOLD_VIEWS,
			 v->images[image], image, v->lines, v->max_depth);
}
