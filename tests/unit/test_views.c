/* The views accumulator and the timeline on a hand-built trace through
 * tests/views/calls_sample.S (symbols _start 0x8000, fa 0x8100, fb 0x8200,
 * fc 0x8300).  Every expected figure is worked out by hand below. */
#include "ptunit.h"

#include "pft.h"

#include "calls_sample.h"

static char elf[] = "/tmp/pft-test-views-XXXXXX";

struct buffer {
	char text[16384];
	size_t len;
	int fail_after;   /* return an error on this call (0: never) */
	int calls;
};

static int to_buffer(void *ctx, const char *buf, size_t len)
{
	struct buffer *b = ctx;

	if (++b->calls == b->fail_after)
		return -77;
	if (b->len + len >= sizeof(b->text))
		return -1;
	memcpy(b->text + b->len, buf, len);
	b->len += len;
	b->text[b->len] = 0;
	return 0;
}

/* _start calls fa; fa calls fb, which returns; fa tail-calls fc; fc calls
 * fb, which returns; fc returns to _start, which spins at 0x8004 (b .).
 * One instruction per range: 8 instructions. */
static const struct {
	uint32_t start;
	unsigned iclass;
} trace[] = {
	{ 0x8000, PFT_ICLASS_CALL },   /* _start: bl fa */
	{ 0x8100, PFT_ICLASS_CALL },   /* fa: bl fb */
	{ 0x8200, PFT_ICLASS_RETURN }, /* fb: bx lr */
	{ 0x8104, PFT_ICLASS_JUMP },   /* fa: b fc */
	{ 0x8300, PFT_ICLASS_CALL },   /* fc: bl fb */
	{ 0x8200, PFT_ICLASS_RETURN }, /* fb */
	{ 0x8304, PFT_ICLASS_RETURN }, /* fc: bx lr to 0x8004 */
	{ 0x8004, PFT_ICLASS_JUMP },   /* _start: b . */
};

/* The trace, 3 cycles an instruction, through a views accumulator whose
 * calls stack holds @max_depth frames (0: the default). */
static struct pft_views *run_trace(struct pft_image *img, uint32_t max_depth)
{
	struct pft_views_config cfg = { .size = sizeof(cfg), .image = img,
					.max_depth = max_depth };
	struct pft_views *v = pft_views_alloc(&cfg, NULL);

	PTU_CHECK(v != NULL);
	for (size_t i = 0; v && i < sizeof(trace) / sizeof(trace[0]); i++) {
		struct pft_elem e = arm_range(trace[i].start, 1, trace[i].iclass, 1);
		e.has_cycles = 1;
		e.cycles = 3;
		PTU_EQ(pft_views_put(v, 5, &e, sizeof(e)), 0);
	}
	PTU_EQ(pft_views_finish(v), 0);
	return v;
}

static void function(struct pft_views *v, const char *name, uint64_t entered,
		     uint64_t self, uint64_t incl)
{
	struct pft_view_func f;

	for (size_t i = 0; pft_views_function(v, i, &f, sizeof(f)) == 0; i++) {
		if (strcmp(f.name, name))
			continue;
		PTU_EQ(f.entered, entered);
		PTU_EQ(f.self_insns, self);
		PTU_EQ(f.incl_insns, incl);
		PTU_EQ(f.self_cycles, 3 * self);
		return;
	}
	fprintf(stderr, "no function %s\n", name);
	PTU_CHECK(0);
}

