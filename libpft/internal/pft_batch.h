/* pft_batch.h - a batch of PTM packets with their elements, returned as
 * items: the serial pipeline (pft_pipe.c) and the parallel decode's
 * reader (pft_par.c) return the same items from the same batches. */
#ifndef PFT_BATCH_H
#define PFT_BATCH_H

#include <stdint.h>

#include "pft.h"

struct ptm_batch {
	const struct pft_packet *pkts;
	const struct pft_elem *elems;  /* NULL: packets only (no flow decode) */
	const uint16_t *elem_end;      /* pkts[k]'s elements end at elems[elem_end[k]] */
	int npkts, ipkt, ielem;        /* ipkt, ielem: the next to return */
	int status;                    /* 0, or the status of a lone BAD packet */
};

/* The batch's next item in *@item (its type, status, ptm, elem and count;
 * the caller sets the rest): 1, or 0 when the batch is used up.  Packets
 * are returned with @packets, in runs with @runs; every packet and
 * element passed goes to @stats and to @fit (may be NULL), packets only
 * while *@fit_bytes (the bytes given to it so far) are under the
 * detection prefix or of a type it counts beyond (detect.h). */
int ptm_batch_item(struct ptm_batch *b, int packets, int runs, struct pft_pipe_stats *stats,
		   struct pft_fit *fit, uint64_t *fit_bytes, struct pft_item *item);

#endif
