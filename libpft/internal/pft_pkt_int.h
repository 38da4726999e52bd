/* pft_pkt_int.h - packet decoder internals for the pipeline, which joins a
 * source's frame payloads into long feeds but must cut its unsynchronised
 * bytes into NOTSYNC packets where the frames end, as one feed per frame
 * would. */
#ifndef PFT_PKT_INT_H
#define PFT_PKT_INT_H

#include <stdint.h>

#include "pft.h"

/* 1 when @d is synchronised (its packets do not depend on the feeds). */
int pft_pkt_synced(const struct pft_pkt_decoder *d);

/* Stream offset of the next byte of the current feed. */
uint64_t pft_pkt_feed_pos(const struct pft_pkt_decoder *d);

/* End the current feed at stream offset @end (from pft_pkt_feed_pos() to
 * the feed's end): the bytes after it are fed again later.  Returns the
 * bytes dropped, or -PFT_ERR_INVALID. */
int pft_pkt_cut_feed(struct pft_pkt_decoder *d, uint64_t end);

#endif
