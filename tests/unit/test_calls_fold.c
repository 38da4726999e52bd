/* The folds run in the parallel decode's workers (pft_views_fold.c)
 * against a consumer that takes every element: random element sequences
 * over tests/views/calls_sample.S, cut into random batches and closed at
 * random points as the decode's threads would, at several stack limits.
 *  - The calls stack of the views without calling contexts (pft_calls.c):
 *    what the fold hands over (elements, branches, stack states and
 *    frames) goes to a second tracker; the entries both count (calls, tail
 *    calls and exceptions into each address) and the frames left at the
 *    end (the returns finish() makes, field by field) must be the same.
 *  - The runs and counts of the views with calling contexts, and the runs
 *    of the calls tracker: the views write the same callgrind and profile
 *    lines, the trackers make the same events, field by field.
 * And runs against single elements, where the tracker takes a leaf call
 * (a call, a range that returns, one where it returns to) at once: the
 * views write the same lines, the tracker gives the same events. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptunit.h"

#include "pft.h"
#include "decode/pft_fold.h"
#include "views/pft_calls.h"
#include "views/pft_calls_log.h"

#include "calls_sample.h"

static char elf[] = "/tmp/pft-calls-fold-XXXXXX";

enum { ELEMS = 400, ENTRIES_MAX = 4096, FINISH_MAX = 256 };

/* The end of the sample's code (ff's last instruction, + 4). */
#define SAMPLE_END 0x8510u

static uint64_t rng;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11) % n;
}

/* Entries by (target, tail call): counts, open addressing. */
struct entries {
	uint64_t keys[ENTRIES_MAX], counts[ENTRIES_MAX];
};

static void add_entry(struct entries *m, uint32_t target, int tail, uint64_t count)
{
	uint64_t key = ((uint64_t)target << 1 | (unsigned)tail) + 1;
	size_t i = (size_t)(key * 0x9e3779b97f4a7c15ull >> 52) % ENTRIES_MAX;

	while (m->keys[i] && m->keys[i] != key)
		i = (i + 1) % ENTRIES_MAX;
	m->keys[i] = key;
	m->counts[i] += count;
}

struct run {
	struct pft_calls *calls;
	struct entries entries;
	struct pft_call_event finish[FINISH_MAX];
	size_t nfinish;
};

static void take_events(struct run *r)
{
	struct pft_call_event ev;

	while (pft_calls_next(r->calls, &ev, sizeof(ev)) == 0)
		if (ev.kind == PFT_CALL_CALL || ev.kind == PFT_CALL_EXCEPTION ||
		    ev.kind == PFT_CALL_TAIL_CALL)
			add_entry(&r->entries, ev.target, ev.kind == PFT_CALL_TAIL_CALL, 1);
}

static void finish(struct run *r)
{
	PTU_EQ(pft_calls_finish(r->calls), 0);
	while (r->nfinish < FINISH_MAX &&
	       pft_calls_next(r->calls, &r->finish[r->nfinish], sizeof(r->finish[0])) == 0)
		r->nfinish++;
}

/* A fold's output element to the tracker of run @r. */
static void consume(struct run *r, const struct pft_elem *x)
{
	if (x->type == PFT_ELEM_RANGE_COUNT)
		return;
	if (x->type == PFT_ELEM_ENTRY_COUNT) {
		add_entry(&r->entries, x->addr, x->taken != 0, x->ts);
		return;
	}
	if (x->type == PFT_ELEM_CALLS_BRANCH || x->type == PFT_ELEM_CALLS_STATE ||
	    x->type == PFT_ELEM_CALLS_FRAME)
		PTU_EQ(pft_calls_apply_fold(r->calls, x), 0);
	else
		PTU_EQ(pft_calls_put(r->calls, x, sizeof(*x)), 0);
	take_events(r);
}

static const uint32_t entry_points[] = { 0x8000, 0x8100, 0x8200, 0x8300 };

/* Where the sample's calls end: a call frame returns to one of them,
 * which a trace's taken calls end at (pft_calls_call_ends_at()). */
static const uint32_t call_ends[] = { 0x8004, 0x800c, 0x8014, 0x801c, 0x8104, 0x8304,
				      0x8404, 0x8408, 0x840c, 0x8410, 0x8504, 0x8508, 0x850c };

static const uint8_t classes[] = {
	PFT_ICLASS_OTHER, PFT_ICLASS_OTHER, PFT_ICLASS_OTHER, PFT_ICLASS_CALL, PFT_ICLASS_CALL,
	PFT_ICLASS_CALL, PFT_ICLASS_INDIRECT_CALL, PFT_ICLASS_RETURN, PFT_ICLASS_RETURN,
	PFT_ICLASS_RETURN, PFT_ICLASS_RETURN, PFT_ICLASS_JUMP, PFT_ICLASS_JUMP, PFT_ICLASS_JUMP,
	PFT_ICLASS_INDIRECT_JUMP, PFT_ICLASS_INDIRECT_JUMP, PFT_ICLASS_EXC_RETURN,
	PFT_ICLASS_BARRIER
};

