/*
 * pft.h - the public interface of libpft, a decoder for ARM CoreSight PTM
 * trace (Program Flow Trace, PFT v1.0 and v1.1).
 *
 * Layers, from the trace sink to what the processor executed.  Each is
 * usable on its own; dependencies point one way (down this table).
 *
 *   abbreviation  layer
 *   ------------  -----------------------------------------------------
 *   pft_          common: errors, configuration, version
 *   pft_dfmt_     frames: CoreSight formatter frames -> per-ID bytes
 *   pft_ffmt_     frames: per-ID bytes -> CoreSight formatter frames
 *   pft_pkt_      packets: PFT bytes -> packets
 *   pft_enc_      packets: packets -> PFT bytes
 *   pft_image_    image: program memory (buffers, files, ELF)
 *   pft_flow_     flow: packets + image -> executed instruction ranges
 *   pft_model_    model: executed-instruction log -> packets
 *   pft_event_    configuration: PTM event register expressions
 *   pft_regs_     configuration: PTM register field explanations
 *   pft_etm3_     ETMv3: bytes -> packets -> flow (Cortex-A5/A7/A8/R4/R5)
 *   pft_perf_     inputs: Linux perf.data files (reader and writer)
 *   pft_detect_   detection: framing, protocol, configuration, fit check
 *
 * Conventions (as libipt):
 *  - Functions return int: >= 0 is success, -PFT_ERR_* is failure.
 *  - Objects come from pft_X_alloc() and go to pft_X_free(); free(NULL)
 *    is a no-op.
 *  - Structs passed in or out start with, or are accompanied by, a size so
 *    that the library and its callers may differ in version.  Any size
 *    from the struct's first layout up is accepted; the library reads and
 *    writes only the bytes both sides know (an older caller's bytes past
 *    its struct are left alone; fields it lacks take their defaults, zero
 *    unless said otherwise).  The first layout ends at the struct's first
 *    `reserved` member (struct pft_insn: the whole struct, @raw included);
 *    a struct without one has a single layout.  A smaller size is
 *    -PFT_ERR_INVALID.  The init functions (pft_config_init(),
 *    pft_etm3_config_init(), pft_event_limits_max()) are inline: they pass
 *    the caller's sizeof to the library, which writes no more than that.
 *  - The library never prints, never exits and has no global mutable state.
 *  - Ownership: configuration is copied; input buffers are borrowed until
 *    the call that consumes them says so; outputs are caller-owned; pointers
 *    inside outputs stay valid until the next call on the same object.
 */
#ifndef PFT_H
#define PFT_H

#include <stddef.h>
#include <stdint.h>

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
	PFT_ERR_MAX,           /* one past the codes that functions return */

	/*
	 * Reasons.  Functions return the codes above; these finer values say
	 * why a packet, an element, a model put or an event expression is bad,
	 * in the fields that carry them (pft_packet.bad, pft_etm3_packet.bad,
	 * pft_elem.reason, pft_model_error(), pft_event_diag.problem).  All
	 * are below 256 so that they fit those uint8_t fields; PFT_ERR_OK (0)
	 * means no reason.
	 */
	/* Packets (PTM and ETMv3): pft_packet.bad, pft_etm3_packet.bad. */
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
	PFT_ERR_FLOW_BAD_INSN,       /* undecodable instruction set (Jazelle, ThumbEE) */
	/* Model: why pft_model_put() refused an instruction. */
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

/* The version of this header; pft_library_version() tells that of the
 * library actually loaded (they differ when a program built against one
 * runs with another). */
#define PFT_VERSION_MAJOR 0
#define PFT_VERSION_MINOR 4
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
 * Initialise with pft_config_init(), then set fields or derive them from
 * the PTM's registers with pft_config_from_regs().
 */
struct pft_config {
	size_t size;                /* sizeof(struct pft_config) */
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
 * @size below the first layout).  Call it through pft_config_init(). */
pft_export int pft_config_init_size(struct pft_config *cfg, size_t size);

static inline int pft_config_init(struct pft_config *cfg)
{
	return pft_config_init_size(cfg, sizeof(*cfg));
}

/*
 * Derive @cfg from a PTM's ETMCR, ETMCCER, ETMIDR and ETMTRACEIDR.
 * @cfg must have been initialised.  Returns 0, -PFT_ERR_INVALID (NULL
 * @cfg) or -PFT_ERR_BAD_CONFIG (ETMIDR does not describe a PTM: its
 * architecture field, bits [11:8], is not 3; @cfg is left unchanged).
 */
pft_export int pft_config_from_regs(struct pft_config *cfg, uint32_t etmcr,
				    uint32_t etmccer, uint32_t etmidr,
				    uint32_t etmtraceidr);

/* A trace source's registers that a configuration is made from and gives
 * (pft_config_to_regs(), pft_etm3_config_to_regs()). */
struct pft_trace_regs {
	size_t size;            /* sizeof(struct pft_trace_regs) */
	uint32_t etmcr, etmccr, etmccer, etmidr, etmtraceidr;
	uint32_t reserved[3];
};

/*
 * The inverse of pft_config_from_regs(): the registers of a PTM that traces
 * as @cfg says.  The PTM is a Cortex-A15's (PFTv1.1, ETMIDR 0x411CF312)
 * or, with @cfg->version_minor 0, a Cortex-A9's (PFTv1.0, 0x411CF301), and
 * ETMCCR and ETMCCER are that implementation's, with the DMB/DSB waypoints
 * and (v1.1) the timestamp format of @cfg; what an implementation has
 * whatever @cfg says stays its own (the A15's Virtualization Extensions,
 * ETMCCER[26]).  ETMCR has the options of @cfg, ETMTRACEIDR its trace ID.
 * Returns 0, -PFT_ERR_INVALID (NULL, a size below the first layout) or
 * -PFT_ERR_BAD_CONFIG (ctxid_bytes not 0, 1, 2 or 4).
 */
pft_export int pft_config_to_regs(const struct pft_config *cfg, struct pft_trace_regs *regs);

/* The protocol ETMIDR's architecture field [11:8] names, an enum
 * pft_protocol: PFT_PROTO_PTM (3), PFT_PROTO_ETMV3 (2) or
 * PFT_PROTO_UNKNOWN.  *@arch (when @arch is not NULL) gets the field. */
pft_export int pft_regs_protocol(uint32_t etmidr, unsigned *arch);

/* Why a PTM configuration is not valid (pft_config_check()). */
enum pft_config_problem {
	PFT_CONFIG_OK = 0,
	PFT_CONFIG_CTXID_BYTES,   /* ctxid_bytes is not 0, 1, 2 or 4 */
	PFT_CONFIG_VMID_V10,      /* vmid on PFTv1.0, which has no VMID */
	PFT_CONFIG_RS_AND_BB      /* return_stack with branch_broadcast */
};

/* The first problem of @cfg that a PTM could not trace as (an enum
 * pft_config_problem, PFT_CONFIG_OK for none), or -PFT_ERR_INVALID (NULL,
 * size below the first layout).  The model refuses such a configuration
 * with -PFT_ERR_BAD_CONFIG. */
pft_export int pft_config_check(const struct pft_config *cfg);

/* ======================================================================
 * Frames: CoreSight formatter frames (deformatter)
 * ====================================================================== */

/* Trace IDs with a special meaning. */
enum {
	PFT_ID_NULL = 0x00,     /* padding */
	PFT_ID_MAX_VALID = 0x6f /* 0x01-0x6f are sources; 0x70-0x7f reserved */
};

/*
 * What the deformatter delivers: the bytes of the source IDs 0x01-0x6f.
 * Data for ID 0x00 (padding), for the reserved IDs 0x70-0x7e and for no
 * ID at all (before the first ID byte, after a discontinuity or a bad
 * frame) is discarded.  An ID byte 0x7f (0xff) makes the frame bad.
 */
struct pft_dfmt_config {
	size_t size;            /* sizeof(struct pft_dfmt_config) */
	/* 0: memory buffer (ETB/ETF/ETR): frames from offset 0, no syncs;
	 *    a frame made of four FSYNCs (the Linux perf driver's marker
	 *    between buffer chunks) is a discontinuity.
	 * 1: trace-port capture (TPIU/DSTREAM): bytes up to the first FSYNC
	 *    (FF FF FF 7F, at any byte offset) are skipped; frames start
	 *    after it; FSYNCs between frames and HSYNCs (FF 7F) at any
	 *    16-bit aligned place are removed; four FSYNCs in a row are a
	 *    discontinuity. */
	uint8_t tpiu;
	uint8_t reserved[7];    /* must be zero */
};

enum pft_dfmt_chunk_flags {
	/* Four FSYNCs in a row (one frame): the capture is discontinuous
	 * here; per-ID decoders should be reset.  The chunk has no data
	 * (len 0, id 0); offset is that of the first of the FSYNCs.  The
	 * current ID is forgotten. */
	PFT_DFMT_DISCONTINUITY = 1 << 0
};

/* Bytes of one trace ID taken from one frame.  data[i] was at input
 * offset offset + i (its bit 0 may come from the auxiliary byte).
 * Offsets count every byte fed, syncs included.  A chunk ends at each
 * ID byte, at the end of the frame and at a removed HSYNC; the byte that
 * an ID change with auxiliary bit 1 leaves to the previous ID is a
 * chunk of its own. */
struct pft_dfmt_chunk {
	uint8_t id;
	uint8_t flags;          /* pft_dfmt_chunk_flags */
	const uint8_t *data;    /* valid until the next call on the deformatter */
	size_t len;
	uint64_t offset;
};

struct pft_dfmt;

/* Returns NULL on failure, with the error code in *@errcode if given
 * (-PFT_ERR_INVALID: @cfg->size too small, @cfg->tpiu not 0 or 1, or a
 * reserved byte not zero; -PFT_ERR_NOMEM). @cfg may be NULL (memory
 * buffer).  The deformatter never allocates afterwards. */
pft_export struct pft_dfmt *pft_dfmt_alloc(const struct pft_dfmt_config *cfg,
					   int *errcode);
pft_export void pft_dfmt_free(struct pft_dfmt *d);

/* Give the deformatter the next @len bytes of input (any size: an
 * incomplete frame is kept until the rest comes).  The buffer is
 * borrowed until pft_dfmt_next() returns -PFT_ERR_NEED_INPUT.  Returns 0,
 * -PFT_ERR_INVALID (NULL @d, NULL @buf with @len > 0, or the previous
 * buffer is not used up yet), or -PFT_ERR_EOS after pft_dfmt_finish(). */
pft_export int pft_dfmt_feed(struct pft_dfmt *d, const uint8_t *buf, size_t len);

/*
 * The next chunk, in @chunk (@size = sizeof *chunk).  Returns 0 and fills
 * @chunk; -PFT_ERR_NEED_INPUT when the fed input is used up;
 * -PFT_ERR_EOS after pft_dfmt_finish() once all is returned;
 * -PFT_ERR_TRUNCATED once, after finish, when the input ended inside a
 * frame (get_offset tells where; its bytes are dropped);
 * -PFT_ERR_BAD_FRAME for a frame that cannot be valid (an ID byte 0x7f;
 * in trace-port mode an FF FF pair inside a frame, or an FSYNC cut short):
 * get_offset gives the frame's offset, none of its bytes are delivered,
 * the current ID is forgotten and decoding goes on with the next frame
 * (trace-port mode: after the next FSYNC, searched from the FF FF pair);
 * -PFT_ERR_INVALID for NULL @d or @chunk, or @size < sizeof *chunk.
 * @chunk is only written when 0 is returned.
 */
pft_export int pft_dfmt_next(struct pft_dfmt *d, struct pft_dfmt_chunk *chunk,
			     size_t size);

/* No more input will come. Returns 0 or -PFT_ERR_INVALID. */
pft_export int pft_dfmt_finish(struct pft_dfmt *d);

/* Input offset of the frame being worked on (or of the last error);
 * 0 for NULL @d. */
pft_export uint64_t pft_dfmt_get_offset(const struct pft_dfmt *d);

/* ======================================================================
 * Packets: PFT packet decoder
 * ====================================================================== */

enum pft_packet_type {
	PFT_PKT_NOTSYNC = 0,      /* bytes before synchronisation */
	PFT_PKT_ASYNC,
	PFT_PKT_ISYNC,
	PFT_PKT_ATOM,
	PFT_PKT_BRANCH,
	PFT_PKT_WAYPOINT,
	PFT_PKT_TRIGGER,
	PFT_PKT_CONTEXTID,
	PFT_PKT_VMID,
	PFT_PKT_TIMESTAMP,
	PFT_PKT_IGNORE,
	PFT_PKT_EXCEPTION_RETURN,
	PFT_PKT_BAD,              /* see pft_packet.bad */
	PFT_PKT_TYPE_MAX
};

/* "notsync", "async", "isync", "atom", "branch", "waypoint", "trigger",
 * "ctxid", "vmid", "timestamp", "ignore", "exception_return", "error". */
pft_export const char *pft_pkt_type_name(enum pft_packet_type type);

enum pft_isync_reason {
	PFT_ISYNC_PERIODIC = 0,
	PFT_ISYNC_TRACE_ON = 1,
	PFT_ISYNC_OVERFLOW = 2,
	PFT_ISYNC_DEBUG_EXIT = 3
};

/* "periodic", "trace_on", "overflow", "debug". */
pft_export const char *pft_isync_reason_name(unsigned reason);

/* Exception numbers (branch packet Exception field, ARMv7-A/R). */
enum pft_exception {
	PFT_EXC_NONE = 0,
	PFT_EXC_DEBUG_HALT = 1,
	PFT_EXC_SMC = 2,
	PFT_EXC_HYP = 3,
	PFT_EXC_ASYNC_DATA_ABORT = 4,
	PFT_EXC_THUMBEE_CHECK = 5,
	PFT_EXC_RESET = 8,
	PFT_EXC_UNDEFINED = 9,
	PFT_EXC_SVC = 10,
	PFT_EXC_PREFETCH_ABORT = 11,
	PFT_EXC_DATA_ABORT = 12,
	PFT_EXC_GENERIC = 13,
	PFT_EXC_IRQ = 14,
	PFT_EXC_FIQ = 15
};

/* A short name for an exception number ("irq", "svc", ..., "reserved"). */
pft_export const char *pft_exception_name(unsigned number);

/*
 * One packet.  Which fields mean something depends on @type; the others
 * are zero.  The struct is 64 bytes (one cache line): it is written once
 * per packet on the decoder's hot path.
 */
struct pft_packet {
	uint64_t offset;          /* input offset of the first byte */
	const uint8_t *raw;       /* the @size bytes; valid until the next call */

	/* TIMESTAMP: the timestamp after merging this packet's bits into the
	 * previous value and, for Gray-coded streams, converting to binary. */
	uint64_t ts;
	uint64_t ts_raw;          /* merged value as sent (Gray for Gray streams) */

	/* ISYNC, BRANCH, WAYPOINT: the full (decompressed) address. */
	uint32_t addr;
	uint32_t cycles;          /* cycle count, when has_cycles */
	uint32_t ctxid;           /* ISYNC (with ctxid_bytes > 0), CONTEXTID */
	uint16_t size;            /* bytes in the packet (at most 16) */
	uint16_t exception;       /* BRANCH: exception number, 0 = none */

	uint8_t type;             /* enum pft_packet_type */
	uint8_t isa;              /* ISYNC, BRANCH, WAYPOINT: enum pft_isa at addr
				   (PFT_ISA_UNKNOWN: see @addr_bits) */
	uint8_t addr_bytes;       /* BRANCH, WAYPOINT: address bytes, 1-5 */
	uint8_t reason;           /* ISYNC: enum pft_isync_reason */
	/* ISYNC; BRANCH with exception bytes (hyp: only with EX1);
	 * WAYPOINT with its information byte (altis). */
	uint8_t ns, hyp, altis;
	/* BRANCH: exception information bytes (0-2); WAYPOINT: 1 when the
	 * information byte is present. */
	uint8_t exc_bytes;
	uint8_t has_cycles;       /* cycle count present (cycle-accurate) */
	/* ATOM: @n_atoms atoms; bit i of @atoms is atom i, oldest first,
	 * 1 = E (executed), 0 = N (not executed). */
	uint8_t n_atoms;
	uint8_t atoms;
	uint8_t has_ctxid;
	uint8_t vmid;             /* VMID */
	uint8_t ts_bits;          /* TIMESTAMP: low-order bits this packet updated */
	uint8_t ts_clock_change;  /* TIMESTAMP: header R bit, the clock changed */
	uint8_t bad;              /* BAD: PFT_ERR_PKT_* (enum pft_error_code) */
	/* ISYNC, BRANCH, WAYPOINT: the low-order bits of @addr the trace gave
	 * (32 from an I-sync or a full address on).  Before the first I-sync
	 * or full address a compressed address gives fewer: the bits above
	 * are 0, not known, and @isa is PFT_ISA_UNKNOWN (the bits are placed
	 * as for ARM code; for Thumb code they would sit one bit lower). */
	uint8_t addr_bits;
};

struct pft_pkt_decoder;

/* Allocate a packet decoder for a stream described by @cfg (copied).
 * Returns NULL with *@errcode set (if @errcode is not NULL) to
 * -PFT_ERR_INVALID, -PFT_ERR_BAD_CONFIG (ctxid_bytes not 0/1/2/4) or
 * -PFT_ERR_NOMEM. */
pft_export struct pft_pkt_decoder *pft_pkt_alloc(const struct pft_config *cfg,
						 int *errcode);
pft_export void pft_pkt_free(struct pft_pkt_decoder *d);

/*
 * Give the decoder the next @len bytes of the stream.  The buffer is
 * borrowed until pft_pkt_next() returns -PFT_ERR_NEED_INPUT.  Offsets
 * continue from the previous feed (pft_pkt_feed) or start at @offset
 * (pft_pkt_feed_at; for input whose bytes are not contiguous in the file,
 * such as formatted frames).  Returns 0, -PFT_ERR_INVALID (NULL @d, NULL
 * @buf with @len > 0, or bytes of the previous feed not yet decoded: feed
 * again only after -PFT_ERR_NEED_INPUT), or -PFT_ERR_EOS after
 * pft_pkt_finish().
 */
pft_export int pft_pkt_feed(struct pft_pkt_decoder *d, const uint8_t *buf,
			    size_t len);
pft_export int pft_pkt_feed_at(struct pft_pkt_decoder *d, const uint8_t *buf,
			       size_t len, uint64_t offset);

/*
 * The next packet, in @pkt (@size = sizeof *pkt).  Returns:
 *   0                    a packet (including NOTSYNC bytes)
 *   -PFT_ERR_NEED_INPUT  feed more (or finish); never after finish
 *   -PFT_ERR_EOS         after finish, nothing is left
 *   -PFT_ERR_BAD_OPCODE  a reserved header (0x80 and 0x82 are reserved
 *                        without cycle-accurate mode): @pkt is a BAD packet
 *   -PFT_ERR_BAD_PACKET  a malformed packet (a zero run not ended by
 *                        0x80 after at least 5 zeros): a BAD packet
 *   -PFT_ERR_TRUNCATED   after finish, the stream ended inside a packet:
 *                        @pkt is a BAD packet holding the bytes
 *   -PFT_ERR_INVALID     bad arguments
 * After a BAD packet the decoder is no longer synchronised: the following
 * bytes come back as NOTSYNC up to the next A-sync.  Every byte fed comes
 * back in exactly one packet, in order.  An A-sync is zeros and 0x80; it
 * has fewer than five zeros (even none) only when a damaged packet before
 * it took its first zeros (the pattern cannot occur inside packets,
 * pft-protocol.md 5.1, so the decoder realigns on it).  An A-sync packet
 * holds at most 15 zeros: the zeros of a longer one (any length) come
 * first, as A-sync packets of 1-16 zeros and no 0x80.
 */
pft_export int pft_pkt_next(struct pft_pkt_decoder *d, struct pft_packet *pkt,
			    size_t size);

/*
 * Up to @n packets at once, into @pkts[0..n-1] (@size = sizeof *pkts):
 * the same packets pft_pkt_next() gives, faster.  Returns how many (>= 1),
 * or, when not even one good packet can be returned, what pft_pkt_next()
 * returns (a BAD packet is then in @pkts[0]).  A BAD packet always comes
 * alone.  -PFT_ERR_INVALID: NULL arguments, @n 0, or @size not
 * sizeof(struct pft_packet).
 */
pft_export int pft_pkt_next_batch(struct pft_pkt_decoder *d, struct pft_packet *pkts,
				  size_t n, size_t size);

/* No more input will come. Returns 0 or -PFT_ERR_INVALID. */
pft_export int pft_pkt_finish(struct pft_pkt_decoder *d);

/* Give up synchronisation: bytes up to the next A-sync are NOTSYNC.
 * The compression and timestamp state is kept. Returns 0 or
 * -PFT_ERR_INVALID. */
pft_export int pft_pkt_sync_forward(struct pft_pkt_decoder *d);

/* Forget everything (state, pending bytes, finish) as if just allocated,
 * keeping the configuration. Returns 0 or -PFT_ERR_INVALID. */
pft_export int pft_pkt_reset(struct pft_pkt_decoder *d);

/* Offset of the next byte the decoder will look at. */
pft_export uint64_t pft_pkt_get_offset(const struct pft_pkt_decoder *d);

/* ---- Section: packet encoder (pft_enc_) ---- */

