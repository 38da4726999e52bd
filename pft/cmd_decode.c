/* pft decode: reconstruct the executed instructions of a PTM trace.
 * pft coverage: the same decode, summed up per function. */
#include <capstone/capstone.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
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
	/* pft coverage */
	int coverage;
	struct pft_cov *cov;
	struct func_stat *funcs;      /* sorted by start */
	size_t nfuncs, cap;
	uint64_t unnamed_insns;
};

/* pft coverage: what ran in one function. */
struct func_stat {
	uint32_t start, end;
	const char *name;             /* owned by the stream's image */
	uint64_t insns, ranges;
};

static void print_insns(struct decode *d, const struct pft_input_source *s,
			const struct pft_elem *e)
{
	csh cs = e->isa == PFT_ISA_ARM ? d->cs_arm : d->cs_thumb;
	struct pft_insn_iter it;
	struct pft_insn insn;

	pft_insn_iter_init(&it, s->image, e);
	while (pft_insn_iter_next(&it, &insn, sizeof(insn)) > 0) {
		cs_insn *dis = NULL;
		size_t count = cs_disasm(cs, insn.raw, insn.size, insn.addr, 1, &dis);
		const char *sym;
		uint32_t off;
		char where[160] = "";

		if (!pft_image_symbolize(s->image, insn.addr, &sym, &off))
			snprintf(where, sizeof(where), "  <%s+0x%x>", sym, off);
		if (!count)
			/* Capstone does not know it. */
			printf("    0x%08x  (undecodable)%s\n", insn.addr, where);
		else if (*where)
			printf("    0x%08x  %-8s %-24s%s\n", insn.addr, dis->mnemonic, dis->op_str,
			       where);
		else
			printf("    0x%08x  %-8s %s\n", insn.addr, dis->mnemonic, dis->op_str);
		if (count)
			cs_free(dis, count);
	}
}

/* An error element's message; for a bad packet, what was wrong with it. */
static const char *error_message(const struct decode *d, const struct pft_elem *e, char *buf,
				 size_t len)
{
	const struct pft_packet *p = d->pkt;

	if (e->reason != PFT_FLOW_ERR_BAD_PACKET || !p || p->type != PFT_PKT_BAD)
		return pft_flow_errstr(e->reason);
	if (p->bad == PFT_BAD_RESERVED_HEADER && p->raw && p->size)
		snprintf(buf, len, "bad packet (reserved header 0x%02x): waiting for the next "
			 "synchronisation", p->raw[0]);
	else
		snprintf(buf, len, "bad packet (%s): waiting for the next synchronisation",
			 pft_bad_reason_str(p->bad));
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
		switch (e->type) {
		case PFT_ELEM_RANGE:
			printf(",\"start\":\"0x%x\",\"end\":\"0x%x\",\"last\":\"0x%x\",\"isa\":\"%s\","
			       "\"n\":%u,\"taken\":%s", e->start, e->end, e->last,
			       pft_isa_name(e->isa), e->ninsn, e->taken ? "true" : "false");
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
	if (d->insn && e->type == PFT_ELEM_RANGE && d->have_cs)
		print_insns(d, s, e);
}

/* The function that @addr is in, added when first seen; NULL if none. */
static struct func_stat *func_at(struct decode *d, struct pft_image *img, uint32_t addr)
{
	struct pft_image_symbol sym;
	size_t lo = 0, hi = d->nfuncs;

	if (pft_image_symbol_at(img, addr, &sym, sizeof(sym)))
		return NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (d->funcs[mid].start < sym.start)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < d->nfuncs && d->funcs[lo].start == sym.start)
		return &d->funcs[lo];
	if (d->nfuncs == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 256;
		struct func_stat *f = realloc(d->funcs, cap * sizeof(*f));
		if (!f)
			return NULL;
		d->funcs = f;
		d->cap = cap;
	}
	memmove(&d->funcs[lo + 1], &d->funcs[lo], (d->nfuncs - lo) * sizeof(*d->funcs));
	d->funcs[lo] = (struct func_stat){ .start = sym.start, .end = sym.end, .name = sym.name };
	d->nfuncs++;
	return &d->funcs[lo];
}

static int count_range(struct decode *d, struct pft_image *img, const struct pft_elem *e)
{
	if (pft_cov_add(d->cov, e, sizeof(*e)))
		return -1;
	struct func_stat *f = func_at(d, img, e->start);
	if (f) {
		f->insns += e->ninsn;
		f->ranges++;
	} else {
		d->unnamed_insns += e->ninsn;
	}
	return 0;
}

static int by_insns(const void *a, const void *b)
{
	const struct func_stat *x = a, *y = b;
	if (x->insns != y->insns)
		return x->insns < y->insns ? 1 : -1;
	return x->start < y->start ? -1 : x->start > y->start;
}

