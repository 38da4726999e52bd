/* fuzz_views - the views (pft_views_*, pft_timeline_*) fed from a decode
 * of fuzzed PTM bytes against a small fixed program with symbols and a
 * line table (views_image.s), writing into memory.
 *
 * Input: byte 0: bit 0 cycle-accurate, bit 1 return stack, bits 3:2 the
 * stack limit of the views and calls (1, 2, 16, 0 = the default), bits
 * 5:4 the timeline's clock, bit 6 source lines given (else the image's
 * symbols name functions), bit 7 two sources (the stream is cut in two
 * halves, decoded as sources 0 and 1); byte 1: the size at which the
 * writer fails, 64 << (byte 1 & 15) bytes (15: never); the rest is the
 * PFT stream, decoded in a raw pipeline.
 *
 * Properties (pft.h, views section): every element is taken; finish
 * succeeds (the image does not change); every format writes, and when
 * the writer fails the write stops and returns the writer's value; the
 * JSON lines outputs are one object per line without control characters;
 * the functions listed are sorted by start with "[unknown]" last; the
 * timeline's spans nest: every "B" has its "E" once the calls finish.
 */
#include <string.h>

#include "fuzz_util.h"
#include "pft.h"
#include "views_image.h"

enum { OUT_MAX = 1 << 20, WRITER_FAILED = -77 };

/* The memory stream: fails (WRITER_FAILED) when @limit would be passed. */
struct out {
	char buf[OUT_MAX];
	size_t len, limit;
	int failed;
};

static int mem_write(void *ctx, const char *buf, size_t len)
{
	struct out *o = ctx;

	FUZZ_CHECK(!o->failed);  /* no write after a refusal */
	if (len > o->limit - o->len || len > OUT_MAX - o->len) {
		o->failed = 1;
		return WRITER_FAILED;
	}
	memcpy(o->buf + o->len, buf, len);
	o->len += len;
	return 0;
}

static void check_jsonl(const struct out *o)
{
	size_t line_start = 0;

	for (size_t i = 0; i < o->len; i++) {
		unsigned char c = (unsigned char)o->buf[i];
		if (c == '\n') {
			FUZZ_CHECK(i > line_start && o->buf[line_start] == '{' &&
				   o->buf[i - 1] == '}');
			line_start = i + 1;
		} else {
			FUZZ_CHECK(c >= 0x20);
		}
	}
	FUZZ_CHECK(line_start == o->len);
}

static size_t count(const struct out *o, const char *needle)
{
	size_t n = 0, k = strlen(needle);

	for (size_t i = 0; i + k <= o->len; i++)
		n += memcmp(o->buf + i, needle, k) == 0;
	return n;
}

static char image_path[128];

static void remove_files(void)
{
	unlink(image_path);
}

struct fixed {
	struct pft_image *img;
	struct pft_lines *lines;
};

static const struct fixed *fixed(void)
{
	static struct fixed f;

	if (!f.img) {
		fuzz_write_file(image_path, sizeof(image_path), "views", remove_files,
				views_image, views_image_len);
		f.img = pft_image_alloc(NULL);
		f.lines = pft_lines_alloc(NULL);
		FUZZ_CHECK(f.img && pft_image_add_elf(f.img, image_path, 0) >= 0);
		FUZZ_CHECK(f.lines && pft_lines_add_elf(f.lines, image_path, 0) == 1);
	}
	return &f;
}

struct source {
	struct pft_calls *calls;
	struct pft_timeline *tl;
};

static void take_calls(struct source *s)
{
	struct pft_call_event ev;

	while (pft_calls_next(s->calls, &ev, sizeof(ev)) == 0)
		FUZZ_CHECK(pft_timeline_put(s->tl, &ev, sizeof(ev)) == 0);
}

