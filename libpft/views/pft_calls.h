/* pft_calls.h - the calls tracker as the views accumulator
 * (pft_views.c) drives it: without the public functions' checks (done
 * once per run by the caller), without copying each event, and with the
 * views' look at each range in the tracker's own loop over the run. */
#ifndef PFT_CALLS_INT_H
#define PFT_CALLS_INT_H

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
	uint8_t profile;        /* of @number: enum pft_profile */
};

/* A multiset of 32-bit values: open addressing, linear probing, a slot
 * is empty when its count is 0. */
struct count_set {
	uint32_t *keys, *counts;
	size_t cap, n;
};

/*
 * Bounds (issue 12): the stack holds at most max_depth + 1 frames (push()
 * forgets the oldest call frame beyond that) in at most 4 (max_depth + 1)
 * slots, and each event costs O(1) amortized whatever the depth:
 *  - forgetting the oldest frame moves a base index, and the frames are
 *    moved down only when the base has passed their number (push());
 *  - the searches of the stack (a return to a frame's return address, a
 *    longjmp into a frame's function, an exception return) look at the
 *    at most UNINDEXED_MAX top frames, and below them run only when
 *    @rets, @funcs or @exceptions say they will find their frame, which
 *    is then popped: a search costs no more than the pops it makes;
 *  - a frame enters the sets once, when UNINDEXED_MAX frames are pushed
 *    above it, and leaves them when popped.
 * The event queue holds one put's events: at most max_depth + 2.
 */

/* A function looked up by address (calls and jumps go to the same few
 * targets over and over): direct-mapped by address. */
struct symbol_cache {
	uint32_t addr, start, end;
	uint8_t valid, found;
};

enum { SYMBOL_CACHE_SIZE = 256 };

/* Whether a call ends at an address (pft_calls_call_ends_at()), looked up
 * lately: indirect jumps go to the same few places. */
struct call_end_cache {
	uint32_t addr;
	uint8_t valid, call_ends;
};

enum { CALL_END_CACHE_SIZE = 256 };

/* The top frames kept out of the sets: calls and returns near the top
 * (nearly all of them) then cost no hash set work.  Their return
 * addresses are counted by a hash of 6 bits, so that a search for an
 * address none of them has (an indirect jump) does not look at them. */
enum { UNINDEXED_MAX = 8, UNINDEXED_HASH_BITS = 6 };

struct pft_calls {
	struct pft_image *image;
	struct symbol_cache symbols[SYMBOL_CACHE_SIZE];
	struct call_end_cache call_ends[CALL_END_CACHE_SIZE];
	uint32_t max_depth;
	/* Frame k (0: the outermost function) is frames[base + k]. */
	struct frame *frames;
	size_t nframes, cap_frames, base;
	/* Frames 0 .. indexed - 1 are in the sets, at most UNINDEXED_MAX
	 * above them are not. */
	size_t indexed;
	uint8_t unindexed_rets[1 << UNINDEXED_HASH_BITS];  /* of frames 1 .. above indexed */
	struct count_set rets;    /* return addresses of indexed call frames 1 .. */
	struct count_set exc_rets; /* ... and of indexed exception frames */
	struct count_set funcs;   /* functions (known extent) of indexed frames */
	size_t exceptions;        /* frames pushed by exceptions */
	struct pft_call_event *queue;
	size_t nqueue, head, cap_queue;
	struct pending_branch pend;
	struct pending_exception pexc;
	uint8_t gap, started, finished, last_exc_return;
	/* Started, no gap, no exception pending: a range settles at most a
	 * branch (calls_put_until_events()). */
	uint8_t quiet;
	uint64_t insns, cycles, ts;
	uint8_t has_cycles, has_ts;
	struct vfold *fold;       /* pft_calls_fold() (pft_views_fold.c) */
	/* pft_calls_apply_fold(): the counters where the worker's seed was,
	 * from its first element to its CALLS_STATE (@fold_open). */
	uint64_t fold_insns, fold_cycles;
	uint8_t fold_open;
};

