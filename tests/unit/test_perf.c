/* test_perf - the perf.data reader and writer (pft.h, perf section).
 *
 * The files are built here byte by byte from the layouts of Linux's
 * tools/perf/Documentation/perf.data-file-format.txt and
 * include/uapi/linux/perf_event.h (shared/spec/perf-data.md), written out
 * below without the library's help:
 *
 *   file header (104 bytes): "PERFILE2", u64 size = 104, u64 attr_size,
 *     {u64 offset, u64 size} for attrs, data and event_types, u64[4]
 *     feature bitmap; the feature table ({offset, size} per bit set, in
 *     bit order) follows the data section.
 *   attr entry: perf_event_attr (u32 type, u32 size, u64 config, u64
 *     sample_period, u64 sample_type @24, u64 read_format, u64 flags @40
 *     with sample_id_all = bit 18, ...), then {u64 offset, u64 size} of
 *     its u64 IDs.
 *   record: u32 type, u16 misc, u16 size, body; kernel records end with
 *     the sample-ID trailer: TID (u32 pid, u32 tid), TIME, ID, STREAM_ID,
 *     CPU (u32 cpu, u32 res), IDENTIFIER as sample_type selects.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pft.h"
#include "ptunit.h"

enum {
	/* sample_type of the test attribute: TID | TIME | CPU | IDENTIFIER */
	ST = 1u << 1 | 1u << 2 | 1u << 7 | 1u << 16,
	TRAILER = 32,
	ATTR_ENTRY = 128 + 16,
	ID0 = 7
};

struct img {
	uint8_t b[4096];
	size_t n;
};

static void u8(struct img *m, uint8_t v) { m->b[m->n++] = v; }
static void u16(struct img *m, uint16_t v) { u8(m, (uint8_t)v); u8(m, (uint8_t)(v >> 8)); }
static void u32(struct img *m, uint32_t v) { u16(m, (uint16_t)v); u16(m, (uint16_t)(v >> 16)); }
static void u64(struct img *m, uint64_t v) { u32(m, (uint32_t)v); u32(m, (uint32_t)(v >> 32)); }

static void set64(struct img *m, size_t at, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		m->b[at + i] = (uint8_t)(v >> (8 * i));
}

static void set16(struct img *m, size_t at, uint16_t v)
{
	m->b[at] = (uint8_t)v;
	m->b[at + 1] = (uint8_t)(v >> 8);
}

/* A string with its NUL, padded with NULs to 8 bytes. */
static void str(struct img *m, const char *s)
{
	size_t n = strlen(s) + 1;
	memcpy(m->b + m->n, s, n - 1);
	m->n += n - 1;
	do
		u8(m, 0);
	while (m->n % 8);
}

/* Start a record; end_record() fills in its size. */
static size_t record(struct img *m, uint32_t type, uint16_t misc)
{
	size_t at = m->n;
	u32(m, type);
	u16(m, misc);
	u16(m, 0);
	return at;
}

static void trailer(struct img *m)
{
	u32(m, 100);              /* pid */
	u32(m, 101);              /* tid */
	u64(m, 0x1122334455ull);  /* time */
	u32(m, 3);                /* cpu */
	u32(m, 0);
	u64(m, ID0);              /* identifier */
}

static void end_record(struct img *m, size_t at)
{
	set16(m, at + 6, (uint16_t)(m->n - at));
}

/* Offsets of the records of the full test file. */
struct layout {
	size_t info, comm, mmap, mmap2_bid, mmap2, aux, itrace, hwid, unknown, auxtrace,
		comm2, data_end, feat_table, build_id, index;
};

static void header(struct img *m)
{
	memcpy(m->b, "PERFILE2", 8);
	m->n = 8;
	u64(m, 104);
	u64(m, ATTR_ENTRY);
	m->n = 104;
}

/* One attribute at 120 with its two IDs at 104; data from 264. */
static void attr(struct img *m)
{
	u64(m, ID0);
	u64(m, ID0 + 1);
	size_t a = m->n;           /* 120 */
	u32(m, 9);                 /* type: a dynamic PMU (cs_etm) */
	u32(m, 128);               /* size */
	u64(m, 0x30001000);        /* config: ETMCR bits 12, 28, 29 */
	u64(m, 1);                 /* sample_period */
	u64(m, ST);
	u64(m, 0);                 /* read_format */
	u64(m, 1ull << 18 | 1);    /* sample_id_all, disabled */
	while (m->n < a + 128)
		u8(m, 0);
	u64(m, 104);               /* IDs: offset, size */
	u64(m, 16);
	set64(m, 24, a);           /* header: attrs section */
	set64(m, 32, ATTR_ENTRY);
}

/* cs_etm AUXTRACE_INFO, version 1: a PTM on CPU 0 and an ETMv4 on CPU 1. */
static void info_v1(struct img *m)
{
	size_t at = record(m, 70, 0);
	u32(m, 3);                 /* PERF_AUXTRACE_CS_ETM */
	u32(m, 0);
	u64(m, 1);                 /* header version */
	u64(m, 9ull << 32 | 2);    /* pmu type 9, 2 CPUs */
	u64(m, 0);                 /* snapshot */
	u64(m, 0x3030303030303030ull);
	u64(m, 0);                 /* cpu */
	u64(m, 4);                 /* parameters */
	u64(m, 0x30001000);        /* ETMCR */
	u64(m, 0x10);              /* ETMTRACEIDR */
	u64(m, 0x35c01ac2);        /* ETMCCER: 64-bit binary timestamps, DMB/DSB */
	u64(m, 0x411cf312);        /* ETMIDR: PTM (bits 11:8 = 3), PFTv1.1 */
	u64(m, 0x4040404040404040ull);
	u64(m, 1);
	u64(m, 2);                 /* two parameters */
	u64(m, 0xaa);
	u64(m, 0xbb);
	end_record(m, at);
}