/*
 * The packet encoder turns struct pft_packet values into PFT bytes, exactly
 * as pft-protocol.md describes them.  It owns the compression state a PTM
 * keeps: the previous address-bearing packet (address, ISA), the NS, AltIS
 * and Hyp state last sent, the context ID last sent and the previous
 * timestamp.  Packets are encoded in stream order.
 *
 * Input fields by packet type (the others are ignored).  The decoder's
 * outputs @size, @offset, @raw, @addr_bytes, @exc_bytes, @ts_raw, @ts_bits
 * and @bad, and @altis (the ISA gives it) are always ignored.
 *
 *   ASYNC      -- always `00 00 00 00 00 80`.
 *   ISYNC      addr, isa (ARM, THUMB, THUMBEE), reason, ns, hyp (v1.1
 *              only), has_cycles + cycles (exactly when cycle-accurate and
 *              reason != periodic), has_ctxid + ctxid (when ctxid_bytes >
 *              0; without has_ctxid the last context ID sent is repeated,
 *              0 at first).
 *   ATOM       n_atoms (1-5; 1 when cycle-accurate), atoms (bit i = atom i,
 *              oldest first, 1 = E; bits above n_atoms ignored),
 *              has_cycles + cycles (exactly when cycle-accurate).
 *   BRANCH     addr, isa (ARM, THUMB, THUMBEE, JAZELLE), exception (0-511),
 *              ns, hyp: the state at the target, always (the encoder
 *              decides whether exception bytes must carry it),
 *              has_cycles + cycles (exactly when cycle-accurate).
 *   WAYPOINT   addr, isa (ARM, THUMB, THUMBEE); never cycles.
 *   CONTEXTID  ctxid (must fit in ctxid_bytes, which must not be 0).
 *   VMID       vmid (PFTv1.1 only).
 *   TIMESTAMP  ts (binary; Gray coded here when cfg->ts_gray), fits the
 *              width (48 bits unless cfg->ts_64bit), ts_clock_change,
 *              has_cycles + cycles (exactly when cycle-accurate).
 *   TRIGGER, IGNORE, EXCEPTION_RETURN -- no fields.
 *
 * Addresses must be aligned for their ISA (ARM 4, Thumb/ThumbEE 2).
 *
 * Which compression the encoder chooses (address bytes, EX0/EX1, waypoint
 * information bytes, timestamp and cycle-count widths) is documented in
 * doc/model.md; decoders must accept any valid choice.
 */
struct pft_encoder;

/* Allocate an encoder for a stream described by @cfg (copied; it uses
 * version_minor, cycle_accurate, ctxid_bytes, ts_64bit and ts_gray).
 * Returns NULL with *@errcode set (if @errcode is not NULL) to
 * -PFT_ERR_INVALID (NULL @cfg, or @cfg->size too small to hold ts_gray),
 * -PFT_ERR_BAD_CONFIG (ctxid_bytes not 0, 1, 2 or 4) or
 * -PFT_ERR_NOMEM. */
pft_export struct pft_encoder *pft_enc_alloc(const struct pft_config *cfg,
					     int *errcode);
pft_export void pft_enc_free(struct pft_encoder *e);

/* Encode @pkt into @out (@outlen bytes; PFT_ENC_MAX_PACKET is always
 * enough).  Returns the number of bytes written, -PFT_ERR_INVALID (NULL
 * argument, bad type or a field out of range or not allowed by the
 * configuration, see above) or -PFT_ERR_NOSPACE (@outlen too small).  On
 * error nothing is written and the state is unchanged. */
pft_export int pft_enc_packet(struct pft_encoder *e,
			      const struct pft_packet *pkt, uint8_t *out,
			      size_t outlen);

enum {
	PFT_ENC_MAX_PACKET = 16  /* bytes; the longest packet has 15 */
};

/* Forget the compression state as if just allocated: the next address is
 * sent in 5 bytes, the next branch carries EX0, the next timestamp is full
 * and the context ID last sent is 0.  Returns 0 or -PFT_ERR_INVALID. */
pft_export int pft_enc_reset(struct pft_encoder *e);

/* Send the next timestamp in full width (a T-sync), as a PTM does
 * periodically.  Returns 0 or -PFT_ERR_INVALID. */
pft_export int pft_enc_force_tsync(struct pft_encoder *e);

/* frames: formatter */

/*
 * The formatter interleaves several sources' byte streams into 16-byte
 * CoreSight frames (pft-flow.md section 11).  Each ID change costs one
 * byte: when the previous source's last byte would take an ID-or-data slot,
 * the ID goes there with aux bit 1 and that byte moves to the following
 * data slot (it still belongs to the previous ID).
 *
 * Memory-buffer mode (ETB/ETF/ETR): frames only.  Trace-port mode (TPIU):
 * an FSYNC (`ff ff ff 7f`) before the first frame and then before every
 * @fsync_period-th frame, and the current ID repeated in a frame's first
 * slot when the previous 7 frames had no ID byte.  No HSYNCs.
 */
struct pft_ffmt_config {
	size_t size;            /* sizeof(struct pft_ffmt_config) */
	uint8_t tpiu;           /* 0: memory buffer, 1: trace port */
	uint8_t fsync_period;   /* TPIU: frames per FSYNC; 0 means 8 */
	uint8_t reserved[6];
};

struct pft_ffmt;

/* Returns NULL on failure, with the error code in *@errcode if given
 * (-PFT_ERR_INVALID: @cfg->size too small; -PFT_ERR_NOMEM). @cfg may be
 * NULL (memory buffer). */
pft_export struct pft_ffmt *pft_ffmt_alloc(const struct pft_ffmt_config *cfg,
					   int *errcode);
pft_export void pft_ffmt_free(struct pft_ffmt *f);

/* Append @len bytes of source @id (0x01-0x6f).  The bytes are copied.
 * Returns 0, -PFT_ERR_INVALID (NULL @f, NULL @data with @len > 0, or @id
 * out of range) or -PFT_ERR_NOMEM. */
pft_export int pft_ffmt_put(struct pft_ffmt *f, uint8_t id,
			    const uint8_t *data, size_t len);

/* Move up to @cap bytes of finished output (whole frames, with their
 * FSYNCs in TPIU mode; a small @cap may split a frame) to @out.  Returns
 * the number of bytes moved (0 when none is ready; at most INT_MAX) or
 * -PFT_ERR_INVALID (NULL @f, or NULL @out with @cap > 0). */
pft_export int pft_ffmt_take(struct pft_ffmt *f, uint8_t *out, size_t cap);

/* Bytes of finished output waiting for pft_ffmt_take() (0 for NULL @f). */
pft_export size_t pft_ffmt_ready(const struct pft_ffmt *f);

/* Finish the frame being built by padding it with ID 0 data (as an ETB
 * does when stopped), so that all bytes put so far can be taken.  Nothing
 * is added when no frame is open.  Returns 0, -PFT_ERR_INVALID or
 * -PFT_ERR_NOMEM. */
pft_export int pft_ffmt_flush(struct pft_ffmt *f);

/* ---- End of packet encoder ---- */

/* ======================================================================
 * Image: program memory
 * ====================================================================== */

/* ---- Section: image (pft_image_) ---- */

/*
 * An image is the program memory a flow decoder reads instructions from:
 * sections of bytes at 32-bit virtual addresses, each in a memory space,
 * plus the symbols of ELF files for listings.
 *
 * Memory spaces.  PTM trace tells the security state (NS bit), and code at
 * one address may differ between the Secure and Non-secure worlds.  A
 * section of space ANY serves every request; a SECURE or NONSECURE section
 * serves requests for its own space and requests for ANY.  Snapshot
 * [dump] spaces map as: S, EL1S, EL2S, EL3 -> SECURE; N, EL1N, EL2 ->
 * NONSECURE; ANY (or none) -> ANY.
 *
 * Overlaps.  Within one space sections never overlap: an add that would
 * make two sections of the same space, or an ANY section and any other
 * section, share an address fails with -PFT_ERR_BAD_CONFIG and changes
 * nothing; pft_image_conflict() then names the section in the way.  A
 * SECURE and a NONSECURE section may cover the same addresses; a request
 * for ANY there gets the SECURE one.
 *
 * Threads.  pft_image_read() and pft_image_map() keep a last-hit cache and
 * a scratch buffer inside the image, so one image must not be used by two
 * threads at once.  The const functions may run concurrently.
 */
enum pft_mem_space {
	PFT_SPACE_ANY = 0,
	PFT_SPACE_SECURE,
	PFT_SPACE_NONSECURE
};

enum pft_image_flags {
	/* pft_image_add_buffer(): copy the bytes (otherwise the buffer is
	 * borrowed and must outlive the image, unchanged). */
	PFT_IMAGE_COPY = 1 << 0
};

struct pft_image;

/* Returns NULL on failure with *@errcode (if not NULL) set to
 * -PFT_ERR_NOMEM; on success *@errcode is 0. */
pft_export struct pft_image *pft_image_alloc(int *errcode);

/* Frees the image, its copies of files and buffers, and its symbols.
 * Borrowed buffers are not touched.  NULL is a no-op. */
pft_export void pft_image_free(struct pft_image *img);

/*
 * Add @len bytes at @buf as memory at @vaddr .. @vaddr + @len - 1 in
 * @space.  @flags: 0 or PFT_IMAGE_COPY.  Returns the new section's index
 * (for pft_image_section()), or:
 *   -PFT_ERR_INVALID     NULL @img or @buf, @len 0, the section would pass
 *                        0xFFFFFFFF, bad @space or unknown @flags
 *   -PFT_ERR_BAD_CONFIG  it overlaps a section of the same space (see
 *                        pft_image_conflict())
 *   -PFT_ERR_NOMEM
 */
pft_export int pft_image_add_buffer(struct pft_image *img, uint32_t vaddr,
				    const uint8_t *buf, size_t len,
				    enum pft_mem_space space, unsigned flags);

/*
 * Add @size bytes of the regular file @path, from @file_offset, at @vaddr
 * in @space (a snapshot [dump]).  @size 0 means up to the end of the file.
 * The bytes are read once, now.  Returns the new section's index, or:
 *   -PFT_ERR_INVALID     NULL @img or @path, bad @space, or the section
 *                        would pass 0xFFFFFFFF
 *   -PFT_ERR_BAD_FILE    the file cannot be opened or read, is not a
 *                        regular file, or has no byte at @file_offset, or
 *                        fewer than @size bytes from there (an empty file
 *                        fails this way too)
 *   -PFT_ERR_BAD_CONFIG  it overlaps a section of the same space
 *   -PFT_ERR_NOMEM
 */
pft_export int pft_image_add_file(struct pft_image *img, const char *path,
				  uint64_t file_offset, uint64_t size,
				  uint32_t vaddr, enum pft_mem_space space);

/*
 * Add a 32-bit little-endian ARM ELF file (ET_EXEC or ET_DYN): the
 * file-backed bytes (p_filesz) of each PT_LOAD segment, at p_vaddr + @bias
 * in space ANY, and its symbols (.symtab, or .dynsym without it; values
 * also moved by @bias).  Bytes between p_filesz and p_memsz (.bss) are not
 * added.  All or nothing: on failure the image is unchanged.  Returns the
 * number of sections added (>= 1), or:
 *   -PFT_ERR_INVALID       NULL @img or @path; @bias moves a segment out
 *                          of 0 .. 0xFFFFFFFF
 *   -PFT_ERR_BAD_FILE      unreadable or empty file, not ELF, or malformed
 *                          ELF: truncated headers, program or section
 *                          header table outside the file, a segment outside
 *                          the file or past 0xFFFFFFFF, segments
 *                          overlapping each other, no loadable bytes, a
 *                          broken symbol or string table
 *   -PFT_ERR_NOT_SUPPORTED an ELF that is not 32-bit, little-endian, ARM
 *                          (e_machine 40), ET_EXEC or ET_DYN
 *   -PFT_ERR_BAD_CONFIG    a segment overlaps a section already there (see
 *                          pft_image_conflict())
 *   -PFT_ERR_NOMEM
 *   -PFT_ERR_INTERNAL      libelf refused to initialise
 * The whole file is read into memory while loading; the image keeps only
 * the segment bytes and the string table.
 */
pft_export int pft_image_add_elf(struct pft_image *img, const char *path,
				 int64_t bias);

/* What pft_image_add_elf_beneath() found where the image had bytes. */
struct pft_image_overlap {
	uint64_t covered;          /* ELF bytes left out: the image had some */
	uint64_t differ;           /* of those, bytes that differ */
	uint32_t first_differ;     /* the lowest such address (@differ > 0) */
	uint32_t reserved;         /* 0 */
};

/*
 * Add an ELF as pft_image_add_elf() does, except that where the image has
 * bytes already (a section of any space, such as a memory dump of the
 * running program, which may have patched its code), those are kept: the
 * ELF's segments fill only the addresses nothing covers, and the bytes they
 * would have put elsewhere are compared with the ones there, the result in
 * *@ov (@size = sizeof *@ov).  The symbols are added as usual.  Returns the
 * number of sections added (0 when the image covered every segment), or
 * the codes of pft_image_add_elf() (never -PFT_ERR_BAD_CONFIG), or
 * -PFT_ERR_INVALID for a NULL @ov or @size 0.
 */
pft_export int pft_image_add_elf_beneath(struct pft_image *img, const char *path,
					 int64_t bias, struct pft_image_overlap *ov,
					 size_t size);

/*
 * Add only the symbols of @path, moved by @bias; its bytes are not code.
 * @path is an ELF file (by its magic: the symbols pft_image_add_elf()
 * takes, with the ISA of its mapping symbols) or a symbol listing: a
 * System.map or /proc/kallsyms, lines "ADDR TYPE NAME" with an optional
 * "\t[module]" after the name.  Of a listing, the code symbols (types t, T,
 * w, W; ranked global T, weak W/w, local t; bit 0 of an address, a Thumb
 * function's, is cleared) are names; each reaches the next listed address
 * (of any type) above its own, the last one 4 bytes.  Other types end the
 * code symbol before them and are not names; ARM mapping symbols ($a, $t,
 * $d) are neither; addresses that do not fit 32 bits after @bias are left
 * out.  Bounds (the file may be hostile): a line of 4096 bytes at most, at
 * most 4 194 304 listed symbols; memory does not grow with the file past
 * that.  Returns the number of symbols added (0: the file names no code),
 * or:
 *   -PFT_ERR_INVALID   NULL @img or @path, @bias beyond 32 bits
 *   -PFT_ERR_BAD_FILE  cannot be opened or read, not a regular file; a
 *                      listing with a line that is not "ADDR TYPE NAME
 *                      [module]" (binary data, a line too long), too many
 *                      symbols, or every address 0 (kallsyms read without
 *                      the right to see addresses); a malformed ELF
 *   -PFT_ERR_NOT_SUPPORTED  an ELF that is not 32-bit little-endian ARM
 *   -PFT_ERR_NOMEM
 * On failure the image's symbols are unchanged.
 */
pft_export int pft_image_add_symbols(struct pft_image *img, const char *path,
				     int64_t bias);

/*
 * Install a memory-read callback for addresses no section covers (as
 * libipt's read_memory_callback_t), or with NULL @read remove it.  @read
 * may fill up to @len bytes at @buf with the memory at @addr in @space and
 * returns how many (values above @len count as @len), or <= 0 when it has
 * nothing there.  @len never reaches into a section that would serve the
 * request.  @ctx is passed through.  Returns 0 or -PFT_ERR_INVALID (NULL
 * @img).
 */
pft_export int pft_image_set_callback(struct pft_image *img,
				      int (*read)(uint8_t *buf, size_t len,
						  uint32_t addr,
						  enum pft_mem_space space,
						  void *ctx),
				      void *ctx);

/*
 * Copy up to @len bytes of memory at @addr in @space to @buf.  The read
 * continues through adjacent sections and callback memory and stops at the
 * first address that nothing serves.  Returns the number of bytes copied
 * (1 .. min(@len, INT_MAX)), or:
 *   -PFT_ERR_NOMAP    nothing serves @addr
 *   -PFT_ERR_INVALID  NULL @img or @buf, @len 0, bad @space
 */
pft_export int pft_image_read(struct pft_image *img, uint32_t addr,
			      enum pft_mem_space space, uint8_t *buf,
			      size_t len);

/*
 * The bytes at @addr in @space without copying: *@ptr points at @addr's
 * byte and the return value (1 .. INT_MAX) says how many contiguous bytes
 * follow there, up to the end of one section (the next section, even if
 * adjacent, needs another call; pft_image_read() joins them).  *@ptr
 * stays valid while the image lives, except for callback memory, which is
 * in a scratch buffer valid until the next pft_image_read()/map() call.
 * Returns -PFT_ERR_NOMAP (nothing serves @addr) or -PFT_ERR_INVALID (NULL
 * @img or @ptr, bad @space).
 */
pft_export int pft_image_map(struct pft_image *img, uint32_t addr,
			     enum pft_mem_space space, const uint8_t **ptr);

/* Where a section's bytes came from, for messages. */
struct pft_image_section_info {
	uint32_t vaddr;            /* first address */
	uint64_t length;           /* bytes (1 .. 2^32) */
	enum pft_mem_space space;
	const char *path;          /* the file (as given), NULL for buffers;
				      valid while the image lives */
	uint64_t file_offset;      /* offset of the first byte in @path */
	int elf_segment;           /* program header index, -1 if not ELF */
};

/*
 * Section @index (0 = the first added; sections are numbered in the order
 * they were added).  @size = sizeof *@info.  Returns 0, -PFT_ERR_EOS
 * (@index is past the last section) or -PFT_ERR_INVALID (NULL @img or
 * @info, @size 0).
 */
pft_export int pft_image_section(const struct pft_image *img, size_t index,
				 struct pft_image_section_info *info,
				 size_t size);

/*
 * After an add failed with -PFT_ERR_BAD_CONFIG: the index of the section
 * that was in the way in *@index and the lowest address both cover in
 * *@addr (of several in the way, the one that starts meeting first).
 * Returns 0, -PFT_ERR_NOMAP (the last add on @img did not fail because of
 * an overlap) or -PFT_ERR_INVALID (NULL argument).
 */
pft_export int pft_image_conflict(const struct pft_image *img, size_t *index,
				  uint32_t *addr);

/*
 * The symbol at @addr: *@name (valid while the image lives) and @addr's
 * *@offset from its start.  Symbols are the ELF function, object and
 * untyped (assembler label) symbols defined in a section, with the Thumb
 * bit of function values cleared; ARM mapping symbols ($a, $t, $d) are not
 * names.  The candidate is the symbol with the highest start at or below
 * @addr; it covers st_size bytes (size 0: up to the end of its ELF
 * section).  So a symbol nested in a bigger one ends the bigger one's
 * reach.  Of symbols starting at the same address, functions come before
 * objects before labels, then global before weak before local, then sized
 * before unsized; the first that covers @addr is the answer.  Returns 0, or
 * -PFT_ERR_NOMAP (no symbol covers @addr) or -PFT_ERR_INVALID (NULL
 * @img or @name; @offset may be NULL).  Look-ups take O(log n) time for n
 * symbols, however many share a start.
 */
pft_export int pft_image_symbolize(const struct pft_image *img, uint32_t addr,
				   const char **name, uint32_t *offset);

/* A symbol: its name (valid while the image lives) and the addresses it
 * covers, @start .. @end - 1 (as pft_image_symbolize() sees them).  @end
 * is 64-bit so that a symbol reaching 0xFFFFFFFF ends at 2^32. */
struct pft_image_symbol {
	const char *name;
	uint32_t start;
	uint32_t reserved;         /* 0 */
	uint64_t end;              /* exclusive, @start + 1 .. 2^32 */
};

/*
 * The symbol that covers @addr (the one pft_image_symbolize() names), in
 * *@sym (@size = sizeof *@sym).  Returns 0, -PFT_ERR_NOMAP (no symbol covers
 * @addr) or -PFT_ERR_INVALID (NULL @img or @sym, @size 0).
 */
pft_export int pft_image_symbol_at(const struct pft_image *img, uint32_t addr,
				   struct pft_image_symbol *sym, size_t size);

/*
 * The instruction set at @addr according to the ELF ARM mapping symbols
 * ($a: PFT_ISA_ARM, $t: PFT_ISA_THUMB, $d: PFT_ISA_UNKNOWN, data), each
 * covering up to the next mapping symbol or the end of its ELF section; for
 * an ELF without mapping symbols, according to its sized function symbols
 * (Thumb bit).  Returns the enum pft_isa value, or -PFT_ERR_NOMAP (nothing
 * known at @addr) or -PFT_ERR_INVALID (NULL @img).
 */
pft_export int pft_image_isa(const struct pft_image *img, uint32_t addr);

/* ---- End of image ---- */

/* ======================================================================
 * Flow: executed instruction ranges
 * ====================================================================== */

/* ---- Section: flow (pft_flow_) ---- */

/*
 * The flow decoder turns the packets of one trace source into what the
 * processor executed, reading the instructions between waypoints from a
 * program image (pft-flow.md).  Put a packet, then take elements with
 * pft_flow_next() until -PFT_ERR_NEED_INPUT.
 */
enum pft_elem_type {
	PFT_ELEM_RANGE = 0,        /* instructions executed in sequence */
	PFT_ELEM_NO_SYNC,          /* decoding is not (or no longer) synchronised */
	PFT_ELEM_TRACE_ON,         /* trace (re)starts: the first I-sync after
				    * synchronising, or one that is not periodic */
	PFT_ELEM_CONTEXT,          /* context ID, VMID, security or Hyp state changed */
	PFT_ELEM_EXCEPTION,        /* an exception was taken */
	PFT_ELEM_EXCEPTION_RETURN, /* an exception-return packet */
	PFT_ELEM_TIMESTAMP,
	PFT_ELEM_TRIGGER,
	PFT_ELEM_ADDR_NACC,        /* flow reached memory that no image covers */
	PFT_ELEM_ERROR,            /* the trace and the image disagree, or bad trace */
	PFT_ELEM_TYPE_MAX
};

