/*
 * pft calls' listing (views.h, calls section): a line per call event,
 * text or JSON lines, formatted by hand into one large buffer that goes
 * to the caller's writer many lines at a time.  Calls and returns between
 * the same few functions come millions of times: the names as written
 * last, and each line's part that the event's time does not change, are
 * kept and copied.
 */
#include <stdlib.h>
#include <string.h>

#include "pft.h"
#include "common/pft_size.h"
#include "common/pft_linefmt.h"
#include "views/pft_views.h"
#include "views/pft_calls_listing_par.h"

enum {
	BUF_SIZE = 1 << 16,
	LINE_MAX = 1024,        /* room kept for one line */
	NAME_MEMO_BITS = 10,
	LINE_MEMO_BITS = 10
};

_Static_assert(BUF_SIZE + LINE_MAX == CALLS_LISTING_ROOM, "a sink's room is the buffer's");

struct name_memo {
	const struct pft_image *img;
	uint32_t addr;
	uint8_t len;                  /* 0: empty */
	uint8_t role;                 /* enum name_role */
	char text[118];               /* as put_name() wrote it */
};

/* The part of a line that the event's time does not change: in text from
 * the source to the names (and the exception), in JSON lines from the
 * start to "insns":.  The key is in 64-bit words, compared in registers:
 * compares of 32-bit fields were merged into loads of two fields just
 * stored one by one (a store forwarding stall at each). */
struct line_key {
	const struct pft_image *img;
	uint64_t where;               /* site, target << 32 (text: 0) */
	uint64_t who;                 /* callee, caller << 32 */
	uint64_t rest;                /* depth, kind << 32, exception << 40,
				       * profile << 56 (text: of an EXCEPTION) */
	uint64_t id;                  /* id, cpu << 32 */
};

struct line_memo {
	struct line_key key;
	uint8_t len;                  /* 0: empty */
	char text[224];               /* a multiple of 32 (put_memo()) */
};

/*
 * A count written line after line that grows by little each time (the
 * events' instructions and cycles): its digits as written last, and their
 * last four as a number, so that a step that does not carry past them
 * rewrites only those four.  Zeroed: none written yet.
 */
struct running {
	uint64_t v;
	unsigned low;                 /* v % 10000 */
	int n;                        /* digits in text (0: none yet) */
	char text[32];                /* copied whole: a line keeps LINE_MAX free */
};

/* Each kind's name, its length, and its length padded to 16 (text):
 * copied whole. */
struct kind_name {
	char padded[32];
	size_t len, padded_len;
};

struct pft_calls_listing {
	struct pft_calls_listing_config c;
	int err;                      /* the writer's first error */
	size_t len;
	unsigned flushes;             /* writes so far: a memo's text went out */
	struct ts_memo {              /* the last timestamp written, in hex */
		uint64_t ts;
		size_t len;           /* 0: none yet */
		char hex[32];
	} ts;
	struct running insns_written, cycles_written;
	struct kind_name kinds[PFT_CALL_KIND_MAX + 1];
	struct name_memo names[1 << NAME_MEMO_BITS];
	struct line_memo lines[1 << LINE_MEMO_BITS];
	struct listing_par *par;      /* pft_calls_listing_fold(): NULL, none */
	/* pft_calls_listing_set_sink(): NULL, none. */
	char *(*sink)(void *ctx, size_t len);
	void *sink_ctx;
	char *buf;                    /* @own, or the sink's */
	char own[BUF_SIZE + LINE_MAX];
};

static void flush(struct pft_calls_listing *l)
{
	if (l->sink) {
		char *next = l->err ? NULL : l->sink(l->sink_ctx, l->len);
		if (next)
			l->buf = next;
		else if (!l->err)
			l->err = -PFT_ERR_NOMEM;
	} else if (l->len && !l->err) {
		l->err = l->c.write(l->c.ctx, l->buf, l->len);
	}
	l->len = 0;
	l->flushes++;
}

/* Between lines: out once a full buffer's worth is there. */
static inline void line_done(struct pft_calls_listing *l)
{
	if (l->len >= BUF_SIZE)
		flush(l);
}

static inline char *at(struct pft_calls_listing *l)
{
	return l->buf + l->len;
}

static inline void put_end(struct pft_calls_listing *l, const char *end)
{
	l->len = (size_t)(end - l->buf);
}

