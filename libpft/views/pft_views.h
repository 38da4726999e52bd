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

/* The lengths of one kind of call, in the clock's unit
 * (pft_timing.c): how many ended within the trace, and their shortest,
 * longest and summed lengths, inclusive and self. */
struct vcallstat {
	uint64_t returned;
	uint64_t incl_min, incl_max, incl_sum;
	uint64_t self_min, self_max, self_sum;
};

enum { VNONE = UINT32_MAX };

struct vfunc {
	const char *name, *file;
	uint32_t start, end, line;
	uint8_t shared;           /* of the line tables: every image's */
	uint8_t image;            /* else: the image whose symbol it is */
	uint64_t entered, self, incl, cycles;
	struct vcallstat calls;   /* per call (pft_timing.c) */
};

/* A range's instructions by function, for a range that leaves its
 * first function: consecutive instructions of one function are one. */
struct vseg {
	uint32_t func, ninsn;
};

enum {
	VFUNC_IMAGE_KEY_SHIFT = 33,  /* func_map key of an image's symbol: start | image << 33 */
	RANGE_NINSN_SHIFT = 31,      /* range_map key (vrange_key()): the start / 2 below, */
	RANGE_STATE_SHIFT = 53,      /* the instruction count, its state (6 bits), */
	RANGE_IMAGE_SHIFT = 59,      /* and the image in the top 5 bits */
	VRANGE_INSNS_MAX = 1 << 22   /* a RANGE's instructions: fewer (the key) */
};
#define VFUNC_UNKNOWN_KEY (1ull << 32)   /* func_map key of "[unknown]" */

/* The function around @addr as the views count it (@f, its name NULL in
 * none): a function of the line tables @lines (NULL: none), else a symbol
 * of image @img (index @image).  Returns its func_map key.  Reads only:
 * the parallel decode's workers call it too (pft_views_fold.c). */
uint64_t pft_vfunc_find(const struct pft_lines *lines, const struct pft_image *img,
			unsigned image, uint32_t addr, struct vfunc *f);

/* Whether a call (@tail 0) or tail call into @target enters function @f:
 * @target is its first instruction (a call's target 0 is none). */
static inline int vfunc_entered(const struct vfunc *f, uint32_t target, int tail)
{
	return (target || tail) && f->name && target == f->start;
}

/* Whether range @e, which starts in function @f, stays in it: a named
 * function, and the range ends before its end (if known). */
static inline int vfunc_holds(const struct vfunc *f, const struct pft_elem *e)
{
	return f->name && (f->end == 0 || e->last < f->end);
}

/* The range_map key of range @e of image @image: how it ended (taken or
 * not, and for a trace of every conditional instruction (ETMv3) taken,
 * not or failed its condition: 5 ends), with the instruction set (4) and
 * the memory space (3): 60 states; its start / 2 (an instruction's
 * address is even) and instruction count. */
static inline uint64_t vrange_key(const struct pft_elem *e, unsigned image)
{
	unsigned end = e->flags & PFT_ELEM_F_CONDS
		       ? 2u + (e->flags & PFT_ELEM_F_FAILED ? 2u : e->taken != 0) : e->taken != 0;
	unsigned state = ((e->isa & 3u) * 3u + (e->space < 3 ? e->space : 0u)) * 5u + end;

	return e->start >> 1 | (uint64_t)e->ninsn << RANGE_NINSN_SHIFT |
	       (uint64_t)state << RANGE_STATE_SHIFT | (uint64_t)image << RANGE_IMAGE_SHIFT;
}

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
	struct vcallstat stat;    /* per call (pft_timing.c) */
};

/* A function a frame ran before it tail-called the next (pft_timing.c):
 * its call ends with the frame, its own part ended at the tail call. */
struct vtail {
	uint32_t func, edge;
	uint64_t start, exc, self;
};

struct vframe {
	uint32_t node, edge;
	uint32_t site;            /* index in pft_views.sites, or VNONE */
	uint64_t entry;
	/* Timing (pft_timing.c): the function called (VNONE: the root, not
	 * timed), the exception that pushed it (0: a call), the source's
	 * tail records below its own, the clock and the source's handler
	 * time at entry, and the lengths of the calls it made. */
	uint32_t func;
	uint16_t exception;
	uint8_t is_exception;
	uint32_t tails;
	uint64_t start, exc, child;
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
	/* Timing: the handlers' own time so far (nested ones once), and the
	 * frames' tail records (at most VTAILS_MAX). */
	uint64_t exc_time;
	struct vtail *tails;
	size_t ntails, cap_tails;
};

/* Per kind of exception (pft_timing.c): how often it was taken, and its
 * handlers' lengths (nested handlers included) as a call's. */
struct vexc {
	uint64_t count;
	struct vcallstat len;
	uint8_t profile;          /* of the first taken (enum pft_profile) */
};

