/* Tests of the PTM register explainer (pft_regs_*).
 *
 * Expected fields come from shared/spec/ptm-registers-events.md (register
 * map, ETMCR/ETMCCR/ETMCCER/ETMIDR/ETMTRACEIDR tables, the register dumps
 * of section 6.1) and the PTM TRMs cited there.
 */
#include <stddef.h>

#include "ptunit.h"
#include "pft.h"

struct explained {
	int n;
	struct pft_regs_field f[PFT_REGS_FIELDS_MAX];
};

static void explain(const char *name, uint32_t v,
		    const struct pft_regs_context *ctx, struct explained *e)
{
	e->n = pft_regs_explain(name, v, ctx, e->f, PFT_REGS_FIELDS_MAX);
	PTU_CHECK(e->n > 0 && e->n <= PFT_REGS_FIELDS_MAX);
}

/* The field called @name that starts at bit @lo. */
static const struct pft_regs_field *field(const struct explained *e,
					  const char *name, unsigned lo)
{
	for (int i = 0; i < e->n; i++)
		if (!strcmp(e->f[i].name, name) && e->f[i].lo == lo)
			return &e->f[i];
	fprintf(stderr, "no field %s at bit %u\n", name, lo);
	return NULL;
}

static int count_flags(const struct explained *e, enum pft_regs_flag flag)
{
	int n = 0;

	for (int i = 0; i < e->n; i++)
		n += e->f[i].flag == flag;
	return n;
}

/* Check a field's value and flag. */
#define FIELD(e, name, lo, val, flg)                                          \
	do {                                                                  \
		const struct pft_regs_field *f_ = field(e, name, lo);        \
		PTU_CHECK(f_ != NULL);                                        \
		if (f_) {                                                     \
			PTU_EQ(f_->value, val);                               \
			PTU_EQ(f_->flag, flg);                                \
		}                                                             \
	} while (0)

#define NONE PFT_REGS_FLAG_NONE
#define NOTE PFT_REGS_FLAG_NOTE
#define WARN PFT_REGS_FLAG_WARN

/* The Cortex-A15 PTM of the snapshots. */
static void a15_context(struct pft_regs_context *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->size = sizeof(*ctx);
	ctx->etmidr = 0x411cf312;
	ctx->etmccr = 0x8d294004;
	ctx->etmccer = 0x34c01ac2;
	ctx->have_etmidr = ctx->have_etmccr = ctx->have_etmccer = 1;
}

static void lookup(void)
{
	/* Register numbers = offset / 4, from the spec's register map. */
	static const struct {
		const char *name, *canonical;
		unsigned number;
	} t[] = {
		{ "ETMCR", "ETMCR", 0x000 },
		{ "etmccr", "ETMCCR", 0x001 },
		{ "ETMTRIGGER", "ETMTRIGGER", 0x002 },
		{ "ETMSR", "ETMSR", 0x004 },
		{ "ETMTSSCR", "ETMTSSCR", 0x006 },
		{ "ETMTEEVR", "ETMTEEVR", 0x008 },
		{ "ETMTECR1", "ETMTECR1", 0x009 },
		{ "ETMACVR1", "ETMACVR1", 0x010 },
		{ "ETMACVR16", "ETMACVR16", 0x01f },
		{ "ETMCNTRLDVR1", "ETMCNTRLDVR1", 0x050 },
		{ "EtmCntEnR2", "ETMCNTENR2", 0x055 },
		{ "ETMCNTRLDEVR4", "ETMCNTRLDEVR4", 0x05b },
		{ "ETMCNTVR1", "ETMCNTVR1", 0x05c },
		{ "ETMSQ12EVR", "ETMSQ12EVR", 0x060 },
		{ "ETMSQ13EVR", "ETMSQ13EVR", 0x065 },
		{ "ETMSQR", "ETMSQR", 0x067 },
		{ "ETMEXTOUTEVR1", "ETMEXTOUTEVR1", 0x068 },
		{ "ETMCIDCVR3", "ETMCIDCVR3", 0x06e },
		{ "ETMCIDCMR", "ETMCIDCMR", 0x06f },
		{ "ETMSYNCFR", "ETMSYNCFR", 0x078 },
		{ "ETMIDR", "ETMIDR", 0x079 },
		{ "ETMCCER", "ETMCCER", 0x07a },
		{ "ETMEXTINSELR", "ETMEXTINSELR", 0x07b },
		{ "ETMTSEVR", "ETMTSEVR", 0x07e },
		{ "ETMAUXCR", "ETMAUXCR", 0x07f },
		{ "ETMTRACEIDR", "ETMTRACEIDR", 0x080 },
		{ "ETMVMIDCVR", "ETMVMIDCVR", 0x090 },
	};
	struct pft_regs_info info;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		memset(&info, 0, sizeof(info));
		PTU_EQ(pft_regs_lookup(t[i].name, &info), 0);
		PTU_STREQ(info.name, t[i].canonical);
		PTU_EQ(info.number, t[i].number);
		PTU_CHECK(info.title[0] != '\0');
	}
	PTU_EQ(pft_regs_lookup("ETMCNTENR2", &info), 0);
	PTU_STREQ(info.title, "counter 2 enable event");
	PTU_EQ(pft_regs_lookup("ETMCR", NULL), 0);

	static const char *const unknown[] = {
		"ETMACVR0", "ETMACVR17", "ETMCNTENR", "ETMCNTENR5", "ETMCRX",
		"ETMACTR1", "ETMFFLR", "", "ETMCNTENR1x", "ETMSQ14EVR"
	};
	for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		PTU_EQ(pft_regs_lookup(unknown[i], &info), -PFT_ERR_NOT_SUPPORTED);
		PTU_EQ(pft_regs_explain(unknown[i], 0, NULL, NULL, 0),
		       -PFT_ERR_NOT_SUPPORTED);
	}
	PTU_EQ(pft_regs_lookup(NULL, &info), -PFT_ERR_INVALID);
}

