/* pft encode: model a PTM or an ETMv3 on an executed-instruction log and
 * write the trace (raw, frame-formatted, as an OpenCSD snapshot, or as a
 * Linux perf.data file).  pft stats
 * (cmd_stats.c) runs the same model and counts the bytes instead. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "encode.h"
#include "images.h"
#include "input.h"
#include "options.h"
#include "snapshot_out.h"

/* Options of encode and stats beyond the shared configuration flags. */
enum {
	OPT_LOG = INPUT_OPT_END,
	OPT_ELF,
	OPT_IMAGE,
	OPT_SYNC_PERIOD,
	OPT_TS_PERIOD,
	OPT_FILTER,
	OPT_CTXID,
	OPT_OUT_RAW,
	OPT_OUT_FORMATTED,
	OPT_OUT_SNAPSHOT,
	OPT_OUT_PERF,
	OPT_PERF_RAW,
	OPT_FORMAT,
	OPT_QUIET,
	OPT_FORCE,
	OPT_HELP
};

/* Packet types counted by stats: enough for both protocols. */
enum { TYPES_MAX = 32 };
_Static_assert((int)PFT_PTM_PKT_TYPE_MAX <= (int)TYPES_MAX &&
		       (int)PFT_ETM3_PKT_TYPE_MAX <= (int)TYPES_MAX,
	       "packet type counters too small");

struct encode {
	int stats;
	const char *log;
	struct image_args images;
	struct input_opts io;      /* configuration flags, --id, --tpiu */
	struct pft_model_config mc;
	int have_ctxid;
	uint32_t ctxid;
	const char *out_raw, *out_formatted, *out_snapshot, *out_perf;
	int perf_raw;
	int quiet;               /* --quiet: no summary line */
	int force;               /* --force: into a non-empty --out-snapshot */
	int format;

	struct pft_image *image;
	struct pft_ptm_model *model;   /* one of the two models */
	struct pft_etm3_model *model3;
	FILE *raw, *formatted, *snap_trace;
	struct pft_perf_writer *perf;
	struct pft_ffmt *ffmt;
	uint8_t *frames;
	uint64_t count[TYPES_MAX], bytes[TYPES_MAX];
	uint64_t exceptions;     /* exception entries in the log */
};

enum { FRAME_CHUNK = 64 * 1024 };

static void usage(FILE *out, int stats)
{
	if (stats)
		fprintf(out, "usage: pft stats --log FILE IMAGES [CONFIGURATION] "
			     "[--format text|jsonl]\n\n"
			     "Trace bytes per instruction and per packet type that a PTM (or,\n"
			     "with --protocol etmv3, an ETMv3) with this configuration would\n"
			     "produce for the log.\n\n");
	else
		fprintf(out, "usage: pft encode --log FILE IMAGES [CONFIGURATION] OUTPUTS\n\n"
			     "Models a PTM (or an ETMv3): turns an executed-instruction log into\n"
			     "trace.\n\n");
	fprintf(out,
		"  --log FILE            qemu-arm or qemu-system-arm '-singlestep -d\n"
		"                        exec,nochain[,int]' log (',int': exceptions; add\n"
		"                        ',cpu' for ETMv3's condition-failed atoms), or one\n"
		"                        hex address per line (odd = Thumb; an optional\n"
		"                        second column gives its cycles; lines 'ctxid V',\n"
		"                        'vmid V', 'ns 0|1', 'exception KIND [RET]' set the\n"
		"                        state from the next address on); '-' = stdin\n"
		"  --protocol ptm|etmv3  the trace source modelled (default ptm); etmv3 is an\n"
		"                        ETMv3.5 of a Cortex-A7 (no --return-stack,\n"
		"                        --pft-version 1.0 or --dmb-dsb-waypoints)\n"
		"images (at least one):\n"
		"  --elf FILE[@BIAS]     an ARM ELF executable or shared object\n"
		"  --image FILE@ADDR     a raw memory dump loaded at ADDR\n"
		"configuration:\n"
		"  --cycle-accurate --timestamps --ctxid-bytes N --vmid --return-stack\n"
		"  --branch-broadcast --pft-version 1.0|1.1 --ts-bits 48|64 --ts-gray\n"
		"  --dmb-dsb-waypoints   DMB and DSB are waypoints (ETMCCER[24])\n"
		"  --sync-period N       trace bytes between periodic syncs (default 1024)\n"
		"  --ts-period N         with --timestamps, one every N waypoints as well\n"
		"  --filter START-END    trace only START <= address < END\n"
		"  --ctxid VALUE         the program's context ID (default 0)\n");
	if (stats)
		fprintf(out, "output:\n  --format text|jsonl   (default text)\n");
	else
		fprintf(out,
			"outputs (at least one):\n"
			"  --out-raw FILE        the PFT byte stream\n"
			"  --out-formatted FILE  CoreSight frames (ETB format; --tpiu: with FSYNCs)\n"
			"  --id N                trace ID in frames and snapshots (default 0x10)\n"
			"  --out-snapshot DIR    OpenCSD snapshot: registers, trace buffer, memory\n"
			"  --out-perf FILE       Linux perf.data (per-thread cs_etm recording of the\n"
			"                        --elf programs; perf script decodes it)\n"
			"  --perf-raw            its AUX data unformatted (default: CoreSight frames)\n"
			"  --force               write --out-snapshot into a directory that is not\n"
			"                        empty (never over an input)\n"
			"  --quiet               no line saying what was written\n");
}

