/* Symbol listings (System.map, /proc/kallsyms) and ELFs beneath other
 * memory: pft_image_add_symbols(), pft_image_add_elf_beneath(). */
#include "ptunit.h"

#include "pft.h"
#include "image/pft_image_int.h"

#include <unistd.h>

static char dir[] = "/tmp/pft_symbols_XXXXXX";

/* @text written to a new file; its path in @path. */
static void write_file(char *path, size_t size, const char *name, const void *text, size_t len)
{
	snprintf(path, size, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (f) {
		fwrite(text, 1, len, f);
		fclose(f);
	}
}

static struct pft_image *image_of(const char *text, int *ret)
{
	char path[256];
	struct pft_image *img = pft_image_alloc(NULL);

	write_file(path, sizeof(path), "map", text, strlen(text));
	*ret = pft_image_add_symbols(img, path, 0, NULL);
	return img;
}

/* Name and offset at @addr, or "-" when none. */
static const char *name_at(const struct pft_image *img, uint32_t addr, uint32_t *off)
{
	const char *name;

	*off = 0xdead;
	return pft_image_symbolize(img, addr, &name, off) ? "-" : name;
}

/* A System.map: text symbols reach the next listed address, of any type;
 * other types are not names; the last text symbol covers 4 bytes. */
static void map_extents(void)
{
	int ret;
	uint32_t off;
	struct pft_image *img = image_of("c0008000 T stext\n"
					 "c0008040 t local_fn\n"
					 "c0008100 D some_data\n"
					 "c0008200 W weak_fn\n", &ret);
	PTU_EQ(ret, 3);
	PTU_STREQ(name_at(img, 0xc0008000, &off), "stext");
	PTU_EQ(off, 0);
	PTU_STREQ(name_at(img, 0xc000803f, &off), "stext");
	PTU_EQ(off, 0x3f);
	PTU_STREQ(name_at(img, 0xc0008040, &off), "local_fn");
	PTU_STREQ(name_at(img, 0xc00080ff, &off), "local_fn");
	PTU_EQ(off, 0xbf);
	PTU_STREQ(name_at(img, 0xc0008100, &off), "-");   /* data: no name */
	PTU_STREQ(name_at(img, 0xc0007fff, &off), "-");
	PTU_STREQ(name_at(img, 0xc0008203, &off), "weak_fn");
	PTU_STREQ(name_at(img, 0xc0008204, &off), "-");   /* last: 4 bytes */
	/* Its bytes are not code. */
	uint8_t b;
	PTU_EQ(pft_image_read(img, 0xc0008000, PFT_SPACE_ANY, &b, 1), -PFT_ERR_NOMAP);
	pft_image_free(img);
}

/* Aliases (one address, one rank) are named by one rule, whatever their
 * order in the listing: the first by strcmp(), as pft_lines_ names them
 * (glibc's __libc_start_main and __libc_start_main_impl). */
static void alias_rule(void)
{
	int ret;
	uint32_t off;
	struct pft_image *a = image_of("00010528 T __libc_start_main_impl\n"
				       "00010528 T __libc_start_main\n", &ret);
	struct pft_image *b = image_of("00010528 T __libc_start_main\n"
				       "00010528 T __libc_start_main_impl\n", &ret);
	struct pft_image *c = image_of("00010528 t __libc_start_main\n"
				       "00010528 T __libc_start_main_impl\n", &ret);

	PTU_STREQ(name_at(a, 0x10528, &off), "__libc_start_main");
	PTU_STREQ(name_at(b, 0x10528, &off), "__libc_start_main");
	PTU_STREQ(name_at(c, 0x10528, &off), "__libc_start_main_impl");  /* global first */
	pft_image_free(a);
	pft_image_free(b);
	pft_image_free(c);
}

/* kallsyms: a module after a tab, CRLF, upper-case hex, a Thumb function's
 * odd address, global before weak before local at one address, mapping
 * symbols and 64-bit addresses left out. */
static void kallsyms_lines(void)
{
	int ret;
	uint32_t off;
	struct pft_image *img = image_of("BF000001 t thumb_fn\t[mymod]\r\n"
					 "bf000001 T thumb_global\t[mymod]\r\n"
					 "bf000010 t $a\n"
					 "bf000020 W weak_one\n"
					 "bf000020 t local_one\n"
					 "ffffffff00001000 T too_wide\n"
					 "bf000040 r ro\n", &ret);
	PTU_EQ(ret, 4);
	PTU_STREQ(name_at(img, 0xbf000000, &off), "thumb_global");
	/* $a does not end thumb_global: it reaches 0xbf000020. */
	PTU_STREQ(name_at(img, 0xbf00001f, &off), "thumb_global");
	PTU_EQ(off, 0x1f);
	PTU_STREQ(name_at(img, 0xbf000020, &off), "weak_one");
	PTU_STREQ(name_at(img, 0xbf00003f, &off), "weak_one");
	PTU_STREQ(name_at(img, 0xbf000040, &off), "-");
	PTU_STREQ(name_at(img, 0x00001000, &off), "-");
	pft_image_free(img);
}

/* Hostile files fail whole and leave the symbols as they were. */
static void hostile_listings(void)
{
	static const char *const bad[] = {
		"c0008000 T\n",                   /* no name */
		"c0008000 T two words\n",         /* a second word, no tab */
		"zz T name\n",                    /* no address */
		"c0008000  T name\n",             /* two spaces */
		"c00080000000000000 T name\n",    /* 18 digits */
		"00000000 T a\n00000000 t b\n",   /* kallsyms without the right */
	};
	int ret;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct pft_image *img = image_of(bad[i], &ret);
		PTU_EQ(ret, -PFT_ERR_BAD_FILE);
		pft_image_free(img);
	}
	/* A line of PFT_SYMBOLS_LINE_MAX bytes is read, one byte more is
	 * not a listing. */
	for (int extra = 0; extra < 2; extra++) {
		size_t len = PFT_SYMBOLS_LINE_MAX + (size_t)extra;
		char *text = malloc(len + 2);
		memcpy(text, "c0008000 T ", 11);
		memset(text + 11, 'x', len - 11);
		text[len] = '\n';
		text[len + 1] = '\0';
		struct pft_image *img = image_of(text, &ret);
		PTU_EQ(ret, extra ? -PFT_ERR_BAD_FILE : 1);
		pft_image_free(img);
		free(text);
	}
	/* Binary data (a NUL byte). */
	char path[256];
	struct pft_image *img = pft_image_alloc(NULL);
	write_file(path, sizeof(path), "bin", "c0008000 T a\0b\n", 15);
	PTU_EQ(pft_image_add_symbols(img, path, 0, NULL), -PFT_ERR_BAD_FILE);
	/* The earlier symbols survive a failed add. */
	write_file(path, sizeof(path), "good", "00001000 T kept\n", 16);
	PTU_EQ(pft_image_add_symbols(img, path, 0, NULL), 1);
	write_file(path, sizeof(path), "bad", "00002000 T more\njunk\n", 21);
	struct pft_diag d;
	PTU_EQ(pft_image_add_symbols(img, path, 0, &d), -PFT_ERR_BAD_FILE);
	/* The line at fault, named. */
	PTU_EQ(d.code, PFT_ERR_BAD_FILE);
	PTU_EQ(d.line, 2);
	PTU_STREQ(d.file, path);
	PTU_CHECK(strstr(d.text, ":2: not \"ADDR TYPE NAME [module]\"") != NULL);
	uint32_t off;
	PTU_STREQ(name_at(img, 0x1000, &off), "kept");
	PTU_STREQ(name_at(img, 0x2000, &off), "-");
	/* Not a regular file; NULL arguments; a bias beyond 32 bits. */
	PTU_EQ(pft_image_add_symbols(img, dir, 0, NULL), -PFT_ERR_BAD_FILE);
	PTU_EQ(pft_image_add_symbols(img, NULL, 0, NULL), -PFT_ERR_INVALID);
	PTU_EQ(pft_image_add_symbols(NULL, path, 0, NULL), -PFT_ERR_INVALID);
	PTU_EQ(pft_image_add_symbols(img, path, (int64_t)1 << 32, NULL), -PFT_ERR_INVALID);
	pft_image_free(img);
}

