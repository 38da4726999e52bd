/* Tests of the flow decoder (pft_flow_*) against shared/spec/pft-flow.md.
 *
 * The flow's behaviour is specified by the .pftt files in tests/pftt
 * (doc/howto_pftt.md): a program, its packets and the output on one
 * screen.  What stays here is what a .pftt cannot say: the API and its
 * misuse, both paths (pft_ptm_flow_put()/next() and pft_ptm_flow_decode()),
 * pft_ptm_flow_reset(), packet structs no packet decoder produces, images a
 * single ELF section cannot give (Secure and Non-secure copies, adjacent
 * sections, none), a return stack overflow whose depth is the decoder's
 * choice, and the worked examples of pft-flow.md 10 and 10.1 on the
 * trace_cov_a15 snapshot's memory.
 *
 * Programs are hand-assembled A32 instructions at fixed addresses; the
 * assembly is next to each encoding (encodings checked with
 * arm-linux-gnueabihf-as).  Packets are struct pft_ptm_packet values filled by
 * hand, except where a test says it feeds bytes through the packet
 * decoder.  Every expected
 * element is worked out by hand from the spec; the comment above a check
 * says which rule gives it.
 *
 * Every element a packet produces is checked: expect_*() take them in order
 * and expect_end() fails if any is left over.  Each element must carry the
 * offset of the packet that produced it, and pft_ptm_flow_insn_count() must
 * equal the sum of the expected ranges' lengths.
 */
#include "ptunit.h"
#include "pft.h"

#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Program image                                                        */
/* ------------------------------------------------------------------ */

struct insn {
	uint32_t addr;
	uint32_t word;   /* an A32 instruction */
};

#define A32(a, w) { a, w }

#define PROG_BASE 0x8000u
#define PROG_SIZE 0x200u

/*
 * The main program (space ANY, 0x8000-0x81ff).  Gaps are zero: 0x00000000
 * is ANDEQ r0, r0, r0, not a waypoint.
 */
static const struct insn prog[] = {
	/* ARM: direct and conditional branches, a call. */
	A32(0x8000, 0xe3a00000), /* mov   r0, #0 */
	A32(0x8004, 0xe2800001), /* add   r0, r0, #1 */
	A32(0x8008, 0xea000000), /* b     0x8010 */
	A32(0x800c, 0xe1a00000), /* nop */
	A32(0x8010, 0xe3500001), /* cmp   r0, #1 */
	A32(0x8014, 0x0a000001), /* beq   0x8020 */
	A32(0x8018, 0x13a01002), /* movne r1, #2      conditional, no waypoint */
	A32(0x801c, 0xe1a00000), /* nop */
	A32(0x8020, 0xeb000036), /* bl    0x8100      return address 0x8024 */
	A32(0x8024, 0xe3a02003), /* mov   r2, #3 */
	A32(0x8028, 0xe12fff1e), /* bx    lr */
	/* fn */
	A32(0x8100, 0xe92d4010), /* push  {r4, lr} */
	A32(0x8104, 0xe3a04000), /* mov   r4, #0 */
	A32(0x8108, 0xe8bd8010), /* pop   {r4, pc} */
};