static int parse_filter(struct encode *e, const char *arg)
{
	const char *dash = strchr(arg, '-');
	char start[64];
	uint32_t lo, hi;

	if (!dash || (size_t)(dash - arg) >= sizeof(start))
		goto bad;
	memcpy(start, arg, (size_t)(dash - arg));
	start[dash - arg] = 0;
	if (cli_parse_u32(start, &lo) || cli_parse_u32(dash + 1, &hi))
		goto bad;
	if (hi <= lo) {
		cli_error("--filter: '%s' is empty (END must be above START)", arg);
		return -1;
	}
	e->mc.filter = 1;
	e->mc.filter_start = lo;
	e->mc.filter_end = hi;
	return 0;
bad:
	cli_error("--filter: '%s' is not START-END (two 32-bit addresses)", arg);
	return -1;
}

static int parse_u32_opt(const char *opt, const char *arg, uint32_t min, uint32_t *out)
{
	if (cli_parse_u32(arg, out) || *out < min) {
		cli_error("%s: '%s' is not a number%s", opt, arg, min ? " above 0" : "");
		return -1;
	}
	return 0;
}

/* One option of encode/stats. Returns 0, 1 for --help, -1 on error. */
static int take_option(struct encode *e, int c, const char *arg, char **argv)
{
	const char *cmd = e->stats ? "stats" : "encode";

	if ((c >= OPT_CYCLE_ACCURATE && c < INPUT_OPT_END) || c == OPT_ID || c == OPT_TPIU)
		return input_option(&e->io, c, arg);
	switch (c) {
	case OPT_LOG: e->log = arg; return 0;
	case OPT_ELF: return image_args_add(&e->images, arg, 1);
	case OPT_IMAGE: return image_args_add(&e->images, arg, 0);
	case OPT_SYNC_PERIOD: return parse_u32_opt("--sync-period", arg, 1, &e->mc.sync_period);
	case OPT_TS_PERIOD: return parse_u32_opt("--ts-period", arg, 0, &e->mc.ts_period);
	case OPT_FILTER: return parse_filter(e, arg);
	case OPT_CTXID:
		e->have_ctxid = 1;
		return parse_u32_opt("--ctxid", arg, 0, &e->ctxid);
	case OPT_OUT_RAW: e->out_raw = arg; return 0;
	case OPT_OUT_FORMATTED: e->out_formatted = arg; return 0;
	case OPT_OUT_SNAPSHOT: e->out_snapshot = arg; return 0;
	case OPT_OUT_PERF: e->out_perf = arg; return 0;
	case OPT_PERF_RAW: e->perf_raw = 1; return 0;
	case OPT_QUIET: e->quiet = 1; return 0;
	case OPT_FORCE: e->force = 1; return 0;
	case OPT_FORMAT:
		return cli_parse_format(arg, &e->format);
	case OPT_HELP: return 1;
	default:
		cli_bad_option(cmd, argv, optopt);
		return -1;
	}
}