static void build(struct img *m, struct layout *l)
{
	size_t at;

	memset(m, 0, sizeof(*m));
	header(m);
	attr(m);
	size_t data = m->n;

	l->info = m->n;
	info_v1(m);

	l->comm = at = record(m, 3, 0);
	u32(m, 100);
	u32(m, 101);
	str(m, "prog");
	trailer(m);
	end_record(m, at);

	l->mmap = at = record(m, 1, 2);
	u32(m, 100);
	u32(m, 101);
	u64(m, 0x10000);           /* addr */
	u64(m, 0x2000);            /* len */
	u64(m, 0x1000);            /* pgoff */
	str(m, "/bin/a");
	trailer(m);
	end_record(m, at);

	l->mmap2_bid = at = record(m, 10, 0x4000);  /* PERF_RECORD_MISC_MMAP_BUILD_ID */
	u32(m, 100);
	u32(m, 101);
	u64(m, 0x20000);
	u64(m, 0x3000);
	u64(m, 0);
	u8(m, 20);                 /* build_id_size, 3 reserved, build_id[20] */
	u8(m, 0);
	u16(m, 0);
	for (int i = 0; i < 20; i++)
		u8(m, (uint8_t)(0xb0 + i));
	u32(m, 5);                 /* prot */
	u32(m, 2);                 /* flags */
	str(m, "/bin/b");
	trailer(m);
	end_record(m, at);

	l->mmap2 = at = record(m, 10, 0);
	u32(m, 100);
	u32(m, 101);
	u64(m, 0x30000);
	u64(m, 0x1000);
	u64(m, 0x4000);
	u32(m, 8);                 /* maj */
	u32(m, 1);                 /* min */
	u64(m, 123456);            /* ino */
	u64(m, 9);                 /* ino_generation */
	u32(m, 1);
	u32(m, 1);
	str(m, "/lib/c.so");
	trailer(m);
	end_record(m, at);

	l->aux = at = record(m, 11, 0);
	u64(m, 0x40);              /* aux_offset */
	u64(m, 0x100);             /* aux_size */
	u64(m, 0x0101);            /* truncated, raw */
	trailer(m);
	end_record(m, at);

	l->itrace = at = record(m, 12, 0);
	u32(m, 100);
	u32(m, 101);
	trailer(m);
	end_record(m, at);

	l->hwid = at = record(m, 21, 0);
	u64(m, 1ull << 60 | 0x12345678ull << 8 | 0x2a);  /* v1.0, sink, trace ID */
	trailer(m);
	end_record(m, at);

	l->unknown = at = record(m, 0x33, 0);
	u64(m, 1);
	u64(m, 2);
	end_record(m, at);

	l->auxtrace = at = record(m, 71, 0);
	u64(m, 16);                /* size of the bytes that follow */
	u64(m, 0x40);              /* offset */
	u64(m, 0x99);              /* reference */
	u32(m, 2);                 /* idx */
	u32(m, 101);               /* tid */
	u32(m, 3);                 /* cpu */
	u32(m, 0);
	end_record(m, at);
	for (int i = 0; i < 16; i++)
		u8(m, (uint8_t)(0x30 + i));

	l->comm2 = at = record(m, 3, 0);
	u32(m, 200);
	u32(m, 201);
	str(m, "after-trace");
	trailer(m);
	end_record(m, at);

	l->data_end = m->n;
	set64(m, 40, data);
	set64(m, 48, m->n - data);
	set64(m, 72, 1ull << 2 | 1ull << 18);   /* BUILD_ID, AUXTRACE */

	l->feat_table = m->n;
	m->n += 32;
	l->build_id = m->n;
	at = record(m, 67, 0x8000);  /* PERF_RECORD_MISC_BUILD_ID_SIZE */
	u32(m, 100);               /* pid */
	for (int i = 0; i < 20; i++)
		u8(m, (uint8_t)(0xc0 + i));
	u8(m, 16);                 /* size of the build ID */
	u8(m, 0);
	u16(m, 0);
	str(m, "/bin/a");
	end_record(m, at);
	set64(m, l->feat_table, l->build_id);
	set64(m, l->feat_table + 8, m->n - l->build_id);

	l->index = m->n;
	u64(m, 1);
	u64(m, l->auxtrace);
	u64(m, 48);
	set64(m, l->feat_table + 16, l->index);
	set64(m, l->feat_table + 24, m->n - l->index);
}

static char dir[] = "/tmp/pft_test_perf_XXXXXX";

static const char *save(const struct img *m)
{
	static char path[64];
	snprintf(path, sizeof(path), "%s/f.data", dir);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(m->b, 1, m->n, f) != m->n || fclose(f))
		fprintf(stderr, "cannot write %s\n", path);
	return path;
}

static void check_trailer(const struct pft_perf_record *r)
{
	PTU_EQ(r->sample_id.valid, 1);
	PTU_EQ(r->sample_id.has_tid, 1);
	PTU_EQ(r->sample_id.pid, 100);
	PTU_EQ(r->sample_id.tid, 101);
	PTU_EQ(r->sample_id.has_time, 1);
	PTU_EQ(r->sample_id.time, 0x1122334455ull);
	PTU_EQ(r->sample_id.has_cpu, 1);
	PTU_EQ(r->sample_id.cpu, 3);
	PTU_EQ(r->sample_id.has_id, 1);
	PTU_EQ(r->sample_id.id, ID0);
	PTU_EQ(r->sample_id.has_stream_id, 0);
}

