/* Views of the executed code: pft coverage, pft profile, pft annotate, pft
 * exceptions, pft timeline and pft calls.  Each decodes like pft decode and
 * hands the elements to the library's views accumulator or its calls
 * trackers (one per source). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "disasm.h"
#include "images.h"
#include "input.h"
#include "options.h"

enum view_cmd { CMD_COVERAGE, CMD_PROFILE, CMD_TIMELINE, CMD_CALLS, CMD_EXCEPTIONS,
		CMD_ANNOTATE };

/* Per command: its name, what it does, and its --format values in the
 * order of the numbers they map to (enum pft_view_format for the views). */
static const struct {
	const char *name, *what;
	const char *formats[5];
	int values[5];
	int nformats;
} commands[] = {
	[CMD_COVERAGE] = { "coverage",
			   "which code ran: every function of the images, each source line\n"
			   "and each conditional branch (taken, not taken, both, never)",
			   { "text", "jsonl", "lcov" },
			   { PFT_VIEW_COVERAGE_TEXT, PFT_VIEW_COVERAGE_JSONL, PFT_VIEW_LCOV }, 3 },
	[CMD_PROFILE] = { "profile",
			  "instructions per function (self, inclusive), cycles, the lengths\n"
			  "of one call (shortest, mean, longest), and calls per caller and callee",
			  { "text", "jsonl", "callgrind", "folded", "llvm-sample" },
			  { PFT_VIEW_PROFILE_TEXT, PFT_VIEW_PROFILE_JSONL, PFT_VIEW_CALLGRIND,
			    PFT_VIEW_FOLDED, PFT_VIEW_LLVM_SAMPLE }, 5 },
	[CMD_TIMELINE] = { "timeline",
			   "the calls as nested spans, one track per trace source, in Chrome\n"
			   "trace-event JSON (Perfetto UI, speedscope, chrome://tracing)",
			   { "chrome" }, { 0 }, 1 },
	[CMD_CALLS] = { "calls",
			"the stream of calls and returns, with depth, caller, callee and time",
			{ "text", "jsonl" }, { FMT_TEXT, FMT_JSONL }, 2 },
	[CMD_EXCEPTIONS] = { "exceptions",
			     "per kind of exception: how often it was taken, how long its\n"
			     "handler ran (shortest, mean, longest, total; nested handlers\n"
			     "included) and the functions it interrupted most",
			     { "text", "jsonl" },
			     { PFT_VIEW_EXCEPTIONS_TEXT, PFT_VIEW_EXCEPTIONS_JSONL }, 2 },
	[CMD_ANNOTATE] = { "annotate",
			   "every executed instruction with its exact execution count, how often\n"
			   "it changed the flow and did not where the trace tells it, its\n"
			   "disassembly and source line, per function",
			   { "text", "jsonl" },
			   { PFT_VIEW_ANNOTATE_TEXT, PFT_VIEW_ANNOTATE_JSONL }, 2 },
};

/* The commands that feed the views accumulator. */
static int uses_views(enum view_cmd cmd)
{
	return cmd == CMD_COVERAGE || cmd == CMD_PROFILE || cmd == CMD_EXCEPTIONS ||
	       cmd == CMD_ANNOTATE;
}

/* The commands that take --clock. */
static int takes_clock(enum view_cmd cmd)
{
	return cmd == CMD_TIMELINE || cmd == CMD_PROFILE || cmd == CMD_EXCEPTIONS;
}

struct views_run {
	enum view_cmd cmd;
	int format;                   /* from commands[cmd].values */
	FILE *out;
	uint64_t hz;                  /* --clock */
	int exclude_exceptions;       /* --exclude-exceptions (profile) */
	uint64_t ts_hz;               /* the snapshot's timestamp frequency */
	uint64_t ts_clock;            /* --ts-clock (0: ts_hz) */
	struct pft_lines *lines;      /* NULL without --elf */
	struct pft_views *views;      /* coverage, profile, annotate */
	struct pft_select *sel;       /* --function: NULL, everything */
	struct disasm dis;            /* annotate */
	int order;                    /* annotate: enum pft_views_order */
	struct pft_calls **calls;     /* timeline, calls: one per source */
	struct pft_timeline **tracks; /* timeline: one per source */
	struct pft_calls_listing *listing; /* calls: the lines on their way to out */
	struct pft_names *labels;     /* calls: the labels of ambiguous names */
	struct input in;
	uint64_t errors;
	int cut;                      /* the views did not hold everything */
	/* The first error in the trace: the views list none, stderr names
	 * it (its source, offset and what it was). */
	struct first_error {
		size_t source;
		uint64_t offset;
		const char *what;
	} first_error;
};

