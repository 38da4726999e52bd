/* Tests of the image layer: buffers, files, memory spaces, overlaps,
 * callback memory, ELF loading and symbols.
 *
 * The ELF tests build tests/image/sample.S with arm-linux-gnueabihf-gcc
 * (installed by scripts/install-deps.sh) into a temporary directory.  The
 * expected bytes are the instruction encodings written next to each
 * instruction in sample.S, the addresses follow from tests/image/sample.ld
 * and the instruction sizes; segment file offsets and the full symbol list
 * are cross-checked against arm-linux-gnueabihf-readelf.
 */
#include "ptunit.h"
#include "pft.h"
#include "image/pft_elf.h"
#include "image/pft_image_int.h"

#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/pft-test-image-XXXXXX";
static char src_dir[1024];

static char *tmp_path(const char *name)
{
	static char paths[8][1200];
	static int next;
	char *p = paths[next++ % 8];

	snprintf(p, sizeof(paths[0]), "%s/%s", tmpdir, name);
	return p;
}

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	PTU_CHECK(f != NULL);
	if (!f)
		return;
	PTU_EQ(fwrite(data, 1, len, f), len);
	fclose(f);
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n > 0 ? (size_t)n : 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static struct pft_image *new_image(void)
{
	int err = -1;
	struct pft_image *img = pft_image_alloc(&err);

	PTU_CHECK(img != NULL);
	PTU_EQ(err, 0);
	return img;
}

static size_t section_count(const struct pft_image *img)
{
	struct pft_image_section_info info;
	size_t n = 0;

	while (pft_image_section(img, n, &info, sizeof(info)) == 0)
		n++;
	return n;
}

/* ---- Buffers ---- */

static void test_alloc_free(void)
{
	struct pft_image *img = pft_image_alloc(NULL);

	PTU_CHECK(img != NULL);
	pft_image_free(img);
	pft_image_free(NULL);
}

static void test_buffer_borrowed_and_copied(void)
{
	struct pft_image *img = new_image();
	uint8_t a[16], b[16], out[32];
	const uint8_t *p = NULL;

	for (int i = 0; i < 16; i++) {
		a[i] = (uint8_t)(0x10 + i);
		b[i] = (uint8_t)(0x80 + i);
	}
	PTU_EQ(pft_image_add_buffer(img, 0x1000, a, 16, PFT_SPACE_ANY, 0), 0);
	PTU_EQ(pft_image_add_buffer(img, 0x3000, b, 16, PFT_SPACE_ANY,
				    PFT_IMAGE_COPY), 1);

	PTU_EQ(pft_image_read(img, 0x1000, PFT_SPACE_ANY, out, 16), 16);
	PTU_CHECK(memcmp(out, a, 16) == 0);
	/* Short read at the section's end: 0x1008 .. 0x100f. */
	PTU_EQ(pft_image_read(img, 0x1008, PFT_SPACE_ANY, out, 32), 8);
	PTU_CHECK(memcmp(out, a + 8, 8) == 0);
	PTU_EQ(pft_image_read(img, 0x100f, PFT_SPACE_ANY, out, 4), 1);
	PTU_EQ(out[0], 0x1f);
	PTU_EQ(pft_image_read(img, 0x0fff, PFT_SPACE_ANY, out, 4),
	       -PFT_ERR_NOMAP);
	PTU_EQ(pft_image_read(img, 0x1010, PFT_SPACE_ANY, out, 4),
	       -PFT_ERR_NOMAP);

	/* A borrowed buffer is used in place... */
	PTU_EQ(pft_image_map(img, 0x1004, PFT_SPACE_ANY, &p), 12);
	PTU_CHECK(p == a + 4);
	a[4] = 0xee;
	PTU_EQ(pft_image_read(img, 0x1004, PFT_SPACE_ANY, out, 1), 1);
	PTU_EQ(out[0], 0xee);
	/* ...a copied one is not. */
	PTU_EQ(pft_image_map(img, 0x3000, PFT_SPACE_ANY, &p), 16);
	PTU_CHECK(p != b);
	b[0] = 0;
	PTU_EQ(p[0], 0x80);
	PTU_EQ(pft_image_read(img, 0x300f, PFT_SPACE_SECURE, out, 1), 1);
	PTU_EQ(out[0], 0x8f);
	pft_image_free(img);
}

