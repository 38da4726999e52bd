/* Strings from input files, escaped by the library for their format. */
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "pft.h"

typedef int (*escape_fn)(char *dst, size_t cap, const char *src, size_t len);

/* Escape @s with @fn into a stack buffer, or a heap one when it is long. */
static void put_escaped(FILE *out, const char *s, escape_fn fn)
{
	char small[256], *buf = small;
	size_t len = strlen(s);
	int n = fn(small, sizeof(small), s, len);

	if (n < 0)
		return;
	if ((size_t)n >= sizeof(small)) {
		buf = malloc((size_t)n + 1);
		if (!buf || fn(buf, (size_t)n + 1, s, len) < 0) {
			free(buf);
			return;
		}
	}
	fwrite(buf, 1, (size_t)n, out);
	if (buf != small)
		free(buf);
}

void json_string(FILE *out, const char *s)
{
	putc('"', out);
	put_escaped(out, s, pft_fmt_escape_json);
	putc('"', out);
}

void text_string(FILE *out, const char *s)
{
	put_escaped(out, s, pft_fmt_escape_text);
}
