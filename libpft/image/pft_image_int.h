/* pft_image_int.h - pft_image.c's internals, for the loaders built on it
 * (pft_elf.c).  The dependency is one-way: pft_image.c knows no file
 * format. */
#ifndef PFT_IMAGE_INT_H
#define PFT_IMAGE_INT_H

#include <stdatomic.h>

#include "pft.h"

enum { PFT_SPACE_COUNT = 3 };

/* One past the last 32-bit address. */
#define PFT_ADDR_SPACE_END ((uint64_t)1 << 32)

/* Bytes that one callback call can supply to pft_image_map(). */
enum { PFT_IMAGE_SCRATCH = 256 };

struct pft_image_sec {
	uint32_t start;
	uint64_t size;            /* 1 .. 2^32; start + size <= 2^32 */
	const uint8_t *data;
	enum pft_mem_space space;
	const char *path;         /* owned copy (a blob), or NULL */
	uint64_t file_offset;
	int elf_segment;
};

/* A section in a per-space address index; the start is copied here so that
 * the binary search touches one array. */
struct pft_image_slot {
	uint32_t start;
	uint32_t sec;             /* index into pft_image.secs */
};

struct pft_image_sym {
	uint32_t start;
	uint64_t end;             /* exclusive, <= 2^32 */
	const char *name;         /* in a blob */
	unsigned rank;            /* lower is preferred among equal starts */
	/* The highest end of this symbol and those before it with the same
	 * start: non-decreasing within a start, so that the first symbol
	 * covering an address is found by binary search. */
	uint64_t reach;
};

struct pft_image_isa_region {
	uint32_t start;
	uint64_t end;
	enum pft_isa isa;
};

struct pft_image {
	struct pft_image_sec *secs;       /* in the order they were added */
	size_t nsecs, cap_secs;
	/* Per space: its sections sorted by start (no overlaps). */
	struct pft_image_slot *by_addr[PFT_SPACE_COUNT];
	size_t nby_addr[PFT_SPACE_COUNT];
	size_t cap_by_addr;               /* entries allocated in each */

	void **blobs;                     /* memory the image owns */
	size_t nblobs, cap_blobs;

	struct pft_image_sym *syms;       /* sorted by (start, rank) */
	size_t nsyms;
	struct pft_image_isa_region *isa; /* sorted by start */
	size_t nisa;

	/* Last section found per requested space (NULL: none).  Atomic: the
	 * parallel decode reads one image from several threads; any value is
	 * a valid hint, so relaxed order is enough. */
	_Atomic(const struct pft_image_sec *) cache[PFT_SPACE_COUNT];

	int (*read_cb)(uint8_t *buf, size_t len, uint32_t addr,
		       enum pft_mem_space space, void *ctx);
	void *cb_ctx;
	uint8_t scratch[PFT_IMAGE_SCRATCH];

	int has_conflict;
	size_t conflict_index;
	uint32_t conflict_addr;
};

/* Where an add starts, so that a failed add can be undone. */
struct pft_image_mark {
	size_t nsecs, nblobs;
};

/* Whether @img (may be NULL) has any code: a section or a callback
 * (symbols alone are none). */
static inline int pft_image_has_code(const struct pft_image *img)
{
	return img && (img->nsecs > 0 || img->read_cb);
}

/* Internal (not exported) helpers of pft_image.c. */
/* The start of every add: forget the last conflict; -PFT_ERR_INVALID for
 * NULL @img or @arg (the add's source), else 0. */
int pft_image_begin_add(struct pft_image *img, const void *arg);
struct pft_image_mark pft_image_mark(const struct pft_image *img);
/* Remove what was added since @mark (the conflict record stays). */
void pft_image_rollback(struct pft_image *img, struct pft_image_mark mark);
/* Take ownership of a malloc'd @blob (freed with the image, or now on
 * failure).  Returns 0 or -PFT_ERR_NOMEM. */
int pft_image_adopt(struct pft_image *img, void *blob);
/* An owned copy of @str in *@copy (NULL stays NULL).  Returns 0 or
 * -PFT_ERR_NOMEM. */
int pft_image_adopt_string(struct pft_image *img, const char *str,
			   const char **copy);
/* Read @size bytes (0: to the end) of the regular file @path from @offset
 * into a new malloc'd buffer (*@out, *@out_len).  Returns 0,
 * -PFT_ERR_BAD_FILE or -PFT_ERR_NOMEM. */
int pft_image_load_file(const char *path, uint64_t offset, uint64_t size,
			uint8_t **out, size_t *out_len);
/* The start of an add from file @path: pft_image_begin_add(), then
 * pft_image_load_file(). */
int pft_image_begin_read(struct pft_image *img, const char *path, uint64_t offset,
			 uint64_t size, uint8_t **out, size_t *out_len);
/* Insert a section after checking overlaps; returns its index or
 * -PFT_ERR_BAD_CONFIG / -PFT_ERR_NOMEM.  Where it meets sections holding
 * the same bytes that serve what it would serve (the same image given
 * twice), only the addresses nothing covers are inserted (none: the index
 * returned is that of the section holding its first byte, below nsecs). */
int pft_image_insert(struct pft_image *img, const struct pft_image_sec *sec);
/* Whether a section of any space meets [@start, @end): 1 with the one
 * meeting first in *@index and the lowest shared address in *@addr, else 0.
 * (Not a conflict: pft_image_conflict() is not changed.) */
int pft_image_first_overlap(struct pft_image *img, uint32_t start, uint64_t end,
			    size_t *index, uint32_t *addr);
/* Of two names of one address and rank (aliases such as
 * __libc_start_main and __libc_start_main_impl), which one names it: the
 * first by strcmp(), the one rule of the image's symbols and the views'
 * functions (before it, the order of the symbol table decided the image's
 * choice, and the two disagreed). */
int pft_image_name_cmp(const char *a, const char *b);

/* qsort orders: symbols by (start, rank, pft_image_name_cmp), ISA regions
 * by start. */
int pft_image_cmp_sym(const void *a, const void *b);
int pft_image_cmp_isa(const void *a, const void *b);
/* Merge @n symbols / ISA regions (any order; the symbols' @reach is
 * computed here) into the image's tables.  Returns 0 or -PFT_ERR_NOMEM
 * (tables unchanged). */
int pft_image_merge_symbols(struct pft_image *img,
			    const struct pft_image_sym *syms, size_t n,
			    const struct pft_image_isa_region *isa, size_t nisa);

/* Bounds of symbol listings (pft_symbols.c): bytes in a line, and code
 * symbols pft_image_add_symbols() keeps (a big kernel has ~150 000). */
enum { PFT_SYMBOLS_LINE_MAX = 4096, PFT_SYMBOLS_MAX = 1 << 22 };

/* Add the code symbols of the System.map / kallsyms listing read from @fd
 * to its end, moved by @bias, keeping at most @max_symbols listed lines.
 * Returns the number of code symbols added, -PFT_ERR_BAD_FILE (a line
 * that is not "ADDR TYPE NAME [module]", longer than PFT_SYMBOLS_LINE_MAX,
 * more than @max_symbols lines, every address 0, a read error; *@d,
 * when not NULL, names @path and the line) or -PFT_ERR_NOMEM.  Exposed
 * for tests. */
int pft_image_add_symbol_listing(struct pft_image *img, int fd, int64_t bias,
				 size_t max_symbols, const char *path, struct pft_diag *d);

#endif
