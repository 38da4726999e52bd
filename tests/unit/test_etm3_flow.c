/*
 * ETMv3 flow decoder (pft_etm3_flow_*): one instruction per atom
 * (etmv3-protocol.md 5.1), ranges grouped until a taken branch or an N
 * atom, branch packets without atoms (5.2), exceptions with Cancel (5.3),
 * cycle attribution (5.5), NACC, bad arguments, and the sync state the
 * parallel decode would compare (core/pft_sync_state.h).  The code is
 * hand-assembled Thumb at 0x1000, each encoding worked out next to it.
 */
#include <string.h>

#include "ptunit.h"
#include "pft.h"
#include "core/pft_sync_state.h"

#define ASYNC 0x00, 0x00, 0x00, 0x00, 0x00, 0x80
/* I-sync, trace on (info 0x21), Thumb at @a (bit 0 set). */
#define ISYNC_T(a) 0x08, 0x21, (uint8_t)((a) | 1), (uint8_t)((a) >> 8), 0x00, 0x00

static const uint8_t code[] = {
	0x01, 0x20, /* 1000 MOVS r0,#1      (0x2001) */
	0x02, 0x21, /* 1002 MOVS r1,#2      (0x2102) */
	0xfc, 0xe7, /* 1004 B 0x1000        (0xE7FC: imm11 -4, 0x1004 + 4 - 8) */
	0x70, 0x47, /* 1006 BX lr           (0x4770) */
	0xfa, 0xd0, /* 1008 BEQ 0x1000      (0xD0FA: imm8 -6, 0x1008 + 4 - 12) */
	0x03, 0x22, /* 100a MOVS r2,#3      (0x2203) */
	0x08, 0x68, /* 100c LDR r0,[r1]     (0x6808) */
};

enum { MAXE = 64 };

struct elems {
	int n;
	struct pft_elem e[MAXE];
};

static void run(const struct pft_etm3_config *cfg, const uint8_t *s, size_t len,
		struct elems *out)
{
	struct pft_image *img = pft_image_alloc(NULL);
	struct pft_etm3_pkt_decoder *d = pft_etm3_pkt_alloc(cfg, NULL);
	struct pft_etm3_flow *f = pft_etm3_flow_alloc(cfg, img, NULL);
	struct pft_etm3_packet p;
	int st;

	PTU_CHECK(img && d && f);
	PTU_CHECK(pft_image_add_buffer(img, 0x1000, code, sizeof(code), PFT_SPACE_ANY, 0) >= 0);
	out->n = 0;
	pft_etm3_pkt_feed(d, s, len);
	pft_etm3_pkt_finish(d);
	for (int last = 0; !last;) {
		st = pft_etm3_pkt_next(d, &p, sizeof(p));
		if (st == -PFT_ERR_EOS) {
			PTU_EQ(pft_etm3_flow_finish(f), 0);
			last = 1;
		} else {
			PTU_EQ(pft_etm3_flow_put(f, &p, sizeof(p)), 0);
		}
		while (out->n < MAXE && pft_etm3_flow_next(f, &out->e[out->n], sizeof(out->e[0])) == 0)
			out->n++;
	}
	uint64_t insns = 0;
	for (int i = 0; i < out->n; i++)
		if (out->e[i].type == PFT_ELEM_RANGE)
			insns += out->e[i].ninsn;
	PTU_EQ(pft_etm3_flow_insn_count(f), insns);
	pft_etm3_flow_free(f);
	pft_etm3_pkt_free(d);
	pft_image_free(img);
}

/* The elements after NO_SYNC, TRACE_ON, CONTEXT of the first I-sync. */
static const struct pft_elem *after_sync(const struct elems *x)
{
	PTU_CHECK(x->n >= 3);
	PTU_EQ(x->e[0].type, PFT_ELEM_NO_SYNC);
	PTU_EQ(x->e[1].type, PFT_ELEM_TRACE_ON);
	PTU_EQ(x->e[1].reason, PFT_ISYNC_TRACE_ON);
	PTU_EQ(x->e[2].type, PFT_ELEM_CONTEXT);
	PTU_EQ(x->e[2].isa, PFT_ISA_THUMB);
	return &x->e[3];
}

static void check_range(const struct pft_elem *e, uint32_t start, uint32_t last,
			uint32_t ninsn, int taken, enum pft_iclass iclass)
{
	PTU_EQ(e->type, PFT_ELEM_RANGE);
	PTU_EQ(e->start, start);
	PTU_EQ(e->last, last);
	PTU_EQ(e->end, last + 2);
	PTU_EQ(e->ninsn, ninsn);
	PTU_EQ(e->taken, taken);
	PTU_EQ(e->iclass, iclass);
	PTU_EQ(e->isa, PFT_ISA_THUMB);
}