static int parse_args(struct encode *e, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "cycle-accurate", no_argument, NULL, OPT_CYCLE_ACCURATE },
		{ "timestamps", no_argument, NULL, OPT_TIMESTAMPS },
		{ "ctxid-bytes", required_argument, NULL, OPT_CTXID_BYTES },
		{ "vmid", no_argument, NULL, OPT_VMID },
		{ "return-stack", no_argument, NULL, OPT_RETURN_STACK },
		{ "pft-version", required_argument, NULL, OPT_PFT_VERSION },
		{ "ts-bits", required_argument, NULL, OPT_TS_BITS },
		{ "ts-gray", no_argument, NULL, OPT_TS_GRAY },
		{ "branch-broadcast", no_argument, NULL, OPT_BRANCH_BROADCAST },
		{ "id", required_argument, NULL, OPT_ID },
		{ "tpiu", no_argument, NULL, OPT_TPIU },
		{ "log", required_argument, NULL, OPT_LOG },
		{ "elf", required_argument, NULL, OPT_ELF },
		{ "image", required_argument, NULL, OPT_IMAGE },
		{ "sync-period", required_argument, NULL, OPT_SYNC_PERIOD },
		{ "ts-period", required_argument, NULL, OPT_TS_PERIOD },
		{ "filter", required_argument, NULL, OPT_FILTER },
		{ "ctxid", required_argument, NULL, OPT_CTXID },
		{ "dmb-dsb-waypoints", no_argument, NULL, OPT_DMB_DSB_WAYPOINTS },
		{ "out-raw", required_argument, NULL, OPT_OUT_RAW },
		{ "out-formatted", required_argument, NULL, OPT_OUT_FORMATTED },
		{ "out-snapshot", required_argument, NULL, OPT_OUT_SNAPSHOT },
		{ "out-perf", required_argument, NULL, OPT_OUT_PERF },
		{ "perf-raw", no_argument, NULL, OPT_PERF_RAW },
		{ "quiet", no_argument, NULL, OPT_QUIET },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "protocol", required_argument, NULL, OPT_PROTOCOL },
		{ "help", no_argument, NULL, OPT_HELP },
		{ NULL, 0, NULL, 0 }
	};
	const char *cmd = e->stats ? "stats" : "encode";
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c == '?') {
			cli_bad_option(cmd, argv, optopt);
			return -1;
		}
		int r = take_option(e, c, optarg, argv);
		if (r)
			return r;
	}
	if (optind < argc) {
		cli_error("%s: unexpected argument '%s'", cmd, argv[optind]);
		return -1;
	}
	if (!e->log) {
		cli_error("%s: no log: give --log FILE", cmd);
		return -1;
	}
	if (!e->images.n) {
		cli_error("%s: no program image: give --elf FILE or --image FILE@ADDR", cmd);
		return -1;
	}
	if (!e->stats && !e->out_raw && !e->out_formatted && !e->out_snapshot && !e->out_perf) {
		cli_error("encode: no output: give --out-raw, --out-formatted, --out-snapshot "
			  "or --out-perf");
		return -1;
	}
	if (e->perf_raw && !e->out_perf) {
		cli_error("--perf-raw goes with --out-perf");
		return -1;
	}
	if (e->io.tpiu && !e->out_formatted) {
		cli_error("--tpiu goes with --out-formatted");
		return -1;
	}
	if (e->io.nids > 1) {
		cli_error("--id: encode writes one trace source: give one trace ID");
		return -1;
	}
	if (e->io.etm3 && (e->io.ptm_only || e->io.cfg.dmb_dsb_waypoints)) {
		cli_error("--protocol etmv3: ETMv3 has no return stack, PFT version or DMB/DSB "
			  "waypoints (--return-stack, --pft-version, --dmb-dsb-waypoints)");
		return -1;
	}
	return 0;
}

