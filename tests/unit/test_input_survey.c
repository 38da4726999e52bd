/* test_input_survey - the survey of an input (struct pft_input_config's
 * @survey, what pft info prints): trace files and snapshots read through
 * without decoding, a source per trace ID with bytes, its protocol and PTM
 * configuration (a snapshot's registers, else detected); the same counts
 * and configuration pft_info_* gives for the buffer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pft.h"
#include "ptunit.h"
#include "input_error.h"

static char dir[] = "/tmp/test_input_survey.XXXXXX";
static char shared[2048];

static struct pft_input *survey_input(void)
{
	struct pft_input_config ic = { .size = sizeof(ic), .id = -1, .survey = 1 };

	return pft_input_alloc(&ic, NULL);
}

static const char *write_file(const char *name, const uint8_t *bytes, size_t n)
{
	static char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || (n && fwrite(bytes, 1, n, f) != n))
		abort();
	fclose(f);
	return path;
}

/* Read the input through: -PFT_ERR_EOS, and no item. */
static int read_through(struct pft_input *in)
{
	struct pft_item item;

	return pft_input_next(in, &item, sizeof(item));
}

static void arguments(void)
{
	struct pft_input_config ic = { .size = sizeof(ic), .id = -1 };
	struct pft_ptm_config cfg;
	struct pft_etm3_config cfg3;
	int err = 0;

	/* Neither packets, elements nor a survey. */
	PTU_CHECK(pft_input_alloc(&ic, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	ic.survey = 2;
	PTU_CHECK(pft_input_alloc(&ic, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);

	struct pft_input *in = survey_input();
	PTU_CHECK(in != NULL);
	PTU_EQ(pft_input_nsources(in), 0);
	static const uint8_t byte = 0;
	PTU_EQ(pft_input_open_file(in, write_file("one.bin", &byte, 1), PFT_PIPE_RAW), 0);
	/* The survey finds the sources: none is declared. */
	pft_ptm_config_init(&cfg);
	pft_etm3_config_init(&cfg3);
	PTU_EQ(pft_input_add_ptm(in, -1, &cfg), -PFT_ERR_INVALID);
	PTU_EQ(pft_input_add_detected(in, -1), -PFT_ERR_INVALID);
	PTU_EQ(pft_input_add_etm3(in, -1, &cfg3), -PFT_ERR_INVALID);
	pft_input_free(in);

	/* A file that cannot be read: said at the open. */
	in = survey_input();
	PTU_EQ(pft_input_open_file(in, "/nonexistent/x.bin", PFT_PIPE_RAW), -PFT_ERR_BAD_FILE);
	PTU_STREQ(input_error(in), "/nonexistent/x.bin: No such file or directory");
	pft_input_free(in);
	in = survey_input();
	PTU_EQ(pft_input_open_file(in, dir, PFT_PIPE_FORMATTED), -PFT_ERR_BAD_FILE);
	pft_input_free(in);
}

/* An empty file is no trace: the survey says so as the decode does
 * (pft info, pft decode and pft dump give one verdict), however framed. */
static void empty_file(void)
{
	const char *path = write_file("empty.bin", NULL, 0);
	static const unsigned formats[] = { PFT_PIPE_RAW, PFT_PIPE_FORMATTED, PFT_PIPE_TPIU };

	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		struct pft_input *in = survey_input();
		PTU_EQ(pft_input_open_file(in, path, formats[i]), -PFT_ERR_BAD_FILE);
		PTU_CHECK(strstr(input_error(in), "empty.bin: empty file: no trace") != NULL);
		PTU_EQ(pft_input_nsources(in), 0);
		pft_input_free(in);
	}
}

/* What pft_info says of file @path framed as @framing, in @out. */
static size_t info_of(const char *path, uint8_t framing, struct pft_info_source *out, size_t max)
{
	struct pft_info_config ic = { .size = sizeof(ic), .framing = framing };
	struct pft_info *info = pft_info_alloc(&ic, NULL);
	static uint8_t buf[65536];
	FILE *f = fopen(path, "rb");
	size_t n = 0, k;

	PTU_CHECK(f != NULL && info != NULL);
	if (!f || !info)
		return 0;
	while ((k = fread(buf, 1, sizeof(buf), f)) > 0)
		PTU_EQ(pft_info_feed(info, buf, k), 0);
	fclose(f);
	PTU_EQ(pft_info_finish(info), 0);
	while (n < max && pft_info_source(info, n, &out[n], sizeof(out[n])) == 0)
		n++;
	pft_info_free(info);
	return n;
}

/* TC2's formatted buffer alone: IDs 0x10-0x12 ETMv3, 0x13 a PTM whose
 * configuration is detected; the counts pft_info gives. */
static void tc2_file(void)
{
	char path[4096];
	struct pft_info_source want[8];
	struct pft_input_source src;
	struct pft_input_counts c;
	struct pft_item item;
	struct pft_input *in = survey_input();

	snprintf(path, sizeof(path), "%s/TC2/cstrace.bin", shared);
	size_t n = info_of(path, PFT_FRAMES_UNKNOWN, want, 8);
	PTU_EQ(n, 4);
	PTU_EQ(pft_input_open_file(in, path, PFT_PIPE_FORMATTED), 0);
	/* Counting reads it through alike. */
	PTU_EQ(pft_input_count(in, &item, sizeof(item)), -PFT_ERR_EOS);
	PTU_EQ(pft_input_nsources(in), n);
	for (size_t i = 0; i < n; i++) {
		PTU_EQ(pft_input_source(in, i, &src, sizeof(src)), 0);
		PTU_EQ(src.id, want[i].id);
		PTU_EQ(src.id, 0x10 + (int)i);
		PTU_EQ(src.stats.bytes, want[i].bytes);
		PTU_EQ(src.protocol, i < 3 ? PFT_PROTO_ETMV3 : PFT_PROTO_PTM);
		PTU_EQ(src.detected, i == 3);
		PTU_EQ(src.registers, 0);
		PTU_EQ(src.decoded, 0);
		PTU_STREQ(src.path, path);
		PTU_EQ(pft_input_counts(in, i, &c, sizeof(c)), 0);
		PTU_EQ(c.bytes, want[i].bytes);
	}
	PTU_EQ(pft_input_source(in, 3, &src, sizeof(src)), 0);
	PTU_CHECK(!memcmp(&src.cfg, &want[3].cfg, sizeof(src.cfg)));
	PTU_EQ(src.cfg.cycle_accurate, 1);
	PTU_EQ(src.cfg.timestamps, 1);
	pft_input_free(in);
}

/* The TC2 snapshot: the same sources, 0x13's configuration from
 * device_8.ini's registers (ETMCR 0x10001000: cycle accurate, timestamps);
 * trace_cov_a15's raw buffer: the ID of its device (ETMTRACEIDR 2), the
 * return stack its ETMCR sets (bit 29), which detection cannot see. */
static void snapshots(void)
{
	char path[4096];
	struct pft_info_source want[8];
	struct pft_input_source src;
	struct pft_input *in = survey_input();

	snprintf(path, sizeof(path), "%s/TC2/cstrace.bin", shared);
	size_t n = info_of(path, PFT_FRAMES_MEMORY, want, 8);
	snprintf(path, sizeof(path), "%s/TC2", shared);
	PTU_EQ(pft_input_open_snapshot(in, path), 0);
	PTU_EQ(pft_input_nsources(in), 0);   /* before the read */
	PTU_EQ(read_through(in), -PFT_ERR_EOS);
	PTU_EQ(pft_input_nsources(in), n);
	for (size_t i = 0; i < n; i++) {
		PTU_EQ(pft_input_source(in, i, &src, sizeof(src)), 0);
		PTU_EQ(src.id, want[i].id);
		PTU_EQ(src.stats.bytes, want[i].bytes);
		PTU_EQ(src.registers, src.id == 0x13);
		PTU_EQ(src.detected, 0);
	}
	PTU_EQ(pft_input_source(in, 3, &src, sizeof(src)), 0);
	PTU_EQ(src.protocol, PFT_PROTO_PTM);
	PTU_EQ(src.cfg.cycle_accurate, 1);
	PTU_EQ(src.cfg.timestamps, 1);
	PTU_EQ(src.cfg.trace_id, 0x13);
	pft_input_free(in);

	in = survey_input();
	snprintf(path, sizeof(path), "%s/trace_cov_a15", shared);
	PTU_EQ(pft_input_open_snapshot(in, path), 0);
	PTU_EQ(read_through(in), -PFT_ERR_EOS);
	PTU_EQ(pft_input_nsources(in), 1);
	PTU_EQ(pft_input_source(in, 0, &src, sizeof(src)), 0);
	PTU_EQ(src.id, 2);
	PTU_EQ(src.stats.bytes, 36);
	PTU_EQ(src.protocol, PFT_PROTO_PTM);
	PTU_EQ(src.registers, 1);
	PTU_EQ(src.cfg.return_stack, 1);
	pft_input_free(in);

	in = survey_input();
	PTU_CHECK(pft_input_open_snapshot(in, dir) < 0);
	PTU_CHECK(*input_error(in) != 0);
	pft_input_free(in);
}

int main(void)
{
	static const char *const files[] = { "one.bin", "empty.bin" };
	const char *s = getenv("PFT_SHARED");

	snprintf(shared, sizeof(shared), "%s/testdata/opencsd-snapshots", s ? s : "../shared");
	if (!mkdtemp(dir))
		return 1;
	PTU_RUN(arguments);
	PTU_RUN(empty_file);
	PTU_RUN(tc2_file);
	PTU_RUN(snapshots);
	ptu_remove_dir(dir, files, sizeof(files) / sizeof(files[0]));
	PTU_MAIN_END();
}
