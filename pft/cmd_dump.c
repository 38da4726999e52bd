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
	struct outbuf out;
};

static const char *atoms_str(const struct pft_ptm_packet *p, char *buf)
{
	for (unsigned i = 0; i < p->n_atoms; i++)
		buf[i] = (p->atoms >> i) & 1 ? 'E' : 'N';
	buf[p->n_atoms] = 0;
	return buf;
}

/* ` key=` (text) or `,"key":` (JSON), then the value's opening quote when
 * @quoted in JSON. */
static void field_key(struct outbuf *o, const char *k, int json, int quoted)
{
	if (json) {
		ob_str(o, ",\"");
		ob_str(o, k);
		ob_str(o, quoted ? "\":\"" : "\":");
	} else {
		ob_char(o, ' ');
		ob_str(o, k);
		ob_char(o, '=');
	}
}

static void field_str(struct outbuf *o, const char *k, const char *v, int json)
{
	field_key(o, k, json, 1);
	ob_str(o, v);
	if (json)
		ob_char(o, '"');
}

static void field_hex(struct outbuf *o, const char *k, uint64_t v, int json)
{
	field_key(o, k, json, 1);
	ob_str(o, "0x");
	ob_hex(o, v, 0);
	if (json)
		ob_char(o, '"');
}

static void field_int(struct outbuf *o, const char *k, uint64_t v, int json)
{
	field_key(o, k, json, 0);
	ob_dec(o, v);
}

/* A branch or waypoint address.  Before the first I-sync a compressed one
 * gives only its low bits and no instruction set: "addr_bits" says how many
 * (text: "addr=0x...(low N bits)"), and there is no "isa". */
static void print_address(struct outbuf *o, const struct pft_ptm_packet *p, int json)
{
	if (p->isa != PFT_ISA_UNKNOWN) {
		field_hex(o, "addr", p->addr, json);
		field_str(o, "isa", pft_isa_name(p->isa), json);
		return;
	}
	field_hex(o, "addr", p->addr & ((1ull << p->addr_bits) - 1), json);
	if (json) {
		field_int(o, "addr_bits", p->addr_bits, json);
	} else {
		ob_str(o, "(low ");
		ob_dec(o, p->addr_bits);
		ob_str(o, " bits) isa=unknown");
	}
}

/* The packet's fields as "key=value" (text) or "\"key\":value" (JSON). */
static void print_fields(struct outbuf *o, const struct pft_ptm_packet *p, int json,
			 const struct source *s)
{
	char atoms[8];

	switch (p->type) {
	case PFT_PTM_PKT_ISYNC:
		field_hex(o, "addr", p->addr, json);
		field_str(o, "isa", pft_isa_name(p->isa), json);
		field_str(o, "reason", pft_isync_reason_name(p->reason), json);
		field_int(o, "ns", p->ns, json);
		field_int(o, "hyp", p->hyp, json);
		if (p->has_ctxid || s->info.cfg.ctxid_bytes)
			field_hex(o, "ctxid", p->ctxid, json);
		break;
	case PFT_PTM_PKT_ATOM:
		field_str(o, "atoms", atoms_str(p, atoms), json);
		break;
	case PFT_PTM_PKT_BRANCH:
		print_address(o, p, json);
		if (p->exc_bytes) {
			field_int(o, "exception", p->exception, json);
			if (!json)
				field_str(o, "name", pft_exception_name(p->exception), json);
			field_int(o, "ns", p->ns, json);
			field_int(o, "hyp", p->hyp, json);
			field_int(o, "altis", p->altis, json);
		}
		break;
	case PFT_PTM_PKT_WAYPOINT:
		print_address(o, p, json);
		break;
	case PFT_PTM_PKT_CONTEXTID:
		field_hex(o, "ctxid", p->ctxid, json);
		break;
	case PFT_PTM_PKT_VMID:
		field_int(o, "vmid", p->vmid, json);
		break;
	case PFT_PTM_PKT_TIMESTAMP:
		field_hex(o, "ts", p->ts, json);
		if (p->ts_clock_change)
			field_int(o, "clock_change", 1, json);
		break;
	case PFT_PTM_PKT_BAD:
		ob_str(o, json ? ",\"msg\":\"" : " ");
		ob_str(o, pft_errstr(p->bad));
		if (p->bad == PFT_ERR_PKT_RESERVED_HEADER) {
			ob_str(o, " 0x");
			ob_hex(o, p->raw[0], 2);
		}
		if (json)
			ob_char(o, '"');
		break;
	default:
		break;
	}
	if (p->has_cycles)
		field_int(o, "cycles", p->cycles, json);
}

/* --merge: the item's time (field_int()'s format), when it has one. */
static void print_time(const struct dump *d, struct outbuf *o, int json)
{
	if (d->timed)
		field_int(o, "time", d->time, json);
}

static void print_bytes(struct outbuf *o, const struct pft_ptm_packet *p)
{
	for (uint32_t i = 0; i < p->size; i++) {
		if (i)
			ob_char(o, ' ');
		ob_hex(o, p->raw[i], 2);
	}
}

