/* Program memory: sections of bytes at 32-bit addresses, per memory space,
 * found by binary search with a last-hit cache; plus symbol look-up. */
#include "image/pft_image_int.h"
#include "common/pft_size.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int space_ok(enum pft_mem_space space)
{
	return (unsigned)space < PFT_SPACE_COUNT;
}

static uint64_t sec_end(const struct pft_image_sec *s)
{
	return (uint64_t)s->start + s->size;
}

static int sec_covers(const struct pft_image_sec *s, uint32_t addr)
{
	return addr >= s->start && (uint64_t)(addr - s->start) < s->size;
}

struct pft_image *pft_image_alloc(int *errcode)
{
	struct pft_image *img = calloc(1, sizeof(*img));

	if (errcode)
		*errcode = img ? 0 : -PFT_ERR_NOMEM;
	return img;
}

void pft_image_free(struct pft_image *img)
{
	if (!img)
		return;
	for (size_t i = 0; i < img->nblobs; i++)
		free(img->blobs[i]);
	free(img->blobs);
	for (int s = 0; s < PFT_SPACE_COUNT; s++)
		free(img->by_addr[s]);
	free(img->secs);
	free(img->syms);
	free(img->isa);
	free(img);
}

/* ---- Ownership and undo ---- */

struct pft_image_mark pft_image_mark(const struct pft_image *img)
{
	struct pft_image_mark m = { img->nsecs, img->nblobs };
	return m;
}

static void drop_cache(struct pft_image *img)
{
	for (int s = 0; s < PFT_SPACE_COUNT; s++)
		atomic_store_explicit(&img->cache[s], NULL, memory_order_relaxed);
}

void pft_image_rollback(struct pft_image *img, struct pft_image_mark mark)
{
	for (int s = 0; s < PFT_SPACE_COUNT; s++) {
		size_t kept = 0;

		for (size_t i = 0; i < img->nby_addr[s]; i++)
			if (img->by_addr[s][i].sec < mark.nsecs)
				img->by_addr[s][kept++] = img->by_addr[s][i];
		img->nby_addr[s] = kept;
	}
	img->nsecs = mark.nsecs;
	while (img->nblobs > mark.nblobs)
		free(img->blobs[--img->nblobs]);
	drop_cache(img);
}

/* Make room for one more element in a growable array. */
static int reserve(void **arr, size_t *cap, size_t n, size_t elem)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 16;
	if (ncap > SIZE_MAX / elem)
		return -PFT_ERR_NOMEM;
	p = realloc(*arr, ncap * elem);
	if (!p)
		return -PFT_ERR_NOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

int pft_image_adopt(struct pft_image *img, void *blob)
{
	void *arr = img->blobs;
	int err = reserve(&arr, &img->cap_blobs, img->nblobs, sizeof(void *));

	img->blobs = arr;
	if (err < 0) {
		free(blob);
		return err;
	}
	img->blobs[img->nblobs++] = blob;
	return 0;
}

int pft_image_adopt_string(struct pft_image *img, const char *path,
			   const char **copy)
{
	size_t n;
	char *p;

	*copy = NULL;
	if (!path)
		return 0;
	n = strlen(path) + 1;
	p = malloc(n);
	if (!p)
		return -PFT_ERR_NOMEM;
	memcpy(p, path, n);
	*copy = p;
	return pft_image_adopt(img, p);
}

/* ---- Look-up ---- */

/* Position in by_addr[@space] of the last section starting at or before
 * @addr, or -1.  Branch-free halving: look-ups land at random addresses
 * (every taken branch of the trace), where mispredictions would dominate. */
static ptrdiff_t last_at_or_before(const struct pft_image *img, int space,
				   uint32_t addr)
{
	const struct pft_image_slot *base = img->by_addr[space];
	size_t n = img->nby_addr[space];

	if (n == 0 || base[0].start > addr)
		return -1;
	/* Invariant: base[0].start <= addr; the answer is in base[0 .. n). */
	while (n > 1) {
		size_t half = n / 2;

		base = base[half].start <= addr ? base + half : base;
		n -= half;
	}
	return base - img->by_addr[space];
}

/* Spaces whose sections serve a request for @space, in preference order
 * (terminated by -1). */