/* What file_write returns when writing fails: no -PFT_ERR_* code. */
enum { WRITE_FAILED = -1000 };

static int file_write(void *ctx, const char *buf, size_t len)
{
	return fwrite(buf, 1, len, ctx) == len ? 0 : WRITE_FAILED;
}

/* One line for a library error (or a failed write) of the command. */
/* What did not fit the accumulator: said, and the view is not clean. */
static int report_cut(const struct views_run *r)
{
	struct pft_views_cut c;
	const char *name = commands[r->cmd].name;

	if (pft_views_cut(r->views, &c, sizeof(c)) < 0 ||
	    !(c.contexts | c.calls | c.insns | c.tail_calls))
		return 0;
	if (c.contexts)
		cli_error("%s: the trace nests deeper than %" PRIu64 " calling contexts: those "
			  "past it of %" PRIu64 " function%s are merged, one a function, with no "
			  "callers", name, c.table_max, c.contexts, c.contexts == 1 ? "" : "s");
	if (c.calls)
		cli_error("%s: more than %" PRIu64 " caller -> callee pairs: %" PRIu64 " call%s "
			  "of the others are not counted per pair", name, c.table_max, c.calls,
			  c.calls == 1 ? "" : "s");
	if (c.insns)
		cli_error("%s: more than %" PRIu64 " distinct ranges: %" PRIu64 " instruction%s "
			  "of the others count for their functions, not per line", name,
			  c.table_max, c.insns, c.insns == 1 ? "" : "s");
	if (c.tail_calls)
		cli_error("%s: %" PRIu64 " tail call%s past 4096 in one call's chain: the calls "
			  "they end are not in the lengths of one call", name, c.tail_calls,
			  c.tail_calls == 1 ? "" : "s");
	return 1;
}

static int report(const struct views_run *r, int err)
{
	cli_error("%s: %s", commands[r->cmd].name,
		  err == WRITE_FAILED ? "write error" : pft_errstr(pft_errcode(err)));
	return -1;
}

static void usage(void *ctx)
{
	const struct views_run *r = ctx;
	enum view_cmd cmd = r->cmd;

	printf("usage: pft %s INPUT [IMAGES] [--format ", commands[cmd].name);
	for (int i = 0; i < commands[cmd].nformats; i++)
		printf("%s%s", i ? "|" : "", commands[cmd].formats[i]);
	printf("]%s [--output FILE]%s%s%s%s\n\n", cmd == CMD_EXCEPTIONS ? "" : " [--function NAME]",
	       takes_clock(cmd) ? " [--clock HZ]" : "",
	       cmd == CMD_TIMELINE ? " [--ts-clock HZ]" : "",
	       cmd == CMD_PROFILE ? " [--exclude-exceptions]" : "",
	       cmd == CMD_ANNOTATE ? " [--order hot|address]" : "");
	printf("Decodes like pft decode and writes %s.\n"
	       "Source files and lines come from the DWARF of the --elf files.\n%s\n",
	       commands[cmd].what,
	       cmd == CMD_TIMELINE ? "" :
	       "Two functions of one name are written 'name (file.c)', else 'name@0xADDR'\n"
	       "(in JSON lines: a label field).\n");
	printf("%s%s%s"
	       "output:\n"
	       "  --format FORMAT       (default %s)\n"
	       "%s%s"
	       OUTPUT_HELP,
	       INPUT_OPTIONS_HELP, JOBS_HELP, IMAGES_HELP, commands[cmd].formats[0],
	       cmd == CMD_EXCEPTIONS ? "" : FUNCTION_HELP,
	       cmd == CMD_CALLS || cmd == CMD_TIMELINE
	       ? "                        (the calls and returns into and out of it)\n" : "");
	if (cmd == CMD_ANNOTATE)
		printf("  --order hot|address   the functions most executed first (default), or\n"
		       "                        by address\n");
	if (cmd == CMD_TIMELINE)
		printf("  --ts-clock HZ         timestamps per second (default: the snapshot's\n"
		       "                        timestamp frequency; else one tick is shown as\n"
		       "                        one microsecond, and each track says so): the\n"
		       "                        sources with timestamps are laid on their common\n"
		       "                        time base, a core whose trace starts later starts\n"
		       "                        later\n"
		       "  --clock HZ            for sources without timestamps: cycles per\n"
		       "                        second (1000000000, 1e9, 800MHz, 1GHz; else one\n"
		       "                        count is one microsecond); without cycles,\n"
		       "                        instructions count\n");
	if (cmd == CMD_PROFILE || cmd == CMD_EXCEPTIONS)
		printf("  --clock HZ            the core's cycles per second (1e9, 800MHz, ...):\n"
		       "                        lengths of a cycle-accurate trace in ns, not\n"
		       "                        cycles (without cycle counts, lengths are in\n"
		       "                        instructions)\n");
	if (cmd == CMD_PROFILE)
		printf("  --exclude-exceptions  leave the time spent in exception handlers out of\n"
		       "                        the lengths of the calls they interrupted\n");
}

