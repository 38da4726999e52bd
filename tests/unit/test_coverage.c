/* The coverage map: bytes marked by ranges, counted back by queries. */
#include "ptunit.h"

#include "pft.h"

static struct pft_elem range(uint32_t start, uint32_t end, uint32_t ninsn)
{
	struct pft_elem e = { .type = PFT_ELEM_RANGE, .start = start, .end = end,
			      .last = end - 2, .ninsn = ninsn };
	return e;
}

static uint64_t covered(struct pft_cov *c, uint32_t start, uint64_t end)
{
	uint64_t n = 0xdead;
	PTU_EQ(pft_cov_covered(c, start, end, &n), 0);
	return n;
}

static void cov_counts_bytes_and_insns(void)
{
	struct pft_cov *c = pft_cov_alloc(NULL);
	struct pft_elem e = range(0x8000, 0x8010, 4);  /* four A32 instructions */

	PTU_EQ(pft_cov_add(c, &e, sizeof(e)), 0);
	e = range(0x8008, 0x800e, 3);                  /* three T32, overlapping */
	PTU_EQ(pft_cov_add(c, &e, sizeof(e)), 0);
	e = range(0x9ffe, 0xa004, 2);                  /* across a 4 KB page */
	PTU_EQ(pft_cov_add(c, &e, sizeof(e)), 0);
	struct pft_elem other = { .type = PFT_ELEM_ADDR_NACC, .addr = 0x100 };
	PTU_EQ(pft_cov_add(c, &other, sizeof(other)), 0); /* ignored */

	PTU_EQ(pft_cov_insn_count(c), 9);
	PTU_EQ(covered(c, 0x8000, 0x8010), 16);
	PTU_EQ(covered(c, 0x7ff0, 0x8004), 4);
	PTU_EQ(covered(c, 0x800c, 0x9000), 4);
	PTU_EQ(covered(c, 0x9000, 0xb000), 6);
	PTU_EQ(covered(c, 0xa000, 0xa002), 2);
	PTU_EQ(covered(c, 0x0, 0x100000000ull), 22);
	PTU_EQ(covered(c, 0x100, 0x100), 0);
	pft_cov_free(c);
}

static void cov_many_pages_grow(void)
{
	struct pft_cov *c = pft_cov_alloc(NULL);

	/* 1000 pages, one instruction each: the table must grow and keep them. */
	for (uint32_t i = 0; i < 1000; i++) {
		struct pft_elem e = range(0x10000000 + i * 0x1000 + 0x10, 0x10000000 + i * 0x1000 + 0x14, 1);
		PTU_EQ(pft_cov_add(c, &e, sizeof(e)), 0);
	}
	PTU_EQ(covered(c, 0x10000000, 0x10000000 + 1000 * 0x1000), 4000);
	PTU_EQ(covered(c, 0x10000000 + 999 * 0x1000, 0x10000000 + 999 * 0x1000 + 0x12), 2);
	/* The top of memory: a range ending at 2^32 has end 0. */
	struct pft_elem top = range(0xfffffffc, 0, 1);
	PTU_EQ(pft_cov_add(c, &top, sizeof(top)), 0);
	PTU_EQ(covered(c, 0xfffff000, 0x100000000ull), 4);
	pft_cov_free(c);
}

static void cov_arguments(void)
{
	struct pft_cov *c = pft_cov_alloc(NULL);
	struct pft_elem e = range(0x8000, 0x8004, 1);
	uint64_t n;

	PTU_EQ(pft_cov_add(NULL, &e, sizeof(e)), -PFT_ERR_INVALID);
	PTU_EQ(pft_cov_add(c, NULL, sizeof(e)), -PFT_ERR_INVALID);
	PTU_EQ(pft_cov_add(c, &e, 4), -PFT_ERR_INVALID);
	PTU_EQ(pft_cov_covered(NULL, 0, 4, &n), -PFT_ERR_INVALID);
	PTU_EQ(pft_cov_covered(c, 0, 4, NULL), -PFT_ERR_INVALID);
	PTU_EQ(pft_cov_covered(c, 8, 4, &n), -PFT_ERR_INVALID);
	PTU_EQ(pft_cov_covered(c, 0, (1ull << 32) + 2, &n), -PFT_ERR_INVALID);
	PTU_EQ(pft_cov_insn_count(NULL), 0);
	pft_cov_free(c);
	pft_cov_free(NULL);
}

int main(void)
{
	PTU_RUN(cov_counts_bytes_and_insns);
	PTU_RUN(cov_many_pages_grow);
	PTU_RUN(cov_arguments);
	PTU_MAIN_END();
}
