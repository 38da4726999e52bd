/*
 * pft/config.h - PTM configuration registers: event register expressions
 * (pft_event_) and register field explanations (pft_regs_).
 *
 * Link with libpft (pkg-config libpft).  <pft.h> includes every header;
 * its head comment gives the conventions and the prefixes.
 */
#ifndef PFT_PUBLIC_CONFIG_H
#define PFT_PUBLIC_CONFIG_H

#include "pft/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================
 * Configuration: PTM event registers and register explanations
 * ====================================================================== */

/* ---- Section: event (pft_event_) ---- */

/*
 * PTM events (IHI 0035B section 3.8): bits [16:0] of an event register are
 * a Boolean function [16:14] of two resources, B [13:7] and A [6:0].  A
 * resource number is type [6:4] and index [3:0].
 *
 * Expressions name resources as follows (N counts from 1, as in the spec's
 * text; the maximum is the architectural one):
 *   addr_cmpN   single address comparator N (1-16)     type 000, index N-1
 *   arcN        address range comparator N (1-8)       type 001, index N-1
 *   instrN      instrumentation resource N (1-4)       type 001, index 7+N
 *   watchN      EmbeddedICE watchpoint input N (1-8)   type 010, index N-1
 *   counterN    counter N at zero (1-4)                type 100, index N-1
 *   seq_stateN  sequencer in state N (1-3)             type 101, index N-1
 *   ctxid_cmpN  context ID comparator N (1-3)          type 101, index 7+N
 *   vmid_cmp    VMID comparator                        type 101, index 11
 *   startstop   TraceEnable start/stop resource        type 101, index 15
 *   ext_inN     external input N (1-4)                 type 110, index N-1
 *   ext_in_selN extended external input selector N     type 110, index 7+N
 *   ns          processor in Non-secure state          type 110, index 13
 *   prohibited  trace prohibited by the processor      type 110, index 14
 *   always      hard-wired TRUE                        type 110, index 15
 *   never       the same as !always
 * Operators: '!' or 'not', '&' (or '&&', 'and'), '|' (or '||', 'or'),
 * parentheses; words and names are case-insensitive; '!' binds tighter
 * than '&', which binds tighter than '|'.  An expression may use at most
 * two resources; any such expression is one of the eight functions after
 * De Morgan's laws and moving the negated operand into A (so "x & !y" is
 * encoded as NOT(A) AND B with A = y, B = x).
 *
 * Canonical form (pft_event_format): "A", "!A", "A & B", "!A & B",
 * "!A & !B", "A | B", "!A | B", "!A | !B", with "always" for A = always
 * and "never" for NOT(always) alone.
 */

/* The largest canonical expression, with its terminating NUL. */
#define PFT_EVENT_EXPR_MAX 32

/* Boolean functions, bits [16:14]. */
enum pft_event_function {
	PFT_EVENT_A = 0,
	PFT_EVENT_NOT_A = 1,
	PFT_EVENT_A_AND_B = 2,
	PFT_EVENT_NOT_A_AND_B = 3,
	PFT_EVENT_NOT_A_AND_NOT_B = 4,
	PFT_EVENT_A_OR_B = 5,
	PFT_EVENT_NOT_A_OR_B = 6,
	PFT_EVENT_NOT_A_OR_NOT_B = 7
};

/* Special resource numbers. */
enum {
	PFT_EVENT_RES_ALWAYS = 0x6f,      /* type 110 index 15 */
	PFT_EVENT_VALUE_ALWAYS = 0x0006f, /* A */
	PFT_EVENT_VALUE_NEVER = 0x0406f   /* NOT(A) */
};

/* The fields of bits [16:0] of an event register. */
struct pft_event {
	uint8_t function;       /* enum pft_event_function, 0-7 */
	uint8_t a, b;           /* resource numbers, 0-0x7f */
};

/*
 * Which resources a PTM implements (counts, 0 = none).  Derive it from the
 * ID registers with pft_event_limits_from_regs(), or start from
 * pft_event_limits_max().  Functions taking a `const struct
 * pft_event_limits *` accept NULL for "the architectural maximum".
 */
struct pft_event_limits {
	size_t size;            /* sizeof(struct pft_event_limits) */
	uint8_t addr_cmps;      /* single address comparators, 0-16: 2 x ETMCCR[3:0] */
	uint8_t arcs;           /* address range comparators, 0-8: ETMCCR[3:0] */
	uint8_t instr;          /* instrumentation resources, 0-4: ETMCCER[15:13] */
	uint8_t watchpoints;    /* EmbeddedICE watchpoint inputs, 0-8: ETMCCER[19:16] */
	uint8_t counters;       /* 0-4: ETMCCR[15:13] */
	uint8_t seq_states;     /* 3 when ETMCCR[16] says a sequencer exists, else 0 */
	uint8_t ctxid_cmps;     /* 0-3: ETMCCR[25:24] */
	uint8_t vmid_cmp;       /* 0-1: PFTv1.1 and ETMCCER[26] (Virtualization) */
	uint8_t startstop;      /* 0-1: ETMCCR[26] */
	uint8_t ext_ins;        /* 0-4: ETMCCR[19:17] */
	uint8_t ext_in_sels;    /* 0-4: ETMCCER[2:0] */
	uint8_t nonsecure;      /* 0-1: ETMIDR[19] (Security Extensions) */
	uint8_t reserved[4];
};

