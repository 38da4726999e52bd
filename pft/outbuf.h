/* outbuf.h - listing lines formatted by hand into one large buffer that
 * goes to standard output with one fwrite() per many lines: printf()
 * parsing its format for every field was most of a listing's time. */
#ifndef PFT_OUTBUF_H
#define PFT_OUTBUF_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pft/common.h"

enum {
	OUTBUF_SIZE = 1 << 16,
	OUTBUF_LINE_MAX = 1024   /* room kept for one line of any listing */
};

struct outbuf {
	FILE *file;              /* where the lines go; NULL: stdout */
	size_t len;
	unsigned flushes;        /* ob_flush() calls: a piece went out */
	char buf[OUTBUF_SIZE + OUTBUF_LINE_MAX];
};

/* Write what is buffered to o->file (stdout when NULL). */
void ob_flush(struct outbuf *o);

/* @s from an input file (a symbol or file name), escaped for JSON
 * (@json) or for a text listing, as escape.h's functions do. */
void ob_escaped(struct outbuf *o, const char *s, int json);

/* Between lines: flush once a full buffer's worth is there. */
static inline void ob_line_done(struct outbuf *o)
{
	if (o->len >= OUTBUF_SIZE)
		ob_flush(o);
}

static inline void ob_char(struct outbuf *o, char c)
{
	o->buf[o->len++] = c;
}

/* @s, at most @max bytes of it (a line's fields are short by nature). */
static inline void ob_strn(struct outbuf *o, const char *s, size_t max)
{
	size_t n = strnlen(s, max);
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

/* A string literal: its length known when compiled, no strnlen(). */
#define ob_lit(o, literal) ob_mem((o), "" literal, sizeof(literal) - 1)

static inline void ob_mem(struct outbuf *o, const char *s, size_t n)
{
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static inline void ob_str(struct outbuf *o, const char *s)
{
	ob_strn(o, s, 200);
}

/* Memos of text written before (names, line heads): where a piece
 * begins (ob_mark()), and the piece written since, if it can be kept. */
struct ob_mark {
	size_t len;
	unsigned flushes;
};

static inline struct ob_mark ob_mark(const struct outbuf *o)
{
	return (struct ob_mark){ o->len, o->flushes };
}

/* The length of what was written since @m when it is still in the buffer
 * and at most @max bytes, else 0 (nothing, too long, or flushed out). */
static inline size_t ob_since(const struct outbuf *o, struct ob_mark m, size_t max)
{
	size_t n = o->len - m.len;

	return o->flushes == m.flushes && o->len > m.len && n <= max ? n : 0;
}

/* A memo's @len bytes, copied as its whole @room (a size known when
 * compiled; a line keeps OUTBUF_LINE_MAX free), or up to @len in pieces
 * of 32 bytes when the room is a larger multiple of 32: no call to
 * memcpy(). */
#define ob_memo(o, text, len) ob_memo_((o), (text), sizeof(text), (len))

static inline void ob_memo_(struct outbuf *o, const char *text, size_t room, size_t len)
{
	char *to = o->buf + o->len;

	if (room > 64 && room % 32 == 0) {
		/* A larger room copied whole was a rep movs, slow to start:
		 * 32 bytes at a time up to @len. */
		for (size_t i = 0; i < len; i += 32)
			memcpy(to + i, text + i, 32);
	} else {
		memcpy(to, text, room);
	}
	o->len += len;
}

/* Up to this many spaces are copied as a block of a size known when
 * compiled (a line keeps OUTBUF_LINE_MAX free): memset() was a call. */
enum { OB_BLANKS = 80 };

static inline void ob_spaces(struct outbuf *o, int n)
{
	static const char blanks[OB_BLANKS] =
		"                                                                                ";

	if (n > OB_BLANKS) {
		memset(o->buf + o->len, ' ', (size_t)n);
		o->len += (size_t)n;
	} else if (n > 0) {
		memcpy(o->buf + o->len, blanks, OB_BLANKS);
		o->len += (size_t)n;
	}
}

/* As "%-Ns": @s, then spaces up to @width. */
static inline void ob_str_left(struct outbuf *o, const char *s, int width)
{
	size_t before = o->len;
	ob_str(o, s);
	ob_spaces(o, width - (int)(o->len - before));
}

/* As "%0Nx" (@digits 0: "%x"). */
static inline void ob_hex(struct outbuf *o, uint64_t v, int digits)
{
	o->len = (size_t)(pft_fmt_hex(o->buf + o->len, v, digits) - o->buf);
}

/* As "%u", padded with spaces on the right up to @width ("%-Nu"). */
static inline void ob_dec_left(struct outbuf *o, uint64_t v, int width)
{
	size_t before = o->len;

	o->len = (size_t)(pft_fmt_dec(o->buf + o->len, v) - o->buf);
	ob_spaces(o, width - (int)(o->len - before));
}

/* As "%Nu": @v after spaces up to @width. */
static inline void ob_dec_right(struct outbuf *o, uint64_t v, int width)
{
	ob_spaces(o, width - pft_fmt_ndigits(v));
	o->len = (size_t)(pft_fmt_dec(o->buf + o->len, v) - o->buf);
}

static inline void ob_dec(struct outbuf *o, uint64_t v)
{
	ob_dec_left(o, v, 0);
}

/*
 * A count written line after line that grows by little each time (the
 * instructions and cycles of pft calls' events): its digits as written
 * last, and their last four as a number, so that a step that does not
 * carry past them rewrites only those four.  Zeroed: none written yet.
 */
struct ob_running {
	uint64_t v;
	unsigned low;            /* v % 10000 */
	int n;                   /* digits in text (0: none yet) */
	char text[32];           /* copied whole: a line keeps OUTBUF_LINE_MAX free */
};

static inline void ob_running_set(struct ob_running *m, uint64_t v)
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

/* ob_dec(@v), through running count @m. */
static inline void ob_running_dec(struct outbuf *o, struct ob_running *m, uint64_t v)
{
	ob_running_set(m, v);
	memcpy(o->buf + o->len, m->text, sizeof(m->text));
	o->len += (size_t)m->n;
}

/* ob_dec_right(@v, @width), through running count @m. */
static inline void ob_running_dec_right(struct outbuf *o, struct ob_running *m, uint64_t v,
					int width)
{
	ob_running_set(m, v);
	ob_spaces(o, width - m->n);
	memcpy(o->buf + o->len, m->text, sizeof(m->text));
	o->len += (size_t)m->n;
}

/* As "%d". */
static inline void ob_int(struct outbuf *o, int v)
{
	if (v < 0)
		ob_char(o, '-');
	ob_dec(o, v < 0 ? -(uint64_t)v : (uint64_t)v);
}

#endif
