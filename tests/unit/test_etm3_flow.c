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

static struct pft_etm3_config cortex_m;

/* The elements of @s under the Cortex-M4's ETM (M profile: alternative
 * branch encoding), after those of its first I-sync. */
static const struct pft_elem *run_m(const uint8_t *s, size_t len, struct elems *x)
{
	run(&cortex_m, s, len, x);
	return after_sync(x);
}

/* The M profile (etmv3-protocol.md 4.5, 5.3, 5.4): branch addresses in the
 * alternative encoding; exception numbers the ETM's way, given as IPSR
 * numbers; the exception-return packet after BX LR makes it an exception
 * return, and a Cancel after it a tail-chain that takes back nothing. */
static void test_m_profile(void)
{
	PTU_EQ(cortex_m.m_profile, 1);
	PTU_EQ(cortex_m.alt_branch, 1);

	/* BX lr at 0x1006 (84 = E), 76 exception return; branch 81 60 3c:
	 * A[6:1] 0 (C), A[12:7] 0x20 with bit 6 (exception bytes follow) ->
	 * 0x1000; E0 3c = Cancel, exception 14 (PendSV); then 88 = EE. */
	static const uint8_t tail[] = { ASYNC, ISYNC_T(0x1006), 0x84, 0x76, 0x81, 0x60, 0x3c,
					0x88 };
	struct elems x;
	const struct pft_elem *e = run_m(tail, sizeof(tail), &x);
	PTU_EQ(x.n, 7);
	check_range(&e[0], 0x1006, 0x1006, 1, 1, PFT_ICLASS_EXC_RETURN);
	PTU_EQ(e[1].type, PFT_ELEM_EXCEPTION_RETURN);
	PTU_EQ(e[2].type, PFT_ELEM_EXCEPTION);
	PTU_EQ(e[2].exception, PFT_MEXC_PENDSV);
	PTU_EQ(e[2].profile, PFT_PROFILE_M);
	PTU_EQ(e[2].has_ret, 0);   /* where the return would have gone: not traced */
	check_range(&e[3], 0x1000, 0x1002, 2, 0, PFT_ICLASS_OTHER);

	/* A normal return: the branch after 76 gives the address returned to. */
	static const uint8_t ret[] = { ASYNC, ISYNC_T(0x1006), 0x84, 0x76, 0x81, 0x20, 0x84 };
	e = run_m(ret, sizeof(ret), &x);
	PTU_EQ(x.n, 6);
	check_range(&e[0], 0x1006, 0x1006, 1, 1, PFT_ICLASS_EXC_RETURN);
	PTU_EQ(e[1].type, PFT_ELEM_EXCEPTION_RETURN);
	check_range(&e[2], 0x1000, 0x1000, 1, 0, PFT_ICLASS_OTHER);

	/* Cancel without an exception return: the last atom's instruction (the
	 * LDR at 0x100c) faulted, as on A/R.  E0 aa: E1 follows, Cancel,
	 * exception[3:0] 5; E1 01: exception[8:4] 1 -> 21, BusFault (5). */
	static const uint8_t fault[] = { ASYNC, ISYNC_T(0x100a), 0x88, 0x81, 0x60, 0xaa, 0x01 };
	e = run_m(fault, sizeof(fault), &x);
	PTU_EQ(x.n, 5);
	check_range(&e[0], 0x100a, 0x100a, 1, 0, PFT_ICLASS_OTHER);
	PTU_EQ(e[1].type, PFT_ELEM_EXCEPTION);
	PTU_EQ(e[1].exception, PFT_MEXC_BUSFAULT);
	PTU_EQ(e[1].has_ret, 1);
	PTU_EQ(e[1].addr, 0x100c);

	/* The ETM's numbers as IPSR numbers: 1 is IRQ1 (17, not A/R's debug
	 * halt: the flow goes on at the handler), 10 NMI (2), 19 HardFault
	 * (3: E0 86, E1 01), 25 IRQ9 (25: E0 92, E1 01); 16 is reserved: an
	 * error, the branch still taken. */
	static const struct {
		uint8_t e0, e1;
		int ipsr;
	} nums[] = { { 0x02, 0, 17 }, { 0x14, 0, PFT_MEXC_NMI }, { 0x86, 0x01, PFT_MEXC_HARDFAULT },
		     { 0x92, 0x01, 16 + 9 }, { 0x80, 0x01, -1 } };
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		uint8_t t[] = { ASYNC, ISYNC_T(0x100a), 0x84, 0x81, 0x60, nums[i].e0, nums[i].e1,
				0x84 };
		size_t len = sizeof(t);
		if (!nums[i].e1) {  /* E0 alone: drop the E1 place */
			t[len - 2] = 0x84;
			len--;
		}
		e = run_m(t, len, &x);
		PTU_EQ(x.n, 6);
		check_range(&e[0], 0x100a, 0x100a, 1, 0, PFT_ICLASS_OTHER);
		if (nums[i].ipsr < 0) {
			PTU_EQ(e[1].type, PFT_ELEM_ERROR);
			PTU_EQ(e[1].reason, PFT_ERR_FLOW_BAD_EXCEPTION);
		} else {
			PTU_EQ(e[1].type, PFT_ELEM_EXCEPTION);
			PTU_EQ(e[1].exception, nums[i].ipsr);
			PTU_EQ(e[1].addr, 0x100c);
		}
		check_range(&e[2], 0x1000, 0x1000, 1, 0, PFT_ICLASS_OTHER);
	}

	/* Thumb only: an atom at an ARM-state address cannot be followed. */
	static const uint8_t arm[] = { ASYNC, 0x08, 0x21, 0x00, 0x10, 0x00, 0x00, 0x84 };
	run(&cortex_m, arm, sizeof(arm), &x);
	PTU_EQ(x.n, 4);
	PTU_EQ(x.e[2].isa, PFT_ISA_ARM);
	PTU_EQ(x.e[3].type, PFT_ELEM_ERROR);
	PTU_EQ(x.e[3].reason, PFT_ERR_FLOW_BAD_INSN);
	run(&plain, arm, sizeof(arm), &x);     /* A profile: MOVS, MOVS as ARM code */
	PTU_EQ(x.e[3].type, PFT_ELEM_RANGE);

	/* The tail-chain state is carried for the parallel decode: after 76
	 * with BX lr's branch still pending. */
	static const uint8_t half[] = { ASYNC, ISYNC_T(0x1006), 0x84, 0x76 };
	struct flow_sync_state st;
	state_after(&cortex_m, half, sizeof(half), 0, &st);
	PTU_EQ(st.proto[1], 1u | 4u);
}