static void put_le(uint8_t *p, uint32_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void place(uint8_t *mem, uint32_t base, const struct insn *in, size_t n)
{
	for (size_t i = 0; i < n; i++)
		put_le(mem + (in[i].addr - base), in[i].word, 4);
}

/* BL <target> at @pc, A32 encoding A1: cond 1110, 1011, imm24 =
 * (target - (pc + 8)) / 4 (ARM ARM A8.8.25). */
static uint32_t arm_bl(uint32_t pc, uint32_t target)
{
	return 0xeb000000u | (((target - pc - 8) >> 2) & 0xffffffu);
}

#define NOP_A32 0xe1a00000u   /* mov r0, r0 */
#define BX_LR_A32 0xe12fff1eu /* bx lr */

/* Call chain for the return-stack depth tests: CHAIN_N pairs of
 * "bl CHAIN_FN; bx lr" from CHAIN_BASE (pair k at CHAIN_BASE + 8k, its
 * return address CHAIN_BASE + 8k + 4), and CHAIN_FN: bx lr. */
#define CHAIN_BASE 0x9000u
#define CHAIN_N 40
#define CHAIN_FN 0x9400u

/* ISB_RUN ISBs in a row: every atom, E or N, is one range. */
#define ISB_BASE 0x40000u
#define ISB_RUN 300
#define ISB_A32 0xf57ff06fu

/* Thumb code in two adjacent sections, a 32-bit instruction across the
 * boundary: movs r0, #1 | ldr.w r1, [r1, #4] (f8d1 | 1004) | b.n . */
#define SPAN_BASE 0xa200u

/* Secure and Non-secure code at the same address (pft-flow.md 7). */
#define SPACE_BASE 0xc000u

/* @n A32 words at @mem, little-endian as in memory. */
static void fill_words(uint8_t *mem, const uint32_t *words, size_t n)
{
	for (size_t i = 0; i < n; i++)
		put_le(mem + 4 * i, words[i], 4);
}

static int add_copy(struct pft_image *img, uint32_t vaddr, const uint8_t *buf, size_t len,
		    enum pft_mem_space space)
{
	int rc = pft_image_add_buffer(img, vaddr, buf, len, space, PFT_IMAGE_COPY);

	PTU_CHECK(rc >= 0);
	return rc;
}

static struct pft_image *make_image(void)
{
	enum { CHAIN_WORDS = (CHAIN_FN - CHAIN_BASE) / 4 + 1 };
	static uint8_t mem[PROG_SIZE];
	static uint32_t words[ISB_RUN + CHAIN_WORDS];
	static uint8_t bytes[4 * (ISB_RUN + CHAIN_WORDS)];
	static const uint8_t span1[4] = { 0x01, 0x20, 0xd1, 0xf8 };
	static const uint8_t span2[4] = { 0x04, 0x10, 0xfe, 0xe7 };
	/* Secure: mov r0, #0; b 0xc000.  Non-secure: b 0xc000. */
	static const uint32_t sec[2] = { 0xe3a00000, 0xeafffffd };
	static const uint32_t nsec[1] = { 0xeafffffe };
	uint8_t tmp[8];
	int err = -1;
	struct pft_image *img = pft_image_alloc(&err);

	PTU_CHECK(img != NULL);
	if (!img)
		return NULL;
	memset(mem, 0, sizeof(mem));
	place(mem, PROG_BASE, prog, sizeof(prog) / sizeof(prog[0]));
	add_copy(img, PROG_BASE, mem, sizeof(mem), PFT_SPACE_ANY);

	for (unsigned k = 0; k < CHAIN_N; k++) {
		uint32_t pc = CHAIN_BASE + 8 * k;
		words[2 * k] = arm_bl(pc, CHAIN_FN);
		words[2 * k + 1] = BX_LR_A32;
	}
	for (unsigned i = 2 * CHAIN_N; i < CHAIN_WORDS - 1; i++)
		words[i] = NOP_A32;
	words[CHAIN_WORDS - 1] = BX_LR_A32; /* at CHAIN_FN */
	fill_words(bytes, words, CHAIN_WORDS);
	add_copy(img, CHAIN_BASE, bytes, 4 * CHAIN_WORDS, PFT_SPACE_ANY);

	for (unsigned i = 0; i < ISB_RUN; i++)
		words[i] = ISB_A32;
	fill_words(bytes, words, ISB_RUN);
	add_copy(img, ISB_BASE, bytes, 4 * ISB_RUN, PFT_SPACE_ANY);

	add_copy(img, SPAN_BASE, span1, sizeof(span1), PFT_SPACE_ANY);
	add_copy(img, SPAN_BASE + sizeof(span1), span2, sizeof(span2), PFT_SPACE_ANY);
	fill_words(tmp, sec, 2);
	add_copy(img, SPACE_BASE, tmp, 8, PFT_SPACE_SECURE);
	fill_words(tmp, nsec, 1);
	add_copy(img, SPACE_BASE, tmp, 4, PFT_SPACE_NONSECURE);
	return img;
}

/* ------------------------------------------------------------------ */
/* Packets                                                              */
/* ------------------------------------------------------------------ */

static struct pft_ptm_packet pk(enum pft_ptm_packet_type type)
{
	struct pft_ptm_packet p;

	memset(&p, 0, sizeof(p));
	p.type = (uint8_t)type;
	p.size = 1;
	return p;
}

static struct pft_ptm_packet pk_isync(uint32_t addr, enum pft_isa isa, unsigned reason,
				  unsigned ns)
{
	struct pft_ptm_packet p = pk(PFT_PTM_PKT_ISYNC);

	p.addr = addr;
	p.isa = (uint8_t)isa;
	p.reason = (uint8_t)reason;
	p.ns = (uint8_t)ns;
	return p;
}

/* @ens: the atoms oldest first, 'E' or 'N'. */
static struct pft_ptm_packet pk_atoms(const char *ens)
{
	struct pft_ptm_packet p = pk(PFT_PTM_PKT_ATOM);

	for (unsigned i = 0; ens[i]; i++)
		if (ens[i] == 'E')
			p.atoms |= (uint8_t)(1u << i);
	p.n_atoms = (uint8_t)strlen(ens);
	return p;
}

static struct pft_ptm_packet pk_branch(uint32_t addr, enum pft_isa isa)
{
	struct pft_ptm_packet p = pk(PFT_PTM_PKT_BRANCH);

	p.addr = addr;
	p.isa = (uint8_t)isa;
	p.addr_bytes = 5;
	return p;
}

/* A branch with exception byte EX0 (exception 0: a state change only). */
static struct pft_ptm_packet pk_exc(uint32_t addr, enum pft_isa isa, unsigned exc, unsigned ns)
{
	struct pft_ptm_packet p = pk_branch(addr, isa);

	p.exception = (uint16_t)exc;
	p.exc_bytes = 1;
	p.ns = (uint8_t)ns;
	return p;
}

static struct pft_ptm_packet pk_wp(uint32_t addr, enum pft_isa isa)
{
	struct pft_ptm_packet p = pk(PFT_PTM_PKT_WAYPOINT);

	p.addr = addr;
	p.isa = (uint8_t)isa;
	p.addr_bytes = 5;
	return p;
}

/* ------------------------------------------------------------------ */
/* Running packets and checking elements                                */
/* ------------------------------------------------------------------ */

enum { RUN_MAX = 256 };

struct run {
	struct pft_ptm_flow *f;
	struct pft_elem q[RUN_MAX];
	int n, pos;
	uint64_t off;            /* offset given to the next hand-made packet */
	uint64_t insns_expected; /* sum of the expected ranges' ninsn */
};

static void collect(struct run *r, uint64_t offset)
{
	struct pft_elem e;
	int rc;

	while ((rc = pft_ptm_flow_next(r->f, &e, sizeof(e))) == 0) {
		/* An element belongs to the packet that produced it. */
		PTU_EQ(e.offset, offset);
		if (r->n < RUN_MAX)
			r->q[r->n++] = e;
		else
			PTU_CHECK(!"too many elements");
	}
	PTU_EQ(rc, -PFT_ERR_NEED_INPUT);
}

/* Which path the behaviour tests take: 0 pft_ptm_flow_put()/next(), 1 the
 * batch call pft_ptm_flow_decode(); main() runs them on both. */
static int batch_path;

/* Apply @n packets by the batch path, each element checked against the
 * offset of the packet that pkt_end says produced it. */
static void decode_batch(struct run *r, const struct pft_ptm_packet *p, size_t n)
{
	static struct pft_elem out[RUN_MAX + PFT_FLOW_ELEMS_MAX];
	size_t end[RUN_MAX], k = 0;

	PTU_CHECK(n <= RUN_MAX);
	PTU_EQ(pft_ptm_flow_decode(r->f, p, n, sizeof(*p), out, sizeof(out) / sizeof(out[0]), end),
	       (int)n);
	for (size_t i = 0; i < n; i++) {
		PTU_CHECK(end[i] >= k && end[i] <= sizeof(out) / sizeof(out[0]));
		for (; k < end[i]; k++) {
			PTU_EQ(out[k].offset, p[i].offset);
			if (r->n < RUN_MAX)
				r->q[r->n++] = out[k];
			else
				PTU_CHECK(!"too many elements");
		}
	}
}

static void put(struct run *r, struct pft_ptm_packet p)
{
	p.offset = r->off;
	r->off += 0x10;
	if (batch_path) {
		decode_batch(r, &p, 1);
		return;
	}
	PTU_EQ(pft_ptm_flow_put(r->f, &p, sizeof(p)), 0);
	collect(r, p.offset);
}

/* Feed @len bytes through a packet decoder for @cfg, every packet (bad
 * ones included) into the flow decoder. */
static void put_bytes(struct run *r, const struct pft_ptm_config *cfg, const uint8_t *bytes,
		      size_t len)
{
	int err = 0;
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(cfg, &err);
	struct pft_ptm_packet p;

	PTU_CHECK(d != NULL);
	if (!d)
		return;
	PTU_EQ(pft_ptm_pkt_feed(d, bytes, len), 0);
	PTU_EQ(pft_ptm_pkt_finish(d), 0);
	/* The batch path takes all the packets in one call. */
	static struct pft_ptm_packet all[RUN_MAX];
	size_t n = 0;
	for (;;) {
		int rc = pft_ptm_pkt_next(d, &p, sizeof(p));
		if (rc == -PFT_ERR_EOS)
			break;
		PTU_CHECK(rc == 0 || p.type == PFT_PTM_PKT_BAD);
		if (rc != 0 && p.type != PFT_PTM_PKT_BAD)
			break;
		if (batch_path) {
			if (n < RUN_MAX)
				all[n++] = p;
			continue;
		}
		PTU_EQ(pft_ptm_flow_put(r->f, &p, sizeof(p)), 0);
		collect(r, p.offset);
	}
	if (batch_path)
		decode_batch(r, all, n);
	pft_ptm_pkt_free(d);
}

static int bad_line(int line, const char *what)
{
	fprintf(stderr, "%s:%d: %s\n", __FILE__, line, what);
	ptu_failed_checks++;
	return 0;
}

static void field(int line, int index, const char *name, unsigned long long got,
		  unsigned long long want)
{
	if (got != want) {
		fprintf(stderr, "%s:%d: element %d: %s = 0x%llx, want 0x%llx\n", __FILE__, line,
			index, name, got, want);
		ptu_failed_checks++;
	}
}

#define FIELD(e, name, want) field(line, idx, #name, (e)->name, (want))

/* The next element, which must be of @type (NULL if not). */
static const struct pft_elem *take(struct run *r, int line, enum pft_elem_type type,
				   int *index)
{
	char msg[160];

	if (r->pos >= r->n) {
		snprintf(msg, sizeof(msg), "expected a %s element, there is none",
			 pft_elem_type_name(type));
		bad_line(line, msg);
		return NULL;
	}
	const struct pft_elem *e = &r->q[r->pos];
	*index = r->pos++;
	if (e->type != type) {
		snprintf(msg, sizeof(msg), "element %d is %s, expected %s", *index,
			 pft_elem_type_name(e->type), pft_elem_type_name(type));
		if (e->type == PFT_ELEM_RANGE)
			snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg),
				 " (range 0x%x-0x%x)", e->start, e->last);
		if (e->type == PFT_ELEM_ERROR)
			snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg),
				 " (reason %u)", e->reason);
		bad_line(line, msg);
		return NULL;
	}
	return e;
}