/* A random element: mostly ranges that call, return (often to where a
 * call returns to) and jump between the sample's functions; exceptions,
 * their returns, timestamps, and now and then a gap. */
static struct pft_elem random_elem(uint32_t *rets, uint64_t *ts)
{
	uint32_t r = rnd(100), start;
	struct pft_elem e = { 0 };

	if (r < 72) {
		uint32_t n = 1 + rnd(4), pick = rnd(10);
		start = pick < 3 ? entry_points[rnd(4)] : pick < 6 ? rets[rnd(16)]
			: 0x8000 + 4 * rnd(256);
		e = arm_range(start, n, classes[rnd(sizeof(classes))], rnd(4) != 0);
		if (e.taken && (e.iclass == PFT_ICLASS_CALL || e.iclass == PFT_ICLASS_INDIRECT_CALL)) {
			uint32_t end = call_ends[rnd(sizeof(call_ends) / sizeof(call_ends[0]))];
			n = 1 + rnd((end - 0x8000) / 4 < 4 ? (end - 0x8000) / 4 : 4);
			e = arm_range(end - 4 * n, n, e.iclass, 1);
			rets[rnd(16)] = e.end;
		}
		e.has_cycles = (uint8_t)rnd(2);
		e.cycles = e.has_cycles ? 1 + rnd(50) : 0;
	} else if (r < 80) {
		e.type = PFT_ELEM_EXCEPTION;
		e.has_ret = (uint8_t)rnd(2);
		e.addr = rnd(2) ? rets[rnd(16)] : 0x8000 + 4 * rnd(256);
		e.exception = (uint16_t)rnd(8);
		e.has_cycles = (uint8_t)rnd(2);
		e.cycles = e.has_cycles ? rnd(20) : 0;
	} else if (r < 85) {
		e.type = PFT_ELEM_EXCEPTION_RETURN;
	} else if (r < 92) {
		e.type = PFT_ELEM_TIMESTAMP;
		e.ts = *ts += 1 + rnd(100);
	} else if (r < 94) {
		e.type = PFT_ELEM_CONTEXT;
	} else if (r < 96) {
		e.type = PFT_ELEM_ADDR_NACC;
		e.addr = 0x9000;
	} else {
		static const uint8_t gaps[] = { PFT_ELEM_ERROR, PFT_ELEM_NO_SYNC, PFT_ELEM_TRACE_ON };
		e.type = gaps[rnd(3)];
	}
	return e;
}

/* A digest of tracker @c's stack: every frame's return address,
 * function and kind. */
static uint64_t stack_digest(const struct pft_calls *c)
{
	uint64_t h = c->nframes;

	for (size_t k = 0; k < c->nframes; k++) {
		const struct frame *f = calls_frame_at(c, k);
		h = (h ^ f->ret) * 0x100000001b3ull;
		h = (h ^ f->func ^ (uint64_t)f->func_end << 32) * 0x100000001b3ull;
		h = (h ^ f->exception) * 0x100000001b3ull;
	}
	return h;
}

static void same_finish(const struct run *a, const struct run *b)
{
	PTU_EQ(a->nfinish, b->nfinish);
	for (size_t i = 0; i < a->nfinish && i < b->nfinish; i++) {
		const struct pft_call_event *x = &a->finish[i], *y = &b->finish[i];
		PTU_EQ(x->kind, y->kind);
		PTU_EQ(x->flags, y->flags);
		PTU_EQ(x->depth, y->depth);
		PTU_EQ(x->callee, y->callee);
		PTU_EQ(x->caller, y->caller);
		PTU_EQ(x->insns, y->insns);
		PTU_EQ(x->entry_insns, y->entry_insns);
		PTU_EQ(x->cycles, y->cycles);
		PTU_EQ(x->ts, y->ts);
		PTU_EQ(x->has_ts, y->has_ts);
	}
}

/* One sequence at stack limit @max_depth: returns how many elements the
 * workers' stack took (not handed over).  After each element handed over
 * (its @offset: its index), the reading thread's stack is the one that
 * took every element. */
