/* The text of the failure pft_input_diag() reports last ("" for none). */
#ifndef TEST_INPUT_ERROR_H
#define TEST_INPUT_ERROR_H

#include "pft.h"

static inline const char *input_error(const struct pft_input *in)
{
	static struct pft_diag last;
	struct pft_diag d;

	last.text[0] = 0;
	for (size_t i = 0; pft_input_diag(in, i, &d) == 0; i++)
		if (d.severity == PFT_DIAG_ERROR)
			last = d;
	return last.text;
}

#endif
