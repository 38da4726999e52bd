/* disasm.h - instructions as text, through capstone (the CLI's own
 * dependency): pft decode --insn and the annotation. */
#ifndef PFT_DISASM_H
#define PFT_DISASM_H

#include <capstone/capstone.h>
#include <stddef.h>

#include "pft.h"

struct disasm {
	csh arm, thumb;
	int ok;                  /* both handles open */
};

/* Open both instruction sets: 0, or -1 (capstone failed: every
 * instruction is then unknown). */
int disasm_open(struct disasm *d);
void disasm_close(struct disasm *d);

/* @insn's mnemonic and operands in @buf: "%-8s %s" with @padded, else
 * "%s %s".  Returns 1, or 0 when capstone does not know it ("(undecodable)"
 * in @buf). */
int disasm_text(const struct disasm *d, const struct pft_insn *insn, int padded, char *buf,
		size_t len);

/* The views' disassembler (struct pft_views_output): @ctx is a struct
 * disasm.  0, or -1 for an instruction capstone does not know. */
int disasm_views(void *ctx, const struct pft_insn *insn, char *buf, size_t len);

#endif
