/*
 * pft/etm3.h - ETMv3 (Cortex-A5/A7/A8/R4/R5): configuration, packet decoder,
 * flow decoder, encoder and model (pft_etm3_), beside the PTM layers.
 *
 * Link with libpft (pkg-config libpft).  <pft.h> includes every header;
 * its head comment gives the conventions and the prefixes.
 */
#ifndef PFT_PUBLIC_ETM3_H
#define PFT_PUBLIC_ETM3_H

#include "pft/common.h"
#include "pft/image.h"
#include "pft/flow.h"
#include "pft/model.h"

#ifdef __cplusplus
extern "C" {
#endif

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
	/* The traced core is ARMv7-M (Cortex-M3/M4): Thumb only, exception
	 * numbers in the ETM's M-profile encoding (the flow decoder gives
	 * their IPSR numbers), Cancel after an exception return meaning a
	 * tail-chained exception.  From registers: ETMIDR[20], the
	 * alternative branch encoding, which only the M-profile ETMs have
	 * (etmv3-protocol.md 1). */
	uint8_t m_profile;
	uint8_t reserved[1];
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
					const struct pft_ptm_config *ptm);

/*
 * The configuration of @core's ETM (struct pft_core, pft/common.h)
 * programmed with the options of @opts that ETMv3 has (cycle_accurate,
 * ctxid_bytes, timestamps, vmid, branch_broadcast, trace_id), as
 * pft_etm3_config_from_regs() derives it from that ETMCR and @core's
 * registers (version, branch encoding and M profile, timestamp format).
 * @cfg initialised first.  Returns 0, -PFT_ERR_INVALID (NULL, a size too
 * small) or -PFT_ERR_BAD_CONFIG (@core is not traced by an ETMv3, or
 * lacks an option of @opts: pft_core_lacks(); @opts with return_stack or
 * dmb_dsb_waypoints, which ETMv3 has not).
 */
pft_export int pft_etm3_config_for_core(struct pft_etm3_config *cfg, const struct pft_core *core,
					const struct pft_ptm_config *opts);

/* ARMv7-M exceptions as an M-profile ETM numbers them in branch packets
 * (etmv3-protocol.md 4.5: 1-7 IRQ1-7, 8 IRQ0, 9 UsageFault, 10 NMI, 11
 * SVCall, 12 DebugMonitor, 13 MemManage, 14 PendSV, 15 SysTick, 17 Reset,
 * 19 HardFault, 21 BusFault, 24 + n - 8 IRQn for n >= 8): the IPSR number
 * (enum pft_m_exception) of the ETM's number @etm, or -1 (0, a reserved
 * number, above 511). */
pft_export int pft_etm3_m_exception_ipsr(unsigned etm);

/* The inverse: the ETM's number for IPSR exception @ipsr, or -1 (0,
 * reserved, above 511). */
pft_export int pft_etm3_m_exception_etm(unsigned ipsr);

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

/* As pft_ptm_pkt_feed()/pft_ptm_pkt_feed_at(): the buffer is borrowed until
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
 * or -PFT_ERR_NOSPACE (@outlen too small, as pft_ptm_enc_packet()).  On error
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

/* As pft_ptm_model_put(), pft_ptm_model_finish(), pft_ptm_model_diag(),
 * pft_ptm_model_bytes() and pft_ptm_model_insns(), with the same return codes. */
pft_export int pft_etm3_model_put(struct pft_etm3_model *m, const struct pft_model_insn *insn,
				  size_t size);
pft_export int pft_etm3_model_finish(struct pft_etm3_model *m);
pft_export int pft_etm3_model_diag(const struct pft_etm3_model *m, struct pft_diag *d);
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

#ifdef __cplusplus
}
#endif

#endif /* PFT_PUBLIC_ETM3_H */
