/*
 * pft/common.h - what every layer uses: the error codes and pft_errstr(), the
 * version, the export macro, the instruction sets and the PTM configuration
 * (struct pft_ptm_config, pft_ptm_config_from_regs()).
 *
 * Link with libpft (pkg-config libpft).  <pft.h> includes every header;
 * its head comment gives the conventions and the prefixes.
 */
#ifndef PFT_PUBLIC_COMMON_H
#define PFT_PUBLIC_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define pft_export __attribute__((visibility("default")))
#else
#define pft_export
#endif

/* ======================================================================
 * Common: errors
 * ====================================================================== */

enum pft_error_code {
	PFT_ERR_OK = 0,
	PFT_ERR_INTERNAL,      /* a bug in libpft */
	PFT_ERR_INVALID,       /* an argument is NULL or out of range */
	PFT_ERR_NOMEM,         /* out of memory */
	PFT_ERR_BAD_CONFIG,    /* the configuration is inconsistent or not PFT */
	PFT_ERR_NEED_INPUT,    /* feed more input (or finish) to go on */
	PFT_ERR_EOS,           /* end of stream: everything has been returned */
	PFT_ERR_NOSYNC,        /* not synchronised */
	PFT_ERR_BAD_OPCODE,    /* a reserved packet header */
	PFT_ERR_BAD_PACKET,    /* a malformed packet */
	PFT_ERR_TRUNCATED,     /* the input ended inside a packet */
	PFT_ERR_BAD_FRAME,     /* a malformed formatter frame */
	PFT_ERR_NOMAP,         /* no memory image at an address */
	PFT_ERR_BAD_INSN,      /* an instruction the decoder cannot follow */
	PFT_ERR_BAD_FILE,      /* a file is missing, unreadable or malformed */
	PFT_ERR_NOT_SUPPORTED, /* valid, but not supported by this library */
	PFT_ERR_NOSPACE,       /* a caller-provided output buffer is too small */
	PFT_ERR_NO_SOURCE,     /* no trace source (of the protocol asked for) in the input */
	PFT_ERR_NOT_FOUND,     /* no item of that name (a register, a conflict) */
	PFT_ERR_BAD_IMAGE,     /* the program image does not match the trace */
	PFT_ERR_MAX,           /* one past the codes that functions return */