/* The symbol count bound: @max listed lines are kept, one more fails. */
static void listing_bound(void)
{
	char path[256];
	const char *text = "00001000 T a\n00001010 T b\n00001020 d c\n";

	write_file(path, sizeof(path), "three", text, strlen(text));
	for (size_t max = 2; max <= 3; max++) {
		struct pft_image *img = pft_image_alloc(NULL);
		FILE *f = fopen(path, "rb");
		struct pft_diag d = { .code = 0 };
		int ret = pft_image_add_symbol_listing(img, fileno(f), 0, max, "t.map", &d);
		PTU_EQ(ret, max == 3 ? 2 : -PFT_ERR_BAD_FILE);
		/* The line past the bound, and why. */
		PTU_EQ(d.line, max == 3 ? 0 : 3);
		if (max == 2)
			PTU_STREQ(d.text, "t.map:3: more symbols than a listing may have");
		fclose(f);
		pft_image_free(img);
	}
}

/* The bias moves every symbol; one out of range is left out. */
static void listing_bias(void)
{
	char path[256];
	const char *text = "00001000 T low\nffffff80 T high\n";
	struct pft_image *img = pft_image_alloc(NULL);
	uint32_t off;

	write_file(path, sizeof(path), "bias", text, strlen(text));
	PTU_EQ(pft_image_add_symbols(img, path, 0x100, NULL), 1);
	PTU_STREQ(name_at(img, 0x1100, &off), "low");
	pft_image_free(img);
}

