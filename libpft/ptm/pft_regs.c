/* PTM registers explained field by field (IHI 0035B chapter 3, PTM TRMs). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pft.h"
#include "ptm/pft_event.h"
#include "core/pft_etm_regs.h"
#include "common/pft_size.h"

/* What the ID registers tell about the PTM (unknown ones: the maximum). */
struct known {
	struct pft_regs_context ctx;
	struct pft_event_limits limits;
};

struct out {
	struct pft_regs_field *f;
	size_t max, n;
};

static uint32_t bits(uint32_t v, unsigned hi, unsigned lo)
{
	return pft_reg_field(v, hi, lo);
}

static void add(struct out *o, const char *name, unsigned hi, unsigned lo,
		uint32_t reg, enum pft_regs_flag flag, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

static void add(struct out *o, const char *name, unsigned hi, unsigned lo,
		uint32_t reg, enum pft_regs_flag flag, const char *fmt, ...)
{
	if (o->n < o->max) {
		struct pft_regs_field *f = &o->f[o->n];
		va_list ap;

		f->name = name;
		f->hi = (uint8_t)hi;
		f->lo = (uint8_t)lo;
		f->value = bits(reg, hi, lo);
		f->flag = (uint8_t)flag;
		va_start(ap, fmt);
		vsnprintf(f->meaning, sizeof(f->meaning), fmt, ap);
		va_end(ap);
	}
	o->n++;
}

/* Bits that must read as zero: a note only when some are set. */
static void add_reserved(struct out *o, unsigned hi, unsigned lo, uint32_t reg)
{
	uint32_t v = bits(reg, hi, lo);

	add(o, "reserved", hi, lo, reg, v ? PFT_REGS_FLAG_NOTE : PFT_REGS_FLAG_NONE,
	    v ? "reserved, should be 0" : "reserved");
}

/* A one-bit field: its meaning when 1 and when 0, and the flag of each. */
struct bit_def {
	const char *name;
	uint8_t bit;
	uint8_t flag1, flag0;   /* enum pft_regs_flag */
	const char *if1, *if0;
};

static void add_bits(struct out *o, const struct bit_def *d, size_t n, uint32_t v)
{
	for (size_t i = 0; i < n; i++, d++) {
		const unsigned b = pft_reg_bit(v, d->bit);

		add(o, d->name, d->bit, d->bit, v, b ? d->flag1 : d->flag0, "%s", b ? d->if1 : d->if0);
	}
}

static const char *on_off(uint32_t v)
{
	return v ? "on" : "off";
}

/* Can ETMCCER's feature bits be believed?  Bit 12 is reserved and reads 1
 * on every PTM; a dump where it reads 0 (the Snowball Cortex-A9's
 * 0x000008EA, which also says no timestamps and no return stack while
 * its trace has timestamps, against the A9 TRM) says nothing about
 * features. */
static int etmccer_trusted(uint32_t etmccer)
{
	return (etmccer >> 12) & 1;
}

/* Does a trustworthy ETMCCER say feature bit @bit is not implemented? */
static int etmccer_lacks(const struct known *k, unsigned bit)
{
	return k->ctx.have_etmccer && etmccer_trusted(k->ctx.etmccer) &&
	       !((k->ctx.etmccer >> bit) & 1);
}

/* PFT minor version from ETMIDR, or -1 when unknown. */
static int pft_minor(const struct known *k)
{
	if (!k->ctx.have_etmidr ||
	    bits(k->ctx.etmidr, PFT_ETMIDR_MAJOR) != PFT_ETMIDR_MAJOR_PFT)
		return -1;
	return (int)bits(k->ctx.etmidr, PFT_ETMIDR_MINOR);
}

/* "1, 3, 4" for the set bits of @mask (bit 0 = 1), or "none". */
static void list_bits(uint32_t mask, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < 32 && at < len; i++) {
		if (!((mask >> i) & 1))
			continue;
		int n = snprintf(buf + at, len - at, "%s%u", at ? ", " : "", i + 1);
		if (n < 0)
			break;
		at += (size_t)n;
	}
	if (!at)
		snprintf(buf, len, "none");
}

/* ---- Control and ID registers ---- */

/* A one-bit option: @what "on" or "off", or the @warning when there is
 * one. */
static void add_option(struct out *o, const char *name, unsigned bit, uint32_t v,
		       const char *what, const char *warning)
{
	if (warning)
		add(o, name, bit, bit, v, PFT_REGS_FLAG_WARN, "%s", warning);
	else
		add(o, name, bit, bit, v, 0, "%s %s", what, on_off(pft_reg_bit(v, bit)));
}