static struct pft_etm3_config plain, ca;

/* E atoms group until the taken B; then EN (section 4.1, 0xC4 non-CA:
 * N = 1, EEEE = 1): MOVS E, MOVS N ends a range not taken. */
static void test_grouping(void)
{
	/* 88 = EE, 84 = E (on B: taken to 0x1000), c4 = E N. */
	static const uint8_t s[] = { ASYNC, ISYNC_T(0x1000), 0x88, 0x84, 0xc4 };
	struct elems x;
	run(&plain, s, sizeof(s), &x);
	PTU_EQ(x.n, 5);
	const struct pft_elem *e = after_sync(&x);
	check_range(&e[0], 0x1000, 0x1004, 3, 1, PFT_ICLASS_JUMP);
	check_range(&e[1], 0x1000, 0x1002, 2, 0, PFT_ICLASS_OTHER);
}

/* Section 5.2: BX lr gets an E in a P-header, then a branch packet gives
 * the target; the range ends there, taken.  A timestamp closes a range;
 * finish reports the last one. */
static void test_indirect(void)
{
	/* I-sync at 0x1006; 84 = E on BX; branch 81 20 = A[6:1] 0, A[13:7]
	 * 0x20 -> 0x1000 over 0x1006; 88 = EE (MOVS, MOVS); 42 01 timestamp;
	 * 80: no atoms. */
	static const uint8_t s[] = { ASYNC, ISYNC_T(0x1006), 0x84, 0x81, 0x20, 0x88, 0x42, 0x01,
				     0x80 };
	struct elems x;
	run(&plain, s, sizeof(s), &x);
	PTU_EQ(x.n, 6);
	const struct pft_elem *e = after_sync(&x);
	check_range(&e[0], 0x1006, 0x1006, 1, 1, PFT_ICLASS_RETURN);
	check_range(&e[1], 0x1000, 0x1002, 2, 0, PFT_ICLASS_OTHER);
	PTU_EQ(e[2].type, PFT_ELEM_TIMESTAMP);
	PTU_EQ(e[2].ts, 1);

	/* Without a branch packet, a further atom cannot be placed: an error. */
	static const uint8_t t[] = { ASYNC, ISYNC_T(0x1006), 0x84, 0x84 };
	run(&plain, t, sizeof(t), &x);
	PTU_EQ(x.n, 5);
	e = after_sync(&x);
	check_range(&e[0], 0x1006, 0x1006, 1, 1, PFT_ICLASS_RETURN);
	PTU_EQ(e[1].type, PFT_ELEM_ERROR);
	PTU_EQ(e[1].reason, PFT_ERR_FLOW_INDIRECT_ATOM);
}

/* Section 5.3: an exception with Cancel retracts the last atom's
 * instruction, which becomes the return address. */
static void test_cancel(void)
{
	/* I-sync at 0x100a; 88 = EE: MOVS r2 and LDR; branch to 0xFFFF0018
	 * ARM with E0 38 (Cancel, data fault 12, Secure; section 6.4). */
	static const uint8_t s[] = { ASYNC, ISYNC_T(0x100a), 0x88, 0x8d, 0x80, 0xfe, 0xff, 0x4f,
				     0x38 };
	struct elems x;
	run(&plain, s, sizeof(s), &x);
	PTU_EQ(x.n, 5);
	const struct pft_elem *e = after_sync(&x);
	check_range(&e[0], 0x100a, 0x100a, 1, 0, PFT_ICLASS_OTHER);
	PTU_EQ(e[1].type, PFT_ELEM_EXCEPTION);
	PTU_EQ(e[1].exception, PFT_EXC_DATA_ABORT);
	PTU_EQ(e[1].has_ret, 1);
	PTU_EQ(e[1].addr, 0x100c);

	/* E0 1c (IRQ, no Cancel): the return address is the next PC, the
	 * LDR stays executed; then an atom at the vector: NACC. */
	static const uint8_t t[] = { ASYNC, ISYNC_T(0x100a), 0x88, 0x8d, 0x80, 0xfe, 0xff, 0x4f,
				     0x1c, 0x84 };
	run(&plain, t, sizeof(t), &x);
	PTU_EQ(x.n, 6);
	e = after_sync(&x);
	check_range(&e[0], 0x100a, 0x100c, 2, 0, PFT_ICLASS_OTHER);
	PTU_EQ(e[1].type, PFT_ELEM_EXCEPTION);
	PTU_EQ(e[1].exception, PFT_EXC_IRQ);
	PTU_EQ(e[1].addr, 0x100e);
	PTU_EQ(e[2].type, PFT_ELEM_ADDR_NACC);
	PTU_EQ(e[2].addr, 0xFFFF0018);
}

