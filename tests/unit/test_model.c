/* PTM model tests.  Small hand-assembled programs (encodings from the ARM
 * ARM, worked out next to each one) are "executed" by feeding the model the
 * addresses a processor would run; the packets it chooses are compared
 * with hand-written expectations, which follow pft-flow.md and
 * pft-protocol.md (sections named below).  Every stream is also decoded
 * with the packet decoder and the flow decoder: the packets must come back
 * as they were made, and the instruction ranges must be the executed
 * addresses again. */
#include "ptunit.h"

#include "pft.h"
#include "image/pft_isa.h"

enum { MAX_PKTS = 4096, MAX_BYTES = 16384, MAX_SEQ = 8192 };

/* A32 encodings. */
enum {
	A_NOP = 0xe1a00000,      /* mov r0, r0 */
	A_SUBS = 0xe2500001,     /* subs r0, r0, #1 */
	A_BX_LR = 0xe12fff1e,
	A_BX_R1 = 0xe12fff11,
	A_BLX_R3 = 0xe12fff33,
	A_ISB = 0xf57ff06f,
	COND_NE = 0x1, COND_AL = 0xe
};
/* T32 encodings. */
enum { T_NOP = 0xbf00, T_BX_LR = 0x4770 };

/* B/BL<cond> from @from to @to: cond | 101 | L | imm24, target = PC + 8 +
 * imm24 * 4. */
static uint32_t arm_b(unsigned cond, uint32_t from, uint32_t to, int link)
{
	return cond << 28 | 0x0a000000u | (uint32_t)link << 24 |
	       (((to - from - 8) >> 2) & 0xffffffu);
}

/* BLX <imm> (to Thumb): 1111 101 H imm24, target = PC + 8 + imm24 * 4 + H * 2. */
static uint32_t arm_blx_imm(uint32_t from, uint32_t to)
{
	uint32_t off = to - from - 8;

	return 0xfa000000u | (off & 2) << 23 | ((off >> 2) & 0xffffffu);
}

struct rig {
	struct pft_ptm_config cfg;
	struct pft_model_config mc;
	struct pft_image *img;
	struct pft_ptm_model *m;
	struct pft_ptm_packet pkts[MAX_PKTS];
	size_t npkts;
	uint8_t bytes[MAX_BYTES];
	size_t len;
	/* What ran (for the flow check): address and ISA. */
	uint32_t seq[MAX_SEQ];
	uint8_t seq_isa[MAX_SEQ];
	size_t nseq;
	/* Exceptions taken (for the flow check): number and return address. */
	unsigned exc[64];
	uint32_t exc_ret[64];
	size_t nexc;
	int bad;
};

static void rig_init(struct rig *r)
{
	memset(r, 0, sizeof(*r));
	pft_ptm_config_init(&r->cfg);
	r->mc.size = sizeof(r->mc);
	r->img = pft_image_alloc(NULL);
	PTU_CHECK(r->img != NULL);
}

static void rig_start(struct rig *r)
{
	int err = 1;

	r->m = pft_ptm_model_alloc(&r->cfg, &r->mc, r->img, &err);
	PTU_CHECK(r->m != NULL);
	PTU_EQ(err, 0);
}

static void rig_free(struct rig *r)
{
	pft_ptm_model_free(r->m);
	pft_image_free(r->img);
}

static void add_arm(struct rig *r, uint32_t addr, const uint32_t *w, size_t n)
{
	uint8_t buf[4 * 2048];

	for (size_t i = 0; i < n; i++)
		for (int b = 0; b < 4; b++)
			buf[4 * i + b] = (uint8_t)(w[i] >> (8 * b));
	PTU_CHECK(pft_image_add_buffer(r->img, addr, buf, 4 * n, PFT_SPACE_ANY,
				       PFT_IMAGE_COPY) >= 0);
}

static void add_thumb(struct rig *r, uint32_t addr, const uint16_t *h, size_t n)
{
	uint8_t buf[2 * 4096];

	for (size_t i = 0; i < n; i++) {
		buf[2 * i] = (uint8_t)h[i];
		buf[2 * i + 1] = (uint8_t)(h[i] >> 8);
	}
	PTU_CHECK(pft_image_add_buffer(r->img, addr, buf, 2 * n, PFT_SPACE_ANY,
				       PFT_IMAGE_COPY) >= 0);
}

static void take(struct rig *r)
{
	struct pft_ptm_packet p;

	while (pft_ptm_model_next(r->m, &p, sizeof(p)) == 0) {
		PTU_CHECK(r->npkts < MAX_PKTS && r->len + p.size <= MAX_BYTES);
		if (r->npkts >= MAX_PKTS || r->len + p.size > MAX_BYTES)
			return;
		PTU_EQ(p.offset, r->len);
		memcpy(r->bytes + r->len, p.raw, p.size);
		r->len += p.size;
		r->pkts[r->npkts++] = p;
	}
}

/* Execute one instruction (@isa may be PFT_ISA_UNKNOWN). */
/* Why the model refused its last instruction (PFT_ERR_OK: it did not),
 * after checking that the diagnostic agrees with itself. */
static unsigned model_reason(const struct pft_ptm_model *m)
{
	struct pft_diag d;

	if (pft_ptm_model_diag(m, &d) < 0 || (d.reason && !d.code) ||
	    (d.code && (d.severity != PFT_DIAG_ERROR || !d.text[0] || d.file[0])))
		return PFT_ERR_INTERNAL;
	return d.reason;
}

static int run_insn(struct rig *r, uint32_t addr, uint8_t isa, uint32_t cycles)
{
	struct pft_model_insn in = { .addr = addr, .isa = isa, .has_cycles = cycles != 0,
				     .cycles = cycles };
	int err = pft_ptm_model_put(r->m, &in, sizeof(in));

	if (err == 0 && r->nseq < MAX_SEQ) {
		r->seq[r->nseq] = addr;
		r->seq_isa[r->nseq++] = isa;
	}
	take(r);
	return err;
}

static void run_arm(struct rig *r, uint32_t addr)
{
	PTU_EQ(run_insn(r, addr, PFT_ISA_ARM, 0), 0);
}

static void run_thumb(struct rig *r, uint32_t addr)
{
	PTU_EQ(run_insn(r, addr, PFT_ISA_THUMB, 0), 0);
}

static void finish(struct rig *r)
{
	PTU_EQ(pft_ptm_model_finish(r->m), 0);
	take(r);
}

/* The packets as text: "async | isync trace_on 0x1000 arm | atom EEN |
 * branch 0x3000 arm cc2 | waypoint 0x3000 | ts 0x4 | ctxid 0x34 | vmid 5". */
static void describe(const struct rig *r, char *out, size_t cap)
{
	static const char *const reasons[] = { "periodic", "trace_on", "overflow", "debug" };
	size_t at = 0;

	out[0] = 0;
	for (size_t i = 0; i < r->npkts && at < cap; i++) {
		const struct pft_ptm_packet *p = &r->pkts[i];
		char buf[96] = "";
		int n = 0;

		switch (p->type) {
		case PFT_PTM_PKT_ASYNC:
			n = snprintf(buf, sizeof(buf), "async");
			break;
		case PFT_PTM_PKT_ISYNC:
			n = snprintf(buf, sizeof(buf), "isync %s 0x%x %s%s", reasons[p->reason & 3],
				     p->addr, pft_isa_name(p->isa), p->ns ? " ns" : "");
			break;
		case PFT_PTM_PKT_ATOM:
			n = snprintf(buf, sizeof(buf), "atom ");
			for (unsigned a = 0; a < p->n_atoms; a++)
				buf[n++] = (p->atoms >> a) & 1 ? 'E' : 'N';
			buf[n] = 0;
			break;
		case PFT_PTM_PKT_BRANCH:
			n = snprintf(buf, sizeof(buf), "branch 0x%x %s%s", p->addr,
				     pft_isa_name(p->isa), p->ns ? " ns" : "");
			if (p->exception)
				n += snprintf(buf + n, sizeof(buf) - (size_t)n, " exc%u",
					      p->exception);
			break;
		case PFT_PTM_PKT_WAYPOINT:
			n = snprintf(buf, sizeof(buf), "waypoint 0x%x", p->addr);
			break;
		case PFT_PTM_PKT_TIMESTAMP:
			n = snprintf(buf, sizeof(buf), "ts 0x%llx", (unsigned long long)p->ts);
			break;
		case PFT_PTM_PKT_CONTEXTID:
			n = snprintf(buf, sizeof(buf), "ctxid 0x%x", p->ctxid);
			break;
		case PFT_PTM_PKT_VMID:
			n = snprintf(buf, sizeof(buf), "vmid %u", p->vmid);
			break;
		default:
			n = snprintf(buf, sizeof(buf), "%s", pft_ptm_pkt_type_name(p->type));
			break;
		}
		if (p->has_cycles && (size_t)n + 16 < sizeof(buf))
			snprintf(buf + n, sizeof(buf) - (size_t)n, " cc%u", p->cycles);
		at += (size_t)snprintf(out + at, cap - at, "%s%s", i ? " | " : "", buf);
	}
}

