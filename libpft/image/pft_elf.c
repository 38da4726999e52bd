/* ELF loading through elfutils' libelf: PT_LOAD segments become image
 * sections, the symbol table becomes names and ISA regions.  Every value
 * taken from the file is checked before use: the input may be hostile. */
#include "image/pft_elf.h"
#include "image/pft_image_int.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct elf_segment {
	uint32_t vaddr;       /* with the bias */
	uint64_t filesz;
	uint64_t offset;
	int index;            /* program header index */
};

static unsigned le16(const uint8_t *p)
{
	return (unsigned)p[0] | (unsigned)p[1] << 8;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)le16(p) | (uint32_t)le16(p + 2) << 16;
}

/* libelf quietly ignores a section header table outside the file, which
 * would lose the symbols without a word: refuse such files. */
static int check_section_table(const uint8_t *buf, size_t len)
{
	uint64_t shoff = le32(buf + offsetof(Elf32_Ehdr, e_shoff));
	uint64_t shnum = le16(buf + offsetof(Elf32_Ehdr, e_shnum));
	unsigned shentsize = le16(buf + offsetof(Elf32_Ehdr, e_shentsize));

	if (shoff == 0)
		return 0;
	/* e_shnum 0 with a table: the count is in section 0, which must be
	 * there. */
	if (shentsize != sizeof(Elf32_Shdr) || shoff > len ||
	    (shnum ? shnum : 1) * sizeof(Elf32_Shdr) > len - shoff)
		return -PFT_ERR_BAD_FILE;
	return 0;
}

/* Decide from the raw header bytes what kind of file this is, before
 * libelf sees it. */
static int check_header(const uint8_t *buf, size_t len)
{
	unsigned type, machine;

	if (len < EI_NIDENT || memcmp(buf, ELFMAG, SELFMAG) != 0)
		return -PFT_ERR_BAD_FILE;
	if ((buf[EI_CLASS] != ELFCLASS32 && buf[EI_CLASS] != ELFCLASS64) ||
	    (buf[EI_DATA] != ELFDATA2LSB && buf[EI_DATA] != ELFDATA2MSB))
		return -PFT_ERR_BAD_FILE;
	if (buf[EI_CLASS] != ELFCLASS32 || buf[EI_DATA] != ELFDATA2LSB)
		return -PFT_ERR_NOT_SUPPORTED;
	if (len < sizeof(Elf32_Ehdr))
		return -PFT_ERR_BAD_FILE;
	type = le16(buf + offsetof(Elf32_Ehdr, e_type));
	machine = le16(buf + offsetof(Elf32_Ehdr, e_machine));
	if (machine != EM_ARM || (type != ET_EXEC && type != ET_DYN))
		return -PFT_ERR_NOT_SUPPORTED;
	return check_section_table(buf, len);
}

int pft_elf_is_elf(const uint8_t *buf, size_t len)
{
	return len >= SELFMAG && !memcmp(buf, ELFMAG, SELFMAG);
}

static int cmp_segment(const void *a, const void *b)
{
	const struct elf_segment *x = a, *y = b;

	return (x->vaddr > y->vaddr) - (x->vaddr < y->vaddr);
}

/* Check one program header; the segment's biased start in *@start. */
static int check_segment(const GElf_Phdr *ph, size_t len, int64_t bias,
			 uint32_t *start)
{
	int64_t biased = (int64_t)ph->p_vaddr + bias;

	if (ph->p_offset > len || ph->p_filesz > len - ph->p_offset ||
	    ph->p_vaddr + ph->p_filesz > PFT_ADDR_SPACE_END)
		return -PFT_ERR_BAD_FILE;
	if (biased < 0 || (uint64_t)biased + ph->p_filesz > PFT_ADDR_SPACE_END)
		return -PFT_ERR_INVALID;
	*start = (uint32_t)biased;
	return 0;
}

