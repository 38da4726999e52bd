/* outbuf.c - the listing buffer's way out (outbuf.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "outbuf.h"
#include "pft.h"

static FILE *ob_file(const struct outbuf *o)
{
	return o->file ? o->file : stdout;
}

void ob_flush(struct outbuf *o)
{
	/* A failed write leaves the file's error flag set: the commands check
	 * it (cli_output_failed(), fclose()) and exit 2. */
	if (o->len)
		fwrite(o->buf, 1, o->len, ob_file(o));
	o->len = 0;
}

void ob_escaped(struct outbuf *o, const char *s, int json)
{
	/* After the name the line goes on: OUTBUF_LINE_MAX stays free.  A
	 * line begun near OUTBUF_SIZE may already be past that: no room. */
	size_t limit = sizeof(o->buf) - OUTBUF_LINE_MAX;
	size_t room = o->len < limit ? limit - o->len : 0;
	size_t len = strlen(s);
	int n = (json ? pft_fmt_escape_json : pft_fmt_escape_text)(o->buf + o->len, room, s, len);

	if (n >= 0 && (size_t)n < room) {
		o->len += (size_t)n;
		return;
	}
	/* Too long for what is left: through stdio, in order. */
	ob_flush(o);
	if (json) {
		/* json_string() adds the quotes the caller has written. */
		char *q = NULL;
		int m = pft_fmt_escape_json(NULL, 0, s, len);
		if (m >= 0 && (q = malloc((size_t)m + 1)) &&
		    pft_fmt_escape_json(q, (size_t)m + 1, s, len) >= 0)
			fwrite(q, 1, (size_t)m, ob_file(o));
		free(q);
	} else {
		text_string(ob_file(o), s);
	}
}
