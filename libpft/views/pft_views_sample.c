/*
 * The LLVM sample profile (pft.h, section views: PFT_VIEW_LLVM_SAMPLE), in
 * the text form llvm-profdata reads: for each function with DWARF that
 * ran, a tree of the functions inlined into it (from the inline stack of
 * each instruction, pft_lines_frames()), each node with its body records
 * (line offset from its function's declaration line, base discriminator:
 * the executions of that source location) and call targets.
 *
 * A record's count is the most any of its instructions ran, each weighed
 * by its discriminator's duplication factor (an unrolled or vectorised
 * copy runs a share of the source's iterations): the times the source
 * location ran, which is what the compiler's sample loader reads as a
 * block's weight.  The discriminators are LLVM's encoding (base,
 * duplication factor, copy: llvm/Support/Discriminator.h describes it).
 * Memory: one function's tree at a time.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "views/pft_views.h"

/* LLVM's prefix encoding of one discriminator component. */
static unsigned disc_component(unsigned u)
{
	if (u & 1)
		return 0;
	u >>= 1;
	return (u & 0x20) ? (((u >> 1) & 0xfe0) | (u & 0x1f)) : (u & 0x1f);
}

static unsigned disc_next(unsigned d)
{
	return (d & 1) == 0 ? d >> ((d & 0x40) ? 14 : 7) : d >> 1;
}

static unsigned disc_base(unsigned d)
{
	return disc_component(d);
}

static unsigned disc_dup_factor(unsigned d)
{
	unsigned f = disc_component(disc_next(d));

	return f ? f : 1;
}

/* A source location's offset, as LLVM computes it (16 bits). */
static uint32_t line_offset(uint32_t line, uint32_t decl)
{
	return (line - decl) & 0xffff;
}

struct snode {
	const char *name;
	uint32_t decl;            /* its function's declaration line */
	uint32_t parent;          /* VNONE: the root */
	uint32_t offset, disc;    /* the call site in the parent */
	uint64_t total;
};

struct srec {
	uint32_t node, offset, disc;
	const char *target;       /* a call target; NULL: a body record */
	uint64_t count;
	uint64_t cur;             /* a body record: the most in the function
				   * being collected (added to @count after it) */
};

struct sample {
	struct snode *nodes;
	size_t nnodes, cap_nodes;
	struct srec *recs;
	size_t nrecs, cap_recs;
};

static int child_of(struct sample *s, uint32_t parent, uint32_t offset, uint32_t disc,
		    const struct pft_line_frame *callee, uint32_t *index)
{
	for (size_t i = 0; i < s->nnodes; i++) {
		const struct snode *n = &s->nodes[i];
		if (n->parent == parent && n->offset == offset && n->disc == disc &&
		    !strcmp(n->name, callee->name)) {
			*index = (uint32_t)i;
			return 0;
		}
	}
	if (pft_grow((void **)&s->nodes, &s->cap_nodes, s->nnodes + 1, sizeof(*s->nodes)))
		return -PFT_ERR_NOMEM;
	s->nodes[s->nnodes] = (struct snode){ .name = callee->name, .decl = callee->decl_line,
					      .parent = parent, .offset = offset, .disc = disc };
	*index = (uint32_t)s->nnodes++;
	return 0;
}

/* Add @count to record (@node, @offset, @disc, @target): the sum for a
 * call target, the most for a body record (within one function; the
 * functions of one name add up, fold_function()). */
static int add_rec(struct sample *s, uint32_t node, uint32_t offset, uint32_t disc,
		   const char *target, uint64_t count)
{
	for (size_t i = s->nrecs; i-- > 0;) {
		struct srec *r = &s->recs[i];
		if (r->node == node && r->offset == offset && r->disc == disc &&
		    (r->target == target || (r->target && target && !strcmp(r->target, target)))) {
			if (target)
				r->count += count;
			else if (count > r->cur)
				r->cur = count;
			return 0;
		}
	}
	if (pft_grow((void **)&s->recs, &s->cap_recs, s->nrecs + 1, sizeof(*s->recs)))
		return -PFT_ERR_NOMEM;
	s->recs[s->nrecs++] = target ? (struct srec){ node, offset, disc, target, count, 0 }
				     : (struct srec){ node, offset, disc, NULL, 0, count };
	return 0;
}

/* The end of one function's records. */
static void fold_function(struct sample *s)
{
	for (size_t i = 0; i < s->nrecs; i++) {
		s->recs[i].count += s->recs[i].cur;
		s->recs[i].cur = 0;
	}
}

enum { MAX_FRAMES = 32 };

/* The node of the innermost frame of @f (@n frames), made on the way, and
 * its location in *@offset, *@disc.  Returns 0, 1 (the location has no
 * line: nothing to record) or -PFT_ERR_NOMEM. */