/* TC2 PTM: ETMCR 0x10001000 = timestamps on, cycle-accurate on, no
 * context ID, no return stack (spec 6.1). */
static void etmcr_tc2(void)
{
	struct pft_regs_context ctx;
	struct explained e;

	a15_context(&ctx);
	explain("ETMCR", 0x10001000, &ctx, &e);
	FIELD(&e, "cycle_accurate", 12, 1, NONE);
	FIELD(&e, "timestamps", 28, 1, NONE);
	FIELD(&e, "ctxid_size", 14, 0, NONE);
	FIELD(&e, "return_stack", 29, 0, NONE);
	FIELD(&e, "branch_broadcast", 8, 0, NONE);
	FIELD(&e, "programming", 10, 0, NONE);
	FIELD(&e, "vmid", 30, 0, NONE);
	PTU_EQ(count_flags(&e, WARN), 0);
	PTU_EQ(count_flags(&e, NOTE), 0);
	/* Fields come from bit 0 up. */
	for (int i = 1; i < e.n; i++)
		PTU_CHECK(e.f[i].lo > e.f[i - 1].lo);
}

/* Return-stack capture: ETMCR 0x20000400 = return stack on, Programming
 * bit set (dump taken after stop), not CA, no TS, no context ID. */
static void etmcr_rstk(void)
{
	struct pft_regs_context ctx;
	struct explained e;

	a15_context(&ctx);
	explain("ETMCR", 0x20000400, &ctx, &e);
	FIELD(&e, "return_stack", 29, 1, NONE);
	FIELD(&e, "programming", 10, 1, NOTE);
	FIELD(&e, "cycle_accurate", 12, 0, NONE);
	FIELD(&e, "timestamps", 28, 0, NONE);
	FIELD(&e, "ctxid_size", 14, 0, NONE);
	PTU_EQ(count_flags(&e, WARN), 0);
}