/* Details of a failure (or of a warning). */
struct pft_event_diag {
	enum pft_error_code problem; /* PFT_ERR_EVENT_* */
	size_t column;          /* parse: 0-based byte offset of the problem */
	size_t length;          /* parse: bytes of the offending token (0 at the end) */
	char operand;           /* format: 'A' or 'B', the field concerned (else 0) */
	uint8_t resource;       /* the resource number concerned (UNIMPLEMENTED,
				   RESERVED, B_IGNORED) */
};

/* Set the @size bytes at @limits to the architectural maximum (every
 * resource implemented).  Returns 0 or -PFT_ERR_INVALID (NULL, @size below
 * the first layout).  Call it through pft_event_limits_max(). */
pft_export int pft_event_limits_max_size(struct pft_event_limits *limits, size_t size);

static inline int pft_event_limits_max(struct pft_event_limits *limits)
{
	return pft_event_limits_max_size(limits, sizeof(*limits));
}

/*
 * Derive @limits from a PTM's ETMCCR, ETMCCER and ETMIDR.  As with
 * pft_ptm_config_from_regs(), @limits->size says how much of the struct the
 * caller has.  Returns 0, -PFT_ERR_INVALID (NULL @limits, size too small)
 * or -PFT_ERR_BAD_CONFIG (ETMIDR[11:8] is not 3, so not a PTM, or a count
 * is above the PTM maximum); on error @limits is unchanged.
 */
pft_export int pft_event_limits_from_regs(struct pft_event_limits *limits,
					  uint32_t etmccr, uint32_t etmccer,
					  uint32_t etmidr);

/*
 * The inverse of pft_event_limits_from_regs(): into @ctx (its size set)
 * the ETMCCR, ETMCCER and ETMIDR of an ARM PFTv1.1 PTM with the resources
 * of @limits (every have_ flag set).  Returns 0 or -PFT_ERR_INVALID (NULL,
 * a size below the first layout).
 */
struct pft_regs_context;
pft_export int pft_event_limits_to_regs(const struct pft_event_limits *limits,
					struct pft_regs_context *ctx);

/* Split bits [16:0] of an event register.  Returns 0, or -PFT_ERR_INVALID
 * (NULL @ev, or @value has bits above 16 set). */
pft_export int pft_event_unpack(uint32_t value, struct pft_event *ev);

/* Join the fields of @ev into *@value.  Returns 0, or -PFT_ERR_INVALID
 * (NULL argument, function > 7 or resource > 0x7f). */
pft_export int pft_event_pack(const struct pft_event *ev, uint32_t *value);

/*
 * The canonical name of resource number @resource ("arc3") into @buf.
 * Returns its length, -PFT_ERR_INVALID (NULL @buf, @resource > 0x7f, or
 * @resource is reserved) or -PFT_ERR_NOSPACE (@len too small; @buf then
 * holds "" when @len > 0).
 */
pft_export int pft_event_resource_name(unsigned resource, char *buf,
				       size_t len);

/* The type (bits [6:4], 0-7) and index (bits [3:0]) of resource number
 * @resource (ptm-registers-events.md 7.2). */
static inline unsigned pft_event_resource_type(unsigned resource)
{
	return (resource >> 4) & 7;
}

static inline unsigned pft_event_resource_index(unsigned resource)
{
	return resource & 0xf;
}

/*
 * Parse expression @expr into the 17-bit register value *@value.
 * Resources not implemented according to @limits (NULL: architectural
 * maximum) are rejected.  Returns 0, or:
 *   -PFT_ERR_INVALID     NULL @expr or @value, @limits->size too small, or
 *                        the expression is not
 *                        valid (@diag, if not NULL, says what and where)
 *   -PFT_ERR_BAD_CONFIG  a resource is not implemented (problem
 *                        PFT_ERR_EVENT_UNIMPLEMENTED, with its column)
 */
pft_export int pft_event_parse(const char *expr,
			       const struct pft_event_limits *limits,
			       uint32_t *value, struct pft_event_diag *diag);

