/* pft info: what a trace input holds, one line per trace source (its ID,
 * bytes, protocol and, for PTM sources, the options that decode it). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "pft.h"

static const char info_usage[] =
	"usage: pft info (--raw FILE | --formatted FILE [--tpiu] | --snapshot DIR |\n"
	"                 --perf FILE)\n"
	"                [--elf FILE[@BIAS]] [--image FILE@ADDR] [--symbols FILE]\n"
	"                [--id N[,N...]]... [--allow-outside-files]\n"
	"                [--format text|jsonl] [--output FILE] [--quiet]\n"
	"For each trace source: its ID, byte count, protocol (ptm, etmv3, etmv4,\n"
	"stm, itm, unknown) and for PTM sources the pft options that decode it,\n"
	"from the snapshot's registers or detected from the trace as decode\n"
	"detects them: the return stack, branch broadcast and DMB/DSB waypoints\n"
	"only with an image (without one, jsonl lists them in needs_image).\n"
	"With --id (repeatable, or a list), only those trace IDs; one without\n"
	"bytes is named on standard error (exit 1).\n\n"
	"input (one of):\n"
	"  --snapshot DIR        OpenCSD snapshot directory\n"
	"  --raw FILE            one source's trace bytes ('-' = stdin)\n"
	"  --formatted FILE      CoreSight frame-formatted buffer\n"
	"  --perf FILE           perf.data of perf record -e cs_etm\n"
	"  --tpiu                formatted input has FSYNC/HSYNC (trace port)\n"
	"  --id N[,N...]         only these trace IDs (repeatable)\n"
	"  --allow-outside-files a snapshot's files may lie outside its directory\n";

/* One source of a trace file or snapshot: its configuration from the
 * snapshot's registers where it has them, else as detected (as decode
 * and dump detect it: with the images given), with the other readings
 * that decode it as cleanly and the options only an image tells. */
static void print_source(int format, const struct pft_input_source *s)
{
	const char *how = s->registers ? "registers" : s->detected ? "detected" : "";
	const char *name;
	char opts[256] = "", alt[256];

	if (*how && input_candidate_options(s, 0, opts, sizeof(opts)) < 0)
		opts[0] = 0;
	if (format == FMT_JSONL) {
		printf("{");
		if (s->id >= 0)
			printf("\"id\":%d,", s->id);
		printf("\"bytes\":%" PRIu64 ",\"protocol\":\"%s\"", s->stats.bytes,
		       pft_protocol_name(s->protocol));
		if (*how)
			printf(",\"options\":\"%s\"", opts);
		if (s->detected && s->ncandidates > 1) {
			printf(",\"alternatives\":[");
			for (unsigned k = 1; k < s->ncandidates && k < PFT_DETECT_MAX_CANDIDATES; k++)
				if (!input_candidate_options(s, k, alt, sizeof(alt)))
					printf("%s\"%s\"", k > 1 ? "," : "", alt);
			printf("]");
		}
		if (s->detected && s->needs_image) {
			printf(",\"needs_image\":[");
			for (unsigned k = 0; !input_needs_image(s, k, &name); k++)
				printf("%s\"%s\"", k ? "," : "", name);
			printf("]");
		}
		printf("}\n");
		return;
	}
	if (s->id >= 0)
		printf("id 0x%02x: ", s->id);
	printf("%" PRIu64 " bytes, %s", s->stats.bytes, pft_protocol_name(s->protocol));
	if (*how)
		printf(", options: %s (%s", *opts ? opts : "(none)", how);
	if (s->detected && s->ncandidates > 1) {
		printf("; also decodes cleanly, differently, with: ");
		for (unsigned k = 1; k < s->ncandidates && k < PFT_DETECT_MAX_CANDIDATES; k++)
			if (!input_candidate_options(s, k, alt, sizeof(alt)))
				printf("%s%s", k > 1 ? "; " : "", *alt ? alt : "no options");
	}
	if (s->detected && s->needs_image) {
		printf("; ");
		for (unsigned k = 0; !input_needs_image(s, k, &name); k++)
			printf("%s%s", k ? ", " : "", name);
		printf(" need an image");
	}
	if (*how)
		printf(")");
	printf("\n");
}

/* One trace unit of a perf.data file: its CPU, and the options its
 * registers give. */
static void print_unit(int format, const struct pft_input_source *s)
{
	char opts[256] = "";

	if (s->protocol == PFT_PROTO_PTM && pft_ptm_config_options(&s->cfg, opts, sizeof(opts)) < 0)
		opts[0] = 0;
	if (format == FMT_JSONL) {
		printf("{\"source\":\"%s\",\"cpu\":%d,", s->name, s->cpu);
		if (s->id >= 0)
			printf("\"id\":%d,", s->id);
		printf("\"bytes\":%" PRIu64 ",\"protocol\":\"%s\"", s->stats.bytes,
		       pft_protocol_name(s->protocol));
		if (s->protocol == PFT_PROTO_PTM)
			printf(",\"options\":\"%s\"", opts);
		printf("}\n");
		return;
	}
	printf("%s: ", s->name);
	if (s->id >= 0)
		printf("id 0x%02x: ", s->id);
	printf("%" PRIu64 " bytes, %s", s->stats.bytes, pft_protocol_name(s->protocol));
	if (s->protocol == PFT_PROTO_PTM)
		printf(", options: %s (registers)", *opts ? opts : "(none)");
	if (!s->decoded)
		printf(" (not decoded)");
	printf("\n");
}

