/*
 * pft/insnlog.h - executed-instruction logs, read into the models' input
 * (struct pft_model_insn, pft/model.h): qemu's instruction logs and plain
 * address lists (pft_insn_log_).
 *
 * Link with libpft-io (pkg-config libpft-io), which needs libelf,
 * libdw and threads.  <pft.h> includes every header;
 * its head comment gives the conventions and the prefixes.
 */
#ifndef PFT_PUBLIC_INSNLOG_H
#define PFT_PUBLIC_INSNLOG_H

#include "pft/common.h"
#include "pft/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Section: instruction logs (pft_insn_log_) ---- */

/*
 * The format is told by the first line that is not blank:
 *
 * qemu (a line starting "Trace "): the log of qemu-arm or qemu-system-arm
 *   run with `-singlestep -d exec,nochain`, optionally with `int` (system
 *   emulation: exceptions) and `cpu` (the condition flags of each
 *   instruction, and the link register at an exception entry).  Blocks
 *   qemu printed but did not run ("Stopped execution of TB chain before",
 *   "cpu_io_recompile: rewound execution of TB to") are left out.  An
 *   exception entry ("Taking exception N [NAME]", N being qemu's own
 *   index, NAME the kind) is given with the handler's first instruction
 *   (pft_model_insn.exception, ARMv7-A/R numbering); an instruction it
 *   cut (a data abort or breakpoint at it) is left out, and its address
 *   becomes the return address.  The return address of an interrupt is
 *   the address qemu names when it stops the next block or returns from
 *   an exception just before, else the link register (`cpu` logs), else
 *   what the instruction before tells (the model infers it).  Semihosting
 *   calls are ordinary instructions.
 *   An M-profile core's log (mps2-an385, mps2-an386: "Loaded reset SP",
 *   "...taking pending nonsecure exception N", "QEMU v7M exception exit",
 *   "XPSR=") gives the IPSR number N of each exception (the models of
 *   M-profile trace units take it) and exception returns
 *   (pft_model_insn.exc_return, on the instruction returned to, or with
 *   the exception a return tail-chained to); an undefined instruction, a
 *   faulting load or store, a BKPT or a UsageFault's instruction did not
 *   run and is the return address, a prefetch abort's is the fault
 *   address; an exception taken before the first instruction of another
 *   one's handler (qemu's "...loaded new PC") makes that one an entry
 *   only (pft_model_insn.exc_only).  With `cpu`, R0-R7 come with each
 *   instruction (pft_model_insn.regs).  Every "..." line of such a log
 *   must be one pft knows.
 *
 * plain: one hexadecimal address per line (odd: Thumb), optionally followed
 *   by the cycles the instruction took, in decimal; '#' starts a comment;
 *   lines "ctxid V", "vmid V", "ns 0|1" give the state from the next
 *   address on, and "exception KIND [RET]" an exception taken before the
 *   next address (KIND a number 1-511, a name of pft_exception_name() or an
 *   M-profile name of pft_exception_name_in(): "svcall", "pendsv",
 *   "irq12", ...; RET the return address, odd for Thumb); "exception
 *   return": the instruction before returned from an exception (M
 *   profile), to the next address or, followed by "exception KIND", to a
 *   tail-chained exception's handler.
 *
 * Memory: a line at a time; it does not grow with the log.
 */
struct pft_insn_log;

/*
 * Open the log @path ("-": standard input).  Returns it, or NULL with *@d
 * (when not NULL) saying why (-PFT_ERR_BAD_FILE: cannot be opened;
 * -PFT_ERR_INVALID: NULL @path; -PFT_ERR_NOMEM).
 */
pft_export struct pft_insn_log *pft_insn_log_open(const char *path, struct pft_diag *d);
pft_export void pft_insn_log_close(struct pft_insn_log *l);

/*
 * The next executed instruction into @insn (@size = sizeof *@insn; fields
 * the log does not give are 0).  Returns 1, 0 at the end of the log, or
 * -PFT_ERR_BAD_FILE (a line that is not of the log's format, a value out
 * of range, a read error; pft_insn_log_diag() names the line),
 * -PFT_ERR_NOT_SUPPORTED (an exception kind the models cannot trace, two
 * exceptions with no instruction between them, lines of both A/R and M
 * profile) or -PFT_ERR_INVALID.
 */
pft_export int pft_insn_log_next(struct pft_insn_log *l, struct pft_model_insn *insn,
				 size_t size);

/* The line of the instruction the last pft_insn_log_next() returned. */
pft_export uint64_t pft_insn_log_line(const struct pft_insn_log *l);

/* Exception entries returned so far. */
pft_export uint64_t pft_insn_log_exceptions(const struct pft_insn_log *l);

/* The architecture profile the log has shown so far (enum pft_profile:
 * PFT_PROFILE_A for A and R, PFT_PROFILE_M), or -1 while nothing told:
 * whether its exceptions (pft_model_insn.exception) are numbered for an
 * A/R or an M-profile model.  It is known before the first instruction
 * with an exception (or exception return) is returned. */
pft_export int pft_insn_log_profile(const struct pft_insn_log *l);

/* Why the last call failed, in *@d (code 0: it did not).  Returns 0 or
 * -PFT_ERR_INVALID. */
pft_export int pft_insn_log_diag(const struct pft_insn_log *l, struct pft_diag *d);

/* ---- End of instruction logs ---- */

#ifdef __cplusplus
}
#endif

#endif /* PFT_PUBLIC_INSNLOG_H */
