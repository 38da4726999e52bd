/* Tests of PTM event expressions (pft_event_*).
 *
 * Expected values come from shared/spec/ptm-registers-events.md section 7
 * (IHI 0035B table 3.5 and examples 3.1/3.2), from the Cortex-A15 and
 * Cortex-A9 PTM TRMs, or from hand computation written next to them:
 * value = function << 14 | B << 7 | A, resource = type << 4 | index.
 */
#include <stddef.h>

#include "ptunit.h"
#include "pft.h"

static uint32_t parse_ok(const char *expr, const struct pft_event_limits *l)
{
	struct pft_event_diag d;
	uint32_t v = 0xffffffff;
	int r = pft_event_parse(expr, l, &v, &d);

	if (r != 0 || d.problem != PFT_ERR_OK)
		fprintf(stderr, "parse(\"%s\") = %d, problem %d at %zu\n", expr, r,
			d.problem, d.column);
	PTU_EQ(r, 0);
	return v;
}

static const char *format_ok(uint32_t v, const struct pft_event_limits *l,
			     char *buf, size_t len)
{
	struct pft_event_diag d;
	int r = pft_event_format(v, l, buf, len, &d);

	PTU_EQ(r, strlen(buf));
	PTU_EQ(d.problem, PFT_ERR_OK);
	return buf;
}

/* The spec's worked encodings (section 7.3), both ways. */
static void worked_examples(void)
{
	static const struct {
		const char *expr;
		uint32_t value;
	} ex[] = {
		{ "seq_state3", 0x52 },       /* example 3.1 */
		{ "counter2 & arc3", 0x8941 },/* example 3.2 */
		{ "always", 0x6f },
		{ "never", 0x406f },
		{ "ctxid_cmp2", 0x59 },       /* resource b101 1001 */
		{ "ns", 0x6d },
	};
	char buf[PFT_EVENT_EXPR_MAX];

	for (size_t i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
		PTU_EQ(parse_ok(ex[i].expr, NULL), ex[i].value);
		PTU_STREQ(format_ok(ex[i].value, NULL, buf, sizeof(buf)), ex[i].expr);
	}
	/* never is NOT(always), the Linux driver's default 0x406f. */
	PTU_EQ(parse_ok("!always", NULL), 0x406f);
	PTU_EQ(PFT_EVENT_VALUE_NEVER, 0x406f);
	PTU_EQ(PFT_EVENT_VALUE_ALWAYS, 0x6f);
}

/* Every named resource at the ends of its range (spec table 7.2). */
static void resource_numbers(void)
{
	static const struct {
		const char *name;
		uint8_t res;
	} t[] = {
		{ "addr_cmp1", 0x00 }, { "addr_cmp16", 0x0f },  /* 000, 0-15 */
		{ "arc1", 0x10 }, { "arc8", 0x17 },             /* 001, 0-7 */
		{ "instr1", 0x18 }, { "instr4", 0x1b },         /* 001, 8-11 */
		{ "watch1", 0x20 }, { "watch8", 0x27 },         /* 010, 0-7 */
		{ "counter1", 0x40 }, { "counter4", 0x43 },     /* 100, 0-3 */
		{ "seq_state1", 0x50 }, { "seq_state3", 0x52 },/* 101, 0-2 */
		{ "ctxid_cmp1", 0x58 }, { "ctxid_cmp3", 0x5a },/* 101, 8-10 */
		{ "vmid_cmp", 0x5b }, { "startstop", 0x5f },    /* 101, 11, 15 */
		{ "ext_in1", 0x60 }, { "ext_in4", 0x63 },       /* 110, 0-3 */
		{ "ext_in_sel1", 0x68 }, { "ext_in_sel4", 0x6b },/* 110, 8-11 */
		{ "ns", 0x6d }, { "prohibited", 0x6e }, { "always", 0x6f },
	};
	char buf[PFT_EVENT_EXPR_MAX];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		PTU_EQ(parse_ok(t[i].name, NULL), t[i].res);
		PTU_EQ(pft_event_resource_name(t[i].res, buf, sizeof(buf)),
		       strlen(t[i].name));
		PTU_STREQ(buf, t[i].name);
	}
}