/* The registers of the modelled source. */
static void source_regs(const struct encode *e, struct ptm_regs *r, uint32_t sync_period)
{
	struct pft_etm3_config cfg3;

	*r = (struct ptm_regs){ .regs.size = sizeof(r->regs), .etmsyncfr = sync_period,
				.etm3 = e->io.etm3 };
	pft_etm3_config_init(&cfg3);
	/* The flags are valid for either (check_options() and the model). */
	if (!e->io.etm3)
		pft_ptm_config_to_regs(&e->io.cfg, &r->regs);
	else if (!pft_etm3_config_from_ptm(&cfg3, &e->io.cfg))
		pft_etm3_config_to_regs(&cfg3, &r->regs);
}

/* The ETMv3 model, configured as the registers of a snapshot of it say. */
static int alloc_etm3_model(struct encode *e)
{
	struct pft_etm3_config cfg;
	int err;

	pft_etm3_config_init(&cfg);
	err = pft_etm3_config_from_ptm(&cfg, &e->io.cfg);
	if (!err)
		e->model3 = pft_etm3_model_alloc(&cfg, &e->mc, e->image, &err);
	if (err)
		cli_error("cannot create the ETMv3 model: %s", pft_errstr(pft_errcode(err)));
	return err ? -1 : 0;
}

/* The next packet of either model: its type, bytes and size. */
static int model_next(struct encode *e, unsigned *type, const uint8_t **raw, size_t *size)
{
	if (e->io.etm3) {
		struct pft_etm3_packet p;
		if (pft_etm3_model_next(e->model3, &p, sizeof(p)))
			return -1;
		*type = p.type;
		*raw = p.raw;
		*size = p.size;
		return 0;
	}
	struct pft_ptm_packet p;
	if (pft_ptm_model_next(e->model, &p, sizeof(p)))
		return -1;
	*type = p.type;
	*raw = p.raw;
	*size = p.size;
	return 0;
}

static const char *type_name(const struct encode *e, unsigned type)
{
	return e->io.etm3 ? pft_etm3_pkt_type_name(type) : pft_ptm_pkt_type_name(type);
}

/* A model or image refused the configuration: say which setting. */
static void config_error(const struct encode *e, int err)
{
	int problem = pft_ptm_config_check(&e->io.cfg);

	if (err != -PFT_ERR_BAD_CONFIG)
		cli_error("cannot create the PTM model: %s", pft_errstr(pft_errcode(err)));
	else if (problem == PFT_PTM_CONFIG_VMID_V10)
		cli_error("--vmid needs --pft-version 1.1 (PFTv1.0 has no VMID)");
	else if (problem == PFT_PTM_CONFIG_RS_AND_BB)
		cli_error("--return-stack and --branch-broadcast do not go together");
	else
		cli_error("the configuration is not valid for a PTM");
}

static int write_all(FILE *f, const char *path, const uint8_t *p, size_t n)
{
	if (fwrite(p, 1, n, f) != n) {
		cli_error("%s: write error", path);
		return -1;
	}
	return 0;
}

static int perf_trace(struct encode *e, const uint8_t *p, size_t n)
{
	int err = pft_perf_write_trace(e->perf, p, n);

	if (err)
		cli_error("%s: %s", e->out_perf, pft_errstr(pft_errcode(err)));
	return err ? -1 : 0;
}

