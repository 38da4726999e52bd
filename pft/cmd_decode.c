/* pft decode: reconstruct the executed instructions of a PTM trace. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "disasm.h"
#include "images.h"
#include "input.h"
#include "options.h"
#include "outbuf.h"

/* Disassembly by (address, instruction set, bytes): a trace runs the same
 * instructions again and again, and capstone costs more than the rest of
 * a listing's line. */
enum { DIS_CACHE_SIZE = 4096 };  /* power of two */

struct dis_entry {
	uint32_t addr;
	uint8_t isa, size, valid, known;  /* known: capstone decoded it */
	uint8_t raw[4];
	char text[200];                   /* as the listing prints it */
};

/* --count: a source's gaps that lost bytes (the library counts the rest). */
struct gap_errors {
	uint64_t n, first_offset;
	int first_status;
};

struct decode {
	int format, count_only, insn, multi_id;
	int merge;                    /* --merge: each line with its time */
	int timed;                    /* the item being printed has @time */
	uint64_t time;
	struct disasm cs;
	struct dis_entry *dis;        /* DIS_CACHE_SIZE entries, with --insn */
	uint64_t counts[PFT_ELEM_TYPE_MAX];
	uint64_t insns;
	struct gap_errors *gap_errors; /* --count: per source */
	const struct pft_ptm_packet *pkt; /* the packet whose elements are printed */
	struct pft_lines *lines;      /* source lines of the --elf files */
	struct pft_select *sel;       /* --function: NULL, everything */
	struct pft_elem *pieces;      /* --function: a range's pieces */
	size_t cap_pieces;
	struct place_memo *places;    /* PLACE_MEMO_SIZE, for --insn and JSON */
	struct pft_listing listing;
	struct pft_fold *fold;        /* the threads write the lines (text) */
	int failed;                   /* a line could not be written */
	struct outbuf out;
};

/* Where @addr is: its function (the DWARF's innermost, else the image's
 * symbol) in *@fn and offset, its source file and line (NULL, 0 when the
 * DWARF does not say). */
struct place {
	const char *fn, *file;
	uint32_t off, line;
};

/* The places looked up last: the same ranges and instructions come again
 * and again (the lookups and their names were half of a JSON listing). */
enum { PLACE_MEMO_SIZE = 4096 };   /* power of two */

struct place_memo {
	const struct pft_image *img;
	uint32_t addr;
	int valid;
	struct place p;
};

static struct place place_of(struct decode *d, const struct pft_image *img, uint32_t addr)
{
	struct place_memo *m = &d->places[(addr >> 1 ^ addr >> 13) & (PLACE_MEMO_SIZE - 1)];
	struct place p = { 0 };
	struct pft_line_info li;

	if (m->valid && m->img == img && m->addr == addr)
		return m->p;

	if (pft_image_symbolize(img, addr, &p.fn, &p.off))
		p.fn = NULL;
	if (d->lines && !pft_lines_lookup(d->lines, addr, &li, sizeof(li))) {
		if (li.function)
			p.fn = li.function;
		if (li.has_func)
			p.off = addr - li.func.start;
		p.file = li.file;
		p.line = li.file ? li.line : 0;
	}
	*m = (struct place_memo){ .img = img, .addr = addr, .valid = 1, .p = p };
	return p;
}

/* The listing's text of @insn: "%-8s %s" (text) or "%s %s" (JSON) of
 * capstone's mnemonic and operands; known = 0 when capstone has none. */
static const struct dis_entry *disassemble(struct decode *d, uint8_t isa,
					   const struct pft_insn *insn)
{
	uint32_t h = (insn->addr >> 1) ^ (insn->addr >> 13) ^ isa;
	struct dis_entry *c = &d->dis[h & (DIS_CACHE_SIZE - 1)];

	if (c->valid && c->addr == insn->addr && c->isa == isa && c->size == insn->size &&
	    !memcmp(c->raw, insn->raw, insn->size))
		return c;
	struct pft_insn in = *insn;

	in.isa = isa;
	c->valid = 1;
	c->addr = insn->addr;
	c->isa = isa;
	c->size = (uint8_t)insn->size;
	memcpy(c->raw, insn->raw, insn->size);
	c->known = (uint8_t)disasm_text(&d->cs, &in, d->format != FMT_JSONL, c->text,
					sizeof(c->text));
	return c;
}

