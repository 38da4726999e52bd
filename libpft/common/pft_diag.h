/* Filling a struct pft_diag: the location as data, and the same location
 * leading its text ("FILE:LINE: ", "FILE: offset 0xN: " or "FILE: "). */
#ifndef PFT_DIAG_H
#define PFT_DIAG_H

#include <stdarg.h>

#include "pft/common.h"

/* Set *@d (when not NULL) to error @err (a negative code) with no place in
 * a file, the text from @fmt; returns @err. */
int pft_diag_set(struct pft_diag *d, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* As pft_diag_set(), about @file (NULL: none), at @line (0: none) or
 * byte @offset (PFT_DIAG_NO_OFFSET: none). */
int pft_diag_at(struct pft_diag *d, int err, const char *file, unsigned line,
		uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
int pft_diag_vat(struct pft_diag *d, int err, const char *file, unsigned line,
		 uint64_t offset, const char *fmt, va_list ap);

/* The common cases of pft_diag_at(). */
#define pft_diag_file(d, err, file, ...) \
	pft_diag_at(d, err, file, 0, PFT_DIAG_NO_OFFSET, __VA_ARGS__)
#define pft_diag_line(d, err, file, line, ...) \
	pft_diag_at(d, err, file, line, PFT_DIAG_NO_OFFSET, __VA_ARGS__)
#define pft_diag_offset(d, err, file, offset, ...) \
	pft_diag_at(d, err, file, 0, offset, __VA_ARGS__)

/* Make *@d, as filled with the code of the damage, a warning
 * (PFT_DIAG_WARNING): the call goes on.  Returns 0. */
int pft_diag_warning(struct pft_diag *d);

/* No diagnostic: code 0 and empty strings. */
void pft_diag_clear(struct pft_diag *d);

#endif
