/*
 * decode_snapshot - print every instruction range an OpenCSD snapshot's
 * PTM trace executed, and the instructions in each.
 *
 *   cc decode_snapshot.c $(pkg-config --cflags --libs libpft-io) -o decode_snapshot
 *   ./decode_snapshot SNAPSHOT_DIR [ELF]
 *
 * Output, one line per range and one indented line per instruction:
 *   range id=0x13 start=0xc0018d82 end=0xc0018d8a n=3 thumb taken
 *       0xc0018d82 thumb 2 other
 */
#include <inttypes.h>
#include <stdio.h>

#include <pft.h>

/* Print the range and walk its instructions in the image it was decoded
 * with.  Returns 0 or a -PFT_ERR_* code. */
static int print_range(const struct pft_input_source *src, const struct pft_elem *range)
{
	struct pft_insn_iter it;
	struct pft_insn insn;
	int rc;

	printf("range id=0x%x start=0x%08" PRIx32 " end=0x%08" PRIx32 " n=%" PRIu32 " %s %s\n",
	       (unsigned)(src->id >= 0 ? src->id : src->cfg.trace_id), range->start, range->end,
	       range->ninsn,
	       pft_isa_name(range->isa), range->taken ? "taken" : "not-taken");
	rc = pft_insn_iter_init(&it, src->image, range);
	if (rc < 0)
		return rc;
	while ((rc = pft_insn_iter_next(&it, &insn, sizeof insn)) > 0)
		printf("    0x%08" PRIx32 " %s %u %s\n", insn.addr, pft_isa_name(insn.isa),
		       (unsigned)insn.size, pft_iclass_name(insn.iclass));
	return rc;
}

/* Say why the input failed with @rc: its last diagnostic names the file
 * and the place in it. */
static void report(const struct pft_input *in, int rc)
{
	struct pft_diag d;
	const char *why = pft_errstr(pft_errcode(rc));

	for (size_t i = 0; pft_input_diag(in, i, &d) == 0; i++)
		if (d.severity == PFT_DIAG_ERROR)
			why = d.text;
	fprintf(stderr, "decode_snapshot: %s\n", why);
}

int main(int argc, char **argv)
{
	/* Flow elements only (no packets), every trace source. */
	struct pft_input_config cfg = { .size = sizeof cfg, .elements = 1, .id = -1 };
	struct pft_input *in;
	struct pft_item item;
	int rc;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: %s SNAPSHOT_DIR [ELF]\n", argv[0]);
		return 2;
	}
	in = pft_input_alloc(&cfg, &rc);
	if (!in) {
		fprintf(stderr, "decode_snapshot: %s\n", pft_errstr(pft_errcode(rc)));
		return 2;
	}
	/* Images go in before the snapshot is opened; the snapshot's own
	 * memory dumps are added after them (a dump of the same bytes is
	 * left out, so the ELF's symbols and segments win). */
	rc = argc == 3 ? pft_input_add_elf(in, argv[2], 0) : 0;
	if (rc == 0)
		rc = pft_input_open_snapshot(in, argv[1]);
	if (rc < 0) {
		report(in, rc);
		pft_input_free(in);
		return 2;
	}

	/* Items come in trace order: packets' elements of every source, and
	 * gaps.  item.elem is only valid until the next call. */
	while ((rc = pft_input_next(in, &item, sizeof item)) == 0) {
		struct pft_input_source src;

		if (item.type != PFT_ITEM_ELEM || item.elem->type != PFT_ELEM_RANGE)
			continue;
		rc = pft_input_source(in, item.source, &src, sizeof src);
		if (rc == 0)
			rc = print_range(&src, item.elem);
		if (rc < 0)
			break;
	}
	if (rc != -PFT_ERR_EOS) {
		report(in, rc);
		pft_input_free(in);
		return 1;
	}
	pft_input_free(in);
	return 0;
}
