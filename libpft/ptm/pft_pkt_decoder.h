/* pft_pkt_decoder.h - packet decoder internals for the pipeline, which joins a
 * source's frame payloads into long feeds but must cut its unsynchronised
 * bytes into NOTSYNC packets where the frames end, as one feed per frame
 * would. */
#ifndef PFT_PKT_INT_H
#define PFT_PKT_INT_H

#include <stdint.h>

#include "pft.h"

/* 1 when @d is synchronised (its packets do not depend on the feeds). */
int pft_ptm_pkt_synced(const struct pft_ptm_pkt_decoder *d);

/* Stream offset of the next byte of the current feed. */
uint64_t pft_ptm_pkt_feed_pos(const struct pft_ptm_pkt_decoder *d);

/* End the current feed at stream offset @end (from pft_ptm_pkt_feed_pos() to
 * the feed's end): the bytes after it are fed again later.  Returns the
 * bytes dropped, or -PFT_ERR_INVALID. */
int pft_ptm_pkt_cut_feed(struct pft_ptm_pkt_decoder *d, uint64_t end);

/* Packets passed over by pft_ptm_pkt_skip_counted(), by type. */
struct pkt_skipped {
	uint64_t atoms, branches;
};

/*
 * Counting without the packets (the pipeline's and the parallel decode's
 * count-only paths): from the decoder's position, pass over the atom and
 * branch packets that start before stream offset @limit and lie whole in
 * the current feed, adding them to *@sk, with the decoder's state changed
 * as if they had been returned.  At a packet of another type, whole and
 * well formed, decode it into *@pkt as pft_ptm_pkt_next() would, and return 1
 * (the caller counts it, and gives it to its fit check).  Returns 0 when it
 * stops before a packet it leaves to pft_ptm_pkt_next() (a bad one, one that
 * may be cut by the feed's end, or at @limit), or does nothing while
 * unsynchronised or holding a packet cut by a feed.
 */
int pft_ptm_pkt_skip_counted(struct pft_ptm_pkt_decoder *d, uint64_t limit, struct pkt_skipped *sk,
			 struct pft_ptm_packet *pkt);

#endif
