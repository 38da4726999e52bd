/* The calls layer on hand-built element sequences.  Expected events are
 * worked out by hand from the rules in pft.h (section calls); addresses of
 * the image case come from tests/views/calls_sample.S. */
#include <string.h>

#include "ptunit.h"

#include "pft.h"

#include "calls_sample.h"

static struct pft_calls *calls;
static struct pft_call_event ev[64];
static size_t nev;

static struct pft_elem elem(unsigned type)
{
	struct pft_elem e = { .type = (uint8_t)type };
	return e;
}

/* Put @e and collect its events into ev[] (replacing the last ones). */
static void put(struct pft_elem e)
{
	nev = 0;
	PTU_EQ(pft_calls_put(calls, &e, sizeof(e)), 0);
	while (nev < 64 && pft_calls_next(calls, &ev[nev], sizeof(ev[0])) == 0)
		nev++;
}

static void finish(void)
{
	nev = 0;
	PTU_EQ(pft_calls_finish(calls), 0);
	while (nev < 64 && pft_calls_next(calls, &ev[nev], sizeof(ev[0])) == 0)
		nev++;
}

static void start(struct pft_image *image, uint32_t max_depth)
{
	struct pft_calls_config cfg = { .size = sizeof(cfg), .image = image,
					.max_depth = max_depth };
	int err = 1;

	calls = pft_calls_alloc(&cfg, &err);
	PTU_CHECK(calls != NULL);
	PTU_EQ(err, 0);
}

static void check(size_t i, unsigned kind, unsigned flags, uint32_t depth,
		  uint32_t site, uint32_t target, uint64_t insns)
{
	PTU_CHECK(i < nev);
	if (i >= nev)
		return;
	PTU_EQ(ev[i].kind, kind);
	PTU_EQ(ev[i].flags, flags);
	PTU_EQ(ev[i].depth, depth);
	PTU_EQ(ev[i].site, site);
	PTU_EQ(ev[i].target, target);
	PTU_EQ(ev[i].insns, insns);
}

static void call_and_return(void)
{
	start(NULL, 0);
	put(arm_range(0x1000, 2, PFT_ICLASS_CALL, 1));      /* BL at 0x1004 */
	PTU_EQ(nev, 0);                                 /* destination unknown yet */
	put(arm_range(0x2000, 3, PFT_ICLASS_RETURN, 1));    /* callee, BX LR at 0x2008 */
	PTU_EQ(nev, 1);
	check(0, PFT_CALL_CALL, 0, 1, 0x1004, 0x2000, 2);
	PTU_EQ(ev[0].callee, 0x2000);
	PTU_EQ(ev[0].caller, 0x1000);  /* no symbols: the first range's start */
	PTU_EQ(pft_calls_depth(calls), 1);
	put(arm_range(0x1008, 1, PFT_ICLASS_OTHER, 0));
	PTU_EQ(nev, 1);
	check(0, PFT_CALL_RETURN, 0, 0, 0x2008, 0x1008, 5);
	PTU_EQ(ev[0].callee, 0x2000);
	PTU_EQ(ev[0].entry_insns, 2);
	PTU_EQ(pft_calls_depth(calls), 0);
	/* A call not taken (condition failed) is no call. */
	put(arm_range(0x100c, 1, PFT_ICLASS_CALL, 0));
	put(arm_range(0x1010, 1, PFT_ICLASS_OTHER, 0));
	PTU_EQ(nev, 0);
	finish();
	PTU_EQ(nev, 0);
	PTU_EQ(pft_calls_next(calls, &ev[0], sizeof(ev[0])), -PFT_ERR_EOS);
	pft_calls_free(calls);
}