static void explain_etmcr(struct out *o, uint32_t v, unsigned n,
			  const struct known *k)
{
	static const char *const ctxid[4] = {
		"no context ID traced", "1 byte of context ID (CID[7:0])",
		"2 bytes of context ID (CID[15:0])", "4 bytes of context ID"
	};
	uint32_t bb = pft_reg_bit(v, PFT_ETMCR_BRANCH_BROADCAST), prog = bits(v, 10, 10);
	uint32_t ts = pft_reg_bit(v, PFT_ETMCR_TIMESTAMPS);
	uint32_t rs = pft_reg_bit(v, PFT_ETMCR_RETURN_STACK);
	uint32_t vmid = pft_reg_bit(v, PFT_ETMCR_VMID);
	int minor = pft_minor(k);

	(void)n;
	add(o, "power_down", 0, 0, v, bits(v, 0, 0) ? PFT_REGS_FLAG_NOTE : 0,
	    bits(v, 0, 0) ? "PTM powered down: no trace" : "powered up");
	add(o, "data_trace", 3, 1, v, bits(v, 3, 1) ? PFT_REGS_FLAG_NOTE : 0,
	    "ETM data-trace controls, not used by a PTM");
	add(o, "port_size", 6, 4, v, 0, "trace port size, with bit 21 (no effect on decoding)");
	add(o, "stall", 7, 7, v, 0, "stall processor when the FIFO is full: %s",
	    on_off(bits(v, 7, 7)));
	add(o, "branch_broadcast", PFT_REG_BIT(PFT_ETMCR_BRANCH_BROADCAST), v, 0,
	    bb ? "branch broadcast on: every taken branch has an address packet"
	       : "branch broadcast off: direct branches are traced as atoms");
	add(o, "debug_request", 9, 9, v, 0, "debug request on trigger: %s",
	    on_off(bits(v, 9, 9)));
	add(o, "programming", 10, 10, v, prog ? PFT_REGS_FLAG_NOTE : 0,
	    prog ? "Programming bit set: PTM stopped for programming, no trace "
		   "(usual in dumps taken after tracing)"
		 : "Programming bit clear: PTM may trace");
	add(o, "port_select", 11, 11, v, 0, "trace port selection (no effect on decoding)");
	add(o, "cycle_accurate", PFT_REG_BIT(PFT_ETMCR_CYCLE_ACCURATE), v, 0,
	    "cycle-accurate tracing %s", on_off(pft_reg_bit(v, PFT_ETMCR_CYCLE_ACCURATE)));
	add(o, "port_mode", 13, 13, v, 0, "trace port mode, with bits 17:16 (no effect on decoding)");
	add(o, "ctxid_size", PFT_ETMCR_CTXID_SIZE, v, 0, "%s",
	    ctxid[bits(v, PFT_ETMCR_CTXID_SIZE)]);
	add(o, "port_mode", 17, 16, v, 0, "trace port mode, with bit 13");
	add(o, "undescribed", 20, 18, v, bits(v, 20, 18) ? PFT_REGS_FLAG_NOTE : 0,
	    "not described for PTMs");
	add(o, "port_size", 21, 21, v, 0, "trace port size, with bits 6:4");
	add(o, "undescribed", 24, 22, v, bits(v, 24, 22) ? PFT_REGS_FLAG_NOTE : 0,
	    "not described for PTMs");
	add(o, "processor_select", 27, 25, v, 0, "processor select (shared PTM): %u",
	    bits(v, 27, 25));
	add_option(o, "timestamps", PFT_ETMCR_TIMESTAMPS, v, "timestamp packets",
		   ts && etmccer_lacks(k, PFT_ETMCCER_TS_IMPLEMENTED)
			   ? "timestamps enabled but not implemented (ETMCCER[22] = 0): RAZ/WI"
			   : NULL);
	add_option(o, "return_stack", PFT_ETMCR_RETURN_STACK, v, "return stack",
		   !rs	? NULL
		   : bb ? "return stack on together with branch broadcast: not allowed"
		   : etmccer_lacks(k, PFT_ETMCCER_RS_IMPLEMENTED)
			? "return stack enabled but not implemented (ETMCCER[23] = 0): RAZ/WI"
			: NULL);
	add_option(o, "vmid", PFT_ETMCR_VMID, v, "VMID packets",
		   !vmid	       ? NULL
		   : minor == 0 ? "VMID trace set on a PFTv1.0 PTM: reserved bit"
		   : etmccer_lacks(k, PFT_ETMCCER_VIRTUALIZATION)
			? "VMID trace enabled without Virtualization Extensions (ETMCCER[26] = 0): RAZ/WI"
			: NULL);
	add(o, "reserved", 31, 31, v, bits(v, 31, 31) ? PFT_REGS_FLAG_WARN : 0,
	    bits(v, 31, 31) ? "reserved bit set" : "reserved");
}

/* A field whose meaning is @text, with @excess (a format of one unsigned,
 * @limit) after it as a warning when @over. */
static void add_limited(struct out *o, const char *name, unsigned hi, unsigned lo, uint32_t v,
			const char *text, int over, const char *excess, unsigned limit)
{
	char more[64] = "";

	if (over)
		snprintf(more, sizeof(more), excess, limit);
	add(o, name, hi, lo, v, over ? PFT_REGS_FLAG_WARN : 0, "%s%s", text, more);
}

/* A resource count with its PTM maximum. */
static void add_count(struct out *o, const char *name, unsigned hi, unsigned lo,
		      uint32_t v, unsigned max, const char *what)
{
	char text[PFT_REGS_MEANING_MAX];

	snprintf(text, sizeof(text), "%u %s", bits(v, hi, lo), what);
	add_limited(o, name, hi, lo, v, text, bits(v, hi, lo) > max,
		    ": more than a PTM can have (%u)", max);
}

