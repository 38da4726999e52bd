/*
 * Source lines and functions of ELF files, read through elfutils' libdw.
 *
 * At load time the line table rows of every compilation unit are copied
 * into one array sorted by address (rows that cover no address dropped)
 * and the functions (DWARF subprograms, then ELF function symbols that no
 * subprogram starts at) into another.  The ELF and DWARF handles stay
 * open: file and function names point into them, and the innermost
 * inlined subroutine at an address is found on demand (dwarf_getscopes),
 * as a debugger does.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/pft_grow.h"
#include "common/pft_size.h"
#include "image/pft_image_int.h"
#include "views/pft_views.h"

/* A compilation unit's addresses (unbiased), for the units' own lookup:
 * dwarf_addrdie() needs .debug_aranges, which clang does not write. */
struct cu_span {
	Dwarf_Addr start, end;
	Dwarf_Off die;            /* the unit's DIE */
};

struct lines_module {
	int fd;
	Elf *elf;
	Dwarf *dwarf;             /* NULL: the file has no DWARF */
	int64_t bias;
	char *path;               /* as given */
	size_t rows;              /* rows its line table gave */
	struct cu_span *cus;      /* sorted by start */
	size_t ncus, cap_cus;
};

struct lines_row {
	uint32_t addr, end;       /* biased, end exclusive (0: 2^32) */
	uint32_t line;
	uint32_t discriminator;
	uint8_t prologue_end;     /* the row's prologue_end flag */
	const char *file;
	size_t module;
	size_t order;             /* position in its table: later rows win */
};

struct lines_func {
	uint32_t start, end;
	const char *name, *file;
	uint32_t line;
	unsigned rank;            /* among equal starts, lower is preferred */
};

struct pft_lines {
	struct lines_module *mods;
	size_t nmods;
	struct lines_row *rows;   /* sorted by addr, not overlapping */
	size_t nrows, cap_rows;
	struct lines_func *funcs; /* sorted by start, unique starts */
	size_t nfuncs, cap_funcs;
};

struct pft_lines *pft_lines_alloc(int *errcode)
{
	struct pft_lines *l = calloc(1, sizeof(*l));

	if (errcode)
		*errcode = l ? 0 : -PFT_ERR_NOMEM;
	return l;
}

static void close_module(struct lines_module *m)
{
	free(m->path);
	free(m->cus);
	if (m->dwarf)
		dwarf_end(m->dwarf);
	if (m->elf)
		elf_end(m->elf);
	if (m->fd >= 0)
		close(m->fd);
}

void pft_lines_free(struct pft_lines *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->nmods; i++)
		close_module(&l->mods[i]);
	free(l->mods);
	free(l->rows);
	free(l->funcs);
	free(l);
}

/* A DWARF or ELF address moved by the bias, if it stays in 32 bits. */
static int biased(uint64_t addr, int64_t bias, uint32_t *out)
{
	int64_t v = (int64_t)addr + bias;

	if (addr > UINT32_MAX || v < 0 || v > (int64_t)UINT32_MAX)
		return 0;
	*out = (uint32_t)v;
	return 1;
}

static int add_row(struct pft_lines *l, size_t module, uint32_t addr,
		   uint32_t end, uint32_t line, uint32_t discriminator, int prologue_end,
		   const char *file)
{
	if (pft_grow((void **)&l->rows, &l->cap_rows, l->nrows + 1, sizeof(*l->rows)))
		return -PFT_ERR_NOMEM;
	l->rows[l->nrows] = (struct lines_row){ addr, end, line, discriminator,
						(uint8_t)prologue_end, file, module,
						l->nrows };
	l->nrows++;
	return 0;
}

/* The rows of one compilation unit's line table.  A row covers the
 * addresses up to the next row of its sequence. */