static size_t one_sequence(struct pft_image *img, uint32_t max_depth)
{
	static struct run a, b;
	static struct pft_elem in[ELEMS], out[PFT_FOLD_OUT_MAX(ELEMS)];
	static uint64_t stacks[ELEMS];
	uint32_t rets[16];
	uint64_t ts = 0;
	struct pft_calls_config cc = { .size = sizeof(cc), .image = img, .max_depth = max_depth };
	struct pft_views_config vc = { .size = sizeof(vc), .image = img, .max_depth = max_depth,
				       .no_contexts = 1 };
	size_t passed = 0;

	for (int k = 0; k < 16; k++)
		rets[k] = 0x8004 + 0x100 * (uint32_t)rnd(4) + 4 * (uint32_t)rnd(4);
	for (size_t i = 0; i < ELEMS; i++) {
		in[i] = random_elem(rets, &ts);
		in[i].offset = i;
	}
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.calls = pft_calls_alloc(&cc, NULL);
	b.calls = pft_calls_alloc(&cc, NULL);
	struct pft_views *v = pft_views_alloc(&vc, NULL);
	PTU_CHECK(a.calls && b.calls && v);
	if (!a.calls || !b.calls || !v)
		return 0;
	const struct pft_fold *f = pft_views_fold(v, 0);
	PTU_CHECK(f != NULL);
	void *w = f ? f->ops->worker_alloc(f->ctx) : NULL;
	PTU_CHECK(w != NULL);
	/* Leaf calls are for the views with calling contexts only. */
	struct pft_elem leaf = { .type = PFT_ELEM_LEAF_CALLS, .start = 0x8200, .last = 0x8100,
				 .ninsn = 1, .offset = 1 };
	PTU_EQ(pft_views_put_run(v, 0, &leaf, 1, sizeof(leaf)), -PFT_ERR_INVALID);

	for (size_t i = 0; i < ELEMS; i++) {
		PTU_EQ(pft_calls_put(a.calls, &in[i], sizeof(in[i])), 0);
		take_events(&a);
		stacks[i] = stack_digest(a.calls);
	}
	finish(&a);

	for (size_t i = 0; w && i < ELEMS;) {
		size_t n = 1 + rnd(40);
		if (n > ELEMS - i)
			n = ELEMS - i;
		int k = f->ops->fold(w, &in[i], n, out);
		PTU_CHECK(k >= 0 && (size_t)k <= PFT_FOLD_OUT_MAX(n));
		for (int j = 0; j < k; j++) {
			consume(&b, &out[j]);
			if (out[j].type < PFT_ELEM_RANGE_COUNT) {
				passed++;
				PTU_EQ(stack_digest(b.calls), stacks[out[j].offset]);
			}
		}
		i += n;
		/* Closed where a thread leaves a stretch it folds, and at the end. */
		if (rnd(8) == 0 || i == ELEMS) {
			size_t got;
			do {
				got = f->ops->close(w, out, PFT_FOLD_EXTRA + 64);
				for (size_t j = 0; j < got; j++)
					consume(&b, &out[j]);
			} while (got == PFT_FOLD_EXTRA + 64);
		}
	}
	finish(&b);

	PTU_CHECK(!memcmp(&a.entries, &b.entries, sizeof(a.entries)));
	same_finish(&a, &b);
	if (w)
		f->ops->worker_free(w);
	pft_views_free(v);
	pft_calls_free(a.calls);
	pft_calls_free(b.calls);
	return ELEMS - passed;
}

/* The stack limits the sequences are taken at, round after round. */
static const uint32_t depth_limits[7] = { 1, 2, 3, 5, 8, 70, 0 };

/* The sample's image, its rounds' random numbers started from @seed. */
static struct pft_image *sample_image(uint64_t seed)
{
	struct pft_image *img = pft_image_alloc(NULL);

	PTU_CHECK(img != NULL);
	PTU_CHECK(pft_image_add_elf(img, elf, 0) >= 1);
	rng = seed;
	return img;
}

static void as_one_tracker(void)
{
	struct pft_image *img = sample_image(0x2545f4914f6cdd1dull);
	size_t taken = 0;

	for (int round = 0; round < 1400; round++)
		taken += one_sequence(img, depth_limits[round % 7]);
	/* Most elements were taken by the workers' stack, not handed over. */
	PTU_CHECK(taken > 1400 * ELEMS / 2);
	pft_image_free(img);
}

/* A growing text: a view as written. */
struct text {
	char *s;
	size_t len, cap;
};

static int to_text(void *ctx, const char *buf, size_t len)
{
	struct text *t = ctx;

	if (t->len + len + 1 > t->cap) {
		size_t cap = (t->len + len + 1) * 2;
		char *s = realloc(t->s, cap);
		if (!s)
			return -1;
		t->s = s;
		t->cap = cap;
	}
	memcpy(t->s + t->len, buf, len);
	t->len += len;
	t->s[t->len] = 0;
	return 0;
}

/* Texts @a and @b the same, and not empty; both freed. */
static void same_text(struct text *a, struct text *b)
{
	PTU_CHECK(a->len > 0 && a->len == b->len);
	PTU_CHECK(a->s && b->s && !strcmp(a->s, b->s));
	free(a->s);
	free(b->s);
}

/* Views @v, finished, as callgrind and profile lines: *@t. */
static void written(struct pft_views *v, struct text *t)
{
	PTU_EQ(pft_views_finish(v), 0);
	PTU_EQ(pft_views_write(v, PFT_VIEW_CALLGRIND, NULL, to_text, t), 0);
	PTU_EQ(pft_views_write(v, PFT_VIEW_PROFILE_JSONL, NULL, to_text, t), 0);
}

