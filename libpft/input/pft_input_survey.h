/* pft_input_survey.h - the survey of an input (struct pft_input_config's
 * @survey, pft info): each file read through a pft_info, not decoded. */
#ifndef PFT_INPUT_SURVEY_H
#define PFT_INPUT_SURVEY_H

#include <stddef.h>
#include <stdint.h>

#include "pft.h"

struct pft_survey;

/* A survey of the sources @cfg's @id and @ids take (pft_input_wants_id());
 * returns NULL when out of memory. */
struct pft_survey *pft_survey_alloc(const struct pft_input_config *cfg);
/* NULL: no-op. */
void pft_survey_free(struct pft_survey *s);

/* Survey file @path ("-": standard input) framed as @framing (enum
 * pft_frame_format; PFT_FRAMES_UNKNOWN: frames, with or without
 * trace-port syncs); the source of a raw file has trace ID @raw_id (-1:
 * none); with @verdict, the read gives pft_input_verdict() on its first
 * block first (for standard input: a regular file had it when it was
 * opened).  Returns 0, or -PFT_ERR_BAD_FILE (it cannot be read),
 * -PFT_ERR_NOMEM, *@d says why. */
int pft_survey_add_file(struct pft_survey *s, const char *path, uint8_t framing, int raw_id,
			int verdict, struct pft_diag *d);

/*
 * What a trace file holds against @format (enum pft_pipe_format), the
 * framing it was given as, from its first @len bytes at @buf (@whole: all
 * of it; PFT_DETECT_PREFIX bytes are enough, more for PFT_PIPE_TPIU): the
 * one verdict every command gives (pft_input_open_file(); for standard
 * input in a survey, its first block).
 * Refused: an empty file (-PFT_ERR_BAD_FILE); a formatted buffer given as
 * RAW; given as frames, a raw stream, bytes in which no trace source is
 * found read as frames or raw, or for PFT_PIPE_TPIU bytes without a
 * trace-port FSYNC (-PFT_ERR_NO_SOURCE).  Returns 0 or the error, with *@d
 * naming the file, what it is and the option that fits.
 */
int pft_input_verdict(struct pft_diag *d, const char *path, unsigned format,
		      const uint8_t *buf, size_t len, int whole);

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
