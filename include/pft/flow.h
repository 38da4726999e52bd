/*
 * pft/flow.h - the flow decoder (packets + image -> executed instruction ranges,
 * struct pft_elem, pft_flow_) and the instructions of a range (classes and
 * an iterator, pft_insn_).
 *
 * Link with libpft (pkg-config libpft).  <pft.h> includes every header;
 * its head comment gives the conventions and the prefixes.
 */
#ifndef PFT_PUBLIC_FLOW_H
#define PFT_PUBLIC_FLOW_H

#include <stddef.h>
#include <string.h>

#include "pft/common.h"
#include "pft/packets.h"
#include "pft/image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================
 * Flow: executed instruction ranges
 * ====================================================================== */

/* ---- Section: flow (pft_flow_) ---- */

/*
 * The flow decoder turns the packets of one trace source into what the
 * processor executed, reading the instructions between waypoints from a
 * program image (pft-flow.md).  Put a packet, then take elements with
 * pft_ptm_flow_next() until -PFT_ERR_NEED_INPUT.
 */
enum pft_elem_type {
	PFT_ELEM_RANGE = 0,        /* instructions executed in sequence */
	PFT_ELEM_NO_SYNC,          /* decoding is not (or no longer) synchronised */
	PFT_ELEM_TRACE_ON,         /* trace (re)starts: the first I-sync after
				    * synchronising, or one that is not periodic */
	PFT_ELEM_CONTEXT,          /* context ID, VMID, security or Hyp state changed */
	PFT_ELEM_EXCEPTION,        /* an exception was taken */
	PFT_ELEM_EXCEPTION_RETURN, /* an exception-return packet */
	PFT_ELEM_TIMESTAMP,
	PFT_ELEM_TRIGGER,
	PFT_ELEM_ADDR_NACC,        /* flow reached memory that no image covers */
	PFT_ELEM_ERROR,            /* the trace and the image disagree, or bad trace */
	/* Only from an input with a fold (pft_input_set_fold()): how often
	 * (@ts) the range this element describes ran, where the decode's
	 * workers counted it; its RANGEs are folded (PFT_ELEM_F_FOLDED). */
	PFT_ELEM_RANGE_COUNT,
	/* Only from an input with the fold of views without calling contexts
	 * (pft_views_config.no_contexts), for those views alone: the calls
	 * stack the decode's workers ran over ranges they counted. */
	PFT_ELEM_ENTRY_COUNT,      /* calls, tail calls and exceptions into @addr */
	PFT_ELEM_CALLS_BRANCH,     /* a branch only the frames before them settle */
	PFT_ELEM_CALLS_STATE,      /* what those ranges did to the stack ... */
	PFT_ELEM_CALLS_FRAME,      /* ... and a frame they left open on it */
	/* Only from an input with a listing's fold (pft_listing_fold_alloc()):
	 * bytes of listing lines, in order (pft_elem_text()). */
	PFT_ELEM_TEXT,
	/* Only from an input with the fold of views with calling contexts
	 * (pft_views_fold()), for those views alone: calls from the range
	 * before, at @last, into @start, that returned at once, @ninsn of
	 * them (pft_views.c says how they are counted). */
	PFT_ELEM_LEAF_CALLS,
	/* Only from an input with a calls listing's fold
	 * (pft_calls_listing_fold()), for that listing alone: the calls of
	 * the elements before it, which the decode's workers ran. */
	PFT_ELEM_CALLS_LOG,
	PFT_ELEM_TYPE_MAX
};

/* "range", "no_sync", "trace_on", "context", "exception",
 * "exception_return", "timestamp", "trigger", "addr_nacc", "error",
 * "range_count", "entry_count", "calls_branch", "calls_state",
 * "calls_frame", "text", "leaf_calls". */
pft_export const char *pft_elem_type_name(enum pft_elem_type type);

/* Bits of pft_elem.changed (CONTEXT elements). */
enum pft_ctx_changed {
	PFT_CTX_CTXID = 1 << 0,
	PFT_CTX_VMID = 1 << 1,
	PFT_CTX_NS = 1 << 2,
	PFT_CTX_HYP = 1 << 3,
	PFT_CTX_ISA = 1 << 4
};

