/* outbuf.h - listing lines formatted by hand into one large buffer that
 * goes to standard output with one fwrite() per many lines: printf()
 * parsing its format for every field was most of a listing's time. */
#ifndef PFT_OUTBUF_H
#define PFT_OUTBUF_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

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

/* As "%0Nx" (@digits 0: "%x"): the digit count from the highest set bit,
 * then the digits from the last. */
static inline void ob_hex(struct outbuf *o, uint64_t v, int digits)
{
	static const char pairs[512] =
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
		"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
		"404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
		"606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
		"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
		"a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
		"c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
		"e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
	int n = v ? (64 - __builtin_clzll(v) + 3) / 4 : 1;

	for (; n < digits; digits--)
		o->buf[o->len++] = '0';
	o->len += (size_t)n;
	/* Two digits a byte (a digit a step was a tenth of pft calls'
	 * JSON lines), the odd one last. */
	char *p = o->buf + o->len;
	for (; n >= 2; n -= 2, v >>= 8) {
		p -= 2;
		memcpy(p, &pairs[2 * (v & 0xff)], 2);
	}
	if (n)
		p[-1] = "0123456789abcdef"[v & 15];
}

/* Decimal: the digit count first (compares), then the digits from the
 * last, two a division (a division per digit was most of pft calls'
 * formatting). */
static const char ob_digit_pairs[200] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

static inline int ob_ndigits(uint64_t v)
{
	static const uint64_t powers[20] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
		100000000ull, 1000000000ull, 10000000000ull, 100000000000ull,
		1000000000000ull, 10000000000000ull, 100000000000000ull,
		1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
		1000000000000000000ull, 10000000000000000000ull
	};
	/* log10(2) ~ 1233 / 4096: the digits of 2^(bits - 1), then one more
	 * when @v reaches the next power of ten (a loop of compares was a
	 * tenth of pft calls' formatting). */
	int bits = 64 - __builtin_clzll(v | 1);
	int n = (bits * 1233) >> 12;

	n += v >= powers[n];
	return n ? n : 1;
}

/* @v's digits, ending just before @end: four a division of @v, split in
 * two pairs apart from it (the divisions of a number wait for each
 * other). */
static inline void ob_put_digits(char *end, uint64_t v)
{
	while (v >= 10000) {
		uint64_t q = v / 10000;
		unsigned four = (unsigned)(v - 10000 * q);
		end -= 4;
		memcpy(end, &ob_digit_pairs[2 * (four / 100)], 2);
		memcpy(end + 2, &ob_digit_pairs[2 * (four % 100)], 2);
		v = q;
	}
	if (v >= 100) {
		end -= 2;
		memcpy(end, &ob_digit_pairs[2 * (v % 100)], 2);
		v /= 100;
	}
	if (v >= 10)
		memcpy(end - 2, &ob_digit_pairs[2 * v], 2);
	else
		end[-1] = (char)('0' + v);
}

/* As "%u", padded with spaces on the right up to @width ("%-Nu"). */
static inline void ob_dec_left(struct outbuf *o, uint64_t v, int width)
{
	int n = ob_ndigits(v);

	o->len += (size_t)n;
	ob_put_digits(o->buf + o->len, v);
	ob_spaces(o, width - n);
}

/* As "%Nu": @v after spaces up to @width. */
static inline void ob_dec_right(struct outbuf *o, uint64_t v, int width)
{
	int n = ob_ndigits(v);

	ob_spaces(o, width - n);
	o->len += (size_t)n;
	ob_put_digits(o->buf + o->len, v);
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
		memcpy(last4, &ob_digit_pairs[2 * (low / 100)], 2);
		memcpy(last4 + 2, &ob_digit_pairs[2 * (low % 100)], 2);
		m->low = low;
	} else {
		m->n = ob_ndigits(v);
		ob_put_digits(m->text + m->n, v);
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