/* "range", "no_sync", "trace_on", "context", "exception",
 * "exception_return", "timestamp", "trigger", "addr_nacc", "error". */
pft_export const char *pft_elem_type_name(enum pft_elem_type type);

/* Bits of pft_elem.changed (CONTEXT elements). */
enum pft_ctx_changed {
	PFT_CTX_CTXID = 1 << 0,
	PFT_CTX_VMID = 1 << 1,
	PFT_CTX_NS = 1 << 2,
	PFT_CTX_HYP = 1 << 3,
	PFT_CTX_ISA = 1 << 4
};

struct pft_elem {
	uint64_t offset;     /* offset of the packet that produced it */
	uint64_t ts;         /* TIMESTAMP */
	/* RANGE: instructions @start .. @last, @ninsn of them; @end is the
	 * address after @last.  @taken: the last instruction is a waypoint
	 * that changed the flow (E atom or branch address); 0 for an N atom or
	 * a range that ends at a waypoint update. */
	uint32_t start, end, last, ninsn;
	uint32_t cycles;     /* when has_cycles: from the packet that ended it */
	uint32_t addr;       /* ADDR_NACC: the address; EXCEPTION: preferred
			      * return address (when has_ret) */
	uint32_t ctxid;      /* CONTEXT */
	uint16_t exception;  /* EXCEPTION: number (pft_exception_name()) */
	uint8_t type;        /* enum pft_elem_type */
	uint8_t isa;         /* RANGE: instruction set; CONTEXT: the new one */
	uint8_t taken;
	uint8_t iclass;      /* RANGE: enum pft_iclass of @last */
	uint8_t space;       /* RANGE: enum pft_mem_space its bytes were read
			      * from (the security state of the trace) */
	uint8_t has_cycles;
	uint8_t has_ret;     /* EXCEPTION */
	uint8_t reason;      /* TRACE_ON: enum pft_isync_reason;
			      * ERROR: PFT_ERR_FLOW_* (pft_errstr()) */
	uint8_t ns, hyp, vmid; /* CONTEXT */
	uint8_t changed;     /* CONTEXT: enum pft_ctx_changed bits */
	uint8_t reserved[4];
};

struct pft_flow;

/*
 * Allocate a flow decoder for a stream with configuration @cfg (copied),
 * reading instructions from @image (borrowed: it must outlive the decoder
 * and not change while it is used; NULL = no memory, every walk reports
 * ADDR_NACC).  Returns NULL with *@errcode set to -PFT_ERR_INVALID,
 * -PFT_ERR_BAD_CONFIG (ctxid_bytes not 0/1/2/4) or -PFT_ERR_NOMEM.
 */
pft_export struct pft_flow *pft_flow_alloc(const struct pft_config *cfg,
					   struct pft_image *image, int *errcode);
pft_export void pft_flow_free(struct pft_flow *f);

/*
 * Apply one packet (from pft_pkt_next(), BAD packets included).  Elements
 * it produces wait for pft_flow_next().  Returns 0, -PFT_ERR_INVALID (NULL
 * argument, @size too small, a field out of range: type, isa, more than 5
 * atoms, or elements of the previous packet not all taken).
 */
pft_export int pft_flow_put(struct pft_flow *f, const struct pft_packet *pkt,
			    size_t size);

/* The next element, or -PFT_ERR_NEED_INPUT when the packet put last is
 * used up; -PFT_ERR_INVALID for NULL arguments. */
pft_export int pft_flow_next(struct pft_flow *f, struct pft_elem *elem, size_t size);

/* Forget all state (for a discontinuity in the input): the next elements
 * start with NO_SYNC. Returns 0 or -PFT_ERR_INVALID. */
pft_export int pft_flow_reset(struct pft_flow *f);

/* Instructions in the ranges reported so far. */
pft_export uint64_t pft_flow_insn_count(const struct pft_flow *f);

/* The most elements one packet can produce (5 atoms x 3 + 4, rounded up). */
#define PFT_FLOW_ELEMS_MAX 32

/*
 * The batch path: apply the packets @pkts[0 .. @npkts) in order, as
 * pft_flow_put() would, writing their elements to @elems (room for
 * @nelems, at least PFT_FLOW_ELEMS_MAX) instead of queueing them; the
 * elements of packet i end at @elems[@pkt_end[i]] (@pkt_end has room for
 * @npkts).  It stops early when fewer than PFT_FLOW_ELEMS_MAX places are
 * left, or before a packet pft_flow_put() would refuse.  Returns the
 * packets applied, or -PFT_ERR_INVALID (NULL argument, @pkt_size not
 * sizeof(struct pft_packet), @nelems too small, or the first packet out of
 * range) or -PFT_ERR_INTERNAL (elements of a pft_flow_put() were not taken).
 */
pft_export int pft_flow_decode(struct pft_flow *f, const struct pft_packet *pkts,
			       size_t npkts, size_t pkt_size, struct pft_elem *elems,
			       size_t nelems, size_t *pkt_end);


/* ---- End of flow ---- */

/* ======================================================================
 * Instructions: classes, and the instructions of a range
 * ====================================================================== */

/* ---- Section: instructions (pft_insn_) ---- */

/* What an instruction does to the flow of control, as far as call and
 * return tracking needs to know. */
enum pft_iclass {
	PFT_ICLASS_OTHER = 0,      /* not a branch */
	PFT_ICLASS_CALL,           /* BL, BLX <imm>: a direct call */
	PFT_ICLASS_INDIRECT_CALL,  /* BLX <reg> (and ThumbEE HBL/HBLP) */
	PFT_ICLASS_RETURN,         /* BX LR, MOV PC, LR, POP {.., PC},
				    * LDM SP!, {.., PC}, LDR PC, [SP], #4 */
	PFT_ICLASS_JUMP,           /* a direct branch without link */
	PFT_ICLASS_INDIRECT_JUMP,  /* any other write of the PC: BX <reg>,
				    * LDR PC, TBB/TBH, ... */
	PFT_ICLASS_EXC_RETURN,     /* ERET, RFE, SUBS PC, LR, LDM with ^ */
	PFT_ICLASS_BARRIER,        /* ISB (DMB, DSB when they are waypoints) */
	PFT_ICLASS_MAX
};

/* "other", "call", "indirect_call", "return", "jump", "indirect_jump",
 * "exc_return", "barrier"; "unknown" out of range. */
pft_export const char *pft_iclass_name(unsigned iclass);

/* One instruction. */
struct pft_insn {
	uint32_t addr;
	uint32_t target;       /* CALL, JUMP: the branch target */
	uint8_t size;          /* 2 or 4 */
	uint8_t isa;           /* enum pft_isa */
	uint8_t iclass;        /* enum pft_iclass */
	uint8_t conditional;   /* its encoding has a condition other than
				* always (A32 cond, T32 B<c>, CBZ/CBNZ; an IT
				* block's condition is not counted) */
	uint8_t target_isa;    /* CALL, JUMP: enum pft_isa at the target */
	uint8_t space;         /* enum pft_mem_space its bytes came from */
	uint8_t reserved[2];
	uint8_t raw[4];        /* its bytes, as in memory (@size of them) */
};

/*
 * Decode the instruction at @addr in instruction set @isa (PFT_ISA_ARM,
 * PFT_ISA_THUMB or PFT_ISA_THUMBEE) from @avail bytes at @code.  @size =
 * sizeof *@insn.  Returns the instruction's size (2 or 4), or:
 *   -PFT_ERR_NOMAP          @avail is too short for the instruction
 *   -PFT_ERR_NOT_SUPPORTED  Jazelle or an unknown instruction set
 *   -PFT_ERR_INVALID        NULL @code or @insn, @size too small
 */
pft_export int pft_insn_decode(enum pft_isa isa, uint32_t addr,
			       const uint8_t *code, size_t avail,
			       struct pft_insn *insn, size_t size);

/* Walks the instructions of a RANGE element.  Initialise with
 * pft_insn_iter_init(); the fields are the iterator's own. */
struct pft_insn_iter {
	struct pft_image *image;  /* borrowed */
	uint32_t addr;            /* the next instruction */
	uint32_t left;            /* instructions still to come */
	uint8_t isa, space;
	uint8_t reserved[6];
};

/*
 * Start walking @range's instructions, read from @image (borrowed; it must
 * be the image the range was decoded with).  Returns 0, or -PFT_ERR_INVALID
 * (NULL argument, or @range is not a RANGE element).
 */
pft_export int pft_insn_iter_init(struct pft_insn_iter *it,
				  struct pft_image *image,
				  const struct pft_elem *range);

/*
 * The next instruction in *@insn (@size = sizeof *@insn).  Returns 1, 0
 * when the range's instructions have all been returned, or
 * -PFT_ERR_NOMAP (the image no longer holds the instruction: it changed
 * since the decode) or -PFT_ERR_INVALID.
 */
pft_export int pft_insn_iter_next(struct pft_insn_iter *it,
				  struct pft_insn *insn, size_t size);

/* ---- End of instructions ---- */

/* ======================================================================
 * Model: executed-instruction log -> packets (a PTM in software)
 * ====================================================================== */

/* ---- Section: model (pft_model_) ---- */

/*
 * The model behaves as a PTM would (pft-flow.md, pft-protocol.md): it is
 * given the executed instructions one at a time, reads and classifies each
 * from a program image, decides from the next executed address whether a
 * waypoint was taken, and produces the packets, already encoded.  Memory
 * does not grow with the length of the log.
 *
 * Which packets it sends, when trace turns off and on, and how cycle
 * counts and timestamps are computed: doc/model.md.
 */
struct pft_model_config {
	size_t size;            /* sizeof(struct pft_model_config) */
	/* Trace bytes between periodic A-sync + I-sync (ETMSYNCFR); 0 = 1024. */
	uint32_t sync_period;
	/* With timestamps: one after every @ts_period traced waypoints too
	 * (0: only after I-syncs). */
	uint32_t ts_period;
	/* With @filter = 1, only @filter_start <= address < @filter_end is
	 * traced. */
	uint32_t filter_start, filter_end;
	uint8_t filter;
	uint8_t reserved[7];
};

/* One executed instruction. */
struct pft_model_insn {
	uint32_t addr;
	uint32_t cycles;        /* when @has_cycles: cycles this instruction took */
	uint32_t ctxid;         /* when @has_ctxid: context ID from here on */
	/* enum pft_isa: ARM or THUMB, or UNKNOWN to let the model infer it
	 * (sequential flow and direct branches keep or set it; after an
	 * indirect branch: the image's mapping symbols, else unchanged). */
	uint8_t isa;
	uint8_t has_cycles;
	uint8_t has_ctxid;
	uint8_t has_vmid, vmid; /* VMID from here on */
	uint8_t has_ns, ns;     /* security state from here on (initially 0) */
	/* The condition flags N, Z, C, V (bits 3-0) before it executed: they
	 * tell whether a conditional instruction that is not a branch passed
	 * its condition (the ETMv3 model's E or N atom; without them it
	 * counts as passed).  Branches: the next address tells. */
	uint8_t has_nzcv, nzcv;
	uint8_t reserved[3];
};

struct pft_model;

/*
 * Allocate a model for a PTM configured as @cfg (copied; it uses
 * version_minor, cycle_accurate, ctxid_bytes, timestamps, ts_64bit,
 * ts_gray, vmid, return_stack, branch_broadcast, dmb_dsb_waypoints),
 * with @mcfg (copied; NULL for the defaults), reading instructions from
 * @image (borrowed: it must outlive the model).  Returns NULL with
 * *@errcode (if not NULL) set to -PFT_ERR_INVALID (NULL @cfg or @image,
 * a size too small), -PFT_ERR_BAD_CONFIG (ctxid_bytes not 0/1/2/4, VMID
 * on PFTv1.0, return stack with branch broadcast, a filter with
 * @filter_end <= @filter_start) or -PFT_ERR_NOMEM.
 */
pft_export struct pft_model *pft_model_alloc(const struct pft_config *cfg,
					     const struct pft_model_config *mcfg,
					     struct pft_image *image,
					     int *errcode);
pft_export void pft_model_free(struct pft_model *m);

/*
 * The next executed instruction (@size = sizeof *@insn).  It completes the
 * previous one, whose packets become ready for pft_model_next().  Returns
 * 0, or (with the model unchanged; pft_model_error() tells why):
 *   -PFT_ERR_BAD_INSN   an impossible flow from the previous instruction,
 *                       or an address not aligned for its ISA
 *   -PFT_ERR_NOMAP      an address outside the image that is neither
 *                       reached by a branch nor after another such address
 *   -PFT_ERR_NOT_SUPPORTED  @insn->isa is not ARM, THUMB or UNKNOWN
 *   -PFT_ERR_INVALID    NULL argument, @size too small, or packets of
 *                       the previous call not all taken
 *   -PFT_ERR_EOS        after pft_model_finish()
 */
pft_export int pft_model_put(struct pft_model *m,
			     const struct pft_model_insn *insn, size_t size);

/* The log has ended: the last instruction's packets and the final flush
 * become ready.  Returns 0, -PFT_ERR_INVALID (NULL @m, or packets not
 * taken) or -PFT_ERR_EOS (already finished). */
pft_export int pft_model_finish(struct pft_model *m);

/*
 * The next packet in @pkt (@size = sizeof *@pkt): its fields as
 * pft_pkt_next() would decode them where the model knows them (type,
 * addr, isa, reason, ns, atoms, cycles, ctxid, vmid, ts, exception), @raw
 * and @size its bytes (valid until the next call on the model) and
 * @offset its position in the stream.  Returns 0, -PFT_ERR_NEED_INPUT
 * when the packets of the last put are all taken (-PFT_ERR_EOS instead
 * after finish), or -PFT_ERR_INVALID.
 */
pft_export int pft_model_next(struct pft_model *m, struct pft_packet *pkt,
			      size_t size);

/* After a put failed: why (PFT_ERR_MODEL_*, pft_errstr() describes it);
 * PFT_ERR_OK otherwise or for NULL @m. */
pft_export enum pft_error_code pft_model_error(const struct pft_model *m);

/* Trace bytes produced so far (taken or not) and instructions put. */
pft_export uint64_t pft_model_bytes(const struct pft_model *m);
pft_export uint64_t pft_model_insns(const struct pft_model *m);

/* ---- End of model ---- */

/* ======================================================================
 * Outputs: coverage (pft_cov_)
 * ====================================================================== */

/*
 * Which code a trace executed: feed it the RANGE elements of a flow
 * decoder, then ask how many bytes of an address range were executed.
 * Kept per halfword, in memory that grows with the code executed.
 */
struct pft_cov;

/* Returns NULL with *@errcode = -PFT_ERR_NOMEM on failure. */
pft_export struct pft_cov *pft_cov_alloc(int *errcode);
pft_export void pft_cov_free(struct pft_cov *c);

/* Count a flow element (@size = sizeof *@e): RANGE elements mark their
 * bytes @start .. @end - 1 as executed; other elements are ignored.
 * Returns 0, -PFT_ERR_INVALID (NULL argument, @size too small, a RANGE
 * with @end before @start or more than 4 bytes per instruction) or
 * -PFT_ERR_NOMEM. */
pft_export int pft_cov_add(struct pft_cov *c, const struct pft_elem *e, size_t size);

/* The number of executed bytes in @start .. @end - 1 (@end up to 2^32),
 * in *@bytes (halfword granularity).  Returns 0 or -PFT_ERR_INVALID (NULL
 * argument, @end < @start or beyond 2^32). */
pft_export int pft_cov_covered(const struct pft_cov *c, uint32_t start, uint64_t end,
			       uint64_t *bytes);

/* Instructions counted so far (the sum of the ranges' ninsn). */
pft_export uint64_t pft_cov_insn_count(const struct pft_cov *c);

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
 * pft_config_from_regs(), @limits->size says how much of the struct the
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

/* ======================================================================
 * Format (pft_fmt_): names made safe for outputs
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

/* ---- End of format ---- */

/* ======================================================================
 * Pipeline: one buffer's bytes -> packets and elements of every source
 * ====================================================================== */

/* ---- Section: pipeline (pft_pipe_) ---- */

/* Trace protocols a CoreSight source may speak. */
enum pft_protocol {
	PFT_PROTO_UNKNOWN = 0,
	PFT_PROTO_PTM,       /* PFT v1.0/v1.1: Cortex-A9, Cortex-A15 */
	PFT_PROTO_ETMV3,     /* ETMv3.x: Cortex-A5/A7/A8/R4/R5 */
	PFT_PROTO_ETMV4,     /* ETMv4/ETE: Armv8 cores (not decoded) */
	PFT_PROTO_STM,       /* System Trace Macrocell (not decoded) */
	PFT_PROTO_ITM,       /* Instrumentation Trace Macrocell (not decoded) */
	PFT_PROTO_MAX
};

/* "unknown", "ptm", "etmv3", "etmv4", "stm", "itm". */
pft_export const char *pft_protocol_name(unsigned protocol);

/* How the bytes given to a pipeline are laid out. */
enum pft_pipe_format {
	PFT_PIPE_RAW = 0,     /* one source's bytes, not frame-formatted */
	PFT_PIPE_FORMATTED,   /* CoreSight 16-byte frames (ETB, ETF, ETR) */
	PFT_PIPE_TPIU         /* frames with FSYNC/HSYNC (a trace port) */
};

struct pft_pipe_config {
	size_t size;          /* sizeof(struct pft_pipe_config) */
	uint8_t format;       /* enum pft_pipe_format */
	uint8_t packets;      /* return every packet as a PFT_ITEM_PACKET */
	uint8_t elements;     /* run the flow decoders: return PFT_ITEM_ELEM */
	uint8_t fit_check;    /* watch whether each source's configuration and
			       * image fit its trace (pft_pipe_fit()) */
	/* Return PTM packets and elements in runs (pft_item @count): a
	 * PACKET item carries every packet decoded in one go (one, when
	 * elements are returned too), an ELEM item the elements of a run of
	 * packets (a BAD packet's elements always come in a run of their own). */
	uint8_t runs;
	uint8_t reserved[3];
};

/* What pft_pipe_next() returns. */
enum pft_item_type {
	PFT_ITEM_PACKET = 0,  /* a packet of source @source */
	PFT_ITEM_ELEM,        /* a flow element of source @source */
	PFT_ITEM_GAP          /* source @source lost bytes at @offset */
};

struct pft_etm3_packet;

struct pft_item {
	uint8_t type;         /* enum pft_item_type */
	uint8_t protocol;     /* enum pft_protocol of the source */
	uint16_t source;      /* index returned by pft_pipe_add_*() */
	/* PACKET: 0, or the -PFT_ERR_* code of a BAD packet.  GAP: 0 for a
	 * discontinuity the frames mark (the decoders were reset), or the
	 * deformatter's -PFT_ERR_* code for bytes it dropped (the source's
	 * decoders wait for the next synchronisation). */
	int status;
	uint64_t offset;      /* GAP: position in the input of the gap */
	/* PACKET: the packet; ELEM: the packet that produced the element.
	 * Valid until the next pft_pipe_next() or pft_pipe_feed() call. */
	const struct pft_packet *ptm;
	const struct pft_elem *elem;   /* ELEM; valid as @ptm */
	/* ETMv3 sources: the packet (as @ptm is for PTM sources). */
	const struct pft_etm3_packet *etm3;
	/* PACKET and ELEM: 1, or with pft_pipe_config @runs the packets at
	 * @ptm (PACKET) or elements at @elem (ELEM; @ptm is then the packet of
	 * the first, the others' packets are known by their @offset). */
	uint32_t count;
	uint32_t reserved;
};

struct pft_pipe;

/*
 * A pipeline for one trace buffer: it deformats (unless @cfg->format is
 * RAW), routes each trace ID's bytes to its source's packet decoder and,
 * with @cfg->elements, flow decoder, and applies the gap policy: a
 * discontinuity marked in the frames resets a source's decoders, dropped
 * bytes make them wait for the next A-sync, and either is returned as a
 * GAP item.  Add the sources, feed bytes, and pull items with
 * pft_pipe_next().  Returns NULL with *@errcode (if not NULL) set to
 * -PFT_ERR_INVALID (NULL @cfg, a bad format, neither packets nor
 * elements) or -PFT_ERR_NOMEM.
 */
pft_export struct pft_pipe *pft_pipe_alloc(const struct pft_pipe_config *cfg,
					   int *errcode);

/* Frees the pipeline and its decoders (not the images).  NULL: no-op. */
pft_export void pft_pipe_free(struct pft_pipe *p);

/*
 * Decode trace ID @id (0x01-0x6f; ignored for RAW input, which has one
 * source) as a PTM with configuration @cfg (copied), reading instructions
 * from @image (borrowed; it may be shared by sources of one core, as they
 * are used one at a time; NULL: elements report every walk as ADDR_NACC).
 * Add sources before the first feed.  Returns the source's index (0, 1,
 * ...), or -PFT_ERR_INVALID (NULL argument, @id out of range or already
 * added, a second source for RAW input, bytes already fed),
 * -PFT_ERR_BAD_CONFIG (as pft_pkt_alloc()) or -PFT_ERR_NOMEM.
 */
pft_export int pft_pipe_add_ptm(struct pft_pipe *p, int id,
				const struct pft_config *cfg,
				struct pft_image *image);

/*
 * Decode trace ID @id as an ETMv3 with configuration @cfg (etm3 section),
 * as pft_pipe_add_ptm() does for a PTM.  (No fit check: it is PTM's.)
 */