static void read_all_kinds(void)
{
	struct img m;
	struct layout l;
	struct pft_perf_header h;
	struct pft_perf_attr a;
	struct pft_perf_record r;
	struct pft_perf_cpu c;
	uint64_t off;
	uint8_t buf[16];
	int err = 0;

	build(&m, &l);
	struct pft_perf *p = pft_perf_open(save(&m), &err);
	PTU_CHECK(p != NULL);
	if (!p)
		return;
	PTU_EQ(pft_perf_header(p, &h, sizeof(h)), 0);
	PTU_EQ(h.attr_size, ATTR_ENTRY);
	PTU_EQ(h.attrs_offset, 120);
	PTU_EQ(h.nr_attrs, 1);
	PTU_EQ(h.data_offset, 264);
	PTU_EQ(h.data_size, l.data_end - 264);
	PTU_EQ(h.features[0], 1ull << 2 | 1ull << 18);
	PTU_EQ(h.nr_cpus, 0);
	PTU_EQ(pft_perf_attr(p, 0, &a, sizeof(a)), 0);
	PTU_EQ(a.type, 9);
	PTU_EQ(a.attr_size, 128);
	PTU_EQ(a.config, 0x30001000);
	PTU_EQ(a.config & PFT_PERF_ETM_CYCLE_ACCURATE, PFT_PERF_ETM_CYCLE_ACCURATE);
	PTU_EQ(a.sample_type, ST);
	PTU_EQ(a.sample_id_all, 1);
	PTU_EQ(a.nr_ids, 2);
	PTU_EQ(a.first_id, ID0);
	PTU_EQ(pft_perf_attr(p, 1, &a, sizeof(a)), -PFT_ERR_EOS);

	PTU_EQ(pft_perf_next(p, &r, sizeof(r)), 0);
	PTU_EQ(r.type, PFT_PERF_AUXTRACE_INFO);
	PTU_EQ(r.offset, l.info);
	PTU_EQ(r.rec_size, 8 + 8 + 8 * 15);
	PTU_EQ(r.sample_id.valid, 0);
	PTU_EQ(r.u.auxtrace_info.type, 3);
	PTU_EQ(r.u.auxtrace_info.version, 1);
	PTU_EQ(r.u.auxtrace_info.pmu_type, 9);
	PTU_EQ(r.u.auxtrace_info.nr_cpus, 2);
	PTU_EQ(r.u.auxtrace_info.snapshot, 0);
	PTU_EQ(pft_perf_get_offset(p, &off), 0);
	PTU_EQ(off, l.info);
	PTU_EQ(pft_perf_cpu(p, 0, &c, sizeof(c)), 0);
	PTU_EQ(c.etm, PFT_PERF_ETM_V3);
	PTU_EQ(c.cpu, 0);
	PTU_EQ(c.etmcr, 0x30001000);
	PTU_EQ(c.etmtraceidr, 0x10);
	PTU_EQ(c.etmccer, 0x35c01ac2);
	PTU_EQ(c.etmidr, 0x411cf312);
	PTU_EQ(c.is_ptm, 1);
	PTU_EQ(c.trace_id_pending, 0);
	struct pft_ptm_config cfg;
	pft_ptm_config_init(&cfg);
	PTU_EQ(pft_perf_cpu_config(&c, &cfg), 0);
	/* ETMCR 12, 28, 29; ETMCCER 24 and 29 (64-bit), 28 (binary); ETMIDR 7:4 = 1 */
	PTU_EQ(cfg.cycle_accurate, 1);
	PTU_EQ(cfg.timestamps, 1);
	PTU_EQ(cfg.return_stack, 1);
	PTU_EQ(cfg.ctxid_bytes, 0);
	PTU_EQ(cfg.dmb_dsb_waypoints, 1);
	PTU_EQ(cfg.ts_64bit, 1);
	PTU_EQ(cfg.ts_gray, 0);
	PTU_EQ(cfg.version_minor, 1);
	PTU_EQ(cfg.trace_id, 0x10);
	PTU_EQ(cfg.etmccer, 0x35c01ac2);
	PTU_EQ(pft_perf_cpu(p, 1, &c, sizeof(c)), 0);
	PTU_EQ(c.etm, PFT_PERF_ETM_V4);
	PTU_EQ(c.cpu, 1);
	PTU_EQ(pft_perf_cpu_config(&c, &cfg), -PFT_ERR_NOT_SUPPORTED);
	PTU_EQ(pft_perf_cpu(p, 2, &c, sizeof(c)), -PFT_ERR_EOS);
	PTU_EQ(pft_perf_header(p, &h, sizeof(h)), 0);
	PTU_EQ(h.nr_cpus, 2);

	PTU_EQ(pft_perf_next(p, &r, sizeof(r)), 0);
	PTU_EQ(r.type, PFT_PERF_COMM);
	PTU_EQ(r.offset, l.comm);
	PTU_EQ(r.u.comm.pid, 100);
	PTU_EQ(r.u.comm.tid, 101);
	PTU_STREQ(r.u.comm.comm, "prog");
	check_trailer(&r);

	PTU_EQ(pft_perf_next(p, &r, sizeof(r)), 0);
	PTU_EQ(r.type, PFT_PERF_MMAP);
	PTU_EQ(r.misc, 2);
	PTU_EQ(r.u.mmap.addr, 0x10000);
	PTU_EQ(r.u.mmap.len, 0x2000);
	PTU_EQ(r.u.mmap.pgoff, 0x1000);
	PTU_STREQ(r.u.mmap.filename, "/bin/a");
	check_trailer(&r);

	PTU_EQ(pft_perf_next(p, &r, sizeof(r)), 0);
	PTU_EQ(r.type, PFT_PERF_MMAP2);
	PTU_EQ(r.offset, l.mmap2_bid);
	PTU_EQ(r.u.mmap.addr, 0x20000);
	PTU_EQ(r.u.mmap.build_id_size, 20);
	PTU_EQ(r.u.mmap.build_id[0], 0xb0);
	PTU_EQ(r.u.mmap.build_id[19], 0xc3);
	PTU_EQ(r.u.mmap.prot, 5);
	PTU_EQ(r.u.mmap.flags, 2);
	PTU_STREQ(r.u.mmap.filename, "/bin/b");
	check_trailer(&r);

	PTU_EQ(pft_perf_next(p, &r, sizeof(r)), 0);
	PTU_EQ(r.type, PFT_PERF_MMAP2);
	PTU_EQ(r.u.mmap.pgoff, 0x4000);
	PTU_EQ(r.u.mmap.maj, 8);
	PTU_EQ(r.u.mmap.min, 1);
	PTU_EQ(r.u.mmap.ino, 123456);
	PTU_EQ(r.u.mmap.ino_generation, 9);
	PTU_EQ(r.u.mmap.build_id_size, 0);
	PTU_STREQ(r.u.mmap.filename, "/lib/c.so");

	PTU_EQ(pft_perf_next(p, &r, sizeof(r)), 0);
	PTU_EQ(r.type, PFT_PERF_AUX);
	PTU_EQ(r.offset, l.aux);
	PTU_EQ(r.u.aux.aux_offset, 0x40);
	PTU_EQ(r.u.aux.aux_size, 0x100);
	PTU_EQ(r.u.aux.flags & PFT_PERF_AUX_TRUNCATED, PFT_PERF_AUX_TRUNCATED);
	PTU_EQ(r.u.aux.flags & PFT_PERF_AUX_FORMAT_MASK, PFT_PERF_AUX_RAW);
	check_trailer(&r);

	PTU_EQ(pft_perf_next(p, &r, sizeof(r)), 0);
	PTU_EQ(r.type, PFT_PERF_ITRACE_START);
	PTU_EQ(r.u.itrace_start.pid, 100);
	PTU_EQ(r.u.itrace_start.tid, 101);

	PTU_EQ(pft_perf_next(p, &r, sizeof(r)), 0);
	PTU_EQ(r.type, PFT_PERF_AUX_OUTPUT_HW_ID);
	PTU_EQ(r.u.hw_id.trace_id, 0x2a);
	PTU_EQ(r.u.hw_id.sink_id, 0x12345678);
	PTU_EQ(r.u.hw_id.version_major, 1);
	PTU_EQ(r.u.hw_id.version_minor, 0);
	check_trailer(&r);

	PTU_EQ(pft_perf_next(p, &r, sizeof(r)), 0);
	PTU_EQ(r.type, 0x33);
	PTU_EQ(r.offset, l.unknown);
	PTU_EQ(r.rec_size, 24);

	PTU_EQ(pft_perf_next(p, &r, sizeof(r)), 0);
	PTU_EQ(r.type, PFT_PERF_AUXTRACE);
	PTU_EQ(r.offset, l.auxtrace);
	PTU_EQ(r.u.auxtrace.size, 16);
	PTU_EQ(r.u.auxtrace.offset, 0x40);
	PTU_EQ(r.u.auxtrace.reference, 0x99);
	PTU_EQ(r.u.auxtrace.idx, 2);
	PTU_EQ(r.u.auxtrace.tid, 101);
	PTU_EQ(r.u.auxtrace.cpu, 3);
	/* The bytes in two chunks, then nothing. */
	PTU_EQ(pft_perf_read_aux(p, buf, 10), 10);
	PTU_EQ(buf[0], 0x30);
	PTU_EQ(buf[9], 0x39);
	PTU_EQ(pft_perf_read_aux(p, buf, sizeof(buf)), 6);
	PTU_EQ(buf[5], 0x3f);
	PTU_EQ(pft_perf_read_aux(p, buf, sizeof(buf)), 0);

	PTU_EQ(pft_perf_next(p, &r, sizeof(r)), 0);
	PTU_EQ(r.type, PFT_PERF_COMM);
	PTU_EQ(r.offset, l.comm2);
	PTU_STREQ(r.u.comm.comm, "after-trace");
	PTU_EQ(pft_perf_read_aux(p, buf, sizeof(buf)), 0);

	/* The feature sections, in bit order. */
	PTU_EQ(pft_perf_next(p, &r, sizeof(r)), 0);
	PTU_EQ(r.type, PFT_PERF_FEAT_BUILD_ID);
	PTU_EQ(r.offset, l.build_id);
	PTU_EQ(r.u.build_id.pid, 100);
	PTU_EQ(r.u.build_id.build_id_size, 16);
	PTU_EQ(r.u.build_id.build_id[0], 0xc0);
	PTU_EQ(r.u.build_id.build_id[15], 0xcf);
	PTU_STREQ(r.u.build_id.filename, "/bin/a");
	PTU_EQ(pft_perf_next(p, &r, sizeof(r)), 0);
	PTU_EQ(r.type, PFT_PERF_FEAT_AUXTRACE_INDEX);
	PTU_EQ(r.offset, l.index + 8);
	PTU_EQ(r.u.index.file_offset, l.auxtrace);
	PTU_EQ(r.u.index.size, 48);
	PTU_EQ(pft_perf_next(p, &r, sizeof(r)), -PFT_ERR_EOS);
	PTU_EQ(pft_perf_next(p, &r, sizeof(r)), -PFT_ERR_EOS);
	pft_perf_close(p);
}