static void test_adjacent_and_gaps(void)
{
	struct pft_image *img = new_image();
	static const uint8_t a[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static const uint8_t b[8] = { 11, 12, 13, 14, 15, 16, 17, 18 };
	static const uint8_t c[4] = { 21, 22, 23, 24 };
	uint8_t out[32];
	const uint8_t *p;

	PTU_EQ(pft_image_add_buffer(img, 0x2008, b, 8, PFT_SPACE_ANY, 0), 0);
	PTU_EQ(pft_image_add_buffer(img, 0x2000, a, 8, PFT_SPACE_ANY, 0), 1);
	PTU_EQ(pft_image_add_buffer(img, 0x2014, c, 4, PFT_SPACE_ANY, 0), 2);

	/* A read runs on through adjacent sections: 4 of a, then b. */
	PTU_EQ(pft_image_read(img, 0x2004, PFT_SPACE_ANY, out, 8), 8);
	PTU_EQ(out[0], 5);
	PTU_EQ(out[3], 8);
	PTU_EQ(out[4], 11);
	PTU_EQ(out[7], 14);
	/* ...and stops at the gap 0x2010 .. 0x2013. */
	PTU_EQ(pft_image_read(img, 0x2000, PFT_SPACE_ANY, out, 32), 16);
	PTU_EQ(out[15], 18);
	/* A map stops at the end of its own section. */
	PTU_EQ(pft_image_map(img, 0x2004, PFT_SPACE_ANY, &p), 4);
	PTU_EQ(p[0], 5);
	PTU_EQ(pft_image_map(img, 0x2010, PFT_SPACE_ANY, &p), -PFT_ERR_NOMAP);
	PTU_EQ(pft_image_map(img, 0x2017, PFT_SPACE_ANY, &p), 1);
	PTU_EQ(p[0], 24);
	PTU_EQ(pft_image_map(img, 0x2018, PFT_SPACE_ANY, &p), -PFT_ERR_NOMAP);

	/* Alternate between sections (exercises the last-hit cache). */
	for (int i = 0; i < 100; i++) {
		uint32_t addr = (i % 3 == 0) ? 0x2001 : (i % 3 == 1) ? 0x200a
								      : 0x2015;
		uint8_t want = (i % 3 == 0) ? 2 : (i % 3 == 1) ? 13 : 22;

		PTU_EQ(pft_image_read(img, addr, PFT_SPACE_ANY, out, 1), 1);
		PTU_EQ(out[0], want);
	}
	pft_image_free(img);
}

static void test_address_space_end(void)
{
	struct pft_image *img = new_image();
	uint8_t top[16], zero[4] = { 9, 9, 9, 9 }, out[64];

	for (int i = 0; i < 16; i++)
		top[i] = (uint8_t)i;
	/* 0xfffffff0 + 16 = 2^32: the last possible section. */
	PTU_EQ(pft_image_add_buffer(img, 0xfffffff0u, top, 16, PFT_SPACE_ANY,
				    0), 0);
	PTU_EQ(pft_image_add_buffer(img, 0xfffffff0u, top, 17, PFT_SPACE_SECURE,
				    0), -PFT_ERR_INVALID);
	PTU_EQ(pft_image_add_buffer(img, 0xffffffffu, top, 2, PFT_SPACE_SECURE,
				    0), -PFT_ERR_INVALID);
	PTU_EQ(pft_image_add_buffer(img, 0, zero, 4, PFT_SPACE_ANY, 0), 1);
	PTU_EQ(pft_image_read(img, 0xffffffffu, PFT_SPACE_ANY, out, 4), 1);
	PTU_EQ(out[0], 15);
	/* Reads never wrap round to address 0. */
	PTU_EQ(pft_image_read(img, 0xfffffff0u, PFT_SPACE_ANY, out, 64), 16);
	PTU_EQ(pft_image_read(img, 0, PFT_SPACE_ANY, out, 64), 4);
	PTU_EQ(out[3], 9);
	pft_image_free(img);
}

/* ---- Memory spaces and overlaps ---- */

static void test_spaces(void)
{
	struct pft_image *img = new_image();
	static const uint8_t s[4] = { 'S', 'S', 'S', 'S' };
	static const uint8_t n[4] = { 'N', 'N', 'N', 'N' };
	static const uint8_t any[4] = { 'A', 'A', 'A', 'A' };
	uint8_t out[4];
	size_t idx = 99;
	uint32_t at = 0;

	/* Secure and Non-secure memory may share addresses. */
	PTU_EQ(pft_image_add_buffer(img, 0x4000, s, 4, PFT_SPACE_SECURE, 0), 0);
	PTU_EQ(pft_image_add_buffer(img, 0x4000, n, 4, PFT_SPACE_NONSECURE, 0),
	       1);
	PTU_EQ(pft_image_read(img, 0x4000, PFT_SPACE_SECURE, out, 1), 1);
	PTU_EQ(out[0], 'S');
	PTU_EQ(pft_image_read(img, 0x4000, PFT_SPACE_NONSECURE, out, 1), 1);
	PTU_EQ(out[0], 'N');
	/* A request for ANY gets the Secure section (documented). */
	PTU_EQ(pft_image_read(img, 0x4000, PFT_SPACE_ANY, out, 1), 1);
	PTU_EQ(out[0], 'S');

	/* An ANY section may not share addresses with either. */
	PTU_EQ(pft_image_add_buffer(img, 0x4002, any, 4, PFT_SPACE_ANY, 0),
	       -PFT_ERR_BAD_CONFIG);
	PTU_EQ(pft_image_conflict(img, &idx, &at), 0);
	PTU_EQ(idx, 0);
	PTU_EQ(at, 0x4002);

	/* ANY memory serves every request. */
	PTU_EQ(pft_image_add_buffer(img, 0x5000, any, 4, PFT_SPACE_ANY, 0), 2);
	PTU_EQ(pft_image_conflict(img, &idx, &at), -PFT_ERR_NOT_FOUND);
	PTU_EQ(pft_image_read(img, 0x5001, PFT_SPACE_SECURE, out, 1), 1);
	PTU_EQ(out[0], 'A');
	PTU_EQ(pft_image_read(img, 0x5001, PFT_SPACE_NONSECURE, out, 1), 1);
	PTU_EQ(out[0], 'A');
	PTU_EQ(pft_image_add_buffer(img, 0x5003, s, 4, PFT_SPACE_SECURE, 0),
	       -PFT_ERR_BAD_CONFIG);
	PTU_EQ(pft_image_conflict(img, &idx, &at), 0);
	PTU_EQ(idx, 2);
	PTU_EQ(at, 0x5003);
	/* (Five bytes: where the bytes meet, they are compared.) */
	static const uint8_t n5[5] = { 'N', 'N', 'N', 'N', 'N' };
	PTU_EQ(pft_image_add_buffer(img, 0x4ffc, n5, 5, PFT_SPACE_NONSECURE, 0),
	       -PFT_ERR_BAD_CONFIG);
	PTU_EQ(pft_image_conflict(img, &idx, &at), 0);
	PTU_EQ(at, 0x5000);

	/* Secure-only memory does not serve Non-secure requests. */
	PTU_EQ(pft_image_add_buffer(img, 0x6000, s, 4, PFT_SPACE_SECURE, 0), 3);
	PTU_EQ(pft_image_read(img, 0x6000, PFT_SPACE_NONSECURE, out, 1),
	       -PFT_ERR_NOMAP);
	PTU_EQ(pft_image_read(img, 0x6000, PFT_SPACE_ANY, out, 1), 1);
	PTU_EQ(out[0], 'S');
	pft_image_free(img);
}

/* An ANY request finds Secure memory inside a Non-secure range it has just
 * read from (the cache must not hide the Secure section). */
static void test_any_request_prefers_secure(void)
{
	struct pft_image *img = new_image();
	uint8_t nbuf[0x20], sbuf[4] = { 'S', 'S', 'S', 'S' }, out[1];

	memset(nbuf, 'N', sizeof(nbuf));
	PTU_EQ(pft_image_add_buffer(img, 0x6ff0, nbuf, 0x20,
				    PFT_SPACE_NONSECURE, 0), 0);
	PTU_EQ(pft_image_add_buffer(img, 0x7000, sbuf, 4, PFT_SPACE_SECURE, 0),
	       1);
	PTU_EQ(pft_image_read(img, 0x6ff0, PFT_SPACE_ANY, out, 1), 1);
	PTU_EQ(out[0], 'N');
	PTU_EQ(pft_image_read(img, 0x7000, PFT_SPACE_ANY, out, 1), 1);
	PTU_EQ(out[0], 'S');
	PTU_EQ(pft_image_read(img, 0x7004, PFT_SPACE_ANY, out, 1), 1);
	PTU_EQ(out[0], 'N');
	PTU_EQ(pft_image_read(img, 0x7003, PFT_SPACE_NONSECURE, out, 1), 1);
	PTU_EQ(out[0], 'N');
	pft_image_free(img);
}

static void test_overlaps(void)
{
	struct pft_image *img = new_image();
	uint8_t base[16], other[0x2000], out[1];
	struct pft_image_section_info info;
	size_t idx = 99;
	uint32_t at = 0;

	memset(base, 0xbb, sizeof(base));
	memset(other, 0x0e, sizeof(other));
	PTU_EQ(pft_image_add_buffer(img, 0x7000, other, 4, PFT_SPACE_ANY, 0),
	       0);
	PTU_EQ(pft_image_add_buffer(img, 0x8000, base, 16, PFT_SPACE_SECURE, 0),
	       1);
	/* [0x800c, 0x8014) meets [0x8000, 0x8010) at 0x800c. */
	PTU_EQ(pft_image_add_buffer(img, 0x800c, other, 8, PFT_SPACE_SECURE, 0),
	       -PFT_ERR_BAD_CONFIG);
	PTU_EQ(pft_image_conflict(img, &idx, &at), 0);
	PTU_EQ(idx, 1);
	PTU_EQ(at, 0x800c);
	/* [0x7ff0, 0x8001) meets it at 0x8000. */
	PTU_EQ(pft_image_add_buffer(img, 0x7ff0, other, 0x11, PFT_SPACE_SECURE,
				    PFT_IMAGE_COPY), -PFT_ERR_BAD_CONFIG);
	PTU_EQ(pft_image_conflict(img, &idx, &at), 0);
	PTU_EQ(at, 0x8000);
	/* Inside, and around. */
	PTU_EQ(pft_image_add_buffer(img, 0x8004, other, 4, PFT_SPACE_SECURE, 0),
	       -PFT_ERR_BAD_CONFIG);
	PTU_EQ(pft_image_conflict(img, &idx, &at), 0);
	PTU_EQ(at, 0x8004);
	/* [0x6f00, 0x8f00) meets the ANY section first, at 0x7000. */
	PTU_EQ(pft_image_add_buffer(img, 0x6f00, other, 0x2000,
				    PFT_SPACE_SECURE, 0), -PFT_ERR_BAD_CONFIG);
	PTU_EQ(pft_image_conflict(img, &idx, &at), 0);
	PTU_EQ(idx, 0);
	PTU_EQ(at, 0x7000);
	/* Any later add, even a refused one, clears the record. */
	PTU_EQ(pft_image_add_buffer(img, 0x8004, NULL, 4, PFT_SPACE_SECURE, 0),
	       -PFT_ERR_INVALID);
	PTU_EQ(pft_image_conflict(img, &idx, &at), -PFT_ERR_NOT_FOUND);
	/* Nothing was added by the failures. */
	PTU_EQ(section_count(img), 2);
	PTU_EQ(pft_image_read(img, 0x7ff0, PFT_SPACE_SECURE, out, 1),
	       -PFT_ERR_NOMAP);

	/* Touching is not overlapping. */
	PTU_EQ(pft_image_add_buffer(img, 0x8010, other, 16, PFT_SPACE_SECURE,
				    0), 2);
	PTU_EQ(pft_image_add_buffer(img, 0x7ff0, other, 16, PFT_SPACE_SECURE,
				    0), 3);
	PTU_EQ(pft_image_conflict(img, &idx, &at), -PFT_ERR_NOT_FOUND);
	/* The same range in the other space is fine. */
	PTU_EQ(pft_image_add_buffer(img, 0x7ff0, other, 0x40,
				    PFT_SPACE_NONSECURE, 0), 4);
	PTU_EQ(pft_image_section(img, 1, &info, sizeof(info)), 0);
	PTU_EQ(info.vaddr, 0x8000);
	PTU_EQ(info.length, 16);
	PTU_EQ(info.space, PFT_SPACE_SECURE);
	PTU_CHECK(info.path == NULL);
	PTU_EQ(info.elf_segment, -1);
	PTU_EQ(pft_image_section(img, 5, &info, sizeof(info)), -PFT_ERR_EOS);
	pft_image_free(img);
}

/* Random sections against a straightforward model of the documented rules:
 * two sections conflict when they share an address and their spaces are
 * equal or one is ANY; a request is served by its own space or ANY, and an
 * ANY request by any space, Secure before Non-secure. */
struct model_sec {
	uint32_t start, len;
	enum pft_mem_space space;
	int id;
};

static int spaces_clash(enum pft_mem_space a, enum pft_mem_space b)
{
	return a == b || a == PFT_SPACE_ANY || b == PFT_SPACE_ANY;
}

static int serves(enum pft_mem_space sec, enum pft_mem_space req)
{
	return sec == PFT_SPACE_ANY || req == PFT_SPACE_ANY || sec == req;
}

static uint32_t model_rnd(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

/* The same bytes at the same address are the same image: an add that
 * meets only such bytes adds what nothing covers yet, and fails where a
 * byte differs or the section there does not serve the same requests. */
static void test_same_bytes_twice(void)
{
	struct pft_image *img = new_image();
	uint8_t code[32], other[32], out[32];
	size_t idx = 99;
	uint32_t at = 0;

	for (int i = 0; i < 32; i++)
		code[i] = other[i] = (uint8_t)(0x40 + i);
	other[20] ^= 1;
	PTU_EQ(pft_image_add_buffer(img, 0x1000, code, 16, PFT_SPACE_ANY, 0), 0);
	/* Again, whole: nothing added, the index of the section there. */
	PTU_EQ(pft_image_add_buffer(img, 0x1000, code, 16, PFT_SPACE_ANY, PFT_IMAGE_COPY), 0);
	PTU_EQ(pft_image_conflict(img, &idx, &at), -PFT_ERR_NOT_FOUND);
	PTU_EQ(section_count(img), 1);
	/* A part of it, as a Secure dump: ANY memory serves Secure requests. */
	PTU_EQ(pft_image_add_buffer(img, 0x1004, code + 4, 8, PFT_SPACE_SECURE, 0), 0);
	PTU_EQ(section_count(img), 1);
	/* Longer: the same where they meet, the rest added. */
	PTU_EQ(pft_image_add_buffer(img, 0x1008, code + 8, 24, PFT_SPACE_ANY, 0), 1);
	PTU_EQ(section_count(img), 2);
	PTU_EQ(pft_image_read(img, 0x1000, PFT_SPACE_ANY, out, 32), 32);
	PTU_EQ(memcmp(out, code, 32), 0);
	/* One byte differs (0x1014): an overlap, nothing added. */
	PTU_EQ(pft_image_add_buffer(img, 0x1000, other, 32, PFT_SPACE_ANY, 0),
	       -PFT_ERR_BAD_CONFIG);
	PTU_EQ(pft_image_conflict(img, &idx, &at), 0);
	PTU_EQ(at, 0x1000);
	PTU_EQ(section_count(img), 2);
	/* Secure memory does not serve what an ANY section would (Non-secure
	 * requests): the same bytes are still an overlap. */
	PTU_EQ(pft_image_add_buffer(img, 0x3000, code, 8, PFT_SPACE_SECURE, 0), 2);
	PTU_EQ(pft_image_add_buffer(img, 0x3000, code, 8, PFT_SPACE_ANY, 0),
	       -PFT_ERR_BAD_CONFIG);
	PTU_EQ(pft_image_add_buffer(img, 0x3000, code, 8, PFT_SPACE_SECURE, 0), 2);
	PTU_EQ(section_count(img), 3);
	pft_image_free(img);
}

static void test_random_model(void)
{
	enum { N = 300 };
	static struct model_sec m[N];
	static uint8_t bytes[0x400];
	struct pft_image *img = new_image();
	uint32_t x = 2024;
	int nm = 0;

	for (int i = 0; i < N; i++) {
		struct model_sec c;
		uint32_t lowest = UINT32_MAX;
		int ret;
		size_t idx;
		uint32_t at;

		c.start = model_rnd(&x) % 0x8000;
		c.len = 1 + model_rnd(&x) % 0x100;
		c.space = (enum pft_mem_space)(model_rnd(&x) % 3);
		c.id = i;
		for (int j = 0; j < nm; j++) {
			uint32_t lo = c.start > m[j].start ? c.start : m[j].start;
			uint32_t hi_c = c.start + c.len, hi_m = m[j].start + m[j].len;

			if (spaces_clash(c.space, m[j].space) && lo < hi_c &&
			    lo < hi_m && lo < lowest)
				lowest = lo;
		}
		for (uint32_t k = 0; k < c.len; k++)
			bytes[k] = (uint8_t)(i * 7 + k);
		ret = pft_image_add_buffer(img, c.start, bytes, c.len, c.space,
					   PFT_IMAGE_COPY);
		if (lowest == UINT32_MAX) {
			PTU_EQ(ret, nm);
			m[nm++] = c;
			continue;
		}
		PTU_EQ(ret, -PFT_ERR_BAD_CONFIG);
		PTU_EQ(pft_image_conflict(img, &idx, &at), 0);
		PTU_EQ(at, lowest);
		PTU_CHECK(idx < (size_t)nm && at >= m[idx].start &&
			  at - m[idx].start < m[idx].len &&
			  spaces_clash(c.space, m[idx].space));
	}
	PTU_CHECK(nm > 50);
	for (int t = 0; t < 20000; t++) {
		uint32_t addr = model_rnd(&x) % 0x8200;
		enum pft_mem_space req = (enum pft_mem_space)(model_rnd(&x) % 3);
		const struct model_sec *want = NULL;
		const uint8_t *p = NULL;
		int ret;

		for (int j = 0; j < nm; j++) {
			if (addr < m[j].start || addr - m[j].start >= m[j].len ||
			    !serves(m[j].space, req))
				continue;
			/* Only an ANY request can see two: take the Secure. */
			if (!want || m[j].space == PFT_SPACE_SECURE)
				want = &m[j];
		}
		ret = pft_image_map(img, addr, req, &p);
		if (!want) {
			PTU_EQ(ret, -PFT_ERR_NOMAP);
			continue;
		}
		PTU_EQ(ret, want->start + want->len - addr);
		if (ret > 0)
			PTU_EQ(p[0], (uint8_t)(want->id * 7 + (addr - want->start)));
	}
	pft_image_free(img);
}

/* ---- Callback ---- */

struct cb_log {
	int calls;
	size_t last_len;
	uint32_t last_addr;
	enum pft_mem_space last_space;
	int overreport;   /* return more than asked */
};

/* Memory 0x9000 .. 0x90ff (and 0x100 .. 0x3ff) holds the low address byte. */
static int fake_memory(uint8_t *buf, size_t len, uint32_t addr,
		       enum pft_mem_space space, void *ctx)
{
	struct cb_log *log = ctx;
	size_t n = 0;

	log->calls++;
	log->last_len = len;
	log->last_addr = addr;
	log->last_space = space;
	while (n < len && ((addr + n >= 0x9000 && addr + n < 0x9100) ||
			   (addr + n >= 0x100 && addr + n < 0x400))) {
		buf[n] = (uint8_t)(addr + n);
		n++;
	}
	if (n && log->overreport)
		return (int)len + 100;
	return (int)n;
}

static void test_callback(void)
{
	struct pft_image *img = new_image();
	static const uint8_t sec[4] = { 0xa0, 0xa1, 0xa2, 0xa3 };
	struct cb_log log = { 0 };
	uint8_t out[0x40];
	const uint8_t *p;

	PTU_EQ(pft_image_add_buffer(img, 0x9010, sec, 4, PFT_SPACE_ANY, 0), 0);
	PTU_EQ(pft_image_map(img, 0x9000, PFT_SPACE_ANY, &p), -PFT_ERR_NOMAP);
	PTU_EQ(pft_image_set_callback(img, fake_memory, &log), 0);

	/* The callback is asked only up to the section at 0x9010. */
	PTU_EQ(pft_image_map(img, 0x9000, PFT_SPACE_NONSECURE, &p), 0x10);
	PTU_EQ(log.calls, 1);
	PTU_EQ(log.last_len, 0x10);
	PTU_EQ(log.last_addr, 0x9000);
	PTU_EQ(log.last_space, PFT_SPACE_NONSECURE);
	PTU_EQ(p[0], 0x00);
	PTU_EQ(p[15], 0x0f);

	/* A read joins callback memory, the section, callback memory. */
	PTU_EQ(pft_image_read(img, 0x9008, PFT_SPACE_ANY, out, 0x20), 0x20);
	PTU_EQ(out[0], 0x08);
	PTU_EQ(out[7], 0x0f);
	PTU_EQ(out[8], 0xa0);
	PTU_EQ(out[11], 0xa3);
	PTU_EQ(out[12], 0x14);
	PTU_EQ(out[0x1f], 0x27);
	/* It stops where the callback has nothing (0x9100). */
	PTU_EQ(pft_image_read(img, 0x90f0, PFT_SPACE_ANY, out, 0x40), 0x10);
	PTU_EQ(pft_image_read(img, 0x9100, PFT_SPACE_ANY, out, 4),
	       -PFT_ERR_NOMAP);

	/* Without a section ahead, one call supplies the scratch size; a
	 * Non-secure section does not limit a Secure request. */
	PTU_EQ(pft_image_add_buffer(img, 0x180, sec, 4, PFT_SPACE_NONSECURE,
				    0), 1);
	PTU_EQ(pft_image_map(img, 0x100, PFT_SPACE_SECURE, &p),
	       PFT_IMAGE_SCRATCH);
	PTU_EQ(log.last_len, PFT_IMAGE_SCRATCH);
	PTU_EQ(p[0x80], 0x80);
	PTU_EQ(pft_image_map(img, 0x100, PFT_SPACE_NONSECURE, &p), 0x80);
	PTU_EQ(log.last_len, 0x80);

	/* Claims beyond the asked length are cut to it. */
	log.overreport = 1;
	PTU_EQ(pft_image_map(img, 0x9000, PFT_SPACE_ANY, &p), 0x10);
	log.overreport = 0;

	/* Removing the callback. */
	PTU_EQ(pft_image_set_callback(img, NULL, NULL), 0);
	PTU_EQ(pft_image_map(img, 0x9000, PFT_SPACE_ANY, &p), -PFT_ERR_NOMAP);
	PTU_EQ(pft_image_read(img, 0x900e, PFT_SPACE_ANY, out, 8),
	       -PFT_ERR_NOMAP);
	pft_image_free(img);
}

/* ---- Argument errors ---- */

static void test_bad_arguments(void)
{
	struct pft_image *img = new_image();
	struct pft_image_section_info info;
	uint8_t buf[4] = { 0 };
	const uint8_t *p;
	const char *name;
	size_t idx;
	uint32_t at, off;

	PTU_EQ(pft_image_add_buffer(NULL, 0, buf, 4, PFT_SPACE_ANY, 0),
	       -PFT_ERR_INVALID);
	PTU_EQ(pft_image_add_buffer(img, 0, NULL, 4, PFT_SPACE_ANY, 0),
	       -PFT_ERR_INVALID);
	PTU_EQ(pft_image_add_buffer(img, 0, buf, 0, PFT_SPACE_ANY, 0),
	       -PFT_ERR_INVALID);
	PTU_EQ(pft_image_add_buffer(img, 0, buf, 4, (enum pft_mem_space)3, 0),
	       -PFT_ERR_INVALID);
	PTU_EQ(pft_image_add_buffer(img, 0, buf, 4, PFT_SPACE_ANY, 2),
	       -PFT_ERR_INVALID);
	PTU_EQ(pft_image_add_file(NULL, "x", 0, 0, 0, PFT_SPACE_ANY),
	       -PFT_ERR_INVALID);
	PTU_EQ(pft_image_add_file(img, NULL, 0, 0, 0, PFT_SPACE_ANY),
	       -PFT_ERR_INVALID);
	PTU_EQ(pft_image_add_file(img, "/etc/hostname", 0, 0, 0,
				  (enum pft_mem_space)7), -PFT_ERR_INVALID);
	PTU_EQ(pft_image_add_elf(NULL, "x", 0), -PFT_ERR_INVALID);
	PTU_EQ(pft_image_add_elf(img, NULL, 0), -PFT_ERR_INVALID);
	PTU_EQ(pft_image_set_callback(NULL, NULL, NULL), -PFT_ERR_INVALID);
	PTU_EQ(section_count(img), 0);

	PTU_EQ(pft_image_add_buffer(img, 0, buf, 4, PFT_SPACE_ANY, 0), 0);
	PTU_EQ(pft_image_read(NULL, 0, PFT_SPACE_ANY, buf, 4), -PFT_ERR_INVALID);
	PTU_EQ(pft_image_read(img, 0, PFT_SPACE_ANY, NULL, 4), -PFT_ERR_INVALID);
	PTU_EQ(pft_image_read(img, 0, PFT_SPACE_ANY, buf, 0), -PFT_ERR_INVALID);
	PTU_EQ(pft_image_read(img, 0, (enum pft_mem_space)3, buf, 4),
	       -PFT_ERR_INVALID);
	PTU_EQ(pft_image_map(NULL, 0, PFT_SPACE_ANY, &p), -PFT_ERR_INVALID);
	PTU_EQ(pft_image_map(img, 0, PFT_SPACE_ANY, NULL), -PFT_ERR_INVALID);
	PTU_EQ(pft_image_map(img, 0, (enum pft_mem_space)-1, &p),
	       -PFT_ERR_INVALID);
	PTU_EQ(pft_image_section(NULL, 0, &info, sizeof(info)),
	       -PFT_ERR_INVALID);
	PTU_EQ(pft_image_section(img, 0, NULL, sizeof(info)), -PFT_ERR_INVALID);
	PTU_EQ(pft_image_section(img, 0, &info, 0), -PFT_ERR_INVALID);
	PTU_EQ(pft_image_conflict(NULL, &idx, &at), -PFT_ERR_INVALID);
	PTU_EQ(pft_image_conflict(img, NULL, &at), -PFT_ERR_INVALID);
	PTU_EQ(pft_image_conflict(img, &idx, NULL), -PFT_ERR_INVALID);
	PTU_EQ(pft_image_conflict(img, &idx, &at), -PFT_ERR_NOT_FOUND);
	PTU_EQ(pft_image_symbolize(NULL, 0, &name, &off), -PFT_ERR_INVALID);
	PTU_EQ(pft_image_symbolize(img, 0, NULL, &off), -PFT_ERR_INVALID);
	PTU_EQ(pft_image_symbolize(img, 0, &name, NULL), -PFT_ERR_NOMAP);
	PTU_EQ(pft_image_isa(NULL, 0), -PFT_ERR_INVALID);
	PTU_EQ(pft_image_isa(img, 0), -PFT_ERR_NOMAP);

	/* The info struct has a single layout: a smaller size is refused
	 * and nothing is written. */
	memset(&info, 0xaa, sizeof(info));
	PTU_EQ(pft_image_add_buffer(img, 0x12345678, buf, 4, PFT_SPACE_ANY, 0),
	       1);
	PTU_EQ(pft_image_section(img, 1, &info, sizeof(info) - 1), -PFT_ERR_INVALID);
	PTU_EQ(info.vaddr, 0xaaaaaaaa);
	PTU_EQ(pft_image_section(img, 1, &info, sizeof(info)), 0);
	PTU_EQ(info.vaddr, 0x12345678);
	pft_image_free(img);
}

/* ---- Files ---- */

static void test_files(void)
{
	struct pft_image *img = new_image();
	struct pft_image_section_info info;
	uint8_t data[64], out[64];
	char *path = tmp_path("dump.bin"), *empty = tmp_path("empty.bin");
	size_t idx;
	uint32_t at;

	for (int i = 0; i < 64; i++)
		data[i] = (uint8_t)(i * 3);
	write_file(path, data, sizeof(data));
	write_file(empty, data, 0);

	PTU_EQ(pft_image_add_file(img, path, 0, 0, 0x10000, PFT_SPACE_ANY), 0);
	PTU_EQ(pft_image_add_file(img, path, 16, 8, 0x20000,
				  PFT_SPACE_NONSECURE), 1);
	PTU_EQ(pft_image_add_file(img, path, 16, 48, 0x30000, PFT_SPACE_SECURE),
	       2);
	/* The file is read when added: changing it later changes nothing. */
	memset(out, 0, sizeof(out));
	write_file(path, out, sizeof(out));

	PTU_EQ(pft_image_read(img, 0x10000, PFT_SPACE_ANY, out, 64), 64);
	PTU_EQ(out[0], 0);
	PTU_EQ(out[63], 189);
	PTU_EQ(pft_image_read(img, 0x20000, PFT_SPACE_NONSECURE, out, 64), 8);
	PTU_EQ(out[0], 48);
	PTU_EQ(out[7], 69);
	PTU_EQ(pft_image_read(img, 0x3002f, PFT_SPACE_SECURE, out, 64), 1);
	PTU_EQ(out[0], 189);

	PTU_EQ(pft_image_section(img, 1, &info, sizeof(info)), 0);
	PTU_EQ(info.vaddr, 0x20000);
	PTU_EQ(info.length, 8);
	PTU_EQ(info.space, PFT_SPACE_NONSECURE);
	PTU_STREQ(info.path, path);
	PTU_CHECK(info.path != path);
	PTU_EQ(info.file_offset, 16);
	PTU_EQ(info.elf_segment, -1);

	/* Overlap with the first dump. */
	PTU_EQ(pft_image_add_file(img, path, 0, 4, 0x1003e, PFT_SPACE_ANY),
	       -PFT_ERR_BAD_CONFIG);
	PTU_EQ(pft_image_conflict(img, &idx, &at), 0);
	PTU_EQ(idx, 0);
	PTU_EQ(at, 0x1003e);

	/* File errors. */
	PTU_EQ(pft_image_add_file(img, path, 64, 0, 0x40000, PFT_SPACE_ANY),
	       -PFT_ERR_BAD_FILE);
	PTU_EQ(pft_image_add_file(img, path, 1000, 0, 0x40000, PFT_SPACE_ANY),
	       -PFT_ERR_BAD_FILE);
	PTU_EQ(pft_image_add_file(img, path, 16, 49, 0x40000, PFT_SPACE_ANY),
	       -PFT_ERR_BAD_FILE);
	PTU_EQ(pft_image_add_file(img, empty, 0, 0, 0x40000, PFT_SPACE_ANY),
	       -PFT_ERR_BAD_FILE);
	PTU_EQ(pft_image_add_file(img, tmp_path("missing.bin"), 0, 0, 0x40000,
				  PFT_SPACE_ANY), -PFT_ERR_BAD_FILE);
	PTU_EQ(pft_image_add_file(img, tmpdir, 0, 0, 0x40000, PFT_SPACE_ANY),
	       -PFT_ERR_BAD_FILE);
	/* 64 bytes do not fit below 2^32 from 0xffffffe0. */
	PTU_EQ(pft_image_add_file(img, path, 0, 0, 0xffffffe0u, PFT_SPACE_ANY),
	       -PFT_ERR_INVALID);
	PTU_EQ(pft_image_add_file(img, path, 0, 33, 0xffffffe0u, PFT_SPACE_ANY),
	       -PFT_ERR_INVALID);
	PTU_EQ(pft_image_add_file(img, path, 0, 32, 0xffffffe0u, PFT_SPACE_ANY),
	       3);
	PTU_EQ(section_count(img), 4);
	pft_image_free(img);
}

/* The trace_cov_a15 snapshot's [dump1] and [dump2] are adjacent: 632 bytes
 * at 0x80000000, then RO_CODE at 0x80000278 (0x278 = 632). */
static void test_snapshot_dumps(void)
{
	const char *shared = getenv("PFT_SHARED");
	char vec[1200], code[1200];
	struct pft_image *img;
	uint8_t out[8], *raw;
	size_t len;

	if (!shared)
		shared = "/work/shared";
	snprintf(vec, sizeof(vec), "%s/testdata/opencsd-snapshots/"
		 "trace_cov_a15/mem_Cortex-A15_0_0_VECTORS.bin", shared);
	snprintf(code, sizeof(code), "%s/testdata/opencsd-snapshots/"
		 "trace_cov_a15/mem_Cortex-A15_0_1_RO_CODE.bin", shared);
	raw = slurp(code, &len);
	PTU_CHECK(raw != NULL);
	if (!raw)
		return;
	img = new_image();
	PTU_EQ(pft_image_add_file(img, vec, 0, 0, 0x80000000u,
				  PFT_SPACE_SECURE), 0);
	PTU_EQ(pft_image_add_file(img, code, 0, 0, 0x80000278u,
				  PFT_SPACE_SECURE), 1);
	/* The last 4 vector bytes, then the first 4 code bytes. */
	PTU_EQ(pft_image_read(img, 0x80000274u, PFT_SPACE_SECURE, out, 8), 8);
	PTU_CHECK(memcmp(out + 4, raw, 4) == 0);
	PTU_EQ(pft_image_read(img, 0x80000278u + (uint32_t)len - 2,
			      PFT_SPACE_SECURE, out, 8), 2);
	PTU_EQ(pft_image_read(img, 0x80000000u, PFT_SPACE_NONSECURE, out, 4),
	       -PFT_ERR_NOMAP);
	free(raw);
	pft_image_free(img);
}

/* ---- ELF ---- */

static char elf_exec[1200], elf_dyn[1200], elf_stripped[1200], elf_obj[1200];
static int have_elves;

static int run(const char *cmd)
{
	int rc = system(cmd);

	if (rc != 0)
		fprintf(stderr, "command failed (%d): %s\n", rc, cmd);
	return rc;
}

static void build_elves(void)
{
	char cmd[16384];
	const char *cc = "arm-linux-gnueabihf-gcc -nostdlib -Wl,--build-id=none";

	snprintf(elf_exec, sizeof(elf_exec), "%s", tmp_path("sample.elf"));
	snprintf(elf_dyn, sizeof(elf_dyn), "%s", tmp_path("sample.so"));
	snprintf(elf_stripped, sizeof(elf_stripped), "%s",
		 tmp_path("sample-stripped.so"));
	snprintf(elf_obj, sizeof(elf_obj), "%s", tmp_path("sample.o"));
	snprintf(cmd, sizeof(cmd),
		 "%s -static -Wl,-T,%s/tests/image/sample.ld -o %s "
		 "%s/tests/image/sample.S && "
		 "%s -shared -Wl,-T,%s/tests/image/sample.ld -o %s "
		 "%s/tests/image/sample.S && "
		 "arm-linux-gnueabihf-strip -o %s %s && "
		 "arm-linux-gnueabihf-gcc -c -o %s %s/tests/image/sample.S",
		 cc, src_dir, elf_exec, src_dir, cc, src_dir, elf_dyn, src_dir,
		 elf_stripped, elf_dyn, elf_obj, src_dir);
	have_elves = run(cmd) == 0;
	PTU_CHECK(have_elves);
}

/* The bytes of sample.S's .text, from the encodings in its comments. */
static const uint8_t sample_text[0x1c] = {
	0x01, 0x00, 0xa0, 0xe3, 0x1e, 0xff, 0x2f, 0xe1, /* _start */
	0x01, 0x00, 0x80, 0xe0, 0x1e, 0xff, 0x2f, 0xe1, /* arm_func */
	0xef, 0xbe, 0xad, 0xde,                         /* literal */
	0x40, 0x18, 0x70, 0x47,                         /* thumb_func */
	0x02, 0x20, 0x70, 0x47                          /* thumb_label */
};

/* PT_LOAD facts from readelf -lW: offset, vaddr, filesz. */
struct load_fact {
	uint64_t offset, vaddr, filesz;
};

static size_t readelf_loads(const char *path, struct load_fact *f,
			    size_t max)
{
	char cmd[1400], line[512];
	size_t n = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "arm-linux-gnueabihf-readelf -lW %s", path);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	while (fgets(line, sizeof(line), p)) {
		unsigned long long off, va, pa, fs;

		if (n < max && sscanf(line, " LOAD %llx %llx %llx %llx", &off,
				      &va, &pa, &fs) == 4) {
			f[n].offset = off;
			f[n].vaddr = va;
			f[n].filesz = fs;
			n++;
		}
	}
	pclose(p);
	return n;
}

static void check_sample_text(struct pft_image *img, uint32_t base)
{
	uint8_t out[sizeof(sample_text)];

	PTU_EQ(pft_image_read(img, base, PFT_SPACE_ANY, out, sizeof(out)),
	       sizeof(out));
	PTU_CHECK(memcmp(out, sample_text, sizeof(sample_text)) == 0);
}

static void check_sym(struct pft_image *img, uint32_t addr, const char *want,
		      uint32_t want_off)
{
	const char *name = NULL;
	uint32_t off = 0xffffffff;

	PTU_EQ(pft_image_symbolize(img, addr, &name, &off), 0);
	PTU_STREQ(name, want);
	PTU_EQ(off, want_off);

	/* pft_image_symbol_at names the same symbol, with its extent. */
	struct pft_image_symbol sym = { 0 };
	PTU_EQ(pft_image_symbol_at(img, addr, &sym, sizeof(sym)), 0);
	PTU_STREQ(sym.name, want);
	PTU_EQ(sym.start, addr - want_off);
	PTU_CHECK(sym.end > addr);
}

static void test_elf_exec(void)
{
	struct pft_image *img;
	struct pft_image_section_info info;
	struct load_fact loads[4];
	uint8_t out[8];
	const char *name;

	if (!have_elves)
		return;
	img = new_image();
	PTU_EQ(pft_image_add_elf(img, elf_exec, 0), 2);
	check_sample_text(img, 0x10000);
	PTU_EQ(pft_image_read(img, 0x10000, PFT_SPACE_ANY, out, 8), 8);
	PTU_EQ(pft_image_read(img, 0x10018, PFT_SPACE_ANY, out, 8), 4);
	PTU_EQ(pft_image_read(img, 0x20000, PFT_SPACE_SECURE, out, 8), 4);
	PTU_EQ(out[0], 42);
	PTU_EQ(out[1], 0);
	/* .bss (p_memsz beyond p_filesz) is not loaded. */
	PTU_EQ(pft_image_read(img, 0x20004, PFT_SPACE_ANY, out, 1),
	       -PFT_ERR_NOMAP);
	PTU_EQ(pft_image_read(img, 0x1001c, PFT_SPACE_ANY, out, 1),
	       -PFT_ERR_NOMAP);

	/* Sections are the PT_LOAD segments as readelf reports them. */
	PTU_EQ(readelf_loads(elf_exec, loads, 4), 2);
	for (size_t i = 0; i < 2; i++) {
		PTU_EQ(pft_image_section(img, i, &info, sizeof(info)), 0);
		PTU_EQ(info.vaddr, loads[i].vaddr);
		PTU_EQ(info.length, loads[i].filesz);
		PTU_EQ(info.file_offset, loads[i].offset);
		PTU_EQ(info.elf_segment, (int)i);
		PTU_EQ(info.space, PFT_SPACE_ANY);
		PTU_STREQ(info.path, elf_exec);
	}
	PTU_EQ(pft_image_section(img, 0, &info, sizeof(info)), 0);
	PTU_EQ(info.vaddr, 0x10000);
	PTU_EQ(info.length, 0x1c);

	/* Symbols (see the addresses in sample.S). */
	check_sym(img, 0x10000, "_start", 0);
	check_sym(img, 0x10007, "_start", 7);
	check_sym(img, 0x10008, "arm_func", 0);  /* not weak_alias */
	check_sym(img, 0x1000c, "arm_func", 4);
	check_sym(img, 0x10013, "literal", 3);   /* unsized: up to 0x10014 */
	check_sym(img, 0x10014, "thumb_func", 0); /* value 0x10015 */
	check_sym(img, 0x10017, "thumb_func", 3);
	check_sym(img, 0x1001b, "thumb_label", 3); /* unsized: to .text end */
	check_sym(img, 0x20000, "counter", 0);
	check_sym(img, 0x20013, "scratch", 15);   /* .bss symbols too */
	PTU_EQ(pft_image_symbolize(img, 0x1001c, &name, NULL), -PFT_ERR_NOMAP);
	PTU_EQ(pft_image_symbolize(img, 0x20014, &name, NULL), -PFT_ERR_NOMAP);
	PTU_EQ(pft_image_symbolize(img, 0xffff, &name, NULL), -PFT_ERR_NOMAP);
	/* Extents of the unsized symbols: up to the next symbol, or to the end
	 * of .text (0x1001c). */
	struct pft_image_symbol sym;
	PTU_EQ(pft_image_symbol_at(img, 0x10013, &sym, sizeof(sym)), 0);
	PTU_EQ(sym.end, 0x10014);
	PTU_EQ(pft_image_symbol_at(img, 0x1001b, &sym, sizeof(sym)), 0);
	PTU_EQ(sym.end, 0x1001c);
	PTU_EQ(pft_image_symbol_at(img, 0x1001c, &sym, sizeof(sym)), -PFT_ERR_NOMAP);
	PTU_EQ(pft_image_symbol_at(NULL, 0x10000, &sym, sizeof(sym)), -PFT_ERR_INVALID);
	PTU_EQ(pft_image_symbol_at(img, 0x10000, NULL, sizeof(sym)), -PFT_ERR_INVALID);
	PTU_EQ(pft_image_symbol_at(img, 0x10000, &sym, 0), -PFT_ERR_INVALID);

	/* ISA from mapping symbols: $a 0x10000, $d 0x10010, $t 0x10014, $d in
	 * .data and .bss. */
	PTU_EQ(pft_image_isa(img, 0x10000), PFT_ISA_ARM);
	PTU_EQ(pft_image_isa(img, 0x1000f), PFT_ISA_ARM);
	PTU_EQ(pft_image_isa(img, 0x10010), PFT_ISA_UNKNOWN);
	PTU_EQ(pft_image_isa(img, 0x10013), PFT_ISA_UNKNOWN);
	PTU_EQ(pft_image_isa(img, 0x10014), PFT_ISA_THUMB);
	PTU_EQ(pft_image_isa(img, 0x1001b), PFT_ISA_THUMB);
	PTU_EQ(pft_image_isa(img, 0x1001c), -PFT_ERR_NOMAP);
	PTU_EQ(pft_image_isa(img, 0x20000), PFT_ISA_UNKNOWN);
	PTU_EQ(pft_image_isa(img, 0x20013), PFT_ISA_UNKNOWN);
	PTU_EQ(pft_image_isa(img, 0x20014), -PFT_ERR_NOMAP);
	PTU_EQ(pft_image_isa(img, 0xfffc), -PFT_ERR_NOMAP);

	/* Loading it again at the same place: the same bytes, the same
	 * image; nothing is added, its symbols neither. */
	size_t nsyms = img->nsyms, nisa = img->nisa;
	PTU_EQ(pft_image_add_elf(img, elf_exec, 0), 2);
	PTU_EQ(section_count(img), 2);
	PTU_EQ(img->nsyms, nsyms);
	PTU_EQ(img->nisa, nisa);
	/* Moved by 2 bytes, its bytes meet different ones: an overlap. */
	PTU_EQ(pft_image_add_elf(img, elf_exec, 2), -PFT_ERR_BAD_CONFIG);
	PTU_EQ(section_count(img), 2);
	pft_image_free(img);
}

/* Every named symbol readelf lists is found at its address (Thumb bit
 * cleared for functions), under its own name or an alias at that address. */
static void test_elf_symbols_match_readelf(void)
{
	struct pft_image *img;
	char cmd[1400], line[512];
	int checked = 0;
	FILE *p;

	if (!have_elves)
		return;
	img = new_image();
	PTU_EQ(pft_image_add_elf(img, elf_exec, 0x100000), 2);
	snprintf(cmd, sizeof(cmd), "arm-linux-gnueabihf-readelf -sW %s",
		 elf_exec);
	p = popen(cmd, "r");
	PTU_CHECK(p != NULL);
	while (p && fgets(line, sizeof(line), p)) {
		unsigned num, value;
		unsigned long size;
		char type[32], bind[32], vis[32], ndx[32], sym[256];
		const char *name = NULL;
		uint32_t off = 1, addr;

		if (sscanf(line, " %u: %x %lu %31s %31s %31s %31s %255s", &num,
			   &value, &size, type, bind, vis, ndx, sym) != 8)
			continue;
		if (sym[0] == '$' || strcmp(ndx, "UND") == 0 ||
		    strcmp(ndx, "ABS") == 0 ||
		    (strcmp(type, "FUNC") && strcmp(type, "OBJECT") &&
		     strcmp(type, "NOTYPE")))
			continue;
		addr = 0x100000 + (strcmp(type, "FUNC") ? value : value & ~1u);
		PTU_EQ(pft_image_symbolize(img, addr, &name, &off), 0);
		PTU_EQ(off, 0);
		/* The global function wins over its weak alias. */
		PTU_STREQ(name, strcmp(sym, "weak_alias") ? sym : "arm_func");
		checked++;
	}
	if (p)
		pclose(p);
	/* _start arm_func weak_alias literal thumb_func thumb_label counter
	 * scratch */
	PTU_EQ(checked, 8);
	pft_image_free(img);
}

static void test_elf_bias(void)
{
	struct pft_image *img;
	const char *name;

	if (!have_elves)
		return;
	img = new_image();
	PTU_EQ(pft_image_add_elf(img, elf_exec, 0x40000000), 2);
	check_sample_text(img, 0x40010000);
	check_sym(img, 0x40010016, "thumb_func", 2);
	PTU_EQ(pft_image_isa(img, 0x40010014), PFT_ISA_THUMB);
	PTU_EQ(pft_image_symbolize(img, 0x10014, &name, NULL), -PFT_ERR_NOMAP);

	/* Down to address 0; one byte further is out of range. */
	PTU_EQ(pft_image_add_elf(img, elf_exec, -0x10000), 2);
	check_sample_text(img, 0);
	check_sym(img, 0x8, "arm_func", 0);
	PTU_EQ(pft_image_add_elf(img, elf_exec, -0x10001), -PFT_ERR_INVALID);
	/* .data would pass 2^32 (0x20000 + 0xfffe0000 = 2^32). */
	PTU_EQ(pft_image_add_elf(img, elf_exec, 0xfffe0000), -PFT_ERR_INVALID);
	PTU_EQ(pft_image_add_elf(img, elf_exec, INT64_MAX), -PFT_ERR_INVALID);
	PTU_EQ(pft_image_add_elf(img, elf_exec, INT64_MIN), -PFT_ERR_INVALID);
	PTU_EQ(section_count(img), 4);
	/* Both copies are named. */
	check_sym(img, 0x40010000, "_start", 0);
	check_sym(img, 0x40020000, "counter", 0);
	check_sym(img, 0x10000, "counter", 0);
	pft_image_free(img);
}

static void test_elf_shared_and_stripped(void)
{
	struct pft_image *img;
	struct load_fact loads[4];
	struct pft_image_section_info info;
	const char *name;

	if (!have_elves)
		return;
	img = new_image();
	PTU_EQ(pft_image_add_elf(img, elf_dyn, 0x100000), 2);
	check_sample_text(img, 0x110000);
	PTU_EQ(readelf_loads(elf_dyn, loads, 4), 2);
	for (size_t i = 0; i < 2; i++) {
		PTU_EQ(pft_image_section(img, i, &info, sizeof(info)), 0);
		PTU_EQ(info.vaddr, loads[i].vaddr + 0x100000);
		PTU_EQ(info.length, loads[i].filesz);
	}
	check_sym(img, 0x110015, "thumb_func", 1);
	check_sym(img, 0x110011, "literal", 1);   /* .symtab has locals */
	PTU_EQ(pft_image_isa(img, 0x110010), PFT_ISA_UNKNOWN);
	pft_image_free(img);

	/* Stripped: names from .dynsym (globals only); ISA from functions. */
	img = new_image();
	PTU_EQ(pft_image_add_elf(img, elf_stripped, 0), 2);
	check_sample_text(img, 0x10000);
	check_sym(img, 0x10016, "thumb_func", 2);
	check_sym(img, 0x10008, "arm_func", 0);
	PTU_EQ(pft_image_symbolize(img, 0x10011, &name, NULL), -PFT_ERR_NOMAP);
	PTU_EQ(pft_image_isa(img, 0x10000), PFT_ISA_ARM);
	PTU_EQ(pft_image_isa(img, 0x1000c), PFT_ISA_ARM);
	PTU_EQ(pft_image_isa(img, 0x10010), -PFT_ERR_NOMAP);
	PTU_EQ(pft_image_isa(img, 0x10014), PFT_ISA_THUMB);
	PTU_EQ(pft_image_isa(img, 0x10017), PFT_ISA_THUMB);
	PTU_EQ(pft_image_isa(img, 0x10018), -PFT_ERR_NOMAP);
	pft_image_free(img);
}

static void test_elf_overlap_is_all_or_nothing(void)
{
	struct pft_image *img;
	static const uint8_t word[4] = { 1, 2, 3, 4 };
	const char *name;
	size_t idx;
	uint32_t at;
	uint8_t out[4];

	if (!have_elves)
		return;
	img = new_image();
	/* In the way of .data (segment 1), not of .text (segment 0). */
	PTU_EQ(pft_image_add_buffer(img, 0x20002, word, 4, PFT_SPACE_NONSECURE,
				    0), 0);
	PTU_EQ(pft_image_add_elf(img, elf_exec, 0), -PFT_ERR_BAD_CONFIG);
	PTU_EQ(pft_image_conflict(img, &idx, &at), 0);
	PTU_EQ(idx, 0);
	PTU_EQ(at, 0x20002);
	PTU_EQ(section_count(img), 1);
	PTU_EQ(pft_image_read(img, 0x10000, PFT_SPACE_ANY, out, 4),
	       -PFT_ERR_NOMAP);
	PTU_EQ(pft_image_symbolize(img, 0x10000, &name, NULL), -PFT_ERR_NOMAP);
	PTU_EQ(pft_image_isa(img, 0x10000), -PFT_ERR_NOMAP);
	PTU_EQ(pft_image_read(img, 0x20002, PFT_SPACE_NONSECURE, out, 4), 4);
	PTU_EQ(out[0], 1);
	pft_image_free(img);
}

static void test_elf_not_supported(void)
{
	struct pft_image *img = new_image();
	char *rnd = tmp_path("random.bin"), *empty = tmp_path("empty.elf");
	uint8_t junk[4096];
	uint32_t x = 12345;

	for (size_t i = 0; i < sizeof(junk); i++) {
		x = x * 1103515245u + 12345u;
		junk[i] = (uint8_t)(x >> 16);
	}
	write_file(rnd, junk, sizeof(junk));
	write_file(empty, junk, 0);
	/* The host's /bin/true: an x86-64 ELF64. */
	PTU_EQ(pft_image_add_elf(img, "/bin/true", 0), -PFT_ERR_NOT_SUPPORTED);
	PTU_EQ(pft_image_add_elf(img, rnd, 0), -PFT_ERR_BAD_FILE);
	PTU_EQ(pft_image_add_elf(img, empty, 0), -PFT_ERR_BAD_FILE);
	PTU_EQ(pft_image_add_elf(img, tmp_path("nope.elf"), 0),
	       -PFT_ERR_BAD_FILE);
	PTU_EQ(pft_image_add_elf(img, tmpdir, 0), -PFT_ERR_BAD_FILE);
	if (have_elves)
		PTU_EQ(pft_image_add_elf(img, elf_obj, 0),
		       -PFT_ERR_NOT_SUPPORTED);  /* ET_REL */
	PTU_EQ(section_count(img), 0);
	pft_image_free(img);
}

/* A real ARM library from the cross toolchain (Debian armhf libc, mostly
 * Thumb-2, .symtab stripped): segment bytes equal the file bytes readelf
 * places there, and every .dynsym function and object is found at its
 * address with its ISA (Thumb bit) when sized. */
struct dynsym_fact {
	uint32_t addr;
	unsigned long size;
	int func, thumb;
	char name[256];
};

static size_t readelf_dynsyms(const char *path, struct dynsym_fact *f,
			      size_t max)
{
	char cmd[1400], line[1024];
	size_t n = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "arm-linux-gnueabihf-readelf -W --dyn-syms %s",
		 path);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	while (fgets(line, sizeof(line), p) && n < max) {
		unsigned num, value;
		char size[32], type[32], bind[32], vis[32], ndx[32], sym[256];
		char *at;

		if (sscanf(line, " %u: %x %31s %31s %31s %31s %31s %255s", &num,
			   &value, size, type, bind, vis, ndx, sym) != 8)
			continue;
		if (strcmp(ndx, "UND") == 0 || strcmp(ndx, "ABS") == 0 ||
		    (strcmp(type, "FUNC") && strcmp(type, "OBJECT")))
			continue;
		at = strchr(sym, '@');   /* the version is not in .dynstr */
		if (at)
			*at = '\0';
		f[n].func = strcmp(type, "FUNC") == 0;
		f[n].thumb = f[n].func && (value & 1);
		f[n].addr = f[n].func ? value & ~1u : value;
		f[n].size = strtoul(size, NULL, 0);
		snprintf(f[n].name, sizeof(f[n].name), "%s", sym);
		n++;
	}
	pclose(p);
	return n;
}