/* The calls listing's writer: a failed write leaves the file's error flag
 * set, which the command checks at the end (as for its other listings). */
static int listing_write(void *ctx, const char *buf, size_t len)
{
	fwrite(buf, 1, len, ctx);
	return 0;
}

/* The trace ID the calls listing shows for source @src. */
static int source_id(const struct pft_input_source *src)
{
	return src->id >= 0 ? src->id : src->cfg.trace_id;
}

/* Take the events the last put or finish of source @i produced. */
static int drain_calls(struct views_run *r, size_t i)
{
	const struct pft_call_event *ev;

	if (r->cmd == CMD_CALLS) {
		const struct pft_input_source *src = &r->in.src[i].info;
		int err = pft_calls_listing_take(r->listing, r->calls[i], r->sel, src->image,
						 source_id(src), src->cpu);
		return err ? report(r, err) : 0;
	}
	while ((ev = pft_calls_next_in_place(r->calls[i]))) {
		if (!pft_select_event(r->sel, ev))
			continue;
		int err = pft_timeline_put(r->tracks[i], ev, sizeof(*ev));
		if (err)
			return report(r, err);
	}
	return 0;
}

/* An error in the trace of source @i at @offset: counted, the first kept. */
static void count_error(struct views_run *r, size_t i, uint64_t offset, const char *what)
{
	if (!r->errors++)
		r->first_error = (struct first_error){ .source = i, .offset = offset, .what = what };
}

/* The errors in the trace, in one line: the views go on past them and
 * list none (pft decode does). */
static void report_errors(const struct views_run *r)
{
	const struct first_error *f = &r->first_error;

	if (r->errors)
		input_report_trace_errors(&r->in.src[f->source].info, r->errors, f->offset, f->what,
					  "the views count what decoded; pft decode lists the errors");
}

/* The @n elements of a run of source @i (with @timed, one, at @time on
 * the sources' common base: for a timeline track that keeps it). */
static int on_run(struct views_run *r, size_t i, const struct pft_elem *e, size_t n, int timed,
		  uint64_t time)
{
	int err;

	for (size_t k = 0; k < n; k++)
		if (e[k].type == PFT_ELEM_ERROR)
			count_error(r, i, e[k].offset, pft_errstr(e[k].reason));
	if (r->cmd == CMD_TIMELINE && timed && n == 1) {
		err = pft_timeline_put_time(r->tracks[i], r->calls[i], e, sizeof(*e), time);
		return err ? report(r, err) : 0;
	}
	if (r->views) {
		err = pft_views_put_run(r->views, (unsigned)i, e, n, sizeof(*e));
		return err ? report(r, err) : 0;
	}
	if (r->cmd == CMD_TIMELINE && !r->sel) {
		err = pft_timeline_put_run(r->tracks[i], r->calls[i], e, n, sizeof(*e));
		return err ? report(r, err) : 0;
	}
	if (r->cmd == CMD_CALLS) {
		const struct pft_input_source *src = &r->in.src[i].info;
		err = pft_calls_listing_put_run(r->listing, r->calls[i], r->sel, src->image,
						source_id(src), src->cpu, e, n, sizeof(*e));
		return err ? report(r, err) : 0;
	}
	/* The events of the whole run, taken after it (an element of unknown
	 * type ends it: the tracker refuses that one). */
	for (size_t k = 0; k < n; k += (size_t)err) {
		err = pft_calls_put_all(r->calls[i], e + k, n - k, sizeof(*e));
		if (err < 0)
			return report(r, err);
		if (drain_calls(r, i))
			return -1;
	}
	return 0;
}

