/* Executed-instruction logs: qemu's exec traces and address lists
 * (pft/insnlog.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "pft.h"
#include "common/pft_diag.h"
#include "common/pft_size.h"

/* qemu 7.2 (accel/tcg/cpu-exec.c) logs every translation block it runs as
 *   Trace CPU: HOSTPTR [FLAGS2/PC/FLAGS/CFLAGS] SYMBOL
 * (with -singlestep a block is one instruction).  For Arm, FLAGS2 (the
 * cs_base field) holds the AArch32 state; bit 23 is Thumb.  A block that
 * was logged but did not run is followed by one of
 *   Stopped execution of TB chain before HOSTPTR [PC] SYMBOL
 *   cpu_io_recompile: rewound execution of TB to PC
 * and -d int adds (target/arm/helper.c)
 *   Taking exception N [NAME] on CPU C
 *   ...from EL1 to EL1, ...with ESR ..., ...with IFSR X IFAR Y
 *   Exception return from AArch32 MODE to MODE PC ADDR
 *   AArch32 mode switch from MODE to MODE PC ADDR
 * or for an M-profile core (target/arm/m_helper.c), where NAME is only the
 * kind ("IRQ" for every interrupt, NMI, PendSV and SysTick included) and
 * a line after it gives the IPSR number:
 *   Loaded reset SP ADDR PC ADDR from vector table
 *   Taking exception N [NAME] on CPU C
 *   ...at fault address ADDR, ...with CFSR.IACCVIOL, ...
 *   ...taking pending nonsecure exception N
 *   ...loading from element N of non-secure vector table at ADDR
 *   ...loaded new PC ADDR
 *   Taking exception 8 [QEMU v7M exception exit] on CPU C
 *   Exception return: magic PC ADDR previous exception N
 *   ...successful exception return   (or: ...tailchaining to pending
 *                                     exception, ...taking pending ...)
 * and with -d cpu "XPSR=..." instead of "PSR=...". */
static const char QEMU_TRACE[] = "Trace ";
static const char QEMU_PSR[] = "PSR=";
static const char QEMU_XPSR[] = "XPSR=";
static const char QEMU_STOPPED[] = "Stopped execution of TB chain before ";
static const char QEMU_REWOUND[] = "cpu_io_recompile: rewound execution of TB to ";
static const char QEMU_TAKING[] = "Taking exception ";
static const char QEMU_IFAR[] = "...with IFSR ";
static const char QEMU_RETURN[] = "Exception return from ";
static const char QEMU_SWITCH[] = "AArch32 mode switch from ";
static const char QEMU_M_RESET[] = "Loaded reset SP ";
static const char QEMU_M_RETURN[] = "Exception return: magic PC ";
static const char QEMU_M_PENDING[] = "...taking pending ";
static const char QEMU_M_FAULT_ADDR[] = "...at fault address ";
static const char QEMU_M_NEW_PC[] = "...loaded new PC ";
enum { QEMU_THUMB_BIT = 23, LINK_OFFSET_ABORT = 4, LINK_OFFSET_IRQ = 4 };

/* The "..." lines of an M-profile log besides the above, each known:
 * where the handler was read from, how a return or a fault went.  A
 * fault while stacking or unstacking, or a return qemu refused, is
 * followed by the exception it became ("...taking pending"), the one
 * traced. */
static const char *const QEMU_M_NOTES[] = {
	"...loading from element ", "...successful exception return",
	"...tailchaining to pending exception", "...with CFSR.", "...with SFSR.",
	"...derived exception on vector table load", "...really ", "...BusFault with BFSR.",
	"...MemManageFault with CFSR.", "...SecureFault with SFSR.",
	"...handling as semihosting call ",
};

enum log_format { LOG_UNKNOWN = 0, LOG_QEMU, LOG_PLAIN };

/* How an exception relates to the instruction qemu logged before it. */
enum exc_kind {
	EXC_ASYNC,   /* an interrupt: that instruction completed */
	EXC_RAISED,  /* raised by it (SVC, ...): it counts as executed */
	EXC_CUT,     /* it did not run (a data abort, a breakpoint) */
	EXC_FETCH,   /* the next one could not be fetched: IFAR names it */
	EXC_NONE,    /* not an exception of the traced program */
	EXC_EXIT,    /* M profile: it returned from an exception */
	EXC_BAD      /* not one the models trace (in this profile) */
};

/* qemu's exceptions by NAME: what they are on an A/R core, and on an M
 * core (where the number comes from the "...taking pending" line). */