#define EXPECT_PACKETS(r, want)                                               \
	do {                                                                  \
		char got_[8192];                                              \
		describe(r, got_, sizeof(got_));                              \
		PTU_STREQ(got_, want);                                        \
	} while (0)

/* The stream, decoded by the packet decoder: the same packets. */
static void check_packets(struct rig *r)
{
	int err;
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(&r->cfg, &err);
	struct pft_ptm_packet p;
	size_t i = 0;

	PTU_CHECK(d != NULL);
	if (!d)
		return;
	pft_ptm_pkt_feed(d, r->bytes, r->len);
	pft_ptm_pkt_finish(d);
	while (pft_ptm_pkt_next(d, &p, sizeof(p)) == 0) {
		const struct pft_ptm_packet *w = i < r->npkts ? &r->pkts[i] : NULL;
		PTU_CHECK(w != NULL);
		if (!w)
			break;
		PTU_EQ(p.type, w->type);
		PTU_EQ(p.offset, w->offset);
		PTU_EQ(p.size, w->size);
		if (p.type == PFT_PTM_PKT_ISYNC || p.type == PFT_PTM_PKT_BRANCH ||
		    p.type == PFT_PTM_PKT_WAYPOINT) {
			PTU_EQ(p.addr, w->addr);
			PTU_EQ(p.isa, w->isa);
			PTU_EQ(p.exception, w->exception);
		}
		if (p.type == PFT_PTM_PKT_ATOM) {
			PTU_EQ(p.n_atoms, w->n_atoms);
			PTU_EQ(p.atoms, w->atoms);
		}
		PTU_EQ(p.has_cycles, w->has_cycles);
		PTU_EQ(p.cycles, w->cycles);
		if (p.type == PFT_PTM_PKT_TIMESTAMP)
			PTU_EQ(p.ts, w->ts);
		i++;
	}
	PTU_EQ(i, r->npkts);
	pft_ptm_pkt_free(d);
}

/* Was the instruction at @addr traced: inside the filter and the image? */
static int traced(struct rig *r, uint32_t addr)
{
	uint8_t b;

	return (!r->mc.filter || (addr >= r->mc.filter_start && addr < r->mc.filter_end)) &&
	       pft_image_read(r->img, addr, PFT_SPACE_ANY, &b, 1) == 1;
}

/* The stream, decoded by the packet decoder and the flow decoder: the
 * packets as they were made, and the executed instructions that were
 * traced, every one, in order. */
static void check_flow(struct rig *r)
{
	int err;
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(&r->cfg, &err);
	struct pft_ptm_flow *f = pft_ptm_flow_alloc(&r->cfg, r->img, &err);
	struct pft_ptm_packet p;
	struct pft_elem e;
	size_t at = 0, exc = 0;

	check_packets(r);
	PTU_CHECK(d && f);
	if (!d || !f)
		goto out;
	pft_ptm_pkt_feed(d, r->bytes, r->len);
	pft_ptm_pkt_finish(d);
	while (pft_ptm_pkt_next(d, &p, sizeof(p)) == 0) {
		pft_ptm_flow_put(f, &p, sizeof(p));
		while (pft_ptm_flow_next(f, &e, sizeof(e)) == 0) {
			PTU_CHECK(e.type != PFT_ELEM_ERROR);
			if (e.type == PFT_ELEM_EXCEPTION) {
				/* Each one taken, with its return address. */
				PTU_CHECK(exc < r->nexc);
				if (exc < r->nexc) {
					PTU_EQ(e.exception, r->exc[exc]);
					PTU_EQ(e.has_ret, 1);
					PTU_EQ(e.addr, r->exc_ret[exc]);
				}
				exc++;
			}
			if (e.type != PFT_ELEM_RANGE)
				continue;
			uint32_t a = e.start;
			for (uint32_t k = 0; k < e.ninsn; k++) {
				while (at < r->nseq && !traced(r, r->seq[at]))
					at++;
				PTU_CHECK(at < r->nseq);
				if (at >= r->nseq)
					goto out;
				if (a != r->seq[at]) {
					fprintf(stderr, "  instruction %zu: decoded 0x%x, ran 0x%x\n",
						at, a, r->seq[at]);
					PTU_EQ(a, r->seq[at]);
					goto out;
				}
				at++;
				uint8_t hw[2];
				pft_image_read(r->img, a, PFT_SPACE_ANY, hw, 2);
				a += e.isa == PFT_ISA_THUMB && (hw[1] >> 3) < 0x1d ? 2 : 4;
			}
		}
	}
	while (at < r->nseq && !traced(r, r->seq[at]))
		at++;
	PTU_EQ(at, r->nseq);
	PTU_EQ(exc, r->nexc);
out:
	pft_ptm_flow_free(f);
	pft_ptm_pkt_free(d);
}

/* ---------------------------------------------------------------------- */

/* A countdown loop, then a return:
 *   0x2000 subs r0, r0, #1
 *   0x2004 bne 0x2000        cond 0001, imm24 = (0x2000 - 0x200c) / 4 = -3
 *   0x2008 mov r0, r0
 *   0x200c bx lr             -> 0x3000
 *   0x3000 mov r0, r0
 * run with seven passes (six taken, one not). */
static void setup_loop(struct rig *r)
{
	const uint32_t loop[] = { A_SUBS, arm_b(COND_NE, 0x2004, 0x2000, 0), A_NOP, A_BX_LR };
	const uint32_t after[] = { A_NOP };

	PTU_EQ(loop[1], 0x1afffffd);
	add_arm(r, 0x2000, loop, 4);
	add_arm(r, 0x3000, after, 1);
}

static void run_loop(struct rig *r)
{
	for (int i = 0; i < 7; i++) {
		run_arm(r, 0x2000);
		run_arm(r, 0x2004);
	}
	run_arm(r, 0x2008);
	run_arm(r, 0x200c);
	run_arm(r, 0x3000);
	finish(r);
}

/* Atoms pack 5 to a packet and are flushed before the branch (protocol
 * 5.3); the indirect branch is an address packet (flow 1); the last,
 * straight-line instruction is covered by a waypoint update. */
static void atoms_packed(void)
{
	struct rig r;

	rig_init(&r);
	setup_loop(&r);
	rig_start(&r);
	run_loop(&r);
	EXPECT_PACKETS(&r, "async | isync trace_on 0x2000 arm | atom EEEEE | atom EN | "
			   "branch 0x3000 arm | waypoint 0x3000");
	/* Bytes: A-sync; I-sync 08, A[7:1]|T = 00, 20, 00, 00, info 0x21
	 * (trace-on 01 << 5, bit 0 = 1); five E = 11000000; E N = 1000_1ab0
	 * with a = 0, b = 1 = 0x8a; branch 0x3000 from base 0x2000: differs
	 * in bit 12 -> 2 bytes, AB0 = 1 A[7:2]=0 1 = 0x81, AB1 = 0 0
	 * A[13:8] = 0x30; waypoint 0x3000 from base 0x3000: 72, AB0 0x01. */
	const uint8_t want[] = { 0, 0, 0, 0, 0, 0x80, 0x08, 0x00, 0x20, 0x00, 0x00, 0x21,
				 0xc0, 0x8a, 0x81, 0x30, 0x72, 0x01 };
	PTU_EQ(r.len, sizeof(want));
	PTU_CHECK(r.len == sizeof(want) && !memcmp(r.bytes, want, sizeof(want)));
	PTU_EQ(pft_ptm_model_bytes(r.m), sizeof(want));
	PTU_EQ(pft_ptm_model_insns(r.m), 17);
	check_flow(&r);
	rig_free(&r);
}

/* Cycle-accurate: one atom per packet with the cycles since the previous
 * count (protocol 5.3, flow 8).  Every instruction takes 1 cycle except the
 * third subs (3 cycles).  The trace-on I-sync counts to the last waypoint
 * before it: none, 0. */
static void cycle_accurate_atoms(void)
{
	struct rig r;

	rig_init(&r);
	r.cfg.cycle_accurate = 1;
	setup_loop(&r);
	rig_start(&r);
	for (int i = 0; i < 7; i++) {
		PTU_EQ(run_insn(&r, 0x2000, PFT_ISA_ARM, i == 2 ? 3 : 1), 0);
		run_arm(&r, 0x2004);
	}
	run_arm(&r, 0x2008);
	run_arm(&r, 0x200c);
	run_arm(&r, 0x3000);
	finish(&r);
	EXPECT_PACKETS(&r, "async | isync trace_on 0x2000 arm cc0 | atom E cc2 | atom E cc2 | "
			   "atom E cc4 | atom E cc2 | atom E cc2 | atom E cc2 | atom N cc2 | "
			   "branch 0x3000 arm cc2 | waypoint 0x3000");
	/* Bytes: I-sync with CC0 = 1 0 0000 00 = 0x80 (protocol 4.1: bit 7 set
	 * in I-syncs); atom E 2 = 1 0 0010 0 0 = 0x88; E 4 = 0x90; N 2 = 0x8a;
	 * branch + CC0 0 0 0010 00 = 0x08. */
	const uint8_t want[] = { 0, 0, 0, 0, 0, 0x80, 0x08, 0x00, 0x20, 0x00, 0x00, 0x21, 0x80,
				 0x88, 0x88, 0x90, 0x88, 0x88, 0x88, 0x8a, 0x81, 0x30, 0x08,
				 0x72, 0x01 };
	PTU_EQ(r.len, sizeof(want));
	PTU_CHECK(r.len == sizeof(want) && !memcmp(r.bytes, want, sizeof(want)));
	check_flow(&r);
	rig_free(&r);
}