static void underflow_is_unmatched(void)
{
	start(NULL, 0);
	put(arm_range(0x1000, 1, PFT_ICLASS_RETURN, 1));
	put(arm_range(0x3000, 1, PFT_ICLASS_RETURN, 1));
	check(0, PFT_CALL_UNMATCHED_RETURN, 0, 0, 0x1000, 0x3000, 1);
	put(arm_range(0x4000, 1, PFT_ICLASS_OTHER, 0));
	check(0, PFT_CALL_UNMATCHED_RETURN, 0, 0, 0x3000, 0x4000, 2);
	PTU_EQ(pft_calls_depth(calls), 0);
	/* A return to an address no frame has, with frames: unmatched, the
	 * stack unchanged. */
	put(arm_range(0x4004, 1, PFT_ICLASS_CALL, 1));
	put(arm_range(0x5000, 1, PFT_ICLASS_RETURN, 1));
	put(arm_range(0x6000, 1, PFT_ICLASS_OTHER, 0));
	check(0, PFT_CALL_UNMATCHED_RETURN, 0, 1, 0x5000, 0x6000, 5);
	PTU_EQ(pft_calls_depth(calls), 1);
	finish();
	PTU_EQ(nev, 1);
	check(0, PFT_CALL_RETURN, PFT_CALL_F_END, 0, 0, 0, 6);
	pft_calls_free(calls);
}

static void longjmp_unwinds(void)
{
	start(NULL, 0);
	put(arm_range(0x1000, 1, PFT_ICLASS_CALL, 1));   /* main -> f, returns to 0x1004 */
	put(arm_range(0x2000, 1, PFT_ICLASS_CALL, 1));   /* f -> g, to 0x2004 */
	put(arm_range(0x3000, 1, PFT_ICLASS_INDIRECT_CALL, 1)); /* g -> h, to 0x3004 */
	put(arm_range(0x4000, 2, PFT_ICLASS_RETURN, 1)); /* h returns to 0x1004 */
	PTU_EQ(pft_calls_depth(calls), 3);
	put(arm_range(0x1004, 1, PFT_ICLASS_OTHER, 0));
	PTU_EQ(nev, 3);
	check(0, PFT_CALL_RETURN, PFT_CALL_F_UNWOUND, 2, 0x4004, 0x1004, 5);
	PTU_EQ(ev[0].callee, 0x4000);
	PTU_EQ(ev[0].caller, 0x3000);
	check(1, PFT_CALL_RETURN, PFT_CALL_F_UNWOUND, 1, 0x4004, 0x1004, 5);
	check(2, PFT_CALL_RETURN, 0, 0, 0x4004, 0x1004, 5);
	PTU_EQ(ev[2].callee, 0x2000);
	PTU_EQ(ev[2].entry_insns, 1);
	PTU_EQ(pft_calls_depth(calls), 0);
	pft_calls_free(calls);
}

/* @n calls from one-instruction ranges at @from, @from + @step, ...
 * (each returns to its range's end), then a return at @ret. */
static void nest(uint32_t from, uint32_t step, uint32_t n, uint32_t ret)
{
	for (uint32_t i = 0; i < n; i++)
		put(arm_range(from + step * i, 1, PFT_ICLASS_CALL, 1));
	put(arm_range(ret, 1, PFT_ICLASS_RETURN, 1));
}

/* Returns far below the top: the few top frames are searched directly,
 * those below through the set of return addresses, which must follow
 * the frames as they come and go. */
static void deep_returns(void)
{
	start(NULL, 0);
	/* Twenty calls: frame k (1 .. 20) returns to 0x10004 + 0x100 (k - 1). */
	nest(0x10000, 0x100, 20, 0x20000);
	PTU_EQ(pft_calls_depth(calls), 20);
	/* To frame 3's return address: frames 20 .. 4 unwound, 3 returns. */
	put(arm_range(0x10204, 1, PFT_ICLASS_OTHER, 0));
	PTU_EQ(nev, 18);
	check(0, PFT_CALL_RETURN, PFT_CALL_F_UNWOUND, 19, 0x20000, 0x10204, 21);
	PTU_EQ(ev[0].callee, 0x20000);
	check(16, PFT_CALL_RETURN, PFT_CALL_F_UNWOUND, 3, 0x20000, 0x10204, 21);
	check(17, PFT_CALL_RETURN, 0, 2, 0x20000, 0x10204, 21);
	PTU_EQ(ev[17].callee, 0x10300);
	PTU_EQ(pft_calls_depth(calls), 2);
	/* Fifteen calls more from depth 2, then a return to frame 2's
	 * return address (0x10104): the frames popped above are out of the
	 * set and the new ones in. */
	nest(0x30000, 0x100, 15, 0x40000);
	PTU_EQ(pft_calls_depth(calls), 17);
	/* Frame 6's return address: that frame is gone. */
	put(arm_range(0x10504, 1, PFT_ICLASS_RETURN, 1));
	PTU_EQ(nev, 1);
	check(0, PFT_CALL_UNMATCHED_RETURN, 0, 17, 0x40000, 0x10504, 38);
	put(arm_range(0x10104, 1, PFT_ICLASS_OTHER, 0));
	PTU_EQ(nev, 16);
	check(0, PFT_CALL_RETURN, PFT_CALL_F_UNWOUND, 16, 0x10504, 0x10104, 39);
	check(15, PFT_CALL_RETURN, 0, 1, 0x10504, 0x10104, 39);
	PTU_EQ(ev[15].callee, 0x10200);  /* entered from 0x10100 */
	PTU_EQ(pft_calls_depth(calls), 1);
	pft_calls_free(calls);
}

