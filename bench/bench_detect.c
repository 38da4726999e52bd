/* bench_detect: what configuration detection costs next to a full decode.
 *
 *   bench_detect [--mb N | --raw FILE [--image FILE@ADDR | --elf FILE]]
 *
 * Times pft_detect_protocol() and pft_detect_ptm() (with the image when
 * given) on the stream, of which they read the first PFT_DETECT_PREFIX
 * bytes, and a full decode of it (packets and, with the image, program
 * flow) under the detected configuration; prints both and their ratio.
 * Without --raw the stream is the TC2 capture's ID 0x13 repeated to N MB
 * (default 100), whose registers' configuration is checked too.
 */
#include "bench_common.h"

static double full_decode(const uint8_t *buf, size_t len, const struct pft_ptm_config *cfg,
			  struct pft_image *img, uint64_t *insns)
{
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(cfg, NULL);
	struct pft_ptm_flow *f = img ? pft_ptm_flow_alloc(cfg, img, NULL) : NULL;
	struct pft_ptm_packet pkts[256];
	struct pft_elem e;
	double t0 = now();
	uint64_t packets = 0;

	pft_ptm_pkt_feed(d, buf, len);
	pft_ptm_pkt_finish(d);
	for (;;) {
		int n = pft_ptm_pkt_next_batch(d, pkts, 256, sizeof(pkts[0]));
		if (n == -PFT_ERR_EOS)
			break;
		if (n < 0)
			n = 1;
		packets += (uint64_t)n;
		for (int i = 0; f && i < n; i++) {
			pft_ptm_flow_put(f, &pkts[i], sizeof(pkts[i]));
			while (pft_ptm_flow_next(f, &e, sizeof(e)) == 0)
				;
		}
	}
	double t = now() - t0;
	*insns = f ? pft_ptm_flow_insn_count(f) : packets;
	pft_ptm_flow_free(f);
	pft_ptm_pkt_free(d);
	return t;
}

int main(int argc, char **argv)
{
	const char *raw = NULL, *image = NULL, *elf = NULL;
	struct pft_image *img = NULL;
	size_t len, ilen = 0, mb = 100;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--raw") && i + 1 < argc)
			raw = argv[++i];
		else if (!strcmp(argv[i], "--mb") && i + 1 < argc)
			mb = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--image") && i + 1 < argc && strchr(argv[i + 1], '@'))
			image = argv[++i];
		else if (!strcmp(argv[i], "--elf") && i + 1 < argc)
			elf = argv[++i];
		else {
			fprintf(stderr, "usage: bench_detect [--mb N | --raw FILE "
				"[--image FILE@ADDR | --elf FILE]]\n");
			return 2;
		}
	}
	uint8_t *buf = bench_stream(raw, mb, &len);
	uint8_t *ibytes = NULL;
	if (image) {
		char path[1024];
		const char *at = strrchr(image, '@');
		snprintf(path, sizeof(path), "%.*s", (int)(at - image), image);
		ibytes = read_file(path, &ilen);
		img = pft_image_alloc(NULL);
		if (!ibytes || pft_image_add_buffer(img, (uint32_t)strtoul(at + 1, NULL, 0), ibytes,
						    ilen, PFT_SPACE_ANY, 0) < 0) {
			fprintf(stderr, "bench_detect: cannot load %s\n", image);
			return 2;
		}
	}

	if (elf) {
		img = pft_image_alloc(NULL);
		if (pft_image_add_elf(img, elf, 0) < 0) {
			fprintf(stderr, "bench_detect: cannot load %s\n", elf);
			return 2;
		}
	}

	struct pft_detect_ptm_result r;
	double t0 = now();
	int proto = pft_detect_protocol(buf, len);
	double t_proto = now() - t0;
	t0 = now();
	int err = pft_detect_ptm(buf, len, img, &r, sizeof(r));
	double t_detect = now() - t0;
	char opts[256];
	pft_ptm_config_options(&r.config, opts, sizeof(opts));
	printf("input: %.1f MB; detection reads %u KB\n", len / 1e6, PFT_DETECT_PREFIX / 1024);
	printf("protocol: %s (%.1f ms)\n", pft_protocol_name((unsigned)proto), t_proto * 1e3);
	printf("configuration: %s [%s] determined %#x, errors %u (%.1f ms%s)\n",
	       err ? pft_errstr(pft_errcode(err)) : "ok", opts, r.determined, r.errors,
	       t_detect * 1e3, img ? ", with the image" : "");

	uint64_t count;
	double t_full = full_decode(buf, len, &r.config, img, &count);
	printf("full decode: %.2f s (%llu %s)\n", t_full, (unsigned long long)count,
	       img ? "instructions" : "packets");
	printf("detection / full decode: %.3f%%\n", 100.0 * (t_proto + t_detect) / t_full);
	if (!raw) {
		struct pft_ptm_config tc2;
		tc2_config(&tc2, TC2_ETMCR);
		printf("TC2 registers' configuration %s\n",
		       tc2.cycle_accurate == r.config.cycle_accurate &&
		       tc2.ctxid_bytes == r.config.ctxid_bytes &&
		       tc2.timestamps == r.config.timestamps &&
		       tc2.ts_64bit == r.config.ts_64bit ? "detected" : "NOT detected");
	}
	pft_image_free(img);
	free(ibytes);
	free(buf);
	return 0;
}