struct pft_etm3_config;
pft_export int pft_pipe_add_etm3(struct pft_pipe *p, int id,
				 const struct pft_etm3_config *cfg,
				 struct pft_image *image);

/*
 * Give the pipeline the next @len bytes of the buffer (borrowed until
 * pft_pipe_next() returns -PFT_ERR_NEED_INPUT).  Returns 0, or
 * -PFT_ERR_INVALID (NULL argument, @len 0, bytes of the previous feed not
 * yet used up, or after pft_pipe_finish()).
 */
pft_export int pft_pipe_feed(struct pft_pipe *p, const uint8_t *buf, size_t len);

/* The buffer has ended: pft_pipe_next() then returns what is left (a
 * packet cut off at the end is a BAD packet, status -PFT_ERR_TRUNCATED),
 * then -PFT_ERR_EOS.  Returns 0 or -PFT_ERR_INVALID. */
pft_export int pft_pipe_finish(struct pft_pipe *p);

/*
 * The next item in trace order (a packet, then the elements it produced)
 * in *@item (@size = sizeof *@item).  Returns 0, -PFT_ERR_NEED_INPUT (feed
 * more, or finish), -PFT_ERR_EOS (after finish, all returned),
 * -PFT_ERR_INVALID (NULL argument, @size too small) or -PFT_ERR_INTERNAL.
 */
pft_export int pft_pipe_next(struct pft_pipe *p, struct pft_item *item, size_t size);

/* Bytes given to the pipeline so far. */
pft_export uint64_t pft_pipe_get_offset(const struct pft_pipe *p);

/* What a pipeline saw of one trace ID or source. */
struct pft_pipe_stats {
	uint64_t bytes;       /* trace bytes of this ID */
	uint64_t packets;     /* packets decoded (sources only) */
	uint64_t errors;      /* BAD packets and GAPs (sources only) */
	uint64_t insns;       /* instructions in the elements returned */
};

/*
 * Counts for source @source (as returned by pft_pipe_add_*()) in *@st
 * (@size = sizeof *@st).  Returns 0 or -PFT_ERR_INVALID.
 */
pft_export int pft_pipe_source_stats(const struct pft_pipe *p, unsigned source,
				     struct pft_pipe_stats *st, size_t size);

/* Trace bytes seen so far for trace ID @id (0-127), whether or not a
 * source decodes it (for RAW input: every byte counts under ID 0). */
pft_export uint64_t pft_pipe_id_bytes(const struct pft_pipe *p, unsigned id);

struct pft_fit_verdict;

/*
 * With fit_check: whether source @source's configuration and image fit
 * what it has decoded so far (pft_fit_verdict(), detection section), in
 * *@v (@size = sizeof *@v).  Returns the reason when the evidence is
 * conclusive (pft_fit_evident(): the problem recurs after several syncs;
 * one damaged stretch of trace is not a misfit), else PFT_FIT_OK (0), or
 * -PFT_ERR_INVALID (bad argument, no fit check) or -PFT_ERR_NOMEM.
 */
pft_export int pft_pipe_fit(const struct pft_pipe *p, unsigned source,
			    struct pft_fit_verdict *v, size_t size);

/* ---- End of pipeline ---- */

/* ======================================================================
 * Inputs: OpenCSD snapshot directories
 * ====================================================================== */

/* ---- Section: snapshot (pft_snap_) ---- */

/*
 * An OpenCSD snapshot directory (snapshot.ini, trace.ini, one .ini per
 * device, trace buffers and memory dumps), as pft-flow.md section 12
 * describes it.  Loading reads and checks every .ini file; buffers and
 * dumps are only named (and checked to be regular files inside the
 * directory).
 *
 * Bounds (hostile snapshots): each .ini file is at most PFT_SNAP_INI_MAX
 * bytes and is read in one piece; parsing is linear in its size, and the
 * memory it takes is the file's size plus a fixed amount per line.
 *
 * Confinement: every file a snapshot names must resolve (symbolic links
 * followed) inside the snapshot directory, unless PFT_SNAP_ALLOW_OUTSIDE
 * is given; absolute names and ".." that leave it are refused.
 */
enum {
	PFT_SNAP_INI_MAX = 16 * 1024 * 1024
};

enum pft_snap_flags {
	PFT_SNAP_ALLOW_OUTSIDE = 1 << 0  /* files may lie outside the directory */
};

struct pft_snap_reg {
	const char *name;       /* the key before any '(' : "ETMCR" */
	uint64_t value;
};

struct pft_snap_dump {
	const char *path;       /* joined with the snapshot directory */
	uint64_t address;
	uint64_t offset;        /* into the file */
	uint64_t length;        /* bytes to use; 0: up to the end of the file */
	enum pft_mem_space space;
	const char *space_name; /* as written: "S", "N", "EL1N", "ANY", ... */
	const char *where;      /* "FILE:LINE" of its section, for messages */
};

struct pft_snap_device {
	const char *name;
	const char *cls;        /* "core" or "trace_source" */
	const char *type;       /* "PTM1.1", "ETM3.5", "Cortex-A15", ... */
	const char *file;       /* its .ini file */
	uint8_t protocol;       /* trace sources: enum pft_protocol */
	const struct pft_snap_reg *regs;
	size_t nregs;
	const struct pft_snap_dump *dumps;
	size_t ndumps;
	int buffer;             /* trace sources: index of its buffer, or -1 */
	int core;               /* trace sources: index of the core device, or -1 */
};

struct pft_snap_buffer {
	const char *name;
	const char *path;
	const char *format;     /* "coresight", "dstream_coresight", "source_data" */
	uint8_t pipe_format;    /* enum pft_pipe_format */
};

struct pft_snapshot {
	const char *dir;
	const struct pft_snap_device *devs;
	size_t ndevs;
	const struct pft_snap_buffer *bufs;
	size_t nbufs;
	uint64_t ts_frequency;   /* trace.ini [timestamp] frequency: timestamp
				  * counts per second (0: not given) */
};

/*
 * Read the snapshot in directory @dir.  @flags: enum pft_snap_flags.
 * Returns the snapshot in *@out (free it with pft_snap_free()), or a
 * negative code with a one-line message naming the file (and line) in
 * @msg (@msglen bytes, may be 0):
 *   -PFT_ERR_BAD_FILE  a file is missing, unreadable, not a regular file,
 *                      too large, outside the directory, or malformed
 *   -PFT_ERR_INVALID   NULL @dir or @out, unknown @flags
 *   -PFT_ERR_NOMEM
 */
pft_export int pft_snap_load(const char *dir, unsigned flags,
			     struct pft_snapshot **out, char *msg, size_t msglen);
pft_export void pft_snap_free(struct pft_snapshot *s);

/* Register @name of device @d in *@value: 0, or -PFT_ERR_NOMAP. */
pft_export int pft_snap_reg(const struct pft_snap_device *d, const char *name,
			    uint64_t *value);

/*
 * The PTM configuration of trace source @d from its ETMCR, ETMCCER, ETMIDR
 * and ETMTRACEIDR, in *@cfg.  Returns 0, or -PFT_ERR_BAD_CONFIG (a register
 * missing, wider than 32 bits, not a PTM, or a reserved trace ID) with a
 * one-line message in @msg, or -PFT_ERR_INVALID.
 */
pft_export int pft_snap_ptm_config(const struct pft_snap_device *d,
				   struct pft_config *cfg, char *msg, size_t msglen);

/*
 * Add core @core's memory dumps to @img.  A dump that overlaps what @img
 * holds already (such as the ELF a snapshot's dumps were taken from) is
 * left out when the bytes there are the same.  Returns 0, or a negative
 * code with a one-line message naming the files in @msg (-PFT_ERR_BAD_FILE:
 * an unreadable dump or one shorter than its length; -PFT_ERR_BAD_CONFIG:
 * a dump overlaps other bytes, or passes 0xFFFFFFFF; -PFT_ERR_INVALID;
 * -PFT_ERR_NOMEM).
 */
pft_export int pft_snap_add_dumps(const struct pft_snapshot *s,
				  const struct pft_snap_device *core,
				  struct pft_image *img, char *msg, size_t msglen);

/* ---- End of snapshot ---- */

/* ======================================================================
 * Inputs: trace files and snapshots, decoded whole
 * ====================================================================== */

/* ---- Section: input (pft_input_) ---- */

/*
 * What `pft decode` does, for any program: open a snapshot, or trace files
 * with their configuration, add program images, and pull the items of
 * every source of every buffer in trace order.  The input reads its files
 * itself, in fixed-size blocks (memory does not grow with the trace), and
 * builds one program image per core (the user's images, then the core's
 * snapshot dumps), shared by the sources that trace that core.
 *
 * Errors: functions return -PFT_ERR_* codes; pft_input_message() then
 * gives one line that names the file (and offset or line) at fault.
 *
 * Parallel decode (@threads > 1): a PTM trace file, raw or a formatted
 * memory buffer (PFT_PIPE_RAW or PFT_PIPE_FORMATTED, from
 * pft_input_open_file() or a snapshot; a regular file of at least two
 * pieces) of which one PTM source is decoded (a buffer's other trace IDs
 * are only counted), is cut into pieces of @piece_size bytes (formatted:
 * whole frames) that @threads worker
 * threads decode at once; pft_input_next() still returns the items in
 * trace order, the same as with one thread (with @runs, the same packets
 * and elements, possibly grouped in other runs).  Where one piece's decode
 * hands over to the next is checked, not assumed: at an I-sync where both
 * pieces' decoders are in the same state (return stack, context,
 * timestamp...).  Where no such I-sync comes soon after a piece's start,
 * the piece before decodes it too: slower, the same result.  Memory: at
 * most @threads + 1 pieces in flight, each with up to 8 MiB of decoded
 * items waiting for pft_input_next() (a 256 KiB piece makes about 8 MiB;
 * with elements in @runs and no @packets, a run keeps only its first
 * packet).  The threads count the items and run the fit check on their
 * pieces; the counts and verdicts are those of the serial decode.  Other
 * inputs, and files smaller than two pieces, are decoded in the calling
 * thread, and no thread is started.
 */
struct pft_input_config {
	size_t size;            /* sizeof(struct pft_input_config) */
	uint8_t packets;        /* return packets (as pft_pipe_config) */
	uint8_t elements;       /* return flow elements */
	uint8_t fit_check;      /* watch whether configurations and images fit
				 * the trace (pft_input_fit()) */
	uint8_t runs;           /* items in runs (as pft_pipe_config) */
	unsigned snap_flags;    /* enum pft_snap_flags, for snapshots */
	int id;                 /* decode only this trace ID; -1: every source */
	uint32_t reserved;      /* ignored: the first layout ends here */
	unsigned threads;       /* decode threads; 0 or 1: the calling thread only */
	uint32_t piece_size;    /* parallel decode: bytes per piece; 0: 256 KiB
				 * (1 MiB for pft_input_count()) */
	uint8_t survey;         /* survey the input instead (see below) */
};

/*
 * Survey (@survey; what `pft info` prints): files and snapshot buffers are
 * read through, not decoded (no pft_input_add_*(); a PFT_PIPE_FORMATTED
 * file may have trace-port syncs).  pft_input_next() reads them all and
 * returns -PFT_ERR_EOS; then each trace ID with bytes in a file is a
 * source (pft_info_source()): @stats.bytes, @protocol, and for a PTM
 * @registers (a snapshot device's) or @detected @cfg.  perf.data is read
 * to its packets.  An unreadable file: -PFT_ERR_BAD_FILE.
 */

struct pft_input;

/* How the parallel decode went (final at the end of the trace). */
struct pft_input_parallel {
	uint64_t pieces;        /* pieces the file was cut into; 0: not parallel */
	uint64_t handovers;     /* pieces taken over at a verified I-sync */
	uint64_t absorbed;      /* pieces decoded by the piece before instead (no
				 * I-sync with the same state soon enough) */
};

/* The parallel decode's counts in *@st (@size = sizeof *@st).  Returns 0
 * or -PFT_ERR_INVALID (NULL argument, @size too small). */
pft_export int pft_input_parallel_stats(const struct pft_input *in,
					struct pft_input_parallel *st, size_t size);

/*
 * Counting: what `pft dump --count` and `pft decode --count` print, without
 * an item per packet or element.  pft_input_count() decodes the input to
 * its end, counting each source's packets (with @packets) and elements
 * (with @elements), and returns only the items that report a problem, in
 * trace order: a BAD packet (a PACKET item with a negative @status, with
 * @packets) and a gap that lost bytes (a GAP item with a negative
 * @status); their packets and elements are counted already.  The
 * parallel decode counts in its threads, each piece in place, and adds up
 * each piece's counts from where the piece before handed over to it (the
 * same verified I-syncs as its items): the counts are those of the serial
 * decode.  An input is read either with pft_input_next() or with
 * pft_input_count(), not both.
 */
enum { PFT_INPUT_COUNT_TYPES = 32 };   /* room per type table, > every *_TYPE_MAX */

struct pft_input_counts {
	uint64_t packets[PFT_INPUT_COUNT_TYPES];      /* PTM, by enum pft_packet_type */
	uint64_t etm3_packets[PFT_INPUT_COUNT_TYPES]; /* by enum pft_etm3_packet_type */
	uint64_t elems[PFT_INPUT_COUNT_TYPES];        /* by enum pft_elem_type */
	uint64_t insns;         /* instructions in RANGE elements */
	uint64_t bytes;         /* trace bytes of the source */
	uint64_t errors;        /* BAD packets and gaps that lost bytes */
};

/*
 * The next problem item of a counting decode (see above) in *@item (@size
 * = sizeof *@item).  Returns 0, -PFT_ERR_EOS (the input is decoded: the
 * counts are final), -PFT_ERR_INVALID (NULL argument, @size too small,
 * or the input was read with pft_input_next()), or pft_input_next()'s
 * errors.
 */
pft_export int pft_input_count(struct pft_input *in, struct pft_item *item, size_t size);

/*
 * Source @index's counts so far in *@c (@size = sizeof *@c); for a source
 * that is not decoded, or an input read with pft_input_next(), only
 * @bytes and @errors (its pft_input_source() statistics).  Returns 0 or -PFT_ERR_INVALID (NULL argument, @size too small,
 * @index out of range).
 */
pft_export int pft_input_counts(const struct pft_input *in, size_t index,
				struct pft_input_counts *c, size_t size);

/* Returns NULL with *@errcode (if not NULL) set to -PFT_ERR_INVALID (NULL
 * or bad @cfg) or -PFT_ERR_NOMEM. */
pft_export struct pft_input *pft_input_alloc(const struct pft_input_config *cfg,
					     int *errcode);
/* Frees the input, its pipelines and images, and the snapshot.  NULL: no-op. */
pft_export void pft_input_free(struct pft_input *in);

/*
 * Program images every source reads instructions from.  Give them before
 * opening anything.  pft_input_add_elf(): an ARM ELF moved by @bias;
 * pft_input_add_image(): a raw memory dump whose first byte is at @addr;
 * pft_input_add_symbols(): symbols only (pft_image_add_symbols(): an ELF,
 * System.map or kallsyms), its bytes are not code.  Raw images come before
 * a snapshot's dumps (a dump with the same bytes is then left out, other
 * overlaps are errors); ELFs go beneath a snapshot's dumps
 * (pft_image_add_elf_beneath(): the dumps' bytes are the code, the ELF
 * gives symbols and fills the gaps) and where their bytes differ,
 * pft_input_note() says so.  Returns 0, or -PFT_ERR_INVALID (NULL
 * argument, or after an open).  The files are read when the first input is
 * opened.
 */
pft_export int pft_input_add_elf(struct pft_input *in, const char *path, int64_t bias);
pft_export int pft_input_add_image(struct pft_input *in, const char *path, uint32_t addr);
pft_export int pft_input_add_symbols(struct pft_input *in, const char *path);

/* What pft_input_load_image() loads. */
enum pft_input_image_kind {
	PFT_INPUT_IMAGE_RAW = 0,     /* a memory dump at @addr */
	PFT_INPUT_IMAGE_ELF = 1,     /* an ELF moved by @addr */
	PFT_INPUT_IMAGE_SYMBOLS = 2  /* symbols only, moved by @addr */
};

/*
 * Add the program file @path to @img as @kind (enum pft_input_image_kind)
 * says, with a one-line message naming the file and the problem in @msg
 * on failure: -PFT_ERR_BAD_FILE (missing, not a regular file, empty,
 * unreadable, not a 32-bit little-endian ARM ELF; for symbols, not a
 * listing or none in it), -PFT_ERR_BAD_CONFIG (it overlaps what @img
 * holds, or passes 0xFFFFFFFF), -PFT_ERR_INVALID or -PFT_ERR_NOMEM.  (The
 * check comes before the image layer opens the file, so that a FIFO is
 * refused rather than waited on.)
 */
pft_export int pft_input_load_image(struct pft_image *img, const char *path, int kind,
				    int64_t addr, char *msg, size_t msglen);

/*
 * Decode the PTM and ETMv3 sources of snapshot directory @dir (with config
 * id, only that one).  Sources of other protocols are listed by pft_input_source()
 * with decoded = 0.  Returns 0, or -PFT_ERR_BAD_FILE (the snapshot, a
 * buffer, a dump or an image cannot be used), -PFT_ERR_BAD_CONFIG (a
 * source's registers, overlapping images), -PFT_ERR_NOMAP (no source to
 * decode), -PFT_ERR_INVALID or -PFT_ERR_NOMEM.
 */
pft_export int pft_input_open_snapshot(struct pft_input *in, const char *dir);

/*
 * Decode trace file @path ("-": standard input) in @format (enum
 * pft_pipe_format).  Then declare its sources with pft_input_add_ptm(),
 * pft_input_add_etm3() or pft_input_add_detected().
 * Returns 0, or -PFT_ERR_BAD_FILE (cannot be opened, or a directory),
 * -PFT_ERR_INVALID or -PFT_ERR_NOMEM.
 */
pft_export int pft_input_open_file(struct pft_input *in, const char *path,
				   unsigned format);

/*
 * A PTM source of the file opened last: trace ID @id (ignored for RAW
 * files) with configuration @cfg (copied).  Returns the source's index, or
 * -PFT_ERR_INVALID (no file open, @id out of range or given twice),
 * -PFT_ERR_BAD_CONFIG, -PFT_ERR_BAD_FILE (an image cannot be loaded) or
 * -PFT_ERR_NOMEM.
 */
pft_export int pft_input_add_ptm(struct pft_input *in, int id, const struct pft_config *cfg);

/*
 * Add the sources of the file opened last with their configuration
 * detected from the trace (detection section): for a RAW file its one
 * source; for a formatted file every PTM source (@id -1) or trace ID @id,
 * and whether the buffer has trace-port syncs.  Sources of other protocols
 * are listed with decoded = 0.  Detection reads the first bytes of the file
 * once more (standard input: up to 4 MiB of it are kept and decoded
 * first), and with the images given
 * before, decides the flow options too.  Returns the number of sources
 * added, or -PFT_ERR_NOMAP (no PTM trace: pft_input_message() says what the
 * file holds), -PFT_ERR_BAD_FILE, -PFT_ERR_INVALID or -PFT_ERR_NOMEM.
 */
pft_export int pft_input_add_detected(struct pft_input *in, int id);

/*
 * ETMv3 sources of the file opened last, decoded under @cfg (copied; its
 * trace_id is replaced by each source's ID): for a RAW file its one source;
 * for a formatted file trace ID @id, or with @id -1 every source whose first
 * bytes pft_detect_frames() finds to be ETMv3 (sources of other protocols are
 * listed with decoded = 0, and trace-port syncs are detected as by
 * pft_input_add_detected()).  The configuration is not detected: take it
 * from the ETM's registers (pft_etm3_config_from_regs()).  Returns the
 * number of sources added, or -PFT_ERR_NOMAP (@id -1 and no ETMv3 source
 * in the file: pft_input_message() says so), -PFT_ERR_BAD_CONFIG (a bad
 * @cfg, or a second source in a RAW file), -PFT_ERR_BAD_FILE,
 * -PFT_ERR_INVALID (NULL argument, no file open, after a snapshot, @id out
 * of range) or -PFT_ERR_NOMEM.
 */
pft_export int pft_input_add_etm3(struct pft_input *in, int id,
				  const struct pft_etm3_config *cfg);

/*
 * The next item of the input (pft_pipe_next()'s items; @item->source is
 * the input's source index).  Returns 0, -PFT_ERR_EOS (every file read to
 * its end), -PFT_ERR_BAD_FILE (a read error; pft_input_message() says
 * where), -PFT_ERR_INVALID or -PFT_ERR_NOMEM.
 */
pft_export int pft_input_next(struct pft_input *in, struct pft_item *item, size_t size);

/* One line on the last error (never NULL; "" when there was none). */
pft_export const char *pft_input_message(const struct pft_input *in);

/* Note @index (0, 1, ...; NULL past the last): one line on something the
 * user should know that is not an error, such as an ELF whose bytes differ
 * from a snapshot's memory.  Valid while @in lives. */
pft_export const char *pft_input_note(const struct pft_input *in, size_t index);

