/* pft decode: reconstruct the executed instructions of a PTM trace. */
#include <capstone/capstone.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "escape.h"
#include "images.h"
#include "input.h"

struct decode {
	int format, count_only, insn, multi_id;
	struct image_args images;
	csh cs_arm, cs_thumb;
	int have_cs;
	uint64_t counts[PFT_ELEM_TYPE_MAX];
	uint64_t insns;
	const struct pft_packet *pkt; /* the packet whose elements are printed */
	struct pft_lines *lines;      /* source lines of the --elf files */
};

/* Where @addr is: its function (the DWARF's innermost, else the image's
 * symbol) in *@fn and offset, its source file and line (NULL, 0 when the
 * DWARF does not say). */
struct place {
	const char *fn, *file;
	uint32_t off, line;
};

static struct place place_of(const struct decode *d, const struct pft_image *img,
			     uint32_t addr)
{
	struct place p = { 0 };
	struct pft_line_info li;

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
	return p;
}

/* ,"fn":...,"file":...,"line":N for what is known of @p. */
static void json_place(const struct place *p)
{
	if (p->fn) {
		fputs(",\"fn\":", stdout);
		json_string(stdout, p->fn);
	}
	if (p->file) {
		fputs(",\"file\":", stdout);
		json_string(stdout, p->file);
		printf(",\"line\":%" PRIu32, p->line);
	}
}

static void print_insns(struct decode *d, const struct pft_input_source *s,
			const struct pft_elem *e, int id)
{
	csh cs = e->isa == PFT_ISA_ARM ? d->cs_arm : d->cs_thumb;
	struct pft_insn_iter it;
	struct pft_insn insn;

	pft_insn_iter_init(&it, s->image, e);
	while (pft_insn_iter_next(&it, &insn, sizeof(insn)) > 0) {
		cs_insn *dis = NULL;
		size_t count = d->have_cs ? cs_disasm(cs, insn.raw, insn.size, insn.addr, 1, &dis)
					  : 0;
		struct place p = place_of(d, s->image, insn.addr);

		if (d->format == FMT_JSONL) {
			printf("{\"offset\":%" PRIu64 ",\"id\":%d,\"type\":\"insn\",\"addr\":\"0x%x\","
			       "\"isa\":\"%s\",\"size\":%u", e->offset, id, insn.addr,
			       pft_isa_name(e->isa), insn.size);
			if (s->cpu >= 0)
				printf(",\"cpu\":%d", s->cpu);
			json_place(&p);
			if (count) {
				char text[200];
				snprintf(text, sizeof(text), "%s%s%s", dis->mnemonic,
					 *dis->op_str ? " " : "", dis->op_str);
				fputs(",\"asm\":", stdout);
				json_string(stdout, text);
			}
			fputs("}\n", stdout);
		} else {
			char text[200];
			if (count)
				snprintf(text, sizeof(text), "%-8s %s", dis->mnemonic, dis->op_str);
			else
				/* Capstone does not know it. */
				snprintf(text, sizeof(text), "(undecodable)");
			printf("    0x%08x  %s", insn.addr, text);
			if (p.fn || p.file)
				printf("%*s", (int)(strlen(text) < 33 ? 33 - strlen(text) : 1), "");
			if (p.fn) {
				fputs("<", stdout);
				text_string(stdout, p.fn);
				printf("+0x%x>", p.off);
			}
			if (p.file) {
				fputs(p.fn ? "  " : "", stdout);
				text_string(stdout, p.file);
				printf(":%" PRIu32, p.line);
			}
			putchar('\n');
		}
		if (count)
			cs_free(dis, count);
	}
}

/* An error element's message; for a bad packet, what was wrong with it. */
static const char *error_message(const struct decode *d, const struct pft_elem *e, char *buf,
				 size_t len)
{
	const struct pft_packet *p = d->pkt;

	if (e->reason != PFT_ERR_FLOW_BAD_PACKET || !p || p->type != PFT_PKT_BAD)
		return pft_errstr(e->reason);
	if (p->bad == PFT_ERR_PKT_RESERVED_HEADER && p->raw && p->size)
		snprintf(buf, len, "bad packet (reserved header 0x%02x): waiting for the next "
			 "synchronisation", p->raw[0]);
	else
		snprintf(buf, len, "bad packet (%s): waiting for the next synchronisation",
			 pft_errstr(p->bad));
	return buf;
}

