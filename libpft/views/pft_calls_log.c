/*
 * A piece's calls made without the stack at its start (pft_calls_log.h).
 *
 * The worker's tracker starts after a range it leaves to the tracker that
 * has the whole stack (pft_calls_seed(): its frame 0 stands for that
 * tracker's frames) and takes what moves only its own frames
 * (calls_seeded_take()), as the views' fold without calling contexts
 * does.  Its events differ from the whole tracker's only in what frame 0
 * stands for: their depth counts from it, the function of frame 0 is
 * unknown (0) where an event names it as the caller (a call, or an
 * exception, into depth 1; a return to depth 0), and the counters start
 * at 0, the timestamp unknown.  What it cannot take goes to the log as
 * items, in order: the ranges it hands over (it starts again after each),
 * the branches only the frames before settle (CALLS_BRANCH), and what it
 * did to the stack before it stopped (CALLS_STATE, CALLS_FRAME).
 *
 * The stitch gives the whole tracker the items alone, as the views'
 * reading thread does: it then stands where it would after the piece.  At
 * each range the worker started after and each branch, it notes what the
 * worker's frame 0 stands for from there: the depth, the top frame's
 * function and (at a start) the counters.  Its own events are kept.  The
 * replay puts the worker's events on those, in their order with the
 * tracker's.  Where the stack is at its limit, the whole tracker forgets
 * its oldest frames as the worker's calls go deeper than it had room for:
 * the depth of an event is then that many less, as in the tracker, which
 * forgets the same frames when it takes the worker's state.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "pft.h"
#include "common/pft_grow.h"
#include "views/pft_calls.h"
#include "views/pft_calls_log.h"

/* What the worker's frame 0 stands for, from an item on. */
struct log_base {
	uint64_t insns, cycles, ts;
	uint32_t depth, top;
	uint8_t has_cycles, has_ts;
};

struct log_item {
	struct pft_elem e;         /* handed over, or a CALLS_* element */
	size_t local_before;       /* the worker's events made before it */
	size_t real_start, real_end;   /* the stitch: the tracker's events of it */
	struct log_base base;      /* the stitch: where the worker's events after it stand */
	uint8_t seeds;             /* a range the worker started after */
};

struct calls_log {
	/* The worker's events, a leaf call's two as one (pack_pair()): the
	 * queue of the worker's tracker while it puts.  Each kept in fewer
	 * bytes, they cost more to make whole again than their memory did. */
	struct pft_call_event *ev;
	size_t nev, cap_ev;
	size_t npairs;             /* of them, leaf calls kept as one (pack_pair()) */
	uint32_t max_depth;        /* the worker's tracker's stack limit */
	int seg;                   /* the worker's tracker runs */
	int err;                   /* of pft_calls_log_end() */
	uint64_t seg_elems;        /* ... and has taken this many */
	unsigned peak;             /* calls_seeded_take() */
	struct log_item *items;
	size_t nitems, cap_items;
	struct pft_call_event *real;   /* the stitch's */
	size_t nreal, cap_real;
	size_t size;               /* full at this many events and items (0: never) */
};

enum { LOG_SLACK = 4 * CALLS_SEEDED_DEPTH_MAX };

struct calls_log *pft_calls_log_alloc(size_t size)
{
	struct calls_log *l = calloc(1, sizeof(*l));

	if (!l || !size)
		return l;
	/* What one element adds past the size: the events of a return
	 * through every frame, or a stack's state. */
	l->cap_ev = size + LOG_SLACK;
	if (!(l->ev = malloc(l->cap_ev * sizeof(*l->ev)))) {
		free(l);
		return NULL;
	}
	l->size = size;
	return l;
}

void pft_calls_log_free(struct calls_log *l)
{
	if (!l)
		return;
	free(l->ev);
	free(l->items);
	free(l->real);
	free(l);
}

void pft_calls_log_reset(struct calls_log *l)
{
	l->seg = 0;
	l->err = 0;
	l->nev = l->npairs = l->nitems = l->nreal = 0;
}

