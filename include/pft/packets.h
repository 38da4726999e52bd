/*
 * pft/packets.h - PTM (PFT) packets: the packet decoder (bytes -> struct
 * pft_ptm_packet, pft_ptm_pkt_) and the packet encoder (packets -> bytes, pft_ptm_enc_).
 *
 * Link with libpft (pkg-config libpft).  <pft.h> includes every header;
 * its head comment gives the conventions and the prefixes.
 */
#ifndef PFT_PUBLIC_PACKETS_H
#define PFT_PUBLIC_PACKETS_H

#include "pft/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================
 * Packets: PFT packet decoder
 * ====================================================================== */

enum pft_ptm_packet_type {
	PFT_PTM_PKT_NOTSYNC = 0,      /* bytes before synchronisation */
	PFT_PTM_PKT_ASYNC,
	PFT_PTM_PKT_ISYNC,
	PFT_PTM_PKT_ATOM,
	PFT_PTM_PKT_BRANCH,
	PFT_PTM_PKT_WAYPOINT,
	PFT_PTM_PKT_TRIGGER,
	PFT_PTM_PKT_CONTEXTID,
	PFT_PTM_PKT_VMID,
	PFT_PTM_PKT_TIMESTAMP,
	PFT_PTM_PKT_IGNORE,
	PFT_PTM_PKT_EXCEPTION_RETURN,
	PFT_PTM_PKT_BAD,              /* see pft_ptm_packet.bad */
	PFT_PTM_PKT_TYPE_MAX
};

/* "notsync", "async", "isync", "atom", "branch", "waypoint", "trigger",
 * "ctxid", "vmid", "timestamp", "ignore", "exception_return", "error". */
pft_export const char *pft_ptm_pkt_type_name(enum pft_ptm_packet_type type);

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

/* The architecture profile of a traced core: how its exceptions are
 * numbered (and, for M, that it runs Thumb code only). */
enum pft_profile {
	PFT_PROFILE_A = 0,   /* ARMv7-A: enum pft_exception (the default) */
	PFT_PROFILE_R = 1,   /* ARMv7-R: numbered as A */
	PFT_PROFILE_M = 2    /* ARMv7-M: the IPSR exception number */
};

/* ARMv7-M exception numbers (IPSR; external interrupt n is 16 + n). */
enum pft_m_exception {
	PFT_MEXC_RESET = 1,
	PFT_MEXC_NMI = 2,
	PFT_MEXC_HARDFAULT = 3,
	PFT_MEXC_MEMMANAGE = 4,
	PFT_MEXC_BUSFAULT = 5,
	PFT_MEXC_USAGEFAULT = 6,
	PFT_MEXC_SVCALL = 11,
	PFT_MEXC_DEBUGMONITOR = 12,
	PFT_MEXC_PENDSV = 14,
	PFT_MEXC_SYSTICK = 15,
	PFT_MEXC_IRQ0 = 16,
	PFT_MEXC_MAX = 511     /* IRQ495 */
};

/* Room for any name pft_exception_name_in() gives ("debugmonitor",
 * "irq495"), with its NUL. */
#define PFT_EXCEPTION_NAME_MAX 16

/*
 * The name of exception @number on a core of @profile, written to @buf
 * (@len bytes, PFT_EXCEPTION_NAME_MAX is enough; cut to fit) and
 * returned: A and R as pft_exception_name(); M "reset", "nmi",
 * "hardfault", "memmanage", "busfault", "usagefault", "svcall",
 * "debugmonitor", "pendsv", "systick", "irqN" (16 + N, N up to 495),
 * "none" (0) or "reserved".  An unknown @profile counts as A.  Returns
 * "" when @buf is NULL or @len is 0 (a string constant then).
 */
pft_export const char *pft_exception_name_in(unsigned profile, unsigned number, char *buf,
					     size_t len);

/*
 * One packet.  Which fields mean something depends on @type; the others
 * are zero.  The struct is 64 bytes (one cache line): it is written once
 * per packet on the decoder's hot path.
 */
struct pft_ptm_packet {
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

