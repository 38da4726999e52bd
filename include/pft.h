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
 *
 * Conventions (as libipt):
 *  - Functions return int: >= 0 is success, -PFT_ERR_* is failure.
 *  - Objects come from pft_X_alloc() and go to pft_X_free(); free(NULL)
 *    is a no-op.
 *  - Structs passed in or out start with, or are accompanied by, a size so
 *    that the library and its callers may differ in version.
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
	PFT_ERR_MAX
};

/* A short English description of an error code (never NULL). */
pft_export const char *pft_errstr(enum pft_error_code code);

/* The error code of a negative return value (or PFT_ERR_OK for >= 0). */
pft_export enum pft_error_code pft_errcode(int status);

/* The library version, "MAJOR.MINOR.PATCH". */
pft_export const char *pft_version(void);

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

/* Zero @cfg and set its size: PFTv1.1, nothing optional enabled,
 * binary 64-bit timestamps.  Returns 0 or -PFT_ERR_INVALID. */
pft_export int pft_config_init(struct pft_config *cfg);

/*
 * Derive @cfg from a PTM's ETMCR, ETMCCER, ETMIDR and ETMTRACEIDR.
 * @cfg must have been initialised.  Returns 0, -PFT_ERR_INVALID (NULL
 * @cfg) or -PFT_ERR_BAD_CONFIG (ETMIDR does not describe a PTM: its
 * architecture field, bits [11:8], is not 3; @cfg is left unchanged).
 */
pft_export int pft_config_from_regs(struct pft_config *cfg, uint32_t etmcr,
				    uint32_t etmccer, uint32_t etmidr,
				    uint32_t etmtraceidr);

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

enum pft_bad_reason {
	PFT_BAD_NONE = 0,
	PFT_BAD_RESERVED_HEADER,  /* a reserved header byte */
	PFT_BAD_ATOM_NO_MARKER,   /* 0x80/0x82 outside cycle-accurate mode */
	PFT_BAD_ASYNC,            /* zeros not ended by 0x80 */
	PFT_BAD_TRUNCATED         /* the stream ended inside a packet */
};

/* A one-line description of a bad packet reason. */
pft_export const char *pft_bad_reason_str(enum pft_bad_reason reason);

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

/* A short name for an exception number ("IRQ", "SVC", ..., "reserved"). */
pft_export const char *pft_exception_name(unsigned number);

/*
 * One packet.  Which fields mean something depends on @type; the others
 * are zero.
 */
struct pft_packet {
	enum pft_packet_type type;
	uint32_t size;            /* bytes in the packet */
	uint64_t offset;          /* input offset of the first byte */
	const uint8_t *raw;       /* the @size bytes; valid until the next call */

	/* ISYNC, BRANCH, WAYPOINT: the full (decompressed) address and the
	 * instruction set at it. */
	uint32_t addr;
	enum pft_isa isa;
	uint8_t addr_bytes;       /* BRANCH, WAYPOINT: address bytes, 1-5 */

	uint8_t reason;           /* ISYNC: enum pft_isync_reason */
	/* ISYNC; BRANCH with exception bytes (hyp: only with EX1). */
	uint8_t ns, hyp, altis;
	/* BRANCH: exception information bytes (0-2); WAYPOINT: 1 when the
	 * information byte is present. */
	uint8_t exc_bytes;
	uint16_t exception;       /* BRANCH: exception number, 0 = none */

	uint8_t has_cycles;       /* cycle count present (cycle-accurate) */
	uint32_t cycles;

	/* ATOM: @n_atoms atoms; bit i of @atoms is atom i, oldest first,
	 * 1 = E (executed), 0 = N (not executed). */
	uint8_t n_atoms;
	uint8_t atoms;

	uint8_t has_ctxid;        /* ISYNC (with ctxid_bytes > 0), CONTEXTID */
	uint32_t ctxid;
	uint8_t vmid;             /* VMID */

	/* TIMESTAMP: the timestamp after merging this packet's bits into the
	 * previous value and, for Gray-coded streams, converting to binary. */
	uint64_t ts;
	uint64_t ts_raw;          /* merged value as sent (Gray for Gray streams) */
	uint8_t ts_bits;          /* low-order bits this packet updated */
	uint8_t ts_clock_change;  /* header R bit: the clock frequency changed */

	uint8_t bad;              /* BAD: enum pft_bad_reason */
	uint8_t reserved[13];
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
 * such as formatted frames).  Returns 0, -PFT_ERR_INVALID, or
 * -PFT_ERR_EOS after pft_pkt_finish().
 */
pft_export int pft_pkt_feed(struct pft_pkt_decoder *d, const uint8_t *buf,
			    size_t len);
pft_export int pft_pkt_feed_at(struct pft_pkt_decoder *d, const uint8_t *buf,
			       size_t len, uint64_t offset);

/*
 * The next packet, in @pkt (@size = sizeof *pkt).  Returns:
 *   0                    a packet (including NOTSYNC bytes)
 *   -PFT_ERR_NEED_INPUT  feed more (or finish)
 *   -PFT_ERR_EOS         after finish, nothing is left
 *   -PFT_ERR_BAD_OPCODE  a reserved header: @pkt is a BAD packet
 *   -PFT_ERR_BAD_PACKET  a malformed packet: @pkt is a BAD packet
 *   -PFT_ERR_TRUNCATED   after finish, the stream ended inside a packet:
 *                        @pkt is a BAD packet holding the bytes
 *   -PFT_ERR_INVALID     bad arguments
 * After a BAD packet the decoder is no longer synchronised: the following
 * bytes come back as NOTSYNC up to the next A-sync.
 */
pft_export int pft_pkt_next(struct pft_pkt_decoder *d, struct pft_packet *pkt,
			    size_t size);

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

/* ---- End of packet encoder ---- */

/* ======================================================================
 * Image: program memory
 * ====================================================================== */

/* ---- Section: image (pft_image_) ---- */

/* ---- End of image ---- */

/* ======================================================================
 * Flow: executed instruction ranges
 * ====================================================================== */

/* ---- Section: flow (pft_flow_) ---- */

/* ---- End of flow ---- */

/* ======================================================================
 * Configuration: PTM event registers and register explanations
 * ====================================================================== */

/* ---- Section: event (pft_event_) ---- */

/* ---- End of event ---- */

/* ---- Section: regs (pft_regs_) ---- */

/* ---- End of regs ---- */

#ifdef __cplusplus
}
#endif

#endif /* PFT_H */
