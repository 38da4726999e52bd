/* pft_elf.h - the ELF loader (pft_elf.c), on top of the image. */
#ifndef PFT_ELF_H
#define PFT_ELF_H

#include "pft_image_int.h"

/*
 * Load an ELF held in @buf (@len bytes, owned by the caller, may be
 * modified by libelf; the image copies what it keeps) as
 * pft_image_add_elf() does.  @path is recorded in the sections (may be
 * NULL).  Exposed for fuzzing and tests.
 */
int pft_elf_load(struct pft_image *img, uint8_t *buf, size_t len,
		 int64_t bias, const char *path);

#endif