/* A call and its return:
 *   0x4000 bl 0x4100          imm24 = (0x4100 - 0x4008) / 4 = 0x3e
 *   0x4004 mov r0, r0
 *   0x4008 bx lr              -> 0x5000 (not what the stack holds)
 *   0x4100 mov r0, r0
 *   0x4104 bx lr              -> 0x4004
 *   0x5000 mov r0, r0 */
static void call_return(int return_stack, const char *want)
{
	const uint32_t caller[] = { arm_b(COND_AL, 0x4000, 0x4100, 1), A_NOP, A_BX_LR };
	const uint32_t callee[] = { A_NOP, A_BX_LR };
	const uint32_t after[] = { A_NOP };
	struct rig r;

	rig_init(&r);
	r.cfg.return_stack = (uint8_t)return_stack;
	PTU_EQ(caller[0], 0xeb00003e);
	add_arm(&r, 0x4000, caller, 3);
	add_arm(&r, 0x4100, callee, 2);
	add_arm(&r, 0x5000, after, 1);
	rig_start(&r);
	run_arm(&r, 0x4000);
	run_arm(&r, 0x4100);
	run_arm(&r, 0x4104);
	run_arm(&r, 0x4004);
	run_arm(&r, 0x4008);
	run_arm(&r, 0x5000);
	finish(&r);
	EXPECT_PACKETS(&r, want);
	check_flow(&r);
	rig_free(&r);
}

static void return_stack_off(void)
{
	/* Without the return stack every return is an address packet. */
	call_return(0, "async | isync trace_on 0x4000 arm | atom E | branch 0x4004 arm | "
		       "branch 0x5000 arm | waypoint 0x5000");
}

static void return_stack_on(void)
{
	/* The return to the top of the stack is an E atom (flow 6); the next
	 * return finds the stack empty and is an address packet. */
	call_return(1, "async | isync trace_on 0x4000 arm | atom EE | branch 0x5000 arm | "
		       "waypoint 0x5000");
}

/* Recursion 17 calls deep:
 *   0x6000 subs r0, r0, #1
 *   0x6004 blne 0x6000        cond 0001, L, imm24 = -3
 *   0x6008 bx lr
 * 17 taken calls push 0x6008 each; the stack keeps 16, so of the 17
 * returns to 0x6008 the first 16 are E atoms and the last is an address
 * packet, as is the final return to 0x5000 (flow 6: oldest discarded). */
static void return_stack_depth(void)
{
	const uint32_t fn[] = { A_SUBS, arm_b(COND_NE, 0x6004, 0x6000, 1), A_BX_LR };
	const uint32_t after[] = { A_NOP };
	struct rig r;

	rig_init(&r);
	r.cfg.return_stack = 1;
	PTU_EQ(fn[1], 0x1bfffffd);
	add_arm(&r, 0x6000, fn, 3);
	add_arm(&r, 0x5000, after, 1);
	rig_start(&r);
	for (int i = 0; i < 18; i++) {
		run_arm(&r, 0x6000);
		run_arm(&r, 0x6004);
	}
	for (int i = 0; i < 18; i++)
		run_arm(&r, 0x6008);
	run_arm(&r, 0x5000);
	finish(&r);
	/* Atoms: 17 E (calls), N, 16 E (returns) = 34, five per packet. */
	EXPECT_PACKETS(&r, "async | isync trace_on 0x6000 arm | atom EEEEE | atom EEEEE | "
			   "atom EEEEE | atom EENEE | atom EEEEE | atom EEEEE | atom EEEE | "
			   "branch 0x6008 arm | branch 0x5000 arm | waypoint 0x5000");
	check_flow(&r);
	rig_free(&r);
}

/* The stack is emptied at every I-sync (flow 3.5: then decoders that
 * empty theirs only on trace-on I-syncs and those that empty it on all of
 * them, like OpenCSD, both stay in step).  With a 12-byte sync period a
 * periodic sync follows every waypoint that has bytes out: the return
 * after it is an address packet, not an E atom. */
static void return_stack_emptied_at_isync(void)
{
	const uint32_t caller[] = { arm_b(COND_AL, 0x4000, 0x4100, 1), A_NOP, A_BX_LR };
	const uint32_t callee[] = { A_NOP, A_BX_LR };
	const uint32_t after[] = { A_NOP };
	struct rig r;

	rig_init(&r);
	r.cfg.return_stack = 1;
	r.mc.sync_period = 12;
	add_arm(&r, 0x4000, caller, 3);
	add_arm(&r, 0x4100, callee, 2);
	add_arm(&r, 0x5000, after, 1);
	rig_start(&r);
	run_arm(&r, 0x4000);
	run_arm(&r, 0x4100);
	run_arm(&r, 0x4104);
	run_arm(&r, 0x4004);
	run_arm(&r, 0x4008);
	run_arm(&r, 0x5000);
	finish(&r);
	/* Bytes: 12 (syncs); +1 atom = 13 >= 12: sync (25); branch 0x4004
	 * from 0x4100 needs 2 bytes (27, 14 since the sync): sync (39);
	 * branch 0x5000 from 0x4004, 2 bytes (41): sync. */
	EXPECT_PACKETS(&r, "async | isync trace_on 0x4000 arm | atom E | async | "
			   "isync periodic 0x4100 arm | branch 0x4004 arm | async | "
			   "isync periodic 0x4004 arm | branch 0x5000 arm | async | "
			   "isync periodic 0x5000 arm | waypoint 0x5000");
	check_flow(&r);
	rig_free(&r);
}

/* An indirect branch to the next instruction: taken when unconditional (an
 * address packet), not taken when conditional (an N atom), also inside a
 * Thumb IT block, where the instruction itself carries no condition.
 *   0x7000 bx r1  /  bxne r1 (cond 0001)
 *   0x7004 mov r0, r0
 *   0x7100 it ne (T: 1011 1111 0001 1000)
 *   0x7102 bx lr (T)
 *   0x7104 nop (T) */
static void indirect_to_next(void)
{
	const uint32_t always[] = { A_BX_R1, A_NOP };
	const uint32_t cond[] = { (A_BX_R1 & 0x0fffffffu) | COND_NE << 28, A_NOP };
	const uint16_t it[] = { 0xbf18, T_BX_LR, T_NOP };
	struct rig r;

	rig_init(&r);
	add_arm(&r, 0x7000, always, 2);
	rig_start(&r);
	run_arm(&r, 0x7000);
	run_arm(&r, 0x7004);
	finish(&r);
	EXPECT_PACKETS(&r, "async | isync trace_on 0x7000 arm | branch 0x7004 arm | "
			   "waypoint 0x7004");
	check_flow(&r);
	rig_free(&r);

	rig_init(&r);
	add_arm(&r, 0x7000, cond, 2);
	rig_start(&r);
	run_arm(&r, 0x7000);
	run_arm(&r, 0x7004);
	finish(&r);
	EXPECT_PACKETS(&r, "async | isync trace_on 0x7000 arm | atom N | waypoint 0x7004");
	check_flow(&r);
	rig_free(&r);

	rig_init(&r);
	add_thumb(&r, 0x7100, it, 3);
	rig_start(&r);
	run_thumb(&r, 0x7100);
	run_thumb(&r, 0x7102);
	run_thumb(&r, 0x7104);
	finish(&r);
	EXPECT_PACKETS(&r, "async | isync trace_on 0x7100 thumb | atom N | waypoint 0x7104");
	check_flow(&r);
	rig_free(&r);
}

/* Periodic synchronisation: `bx r1` at 0x7000 jumping to itself makes one
 * 1-byte branch packet per pass (the address equals the base).  With a
 * period of 16 bytes: A-sync (6) + I-sync (6) + 4 branches = 16 bytes, so
 * the sync goes out at the next waypoint boundary; then 16 + 12 + 4 = 32
 * (ETMSYNCFR, protocol 5.1). */
