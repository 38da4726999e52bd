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
 *   pft_detect_   detection: framing, protocol, configuration, fit check
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
	uint8_t isa;              /* ISYNC, BRANCH, WAYPOINT: enum pft_isa at addr */
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
	uint8_t bad;              /* BAD: enum pft_bad_reason */
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
 *   -PFT_ERR_NEED_INPUT  feed more (or finish); never after finish
 *   -PFT_ERR_EOS         after finish, nothing is left
 *   -PFT_ERR_BAD_OPCODE  a reserved header (0x80 and 0x82 are reserved
 *                        without cycle-accurate mode): @pkt is a BAD packet
 *   -PFT_ERR_BAD_PACKET  a malformed packet (a zero run that is not an
 *                        A-sync of 5-15 zeros and 0x80): a BAD packet
 *   -PFT_ERR_TRUNCATED   after finish, the stream ended inside a packet:
 *                        @pkt is a BAD packet holding the bytes
 *   -PFT_ERR_INVALID     bad arguments
 * After a BAD packet the decoder is no longer synchronised: the following
 * bytes come back as NOTSYNC up to the next A-sync.  Every byte fed comes
 * back in exactly one packet, in order.  An A-sync is zeros and 0x80; it
 * has fewer than five zeros (even none) only when a damaged packet before
 * it took its first zeros (the pattern cannot occur inside packets,
 * pft-protocol.md 5.1, so the decoder realigns on it).
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
 * Compression choices:
 *  - Branch and waypoint addresses use the fewest bytes of spec table 4.5
 *    (2 when exception bytes follow), 5 when the alignment (ARM, Thumb or
 *    ThumbEE, Jazelle) differs from the previous address packet's, and 5
 *    until an I-sync or branch has given a base.  Ambiguity A4: after a
 *    waypoint update the bytes cover the differences from both the
 *    waypoint address and the last branch/I-sync address, so decoders
 *    following either reading agree.
 *  - EX0 is sent when the exception is not 0, or NS, AltIS or Hyp differ
 *    from the state last sent (or no state has been sent since allocation
 *    or reset).  EX1 is sent for exception numbers > 15 and, ambiguity A8,
 *    whenever Hyp changes (it is the only place a branch can carry Hyp).
 *  - Waypoint updates (ambiguity A5) never set bit 6 of AB1-AB3; the AltIS
 *    information byte is sent (with a 5-byte address) only when a Thumb or
 *    ThumbEE waypoint's AltIS differs from the state last sent.  Since
 *    decoders may or may not apply it, the next branch then re-sends EX0.
 *  - Timestamps carry only the 7-bit groups that cover the bits changed
 *    since the previous timestamp packet; the first one after allocation or
 *    reset, and the one after pft_enc_force_tsync(), carry every byte.
 *  - Cycle counts use the fewest bytes (spec table 4.8).  CC0 bit 7 is 1 in
 *    I-syncs and 0 in branch and timestamp packets, as observed.
 *  - An A-sync changes no state: a PTM follows it with an I-sync, and a
 *    decoder that reads the stream from its start keeps its state across it.
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
 * configuration, see above) or -PFT_ERR_NOMEM (@outlen too small).  On
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
 * @img or @name; @offset may be NULL).
 */
pft_export int pft_image_symbolize(const struct pft_image *img, uint32_t addr,
				   const char **name, uint32_t *offset);

/* A symbol: its name (valid while the image lives) and the addresses it
 * covers, @start .. @end - 1 (as pft_image_symbolize() sees them). */