/* A new tracker: a call from 0x1000 to 0x2000 (returning to 0x1004), an
 * IRQ taken there before 0x2008, and its vector's range, which ends in
 * a taken branch of @iclass: the exception's event made. */
static void irq_in_call(unsigned iclass)
{
	start(NULL, 0);
	put(arm_range(0x1000, 1, PFT_ICLASS_CALL, 1));
	put(arm_range(0x2000, 2, PFT_ICLASS_OTHER, 0));
	struct pft_elem x = elem(PFT_ELEM_EXCEPTION);
	x.exception = PFT_EXC_IRQ;
	x.has_ret = 1;
	x.addr = 0x2008;
	put(x);
	put(arm_range(0x18, 1, iclass, 1));
	check(0, PFT_CALL_EXCEPTION, 0, 2, 0, 0x18, 3);
}

static void exceptions_nest(void)
{
	irq_in_call(PFT_ICLASS_CALL);                    /* the vector calls 0x500 */
	PTU_EQ(ev[0].exception, PFT_EXC_IRQ);
	put(arm_range(0x500, 1, PFT_ICLASS_OTHER, 0));   /* a handler that never returns */
	check(0, PFT_CALL_CALL, 0, 3, 0x18, 0x500, 4);
	put(arm_range(0x504, 1, PFT_ICLASS_EXC_RETURN, 1));
	struct pft_elem xr = elem(PFT_ELEM_EXCEPTION_RETURN);
	put(xr);                                     /* the same return, once */
	PTU_EQ(nev, 0);
	put(arm_range(0x2008, 1, PFT_ICLASS_OTHER, 0));
	PTU_EQ(nev, 2);
	check(0, PFT_CALL_RETURN, PFT_CALL_F_UNWOUND, 2, 0x504, 0x2008, 6);
	check(1, PFT_CALL_EXCEPTION_RETURN, 0, 1, 0x504, 0x2008, 6);
	PTU_EQ(ev[1].entry_insns, 3);
	PTU_EQ(pft_calls_depth(calls), 1);
	/* An exception return with no exception frame: an ordinary return. */
	put(arm_range(0x200c, 1, PFT_ICLASS_EXC_RETURN, 1));
	put(arm_range(0x1004, 1, PFT_ICLASS_OTHER, 0));
	check(0, PFT_CALL_RETURN, 0, 0, 0x200c, 0x1004, 8);
	pft_calls_free(calls);
}

/* An indirect jump to where a call frame returns is a return to it; to
 * where an exception frame returns, it is not: that takes an exception
 * return. */
static void indirect_jumps_return_to_calls(void)
{
	irq_in_call(PFT_ICLASS_INDIRECT_JUMP);
	put(arm_range(0x2008, 1, PFT_ICLASS_INDIRECT_JUMP, 1));   /* the interrupted address */
	PTU_EQ(nev, 0);
	PTU_EQ(pft_calls_depth(calls), 2);
	put(arm_range(0x1004, 1, PFT_ICLASS_OTHER, 0));           /* where the call returns */
	PTU_EQ(nev, 2);
	check(0, PFT_CALL_EXCEPTION_RETURN, PFT_CALL_F_UNWOUND, 1, 0x2008, 0x1004, 5);
	check(1, PFT_CALL_RETURN, 0, 0, 0x2008, 0x1004, 5);
	PTU_EQ(pft_calls_depth(calls), 0);
	pft_calls_free(calls);
}