static void profile_by_hand(void)
{
	struct pft_image *img = pft_image_alloc(NULL);
	struct buffer out = { .len = 0 };

	PTU_CHECK(pft_image_add_elf(img, elf, 0) >= 1);
	struct pft_views *v = run_trace(img, 0);
	/* Self: two instructions each.  Entered: fa by the call, fc by the
	 * tail call, fb twice.  Inclusive: fa = fa 2 + fb 1 (before the tail
	 * call), fc = fc 2 + fb 1, _start everything. */
	function(v, "_start", 0, 2, 8);
	function(v, "fa", 1, 2, 3);
	function(v, "fb", 2, 2, 2);
	function(v, "fc", 1, 2, 3);

	PTU_EQ(pft_views_write(v, PFT_VIEW_FOLDED, NULL, to_buffer, &out), 0);
	PTU_STREQ(out.text, "_start 2\n_start;fa 2\n_start;fa;fb 1\n_start;fc 2\n_start;fc;fb 1\n");

	/* Callgrind: each instruction once (no DWARF: line 0), each call on
	 * its call site with the instructions from call to return: _start ->
	 * fa from the call (after 1) to the tail call (after 4): 3; fa -> fb
	 * 1; fa -> fc from the tail call at 0x8104 to the return (after 7):
	 * 3; fc -> fb 1.  The call's target position is the callee's entry. */
	out.len = 0;
	PTU_EQ(pft_views_write(v, PFT_VIEW_CALLGRIND, NULL, to_buffer, &out), 0);
	PTU_CHECK(strstr(out.text, "positions: instr line\nevents: Ir\nsummary: 8\n") != NULL);
	PTU_CHECK(strstr(out.text, "fl=???\nfn=_start\n0x8000 0 1\ncfl=???\ncfn=fa\n"
			 "calls=1 0x8100 0\n0x8000 0 3\n0x8004 0 1\n") != NULL);
	PTU_CHECK(strstr(out.text, "fn=fa\n0x8100 0 1\ncfl=???\ncfn=fb\ncalls=1 0x8200 0\n"
			 "0x8100 0 1\n0x8104 0 1\ncfl=???\ncfn=fc\ncalls=1 0x8300 0\n"
			 "0x8104 0 3\n") != NULL);
	PTU_CHECK(strstr(out.text, "fn=fc\n0x8300 0 1\ncfl=???\ncfn=fb\ncalls=1 0x8200 0\n"
			 "0x8300 0 1\n0x8304 0 1\n") != NULL);
	PTU_CHECK(strstr(out.text, "totals: 8\n") != NULL);

	/* Per call, in cycles: fc tail-called after 4 returns after 7, 9
	 * cycles, 6 of them its own; its call of fb 3. */
	out.len = 0;
	PTU_EQ(pft_views_write(v, PFT_VIEW_PROFILE_JSONL, NULL, to_buffer, &out), 0);
	PTU_CHECK(strstr(out.text, "{\"type\":\"function\",\"name\":\"fc\",\"start\":\"0x00008300\","
			 "\"self\":2,\"inclusive\":3,\"entered\":1,\"cycles\":6,\"returned\":1,"
			 "\"incl_min\":9,\"incl_max\":9,\"incl_avg\":9.00,\"self_min\":6,"
			 "\"self_max\":6,\"self_avg\":6.00,\"len_unit\":\"cycles\"}\n") != NULL);
	PTU_CHECK(strstr(out.text, "{\"type\":\"call\",\"caller\":\"fc\",\"callee\":\"fb\","
			 "\"calls\":1,\"inclusive\":1,\"returned\":1,\"incl_min\":3,"
			 "\"incl_max\":3,\"incl_avg\":3.00,\"self_min\":3,\"self_max\":3,"
			 "\"self_avg\":3.00,\"len_unit\":\"cycles\"}\n") != NULL);

	/* No line tables: lcov is refused (an empty tracefile would say no
	 * line ran), nothing written; coverage lists the functions. */
	out.len = 0;
	PTU_EQ(pft_views_write(v, PFT_VIEW_LCOV, "t", to_buffer, &out), -PFT_ERR_NOT_FOUND);
	PTU_EQ(out.len, 0);
	PTU_EQ(pft_views_write(v, PFT_VIEW_COVERAGE_JSONL, NULL, to_buffer, &out), 0);
	PTU_CHECK(strstr(out.text, "{\"type\":\"function\",\"name\":\"fb\",\"start\":\"0x00008200\","
			 "\"end\":\"0x00008204\",\"entered\":2,\"insns\":2}\n") != NULL);
	out.len = 0;
	PTU_EQ(pft_views_write(v, PFT_VIEW_COVERAGE_TEXT, NULL, to_buffer, &out), 0);
	PTU_CHECK(strstr(out.text, "functions: 4 of 4 executed\n") != NULL);
	PTU_EQ(pft_views_write(v, PFT_VIEW_PROFILE_TEXT, NULL, to_buffer, &out), 0);

	/* A writer's error comes back. */
	out = (struct buffer){ .fail_after = 1 };
	PTU_EQ(pft_views_write(v, PFT_VIEW_CALLGRIND, NULL, to_buffer, &out), -77);
	pft_views_free(v);
	pft_image_free(img);
}

/* The same trace in runs (pft_views_put_run()): whole, and cut where a
 * call's events come in the middle of a run; the same figures. */
static void profile_in_runs(void)
{
	struct pft_image *img = pft_image_alloc(NULL);
	struct pft_elem e[sizeof(trace) / sizeof(trace[0])];
	const size_t n = sizeof(e) / sizeof(e[0]);

	PTU_CHECK(pft_image_add_elf(img, elf, 0) >= 1);
	for (size_t i = 0; i < n; i++) {
		e[i] = arm_range(trace[i].start, 1, trace[i].iclass, 1);
		e[i].has_cycles = 1;
		e[i].cycles = 3;
	}
	for (size_t cut = 0; cut < 4; cut += 3) {
		struct pft_views_config cfg = { .size = sizeof(cfg), .image = img };
		struct pft_views *v = pft_views_alloc(&cfg, NULL);
		PTU_CHECK(v != NULL);
		if (!v)
			break;
		if (cut)
			PTU_EQ(pft_views_put_run(v, 5, e, cut, sizeof(e[0])), 0);
		PTU_EQ(pft_views_put_run(v, 5, &e[cut], n - cut, sizeof(e[0])), 0);
		PTU_EQ(pft_views_finish(v), 0);
		function(v, "_start", 0, 2, 8);
		function(v, "fa", 1, 2, 3);
		function(v, "fb", 2, 2, 2);
		function(v, "fc", 1, 2, 3);
		pft_views_free(v);
	}
	pft_image_free(img);
}

/* The same trace with a stack of one frame: fa's call frame is forgotten
 * when fa calls fb.  The outermost frame stays _start's: fb is _start's
 * callee, its return goes back to _start's frame, where the code of fa
 * after it and fc (tail-called from there) are contexts of their own; the
 * return to 0x8004 (fa's frame, gone) matches no frame. */
