/*
 * Walking the program image (pft_walk.h): the block walk behind a cache
 * miss, the walk to an address, the return stack's state.
 */
#include <string.h>

#include "core/pft_walk.h"

/* Out of line: a miss is rare, and inlined it would cost the hit path
 * (the caller of pft_walk_get()) its registers. */
__attribute__((noinline)) void pft_walk_block(const struct pft_walk *w, uint32_t addr,
					      uint8_t isa, enum pft_mem_space space,
					      struct pft_walk_block *b)
{
	memset(b, 0, sizeof(*b));
	b->start = addr;
	b->isa = isa;
	b->space = (uint8_t)space;
	b->valid = 1;
	if (isa != PFT_ISA_ARM && isa != PFT_ISA_THUMB) {
		b->bad_isa = 1;
		return;
	}
	const uint8_t *code = NULL;
	int avail = 0;
	uint32_t pc = addr;
	uint8_t tmp[4];

	for (uint32_t walked = 0;; walked += b->last_size) {
		if (walked > PFT_WALK_LIMIT) {
			b->too_long = 1;
			return;
		}
		if (avail < 4) {
			/* Refill: map the bytes at pc; an instruction may span
			 * two sections, so read it whole when the map is short. */
			avail = w->image ? pft_image_map(w->image, pc, space, &code) : -1;
			if (avail > 0 && avail < 4) {
				int n = pft_image_read(w->image, pc, space, tmp, sizeof(tmp));
				code = tmp;
				avail = n;
			}
			if (avail <= 0) {
				b->nacc = 1;
				b->nacc_addr = pc;
				return;
			}
		}
		struct pft_insn_class c;
		int size = pft_isa_classify((enum pft_isa)isa, pc, code, (size_t)avail,
					    w->isa_flags, &c);
		if (size < 0) {
			b->nacc = 1;
			b->nacc_addr = pc;
			return;
		}
		b->ninsn++;
		b->last = pc;
		b->last_size = (uint8_t)size;
		if (c.kind != PFT_WP_NONE) {
			b->kind = c.kind;
			b->link = c.link;
			b->iclass = (uint8_t)pft_isa_iclass(&c);
			b->target = c.target;
			b->target_isa = c.target_isa;
			return;
		}
		pc += (uint32_t)size;
		code += size;
		avail -= size;
	}
}

enum pft_walk_stop pft_walk_to(const struct pft_walk *w, uint32_t pc, uint8_t isa,
			       enum pft_mem_space space, uint32_t to, struct pft_walk_span *s)
{
	*s = (struct pft_walk_span){ .end = pc };
	for (uint32_t walked = 0; walked <= PFT_WALK_LIMIT;) {
		struct pft_insn_class c;
		int size = pft_walk_insn(w, pc, isa, space, &c);
		if (size < 0) {
			s->end = pc;
			return PFT_WALK_NACC;
		}
		s->ninsn++;
		s->last = pc;
		s->end = pc + (uint32_t)size;
		if (pc == to) {
			s->iclass = (uint8_t)pft_isa_iclass(&c);
			return PFT_WALK_REACHED;
		}
		if (c.kind != PFT_WP_NONE)
			break; /* the trace skips a waypoint: it and the image disagree */
		pc += (uint32_t)size;
		walked += (uint32_t)size;
	}
	return PFT_WALK_PAST;
}

void pft_retstack_sync_state(const struct pft_retstack *rs, struct flow_sync_state *s)
{
	s->rs_count = (uint8_t)rs->count;
	for (unsigned i = 0; i < rs->count; i++) {
		unsigned k = (rs->top + PFT_RETSTACK_MAX - 1 - i) % PFT_RETSTACK_MAX;
		s->rs[i].addr = rs->e[k].addr;
		s->rs[i].isa = rs->e[k].isa;
	}
}
