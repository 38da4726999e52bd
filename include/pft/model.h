/*
 * pft/model.h - the PTM model: an executed-instruction log -> packets (a PTM in
 * software, pft_model_), for tests and pft encode.
 *
 * Link with libpft (pkg-config libpft).  <pft.h> includes every header;
 * its head comment gives the conventions and the prefixes.
 */
#ifndef PFT_PUBLIC_MODEL_H
#define PFT_PUBLIC_MODEL_H

#include "pft/common.h"
#include "pft/packets.h"
#include "pft/image.h"

#ifdef __cplusplus
extern "C" {
#endif

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
	/* Exception entry: an exception (enum pft_exception, ARMv7-A/R
	 * numbering, 2-511; 0 = none) was taken just before this instruction, the
	 * first of its handler.  The flow it interrupted would have gone on
	 * at @exc_ret (the preferred return address as the trace reports it:
	 * after an SVC, SMC, HVC or undefined instruction, which count as
	 * executed; the instruction itself for an abort or a breakpoint, which
	 * the caller leaves out of the log; the next instruction for an
	 * interrupt) in @exc_ret_isa (UNKNOWN: as for @isa).  Without
	 * @has_exc_ret the model infers it where the instruction before
	 * tells: the next one after anything but a branch, the target of an
	 * unconditional direct branch. */
	uint16_t exception;
	uint8_t has_exc_ret, exc_ret_isa;
	uint32_t exc_ret;
};

struct pft_ptm_model;

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
pft_export struct pft_ptm_model *pft_ptm_model_alloc(const struct pft_ptm_config *cfg,
					     const struct pft_model_config *mcfg,
					     struct pft_image *image,
					     int *errcode);
pft_export void pft_ptm_model_free(struct pft_ptm_model *m);

/*
 * The next executed instruction (@size = sizeof *@insn).  It completes the
 * previous one, whose packets become ready for pft_ptm_model_next().  Returns
 * 0, or (with the model unchanged; pft_ptm_model_diag() tells why):
 *   -PFT_ERR_BAD_INSN   an impossible flow from the previous instruction
 *                       (to the exception's return address, for an
 *                       exception entry), an address not aligned for its
 *                       ISA, or an exception entry whose return address
 *                       is neither given nor told by the instruction before
 *   -PFT_ERR_NOMAP      an address outside the image that is neither
 *                       reached by a branch nor after another such address
 *   -PFT_ERR_NOT_SUPPORTED  @insn->isa is not ARM, THUMB or UNKNOWN
 *   -PFT_ERR_INVALID    NULL argument, @size too small, an exception
 *                       number the model cannot trace (1, above 511), or
 *                       packets of the previous call not all taken
 *   -PFT_ERR_EOS        after pft_ptm_model_finish()
 */
pft_export int pft_ptm_model_put(struct pft_ptm_model *m,
			     const struct pft_model_insn *insn, size_t size);

/* The log has ended: the last instruction's packets and the final flush
 * become ready.  Returns 0, -PFT_ERR_INVALID (NULL @m, or packets not
 * taken) or -PFT_ERR_EOS (already finished). */
pft_export int pft_ptm_model_finish(struct pft_ptm_model *m);

/*
 * The next packet in @pkt (@size = sizeof *@pkt): its fields as
 * pft_ptm_pkt_next() would decode them where the model knows them (type,
 * addr, isa, reason, ns, atoms, cycles, ctxid, vmid, ts, exception), @raw
 * and @size its bytes (valid until the next call on the model) and
 * @offset its position in the stream.  Returns 0, -PFT_ERR_NEED_INPUT
 * when the packets of the last put are all taken (-PFT_ERR_EOS instead
 * after finish), or -PFT_ERR_INVALID.
 */
pft_export int pft_ptm_model_next(struct pft_ptm_model *m, struct pft_ptm_packet *pkt,
			      size_t size);

/*
 * Why the last put failed, in *@d: @code its return code, @reason a
 * PFT_ERR_MODEL_* value when the flow was impossible (pft_errstr()
 * describes it), @text one line naming the instruction ("0x00008004
 * cannot follow 0x00008000: the PC changed after an instruction that
 * cannot branch"; the model has no file: @file is "").  Code 0: the last
 * put succeeded.  Returns 0 or -PFT_ERR_INVALID (NULL argument).
 */
pft_export int pft_ptm_model_diag(const struct pft_ptm_model *m, struct pft_diag *d);

/* Trace bytes produced so far (taken or not) and instructions put. */
pft_export uint64_t pft_ptm_model_bytes(const struct pft_ptm_model *m);
pft_export uint64_t pft_ptm_model_insns(const struct pft_ptm_model *m);

/* ---- End of model ---- */

#ifdef __cplusplus
}
#endif

#endif /* PFT_PUBLIC_MODEL_H */