/* Element @i of a run whose elements are @size bytes apart. */
static inline const struct pft_elem *pft_elem_at(const struct pft_elem *e, size_t i, size_t size)
{
	return (const struct pft_elem *)(const void *)((const char *)e + i * size);
}

static inline struct frame *calls_frame_at(const struct pft_calls *c, size_t k)
{
	return &c->frames[c->base + k];
}

static inline int frame_contains(const struct frame *f, uint32_t addr)
{
	return f->func_end && f->func <= addr && addr < f->func_end;
}

static inline int calls_moves_stack(unsigned iclass)
{
	switch (iclass) {
	case PFT_ICLASS_CALL:
	case PFT_ICLASS_INDIRECT_CALL:
	case PFT_ICLASS_RETURN:
	case PFT_ICLASS_JUMP:
	case PFT_ICLASS_INDIRECT_JUMP:
	case PFT_ICLASS_EXC_RETURN:
		return 1;
	default:
		return 0;
	}
}

/* Whether an event of @kind enters a function (pft_views.c counts the
 * entries of those into a function's first instruction). */
static inline int calls_enters(unsigned kind)
{
	return kind == PFT_CALL_CALL || kind == PFT_CALL_EXCEPTION || kind == PFT_CALL_TAIL_CALL;
}

/* Range @e's instructions and cycles; a taken branch that may move the
 * stack waits in @pend for its destination. */
static inline void calls_add_range(struct pft_calls *c, const struct pft_elem *e)
{
	c->insns += e->ninsn;
	if (e->has_cycles) {
		c->cycles += e->cycles;
		c->has_cycles = 1;
	}
	c->last_exc_return = 0;
	if (e->taken && calls_moves_stack(e->iclass)) {
		c->pend = (struct pending_branch){ .active = 1, .iclass = e->iclass,
						   .isa = e->isa, .space = e->space, .in_range = 1,
						   .site = e->last, .ret = e->end };
		c->last_exc_return = e->iclass == PFT_ICLASS_EXC_RETURN;
	}
}

/* Before a put or finish: not finished, the last events taken; the
 * queue starts empty. */
static inline int calls_start_input(struct pft_calls *c)
{
	if (c->finished)
		return -PFT_ERR_EOS;
	if (c->head < c->nqueue)
		return -PFT_ERR_INVALID;
	c->head = c->nqueue = 0;
	return 0;
}

/* Whether the pending branch is a direct jump to @target inside the top
 * frame's function: no tail call (as tail_call() decides first). */
static inline int calls_loop_jump(const struct pft_calls *c, uint32_t target)
{
	const struct frame *top = calls_frame_at(c, c->nframes - 1);

	return c->pend.iclass == PFT_ICLASS_JUMP && (target == top->func || frame_contains(top, target));
}

/* A range while quiet, after a branch that is no loop's jump: the
 * branch settled (its events queued), then the range added. */
int pft_calls_settle_range(struct pft_calls *c, const struct pft_elem *e);

/* A worker's range @e while quiet, after a jump (direct or indirect) with
 * frames of its own above frame 0 (pft_calls_seed()): 1 with the jump
 * settled and the range added, as pft_calls_settle_range() would; 0 when
 * only the frames before the worker's start can settle it (an indirect
 * jump to where a call ends, but no frame of its own returns:
 * pft_calls_fold_kind()'s CALLS_HANDOVER); or an error. */
int pft_calls_settle_jump(struct pft_calls *c, const struct pft_elem *e);

/* Whether range @x, taken while quiet with a call pending, is a leaf
 * call's whole callee: it returns, and range @next starts where the call
 * returns to, so that the frame the call pushes is the one the return
 * pops, and the push forgets no frame (push_frame(); what it and the pop
 * do to the frames' index and base leaves the stack as it was). */
static inline int calls_leaf_call(const struct pft_calls *c, const struct pft_elem *x,
				  const struct pft_elem *next)
{
	return (c->pend.iclass == PFT_ICLASS_CALL || c->pend.iclass == PFT_ICLASS_INDIRECT_CALL) &&
	       x->taken && (x->iclass == PFT_ICLASS_RETURN || x->iclass == PFT_ICLASS_INDIRECT_JUMP) &&
	       x->start && next->type == PFT_ELEM_RANGE && next->start == c->pend.ret &&
	       c->nframes - 1 < c->max_depth;
}

