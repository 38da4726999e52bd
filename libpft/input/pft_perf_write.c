/* perf.data writer: what `perf record -e cs_etm//u -- prog` writes for one
 * thread traced by one PTM (per-thread mode), so that Linux perf decodes
 * pft's trace.  Layout:
 *
 *   header | attribute ID | attribute | data section | feature table | index
 *
 * The data section holds AUXTRACE_INFO, COMM, the MMAP2s, one AUX record
 * and one AUXTRACE record followed by the trace bytes; the sizes in the
 * AUX and AUXTRACE records and in the header are filled in at the end.
 *
 * What perf 6.1 needs to decode it, found by trying (tests/perf):
 *  - the HEADER_AUXTRACE index: perf queues trace only for AUX records it
 *    can place, through the index, inside an AUXTRACE buffer; the index
 *    size of an entry is the record's header size, without the bytes;
 *  - an ID for the attribute and IDENTIFIER in its sample_type: perf adds
 *    an attribute for its samples and then finds a record's by the ID;
 *  - no CPU in the sample-ID trailer: per thread, perf matches an AUX
 *    record to an AUXTRACE buffer of CPU -1 only when it has none either;
 *  - attr.type equal to the PMU type in AUXTRACE_INFO, header version 1
 *    (6.1 refuses 2), and for the memory image MMAP2 records of the
 *    traced thread (named by COMM) with absolute paths.
 * No other feature section (HOSTNAME, NRCPUS, PMU_MAPPINGS, ...) is needed.
 * HEADER_BUILD_ID, with the GNU build ID of each mapped ELF that has one,
 * lets perf and pft find the file in a build-id cache when it has moved. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "pft.h"
#include "image/pft_elf.h"
#include "input/pft_perf.h"
#include "common/pft_size.h"

enum {
	ATTR_ID = 1,
	IDS_OFFSET = PERF_HEADER_SIZE,
	ATTRS_OFFSET = IDS_OFFSET + 8,
	ATTR_ENTRY = PERF_ATTR_SIZE_WRITTEN + 16,     /* attr + IDs section */
	DATA_OFFSET = ATTRS_OFFSET + ATTR_ENTRY,
	MAX_NAME = 4096,
	DEFAULT_PMU_TYPE = 8,
	/* The sample-ID trailer this writer's attribute selects: TID and
	 * IDENTIFIER (perf finds the attribute of a record by it once it has
	 * added its own for the decoded samples).  Not CPU: in per-thread mode
	 * perf (6.1) matches an AUX record to its AUXTRACE buffer only if
	 * both have no CPU. */
	TRAILER = 16,
	/* A build_id_event: header, pid, the ID (20 bytes, its size, 3
	 * reserved), then the file name padded to 64. */
	BUILD_ID_FIXED = PERF_EVENT_HEADER_SIZE + 4 + 24,
	BUILD_ID_NAME_ALIGN = 64,
	AUX_RECORD_SIZE = PERF_EVENT_HEADER_SIZE + 24 + TRAILER,
	ETM_PARAMS = 4,
	/* cs_etm header, then magic, cpu, parameter count and 4 registers. */
	INFO_WORDS = CS_ETM_HEADER_WORDS + 3 + ETM_PARAMS,
	INFO_SIZE = PERF_EVENT_HEADER_SIZE + 8 + 8 * INFO_WORDS
};

struct build_id {
	char *filename;
	uint8_t id[PFT_ELF_BUILD_ID_MAX];
	uint8_t size;
};

struct pft_perf_writer {
	FILE *f;
	struct pft_perf_write_config wc;
	uint64_t pos;              /* bytes written */
	uint64_t aux_at;           /* offset of the AUX record, 0 before trace */
	uint64_t trace_bytes;
	struct build_id *ids;      /* one per mapped file with a build ID */
	size_t nr_ids;
	int finished, failed;
};

static int put(struct pft_perf_writer *w, const void *p, size_t n)
{
	if (w->failed || fwrite(p, 1, n, w->f) != n) {
		w->failed = 1;
		return -PFT_ERR_BAD_FILE;
	}
	w->pos += n;
	return 0;
}

static int put_at(struct pft_perf_writer *w, uint64_t at, const void *p, size_t n)
{
	if (w->failed || fseeko(w->f, (off_t)at, SEEK_SET) || fwrite(p, 1, n, w->f) != n ||
	    fseeko(w->f, (off_t)w->pos, SEEK_SET)) {
		w->failed = 1;
		return -PFT_ERR_BAD_FILE;
	}
	return 0;
}

