/* pft_elf.h - the ELF loader (pft_elf.c), on top of the image. */
#ifndef PFT_ELF_H
#define PFT_ELF_H

#include "image/pft_image_int.h"

/*
 * Load an ELF held in @buf (@len bytes, owned by the caller, may be
 * modified by libelf; the image copies what it keeps) as
 * pft_image_add_elf() does.  @path is recorded in the sections (may be
 * NULL).  Exposed for fuzzing and tests.
 */
int pft_elf_load(struct pft_image *img, uint8_t *buf, size_t len,
		 int64_t bias, const char *path);

enum pft_elf_mode {
	PFT_ELF_ALL,        /* segments and symbols (pft_image_add_elf()) */
	PFT_ELF_BENEATH,    /* segments where nothing is yet, and symbols
			     * (pft_image_add_elf_beneath()); counts in @ov */
	PFT_ELF_SYMBOLS     /* symbols only (pft_image_add_symbols()) */
};

/* pft_elf_load() in @mode; @ov only for PFT_ELF_BENEATH.  Returns the
 * number of sections added. */
int pft_elf_load_as(struct pft_image *img, uint8_t *buf, size_t len, int64_t bias,
		    const char *path, enum pft_elf_mode mode, struct pft_image_overlap *ov);

/* Is @buf (@len bytes) an ELF file (by its magic)? */
int pft_elf_is_elf(const uint8_t *buf, size_t len);

enum { PFT_ELF_BUILD_ID_MAX = 20 };  /* what perf.data holds */

/* The GNU build ID of the ELF file @path into @id: its size, or 0 when
 * the file cannot be read, is no ELF, or has no such note (or one over
 * PFT_ELF_BUILD_ID_MAX bytes). */
size_t pft_elf_build_id(const char *path, uint8_t id[PFT_ELF_BUILD_ID_MAX]);

#endif