/* Trace bytes left unread are skipped by the next record. */
static void skip_unread_trace(void)
{
	struct img m;
	struct layout l;
	struct pft_perf_record r;

	build(&m, &l);
	struct pft_perf *p = pft_perf_open(save(&m), NULL);
	PTU_CHECK(p != NULL);
	if (!p)
		return;
	while (pft_perf_next(p, &r, sizeof(r)) == 0 && r.type != PFT_PERF_AUXTRACE)
		;
	PTU_EQ(r.type, PFT_PERF_AUXTRACE);
	PTU_EQ(pft_perf_next(p, &r, sizeof(r)), 0);
	PTU_EQ(r.offset, l.comm2);
	pft_perf_close(p);
}

/* Read until the first failure; it must be BAD_FILE at @want_offset. */
static void expect_bad(const struct img *m, uint64_t want_offset, int line)
{
	struct pft_perf_record r;
	struct pft_perf_header h;
	uint64_t off = ~0ull;
	int err = 0, n = 0;

	struct pft_perf *p = pft_perf_open(save(m), &err);
	PTU_CHECK(p != NULL);
	if (!p)
		return;
	err = pft_perf_header(p, &h, sizeof(h));
	while (!err && n++ < 100)
		err = pft_perf_next(p, &r, sizeof(r));
	pft_perf_get_offset(p, &off);
	if (err != -PFT_ERR_BAD_FILE || off != want_offset)
		fprintf(stderr, "line %d: error %d at 0x%llx, want BAD_FILE at 0x%llx\n", line,
			err, (unsigned long long)off, (unsigned long long)want_offset);
	PTU_EQ(err, -PFT_ERR_BAD_FILE);
	PTU_EQ(off, want_offset);
	/* Sticky. */
	PTU_EQ(pft_perf_next(p, &r, sizeof(r)), -PFT_ERR_BAD_FILE);
	pft_perf_close(p);
}