/* Event @ev, field by field, at *@t. */
static void event_line(const struct pft_call_event *ev, struct text *t)
{
	char line[200];
	int n = snprintf(line, sizeof(line),
			 "%u %u %u %u %x %x %x %x %llu %llu %u %llu %u %llu %u\n",
			 ev->kind, ev->flags, ev->exception, ev->depth, ev->site, ev->target,
			 ev->callee, ev->caller, (unsigned long long)ev->insns,
			 (unsigned long long)ev->cycles, ev->has_cycles,
			 (unsigned long long)ev->ts, ev->has_ts,
			 (unsigned long long)ev->entry_insns, ev->profile);

	PTU_EQ(to_text(t, line, (size_t)n), 0);
}

/* The events of tracker @c taken so far at *@t. */
static void event_lines(struct pft_calls *c, struct text *t)
{
	struct pft_call_event ev;

	while (pft_calls_next(c, &ev, sizeof(ev)) == 0)
		event_line(&ev, t);
}

/* Range @e moved back within the sample's code, which the views read. */
static void within_sample(struct pft_elem *e)
{
	if (e->end > SAMPLE_END) {
		uint32_t start = SAMPLE_END - 4 * e->ninsn;
		e->start = start - 4 * rnd(64);
		e->last = e->start + 4 * (e->ninsn - 1);
		e->end = e->start + 4 * e->ninsn;
	}
}

enum { CHAIN_MAX = 40 };

/* At @in, at most CHAIN_MAX elements of fd (or fe, whose last call
 * returns into ff) calling functions that return at once, in turn and in
 * a loop (the same call again and again), with a call that does not
 * return at once now and then: returns how many. */
static size_t plant_chain(struct pft_elem *in)
{
	static const uint32_t callees[] = { 0x8200, 0x8304, 0x8300 };
	uint32_t first = rnd(3) ? 0x8400 : 0x8500, ret = first + 4;
	uint32_t last_ret = first == 0x8400 ? 0x8410 : 0x850c;   /* after the last call */
	size_t k = 0;

	in[k++] = arm_range(first, 1, PFT_ICLASS_CALL, 1);
	while (k + 4 <= CHAIN_MAX && rnd(12)) {
		uint32_t callee = callees[rnd(3)];
		in[k] = arm_range(callee, callee == 0x8300 ? 2 : 1,
				  rnd(8) ? rnd(4) ? PFT_ICLASS_RETURN : PFT_ICLASS_INDIRECT_JUMP
					 : PFT_ICLASS_OTHER, 1);
		in[k].has_cycles = (uint8_t)rnd(2);
		in[k].cycles = in[k].has_cycles ? 1 + rnd(30) : 0;
		k++;
		if (ret < last_ret && rnd(3)) {
			/* On to the next call. */
			in[k++] = arm_range(ret, 1, PFT_ICLASS_CALL, 1);
			ret += 4;
		} else {
			/* Back to the call before: a jump, then the call. */
			in[k++] = arm_range(ret, 1, PFT_ICLASS_JUMP, 1);
			in[k++] = arm_range(ret - 4, 1, PFT_ICLASS_CALL, 1);
		}
		in[k - 1].has_cycles = (uint8_t)rnd(2);
		in[k - 1].cycles = in[k - 1].has_cycles ? 1 + rnd(30) : 0;
	}
	return k;
}

/* @in: ELEMS random elements (random_elem()); for the views (@views),
 * half their ranges run on in fa (where a fold joins them: they stay in
 * their function), and a leaf call follows a call now and then: a range
 * that returns, then one where the call returns to.  Returns how many
 * such calls it made. */