static const int *serving_spaces(enum pft_mem_space space)
{
	static const int any[] = { PFT_SPACE_ANY, PFT_SPACE_SECURE,
				   PFT_SPACE_NONSECURE, -1 };
	static const int sec[] = { PFT_SPACE_SECURE, PFT_SPACE_ANY, -1 };
	static const int nsec[] = { PFT_SPACE_NONSECURE, PFT_SPACE_ANY, -1 };

	return space == PFT_SPACE_SECURE ? sec
	       : space == PFT_SPACE_NONSECURE ? nsec : any;
}

static const struct pft_image_sec *find(const struct pft_image *img,
					uint32_t addr, enum pft_mem_space space)
{
	for (const int *s = serving_spaces(space); *s >= 0; s++) {
		ptrdiff_t i = last_at_or_before(img, *s, addr);

		if (i >= 0) {
			const struct pft_image_sec *sec =
				&img->secs[img->by_addr[*s][i].sec];
			if (sec_covers(sec, addr))
				return sec;
		}
	}
	return NULL;
}

/* The lowest start above @addr of a section serving @space, or 2^32. */
static uint64_t next_start(const struct pft_image *img, uint32_t addr,
			   enum pft_mem_space space)
{
	uint64_t best = PFT_ADDR_SPACE_END;

	for (const int *s = serving_spaces(space); *s >= 0; s++) {
		size_t i = (size_t)(last_at_or_before(img, *s, addr) + 1);

		if (i < img->nby_addr[*s]) {
			uint32_t start = img->by_addr[*s][i].start;
			if (start < best)
				best = start;
		}
	}
	return best;
}

static int clamp_int(uint64_t n)
{
	return n > INT_MAX ? INT_MAX : (int)n;
}

static int map_callback(struct pft_image *img, uint32_t addr,
			enum pft_mem_space space, const uint8_t **ptr)
{
	uint64_t room;
	size_t len;
	int got;

	if (!img->read_cb)
		return -PFT_ERR_NOMAP;
	room = next_start(img, addr, space) - addr;
	len = room < PFT_IMAGE_SCRATCH ? (size_t)room : PFT_IMAGE_SCRATCH;
	got = img->read_cb(img->scratch, len, addr, space, img->cb_ctx);
	if (got <= 0)
		return -PFT_ERR_NOMAP;
	*ptr = img->scratch;
	return (size_t)got > len ? (int)len : got;
}

int pft_image_map(struct pft_image *img, uint32_t addr,
		  enum pft_mem_space space, const uint8_t **ptr)
{
	const struct pft_image_sec *sec;

	if (!img || !ptr || !space_ok(space))
		return -PFT_ERR_INVALID;
	sec = atomic_load_explicit(&img->cache[space], memory_order_relaxed);
	if (!sec || !sec_covers(sec, addr)) {
		sec = find(img, addr, space);
		if (!sec)
			return map_callback(img, addr, space, ptr);
		/* For ANY requests a NONSECURE hit may hide a SECURE section
		 * elsewhere in its range, so it is not remembered. */
		if (space != PFT_SPACE_ANY || sec->space != PFT_SPACE_NONSECURE)
			atomic_store_explicit(&img->cache[space], sec, memory_order_relaxed);
	}
	*ptr = sec->data + (addr - sec->start);
	return clamp_int(sec_end(sec) - addr);
}

int pft_image_read(struct pft_image *img, uint32_t addr,
		   enum pft_mem_space space, uint8_t *buf, size_t len)
{
	size_t done = 0;

	if (!img || !buf || !len || !space_ok(space))
		return -PFT_ERR_INVALID;
	if (len > INT_MAX)
		len = INT_MAX;
	while (done < len) {
		const uint8_t *src;
		int n = pft_image_map(img, addr, space, &src);
		size_t take;

		if (n < 0)
			return done ? (int)done : n;
		take = (size_t)n < len - done ? (size_t)n : len - done;
		memcpy(buf + done, src, take);
		done += take;
		if ((uint64_t)addr + take >= PFT_ADDR_SPACE_END)
			break;
		addr += (uint32_t)take;
	}
	return (int)done;
}

int pft_image_set_callback(struct pft_image *img,
			   int (*read)(uint8_t *buf, size_t len, uint32_t addr,
				       enum pft_mem_space space, void *ctx),
			   void *ctx)
{
	if (!img)
		return -PFT_ERR_INVALID;
	img->read_cb = read;
	img->cb_ctx = ctx;
	return 0;
}