	/*
	 * Reasons.  Functions return the codes above; these finer values say
	 * why a packet, an element, a model put or an event expression is bad,
	 * in the fields that carry them (pft_ptm_packet.bad, pft_etm3_packet.bad,
	 * pft_elem.reason, pft_diag.reason, pft_event_diag.problem).  All
	 * are below 256 so that they fit those uint8_t fields; PFT_ERR_OK (0)
	 * means no reason.
	 */
	/* Packets (PTM and ETMv3): pft_ptm_packet.bad, pft_etm3_packet.bad. */
	PFT_ERR_PKT_RESERVED_HEADER = 0x20, /* a reserved header (or P-header) */
	PFT_ERR_PKT_ATOM_NO_MARKER,  /* PTM: 0x80/0x82 outside cycle-accurate mode */
	PFT_ERR_PKT_ASYNC,           /* zeros not ended by 0x80 */
	PFT_ERR_PKT_TRUNCATED,       /* the stream ended inside a packet */
	PFT_ERR_PKT_DATA_DISABLED,   /* ETMv3: a data header without data trace */
	PFT_ERR_PKT_BAD_ISA,         /* ETMv3: a 5th address byte naming no ISA */
	/* Flow (PTM and ETMv3): pft_elem.reason of PFT_ELEM_ERROR. */
	PFT_ERR_FLOW_BAD_PACKET = 0x30, /* the packet decoder reported a bad packet */
	PFT_ERR_FLOW_NO_WAYPOINT,    /* no waypoint within the walk limit */
	PFT_ERR_FLOW_RETSTACK_EMPTY, /* an E atom on an indirect branch, stack empty */
	PFT_ERR_FLOW_INDIRECT_ATOM,  /* an E atom on an indirect branch, no return stack */
	PFT_ERR_FLOW_WP_UPDATE_PAST, /* a waypoint update beyond the next waypoint */
	PFT_ERR_FLOW_BAD_INSN,       /* undecodable instruction set (Jazelle, ThumbEE;
				      * ARM on an M-profile core) */
	PFT_ERR_FLOW_BAD_EXCEPTION,  /* an exception number the M profile reserves */
	/* Model: why pft_ptm_model_put() refused an instruction. */
	PFT_ERR_MODEL_NOT_IN_IMAGE = 0x40, /* the first instruction, or one
				      * reached without a branch, is not in
				      * the image */
	PFT_ERR_MODEL_NOT_BRANCH,    /* the PC changed after an instruction that
				      * cannot branch */
	PFT_ERR_MODEL_DIRECT_ELSEWHERE, /* a direct branch went neither to its
				      * target nor to the next instruction */
	PFT_ERR_MODEL_ISA_CHANGE,    /* the instruction set changed where it cannot */
	PFT_ERR_MODEL_MISALIGNED,    /* the address is not aligned for its ISA */
	PFT_ERR_MODEL_BAD_ISA,       /* an ISA the model cannot trace */
	PFT_ERR_MODEL_EXC_RET_UNKNOWN, /* an exception after a conditional or
				      * indirect branch, with no return address */
	PFT_ERR_MODEL_BAD_EXCEPTION, /* an exception number above 511, or 1
				      * (debug state entry); M profile: reserved */
	PFT_ERR_MODEL_EXC_RETURN,    /* an exception return after an instruction
				      * that is no indirect branch, or to a model
				      * of an A/R-profile core */
	/* Event expressions and register values: pft_event_diag.problem.
	 * Parsing (the column says where): */
	PFT_ERR_EVENT_EMPTY = 0x50,  /* nothing but blanks */
	PFT_ERR_EVENT_BAD_CHAR,      /* a character that is no part of the language */
	PFT_ERR_EVENT_EXPECTED_OPERAND,  /* a resource, '!' or '(' was expected */
	PFT_ERR_EVENT_EXPECTED_OPERATOR, /* '&', '|', ')' or the end was expected */
	PFT_ERR_EVENT_UNCLOSED_PAREN,    /* this '(' has no ')' */
	PFT_ERR_EVENT_UNOPENED_PAREN,    /* this ')' has no '(' */
	PFT_ERR_EVENT_UNKNOWN_RESOURCE,  /* a name that is no resource */
	PFT_ERR_EVENT_BAD_INDEX,     /* resource number missing or out of range */
	PFT_ERR_EVENT_TOO_MANY_RESOURCES, /* a third resource: no event function fits */
	PFT_ERR_EVENT_TOO_DEEP,      /* parentheses nested too deeply */
	/* Parsing and formatting: */
	PFT_ERR_EVENT_UNIMPLEMENTED, /* the resource is not implemented (limits) */
	/* Formatting: */
	PFT_ERR_EVENT_RESERVED,      /* a reserved resource number */
	PFT_ERR_EVENT_HIGH_BITS,     /* the value has bits above 16 set */
	PFT_ERR_EVENT_B_IGNORED      /* warning: B is not 0 but the function ignores it */
};

/*
 * A short English description of any enum pft_error_code value, return
 * code or reason alike (never NULL; "unknown error" for other values).
 * This is the one message function of libpft.
 */
pft_export const char *pft_errstr(enum pft_error_code code);

/* The error code of a negative return value (or PFT_ERR_OK for >= 0). */
pft_export enum pft_error_code pft_errcode(int status);

/*
 * A located diagnostic: why a call failed, or a note the user should see,
 * as data.  Functions that read files (snapshots, images, inputs) fill one
 * beside their return code: the code, the file and the place in it, and
 * one line of English that names them (@text, what pft prints).  It holds
 * no pointers: it stays valid after the object that filled it is freed.
 */
enum pft_diag_severity {
	PFT_DIAG_ERROR = 0,     /* the call failed with -@code */
	PFT_DIAG_NOTE = 1,      /* worth knowing; the call succeeded */
	PFT_DIAG_WARNING = 2    /* the call succeeded, but the input is damaged
				 * (-@code says how): what could be decoded
				 * was, not all of it */
};