struct pft_input_source {
	const char *name;       /* device name, or the file name */
	const char *path;       /* the file its bytes come from */
	int id;                 /* trace ID; -1 for RAW files */
	uint8_t protocol;       /* enum pft_protocol */
	uint8_t decoded;        /* 0: listed only (protocol not decoded,
				 * or left out by config id) */
	uint8_t detected;       /* @cfg was detected from the trace */
	uint8_t registers;      /* survey: @cfg is a snapshot's registers' */
	uint32_t determined;    /* detected: enum pft_detect_field bits the
				 * trace decided (the others are defaults) */
	uint32_t ncandidates;   /* detected: configurations that decode the
				 * trace equally well (1: no doubt) */
	struct pft_config cfg;  /* PTM sources */
	struct pft_image *image;/* owned by the input; NULL without elements */
	struct pft_pipe_stats stats;
	int cpu;                /* perf.data: the CPU of this trace unit (every
				 * item of the source comes from it); -1 for
				 * other inputs */
};

/* With fit_check: whether decoded source @index's configuration and image
 * fit its trace so far (pft_pipe_fit()).  Returns the reason (0: fits),
 * or -PFT_ERR_INVALID or -PFT_ERR_NOMEM. */
pft_export int pft_input_fit(const struct pft_input *in, size_t index,
			     struct pft_fit_verdict *v, size_t size);

/* The number of sources (decoded or listed). */
pft_export size_t pft_input_nsources(const struct pft_input *in);

/* Source @index in *@src (@size = sizeof *@src).  Returns 0 or
 * -PFT_ERR_INVALID. */
pft_export int pft_input_source(const struct pft_input *in, size_t index,
				struct pft_input_source *src, size_t size);

/* ---- End of input ---- */

/* ======================================================================
 * Detection (pft_detect_): which protocol and configuration a stream has
 * ====================================================================== */

/* ---- Section: detect ---- */

/*
 * Detection tells, from the bytes alone, how a trace buffer is framed,
 * which protocol each source speaks and, for PTM sources, the
 * configuration under which the stream decodes cleanly; the fit check
 * watches a running decode and says when its configuration or image looks
 * wrong.
 *
 * Bounded prefixes.  The detect functions are given a buffer and decide
 * from at most its first PFT_DETECT_PREFIX bytes (pft_detect_frames()
 * counts bytes per ID over the whole buffer, which costs one deformatter
 * pass; pass a prefix to keep it short).  Their cost is therefore fixed,
 * whatever the trace length: 16 packet-decoder passes (and 9 of two
 * small length scanners for protocol detection) over at most 64 KiB and,
 * with an image, 6 flow-decoder passes plus 6 per parse configuration the
 * packets alone cannot rule out.  Memory is freed on return.
 *
 * What the bytes can and cannot tell (pft-protocol.md "configuration a
 * packet parser needs"): cycle-accurate mode, context ID size and
 * timestamp width change packet lengths, so a wrong choice soon makes
 * bad packets, unless the packets that would show it are absent (no
 * context ID bytes without I-syncs, no width without a full timestamp).
 * Timestamps, VMID and the v1.1-only packets are seen or not.  Gray
 * coding is the reading under which consecutive timestamps rise.  Return
 * stack, branch broadcast and DMB/DSB waypoints change only the flow, so
 * they need the program image.  Every field the prefix does not decide is
 * reported as such (pft_detect_ptm_result.determined).
 */
enum {
	PFT_DETECT_PREFIX = 64 * 1024,   /* bytes a detect function reads */
	PFT_DETECT_MAX_SOURCES = 16,     /* trace IDs reported per buffer */
	PFT_DETECT_MAX_CANDIDATES = 16   /* parse configurations (2 x 4 x 2) */
};

/* How the bytes of a buffer are framed. */
enum pft_frame_format {
	PFT_FRAMES_UNKNOWN = 0,
	PFT_FRAMES_RAW,          /* one source, unformatted */
	PFT_FRAMES_MEMORY,       /* CoreSight frames from offset 0 (ETB/ETF/ETR) */
	PFT_FRAMES_TPIU          /* CoreSight frames with FSYNC/HSYNC (trace port) */
};

/* "unknown", "raw", "formatted", "tpiu". */
pft_export const char *pft_frame_format_name(unsigned format);

/* (enum pft_protocol and pft_protocol_name(): see the pipeline section.) */

/*
 * The protocol of one source's bytes, from at most the first
 * PFT_DETECT_PREFIX bytes of @buf: STPv2 ASYNC (21 nibbles F, then 0)
 * means STM; A-syncs of 11 zeros + 0x80 followed by a trace-info header
 * (0x01) mean ETMv4; A-syncs of 5 zeros + 0x80 are PTM, ETMv3 or ITM: PTM
 * and ETMv3 follow them with an I-sync (0x08, or 0x70 in ETMv3), whose
 * layout differs (PTM: address, then information byte; ETMv3: information
 * byte, then address), and the stream then decodes cleanly with only one
 * protocol's packet lengths and reserved headers; ITM syncs are not
 * followed by I-syncs.  Returns the enum pft_protocol value
 * (PFT_PROTO_UNKNOWN when no protocol decodes the bytes cleanly, or there
 * is no sync), or -PFT_ERR_INVALID (NULL @buf with @len > 0).
 */
pft_export int pft_detect_protocol(const uint8_t *buf, size_t len);

/* One trace source of a buffer. */
struct pft_detect_source {
	uint64_t bytes;          /* its bytes in the whole buffer */
	uint8_t id;              /* trace ID; 0 for raw input */
	uint8_t protocol;        /* enum pft_protocol (of its bytes in the prefix) */
	uint8_t reserved[6];
};

struct pft_detect_frames {
	size_t size;             /* sizeof(struct pft_detect_frames) */
	uint8_t format;          /* enum pft_frame_format */
	uint8_t nsources;        /* entries in @sources, by increasing ID */
	uint8_t more_sources;    /* 1: more IDs had data than @sources holds */
	uint8_t reserved[5];
	uint64_t bad_frames;     /* frames the deformatter rejected (whole buffer) */
	struct pft_detect_source sources[PFT_DETECT_MAX_SOURCES];
};

/*
 * How @buf (@len bytes from the start of a capture) is framed, and its
 * sources.  Each reading (raw, memory-buffer frames, and trace-port frames
 * when an FSYNC occurs) of the first PFT_DETECT_PREFIX bytes is scored by
 * the bytes of its sources whose protocol pft_detect_protocol() recognises;
 * the best wins (raw on a tie: fewest assumptions; frames only when their
 * recognised sources hold at least half the prefix).  Then the whole
 * buffer is deformatted in that format to count each ID's bytes.  @res
 * (@size = sizeof *@res) is filled also when the format is unknown (no
 * sources then).  Returns 0, -PFT_ERR_INVALID (NULL @res or NULL @buf
 * with @len > 0, @size too small) or -PFT_ERR_NOMEM.
 */
pft_export int pft_detect_frames(const uint8_t *buf, size_t len,
				 struct pft_detect_frames *res, size_t size);

/*
 * The first bytes of trace ID @id in the CoreSight frames at @buf (@tpiu:
 * trace-port frames with syncs), up to @cap of them into @out: the prefix
 * to give pft_detect_protocol() and pft_detect_ptm() for one source of a
 * formatted buffer.  Bad frames are skipped.  Returns the number of bytes
 * copied, or -PFT_ERR_INVALID (NULL @buf or @out) or -PFT_ERR_NOMEM.
 */
pft_export int pft_detect_id_bytes(const uint8_t *buf, size_t len, int tpiu, unsigned id,
				   uint8_t *out, size_t cap);

/* Bits of pft_detect_ptm_result.determined: the fields the trace decided. */
enum pft_detect_field {
	PFT_DETECT_CYCLE_ACCURATE = 1 << 0,
	PFT_DETECT_CTXID_BYTES = 1 << 1,
	PFT_DETECT_TIMESTAMPS = 1 << 2,
	PFT_DETECT_TS_64BIT = 1 << 3,
	PFT_DETECT_TS_GRAY = 1 << 4,
	PFT_DETECT_VMID = 1 << 5,
	PFT_DETECT_VERSION = 1 << 6,
	PFT_DETECT_RETURN_STACK = 1 << 7,
	PFT_DETECT_BRANCH_BROADCAST = 1 << 8,
	PFT_DETECT_DMB_DSB = 1 << 9
};

/* A parse configuration: the three options that change packet lengths. */
struct pft_detect_candidate {
	uint8_t cycle_accurate, ctxid_bytes, ts_64bit;
	uint8_t reserved;
	uint32_t bad;            /* its bad packets + implausible packets */
};

struct pft_detect_ptm_result {
	size_t size;             /* sizeof(struct pft_detect_ptm_result) */
	/* The best reading; fields not in @determined keep the defaults of
	 * pft_config_init() (nothing optional enabled, PFTv1.1, 64-bit binary
	 * timestamps) or the best guess noted below. */
	struct pft_config config;
	uint32_t determined;     /* enum pft_detect_field bits */
	/* Bad or implausible packets under @config after the first A-sync
	 * (0 for a clean decode; more means no candidate fits: damaged trace
	 * or not PTM).  With an image: flow errors under @config too. */
	uint32_t errors;
	uint32_t flow_errors;    /* with an image: error elements under @config */
	uint32_t asyncs, isyncs; /* under @config */
	uint64_t examined;       /* bytes read */
	/* The parse configurations that decode the prefix as well as the
	 * best (it included, first): more than one means the prefix cannot
	 * tell them apart, and the fields where they differ are not in
	 * @determined. */
	uint32_t ncandidates;
	struct pft_detect_candidate candidates[PFT_DETECT_MAX_CANDIDATES];
};

/*
 * Find the PTM configuration of one source's bytes @buf, from at most the
 * first PFT_DETECT_PREFIX bytes.  Every parse configuration (cycle-accurate
 * 0/1 x context ID 0/1/2/4 x timestamps 48/64 bits) decodes the prefix;
 * each scores one per bad packet after the first A-sync (a truncated packet
 * at the end of the prefix does not count), per I-sync with reserved bits
 * set or an ARM address that is not word aligned, and per context ID that
 * changes in an I-sync with no context ID packet before it; the lowest
 * score wins, the simplest configuration (fewest context ID bytes, not
 * cycle-accurate, 48-bit) on a tie.  Then under the winner: timestamps and
 * VMID are on when their packets occur (and off when at least two I-syncs
 * came without them); Gray coding when the Gray reading of consecutive
 * timestamps falls less often than the binary one; PFTv1.1 is determined
 * by a VMID or exception-return packet, a Hyp I-sync or 64-bit timestamps
 * (the guess is v1.0 with 48-bit Gray timestamps, else v1.1).  With
 * @image (borrowed; may be NULL), parse configurations that tie are also
 * decoded into flow and the ones with the fewest flow errors stay (a
 * stream read as cycle-accurate when it is not can parse cleanly, but has
 * one atom per atom packet then); and the flow decoder runs the prefix under
 * return stack x branch broadcast x DMB/DSB waypoints (no return stack
 * with branch broadcast) and the fewest error and ADDR_NACC elements
 * decide; branch broadcast is also told by how taken direct branches are
 * traced (branch packets or E atoms).  @res (@size = sizeof *@res).
 * Returns 0, -PFT_ERR_NOSYNC (no A-sync in the prefix; @res still filled,
 * with nothing determined), -PFT_ERR_INVALID (NULL @res, NULL @buf with
 * @len > 0, @size too small) or -PFT_ERR_NOMEM.
 */
pft_export int pft_detect_ptm(const uint8_t *buf, size_t len,
			      struct pft_image *image,
			      struct pft_detect_ptm_result *res, size_t size);

/*
 * Write @cfg as pft command-line options into @buf (@len bytes, NUL
 * terminated), the options a user passes to get it: "--cycle-accurate
 * --ctxid-bytes 4 --timestamps --ts-bits 48 --ts-gray --vmid
 * --return-stack --branch-broadcast --dmb-dsb-waypoints --pft-version
 * 1.0", each only when it differs from pft_config_init()'s default.
 * Returns the length (0 for the default configuration), -PFT_ERR_INVALID
 * (NULL argument) or -PFT_ERR_NOSPACE (@len too small; @buf holds a
 * truncated string when @len > 0).
 */
pft_export int pft_config_options(const struct pft_config *cfg, char *buf,
				  size_t len);

/* ---- Fit check: does the configuration (and image) fit the trace? ---- */

/* The likely cause when a decode looks wrong. */
enum pft_fit_reason {
	PFT_FIT_OK = 0,              /* nothing wrong seen */
	PFT_FIT_CYCLE_ACCURATE,      /* cycle-accurate mode is wrong */
	PFT_FIT_CTXID_BYTES,         /* context ID size is wrong */
	PFT_FIT_TS_BITS,             /* timestamp width is wrong */
	PFT_FIT_TS_GRAY,             /* timestamp encoding (Gray/binary) is wrong */
	PFT_FIT_VERSION,             /* PFT version is wrong */
	PFT_FIT_RETURN_STACK,        /* return stack setting is wrong */
	PFT_FIT_BRANCH_BROADCAST,    /* branch broadcast setting is wrong */
	PFT_FIT_DMB_DSB,             /* DMB/DSB waypoint setting is wrong */
	PFT_FIT_CONFIG,              /* errors after syncs; no configuration fits */
	PFT_FIT_IMAGE_ADDRESS,       /* trace runs outside the image: wrong address? */
	PFT_FIT_IMAGE_CONTENT,       /* the image's code contradicts the trace */
	PFT_FIT_NOT_PTM,             /* the bytes are another protocol or framed */
	PFT_FIT_REASON_MAX
};

/* "ok", "cycle_accurate", "ctxid_bytes", "ts_bits", "ts_gray",
 * "version", "return_stack", "branch_broadcast", "dmb_dsb", "config",
 * "image_address", "image_content", "not_ptm"; "unknown" out of range. */
pft_export const char *pft_fit_reason_name(unsigned reason);

struct pft_fit_verdict {
	size_t size;             /* sizeof(struct pft_fit_verdict) */
	uint32_t reason;         /* enum pft_fit_reason */
	/* Under the configuration in use: */
	uint32_t bad_packets;    /* bad packets after the first A-sync */
	uint32_t asyncs, isyncs;
	uint32_t flow_errors;    /* ERROR elements */
	uint32_t addr_nacc;      /* ADDR_NACC elements */
	uint32_t nacc_after_isync; /* ... of the first range after an I-sync */
	/* The configuration the saved prefix decodes best with (when the
	 * reason is a configuration field; else the one in use). */
	struct pft_config suggested;
	/* One line of English naming the option or image to change. */
	char message[160];
};

struct pft_fit;

/*
 * Allocate a fit check for a decode under @cfg (copied) with @image
 * (borrowed, may be NULL; must outlive the fit check).  The fit check keeps
 * a copy of the first PFT_DETECT_PREFIX stream bytes it is given (memory
 * is constant), to find the configuration that would fit.  Returns NULL
 * with *@errcode (if not NULL) set to -PFT_ERR_INVALID (NULL @cfg) or
 * -PFT_ERR_NOMEM.
 */
pft_export struct pft_fit *pft_fit_alloc(const struct pft_config *cfg,
					 struct pft_image *image, int *errcode);
pft_export void pft_fit_free(struct pft_fit *fit);

/*
 * Count a packet of the decode: @pkt as pft_pkt_next() filled it and
 * @status its return value (0 or a negative error with a BAD packet).
 * Packets must come in stream order, each once.  Returns 0 or
 * -PFT_ERR_INVALID (NULL argument, @size too small).
 */
pft_export int pft_fit_packet(struct pft_fit *fit, const struct pft_packet *pkt,
			      size_t size, int status);

/* Count a flow element of the decode (@size = sizeof *@elem).  Returns 0
 * or -PFT_ERR_INVALID. */
pft_export int pft_fit_elem(struct pft_fit *fit, const struct pft_elem *elem,
			    size_t size);

/*
 * Whether the evidence so far is conclusive: 1 when bad packets followed
 * at least two A-syncs, flow errors came in at least two sync intervals,
 * or the flow left the image right after each of at least two I-syncs (a
 * caller may then ask for the verdict early), else 0; -PFT_ERR_INVALID for
 * NULL @fit.
 */
pft_export int pft_fit_evident(const struct pft_fit *fit);

/*
 * The verdict (@size = sizeof *@v), the first of: bad packets and the
 * saved prefix is formatter frames or another protocol (NOT_PTM); another
 * parse configuration decodes the prefix cleanly (the field that differs:
 * CYCLE_ACCURATE, CTXID_BYTES, TS_BITS); bad packets after A-syncs that no
 * configuration avoids (CONFIG: damaged trace); packets PFTv1.0 cannot
 * send under version 1.0 (VERSION); timestamps that fall under the
 * encoding in use and rise under the other (TS_GRAY); with an image: the
 * first range after most I-syncs outside it (IMAGE_ADDRESS); a flow option
 * the prefix decides otherwise, errors or not (RETURN_STACK,
 * BRANCH_BROADCAST, DMB_DSB); other flow errors (IMAGE_CONTENT).  Can be
 * asked at any time and repeatedly.  Returns the reason (>= 0),
 * -PFT_ERR_INVALID (NULL argument, @size too small) or -PFT_ERR_NOMEM.
 */
pft_export int pft_fit_verdict(struct pft_fit *fit, struct pft_fit_verdict *v,
			       size_t size);

/*
 * What a buffer holds (pft info), read as a stream: feed it in blocks of
 * any size, then finish; memory stays fixed (the first PFT_DETECT_PREFIX
 * bytes of the buffer and of each trace ID), whatever the buffer's length.
 * Per source: its bytes, its protocol (pft_detect_protocol() of its first
 * bytes) and for PTM the configuration pft_detect_ptm() finds.
 */
struct pft_info_config {
	size_t size;             /* sizeof(struct pft_info_config) */
	/* enum pft_frame_format: PFT_FRAMES_RAW (one source), _MEMORY or
	 * _TPIU; PFT_FRAMES_UNKNOWN: frames, with or without trace-port syncs
	 * as pft_detect_frames() decides from the first bytes. */
	uint8_t framing;
	uint8_t reserved[7];
};

struct pft_info_source {
	size_t size;             /* sizeof(struct pft_info_source) */
	int id;                  /* trace ID; -1 for a raw buffer */
	uint8_t protocol;        /* enum pft_protocol */
	uint8_t detected;        /* PTM: @cfg, @determined, @ncandidates are set */
	uint8_t reserved[2];
	uint64_t bytes;          /* the source's bytes in the buffer */
	uint32_t determined;     /* as struct pft_detect_ptm_result */
	uint32_t ncandidates;
	struct pft_config cfg;
};

struct pft_info;

/* Returns NULL with *@errcode (if not NULL) set to -PFT_ERR_INVALID (NULL
 * or bad @cfg) or -PFT_ERR_NOMEM. */
pft_export struct pft_info *pft_info_alloc(const struct pft_info_config *cfg, int *errcode);
/* NULL: no-op. */
pft_export void pft_info_free(struct pft_info *info);

/* The next @len bytes of the buffer (not kept: @buf may be reused at
 * once).  Returns 0, -PFT_ERR_INVALID (NULL @info, NULL @buf with @len,
 * after pft_info_finish()) or -PFT_ERR_NOMEM. */
pft_export int pft_info_feed(struct pft_info *info, const uint8_t *buf, size_t len);

/* The end of the buffer: detection runs now.  Returns 0, -PFT_ERR_INVALID
 * (NULL, or finished already) or -PFT_ERR_NOMEM. */
pft_export int pft_info_finish(struct pft_info *info);

/* The framing (enum pft_frame_format; decided once PFT_DETECT_PREFIX bytes
 * were fed, or at the finish), or -PFT_ERR_INVALID. */
pft_export int pft_info_framing(const struct pft_info *info);

/* After pft_info_finish(): source @index (raw: the one source; frames:
 * every trace ID with bytes, by increasing ID) in *@src (@size = sizeof
 * *@src).  Returns 0, -PFT_ERR_EOS (past the last) or -PFT_ERR_INVALID. */
pft_export int pft_info_source(const struct pft_info *info, size_t index,
			       struct pft_info_source *src, size_t size);

/* ---- End of detect ---- */

/* ======================================================================
 * ETMv3 (pft_etm3_): the trace of Cortex-A5/A7/A8/R4/R5 ETMs
 * ====================================================================== */

/* ---- Section: etm3 ---- */

/*
 * ETMv3 (ARM IHI 0014, versions 3.0-3.5) beside PFT: the same streaming
 * shape (feed/next/finish, BAD packets then resync at the next A-sync;
 * put/next for flow) and the same flow elements (struct pft_elem).
 * doc/etmv3.md lists what was verified and the differences from OpenCSD.
 */
struct pft_etm3_config {
	size_t size;               /* sizeof(struct pft_etm3_config) */
	uint8_t version_minor;     /* ETMIDR[7:4]: 3.x -> x (0-5) */
	uint8_t cycle_accurate;    /* ETMCR[12] */
	uint8_t ctxid_bytes;       /* ETMCR[15:14]: 0, 1, 2 or 4 */
	uint8_t timestamps;        /* ETMCR[28] (v3.5) */
	uint8_t ts_64bit;          /* ETMCCER[29]: 64-bit timestamps */
	uint8_t ts_gray;           /* ETMCCER[28] = 0: Gray-coded timestamps */
	uint8_t vmid;              /* ETMCR[30] (v3.5): VMID packets */
	uint8_t virtualization;    /* ETMCCER[26]: Hyp bits meaningful */
	uint8_t alt_branch;        /* alternative branch encoding: ETMIDR[20]
				    * and version_minor >= 4 */
	uint8_t branch_broadcast;  /* ETMCR[8] */
	uint8_t data_value;        /* ETMCR[2]: data values traced */
	uint8_t data_address;      /* ETMCR[3]: data addresses traced */
	uint8_t data_only;         /* ETMCR[20]: no instruction trace */
	uint8_t trace_id;          /* ETMTRACEIDR[6:0] */
	uint8_t reserved[2];
	/* The registers the configuration came from (0 when set by hand). */
	uint32_t etmcr, etmccer, etmidr, etmtraceidr;
};

