/* The bounds of the calls tracker and the views (pft_calls.c, pft_views.c,
 * pft_coverage.c and pft_timeline.c say which and why), each tested with
 * a hostile input of its size: the input completes in the time a linear
 * cost allows, and a table that would pass its bound is refused.
 *
 * The time checks are CPU seconds with a wide margin (each case takes
 * well under a second in a release build): the costs these bounds
 * replaced grew with the square of the input, which at these sizes is
 * minutes (a 10^6-deep recursion took 30 s in the calls tracker alone,
 * without sanitizers).
 */
#include "ptunit.h"
#include "pft.h"

#include <stdlib.h>
#include <time.h>

enum {
	DEEP = 1000000,              /* a recursion 10^6 calls deep */
	DEFAULT_DEPTH = 65536,       /* pft_calls_config.max_depth 0 */
	VIEW_TABLE = 1 << 20,        /* pft.h views: distinct ranges, contexts */
	CPU_BUDGET = 10              /* seconds, sanitizers included */
};

/*
 * 0x8000 fn:   bl   fn          eb fffffe
 * 0x8004       bx   lr          e12fff1e
 * 0x8008       mov  pc, r0      e1a0f000
 * 0x800c       bx   lr          e12fff1e
 * (arm-linux-gnueabihf-as), then zeros: andeq r0, r0, r0, not a branch.
 * No symbols: every frame's function is unknown.
 */
#define CODE_BASE 0x8000u
#define ZEROS (CODE_BASE + 16)
static const uint8_t code[16] = { 0xfe, 0xff, 0xff, 0xeb, 0x1e, 0xff, 0x2f, 0xe1,
				  0x00, 0xf0, 0xa0, 0xe1, 0x1e, 0xff, 0x2f, 0xe1 };

static struct pft_elem range_at(uint32_t start, uint8_t iclass, uint8_t taken)
{
	return (struct pft_elem){ .type = PFT_ELEM_RANGE, .start = start, .last = start,
				  .end = start + 4, .ninsn = 1, .isa = PFT_ISA_ARM,
				  .iclass = iclass, .taken = taken };
}

static const struct pft_elem *call_elem(void)
{
	static struct pft_elem e;
	e = range_at(CODE_BASE, PFT_ICLASS_CALL, 1);
	return &e;
}

static struct pft_image *image(size_t size)
{
	uint8_t *mem = calloc(1, size);
	struct pft_image *img = pft_image_alloc(NULL);

	PTU_CHECK(mem && img);
	if (!mem || !img)
		return NULL;
	memcpy(mem, code, sizeof(code));
	PTU_EQ(pft_image_add_buffer(img, CODE_BASE, mem, size, PFT_SPACE_ANY,
				    PFT_IMAGE_COPY), 0);
	free(mem);
	return img;
}

static double cpu_seconds(clock_t since)
{
	return (double)(clock() - since) / CLOCKS_PER_SEC;
}

/* Take every event; returns the number of @kind among them. */
static uint64_t drain_calls(struct pft_calls *c, unsigned kind, uint32_t *depth)
{
	struct pft_call_event ev;
	uint64_t n = 0;

	while (pft_calls_next(c, &ev, sizeof(ev)) == 0) {
		n += ev.kind == kind;
		*depth = ev.depth;
	}
	return n;
}

/* A calls tracker (default depth limit) of the code above, and @n puts of
 * "bl fn" (a recursion); returns the CALL events. */
static struct pft_calls *recursion(struct pft_image *img, int n, uint64_t *calls,
				   uint32_t *depth)
{
	struct pft_calls_config cc = { .size = sizeof(cc), .image = img };
	struct pft_calls *c = img ? pft_calls_alloc(&cc, NULL) : NULL;

	PTU_CHECK(c);
	for (int i = 0; c && i < n; i++) {
		PTU_EQ(pft_calls_put(c, call_elem(), sizeof(struct pft_elem)), 0);
		*calls += drain_calls(c, PFT_CALL_CALL, depth);
	}
	return c;
}

/* Calls: the stack keeps max_depth frames; a recursion 10^6 deep forgets
 * the oldest frame per call in O(1) (it moved them all: O(depth) each). */
