/* pft_views.h - what the views accumulator (pft_views.c), its
 * writers (pft_views_write.c) and the timeline (pft_timeline.c) share. */
#ifndef PFT_VIEWS_INT_H
#define PFT_VIEWS_INT_H

#include <stdarg.h>
#include <string.h>

#include "common/pft_grow.h"

/* A hash map from 64-bit keys to 32-bit indexes (open addressing). */
struct vmap {
	uint64_t *keys;
	uint32_t *vals;       /* UINT32_MAX: empty slot */
	size_t cap, n;
};

/* 1 and *@val when @key is there, else 0. */
int pft_vmap_find(const struct vmap *m, uint64_t key, uint32_t *val);
int pft_vmap_put(struct vmap *m, uint64_t key, uint32_t val);
void pft_vmap_free(struct vmap *m);


/* Buffered output through a caller's writer; the first error sticks. */
struct vout {
	int (*write)(void *ctx, const char *buf, size_t len);
	void *ctx;
	int err;
	unsigned flushes;         /* writes so far */
	size_t len;
	char buf[8192];
};

void pft_vout_init(struct vout *o, int (*write)(void *, const char *, size_t), void *ctx);
void pft_vout_printf(struct vout *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Without printf, for the outputs that write an event per call: the
 * common case (it fits) inline. */
void pft_vout_put_slow(struct vout *o, const char *s, size_t n);
static inline void vout_put(struct vout *o, const char *s, size_t n)
{
	if (n <= sizeof(o->buf) - o->len) {
		memcpy(o->buf + o->len, s, n);
		o->len += n;
	} else {
		pft_vout_put_slow(o, s, n);
	}
}
static inline void vout_str(struct vout *o, const char *s)
{
	vout_put(o, s, strlen(s));
}
/* The first @n bytes of @room bytes at @s (@room a constant): all @room
 * copied where they fit, a copy of a size known when compiled (no call
 * to memcpy()), and only @n count. */
static inline void vout_put_room(struct vout *o, const char *s, size_t room, size_t n)
{
	if (room <= sizeof(o->buf) - o->len) {
		memcpy(o->buf + o->len, s, room);
		o->len += n;
	} else {
		vout_put(o, s, n);
	}
}
void pft_vout_u64(struct vout *o, uint64_t value);
/* @value's decimal digits, written backwards from @end: the first. */
char *pft_vout_digits(char *end, uint64_t value);
/* @value / 1000 with three decimals ("12.345", "0.007"). */
void pft_vout_milli(struct vout *o, uint64_t value);
/* "0x" and 8 lowercase hex digits. */
void pft_vout_hex32(struct vout *o, uint32_t value);
/* @s as a JSON string, quotes included. */
void pft_vout_json(struct vout *o, const char *s);
/* @s with control characters as '?' (and, with @folded, ';' and blanks
 * as '_'). */
void pft_vout_plain(struct vout *o, const char *s, int folded);
/* Flush; returns 0 or the first error. */
int pft_vout_end(struct vout *o);

enum { VNONE = UINT32_MAX };

struct vfunc {
	const char *name, *file;
	uint32_t start, end, line;
	uint8_t shared;           /* of the line tables: every image's */
	uint8_t image;            /* else: the image whose symbol it is */
	uint64_t entered, self, incl, cycles;
};

/* A range's instructions by function, for a range that leaves its
 * first function: consecutive instructions of one function are one. */
struct vseg {
	uint32_t func, ninsn;
};

/* vrange @nseg: in one function; not split yet; split in more than
 * VSEG_MAX pieces (counted instruction by instruction, as when split). */
enum { VSEG_IN_FUNC = 0, VSEG_MAX = 8, VSEG_MANY = 254, VSEG_UNSPLIT = 255 };

struct vrange {
	uint32_t start, ninsn;
	uint8_t isa, space, taken;
	uint8_t flags;            /* its elements' enum pft_elem_flags */
	uint8_t nseg;             /* its pieces in @segs from @seg, or VSEG_* */
	uint8_t image;            /* index in pft_views.images */
	uint32_t func;            /* the function of its first instruction */
	uint32_t seg;
	uint64_t count;
};

/* A calling-context node: a function reached through a call path. */
struct vnode {
	uint32_t parent, func;
	uint64_t self, total, cycles;
	uint8_t cut;              /* the contexts of @func past the table's limit,
				   * merged: a root with no known caller */
};

struct vedge {
	uint32_t caller, callee;  /* function indexes */
	uint64_t calls, incl;
};

struct vframe {
	uint32_t node, edge;
	uint32_t site;            /* index in pft_views.sites, or VNONE */
	uint64_t entry;
};

/* A call site: the calls from the branch at @site into function @callee. */
struct vsite {
	uint32_t site, callee;
	uint64_t calls, incl;
};

struct vsource {
	struct pft_calls *calls;
	uint8_t image;            /* index in pft_views.images */
	struct vframe *stack;     /* see frame_at() in pft_views.c */
	size_t n, cap, base;
};

/* An executed instruction (or a conditional branch that never ran). */
struct vaddr {
	uint32_t addr;
	uint8_t cond;             /* a conditional branch */
	uint8_t dir;              /* @taken and @not_taken are known */
	uint8_t isa, size;        /* its instruction set and size */
	uint8_t image;            /* the image it was read from */
	uint8_t cond_enc;         /* conditional by its encoding */
	uint32_t func;            /* its function (an index) */
	/* Where every conditional instruction is traced (ETMv3): the times it
	 * passed and failed its condition, whatever it is; which of these
	 * instructions are conditional is settled at the end. */
	uint64_t passed, failed;
	/* The times it changed the flow (or passed its condition) and not. */
	uint64_t count, taken, not_taken;
	const char *file;         /* its line (NULL: none) */
	uint32_t line;
};

/* A range looked up lately (key 0: none; a range's key never is). */
struct vrange_memo {
	uint64_t key;
	uint32_t index;
};

enum { VRANGE_MEMO_SIZE = 1024 };

/* Where a call (@tail 0) or a tail call from node @from to @target led,
 * looked up lately: calls go to the same few places.  @target 0: none
 * (a call without a target is not kept). */
struct vcall_memo {
	uint32_t from, target, site;
	uint32_t func, node, edge, site_index;
	uint8_t tail;
};

enum { VCALL_MEMO_SIZE = 512 };

struct vline {
	const char *file;
	uint32_t line;
	uint64_t count;
};

struct pft_views {
	struct pft_image *images[PFT_VIEWS_MAX_IMAGES]; /* [0]: the config's */
	size_t nimages;
	const struct pft_lines *lines;
	uint32_t max_depth;
	uint8_t insns_only;       /* the config's: no calls */
	uint8_t finished;         /* pft_views_finish() was called */
	uint8_t ready;            /* ... and succeeded: views can be written */
	struct vsource *sources[128];

	struct vfunc *funcs;
	size_t nfuncs, cap_funcs;
	struct vmap func_map;     /* start (or 1 << 32: unknown) -> index */
	struct vmap addr_func_map; /* address -> index of its function */

	struct vrange *ranges;
	size_t nranges, cap_ranges;
	struct vmap range_map;
	struct vrange_memo range_memo[VRANGE_MEMO_SIZE];
	struct vseg *segs;        /* the pieces of split ranges */
	size_t nsegs, cap_segs;
	struct vcall_memo call_memo[VCALL_MEMO_SIZE];

	struct vnode *nodes;
	size_t nnodes, cap_nodes;
	struct vmap node_map;     /* parent << 32 | func -> index */

	struct vedge *edges;
	size_t nedges, cap_edges;
	struct vmap edge_map;

	struct vsite *sites;
	size_t nsites, cap_sites;
	struct vmap site_map;     /* callee << 32 | site -> index */

	struct pft_views_output out; /* pft_views_set_output() */

	/* After finish. */
	struct vaddr *addrs;      /* sorted by addr */
	size_t naddrs, cap_addrs;
	struct vline *vlines;     /* sorted by file, line */
	size_t nvlines, cap_vlines;
	uint32_t *order;          /* function indexes by start */
	struct pft_names *names;  /* the labels of ambiguous names */
	uint64_t total_insns;     /* after finish */
	uint8_t has_cycles;
	/* What did not fit the tables (struct pft_views_cut). */
	uint64_t cut_contexts, cut_calls, cut_insns;
};

/* What the output's selection (pft_views_set_output()) lets through:
 * function @f (by its start; "[unknown]" never when there is one) or
 * address @addr. */
static inline int views_func_selected(const struct pft_views *v, const struct vfunc *f)
{
	return !v->out.select || (f->name && pft_select_contains(v->out.select, f->start));
}

static inline int views_addr_selected(const struct pft_views *v, uint32_t addr)
{
	return !v->out.select || pft_select_contains(v->out.select, addr);
}

/* The instructions (indexes into v->addrs) grouped by function, in
 * address order within each: *@order (malloc'ed) and in *@first the
 * start of each function's group (v->nfuncs + 1 entries).  Returns 0 or
 * -PFT_ERR_NOMEM. */
int pft_views_by_function(const struct pft_views *v, uint32_t **order, size_t **first);

/* The line-table row's file and line at @addr, without the inline
 * look-up of pft_lines_lookup() (pft_lines.c).  0 or -PFT_ERR_NOMAP. */
int pft_lines_line_at(const struct pft_lines *l, uint32_t addr, const char **file,
		      uint32_t *line);

/* The writers of pft_views_annotate.c and pft_views_sample.c. */
int pft_views_write_annotate(const struct pft_views *v, struct vout *o, int json);
int pft_views_write_sample(const struct pft_views *v, struct vout *o);

/* The name of the function around @addr from @lines, else @image's
 * symbols; NULL when none.  Also its start. */
const char *pft_views_name_at(const struct pft_lines *lines,
			      const struct pft_image *image, uint32_t addr,
			      uint32_t *start);

#endif
