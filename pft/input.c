/* Trace inputs: option handling, snapshot sources and the read loop. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli.h"
#include "input.h"

enum { READ_BLOCK = 64 * 1024 };

void input_opts_init(struct input_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->id = -1;
	pft_config_init(&o->cfg);
	/* Without registers, assume the common Cortex-A15 setting: PFTv1.1
	 * with 64-bit binary timestamps (pft_config_init's defaults). */
}

int input_option(struct input_opts *o, int code, const char *arg)
{
	uint32_t v;

	switch (code) {
	case OPT_SNAPSHOT: o->snapshot = arg; return 0;
	case OPT_RAW: o->raw = arg; return 0;
	case OPT_FORMATTED: o->formatted = arg; return 0;
	case OPT_TPIU: o->tpiu = 1; return 0;
	case OPT_ID:
		if (cli_parse_u32(arg, &v) || v < 1 || v > PFT_ID_MAX_VALID) {
			cli_error("--id: '%s' is not a trace ID (0x01-0x6f)", arg);
			return -1;
		}
		o->id = (int)v;
		return 0;
	case OPT_CYCLE_ACCURATE: o->cfg.cycle_accurate = 1; break;
	case OPT_TIMESTAMPS: o->cfg.timestamps = 1; break;
	case OPT_VMID: o->cfg.vmid = 1; break;
	case OPT_RETURN_STACK: o->cfg.return_stack = 1; break;
	case OPT_BRANCH_BROADCAST: o->cfg.branch_broadcast = 1; break;
	case OPT_TS_GRAY: o->cfg.ts_gray = 1; break;
	case OPT_CTXID_BYTES:
		if (cli_parse_u32(arg, &v) || (v != 0 && v != 1 && v != 2 && v != 4)) {
			cli_error("--ctxid-bytes: '%s' is not 0, 1, 2 or 4", arg);
			return -1;
		}
		o->cfg.ctxid_bytes = (uint8_t)v;
		break;
	case OPT_PFT_VERSION:
		if (!strcmp(arg, "1.0")) {
			o->cfg.version_minor = 0;
			o->cfg.ts_64bit = 0;
			o->cfg.ts_gray = 1;
		} else if (!strcmp(arg, "1.1")) {
			o->cfg.version_minor = 1;
		} else {
			cli_error("--pft-version: '%s' is not 1.0 or 1.1", arg);
			return -1;
		}
		break;
	case OPT_TS_BITS:
		if (cli_parse_u32(arg, &v) || (v != 48 && v != 64)) {
			cli_error("--ts-bits: '%s' is not 48 or 64", arg);
			return -1;
		}
		o->cfg.ts_64bit = v == 64;
		break;
	default:
		cli_error("internal: unknown option code %d", code);
		return -1;
	}
	o->cfg_given = 1;
	return 0;
}

int input_opts_check(const struct input_opts *o)
{
	int n = !!o->snapshot + !!o->raw + !!o->formatted;

	if (n != 1) {
		cli_error(n ? "give only one of --snapshot, --raw and --formatted"
			    : "no input: give --snapshot DIR, --raw FILE or --formatted FILE");
		return -1;
	}
	if (o->snapshot && o->cfg_given) {
		cli_error("configuration flags do not go with --snapshot (it has the registers)");
		return -1;
	}
	if (o->raw && o->id >= 0) {
		cli_error("--id does not go with --raw (raw input has one source)");
		return -1;
	}
	if (o->formatted && o->id < 0) {
		cli_error("--formatted needs --id N (the trace ID to decode)");
		return -1;
	}
	if (o->tpiu && !o->formatted) {
		cli_error("--tpiu goes with --formatted");
		return -1;
	}
	return 0;
}

