/* calls_sample.h - what the calls and views tests share: an ELF with
 * functions at known addresses, and hand-built ranges. */
#ifndef CALLS_SAMPLE_H
#define CALLS_SAMPLE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "pft.h"

/* Build tests/views/calls_sample.S (_start 0x8000, fa 0x8100, fb 0x8200,
 * fc 0x8300, fd 0x8400, fe 0x8500, ff 0x8508) into @path, a mkstemp() template.  Returns 0, or -1 (and says
 * why) when it cannot. */
static int build_calls_sample(char *path)
{
	const char *src = getenv("PFT_SOURCE");
	char cmd[4096];
	int fd = mkstemp(path);

	if (fd < 0)
		return -1;
	close(fd);
	snprintf(cmd, sizeof(cmd),
		 "arm-linux-gnueabihf-gcc -nostdlib -static -Wl,-Ttext=0x8000 "
		 "-Wl,--build-id=none -o %s %s/tests/views/calls_sample.S",
		 path, src ? src : ".");
	if (system(cmd) != 0) {
		fprintf(stderr, "cannot build calls_sample.S\n");
		return -1;
	}
	return 0;
}

/* A RANGE of @n A32 instructions from @start, its last of class @iclass. */
static struct pft_elem arm_range(uint32_t start, uint32_t n, unsigned iclass, int taken)
{
	struct pft_elem e = { .type = PFT_ELEM_RANGE, .start = start,
			      .last = start + 4 * (n - 1), .end = start + 4 * n,
			      .ninsn = n, .iclass = (uint8_t)iclass,
			      .taken = (uint8_t)taken, .isa = PFT_ISA_ARM };
	return e;
}

#endif
