/* The writers of the views accumulator's formats (pft.h, section views). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/pft_diag.h"
#include "common/pft_size.h"
#include "views/pft_views.h"

static const char *fname(const struct vfunc *f)
{
	return f->name ? f->name : "[unknown]";
}

/* The name the listings write: a label when another function of the
 * program has the same name (pft_names_label()). */
static const char *flabel(const struct pft_views *v, const struct vfunc *f)
{
	return f->name ? pft_names_label(v->names, f->name, f->start) : fname(f);
}

/* In JSON lines the name stays the symbol's; an ambiguous one gets a
 * field @key with its label as well. */
static void json_label(const struct pft_views *v, struct vout *o, const char *key,
		       const struct vfunc *f)
{
	const char *label = flabel(v, f);

	if (label != fname(f)) {
		pft_vout_printf(o, ",\"%s\":", key);
		pft_vout_json(o, label);
	}
}

static const char *branch_state(const struct vaddr *a)
{
	if (a->taken && a->not_taken)
		return "both";
	return a->taken ? "taken" : a->not_taken ? "not_taken" : "never";
}

/* ---- the selection ---- */

static int cmp_line_key(const char *file, uint32_t line, const struct vline *y)
{
	int c = strcmp(file, y->file);

	return c ? c : (line > y->line) - (line < y->line);
}

/* Which of v->vlines the selection lets through: a flag each (malloc'ed;
 * *@flags NULL without a selection: all).  A line is in when one of its
 * rows' code is.  Returns 0 or -PFT_ERR_NOMEM. */
static int selected_lines(const struct pft_views *v, uint8_t **flags)
{
	struct pft_line_row row;

	*flags = NULL;
	if (!v->out.select)
		return 0;
	*flags = calloc(v->nvlines ? v->nvlines : 1, 1);
	if (!*flags)
		return -PFT_ERR_NOMEM;
	for (size_t i = 0; pft_lines_row(v->lines, i, &row, sizeof(row)) == 0; i++) {
		if (!pft_select_overlaps(v->out.select, row.start, row.end ? row.end : 1ull << 32))
			continue;
		size_t lo = 0, hi = v->nvlines;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			int c = cmp_line_key(row.file, row.line, &v->vlines[mid]);
			if (!c) {
				(*flags)[mid] = 1;
				break;
			}
			if (c < 0)
				hi = mid;
			else
				lo = mid + 1;
		}
	}
	return 0;
}

static int line_in(const uint8_t *flags, size_t i)
{
	return !flags || flags[i];
}

/* ---- coverage ---- */

/* Executed instruction @a is in no function (and selected). */
static int outside_functions(const struct pft_views *v, const struct vaddr *a)
{
	return a->count && !v->funcs[a->func].name && views_addr_selected(v, a->addr);
}

/* The next maximal run of consecutive instructions outside every function
 * with the same count, from *@i on: its first instruction in *@first, its
 * end (exclusive) in *@end, its instructions in *@n; *@i moves past it.
 * 0 when none is left. */
static int next_outside_run(const struct pft_views *v, size_t *i, const struct vaddr **first,
			    uint32_t *end, size_t *n)
{
	while (*i < v->naddrs && !outside_functions(v, &v->addrs[*i]))
		(*i)++;
	if (*i == v->naddrs)
		return 0;
	const struct vaddr *a = &v->addrs[*i];
	size_t j = *i + 1;
	uint32_t e = a->addr + a->size;
	while (j < v->naddrs && v->addrs[j].addr == e && v->addrs[j].count == a->count &&
	       !v->funcs[v->addrs[j].func].name && v->addrs[j].image == a->image) {
		e += v->addrs[j].size;
		j++;
	}
	*first = a;
	*end = e;
	*n = j - *i;
	*i = j;
	return 1;
}

/* Executed code outside every function (no symbols, no DWARF: a firmware
 * blob, a stripped kernel): the maximal runs of consecutive instructions
 * with the same count. */