/* Zero the @size bytes at @cfg and set its size: ETMv3.5, nothing
 * optional, binary 64-bit timestamps, original branch encoding.  Returns 0
 * or -PFT_ERR_INVALID (NULL, @size below the first layout).  Call it
 * through pft_etm3_config_init(). */
pft_export int pft_etm3_config_init_size(struct pft_etm3_config *cfg, size_t size);

static inline int pft_etm3_config_init(struct pft_etm3_config *cfg)
{
	return pft_etm3_config_init_size(cfg, sizeof(*cfg));
}

/*
 * Derive @cfg from an ETM's ETMCR, ETMCCER, ETMIDR and ETMTRACEIDR
 * (@cfg initialised first).  Returns 0, -PFT_ERR_INVALID (NULL @cfg) or
 * -PFT_ERR_BAD_CONFIG (ETMIDR[11:8] is not 2, ETMv3; @cfg unchanged).
 */
pft_export int pft_etm3_config_from_regs(struct pft_etm3_config *cfg, uint32_t etmcr,
					 uint32_t etmccer, uint32_t etmidr,
					 uint32_t etmtraceidr);

/*
 * The inverse of pft_etm3_config_from_regs(): the registers of an ETM
 * that traces as @cfg says, a Cortex-A7's ETMv3.5 (TC2's: ETMIDR
 * 0x410CF250, ETMCCER 0x044008F2 with the timestamp format of @cfg in bits
 * 29:28) with the version, alternative branch encoding (ETMIDR[20], v3.4+),
 * options (ETMCR) and trace ID of @cfg.  Returns 0, -PFT_ERR_INVALID (NULL,
 * a size below the first layout) or -PFT_ERR_BAD_CONFIG (ctxid_bytes not
 * 0, 1, 2 or 4).
 */
pft_export int pft_etm3_config_to_regs(const struct pft_etm3_config *cfg,
				       struct pft_trace_regs *regs);

/*
 * The configuration of that Cortex-A7 ETMv3.5 programmed with the options
 * of the PTM configuration @ptm that ETMv3 has too (cycle-accurate, context
 * ID, timestamps and their format, VMID, branch broadcast, trace ID), as
 * pft_etm3_config_from_regs() derives it from those registers; return
 * stack, PFT version and DMB/DSB waypoints are left out.  @cfg initialised
 * first.  Returns 0, -PFT_ERR_INVALID or -PFT_ERR_BAD_CONFIG (as above).
 */
pft_export int pft_etm3_config_from_ptm(struct pft_etm3_config *cfg,
					const struct pft_config *ptm);

enum pft_etm3_packet_type {
	PFT_ETM3_PKT_NOTSYNC = 0,     /* bytes before synchronisation */
	PFT_ETM3_PKT_ASYNC,
	PFT_ETM3_PKT_ISYNC,           /* 0x08, or 0x70 with a cycle count */
	PFT_ETM3_PKT_PHEADER,         /* atoms (and W cycles) */
	PFT_ETM3_PKT_BRANCH,
	PFT_ETM3_PKT_CYCLE_COUNT,     /* 0x04 */
	PFT_ETM3_PKT_CONTEXTID,
	PFT_ETM3_PKT_VMID,
	PFT_ETM3_PKT_TIMESTAMP,
	PFT_ETM3_PKT_TRIGGER,
	PFT_ETM3_PKT_IGNORE,
	PFT_ETM3_PKT_EXCEPTION_ENTRY, /* 0x7E (ARMv7-M data trace marker) */
	PFT_ETM3_PKT_EXCEPTION_RETURN,/* 0x76 */
	PFT_ETM3_PKT_DATA,            /* normal data b00A0SS10 */
	PFT_ETM3_PKT_DATA_OOO,        /* out-of-order data b0TT0SS00 */
	PFT_ETM3_PKT_DATA_PLACEHOLDER,/* out-of-order placeholder b01A1TT00 */
	PFT_ETM3_PKT_STORE_FAILED,    /* 0x50 */
	PFT_ETM3_PKT_DATA_SUPPRESSED, /* 0x62 */
	PFT_ETM3_PKT_VALUE_NOT_TRACED,/* b011A1010 */
	PFT_ETM3_PKT_BAD,             /* see pft_etm3_packet.bad */
	PFT_ETM3_PKT_TYPE_MAX
};

/* "notsync", "async", "isync", "pheader", "branch", "cycle_count",
 * "ctxid", "vmid", "timestamp", "trigger", "ignore", "exception_entry",
 * "exception_return", "data", "data_ooo", "data_placeholder",
 * "store_failed", "data_suppressed", "value_not_traced", "error";
 * "unknown" out of range. */
pft_export const char *pft_etm3_pkt_type_name(enum pft_etm3_packet_type type);

/* One ETMv3 packet.  Fields not meaningful for @type are zero. */
struct pft_etm3_packet {
	uint64_t offset;          /* input offset of the first byte */
	const uint8_t *raw;       /* the @size bytes; valid until the next call */
	uint64_t ts;              /* TIMESTAMP: merged value, Gray decoded */
	uint64_t ts_raw;          /* merged value as sent */
	/* ISYNC, BRANCH: the full address (Thumb bit removed); DATA,
	 * DATA_PLACEHOLDER, VALUE_NOT_TRACED with has_data_addr: the data
	 * address merged with the previous one. */
	uint32_t addr;
	uint32_t lsip_addr;       /* ISYNC with lsip: where tracing goes on */
	/* PHEADER (cycle-accurate): W cycles in the header; CYCLE_COUNT and
	 * ISYNC with has_cycles: the count. */
	uint32_t cycles;
	uint32_t ctxid;           /* ISYNC (ctxid_bytes > 0), CONTEXTID */
	/* PHEADER: @n_atoms atoms (0-16), bit i = atom i, oldest first,
	 * 1 = E (executed), 0 = N (condition failed). */
	uint32_t atoms;
	uint32_t value;           /* DATA, DATA_OOO: the value (value_bytes) */
	uint16_t size;            /* bytes in the packet */
	uint16_t exception;       /* BRANCH: exception number (0 = none) */
	uint8_t type;             /* enum pft_etm3_packet_type */
	uint8_t isa;              /* ISYNC, BRANCH: enum pft_isa at addr */
	uint8_t addr_bytes;       /* BRANCH: address bytes, 1-5 */
	uint8_t reason;           /* ISYNC: enum pft_isync_reason */
	/* ISYNC; BRANCH with exception bytes (hyp only with E1). */
	uint8_t ns, hyp, altis;
	uint8_t exc_bytes;        /* BRANCH: exception information bytes, 0-3 */
	uint8_t cancel;           /* BRANCH: E0 Cancel (the last atom's
				   * instruction did not complete) */
	uint8_t resume;           /* BRANCH: E2 resume (ARMv7-M) */
	uint8_t has_cycles;       /* ISYNC: 0x70 header */
	/* PHEADER: the format, 0-4 when cycle-accurate, else 1-2 (IHI 0014
	 * P-header formats).  It places the W cycles: format 1 has one W
	 * before each atom, format 2 one W before the first, format 3 all
	 * before its atom (if any), formats 0 and 4 none. */
	uint8_t format;
	uint8_t n_atoms;
	uint8_t has_ctxid;
	uint8_t vmid;             /* VMID */
	uint8_t ts_bits;          /* TIMESTAMP: low-order bits updated */
	uint8_t ts_clock_change;  /* TIMESTAMP: header R bit */
	uint8_t lsip;             /* ISYNC: load/store in progress */
	uint8_t jazelle;          /* ISYNC: J bit */
	uint8_t has_data_addr;    /* data packets: an address was sent */
	uint8_t value_bytes;      /* DATA, DATA_OOO: 0, 1, 2 or 4 */
	uint8_t tag;              /* DATA_OOO, DATA_PLACEHOLDER: tag 1-3 */
	uint8_t bad;              /* BAD: PFT_ERR_PKT_* (enum pft_error_code) */
	uint8_t reserved[3];
};

struct pft_etm3_pkt_decoder;

/* Allocate a packet decoder for a stream described by @cfg (copied).
 * Returns NULL with *@errcode (if not NULL) set to -PFT_ERR_INVALID (NULL
 * @cfg or @cfg->size too small), -PFT_ERR_BAD_CONFIG (ctxid_bytes not
 * 0/1/2/4) or -PFT_ERR_NOMEM; 0 on success.  Memory is constant after. */
pft_export struct pft_etm3_pkt_decoder *pft_etm3_pkt_alloc(const struct pft_etm3_config *cfg,
							   int *errcode);
pft_export void pft_etm3_pkt_free(struct pft_etm3_pkt_decoder *d);

/* As pft_pkt_feed()/pft_pkt_feed_at(): the buffer is borrowed until
 * pft_etm3_pkt_next() returns -PFT_ERR_NEED_INPUT.  Returns 0,
 * -PFT_ERR_INVALID (NULL @d, NULL @buf with @len > 0, or bytes of the
 * previous feed not yet decoded) or -PFT_ERR_EOS after finish. */
pft_export int pft_etm3_pkt_feed(struct pft_etm3_pkt_decoder *d, const uint8_t *buf,
				 size_t len);
pft_export int pft_etm3_pkt_feed_at(struct pft_etm3_pkt_decoder *d, const uint8_t *buf,
				    size_t len, uint64_t offset);

/*
 * The next packet in @pkt (@size = sizeof *pkt).  Returns 0 (a packet,
 * NOTSYNC included), -PFT_ERR_NEED_INPUT, -PFT_ERR_EOS (after finish,
 * nothing left), -PFT_ERR_BAD_OPCODE (a reserved header, or a data header
 * without data trace: a BAD packet), -PFT_ERR_BAD_PACKET (zeros that are
 * not an A-sync of 5-15 zeros and 0x80, a 5th address byte naming no
 * instruction set: a BAD packet), -PFT_ERR_TRUNCATED (after finish, the
 * stream ended inside a packet: a BAD packet with its bytes) or
 * -PFT_ERR_INVALID (NULL arguments, @size too small).  After a BAD packet
 * the bytes up to the next A-sync come back as NOTSYNC.  Every byte fed
 * comes back in exactly one packet, in order.
 */
pft_export int pft_etm3_pkt_next(struct pft_etm3_pkt_decoder *d,
				 struct pft_etm3_packet *pkt, size_t size);

/* No more input will come. Returns 0 or -PFT_ERR_INVALID. */
pft_export int pft_etm3_pkt_finish(struct pft_etm3_pkt_decoder *d);

/* Give up synchronisation: bytes up to the next A-sync are NOTSYNC.
 * Returns 0 or -PFT_ERR_INVALID. */
pft_export int pft_etm3_pkt_sync_forward(struct pft_etm3_pkt_decoder *d);

/* Forget everything but the configuration.  Returns 0 or -PFT_ERR_INVALID. */
pft_export int pft_etm3_pkt_reset(struct pft_etm3_pkt_decoder *d);

/* Offset of the next byte the decoder will look at (0 for NULL @d). */
pft_export uint64_t pft_etm3_pkt_get_offset(const struct pft_etm3_pkt_decoder *d);

/*
 * The ETMv3 flow decoder: packets + image -> struct pft_elem, with the
 * PTM vocabulary.  Atoms are per instruction: consecutive executed
 * instructions are grouped into one RANGE, which ends at an instruction
 * that changed the flow (@taken = 1: an E atom on a branch), at an N atom
 * (condition failed: @taken = 0, the instruction is the range's @last),
 * and before any other element.  A range's @cycles (cycle-accurate) sums
 * the W cycles of its instructions.  The last range stays pending until
 * the next packet shows it complete (a Cancel may retract its last
 * instruction), so call pft_etm3_flow_finish() at the end.
 */
struct pft_etm3_flow;

/* Allocate a flow decoder for @cfg (copied), reading instructions from
 * @image (borrowed: it must outlive the decoder and not change while it is
 * used, decoded instructions are cached; NULL: every instruction is
 * ADDR_NACC).  Returns NULL
 * with *@errcode set to -PFT_ERR_INVALID, -PFT_ERR_BAD_CONFIG or
 * -PFT_ERR_NOMEM. */
pft_export struct pft_etm3_flow *pft_etm3_flow_alloc(const struct pft_etm3_config *cfg,
						     struct pft_image *image, int *errcode);
pft_export void pft_etm3_flow_free(struct pft_etm3_flow *f);

/* Apply one packet (BAD packets included; elements wait for
 * pft_etm3_flow_next()).  Returns 0, -PFT_ERR_INVALID (NULL argument,
 * @size too small, a field out of range: type, isa, more than 16 atoms;
 * or elements of the previous packet not all taken). */
pft_export int pft_etm3_flow_put(struct pft_etm3_flow *f, const struct pft_etm3_packet *pkt,
				 size_t size);

/* The end of the stream: the pending range becomes an element.  Returns 0,
 * or -PFT_ERR_INVALID (NULL @f, or elements not taken). */
pft_export int pft_etm3_flow_finish(struct pft_etm3_flow *f);

/* The next element, or -PFT_ERR_NEED_INPUT; -PFT_ERR_INVALID for NULL
 * arguments or @size 0. */
pft_export int pft_etm3_flow_next(struct pft_etm3_flow *f, struct pft_elem *elem,
				  size_t size);

/* Forget all state: the next elements start with NO_SYNC.  Returns 0 or
 * -PFT_ERR_INVALID. */
pft_export int pft_etm3_flow_reset(struct pft_etm3_flow *f);

/* Instructions in the ranges reported so far (0 for NULL @f). */
pft_export uint64_t pft_etm3_flow_insn_count(const struct pft_etm3_flow *f);


/*
 * The ETMv3 packet encoder: struct pft_etm3_packet -> bytes, as
 * etmv3-protocol.md section 4 describes them, keeping the compression
 * state an ETM keeps (the previous branch or I-sync address and ISA, the
 * NS and Hyp state last sent, the previous timestamp).  Input fields by
 * type (others ignored; @size, @offset, @raw, @addr_bytes, @exc_bytes,
 * @ts_raw, @ts_bits and @bad always):
 *   ASYNC      always `00 00 00 00 00 80`.
 *   ISYNC      addr, isa (ARM, THUMB), reason, ns, hyp (with
 *              virtualization), ctxid (ctxid_bytes of it), has_cycles +
 *              cycles (header 0x70; cycle-accurate only).  No LSiP.
 *   PHEADER    format, n_atoms, atoms, cycles (W's), as the decoder gives
 *              them; the combination must exist (format 1: E..E then at
 *              most one N, up to 15 E, cycle-accurate 7 with one W each;
 *              format 2: two atoms, cycle-accurate one W; formats 0, 3, 4
 *              cycle-accurate only).
 *   BRANCH     addr, isa (ARM, THUMB), exception (0-511), cancel, ns, hyp:
 *              exception bytes go out when exception or cancel is set or
 *              ns/hyp differ from the state last sent; the fewest address
 *              bytes in the configured encoding (5 on an ISA change, and in
 *              the original encoding whenever exception bytes follow).
 *   CYCLE_COUNT cycles (cycle-accurate only).  CONTEXTID ctxid.  VMID vmid.
 *   TIMESTAMP  ts (binary; Gray coded when cfg->ts_gray; fits 48 bits
 *              unless ts_64bit), ts_clock_change; only the changed low
 *              7-bit groups, all of them first and after force_tsync.
 *   TRIGGER, IGNORE, EXCEPTION_RETURN -- no fields.
 * Data trace packets are not encoded.
 */
struct pft_etm3_encoder;

enum {
	PFT_ETM3_ENC_MAX_PACKET = 16  /* bytes; the longest packet has 15 */
};

/* Allocate an encoder for @cfg (copied).  Returns NULL with *@errcode set
 * (if not NULL) to -PFT_ERR_INVALID (NULL @cfg, size too small),
 * -PFT_ERR_BAD_CONFIG (ctxid_bytes not 0/1/2/4, data trace or data-only
 * mode) or -PFT_ERR_NOMEM. */
pft_export struct pft_etm3_encoder *pft_etm3_enc_alloc(const struct pft_etm3_config *cfg,
							int *errcode);
pft_export void pft_etm3_enc_free(struct pft_etm3_encoder *e);

/* Encode @pkt into @out (@outlen bytes; PFT_ETM3_ENC_MAX_PACKET is always
 * enough).  Returns the bytes written, -PFT_ERR_INVALID (NULL argument, a
 * type or field the encoder or configuration does not allow, see above)
 * or -PFT_ERR_NOSPACE (@outlen too small, as pft_enc_packet()).  On error
 * nothing is written and the state is unchanged. */
pft_export int pft_etm3_enc_packet(struct pft_etm3_encoder *e,
				   const struct pft_etm3_packet *pkt, uint8_t *out,
				   size_t outlen);

/* Forget the compression state (the next branch address goes in 5 bytes,
 * the next timestamp in full).  Returns 0 or -PFT_ERR_INVALID. */
pft_export int pft_etm3_enc_reset(struct pft_etm3_encoder *e);

/* The next timestamp goes in full.  Returns 0 or -PFT_ERR_INVALID. */
pft_export int pft_etm3_enc_force_tsync(struct pft_etm3_encoder *e);

/*
 * The ETMv3 model: as the PTM model (section model: same log input, same
 * struct pft_model_config, same errors and PFT_ERR_MODEL_* reasons),
 * but behaving as an ETMv3.5 (Cortex-A7 class): one atom per traced
 * instruction, E or N (a conditional branch by the next address; another
 * conditional instruction by the flags @has_nzcv gives, E without them),
 * a branch packet after each taken indirect branch (and each taken direct
 * one with branch_broadcast), cycles as W's.  doc/model.md says which
 * packets it sends and when.
 */
struct pft_etm3_model;

/* Allocate a model of an ETM configured as @cfg (copied; data trace must
 * be off), with @mcfg (copied; NULL for the defaults; ts_period counts
 * taken branches), reading instructions from @image (borrowed).  Returns
 * NULL with *@errcode (if not NULL) set to -PFT_ERR_INVALID (NULL @cfg or
 * @image, a size too small), -PFT_ERR_BAD_CONFIG (ctxid_bytes not
 * 0/1/2/4, data trace, a filter with @filter_end <= @filter_start) or
 * -PFT_ERR_NOMEM. */
pft_export struct pft_etm3_model *pft_etm3_model_alloc(const struct pft_etm3_config *cfg,
						       const struct pft_model_config *mcfg,
						       struct pft_image *image, int *errcode);
pft_export void pft_etm3_model_free(struct pft_etm3_model *m);

/* As pft_model_put(), pft_model_finish(), pft_model_error(),
 * pft_model_bytes() and pft_model_insns(), with the same return codes. */
pft_export int pft_etm3_model_put(struct pft_etm3_model *m, const struct pft_model_insn *insn,
				  size_t size);
pft_export int pft_etm3_model_finish(struct pft_etm3_model *m);
pft_export enum pft_error_code pft_etm3_model_error(const struct pft_etm3_model *m);
pft_export uint64_t pft_etm3_model_bytes(const struct pft_etm3_model *m);
pft_export uint64_t pft_etm3_model_insns(const struct pft_etm3_model *m);

/* The next packet (@size = sizeof *@pkt): the fields given to the encoder,
 * @raw and @size its bytes (valid until the next call on the model) and
 * @offset its position in the stream.  Returns 0, -PFT_ERR_NEED_INPUT
 * (the packets of the last put are all taken; -PFT_ERR_EOS instead after
 * finish) or -PFT_ERR_INVALID. */
pft_export int pft_etm3_model_next(struct pft_etm3_model *m, struct pft_etm3_packet *pkt,
				   size_t size);

/* ---- End of etm3 ---- */

/* ======================================================================
 * perf.data (pft_perf_): Linux perf's CoreSight AUX trace files
 * ====================================================================== */

/* ---- Section: perf ---- */

/*
 * Reading.  A perf.data file is pulled record by record: first the records
 * of the data section in file order, then the entries of the feature
 * sections pft understands (HEADER_AUXTRACE index entries, BUILD_ID
 * entries).  The header, the attributes and the cs_etm metadata are kept
 * by the reader; everything else is streamed, so memory does not grow
 * with the file: a record is at most 64 KiB, and the trace bytes that
 * follow an AUXTRACE record are read by the caller in chunks of its choice
 * with pft_perf_read_aux() (or skipped by the next pft_perf_next()).
 *
 * To decode one AUX buffer a caller needs, from these records:
 *  - AUXTRACE: cpu (UINT32_MAX in per-thread mode), tid, the position of
 *    the bytes in the thread's or CPU's AUX area (offset, size) and the
 *    bytes themselves;
 *  - AUX: the part [aux_offset, aux_offset + aux_size) of that area the
 *    kernel filled in one go, which lies inside one AUXTRACE buffer of the
 *    same tid (per thread) or cpu (sample_id); its gap flags (TRUNCATED,
 *    COLLISION: trace was lost before the next part, so the decoder
 *    restarts) and its data format (PFT_PERF_AUX_RAW: one unformatted
 *    source; otherwise 16-byte CoreSight frames);
 *  - the trace unit: pft_perf_cpu() lists the blocks; take the one whose
 *    cpu is the AUXTRACE cpu (per thread: whose trace ID the frames carry,
 *    or the only one), and pft_perf_cpu_config() for its pft_config.
 */

/* Record types (perf's PERF_RECORD_* numbers), and the feature entries
 * this reader returns after the data section (a data record of a type
 * from 0x10000 up is BAD_FILE: it would read as a feature entry). */
