/* pft dump: list the packets of a PTM trace. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "input.h"

struct dump {
	int format;
	int count_only;
	int multi_id;            /* print the trace ID column */
	uint64_t counts[PFT_PKT_TYPE_MAX];
	uint64_t errors, bytes;
};

static const char *atoms_str(const struct pft_packet *p, char *buf)
{
	for (unsigned i = 0; i < p->n_atoms; i++)
		buf[i] = (p->atoms >> i) & 1 ? 'E' : 'N';
	buf[p->n_atoms] = 0;
	return buf;
}

/* The packet's fields as "key=value" (text) or "\"key\":value" (JSON). */
static void print_fields(FILE *out, const struct pft_packet *p, int json,
			 const struct stream *s)
{
	const char *sep = json ? "," : " ";
	char atoms[8];

#define FIELD_STR(k, v) fprintf(out, json ? "%s\"%s\":\"%s\"" : "%s%s=%s", sep, k, v)
#define FIELD_HEX(k, v) fprintf(out, json ? "%s\"%s\":\"0x%" PRIx64 "\"" : "%s%s=0x%" PRIx64, \
				sep, k, (uint64_t)(v))
#define FIELD_INT(k, v) fprintf(out, json ? "%s\"%s\":%" PRIu64 : "%s%s=%" PRIu64, sep, k, \
				(uint64_t)(v))
	switch (p->type) {
	case PFT_PKT_ISYNC:
		FIELD_HEX("addr", p->addr);
		FIELD_STR("isa", pft_isa_name(p->isa));
		FIELD_STR("reason", pft_isync_reason_name(p->reason));
		FIELD_INT("ns", p->ns);
		FIELD_INT("hyp", p->hyp);
		if (p->has_ctxid || s->cfg.ctxid_bytes)
			FIELD_HEX("ctxid", p->ctxid);
		break;
	case PFT_PKT_ATOM:
		FIELD_STR("atoms", atoms_str(p, atoms));
		break;
	case PFT_PKT_BRANCH:
		FIELD_HEX("addr", p->addr);
		FIELD_STR("isa", pft_isa_name(p->isa));
		if (p->exc_bytes) {
			FIELD_INT("exception", p->exception);
			if (!json)
				FIELD_STR("name", pft_exception_name(p->exception));
			FIELD_INT("ns", p->ns);
			FIELD_INT("hyp", p->hyp);
			FIELD_INT("altis", p->altis);
		}
		break;
	case PFT_PKT_WAYPOINT:
		FIELD_HEX("addr", p->addr);
		FIELD_STR("isa", pft_isa_name(p->isa));
		break;
	case PFT_PKT_CONTEXTID:
		FIELD_HEX("ctxid", p->ctxid);
		break;
	case PFT_PKT_VMID:
		FIELD_INT("vmid", p->vmid);
		break;
	case PFT_PKT_TIMESTAMP:
		FIELD_HEX("ts", p->ts);
		if (p->ts_clock_change)
			FIELD_INT("clock_change", 1);
		break;
	case PFT_PKT_BAD:
		if (json)
			fprintf(out, ",\"msg\":\"%s", pft_bad_reason_str(p->bad));
		else
			fprintf(out, " %s", pft_bad_reason_str(p->bad));
		if (p->bad == PFT_BAD_RESERVED_HEADER)
			fprintf(out, " 0x%02x", p->raw[0]);
		if (json)
			fputc('"', out);
		break;
	default:
		break;
	}
	if (p->has_cycles)
		FIELD_INT("cycles", p->cycles);
#undef FIELD_STR
#undef FIELD_HEX
#undef FIELD_INT
}

static void print_bytes(FILE *out, const struct pft_packet *p)
{
	for (uint32_t i = 0; i < p->size; i++)
		fprintf(out, i ? " %02x" : "%02x", p->raw[i]);
}

static int on_packet(void *ctx, struct stream *s, const struct pft_packet *p, int status)
{
	struct dump *d = ctx;
	FILE *out = stdout;

	d->counts[p->type]++;
	d->bytes += p->size;
	if (status < 0) {
		char id[16] = "";
		if (s->id >= 0)
			snprintf(id, sizeof(id), "id 0x%02x: ", s->id);
		d->errors++;
		if (p->bad == PFT_BAD_RESERVED_HEADER)
			cli_error("%s: offset 0x%" PRIx64 ": %sreserved header 0x%02x", s->path,
				  p->offset, id, p->raw[0]);
		else
			cli_error("%s: offset 0x%" PRIx64 ": %s%s", s->path, p->offset, id,
				  pft_bad_reason_str(p->bad));
	}
	if (d->count_only)
		return 0;
	if (d->format == FMT_JSONL) {
		fprintf(out, "{\"offset\":%" PRIu64, p->offset);
		if (s->id >= 0)
			fprintf(out, ",\"id\":%d", s->id);
		fprintf(out, ",\"type\":\"%s\",\"bytes\":\"", pft_pkt_type_name(p->type));
		print_bytes(out, p);
		fputc('"', out);
		print_fields(out, p, 1, s);
		fputs("}\n", out);
		return 0;
	}
	fprintf(out, "0x%08" PRIx64, p->offset);
	if (d->multi_id)
		fprintf(out, "  %02x", s->id);
	fputs("  ", out);
	/* Bytes column: 12 bytes wide; longer packets push the rest right. */
	int width = p->size ? (int)(3 * p->size - 1) : 0;
	print_bytes(out, p);
	fprintf(out, "%*s  %s", width < 35 ? 35 - width : 0, "", pft_pkt_type_name(p->type));
	print_fields(out, p, 0, s);
	fputc('\n', out);
	return 0;
}