static void coverage_ranges_jsonl(const struct pft_views *v, struct vout *o)
{
	const struct vaddr *a;
	uint32_t end;
	size_t n, i = 0;

	while (next_outside_run(v, &i, &a, &end, &n))
		pft_vout_printf(o, "{\"type\":\"range\",\"start\":\"0x%08" PRIx32 "\",\"end\":\"0x%08"
				PRIx32 "\",\"count\":%" PRIu64 ",\"insns\":%zu}\n", a->addr, end,
				a->count, n);
}

/* The same in text: per image section, the bytes and instructions
 * executed, then the runs. */
static void coverage_ranges_text(const struct pft_views *v, struct vout *o)
{
	const struct vaddr *run;
	uint32_t run_end;
	size_t outside = 0, run_n, at = 0;

	for (size_t i = 0; i < v->naddrs; i++)
		outside += outside_functions(v, &v->addrs[i]);
	if (!outside)
		return;
	pft_vout_printf(o, "code in no function: %zu instructions executed\n", outside);
	for (size_t k = 0; k < v->nimages; k++) {
		struct pft_image_section_info sec;
		for (size_t n = 0; pft_image_section(v->images[k], n, &sec, sizeof(sec)) == 0; n++) {
			uint64_t bytes = 0, insns = 0, end = (uint64_t)sec.vaddr + sec.length;
			for (size_t i = 0; i < v->naddrs; i++) {
				const struct vaddr *a = &v->addrs[i];
				if (outside_functions(v, a) && a->image == k && a->addr >= sec.vaddr &&
				    a->addr < end) {
					bytes += a->size;
					insns++;
				}
			}
			if (!insns)
				continue;
			pft_vout_printf(o, "  section 0x%08" PRIx32 "-0x%08" PRIx64 ": %" PRIu64
					" bytes, %" PRIu64 " instructions executed\n", sec.vaddr, end,
					bytes, insns);
		}
	}
	pft_vout_printf(o, "  %10s  %-10s  %-10s  %s\n", "count", "start", "end", "instructions");
	while (next_outside_run(v, &at, &run, &run_end, &run_n))
		pft_vout_printf(o, "  %10" PRIu64 "  0x%08" PRIx32 "  0x%08" PRIx32 "  %zu\n",
				run->count, run->addr, run_end, run_n);
}

static void coverage_jsonl(const struct pft_views *v, struct vout *o, const uint8_t *sel)
{
	for (size_t i = 0; i < v->nfuncs; i++) {
		const struct vfunc *f = &v->funcs[v->order[i]];
		if (!views_func_selected(v, f))
			continue;
		pft_vout_printf(o, "{\"type\":\"function\",\"name\":");
		pft_vout_json(o, fname(f));
		json_label(v, o, "label", f);
		pft_vout_printf(o, ",\"start\":\"0x%08" PRIx32 "\",\"end\":\"0x%08" PRIx32 "\"",
			    f->start, f->end);
		if (f->file) {
			pft_vout_printf(o, ",\"file\":");
			pft_vout_json(o, f->file);
			pft_vout_printf(o, ",\"line\":%" PRIu32, f->line);
		}
		pft_vout_printf(o, ",\"entered\":%" PRIu64 ",\"insns\":%" PRIu64 "}\n",
			    f->entered, f->self);
	}
	for (size_t i = 0; i < v->nvlines; i++) {
		if (!line_in(sel, i))
			continue;
		pft_vout_printf(o, "{\"type\":\"line\",\"file\":");
		pft_vout_json(o, v->vlines[i].file);
		pft_vout_printf(o, ",\"line\":%" PRIu32 ",\"count\":%" PRIu64 "}\n",
			    v->vlines[i].line, v->vlines[i].count);
	}
	for (size_t i = 0; i < v->naddrs; i++) {
		const struct vaddr *a = &v->addrs[i];
		if (!a->cond || !views_addr_selected(v, a->addr))
			continue;
		pft_vout_printf(o, "{\"type\":\"branch\",\"addr\":\"0x%08" PRIx32 "\"", a->addr);
		if (a->file) {
			pft_vout_printf(o, ",\"file\":");
			pft_vout_json(o, a->file);
			pft_vout_printf(o, ",\"line\":%" PRIu32, a->line);
		}
		pft_vout_printf(o, ",\"taken\":%" PRIu64 ",\"not_taken\":%" PRIu64
			    ",\"state\":\"%s\"}\n", a->taken, a->not_taken, branch_state(a));
	}
	coverage_ranges_jsonl(v, o);
}

