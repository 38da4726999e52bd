/* Helpers of the views: a hash map, growing arrays and buffered,
 * escaping output through a caller's writer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "views/pft_views.h"

/* Keys are often parent << 32 | child with both halves small: every bit
 * of the key must reach the slot bits (the mix of MurmurHash3's fmix64),
 * or keys cluster and probes grow with the table (a recursion 10^6 deep
 * took seconds). */
static size_t slot_of(const struct vmap *m, uint64_t key)
{
	uint64_t h = (key ^ (key >> 33)) * 0xff51afd7ed558ccdull;
	size_t i = (size_t)(h ^ (h >> 33)) & (m->cap - 1);

	while (m->vals[i] != VNONE && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

int pft_vmap_find(const struct vmap *m, uint64_t key, uint32_t *val)
{
	if (!m->cap)
		return 0;
	size_t i = slot_of(m, key);
	if (m->vals[i] == VNONE)
		return 0;
	*val = m->vals[i];
	return 1;
}

int pft_vmap_put(struct vmap *m, uint64_t key, uint32_t val)
{
	if (2 * (m->n + 1) > m->cap) {
		struct vmap b = { .cap = m->cap ? 2 * m->cap : 64 };
		b.keys = malloc(b.cap * sizeof(*b.keys));
		b.vals = malloc(b.cap * sizeof(*b.vals));
		if (!b.keys || !b.vals) {
			free(b.keys);
			free(b.vals);
			return -PFT_ERR_NOMEM;
		}
		memset(b.vals, 0xff, b.cap * sizeof(*b.vals));
		for (size_t i = 0; i < m->cap; i++)
			if (m->vals[i] != VNONE) {
				size_t j = slot_of(&b, m->keys[i]);
				b.keys[j] = m->keys[i];
				b.vals[j] = m->vals[i];
			}
		b.n = m->n;
		pft_vmap_free(m);
		*m = b;
	}
	size_t i = slot_of(m, key);
	if (m->vals[i] == VNONE)
		m->n++;
	m->keys[i] = key;
	m->vals[i] = val;
	return 0;
}

void pft_vmap_free(struct vmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

void pft_vout_init(struct vout *o, int (*write)(void *, const char *, size_t), void *ctx)
{
	o->write = write;
	o->ctx = ctx;
	o->err = 0;
	o->len = 0;
	o->flushes = 0;
}

static void flush(struct vout *o)
{
	if (!o->err && o->len) {
		int r = o->write(o->ctx, o->buf, o->len);
		if (r < 0)
			o->err = r;
		o->flushes++;
	}
	o->len = 0;
}

void pft_vout_put_slow(struct vout *o, const char *s, size_t n)
{
	while (n) {
		if (o->len == sizeof(o->buf))
			flush(o);
		size_t k = sizeof(o->buf) - o->len;
		if (k > n)
			k = n;
		memcpy(o->buf + o->len, s, k);
		o->len += k;
		s += k;
		n -= k;
	}
}

void pft_vout_printf(struct vout *o, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;

	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	/* Formats are numbers and fixed words: strings go through
	 * pft_vout_json() and pft_vout_plain(). */
	if (n > 0)
		vout_put(o, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

void pft_vout_u64(struct vout *o, uint64_t value)
{
	/* Straight into the buffer: digits made aside and copied were read
	 * back before their stores had landed (a store forwarding stall). */
	if (sizeof(o->buf) - o->len >= 20) {
		o->len = (size_t)(pft_fmt_dec(o->buf + o->len, value) - o->buf);
		return;
	}
	char digits[20];
	const char *first = pft_fmt_digits_before(digits + sizeof(digits), value);

	vout_put(o, first, (size_t)(digits + sizeof(digits) - first));
}

void pft_vout_milli(struct vout *o, uint64_t value)
{
	char text[24], *end = text + sizeof(text);
	uint64_t whole = value / 1000;
	unsigned frac = (unsigned)(value - 1000 * whole);

	end[-3] = (char)('0' + frac / 100);
	memcpy(end - 2, &pft_fmt_digit_pairs()[2 * (frac % 100)], 2);
	end[-4] = '.';
	const char *first = pft_fmt_digits_before(end - 4, whole);
	vout_put(o, first, (size_t)(end - first));
}

void pft_vout_hex32(struct vout *o, uint32_t value)
{
	char text[10] = { '0', 'x' };

	for (int i = 0; i < 8; i++)
		text[9 - i] = "0123456789abcdef"[(value >> (4 * i)) & 15];
	vout_put(o, text, sizeof(text));
}

void pft_vout_json(struct vout *o, const char *s)
{
	vout_put(o, "\"", 1);
	while (s && *s) {
		size_t plain = 0;
		char esc[8];
		/* The characters that need no escape, in one piece. */
		while (s[plain] && s[plain] != '"' && s[plain] != '\\' &&
		       (unsigned char)s[plain] >= 0x20 && s[plain] != 0x7f)
			plain++;
		vout_put(o, s, plain);
		s += plain;
		if (!*s)
			break;
		unsigned char c = (unsigned char)*s++;
		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			vout_put(o, esc, 2);
		} else {
			snprintf(esc, sizeof(esc), "\\u%04x", c);
			vout_put(o, esc, 6);
		}
	}
	vout_put(o, "\"", 1);
}

void pft_vout_plain(struct vout *o, const char *s, int folded)
{
	for (; s && *s; s++) {
		char c = *s;
		if ((unsigned char)c < 0x20 || c == 0x7f)
			c = '?';
		else if (folded && (c == ';' || c == ' '))
			c = '_';
		vout_put(o, &c, 1);
	}
}

int pft_vout_end(struct vout *o)
{
	flush(o);
	return o->err;
}

const char *pft_views_name_at(const struct pft_lines *lines,
			      const struct pft_image *image, uint32_t addr,
			      uint32_t *start)
{
	struct pft_line_func f;
	struct pft_image_symbol sym;

	if (lines && pft_lines_function_at(lines, addr, &f, sizeof(f)) == 0) {
		*start = f.start;
		return f.name;
	}
	if (image && pft_image_symbol_at(image, addr, &sym, sizeof(sym)) == 0) {
		*start = sym.start;
		return sym.name;
	}
	return NULL;
}