struct pft_elem {
	uint64_t offset;     /* offset of the packet that produced it */
	uint64_t ts;         /* TIMESTAMP */
	/* RANGE: instructions @start .. @last, @ninsn of them; @end is the
	 * address after @last.  @taken: the last instruction is a waypoint
	 * that changed the flow (E atom or branch address); 0 for an N atom or
	 * a range that ends at a waypoint update. */
	uint32_t start, end, last, ninsn;
	uint32_t cycles;     /* when has_cycles: from the packet that ended it */
	uint32_t addr;       /* ADDR_NACC: the address; EXCEPTION: preferred
			      * return address (when has_ret); ERROR: the
			      * address the flow had reached (0: unknown) */
	uint32_t ctxid;      /* CONTEXT */
	uint16_t exception;  /* EXCEPTION: number (pft_exception_name()) */
	uint8_t type;        /* enum pft_elem_type */
	uint8_t isa;         /* RANGE: instruction set; CONTEXT: the new one */
	uint8_t taken;
	uint8_t iclass;      /* RANGE: enum pft_iclass of @last */
	uint8_t space;       /* RANGE: enum pft_mem_space its bytes were read
			      * from (the security state of the trace) */
	uint8_t has_cycles;
	uint8_t has_ret;     /* EXCEPTION */
	uint8_t reason;      /* TRACE_ON: enum pft_isync_reason;
			      * ERROR: PFT_ERR_FLOW_* (pft_errstr()) */
	uint8_t ns, hyp, vmid; /* CONTEXT */
	uint8_t changed;     /* CONTEXT: enum pft_ctx_changed bits */
	uint8_t flags;       /* RANGE: enum pft_elem_flags */
	/* EXCEPTION: the enum pft_profile whose numbering @exception is in
	 * (PFT_PROFILE_M: the IPSR number; pft_exception_name_in() names it). */
	uint8_t profile;
	uint8_t reserved[2];
};

/* A TEXT element holds up to PFT_ELEM_TEXT_MAX bytes: all of its own but
 * @type and @isa, which counts them. */
enum { PFT_ELEM_TEXT_MAX = 62 };

/* The bytes of TEXT element @e, copied to @out (room for
 * PFT_ELEM_TEXT_MAX, whatever their number): returns their number. */
static inline size_t pft_elem_text(const struct pft_elem *e, char *out)
{
	const char *b = (const char *)e;

	memcpy(out, b, offsetof(struct pft_elem, type));
	memcpy(out + offsetof(struct pft_elem, type), b + offsetof(struct pft_elem, taken),
	       sizeof(*e) - offsetof(struct pft_elem, taken));
	return e->isa;
}

/* What a RANGE tells of its conditional instructions. */
enum pft_elem_flags {
	/* Every conditional instruction of the range is traced (ETMv3: an
	 * atom per instruction): each one before the last passed its
	 * condition, and the last passed it unless PFT_ELEM_F_FAILED.  PTM
	 * traces only waypoints: a conditional instruction that is no
	 * branch leaves no trace there. */
	PFT_ELEM_F_CONDS = 1 << 0,
	/* The last instruction failed its condition code check (an N atom on
	 * an instruction that is no branch as well). */
	PFT_ELEM_F_FAILED = 1 << 1,
	/* Only from an input with a fold (pft_input_set_fold()): consecutive
	 * ranges in one RANGE (@start of the first, @ninsn and @cycles of
	 * all, @ts how many, the rest of the last), between which no call,
	 * return or other branch that can move a calls stack was taken; for
	 * the views' fold (pft_views_fold()) ranges of one function, which
	 * come counted in RANGE_COUNT elements as well. */
	PFT_ELEM_F_FOLDED = 1 << 2
};

struct pft_ptm_flow;

/*
 * Allocate a flow decoder for a stream with configuration @cfg (copied),
 * reading instructions from @image (borrowed: it must outlive the decoder
 * and not change while it is used; NULL = no memory, every walk reports
 * ADDR_NACC).  Returns NULL with *@errcode set to -PFT_ERR_INVALID,
 * -PFT_ERR_BAD_CONFIG (ctxid_bytes not 0/1/2/4) or -PFT_ERR_NOMEM.
 */
pft_export struct pft_ptm_flow *pft_ptm_flow_alloc(const struct pft_ptm_config *cfg,
					   struct pft_image *image, int *errcode);
pft_export void pft_ptm_flow_free(struct pft_ptm_flow *f);

/*
 * Apply one packet (from pft_ptm_pkt_next(), BAD packets included).  Elements
 * it produces wait for pft_ptm_flow_next().  Returns 0, -PFT_ERR_INVALID (NULL
 * argument, @size too small, a field out of range: type, isa, more than 5
 * atoms, or elements of the previous packet not all taken).
 */
pft_export int pft_ptm_flow_put(struct pft_ptm_flow *f, const struct pft_ptm_packet *pkt,
			    size_t size);

/* The next element, or -PFT_ERR_NEED_INPUT when the packet put last is
 * used up; -PFT_ERR_INVALID for NULL arguments. */
pft_export int pft_ptm_flow_next(struct pft_ptm_flow *f, struct pft_elem *elem, size_t size);

/* Forget all state (for a discontinuity in the input): the next elements
 * start with NO_SYNC. Returns 0 or -PFT_ERR_INVALID. */
pft_export int pft_ptm_flow_reset(struct pft_ptm_flow *f);

/* Instructions in the ranges reported so far. */
pft_export uint64_t pft_ptm_flow_insn_count(const struct pft_ptm_flow *f);

/* The most elements one packet can produce (5 atoms x 3 + 4, rounded up). */
#define PFT_FLOW_ELEMS_MAX 32