static void coverage_text(const struct pft_views *v, struct vout *o, const uint8_t *sel)
{
	size_t entered = 0, hit = 0, branches = 0, both = 0, nfuncs = 0, nlines = 0;

	for (size_t i = 0; i < v->nfuncs; i++)
		if (views_func_selected(v, &v->funcs[i])) {
			nfuncs++;
			entered += v->funcs[i].entered || v->funcs[i].self;
		}
	pft_vout_printf(o, "functions: %zu of %zu executed\n", entered, nfuncs);
	pft_vout_printf(o, "  %10s %12s  %-10s  %s\n", "entered", "insns", "address", "function");
	for (size_t i = 0; i < v->nfuncs; i++) {
		const struct vfunc *f = &v->funcs[v->order[i]];
		if (!views_func_selected(v, f))
			continue;
		pft_vout_printf(o, "  %10" PRIu64 " %12" PRIu64 "  0x%08" PRIx32 "  ",
			    f->entered, f->self, f->start);
		pft_vout_plain(o, flabel(v, f), 0);
		if (f->file) {
			pft_vout_printf(o, "  ");
			pft_vout_plain(o, f->file, 0);
			pft_vout_printf(o, ":%" PRIu32, f->line);
		}
		pft_vout_printf(o, "\n");
	}
	for (size_t i = 0; i < v->nvlines; i++)
		if (line_in(sel, i)) {
			nlines++;
			hit += v->vlines[i].count > 0;
		}
	pft_vout_printf(o, "lines: %zu of %zu executed\n", hit, nlines);
	for (size_t i = 0; i < v->nvlines; i++) {
		if (!line_in(sel, i))
			continue;
		pft_vout_printf(o, "  %10" PRIu64 "  ", v->vlines[i].count);
		pft_vout_plain(o, v->vlines[i].file, 0);
		pft_vout_printf(o, ":%" PRIu32 "\n", v->vlines[i].line);
	}
	for (size_t i = 0; i < v->naddrs; i++) {
		if (!views_addr_selected(v, v->addrs[i].addr))
			continue;
		branches += v->addrs[i].cond;
		both += v->addrs[i].cond && v->addrs[i].taken && v->addrs[i].not_taken;
	}
	pft_vout_printf(o, "conditional branches: %zu of %zu went both ways\n", both, branches);
	for (size_t i = 0; i < v->naddrs; i++) {
		const struct vaddr *a = &v->addrs[i];
		if (!a->cond || !views_addr_selected(v, a->addr))
			continue;
		pft_vout_printf(o, "  0x%08" PRIx32 "  %-9s taken %" PRIu64 " not taken %" PRIu64,
			    a->addr, branch_state(a), a->taken, a->not_taken);
		if (a->file) {
			pft_vout_printf(o, "  ");
			pft_vout_plain(o, a->file, 0);
			pft_vout_printf(o, ":%" PRIu32, a->line);
		}
		pft_vout_printf(o, "\n");
	}
	coverage_ranges_text(v, o);
}

static int same_file(const char *a, const char *b)
{
	return a && b && (a == b || !strcmp(a, b));
}