/* Move finished frames to the formatted outputs. */
static int drain_frames(struct encode *e)
{
	while (pft_ffmt_ready(e->ffmt)) {
		int n = pft_ffmt_take(e->ffmt, e->frames, FRAME_CHUNK);
		if (n <= 0)
			return 0;
		if ((e->formatted && write_all(e->formatted, e->out_formatted, e->frames, (size_t)n)) ||
		    (e->snap_trace && write_all(e->snap_trace, e->out_snapshot, e->frames, (size_t)n)) ||
		    (e->perf && !e->perf_raw && perf_trace(e, e->frames, (size_t)n)))
			return -1;
	}
	return 0;
}

static int take_packets(struct encode *e)
{
	const uint8_t *raw;
	unsigned type;
	size_t size;

	while (model_next(e, &type, &raw, &size) == 0) {
		e->count[type]++;
		e->bytes[type] += size;
		if (e->raw && write_all(e->raw, e->out_raw, raw, size))
			return -1;
		if (e->perf && e->perf_raw && perf_trace(e, raw, size))
			return -1;
		if (e->ffmt && pft_ffmt_put(e->ffmt, e->io.cfg.trace_id, raw, size)) {
			cli_error("out of memory");
			return -1;
		}
	}
	if (e->ffmt && pft_ffmt_ready(e->ffmt) >= FRAME_CHUNK)
		return drain_frames(e);
	return 0;
}

static int model_error(const struct encode *e, uint64_t line)
{
	struct pft_diag why;

	if (e->io.etm3)
		pft_etm3_model_diag(e->model3, &why);
	else
		pft_ptm_model_diag(e->model, &why);
	cli_error("%s:%" PRIu64 ": %s", e->log, line, why.text);
	return EXIT_USAGE;
}

static int run_model(struct encode *e)
{
	struct pft_diag why;
	struct pft_insn_log *log = pft_insn_log_open(e->log, &why);
	struct pft_model_insn in;
	int have_prev = 0, r, rc = 0;

	if (!log) {
		cli_error("%s", why.text);
		return EXIT_USAGE;
	}
	while ((r = pft_insn_log_next(log, &in, sizeof(in))) > 0) {
		if (!have_prev && e->have_ctxid && !in.has_ctxid) {
			in.has_ctxid = 1;
			in.ctxid = e->ctxid;
		}
		int err = e->io.etm3 ? pft_etm3_model_put(e->model3, &in, sizeof(in))
				  : pft_ptm_model_put(e->model, &in, sizeof(in));
		if (err < 0) {
			rc = model_error(e, pft_insn_log_line(log));
			break;
		}
		have_prev = 1;
		if (take_packets(e)) {
			rc = EXIT_USAGE;
			break;
		}
	}
	if (r < 0) {
		pft_insn_log_diag(log, &why);
		cli_error("%s", why.text);
		rc = EXIT_USAGE;
	}
	if (!rc && !have_prev) {
		cli_error("%s: no instruction in the log", e->log);
		rc = EXIT_USAGE;
	}
	if (!rc) {
		if (e->io.etm3)
			pft_etm3_model_finish(e->model3);
		else
			pft_ptm_model_finish(e->model);
		if (take_packets(e))
			rc = EXIT_USAGE;
	}
	e->exceptions = pft_insn_log_exceptions(log);
	pft_insn_log_close(log);
	return rc;
}

