/* fuzz_elf - the ELF image loader (pft_image_add_elf) and the lookups on
 * what it loaded.
 *
 * Input: an ELF file, written to a private temporary file (the loader's
 * public entry point takes a path).
 *
 * Properties (pft.h, image section): the add returns the number of
 * sections added or a documented error, and on error the image is
 * unchanged (all or nothing); every section lies in the 32-bit address
 * space and is readable and mappable at both ends; symbols and mapping
 * symbols can be looked up anywhere in it; adding the same file again at
 * the same place fails as an overlap and changes nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "pft.h"

static char path[80];

static void remove_file(void)
{
	unlink(path);
}

static size_t count_sections(const struct pft_image *img)
{
	struct pft_image_section_info info;
	size_t n = 0;

	while (pft_image_section(img, n, &info, sizeof(info)) == 0)
		n++;
	return n;
}

static void probe(struct pft_image *img, uint32_t addr)
{
	const char *name = NULL;
	uint32_t off = 0;
	const uint8_t *p;
	uint8_t b[8];

	if (pft_image_symbolize(img, addr, &name, &off) == 0)
		FUZZ_CHECK(name && strlen(name) < 1u << 20 && off <= addr);
	int isa = pft_image_isa(img, addr);
	FUZZ_CHECK(isa == -PFT_ERR_NOMAP || (isa >= 0 && isa <= PFT_ISA_UNKNOWN));
	int n = pft_image_read(img, addr, PFT_SPACE_ANY, b, sizeof(b));
	FUZZ_CHECK(n == -PFT_ERR_NOMAP || (n >= 1 && n <= (int)sizeof(b)));
	n = pft_image_map(img, addr, PFT_SPACE_ANY, &p);
	if (n > 0) {
		volatile uint8_t first = p[0], last = p[n - 1];
		(void)first;
		(void)last;
	}
}

static void check_loaded(struct pft_image *img, int added)
{
	struct pft_image_section_info info;

	FUZZ_CHECK(count_sections(img) == (size_t)added);
	for (int i = 0; i < added; i++) {
		FUZZ_CHECK(pft_image_section(img, (size_t)i, &info, sizeof(info)) == 0);
		FUZZ_CHECK(info.length >= 1 && info.vaddr + info.length - 1 <= 0xffffffffull);
		FUZZ_CHECK(info.space == PFT_SPACE_ANY && info.elf_segment >= 0);
		FUZZ_CHECK(info.path && !strcmp(info.path, path));
		uint32_t last = (uint32_t)(info.vaddr + info.length - 1);
		uint8_t b;
		FUZZ_CHECK(pft_image_read(img, info.vaddr, PFT_SPACE_ANY, &b, 1) == 1);
		FUZZ_CHECK(pft_image_read(img, last, PFT_SPACE_ANY, &b, 1) == 1);
		probe(img, info.vaddr);
		probe(img, info.vaddr + 1);
		probe(img, last);
		probe(img, last + 1);
		probe(img, info.vaddr - 1);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_write_file(path, sizeof(path), "elf", remove_file, data, size);

	struct pft_image *img = pft_image_alloc(NULL);
	FUZZ_CHECK(img);
	int added = pft_image_add_elf(img, path, 0);
	if (added < 0) {
		FUZZ_CHECK(added == -PFT_ERR_BAD_FILE || added == -PFT_ERR_NOT_SUPPORTED ||
			   added == -PFT_ERR_NOMEM);
		FUZZ_CHECK(count_sections(img) == 0);
		probe(img, 0);
		pft_image_free(img);
		return 0;
	}
	FUZZ_CHECK(added >= 1);
	check_loaded(img, added);

	/* The same file again: the same bytes at the same addresses are the
	 * same image (pft/image.h "Overlaps"), and nothing changes. */
	size_t idx;
	uint32_t at;
	FUZZ_CHECK(pft_image_add_elf(img, path, 0) == added);
	FUZZ_CHECK(pft_image_conflict(img, &idx, &at) == -PFT_ERR_NOT_FOUND);
	check_loaded(img, added);

	/* Moved: it fits or it does not, all or nothing. */
	int moved = pft_image_add_elf(img, path, 0x10000000);
	FUZZ_CHECK(moved == -PFT_ERR_BAD_CONFIG || moved == -PFT_ERR_INVALID ||
		   moved == -PFT_ERR_BAD_FILE || moved == added);
	FUZZ_CHECK(count_sections(img) == (size_t)added + (moved > 0 ? (size_t)moved : 0));
	pft_image_free(img);
	return 0;
}