static void explain_etmccr(struct out *o, uint32_t v, unsigned n,
			   const struct known *k)
{
	uint32_t pairs = bits(v, 3, 0);

	(void)n;
	(void)k;
	if (pairs > 8)
		add(o, "addr_cmp_pairs", 3, 0, v, PFT_REGS_FLAG_WARN,
		    "%u address comparator pairs: more than a PTM can have (8)", pairs);
	else
		add(o, "addr_cmp_pairs", 3, 0, v, 0,
		    "%u address comparator pairs (%u range, %u single comparators)",
		    pairs, pairs, 2 * pairs);
	add_reserved(o, 12, 4, v);
	add_count(o, "counters", 15, 13, v, 4, "counters");
	add(o, "sequencer", 16, 16, v, 0, "sequencer %s",
	    bits(v, 16, 16) ? "present" : "absent");
	add_count(o, "ext_inputs", 19, 17, v, 4, "external inputs");
	add_count(o, "ext_outputs", 22, 20, v, 4, "external outputs");
	add(o, "fifofull", 23, 23, v, 0, "FIFOFULL (stall) logic %s",
	    bits(v, 23, 23) ? "present" : "absent");
	add(o, "ctxid_cmps", 25, 24, v, 0, "%u context ID comparators", bits(v, 25, 24));
	add(o, "startstop", 26, 26, v, 0, "trace start/stop block %s",
	    bits(v, 26, 26) ? "present" : "absent");
	add(o, "software_access", 27, 27, v, 0, "software access %s",
	    bits(v, 27, 27) ? "supported" : "not supported");
	add_reserved(o, 30, 28, v);
	add(o, "etmidr_present", 31, 31, v, bits(v, 31, 31) ? 0 : PFT_REGS_FLAG_NOTE,
	    bits(v, 31, 31) ? "ETMIDR present" : "ETMIDR absent (every PTM has one)");
}

/* A bit whose meaning exists from PFTv1.1 (RAZ on v1.0). */
static void add_v11(struct out *o, const char *name, unsigned bit, uint32_t v,
		    int minor, const char *if0, const char *if1)
{
	uint32_t b = bits(v, bit, bit);

	if (minor == 0 && b)
		add(o, name, bit, bit, v, PFT_REGS_FLAG_WARN,
		    "set on a PFTv1.0 PTM, where it is reserved (RAZ)");
	else
		add(o, name, bit, bit, v, 0, "%s", b ? if1 : if0);
}

static void explain_etmccer(struct out *o, uint32_t v, unsigned n,
			    const struct known *k)
{
	int minor = pft_minor(k);

	(void)n;
	add_count(o, "ext_in_sels", 2, 0, v, 4, "extended external input selectors");
	add(o, "ext_in_bus", 10, 3, v, 0, "extended external input bus of %u signals",
	    bits(v, 10, 3));
	add(o, "all_readable", 11, 11, v, 0, "%s", bits(v, 11, 11)
	    ? "all registers readable (event registers read back)"
	    : "not all registers readable (event registers write-only)");
	add(o, "reserved", 12, 12, v, bits(v, 12, 12) ? 0 : PFT_REGS_FLAG_NOTE,
	    bits(v, 12, 12) ? "reserved, reads 1"
			    : "reserved, should read 1 (do not trust this dump for features)");
	add_count(o, "instr_resources", 15, 13, v, 4, "instrumentation resources");
	add_count(o, "watchpoints", 19, 16, v, 8,
		  "EmbeddedICE watchpoint inputs (ETMv3.4 meaning)");
	add_reserved(o, 21, 20, v);
	const char *untrusted = etmccer_trusted(v) ? "" : " (so this dump says; bit 12 says not to trust it)";
	add(o, "ts_implemented", PFT_REG_BIT(PFT_ETMCCER_TS_IMPLEMENTED), v, 0, "timestamping %s%s",
	    pft_reg_bit(v, PFT_ETMCCER_TS_IMPLEMENTED) ? "implemented" : "not implemented",
	    pft_reg_bit(v, PFT_ETMCCER_TS_IMPLEMENTED) ? "" : untrusted);
	add(o, "rs_implemented", PFT_REG_BIT(PFT_ETMCCER_RS_IMPLEMENTED), v, 0, "return stack %s%s",
	    pft_reg_bit(v, PFT_ETMCCER_RS_IMPLEMENTED) ? "implemented" : "not implemented",
	    pft_reg_bit(v, PFT_ETMCCER_RS_IMPLEMENTED) ? "" : untrusted);
	add(o, "dmb_waypoints", PFT_REG_BIT(PFT_ETMCCER_DMB_WAYPOINTS), v, 0, "DMB/DSB %s waypoints",
	    pft_reg_bit(v, PFT_ETMCCER_DMB_WAYPOINTS) ? "are" : "are not");
	add(o, "dmb_timestamps", 25, 25, v, 0, "timestamps %s for DMB/DSB",
	    bits(v, 25, 25) ? "generated" : "not generated");
	add_v11(o, "virtualization", PFT_ETMCCER_VIRTUALIZATION, v, minor,
		"no Virtualization Extensions (no VMID, no Hyp)",
		"Virtualization Extensions implemented (VMID, Hyp)");
	add_v11(o, "reduced_counter", 27, v, minor, "all counters full-function",
		"counter 1 is a reduced-function counter");
	add_v11(o, "ts_encoding", PFT_ETMCCER_TS_BINARY, v, minor, "timestamps Gray-coded",
		"timestamps natural binary");
	add_v11(o, "ts_size", PFT_ETMCCER_TS_64BIT, v, minor, "timestamps up to 48 bits",
		"timestamps up to 64 bits");
	add(o, "reserved", 31, 30, v, bits(v, 31, 30) ? PFT_REGS_FLAG_WARN : 0,
	    bits(v, 31, 30) ? "reserved bits set" : "reserved");
}