/* The file-backed PT_LOAD segments, checked and sorted by address. */
static int collect_segments(Elf *elf, size_t len, int64_t bias,
			    struct elf_segment **out, size_t *count)
{
	struct elf_segment *segs;
	size_t phnum, n = 0;
	int err = 0;

	if (elf_getphdrnum(elf, &phnum) != 0 ||
	    phnum > len / sizeof(Elf32_Phdr) || phnum > INT_MAX)
		return -PFT_ERR_BAD_FILE;
	segs = malloc((phnum ? phnum : 1) * sizeof(*segs));
	if (!segs)
		return -PFT_ERR_NOMEM;
	for (size_t i = 0; i < phnum && !err; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph)) {
			err = -PFT_ERR_BAD_FILE;
		} else if (ph.p_type == PT_LOAD && ph.p_filesz != 0) {
			err = check_segment(&ph, len, bias, &segs[n].vaddr);
			segs[n].filesz = ph.p_filesz;
			segs[n].offset = ph.p_offset;
			segs[n].index = (int)i;
			n++;
		}
	}
	if (!err)
		qsort(segs, n, sizeof(*segs), cmp_segment);
	for (size_t i = 0; i + 1 < n && !err; i++)
		if (segs[i].vaddr + segs[i].filesz > segs[i + 1].vaddr)
			err = -PFT_ERR_BAD_FILE;  /* segments overlap */
	if (!err && n == 0)
		err = -PFT_ERR_BAD_FILE;          /* nothing to load */
	if (err) {
		free(segs);
		return err;
	}
	*out = segs;
	*count = n;
	return 0;
}

/*
 * Keep the segments' bytes: copied out one after another when that is no
 * bigger than the file (the usual case), else a copy of the whole file
 * (segments sharing file bytes).  Either way at most @len bytes.
 */
static int keep_segment_bytes(struct pft_image *img, const uint8_t *buf,
			      size_t len, struct elf_segment *segs, size_t n,
			      const uint8_t **base, int *packed)
{
	uint64_t total = 0;
	uint8_t *copy;

	for (size_t i = 0; i < n; i++)
		total += segs[i].filesz;
	*packed = total <= len;
	copy = malloc(*packed ? (size_t)total : len);
	if (!copy)
		return -PFT_ERR_NOMEM;
	if (*packed) {
		size_t at = 0;

		for (size_t i = 0; i < n; i++) {
			memcpy(copy + at, buf + segs[i].offset,
			       (size_t)segs[i].filesz);
			at += (size_t)segs[i].filesz;
		}
	} else {
		memcpy(copy, buf, len);
	}
	*base = copy;
	return pft_image_adopt(img, copy);
}

static int add_segments(struct pft_image *img, const uint8_t *buf,
			size_t len, struct elf_segment *segs, size_t n,
			const char *path)
{
	const uint8_t *base;
	size_t at = 0;
	int packed, err;

	err = keep_segment_bytes(img, buf, len, segs, n, &base, &packed);
	if (err < 0)
		return err;
	for (size_t i = 0; i < n; i++) {
		struct pft_image_sec sec = { 0 };

		sec.start = segs[i].vaddr;
		sec.size = segs[i].filesz;
		sec.data = base + (packed ? at : segs[i].offset);
		sec.space = PFT_SPACE_ANY;
		sec.path = path;
		sec.file_offset = segs[i].offset;
		sec.elf_segment = segs[i].index;
		err = pft_image_insert(img, &sec);
		if (err < 0)
			return err;
		at += (size_t)segs[i].filesz;
	}
	return 0;
}

/* ---- Symbols ---- */

/* The ISA of an ARM mapping symbol name ("$a", "$t", "$d", optionally
 * followed by ".anything"), or -1 for other names. */
static int mapping_symbol_isa(const char *name)
{
	if (name[0] != '$' || name[1] == '\0' ||
	    (name[2] != '\0' && name[2] != '.'))
		return -1;
	switch (name[1]) {
	case 'a': return PFT_ISA_ARM;
	case 't': return PFT_ISA_THUMB;
	case 'd': return PFT_ISA_UNKNOWN;
	}
	return -1;
}