/* ", PATH (N bytes)" for output file @path, or nothing without one. */
static size_t say_output(char *buf, size_t len, const char *path, const char *what)
{
	struct stat st;

	if (!path || !len)
		return 0;
	int n = stat(path, &st) ? snprintf(buf, len, ", %s (%s)", path, what)
				: snprintf(buf, len, ", %s (%s%" PRIu64 " bytes)", path, what,
					   (uint64_t)st.st_size);
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

/* After a successful encode, one line on standard error: what the log
 * made and where it went. */
static void print_summary(const struct encode *e)
{
	char outs[4 * PATH_MAX + 128], trace[PATH_MAX + 32];
	uint64_t insns = e->io.etm3 ? pft_etm3_model_insns(e->model3) : pft_ptm_model_insns(e->model);
	uint64_t packets = 0;
	size_t n = 0;

	for (int t = 0; t < TYPES_MAX; t++)
		packets += e->count[t];
	n += say_output(outs + n, sizeof(outs) - n, e->out_raw, "");
	n += say_output(outs + n, sizeof(outs) - n, e->out_formatted, "frames, ");
	if (e->out_snapshot) {
		snprintf(trace, sizeof(trace), "%s/%s", e->out_snapshot, SNAP_OUT_TRACE);
		struct stat st;
		int r = stat(trace, &st) ? snprintf(outs + n, sizeof(outs) - n, ", %s/ (snapshot)",
						     e->out_snapshot)
					 : snprintf(outs + n, sizeof(outs) - n,
						    ", %s/ (snapshot, %" PRIu64 " bytes of trace)",
						    e->out_snapshot, (uint64_t)st.st_size);
		n += r < 0 ? 0 : (size_t)r < sizeof(outs) - n ? (size_t)r : sizeof(outs) - n - 1;
	}
	say_output(outs + n, sizeof(outs) - n, e->out_perf, "perf.data, ");
	char exc[48] = "";
	if (e->exceptions)
		snprintf(exc, sizeof(exc), ", %" PRIu64 " exception%s", e->exceptions,
			 e->exceptions == 1 ? "" : "s");
	cli_error("encode: %" PRIu64 " instruction%s%s, %" PRIu64 " packet%s: %s", insns,
		  insns == 1 ? "" : "s", exc, packets, packets == 1 ? "" : "s", outs + 2);
}

static void print_stats(const struct encode *e)
{
	uint64_t insns = e->io.etm3 ? pft_etm3_model_insns(e->model3) : pft_ptm_model_insns(e->model);
	uint64_t total = e->io.etm3 ? pft_etm3_model_bytes(e->model3) : pft_ptm_model_bytes(e->model);
	uint64_t packets = 0;
	double per = insns ? (double)total / (double)insns : 0;

	for (int t = 0; t < TYPES_MAX; t++)
		packets += e->count[t];
	if (e->format == FMT_JSONL) {
		printf("{\"instructions\":%" PRIu64 ",\"bytes\":%" PRIu64 ",\"packets\":%" PRIu64
		       ",\"bytes_per_insn\":%.6f}\n", insns, total, packets, per);
		for (unsigned t = 0; t < TYPES_MAX; t++)
			if (e->count[t])
				printf("{\"type\":\"%s\",\"count\":%" PRIu64 ",\"bytes\":%" PRIu64 "}\n",
				       type_name(e, t), e->count[t], e->bytes[t]);
		return;
	}
	printf("instructions  %" PRIu64 "\n", insns);
	printf("trace bytes   %" PRIu64 "  (%.4f bytes = %.3f bits per instruction)\n", total,
	       per, per * 8);
	printf("packets       %" PRIu64 "\n\n", packets);
	printf("%-10s %12s %12s %8s %14s\n", "type", "packets", "bytes", "bytes%",
	       "bytes/1k insn");
	for (unsigned t = 0; t < TYPES_MAX; t++) {
		if (!e->count[t])
			continue;
		printf("%-10s %12" PRIu64 " %12" PRIu64 " %7.2f%% %14.3f\n", type_name(e, t),
		       e->count[t], e->bytes[t], total ? 100.0 * (double)e->bytes[t] / (double)total : 0,
		       insns ? 1000.0 * (double)e->bytes[t] / (double)insns : 0);
	}
}

static FILE *open_out(const char *path)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		cli_error("%s: %s", path, strerror(errno));
	return f;
}

static int absolute_path(const char *path, char *out, size_t size)
{
	char cwd[PATH_MAX];

	if (path[0] == '/' ? snprintf(out, size, "%s", path) >= (int)size
			   : !getcwd(cwd, sizeof(cwd)) ||
				     snprintf(out, size, "%s/%s", cwd, path) >= (int)size) {
		cli_error("%s: cannot make the path absolute", path);
		return -1;
	}
	return 0;
}