static unsigned random_sequence(struct pft_elem *in, int views)
{
	uint32_t rets[16];
	uint64_t ts = 0;
	unsigned leaves = 0;

	for (int k = 0; k < 16; k++)
		rets[k] = 0x8004 + 0x100 * (uint32_t)rnd(4) + 4 * (uint32_t)rnd(4);
	for (size_t i = 0; i < ELEMS; i++) {
		in[i] = random_elem(rets, &ts);
		if (views && in[i].type == PFT_ELEM_RANGE && rnd(2)) {
			uint8_t hc = in[i].has_cycles;
			uint32_t cycles = in[i].cycles;
			in[i] = arm_range(0x8100 + 4 * rnd(2), 1 + rnd(2), PFT_ICLASS_OTHER, 0);
			in[i].has_cycles = hc;
			in[i].cycles = cycles;
		}
		if (in[i].type == PFT_ELEM_RANGE)
			within_sample(&in[i]);
	}
	for (size_t i = 0; views && i + 2 < ELEMS; i++) {
		const struct pft_elem *call = &in[i];
		if (call->type != PFT_ELEM_RANGE || !call->taken || rnd(3) ||
		    (call->iclass != PFT_ICLASS_CALL && call->iclass != PFT_ICLASS_INDIRECT_CALL))
			continue;
		uint32_t start = rnd(2) ? entry_points[rnd(4)] : 0x8000 + 4 * rnd(190);
		uint32_t n = 1 + rnd(3);
		if (start + 4 * n > SAMPLE_END)
			n = (SAMPLE_END - start) / 4;
		in[i + 1] = arm_range(start, n, rnd(4) ? PFT_ICLASS_RETURN : PFT_ICLASS_INDIRECT_JUMP, 1);
		in[i + 1].has_cycles = (uint8_t)rnd(2);
		/* Now and then about the most cycles a log's pair holds. */
		in[i + 1].cycles = !in[i + 1].has_cycles ? 0 : rnd(8) ? 1 + rnd(50) : 0xfff0 + rnd(32);
		n = 1 + rnd(3);
		/* Its calls end where the sample's do (call_ends[]), as a
		 * trace's: this one ends where it may not. */
		unsigned iclass = classes[rnd(sizeof(classes))];
		if (iclass == PFT_ICLASS_CALL || iclass == PFT_ICLASS_INDIRECT_CALL)
			iclass = PFT_ICLASS_OTHER;
		if (call->end + 4 * n <= SAMPLE_END)
			in[i + 2] = arm_range(call->end, n, iclass, rnd(4) != 0);
		leaves++;
	}
	for (size_t i = 0; views && i + CHAIN_MAX < ELEMS; i++)
		if (!rnd(40))
			i += plant_chain(&in[i]);
	return leaves;
}

/*
 * The folds of the views with calling contexts (runs of one function,
 * counted) and of the calls tracker (runs): one random sequence at stack
 * limit @max_depth, cut into random batches and closed at random points,
 * its fold's output given to a second views (or tracker), against one that
 * takes every element: the views write the same callgrind and profile
 * lines, the trackers make the same events.  Returns how many elements the
 * folds joined to the run before them.
 */
static uint64_t leaf_calls;   /* the calls the folds sent in LEAF_CALLS elements */

static uint64_t one_fold_sequence(struct pft_image *img, uint32_t max_depth, int views)
{
	static struct pft_elem in[ELEMS], out[PFT_FOLD_OUT_MAX(ELEMS)];
	uint64_t joined = 0;
	struct pft_views_config vc = { .size = sizeof(vc), .image = img, .max_depth = max_depth };
	struct pft_calls_config cc = { .size = sizeof(cc), .image = img, .max_depth = max_depth };
	struct pft_views *va = NULL, *vb = NULL;
	struct pft_calls *ca = NULL, *cb = NULL;
	struct text ta = { 0 }, tb = { 0 };

	random_sequence(in, views);
	if (views) {
		va = pft_views_alloc(&vc, NULL);
		vb = pft_views_alloc(&vc, NULL);
	} else {
		ca = pft_calls_alloc(&cc, NULL);
		cb = pft_calls_alloc(&cc, NULL);
	}
	PTU_CHECK(views ? va && vb : ca && cb);
	const struct pft_fold *f = views ? pft_views_fold(vb, 0) : pft_calls_fold(cb);
	void *w = f ? f->ops->worker_alloc(f->ctx) : NULL;
	PTU_CHECK(w != NULL);
	if (!w)
		goto out;

	for (size_t i = 0; i < ELEMS; i++) {
		if (views) {
			PTU_EQ(pft_views_put_run(va, 0, &in[i], 1, sizeof(in[i])), 0);
		} else {
			PTU_EQ(pft_calls_put(ca, &in[i], sizeof(in[i])), 0);
			event_lines(ca, &ta);
		}
	}
	for (size_t i = 0; i < ELEMS;) {
		size_t n = 1 + rnd(40), got = 0;
		if (n > ELEMS - i)
			n = ELEMS - i;
		int k = f->ops->fold(w, &in[i], n, out);
		PTU_CHECK(k >= 0 && (size_t)k <= PFT_FOLD_OUT_MAX(n));
		i += n;
		for (;;) {
			for (int j = 0; j < k; j++) {
				joined += out[j].type == PFT_ELEM_RANGE && (out[j].flags & PFT_ELEM_F_FOLDED)
						  ? out[j].ts - 1 : 0;
				leaf_calls += out[j].type == PFT_ELEM_LEAF_CALLS ? out[j].ninsn : 0;
				if (views) {
					PTU_EQ(pft_views_put_run(vb, 0, &out[j], 1, sizeof(out[j])), 0);
				} else {
					PTU_EQ(pft_calls_put(cb, &out[j], sizeof(out[j])), 0);
					event_lines(cb, &tb);
				}
			}
			/* Closed where a thread leaves a stretch it folds, and at
			 * the end. */
			if ((got && got < PFT_FOLD_EXTRA + 8) || (!got && rnd(8) && i < ELEMS))
				break;
			got = f->ops->close(w, out, PFT_FOLD_EXTRA + 8);
			k = (int)got;
			if (!got)
				break;
		}
	}
	if (views) {
		written(va, &ta);
		written(vb, &tb);
	} else {
		PTU_EQ(pft_calls_finish(ca), 0);
		PTU_EQ(pft_calls_finish(cb), 0);
		event_lines(ca, &ta);
		event_lines(cb, &tb);
	}
	PTU_CHECK(ta.len > 0);
	PTU_EQ(ta.len, tb.len);
	PTU_CHECK(ta.s && tb.s && !strcmp(ta.s, tb.s));
	f->ops->worker_free(w);
out:
	pft_views_free(va);
	pft_views_free(vb);
	pft_calls_free(ca);
	pft_calls_free(cb);
	free(ta.s);
	free(tb.s);
	return joined;
}