#define put_lit(l, literal) put_end((l), lf_lit(at(l), literal))

static inline void put_char(struct pft_calls_listing *l, char c)
{
	l->buf[l->len++] = c;
}

/* A memo's @len bytes, in pieces of 32 (a room of known size copied whole
 * was a rep movs, slow to start). */
static inline void put_memo(struct pft_calls_listing *l, const char *text, size_t len)
{
	char *to = at(l);

	for (size_t i = 0; i < len; i += 32)
		memcpy(to + i, text + i, 32);
	l->len += len;
}

/* What was written since @mark (l->len then, before @flushes writes) when
 * it is still in the buffer and at most @max bytes, else 0. */
static inline size_t written_since(const struct pft_calls_listing *l, size_t mark,
				   unsigned flushes, size_t max)
{
	size_t n = l->len - mark;

	return l->flushes == flushes && l->len > mark && n <= max ? n : 0;
}

static inline void running_set(struct running *m, uint64_t v)
{
	/* v below the last: the difference wraps, so it is written whole. */
	if (m->n >= 4 && v - m->v < 10000u - m->low) {
		unsigned low = m->low + (unsigned)(v - m->v);
		char *last4 = m->text + m->n - 4;
		memcpy(last4, &pft_fmt_digit_pairs()[2 * (low / 100)], 2);
		memcpy(last4 + 2, &pft_fmt_digit_pairs()[2 * (low % 100)], 2);
		m->low = low;
	} else {
		m->n = (int)(pft_fmt_dec(m->text, v) - m->text);
		m->low = (unsigned)(v % 10000);
	}
	m->v = v;
}

/* @v through running count @m, after spaces up to @width. */
static inline void put_running(struct pft_calls_listing *l, struct running *m, uint64_t v,
			       int width)
{
	running_set(m, v);
	char *p = lf_spaces(at(l), width - m->n);
	memcpy(p, m->text, sizeof(m->text));
	put_end(l, p + m->n);
}

/* @s from an input file escaped (@json) or as text; a name too long for
 * the room a line keeps goes out alone. */
static void put_escaped(struct pft_calls_listing *l, const char *s, int json)
{
	size_t limit = BUF_SIZE;
	size_t room = l->len < limit ? limit - l->len : 0;
	size_t len = strlen(s);
	int (*escape)(char *, size_t, const char *, size_t) =
		json ? pft_fmt_escape_json : pft_fmt_escape_text;
	int n = escape(at(l), room, s, len);

	if (n >= 0 && (size_t)n < room) {
		l->len += (size_t)n;
		return;
	}
	flush(l);
	char *big = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (big && escape(big, (size_t)n + 1, s, len) == n && !l->err)
		l->err = l->c.write(l->c.ctx, big, (size_t)n);
	else if (!big && !l->err)
		l->err = -PFT_ERR_NOMEM;
	/* A sink's writer appended it where the next bytes were to go. */
	if (l->sink)
		flush(l);
	free(big);
}

/* Which name put_name() writes: in text the label; in JSON lines the name,
 * then the label as field "callee_label" or "caller_label" when it is not
 * the name. */
enum name_role { NAME_TEXT, NAME_CALLEE, NAME_CALLER };

static void put_name_uncached(struct pft_calls_listing *l, const struct pft_image *img,
			      uint32_t addr, enum name_role role)
{
	uint32_t start = 0;
	const char *name = addr ? pft_views_name_at(l->c.lines, img, addr, &start) : NULL;
	const char *label = name ? pft_names_label(l->c.labels, name, start) : NULL;

	if (role != NAME_TEXT && name) {
		put_char(l, '"');
		put_escaped(l, name, 1);
		put_char(l, '"');
		if (label != name) {
			if (role == NAME_CALLEE)
				put_lit(l, ",\"callee_label\":\"");
			else
				put_lit(l, ",\"caller_label\":\"");
			put_escaped(l, label, 1);
			put_char(l, '"');
		}
	} else if (role != NAME_TEXT) {
		put_lit(l, "null");
	} else if (name) {
		put_escaped(l, label, 0);
	} else if (addr) {
		put_lit(l, "0x");
		put_end(l, pft_fmt_hex(at(l), addr, 8));
	} else {
		put_char(l, '?');
	}
}

static void put_name(struct pft_calls_listing *l, const struct pft_image *img, uint32_t addr,
		     enum name_role role)
{
	uint32_t key = (addr >> 1) + (uint32_t)role;
	struct name_memo *m = &l->names[(key * 2654435761u) >> (32 - NAME_MEMO_BITS)];