static void profile_depth_limit(void)
{
	struct pft_image *img = pft_image_alloc(NULL);
	struct buffer out = { .len = 0 };

	PTU_CHECK(pft_image_add_elf(img, elf, 0) >= 1);
	struct pft_views *v = run_trace(img, 1);
	if (v) {
		PTU_EQ(pft_views_write(v, PFT_VIEW_FOLDED, NULL, to_buffer, &out), 0);
		PTU_STREQ(out.text, "_start 2\n_start;fa 1\n_start;fb 1\nfa 1\nfc 2\nfc;fb 1\n");
	}
	pft_views_free(v);
	pft_image_free(img);
}

/* Function @name's self instructions and cycles after @v's finish. */
static void self_of(struct pft_views *v, const char *name, uint64_t insns, uint64_t cycles)
{
	struct pft_view_func f;
	size_t i = 0;

	while (pft_views_function(v, i, &f, sizeof(f)) == 0 && strcmp(f.name, name))
		i++;
	PTU_STREQ(f.name, name);
	PTU_EQ(f.self_insns, insns);
	PTU_EQ(f.self_cycles, cycles);
}

/* A range from fa + 8 through fb and past it runs through four pieces:
 * fa 0x8108..0x810c (2 instructions), none 0x8110..0x81fc (60, the zeros
 * .org fills in decode as ANDEQ), fb 0x8200 (1), none 0x8204..0x820c
 * (3); its cycles go with its last instruction.  Twice: split once,
 * counted from the pieces the second time. */
static void range_through_functions(void)
{
	struct pft_image *img = pft_image_alloc(NULL);
	struct pft_views_config cfg = { .size = sizeof(cfg), .image = img };
	struct pft_elem e = arm_range(0x8108, 66, PFT_ICLASS_OTHER, 0);
	struct buffer out = { .len = 0 };

	PTU_CHECK(pft_image_add_elf(img, elf, 0) >= 1);
	struct pft_views *v = pft_views_alloc(&cfg, NULL);
	PTU_CHECK(v != NULL);
	e.has_cycles = 1;
	e.cycles = 5;
	PTU_EQ(pft_views_put(v, 0, &e, sizeof(e)), 0);
	PTU_EQ(pft_views_put(v, 0, &e, sizeof(e)), 0);
	PTU_EQ(pft_views_finish(v), 0);
	self_of(v, "fa", 4, 0);
	self_of(v, "fb", 2, 0);
	self_of(v, "[unknown]", 126, 10);
	/* The outermost frame moved from function to function. */
	PTU_EQ(pft_views_write(v, PFT_VIEW_FOLDED, NULL, to_buffer, &out), 0);
	PTU_STREQ(out.text, "fa 4\n[unknown] 126\nfb 2\n");
	pft_views_free(v);
	pft_image_free(img);
}

/* A range through more pieces than are kept (VSEG_MAX, 8): ten
 * functions f0..f9 listed 8 bytes apart from 0x10000 (each two
 * instructions, f9, the last listed, 4 bytes: one), then none; the image
 * holds 22 zero words (ANDEQ) and the range runs through them: f0..f8 2
 * each, f9 1, [unknown] 3 with the cycles.  Twice: counted instruction by
 * instruction both times. */
static void range_through_many_functions(void)
{
	static const uint8_t zeros[22 * 4];
	char map[] = "/tmp/pft-test-views-map-XXXXXX";
	int fd = mkstemp(map);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	struct pft_image *img = pft_image_alloc(NULL);
	struct pft_views_config cfg = { .size = sizeof(cfg), .image = img };
	struct pft_elem e = arm_range(0x10000, 22, PFT_ICLASS_OTHER, 0);
	char name[8];

	PTU_CHECK(f != NULL);
	if (!f)
		return;
	for (int i = 0; i < 10; i++)
		fprintf(f, "%08x T f%d\n", 0x10000 + 8 * i, i);
	fclose(f);
	PTU_EQ(pft_image_add_buffer(img, 0x10000, zeros, sizeof(zeros), PFT_SPACE_ANY, 0), 0);
	PTU_EQ(pft_image_add_symbols(img, map, 0, NULL), 10);
	unlink(map);
	struct pft_views *v = pft_views_alloc(&cfg, NULL);
	PTU_CHECK(v != NULL);
	e.has_cycles = 1;
	e.cycles = 7;
	PTU_EQ(pft_views_put(v, 0, &e, sizeof(e)), 0);
	PTU_EQ(pft_views_put(v, 0, &e, sizeof(e)), 0);
	PTU_EQ(pft_views_finish(v), 0);
	for (int i = 0; i < 9; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		self_of(v, name, 4, 0);
	}
	self_of(v, "f9", 2, 0);
	self_of(v, "[unknown]", 6, 14);
	pft_views_free(v);
	pft_image_free(img);
}

/* The trace of run_trace() on sources 5 and 6, which read images @a and
 * @b; each function named @name must appear @copies times, each with
 * @entered entries and @self instructions. */