static void sync_period(void)
{
	const uint32_t code[] = { A_BX_R1, A_NOP };
	struct rig r;

	rig_init(&r);
	r.mc.sync_period = 16;
	add_arm(&r, 0x7000, code, 2);
	rig_start(&r);
	for (int i = 0; i < 11; i++)
		run_arm(&r, 0x7000);
	EXPECT_PACKETS(&r, "async | isync trace_on 0x7000 arm | branch 0x7000 arm | "
			   "branch 0x7000 arm | branch 0x7000 arm | branch 0x7000 arm | "
			   "async | isync periodic 0x7000 arm | branch 0x7000 arm | "
			   "branch 0x7000 arm | branch 0x7000 arm | branch 0x7000 arm | "
			   "async | isync periodic 0x7000 arm | branch 0x7000 arm | "
			   "branch 0x7000 arm");
	PTU_EQ(r.pkts[2].size, 1);
	PTU_EQ(r.bytes[r.pkts[2].offset], 0x01);
	run_arm(&r, 0x7004);
	finish(&r);
	check_flow(&r);
	rig_free(&r);
}

/* The default period is 1024 bytes (ETMSYNCFR reset value 0x400). */
static void sync_period_default(void)
{
	const uint32_t code[] = { A_BX_R1, A_NOP };
	struct rig r;
	size_t syncs = 0, at = 0;

	rig_init(&r);
	add_arm(&r, 0x7000, code, 2);
	rig_start(&r);
	for (int i = 0; i < 1100; i++)
		run_arm(&r, 0x7000);
	run_arm(&r, 0x7004);
	for (size_t i = 0; i < r.npkts; i++)
		if (r.pkts[i].type == PFT_PTM_PKT_ASYNC && syncs++ == 1)
			at = r.pkts[i].offset;
	/* 12 bytes of syncs + 1012 one-byte branches = 1024. */
	PTU_EQ(syncs, 2);
	PTU_EQ(at, 1024);
	finish(&r);
	check_flow(&r);
	rig_free(&r);
}

/* Straight-line code: a waypoint update once 4096 bytes have run without a
 * waypoint (protocol 5.5), at the instruction that reaches 4096: ARM
 * instruction 1024 (0x8000 + 4 * 1023), Thumb instruction 2048 (0x8000 +
 * 2 * 2047).  At the end, one for the rest. */
static void waypoint_update_4096(void)
{
	static uint32_t nops[1100];
	static uint16_t tnops[2100];
	struct rig r;

	for (size_t i = 0; i < 1100; i++)
		nops[i] = A_NOP;
	rig_init(&r);
	add_arm(&r, 0x8000, nops, 1100);
	rig_start(&r);
	for (uint32_t i = 0; i < 1100; i++)
		run_arm(&r, 0x8000 + 4 * i);
	finish(&r);
	EXPECT_PACKETS(&r, "async | isync trace_on 0x8000 arm | waypoint 0x8ffc | "
			   "waypoint 0x912c");
	check_flow(&r);
	rig_free(&r);

	for (size_t i = 0; i < 2100; i++)
		tnops[i] = T_NOP;
	rig_init(&r);
	add_thumb(&r, 0x8000, tnops, 2100);
	rig_start(&r);
	for (uint32_t i = 0; i < 2100; i++)
		run_thumb(&r, 0x8000 + 2 * i);
	finish(&r);
	EXPECT_PACKETS(&r, "async | isync trace_on 0x8000 thumb | waypoint 0x8ffe | "
			   "waypoint 0x9066");
	check_flow(&r);
	rig_free(&r);
}

/* Filtering: a call out of the range and back.
 *   0xa000 mov r0, r0
 *   0xa004 bl 0xb000          (outside [0xa000, 0xb000))
 *   0xa008 mov r0, r0
 *   0xa00c mov r0, r0
 *   0xb000 mov r0, r0
 *   0xb004 bx lr              -> 0xa008
 * The call is traced (its atom flushed before trace stops), nothing of
 * 0xb000, then an I-sync trace_on where the range is entered again. */
static void filter_call_out(void)
{
	const uint32_t in[] = { A_NOP, arm_b(COND_AL, 0xa004, 0xb000, 1), A_NOP, A_NOP };
	const uint32_t out[] = { A_NOP, A_BX_LR };
	struct rig r;

	rig_init(&r);
	r.mc.filter = 1;
	r.mc.filter_start = 0xa000;
	r.mc.filter_end = 0xb000;
	r.cfg.return_stack = 1;
	add_arm(&r, 0xa000, in, 4);
	add_arm(&r, 0xb000, out, 2);
	rig_start(&r);
	run_arm(&r, 0xa000);
	run_arm(&r, 0xa004);
	run_arm(&r, 0xb000);
	run_arm(&r, 0xb004);
	run_arm(&r, 0xa008);
	run_arm(&r, 0xa00c);
	finish(&r);
	EXPECT_PACKETS(&r, "async | isync trace_on 0xa000 arm | atom E | "
			   "isync trace_on 0xa008 arm | waypoint 0xa00c");
	check_flow(&r);
	rig_free(&r);
}

/* Filtering: leaving the range without a waypoint needs a waypoint update
 * at the last traced instruction; a branch back re-enters.
 *   0xc000..0xc008 mov r0, r0
 *   0xc00c b 0xc000           imm24 = (0xc000 - 0xc014) / 4 = -5
 * with the range [0xc000, 0xc008). */
static void filter_fall_out(void)
{
	const uint32_t code[] = { A_NOP, A_NOP, A_NOP, arm_b(COND_AL, 0xc00c, 0xc000, 0) };
	struct rig r;

	rig_init(&r);
	r.mc.filter = 1;
	r.mc.filter_start = 0xc000;
	r.mc.filter_end = 0xc008;
	PTU_EQ(code[3], 0xeafffffb);
	add_arm(&r, 0xc000, code, 4);
	rig_start(&r);
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t a = 0xc000; a < 0xc010; a += 4)
			run_arm(&r, a);
	run_arm(&r, 0xc000);
	run_arm(&r, 0xc004);
	finish(&r);
	EXPECT_PACKETS(&r, "async | isync trace_on 0xc000 arm | waypoint 0xc004 | "
			   "isync trace_on 0xc000 arm | waypoint 0xc004 | "
			   "isync trace_on 0xc000 arm | waypoint 0xc004");
	check_flow(&r);
	rig_free(&r);
}

/* Memory the image does not cover, reached by a branch (qemu-user's
 * kernel helper): trace stops after the branch, resumes with an I-sync.
 *   0xd000 blx r3             -> 0xffff0fe0 (no image)
 *   0xd004 mov r0, r0 */
static void leave_image(void)
{
	const uint32_t code[] = { A_BLX_R3, A_NOP };
	struct rig r;

	rig_init(&r);
	add_arm(&r, 0xd000, code, 2);
	rig_start(&r);
	run_arm(&r, 0xd000);
	run_arm(&r, 0xffff0fe0);
	run_arm(&r, 0xd004);
	finish(&r);
	EXPECT_PACKETS(&r, "async | isync trace_on 0xd000 arm | branch 0xffff0fe0 arm | "
			   "isync trace_on 0xd004 arm | waypoint 0xd004");
	check_flow(&r);
	rig_free(&r);
}

/* A taken branch to the next address may leave the image there too (the
 * fuzzer's known issue 2): BLEQ to 0x10004, the image's only word. */
static void branch_to_next_leaves_image(void)
{
	const uint32_t code[] = { arm_b(0x0, 0x10000, 0x10004, 1) };
	struct rig r;

	rig_init(&r);
	add_arm(&r, 0x10000, code, 1);
	rig_start(&r);
	run_arm(&r, 0x10000);
	PTU_EQ(run_insn(&r, 0x10004, PFT_ISA_ARM, 0), 0);
	finish(&r);
	/* The branch's E atom, then nothing: trace is off outside the image. */
	EXPECT_PACKETS(&r, "async | isync trace_on 0x10000 arm | atom E");
	check_flow(&r);
	rig_free(&r);
}

/* ISB is a waypoint without a change of flow: an E atom (flow 4.1). */
static void isb_atom(void)
{
	const uint32_t code[] = { A_NOP, A_ISB, A_NOP };
	struct rig r;

	rig_init(&r);
	add_arm(&r, 0xe000, code, 3);
	rig_start(&r);
	run_arm(&r, 0xe000);
	run_arm(&r, 0xe004);
	run_arm(&r, 0xe008);
	finish(&r);
	EXPECT_PACKETS(&r, "async | isync trace_on 0xe000 arm | atom E | waypoint 0xe008");
	check_flow(&r);
	rig_free(&r);
}

/* Interworking: ARM `blx <imm>` into Thumb is an E atom only (flow 5.7);
 * the Thumb `bx lr` back to ARM matches the return stack (address and
 * ISA), so it is an E atom as well; without the stack it is an address
 * packet.
 *   0xf000 blx 0xf101 (Thumb 0xf100)   off = 0xf8, H = 0: 0xfa00003e
 *   0xf004 mov r0, r0
 *   0xf100 nop (T)
 *   0xf102 bx lr (T)                   -> 0xf004 ARM
 * ISAs are not given: the model infers them. */