/* Such a call (calls_leaf_call()) taken at once: range @x added, the
 * events the pending call and @x's return would queue in @ev (CALL, then
 * RETURN), field by field the same, and no frame pushed and popped. */
void pft_calls_leaf_call(struct pft_calls *c, const struct pft_elem *x, const struct pft_elem *next,
			 struct pft_call_event ev[2]);

/*
 * A LEAF_CALLS element (pft_views_fold.c writes them, pft_views.c takes
 * them): @ninsn calls from the call at @last into @start that returned
 * at once (calls_leaf_call()), in a chain of them that follows a call;
 * their callee's instructions (@offset) and cycles (@ts, with
 * @has_cycles), and the shortest and longest call in instructions
 * (@addr, @ctxid) and in cycles (@end, @cycles).
 *
 * pft_calls_take_leaf_calls(): what such calls do to the tracker, at
 * once: their instructions and cycles added, the call they follow
 * settled, no frame pushed or popped.  -PFT_ERR_INVALID where they cannot
 * be: not quiet, the stack at its limit, or a branch other than such a
 * call pending.
 */
int pft_calls_take_leaf_calls(struct pft_calls *c, const struct pft_elem *e);

/* One element that is not a quiet range (calls_put_until_events()),
 * checked: its events are queued. */
int pft_calls_put_one(struct pft_calls *c, const struct pft_elem *e);

/* What calls_put_elems() gives its caller as it goes (NULL members:
 * nothing; constants, so that they are inlined): each range taken but one
 * that stops the put, after the tracker (a range that moves no frame sees
 * the stack as it is); each exception with cycles (those of what ran
 * before it) the same way; and, instead of queueing their events and
 * stopping, each leaf call with its callee's range (pft_calls_leaf_call():
 * the CALL event, the range, the RETURN event, in that order).  A
 * non-zero return ends the put with it. */
struct calls_put_ops {
	int (*on_range)(void *ctx, const struct pft_elem *x);
	int (*on_cycles)(void *ctx, const struct pft_elem *x);
	int (*on_leaf)(void *ctx, const struct pft_call_event ev[2], const struct pft_elem *x);
};

/*
 * pft_calls_put_run() with its arguments checked (non-NULL, @n from 1 to
 * INT32_MAX, @size large enough): with @stop_at_events (a constant) the
 * elements up to the first that makes events, else all of them, the
 * events of all queued (pft_calls_put_all()).  Returns how many it took
 * (at a stop, the last made the events queued) or a negative code.
 * @ops (NULL: none) with @ctx: struct calls_put_ops.
 */
static inline __attribute__((always_inline)) int
calls_put_elems(struct pft_calls *c, const struct pft_elem *e, size_t n, size_t size,
		int stop_at_events, const struct calls_put_ops *ops, void *ctx)
{
	int (*on_range)(void *, const struct pft_elem *) = ops ? ops->on_range : NULL;
	int (*on_cycles)(void *, const struct pft_elem *) = ops ? ops->on_cycles : NULL;
	int (*on_leaf)(void *, const struct pft_call_event *, const struct pft_elem *) =
		ops ? ops->on_leaf : NULL;

	int err = calls_start_input(c);

	if (err)
		return err;
	for (size_t i = 0; i < n; i++) {
		const struct pft_elem *x = pft_elem_at(e, i, size);
		/* Most ranges follow one that moved no frame, or a loop's jump
		 * within the function: they only add up; the others settle the
		 * branch before them first. */
		if (x->type == PFT_ELEM_RANGE && c->quiet) {
			if (!c->pend.active || calls_loop_jump(c, x->start)) {
				c->pend.active = 0;
				calls_add_range(c, x);
			} else if (on_leaf && i + 1 < n &&
				   calls_leaf_call(c, x, pft_elem_at(e, i + 1, size))) {
				struct pft_call_event ev[2];
				pft_calls_leaf_call(c, x, pft_elem_at(e, i + 1, size), ev);
				if ((err = on_leaf(ctx, ev, x)) != 0)
					return err;
				continue;
			} else {
				err = pft_calls_settle_range(c, x);
				if (err)
					return err;
				if (stop_at_events && c->nqueue)
					return (int)(i + 1);
			}
			if (on_range && (err = on_range(ctx, x)) != 0)
				return err;
			continue;
		}
		/* An element of unknown type ends the run before it. */
		if (x->type >= PFT_ELEM_TYPE_MAX)
			return i ? (int)i : -PFT_ERR_INVALID;
		err = pft_calls_put_one(c, x);
		if (err)
			return err;
		if (stop_at_events && c->nqueue)
			return (int)(i + 1);
		if (on_range && x->type == PFT_ELEM_RANGE && (err = on_range(ctx, x)) != 0)
			return err;
		if (on_cycles && x->type == PFT_ELEM_EXCEPTION && x->has_cycles &&
		    (err = on_cycles(ctx, x)) != 0)
			return err;
	}
	return (int)n;
}

