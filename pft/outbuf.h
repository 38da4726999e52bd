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
	char buf[OUTBUF_SIZE + OUTBUF_LINE_MAX];
};

/* Write what is buffered to o->file (stdout when NULL). */
void ob_flush(struct outbuf *o);


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

static inline void ob_str(struct outbuf *o, const char *s)
{
	ob_strn(o, s, 200);
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

/* As "%0Nx" (@digits 0: "%x"). */
static inline void ob_hex(struct outbuf *o, uint64_t v, int digits)
{
	o->len = (size_t)(pft_fmt_hex(o->buf + o->len, v, digits) - o->buf);
}

/* As "%u". */
static inline void ob_dec(struct outbuf *o, uint64_t v)
{
	o->len = (size_t)(pft_fmt_dec(o->buf + o->len, v) - o->buf);
}

/* As "%d". */
static inline void ob_int(struct outbuf *o, int v)
{
	if (v < 0)
		ob_char(o, '-');
	ob_dec(o, v < 0 ? -(uint64_t)v : (uint64_t)v);
}

#endif
