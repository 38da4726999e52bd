/*
 * bench_etm3: ETMv3 decoding throughput of libpft against OpenCSD's ETMv3
 * decoder, same input, same run: packets only, and full decode (packets +
 * program flow against the memory image).
 *
 * Input: the real TC2 Cortex-A7 trace (ID 0x10, ETMv3.5, cycle-accurate),
 * deformatted by libpft from its first A-sync on, repeated to at least --mb
 * megabytes; the TC2 kernel dump (0xC0008000) is the memory image.  Neither
 * decoder prints; each counts packets, or instructions.  Best of --runs.
 */

#include "bench_ocsd.h"

/* TC2 ETM_0 (device_5.ini). */
static const uint32_t ETMCR = 0x10001860, ETMCCER = 0x344008F2, ETMIDR = 0x410CF250,
		      TRACEIDR = 0x10;

struct memory {
	const uint8_t *bytes;
	size_t len;
	uint32_t addr;
};

static uint64_t pft_packets(const struct pft_etm3_config *cfg, const uint8_t *buf, size_t len)
{
	struct pft_etm3_pkt_decoder *d = pft_etm3_pkt_alloc(cfg, NULL);
	struct pft_etm3_packet pkt;
	uint64_t n = 0;

	pft_etm3_pkt_feed(d, buf, len);
	pft_etm3_pkt_finish(d);
	while (pft_etm3_pkt_next(d, &pkt, sizeof(pkt)) != -PFT_ERR_EOS)
		n++;
	pft_etm3_pkt_free(d);
	return n;
}

static uint64_t pft_insns(const struct pft_etm3_config *cfg, const uint8_t *buf, size_t len,
			  const struct memory *mem)
{
	struct pft_image *img = pft_image_alloc(NULL);
	pft_image_add_buffer(img, mem->addr, mem->bytes, mem->len, PFT_SPACE_ANY, 0);
	struct pft_etm3_pkt_decoder *d = pft_etm3_pkt_alloc(cfg, NULL);
	struct pft_etm3_flow *f = pft_etm3_flow_alloc(cfg, img, NULL);
	struct pft_etm3_packet pkt;
	struct pft_elem e;
	uint64_t n = 0;

	pft_etm3_pkt_feed(d, buf, len);
	pft_etm3_pkt_finish(d);
	for (int last = 0; !last;) {
		if (pft_etm3_pkt_next(d, &pkt, sizeof(pkt)) == -PFT_ERR_EOS) {
			pft_etm3_flow_finish(f);
			last = 1;
		} else {
			pft_etm3_flow_put(f, &pkt, sizeof(pkt));
		}
		while (pft_etm3_flow_next(f, &e, sizeof(e)) == 0)
			if (e.type == PFT_ELEM_RANGE)
				n += e.ninsn;
	}
	pft_etm3_flow_free(f);
	pft_etm3_pkt_free(d);
	pft_image_free(img);
	return n;
}

static ocsd_datapath_resp_t count_insn(const void *ctx, const ocsd_trc_index_t index,
				       const uint8_t chan, const ocsd_generic_trace_elem *elem)
{
	(void)index;
	(void)chan;
	if (elem->elem_type == OCSD_GEN_TRC_ELEM_INSTR_RANGE)
		*(uint64_t *)ctx += elem->num_instr_range;
	return OCSD_RESP_CONT;
}

/* OpenCSD over the whole stream: packet processor only (@mem NULL, counting
 * packets) or the full decoder (counting instructions). */