static void etmcr_inconsistent(void)
{
	struct pft_regs_context ctx;
	struct explained e;

	a15_context(&ctx);
	/* Return stack (29) with branch broadcast (8): not allowed. */
	explain("ETMCR", 0x20000100, &ctx, &e);
	FIELD(&e, "return_stack", 29, 1, WARN);
	/* Without knowing anything, still inconsistent. */
	explain("ETMCR", 0x20000100, NULL, &e);
	FIELD(&e, "return_stack", 29, 1, WARN);

	/* An ETMCCER that says no timestamps and no return stack (bit 12,
	 * reserved-RAO, reads 1: it can be believed): enabling them is
	 * flagged. */
	ctx.etmccer = 0x000018ea;
	explain("ETMCR", 0x30000000, &ctx, &e);
	FIELD(&e, "timestamps", 28, 1, WARN);
	FIELD(&e, "return_stack", 29, 1, WARN);
	/* Snowball's Cortex-A9 dump 0x000008EA says the same, but its bit 12
	 * reads 0 and its trace has timestamps (pft-protocol.md A14): it
	 * proves nothing, so nothing is flagged. */
	ctx.etmccer = 0x000008ea;
	explain("ETMCR", 0x30000000, &ctx, &e);
	FIELD(&e, "timestamps", 28, 1, NONE);
	FIELD(&e, "return_stack", 29, 1, NONE);
	PTU_EQ(count_flags(&e, WARN), 0);
	/* The same without ETMCCER: nothing to contradict. */
	ctx.have_etmccer = 0;
	explain("ETMCR", 0x30000000, &ctx, &e);
	PTU_EQ(count_flags(&e, WARN), 0);

	/* VMID (30): reserved on PFTv1.0, needs ETMCCER[26] on v1.1. */
	a15_context(&ctx);
	explain("ETMCR", 0x40000000, &ctx, &e);
	FIELD(&e, "vmid", 30, 1, NONE);
	ctx.etmidr = 0x411cf301;
	explain("ETMCR", 0x40000000, &ctx, &e);
	FIELD(&e, "vmid", 30, 1, WARN);
	a15_context(&ctx);
	ctx.etmccer &= ~(1u << 26);
	explain("ETMCR", 0x40000000, &ctx, &e);
	FIELD(&e, "vmid", 30, 1, WARN);

	/* Bit 31 is reserved. */
	explain("ETMCR", 0x80000000, NULL, &e);
	FIELD(&e, "reserved", 31, 1, WARN);

	/* Context ID sizes: 01 one byte, 11 four bytes. */
	explain("ETMCR", 0x4000, NULL, &e);
	FIELD(&e, "ctxid_size", 14, 1, NONE);
	explain("ETMCR", 0xc000, NULL, &e);
	FIELD(&e, "ctxid_size", 14, 3, NONE);
	PTU_CHECK(strstr(field(&e, "ctxid_size", 14)->meaning, "4 bytes") != NULL);
}

static void id_registers(void)
{
	struct explained e;

	/* ETMCCR 0x8D294004 (spec 5): ID register present, software access,
	 * start/stop block, 1 context ID comparator, no FIFOFULL, 2 external
	 * outputs, 4 external inputs, sequencer, 2 counters, 4 pairs. */
	explain("ETMCCR", 0x8d294004, NULL, &e);
	FIELD(&e, "addr_cmp_pairs", 0, 4, NONE);
	FIELD(&e, "counters", 13, 2, NONE);
	FIELD(&e, "sequencer", 16, 1, NONE);
	FIELD(&e, "ext_inputs", 17, 4, NONE);
	FIELD(&e, "ext_outputs", 20, 2, NONE);
	FIELD(&e, "fifofull", 23, 0, NONE);
	FIELD(&e, "ctxid_cmps", 24, 1, NONE);
	FIELD(&e, "startstop", 26, 1, NONE);
	FIELD(&e, "software_access", 27, 1, NONE);
	FIELD(&e, "etmidr_present", 31, 1, NONE);
	PTU_EQ(count_flags(&e, WARN), 0);
	/* More pairs than a PTM can have. */
	explain("ETMCCR", 0x8d294009, NULL, &e);
	FIELD(&e, "addr_cmp_pairs", 0, 9, WARN);

	/* ETMCCER 0x34C01AC2 (spec 6.1): 64-bit binary timestamps,
	 * Virtualization, return stack and timestamps implemented, 88-bit
	 * extended input bus, 2 selectors. */
	explain("ETMCCER", 0x34c01ac2, NULL, &e);
	FIELD(&e, "ext_in_sels", 0, 2, NONE);
	FIELD(&e, "ext_in_bus", 3, 88, NONE);
	FIELD(&e, "all_readable", 11, 1, NONE);
	FIELD(&e, "ts_implemented", 22, 1, NONE);
	FIELD(&e, "rs_implemented", 23, 1, NONE);
	FIELD(&e, "dmb_waypoints", 24, 0, NONE);
	FIELD(&e, "virtualization", 26, 1, NONE);
	FIELD(&e, "ts_encoding", 28, 1, NONE);
	FIELD(&e, "ts_size", 29, 1, NONE);
	PTU_EQ(count_flags(&e, WARN) + count_flags(&e, NOTE), 0);
	/* Snowball's 0x000008EA: bit 12 reads 0 though reserved-RAO. */
	explain("ETMCCER", 0x000008ea, NULL, &e);
	FIELD(&e, "reserved", 12, 0, NOTE);
	FIELD(&e, "ts_implemented", 22, 0, NONE);
	PTU_CHECK(field(&e, "ts_implemented", 22) &&
		  strstr(field(&e, "ts_implemented", 22)->meaning, "not to trust") != NULL);
	/* v1.1-only bits set on a PFTv1.0 PTM. */
	struct pft_regs_context ctx;
	a15_context(&ctx);
	ctx.etmidr = 0x411cf301;
	explain("ETMCCER", 0x10000000, &ctx, &e);
	FIELD(&e, "ts_encoding", 28, 1, WARN);

	/* ETMIDR: A15 0x411CF312 = PFTv1.1 rev 2; A9 0x411CF301 = PFTv1.0
	 * rev 1; the A7's ETMv3.5 0x410CF250 is not a PTM. */
	explain("ETMIDR", 0x411cf312, NULL, &e);
	FIELD(&e, "minor", 4, 1, NONE);
	FIELD(&e, "major", 8, 3, NONE);
	FIELD(&e, "revision", 0, 2, NONE);
	FIELD(&e, "security", 19, 1, NONE);
	FIELD(&e, "implementer", 24, 0x41, NONE);
	PTU_EQ(count_flags(&e, WARN), 0);
	explain("ETMIDR", 0x411cf301, NULL, &e);
	FIELD(&e, "minor", 4, 0, NONE);
	FIELD(&e, "revision", 0, 1, NONE);
	explain("ETMIDR", 0x410cf250, NULL, &e);
	FIELD(&e, "major", 8, 2, WARN);
	explain("ETMIDR", 0x411c0312, NULL, &e);
	FIELD(&e, "reads_f", 12, 0, WARN);
}

