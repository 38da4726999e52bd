/* Program images from the command line and from snapshots. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

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

void image_args_free(struct image_args *a)
{
	for (size_t i = 0; i < a->n; i++)
		free((char *)a->v[i].path);
	free(a->v);
	a->v = NULL;
	a->n = 0;
}

enum pft_mem_space dump_space(const char *s)
{
	if (!strcasecmp(s, "S") || !strcasecmp(s, "EL1S") || !strcasecmp(s, "EL2S") ||
	    !strcasecmp(s, "EL3"))
		return PFT_SPACE_SECURE;
	if (!strcasecmp(s, "N") || !strcasecmp(s, "EL1N") || !strcasecmp(s, "EL2") ||
	    !strcasecmp(s, "EL2N"))
		return PFT_SPACE_NONSECURE;
	return PFT_SPACE_ANY;
}

/* Name the section an add ran into, for an overlap error. */
static void report_overlap(struct pft_image *img, const char *what)
{
	size_t idx;
	uint32_t addr;
	struct pft_image_section_info info;

	if (!pft_image_conflict(img, &idx, &addr) &&
	    !pft_image_section(img, idx, &info, sizeof(info)))
		cli_error("%s overlaps %s (at 0x%08x)", what,
			  info.path ? info.path : "a memory buffer", addr);
	else
		cli_error("%s overlaps another image", what);
}

/* Why @path cannot be loaded, when the file system says so (else NULL). */
static const char *file_problem(const char *path)
{
	struct stat st;
	FILE *fp;

	if (stat(path, &st))
		return strerror(errno);
	if (S_ISDIR(st.st_mode))
		return "is a directory";
	if (!S_ISREG(st.st_mode))
		return "not a regular file";
	if (st.st_size == 0)
		return "empty file";
	fp = fopen(path, "rb");
	if (!fp)
		return strerror(errno);
	fclose(fp);
	return NULL;
}

static int image_error(struct pft_image *img, int err, const char *what)
{
	if (err == -PFT_ERR_BAD_CONFIG)
		report_overlap(img, what);
	else
		cli_error("%s: %s", what, pft_errstr(pft_errcode(err)));
	return -1;
}

/* Does the image already hold exactly @dump's bytes?  (A snapshot written
 * by pft encode dumps the ELF segments that --elf adds again.) */
static int dump_already_there(struct pft_image *img, const struct snap_dump *dump)
{
	FILE *f = fopen(dump->path, "rb");
	uint8_t a[4096], b[4096];
	uint64_t left = dump->has_length ? dump->length : UINT64_MAX;
	uint32_t addr = (uint32_t)dump->address;
	int same = f && fseek(f, (long)dump->offset, SEEK_SET) == 0;

	while (same && left) {
		size_t want = left < sizeof(a) ? (size_t)left : sizeof(a);
		size_t n = fread(a, 1, want, f);
		if (!n)
			break;
		int got = pft_image_read(img, addr, dump_space(dump->space), b, n);
		same = got == (int)n && !memcmp(a, b, n);
		addr += (uint32_t)n;
		left -= n;
	}
	if (f)
		fclose(f);
	return same;
}

/* Files are checked before the library opens them: it would say less, and
 * opening a FIFO would block. */
static int add_dumps(struct pft_image *img, const struct snap_device *core,
		     size_t first_dump_section)
{
	char what[4200];
	const char *problem;

	for (size_t i = 0; core && i < core->ndumps; i++) {
		const struct snap_dump *dump = &core->dumps[i];
		snprintf(what, sizeof(what), "%s (dump of %s at 0x%08" PRIx64 ")",
			 dump->path, core->name, dump->address);
		if ((problem = file_problem(dump->path)) != NULL) {
			cli_error("%s: %s", what, problem);
			return -1;
		}
		int err = pft_image_add_file(img, dump->path, dump->offset,
					     dump->has_length ? dump->length : 0,
					     (uint32_t)dump->address, dump_space(dump->space));
		if (err == -PFT_ERR_BAD_CONFIG && dump_already_there(img, dump))
			continue;
		size_t idx;
		uint32_t addr;
		struct pft_image_section_info info;
		if (err == -PFT_ERR_BAD_CONFIG && !pft_image_conflict(img, &idx, &addr) &&
		    idx < first_dump_section &&
		    !pft_image_section(img, idx, &info, sizeof(info)) && info.path) {
			/* A file from the command line is in the way: it is the
			 * one that overlaps the snapshot's memory. */
			cli_error("%s overlaps %s (at 0x%08x)", info.path, dump->path, addr);
			return -1;
		}
		if (err < 0)
			return image_error(img, err, what);
	}
	return 0;
}

static int add_args(struct pft_image *img, const struct image_args *a)
{
	const char *problem;

	for (size_t i = 0; i < a->n; i++) {
		const struct image_arg *ia = &a->v[i];
		if ((problem = file_problem(ia->path)) != NULL) {
			cli_error("%s: %s", ia->path, problem);
			return -1;
		}
		int err = ia->is_elf ? pft_image_add_elf(img, ia->path, (int64_t)ia->addr)
				     : pft_image_add_file(img, ia->path, 0, 0, (uint32_t)ia->addr,
							  PFT_SPACE_ANY);
		if (err == -PFT_ERR_NOT_SUPPORTED)
			cli_error("%s: not a 32-bit little-endian ARM ELF executable", ia->path);
		else if (err == -PFT_ERR_BAD_FILE)
			cli_error("%s: %s", ia->path, ia->is_elf ? "not an ELF file, or a malformed one"
								 : "cannot read it");
		else if (err == -PFT_ERR_INVALID)
			cli_error("%s: %s 0x%" PRIx64 " puts it past 0xffffffff", ia->path,
				  ia->is_elf ? "bias" : "address", ia->addr);
		else if (err < 0)
			return image_error(img, err, ia->path);
		if (err < 0)
			return -1;
	}
	return 0;
}

int image_build(struct pft_image *img, const struct snap_device *core,
		const struct image_args *a)
{
	struct pft_image_section_info info;
	size_t n = 0;

	/* The files named on the command line first: a snapshot dump with
	 * the same bytes (the ELF the snapshot was made from) is then left
	 * out instead of overlapping. */
	if (add_args(img, a))
		return -1;
	while (pft_image_section(img, n, &info, sizeof(info)) == 0)
		n++;
	return add_dumps(img, core, n);
}
