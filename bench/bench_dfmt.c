/* bench_dfmt - deformatter throughput (not a test).
 *
 *   sh bench/run.sh builds it (build-bench/), or: cmake -S . -B build-bench
 *   -DCMAKE_BUILD_TYPE=Release -DPFT_BENCH=ON && cmake --build build-bench
 *   build-bench/bench_dfmt [MiB] [file]
 *
 * Cases: a buffer of frames for one ID (an ID byte in the first frame
 * only), the same with an ID byte in every frame, the same fed in 4 KiB
 * pieces, and, given a file (such as TC2's cstrace.bin), that file
 * repeated to the buffer size.  Reports the best of five runs in MB/s
 * (10^6 bytes per second of input).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pft.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Deformat @buf in pieces of @piece bytes; returns the data bytes seen. */
static uint64_t deformat(int tpiu, const uint8_t *buf, size_t len,
			 size_t piece)
{
	struct pft_dfmt_config cfg = { .size = sizeof(cfg), .tpiu = (uint8_t)tpiu };
	struct pft_dfmt *d = pft_dfmt_alloc(&cfg, NULL);
	struct pft_dfmt_chunk c;
	uint64_t total = 0;
	int r;

	if (!d)
		exit(1);
	for (size_t pos = 0; pos < len; pos += piece) {
		size_t n = len - pos < piece ? len - pos : piece;
		pft_dfmt_feed(d, buf + pos, n);
		while ((r = pft_dfmt_next(d, &c, sizeof(c))) != -PFT_ERR_NEED_INPUT)
			if (r == 0)
				total += c.len + c.data[0];
	}
	pft_dfmt_finish(d);
	while ((r = pft_dfmt_next(d, &c, sizeof(c))) != -PFT_ERR_EOS)
		if (r == 0)
			total += c.len;
	pft_dfmt_free(d);
	return total;
}

static void measure(const char *name, int tpiu, const uint8_t *buf,
		    size_t len, size_t piece)
{
	double best = 1e30;
	uint64_t total = 0;

	for (int rep = 0; rep < 5; rep++) {
		double t = now();
		total = deformat(tpiu, buf, len, piece);
		t = now() - t;
		if (t < best)
			best = t;
	}
	printf("%-34s %8.0f MB/s  (%llu)\n", name, (double)len / best / 1e6,
	       (unsigned long long)total);
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 0) : 64;
	size_t len = mib << 20;
	uint8_t *buf = malloc(len);
	uint32_t x = 1;

	if (!buf)
		return 1;
	for (size_t i = 0; i < len; i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = (uint8_t)(x >> 16);
		if (i % 2 == 0 && i % 16 != 15)
			buf[i] &= 0xfe; /* even bytes: data */
	}
	buf[0] = 0x21; /* ID 0x10 */
	measure("one ID, whole buffer", 0, buf, len, len);
	measure("one ID, 4 KiB pieces", 0, buf, len, 4096);
	/* Trace port: an FSYNC first; frames then start at offset 4. */
	memcpy(buf, "\xff\xff\xff\x7f\x21", 5);
	measure("one ID, trace-port mode", 1, buf, len, len);
	for (size_t i = 0; i < len; i += 16)
		buf[i + 8] = 0x23; /* ID 0x11 in byte 8 of every frame */
	measure("ID byte in every frame", 0, buf, len, len);

	if (argc > 2) {
		FILE *f = fopen(argv[2], "rb");
		size_t n = f ? fread(buf, 1, len, f) : 0;
		if (f)
			fclose(f);
		if (n == 0 || n % 16)
			return 1;
		for (size_t i = n; i + n <= len; i += n)
			memcpy(buf + i, buf, n);
		measure(argv[2], 0, buf, len / n * n, len);
	}
	free(buf);
	return 0;
}