#define BAD(m, off) expect_bad(m, off, __LINE__)

/* Read to the end: the file is cut short, in the record or table at
 * @want_cut (pft_perf_header()'s cut_at); the records before it read. */
static void expect_cut(const struct img *m, uint64_t want_cut, int want_records, int line)
{
	struct pft_perf_record r;
	struct pft_perf_header h;
	int err = 0, n = 0;

	struct pft_perf *p = pft_perf_open(save(m), &err);
	PTU_CHECK(p != NULL);
	if (!p)
		return;
	err = pft_perf_header(p, &h, sizeof(h));
	while (!err && n < 100 && (err = pft_perf_next(p, &r, sizeof(r))) == 0)
		n++;
	PTU_EQ(pft_perf_header(p, &h, sizeof(h)), 0);
	if (err != -PFT_ERR_EOS || h.cut_at != want_cut || n != want_records)
		fprintf(stderr, "line %d: error %d, cut at 0x%llx after %d records, want EOS, "
			"0x%llx, %d\n", line, err, (unsigned long long)h.cut_at, n,
			(unsigned long long)want_cut, want_records);
	PTU_EQ(err, -PFT_ERR_EOS);
	PTU_EQ(h.cut_at, want_cut);
	PTU_EQ(n, want_records);
	pft_perf_close(p);
}

#define CUT(m, at, n) expect_cut(m, at, n, __LINE__)

static void malformed_header(void)
{
	struct img m, good;
	struct layout l;

	build(&good, &l);
	m = good;
	m.b[7] = '1';                       /* PERFILE1 */
	BAD(&m, 0);
	m = good;
	m.n = 50;                           /* shorter than the header */
	BAD(&m, 0);
	m = good;
	set64(&m, 8, 96);                   /* header size */
	BAD(&m, 8);
	m = good;
	set64(&m, 16, 40);                  /* attr entry smaller than VER0 + IDs */
	BAD(&m, 16);
	m = good;
	set64(&m, 32, ATTR_ENTRY + 8);      /* attrs not a multiple of entries */
	BAD(&m, 24);
	m = good;
	set64(&m, 24, ~0ull - 8);           /* attrs offset + size overflows */
	BAD(&m, 24);
	m = good;
	set64(&m, 48, m.n);                 /* data section past the end: cut */
	BAD(&m, l.feat_table);              /* short, but what follows is no record */
	m = good;
	set16(&m, 120 + 4, 200);            /* attr.size over its entry */
	BAD(&m, 120 + 4);
	m = good;
	set64(&m, 120 + 128 + 8, 12);       /* IDs size not whole u64s */
	BAD(&m, 120 + 128);
	m = good;
	set64(&m, l.feat_table + 24, m.n);  /* feature section past the end: */
	CUT(&m, l.index, 12);               /* cut short, the data whole */
	m = good;
	m.n = l.feat_table + 20;            /* feature table cut short */
	set64(&m, l.feat_table, l.feat_table); /* (its first section kept */
	set64(&m, l.feat_table + 8, 0);     /* inside, and empty) */
	CUT(&m, l.feat_table + 16, 11);
	m = good;
	m.n = l.auxtrace + 48 + 5;          /* cut in the AUXTRACE record's trace */
	CUT(&m, l.auxtrace, 10);
	m = good;
	m.n = l.comm2 + 12;                 /* cut in the record after it */
	CUT(&m, l.comm2, 10);
	m = good;
	set64(&m, l.feat_table + 16, m.n + 8); /* a feature section after the end */
	BAD(&m, l.feat_table + 16);         /* is no cut: the table is whole */
}

