/* perf.data reader: header, attributes, feature sections and the records
 * a CoreSight decoder needs (shared/spec/perf-data.md).  Streamed: the
 * reader holds one record (at most 64 KiB), the attributes and the
 * cs_etm metadata; trace bytes go straight from the file to the caller. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pft.h"
#include "input/pft_perf.h"
#include "common/pft_size.h"

enum {
	MAX_ATTRS = 256,
	MAX_ATTR_SIZE = 1024,
	MAX_IDS = 4096,      /* identifier -> attribute lookups kept */
	REC_MAX = 0x10000    /* perf_event_header.size is 16 bits */
};

/* How the sample-ID trailer of a record is found. */
enum trailer_mode {
	TRAILER_NONE,        /* no sample_id_all, or attributes disagree */
	TRAILER_COMMON,      /* every attribute has the same sample_type */
	TRAILER_IDENTIFIER   /* they differ; the last u64 names the attribute */
};

enum phase { PHASE_DATA, PHASE_FEATURES, PHASE_END };

struct feature {
	unsigned bit;
	uint64_t offset, size;
};

struct pft_perf {
	FILE *f;
	uint64_t file_size;
	int loaded;             /* header, attributes, feature table read */
	int failed;             /* a BAD_FILE is sticky */
	uint64_t offset;        /* last record, or the fault */

	struct pft_perf_header hdr;
	struct pft_perf_attr *attrs;
	uint64_t *ids;          /* ids[i] belongs to attrs[id_attr[i]] */
	uint32_t *id_attr;
	size_t nr_ids;
	enum trailer_mode trailer;
	uint64_t sample_type;   /* TRAILER_COMMON */

	struct feature feat[2]; /* BUILD_ID, AUXTRACE, in bit order */
	size_t nr_feat;

	enum phase phase;
	uint64_t pos, data_end;
	size_t feat_i;
	uint64_t feat_pos, feat_end, index_left;
	uint64_t aux_pos, aux_left;
	uint64_t aux_skip;      /* pft_perf_seek(): trace bytes to pass over */
	int cut;                /* the data section passes the end of the file */

	struct pft_perf_cpu *cpus;
	size_t nr_cpus;

	uint8_t buf[REC_MAX + 1];   /* the current record, NUL after it */
};

struct pft_perf *pft_perf_open(const char *path, int *errcode)
{
	struct pft_perf *r = NULL;
	struct stat st;
	int err = -PFT_ERR_BAD_FILE, fd;