static void gaps_keep_the_stack(void)
{
	start(NULL, 0);
	put(arm_range(0x1000, 1, PFT_ICLASS_CALL, 1));   /* to 0x1004 */
	put(arm_range(0x2000, 1, PFT_ICLASS_INDIRECT_CALL, 1)); /* to 0x2004 */
	/* Into memory no image covers (a kernel helper), trace off, back on
	 * at the return address. */
	struct pft_elem nacc = elem(PFT_ELEM_ADDR_NACC);
	nacc.addr = 0xffff0fe0;
	put(nacc);
	check(0, PFT_CALL_CALL, 0, 2, 0x2000, 0xffff0fe0, 2);
	put(elem(PFT_ELEM_TRACE_ON));
	put(arm_range(0x2004, 1, PFT_ICLASS_CALL, 1));
	PTU_EQ(nev, 1);
	check(0, PFT_CALL_RETURN, PFT_CALL_F_UNTRACED, 1, 0, 0x2004, 2);
	/* A call whose destination a gap hides (no image: no target). */
	put(elem(PFT_ELEM_NO_SYNC));
	check(0, PFT_CALL_CALL, PFT_CALL_F_NO_TARGET, 2, 0x2004, 0, 3);
	/* After the gap, somewhere that is no return address: kept. */
	put(arm_range(0x7000, 1, PFT_ICLASS_OTHER, 0));
	PTU_EQ(nev, 0);
	PTU_EQ(pft_calls_depth(calls), 2);
	/* A return with its destination hidden by an error: nothing yet;
	 * the first range after it, at a return address, pops. */
	put(arm_range(0x7004, 1, PFT_ICLASS_RETURN, 1));
	struct pft_elem err = elem(PFT_ELEM_ERROR);
	put(err);
	PTU_EQ(nev, 0);
	put(arm_range(0x1004, 1, PFT_ICLASS_OTHER, 0));
	PTU_EQ(nev, 2);
	check(0, PFT_CALL_RETURN, PFT_CALL_F_UNTRACED | PFT_CALL_F_UNWOUND, 1, 0, 0x1004, 5);
	check(1, PFT_CALL_RETURN, PFT_CALL_F_UNTRACED, 0, 0, 0x1004, 5);
	pft_calls_free(calls);
}

static void time_and_depth_limit(void)
{
	start(NULL, 2);
	struct pft_elem ts = elem(PFT_ELEM_TIMESTAMP);
	ts.ts = 1234;
	put(ts);
	struct pft_elem r = arm_range(0x1000, 1, PFT_ICLASS_CALL, 1);
	r.has_cycles = 1;
	r.cycles = 7;
	put(r);
	r = arm_range(0x2000, 1, PFT_ICLASS_CALL, 1);
	r.has_cycles = 1;
	r.cycles = 5;
	put(r);
	PTU_EQ(ev[0].has_cycles, 1);
	PTU_EQ(ev[0].cycles, 7);
	PTU_EQ(ev[0].has_ts, 1);
	PTU_EQ(ev[0].ts, 1234);
	put(arm_range(0x3000, 1, PFT_ICLASS_CALL, 1));
	PTU_EQ(ev[0].cycles, 12);
	put(arm_range(0x4000, 1, PFT_ICLASS_RETURN, 1));
	/* The third push forgot the oldest frame: at most 2. */
	PTU_EQ(pft_calls_depth(calls), 2);
	put(arm_range(0x3004, 1, PFT_ICLASS_RETURN, 1));
	check(0, PFT_CALL_RETURN, 0, 1, 0x4000, 0x3004, 4);
	PTU_EQ(ev[0].caller, 0x3000);
	put(arm_range(0x2004, 1, PFT_ICLASS_RETURN, 1));
	check(0, PFT_CALL_RETURN, 0, 0, 0x3004, 0x2004, 5);
	/* The outermost function is still the first range's. */
	PTU_EQ(ev[0].caller, 0x1000);
	put(arm_range(0x1004, 1, PFT_ICLASS_OTHER, 0));  /* its frame was dropped */
	check(0, PFT_CALL_UNMATCHED_RETURN, 0, 0, 0x2004, 0x1004, 6);
	pft_calls_free(calls);
}

