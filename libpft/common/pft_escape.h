/* Escaping for one line of text: what a diagnostic says. */
#ifndef PFT_ESCAPE_H
#define PFT_ESCAPE_H

#include <stddef.h>

/* @src with its control characters (C0, DEL, C1) and the bytes that are
 * not valid UTF-8 as \xNN, so that a name from an input can neither break
 * the line nor drive a terminal; backslashes stay (escaping an escaped
 * line changes nothing).  snprintf()'s contract, as pft_fmt_escape_text(). */
int pft_escape_line(char *dst, size_t cap, const char *src);

#endif