#define PFT_DIAG_NO_OFFSET UINT64_MAX

enum { PFT_DIAG_FILE_MAX = 1024, PFT_DIAG_TEXT_MAX = 2048 };

struct pft_diag {
	uint32_t code;          /* enum pft_error_code: the failure's code
				 * (the negative return value, negated); 0 for
				 * a note */
	uint32_t reason;        /* a finer enum pft_error_code reason
				 * (PFT_ERR_MODEL_*, ...); 0: none */
	uint8_t severity;       /* enum pft_diag_severity */
	uint8_t reserved[3];
	uint32_t line;          /* line of @file (text files); 0: none */
	uint64_t offset;        /* byte offset in @file; PFT_DIAG_NO_OFFSET: none */
	char file[PFT_DIAG_FILE_MAX];  /* the file at fault; "": none */
	char text[PFT_DIAG_TEXT_MAX];  /* "FILE:LINE: ...", "FILE: offset
					* 0xN: ..." or "FILE: ..." */
};

/* ======================================================================
 * Format (pft_fmt_): names made safe for outputs (diagnostic texts are made safe the same way)
 * ====================================================================== */

/* ---- Section: format ---- */

/*
 * Names from input files (symbols, paths) are untrusted: a symbol called
 * "\"}" or "\x1b[2J" must not break a JSON line or drive a terminal.  Both
 * functions write the escaped form of the @len bytes at @src (NULs
 * included) into @dst, at most @cap - 1 bytes and a NUL (nothing when @cap
 * is 0), and return the length the whole escaped form has (not counting
 * the NUL), as snprintf() does: a return >= @cap means @dst was too small.
 * Returns -PFT_ERR_INVALID for NULL @src with @len > 0, NULL @dst with
 * @cap > 0, or a result longer than INT_MAX.  Valid UTF-8 passes through
 * except the control characters U+0000-U+001F, U+007F-U+009F.
 */

/* For the inside of a JSON string: '"' and '\\' get a backslash; the
 * control characters and each byte that is not part of valid UTF-8 become
 * \u00XX (an invalid byte so reads as its Latin-1 character). */
pft_export int pft_fmt_escape_json(char *dst, size_t cap, const char *src,
				   size_t len);

/* For text listings: '\\' becomes "\\\\"; the control characters
 * (ESC: "\x1b") and each byte that is not part of valid UTF-8 become \xXX,
 * one per byte.  The result is printable and reversible. */
pft_export int pft_fmt_escape_text(char *dst, size_t cap, const char *src,
				   size_t len);

/*
 * Numbers written by hand, for listings of millions of lines (printf()
 * parsing its format was most of their time).  Each writes at @p, without
 * a NUL, and returns the end of what it wrote: at most 20 digits (hex:
 * 16, or @digits).
 */

/* How many decimal digits @v has: those of the power of two below it
 * (log10(2) ~ 1233 / 4096), or one more when @v reaches the next power
 * of ten. */
static inline int pft_fmt_ndigits(uint64_t v)
{
	static const uint64_t tens[20] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
		100000000ull, 1000000000ull, 10000000000ull, 100000000000ull,
		1000000000000ull, 10000000000000ull, 100000000000000ull,
		1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
		1000000000000000000ull, 10000000000000000000ull
	};
	int n = ((64 - __builtin_clzll(v | 1)) * 1233) >> 12;

	n += v >= tens[n];
	return n ? n : 1;
}

/* "00" to "99": the digits of 0 to 99 at twice the number. */
static inline const char *pft_fmt_digit_pairs(void)
{
	static const char pairs[201] =
		"0001020304050607080910111213141516171819"
		"2021222324252627282930313233343536373839"
		"4041424344454647484950515253545556575859"
		"6061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";

	return pairs;
}

/* @v's decimal digits, ending just before @end: returns the first.  Four
 * a division of @v, split in two pairs apart from it (the divisions of a
 * number wait for each other). */
