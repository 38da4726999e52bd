/* Throughput of the packet encoder and the frame formatter.
 *
 *   sh bench/run.sh builds it (build-bench/), or: cmake -S . -B build-bench
 *   -DCMAKE_BUILD_TYPE=Release -DPFT_BENCH=ON && cmake --build build-bench
 *
 * The packet mix imitates a cycle-accurate PTM: mostly atoms and short
 * branches, some long branches and timestamps, an I-sync now and then. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pft.h"

enum { NPKTS = 1 << 20, ROUNDS = 20, BATCH = 1024 };

static uint32_t next_random(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void make_packets(struct pft_ptm_packet *p, size_t n)
{
	uint32_t seed = 1, addr = 0x80008000;
	uint64_t ts = 1000;

	for (size_t i = 0; i < n; i++) {
		uint32_t r = next_random(&seed);

		memset(&p[i], 0, sizeof(p[i]));
		p[i].has_cycles = 1;
		p[i].cycles = r >> (20 + (r & 7));
		if (i % 4096 == 0) {
			p[i].type = PFT_PTM_PKT_ISYNC;
			p[i].addr = addr;
			p[i].isa = PFT_ISA_THUMB;
			p[i].has_cycles = 0;
		} else if (r % 100 < 60) {
			p[i].type = PFT_PTM_PKT_ATOM;
			p[i].n_atoms = 1;
			p[i].atoms = r >> 8 & 1;
		} else if (r % 100 < 95) {
			/* Mostly near, sometimes far. */
			addr ^= (next_random(&seed) & (r % 7 ? 0xffe : 0xffffffe));
			p[i].type = PFT_PTM_PKT_BRANCH;
			p[i].addr = addr;
			p[i].isa = PFT_ISA_THUMB;
		} else {
			ts += r % 5000;
			p[i].type = PFT_PTM_PKT_TIMESTAMP;
			p[i].ts = ts;
		}
	}
}

int main(void)
{
	struct pft_ptm_packet *pkts = malloc(NPKTS * sizeof(*pkts));
	uint8_t *buf = malloc((size_t)NPKTS * PFT_PTM_ENC_MAX_PACKET);
	uint8_t *frames = malloc((size_t)NPKTS * PFT_PTM_ENC_MAX_PACKET * 2);
	struct pft_ptm_config cfg;
	struct pft_ptm_encoder *e;
	struct pft_ffmt *f;
	size_t len = 0, flen = 0;
	double t0, t1;

	if (!pkts || !buf || !frames)
		return 1;
	make_packets(pkts, NPKTS);
	pft_ptm_config_init(&cfg);
	cfg.cycle_accurate = 1;
	e = pft_ptm_enc_alloc(&cfg, NULL);
	if (!e)
		return 1;

	t0 = now();
	for (int r = 0; r < ROUNDS; r++) {
		len = 0;
		pft_ptm_enc_reset(e);
		for (size_t i = 0; i < NPKTS; i++) {
			int n = pft_ptm_enc_packet(e, &pkts[i], buf + len,
					       PFT_PTM_ENC_MAX_PACKET);
			if (n < 0)
				return 1;
			len += (size_t)n;
		}
	}
	t1 = now();
	printf("encoder:   %.1f Mpackets/s, %.0f MB/s of PFT (%.2f bytes/packet)\n",
	       ROUNDS * (double)NPKTS / (t1 - t0) / 1e6,
	       ROUNDS * (double)len / (t1 - t0) / 1e6, (double)len / NPKTS);

	/* The same packets in cache-sized batches, as a model producing
	 * them on the fly would hand them over. */
	t0 = now();
	for (int r = 0; r < ROUNDS; r++) {
		size_t blen = 0;

		pft_ptm_enc_reset(e);
		for (size_t i = 0; i < NPKTS; i++) {
			size_t j = i & (BATCH - 1);
			int n = pft_ptm_enc_packet(e, &pkts[j], buf + blen,
					       PFT_PTM_ENC_MAX_PACKET);
			if (n < 0)
				return 1;
			blen += (size_t)n;
			if (j == BATCH - 1)
				blen = 0;
		}
	}
	t1 = now();
	printf("encoder, %d-packet batches in cache: %.1f Mpackets/s\n", BATCH,
	       ROUNDS * (double)NPKTS / (t1 - t0) / 1e6);

	/* Two sources, interleaved in 64-byte pieces. */
	t0 = now();
	for (int r = 0; r < ROUNDS; r++) {
		f = pft_ffmt_alloc(NULL, NULL);
		if (!f)
			return 1;
		flen = 0;
		for (size_t off = 0; off < len; off += 64) {
			size_t n = len - off < 64 ? len - off : 64;

			pft_ffmt_put(f, (off / 64) & 1 ? 0x10 : 0x11, buf + off, n);
			if (pft_ffmt_ready(f) > 4096)
				flen += (size_t)pft_ffmt_take(f, frames + flen, 1u << 30);
		}
		pft_ffmt_flush(f);
		flen += (size_t)pft_ffmt_take(f, frames + flen, 1u << 30);
		pft_ffmt_free(f);
	}
	t1 = now();
	printf("formatter: %.0f MB/s of input (%.4f output bytes per input byte)\n",
	       ROUNDS * (double)len / (t1 - t0) / 1e6, (double)flen / len);

	pft_ptm_enc_free(e);
	free(pkts);
	free(buf);
	free(frames);
	return 0;
}
