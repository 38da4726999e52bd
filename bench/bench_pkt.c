/*
 * bench_pkt: packet-decode throughput of libpft against OpenCSD's PTM
 * packet processor, on the same in-memory PFT stream, in the same run.
 *
 * The stream: the real Cortex-A15 trace of the TC2 capture (trace ID 0x13,
 * deformatted by libpft, from its first A-sync on), repeated until it is at
 * least --mb megabytes (default 64).  Or --raw FILE: a raw PFT stream,
 * such as bench/make-large-trace.sh makes, traced with the TC2 PTM's
 * configuration or with the ETMCR given by --etmcr (other registers as
 * TC2's).  Neither decoder prints; each counts its packets.  Best of --runs
 * runs.
 */
#include "bench_ocsd.h"

/* One packet per call, as most callers will use it. */
static uint64_t run_pft_next(const struct pft_ptm_config *cfg, const uint8_t *buf, size_t len)
{
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(cfg, NULL);
	struct pft_ptm_packet pkt;
	uint64_t n = 0;

	pft_ptm_pkt_feed(d, buf, len);
	pft_ptm_pkt_finish(d);
	while (pft_ptm_pkt_next(d, &pkt, sizeof(pkt)) != -PFT_ERR_EOS)
		n++;
	pft_ptm_pkt_free(d);
	return n;
}

/* Up to 64 packets per call. */
static uint64_t run_pft(const struct pft_ptm_config *cfg, const uint8_t *buf, size_t len)
{
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(cfg, NULL);
	struct pft_ptm_packet pkts[64];
	uint64_t n = 0;

	pft_ptm_pkt_feed(d, buf, len);
	pft_ptm_pkt_finish(d);
	for (;;) {
		int got = pft_ptm_pkt_next_batch(d, pkts, 64, sizeof(pkts[0]));
		if (got == -PFT_ERR_EOS)
			break;
		n += got > 0 ? (uint64_t)got : 1;
	}
	pft_ptm_pkt_free(d);
	return n;
}

static uint64_t run_ocsd(const struct pft_ptm_config *cfg, const uint8_t *buf, size_t len)
{
	unsigned char csid;
	uint64_t n = 0;
	dcd_tree_handle_t t = ocsd_tree(cfg, OCSD_CREATE_FLG_PACKET_PROC, &csid);

	if (ocsd_dt_attach_packet_callback(t, csid, OCSD_C_API_CB_PKT_SINK,
					   (void *)count_pkt, &n) != OCSD_OK) {
		fprintf(stderr, "bench: cannot set up OpenCSD\n");
		exit(2);
	}
	ocsd_run(t, buf, len);
	return n;
}

int main(int argc, char **argv)
{
	const char *raw = NULL;
	size_t mb = 64;
	int runs = 5;
	uint32_t etmcr = TC2_ETMCR;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--mb") && i + 1 < argc)
			mb = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--raw") && i + 1 < argc)
			raw = argv[++i];
		else if (!strcmp(argv[i], "--etmcr") && i + 1 < argc)
			etmcr = (uint32_t)strtoul(argv[++i], NULL, 0);
		else {
			fprintf(stderr, "usage: bench_pkt [--mb N] [--runs N] [--raw FILE [--etmcr V]]\n");
			return 2;
		}
	}
	struct pft_ptm_config cfg;
	size_t len;
	tc2_config(&cfg, etmcr);
	uint8_t *buf = bench_stream(raw, mb, &len);

	double best_pft = 1e30, best_ocsd = 1e30, best_next = 1e30;
	uint64_t n_pft = 0, n_ocsd = 0, n_next = 0;
	for (int r = 0; r < runs; r++) {
		double tn = now();
		n_next = run_pft_next(&cfg, buf, len);
		double t0 = now();
		if (t0 - tn < best_next)
			best_next = t0 - tn;
		n_pft = run_pft(&cfg, buf, len);
		double t1 = now();
		n_ocsd = run_ocsd(&cfg, buf, len);
		double t2 = now();
		if (t1 - t0 < best_pft)
			best_pft = t1 - t0;
		if (t2 - t1 < best_ocsd)
			best_ocsd = t2 - t1;
	}
	double mbytes = len / 1e6;
	printf("input: %.1f MB of PFT (%s), best of %d runs\n", mbytes,
	       raw ? raw : "TC2 trace ID 0x13, repeated", runs);
	printf("%-8s %10s %12s %14s\n", "decoder", "MB/s", "Mpackets/s", "packets");
	printf("%-8s %10.1f %12.2f %14llu   (pft_ptm_pkt_next_batch)\n", "libpft", mbytes / best_pft,
	       n_pft / best_pft / 1e6, (unsigned long long)n_pft);
	printf("%-8s %10.1f %12.2f %14llu   (pft_ptm_pkt_next)\n", "libpft", mbytes / best_next,
	       n_next / best_next / 1e6, (unsigned long long)n_next);
	printf("%-8s %10.1f %12.2f %14llu\n", "OpenCSD", mbytes / best_ocsd,
	       n_ocsd / best_ocsd / 1e6, (unsigned long long)n_ocsd);
	printf("ratio (libpft / OpenCSD): %.1fx batch, %.1fx one at a time\n",
	       best_ocsd / best_pft, best_ocsd / best_next);
	return n_pft == n_ocsd && n_next == n_ocsd ? 0 : 1;
}