	if (m->len && m->img == img && m->addr == addr && m->role == role) {
		memcpy(at(l), m->text, sizeof(m->text));
		l->len += m->len;
		return;
	}
	size_t mark = l->len;
	unsigned flushes = l->flushes;
	put_name_uncached(l, img, addr, role);
	/* Not kept: a name too long, or one that went out through a flush. */
	size_t n = written_since(l, mark, flushes, sizeof(m->text));
	if (n) {
		m->img = img;
		m->addr = addr;
		m->role = (uint8_t)role;
		m->len = (uint8_t)n;
		memcpy(m->text, l->buf + mark, n);
	}
}

/* The line's part that line_memo keeps (@json: up to "insns":). */
static void put_head(struct pft_calls_listing *l, const struct pft_call_event *ev,
		     const struct pft_image *img, int id, int cpu, int json)
{
	const struct kind_name *kind = &l->kinds[ev->kind < PFT_CALL_KIND_MAX ? ev->kind
									      : PFT_CALL_KIND_MAX];

	if (json) {
		put_lit(l, "{\"id\":");
		put_end(l, lf_int(at(l), id));
		if (cpu >= 0) {   /* perf.data: as decode's elements */
			put_lit(l, ",\"cpu\":");
			put_end(l, lf_int(at(l), cpu));
		}
		put_lit(l, ",\"kind\":\"");
		memcpy(at(l), kind->padded, sizeof(kind->padded));
		l->len += kind->len;
		put_lit(l, "\",\"depth\":");
		put_end(l, pft_fmt_dec(at(l), ev->depth));
		put_lit(l, ",\"site\":\"0x");
		put_end(l, pft_fmt_hex(at(l), ev->site, 0));
		put_lit(l, "\",\"target\":\"0x");
		put_end(l, pft_fmt_hex(at(l), ev->target, 0));
		put_lit(l, "\",\"callee\":");
		put_name(l, img, ev->callee, NAME_CALLEE);
		put_lit(l, ",\"callee_addr\":\"0x");
		put_end(l, pft_fmt_hex(at(l), ev->callee, 0));
		put_lit(l, "\",\"caller\":");
		put_name(l, img, ev->caller, NAME_CALLER);
		put_lit(l, ",\"caller_addr\":\"0x");
		put_end(l, pft_fmt_hex(at(l), ev->caller, 0));
		put_lit(l, "\",\"insns\":");
		return;
	}
	/* [id] kind depth, indented by depth: caller -> callee */
	if (l->c.show_id) {
		put_end(l, lf_spaces(at(l), 2));
		put_end(l, pft_fmt_hex(at(l), (uint32_t)id, 2));
	}
	put_end(l, lf_spaces(at(l), 2));
	memcpy(at(l), kind->padded, sizeof(kind->padded));
	l->len += kind->padded_len;
	put_char(l, ' ');
	put_end(l, lf_spaces(at(l), 3 - pft_fmt_ndigits(ev->depth)));
	put_end(l, pft_fmt_dec(at(l), ev->depth));
	put_end(l, lf_spaces(at(l), 2 + 2 * (int)(ev->depth > 32 ? 32 : ev->depth)));
	int leaving = ev->kind == PFT_CALL_RETURN || ev->kind == PFT_CALL_EXCEPTION_RETURN;
	put_name(l, img, leaving ? ev->callee : ev->caller, NAME_TEXT);
	put_lit(l, " -> ");
	put_name(l, img, leaving ? ev->caller : ev->callee, NAME_TEXT);
	if (ev->kind == PFT_CALL_EXCEPTION) {
		char exc[PFT_EXCEPTION_NAME_MAX];
		put_lit(l, "  (");
		put_end(l, lf_str(at(l), pft_exception_name_in(ev->profile, ev->exception, exc,
								 sizeof(exc)),
				  sizeof(exc)));
		put_char(l, ')');
	}
}

