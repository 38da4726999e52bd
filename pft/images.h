/* images.h - program images named on the command line (--elf, --image,
 * --symbols). */
#ifndef PFT_IMAGES_H
#define PFT_IMAGES_H

#include <stddef.h>
#include <stdint.h>

#include "pft.h"

struct image_arg {
	const char *path;
	uint64_t addr;   /* --image: load address; --elf: bias */
	int is_elf;
	int symbols;     /* --symbols: symbols only */
};

struct image_args {
	struct image_arg *v;
	size_t n;
};

/* Add the value of --elf FILE[@BIAS] (@is_elf) or --image FILE@ADDR.
 * Returns 0, or -1 after printing an error. */
int image_args_add(struct image_args *a, const char *arg, int is_elf);
/* Add the value of --symbols FILE (an ELF, System.map or kallsyms).
 * Returns 0, or -1 after printing an error. */
int image_args_add_symbols(struct image_args *a, const char *path);
void image_args_free(struct image_args *a);
/* The enum pft_input_image_kind of @a. */
int image_arg_kind(const struct image_arg *a);

/* Load the images of @a into @img.  Returns 0, or -1 after printing an
 * error. */
int image_args_load(const struct image_args *a, struct pft_image *img);

/* The source lines and functions of the --elf files of @a, moved by
 * their bias, in a new *@lines (left NULL without --elf).  Returns 0, or
 * -1 after printing an error. */
int image_args_lines(const struct image_args *a, struct pft_lines **lines);

#endif
