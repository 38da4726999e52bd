/* Event encoding internals shared with the register explainer. */
#ifndef PFT_EVENT_INT_H
#define PFT_EVENT_INT_H

#include "pft.h"

/*
 * Set the counts in @limits (usually set to the maximum beforehand) that
 * the given ID registers determine; a NULL register is unknown and leaves
 * its counts alone.  Counts above the architectural maximum are clamped.
 */
void pft_event_limits_apply(struct pft_event_limits *limits,
			    const uint32_t *etmccr, const uint32_t *etmccer,
			    const uint32_t *etmidr);

#endif