/* The image of the first decoded source (NULL after a message: none). */
static struct pft_image *first_image(const struct input *in)
{
	for (size_t i = 0; i < in->nsrc; i++)
		if (in->src[i].info.decoded && in->src[i].info.image)
			return in->src[i].info.image;
	cli_error("no decoded source");
	return NULL;
}

/* The timeline's clock for source @s: its cycles, else its timestamps,
 * else instructions. */
static unsigned timeline_clock(const struct pft_ptm_config *cfg)
{
	if (cfg->cycle_accurate)
		return PFT_TIMELINE_CYCLES;
	return cfg->timestamps ? PFT_TIMELINE_TIMESTAMP : PFT_TIMELINE_INSNS;
}

/* The labels of the names the program's functions share: over the
 * lines and every decoded source's image. */
static int alloc_labels(struct views_run *r)
{
	struct pft_image **images = calloc(r->in.nsrc ? r->in.nsrc : 1, sizeof(*images));
	struct pft_names_config nc = { .size = sizeof(nc), .lines = r->lines, .images = images };
	int err = -PFT_ERR_NOMEM;

	if (!images)
		return err;
	for (size_t i = 0; i < r->in.nsrc; i++)
		if (r->in.src[i].info.decoded)
			images[nc.nimages++] = r->in.src[i].info.image;
	r->labels = pft_names_alloc(&nc, &err);
	free(images);
	return err;
}

/* A parallel decode decodes one source: its threads do the first part of
 * the work of the views or the calls tracker it feeds (pft_input_set_fold()). */
static int set_fold(struct views_run *r)
{
	const struct input *in = &r->in;
	size_t k = 0;

	if (!input_one_decoded(in, &k))
		return 0;
	const struct pft_input_source *src = &in->src[k].info;
	const struct pft_fold *f = r->views ? pft_views_fold(r->views, (unsigned)k)
				   : r->listing
				   ? pft_calls_listing_fold(r->listing, r->calls[k], r->sel, src->image,
							    source_id(src), src->cpu)
				   : pft_calls_fold(r->calls[k]);
	int err = f ? pft_input_set_fold(in->in, f) : -PFT_ERR_NOMEM;
	return err ? report(r, err) : 0;
}

/* PFT_CALLS_LOGS: the calls listing's logs at -j (pft_calls_listing_config
 * .par_logs), few, so that tests run its threads out of them. */
static uint32_t calls_logs_for_tests(void)
{
	const char *s = getenv("PFT_CALLS_LOGS");
	uint32_t v;

	return s && !cli_parse_u32(s, &v) ? v : 0;
}

/* Allocate what the command feeds: the views, or a calls tracker (and a
 * timeline track) per decoded source. */