/* The ETM's M-profile numbers and the IPSR's, both ways (the table of
 * etmv3-protocol.md 4.5, written out here), and their names. */
static void test_m_numbers(void)
{
	static const int ipsr_of[24] = { -1, 17, 18, 19, 20, 21, 22, 23, 16, 6, 2, 11, 12, 4,
					 14, 15, -1, 1, -1, 3, -1, 5, -1, -1 };
	for (unsigned etm = 0; etm < 600; etm++) {
		int want = etm < 24 ? ipsr_of[etm] : etm <= 511 ? (int)etm : -1;
		PTU_EQ(pft_etm3_m_exception_ipsr(etm), want);
		if (want > 0)
			PTU_EQ(pft_etm3_m_exception_etm((unsigned)want), (int)etm);
	}
	for (unsigned ipsr = 0; ipsr < 24; ipsr++) {
		int valid = (ipsr >= 1 && ipsr <= 6) || ipsr == 11 || ipsr == 12 || ipsr >= 14;
		PTU_EQ(pft_etm3_m_exception_etm(ipsr) >= 0, valid);
	}
	char b[PFT_EXCEPTION_NAME_MAX];
	static const char *const names[16] = { "none", "reset", "nmi", "hardfault", "memmanage",
					       "busfault", "usagefault", "reserved", "reserved",
					       "reserved", "reserved", "svcall", "debugmonitor",
					       "reserved", "pendsv", "systick" };
	for (unsigned n = 0; n < 16; n++)
		PTU_EQ(strcmp(pft_exception_name_in(PFT_PROFILE_M, n, b, sizeof(b)), names[n]), 0);
	PTU_EQ(strcmp(pft_exception_name_in(PFT_PROFILE_M, 16, b, sizeof(b)), "irq0"), 0);
	PTU_EQ(strcmp(pft_exception_name_in(PFT_PROFILE_M, 511, b, sizeof(b)), "irq495"), 0);
	PTU_EQ(strcmp(pft_exception_name_in(PFT_PROFILE_M, 512, b, sizeof(b)), "reserved"), 0);
	PTU_EQ(strcmp(pft_exception_name_in(PFT_PROFILE_A, 14, b, sizeof(b)), "irq"), 0);
	PTU_EQ(strcmp(pft_exception_name_in(PFT_PROFILE_R, 10, b, sizeof(b)), "svc"), 0);
	PTU_EQ(strcmp(pft_exception_name_in(PFT_PROFILE_M, 14, b, 4), "pen"), 0);
	PTU_EQ(strcmp(pft_exception_name_in(PFT_PROFILE_M, 14, NULL, 4), ""), 0);
	PTU_EQ(strcmp(pft_exception_name_in(PFT_PROFILE_M, 14, b, 0), ""), 0);
}

int main(void)
{
	pft_etm3_config_init(&cortex_m);
	pft_etm3_config_for_core(&cortex_m, pft_core_find("cortex-m4"), &(struct pft_ptm_config){
		.size = sizeof(struct pft_ptm_config) });
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
	PTU_RUN(test_m_profile);
	PTU_RUN(test_m_numbers);
	PTU_MAIN_END();
}
