/* pft_input_survey.h - the survey of an input (struct pft_input_config's
 * @survey, pft info): each file read through a pft_info, not decoded. */
#ifndef PFT_INPUT_SURVEY_H
#define PFT_INPUT_SURVEY_H

#include <stddef.h>
#include <stdint.h>

#include "pft.h"

struct pft_survey;

/* Returns NULL when out of memory. */
struct pft_survey *pft_survey_alloc(void);
/* NULL: no-op. */
void pft_survey_free(struct pft_survey *s);

/* Survey file @path ("-": standard input) framed as @framing (enum
 * pft_frame_format; PFT_FRAMES_UNKNOWN: frames, with or without
 * trace-port syncs); the source of a raw file has trace ID @raw_id (-1:
 * none).  Returns 0, or -PFT_ERR_BAD_FILE (it cannot be read),
 * -PFT_ERR_NOMEM, *@d says why. */
int pft_survey_add_file(struct pft_survey *s, const char *path, uint8_t framing, int raw_id,
			struct pft_diag *d);

/* The configuration of a PTM source comes from @snap's registers where
 * it has a PTM device with the source's trace ID (@snap outlives @s). */
void pft_survey_set_snapshot(struct pft_survey *s, const struct pft_snapshot *snap);

/* Detect with @image (borrowed, may be NULL), as a decode does. */
void pft_survey_set_image(struct pft_survey *s, struct pft_image *image);

/* Read every file through, in blocks of @size bytes at @buf.  Returns
 * -PFT_ERR_EOS (read: the sources are known), or -PFT_ERR_BAD_FILE,
 * -PFT_ERR_NOMEM *@d says why. */
int pft_survey_read(struct pft_survey *s, uint8_t *buf, size_t size, struct pft_diag *d);

/* The sources (none before the read). */
size_t pft_survey_nsources(const struct pft_survey *s);
int pft_survey_source(const struct pft_survey *s, size_t index, struct pft_input_source *src,
		      size_t size);

#endif
