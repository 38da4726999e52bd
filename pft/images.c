/* Program images from the command line. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "images.h"

int image_args_add(struct image_args *a, const char *arg, int is_elf)
{
	const char *opt = is_elf ? "--elf" : "--image";
	const char *at = strrchr(arg, '@');
	struct image_arg ia = { .is_elf = is_elf };

	if (at) {
		if (cli_parse_u64(at + 1, &ia.addr) || ia.addr > UINT32_MAX) {
			cli_error("%s: '%s' is not a 32-bit address", opt, at + 1);
			return -1;
		}
	} else if (!is_elf) {
		cli_error("--image: '%s' needs @ADDR (the address of its first byte)", arg);
		return -1;
	}
	char *path = strndup(arg, at ? (size_t)(at - arg) : strlen(arg));
	struct image_arg *v = realloc(a->v, (a->n + 1) * sizeof(*v));
	if (!path || !v) {
		free(path);
		if (v)
			a->v = v;
		cli_error("out of memory");
		return -1;
	}
	ia.path = path;
	a->v = v;
	a->v[a->n++] = ia;
	return 0;
}

int image_args_add_symbols(struct image_args *a, const char *path)
{
	struct image_arg ia = { .symbols = 1 };
	char *copy = strdup(path);
	struct image_arg *v = realloc(a->v, (a->n + 1) * sizeof(*v));

	if (v)
		a->v = v;
	if (!copy || !v) {
		free(copy);
		cli_error("out of memory");
		return -1;
	}
	ia.path = copy;
	a->v[a->n++] = ia;
	return 0;
}

void image_args_free(struct image_args *a)
{
	for (size_t i = 0; i < a->n; i++)
		free((char *)a->v[i].path);
	free(a->v);
	a->v = NULL;
	a->n = 0;
}

int image_arg_kind(const struct image_arg *a)
{
	return a->symbols ? PFT_INPUT_IMAGE_SYMBOLS
			  : a->is_elf ? PFT_INPUT_IMAGE_ELF : PFT_INPUT_IMAGE_RAW;
}

int image_args_load(const struct image_args *a, struct pft_image *img)
{
	struct pft_diag why;

	for (size_t i = 0; i < a->n; i++)
		if (pft_input_load_image(img, a->v[i].path, image_arg_kind(&a->v[i]),
					 (int64_t)a->v[i].addr, &why) < 0) {
			cli_error("%s", why.text);
			return -1;
		}
	return 0;
}

int image_args_lines(const struct image_args *a, struct pft_lines **lines)
{
	int err;

	for (size_t i = 0; i < a->n; i++) {
		const struct image_arg *arg = &a->v[i];
		if (!arg->is_elf)
			continue;
		if (!*lines && !(*lines = pft_lines_alloc(&err))) {
			cli_error("out of memory");
			return -1;
		}
		err = pft_lines_add_elf(*lines, arg->path, (int64_t)arg->addr);
		if (err < 0) {
			cli_error("%s: %s", arg->path, pft_errstr(pft_errcode(err)));
			return -1;
		}
	}
	return 0;
}
