/*
 * The views accumulator: counts ranges (distinct ranges, not the trace, so
 * memory follows the code), self instructions per function and per
 * calling-context node, calls per caller -> callee edge.  Instructions are
 * resolved to addresses, lines and branches once, at finish.
 */
#include <stdlib.h>
#include <string.h>

#include "views/pft_calls.h"
#include "views/pft_views.h"
#include "common/pft_size.h"

/*
 * Bounds (issue 12).  Each put costs O(1) amortized plus the range's
 * instructions when it leaves its function (hash maps; the calls stack
 * forgets frames in O(1), push_frame()).  Memory, whatever the trace:
 *  - functions: one per function of @lines or symbol of the images the
 *    code ran in (at most PFT_VIEWS_MAX_IMAGES), plus "[unknown]" (the
 *    images bound them);
 *  - the pieces of the ranges that leave their function: at most
 *    VSEG_MAX per distinct range (split_range());
 *  - distinct ranges, calling-context nodes and caller -> callee edges:
 *    at most MAX_TABLE each (about 50 MB a table), as a hostile trace
 *    would otherwise grow them with its length (a recursion makes a node
 *    per level, ranges of every length at every address a range each).
 *    Past it the counting goes on coarser (struct pft_views_cut): a
 *    function's further contexts share one node per function, calls of
 *    further edges are not counted per edge, instructions of further
 *    ranges count for their function but not per instruction;
 *  - each source's stack: at most 4 (max_depth + 1) frames;
 *  - after finish: one entry per executed instruction and per line.
 */
enum { MAX_TABLE = 1 << 20 };

static int add_func(struct pft_views *v, uint64_t key, const struct vfunc *f,
		    uint32_t *index)
{
	if (pft_grow((void **)&v->funcs, &v->cap_funcs, v->nfuncs + 1, sizeof(*v->funcs)) ||
	    pft_vmap_put(&v->func_map, key, (uint32_t)v->nfuncs))
		return -PFT_ERR_NOMEM;
	v->funcs[v->nfuncs] = *f;
	*index = (uint32_t)v->nfuncs++;
	return 0;
}

uint64_t pft_vfunc_find(const struct pft_lines *lines, const struct pft_image *img,
			unsigned image, uint32_t addr, struct vfunc *f)
{
	struct pft_line_func lf;
	struct pft_image_symbol sym;

	if (lines && pft_lines_function_at(lines, addr, &lf, sizeof(lf)) == 0) {
		*f = (struct vfunc){ .name = lf.name, .file = lf.file, .start = lf.start,
				     .end = lf.end, .line = lf.line, .shared = 1 };
		return f->start;
	}
	if (pft_image_symbol_at(img, addr, &sym, sizeof(sym)) == 0) {
		*f = (struct vfunc){ .name = sym.name, .start = sym.start, .end = sym.end,
				     .image = (uint8_t)image };
		return f->start | (uint64_t)image << VFUNC_IMAGE_KEY_SHIFT;
	}
	*f = (struct vfunc){ 0 };
	return VFUNC_UNKNOWN_KEY;
}

/* The index of the function around @addr in image @image, added on first
 * sight; each address is looked up once.  The functions of the line
 * tables (the --elf files every image holds) are shared by all images,
 * a symbol of an image's own is that image's. */
static int func_index(struct pft_views *v, unsigned image, uint32_t addr, uint32_t *index)
{
	struct vfunc f;
	uint64_t addr_key = addr | (uint64_t)image << 32;

	if (pft_vmap_find(&v->addr_func_map, addr_key, index))
		return 0;
	uint64_t key = pft_vfunc_find(v->lines, v->images[image], image, addr, &f);
	if (!pft_vmap_find(&v->func_map, key, index)) {
		int err = add_func(v, key, &f, index);
		if (err)
			return err;
	}
	return pft_vmap_put(&v->addr_func_map, addr_key, *index);
}

/* The parent key of the nodes past the table's limit: one per function. */
enum { VCUT = UINT32_MAX - 1 };

static int node_of(struct pft_views *v, uint32_t parent, uint32_t func, uint32_t *index)
{
	uint64_t key = (uint64_t)parent << 32 | func;

	if (pft_vmap_find(&v->node_map, key, index))
		return 0;
	int cut = v->nnodes >= MAX_TABLE;
	if (cut) {
		/* Full: the function's contexts from here on are one, a
		 * root (the functions bound how many such there are). */
		key = (uint64_t)VCUT << 32 | func;
		if (pft_vmap_find(&v->node_map, key, index))
			return 0;
		parent = VNONE;
		v->cut_contexts++;
	}
	if (pft_grow((void **)&v->nodes, &v->cap_nodes, v->nnodes + 1, sizeof(*v->nodes)) ||
	    pft_vmap_put(&v->node_map, key, (uint32_t)v->nnodes))
		return -PFT_ERR_NOMEM;
	v->nodes[v->nnodes] = (struct vnode){ .parent = parent, .func = func, .cut = (uint8_t)cut };
	*index = (uint32_t)v->nnodes++;
	return 0;
}

static int edge_of(struct pft_views *v, uint32_t caller, uint32_t callee, uint32_t *index)
{
	uint64_t key = (uint64_t)caller << 32 | callee;

	if (pft_vmap_find(&v->edge_map, key, index))
		return 0;
	if (v->nedges == MAX_TABLE) {
		*index = VNONE;   /* its calls are counted, not per edge */
		return 0;
	}
	if (pft_grow((void **)&v->edges, &v->cap_edges, v->nedges + 1, sizeof(*v->edges)) ||
	    pft_vmap_put(&v->edge_map, key, (uint32_t)v->nedges))
		return -PFT_ERR_NOMEM;
	v->edges[v->nedges] = (struct vedge){ .caller = caller, .callee = callee };
	*index = (uint32_t)v->nedges++;
	return 0;
}

/* The call site at @site into function @callee (VNONE in *@index past
 * the table's limit: its calls are counted per edge only). */
static int site_of(struct pft_views *v, uint32_t site, uint32_t callee, uint32_t *index)
{
	uint64_t key = (uint64_t)callee << 32 | site;

	if (pft_vmap_find(&v->site_map, key, index))
		return 0;
	if (v->nsites == MAX_TABLE) {
		*index = VNONE;
		return 0;
	}
	if (pft_grow((void **)&v->sites, &v->cap_sites, v->nsites + 1, sizeof(*v->sites)) ||
	    pft_vmap_put(&v->site_map, key, (uint32_t)v->nsites))
		return -PFT_ERR_NOMEM;
	v->sites[v->nsites] = (struct vsite){ .site = site, .callee = callee };
	*index = (uint32_t)v->nsites++;
	return 0;
}

struct pft_views *pft_views_alloc(const struct pft_views_config *cfg, int *errcode)
{
	struct pft_views *v = NULL;
	int err = -PFT_ERR_INVALID;