static const struct qemu_exception {
	const char *name;
	uint8_t kind;
	uint16_t number;
	uint8_t m_kind;
} QEMU_EXCEPTIONS[] = {
	/* M: a UDF, a faulting load, a BKPT are the return address. */
	{ "Undefined Instruction", EXC_RAISED, PFT_EXC_UNDEFINED, EXC_CUT },
	{ "SVC", EXC_RAISED, PFT_EXC_SVC, EXC_RAISED },
	{ "Prefetch Abort", EXC_FETCH, PFT_EXC_PREFETCH_ABORT, EXC_FETCH },
	{ "Data Abort", EXC_CUT, PFT_EXC_DATA_ABORT, EXC_CUT },
	{ "IRQ", EXC_ASYNC, PFT_EXC_IRQ, EXC_ASYNC },
	{ "FIQ", EXC_ASYNC, PFT_EXC_FIQ, EXC_BAD },
	{ "Breakpoint", EXC_CUT, PFT_EXC_PREFETCH_ABORT, EXC_CUT },
	{ "Hypervisor Call", EXC_RAISED, PFT_EXC_HYP, EXC_BAD },
	{ "Hypervisor Trap", EXC_CUT, PFT_EXC_HYP, EXC_BAD },
	{ "Secure Monitor Call", EXC_RAISED, PFT_EXC_SMC, EXC_BAD },
	{ "Virtual IRQ", EXC_ASYNC, PFT_EXC_IRQ, EXC_BAD },
	{ "Virtual FIQ", EXC_ASYNC, PFT_EXC_FIQ, EXC_BAD },
	{ "Semihosting call", EXC_NONE, 0, EXC_NONE },
	{ "QEMU v7M exception exit", EXC_BAD, 0, EXC_EXIT },   /* QEMU_M_EXIT */
	{ "v7M NOCP UsageFault", EXC_BAD, 0, EXC_CUT },
	{ "v7M INVSTATE UsageFault", EXC_BAD, 0, EXC_CUT },
	{ "v7M UNALIGNED UsageFault", EXC_BAD, 0, EXC_CUT },
	{ "v7M DIVBYZERO UsageFault", EXC_BAD, 0, EXC_CUT },
};

/* A "Taking exception" line and what the lines after it say, until the
 * next line of another kind (the handler's first instruction) settles
 * it. */
struct taking {
	const struct qemu_exception *q;   /* NULL: none */
	uint64_t line;
	/* Where the next block was to start when the exception came (a
	 * block stopped before it, an exception return just before). */
	int had_next_pc;
	uint32_t next_pc;
	uint8_t next_isa;
	int has_ipsr;           /* "...taking pending ... exception N": M */
	uint16_t ipsr;
	int has_fault_addr;     /* M: "...at fault address ADDR" */
	uint32_t fault_addr;
	int has_ifar;           /* A: "...with IFSR X IFAR Y" */
	uint32_t ifar;
	int has_handler;        /* M: "...loaded new PC ADDR" */
	uint32_t handler;
};

/* An instruction read, with where it came from. */
struct entry {
	struct pft_model_insn in;
	uint64_t line;
	uint8_t exc_kind;        /* of in.exception */
	uint8_t regs_seen;       /* -d cpu: 1 R0-R3 read, 2 R4-R7 */
};

/* An exception taken, waiting for the first instruction of its handler. */
struct pending {
	uint16_t number;         /* 0: none */
	uint8_t kind;
	uint8_t has_ret, ret_isa;
	uint32_t ret;
	uint64_t line;
	uint8_t has_handler;     /* M: where its handler starts */
	uint32_t handler;
};

struct pft_insn_log {
	char *path;
	FILE *f;
	char *buf;
	size_t cap;
	uint64_t lineno;
	enum log_format format;
	/* qemu: the last Trace line waits until the next lines, which may say
	 * that its instruction did not run after all. */
	int have_held;
	struct entry held;
	/* qemu: where the next block starts, when a line since the last
	 * Trace said (a block stopped or rewound, an exception return). */
	int have_next_pc;
	uint32_t next_pc;
	uint8_t next_isa;
	/* ... and it was an exception return's, which the next block must
	 * start at (unless an exception comes first): a cross-check. */
	uint8_t next_from_return;
	uint64_t return_line;
	struct taking taking;
	struct pending exc;
	/* M: the held instruction returned from an exception; the next one
	 * is where to (or the first of a tail-chained handler). */
	int exc_return;
	/* M: an exception entered whose handler another one preempted before
	 * its first instruction ran: its entry (exc_only) goes out between the
	 * instruction before and that other handler's first instruction,
	 * which waits in @after meanwhile. */
	int have_preempted, have_after;
	struct entry preempted, after;
	/* The profile the log shows: -1 not yet, else enum pft_profile. */
	int profile;
	uint64_t profile_line;   /* where it showed first */
	/* plain: state lines waiting for the next address */
	struct pft_model_insn state;
	uint64_t out_line, exceptions;
	struct pft_diag diag;
};

struct pft_insn_log *pft_insn_log_open(const char *path, struct pft_diag *d)
{
	struct pft_insn_log *l;