static void interworking(int return_stack, const char *want)
{
	const uint32_t arm[] = { arm_blx_imm(0xf000, 0xf100), A_NOP };
	const uint16_t thumb[] = { T_NOP, T_BX_LR };
	struct rig r;

	rig_init(&r);
	r.cfg.return_stack = (uint8_t)return_stack;
	PTU_EQ(arm[0], 0xfa00003e);
	add_arm(&r, 0xf000, arm, 2);
	add_thumb(&r, 0xf100, thumb, 2);
	rig_start(&r);
	PTU_EQ(run_insn(&r, 0xf000, PFT_ISA_ARM, 0), 0);
	PTU_EQ(run_insn(&r, 0xf100, PFT_ISA_UNKNOWN, 0), 0);
	PTU_EQ(run_insn(&r, 0xf102, PFT_ISA_UNKNOWN, 0), 0);
	PTU_EQ(run_insn(&r, 0xf004, PFT_ISA_ARM, 0), 0);
	finish(&r);
	EXPECT_PACKETS(&r, want);
	check_flow(&r);
	rig_free(&r);
}

static void interworking_rs(void)
{
	interworking(1, "async | isync trace_on 0xf000 arm | atom EE | waypoint 0xf004");
}

static void interworking_no_rs(void)
{
	interworking(0, "async | isync trace_on 0xf000 arm | atom E | branch 0xf004 arm | "
			"waypoint 0xf004");
}

/* Context IDs (protocol 5.7): in every I-sync, and a packet when the
 * traced part (ctxid_bytes = 1: the low byte) changes, after the pending
 * atoms. */
static void context_id(void)
{
	struct rig r;
	struct pft_model_insn in = { .addr = 0x2000, .isa = PFT_ISA_ARM, .has_ctxid = 1,
				     .ctxid = 0x1234 };

	rig_init(&r);
	r.cfg.ctxid_bytes = 1;
	setup_loop(&r);
	rig_start(&r);
	PTU_EQ(pft_ptm_model_put(r.m, &in, sizeof(in)), 0);
	take(&r);
	run_arm(&r, 0x2004);
	in.ctxid = 0x5634;  /* same low byte: nothing to send */
	PTU_EQ(pft_ptm_model_put(r.m, &in, sizeof(in)), 0);
	take(&r);
	run_arm(&r, 0x2004);
	in.ctxid = 0x99;
	PTU_EQ(pft_ptm_model_put(r.m, &in, sizeof(in)), 0);
	take(&r);
	run_arm(&r, 0x2004);
	finish(&r);
	EXPECT_PACKETS(&r, "async | isync trace_on 0x2000 arm | atom EE | ctxid 0x99 | "
			   "waypoint 0x2000");
	PTU_EQ(r.pkts[1].ctxid, 0x34);
	PTU_EQ(r.pkts[1].size, 7);
	check_packets(&r);
	rig_free(&r);
}

/* VMID (protocol 5.8): after every I-sync and when it changes. */
static void vmid(void)
{
	struct rig r;
	struct pft_model_insn in = { .addr = 0x2000, .isa = PFT_ISA_ARM, .has_vmid = 1,
				     .vmid = 5 };

	rig_init(&r);
	r.cfg.vmid = 1;
	setup_loop(&r);
	rig_start(&r);
	PTU_EQ(pft_ptm_model_put(r.m, &in, sizeof(in)), 0);
	take(&r);
	run_arm(&r, 0x2004);
	in.vmid = 6;
	PTU_EQ(pft_ptm_model_put(r.m, &in, sizeof(in)), 0);
	take(&r);
	finish(&r);
	EXPECT_PACKETS(&r, "async | isync trace_on 0x2000 arm | vmid 5 | atom E | vmid 6 | "
			   "waypoint 0x2000");
	check_packets(&r);
	rig_free(&r);
}

/* Timestamps: after the I-sync and every second traced waypoint.  PFTv1.1:
 * the time of the last traced waypoint (1 cycle per instruction: the bne
 * of pass k completes at 2k); PFTv1.0: the time the packet is made, with
 * the cycles up to it (flow 8). */
static void timestamps(void)
{
	struct rig r;

	rig_init(&r);
	r.cfg.timestamps = 1;
	r.mc.ts_period = 2;
	setup_loop(&r);
	rig_start(&r);
	for (int i = 0; i < 4; i++) {
		run_arm(&r, 0x2000);
		run_arm(&r, 0x2004);
	}
	run_arm(&r, 0x2000);
	finish(&r);
	EXPECT_PACKETS(&r, "async | isync trace_on 0x2000 arm | ts 0x0 | atom EE | ts 0x4 | "
			   "atom EE | ts 0x8 | waypoint 0x2000");
	check_packets(&r);
	rig_free(&r);

	rig_init(&r);
	r.cfg.timestamps = 1;
	r.cfg.cycle_accurate = 1;
	r.cfg.version_minor = 0;
	r.cfg.ts_64bit = 0;
	r.cfg.ts_gray = 1;
	r.mc.ts_period = 2;
	setup_loop(&r);
	rig_start(&r);
	for (int i = 0; i < 2; i++) {
		run_arm(&r, 0x2000);
		run_arm(&r, 0x2004);
	}
	run_arm(&r, 0x2000);
	/* The second bne completes at 4; the timestamp is made when the
	 * next instruction comes, at 4 as well; the I-sync one at 0. */
	EXPECT_PACKETS(&r, "async | isync trace_on 0x2000 arm cc0 | ts 0x0 cc0 | atom E cc2 | "
			   "atom E cc2 | ts 0x4 cc0");
	finish(&r);
	check_packets(&r);
	rig_free(&r);
}

/* Branch broadcast: taken direct branches as address packets (flow 6.1);
 * not taken, still an N atom. */
static void branch_broadcast(void)
{
	struct rig r;

	rig_init(&r);
	r.cfg.branch_broadcast = 1;
	setup_loop(&r);
	rig_start(&r);
	run_loop(&r);
	EXPECT_PACKETS(&r, "async | isync trace_on 0x2000 arm | branch 0x2000 arm | "
			   "branch 0x2000 arm | branch 0x2000 arm | branch 0x2000 arm | "
			   "branch 0x2000 arm | branch 0x2000 arm | atom N | branch 0x3000 arm | "
			   "waypoint 0x3000");
	check_flow(&r);
	rig_free(&r);
}

/* A change of security state at an indirect branch is carried by the
 * branch packet (EX0 with NS, protocol 4.3); at a straight-line
 * instruction it needs a waypoint update and a new I-sync. */
static void security_change(void)
{
	struct rig r;
	struct pft_model_insn in = { .addr = 0x3000, .isa = PFT_ISA_ARM, .has_ns = 1, .ns = 1 };

	rig_init(&r);
	setup_loop(&r);
	rig_start(&r);
	run_arm(&r, 0x2008);
	run_arm(&r, 0x200c);
	PTU_EQ(pft_ptm_model_put(r.m, &in, sizeof(in)), 0);
	take(&r);
	finish(&r);
	EXPECT_PACKETS(&r, "async | isync trace_on 0x2008 arm | branch 0x3000 arm ns | "
			   "waypoint 0x3000");
	/* 2 address bytes with E = 1, then EX0 = 0 0 0 0000 1 (NS). */
	PTU_EQ(r.pkts[2].size, 3);
	PTU_EQ(r.bytes[r.pkts[2].offset + 1], 0x70);
	PTU_EQ(r.bytes[r.pkts[2].offset + 2], 0x01);
	check_packets(&r);
	rig_free(&r);

	rig_init(&r);
	setup_loop(&r);
	rig_start(&r);
	run_arm(&r, 0x2000);
	in.addr = 0x2004;
	PTU_EQ(pft_ptm_model_put(r.m, &in, sizeof(in)), 0);
	take(&r);
	finish(&r);
	EXPECT_PACKETS(&r, "async | isync trace_on 0x2000 arm | waypoint 0x2000 | "
			   "isync trace_on 0x2004 arm ns");
	check_packets(&r);
	rig_free(&r);
}

/* A last instruction that is a waypoint has no known outcome: only what
 * ran before it is reported (a waypoint update), and the atoms flushed. */
static void finish_on_waypoint(void)
{
	struct rig r;

	rig_init(&r);
	setup_loop(&r);
	rig_start(&r);
	run_arm(&r, 0x2000);
	run_arm(&r, 0x2004);
	run_arm(&r, 0x2000);
	run_arm(&r, 0x2004);
	finish(&r);
	EXPECT_PACKETS(&r, "async | isync trace_on 0x2000 arm | atom E | waypoint 0x2000");
	PTU_EQ(pft_ptm_model_finish(r.m), -PFT_ERR_EOS);
	PTU_EQ(run_insn(&r, 0x2000, PFT_ISA_ARM, 0), -PFT_ERR_EOS);
	struct pft_ptm_packet p;
	PTU_EQ(pft_ptm_model_next(r.m, &p, sizeof(p)), -PFT_ERR_EOS);
	rig_free(&r);
}

