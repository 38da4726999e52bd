/*
 * Coverage: which code a trace executed, kept as a bitmap of halfwords
 * (the smallest instruction) in 4 KB pages found through a hash table.
 * Memory grows with the amount of code executed, not with the trace.
 *
 * Bounds (issue 12): a range costs O(its instructions): pft_cov_add()
 * refuses one with more than 4 bytes per instruction, so a forged end
 * cannot make it mark 4 GB.  Memory: one 264-byte page per 4 KB of code
 * executed, at most 2^20 pages (the 32-bit space) whatever the input.
 */
#include <stdlib.h>
#include <string.h>

#include "pft.h"
#include "common/pft_size.h"

enum {
	PAGE_SHIFT = 12,
	PAGE_HALFWORDS = (1 << PAGE_SHIFT) / 2,
	PAGE_WORDS = PAGE_HALFWORDS / 64
};

struct cov_page {
	uint32_t number;          /* address >> PAGE_SHIFT */
	uint64_t bits[PAGE_WORDS];
};

struct pft_cov {
	struct cov_page **slots;  /* open addressing, power-of-two size */
	size_t nslots, npages;
	uint64_t insns, ranges;
};

struct pft_cov *pft_cov_alloc(int *errcode)
{
	struct pft_cov *c = calloc(1, sizeof(*c));

	if (c) {
		c->nslots = 64;
		c->slots = calloc(c->nslots, sizeof(*c->slots));
		if (!c->slots) {
			free(c);
			c = NULL;
		}
	}
	if (errcode)
		*errcode = c ? 0 : -PFT_ERR_NOMEM;
	return c;
}

void pft_cov_free(struct pft_cov *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nslots; i++)
		free(c->slots[i]);
	free(c->slots);
	free(c);
}

/* The high bits of the product (Fibonacci hashing): the low bits would
 * put pages a multiple of nslots apart in one slot. */
static size_t slot_of(const struct pft_cov *c, uint32_t number)
{
	uint64_t h = (uint64_t)number * 0x9E3779B97F4A7C15ull;
	size_t i = (size_t)(h >> 40) & (c->nslots - 1);

	while (c->slots[i] && c->slots[i]->number != number)
		i = (i + 1) & (c->nslots - 1);
	return i;
}

static const struct cov_page *find_page(const struct pft_cov *c, uint32_t number)
{
	return c->slots[slot_of(c, number)];
}

static int grow(struct pft_cov *c)
{
	struct pft_cov bigger = { .nslots = 2 * c->nslots };

	bigger.slots = calloc(bigger.nslots, sizeof(*bigger.slots));
	if (!bigger.slots)
		return -PFT_ERR_NOMEM;
	for (size_t i = 0; i < c->nslots; i++)
		if (c->slots[i])
			bigger.slots[slot_of(&bigger, c->slots[i]->number)] = c->slots[i];
	free(c->slots);
	c->slots = bigger.slots;
	c->nslots = bigger.nslots;
	return 0;
}

static struct cov_page *get_page(struct pft_cov *c, uint32_t number)
{
	size_t i = slot_of(c, number);

	if (c->slots[i])
		return c->slots[i];
	if (2 * (c->npages + 1) > c->nslots) {
		if (grow(c))
			return NULL;
		i = slot_of(c, number);
	}
	struct cov_page *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->number = number;
	c->slots[i] = p;
	c->npages++;
	return p;
}

int pft_cov_add(struct pft_cov *c, const struct pft_elem *e, size_t size)
{
	if (!c || !e || size < PFT_FIRST_SIZE(struct pft_elem))
		return -PFT_ERR_INVALID;
	if (e->type != PFT_ELEM_RANGE || !e->ninsn)
		return 0;
	/* Halfwords start .. end - 1; end may be 2^32 (a range that ends at
	 * the top of memory). */
	uint64_t end = e->end ? e->end : 1ull << 32;
	if (end < e->start || end - e->start > 4ull * e->ninsn)
		return -PFT_ERR_INVALID;
	for (uint64_t a = e->start & ~1u; a < end;) {
		struct cov_page *p = get_page(c, (uint32_t)(a >> PAGE_SHIFT));
		if (!p)
			return -PFT_ERR_NOMEM;
		uint64_t page_end = ((a >> PAGE_SHIFT) + 1) << PAGE_SHIFT;
		uint64_t stop = end < page_end ? end : page_end;
		for (; a < stop; a += 2) {
			unsigned h = (unsigned)(a & ((1u << PAGE_SHIFT) - 1)) / 2;
			p->bits[h / 64] |= 1ull << (h % 64);
		}
	}
	c->insns += e->ninsn;
	c->ranges++;
	return 0;
}

int pft_cov_covered(const struct pft_cov *c, uint32_t start, uint64_t end, uint64_t *bytes)
{
	uint64_t n = 0;

	if (!c || !bytes || end > (1ull << 32) || end < start)
		return -PFT_ERR_INVALID;
	for (uint64_t a = start & ~1u; a < end;) {
		uint64_t page_end = ((a >> PAGE_SHIFT) + 1) << PAGE_SHIFT;
		uint64_t stop = end < page_end ? end : page_end;
		const struct cov_page *p = find_page(c, (uint32_t)(a >> PAGE_SHIFT));
		if (!p) {
			a = stop;
			continue;
		}
		for (; a < stop; a += 2) {
			unsigned h = (unsigned)(a & ((1u << PAGE_SHIFT) - 1)) / 2;
			if (p->bits[h / 64] >> (h % 64) & 1)
				n += 2;
		}
	}
	*bytes = n;
	return 0;
}

uint64_t pft_cov_insn_count(const struct pft_cov *c)
{
	return c ? c->insns : 0;
}