static int leaf_of(struct sample *s, const struct pft_line_frame *f, int n, uint32_t *node,
		   uint32_t *offset, uint32_t *disc)
{
	uint32_t at = 0;

	for (int i = 0; i + 1 < n; i++) {
		if (!f[i].line || !f[i + 1].name)
			return 1;
		int err = child_of(s, at, line_offset(f[i].line, f[i].decl_line),
				   disc_base(f[i].discriminator), &f[i + 1], &at);
		if (err)
			return err;
	}
	if (!f[n - 1].line)
		return 1;
	*node = at;
	*offset = line_offset(f[n - 1].line, f[n - 1].decl_line);
	*disc = disc_base(f[n - 1].discriminator);
	return 0;
}

static int cmp_rec(const void *a, const void *b)
{
	const struct srec *x = a, *y = b;

	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	if (x->disc != y->disc)
		return x->disc < y->disc ? -1 : 1;
	if (!x->target != !y->target)
		return x->target ? 1 : -1;   /* the body record first */
	return x->target ? strcmp(x->target, y->target) : 0;
}

static void indent(struct vout *o, unsigned depth)
{
	for (unsigned i = 0; i < depth; i++)
		pft_vout_printf(o, " ");
}

static void location(struct vout *o, uint32_t offset, uint32_t disc)
{
	pft_vout_printf(o, "%" PRIu32, offset);
	if (disc)
		pft_vout_printf(o, ".%" PRIu32, disc);
	pft_vout_printf(o, ": ");
}

/* Node @n's records and inlined call sites, at @depth (recs sorted). */
static void write_node(const struct sample *s, struct vout *o, uint32_t n, unsigned depth)
{
	for (size_t i = 0; i < s->nrecs;) {
		const struct srec *r = &s->recs[i];
		if (r->node != n) {
			i++;
			continue;
		}
		/* A location: its body count, then its call targets. */
		size_t j = i;
		uint64_t body = 0, calls = 0;
		for (; j < s->nrecs && s->recs[j].node == n && s->recs[j].offset == r->offset &&
		       s->recs[j].disc == r->disc; j++) {
			if (s->recs[j].target)
				calls += s->recs[j].count;
			else
				body = s->recs[j].count;
		}
		indent(o, depth);
		location(o, r->offset, r->disc);
		pft_vout_printf(o, "%" PRIu64, body > calls ? body : calls);
		for (size_t k = i; k < j; k++)
			if (s->recs[k].target) {
				pft_vout_printf(o, " ");
				pft_vout_plain(o, s->recs[k].target, 1);
				pft_vout_printf(o, ":%" PRIu64, s->recs[k].count);
			}
		pft_vout_printf(o, "\n");
		i = j;
	}
	/* Its inlined call sites, by location. */
	for (;;) {
		uint32_t best = VNONE;
		for (size_t c = 0; c < s->nnodes; c++) {
			const struct snode *x = &s->nodes[c];
			if (x->parent != n || !x->total || x->offset == UINT32_MAX)
				continue;
			if (best == VNONE || x->offset < s->nodes[best].offset ||
			    (x->offset == s->nodes[best].offset &&
			     (x->disc < s->nodes[best].disc ||
			      (x->disc == s->nodes[best].disc &&
			       strcmp(x->name, s->nodes[best].name) < 0))))
				best = (uint32_t)c;
		}
		if (best == VNONE)
			break;
		struct snode *x = &s->nodes[best];
		indent(o, depth);
		location(o, x->offset, x->disc);
		pft_vout_plain(o, x->name, 1);
		pft_vout_printf(o, ":%" PRIu64 "\n", x->total);
		write_node(s, o, best, depth + 1);
		x->offset = UINT32_MAX;   /* written */
	}
}

/* Add function @fi's records (its instructions @order[@k .. @end)) to
 * @s, whose root is the function of that profile name. */