	if (cfg && cfg->size >= PFT_FIRST_SIZE(struct pft_views_config) && cfg->image) {
		err = -PFT_ERR_NOMEM;
		v = calloc(1, sizeof(*v));
	}
	if (v) {
		struct pft_line_func lf;
		uint32_t index;

		v->images[0] = cfg->image;
		v->nimages = 1;
		v->lines = cfg->lines;
		v->max_depth = cfg->max_depth;
		if (cfg->size > offsetof(struct pft_views_config, insns_only))
			v->insns_only = cfg->insns_only != 0;
		if (cfg->size > offsetof(struct pft_views_config, no_contexts))
			v->no_contexts = !v->insns_only && cfg->no_contexts != 0;
		v->exclude_exceptions = cfg->exclude_exceptions != 0;
		if (cfg->size >= offsetof(struct pft_views_config, clock_hz) + sizeof(cfg->clock_hz))
			v->clock_hz = cfg->clock_hz;
		err = 0;
		/* Every function of the line tables, to list those never run. */
		for (size_t i = 0; !err && pft_lines_function(v->lines, i, &lf, sizeof(lf)) == 0; i++) {
			struct vfunc f = { .name = lf.name, .file = lf.file, .start = lf.start,
					   .end = lf.end, .line = lf.line, .shared = 1 };
			err = add_func(v, f.start, &f, &index);
		}
		if (err) {
			pft_views_free(v);
			v = NULL;
		}
	}
	if (errcode)
		*errcode = err;
	return v;
}

void pft_views_free(struct pft_views *v)
{
	if (!v)
		return;
	pft_timing_free(v);
	free(v->fold);
	for (size_t i = 0; i < 128; i++)
		if (v->sources[i]) {
			pft_calls_free(v->sources[i]->calls);
			free(v->sources[i]->stack);
			free(v->sources[i]);
		}
	free(v->funcs);
	pft_vmap_free(&v->func_map);
	pft_vmap_free(&v->addr_func_map);
	free(v->ranges);
	pft_vmap_free(&v->range_map);
	free(v->segs);
	free(v->nodes);
	pft_vmap_free(&v->node_map);
	free(v->edges);
	pft_vmap_free(&v->edge_map);
	free(v->sites);
	pft_vmap_free(&v->site_map);
	free(v->addrs);
	free(v->vlines);
	free(v->order);
	pft_names_free(v->names);
	free(v);
}

/* Frame @k of @s (0: the root) is stack[base + k]. */
static struct vframe *frame_at(const struct vsource *s, size_t k)
{
	return &s->stack[s->base + k];
}

/* At most 4 (max_depth + 1) frames of memory: the frames move down only
 * when the base (frames forgotten, forget_oldest()) has passed their
 * number, so that each call costs O(1) amortized at the depth limit. */
/* The new top frame, for the caller to fill in field by field (a whole
 * struct passed by value went through the stack: a store-forwarding
 * stall a call); NULL when out of memory. */
static struct vframe *push_frame(struct vsource *s)
{
	if (s->base && s->base >= s->n && s->base + s->n == s->cap) {
		memmove(&s->stack[0], &s->stack[s->base], s->n * sizeof(*s->stack));
		s->base = 0;
	}
	if (pft_grow((void **)&s->stack, &s->cap, s->base + s->n + 1, sizeof(*s->stack)))
		return NULL;
	return frame_at(s, s->n++);
}

/* The tracker forgot its oldest call frame (max_depth): so do we (the
 * root moves over it). */
static void forget_oldest(struct vsource *s)
{
	s->stack[s->base + 1] = s->stack[s->base];
	s->base++;
	s->n--;
}

/* The outermost frame, made at the first sight of code. */
static int ensure_root(struct pft_views *v, struct vsource *s, uint32_t addr)
{
	uint32_t f, node;
	int err;

	if (s->n)
		return 0;
	err = func_index(v, s->image, addr, &f);
	if (!err)
		err = node_of(v, VNONE, f, &node);
	if (!err) {
		struct vframe *f = push_frame(s);
		if (!f)
			return -PFT_ERR_NOMEM;
		*f = (struct vframe){ .node = node, .edge = VNONE, .site = VNONE, .func = VNONE,
				      .tails = (uint32_t)s->ntails };
	}
	return err;
}

static void close_frame(struct pft_views *v, const struct vframe *f, uint64_t insns)
{
	if (f->edge != VNONE)
		v->edges[f->edge].incl += insns - f->entry;
	if (f->site != VNONE)
		v->sites[f->site].incl += insns - f->entry;
}

/* call_dest() when @m does not have it. */
static int __attribute__((noinline))
find_call_dest(struct pft_views *v, struct vsource *s, uint32_t from, uint32_t target,
	       uint32_t site, int tail, struct vcall_memo *m, struct vcall_memo *out)
{
	uint32_t parent = tail ? v->nodes[from].parent : from;
	int err;

	*out = (struct vcall_memo){ .from = from, .target = target, .site = site,
				    .site_index = VNONE, .tail = (uint8_t)tail };
	err = func_index(v, s->image, target, &out->func);
	if (!err)
		err = node_of(v, parent, out->func, &out->node);
	if (!err)
		err = edge_of(v, v->nodes[from].func, out->func, &out->edge);
	if (!err && site)
		err = site_of(v, site, out->func, &out->site_index);
	if (!err && target)
		*m = *out;
	return err;
}

/* The function, node and edge a call (@tail 0) from node @from, or a
 * tail call replacing it, into @target leads to.  Inline: the caller's
 * copy is then in registers, not read back from memory the memo's copy
 * was just stored to (a store forwarding stall). */
static inline __attribute__((always_inline)) int
call_dest(struct pft_views *v, struct vsource *s, uint32_t from, uint32_t target, uint32_t site,
	  int tail, struct vcall_memo *out)
{
	struct vcall_memo *m = &v->call_memo[((target >> 1) ^ from * 0x9e3779b1u ^ (site >> 1) ^
					      (uint32_t)tail) % VCALL_MEMO_SIZE];

	if (target && m->target == target && m->from == from && m->site == site &&
	    m->tail == tail) {
		*out = (struct vcall_memo){ .from = from, .target = target, .site = site,
					    .func = m->func, .node = m->node, .edge = m->edge,
					    .site_index = m->site_index, .tail = (uint8_t)tail };
		return 0;
	}
	return find_call_dest(v, s, from, target, site, tail, m, out);
}

/* Count the call of edge @d, and an entry of its function when @target is
 * its first address (a call's target 0 is none). */
static inline __attribute__((always_inline)) void
count_call(struct pft_views *v, const struct vcall_memo *d, uint32_t target)
{
	struct vfunc *f = &v->funcs[d->func];

	if (d->edge != VNONE)
		v->edges[d->edge].calls++;
	else
		v->cut_calls++;
	if (d->site_index != VNONE)
		v->sites[d->site_index].calls++;
	if (vfunc_entered(f, target, d->tail))
		f->entered++;
}