/*
 * Views given a sequence in runs (where the tracker takes a leaf call at
 * once, pft_calls_leaf_call()) against views given it an element at a
 * time (where it cannot look past the call's range): the same callgrind
 * and profile lines, with calling contexts and without.
 */
static unsigned one_run_sequence(struct pft_image *img, uint32_t max_depth)
{
	static struct pft_elem in[ELEMS];
	unsigned leaves = random_sequence(in, 1);

	for (int no_contexts = 0; no_contexts < 2; no_contexts++) {
		struct pft_views_config vc = { .size = sizeof(vc), .image = img,
					       .max_depth = max_depth,
					       .no_contexts = (uint8_t)no_contexts };
		struct pft_views *va = pft_views_alloc(&vc, NULL), *vr = pft_views_alloc(&vc, NULL);
		struct text ta = { 0 }, tr = { 0 };
		PTU_CHECK(va && vr);
		for (size_t i = 0; va && vr && i < ELEMS;) {
			size_t n = 1 + rnd(60);
			if (n > ELEMS - i)
				n = ELEMS - i;
			for (size_t k = i; k < i + n; k++)
				PTU_EQ(pft_views_put_run(va, 0, &in[k], 1, sizeof(in[k])), 0);
			PTU_EQ(pft_views_put_run(vr, 0, &in[i], n, sizeof(in[i])), 0);
			i += n;
		}
		if (va && vr) {
			written(va, &ta);
			written(vr, &tr);
		}
		same_text(&ta, &tr);
		pft_views_free(va);
		pft_views_free(vr);
	}
	return leaves;
}

/* A leaf call's events, as they come (pft_calls_leaf_call()). */
static int leaf_lines(void *text, const struct pft_call_event ev[2], const struct pft_elem *x)
{
	(void)x;
	event_line(&ev[0], text);
	event_line(&ev[1], text);
	return 0;
}

/*
 * A tracker given a sequence in runs, taking leaf calls at once, against
 * one given it an element at a time: the same events, field by field.
 */
static void one_leaf_sequence(struct pft_image *img, uint32_t max_depth)
{
	static struct pft_elem in[ELEMS];
	static const struct calls_put_ops ops = { .on_leaf = leaf_lines };
	struct pft_calls_config cc = { .size = sizeof(cc), .image = img, .max_depth = max_depth };
	struct pft_calls *ca = pft_calls_alloc(&cc, NULL), *cr = pft_calls_alloc(&cc, NULL);
	struct text ta = { 0 }, tr = { 0 };

	random_sequence(in, 1);
	PTU_CHECK(ca && cr);
	for (size_t i = 0; ca && cr && i < ELEMS;) {
		size_t n = 1 + rnd(60);
		if (n > ELEMS - i)
			n = ELEMS - i;
		for (size_t k = i; k < i + n; k++) {
			PTU_EQ(pft_calls_put(ca, &in[k], sizeof(in[k])), 0);
			event_lines(ca, &ta);
		}
		for (size_t end = i + n; i < end;) {
			int got = calls_put_until_events(cr, &in[i], end - i, sizeof(in[i]), &ops, &tr);
			PTU_CHECK(got > 0);
			if (got <= 0)
				break;
			i += (size_t)got;
			event_lines(cr, &tr);
		}
	}
	if (ca && cr) {
		PTU_EQ(pft_calls_finish(ca), 0);
		PTU_EQ(pft_calls_finish(cr), 0);
		event_lines(ca, &ta);
		event_lines(cr, &tr);
	}
	same_text(&ta, &tr);
	pft_calls_free(ca);
	pft_calls_free(cr);
}

static void runs_as_elements(void)
{
	struct pft_image *img = sample_image(0x2545f4914f6cdd1dull);
	unsigned leaves = 0;

	for (int round = 0; round < 700; round++) {
		leaves += one_run_sequence(img, depth_limits[round % 7]);
		one_leaf_sequence(img, depth_limits[round % 7]);
	}
	/* Leaf calls were made (a test of something). */
	PTU_CHECK(leaves > 700 * ELEMS / 100);
	pft_image_free(img);
}

