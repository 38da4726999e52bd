/*
 * pft_linefmt.h - listing lines formatted by hand at a cursor into a
 * buffer the caller has made room in: printf() parsing its format for
 * every field was most of a listing's time.  Each writer returns the
 * cursor after what it wrote.
 */
#ifndef PFT_LINEFMT_H
#define PFT_LINEFMT_H

#include <stdint.h>
#include <string.h>

#include "pft/common.h"

/* A string literal: its length known when compiled. */
#define lf_lit(p, literal) lf_mem((p), "" literal, sizeof(literal) - 1)

static inline char *lf_mem(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

/* @s, at most @max bytes of it (the names of types and classes). */
static inline char *lf_str(char *p, const char *s, size_t max)
{
	return lf_mem(p, s, strnlen(s, max));
}

/* Up to LF_BLANKS spaces are a copy of a size known when compiled: the
 * caller keeps that much room past the line. */
enum { LF_BLANKS = 32 };

static inline char *lf_spaces(char *p, int n)
{
	static const char blanks[LF_BLANKS] = "                                ";

	if (n > LF_BLANKS) {
		memset(p, ' ', (size_t)n);
		return p + n;
	}
	if (n > 0)
		memcpy(p, blanks, LF_BLANKS);
	return n > 0 ? p + n : p;
}

/* A name and its length, in room that a copy of known size takes whole:
 * the names of element types and instruction sets, which every line of
 * a listing writes (a strnlen() and a copy of unknown size each were a
 * tenth of a line's time). */
enum { LF_NAME_ROOM = 23 };

struct lf_name {
	char s[LF_NAME_ROOM];
	uint8_t len;
};

#define LF_NAME(literal) { "" literal, sizeof(literal) - 1 }

/* As "%-Ns" of @n. */
static inline char *lf_name_left(char *p, const struct lf_name *n, int width)
{
	memcpy(p, n->s, LF_NAME_ROOM);
	return lf_spaces(p + n->len, width - n->len);
}

/* pft_isa_name()'s and pft_elem_type_name()'s names ("unknown" past them). */
const struct lf_name *pft_isa_lf_name(unsigned isa);
const struct lf_name *pft_elem_type_lf_name(unsigned type);

/* As "%-Nu". */
static inline char *lf_dec_left(char *p, uint64_t v, int width)
{
	char *end = pft_fmt_dec(p, v);

	return lf_spaces(end, width - (int)(end - p));
}

static inline char *lf_int(char *p, int v)
{
	if (v < 0)
		*p++ = '-';
	return pft_fmt_dec(p, v < 0 ? -(uint64_t)v : (uint64_t)v);
}

#endif
