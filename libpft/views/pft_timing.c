/*
 * Per-call lengths (the timing statistics of pft/views.h): each frame of
 * the views' stacks starts a clock when it is pushed; when it closes, the
 * call's inclusive length (everything from the function's first
 * instruction through the one that closed it) and its self length (less
 * the calls it made) count for its function and its caller -> callee
 * edge.  An exception's frame counts for its kind.  With
 * exclude_exceptions, the handlers' own time (nested handlers once) is
 * taken out of every length that spans it.  The clock is the cycle count
 * when the first call has one (a cycle-accurate trace), else the
 * instruction count: one unit, chosen once.
 *
 * A function that tail-calls another ends its call with the frame (the
 * return of the function it tail-called) but its own part at the tail
 * call: a tail record keeps its clock until the frame closes.  Memory:
 * the frames the views keep, VTAILS_MAX tail records per source, the
 * exception kinds and the (kind, function) pairs of interruptions.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "views/pft_views.h"

static inline uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

static inline uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static inline uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static inline __attribute__((always_inline)) void count_call(struct vcallstat *st, uint64_t incl,
							     uint64_t self)
{
	if (!st->returned++) {
		st->incl_min = incl;
		st->self_min = self;
	} else {
		st->incl_min = min64(st->incl_min, incl);
		st->self_min = min64(st->self_min, self);
	}
	st->incl_max = max64(st->incl_max, incl);
	st->self_max = max64(st->self_max, self);
	st->incl_sum += incl;
	st->self_sum += self;
}

/* @n calls whose own lengths are their lengths, from @min to @max,
 * @sum in all. */
static void count_calls(struct vcallstat *st, uint64_t n, uint64_t min, uint64_t max,
			uint64_t sum)
{
	if (!st->returned) {
		st->incl_min = min;
		st->self_min = min;
	} else {
		st->incl_min = min64(st->incl_min, min);
		st->self_min = min64(st->self_min, min);
	}
	st->returned += n;
	st->incl_max = max64(st->incl_max, max);
	st->self_max = max64(st->self_max, max);
	st->incl_sum += sum;
	st->self_sum += sum;
}

void pft_timing_leaf_calls(struct pft_views *v, struct vframe *caller, uint32_t func,
			   uint32_t edge, uint64_t n, uint64_t min, uint64_t max, uint64_t sum)
{
	count_calls(&v->funcs[func].calls, n, min, max, sum);
	if (edge != VNONE)
		count_calls(&v->edges[edge].stat, n, min, max, sum);
	caller->child += sum;
}

/* The handlers' time since @exc_at_entry, when it is left out. */
static inline uint64_t excluded(const struct pft_views *v, const struct vsource *s,
				uint64_t exc_at_entry)
{
	return v->exclude_exceptions ? sub0(s->exc_time, exc_at_entry) : 0;
}

int pft_timing_exception(struct pft_views *v, const struct pft_call_event *ev,
			 uint32_t interrupted)
{
	unsigned number = ev->exception < PFT_VIEWS_EXCEPTIONS ? ev->exception
							       : PFT_VIEWS_EXCEPTIONS - 1;
	uint64_t key = (uint64_t)number << 32 | interrupted;
	uint32_t index;

	if (!v->excs && !(v->excs = calloc(PFT_VIEWS_EXCEPTIONS, sizeof(*v->excs))))
		return -PFT_ERR_NOMEM;
	if (!v->excs[number].count++)
		v->excs[number].profile = ev->profile;
	if (pft_vmap_find(&v->interrupt_map, key, &index)) {
		v->interrupts[index].count++;
		return 0;
	}
	/* (kind, function) pairs are bounded by the functions: 512 each. */
	if (pft_grow((void **)&v->interrupts, &v->cap_interrupts, v->ninterrupts + 1,
		     sizeof(*v->interrupts)) ||
	    pft_vmap_put(&v->interrupt_map, key, (uint32_t)v->ninterrupts))
		return -PFT_ERR_NOMEM;
	v->interrupts[v->ninterrupts++] = (struct vinterrupt){ interrupted, (uint16_t)number, 1 };
	return 0;
}