static void lcov_file(const struct pft_views *v, struct vout *o, const char *file,
		      size_t first_line, size_t end_line, const uint8_t *sel)
{
	size_t fnf = 0, fnh = 0, brf = 0, brh = 0, lh = 0, lf = 0;

	pft_vout_printf(o, "SF:");
	pft_vout_plain(o, file, 0);
	pft_vout_printf(o, "\n");
	for (size_t i = 0; i < v->nfuncs; i++) {
		const struct vfunc *f = &v->funcs[v->order[i]];
		if (!same_file(f->file, file) || !views_func_selected(v, f))
			continue;
		pft_vout_printf(o, "FN:%" PRIu32 ",", f->line);
		pft_vout_plain(o, fname(f), 0);
		pft_vout_printf(o, "\n");
	}
	for (size_t i = 0; i < v->nfuncs; i++) {
		const struct vfunc *f = &v->funcs[v->order[i]];
		if (!same_file(f->file, file) || !views_func_selected(v, f))
			continue;
		pft_vout_printf(o, "FNDA:%" PRIu64 ",", f->entered);
		pft_vout_plain(o, fname(f), 0);
		pft_vout_printf(o, "\n");
		fnf++;
		fnh += f->entered > 0;
	}
	pft_vout_printf(o, "FNF:%zu\nFNH:%zu\n", fnf, fnh);
	for (size_t i = 0; i < v->naddrs; i++) {
		const struct vaddr *a = &v->addrs[i];
		size_t block = 0;
		if (!a->cond || !same_file(a->file, file) || !views_addr_selected(v, a->addr))
			continue;
		for (size_t k = 0; k < i; k++)
			block += v->addrs[k].cond && v->addrs[k].line == a->line &&
				 same_file(v->addrs[k].file, file);
		if (a->count) {
			pft_vout_printf(o, "BRDA:%" PRIu32 ",%zu,0,%" PRIu64 "\n", a->line, block, a->taken);
			pft_vout_printf(o, "BRDA:%" PRIu32 ",%zu,1,%" PRIu64 "\n", a->line, block, a->not_taken);
		} else {
			pft_vout_printf(o, "BRDA:%" PRIu32 ",%zu,0,-\nBRDA:%" PRIu32 ",%zu,1,-\n",
				    a->line, block, a->line, block);
		}
		brf += 2;
		brh += (a->taken > 0) + (a->not_taken > 0);
	}
	pft_vout_printf(o, "BRF:%zu\nBRH:%zu\n", brf, brh);
	for (size_t i = first_line; i < end_line; i++) {
		if (!line_in(sel, i))
			continue;
		pft_vout_printf(o, "DA:%" PRIu32 ",%" PRIu64 "\n", v->vlines[i].line, v->vlines[i].count);
		lh += v->vlines[i].count > 0;
		lf++;
	}
	pft_vout_printf(o, "LF:%zu\nLH:%zu\nend_of_record\n", lf, lh);
}

/* One record per source file of the line tables (lines are sorted by
 * file). */
static void lcov(const struct pft_views *v, struct vout *o, const char *test_name,
		 const uint8_t *sel)
{
	for (size_t i = 0; i < v->nvlines;) {
		size_t j = i, any = 0;
		while (j < v->nvlines && same_file(v->vlines[j].file, v->vlines[i].file))
			any += line_in(sel, j++);
		if (!any) {   /* a file the selection leaves out */
			i = j;
			continue;
		}
		pft_vout_printf(o, "TN:");
		pft_vout_plain(o, test_name ? test_name : "", 0);
		pft_vout_printf(o, "\n");
		lcov_file(v, o, v->vlines[i].file, i, j, sel);
		i = j;
	}
}

/* ---- profile ---- */

static int cmp_edge_caller(const void *a, const void *b)
{
	const struct vedge *x = a, *y = b;

	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	return (x->callee > y->callee) - (x->callee < y->callee);
}

/* The edges sorted by caller (a copy; NULL when out of memory). */
static struct vedge *sorted_edges(const struct pft_views *v)
{
	struct vedge *e = malloc((v->nedges ? v->nedges : 1) * sizeof(*e));

	if (e && v->nedges) {
		memcpy(e, v->edges, v->nedges * sizeof(*e));
		qsort(e, v->nedges, sizeof(*e), cmp_edge_caller);
	}
	return e;
}

static void callgrind_position(struct vout *o, const char *key, const struct vfunc *f,
			       const char *file)
{
	pft_vout_printf(o, "%s=", key[0] == 'f' ? "fl" : "cfl");
	pft_vout_plain(o, file ? file : "???", 0);
	pft_vout_printf(o, "\n%s=", key);
	pft_vout_plain(o, fname(f), 0);
	pft_vout_printf(o, "\n");
}