static void trace_id(void)
{
	/* Valid IDs 0x01-0x6F; 0x00 and 0x70-0x7F reserved. */
	static const struct {
		uint32_t v;
		int warn;
	} t[] = { { 0x00, 1 }, { 0x01, 0 }, { 0x13, 0 }, { 0x6f, 0 },
		  { 0x70, 1 }, { 0x7d, 1 }, { 0x7f, 1 } };
	struct explained e;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		explain("ETMTRACEIDR", t[i].v, NULL, &e);
		FIELD(&e, "trace_id", 0, t[i].v, t[i].warn ? WARN : NONE);
	}
	explain("ETMTRACEIDR", 0x113, NULL, &e);
	FIELD(&e, "trace_id", 0, 0x13, NONE);
	FIELD(&e, "reserved", 7, 0x2, NOTE);
}

static void event_registers(void)
{
	struct pft_regs_context ctx;
	struct explained e;

	/* Return-stack dump: ETMTEEVR 0x6F always, ETMTRIGGER 0x406F never,
	 * counter enables 0x0002406F = never plus bit 17 (RAO/WI). */
	a15_context(&ctx);
	explain("ETMTEEVR", 0x6f, &ctx, &e);
	PTU_STREQ(field(&e, "event", 0)->meaning, "always");
	FIELD(&e, "function", 14, 0, NONE);
	FIELD(&e, "resource_a", 0, 0x6f, NONE);
	explain("ETMTRIGGER", 0x406f, &ctx, &e);
	PTU_STREQ(field(&e, "event", 0)->meaning, "never");
	FIELD(&e, "function", 14, 1, NONE);
	explain("ETMCNTENR1", 0x2406f, &ctx, &e);
	PTU_STREQ(field(&e, "event", 0)->meaning, "never");
	FIELD(&e, "event", 0, 0x406f, NONE);
	FIELD(&e, "reserved", 17, 1, NONE);
	PTU_EQ(count_flags(&e, WARN) + count_flags(&e, NOTE), 0);
	explain("ETMSQ12EVR", 0x8941, &ctx, &e);
	PTU_STREQ(field(&e, "event", 0)->meaning, "counter2 & arc3");
	FIELD(&e, "resource_b", 7, 0x12, NONE);
	FIELD(&e, "resource_a", 0, 0x41, NONE);
	FIELD(&e, "function", 14, 2, NONE);

	/* A reserved resource: UNPREDICTABLE. */
	explain("ETMTSEVR", 0x7f, &ctx, &e);
	FIELD(&e, "event", 0, 0x7f, WARN);
	/* counter3 on an A15 (2 counters), but fine when nothing is known. */
	explain("ETMEXTOUTEVR1", 0x42, &ctx, &e);
	FIELD(&e, "event", 0, 0x42, WARN);
	explain("ETMEXTOUTEVR1", 0x42, NULL, &e);
	FIELD(&e, "event", 0, 0x42, NONE);
	/* B set under function A: a note. */
	explain("ETMTEEVR", 0x952, &ctx, &e);
	FIELD(&e, "event", 0, 0x952, NOTE);
	PTU_CHECK(strncmp(field(&e, "event", 0)->meaning, "seq_state3", 10) == 0);
	/* Bits above the event in an ordinary event register. */
	explain("ETMTEEVR", 0x10006f, &ctx, &e);
	FIELD(&e, "not_event", 17, 0x8, NOTE);
}