static void folds_as_unfolded(void)
{
	struct pft_image *img = sample_image(0x9e3779b97f4a7c15ull);
	uint64_t joined[2] = { 0, 0 };

	for (int round = 0; round < 700; round++)
		for (int views = 0; views < 2; views++)
			joined[views] += one_fold_sequence(img, depth_limits[round % 7], views);
	/* The folds joined ranges and took leaf calls (a test of something). */
	PTU_CHECK(joined[0] > 700 * ELEMS / 20);
	PTU_CHECK(joined[1] > 700 * ELEMS / 50);
	PTU_CHECK(leaf_calls > 700 * ELEMS / 100);
	pft_image_free(img);
}

/* Where a call instruction ends, in any instruction set and memory
 * space, and across two sections. */
static void calls_end_where_calls_are(void)
{
	static const uint8_t a32[] = {
		0x00, 0x00, 0x00, 0xeb,   /* 0x1000 bl */
		0x33, 0xff, 0x2f, 0xe1,   /* 0x1004 blx r3 */
		0x00, 0x00, 0xa0, 0xe1,   /* 0x1008 mov r0, r0 */
		0x00, 0x00, 0xa0, 0xe1    /* 0x100c mov r0, r0 */
	};
	static const uint8_t t32[] = {
		0x00, 0xbf,               /* 0x2000 nop */
		0x98, 0x47,               /* 0x2002 blx r3 */
		0x00, 0xf0, 0x00, 0xf8,   /* 0x2004 bl */
		0x00, 0xf0, 0x00, 0xb8,   /* 0x2008 b.w */
		0x00, 0xbf                /* 0x200c nop */
	};
	static const uint8_t bl_lo[] = { 0x00, 0xf0 }, bl_hi[] = { 0x00, 0xf8 };
	struct pft_image *img = pft_image_alloc(NULL);

	PTU_CHECK(img != NULL);
	if (!img)
		return;
	PTU_EQ(pft_image_add_buffer(img, 0x1000, a32, sizeof(a32), PFT_SPACE_ANY, 0), 0);
	PTU_EQ(pft_image_add_buffer(img, 0x2000, t32, sizeof(t32), PFT_SPACE_NONSECURE, 0), 1);
	/* Non-secure code and secure code at one address: a call in one. */
	PTU_EQ(pft_image_add_buffer(img, 0x3000, a32 + 8, 4, PFT_SPACE_NONSECURE, 0), 2);
	PTU_EQ(pft_image_add_buffer(img, 0x3000, a32, 4, PFT_SPACE_SECURE, 0), 3);
	PTU_EQ(pft_image_add_buffer(img, 0x3010, a32 + 8, 4, PFT_SPACE_SECURE, 0), 4);
	PTU_EQ(pft_image_add_buffer(img, 0x3010, a32, 4, PFT_SPACE_NONSECURE, 0), 5);
	PTU_EQ(pft_image_add_buffer(img, 0x4000, bl_lo, 2, PFT_SPACE_ANY, 0), 6);
	PTU_EQ(pft_image_add_buffer(img, 0x4002, bl_hi, 2, PFT_SPACE_ANY, 0), 7);
	PTU_EQ(pft_calls_call_ends_at(img, 0x1004), 1);
	PTU_EQ(pft_calls_call_ends_at(img, 0x1008), 1);
	PTU_EQ(pft_calls_call_ends_at(img, 0x100c), 0);
	PTU_EQ(pft_calls_call_ends_at(img, 0x1010), 0);
	PTU_EQ(pft_calls_call_ends_at(img, 0x2002), 0);
	PTU_EQ(pft_calls_call_ends_at(img, 0x2004), 1);   /* 16-bit */
	PTU_EQ(pft_calls_call_ends_at(img, 0x2008), 1);   /* 32-bit */
	PTU_EQ(pft_calls_call_ends_at(img, 0x200c), 0);
	PTU_EQ(pft_calls_call_ends_at(img, 0x3004), 1);
	PTU_EQ(pft_calls_call_ends_at(img, 0x3014), 1);
	PTU_EQ(pft_calls_call_ends_at(img, 0x4004), 1);   /* two sections */
	PTU_EQ(pft_calls_call_ends_at(img, 0x5000), 0);   /* no code */
	/* Without an image or before address 4, it cannot be told. */
	PTU_EQ(pft_calls_call_ends_at(NULL, 0x5000), 1);
	PTU_EQ(pft_calls_call_ends_at(img, 2), 1);
	pft_image_free(img);
}

static int events_to_text(void *ctx, const struct pft_call_event *ev, size_t n)
{
	for (size_t i = 0; i < n; i++)
		event_line(&ev[i], ctx);
	return 0;
}

/* Log @log, put by worker's tracker @w, stitched onto tracker @c, its
 * events at *@t, then reset: returns how many its worker made. */