/* A call (or exception) into @target at event time @insns: a new frame. */
static int enter(struct pft_views *v, struct vsource *s, const struct pft_call_event *ev)
{
	struct vcall_memo d;
	uint32_t from = frame_at(s, s->n - 1)->node;
	int err = call_dest(v, s, from, ev->target, ev->site, 0, &d);

	if (!err && ev->kind == PFT_CALL_EXCEPTION)
		err = pft_timing_exception(v, ev, v->nodes[from].func);
	if (err)
		return err;
	count_call(v, &d, ev->target);
	struct vframe *f = push_frame(s);
	if (!f)
		return -PFT_ERR_NOMEM;
	f->node = d.node;
	f->edge = d.edge;
	f->site = d.site_index;
	f->entry = ev->insns;
	pft_timing_enter(v, s, f, ev, d.func);
	return 0;
}

/* The top frame of @s closes at event @ev. */
static void close_top(struct pft_views *v, struct vsource *s, const struct pft_call_event *ev)
{
	struct vframe *f = frame_at(s, --s->n);

	pft_timing_close(v, s, f, s->n ? frame_at(s, s->n - 1) : NULL, ev);
	close_frame(v, f, ev->insns);
}

static int apply_event(struct pft_views *v, struct vsource *s, const struct pft_call_event *ev)
{
	int err = ensure_root(v, s, ev->target);

	if (err)
		return err;
	/* Compares, not a switch: its jump through a table was mispredicted
	 * most of the time (cachegrind). */
	if (ev->kind == PFT_CALL_CALL || ev->kind == PFT_CALL_EXCEPTION) {
		while (s->n > ev->depth && s->n > 1)
			forget_oldest(s);
		return enter(v, s, ev);
	}
	if (ev->kind == PFT_CALL_RETURN || ev->kind == PFT_CALL_EXCEPTION_RETURN) {
		while (s->n > (size_t)ev->depth + 1 && s->n > 1)
			close_top(v, s, ev);
		if (s->n == 1 && s->base) {
			s->stack[0] = s->stack[s->base];
			s->base = 0;
		}
		return 0;
	}
	if (ev->kind == PFT_CALL_TAIL_CALL) {
		struct vframe *top = frame_at(s, s->n - 1);
		struct vcall_memo d;
		close_frame(v, top, ev->insns);
		err = call_dest(v, s, top->node, ev->target, ev->site, 1, &d);
		if (err)
			return err;
		count_call(v, &d, ev->target);
		err = pft_timing_tail(v, s, top, ev, d.func, d.edge);
		top->node = d.node;
		top->site = d.site_index;
		top->entry = ev->insns;
		return err;
	}
	return 0;
}

/* Count @n instructions (and @cycles) of function @f in source @s's top
 * frame, which moves to @f if the code left its function without a call.
 * The functions' and the trace's sums are made from the nodes at finish. */
static int attribute(struct pft_views *v, struct vsource *s, uint32_t f,
		     uint64_t n, uint64_t cycles)
{
	struct vframe *top = frame_at(s, s->n - 1);
	struct vnode *node = &v->nodes[top->node];

	if (node->func != f) {
		uint32_t index;
		int err = node_of(v, node->parent, f, &index);
		if (err)
			return err;
		top->node = index;
		node = &v->nodes[index];
	}
	node->self += n;
	node->cycles += cycles;
	return 0;
}

/* The distinct range @e (key @key), added on first sight with its
 * function, and remembered in @memo. */
static int __attribute__((noinline))
add_range_index(struct pft_views *v, unsigned image, const struct pft_elem *e, uint64_t key,
		struct vrange_memo *memo, uint32_t *index)
{
	uint32_t f;
	int err;

	if (pft_vmap_find(&v->range_map, key, index)) {
		*memo = (struct vrange_memo){ .key = key, .index = *index };
		return 0;
	}
	err = func_index(v, image, e->start, &f);
	if (err)
		return err;
	if (v->nranges == MAX_TABLE)
		return 1;   /* past the limit: not kept */
	if (pft_grow((void **)&v->ranges, &v->cap_ranges, v->nranges + 1, sizeof(*v->ranges)) ||
	    pft_vmap_put(&v->range_map, key, (uint32_t)v->nranges))
		return -PFT_ERR_NOMEM;
	const struct vfunc *fn = &v->funcs[f];
	v->ranges[v->nranges] = (struct vrange){
		.start = e->start, .ninsn = e->ninsn, .isa = e->isa, .space = e->space,
		.taken = e->taken != 0, .image = (uint8_t)image, .func = f,
		.flags = e->flags & (PFT_ELEM_F_CONDS | PFT_ELEM_F_FAILED),
		.nseg = vfunc_holds(fn, e) ? VSEG_IN_FUNC : VSEG_UNSPLIT
	};
	*index = (uint32_t)v->nranges++;
	*memo = (struct vrange_memo){ .key = key, .index = *index };
	return 0;
}

/* The distinct range @e (the same ranges come millions of times: each
 * is looked up once); 1 when the table is full and @e not in it. */
static inline int range_index(struct pft_views *v, unsigned image, const struct pft_elem *e,
			      uint32_t *index)
{
	uint64_t key = vrange_key(e, image);

	if (e->start & 1)
		return 1;   /* no instruction starts there: counted coarser */
	struct vrange_memo *memo = &v->range_memo[(key ^ key >> 29) % VRANGE_MEMO_SIZE];

	/* A loop's few ranges over and over: most are in the memo, in cache,
	 * where the map's probe went to memory. */
	if (memo->key == key) {
		*index = memo->index;
		return 0;
	}
	return add_range_index(v, image, e, key, memo, index);
}

/* Add piece @func, @ninsn to range @r's pieces (the last when they are of
 * one function), up to VSEG_MAX + 1 of them. */
static int add_seg(struct pft_views *v, struct vrange *r, uint32_t func, uint32_t ninsn)
{
	if (r->nseg && v->segs[v->nsegs - 1].func == func) {
		v->segs[v->nsegs - 1].ninsn += ninsn;
		return 0;
	}
	if (pft_grow((void **)&v->segs, &v->cap_segs, v->nsegs + 1, sizeof(*v->segs)))
		return -PFT_ERR_NOMEM;
	v->segs[v->nsegs++] = (struct vseg){ .func = func, .ninsn = ninsn };
	r->nseg++;
	return 0;
}

/* Walk range @e's instructions (in source @s's image) by function,
 * starting in function @f: @take gets each instruction's function and
 * whether it is the range's last, then the instructions the image no
 * longer has at once, in the last function.  A non-zero return of @take
 * ends the walk with that value. */
static int walk_by_function(struct pft_views *v, const struct vsource *s,
			    const struct pft_elem *e, uint32_t f,
			    int (*take)(struct pft_views *v, void *ctx, uint32_t func,
					uint32_t ninsn, int last),
			    void *ctx)
{
	struct pft_insn_iter it;
	struct pft_insn insn;
	uint32_t left = e->ninsn;
	int err = 0;

	if (pft_insn_iter_init(&it, v->images[s->image], e))
		return -PFT_ERR_INVALID;
	while (!err && left && pft_insn_iter_next(&it, &insn, sizeof(insn)) == 1) {
		left--;
		err = func_index(v, s->image, insn.addr, &f);
		if (!err)
			err = take(v, ctx, f, 1, !left);
	}
	return err || !left ? err : take(v, ctx, f, left, 1);
}