static void calls_deep_recursion(void)
{
	struct pft_image *img = image(64);
	uint64_t calls = 0, returns = 0;
	uint32_t depth = 0;
	clock_t t0 = clock();
	struct pft_calls *c = recursion(img, DEEP, &calls, &depth);

	if (!c)
		return;
	/* The put of range i settles call i - 1: DEEP - 1 calls so far, the
	 * stack full since the 65536th. */
	PTU_EQ(calls, DEEP - 1);
	PTU_EQ(depth, DEFAULT_DEPTH);
	PTU_EQ(pft_calls_depth(c), DEFAULT_DEPTH);
	struct pft_elem ret = range_at(CODE_BASE + 4, PFT_ICLASS_RETURN, 1);
	for (int i = 0; i < DEFAULT_DEPTH; i++) {
		PTU_EQ(pft_calls_put(c, &ret, sizeof(ret)), 0);
		returns += drain_calls(c, PFT_CALL_RETURN, &depth);
	}
	/* The first return settles the last call (DEEP calls), the others pop
	 * one frame each: 0x8004 is every frame's return address. */
	PTU_EQ(returns, DEFAULT_DEPTH - 1);
	PTU_EQ(pft_calls_depth(c), 1);
	PTU_CHECK(cpu_seconds(t0) < CPU_BUDGET);
	pft_calls_free(c);
	pft_image_free(img);
}

/* Calls: with 65536 frames on the stack, 10^6 indirect jumps (each may be
 * a return to a frame) and 10^6 returns that no frame expects (each may
 * be a longjmp) cost O(1) each (they searched the whole stack). */
static void calls_searches_deep_stack(void)
{
	struct pft_image *img = image(64);
	uint64_t calls = 0;
	uint32_t depth = 0;
	struct pft_calls *c = recursion(img, DEFAULT_DEPTH + 1, &calls, &depth);

	if (!c)
		return;
	PTU_EQ(pft_calls_depth(c), DEFAULT_DEPTH);

	/* The first put settles the last call.  Then, alternately: bx lr at
	 * 0x800c to 0x8008, where no frame returns (UNMATCHED_RETURN), and
	 * mov pc, r0 at 0x8008 to 0x800c, where no frame returns either
	 * (an indirect jump, not a tail call: no symbol starts there). */
	clock_t t0 = clock();
	struct pft_elem jump = range_at(CODE_BASE + 8, PFT_ICLASS_INDIRECT_JUMP, 1);
	struct pft_elem ret = range_at(CODE_BASE + 12, PFT_ICLASS_RETURN, 1);
	uint64_t unmatched = 0;
	for (int i = 0; i < DEEP; i++) {
		PTU_EQ(pft_calls_put(c, i % 2 ? &jump : &ret, sizeof(ret)), 0);
		unmatched += drain_calls(c, PFT_CALL_UNMATCHED_RETURN, &depth);
	}
	PTU_CHECK(cpu_seconds(t0) < CPU_BUDGET);
	PTU_EQ(pft_calls_depth(c), DEFAULT_DEPTH);
	/* Puts 1, 3, ..., DEEP - 1 (jumps) settle the returns of puts 0, 2,
	 * ..., DEEP - 2. */
	PTU_EQ(unmatched, DEEP / 2);
	pft_calls_free(c);
	pft_image_free(img);
}

/* A views accumulator of an image of @size bytes (the code above, then
 * zeros), in *@img. */
static struct pft_views *views_of(size_t size, struct pft_image **img)
{
	*img = image(size);
	struct pft_views_config vc = { .size = sizeof(vc), .image = *img };
	struct pft_views *v = *img ? pft_views_alloc(&vc, NULL) : NULL;

	PTU_CHECK(v);
	return v;
}

/* Views: a recursion 10^6 deep makes a calling context per level; the
 * 2^20th context and those after it are merged, one per function. */