static int load_cu_lines(struct pft_lines *l, size_t module, Dwarf_Die *cu)
{
	Dwarf_Lines *lines;
	size_t n;

	if (dwarf_getsrclines(cu, &lines, &n) != 0)
		return 0;  /* a unit without a line table */
	for (size_t i = 0; i + 1 < n; i++) {
		Dwarf_Line *row = dwarf_onesrcline(lines, i);
		Dwarf_Line *next = dwarf_onesrcline(lines, i + 1);
		Dwarf_Addr a, b;
		bool end_seq;
		int lineno;
		uint32_t start, stop;
		const char *file;

		if (!row || !next || dwarf_lineendsequence(row, &end_seq) || end_seq ||
		    dwarf_lineaddr(row, &a) || dwarf_lineaddr(next, &b) ||
		    dwarf_lineno(row, &lineno) || b <= a || lineno <= 0)
			continue;
		file = dwarf_linesrc(row, NULL, NULL);
		if (!file || !biased(a, l->mods[module].bias, &start) ||
		    !biased(b - 1, l->mods[module].bias, &stop))
			continue;
		unsigned disc = 0;
		bool pe = false;
		if (dwarf_linediscriminator(row, &disc))
			disc = 0;
		if (dwarf_lineprologueend(row, &pe))
			pe = false;
		if (add_row(l, module, start, stop + 1, (uint32_t)lineno, disc, pe, file))
			return -PFT_ERR_NOMEM;
	}
	return 0;
}

static int add_func(struct pft_lines *l, uint32_t start, uint32_t end,
		    const char *name, const char *file, uint32_t line,
		    unsigned rank)
{
	if (pft_grow((void **)&l->funcs, &l->cap_funcs, l->nfuncs + 1, sizeof(*l->funcs)))
		return -PFT_ERR_NOMEM;
	l->funcs[l->nfuncs++] = (struct lines_func){ start, end, name, file, line, rank };
	return 0;
}

/* The declaration file of @die: DW_AT_decl_file in its unit's file table.
 * (Not dwarf_decl_file(): elfutils 0.188 refuses DWARF 5's file 0, the
 * primary source file, which clang names its functions' files with.) */