	if (!path) {
		pft_diag_set(d, -PFT_ERR_INVALID, "no log named");
		return NULL;
	}
	if (!(l = calloc(1, sizeof(*l))) || !(l->path = strdup(path))) {
		free(l);
		pft_diag_file(d, -PFT_ERR_NOMEM, path, "out of memory");
		return NULL;
	}
	l->profile = -1;
	l->f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!l->f) {
		pft_diag_file(d, -PFT_ERR_BAD_FILE, path, "%s", strerror(errno));
		free(l->path);
		free(l);
		return NULL;
	}
	pft_diag_clear(d);
	return l;
}

void pft_insn_log_close(struct pft_insn_log *l)
{
	if (!l)
		return;
	if (l->f && l->f != stdin)
		fclose(l->f);
	free(l->buf);
	free(l->path);
	free(l);
}

uint64_t pft_insn_log_line(const struct pft_insn_log *l)
{
	return l ? l->out_line : 0;
}

uint64_t pft_insn_log_exceptions(const struct pft_insn_log *l)
{
	return l ? l->exceptions : 0;
}

int pft_insn_log_profile(const struct pft_insn_log *l)
{
	return l ? l->profile : -1;
}

int pft_insn_log_diag(const struct pft_insn_log *l, struct pft_diag *d)
{
	if (!l || !d)
		return -PFT_ERR_INVALID;
	*d = l->diag;
	return 0;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Parse hex digits (with an optional 0x) at *@s into @v (at most 32 bits);
 * *@s moves past them.  Returns 0, or -1 when there are none or too many. */
static int parse_hex32(const char **s, uint32_t *v)
{
	const char *p = *s;
	uint64_t x = 0;
	int n = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && hexval(p[2]) >= 0)
		p += 2;
	for (; hexval(*p) >= 0; p++, n++) {
		x = x << 4 | (uint64_t)hexval(*p);
		if (x > UINT32_MAX)
			return -1;
	}
	if (!n)
		return -1;
	*v = (uint32_t)x;
	*s = p;
	return 0;
}

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static int line_error(struct pft_insn_log *l, int err, uint64_t line, const char *what)
{
	return pft_diag_line(&l->diag, err, l->path, (unsigned)line, "%s", what);
}

static int bad_line(struct pft_insn_log *l, const char *what)
{
	return line_error(l, -PFT_ERR_BAD_FILE, l->lineno, what);
}

/* The current line shows @profile (PFT_PROFILE_A for A or R, or M): the
 * log's, unless an earlier line showed the other. */
static int seen_profile(struct pft_insn_log *l, int profile)
{
	char what[128];

	if (l->profile < 0) {
		l->profile = profile;
		l->profile_line = l->lineno;
		return 0;
	}
	if (l->profile == profile)
		return 0;
	snprintf(what, sizeof(what), "an %s-profile line, but line %llu was %s-profile",
		 profile == PFT_PROFILE_M ? "M" : "A", (unsigned long long)l->profile_line,
		 l->profile == PFT_PROFILE_M ? "M" : "A");
	return line_error(l, -PFT_ERR_NOT_SUPPORTED, l->lineno, what);
}

/* "[FLAGS2/PC/FLAGS/CFLAGS]" or an older "[CS_BASE/PC/FLAGS]". */
static int parse_qemu_trace(struct pft_insn_log *l, const char *s, struct entry *e)
{
	uint32_t field[4];
	int n = 0;

	s = strchr(s, '[');
	if (!s)
		return bad_line(l, "qemu exec line without [...]");
	s++;
	for (;;) {
		if (n == 4 || parse_hex32(&s, &field[n]))
			return bad_line(l, "qemu exec line: bad [...] fields");
		n++;
		if (*s == ']')
			break;
		if (*s++ != '/')
			return bad_line(l, "qemu exec line: bad [...] fields");
	}
	if (n < 2)
		return bad_line(l, "qemu exec line: no PC in [...]");
	memset(e, 0, sizeof(*e));
	e->in.addr = field[1];
	e->in.isa = n == 4 ? ((field[0] >> QEMU_THUMB_BIT) & 1 ? PFT_ISA_THUMB : PFT_ISA_ARM)
			   : PFT_ISA_UNKNOWN;
	e->line = l->lineno;
	return 1;
}

/* The ARMv7-M exception named @word (pft_exception_name_in() of the M
 * profile: "nmi", ..., "irqN"), or -1. */
static int m_exception_number(const char *word, size_t len)
{
	char name[PFT_EXCEPTION_NAME_MAX];

	if (len > 3 && !strncmp(word, "irq", 3) && word[3] >= '0' && word[3] <= '9' &&
	    (word[3] != '0' || len == 4)) {
		unsigned n = 0;
		for (size_t i = 3; i < len; i++) {
			if (word[i] < '0' || word[i] > '9' || n > PFT_MEXC_MAX)
				return -1;
			n = n * 10 + (unsigned)(word[i] - '0');
		}
		return n <= PFT_MEXC_MAX - PFT_MEXC_IRQ0 ? (int)(n + PFT_MEXC_IRQ0) : -1;
	}
	for (unsigned n = PFT_MEXC_NMI; n < PFT_MEXC_IRQ0; n++) {
		pft_exception_name_in(PFT_PROFILE_M, n, name, sizeof(name));
		if (strlen(name) == len && !strncmp(name, word, len) && strcmp(name, "reserved"))
			return (int)n;
	}
	return -1;
}