static void print_elem(struct decode *d, const struct pft_input_source *s,
		       const struct pft_elem *e)
{
	int id = s->id >= 0 ? s->id : s->cfg.trace_id;
	char msg[160];

	if (d->format == FMT_JSONL) {
		printf("{\"offset\":%" PRIu64 ",\"id\":%d,\"type\":\"%s\"", e->offset, id,
		       pft_elem_type_name(e->type));
		if (s->cpu >= 0)
			printf(",\"cpu\":%d", s->cpu);
		switch (e->type) {
		case PFT_ELEM_RANGE:
			printf(",\"start\":\"0x%x\",\"end\":\"0x%x\",\"last\":\"0x%x\",\"isa\":\"%s\","
			       "\"n\":%u,\"taken\":%s,\"iclass\":\"%s\"", e->start, e->end, e->last,
			       pft_isa_name(e->isa), e->ninsn, e->taken ? "true" : "false",
			       pft_iclass_name(e->iclass));
			struct place p = place_of(d, s->image, e->start);
			json_place(&p);
			break;
		case PFT_ELEM_TRACE_ON:
			printf(",\"reason\":\"%s\"", pft_isync_reason_name(e->reason));
			break;
		case PFT_ELEM_EXCEPTION:
			printf(",\"number\":%u,\"name\":\"%s\"", e->exception,
			       pft_exception_name(e->exception));
			if (e->has_ret)
				printf(",\"ret\":\"0x%x\"", e->addr);
			break;
		case PFT_ELEM_CONTEXT:
			if (e->changed & PFT_CTX_CTXID)
				printf(",\"ctxid\":\"0x%x\"", e->ctxid);
			if (e->changed & PFT_CTX_VMID)
				printf(",\"vmid\":%u", e->vmid);
			if (e->changed & PFT_CTX_NS)
				printf(",\"ns\":%u", e->ns);
			if (e->changed & PFT_CTX_HYP)
				printf(",\"hyp\":%u", e->hyp);
			if (e->changed & PFT_CTX_ISA)
				printf(",\"isa\":\"%s\"", pft_isa_name(e->isa));
			break;
		case PFT_ELEM_TIMESTAMP:
			printf(",\"ts\":\"0x%" PRIx64 "\"", e->ts);
			break;
		case PFT_ELEM_ADDR_NACC:
			printf(",\"addr\":\"0x%x\"", e->addr);
			break;
		case PFT_ELEM_ERROR:
			printf(",\"msg\":\"%s\"", error_message(d, e, msg, sizeof(msg)));
			break;
		default:
			break;
		}
		if (e->has_cycles)
			printf(",\"cycles\":%u", e->cycles);
		fputs("}\n", stdout);
		if (d->insn && e->type == PFT_ELEM_RANGE)
			print_insns(d, s, e, id);
		return;
	}

	printf("0x%08" PRIx64, e->offset);
	if (d->multi_id)
		printf("  %02x", id);
	printf("  %-10s", pft_elem_type_name(e->type));
	switch (e->type) {
	case PFT_ELEM_RANGE:
		printf(" 0x%08x-0x%08x %-5s n=%-3u %s", e->start, e->last, pft_isa_name(e->isa),
		       e->ninsn, e->taken ? "E" : "N");
		break;
	case PFT_ELEM_TRACE_ON:
		printf(" %s", pft_isync_reason_name(e->reason));
		break;
	case PFT_ELEM_EXCEPTION:
		printf(" %s (%u)", pft_exception_name(e->exception), e->exception);
		if (e->has_ret)
			printf(" ret=0x%08x", e->addr);
		break;
	case PFT_ELEM_CONTEXT:
		if (e->changed & PFT_CTX_CTXID)
			printf(" ctxid=0x%x", e->ctxid);
		if (e->changed & PFT_CTX_VMID)
			printf(" vmid=%u", e->vmid);
		if (e->changed & PFT_CTX_NS)
			printf(" %s", e->ns ? "non-secure" : "secure");
		if (e->changed & PFT_CTX_HYP)
			printf(" hyp=%u", e->hyp);
		if (e->changed & PFT_CTX_ISA)
			printf(" isa=%s", pft_isa_name(e->isa));
		break;
	case PFT_ELEM_TIMESTAMP:
		printf(" 0x%" PRIx64, e->ts);
		break;
	case PFT_ELEM_ADDR_NACC:
		printf(" 0x%08x: no memory image here", e->addr);
		break;
	case PFT_ELEM_ERROR:
		printf(" %s", error_message(d, e, msg, sizeof(msg)));
		break;
	default:
		break;
	}
	if (e->has_cycles)
		printf(" cycles=%u", e->cycles);
	putchar('\n');
	if (d->insn && e->type == PFT_ELEM_RANGE)
		print_insns(d, s, e, id);
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
static void on_gap(struct decode *d, const struct pft_input_source *s, uint64_t offset,
		   int status)
{
	int id = s->id >= 0 ? s->id : s->cfg.trace_id;

	if (status == 0)
		return;
	d->counts[PFT_ELEM_ERROR]++;
	if (d->count_only)
		return;
	if (d->format == FMT_JSONL) {
		printf("{\"offset\":%" PRIu64 ",\"id\":%d,\"type\":\"error\"", offset, id);
		if (s->cpu >= 0)
			printf(",\"cpu\":%d", s->cpu);
		printf(",\"msg\":\"%s\"}\n", pft_errstr(pft_errcode(status)));
	} else {
		printf("0x%08" PRIx64, offset);
		if (d->multi_id)
			printf("  %02x", id);
		printf("  %-10s %s\n", "error", pft_errstr(pft_errcode(status)));
	}
}

static void print_counts(const struct decode *d)
{
	if (d->format == FMT_JSONL) {
		printf("{\"type\":\"summary\",\"insns\":%" PRIu64 ",\"counts\":{", d->insns);
		for (int t = 0, n = 0; t < PFT_ELEM_TYPE_MAX; t++)
			if (d->counts[t])
				printf("%s\"%s\":%" PRIu64, n++ ? "," : "", pft_elem_type_name(t),
				       d->counts[t]);
		printf("}}\n");
		return;
	}
	printf("%" PRIu64 " instructions\n", d->insns);
	for (int t = 0; t < PFT_ELEM_TYPE_MAX; t++)
		if (d->counts[t])
			printf("  %-17s %" PRIu64 "\n", pft_elem_type_name(t), d->counts[t]);
}

static void usage(FILE *out)
{
	fprintf(out, "usage: pft decode INPUT [IMAGES] [--insn] [--format text|jsonl] [--count]\n\n"
		     "%s"
		     "images (any number; a snapshot's memory dumps are used as well):\n"
		     "  --elf FILE[@BIAS]     an ARM ELF executable or shared object\n"
		     "  --image FILE@ADDR     a raw memory dump loaded at ADDR\n"
		     "  --symbols FILE        symbols only (ELF, System.map, /proc/kallsyms)\n"
		     "output:\n"
		     "  --format text|jsonl   listing format (default text)\n"
		     "  --insn                list every instruction, disassembled, with its\n"
		     "                        function and (from the ELF's DWARF) source line\n"
		     "  --count               print only element counts\n",
		INPUT_OPTIONS_HELP);
}

int cmd_decode(int argc, char **argv)
{
	static const struct option longopts[] = {
		INPUT_LONG_OPTIONS,
		{ "format", required_argument, NULL, 'f' },
		{ "count", no_argument, NULL, 'c' },
		{ "insn", no_argument, NULL, 'i' },
		{ "elf", required_argument, NULL, 'e' },
		{ "image", required_argument, NULL, 'm' },
		{ "symbols", required_argument, NULL, 'y' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct input_opts o;
	struct decode d = { 0 };
	struct input in;
	int c, rc = EXIT_USAGE;
	const char *cmd = "decode";

	input_opts_init(&o);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c >= INPUT_OPT_BASE && c < INPUT_OPT_END) {
			if (input_option(&o, c, optarg))
				goto out;
		} else if (c == 'f') {
			if (cli_parse_format(optarg, &d.format))
				goto out;
		} else if (c == 'c') {
			d.count_only = 1;
		} else if (c == 'i') {
			d.insn = 1;
		} else if (c == 'e' || c == 'm') {
			if (image_args_add(&d.images, optarg, c == 'e'))
				goto out;
		} else if (c == 'y') {
			if (image_args_add_symbols(&d.images, optarg))
				goto out;
		} else if (c == 'h') {
			usage(stdout);
			rc = EXIT_OK;
			goto out;
		} else {
			cli_bad_option(cmd, argv, optopt);
			goto out;
		}
	}
	if (optind < argc) {
		cli_error("%s: unexpected argument '%s'", cmd, argv[optind]);
		goto out;
	}
	if (input_opts_check(&o))
		goto out;
	rc = input_open(&in, &o, 0, 1, &d.images);
	if (rc) {
		input_close(&in);
		goto out;
	}
	/* Source lines for the instructions listed and the JSON ranges. */
	if ((d.insn || d.format == FMT_JSONL) && !d.count_only &&
	    image_args_lines(&d.images, &d.lines)) {
		rc = EXIT_USAGE;
		input_close(&in);
		goto out;
	}
	d.multi_id = in.nsrc > 1;
	if (d.insn) {
		d.have_cs = cs_open(CS_ARCH_ARM, CS_MODE_ARM, &d.cs_arm) == CS_ERR_OK &&
			    cs_open(CS_ARCH_ARM, CS_MODE_THUMB, &d.cs_thumb) == CS_ERR_OK;
	}
	struct pft_item item;
	int r;
	while ((r = input_next(&in, &item)) > 0) {
		const struct pft_input_source *s = &in.src[item.source].info;
		if (item.type == PFT_ITEM_ELEM) {
			d.pkt = item.ptm;
			on_elem(&d, s, item.elem);
		} else if (item.type == PFT_ITEM_GAP) {
			on_gap(&d, s, item.offset, item.status);
		}
	}
	rc = r ? EXIT_USAGE : EXIT_OK;
	if (!rc && d.count_only)
		print_counts(&d);
	/* Errors in the trace were listed as error elements: the input was
	 * read, but not cleanly. */
	if (!rc && (input_check_sources(&in, &o, 0) + input_fit_report(&in) ||
		    d.counts[PFT_ELEM_ERROR]))
		rc = EXIT_DECODE_ERRORS;
	input_close(&in);
	if (d.have_cs) {
		cs_close(&d.cs_arm);
		cs_close(&d.cs_thumb);
	}
out:
	image_args_free(&d.images);
	pft_lines_free(d.lines);
	return rc;
}