static void errors(void)
{
	struct pft_calls_config cfg = { .size = sizeof(cfg) };
	struct pft_elem e = arm_range(0x1000, 1, PFT_ICLASS_CALL, 1);
	struct pft_call_event x;
	int err = 0;

	PTU_CHECK(pft_calls_alloc(NULL, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	cfg.size = 4;
	PTU_CHECK(pft_calls_alloc(&cfg, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	start(NULL, 0);
	PTU_EQ(pft_calls_put(NULL, &e, sizeof(e)), -PFT_ERR_INVALID);
	PTU_EQ(pft_calls_put(calls, NULL, sizeof(e)), -PFT_ERR_INVALID);
	PTU_EQ(pft_calls_put(calls, &e, 4), -PFT_ERR_INVALID);
	e.type = PFT_ELEM_TYPE_MAX;
	PTU_EQ(pft_calls_put(calls, &e, sizeof(e)), -PFT_ERR_INVALID);
	e = arm_range(0x1000, 1, PFT_ICLASS_CALL, 1);
	PTU_EQ(pft_calls_put(calls, &e, sizeof(e)), 0);
	PTU_EQ(pft_calls_next(calls, &x, sizeof(x)), -PFT_ERR_NEED_INPUT);
	e = arm_range(0x2000, 1, PFT_ICLASS_OTHER, 0);
	PTU_EQ(pft_calls_put(calls, &e, sizeof(e)), 0);
	/* The CALL event is not taken. */
	PTU_EQ(pft_calls_put(calls, &e, sizeof(e)), -PFT_ERR_INVALID);
	PTU_EQ(pft_calls_finish(calls), -PFT_ERR_INVALID);
	PTU_EQ(pft_calls_next(NULL, &x, sizeof(x)), -PFT_ERR_INVALID);
	PTU_EQ(pft_calls_next(calls, NULL, sizeof(x)), -PFT_ERR_INVALID);
	PTU_EQ(pft_calls_next(calls, &x, 4), -PFT_ERR_INVALID);
	PTU_EQ(pft_calls_next(calls, &x, sizeof(x)), 0);
	PTU_EQ(pft_calls_finish(calls), 0);
	PTU_EQ(pft_calls_next(calls, &x, sizeof(x)), 0);   /* the END return */
	PTU_EQ(x.flags, PFT_CALL_F_END);
	PTU_EQ(pft_calls_next(calls, &x, sizeof(x)), -PFT_ERR_EOS);
	PTU_CHECK(pft_calls_next_in_place(calls) == NULL);
	PTU_CHECK(pft_calls_next_in_place(NULL) == NULL);
	PTU_EQ(pft_calls_finish(calls), -PFT_ERR_EOS);
	PTU_EQ(pft_calls_put(calls, &e, sizeof(e)), -PFT_ERR_EOS);
	PTU_EQ(pft_calls_finish(NULL), -PFT_ERR_INVALID);
	PTU_EQ(pft_calls_depth(NULL), 0);
	PTU_STREQ(pft_call_kind_name(PFT_CALL_TAIL_CALL), "tail_call");
	PTU_STREQ(pft_call_kind_name(PFT_CALL_KIND_MAX), "unknown");
	pft_calls_free(calls);
	pft_calls_free(NULL);
}

/* pft_calls_put_run() applies a run as pft_calls_put() does each of its
 * elements (the rules are checked by hand above): the same events, and
 * each call stops after the element that made some; pft_calls_put_all()
 * applies it whole, the same events queued (a leaf call's too, which it
 * takes without a frame).  The events taken in place
 * are the ones copied. */
static void runs_are_puts(void)
{
	struct pft_elem exc = elem(PFT_ELEM_EXCEPTION), ts = elem(PFT_ELEM_TIMESTAMP);
	exc.has_ret = 1;
	exc.addr = 0x1014;
	ts.ts = 77;
	const struct pft_elem run[] = {
		arm_range(0x1000, 2, PFT_ICLASS_CALL, 1),
		ts,
		arm_range(0x2000, 3, PFT_ICLASS_JUMP, 1),        /* a jump, no symbols */
		arm_range(0x2010, 1, PFT_ICLASS_RETURN, 1),
		arm_range(0x1008, 2, PFT_ICLASS_OTHER, 0),       /* RETURN */
		arm_range(0x1010, 1, PFT_ICLASS_INDIRECT_CALL, 1),
		elem(PFT_ELEM_TRACE_ON),                         /* CALL, no target */
		arm_range(0x1014, 1, PFT_ICLASS_OTHER, 0),       /* RETURN, untraced */
		exc,
		arm_range(0x18, 1, PFT_ICLASS_EXC_RETURN, 1),    /* EXCEPTION */
		arm_range(0x1014, 1, PFT_ICLASS_OTHER, 0),       /* EXCEPTION_RETURN */
		arm_range(0x1018, 5, PFT_ICLASS_CALL, 1),
		arm_range(0x3000, 2, PFT_ICLASS_RETURN, 1),      /* CALL: a leaf's, */
		arm_range(0x102c, 1, PFT_ICLASS_OTHER, 0),       /* RETURN at once */
	};
	const size_t n = sizeof(run) / sizeof(run[0]);
	struct pft_call_event one[16], whole[16], spare;
	size_t made[16], none = 0, k = 0;

	start(NULL, 0);
	for (size_t i = 0; i < n; i++) {
		put(run[i]);
		made[i] = nev;
		for (size_t j = 0; j < nev && none < 16; j++)
			one[none++] = ev[j];
	}
	pft_calls_free(calls);
	PTU_EQ(none, 8);
	start(NULL, 0);
	for (size_t i = 0; i < n;) {
		int got = pft_calls_put_run(calls, &run[i], n - i, sizeof(run[0]));
		PTU_CHECK(got >= 1 && (size_t)got <= n - i);
		if (got < 1)
			break;
		/* Only the last element applied made events, if any did. */
		for (size_t j = i; j + 1 < i + (size_t)got; j++)
			PTU_EQ(made[j], 0);
		i += (size_t)got;
		PTU_CHECK(made[i - 1] != 0 || i == n);
		/* Taken in place: the events pft_calls_next() copies. */
		for (const struct pft_call_event *p; k < 16 && (p = pft_calls_next_in_place(calls));)
			whole[k++] = *p;
		PTU_EQ(pft_calls_next(calls, &spare, sizeof(spare)), -PFT_ERR_NEED_INPUT);
	}
	PTU_EQ(k, none);
	PTU_EQ(memcmp(one, whole, none * sizeof(one[0])), 0);

	/* pft_calls_put_all(): the whole run in one call, the same events
	 * queued in the same order; the next put waits until all are taken. */
	pft_calls_free(calls);
	start(NULL, 0);
	PTU_EQ(pft_calls_put_all(calls, run, n, sizeof(run[0])), (int)n);
	PTU_EQ(pft_calls_put_all(calls, run, 1, sizeof(run[0])), -PFT_ERR_INVALID);
	memset(whole, 0, sizeof(whole));
	k = 0;
	for (const struct pft_call_event *p; k < 16 && (p = pft_calls_next_in_place(calls));)
		whole[k++] = *p;
	PTU_EQ(k, none);
	PTU_EQ(memcmp(one, whole, none * sizeof(one[0])), 0);
	pft_calls_free(calls);
	start(NULL, 0);

	/* Errors: none applied; a later element of unknown type ends the run. */
	struct pft_elem bad[2] = { arm_range(0x1000, 1, PFT_ICLASS_OTHER, 0),
				   elem(PFT_ELEM_TYPE_MAX) };
	int (*const puts[2])(struct pft_calls *, const struct pft_elem *, size_t, size_t) = {
		pft_calls_put_run, pft_calls_put_all
	};
	for (size_t f = 0; f < 2; f++) {
		PTU_EQ(puts[f](NULL, bad, 1, sizeof(bad[0])), -PFT_ERR_INVALID);
		PTU_EQ(puts[f](calls, NULL, 1, sizeof(bad[0])), -PFT_ERR_INVALID);
		PTU_EQ(puts[f](calls, bad, 0, sizeof(bad[0])), -PFT_ERR_INVALID);
		PTU_EQ(puts[f](calls, bad, 1, 4), -PFT_ERR_INVALID);
		PTU_EQ(puts[f](calls, &bad[1], 1, sizeof(bad[0])), -PFT_ERR_INVALID);
		PTU_EQ(puts[f](calls, bad, 2, sizeof(bad[0])), 1);
	}
	PTU_EQ(pft_calls_depth(calls), 0);
	PTU_EQ(pft_calls_finish(calls), 0);
	PTU_EQ(pft_calls_put_run(calls, bad, 1, sizeof(bad[0])), -PFT_ERR_EOS);
	PTU_EQ(pft_calls_put_all(calls, bad, 1, sizeof(bad[0])), -PFT_ERR_EOS);
	pft_calls_free(calls);
}

/* With calls_sample.S's symbols: tail calls, jumps inside a function,
 * direct targets read from the image across a gap, and a longjmp into
 * the middle of a function. */
static char elf[] = "/tmp/pft-test-calls-XXXXXX";

static void with_symbols(void)
{
	struct pft_image *img = pft_image_alloc(NULL);

	PTU_CHECK(pft_image_add_elf(img, elf, 0) >= 1);
	start(img, 0);
	put(arm_range(0x8000, 1, PFT_ICLASS_CALL, 1));       /* _start: bl fa */
	put(arm_range(0x8100, 1, PFT_ICLASS_CALL, 1));       /* fa: bl fb */
	check(0, PFT_CALL_CALL, 0, 1, 0x8000, 0x8100, 1);
	PTU_EQ(ev[0].caller, 0x8000);
	put(arm_range(0x8200, 1, PFT_ICLASS_RETURN, 1));
	put(arm_range(0x8104, 1, PFT_ICLASS_JUMP, 1));       /* b fc */
	check(0, PFT_CALL_RETURN, 0, 1, 0x8200, 0x8104, 3);
	put(arm_range(0x8300, 1, PFT_ICLASS_CALL, 1));       /* fc: bl fb */
	check(0, PFT_CALL_TAIL_CALL, 0, 1, 0x8104, 0x8300, 4);
	PTU_EQ(ev[0].callee, 0x8300);
	PTU_EQ(ev[0].caller, 0x8100);
	/* The call's destination is hidden by a gap: the image gives it. */
	put(elem(PFT_ELEM_TRACE_ON));
	check(0, PFT_CALL_CALL, 0, 2, 0x8300, 0x8200, 5);
	/* fb returns to 0x8004, fa's return address: fb's frame is skipped. */
	put(arm_range(0x8200, 1, PFT_ICLASS_RETURN, 1));
	put(arm_range(0x8004, 1, PFT_ICLASS_JUMP, 1));
	PTU_EQ(nev, 2);
	check(0, PFT_CALL_RETURN, PFT_CALL_F_UNWOUND, 1, 0x8200, 0x8004, 6);
	PTU_EQ(ev[0].callee, 0x8200);
	check(1, PFT_CALL_RETURN, 0, 0, 0x8200, 0x8004, 6);
	PTU_EQ(ev[1].callee, 0x8300);   /* fc, which replaced fa */
	PTU_EQ(ev[1].entry_insns, 4);   /* from the tail call */
	/* b . : a jump inside _start is no tail call. */
	put(arm_range(0x8004, 1, PFT_ICLASS_JUMP, 1));
	PTU_EQ(nev, 0);
	/* A jump to fa + 4 from _start is no tail call (not an entry). */
	put(arm_range(0x8104, 1, PFT_ICLASS_OTHER, 0));
	PTU_EQ(nev, 0);
	PTU_EQ(pft_calls_depth(calls), 0);
	/* A longjmp from fb into the middle of fa (0x810c is no return
	 * address): fb's frame goes, fa's stays. */
	put(arm_range(0x8000, 1, PFT_ICLASS_CALL, 1));
	put(arm_range(0x8100, 1, PFT_ICLASS_CALL, 1));
	put(arm_range(0x8200, 1, PFT_ICLASS_INDIRECT_JUMP, 1));
	PTU_EQ(pft_calls_depth(calls), 2);
	put(arm_range(0x810c, 1, PFT_ICLASS_RETURN, 1));
	PTU_EQ(nev, 0);   /* an indirect jump that matches no return address */
	put(arm_range(0x8004, 1, PFT_ICLASS_OTHER, 0));
	PTU_EQ(nev, 2);   /* fa returns, skipping fb's return */
	check(0, PFT_CALL_RETURN, PFT_CALL_F_UNWOUND, 1, 0x810c, 0x8004, 13);
	check(1, PFT_CALL_RETURN, 0, 0, 0x810c, 0x8004, 13);
	PTU_EQ(pft_calls_depth(calls), 0);
	put(arm_range(0x8000, 1, PFT_ICLASS_CALL, 1));
	put(arm_range(0x8100, 1, PFT_ICLASS_CALL, 1));
	put(arm_range(0x8200, 1, PFT_ICLASS_RETURN, 1));
	put(arm_range(0x810c, 1, PFT_ICLASS_OTHER, 0));
	PTU_EQ(nev, 1);
	check(0, PFT_CALL_RETURN, PFT_CALL_F_UNWOUND, 1, 0x8200, 0x810c, 17);
	PTU_EQ(pft_calls_depth(calls), 1);
	pft_calls_free(calls);
	pft_image_free(img);
}

/* Longjmps far below the top: the functions of the frames below the few
 * top ones come from the set of functions, which follows a tail call of
 * a frame in it. */
static void deep_longjmps(void)
{
	struct pft_image *img = pft_image_alloc(NULL);

	PTU_CHECK(pft_image_add_elf(img, elf, 0) >= 1);
	start(img, 0);
	put(arm_range(0x8000, 1, PFT_ICLASS_CALL, 1));       /* _start -> fa */
	put(arm_range(0x8100, 1, PFT_ICLASS_CALL, 1));       /* fa -> fb */
	nest(0x8200, 0, 13, 0x8200);                          /* fb -> fb, 13 times */
	PTU_EQ(pft_calls_depth(calls), 15);
	/* Into the middle of fa (no return address): frame 1's. */
	put(arm_range(0x810c, 1, PFT_ICLASS_OTHER, 0));
	PTU_EQ(nev, 14);
	check(0, PFT_CALL_RETURN, PFT_CALL_F_UNWOUND, 14, 0x8200, 0x810c, 16);
	check(13, PFT_CALL_RETURN, PFT_CALL_F_UNWOUND, 1, 0x8200, 0x810c, 16);
	PTU_EQ(ev[13].callee, 0x8200);
	PTU_EQ(ev[13].caller, 0x8100);
	PTU_EQ(pft_calls_depth(calls), 1);
	/* fa tail-calls fc (b fc at 0x8104), fc calls fb, fb recurses ten
	 * times and jumps back to fc's entry: fc is frame 1's function now. */
	put(arm_range(0x8104, 1, PFT_ICLASS_JUMP, 1));
	put(arm_range(0x8300, 1, PFT_ICLASS_CALL, 1));
	check(0, PFT_CALL_TAIL_CALL, 0, 1, 0x8104, 0x8300, 18);
	nest(0x8200, 0, 10, 0x8200);
	PTU_EQ(pft_calls_depth(calls), 12);
	put(arm_range(0x8300, 1, PFT_ICLASS_OTHER, 0));
	PTU_EQ(nev, 11);
	check(10, PFT_CALL_RETURN, PFT_CALL_F_UNWOUND, 1, 0x8200, 0x8300, 30);
	PTU_EQ(ev[10].caller, 0x8300);
	PTU_EQ(pft_calls_depth(calls), 1);
	/* fa ran no frame since: a jump into it is a return of no frame. */
	put(arm_range(0x8200, 1, PFT_ICLASS_RETURN, 1));
	put(arm_range(0x810c, 1, PFT_ICLASS_OTHER, 0));
	PTU_EQ(nev, 1);
	check(0, PFT_CALL_UNMATCHED_RETURN, 0, 1, 0x8200, 0x810c, 32);
	pft_calls_free(calls);
	pft_image_free(img);
}

int main(void)
{
	PTU_RUN(call_and_return);
	PTU_RUN(underflow_is_unmatched);
	PTU_RUN(longjmp_unwinds);
	PTU_RUN(deep_returns);
	PTU_RUN(exceptions_nest);
	PTU_RUN(indirect_jumps_return_to_calls);
	PTU_RUN(gaps_keep_the_stack);
	PTU_RUN(time_and_depth_limit);
	PTU_RUN(errors);
	PTU_RUN(runs_are_puts);
	if (build_calls_sample(elf) == 0) {
		PTU_RUN(with_symbols);
		PTU_RUN(deep_longjmps);
	} else {
		ptu_failed_checks++;
		ptu_tests_failed++;
	}
	unlink(elf);
	PTU_MAIN_END();
}
