/* Instructions as text, through capstone. */
#include <stdio.h>

#include "disasm.h"

int disasm_open(struct disasm *d)
{
	d->ok = cs_open(CS_ARCH_ARM, CS_MODE_ARM, &d->arm) == CS_ERR_OK;
	if (d->ok && cs_open(CS_ARCH_ARM, CS_MODE_THUMB, &d->thumb) != CS_ERR_OK) {
		cs_close(&d->arm);
		d->ok = 0;
	}
	return d->ok ? 0 : -1;
}

void disasm_close(struct disasm *d)
{
	if (!d->ok)
		return;
	cs_close(&d->arm);
	cs_close(&d->thumb);
	d->ok = 0;
}

int disasm_text(const struct disasm *d, const struct pft_insn *insn, int padded, char *buf,
		size_t len)
{
	cs_insn *dis = NULL;
	csh cs = insn->isa == PFT_ISA_ARM ? d->arm : d->thumb;
	size_t count = d->ok ? cs_disasm(cs, insn->raw, insn->size, insn->addr, 1, &dis) : 0;

	if (!count) {
		snprintf(buf, len, "(undecodable)");
		return 0;
	}
	if (padded)
		snprintf(buf, len, "%-8s %s", dis->mnemonic, dis->op_str);
	else
		snprintf(buf, len, "%s%s%s", dis->mnemonic, *dis->op_str ? " " : "", dis->op_str);
	cs_free(dis, count);
	return 1;
}

int disasm_views(void *ctx, const struct pft_insn *insn, char *buf, size_t len)
{
	return disasm_text(ctx, insn, 0, buf, len) ? 0 : -1;
}