/* Section 5.5: each atom takes the W's since the previous atom; a range
 * sums them.  The gap before a trace-on I-sync gets the pending W's plus
 * its count (section 6.3: 8 + 2128). */
static void test_cycles(void)
{
	/* bc = 8 W; 70 d0 10 ...: count 0x50 + 0x10 << 7 = 2128, trace on,
	 * Thumb 0x1000; b0 = 5 W, 84 = WE (6 cycles), 82 = W E E (1, 0),
	 * E on B at 0x1004: range of 3, 7 cycles. */
	static const uint8_t s[] = { ASYNC, 0x08, 0x01, 0x01, 0x10, 0x00, 0x00, 0xbc,
				     0x70, 0xd0, 0x10, 0x21, 0x01, 0x10, 0x00, 0x00,
				     0xb0, 0x84, 0x82 };
	struct elems x;
	run(&ca, s, sizeof(s), &x);
	PTU_EQ(x.n, 5);
	PTU_EQ(x.e[1].type, PFT_ELEM_TRACE_ON);
	PTU_EQ(x.e[1].reason, PFT_ISYNC_PERIODIC);
	PTU_EQ(x.e[3].type, PFT_ELEM_TRACE_ON);
	PTU_EQ(x.e[3].has_cycles, 1);
	PTU_EQ(x.e[3].cycles, 8 + 2128);
	check_range(&x.e[4], 0x1000, 0x1004, 3, 1, PFT_ICLASS_JUMP);
	PTU_EQ(x.e[4].has_cycles, 1);
	PTU_EQ(x.e[4].cycles, 6 + 1 + 0);
}

static void test_args(void)
{
	struct pft_etm3_packet p = { 0 };
	struct pft_elem e;
	int err = 0;

	PTU_CHECK(!pft_etm3_flow_alloc(NULL, NULL, &err));
	PTU_EQ(err, -PFT_ERR_INVALID);
	struct pft_etm3_config c = plain;
	c.ctxid_bytes = 5;
	PTU_CHECK(!pft_etm3_flow_alloc(&c, NULL, &err));
	PTU_EQ(err, -PFT_ERR_BAD_CONFIG);
	pft_etm3_flow_free(NULL);
	struct pft_etm3_flow *f = pft_etm3_flow_alloc(&plain, NULL, &err);
	PTU_CHECK(f != NULL);
	PTU_EQ(err, 0);
	PTU_EQ(pft_etm3_flow_put(NULL, &p, sizeof(p)), -PFT_ERR_INVALID);
	PTU_EQ(pft_etm3_flow_put(f, NULL, sizeof(p)), -PFT_ERR_INVALID);
	PTU_EQ(pft_etm3_flow_put(f, &p, 8), -PFT_ERR_INVALID);
	p.type = PFT_ETM3_PKT_TYPE_MAX;
	PTU_EQ(pft_etm3_flow_put(f, &p, sizeof(p)), -PFT_ERR_INVALID);
	p.type = PFT_ETM3_PKT_PHEADER;
	p.n_atoms = 17;
	PTU_EQ(pft_etm3_flow_put(f, &p, sizeof(p)), -PFT_ERR_INVALID);
	p.n_atoms = 0;
	PTU_EQ(pft_etm3_flow_put(f, &p, sizeof(p)), 0);
	/* NO_SYNC not taken yet: the next put is refused. */
	PTU_EQ(pft_etm3_flow_put(f, &p, sizeof(p)), -PFT_ERR_INVALID);
	PTU_EQ(pft_etm3_flow_finish(f), -PFT_ERR_INVALID);
	PTU_EQ(pft_etm3_flow_next(NULL, &e, sizeof(e)), -PFT_ERR_INVALID);
	PTU_EQ(pft_etm3_flow_next(f, NULL, sizeof(e)), -PFT_ERR_INVALID);
	PTU_EQ(pft_etm3_flow_next(f, &e, 0), -PFT_ERR_INVALID);
	PTU_EQ(pft_etm3_flow_next(f, &e, sizeof(e)), 0);
	PTU_EQ(e.type, PFT_ELEM_NO_SYNC);
	PTU_EQ(pft_etm3_flow_next(f, &e, sizeof(e)), -PFT_ERR_NEED_INPUT);
	PTU_EQ(pft_etm3_flow_finish(NULL), -PFT_ERR_INVALID);
	PTU_EQ(pft_etm3_flow_reset(NULL), -PFT_ERR_INVALID);
	PTU_EQ(pft_etm3_flow_insn_count(NULL), 0);
	/* After reset, NO_SYNC again. */
	PTU_EQ(pft_etm3_flow_reset(f), 0);
	PTU_EQ(pft_etm3_flow_put(f, &p, sizeof(p)), 0);
	PTU_EQ(pft_etm3_flow_next(f, &e, sizeof(e)), 0);
	PTU_EQ(e.type, PFT_ELEM_NO_SYNC);
	pft_etm3_flow_free(f);
}

