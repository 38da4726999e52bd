/* images.h - program images named on the command line (--elf, --image)
 * and snapshot memory dumps, loaded into a struct pft_image. */
#ifndef PFT_IMAGES_H
#define PFT_IMAGES_H

#include <stddef.h>
#include <stdint.h>

#include "pft.h"
#include "snapshot.h"

struct image_arg {
	const char *path;
	uint64_t addr;   /* --image: load address; --elf: bias */
	int is_elf;
};

struct image_args {
	struct image_arg *v;
	size_t n;
};

/* Add the value of --elf FILE[@BIAS] (@is_elf) or --image FILE@ADDR.
 * Returns 0, or -1 after printing an error. */
int image_args_add(struct image_args *a, const char *arg, int is_elf);
void image_args_free(struct image_args *a);

/* The memory space of a snapshot [dump] space name (pft.h, image). */
enum pft_mem_space dump_space(const char *name);

/* Add the images of @a, then @core's memory dumps (if @core is not NULL),
 * to @img.  A dump that overlaps them is left out when they hold exactly
 * its bytes (such as the ELF a snapshot's dumps were taken from), and is
 * an error otherwise.  Returns 0, or -1 after printing an error. */
int image_build(struct pft_image *img, const struct snap_device *core,
		const struct image_args *a);

#endif