/* Survey the input (pft_input's survey: read through, not decoded), then
 * print its sources. */
static int info(const struct cmd_args *a)
{
	const struct input_opts *o = &a->input;
	const struct image_args *images = &a->images;
	int format = a->format;
	struct pft_input_config ic = { .size = sizeof(ic), .id = -1, .survey = 1,
				       .snap_flags = o->allow_outside ? PFT_SNAP_ALLOW_OUTSIDE : 0u };
	uint8_t listed[16] = { 0 };   /* trace IDs printed */
	int rc = EXIT_OK;
	struct pft_input_perf_config pc = { .size = sizeof(pc) };
	struct pft_input_source s;
	struct pft_item item;
	int err;
	struct pft_input *in;

	memcpy(ic.ids, o->ids, sizeof(ic.ids));
	if (!(in = pft_input_alloc(&ic, &err))) {
		cli_error("%s", pft_errstr(pft_errcode(err)));
		return EXIT_USAGE;
	}
	err = input_add_images(in, images);
	if (err < 0)
		;
	else if (o->snapshot)
		err = pft_input_open_snapshot(in, o->snapshot);
	else if (o->perf)
		err = pft_input_open_perf(in, o->perf, &pc);
	else
		err = pft_input_open_file(in, o->raw ? o->raw : o->formatted,
					  o->raw ? PFT_PIPE_RAW : o->tpiu ? PFT_PIPE_TPIU
									 : PFT_PIPE_FORMATTED);
	while (err >= 0 && (err = pft_input_next(in, &item, sizeof(item))) == 0)
		;
	if (err != -PFT_ERR_EOS) {
		input_report_error(in, err);
		pft_input_free(in);
		return EXIT_USAGE;
	}
	if (cmd_open_output(a)) {
		pft_input_free(in);
		return EXIT_USAGE;
	}
	for (size_t i = 0; pft_input_source(in, i, &s, sizeof(s)) == 0; i++) {
		if (o->nids && !input_names_id(o, s.id))
			continue;
		(o->perf ? print_unit : print_source)(format, &s);
		if (s.id > 0)
			listed[s.id / 8] |= (uint8_t)(1u << (s.id % 8));
	}
	/* An ID asked for without bytes: said as dump and decode say it. */
	for (int id = 1; id <= PFT_ID_MAX_VALID; id++)
		if (input_names_id(o, id) && !(listed[id / 8] >> (id % 8) & 1)) {
			cli_error("%s: trace ID 0x%02x: no trace data",
				  o->raw ? o->raw : o->formatted ? o->formatted
					  : o->snapshot ? o->snapshot : o->perf, (unsigned)id);
			rc = EXIT_DECODE_ERRORS;
		}
	pft_input_free(in);
	return rc;
}

/* The usage: the options of the groups info takes (@ctx: its spec). */
static void usage(void *ctx)
{
	const struct cmd_spec *spec = ctx;

	fputs(info_usage, stdout);
	if (spec->groups & OPTS_IMAGES)
		fputs(IMAGES_HELP, stdout);
	fputs("output:\n"
	      "  --format text|jsonl   listing format (default text)\n"
	      OUTPUT_HELP, stdout);
}

int cmd_info(int argc, char **argv)
{
	/* --id: the input option, without the configuration options. */
	static const struct option own[] = { { "id", required_argument, NULL, OPT_ID },
					     { NULL, 0, NULL, 0 } };
	const struct cmd_spec spec = { .name = "info",
				       .groups = OPTS_FILES | OPTS_FORMAT | OPTS_IMAGES | OPTS_OUTPUT,
				       .own = own, .format_default = FMT_TEXT, .usage = usage,
				       .ctx = (void *)&spec };
	struct cmd_args a;
	const struct input_opts *o = &a.input;
	int rc = cmd_parse(argc, argv, &spec, &a);

	if (rc != CMD_GO_ON) {
		cmd_args_free(&a);
		return rc;
	}
	if (!!o->raw + !!o->formatted + !!o->snapshot + !!o->perf != 1) {
		cli_error("info: give one input: --raw FILE, --formatted FILE, --snapshot DIR or "
			  "--perf FILE");
		rc = EXIT_USAGE;
	} else if (o->tpiu && !o->formatted) {
		cli_error("info: --tpiu goes with --formatted");
		rc = EXIT_USAGE;
	} else if (o->allow_outside && !o->snapshot) {
		cli_error("info: --allow-outside-files goes with --snapshot");
		rc = EXIT_USAGE;
	} else if (o->raw && o->nids) {
		cli_error("info: --id does not go with --raw (raw input has one source)");
		rc = EXIT_USAGE;
	} else {
		rc = info(&a);
	}
	cmd_args_free(&a);
	return rc;
}