static void views_contexts(void)
{
	struct pft_image *img;
	struct pft_views *v = views_of(64, &img);
	clock_t t0 = clock();
	int err = 0;

	if (!v)
		return;
	/* Put k settles call k - 1, whose context is node k - 1 (node 0: the
	 * root, made at the first range). */
	int k;
	for (k = 1; k <= DEEP; k++) {
		err = pft_views_put(v, 0, call_elem(), sizeof(struct pft_elem));
		if (err)
			break;
	}
	PTU_EQ(err, 0);
	PTU_CHECK(cpu_seconds(t0) < CPU_BUDGET);
	for (; k <= VIEW_TABLE; k++) {
		err = pft_views_put(v, 0, call_elem(), sizeof(struct pft_elem));
		if (err)
			break;
	}
	PTU_EQ(err, 0);
	struct pft_views_cut cut;
	PTU_EQ(pft_views_cut(v, &cut, sizeof(cut)), 0);
	PTU_EQ(cut.contexts, 0);
	PTU_EQ(cut.table_max, VIEW_TABLE);
	/* Put 2^20 + 1 needs node 2^20: one past the bound.  It and the
	 * next ones go on in one merged context of the function. */
	for (int i = 0; i < 1000 && !err; i++)
		err = pft_views_put(v, 0, call_elem(), sizeof(struct pft_elem));
	PTU_EQ(err, 0);
	PTU_EQ(pft_views_cut(v, &cut, sizeof(cut)), 0);
	PTU_EQ(cut.contexts, 1);
	PTU_EQ(pft_views_finish(v), 0);
	struct pft_view_func f;
	uint64_t self = 0;
	for (size_t i = 0; pft_views_function(v, i, &f, sizeof(f)) == 0; i++)
		self += f.self_insns;
	PTU_EQ(self, VIEW_TABLE + 1000);   /* every put's instruction counted */
	PTU_CHECK(cpu_seconds(t0) < CPU_BUDGET);
	pft_views_free(v);
	pft_image_free(img);
}

/* Views: 2^20 distinct ranges are kept, the next counts coarser. */
static void views_ranges(void)
{
	struct pft_image *img;
	struct pft_views *v = views_of(16 + 4 * (size_t)(VIEW_TABLE + 1), &img);
	clock_t t0 = clock();
	int err = 0;

	if (!v)
		return;
	/* andeq at ZEROS + 4i: one instruction each, not taken. */
	for (uint32_t i = 0; i < VIEW_TABLE && !err; i++) {
		struct pft_elem e = range_at(ZEROS + 4 * i, PFT_ICLASS_OTHER, 0);
		err = pft_views_put(v, 0, &e, sizeof(e));
	}
	PTU_EQ(err, 0);
	struct pft_elem again = range_at(ZEROS, PFT_ICLASS_OTHER, 0);
	PTU_EQ(pft_views_put(v, 0, &again, sizeof(again)), 0);
	/* One past the bound: counted for its function, not per
	 * instruction. */
	struct pft_elem more = range_at(ZEROS + 4 * VIEW_TABLE, PFT_ICLASS_OTHER, 0);
	PTU_EQ(pft_views_put(v, 0, &more, sizeof(more)), 0);
	struct pft_views_cut cut;
	PTU_EQ(pft_views_cut(v, &cut, sizeof(cut)), 0);
	PTU_EQ(cut.insns, 1);
	PTU_EQ(cut.contexts, 0);
	PTU_EQ(pft_views_cut(NULL, &cut, sizeof(cut)), -PFT_ERR_INVALID);
	PTU_CHECK(cpu_seconds(t0) < CPU_BUDGET);
	pft_views_free(v);
	pft_image_free(img);
}

/* Coverage: a range costs its instructions: one instruction claiming 4 GB
 * of bytes is refused; 2^20 pages (the whole 32-bit space) is the most
 * memory it takes, reached by ranges of 1024 instructions per page. */
static void coverage_bytes_per_insn(void)
{
	struct pft_cov *c = pft_cov_alloc(NULL);
	struct pft_elem e = range_at(0, PFT_ICLASS_OTHER, 0);
	uint64_t bytes = 0;

	PTU_CHECK(c);
	if (!c)
		return;
	e.end = 0;   /* 2^32 */
	PTU_EQ(pft_cov_add(c, &e, sizeof(e)), -PFT_ERR_INVALID);
	e.end = 8;   /* 8 bytes, 1 instruction */
	PTU_EQ(pft_cov_add(c, &e, sizeof(e)), -PFT_ERR_INVALID);
	e.end = 4;
	PTU_EQ(pft_cov_add(c, &e, sizeof(e)), 0);
	PTU_EQ(pft_cov_covered(c, 0, 1ull << 32, &bytes), 0);
	PTU_EQ(bytes, 4);
	pft_cov_free(c);
}

int main(void)
{
	PTU_RUN(calls_deep_recursion);
	PTU_RUN(calls_searches_deep_stack);
	PTU_RUN(views_contexts);
	PTU_RUN(views_ranges);
	PTU_RUN(coverage_bytes_per_insn);
	PTU_MAIN_END();
}