static void two_sources(struct pft_image *a, struct pft_image *b, const char *name,
			size_t copies, uint64_t entered, uint64_t self)
{
	struct pft_views_config cfg = { .size = sizeof(cfg), .image = a };
	struct pft_views *v = pft_views_alloc(&cfg, NULL);
	struct pft_view_func f;
	size_t seen = 0;

	PTU_EQ(pft_views_set_image(v, 5, a), 0);
	PTU_EQ(pft_views_set_image(v, 6, b), 0);
	PTU_EQ(pft_views_set_image(v, 6, b), -PFT_ERR_INVALID);   /* used already */
	for (unsigned source = 5; source <= 6; source++)
		for (size_t i = 0; i < sizeof(trace) / sizeof(trace[0]); i++) {
			struct pft_elem e = arm_range(trace[i].start, 1, trace[i].iclass, 1);
			PTU_EQ(pft_views_put(v, source, &e, sizeof(e)), 0);
		}
	PTU_EQ(pft_views_finish(v), 0);
	for (size_t i = 0; pft_views_function(v, i, &f, sizeof(f)) == 0; i++) {
		if (strcmp(f.name, name))
			continue;
		seen++;
		PTU_EQ(f.entered, entered);
		PTU_EQ(f.self_insns, self);
	}
	PTU_EQ(seen, copies);
	PTU_EQ(pft_views_set_image(v, 7, a), -PFT_ERR_EOS);
	pft_views_free(v);
}

static void images_per_source(void)
{
	struct pft_image *a = pft_image_alloc(NULL), *b = pft_image_alloc(NULL);

	PTU_CHECK(pft_image_add_elf(a, elf, 0) >= 1);
	PTU_CHECK(pft_image_add_elf(b, elf, 0) >= 1);
	/* Two images (two cores' memories, alike here): each its own fa and
	 * fb, counted as one run (fa entered once, fb twice; two
	 * instructions each). */
	two_sources(a, b, "fa", 2, 1, 2);
	two_sources(a, b, "fb", 2, 2, 2);
	/* One image read by both sources: one fb with both runs' counts. */
	two_sources(a, a, "fb", 1, 4, 4);
	PTU_EQ(pft_views_set_image(NULL, 0, a), -PFT_ERR_INVALID);
	pft_image_free(a);
	pft_image_free(b);
}

static void conditional_branches(void)
{
	/* ARM words at 0x1000: cmp r0, #0; beq 0x1010; mov r0, #1; bx lr. */
	static const uint8_t code[] = {
		0x00, 0x00, 0x50, 0xe3, 0x02, 0x00, 0x00, 0x0a,
		0x01, 0x00, 0xa0, 0xe3, 0x1e, 0xff, 0x2f, 0xe1,
	};
	struct pft_image *img = pft_image_alloc(NULL);
	struct pft_views_config cfg = { .size = sizeof(cfg), .image = img };
	struct buffer out = { .len = 0 };

	PTU_EQ(pft_image_add_buffer(img, 0x1000, code, sizeof(code), PFT_SPACE_ANY, 0), 0);
	struct pft_views *v = pft_views_alloc(&cfg, NULL);
	/* The BEQ taken twice, not taken once. */
	struct pft_elem taken = arm_range(0x1000, 2, PFT_ICLASS_JUMP, 1);
	struct pft_elem not_taken = arm_range(0x1000, 2, PFT_ICLASS_JUMP, 0);
	PTU_EQ(pft_views_put(v, 0, &taken, sizeof(taken)), 0);
	PTU_EQ(pft_views_put(v, 0, &not_taken, sizeof(not_taken)), 0);
	PTU_EQ(pft_views_put(v, 0, &taken, sizeof(taken)), 0);
	PTU_EQ(pft_views_finish(v), 0);
	PTU_EQ(pft_views_write(v, PFT_VIEW_COVERAGE_JSONL, NULL, to_buffer, &out), 0);
	PTU_CHECK(strstr(out.text, "{\"type\":\"branch\",\"addr\":\"0x00001004\",\"taken\":2,"
			 "\"not_taken\":1,\"state\":\"both\"}\n") != NULL);
	/* Code in no function. */
	PTU_CHECK(strstr(out.text, "\"name\":\"[unknown]\"") != NULL);
	pft_views_free(v);
	pft_image_free(img);
}

/* The tracker's events so far into timeline @t. */
static void events_into(struct pft_calls *calls, struct pft_timeline *t)
{
	struct pft_call_event ev;

	while (pft_calls_next(calls, &ev, sizeof(ev)) == 0)
		PTU_EQ(pft_timeline_put(t, &ev, sizeof(ev)), 0);
}

/* The trace through @calls an element at a time, each put's events into
 * timeline @t. */
static void trace_into(struct pft_calls *calls, struct pft_timeline *t)
{
	for (size_t i = 0; i < sizeof(trace) / sizeof(trace[0]); i++) {
		struct pft_elem e = arm_range(trace[i].start, 1, trace[i].iclass, 1);
		PTU_EQ(pft_calls_put(calls, &e, sizeof(e)), 0);
		events_into(calls, t);
	}
}

