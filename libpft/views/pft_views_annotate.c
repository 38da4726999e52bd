/*
 * The annotation (pft.h, section views: PFT_VIEW_ANNOTATE_*): per
 * function, its instructions with their execution counts, directions and
 * disassembly, the source lines interleaved.  Everything comes from the
 * accumulator's instructions after finish; the source text is read from
 * the files the DWARF names, one file at a time.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "views/pft_views.h"

int pft_views_by_function(const struct pft_views *v, uint32_t **order, size_t **first)
{
	size_t *at = calloc(v->nfuncs + 1, sizeof(*at));
	size_t *next = malloc((v->nfuncs + 1) * sizeof(*next));

	*order = malloc((v->naddrs ? v->naddrs : 1) * sizeof(**order));
	*first = at;
	if (!at || !next || !*order) {
		free(at);
		free(next);
		free(*order);
		*order = NULL;
		*first = NULL;
		return -PFT_ERR_NOMEM;
	}
	for (size_t i = 0; i < v->naddrs; i++)
		at[v->addrs[i].func + 1]++;
	for (size_t f = 0; f < v->nfuncs; f++)
		at[f + 1] += at[f];
	memcpy(next, at, (v->nfuncs + 1) * sizeof(*next));
	for (size_t i = 0; i < v->naddrs; i++)   /* address order kept */
		(*order)[next[v->addrs[i].func]++] = (uint32_t)i;
	free(next);
	return 0;
}

/* ---- source text ---- */

/* One source file's text and where its lines start; files larger than
 * this are not shown. */
enum { SOURCE_MAX = 16 << 20 };

struct source {
	const char *path;         /* borrowed from the lines; NULL: none */
	char *text;               /* NULL: could not be read */
	size_t *starts;           /* of line 1 .. nlines (one more at the end) */
	size_t nlines;
};

static void source_free(struct source *s)
{
	free(s->text);
	free(s->starts);
	*s = (struct source){ 0 };
}

static void source_load(struct source *s, const char *path)
{
	FILE *f;
	long size;

	source_free(s);
	s->path = path;
	f = fopen(path, "rb");
	if (!f)
		return;
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || size > SOURCE_MAX ||
	    fseek(f, 0, SEEK_SET) || !(s->text = malloc((size_t)size + 1)) ||
	    fread(s->text, 1, (size_t)size, f) != (size_t)size) {
		fclose(f);
		free(s->text);
		s->text = NULL;
		return;
	}
	fclose(f);
	s->text[size] = '\0';
	size_t n = 1;
	for (long i = 0; i < size; i++)
		n += s->text[i] == '\n';
	s->starts = malloc((n + 1) * sizeof(*s->starts));
	if (!s->starts) {
		free(s->text);
		s->text = NULL;
		return;
	}
	s->starts[0] = 0;
	s->nlines = 1;
	for (long i = 0; i < size; i++)
		if (s->text[i] == '\n') {
			s->text[i] = '\0';
			s->starts[s->nlines++] = (size_t)i + 1;
		}
}

/* Line @line of @path (NULL when unknown or unreadable). */
static const char *source_line(struct source *s, const char *path, uint32_t line)
{
	if (!path || !line)
		return NULL;
	if (s->path != path && (!s->path || strcmp(s->path, path)))
		source_load(s, path);
	if (!s->text || line > s->nlines)
		return NULL;
	return s->text + s->starts[line - 1];
}

/* ---- the listing ---- */

struct annotate {
	const struct pft_views *v;
	struct vout *o;
	int json;
	struct source src;
	const char *last_file;    /* the source line written last */
	uint32_t last_line;
	const char *fn;           /* the function being written: its label */
	const char *name;         /* ... and its name */
};

/* The instruction at @addr in @isa from @img, in *@insn: 1, else 0. */
static int decode_at(struct pft_image *img, uint32_t addr, int isa, struct pft_insn *insn)
{
	const uint8_t *code;
	int n;

	if (isa != PFT_ISA_ARM && isa != PFT_ISA_THUMB)
		return 0;
	n = pft_image_map(img, addr, PFT_SPACE_ANY, &code);
	return n > 0 && pft_insn_decode((enum pft_isa)isa, addr, code, (size_t)n, insn,
					 sizeof(*insn)) > 0;
}