static int named_at(const struct dynsym_fact *f, size_t n, const char *name,
		    uint32_t addr)
{
	for (size_t i = 0; i < n; i++)
		if (f[i].addr == addr && strcmp(f[i].name, name) == 0)
			return 1;
	return 0;
}

static void test_elf_real_library(void)
{
	const char *lib = "/usr/arm-linux-gnueabihf/lib/libc.so.6";
	const uint32_t bias = 0x40000000;
	struct load_fact loads[8];
	struct dynsym_fact *syms = calloc(8192, sizeof(*syms));
	struct pft_image *img = new_image();
	size_t nloads, nsyms, len, thumb = 0;
	uint8_t *file = slurp(lib, &len), buf[4096];

	PTU_CHECK(file != NULL && syms != NULL);
	if (!file || !syms)
		goto out;
	nloads = readelf_loads(lib, loads, 8);
	PTU_CHECK(nloads >= 2);
	PTU_EQ(pft_image_add_elf(img, lib, bias), nloads);
	for (size_t i = 0; i < nloads; i++) {
		for (uint64_t done = 0; done < loads[i].filesz;) {
			uint32_t addr = (uint32_t)(loads[i].vaddr + done) + bias;
			int n = pft_image_read(img, addr, PFT_SPACE_ANY, buf,
					       sizeof(buf));
			size_t want = loads[i].filesz - done < sizeof(buf)
				      ? (size_t)(loads[i].filesz - done)
				      : sizeof(buf);

			/* Segments are not adjacent, so reads stop at the end. */
			PTU_EQ(n, want);
			if (n != (int)want)
				break;
			PTU_CHECK(memcmp(buf, file + loads[i].offset + done,
					 want) == 0);
			done += want;
		}
	}
	nsyms = readelf_dynsyms(lib, syms, 8192);
	PTU_CHECK(nsyms > 1000);
	for (size_t i = 0; i < nsyms; i++) {
		const char *name = NULL;
		uint32_t off = 1;

		PTU_EQ(pft_image_symbolize(img, syms[i].addr + bias, &name, &off),
		       0);
		PTU_EQ(off, 0);
		PTU_CHECK(name && named_at(syms, nsyms, name, syms[i].addr));
		if (syms[i].func && syms[i].size) {
			PTU_EQ(pft_image_isa(img, syms[i].addr + bias),
			       syms[i].thumb ? PFT_ISA_THUMB : PFT_ISA_ARM);
			thumb += syms[i].thumb;
		}
	}
	PTU_CHECK(thumb > 100);  /* Debian armhf is built for Thumb-2 */
out:
	free(file);
	free(syms);
	pft_image_free(img);
}

