/* fuzz_snapshot - the snapshot reader (pft_snap_*) and what the CLI does
 * with a snapshot's registers (configuration, register explanations).
 *
 * Input: files separated by NUL bytes, each "NAME\nCONTENT"; NAME is a
 * plain file name (letters, digits, '_', '-', '.'; no "..").  They are
 * written to a private temporary directory, which is then read with
 * pft_snap_load() as `pft --snapshot` does.  Inputs that name /dev, /proc or
 * /sys are skipped (a device file could block).
 *
 * Properties (pft.h, snapshot): pft_snap_load() returns 0, or a negative
 * code with a one-line message; on success every device has name, class
 * and type, every dump a path inside the directory, every buffer a path
 * and a format, and the source links point at real devices and buffers.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "pft.h"

static char dir[64];

static void clean_dir(void)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[sizeof(dir) + 300];

	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' && (!de->d_name[1] ||
					     (de->d_name[1] == '.' && !de->d_name[2])))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		unlink(path);
	}
	closedir(d);
}

static void remove_dir(void)
{
	clean_dir();
	rmdir(dir);
}

static int plain_name(const char *s, size_t n)
{
	if (!n || n > 64 || (n <= 2 && s[0] == '.' && s[n - 1] == '.'))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_' || s[i] == '-' ||
		      s[i] == '.'))
			return 0;
	return 1;
}

static int has(const uint8_t *data, size_t size, const char *word)
{
	size_t n = strlen(word);

	for (size_t i = 0; i + n <= size; i++)
		if (!memcmp(data + i, word, n))
			return 1;
	return 0;
}

static void write_files(const uint8_t *data, size_t size)
{
	char path[sizeof(dir) + 80];
	size_t pos = 0;

	while (pos < size) {
		const uint8_t *end = memchr(data + pos, 0, size - pos);
		size_t len = end ? (size_t)(end - (data + pos)) : size - pos;
		const uint8_t *nl = memchr(data + pos, '\n', len);
		if (nl && plain_name((const char *)data + pos, (size_t)(nl - (data + pos)))) {
			size_t nlen = (size_t)(nl - (data + pos));
			snprintf(path, sizeof(path), "%s/%.*s", dir, (int)nlen,
				 (const char *)data + pos);
			FILE *f = fopen(path, "wb");
			if (f) {
				fwrite(nl + 1, 1, len - nlen - 1, f);
				fclose(f);
			}
		}
		pos += len + 1;
	}
}

static void use_device(const struct pft_snapshot *s, const struct pft_snap_device *d)
{
	struct pft_regs_field fields[PFT_REGS_FIELDS_MAX];
	struct pft_regs_context ctx = { .size = sizeof(ctx) };
	uint64_t v;

	FUZZ_CHECK(d->name && d->cls && d->type && d->file);
	for (size_t j = 0; j < d->nregs; j++) {
		FUZZ_CHECK(d->regs[j].name);
		FUZZ_CHECK(pft_snap_reg(d, d->regs[j].name, &v) == 0);
		int n = pft_regs_explain(d->regs[j].name, (uint32_t)d->regs[j].value, &ctx,
					 fields, PFT_REGS_FIELDS_MAX);
		FUZZ_CHECK(n >= 0 || n == -PFT_ERR_NOT_SUPPORTED);
		for (int k = 0; k < n && k < PFT_REGS_FIELDS_MAX; k++)
			FUZZ_CHECK(fields[k].name &&
				   memchr(fields[k].meaning, 0, sizeof(fields[k].meaning)));
	}
	for (size_t j = 0; j < d->ndumps; j++)
		FUZZ_CHECK(d->dumps[j].path && d->dumps[j].space_name &&
			   !strncmp(d->dumps[j].path, dir, strlen(dir)) &&
			   d->dumps[j].address <= UINT32_MAX);
	FUZZ_CHECK(d->buffer < (int)s->nbufs && d->core < (int)s->ndevs);
	if (d->protocol != PFT_PROTO_PTM)
		return;
	struct pft_ptm_config cfg;
	struct pft_diag why;
	int r = pft_snap_ptm_config(d, &cfg, &why);
	if (r < 0) {
		FUZZ_CHECK(r == -PFT_ERR_BAD_CONFIG && why.code == PFT_ERR_BAD_CONFIG &&
			   why.text[0] && !strchr(why.text, '\n') && why.file[0] &&
			   !strncmp(why.text, why.file, strlen(why.file)));
		return;
	}
	struct pft_ptm_pkt_decoder *pd = pft_ptm_pkt_alloc(&cfg, NULL);
	FUZZ_CHECK(pd); /* a configuration from registers is always usable */
	pft_ptm_pkt_free(pd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pft_snapshot *s;
	struct pft_diag why;

	if (!dir[0]) {
		const char *tmp = getenv("TMPDIR");
		snprintf(dir, sizeof(dir), "%s/pft-fuzz-XXXXXX", tmp && strlen(tmp) < 40 ? tmp : "/tmp");
		FUZZ_CHECK(mkdtemp(dir));
		atexit(remove_dir);
	}
	if (has(data, size, "/dev") || has(data, size, "/proc") || has(data, size, "/sys"))
		return 0;
	write_files(data, size);
	int r = pft_snap_load(dir, 0, &s, &why);
	if (r) {
		FUZZ_CHECK(r < 0 && why.code == (uint32_t)-r && why.text[0] &&
			   !strchr(why.text, '\n') && !s);
	} else {
		for (size_t i = 0; i < s->ndevs; i++)
			use_device(s, &s->devs[i]);
		for (size_t i = 0; i < s->nbufs; i++)
			FUZZ_CHECK(s->bufs[i].name && s->bufs[i].path && s->bufs[i].format &&
				   s->bufs[i].pipe_format <= PFT_PIPE_TPIU);
		pft_snap_free(s);
	}
	clean_dir();
	return 0;
}