/* Lower is preferred: functions, then objects, then labels; global, weak,
 * local; sized before unsized. */
static unsigned symbol_rank(unsigned type, unsigned bind, int sized)
{
	unsigned t = (type == STT_FUNC || type == STT_GNU_IFUNC) ? 0
		     : type == STT_OBJECT ? 1 : 2;
	unsigned b = bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2;

	return t * 6 + b * 2 + (sized ? 0 : 1);
}

/* What one ELF symbol table yields.  Each array has room for every
 * symbol of the table. */
struct symbol_set {
	struct pft_image_sym *names;
	size_t nnames;
	struct pft_image_isa_region *maps;   /* from $a/$t/$d */
	size_t nmaps;
	struct pft_image_isa_region *funcs;  /* from sized function symbols */
	size_t nfuncs;
};

/* The end (biased, clamped to [@start, 2^32]) of ELF section @shndx. */
static int section_limit(Elf *elf, size_t shndx, int64_t bias,
			 uint32_t start, uint64_t *limit)
{
	Elf_Scn *scn = elf_getscn(elf, shndx);
	GElf_Shdr sh;
	int64_t end;

	if (!scn || !gelf_getshdr(scn, &sh) ||
	    sh.sh_addr > PFT_ADDR_SPACE_END || sh.sh_size > PFT_ADDR_SPACE_END)
		return -PFT_ERR_BAD_FILE;
	end = (int64_t)(sh.sh_addr + sh.sh_size) + bias;
	if (end < (int64_t)start)
		end = start;
	*limit = (uint64_t)end > PFT_ADDR_SPACE_END ? PFT_ADDR_SPACE_END
						 : (uint64_t)end;
	return 0;
}

static void add_name(struct symbol_set *set, const GElf_Sym *sym,
		     const char *name, uint32_t start, uint64_t limit)
{
	unsigned type = GELF_ST_TYPE(sym->st_info);
	struct pft_image_sym *s = &set->names[set->nnames++];
	uint64_t size = sym->st_size;

	s->start = start;
	/* An unsized symbol reaches its section's end; in look-ups, the next
	 * symbol's start ends it earlier. */
	s->end = !size ? limit
		 : size > PFT_ADDR_SPACE_END - start ? PFT_ADDR_SPACE_END
		 : start + size;
	s->name = name;
	s->rank = symbol_rank(type, GELF_ST_BIND(sym->st_info), size != 0);
	if (size && (type == STT_FUNC || type == STT_GNU_IFUNC)) {
		struct pft_image_isa_region *f = &set->funcs[set->nfuncs++];

		f->start = s->start;
		f->end = s->end;
		f->isa = (sym->st_value & 1) ? PFT_ISA_THUMB : PFT_ISA_ARM;
	}
}

/* Turn one ELF symbol into a name or a mapping region (or nothing). */
static int take_symbol(Elf *elf, const GElf_Sym *sym, const char *strtab,
		       size_t strsize, int64_t bias, struct symbol_set *set)
{
	unsigned type = GELF_ST_TYPE(sym->st_info);
	int is_func = type == STT_FUNC || type == STT_GNU_IFUNC;
	uint64_t value = sym->st_value, limit;
	const char *name;
	int64_t start;
	int isa, err;

	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE)
		return 0;
	if (sym->st_name >= strsize)
		return -PFT_ERR_BAD_FILE;
	name = strtab + sym->st_name;
	if (!*name)
		return 0;
	isa = mapping_symbol_isa(name);
	if (isa < 0 && !is_func && type != STT_OBJECT && type != STT_NOTYPE)
		return 0;
	if (is_func)
		value &= ~(uint64_t)1;  /* the Thumb bit is not the address */
	if (value >= PFT_ADDR_SPACE_END)
		return 0;
	start = (int64_t)value + bias;
	if (start < 0 || (uint64_t)start >= PFT_ADDR_SPACE_END)
		return 0;
	err = section_limit(elf, sym->st_shndx, bias, (uint32_t)start, &limit);
	if (err < 0)
		return err;
	if (isa >= 0) {
		struct pft_image_isa_region *m = &set->maps[set->nmaps++];

		m->start = (uint32_t)start;
		m->end = limit;
		m->isa = (enum pft_isa)isa;
	} else {
		add_name(set, sym, name, (uint32_t)start, limit);
	}
	return 0;
}

