/* pft info: what a trace input holds, one line per trace source (its ID,
 * bytes, protocol and, for PTM sources, the options that decode it). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "info_perf.h"
#include "pft.h"

static const char info_usage[] =
	"usage: pft info (--raw FILE | --formatted FILE [--tpiu] | --snapshot DIR |\n"
	"                 --perf FILE)\n"
	"                [--format text|jsonl]\n"
	"For each trace source: its ID, byte count, protocol (ptm, etmv3, etmv4,\n"
	"stm, itm, unknown) and for PTM sources the pft options that decode it,\n"
	"from the snapshot's registers or detected from the trace.\n";

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t cap = 0;

	*len = 0;
	if (!f)
		return NULL;
	for (;;) {
		if (*len == cap) {
			size_t ncap = cap ? 2 * cap : 1 << 16;
			uint8_t *nb = realloc(buf, ncap);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
			cap = ncap;
		}
		size_t n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
		if (n == 0)
			break;
	}
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		return NULL;
	}
	return buf ? buf : malloc(1);
}

/* The configuration of the snapshot's PTM with trace ID @id, if any. */
static int snapshot_config(const struct pft_snapshot *s, int id, struct pft_config *cfg)
{
	for (size_t i = 0; s && i < s->ndevs; i++) {
		const struct pft_snap_device *d = &s->devs[i];
		uint64_t tid;
		if (d->protocol != PFT_PROTO_PTM || pft_snap_reg(d, "ETMTRACEIDR", &tid) < 0 ||
		    (id >= 0 && (int)(tid & 0x7f) != id))
			continue;
		return pft_snap_ptm_config(d, cfg, NULL, 0) == 0;
	}
	return 0;
}

/* Print one source.  @prefix: its first bytes, for detection. */
static void print_source(int format, int id, uint64_t bytes, const uint8_t *prefix,
			 size_t plen, const struct pft_snapshot *snap)
{
	int proto = pft_detect_protocol(prefix, plen);
	char opts[256] = "";
	const char *how = "";
	struct pft_config cfg;

	if (proto < 0)
		proto = PFT_PROTO_UNKNOWN;
	if (snapshot_config(snap, id, &cfg)) {
		proto = PFT_PROTO_PTM;
		how = "registers";
	} else if (proto == PFT_PROTO_PTM) {
		struct pft_detect_ptm_result r;
		if (pft_detect_ptm(prefix, plen, NULL, &r, sizeof(r)) == 0) {
			cfg = r.config;
			how = "detected";
		}
	}
	if (*how && pft_config_options(&cfg, opts, sizeof(opts)) < 0)
		opts[0] = 0;
	if (format == FMT_JSONL) {
		printf("{");
		if (id >= 0)
			printf("\"id\":%d,", id);
		printf("\"bytes\":%llu,\"protocol\":\"%s\"", (unsigned long long)bytes,
		       pft_protocol_name((unsigned)proto));
		if (*how)
			printf(",\"options\":\"%s\"", opts);
		printf("}\n");
		return;
	}
	if (id >= 0)
		printf("id 0x%02x: ", id);
	printf("%llu bytes, %s", (unsigned long long)bytes, pft_protocol_name((unsigned)proto));
	if (*how)
		printf(", options: %s (%s)", *opts ? opts : "(none)", how);
	printf("\n");
}

/* Every source of one buffer: @framing PFT_FRAMES_RAW, _MEMORY, _TPIU or
 * _UNKNOWN (formatted; memory buffer or trace port is detected). */