/* Impossible flows are refused with the reason, and change nothing. */
static void bad_flows(void)
{
	struct rig r;

	rig_init(&r);
	setup_loop(&r);
	{
		const uint32_t end[] = { A_NOP };   /* the image ends at 0x9004 */
		add_arm(&r, 0x9000, end, 1);
	}
	rig_start(&r);
	/* Not in the image at all. */
	PTU_EQ(run_insn(&r, 0x100, PFT_ISA_ARM, 0), -PFT_ERR_NOMAP);
	PTU_EQ(model_reason(r.m), PFT_ERR_MODEL_NOT_IN_IMAGE);
	PTU_EQ(r.npkts, 0);
	/* Misaligned for its ISA. */
	PTU_EQ(run_insn(&r, 0x2002, PFT_ISA_ARM, 0), -PFT_ERR_BAD_INSN);
	PTU_EQ(model_reason(r.m), PFT_ERR_MODEL_MISALIGNED);
	PTU_EQ(run_insn(&r, 0x2000, PFT_ISA_JAZELLE, 0), -PFT_ERR_NOT_SUPPORTED);
	PTU_EQ(model_reason(r.m), PFT_ERR_MODEL_BAD_ISA);
	run_arm(&r, 0x2000);
	PTU_EQ(model_reason(r.m), PFT_ERR_OK);
	/* subs does not branch. */
	PTU_EQ(run_insn(&r, 0x2008, PFT_ISA_ARM, 0), -PFT_ERR_BAD_INSN);
	PTU_EQ(model_reason(r.m), PFT_ERR_MODEL_NOT_BRANCH);
	{
		struct pft_diag d;
		PTU_EQ(pft_ptm_model_diag(r.m, &d), 0);
		PTU_EQ(d.code, PFT_ERR_BAD_INSN);
		PTU_STREQ(d.text, "0x00002008 cannot follow 0x00002000: the PC changed after "
				  "an instruction that cannot branch");
	}
	PTU_EQ(run_insn(&r, 0x2004, PFT_ISA_THUMB, 0), -PFT_ERR_BAD_INSN);
	PTU_EQ(model_reason(r.m), PFT_ERR_MODEL_ISA_CHANGE);
	run_arm(&r, 0x2004);
	/* bne goes to 0x2000 or 0x2008 only. */
	PTU_EQ(run_insn(&r, 0x200c, PFT_ISA_ARM, 0), -PFT_ERR_BAD_INSN);
	PTU_EQ(model_reason(r.m), PFT_ERR_MODEL_DIRECT_ELSEWHERE);
	PTU_EQ(run_insn(&r, 0x9000, PFT_ISA_ARM, 0), -PFT_ERR_BAD_INSN);
	PTU_EQ(model_reason(r.m), PFT_ERR_MODEL_DIRECT_ELSEWHERE);
	run_arm(&r, 0x2008);
	run_arm(&r, 0x200c);
	run_arm(&r, 0x9000);
	/* Falling off the end of the image: no branch leads there. */
	PTU_EQ(run_insn(&r, 0x9004, PFT_ISA_ARM, 0), -PFT_ERR_NOMAP);
	PTU_EQ(model_reason(r.m), PFT_ERR_MODEL_NOT_IN_IMAGE);
	{
		struct pft_diag d;
		PTU_EQ(pft_ptm_model_diag(r.m, &d), 0);
		PTU_EQ(d.code, PFT_ERR_NOMAP);
		PTU_STREQ(d.text, "0x00009004 is not in the image (and no branch leads there)");
	}
	finish(&r);
	/* The refused instructions left no trace. */
	EXPECT_PACKETS(&r, "async | isync trace_on 0x2000 arm | atom N | branch 0x9000 arm | "
			   "waypoint 0x9000");
	check_flow(&r);
	rig_free(&r);
}