/* A formatter frame was dropped (or the capture is marked discontinuous):
 * list it where the listing has reached, as an error for each source. */
static void on_gap(void *ctx, struct stream *s, uint64_t offset, int status)
{
	struct dump *d = ctx;

	if (status == 0)
		return;
	d->errors++;
	s->errors++;
	cli_error("%s: offset 0x%" PRIx64 ": id 0x%02x: %s", s->path, offset, s->id,
		  pft_errstr(pft_errcode(status)));
	if (d->count_only)
		return;
	if (d->format == FMT_JSONL)
		printf("{\"offset\":%" PRIu64 ",\"id\":%d,\"type\":\"error\",\"bytes\":\"\","
		       "\"msg\":\"%s\"}\n", offset, s->id, pft_errstr(pft_errcode(status)));
	else
		printf("0x%08" PRIx64 "  %02x  %35s  error %s\n", offset, s->id, "",
		       pft_errstr(pft_errcode(status)));
}

static void print_counts(const struct dump *d, const struct input *in)
{
	for (size_t i = 0; i < in->nstreams; i++) {
		const struct stream *s = &in->streams[i];
		if (s->id >= 0)
			printf("id 0x%02x (%s): ", s->id, s->name);
		else
			printf("%s: ", s->name);
		printf("%" PRIu64 " bytes, %" PRIu64 " packets, %" PRIu64 " errors\n",
		       s->bytes, s->packets, s->errors);
	}
	for (int t = 0; t < PFT_PKT_TYPE_MAX; t++)
		if (d->counts[t])
			printf("  %-17s %" PRIu64 "\n", pft_pkt_type_name(t), d->counts[t]);
}

static void usage(FILE *out)
{
	fprintf(out, "usage: pft dump INPUT [--format text|jsonl] [--count]\n\n%s"
		     "output:\n"
		     "  --format text|jsonl   listing format (default text)\n"
		     "  --count               print only packet counts\n",
		INPUT_OPTIONS_HELP);
}

int cmd_dump(int argc, char **argv)
{
	static const struct option longopts[] = {
		INPUT_LONG_OPTIONS,
		{ "format", required_argument, NULL, 'f' },
		{ "count", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct input_opts o;
	struct dump d = { 0 };
	struct input in;
	int c;

	input_opts_init(&o);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c >= INPUT_OPT_BASE && c < INPUT_OPT_END) {
			if (input_option(&o, c, optarg))
				return EXIT_USAGE;
		} else if (c == 'f') {
			if (cli_parse_format(optarg, &d.format))
				return EXIT_USAGE;
		} else if (c == 'c') {
			d.count_only = 1;
		} else if (c == 'h') {
			usage(stdout);
			return EXIT_OK;
		} else {
			cli_bad_option("dump", argv, optopt);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		cli_error("dump: unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if (input_opts_check(&o))
		return EXIT_USAGE;
	int rc = input_open(&in, &o);
	if (rc) {
		input_close(&in);
		return rc;
	}
	d.multi_id = in.nstreams > 1 || in.streams[0].id >= 0;
	rc = input_run(&in, on_packet, on_gap, &d);
	if (!rc && d.count_only)
		print_counts(&d, &in);
	if (!rc) {
		for (size_t i = 0; i < in.nstreams; i++) {
			const struct stream *s = &in.streams[i];
			char id[32] = "";
			if (s->id >= 0)
				snprintf(id, sizeof(id), "trace ID 0x%02x: ", s->id);
			if (!s->bytes && (o.id >= 0 || in.nstreams == 1)) {
				cli_error("%s: %sno trace data", s->path, id);
				d.errors++;
			} else if (s->bytes && !s->synced_once) {
				cli_error("%s: %sno A-sync in %" PRIu64 " bytes: nothing could be decoded",
					  s->path, id, s->bytes);
				d.errors++;
			}
		}
		if (d.errors)
			rc = EXIT_DECODE_ERRORS;
	}
	input_close(&in);
	return rc;
}
