/* pft dump: list the packets of a PTM trace. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "input.h"
#include "options.h"
#include "outbuf.h"

struct dump {
	int format;
	int count_only;
	int multi_id;            /* print the trace ID column */
	uint64_t counts[PFT_PTM_PKT_TYPE_MAX];
	uint64_t etm3_packets;   /* ETMv3 sources' packets (types of their own) */
	uint64_t errors, bytes;
	int timed;               /* --merge: the item being printed has @time */
	uint64_t time;
	struct pft_listing listing;
	int failed;              /* a line could not be written */
	struct outbuf out;
};

/* The line pft_listing_*() wrote at the buffer's end, @len bytes. */
static void put_line(struct dump *d, int len)
{
	if (len < 0) {   /* a packet no decoder makes */
		if (!d->failed++)
			cli_error("dump: %s", pft_errstr(pft_errcode(len)));
		return;
	}
	d->out.len += (size_t)len;
	ob_line_done(&d->out);
}

/* The listing's fields for an item of source @s. */
static struct pft_listing *listing_for(struct dump *d, const struct source *s)
{
	struct pft_listing *l = &d->listing;

	l->id = s->info.id;
	l->timed = (uint8_t)d->timed;
	l->time = d->time;
	l->message = NULL;
	return l;
}

static void on_packet(struct dump *d, const struct source *s, const struct pft_ptm_packet *p,
		      int status)
{
	struct outbuf *o = &d->out;

	d->counts[p->type]++;
	d->bytes += p->size;
	if (status < 0) {
		char idstr[16];
		input_id_prefix(&s->info, idstr);
		d->errors++;
		if (p->bad == PFT_ERR_PKT_RESERVED_HEADER)
			cli_error("%s: offset 0x%" PRIx64 ": %sreserved header 0x%02x", s->info.path,
				  p->offset, idstr, p->raw[0]);
		else
			cli_error("%s: offset 0x%" PRIx64 ": %s%s", s->info.path, p->offset, idstr,
				  pft_errstr(p->bad));
	}
	if (d->count_only)
		return;
	put_line(d, pft_listing_ptm_packet(listing_for(d, s), p, s->info.cfg.ctxid_bytes,
					   o->buf + o->len, OUTBUF_LINE_MAX));
}

/* An ETMv3 packet: its bytes, type and main fields (doc/etmv3.md). */
static void on_etm3_packet(struct dump *d, const struct source *s,
			   const struct pft_etm3_packet *p, int status)
{
	int id = s->info.id;

	d->etm3_packets++;
	d->bytes += p->size;
	if (status < 0) {
		d->errors++;
		cli_error("%s: offset 0x%" PRIx64 ": id 0x%02x: %s", s->info.path, p->offset, id,
			  pft_errstr(p->bad));
	}
	if (d->count_only)
		return;
	put_line(d, pft_listing_etm3_packet(listing_for(d, s), p, s->info.profile,
					    d->out.buf + d->out.len, OUTBUF_LINE_MAX));
}

/* A formatter frame was dropped (or the capture is marked discontinuous):
 * list it where the listing has reached, as an error for each source. */
static void on_gap(struct dump *d, const struct source *s, uint64_t offset, int status)
{
	int id = s->info.id;

	if (status == 0)
		return;
	d->errors++;
	cli_error("%s: offset 0x%" PRIx64 ": id 0x%02x: %s", s->info.path, offset, id,
		  pft_errstr(pft_errcode(status)));
	if (d->count_only)
		return;
	/* The line of a bad packet without bytes, whose message is the gap's,
	 * with the ID whatever the input. */
	struct pft_listing *l = listing_for(d, s);
	struct pft_ptm_packet gap = { .type = PFT_PTM_PKT_BAD, .offset = offset };
	l->message = pft_errstr(pft_errcode(status));
	l->show_id = 1;
	put_line(d, pft_listing_ptm_packet(l, &gap, 0, d->out.buf + d->out.len, OUTBUF_LINE_MAX));
	l->show_id = (uint8_t)d->multi_id;
}

/* --count: the library counted the packets (the items were the errors). */
static void take_counts(struct dump *d, const struct input *in)
{
	memset(d->counts, 0, sizeof(d->counts));
	d->etm3_packets = 0;
	for (size_t i = 0; i < in->nsrc; i++) {
		const struct pft_input_counts *c = &in->src[i].counts;
		for (int t = 0; t < PFT_PTM_PKT_TYPE_MAX; t++)
			d->counts[t] += c->packets[t];
		for (int t = 0; t < PFT_ETM3_PKT_TYPE_MAX; t++)
			d->etm3_packets += c->etm3_packets[t];
	}
}

/* The counts by type of @c (a source's, in JSON; NULL: the total,
 * @d's): "  name  N" lines (text) or ,"name":N (JSON, the first without
 * its comma). */