static uint64_t ocsd(const uint8_t *buf, size_t len, const struct memory *mem)
{
	ocsd_etmv3_cfg ec = { .reg_idr = ETMIDR, .reg_ctrl = ETMCR, .reg_ccer = ETMCCER,
			      .reg_trc_id = TRACEIDR, .arch_ver = ARCH_V7,
			      .core_prof = profile_CortexA };
	dcd_tree_handle_t t = ocsd_create_dcd_tree(OCSD_TRC_SRC_SINGLE, 0);
	unsigned char csid;
	uint64_t n = 0;
	int ok = t && ocsd_dt_create_decoder(t, OCSD_BUILTIN_DCD_ETMV3,
					     mem ? OCSD_CREATE_FLG_FULL_DECODER
						 : OCSD_CREATE_FLG_PACKET_PROC,
					     &ec, &csid) == OCSD_OK;
	if (ok && mem)
		ok = ocsd_dt_set_gen_elem_outfn(t, count_insn, &n) == OCSD_OK &&
		     ocsd_dt_add_buffer_mem_acc(t, mem->addr, OCSD_MEM_SPACE_ANY, mem->bytes,
						(uint32_t)mem->len) == OCSD_OK;
	else if (ok)
		ok = ocsd_dt_attach_packet_callback(t, csid, OCSD_C_API_CB_PKT_SINK,
						    (void *)count_pkt, &n) == OCSD_OK;
	if (!ok) {
		fprintf(stderr, "bench_etm3: cannot set up OpenCSD\n");
		exit(2);
	}
	for (size_t done = 0; done < len;) {
		uint32_t chunk = len - done > (1u << 30) ? (1u << 30) : (uint32_t)(len - done);
		uint32_t used = 0;
		ocsd_datapath_resp_t r = ocsd_dt_process_data(t, OCSD_OP_DATA, done, chunk,
							      buf + done, &used);
		if (OCSD_DATA_RESP_IS_FATAL(r)) {
			fprintf(stderr, "bench_etm3: OpenCSD fatal error at %zu\n", done);
			exit(2);
		}
		done += used;
	}
	ocsd_dt_process_data(t, OCSD_OP_EOT, 0, 0, NULL, NULL);
	ocsd_destroy_dcd_tree(t);
	return n;
}

int main(int argc, char **argv)
{
	size_t mb = 16;
	int runs = 3;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--mb") && i + 1 < argc)
			mb = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = atoi(argv[++i]);
		else {
			fprintf(stderr, "usage: bench_etm3 [--mb N] [--runs N]\n");
			return 2;
		}
	}
	char path[4096];
	size_t blen, ulen, mlen;
	snprintf(path, sizeof(path), "%s/testdata/opencsd-snapshots/TC2/cstrace.bin", shared_dir());
	uint8_t *b = read_file(path, &blen);
	snprintf(path, sizeof(path), "%s/testdata/opencsd-snapshots/TC2/kernel_dump.bin",
		 shared_dir());
	uint8_t *kernel = read_file(path, &mlen);
	if (!b || !kernel) {
		fprintf(stderr, "bench_etm3: cannot read the TC2 snapshot (set PFT_SHARED)\n");
		return 2;
	}
	uint8_t *unit = extract_id(b, blen, 0x10, &ulen);
	size_t copies = ((mb << 20) + ulen - 1) / ulen, len = copies * ulen;
	uint8_t *buf = malloc(len);
	for (size_t i = 0; i < copies; i++)
		memcpy(buf + i * ulen, unit, ulen);
	const struct memory mem = { kernel, mlen, 0xC0008000 };

	/* bench_common.h's PTM stream helpers are not used here. */
	(void)tc2_config;
	(void)bench_stream;
	struct pft_etm3_config cfg;
	pft_etm3_config_init(&cfg);
	pft_etm3_config_from_regs(&cfg, ETMCR, ETMCCER, ETMIDR, TRACEIDR);

	double best[4] = { 1e30, 1e30, 1e30, 1e30 };
	uint64_t count[4] = { 0 };
	for (int r = 0; r < runs; r++) {
		for (int k = 0; k < 4; k++) {
			double t0 = now();
			switch (k) {
			case 0: count[k] = pft_packets(&cfg, buf, len); break;
			case 1: count[k] = ocsd(buf, len, NULL); break;
			case 2: count[k] = pft_insns(&cfg, buf, len, &mem); break;
			default: count[k] = ocsd(buf, len, &mem); break;
			}
			double t = now() - t0;
			if (t < best[k])
				best[k] = t;
		}
	}
	double mbytes = len / 1e6;
	printf("input: %.1f MB of ETMv3 (TC2 trace ID 0x10, repeated), best of %d runs\n",
	       mbytes, runs);
	printf("packets:  libpft %8.1f MB/s (%llu packets)   OpenCSD %8.1f MB/s (%llu)   ratio %.1fx\n",
	       mbytes / best[0], (unsigned long long)count[0], mbytes / best[1],
	       (unsigned long long)count[1], best[1] / best[0]);
	printf("decode:   libpft %8.1f MB/s (%llu insns)     OpenCSD %8.1f MB/s (%llu)   ratio %.1fx\n",
	       mbytes / best[2], (unsigned long long)count[2], mbytes / best[3],
	       (unsigned long long)count[3], best[3] / best[2]);
	free(buf);
	free(unit);
	free(b);
	free(kernel);
	return 0;
}