/* walk_by_function()'s @take for split_range(): 1 (stop) past VSEG_MAX. */
static int take_seg(struct pft_views *v, void *range, uint32_t func, uint32_t ninsn, int last)
{
	struct vrange *r = range;
	int err = add_seg(v, r, func, ninsn);

	(void)last;
	return err ? err : r->nseg > VSEG_MAX;
}

/* Split range @index (@e), which runs out of its function or is in none,
 * by the function of each instruction, once: its pieces in v->segs, or
 * VSEG_MANY when there are more than VSEG_MAX (those are counted
 * instruction by instruction every time, so that the pieces' memory
 * stays within VSEG_MAX per distinct range). */
static int split_range(struct pft_views *v, const struct vsource *s, uint32_t index,
		       const struct pft_elem *e)
{
	struct vrange *r = &v->ranges[index];
	size_t first = v->nsegs;

	r->seg = (uint32_t)first;
	r->nseg = 0;
	int err = walk_by_function(v, s, e, r->func, take_seg, r);
	if (err) {
		v->nsegs = first;
		r->nseg = VSEG_MANY;
	}
	return err < 0 ? err : 0;
}

/* walk_by_function()'s @take for attribute_range(): the cycles go with the
 * last instruction. */
struct attribution {
	struct vsource *s;
	uint64_t cycles;
};

static int take_insns(struct pft_views *v, void *attribution, uint32_t func, uint32_t ninsn,
		      int last)
{
	struct attribution *a = attribution;

	return attribute(v, a->s, func, ninsn, last ? a->cycles : 0);
}

/* Range @e (distinct range @index, counted already) in source @s's
 * frames: the general case of count_range(). */
static int attribute_range(struct pft_views *v, struct vsource *s, const struct pft_elem *e,
			   uint32_t index)
{
	uint64_t cycles = e->has_cycles ? e->cycles : 0;
	int err = ensure_root(v, s, e->start);

	if (!err && v->ranges[index].nseg == VSEG_UNSPLIT)
		err = split_range(v, s, index, e);
	if (err)
		return err;
	const struct vrange *r = &v->ranges[index];
	if (r->nseg == VSEG_IN_FUNC)
		return attribute(v, s, r->func, e->ninsn, cycles);
	/* The cycles go with the last instruction. */
	if (r->nseg != VSEG_MANY) {
		for (uint32_t i = 0; !err && i < r->nseg; i++) {
			const struct vseg *g = &v->segs[r->seg + i];
			err = attribute(v, s, g->func, g->ninsn, i + 1 == r->nseg ? cycles : 0);
		}
		return err;
	}
	return walk_by_function(v, s, e, r->func, take_insns,
				&(struct attribution){ .s = s, .cycles = cycles });
}

/* What count_range() needs of a run: the top frame's node (NULL before
 * the first range) stays at hand from one range to the next, as between
 * two of the tracker's events the stack stays as it is. */
struct range_counter {
	struct pft_views *v;
	struct vsource *s;
	struct vnode *node;
	uint8_t has_cycles;
};

static void top_node(struct range_counter *rc)
{
	const struct vsource *s = rc->s;

	rc->node = s->n ? &rc->v->nodes[frame_at(s, s->n - 1)->node] : NULL;
}

/* The memo's slot for @addr, and whether it holds @addr of @image. */
static inline struct vfold_memo *fold_memo_slot(struct pft_views *v, unsigned image,
						uint32_t addr, int *hit)
{
	struct vfold_memo *m = &v->fold_memo[(addr >> 1) % VFOLD_MEMO_SIZE];

	*hit = m->known && m->addr == addr && m->image == image;
	return m;
}

/* func_index() through a memo, for addresses that come again and again:
 * folded ranges' starts, call targets. */
static inline int func_index_memo(struct pft_views *v, unsigned image, uint32_t addr,
				  uint32_t *f)
{
	int hit, err = 0;
	struct vfold_memo *m = fold_memo_slot(v, image, addr, &hit);

	if (hit)
		*f = m->func;
	else if (!(err = func_index(v, image, addr, f)))
		*m = (struct vfold_memo){ .addr = addr, .func = *f, .image = (uint8_t)image,
					  .known = 1 };
	return err;
}

/* Folded ranges @x in the top frame's node, of their function. */
static inline void add_folded(struct range_counter *rc, const struct pft_elem *x)
{
	rc->node->self += x->ninsn;
	rc->node->cycles += x->has_cycles ? x->cycles : 0;
}

/* count_folded() when its function is not at hand. */
static int __attribute__((noinline)) count_folded_slow(struct range_counter *rc,
						       const struct pft_elem *x)
{
	struct pft_views *v = rc->v;
	struct vsource *s = rc->s;
	uint32_t f;
	int err = func_index_memo(v, s->image, x->start, &f);

	if (err)
		return err;
	rc->has_cycles |= x->has_cycles;
	if (rc->node && rc->node->func == f) {
		add_folded(rc, x);
		return 0;
	}
	err = ensure_root(v, s, x->start);
	if (!err)
		err = attribute(v, s, f, x->ninsn, x->has_cycles ? x->cycles : 0);
	top_node(rc);
	return err;
}

/* Folded ranges @x (PFT_ELEM_F_FOLDED: of one function, counted
 * already): their instructions in the top frame, in their function.
 * Most are of the top frame's function, found in the memo: inline, as a
 * call cost more than that. */
static inline __attribute__((always_inline)) int count_folded(struct range_counter *rc,
							      const struct pft_elem *x)
{
	int hit;
	const struct vfold_memo *m = fold_memo_slot(rc->v, rc->s->image, x->start, &hit);

	if (rc->node && hit && rc->node->func == m->func) {
		rc->has_cycles |= x->has_cycles;
		add_folded(rc, x);
		return 0;
	}
	return count_folded_slow(rc, x);
}

/* Count range @x: one in the top frame's function (most) only adds to
 * the frame's node.  Called from the tracker's loop (pft_calls.h). */
static inline __attribute__((always_inline)) int count_range(void *counter,
							       const struct pft_elem *x)
{
	struct range_counter *rc = counter;
	struct pft_views *v = rc->v;
	uint32_t index;

	if (x->flags & PFT_ELEM_F_FOLDED)
		return count_folded(rc, x);
	int err = range_index(v, rc->s->image, x, &index);

	if (err == 1) {
		/* Past the table: counted in the top frame, no further. */
		if (rc->node) {
			rc->node->self += x->ninsn;
			rc->node->cycles += x->has_cycles ? x->cycles : 0;
		}
		v->cut_insns += x->ninsn;
		return 0;
	}
	if (err)
		return err;
	struct vrange *r = &v->ranges[index];
	r->count++;
	rc->has_cycles |= x->has_cycles;
	if (rc->node && r->nseg == VSEG_IN_FUNC && rc->node->func == r->func) {
		rc->node->self += x->ninsn;
		rc->node->cycles += x->has_cycles ? x->cycles : 0;
		return 0;
	}
	err = attribute_range(v, rc->s, x, index);
	/* It may have moved the top frame to another node, or the nodes in
	 * memory. */
	top_node(rc);
	return err;
}

/* An exception's cycles: those of the interrupted function's last
 * instructions (a waypoint update's range has none of its own). */
