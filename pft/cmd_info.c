/* pft info: what a trace input holds, one line per trace source (its ID,
 * bytes, protocol and, for PTM sources, the options that decode it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "info_perf.h"
#include "options.h"
#include "pft.h"

/* Bytes read at a time: memory does not grow with the buffer. */
enum { INFO_BLOCK = 256 * 1024 };

static const char info_usage[] =
	"usage: pft info (--raw FILE | --formatted FILE [--tpiu] | --snapshot DIR |\n"
	"                 --perf FILE)\n"
	"                [--format text|jsonl]\n"
	"For each trace source: its ID, byte count, protocol (ptm, etmv3, etmv4,\n"
	"stm, itm, unknown) and for PTM sources the pft options that decode it,\n"
	"from the snapshot's registers or detected from the trace.\n";

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

/* Print one source: its configuration from the snapshot's registers
 * where it has them, else as detected. */
static void print_source(int format, int id, const struct pft_info_source *src,
			 const struct pft_snapshot *snap)
{
	int proto = src->protocol;
	char opts[256] = "";
	const char *how = "";
	struct pft_config cfg;

	if (snapshot_config(snap, id, &cfg)) {
		proto = PFT_PROTO_PTM;
		how = "registers";
	} else if (src->detected) {
		cfg = src->cfg;
		how = "detected";
	}
	if (*how && pft_config_options(&cfg, opts, sizeof(opts)) < 0)
		opts[0] = 0;
	if (format == FMT_JSONL) {
		printf("{");
		if (id >= 0)
			printf("\"id\":%d,", id);
		printf("\"bytes\":%llu,\"protocol\":\"%s\"", (unsigned long long)src->bytes,
		       pft_protocol_name((unsigned)proto));
		if (*how)
			printf(",\"options\":\"%s\"", opts);
		printf("}\n");
		return;
	}
	if (id >= 0)
		printf("id 0x%02x: ", id);
	printf("%llu bytes, %s", (unsigned long long)src->bytes, pft_protocol_name((unsigned)proto));
	if (*how)
		printf(", options: %s (%s)", *opts ? opts : "(none)", how);
	printf("\n");
}

/* Every source of one buffer ("-": standard input), read in blocks:
 * @framing PFT_FRAMES_RAW, _MEMORY, _TPIU or _UNKNOWN (formatted; memory
 * buffer or trace port is detected). */
static int info_buffer(const char *path, int framing, int format, int raw_id,
		       const struct pft_snapshot *snap)
{
	struct pft_info_config ic = { .size = sizeof(ic), .framing = (uint8_t)framing };
	int is_stdin = !strcmp(path, "-");
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	struct pft_info *info = pft_info_alloc(&ic, NULL);
	uint8_t *block = malloc(INFO_BLOCK);
	int rc = EXIT_USAGE, err = 0;

	if (!f) {
		cli_error("%s: cannot read the file", path);
		goto out;
	}
	if (!info || !block) {
		cli_error("out of memory");
		goto out;
	}
	size_t n;
	while (err >= 0 && (n = fread(block, 1, INFO_BLOCK, f)) > 0)
		err = pft_info_feed(info, block, n);
	if (err >= 0 && ferror(f)) {
		cli_error("%s: cannot read the file", path);
		goto out;
	}
	if (err >= 0)
		err = pft_info_finish(info);
	if (err < 0) {
		cli_error("%s: %s", path, pft_errstr(pft_errcode(err)));
		goto out;
	}
	struct pft_info_source src;
	for (size_t i = 0; pft_info_source(info, i, &src, sizeof(src)) == 0; i++)
		print_source(format, src.id >= 0 ? src.id : raw_id, &src, snap);
	rc = EXIT_OK;
out:
	if (f && !is_stdin)
		fclose(f);
	pft_info_free(info);
	free(block);
	return rc;
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

static void usage(void *ctx)
{
	(void)ctx;
	fputs(info_usage, stdout);
}

int cmd_info(int argc, char **argv)
{
	const struct cmd_spec spec = { .name = "info", .groups = OPTS_FILES | OPTS_FORMAT,
				       .format_default = FMT_TEXT, .usage = usage };
	struct cmd_args a;
	const struct input_opts *o = &a.input;
	int rc = cmd_parse(argc, argv, &spec, &a);

	cmd_args_free(&a);
	if (rc != CMD_GO_ON)
		return rc;
	if (!!o->raw + !!o->formatted + !!o->snapshot + !!o->perf != 1) {
		cli_error("info: give one input: --raw FILE, --formatted FILE, --snapshot DIR or "
			  "--perf FILE");
		return EXIT_USAGE;
	}
	if (o->tpiu && !o->formatted) {
		cli_error("info: --tpiu goes with --formatted");
		return EXIT_USAGE;
	}
	if (o->snapshot)
		return info_snapshot(o->snapshot, a.format);
	if (o->perf)
		return info_perf(o->perf, a.format);
	if (o->raw)
		return info_buffer(o->raw, PFT_FRAMES_RAW, a.format, -1, NULL);
	return info_buffer(o->formatted, o->tpiu ? PFT_FRAMES_TPIU : PFT_FRAMES_UNKNOWN, a.format,
			   -1, NULL);
}