/* The perf.data output: the PTM's registers, and an MMAP2 for each file
 * section of the image (by absolute path, where perf looks for it).  The
 * thread is the context ID when the trace carries it (perf takes the
 * process from the trace then), else an arbitrary one. */
static int open_perf(struct encode *e)
{
	struct pft_perf_write_config wc = { .size = sizeof(wc), .raw = (uint8_t)e->perf_raw };
	struct pft_image_section_info info;
	struct ptm_regs regs;
	const char *elf = NULL;
	int err;

	source_regs(e, &regs, 1024);
	wc.etmcr = regs.regs.etmcr;
	wc.etmtraceidr = regs.regs.etmtraceidr;
	wc.etmccer = regs.regs.etmccer;
	wc.etmidr = regs.regs.etmidr;
	uint8_t bytes = e->io.cfg.ctxid_bytes;
	uint32_t traced = bytes >= 4 ? e->ctxid : e->ctxid & ((1u << (8 * bytes)) - 1);
	wc.pid = wc.tid = e->have_ctxid && traced ? traced : 1000;
	for (size_t i = 0; i < e->images.n && !elf; i++)
		if (e->images.v[i].is_elf)
			elf = e->images.v[i].path;
	if (elf) {
		const char *slash = strrchr(elf, '/');
		wc.comm = slash ? slash + 1 : elf;
	}
	e->perf = pft_perf_write_alloc(e->out_perf, &wc, &err);
	if (!e->perf) {
		cli_error("%s: %s", e->out_perf,
			  err == -PFT_ERR_BAD_FILE ? strerror(errno) : pft_errstr(pft_errcode(err)));
		return -1;
	}
	for (size_t i = 0; pft_image_section(e->image, i, &info, sizeof(info)) == 0; i++) {
		char abs[PATH_MAX];
		if (!info.path)
			continue;
		if (absolute_path(info.path, abs, sizeof(abs)))
			return -1;
		err = pft_perf_write_mmap(e->perf, info.vaddr, info.length, info.file_offset, abs);
		if (err) {
			cli_error("%s: %s", e->out_perf, pft_errstr(pft_errcode(err)));
			return -1;
		}
	}
	return 0;
}

/* Whether directory @dir has anything in it. */
static int dir_has_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int found = 0;

	while (d && !found && (de = readdir(d)) != NULL)
		found = strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	if (d)
		closedir(d);
	return found;
}

/* No output may be an input (the log, an image); a snapshot goes into a
 * directory that is new or empty, or with --force. */
static int outputs_ok(const struct encode *e)
{
	const char *outs[] = { e->out_raw, e->out_formatted, e->out_perf, e->out_snapshot };
	const char **inputs = malloc((e->images.n + 1) * sizeof(*inputs));

	if (!inputs) {
		cli_error("out of memory");
		return -1;
	}
	inputs[0] = e->log;
	for (size_t i = 0; i < e->images.n; i++)
		inputs[i + 1] = e->images.v[i].path;
	int bad = -1;
	for (int i = 0; i < 4 && bad < 0; i++)
		if (output_is_input(outs[i], inputs, e->images.n + 1))
			bad = i;
	free((void *)inputs);
	if (bad >= 0) {
		cli_error("%s: cannot create: %s (it would be overwritten)", outs[bad],
			  bad == 3 ? "it holds an input of this command" : "it is an input of this command");
		return -1;
	}
	if (e->out_snapshot && !e->force && dir_has_files(e->out_snapshot)) {
		cli_error("%s: cannot create: the directory is not empty (--force writes into it)",
			  e->out_snapshot);
		return -1;
	}
	return 0;
}