static int check_readable(const char *path)
{
	struct stat st;

	if (!strcmp(path, "-"))
		return 0;
	if (stat(path, &st)) {
		cli_error("%s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		cli_error("%s: is a directory", path);
		return -1;
	}
	return 0;
}

static struct input_file *add_file(struct input *in, const char *path, int formatted,
				   int tpiu)
{
	for (size_t i = 0; i < in->nfiles; i++)
		if (!strcmp(in->files[i].path, path))
			return &in->files[i];
	struct input_file *f = realloc(in->files, (in->nfiles + 1) * sizeof(*f));
	if (!f)
		return NULL;
	in->files = f;
	f = &f[in->nfiles++];
	memset(f, 0, sizeof(*f));
	f->path = path;
	f->formatted = formatted;
	f->tpiu = tpiu;
	return f;
}

static int open_stream(struct stream *s)
{
	int err;

	s->pkt = pft_pkt_alloc(&s->cfg, &err);
	if (!s->pkt) {
		cli_error("%s: cannot create a packet decoder: %s", s->name,
			  pft_errstr(pft_errcode(err)));
		return -1;
	}
	return 0;
}

/* The PTM sources of a snapshot that the options select. */
static int open_snapshot(struct input *in, const struct input_opts *o)
{
	char err[512];
	size_t nptm = 0;

	if (snap_load(o->snapshot, &in->snap, err, sizeof(err))) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	in->has_snap = 1;
	for (size_t i = 0; i < in->snap.ndevs; i++)
		nptm += snap_is_ptm(&in->snap.devs[i]);
	if (!nptm) {
		cli_error("%s: no PTM trace source in the snapshot", o->snapshot);
		return EXIT_USAGE;
	}
	in->streams = calloc(nptm, sizeof(*in->streams));
	if (!in->streams) {
		cli_error("out of memory");
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < in->snap.ndevs; i++) {
		const struct snap_device *dev = &in->snap.devs[i];
		uint64_t cr, ccer, idr, traceid;

		if (!snap_is_ptm(dev))
			continue;
		if (snap_reg(dev, "ETMCR", &cr) || snap_reg(dev, "ETMCCER", &ccer) ||
		    snap_reg(dev, "ETMIDR", &idr) || snap_reg(dev, "ETMTRACEIDR", &traceid)) {
			cli_error("%s: PTM %s needs ETMCR, ETMCCER, ETMIDR and ETMTRACEIDR",
				  dev->file, dev->name);
			return EXIT_USAGE;
		}
		struct stream *s = &in->streams[in->nstreams];
		pft_config_init(&s->cfg);
		if (pft_config_from_regs(&s->cfg, (uint32_t)cr, (uint32_t)ccer,
					 (uint32_t)idr, (uint32_t)traceid)) {
			cli_error("%s: ETMIDR 0x%08llx of %s is not a PTM (architecture %llu, not 3)",
				  dev->file, (unsigned long long)idr, dev->name,
				  (unsigned long long)((idr >> 8) & 0xf));
			return EXIT_USAGE;
		}
		if (o->id >= 0 && s->cfg.trace_id != o->id)
			continue;
		const struct snap_buffer *b = snap_source_buffer(&in->snap, dev->name);
		if (!b)
			continue; /* a source with no buffer has no trace */
		int formatted = strcasecmp(b->format, "source_data") != 0;
		if (formatted && strcasecmp(b->format, "coresight") &&
		    strcasecmp(b->format, "dstream_coresight")) {
			cli_error("%s: buffer %s: unknown format '%s'", o->snapshot, b->name,
				  b->format);
			return EXIT_USAGE;
		}
		if (check_readable(b->path))
			return EXIT_USAGE;
		s->id = formatted ? s->cfg.trace_id : -1;
		s->name = dev->name;
		s->path = b->path;
		s->core = snap_source_core(&in->snap, dev->name);
		struct input_file *f = add_file(in, b->path, formatted,
						!strcasecmp(b->format, "dstream_coresight"));
		if (!f) {
			cli_error("out of memory");
			return EXIT_USAGE;
		}
		if (formatted) {
			if (f->by_id[s->id]) {
				cli_error("%s: %s and %s share trace ID 0x%02x", o->snapshot,
					  f->by_id[s->id]->name, s->name, s->id);
				return EXIT_USAGE;
			}
			f->by_id[s->id] = s;
		} else {
			if (f->raw) {
				cli_error("%s: buffer %s is source_data but has two sources",
					  o->snapshot, b->name);
				return EXIT_USAGE;
			}
			f->raw = s;
		}
		if (open_stream(s))
			return EXIT_USAGE;
		in->nstreams++;
	}
	if (!in->nstreams) {
		if (o->id >= 0)
			cli_error("%s: no PTM with trace ID 0x%02x", o->snapshot, o->id);
		else
			cli_error("%s: no PTM trace source has a trace buffer", o->snapshot);
		return EXIT_USAGE;
	}
	return 0;
}

int input_open(struct input *in, const struct input_opts *o)
{
	memset(in, 0, sizeof(*in));
	if (o->snapshot)
		return open_snapshot(in, o);

	const char *path = o->raw ? o->raw : o->formatted;
	if (check_readable(path))
		return EXIT_USAGE;
	in->streams = calloc(1, sizeof(*in->streams));
	struct input_file *f = add_file(in, path, o->formatted != NULL, o->tpiu);
	if (!in->streams || !f) {
		cli_error("out of memory");
		return EXIT_USAGE;
	}
	struct stream *s = &in->streams[0];
	in->nstreams = 1;
	s->cfg = o->cfg;
	s->id = o->formatted ? o->id : -1;
	s->name = path;
	s->path = path;
	if (o->formatted) {
		s->cfg.trace_id = (uint8_t)o->id;
		f->by_id[o->id] = s;
	} else {
		f->raw = s;
	}
	return open_stream(s) ? EXIT_USAGE : 0;
}

void input_close(struct input *in)
{
	for (size_t i = 0; i < in->nstreams; i++)
		pft_pkt_free(in->streams[i].pkt);
	free(in->streams);
	free(in->files);
	if (in->has_snap)
		snap_free(&in->snap);
	memset(in, 0, sizeof(*in));
}

/* Drain one stream's packet decoder. Returns non-zero to stop. */
static int drain(struct stream *s, packet_fn on_packet, void *ctx)
{
	struct pft_packet pkts[64];

	for (;;) {
		int got = pft_pkt_next_batch(s->pkt, pkts, 64, sizeof(pkts[0]));
		if (got == -PFT_ERR_NEED_INPUT || got == -PFT_ERR_EOS)
			return 0;
		if (got < 0 && pkts[0].type != PFT_PKT_BAD) {
			cli_error("%s: offset 0x%llx: %s", s->path,
				  (unsigned long long)pft_pkt_get_offset(s->pkt),
				  pft_errstr(pft_errcode(got)));
			return 1;
		}
		/* A bad packet comes alone, with its status. */
		int count = got > 0 ? got : 1, status = got > 0 ? 0 : got;
		for (int i = 0; i < count; i++) {
			s->packets++;
			if (status < 0)
				s->errors++;
			if (pkts[i].type == PFT_PKT_ASYNC)
				s->synced_once = 1;
			if (on_packet(ctx, s, &pkts[i], status))
				return 1;
		}
	}
}

static int feed_stream(struct stream *s, const uint8_t *data, size_t len,
		       uint64_t offset, packet_fn on_packet, void *ctx)
{
	s->bytes += len;
	pft_pkt_feed_at(s->pkt, data, len, offset);
	return drain(s, on_packet, ctx);
}

/* Every source of @f lost bytes at @offset: resynchronise its packet
 * decoder and tell the command. */
static void report_gap(struct input_file *f, uint64_t offset, int status, gap_fn on_gap,
		       void *ctx)
{
	for (int id = 0; id < 128; id++) {
		struct stream *s = f->by_id[id];
		if (!s)
			continue;
		if (status == 0)
			pft_pkt_reset(s->pkt);
		else
			pft_pkt_sync_forward(s->pkt);
		if (on_gap)
			on_gap(ctx, s, offset, status);
	}
}

static int run_formatted(struct input_file *f, const uint8_t *buf, size_t len,
			 struct pft_dfmt *dfmt, packet_fn on_packet, gap_fn on_gap, void *ctx)
{
	struct pft_dfmt_chunk c;

	if (buf)
		pft_dfmt_feed(dfmt, buf, len);
	for (;;) {
		int status = pft_dfmt_next(dfmt, &c, sizeof(c));
		if (status == -PFT_ERR_NEED_INPUT || status == -PFT_ERR_EOS)
			return 0;
		if (status < 0) {
			report_gap(f, pft_dfmt_get_offset(dfmt), status, on_gap, ctx);
			continue;
		}
		if (c.flags & PFT_DFMT_DISCONTINUITY) {
			report_gap(f, c.offset, 0, on_gap, ctx);
			continue;
		}
		struct stream *s = c.id < 128 ? f->by_id[c.id] : NULL;
		if (s && feed_stream(s, c.data, c.len, c.offset, on_packet, ctx))
			return 1;
	}
}

static int run_file(struct input_file *f, packet_fn on_packet, gap_fn on_gap, void *ctx)
{
	FILE *fp = strcmp(f->path, "-") ? fopen(f->path, "rb") : stdin;
	struct pft_dfmt *dfmt = NULL;
	uint8_t *buf = malloc(READ_BLOCK);
	uint64_t offset = 0;
	int rc = 0, err, stop = 0;

	if (!fp || !buf) {
		cli_error("%s: %s", f->path, fp ? "out of memory" : strerror(errno));
		free(buf);
		if (fp && fp != stdin)
			fclose(fp);
		return EXIT_USAGE;
	}
	if (f->formatted) {
		struct pft_dfmt_config dc = { .size = sizeof(dc), .tpiu = (uint8_t)f->tpiu };
		dfmt = pft_dfmt_alloc(&dc, &err);
		if (!dfmt) {
			cli_error("%s: %s", f->path, pft_errstr(pft_errcode(err)));
			rc = EXIT_USAGE;
			goto out;
		}
	}
	while (!stop) {
		size_t n = fread(buf, 1, READ_BLOCK, fp);
		if (n == 0)
			break;
		if (dfmt)
			stop = run_formatted(f, buf, n, dfmt, on_packet, on_gap, ctx);
		else
			stop = feed_stream(f->raw, buf, n, offset, on_packet, ctx);
		offset += n;
	}
	if (ferror(fp)) {
		cli_error("%s: offset 0x%llx: read error", f->path, (unsigned long long)offset);
		rc = EXIT_USAGE;
		goto out;
	}
	if (!stop && dfmt) {
		pft_dfmt_finish(dfmt);
		stop = run_formatted(f, NULL, 0, dfmt, on_packet, on_gap, ctx);
	}
	for (int id = 0; id < 128 && !stop; id++) {
		struct stream *s = f->raw ? (id ? NULL : f->raw) : f->by_id[id];
		if (!s)
			continue;
		pft_pkt_finish(s->pkt);
		stop = drain(s, on_packet, ctx);
	}
out:
	pft_dfmt_free(dfmt);
	free(buf);
	if (fp != stdin)
		fclose(fp);
	return rc;
}

int input_run(struct input *in, packet_fn on_packet, gap_fn on_gap, void *ctx)
{
	for (size_t i = 0; i < in->nfiles; i++) {
		int rc = run_file(&in->files[i], on_packet, on_gap, ctx);
		if (rc)
			return rc;
	}
	return 0;
}
