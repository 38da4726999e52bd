/*
 * bench_flow: full decode (packets + program flow against the memory
 * image) of libpft against OpenCSD's PTM decoder, same input, same run.
 *
 * Input: the real TC2 Cortex-A15 trace (ID 0x13, cycle-accurate) repeated to
 * at least --mb megabytes, with the TC2 kernel dump as the memory image
 * (0xC0008000, 320 KB) for both decoders.  Or --raw FILE --image FILE@ADDR:
 * a raw PFT stream and its program's memory (bench/make-large-trace.sh
 * prints the command), with the ETMCR given by --etmcr (default TC2's).
 * Neither prints; each counts instruction ranges and instructions.  Best
 * of --runs runs.
 */
#include "bench_ocsd.h"

struct memory {
	const uint8_t *bytes;
	size_t len;
	uint32_t addr;
};

static struct counts run_pft(const struct pft_ptm_config *cfg, const uint8_t *buf, size_t len,
			     const struct memory *mem)
{
	struct pft_image *img = pft_image_alloc(NULL);
	pft_image_add_buffer(img, mem->addr, mem->bytes, mem->len, PFT_SPACE_ANY, 0);
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(cfg, NULL);
	struct pft_ptm_flow *f = pft_ptm_flow_alloc(cfg, img, NULL);
	struct pft_ptm_packet pkt;
	struct pft_elem e;
	struct counts c = { 0, 0 };

	pft_ptm_pkt_feed(d, buf, len);
	pft_ptm_pkt_finish(d);
	while (pft_ptm_pkt_next(d, &pkt, sizeof(pkt)) != -PFT_ERR_EOS) {
		pft_ptm_flow_put(f, &pkt, sizeof(pkt));
		while (pft_ptm_flow_next(f, &e, sizeof(e)) == 0) {
			if (e.type == PFT_ELEM_RANGE) {
				c.ranges++;
				c.insns += e.ninsn;
			}
		}
	}
	pft_ptm_flow_free(f);
	pft_ptm_pkt_free(d);
	pft_image_free(img);
	return c;
}

/* The batch path: pft_ptm_pkt_next_batch() into pft_ptm_flow_decode(). */
static struct counts run_pft_batch(const struct pft_ptm_config *cfg, const uint8_t *buf, size_t len,
				   const struct memory *mem)
{
	enum { BATCH = 64 };
	struct pft_image *img = pft_image_alloc(NULL);
	pft_image_add_buffer(img, mem->addr, mem->bytes, mem->len, PFT_SPACE_ANY, 0);
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(cfg, NULL);
	struct pft_ptm_flow *f = pft_ptm_flow_alloc(cfg, img, NULL);
	static struct pft_ptm_packet pkts[BATCH];
	static struct pft_elem elems[BATCH * PFT_FLOW_ELEMS_MAX];
	size_t end[BATCH];
	struct counts c = { 0, 0 };
	int n;

	pft_ptm_pkt_feed(d, buf, len);
	pft_ptm_pkt_finish(d);
	while ((n = pft_ptm_pkt_next_batch(d, pkts, BATCH, sizeof(pkts[0]))) != -PFT_ERR_EOS) {
		n = pft_ptm_flow_decode(f, pkts, n > 0 ? (size_t)n : 1, sizeof(pkts[0]), elems,
				    BATCH * PFT_FLOW_ELEMS_MAX, end);
		for (size_t i = 0; n > 0 && i < end[n - 1]; i++) {
			if (elems[i].type == PFT_ELEM_RANGE) {
				c.ranges++;
				c.insns += elems[i].ninsn;
			}
		}
	}
	pft_ptm_flow_free(f);
	pft_ptm_pkt_free(d);
	pft_image_free(img);
	return c;
}

static struct counts run_ocsd(const struct pft_ptm_config *cfg, const uint8_t *buf, size_t len,
			      const struct memory *mem)
{
	unsigned char csid;
	struct counts c = { 0, 0 };
	dcd_tree_handle_t t = ocsd_tree(cfg, OCSD_CREATE_FLG_FULL_DECODER, &csid);

	if (ocsd_dt_set_gen_elem_outfn(t, count_elem, &c) != OCSD_OK ||
	    ocsd_dt_add_buffer_mem_acc(t, mem->addr, OCSD_MEM_SPACE_ANY, mem->bytes,
				       (uint32_t)mem->len) != OCSD_OK) {
		fprintf(stderr, "bench: cannot set up OpenCSD\n");
		exit(2);
	}
	ocsd_run(t, buf, len);
	return c;
}