/* An error element's message; for a bad packet, what was wrong with it. */
static const char *error_message(const struct decode *d, const struct pft_elem *e, char *buf,
				 size_t len)
{
	const struct pft_ptm_packet *p = d->pkt;

	if (e->reason != PFT_ERR_FLOW_BAD_PACKET || !p || p->type != PFT_PTM_PKT_BAD)
		return pft_errstr(e->reason);
	if (p->bad == PFT_ERR_PKT_RESERVED_HEADER && p->raw && p->size)
		snprintf(buf, len, "bad packet (reserved header 0x%02x): waiting for the next "
			 "synchronisation", p->raw[0]);
	else
		snprintf(buf, len, "bad packet (%s): waiting for the next synchronisation",
			 pft_errstr(p->bad));
	return buf;
}

/* The listing's fields for an item of source @s. */
static struct pft_listing *listing_for(struct decode *d, const struct pft_input_source *s)
{
	struct pft_listing *l = &d->listing;

	l->id = s->id >= 0 ? s->id : s->cfg.trace_id;
	l->cpu = s->cpu;
	l->timed = (uint8_t)d->timed;
	l->time = d->time;
	l->fn = l->file = NULL;
	return l;
}

/* What a line is written from: an element's, or (@insn) an instruction's
 * of the element, with its disassembly @text. */
struct line_of {
	const struct pft_listing *l;
	const struct pft_elem *e;
	const struct pft_insn *insn;
	const char *text;
};

static int format_line(const struct line_of *x, char *buf, size_t size)
{
	if (!x->insn)
		return pft_listing_line(x->l, x->e, buf, size);
	return pft_listing_insn(x->l, x->e->offset, x->insn->addr, x->e->isa, x->insn->size,
				x->text, buf, size);
}

/* The line of @x into the listing: one longer than the room a line keeps
 * is formatted again, alone. */
static void put_line(struct decode *d, const struct line_of *x)
{
	struct outbuf *o = &d->out;
	int len = format_line(x, o->buf + o->len, OUTBUF_LINE_MAX);

	if (len >= 0 && (size_t)len <= OUTBUF_LINE_MAX) {
		o->len += (size_t)len;
	} else {
		char *big = len > 0 ? malloc((size_t)len) : NULL;
		ob_flush(o);
		if (big && format_line(x, big, (size_t)len) == len) {
			fwrite(big, 1, (size_t)len, o->file ? o->file : stdout);
		} else if (!d->failed++) {
			cli_error("decode: %s", len < 0 ? pft_errstr(pft_errcode(len))
							: "out of memory");
		}
		free(big);
	}
	ob_line_done(o);
}

/* The instructions of range @e, a line each. */
static void print_insns(struct decode *d, const struct pft_input_source *s,
			const struct pft_elem *e)
{
	struct pft_listing *l = listing_for(d, s);
	struct pft_insn_iter it;
	struct pft_insn insn;

	pft_insn_iter_init(&it, s->image, e);
	while (pft_insn_iter_next(&it, &insn, sizeof(insn)) > 0) {
		const struct dis_entry *dis = disassemble(d, e->isa, &insn);
		struct place p = place_of(d, s->image, insn.addr);

		l->fn = p.fn;
		l->file = p.file;
		l->line = p.line;
		l->fn_offset = p.off;
		put_line(d, &(struct line_of){ .l = l, .e = e, .insn = &insn,
					       .text = dis->known || d->format != FMT_JSONL
							       ? dis->text : NULL });
	}
}

static void print_elem(struct decode *d, const struct pft_input_source *s,
		       const struct pft_elem *e)
{
	struct pft_listing *l = listing_for(d, s);
	char msg[160];
	struct place p;

	l->message = e->type == PFT_ELEM_ERROR ? error_message(d, e, msg, sizeof(msg)) : NULL;
	if (d->format == FMT_JSONL && e->type == PFT_ELEM_RANGE) {
		p = place_of(d, s->image, e->start);
		l->fn = p.fn;
		l->file = p.file;
		l->line = p.line;
	}
	put_line(d, &(struct line_of){ .l = l, .e = e });
	if (d->insn && e->type == PFT_ELEM_RANGE)
		print_insns(d, s, e);
}

static void on_elem(struct decode *d, const struct pft_input_source *s, const struct pft_elem *e);

/* --function: of a range, the pieces in the functions; of the other
 * elements, the errors (the rest says nothing of the functions). */