/* How often exception @number interrupted function @func. */
struct vinterrupt {
	uint32_t func;
	uint16_t number;
	uint64_t count;
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

struct vfold;

/* Source @source's image index in @v (the source made on first use, as
 * by a put): 0 or -PFT_ERR_NOMEM. */
int pft_views_source_image(struct pft_views *v, unsigned source, unsigned *image);

/* The function of a folded range's start (pft_views.c, count_folded()). */
struct vfold_memo {
	uint32_t addr, func;
	uint8_t image, known;
};

enum { VFOLD_MEMO_SIZE = 256 };

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
	uint8_t no_contexts;      /* the config's: calls for the entries only */
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
	struct vfold_memo fold_memo[VFOLD_MEMO_SIZE];
	struct vfold *fold;       /* pft_views_fold() (pft_views_fold.c) */

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

	/* Timing (pft_timing.c). */
	uint8_t exclude_exceptions; /* handlers' time out of the lengths */
	uint8_t clock;            /* enum vclock: the unit of the lengths */
	uint64_t clock_hz;        /* cycles per second for the writers (0: none) */
	struct vexc *excs;        /* [PFT_VIEWS_EXCEPTIONS], made on first use */
	struct vinterrupt *interrupts;
	size_t ninterrupts, cap_interrupts;
	struct vmap interrupt_map; /* number << 32 | func -> index */
	uint64_t tails_lost;      /* tail calls past VTAILS_MAX: not timed */
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
/* ---- Timing (pft_timing.c): per-call lengths over the views' frames ---- */

enum { PFT_VIEWS_EXCEPTIONS = 512, VTAILS_MAX = 4096 };
enum vclock { VCLOCK_UNSET = 0, VCLOCK_INSNS, VCLOCK_CYCLES };

/* Frame @f was pushed for event @ev (a CALL or EXCEPTION into function
 * @func) on source @s: its clock starts.  Inline: it runs at every call. */
/* The clock at event @ev: its cycles or its instructions, whichever the
 * first call had (then every one has cycles: the tracker's count, once
 * started, stays). */
static inline uint64_t pft_timing_clock(struct pft_views *v, const struct pft_call_event *ev)
{
	if (!v->clock)
		v->clock = ev->has_cycles ? VCLOCK_CYCLES : VCLOCK_INSNS;
	return v->clock == VCLOCK_CYCLES ? ev->cycles : ev->insns;
}

static inline void pft_timing_enter(struct pft_views *v, const struct vsource *s,
				    struct vframe *f, const struct pft_call_event *ev,
				    uint32_t func)
{
	f->func = func;
	f->is_exception = ev->kind == PFT_CALL_EXCEPTION;
	f->exception = !f->is_exception ? 0
			: ev->exception < PFT_VIEWS_EXCEPTIONS ? ev->exception
							       : PFT_VIEWS_EXCEPTIONS - 1;
	f->tails = (uint32_t)s->ntails;
	f->start = pft_timing_clock(v, ev);
	f->exc = s->exc_time;
	f->child = 0;
}
/* Exception @ev is taken while function @interrupted runs: counted. */
int pft_timing_exception(struct pft_views *v, const struct pft_call_event *ev,
			 uint32_t interrupted);
/* The top frame @f of @s tail-calls (event @ev) function @func by edge
 * @edge: the function it ran becomes a tail record. */
int pft_timing_tail(struct pft_views *v, struct vsource *s, struct vframe *f,
		    const struct pft_call_event *ev, uint32_t func, uint32_t edge);
/* Frame @f, the top of @s, closes at event @ev (@parent: the frame
 * below, NULL for none): its call's and its tail records' lengths are
 * counted when it returned within the trace. */
void pft_timing_close(struct pft_views *v, struct vsource *s, struct vframe *f,
		      struct vframe *parent, const struct pft_call_event *ev);
/* @n calls of frame @caller into function @func by edge @edge that
 * returned at once, without a frame of their own (pft_views.c,
 * apply_leaf_calls()): their lengths from @min to @max, @sum in all, in
 * the views' unit (no exception in them, no tail call). */
void pft_timing_leaf_calls(struct pft_views *v, struct vframe *caller, uint32_t func,
			   uint32_t edge, uint64_t n, uint64_t min, uint64_t max, uint64_t sum);
void pft_timing_free(struct pft_views *v);
/* @st in the views' unit. */
void pft_timing_calls(const struct pft_views *v, const struct vcallstat *st,
		      struct pft_view_calls *out);
/* The lengths of @st as JSON fields (",\"returned\":...") or text columns,
 * the columns' header, and a text note naming the unit. */
void pft_timing_write_calls(const struct pft_views *v, struct vout *o,
			    const struct vcallstat *st, int json);
void pft_timing_write_calls_header(const struct pft_views *v, struct vout *o);
void pft_timing_write_note(const struct pft_views *v, struct vout *o);
/* PFT_VIEW_EXCEPTIONS_TEXT / _JSONL. */
int pft_timing_write_exceptions(const struct pft_views *v, struct vout *o, int json);

/* The name of the function around @addr from @lines, else @image's
 * symbols; NULL when none.  Also its start. */
const char *pft_views_name_at(const struct pft_lines *lines,
			      const struct pft_image *image, uint32_t addr,
			      uint32_t *start);

#endif