/* The head of the line, from the memo when the same one was written. */
static void put_head_memo(struct pft_calls_listing *l, const struct pft_call_event *ev,
			  const struct pft_image *img, int id, int cpu, int json)
{
	uint32_t site = json ? ev->site : 0, target = json ? ev->target : 0;
	uint16_t exception = !json && ev->kind == PFT_CALL_EXCEPTION ? ev->exception : 0;
	uint8_t profile = !json && ev->kind == PFT_CALL_EXCEPTION ? ev->profile : 0;
	struct line_key key = {
		.img = img, .where = site | (uint64_t)target << 32,
		.who = ev->callee | (uint64_t)ev->caller << 32,
		.rest = ev->depth | (uint64_t)ev->kind << 32 | (uint64_t)exception << 40 |
			(uint64_t)profile << 56,
		.id = (uint32_t)id | (uint64_t)(uint32_t)cpu << 32
	};
	uint32_t h = (ev->callee >> 1) * 2654435761u ^ (ev->caller >> 1) * 0x9e3779b1u ^ site ^
		     target * 0x85ebca6bu ^ ev->depth * 0xc2b2ae35u ^ ev->kind;
	struct line_memo *m = &l->lines[(h * 2654435761u) >> (32 - LINE_MEMO_BITS)];
	const struct line_key *k = &m->key;

	if (m->len && k->img == key.img && k->where == key.where && k->who == key.who &&
	    k->rest == key.rest && k->id == key.id) {
		put_memo(l, m->text, m->len);
		return;
	}
	size_t mark = l->len;
	unsigned flushes = l->flushes;
	put_head(l, ev, img, id, cpu, json);
	/* Not kept: too long, or a name went out through a flush. */
	size_t n = written_since(l, mark, flushes, sizeof(m->text));
	if (n) {
		m->key = key;
		m->len = (uint8_t)n;
		memcpy(m->text, l->buf + mark, n);
	}
}

/* Timestamp @ts in hex, as last written when it is the same. */
static void put_ts(struct pft_calls_listing *l, uint64_t ts)
{
	struct ts_memo *m = &l->ts;

	if (!m->len || m->ts != ts) {
		char *p = at(l), *end = pft_fmt_hex(p, ts, 0);
		m->ts = ts;
		m->len = (size_t)(end - p);
		memcpy(m->hex, p, m->len);
		put_end(l, end);
		return;
	}
	memcpy(at(l), m->hex, sizeof(m->hex));
	l->len += m->len;
}

static const char *const flag_names[] = { "unwound", "untraced", "end", "no_target" };

struct pft_calls_listing *pft_calls_listing_alloc(const struct pft_calls_listing_config *cfg,
						  int *errcode)
{
	struct pft_calls_listing *l = NULL;
	int err = -PFT_ERR_INVALID;

	if (cfg && cfg->size >= offsetof(struct pft_calls_listing_config, par_logs) &&
	    cfg->write && (cfg->format == PFT_LISTING_TEXT || cfg->format == PFT_LISTING_JSONL)) {
		err = -PFT_ERR_NOMEM;
		l = calloc(1, sizeof(*l));
	}
	if (l) {
		pft_copy_known(&l->c, cfg, cfg->size, sizeof(l->c));
		l->c.size = sizeof(l->c);
		l->buf = l->own;
		for (unsigned k = 0; k <= PFT_CALL_KIND_MAX; k++) {
			const char *name = pft_call_kind_name(k);
			struct kind_name *kn = &l->kinds[k];
			kn->len = strnlen(name, sizeof(kn->padded));
			kn->padded_len = kn->len > 16 ? kn->len : 16;
			memset(kn->padded, ' ', sizeof(kn->padded));
			memcpy(kn->padded, name, kn->len);
		}
		err = 0;
	}
	if (errcode)
		*errcode = err;
	return l;
}

int pft_calls_listing_header(struct pft_calls_listing *l)
{
	if (!l || l->c.format != PFT_LISTING_TEXT)
		return -PFT_ERR_INVALID;
	/* Over the columns: insns (12 wide), the ID where there are IDs,
	 * the kind (16), the depth (right-aligned, its last 3 characters),
	 * then the names. */
	put_lit(l, "       insns");
	if (l->c.show_id)
		put_lit(l, "  id");
	put_lit(l, "  kind           depth  from -> to\n");
	line_done(l);
	return l->err;
}