static void malformed_records(void)
{
	struct img m, good;
	struct layout l;

	build(&good, &l);
	m = good;
	set16(&m, l.comm + 6, 0);           /* size 0: would never advance */
	BAD(&m, l.comm);
	m = good;
	set16(&m, l.comm + 6, 4);           /* smaller than the header */
	BAD(&m, l.comm);
	m = good;
	set16(&m, l.comm2 + 6, 0xfff8);     /* past the end of the data */
	BAD(&m, l.comm2);
	m = good;
	/* A record type in the feature entries' range would come back as
	 * a FEAT_BUILD_ID with no filename. */
	set16(&m, l.comm2, PFT_PERF_FEAT_BUILD_ID & 0xffff);
	set16(&m, l.comm2 + 2, PFT_PERF_FEAT_BUILD_ID >> 16);
	BAD(&m, l.comm2);
	m = good;
	/* The feature table follows the data section: without features,
	 * the data can end anywhere. */
	set64(&m, 72, 0);
	set64(&m, 48, l.comm2 + 4 - 264);   /* data ends inside a header */
	BAD(&m, l.comm2);
	m = good;
	set64(&m, 72, 0);
	set64(&m, 48, l.comm2 + 16 - 264);  /* data ends inside a record */
	BAD(&m, l.comm2);
	m = good;
	set16(&m, l.aux + 6, 8 + 16);       /* AUX without room for its fields */
	BAD(&m, l.aux);
	m = good;
	set16(&m, l.comm + 6, 8 + 8 + 8);   /* COMM: the trailer eats the name */
	BAD(&m, l.comm);
	m = good;
	memset(m.b + l.comm + 16, 'x', 8);  /* COMM: no NUL */
	BAD(&m, l.comm);
	m = good;
	m.b[l.mmap2_bid + 8 + 32] = 21;     /* build ID longer than 20 */
	BAD(&m, l.mmap2_bid);
	m = good;
	set64(&m, l.auxtrace + 8, 1ull << 40);  /* AUXTRACE bytes past the end */
	BAD(&m, l.auxtrace);
	m = good;
	set64(&m, l.auxtrace + 8, ~0ull);   /* ... and overflowing */
	BAD(&m, l.auxtrace);
	m = good;
	set64(&m, l.info + 16, 3);          /* cs_etm header version 3 */
	BAD(&m, l.info);
	m = good;
	set64(&m, l.info + 24, 9ull << 32 | 0xffffffffu);  /* 2^32 - 1 CPUs */
	BAD(&m, l.info);
	m = good;
	set64(&m, l.info + 24, 9ull << 32 | 3);  /* 3 CPUs, 2 blocks */
	BAD(&m, l.info);
	m = good;
	set64(&m, l.info + 56, ~0ull);      /* parameter count overflows */
	BAD(&m, l.info);
	m = good;
	set64(&m, l.info + 56, 3);          /* PTM block with 3 registers */
	BAD(&m, l.info);
	m = good;
	set64(&m, l.info + 40, 0x6060606060606060ull);  /* unknown magic */
	BAD(&m, l.info);
	m = good;
	set16(&m, l.info + 6, 8 + 8 + 8 * 2);  /* cs_etm without its header */
	set16(&m, l.info + 6 + 8 + 8 + 16, 0);
	BAD(&m, l.info);
	m = good;
	set64(&m, l.index, 1ull << 60);     /* index count overflows */
	BAD(&m, l.index);
	m = good;
	set16(&m, l.build_id + 6, 0xff00);  /* build ID event past its section */
	BAD(&m, l.build_id);
}

/* One AUXTRACE_INFO record: version 0 (no parameter count) or 2 (trace
 * ID pending). */
static void info_versions(void)
{
	struct pft_perf_record r;
	struct pft_perf_cpu c;
	struct img m;
	size_t at;

	for (int version = 0; version <= 2; version += 2) {
		memset(&m, 0, sizeof(m));
		header(&m);
		attr(&m);
		size_t data = m.n;
		at = record(&m, 70, 0);
		u32(&m, 3);
		u32(&m, 0);
		u64(&m, (uint64_t)version);
		u64(&m, 9ull << 32 | 1);
		u64(&m, 0);
		u64(&m, 0x3030303030303030ull);
		u64(&m, 5);            /* cpu */
		if (version)
			u64(&m, 4);
		u64(&m, 0x4000);       /* ETMCR: context ID (1 byte) */
		u64(&m, version ? 0x80000000u | 0x1a : 0x1a);
		u64(&m, 0);
		u64(&m, 0x411cf301);   /* PFTv1.0 */
		end_record(&m, at);
		set64(&m, 40, data);
		set64(&m, 48, m.n - data);

		struct pft_perf *p = pft_perf_open(save(&m), NULL);
		PTU_CHECK(p != NULL);
		if (!p)
			return;
		PTU_EQ(pft_perf_next(p, &r, sizeof(r)), 0);
		PTU_EQ(r.u.auxtrace_info.version, version);
		PTU_EQ(r.u.auxtrace_info.nr_cpus, 1);
		PTU_EQ(pft_perf_cpu(p, 0, &c, sizeof(c)), 0);
		PTU_EQ(c.cpu, 5);
		PTU_EQ(c.etmcr, 0x4000);
		PTU_EQ(c.etmidr, 0x411cf301);
		PTU_EQ(c.trace_id_pending, version == 2);
		struct pft_ptm_config cfg;
		pft_ptm_config_init(&cfg);
		PTU_EQ(pft_perf_cpu_config(&c, &cfg), 0);
		PTU_EQ(cfg.version_minor, 0);
		PTU_EQ(cfg.ctxid_bytes, 1);
		PTU_EQ(cfg.trace_id, 0x1a);
		PTU_EQ(pft_perf_next(p, &r, sizeof(r)), -PFT_ERR_EOS);
		pft_perf_close(p);
	}
}

/* Two attributes with different sample types: the trailer's last u64
 * (IDENTIFIER) says whose layout a record's trailer has. */
