/*
 * ocsd_count: the whole-process OpenCSD baseline for `pft dump --count` and
 * `pft decode --count` (bench/count.sh).  It reads a raw PFT stream or a
 * CoreSight frame-formatted buffer from a file in 1 MB blocks, runs
 * OpenCSD's PTM packet processor or full decoder over it through the C API,
 * and prints the packets or the instructions (and ranges) it counted.
 *
 *   ocsd_count [--decode] [--formatted] [--etmcr V] [--traceid ID]
 *              [--mem ADDR FILE]... TRACE
 *
 * The PTM's other registers are the TC2 Cortex-A15's (as in the other
 * benchmarks; bench/make-large-trace.sh traces with them).  --mem loads a
 * memory dump at ADDR for --decode (any number).  Exit 0, or 2 on errors.
 */
#include "bench_ocsd.h"

enum { BLOCK = 1 << 20, MEM_MAX = 16 };

static void usage(void)
{
	fprintf(stderr, "usage: ocsd_count [--decode] [--formatted] [--etmcr V] [--traceid ID] "
			"[--mem ADDR FILE]... TRACE\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int decode = 0, formatted = 0, nmem = 0;
	uint32_t etmcr = TC2_ETMCR, traceid = 0x13;
	const char *trace = NULL, *mem_path[MEM_MAX];
	uint64_t mem_addr[MEM_MAX];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--decode"))
			decode = 1;
		else if (!strcmp(argv[i], "--formatted"))
			formatted = 1;
		else if (!strcmp(argv[i], "--etmcr") && i + 1 < argc)
			etmcr = (uint32_t)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--traceid") && i + 1 < argc)
			traceid = (uint32_t)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--mem") && i + 2 < argc && nmem < MEM_MAX) {
			mem_addr[nmem] = strtoull(argv[++i], NULL, 0);
			mem_path[nmem++] = argv[++i];
		} else if (argv[i][0] != '-' && !trace)
			trace = argv[i];
		else
			usage();
	}
	if (!trace)
		usage();

	struct pft_ptm_config cfg;
	pft_ptm_config_init(&cfg);
	pft_ptm_config_from_regs(&cfg, etmcr, 0x34C01AC2, 0x411CF312, traceid);
	unsigned char csid;
	struct counts c = { 0, 0 };
	uint64_t packets = 0;
	dcd_tree_handle_t t = ocsd_tree_of(&cfg, decode ? OCSD_CREATE_FLG_FULL_DECODER
						 : OCSD_CREATE_FLG_PACKET_PROC,
					   formatted, &csid);
	ocsd_err_t err = decode ? ocsd_dt_set_gen_elem_outfn(t, count_elem, &c)
				: ocsd_dt_attach_packet_callback(t, csid, OCSD_C_API_CB_PKT_SINK,
								 (void *)count_pkt, &packets);
	for (int i = 0; i < nmem && err == OCSD_OK; i++) {
		size_t len;
		uint8_t *bytes = read_file(mem_path[i], &len);
		if (!bytes) {
			fprintf(stderr, "ocsd_count: cannot read %s\n", mem_path[i]);
			return 2;
		}
		/* Kept until the tree is gone: OpenCSD reads it in place. */
		err = ocsd_dt_add_buffer_mem_acc(t, mem_addr[i], OCSD_MEM_SPACE_ANY, bytes,
						 (uint32_t)len);
	}
	if (err != OCSD_OK) {
		fprintf(stderr, "ocsd_count: cannot set up OpenCSD (%d)\n", (int)err);
		return 2;
	}

	FILE *f = fopen(trace, "rb");
	uint8_t *block = malloc(BLOCK);
	uint64_t index = 0;
	size_t got;
	if (!f || !block) {
		fprintf(stderr, "ocsd_count: cannot read %s\n", trace);
		return 2;
	}
	while ((got = fread(block, 1, BLOCK, f)) > 0) {
		ocsd_feed(t, block, got, index);
		index += got;
	}
	fclose(f);
	ocsd_dt_process_data(t, OCSD_OP_EOT, 0, 0, NULL, NULL);
	ocsd_destroy_dcd_tree(t);
	if (decode)
		printf("%llu instructions in %llu ranges\n", (unsigned long long)c.insns,
		       (unsigned long long)c.ranges);
	else
		printf("%llu packets\n", (unsigned long long)packets);
	return 0;
}