static void timeline_spans(void)
{
	struct pft_image *img = pft_image_alloc(NULL);
	struct pft_calls_config cc = { .size = sizeof(cc) };
	struct buffer out = { .len = 0 };

	PTU_CHECK(pft_image_add_elf(img, elf, 0) >= 1);
	cc.image = img;
	struct pft_calls *calls = pft_calls_alloc(&cc, NULL);
	struct pft_timeline_config tc = { .size = sizeof(tc), .write = to_buffer, .ctx = &out,
					  .image = img, .tid = 3, .hz = 2000000,
					  .track_name = "a\"b\\c\n" };
	PTU_EQ(pft_timeline_begin(to_buffer, &out), 0);
	struct pft_timeline *t = pft_timeline_alloc(&tc, NULL);
	PTU_CHECK(t != NULL);
	trace_into(calls, t);
	/* Buffered until flushed. */
	PTU_CHECK(strstr(out.text, "\"ph\":\"B\"") == NULL);
	PTU_EQ(pft_timeline_flush(t), 0);
	PTU_EQ(pft_timeline_end(to_buffer, &out), 0);
	/* The track name, JSON-escaped. */
	PTU_CHECK(strstr(out.text, "\"args\":{\"name\":\"a\\\"b\\\\c\\u000a\"}") != NULL);
	/* 2 MHz: one instruction count is 0.5 us.  fa begins after 1, ends
	 * at the tail call after 4 where fc begins; fb after 2 .. 3. */
	PTU_CHECK(strstr(out.text, "{\"ph\":\"B\",\"pid\":1,\"tid\":3,\"ts\":0.500,\"name\":\"fa\","
			 "\"args\":{\"depth\":1,\"site\":\"0x00008000\",\"entry\":\"0x00008100\"}}") != NULL);
	PTU_CHECK(strstr(out.text, "{\"ph\":\"E\",\"pid\":1,\"tid\":3,\"ts\":2.000}") != NULL);
	PTU_CHECK(strstr(out.text, "{\"ph\":\"B\",\"pid\":1,\"tid\":3,\"ts\":2.000,\"name\":\"fc\"") != NULL);
	PTU_EQ(pft_timeline_put(NULL, NULL, 0), -PFT_ERR_INVALID);
	PTU_EQ(pft_timeline_flush(NULL), -PFT_ERR_INVALID);
	PTU_EQ(pft_timeline_begin(NULL, NULL), -PFT_ERR_INVALID);
	tc.clock = 9;
	int err = 0;
	PTU_CHECK(pft_timeline_alloc(&tc, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	pft_timeline_free(t);
	pft_timeline_free(NULL);
	pft_calls_free(calls);
	pft_image_free(img);
}

/* The trace through pft_timeline_put_run() in runs of @per (elements
 * @stride bytes apart) into *@out. */
static void timeline_in_runs(struct pft_image *img, size_t per, struct buffer *out)
{
	struct pft_calls_config cc = { .size = sizeof(cc), .image = img };
	struct pft_calls *calls = pft_calls_alloc(&cc, NULL);
	struct pft_timeline_config tc = { .size = sizeof(tc), .write = to_buffer, .ctx = out,
					  .image = img, .tid = 3 };
	struct pft_timeline *t = pft_timeline_alloc(&tc, NULL);
	/* Every element twice as far apart as a struct pft_elem. */
	struct pft_elem run[2 * sizeof(trace) / sizeof(trace[0])];
	size_t n = sizeof(trace) / sizeof(trace[0]);

	for (size_t i = 0; i < n; i++)
		run[2 * i] = arm_range(trace[i].start, 1, trace[i].iclass, 1);
	for (size_t i = 0; i < n; i += per)
		PTU_EQ(pft_timeline_put_run(t, calls, &run[2 * i], i + per > n ? n - i : per,
					    2 * sizeof(run[0])), 0);
	PTU_EQ(pft_calls_finish(calls), 0);
	events_into(calls, t);
	PTU_EQ(pft_timeline_flush(t), 0);
	pft_timeline_free(t);
	pft_calls_free(calls);
}

/* pft_timeline_put_run() writes what the tracker's events one by one do. */
static void timeline_runs(void)
{
	struct pft_image *img = pft_image_alloc(NULL);
	struct pft_calls_config cc = { .size = sizeof(cc) };
	struct buffer one = { .len = 0 };

	PTU_CHECK(pft_image_add_elf(img, elf, 0) >= 1);
	cc.image = img;
	struct pft_calls *calls = pft_calls_alloc(&cc, NULL);
	struct pft_timeline_config tc = { .size = sizeof(tc), .write = to_buffer, .ctx = &one,
					  .image = img, .tid = 3 };
	struct pft_timeline *t = pft_timeline_alloc(&tc, NULL);
	trace_into(calls, t);
	PTU_EQ(pft_calls_finish(calls), 0);
	events_into(calls, t);
	PTU_EQ(pft_timeline_flush(t), 0);
	/* fb's two spans, fc's after the tail call, every span ended. */
	PTU_CHECK(strstr(one.text, "\"ts\":2,\"name\":\"fb\"") != NULL);
	PTU_CHECK(strstr(one.text, "\"ts\":4,\"name\":\"fc\"") != NULL);
	for (size_t per = 1; per <= 8; per++) {
		struct buffer runs = { .len = 0 };
		timeline_in_runs(img, per, &runs);
		PTU_CHECK(strcmp(runs.text, one.text) == 0);
	}

	/* A run stops before an element of unknown type, which it refuses. */
	struct pft_elem bad[3] = { arm_range(0x8000, 1, PFT_ICLASS_CALL, 1),
				   { .type = PFT_ELEM_TYPE_MAX },
				   arm_range(0x8100, 1, PFT_ICLASS_OTHER, 0) };
	struct pft_calls *c2 = pft_calls_alloc(&cc, NULL);
	PTU_EQ(pft_timeline_put_run(t, c2, bad, 3, sizeof(bad[0])), -PFT_ERR_INVALID);
	PTU_EQ(pft_calls_depth(c2), 0);   /* the call waits for its destination */
	PTU_EQ(pft_timeline_put_run(t, c2, &bad[2], 1, sizeof(bad[0])), 0);
	PTU_EQ(pft_calls_depth(c2), 1);
	PTU_EQ(pft_timeline_put_run(NULL, c2, bad, 1, sizeof(bad[0])), -PFT_ERR_INVALID);
	PTU_EQ(pft_timeline_put_run(t, NULL, bad, 1, sizeof(bad[0])), -PFT_ERR_INVALID);
	PTU_EQ(pft_timeline_put_run(t, c2, NULL, 1, sizeof(bad[0])), -PFT_ERR_INVALID);
	PTU_EQ(pft_timeline_put_run(t, c2, bad, 0, sizeof(bad[0])), -PFT_ERR_INVALID);
	PTU_EQ(pft_timeline_put_run(t, c2, bad, 1, 4), -PFT_ERR_INVALID);
	pft_calls_free(c2);
	pft_timeline_free(t);
	pft_calls_free(calls);
	pft_image_free(img);
}

/* Times on both sides of every number of digits up to 16, with zeros
 * inside, a time that goes back, the largest count.  A return at depth 0 with no
 * span open writes one end: {"ph":"E",...,"ts":TIME}. */
static void timeline_times(void)
{
	static const struct {
		uint64_t insns;
		const char *count, *us;   /* without a clock; at 1 GHz */
	} times[] = {
		{ 0, "0", "0.000" }, { 7, "7", "0.007" }, { 9, "9", "0.009" },
		{ 10, "10", "0.010" }, { 99, "99", "0.099" }, { 100, "100", "0.100" },
		{ 999, "999", "0.999" }, { 1000, "1000", "1.000" }, { 1005, "1005", "1.005" },
		{ 9999, "9999", "9.999" }, { 10000, "10000", "10.000" },
		{ 10203, "10203", "10.203" }, { 199995, "199995", "199.995" }, { 12345678, "12345678", "12345.678" },
		{ 100020003, "100020003", "100020.003" },
		{ 99999999, "99999999", "99999.999" }, { 100000000, "100000000", "100000.000" },
		{ 12, "12", "0.012" }, { 1234567, "1234567", "1234.567" },
		/* (below 2^53: exact in the double the clock's division uses) */
		{ 999999999999999ull, "999999999999999", "999999999999.999" },
		{ 1000000000000000ull, "1000000000000000", "1000000000000.000" },
		{ 5, "5", "0.005" },
		{ UINT64_MAX, "18446744073709551615", NULL },
	};

	for (uint64_t hz = 0; hz <= 1000000000; hz += 1000000000) {
		struct buffer out = { .len = 0 };
		struct pft_timeline_config tc = { .size = sizeof(tc), .write = to_buffer,
						  .ctx = &out, .tid = 1, .hz = hz };
		struct pft_timeline *t = pft_timeline_alloc(&tc, NULL);
		char want[128];
		PTU_CHECK(t != NULL);
		for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
			const char *time = hz ? times[i].us : times[i].count;
			if (!time)
				continue;
			struct pft_call_event ev = { .kind = PFT_CALL_RETURN,
						     .insns = times[i].insns };
			out.len = 0;
			PTU_EQ(pft_timeline_put(t, &ev, sizeof(ev)), 0);
			PTU_EQ(pft_timeline_flush(t), 0);
			snprintf(want, sizeof(want), ",\n{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":%s}",
				 time);
			PTU_CHECK(strcmp(out.text, want) == 0);
		}
		pft_timeline_free(t);
	}
}