struct pft_image_symbol {
	const char *name;
	uint32_t start, end;
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

/* Why a PFT_ELEM_ERROR was reported (pft_flow_errstr() describes it). */
enum pft_flow_error {
	PFT_FLOW_ERR_BAD_PACKET = 1,  /* the packet decoder reported a bad packet */
	PFT_FLOW_ERR_NO_WAYPOINT,     /* no waypoint within the walk limit */
	PFT_FLOW_ERR_RETSTACK_EMPTY,  /* an E atom on an indirect branch, stack empty */
	PFT_FLOW_ERR_INDIRECT_ATOM,   /* an E atom on an indirect branch, no return stack */
	PFT_FLOW_ERR_WP_UPDATE_PAST,  /* a waypoint update beyond the next waypoint */
	PFT_FLOW_ERR_BAD_INSN,        /* undecodable instruction set (Jazelle, ThumbEE) */
	PFT_FLOW_ERR_MAX
};

pft_export const char *pft_flow_errstr(unsigned reason);

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
			      * ERROR: enum pft_flow_error */
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
 * atoms) or -PFT_ERR_INTERNAL (elements of the previous packet were not
 * taken).
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
 * Packets, in the order a PTM would send them:
 *  - A-sync, then I-sync (trace_on) at the first traced instruction;
 *    A-sync + I-sync (periodic) once @sync_period trace bytes have gone out
 *    since the last A-sync, at the next waypoint (after its atoms);
 *  - direct branches and ISB (DMB/DSB when cfg->dmb_dsb_waypoints): atoms,
 *    up to 5 per packet, or one per packet with its cycle count when
 *    cycle-accurate; pending atoms are flushed before any other packet;
 *  - indirect branches: an atom N when not taken, otherwise a branch
 *    address packet (an E atom instead when the return stack is on and
 *    the target and ISA match the top of the model's return stack, which
 *    is then popped; calls push their return address; 16 entries, the
 *    oldest dropped; emptied at every I-sync);
 *  - with cfg->branch_broadcast, taken direct branches as branch packets;
 *  - a waypoint update when 4096 bytes of instructions have run since the
 *    last waypoint without one (at the instruction that reaches 4096);
 *  - context ID / VMID packets when the value changes (VMID also after
 *    every I-sync); timestamps after every I-sync and, with @ts_period,
 *    after every @ts_period-th traced waypoint.
 *
 * Trace is off outside the filter range and in memory the image does not
 * cover (e.g. qemu-user's kernel helpers at 0xffff0fxx).  Leaving: the
 * last traced waypoint's atom or branch (its target may be outside), or a
 * waypoint update at the last traced instruction when the flow leaves
 * without a waypoint; pending atoms are flushed.  Coming back: I-sync
 * trace_on at the first traced instruction.  A change of security state
 * (ns) at a taken waypoint goes into its branch packet; elsewhere it turns
 * trace off and on again.  At the end (pft_model_finish()), atoms are
 * flushed and the instructions after the last waypoint are covered by a
 * waypoint update (a last instruction that is itself a waypoint has no
 * known outcome and is not traced).
 *
 * Cycles: an instruction takes its @cycles (1 when not given).  Cycle
 * counts are the cycles since the previous count; an I-sync's count runs
 * to the last waypoint executed before it (pft-flow.md 8).  Timestamps
 * count cycles: PFTv1.1 the time of the last traced waypoint (with a cycle
 * count of 0 when cycle-accurate, as on the A15), PFTv1.0 the time of
 * emission (with the count up to it, as on the A9).  The first timestamp
 * after each A-sync is sent in full.
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
	uint8_t reserved;
};

/* Why pft_model_put() refused an instruction (pft_model_error()). */
enum pft_model_error {
	PFT_MODEL_OK = 0,
	PFT_MODEL_NOT_IN_IMAGE,     /* the first instruction, or one reached
				     * without a branch, is not in the image */
	PFT_MODEL_NOT_BRANCH,       /* the PC changed after an instruction that
				     * cannot branch */
	PFT_MODEL_DIRECT_ELSEWHERE, /* a direct branch went neither to its
				     * target nor to the next instruction */
	PFT_MODEL_ISA_CHANGE,       /* the instruction set changed where it
				     * cannot */
	PFT_MODEL_MISALIGNED,       /* the address is not aligned for its ISA */
	PFT_MODEL_BAD_ISA,          /* an ISA the model cannot trace */
	PFT_MODEL_ERROR_MAX
};

/* A one-line description of an enum pft_model_error value. */
pft_export const char *pft_model_errstr(unsigned reason);

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
 *   -PFT_ERR_INVALID    NULL argument or @size too small
 *   -PFT_ERR_INTERNAL   packets of the previous call were not all taken
 *   -PFT_ERR_EOS        after pft_model_finish()
 */
pft_export int pft_model_put(struct pft_model *m,
			     const struct pft_model_insn *insn, size_t size);