/* A NUL-terminated copy of string table section @index, owned by @img. */
static int keep_strtab(struct pft_image *img, Elf *elf, size_t index,
		       const char **out, size_t *size)
{
	Elf_Scn *scn = elf_getscn(elf, index);
	Elf_Data *data;
	GElf_Shdr sh;
	char *copy;

	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_STRTAB)
		return -PFT_ERR_BAD_FILE;
	data = elf_getdata(scn, NULL);
	if (!data || (data->d_size && !data->d_buf))
		return -PFT_ERR_BAD_FILE;
	copy = malloc(data->d_size + 1);
	if (!copy)
		return -PFT_ERR_NOMEM;
	if (data->d_size)
		memcpy(copy, data->d_buf, data->d_size);
	copy[data->d_size] = '\0';
	*out = copy;
	*size = data->d_size;
	return pft_image_adopt(img, copy);
}

/* .symtab, or .dynsym when there is none, or NULL. */
static Elf_Scn *find_symtab(Elf *elf, int *err)
{
	Elf_Scn *scn = NULL, *dynsym = NULL;

	*err = 0;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh)) {
			*err = -PFT_ERR_BAD_FILE;
			return NULL;
		}
		if (sh.sh_type == SHT_SYMTAB)
			return scn;
		if (sh.sh_type == SHT_DYNSYM && !dynsym)
			dynsym = scn;
	}
	return dynsym;
}

static int read_symbols(struct pft_image *img, Elf *elf, Elf_Scn *scn,
			int64_t bias, struct symbol_set *set)
{
	const char *strtab;
	size_t strsize, count;
	Elf_Data *data;
	GElf_Shdr sh;
	int err;

	if (!gelf_getshdr(scn, &sh))
		return -PFT_ERR_BAD_FILE;
	data = elf_getdata(scn, NULL);
	if (!data)
		return -PFT_ERR_BAD_FILE;
	err = keep_strtab(img, elf, sh.sh_link, &strtab, &strsize);
	if (err < 0)
		return err;
	count = data->d_size / sizeof(Elf32_Sym);
	if (count > INT_MAX)
		return -PFT_ERR_BAD_FILE;
	set->names = malloc((count ? count : 1) * sizeof(*set->names));
	set->maps = malloc((count ? count : 1) * sizeof(*set->maps));
	set->funcs = malloc((count ? count : 1) * sizeof(*set->funcs));
	if (!set->names || !set->maps || !set->funcs)
		return -PFT_ERR_NOMEM;
	for (size_t i = 0; i < count; i++) {
		GElf_Sym sym;

		if (!gelf_getsym(data, (int)i, &sym))
			return -PFT_ERR_BAD_FILE;
		err = take_symbol(elf, &sym, strtab, strsize, bias, set);
		if (err < 0)
			return err;
	}
	return 0;
}

static int add_symbols(struct pft_image *img, Elf *elf, int64_t bias)
{
	struct symbol_set set = { 0 };
	const struct pft_image_isa_region *isa;
	size_t nisa;
	Elf_Scn *scn;
	int err;

	scn = find_symtab(elf, &err);
	if (!scn)
		return err;
	err = read_symbols(img, elf, scn, bias, &set);
	if (err >= 0) {
		isa = set.nmaps ? set.maps : set.funcs;
		nisa = set.nmaps ? set.nmaps : set.nfuncs;
		err = pft_image_merge_symbols(img, set.names, set.nnames, isa,
					      nisa);
	}
	free(set.names);
	free(set.maps);
	free(set.funcs);
	return err;
}

/* ---- Beneath what is there ---- */