/* The exception number of @word (a number, or a name of
 * pft_exception_name(), or an M-profile name, which sets *@m), or -1. */
static int exception_number(const char *word, size_t len, int *m)
{
	char *end;
	unsigned long v;

	*m = 0;
	if (word[0] >= '0' && word[0] <= '9') {
		errno = 0;
		v = strtoul(word, &end, 0);
		return !errno && (size_t)(end - word) == len && v >= 1 && v <= 511 ? (int)v : -1;
	}
	for (unsigned n = 1; n < 16; n++) {
		const char *name = pft_exception_name(n);
		if (strlen(name) == len && !strncmp(name, word, len) && strcmp(name, "reserved"))
			return (int)n;
	}
	int n = m_exception_number(word, len);
	*m = n > 0;
	return n;
}

/* "exception KIND [RET]" or "exception return" in a plain log. */
static int parse_plain_exception(struct pft_insn_log *l, const char *s)
{
	size_t len = strcspn(s, " \t\r\n#");
	int m, number;
	uint32_t ret;

	if (len == 6 && !strncmp(s, "return", 6)) {
		s += len;
		s += strspn(s, " \t\r\n");
		if (*s && *s != '#')
			return bad_line(l, "exception return: nothing may follow");
		if (l->state.exc_return || l->state.exception)
			return line_error(l, -PFT_ERR_NOT_SUPPORTED, l->lineno,
					  "exception return: not after an exception, nor twice, with "
					  "no instruction between them");
		l->state.exc_return = 1;
		return seen_profile(l, PFT_PROFILE_M) < 0 ? -PFT_ERR_NOT_SUPPORTED : 1;
	}
	number = exception_number(s, len, &m);
	if (number < 0)
		return bad_line(l, "exception: not an exception number (1-511) or name (irq, svc, "
				   "...; M profile: nmi, svcall, pendsv, irq0, ...), nor 'return'");
	if (l->state.exception)
		return line_error(l, -PFT_ERR_NOT_SUPPORTED, l->lineno,
				  "two exceptions with no instruction between them");
	if (m && seen_profile(l, PFT_PROFILE_M) < 0)
		return -PFT_ERR_NOT_SUPPORTED;
	l->state.exception = (uint16_t)number;
	s += len;
	s += strspn(s, " \t");
	if (*s && *s != '#' && *s != '\r' && *s != '\n') {
		if (parse_hex32(&s, &ret))
			return bad_line(l, "exception: the return address is not hexadecimal");
		l->state.has_exc_ret = 1;
		l->state.exc_ret = ret & ~1u;
		l->state.exc_ret_isa = ret & 1 ? PFT_ISA_THUMB : PFT_ISA_UNKNOWN;
		s += strspn(s, " \t\r\n");
		if (*s && *s != '#')
			return bad_line(l, "exception: more than a kind and a return address");
	}
	return 1;
}

/* "ctxid V", "vmid V", "ns 0|1" or "exception ...": 1 when @s is one
 * (kept in l->state), 0 when it is not, < 0 on error. */
static int parse_state(struct pft_insn_log *l, const char *s)
{
	static const char *const words[] = { "ctxid", "vmid", "ns" };
	static const uint64_t limits[] = { UINT32_MAX, 255, 1 };
	char *end;

	s += strspn(s, " \t");
	if (starts(s, "exception") && strchr(" \t", s[9]))
		return parse_plain_exception(l, s + 9 + strspn(s + 9, " \t"));
	for (int i = 0; i < 3; i++) {
		size_t n = strlen(words[i]);
		if (strncmp(s, words[i], n) || !strchr(" \t", s[n]))
			continue;
		errno = 0;
		unsigned long long v = strtoull(s + n, &end, 0);
		end += strspn(end, " \t\r\n");
		if (errno || end == s + n || v > limits[i] || (*end && *end != '#')) {
			char what[64];
			snprintf(what, sizeof(what), "%s: bad value (0-%llu)", words[i],
				 (unsigned long long)limits[i]);
			return bad_line(l, what);
		}
		if (i == 0) {
			l->state.has_ctxid = 1;
			l->state.ctxid = (uint32_t)v;
		} else if (i == 1) {
			l->state.has_vmid = 1;
			l->state.vmid = (uint8_t)v;
		} else {
			l->state.has_ns = 1;
			l->state.ns = (uint8_t)v;
		}
		return 1;
	}
	return 0;
}