/* ---- Adding sections ---- */

/* The first section of by_addr[@space] that meets [@start, @end), or
 * NULL.  Sections of one space are sorted and disjoint: only the one at or
 * before @start and the one after it can. */
static const struct pft_image_sec *
first_meeting(const struct pft_image *img, int space, uint32_t start,
	      uint64_t end)
{
	ptrdiff_t i = last_at_or_before(img, space, start);
	const struct pft_image_sec *sec;

	if (i < 0 || !sec_covers(&img->secs[img->by_addr[space][i].sec], start))
		i++;
	if ((size_t)i >= img->nby_addr[space])
		return NULL;
	sec = &img->secs[img->by_addr[space][i].sec];
	return sec->start < end ? sec : NULL;
}

/* Record the lowest address where [@start, @end) meets a section that a
 * new section of @space may not overlap: one in a space that serves the
 * same requests.  Returns 1 if there is one. */
static int find_overlap(struct pft_image *img, uint32_t start, uint64_t end,
			enum pft_mem_space space)
{
	img->has_conflict = 0;
	for (const int *s = serving_spaces(space); *s >= 0; s++) {
		const struct pft_image_sec *sec =
			first_meeting(img, *s, start, end);
		uint32_t at;

		if (!sec)
			continue;
		at = sec->start > start ? sec->start : start;
		if (!img->has_conflict || at < img->conflict_addr) {
			img->conflict_addr = at;
			img->conflict_index = (size_t)(sec - img->secs);
			img->has_conflict = 1;
		}
	}
	return img->has_conflict;
}

int pft_image_first_overlap(struct pft_image *img, uint32_t start, uint64_t end,
			    size_t *index, uint32_t *addr)
{
	if (!find_overlap(img, start, end, PFT_SPACE_ANY))
		return 0;
	*index = img->conflict_index;
	*addr = img->conflict_addr;
	img->has_conflict = 0;
	return 1;
}

/* Insert @sec, which overlaps nothing it may not. */
static int insert_new(struct pft_image *img, const struct pft_image_sec *sec)
{
	int sp = sec->space;
	size_t pos, n = img->nsecs;
	void *arr;
	int err;

	if (n >= UINT32_MAX || n >= INT_MAX)
		return -PFT_ERR_NOMEM;
	arr = img->secs;
	err = reserve(&arr, &img->cap_secs, n, sizeof(*img->secs));
	img->secs = arr;
	if (err < 0)
		return err;
	/* Each index array may need as many entries as there are sections. */
	if (img->cap_by_addr < img->cap_secs) {
		for (int s = 0; s < PFT_SPACE_COUNT; s++) {
			struct pft_image_slot *p =
				realloc(img->by_addr[s],
					img->cap_secs * sizeof(*p));
			if (!p)
				return -PFT_ERR_NOMEM;
			img->by_addr[s] = p;
		}
		img->cap_by_addr = img->cap_secs;
	}
	img->secs[n] = *sec;
	pos = (size_t)(last_at_or_before(img, sp, sec->start) + 1);
	memmove(&img->by_addr[sp][pos + 1], &img->by_addr[sp][pos],
		(img->nby_addr[sp] - pos) * sizeof(img->by_addr[sp][0]));
	img->by_addr[sp][pos].start = sec->start;
	img->by_addr[sp][pos].sec = (uint32_t)n;
	img->nby_addr[sp]++;
	img->nsecs = n + 1;
	drop_cache(img);
	return (int)n;
}

/*
 * The same image given twice (one file as --image twice, two cores' dumps
 * of one memory, an ELF and the dump of its code): whether every section
 * that @sec meets holds the same bytes where they meet, and serves every
 * request @sec would serve there (its space, or ANY), so that leaving
 * those bytes of @sec out changes no read.
 */
static int same_where_they_meet(const struct pft_image *img, const struct pft_image_sec *sec)
{
	uint64_t end = sec_end(sec);

	for (const int *s = serving_spaces(sec->space); *s >= 0; s++) {
		ptrdiff_t i = last_at_or_before(img, *s, sec->start);

		if (i < 0 || !sec_covers(&img->secs[img->by_addr[*s][i].sec], sec->start))
			i++;
		for (; (size_t)i < img->nby_addr[*s]; i++) {
			const struct pft_image_sec *o = &img->secs[img->by_addr[*s][i].sec];
			if (o->start >= end)
				break;
			if (o->space != PFT_SPACE_ANY && o->space != sec->space)
				return 0;
			uint32_t from = o->start > sec->start ? o->start : sec->start;
			uint64_t to = sec_end(o) < end ? sec_end(o) : end;
			if (memcmp(sec->data + (from - sec->start), o->data + (from - o->start),
				   (size_t)(to - from)))
				return 0;
		}
	}
	return 1;
}