static int info_buffer(const char *path, int framing, int format, int raw_id,
		       const struct pft_snapshot *snap)
{
	size_t len;
	uint8_t *buf = slurp(path, &len);
	struct pft_detect_frames fr;

	if (!buf) {
		cli_error("%s: cannot read the file", path);
		return EXIT_USAGE;
	}
	if (framing == PFT_FRAMES_UNKNOWN) {
		/* Formatted: whether it has trace-port syncs is detected. */
		if (pft_detect_frames(buf, len, &fr, sizeof(fr)) < 0) {
			cli_error("%s: out of memory", path);
			free(buf);
			return EXIT_USAGE;
		}
		framing = fr.format == PFT_FRAMES_TPIU ? PFT_FRAMES_TPIU : PFT_FRAMES_MEMORY;
	}
	if (framing == PFT_FRAMES_RAW) {
		print_source(format, raw_id, len, buf, len < PFT_DETECT_PREFIX ? len : PFT_DETECT_PREFIX,
			     snap);
		free(buf);
		return EXIT_OK;
	}
	/* The frames as given: count every ID. */
	int tpiu = framing == PFT_FRAMES_TPIU;
	struct pft_dfmt_config dc = { .size = sizeof(dc), .tpiu = (uint8_t)tpiu };
	struct pft_dfmt *d = pft_dfmt_alloc(&dc, NULL);
	struct pft_dfmt_chunk ch;
	uint64_t counts[PFT_ID_MAX_VALID + 1] = { 0 };
	pft_dfmt_feed(d, buf, len);
	pft_dfmt_finish(d);
	for (;;) {
		int st = pft_dfmt_next(d, &ch, sizeof(ch));
		if (st == -PFT_ERR_EOS || st == -PFT_ERR_NEED_INPUT)
			break;
		if (st == 0 && ch.id <= PFT_ID_MAX_VALID)
			counts[ch.id] += ch.len;
	}
	pft_dfmt_free(d);
	for (int id = 1; id <= PFT_ID_MAX_VALID; id++) {
		if (!counts[id])
			continue;
		uint8_t *prefix = malloc(PFT_DETECT_PREFIX);
		int plen = prefix ? pft_detect_id_bytes(buf, len, tpiu, (unsigned)id, prefix,
							PFT_DETECT_PREFIX)
				  : -PFT_ERR_NOMEM;
		if (plen < 0) {
			cli_error("%s: out of memory", path);
			free(prefix);
			free(buf);
			return EXIT_USAGE;
		}
		print_source(format, id, counts[id], prefix, (size_t)plen, snap);
		free(prefix);
	}
	free(buf);
	return EXIT_OK;
}

static int info_snapshot(const char *dir, int format)
{
	struct pft_snapshot *s;
	char err[1024];
	int rc = EXIT_OK;

	if (pft_snap_load(dir, 0, &s, err, sizeof(err)) < 0) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < s->nbufs && rc == EXIT_OK; i++) {
		const struct pft_snap_buffer *b = &s->bufs[i];
		int framing = b->pipe_format == PFT_PIPE_RAW ? PFT_FRAMES_RAW :
			      b->pipe_format == PFT_PIPE_TPIU ? PFT_FRAMES_TPIU : PFT_FRAMES_MEMORY;
		int raw_id = -1;
		/* A raw buffer holds its source's trace: its ID is the
		 * source's ETMTRACEIDR. */
		for (size_t k = 0; framing == PFT_FRAMES_RAW && k < s->ndevs; k++) {
			uint64_t tid;
			const struct pft_snap_device *dev = &s->devs[k];
			if (dev->buffer == (int)i && pft_snap_reg(dev, "ETMTRACEIDR", &tid) == 0)
				raw_id = (int)(tid & 0x7f);
		}
		rc = info_buffer(b->path, framing, format, raw_id, s);
	}
	pft_snap_free(s);
	return rc;
}

int cmd_info(int argc, char **argv)
{
	enum { OPT_RAW = 1000, OPT_FORMATTED, OPT_SNAPSHOT, OPT_TPIU, OPT_FORMAT, OPT_HELP,
	       OPT_PERF };
	static const struct option opts[] = {
		{ "raw", required_argument, NULL, OPT_RAW },
		{ "formatted", required_argument, NULL, OPT_FORMATTED },
		{ "snapshot", required_argument, NULL, OPT_SNAPSHOT },
		{ "tpiu", no_argument, NULL, OPT_TPIU },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "perf", required_argument, NULL, OPT_PERF },
		{ NULL, 0, NULL, 0 }
	};
	const char *raw = NULL, *formatted = NULL, *snapshot = NULL, *perf = NULL;
	int tpiu = 0, format = FMT_TEXT, c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case OPT_RAW: raw = optarg; break;
		case OPT_FORMATTED: formatted = optarg; break;
		case OPT_SNAPSHOT: snapshot = optarg; break;
		case OPT_TPIU: tpiu = 1; break;
		case OPT_PERF: perf = optarg; break;
		case OPT_FORMAT:
			if (cli_parse_format(optarg, &format) < 0)
				return EXIT_USAGE;
			break;
		case OPT_HELP:
			fputs(info_usage, stdout);
			return EXIT_OK;
		default:
			cli_bad_option("info", argv, optopt);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		cli_error("info: unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if (!!raw + !!formatted + !!snapshot + !!perf != 1) {
		cli_error("info: give one input: --raw FILE, --formatted FILE, --snapshot DIR or "
			  "--perf FILE");
		return EXIT_USAGE;
	}
	if (tpiu && !formatted) {
		cli_error("info: --tpiu goes with --formatted");
		return EXIT_USAGE;
	}
	if (snapshot)
		return info_snapshot(snapshot, format);
	if (perf)
		return info_perf(perf, format);
	if (raw)
		return info_buffer(raw, PFT_FRAMES_RAW, format, -1, NULL);
	return info_buffer(formatted, tpiu ? PFT_FRAMES_TPIU : PFT_FRAMES_UNKNOWN, format, -1,
			   NULL);
}