	uint8_t type;             /* enum pft_ptm_packet_type */
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

struct pft_ptm_pkt_decoder;

/* Allocate a packet decoder for a stream described by @cfg (copied).
 * Returns NULL with *@errcode set (if @errcode is not NULL) to
 * -PFT_ERR_INVALID, -PFT_ERR_BAD_CONFIG (ctxid_bytes not 0/1/2/4) or
 * -PFT_ERR_NOMEM. */
pft_export struct pft_ptm_pkt_decoder *pft_ptm_pkt_alloc(const struct pft_ptm_config *cfg,
						 int *errcode);
pft_export void pft_ptm_pkt_free(struct pft_ptm_pkt_decoder *d);

/*
 * Give the decoder the next @len bytes of the stream.  The buffer is
 * borrowed until pft_ptm_pkt_next() returns -PFT_ERR_NEED_INPUT.  Offsets
 * continue from the previous feed (pft_ptm_pkt_feed) or start at @offset
 * (pft_ptm_pkt_feed_at; for input whose bytes are not contiguous in the file,
 * such as formatted frames).  Returns 0, -PFT_ERR_INVALID (NULL @d, NULL
 * @buf with @len > 0, or bytes of the previous feed not yet decoded: feed
 * again only after -PFT_ERR_NEED_INPUT), or -PFT_ERR_EOS after
 * pft_ptm_pkt_finish().
 */
pft_export int pft_ptm_pkt_feed(struct pft_ptm_pkt_decoder *d, const uint8_t *buf,
			    size_t len);
pft_export int pft_ptm_pkt_feed_at(struct pft_ptm_pkt_decoder *d, const uint8_t *buf,
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
pft_export int pft_ptm_pkt_next(struct pft_ptm_pkt_decoder *d, struct pft_ptm_packet *pkt,
			    size_t size);

/*
 * Up to @n packets at once, into @pkts[0..n-1] (@size = sizeof *pkts):
 * the same packets pft_ptm_pkt_next() gives, faster.  Returns how many (>= 1),
 * or, when not even one good packet can be returned, what pft_ptm_pkt_next()
 * returns (a BAD packet is then in @pkts[0]).  A BAD packet always comes
 * alone.  -PFT_ERR_INVALID: NULL arguments, @n 0, or @size not
 * sizeof(struct pft_ptm_packet).
 */
pft_export int pft_ptm_pkt_next_batch(struct pft_ptm_pkt_decoder *d, struct pft_ptm_packet *pkts,
				  size_t n, size_t size);

/* No more input will come. Returns 0 or -PFT_ERR_INVALID. */
pft_export int pft_ptm_pkt_finish(struct pft_ptm_pkt_decoder *d);

/* Give up synchronisation: bytes up to the next A-sync are NOTSYNC.
 * The compression and timestamp state is kept. Returns 0 or
 * -PFT_ERR_INVALID. */
pft_export int pft_ptm_pkt_sync_forward(struct pft_ptm_pkt_decoder *d);

/* Forget everything (state, pending bytes, finish) as if just allocated,
 * keeping the configuration. Returns 0 or -PFT_ERR_INVALID. */
pft_export int pft_ptm_pkt_reset(struct pft_ptm_pkt_decoder *d);

/* Offset of the next byte the decoder will look at. */
pft_export uint64_t pft_ptm_pkt_get_offset(const struct pft_ptm_pkt_decoder *d);

/* ---- Section: packet encoder (pft_ptm_enc_) ---- */

/*
 * The packet encoder turns struct pft_ptm_packet values into PFT bytes, exactly
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
struct pft_ptm_encoder;

/* Allocate an encoder for a stream described by @cfg (copied; it uses
 * version_minor, cycle_accurate, ctxid_bytes, ts_64bit and ts_gray).
 * Returns NULL with *@errcode set (if @errcode is not NULL) to
 * -PFT_ERR_INVALID (NULL @cfg, or @cfg->size too small to hold ts_gray),
 * -PFT_ERR_BAD_CONFIG (ctxid_bytes not 0, 1, 2 or 4) or
 * -PFT_ERR_NOMEM. */
pft_export struct pft_ptm_encoder *pft_ptm_enc_alloc(const struct pft_ptm_config *cfg,
					     int *errcode);
pft_export void pft_ptm_enc_free(struct pft_ptm_encoder *e);

/* Encode @pkt into @out (@outlen bytes; PFT_PTM_ENC_MAX_PACKET is always
 * enough).  Returns the number of bytes written, -PFT_ERR_INVALID (NULL
 * argument, bad type or a field out of range or not allowed by the
 * configuration, see above) or -PFT_ERR_NOSPACE (@outlen too small).  On
 * error nothing is written and the state is unchanged. */
pft_export int pft_ptm_enc_packet(struct pft_ptm_encoder *e,
			      const struct pft_ptm_packet *pkt, uint8_t *out,
			      size_t outlen);

enum {
	PFT_PTM_ENC_MAX_PACKET = 16  /* bytes; the longest packet has 15 */
};

/* Forget the compression state as if just allocated: the next address is
 * sent in 5 bytes, the next branch carries EX0, the next timestamp is full
 * and the context ID last sent is 0.  Returns 0 or -PFT_ERR_INVALID. */
pft_export int pft_ptm_enc_reset(struct pft_ptm_encoder *e);

/* Send the next timestamp in full width (a T-sync), as a PTM does
 * periodically.  Returns 0 or -PFT_ERR_INVALID. */
pft_export int pft_ptm_enc_force_tsync(struct pft_ptm_encoder *e);

/* ---- End of packet encoder ---- */

#ifdef __cplusplus
}
#endif

#endif /* PFT_PUBLIC_PACKETS_H */
