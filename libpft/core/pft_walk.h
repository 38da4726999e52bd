/* pft_walk.h - walking the program image for a flow decoder of any
 * protocol (shared/spec/pft-flow.md sections 4-6):
 *
 *  - blocks: the straight-line code from an address up to and including
 *    its first waypoint, classified once and kept in a 2-way
 *    set-associative cache keyed by (address, instruction set, memory
 *    space), so that a loop costs one lookup per iteration;
 *  - single instructions, read and classified, with or without a cache
 *    (for protocols whose atoms are instructions, and for walks that stop
 *    at an address rather than at a waypoint);
 *  - the return stack of a trace source that keeps one.
 *
 * The lookups are inline: they are on the hot path of every flow decoder.
 */
#ifndef PFT_WALK_H
#define PFT_WALK_H

#include <stdint.h>
#include <string.h>

#include "pft.h"
#include "image/pft_isa.h"
#include "core/pft_sync_state.h"

enum {
	PFT_WALK_SETS = 4096,          /* power of two; 2 ways each */
	/* A PTM reports a waypoint update after 4096 bytes without a
	 * waypoint; a longer walk means the image and the trace disagree. */
	PFT_WALK_LIMIT = 4096 + 64,
	PFT_WALK_INSN_CACHE = 4096,    /* power of two */
	PFT_RETSTACK_MAX = FLOW_SYNC_RS_MAX /* deeper than any PTM's stack (pft-flow.md 6) */
};

/* What walking from an address finds: the instructions up to and including
 * the first waypoint, or up to memory no image covers. */
struct pft_walk_block {
	uint32_t start;
	uint8_t isa, space, valid;
	uint8_t kind;            /* of the last instruction (enum pft_wp_kind) */
	uint8_t link, last_size, target_isa, nacc;
	uint8_t iclass;          /* of the last instruction (enum pft_iclass) */
	uint8_t too_long, bad_isa;
	uint8_t special;         /* bad_isa, too_long or nacc: no plain range */
	uint32_t last;           /* last instruction walked */
	uint32_t ninsn;
	uint32_t target;         /* DIRECT target */
	uint32_t nacc_addr;      /* nacc: the address that could not be read */
};

/* The program image a decoder walks and how it classifies instructions. */
struct pft_walk {
	struct pft_image *image;   /* NULL: no memory */
	unsigned isa_flags;        /* PFT_ISA_* classification flags */
};

/* The block cache: [set][0] is the most recently filled way. */
struct pft_walk_cache {
	struct pft_walk_block set[PFT_WALK_SETS][2];
};

/* Walk from @addr to the first waypoint into @b (a cache miss). */
void pft_walk_block(const struct pft_walk *w, uint32_t addr, uint8_t isa,
		    enum pft_mem_space space, struct pft_walk_block *b);

/* The block at @addr, from @cache or walked now. */
static inline const struct pft_walk_block *pft_walk_get(const struct pft_walk *w,
							struct pft_walk_cache *cache,
							uint32_t addr, uint8_t isa,
							enum pft_mem_space space)
{
	uint32_t h = (addr >> 1) ^ (addr >> 13) ^ isa;
	struct pft_walk_block *set = cache->set[h & (PFT_WALK_SETS - 1)];

	for (int way = 0; way < 2; way++) {
		struct pft_walk_block *b = &set[way];
		if (b->valid && b->start == addr && b->isa == isa && b->space == space)
			return b;
	}
	/* A miss: the older way goes, the newer one takes its place. */
	set[1] = set[0];
	pft_walk_block(w, addr, isa, space, &set[0]);
	set[0].special = set[0].bad_isa | set[0].too_long | set[0].nacc;
	return &set[0];
}

/* Read and classify the instruction at @pc: its size, or -1 when memory
 * does not hold a whole instruction there. */
