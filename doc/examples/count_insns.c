/*
 * count_insns - count the instructions each PTM source of a trace buffer
 * executed, feeding the buffer to a libpft pipeline with its own read loop
 * (as a program does with bytes it gets elsewhere, such as perf AUX data).
 *
 *   cc count_insns.c $(pkg-config --cflags --libs libpft) -o count_insns
 *   ./count_insns raw|formatted|tpiu TRACE ARGS...
 *
 * Each ARG is a program image, FILE@ADDR (a memory dump whose first byte is
 * at ADDR), or a PTM source, ETMCR:ETMCCER:ETMIDR:ETMTRACEIDR (its register
 * values; ETMTRACEIDR is the trace ID).  Output, one line per source:
 *   id=0x13 insns=9548 ranges=1554
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pft.h>

#define MAX_SOURCES 16

struct count {
	int id;
	uint64_t insns, ranges;
};

static int fail(const char *what, int rc)
{
	fprintf(stderr, "count_insns: %s: %s\n", what, pft_errstr(pft_errcode(rc)));
	return 2;
}

/* Pull items until the pipeline wants more input (or has ended). */
static int drain(struct pft_pipe *pipe, struct count *counts)
{
	struct pft_item item;
	int rc;

	while ((rc = pft_pipe_next(pipe, &item, sizeof item)) == 0) {
		if (item.type == PFT_ITEM_ELEM && item.elem->type == PFT_ELEM_RANGE) {
			counts[item.source].insns += item.elem->ninsn;
			counts[item.source].ranges++;
		}
	}
	return rc;
}

int main(int argc, char **argv)
{
	static const char *const formats[] = { "raw", "formatted", "tpiu" };
	struct pft_pipe_config pcfg = { .size = sizeof pcfg, .elements = 1 };
	struct count counts[MAX_SOURCES];
	struct pft_image *image = NULL;
	struct pft_pipe *pipe = NULL;
	uint8_t buf[4096];
	FILE *trace = NULL;
	size_t n;
	int rc, nsrc = 0, status = 2;

	if (argc < 4) {
		fprintf(stderr, "usage: %s raw|formatted|tpiu TRACE FILE@ADDR|ETMCR:ETMCCER:ETMIDR:ETMTRACEIDR...\n",
			argv[0]);
		return 2;
	}
	for (pcfg.format = 0; pcfg.format < 3; pcfg.format++)
		if (!strcmp(argv[1], formats[pcfg.format]))
			break;
	if (pcfg.format == 3)
		return fail(argv[1], -PFT_ERR_INVALID);
	image = pft_image_alloc(&rc);
	if (image)
		pipe = pft_pipe_alloc(&pcfg, &rc);
	if (!pipe) {
		status = fail("setup", rc);
		goto out;
	}

	/* Images and sources, before the first byte is fed. */
	for (int i = 3; i < argc; i++) {
		char *at = strchr(argv[i], '@');
		uint32_t r[4];

		if (at) {
			*at = '\0';
			rc = pft_image_add_file(image, argv[i], 0, 0, strtoul(at + 1, NULL, 0),
						PFT_SPACE_ANY);
		} else if (nsrc < MAX_SOURCES &&
			   sscanf(argv[i], "%" SCNx32 ":%" SCNx32 ":%" SCNx32 ":%" SCNx32,
				  &r[0], &r[1], &r[2], &r[3]) == 4) {
			struct pft_ptm_config cfg;

			pft_ptm_config_init(&cfg);
			rc = pft_ptm_config_from_regs(&cfg, r[0], r[1], r[2], r[3]);
			if (rc == 0)
				rc = pft_pipe_add_ptm(pipe, cfg.trace_id, &cfg, image);
			if (rc >= 0)
				counts[nsrc++] = (struct count){ .id = cfg.trace_id };
		} else {
			rc = -PFT_ERR_INVALID;
		}
		if (rc < 0) {
			status = fail(argv[i], rc);
			goto out;
		}
	}

	trace = fopen(argv[2], "rb");
	if (!trace) {
		status = fail(argv[2], -PFT_ERR_BAD_FILE);
		goto out;
	}
	/* The pipeline borrows each buffer until it asks for more, so one
	 * buffer is refilled after every drain: memory stays constant. */
	while ((n = fread(buf, 1, sizeof buf, trace)) > 0) {
		rc = pft_pipe_feed(pipe, buf, n);
		if (rc == 0)
			rc = drain(pipe, counts);
		if (rc != -PFT_ERR_NEED_INPUT) {
			status = fail("decode", rc);
			goto out;
		}
	}
	if (ferror(trace)) {
		status = fail(argv[2], -PFT_ERR_BAD_FILE);
		goto out;
	}
	rc = pft_pipe_finish(pipe);
	if (rc == 0)
		rc = drain(pipe, counts);
	if (rc != -PFT_ERR_EOS) {
		status = fail("decode", rc);
		goto out;
	}
	for (int s = 0; s < nsrc; s++)
		printf("id=0x%x insns=%" PRIu64 " ranges=%" PRIu64 "\n", (unsigned)counts[s].id,
		       counts[s].insns, counts[s].ranges);
	status = 0;
out:
	if (trace)
		fclose(trace);
	pft_pipe_free(pipe);    /* before the image it reads from */
	pft_image_free(image);
	return status;
}
