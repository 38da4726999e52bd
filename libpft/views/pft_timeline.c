/* The timeline: Chrome trace-event JSON spans written as call events come
 * (pft.h, section views).  Nothing is kept but the configuration, a cache
 * of names, a buffer of whole events and a count of the open spans. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "views/pft_calls.h"
#include "views/pft_views.h"
#include "common/pft_size.h"

/* The name of a call target (calls go to the same few functions over
 * and over): direct-mapped by address. */
struct name_cache {
	uint32_t addr;
	uint8_t valid;
	uint8_t json_len;         /* @json's length; 0: not kept yet (or long) */
	const char *name;         /* NULL: none known */
	char json[106];           /* @name as written: quoted, escaped */
};

enum { NAME_CACHE_SIZE = 256 };

/* A span's begin after its time: its name and arguments, which depend
 * on the call site, target and depth only (a span per call: writing them
 * each time was most of the timeline's own time).  Direct-mapped. */
struct span_key {
	uint32_t site, target, depth;
	uint16_t exception;       /* of an EXCEPTION, whose name it gives */
	uint8_t is_exception;
	uint8_t profile;          /* of @exception */
};

struct span_memo {
	struct span_key key;
	uint8_t len;              /* 0: empty */
	char text[176];
};

enum { SPAN_MEMO_BITS = 9 };

/* An event fits in this much of the buffer unless its name is long. */
enum { EVENT_ROOM = 512 };

struct pft_timeline {
	struct name_cache names[NAME_CACHE_SIZE];
	struct span_memo spans[1 << SPAN_MEMO_BITS];
	struct vout out;          /* whole events (tracks may share a writer) */
	struct pft_image *image;
	const struct pft_lines *lines;
	uint64_t hz;
	uint32_t tid;
	uint8_t clock;
	uint64_t time;            /* PFT_TIMELINE_TIME: the last element's */
	uint8_t have_time;
	uint64_t event_time;      /* ... and the time of the events it makes */
	/* Each event's start up to its time, track included. */
	char head[2][64];
	uint8_t head_len[2];
	/* Spans begun and not ended: one per frame of the calls tracker, plus
	 * the frames it forgot at its depth limit (a CALL there is one span
	 * more at the same depth), which a return below them ends, so that
	 * spans nest and every one ends.  A count, not a stack: O(1) memory. */
	uint32_t open;
};

struct pft_timeline *pft_timeline_alloc(const struct pft_timeline_config *cfg, int *errcode)
{
	struct pft_timeline *t = NULL;
	int err = -PFT_ERR_INVALID;

	if (cfg && cfg->size >= PFT_FIRST_SIZE(struct pft_timeline_config) && cfg->write &&
	    cfg->clock <= PFT_TIMELINE_TIME) {
		err = -PFT_ERR_NOMEM;
		t = calloc(1, sizeof(*t));
	}
	if (t) {
		struct vout *o = &t->out;
		t->image = cfg->image;
		t->lines = cfg->lines;
		t->hz = cfg->hz;
		t->tid = cfg->tid;
		t->clock = cfg->clock;
		for (int b = 0; b < 2; b++)
			t->head_len[b] = (uint8_t)snprintf(t->head[b], sizeof(t->head[b]),
							   ",\n{\"ph\":\"%c\",\"pid\":1,\"tid\":%" PRIu32
							   ",\"ts\":", b ? 'B' : 'E', t->tid);
		pft_vout_init(o, cfg->write, cfg->ctx);
		pft_vout_printf(o, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,"
			    "\"tid\":%" PRIu32 ",\"args\":{\"name\":", t->tid);
		if (cfg->track_name) {
			pft_vout_json(o, cfg->track_name);
		} else {
			pft_vout_printf(o, "\"trace %" PRIu32 "\"", t->tid);
		}
		/* Ticks of the timestamp counter: which, says the file. */
		if (t->clock == PFT_TIMELINE_TIME && t->hz)
			pft_vout_printf(o, ",\"time\":\"timestamps at %" PRIu64 " Hz\"", t->hz);
		else if (t->clock == PFT_TIMELINE_TIME)
			pft_vout_printf(o, ",\"time\":\"timestamp ticks\"");
		pft_vout_printf(o, "}}");
		err = pft_vout_end(o);
		if (err) {
			free(t);
			t = NULL;
		}
	}
	if (errcode)
		*errcode = err;
	return t;
}

void pft_timeline_free(struct pft_timeline *t)
{
	free(t);
}