static void print_types(const struct dump *d, const struct pft_input_counts *c, int json)
{
	const uint64_t *counts = c ? c->packets : d->counts;
	uint64_t etm3 = d->etm3_packets;
	int n = 0;

	if (c) {
		etm3 = 0;
		for (int t = 0; t < PFT_ETM3_PKT_TYPE_MAX; t++)
			etm3 += c->etm3_packets[t];
	}
	for (int t = 0; t < PFT_PTM_PKT_TYPE_MAX; t++) {
		if (!counts[t])
			continue;
		if (json)
			printf("%s\"%s\":%" PRIu64, n++ ? "," : "", pft_ptm_pkt_type_name(t), counts[t]);
		else
			printf("  %-17s %" PRIu64 "\n", pft_ptm_pkt_type_name(t), counts[t]);
	}
	/* ETMv3 packets have types of their own: their total. */
	if (etm3 && json)
		printf("%s\"etmv3_packets\":%" PRIu64, n ? "," : "", etm3);
	else if (etm3)
		printf("  %-17s %" PRIu64 "\n", "etmv3 packets", etm3);
}

/* --count: a line per source (JSON: with the total's counts), then the
 * total. */
static void print_counts(const struct dump *d, const struct input *in)
{
	int json = d->format == FMT_JSONL;

	for (size_t i = 0; i < in->nsrc; i++) {
		const struct pft_input_source *s = &in->src[i].info;
		if (!s->decoded)
			continue;
		if (json) {
			printf("{\"type\":\"source\"");
			if (s->cpu >= 0)
				printf(",\"cpu\":%d", s->cpu);
			printf(",\"id\":%d,\"bytes\":%" PRIu64 ",\"packets\":%" PRIu64
			       ",\"errors\":%" PRIu64 ",\"counts\":{", s->id, s->stats.bytes,
			       s->stats.packets, s->stats.errors);
			print_types(d, &in->src[i].counts, 1);
			printf("}}\n");
			continue;
		}
		if (s->id >= 0)
			printf("id 0x%02x (%s): ", s->id, s->name);
		else
			printf("%s: ", s->name);
		/* The line scripts read, as it was ("..., E errors" last): the
		 * types are in the JSON objects. */
		printf("%" PRIu64 " bytes, %" PRIu64 " packets, %" PRIu64 " errors\n",
		       s->stats.bytes, s->stats.packets, s->stats.errors);
	}
	if (json)
		printf("{\"type\":\"summary\",\"counts\":{");
	print_types(d, NULL, json);
	if (json)
		printf("}}\n");
}

static void usage(void *ctx)
{
	(void)ctx;
	printf("usage: pft dump INPUT [--format text|jsonl] [--count] [-j N] [--merge]\n"
	       "                [--output FILE] [--quiet]\n\n%s%s"
	       "output:\n"
	       "  --format text|jsonl   listing format (default text)\n"
	       "  --count               print only packet counts (per source, then the\n"
	       "                        total)\n"
	       MERGE_HELP
	       OUTPUT_HELP,
	       INPUT_OPTIONS_HELP, JOBS_HELP);
}

/* --count, dump's own option. */
static int dump_option(void *ctx, int code, const char *arg)
{
	(void)code;
	(void)arg;
	((struct dump *)ctx)->count_only = 1;
	return 0;
}

int cmd_dump(int argc, char **argv)
{
	static const struct option own[] = {
		{ "count", no_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 }
	};
	struct dump d = { 0 };
	const struct cmd_spec spec = {
		.name = "dump",
		.groups = OPTS_FILES | OPTS_INPUT | OPTS_JOBS | OPTS_FORMAT | OPTS_OUTPUT | OPTS_MERGE,
		.format_default = FMT_TEXT, .own = own, .option = dump_option, .usage = usage,
		.ctx = &d
	};
	struct cmd_args a;
	struct input_opts *o = &a.input;
	struct input in;
	int rc = cmd_parse(argc, argv, &spec, &a);

	cmd_args_free(&a);
	if (rc != CMD_GO_ON)
		return rc;
	d.format = a.format;
	o->counting = d.count_only;
	rc = input_open(&in, o, 1, 0, NULL);
	if (!rc && cmd_open_output(&a))
		rc = EXIT_USAGE;
	if (rc) {
		input_close(&in);
		return rc;
	}
	d.multi_id = in.multi_id;
	d.listing = (struct pft_listing){ .size = sizeof(d.listing), .show_id = (uint8_t)d.multi_id,
					  .cpu = -1,
					  .format = d.format == FMT_JSONL ? PFT_LISTING_JSONL
									  : PFT_LISTING_TEXT };
	struct pft_item item;
	int r;
	while ((r = d.count_only ? input_count(&in, &item) : input_next(&in, &item)) > 0) {
		const struct source *s = &in.src[item.source];
		d.timed = o->merge && item.timed;
		d.time = item.time;
		if (item.type == PFT_ITEM_PACKET && item.etm3)
			on_etm3_packet(&d, s, item.etm3, item.status);
		else if (item.type == PFT_ITEM_PACKET)
			for (uint32_t i = 0; i < item.count; i++)
				on_packet(&d, s, &item.ptm[i], item.status);
		else if (item.type == PFT_ITEM_GAP)
			on_gap(&d, s, item.offset, item.status);
	}
	ob_flush(&d.out);
	if (r < 0 || d.failed)
		rc = EXIT_USAGE;
	if (!rc && d.count_only) {
		take_counts(&d, &in);
		print_counts(&d, &in);
	}
	if (!rc && o->merge)
		input_merge_report(&in, "--merge-window");
	if (!rc) {
		d.errors += (uint64_t)input_check_sources(&in, o, 1);
		if (input_fit_report(&in) || d.errors)
			rc = EXIT_DECODE_ERRORS;
	}
	input_close(&in);
	return rc;
}