int pft_timing_tail(struct pft_views *v, struct vsource *s, struct vframe *f,
		    const struct pft_call_event *ev, uint32_t func, uint32_t edge)
{
	uint64_t now = pft_timing_clock(v, ev);

	if (f->func != VNONE) {
		if (s->ntails >= VTAILS_MAX) {
			v->tails_lost++;
		} else {
			uint64_t incl = sub0(sub0(now, f->start), excluded(v, s, f->exc));
			if (pft_grow((void **)&s->tails, &s->cap_tails, s->ntails + 1,
				     sizeof(*s->tails)))
				return -PFT_ERR_NOMEM;
			s->tails[s->ntails++] = (struct vtail){ .func = f->func, .edge = f->edge,
								.start = f->start, .exc = f->exc,
								.self = sub0(incl, f->child) };
		}
	}
	/* The frame runs the new function from here; its tail records stay
	 * below the ones it may make. */
	if (f->func != VNONE)
		f->func = func;
	f->edge = edge;
	f->start = now;
	f->exc = s->exc_time;
	f->child = 0;
	return 0;
}

void pft_timing_close(struct pft_views *v, struct vsource *s, struct vframe *f,
		      struct vframe *parent, const struct pft_call_event *ev)
{
	uint64_t now = pft_timing_clock(v, ev);
	uint64_t incl = sub0(sub0(now, f->start), excluded(v, s, f->exc));
	const int returned = (ev->kind == PFT_CALL_RETURN || ev->kind == PFT_CALL_EXCEPTION_RETURN) &&
			     !(ev->flags & (PFT_CALL_F_END | PFT_CALL_F_UNTRACED));
	/* The call (or the handler) began where the oldest of its tail
	 * records began. */
	uint64_t call = incl;
	size_t first = f->tails < s->ntails ? f->tails : s->ntails;

	if (f->is_exception) {
		/* The handler's length counts nested handlers; its own time
		 * (without them) is what the frames around it leave out. */
		uint64_t origin = first < s->ntails ? s->tails[first].start : f->start;
		uint64_t origin_exc = first < s->ntails ? s->tails[first].exc : f->exc;
		uint64_t handler = sub0(now, origin);
		if (returned && v->excs)
			count_call(&v->excs[f->exception].len, handler, handler);
		s->exc_time += sub0(handler, sub0(s->exc_time, origin_exc));
	}
	if (f->func != VNONE && returned) {
		uint64_t self = sub0(incl, f->child);
		count_call(&v->funcs[f->func].calls, incl, self);
		if (f->edge != VNONE)
			count_call(&v->edges[f->edge].stat, incl, self);
	}
	for (size_t i = s->ntails; i-- > first;) {
		const struct vtail *t = &s->tails[i];
		uint64_t t_incl = sub0(sub0(now, t->start), excluded(v, s, t->exc));
		if (returned) {
			count_call(&v->funcs[t->func].calls, t_incl, t->self);
			if (t->edge != VNONE)
				count_call(&v->edges[t->edge].stat, t_incl, t->self);
		}
		call = t_incl;
	}
	s->ntails = first;
	/* What a call took is its caller's callees' time; a handler is no
	 * callee (its time is the interrupted function's, or left out). */
	if (parent && !f->is_exception)
		parent->child += call;
}

void pft_timing_free(struct pft_views *v)
{
	free(v->excs);
	free(v->interrupts);
	pft_vmap_free(&v->interrupt_map);
	for (size_t i = 0; i < 128; i++)
		if (v->sources[i])
			free(v->sources[i]->tails);
}

/* ---- Figures and writers ---- */

enum pft_view_len_unit pft_views_len_unit(const struct pft_views *v)
{
	if (!v || v->clock != VCLOCK_CYCLES)
		return PFT_VIEW_LEN_INSNS;
	return v->clock_hz ? PFT_VIEW_LEN_NS : PFT_VIEW_LEN_CYCLES;
}

const char *pft_view_len_unit_name(unsigned unit)
{
	static const char *const names[] = { "insns", "cycles", "ns" };

	return unit < sizeof(names) / sizeof(names[0]) ? names[unit] : "unknown";
}