/*
 * Write the canonical expression of event register bits @value into @buf
 * (PFT_EVENT_EXPR_MAX bytes are always enough).  Returns its length, or:
 *   -PFT_ERR_NOSPACE     @len too small (@buf then holds "" when @len > 0)
 *   -PFT_ERR_INVALID     NULL @buf, @limits->size too small, bits above 16 set
 *                        (PFT_ERR_EVENT_HIGH_BITS: callers mask the register
 *                        first), or a resource the function uses is
 *                        reserved (PFT_ERR_EVENT_RESERVED, operand 'A'/'B')
 *   -PFT_ERR_BAD_CONFIG  a resource the function uses is not implemented
 *                        according to @limits (PFT_ERR_EVENT_UNIMPLEMENTED)
 * Functions A and NOT(A) ignore B.  When B is not 0 for them the value is
 * non-canonical: the expression (of A alone) is written and the length
 * returned, and @diag says PFT_ERR_EVENT_B_IGNORED; parsing the expression
 * gives @value with B = 0.  Otherwise parsing the expression gives @value
 * back.  @diag may be NULL; on success without warning its problem is
 * PFT_ERR_OK.
 */
pft_export int pft_event_format(uint32_t value,
				const struct pft_event_limits *limits,
				char *buf, size_t len,
				struct pft_event_diag *diag);

/* ---- End of event ---- */

/* ---- Section: regs (pft_regs_) ---- */

/*
 * Field-by-field explanation of PTM registers (ETMCR, ETMCCR, ETMCCER,
 * ETMIDR, ETMTRACEIDR, ETMSYNCFR, ETMAUXCR (Cortex-A15 meanings), ETMSR,
 * ETMTECR1, ETMTSSCR, ETMEXTINSELR, the event registers ETMTRIGGER,
 * ETMTEEVR, ETMTSEVR, ETMCNTENRn, ETMCNTRLDEVRn, ETMSQabEVR,
 * ETMEXTOUTEVRn, and the value registers ETMACVRn, ETMCNTRLDVRn,
 * ETMCNTVRn, ETMSQR, ETMCIDCVRn, ETMCIDCMR, ETMVMIDCVR).
 */

/* The most fields any register is explained with. */
#define PFT_REGS_FIELDS_MAX 32
/* The size of pft_regs_field.meaning. */
#define PFT_REGS_MEANING_MAX 112

enum pft_regs_flag {
	PFT_REGS_FLAG_NONE = 0,
	PFT_REGS_FLAG_NOTE = 1,  /* worth knowing: unusual, or no effect here */
	PFT_REGS_FLAG_WARN = 2   /* reserved, not implemented or inconsistent */
};

struct pft_regs_field {
	const char *name;       /* e.g. "cycle_accurate"; "register" for the
				   register as a whole */
	uint8_t hi, lo;         /* bits [hi:lo] */
	uint8_t flag;           /* enum pft_regs_flag */
	uint32_t value;         /* the field's bits, shifted down to bit 0 */
	char meaning[PFT_REGS_MEANING_MAX]; /* one line of English */
};

/*
 * The ID registers that qualify other registers' meanings: whether a
 * feature is implemented (ETMCCER), how many resources exist (ETMCCR), the
 * PFT version and Security Extensions (ETMIDR).  Unknown ones (have_x = 0)
 * are taken as the architectural maximum and produce no warnings.
 */
struct pft_regs_context {
	size_t size;            /* sizeof(struct pft_regs_context) */
	uint32_t etmidr, etmccr, etmccer;
	uint8_t have_etmidr, have_etmccr, have_etmccer;
	uint8_t reserved[5];
};

struct pft_regs_info {
	char name[16];          /* canonical name, e.g. "ETMCNTENR2" */
	unsigned number;        /* register number = byte offset / 4 */
	char title[48];         /* e.g. "counter 2 enable event" */
};

/*
 * Look up register @name (case-insensitive; "ETMCNTENR2", "ETMSQ12EVR").
 * Returns 0 and fills @info (may be NULL), -PFT_ERR_INVALID (NULL @name)
 * or -PFT_ERR_NOT_SUPPORTED (not a register this module explains).
 */
pft_export int pft_regs_lookup(const char *name, struct pft_regs_info *info);

/*
 * Explain @value of register @name in up to @nfields entries of @fields,
 * in reading order: a summary spanning several fields first where there
 * is one (the expression of an event register), then fields from bit 0
 * up, then notes on the register as a whole (name "register", bits
 * [31:0]).  An instance the PTM does not implement according to @ctx
 * (ETMCNTENR3 with two counters) gets that one note instead of fields.
 * @ctx may be NULL (nothing known).  Returns the number of fields the explanation
 * has (when larger than @nfields only the first @nfields are filled), or
 * -PFT_ERR_INVALID (NULL @name, NULL @fields with @nfields > 0, or
 * @ctx->size too small) or
 * -PFT_ERR_NOT_SUPPORTED (unknown register: show it raw).
 */
pft_export int pft_regs_explain(const char *name, uint32_t value,
				const struct pft_regs_context *ctx,
				struct pft_regs_field *fields, size_t nfields);

/* ---- End of regs ---- */

#ifdef __cplusplus
}
#endif

#endif /* PFT_PUBLIC_CONFIG_H */