/*
 * A leaf call's two events (a CALL, then the RETURN to the depth below
 * with the same callee and caller, its entry at the CALL, the timestamp
 * the same, no flags), kept in the CALL's place: most calls are such,
 * and the log's memory, which the worker writes and the replay reads back
 * later, is then a third smaller.  What the RETURN adds goes in the
 * CALL's fields that a CALL leaves 0: its site and target in entry_insns,
 * its instructions and cycles since the CALL in profile and reserved
 * (4 bytes) and exception (the cycles: at most 0xffff), whether it has
 * cycles in a flag.
 */
enum { PAIR = 1 << 7, PAIR_CYCLES = 1 << 6 };

_Static_assert(offsetof(struct pft_call_event, reserved) ==
	       offsetof(struct pft_call_event, profile) + 1 &&
	       sizeof(((struct pft_call_event *)0)->reserved) >= 3,
	       "profile and reserved hold 4 bytes");

/* Whether events @c and @r are a leaf call's, kept as one. */
static int pairs(const struct pft_call_event *c, const struct pft_call_event *r)
{
	return c->kind == PFT_CALL_CALL && r->kind == PFT_CALL_RETURN && !c->flags && !r->flags &&
	       !c->exception && !c->profile && !c->entry_insns && c->depth == r->depth + 1 &&
	       c->callee == r->callee && c->caller == r->caller && r->entry_insns == c->insns &&
	       r->insns - c->insns <= UINT32_MAX && r->cycles - c->cycles <= 0xffff &&
	       r->ts == c->ts && r->has_ts == c->has_ts && r->has_cycles >= c->has_cycles;
}

/* Return @r kept in call @c's place. */
static void pack_pair(struct pft_call_event *c, const struct pft_call_event *r)
{
	uint32_t insns = (uint32_t)(r->insns - c->insns);

	c->entry_insns = r->site | (uint64_t)r->target << 32;
	memcpy(&c->profile, &insns, sizeof(insns));
	c->exception = (uint16_t)(r->cycles - c->cycles);
	c->flags = (uint8_t)(PAIR | (r->has_cycles ? PAIR_CYCLES : 0));
}

/* Kept call @p, as the two events it holds. */
static void unpack_pair(const struct pft_call_event *p, struct pft_call_event out[2])
{
	uint32_t insns;

	memcpy(&insns, &p->profile, sizeof(insns));
	out[0] = *p;
	out[0].flags = 0;
	out[0].exception = 0;
	out[0].entry_insns = 0;
	out[0].profile = 0;
	memset(out[0].reserved, 0, sizeof(out[0].reserved));
	out[1] = out[0];
	out[1].kind = PFT_CALL_RETURN;
	out[1].depth = p->depth - 1;
	out[1].site = (uint32_t)p->entry_insns;
	out[1].target = (uint32_t)(p->entry_insns >> 32);
	out[1].insns = p->insns + insns;
	out[1].cycles = p->cycles + p->exception;
	out[1].entry_insns = p->insns;
	out[1].has_cycles = (p->flags & PAIR_CYCLES) != 0;
}

/* Item @e, after the worker's first @made events. */
static struct log_item *add_item(struct calls_log *l, const struct pft_elem *e, size_t made)
{
	if (l->nitems == l->cap_items &&
	    pft_grow((void **)&l->items, &l->cap_items, l->nitems + 1, sizeof(*l->items)))
		return NULL;
	struct log_item *it = &l->items[l->nitems++];
	*it = (struct log_item){ .e = *e, .local_before = made };
	return it;
}

/* The events queued in tracker @c, taken to the end of @ev. */
static int take_events(struct pft_calls *c, struct pft_call_event **ev, size_t *n, size_t *cap)
{
	const struct pft_call_event *x;

	while ((x = pft_calls_take(c))) {
		if (*n == *cap && pft_grow((void **)ev, cap, *n + 1, sizeof(**ev)))
			return -PFT_ERR_NOMEM;
		(*ev)[(*n)++] = *x;
	}
	return 0;
}