static inline int pft_walk_insn(const struct pft_walk *w, uint32_t pc, uint8_t isa,
				enum pft_mem_space space, struct pft_insn_class *c)
{
	uint8_t code[4];
	int avail = w->image ? pft_image_read(w->image, pc, space, code, sizeof(code)) : -1;

	return avail > 0 ? pft_isa_classify((enum pft_isa)isa, pc, code, (size_t)avail,
					    w->isa_flags, c)
			 : -1;
}

/* Classified instructions by address. */
struct pft_walk_insn_entry {
	uint32_t addr;
	uint8_t valid, isa, space, size;
	struct pft_insn_class c;
};

struct pft_walk_insn_cache {
	struct pft_walk_insn_entry e[PFT_WALK_INSN_CACHE];
};

/* The instruction at @pc (pft_walk_insn()) from @cache, or NULL when
 * memory does not hold it. */
static inline const struct pft_walk_insn_entry *
pft_walk_insn_cached(const struct pft_walk *w, struct pft_walk_insn_cache *cache, uint32_t pc,
		     uint8_t isa, enum pft_mem_space space)
{
	struct pft_walk_insn_entry *ie = &cache->e[(pc >> 1) & (PFT_WALK_INSN_CACHE - 1)];

	if (!ie->valid || ie->addr != pc || ie->isa != isa || ie->space != space) {
		int n = pft_walk_insn(w, pc, isa, space, &ie->c);
		if (n < 0) {
			ie->valid = 0;
			return NULL;
		}
		ie->valid = 1;
		ie->addr = pc;
		ie->isa = isa;
		ie->space = (uint8_t)space;
		ie->size = (uint8_t)n;
	}
	return ie;
}

/* Where a walk to an address ended (pft_walk_to()). */
enum pft_walk_stop {
	PFT_WALK_REACHED = 0,  /* at the address: @last is it */
	PFT_WALK_NACC,         /* memory ran out at @end */
	PFT_WALK_PAST          /* a waypoint, or too far, before the address */
};

struct pft_walk_span {
	uint32_t ninsn, last, end;  /* instructions walked, the last, after it */
	uint8_t iclass;             /* REACHED: of the last instruction */
};

/* Walk from @pc up to and including the instruction at @to, which no
 * waypoint may come before (a PTM's waypoint update, pft-flow.md 5.4).
 * Uncached: it is rare. */
enum pft_walk_stop pft_walk_to(const struct pft_walk *w, uint32_t pc, uint8_t isa,
			       enum pft_mem_space space, uint32_t to, struct pft_walk_span *s);

/* The return stack: a ring, @top is the next free slot. */
struct pft_retstack {
	struct {
		uint32_t addr;
		uint8_t isa;
	} e[PFT_RETSTACK_MAX];
	unsigned top, count;
};

static inline void pft_retstack_push(struct pft_retstack *rs, uint32_t addr, uint8_t isa)
{
	rs->e[rs->top].addr = addr;
	rs->e[rs->top].isa = isa;
	rs->top = (rs->top + 1) % PFT_RETSTACK_MAX;
	if (rs->count < PFT_RETSTACK_MAX)
		rs->count++;
}

/* Pop the newest entry into @addr/@isa: 0, or -1 when the stack is empty. */
static inline int pft_retstack_pop(struct pft_retstack *rs, uint32_t *addr, uint8_t *isa)
{
	if (!rs->count)
		return -1;
	rs->top = (rs->top + PFT_RETSTACK_MAX - 1) % PFT_RETSTACK_MAX;
	rs->count--;
	*addr = rs->e[rs->top].addr;
	*isa = rs->e[rs->top].isa;
	return 0;
}

static inline void pft_retstack_clear(struct pft_retstack *rs)
{
	rs->top = rs->count = 0;
}

/* Write the stack into @s (newest first). */
void pft_retstack_sync_state(const struct pft_retstack *rs, struct flow_sync_state *s);

#endif /* PFT_WALK_H */