/* Event @ev's line. */
static inline void put_event(struct pft_calls_listing *l, const struct pft_call_event *ev,
			     const struct pft_image *image, int id, int cpu)
{
	if (l->c.format == PFT_LISTING_JSONL) {
		put_head_memo(l, ev, image, id, cpu, 1);
		put_running(l, &l->insns_written, ev->insns, 0);
		if (ev->has_cycles) {
			put_lit(l, ",\"cycles\":");
			put_running(l, &l->cycles_written, ev->cycles, 0);
		}
		if (ev->has_ts) {
			put_lit(l, ",\"ts\":\"0x");
			put_ts(l, ev->ts);
			put_char(l, '"');
		}
		if (ev->kind == PFT_CALL_EXCEPTION) {
			put_lit(l, ",\"exception\":");
			put_end(l, pft_fmt_dec(at(l), ev->exception));
		}
		put_lit(l, ",\"flags\":[");
		for (unsigned b = 0, n = 0; b < 4; b++)
			if (ev->flags & (1u << b)) {
				put_end(l, n++ ? lf_lit(at(l), ",\"") : lf_lit(at(l), "\""));
				put_end(l, lf_str(at(l), flag_names[b], 16));
				put_char(l, '"');
			}
		put_lit(l, "]}\n");
		line_done(l);
		return;
	}
	/* insns, then the memo's part */
	put_running(l, &l->insns_written, ev->insns, 12);
	put_head_memo(l, ev, image, id, cpu, 0);
	if (ev->has_cycles) {
		put_lit(l, "  cycles=");
		put_running(l, &l->cycles_written, ev->cycles, 0);
	}
	if (ev->has_ts) {
		put_lit(l, "  ts=0x");
		put_ts(l, ev->ts);
	}
	for (unsigned b = 0; b < 4; b++)
		if (ev->flags & (1u << b)) {
			put_lit(l, "  [");
			put_end(l, lf_str(at(l), flag_names[b], 16));
			put_char(l, ']');
		}
	put_char(l, '\n');
	line_done(l);
}

int pft_calls_listing_put(struct pft_calls_listing *l, const struct pft_call_event *ev,
			  size_t size, const struct pft_image *image, int id, int cpu)
{
	if (!l || !ev || size < sizeof(*ev))
		return -PFT_ERR_INVALID;
	put_event(l, ev, image, id, cpu);
	return l->err;
}

int pft_calls_listing_take(struct pft_calls_listing *l, struct pft_calls *c,
			   const struct pft_select *sel, const struct pft_image *image, int id,
			   int cpu)
{
	const struct pft_call_event *ev;

	if (!l || !c)
		return -PFT_ERR_INVALID;
	while ((ev = pft_calls_next_in_place(c)))
		if (!sel || pft_select_event(sel, ev))
			put_event(l, ev, image, id, cpu);
	return l->err;
}

int pft_calls_listing_events(struct pft_calls_listing *l, const struct pft_call_event *ev,
			     size_t n, const struct pft_select *sel, const struct pft_image *image,
			     int id, int cpu)
{
	for (size_t i = 0; i < n; i++)
		if (!sel || pft_select_event(sel, &ev[i]))
			put_event(l, &ev[i], image, id, cpu);
	return l->err;
}

const struct pft_calls_listing_config *pft_calls_listing_config(const struct pft_calls_listing *l)
{
	return &l->c;
}

void pft_calls_listing_set_writer(struct pft_calls_listing *l,
				  int (*write)(void *ctx, const char *buf, size_t len), void *ctx)
{
	l->c.write = write;
	l->c.ctx = ctx;
}

int pft_calls_listing_flush_buffer(struct pft_calls_listing *l)
{
	flush(l);
	return l->err;
}

int pft_calls_listing_set_sink(struct pft_calls_listing *l,
			       char *(*sink)(void *ctx, size_t len), void *ctx)
{
	flush(l);
	l->sink = sink;
	l->sink_ctx = ctx;
	l->buf = l->own;
	if (sink) {
		char *next = sink(ctx, 0);
		if (!next)
			return -PFT_ERR_NOMEM;
		l->buf = next;
	}
	return 0;
}

struct listing_par **pft_calls_listing_par(struct pft_calls_listing *l)
{
	return &l->par;
}

int pft_calls_listing_flush(struct pft_calls_listing *l)
{
	if (!l)
		return -PFT_ERR_INVALID;
	flush(l);
	if (l->par) {
		int err = pft_listing_par_drain(l->par);
		if (err && !l->err)
			l->err = err;
	}
	return l->err;
}

void pft_calls_listing_free(struct pft_calls_listing *l)
{
	if (l)
		pft_listing_par_free(l->par);
	free(l);
}