int pft_image_insert(struct pft_image *img, const struct pft_image_sec *sec)
{
	uint64_t end = sec_end(sec), cur = sec->start;
	int first = -1;

	if (!find_overlap(img, sec->start, end, sec->space))
		return insert_new(img, sec);
	if (!same_where_they_meet(img, sec))
		return -PFT_ERR_BAD_CONFIG;   /* pft_image_conflict() says where */
	img->has_conflict = 0;
	/* The bytes there are the same: add only the addresses nothing
	 * covers yet. */
	while (cur < end) {
		const struct pft_image_sec *there = find(img, (uint32_t)cur, sec->space);
		if (there) {
			cur = sec_end(there);
			continue;
		}
		uint64_t stop = next_start(img, (uint32_t)cur, sec->space);
		struct pft_image_sec piece = *sec;
		piece.start = (uint32_t)cur;
		piece.size = (stop < end ? stop : end) - cur;
		piece.data = sec->data + (cur - sec->start);
		piece.file_offset += cur - sec->start;
		int r = insert_new(img, &piece);
		if (r < 0)
			return r;
		if (first < 0)
			first = r;
		cur += piece.size;
	}
	if (first < 0)   /* all there: the section holding its first byte */
		first = (int)(find(img, sec->start, sec->space) - img->secs);
	return first;
}

/* Checks shared by the add functions. */
static int check_range(uint32_t vaddr, uint64_t len, enum pft_mem_space space)
{
	if (!space_ok(space) || len == 0 || len > PFT_ADDR_SPACE_END - vaddr)
		return -PFT_ERR_INVALID;
	return 0;
}

/* Insert a section whose bytes (if @blob, owned) and path are adopted now;
 * undone completely on failure. */
static int add_owned(struct pft_image *img, struct pft_image_sec *sec,
		     void *blob, const char *path)
{
	struct pft_image_mark mark = pft_image_mark(img);
	int ret = blob ? pft_image_adopt(img, blob) : 0;

	if (ret >= 0)
		ret = pft_image_adopt_string(img, path, &sec->path);
	if (ret >= 0)
		ret = pft_image_insert(img, sec);
	/* Failed, or every byte was there already: nothing of it is kept. */
	if (ret < 0 || (size_t)ret < mark.nsecs)
		pft_image_rollback(img, mark);
	return ret;
}

/* add_owned() for a section of plain memory (no ELF segment) of @len
 * bytes at @vaddr in @space; @sec has its data (and file offset). */
static int add_plain(struct pft_image *img, struct pft_image_sec *sec, uint32_t vaddr,
		     size_t len, enum pft_mem_space space, void *blob, const char *path)
{
	sec->start = vaddr;
	sec->size = len;
	sec->space = space;
	sec->elf_segment = -1;
	return add_owned(img, sec, blob, path);
}

int pft_image_add_buffer(struct pft_image *img, uint32_t vaddr,
			 const uint8_t *buf, size_t len,
			 enum pft_mem_space space, unsigned flags)
{
	struct pft_image_sec sec = { 0 };
	void *copy = NULL;
	int err;

	err = pft_image_begin_add(img, buf);
	if (err < 0)
		return err;
	if (flags & ~(unsigned)PFT_IMAGE_COPY)
		return -PFT_ERR_INVALID;
	err = check_range(vaddr, len, space);
	if (err < 0)
		return err;
	sec.data = buf;
	if (flags & PFT_IMAGE_COPY) {
		copy = malloc(len);
		if (!copy)
			return -PFT_ERR_NOMEM;
		memcpy(copy, buf, len);
		sec.data = copy;
	}
	return add_plain(img, &sec, vaddr, len, space, copy, NULL);
}

/* ---- Files ---- */