/* The log has ended: the last instruction's packets and the final flush
 * become ready.  Returns 0, -PFT_ERR_INVALID (NULL @m), -PFT_ERR_INTERNAL
 * (packets not taken) or -PFT_ERR_EOS (already finished). */
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

/* After a put failed: why (enum pft_model_error); PFT_MODEL_OK otherwise
 * or for NULL @m. */
pft_export unsigned pft_model_error(const struct pft_model *m);

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
 * Returns 0, -PFT_ERR_INVALID (NULL argument, @size too small) or
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

/* What is wrong with an expression or a register value. */
enum pft_event_problem {
	PFT_EVENT_OK = 0,
	/* Parsing (the column says where). */
	PFT_EVENT_EMPTY,             /* nothing but blanks */
	PFT_EVENT_BAD_CHAR,          /* a character that is no part of the language */
	PFT_EVENT_EXPECTED_OPERAND,  /* a resource, '!' or '(' was expected */
	PFT_EVENT_EXPECTED_OPERATOR, /* '&', '|', ')' or the end was expected */
	PFT_EVENT_UNCLOSED_PAREN,    /* this '(' has no ')' */
	PFT_EVENT_UNOPENED_PAREN,    /* this ')' has no '(' */
	PFT_EVENT_UNKNOWN_RESOURCE,  /* a name that is no resource */
	PFT_EVENT_BAD_INDEX,         /* resource number missing or out of range */
	PFT_EVENT_TOO_MANY_RESOURCES,/* a third resource: no event function fits */
	PFT_EVENT_TOO_DEEP,          /* parentheses nested too deeply */
	/* Parsing and formatting. */
	PFT_EVENT_UNIMPLEMENTED,     /* the resource is not implemented (limits) */
	/* Formatting. */
	PFT_EVENT_RESERVED,          /* a reserved resource number */
	PFT_EVENT_HIGH_BITS,         /* the value has bits above 16 set */
	PFT_EVENT_B_IGNORED,         /* warning: B is not 0 but the function ignores it */
	PFT_EVENT_PROBLEM_MAX
};

/* Details of a failure (or of a warning). */
struct pft_event_diag {
	enum pft_event_problem problem;
	size_t column;          /* parse: 0-based byte offset of the problem */
	size_t length;          /* parse: bytes of the offending token (0 at the end) */
	char operand;           /* format: 'A' or 'B', the field concerned (else 0) */
	uint8_t resource;       /* the resource number concerned (UNIMPLEMENTED,
				   RESERVED, B_IGNORED) */
};

/* A one-line English description of a problem (never NULL). */
pft_export const char *pft_event_strerror(enum pft_event_problem problem);

/* Set @limits to the architectural maximum (every resource implemented).
 * Returns 0 or -PFT_ERR_INVALID (NULL). */
pft_export int pft_event_limits_max(struct pft_event_limits *limits);

/*
 * Derive @limits from a PTM's ETMCCR, ETMCCER and ETMIDR.  As with
 * pft_config_from_regs(), @limits->size says how much of the struct the
 * caller has (0: all of it).  Returns 0, -PFT_ERR_INVALID (NULL @limits)
 * or -PFT_ERR_BAD_CONFIG (ETMIDR[11:8] is not 3, so not a PTM, or a count
 * is above the PTM maximum); on error @limits is unchanged.
 */
pft_export int pft_event_limits_from_regs(struct pft_event_limits *limits,
					  uint32_t etmccr, uint32_t etmccer,
					  uint32_t etmidr);

/* Split bits [16:0] of an event register.  Returns 0, or -PFT_ERR_INVALID
 * (NULL @ev, or @value has bits above 16 set). */
pft_export int pft_event_unpack(uint32_t value, struct pft_event *ev);

/* Join the fields of @ev into *@value.  Returns 0, or -PFT_ERR_INVALID
 * (NULL argument, function > 7 or resource > 0x7f). */
pft_export int pft_event_pack(const struct pft_event *ev, uint32_t *value);

/*
 * The canonical name of resource number @resource ("arc3") into @buf.
 * Returns its length, or -PFT_ERR_INVALID (NULL @buf, @len too small,
 * @resource > 0x7f, or @resource is reserved).
 */