static int cmp_site(const void *a, const void *b)
{
	const struct vsite *x = a, *y = b;

	if (x->site != y->site)
		return x->site < y->site ? -1 : 1;
	return (x->callee > y->callee) - (x->callee < y->callee);
}

/* Where a callee is entered: its first instruction and line. */
static void callee_position(const struct pft_views *v, const uint32_t *order,
			    const size_t *first, uint32_t callee, uint32_t *addr, uint32_t *line)
{
	const struct vfunc *f = &v->funcs[callee];
	size_t k = first[callee];

	*addr = f->start;
	*line = f->line;
	if (k < first[callee + 1] && v->addrs[order[k]].addr == f->start && v->addrs[order[k]].file)
		*line = v->addrs[order[k]].line;
}

/* Callgrind with positions "instr line": each instruction's cost on its
 * address and source line, each call on its call site, so that
 * callgrind_annotate and KCachegrind annotate source and disassembly. */
static int callgrind(const struct pft_views *v, struct vout *o)
{
	uint32_t *order = NULL;
	size_t *first = NULL;
	struct vsite *sites = malloc((v->nsites ? v->nsites : 1) * sizeof(*sites));
	uint64_t total = 0;
	int err = sites ? pft_views_by_function(v, &order, &first) : -PFT_ERR_NOMEM;

	if (err) {
		free(sites);
		return err;
	}
	if (v->nsites) {
		memcpy(sites, v->sites, v->nsites * sizeof(*sites));
		qsort(sites, v->nsites, sizeof(*sites), cmp_site);
	}
	for (uint32_t fi = 0; fi < v->nfuncs; fi++)
		if (views_func_selected(v, &v->funcs[fi]))
			total += v->funcs[fi].self;
	pft_vout_printf(o, "# callgrind format\nversion: 1\ncreator: pft\npositions: instr line\n"
		    "events: Ir\nsummary: %" PRIu64 "\n", total);
	for (uint32_t fi = 0; fi < v->nfuncs; fi++) {
		const struct vfunc *f = &v->funcs[fi];
		size_t k = first[fi], end = first[fi + 1];
		if (!views_func_selected(v, f) || (!f->self && k == end))
			continue;
		/* The function's file: its declaration's, else its first
		 * instruction's. */
		const char *file = f->file;
		for (size_t i = k; !file && i < end; i++)
			file = v->addrs[order[i]].file;
		pft_vout_printf(o, "\n");
		callgrind_position(o, "fn", f, file);
		const char *cur = file ? file : "???";
		uint64_t listed = 0;
		for (size_t i = k; i < end; i++) {
			const struct vaddr *a = &v->addrs[order[i]];
			/* No line: "???", as valgrind writes it (not the
			 * function's file, where line 0 would be a line). */
			const char *afile = a->file ? a->file : "???";
			if (!a->count)
				continue;
			if (!same_file(afile, cur)) {
				pft_vout_printf(o, "fi=");
				pft_vout_plain(o, afile, 0);
				pft_vout_printf(o, "\n");
				cur = afile;
			}
			uint32_t line = a->file ? a->line : 0;
			pft_vout_printf(o, "0x%" PRIx32 " %" PRIu32 " %" PRIu64 "\n", a->addr, line,
					a->count);
			listed += a->count;
			/* The calls made here. */
			size_t lo = 0, hi = v->nsites;
			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;
				if (sites[mid].site < a->addr)
					lo = mid + 1;
				else
					hi = mid;
			}
			for (; lo < v->nsites && sites[lo].site == a->addr; lo++) {
				const struct vsite *c = &sites[lo];
				const struct vfunc *callee = &v->funcs[c->callee];
				uint32_t taddr, tline;
				const char *cfile = callee->file;
				callee_position(v, order, first, c->callee, &taddr, &tline);
				for (size_t j = first[c->callee]; !cfile && j < first[c->callee + 1]; j++)
					cfile = v->addrs[order[j]].file;
				callgrind_position(o, "cfn", callee, cfile);
				pft_vout_printf(o, "calls=%" PRIu64 " 0x%" PRIx32 " %" PRIu32 "\n0x%" PRIx32
						" %" PRIu32 " %" PRIu64 "\n", c->calls, taddr, tline,
						a->addr, line, c->incl);
			}
		}
		/* Instructions past the accumulator's tables count for the
		 * function only: on its first line. */
		if (f->self > listed) {
			if (!same_file(file, cur) && file) {
				pft_vout_printf(o, "fi=");
				pft_vout_plain(o, file, 0);
				pft_vout_printf(o, "\n");
			}
			pft_vout_printf(o, "0x%" PRIx32 " %" PRIu32 " %" PRIu64 "\n", f->start,
					f->line, f->self - listed);
		}
	}
	pft_vout_printf(o, "\ntotals: %" PRIu64 "\n", total);
	free(order);
	free(first);
	free(sites);
	return 0;
}