/* The flow state after decoding @s[@from ..): elements taken. */
static void state_after(const struct pft_etm3_config *cfg, const uint8_t *s, size_t len,
			size_t from, struct flow_sync_state *st)
{
	struct pft_image *img = pft_image_alloc(NULL);
	struct pft_etm3_pkt_decoder *d = pft_etm3_pkt_alloc(cfg, NULL);
	struct pft_etm3_flow *f = pft_etm3_flow_alloc(cfg, img, NULL);
	struct pft_etm3_packet p;
	struct pft_elem e;

	PTU_CHECK(img && d && f);
	PTU_CHECK(pft_image_add_buffer(img, 0x1000, code, sizeof(code), PFT_SPACE_ANY, 0) >= 0);
	pft_etm3_pkt_feed(d, s + from, len - from);
	while (pft_etm3_pkt_next(d, &p, sizeof(p)) == 0) {
		PTU_EQ(pft_etm3_flow_put(f, &p, sizeof(p)), 0);
		while (pft_etm3_flow_next(f, &e, sizeof(e)) == 0)
			;
	}
	pft_etm3_flow_sync_state(f, st);
	pft_etm3_flow_free(f);
	pft_etm3_pkt_free(d);
	pft_image_free(img);
}

/* The decoder of the whole stream and one started at its second A-sync
 * are in the same state after the I-sync that follows (where the
 * parallel decode would hand over), not before it; what only an ETMv3
 * decoder carries (an indirect branch waiting for its address, its
 * range held back) is part of the state. */
static void test_sync_state(void)
{
	/* 88 = EE (MOVS, MOVS), 84 = E on B (to 0x1000); from 0x1002, 88 =
	 * EE (MOVS, B). */
	static const uint8_t s[] = { ASYNC, ISYNC_T(0x1000), 0x88, 0x84, ASYNC,
				     ISYNC_T(0x1002), 0x88 };
	const size_t second = 6 + 6 + 2;
	struct flow_sync_state whole, fresh;

	state_after(&plain, s, sizeof(s), 0, &whole);
	state_after(&plain, s, sizeof(s), second, &fresh);
	PTU_EQ(whole.state, 2);
	PTU_EQ(whole.pc, 0x1000); /* the E on B 0x1000 at 0x1004 */
	PTU_EQ(whole.proto[0], 0);
	PTU_EQ(whole.proto[1], 0);
	PTU_EQ(!memcmp(&whole, &fresh, sizeof(whole)), 1);
	/* Before the second I-sync: the fresh decoder waits for it. */
	state_after(&plain, s, second + 6, 0, &whole);
	state_after(&plain, s, second + 6, second, &fresh);
	PTU_EQ(fresh.state, 1);
	PTU_EQ(!memcmp(&whole, &fresh, sizeof(whole)), 0);
	/* An E on BX lr (0x1006) waits for its address: carried. */
	static const uint8_t t[] = { ASYNC, ISYNC_T(0x1006), 0x84 };
	state_after(&plain, t, sizeof(t), 0, &whole);
	PTU_EQ(whole.pc_valid, 0);
	PTU_EQ(whole.proto[1], 3);
}

int main(void)
{
	pft_etm3_config_init(&plain);
	pft_etm3_config_from_regs(&plain, 0x00000000, 0x30000000, 0x410CF250, 0x10);
	pft_etm3_config_init(&ca);
	pft_etm3_config_from_regs(&ca, 0x00001000, 0x30000000, 0x410CF250, 0x10);
	PTU_RUN(test_grouping);
	PTU_RUN(test_indirect);
	PTU_RUN(test_cancel);
	PTU_RUN(test_cycles);
	PTU_RUN(test_args);
	PTU_RUN(test_sync_state);
	PTU_MAIN_END();
}