static int on_selected(struct decode *d, const struct pft_input_source *s,
		       const struct pft_elem *e)
{
	int n;

	if (e->type != PFT_ELEM_RANGE) {
		if (e->type == PFT_ELEM_ERROR)
			on_elem(d, s, e);
		return 0;
	}
	while ((n = pft_select_clip(d->sel, s->image, e, d->pieces, d->cap_pieces,
				    sizeof(*d->pieces))) == -PFT_ERR_NOSPACE) {
		size_t cap = d->cap_pieces ? 2 * d->cap_pieces : 16;
		struct pft_elem *p = realloc(d->pieces, cap * sizeof(*p));
		if (!p) {
			cli_error("decode: out of memory");
			return -1;
		}
		d->pieces = p;
		d->cap_pieces = cap;
	}
	if (n < 0) {
		cli_error("decode: --function: %s", pft_errstr(pft_errcode(n)));
		return -1;
	}
	for (int i = 0; i < n; i++)
		on_elem(d, s, &d->pieces[i]);
	return 0;
}

/* The lines the threads wrote, in the TEXT elements of @e from @i on
 * (before @n): returns where they end. */
static uint32_t put_texts(struct decode *d, const struct pft_elem *e, uint32_t i, uint32_t n)
{
	struct outbuf *o = &d->out;

	for (; i < n && e[i].type == PFT_ELEM_TEXT; i++) {
		o->len += pft_elem_text(&e[i], o->buf + o->len);
		ob_line_done(o);
	}
	return i;
}

static void on_elem(struct decode *d, const struct pft_input_source *s, const struct pft_elem *e)
{
	d->counts[e->type]++;
	if (e->type == PFT_ELEM_RANGE)
		d->insns += e->ninsn;
	if (!d->count_only)
		print_elem(d, s, e);
}

/* Bytes were dropped: an error line in the listing, as for a bad packet.
 * (The pipeline has already reset the source's decoders.) */
static void on_gap(struct decode *d, const struct pft_input_source *s, size_t source,
		   uint64_t offset, int status)
{
	if (status == 0)
		return;
	d->counts[PFT_ELEM_ERROR]++;
	if (d->count_only) {
		struct gap_errors *g = d->gap_errors ? &d->gap_errors[source] : NULL;
		if (g && !g->n++) {
			g->first_offset = offset;
			g->first_status = status;
		}
		return;
	}
	struct pft_listing *l = listing_for(d, s);
	struct pft_elem e = { .type = PFT_ELEM_ERROR, .offset = offset };
	l->message = pft_errstr(pft_errcode(status));
	put_line(d, &(struct line_of){ .l = l, .e = &e });
}

/* One source's counts (@s; NULL: the total, @insns and @counts). */
static void print_counts_of(const struct decode *d, const struct pft_input_source *s,
			    uint64_t insns, const uint64_t *counts)
{
	if (d->format == FMT_JSONL) {
		if (!s)
			printf("{\"type\":\"summary\"");
		else if (s->cpu >= 0)
			printf("{\"type\":\"source\",\"cpu\":%d,\"id\":%d", s->cpu, s->id);
		else
			printf("{\"type\":\"source\",\"id\":%d",
			       s->id >= 0 ? s->id : s->cfg.trace_id);
		printf(",\"insns\":%" PRIu64 ",\"counts\":{", insns);
		for (int t = 0, n = 0; t < PFT_ELEM_TYPE_MAX; t++)
			if (counts[t])
				printf("%s\"%s\":%" PRIu64, n++ ? "," : "", pft_elem_type_name(t),
				       counts[t]);
		printf("}}\n");
		return;
	}
	if (s) {   /* one line */
		if (s->cpu >= 0)
			printf("cpu %d (%s): ", s->cpu, s->name);
		else if (s->id >= 0)
			printf("id 0x%02x (%s): ", (unsigned)s->id, s->name);
		else
			printf("%s: ", s->name);
		printf("%" PRIu64 " instructions", insns);
		for (int t = 0; t < PFT_ELEM_TYPE_MAX; t++)
			if (counts[t])
				printf(", %s %" PRIu64, pft_elem_type_name(t), counts[t]);
		printf("\n");
		return;
	}
	printf("%" PRIu64 " instructions\n", insns);
	for (int t = 0; t < PFT_ELEM_TYPE_MAX; t++)
		if (counts[t])
			printf("  %-17s %" PRIu64 "\n", pft_elem_type_name(t), counts[t]);
}

