/*
 * A selection of functions by name (pft.h, section views: pft_select_):
 * the address spans of the named functions, sorted and merged, so that an
 * address is looked up by binary search and a range is clipped to them
 * by walking only the ranges that cross a span's edge.
 */
#include <stdlib.h>
#include <string.h>

#include "pft.h"
#include "common/pft_grow.h"
#include "common/pft_size.h"
#include "image/pft_image_int.h"

/* Symbol ranks below this are functions (pft_elf.c, pft_symbols.c). */
enum { FUNCTION_RANKS = 6 };

struct span {
	uint32_t start;
	uint64_t end;             /* exclusive, <= 2^32 */
};

struct pft_select {
	const struct pft_lines *lines;
	struct pft_image *images[PFT_VIEWS_MAX_IMAGES];
	size_t nimages;
	struct span *spans;       /* sorted by start, merged: no overlaps */
	size_t n, cap;
};

struct pft_select *pft_select_alloc(const struct pft_select_config *cfg, int *errcode)
{
	struct pft_select *s = NULL;
	int err = -PFT_ERR_INVALID;

	if (cfg && cfg->size >= PFT_FIRST_SIZE(struct pft_select_config) &&
	    (cfg->images || !cfg->nimages) && cfg->nimages <= PFT_VIEWS_MAX_IMAGES) {
		err = -PFT_ERR_NOMEM;
		s = calloc(1, sizeof(*s));
	}
	if (s) {
		err = 0;
		s->lines = cfg->lines;
		for (size_t i = 0; i < cfg->nimages; i++)
			if (cfg->images[i])
				s->images[s->nimages++] = cfg->images[i];
	}
	if (errcode)
		*errcode = err;
	return s;
}

void pft_select_free(struct pft_select *s)
{
	if (!s)
		return;
	free(s->spans);
	free(s);
}

static int cmp_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

static int add_span(struct pft_select *s, uint32_t start, uint64_t end)
{
	if (end <= start)
		return 0;
	if (pft_grow((void **)&s->spans, &s->cap, s->n + 1, sizeof(*s->spans)))
		return -PFT_ERR_NOMEM;
	s->spans[s->n++] = (struct span){ start, end };
	return 0;
}

/* Sort and merge the spans (overlapping or touching ones become one). */
static void merge(struct pft_select *s)
{
	size_t n = 0;

	qsort(s->spans, s->n, sizeof(*s->spans), cmp_span);
	for (size_t i = 0; i < s->n; i++) {
		if (n && s->spans[i].start <= s->spans[n - 1].end) {
			if (s->spans[i].end > s->spans[n - 1].end)
				s->spans[n - 1].end = s->spans[i].end;
			continue;
		}
		s->spans[n++] = s->spans[i];
	}
	s->n = n;
}

int pft_select_add(struct pft_select *s, const char *name)
{
	struct pft_line_func lf;
	size_t before;
	int found = 0, err = 0;

	if (!s || !name)
		return -PFT_ERR_INVALID;
	before = s->n;
	/* The functions of the line tables (a function with no end is one
	 * whose extent is unknown: it cannot be selected). */
	for (size_t i = 0; !err && s->lines &&
			   pft_lines_function(s->lines, i, &lf, sizeof(lf)) == 0; i++)
		if (lf.name && !strcmp(lf.name, name) && lf.end) {
			err = add_span(s, lf.start, lf.end);
			found++;
		}
	/* The images' function symbols. */
	for (size_t k = 0; !err && k < s->nimages; k++) {
		const struct pft_image *img = s->images[k];
		for (size_t i = 0; !err && i < img->nsyms; i++) {
			const struct pft_image_sym *y = &img->syms[i];
			if (y->rank < FUNCTION_RANKS && y->name && !strcmp(y->name, name)) {
				err = add_span(s, y->start, y->end);
				found++;
			}
		}
	}
	if (err) {
		s->n = before;
		return err;
	}
	if (!found)
		return -PFT_ERR_NOT_FOUND;
	merge(s);
	return found;
}