/* ---- Malformed ELF (patched copies of sample.elf, in memory) ---- */

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v & 0xffff);
	put16(p + 2, v >> 16);
}

/* Load a copy of @orig (patched by the caller in @copy) into a new image
 * and return the result. */
static int load_copy(const uint8_t *copy, size_t len)
{
	struct pft_image *img = new_image();
	uint8_t *buf = malloc(len ? len : 1);
	int ret;

	memcpy(buf, copy, len);
	ret = pft_elf_load(img, buf, len, 0, "copy");
	free(buf);
	pft_image_free(img);
	return ret;
}

/* ELF32 layout (hand-written from the ELF specification): e_type at 16,
 * e_machine 18, e_phoff 28, e_shoff 32, e_phnum 44, e_shnum 48.  A program
 * header is 32 bytes: p_type 0, p_offset 4, p_vaddr 8, p_filesz 16.  A
 * section header is 40 bytes: sh_type 4, sh_link 24, sh_offset 16.  A
 * symbol is 16 bytes: st_name 0, st_shndx 14. */
enum { PH0 = 52 };

static uint8_t *sh_of_type(uint8_t *elf, uint32_t type)
{
	uint32_t shoff = get32(elf + 32);
	unsigned shnum = elf[48] | elf[49] << 8;

	for (unsigned i = 0; i < shnum; i++)
		if (get32(elf + shoff + i * 40 + 4) == type)
			return elf + shoff + i * 40;
	return NULL;
}

