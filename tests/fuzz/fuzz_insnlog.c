/* fuzz_insnlog - executed-instruction logs (pft_insn_log_*): qemu exec
 * and int logs, plain address lists, and what they give the models.
 *
 * Input: the log, written to a private temporary file (the entry point
 * takes a path).
 *
 * Properties (pft/insnlog.h): reading ends at the end of the log or at a
 * documented error whose diagnostic names the log and a line, on one line;
 * every instruction has a valid ISA and exception number, an exception
 * entry's return address ISA too; the lines of the instructions never go
 * back; the exceptions counted are the entries returned.  Each
 * instruction then goes to a PTM model over a small image, which accepts
 * it or refuses it with a documented error, and never fails otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "pft.h"

static char path[80];

static void remove_file(void)
{
	unlink(path);
}

static int valid_isa(unsigned isa)
{
	return isa == PFT_ISA_ARM || isa == PFT_ISA_THUMB || isa == PFT_ISA_UNKNOWN;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* nop; b .-4; bx lr; subs pc, lr, #4 at 0 .. 0x10, repeated to 0x400. */
	static const uint32_t code[4] = { 0xe1a00000, 0xeafffffd, 0xe12fff1e, 0xe25ef004 };
	uint8_t image[0x400];

	fuzz_write_file(path, sizeof(path), "insnlog", remove_file, data, size);
	for (size_t i = 0; i < sizeof(image); i++)
		image[i] = (uint8_t)(code[i / 4 % 4] >> (8 * (i % 4)));

	struct pft_diag why = { .code = 0 };
	struct pft_insn_log *log = pft_insn_log_open(path, &why);
	FUZZ_CHECK(log && !why.code);
	struct pft_image *img = pft_image_alloc(NULL);
	FUZZ_CHECK(img && pft_image_add_buffer(img, 0, image, sizeof(image), PFT_SPACE_ANY, 0) >= 0);
	struct pft_ptm_config cfg;
	pft_ptm_config_init(&cfg);
	struct pft_ptm_model *m = pft_ptm_model_alloc(&cfg, NULL, img, NULL);
	FUZZ_CHECK(m);

	struct pft_model_insn in;
	uint64_t line = 0, entries = 0;
	int r;
	while ((r = pft_insn_log_next(log, &in, sizeof(in))) == 1) {
		FUZZ_CHECK(valid_isa(in.isa) && in.exception <= 511);
		FUZZ_CHECK(!in.exception || !in.has_exc_ret || valid_isa(in.exc_ret_isa));
		FUZZ_CHECK(pft_insn_log_line(log) >= line && pft_insn_log_line(log) >= 1);
		line = pft_insn_log_line(log);
		entries += in.exception != 0;
		int err = pft_ptm_model_put(m, &in, sizeof(in));
		FUZZ_CHECK(err == 0 || err == -PFT_ERR_BAD_INSN || err == -PFT_ERR_NOMAP ||
			   err == -PFT_ERR_NOT_SUPPORTED || err == -PFT_ERR_INVALID);
		struct pft_ptm_packet p;
		while (pft_ptm_model_next(m, &p, sizeof(p)) == 0)
			;
		if (err)
			break;
	}
	FUZZ_CHECK(r == 1 || r == 0 || r == -PFT_ERR_BAD_FILE || r == -PFT_ERR_NOT_SUPPORTED);
	FUZZ_CHECK(pft_insn_log_exceptions(log) == entries);
	FUZZ_CHECK(pft_insn_log_diag(log, &why) == 0);
	if (r < 0)
		FUZZ_CHECK(why.code == (uint32_t)-r && why.line >= 1 && !strncmp(why.file, path, 80) &&
			   !strchr(why.text, '\n') && !strncmp(why.text, path, strlen(path)));
	pft_ptm_model_free(m);
	pft_image_free(img);
	pft_insn_log_close(log);
	return 0;
}