static const char *decl_file(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	Dwarf_Word idx;
	Dwarf_Die cu;
	Dwarf_Files *files;
	size_t n;

	if (!dwarf_attr_integrate(die, DW_AT_decl_file, &attr) || dwarf_formudata(&attr, &idx) ||
	    !dwarf_diecu(die, &cu, NULL, NULL) || dwarf_getsrcfiles(&cu, &files, &n) || idx >= n)
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

/* The out-of-line subprograms of a unit (at any nesting depth: C++ puts
 * them in namespaces and classes). */
static int load_subprograms(struct pft_lines *l, int64_t bias, Dwarf_Die *die)
{
	Dwarf_Die child;

	if (dwarf_child(die, &child) != 0)
		return 0;
	do {
		int tag = dwarf_tag(&child);
		Dwarf_Addr lo, hi;
		uint32_t start, last;

		if (tag == DW_TAG_subprogram && dwarf_lowpc(&child, &lo) == 0 &&
		    dwarf_highpc(&child, &hi) == 0 && hi > lo &&
		    biased(lo, bias, &start) && biased(hi - 1, bias, &last)) {
			const char *name = dwarf_diename(&child);
			const char *file = decl_file(&child);
			int line = 0;

			dwarf_decl_line(&child, &line);
			if (name && add_func(l, start, last + 1, name, file,
					     line > 0 ? (uint32_t)line : 0, 0))
				return -PFT_ERR_NOMEM;
		}
		if (tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
		    tag == DW_TAG_structure_type) {
			int err = load_subprograms(l, bias, &child);
			if (err)
				return err;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

/* Unit @cu's address ranges into @m's table. */
static int load_cu_spans(struct lines_module *m, Dwarf_Die *cu)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;

	while ((off = dwarf_ranges(cu, off, &base, &start, &end)) > 0) {
		if (end <= start)
			continue;
		if (pft_grow((void **)&m->cus, &m->cap_cus, m->ncus + 1, sizeof(*m->cus)))
			return -PFT_ERR_NOMEM;
		m->cus[m->ncus++] = (struct cu_span){ start, end, dwarf_dieoffset(cu) };
	}
	return 0;
}

static int cmp_cu_span(const void *a, const void *b)
{
	const struct cu_span *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

/* The unit around unbiased @addr of @m in *@cu: 1, else 0. */
static int unit_at(const struct lines_module *m, Dwarf_Addr addr, Dwarf_Die *cu)
{
	size_t lo = 0, hi = m->ncus;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->cus[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Units' ranges may overlap (a unit's whole span around another's):
	 * the nearest few below. */
	for (size_t i = lo; i-- > 0 && lo - i <= 8;)
		if (addr < m->cus[i].end)
			return dwarf_offdie(m->dwarf, m->cus[i].die, cu) != NULL;
	return dwarf_addrdie(m->dwarf, addr, cu) != NULL;
}

static int load_dwarf(struct pft_lines *l, size_t module)
{
	Dwarf *dw = l->mods[module].dwarf;
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(dw, off + hsize, &cu)) {
			int err = load_cu_spans(&l->mods[module], &cu);
			if (!err)
				err = load_cu_lines(l, module, &cu);
			if (!err)
				err = load_subprograms(l, l->mods[module].bias, &cu);
			if (err)
				return err;
		}
		off = next;
	}
	struct lines_module *m = &l->mods[module];
	if (m->ncus)
		qsort(m->cus, m->ncus, sizeof(*m->cus), cmp_cu_span);
	return 0;
}

/* ELF function symbols, for code without DWARF (the C library).  Ranked
 * after every subprogram; among themselves global, weak, then local. */
static int load_symbols(struct pft_lines *l, size_t module)
{
	Elf *elf = l->mods[module].elf;
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data)
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			uint32_t start, last;
			const char *name;

			if (!gelf_getsym(data, (int)i, &sym) ||
			    GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    sym.st_shndx == SHN_UNDEF || sym.st_size == 0)
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (!name || !*name ||
			    !biased(sym.st_value & ~1ull, l->mods[module].bias, &start) ||
			    !biased((sym.st_value & ~1ull) + sym.st_size - 1,
				    l->mods[module].bias, &last))
				continue;
			unsigned bind = GELF_ST_BIND(sym.st_info);
			unsigned rank = 1 + (bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2);
			if (add_func(l, start, last + 1, name, NULL, 0, rank))
				return -PFT_ERR_NOMEM;
		}
	}
	return 0;
}