/* A range of @n instructions @start..@last (@end is after @last). */
static const struct pft_elem *expect_range_(struct run *r, int line, uint32_t start,
					    uint32_t last, uint32_t end, uint32_t n,
					    enum pft_isa isa, int taken)
{
	int idx;
	const struct pft_elem *e = take(r, line, PFT_ELEM_RANGE, &idx);

	r->insns_expected += n;
	if (!e)
		return NULL;
	FIELD(e, start, start);
	FIELD(e, last, last);
	FIELD(e, end, end);
	FIELD(e, ninsn, n);
	FIELD(e, isa, isa);
	FIELD(e, taken, taken);
	return e;
}

/* ARM ranges: @end and @n follow from 4-byte instructions. */
#define expect_arm(r, start, last, taken)                                       \
	expect_range_(r, __LINE__, start, last, (last) + 4, ((last) - (start)) / 4 + 1, \
		      PFT_ISA_ARM, taken)
#define expect_thumb(r, start, last, end, n, taken) \
	expect_range_(r, __LINE__, start, last, end, n, PFT_ISA_THUMB, taken)
#define expect_range(r, start, last, end, n, isa, taken) \
	expect_range_(r, __LINE__, start, last, end, n, isa, taken)

static void expect_simple_(struct run *r, int line, enum pft_elem_type type)
{
	int idx;

	take(r, line, type, &idx);
}
#define expect_simple(r, type) expect_simple_(r, __LINE__, type)

static void expect_trace_on_(struct run *r, int line, unsigned reason)
{
	int idx;
	const struct pft_elem *e = take(r, line, PFT_ELEM_TRACE_ON, &idx);

	if (e)
		FIELD(e, reason, reason);
}
#define expect_trace_on(r, reason) expect_trace_on_(r, __LINE__, reason)

static void expect_error_(struct run *r, int line, unsigned reason)
{
	int idx;
	const struct pft_elem *e = take(r, line, PFT_ELEM_ERROR, &idx);

	if (e)
		FIELD(e, reason, reason);
}
#define expect_error(r, reason) expect_error_(r, __LINE__, reason)

static void expect_nacc_(struct run *r, int line, uint32_t addr)
{
	int idx;
	const struct pft_elem *e = take(r, line, PFT_ELEM_ADDR_NACC, &idx);

	if (e)
		FIELD(e, addr, addr);
}
#define expect_nacc(r, addr) expect_nacc_(r, __LINE__, addr)

/* An exception; @ret is the preferred return address, or -1 for none. */
static const struct pft_elem *expect_exception_(struct run *r, int line, unsigned number,
						int64_t ret)
{
	int idx;
	const struct pft_elem *e = take(r, line, PFT_ELEM_EXCEPTION, &idx);

	if (!e)
		return NULL;
	FIELD(e, exception, number);
	FIELD(e, has_ret, ret >= 0);
	if (ret >= 0)
		FIELD(e, addr, (uint32_t)ret);
	return e;
}
#define expect_exception(r, number, ret) expect_exception_(r, __LINE__, number, ret)

/* A context element whose changed bits are exactly @changed. */
static const struct pft_elem *expect_context_(struct run *r, int line, unsigned changed)
{
	int idx;
	const struct pft_elem *e = take(r, line, PFT_ELEM_CONTEXT, &idx);

	if (e)
		FIELD(e, changed, changed);
	return e;
}
#define expect_context(r, changed) expect_context_(r, __LINE__, changed)

/* Nothing left; the instruction count matches the expected ranges. */
static void expect_end_(struct run *r, int line)
{
	char msg[120];

	if (r->pos < r->n) {
		const struct pft_elem *e = &r->q[r->pos];
		snprintf(msg, sizeof(msg), "%d unexpected element(s), the first: %s 0x%x-0x%x reason %u",
			 r->n - r->pos, pft_elem_type_name(e->type), e->start, e->last, e->reason);
		bad_line(line, msg);
	}
	if (pft_ptm_flow_insn_count(r->f) != r->insns_expected) {
		snprintf(msg, sizeof(msg), "pft_ptm_flow_insn_count() = %llu, the ranges hold %llu",
			 (unsigned long long)pft_ptm_flow_insn_count(r->f),
			 (unsigned long long)r->insns_expected);
		bad_line(line, msg);
		r->insns_expected = pft_ptm_flow_insn_count(r->f);
	}
	r->n = r->pos = 0;
}
#define expect_end(r) expect_end_(r, __LINE__)

static struct pft_ptm_config base_cfg(void)
{
	struct pft_ptm_config cfg;

	pft_ptm_config_init(&cfg);
	return cfg;
}

static struct pft_image *image;

static int run_open(struct run *r, const struct pft_ptm_config *cfg, struct pft_image *img)
{
	int err = -1;

	memset(r, 0, sizeof(*r));
	r->f = pft_ptm_flow_alloc(cfg, img, &err);
	PTU_CHECK(r->f != NULL);
	PTU_EQ(err, 0);
	return r->f != NULL;
}

static void run_close(struct run *r)
{
	pft_ptm_flow_free(r->f);
	r->f = NULL;
}

/*
 * A-sync then a trace-on I-sync at @addr: NO_SYNC at the first packet,
 * TRACE_ON, and the state (NS, ISA) becoming known is a context element
 * (pft-flow.md 3).
 */
static void start_(struct run *r, int line, uint32_t addr, enum pft_isa isa, unsigned ns)
{
	int idx;
	const struct pft_elem *e;

	put(r, pk(PFT_PTM_PKT_ASYNC));
	put(r, pk_isync(addr, isa, PFT_ISYNC_TRACE_ON, ns));
	if ((e = take(r, line, PFT_ELEM_NO_SYNC, &idx)) != NULL)
		FIELD(e, offset, r->off - 0x20);
	if ((e = take(r, line, PFT_ELEM_TRACE_ON, &idx)) != NULL)
		FIELD(e, reason, PFT_ISYNC_TRACE_ON);
	if ((e = take(r, line, PFT_ELEM_CONTEXT, &idx)) != NULL) {
		FIELD(e, changed & PFT_CTX_NS, PFT_CTX_NS);
		FIELD(e, ns, ns);
	}
	expect_end_(r, line);
}
#define start(r, addr, isa) start_(r, __LINE__, addr, isa, 0)

/*
 * After synchronisation was lost (bad packet), the context in between is
 * unknown: the decoder may restate it at the I-sync that resynchronises, or
 * report nothing when it did not change.  If it does, it must be the
 * I-sync's state.
 */
static void allow_restated_context_(struct run *r, int line, unsigned ns, enum pft_isa isa)
{
	int idx;
	const struct pft_elem *e;

	if (r->pos >= r->n || r->q[r->pos].type != PFT_ELEM_CONTEXT)
		return;
	e = take(r, line, PFT_ELEM_CONTEXT, &idx);
	FIELD(e, ns, ns);
	FIELD(e, isa, isa);
}
#define allow_restated_context(r, ns, isa) allow_restated_context_(r, __LINE__, ns, isa)