static size_t stitched(struct calls_log *log, struct pft_calls *w, struct pft_calls *c,
		       struct text *t)
{
	size_t made = pft_calls_log_made(log);

	PTU_EQ(pft_calls_log_end(log, w), 0);
	PTU_EQ(pft_calls_log_stitch(log, c), 0);
	PTU_EQ(pft_calls_log_replay(log, events_to_text, t), 0);
	pft_calls_log_reset(log);
	return made;
}

/*
 * The calls of pieces made without the stack at their start
 * (pft_calls_log.c), stitched in order: one random sequence (with leaf
 * calls and chains of them) at stack limit @max_depth, cut into random
 * pieces put in random batches into logs full at @log_size events and
 * items (0: never), against a tracker that takes every element: the same
 * events, field by field and in order, and the same frames left at the
 * end.  Returns how many events the workers' trackers made; *@all: how
 * many there were; *@fills: how often a log was full.
 */
static uint64_t one_pieced_sequence(struct pft_image *img, uint32_t max_depth, size_t log_size,
				    uint64_t *all, uint64_t *fills)
{
	static struct pft_elem in[ELEMS];
	struct pft_calls_config cc = { .size = sizeof(cc), .image = img, .max_depth = max_depth };
	struct pft_calls *ca = pft_calls_alloc(&cc, NULL), *cb = pft_calls_alloc(&cc, NULL);
	struct pft_calls *cw = pft_calls_alloc(&cc, NULL);
	struct calls_log *log = pft_calls_log_alloc(log_size);
	struct text ta = { 0 }, tb = { 0 };
	uint64_t made = 0;

	PTU_CHECK(ca && cb && cw && log);
	if (!ca || !cb || !cw || !log)
		goto out;
	random_sequence(in, 1);
	for (size_t i = 0; i < ELEMS; i++) {
		PTU_EQ(pft_calls_put(ca, &in[i], sizeof(in[i])), 0);
		event_lines(ca, &ta);
	}
	for (size_t i = 0; i < ELEMS;) {
		size_t end = i + 1 + rnd(150);
		if (end > ELEMS)
			end = ELEMS;
		while (i < end) {
			size_t n = 1 + rnd(40);
			if (n > end - i)
				n = end - i;
			int took = pft_calls_log_put(log, cw, &in[i], n);
			PTU_CHECK(took >= 0 && (size_t)took <= n);
			if (took < 0)
				goto out;
			i += (size_t)took;
			/* A full log ends; the next one goes on. */
			if ((size_t)took < n && pft_calls_log_full(log)) {
				PTU_CHECK(log_size > 0);
				made += stitched(log, cw, cb, &tb);
				++*fills;
				continue;
			}
			/* An error goes to the whole tracker after the log. */
			if ((size_t)took < n) {
				PTU_EQ(in[i].type, PFT_ELEM_ERROR);
				made += stitched(log, cw, cb, &tb);
				PTU_EQ(pft_calls_put(cb, &in[i], sizeof(in[i])), 0);
				event_lines(cb, &tb);
				i++;
			}
		}
		made += stitched(log, cw, cb, &tb);
	}
	PTU_EQ(pft_calls_finish(ca), 0);
	PTU_EQ(pft_calls_finish(cb), 0);
	event_lines(ca, &ta);
	event_lines(cb, &tb);
	for (const char *p = ta.s; p && *p; p++)
		*all += *p == '\n';
	PTU_CHECK(ta.len > 0);
	PTU_EQ(ta.len, tb.len);
	PTU_CHECK(ta.s && tb.s && !strcmp(ta.s, tb.s));
out:
	free(ta.s);
	free(tb.s);
	pft_calls_log_free(log);
	pft_calls_free(cw);
	pft_calls_free(ca);
	pft_calls_free(cb);
	return made;
}

static void pieces_stitched(void)
{
	struct pft_image *img = sample_image(0x9e3779b97f4a7c15ull);
	uint64_t made = 0, all = 0, fills = 0;

	/* Every other round, logs that fill up within a piece (a few events
	 * to a few hundred), at each stack limit. */
	for (int round = 0; round < 1400; round++)
		made += one_pieced_sequence(img, depth_limits[round % 7],
					    round % 2 ? 1 + rnd(300) : 0, &all, &fills);
	/* Most events were the workers' trackers', not the stitch's. */
	PTU_CHECK(made > all / 2);
	PTU_CHECK(fills > 1000);
	pft_image_free(img);
}

int main(void)
{
	PTU_RUN(calls_end_where_calls_are);
	if (build_calls_sample(elf) == 0) {
		PTU_RUN(as_one_tracker);
		PTU_RUN(folds_as_unfolded);
		PTU_RUN(runs_as_elements);
		PTU_RUN(pieces_stitched);
	} else {
		ptu_failed_checks++;
		ptu_tests_failed++;
	}
	unlink(elf);
	PTU_MAIN_END();
}