static void explain_etmidr(struct out *o, uint32_t v, unsigned n,
			   const struct known *k)
{
	uint32_t major = bits(v, PFT_ETMIDR_MAJOR), minor = bits(v, PFT_ETMIDR_MINOR);
	uint32_t impl = bits(v, 31, 24);

	(void)n;
	(void)k;
	add(o, "revision", 3, 0, v, 0, "implementation revision %u", bits(v, 3, 0));
	if (major == PFT_ETMIDR_MAJOR_PFT && minor <= 1)
		add(o, "minor", PFT_ETMIDR_MINOR, v, 0, "PFTv1.%u", minor);
	else if (major == PFT_ETMIDR_MAJOR_PFT)
		add(o, "minor", PFT_ETMIDR_MINOR, v, PFT_REGS_FLAG_WARN, "PFTv1.%u: unknown version", minor);
	else
		add(o, "minor", PFT_ETMIDR_MINOR, v, 0, "minor version %u", minor);
	if (major == PFT_ETMIDR_MAJOR_PFT)
		add(o, "major", PFT_ETMIDR_MAJOR, v, 0, "PFT (Program Flow Trace) architecture v1");
	else if (major == 2)
		add(o, "major", PFT_ETMIDR_MAJOR, v, PFT_REGS_FLAG_WARN,
		    "ETMv3.%u, not a PTM", minor);
	else
		add(o, "major", PFT_ETMIDR_MAJOR, v, PFT_REGS_FLAG_WARN,
		    "architecture %u, not a PTM", major);
	add(o, "reads_f", 15, 12, v, bits(v, 15, 12) == 0xf ? 0 : PFT_REGS_FLAG_WARN,
	    bits(v, 15, 12) == 0xf ? "reads 0xF" : "should read 0xF");
	add_reserved(o, 17, 16, v);
	add(o, "thumb32", 18, 18, v, 0, "%s", bits(v, 18, 18)
	    ? "a 32-bit Thumb instruction is traced as one instruction"
	    : "a 32-bit Thumb instruction is traced as two halves");
	add(o, "security", 19, 19, v, 0, "%s", bits(v, 19, 19)
	    ? "Security Extensions implemented"
	    : "no Security Extensions (trace as if always Secure)");
	add(o, "reads_1", 20, 20, v, bits(v, 20, 20) ? 0 : PFT_REGS_FLAG_NOTE,
	    bits(v, 20, 20) ? "reserved, reads 1" : "reserved, should read 1");
	add_reserved(o, 23, 21, v);
	if (impl >= 0x20 && impl < 0x7f)
		add(o, "implementer", 31, 24, v, 0, "implementer 0x%02x ('%c')%s",
		    impl, (char)impl, impl == 0x41 ? ", ARM" : "");
	else
		add(o, "implementer", 31, 24, v, 0, "implementer 0x%02x", impl);
}

static void explain_etmtraceidr(struct out *o, uint32_t v, unsigned n,
				const struct known *k)
{
	uint32_t id = bits(v, PFT_ETMTRACEIDR_ID);

	(void)n;
	(void)k;
	if (id == 0)
		add(o, "trace_id", PFT_ETMTRACEIDR_ID, v, PFT_REGS_FLAG_WARN,
		    "trace ID 0x00: reserved (null source, padding)");
	else if (id > PFT_ID_MAX_VALID)
		add(o, "trace_id", PFT_ETMTRACEIDR_ID, v, PFT_REGS_FLAG_WARN,
		    "trace ID 0x%02x: reserved (valid IDs are 0x01-0x6f)", id);
	else
		add(o, "trace_id", PFT_ETMTRACEIDR_ID, v, 0, "trace ID 0x%02x", id);
	add_reserved(o, 31, 7, v);
}

static void explain_etmsyncfr(struct out *o, uint32_t v, unsigned n,
			      const struct known *k)
{
	uint32_t period = bits(v, 11, 0);

	(void)n;
	(void)k;
	if (period)
		add(o, "period", 11, 0, v, 0,
		    "synchronisation requested every %u bytes of trace", period);
	else
		add(o, "period", 11, 0, v, PFT_REGS_FLAG_NOTE,
		    "0: no periodic synchronisation from this counter");
	add_reserved(o, 31, 12, v);
}