static int parse_plain(struct pft_insn_log *l, const char *s, struct entry *e)
{
	uint32_t v;
	char *end;
	int r = parse_state(l, s);

	if (r)
		return r < 0 ? r : 3;
	memset(e, 0, sizeof(*e));
	e->in = l->state;
	memset(&l->state, 0, sizeof(l->state));
	s += strspn(s, " \t");
	if (parse_hex32(&s, &v) || (*s && !strchr(" \t\r\n#", *s)))
		return bad_line(l, "not a hexadecimal address");
	s += strspn(s, " \t\r\n");
	if (*s >= '0' && *s <= '9') {
		errno = 0;
		unsigned long long c = strtoull(s, &end, 10);
		if (errno || c > UINT32_MAX || (*end && !strchr(" \t\r\n#", *end)))
			return bad_line(l, "the cycle count is not a 32-bit decimal number");
		e->in.has_cycles = 1;
		e->in.cycles = (uint32_t)c;
		s = end + strspn(end, " \t\r\n");
	}
	if (*s && *s != '#')
		return bad_line(l, "not a hexadecimal address (and cycle count)");
	/* An odd address is Thumb code (as in interworking branches). */
	e->in.addr = v & ~1u;
	e->in.isa = v & 1 ? PFT_ISA_THUMB : PFT_ISA_UNKNOWN;
	e->line = l->lineno;
	return 1;
}

static int blank(const char *s)
{
	s += strspn(s, " \t\r\n");
	return !*s || *s == '#';
}

/* The hexadecimal value after "[" (@bracket) or after the last "PC " in
 * @s, into @v. */
static int value_after(const char *s, const char *mark, uint32_t *v)
{
	const char *p = strstr(s, mark);

	if (!p)
		return -1;
	p += strlen(mark);
	return parse_hex32(&p, v);
}

/* A block qemu logged did not run (it stopped at @pc, or was rewound to
 * it): the held instruction, if it is that block, is dropped, and any
 * exception (or exception return) it carried waits for the block that
 * runs. */
static void not_run(struct pft_insn_log *l, uint32_t pc)
{
	l->next_from_return = 0;
	l->have_next_pc = 1;
	l->next_pc = pc;
	l->next_isa = PFT_ISA_UNKNOWN;
	if (!l->have_held || l->held.in.addr != pc)
		return;
	l->next_isa = l->held.in.isa;
	l->have_held = 0;
	if (l->held.in.exception)
		l->exc = (struct pending){ .number = l->held.in.exception,
					   .kind = l->held.exc_kind,
					   .has_ret = l->held.in.has_exc_ret,
					   .ret_isa = l->held.in.exc_ret_isa,
					   .ret = l->held.in.exc_ret, .line = l->held.line,
					   .has_handler = 1, .handler = pc };
	l->exc_return |= l->held.in.exc_return;
}

/* qemu's exception named by the @len bytes at @name, or NULL. */
static const struct qemu_exception *qemu_exception(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(QEMU_EXCEPTIONS) / sizeof(QEMU_EXCEPTIONS[0]); i++)
		if (strlen(QEMU_EXCEPTIONS[i].name) == len &&
		    !strncmp(QEMU_EXCEPTIONS[i].name, name, len))
			return &QEMU_EXCEPTIONS[i];
	return NULL;
}

static const char QEMU_M_EXIT[] = "QEMU v7M exception exit";

/* "Taking exception N [NAME] on CPU C": noted until the lines after it
 * are read (settle()). */
static int take_exception(struct pft_insn_log *l, const char *s)
{
	const char *name = strchr(s, '[');
	const char *end = name ? strchr(name, ']') : NULL;

	if (!end)
		return bad_line(l, "qemu 'Taking exception' line without [NAME]");
	name++;
	const struct qemu_exception *q = qemu_exception(name, (size_t)(end - name));
	if (!q) {
		char what[160];
		snprintf(what, sizeof(what), "qemu exception [%.*s] is not one the models trace",
			 (int)(end - name > 80 ? 80 : end - name), name);
		return line_error(l, -PFT_ERR_NOT_SUPPORTED, l->lineno, what);
	}
	l->taking = (struct taking){ .q = q, .line = l->lineno, .had_next_pc = l->have_next_pc,
				     .next_pc = l->next_pc, .next_isa = l->next_isa };
	l->have_next_pc = 0;
	l->next_from_return = 0;
	if (q->kind == EXC_BAD && q->m_kind != EXC_BAD && seen_profile(l, PFT_PROFILE_M) < 0)
		return -PFT_ERR_NOT_SUPPORTED;
	if (q->m_kind == EXC_EXIT) {
		/* The held instruction returned (its branch loaded EXC_RETURN). */
		if (!l->have_held || l->exc_return)
			return line_error(l, -PFT_ERR_NOT_SUPPORTED, l->lineno,
					  "an exception return with no instruction before it");
		l->exc_return = 1;
	}
	return 0;
}

/* The exception the last "Taking exception" line (and the lines after
 * it) took, now that another kind of line follows: into l->exc. */
