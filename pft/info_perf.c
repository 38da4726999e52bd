/* pft info --perf: the trace units of a perf.data file (one line per CPU
 * and queue: trace ID, bytes, protocol, and the options its registers
 * give), and its mapped files. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "info_perf.h"
#include "pft.h"

static void print_unit(int format, const struct pft_input_source *s)
{
	char opts[256] = "";

	if (s->protocol == PFT_PROTO_PTM && pft_config_options(&s->cfg, opts, sizeof(opts)) < 0)
		opts[0] = 0;
	if (format == FMT_JSONL) {
		printf("{\"source\":\"%s\",\"cpu\":%d,", s->name, s->cpu);
		if (s->id >= 0)
			printf("\"id\":%d,", s->id);
		printf("\"bytes\":%" PRIu64 ",\"protocol\":\"%s\"", s->stats.bytes,
		       pft_protocol_name(s->protocol));
		if (s->protocol == PFT_PROTO_PTM)
			printf(",\"options\":\"%s\"", opts);
		printf("}\n");
		return;
	}
	printf("%s: ", s->name);
	if (s->id >= 0)
		printf("id 0x%02x: ", s->id);
	printf("%" PRIu64 " bytes, %s", s->stats.bytes, pft_protocol_name(s->protocol));
	if (s->protocol == PFT_PROTO_PTM)
		printf(", options: %s (registers)", *opts ? opts : "(none)");
	if (!s->decoded)
		printf(" (not decoded)");
	printf("\n");
}

int info_perf(const char *path, int format)
{
	struct pft_input_config ic = { .size = sizeof(ic), .packets = 1, .id = -1 };
	struct pft_input_perf_config pc = { .size = sizeof(pc) };
	struct pft_input_source s;
	struct pft_item item;
	int err, rc = EXIT_OK;
	struct pft_input *in = pft_input_alloc(&ic, &err);

	if (!in) {
		cli_error("%s", pft_errstr(pft_errcode(err)));
		return EXIT_USAGE;
	}
	err = pft_input_open_perf(in, path, &pc);
	/* The byte counts come from reading the trace through. */
	while (err >= 0 && (err = pft_input_next(in, &item, sizeof(item))) == 0)
		;
	if (err != -PFT_ERR_EOS) {
		cli_error("%s", pft_input_message(in));
		pft_input_free(in);
		return EXIT_USAGE;
	}
	for (size_t i = 0; pft_input_source(in, i, &s, sizeof(s)) == 0; i++)
		print_unit(format, &s);
	pft_input_free(in);
	return rc;
}