static void print_coverage(struct decode *d)
{
	qsort(d->funcs, d->nfuncs, sizeof(*d->funcs), by_insns);
	if (d->format == FMT_TEXT)
		printf("%12s %7s %9s %9s %7s  %s\n", "executed", "share", "covered", "size",
		       "cover", "function");
	for (size_t i = 0; i < d->nfuncs; i++) {
		const struct func_stat *f = &d->funcs[i];
		uint64_t covered = 0, size = (uint64_t)f->end - f->start;
		pft_cov_covered(d->cov, f->start, f->end, &covered);
		double share = d->insns ? 100.0 * (double)f->insns / (double)d->insns : 0;
		if (d->format == FMT_JSONL) {
			printf("{\"type\":\"function\",\"function\":\"%s\",\"start\":\"0x%x\","
			       "\"end\":\"0x%x\",\"insns\":%" PRIu64 ",\"ranges\":%" PRIu64
			       ",\"covered_bytes\":%" PRIu64 ",\"size\":%" PRIu64 "}\n",
			       f->name, f->start, f->end, f->insns, f->ranges, covered, size);
		} else {
			printf("%12" PRIu64 " %6.1f%% %9" PRIu64 " %9" PRIu64 " %6.1f%%  %s\n",
			       f->insns, share, covered, size,
			       size ? 100.0 * (double)covered / (double)size : 0.0, f->name);
		}
	}
	if (d->format == FMT_JSONL) {
		printf("{\"type\":\"total\",\"insns\":%" PRIu64 ",\"functions\":%zu,"
		       "\"unnamed_insns\":%" PRIu64 "}\n", d->insns, d->nfuncs, d->unnamed_insns);
	} else {
		if (d->unnamed_insns)
			printf("%12" PRIu64 " %6.1f%% %9s %9s %7s  (no symbol)\n", d->unnamed_insns,
			       d->insns ? 100.0 * (double)d->unnamed_insns / (double)d->insns : 0,
			       "", "", "");
		printf("%12" PRIu64 " instructions in %zu functions\n", d->insns, d->nfuncs);
	}
}

static int on_elem(struct decode *d, const struct pft_input_source *s, const struct pft_elem *e)
{
	d->counts[e->type]++;
	if (e->type == PFT_ELEM_RANGE) {
		d->insns += e->ninsn;
		if (d->coverage && count_range(d, s->image, e)) {
			cli_error("out of memory");
			return -1;
		}
	}
	if (!d->count_only && !d->coverage)
		print_elem(d, s, e);
	return 0;
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
	if (d->count_only || d->coverage)
		return;
	if (d->format == FMT_JSONL)
		printf("{\"offset\":%" PRIu64 ",\"id\":%d,\"type\":\"error\",\"msg\":\"%s\"}\n",
		       offset, id, pft_errstr(pft_errcode(status)));
	else {
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

static void usage(FILE *out, int coverage)
{
	if (coverage)
		fprintf(out, "usage: pft coverage INPUT [IMAGES] [--format text|jsonl]\n\n"
			     "Decodes like pft decode and lists, per function (ELF symbol), the\n"
			     "instructions executed, their share, and the bytes of the function\n"
			     "that ran at least once.\n\n");
	else
		fprintf(out, "usage: pft decode INPUT [IMAGES] [--insn] [--format text|jsonl] [--count]\n\n");
	fprintf(out, "%s"
		     "images (any number; a snapshot's memory dumps are used as well):\n"
		     "  --elf FILE[@BIAS]     an ARM ELF executable or shared object\n"
		     "  --image FILE@ADDR     a raw memory dump loaded at ADDR\n"
		     "output:\n"
		     "  --format text|jsonl   listing format (default text)\n"
		     "%s",
		INPUT_OPTIONS_HELP,
		coverage ? "" : "  --insn                list every instruction, disassembled, with symbols\n"
				"  --count               print only element counts\n");
}

static int run(int argc, char **argv, int coverage)
{
	static const struct option longopts[] = {
		INPUT_LONG_OPTIONS,
		{ "format", required_argument, NULL, 'f' },
		{ "count", no_argument, NULL, 'c' },
		{ "insn", no_argument, NULL, 'i' },
		{ "elf", required_argument, NULL, 'e' },
		{ "image", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct input_opts o;
	struct decode d = { .coverage = coverage };
	struct input in;
	int c, rc = EXIT_USAGE;
	const char *cmd = coverage ? "coverage" : "decode";

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
		} else if (c == 'h') {
			usage(stdout, coverage);
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
	if (d.insn && d.format == FMT_JSONL) {
		cli_error("--insn goes with the text format");
		goto out;
	}
	if (coverage && (d.insn || d.count_only)) {
		cli_error("coverage: --insn and --count go with decode");
		goto out;
	}
	if (coverage && !(d.cov = pft_cov_alloc(NULL))) {
		cli_error("out of memory");
		goto out;
	}
	rc = input_open(&in, &o, 0, 1, &d.images);
	if (rc) {
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
			if (on_elem(&d, s, item.elem))
				break;
		} else if (item.type == PFT_ITEM_GAP) {
			on_gap(&d, s, item.offset, item.status);
		}
	}
	rc = r ? EXIT_USAGE : EXIT_OK;
	if (!rc && coverage)
		print_coverage(&d);
	if (!rc && d.count_only)
		print_counts(&d);
	/* Errors in the trace were listed as error elements: the input was
	 * read, but not cleanly. */
	if (!rc && (input_check_sources(&in, &o) + input_fit_report(&in) ||
		    d.counts[PFT_ELEM_ERROR]))
		rc = EXIT_DECODE_ERRORS;
	input_close(&in);
	if (d.have_cs) {
		cs_close(&d.cs_arm);
		cs_close(&d.cs_thumb);
	}
out:
	image_args_free(&d.images);
	pft_cov_free(d.cov);
	free(d.funcs);
	return rc;
}

int cmd_decode(int argc, char **argv)
{
	return run(argc, argv, 0);
}

int cmd_coverage(int argc, char **argv)
{
	return run(argc, argv, 1);
}