static int settle(struct pft_insn_log *l)
{
	struct taking t = l->taking;
	char what[160];

	if (!t.q)
		return 0;
	l->taking.q = NULL;
	const int m = t.has_ipsr;
	const uint8_t kind = m ? t.q->m_kind : t.q->kind;
	if (t.q->m_kind == EXC_EXIT && !m)
		return 0; /* a return that completed */
	if (!m && t.q->kind != EXC_NONE && seen_profile(l, PFT_PROFILE_A) < 0)
		return -PFT_ERR_NOT_SUPPORTED;
	if (kind == EXC_NONE)
		return 0;
	if (kind == EXC_BAD) {
		snprintf(what, sizeof(what), "qemu exception [%s] is not one the models trace%s",
			 t.q->name, m ? " on an M-profile core" : "");
		return line_error(l, -PFT_ERR_NOT_SUPPORTED, t.line, what);
	}
	if (l->exc.number && m && l->exc.has_handler && !l->have_preempted) {
		/* M: the exception before (whose handler was read from the vector
		 * table) was entered, then this one came before its first
		 * instruction ran, as qemu takes a higher priority one that
		 * became pending meanwhile: that handler's first instruction is
		 * the return address. */
		struct entry *e = &l->preempted;
		memset(e, 0, sizeof(*e));
		e->in.addr = l->exc.handler;
		e->in.isa = PFT_ISA_THUMB;
		e->in.exception = l->exc.number;
		e->in.has_exc_ret = l->exc.has_ret;
		e->in.exc_ret = l->exc.ret;
		e->in.exc_ret_isa = l->exc.ret_isa;
		e->in.exc_return = (uint8_t)l->exc_return;
		e->in.exc_only = 1;
		e->line = l->exc.line;
		e->exc_kind = l->exc.kind;
		l->have_preempted = 1;
		l->exc_return = 0;
		l->exc = (struct pending){ .number = t.ipsr, .kind = EXC_ASYNC, .has_ret = 1,
					   .ret = e->in.addr, .ret_isa = PFT_ISA_THUMB,
					   .line = t.line, .has_handler = (uint8_t)t.has_handler,
					   .handler = t.handler & ~1u };
		return 0;
	}
	if (l->exc.number || (kind == EXC_CUT && l->have_held && l->held.in.exception))
		return line_error(l, -PFT_ERR_NOT_SUPPORTED, t.line,
				  "an exception before the handler of the one before ran an "
				  "instruction");
	l->exc = (struct pending){ .number = m ? t.ipsr : t.q->number, .kind = kind,
				   .line = t.line, .has_handler = (uint8_t)t.has_handler,
				   .handler = t.handler & ~1u };
	if (kind == EXC_EXIT) {
		/* The return tail-chained to this exception: it interrupts no
		 * flow, and has no return address of its own. */
		l->exc.kind = EXC_ASYNC;
	} else if (kind == EXC_CUT && l->have_held) {
		/* The instruction that raised it did not complete: it is not
		 * traced, and it is where the handler returns to. */
		l->exc.has_ret = 1;
		l->exc.ret = l->held.in.addr;
		l->exc.ret_isa = m ? PFT_ISA_THUMB : l->held.in.isa;
		l->have_held = 0;
		/* An exception return to it still happened (M). */
		l->exc_return = l->held.in.exc_return;
	} else if (kind == EXC_ASYNC && t.had_next_pc) {
		l->exc.has_ret = 1;
		l->exc.ret = t.next_pc;
		l->exc.ret_isa = m ? PFT_ISA_THUMB : t.next_isa;
	} else if (kind == EXC_FETCH && (m ? t.has_fault_addr : t.has_ifar)) {
		l->exc.has_ret = 1;
		l->exc.ret = m ? t.fault_addr : t.ifar;
		l->exc.ret_isa = m ? PFT_ISA_THUMB : PFT_ISA_UNKNOWN;
	}
	return 0;
}

/* A "..." line of qemu: what it adds to the exception being taken. */
static int qemu_note(struct pft_insn_log *l, const char *s)
{
	struct taking *t = &l->taking;
	uint32_t v;

	if (starts(s, QEMU_M_PENDING)) {
		/* "...taking pending [non]secure exception N": its IPSR
		 * number, the one traced (the last of several: an exception
		 * that faulted while it was taken became another). */
		const char *p = strstr(s, " exception ");
		char *end;
		unsigned long n = 0;
		if (p) {
			errno = 0;
			n = strtoul(p + 11, &end, 10);
		}
		if (!p || errno || end == p + 11 || !n || n > PFT_MEXC_MAX)
			return bad_line(l, "qemu '...taking pending' line without an exception "
					   "number (1-511)");
		if (seen_profile(l, PFT_PROFILE_M) < 0)
			return -PFT_ERR_NOT_SUPPORTED;
		if (!t->q) {
			if (!l->exc_return)
				return bad_line(l, "qemu '...taking pending' line with no exception "
						   "or exception return before it");
			/* A tail-chain after a return settled by another line. */
			*t = (struct taking){ .q = qemu_exception(QEMU_M_EXIT, strlen(QEMU_M_EXIT)),
					      .line = l->lineno };
		}
		t->has_ipsr = 1;
		t->ipsr = (uint16_t)n;
		return 0;
	}
	if (starts(s, QEMU_M_NEW_PC)) {
		if (value_after(s, QEMU_M_NEW_PC, &v))
			return bad_line(l, "qemu '...loaded new PC' line without an address");
		t->has_handler = 1;
		t->handler = v;
		return 0;
	}
	if (starts(s, QEMU_M_FAULT_ADDR)) {
		if (value_after(s, QEMU_M_FAULT_ADDR, &v))
			return bad_line(l, "qemu '...at fault address' line without an address");
		t->has_fault_addr = 1;
		t->fault_addr = v;
		return 0;
	}
	if (starts(s, QEMU_IFAR)) {
		if (!value_after(s, "IFAR ", &v)) {
			t->has_ifar = 1;
			t->ifar = v;
		}
		return 0;
	}
	if (l->profile != PFT_PROFILE_M)
		return 0; /* A: "...from EL1 to EL1", "...with ESR ...", ... */
	for (size_t i = 0; i < sizeof(QEMU_M_NOTES) / sizeof(QEMU_M_NOTES[0]); i++)
		if (starts(s, QEMU_M_NOTES[i]))
			return 0;
	return bad_line(l, "a qemu '...' line pft does not know in an M-profile log");
}