/* Folded stacks print each context with its whole path: a recursion
 * 10^6 deep would print 10^12 frames.  Past FOLDED_DEPTH frames the
 * deeper contexts are one line, "...;[deeper]", under their ancestor at
 * that depth: the output is linear in the contexts. */
enum { FOLDED_DEPTH = 256 };

/* Write the path of node @i (root first) and a separator. */
static int folded_path(const struct pft_views *v, struct vout *o, uint32_t i, uint32_t **path,
		       size_t *cap)
{
	size_t n = 0;
	uint32_t p = i;

	for (; p != VNONE; p = v->nodes[p].parent) {
		if (pft_grow((void **)path, cap, n + 1, sizeof(**path)))
			return -PFT_ERR_NOMEM;
		(*path)[n++] = v->nodes[p].func;
		if (v->nodes[p].parent == VNONE && v->nodes[p].cut)
			pft_vout_printf(o, "[deeper contexts];"); /* callers not known */
	}
	while (n--) {
		pft_vout_plain(o, flabel(v, &v->funcs[(*path)[n]]), 1);
		pft_vout_printf(o, n ? ";" : "");
	}
	return 0;
}

static int folded(const struct pft_views *v, struct vout *o)
{
	uint32_t *path = NULL, *depth = calloc(v->nnodes ? v->nnodes : 1, sizeof(*depth));
	uint32_t *anchor = calloc(v->nnodes ? v->nnodes : 1, sizeof(*anchor));
	uint64_t *deeper = calloc(v->nnodes ? v->nnodes : 1, sizeof(*deeper));
	size_t cap = 0;
	int err = 0;

	if (!depth || !anchor || !deeper)
		err = -PFT_ERR_NOMEM;
	/* Parents come before their children: depths and the ancestor at
	 * FOLDED_DEPTH in one pass. */
	for (size_t i = 0; !err && i < v->nnodes; i++) {
		uint32_t parent = v->nodes[i].parent;
		depth[i] = parent == VNONE ? 1 : depth[parent] + (depth[parent] < UINT32_MAX);
		anchor[i] = depth[i] < FOLDED_DEPTH ? VNONE
			    : depth[i] == FOLDED_DEPTH ? (uint32_t)i : anchor[parent];
		if (depth[i] > FOLDED_DEPTH)
			deeper[anchor[i]] += v->nodes[i].self;
	}
	for (size_t i = 0; !err && i < v->nnodes; i++) {
		if (depth[i] > FOLDED_DEPTH ||
		    !views_func_selected(v, &v->funcs[v->nodes[i].func]))
			continue;
		if (v->nodes[i].self) {
			if ((err = folded_path(v, o, (uint32_t)i, &path, &cap)))
				break;
			pft_vout_printf(o, " %" PRIu64 "\n", v->nodes[i].self);
		}
		if (deeper[i]) {
			if ((err = folded_path(v, o, (uint32_t)i, &path, &cap)))
				break;
			pft_vout_printf(o, ";[deeper] %" PRIu64 "\n", deeper[i]);
		}
	}
	free(path);
	free(depth);
	free(anchor);
	free(deeper);
	return err;
}

