/*
 * Function names a reader can tell apart (pft.h, section views): the
 * program's functions (the line tables' and the images' function
 * symbols) are gathered once, and those whose name another function (at
 * another start) has get a label.  Only those are kept: memory follows
 * the program's ambiguous names.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pft.h"
#include "image/pft_image_int.h"
#include "common/pft_size.h"

struct named {
	const char *name;         /* borrowed from the lines or an image */
	const char *file;         /* declaration file, NULL: unknown */
	uint32_t start;
	char *label;              /* owned; only for ambiguous names */
};

struct pft_names {
	struct named *ambiguous;  /* sorted by (name, start) */
	size_t n;
};

/* Symbol ranks below this are functions (pft_elf.c, pft_symbols.c). */
enum { FUNCTION_RANKS = 6 };

static int by_name_start(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return (x->start > y->start) - (x->start < y->start);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* Whether @e's file's base name is known and no other of group @g (@n
 * entries) has it. */
static int file_tells_apart(const struct named *g, size_t n, const struct named *e)
{
	if (!e->file)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (&g[i] != e && g[i].file && !strcmp(base_name(g[i].file), base_name(e->file)))
			return 0;
	return 1;
}

static char *make_label(const struct named *g, size_t n, const struct named *e)
{
	int by_file = file_tells_apart(g, n, e);
	const char *file = by_file ? base_name(e->file) : "";
	size_t size = strlen(e->name) + strlen(file) + 16;
	char *label = malloc(size);

	if (!label)
		return NULL;
	if (by_file)
		snprintf(label, size, "%s (%s)", e->name, file);
	else
		snprintf(label, size, "%s@0x%08x", e->name, (unsigned)e->start);
	return label;
}

/* Every function of the lines and images, in *@all (@n). */
static int gather(const struct pft_names_config *cfg, struct named **all, size_t *n)
{
	struct pft_line_func lf;
	size_t cap = 0;

	*all = NULL;
	*n = 0;
	if (cfg->lines)
		cap += pft_lines_count(cfg->lines, 1);
	for (size_t i = 0; i < cfg->nimages; i++)
		if (cfg->images[i])
			cap += cfg->images[i]->nsyms;
	if (!cap)
		return 0;
	*all = malloc(cap * sizeof(**all));
	if (!*all)
		return -PFT_ERR_NOMEM;
	for (size_t i = 0; cfg->lines && pft_lines_function(cfg->lines, i, &lf, sizeof(lf)) == 0;
	     i++)
		if (lf.name && *n < cap)
			(*all)[(*n)++] = (struct named){ .name = lf.name, .file = lf.file,
							 .start = lf.start };
	for (size_t i = 0; i < cfg->nimages; i++) {
		const struct pft_image *img = cfg->images[i];
		for (size_t k = 0; img && k < img->nsyms; k++) {
			const struct pft_image_sym *s = &img->syms[k];
			if (s->rank < FUNCTION_RANKS && s->name && *s->name && *n < cap)
				(*all)[(*n)++] = (struct named){ .name = s->name, .start = s->start };
		}
	}
	return 0;
}

/* The end of the group of @all[@i]'s name (@n entries, sorted). */
static size_t group_end(const struct named *all, size_t n, size_t i)
{
	size_t j = i + 1;

	while (j < n && !strcmp(all[i].name, all[j].name))
		j++;
	return j;
}

/* Sort @all (@n), one entry per (name, start) (a file kept), and move the
 * names of two or more starts to the front: their count in *@kept. */
static void keep_ambiguous(struct named *all, size_t n, size_t *kept)
{
	size_t u = 0;

	if (n)
		qsort(all, n, sizeof(*all), by_name_start);
	for (size_t i = 0; i < n; i++) {
		if (u && !by_name_start(&all[u - 1], &all[i])) {
			if (!all[u - 1].file)
				all[u - 1].file = all[i].file;
			continue;
		}
		all[u++] = all[i];
	}
	*kept = 0;
	for (size_t i = 0, j; i < u; i = j) {
		j = group_end(all, u, i);
		if (j - i >= 2)
			for (size_t k = i; k < j; k++)
				all[(*kept)++] = all[k];
	}
}

static int label_all(struct named *all, size_t n)
{
	for (size_t i = 0, j; i < n; i = j) {
		j = group_end(all, n, i);
		for (size_t k = i; k < j; k++)
			if (!(all[k].label = make_label(&all[i], j - i, &all[k])))
				return -PFT_ERR_NOMEM;
	}
	return 0;
}

struct pft_names *pft_names_alloc(const struct pft_names_config *cfg, int *errcode)
{
	struct pft_names *names = NULL;
	struct named *all = NULL;
	size_t n = 0, kept = 0;
	int err = -PFT_ERR_INVALID;

	if (cfg && cfg->size >= PFT_FIRST_SIZE(struct pft_names_config) &&
	    (cfg->images || !cfg->nimages)) {
		err = gather(cfg, &all, &n);
		if (!err) {
			keep_ambiguous(all, n, &kept);
			err = label_all(all, kept);
		}
		if (!err && !(names = calloc(1, sizeof(*names))))
			err = -PFT_ERR_NOMEM;
	}
	if (err) {
		for (size_t i = 0; i < kept; i++)
			free(all[i].label);
		free(all);
	} else if (kept) {
		struct named *fit = realloc(all, kept * sizeof(*all));
		names->ambiguous = fit ? fit : all;
		names->n = kept;
	} else {
		free(all);
	}
	if (errcode)
		*errcode = err;
	return names;
}

void pft_names_free(struct pft_names *names)
{
	if (!names)
		return;
	for (size_t i = 0; i < names->n; i++)
		free(names->ambiguous[i].label);
	free(names->ambiguous);
	free(names);
}

const char *pft_names_label(const struct pft_names *names, const char *name, uint32_t start)
{
	struct named key = { .name = name, .start = start }, *e;

	if (!names || !name || !names->n)
		return name;
	e = bsearch(&key, names->ambiguous, names->n, sizeof(key), by_name_start);
	return e ? e->label : name;
}
