/* test_input_perf - perf.data as a pft_input (pft.h, perf section):
 * argument and file errors, and a file of the writer's (one PTM, raw
 * trace) read back as one source with its CPU, trace ID and bytes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pft.h"
#include "ptunit.h"
#include "input_error.h"

static char dir[] = "/tmp/test_input_perf.XXXXXX";

static struct pft_input *packets_input(void)
{
	struct pft_input_config ic = { .size = sizeof(ic), .packets = 1, .id = -1 };

	return pft_input_alloc(&ic, NULL);
}

static void bad_arguments(void)
{
	struct pft_input_perf_config pc = { .size = sizeof(pc) };
	struct pft_input_perf_mmap m;
	struct pft_input *in = packets_input();

	PTU_CHECK(in != NULL);
	PTU_EQ(pft_input_open_perf(NULL, "x", &pc), -PFT_ERR_INVALID);
	PTU_EQ(pft_input_open_perf(in, NULL, &pc), -PFT_ERR_INVALID);
	PTU_EQ(pft_input_open_perf(in, "x", NULL), -PFT_ERR_INVALID);
	pc.size = 0;
	PTU_EQ(pft_input_open_perf(in, "x", &pc), -PFT_ERR_INVALID);
	/* Not a perf.data input. */
	PTU_EQ(pft_input_perf_mmap(in, 0, &m, sizeof(m)), -PFT_ERR_INVALID);
	PTU_EQ(pft_input_perf_mmap(NULL, 0, &m, sizeof(m)), -PFT_ERR_INVALID);
	pft_input_free(in);
}

static void missing_file(void)
{
	struct pft_input_perf_config pc = { .size = sizeof(pc) };
	struct pft_input *in = packets_input();
	char path[64];

	snprintf(path, sizeof(path), "%s/none.data", dir);
	PTU_EQ(pft_input_open_perf(in, path, &pc), -PFT_ERR_BAD_FILE);
	PTU_CHECK(strstr(input_error(in), path) != NULL);
	/* Once opened (even in vain), nothing else opens. */
	PTU_EQ(pft_input_open_perf(in, path, &pc), -PFT_ERR_INVALID);
	PTU_EQ(pft_input_open_file(in, path, PFT_PIPE_RAW), -PFT_ERR_INVALID);
	struct pft_item item;
	PTU_EQ(pft_input_next(in, &item, sizeof(item)), -PFT_ERR_INVALID);
	pft_input_free(in);
}

static void writer_file(void)
{
	static const uint8_t async[6] = { 0, 0, 0, 0, 0, 0x80 };
	struct pft_perf_write_config wc = { .size = sizeof(wc), .etmcr = 0, .etmtraceidr = 0x2b,
					    .etmccer = 0x34c01ac2, .etmidr = 0x411cf312,
					    .pid = 5, .tid = 5, .cpu = 3, .raw = 1 };
	struct pft_input_perf_config pc = { .size = sizeof(pc) };
	struct pft_input_perf_mmap m;
	struct pft_input_source s;
	struct pft_item item;
	char path[64];
	int err, n = 0;

	snprintf(path, sizeof(path), "%s/w.data", dir);
	struct pft_perf_writer *w = pft_perf_write_alloc(path, &wc, &err);
	PTU_CHECK(w != NULL);
	if (!w)
		return;
	PTU_EQ(pft_perf_write_mmap(w, 0x8000, 0x1000, 0, "/nonexistent/prog"), 0);
	PTU_EQ(pft_perf_write_trace(w, async, sizeof(async)), 0);
	PTU_EQ(pft_perf_write_finish(w), 0);
	pft_perf_write_free(w);

	struct pft_input *in = packets_input();
	PTU_EQ(pft_input_open_perf(in, path, &pc), 0);
	PTU_EQ(pft_input_nsources(in), 1);
	while ((err = pft_input_next(in, &item, sizeof(item))) == 0) {
		PTU_EQ(item.source, 0);
		n++;
	}
	PTU_EQ(err, -PFT_ERR_EOS);
	PTU_EQ(n, 1);                        /* the A-sync */
	PTU_EQ(item.type, PFT_ITEM_PACKET);
	PTU_EQ(pft_input_source(in, 0, &s, sizeof(s)), 0);
	PTU_EQ(s.cpu, 3);
	PTU_EQ(s.id, 0x2b);
	PTU_EQ(s.protocol, PFT_PROTO_PTM);
	PTU_EQ(s.decoded, 1);
	/* The buffer is padded to 8 bytes; the AUX record says 6. */
	PTU_EQ(s.stats.bytes, 6);
	/* Packets only: the mappings are listed, no file is looked for. */
	PTU_EQ(pft_input_perf_mmap(in, 0, &m, sizeof(m)), 0);
	PTU_EQ(m.addr, 0x8000);
	PTU_STREQ(m.filename, "/nonexistent/prog");
	PTU_CHECK(m.found == NULL);
	PTU_EQ(pft_input_perf_mmap(in, 1, &m, sizeof(m)), -PFT_ERR_EOS);
	pft_input_free(in);

	/* --id of another trace ID: nothing to decode. */
	struct pft_input_config ic = { .size = sizeof(ic), .packets = 1, .id = 0x10 };
	in = pft_input_alloc(&ic, NULL);
	PTU_EQ(pft_input_open_perf(in, path, &pc), -PFT_ERR_NO_SOURCE);
	PTU_CHECK(strstr(input_error(in), "0x10") != NULL);
	pft_input_free(in);
	unlink(path);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		fprintf(stderr, "mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	PTU_RUN(bad_arguments);
	PTU_RUN(missing_file);
	PTU_RUN(writer_file);
	rmdir(dir);
	PTU_MAIN_END();
}