int main(int argc, char **argv)
{
	size_t mb = 16;
	int runs = 3;
	const char *raw = NULL, *image = NULL;
	uint32_t etmcr = TC2_ETMCR;
	struct memory mem = { .addr = 0xC0008000 };

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--mb") && i + 1 < argc)
			mb = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--raw") && i + 1 < argc)
			raw = argv[++i];
		else if (!strcmp(argv[i], "--image") && i + 1 < argc && strchr(argv[i + 1], '@'))
			image = argv[++i];
		else if (!strcmp(argv[i], "--etmcr") && i + 1 < argc)
			etmcr = (uint32_t)strtoul(argv[++i], NULL, 0);
		else {
			fprintf(stderr, "usage: bench_flow [--mb N] [--runs N] "
					"[--raw FILE --image FILE@ADDR [--etmcr V]]\n");
			return 2;
		}
	}
	if (!raw != !image) {
		fprintf(stderr, "bench_flow: --raw and --image go together\n");
		return 2;
	}
	struct pft_ptm_config cfg;
	size_t len;
	char path[4096];
	tc2_config(&cfg, etmcr);
	uint8_t *buf = bench_stream(raw, mb, &len);
	if (image) {
		const char *at = strrchr(image, '@');
		snprintf(path, sizeof(path), "%.*s", (int)(at - image), image);
		mem.addr = (uint32_t)strtoul(at + 1, NULL, 0);
	} else {
		snprintf(path, sizeof(path), "%s/testdata/opencsd-snapshots/TC2/kernel_dump.bin",
			 shared_dir());
	}
	uint8_t *membuf = read_file(path, &mem.len);
	if (!membuf) {
		fprintf(stderr, "bench: cannot read %s\n", path);
		return 2;
	}
	mem.bytes = membuf;

	double best_pft = 1e30, best_batch = 1e30, best_ocsd = 1e30;
	struct counts cp = { 0, 0 }, cb = { 0, 0 }, co = { 0, 0 };
	for (int r = 0; r < runs; r++) {
		double t0 = now();
		cp = run_pft(&cfg, buf, len, &mem);
		double t1 = now();
		co = run_ocsd(&cfg, buf, len, &mem);
		double t2 = now();
		cb = run_pft_batch(&cfg, buf, len, &mem);
		double t3 = now();
		if (t1 - t0 < best_pft)
			best_pft = t1 - t0;
		if (t2 - t1 < best_ocsd)
			best_ocsd = t2 - t1;
		if (t3 - t2 < best_batch)
			best_batch = t3 - t2;
	}
	double mbytes = len / 1e6;
	printf("input: %.1f MB of PFT (%s) + %zu KB image, best of %d runs\n", mbytes,
	       raw ? raw : "TC2 trace ID 0x13, repeated", mem.len >> 10, runs);
	printf("%-8s %10s %14s %14s %14s\n", "decoder", "trace MB/s", "Minsn/s", "instructions",
	       "ranges");
	printf("%-8s %10.1f %14.1f %14llu %14llu\n", "libpft", mbytes / best_pft,
	       cp.insns / best_pft / 1e6, (unsigned long long)cp.insns,
	       (unsigned long long)cp.ranges);
	printf("%-8s %10.1f %14.1f %14llu %14llu\n", "batch", mbytes / best_batch,
	       cb.insns / best_batch / 1e6, (unsigned long long)cb.insns,
	       (unsigned long long)cb.ranges);
	printf("%-8s %10.1f %14.1f %14llu %14llu\n", "OpenCSD", mbytes / best_ocsd,
	       co.insns / best_ocsd / 1e6, (unsigned long long)co.insns,
	       (unsigned long long)co.ranges);
	printf("ratio (libpft / OpenCSD): %.1fx, batch path %.1fx\n", best_ocsd / best_pft,
	       best_ocsd / best_batch);
	return cp.insns == co.insns && cb.insns == co.insns && cb.ranges == cp.ranges ? 0 : 1;
}