static void event_header(uint8_t *p, uint32_t type, uint16_t misc, size_t size)
{
	perf_put32(p, type);
	perf_put16(p + 4, misc);
	perf_put16(p + 6, (uint16_t)size);
}

/* The trailer of every kernel record. */
static void trailer(const struct pft_perf_writer *w, uint8_t *p)
{
	perf_put32(p, w->wc.pid);
	perf_put32(p + 4, w->wc.tid);
	perf_put64(p + 8, ATTR_ID);
}

static size_t padded(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

static int write_attr(struct pft_perf_writer *w)
{
	uint8_t p[8 + ATTR_ENTRY] = { 0 };
	uint8_t *a = p + 8;

	perf_put64(p, ATTR_ID);
	perf_put32(a + ATTR_TYPE, w->wc.pmu_type);
	perf_put32(a + ATTR_SIZE, PERF_ATTR_SIZE_WRITTEN);
	/* perf passes the ETMCR option bits in config and copies them into
	 * the metadata's ETMCR. */
	perf_put64(a + ATTR_CONFIG, w->wc.etmcr);
	perf_put64(a + ATTR_SAMPLE_PERIOD, 1);
	perf_put64(a + ATTR_SAMPLE_TYPE, PFT_PERF_SAMPLE_IP | PFT_PERF_SAMPLE_TID |
					   PFT_PERF_SAMPLE_PERIOD | PFT_PERF_SAMPLE_IDENTIFIER);
	/* exclude_kernel, exclude_hv (a /u event), sample_id_all. */
	perf_put64(a + ATTR_FLAGS, 1ull << 5 | 1ull << 6 | 1ull << PERF_ATTR_FLAG_SAMPLE_ID_ALL);
	perf_put64(a + PERF_ATTR_SIZE_WRITTEN, IDS_OFFSET);
	perf_put64(a + PERF_ATTR_SIZE_WRITTEN + 8, 8);
	return put(w, p, sizeof(p));
}

static int write_info(struct pft_perf_writer *w)
{
	const uint64_t words[INFO_WORDS] = {
		1, (uint64_t)w->wc.pmu_type << 32 | 1, 0,
		CS_ETMV3_MAGIC, w->wc.cpu, ETM_PARAMS,
		w->wc.etmcr, w->wc.etmtraceidr, w->wc.etmccer, w->wc.etmidr
	};
	uint8_t p[INFO_SIZE] = { 0 };

	event_header(p, PFT_PERF_AUXTRACE_INFO, 0, sizeof(p));
	perf_put32(p + 8, PERF_AUXTRACE_CS_ETM);
	for (size_t i = 0; i < INFO_WORDS; i++)
		perf_put64(p + 16 + 8 * i, words[i]);
	return put(w, p, sizeof(p));
}

/* A record with a NUL-terminated, 8-byte padded string after @fixed
 * bytes of fields, and the trailer. */
static int write_named(struct pft_perf_writer *w, uint32_t type, const uint8_t *fields,
		       size_t fixed, const char *name)
{
	size_t n = strlen(name), size = PERF_EVENT_HEADER_SIZE + fixed + padded(n + 1) + TRAILER;
	uint8_t *p = calloc(1, size);

	if (!p)
		return -PFT_ERR_NOMEM;
	event_header(p, type, 0, size);
	memcpy(p + PERF_EVENT_HEADER_SIZE, fields, fixed);
	memcpy(p + PERF_EVENT_HEADER_SIZE + fixed, name, n);
	trailer(w, p + size - TRAILER);
	int err = put(w, p, size);
	free(p);
	return err;
}

static int write_comm(struct pft_perf_writer *w, const char *comm)
{
	uint8_t f[8];

	perf_put32(f, w->wc.pid);
	perf_put32(f + 4, w->wc.tid);
	return write_named(w, PFT_PERF_COMM, f, sizeof(f), comm);
}

struct pft_perf_writer *pft_perf_write_alloc(const char *path,
					     const struct pft_perf_write_config *wc,
					     int *errcode)
{
	struct pft_perf_writer *w;
	uint8_t header[PERF_HEADER_SIZE] = { 0 };
	int err = -PFT_ERR_INVALID;

	if (!path || !wc || wc->size < PFT_FIRST_SIZE(struct pft_perf_write_config))
		goto fail;
	const char *comm = wc->comm ? wc->comm : "pft";
	if (strlen(comm) > MAX_NAME)
		goto fail;
	err = -PFT_ERR_NOMEM;
	w = calloc(1, sizeof(*w));
	if (!w)
		goto fail;
	pft_copy_known(&w->wc, wc, wc->size, sizeof(w->wc));
	if (!w->wc.pmu_type)
		w->wc.pmu_type = DEFAULT_PMU_TYPE;
	w->f = fopen(path, "wb");
	if (!w->f) {
		free(w);
		err = -PFT_ERR_BAD_FILE;
		goto fail;
	}
	/* The header is written again at the end, with the sizes. */
	err = put(w, header, sizeof(header));
	if (!err)
		err = write_attr(w);
	if (!err)
		err = write_info(w);
	if (!err)
		err = write_comm(w, comm);
	if (!err)
		return w;
	pft_perf_write_free(w);
fail:
	if (errcode)
		*errcode = err;
	return NULL;
}

/* Keep @filename's build ID, once per file, for HEADER_BUILD_ID. */
static int note_build_id(struct pft_perf_writer *w, const char *filename)
{
	struct build_id b = { 0 };

	for (size_t i = 0; i < w->nr_ids; i++)
		if (!strcmp(w->ids[i].filename, filename))
			return 0;
	b.size = (uint8_t)pft_elf_build_id(filename, b.id);
	if (!b.size)
		return 0;
	struct build_id *ids = realloc(w->ids, (w->nr_ids + 1) * sizeof(*ids));
	if (!ids)
		return -PFT_ERR_NOMEM;
	w->ids = ids;
	b.filename = strdup(filename);
	if (!b.filename)
		return -PFT_ERR_NOMEM;
	w->ids[w->nr_ids++] = b;
	return 0;
}

static size_t build_id_record_size(const struct build_id *b)
{
	size_t n = strlen(b->filename) + 1;
	return BUILD_ID_FIXED + (n + BUILD_ID_NAME_ALIGN - 1) / BUILD_ID_NAME_ALIGN * BUILD_ID_NAME_ALIGN;
}

/* HEADER_BUILD_ID's records, as perf writes them for user-space files:
 * pid -1 (the host), the ID's size given. */
static int write_build_ids(struct pft_perf_writer *w)
{
	for (size_t i = 0; i < w->nr_ids; i++) {
		size_t size = build_id_record_size(&w->ids[i]);
		uint8_t *p = calloc(1, size);
		if (!p)
			return -PFT_ERR_NOMEM;
		event_header(p, 0, PERF_MISC_BUILD_ID_SIZE | PERF_MISC_USER, size);
		perf_put32(p + PERF_EVENT_HEADER_SIZE, UINT32_MAX);
		memcpy(p + PERF_EVENT_HEADER_SIZE + 4, w->ids[i].id, w->ids[i].size);
		p[PERF_EVENT_HEADER_SIZE + 4 + 20] = w->ids[i].size;
		memcpy(p + BUILD_ID_FIXED, w->ids[i].filename, strlen(w->ids[i].filename));
		int err = put(w, p, size);
		free(p);
		if (err)
			return err;
	}
	return 0;
}

int pft_perf_write_mmap(struct pft_perf_writer *w, uint64_t addr, uint64_t len, uint64_t pgoff,
			const char *filename)
{
	uint8_t f[64] = { 0 };

	if (!w || !filename || strlen(filename) > MAX_NAME || w->aux_at || w->finished)
		return -PFT_ERR_INVALID;
	perf_put32(f, w->wc.pid);
	perf_put32(f + 4, w->wc.tid);
	perf_put64(f + 8, addr);
	perf_put64(f + 16, len);
	perf_put64(f + 24, pgoff);
	int err = note_build_id(w, filename);
	if (err)
		return err;
	/* maj, min, ino, ino_generation 0: perf then goes by the path. */
	perf_put32(f + 56, 5);          /* PROT_READ | PROT_EXEC */
	perf_put32(f + 60, 2);          /* MAP_PRIVATE */
	return write_named(w, PFT_PERF_MMAP2, f, sizeof(f), filename);
}

/* The AUX and AUXTRACE records; written first with the sizes 0. */
static int trace_records(struct pft_perf_writer *w, uint64_t size)
{
	uint8_t p[AUX_RECORD_SIZE + PERF_AUXTRACE_RECORD_SIZE] = { 0 };
	uint8_t *aux = p, *at = p + AUX_RECORD_SIZE;

	event_header(aux, PFT_PERF_AUX, 0, AUX_RECORD_SIZE);
	perf_put64(aux + 8, 0);
	perf_put64(aux + 16, size);
	perf_put64(aux + 24, w->wc.raw ? PFT_PERF_AUX_RAW : 0);
	trailer(w, aux + AUX_RECORD_SIZE - TRAILER);
	event_header(at, PFT_PERF_AUXTRACE, 0, PERF_AUXTRACE_RECORD_SIZE);
	/* perf reads the next record right after the bytes: pad to 8. */
	perf_put64(at + 8, padded(size));
	perf_put64(at + 16, 0);           /* offset in the AUX area */
	perf_put64(at + 24, 0);           /* reference */
	perf_put32(at + 32, 0);           /* idx */
	perf_put32(at + 36, w->wc.tid);
	perf_put32(at + 40, UINT32_MAX);  /* per-thread: no CPU */
	if (!w->aux_at) {
		w->aux_at = w->pos;
		return put(w, p, sizeof(p));
	}
	return put_at(w, w->aux_at, p, sizeof(p));
}

int pft_perf_write_trace(struct pft_perf_writer *w, const uint8_t *buf, size_t len)
{
	int err;

	if (!w || (!buf && len) || w->finished)
		return -PFT_ERR_INVALID;
	if (!w->aux_at && (err = trace_records(w, 0)))
		return err;
	if ((err = put(w, buf, len)))
		return err;
	w->trace_bytes += len;
	return 0;
}

int pft_perf_write_finish(struct pft_perf_writer *w)
{
	static const uint8_t zeros[8];
	uint8_t header[PERF_HEADER_SIZE] = { 0 }, table[2 * 16], index[8 + 16];
	int err;

	if (!w || w->finished)
		return -PFT_ERR_INVALID;
	w->finished = 1;
	if (!w->aux_at && (err = trace_records(w, 0)))
		return err;
	if ((err = put(w, zeros, padded(w->trace_bytes) - w->trace_bytes)) ||
	    (err = trace_records(w, w->trace_bytes)))
		return err;

	/* The feature table ({offset, size} per feature, in bit order:
	 * BUILD_ID if any, AUXTRACE), then the sections in that order. */
	uint64_t data_end = w->pos, ids_size = 0, features = 1ull << PERF_FEAT_AUXTRACE;
	size_t nr_feat = 1;
	for (size_t i = 0; i < w->nr_ids; i++)
		ids_size += build_id_record_size(&w->ids[i]);
	if (w->nr_ids) {
		features |= 1ull << PERF_FEAT_BUILD_ID;
		nr_feat++;
	}
	uint64_t at = data_end + 16 * nr_feat;
	uint8_t *t = table;
	if (w->nr_ids) {
		perf_put64(t, at);
		perf_put64(t + 8, ids_size);
		t += 16;
		at += ids_size;
	}
	perf_put64(t, at);
	perf_put64(t + 8, sizeof(index));
	/* HEADER_AUXTRACE: the one AUXTRACE record's offset and size. */
	perf_put64(index, 1);
	perf_put64(index + 8, w->aux_at + AUX_RECORD_SIZE);
	perf_put64(index + 16, PERF_AUXTRACE_RECORD_SIZE);  /* the record, not its bytes */
	if ((err = put(w, table, 16 * nr_feat)) || (err = write_build_ids(w)) ||
	    (err = put(w, index, sizeof(index))))
		return err;

	memcpy(header, PERF_MAGIC, 8);
	perf_put64(header + 8, PERF_HEADER_SIZE);
	perf_put64(header + PERF_HDR_ATTR_SIZE, ATTR_ENTRY);
	perf_put64(header + PERF_HDR_ATTRS, ATTRS_OFFSET);
	perf_put64(header + PERF_HDR_ATTRS + 8, ATTR_ENTRY);
	perf_put64(header + PERF_HDR_DATA, DATA_OFFSET);
	perf_put64(header + PERF_HDR_DATA + 8, data_end - DATA_OFFSET);
	perf_put64(header + PERF_HDR_FEATURES, features);
	if ((err = put_at(w, 0, header, sizeof(header))))
		return err;
	if (fflush(w->f)) {
		w->failed = 1;
		return -PFT_ERR_BAD_FILE;
	}
	return 0;
}

void pft_perf_write_free(struct pft_perf_writer *w)
{
	if (!w)
		return;
	fclose(w->f);
	for (size_t i = 0; i < w->nr_ids; i++)
		free(w->ids[i].filename);
	free(w->ids);
	free(w);
}