/* Set the 16- (@at 14) or 32-bit field at @at of every symbol. */
static void patch_symbols(uint8_t *elf, unsigned at, uint32_t value)
{
	uint8_t *sh = sh_of_type(elf, 2);
	uint32_t off = get32(sh + 16), size = get32(sh + 20);

	for (uint32_t i = 16; i + 16 <= size; i += 16) {
		if (at == 14)
			put16(elf + off + i + at, value);
		else
			put32(elf + off + i + at, value);
	}
}

static void test_elf_malformed(void)
{
	uint8_t *orig, *c;
	size_t len;
	uint8_t *sh;

	if (!have_elves)
		return;
	orig = slurp(elf_exec, &len);
	PTU_CHECK(orig != NULL && len > 0x2000);
	if (!orig)
		return;
	c = malloc(len);
	PTU_EQ(get32(orig + 28), PH0);   /* program headers follow the header */
	PTU_EQ(get32(orig + PH0), 1);    /* PT_LOAD */

#define PATCHED(stmt, want)                                                   \
	do {                                                                  \
		memcpy(c, orig, len);                                         \
		stmt;                                                         \
		PTU_EQ(load_copy(c, len), want);                              \
	} while (0)

	PATCHED((void)0, 2);
	PATCHED(c[0] = 0x7e, -PFT_ERR_BAD_FILE);                 /* magic */
	PATCHED(c[4] = 0, -PFT_ERR_BAD_FILE);                    /* class */
	PATCHED(c[4] = 2, -PFT_ERR_NOT_SUPPORTED);               /* ELF64 */
	PATCHED(c[5] = 2, -PFT_ERR_NOT_SUPPORTED);               /* big-endian */
	PATCHED(put16(c + 18, 3), -PFT_ERR_NOT_SUPPORTED);       /* EM_386 */
	PATCHED(put16(c + 16, 1), -PFT_ERR_NOT_SUPPORTED);       /* ET_REL */
	PATCHED(put16(c + 16, 4), -PFT_ERR_NOT_SUPPORTED);       /* ET_CORE */
	/* Segment bytes outside the file. */
	PATCHED(put32(c + PH0 + 4, (uint32_t)len), -PFT_ERR_BAD_FILE);
	PATCHED(put32(c + PH0 + 16, 0xffffffff), -PFT_ERR_BAD_FILE);
	PATCHED(put32(c + PH0 + 4, 0xfffffff0), -PFT_ERR_BAD_FILE);
	/* A segment passing 0xffffffff. */
	PATCHED(put32(c + PH0 + 8, 0xfffffff0), -PFT_ERR_BAD_FILE);
	PATCHED(put32(c + PH0 + 8, 0xffffffe4), 2);               /* just fits */
	/* Segments overlapping each other. */
	PATCHED(put32(c + PH0 + 32 + 8, 0x10010), -PFT_ERR_BAD_FILE);
	/* No loadable bytes: no program headers, or none PT_LOAD. */
	PATCHED(put16(c + 44, 0), -PFT_ERR_BAD_FILE);
	PATCHED((put32(c + PH0, 6), put32(c + PH0 + 32, 6)), -PFT_ERR_BAD_FILE);
	/* Program headers out of the file. */
	PATCHED(put32(c + 28, (uint32_t)len - 8), -PFT_ERR_BAD_FILE);
	PATCHED(put16(c + 44, 0xffff), -PFT_ERR_BAD_FILE);
	/* Symbol table garbage. */
	PATCHED((sh = sh_of_type(c, 2), put32(sh + 24, 0)), -PFT_ERR_BAD_FILE);
	PATCHED((sh = sh_of_type(c, 2), put32(sh + 16, (uint32_t)len)),
		-PFT_ERR_BAD_FILE);
	PATCHED(patch_symbols(c, 0, 0x7fffffff), -PFT_ERR_BAD_FILE); /* names */
	PATCHED(patch_symbols(c, 14, 200), -PFT_ERR_BAD_FILE); /* sections */
	/* Section header table out of the file. */
	PATCHED(put32(c + 32, (uint32_t)len), -PFT_ERR_BAD_FILE);
#undef PATCHED
	free(c);
	free(orig);
}