/* -d cpu: the state before the held block ran; its flags N, Z, C, V are
 * (X)PSR[31:28]. */
static int qemu_psr(struct pft_insn_log *l, const char *s)
{
	uint32_t v;

	if (parse_hex32(&s, &v))
		return bad_line(l, "qemu PSR= line without a value");
	if (l->have_held) {
		l->held.in.has_nzcv = 1;
		l->held.in.nzcv = (uint8_t)(v >> 28);
	}
	return 0;
}

/* A qemu line that is not a Trace line: 0 when understood (and kept in
 * the state), < 0 on error. */
static int qemu_other(struct pft_insn_log *l, const char *s)
{
	uint32_t v;

	if (starts(s, "...") || starts(s, QEMU_M_RETURN) || blank(s)) {
		/* The lines after "Taking exception" (or an M-profile return). */
		if (starts(s, "..."))
			return qemu_note(l, s);
		return starts(s, QEMU_M_RETURN) && seen_profile(l, PFT_PROFILE_M) < 0
			       ? -PFT_ERR_NOT_SUPPORTED : 0;
	}
	/* Any other line ends what the last "Taking exception" took. */
	int err = settle(l);
	if (err < 0)
		return err;
	if (starts(s, QEMU_PSR))
		return qemu_psr(l, s + sizeof(QEMU_PSR) - 1);
	if (starts(s, QEMU_XPSR))
		return seen_profile(l, PFT_PROFILE_M) < 0 ? -PFT_ERR_NOT_SUPPORTED
							  : qemu_psr(l, s + sizeof(QEMU_XPSR) - 1);
	if (s[0] == 'R' && s[1] >= '0' && s[1] <= '9') {
		/* -d cpu: the registers.  R0-R7 before the held instruction
		 * (what a CBZ tests).  At an A/R handler's first instruction,
		 * the link register tells where an interrupt or a prefetch
		 * abort returns to (M: it holds EXC_RETURN). */
		struct entry *h = &l->held;
		if (l->have_held && (starts(s, "R00=") || starts(s, "R04="))) {
			const unsigned base = s[2] == '0' ? 0 : 4;
			int all = 1;
			for (unsigned k = 0; k < 4; k++) {
				char mark[8];
				snprintf(mark, sizeof(mark), "R%02u=", base + k);
				all &= !value_after(s, mark, &h->in.regs[base + k]);
			}
			if (!all)
				return bad_line(l, "qemu register line: not R0N=VALUE four times");
			h->regs_seen |= (uint8_t)(base ? 2 : 1);
			h->in.has_regs = h->regs_seen == 3;
		}
		if (l->have_held && h->in.exception && !h->in.has_exc_ret &&
		    l->profile != PFT_PROFILE_M &&
		    (h->exc_kind == EXC_ASYNC || h->exc_kind == EXC_FETCH) &&
		    !value_after(s, "R14=", &v)) {
			h->in.has_exc_ret = 1;
			h->in.exc_ret = v - (h->exc_kind == EXC_ASYNC ? LINK_OFFSET_IRQ
								     : LINK_OFFSET_ABORT);
			h->in.exc_ret_isa = PFT_ISA_UNKNOWN;
		}
		return 0;
	}
	if (starts(s, QEMU_STOPPED)) {
		if (value_after(s, "[", &v))
			return bad_line(l, "qemu 'Stopped execution' line without [PC]");
		not_run(l, v);
		return 0;
	}
	if (starts(s, QEMU_REWOUND)) {
		if (value_after(s, QEMU_REWOUND, &v))
			return bad_line(l, "qemu 'rewound execution' line without a PC");
		not_run(l, v);
		return 0;
	}
	if (starts(s, QEMU_TAKING))
		return take_exception(l, s);
	if (starts(s, QEMU_RETURN)) {
		if (value_after(s, " PC ", &v))
			return bad_line(l, "qemu 'Exception return' line without a PC");
		if (seen_profile(l, PFT_PROFILE_A) < 0)
			return -PFT_ERR_NOT_SUPPORTED;
		/* The PC of a return to Thumb code has bit 0 set. */
		l->have_next_pc = 1;
		l->next_pc = v & ~1u;
		l->next_isa = v & 1 ? PFT_ISA_THUMB : PFT_ISA_UNKNOWN;
		l->next_from_return = 1;
		l->return_line = l->lineno;
		return 0;
	}
	if (starts(s, QEMU_M_RESET))
		return seen_profile(l, PFT_PROFILE_M) < 0 ? -PFT_ERR_NOT_SUPPORTED : 0;
	if (starts(s, QEMU_SWITCH))
		return 0;
	return bad_line(l, "not a qemu -d exec line (Trace ...)");
}

