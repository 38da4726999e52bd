/*
 * Escaping of untrusted names (symbols, paths) for JSON and text outputs,
 * and of diagnostic lines, into caller buffers with snprintf()'s contract.
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "pft.h"
#include "common/pft_escape.h"

/* The length of the valid UTF-8 sequence at @p (1-4), or 0 when p[0] does
 * not start one (RFC 3629: no overlongs, surrogates or values past
 * U+10FFFF). */
static size_t utf8_length(const uint8_t *p, size_t avail)
{
	uint8_t lo = 0x80, hi = 0xbf;
	size_t n;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	if (avail < n || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

/* A control character: C0, DEL, or C1 (U+0080-U+009F, bytes C2 80..9F). */
static int is_control(const uint8_t *p, size_t n)
{
	return (n == 1 && (p[0] < 0x20 || p[0] == 0x7f)) ||
	       (n == 2 && p[0] == 0xc2 && p[1] <= 0x9f);
}

/* Appends to the caller's buffer, counting what does not fit. */
struct out {
	char *dst;
	size_t cap, len;
};

static void put(struct out *o, const char *s, size_t n)
{
	size_t room = o->len + 1 < o->cap ? o->cap - 1 - o->len : 0;

	if (room)
		memcpy(o->dst + o->len, s, n < room ? n : room);
	o->len += n;
}

static void put_hex(struct out *o, const char *prefix, size_t plen, unsigned v)
{
	static const char hex[] = "0123456789abcdef";
	char h[2] = { hex[(v >> 4) & 0xf], hex[v & 0xf] };

	put(o, prefix, plen);
	put(o, h, 2);
}

enum style { STYLE_JSON, STYLE_TEXT, STYLE_LINE };

/* Bytes @style passes as they are from @p on (printable ASCII but for
 * what it escapes): most names are all of them, copied at once. */
static size_t plain_run(const uint8_t *p, size_t len, enum style style)
{
	size_t n = 0;

	while (n < len && p[n] >= 0x20 && p[n] < 0x7f &&
	       (p[n] != '\\' || style == STYLE_LINE) && (p[n] != '"' || style != STYLE_JSON))
		n++;
	return n;
}

static int escape(char *dst, size_t cap, const char *src, size_t len,
		  enum style style)
{
	const uint8_t *p = (const uint8_t *)src;
	struct out o = { dst, cap, 0 };

	if ((!src && len) || (!dst && cap))
		return -PFT_ERR_INVALID;
	for (size_t i = 0; i < len;) {
		size_t n = plain_run(p + i, len - i, style);

		if (n) {
			put(&o, src + i, n);
			i += n;
			if (o.len > INT_MAX)
				return -PFT_ERR_INVALID;
			continue;
		}
		n = utf8_length(p + i, len - i);

		if ((p[i] == '\\' && style != STYLE_LINE) || (style == STYLE_JSON && p[i] == '"')) {
			put(&o, "\\", 1);
			put(&o, src + i, 1);
			i++;
		} else if (n && !is_control(p + i, n)) {
			put(&o, src + i, n);
			i += n;
		} else if (style == STYLE_JSON) {
			/* A C1 control is one code point; an invalid byte
			 * is taken as Latin-1. */
			unsigned cp = n == 2 ? p[i + 1] : p[i];

			put_hex(&o, "\\u00", 4, cp);
			i += n ? n : 1;
		} else {
			size_t k = n ? n : 1;

			for (size_t j = 0; j < k; j++)
				put_hex(&o, "\\x", 2, p[i + j]);
			i += k;
		}
		if (o.len > INT_MAX)
			return -PFT_ERR_INVALID;
	}
	if (cap)
		dst[o.len < cap ? o.len : cap - 1] = 0;
	return (int)o.len;
}

int pft_fmt_escape_json(char *dst, size_t cap, const char *src, size_t len)
{
	return escape(dst, cap, src, len, STYLE_JSON);
}

int pft_fmt_escape_text(char *dst, size_t cap, const char *src, size_t len)
{
	return escape(dst, cap, src, len, STYLE_TEXT);
}

int pft_escape_line(char *dst, size_t cap, const char *src)
{
	return escape(dst, cap, src, src ? strlen(src) : 0, STYLE_LINE);
}