/* An ELF beneath a buffer: the buffer's bytes stay, the ELF fills the
 * rest, and the differing bytes are counted.  The ELF is hand-built: one
 * PT_LOAD of 16 bytes at 0x8000, no sections. */
static void elf_beneath(void)
{
	uint8_t elf[52 + 32 + 16] = { 0x7f, 'E', 'L', 'F', 1, 1, 1 };
	uint8_t *p = elf;
	/* e_type 2, e_machine 40, e_version 1, e_entry, e_phoff 52 */
	p[16] = 2; p[18] = 40; p[20] = 1; p[24] = 0x00; p[25] = 0x80;
	p[28] = 52;
	p[40] = 52;               /* e_ehsize */
	p[42] = 32; p[44] = 1;    /* e_phentsize, e_phnum */
	p[46] = 40;               /* e_shentsize */
	uint8_t *ph = elf + 52;
	ph[0] = 1;                /* PT_LOAD */
	ph[4] = 84;               /* p_offset */
	ph[8] = 0x00; ph[9] = 0x80;   /* p_vaddr 0x8000 */
	ph[12] = 0x00; ph[13] = 0x80; /* p_paddr */
	ph[16] = 16; ph[20] = 16;     /* p_filesz, p_memsz */
	ph[24] = 5;
	for (int i = 0; i < 16; i++)
		elf[84 + i] = (uint8_t)(0xa0 + i);
	char path[256];
	write_file(path, sizeof(path), "elf", elf, sizeof(elf));

	/* Memory at 0x8004 .. 0x8007 (two bytes differ: 0x8005, 0x8007). */
	static const uint8_t dump[4] = { 0xa4, 0x00, 0xa6, 0x11 };
	struct pft_image *img = pft_image_alloc(NULL);
	struct pft_image_overlap ov;
	PTU_EQ(pft_image_add_buffer(img, 0x8004, dump, 4, PFT_SPACE_NONSECURE, 0), 0);
	PTU_EQ(pft_image_add_elf_beneath(img, path, 0, &ov, sizeof(ov)), 2);
	PTU_EQ(ov.covered, 4);
	PTU_EQ(ov.differ, 2);
	PTU_EQ(ov.first_differ, 0x8005);
	uint8_t got[16];
	PTU_EQ(pft_image_read(img, 0x8000, PFT_SPACE_NONSECURE, got, 16), 16);
	static const uint8_t want[16] = { 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0x00, 0xa6, 0x11,
					  0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf };
	PTU_CHECK(!memcmp(got, want, 16));
	/* Covered whole: nothing added; the buffer still differs. */
	PTU_EQ(pft_image_add_elf_beneath(img, path, 0, &ov, sizeof(ov)), 0);
	PTU_EQ(ov.covered, 16);
	PTU_EQ(ov.differ, 2);
	PTU_EQ(pft_image_add_elf_beneath(img, path, 0, NULL, sizeof(ov)), -PFT_ERR_INVALID);
	/* Symbols only: the ELF's bytes are not code. */
	struct pft_image *sym = pft_image_alloc(NULL);
	PTU_EQ(pft_image_add_symbols(sym, path, 0, NULL), 0);   /* no symbol table */
	PTU_EQ(pft_image_read(sym, 0x8000, PFT_SPACE_ANY, got, 1), -PFT_ERR_NOMAP);
	pft_image_free(sym);
	pft_image_free(img);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	PTU_RUN(map_extents);
	PTU_RUN(kallsyms_lines);
	PTU_RUN(alias_rule);
	PTU_RUN(hostile_listings);
	PTU_RUN(listing_bound);
	PTU_RUN(listing_bias);
	PTU_RUN(elf_beneath);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		return 1;
	PTU_MAIN_END();
}