/* Forms a user types that map to one function exactly. */
static void equivalent_forms(void)
{
	char buf[PFT_EVENT_EXPR_MAX];

	/* NOT(A) AND B with A = counter1 (0x40), B = arc1 (0x10):
	 * 3 << 14 | 0x10 << 7 | 0x40 = 0xc000 | 0x800 | 0x40. */
	PTU_EQ(parse_ok("!counter1 & arc1", NULL), 0xc840);
	PTU_EQ(parse_ok("arc1 & !counter1", NULL), 0xc840);
	PTU_STREQ(format_ok(0xc840, NULL, buf, sizeof(buf)), "!counter1 & arc1");
	/* De Morgan: !(arc1 | arc2) = NOT(A) AND NOT(B), A = arc1 (0x10),
	 * B = arc2 (0x11): 4 << 14 | 0x11 << 7 | 0x10 = 0x10890. */
	PTU_EQ(parse_ok("!(arc1 | arc2)", NULL), 0x10890);
	PTU_STREQ(format_ok(0x10890, NULL, buf, sizeof(buf)), "!arc1 & !arc2");
	/* !(arc1 & arc2) = NOT(A) OR NOT(B): 7 << 14 | 0x880 | 0x10. */
	PTU_EQ(parse_ok("!(arc1 & arc2)", NULL), 0x1c890);
	PTU_STREQ(format_ok(0x1c890, NULL, buf, sizeof(buf)), "!arc1 | !arc2");
	/* NOT(A) OR B with A = ext_in1 (0x60), B = ns (0x6d):
	 * 6 << 14 | 0x6d << 7 | 0x60 = 0x18000 | 0x3680 | 0x60. */
	PTU_EQ(parse_ok("!ext_in1 | ns", NULL), 0x1b6e0);
	PTU_EQ(parse_ok("ns | !ext_in1", NULL), 0x1b6e0);
	PTU_STREQ(format_ok(0x1b6e0, NULL, buf, sizeof(buf)), "!ext_in1 | ns");
	/* !(!arc1 & arc2) = arc1 | !arc2 = NOT(A) OR B with A = arc2 (0x11),
	 * B = arc1 (0x10): 0x18000 | 0x800 | 0x11. */
	PTU_EQ(parse_ok("!(!arc1 & arc2)", NULL), 0x18811);
	/* A OR B: 5 << 14 | 0x41 << 7 | 0x60 = 0x14000 | 0x2080 | 0x60. */
	PTU_EQ(parse_ok("ext_in1 | counter2", NULL), 0x160e0);
	PTU_STREQ(format_ok(0x160e0, NULL, buf, sizeof(buf)), "ext_in1 | counter2");
	/* Words, any case; C-style operators; redundant negations/parens. */
	PTU_EQ(parse_ok("not (counter1 OR Arc2)", NULL), 0x108c0);
	PTU_EQ(parse_ok("counter1 and arc1", NULL), 0x8840);
	PTU_EQ(parse_ok("counter1 && arc1", NULL), 0x8840);
	PTU_EQ(parse_ok("COUNTER1&ARC1", NULL), 0x8840);
	PTU_EQ(parse_ok("counter1 || arc1", NULL), 0x14840);
	PTU_EQ(parse_ok("!!seq_state1", NULL), 0x50);
	PTU_EQ(parse_ok(" \t((seq_state1)) \n", NULL), 0x50);
	PTU_EQ(parse_ok("not not not seq_state1", NULL), 0x4050);
	PTU_EQ(parse_ok("!never", NULL), 0x6f);
	/* never & arc1 = NOT(always) AND arc1: 0xc000 | 0x10 << 7 | 0x6f. */
	PTU_EQ(parse_ok("never & arc1", NULL), 0xc86f);
	/* The same resource twice is two operands: A AND B, A = B = ns. */
	PTU_EQ(parse_ok("ns & ns", NULL), 0x8000 | 0x6d << 7 | 0x6d);
}

struct bad {
	const char *expr;
	enum pft_error_code problem;
	size_t column, length;
};