static int profile(const struct pft_views *v, struct vout *o, int json)
{
	struct vedge *edges = sorted_edges(v);

	if (!edges)
		return -PFT_ERR_NOMEM;
	if (!json) {
		pft_timing_write_note(v, o);
		pft_vout_printf(o, "%12s %12s %12s %10s", "self", "inclusive",
				v->has_cycles ? "cycles" : "-", "entered");
		pft_timing_write_calls_header(v, o);
		pft_vout_printf(o, "  %-10s  %s\n", "address", "function");
	}
	for (size_t i = 0; i < v->nfuncs; i++) {
		const struct vfunc *f = &v->funcs[v->order[i]];
		if ((!f->self && !f->entered) || !views_func_selected(v, f))
			continue;
		if (json) {
			pft_vout_printf(o, "{\"type\":\"function\",\"name\":");
			pft_vout_json(o, fname(f));
			json_label(v, o, "label", f);
			pft_vout_printf(o, ",\"start\":\"0x%08" PRIx32 "\",\"self\":%" PRIu64
				    ",\"inclusive\":%" PRIu64 ",\"entered\":%" PRIu64,
				    f->start, f->self, f->incl, f->entered);
			if (v->has_cycles)
				pft_vout_printf(o, ",\"cycles\":%" PRIu64, f->cycles);
			pft_timing_write_calls(v, o, &f->calls, 1);
			pft_vout_printf(o, "}\n");
		} else {
			pft_vout_printf(o, "%12" PRIu64 " %12" PRIu64 " ", f->self, f->incl);
			if (v->has_cycles)
				pft_vout_printf(o, "%12" PRIu64, f->cycles);
			else
				pft_vout_printf(o, "%12s", "-");
			pft_vout_printf(o, " %10" PRIu64, f->entered);
			pft_timing_write_calls(v, o, &f->calls, 0);
			pft_vout_printf(o, "  0x%08" PRIx32 "  ", f->start);
			pft_vout_plain(o, flabel(v, f), 0);
			pft_vout_printf(o, "\n");
		}
	}
	if (!json) {
		pft_vout_printf(o, "\n%10s %12s", "calls", "inclusive");
		pft_timing_write_calls_header(v, o);
		pft_vout_printf(o, "  %s\n", "caller -> callee");
	}
	for (size_t i = 0; i < v->nedges; i++) {
		const struct vedge *e = &edges[i];
		if (!views_func_selected(v, &v->funcs[e->caller]))
			continue;
		if (json) {
			pft_vout_printf(o, "{\"type\":\"call\",\"caller\":");
			pft_vout_json(o, fname(&v->funcs[e->caller]));
			json_label(v, o, "caller_label", &v->funcs[e->caller]);
			pft_vout_printf(o, ",\"callee\":");
			pft_vout_json(o, fname(&v->funcs[e->callee]));
			json_label(v, o, "callee_label", &v->funcs[e->callee]);
			pft_vout_printf(o, ",\"calls\":%" PRIu64 ",\"inclusive\":%" PRIu64,
				    e->calls, e->incl);
			pft_timing_write_calls(v, o, &e->stat, 1);
			pft_vout_printf(o, "}\n");
		} else {
			pft_vout_printf(o, "%10" PRIu64 " %12" PRIu64, e->calls, e->incl);
			pft_timing_write_calls(v, o, &e->stat, 0);
			pft_vout_printf(o, "  ");
			pft_vout_plain(o, flabel(v, &v->funcs[e->caller]), 0);
			pft_vout_printf(o, " -> ");
			pft_vout_plain(o, flabel(v, &v->funcs[e->callee]), 0);
			pft_vout_printf(o, "\n");
		}
	}
	free(edges);
	return 0;
}

