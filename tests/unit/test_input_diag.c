/* test_input_diag - why a call failed, as data (struct pft_diag): the code, the
 * file at fault with its line or byte offset, and a text that starts with
 * the same place; notes and the last failure of an input through
 * pft_input_diag(); codes with one meaning each. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pft.h"
#include "ptunit.h"

static char dir[] = "/tmp/test_input_diag.XXXXXX";
static const char *const files[] = { "snapshot.ini", "dev.ini", "trace.ini", "a.bin",
				     "b.bin", "perf.data", "sub" };

static const char *path_of(const char *name)
{
	static char path[4][256];
	static int next;
	char *p = path[next++ % 4];

	snprintf(p, sizeof(path[0]), "%s/%s", dir, name);
	return p;
}

static void write_file(const char *name, const void *bytes, size_t n)
{
	FILE *f = fopen(path_of(name), "wb");

	if (!f || (n && fwrite(bytes, 1, n, f) != n))
		abort();
	fclose(f);
}

static void write_text(const char *name, const char *text)
{
	write_file(name, text, strlen(text));
}

/* A diagnostic's text starts with its place: "FILE:LINE: ", "FILE:
 * offset 0xN: " or "FILE: ". */
static int text_names_place(const struct pft_diag *d)
{
	char place[PFT_DIAG_FILE_MAX + 64];

	if (d->line)
		snprintf(place, sizeof(place), "%s:%u: ", d->file, d->line);
	else if (d->offset != PFT_DIAG_NO_OFFSET)
		snprintf(place, sizeof(place), "%s: offset 0x%" PRIx64 ": ", d->file, d->offset);
	else
		snprintf(place, sizeof(place), "%s: ", d->file);
	return !strncmp(d->text, place, strlen(place));
}

static void snapshot_line(void)
{
	struct pft_snapshot *s = NULL;
	struct pft_diag d;

	write_text("snapshot.ini", "[snapshot]\nversion=1.0\n[device_list\n");
	PTU_EQ(pft_snap_load(dir, 0, &s, &d), -PFT_ERR_BAD_FILE);
	PTU_CHECK(s == NULL);
	PTU_EQ(d.code, PFT_ERR_BAD_FILE);
	PTU_EQ(d.severity, PFT_DIAG_ERROR);
	PTU_STREQ(d.file, path_of("snapshot.ini"));
	PTU_EQ(d.line, 3);
	PTU_EQ(d.offset, PFT_DIAG_NO_OFFSET);
	PTU_CHECK(text_names_place(&d));
	PTU_CHECK(strstr(d.text, "malformed section header") != NULL);
	/* No diag: the code alone. */
	PTU_EQ(pft_snap_load(dir, 0, &s, NULL), -PFT_ERR_BAD_FILE);
}

/* A [dump] section without file=: the device's file and the section's line. */
static void snapshot_section(void)
{
	struct pft_snapshot *s = NULL;
	struct pft_diag d;

	write_text("snapshot.ini", "[snapshot]\nversion=1.0\n[device_list]\ndevice0=dev.ini\n"
				   "[trace]\nmetadata=trace.ini\n");
	write_text("trace.ini", "[trace_buffers]\nbuffers=\n");
	write_text("dev.ini", "[device]\nname=cpu_0\nclass=core\ntype=Cortex-A9\n\n"
			      "[dump]\naddress=0x8000\n");
	PTU_EQ(pft_snap_load(dir, 0, &s, &d), -PFT_ERR_BAD_FILE);
	PTU_EQ(d.code, PFT_ERR_BAD_FILE);
	PTU_CHECK(strstr(d.file, "dev.ini") != NULL);
	PTU_EQ(d.line, 6);
	PTU_CHECK(text_names_place(&d));
	PTU_CHECK(strstr(d.text, "[dump] needs file=") != NULL);

	/* Loaded: a register the device does not have is not found. */
	write_text("dev.ini", "[device]\nname=cpu_0\nclass=core\ntype=Cortex-A9\n"
			      "[regs]\nETMCR=0x1000\n");
	PTU_EQ(pft_snap_load(dir, 0, &s, &d), 0);
	if (!s)
		return;
	uint64_t v = 0;
	PTU_EQ(pft_snap_reg(&s->devs[0], "ETMCR", &v), 0);
	PTU_EQ(v, 0x1000);
	PTU_EQ(pft_snap_reg(&s->devs[0], "ETMCCER", &v), -PFT_ERR_NOT_FOUND);
	/* Not a PTM's registers: the device's file, no line. */
	struct pft_ptm_config cfg;
	PTU_EQ(pft_snap_ptm_config(&s->devs[0], &cfg, &d), -PFT_ERR_BAD_CONFIG);
	PTU_EQ(d.code, PFT_ERR_BAD_CONFIG);
	PTU_CHECK(strstr(d.file, "dev.ini") != NULL);
	PTU_EQ(d.line, 0);
	PTU_CHECK(text_names_place(&d));
	pft_snap_free(s);
}