/* ETMAUXCR, Cortex-A15 TRM: setting bits [3:0] may make the PTM deviate
 * from the architecture. */
static const struct bit_def etmauxcr_bits[] = {
	{ "no_forced_overflow", 0, PFT_REGS_FLAG_NOTE, 0,
	  "Cortex-A15: forced overflow off (syncs may be late)", "Cortex-A15: forced overflow on" },
	{ "no_barrier_ts", 1, PFT_REGS_FLAG_NOTE, 0, "Cortex-A15: no timestamps on barriers",
	  "Cortex-A15: timestamps on barriers" },
	{ "no_exception_ts", 2, PFT_REGS_FLAG_NOTE, 0,
	  "Cortex-A15: no timestamps on exception entry/return",
	  "Cortex-A15: timestamps on exception entry/return" },
	{ "impdef", 3, PFT_REGS_FLAG_NOTE, 0,
	  "Cortex-A15: implementation defined (may deviate from the architecture when set)",
	  "Cortex-A15: implementation defined (may deviate from the architecture when set)" },
};

static const struct bit_def etmsr_bits[] = {
	{ "overflow", 0, 0, 0, "an overflow has not been traced yet", "no untraced overflow" },
	{ "prog_bit", 1, 0, 0, "effective Programming bit 1: trace stopped, FIFO empty",
	  "effective Programming bit 0: PTM may be tracing" },
	{ "startstop", 2, 0, 0, "start/stop resource on (start matched, no stop since)",
	  "start/stop resource off" },
	{ "triggered", 3, 0, 0, "the trigger has occurred", "no trigger yet" },
};

/* Comparators selected in @mask beyond those implemented: a warning. */
static void add_selection(struct out *o, const char *name, unsigned hi,
			  unsigned lo, uint32_t v, unsigned implemented,
			  const char *what)
{
	uint32_t mask = bits(v, hi, lo);
	char list[96], text[PFT_REGS_MEANING_MAX];

	list_bits(mask, list, sizeof(list));
	snprintf(text, sizeof(text), "%s: %s", what, list);
	add_limited(o, name, hi, lo, v, text, implemented < 32 && (mask >> implemented),
		    "; only %u implemented", implemented);
}

static void explain_etmtecr1(struct out *o, uint32_t v, unsigned n,
			     const struct known *k)
{
	uint32_t arcs = bits(v, 7, 0), exclude = bits(v, 24, 24);
	uint32_t ss = bits(v, 25, 25);

	(void)n;
	add_selection(o, "arcs", 7, 0, v, k->limits.arcs,
		      "address range comparators selected");
	add(o, "reserved", 23, 8, v, bits(v, 23, 8) ? PFT_REGS_FLAG_NOTE : 0,
	    "reserved on PTMs (ETM memory map decoders)");
	add(o, "exclude", 24, 24, v, 0, "%s", exclude
	    ? "exclude mode: no trace inside the selected ranges"
	    : "include mode: trace inside the selected ranges");
	if (ss && !k->limits.startstop)
		add(o, "startstop", 25, 25, v, PFT_REGS_FLAG_WARN,
		    "start/stop control on, but no start/stop block (ETMCCR[26] = 0)");
	else
		add(o, "startstop", 25, 25, v, 0, "trace start/stop control %s",
		    on_off(ss));
	add_reserved(o, 31, 26, v);
	if (!arcs && exclude)
		add(o, "register", 31, 0, v, 0,
		    "nothing excluded: address filtering lets everything through");
	else if (!arcs && !ss)
		add(o, "register", 31, 0, v, PFT_REGS_FLAG_NOTE,
		    "include mode with no range and no start/stop: nothing is inside an include region");
}

static void explain_etmtsscr(struct out *o, uint32_t v, unsigned n,
			     const struct known *k)
{
	(void)n;
	add_selection(o, "start", 15, 0, v, k->limits.addr_cmps,
		      "single address comparators that start trace");
	add_selection(o, "stop", 31, 16, v, k->limits.addr_cmps,
		      "single address comparators that stop trace");
}

static void explain_etmextinselr(struct out *o, uint32_t v, unsigned n,
				 const struct known *k)
{
	static const char *const names[4] = { "selector1", "selector2",
					      "selector3", "selector4" };
	uint32_t bus = k->ctx.have_etmccer ? bits(k->ctx.etmccer, 10, 3) : 256;

	(void)n;
	for (unsigned i = 0; i < 4; i++) {
		unsigned lo = 8 * i;
		uint32_t sel = bits(v, lo + 7, lo);

		if (i >= k->limits.ext_in_sels)
			add(o, names[i], lo + 7, lo, v, sel ? PFT_REGS_FLAG_WARN : 0,
			    "extended external input selector %u not implemented (RAZ/WI)",
			    i + 1);
		else if (sel >= bus)
			add(o, names[i], lo + 7, lo, v, PFT_REGS_FLAG_WARN,
			    "selects extended external input %u, but the bus has %u",
			    sel, bus);
		else
			add(o, names[i], lo + 7, lo, v, 0,
			    "ext_in_sel%u = extended external input %u", i + 1, sel);
	}
}