/* Every truncated copy is refused (or, when only the tail after what is
 * needed went, loaded correctly); none crashes. */
static void test_elf_truncated(void)
{
	uint8_t *orig;
	size_t len;
	int ok = 0, bad = 0;

	if (!have_elves)
		return;
	orig = slurp(elf_exec, &len);
	if (!orig)
		return;
	for (size_t n = 0; n < len; n++) {
		struct pft_image *img = new_image();
		uint8_t *buf = malloc(n ? n : 1);
		int ret;

		memcpy(buf, orig, n);
		ret = pft_elf_load(img, buf, n, 0, NULL);
		free(buf);
		if (ret == 2) {
			ok++;
			check_sample_text(img, 0x10000);
		} else {
			bad++;
			PTU_EQ(ret, -PFT_ERR_BAD_FILE);
			PTU_EQ(section_count(img), 0);
		}
		/* The text segment ends at file offset 0x101c. */
		if (n < 0x101c)
			PTU_EQ(ret, -PFT_ERR_BAD_FILE);
		pft_image_free(img);
	}
	PTU_CHECK(bad >= 0x101c);
	/* A few through real files: the same answers. */
	for (size_t n = 0; n < len; n += 997) {
		struct pft_image *img = new_image();
		char *path = tmp_path("trunc.elf");
		uint8_t *buf = malloc(n ? n : 1);
		int want;

		memcpy(buf, orig, n);
		want = load_copy(buf, n);
		write_file(path, orig, n);
		PTU_EQ(pft_image_add_elf(img, path, 0), want);
		free(buf);
		pft_image_free(img);
	}
	(void)ok;
	free(orig);
}

