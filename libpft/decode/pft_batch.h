/* pft_batch.h - a batch of packets (of any protocol) with their
 * elements, returned as items: the serial pipeline (pft_pipe.c) and the
 * parallel decode's reader (pft_par.c) return the same items from the same
 * batches.  The fit check and counting in place are PTM's alone. */
#ifndef PFT_BATCH_H
#define PFT_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "decode/pft_detect.h"
#include "pft.h"
#include "core/pft_proto.h"
#include "ptm/pft_pkt_decoder.h"

/* The table of protocol @protocol (enum pft_protocol), or NULL. */
const struct pft_proto *pft_proto_of(unsigned protocol);

struct pft_batch {
	/* The packets, @pkt_size bytes apart; NULL: elements a flow decoder
	 * gave at the end of the stream (as if of one packet, returned). */
	const unsigned char *pkts;
	uint32_t pkt_size;
	uint8_t protocol;              /* enum pft_protocol of the packets */
	const struct pft_elem *elems;  /* NULL: packets only (no flow decode) */
	const uint16_t *elem_end;      /* pkts[k]'s elements end at elems[elem_end[k]] */
	int npkts, ipkt, ielem;        /* ipkt, ielem: the next to return */
	int status;                    /* 0, or the status of a lone BAD packet */
};

/* Packet @k of batch @b: @item's packet, in the field of its protocol. */
static inline void pft_batch_item_packet(const struct pft_batch *b, int k, struct pft_item *item)
{
	const void *pkt = b->pkts ? b->pkts + (size_t)k * b->pkt_size : NULL;

	if (b->protocol == PFT_PROTO_ETMV3)
		item->etm3 = pkt;
	else
		item->ptm = pkt;
}

/* The batch's next item in *@item (its type, status, packet, elem and count;
 * the caller sets the rest): 1, or 0 when the batch is used up.  Packets
 * are returned with @packets, in runs with @runs; every packet and
 * element passed goes to @stats (NULL: counted already, by the parallel
 * decode's threads) and to @fit (may be NULL), packets only
 * while *@fit_bytes (the bytes given to it so far) are under the
 * detection prefix or of a type it counts beyond (pft_detect.h). */
int pft_batch_item(struct pft_batch *b, int packets, int runs, struct pft_pipe_stats *stats,
		   struct pft_fit *fit, uint64_t *fit_bytes, struct pft_item *item);

/* Counting only (pft_input_count()): PTM source @source's counts go to
 * *@c, which outlives the pipeline's use of it, instead of coming back as
 * items: without a flow decoder, those of its atoms and branch packets;
 * with one and elements only returned, those of every batch of packets
 * but one with a bad packet.  Returns 0 or -PFT_ERR_INVALID. */
int pft_pipe_count_into(struct pft_pipe *p, unsigned source, struct pft_input_counts *c);

/* Give packet @pkt (of a batch with status @status) to fit check @fit as
 * the serial decode does: every packet while *@fit_bytes (the bytes given
 * so far) are under the detection prefix, then those of the types it
 * counts (pft_detect.h). */
static inline void ptm_fit_packet(struct pft_fit *fit, uint64_t *fit_bytes,
				  const struct pft_ptm_packet *pkt, int status)
{
	if (*fit_bytes < PFT_DETECT_PREFIX || (PFT_FIT_COUNTED_TYPES >> pkt->type & 1)) {
		*fit_bytes += pkt->size;
		pft_fit_packet(fit, pkt, sizeof(*pkt), status);
	}
}

/* Give element @e to fit check @fit: pft_fit_elem(), without the call
 * for what it passes over (ranges, but the first after an I-sync). */
static inline void ptm_fit_elem(struct pft_fit *fit, const struct pft_elem *e)
{
	if (e->type != PFT_ELEM_RANGE || fit->first_after_isync)
		pft_fit_elem(fit, e, sizeof(*e));
}

/* Give the packets of batch @b (PTM) from @ipkt on, each followed by its
 * elements (from elems[@ielem]), to fit check @fit as ptm_fit_packet()
 * and ptm_fit_elem() do, passing over at once what it does not look at
 * (pft_pipe.c). */
void pft_batch_fit(const struct pft_batch *b, struct pft_fit *fit, uint64_t *fit_bytes,
		   int ipkt, int ielem);

/* Counting only: pass over the packets ahead of decoder @d (before stream
 * offset @limit) that are whole and well formed, adding them to *@c and
 * giving them to @fit (may be NULL) as ptm_fit_packet() does, once the
 * fit check has its detection prefix (*@fit_bytes): it sees every packet
 * of that, and after it only the types it counts, which are not atoms or
 * branches.  Returns the packets passed over. */
static inline uint64_t ptm_skip_counted(struct pft_ptm_pkt_decoder *d, uint64_t limit,
					struct pft_input_counts *c, struct pft_fit *fit,
					uint64_t *fit_bytes)
{
	if (fit && *fit_bytes < PFT_DETECT_PREFIX)
		return 0;
	struct pkt_skipped sk = { 0, 0 };
	struct pft_ptm_packet pkt;
	uint64_t others = 0;

	while (pft_ptm_pkt_skip_counted(d, limit, &sk, &pkt)) {
		c->packets[pkt.type]++;
		others++;
		if (fit)
			ptm_fit_packet(fit, fit_bytes, &pkt, 0);
	}
	c->packets[PFT_PTM_PKT_ATOM] += sk.atoms;
	c->packets[PFT_PTM_PKT_BRANCH] += sk.branches;
	return sk.atoms + sk.branches + others;
}

/* Count @n elements into @c. */
static inline void ptm_count_elems(struct pft_input_counts *c, const struct pft_elem *elems,
				   size_t n)
{
	/* Ranges (most elements) counted in a register, the others in
	 * the table. */
	uint64_t ranges = 0, insns = 0;

	for (size_t k = 0; k < n; k++) {
		if (elems[k].type == PFT_ELEM_RANGE) {
			ranges++;
			insns += elems[k].ninsn;
		} else {
			if (elems[k].type == PFT_ELEM_ERROR && !c->elems[PFT_ELEM_ERROR]) {
				c->first_error_offset = elems[k].offset;
				c->first_error_reason = elems[k].reason;
			}
			c->elems[elems[k].type]++;
		}
	}
	c->elems[PFT_ELEM_RANGE] += ranges;
	c->insns += insns;
}

#endif