static int open_outputs(struct encode *e)
{
	int err;

	if (outputs_ok(e))
		return -1;
	if (e->out_raw && !(e->raw = open_out(e->out_raw)))
		return -1;
	if (e->out_formatted && !(e->formatted = open_out(e->out_formatted)))
		return -1;
	if (e->out_snapshot && !(e->snap_trace = snap_out_begin(e->out_snapshot)))
		return -1;
	if (e->out_perf && open_perf(e))
		return -1;
	if (e->formatted || e->snap_trace || (e->perf && !e->perf_raw)) {
		struct pft_ffmt_config fc = { .size = sizeof(fc), .tpiu = (uint8_t)e->io.tpiu };
		e->ffmt = pft_ffmt_alloc(&fc, &err);
		e->frames = malloc(FRAME_CHUNK);
		if (!e->ffmt || !e->frames) {
			cli_error("out of memory");
			return -1;
		}
	}
	return 0;
}

/* Flush the frames and close the files; a snapshot gets its .ini files. */
static int close_outputs(struct encode *e, int ok)
{
	int rc = 0;

	if (ok && e->ffmt && (pft_ffmt_flush(e->ffmt) || drain_frames(e)))
		rc = -1;
	if (e->raw && fclose(e->raw) && ok && !rc) {
		cli_error("%s: cannot write: %s", e->out_raw, strerror(errno));
		rc = -1;
	}
	if (e->formatted && fclose(e->formatted) && ok && !rc) {
		cli_error("%s: cannot write: %s", e->out_formatted, strerror(errno));
		rc = -1;
	}
	if (e->snap_trace && fclose(e->snap_trace) && ok && !rc) {
		cli_error("%s/%s: cannot write: %s", e->out_snapshot, SNAP_OUT_TRACE,
			  strerror(errno));
		rc = -1;
	}
	if (e->perf && ok && !rc && pft_perf_write_finish(e->perf)) {
		cli_error("%s: cannot write: %s", e->out_perf, errno ? strerror(errno) : "write error");
		rc = -1;
	}
	pft_perf_write_free(e->perf);
	if (ok && !rc && e->out_snapshot) {
		struct ptm_regs regs;
		source_regs(e, &regs, e->mc.sync_period ? e->mc.sync_period : 1024);
		rc = snap_out_finish(e->out_snapshot, &regs, &e->io.cfg, e->image);
	}
	pft_ffmt_free(e->ffmt);
	free(e->frames);
	return rc;
}

int encode_main(int argc, char **argv, int stats)
{
	struct encode e = { .stats = stats };
	int rc = EXIT_USAGE, err;

	input_opts_init(&e.io);
	e.mc.size = sizeof(e.mc);
	int r = parse_args(&e, argc, argv);
	if (r) {
		if (r > 0)
			usage(stdout, stats);
		image_args_free(&e.images);
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	}
	e.io.cfg.trace_id = (uint8_t)(e.io.id >= 0 ? e.io.id : 0x10);
	e.image = pft_image_alloc(&err);
	if (!e.image) {
		cli_error("out of memory");
		goto out;
	}
	if (image_args_load(&e.images, e.image))
		goto out;
	if (e.io.etm3) {
		if (alloc_etm3_model(&e))
			goto out;
	} else if (!(e.model = pft_ptm_model_alloc(&e.io.cfg, &e.mc, e.image, &err))) {
		config_error(&e, err);
		goto out;
	}
	if (!stats && open_outputs(&e)) {
		close_outputs(&e, 0);
		goto out;
	}
	rc = run_model(&e);
	if (!stats && close_outputs(&e, rc == 0) && !rc)
		rc = EXIT_USAGE;
	if (!rc && stats)
		print_stats(&e);
	else if (!rc && !e.quiet)
		print_summary(&e);
out:
	pft_ptm_model_free(e.model);
	pft_etm3_model_free(e.model3);
	pft_image_free(e.image);
	image_args_free(&e.images);
	return rc;
}

int cmd_encode(int argc, char **argv)
{
	return encode_main(argc, argv, 0);
}
