/* pft_views_fold.h - the folds of the views and the calls tracker
 * (pft_views_fold.c): what the parallel decode's workers do for them. */
#ifndef PFT_VIEWS_FOLD_H
#define PFT_VIEWS_FOLD_H

#include "decode/pft_fold.h"

enum vfold_mode {
	/* The calls tracker's: ranges between which no branch that may move
	 * the stack was taken become one (PFT_ELEM_F_FOLDED). */
	VFOLD_CALLS,
	/* The views': the same, of one function, and the ranges folded are
	 * counted in the workers (RANGE_COUNT elements); chains of leaf
	 * calls come counted (LEAF_CALLS, pft_views_fold.c). */
	VFOLD_VIEWS,
	/* Counting only (pft_views_config.insns_only): every range is
	 * counted in the workers, none comes back. */
	VFOLD_COUNTS,
	/* Without calling contexts (pft_views_config.no_contexts): every
	 * range is counted in the workers, which also run the calls stack
	 * over them and count the entries it finds (ENTRY_COUNT); where the
	 * stack below their start would matter they hand the elements over
	 * and send what they did to the stack before them (CALLS_STATE). */
	VFOLD_ENTRIES
};

struct vfold {
	struct pft_fold fold;     /* its ops, and this as their context */
	uint8_t mode;             /* enum vfold_mode */
	uint8_t image_index;      /* of @image in the views (range keys) */
	const struct pft_image *image;
	const struct pft_lines *lines;   /* VFOLD_VIEWS: NULL or the views' */
	uint32_t max_depth;       /* VFOLD_ENTRIES: the calls stack's */
};

/* Its consumer (pft_views, pft_calls) holds it and frees it with free(),
 * as it holds no pointer of its own. */

#endif