enum pft_perf_type {
	PFT_PERF_MMAP = 1,
	PFT_PERF_COMM = 3,
	PFT_PERF_MMAP2 = 10,
	PFT_PERF_AUX = 11,
	PFT_PERF_ITRACE_START = 12,
	PFT_PERF_AUX_OUTPUT_HW_ID = 21,
	PFT_PERF_AUXTRACE_INFO = 70,
	PFT_PERF_AUXTRACE = 71,
	/* Not records: entries of feature sections. */
	PFT_PERF_FEAT_AUXTRACE_INDEX = 0x10000,
	PFT_PERF_FEAT_BUILD_ID
};

/* AUX record flags. */
enum {
	PFT_PERF_AUX_TRUNCATED = 0x01,  /* the AUX area was full: data lost */
	PFT_PERF_AUX_OVERWRITE = 0x02,  /* snapshot mode: older data overwritten */
	PFT_PERF_AUX_PARTIAL = 0x04,    /* the record holds a partial sample */
	PFT_PERF_AUX_COLLISION = 0x08,  /* sample collided with another */
	PFT_PERF_AUX_FORMAT_MASK = 0xff00,
	PFT_PERF_AUX_RAW = 0x0100       /* CoreSight: unformatted, one source */
};

/* perf_event_attr.sample_type bits the reader understands. */
enum {
	PFT_PERF_SAMPLE_IP = 1u << 0,
	PFT_PERF_SAMPLE_TID = 1u << 1,
	PFT_PERF_SAMPLE_TIME = 1u << 2,
	PFT_PERF_SAMPLE_ID = 1u << 6,
	PFT_PERF_SAMPLE_CPU = 1u << 7,
	PFT_PERF_SAMPLE_PERIOD = 1u << 8,
	PFT_PERF_SAMPLE_STREAM_ID = 1u << 9,
	PFT_PERF_SAMPLE_IDENTIFIER = 1u << 16
};

/* The cs_etm event's attr.config: ETM options at their ETMCR positions. */
enum {
	PFT_PERF_ETM_BRANCH_BROADCAST = 1u << 8,
	PFT_PERF_ETM_CYCLE_ACCURATE = 1u << 12,
	PFT_PERF_ETM_CONTEXTID = 1u << 14,
	PFT_PERF_ETM_TIMESTAMP = 1u << 28,
	PFT_PERF_ETM_RETURN_STACK = 1u << 29
};

/* The file header and the section table. */
struct pft_perf_header {
	size_t size;                  /* sizeof(struct pft_perf_header) */
	uint64_t attr_size;           /* bytes per attribute entry */
	uint64_t attrs_offset, attrs_size;
	uint64_t data_offset, data_size;
	uint64_t features[4];         /* feature bitmap (bit 18: AUXTRACE) */
	uint32_t nr_attrs;
	uint32_t nr_cpus;             /* ETM blocks in AUXTRACE_INFO (0 before it) */
};

/* One event attribute (perf_event_attr and its IDs). */
struct pft_perf_attr {
	size_t size;                  /* sizeof(struct pft_perf_attr) */
	uint32_t type;                /* PMU type: cs_etm's is dynamic */
	uint32_t attr_size;           /* perf_event_attr.size */
	uint64_t config;              /* cs_etm: PFT_PERF_ETM_* */
	uint64_t sample_type;         /* PFT_PERF_SAMPLE_* */
	uint64_t flags;               /* the bit-field word (disabled, ...) */
	uint8_t sample_id_all;        /* records carry the sample-ID trailer */
	uint8_t reserved[7];
	uint64_t nr_ids;              /* entries in the attribute's ID list */
	uint64_t first_id;            /* the first of them (0 when none) */
};

/* ETM architecture of a CPU's AUXTRACE_INFO block. */
enum pft_perf_etm {
	PFT_PERF_ETM_V3 = 0,          /* ETMv3 or PTM: registers decoded */
	PFT_PERF_ETM_V4,              /* ETMv4: named, not decoded */
	PFT_PERF_ETE                  /* ETE: named, not decoded */
};

/* One CPU's trace unit, from AUXTRACE_INFO (cs_etm). */
struct pft_perf_cpu {
	size_t size;                  /* sizeof(struct pft_perf_cpu) */
	enum pft_perf_etm etm;
	uint32_t cpu;
	uint32_t etmcr, etmtraceidr, etmccer, etmidr;  /* PFT_PERF_ETM_V3 only */
	uint8_t is_ptm;               /* ETMIDR[11:8] = 3 */
	uint8_t trace_id_pending;     /* version 2: ETMTRACEIDR[31] set, the ID
					 comes in AUX_OUTPUT_HW_ID */
	uint8_t reserved[6];
};

/* The sample-ID trailer of a record (attr.sample_id_all). */
struct pft_perf_sample_id {
	uint8_t valid;                /* a trailer was parsed */
	uint8_t has_tid, has_time, has_id, has_stream_id, has_cpu;
	uint8_t reserved[2];
	uint32_t pid, tid, cpu;
	uint64_t time, id, stream_id;
};

struct pft_perf_record {
	size_t size;                  /* sizeof(struct pft_perf_record) */
	uint32_t type;                /* enum pft_perf_type, or another PERF_RECORD_* */
	uint16_t misc;
	uint16_t rec_size;            /* perf_event_header.size */
	uint64_t offset;              /* file offset of the record */
	struct pft_perf_sample_id sample_id;
	/* By type; pointers stay valid until the next call on the reader. */
	union {
		struct {              /* MMAP, MMAP2 */
			uint32_t pid, tid;
			uint64_t addr, len, pgoff;
			uint32_t maj, min;            /* MMAP2 without build ID */
			uint64_t ino, ino_generation;
			uint8_t build_id_size;        /* MMAP2 with build ID */
			uint8_t build_id[20];
			uint32_t prot, flags;         /* MMAP2 */
			const char *filename;
		} mmap;
		struct {              /* COMM */
			uint32_t pid, tid;
			const char *comm;
		} comm;
		struct {              /* AUX */
			uint64_t aux_offset, aux_size, flags;
		} aux;
		struct {              /* ITRACE_START */
			uint32_t pid, tid;
		} itrace_start;
		struct {              /* AUX_OUTPUT_HW_ID */
			uint64_t hw_id;
			uint8_t trace_id;             /* bits 7:0 */
			uint8_t version_major, version_minor;  /* 63:60, 59:56 */
			uint32_t sink_id;             /* bits 39:8 */
		} hw_id;
		struct {              /* AUXTRACE_INFO (cs_etm) */
			uint32_t type;                /* 3 = cs_etm */
			uint64_t version;             /* header version 0..2 */
			uint32_t pmu_type;
			uint32_t nr_cpus;             /* pft_perf_cpu() 0..nr-1 */
			uint64_t snapshot;
		} auxtrace_info;
		struct {              /* AUXTRACE: bytes via pft_perf_read_aux() */
			uint64_t size;                /* bytes that follow */
			uint64_t offset;              /* position in the AUX area */
			uint64_t reference;
			uint32_t idx, tid, cpu;       /* cpu = UINT32_MAX: per thread */
		} auxtrace;
		struct {              /* FEAT_AUXTRACE_INDEX */
			uint64_t file_offset, size;   /* of an AUXTRACE record */
		} index;
		struct {              /* FEAT_BUILD_ID */
			int32_t pid;
			uint8_t build_id_size;
			uint8_t build_id[20];
			const char *filename;
		} build_id;
	} u;
};

struct pft_perf;

/*
 * Open the perf.data file @path for reading.  Only a regular file is
 * accepted (a FIFO or device is refused without blocking).  The header is
 * read by the first pft_perf_header(), pft_perf_attr() or pft_perf_next(),
 * so that a malformed one is reported with its offset.  Returns the
 * reader (free with pft_perf_close()), or NULL with *@errcode (if @errcode
 * is not NULL) set to -PFT_ERR_INVALID (NULL @path), -PFT_ERR_NOMEM or
 * -PFT_ERR_BAD_FILE (cannot be opened, not a regular file).
 */
pft_export struct pft_perf *pft_perf_open(const char *path, int *errcode);

/* Close @r (NULL is a no-op). */
pft_export void pft_perf_close(struct pft_perf *r);

/*
 * The file header into @hdr (@size = sizeof *@hdr; nr_cpus counts the
 * AUXTRACE_INFO blocks read so far).  Returns 0, -PFT_ERR_INVALID (NULL
 * argument, @size 0) or -PFT_ERR_BAD_FILE (no PERFILE2 magic, a
 * big-endian file, a header size other than 104 (such as perf's pipe
 * format), sections outside the file, attribute entries of a size or
 * number the reader cannot take: over 1 KiB, over 256).
 */
pft_export int pft_perf_header(struct pft_perf *r, struct pft_perf_header *hdr,
			       size_t size);

/*
 * Attribute @index (0 .. nr_attrs - 1) into @attr (@size = sizeof *@attr).
 * Returns 0, -PFT_ERR_EOS (@index is past the last), -PFT_ERR_INVALID
 * (NULL argument, @size 0) or -PFT_ERR_BAD_FILE (as pft_perf_header()).
 */
pft_export int pft_perf_attr(struct pft_perf *r, size_t index,
			     struct pft_perf_attr *attr, size_t size);

/*
 * The next record or feature entry into @rec (@size = sizeof *@rec).  The
 * trace bytes after an AUXTRACE record that pft_perf_read_aux() has not
 * taken are skipped.  Unknown record types come with their header fields
 * only.  Returns 0, -PFT_ERR_EOS (no more), -PFT_ERR_INVALID (NULL
 * argument, @size 0) or -PFT_ERR_BAD_FILE: a malformed header or record
 * (truncated, a size of 0 or past the end of its section, a cs_etm header
 * version above 2, counts that do not fit the record); the offset of the
 * fault is pft_perf_get_offset(), and every later call fails the same way.
 */
pft_export int pft_perf_next(struct pft_perf *r, struct pft_perf_record *rec,
			     size_t size);

/*
 * Up to @len trace bytes of the AUXTRACE record pft_perf_next() returned
 * last, into @buf.  Returns the number of bytes (0 once all were read),
 * -PFT_ERR_INVALID (NULL argument) or -PFT_ERR_BAD_FILE (read error, or
 * the reader failed before).
 */
pft_export int pft_perf_read_aux(struct pft_perf *r, uint8_t *buf, size_t len);

/*
 * The file offset of the last record returned, or of the fault after
 * -PFT_ERR_BAD_FILE, into *@offset.  Returns 0 or -PFT_ERR_INVALID.
 */
pft_export int pft_perf_get_offset(const struct pft_perf *r, uint64_t *offset);

/*
 * CPU block @index (0 .. nr_cpus - 1) of the last AUXTRACE_INFO record
 * into @cpu (@size = sizeof *@cpu).  Returns 0, -PFT_ERR_EOS (no such
 * block) or -PFT_ERR_INVALID (NULL argument, @size 0).
 */
pft_export int pft_perf_cpu(const struct pft_perf *r, size_t index,
			    struct pft_perf_cpu *cpu, size_t size);

/*
 * The decoder configuration of @cpu from all four of its registers
 * (pft_config_from_regs()); @cfg must have been initialised.  With
 * @cpu->trace_id_pending the trace ID is the legacy placeholder: take
 * cfg->trace_id from the AUX_OUTPUT_HW_ID record of the CPU instead.  Returns 0,
 * -PFT_ERR_INVALID (NULL argument), -PFT_ERR_NOT_SUPPORTED (an ETMv4 or
 * ETE block) or -PFT_ERR_BAD_CONFIG (an ETMv3, not a PTM).
 */
pft_export int pft_perf_cpu_config(const struct pft_perf_cpu *cpu,
				   struct pft_config *cfg);

/*
 * Writing: a perf.data file as `perf record -e cs_etm//u` writes it in
 * per-thread mode, for one thread on one CPU with a PTM, which Linux perf
 * (6.1) reads and decodes: one cs_etm attribute, AUXTRACE_INFO (header
 * version 1, one ETMv3/PTM block), COMM, an MMAP2 per pft_perf_write_mmap(),
 * then one AUX record and one AUXTRACE buffer with all the trace, the
 * HEADER_BUILD_ID feature (the GNU build ID note of each mapped ELF file
 * that has one, so that perf or pft_input_open_perf() find the file in a
 * build-id cache) and the HEADER_AUXTRACE index.  The trace is streamed
 * to the file.
 */
struct pft_perf_write_config {
	size_t size;                  /* sizeof(struct pft_perf_write_config) */
	uint32_t etmcr, etmtraceidr, etmccer, etmidr;  /* the PTM's registers */
	uint32_t pid, tid;            /* the traced thread */
	uint32_t cpu;                 /* the CPU it ran on */
	uint32_t pmu_type;            /* cs_etm's PMU type (0: 8) */
	const char *comm;             /* its name (copied; NULL: "pft") */
	uint8_t raw;                  /* trace bytes are one unformatted source,
					 not CoreSight frames */
	uint8_t reserved[7];
};

struct pft_perf_writer;

/*
 * Create @path and write the header records.  Returns the writer, or NULL
 * with *@errcode (if not NULL) set to -PFT_ERR_INVALID (NULL @path or
 * @wc, @wc->size 0), -PFT_ERR_NOMEM or -PFT_ERR_BAD_FILE (cannot create
 * or write the file).
 */
pft_export struct pft_perf_writer *
pft_perf_write_alloc(const char *path, const struct pft_perf_write_config *wc,
		     int *errcode);

/*
 * An MMAP2 record: @filename (an absolute path, so that perf finds it) is
 * mapped at [@addr, @addr + @len) from file offset @pgoff; its build ID,
 * if it is a readable ELF file with one, is read now for HEADER_BUILD_ID.
 * All mappings come before the trace.  Returns 0, -PFT_ERR_INVALID (NULL
 * argument, a name over 4 KiB, called after pft_perf_write_trace()),
 * -PFT_ERR_NOMEM or -PFT_ERR_BAD_FILE (write error).
 */
pft_export int pft_perf_write_mmap(struct pft_perf_writer *w, uint64_t addr,
				   uint64_t len, uint64_t pgoff,
				   const char *filename);

/* Append @len trace bytes.  Returns 0, -PFT_ERR_INVALID (NULL argument,
 * called after pft_perf_write_finish()) or -PFT_ERR_BAD_FILE (write
 * error). */
pft_export int pft_perf_write_trace(struct pft_perf_writer *w,
				    const uint8_t *buf, size_t len);

/*
 * Complete the file: the AUX and AUXTRACE sizes, the feature sections and
 * the header.  Returns 0, -PFT_ERR_INVALID (NULL @w, finished before) or
 * -PFT_ERR_BAD_FILE (write error).
 */
pft_export int pft_perf_write_finish(struct pft_perf_writer *w);

/* Close the file and free @w (NULL is a no-op); without
 * pft_perf_write_finish() the file is incomplete. */
pft_export void pft_perf_write_free(struct pft_perf_writer *w);

/*
 * perf.data as a pft_input (input section): pft_input_open_perf() reads
 * the AUXTRACE_INFO metadata and makes one source per CPU block (PTM and
 * ETMv3 decoded with all four registers; ETMv4 and ETE listed with
 * decoded = 0; pft_input_source()'s cpu says which CPU), per queue of
 * AUXTRACE buffers: the CPU's in per-CPU mode (perf record -a), the
 * thread's in per-thread mode, where every CPU block is a source of the
 * one frame-formatted stream.  The buffers are fed as their AUX records
 * say: frame-formatted or raw (PFT_PERF_AUX_RAW), and only the bytes the
 * AUX records cover; an AUX record flagged TRUNCATED, PARTIAL or
 * COLLISION (trace was lost after it) ends the decode state: the next
 * buffer of the queue starts a new pipeline, after a GAP item with status
 * -PFT_ERR_TRUNCATED.  With several queues the
 * items are merged in trace-timestamp order: a queue's items carry the
 * last timestamp it decoded (0 before the first), and the queue with the
 * lowest goes next (queues without timestamps: in queue order).
 *
 * Images: the user's (pft_input_add_elf(), _image()) first; then every
 * executable MMAP/MMAP2 of a process (not the kernel's, pid -1, nor
 * "[vdso]"-like names) as an ELF at the bias the mapping gives, found as
 * @pc->symfs + path, then in the build-id cache (@pc->buildid_dir/
 * .build-id/xx/rest/elf, or the file without /elf) when the file has a
 * build ID, then by its path.  A mapping that meets a user image is left
 * to it (user = 1); one found nowhere is listed with found = NULL and its
 * addresses decode to ADDR_NACC elements.  All processes share one image:
 * two that map different files at one address cannot be decoded together
 * (-PFT_ERR_BAD_CONFIG).
 *
 * Memory: each queue holds one perf.data reader (its record buffer, at
 * most 64 KiB), one read block (256 KiB) and one pipeline; at most one
 * item per queue waits for the merge.  The mappings are kept (one entry
 * per MMAP record of a process).  Nothing grows with the trace.
 */
struct pft_input_perf_config {
	size_t size;             /* sizeof(struct pft_input_perf_config) */
	const char *symfs;       /* NULL: none */
	const char *buildid_dir; /* perf's ~/.debug; NULL: no build-id cache */
};

/*
 * Decode perf.data file @path in @in (nothing else opened before).
 * Returns 0, or (pft_input_message() names the file and offset):
 * -PFT_ERR_BAD_FILE (cannot be read, malformed: as pft_perf_next(), an
 * AUXTRACE buffer of a CPU no block describes, an image that is not an
 * ARM ELF), -PFT_ERR_NOMAP (no AUXTRACE_INFO of cs_etm, no trace unit pft
 * decodes, no trace), -PFT_ERR_BAD_CONFIG (registers, overlapping images),
 * -PFT_ERR_INVALID (NULL argument, @in opened before) or -PFT_ERR_NOMEM.
 * After a failure, @in is spent: pft_input_next() returns -PFT_ERR_INVALID.
 */
pft_export int pft_input_open_perf(struct pft_input *in, const char *path,
				   const struct pft_input_perf_config *pc);

/* One MMAP/MMAP2 record of a process, and where its file was found. */
struct pft_input_perf_mmap {
	size_t size;             /* sizeof(struct pft_input_perf_mmap) */
	uint64_t offset;         /* of the record in the file */
	uint32_t pid;
	uint32_t reserved;
	uint64_t addr, len, pgoff;
	const char *filename;    /* as recorded */
	const char *found;       /* the file loaded; NULL: not found */
	int64_t bias;            /* found: the ELF's load bias */
	uint8_t user;            /* left to a user image */
	uint8_t pad[7];
};

/* Mapping @index (0, 1, ...) of the perf.data input @in into @m (@size =
 * sizeof *@m; strings valid while @in lives).  Returns 0, -PFT_ERR_EOS
 * (past the last) or -PFT_ERR_INVALID (NULL argument, @in has no
 * perf.data). */
pft_export int pft_input_perf_mmap(const struct pft_input *in, size_t index,
				   struct pft_input_perf_mmap *m, size_t size);

/* ---- End of perf ---- */

/* ======================================================================
 * Source lines (pft_lines_): DWARF line tables through libdw
 * ====================================================================== */

/* ---- Section: lines ---- */

/*
 * Source lines and functions of ELF files, from their DWARF (read with
 * elfutils' libdw) and their ELF function symbols.  Load files with
 * pft_lines_add_elf(); then look addresses up, or list every line-table
 * row and every function (for coverage of what never ran).  All
 * addresses are run-time addresses (the file's plus its bias).  Strings
 * handed out (file and function names) are owned by the object and valid
 * until pft_lines_free().  Lookups do not change the object, but libdw
 * caches inside it: one object must not be used by two threads at once.
 */
struct pft_lines;

/* Returns NULL with *@errcode (if not NULL) = -PFT_ERR_NOMEM on failure. */
pft_export struct pft_lines *pft_lines_alloc(int *errcode);
pft_export void pft_lines_free(struct pft_lines *l);

/*
 * Load the line table and functions of the 32-bit ELF file @path, its
 * addresses moved by @bias.  Functions are the DWARF subprograms with code
 * (name, entry .. end, declaration file and line) and the sized STT_FUNC
 * symbols where no subprogram starts (file NULL, line 0).  A file without
 * DWARF gives symbols only.  Returns 1 (DWARF found), 0 (symbols only), or
 * -PFT_ERR_INVALID (NULL argument), -PFT_ERR_BAD_FILE (cannot open, not
 * ELF), -PFT_ERR_NOT_SUPPORTED (not 32-bit), -PFT_ERR_NOMEM or
 * -PFT_ERR_INTERNAL (libelf refused to start); on failure nothing is added.
 */
pft_export int pft_lines_add_elf(struct pft_lines *l, const char *path,
				 int64_t bias);

/* A function: code @start .. @end - 1 (@end 0: up to 2^32). */
struct pft_line_func {
	const char *name;
	uint32_t start, end;
	const char *file;       /* declaration file, NULL when unknown */
	uint32_t line;          /* declaration line, 0 when unknown */
};

/* What is known about one address. */
struct pft_line_info {
	const char *file;       /* from the line table; NULL: no row covers it */
	uint32_t line;
	/* The function a debugger would name here: the innermost inlined
	 * subroutine, else the out-of-line function; NULL if none. */
	const char *function;
	struct pft_line_func func; /* the out-of-line function (has_func) */
	uint8_t has_func;
	uint8_t reserved[7];
};

/*
 * Look @addr up (@size = sizeof *@info).  Returns 0, -PFT_ERR_NOMAP
 * (neither a row nor a function covers @addr) or -PFT_ERR_INVALID.
 */