/* @x (of the clock) in the views' unit. */
static uint64_t in_unit(const struct pft_views *v, uint64_t x)
{
	if (pft_views_len_unit(v) == PFT_VIEW_LEN_NS)
		return (uint64_t)((double)x * 1e9 / (double)v->clock_hz + 0.5);
	return x;
}

void pft_timing_calls(const struct pft_views *v, const struct vcallstat *st,
		      struct pft_view_calls *out)
{
	*out = (struct pft_view_calls){ .returned = st->returned };
	if (!st->returned)
		return;
	out->incl_min = in_unit(v, st->incl_min);
	out->incl_max = in_unit(v, st->incl_max);
	out->incl_sum = in_unit(v, st->incl_sum);
	out->self_min = in_unit(v, st->self_min);
	out->self_max = in_unit(v, st->self_max);
	out->self_sum = in_unit(v, st->self_sum);
}

static double average(uint64_t sum, uint64_t n)
{
	return n ? (double)sum / (double)n : 0.0;
}

void pft_timing_write_calls(const struct pft_views *v, struct vout *o,
			    const struct vcallstat *st, int json)
{
	struct pft_view_calls c;

	pft_timing_calls(v, st, &c);
	if (json) {
		pft_vout_printf(o, ",\"returned\":%" PRIu64 ",\"incl_min\":%" PRIu64
			       ",\"incl_max\":%" PRIu64 ",\"incl_avg\":%.2f,\"self_min\":%" PRIu64
			       ",\"self_max\":%" PRIu64 ",\"self_avg\":%.2f,\"len_unit\":\"%s\"",
			       c.returned, c.incl_min, c.incl_max, average(c.incl_sum, c.returned),
			       c.self_min, c.self_max, average(c.self_sum, c.returned),
			       pft_view_len_unit_name(pft_views_len_unit(v)));
		if (v->exclude_exceptions)
			pft_vout_printf(o, ",\"exceptions\":\"excluded\"");
		return;
	}
	pft_vout_printf(o, " %9" PRIu64 " %9" PRIu64 " %11.1f %9" PRIu64 " %9" PRIu64 " %11.1f %9"
		       PRIu64, c.returned, c.incl_min, average(c.incl_sum, c.returned), c.incl_max,
		       c.self_min, average(c.self_sum, c.returned), c.self_max);
}

void pft_timing_write_calls_header(const struct pft_views *v, struct vout *o)
{
	(void)v;
	pft_vout_printf(o, " %9s %9s %11s %9s %9s %11s %9s", "returned", "incl_min", "incl_avg",
		       "incl_max", "self_min", "self_avg", "self_max");
}

void pft_timing_write_note(const struct pft_views *v, struct vout *o)
{
	pft_vout_printf(o, "# lengths of one call in %s%s\n",
		       pft_view_len_unit_name(pft_views_len_unit(v)),
		       v->exclude_exceptions ? ", exception handlers excluded" : "");
}

static int cmp_interrupt(const void *a, const void *b)
{
	const struct vinterrupt *x = a, *y = b;

	if (x->number != y->number)
		return x->number < y->number ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return (x->func > y->func) - (x->func < y->func);
}

/* The interruptions sorted by kind, most first (a copy; NULL: none or no
 * memory, *@err says which). */
static struct vinterrupt *sorted_interrupts(const struct pft_views *v, int *err)
{
	struct vinterrupt *s;

	*err = 0;
	if (!v->ninterrupts)
		return NULL;
	if (!(s = malloc(v->ninterrupts * sizeof(*s)))) {
		*err = -PFT_ERR_NOMEM;
		return NULL;
	}
	memcpy(s, v->interrupts, v->ninterrupts * sizeof(*s));
	qsort(s, v->ninterrupts, sizeof(*s), cmp_interrupt);
	return s;
}

