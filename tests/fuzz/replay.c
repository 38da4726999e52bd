/* replay - run a fuzz target's LLVMFuzzerTestOneInput on files, as ctest
 * does with each target's corpus and regressions in every build (gcc
 * included, where libFuzzer is not available).
 *
 * usage: replay_<target> PATH...   (files, or directories of files; a
 * directory that does not exist counts as empty).  Fails when no input at
 * all was found, so that a misplaced corpus cannot pass silently.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_util.h"

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	do {
		if (len == cap) {
			cap = cap ? 2 * cap : 4096;
			uint8_t *p = realloc(buf, cap);
			if (!p) {
				fclose(f);
				free(buf);
				return -1;
			}
			buf = p;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	/* libFuzzer passes a private copy of exactly @len bytes: do the same,
	 * so that ASan sees reads past the end. */
	uint8_t *copy = malloc(len ? len : 1);
	if (!copy) {
		free(buf);
		return -1;
	}
	memcpy(copy, buf, len);
	free(buf);
	LLVMFuzzerTestOneInput(copy, len);
	free(copy);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Run every regular file of @dir, in name order.  Returns the count or -1. */
static long run_dir(const char *dir)
{
	DIR *d = opendir(dir);
	char **names = NULL;
	size_t n = 0;
	long count = 0;
	struct dirent *de;

	if (!d)
		return errno == ENOENT ? 0 : -1;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		char **p = realloc(names, (n + 1) * sizeof(*p));
		if (!p)
			break;
		names = p;
		names[n] = malloc(strlen(dir) + strlen(de->d_name) + 2);
		if (!names[n])
			break;
		sprintf(names[n++], "%s/%s", dir, de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		if (count >= 0 && !stat(names[i], &st) && S_ISREG(st.st_mode))
			count = run_file(names[i]) ? -1 : count + 1;
		free(names[i]);
	}
	free(names);
	return count;
}

int main(int argc, char **argv)
{
	long total = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;
		long n;

		if (!stat(argv[i], &st) && S_ISREG(st.st_mode))
			n = run_file(argv[i]) ? -1 : 1;
		else
			n = run_dir(argv[i]);
		if (n < 0) {
			fprintf(stderr, "replay: cannot read %s\n", argv[i]);
			return 1;
		}
		printf("%s: %ld inputs\n", argv[i], n);
		total += n;
	}
	if (!total) {
		fprintf(stderr, "replay: no inputs\n");
		return 1;
	}
	printf("replayed %ld inputs, all properties held\n", total);
	return 0;
}