static int start(struct views_run *r)
{
	struct input *in = &r->in;
	int err = 0;

	if (uses_views(r->cmd)) {
		/* The annotation needs no calls: it costs little more than
		 * the decode without them. */
		struct pft_views_config vc = { .size = sizeof(vc), .lines = r->lines,
					       .exclude_exceptions = (uint8_t)r->exclude_exceptions,
					       .insns_only = r->cmd == CMD_ANNOTATE,
					       .no_contexts = r->cmd == CMD_COVERAGE,
					       .clock_hz = r->hz };
		if (!(vc.image = first_image(in)))
			return -1;
		if (!(r->views = pft_views_alloc(&vc, &err)))
			goto fail;
		if (r->cmd == CMD_ANNOTATE)
			disasm_open(&r->dis);
		struct pft_views_output vo = { .size = sizeof(vo), .select = r->sel,
					       .disasm = r->dis.ok ? disasm_views : NULL,
					       .disasm_ctx = &r->dis, .order = (uint8_t)r->order };
		if ((err = pft_views_set_output(r->views, &vo)))
			goto fail;
		/* Cores with different memory: each source its own image. */
		for (size_t i = 0; i < in->nsrc; i++)
			if (in->src[i].info.decoded && in->src[i].info.image &&
			    (err = pft_views_set_image(r->views, (unsigned)i, in->src[i].info.image)))
				goto fail;
		return set_fold(r);
	}
	r->calls = calloc(in->nsrc, sizeof(*r->calls));
	r->tracks = calloc(in->nsrc, sizeof(*r->tracks));
	if (!r->calls || !r->tracks) {
		err = -PFT_ERR_NOMEM;
		goto fail;
	}
	if (r->cmd == CMD_CALLS) {
		if ((err = alloc_labels(r)))
			goto fail;
		struct pft_calls_listing_config lc = {
			.size = sizeof(lc), .show_id = (uint8_t)r->in.multi_id, .lines = r->lines,
			.labels = r->labels, .write = listing_write, .ctx = r->out,
			.format = r->format == FMT_JSONL ? PFT_LISTING_JSONL : PFT_LISTING_TEXT,
			.par_logs = calls_logs_for_tests()
		};
		if (!(r->listing = pft_calls_listing_alloc(&lc, &err)) ||
		    (r->format == FMT_TEXT && (err = pft_calls_listing_header(r->listing))))
			goto fail;
	}
	if (r->cmd == CMD_TIMELINE && (err = pft_timeline_begin(file_write, r->out)))
		goto fail;
	for (size_t i = 0; i < in->nsrc; i++) {
		const struct pft_input_source *s = &in->src[i].info;
		if (!s->decoded)
			continue;
		struct pft_calls_config cc = { .size = sizeof(cc), .image = s->image };
		if (!(r->calls[i] = pft_calls_alloc(&cc, &err)))
			goto fail;
		if (r->cmd != CMD_TIMELINE)
			continue;
		int id = s->id >= 0 ? s->id : s->cfg.trace_id;
		char name[128];
		snprintf(name, sizeof(name), "%s (trace ID 0x%02x)", s->name, id);
		struct pft_timeline_config tc = {
			.size = sizeof(tc), .write = file_write, .ctx = r->out, .image = s->image,
			.lines = r->lines, .track_name = name, .hz = r->hz, .tid = (uint32_t)id,
			.clock = (uint8_t)timeline_clock(&s->cfg)
		};
		/* With timestamps: every track on their common base, in real
		 * time at --ts-clock, or the snapshot's frequency (--clock when
		 * the trace has no cycles: its counts were the timestamps). */
		if (s->timestamps) {
			tc.hz = r->ts_clock ? r->ts_clock
				: r->hz && !s->cycle_accurate ? r->hz : r->ts_hz;
			tc.clock = PFT_TIMELINE_TIME;
		}
		if (!(r->tracks[i] = pft_timeline_alloc(&tc, &err)))
			goto fail;
	}
	return set_fold(r);
fail:
	return report(r, err);
}

/* The end of the trace: close the calls, write the views. */
static int finish(struct views_run *r)
{
	int err = 0;

	if (r->views) {
		if (!(err = pft_views_finish(r->views)))
			err = pft_views_write(r->views, r->format, "pft", file_write, r->out);
		if (!err)
			r->cut = report_cut(r);
	} else {
		for (size_t i = 0; i < r->in.nsrc && !err; i++) {
			if (!r->calls[i])
				continue;
			if ((err = pft_calls_finish(r->calls[i])))
				break;
			if (drain_calls(r, i))
				return -1;
		}
		if (!err && r->listing)
			err = pft_calls_listing_flush(r->listing);
		for (size_t i = 0; r->tracks && i < r->in.nsrc && !err; i++)
			if (r->tracks[i])
				err = pft_timeline_flush(r->tracks[i]);
		if (!err && r->cmd == CMD_TIMELINE)
			err = pft_timeline_end(file_write, r->out);
	}
	return err ? report(r, err) : 0;
}

/* After the input is closed (its threads may fold for the consumers until
 * then): @nsrc, its sources. */
static void release(struct views_run *r, size_t nsrc)
{
	/* Even after an error: the lines before it, as they were written
	 * (the decode threads' pieces formatted with the selection). */
	pft_calls_listing_flush(r->listing);
	for (size_t i = 0; r->calls && i < nsrc; i++) {
		pft_calls_free(r->calls[i]);
		if (r->tracks)
			pft_timeline_free(r->tracks[i]);
	}
	free(r->calls);
	free(r->tracks);
	pft_views_free(r->views);
	pft_select_free(r->sel);
	disasm_close(&r->dis);
	pft_calls_listing_free(r->listing);
	pft_names_free(r->labels);
}

