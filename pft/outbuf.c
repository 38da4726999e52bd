/* outbuf.c - the listing buffer's way out (outbuf.h). */
#include <stdio.h>
#include "outbuf.h"

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