static int read_fully(int fd, uint8_t *buf, size_t len, uint64_t offset)
{
	while (len) {
		size_t chunk = len > (1u << 30) ? (1u << 30) : len;
		ssize_t n = pread(fd, buf, chunk, (off_t)offset);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -PFT_ERR_BAD_FILE;
		buf += n;
		len -= (size_t)n;
		offset += (uint64_t)n;
	}
	return 0;
}

int pft_image_begin_add(struct pft_image *img, const void *arg)
{
	if (!img)
		return -PFT_ERR_INVALID;
	img->has_conflict = 0;
	return arg ? 0 : -PFT_ERR_INVALID;
}

int pft_image_begin_read(struct pft_image *img, const char *path, uint64_t offset,
			 uint64_t size, uint8_t **out, size_t *out_len)
{
	int err = pft_image_begin_add(img, path);

	return err < 0 ? err : pft_image_load_file(path, offset, size, out, out_len);
}

int pft_image_load_file(const char *path, uint64_t offset, uint64_t size,
		     uint8_t **out, size_t *out_len)
{
	struct stat st;
	uint64_t fsize;
	uint8_t *buf;
	int fd, err;

	/* Non-blocking: opening a FIFO must not wait for a writer; the
	 * regular-file check below then refuses it. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -PFT_ERR_BAD_FILE;
	err = -PFT_ERR_BAD_FILE;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0)
		goto out;
	fsize = (uint64_t)st.st_size;
	if (offset >= fsize || size > fsize - offset)
		goto out;
	if (size == 0)
		size = fsize - offset;
	err = -PFT_ERR_NOMEM;
	if (size > SIZE_MAX || offset > (uint64_t)INT64_MAX)
		goto out;
	buf = malloc((size_t)size);
	if (!buf)
		goto out;
	err = read_fully(fd, buf, (size_t)size, offset);
	if (err < 0) {
		free(buf);
		goto out;
	}
	*out = buf;
	*out_len = (size_t)size;
out:
	close(fd);
	return err;
}

int pft_image_add_file(struct pft_image *img, const char *path,
		       uint64_t file_offset, uint64_t size, uint32_t vaddr,
		       enum pft_mem_space space)
{
	struct pft_image_sec sec = { 0 };
	uint8_t *buf;
	size_t len;
	int err;

	/* Range checks before reading: a known size must fit. */
	err = check_range(vaddr, size ? size : 1, space);
	if (err < 0)
		return err;
	err = pft_image_begin_read(img, path, file_offset, size, &buf, &len);
	if (err < 0)
		return err;
	err = check_range(vaddr, len, space);
	if (err < 0) {
		free(buf);
		return err;
	}
	sec.data = buf;
	sec.file_offset = file_offset;
	return add_plain(img, &sec, vaddr, len, space, buf, path);
}

/* ---- Enumeration ---- */

int pft_image_section(const struct pft_image *img, size_t index,
		      struct pft_image_section_info *info, size_t size)
{
	struct pft_image_section_info full;
	const struct pft_image_sec *sec;

	if (!img || !info || size < sizeof(*info))
		return -PFT_ERR_INVALID;
	if (index >= img->nsecs)
		return -PFT_ERR_EOS;
	sec = &img->secs[index];
	memset(&full, 0, sizeof(full));
	full.vaddr = sec->start;
	full.length = sec->size;
	full.space = sec->space;
	full.path = sec->path;
	full.file_offset = sec->file_offset;
	full.elf_segment = sec->elf_segment;
	memcpy(info, &full, size < sizeof(full) ? size : sizeof(full));
	return 0;
}

int pft_image_conflict(const struct pft_image *img, size_t *index,
		       uint32_t *addr)
{
	if (!img || !index || !addr)
		return -PFT_ERR_INVALID;
	if (!img->has_conflict)
		return -PFT_ERR_NOT_FOUND;
	*index = img->conflict_index;
	*addr = img->conflict_addr;
	return 0;
}

/* ---- Symbols ---- */

int pft_image_name_cmp(const char *a, const char *b)
{
	return strcmp(a, b);
}

int pft_image_cmp_sym(const void *a, const void *b)
{
	const struct pft_image_sym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return pft_image_name_cmp(x->name, y->name);
}

