/* Located diagnostics: the data and the one line that says it. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/pft_diag.h"

void pft_diag_clear(struct pft_diag *d)
{
	if (!d)
		return;
	memset(d, 0, offsetof(struct pft_diag, file));
	d->offset = PFT_DIAG_NO_OFFSET;
	d->file[0] = d->text[0] = '\0';
}

int pft_diag_vat(struct pft_diag *d, int err, const char *file, unsigned line,
		 uint64_t offset, const char *fmt, va_list ap)
{
	if (!d)
		return err;
	pft_diag_clear(d);
	d->code = pft_errcode(err);
	d->severity = err < 0 ? PFT_DIAG_ERROR : PFT_DIAG_NOTE;
	d->line = line;
	d->offset = offset;
	int n = 0;
	if (file) {
		snprintf(d->file, sizeof(d->file), "%s", file);
		if (line)
			n = snprintf(d->text, sizeof(d->text), "%s:%u: ", file, line);
		else if (offset != PFT_DIAG_NO_OFFSET)
			n = snprintf(d->text, sizeof(d->text), "%s: offset 0x%" PRIx64 ": ",
				     file, offset);
		else
			n = snprintf(d->text, sizeof(d->text), "%s: ", file);
		if (n < 0)
			n = 0;
		if ((size_t)n >= sizeof(d->text))
			n = sizeof(d->text) - 1;
	}
	vsnprintf(d->text + n, sizeof(d->text) - (size_t)n, fmt, ap);
	return err;
}

int pft_diag_at(struct pft_diag *d, int err, const char *file, unsigned line,
		uint64_t offset, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pft_diag_vat(d, err, file, line, offset, fmt, ap);
	va_end(ap);
	return err;
}

int pft_diag_warning(struct pft_diag *d)
{
	if (d)
		d->severity = PFT_DIAG_WARNING;
	return 0;
}

int pft_diag_set(struct pft_diag *d, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pft_diag_vat(d, err, NULL, 0, PFT_DIAG_NO_OFFSET, fmt, ap);
	va_end(ap);
	return err;
}