/* The next entry as the log states it (qemu: before the held one is
 * confirmed).  Returns 1, 0 at the end, < 0 on error. */
static int read_entry(struct pft_insn_log *l, struct entry *e)
{
	for (;;) {
		ssize_t len = getline(&l->buf, &l->cap, l->f);
		if (len < 0) {
			if (ferror(l->f))
				return line_error(l, -PFT_ERR_BAD_FILE, 0,
						  "read error");
			return l->format == LOG_QEMU ? settle(l) : 0;
		}
		l->lineno++;
		if ((size_t)len != strlen(l->buf))
			return bad_line(l, "NUL byte in the log");
		if (l->format == LOG_UNKNOWN) {
			if (blank(l->buf))
				continue;
			l->format = starts(l->buf, QEMU_TRACE) || starts(l->buf, QEMU_M_RESET)
					    ? LOG_QEMU : LOG_PLAIN;
		}
		if (l->format == LOG_PLAIN) {
			int r = blank(l->buf) ? 3 : parse_plain(l, l->buf, e);
			if (r == 3)
				continue;
			return r;
		}
		if (starts(l->buf, QEMU_TRACE)) {
			int err = settle(l);
			return err < 0 ? err : parse_qemu_trace(l, l->buf, e);
		}
		int r = qemu_other(l, l->buf);
		if (r < 0)
			return r;
	}
}

/* Hand @e out as the next instruction. */
static int give(struct pft_insn_log *l, const struct entry *e, struct pft_model_insn *insn,
		size_t size)
{
	pft_copy_known(insn, &e->in, sizeof(e->in), size);
	l->out_line = e->line;
	if (e->in.exception)
		l->exceptions++;
	return 1;
}

int pft_insn_log_next(struct pft_insn_log *l, struct pft_model_insn *insn, size_t size)
{
	struct entry next;

	if (!l || !insn || size < PFT_FIRST_SIZE(struct pft_model_insn))
		return -PFT_ERR_INVALID;
	pft_diag_clear(&l->diag);
	memset(insn, 0, size);
	if (l->have_after) {
		/* The preempted entry, then the handler that preempted it is
		 * held, before any line after its Trace line is read. */
		struct entry out = l->held;
		l->held = l->after;
		l->have_after = 0;
		return give(l, &out, insn, size);
	}
	for (;;) {
		int r = read_entry(l, &next);
		if (r < 0)
			return r;
		if (r == 0) {
			/* An exception whose handler never ran (the log was cut
			 * there) has no place in a trace. */
			if (!l->have_held)
				return 0;
			l->have_held = 0;
			return give(l, &l->held, insn, size);
		}
		if (l->format == LOG_PLAIN)
			return give(l, &next, insn, size);
		if (l->next_from_return && next.in.addr != l->next_pc) {
			char what[160];
			snprintf(what, sizeof(what), "the exception return before (line %llu) went "
				 "to 0x%08x, not to this block's 0x%08x",
				 (unsigned long long)l->return_line, (unsigned)l->next_pc,
				 (unsigned)next.in.addr);
			return bad_line(l, what);
		}
		l->next_from_return = 0;
		if (l->exc.number) {
			next.in.exception = l->exc.number;
			next.in.has_exc_ret = l->exc.has_ret;
			next.in.exc_ret = l->exc.ret;
			next.in.exc_ret_isa = l->exc.ret_isa;
			next.exc_kind = l->exc.kind;
			l->exc.number = 0;
		}
		next.in.exc_return = (uint8_t)l->exc_return;
		l->exc_return = 0;
		l->have_next_pc = 0;
		int had = l->have_held;
		struct entry out = l->held;
		l->held = next;
		l->have_held = 1;
		if (l->have_preempted) {
			l->have_preempted = 0;
			l->held = l->preempted;
			l->after = next;
			l->have_after = 1;
			if (!had) {
				out = l->held;
				l->held = l->after;
				l->have_after = 0;
			}
			return give(l, &out, insn, size);
		}
		if (had)
			return give(l, &out, insn, size);
	}
}