/* Insert [@from, @to) of segment @seg (bytes at @data) as one section. */
static int insert_piece(struct pft_image *img, const struct elf_segment *seg,
			const uint8_t *data, uint32_t from, uint64_t to,
			const char *path)
{
	struct pft_image_sec sec = { 0 };
	uint32_t skip = from - seg->vaddr;

	sec.start = from;
	sec.size = to - from;
	sec.data = data + skip;
	sec.space = PFT_SPACE_ANY;
	sec.path = path;
	sec.file_offset = seg->offset + skip;
	sec.elf_segment = seg->index;
	return pft_image_insert(img, &sec);
}

/*
 * Add the parts of @seg (its bytes at @data) that no section of any space
 * covers; compare the covered parts with the bytes there, counting in @ov.
 * Returns the number of sections added.  Segments come in address order, so
 * the first difference found is the lowest.
 */
static int add_segment_beneath(struct pft_image *img, const struct elf_segment *seg,
			       const uint8_t *data, const char *path,
			       struct pft_image_overlap *ov)
{
	uint64_t end = (uint64_t)seg->vaddr + seg->filesz;
	uint64_t cur = seg->vaddr;
	int added = 0, err;

	while (cur < end) {
		size_t idx;
		uint32_t at;

		/* An ANY section may share no address with any other. */
		err = pft_image_first_overlap(img, (uint32_t)cur, end, &idx, &at);
		if (err == 0) {
			if ((err = insert_piece(img, seg, data, (uint32_t)cur, end, path)) < 0)
				return err;
			return added + 1;
		}
		if (at > cur) {
			if ((err = insert_piece(img, seg, data, (uint32_t)cur, at, path)) < 0)
				return err;
			added++;
		}
		const struct pft_image_sec *there = &img->secs[idx];
		uint64_t stop = (uint64_t)there->start + there->size;
		if (stop > end)
			stop = end;
		for (uint64_t a = at; a < stop; a++)
			if (data[a - seg->vaddr] != there->data[a - there->start] &&
			    !ov->differ++)
				ov->first_differ = (uint32_t)a;
		ov->covered += stop - at;
		cur = stop;
	}
	return added;
}

static int add_segments_beneath(struct pft_image *img, const uint8_t *buf, size_t len,
				struct elf_segment *segs, size_t n, const char *path,
				struct pft_image_overlap *ov)
{
	const uint8_t *base;
	size_t at = 0;
	int packed, err, added = 0;

	err = keep_segment_bytes(img, buf, len, segs, n, &base, &packed);
	if (err < 0)
		return err;
	for (size_t i = 0; i < n; i++) {
		err = add_segment_beneath(img, &segs[i], base + (packed ? at : segs[i].offset),
					  path, ov);
		if (err < 0)
			return err;
		added += err;
		at += (size_t)segs[i].filesz;
	}
	return added;
}

/* ---- Entry ---- */

static int load(struct pft_image *img, Elf *elf, const uint8_t *buf,
		size_t len, int64_t bias, const char *path, enum pft_elf_mode mode,
		struct pft_image_overlap *ov)
{
	struct elf_segment *segs;
	size_t n = 0, before = img->nsecs;
	int err = 0, loaded_before = 0;

	for (size_t i = 0; path && i < img->nsecs && !loaded_before; i++)
		loaded_before = img->secs[i].elf_segment >= 0 && img->secs[i].path &&
				!strcmp(img->secs[i].path, path);
	if (mode != PFT_ELF_SYMBOLS) {
		err = collect_segments(elf, len, bias, &segs, &n);
		if (err < 0)
			return err;
		if (mode == PFT_ELF_BENEATH)
			err = add_segments_beneath(img, buf, len, segs, n, path, ov);
		else
			err = add_segments(img, buf, len, segs, n, path);
		free(segs);
		if (err < 0)
			return err;
	}
	int nsecs = mode == PFT_ELF_BENEATH ? err : (int)n;
	/* The same file again, every byte of it there already: its symbols
	 * are there too. */
	if (mode != PFT_ELF_SYMBOLS && img->nsecs == before && loaded_before)
		return nsecs;
	err = add_symbols(img, elf, bias);
	return err < 0 ? err : nsecs;
}