static int cmp_row(const void *a, const void *b)
{
	const struct lines_row *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

static int cmp_func(const void *a, const void *b)
{
	const struct lines_func *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return pft_image_name_cmp(x->name, y->name);   /* as the image's symbols */
}

/* Sort, and keep one function per start and non-overlapping rows (a later
 * row at the same address wins, as in a debugger's lookup; rows of
 * different units that overlap are cut at the next one's start). */
static void index_tables(struct pft_lines *l)
{
	size_t n = 0;

	if (l->nrows)
		qsort(l->rows, l->nrows, sizeof(*l->rows), cmp_row);
	for (size_t i = 0; i < l->nrows; i++) {
		if (n && l->rows[n - 1].addr == l->rows[i].addr)
			n--;
		else if (n && (l->rows[n - 1].end > l->rows[i].addr || !l->rows[n - 1].end))
			l->rows[n - 1].end = l->rows[i].addr;
		l->rows[n++] = l->rows[i];
	}
	l->nrows = n;

	n = 0;
	if (l->nfuncs)
		qsort(l->funcs, l->nfuncs, sizeof(*l->funcs), cmp_func);
	for (size_t i = 0; i < l->nfuncs; i++)
		if (!n || l->funcs[n - 1].start != l->funcs[i].start)
			l->funcs[n++] = l->funcs[i];
	l->nfuncs = n;
}

int pft_lines_add_elf(struct pft_lines *l, const char *path, int64_t bias)
{
	struct lines_module m = { .fd = -1, .bias = bias };
	size_t rows0, funcs0;
	int err;

	if (!l || !path)
		return -PFT_ERR_INVALID;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -PFT_ERR_INTERNAL;
	m.fd = open(path, O_RDONLY);
	if (m.fd < 0)
		return -PFT_ERR_BAD_FILE;
	m.elf = elf_begin(m.fd, ELF_C_READ, NULL);
	if (!m.elf || elf_kind(m.elf) != ELF_K_ELF) {
		close_module(&m);
		return -PFT_ERR_BAD_FILE;
	}
	if (gelf_getclass(m.elf) != ELFCLASS32) {
		close_module(&m);
		return -PFT_ERR_NOT_SUPPORTED;
	}
	m.dwarf = dwarf_begin_elf(m.elf, DWARF_C_READ, NULL);

	struct lines_module *mods = realloc(l->mods, (l->nmods + 1) * sizeof(*mods));
	size_t plen = strlen(path) + 1;
	if (mods)
		l->mods = mods;
	if (!mods || !(m.path = malloc(plen))) {
		close_module(&m);
		return -PFT_ERR_NOMEM;
	}
	memcpy(m.path, path, plen);
	l->mods[l->nmods] = m;
	rows0 = l->nrows;
	funcs0 = l->nfuncs;
	err = m.dwarf ? load_dwarf(l, l->nmods) : 0;
	l->mods[l->nmods].rows = l->nrows - rows0;
	if (!err)
		err = load_symbols(l, l->nmods);
	if (err) {
		/* All or nothing. */
		l->nrows = rows0;
		l->nfuncs = funcs0;
		close_module(&l->mods[l->nmods]);
		return err;
	}
	l->nmods++;
	index_tables(l);
	return m.dwarf ? 1 : 0;
}

static const struct lines_row *row_at(const struct pft_lines *l, uint32_t addr)
{
	size_t lo = 0, hi = l->nrows;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->rows[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	const struct lines_row *r = &l->rows[lo - 1];
	return (r->end == 0 || addr < r->end) ? r : NULL;
}

static const struct lines_func *func_at(const struct pft_lines *l, uint32_t addr)
{
	size_t lo = 0, hi = l->nfuncs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->funcs[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* A function nested in a bigger one (an alias region, a local label
	 * symbol) is found first; the bigger one is looked at next. */
	for (size_t i = lo; i-- > 0 && lo - i <= 8;)
		if (addr < l->funcs[i].end || l->funcs[i].end == 0)
			return &l->funcs[i];
	return NULL;
}

static void fill_func(const struct lines_func *f, struct pft_line_func *out)
{
	out->name = f->name;
	out->start = f->start;
	out->end = f->end;
	out->file = f->file;
	out->line = f->line;
}

/* The name of the innermost inlined subroutine or subprogram around @addr
 * (unbiased) in @m, or NULL. */
static const char *innermost_function(const struct lines_module *m, Dwarf_Addr addr)
{
	Dwarf_Die cu, *scopes = NULL;
	const char *name = NULL;
	int n;

	if (!unit_at(m, addr, &cu))
		return NULL;
	n = dwarf_getscopes(&cu, addr, &scopes);
	for (int i = 0; i < n && !name; i++) {
		int tag = dwarf_tag(&scopes[i]);
		if (tag == DW_TAG_inlined_subroutine || tag == DW_TAG_subprogram)
			name = dwarf_diename(&scopes[i]);
	}
	free(scopes);
	return name;
}

int pft_lines_lookup(const struct pft_lines *l, uint32_t addr,
		     struct pft_line_info *info, size_t size)
{
	struct pft_line_info out = { 0 };
	const struct lines_row *r;
	const struct lines_func *f;

	if (!l || !info || size < PFT_FIRST_SIZE(struct pft_line_info))
		return -PFT_ERR_INVALID;
	r = row_at(l, addr);
	f = func_at(l, addr);
	if (!r && !f)
		return -PFT_ERR_NOMAP;
	if (r) {
		const struct lines_module *m = &l->mods[r->module];
		out.file = r->file;
		out.line = r->line;
		out.function = m->dwarf ? innermost_function(m, (Dwarf_Addr)((int64_t)addr - m->bias))
					: NULL;
	}
	if (f) {
		fill_func(f, &out.func);
		if (!out.function)
			out.function = f->name;
	}
	out.has_func = f != NULL;
	pft_copy_known(info, &out, size, sizeof(out));
	return 0;
}

/* The name a compiler's profile knows a function by: its linkage
 * (mangled) name, else its name. */
static const char *profile_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name = NULL;

	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr))
		name = dwarf_formstring(&attr);
	return name ? name : dwarf_diename(die);
}