/* calls_put_elems(), up to the first element that makes events. */
static inline __attribute__((always_inline)) int
calls_put_until_events(struct pft_calls *c, const struct pft_elem *e, size_t n, size_t size,
		       const struct calls_put_ops *ops, void *ctx)
{
	return calls_put_elems(c, e, n, size, 1, ops, ctx);
}

int pft_calls_put_checked(struct pft_calls *c, const struct pft_elem *e, size_t n,
			  size_t size);

/*
 * The stack run in the parallel decode's workers (pft_calls.c says how).
 *
 * pft_calls_seed(): @c (a worker's) starts after range @e with a frame 0
 * that stands for frames it does not know, and counts from 0.
 * pft_calls_fold_kind(): what element @e's effect on such a tracker
 * depends on, with at most @depth_max frames (less than max_depth) above
 * its frame 0: enum calls_fold_kind.
 * pft_calls_fold_branch(): for a CALLS_BASE element @e, the branch it
 * settles as a CALLS_BRANCH element at @out; the worker then takes @e
 * without it.
 * pft_calls_fold_state(): what the elements taken since the seed did to
 * the stack, at @out: a CALLS_STATE element and a CALLS_FRAME element per
 * frame above frame 0 (at most @depth_max); returns how many.  @peak: the
 * most frames above frame 0 since the last CALLS_BRANCH.
 * pft_calls_apply_fold(): one of them, taken by the tracker that took
 * the seed's range, in their order (a CALLS_BRANCH may queue events).
 */
enum calls_fold_kind { CALLS_HANDOVER, CALLS_LOCAL, CALLS_BASE };

int pft_calls_fold_kind(struct pft_calls *c, const struct pft_elem *e, size_t depth_max);
/* pft_calls_leaf_call() with the two events queued. */
int pft_calls_queue_leaf_call(struct pft_calls *c, const struct pft_elem *x,
			      const struct pft_elem *next);
/* Whether @addr is a function's first instruction to the tracker (a
 * symbol's start): a jump there may be a tail call. */
int pft_calls_is_entry(struct pft_calls *c, uint32_t addr);
/* Whether a call instruction of @image (NULL: any image) may end at
 * @addr, in any instruction set and memory space: only then may a call
 * frame return there.  An indirect jump to an address where none ends
 * returns to no frame (exception frames are left by exception returns)
 * and moves no frame unless it enters a function (tail_call()), whatever
 * the stack: the folds take it as a jump within the function. */
int pft_calls_call_ends_at(struct pft_image *image, uint32_t addr);
void pft_calls_seed(struct pft_calls *c, const struct pft_elem *e);
void pft_calls_fold_branch(struct pft_calls *c, unsigned peak, const struct pft_elem *e,
			   struct pft_elem *out);
size_t pft_calls_fold_state(const struct pft_calls *c, unsigned peak, struct pft_elem *out);
int pft_calls_apply_fold(struct pft_calls *c, const struct pft_elem *e);

/* The frames a worker's tracker (pft_calls_seed()) may hold above its
 * frame 0, under stack limit @max_depth: at most CALLS_SEEDED_DEPTH_MAX,
 * so that what it did to the stack (pft_calls_fold_state(): a frame an
 * element) stays small. */