pft_export int pft_lines_lookup(const struct pft_lines *l, uint32_t addr,
				struct pft_line_info *info, size_t size);

/* A line-table row: @file:@line is the code at @start .. @end - 1. */
struct pft_line_row {
	const char *file;
	uint32_t line;
	uint32_t start, end;
};

/*
 * Row @index of all rows (sorted by address, not overlapping; rows that
 * cover no byte are left out).  Returns 0, -PFT_ERR_EOS (past the last) or
 * -PFT_ERR_INVALID.
 */
pft_export int pft_lines_row(const struct pft_lines *l, size_t index,
			     struct pft_line_row *row, size_t size);

/*
 * Function @index of all functions (sorted by start, one per start).
 * Returns 0, -PFT_ERR_EOS (past the last) or -PFT_ERR_INVALID.
 */
pft_export int pft_lines_function(const struct pft_lines *l, size_t index,
				  struct pft_line_func *func, size_t size);

/* The function that covers @addr.  Returns 0, -PFT_ERR_NOMAP or
 * -PFT_ERR_INVALID. */
pft_export int pft_lines_function_at(const struct pft_lines *l, uint32_t addr,
				     struct pft_line_func *func, size_t size);

/* The number of functions (@functions != 0) or rows; 0 for NULL @l. */
pft_export size_t pft_lines_count(const struct pft_lines *l, int functions);


/* ---- End of lines ---- */

/* ======================================================================
 * Calls (pft_calls_): call and return events over flow ranges
 * ====================================================================== */

/* ---- Section: calls ---- */

/*
 * Calls and returns, from the flow decoder's elements: put every element
 * (pft_calls_put), then take events (pft_calls_next) until
 * -PFT_ERR_NEED_INPUT.  The tracker keeps a stack of frames.
 *
 * What moves the stack is the class of each RANGE's last instruction,
 * when it was taken (pft_elem.iclass, taken); the destination is the start
 * of the next RANGE (or the address of an ADDR_NACC), so the events of a
 * branch come out when the element after it is put:
 *  - CALL, INDIRECT_CALL: push a frame (return address = the range's
 *    @end, the address after the call); event CALL at the callee's depth.
 *  - RETURN (also INDIRECT_JUMP and EXC_RETURN whose destination is a
 *    frame's return address): the frames down to the deepest frame whose
 *    return address is the destination are popped, one RETURN event each
 *    (those above it with PFT_CALL_F_UNWOUND: a longjmp).  With no such
 *    frame, the frames above the deepest one whose function contains the
 *    destination are popped (a longjmp into the middle of a function),
 *    all UNWOUND.  Otherwise the return is UNMATCHED_RETURN and the stack
 *    is left as it is; at depth 0 that is the only outcome, so the stack
 *    never underflows.
 *  - JUMP, INDIRECT_JUMP to the entry of a function (a symbol's start)
 *    other than the current one: TAIL_CALL, the top frame's function is
 *    replaced (at depth 0 the outermost function is).
 *  - EXCEPTION element: push an exception frame (return address = the
 *    preferred return address); event EXCEPTION.  EXC_RETURN (a range's
 *    last instruction, or an EXCEPTION_RETURN element not preceded by
 *    one) pops down to and including the most recent exception frame,
 *    event EXCEPTION_RETURN (frames above it UNWOUND); none: UNMATCHED.
 * Gaps (NO_SYNC, TRACE_ON, ERROR, ADDR_NACC) do not clear the stack: the
 * program went on while it was not seen.  A branch waiting for its
 * destination is settled with what is known (a direct call or jump's
 * encoded target, else none); when the first RANGE after a gap starts at
 * a frame's return address, the frames down to it are popped with
 * PFT_CALL_F_UNTRACED (the return happened out of sight, e.g. in code
 * outside the image or outside the trace filter).  The stack holds at most
 * @max_depth frames; a deeper push forgets the oldest frame (whose return
 * then no longer matches).  pft_calls_finish() pops every frame
 * (PFT_CALL_F_END) so that each CALL has exactly one RETURN.
 *
 * Time: each event carries the instructions executed up to and including
 * the branch, the sum of the ranges' cycle counts (cycle-accurate trace)
 * and the last timestamp seen.  Memory grows with the stack depth only
 * (at most @max_depth), and each element costs O(1) amortized whatever
 * the depth (pft_calls.c says how).
 */
enum pft_call_kind {
	PFT_CALL_CALL = 0,
	PFT_CALL_RETURN,
	PFT_CALL_TAIL_CALL,
	PFT_CALL_EXCEPTION,
	PFT_CALL_EXCEPTION_RETURN,
	PFT_CALL_UNMATCHED_RETURN,
	PFT_CALL_KIND_MAX
};

/* "call", "return", "tail_call", "exception", "exception_return",
 * "unmatched_return"; "unknown" out of range. */
pft_export const char *pft_call_kind_name(unsigned kind);

enum pft_call_flags {
	PFT_CALL_F_UNWOUND = 1 << 0,  /* popped by a return to a deeper frame */
	PFT_CALL_F_UNTRACED = 1 << 1, /* the return was not traced (a gap) */
	PFT_CALL_F_END = 1 << 2,      /* popped by pft_calls_finish() */
	PFT_CALL_F_NO_TARGET = 1 << 3 /* the callee's entry is unknown (0) */
};

struct pft_call_event {
	uint8_t kind;          /* enum pft_call_kind */
	uint8_t flags;         /* enum pft_call_flags */
	uint16_t exception;    /* EXCEPTION: the exception number */
	/* CALL, TAIL_CALL, EXCEPTION: the new frame's depth (1 = the first
	 * frame above the outermost function); RETURN, EXCEPTION_RETURN: the
	 * depth returned to; UNMATCHED_RETURN: the depth (unchanged). */
	uint32_t depth;
	uint32_t site;         /* the branch instruction (0 for pops by a
				* gap or finish) */
	uint32_t target;       /* where it went: the callee's entry, the
				* return address reached */
	/* CALL, TAIL_CALL, EXCEPTION: the function entered (its entry, as
	 * @target) and the caller's function (the frame below; for TAIL_CALL
	 * the function replaced).  RETURN, EXCEPTION_RETURN: the function left
	 * (@callee) and the function returned to (@caller).  0 = unknown. */
	uint32_t callee, caller;
	uint64_t insns;        /* instructions executed up to the event */
	uint64_t cycles;       /* when has_cycles: cycles up to the event */
	uint64_t ts;           /* when has_ts: the last timestamp */
	uint64_t entry_insns;  /* RETURN, EXCEPTION_RETURN: @insns of the
				* frame's CALL (or EXCEPTION) event */
	uint8_t has_cycles, has_ts;
	uint8_t reserved[6];
};

struct pft_calls_config {
	size_t size;               /* sizeof(struct pft_calls_config) */
	/* Borrowed, may be NULL: direct branch targets are read from it when
	 * a gap hides the destination, and function entries and extents
	 * (tail calls, longjmp) come from its symbols. */
	struct pft_image *image;
	uint32_t max_depth;        /* 0: 65536 */
	uint8_t reserved[4];
};

struct pft_calls;

/* Returns NULL with *@errcode set to -PFT_ERR_INVALID (NULL @cfg, @size
 * too small) or -PFT_ERR_NOMEM. */
pft_export struct pft_calls *pft_calls_alloc(const struct pft_calls_config *cfg,
					     int *errcode);
pft_export void pft_calls_free(struct pft_calls *c);

/* Apply one flow element (@size = sizeof *@e).  Returns 0,
 * -PFT_ERR_INVALID (NULL argument, @size too small, unknown element type,
 * or events of the previous put not all taken),
 * -PFT_ERR_EOS (after finish) or -PFT_ERR_NOMEM. */
pft_export int pft_calls_put(struct pft_calls *c, const struct pft_elem *e,
			     size_t size);

/* Apply the elements of a run (@n of them, each @size = sizeof *@e bytes
 * after the one before) until one makes events: the same as a
 * pft_calls_put() of each, with one call for most of a run.  Returns how
 * many were applied (1 to @n; the events of the last wait for
 * pft_calls_next(); an element of unknown type ends the run before it),
 * -PFT_ERR_INVALID (NULL argument, @n 0 or over INT32_MAX, @size too
 * small, @e[0] of unknown type, or events of the previous put not all
 * taken), -PFT_ERR_EOS (after finish) or -PFT_ERR_NOMEM. */
pft_export int pft_calls_put_run(struct pft_calls *c, const struct pft_elem *e,
				 size_t n, size_t size);

/* The end of the trace: settle the last branch and pop every frame.
 * Returns 0, -PFT_ERR_INVALID (NULL @c, or events not taken),
 * -PFT_ERR_EOS (already finished) or -PFT_ERR_NOMEM. */
pft_export int pft_calls_finish(struct pft_calls *c);

/* The next event (@size = sizeof *@ev): 0, -PFT_ERR_NEED_INPUT (all taken;
 * -PFT_ERR_EOS instead after finish) or -PFT_ERR_INVALID. */
pft_export int pft_calls_next(struct pft_calls *c, struct pft_call_event *ev,
			      size_t size);

/* The current depth (0 = in the outermost function); 0 for NULL. */
pft_export uint32_t pft_calls_depth(const struct pft_calls *c);


/* ---- End of calls ---- */

/* ======================================================================
 * Views (pft_prof_, pft_cov_): profiles, coverage, timelines
 * ====================================================================== */

/* ---- Section: views ---- */

/*
 * Views of the executed code: coverage, profile, folded stacks (struct
 * pft_views, an accumulator) and a timeline of calls (struct
 * pft_timeline, a streaming writer).
 *
 * Output goes through a caller-supplied writer: @write(@ctx, buf, len) is
 * called with pieces of the output and returns 0, or a negative value to
 * stop (which the writing function then returns).  The library never
 * touches a file itself.  Strings from the input (function and file
 * names) are escaped for each format: JSON escaping in JSON; in lcov,
 * callgrind and folded output, control characters become '?', and in
 * folded output ';' and blanks become '_' as well.
 *
 * Functions are those of @lines (DWARF subprograms and ELF function
 * symbols) when given, else the image's symbols; code in none is counted
 * under "[unknown]".  The accumulator borrows @image and @lines: they must
 * outlive it.  Its memory grows with the code executed and the distinct
 * call paths (at most max_depth deep), never with the trace length: at
 * most 2^20 distinct ranges, calling contexts (call paths) and caller ->
 * callee pairs each (pft_views.c says why).
 */
struct pft_views_config {
	size_t size;                 /* sizeof(struct pft_views_config) */
	struct pft_image *image;     /* required: the instructions of ranges */
	const struct pft_lines *lines; /* may be NULL: no source lines */
	uint32_t max_depth;          /* calls stack limit, 0: 65536 */
	uint8_t reserved[4];
};

struct pft_views;

/* Returns NULL with *@errcode set to -PFT_ERR_INVALID (NULL @cfg or
 * @cfg->image, @size too small) or -PFT_ERR_NOMEM. */
pft_export struct pft_views *pft_views_alloc(const struct pft_views_config *cfg,
					     int *errcode);
pft_export void pft_views_free(struct pft_views *v);

/*
 * Count one flow element of trace source @source (0-127, e.g. the trace
 * ID; each source has its own calls stack, see the calls section).  Every
 * RANGE's instructions count for coverage and, in the function they are
 * in, as self instructions (cycles too in cycle-accurate trace); calls
 * count per caller -> callee edge and as entries of the callee (FNDA:
 * calls and tail calls that reach a function's first address).  Returns
 * 0, -PFT_ERR_INVALID (NULL argument, @size too small, @source > 127, a
 * RANGE of 2^22 or more instructions), -PFT_ERR_EOS (after
 * pft_views_finish()), -PFT_ERR_NOT_SUPPORTED (a 2^20th + 1 distinct
 * range, calling context or caller -> callee pair; the accumulator is
 * then unusable) or -PFT_ERR_NOMEM.
 */
pft_export int pft_views_put(struct pft_views *v, unsigned source,
			     const struct pft_elem *e, size_t size);

/* pft_views_put() of each element of a run (@n of them, each @size bytes
 * after the one before), in one call.  Returns 0, -PFT_ERR_INVALID (as
 * pft_views_put(), @n 0 or over INT32_MAX, or an element of unknown type:
 * none is counted then), or the other errors of pft_views_put() (the
 * elements before the one that failed are counted). */
pft_export int pft_views_put_run(struct pft_views *v, unsigned source,
				 const struct pft_elem *e, size_t n, size_t size);

/* Distinct images one accumulator reads (the config's included). */
#define PFT_VIEWS_MAX_IMAGES 31

/*
 * Source @source reads @image (borrowed, as the config's) instead of the
 * config's: for cores with different memory.  Call it before the source's
 * first element.  Each image has its own functions (its symbols, counted
 * over the sources that read it); the functions of the config's @lines
 * (the --elf files every image holds) are shared, counted over all
 * sources, as are their instructions, lines and branches.  Returns 0,
 * -PFT_ERR_INVALID (NULL @v or @image, @source > 127 or already used,
 * more than PFT_VIEWS_MAX_IMAGES images), -PFT_ERR_EOS (after
 * pft_views_finish()) or -PFT_ERR_NOMEM.
 */
pft_export int pft_views_set_image(struct pft_views *v, unsigned source,
				   struct pft_image *image);

/*
 * The end of the trace: close every source's open calls, then resolve
 * instructions to addresses, source lines and branches (reading the
 * image).  Writing needs it.  Returns 0, -PFT_ERR_INVALID, -PFT_ERR_EOS
 * (already finished), -PFT_ERR_NOMAP (the image no longer holds an
 * executed instruction) or -PFT_ERR_NOMEM.
 */
pft_export int pft_views_finish(struct pft_views *v);

enum pft_view_format {
	/* Coverage: per function (every function, executed or not), per
	 * source line, per conditional branch. */
	PFT_VIEW_COVERAGE_TEXT = 0,
	PFT_VIEW_COVERAGE_JSONL,
	/* lcov tracefile (TN, SF, FN, FNDA, FNF, FNH, DA, BRDA, BRF, BRH,
	 * LF, LH, end_of_record) for the source files in the line tables.
	 * DA counts a line by the most-executed of its instructions; BRDA
	 * has two branches per conditional branch instruction (0 taken,
	 * 1 not taken; block = the instruction's ordinal in its line). */
	PFT_VIEW_LCOV,
	/* Profile: per function self, inclusive, cycles, entries; per
	 * caller -> callee edge calls and inclusive instructions. */
	PFT_VIEW_PROFILE_TEXT,
	PFT_VIEW_PROFILE_JSONL,
	/* Callgrind (event Ir = instructions executed), for
	 * callgrind_annotate and KCachegrind. */
	PFT_VIEW_CALLGRIND,
	/* Folded stacks: "outer;...;inner SELF" per call path. */
	PFT_VIEW_FOLDED,
	PFT_VIEW_FORMAT_MAX
};

/*
 * Write view @format after a pft_views_finish() that succeeded.
 * @test_name: lcov's TN (NULL: empty).  Returns 0, -PFT_ERR_INVALID (NULL
 * @v or @write, unknown @format, not finished), -PFT_ERR_NOMEM, or the
 * writer's negative value (writing stops there).
 */
pft_export int pft_views_write(const struct pft_views *v,
			       enum pft_view_format format,
			       const char *test_name,
			       int (*write)(void *ctx, const char *buf, size_t len),
			       void *ctx);

/* Per-function figures, for callers that format their own. */
struct pft_view_func {
	const char *name;        /* "[unknown]" for code in no function */
	uint32_t start, end;
	const char *file;        /* NULL when unknown */
	uint32_t line;
	uint64_t entered;        /* calls and tail calls to @start */
	uint64_t self_insns;     /* instructions executed in it */
	uint64_t incl_insns;     /* ... in it and its callees (recursion once) */
	uint64_t self_cycles;    /* cycle-accurate trace: cycles of its ranges */
};

/* Function @index after a successful finish: every function of @lines
 * (run or not) and every other one code ran in, sorted by start,
 * "[unknown]" last.  Returns 0, -PFT_ERR_EOS past the last, or
 * -PFT_ERR_INVALID (NULL argument, @size too small, not finished). */
pft_export int pft_views_function(const struct pft_views *v, size_t index,
				  struct pft_view_func *func, size_t size);

/*
 * Timeline: Chrome trace-event JSON written as the calls happen.  Write
 * pft_timeline_begin() once, then put the events of each source's calls
 * tracker (pft_calls_next()) into that source's pft_timeline (one track,
 * "tid", per source), or the source's elements through its tracker
 * (pft_timeline_put_run()), then pft_timeline_end() once.  Each CALL,
 * TAIL_CALL and EXCEPTION opens a span ("ph":"B") named after the
 * function entered, each RETURN/EXCEPTION_RETURN (or the TAIL_CALL that
 * replaces it) closes it ("ph":"E"), so spans nest.  Time ("ts", in
 * microseconds): the event's cycles, timestamp or instruction count (as
 * @clock says) divided by @hz / 1e6; with @hz 0, one count is one
 * microsecond.
 */
enum pft_timeline_clock {
	PFT_TIMELINE_INSNS = 0,
	PFT_TIMELINE_CYCLES,     /* events without cycles fall back to insns */
	PFT_TIMELINE_TIMESTAMP   /* events without a timestamp fall back to insns */
};

struct pft_timeline_config {
	size_t size;                 /* sizeof(struct pft_timeline_config) */
	int (*write)(void *ctx, const char *buf, size_t len);
	void *ctx;
	struct pft_image *image;     /* names (may be NULL; borrowed) */
	const struct pft_lines *lines; /* names first (may be NULL; borrowed) */
	const char *track_name;      /* copied; NULL: "trace <tid>" */
	uint64_t hz;
	uint32_t tid;
	uint8_t clock;               /* enum pft_timeline_clock */
	uint8_t reserved[3];
};

struct pft_timeline;

/* Returns NULL with *@errcode set to -PFT_ERR_INVALID (NULL @cfg or
 * @write, @size too small, unknown @clock) or -PFT_ERR_NOMEM.  Writes
 * the track's name (a metadata event). */
pft_export struct pft_timeline *pft_timeline_alloc(const struct pft_timeline_config *cfg,
						   int *errcode);
pft_export void pft_timeline_free(struct pft_timeline *t);

/* Write the opening of the JSON document (and a process name event).
 * Returns 0, -PFT_ERR_INVALID (NULL @write) or the writer's value. */
pft_export int pft_timeline_begin(int (*write)(void *ctx, const char *buf, size_t len),
				  void *ctx);
/* Write the closing of the JSON document.  Same returns. */
pft_export int pft_timeline_end(int (*write)(void *ctx, const char *buf, size_t len),
				void *ctx);

/* Write the spans event @ev (@size = sizeof *@ev) opens or closes (a
 * return also closes the spans of frames the calls tracker forgot at its
 * depth limit above the depth returned to, so that every span ends).
 * UNMATCHED_RETURN writes nothing.  Events are buffered, whole, in the
 * track (tracks may share one writer): the writer sees them when the
 * buffer fills and at pft_timeline_flush().  Returns 0, -PFT_ERR_INVALID
 * or the writer's value (once it failed, every later call returns it). */
pft_export int pft_timeline_put(struct pft_timeline *t,
				const struct pft_call_event *ev, size_t size);
/* Put run @e (@n elements @size bytes apart) into calls tracker @c
 * (pft_calls_put_run()) and write the spans of the events it makes, as
 * pft_timeline_put() of each (without their copies): the events are
 * taken.  Returns 0, -PFT_ERR_INVALID, the tracker's error or the
 * writer's value. */
pft_export int pft_timeline_put_run(struct pft_timeline *t, struct pft_calls *c,
				    const struct pft_elem *e, size_t n, size_t size);
/* Write the events still buffered: call it for every track before
 * pft_timeline_end() (pft_timeline_free() writes nothing).  Returns 0,
 * -PFT_ERR_INVALID (NULL @t) or the writer's value. */
pft_export int pft_timeline_flush(struct pft_timeline *t);

/*
 * Function names a reader can tell apart.  A program can have two
 * functions of one name (static functions of two files, a symbol in two
 * images at two addresses); the listings (pft calls, coverage and profile
 * text and JSON lines) then write a label instead of the bare name:
 *   "name (file.c)"      the base name of its DWARF declaration file, when
 *                        no other function of that name has one alike;
 *   "name@0x0001a2b4"    else its start address.
 * A name is ambiguous when the program's functions (those of @lines and
 * the function symbols of @images, one per name and start) have it at two
 * or more starts.  The names and files are borrowed: @lines and @images
 * must outlive the object; memory follows the ambiguous names only.
 */
struct pft_names_config {
	size_t size;                   /* sizeof(struct pft_names_config) */
	const struct pft_lines *lines; /* may be NULL */
	struct pft_image *const *images; /* @nimages of them (NULL entries skipped) */
	size_t nimages;
	uint8_t reserved[8];
};

struct pft_names;

/* Returns NULL with *@errcode set to -PFT_ERR_INVALID (NULL @cfg, @size
 * too small, NULL @images with @nimages > 0) or -PFT_ERR_NOMEM. */
pft_export struct pft_names *pft_names_alloc(const struct pft_names_config *cfg,
					     int *errcode);
pft_export void pft_names_free(struct pft_names *names);

/* The label of the function @name starting at @start: @name itself when
 * it is not ambiguous (or @names or @name is NULL), else a string that
 * lives as long as @names.  No errors. */
pft_export const char *pft_names_label(const struct pft_names *names, const char *name,
				       uint32_t start);


/* ---- End of views ---- */

#ifdef __cplusplus
}
#endif

#endif /* PFT_H */