/* @insn's text: the output's disassembler's, else its bytes in hex. */
static void insn_text(const struct annotate *an, const struct pft_insn *insn, char *buf,
		      size_t len)
{
	const struct pft_views_output *out = &an->v->out;

	if (out->disasm && out->disasm(out->disasm_ctx, insn, buf, len) == 0) {
		buf[len - 1] = '\0';
		return;
	}
	if (insn->isa == PFT_ISA_THUMB)
		for (int i = 0, k = 0; i < insn->size; i += 2)
			k += snprintf(buf + k, len - (size_t)k, "%s%04x", i ? " " : "",
				      (unsigned)(insn->raw[i] | insn->raw[i + 1] << 8));
	else
		snprintf(buf, len, "%08x", (unsigned)(insn->raw[0] | insn->raw[1] << 8 |
						    insn->raw[2] << 16 |
						    (uint32_t)insn->raw[3] << 24));
}

/* The source line of an instruction, in text, when it is not the last. */
static void text_source(struct annotate *an, const char *file, uint32_t line)
{
	struct vout *o = an->o;

	if (!file || (file == an->last_file && line == an->last_line) ||
	    (an->last_file && line == an->last_line && !strcmp(file, an->last_file)))
		return;
	an->last_file = file;
	an->last_line = line;
	const char *base = strrchr(file, '/');
	const char *text = source_line(&an->src, file, line);
	pft_vout_printf(o, "%38s", "");
	pft_vout_plain(o, base ? base + 1 : file, 0);
	pft_vout_printf(o, ":%" PRIu32, line);
	if (text) {
		/* Tabs to 8 columns; the rest of the line as it is. */
		char buf[256];
		size_t n = 0;
		for (; *text && n < sizeof(buf) - 9; text++) {
			if (*text == '\t')
				do
					buf[n++] = ' ';
				while (n % 8);
			else
				buf[n++] = *text;
		}
		buf[n] = '\0';
		pft_vout_printf(o, "  ");
		pft_vout_plain(o, buf, 0);
	}
	pft_vout_printf(o, "\n");
}

/* One instruction: @a (executed or a branch that never ran) or, with @a
 * NULL, @insn, which did not run. */
static void write_insn(struct annotate *an, const struct vaddr *a, const struct pft_insn *insn,
		       const char *file, uint32_t line)
{
	struct vout *o = an->o;
	char text[160];
	uint64_t count = a ? a->count : 0;

	insn_text(an, insn, text, sizeof(text));
	if (an->json) {
		if (!count)
			return;
		pft_vout_printf(o, "{\"type\":\"insn\",\"addr\":\"0x%08" PRIx32 "\",\"count\":%" PRIu64
				",\"fn\":", insn->addr, count);
		pft_vout_json(o, an->name);
		if (an->fn != an->name) {   /* another function has the name */
			pft_vout_printf(o, ",\"label\":");
			pft_vout_json(o, an->fn);
		}
		if (file) {
			pft_vout_printf(o, ",\"file\":");
			pft_vout_json(o, file);
			pft_vout_printf(o, ",\"line\":%" PRIu32, line);
		}
		pft_vout_printf(o, ",\"isa\":\"%s\",\"text\":", pft_isa_name(insn->isa));
		pft_vout_json(o, text);
		if (a->dir)
			pft_vout_printf(o, ",\"taken\":%" PRIu64 ",\"not_taken\":%" PRIu64,
					a->taken, a->not_taken);
		pft_vout_printf(o, "}\n");
		return;
	}
	text_source(an, file, line);
	if (count)
		pft_vout_printf(o, "%12" PRIu64, count);
	else
		pft_vout_printf(o, "%12s", "-");
	if (a && a->dir && count)
		pft_vout_printf(o, " %11" PRIu64 " %11" PRIu64, a->taken, a->not_taken);
	else
		pft_vout_printf(o, " %11s %11s", "", "");
	pft_vout_printf(o, "  0x%08" PRIx32 "  ", insn->addr);
	pft_vout_plain(o, text, 0);
	pft_vout_printf(o, "\n");
}

/* The instruction of executed entry @a, decoded again from its image. */
static int insn_of(const struct pft_views *v, const struct vaddr *a, struct pft_insn *insn)
{
	if (decode_at(v->images[a->image], a->addr, a->isa, insn))
		return 1;
	/* The image no longer maps it: its address and size alone. */
	*insn = (struct pft_insn){ .addr = a->addr, .size = a->size, .isa = a->isa };
	return 0;
}

/* Function @fi: its instructions @order[@k .. @end) and, where its extent
 * and code are known, the ones that did not run between them. */