/*
 * The batch path: apply the packets @pkts[0 .. @npkts) in order, as
 * pft_ptm_flow_put() would, writing their elements to @elems (room for
 * @nelems, at least PFT_FLOW_ELEMS_MAX) instead of queueing them; the
 * elements of packet i end at @elems[@pkt_end[i]] (@pkt_end has room for
 * @npkts).  It stops early when fewer than PFT_FLOW_ELEMS_MAX places are
 * left, or before a packet pft_ptm_flow_put() would refuse.  Returns the
 * packets applied, or -PFT_ERR_INVALID (NULL argument, @pkt_size not
 * sizeof(struct pft_ptm_packet), @nelems too small, or the first packet out of
 * range) or -PFT_ERR_INTERNAL (elements of a pft_ptm_flow_put() were not taken).
 */
pft_export int pft_ptm_flow_decode(struct pft_ptm_flow *f, const struct pft_ptm_packet *pkts,
			       size_t npkts, size_t pkt_size, struct pft_elem *elems,
			       size_t nelems, size_t *pkt_end);


/* ---- End of flow ---- */

/* ======================================================================
 * Instructions: classes, and the instructions of a range
 * ====================================================================== */

/* ---- Section: instructions (pft_insn_) ---- */

/* What an instruction does to the flow of control, as far as call and
 * return tracking needs to know. */
enum pft_iclass {
	PFT_ICLASS_OTHER = 0,      /* not a branch */
	PFT_ICLASS_CALL,           /* BL, BLX <imm>: a direct call */
	PFT_ICLASS_INDIRECT_CALL,  /* BLX <reg> (and ThumbEE HBL/HBLP) */
	PFT_ICLASS_RETURN,         /* BX LR, MOV PC, LR, POP {.., PC},
				    * LDM SP!, {.., PC}, LDR PC, [SP], #4 */
	PFT_ICLASS_JUMP,           /* a direct branch without link */
	PFT_ICLASS_INDIRECT_JUMP,  /* any other write of the PC: BX <reg>,
				    * LDR PC, TBB/TBH, ... */
	PFT_ICLASS_EXC_RETURN,     /* ERET, RFE, SUBS PC, LR, LDM with ^ */
	PFT_ICLASS_BARRIER,        /* ISB (DMB, DSB when they are waypoints) */
	PFT_ICLASS_MAX
};

/* "other", "call", "indirect_call", "return", "jump", "indirect_jump",
 * "exc_return", "barrier"; "unknown" out of range. */
pft_export const char *pft_iclass_name(unsigned iclass);

/* One instruction. */
struct pft_insn {
	uint32_t addr;
	uint32_t target;       /* CALL, JUMP: the branch target */
	uint8_t size;          /* 2 or 4 */
	uint8_t isa;           /* enum pft_isa */
	uint8_t iclass;        /* enum pft_iclass */
	uint8_t conditional;   /* its encoding has a condition other than
				* always (A32 cond, T32 B<c>, CBZ/CBNZ; an IT
				* block's condition is not counted) */
	uint8_t target_isa;    /* CALL, JUMP: enum pft_isa at the target */
	uint8_t space;         /* enum pft_mem_space its bytes came from */
	uint8_t reserved[2];
	uint8_t raw[4];        /* its bytes, as in memory (@size of them) */
};

/*
 * Decode the instruction at @addr in instruction set @isa (PFT_ISA_ARM,
 * PFT_ISA_THUMB or PFT_ISA_THUMBEE) from @avail bytes at @code.  @size =
 * sizeof *@insn.  Returns the instruction's size (2 or 4), or:
 *   -PFT_ERR_NOMAP          @avail is too short for the instruction
 *   -PFT_ERR_NOT_SUPPORTED  Jazelle or an unknown instruction set
 *   -PFT_ERR_INVALID        NULL @code or @insn, @size too small
 */
pft_export int pft_insn_decode(enum pft_isa isa, uint32_t addr,
			       const uint8_t *code, size_t avail,
			       struct pft_insn *insn, size_t size);

/* Walks the instructions of a RANGE element.  Initialise with
 * pft_insn_iter_init(); the fields are the iterator's own. */
struct pft_insn_iter {
	struct pft_image *image;  /* borrowed */
	uint32_t addr;            /* the next instruction */
	uint32_t left;            /* instructions still to come */
	uint8_t isa, space;
	uint8_t reserved[6];
};

/*
 * Start walking @range's instructions, read from @image (borrowed; it must
 * be the image the range was decoded with).  Returns 0, or -PFT_ERR_INVALID
 * (NULL argument, or @range is not a RANGE element).
 */
pft_export int pft_insn_iter_init(struct pft_insn_iter *it,
				  struct pft_image *image,
				  const struct pft_elem *range);

/*
 * The next instruction in *@insn (@size = sizeof *@insn).  Returns 1, 0
 * when the range's instructions have all been returned, or
 * -PFT_ERR_NOMAP (the image no longer holds the instruction: it changed
 * since the decode) or -PFT_ERR_INVALID.
 */
pft_export int pft_insn_iter_next(struct pft_insn_iter *it,
				  struct pft_insn *insn, size_t size);

/* ---- End of instructions ---- */

#ifdef __cplusplus
}
#endif

#endif /* PFT_PUBLIC_FLOW_H */