	if (!path) {
		err = -PFT_ERR_INVALID;
		goto fail;
	}
	/* Non-blocking: a FIFO must not make open wait for a writer. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		goto fail;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		goto fail;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		close(fd);
		err = -PFT_ERR_NOMEM;
		goto fail;
	}
	r->f = fdopen(fd, "rb");
	if (!r->f) {
		close(fd);
		free(r);
		r = NULL;
		goto fail;
	}
	r->file_size = (uint64_t)st.st_size;
	return r;
fail:
	if (errcode)
		*errcode = err;
	return NULL;
}

void pft_perf_close(struct pft_perf *r)
{
	if (!r)
		return;
	fclose(r->f);
	free(r->attrs);
	free(r->ids);
	free(r->id_attr);
	free(r->cpus);
	free(r);
}

static int bad(struct pft_perf *r, uint64_t offset)
{
	r->failed = 1;
	r->offset = offset;
	return -PFT_ERR_BAD_FILE;
}

/* [@offset, @offset + @len) lies inside the file. */
static int in_file(const struct pft_perf *r, uint64_t offset, uint64_t len)
{
	return offset <= r->file_size && len <= r->file_size - offset;
}

static int read_at(struct pft_perf *r, uint64_t offset, void *buf, size_t len)
{
	if (!in_file(r, offset, len) || offset > (uint64_t)INT64_MAX ||
	    fseeko(r->f, (off_t)offset, SEEK_SET) || fread(buf, 1, len, r->f) != len)
		return bad(r, offset);
	return 0;
}

static int read_attr(struct pft_perf *r, uint32_t index)
{
	uint64_t at = r->hdr.attrs_offset + index * r->hdr.attr_size;
	struct pft_perf_attr *a = &r->attrs[index];
	uint8_t *p = r->buf;

	if (read_at(r, at, p, (size_t)r->hdr.attr_size))
		return -PFT_ERR_BAD_FILE;
	a->size = sizeof(*a);
	a->type = perf_get32(p + ATTR_TYPE);
	a->attr_size = perf_get32(p + ATTR_SIZE);
	/* Size 0 is the first version; the IDs section ends the entry. */
	uint32_t sz = a->attr_size ? a->attr_size : PERF_ATTR_SIZE_VER0;
	if (sz < PERF_ATTR_SIZE_VER0 || sz > r->hdr.attr_size - 16)
		return bad(r, at + ATTR_SIZE);
	a->config = perf_get64(p + ATTR_CONFIG);
	a->sample_type = perf_get64(p + ATTR_SAMPLE_TYPE);
	a->flags = perf_get64(p + ATTR_FLAGS);
	a->sample_id_all = (a->flags >> PERF_ATTR_FLAG_SAMPLE_ID_ALL) & 1;

	const uint8_t *ids = p + r->hdr.attr_size - 16;
	uint64_t ids_off = perf_get64(ids), ids_size = perf_get64(ids + 8);
	if (ids_size % 8 || !in_file(r, ids_off, ids_size))
		return bad(r, at + r->hdr.attr_size - 16);
	a->nr_ids = ids_size / 8;
	for (uint64_t i = 0; i < a->nr_ids; i++) {
		uint8_t v[8];
		/* Beyond MAX_IDS only the first is needed. */
		if (i && r->nr_ids >= MAX_IDS)
			break;
		if (read_at(r, ids_off + 8 * i, v, 8))
			return -PFT_ERR_BAD_FILE;
		if (!i)
			a->first_id = perf_get64(v);
		if (r->nr_ids < MAX_IDS) {
			r->ids[r->nr_ids] = perf_get64(v);
			r->id_attr[r->nr_ids++] = index;
		}
	}
	return 0;
}

static void choose_trailer(struct pft_perf *r)
{
	uint32_t n = r->hdr.nr_attrs;
	int same = 1, all_identifier = 1;

	r->trailer = TRAILER_NONE;
	if (!n)
		return;
	for (uint32_t i = 0; i < n; i++) {
		const struct pft_perf_attr *a = &r->attrs[i];
		if (a->sample_type != r->attrs[0].sample_type ||
		    a->sample_id_all != r->attrs[0].sample_id_all)
			same = 0;
		if (!a->sample_id_all || !(a->sample_type & PFT_PERF_SAMPLE_IDENTIFIER))
			all_identifier = 0;
	}
	if (same && r->attrs[0].sample_id_all) {
		r->trailer = TRAILER_COMMON;
		r->sample_type = r->attrs[0].sample_type;
	} else if (!same && all_identifier) {
		r->trailer = TRAILER_IDENTIFIER;
	}
}

/* The feature table after the data section: one {offset, size} per bit
 * set; pft keeps BUILD_ID and AUXTRACE. */
static int read_features(struct pft_perf *r)
{
	uint64_t at = r->hdr.data_offset + r->hdr.data_size;

	if (r->cut)
		return 0;     /* the table is past the end too */
	for (unsigned bit = 0; bit < 256; bit++) {
		uint8_t s[16];

		if (!((r->hdr.features[bit / 64] >> (bit % 64)) & 1))
			continue;
		/* The file ends in the table, or before a section it gives:
		 * cut short; the sections before are kept. */
		if (!in_file(r, at, sizeof(s))) {
			r->hdr.cut_at = at;
			return 0;
		}
		if (read_at(r, at, s, sizeof(s)))
			return -PFT_ERR_BAD_FILE;
		uint64_t off = perf_get64(s), size = perf_get64(s + 8);
		if (off <= r->file_size && !in_file(r, off, size)) {
			r->hdr.cut_at = off;
			return 0;
		}
		if (!in_file(r, off, size))
			return bad(r, at);
		if (bit == PERF_FEAT_BUILD_ID || bit == PERF_FEAT_AUXTRACE)
			r->feat[r->nr_feat++] = (struct feature){ bit, off, size };
		at += 16;
	}
	return 0;
}

static int load(struct pft_perf *r)
{
	uint8_t h[PERF_HEADER_SIZE];

	if (r->failed)
		return -PFT_ERR_BAD_FILE;
	if (r->loaded)
		return 0;
	if (read_at(r, 0, h, sizeof(h)))
		return -PFT_ERR_BAD_FILE;
	/* A big-endian file reads "2ELIFREP" here: not supported either. */
	if (memcmp(h, PERF_MAGIC, 8))
		return bad(r, 0);
	if (perf_get64(h + 8) != PERF_HEADER_SIZE)
		return bad(r, 8);
	r->hdr.size = sizeof(r->hdr);
	r->hdr.attr_size = perf_get64(h + PERF_HDR_ATTR_SIZE);
	r->hdr.attrs_offset = perf_get64(h + PERF_HDR_ATTRS);
	r->hdr.attrs_size = perf_get64(h + PERF_HDR_ATTRS + 8);
	r->hdr.data_offset = perf_get64(h + PERF_HDR_DATA);
	r->hdr.data_size = perf_get64(h + PERF_HDR_DATA + 8);
	for (int i = 0; i < 4; i++)
		r->hdr.features[i] = perf_get64(h + PERF_HDR_FEATURES + 8 * i);
	if (r->hdr.attr_size < PERF_ATTR_SIZE_VER0 + 16 || r->hdr.attr_size > MAX_ATTR_SIZE ||
	    r->hdr.attr_size % 8)
		return bad(r, PERF_HDR_ATTR_SIZE);
	if (!in_file(r, r->hdr.attrs_offset, r->hdr.attrs_size) ||
	    r->hdr.attrs_size % r->hdr.attr_size ||
	    r->hdr.attrs_size / r->hdr.attr_size > MAX_ATTRS)
		return bad(r, PERF_HDR_ATTRS);
	/* A data section past the end of the file: cut short, read to there. */
	if (r->hdr.data_offset > r->file_size)
		return bad(r, PERF_HDR_DATA);
	r->cut = !in_file(r, r->hdr.data_offset, r->hdr.data_size);
	r->hdr.nr_attrs = (uint32_t)(r->hdr.attrs_size / r->hdr.attr_size);

	/* Again after an earlier NOMEM. */
	free(r->attrs);
	free(r->ids);
	free(r->id_attr);
	r->nr_ids = 0;
	r->attrs = calloc(r->hdr.nr_attrs ? r->hdr.nr_attrs : 1, sizeof(*r->attrs));
	r->ids = malloc(MAX_IDS * sizeof(*r->ids));
	r->id_attr = malloc(MAX_IDS * sizeof(*r->id_attr));
	if (!r->attrs || !r->ids || !r->id_attr)
		return -PFT_ERR_NOMEM;
	for (uint32_t i = 0; i < r->hdr.nr_attrs; i++)
		if (read_attr(r, i))
			return -PFT_ERR_BAD_FILE;
	choose_trailer(r);
	if (read_features(r))
		return -PFT_ERR_BAD_FILE;
	r->pos = r->hdr.data_offset;
	r->data_end = r->cut ? r->file_size : r->hdr.data_offset + r->hdr.data_size;
	r->loaded = 1;
	return 0;
}

int pft_perf_header(struct pft_perf *r, struct pft_perf_header *hdr, size_t size)
{
	if (!r || !hdr || size < offsetof(struct pft_perf_header, cut_at))
		return -PFT_ERR_INVALID;
	int err = load(r);
	if (err)
		return err;
	r->hdr.nr_cpus = (uint32_t)r->nr_cpus;
	memcpy(hdr, &r->hdr, size < sizeof(r->hdr) ? size : sizeof(r->hdr));
	return 0;
}

int pft_perf_attr(struct pft_perf *r, size_t index, struct pft_perf_attr *attr, size_t size)
{
	if (!r || !attr || size < sizeof(*attr))
		return -PFT_ERR_INVALID;
	int err = load(r);
	if (err)
		return err;
	if (index >= r->hdr.nr_attrs)
		return -PFT_ERR_EOS;
	memcpy(attr, &r->attrs[index], size < sizeof(*attr) ? size : sizeof(*attr));
	return 0;
}

/* The sample_type that governs the trailer of a record whose body is
 * @body[0..@len), or 0 with *@found = 0 when there is no trailer. */
static uint64_t trailer_type(const struct pft_perf *r, const uint8_t *body, size_t len,
			     int *found)
{
	*found = 0;
	if (r->trailer == TRAILER_COMMON) {
		*found = 1;
		return r->sample_type;
	}
	if (r->trailer == TRAILER_IDENTIFIER && len >= 8) {
		uint64_t id = perf_get64(body + len - 8);
		for (size_t i = 0; i < r->nr_ids; i++)
			if (r->ids[i] == id) {
				*found = 1;
				return r->attrs[r->id_attr[i]].sample_type;
			}
	}
	return 0;
}

/* Parse the sample-ID trailer at the end of @body[0..@len) after @fixed
 * bytes of fields; the length of the fields between them (strings) goes
 * to *@middle.  Returns 0 or -1 when the record is too short. */
static int parse_trailer(const struct pft_perf *r, const uint8_t *body, size_t len,
			 size_t fixed, struct pft_perf_sample_id *sid, size_t *middle)
{
	int found;
	uint64_t st = trailer_type(r, body, len, &found);
	static const uint64_t fields[] = { PFT_PERF_SAMPLE_TID, PFT_PERF_SAMPLE_TIME,
					   PFT_PERF_SAMPLE_ID, PFT_PERF_SAMPLE_STREAM_ID,
					   PFT_PERF_SAMPLE_CPU, PFT_PERF_SAMPLE_IDENTIFIER };
	size_t n = 0;

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		n += (st & fields[i]) ? 8 : 0;
	if (len < fixed || len - fixed < n)
		return -1;
	*middle = len - fixed - n;
	if (!found)
		return 0;
	const uint8_t *p = body + len - n;
	sid->valid = 1;
	if (st & PFT_PERF_SAMPLE_TID) {
		sid->has_tid = 1;
		sid->pid = perf_get32(p);
		sid->tid = perf_get32(p + 4);
		p += 8;
	}
	if (st & PFT_PERF_SAMPLE_TIME) {
		sid->has_time = 1;
		sid->time = perf_get64(p);
		p += 8;
	}
	if (st & PFT_PERF_SAMPLE_ID) {
		sid->has_id = 1;
		sid->id = perf_get64(p);
		p += 8;
	}
	if (st & PFT_PERF_SAMPLE_STREAM_ID) {
		sid->has_stream_id = 1;
		sid->stream_id = perf_get64(p);
		p += 8;
	}
	if (st & PFT_PERF_SAMPLE_CPU) {
		sid->has_cpu = 1;
		sid->cpu = perf_get32(p);
		p += 8;
	}
	if (st & PFT_PERF_SAMPLE_IDENTIFIER) {
		sid->has_id = 1;
		sid->id = perf_get64(p);
	}
	return 0;
}

/* A NUL-terminated string that fills @s[0..@len) with its padding. */
static const char *padded_string(const uint8_t *s, size_t len)
{
	return len && memchr(s, 0, len) ? (const char *)s : NULL;
}

/* cs_etm AUXTRACE_INFO: the header words and one block per CPU. */
static int decode_cs_etm(struct pft_perf *r, struct pft_perf_record *rec, const uint8_t *priv,
			 size_t n)
{
	if (n < CS_ETM_HEADER_WORDS)
		return -1;
	uint64_t version = perf_get64(priv), pmu_cpus = perf_get64(priv + 8);
	uint32_t nr = (uint32_t)pmu_cpus;
	if (version > 2 || nr > (n - CS_ETM_HEADER_WORDS) / 3)
		return -1;
	rec->u.auxtrace_info.version = version;
	rec->u.auxtrace_info.pmu_type = (uint32_t)(pmu_cpus >> 32);
	rec->u.auxtrace_info.nr_cpus = nr;
	rec->u.auxtrace_info.snapshot = perf_get64(priv + 16);

	struct pft_perf_cpu *cpus = calloc(nr ? nr : 1, sizeof(*cpus));
	if (!cpus)
		return -2;
	size_t i = CS_ETM_HEADER_WORDS;
	for (uint32_t c = 0; c < nr; c++) {
		struct pft_perf_cpu *cpu = &cpus[c];
		uint64_t magic, params;

		if (n - i < 2)
			goto bad;
		magic = perf_get64(priv + 8 * i);
		cpu->size = sizeof(*cpu);
		cpu->cpu = (uint32_t)perf_get64(priv + 8 * i + 8);
		i += 2;
		if (magic == CS_ETMV3_MAGIC)
			cpu->etm = PFT_PERF_ETM_V3;
		else if (magic == CS_ETMV4_MAGIC)
			cpu->etm = PFT_PERF_ETM_V4;
		else if (magic == CS_ETE_MAGIC && version > 0)
			cpu->etm = PFT_PERF_ETE;
		else
			goto bad;
		if (version == 0) {
			/* No count: ETMv3 has 4 registers, ETMv4 7. */
			params = cpu->etm == PFT_PERF_ETM_V3 ? 4 : 7;
		} else {
			if (i >= n)
				goto bad;
			params = perf_get64(priv + 8 * i++);
		}
		if (params > n - i || (cpu->etm == PFT_PERF_ETM_V3 && params < 4))
			goto bad;
		if (cpu->etm == PFT_PERF_ETM_V3) {
			const uint8_t *p = priv + 8 * i;
			cpu->etmcr = (uint32_t)perf_get64(p);
			cpu->etmtraceidr = (uint32_t)perf_get64(p + 8);
			cpu->etmccer = (uint32_t)perf_get64(p + 16);
			cpu->etmidr = (uint32_t)perf_get64(p + 24);
			cpu->is_ptm = ((cpu->etmidr >> 8) & 0xf) == 3;
			cpu->trace_id_pending =
				version >= 2 && (cpu->etmtraceidr & CS_ETM_TRACE_ID_PENDING);
		}
		i += (size_t)params;
	}
	if (i != n)
		goto bad;
	free(r->cpus);
	r->cpus = cpus;
	r->nr_cpus = nr;
	return 0;
bad:
	free(cpus);
	return -1;
}

/* Decode the body @b[0..@len) of the record in r->buf.  Returns 0, -1
 * (malformed) or -2 (out of memory). */
static int decode_body(struct pft_perf *r, struct pft_perf_record *rec, uint8_t *b, size_t len)
{
	size_t middle = 0;
	/* Unknown types are skipped whole: their fields are not known, so
	 * neither is where a trailer would start. */
	int trailed = rec->type == PFT_PERF_MMAP || rec->type == PFT_PERF_MMAP2 ||
		      rec->type == PFT_PERF_COMM || rec->type == PFT_PERF_AUX ||
		      rec->type == PFT_PERF_ITRACE_START ||
		      rec->type == PFT_PERF_AUX_OUTPUT_HW_ID;

	if (trailed && parse_trailer(r, b, len, 0, &rec->sample_id, &middle))
		return -1;
	switch (rec->type) {
	case PFT_PERF_MMAP:
	case PFT_PERF_MMAP2: {
		size_t fixed = rec->type == PFT_PERF_MMAP ? 32 : 64;
		if (middle < fixed)
			return -1;
		rec->u.mmap.pid = perf_get32(b);
		rec->u.mmap.tid = perf_get32(b + 4);
		rec->u.mmap.addr = perf_get64(b + 8);
		rec->u.mmap.len = perf_get64(b + 16);
		rec->u.mmap.pgoff = perf_get64(b + 24);
		if (rec->type == PFT_PERF_MMAP2) {
			if (rec->misc & PERF_MISC_MMAP_BUILD_ID) {
				if (b[32] > 20)
					return -1;
				rec->u.mmap.build_id_size = b[32];
				memcpy(rec->u.mmap.build_id, b + 36, b[32]);
			} else {
				rec->u.mmap.maj = perf_get32(b + 32);
				rec->u.mmap.min = perf_get32(b + 36);
				rec->u.mmap.ino = perf_get64(b + 40);
				rec->u.mmap.ino_generation = perf_get64(b + 48);
			}
			rec->u.mmap.prot = perf_get32(b + 56);
			rec->u.mmap.flags = perf_get32(b + 60);
		}
		rec->u.mmap.filename = padded_string(b + fixed, middle - fixed);
		return rec->u.mmap.filename ? 0 : -1;
	}
	case PFT_PERF_COMM:
		if (middle < 8)
			return -1;
		rec->u.comm.pid = perf_get32(b);
		rec->u.comm.tid = perf_get32(b + 4);
		rec->u.comm.comm = padded_string(b + 8, middle - 8);
		return rec->u.comm.comm ? 0 : -1;
	case PFT_PERF_AUX:
		if (middle < 24)
			return -1;
		rec->u.aux.aux_offset = perf_get64(b);
		rec->u.aux.aux_size = perf_get64(b + 8);
		rec->u.aux.flags = perf_get64(b + 16);
		return 0;
	case PFT_PERF_ITRACE_START:
		if (middle < 8)
			return -1;
		rec->u.itrace_start.pid = perf_get32(b);
		rec->u.itrace_start.tid = perf_get32(b + 4);
		return 0;
	case PFT_PERF_AUX_OUTPUT_HW_ID: {
		if (middle < 8)
			return -1;
		uint64_t v = perf_get64(b);
		rec->u.hw_id.hw_id = v;
		rec->u.hw_id.trace_id = (uint8_t)v;
		rec->u.hw_id.sink_id = (uint32_t)(v >> 8);
		rec->u.hw_id.version_minor = (uint8_t)((v >> 56) & 0xf);
		rec->u.hw_id.version_major = (uint8_t)(v >> 60);
		return 0;
	}
	case PFT_PERF_AUXTRACE_INFO:
		if (len < 8 || len % 8)
			return -1;
		rec->u.auxtrace_info.type = perf_get32(b);
		if (rec->u.auxtrace_info.type != PERF_AUXTRACE_CS_ETM)
			return 0;
		return decode_cs_etm(r, rec, b + 8, (len - 8) / 8);
	case PFT_PERF_AUXTRACE:
		if (len < PERF_AUXTRACE_RECORD_SIZE - PERF_EVENT_HEADER_SIZE)
			return -1;
		rec->u.auxtrace.size = perf_get64(b);
		rec->u.auxtrace.offset = perf_get64(b + 8);
		rec->u.auxtrace.reference = perf_get64(b + 16);
		rec->u.auxtrace.idx = perf_get32(b + 24);
		rec->u.auxtrace.tid = perf_get32(b + 28);
		rec->u.auxtrace.cpu = perf_get32(b + 32);
		return 0;
	default:
		return 0;     /* skipped by its size */
	}
}

/* The file ends in the record at @at: the data section ends there. */
static int cut_here(struct pft_perf *r, uint64_t at)
{
	r->hdr.cut_at = at;
	r->pos = r->data_end;
	return 1;
}

/* The next data record: 0, 1 (the file is cut short inside it: no more
 * data records) or an error. */
static int next_data(struct pft_perf *r, struct pft_perf_record *rec)
{
	uint64_t at = r->pos;
	uint8_t *h = r->buf;

	if (r->data_end - at < PERF_EVENT_HEADER_SIZE)
		return r->cut ? cut_here(r, at) : bad(r, at);
	if (read_at(r, at, h, PERF_EVENT_HEADER_SIZE))
		return -PFT_ERR_BAD_FILE;
	rec->type = perf_get32(h);
	rec->misc = perf_get16(h + 4);
	rec->rec_size = perf_get16(h + 6);
	rec->offset = at;
	size_t size = rec->rec_size;
	/* Types from 0x10000 up name feature entries here; perf's record
	 * types are far below (perf refuses any past its last). */
	if (r->cut && size >= PERF_EVENT_HEADER_SIZE && size > r->data_end - at)
		return cut_here(r, at);
	if (size < PERF_EVENT_HEADER_SIZE || size > r->data_end - at ||
	    rec->type >= PFT_PERF_FEAT_AUXTRACE_INDEX)
		return bad(r, at);
	if (read_at(r, at + PERF_EVENT_HEADER_SIZE, h + PERF_EVENT_HEADER_SIZE,
		    size - PERF_EVENT_HEADER_SIZE))
		return -PFT_ERR_BAD_FILE;
	h[size] = 0;
	int err = decode_body(r, rec, h + PERF_EVENT_HEADER_SIZE, size - PERF_EVENT_HEADER_SIZE);
	if (err == -2)
		return -PFT_ERR_NOMEM;
	if (err)
		return bad(r, at);
	r->pos = at + size;
	if (rec->type == PFT_PERF_AUXTRACE) {
		/* The trace bytes follow the record, outside its size; in a
		 * file cut short, those there are. */
		if (rec->u.auxtrace.size > r->data_end - r->pos && r->cut) {
			rec->u.auxtrace.size = r->data_end - r->pos;
			r->hdr.cut_at = at;
		}
		if (rec->u.auxtrace.size > r->data_end - r->pos)
			return bad(r, at);
		uint64_t skip = r->aux_skip < rec->u.auxtrace.size ? r->aux_skip
								     : rec->u.auxtrace.size;
		r->aux_pos = r->pos + skip;
		r->aux_left = rec->u.auxtrace.size - skip;
		r->pos += rec->u.auxtrace.size;
	}
	r->offset = at;
	r->aux_skip = 0;
	return 0;
}

int pft_perf_seek(struct pft_perf *r, uint64_t offset, uint64_t aux_skip)
{
	int err = r ? load(r) : -PFT_ERR_INVALID;

	if (!err && (offset < r->hdr.data_offset || offset >= r->data_end))
		err = -PFT_ERR_INVALID;
	if (err)
		return err;
	/* The next pft_perf_next() reads the record at @offset. */
	r->phase = PHASE_DATA;
	r->pos = offset;
	r->aux_left = 0;
	r->aux_skip = aux_skip;
	return 0;
}

/* Start feature section r->feat_i, or end. */
static int start_feature(struct pft_perf *r)
{
	if (r->feat_i >= r->nr_feat) {
		r->phase = PHASE_END;
		return 0;
	}
	const struct feature *f = &r->feat[r->feat_i];
	r->feat_pos = f->offset;
	r->feat_end = f->offset + f->size;
	if (f->bit == PERF_FEAT_AUXTRACE) {
		uint8_t v[8];
		if (f->size < 8)
			return bad(r, f->offset);
		if (read_at(r, f->offset, v, 8))
			return -PFT_ERR_BAD_FILE;
		r->index_left = perf_get64(v);
		if (r->index_left > (f->size - 8) / 16)
			return bad(r, f->offset);
		r->feat_pos += 8;
	}
	return 0;
}

static int next_build_id(struct pft_perf *r, struct pft_perf_record *rec)
{
	uint64_t at = r->feat_pos;
	uint8_t *b = r->buf;
	enum { FIXED = PERF_EVENT_HEADER_SIZE + 4 + 24 };  /* header, pid, build_id[24] */

	if (r->feat_end - at < FIXED || read_at(r, at, b, FIXED))
		return bad(r, at);
	size_t size = perf_get16(b + 6);
	if (size <= FIXED || size > r->feat_end - at ||
	    read_at(r, at + FIXED, b + FIXED, size - FIXED))
		return bad(r, at);
	rec->type = PFT_PERF_FEAT_BUILD_ID;
	rec->misc = perf_get16(b + 4);
	rec->rec_size = (uint16_t)size;
	rec->offset = at;
	rec->u.build_id.pid = (int32_t)perf_get32(b + 8);
	uint8_t n = (rec->misc & PERF_MISC_BUILD_ID_SIZE) ? b[12 + 20] : 20;
	if (n > 20)
		return bad(r, at);
	rec->u.build_id.build_id_size = n;
	memcpy(rec->u.build_id.build_id, b + 12, n);
	rec->u.build_id.filename = padded_string(b + FIXED, size - FIXED);
	if (!rec->u.build_id.filename)
		return bad(r, at);
	r->feat_pos = at + size;
	return 0;
}

static int next_feature(struct pft_perf *r, struct pft_perf_record *rec)
{
	for (;;) {
		if (r->phase == PHASE_END)
			return -PFT_ERR_EOS;
		const struct feature *f = &r->feat[r->feat_i];
		if (f->bit == PERF_FEAT_AUXTRACE && r->index_left) {
			uint8_t e[16];
			if (read_at(r, r->feat_pos, e, sizeof(e)))
				return -PFT_ERR_BAD_FILE;
			rec->type = PFT_PERF_FEAT_AUXTRACE_INDEX;
			rec->offset = r->feat_pos;
			rec->u.index.file_offset = perf_get64(e);
			rec->u.index.size = perf_get64(e + 8);
			r->feat_pos += 16;
			r->index_left--;
			r->offset = rec->offset;
			return 0;
		}
		if (f->bit == PERF_FEAT_BUILD_ID && r->feat_pos < r->feat_end) {
			int err = next_build_id(r, rec);
			if (!err)
				r->offset = rec->offset;
			return err;
		}
		r->feat_i++;
		int err = start_feature(r);
		if (err)
			return err;
	}
}

int pft_perf_next(struct pft_perf *r, struct pft_perf_record *out, size_t size)
{
	struct pft_perf_record rec;
	int err;

	if (!r || !out || size < sizeof(*out))
		return -PFT_ERR_INVALID;
	err = load(r);
	if (err)
		return err;
	r->aux_left = 0;
	do {
		memset(&rec, 0, sizeof(rec));
		rec.size = sizeof(rec);
		if (r->phase == PHASE_DATA && r->pos == r->data_end) {
			r->phase = PHASE_FEATURES;
			r->feat_i = 0;
			err = start_feature(r);
			if (err)
				return err;
		}
		err = r->phase == PHASE_DATA ? next_data(r, &rec) : next_feature(r, &rec);
	} while (err == 1);
	if (err)
		return err;
	memcpy(out, &rec, size < sizeof(rec) ? size : sizeof(rec));
	return 0;
}

int pft_perf_read_aux(struct pft_perf *r, uint8_t *buf, size_t len)
{
	if (!r || !buf)
		return -PFT_ERR_INVALID;
	if (r->failed)
		return -PFT_ERR_BAD_FILE;
	if (len > INT_MAX)
		len = INT_MAX;
	if (len > r->aux_left)
		len = (size_t)r->aux_left;
	if (!len)
		return 0;
	if (read_at(r, r->aux_pos, buf, len))
		return -PFT_ERR_BAD_FILE;
	r->aux_pos += len;
	r->aux_left -= len;
	return (int)len;
}

int pft_perf_get_offset(const struct pft_perf *r, uint64_t *offset)
{
	if (!r || !offset)
		return -PFT_ERR_INVALID;
	*offset = r->offset;
	return 0;
}

int pft_perf_cpu(const struct pft_perf *r, size_t index, struct pft_perf_cpu *cpu, size_t size)
{
	if (!r || !cpu || size < PFT_FIRST_SIZE(struct pft_perf_cpu))
		return -PFT_ERR_INVALID;
	if (index >= r->nr_cpus)
		return -PFT_ERR_EOS;
	pft_copy_known(cpu, &r->cpus[index], size, sizeof(*cpu));
	return 0;
}

int pft_perf_cpu_config(const struct pft_perf_cpu *cpu, struct pft_ptm_config *cfg)
{
	if (!cpu || !cfg)
		return -PFT_ERR_INVALID;
	if (cpu->etm != PFT_PERF_ETM_V3)
		return -PFT_ERR_NOT_SUPPORTED;
	return pft_ptm_config_from_regs(cfg, cpu->etmcr, cpu->etmccer, cpu->etmidr,
				    cpu->etmtraceidr);
}