/* The lengths of one call of function @name, in the views' unit. */
static void call_lengths(struct pft_views *v, const char *name, uint64_t returned,
			 uint64_t incl_min, uint64_t incl_max, uint64_t incl_sum,
			 uint64_t self_min, uint64_t self_max, uint64_t self_sum)
{
	struct pft_view_func f;
	size_t i = 0;

	while (pft_views_function(v, i, &f, sizeof(f)) == 0 && strcmp(f.name, name))
		i++;
	PTU_STREQ(f.name, name);
	PTU_EQ(f.calls.returned, returned);
	PTU_EQ(f.calls.incl_min, incl_min);
	PTU_EQ(f.calls.incl_max, incl_max);
	PTU_EQ(f.calls.incl_sum, incl_sum);
	PTU_EQ(f.calls.self_min, self_min);
	PTU_EQ(f.calls.self_max, self_max);
	PTU_EQ(f.calls.self_sum, self_sum);
}

/*
 * Per-call lengths, worked out by hand (one instruction a range, 3 cycles
 * each; a count is the instructions up to the event):
 *   1 _start bl fa          fa's call starts at 1
 *   2 fa bl fb              fb's at 2
 *     IRQ (return 0x8200)   before fb's first instruction: a handler at 2
 *   3 fc bl fb              (the handler's code) fb' from 3
 *   4 fb bx lr              fb' returns at 4: 1
 *   5 fc: exception return  the handler ran 3 (fc's call 3, self 2)
 *   6 fb bx lr              fb returns at 6: 4, of which 3 the handler's
 *   7 fa b fc               tail call: fa's own part 2 (1 and 7)
 *   8 fc bl fb              fb'' from 8
 *   9 fb bx lr              1
 *  10 fc bx lr to 0x8004    fc (tail-called at 7) 3, self 2; fa's call 9
 *  11 _start b .
 * With the handlers excluded: fb 1, fa 6; the handler's own call stays 3.
 */