static void decode(struct pft_views *v, struct source *s, unsigned source,
		   const struct pft_ptm_config *cfg, const uint8_t *buf, size_t len)
{
	struct pft_pipe_config pc = { .size = sizeof(pc), .format = PFT_PIPE_RAW,
				      .elements = 1 };
	struct pft_pipe *p = pft_pipe_alloc(&pc, NULL);
	struct pft_item it;

	FUZZ_CHECK(p && pft_pipe_add_ptm(p, 0, cfg, fixed()->img) == 0);
	if (len)
		FUZZ_CHECK(pft_pipe_feed(p, buf, len) == 0);
	FUZZ_CHECK(pft_pipe_finish(p) == 0);
	while (pft_pipe_next(p, &it, sizeof(it)) == 0) {
		FUZZ_CHECK(pft_views_put(v, source, it.elem, sizeof(*it.elem)) == 0);
		FUZZ_CHECK(pft_calls_put(s->calls, it.elem, sizeof(*it.elem)) == 0);
		take_calls(s);
	}
	pft_pipe_free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	static const uint32_t limits[4] = { 1, 2, 16, 0 };
	static struct out out;
	const struct fixed *fx = fixed();
	const uint8_t *stream = data + 2;
	size_t len = size - 2;
	unsigned nsources = (data[0] >> 7) + 1;
	uint32_t limit = limits[(data[0] >> 2) & 3];
	int err;

	struct pft_ptm_config cfg;
	pft_ptm_config_init(&cfg);
	cfg.cycle_accurate = data[0] & 1;
	cfg.return_stack = (data[0] >> 1) & 1;

	struct pft_views_config vc = { .size = sizeof(vc), .image = fx->img,
				       .lines = (data[0] & 0x40) ? fx->lines : NULL,
				       .max_depth = limit };
	struct pft_views *v = pft_views_alloc(&vc, &err);
	FUZZ_CHECK(v && err == 0);

	out.len = 0;
	out.failed = 0;
	out.limit = OUT_MAX;
	FUZZ_CHECK(pft_timeline_begin(mem_write, &out) == 0);
	struct source src[2];
	for (unsigned i = 0; i < nsources; i++) {
		struct pft_calls_config cc = { .size = sizeof(cc), .image = fx->img,
					       .max_depth = limit };
		struct pft_timeline_config tc = {
			.size = sizeof(tc), .write = mem_write, .ctx = &out,
			.image = fx->img, .lines = vc.lines, .tid = i,
			.clock = (uint8_t)(((data[0] >> 4) & 3) % 3), .hz = 1000,
		};
		src[i].calls = pft_calls_alloc(&cc, &err);
		FUZZ_CHECK(src[i].calls);
		src[i].tl = pft_timeline_alloc(&tc, &err);
		FUZZ_CHECK(src[i].tl);
	}
	size_t half = nsources == 2 ? len / 2 : len;
	decode(v, &src[0], 0, &cfg, stream, half);
	if (nsources == 2)
		decode(v, &src[1], 1, &cfg, stream + half, len - half);
	for (unsigned i = 0; i < nsources; i++) {
		FUZZ_CHECK(pft_calls_finish(src[i].calls) == 0);
		take_calls(&src[i]);
		FUZZ_CHECK(pft_timeline_flush(src[i].tl) == 0);
		pft_calls_free(src[i].calls);
		pft_timeline_free(src[i].tl);
	}
	FUZZ_CHECK(pft_timeline_end(mem_write, &out) == 0);
	FUZZ_CHECK(count(&out, "\"ph\":\"B\"") == count(&out, "\"ph\":\"E\""));

	FUZZ_CHECK(pft_views_finish(v) == 0);
	FUZZ_CHECK(pft_views_finish(v) == -PFT_ERR_EOS);
	size_t fail_at = (data[1] & 15) == 15 ? OUT_MAX : (size_t)64 << (data[1] & 15);
	for (int f = 0; f < PFT_VIEW_FORMAT_MAX; f++) {
		out.len = 0;
		out.failed = 0;
		out.limit = fail_at;
		err = pft_views_write(v, (enum pft_view_format)f, "fuzz", mem_write, &out);
		/* lcov and LLVM sample profiles need source lines
		 * (pft_views_check_format()). */
		if ((f == PFT_VIEW_LCOV || f == PFT_VIEW_LLVM_SAMPLE) &&
		    !pft_lines_count(vc.lines, 0)) {
			FUZZ_CHECK(err == -PFT_ERR_NOT_FOUND && out.len == 0);
			continue;
		}
		FUZZ_CHECK(out.failed ? err == WRITER_FAILED : err == 0);
		if (!out.failed && (f == PFT_VIEW_COVERAGE_JSONL || f == PFT_VIEW_PROFILE_JSONL ||
				    f == PFT_VIEW_ANNOTATE_JSONL))
			check_jsonl(&out);
	}

	struct pft_view_func fn;
	uint32_t prev = 0;
	size_t i = 0;
	for (; pft_views_function(v, i, &fn, sizeof(fn)) == 0; i++) {
		if (!strcmp(fn.name, "[unknown]")) {
			FUZZ_CHECK(pft_views_function(v, i + 1, &fn, sizeof(fn)) == -PFT_ERR_EOS);
			break;
		}
		FUZZ_CHECK(fn.start >= prev && fn.incl_insns >= fn.self_insns);
		prev = fn.start;
	}
	pft_views_free(v);
	return 0;
}