static void absent_instances(void)
{
	struct pft_regs_context ctx;
	struct explained e;

	/* ETMCCR 0x8D294004: 2 counters, 2 external outputs, 8 single
	 * comparators, 1 context ID comparator. */
	a15_context(&ctx);
	static const char *const absent[] = {
		"ETMCNTENR3", "ETMCNTRLDEVR4", "ETMCNTVR3", "ETMEXTOUTEVR3",
		"ETMACVR9", "ETMCIDCVR2"
	};
	for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++) {
		explain(absent[i], 0, &ctx, &e);
		PTU_EQ(e.n, 1);
		FIELD(&e, "register", 0, 0, NOTE);
		explain(absent[i], 5, &ctx, &e);
		FIELD(&e, "register", 0, 5, WARN);
	}
	static const char *const present[] = {
		"ETMCNTENR2", "ETMEXTOUTEVR2", "ETMACVR8", "ETMCIDCVR1", "ETMSQ31EVR",
		"ETMVMIDCVR", "ETMTSEVR", "ETMEXTINSELR", "ETMTSSCR"
	};
	for (size_t i = 0; i < sizeof(present) / sizeof(present[0]); i++) {
		explain(present[i], 0, &ctx, &e);
		PTU_CHECK(strcmp(e.f[e.n - 1].name, "register") != 0);
	}
	/* Nothing known: every instance may exist. */
	explain("ETMCNTENR4", 0x2406f, NULL, &e);
	PTU_STREQ(field(&e, "event", 0)->meaning, "never");
	/* No sequencer (ETMCCR[16] = 0), no VMID (A9's v1.0 ID). */
	ctx.etmccr = 0x8d284004;
	ctx.etmidr = 0x411cf301;
	explain("ETMSQR", 0, &ctx, &e);
	FIELD(&e, "register", 0, 0, NOTE);
	explain("ETMVMIDCVR", 0, &ctx, &e);
	FIELD(&e, "register", 0, 0, NOTE);
}

