/* bench_common.h - what the benchmarks share: timing, files, and the
 * real TC2 trace (ID 0x13) repeated into a long stream. */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pft.h"

static inline double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline uint8_t *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *b = malloc(n > 0 ? (size_t)n : 1);
	if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
		free(b);
		b = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return b;
}

/* The bytes of trace ID @id from a formatted buffer, from the first A-sync. */
static inline uint8_t *extract_id(const uint8_t *buf, size_t len, uint8_t id, size_t *out_len)
{
	struct pft_dfmt *d = pft_dfmt_alloc(NULL, NULL);
	struct pft_dfmt_chunk c;
	uint8_t *out = malloc(len);
	size_t n = 0;

	pft_dfmt_feed(d, buf, len);
	pft_dfmt_finish(d);
	for (;;) {
		int st = pft_dfmt_next(d, &c, sizeof(c));
		if (st == -PFT_ERR_EOS || st == -PFT_ERR_NEED_INPUT)
			break;
		if (st == 0 && c.id == id) {
			memcpy(out + n, c.data, c.len);
			n += c.len;
		}
	}
	pft_dfmt_free(d);
	static const uint8_t async[6] = { 0, 0, 0, 0, 0, 0x80 };
	size_t start = 0;
	while (start + 6 <= n && memcmp(out + start, async, 6))
		start++;
	memmove(out, out + start, n - start);
	*out_len = n - start;
	return out;
}

/* The TC2 PTM's registers (device_8.ini), with @etmcr (TC2_ETMCR: cycle-
 * accurate, timestamps). */
enum { TC2_ETMCR = 0x10001000 };

static inline void tc2_config(struct pft_ptm_config *cfg, uint32_t etmcr)
{
	pft_ptm_config_init(cfg);
	pft_ptm_config_from_regs(cfg, etmcr, 0x34C01AC2, 0x411CF312, 0x13);
}

static inline const char *shared_dir(void)
{
	return getenv("PFT_SHARED") ? getenv("PFT_SHARED") : "../shared";
}

/* The TC2 capture's trace ID 0x13 from its first A-sync, repeated to at
 * least @mb megabytes (or a raw file as it is).  Exits on failure. */
static inline uint8_t *bench_stream(const char *raw, size_t mb, size_t *len)
{
	size_t unit_len;
	uint8_t *unit;

	if (raw) {
		unit = read_file(raw, len);
		if (!unit) {
			fprintf(stderr, "bench: cannot read %s\n", raw);
			exit(2);
		}
		return unit;
	}
	char path[4096];
	size_t blen;
	snprintf(path, sizeof(path), "%s/testdata/opencsd-snapshots/TC2/cstrace.bin", shared_dir());
	uint8_t *b = read_file(path, &blen);
	if (!b) {
		fprintf(stderr, "bench: cannot read %s (set PFT_SHARED)\n", path);
		exit(2);
	}
	unit = extract_id(b, blen, 0x13, &unit_len);
	free(b);
	size_t copies = ((mb << 20) + unit_len - 1) / unit_len;
	uint8_t *buf = malloc(copies * unit_len);
	for (size_t i = 0; i < copies; i++)
		memcpy(buf + i * unit_len, unit, unit_len);
	free(unit);
	*len = copies * unit_len;
	return buf;
}

#endif
