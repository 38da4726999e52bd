/* Symbols without code: an ELF's symbol table, or a System.map or
 * /proc/kallsyms listing ("ADDR TYPE NAME [module]" lines).  The listing
 * may be hostile: every line is checked, and the bounds below hold
 * whatever the file holds. */
#include "image/pft_elf.h"
#include "common/pft_grow.h"
#include "common/pft_diag.h"
#include "image/pft_image_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bounds.  A line (address, type, name, module) is at most
 * PFT_SYMBOLS_LINE_MAX bytes: the kernel's names are at most 512 bytes, so
 * a longer line is not a symbol listing.  A listing keeps at most the
 * @max_symbols its caller allows (pft_image_add_symbols():
 * PFT_SYMBOLS_MAX, some 30 times a big kernel's count), so memory stays
 * bounded by that whatever the file's size.  Reading is in blocks of
 * READ_BLOCK. */
enum { READ_BLOCK = 64 * 1024 };

/* One listed symbol while reading: @name is an offset into the names. */
struct listed {
	uint32_t addr;
	uint8_t text;          /* t, T, w, W: names code */
	uint8_t rank;
	size_t name;
};

struct listing {
	struct listed *v;
	size_t n, cap;
	char *names;
	size_t nnames, cap_names;
	size_t max;
	int64_t bias;
	int nonzero;           /* some address is not 0 */
	size_t line;           /* of the line being read (1, 2, ...) */
	const char *why;       /* what is wrong with it */
};

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)(c | 0x20);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Symbol ranks as pft_elf.c gives function symbols: global, weak, local. */
static int text_rank(char type)
{
	switch (type) {
	case 'T': return 0;
	case 'W': case 'w': return 2;
	case 't': return 4;
	}
	return -1;
}

/* ARM mapping symbols ($a, $t, $d, "$x.anything") name no code. */
static int is_mapping_symbol(const char *name, size_t len)
{
	return len >= 2 && name[0] == '$' && strchr("atdx", name[1]) &&
	       (len == 2 || name[2] == '.');
}

static int bad_line(struct listing *l)
{
	l->why = "not \"ADDR TYPE NAME [module]\": no symbol listing (System.map, kallsyms)";
	return -PFT_ERR_BAD_FILE;
}

/* Parse one line (@len bytes, no newline).  Returns 0 (taken or left out),
 * -PFT_ERR_BAD_FILE (not "ADDR TYPE NAME [module]") or -PFT_ERR_NOMEM. */
static int take_line(struct listing *l, const char *p, size_t len)
{
	if (len && p[len - 1] == '\r')
		len--;   /* CRLF */
	const char *end = p + len;
	uint64_t addr = 0;
	size_t digits = 0;
	int d;

	while (p < end && (d = hex_digit(*p)) >= 0) {
		if (++digits > 16)
			return bad_line(l);
		addr = addr << 4 | (unsigned)d;
		p++;
	}
	if (!digits || end - p < 3 || p[0] != ' ' || p[2] != ' ' || p[1] <= ' ' ||
	    p[1] > '~')
		return len == 0 ? 0 : bad_line(l);
	char type = p[1];
	const char *name = p + 3, *stop = name;
	while (stop < end && *stop != ' ' && *stop != '\t')
		stop++;
	if (stop == name)
		return bad_line(l);
	/* What may follow the name: "\t[module]" (kallsyms). */
	if (stop < end && *stop != '\t')
		return bad_line(l);
	for (const char *q = stop + (stop < end); q < end; q++)
		if ((unsigned char)*q < ' ' || *q == 0x7f)
			return bad_line(l);
	for (const char *q = name; q < stop; q++)
		if ((unsigned char)*q <= ' ' || *q == 0x7f)
			return bad_line(l);
	if (addr)
		l->nonzero = 1;
	int rank = text_rank(type);
	if (rank >= 0)
		addr &= ~(uint64_t)1;   /* a Thumb function's value */
	int64_t at = (int64_t)addr + l->bias;
	if (addr >= PFT_ADDR_SPACE_END || at < 0 || (uint64_t)at >= PFT_ADDR_SPACE_END ||
	    is_mapping_symbol(name, (size_t)(stop - name)))
		return 0;   /* not a 32-bit address, or no name */
	if (l->n >= l->max) {
		l->why = "more symbols than a listing may have";
		return -PFT_ERR_BAD_FILE;
	}
	size_t nlen = (size_t)(stop - name);
	void *arr = l->v;
	if (pft_grow(&arr, &l->cap, l->n + 1, sizeof(*l->v)) < 0)
		return -PFT_ERR_NOMEM;
	l->v = arr;
	arr = l->names;
	if (pft_grow(&arr, &l->cap_names, l->nnames + nlen + 1, 1) < 0)
		return -PFT_ERR_NOMEM;
	l->names = arr;
	memcpy(l->names + l->nnames, name, nlen);
	l->names[l->nnames + nlen] = '\0';
	l->v[l->n++] = (struct listed){ .addr = (uint32_t)at, .text = rank >= 0,
					.rank = (uint8_t)(rank >= 0 ? rank : 0),
					.name = l->nnames };
	l->nnames += nlen + 1;
	return 0;
}