static void other_registers(void)
{
	struct pft_regs_context ctx;
	struct explained e;

	a15_context(&ctx);
	/* ETMTECR1 0x01000000: exclude mode with nothing excluded. */
	explain("ETMTECR1", 0x01000000, &ctx, &e);
	FIELD(&e, "exclude", 24, 1, NONE);
	FIELD(&e, "arcs", 0, 0, NONE);
	FIELD(&e, "startstop", 25, 0, NONE);
	PTU_EQ(count_flags(&e, WARN), 0);
	/* ARC 5 selected (bit 4) on a PTM with 4 ARCs. */
	explain("ETMTECR1", 0x00000010, &ctx, &e);
	FIELD(&e, "arcs", 0, 0x10, WARN);
	explain("ETMTECR1", 0x00000008, &ctx, &e);
	FIELD(&e, "arcs", 0, 0x08, NONE);
	/* Start/stop enabled without a start/stop block (ETMCCR[26] = 0). */
	ctx.etmccr = 0x89294004;
	explain("ETMTECR1", 0x03000000, &ctx, &e);
	FIELD(&e, "startstop", 25, 1, WARN);
	a15_context(&ctx);

	/* ETMTSSCR: comparator 9 does not exist (8 single comparators). */
	explain("ETMTSSCR", 0x00800001, &ctx, &e);
	FIELD(&e, "start", 0, 0x1, NONE);
	FIELD(&e, "stop", 16, 0x80, NONE);
	explain("ETMTSSCR", 0x01000000, &ctx, &e);
	FIELD(&e, "stop", 16, 0x100, WARN);

	/* ETMSYNCFR 0x400: every 1024 bytes. */
	explain("ETMSYNCFR", 0x400, &ctx, &e);
	FIELD(&e, "period", 0, 1024, NONE);
	explain("ETMSYNCFR", 0, &ctx, &e);
	FIELD(&e, "period", 0, 0, NOTE);

	/* ETMSR 0x2: Programming bit status. */
	explain("ETMSR", 0x2, &ctx, &e);
	FIELD(&e, "prog_bit", 1, 1, NONE);
	FIELD(&e, "overflow", 0, 0, NONE);

	/* ETMAUXCR (A15): bit 1 disables timestamps on barriers. */
	explain("ETMAUXCR", 0x2, &ctx, &e);
	FIELD(&e, "no_barrier_ts", 1, 1, NOTE);
	FIELD(&e, "no_forced_overflow", 0, 0, NONE);

	/* ETMSQR: state encoding 3 is reserved. */
	explain("ETMSQR", 3, &ctx, &e);
	FIELD(&e, "state", 0, 3, WARN);
	explain("ETMSQR", 2, &ctx, &e);
	FIELD(&e, "state", 0, 2, NONE);

	/* ETMEXTINSELR: 2 selectors, 88-line bus (A15). */
	explain("ETMEXTINSELR", 0x2b21, &ctx, &e);
	FIELD(&e, "selector1", 0, 0x21, NONE);
	FIELD(&e, "selector2", 8, 0x2b, NONE);
	explain("ETMEXTINSELR", 0x58, &ctx, &e); /* line 88 of 0-87 */
	FIELD(&e, "selector1", 0, 0x58, WARN);
	explain("ETMEXTINSELR", 0x10000, &ctx, &e); /* selector 3 */
	FIELD(&e, "selector3", 16, 1, WARN);

	explain("ETMVMIDCVR", 0x9, &ctx, &e);
	FIELD(&e, "vmid", 0, 9, NONE);
	explain("ETMCNTVR1", 0x1234, &ctx, &e);
	FIELD(&e, "count", 0, 0x1234, NONE);
	explain("ETMACVR1", 0x80000278, &ctx, &e);
	FIELD(&e, "address", 0, 0x80000278, NONE);
}

static void arguments(void)
{
	struct pft_regs_field f[3];
	int total;

	/* The count of fields, whatever room there is. */
	total = pft_regs_explain("ETMCR", 0, NULL, NULL, 0);
	PTU_CHECK(total > 3);
	memset(f, 0x5a, sizeof(f));
	PTU_EQ(pft_regs_explain("ETMCR", 0, NULL, f, 2), total);
	PTU_STREQ(f[0].name, "power_down");
	PTU_EQ(f[2].hi, 0x5a); /* untouched */
	PTU_EQ(pft_regs_explain(NULL, 0, NULL, f, 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_regs_explain("ETMCR", 0, NULL, NULL, 1), -PFT_ERR_INVALID);

	/* A context smaller than its first layout (which ends at reserved) is
	 * refused: it would not hold the have_ flags. */
	struct pft_regs_context ctx;
	struct explained e;
	a15_context(&ctx);
	ctx.etmccer = 1u << 12;   /* believable (reserved bit 12 reads 1), no features */
	ctx.size = offsetof(struct pft_regs_context, have_etmidr);
	PTU_EQ(pft_regs_explain("ETMCR", 0x30000000, &ctx, f, 2), -PFT_ERR_INVALID);
	ctx.size = offsetof(struct pft_regs_context, reserved);
	explain("ETMCR", 0x30000000, &ctx, &e);
	PTU_EQ(count_flags(&e, WARN), 2);
	ctx.size = sizeof(ctx);
	explain("ETMCR", 0x30000000, &ctx, &e);
	PTU_EQ(count_flags(&e, WARN), 2);
}

int main(void)
{
	PTU_RUN(lookup);
	PTU_RUN(etmcr_tc2);
	PTU_RUN(etmcr_rstk);
	PTU_RUN(etmcr_inconsistent);
	PTU_RUN(id_registers);
	PTU_RUN(trace_id);
	PTU_RUN(event_registers);
	PTU_RUN(absent_instances);
	PTU_RUN(other_registers);
	PTU_RUN(arguments);
	PTU_MAIN_END();
}