static inline char *pft_fmt_digits_before(char *end, uint64_t v)
{
	const char *pairs = pft_fmt_digit_pairs();

	while (v >= 10000) {
		uint64_t q = v / 10000;
		unsigned four = (unsigned)(v - 10000 * q);
		end -= 4;
		memcpy(end, &pairs[2 * (four / 100)], 2);
		memcpy(end + 2, &pairs[2 * (four % 100)], 2);
		v = q;
	}
	if (v >= 100) {
		end -= 2;
		memcpy(end, &pairs[2 * (v % 100)], 2);
		v /= 100;
	}
	if (v >= 10) {
		end -= 2;
		memcpy(end, &pairs[2 * v], 2);
	} else {
		*--end = (char)('0' + v);
	}
	return end;
}

/* As "%" PRIu64. */
static inline char *pft_fmt_dec(char *p, uint64_t v)
{
	char *end = p + pft_fmt_ndigits(v);

	pft_fmt_digits_before(end, v);
	return end;
}

/* As "%0*" PRIx64 with @digits (0: "%" PRIx64): two digits a step from
 * the last; 8 of a value that has no more, in four steps. */
static inline char *pft_fmt_hex(char *p, uint64_t v, int digits)
{
	static const char pairs[513] =
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
		"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
		"404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
		"606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
		"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
		"a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
		"c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
		"e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
	int n = v ? (64 - __builtin_clzll(v) + 3) / 4 : 1;

	if (digits == 8 && n <= 8) {
		memcpy(p, &pairs[2 * (v >> 24 & 0xff)], 2);
		memcpy(p + 2, &pairs[2 * (v >> 16 & 0xff)], 2);
		memcpy(p + 4, &pairs[2 * (v >> 8 & 0xff)], 2);
		memcpy(p + 6, &pairs[2 * (v & 0xff)], 2);
		return p + 8;
	}
	for (; n < digits; digits--)
		*p++ = '0';
	char *end = p + n, *q = end;
	for (; n >= 2; n -= 2, v >>= 8) {
		q -= 2;
		memcpy(q, &pairs[2 * (v & 0xff)], 2);
	}
	if (n)
		q[-1] = "0123456789abcdef"[v & 15];
	return end;
}

/* ---- End of format ---- */

/* The version of this header; pft_library_version() tells that of the
 * library actually loaded (they differ when a program built against one
 * runs with another). */
#define PFT_VERSION_MAJOR 0
#define PFT_VERSION_MINOR 5
#define PFT_VERSION_PATCH 0
#define PFT_VERSION_NUMBER(major, minor, patch) ((major) << 16 | (minor) << 8 | (patch))
#define PFT_VERSION PFT_VERSION_NUMBER(PFT_VERSION_MAJOR, PFT_VERSION_MINOR, PFT_VERSION_PATCH)

/* The library version, "MAJOR.MINOR.PATCH". */
pft_export const char *pft_version(void);

/* The library version as PFT_VERSION_NUMBER(major, minor, patch). */
pft_export unsigned pft_library_version(void);

/* ======================================================================
 * Common: instruction sets and configuration
 * ====================================================================== */

enum pft_isa {
	PFT_ISA_ARM = 0,   /* A32 */
	PFT_ISA_THUMB,     /* T32 (Thumb-2) */
	PFT_ISA_THUMBEE,
	PFT_ISA_JAZELLE,
	PFT_ISA_UNKNOWN
};

/* "arm", "thumb", "thumbee", "jazelle" or "unknown". */
pft_export const char *pft_isa_name(enum pft_isa isa);

/*
 * What a decoder needs to know about the PTM that produced a stream.
 * Initialise with pft_ptm_config_init(), then set fields or derive them from
 * the PTM's registers with pft_ptm_config_from_regs().
 */