/* Whether @addr (in row @r) is in its function's prologue: the line
 * table marks the prologue's end (clang does, GCC mostly not), and the
 * rows from the function's start up to that mark are before it. */
static int in_prologue(const struct pft_lines *l, const struct lines_row *r, uint32_t addr)
{
	const struct lines_func *f = func_at(l, addr);

	if (!f || r->prologue_end)
		return 0;
	/* Back to the function's start: no mark on the way. */
	for (const struct lines_row *p = r; p >= l->rows && p->addr >= f->start; p--)
		if (p->prologue_end)
			return 0;
	/* On to its end: a mark. */
	for (const struct lines_row *p = r + 1; p < l->rows + l->nrows && p->addr < f->end; p++)
		if (p->prologue_end)
			return 1;
	return 0;
}

/* GCC's and LLVM's discriminator of an inlined call (dwarf.h has no name
 * for it). */
enum { AT_GNU_DISCRIMINATOR = 0x2136 };

static uint32_t die_udata(Dwarf_Die *die, int at)
{
	Dwarf_Attribute attr;
	Dwarf_Word w;

	if (!dwarf_attr(die, at, &attr) || dwarf_formudata(&attr, &w) || w > UINT32_MAX)
		return 0;
	return (uint32_t)w;
}

int pft_lines_frames(const struct pft_lines *l, uint32_t addr, struct pft_line_frame *frames,
		     size_t max, size_t size)
{
	const struct lines_row *r;
	Dwarf_Die cu, *scopes = NULL;
	size_t n = 0;
	int got;

	if (!l || !frames || !max || size < PFT_FIRST_SIZE(struct pft_line_frame))
		return -PFT_ERR_INVALID;
	r = row_at(l, addr);
	if (!r || !l->mods[r->module].dwarf)
		return -PFT_ERR_NOMAP;
	const struct lines_module *m = &l->mods[r->module];
	Dwarf_Addr a = (Dwarf_Addr)((int64_t)addr - m->bias);
	if (!unit_at(m, a, &cu))
		return -PFT_ERR_NOMAP;
	got = dwarf_getscopes(&cu, a, &scopes);
	/* For an inlined subroutine those go on through its abstract
	 * definition: the concrete scopes around the innermost function
	 * are its own chain. */
	for (int i = 0; i < got; i++) {
		int tag = dwarf_tag(&scopes[i]);
		if (tag == DW_TAG_subprogram)
			break;
		if (tag == DW_TAG_inlined_subroutine) {
			Dwarf_Die inner = scopes[i], *chain = NULL;
			int n = dwarf_getscopes_die(&inner, &chain);
			free(scopes);
			scopes = chain;
			got = n;
			break;
		}
	}
	/* Innermost first: count the functions, then fill outermost first. */
	size_t total = 0;
	for (int i = 0; i < got; i++) {
		int tag = dwarf_tag(&scopes[i]);
		total += tag == DW_TAG_inlined_subroutine || tag == DW_TAG_subprogram;
		if (tag == DW_TAG_subprogram)
			break;
	}
	if (!total) {
		free(scopes);
		return -PFT_ERR_NOMAP;
	}
	/* Deeper than @max: the innermost frames are dropped, the outer ones
	 * say where. */
	size_t keep = total < max ? total : max;
	size_t k = total;     /* frames still to see, inner to outer */
	uint32_t line = r->line, disc = r->discriminator;
	struct pft_line_frame out[64];
	for (int i = 0; i < got && k; i++) {
		int tag = dwarf_tag(&scopes[i]);
		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
		k--;
		int decl = 0;
		dwarf_decl_line(&scopes[i], &decl);
		struct pft_line_frame f = { .name = profile_name(&scopes[i]),
					    .decl_line = decl > 0 ? (uint32_t)decl : 0,
					    .line = line, .discriminator = disc };
		if (k < keep && k < 64)
			out[k] = f;
		if (tag == DW_TAG_inlined_subroutine) {
			line = die_udata(&scopes[i], DW_AT_call_line);
			disc = die_udata(&scopes[i], AT_GNU_DISCRIMINATOR);
		}
	}
	free(scopes);
	n = keep < 64 ? keep : 64;
	if (n && in_prologue(l, r, addr))
		out[n - 1].prologue = 1;
	for (size_t i = 0; i < n; i++)
		pft_copy_known((uint8_t *)frames + i * size, &out[i], size, sizeof(out[i]));
	return (int)n;
}