/* Worker's tracker @w stops: what it did to the stack, as items after
 * the @made events. */
static int end_seg(struct calls_log *l, const struct pft_calls *w, size_t made)
{
	struct pft_elem state[CALLS_SEEDED_DEPTH_MAX + 2];

	if (l->seg && l->seg_elems) {
		size_t n = pft_calls_fold_state(w, l->peak, state);
		for (size_t i = 0; i < n; i++)
			if (!add_item(l, &state[i], made))
				return -PFT_ERR_NOMEM;
	}
	l->seg = 0;
	return 0;
}

int pft_calls_log_end(struct calls_log *l, const struct pft_calls *w)
{
	int err = end_seg(l, w, l->nev);

	if (err && !l->err)
		l->err = err;
	return l->err;
}

/* The events at which log @l is full, with the items it holds. */
static size_t full_at(const struct calls_log *l)
{
	return !l->size ? SIZE_MAX : l->nitems < l->size ? l->size - l->nitems : 0;
}

/* The elements at @e (pft_calls_log_put()), the log's events on @w's
 * queue. */
static int put_elems(struct calls_log *l, struct pft_calls *w, const struct pft_elem *e, size_t n)
{
	const size_t dmax = calls_seeded_depth_max(w->max_depth);
	size_t full = full_at(l);   /* kept: it changes only with the items */
	int err;

	for (size_t i = 0; i < n; i++) {
		const struct pft_elem *x = &e[i];
		if (x->type == PFT_ELEM_ERROR || w->nqueue >= full)
			return (int)i;
		if (l->seg) {
			struct pft_elem branch;
			size_t nbranch = 0, before = w->nqueue;
			int took = calls_seeded_take(w, x, i + 1 < n ? &e[i + 1] : NULL, dmax,
						     &l->peak, &branch, &nbranch);
			if (took < 0)
				return took;
			if (took) {
				/* The branch came before the element's events. */
				if (nbranch) {
					if (!add_item(l, &branch, before))
						return -PFT_ERR_NOMEM;
					full = full_at(l);
				}
				if (w->nqueue == before + 2 &&
				    pairs(&w->queue[before], &w->queue[before + 1])) {
					pack_pair(&w->queue[before], &w->queue[before + 1]);
					w->head = w->nqueue = before + 1;
					l->npairs++;
				}
				l->seg_elems++;
				continue;
			}
			if ((err = end_seg(l, w, w->nqueue)) != 0)
				return err;
		}
		struct log_item *it = add_item(l, x, w->nqueue);
		if (!it)
			return -PFT_ERR_NOMEM;
		full = full_at(l);
		if (x->type == PFT_ELEM_RANGE) {
			/* The seed empties the queue. */
			size_t kept = w->nqueue;
			pft_calls_seed(w, x);
			w->head = w->nqueue = kept;
			it->seeds = 1;
			l->seg = 1;
			l->seg_elems = 0;
			l->peak = 0;
		}
	}
	return (int)n;
}

int pft_calls_log_put(struct calls_log *l, struct pft_calls *w, const struct pft_elem *e,
		      size_t n)
{
	/* The log's events take the place of the queue's. */
	struct pft_call_event *queue = w->queue;
	size_t cap = w->cap_queue;

	w->queue = l->ev;
	w->cap_queue = l->cap_ev;
	w->head = w->nqueue = l->nev;
	l->max_depth = w->max_depth;
	int took = put_elems(l, w, e, n);
	l->ev = w->queue;
	l->cap_ev = w->cap_queue;
	l->nev = w->nqueue;
	w->queue = queue;
	w->cap_queue = cap;
	w->head = w->nqueue = 0;
	return took;
}

