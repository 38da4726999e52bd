/* pft_model_log.h - what the PTM and ETMv3 models share: reading an
 * executed-instruction log against the image and checking that each
 * instruction can follow the one before (doc/model.md). */
#ifndef PFT_MODEL_INT_H
#define PFT_MODEL_INT_H

#include <stddef.h>
#include <stdint.h>

#include "pft.h"
#include "image/pft_isa.h"

/* An executed instruction as a model sees it. */
struct model_insn {
	uint32_t addr;
	uint8_t isa;
	uint8_t known;           /* in the image and classified */
	uint8_t traceable;       /* known and inside the filter */
	uint8_t traced;          /* trace was on for it */
	uint8_t ns;
	uint8_t in_it;           /* inside a Thumb IT block: conditional */
	uint8_t it_after;        /* IT instructions left after this one */
	uint8_t it_state;        /* ITSTATE[7:0] while in the block */
	/* The condition failed: from the flags the log gave (has_nzcv) for a
	 * conditional instruction; 0 when passed, unconditional or unknown. */
	uint8_t cond_failed;
	struct pft_insn_class c;
	uint64_t t_done;         /* cycle time when it completed */
};

/* The log so far, as both models track it. */
struct model_track {
	struct pft_image *image;
	unsigned isa_flags;      /* enum pft_isa_flags for classification */
	const struct pft_model_config *mc;  /* the filter */
	struct model_insn prev;
	int have_prev;
	uint8_t ns;              /* the security state in force */
	struct pft_diag diag;    /* why the last put was refused (code 0: it was not) */
};

/* Address just after @in. */
static inline uint32_t model_insn_next(const struct model_insn *in)
{
	return in->addr + in->c.size;
}

/* Did @p, a waypoint (a branch), change the flow to @n? */
int pft_model_branch_taken(const struct model_insn *p, const struct model_insn *n);

/* Build @in from the log entry @n and check that it can follow the
 * previous instruction.  For an exception entry (@n->exception) @ret is
 * the instruction the interrupted flow would have run next, checked
 * against the previous one (when there is one), and @in, the handler's
 * first instruction, follows nothing.  Returns 0 or, with t->diag set,
 * the error codes of pft_ptm_model_put(). */
int pft_model_prepare(struct model_track *t, const struct pft_model_insn *n,
		      struct model_insn *in, struct model_insn *ret);

/* The filter of @mc is valid (END above START when on). */
int pft_model_filter_ok(const struct pft_model_config *mc);

/* Copy the caller's model configuration (NULL: defaults) with the sync
 * period defaulted.  Returns 0 or -PFT_ERR_INVALID (size too small). */
int pft_model_config_copy(struct pft_model_config *dst, const struct pft_model_config *src);

/*
 * The packets one put or finish makes, encoded as they are made (so that
 * the sync period counts real bytes), until next() hands them out: one
 * queue under both models, holding each packet struct as bytes beside its
 * encoding.
 */
enum {
	MODEL_QUEUE_MAX = 32,    /* packets one put makes: at most ~14 */
	MODEL_PKT_MAX = 128,     /* bytes of either model's packet struct */
	MODEL_BYTES_MAX = 16     /* either encoder's longest packet */
};

struct model_slot {
	_Alignas(max_align_t) unsigned char pkt[MODEL_PKT_MAX];
	uint8_t bytes[MODEL_BYTES_MAX];
};

struct model_queue {
	struct model_slot q[MODEL_QUEUE_MAX];
	unsigned head, len;
	size_t pkt_size;         /* of the model's packet struct */
	uint64_t bytes;          /* encoded so far: the next packet's offset */
};

/* Where the next packet is to be encoded: always free, since the queue is
 * empty when a put starts and one put makes far fewer than
 * MODEL_QUEUE_MAX packets. */
static inline struct model_slot *pft_model_queue_slot(struct model_queue *q)
{
	return &q->q[(q->head + q->len) % MODEL_QUEUE_MAX];
}

/* Queue packet struct @pkt, whose @n bytes were encoded into
 * pft_model_queue_slot().  @n <= 0 (the encoder refused it; the models only
 * build packets it accepts): dropped, which keeps the stream well formed. */
void pft_model_queue_push(struct model_queue *q, const void *pkt, int n);

/* A put or finish starts: -PFT_ERR_INVALID while packets still wait. */
int pft_model_queue_begin(struct model_queue *q);

/* The next packet into @pkt (@size bytes of it), or -PFT_ERR_EOS (none
 * left and @finished) or -PFT_ERR_NEED_INPUT. */
int pft_model_queue_next(struct model_queue *q, int finished, void *pkt, size_t size);

#endif
