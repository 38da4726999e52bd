/* fuzz_util.h - what the fuzz targets share.
 *
 * Each fuzz_<name>.c defines LLVMFuzzerTestOneInput(); it is linked with
 * libFuzzer (PFT_FUZZ=ON, clang) or with replay.c (every build: the corpus
 * and the regressions are ctest tests).  A target checks properties that
 * the documentation of the layer promises; a broken one is a crash
 * (abort), which both libFuzzer and ctest report.
 */
#ifndef PFT_FUZZ_UTIL_H
#define PFT_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Fuzzing runs (PFT_FUZZ) tolerate the known, reported issues listed in
 * tests/fuzz/README.md so that they can look for new ones; the replay of
 * the regressions in ctest does not, so that each fails until fixed. */
#ifndef FUZZ_TOLERATE_KNOWN
#define FUZZ_TOLERATE_KNOWN 0
#endif

#define FUZZ_CHECK(cond)                                                      \
	do {                                                                  \
		if (!(cond)) {                                                \
			fprintf(stderr, "%s:%d: property violated: %s\n",     \
				__FILE__, __LINE__, #cond);                   \
			abort();                                              \
		}                                                             \
	} while (0)

/* A deterministic sequence of feed sizes (1 .. @max) from @seed, so that
 * the same input is cut the same way every time it is replayed. */
static inline size_t fuzz_next_cut(uint32_t *seed, size_t max)
{
	*seed = *seed * 1103515245u + 12345u;
	return 1 + (size_t)((*seed >> 16) % (uint32_t)(max ? max : 1));
}

/* Write @data to a private temporary file for targets whose entry point
 * takes a path: created on the first call in @path (at least 80 bytes,
 * static, named after @target), removed at exit by @remove. */
static inline void fuzz_write_file(char *path, size_t path_size, const char *target,
				   void (*remove)(void), const uint8_t *data, size_t size)
{
	if (!path[0]) {
		const char *tmp = getenv("TMPDIR");
		snprintf(path, path_size, "%s/pft-fuzz-%s-XXXXXX",
			 tmp && strlen(tmp) < 40 ? tmp : "/tmp", target);
		int fd = mkstemp(path);
		FUZZ_CHECK(fd >= 0);
		close(fd);
		atexit(remove);
	}
	FILE *f = fopen(path, "wb");
	FUZZ_CHECK(f);
	FUZZ_CHECK(fwrite(data, 1, size, f) == size);
	FUZZ_CHECK(fclose(f) == 0);
}

#endif