int pft_views_write(const struct pft_views *v, enum pft_view_format format,
		    const char *test_name,
		    int (*write)(void *ctx, const char *buf, size_t len), void *ctx)
{
	struct vout *o;
	int err = 0;

	if (!v || !write || !v->ready || (unsigned)format >= PFT_VIEW_FORMAT_MAX)
		return -PFT_ERR_INVALID;
	/* An empty lcov file would say "no line ran", not "no lines known". */
	if ((format == PFT_VIEW_LCOV || format == PFT_VIEW_LLVM_SAMPLE) &&
	    !pft_lines_count(v->lines, 0))
		return -PFT_ERR_NOT_FOUND;
	uint8_t *sel = NULL;
	if ((format == PFT_VIEW_LCOV || format == PFT_VIEW_COVERAGE_TEXT ||
	     format == PFT_VIEW_COVERAGE_JSONL) && selected_lines(v, &sel))
		return -PFT_ERR_NOMEM;
	o = malloc(sizeof(*o));
	if (!o) {
		free(sel);
		return -PFT_ERR_NOMEM;
	}
	pft_vout_init(o, write, ctx);
	switch (format) {
	case PFT_VIEW_COVERAGE_TEXT:
		coverage_text(v, o, sel);
		break;
	case PFT_VIEW_COVERAGE_JSONL:
		coverage_jsonl(v, o, sel);
		break;
	case PFT_VIEW_LCOV:
		lcov(v, o, test_name, sel);
		break;
	case PFT_VIEW_ANNOTATE_TEXT:
	case PFT_VIEW_ANNOTATE_JSONL:
		err = pft_views_write_annotate(v, o, format == PFT_VIEW_ANNOTATE_JSONL);
		break;
	case PFT_VIEW_LLVM_SAMPLE:
		err = pft_views_write_sample(v, o);
		break;
	case PFT_VIEW_PROFILE_TEXT:
	case PFT_VIEW_PROFILE_JSONL:
		err = profile(v, o, format == PFT_VIEW_PROFILE_JSONL);
		break;
	case PFT_VIEW_CALLGRIND:
		err = callgrind(v, o);
		break;
	case PFT_VIEW_EXCEPTIONS_TEXT:
	case PFT_VIEW_EXCEPTIONS_JSONL:
		err = pft_timing_write_exceptions(v, o, format == PFT_VIEW_EXCEPTIONS_JSONL);
		break;
	default:
		err = folded(v, o);
		break;
	}
	int werr = pft_vout_end(o);
	free(o);
	free(sel);
	return err ? err : werr;
}

int pft_views_check_format(const struct pft_views_config *cfg, enum pft_view_format format,
			   struct pft_diag *why)
{
	struct pft_lines_file f;
	struct pft_image_section_info sec;

	if (why)
		pft_diag_clear(why);
	if (!cfg || cfg->size < PFT_FIRST_SIZE(struct pft_views_config) ||
	    (unsigned)format >= PFT_VIEW_FORMAT_MAX)
		return -PFT_ERR_INVALID;
	if ((format != PFT_VIEW_LCOV && format != PFT_VIEW_LLVM_SAMPLE) ||
	    pft_lines_count(cfg->lines, 0))
		return 0;
	/* Name the file the lines should have come from: the first ELF file,
	 * else the first file of the image (a memory dump). */
	if (cfg->lines && pft_lines_file(cfg->lines, 0, &f, sizeof(f)) == 0)
		return pft_diag_file(why, -PFT_ERR_NOT_FOUND, f.path,
				     "no DWARF line table (build with -g)");
	for (size_t i = 0; cfg->image && pft_image_section(cfg->image, i, &sec, sizeof(sec)) == 0;
	     i++)
		if (sec.path && sec.elf_segment < 0)
			return pft_diag_file(why, -PFT_ERR_NOT_FOUND, sec.path,
					     "no DWARF line table (a memory dump)");
		else if (sec.path)
			return pft_diag_file(why, -PFT_ERR_NOT_FOUND, sec.path,
					     "its source lines are not read (not loaded into "
					     "the lines)");
	return pft_diag_set(why, -PFT_ERR_NOT_FOUND, "no DWARF line table");
}
