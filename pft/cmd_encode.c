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
	OPT_TS_START,
	OPT_TS_CYCLES,
	OPT_TS_FREQUENCY,
	OPT_HELP
};

/* Packet types counted by stats: enough for both protocols. */
enum { TYPES_MAX = 32 };
_Static_assert((int)PFT_PTM_PKT_TYPE_MAX <= (int)TYPES_MAX &&
		       (int)PFT_ETM3_PKT_TYPE_MAX <= (int)TYPES_MAX,
	       "packet type counters too small");

/* One traced core: its log, program and model.  Several share one
 * timestamp clock (--ts-start, --ts-cycles) and one trace buffer. */
struct enc_source {
	const char *log;
	struct image_args images;
	int id;                  /* --id; -1: 0x10 + its index */
	int have_ctxid;
	uint32_t ctxid;
	uint64_t ts_start;       /* --ts-start */
	uint32_t ts_cycles;      /* --ts-cycles */
	int ts_given;

	struct pft_ptm_config cfg;     /* the configuration, with its trace ID */
	struct pft_etm3_config cfg3;   /* with etm3: the configuration, with it */
	struct pft_model_config mc;
	struct pft_image *image;
	struct pft_ptm_model *model;   /* one of the two models */
	struct pft_etm3_model *model3;
	struct pft_insn_log *reader;
	int have_prev, done;
	uint64_t now;            /* cycles its instructions took so far */
};

struct encode {
	int stats;
	struct enc_source *src;      /* one per --log */
	size_t nsrc;
	struct input_opts io;      /* configuration flags, --tpiu */
	struct pft_model_config mc;
	uint64_t ts_frequency;   /* --ts-frequency: the snapshot says it */
	const char *out_raw, *out_formatted, *out_snapshot, *out_perf;
	int perf_raw;
	int quiet;               /* --quiet: no summary line */
	int force;               /* --force: into a non-empty --out-snapshot */
	int format;