static int write_text(int (*write)(void *ctx, const char *buf, size_t len), void *ctx,
		      const char *text)
{
	if (!write)
		return -PFT_ERR_INVALID;
	int r = write(ctx, text, strlen(text));
	return r < 0 ? r : 0;
}

int pft_timeline_begin(int (*write)(void *ctx, const char *buf, size_t len), void *ctx)
{
	/* A first event, so that every later one starts with a comma. */
	return write_text(write, ctx,
			  "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"
			  "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,"
			  "\"args\":{\"name\":\"pft\"}}");
}

int pft_timeline_end(int (*write)(void *ctx, const char *buf, size_t len), void *ctx)
{
	return write_text(write, ctx, "\n]}\n");
}

static void timestamp(const struct pft_timeline *t, struct vout *o,
		      const struct pft_call_event *ev)
{
	uint64_t value = ev->insns;

	if (t->clock == PFT_TIMELINE_CYCLES && ev->has_cycles)
		value = ev->cycles;
	else if (t->clock == PFT_TIMELINE_TIMESTAMP && ev->has_ts)
		value = ev->ts;
	else if (t->clock == PFT_TIMELINE_TIME)
		value = t->event_time;
	if (!t->hz) {
		pft_vout_u64(o, value);
		return;
	}
	/* Microseconds with three decimals. */
	double ns_rounded = (double)value * 1e9 / (double)t->hz + 0.5;
	if (ns_rounded >= 18446744073709551616.0) {
		/* Past 2^64 ns (a 64-bit count at a low clock): no integer holds
		 * it, and converting would be undefined. */
		char big[64];
		snprintf(big, sizeof(big), "%.3f", (ns_rounded - 0.5) / 1000.0);
		vout_str(o, big);
		return;
	}
	pft_vout_milli(o, (uint64_t)ns_rounded);
}

static struct name_cache *target_name(struct pft_timeline *t, uint32_t addr)
{
	struct name_cache *c = &t->names[(addr >> 1) % NAME_CACHE_SIZE];
	uint32_t start;

	if (!c->valid || c->addr != addr)
		*c = (struct name_cache){ .addr = addr, .valid = 1,
					  .name = pft_views_name_at(t->lines, t->image, addr, &start) };
	return c;
}

/* The start of an event (@begin: B, else E): its phase, track and time. */
static void event_head(const struct pft_timeline *t, struct vout *o, int begin,
		       const struct pft_call_event *ev)
{
	vout_put_room(o, t->head[begin], sizeof(t->head[begin]), t->head_len[begin]);
	timestamp(t, o, ev);
}

/* Function name @c in JSON, kept as written the first time (a span per
 * call: escaping it each time was a tenth of the timeline's time). */
static void write_name(struct vout *o, struct name_cache *c)
{
	if (c->json_len) {
		vout_put(o, c->json, c->json_len);
		return;
	}
	size_t before = o->len;
	unsigned flushes = o->flushes;
	pft_vout_json(o, c->name);
	if (o->flushes == flushes && o->len - before <= sizeof(c->json)) {
		c->json_len = (uint8_t)(o->len - before);
		memcpy(c->json, o->buf + before, c->json_len);
	}
}

/* What span_memo keeps. */
static void span_args(struct pft_timeline *t, struct vout *o,
		      const struct pft_call_event *ev)
{
	struct name_cache *name = ev->target ? target_name(t, ev->target) : NULL;

	vout_str(o, ",\"name\":");
	if (ev->kind == PFT_CALL_EXCEPTION) {
		char exc[PFT_EXCEPTION_NAME_MAX];
		vout_str(o, "\"exception ");
		vout_str(o, pft_exception_name_in(ev->profile, ev->exception, exc, sizeof(exc)));
		vout_str(o, "\"");
	} else if (name && name->name) {
		write_name(o, name);
	} else {
		vout_str(o, "\"");
		pft_vout_hex32(o, ev->target);
		vout_str(o, "\"");
	}
	vout_str(o, ",\"args\":{\"depth\":");
	pft_vout_u64(o, ev->depth);
	vout_str(o, ",\"site\":\"");
	pft_vout_hex32(o, ev->site);
	vout_str(o, "\",\"entry\":\"");
	pft_vout_hex32(o, ev->target);
	vout_str(o, "\"}}");
}