static int count_exception_cycles(void *counter, const struct pft_elem *x)
{
	struct range_counter *rc = counter;

	if (rc->node)
		rc->node->cycles += x->cycles;
	return 0;
}

static int drain(struct pft_views *v, struct vsource *s)
{
	const struct pft_call_event *ev;
	int err;

	while ((ev = pft_calls_take(s->calls)))
		if ((err = apply_event(v, s, ev)))
			return err;
	return 0;
}

/* Source @source's state, made on first use with image @image. */
static int get_source(struct pft_views *v, unsigned source, unsigned image,
		      struct vsource **out)
{
	struct vsource *s = v->sources[source];
	int err;

	if (!s) {
		struct pft_calls_config cc = { .size = sizeof(cc), .image = v->images[image],
					       .max_depth = v->max_depth };
		s = calloc(1, sizeof(*s));
		if (!s)
			return -PFT_ERR_NOMEM;
		s->image = (uint8_t)image;
		s->calls = pft_calls_alloc(&cc, &err);
		if (!s->calls) {
			free(s);
			return err;
		}
		v->sources[source] = s;
	}
	*out = s;
	return 0;
}

int pft_views_set_image(struct pft_views *v, unsigned source, struct pft_image *image)
{
	struct vsource *s;
	size_t k = 0;

	if (!v || !image || source >= 128 || v->sources[source])
		return -PFT_ERR_INVALID;
	if (v->finished)
		return -PFT_ERR_EOS;
	while (k < v->nimages && v->images[k] != image)
		k++;
	if (k == PFT_VIEWS_MAX_IMAGES)
		return -PFT_ERR_INVALID;
	if (k == v->nimages)
		v->images[v->nimages++] = image;
	return get_source(v, source, (unsigned)k, &s);
}

/* Range @x ran @count times: counted per range, not in a frame (past
 * the table's limit: only as instructions cut). */
static inline int count_times(struct pft_views *v, const struct vsource *s,
			      const struct pft_elem *x, uint64_t count)
{
	uint32_t index;
	int err = range_index(v, s->image, x, &index);

	if (err < 0)
		return err;
	if (err)
		v->cut_insns += x->ninsn * count;
	else
		v->ranges[index].count += count;
	return 0;
}

/* The ranges of a run, without calls (pft_views_config.insns_only). */
static int count_ranges(struct pft_views *v, const struct vsource *s, const struct pft_elem *e,
			size_t n, size_t size)
{
	for (size_t i = 0; i < n; i++) {
		const struct pft_elem *x = pft_elem_at(e, i, size);
		int err = 0;
		if (x->type == PFT_ELEM_RANGE && !(x->flags & PFT_ELEM_F_FOLDED))
			err = count_times(v, s, x, 1);
		else if (x->type == PFT_ELEM_RANGE_COUNT)
			err = count_times(v, s, x, x->ts);
		if (err)
			return err;
	}
	return 0;
}

/* @count entries into @target by calls (@tail: tail calls): of its
 * function when it is the function's first instruction (count_call()). */
static int count_entries(struct pft_views *v, const struct vsource *s, uint32_t target, int tail,
			 uint64_t count)
{
	uint32_t f;
	int err = func_index_memo(v, s->image, target, &f);

	if (!err && vfunc_entered(&v->funcs[f], target, tail))
		v->funcs[f].entered += count;
	return err;
}

/* The tracker's events, for their entries only (no_contexts). */
static int drain_entries(struct pft_views *v, struct vsource *s)
{
	const struct pft_call_event *ev;
	int err = 0;

	while (!err && (ev = pft_calls_take(s->calls)))
		if (calls_enters(ev->kind))
			err = count_entries(v, s, ev->target, ev->kind == PFT_CALL_TAIL_CALL, 1);
	return err;
}

struct range_times {
	struct pft_views *v;
	const struct vsource *s;
};

static int count_once(void *ctx, const struct pft_elem *x)
{
	const struct range_times *rt = ctx;

	return x->flags & PFT_ELEM_F_FOLDED ? 0 : count_times(rt->v, rt->s, x, 1);
}

/* A leaf call (pft_calls_leaf_call()) without calling contexts: its entry
 * and its callee's range counted. */
static int count_leaf_entry(void *ctx, const struct pft_call_event ev[2], const struct pft_elem *x)
{
	const struct range_times *rt = ctx;
	int err = count_entries(rt->v, rt->s, ev[0].target, 0, 1);

	return err ? err : count_once(ctx, x);
}

static const struct calls_put_ops entries_ops = { .on_range = count_once,
						  .on_leaf = count_leaf_entry };

/* Elements of a fold without calling contexts (pft_views_fold.c). */
static int of_entries_fold(unsigned type)
{
	return type == PFT_ELEM_RANGE_COUNT || type == PFT_ELEM_ENTRY_COUNT ||
	       type == PFT_ELEM_CALLS_BRANCH || type == PFT_ELEM_CALLS_STATE ||
	       type == PFT_ELEM_CALLS_FRAME;
}

/* The elements of a run without calling contexts (no_contexts): the
 * ranges counted, and all through the calls tracker for the entries; a
 * fold's counts and stack states as they come. */
static int count_entries_run(struct pft_views *v, struct vsource *s, const struct pft_elem *e,
			     size_t n, size_t size)
{
	struct range_times rt = { .v = v, .s = s };

	for (size_t i = 0; i < n;) {
		const struct pft_elem *x = pft_elem_at(e, i, size);
		int err = 0;
		if (of_entries_fold(x->type)) {
			if (x->type == PFT_ELEM_RANGE_COUNT)
				err = count_times(v, s, x, x->ts);
			else if (x->type == PFT_ELEM_ENTRY_COUNT)
				err = count_entries(v, s, x->addr, x->taken != 0, x->ts);
			else if (!(err = pft_calls_apply_fold(s->calls, x)))
				err = drain_entries(v, s);
			i++;
		} else {
			size_t j = i + 1;
			while (j < n && !of_entries_fold(pft_elem_at(e, j, size)->type))
				j++;
			while (!err && i < j) {
				int got = calls_put_until_events(s->calls, pft_elem_at(e, i, size),
								 j - i, size, &entries_ops, &rt);
				if (got < 0)
					return got;
				i += (size_t)got;
				if (pft_calls_pending(s->calls)) {
					const struct pft_elem *last = pft_elem_at(e, i - 1, size);
					err = drain_entries(v, s);
					if (!err && last->type == PFT_ELEM_RANGE)
						err = count_once(&rt, last);
				}
			}
		}
		if (err)
			return err;
	}
	return 0;
}

/* A leaf call (pft_calls_leaf_call()): its events applied as they would
 * be drained, its callee's range counted in between. */
static int count_leaf_call(void *counter, const struct pft_call_event ev[2],
			   const struct pft_elem *x)
{
	struct range_counter *rc = counter;
	int err = apply_event(rc->v, rc->s, &ev[0]);

	top_node(rc);
	if (!err)
		err = count_range(rc, x);
	if (!err)
		err = apply_event(rc->v, rc->s, &ev[1]);
	top_node(rc);
	return err;
}

