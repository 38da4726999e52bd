/* Source lines through libdw, against binutils' addr2line (an independent
 * DWARF reader) on tests/views/progs/views.c built with -g for ARM. */
#include "ptunit.h"

#include "pft.h"

#include <unistd.h>

static char dir[] = "/tmp/pft-test-lines-XXXXXX";
static char prog[256], stripped[256], src[1200];
static int built;

static int run(const char *cmd)
{
	int rc = system(cmd);

	if (rc)
		fprintf(stderr, "command failed (%d): %s\n", rc, cmd);
	return rc;
}

static const char *base(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;

	return s ? s + 1 : path;
}

/* The line of views.c that contains @text (1-based), by reading it. */
static uint32_t source_line(const char *text)
{
	FILE *f = fopen(src, "r");
	char buf[512];
	uint32_t n = 0;

	while (f && fgets(buf, sizeof(buf), f)) {
		n++;
		if (strstr(buf, text)) {
			fclose(f);
			return n;
		}
	}
	if (f)
		fclose(f);
	return 0;
}

/* Every instruction of main: file, line and (innermost) function as
 * addr2line -f -i tells them. */
static void lookup_matches_addr2line(void)
{
	struct pft_lines *l = pft_lines_alloc(NULL);
	struct pft_line_func main_fn = { 0 };
	struct pft_line_info info;
	char cmd[8192], out[1300];
	int inlined = 0, checked = 0;

	PTU_EQ(pft_lines_add_elf(l, prog, 0), 1);
	for (size_t i = 0; pft_lines_function(l, i, &main_fn, sizeof(main_fn)) == 0; i++)
		if (!strcmp(main_fn.name, "main"))
			break;
	PTU_STREQ(main_fn.name, "main");
	PTU_STREQ(base(main_fn.file), "views.c");
	PTU_EQ(main_fn.line, source_line("int main(int argc"));

	snprintf(out, sizeof(out), "%s/a2l.txt", dir);
	/* With -a each answer starts with the address; with -i, inlined code
	 * has several function/location pairs, the innermost first. */
	int n = snprintf(cmd, sizeof(cmd), "arm-linux-gnueabihf-addr2line -a -f -i -e %s", prog);
	for (uint32_t a = main_fn.start; a < main_fn.end && n < (int)sizeof(cmd) - 64; a += 4)
		n += snprintf(cmd + n, sizeof(cmd) - (size_t)n, " 0x%x", a);
	snprintf(cmd + n, sizeof(cmd) - (size_t)n, " > %s", out);
	PTU_EQ(run(cmd), 0);
	FILE *f = fopen(out, "r");
	char text[512], fn[512] = "", loc[512] = "";
	uint32_t addr = 0;
	int fresh = 0;
	PTU_CHECK(f != NULL);
	while (f && fgets(text, sizeof(text), f)) {
		text[strcspn(text, "\n")] = 0;
		if (!strncmp(text, "0x", 2)) {
			addr = (uint32_t)strtoul(text, NULL, 16);
			fresh = 1;
			continue;
		}
		if (!fresh)
			continue;   /* an outer function of an inlined chain */
		if (fresh == 1) {
			snprintf(fn, sizeof(fn), "%s", text);
			fresh = 2;
			continue;
		}
		snprintf(loc, sizeof(loc), "%s", text);
		fresh = 0;
		char *colon = strrchr(loc, ':');
		PTU_CHECK(colon != NULL);
		if (!colon)
			break;
		*colon = 0;
		uint32_t line = (uint32_t)strtoul(colon + 1, NULL, 10);

		PTU_EQ(pft_lines_lookup(l, addr, &info, sizeof(info)), 0);
		PTU_STREQ(info.function, fn);
		PTU_STREQ(base(info.file), base(loc));
		if (line)   /* addr2line says "?" or 0 for no line */
			PTU_EQ(info.line, line);
		PTU_CHECK(info.has_func && info.func.start == main_fn.start);
		inlined += !strcmp(fn, "square");
		checked++;
	}
	if (f)
		fclose(f);
	PTU_CHECK(checked > 20);
	PTU_CHECK(inlined > 0);   /* the inlined function was seen */
	pft_lines_free(l);
}

static void functions_and_rows(void)
{
	struct pft_lines *l = pft_lines_alloc(NULL);
	struct pft_line_func f;
	struct pft_line_row row, prev = { 0 };
	size_t nrows = 0, i;
	int found = 0;

	PTU_EQ(pft_lines_add_elf(l, prog, 0x1000), 1);
	for (i = 0; pft_lines_function(l, i, &f, sizeof(f)) == 0; i++) {
		if (!strcmp(f.name, "never_called")) {
			found = 1;
			PTU_EQ(f.line, source_line("never_called(int x)"));
			PTU_STREQ(base(f.file), "views.c");
			struct pft_line_func g;
			PTU_EQ(pft_lines_function_at(l, f.start + 2, &g, sizeof(g)), 0);
			PTU_EQ(g.start, f.start);
		}
		/* C library functions come from symbols: no file. */
		if (!strcmp(f.name, "qsort"))
			PTU_CHECK(f.file == NULL && f.end > f.start);
	}
	PTU_CHECK(found);
	PTU_EQ(i, pft_lines_count(l, 1));
	PTU_EQ(pft_lines_function(l, i, &f, sizeof(f)), -PFT_ERR_EOS);
	for (i = 0; pft_lines_row(l, i, &row, sizeof(row)) == 0; i++) {
		PTU_CHECK(row.start < row.end && row.start >= prev.end && row.line > 0);
		prev = row;
		nrows++;
	}
	PTU_CHECK(nrows > 20);
	PTU_EQ(nrows, pft_lines_count(l, 0));
	struct pft_lines_file lf;
	struct pft_views_config vc = { .size = sizeof(vc), .lines = l };
	PTU_EQ(pft_lines_file(l, 0, &lf, sizeof(lf)), 0);
	PTU_CHECK(lf.rows > 20 && lf.has_dwarf);
	PTU_EQ(pft_views_check_format(&vc, PFT_VIEW_LCOV, NULL), 0);
	pft_lines_free(l);
}

