/* calls_sample.h - builds tests/views/calls_sample.S (functions at known
 * addresses: _start 0x8000, fa 0x8100, fb 0x8200, fc 0x8300) into @path, a
 * mkstemp() template.  Returns 0, or -1 (and says why) when it cannot. */
#ifndef CALLS_SAMPLE_H
#define CALLS_SAMPLE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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

#endif