/* The timestamp frequency snapshot @dir gives (0: none), in *@hz.  The
 * input read it already: an error here is rare (a file changed). */
static int snapshot_ts_hz(const char *dir, unsigned flags, uint64_t *hz)
{
	struct pft_snapshot *snap;
	struct pft_diag why;

	if (pft_snap_load(dir, flags, &snap, &why) < 0) {
		cli_error("%s", why.text);
		return -1;
	}
	*hz = snap->ts_frequency;
	pft_snap_free(snap);
	return 0;
}

/* Whether the format asked for can be written (lcov needs source lines):
 * said before decoding, not after as an empty file.  0, or -1 after a
 * message. */
static int lines_check(const struct views_run *r)
{
	struct pft_views_config vc = { .size = sizeof(vc), .lines = r->lines };
	struct pft_diag why;

	if (!uses_views(r->cmd))
		return 0;
	for (size_t i = 0; i < r->in.nsrc && !vc.image; i++)
		if (r->in.src[i].info.decoded)
			vc.image = r->in.src[i].info.image;
	if (pft_views_check_format(&vc, (enum pft_view_format)r->format, &why) == 0)
		return 0;
	cli_error("%s: %s: --format %s needs source lines%s", commands[r->cmd].name, why.text,
		  r->format == PFT_VIEW_LCOV ? "lcov"
		  : r->format == PFT_VIEW_LLVM_SAMPLE ? "llvm-sample" : "?",
		  r->lines ? "" : ": give the program with --elf (built with -g)");
	return -1;
}

/* --format: one of the command's formats. */
static int parse_format(void *ctx, const char *arg, int *format)
{
	const struct views_run *r = ctx;

	for (int i = 0; i < commands[r->cmd].nformats; i++)
		if (!strcmp(arg, commands[r->cmd].formats[i])) {
			*format = commands[r->cmd].values[i];
			return 0;
		}
	cli_error("%s: --format: '%s' is not one of this command's formats (try 'pft %s --help')",
		  commands[r->cmd].name, arg, commands[r->cmd].name);
	return -1;
}

/* The views' own options: --clock HZ (timeline, profile, exceptions),
 * --ts-clock HZ (timeline), --exclude-exceptions (profile) and --order
 * (annotate). */
static int views_option(void *ctx, int code, const char *arg)
{
	struct views_run *r = ctx;
	const char *name = commands[r->cmd].name;
	const char *opt = code == 't' ? "--ts-clock" : "--clock";

	if (code == 'o') {
		if (r->cmd != CMD_ANNOTATE) {
			cli_error("%s: --order goes with pft annotate", name);
			return -1;
		}
		if (!strcmp(arg, "hot") || !strcmp(arg, "address")) {
			r->order = !strcmp(arg, "hot") ? PFT_VIEWS_ORDER_HOT : PFT_VIEWS_ORDER_ADDRESS;
			return 0;
		}
		cli_error("%s: --order: '%s' is neither hot nor address", name, arg);
		return -1;
	}
	if (code == 'x') {
		if (r->cmd != CMD_PROFILE) {
			cli_error("%s: --exclude-exceptions goes with pft profile", name);
			return -1;
		}
		r->exclude_exceptions = 1;
		return 0;
	}
	if (code == 't' && r->cmd != CMD_TIMELINE) {
		cli_error("%s: --ts-clock goes with pft timeline", name);
		return -1;
	}
	if (code == 'k' && !takes_clock(r->cmd)) {
		cli_error("%s: --clock goes with pft timeline, profile and exceptions", name);
		return -1;
	}
	return cli_parse_hz(name, opt, arg, code == 't' ? &r->ts_clock : &r->hz);
}

