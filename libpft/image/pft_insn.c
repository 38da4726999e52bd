/*
 * Public instruction decoding and range iteration: the size, class and
 * branch target of A32/T32 instructions, from the classifier the flow
 * decoder uses (pft_isa.c), so that clients need no internal header.
 */
#include <string.h>

#include "image/pft_isa.h"
#include "common/pft_size.h"

const char *pft_iclass_name(unsigned iclass)
{
	static const char *const names[PFT_ICLASS_MAX] = {
		"other", "call", "indirect_call", "return", "jump",
		"indirect_jump", "exc_return", "barrier"
	};

	return iclass < PFT_ICLASS_MAX ? names[iclass] : "unknown";
}

/* The part of struct pft_insn every caller has (up to and including raw). */
enum { INSN_MIN_SIZE = sizeof(struct pft_insn) };

int pft_insn_decode(enum pft_isa isa, uint32_t addr, const uint8_t *code,
		    size_t avail, struct pft_insn *insn, size_t size)
{
	struct pft_insn_class c;
	int n;

	if (!code || !insn || size < INSN_MIN_SIZE)
		return -PFT_ERR_INVALID;
	n = pft_isa_classify(isa, addr, code, avail, 0, &c);
	if (n < 0)
		return n;
	memset(insn, 0, size);
	insn->addr = addr;
	insn->size = (uint8_t)n;
	insn->isa = (uint8_t)isa;
	insn->iclass = (uint8_t)pft_isa_iclass(&c);
	insn->conditional = c.conditional;
	if (c.kind == PFT_WP_DIRECT) {
		insn->target = c.target;
		insn->target_isa = c.target_isa;
	}
	memcpy(insn->raw, code, (size_t)n);
	return n;
}

int pft_insn_iter_init(struct pft_insn_iter *it, struct pft_image *image,
		       const struct pft_elem *range)
{
	if (!it || !image || !range || range->type != PFT_ELEM_RANGE)
		return -PFT_ERR_INVALID;
	memset(it, 0, sizeof(*it));
	it->image = image;
	it->addr = range->start;
	it->left = range->ninsn;
	it->isa = range->isa;
	it->space = range->space;
	return 0;
}

int pft_insn_iter_next(struct pft_insn_iter *it, struct pft_insn *insn, size_t size)
{
	uint8_t code[4];
	int avail, n;

	if (!it || !it->image || !insn || size < INSN_MIN_SIZE)
		return -PFT_ERR_INVALID;
	if (!it->left)
		return 0;
	avail = pft_image_read(it->image, it->addr, (enum pft_mem_space)it->space, code,
			       sizeof(code));
	if (avail < 0)
		return -PFT_ERR_NOMAP;
	n = pft_insn_decode((enum pft_isa)it->isa, it->addr, code, (size_t)avail, insn, size);
	if (n < 0)
		return n == -PFT_ERR_NOT_SUPPORTED ? n : -PFT_ERR_NOMAP;
	insn->space = it->space;
	it->addr += (uint32_t)n;
	it->left--;
	return 1;
}