static void write_function(struct annotate *an, uint32_t fi, uint64_t insns,
			   const uint32_t *order, size_t k, size_t end)
{
	const struct pft_views *v = an->v;
	const struct vfunc *f = &v->funcs[fi];
	struct vout *o = an->o;
	struct pft_image *img = v->images[f->shared ? 0 : f->image];
	struct pft_insn insn;
	const char *file;
	uint32_t line;

	an->name = f->name ? f->name : "[unknown]";
	an->fn = f->name ? pft_names_label(v->names, f->name, f->start) : an->name;
	an->last_file = NULL;
	an->last_line = 0;
	if (!an->json) {
		pft_vout_printf(o, "\n");
		pft_vout_plain(o, an->fn, 0);
		if (f->name)
			pft_vout_printf(o, "  0x%08" PRIx32 "-0x%08" PRIx32, f->start, f->end);
		if (f->file) {
			pft_vout_printf(o, "  ");
			pft_vout_plain(o, f->file, 0);
			pft_vout_printf(o, ":%" PRIu32, f->line);
		}
		if (!v->insns_only)
			pft_vout_printf(o, "  entered %" PRIu64, f->entered);
		pft_vout_printf(o, "  instructions %" PRIu64 "\n", insns);
		pft_vout_printf(o, "%12s %11s %11s  %-10s  %s\n", "count", "taken", "not taken",
				"address", "instruction");
	}
	/* Walk the function's code (when its extent is known and the text
	 * listing shows what did not run), stepping onto each executed
	 * instruction as it comes. */
	uint32_t at = f->name && f->end && !an->json ? f->start : UINT32_MAX;
	int isa = k < end ? v->addrs[order[k]].isa : PFT_ISA_ARM;
	while (k < end || (at != UINT32_MAX && at < f->end)) {
		const struct vaddr *a = k < end ? &v->addrs[order[k]] : NULL;
		if (a && (at == UINT32_MAX || a->addr <= at || at >= f->end)) {
			insn_of(v, a, &insn);
			file = a->file;
			line = a->line;
			if (!file && pft_lines_line_at(v->lines, a->addr, &file, &line))
				file = NULL;
			if (a->count || !an->json)
				write_insn(an, a, &insn, file, line);
			isa = a->isa;
			if (at != UINT32_MAX)
				at = a->addr + a->size;
			k++;
			continue;
		}
		/* Code that did not run, up to the next executed instruction. */
		int here = pft_image_isa(img, at);
		if (here == PFT_ISA_ARM || here == PFT_ISA_THUMB)
			isa = here;
		if (here == PFT_ISA_UNKNOWN || !decode_at(img, at, isa, &insn) ||
		    (a && at + insn.size > a->addr)) {
			at += 2;    /* data (a literal pool), or no code: skip it */
			if (a && at > a->addr)
				at = a->addr;
			continue;
		}
		if (pft_lines_line_at(v->lines, at, &file, &line))
			file = NULL;
		write_insn(an, NULL, &insn, file, line);
		at += insn.size;
	}
}

struct hot {
	uint64_t self;
	uint32_t start, index;
};

static int cmp_hot(const void *a, const void *b)
{
	const struct hot *x = a, *y = b;

	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	return (x->start > y->start) - (x->start < y->start);
}

int pft_views_write_annotate(const struct pft_views *v, struct vout *o, int json)
{
	struct annotate an = { .v = v, .o = o, .json = json };
	uint32_t *order;
	size_t *first, n = 0;
	struct hot *list = malloc((v->nfuncs ? v->nfuncs : 1) * sizeof(*list));
	int err = list ? pft_views_by_function(v, &order, &first) : -PFT_ERR_NOMEM;

	if (err) {
		free(list);
		return err;
	}
	/* The functions that ran (in address order, "[unknown]" last). */
	for (size_t i = 0; i < v->nfuncs; i++) {
		uint32_t fi = v->order[i];
		const struct vfunc *f = &v->funcs[fi];
		uint64_t insns = 0;   /* (the sum of its instructions': also
				       * without calls, pft_views_config.insns_only) */
		for (size_t k = first[fi]; k < first[fi + 1]; k++)
			insns += v->addrs[order[k]].count;
		if (insns && views_func_selected(v, f))
			list[n++] = (struct hot){ insns, f->name ? f->start : UINT32_MAX, fi };
	}
	if (v->out.order == PFT_VIEWS_ORDER_HOT && n)
		qsort(list, n, sizeof(*list), cmp_hot);
	if (!json) {
		uint64_t total = 0;
		for (size_t i = 0; i < n; i++)
			total += list[i].self;
		pft_vout_printf(o, "%" PRIu64 " instructions executed in %zu function%s (%s)\n",
				total, n, n == 1 ? "" : "s",
				v->out.order == PFT_VIEWS_ORDER_HOT ? "hottest first"
								    : "in address order");
	}
	for (size_t i = 0; i < n && !o->err; i++)
		write_function(&an, list[i].index, list[i].self, order, first[list[i].index],
			       first[list[i].index + 1]);
	source_free(&an.src);
	free(order);
	free(first);
	free(list);
	return 0;
}
