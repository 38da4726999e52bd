/* pft_input_ids.h - the trace IDs a struct pft_input_config asks for (its
 * @id and @ids), as the input, its survey and perf.data read them. */
#ifndef PFT_INPUT_IDS_H
#define PFT_INPUT_IDS_H

#include "pft.h"

/* Whether @c names trace ID @id (its @id, or a bit of @ids). */
static inline int pft_input_names_id(const struct pft_input_config *c, int id)
{
	return id >= 0 && id <= PFT_ID_MAX_VALID &&
	       (c->id == id || (c->ids[id / 8] >> (id % 8) & 1));
}

/* Whether @c names any trace ID. */
static inline int pft_input_names_ids(const struct pft_input_config *c)
{
	int any = c->id >= 0;

	for (int i = 0; i < 16; i++)
		any |= c->ids[i];
	return any;
}

/* Whether a source with trace ID @id is taken: every one when @c names
 * none. */
static inline int pft_input_wants_id(const struct pft_input_config *c, int id)
{
	return !pft_input_names_ids(c) || pft_input_names_id(c, id);
}

#endif