size_t pft_select_count(const struct pft_select *s)
{
	return s ? s->n : 0;
}

/* The first span that ends after @addr (s->n: none). */
static size_t span_after(const struct pft_select *s, uint32_t addr)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->spans[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int pft_select_contains(const struct pft_select *s, uint32_t addr)
{
	if (!s)
		return 1;
	size_t i = span_after(s, addr);
	return i < s->n && s->spans[i].start <= addr;
}

int pft_select_overlaps(const struct pft_select *s, uint32_t start, uint64_t end)
{
	if (!s)
		return 1;
	size_t i = span_after(s, start);
	return i < s->n && s->spans[i].start < end;
}

/* A piece of @e: instructions @start .. @last (@n of them), ending at
 * @end; the last instruction's class and direction only when it is
 * @e's last. */
static void piece(const struct pft_elem *e, struct pft_elem *out, uint32_t start,
		  uint32_t last, uint32_t end, uint32_t n, uint8_t iclass)
{
	*out = *e;
	out->start = start;
	out->last = last;
	out->end = end;
	out->ninsn = n;
	if (last != e->last) {
		out->taken = 0;
		out->iclass = iclass;
		out->flags &= (uint8_t)~PFT_ELEM_F_FAILED;
		out->has_cycles = 0;
		out->cycles = 0;
	}
}

int pft_select_clip(const struct pft_select *s, struct pft_image *image,
		    const struct pft_elem *e, struct pft_elem *out, size_t max, size_t size)
{
	struct pft_insn_iter it;
	struct pft_insn insn;
	size_t n = 0;
	int got, open = 0;
	uint32_t start = 0, last = 0, end = 0, count = 0;
	uint8_t iclass = 0;

	if (!s || !e || (!out && max) || size < PFT_FIRST_SIZE(struct pft_elem) ||
	    size > sizeof(struct pft_elem) || e->type != PFT_ELEM_RANGE)
		return -PFT_ERR_INVALID;
	size_t i = span_after(s, e->start);
	if (i == s->n || s->spans[i].start >= (uint64_t)e->end)
		return 0;                            /* wholly outside */
	if (s->spans[i].start <= e->start && s->spans[i].end >= e->end) {
		if (!max)
			return -PFT_ERR_NOSPACE;
		pft_copy_known(out, e, size, sizeof(*e));   /* wholly inside */
		return 1;
	}
	if (pft_insn_iter_init(&it, image, e))
		return -PFT_ERR_INVALID;
	while ((got = pft_insn_iter_next(&it, &insn, sizeof(insn))) == 1) {
		int in = pft_select_contains(s, insn.addr);
		if (in && !open) {
			open = 1;
			start = insn.addr;
			count = 0;
		}
		if (in) {
			last = insn.addr;
			end = insn.addr + insn.size;
			iclass = insn.iclass;
			count++;
		}
		if (open && (!in || it.left == 0)) {
			struct pft_elem p;
			if (n == max)
				return -PFT_ERR_NOSPACE;
			piece(e, &p, start, last, end, count, iclass);
			pft_copy_known((uint8_t *)out + n * size, &p, size, sizeof(p));
			n++;
			open = 0;
		}
	}
	return got < 0 ? got : (int)n;
}

int pft_select_event(const struct pft_select *s, const struct pft_call_event *ev)
{
	if (!s || !ev)
		return 1;
	/* A return made by another function's branch (a longjmp unwinding
	 * the frame) or by none (the end of the trace) passes by the
	 * functions it leaves and returns to, as its call passed by them. */
	int ret = ev->kind == PFT_CALL_RETURN || ev->kind == PFT_CALL_EXCEPTION_RETURN;
	return (ev->site && pft_select_contains(s, ev->site)) ||
	       (ev->target && pft_select_contains(s, ev->target)) ||
	       (ret && ev->callee && pft_select_contains(s, ev->callee)) ||
	       (ret && ev->caller && pft_select_contains(s, ev->caller));
}