/* --count: each source's counts when there are several, then the total. */
static void print_counts(const struct decode *d, const struct input *in)
{
	size_t decoded = 0;

	for (size_t i = 0; i < in->nsrc; i++)
		decoded += in->src[i].info.decoded;
	for (size_t i = 0; decoded > 1 && i < in->nsrc; i++) {
		const struct source *s = &in->src[i];
		uint64_t counts[PFT_ELEM_TYPE_MAX];
		if (!s->info.decoded)
			continue;
		memcpy(counts, s->counts.elems, sizeof(counts));
		counts[PFT_ELEM_ERROR] += d->gap_errors ? d->gap_errors[i].n : 0;
		print_counts_of(d, &s->info, s->counts.insns, counts);
	}
	print_counts_of(d, NULL, d->insns, d->counts);
}

/* --count: where each source's trace went wrong, one line each (the
 * counts say only how often). */
static void report_count_errors(const struct decode *d, const struct input *in)
{
	for (size_t i = 0; d->gap_errors && i < in->nsrc; i++) {
		const struct pft_input_counts *c = &in->src[i].counts;
		const struct gap_errors *g = &d->gap_errors[i];
		uint64_t elems = c->elems[PFT_ELEM_ERROR];
		if (!elems && !g->n)
			continue;
		int gap_first = g->n && (!elems || g->first_offset < c->first_error_offset);
		const char *what = gap_first
			? pft_errstr(pft_errcode(g->first_status))
			: pft_errstr((enum pft_error_code)c->first_error_reason);
		input_report_trace_errors(&in->src[i].info, elems + g->n,
					  gap_first ? g->first_offset : c->first_error_offset, what,
					  "pft decode without --count lists them");
	}
}

/* A parallel decode decodes one source: where each line is the element's
 * alone, its threads write the text listing (pft_listing_fold_alloc()). */
static int set_fold(struct decode *d, const struct input *in, const struct input_opts *o)
{
	size_t k = 0;

	if (d->count_only || d->insn || d->sel || o->merge || d->format != FMT_TEXT ||
	    !input_one_decoded(in, &k))
		return 0;
	struct pft_listing l = d->listing;
	const struct pft_input_source *s = &in->src[k].info;
	l.id = s->id >= 0 ? s->id : s->cfg.trace_id;
	l.cpu = s->cpu;
	int err = (d->fold = pft_listing_fold_alloc(&l)) ? pft_input_set_fold(in->in, d->fold)
							  : -PFT_ERR_NOMEM;
	if (err)
		cli_error("decode: %s", pft_errstr(pft_errcode(err)));
	return err;
}

static void usage(void *ctx)
{
	(void)ctx;
	printf("usage: pft decode INPUT [IMAGES] [--insn] [--format text|jsonl] [--count]"
	       " [-j N]\n"
	       "                  [--merge] [--function NAME] [--output FILE] [--quiet]\n\n"
	       "%s%s%s"
	       "output:\n"
	       "  --format text|jsonl   listing format (default text)\n"
	       "  --insn                list every instruction, disassembled, with its\n"
	       "                        function and (from the ELF's DWARF) source line\n"
	       "  --count               print only element counts (per source, then the\n"
	       "                        total, when there are several)\n"
	       MERGE_HELP
	       FUNCTION_HELP
	       "                        (the ranges cut to them, and the errors)\n"
	       OUTPUT_HELP,
	       INPUT_OPTIONS_HELP, JOBS_HELP, IMAGES_HELP);
}

/* decode's own options: --count, --insn. */
static int decode_option(void *ctx, int code, const char *arg)
{
	struct decode *d = ctx;

	(void)arg;
	if (code == 'c')
		d->count_only = 1;
	else
		d->insn = 1;
	return 0;
}