int pft_elf_load(struct pft_image *img, uint8_t *buf, size_t len,
		 int64_t bias, const char *path)
{
	return pft_elf_load_as(img, buf, len, bias, path, PFT_ELF_ALL, NULL);
}

int pft_elf_load_as(struct pft_image *img, uint8_t *buf, size_t len, int64_t bias,
		    const char *path, enum pft_elf_mode mode, struct pft_image_overlap *ov)
{
	struct pft_image_mark mark;
	const char *path_copy = NULL;
	Elf *elf;
	int err;

	err = pft_image_begin_add(img, buf);
	if (err < 0)
		return err;
	err = check_header(buf, len);
	if (err < 0)
		return err;
	/* No biased 32-bit address can come out of a bias beyond this. */
	if (bias <= -(int64_t)PFT_ADDR_SPACE_END ||
	    bias >= (int64_t)PFT_ADDR_SPACE_END)
		return -PFT_ERR_INVALID;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -PFT_ERR_INTERNAL;
	elf = elf_memory((char *)buf, len);
	if (!elf)
		return -PFT_ERR_BAD_FILE;
	mark = pft_image_mark(img);
	err = pft_image_adopt_string(img, path, &path_copy);
	if (err >= 0)
		err = load(img, elf, buf, len, bias, path_copy, mode, ov);
	elf_end(elf);
	if (err < 0)
		pft_image_rollback(img, mark);
	return err;
}

/* Read @path whole and load it in @mode. */
static int add_elf_file(struct pft_image *img, const char *path, int64_t bias,
			enum pft_elf_mode mode, struct pft_image_overlap *ov)
{
	uint8_t *buf;
	size_t len;
	int ret;

	ret = pft_image_begin_read(img, path, 0, 0, &buf, &len);
	if (ret < 0)
		return ret;
	ret = pft_elf_load_as(img, buf, len, bias, path, mode, ov);
	free(buf);
	return ret;
}

int pft_image_add_elf(struct pft_image *img, const char *path, int64_t bias)
{
	return add_elf_file(img, path, bias, PFT_ELF_ALL, NULL);
}

int pft_image_add_elf_beneath(struct pft_image *img, const char *path, int64_t bias,
			      struct pft_image_overlap *ov, size_t size)
{
	struct pft_image_overlap o = { 0 };
	int ret;

	if (!ov || !size)
		return -PFT_ERR_INVALID;
	ret = add_elf_file(img, path, bias, PFT_ELF_BENEATH, &o);
	memset(ov, 0, size);
	memcpy(ov, &o, size < sizeof(o) ? size : sizeof(o));
	return ret;
}

/* The note in the sections of type SHT_NOTE: name "GNU", type
 * NT_GNU_BUILD_ID. */
static size_t find_build_id(Elf *elf, uint8_t id[PFT_ELF_BUILD_ID_MAX])
{
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		GElf_Nhdr nh;
		size_t at = 0, name_at, desc_at;
		while ((at = gelf_getnote(data, at, &nh, &name_at, &desc_at)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((const char *)data->d_buf + name_at, "GNU", 4) &&
			    nh.n_descsz && nh.n_descsz <= PFT_ELF_BUILD_ID_MAX) {
				memcpy(id, (const uint8_t *)data->d_buf + desc_at, nh.n_descsz);
				return nh.n_descsz;
			}
		}
	}
	return 0;
}

size_t pft_elf_build_id(const char *path, uint8_t id[PFT_ELF_BUILD_ID_MAX])
{
	size_t n = 0;
	int fd;

	if (elf_version(EV_CURRENT) == EV_NONE || (fd = open(path, O_RDONLY)) < 0)
		return 0;
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF)
		n = find_build_id(elf, id);
	elf_end(elf);
	close(fd);
	return n;
}