static uint32_t rnd_state = 0x9e3779b9u;

static uint32_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state;
}

/* Read and look up everything a loaded image offers (ASan checks that
 * every pointer stays in bounds). */
static void walk_image(struct pft_image *img)
{
	struct pft_image_section_info info;
	uint8_t buf[256];

	for (size_t i = 0; pft_image_section(img, i, &info, sizeof(info)) == 0;
	     i++) {
		uint64_t end = info.vaddr + info.length;

		for (uint64_t a = info.vaddr; a < end; a += sizeof(buf)) {
			const char *name;
			uint32_t off;
			int n = pft_image_read(img, (uint32_t)a, PFT_SPACE_ANY,
					       buf, sizeof(buf));
			PTU_CHECK(n > 0);
			if (pft_image_symbolize(img, (uint32_t)a, &name,
						&off) == 0)
				PTU_CHECK(strlen(name) < 1u << 20);
			(void)pft_image_isa(img, (uint32_t)a);
		}
	}
}

static void test_elf_mutations(void)
{
	uint8_t *orig, *c;
	size_t len;
	int loaded = 0;

	if (!have_elves)
		return;
	orig = slurp(elf_exec, &len);
	if (!orig)
		return;
	c = malloc(len);
	for (int iter = 0; iter < 4000; iter++) {
		struct pft_image *img = new_image();
		int flips = 1 + (int)(rnd() % 8), ret;

		memcpy(c, orig, len);
		for (int k = 0; k < flips; k++) {
			/* Mostly headers and tables, where parsing happens. */
			size_t at = (rnd() & 1) ? rnd() % 0x100
						: 0x2000 + rnd() % (len - 0x2000);
			c[at] = (uint8_t)rnd();
		}
		ret = pft_elf_load(img, c, len, (iter & 1) ? 0 : 0x1000, "m");
		if (ret > 0) {
			loaded++;
			walk_image(img);
		} else {
			PTU_CHECK(ret == -PFT_ERR_BAD_FILE ||
				  ret == -PFT_ERR_NOT_SUPPORTED ||
				  ret == -PFT_ERR_INVALID);
			PTU_EQ(section_count(img), 0);
		}
		pft_image_free(img);
	}
	/* Random bytes behind a valid ARM ELF header. */
	for (int iter = 0; iter < 500; iter++) {
		struct pft_image *img = new_image();
		size_t n = 52 + rnd() % 4096;
		int ret;

		memcpy(c, orig, 52);
		for (size_t i = 52; i < n && i < len; i++)
			c[i] = (uint8_t)rnd();
		if (iter & 1) {
			put32(c + 28, 52);           /* e_phoff */
			put16(c + 44, 1 + rnd() % 8); /* e_phnum */
		}
		ret = pft_elf_load(img, c, n < len ? n : len, 0, NULL);
		if (ret > 0)
			walk_image(img);
		else
			PTU_CHECK(ret == -PFT_ERR_BAD_FILE ||
				  ret == -PFT_ERR_INVALID);
		pft_image_free(img);
	}
	fprintf(stderr, "mutations: %d of 4000 loaded\n", loaded);
	free(c);
	free(orig);
}