static void trailer_by_identifier(void)
{
	struct pft_perf_record r;
	struct img m;
	size_t at;

	memset(&m, 0, sizeof(m));
	header(&m);
	attr(&m);                  /* IDs 7, 8 at 104: TID TIME CPU IDENTIFIER */
	size_t b = m.n;            /* 264: the second attribute */
	u32(&m, 1);
	u32(&m, 128);
	u64(&m, 0);
	u64(&m, 0);
	u64(&m, 1u << 1 | 1u << 16);  /* TID, IDENTIFIER */
	u64(&m, 0);
	u64(&m, 1ull << 18);
	while (m.n < b + 128)
		u8(&m, 0);
	u64(&m, b + ATTR_ENTRY);   /* its ID right after it */
	u64(&m, 8);
	u64(&m, 20);
	set64(&m, 32, 2 * ATTR_ENTRY);
	size_t data = m.n;

	at = record(&m, 3, 0);     /* COMM, trailer of the second attribute */
	u32(&m, 300);
	u32(&m, 301);
	str(&m, "second");
	u32(&m, 300);
	u32(&m, 301);
	u64(&m, 20);
	end_record(&m, at);
	at = record(&m, 3, 0);     /* COMM, trailer of the first */
	u32(&m, 100);
	u32(&m, 101);
	str(&m, "first");
	trailer(&m);
	end_record(&m, at);
	at = record(&m, 3, 0);     /* an ID no attribute has: no trailer known */
	u32(&m, 400);
	u32(&m, 401);
	str(&m, "nobody");
	u64(&m, 99);
	end_record(&m, at);
	set64(&m, 40, data);
	set64(&m, 48, m.n - data);

	struct pft_perf *p = pft_perf_open(save(&m), NULL);
	PTU_CHECK(p != NULL);
	if (!p)
		return;
	PTU_EQ(pft_perf_next(p, &r, sizeof(r)), 0);
	PTU_STREQ(r.u.comm.comm, "second");
	PTU_EQ(r.sample_id.valid, 1);
	PTU_EQ(r.sample_id.tid, 301);
	PTU_EQ(r.sample_id.has_time, 0);
	PTU_EQ(r.sample_id.has_cpu, 0);
	PTU_EQ(r.sample_id.id, 20);
	PTU_EQ(pft_perf_next(p, &r, sizeof(r)), 0);
	PTU_STREQ(r.u.comm.comm, "first");
	check_trailer(&r);
	PTU_EQ(pft_perf_next(p, &r, sizeof(r)), 0);
	PTU_STREQ(r.u.comm.comm, "nobody");
	PTU_EQ(r.sample_id.valid, 0);
	PTU_EQ(pft_perf_next(p, &r, sizeof(r)), -PFT_ERR_EOS);
	pft_perf_close(p);
}