/*
 * A fold's LEAF_CALLS element @x (pft_calls.h): what its calls would do
 * one by one (count_leaf_call(): the call, its callee's range counted in
 * the callee's node, the return), at once.  The fold sends them after a
 * leaf call that went through as it was: the clock is set, the stack
 * below its limit (no call forgets a frame), the top frame the caller's.
 */
static int apply_leaf_calls(struct pft_views *v, struct vsource *s, const struct pft_elem *x)
{
	struct vcall_memo d;

	if (!s->n || v->clock == VCLOCK_UNSET)
		return -PFT_ERR_INVALID;
	int err = pft_calls_take_leaf_calls(s->calls, x);
	if (!err)
		err = call_dest(v, s, frame_at(s, s->n - 1)->node, x->start, x->last, 0, &d);
	if (err)
		return err;
	/* count_call(), enter() and close_frame() of each. */
	if (d.edge != VNONE) {
		v->edges[d.edge].calls += x->ninsn;
		v->edges[d.edge].incl += x->offset;
	} else {
		v->cut_calls += x->ninsn;
	}
	if (d.site_index != VNONE) {
		v->sites[d.site_index].calls += x->ninsn;
		v->sites[d.site_index].incl += x->offset;
	}
	if (vfunc_entered(&v->funcs[d.func], x->start, 0))
		v->funcs[d.func].entered += x->ninsn;
	/* count_folded(): the callee's node is of the range's function. */
	v->nodes[d.node].self += x->offset;
	v->nodes[d.node].cycles += x->has_cycles ? x->ts : 0;
	v->has_cycles |= x->has_cycles;
	/* pft_timing_close(): no exception or tail call in them, nothing
	 * called, so each is as long as its callee's range. */
	if (v->clock == VCLOCK_CYCLES)
		pft_timing_leaf_calls(v, frame_at(s, s->n - 1), d.func, d.edge, x->ninsn, x->end,
				      x->cycles, x->has_cycles ? x->ts : 0);
	else
		pft_timing_leaf_calls(v, frame_at(s, s->n - 1), d.func, d.edge, x->ninsn, x->addr,
				      x->ctxid, x->offset);
	return 0;
}

static const struct calls_put_ops track_ops = { .on_range = count_range,
						.on_cycles = count_exception_cycles,
						.on_leaf = count_leaf_call };

/* The elements of a run, none a RANGE_COUNT, through the calls tracker:
 * each range is counted as the tracker takes it, up to an element that
 * makes events, whose range is counted after them. */
static int track_run(struct pft_views *v, struct vsource *s, const struct pft_elem *e,
		     size_t n, size_t size)
{
	struct range_counter rc = { .v = v, .s = s };
	int err = 0;

	top_node(&rc);
	for (size_t i = 0; !err && i < n;) {
		int got = calls_put_until_events(s->calls, pft_elem_at(e, i, size), n - i, size,
						 &track_ops, &rc);
		if (got < 0) {
			err = got;
			break;
		}
		i += (size_t)got;
		if (!pft_calls_pending(s->calls))
			continue;
		err = drain(v, s);
		top_node(&rc);
		const struct pft_elem *last = pft_elem_at(e, i - 1, size);
		if (!err && last->type == PFT_ELEM_RANGE)
			err = count_range(&rc, last);
		else if (!err && last->type == PFT_ELEM_EXCEPTION && last->has_cycles)
			err = count_exception_cycles(&rc, last);
	}
	v->has_cycles |= rc.has_cycles;
	return err;
}

int pft_views_put_run(struct pft_views *v, unsigned source, const struct pft_elem *e,
		      size_t n, size_t size)
{
	struct vsource *s = NULL;
	int err;

	if (!v || !e || !n || n > INT32_MAX || size < PFT_FIRST_SIZE(struct pft_elem) ||
	    source >= 128)
		return -PFT_ERR_INVALID;
	size_t counts = 0;   /* RANGE_COUNT and LEAF_CALLS elements (of a fold) */
	for (size_t i = 0; i < n; i++) {
		const struct pft_elem *x = pft_elem_at(e, i, size);
		if (x->type >= PFT_ELEM_TYPE_MAX ||
		    ((x->type == PFT_ELEM_RANGE || x->type == PFT_ELEM_RANGE_COUNT) &&
		     (x->ninsn >= VRANGE_INSNS_MAX || !x->ninsn)) ||
		    (of_entries_fold(x->type) && x->type != PFT_ELEM_RANGE_COUNT && !v->no_contexts) ||
		    (x->type == PFT_ELEM_LEAF_CALLS && (v->no_contexts || v->insns_only)))
			return -PFT_ERR_INVALID;
		counts += x->type == PFT_ELEM_RANGE_COUNT || x->type == PFT_ELEM_LEAF_CALLS;
	}
	if (v->finished)
		return -PFT_ERR_EOS;
	err = get_source(v, source, 0, &s);
	if (err)
		return err;
	if (v->insns_only)
		return count_ranges(v, s, e, n, size);
	if (v->no_contexts)
		return count_entries_run(v, s, e, n, size);
	if (!counts)
		return track_run(v, s, e, n, size);
	/* A fold's counts and leaf calls (pft_views_fold()) come apart from
	 * the rest. */
	for (size_t i = 0; !err && i < n;) {
		size_t j = i;
		const struct pft_elem *x = pft_elem_at(e, i, size);
		if (x->type == PFT_ELEM_RANGE_COUNT) {
			err = count_times(v, s, x, x->ts);
			j++;
		} else if (x->type == PFT_ELEM_LEAF_CALLS) {
			err = apply_leaf_calls(v, s, x);
			j++;
		} else {
			while (j < n && pft_elem_at(e, j, size)->type != PFT_ELEM_RANGE_COUNT &&
			       pft_elem_at(e, j, size)->type != PFT_ELEM_LEAF_CALLS)
				j++;
			err = track_run(v, s, x, j - i, size);
		}
		i = j;
	}
	return err;
}

int pft_views_source_image(struct pft_views *v, unsigned source, unsigned *image)
{
	struct vsource *s = NULL;
	int err = get_source(v, source, 0, &s);

	if (!err)
		*image = s->image;
	return err;
}

int pft_views_put(struct pft_views *v, unsigned source, const struct pft_elem *e, size_t size)
{
	return pft_views_put_run(v, source, e, 1, size);
}