enum { CALLS_SEEDED_DEPTH_MAX = 64 };

static inline size_t calls_seeded_depth_max(uint32_t max_depth)
{
	size_t limit = max_depth - 1;

	return limit < CALLS_SEEDED_DEPTH_MAX ? limit : CALLS_SEEDED_DEPTH_MAX;
}

/*
 * A worker's tracker (pft_calls_seed()) takes element @e, if it can
 * without the frames before its start (pft_calls_fold_kind(), at most
 * @depth_max frames above frame 0: calls_seeded_depth_max()): returns 1
 * (taken, its events queued) or 0 (to be handed over), or a negative
 * code.  A branch only those frames settle goes first to *@branch (a
 * CALLS_BRANCH element, *@nbranch counted).  *@peak: the most frames held
 * above frame 0 since the last such branch.  @next: the element after @e,
 * if at hand (a leaf call is then taken at once).  The events go on the
 * queue after those there.
 */
static inline int calls_seeded_take(struct pft_calls *c, const struct pft_elem *e,
				    const struct pft_elem *next, size_t depth_max, unsigned *peak,
				    struct pft_elem *branch, size_t *nbranch)
{
	int range = e->type == PFT_ELEM_RANGE, err;

	/* Most ranges follow one that moved no frame, or a loop's jump in a
	 * function the worker saw called, or (in the frames before) a jump
	 * to no function's entry: they only add up (calls_put_until_events(),
	 * tail_call()). */
	if (range && c->quiet &&
	    (!c->pend.active ||
	     (c->nframes > 1 ? calls_loop_jump(c, e->start)
			     : c->pend.iclass == PFT_ICLASS_JUMP && !pft_calls_is_entry(c, e->start)))) {
		c->pend.active = 0;
		calls_add_range(c, e);
		return 1;
	}
	if (range && c->quiet && next && c->nframes <= depth_max && calls_leaf_call(c, e, next)) {
		/* As the call's push and the return's pop, which move only its
		 * own frame, would: the frame it held in the peak. */
		if ((err = pft_calls_queue_leaf_call(c, e, next)) != 0)
			return err;
		if (c->nframes > *peak)
			*peak = (unsigned)c->nframes;
		return 1;
	}
	const struct pending_branch *p = &c->pend;
	/* Jumps with frames of the worker's own: what pft_calls_fold_kind()
	 * finds and their settling, in one. */
	if (range && c->quiet && p->active && c->nframes > 1 &&
	    (p->iclass == PFT_ICLASS_JUMP || p->iclass == PFT_ICLASS_INDIRECT_JUMP))
		return pft_calls_settle_jump(c, e);
	/* What pft_calls_fold_kind() finds, at once where it is plain: a
	 * call with room above, a return to the top frame. */
	int call = p->iclass == PFT_ICLASS_CALL || p->iclass == PFT_ICLASS_INDIRECT_CALL;
	int kind = range && c->quiet && p->active &&
		   (call ? c->nframes <= depth_max
			 : p->iclass == PFT_ICLASS_RETURN && c->nframes > 1 &&
			   calls_frame_at(c, c->nframes - 1)->ret == e->start)
		   ? CALLS_LOCAL : pft_calls_fold_kind(c, e, depth_max);
	if (kind == CALLS_HANDOVER)
		return 0;
	if (kind == CALLS_BASE) {
		pft_calls_fold_branch(c, *peak, e, &branch[(*nbranch)++]);
		*peak = 0;
	}
	if ((err = range && c->quiet ? pft_calls_settle_range(c, e) : pft_calls_put_one(c, e)) != 0)
		return err;
	if (c->nframes - 1 > *peak)
		*peak = (unsigned)(c->nframes - 1);
	return 1;
}

/* The next event, valid until the next put or finish; NULL when all
 * are taken. */
static inline const struct pft_call_event *pft_calls_take(struct pft_calls *c)
{
	return c->head < c->nqueue ? &c->queue[c->head++] : NULL;
}

/* Whether events wait to be taken. */
static inline int pft_calls_pending(const struct pft_calls *c)
{
	return c->head < c->nqueue;
}

#endif