static void symbols_only_and_errors(void)
{
	struct pft_lines *l = pft_lines_alloc(NULL);
	struct pft_line_info info;
	struct pft_line_func f;
	struct pft_line_row row;
	char path[1300];

	PTU_EQ(pft_lines_add_elf(l, stripped, 0), 0);   /* no DWARF */
	PTU_EQ(pft_lines_count(l, 0), 0);
	PTU_CHECK(pft_lines_count(l, 1) > 100);
	/* The file is named, with no line table: lcov cannot be written. */
	struct pft_lines_file lf;
	struct pft_views_config vc = { .size = sizeof(vc), .lines = l };
	struct pft_diag why;
	PTU_EQ(pft_lines_file(l, 0, &lf, sizeof(lf)), 0);
	PTU_STREQ(lf.path, stripped);
	PTU_CHECK(lf.rows == 0);
	PTU_EQ(pft_lines_file(l, 1, &lf, sizeof(lf)), -PFT_ERR_EOS);
	PTU_EQ(pft_lines_file(NULL, 0, &lf, sizeof(lf)), -PFT_ERR_INVALID);
	PTU_EQ(pft_lines_file(l, 0, NULL, sizeof(lf)), -PFT_ERR_INVALID);
	PTU_EQ(pft_lines_file(l, 0, &lf, 4), -PFT_ERR_INVALID);
	PTU_EQ(pft_views_check_format(&vc, PFT_VIEW_COVERAGE_TEXT, &why), 0);
	PTU_EQ(pft_views_check_format(&vc, PFT_VIEW_LCOV, &why), -PFT_ERR_NOT_FOUND);
	PTU_STREQ(why.file, stripped);
	PTU_CHECK(strstr(why.text, "no DWARF line table (build with -g)") != NULL);
	PTU_EQ(pft_views_check_format(NULL, PFT_VIEW_LCOV, &why), -PFT_ERR_INVALID);
	PTU_EQ(pft_views_check_format(&vc, PFT_VIEW_FORMAT_MAX, NULL), -PFT_ERR_INVALID);
	PTU_EQ(pft_lines_function(l, 0, &f, sizeof(f)), 0);
	PTU_EQ(pft_lines_lookup(l, f.start, &info, sizeof(info)), 0);
	PTU_CHECK(info.file == NULL && info.has_func && info.function == info.func.name);
	PTU_EQ(pft_lines_lookup(l, 4, &info, sizeof(info)), -PFT_ERR_NOMAP);
	PTU_EQ(pft_lines_function_at(l, 4, &f, sizeof(f)), -PFT_ERR_NOMAP);

	PTU_EQ(pft_lines_add_elf(NULL, prog, 0), -PFT_ERR_INVALID);
	PTU_EQ(pft_lines_add_elf(l, NULL, 0), -PFT_ERR_INVALID);
	snprintf(path, sizeof(path), "%s/missing", dir);
	PTU_EQ(pft_lines_add_elf(l, path, 0), -PFT_ERR_BAD_FILE);
	PTU_EQ(pft_lines_add_elf(l, src, 0), -PFT_ERR_BAD_FILE);  /* not ELF */
	PTU_EQ(pft_lines_add_elf(l, "/proc/self/exe", 0), -PFT_ERR_NOT_SUPPORTED);
	PTU_EQ(pft_lines_lookup(NULL, 0, &info, sizeof(info)), -PFT_ERR_INVALID);
	PTU_EQ(pft_lines_lookup(l, 0, NULL, sizeof(info)), -PFT_ERR_INVALID);
	PTU_EQ(pft_lines_lookup(l, 0, &info, 4), -PFT_ERR_INVALID);
	PTU_EQ(pft_lines_row(l, 0, &row, sizeof(row)), -PFT_ERR_EOS);
	PTU_EQ(pft_lines_row(NULL, 0, &row, sizeof(row)), -PFT_ERR_INVALID);
	PTU_EQ(pft_lines_function(l, 0, NULL, sizeof(f)), -PFT_ERR_INVALID);
	PTU_EQ(pft_lines_function_at(NULL, 0, &f, sizeof(f)), -PFT_ERR_INVALID);
	PTU_EQ(pft_lines_count(NULL, 1), 0);
	pft_lines_free(l);
	pft_lines_free(NULL);
}

int main(void)
{
	const char *source = getenv("PFT_SOURCE");
	char cmd[8192];

	if (!mkdtemp(dir))
		return 1;
	snprintf(src, sizeof(src), "%s/tests/views/progs/views.c", source ? source : ".");
	snprintf(prog, sizeof(prog), "%s/views", dir);
	snprintf(stripped, sizeof(stripped), "%s/views.nodebug", dir);
	snprintf(cmd, sizeof(cmd),
		 "arm-linux-gnueabihf-gcc -static -O2 -g -marm -o %s %s && "
		 "arm-linux-gnueabihf-strip --strip-debug -o %s %s", prog, src, stripped, prog);
	built = run(cmd) == 0;
	PTU_CHECK(built);
	if (built) {
		PTU_RUN(lookup_matches_addr2line);
		PTU_RUN(functions_and_rows);
		PTU_RUN(symbols_only_and_errors);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	run(cmd);
	PTU_MAIN_END();
}
