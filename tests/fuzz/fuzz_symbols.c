/* fuzz_symbols - symbol listings and ELFs as symbols only
 * (pft_image_add_symbols) and the look-ups on what they gave.
 *
 * Input: a System.map / kallsyms listing or an ELF, written to a private
 * temporary file (the entry point takes a path).
 *
 * Properties (pft.h, image section): the add returns a count or a
 * documented error; on error the symbols are unchanged (none here); it
 * never adds code (nothing is readable); every name found is a
 * NUL-terminated string without blanks or control bytes, its offset within
 * the symbol's reach; adding the file again gives the same count.
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

static void probe(const struct pft_image *img, uint32_t addr)
{
	struct pft_image_symbol sym;
	const char *name = NULL;
	uint32_t off = 0;

	if (pft_image_symbolize(img, addr, &name, &off) != 0)
		return;
	FUZZ_CHECK(name && *name && strlen(name) < 4096 && off <= addr);
	FUZZ_CHECK(pft_image_symbol_at(img, addr, &sym, sizeof(sym)) == 0);
	FUZZ_CHECK(sym.start == addr - off && sym.end > addr && sym.end <= 1ull << 32);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_write_file(path, sizeof(path), "symbols", remove_file, data, size);

	struct pft_image *img = pft_image_alloc(NULL);
	FUZZ_CHECK(img);
	struct pft_diag why = { .code = 0 };
	int n = pft_image_add_symbols(img, path, 0, &why);
	FUZZ_CHECK(n >= 0 || n == -PFT_ERR_BAD_FILE || n == -PFT_ERR_NOT_SUPPORTED ||
		   n == -PFT_ERR_NOMEM);
	/* A listing refused names its line, on one line. */
	FUZZ_CHECK(!why.code || (n < 0 && why.code == (uint32_t)-n && !strchr(why.text, '\n')));
	uint8_t b;
	FUZZ_CHECK(pft_image_read(img, 0, PFT_SPACE_ANY, &b, 1) == -PFT_ERR_NOMAP);
	/* Probe the addresses the input names (the first hex words of its
	 * lines) and their neighbours. */
	for (size_t i = 0; i < size && i < 4096; i++) {
		if (i && data[i - 1] != '\n')
			continue;
		char word[9] = { 0 };
		for (size_t k = 0; k < 8 && i + k < size; k++)
			word[k] = (char)data[i + k];
		unsigned long v = strtoul(word, NULL, 16);
		probe(img, (uint32_t)v);
		probe(img, (uint32_t)v - 1);
		probe(img, (uint32_t)v + 3);
	}
	if (n >= 0)
		FUZZ_CHECK(pft_image_add_symbols(img, path, 0, NULL) == n);
	probe(img, 0);
	pft_image_free(img);
	return 0;
}