static int cmp_addr(const void *a, const void *b)
{
	const struct vaddr *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

static int cmp_vline(const void *a, const void *b)
{
	const struct vline *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* The instruction at @addr of image @image; in a function of the line
 * tables, the images share it. */
static struct vaddr *addr_entry(struct pft_views *v, struct vmap *map, unsigned image,
				const struct pft_insn *insn)
{
	uint32_t index, func;
	uint64_t key = insn->addr;

	if (func_index(v, image, insn->addr, &func))
		return NULL;
	if (image && !v->funcs[func].shared)
		key |= (uint64_t)image << 32;
	if (pft_vmap_find(map, key, &index))
		return &v->addrs[index];
	if (pft_grow((void **)&v->addrs, &v->cap_addrs, v->naddrs + 1, sizeof(*v->addrs)) ||
	    pft_vmap_put(map, key, (uint32_t)v->naddrs))
		return NULL;
	v->addrs[v->naddrs] = (struct vaddr){ .addr = insn->addr, .isa = insn->isa,
					      .size = insn->size, .image = (uint8_t)image,
					      .func = func };
	return &v->addrs[v->naddrs++];
}

/* The instructions a Thumb IT instruction (@insn) makes conditional:
 * 1 to 4 by its mask; 0 for any other instruction. */
static unsigned it_block(const struct pft_insn *insn)
{
	unsigned hw = insn->raw[0] | (unsigned)insn->raw[1] << 8;

	if (insn->isa != PFT_ISA_THUMB || insn->size != 2 || (hw & 0xff00) != 0xbf00 ||
	    !(hw & 0xf))
		return 0;
	return 4 - (unsigned)__builtin_ctz(hw & 0xf);
}

/* How often instruction @a (@insn, the last of range @r or not) changed
 * the flow and not, where the trace tells it: a waypoint that ends a
 * range by the range's end.  With every conditional instruction traced
 * (@r's PFT_ELEM_F_CONDS), each instruction passed its condition unless
 * it is the last and failed: counted for all, kept for the conditional
 * ones (settle_conditions()).  An instruction of an IT block is
 * conditional too, but a range may start inside the block (after an N
 * atom on the one before): the IT instruction marks its block later. */
static void count_direction(struct vaddr *a, const struct vrange *r, const struct pft_insn *insn,
			    int last)
{
	if (last && insn->iclass != PFT_ICLASS_OTHER) {
		a->dir = 1;
		if (r->taken)
			a->taken += r->count;
		else
			a->not_taken += r->count;
	} else if (r->flags & PFT_ELEM_F_CONDS) {
		if (last && (r->flags & PFT_ELEM_F_FAILED))
			a->failed += r->count;
		else
			a->passed += r->count;
	}
}

/* The executed instruction at @addr (v->addrs sorted), or NULL. */
static struct vaddr *find_addr(struct pft_views *v, uint32_t addr)
{
	size_t lo = 0, hi = v->naddrs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v->addrs[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < v->naddrs && v->addrs[lo].addr == addr ? &v->addrs[lo] : NULL;
}

/* Where conditions are traced: the instructions conditional by their
 * encoding, in an IT block (the IT instruction ran: it is in v->addrs)
 * or that ever failed get their passes and fails as their directions. */
static void settle_conditions(struct pft_views *v)
{
	uint8_t *in_it = calloc(v->naddrs ? v->naddrs : 1, 1);

	for (size_t i = 0; in_it && i < v->naddrs; i++) {
		const struct vaddr *a = &v->addrs[i];
		struct pft_insn insn;
		const uint8_t *code;
		int n;
		if (a->isa != PFT_ISA_THUMB || a->size != 2 || !(a->passed | a->failed))
			continue;
		n = pft_image_map(v->images[a->image], a->addr, PFT_SPACE_ANY, &code);
		if (n <= 0 || pft_insn_decode(PFT_ISA_THUMB, a->addr, code, (size_t)n, &insn,
					      sizeof(insn)) <= 0)
			continue;
		unsigned block = it_block(&insn);
		for (uint32_t at = a->addr + 2; block--;) {
			struct vaddr *b = find_addr(v, at);
			if (!b)
				break;
			in_it[b - v->addrs] = 1;
			at += b->size;
		}
	}
	for (size_t i = 0; i < v->naddrs; i++) {
		struct vaddr *a = &v->addrs[i];
		if (a->dir || !(a->passed | a->failed) ||
		    !(a->cond_enc || a->failed || (in_it && in_it[i])))
			continue;
		a->dir = 1;
		a->taken = a->passed;
		a->not_taken = a->failed;
	}
	free(in_it);
}

/* Executed instructions, from the distinct ranges. */
static int resolve_addresses(struct pft_views *v, struct vmap *map)
{
	for (size_t i = 0; i < v->nranges; i++) {
		const struct vrange *r = &v->ranges[i];
		struct pft_elem e = { .type = PFT_ELEM_RANGE, .start = r->start,
				      .ninsn = r->ninsn, .isa = r->isa, .space = r->space };
		struct pft_insn_iter it;
		struct pft_insn insn;
		int got;

		pft_insn_iter_init(&it, v->images[r->image], &e);
		while ((got = pft_insn_iter_next(&it, &insn, sizeof(insn))) == 1) {
			struct vaddr *a = addr_entry(v, map, r->image, &insn);
			if (!a)
				return -PFT_ERR_NOMEM;
			a->count += r->count;
			if (it.left == 0 && insn.conditional && insn.iclass != PFT_ICLASS_OTHER)
				a->cond = 1;
			a->cond_enc = insn.conditional;
			count_direction(a, r, &insn, it.left == 0);
		}
		if (got < 0)
			return got;
	}
	return 0;
}

/* Conditional branches of the functions with source that never ran, by
 * decoding their code (instruction sets from the mapping symbols). */
static int find_unexecuted_branches(struct pft_views *v, struct vmap *map)
{
	for (size_t i = 0; i < v->nfuncs; i++) {
		const struct vfunc *f = &v->funcs[i];
		if (!f->file || !f->end)
			continue;
		for (uint32_t a = f->start; a < f->end;) {
			int isa = pft_image_isa(v->images[0], a);
			const uint8_t *code;
			struct pft_insn insn;
			int n = pft_image_map(v->images[0], a, PFT_SPACE_ANY, &code);
			if (isa != PFT_ISA_ARM && isa != PFT_ISA_THUMB) {
				a += 2;  /* data (a literal pool) or unknown */
				continue;
			}
			if (n <= 0 || pft_insn_decode((enum pft_isa)isa, a, code, (size_t)n,
						      &insn, sizeof(insn)) <= 0)
				break;
			if (insn.conditional && insn.iclass != PFT_ICLASS_OTHER) {
				struct vaddr *e = addr_entry(v, map, 0, &insn);
				if (!e)
					return -PFT_ERR_NOMEM;
				e->cond = 1;
			}
			a += insn.size;
		}
	}
	return 0;
}

/* Lines: each row's count is its most-executed instruction's; a line's is
 * its most-executed row's. */
static int resolve_lines(struct pft_views *v)
{
	struct pft_line_row row;
	size_t j = 0;

	for (size_t i = 0; pft_lines_row(v->lines, i, &row, sizeof(row)) == 0; i++) {
		uint64_t count = 0;
		while (j < v->naddrs && v->addrs[j].addr < row.start)
			j++;
		for (size_t k = j; k < v->naddrs && (v->addrs[k].addr < row.end || !row.end); k++) {
			v->addrs[k].file = row.file;
			v->addrs[k].line = row.line;
			if (v->addrs[k].count > count)
				count = v->addrs[k].count;
		}
		if (pft_grow((void **)&v->vlines, &v->cap_vlines, v->nvlines + 1, sizeof(*v->vlines)))
			return -PFT_ERR_NOMEM;
		v->vlines[v->nvlines++] = (struct vline){ row.file, row.line, count };
	}
	if (v->nvlines)
		qsort(v->vlines, v->nvlines, sizeof(*v->vlines), cmp_vline);
	size_t n = 0;
	for (size_t i = 0; i < v->nvlines; i++) {
		if (n && v->vlines[n - 1].line == v->vlines[i].line &&
		    !strcmp(v->vlines[n - 1].file, v->vlines[i].file)) {
			if (v->vlines[i].count > v->vlines[n - 1].count)
				v->vlines[n - 1].count = v->vlines[i].count;
			continue;
		}
		v->vlines[n++] = v->vlines[i];
	}
	v->nvlines = n;
	return 0;
}

/* Self counts of the functions and the trace, from the nodes'.
 * Inclusive counts: a node's total is its self plus its children's
 * (children come after their parent); a function's inclusive count sums
 * the totals of its nodes that have no ancestor of the same function. */
static void inclusive(struct pft_views *v)
{
	for (size_t i = 0; i < v->nnodes; i++) {
		struct vfunc *f = &v->funcs[v->nodes[i].func];
		f->self += v->nodes[i].self;
		f->cycles += v->nodes[i].cycles;
		v->total_insns += v->nodes[i].self;
	}
	for (size_t i = 0; i < v->nnodes; i++)
		v->nodes[i].total = v->nodes[i].self;
	for (size_t i = v->nnodes; i-- > 0;)
		if (v->nodes[i].parent != VNONE)
			v->nodes[v->nodes[i].parent].total += v->nodes[i].total;
	for (size_t i = 0; i < v->nnodes; i++) {
		uint32_t f = v->nodes[i].func, p = v->nodes[i].parent;
		while (p != VNONE && v->nodes[p].func != f)
			p = v->nodes[p].parent;
		if (p == VNONE)
			v->funcs[f].incl += v->nodes[i].total;
	}
}

struct func_key {
	uint64_t key;             /* start; "[unknown]" sorts last */
	uint32_t index;
};

static int cmp_func_key(const void *a, const void *b)
{
	const struct func_key *x = a, *y = b;

	return (x->key > y->key) - (x->key < y->key);
}

/* The functions in address order (their indexes stay as they are). */
static int sort_functions(struct pft_views *v)
{
	size_t n = v->nfuncs ? v->nfuncs : 1;
	struct func_key *keys = malloc(n * sizeof(*keys));

	v->order = malloc(n * sizeof(*v->order));
	if (!keys || !v->order) {
		free(keys);
		return -PFT_ERR_NOMEM;
	}
	for (size_t i = 0; i < v->nfuncs; i++)
		keys[i] = (struct func_key){ v->funcs[i].name ? v->funcs[i].start : UINT64_MAX,
					     (uint32_t)i };
	qsort(keys, v->nfuncs, sizeof(*keys), cmp_func_key);
	for (size_t i = 0; i < v->nfuncs; i++)
		v->order[i] = keys[i].index;
	free(keys);
	return 0;
}

int pft_views_finish(struct pft_views *v)
{
	struct vmap map = { 0 };
	int err = 0;

	if (!v)
		return -PFT_ERR_INVALID;
	if (v->finished)
		return -PFT_ERR_EOS;
	v->finished = 1;
	for (size_t i = 0; i < 128 && !err; i++) {
		struct vsource *s = v->sources[i];
		if (!s)
			continue;
		err = pft_calls_finish(s->calls);
		if (!err)
			err = v->no_contexts ? drain_entries(v, s) : drain(v, s);
	}
	if (!err)
		err = resolve_addresses(v, &map);
	if (!err && v->lines)
		err = find_unexecuted_branches(v, &map);
	pft_vmap_free(&map);
	if (err)
		return err;
	if (v->naddrs)
		qsort(v->addrs, v->naddrs, sizeof(*v->addrs), cmp_addr);
	settle_conditions(v);
	if (v->lines)
		err = resolve_lines(v);
	inclusive(v);
	/* Without contexts, the self counts are the instructions'. */
	for (size_t i = 0; v->no_contexts && i < v->naddrs; i++) {
		v->funcs[v->addrs[i].func].self += v->addrs[i].count;
		v->total_insns += v->addrs[i].count;
	}
	if (!err)
		err = sort_functions(v);
	if (!err) {
		struct pft_names_config nc = { .size = sizeof(nc), .lines = v->lines,
					       .images = v->images, .nimages = v->nimages };
		v->names = pft_names_alloc(&nc, &err);
	}
	v->ready = !err;
	return err;
}

int pft_views_function(const struct pft_views *v, size_t index,
		       struct pft_view_func *func, size_t size)
{
	if (!v || !func || size < offsetof(struct pft_view_func, calls) || !v->ready)
		return -PFT_ERR_INVALID;
	if (index >= v->nfuncs)
		return -PFT_ERR_EOS;
	const struct vfunc *f = &v->funcs[v->order[index]];
	struct pft_view_func x = {
		.name = f->name ? f->name : "[unknown]", .start = f->start, .end = f->end,
		.file = f->file, .line = f->line, .entered = f->entered,
		.self_insns = f->self, .incl_insns = f->incl, .self_cycles = f->cycles
	};
	pft_timing_calls(v, &f->calls, &x.calls);
	memcpy(func, &x, size < sizeof(x) ? size : sizeof(x));
	return 0;
}

int pft_views_cut(const struct pft_views *v, struct pft_views_cut *c, size_t size)
{
	if (!v || !c || size < offsetof(struct pft_views_cut, tail_calls))
		return -PFT_ERR_INVALID;
	struct pft_views_cut x = {
		.size = sizeof(x), .table_max = MAX_TABLE, .contexts = v->cut_contexts,
		.calls = v->cut_calls, .insns = v->cut_insns, .tail_calls = v->tails_lost
	};
	memset(c, 0, size);
	memcpy(c, &x, size < sizeof(x) ? size : sizeof(x));
	return 0;
}

int pft_views_set_output(struct pft_views *v, const struct pft_views_output *o)
{
	if (!v || !o || o->size < PFT_FIRST_SIZE(struct pft_views_output) ||
	    o->order > PFT_VIEWS_ORDER_HOT)
		return -PFT_ERR_INVALID;
	memset(&v->out, 0, sizeof(v->out));
	pft_copy_known(&v->out, o, o->size, sizeof(*o));
	v->out.size = sizeof(v->out);
	return 0;
}

int pft_views_insn(const struct pft_views *v, size_t index, struct pft_view_insn *insn,
		   size_t size)
{
	if (!v || !insn || size < PFT_FIRST_SIZE(struct pft_view_insn) || !v->ready)
		return -PFT_ERR_INVALID;
	if (index >= v->naddrs)
		return -PFT_ERR_EOS;
	const struct vaddr *a = &v->addrs[index];
	struct pft_view_insn out = {
		.addr = a->addr, .has_direction = a->dir, .conditional = a->cond,
		.count = a->count, .taken = a->taken, .not_taken = a->not_taken,
		.file = a->file, .line = a->line
	};
	pft_copy_known(insn, &out, size, sizeof(out));
	return 0;
}
