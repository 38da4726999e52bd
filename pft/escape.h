/* escape.h - strings from input files (symbol and file names) written
 * safely: JSON-escaped in JSON, control characters visible in text. */
#ifndef PFT_ESCAPE_H
#define PFT_ESCAPE_H

#include <stdio.h>

/* Write @s as a JSON string, quotes included. */
void json_string(FILE *out, const char *s);

/* Write @s with control characters (and DEL) as \xNN, so that a name
 * cannot move the cursor or break a line of a text listing. */
void text_string(FILE *out, const char *s);

#endif