static void call_lengths_by_hand(void)
{
	static const struct {
		uint32_t start;
		unsigned iclass;
	} t[] = {
		{ 0x8000, PFT_ICLASS_CALL }, { 0x8100, PFT_ICLASS_CALL }, { 0, 0 },
		{ 0x8300, PFT_ICLASS_CALL }, { 0x8200, PFT_ICLASS_RETURN },
		{ 0x8304, PFT_ICLASS_EXC_RETURN }, { 0x8200, PFT_ICLASS_RETURN },
		{ 0x8104, PFT_ICLASS_JUMP }, { 0x8300, PFT_ICLASS_CALL },
		{ 0x8200, PFT_ICLASS_RETURN }, { 0x8304, PFT_ICLASS_RETURN },
		{ 0x8004, PFT_ICLASS_JUMP },
	};
	struct pft_image *img = pft_image_alloc(NULL);

	PTU_CHECK(pft_image_add_elf(img, elf, 0) >= 1);
	for (int exclude = 0; exclude < 2; exclude++) {
		struct pft_views_config cfg = { .size = sizeof(cfg), .image = img,
						.exclude_exceptions = (uint8_t)exclude };
		struct pft_views *v = pft_views_alloc(&cfg, NULL);
		for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
			struct pft_elem e = arm_range(t[i].start, 1, t[i].iclass, 1);
			/* 14: an A core's IRQ; an M core's PendSV (the second
			 * run's). */
			if (!t[i].start)
				e = (struct pft_elem){ .type = PFT_ELEM_EXCEPTION, .exception = 14,
						       .has_ret = 1, .addr = 0x8200,
						       .profile = (uint8_t)(exclude ? PFT_PROFILE_M
										    : PFT_PROFILE_A) };
			else
				e.has_cycles = 1, e.cycles = 3;
			PTU_EQ(pft_views_put(v, 0, &e, sizeof(e)), 0);
		}
		PTU_EQ(pft_views_finish(v), 0);
		PTU_EQ(pft_views_len_unit(v), PFT_VIEW_LEN_CYCLES);
		if (!exclude) {
			call_lengths(v, "fb", 3, 3, 12, 18, 3, 12, 18);
			call_lengths(v, "fa", 1, 27, 27, 27, 6, 6, 6);
		} else {
			call_lengths(v, "fb", 3, 3, 3, 9, 3, 3, 9);
			call_lengths(v, "fa", 1, 18, 18, 18, 6, 6, 6);
		}
		call_lengths(v, "fc", 2, 9, 9, 18, 6, 6, 12);
		call_lengths(v, "_start", 0, 0, 0, 0, 0, 0, 0);
		struct pft_view_exception x;
		PTU_EQ(pft_views_exception(v, 0, &x, sizeof(x)), 0);
		PTU_EQ(x.number, 14);
		PTU_EQ(x.profile, exclude ? PFT_PROFILE_M : PFT_PROFILE_A);
		struct buffer out = { .len = 0 };
		PTU_EQ(pft_views_write(v, PFT_VIEW_EXCEPTIONS_JSONL, NULL, to_buffer, &out), 0);
		PTU_CHECK(strstr(out.text, exclude ? "\"number\":14,\"name\":\"pendsv\""
						   : "\"number\":14,\"name\":\"irq\"") != NULL);
		PTU_EQ(x.count, 1);
		PTU_EQ(x.len.returned, 1);
		PTU_EQ(x.len.incl_sum, 9);
		PTU_EQ(x.ninterrupted, 1);
		PTU_STREQ(x.interrupted[0].name, "fb");
		PTU_EQ(pft_views_exception(v, 1, &x, sizeof(x)), -PFT_ERR_EOS);
		pft_views_free(v);
	}
	pft_image_free(img);
}

/* More tail calls in one call's chain than the views keep records of:
 * fa and fc tail-call each other 4200 times; the calls past 4096 are
 * not timed, and pft_views_cut() says how many. */
static void tail_chain_cut(void)
{
	struct pft_image *img = pft_image_alloc(NULL);
	struct pft_views_config cfg = { .size = sizeof(cfg), .image = img };
	struct pft_views_cut c;

	PTU_CHECK(pft_image_add_elf(img, elf, 0) >= 1);
	struct pft_views *v = pft_views_alloc(&cfg, NULL);
	struct pft_elem e = arm_range(0x8000, 1, PFT_ICLASS_CALL, 1);
	PTU_EQ(pft_views_put(v, 0, &e, sizeof(e)), 0);
	for (int i = 0; i < 2100; i++) {
		e = arm_range(0x8100, 2, PFT_ICLASS_JUMP, 1);   /* fa: b fc */
		PTU_EQ(pft_views_put(v, 0, &e, sizeof(e)), 0);
		e = arm_range(0x8300, 1, PFT_ICLASS_JUMP, 1);   /* fc, to fa's entry */
		PTU_EQ(pft_views_put(v, 0, &e, sizeof(e)), 0);
	}
	e = arm_range(0x8100, 1, PFT_ICLASS_RETURN, 1);
	PTU_EQ(pft_views_put(v, 0, &e, sizeof(e)), 0);
	e = arm_range(0x8004, 1, PFT_ICLASS_JUMP, 1);
	PTU_EQ(pft_views_put(v, 0, &e, sizeof(e)), 0);
	PTU_EQ(pft_views_finish(v), 0);
	PTU_EQ(pft_views_cut(v, &c, sizeof(c)), 0);
	PTU_EQ(c.tail_calls, 4200 - 4096);
	/* A caller built before tail_calls gets the fields it has. */
	PTU_EQ(pft_views_cut(v, &c, offsetof(struct pft_views_cut, tail_calls)), 0);
	pft_views_free(v);
	pft_image_free(img);
}

