/* pft_perf.h - perf.data layout facts shared by the reader
 * (pft_perf.c) and the writer (pft_perf_write.c).  Sources: Linux
 * tools/perf/Documentation/perf.data-file-format.txt, include/uapi/linux/
 * perf_event.h, tools/perf/util/cs-etm.h (shared/spec/perf-data.md). */
#ifndef PFT_PERF_INT_H
#define PFT_PERF_INT_H

#include <stdint.h>
#include <string.h>

enum {
	PERF_HEADER_SIZE = 104,     /* magic, size, attr_size, 3 sections, bitmap */
	PERF_HDR_ATTR_SIZE = 16,
	PERF_HDR_ATTRS = 24,        /* {offset, size} */
	PERF_HDR_DATA = 40,
	PERF_HDR_EVENT_TYPES = 56,
	PERF_HDR_FEATURES = 72,     /* 4 x u64 */
	PERF_ATTR_SIZE_VER0 = 64,   /* the smallest perf_event_attr */
	PERF_ATTR_SIZE_WRITTEN = 128, /* VER7: what perf 6.1 writes */
	PERF_EVENT_HEADER_SIZE = 8, /* u32 type, u16 misc, u16 size */
	PERF_FEAT_BUILD_ID = 2,
	PERF_FEAT_AUXTRACE = 18,
	PERF_MISC_MMAP_BUILD_ID = 1 << 14,
	PERF_MISC_BUILD_ID_SIZE = 1 << 15,
	PERF_MISC_USER = 2,
	PERF_ATTR_FLAG_SAMPLE_ID_ALL = 18,  /* bit in the attr's flag word */
	PERF_AUXTRACE_CS_ETM = 3,
	PERF_AUXTRACE_RECORD_SIZE = 48,     /* header + size, offset, ref, 4 x u32 */
	CS_ETM_HEADER_WORDS = 3             /* version, pmu_type|nr_cpus, snapshot */
};

/* perf_event_attr field offsets. */
enum {
	ATTR_TYPE = 0,
	ATTR_SIZE = 4,
	ATTR_CONFIG = 8,
	ATTR_SAMPLE_PERIOD = 16,
	ATTR_SAMPLE_TYPE = 24,
	ATTR_FLAGS = 40
};

#define PERF_MAGIC "PERFILE2"
#define CS_ETMV3_MAGIC 0x3030303030303030ull
#define CS_ETMV4_MAGIC 0x4040404040404040ull
#define CS_ETE_MAGIC 0x5050505050505050ull
/* Version 2 of the cs_etm header: the trace ID is not known yet. */
#define CS_ETM_TRACE_ID_PENDING 0x80000000u

static inline uint16_t perf_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t perf_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t perf_get64(const uint8_t *p)
{
	return (uint64_t)perf_get32(p) | (uint64_t)perf_get32(p + 4) << 32;
}

static inline void perf_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void perf_put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline void perf_put64(uint8_t *p, uint64_t v)
{
	perf_put32(p, (uint32_t)v);
	perf_put32(p + 4, (uint32_t)(v >> 32));
}

#endif