static void bad_expressions(void)
{
	static const struct bad t[] = {
		{ "", PFT_ERR_EVENT_EMPTY, 0, 0 },
		{ "   ", PFT_ERR_EVENT_EMPTY, 3, 0 },
		{ "arc1 & arc2 & arc3", PFT_ERR_EVENT_TOO_MANY_RESOURCES, 14, 4 },
		{ "arc1 & (arc2 | arc3)", PFT_ERR_EVENT_TOO_MANY_RESOURCES, 15, 4 },
		{ "(arc1 & arc2) | ns", PFT_ERR_EVENT_TOO_MANY_RESOURCES, 16, 2 },
		{ "!(arc1 | arc2) & !ns", PFT_ERR_EVENT_TOO_MANY_RESOURCES, 18, 2 },
		{ "(arc1", PFT_ERR_EVENT_UNCLOSED_PAREN, 0, 1 },
		{ "((arc1)", PFT_ERR_EVENT_UNCLOSED_PAREN, 0, 1 },
		{ "arc1)", PFT_ERR_EVENT_UNOPENED_PAREN, 4, 1 },
		{ "(arc1))", PFT_ERR_EVENT_UNOPENED_PAREN, 6, 1 },
		{ "arc1 &", PFT_ERR_EVENT_EXPECTED_OPERAND, 6, 0 },
		{ "!", PFT_ERR_EVENT_EXPECTED_OPERAND, 1, 0 },
		{ "()", PFT_ERR_EVENT_EXPECTED_OPERAND, 1, 1 },
		{ "arc1 | | arc2", PFT_ERR_EVENT_EXPECTED_OPERAND, 7, 1 },
		{ "& arc1", PFT_ERR_EVENT_EXPECTED_OPERAND, 0, 1 },
		{ "arc1 arc2", PFT_ERR_EVENT_EXPECTED_OPERATOR, 5, 4 },
		{ "(arc1 arc2)", PFT_ERR_EVENT_EXPECTED_OPERATOR, 6, 4 },
		{ "arc1 (", PFT_ERR_EVENT_EXPECTED_OPERATOR, 5, 1 },
		{ "arc1 ^ arc2", PFT_ERR_EVENT_BAD_CHAR, 5, 1 },
		{ "arc1 \xc3\xa9", PFT_ERR_EVENT_BAD_CHAR, 5, 1 },
		{ "~arc1", PFT_ERR_EVENT_BAD_CHAR, 0, 1 },
		{ "foo & arc1", PFT_ERR_EVENT_UNKNOWN_RESOURCE, 0, 3 },
		{ "arc1 & bar2", PFT_ERR_EVENT_UNKNOWN_RESOURCE, 7, 4 },
		{ "counter2and arc3", PFT_ERR_EVENT_UNKNOWN_RESOURCE, 0, 11 },
		{ "12", PFT_ERR_EVENT_UNKNOWN_RESOURCE, 0, 2 },
		{ "counter5", PFT_ERR_EVENT_BAD_INDEX, 0, 8 },
		{ "arc0", PFT_ERR_EVENT_BAD_INDEX, 0, 4 },
		{ "arc9", PFT_ERR_EVENT_BAD_INDEX, 0, 4 },
		{ "addr_cmp17", PFT_ERR_EVENT_BAD_INDEX, 0, 10 },
		{ "seq_state4", PFT_ERR_EVENT_BAD_INDEX, 0, 10 },
		{ "ctxid_cmp4", PFT_ERR_EVENT_BAD_INDEX, 0, 10 },
		{ "ext_in_sel5", PFT_ERR_EVENT_BAD_INDEX, 0, 11 },
		{ "instr5", PFT_ERR_EVENT_BAD_INDEX, 0, 6 },
		{ "watch9", PFT_ERR_EVENT_BAD_INDEX, 0, 6 },
		{ "counter", PFT_ERR_EVENT_BAD_INDEX, 0, 7 },
		{ "counter00001", PFT_ERR_EVENT_BAD_INDEX, 0, 12 },
		{ "ns & vmid_cmp1", PFT_ERR_EVENT_BAD_INDEX, 5, 9 },
		{ "always2", PFT_ERR_EVENT_BAD_INDEX, 0, 7 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct pft_event_diag d;
		uint32_t v;
		int r = pft_event_parse(t[i].expr, NULL, &v, &d);

		if (d.problem != t[i].problem || d.column != t[i].column ||
		    d.length != t[i].length)
			fprintf(stderr, "\"%s\": problem %d col %zu len %zu\n",
				t[i].expr, d.problem, d.column, d.length);
		PTU_EQ(r, -PFT_ERR_INVALID);
		PTU_EQ(d.problem, t[i].problem);
		PTU_EQ(d.column, t[i].column);
		PTU_EQ(d.length, t[i].length);
	}
}

static void nesting(void)
{
	char deep[2 * 70 + 8];
	struct pft_event_diag d;
	uint32_t v;

	/* 64 levels are fine, 65 are refused at the 65th '(' (column 64). */
	for (int levels = 64; levels <= 65; levels++) {
		size_t n = 0;

		for (int i = 0; i < levels; i++)
			deep[n++] = '(';
		memcpy(deep + n, "ns", 2);
		n += 2;
		for (int i = 0; i < levels; i++)
			deep[n++] = ')';
		deep[n] = '\0';
		int r = pft_event_parse(deep, NULL, &v, &d);
		if (levels == 64) {
			PTU_EQ(r, 0);
			PTU_EQ(v, 0x6d);
		} else {
			PTU_EQ(r, -PFT_ERR_INVALID);
			PTU_EQ(d.problem, PFT_ERR_EVENT_TOO_DEEP);
			PTU_EQ(d.column, 64);
		}
	}
	/* Many negations are not nesting. */
	char nots[1001];
	memset(nots, '!', 998);
	memcpy(nots + 998, "ns", 3);
	PTU_EQ(pft_event_parse(nots, NULL, &v, &d), 0);
	PTU_EQ(v, 0x6d); /* an even number of '!' */
}

/* Cortex-A15 PTM: ETMCCR 0x8D294004, ETMCCER 0x34C01AC2, ETMIDR 0x411CF312
 * (the A15 snapshots).  The A15 TRM's resource table lists: single
 * address comparators 1-8, ARCs 1-4, counters 1-2, sequencer states 1-3,
 * context ID comparator (index 8), VMID comparator, start/stop, external
 * inputs 1-4, extended external input selectors 1-2, Non-secure,
 * prohibited, always. */
static void a15_limits(struct pft_event_limits *l)
{
	pft_event_limits_max(l);
	PTU_EQ(pft_event_limits_from_regs(l, 0x8d294004, 0x34c01ac2, 0x411cf312), 0);
}

static void limits_from_regs(void)
{
	struct pft_event_limits l;

	a15_limits(&l);
	PTU_EQ(l.size, sizeof(l));
	PTU_EQ(l.addr_cmps, 8);
	PTU_EQ(l.arcs, 4);
	PTU_EQ(l.counters, 2);
	PTU_EQ(l.seq_states, 3);
	PTU_EQ(l.ctxid_cmps, 1);
	PTU_EQ(l.vmid_cmp, 1);
	PTU_EQ(l.startstop, 1);
	PTU_EQ(l.ext_ins, 4);
	PTU_EQ(l.ext_in_sels, 2);
	PTU_EQ(l.nonsecure, 1);
	PTU_EQ(l.instr, 0);
	PTU_EQ(l.watchpoints, 0);

	/* Cortex-A9 PTM (DDI 0401A: ETMCCR 0x8D294004; ETMCCER bits 23, 22,
	 * 12, 11 set, bus 29, 2 selectors = 0x00C018EA), PFTv1.0: no VMID
	 * comparator. */
	pft_event_limits_max(&l);
	PTU_EQ(pft_event_limits_from_regs(&l, 0x8d294004, 0x00c018ea, 0x411cf301), 0);
	PTU_EQ(l.vmid_cmp, 0);
	PTU_EQ(l.ext_in_sels, 2);
	PTU_EQ(l.ctxid_cmps, 1);
	/* ETMCCER[26] set on a v1.0 ID still gives no VMID comparator. */
	PTU_EQ(pft_event_limits_from_regs(&l, 0x8d294004, 0x04c018ea, 0x411cf301), 0);
	PTU_EQ(l.vmid_cmp, 0);

	/* A PTM without Security Extensions (ETMIDR[19] = 0), no sequencer,
	 * no start/stop block, 3 context ID comparators (ETMCCR[25:24] = 3),
	 * 4 instrumentation resources (ETMCCER[15:13] = 4). */
	PTU_EQ(pft_event_limits_from_regs(&l, 0x03000001, 0x00008000, 0x4114f310), 0);
	PTU_EQ(l.nonsecure, 0);
	PTU_EQ(l.seq_states, 0);
	PTU_EQ(l.startstop, 0);
	PTU_EQ(l.ctxid_cmps, 3);
	PTU_EQ(l.instr, 4);
	PTU_EQ(l.arcs, 1);
	PTU_EQ(l.addr_cmps, 2);

	/* Not a PTM (Cortex-A7 ETMv3.5 ETMIDR 0x410CF250), or counts above the
	 * PTM maximum: refused, @limits unchanged. */
	a15_limits(&l);
	struct pft_event_limits before = l;
	PTU_EQ(pft_event_limits_from_regs(&l, 0x8d294004, 0x34c01ac2, 0x410cf250),
	       -PFT_ERR_BAD_CONFIG);
	PTU_EQ(pft_event_limits_from_regs(&l, 0x8d294009, 0x34c01ac2, 0x411cf312),
	       -PFT_ERR_BAD_CONFIG); /* 9 comparator pairs */
	PTU_EQ(pft_event_limits_from_regs(&l, 0x8d29a004, 0x34c01ac2, 0x411cf312),
	       -PFT_ERR_BAD_CONFIG); /* 5 counters */
	PTU_EQ(pft_event_limits_from_regs(&l, 0x8d294004, 0x34c01ac5, 0x411cf312),
	       -PFT_ERR_BAD_CONFIG); /* 5 selectors */
	PTU_CHECK(memcmp(&l, &before, sizeof(l)) == 0);

	PTU_EQ(pft_event_limits_max(NULL), -PFT_ERR_INVALID);
	PTU_EQ(pft_event_limits_from_regs(NULL, 0, 0, 0x411cf312), -PFT_ERR_INVALID);

	/* The maximum: every resource the spec lists. */
	pft_event_limits_max(&l);
	PTU_EQ(l.addr_cmps, 16);
	PTU_EQ(l.arcs, 8);
	PTU_EQ(l.instr, 4);
	PTU_EQ(l.watchpoints, 8);
	PTU_EQ(l.counters, 4);
	PTU_EQ(l.seq_states, 3);
	PTU_EQ(l.ctxid_cmps, 3);
	PTU_EQ(l.vmid_cmp, 1);
	PTU_EQ(l.startstop, 1);
	PTU_EQ(l.ext_ins, 4);
	PTU_EQ(l.ext_in_sels, 4);
	PTU_EQ(l.nonsecure, 1);
}

static void parse_with_limits(void)
{
	static const struct {
		const char *expr;
		size_t column;
		uint8_t resource;
	} unimpl[] = {
		{ "counter3", 0, 0x42 },
		{ "ns & addr_cmp9", 5, 0x08 },
		{ "arc5", 0, 0x14 },
		{ "ctxid_cmp2", 0, 0x59 },
		{ "ext_in_sel3", 0, 0x6a },
		{ "instr1", 0, 0x18 },
		{ "watch1", 0, 0x20 },
	};
	struct pft_event_limits l;
	struct pft_event_diag d;
	uint32_t v;

	a15_limits(&l);
	for (size_t i = 0; i < sizeof(unimpl) / sizeof(unimpl[0]); i++) {
		PTU_EQ(pft_event_parse(unimpl[i].expr, &l, &v, &d), -PFT_ERR_BAD_CONFIG);
		PTU_EQ(d.problem, PFT_ERR_EVENT_UNIMPLEMENTED);
		PTU_EQ(d.column, unimpl[i].column);
		PTU_EQ(d.resource, unimpl[i].resource);
		/* The architectural maximum has them all. */
		PTU_EQ(pft_event_parse(unimpl[i].expr, NULL, &v, &d), 0);
	}
	PTU_EQ(parse_ok("addr_cmp8 | arc4", &l), 0x14000 | 0x13 << 7 | 0x07);
	PTU_EQ(parse_ok("vmid_cmp & !ext_in_sel2", &l), 0xc000 | 0x5b << 7 | 0x69);
	PTU_EQ(parse_ok("startstop | prohibited", &l), 0x14000 | 0x6e << 7 | 0x5f);

	/* Cortex-A9 (PFTv1.0): no VMID comparator. */
	pft_event_limits_max(&l);
	pft_event_limits_from_regs(&l, 0x8d294004, 0x00c018ea, 0x411cf301);
	PTU_EQ(pft_event_parse("vmid_cmp", &l, &v, &d), -PFT_ERR_BAD_CONFIG);
	PTU_EQ(d.resource, 0x5b);

	/* Without Security Extensions there is no Non-secure resource. */
	pft_event_limits_from_regs(&l, 0x8d294004, 0x00c018ea, 0x4114f301);
	PTU_EQ(pft_event_parse("!ns", &l, &v, &d), -PFT_ERR_BAD_CONFIG);
	PTU_EQ(d.column, 1);

	/* A struct cut before its first layout (which ends at reserved) is
	 * refused; the first layout itself holds every count. */
	pft_event_limits_max(&l);
	l.size = offsetof(struct pft_event_limits, counters);
	PTU_EQ(pft_event_parse("counter1", &l, &v, &d), -PFT_ERR_INVALID);
	char expr[PFT_EVENT_EXPR_MAX];
	PTU_EQ(pft_event_format(0x6d, &l, expr, sizeof(expr), &d), -PFT_ERR_INVALID);
	l.size = offsetof(struct pft_event_limits, reserved);
	PTU_EQ(parse_ok("counter1", &l), 0x40);
	PTU_EQ(parse_ok("arc8 & always", &l), 0x8000 | 0x6f << 7 | 0x17);
}

static void format_with_limits(void)
{
	struct pft_event_limits l;
	struct pft_event_diag d;
	char buf[PFT_EVENT_EXPR_MAX];

	a15_limits(&l);
	PTU_STREQ(format_ok(0x8941, &l, buf, sizeof(buf)), "counter2 & arc3");
	PTU_EQ(pft_event_format(0x42, &l, buf, sizeof(buf), &d), -PFT_ERR_BAD_CONFIG);
	PTU_EQ(d.problem, PFT_ERR_EVENT_UNIMPLEMENTED);
	PTU_EQ(d.operand, 'A');
	PTU_EQ(d.resource, 0x42);
	/* A AND B with B = counter3: 0x8000 | 0x42 << 7 | 0x40. */
	PTU_EQ(pft_event_format(0x8000 | 0x42 << 7 | 0x40, &l, buf, sizeof(buf), &d),
	       -PFT_ERR_BAD_CONFIG);
	PTU_EQ(d.operand, 'B');
	PTU_EQ(d.resource, 0x42);
	/* Function A ignores B, implemented or not. */
	PTU_EQ(pft_event_format(0x42 << 7 | 0x40, &l, buf, sizeof(buf), &d), 8);
	PTU_STREQ(buf, "counter1");
	PTU_EQ(d.problem, PFT_ERR_EVENT_B_IGNORED);
	/* Reserved is reported before unimplemented. */
	PTU_EQ(pft_event_format(0x8000 | 0x7f << 7 | 0x42, &l, buf, sizeof(buf), &d),
	       -PFT_ERR_INVALID);
	PTU_EQ(d.problem, PFT_ERR_EVENT_RESERVED);
	PTU_EQ(d.operand, 'B');
}

/* Is resource @r reserved?  Written from the spec's table 7.2 row by row,
 * independently of the library's table. */
static int spec_reserved(unsigned r)
{
	unsigned type = r >> 4, index = r & 15;

	switch (type) {
	case 0: return 0;                         /* comparators 1-16 */
	case 1: return index >= 12;               /* ARC 1-8, instr 1-4 */
	case 2: return index >= 8;                /* watchpoints 1-8 */
	case 3: return 1;                         /* memory map decoders: not in PFT */
	case 4: return index >= 4;                /* counters 1-4 */
	case 5: return (index >= 3 && index <= 7) || (index >= 12 && index <= 14);
	case 6: return (index >= 4 && index <= 7) || index == 12;
	default: return 1;                        /* type 111 */
	}
}

/* All 2^17 values: each decodes to an expression that parses back to it,
 * or (functions A, NOT(A) with B != 0) to the value with B = 0, or is
 * reported reserved in A, or in B when the function uses B. */
static void all_values(void)
{
	char buf[PFT_EVENT_EXPR_MAX];
	unsigned ok = 0, b_ignored = 0, reserved = 0;

	for (uint32_t v = 0; v <= 0x1ffff; v++) {
		struct pft_event_diag d;
		unsigned fn = v >> 14, b = (v >> 7) & 0x7f, a = v & 0x7f;
		int r = pft_event_format(v, NULL, buf, sizeof(buf), &d);
		int bad_a = spec_reserved(a), bad_b = fn >= 2 && spec_reserved(b);

		if (bad_a || bad_b) {
			reserved++;
			if (r != -PFT_ERR_INVALID || d.problem != PFT_ERR_EVENT_RESERVED ||
			    d.operand != (bad_a ? 'A' : 'B') ||
			    d.resource != (bad_a ? a : b)) {
				fprintf(stderr, "0x%05x: %d %d\n", v, r, d.problem);
				PTU_CHECK(0);
			}
			continue;
		}
		if (r < 0 || (size_t)r != strlen(buf)) {
			fprintf(stderr, "0x%05x: format %d\n", v, r);
			PTU_CHECK(0);
			continue;
		}
		uint32_t back, want = v;
		if (fn < 2 && b) {
			b_ignored++;
			want = v & ~(0x7fu << 7);
			PTU_EQ(d.problem, PFT_ERR_EVENT_B_IGNORED);
			PTU_EQ(d.resource, b);
		} else {
			ok++;
			PTU_EQ(d.problem, PFT_ERR_OK);
		}
		if (pft_event_parse(buf, NULL, &back, NULL) != 0 || back != want) {
			fprintf(stderr, "0x%05x -> \"%s\" -> 0x%05x\n", v, buf, back);
			PTU_CHECK(0);
		}
	}
	/* By hand from table 7.2: 16 + (8 + 4) + 8 + 0 + 4 + (3 + 3 + 1 + 1)
	 * + (4 + 4 + 3) + 0 = 59 named resources.  Valid: 2 functions x 59 A
	 * x 128 B + 6 x 59 x 59 = 15104 + 20886 = 35990, of which 2 x 59 x 127
	 * = 14986 have B ignored; the other 131072 - 35990 = 95082 are
	 * reserved. */
	PTU_EQ(ok + b_ignored, 35990);
	PTU_EQ(b_ignored, 14986);
	PTU_EQ(reserved, 95082);
}

/* The same with the Cortex-A15's resources: 8 + 4 + 2 + 3 + 1 + 1 + 1 +
 * 4 + 2 + 3 = 29 of them, so 2 x 29 x 128 + 6 x 29 x 29 = 7424 + 5046 =
 * 12470 values decode; each parses back with the same limits. */
static void all_values_a15(void)
{
	struct pft_event_limits l;
	char buf[PFT_EVENT_EXPR_MAX];
	unsigned decoded = 0;

	a15_limits(&l);
	for (uint32_t v = 0; v <= 0x1ffff; v++) {
		uint32_t back;
		int r = pft_event_format(v, &l, buf, sizeof(buf), NULL);

		if (r < 0)
			continue;
		decoded++;
		if (pft_event_parse(buf, &l, &back, NULL) != 0 ||
		    back != ((v >> 14) < 2 ? v & ~(0x7fu << 7) : v)) {
			fprintf(stderr, "0x%05x -> \"%s\"\n", v, buf);
			PTU_CHECK(0);
		}
	}
	PTU_EQ(decoded, 12470);
}

static void b_ignored(void)
{
	struct pft_event_diag d;
	char buf[PFT_EVENT_EXPR_MAX];

	/* seq_state3 with B = arc3 (0x12): 0x12 << 7 | 0x52 = 0x952. */
	PTU_EQ(pft_event_format(0x952, NULL, buf, sizeof(buf), &d), 10);
	PTU_STREQ(buf, "seq_state3");
	PTU_EQ(d.problem, PFT_ERR_EVENT_B_IGNORED);
	PTU_EQ(d.operand, 'B');
	PTU_EQ(d.resource, 0x12);
	/* A reserved B is ignored too: NOT(always) with B = 0x7f. */
	PTU_EQ(pft_event_format(0x4000 | 0x7f << 7 | 0x6f, NULL, buf, sizeof(buf), &d), 5);
	PTU_STREQ(buf, "never");
	PTU_EQ(d.problem, PFT_ERR_EVENT_B_IGNORED);
}

static void bad_values(void)
{
	struct pft_event_diag d;
	char buf[PFT_EVENT_EXPR_MAX];

	/* ETMCNTENR's 0x2406F: bit 17 is no part of the event. */
	PTU_EQ(pft_event_format(0x2406f, NULL, buf, sizeof(buf), &d), -PFT_ERR_INVALID);
	PTU_EQ(d.problem, PFT_ERR_EVENT_HIGH_BITS);
	PTU_EQ(pft_event_format(0x20000, NULL, buf, sizeof(buf), &d), -PFT_ERR_INVALID);
	PTU_EQ(pft_event_format(0xffffffff, NULL, buf, sizeof(buf), &d), -PFT_ERR_INVALID);
	/* Type 011 (ETMv3 memory map decoders) and 111 are reserved. */
	PTU_EQ(pft_event_format(0x30, NULL, buf, sizeof(buf), &d), -PFT_ERR_INVALID);
	PTU_EQ(d.problem, PFT_ERR_EVENT_RESERVED);
	PTU_EQ(d.operand, 'A');
	PTU_EQ(d.resource, 0x30);
	PTU_STREQ(buf, "");
	PTU_EQ(pft_event_format(0x7f, NULL, buf, sizeof(buf), &d), -PFT_ERR_INVALID);
	/* Type 110 index 12 (between selectors and ns) is reserved. */
	PTU_EQ(pft_event_format(0x6c, NULL, buf, sizeof(buf), &d), -PFT_ERR_INVALID);
	PTU_EQ(d.resource, 0x6c);
}

static void null_and_small(void)
{
	struct pft_event_diag d;
	char buf[PFT_EVENT_EXPR_MAX];
	uint32_t v;

	PTU_EQ(pft_event_parse(NULL, NULL, &v, &d), -PFT_ERR_INVALID);
	PTU_EQ(d.problem, PFT_ERR_OK);
	PTU_EQ(pft_event_parse("ns", NULL, NULL, &d), -PFT_ERR_INVALID);
	PTU_EQ(pft_event_parse("ns", NULL, &v, NULL), 0);
	PTU_EQ(v, 0x6d);
	PTU_EQ(pft_event_format(0x6d, NULL, NULL, 10, &d), -PFT_ERR_INVALID);
	PTU_EQ(pft_event_format(0x6d, NULL, buf, 0, &d), -PFT_ERR_NOSPACE);
	/* "seq_state3" needs 11 bytes. */
	PTU_EQ(pft_event_format(0x52, NULL, buf, 10, &d), -PFT_ERR_NOSPACE);
	PTU_STREQ(buf, "");
	PTU_EQ(pft_event_format(0x52, NULL, buf, 11, NULL), 10);
	/* The longest canonical expression fits PFT_EVENT_EXPR_MAX:
	 * NOT(A) OR NOT(B), A = B = ext_in_sel4 (0x6b). */
	PTU_EQ(pft_event_format(0x1c000 | 0x6b << 7 | 0x6b, NULL, buf, sizeof(buf), NULL),
	       strlen("!ext_in_sel4 | !ext_in_sel4"));

	PTU_EQ(pft_event_resource_name(0x12, buf, sizeof(buf)), 4);
	PTU_STREQ(buf, "arc3");
	PTU_EQ(pft_event_resource_name(0x7f, buf, sizeof(buf)), -PFT_ERR_INVALID);
	PTU_EQ(pft_event_resource_name(0x80, buf, sizeof(buf)), -PFT_ERR_INVALID);
	PTU_EQ(pft_event_resource_name(0x12, NULL, 8), -PFT_ERR_INVALID);
	PTU_EQ(pft_event_resource_name(0x12, buf, 4), -PFT_ERR_NOSPACE);
	PTU_EQ(pft_event_resource_name(0x12, buf, 0), -PFT_ERR_NOSPACE);
}

static void pack_unpack(void)
{
	struct pft_event ev;
	uint32_t v;

	/* Spec bit view of 0x8941: 010 | 0010010 | 1000001. */
	PTU_EQ(pft_event_unpack(0x8941, &ev), 0);
	PTU_EQ(ev.function, PFT_EVENT_A_AND_B);
	PTU_EQ(ev.b, 0x12);
	PTU_EQ(ev.a, 0x41);
	PTU_EQ(pft_event_pack(&ev, &v), 0);
	PTU_EQ(v, 0x8941);
	PTU_EQ(pft_event_unpack(0x20000, &ev), -PFT_ERR_INVALID);
	PTU_EQ(pft_event_unpack(0x1, NULL), -PFT_ERR_INVALID);
	ev.function = 8;
	PTU_EQ(pft_event_pack(&ev, &v), -PFT_ERR_INVALID);
	ev.function = 0;
	ev.a = 0x80;
	PTU_EQ(pft_event_pack(&ev, &v), -PFT_ERR_INVALID);
	PTU_EQ(pft_event_pack(NULL, &v), -PFT_ERR_INVALID);
	ev.a = 0;
	PTU_EQ(pft_event_pack(&ev, NULL), -PFT_ERR_INVALID);
}

/* Random text never crashes the parser, and whatever it accepts formats
 * and parses back to the same value. */
static void random_text(void)
{
	static const char *const pieces[] = {
		"arc", "counter", "ns", "always", "never", "not", "and", "or", "!",
		"&", "|", "(", ")", " ", "1", "2", "9", "_", "ext_in_sel", "x",
		"\x80", "&&", "vmid_cmp", "seq_state", "0"
	};
	const size_t npieces = sizeof(pieces) / sizeof(pieces[0]);
	uint32_t seed = 12345;
	unsigned accepted = 0;

	for (int i = 0; i < 200000; i++) {
		char text[128];
		size_t n = 0;

		seed = seed * 1103515245u + 12345u;
		int count = (seed >> 16) % 10;
		for (int j = 0; j < count; j++) {
			seed = seed * 1103515245u + 12345u;
			const char *p = pieces[(seed >> 16) % npieces];
			size_t len = strlen(p);
			if (n + len >= sizeof(text))
				break;
			memcpy(text + n, p, len);
			n += len;
		}
		text[n] = '\0';

		struct pft_event_diag d;
		uint32_t v, back;
		char buf[PFT_EVENT_EXPR_MAX];
		int r = pft_event_parse(text, NULL, &v, &d);
		if (r < 0) {
			PTU_CHECK(r == -PFT_ERR_INVALID && d.problem != PFT_ERR_OK &&
				  d.column <= n && d.column + d.length <= n);
			continue;
		}
		accepted++;
		PTU_CHECK(pft_event_format(v, NULL, buf, sizeof(buf), &d) >= 0);
		PTU_CHECK(pft_event_parse(buf, NULL, &back, NULL) == 0 && back == v);
	}
	PTU_CHECK(accepted > 100); /* the generator does produce valid ones */
}

int main(void)
{
	PTU_RUN(worked_examples);
	PTU_RUN(resource_numbers);
	PTU_RUN(equivalent_forms);
	PTU_RUN(bad_expressions);
	PTU_RUN(nesting);
	PTU_RUN(limits_from_regs);
	PTU_RUN(parse_with_limits);
	PTU_RUN(format_with_limits);
	PTU_RUN(all_values);
	PTU_RUN(all_values_a15);
	PTU_RUN(b_ignored);
	PTU_RUN(bad_values);
	PTU_RUN(null_and_small);
	PTU_RUN(pack_unpack);
	PTU_RUN(random_text);
	PTU_MAIN_END();
}