static void errors(void)
{
	struct pft_image *img = pft_image_alloc(NULL);
	struct pft_views_config cfg = { .size = sizeof(cfg) };
	struct pft_elem e = arm_range(0x1000, 1, PFT_ICLASS_OTHER, 0);
	struct pft_view_func f;
	struct buffer out = { .len = 0 };
	int err = 0;

	PTU_CHECK(pft_views_alloc(&cfg, &err) == NULL);   /* no image */
	PTU_EQ(err, -PFT_ERR_INVALID);
	PTU_CHECK(pft_views_alloc(NULL, &err) == NULL);
	cfg.image = img;
	struct pft_views *v = pft_views_alloc(&cfg, &err);
	PTU_EQ(err, 0);
	PTU_EQ(pft_views_put(v, 128, &e, sizeof(e)), -PFT_ERR_INVALID);
	PTU_EQ(pft_views_put(v, 0, &e, 4), -PFT_ERR_INVALID);
	PTU_EQ(pft_views_put(NULL, 0, &e, sizeof(e)), -PFT_ERR_INVALID);
	e.ninsn = 1 << 22;
	PTU_EQ(pft_views_put(v, 0, &e, sizeof(e)), -PFT_ERR_INVALID);
	/* A run with a bad element: none of it is counted. */
	struct pft_elem run[3] = { arm_range(0x1000, 1, PFT_ICLASS_OTHER, 0), e,
				   arm_range(0x1000, 1, PFT_ICLASS_OTHER, 0) };
	PTU_EQ(pft_views_put_run(v, 0, run, 3, sizeof(run[0])), -PFT_ERR_INVALID);
	run[1].ninsn = 0;
	PTU_EQ(pft_views_put_run(v, 0, run, 3, sizeof(run[0])), -PFT_ERR_INVALID);
	run[1] = (struct pft_elem){ .type = PFT_ELEM_TYPE_MAX };
	PTU_EQ(pft_views_put_run(v, 0, run, 3, sizeof(run[0])), -PFT_ERR_INVALID);
	PTU_EQ(pft_views_put_run(v, 0, run, 0, sizeof(run[0])), -PFT_ERR_INVALID);
	PTU_EQ(pft_views_put_run(v, 0, NULL, 1, sizeof(run[0])), -PFT_ERR_INVALID);
	PTU_EQ(pft_views_put_run(NULL, 0, run, 1, sizeof(run[0])), -PFT_ERR_INVALID);
	PTU_EQ(pft_views_put_run(v, 128, run, 1, sizeof(run[0])), -PFT_ERR_INVALID);
	PTU_EQ(pft_views_put_run(v, 0, run, 1, 4), -PFT_ERR_INVALID);
	/* A fold's leaf calls before any call was seen (no clock, no stack):
	 * refused, nothing counted. */
	run[1] = (struct pft_elem){ .type = PFT_ELEM_LEAF_CALLS, .start = 0x1000, .last = 0x1004,
				    .ninsn = 2, .offset = 4 };
	PTU_EQ(pft_views_put_run(v, 0, &run[1], 1, sizeof(run[0])), -PFT_ERR_INVALID);
	PTU_EQ(pft_views_write(v, PFT_VIEW_FOLDED, NULL, to_buffer, &out), -PFT_ERR_INVALID);
	PTU_EQ(pft_views_function(v, 0, &f, sizeof(f)), -PFT_ERR_INVALID);
	PTU_EQ(pft_views_finish(v), 0);
	PTU_EQ(pft_views_finish(v), -PFT_ERR_EOS);
	e.ninsn = 1;
	PTU_EQ(pft_views_put(v, 0, &e, sizeof(e)), -PFT_ERR_EOS);
	PTU_EQ(pft_views_put_run(v, 0, &e, 1, sizeof(e)), -PFT_ERR_EOS);
	PTU_EQ(pft_views_write(v, PFT_VIEW_FORMAT_MAX, NULL, to_buffer, &out), -PFT_ERR_INVALID);
	PTU_EQ(pft_views_write(v, PFT_VIEW_FOLDED, NULL, NULL, &out), -PFT_ERR_INVALID);
	/* No function, not even "[unknown]": none of the bad runs counted. */
	PTU_EQ(pft_views_function(v, 0, &f, sizeof(f)), -PFT_ERR_EOS);
	PTU_EQ(pft_views_finish(NULL), -PFT_ERR_INVALID);
	pft_views_free(v);
	pft_views_free(NULL);
	pft_image_free(img);
}

int main(void)
{
	if (build_calls_sample(elf) == 0) {
		PTU_RUN(profile_by_hand);
		PTU_RUN(timeline_spans);
		PTU_RUN(timeline_runs);
		PTU_RUN(images_per_source);
		PTU_RUN(profile_in_runs);
		PTU_RUN(profile_depth_limit);
		PTU_RUN(range_through_functions);
		PTU_RUN(range_through_many_functions);
		PTU_RUN(call_lengths_by_hand);
		PTU_RUN(tail_chain_cut);
	} else {
		ptu_tests_failed++;
	}
	PTU_RUN(conditional_branches);
	PTU_RUN(timeline_times);
	PTU_RUN(errors);
	unlink(elf);
	PTU_MAIN_END();
}
