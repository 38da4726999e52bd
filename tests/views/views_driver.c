/* A small client of libpft for tests/views: decodes a raw PFT stream (pft
 * encode --out-raw) against an ELF, feeds every element to the views
 * accumulator and to a calls tracker + timeline, and writes each view to a
 * file.
 *
 * usage: views_driver RAW ELF OUTDIR [--cycle-accurate] [--timestamps]
 *                     [--return-stack] [--no-lines]
 * writes OUTDIR/{coverage.txt,coverage.jsonl,lcov.info,profile.txt,
 * profile.jsonl,callgrind.out,folded.txt,timeline.json,calls.jsonl} */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pft.h"

static int file_write(void *ctx, const char *buf, size_t len)
{
	return fwrite(buf, 1, len, ctx) == len ? 0 : -1;
}

static void die(const char *what, int err)
{
	fprintf(stderr, "views_driver: %s: %s\n", what, pft_errstr(pft_errcode(err)));
	exit(2);
}

static FILE *out_file(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(2);
	}
	return f;
}

struct sinks {
	struct pft_views *views;
	struct pft_calls *calls;
	struct pft_timeline *timeline;
	FILE *calls_out;
};

static void calls_events(struct sinks *s)
{
	struct pft_call_event ev;

	while (pft_calls_next(s->calls, &ev, sizeof(ev)) == 0) {
		int err = pft_timeline_put(s->timeline, &ev, sizeof(ev));
		if (err)
			die("timeline", err);
		fprintf(s->calls_out,
			"{\"kind\":\"%s\",\"flags\":%u,\"depth\":%" PRIu32 ",\"site\":%" PRIu32
			",\"target\":%" PRIu32 ",\"callee\":%" PRIu32 ",\"caller\":%" PRIu32
			",\"insns\":%" PRIu64 "}\n", pft_call_kind_name(ev.kind), ev.flags,
			ev.depth, ev.site, ev.target, ev.callee, ev.caller, ev.insns);
	}
}

static void element(struct sinks *s, const struct pft_elem *e)
{
	int err = pft_views_put(s->views, 0, e, sizeof(*e));

	if (err)
		die("views", err);
	err = pft_calls_put(s->calls, e, sizeof(*e));
	if (err)
		die("calls", err);
	calls_events(s);
}

int main(int argc, char **argv)
{
	struct pft_ptm_config cfg;
	struct pft_image *img;
	struct pft_lines *lines = NULL;
	int err, use_lines = 1;

	if (argc < 4) {
		fprintf(stderr, "usage: views_driver RAW ELF OUTDIR [options]\n");
		return 2;
	}
	pft_ptm_config_init(&cfg);
	for (int i = 4; i < argc; i++) {
		if (!strcmp(argv[i], "--cycle-accurate"))
			cfg.cycle_accurate = 1;
		else if (!strcmp(argv[i], "--timestamps"))
			cfg.timestamps = 1;
		else if (!strcmp(argv[i], "--return-stack"))
			cfg.return_stack = 1;
		else if (!strcmp(argv[i], "--no-lines"))
			use_lines = 0;
		else
			die(argv[i], -PFT_ERR_INVALID);
	}

	img = pft_image_alloc(&err);
	if (!img || (err = pft_image_add_elf(img, argv[2], 0)) < 0)
		die(argv[2], err);
	if (use_lines) {
		lines = pft_lines_alloc(&err);
		if (!lines || (err = pft_lines_add_elf(lines, argv[2], 0)) < 0)
			die(argv[2], err);
	}

	struct pft_views_config vc = { .size = sizeof(vc), .image = img, .lines = lines };
	struct pft_calls_config cc = { .size = sizeof(cc), .image = img };
	struct sinks s = { 0 };
	FILE *chrome = out_file(argv[3], "timeline.json");
	struct pft_timeline_config tc = { .size = sizeof(tc), .write = file_write, .ctx = chrome,
					  .image = img, .lines = lines, .tid = 1,
					  .track_name = "cpu 0" };

	s.calls_out = out_file(argv[3], "calls.jsonl");
	if (!(s.views = pft_views_alloc(&vc, &err)))
		die("views", err);
	if (!(s.calls = pft_calls_alloc(&cc, &err)))
		die("calls", err);
	if ((err = pft_timeline_begin(file_write, chrome)))
		die("timeline", err);
	if (!(s.timeline = pft_timeline_alloc(&tc, &err)))
		die("timeline", err);

	FILE *raw = fopen(argv[1], "rb");
	if (!raw)
		die(argv[1], -PFT_ERR_BAD_FILE);
	static uint8_t buf[1 << 16];
	size_t n;
	struct pft_ptm_pkt_decoder *pd = pft_ptm_pkt_alloc(&cfg, &err);
	struct pft_ptm_flow *flow = pft_ptm_flow_alloc(&cfg, img, &err);
	struct pft_ptm_packet pkt;
	struct pft_elem e;
	int done = 0;

	if (!pd || !flow)
		die("decoder", err);
	while (!done) {
		n = fread(buf, 1, sizeof(buf), raw);
		if (n)
			pft_ptm_pkt_feed(pd, buf, n);
		else
			pft_ptm_pkt_finish(pd);
		for (;;) {
			err = pft_ptm_pkt_next(pd, &pkt, sizeof(pkt));
			if (err == -PFT_ERR_NEED_INPUT)
				break;
			if (err == -PFT_ERR_EOS) {
				done = 1;
				break;
			}
			if (err < 0)
				die("packets", err);
			if ((err = pft_ptm_flow_put(flow, &pkt, sizeof(pkt))))
				die("flow", err);
			while (pft_ptm_flow_next(flow, &e, sizeof(e)) == 0)
				element(&s, &e);
		}
	}
	fclose(raw);

	if ((err = pft_views_finish(s.views)))
		die("views finish", err);
	if ((err = pft_calls_finish(s.calls)))
		die("calls finish", err);
	calls_events(&s);
	if ((err = pft_timeline_flush(s.timeline)) || (err = pft_timeline_end(file_write, chrome)))
		die("timeline", err);
	fclose(chrome);
	fclose(s.calls_out);

	static const struct { enum pft_view_format format; const char *name; } views[] = {
		{ PFT_VIEW_COVERAGE_TEXT, "coverage.txt" },
		{ PFT_VIEW_COVERAGE_JSONL, "coverage.jsonl" },
		{ PFT_VIEW_LCOV, "lcov.info" },
		{ PFT_VIEW_PROFILE_TEXT, "profile.txt" },
		{ PFT_VIEW_PROFILE_JSONL, "profile.jsonl" },
		{ PFT_VIEW_CALLGRIND, "callgrind.out" },
		{ PFT_VIEW_FOLDED, "folded.txt" },
	};
	for (size_t i = 0; i < sizeof(views) / sizeof(views[0]); i++) {
		FILE *f = out_file(argv[3], views[i].name);
		if ((err = pft_views_write(s.views, views[i].format, "views", file_write, f)))
			die(views[i].name, err);
		fclose(f);
	}

	pft_timeline_free(s.timeline);
	pft_calls_free(s.calls);
	pft_views_free(s.views);
	pft_ptm_flow_free(flow);
	pft_ptm_pkt_free(pd);
	pft_lines_free(lines);
	pft_image_free(img);
	return 0;
}