static void bad_arguments(void)
{
	struct pft_ptm_config cfg;
	struct pft_model_config mc = { .size = sizeof(mc) };
	struct pft_image *img = pft_image_alloc(NULL);
	struct pft_model_insn in = { .addr = 0, .isa = PFT_ISA_ARM };
	struct pft_ptm_packet p;
	int err = 0;

	pft_ptm_config_init(&cfg);
	PTU_CHECK(pft_ptm_model_alloc(NULL, NULL, img, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	PTU_CHECK(pft_ptm_model_alloc(&cfg, NULL, NULL, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	mc.size = 4;
	PTU_CHECK(pft_ptm_model_alloc(&cfg, &mc, img, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	mc.size = sizeof(mc);
	cfg.ctxid_bytes = 3;
	PTU_CHECK(pft_ptm_model_alloc(&cfg, &mc, img, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_BAD_CONFIG);
	cfg.ctxid_bytes = 0;
	cfg.vmid = 1;
	cfg.version_minor = 0;
	PTU_CHECK(pft_ptm_model_alloc(&cfg, &mc, img, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_BAD_CONFIG);
	pft_ptm_config_init(&cfg);
	cfg.return_stack = 1;
	cfg.branch_broadcast = 1;
	PTU_CHECK(pft_ptm_model_alloc(&cfg, &mc, img, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_BAD_CONFIG);
	pft_ptm_config_init(&cfg);
	mc.filter = 1;
	mc.filter_start = mc.filter_end = 0x1000;
	PTU_CHECK(pft_ptm_model_alloc(&cfg, &mc, img, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_BAD_CONFIG);
	mc.filter = 0;

	struct pft_ptm_model *m = pft_ptm_model_alloc(&cfg, &mc, img, &err);
	PTU_CHECK(m != NULL);
	PTU_EQ(pft_ptm_model_put(NULL, &in, sizeof(in)), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_model_put(m, NULL, sizeof(in)), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_model_put(m, &in, 2), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_model_next(NULL, &p, sizeof(p)), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_model_next(m, NULL, sizeof(p)), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_model_next(m, &p, sizeof(p)), -PFT_ERR_NEED_INPUT);
	PTU_EQ(pft_ptm_model_finish(NULL), -PFT_ERR_INVALID);
	{
		struct pft_diag d;
		PTU_EQ(pft_ptm_model_diag(NULL, &d), -PFT_ERR_INVALID);
		PTU_EQ(pft_ptm_model_diag(m, NULL), -PFT_ERR_INVALID);
	}
	PTU_EQ(pft_ptm_model_bytes(NULL), 0);
	PTU_EQ(pft_ptm_model_insns(NULL), 0);
	pft_ptm_model_free(m);
	pft_ptm_model_free(NULL);
	pft_image_free(img);
}

/* Packets not taken before the next put are an error of the caller. */
static void untaken_packets(void)
{
	struct rig r;
	struct pft_model_insn in = { .addr = 0x2000, .isa = PFT_ISA_ARM };

	rig_init(&r);
	setup_loop(&r);
	rig_start(&r);
	PTU_EQ(pft_ptm_model_put(r.m, &in, sizeof(in)), 0);
	in.addr = 0x2004;
	PTU_EQ(pft_ptm_model_put(r.m, &in, sizeof(in)), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_model_finish(r.m), -PFT_ERR_INVALID);
	take(&r);
	PTU_EQ(pft_ptm_model_put(r.m, &in, sizeof(in)), 0);
	rig_free(&r);
}

/* ---------------------------------------------------------------------- */

/* Random walks through random code: at every step the walker picks a
 * successor the instruction allows (its class from pft_isa_classify: the
 * next instruction, a direct branch's target, anything after an indirect
 * branch, sometimes memory outside the image), under random PTM
 * configurations.  The model must accept the walk, and the packet decoder
 * and flow decoder must give back exactly the traced instructions. */
static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

enum { WALK_BASE = 0x10000, WALK_SIZE = 4096 };

static int walk_class(struct rig *r, uint32_t addr, uint8_t isa, struct pft_insn_class *c)
{
	uint8_t code[4];
	int n = pft_image_read(r->img, addr, PFT_SPACE_ANY, code, sizeof(code));

	return n > 0 && pft_isa_classify((enum pft_isa)isa, addr, code, (size_t)n, 0, c) > 0;
}

/* A random address in the code, aligned for @isa. */
static uint32_t walk_anywhere(uint32_t *seed, uint8_t isa)
{
	return (WALK_BASE + lcg(seed) % WALK_SIZE) & (isa == PFT_ISA_ARM ? ~3u : ~1u);
}

/* ---- Exceptions (pft-flow.md 5.3) ---- */

enum {
	A_SVC = 0xef000005,      /* svc #5 */
	A_LDR = 0xe5910000,      /* ldr r0, [r1] */
	A_SUBS_PC_LR_4 = 0xe25ef004, /* subs pc, lr, #4 */
	A_MOVS_PC_LR = 0xe1b0f00e,   /* movs pc, lr */
	VEC_SVC = 0x08, VEC_DABT = 0x10, VEC_IRQ = 0x18
};

/* Vectors at 0: each a handler of one instruction that returns
 * (subs pc, lr, #4 or movs pc, lr). */
static void add_vectors(struct rig *r)
{
	const uint32_t v[] = { A_NOP, A_NOP, A_MOVS_PC_LR, A_NOP, A_SUBS_PC_LR_4, A_NOP,
			       A_SUBS_PC_LR_4, A_NOP };

	add_arm(r, 0, v, 8);
}

/* Exception @number is taken before the handler at @vector; @ret is its
 * return address (0: let the model infer it).  The flow check expects it
 * with @expect_ret. */
static int run_exc(struct rig *r, uint32_t vector, unsigned number, uint32_t ret,
		   uint32_t expect_ret)
{
	struct pft_model_insn in = { .addr = vector, .isa = PFT_ISA_ARM,
				     .exception = (uint16_t)number, .has_exc_ret = ret != 0,
				     .exc_ret = ret };
	int err = pft_ptm_model_put(r->m, &in, sizeof(in));

	if (err == 0) {
		if (r->nseq < MAX_SEQ) {
			r->seq[r->nseq] = vector;
			r->seq_isa[r->nseq++] = PFT_ISA_ARM;
		}
		if (r->nexc < 64) {
			r->exc[r->nexc] = number;
			r->exc_ret[r->nexc++] = expect_ret;
		}
	}
	take(r);
	return err;
}

/*
 *   0x1000 nop
 *   0x1004 b 0x1100
 *   0x1100 nop
 *   0x1104 svc #5
 *   0x1108 ldr r0, [r1]
 *   0x110c bx lr
 */
static void setup_exc(struct rig *r)
{
	const uint32_t a[] = { A_NOP, arm_b(COND_AL, 0x1004, 0x1100, 0) };
	const uint32_t b[] = { A_NOP, A_SVC, A_LDR, A_BX_LR };

	add_vectors(r);
	add_arm(r, 0x1000, a, 2);
	add_arm(r, 0x1100, b, 4);
}

/* An interrupt after straight-line code: a waypoint update at the last
 * instruction that ran, then the exception branch, which takes no atom;
 * the return is an address packet. */
static void exc_after_straight(void)
{
	struct rig r;

	rig_init(&r);
	setup_exc(&r);
	rig_start(&r);
	run_arm(&r, 0x1000);
	PTU_EQ(run_exc(&r, VEC_IRQ, PFT_EXC_IRQ, 0, 0x1004), 0);
	run_arm(&r, 0x1004);
	run_arm(&r, 0x1100);
	finish(&r);
	EXPECT_PACKETS(&r, "async | isync trace_on 0x1000 arm | waypoint 0x1000 | "
			   "branch 0x18 arm exc14 | branch 0x1004 arm | atom E | waypoint 0x1100");
	check_flow(&r);
	rig_free(&r);
}

/* An interrupt right after a waypoint: its atom, then the exception
 * branch alone (the return address is the branch's target, which the
 * model infers from an unconditional direct branch). */
static void exc_after_waypoint(void)
{
	struct rig r;

	rig_init(&r);
	setup_exc(&r);
	r.cfg.cycle_accurate = 1;
	rig_start(&r);
	run_arm(&r, 0x1000);
	run_arm(&r, 0x1004);
	PTU_EQ(run_exc(&r, VEC_IRQ, PFT_EXC_IRQ, 0, 0x1100), 0);
	run_arm(&r, 0x1100);
	finish(&r);
	EXPECT_PACKETS(&r, "async | isync trace_on 0x1000 arm cc0 | atom E cc2 | "
			   "branch 0x18 arm exc14 cc0 | branch 0x1100 arm cc1 | waypoint 0x1100");
	check_flow(&r);
	rig_free(&r);
}

/* SVC: the waypoint update covers the SVC itself, the return address is
 * the next instruction.  A data abort: the aborted load did not run (the
 * log leaves it out); the update covers what ran before it, and the
 * return address is the load. */
static void exc_svc_and_abort(void)
{
	struct rig r;

	rig_init(&r);
	setup_exc(&r);
	rig_start(&r);
	run_arm(&r, 0x1100);
	run_arm(&r, 0x1104);
	PTU_EQ(run_exc(&r, VEC_SVC, PFT_EXC_SVC, 0, 0x1108), 0);
	/* The load aborts as the SVC handler returns to it, and runs when
	 * the abort handler returns. */
	PTU_EQ(run_exc(&r, VEC_DABT, PFT_EXC_DATA_ABORT, 0x1108, 0x1108), 0);
	run_arm(&r, 0x1108);
	finish(&r);
	EXPECT_PACKETS(&r, "async | isync trace_on 0x1100 arm | waypoint 0x1104 | "
			   "branch 0x8 arm exc10 | branch 0x1108 arm | branch 0x10 arm exc12 | "
			   "branch 0x1108 arm | waypoint 0x1108");
	check_flow(&r);
	rig_free(&r);

	/* An abort at the target of a branch: the branch's atom, then the
	 * exception; nothing ran in between. */
	rig_init(&r);
	setup_exc(&r);
	rig_start(&r);
	run_arm(&r, 0x1000);
	run_arm(&r, 0x1004);
	PTU_EQ(run_exc(&r, VEC_DABT, PFT_EXC_DATA_ABORT, 0x1100, 0x1100), 0);
	run_arm(&r, 0x1100);
	finish(&r);
	EXPECT_PACKETS(&r, "async | isync trace_on 0x1000 arm | atom E | branch 0x10 arm exc12 | "
			   "branch 0x1100 arm | waypoint 0x1100");
	check_flow(&r);
	rig_free(&r);
}

/* After an indirect branch the return address must be given: it is where
 * the branch went (an address packet, or an E atom when the return stack
 * matches), then the exception. */
static void exc_after_indirect(void)
{
	const uint32_t caller[] = { arm_b(COND_AL, 0x4000, 0x1100, 1), A_NOP };
	struct rig r;

	rig_init(&r);
	setup_exc(&r);
	add_arm(&r, 0x4000, caller, 2);
	rig_start(&r);
	run_arm(&r, 0x1108);
	run_arm(&r, 0x110c);
	PTU_EQ(run_exc(&r, VEC_IRQ, PFT_EXC_IRQ, 0, 0), -PFT_ERR_BAD_INSN);
	PTU_EQ(model_reason(r.m), PFT_ERR_MODEL_EXC_RET_UNKNOWN);
	PTU_EQ(run_exc(&r, VEC_IRQ, PFT_EXC_IRQ, 0x4004, 0x4004), 0);
	run_arm(&r, 0x4004);
	finish(&r);
	EXPECT_PACKETS(&r, "async | isync trace_on 0x1108 arm | branch 0x4004 arm | "
			   "branch 0x18 arm exc14 | branch 0x4004 arm | waypoint 0x4004");
	check_flow(&r);
	rig_free(&r);

	rig_init(&r);
	setup_exc(&r);
	r.cfg.return_stack = 1;
	add_arm(&r, 0x4000, caller, 2);
	rig_start(&r);
	run_arm(&r, 0x4000);
	run_arm(&r, 0x1100);
	run_arm(&r, 0x1104);
	run_arm(&r, 0x1108);
	run_arm(&r, 0x110c);
	PTU_EQ(run_exc(&r, VEC_IRQ, PFT_EXC_IRQ, 0x4004, 0x4004), 0);
	run_arm(&r, 0x4004);
	finish(&r);
	/* No exception was modelled at the SVC (the log says none was taken):
	 * it is an ordinary instruction. */
	EXPECT_PACKETS(&r, "async | isync trace_on 0x4000 arm | atom EE | branch 0x18 arm exc14 | "
			   "branch 0x4004 arm | waypoint 0x4004");
	check_flow(&r);
	rig_free(&r);
}

/* An exception return whose target is the top of the return stack
 * still sends its address (OpenCSD does not take an A32 ERET for a
 * waypoint): here the IRQ handler returns to the caller of the function
 * it interrupted, as a context switch would. */
static void exc_return_not_predicted(void)
{
	const uint32_t caller[] = { arm_b(COND_AL, 0x4000, 0x1100, 1), A_NOP };
	struct rig r;

	rig_init(&r);
	setup_exc(&r);
	r.cfg.return_stack = 1;
	add_arm(&r, 0x4000, caller, 2);
	rig_start(&r);
	run_arm(&r, 0x4000);
	run_arm(&r, 0x1100);
	PTU_EQ(run_exc(&r, VEC_IRQ, PFT_EXC_IRQ, 0, 0x1104), 0);
	run_arm(&r, 0x4004);
	finish(&r);
	EXPECT_PACKETS(&r, "async | isync trace_on 0x4000 arm | atom E | waypoint 0x1100 | "
			   "branch 0x18 arm exc14 | branch 0x4004 arm | waypoint 0x4004");
	check_flow(&r);
	rig_free(&r);
}

/* A handler outside the filter is not traced: trace goes off after the
 * update, and comes back with an I-sync where the handler returns. */
static void exc_handler_filtered(void)
{
	struct rig r;

	rig_init(&r);
	setup_exc(&r);
	r.mc.filter = 1;
	r.mc.filter_start = 0x1000;
	r.mc.filter_end = 0x2000;
	rig_start(&r);
	run_arm(&r, 0x1000);
	PTU_EQ(run_exc(&r, VEC_IRQ, PFT_EXC_IRQ, 0, 0), 0);
	r.nexc = 0;  /* not traced */
	run_arm(&r, 0x1004);
	run_arm(&r, 0x1100);
	finish(&r);
	EXPECT_PACKETS(&r, "async | isync trace_on 0x1000 arm | waypoint 0x1000 | "
			   "isync trace_on 0x1004 arm | atom E | waypoint 0x1100");
	check_flow(&r);
	rig_free(&r);
}

/* An exception from Thumb code to an ARM vector and back. */
static void exc_from_thumb(void)
{
	const uint16_t t[] = { T_NOP, T_NOP };
	struct rig r;
	struct pft_model_insn in = { .addr = 0x8002, .isa = PFT_ISA_THUMB };

	rig_init(&r);
	add_vectors(&r);
	add_thumb(&r, 0x8000, t, 2);
	rig_start(&r);
	run_thumb(&r, 0x8000);
	PTU_EQ(run_exc(&r, VEC_IRQ, PFT_EXC_IRQ, 0, 0x8002), 0);
	PTU_EQ(pft_ptm_model_put(r.m, &in, sizeof(in)), 0);
	r.seq[r.nseq] = 0x8002;
	r.seq_isa[r.nseq++] = PFT_ISA_THUMB;
	take(&r);
	finish(&r);
	EXPECT_PACKETS(&r, "async | isync trace_on 0x8000 thumb | waypoint 0x8000 | "
			   "branch 0x18 arm exc14 | branch 0x8002 thumb | waypoint 0x8002");
	check_flow(&r);
	rig_free(&r);
}

/* Exception numbers go up to 511 (9 bits), debug state entry (1) is no
 * handler to trace; the first instruction of a log
 * may be an exception entry (nothing before it to complete). */
static void exc_numbers(void)
{
	struct rig r;

	rig_init(&r);
	setup_exc(&r);
	rig_start(&r);
	PTU_EQ(run_exc(&r, VEC_IRQ, 512, 0, 0), -PFT_ERR_INVALID);
	PTU_EQ(model_reason(r.m), PFT_ERR_MODEL_BAD_EXCEPTION);
	PTU_EQ(run_exc(&r, VEC_IRQ, PFT_EXC_DEBUG_HALT, 0, 0), -PFT_ERR_INVALID);
	PTU_EQ(model_reason(r.m), PFT_ERR_MODEL_BAD_EXCEPTION);
	PTU_EQ(run_exc(&r, VEC_IRQ, PFT_EXC_IRQ, 0, 0), 0);
	r.nexc = 0;  /* trace starts at the vector: no exception packet */
	run_arm(&r, 0x1000);
	finish(&r);
	EXPECT_PACKETS(&r, "async | isync trace_on 0x18 arm | branch 0x1000 arm | "
			   "waypoint 0x1000");
	check_flow(&r);
	rig_free(&r);
}

static void random_walk(uint32_t seed)
{
	static uint8_t code[WALK_SIZE];
	struct rig r;
	uint8_t isa = PFT_ISA_ARM;
	uint32_t addr = WALK_BASE, out = 0;

	rig_init(&r);
	for (size_t i = 0; i < sizeof(code); i++)
		code[i] = (uint8_t)lcg(&seed);
	PTU_CHECK(pft_image_add_buffer(r.img, WALK_BASE, code, sizeof(code), PFT_SPACE_ANY,
				       0) >= 0);
	uint32_t k = lcg(&seed);
	r.cfg.cycle_accurate = k & 1;
	r.cfg.return_stack = (k >> 1) & 1;
	r.cfg.branch_broadcast = !r.cfg.return_stack && ((k >> 2) & 1);
	r.cfg.timestamps = (k >> 3) & 1;
	r.cfg.ctxid_bytes = (uint8_t[]){ 0, 1, 2, 4 }[(k >> 4) & 3];
	r.cfg.version_minor = (k >> 6) & 1;
	r.cfg.ts_gray = !r.cfg.version_minor;
	r.cfg.ts_64bit = r.cfg.version_minor;
	r.mc.sync_period = 16 + lcg(&seed) % 200;
	r.mc.ts_period = lcg(&seed) % 4;
	if ((k >> 7) & 1) {
		r.mc.filter = 1;
		r.mc.filter_start = WALK_BASE + lcg(&seed) % (WALK_SIZE / 2);
		r.mc.filter_end = r.mc.filter_start + 1 + lcg(&seed) % (WALK_SIZE / 2);
	}
	rig_start(&r);
	for (int step = 0; step < 3000; step++) {
		struct pft_insn_class c;
		int in_image = walk_class(&r, addr, isa, &c);
		struct pft_model_insn in = { .addr = addr, .isa = isa, .has_cycles = 1,
					     .cycles = lcg(&seed) % 40, .has_ctxid = 1,
					     .ctxid = lcg(&seed) % 64 ? 0x1234 : lcg(&seed) };
		int err = pft_ptm_model_put(r.m, &in, sizeof(in));
		if (err) {
			fprintf(stderr, "  walk step %d: 0x%x %s refused: %s\n", step, addr,
				pft_isa_name(isa), pft_errstr(model_reason(r.m)));
			PTU_EQ(err, 0);
			break;
		}
		r.seq[r.nseq] = addr;
		r.seq_isa[r.nseq++] = isa;
		take(&r);
		if (!in_image) {
			/* Outside the image: come back anywhere. */
			isa = lcg(&seed) & 1 ? PFT_ISA_THUMB : PFT_ISA_ARM;
			addr = walk_anywhere(&seed, isa);
			continue;
		}
		uint32_t next = addr + c.size, pick = lcg(&seed) % 8;
		struct pft_insn_class nc;
		if (c.kind == PFT_WP_DIRECT && pick < 5) {
			addr = c.target;
			isa = c.target_isa;
		} else if (c.kind == PFT_WP_INDIRECT && pick < 5) {
			isa = pick & 1 ? PFT_ISA_THUMB : PFT_ISA_ARM;
			addr = pick == 4 ? 0xffff0fe0u + 4 * out++ % 8 : walk_anywhere(&seed, isa);
		} else if (walk_class(&r, next, isa, &nc)) {
			addr = next;
		} else {
			break;  /* nowhere to go from here */
		}
	}
	finish(&r);
	/* A last waypoint is not traced: leave it out of the comparison. */
	struct pft_insn_class last;
	if (r.nseq && walk_class(&r, r.seq[r.nseq - 1], r.seq_isa[r.nseq - 1], &last) &&
	    last.kind != PFT_WP_NONE)
		r.nseq--;
	check_flow(&r);
	rig_free(&r);
}

static void random_walks(void)
{
	for (uint32_t seed = 1; seed <= 300; seed++) {
		int before = ptu_failed_checks;
		random_walk(seed * 2654435761u);
		if (ptu_failed_checks != before) {
			fprintf(stderr, "  (walk %u)\n", seed);
			break;
		}
	}
}

int main(void)
{
	PTU_RUN(atoms_packed);
	PTU_RUN(cycle_accurate_atoms);
	PTU_RUN(return_stack_off);
	PTU_RUN(return_stack_on);
	PTU_RUN(return_stack_depth);
	PTU_RUN(return_stack_emptied_at_isync);
	PTU_RUN(indirect_to_next);
	PTU_RUN(sync_period);
	PTU_RUN(sync_period_default);
	PTU_RUN(waypoint_update_4096);
	PTU_RUN(filter_call_out);
	PTU_RUN(filter_fall_out);
	PTU_RUN(leave_image);
	PTU_RUN(branch_to_next_leaves_image);
	PTU_RUN(isb_atom);
	PTU_RUN(interworking_rs);
	PTU_RUN(interworking_no_rs);
	PTU_RUN(context_id);
	PTU_RUN(vmid);
	PTU_RUN(timestamps);
	PTU_RUN(branch_broadcast);
	PTU_RUN(security_change);
	PTU_RUN(finish_on_waypoint);
	PTU_RUN(bad_flows);
	PTU_RUN(bad_arguments);
	PTU_RUN(untaken_packets);
	PTU_RUN(exc_after_straight);
	PTU_RUN(exc_after_waypoint);
	PTU_RUN(exc_svc_and_abort);
	PTU_RUN(exc_after_indirect);
	PTU_RUN(exc_return_not_predicted);
	PTU_RUN(exc_handler_filtered);
	PTU_RUN(exc_from_thumb);
	PTU_RUN(exc_numbers);
	PTU_RUN(random_walks);
	PTU_MAIN_END();
}
