/* Growing arrays (pft_grow.h). */
#include <stdlib.h>

#include "common/pft_grow.h"

int pft_grow(void **arr, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap * 2 : 64;
	while (n < need)
		n *= 2;
	void *p = realloc(*arr, n * elem);
	if (!p)
		return -PFT_ERR_NOMEM;
	*arr = p;
	*cap = n;
	return 0;
}