static void bad_arguments(void)
{
	struct pft_perf_record r;
	struct pft_perf_header h;
	struct pft_perf_cpu c;
	struct pft_ptm_config cfg;
	char path[80];
	uint64_t off;
	uint8_t b[4];
	int err = 0;

	PTU_CHECK(pft_perf_open(NULL, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	PTU_CHECK(pft_perf_open("/nonexistent/perf.data", &err) == NULL);
	PTU_EQ(err, -PFT_ERR_BAD_FILE);
	PTU_CHECK(pft_perf_open(dir, &err) == NULL);      /* a directory */
	PTU_EQ(err, -PFT_ERR_BAD_FILE);
	/* A FIFO with no writer: refused at once, never waiting. */
	snprintf(path, sizeof(path), "%s/fifo", dir);
	PTU_EQ(mkfifo(path, 0600), 0);
	PTU_CHECK(pft_perf_open(path, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_BAD_FILE);
	unlink(path);
	pft_perf_close(NULL);
	PTU_EQ(pft_perf_next(NULL, &r, sizeof(r)), -PFT_ERR_INVALID);
	PTU_EQ(pft_perf_header(NULL, &h, sizeof(h)), -PFT_ERR_INVALID);
	PTU_EQ(pft_perf_attr(NULL, 0, NULL, 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_perf_read_aux(NULL, b, 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_perf_get_offset(NULL, &off), -PFT_ERR_INVALID);
	PTU_EQ(pft_perf_cpu(NULL, 0, &c, sizeof(c)), -PFT_ERR_INVALID);
	PTU_EQ(pft_perf_cpu_config(NULL, &cfg), -PFT_ERR_INVALID);

	struct img m;
	struct layout l;
	build(&m, &l);
	struct pft_perf *p = pft_perf_open(save(&m), NULL);
	PTU_CHECK(p != NULL);
	if (!p)
		return;
	PTU_EQ(pft_perf_next(p, NULL, sizeof(r)), -PFT_ERR_INVALID);
	PTU_EQ(pft_perf_next(p, &r, 0), -PFT_ERR_INVALID);
	PTU_EQ(pft_perf_header(p, &h, 0), -PFT_ERR_INVALID);
	PTU_EQ(pft_perf_read_aux(p, NULL, 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_perf_read_aux(p, b, sizeof(b)), 0);    /* no AUXTRACE yet */
	PTU_EQ(pft_perf_get_offset(p, NULL), -PFT_ERR_INVALID);
	pft_perf_close(p);

	struct pft_perf_write_config wc = { .size = sizeof(wc) };
	PTU_CHECK(pft_perf_write_alloc(NULL, &wc, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	PTU_CHECK(pft_perf_write_alloc(path, NULL, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	PTU_CHECK(pft_perf_write_alloc("/nonexistent/x.data", &wc, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_BAD_FILE);
	PTU_EQ(pft_perf_write_mmap(NULL, 0, 1, 0, "/x"), -PFT_ERR_INVALID);
	PTU_EQ(pft_perf_write_trace(NULL, b, 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_perf_write_finish(NULL), -PFT_ERR_INVALID);
	pft_perf_write_free(NULL);
}

/* The writer's file, read back: what `perf record -e cs_etm//u` would
 * have written (the layout in pft.h), with the values given here. */
static void writer_round_trip(void)
{
	struct pft_perf_write_config wc = {
		.size = sizeof(wc), .etmcr = 0x1000, .etmtraceidr = 0x10,
		.etmccer = 0x34c01ac2, .etmidr = 0x411cf312, .pid = 77, .tid = 78,
		.cpu = 2, .comm = "demo", .raw = 1
	};
	uint8_t trace[20], back[32];
	char path[80];
	int err = 0;

	for (int i = 0; i < 20; i++)
		trace[i] = (uint8_t)(0x80 + i);
	snprintf(path, sizeof(path), "%s/w.data", dir);
	struct pft_perf_writer *w = pft_perf_write_alloc(path, &wc, &err);
	PTU_CHECK(w != NULL);
	if (!w)
		return;
	PTU_EQ(pft_perf_write_mmap(w, 0x10000, 0x5000, 0, "/abs/prog"), 0);
	PTU_EQ(pft_perf_write_trace(w, trace, 13), 0);
	PTU_EQ(pft_perf_write_trace(w, trace + 13, 7), 0);
	PTU_EQ(pft_perf_write_mmap(w, 0, 1, 0, "/late"), -PFT_ERR_INVALID);
	PTU_EQ(pft_perf_write_finish(w), 0);
	PTU_EQ(pft_perf_write_finish(w), -PFT_ERR_INVALID);
	pft_perf_write_free(w);

	struct pft_perf *p = pft_perf_open(path, &err);
	struct pft_perf_header h;
	struct pft_perf_attr a;
	struct pft_perf_record r;
	struct pft_perf_cpu c;
	uint64_t auxtrace_at = 0;
	PTU_CHECK(p != NULL);
	if (!p)
		return;
	PTU_EQ(pft_perf_header(p, &h, sizeof(h)), 0);
	PTU_EQ(h.nr_attrs, 1);
	PTU_EQ(h.features[0], 1ull << 18);
	PTU_EQ(pft_perf_attr(p, 0, &a, sizeof(a)), 0);
	PTU_EQ(a.type, 8);                 /* the default PMU type */
	PTU_EQ(a.config, 0x1000);          /* perf puts ETMCR's options in config */
	PTU_EQ(a.sample_id_all, 1);
	PTU_EQ(a.nr_ids, 1);

	PTU_EQ(pft_perf_next(p, &r, sizeof(r)), 0);
	PTU_EQ(r.type, PFT_PERF_AUXTRACE_INFO);
	PTU_EQ(r.u.auxtrace_info.version, 1);
	PTU_EQ(r.u.auxtrace_info.pmu_type, 8);
	PTU_EQ(r.u.auxtrace_info.nr_cpus, 1);
	PTU_EQ(pft_perf_cpu(p, 0, &c, sizeof(c)), 0);
	PTU_EQ(c.cpu, 2);
	PTU_EQ(c.etmcr, 0x1000);
	PTU_EQ(c.etmtraceidr, 0x10);
	PTU_EQ(c.etmccer, 0x34c01ac2);
	PTU_EQ(c.etmidr, 0x411cf312);

	PTU_EQ(pft_perf_next(p, &r, sizeof(r)), 0);
	PTU_EQ(r.type, PFT_PERF_COMM);
	PTU_EQ(r.u.comm.pid, 77);
	PTU_EQ(r.u.comm.tid, 78);
	PTU_STREQ(r.u.comm.comm, "demo");
	PTU_EQ(r.sample_id.tid, 78);

	PTU_EQ(pft_perf_next(p, &r, sizeof(r)), 0);
	PTU_EQ(r.type, PFT_PERF_MMAP2);
	PTU_EQ(r.u.mmap.pid, 77);
	PTU_EQ(r.u.mmap.addr, 0x10000);
	PTU_EQ(r.u.mmap.len, 0x5000);
	PTU_EQ(r.u.mmap.pgoff, 0);
	PTU_STREQ(r.u.mmap.filename, "/abs/prog");

	PTU_EQ(pft_perf_next(p, &r, sizeof(r)), 0);
	PTU_EQ(r.type, PFT_PERF_AUX);
	PTU_EQ(r.u.aux.aux_offset, 0);
	PTU_EQ(r.u.aux.aux_size, 20);
	PTU_EQ(r.u.aux.flags, PFT_PERF_AUX_RAW);
	PTU_EQ(r.sample_id.pid, 77);

	PTU_EQ(pft_perf_next(p, &r, sizeof(r)), 0);
	PTU_EQ(r.type, PFT_PERF_AUXTRACE);
	auxtrace_at = r.offset;
	PTU_EQ(r.u.auxtrace.size, 24);      /* padded to 8 */
	PTU_EQ(r.u.auxtrace.offset, 0);
	PTU_EQ(r.u.auxtrace.tid, 78);
	PTU_EQ(r.u.auxtrace.cpu, UINT32_MAX);
	PTU_EQ(pft_perf_read_aux(p, back, sizeof(back)), 24);
	PTU_CHECK(memcmp(back, trace, 20) == 0);
	PTU_EQ(back[20] | back[21] | back[22] | back[23], 0);

	PTU_EQ(pft_perf_next(p, &r, sizeof(r)), 0);
	PTU_EQ(r.type, PFT_PERF_FEAT_AUXTRACE_INDEX);
	PTU_EQ(r.u.index.file_offset, auxtrace_at);
	PTU_EQ(r.u.index.size, 48);
	PTU_EQ(pft_perf_next(p, &r, sizeof(r)), -PFT_ERR_EOS);
	pft_perf_close(p);
	unlink(path);
}

int main(void)
{
	char path[64];

	if (!mkdtemp(dir)) {
		fprintf(stderr, "mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	PTU_RUN(read_all_kinds);
	PTU_RUN(skip_unread_trace);
	PTU_RUN(malformed_header);
	PTU_RUN(malformed_records);
	PTU_RUN(info_versions);
	PTU_RUN(trailer_by_identifier);
	PTU_RUN(bad_arguments);
	PTU_RUN(writer_round_trip);
	snprintf(path, sizeof(path), "%s/f.data", dir);
	unlink(path);
	rmdir(dir);
	PTU_MAIN_END();
}