/* A symbol reaching the top of the address space ends at 2^32, not 0. */
static void test_symbol_at_address_space_end(void)
{
	struct pft_image *img = new_image();
	static const struct pft_image_sym top[] = {
		{ .start = 0xffffff00, .end = PFT_ADDR_SPACE_END, .name = "top" }
	};
	struct pft_image_symbol sym;

	PTU_EQ(pft_image_merge_symbols(img, top, 1, NULL, 0), 0);
	memset(&sym, 0xff, sizeof(sym));
	PTU_EQ(pft_image_symbol_at(img, 0xffffffff, &sym, sizeof(sym)), 0);
	PTU_STREQ(sym.name, "top");
	PTU_EQ(sym.start, 0xffffff00);
	PTU_EQ(sym.end, 0x100000000ull);
	PTU_EQ(sym.reserved, 0);
	/* A caller that knows only the name and start gets just those. */
	struct pft_image_symbol small;
	memset(&small, 0xab, sizeof(small));
	PTU_EQ(pft_image_symbol_at(img, 0xffffff00, &small,
				   offsetof(struct pft_image_symbol, reserved)), 0);
	PTU_EQ(small.start, 0xffffff00);
	PTU_EQ(small.end, 0xababababababababull);
	pft_image_free(img);
}

/*
 * A million symbols at one address, each covering only that address, and
 * behind them (worst rank) one that covers 0x1000 .. 0x1fff.  Looking up
 * 0x1800 used to scan all of them; the bound documented at find_symbol()
 * is O(log n).  20,000 look-ups then take microseconds; a linear scan
 * would need 2e10 comparisons.  The limit (2 s) is loose for slow,
 * sanitized builds and far below the scan's cost.
 */
static void test_symbols_same_start(void)
{
	enum { N = 1000000, LOOKUPS = 20000 };
	struct pft_image *img = new_image();
	struct pft_image_sym *syms = calloc(N + 1, sizeof(*syms));

	PTU_CHECK(syms != NULL);
	if (!syms) {
		pft_image_free(img);
		return;
	}
	for (unsigned i = 0; i < N; i++)
		syms[i] = (struct pft_image_sym){ .start = 0x1000, .end = 0x1001,
						  .name = "dup", .rank = 1 };
	syms[N] = (struct pft_image_sym){ .start = 0x1000, .end = 0x2000,
					  .name = "wide", .rank = 2 };
	PTU_EQ(pft_image_merge_symbols(img, syms, N + 1, NULL, 0), 0);
	free(syms);

	struct timespec t0, t1;
	const char *name = NULL;
	uint32_t off = 0;
	unsigned found = 0;
	struct pft_image_symbol sym = { 0 };

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (unsigned k = 0; k < LOOKUPS; k++) {
		found += pft_image_symbolize(img, 0x1800 + (k & 0xff), &name, &off) == 0;
		found += pft_image_symbol_at(img, 0x1000, &sym, sizeof(sym)) == 0;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	PTU_EQ(found, 2 * LOOKUPS);
	PTU_STREQ(name, "wide");
	PTU_STREQ(sym.name, "dup");
	PTU_EQ(sym.end, 0x1001);
	PTU_CHECK(secs < 2.0);
	PTU_EQ(pft_image_symbol_at(img, 0x1800, &sym, sizeof(sym)), 0);
	PTU_STREQ(sym.name, "wide");
	PTU_EQ(sym.end, 0x2000);
	PTU_EQ(pft_image_symbolize(img, 0x2000, &name, NULL), -PFT_ERR_NOMAP);
	PTU_EQ(pft_image_symbolize(img, 0xfff, &name, NULL), -PFT_ERR_NOMAP);
	pft_image_free(img);
}

int main(void)
{
	const char *src = getenv("PFT_SOURCE");
	char cmd[1200];

	if (src) {
		snprintf(src_dir, sizeof(src_dir), "%s", src);
	} else {
		/* Derive the tree from this file's path. */
		snprintf(src_dir, sizeof(src_dir), "%s", __FILE__);
		char *cut = strstr(src_dir, "/tests/unit/");
		if (cut)
			*cut = '\0';
	}
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	PTU_RUN(test_alloc_free);
	PTU_RUN(test_buffer_borrowed_and_copied);
	PTU_RUN(test_adjacent_and_gaps);
	PTU_RUN(test_address_space_end);
	PTU_RUN(test_spaces);
	PTU_RUN(test_any_request_prefers_secure);
	PTU_RUN(test_overlaps);
	PTU_RUN(test_same_bytes_twice);
	PTU_RUN(test_random_model);
	PTU_RUN(test_callback);
	PTU_RUN(test_bad_arguments);
	PTU_RUN(test_files);
	PTU_RUN(test_snapshot_dumps);
	PTU_RUN(test_symbol_at_address_space_end);
	PTU_RUN(test_symbols_same_start);
	PTU_RUN(build_elves);
	PTU_RUN(test_elf_exec);
	PTU_RUN(test_elf_symbols_match_readelf);
	PTU_RUN(test_elf_bias);
	PTU_RUN(test_elf_shared_and_stripped);
	PTU_RUN(test_elf_overlap_is_all_or_nothing);
	PTU_RUN(test_elf_not_supported);
	PTU_RUN(test_elf_real_library);
	PTU_RUN(test_elf_malformed);
	PTU_RUN(test_elf_truncated);
	PTU_RUN(test_elf_mutations);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmpdir);
	PTU_MAIN_END();
}