pft_export int pft_event_resource_name(unsigned resource, char *buf,
				       size_t len);

/*
 * Parse expression @expr into the 17-bit register value *@value.
 * Resources not implemented according to @limits (NULL: architectural
 * maximum) are rejected.  Returns 0, or:
 *   -PFT_ERR_INVALID     NULL @expr or @value, or the expression is not
 *                        valid (@diag, if not NULL, says what and where)
 *   -PFT_ERR_BAD_CONFIG  a resource is not implemented (problem
 *                        PFT_EVENT_UNIMPLEMENTED, with its column)
 */
pft_export int pft_event_parse(const char *expr,
			       const struct pft_event_limits *limits,
			       uint32_t *value, struct pft_event_diag *diag);

/*
 * Write the canonical expression of event register bits @value into @buf
 * (PFT_EVENT_EXPR_MAX bytes are always enough).  Returns its length, or:
 *   -PFT_ERR_INVALID     NULL @buf, @len too small, bits above 16 set
 *                        (PFT_EVENT_HIGH_BITS: callers mask the register
 *                        first), or a resource the function uses is
 *                        reserved (PFT_EVENT_RESERVED, operand 'A'/'B')
 *   -PFT_ERR_BAD_CONFIG  a resource the function uses is not implemented
 *                        according to @limits (PFT_EVENT_UNIMPLEMENTED)
 * Functions A and NOT(A) ignore B.  When B is not 0 for them the value is
 * non-canonical: the expression (of A alone) is written and the length
 * returned, and @diag says PFT_EVENT_B_IGNORED; parsing the expression
 * gives @value with B = 0.  Otherwise parsing the expression gives @value
 * back.  @diag may be NULL; on success without warning its problem is
 * PFT_EVENT_OK.
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
 * -PFT_ERR_INVALID (NULL @name, or NULL @fields with @nfields > 0) or
 * -PFT_ERR_NOT_SUPPORTED (unknown register: show it raw).
 */
pft_export int pft_regs_explain(const char *name, uint32_t value,
				const struct pft_regs_context *ctx,
				struct pft_regs_field *fields, size_t nfields);

/* ---- End of regs ---- */

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

/* Trace protocols told apart by pft_detect_protocol(). */
enum pft_protocol {
	PFT_PROTO_UNKNOWN = 0,
	PFT_PROTO_PTM,           /* PFT v1.0/v1.1 (Cortex-A9/A15 PTM) */
	PFT_PROTO_ETMV3,         /* ETMv3.x (Cortex-A5/A7/A8/R4/R5) */
	PFT_PROTO_ETMV4,         /* ETMv4 instruction trace */
	PFT_PROTO_STM,           /* System Trace Macrocell (MIPI STPv2) */
	PFT_PROTO_ITM            /* Instrumentation Trace Macrocell (+ DWT) */
};

/* "unknown", "ptm", "etmv3", "etmv4", "stm", "itm". */
pft_export const char *pft_protocol_name(unsigned protocol);

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
 * (NULL argument) or -PFT_ERR_NOMEM (@len too small; @buf holds a
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

/* ---- End of detect ---- */

/* ======================================================================
 * ETMv3 (pft_etm3_): the trace of Cortex-A5/A7/A8/R4/R5 ETMs
 * ====================================================================== */

/* ---- Section: etm3 ---- */

/* ---- End of etm3 ---- */

/* ======================================================================
 * perf.data (pft_perf_): Linux perf's CoreSight AUX trace files
 * ====================================================================== */

/* ---- Section: perf ---- */

/* ---- End of perf ---- */

/* ======================================================================
 * Source lines (pft_lines_): DWARF line tables through libdw
 * ====================================================================== */

/* ---- Section: lines ---- */

/* ---- End of lines ---- */

/* ======================================================================
 * Calls (pft_calls_): call and return events over flow ranges
 * ====================================================================== */

/* ---- Section: calls ---- */

/* ---- End of calls ---- */

/* ======================================================================
 * Views (pft_prof_, pft_cov_): profiles, coverage, timelines
 * ====================================================================== */

/* ---- Section: views ---- */

/* ---- End of views ---- */

#ifdef __cplusplus
}
#endif

#endif /* PFT_H */