/* ---- Event registers ---- */

static void explain_event(struct out *o, uint32_t v, const struct known *k,
			  int bit17_rao)
{
	static const char *const functions[8] = {
		"A", "NOT(A)", "A AND B", "NOT(A) AND B", "NOT(A) AND NOT(B)",
		"A OR B", "NOT(A) OR B", "NOT(A) OR NOT(B)"
	};
	static const char *const type_bits[8] = { "000", "001", "010", "011",
						  "100", "101", "110", "111" };
	uint32_t ev_bits = v & 0x1ffff;
	struct pft_event ev;
	struct pft_event_diag d;
	char expr[PFT_EVENT_EXPR_MAX], name[PFT_EVENT_EXPR_MAX];
	int r = pft_event_format(ev_bits, &k->limits, expr, sizeof(expr), &d);

	pft_event_unpack(ev_bits, &ev);
	if (r >= 0 && d.problem == PFT_ERR_EVENT_B_IGNORED)
		add(o, "event", 16, 0, v, PFT_REGS_FLAG_NOTE,
		    "%s (resource B 0x%02x is ignored by this function)", expr, ev.b);
	else if (r >= 0)
		add(o, "event", 16, 0, v, 0, "%s", expr);
	else
		add(o, "event", 16, 0, v, PFT_REGS_FLAG_WARN,
		    "UNPREDICTABLE: resource %c 0x%02x: %s", d.operand, d.resource,
		    pft_errstr(d.problem));

	if (pft_event_resource_name(ev.a, name, sizeof(name)) < 0)
		snprintf(name, sizeof(name), "reserved");
	add(o, "resource_a", 6, 0, v, 0, "A = %s (type b%s, index %u)", name,
	    type_bits[ev.a >> 4], ev.a & 0xf);
	if (ev.function <= PFT_EVENT_NOT_A)
		snprintf(name, sizeof(name), "%s", ev.b ? "ignored" : "not used");
	else if (pft_event_resource_name(ev.b, name, sizeof(name)) < 0)
		snprintf(name, sizeof(name), "reserved");
	add(o, "resource_b", 13, 7, v, 0, "B = %s (type b%s, index %u)", name,
	    type_bits[ev.b >> 4], ev.b & 0xf);
	add(o, "function", 16, 14, v, 0, "%s", functions[ev.function]);
	if (bit17_rao) {
		add(o, "reserved", 17, 17, v, bits(v, 17, 17) ? 0 : PFT_REGS_FLAG_NOTE,
		    bits(v, 17, 17) ? "reserved, reads as one"
				    : "reserved, should read as one");
		add_reserved(o, 31, 18, v);
	} else {
		add(o, "not_event", 31, 17, v, bits(v, 31, 17) ? PFT_REGS_FLAG_NOTE : 0,
		    "not part of the event");
	}
}

static void explain_plain_event(struct out *o, uint32_t v, unsigned n,
				const struct known *k)
{
	(void)n;
	explain_event(o, v, k, 0);
}

/* ETMCNTENRn: bit 17 is RAO/WI (IHI 0035B). */
static void explain_cntenr(struct out *o, uint32_t v, unsigned n,
			   const struct known *k)
{
	(void)n;
	explain_event(o, v, k, 1);
}

/* ---- Value registers ---- */

static void explain_etmsqr(struct out *o, uint32_t v, unsigned n,
			   const struct known *k)
{
	uint32_t s = bits(v, 1, 0);

	(void)n;
	(void)k;
	if (s == 3)
		add(o, "state", 1, 0, v, PFT_REGS_FLAG_WARN, "reserved state encoding");
	else
		add(o, "state", 1, 0, v, 0, "sequencer in state %u", s + 1);
	add_reserved(o, 31, 2, v);
}

/* ---- The register table ---- */

/* Which count says whether a register instance exists. */
enum presence {
	P_ALWAYS, P_ADDR_CMP, P_COUNTER, P_SEQUENCER, P_EXT_OUT, P_CTXID,
	P_CTXID_ANY, P_VMID, P_TIMESTAMPS, P_EXT_IN_SEL, P_STARTSTOP
};

struct reg_def {
	const char *name;     /* numbered registers: the part before N */
	uint16_t number;      /* register number of instance 1 */
	uint8_t instances;    /* 0: not numbered */
	uint8_t presence;     /* enum presence */
	const char *title;    /* %u: the instance */
	/* Registers with fields: their explanation ... */
	void (*explain)(struct out *o, uint32_t v, unsigned n, const struct known *k);
	/* ... else one value, bits @value_hi..0 as @value_fmt shows it (a
	 * printf format of one unsigned), the bits above reserved; or
	 * @value_hi one-bit fields @bit_defs, the bits above reserved. */
	const char *value_name;
	uint8_t value_hi;
	const char *value_fmt;
	const struct bit_def *bit_defs;
};