/* Read @fd to its end, line by line. */
static int read_listing(struct listing *l, int fd)
{
	char *block = malloc(READ_BLOCK), *line = malloc(PFT_SYMBOLS_LINE_MAX);
	size_t have = 0;
	int err = 0;

	if (!block || !line) {
		err = -PFT_ERR_NOMEM;
		goto out;
	}
	for (;;) {
		ssize_t got = read(fd, block, READ_BLOCK);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			l->why = strerror(errno);
			err = -PFT_ERR_BAD_FILE;
			goto out;
		}
		if (got == 0)
			break;
		for (ssize_t i = 0; i < got; i++) {
			if (block[i] == '\n') {
				if ((err = take_line(l, line, have)) < 0)
					goto out;
				have = 0;
				l->line++;
			} else if (have == PFT_SYMBOLS_LINE_MAX || !block[i]) {
				l->why = block[i] ? "a line longer than 4096 bytes"
						  : "a NUL byte: binary data, no symbol listing";
				err = -PFT_ERR_BAD_FILE;
				goto out;
			} else {
				line[have++] = block[i];
			}
		}
	}
	err = take_line(l, line, have);
out:
	free(block);
	free(line);
	return err;
}

static int cmp_listed(const void *a, const void *b)
{
	const struct listed *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/* The code symbols of @l as image symbols: each reaches the next listed
 * address above its own (of any type); the last one covers one 4-byte
 * instruction, its size being unknown. */
static int merge_listing(struct pft_image *img, struct listing *l)
{
	struct pft_image_sym *syms;
	size_t n = 0, next = 0;
	int err;

	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), cmp_listed);
	syms = malloc((l->n ? l->n : 1) * sizeof(*syms));
	if (!syms)
		return -PFT_ERR_NOMEM;
	for (size_t i = 0; i < l->n; i++) {
		if (!l->v[i].text)
			continue;
		while (next < l->n && l->v[next].addr <= l->v[i].addr)
			next++;
		uint64_t end = next < l->n ? l->v[next].addr : (uint64_t)l->v[i].addr + 4;
		syms[n++] = (struct pft_image_sym){
			.start = l->v[i].addr,
			.end = end > PFT_ADDR_SPACE_END ? PFT_ADDR_SPACE_END : end,
			.name = l->names + l->v[i].name, .rank = l->v[i].rank };
	}
	err = pft_image_merge_symbols(img, syms, n, NULL, 0);
	free(syms);
	return err < 0 ? err : (int)n;
}

int pft_image_add_symbol_listing(struct pft_image *img, int fd, int64_t bias,
				 size_t max_symbols, const char *path, struct pft_diag *d)
{
	struct listing l = { .max = max_symbols, .bias = bias, .line = 1 };
	int err = read_listing(&l, fd);

	if (err == -PFT_ERR_BAD_FILE && l.why)
		pft_diag_line(d, err, path, (unsigned)l.line, "%s", l.why);
	if (err >= 0 && l.n && !l.nonzero)
		err = pft_diag_file(d, -PFT_ERR_BAD_FILE, path, "every address is 0 (kallsyms "
				    "read without the right to see addresses: read it as root)");
	if (err >= 0)
		err = pft_image_adopt(img, l.names);   /* frees them on failure */
	else
		free(l.names);
	if (err >= 0)
		err = merge_listing(img, &l);
	free(l.v);
	return err;
}

int pft_image_add_symbols(struct pft_image *img, const char *path, int64_t bias,
			  struct pft_diag *d)
{
	uint8_t magic[4];
	struct stat st;
	int fd, err;
	ssize_t got;

	err = pft_image_begin_add(img, path);
	if (err < 0)
		return err;
	if (bias <= -(int64_t)PFT_ADDR_SPACE_END || bias >= (int64_t)PFT_ADDR_SPACE_END)
		return -PFT_ERR_INVALID;
	/* Non-blocking open: a FIFO is refused, not waited on.  /proc files
	 * are regular with size 0, so the size is not checked. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -PFT_ERR_BAD_FILE;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (got = pread(fd, magic, sizeof(magic), 0)) < 0) {
		close(fd);
		return -PFT_ERR_BAD_FILE;
	}
	if (pft_elf_is_elf(magic, (size_t)got)) {
		size_t before = img->nsyms, len;
		uint8_t *buf;

		close(fd);
		err = pft_image_load_file(path, 0, 0, &buf, &len);
		if (err < 0)
			return err;
		err = pft_elf_load_as(img, buf, len, bias, path, PFT_ELF_SYMBOLS, NULL);
		free(buf);
		return err < 0 ? err : (int)(img->nsyms - before);
	}
	err = pft_image_add_symbol_listing(img, fd, bias, PFT_SYMBOLS_MAX, path, d);
	close(fd);
	return err;
}