static void image_overlap(void)
{
	uint8_t code[64] = { 0 }, other[16];
	struct pft_diag d;
	struct pft_image *img = pft_image_alloc(NULL);
	size_t idx;
	uint32_t at;

	PTU_CHECK(img != NULL);
	if (!img)
		return;
	write_file("a.bin", code, sizeof(code));
	memset(other, 0xee, sizeof(other));
	write_file("b.bin", other, sizeof(other));
	write_file("c.bin", code, 16);
	PTU_EQ(pft_image_conflict(img, &idx, &at), -PFT_ERR_NOT_FOUND);
	PTU_EQ(pft_input_load_image(img, path_of("a.bin"), PFT_INPUT_IMAGE_RAW, 0x1000, &d), 0);
	/* The same bytes again: the same image, no overlap. */
	PTU_EQ(pft_input_load_image(img, path_of("c.bin"), PFT_INPUT_IMAGE_RAW, 0x1020, &d), 0);
	PTU_EQ(pft_input_load_image(img, path_of("b.bin"), PFT_INPUT_IMAGE_RAW, 0x1020, &d),
	       -PFT_ERR_BAD_CONFIG);
	PTU_EQ(d.code, PFT_ERR_BAD_CONFIG);
	PTU_CHECK(strstr(d.text, "overlaps") != NULL);
	PTU_CHECK(strstr(d.text, "(at 0x00001020)") != NULL);
	PTU_EQ(pft_image_conflict(img, &idx, &at), 0);
	PTU_EQ(at, 0x1020);
	/* A directory is no image: the file, no place in it. */
	PTU_EQ(pft_input_load_image(img, dir, PFT_INPUT_IMAGE_ELF, 0, &d), -PFT_ERR_BAD_FILE);
	PTU_STREQ(d.file, dir);
	PTU_EQ(d.line, 0);
	PTU_EQ(d.offset, PFT_DIAG_NO_OFFSET);
	PTU_CHECK(text_names_place(&d));
	pft_image_free(img);
}

/* pft_input_diag(): nothing before a failure, then the failure, once. */
static void input_failure(void)
{
	struct pft_input_config ic = { .size = sizeof(ic), .elements = 1, .id = -1 };
	struct pft_input *in = pft_input_alloc(&ic, NULL);
	struct pft_diag d;

	PTU_CHECK(in != NULL);
	if (!in)
		return;
	PTU_EQ(pft_input_diag(in, 0, &d), -PFT_ERR_EOS);
	PTU_EQ(pft_input_diag(NULL, 0, &d), -PFT_ERR_INVALID);
	PTU_EQ(pft_input_diag(in, 0, NULL), -PFT_ERR_INVALID);
	PTU_EQ(pft_input_open_file(in, dir, PFT_PIPE_RAW), -PFT_ERR_BAD_FILE);
	PTU_EQ(pft_input_diag(in, 0, &d), 0);
	PTU_EQ(d.severity, PFT_DIAG_ERROR);
	PTU_EQ(d.code, PFT_ERR_BAD_FILE);
	PTU_STREQ(d.file, dir);
	PTU_CHECK(text_names_place(&d));
	PTU_CHECK(strstr(d.text, "is a directory") != NULL);
	PTU_EQ(pft_input_diag(in, 1, &d), -PFT_ERR_EOS);
	pft_input_free(in);
}

/* A malformed perf.data: the byte offset where it goes wrong. */
static void input_offset(void)
{
	struct pft_input_config ic = { .size = sizeof(ic), .elements = 1, .id = -1 };
	struct pft_input_perf_config pc = { .size = sizeof(pc) };
	struct pft_input *in = pft_input_alloc(&ic, NULL);
	uint8_t bytes[128] = "PERFILE2";
	struct pft_diag d;

	PTU_CHECK(in != NULL);
	if (!in)
		return;
	/* A header that says it is 104 bytes, attrs and data past the end. */
	bytes[8] = 104;
	bytes[40] = 200;
	bytes[48] = 16;
	write_file("perf.data", bytes, sizeof(bytes));
	int err = pft_input_open_perf(in, path_of("perf.data"), &pc);
	PTU_CHECK(err < 0);
	PTU_EQ(pft_input_diag(in, 0, &d), 0);
	PTU_EQ(d.code, pft_errcode(err));
	PTU_STREQ(d.file, path_of("perf.data"));
	PTU_CHECK(d.offset != PFT_DIAG_NO_OFFSET);
	PTU_CHECK(text_names_place(&d));
	if (getenv("PFT_TEST_VERBOSE"))
		printf("%s (offset %" PRIu64 ")\n", d.text, d.offset);
	pft_input_free(in);
}

