/* pft_input_get_perf.h - the perf.data input (pft_input_perf.c) as pft_input.c
 * sees it: pft_input delegates its reading and its source list to it. */
#ifndef PFT_INTERNAL_INPUT_PERF_H
#define PFT_INTERNAL_INPUT_PERF_H

#include <stddef.h>

#include "pft.h"

struct perf_in;

void pft_perf_in_free(struct perf_in *p);
int pft_perf_in_next(struct perf_in *p, struct pft_item *item, size_t size);
const struct pft_diag *pft_perf_in_error(const struct perf_in *p);
/* Progress (pft_input_progress()): the file's size in *@total, and in
 * *@done the share of it the share of the queues' records passed gives. */
void pft_perf_in_progress(const struct perf_in *p, uint64_t *done, uint64_t *total);
size_t pft_perf_in_nsources(const struct perf_in *p);
int pft_perf_in_source(const struct perf_in *p, size_t index, struct pft_input_source *src,
		   size_t size);
int pft_perf_in_fit(const struct perf_in *p, size_t index, struct pft_fit_verdict *v,
		size_t size);

/* From pft_input.c: the input's configuration, whether something was
 * opened already, and the user's images (--elf, --image) loaded into @img
 * (*@d says why on failure). */
const struct pft_input_config *pft_input_get_config(const struct pft_input *in);
int pft_input_opened(const struct pft_input *in);
int pft_input_load_user_images(struct pft_input *in, struct pft_image *img, struct pft_diag *d);
/* Keep @note for pft_input_diag() (once). */
int pft_input_add_note(struct pft_input *in, const struct pft_diag *note);
/* Hand @p to @in, which frees it; reading then goes through it. */
void pft_input_set_perf(struct pft_input *in, struct perf_in *p);
struct perf_in *pft_input_get_perf(const struct pft_input *in);

#endif
