/* ptunit.h - a minimal unit-test harness (in the spirit of libipt's ptunit).
 *
 * Each test is a function; PTU_RUN(fn) runs it and counts checks that
 * failed.  PTU_MAIN_END prints the plain "N passed, N failed" line and
 * returns the process status.
 */
#ifndef PTUNIT_H
#define PTUNIT_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int ptu_failed_checks;
static int ptu_tests_passed, ptu_tests_failed;

#define PTU_CHECK(cond)                                                       \
	do {                                                                  \
		if (!(cond)) {                                                \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, \
				__LINE__, #cond);                             \
			ptu_failed_checks++;                                  \
		}                                                             \
	} while (0)

/* Compare two integers, printing both on failure. */
#define PTU_EQ(a, b)                                                          \
	do {                                                                  \
		unsigned long long ptu_a_ = (unsigned long long)(a);          \
		unsigned long long ptu_b_ = (unsigned long long)(b);          \
		if (ptu_a_ != ptu_b_) {                                       \
			fprintf(stderr, "%s:%d: %s == %s failed: 0x%llx != 0x%llx\n", \
				__FILE__, __LINE__, #a, #b, ptu_a_, ptu_b_);  \
			ptu_failed_checks++;                                  \
		}                                                             \
	} while (0)

#define PTU_STREQ(a, b)                                                       \
	do {                                                                  \
		const char *ptu_a_ = (a), *ptu_b_ = (b);                      \
		if (!ptu_a_ || !ptu_b_ || strcmp(ptu_a_, ptu_b_) != 0) {      \
			fprintf(stderr, "%s:%d: %s == %s failed: \"%s\" != \"%s\"\n", \
				__FILE__, __LINE__, #a, #b,                   \
				ptu_a_ ? ptu_a_ : "(null)",                   \
				ptu_b_ ? ptu_b_ : "(null)");                  \
			ptu_failed_checks++;                                  \
		}                                                             \
	} while (0)

#define PTU_RUN(fn)                                                           \
	do {                                                                  \
		int ptu_before_ = ptu_failed_checks;                          \
		fn();                                                         \
		if (ptu_failed_checks == ptu_before_) {                       \
			ptu_tests_passed++;                                   \
		} else {                                                      \
			ptu_tests_failed++;                                   \
			fprintf(stderr, "FAIL %s\n", #fn);                    \
		}                                                             \
	} while (0)

/* Remove the @n files named @files from temporary directory @dir, then
 * the directory. */
static inline void ptu_remove_dir(const char *dir, const char *const *files, size_t n)
{
	char path[4096];

	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}

#define PTU_MAIN_END()                                                        \
	do {                                                                  \
		printf("%d passed, %d failed\n", ptu_tests_passed,            \
		       ptu_tests_failed);                                     \
		return ptu_tests_failed ? 1 : 0;                              \
	} while (0)

#endif
