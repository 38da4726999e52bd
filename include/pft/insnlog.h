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
 *
 * plain: one hexadecimal address per line (odd: Thumb), optionally followed
 *   by the cycles the instruction took, in decimal; '#' starts a comment;
 *   lines "ctxid V", "vmid V", "ns 0|1" give the state from the next
 *   address on, and "exception KIND [RET]" an exception taken before the
 *   next address (KIND a number 1-511 or a name of pft_exception_name(),
 *   RET the return address, odd for Thumb).
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
 * -PFT_ERR_NOT_SUPPORTED (an exception kind the models cannot trace, or
 * two exceptions with no instruction between them) or -PFT_ERR_INVALID.
 */
pft_export int pft_insn_log_next(struct pft_insn_log *l, struct pft_model_insn *insn,
				 size_t size);

/* The line of the instruction the last pft_insn_log_next() returned. */
pft_export uint64_t pft_insn_log_line(const struct pft_insn_log *l);

/* Exception entries returned so far. */
pft_export uint64_t pft_insn_log_exceptions(const struct pft_insn_log *l);

/* Why the last call failed, in *@d (code 0: it did not).  Returns 0 or
 * -PFT_ERR_INVALID. */
pft_export int pft_insn_log_diag(const struct pft_insn_log *l, struct pft_diag *d);

/* ---- End of instruction logs ---- */

#ifdef __cplusplus
}
#endif

#endif /* PFT_PUBLIC_INSNLOG_H */