	uint64_t exceptions;     /* exception entries in the logs */
	FILE *raw, *formatted, *snap_trace;
	struct pft_perf_writer *perf;
	/* Frames: for --out-formatted (trace-port frames with --tpiu) and,
	 * memory-buffer frames always, for the snapshot and perf.data. */
	struct pft_ffmt *ffmt, *ffmt_buf;
	uint8_t *frames;
	uint64_t count[TYPES_MAX], bytes[TYPES_MAX];
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
		fprintf(out, "usage: pft encode --log FILE IMAGES [--id N] [--log FILE IMAGES"
			     " [--id N]]...\n"
			     "                  [CONFIGURATION] OUTPUTS\n\n"
			     "Models a PTM (or an ETMv3): turns an executed-instruction log into\n"
			     "trace.  Several --log: one source (core) each, with the images,\n"
			     "--id, --ctxid, --ts-start and --ts-cycles given after it (before\n"
			     "the first --log: the first's), on one timestamp clock, their\n"
			     "trace in one buffer as a funnel merges it.\n\n");
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
		"  --core NAME           the traced core's trace unit (cortex-a5, -a7, -a8,\n"
		"                        -a9, -a15, cortex-r4, -r5, cortex-m3, -m4): its\n"
		"                        protocol, registers and exceptions (M: IPSR numbers\n"
		"                        in the log, qemu mps2-an385/an386)\n"
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
		"  --ctxid VALUE         the program's context ID (default 0)\n"
		"  --ts-start N          with --timestamps: the timestamp counter when the\n"
		"                        log's first instruction starts (default 0)\n"
		"  --ts-cycles N         the core's cycles per timestamp tick (default 1)\n");
	if (stats)
		fprintf(out, "output:\n  --format text|jsonl   (default text)\n");
	else
		fprintf(out,
			"outputs (at least one):\n"
			"  --out-raw FILE        the PFT byte stream\n"
			"  --out-formatted FILE  CoreSight frames (ETB format; --tpiu: with FSYNCs)\n"
			"  --id N                trace ID in frames and snapshots (default 0x10,\n"
			"                        the next log's 0x11, ...)\n"
			"  --out-snapshot DIR    OpenCSD snapshot: registers, trace buffer, memory\n"
			"  --ts-frequency HZ     the snapshot's timestamp frequency (trace.ini)\n"
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

/* The source the options now given are for: the last --log's (the first
 * source before any). */
static struct enc_source *current(struct encode *e)
{
	if (!e->nsrc) {
		if (!(e->src = calloc(1, sizeof(*e->src)))) {
			cli_error("out of memory");
			return NULL;
		}
		e->src[0].id = -1;
		e->nsrc = 1;
	}
	return &e->src[e->nsrc - 1];
}

/* --log: the current source's, or a new source's when it has one. */
static int add_log(struct encode *e, const char *arg)
{
	struct enc_source *s = current(e);

	if (!s)
		return -1;
	if (s->log) {
		struct enc_source *v = realloc(e->src, (e->nsrc + 1) * sizeof(*v));
		if (!v) {
			cli_error("out of memory");
			return -1;
		}
		e->src = v;
		s = &v[e->nsrc++];
		memset(s, 0, sizeof(*s));
		s->id = -1;
	}
	s->log = arg;
	return 0;
}

/* --id N: the current source's trace ID. */
static int parse_id(struct encode *e, const char *arg)
{
	struct enc_source *s = current(e);
	uint32_t v;

	if (!s)
		return -1;
	if (strchr(arg, ',') || s->id >= 0) {
		cli_error("--id: encode writes one trace source per --log: give one trace ID "
			  "after each");
		return -1;
	}
	if (cli_parse_u32(arg, &v) || v < 1 || v > PFT_ID_MAX_VALID) {
		cli_error("--id: '%s' is not a trace ID (0x01-0x6f)", arg);
		return -1;
	}
	s->id = (int)v;
	return 0;
}

/* One option of encode/stats. Returns 0, 1 for --help, -1 on error. */
static int take_option(struct encode *e, int c, const char *arg, char **argv)
{
	const char *cmd = e->stats ? "stats" : "encode";
	struct enc_source *s;

	if ((c >= OPT_CYCLE_ACCURATE && c < INPUT_OPT_END) || c == OPT_TPIU)
		return input_option(&e->io, c, arg);
	switch (c) {
	case OPT_LOG: return add_log(e, arg);
	case OPT_ID: return parse_id(e, arg);
	case OPT_ELF:
	case OPT_IMAGE:
		return (s = current(e)) ? image_args_add(&s->images, arg, c == OPT_ELF) : -1;
	case OPT_SYNC_PERIOD: return parse_u32_opt("--sync-period", arg, 1, &e->mc.sync_period);
	case OPT_TS_PERIOD: return parse_u32_opt("--ts-period", arg, 0, &e->mc.ts_period);
	case OPT_FILTER: return parse_filter(e, arg);
	case OPT_CTXID:
		if (!(s = current(e)))
			return -1;
		s->have_ctxid = 1;
		return parse_u32_opt("--ctxid", arg, 0, &s->ctxid);
	case OPT_TS_START:
		if (!(s = current(e)))
			return -1;
		s->ts_given = 1;
		if (cli_parse_u64(arg, &s->ts_start)) {
			cli_error("--ts-start: '%s' is not a number", arg);
			return -1;
		}
		return 0;
	case OPT_TS_CYCLES:
		if (!(s = current(e)))
			return -1;
		s->ts_given = 1;
		return parse_u32_opt("--ts-cycles", arg, 1, &s->ts_cycles);
	case OPT_TS_FREQUENCY:
		return cli_parse_hz(cmd, "--ts-frequency", arg, &e->ts_frequency);
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
		{ "core", required_argument, NULL, OPT_CORE },
		{ "ts-start", required_argument, NULL, OPT_TS_START },
		{ "ts-cycles", required_argument, NULL, OPT_TS_CYCLES },
		{ "ts-frequency", required_argument, NULL, OPT_TS_FREQUENCY },
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
	if (!e->nsrc || !e->src[0].log) {
		cli_error("%s: no log: give --log FILE", cmd);
		return -1;
	}
	for (size_t k = 0; k < e->nsrc; k++) {
		struct enc_source *s = &e->src[k];
		if (!s->images.n && e->nsrc == 1) {
			cli_error("%s: no program image: give --elf FILE or --image FILE@ADDR", cmd);
			return -1;
		}
		if (!s->images.n) {
			cli_error("%s: --log %s: no program image: give --elf FILE or --image "
				  "FILE@ADDR after it", cmd, s->log);
			return -1;
		}
		if (s->id < 0)
			s->id = 0x10 + (int)k;
		for (size_t j = 0; j < k; j++)
			if (e->src[j].id == s->id) {
				cli_error("%s: --log %s and --log %s have trace ID 0x%02x: give each "
					  "its own --id", cmd, e->src[j].log, s->log, s->id);
				return -1;
			}
		if (s->id > PFT_ID_MAX_VALID) {
			cli_error("%s: --log %s: trace ID 0x%02x is reserved: give it an --id",
				  cmd, s->log, s->id);
			return -1;
		}
		if (s->ts_given && !e->io.cfg.timestamps) {
			cli_error("%s: --ts-start and --ts-cycles go with --timestamps", cmd);
			return -1;
		}
	}
	if (e->nsrc > 1 && (e->stats || e->out_raw || e->out_perf)) {
		cli_error("%s: several --log make several trace sources: %s", cmd,
			  e->stats ? "pft stats takes one"
				   : "--out-raw and --out-perf write one; use --out-formatted or "
				     "--out-snapshot");
		return -1;
	}
	if (e->ts_frequency && !e->out_snapshot) {
		cli_error("--ts-frequency goes with --out-snapshot");
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
	if (e->io.etm3 && !e->io.core && (e->io.ptm_only || e->io.cfg.dmb_dsb_waypoints)) {
		cli_error("--protocol etmv3: ETMv3 has no return stack, PFT version or DMB/DSB "
			  "waypoints (--return-stack, --pft-version, --dmb-dsb-waypoints)");
		return -1;
	}
	/* The configuration of the flags, of --core's trace unit; each
	 * source's has its trace ID (start_source()). */
	e->io.cfg.trace_id = (uint8_t)e->src[0].id;
	return input_settle_config(&e->io, 1) ? -1 : 0;
}

/* ETMCCER's timestamp format, bits [29:28], which a configuration sets;
 * the rest is the implementation's. */
enum { ETMCCER_TS_FORMAT = 3u << 28 };

/* The registers of modelled source @s: its configuration's, with
 * --core's ID registers. */
static void source_regs(const struct encode *e, const struct enc_source *s, struct ptm_regs *r,
			uint32_t sync_period)
{
	*r = (struct ptm_regs){ .regs.size = sizeof(r->regs), .etmsyncfr = sync_period,
				.etm3 = e->io.etm3, .core = e->io.core ? e->io.core->type : NULL };
	/* The configuration is valid for either (the model took it). */
	if (!e->io.etm3)
		pft_ptm_config_to_regs(&s->cfg, &r->regs);
	else
		pft_etm3_config_to_regs(&s->cfg3, &r->regs);
	if (e->io.core) {
		r->regs.etmidr = e->io.core->etmidr;
		r->regs.etmccer = (e->io.core->etmccer & ~ETMCCER_TS_FORMAT) |
				  (r->regs.etmccer & ETMCCER_TS_FORMAT);
	}
}

/* The ETMv3 model, configured as the registers of a snapshot of it say. */
static int alloc_etm3_model(struct enc_source *s)
{
	int err;

	s->model3 = pft_etm3_model_alloc(&s->cfg3, &s->mc, s->image, &err);
	if (err)
		cli_error("cannot create the ETMv3 model: %s", pft_errstr(pft_errcode(err)));
	return err ? -1 : 0;
}

/* The next packet of either model: its type, bytes and size. */
static int model_next(const struct encode *e, struct enc_source *s, unsigned *type,
		      const uint8_t **raw, size_t *size)
{
	if (e->io.etm3) {
		struct pft_etm3_packet p;
		if (pft_etm3_model_next(s->model3, &p, sizeof(p)))
			return -1;
		*type = p.type;
		*raw = p.raw;
		*size = p.size;
		return 0;
	}
	struct pft_ptm_packet p;
	if (pft_ptm_model_next(s->model, &p, sizeof(p)))
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

/* Move finished frames of @f to the outputs it formats for: the
 * memory-buffer ones (@buffers: the snapshot and perf.data) and/or
 * --out-formatted (@port). */
static int drain_from(struct encode *e, struct pft_ffmt *f, int port, int buffers)
{
	while (f && pft_ffmt_ready(f)) {
		int n = pft_ffmt_take(f, e->frames, FRAME_CHUNK);
		if (n <= 0)
			return 0;
		if ((port && e->formatted &&
		     write_all(e->formatted, e->out_formatted, e->frames, (size_t)n)) ||
		    (buffers && e->snap_trace &&
		     write_all(e->snap_trace, e->out_snapshot, e->frames, (size_t)n)) ||
		    (buffers && e->perf && !e->perf_raw && perf_trace(e, e->frames, (size_t)n)))
			return -1;
	}
	return 0;
}

/* Move finished frames to the formatted outputs. */
static int drain_frames(struct encode *e)
{
	return drain_from(e, e->ffmt, 1, !e->ffmt_buf) || drain_from(e, e->ffmt_buf, 0, 1) ? -1 : 0;
}

/* The packets source @s's model has ready, to the outputs. */
static int take_packets(struct encode *e, struct enc_source *s)
{
	const uint8_t *raw;
	unsigned type;
	size_t size;

	while (model_next(e, s, &type, &raw, &size) == 0) {
		e->count[type]++;
		e->bytes[type] += size;
		if (e->raw && write_all(e->raw, e->out_raw, raw, size))
			return -1;
		if (e->perf && e->perf_raw && perf_trace(e, raw, size))
			return -1;
		if ((e->ffmt && pft_ffmt_put(e->ffmt, s->cfg.trace_id, raw, size)) ||
		    (e->ffmt_buf && pft_ffmt_put(e->ffmt_buf, s->cfg.trace_id, raw, size))) {
			cli_error("out of memory");
			return -1;
		}
	}
	if ((e->ffmt && pft_ffmt_ready(e->ffmt) >= FRAME_CHUNK) ||
	    (e->ffmt_buf && pft_ffmt_ready(e->ffmt_buf) >= FRAME_CHUNK))
		return drain_frames(e);
	return 0;
}

/* Source @s's log has its exceptions numbered for another profile than
 * the modelled core's: one line saying so.  Returns 0 when it has not. */
static int log_profile_error(const struct encode *e, const struct enc_source *s)
{
	int log_m = pft_insn_log_profile(s->reader) == PFT_PROFILE_M;
	int model_m = input_profile(&e->io) == PFT_PROFILE_M;

	if (pft_insn_log_profile(s->reader) < 0 || log_m == model_m)
		return 0;
	if (log_m)
		cli_error("%s:%" PRIu64 ": an M-profile log (qemu mps2-an385/an386): give --core "
			  "cortex-m3 or --core cortex-m4", s->log, pft_insn_log_line(s->reader));
	else
		cli_error("%s:%" PRIu64 ": an A/R-profile log, not one of the %s", s->log,
			  pft_insn_log_line(s->reader), e->io.core ? e->io.core->type : "M profile");
	return -1;
}

static int model_error(const struct encode *e, const struct enc_source *s, uint64_t line)
{
	struct pft_diag why;

	if (e->io.etm3)
		pft_etm3_model_diag(s->model3, &why);
	else
		pft_ptm_model_diag(s->model, &why);
	cli_error("%s:%" PRIu64 ": %s", s->log, line, why.text);
	return EXIT_USAGE;
}

/* Source @s's clock now, in timestamp ticks (rounded down). */
static uint64_t ticks(const struct enc_source *s)
{
	return s->ts_start + s->now / (s->ts_cycles ? s->ts_cycles : 1);
}

/* Source @s's next instruction into its model, and its packets out; at the
 * end of its log, the model's last packets.  Returns 0, or an exit code. */
static int step(struct encode *e, struct enc_source *s)
{
	struct pft_model_insn in;
	struct pft_diag why;
	int r = pft_insn_log_next(s->reader, &in, sizeof(in));

	if (r < 0) {
		pft_insn_log_diag(s->reader, &why);
		cli_error("%s", why.text);
		return EXIT_USAGE;
	}
	if (r == 0) {
		s->done = 1;
		if (!s->have_prev) {
			cli_error("%s: no instruction in the log", s->log);
			return EXIT_USAGE;
		}
		if (e->io.etm3)
			pft_etm3_model_finish(s->model3);
		else
			pft_ptm_model_finish(s->model);
		return take_packets(e, s) ? EXIT_USAGE : 0;
	}
	if (log_profile_error(e, s))
		return EXIT_USAGE;
	if (!s->have_prev && s->have_ctxid && !in.has_ctxid) {
		in.has_ctxid = 1;
		in.ctxid = s->ctxid;
	}
	int err = e->io.etm3 ? pft_etm3_model_put(s->model3, &in, sizeof(in))
			     : pft_ptm_model_put(s->model, &in, sizeof(in));
	if (err < 0)
		return model_error(e, s, pft_insn_log_line(s->reader));
	s->have_prev = 1;
	s->now += in.has_cycles ? in.cycles : 1;
	return take_packets(e, s) ? EXIT_USAGE : 0;
}

/* The sources' logs side by side on their clock: always the source
 * whose clock is behind (the first on a tie) runs its next instruction,
 * so that the buffer holds their trace as a funnel merges it. */
static int run_model(struct encode *e)
{
	int rc = 0;

	for (size_t k = 0; k < e->nsrc && !rc; k++) {
		struct pft_diag why;
		if (!(e->src[k].reader = pft_insn_log_open(e->src[k].log, &why))) {
			cli_error("%s", why.text);
			rc = EXIT_USAGE;
		}
	}
	while (!rc) {
		struct enc_source *next = NULL;
		for (size_t k = 0; k < e->nsrc; k++)
			if (!e->src[k].done && (!next || ticks(&e->src[k]) < ticks(next)))
				next = &e->src[k];
		if (!next)
			break;
		rc = step(e, next);
	}
	for (size_t k = 0; k < e->nsrc; k++) {
		e->exceptions += pft_insn_log_exceptions(e->src[k].reader);
		pft_insn_log_close(e->src[k].reader);
	}
	return rc;
}

/* Instructions and trace bytes of every model. */
static void model_totals(const struct encode *e, uint64_t *insns, uint64_t *bytes)
{
	*insns = *bytes = 0;
	for (size_t k = 0; k < e->nsrc; k++) {
		const struct enc_source *s = &e->src[k];
		*insns += e->io.etm3 ? pft_etm3_model_insns(s->model3) : pft_ptm_model_insns(s->model);
		*bytes += e->io.etm3 ? pft_etm3_model_bytes(s->model3) : pft_ptm_model_bytes(s->model);
	}
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
	uint64_t insns, total, packets = 0;

	model_totals(e, &insns, &total);
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
	uint64_t insns, total, packets = 0;

	model_totals(e, &insns, &total);
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
	const struct enc_source *s = &e->src[0];   /* the one (parse_args()) */
	const char *elf = NULL;
	int err;

	source_regs(e, s, &regs, 1024);
	wc.etmcr = regs.regs.etmcr;
	wc.etmtraceidr = regs.regs.etmtraceidr;
	wc.etmccer = regs.regs.etmccer;
	wc.etmidr = regs.regs.etmidr;
	uint8_t bytes = e->io.cfg.ctxid_bytes;
	uint32_t traced = bytes >= 4 ? s->ctxid : s->ctxid & ((1u << (8 * bytes)) - 1);
	wc.pid = wc.tid = s->have_ctxid && traced ? traced : 1000;
	for (size_t i = 0; i < s->images.n && !elf; i++)
		if (s->images.v[i].is_elf)
			elf = s->images.v[i].path;
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
	for (size_t i = 0; pft_image_section(s->image, i, &info, sizeof(info)) == 0; i++) {
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
	size_t n = 0, cap = 0;

	for (size_t k = 0; k < e->nsrc; k++)
		cap += 1 + e->src[k].images.n;
	const char **inputs = malloc(cap * sizeof(*inputs));
	if (!inputs) {
		cli_error("out of memory");
		return -1;
	}
	for (size_t k = 0; k < e->nsrc; k++) {
		inputs[n++] = e->src[k].log;
		for (size_t i = 0; i < e->src[k].images.n; i++)
			inputs[n++] = e->src[k].images.v[i].path;
	}
	int bad = -1;
	for (int i = 0; i < 4 && bad < 0; i++)
		if (output_is_input(outs[i], inputs, n))
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
		/* A trace port's frames are for --out-formatted only. */
		if (e->io.tpiu && (e->snap_trace || (e->perf && !e->perf_raw))) {
			fc.tpiu = 0;
			e->ffmt_buf = pft_ffmt_alloc(&fc, &err);
		}
		e->frames = malloc(FRAME_CHUNK);
		if (!e->ffmt || !e->frames || (e->io.tpiu && !e->ffmt_buf &&
					       (e->snap_trace || (e->perf && !e->perf_raw)))) {
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

	if (ok && e->ffmt && (pft_ffmt_flush(e->ffmt) ||
			      (e->ffmt_buf && pft_ffmt_flush(e->ffmt_buf)) || drain_frames(e)))
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
		struct snap_out_source *ss = calloc(e->nsrc, sizeof(*ss));
		if (!ss) {
			cli_error("out of memory");
			rc = -1;
		}
		for (size_t k = 0; ss && k < e->nsrc; k++) {
			source_regs(e, &e->src[k], &ss[k].regs,
				    e->mc.sync_period ? e->mc.sync_period : 1024);
			ss[k].cfg = &e->src[k].cfg;
			ss[k].img = e->src[k].image;
		}
		if (ss)
			rc = snap_out_finish(e->out_snapshot, ss, e->nsrc, e->ts_frequency);
		free(ss);
	}
	pft_ffmt_free(e->ffmt);
	pft_ffmt_free(e->ffmt_buf);
	free(e->frames);
	return rc;
}

/* Source @s's image and model. */
static int start_source(struct encode *e, struct enc_source *s)
{
	int err;

	s->cfg = e->io.cfg;
	s->cfg.trace_id = (uint8_t)s->id;
	s->cfg3 = e->io.cfg3;
	s->cfg3.trace_id = (uint8_t)s->id;
	s->mc = e->mc;
	s->mc.ts_start = s->ts_start;
	s->mc.ts_cycles = s->ts_cycles;
	s->image = pft_image_alloc(&err);
	if (!s->image) {
		cli_error("out of memory");
		return -1;
	}
	if (image_args_load(&s->images, s->image))
		return -1;
	if (e->io.etm3)
		return alloc_etm3_model(s);
	if (!(s->model = pft_ptm_model_alloc(&s->cfg, &s->mc, s->image, &err))) {
		config_error(e, err);
		return -1;
	}
	return 0;
}

int encode_main(int argc, char **argv, int stats)
{
	struct encode e = { .stats = stats };
	int rc = EXIT_USAGE;

	input_opts_init(&e.io);
	e.mc.size = sizeof(e.mc);
	int r = parse_args(&e, argc, argv);
	if (r) {
		if (r > 0)
			usage(stdout, stats);
		goto out;
	}
	for (size_t k = 0; k < e.nsrc; k++)
		if (start_source(&e, &e.src[k]))
			goto out;
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
	if (r > 0)
		rc = EXIT_OK;
	for (size_t k = 0; k < e.nsrc; k++) {
		pft_ptm_model_free(e.src[k].model);
		pft_etm3_model_free(e.src[k].model3);
		pft_image_free(e.src[k].image);
		image_args_free(&e.src[k].images);
	}
	free(e.src);
	return rc;
}

int cmd_encode(int argc, char **argv)
{
	return encode_main(argc, argv, 0);
}