static void on_packet(struct dump *d, const struct source *s, const struct pft_ptm_packet *p,
		      int status)
{
	struct outbuf *o = &d->out;
	int id = s->info.id;

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
	if (d->format == FMT_JSONL) {
		ob_str(o, "{\"offset\":");
		ob_dec(o, p->offset);
		if (id >= 0) {
			ob_str(o, ",\"id\":");
			ob_int(o, id);
		}
		ob_str(o, ",\"type\":\"");
		ob_str(o, pft_ptm_pkt_type_name(p->type));
		ob_str(o, "\",\"bytes\":\"");
		print_bytes(o, p);
		ob_char(o, '"');
		print_fields(o, p, 1, s);
		print_time(d, o, 1);
		ob_str(o, "}\n");
	} else {
		ob_str(o, "0x");
		ob_hex(o, p->offset, 8);
		if (d->multi_id) {
			ob_str(o, "  ");
			ob_hex(o, (unsigned)id, 2);
		}
		ob_str(o, "  ");
		/* Bytes column: 12 bytes wide; longer packets push the rest right. */
		int width = p->size ? (int)(3 * p->size - 1) : 0;
		print_bytes(o, p);
		ob_spaces(o, width < 35 ? 35 - width : 0);
		ob_str(o, "  ");
		ob_str(o, pft_ptm_pkt_type_name(p->type));
		print_fields(o, p, 0, s);
		print_time(d, o, 0);
		ob_char(o, '\n');
	}
	ob_line_done(o);
}

/* An ETMv3 packet: its bytes, type and main fields (doc/etmv3.md). */
static void on_etm3_packet(struct dump *d, const struct source *s,
			   const struct pft_etm3_packet *p, int status)
{
	int id = s->info.id, json = d->format == FMT_JSONL;
	const char *sep = json ? "," : " ";
	char atoms[20];

	d->etm3_packets++;
	d->bytes += p->size;
	if (status < 0) {
		d->errors++;
		cli_error("%s: offset 0x%" PRIx64 ": id 0x%02x: %s", s->info.path, p->offset, id,
			  pft_errstr(p->bad));
	}
	if (d->count_only)
		return;
	/* Listed through stdio, after the PTM lines buffered so far. */
	ob_flush(&d->out);
	if (json) {
		printf("{\"offset\":%" PRIu64 ",\"id\":%d,\"type\":\"%s\",\"bytes\":\"", p->offset,
		       id, pft_etm3_pkt_type_name(p->type));
	} else {
		printf("0x%08" PRIx64 "  %02x  ", p->offset, id);
	}
	for (uint32_t i = 0; i < p->size; i++)
		printf(i ? " %02x" : "%02x", p->raw[i]);
	if (json)
		putchar('"');
	else
		printf("%*s  %s", p->size && 3 * p->size - 1 < 35 ? (int)(36 - 3 * p->size) : 0,
		       "", pft_etm3_pkt_type_name(p->type));
	switch (p->type) {
	case PFT_ETM3_PKT_ISYNC:
	case PFT_ETM3_PKT_BRANCH:
		printf(json ? "%s\"addr\":\"0x%x\",\"isa\":\"%s\"" : "%saddr=0x%x isa=%s", sep,
		       p->addr, pft_isa_name(p->isa));
		if (p->type == PFT_ETM3_PKT_BRANCH && p->exception) {
			/* The packet's own number; the name of the exception it
			 * means on the traced core. */
			char name[PFT_EXCEPTION_NAME_MAX];
			int m = s->info.profile == PFT_PROFILE_M;
			int ipsr = m ? pft_etm3_m_exception_ipsr(p->exception) : p->exception;
			if (ipsr < 0)
				snprintf(name, sizeof(name), "reserved");
			else
				pft_exception_name_in(s->info.profile, (unsigned)ipsr, name,
						      sizeof(name));
			printf(json ? "%s\"exception\":%u,\"name\":\"%s\",\"cancel\":%u"
				    : "%sexception=%u (%s) cancel=%u",
			       sep, p->exception, name, p->cancel);
			if (p->resume)
				printf(json ? "%s\"resume\":%u" : "%sresume=%u", sep, p->resume);
		}
		break;
	case PFT_ETM3_PKT_PHEADER:
		for (unsigned i = 0; i < p->n_atoms && i < 16; i++)
			atoms[i] = (p->atoms >> i) & 1 ? 'E' : 'N';
		atoms[p->n_atoms < 16 ? p->n_atoms : 16] = 0;
		printf(json ? "%s\"atoms\":\"%s\"" : "%satoms=%s", sep, atoms);
		break;
	case PFT_ETM3_PKT_CONTEXTID:
		printf(json ? "%s\"ctxid\":\"0x%x\"" : "%sctxid=0x%x", sep, p->ctxid);
		break;
	case PFT_ETM3_PKT_TIMESTAMP:
		printf(json ? "%s\"ts\":\"0x%" PRIx64 "\"" : "%sts=0x%" PRIx64, sep, p->ts);
		break;
	case PFT_ETM3_PKT_BAD:
		printf(json ? "%s\"msg\":\"%s\"" : "%s%s", sep, pft_errstr(p->bad));
		break;
	default:
		break;
	}
	if (p->cycles && (p->type == PFT_ETM3_PKT_PHEADER || p->type == PFT_ETM3_PKT_CYCLE_COUNT ||
			  p->has_cycles))
		printf(json ? "%s\"cycles\":%u" : "%scycles=%u", sep, p->cycles);
	if (d->timed)
		printf(json ? "%s\"time\":%" PRIu64 : "%stime=%" PRIu64, sep, d->time);
	fputs(json ? "}\n" : "\n", stdout);
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
	ob_flush(&d->out);
	char time[40] = "";
	if (d->timed)
		snprintf(time, sizeof(time), d->format == FMT_JSONL ? ",\"time\":%" PRIu64
				   : " time=%" PRIu64, d->time);
	if (d->format == FMT_JSONL)
		printf("{\"offset\":%" PRIu64 ",\"id\":%d,\"type\":\"error\",\"bytes\":\"\","
		       "\"msg\":\"%s\"%s}\n", offset, id, pft_errstr(pft_errcode(status)), time);
	else
		printf("0x%08" PRIx64 "  %02x  %35s  error %s%s\n", offset, id, "",
		       pft_errstr(pft_errcode(status)), time);
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
	if (r < 0)
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