static int run(int argc, char **argv, enum view_cmd cmd)
{
	static const struct option own[] = {
		{ "clock", required_argument, NULL, 'k' },
		{ "ts-clock", required_argument, NULL, 't' },
		{ "exclude-exceptions", no_argument, NULL, 'x' },
		{ "order", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 }
	};
	struct views_run r = { .cmd = cmd, .out = stdout, .order = PFT_VIEWS_ORDER_HOT };
	const struct cmd_spec spec = {
		.name = commands[cmd].name,
		/* (Exceptions are counted per kind, over every function.) */
		.groups = OPTS_FILES | OPTS_INPUT | OPTS_JOBS | OPTS_IMAGES | OPTS_FORMAT |
			  OPTS_OUTPUT | (cmd == CMD_EXCEPTIONS ? 0u : OPTS_FUNCTION),
		.format_default = commands[cmd].values[0], .own = own, .option = views_option,
		.format = parse_format, .usage = usage, .ctx = &r
	};
	const char *name = spec.name;
	struct cmd_args a;
	struct input_opts *o = &a.input;
	int rc = cmd_parse(argc, argv, &spec, &a);

	if (rc != CMD_GO_ON)
		goto out;
	r.format = a.format;
	/* The timeline: the sources' items with their times. */
	if (cmd == CMD_TIMELINE)
		o->merge = PFT_INPUT_MERGE_TIMES;
	/* The images are checked (with a clear message) as the input opens,
	 * before the lines read them. */
	if ((rc = input_open(&r.in, o, 0, 1, &a.images)))
		goto out_input;
	rc = EXIT_USAGE;
	if (cmd == CMD_TIMELINE && o->snapshot &&
	    snapshot_ts_hz(o->snapshot, o->allow_outside ? PFT_SNAP_ALLOW_OUTSIDE : 0u, &r.ts_hz))
		goto out_input;
	if (image_args_lines(&a.images, &r.lines) ||
	    input_select(&r.in, name, r.lines, a.functions, a.nfunctions, &r.sel))
		goto out_input;
	if (lines_check(&r) || cmd_open_output(&a))
		goto out_input;
	/* The views write at the end: progress on a terminal. */
	if (uses_views(cmd))
		cli_progress_start(1);
	/* The calls and the timeline write an event per call: a large buffer
	 * (glibc takes a size only with a buffer: alone, it gave 4 KiB and a
	 * write(2) per piece of the timeline), but one that stays in the
	 * cache, where 1 MiB went through it.  Static: stdout is flushed at
	 * exit, after run() returns.  The calls listing has its own
	 * (pft_calls_listing_alloc()), whose 64 KiB pieces go straight to
	 * write(2), not copied. */
	static char out_buffer[1 << 16];
	if (cmd == CMD_CALLS ? setvbuf(r.out, NULL, _IONBF, 0)
			     : setvbuf(r.out, out_buffer, _IOFBF, sizeof(out_buffer))) {
		cli_error("%s: out of memory", name);
		goto out_input;
	}
	if (start(&r))
		goto out_input;
	struct pft_item item;
	int n;
	while ((n = input_next(&r.in, &item)) > 0) {
		if (item.type == PFT_ITEM_ELEM) {
			if (on_run(&r, item.source, item.elem, item.count, item.timed, item.time))
				goto out_input;
		} else if (item.type == PFT_ITEM_GAP && item.status) {
			count_error(&r, item.source, item.offset,
				    pft_errstr(pft_errcode(item.status)));
		}
	}
	if (n < 0 || finish(&r))
		goto out_input;
	/* As pft decode: what the options or images seem to get wrong, then
	 * the errors. */
	int problems = input_check_sources(&r.in, o, 0) + input_fit_report(&r.in);
	if (o->merge)
		input_merge_report(&r.in, NULL);
	report_errors(&r);
	rc = r.errors || problems || r.cut ? EXIT_DECODE_ERRORS : EXIT_OK;
out_input: {
	size_t nsrc = r.in.nsrc;
	input_close(&r.in);
	release(&r, nsrc);
}
out:
	pft_lines_free(r.lines);
	cmd_args_free(&a);
	return rc;
}

int cmd_coverage(int argc, char **argv)
{
	return run(argc, argv, CMD_COVERAGE);
}

int cmd_profile(int argc, char **argv)
{
	return run(argc, argv, CMD_PROFILE);
}

int cmd_timeline(int argc, char **argv)
{
	return run(argc, argv, CMD_TIMELINE);
}

int cmd_calls(int argc, char **argv)
{
	return run(argc, argv, CMD_CALLS);
}

int cmd_exceptions(int argc, char **argv)
{
	return run(argc, argv, CMD_EXCEPTIONS);
}

int cmd_annotate(int argc, char **argv)
{
	return run(argc, argv, CMD_ANNOTATE);
}