int pft_calls_log_stitch(struct calls_log *l, struct pft_calls *c)
{
	struct log_base base = { 0 };
	int err = l->seg ? -PFT_ERR_INVALID : l->err;

	for (size_t i = 0; !err && i < l->nitems; i++) {
		struct log_item *it = &l->items[i];
		int type = it->e.type;
		it->real_start = l->nreal;
		if (type == PFT_ELEM_CALLS_BRANCH || type == PFT_ELEM_CALLS_STATE ||
		    type == PFT_ELEM_CALLS_FRAME) {
			err = pft_calls_apply_fold(c, &it->e);
		} else {
			int took = pft_calls_put_all(c, &it->e, 1, sizeof(it->e));
			err = took < 0 ? took : 0;
		}
		if (!err)
			err = take_events(c, &l->real, &l->nreal, &l->cap_real);
		it->real_end = l->nreal;
		if (it->seeds)
			base = (struct log_base){ .insns = c->insns, .cycles = c->cycles, .ts = c->ts,
						  .has_cycles = c->has_cycles, .has_ts = c->has_ts };
		if (it->seeds || type == PFT_ELEM_CALLS_BRANCH) {
			base.depth = (uint32_t)(c->nframes - 1);
			base.top = calls_frame_at(c, c->nframes - 1)->func;
		}
		it->base = base;
	}
	return err;
}

size_t pft_calls_log_made(const struct calls_log *l)
{
	return l->nev + l->npairs;
}

int pft_calls_log_full(const struct calls_log *l)
{
	return l->nev >= full_at(l);
}

/* Whether worker's event @ev names the function of its frame 0 as the
 * caller (or the function returned to). */
static int names_frame0(const struct pft_call_event *ev)
{
	switch (ev->kind) {
	case PFT_CALL_CALL:
	case PFT_CALL_EXCEPTION:
		return ev->depth == 1;
	case PFT_CALL_RETURN:
	case PFT_CALL_EXCEPTION_RETURN:
		return ev->depth == 0;
	default:
		return 0;
	}
}

int pft_calls_log_replay(const struct calls_log *l,
			 int (*on_events)(void *ctx, const struct pft_call_event *ev, size_t n),
			 void *ctx)
{
	const struct log_base *base = NULL;
	unsigned peak = 0;   /* the deepest frame of the worker's since @base */
	struct pft_call_event out[64];
	size_t j = 0, k = 0;
	int err;

	for (size_t i = 0; i <= l->nitems; i++) {
		const struct log_item *it = i < l->nitems ? &l->items[i] : NULL;
		for (size_t end = it ? it->local_before : l->nev; j < end; j++) {
			struct pft_call_event *ev = &out[k];
			if (l->ev[j].flags & PAIR) {
				unpack_pair(&l->ev[j], ev);
				k++;
			} else {
				*ev = l->ev[j];
			}
			for (; ev <= &out[k]; ev++) {
				if (ev->depth > peak)
					peak = ev->depth;
				uint64_t reach = (uint64_t)base->depth + peak;
				uint32_t forgot = reach > l->max_depth ? (uint32_t)(reach - l->max_depth) : 0;
				if (names_frame0(ev))
					ev->caller = base->top;
				ev->depth += base->depth - forgot;
				ev->insns += base->insns;
				ev->cycles += base->cycles;
				ev->has_cycles |= base->has_cycles;
				if (!ev->has_ts) {
					ev->ts = base->ts;
					ev->has_ts = base->has_ts;
				}
				if (ev->kind == PFT_CALL_RETURN || ev->kind == PFT_CALL_EXCEPTION_RETURN)
					ev->entry_insns += base->insns;
			}
			if (++k >= sizeof(out) / sizeof(out[0]) - 1) {
				if ((err = on_events(ctx, out, k)) != 0)
					return err;
				k = 0;
			}
		}
		if (k && (err = on_events(ctx, out, k)) != 0)
			return err;
		k = 0;
		if (!it)
			break;
		if (it->real_end > it->real_start &&
		    (err = on_events(ctx, &l->real[it->real_start], it->real_end - it->real_start)))
			return err;
		if (it->seeds || it->e.type == PFT_ELEM_CALLS_BRANCH) {
			base = &it->base;
			peak = 0;
		}
	}
	return 0;
}
