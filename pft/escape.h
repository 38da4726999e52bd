/* escape.h - strings from input files (symbol and file names) written
 * safely: JSON-escaped in JSON, control characters visible in text. */
#ifndef PFT_ESCAPE_H
#define PFT_ESCAPE_H

#include <stdio.h>

/* Write @s as a JSON string, quotes included (pft_fmt_escape_json()). */
void json_string(FILE *out, const char *s);

/* Write @s with control characters and invalid UTF-8 as \xNN, so that a
 * name cannot move the cursor or break a line of a text listing
 * (pft_fmt_escape_text()). */
void text_string(FILE *out, const char *s);

#endif