/* A register of fields, and one of a single value. */
#define FIELDS(explain) explain, NULL, 0, NULL, NULL
#define VALUE(name, hi, fmt) NULL, name, hi, fmt, NULL
#define BITS(defs) NULL, NULL, sizeof(defs) / sizeof(defs[0]), NULL, defs
/* The sequencer's transition from state @a to @b. */
#define SEQ_EVR(a, b, number)                                                    \
	{ "ETMSQ" #a #b "EVR", number, 0, P_SEQUENCER,                           \
	  "sequencer state " #a " to " #b " event", FIELDS(explain_plain_event) }

static void explain_value(struct out *o, const struct reg_def *r, uint32_t v)
{
	if (r->bit_defs) {
		add_bits(o, r->bit_defs, r->value_hi, v);
		add_reserved(o, 31, r->value_hi, v);
		return;
	}
	add(o, r->value_name, r->value_hi, 0, v, 0, r->value_fmt, bits(v, r->value_hi, 0));
	if (r->value_hi < 31)
		add_reserved(o, 31, r->value_hi + 1u, v);
}

static const struct reg_def regs[] = {
	{ "ETMCR", 0x000, 0, P_ALWAYS, "main control", FIELDS(explain_etmcr) },
	{ "ETMCCR", 0x001, 0, P_ALWAYS, "configuration code", FIELDS(explain_etmccr) },
	{ "ETMTRIGGER", 0x002, 0, P_ALWAYS, "trigger event", FIELDS(explain_plain_event) },
	{ "ETMSR", 0x004, 0, P_ALWAYS, "status", BITS(etmsr_bits) },
	{ "ETMTSSCR", 0x006, 0, P_STARTSTOP, "TraceEnable start/stop control",
	  FIELDS(explain_etmtsscr) },
	{ "ETMTEEVR", 0x008, 0, P_ALWAYS, "TraceEnable event", FIELDS(explain_plain_event) },
	{ "ETMTECR1", 0x009, 0, P_ALWAYS, "TraceEnable control 1", FIELDS(explain_etmtecr1) },
	{ "ETMACVR", 0x010, 16, P_ADDR_CMP, "address comparator %u value",
	  VALUE("address", 31, "address 0x%08x") },
	{ "ETMCNTRLDVR", 0x050, 4, P_COUNTER, "counter %u reload value",
	  VALUE("count", 15, "%u") },
	{ "ETMCNTENR", 0x054, 4, P_COUNTER, "counter %u enable event", FIELDS(explain_cntenr) },
	{ "ETMCNTRLDEVR", 0x058, 4, P_COUNTER, "counter %u reload event",
	  FIELDS(explain_plain_event) },
	{ "ETMCNTVR", 0x05c, 4, P_COUNTER, "counter %u value", VALUE("count", 15, "%u") },
	SEQ_EVR(1, 2, 0x060), SEQ_EVR(2, 1, 0x061), SEQ_EVR(2, 3, 0x062),
	SEQ_EVR(3, 1, 0x063), SEQ_EVR(3, 2, 0x064), SEQ_EVR(1, 3, 0x065),
	{ "ETMSQR", 0x067, 0, P_SEQUENCER, "current sequencer state",
	  FIELDS(explain_etmsqr) },
	{ "ETMEXTOUTEVR", 0x068, 4, P_EXT_OUT, "external output %u event",
	  FIELDS(explain_plain_event) },
	{ "ETMCIDCVR", 0x06c, 3, P_CTXID, "context ID comparator %u value",
	  VALUE("ctxid", 31, "context ID 0x%08x") },
	{ "ETMCIDCMR", 0x06f, 0, P_CTXID_ANY, "context ID comparator mask",
	  VALUE("mask", 31, "mask 0x%08x for the context ID comparisons") },
	{ "ETMSYNCFR", 0x078, 0, P_ALWAYS, "synchronisation frequency",
	  FIELDS(explain_etmsyncfr) },
	{ "ETMIDR", 0x079, 0, P_ALWAYS, "ID", FIELDS(explain_etmidr) },
	{ "ETMCCER", 0x07a, 0, P_ALWAYS, "configuration code extension",
	  FIELDS(explain_etmccer) },
	{ "ETMEXTINSELR", 0x07b, 0, P_EXT_IN_SEL,
	  "extended external input selection", FIELDS(explain_etmextinselr) },
	{ "ETMTSEVR", 0x07e, 0, P_TIMESTAMPS, "timestamp event",
	  FIELDS(explain_plain_event) },
	{ "ETMAUXCR", 0x07f, 0, P_ALWAYS, "auxiliary control (Cortex-A15)",
	  BITS(etmauxcr_bits) },
	{ "ETMTRACEIDR", 0x080, 0, P_ALWAYS, "CoreSight trace ID",
	  FIELDS(explain_etmtraceidr) },
	{ "ETMVMIDCVR", 0x090, 0, P_VMID, "VMID comparator value",
	  VALUE("vmid", 7, "VMID 0x%02x") },
};

#define NREGS (sizeof(regs) / sizeof(regs[0]))

static char upper(char c)
{
	return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

/* Does @s start with @prefix (ignoring case)?  Returns its length or 0. */
static size_t starts_with(const char *s, const char *prefix)
{
	size_t i;

	for (i = 0; prefix[i]; i++)
		if (upper(s[i]) != prefix[i])
			return 0;
	return i;
}

/* The register @name denotes, and its instance (1 for unnumbered ones). */
static const struct reg_def *find(const char *name, unsigned *instance)
{
	for (size_t i = 0; i < NREGS; i++) {
		const struct reg_def *r = &regs[i];
		size_t at = starts_with(name, r->name);

		if (!at)
			continue;
		if (!r->instances) {
			if (name[at] == '\0') {
				*instance = 1;
				return r;
			}
			continue;
		}
		unsigned n = 0, digits = 0;
		while (name[at] >= '0' && name[at] <= '9' && digits < 3) {
			n = n * 10 + (unsigned)(name[at++] - '0');
			digits++;
		}
		if (digits && name[at] == '\0' && n >= 1 && n <= r->instances) {
			*instance = n;
			return r;
		}
	}
	return NULL;
}

static void format_title(const struct reg_def *r, unsigned instance, char *buf,
			 size_t len)
{
	if (r->instances)
		snprintf(buf, len, r->title, instance);
	else
		snprintf(buf, len, "%s", r->title);
}

int pft_regs_lookup(const char *name, struct pft_regs_info *info)
{
	unsigned instance;
	const struct reg_def *r;

	if (!name)
		return -PFT_ERR_INVALID;
	r = find(name, &instance);
	if (!r)
		return -PFT_ERR_NOT_SUPPORTED;
	if (info) {
		if (r->instances)
			snprintf(info->name, sizeof(info->name), "%s%u", r->name,
				 instance);
		else
			snprintf(info->name, sizeof(info->name), "%s", r->name);
		info->number = r->number + instance - 1;
		format_title(r, instance, info->title, sizeof(info->title));
	}
	return 0;
}

static void load_context(const struct pft_regs_context *ctx, struct known *k)
{
	memset(k, 0, sizeof(*k));
	if (ctx)
		pft_copy_known(&k->ctx, ctx, ctx->size, sizeof(k->ctx));
	pft_event_limits_max(&k->limits);
	pft_event_limits_apply(&k->limits,
			       k->ctx.have_etmccr ? &k->ctx.etmccr : NULL,
			       k->ctx.have_etmccer ? &k->ctx.etmccer : NULL,
			       k->ctx.have_etmidr ? &k->ctx.etmidr : NULL);
}

/* How many instances of a register exist, or -1 when unknown. */
static int instances_present(enum presence p, const struct known *k)
{
	const struct pft_regs_context *c = &k->ctx;

	switch (p) {
	case P_ALWAYS: return -1;
	case P_ADDR_CMP: return c->have_etmccr ? k->limits.addr_cmps : -1;
	case P_COUNTER: return c->have_etmccr ? k->limits.counters : -1;
	case P_SEQUENCER: return c->have_etmccr ? (k->limits.seq_states ? 1 : 0) : -1;
	case P_EXT_OUT: return c->have_etmccr ? (int)bits(c->etmccr, 22, 20) : -1;
	case P_CTXID: return c->have_etmccr ? k->limits.ctxid_cmps : -1;
	case P_CTXID_ANY: return c->have_etmccr ? (k->limits.ctxid_cmps ? 1 : 0) : -1;
	case P_VMID: return c->have_etmccer ? k->limits.vmid_cmp : -1;
	case P_TIMESTAMPS:
		return c->have_etmccer && etmccer_trusted(c->etmccer)
			       ? (int)pft_reg_bit(c->etmccer, PFT_ETMCCER_TS_IMPLEMENTED) : -1;
	case P_EXT_IN_SEL: return c->have_etmccer ? (k->limits.ext_in_sels ? 1 : 0) : -1;
	case P_STARTSTOP: return c->have_etmccr ? k->limits.startstop : -1;
	}
	return -1;
}

int pft_regs_explain(const char *name, uint32_t value,
		     const struct pft_regs_context *ctx,
		     struct pft_regs_field *fields, size_t nfields)
{
	struct out o = { fields, nfields, 0 };
	struct known k;
	unsigned instance;
	const struct reg_def *r;

	if (!name || (!fields && nfields) ||
	    (ctx && ctx->size < PFT_FIRST_SIZE(struct pft_regs_context)))
		return -PFT_ERR_INVALID;
	r = find(name, &instance);
	if (!r)
		return -PFT_ERR_NOT_SUPPORTED;
	load_context(ctx, &k);

	int present = instances_present((enum presence)r->presence, &k);
	if (present >= 0 && instance > (unsigned)present) {
		/* An absent register reads as zero: its fields mean nothing. */
		char title[48];

		format_title(r, instance, title, sizeof(title));
		if (value)
			add(&o, "register", 31, 0, value, PFT_REGS_FLAG_WARN,
			    "%s: not implemented by this PTM, yet not 0 (should be RAZ)",
			    title);
		else
			add(&o, "register", 31, 0, value, PFT_REGS_FLAG_NOTE,
			    "%s: not implemented by this PTM (RAZ/WI)", title);
	} else if (r->explain) {
		r->explain(&o, value, instance, &k);
	} else {
		explain_value(&o, r, value);
	}
	return (int)o.n; /* at most a few dozen */
}