/* Progress: pft_input_progress() and its callback say how far reading
 * has got, never backwards, up to the file's size; serial and parallel. */
struct progress_seen {
	uint64_t calls, last, total;
	int backwards;
};

static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct progress_seen *p = ctx;

	p->backwards |= done < p->last || done > total;
	p->last = done;
	p->total = total;
	p->calls++;
}

static void progress(void)
{
	/* A-syncs (5 zeros and 0x80): packets whatever the configuration. */
	static uint8_t bytes[6 * 100000];
	for (size_t i = 0; i < sizeof(bytes); i += 6) {
		memset(bytes + i, 0, 5);
		bytes[i + 5] = 0x80;
	}
	write_file("a.bin", bytes, sizeof(bytes));
	for (unsigned threads = 1; threads <= 2; threads++) {
		struct pft_input_config ic = { .size = sizeof(ic), .packets = 1, .id = -1,
					       .threads = threads, .piece_size = 65536 };
		struct pft_input *in = pft_input_alloc(&ic, NULL);
		struct pft_ptm_config cfg;
		struct progress_seen seen = { 0 };
		struct pft_item item;
		uint64_t done = 1, total = 1;
		int r;

		pft_ptm_config_init(&cfg);
		PTU_EQ(pft_input_open_file(in, path_of("a.bin"), PFT_PIPE_RAW), 0);
		PTU_EQ(pft_input_add_ptm(in, -1, &cfg), 0);
		PTU_EQ(pft_input_set_progress(in, on_progress, &seen), 0);
		PTU_EQ(pft_input_progress(in, &done, &total), 0);
		PTU_EQ(done, 0);
		PTU_EQ(total, sizeof(bytes));
		while ((r = pft_input_next(in, &item, sizeof(item))) == 0)
			;
		PTU_EQ(r, -PFT_ERR_EOS);
		PTU_CHECK(seen.calls >= 2 && !seen.backwards);
		PTU_EQ(seen.total, sizeof(bytes));
		PTU_EQ(pft_input_progress(in, &done, &total), 0);
		PTU_EQ(done, sizeof(bytes));
		PTU_EQ(total, sizeof(bytes));
		PTU_EQ(pft_input_progress(NULL, &done, &total), -PFT_ERR_INVALID);
		PTU_EQ(pft_input_progress(in, NULL, &total), -PFT_ERR_INVALID);
		PTU_EQ(pft_input_progress(in, &done, NULL), -PFT_ERR_INVALID);
		PTU_EQ(pft_input_set_progress(NULL, on_progress, &seen), -PFT_ERR_INVALID);
		pft_input_free(in);
	}
}

/* The text is cut to fit, never overrun; the file name too. */
static void long_names(void)
{
	char name[3000];
	struct pft_image *img = pft_image_alloc(NULL);
	struct pft_diag d;

	memset(name, 'x', sizeof(name) - 1);
	name[0] = '/';
	name[sizeof(name) - 1] = 0;
	PTU_EQ(pft_input_load_image(img, name, PFT_INPUT_IMAGE_RAW, 0, &d), -PFT_ERR_BAD_FILE);
	PTU_EQ(strlen(d.file), PFT_DIAG_FILE_MAX - 1);
	PTU_EQ(strlen(d.text), PFT_DIAG_TEXT_MAX - 1);
	pft_image_free(img);
}

/* A name with a newline and an escape sequence: the text stays one line
 * a terminal cannot be driven by; the file keeps the name as it is. */
static void hostile_names(void)
{
	struct pft_image *img = pft_image_alloc(NULL);
	struct pft_diag d;
	const char *name = "/nonexistent/a\nb\x1b[2Jc\\d";

	PTU_EQ(pft_input_load_image(img, name, PFT_INPUT_IMAGE_RAW, 0, &d), -PFT_ERR_BAD_FILE);
	PTU_STREQ(d.file, name);
	PTU_CHECK(!strchr(d.text, '\n') && !strchr(d.text, '\x1b'));
	const char *want = "/nonexistent/a\\x0ab\\x1b[2Jc\\d: ";
	PTU_CHECK(!strncmp(d.text, want, strlen(want)));
	pft_image_free(img);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	PTU_RUN(snapshot_line);
	PTU_RUN(snapshot_section);
	PTU_RUN(image_overlap);
	PTU_RUN(input_failure);
	PTU_RUN(input_offset);
	PTU_RUN(long_names);
	PTU_RUN(hostile_names);
	PTU_RUN(progress);
	ptu_remove_dir(dir, files, sizeof(files) / sizeof(files[0]));
	PTU_MAIN_END();
}