int cmd_decode(int argc, char **argv)
{
	static const struct option own[] = {
		{ "count", no_argument, NULL, 'c' },
		{ "insn", no_argument, NULL, 'i' },
		{ NULL, 0, NULL, 0 }
	};
	struct decode d = { 0 };
	const struct cmd_spec spec = {
		.name = "decode",
		.groups = OPTS_FILES | OPTS_INPUT | OPTS_JOBS | OPTS_IMAGES | OPTS_FORMAT |
			  OPTS_OUTPUT | OPTS_MERGE | OPTS_FUNCTION,
		.format_default = FMT_TEXT, .own = own, .option = decode_option, .usage = usage,
		.ctx = &d
	};
	struct cmd_args a;
	struct input_opts *o = &a.input;
	struct input in;
	const char *cmd = spec.name;
	int rc = cmd_parse(argc, argv, &spec, &a);

	if (rc != CMD_GO_ON)
		goto out;
	d.format = a.format;
	/* --function counts what it lists: not in the library's fast count. */
	o->counting = d.count_only && !a.nfunctions;
	rc = input_open(&in, o, 0, 1, &a.images);
	if (rc) {
		input_close(&in);
		goto out;
	}
	/* Source lines for the instructions listed and the JSON ranges. */
	if (((d.insn || d.format == FMT_JSONL) && !d.count_only) || a.nfunctions) {
		if (image_args_lines(&a.images, &d.lines) ||
		    input_select(&in, cmd, d.lines, a.functions, a.nfunctions, &d.sel)) {
			rc = EXIT_USAGE;
			input_close(&in);
			goto out;
		}
	}
	if (cmd_open_output(&a)) {
		rc = EXIT_USAGE;
		input_close(&in);
		goto out;
	}
	d.multi_id = in.nsrc > 1;
	if (d.count_only && !(d.gap_errors = calloc(in.nsrc ? in.nsrc : 1, sizeof(*d.gap_errors)))) {
		cli_error("%s: out of memory", cmd);
		rc = EXIT_USAGE;
		input_close(&in);
		goto out;
	}
	if ((d.insn || d.format == FMT_JSONL) && !d.count_only &&
	    !(d.places = calloc(PLACE_MEMO_SIZE, sizeof(*d.places)))) {
		cli_error("%s: out of memory", cmd);
		rc = EXIT_USAGE;
		input_close(&in);
		goto out;
	}
	if (d.insn) {
		disasm_open(&d.cs);
		d.dis = calloc(DIS_CACHE_SIZE, sizeof(*d.dis));
		if (!d.dis) {
			cli_error("%s: out of memory", cmd);
			rc = EXIT_USAGE;
			input_close(&in);
			goto out;
		}
	}
	d.listing = (struct pft_listing){ .size = sizeof(d.listing), .show_id = (uint8_t)d.multi_id,
					  .format = d.format == FMT_JSONL ? PFT_LISTING_JSONL
									  : PFT_LISTING_TEXT };
	if (set_fold(&d, &in, o)) {
		rc = EXIT_USAGE;
		input_close(&in);
		goto out;
	}
	struct pft_item item;
	int r, failed = 0;
	/* --count: the library counts, and returns the gaps only. */
	d.merge = o->merge != 0;
	while ((r = o->counting ? input_count(&in, &item) : input_next(&in, &item)) > 0) {
		const struct pft_input_source *s = &in.src[item.source].info;
		d.timed = d.merge && item.timed;
		d.time = item.time;
		if (item.type == PFT_ITEM_ELEM) {
			/* A BAD packet's elements come in a run of their own:
			 * the packet error messages need is the run's. */
			d.pkt = item.ptm;
			for (uint32_t i = 0; i < item.count && !failed; i++)
				if (item.elem[i].type == PFT_ELEM_TEXT)
					i = put_texts(&d, item.elem, i, item.count) - 1;
				else if (!d.sel)
					on_elem(&d, s, &item.elem[i]);
				else if (on_selected(&d, s, &item.elem[i]))
					failed = 1;
			if (failed)
				break;
		} else if (item.type == PFT_ITEM_GAP) {
			on_gap(&d, s, item.source, item.offset, item.status);
		}
	}
	ob_flush(&d.out);
	rc = r || failed || d.failed ? EXIT_USAGE : EXIT_OK;
	for (size_t i = 0; !rc && o->counting && i < in.nsrc; i++) {
		for (int t = 0; t < PFT_ELEM_TYPE_MAX; t++)
			d.counts[t] += in.src[i].counts.elems[t];
		d.insns += in.src[i].counts.insns;
	}
	if (!rc && d.count_only)
		print_counts(&d, &in);
	if (!rc && o->merge)
		input_merge_report(&in, "--merge-window");
	/* Errors in the trace were listed as error elements (--count: where
	 * they begin, unless a verdict on the input said why already): the
	 * input was read, but not cleanly. */
	if (!rc) {
		int said = input_check_sources(&in, o, 0) + input_fit_report(&in);
		if (d.count_only && !in.errors_said)
			report_count_errors(&d, &in);
		if (said || d.counts[PFT_ELEM_ERROR])
			rc = EXIT_DECODE_ERRORS;
	}
	input_close(&in);
out:
	pft_listing_fold_free(d.fold);
	disasm_close(&d.cs);
	pft_select_free(d.sel);
	free(d.pieces);
	free(d.dis);
	free(d.places);
	free(d.gap_errors);
	cmd_args_free(&a);
	pft_lines_free(d.lines);
	return rc;
}