static int collect_function(const struct pft_views *v, struct sample *s,
			    const struct vsite *sites, size_t nsites, const uint32_t *order,
			    size_t k, size_t end)
{
	struct pft_line_frame f[MAX_FRAMES];
	uint32_t node = 0, offset = 0, disc = 0;
	int n, err = 0;

	for (size_t i = k; i < end && !err; i++) {
		const struct vaddr *a = &v->addrs[order[i]];
		if (!a->count || (n = pft_lines_frames(v->lines, a->addr, f, MAX_FRAMES,
						       sizeof(*f))) <= 0 || !f[0].name)
			continue;
		if (!s->nnodes) {
			if (pft_grow((void **)&s->nodes, &s->cap_nodes, 1, sizeof(*s->nodes)))
				return -PFT_ERR_NOMEM;
			s->nodes[0] = (struct snode){ .name = f[0].name, .decl = f[0].decl_line,
						      .parent = VNONE };
			s->nnodes = 1;
		}
		if (strcmp(f[0].name, s->nodes[0].name))
			continue;   /* another function's code (an alias region) */
		err = leaf_of(s, f, n, &node, &offset, &disc);
		/* The prologue's count is the head count: no body record
		 * (the compiler's sample loader finds no instruction of the
		 * prologue's line in its code, which has no prologue yet). */
		if (!err && !f[n - 1].prologue)
			err = add_rec(s, node, offset, disc, NULL,
				      a->count * disc_dup_factor(f[n - 1].discriminator));
		/* The calls made here. */
		size_t lo = 0, hi = nsites;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (sites[mid].site < a->addr)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; !err && lo < nsites && sites[lo].site == a->addr; lo++) {
			struct pft_line_frame callee;
			const struct vfunc *c = &v->funcs[sites[lo].callee];
			const char *name = c->name;
			if (c->name && pft_lines_frames(v->lines, c->start, &callee, 1,
							sizeof(callee)) == 1 && callee.name)
				name = callee.name;
			if (name)
				err = add_rec(s, node, offset, disc, name, sites[lo].calls);
		}
		if (err == 1)
			err = 0;
	}
	return err;
}

/* Write the profile collected in @s, entered @head times. */
static void write_profile(struct sample *s, struct vout *o, uint64_t head)
{
	if (!s->nnodes)
		return;
	/* Totals: children come after their parents. */
	for (size_t i = 0; i < s->nrecs; i++)
		if (!s->recs[i].target)
			s->nodes[s->recs[i].node].total += s->recs[i].count;
	for (size_t i = s->nnodes; i-- > 1;)
		s->nodes[s->nodes[i].parent].total += s->nodes[i].total;
	if (!s->nodes[0].total)
		return;
	qsort(s->recs, s->nrecs, sizeof(*s->recs), cmp_rec);
	pft_vout_plain(o, s->nodes[0].name, 1);
	pft_vout_printf(o, ":%" PRIu64 ":%" PRIu64 "\n", s->nodes[0].total, head);
	write_node(s, o, 0, 1);
}

/* A function to profile: its profile name (the compiler's), its index. */
struct named_func {
	const char *name;
	uint32_t start, index;
};

static int cmp_named(const void *a, const void *b)
{
	const struct named_func *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->start > y->start) - (x->start < y->start);
}

static int cmp_site(const void *a, const void *b)
{
	const struct vsite *x = a, *y = b;

	return (x->site > y->site) - (x->site < y->site);
}

int pft_views_write_sample(const struct pft_views *v, struct vout *o)
{
	struct sample s = { 0 };
	uint32_t *order;
	size_t *first;
	struct vsite *sites = malloc((v->nsites ? v->nsites : 1) * sizeof(*sites));
	int err = sites ? pft_views_by_function(v, &order, &first) : -PFT_ERR_NOMEM;

	if (err) {
		free(sites);
		return err;
	}
	if (v->nsites)
		memcpy(sites, v->sites, v->nsites * sizeof(*sites));
	if (v->nsites)
		qsort(sites, v->nsites, sizeof(*sites), cmp_site);
	/* The functions with DWARF that ran, by profile name: static functions
	 * of one name in several files are one profile, as the compiler
	 * knows them by that name in each (their records add up). */
	struct named_func *funcs = malloc((v->nfuncs ? v->nfuncs : 1) * sizeof(*funcs));
	size_t n = 0;
	if (!funcs)
		err = -PFT_ERR_NOMEM;
	for (size_t i = 0; !err && i < v->nfuncs; i++) {
		uint32_t fi = v->order[i];
		const struct vfunc *f = &v->funcs[fi];
		struct pft_line_frame top;
		if (!f->name || !f->shared || !views_func_selected(v, f))
			continue;
		for (size_t k = first[fi]; k < first[fi + 1]; k++) {
			const struct vaddr *a = &v->addrs[order[k]];
			if (a->count && pft_lines_frames(v->lines, a->addr, &top, 1, sizeof(top)) == 1 &&
			    top.name) {
				funcs[n++] = (struct named_func){ top.name, f->start, fi };
				break;
			}
		}
	}
	if (n)
		qsort(funcs, n, sizeof(*funcs), cmp_named);
	for (size_t i = 0, j; !err && i < n && !o->err; i = j) {
		uint64_t head = 0;
		s.nnodes = 0;
		s.nrecs = 0;
		for (j = i; !err && j < n && !strcmp(funcs[j].name, funcs[i].name); j++) {
			uint32_t fi = funcs[j].index;
			head += v->funcs[fi].entered;
			err = collect_function(v, &s, sites, v->nsites, order, first[fi], first[fi + 1]);
			fold_function(&s);
		}
		if (!err)
			write_profile(&s, o, head);
	}
	free(funcs);
	free(s.nodes);
	free(s.recs);
	free(order);
	free(first);
	free(sites);
	return err;
}
