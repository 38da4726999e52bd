/*
 * pft_isa.h - instruction classification for walking code between PTM
 * waypoints (internal to libpft; not part of pft.h).
 *
 * The flow decoder fills in the straight-line code between traced
 * waypoints from the program image.  For each instruction it walks over it
 * needs to know the size, whether the PTM treats it as a waypoint (and of
 * which kind), and for direct branches the target.  The classes follow
 * shared/spec/pft-flow.md section 4; doc/isa.md lists them.
 */
#ifndef PFT_ISA_H
#define PFT_ISA_H

#include <stddef.h>
#include <stdint.h>

#include "pft.h"

enum pft_wp_kind {
	PFT_WP_NONE = 0,  /* not a waypoint: the walk goes on */
	PFT_WP_DIRECT,    /* branch whose target comes from the opcode */
	PFT_WP_INDIRECT,  /* branch whose target comes from the trace */
	PFT_WP_BARRIER    /* ISB (DMB/DSB with PFT_ISA_DMB_DSB_WAYPOINTS):
			   * consumes an atom, no change of flow */
};

enum pft_isa_flags {
	/* ETMCCER[24]: DMB and DSB are waypoints too. */
	PFT_ISA_DMB_DSB_WAYPOINTS = 1u << 0,
	PFT_ISA_FLAGS_ALL = PFT_ISA_DMB_DSB_WAYPOINTS
};

struct pft_insn_class {
	uint32_t opcode;      /* A32 word, or T32 hw1 << 16 | hw2 (hw2 = 0
			       * for a 16-bit instruction) */
	uint8_t size;         /* 2 or 4 */
	uint8_t kind;         /* enum pft_wp_kind */
	uint8_t link;         /* a call: BL, BLX, ThumbEE HBL/HBLP */
	uint8_t conditional;  /* a condition other than always: A32 cond
			       * field 0000-1101, T32 B<c> T1/T3, CBZ/CBNZ
			       * (IT blocks are the caller's business) */
	uint8_t exc_return;   /* RFE, ERET, SUBS PC,LR and other flag-setting
			       * data-processing into PC, LDM ^ with PC */
	uint8_t it_count;     /* IT: instructions in its block (1-4), else 0 */
	uint8_t target_isa;   /* DIRECT: enum pft_isa at the target */
	uint8_t ret;          /* a function return: BX LR, MOV PC, LR, a pop
			       * of the PC from SP (LDM SP!, LDR PC, [SP], #4) */
	uint32_t target;      /* DIRECT: target address (modulo 2^32) */
};

/*
 * Classify the instruction at @addr whose bytes (little-endian, as in
 * memory) start at @code, of which @avail are readable.  @isa is
 * PFT_ISA_ARM, PFT_ISA_THUMB or PFT_ISA_THUMBEE (ThumbEE differs from
 * Thumb only by its handler branches); @flags is a set of
 * enum pft_isa_flags.  @addr only feeds the target computation.
 *
 * Returns the instruction size (2 or 4) and fills @out, or:
 *   -PFT_ERR_NOMAP          @avail is too short for the instruction (T32
 *                           needs 2 bytes to tell the size; @out is
 *                           unchanged)
 *   -PFT_ERR_NOT_SUPPORTED  @isa is PFT_ISA_JAZELLE or PFT_ISA_UNKNOWN
 *   -PFT_ERR_INVALID        @code or @out is NULL, @isa is not an
 *                           enum pft_isa value, or @flags has unknown bits
 */
int pft_isa_classify(enum pft_isa isa, uint32_t addr, const uint8_t *code,
		     size_t avail, unsigned flags, struct pft_insn_class *out);

/* The public class (enum pft_iclass) of a classified instruction. */
enum pft_iclass pft_isa_iclass(const struct pft_insn_class *c);

#endif /* PFT_ISA_H */