struct pft_ptm_config {
	size_t size;                /* sizeof(struct pft_ptm_config) */
	uint8_t version_minor;      /* 0 = PFTv1.0 (Cortex-A9), 1 = PFTv1.1 */
	uint8_t cycle_accurate;     /* ETMCR[12] */
	uint8_t ctxid_bytes;        /* ETMCR[15:14]: 0, 1, 2 or 4 */
	uint8_t timestamps;         /* ETMCR[28]: timestamp packets expected */
	uint8_t ts_64bit;           /* ETMCCER[29] (v1.1): 64-bit timestamps */
	uint8_t ts_gray;            /* timestamps are Gray coded (v1.0, or ETMCCER[28] = 0) */
	uint8_t vmid;               /* ETMCR[30]: VMID packets expected */
	uint8_t return_stack;       /* ETMCR[29] */
	uint8_t branch_broadcast;   /* ETMCR[8] */
	uint8_t dmb_dsb_waypoints;  /* ETMCCER[24] */
	uint8_t trace_id;           /* ETMTRACEIDR[6:0] */
	uint8_t virtualization;     /* ETMCCER[26]: Hyp and VMID meaningful */
	uint8_t reserved[4];
	/* The registers the configuration came from (0 when set by hand). */
	uint32_t etmcr, etmccer, etmidr, etmtraceidr;
};

/* Zero the @size bytes at @cfg and set its size: PFTv1.1, nothing optional
 * enabled, binary 64-bit timestamps.  Returns 0 or -PFT_ERR_INVALID (NULL,
 * @size below the first layout).  Call it through pft_ptm_config_init(). */
pft_export int pft_ptm_config_init_size(struct pft_ptm_config *cfg, size_t size);

static inline int pft_ptm_config_init(struct pft_ptm_config *cfg)
{
	return pft_ptm_config_init_size(cfg, sizeof(*cfg));
}

/*
 * Derive @cfg from a PTM's ETMCR, ETMCCER, ETMIDR and ETMTRACEIDR.
 * @cfg must have been initialised.  Returns 0, -PFT_ERR_INVALID (NULL
 * @cfg) or -PFT_ERR_BAD_CONFIG (ETMIDR does not describe a PTM: its
 * architecture field, bits [11:8], is not 3; @cfg is left unchanged).
 */
pft_export int pft_ptm_config_from_regs(struct pft_ptm_config *cfg, uint32_t etmcr,
				    uint32_t etmccer, uint32_t etmidr,
				    uint32_t etmtraceidr);

/* A trace source's registers that a configuration is made from and gives
 * (pft_ptm_config_to_regs(), pft_etm3_config_to_regs()). */
struct pft_trace_regs {
	size_t size;            /* sizeof(struct pft_trace_regs) */
	uint32_t etmcr, etmccr, etmccer, etmidr, etmtraceidr;
	uint32_t reserved[3];
};

/*
 * The inverse of pft_ptm_config_from_regs(): the registers of a PTM that traces
 * as @cfg says.  The PTM is a Cortex-A15's (PFTv1.1, ETMIDR 0x411CF312)
 * or, with @cfg->version_minor 0, a Cortex-A9's (PFTv1.0, 0x411CF301), and
 * ETMCCR and ETMCCER are that implementation's, with the DMB/DSB waypoints
 * and (v1.1) the timestamp format of @cfg; what an implementation has
 * whatever @cfg says stays its own (the A15's Virtualization Extensions,
 * ETMCCER[26]).  ETMCR has the options of @cfg, ETMTRACEIDR its trace ID.
 * Returns 0, -PFT_ERR_INVALID (NULL, a size below the first layout) or
 * -PFT_ERR_BAD_CONFIG (ctxid_bytes not 0, 1, 2 or 4).
 */
pft_export int pft_ptm_config_to_regs(const struct pft_ptm_config *cfg, struct pft_trace_regs *regs);

/* The protocol ETMIDR's architecture field [11:8] names, an enum
 * pft_protocol: PFT_PROTO_PTM (3), PFT_PROTO_ETMV3 (2) or
 * PFT_PROTO_UNKNOWN.  *@arch (when @arch is not NULL) gets the field. */
pft_export int pft_regs_protocol(uint32_t etmidr, unsigned *arch);

/* Why a PTM configuration is not valid (pft_ptm_config_check()). */
enum pft_ptm_config_problem {
	PFT_PTM_CONFIG_OK = 0,
	PFT_PTM_CONFIG_CTXID_BYTES,   /* ctxid_bytes is not 0, 1, 2 or 4 */
	PFT_PTM_CONFIG_VMID_V10,      /* vmid on PFTv1.0, which has no VMID */
	PFT_PTM_CONFIG_RS_AND_BB      /* return_stack with branch_broadcast */
};