static void begin_span(struct pft_timeline *t, struct vout *o,
		       const struct pft_call_event *ev)
{
	struct span_key key = {
		.site = ev->site, .target = ev->target, .depth = ev->depth,
		.is_exception = ev->kind == PFT_CALL_EXCEPTION,
		.exception = ev->kind == PFT_CALL_EXCEPTION ? ev->exception : 0,
		.profile = ev->kind == PFT_CALL_EXCEPTION ? ev->profile : 0
	};
	uint32_t h = ((key.site >> 1) * 0x9e3779b1u ^ (key.target >> 1) * 0x85ebca6bu ^
		      key.depth * 0xc2b2ae35u ^ key.exception) * 2654435761u;
	struct span_memo *m = &t->spans[h >> (32 - SPAN_MEMO_BITS)];
	const struct span_key *k = &m->key;

	event_head(t, o, 1, ev);
	if (m->len && k->site == key.site && k->target == key.target && k->depth == key.depth &&
	    k->exception == key.exception && k->is_exception == key.is_exception &&
	    k->profile == key.profile) {
		vout_put_room(o, m->text, sizeof(m->text), m->len);
		return;
	}
	size_t before = o->len;
	unsigned flushes = o->flushes;
	span_args(t, o, ev);
	if (o->flushes == flushes && o->len - before <= sizeof(m->text)) {
		m->key = key;
		m->len = (uint8_t)(o->len - before);
		memcpy(m->text, o->buf + before, m->len);
	}
}

static void end_span(const struct pft_timeline *t, struct vout *o,
		     const struct pft_call_event *ev)
{
	event_head(t, o, 0, ev);
	vout_str(o, "}");
}

/* pft_timeline_put() of a checked event. */
static int put_event(struct pft_timeline *t, const struct pft_call_event *ev)
{
	struct vout *o = &t->out;

	if (sizeof(o->buf) - o->len < EVENT_ROOM)
		pft_vout_end(o);
	unsigned flushes = o->flushes;
	/* Compares, not a switch: its jump through a table was mispredicted
	 * most of the time (cachegrind). */
	if (ev->kind == PFT_CALL_CALL || ev->kind == PFT_CALL_EXCEPTION) {
		begin_span(t, o, ev);
		t->open++;
	} else if (ev->kind == PFT_CALL_RETURN || ev->kind == PFT_CALL_EXCEPTION_RETURN) {
		do {
			end_span(t, o, ev);
			if (t->open)
				t->open--;
		} while (t->open > ev->depth);
	} else if (ev->kind == PFT_CALL_TAIL_CALL && ev->depth) {
		/* (The outermost function has no span to replace.) */
		end_span(t, o, ev);
		begin_span(t, o, ev);
	}
	/* An event that did not fit went out in part: the rest goes now, so
	 * that another track's events never come in between. */
	if (o->flushes != flushes)
		pft_vout_end(o);
	return o->err;
}

int pft_timeline_put(struct pft_timeline *t, const struct pft_call_event *ev, size_t size)
{
	if (!t || !ev || size < PFT_FIRST_SIZE(struct pft_call_event))
		return -PFT_ERR_INVALID;
	return put_event(t, ev);
}

int pft_timeline_put_run(struct pft_timeline *t, struct pft_calls *c, const struct pft_elem *e,
			 size_t n, size_t size)
{
	if (!t || !c || !e || !n || n > INT32_MAX || size < PFT_FIRST_SIZE(struct pft_elem))
		return -PFT_ERR_INVALID;
	/* The tracker stops after an element that makes events. */
	for (size_t i = 0; i < n;) {
		const struct pft_call_event *ev;
		int got = calls_put_until_events(c, pft_elem_at(e, i, size), n - i, size, NULL, NULL);
		if (got < 0)
			return got;
		i += (size_t)got;
		while ((ev = pft_calls_take(c)))
			if ((got = put_event(t, ev)) != 0)
				return got;
	}
	return 0;
}

int pft_timeline_put_time(struct pft_timeline *t, struct pft_calls *c, const struct pft_elem *e,
			  size_t size, uint64_t time)
{
	if (!t || !c || !e || size < PFT_FIRST_SIZE(struct pft_elem))
		return -PFT_ERR_INVALID;
	/* The events it makes: at the element before's time. */
	if (!t->have_time)
		t->time = time;
	t->have_time = 1;
	t->event_time = t->time;
	int err = pft_timeline_put_run(t, c, e, 1, size);
	t->time = time;
	t->event_time = time;   /* pft_calls_finish()'s: at the last */
	return err;
}

int pft_timeline_flush(struct pft_timeline *t)
{
	return t ? pft_vout_end(&t->out) : -PFT_ERR_INVALID;
}