int pft_lines_row(const struct pft_lines *l, size_t index,
		  struct pft_line_row *row, size_t size)
{
	if (!l || !row || size < sizeof(*row))
		return -PFT_ERR_INVALID;
	if (index >= l->nrows)
		return -PFT_ERR_EOS;
	row->file = l->rows[index].file;
	row->line = l->rows[index].line;
	row->start = l->rows[index].addr;
	row->end = l->rows[index].end;
	return 0;
}

int pft_lines_function(const struct pft_lines *l, size_t index,
		       struct pft_line_func *func, size_t size)
{
	if (!l || !func || size < sizeof(*func))
		return -PFT_ERR_INVALID;
	if (index >= l->nfuncs)
		return -PFT_ERR_EOS;
	fill_func(&l->funcs[index], func);
	return 0;
}

int pft_lines_function_at(const struct pft_lines *l, uint32_t addr,
			  struct pft_line_func *func, size_t size)
{
	const struct lines_func *f;

	if (!l || !func || size < sizeof(*func))
		return -PFT_ERR_INVALID;
	f = func_at(l, addr);
	if (!f)
		return -PFT_ERR_NOMAP;
	fill_func(f, func);
	return 0;
}

int pft_lines_file(const struct pft_lines *l, size_t index, struct pft_lines_file *f,
		   size_t size)
{
	if (!l || !f || size < sizeof(*f))
		return -PFT_ERR_INVALID;
	if (index >= l->nmods)
		return -PFT_ERR_EOS;
	memset(f, 0, size);
	f->path = l->mods[index].path;
	f->rows = l->mods[index].rows;
	f->has_dwarf = l->mods[index].dwarf != NULL;
	return 0;
}

size_t pft_lines_count(const struct pft_lines *l, int functions)
{
	return !l ? 0 : functions ? l->nfuncs : l->nrows;
}

int pft_lines_line_at(const struct pft_lines *l, uint32_t addr, const char **file,
		      uint32_t *line)
{
	const struct lines_row *r = l ? row_at(l, addr) : NULL;

	if (!r)
		return -PFT_ERR_NOMAP;
	*file = r->file;
	*line = r->line;
	return 0;
}