/* A trace-on I-sync while decoding: TRACE_ON, no context change. */
static void resync_(struct run *r, int line, uint32_t addr, enum pft_isa isa)
{
	put(r, pk_isync(addr, isa, PFT_ISYNC_TRACE_ON, 0));
	expect_trace_on_(r, line, PFT_ISYNC_TRACE_ON);
	expect_end_(r, line);
}
#define resync(r, addr, isa) resync_(r, __LINE__, addr, isa)

/* ------------------------------------------------------------------ */
/* Tests                                                                */
/* ------------------------------------------------------------------ */

static void test_args(void)
{
	struct pft_ptm_config cfg = base_cfg(), small = cfg;
	struct pft_ptm_packet p = pk(PFT_PTM_PKT_ASYNC);
	struct pft_elem e;
	struct pft_ptm_flow *f;
	int err = 1;

	PTU_CHECK(pft_ptm_flow_alloc(NULL, image, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	PTU_CHECK(pft_ptm_flow_alloc(NULL, NULL, NULL) == NULL);
	small.size = 0;
	err = 1;
	PTU_CHECK(pft_ptm_flow_alloc(&small, image, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	pft_ptm_flow_free(NULL);

	/* No image is allowed (every walk reports ADDR_NACC). */
	f = pft_ptm_flow_alloc(&cfg, NULL, NULL);
	PTU_CHECK(f != NULL);
	pft_ptm_flow_free(f);

	err = 1;
	f = pft_ptm_flow_alloc(&cfg, image, &err);
	PTU_CHECK(f != NULL);
	PTU_EQ(err, 0);
	if (!f)
		return;
	PTU_EQ(pft_ptm_flow_put(NULL, &p, sizeof(p)), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_flow_put(f, NULL, sizeof(p)), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_flow_put(f, &p, sizeof(p) - 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_flow_put(f, &p, 0), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_flow_next(NULL, &e, sizeof(e)), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_flow_next(f, NULL, sizeof(e)), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_flow_next(f, &e, 0), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_flow_reset(NULL), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_flow_insn_count(NULL), 0);
	PTU_EQ(pft_ptm_flow_insn_count(f), 0);
	/* Nothing put yet: nothing to take. */
	PTU_EQ(pft_ptm_flow_next(f, &e, sizeof(e)), -PFT_ERR_NEED_INPUT);

	/* The first packet produces NO_SYNC; putting another before taking
	 * it is refused and changes nothing. */
	p.offset = 7;
	PTU_EQ(pft_ptm_flow_put(f, &p, sizeof(p)), 0);
	struct pft_ptm_packet is = pk_isync(0x8000, PFT_ISA_ARM, PFT_ISYNC_TRACE_ON, 0);
	PTU_EQ(pft_ptm_flow_put(f, &is, sizeof(is)), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_flow_next(f, &e, sizeof(e)), 0);
	PTU_EQ(e.type, PFT_ELEM_NO_SYNC);
	PTU_EQ(e.offset, 7);
	PTU_EQ(pft_ptm_flow_next(f, &e, sizeof(e)), -PFT_ERR_NEED_INPUT);
	PTU_EQ(pft_ptm_flow_reset(f), 0);
	pft_ptm_flow_free(f);
}

static void test_names(void)
{
	static const char *const want[PFT_ELEM_TYPE_MAX] = {
		"range", "no_sync", "trace_on", "context", "exception",
		"exception_return", "timestamp", "trigger", "addr_nacc", "error", "range_count",
		"entry_count", "calls_branch", "calls_state", "calls_frame", "text", "leaf_calls",
		"calls_log",
	};

	for (int t = 0; t < PFT_ELEM_TYPE_MAX; t++)
		PTU_STREQ(pft_elem_type_name((enum pft_elem_type)t), want[t]);
	PTU_CHECK(pft_elem_type_name(PFT_ELEM_TYPE_MAX) != NULL);
}

/* pft-flow.md 3.1: NO_SYNC at the first packet, whatever it is, and
 * nothing before an A-sync counts, I-syncs included.  Packets a packet
 * decoder never delivers unsynchronised, so only here; the rest of
 * start-up is tests/pftt/sync_order.pftt. */
static void test_sync_order(void)
{
	struct pft_ptm_config cfg = base_cfg();
	struct run r;

	if (!run_open(&r, &cfg, image))
		return;
	put(&r, pk_atoms("E"));
	expect_simple(&r, PFT_ELEM_NO_SYNC);
	expect_end(&r);
	put(&r, pk_isync(0x8000, PFT_ISA_ARM, PFT_ISYNC_TRACE_ON, 0));
	put(&r, pk_branch(0x8000, PFT_ISA_ARM));
	put(&r, pk_atoms("EE"));
	expect_end(&r);
	put(&r, pk(PFT_PTM_PKT_ASYNC));
	put(&r, pk_isync(0x8000, PFT_ISA_ARM, PFT_ISYNC_TRACE_ON, 0));
	expect_trace_on(&r, PFT_ISYNC_TRACE_ON);
	expect_context(&r, PFT_CTX_NS | PFT_CTX_HYP | PFT_CTX_ISA);
	put(&r, pk_atoms("E"));
	/* mov, add, b 0x8010 */
	expect_arm(&r, 0x8000, 0x8008, 1);
	expect_end(&r);
	run_close(&r);
}

/* Hyp comes only with EX1 (protocol 4.3, A8): with one exception byte the
 * packet struct's hyp field means nothing.  No packet decoder fills it so;
 * the rest of the branch packet rules are tests/pftt/branch_packets.pftt. */
static void test_branch_hyp_needs_ex1(void)
{
	struct pft_ptm_config cfg = base_cfg();
	struct run r;
	struct pft_ptm_packet p = pk_exc(0x8000, PFT_ISA_ARM, 0, 0);
	const struct pft_elem *e;

	if (!run_open(&r, &cfg, image))
		return;
	start(&r, 0x8000, PFT_ISA_ARM);
	p.hyp = 1;
	put(&r, p);
	/* mov, add, b: the implied E */
	expect_arm(&r, 0x8000, 0x8008, 1);
	expect_end(&r);
	p.exc_bytes = 2;
	put(&r, p);
	expect_arm(&r, 0x8000, 0x8008, 1);
	e = expect_context(&r, PFT_CTX_HYP);
	if (e)
		PTU_EQ(e->hyp, 1);
	expect_end(&r);
	run_close(&r);
}

/* Push @calls calls of the chain: each BL by an E atom, each return by a
 * branch packet (which does not pop).  Ends at CHAIN_FN. */
static void chain_calls(struct run *r, unsigned calls)
{
	resync(r, CHAIN_BASE, PFT_ISA_ARM);
	for (unsigned k = 0; k < calls; k++) {
		uint32_t bl = CHAIN_BASE + 8 * k;
		put(r, pk_atoms("E"));
		expect_arm(r, bl, bl, 1);
		if (k + 1 < calls) {
			put(r, pk_branch(bl + 8, PFT_ISA_ARM));
			expect_arm(r, CHAIN_FN, CHAIN_FN, 1);
		}
		expect_end(r);
	}
}

/* More calls than any stack holds: the oldest entries are discarded (6),
 * what comes back is the newest ones in order, then an error - never
 * stale or wrong addresses. */
static void test_return_stack_overflow(void)
{
	struct pft_ptm_config cfg = base_cfg();
	struct run r;
	unsigned pops = 0;
	int ended = 0;

	cfg.return_stack = 1;
	if (!run_open(&r, &cfg, image))
		return;
	start(&r, 0x8000, PFT_ISA_ARM);
	chain_calls(&r, CHAIN_N);
	uint32_t pc = CHAIN_FN;
	for (unsigned i = 0; i <= CHAIN_N && !ended; i++) {
		put(&r, pk_atoms("E"));
		expect_arm(&r, pc, pc, 1);
		if (r.pos < r.n && r.q[r.pos].type == PFT_ELEM_ERROR) {
			expect_error(&r, PFT_ERR_FLOW_RETSTACK_EMPTY);
			ended = 1;
		} else {
			pc = CHAIN_BASE + 8 * (CHAIN_N - 1 - pops) + 4;
			pops++;
		}
		expect_end(&r);
	}
	PTU_CHECK(ended);
	PTU_CHECK(pops >= 20 && pops <= CHAIN_N);
	run_close(&r);
}

/* Image layouts a .pftt's single ELF section cannot give (pft-flow.md 9;
 * the rest is tests/pftt/nacc*.pftt): an instruction across two adjacent
 * sections is read whole, and with no image at all every walk ends at
 * once. */
static void test_nacc(void)
{
	struct pft_ptm_config cfg = base_cfg();
	struct run r;

	if (!run_open(&r, &cfg, image))
		return;
	start(&r, SPAN_BASE, PFT_ISA_THUMB);
	put(&r, pk_atoms("E"));
	expect_thumb(&r, SPAN_BASE, SPAN_BASE + 6, SPAN_BASE + 8, 3, 1);
	put(&r, pk_isync(SPAN_BASE, PFT_ISA_THUMB, PFT_ISYNC_PERIODIC, 0));
	put(&r, pk_wp(SPAN_BASE + 2, PFT_ISA_THUMB));
	expect_thumb(&r, SPAN_BASE, SPAN_BASE + 2, SPAN_BASE + 6, 2, 0);
	put(&r, pk_atoms("E"));
	expect_thumb(&r, SPAN_BASE + 6, SPAN_BASE + 6, SPAN_BASE + 8, 1, 1);
	expect_end(&r);
	run_close(&r);

	if (!run_open(&r, &cfg, NULL))
		return;
	start(&r, 0x8000, PFT_ISA_ARM);
	put(&r, pk_atoms("E"));
	expect_nacc(&r, 0x8000);
	put(&r, pk_wp(0x8000, PFT_ISA_ARM));
	expect_end(&r);
	run_close(&r);
}

/* NS selects the Secure or Non-secure copy of code at one address (7). */
static void test_memory_spaces(void)
{
	struct pft_ptm_config cfg = base_cfg();
	struct run r;
	const struct pft_elem *e;

	if (!run_open(&r, &cfg, image))
		return;
	start(&r, SPACE_BASE, PFT_ISA_ARM);
	put(&r, pk_atoms("E"));
	/* Secure: mov r0, #0; b 0xc000 */
	expect_arm(&r, SPACE_BASE, SPACE_BASE + 4, 1);
	put(&r, pk_isync(SPACE_BASE, PFT_ISA_ARM, PFT_ISYNC_PERIODIC, 1));
	e = expect_context(&r, PFT_CTX_NS);
	if (e)
		PTU_EQ(e->ns, 1);
	put(&r, pk_atoms("E"));
	/* Non-secure: b 0xc000 */
	expect_arm(&r, SPACE_BASE, SPACE_BASE, 1);
	put(&r, pk_exc(SPACE_BASE, PFT_ISA_ARM, 0, 0));
	/* walked in Non-secure memory, then back to Secure (EX0) */
	expect_arm(&r, SPACE_BASE, SPACE_BASE, 1);
	expect_context(&r, PFT_CTX_NS);
	put(&r, pk_atoms("E"));
	expect_arm(&r, SPACE_BASE, SPACE_BASE + 4, 1);
	expect_end(&r);
	/* An ANY section serves both worlds. */
	put(&r, pk_isync(0x8000, PFT_ISA_ARM, PFT_ISYNC_PERIODIC, 1));
	expect_context(&r, PFT_CTX_NS);
	put(&r, pk_atoms("E"));
	expect_arm(&r, 0x8000, 0x8008, 1);
	expect_end(&r);
	run_close(&r);
}

/* After pft_ptm_flow_reset() the context is forgotten: the same context ID,
 * NS and Hyp are news again (the rest of context reporting is
 * tests/pftt/context.pftt). */
static void test_context_after_reset(void)
{
	struct pft_ptm_config cfg = base_cfg();
	struct run r;
	struct pft_ptm_packet p = pk_isync(0x8000, PFT_ISA_ARM, PFT_ISYNC_TRACE_ON, 1);
	const struct pft_elem *e;

	cfg.ctxid_bytes = 4;
	if (!run_open(&r, &cfg, image))
		return;
	p.hyp = 1;
	p.has_ctxid = 1;
	p.ctxid = 0x33;
	for (int pass = 0; pass < 2; pass++) {
		put(&r, pk(PFT_PTM_PKT_ASYNC));
		expect_simple(&r, PFT_ELEM_NO_SYNC);
		put(&r, p);
		expect_trace_on(&r, PFT_ISYNC_TRACE_ON);
		e = expect_context(&r, PFT_CTX_CTXID | PFT_CTX_NS | PFT_CTX_HYP | PFT_CTX_ISA);
		if (e) {
			PTU_EQ(e->ctxid, 0x33);
			PTU_EQ(e->ns, 1);
			PTU_EQ(e->hyp, 1);
		}
		expect_end(&r);
		PTU_EQ(pft_ptm_flow_reset(r.f), 0);
	}
	run_close(&r);
}

/* pft_ptm_flow_reset() forgets all state: a VMID equal to the one before the
 * reset is news afterwards, as the context ID and NS are above. */
static void test_reset_forgets_vmid(void)
{
	struct pft_ptm_config cfg = base_cfg();
	struct pft_ptm_packet v = pk(PFT_PTM_PKT_VMID);
	struct run r;
	const struct pft_elem *e;

	cfg.vmid = 1;
	if (!run_open(&r, &cfg, image))
		return;
	start(&r, 0x8000, PFT_ISA_ARM);
	v.vmid = 6;
	put(&r, v);
	e = expect_context(&r, PFT_CTX_VMID);
	if (e)
		PTU_EQ(e->vmid, 6);
	expect_end(&r);
	PTU_EQ(pft_ptm_flow_reset(r.f), 0);
	start(&r, 0x8000, PFT_ISA_ARM);
	put(&r, v);
	e = expect_context(&r, PFT_CTX_VMID);
	if (e)
		PTU_EQ(e->vmid, 6);
	expect_end(&r);
	run_close(&r);
}

/* A bad packet (5.5): an error, PC invalid, and nothing until an A-sync and
 * then an I-sync. */
static void test_bad_packet(void)
{
	struct pft_ptm_config cfg = base_cfg();
	struct run r;
	struct pft_ptm_packet bad = pk(PFT_PTM_PKT_BAD);

	bad.bad = PFT_ERR_PKT_RESERVED_HEADER;
	if (!run_open(&r, &cfg, image))
		return;
	start(&r, 0x8000, PFT_ISA_ARM);
	put(&r, pk_atoms("E"));
	expect_arm(&r, 0x8000, 0x8008, 1);
	put(&r, bad);
	expect_error(&r, PFT_ERR_FLOW_BAD_PACKET);
	expect_end(&r);
	put(&r, pk_atoms("E"));
	put(&r, pk_isync(0x8010, PFT_ISA_ARM, PFT_ISYNC_TRACE_ON, 0));
	put(&r, pk_branch(0x8010, PFT_ISA_ARM));
	put(&r, pk_atoms("N"));
	put(&r, pk(PFT_PTM_PKT_ASYNC));
	put(&r, pk_atoms("N"));
	put(&r, pk_branch(0x8010, PFT_ISA_ARM));
	expect_end(&r);
	put(&r, pk_isync(0x8010, PFT_ISA_ARM, PFT_ISYNC_TRACE_ON, 0));
	expect_trace_on(&r, PFT_ISYNC_TRACE_ON);
	allow_restated_context(&r, 0, PFT_ISA_ARM);
	put(&r, pk_atoms("N"));
	expect_arm(&r, 0x8010, 0x8014, 0);
	expect_end(&r);
	run_close(&r);
}

/* pft_ptm_flow_reset(): NO_SYNC again, state forgotten, the return stack too. */
static void test_reset(void)
{
	struct pft_ptm_config cfg = base_cfg();
	struct run r;

	cfg.return_stack = 1;
	if (!run_open(&r, &cfg, image))
		return;
	start(&r, 0x8000, PFT_ISA_ARM);
	put(&r, pk_atoms("ENE"));
	expect_arm(&r, 0x8000, 0x8008, 1);
	expect_arm(&r, 0x8010, 0x8014, 0);
	expect_arm(&r, 0x8018, 0x8020, 1);
	expect_end(&r);
	PTU_EQ(pft_ptm_flow_reset(r.f), 0);
	/* not synchronised: atoms are dropped until A-sync and I-sync */
	put(&r, pk_atoms("E"));
	expect_simple(&r, PFT_ELEM_NO_SYNC);
	put(&r, pk_isync(0x8100, PFT_ISA_ARM, PFT_ISYNC_PERIODIC, 0));
	put(&r, pk_atoms("E"));
	expect_end(&r);
	put(&r, pk(PFT_PTM_PKT_ASYNC));
	put(&r, pk_isync(0x8100, PFT_ISA_ARM, PFT_ISYNC_TRACE_ON, 0));
	expect_trace_on(&r, PFT_ISYNC_TRACE_ON);
	/* the state before the reset is forgotten: NS is new again */
	expect_context(&r, PFT_CTX_NS | PFT_CTX_HYP | PFT_CTX_ISA);
	/* and the return stack is empty (the first I-sync after the reset
	 * would empty it as well) */
	put(&r, pk_atoms("E"));
	expect_arm(&r, 0x8100, 0x8108, 1);
	expect_error(&r, PFT_ERR_FLOW_RETSTACK_EMPTY);
	expect_end(&r);
	run_close(&r);
}

/*
 * A packet struct that no packet decoder produces (more atoms than fit in a
 * byte, fields out of range) is still input: no crash, no undefined
 * behaviour (the test build traps on it), no element lost or invented.
 * pft_ptm_flow_put() may refuse it (-PFT_ERR_INVALID) or apply what it can.
 */
static void malformed_packet_struct(void)
{
	struct pft_ptm_config cfg = base_cfg();
	struct run r;
	struct pft_ptm_packet p;
	struct pft_elem e;
	int rc, n = 0, ranges = 0, bad_order = 0;

	if (!run_open(&r, &cfg, image))
		return;
	start(&r, ISB_BASE, PFT_ISA_ARM);
	p = pk(PFT_PTM_PKT_ATOM);
	p.n_atoms = 255;
	p.atoms = 0xff;
	p.offset = 0x100;
	rc = pft_ptm_flow_put(r.f, &p, sizeof(p));
	PTU_CHECK(rc == 0 || rc == -PFT_ERR_INVALID);
	while (pft_ptm_flow_next(r.f, &e, sizeof(e)) == 0 && n < 1000) {
		n++;
		PTU_CHECK(e.type < PFT_ELEM_TYPE_MAX);
		if (e.type != PFT_ELEM_RANGE)
			continue;
		/* the ISBs one after the other (reported once) */
		if (!bad_order && (e.start != ISB_BASE + 4 * (uint32_t)ranges || e.ninsn != 1)) {
			fprintf(stderr, "%s:%d: range %d is 0x%x (%u instructions), want 0x%x (1)\n",
				__FILE__, __LINE__, ranges, e.start, e.ninsn,
				ISB_BASE + 4 * (uint32_t)ranges);
			ptu_failed_checks++;
			bad_order = 1;
		}
		ranges++;
	}
	/* Each element taken was produced once: as many ranges as the
	 * instruction count says were walked. */
	PTU_EQ((uint64_t)ranges, pft_ptm_flow_insn_count(r.f));
	p = pk(PFT_PTM_PKT_TYPE_MAX + 7);
	rc = pft_ptm_flow_put(r.f, &p, sizeof(p));
	PTU_CHECK(rc == 0 || rc == -PFT_ERR_INVALID);
	while (pft_ptm_flow_next(r.f, &e, sizeof(e)) == 0)
		;
	run_close(&r);
}

/* In a child process: a crash (or a sanitizer trap) fails this test
 * without ending the others. */
static void test_malformed_packet_struct(void)
{
	int status = 0;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	PTU_CHECK(pid >= 0);
	if (pid == 0) {
		malformed_packet_struct();
		_exit(ptu_failed_checks ? 1 : 0);
	}
	if (pid < 0)
		return;
	PTU_CHECK(waitpid(pid, &status, 0) == pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "%s:%d: a malformed packet struct: the child %s %d\n", __FILE__,
			__LINE__, WIFEXITED(status) ? "exited with" : "died of signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		ptu_failed_checks++;
	}
}

/* ------------------------------------------------------------------ */
/* Worked examples of pft-flow.md 10 and 10.1 (trace_cov_a15 image)     */
/* ------------------------------------------------------------------ */

static char shared_dir[1024];

static struct pft_image *a15_image(void)
{
	char vec[1200], code[1200];
	int err = -1;
	struct pft_image *img = pft_image_alloc(&err);

	if (!img)
		return NULL;
	snprintf(vec, sizeof(vec), "%s/testdata/opencsd-snapshots/trace_cov_a15/"
		 "mem_Cortex-A15_0_0_VECTORS.bin", shared_dir);
	snprintf(code, sizeof(code), "%s/testdata/opencsd-snapshots/trace_cov_a15/"
		 "mem_Cortex-A15_0_1_RO_CODE.bin", shared_dir);
	/* The snapshot's [dump1] and [dump2], space=S. */
	PTU_EQ(pft_image_add_file(img, vec, 0, 0, 0x80000000u, PFT_SPACE_SECURE), 0);
	PTU_EQ(pft_image_add_file(img, code, 0, 0, 0x80000278u, PFT_SPACE_SECURE), 1);
	return img;
}

/* PTM_0_2 of trace_cov_a15: ETMCR 0x20000400 (return stack), ETMCCER
 * 0x34C01AC2, ETMIDR 0x411CF312 (PFTv1.1), trace ID 2. */
static struct pft_ptm_config a15_cfg(void)
{
	struct pft_ptm_config cfg = base_cfg();

	PTU_EQ(pft_ptm_config_from_regs(&cfg, 0x20000400, 0x34C01AC2, 0x411CF312, 2), 0);
	PTU_EQ(cfg.return_stack, 1);
	PTU_EQ(cfg.cycle_accurate, 0);
	return cfg;
}

/* Every range of the table of 10.1, from the 36-byte file itself. */
static void test_spec_10_1(void)
{
	char path[1200];
	uint8_t bytes[64];
	struct pft_ptm_config cfg = a15_cfg();
	struct pft_image *img = a15_image();
	struct run r;
	const struct pft_elem *e;
	FILE *fp;
	size_t len = 0;
	const uint32_t B = 0x80000000u;

	snprintf(path, sizeof(path), "%s/testdata/opencsd-snapshots/trace_cov_a15/PTM_0_2.bin",
		 shared_dir);
	fp = fopen(path, "rb");
	PTU_CHECK(fp != NULL);
	if (fp) {
		len = fread(bytes, 1, sizeof(bytes), fp);
		fclose(fp);
	}
	PTU_EQ(len, 36);
	/* The file is the one printed in 10.1. */
	static const uint8_t printed[36] = {
		0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x08, 0x58, 0x05, 0x00, 0x80, 0x61,
		0x84, 0x81, 0x80, 0x80, 0x80, 0x48, 0x02, 0x08, 0x04, 0x05, 0x00, 0x80,
		0x61, 0xd0, 0xd2, 0xe2, 0x9c, 0x2f, 0x81, 0x80, 0x80, 0x80, 0x48, 0x02,
	};
	PTU_CHECK(len == 36 && memcmp(bytes, printed, 36) == 0);
	if (!img || len != 36 || !run_open(&r, &cfg, img)) {
		pft_image_free(img);
		return;
	}
	put_bytes(&r, &cfg, bytes, len);
	/* 0: A-sync; 6: I-sync debug exit, ARM 0x80000558 */
	expect_simple(&r, PFT_ELEM_NO_SYNC);
	expect_trace_on(&r, PFT_ISYNC_DEBUG_EXIT);
	e = expect_context(&r, PFT_CTX_NS | PFT_CTX_HYP | PFT_CTX_ISA);
	if (e)
		PTU_EQ(e->ns, 0);
	/* 12: E: 558-558 BL -> 504 */
	expect_arm(&r, B + 0x558, B + 0x558, 1);
	/* 13: Debug entry, exception at 0x80000504 */
	expect_exception(&r, PFT_EXC_DEBUG_HALT, B + 0x504);
	/* 19: I-sync debug exit at 0x80000504 */
	expect_trace_on(&r, PFT_ISYNC_DEBUG_EXIT);
	/* 25: d0 = E N E E E */
	expect_arm(&r, B + 0x504, B + 0x514, 1);
	expect_arm(&r, B + 0x4d8, B + 0x4e8, 0);
	expect_arm(&r, B + 0x4ec, B + 0x4f0, 1);
	expect_arm(&r, B + 0x500, B + 0x500, 1);
	expect_arm(&r, B + 0x518, B + 0x524, 1);
	/* 26: d2 = E N E E N */
	expect_arm(&r, B + 0x4d8, B + 0x4e8, 1);
	expect_arm(&r, B + 0x4f4, B + 0x4f8, 0);
	expect_arm(&r, B + 0x4fc, B + 0x500, 1);
	expect_arm(&r, B + 0x528, B + 0x534, 1);
	expect_arm(&r, B + 0x4d8, B + 0x4e8, 0);
	/* 27: e2 = N E E E N */
	expect_arm(&r, B + 0x4ec, B + 0x4f0, 0);
	expect_arm(&r, B + 0x4f4, B + 0x4f8, 1);
	expect_arm(&r, B + 0x500, B + 0x500, 1);
	expect_arm(&r, B + 0x538, B + 0x544, 1);
	expect_arm(&r, B + 0x4d8, B + 0x4e8, 0);
	/* 28: 9c = N N E */
	expect_arm(&r, B + 0x4ec, B + 0x4f0, 0);
	expect_arm(&r, B + 0x4f4, B + 0x4f8, 0);
	expect_arm(&r, B + 0x4fc, B + 0x500, 1);
	/* 29: branch 2f -> 0x8000055c: implied E on LDR pc, [sp], #4 */
	expect_arm(&r, B + 0x548, B + 0x548, 1);
	/* 30: Debug entry at 0x8000055c */
	expect_exception(&r, PFT_EXC_DEBUG_HALT, B + 0x55c);
	/* the offsets of the elements above are the packets' offsets */
	static const uint64_t offsets[] = { 0, 6, 6, 12, 13, 19, 25, 25, 25, 25, 25,
					    26, 26, 26, 26, 26, 27, 27, 27, 27, 27,
					    28, 28, 28, 29, 30 };
	for (int i = 0; i < r.n && i < (int)(sizeof(offsets) / sizeof(offsets[0])); i++)
		PTU_EQ(r.q[i].offset, offsets[i]);
	for (int i = 0; i < r.n; i++)
		PTU_EQ(r.q[i].has_cycles, 0);
	expect_end(&r);
	run_close(&r);
	pft_image_free(img);
}

/* The worked flow example of 10 (the return-stack capture's start), as
 * bytes, on the same image. */
static void test_spec_10(void)
{
	static const uint8_t bytes[] = {
		0x00, 0x00, 0x00, 0x00, 0x00, 0x80, /* 0 */
		0x08, 0x54, 0x05, 0x00, 0x80, 0x61, /* 6: I-sync debug exit 0x80000554 */
		0x84,                               /* 12 */
		0x81, 0x80, 0x80, 0x80, 0x48, 0x02, /* 13: Debug entry */
		0x08, 0xa0, 0x1b, 0x00, 0x80, 0x61, /* 19: I-sync debug exit 0x80001ba0 */
		0xad, 0x05,                         /* 25: branch 0x80000558 */
		0xc8,                               /* 27: E E N E E */
		0xc8,                               /* 28: E E N E E */
		0xf0,                               /* 29: N N E E E */
		0xbc,                               /* 30: N N N E */
		0x2f,                               /* 31: branch 0x8000055c */
		0xc0,                               /* 32: E E E E E */
		0xfd, 0x9e, 0x80, 0x80, 0x18,       /* 33: branch Thumb 0x80000f7c */
		0x94,                               /* 38: E N E */
	};
	struct pft_ptm_config cfg = a15_cfg();
	struct pft_image *img = a15_image();
	struct run r;
	const uint32_t B = 0x80000000u;

	if (!img || !run_open(&r, &cfg, img)) {
		pft_image_free(img);
		return;
	}
	put_bytes(&r, &cfg, bytes, sizeof(bytes));
	expect_simple(&r, PFT_ELEM_NO_SYNC);
	expect_trace_on(&r, PFT_ISYNC_DEBUG_EXIT);
	expect_context(&r, PFT_CTX_NS | PFT_CTX_HYP | PFT_CTX_ISA);
	/* 12: BL @554 -> 1BA0 (push 558) */
	expect_arm(&r, B + 0x554, B + 0x554, 1);
	/* 13: Debug entry at 0x80001ba0 */
	expect_exception(&r, PFT_EXC_DEBUG_HALT, B + 0x1ba0);
	/* 19: stack emptied */
	expect_trace_on(&r, PFT_ISYNC_DEBUG_EXIT);
	/* 25: implied E: mrc, orr x3, mcr, bx lr */
	expect_arm(&r, B + 0x1ba0, B + 0x1bb4, 1);
	/* 27: BL @558 (push 55C); BL @514 (push 518); BNE N; BEQ E; POP -> 518 */
	expect_arm(&r, B + 0x558, B + 0x558, 1);
	expect_arm(&r, B + 0x504, B + 0x514, 1);
	expect_arm(&r, B + 0x4d8, B + 0x4e8, 0);
	expect_arm(&r, B + 0x4ec, B + 0x4f0, 1);
	expect_arm(&r, B + 0x500, B + 0x500, 1);
	/* 28: BL @524 (push 528); BNE E -> 4F4; BEQ @4F8 N; POP -> 528; BL @534 */
	expect_arm(&r, B + 0x518, B + 0x524, 1);
	expect_arm(&r, B + 0x4d8, B + 0x4e8, 1);
	expect_arm(&r, B + 0x4f4, B + 0x4f8, 0);
	expect_arm(&r, B + 0x4fc, B + 0x500, 1);
	expect_arm(&r, B + 0x528, B + 0x534, 1);
	/* 29: N N E E E */
	expect_arm(&r, B + 0x4d8, B + 0x4e8, 0);
	expect_arm(&r, B + 0x4ec, B + 0x4f0, 0);
	expect_arm(&r, B + 0x4f4, B + 0x4f8, 1);
	expect_arm(&r, B + 0x500, B + 0x500, 1);
	expect_arm(&r, B + 0x538, B + 0x544, 1);
	/* 30: N N N E */
	expect_arm(&r, B + 0x4d8, B + 0x4e8, 0);
	expect_arm(&r, B + 0x4ec, B + 0x4f0, 0);
	expect_arm(&r, B + 0x4f4, B + 0x4f8, 0);
	expect_arm(&r, B + 0x4fc, B + 0x500, 1);
	/* 31: LDR pc, [sp], #4 by address (no pop) */
	expect_arm(&r, B + 0x548, B + 0x548, 1);
	/* 32: B @564 -> 58C; BLT @590 -> 568; BLX @574 -> 7AC Thumb (push 578
	 * ARM); BL @7BC -> F86 (push 7C0); BL @F9E -> 8E4 (push FA2) */
	expect_arm(&r, B + 0x55c, B + 0x564, 1);
	expect_arm(&r, B + 0x58c, B + 0x590, 1);
	expect_arm(&r, B + 0x568, B + 0x574, 1);
	/* push x2, ldr, add, add, mov, str, ldr (all 16-bit), bl (32-bit) */
	expect_thumb(&r, B + 0x7ac, B + 0x7bc, B + 0x7c0, 9, 1);
	/* push, sub, strd.w, movs, str, ldr, add, strd.w, mov, mov, bl */
	expect_thumb(&r, B + 0xf86, B + 0xf9e, B + 0xfa2, 11, 1);
	/* 33: stmdb.w, mov, mov, mov.w, ldr.w, add, str.w, mov, ldr, blx r1
	 * (push 0x80000900); then Thumb 0x80000f7c */
	expect_thumb(&r, B + 0x8e4, B + 0x8fe, B + 0x900, 10, 1);
	/* 38: BX lr @F84 E -> pop 0x80000900; BEQ @902 N; BEQ @906 E */
	expect_thumb(&r, B + 0xf7c, B + 0xf84, B + 0xf86, 5, 1);
	expect_thumb(&r, B + 0x900, B + 0x902, B + 0x904, 2, 0);
	expect_thumb(&r, B + 0x904, B + 0x906, B + 0x908, 2, 1);
	expect_end(&r);
	/* and the walk goes on at 0x80000916 (BEQ's target): movs r5, #0 ... */
	struct pft_ptm_packet p = pk_atoms("E");
	p.offset = 39;
	PTU_EQ(pft_ptm_flow_put(r.f, &p, sizeof(p)), 0);
	collect(&r, 39);
	/* movs, mov, mov, ldr, blx r1 */
	expect_range(&r, B + 0x916, B + 0x91e, B + 0x920, 5, PFT_ISA_THUMB, 1);
	expect_end(&r);
	run_close(&r);
	pft_image_free(img);
}

/* Every test of elements, by both paths. */
static void behaviour_tests(void)
{
	PTU_RUN(test_sync_order);
	PTU_RUN(test_branch_hyp_needs_ex1);
	PTU_RUN(test_return_stack_overflow);
	PTU_RUN(test_nacc);
	PTU_RUN(test_memory_spaces);
	PTU_RUN(test_context_after_reset);
	PTU_RUN(test_bad_packet);
	PTU_RUN(test_reset);
	PTU_RUN(test_spec_10_1);
	PTU_RUN(test_spec_10);
	/* Checks that fail with the current decoder (see the report of h9). */
	PTU_RUN(test_reset_forgets_vmid);
}

/* pft_ptm_flow_decode()'s arguments, and a batch cut short by its room. */
static void test_decode_args(void)
{
	struct pft_ptm_config cfg = base_cfg();
	struct pft_ptm_flow *f = pft_ptm_flow_alloc(&cfg, image, NULL);
	struct pft_ptm_packet p[3] = { pk(PFT_PTM_PKT_ASYNC), pk_isync(0x8000, PFT_ISA_ARM, PFT_ISYNC_TRACE_ON, 0),
				   pk_atoms("E") };
	struct pft_elem out[PFT_FLOW_ELEMS_MAX + 1];
	size_t end[3];

	PTU_CHECK(f != NULL);
	if (!f)
		return;
	PTU_EQ(pft_ptm_flow_decode(NULL, p, 3, sizeof(p[0]), out, 33, end), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_flow_decode(f, NULL, 3, sizeof(p[0]), out, 33, end), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_flow_decode(f, p, 3, sizeof(p[0]) - 1, out, 33, end), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_flow_decode(f, p, 3, sizeof(p[0]), NULL, 33, end), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_flow_decode(f, p, 3, sizeof(p[0]), out, PFT_FLOW_ELEMS_MAX - 1, end),
	       -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_flow_decode(f, p, 3, sizeof(p[0]), out, 33, NULL), -PFT_ERR_INVALID);
	/* Room for 32 elements: after the first packet (NO_SYNC) fewer than
	 * PFT_FLOW_ELEMS_MAX are left, so it stops there. */
	PTU_EQ(pft_ptm_flow_decode(f, p, 3, sizeof(p[0]), out, PFT_FLOW_ELEMS_MAX, end), 1);
	PTU_EQ(end[0], 1);
	PTU_EQ(out[0].type, PFT_ELEM_NO_SYNC);
	/* A packet out of range: refused on its own, a stop after others. */
	struct pft_ptm_packet bad[2] = { pk_atoms("E"), pk_atoms("E") };
	bad[1].n_atoms = 6;
	PTU_EQ(pft_ptm_flow_decode(f, &bad[1], 1, sizeof(bad[0]), out, 33, end), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_flow_decode(f, bad, 2, sizeof(bad[0]), out, 33, end), 1);
	PTU_EQ(end[0], 0);  /* an atom before any sync: nothing */
	/* Elements of a pft_ptm_flow_put() not yet taken. */
	PTU_EQ(pft_ptm_flow_put(f, &p[1], sizeof(p[1])), 0);
	PTU_EQ(pft_ptm_flow_decode(f, p, 1, sizeof(p[0]), out, 33, end), -PFT_ERR_INTERNAL);
	pft_ptm_flow_free(f);
}

int main(void)
{
	const char *shared = getenv("PFT_SHARED");

	if (shared) {
		snprintf(shared_dir, sizeof(shared_dir), "%s", shared);
	} else {
		/* Derive it from this file's path: <tree>/../shared. */
		char tree[900];
		snprintf(tree, sizeof(tree), "%s", __FILE__);
		char *cut = strstr(tree, "/tests/unit/");
		if (cut)
			*cut = '\0';
		snprintf(shared_dir, sizeof(shared_dir), "%s/../shared", tree);
	}
	PTU_EQ(arm_bl(0x8020, 0x8100), 0xeb000036u); /* as assembled above */
	image = make_image();
	PTU_RUN(test_args);
	PTU_RUN(test_names);
	PTU_RUN(test_decode_args);
	for (batch_path = 0; batch_path < 2; batch_path++)
		behaviour_tests();
	batch_path = 0;
	PTU_RUN(test_malformed_packet_struct);
	pft_image_free(image);
	PTU_MAIN_END();
}