/* The first problem of @cfg that a PTM could not trace as (an enum
 * pft_ptm_config_problem, PFT_PTM_CONFIG_OK for none), or -PFT_ERR_INVALID (NULL,
 * size below the first layout).  The model refuses such a configuration
 * with -PFT_ERR_BAD_CONFIG. */
pft_export int pft_ptm_config_check(const struct pft_ptm_config *cfg);

/* ---- Section: cores (pft_core_) ---- */

/*
 * The cores pft knows, by name: the architecture profile (which decides
 * how exceptions are numbered and, for M, that the code is Thumb only),
 * the trace protocol of their trace unit and its ID registers, from which
 * pft_ptm_config_from_regs() or pft_etm3_config_from_regs() derive the
 * configuration of a trace of that core (with ETMCR giving the options).
 */
struct pft_core {
	const char *name;       /* what pft --core takes: "cortex-m3" */
	const char *type;       /* how OpenCSD snapshots name it: "Cortex-M3" */
	uint8_t profile;        /* enum pft_profile (pft/packets.h) */
	uint8_t protocol;       /* enum pft_protocol (pft/decode.h): PTM or ETMv3 */
	/* enum pft_core_option bits: what its trace unit can do */
	uint16_t options;
	/* Its trace unit's registers: ETMIDR (architecture, version,
	 * branch encoding), ETMCCER (timestamp format, Virtualization
	 * Extensions), ETMCCR (resources; no effect on decoding). */
	uint32_t etmidr, etmccer, etmccr;
};

/* Options a trace unit may lack (struct pft_core.options, and
 * pft_core_lacks()). */
enum pft_core_option {
	PFT_CORE_CYCLE_ACCURATE = 1 << 0,
	PFT_CORE_CTXID = 1 << 1,         /* context ID packets */
	PFT_CORE_VMID = 1 << 2,
	PFT_CORE_TIMESTAMPS = 1 << 3,
	PFT_CORE_RETURN_STACK = 1 << 4,  /* PTM */
	PFT_CORE_DMB_DSB_WAYPOINTS = 1 << 5, /* PTM (ETMCCER[24] set) */
	PFT_CORE_BRANCH_BROADCAST = 1 << 6
};

/* The core named @name ("cortex-m4", or its snapshot type "Cortex-M4";
 * case does not matter), or NULL. */
pft_export const struct pft_core *pft_core_find(const char *name);

/* The @i-th core of the table (0, 1, ...), NULL past the last: cortex-a5,
 * cortex-a7, cortex-a8, cortex-a9, cortex-a15, cortex-r4, cortex-r5,
 * cortex-m3, cortex-m4. */
pft_export const struct pft_core *pft_core_at(size_t i);

/* The options @cfg asks for (cycle-accurate, context ID, VMID,
 * timestamps, return stack, DMB/DSB waypoints, branch broadcast) that
 * @core's trace unit does not have: enum pft_core_option bits, 0 when it
 * has them all (or an argument is NULL). */
pft_export unsigned pft_core_lacks(const struct pft_core *core, const struct pft_ptm_config *cfg);

/*
 * The configuration of @core's PTM programmed with the options of @opts
 * (its ETMCR bits: cycle_accurate, ctxid_bytes, timestamps, vmid,
 * return_stack, branch_broadcast; and trace_id), as
 * pft_ptm_config_from_regs() derives it from that ETMCR and @core's
 * registers (PFT version, timestamp format, DMB/DSB waypoints).  @cfg
 * initialised first.  Returns 0, -PFT_ERR_INVALID (NULL, a size too small)
 * or -PFT_ERR_BAD_CONFIG (@core is not traced by a PTM, or lacks an
 * option of @opts: pft_core_lacks()).
 */
pft_export int pft_ptm_config_for_core(struct pft_ptm_config *cfg, const struct pft_core *core,
				       const struct pft_ptm_config *opts);

/* ---- End of cores ---- */

#ifdef __cplusplus
}
#endif

#endif /* PFT_PUBLIC_COMMON_H */