/* Kind @number's figures, its interruptions from @sorted (by kind). */
static void exception_of(const struct pft_views *v, unsigned number,
			 const struct vinterrupt *sorted, struct pft_view_exception *e)
{
	const size_t max = sizeof(e->interrupted) / sizeof(e->interrupted[0]);

	memset(e, 0, sizeof(*e));
	e->number = (uint16_t)number;
	e->profile = v->excs[number].profile;
	e->count = v->excs[number].count;
	pft_timing_calls(v, &v->excs[number].len, &e->len);
	for (size_t i = 0; sorted && i < v->ninterrupts; i++) {
		if (sorted[i].number != number || e->ninterrupted == max)
			continue;
		const struct vfunc *f = &v->funcs[sorted[i].func];
		e->interrupted[e->ninterrupted].name = f->name ? f->name : "[unknown]";
		e->interrupted[e->ninterrupted].start = f->start;
		e->interrupted[e->ninterrupted++].count = sorted[i].count;
	}
}

int pft_views_exception(const struct pft_views *v, size_t index, struct pft_view_exception *e,
			size_t size)
{
	struct pft_view_exception x;
	int err;

	if (!v || !e || size < offsetof(struct pft_view_exception, interrupted) || !v->ready)
		return -PFT_ERR_INVALID;
	for (unsigned n = 0; v->excs && n < PFT_VIEWS_EXCEPTIONS; n++) {
		if (!v->excs[n].count || index--)
			continue;
		struct vinterrupt *sorted = sorted_interrupts(v, &err);
		if (err)
			return err;
		exception_of(v, n, sorted, &x);
		free(sorted);
		memcpy(e, &x, size < sizeof(x) ? size : sizeof(x));
		return 0;
	}
	return -PFT_ERR_EOS;
}

int pft_timing_write_exceptions(const struct pft_views *v, struct vout *o, int json)
{
	const char *unit = pft_view_len_unit_name(pft_views_len_unit(v));
	char name[PFT_EXCEPTION_NAME_MAX];
	struct pft_view_exception e;
	int err;
	struct vinterrupt *sorted = sorted_interrupts(v, &err);

	if (err)
		return err;
	if (!json)
		pft_vout_printf(o, "%6s  %-16s %9s %9s %9s %11s %9s %12s  %-6s  %s\n", "number", "name",
			       "count", "returned", "min", "avg", "max", "total", "unit",
			       "interrupted most");
	for (unsigned n = 0; v->excs && n < PFT_VIEWS_EXCEPTIONS; n++) {
		if (!v->excs[n].count)
			continue;
		exception_of(v, n, sorted, &e);
		pft_exception_name_in(e.profile, n, name, sizeof(name));
		double avg = average(e.len.incl_sum, e.len.returned);
		if (json) {
			pft_vout_printf(o, "{\"type\":\"exception\",\"number\":%u,\"name\":\"%s\","
				       "\"count\":%" PRIu64 ",\"returned\":%" PRIu64 ",\"min\":%" PRIu64
				       ",\"max\":%" PRIu64 ",\"avg\":%.2f,\"total\":%" PRIu64
				       ",\"len_unit\":\"%s\",\"interrupted\":[",
				       n, name, e.count, e.len.returned, e.len.incl_min,
				       e.len.incl_max, avg, e.len.incl_sum, unit);
			for (size_t i = 0; i < e.ninterrupted; i++) {
				pft_vout_printf(o, "%s{\"fn\":", i ? "," : "");
				pft_vout_json(o, e.interrupted[i].name);
				pft_vout_printf(o, ",\"count\":%" PRIu64 "}", e.interrupted[i].count);
			}
			pft_vout_printf(o, "]}\n");
			continue;
		}
		pft_vout_printf(o, "%6u  %-16s %9" PRIu64 " %9" PRIu64 " %9" PRIu64 " %11.1f %9" PRIu64
			       " %12" PRIu64 "  %-6s ", n, name, e.count,
			       e.len.returned, e.len.incl_min, avg, e.len.incl_max, e.len.incl_sum,
			       unit);
		for (size_t i = 0; i < e.ninterrupted; i++) {
			pft_vout_printf(o, "%s", i ? ", " : " ");
			pft_vout_plain(o, e.interrupted[i].name, 0);
			pft_vout_printf(o, " (%" PRIu64 ")", e.interrupted[i].count);
		}
		pft_vout_printf(o, "\n");
	}
	free(sorted);
	return 0;
}