int pft_image_cmp_isa(const void *a, const void *b)
{
	const struct pft_image_isa_region *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

/* A new array holding @old and @add, sorted; NULL when out of memory. */
static void *merged(const void *old, size_t nold, const void *add,
		    size_t nadd, size_t elem,
		    int (*cmp)(const void *, const void *))
{
	size_t n = nold + nadd;
	char *p;

	if (n > SIZE_MAX / elem)
		return NULL;
	p = malloc(n ? n * elem : 1);
	if (!p)
		return NULL;
	if (nold)
		memcpy(p, old, nold * elem);
	if (nadd)
		memcpy(p + nold * elem, add, nadd * elem);
	qsort(p, n, elem, cmp);
	return p;
}

int pft_image_merge_symbols(struct pft_image *img,
			    const struct pft_image_sym *syms, size_t n,
			    const struct pft_image_isa_region *isa, size_t nisa)
{
	struct pft_image_sym *s;
	struct pft_image_isa_region *r;

	s = merged(img->syms, img->nsyms, syms, n, sizeof(*s),
		   pft_image_cmp_sym);
	if (!s)
		return -PFT_ERR_NOMEM;
	r = merged(img->isa, img->nisa, isa, nisa, sizeof(*r),
		   pft_image_cmp_isa);
	if (!r) {
		free(s);
		return -PFT_ERR_NOMEM;
	}
	free(img->syms);
	free(img->isa);
	img->syms = s;
	img->nsyms += n;
	img->isa = r;
	img->nisa += nisa;
	for (size_t i = 0; i < img->nsyms; i++) {
		uint64_t before = i && s[i - 1].start == s[i].start ? s[i - 1].reach : 0;

		s[i].reach = s[i].end > before ? s[i].end : before;
	}
	return 0;
}

/* The first index in [@lo, @hi) whose symbol starts above @addr (@hi if
 * none). */
static size_t first_above(const struct pft_image *img, size_t lo, size_t hi,
			  uint32_t addr)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (img->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The index of the symbol that covers @addr, or -1; *@next gets the index
 * of the first symbol starting after it.  Bound: three binary searches,
 * O(log nsyms) whatever the number of symbols sharing a start
 * (test_image.c's symbols_same_start checks a million of them).
 */
static long find_symbol(const struct pft_image *img, uint32_t addr,
			size_t *next)
{
	size_t hi = first_above(img, 0, img->nsyms, addr), lo, first;

	*next = hi;
	if (hi == 0)
		return -1;
	/* The symbols at the candidate start: [first, hi). */
	uint32_t start = img->syms[hi - 1].start;
	first = start ? first_above(img, 0, hi - 1, start - 1) : 0;
	/* Of those (best rank first), the first that reaches @addr: the
	 * first whose reach passes @addr, reach being non-decreasing. */
	lo = first;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (img->syms[mid].reach > addr)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo < *next ? (long)lo : -1;
}

int pft_image_symbolize(const struct pft_image *img, uint32_t addr,
			const char **name, uint32_t *offset)
{
	size_t next;

	if (!img || !name)
		return -PFT_ERR_INVALID;
	long i = find_symbol(img, addr, &next);
	if (i < 0)
		return -PFT_ERR_NOMAP;
	*name = img->syms[i].name;
	if (offset)
		*offset = addr - img->syms[i].start;
	return 0;
}

int pft_image_symbol_at(const struct pft_image *img, uint32_t addr,
			struct pft_image_symbol *sym, size_t size)
{
	struct pft_image_symbol s = { 0 };
	size_t next;

	if (!img || !sym || size < PFT_FIRST_SIZE(struct pft_image_symbol))
		return -PFT_ERR_INVALID;
	long i = find_symbol(img, addr, &next);
	if (i < 0)
		return -PFT_ERR_NOMAP;
	s.name = img->syms[i].name;
	s.start = img->syms[i].start;
	s.end = img->syms[i].end;
	/* As pft_image_symbolize() sees it: a later symbol takes over. */
	if (next < img->nsyms && img->syms[next].start < s.end)
		s.end = img->syms[next].start;
	pft_copy_known(sym, &s, size, sizeof(s));
	return 0;
}

int pft_image_isa(const struct pft_image *img, uint32_t addr)
{
	size_t lo = 0, hi;

	if (!img)
		return -PFT_ERR_INVALID;
	hi = img->nisa;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (img->isa[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || img->isa[lo - 1].end <= addr)
		return -PFT_ERR_NOMAP;
	return (int)img->isa[lo - 1].isa;
}
