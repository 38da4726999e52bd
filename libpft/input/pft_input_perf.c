/*
 * perf.data as an input: one pass over the records finds the trace units
 * (AUXTRACE_INFO), the queues of AUXTRACE buffers and the mappings; then
 * each queue streams its buffers through its own reader and pipeline, and
 * the queues' items are merged by trace timestamp.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input/pft_input_perf.h"
#include "input/pft_input_ids.h"
#include "common/pft_diag.h"
#include "pft.h"

enum { PERF_READ_BLOCK = 256 * 1024 };

enum { GAP_FLAGS = PFT_PERF_AUX_TRUNCATED | PFT_PERF_AUX_PARTIAL | PFT_PERF_AUX_COLLISION };

struct perf_mmap {
	struct pft_input_perf_mmap pub;
	char *filename, *found;
	int unusable;                 /* found, but no image: said once */
	uint8_t build_id_size;
	uint8_t build_id[20];
};

struct perf_src {
	struct pft_input_source pub;
	char name[48];
	size_t queue;
	int pipe_index;               /* in the queue's pipeline; -1: listed only */
	int is_etm3;
	struct pft_ptm_config ptm;
	struct pft_etm3_config etm3;
	struct pft_pipe_stats done;   /* of the queue's pipelines before a gap */
	struct pft_fit_verdict *fit;  /* a finished queue's misfit, kept */
};

/* The AUXTRACE buffers of one CPU (per-CPU mode) or thread (per thread). */
struct perf_queue {
	uint32_t cpu, tid;            /* cpu UINT32_MAX: per thread */
	size_t first_rec, nrecs;      /* its AUX and AUXTRACE records: p->recs[first..] */
	size_t next_rec;
	uint64_t rec_off;             /* the AUXTRACE record being fed */
	uint64_t aux_read;            /* bytes of it read */
	struct pft_pipe *pipe;
	uint8_t *buf;                 /* the bytes fed last (borrowed by the pipeline) */
	unsigned pipe_format;
	size_t *map;                  /* pipeline source index -> source index */
	size_t nmap;
	uint64_t aux_left;            /* bytes of the current buffer to feed */
	uint64_t aux_end;             /* end of the AUX records seen in the area */
	unsigned next_format;         /* from the last AUX record */
	int saw_aux;
	int lost;                     /* an AUX record flagged trace lost after lost_at */
	uint64_t lost_at;             /* position in the AUX area */
	uint64_t area_pos;            /* AUX area position of the next byte to feed */
	int closing, finished, gap_pending, reader_eof, done;
	int cut;                      /* the file is cut short after its last buffer */
	uint64_t fed;                 /* bytes fed to all its pipelines */
	/* The merge: one item waits, with the last timestamp the queue saw. */
	struct pft_item pending;
	int has_pending;
	uint64_t key;
};

struct perf_in {
	struct pft_input_config cfg;
	char *path;
	struct pft_image *img;
	struct perf_mmap *mm;
	size_t nmm, capmm;
	struct perf_src *src;
	size_t nsrc;
	struct perf_queue *q;
	size_t nq;
	struct pft_perf_cpu *cpus;
	size_t ncpus;
	int trace_ids[1024];          /* AUX_OUTPUT_HW_ID by CPU; -1: none */
	int any_raw;
	uint64_t file_size;           /* when opened (progress is a share of it) */
	uint64_t cut_at;              /* the file is cut short in the record here; 0: whole */
	int cut_in_data;              /* ... in its data section, not the features */
	int ready;                    /* opened without error */
	size_t cur;                   /* queue being read (one at a time) */
	/* One reader for every queue: each reads only its own records, by
	 * their offsets, so the file is read once whatever the queues. */
	struct pft_perf *rd;
	size_t rd_queue;              /* whose AUXTRACE bytes rd is in; SIZE_MAX: none */
	uint64_t *recs;               /* record offsets, queue by queue */
	size_t block;                 /* bytes a queue reads at once */
	size_t *heap;                 /* per CPU: queues with an item waiting, */
	size_t nheap;                 /* least (timestamp, queue) first */
	size_t emitted;               /* the queue whose item went last; SIZE_MAX: none */
	int merging;
	size_t *qhash;                /* (cpu, tid) -> queue + 1; 0: empty */
	size_t qhash_size;            /* a power of two, over twice nq */
	struct pft_diag error;        /* the last failure */
};

static char *dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	if (d)
		memcpy(d, s, n);
	return d;
}

void pft_perf_in_free(struct perf_in *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nq; i++) {
		pft_pipe_free(p->q[i].pipe);
		free(p->q[i].map);
		free(p->q[i].buf);
	}
	free(p->q);
	pft_perf_close(p->rd);
	free(p->recs);
	free(p->heap);
	free(p->qhash);
	for (size_t i = 0; i < p->nsrc; i++)
		free(p->src[i].fit);
	for (size_t i = 0; i < p->nmm; i++) {
		free(p->mm[i].filename);
		free(p->mm[i].found);
	}
	free(p->mm);
	free(p->src);
	free(p->cpus);
	pft_image_free(p->img);
	free(p->path);
	free(p);
}

const struct pft_diag *pft_perf_in_error(const struct perf_in *p)
{
	return &p->error;
}

void pft_perf_in_progress(const struct perf_in *p, uint64_t *done, uint64_t *total)
{
	uint64_t size = p->file_size;
	double passed = 0, recs = 0;

	/* The share of the queues' records passed (the one being fed by
	 * the part of it fed), as a share of the file. */
	for (size_t i = 0; i < p->nq; i++) {
		const struct perf_queue *q = &p->q[i];
		recs += (double)q->nrecs;
		if (q->done || q->reader_eof)
			passed += (double)q->nrecs;
		else if (q->aux_left && q->next_rec)
			passed += (double)(q->next_rec - 1) +
				  (double)q->aux_read / (double)(q->aux_read + q->aux_left);
		else
			passed += (double)q->next_rec;
	}
	*total = size;
	*done = recs > 0 ? (uint64_t)((double)size * (passed / recs)) : 0;
	if (*done > size)
		*done = size;
}

/* The reader's fault as one line naming the file and offset. */
static int reader_fail(struct perf_in *p, struct pft_perf *rd, int err)
{
	uint64_t at = 0;

	if (err == -PFT_ERR_NOMEM)
		return pft_diag_set(&p->error, err, "out of memory");
	pft_perf_get_offset(rd, &at);
	return pft_diag_offset(&p->error, err, p->path, at,
			       "malformed perf.data (a truncated record, "
			       "a size past the end of its section, a record type out of range, "
			       "or a version pft does not know)");
}

/* ---- The first pass: metadata, queues, mappings ---- */

/* The hash table slot of queue key (@cpu, @tid): the queue's, or the
 * empty one where it would go. */
static size_t queue_slot(const struct perf_in *p, uint32_t cpu, uint32_t tid)
{
	uint64_t k = ((uint64_t)cpu << 32 | tid) * 0x9e3779b97f4a7c15u;
	size_t mask = p->qhash_size - 1, i = (size_t)(k >> 32) & mask;

	while (p->qhash[i]) {
		const struct perf_queue *q = &p->q[p->qhash[i] - 1];
		if (q->cpu == cpu && q->tid == tid)
			break;
		i = (i + 1) & mask;
	}
	return i;
}

/* The queue of a per-CPU (@cpu) or per-thread (@cpu UINT32_MAX, @tid)
 * buffer, if there is one; SIZE_MAX if not. */
static size_t find_queue(const struct perf_in *p, uint32_t cpu, uint32_t tid)
{
	if (!p->qhash_size)
		return SIZE_MAX;
	if (cpu != UINT32_MAX)
		tid = UINT32_MAX;
	size_t i = queue_slot(p, cpu, tid);
	return p->qhash[i] ? p->qhash[i] - 1 : SIZE_MAX;
}

/* Room for queue number @n in the table: rebuilt at twice the size when
 * it would be half full. */
static int queue_table_room(struct perf_in *p, size_t n)
{
	if (2 * (n + 1) <= p->qhash_size)
		return 0;
	size_t size = p->qhash_size ? 2 * p->qhash_size : 64;
	size_t *t = calloc(size, sizeof(*t));
	if (!t)
		return -PFT_ERR_NOMEM;
	free(p->qhash);
	p->qhash = t;
	p->qhash_size = size;
	for (size_t i = 0; i < p->nq; i++)
		p->qhash[queue_slot(p, p->q[i].cpu, p->q[i].tid)] = i + 1;
	return 0;
}

static int queue_of(struct perf_in *p, uint32_t cpu, uint32_t tid, size_t *index)
{
	size_t found = find_queue(p, cpu, tid);

	if (found != SIZE_MAX) {
		*index = found;
		return 0;
	}
	if (queue_table_room(p, p->nq) < 0)
		return pft_diag_set(&p->error, -PFT_ERR_NOMEM, "out of memory");
	if (!(p->nq & (p->nq - 1))) {   /* grown at powers of two */
		struct perf_queue *v = realloc(p->q, (p->nq ? 2 * p->nq : 1) * sizeof(*v));
		if (!v)
			return pft_diag_set(&p->error, -PFT_ERR_NOMEM, "out of memory");
		p->q = v;
	}
	struct perf_queue *q = &p->q[p->nq];
	memset(q, 0, sizeof(*q));
	q->cpu = cpu;
	q->tid = cpu == UINT32_MAX ? tid : UINT32_MAX;
	p->qhash[queue_slot(p, q->cpu, q->tid)] = p->nq + 1;
	*index = p->nq++;
	return 0;
}

/* An AUX or AUXTRACE record a queue reads, found by the first pass. */
struct rec_ref {
	uint64_t offset;
	uint32_t cpu, tid;            /* AUX: its sample's; AUXTRACE: its queue's */
	uint8_t aux, has_cpu, has_tid;
	size_t queue;                 /* AUXTRACE: its queue */
};

struct rec_refs {
	struct rec_ref *v;
	size_t n, cap;
};

static int keep_ref(struct perf_in *p, struct rec_refs *r, const struct pft_perf_record *rec,
		    size_t queue)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 256;
		struct rec_ref *v = realloc(r->v, cap * sizeof(*v));
		if (!v)
			return pft_diag_set(&p->error, -PFT_ERR_NOMEM, "out of memory");
		r->v = v;
		r->cap = cap;
	}
	const struct pft_perf_sample_id *id = &rec->sample_id;
	r->v[r->n++] = (struct rec_ref){ .offset = rec->offset, .cpu = id->cpu, .tid = id->tid,
					 .aux = rec->type == PFT_PERF_AUX,
					 .has_cpu = id->valid && id->has_cpu,
					 .has_tid = id->valid && id->has_tid, .queue = queue };
	return 0;
}

/* The queues an AUX record speaks for: with one queue, it unless the
 * record names another CPU or thread; else the CPU's queue and the
 * thread's, those that exist.  Up to 2 in @out; returns how many. */
static size_t aux_queues(const struct perf_in *p, const struct rec_ref *r, size_t out[2])
{
	size_t n = 0, qi;

	if (p->nq == 1) {
		const struct perf_queue *q = &p->q[0];
		int per_cpu = q->cpu != UINT32_MAX;
		if (per_cpu ? !r->has_cpu || r->cpu == q->cpu : !r->has_tid || r->tid == q->tid)
			out[n++] = 0;
		return n;
	}
	if (r->has_cpu && r->cpu != UINT32_MAX && (qi = find_queue(p, r->cpu, 0)) != SIZE_MAX)
		out[n++] = qi;
	if (r->has_tid && (qi = find_queue(p, UINT32_MAX, r->tid)) != SIZE_MAX)
		out[n++] = qi;
	return n;
}

/* Each queue's records, in file order, into p->recs. */
static int index_records(struct perf_in *p, const struct rec_refs *r)
{
	size_t total = 0, qs[2];

	for (size_t i = 0; i < r->n; i++) {
		size_t n = r->v[i].aux ? aux_queues(p, &r->v[i], qs) : 1;
		for (size_t k = 0; k < n; k++)
			p->q[r->v[i].aux ? qs[k] : r->v[i].queue].nrecs++;
		total += n;
	}
	p->recs = malloc((total ? total : 1) * sizeof(*p->recs));
	if (!p->recs)
		return pft_diag_set(&p->error, -PFT_ERR_NOMEM, "out of memory");
	for (size_t i = 0, at = 0; i < p->nq; i++) {
		p->q[i].first_rec = at;
		at += p->q[i].nrecs;
	}
	for (size_t i = 0; i < r->n; i++) {
		size_t n = r->v[i].aux ? aux_queues(p, &r->v[i], qs) : 1;
		for (size_t k = 0; k < n; k++) {
			struct perf_queue *q = &p->q[r->v[i].aux ? qs[k] : r->v[i].queue];
			p->recs[q->first_rec + q->next_rec++] = r->v[i].offset;
		}
	}
	for (size_t i = 0; i < p->nq; i++)
		p->q[i].next_rec = 0;
	return 0;
}

static int keep_mmap(struct perf_in *p, const struct pft_perf_record *rec)
{
	const char *name = rec->u.mmap.filename;

	/* Not the kernel's (pid -1), nor anonymous or special mappings, nor
	 * data (MMAP2 without PROT_EXEC). */
	if (rec->u.mmap.pid == UINT32_MAX || !name || name[0] != '/' ||
	    (rec->type == PFT_PERF_MMAP2 && !(rec->u.mmap.prot & 4)))
		return 0;
	if (p->nmm == p->capmm) {
		size_t cap = p->capmm ? 2 * p->capmm : 16;
		struct perf_mmap *v = realloc(p->mm, cap * sizeof(*v));
		if (!v)
			return pft_diag_set(&p->error, -PFT_ERR_NOMEM, "out of memory");
		p->mm = v;
		p->capmm = cap;
	}
	struct perf_mmap *m = &p->mm[p->nmm];
	memset(m, 0, sizeof(*m));
	m->filename = dup_str(name);
	if (!m->filename)
		return pft_diag_set(&p->error, -PFT_ERR_NOMEM, "out of memory");
	m->pub.offset = rec->offset;
	m->pub.pid = rec->u.mmap.pid;
	m->pub.addr = rec->u.mmap.addr;
	m->pub.len = rec->u.mmap.len;
	m->pub.pgoff = rec->u.mmap.pgoff;
	m->build_id_size = rec->u.mmap.build_id_size;
	memcpy(m->build_id, rec->u.mmap.build_id, sizeof(m->build_id));
	p->nmm++;
	return 0;
}

static void note_build_id(struct perf_in *p, const struct pft_perf_record *rec)
{
	for (size_t i = 0; i < p->nmm; i++) {
		struct perf_mmap *m = &p->mm[i];
		if (!m->build_id_size && rec->u.build_id.filename &&
		    !strcmp(m->filename, rec->u.build_id.filename)) {
			m->build_id_size = rec->u.build_id.build_id_size;
			memcpy(m->build_id, rec->u.build_id.build_id, sizeof(m->build_id));
		}
	}
}

static int scan(struct perf_in *p)
{
	struct pft_perf_record rec;
	struct rec_refs refs = { 0 };
	struct pft_perf_header hdr;
	size_t last_q = SIZE_MAX;     /* of the last AUXTRACE buffer */
	int err, have_info = 0;
	struct pft_perf *rd = pft_perf_open(p->path, &err);

	if (!rd)
		return pft_diag_file(&p->error, err, p->path, "%s",
				     err == -PFT_ERR_NOMEM ? "out of memory" : "cannot open it as a file");
	while ((err = pft_perf_next(rd, &rec, sizeof(rec))) == 0) {
		size_t qi = 0;

		switch (rec.type) {
		case PFT_PERF_AUXTRACE_INFO:
			if (rec.u.auxtrace_info.type != 3) {
				err = pft_diag_offset(&p->error, -PFT_ERR_NO_SOURCE, p->path,
						      rec.offset, "AUXTRACE_INFO "
						      "of type %u, not CoreSight (cs_etm, 3)",
						      rec.u.auxtrace_info.type);
				goto out;
			}
			free(p->cpus);
			p->ncpus = rec.u.auxtrace_info.nr_cpus;
			p->cpus = calloc(p->ncpus ? p->ncpus : 1, sizeof(*p->cpus));
			if (!p->cpus) {
				err = pft_diag_set(&p->error, -PFT_ERR_NOMEM, "out of memory");
				goto out;
			}
			for (size_t i = 0; i < p->ncpus; i++)
				pft_perf_cpu(rd, i, &p->cpus[i], sizeof(p->cpus[i]));
			have_info = 1;
			break;
		case PFT_PERF_MMAP:
		case PFT_PERF_MMAP2:
			if ((err = keep_mmap(p, &rec)) < 0)
				goto out;
			break;
		case PFT_PERF_AUX_OUTPUT_HW_ID:
			if (rec.sample_id.has_cpu && rec.sample_id.cpu < 1024)
				p->trace_ids[rec.sample_id.cpu] = rec.u.hw_id.trace_id;
			break;
		case PFT_PERF_AUX:
			if ((rec.u.aux.flags & PFT_PERF_AUX_FORMAT_MASK) == PFT_PERF_AUX_RAW)
				p->any_raw = 1;
			if ((err = keep_ref(p, &refs, &rec, 0)) < 0)
				goto out;
			break;
		case PFT_PERF_AUXTRACE:
			if ((err = queue_of(p, rec.u.auxtrace.cpu, rec.u.auxtrace.tid, &qi)) < 0 ||
			    (err = keep_ref(p, &refs, &rec, qi)) < 0)
				goto out;
			last_q = qi;
			break;
		case PFT_PERF_FEAT_BUILD_ID:
			note_build_id(p, &rec);
			break;
		default:
			break;
		}
	}
	if (err != -PFT_ERR_EOS) {
		err = reader_fail(p, rd, err);
		goto out;
	}
	err = 0;
	if (!pft_perf_header(rd, &hdr, sizeof(hdr)) && hdr.cut_at) {
		p->cut_at = hdr.cut_at;
		p->cut_in_data = hdr.cut_at < hdr.data_offset + hdr.data_size;
	}
	if (p->cut_at && last_q == SIZE_MAX)
		err = pft_diag_offset(&p->error, -PFT_ERR_BAD_FILE, p->path, p->cut_at,
				      "the file is cut short here, before any trace");
	else if (!have_info)
		err = pft_diag_file(&p->error, -PFT_ERR_NO_SOURCE, p->path,
				    "no AUXTRACE_INFO record: not a CoreSight trace "
				    "(perf record -e cs_etm)");
	else if (!p->nq)
		err = pft_diag_file(&p->error, -PFT_ERR_NO_SOURCE, p->path,
				    "no AUXTRACE buffer: the file holds no trace");
	else
		err = index_records(p, &refs);
	/* What comes after the cut is lost: the queue of the last buffer
	 * says so after its trace. */
	if (!err && p->cut_in_data)
		p->q[last_q].cut = 1;
out:
	free(refs.v);
	pft_perf_close(rd);
	return err;
}

/* ---- Images ---- */

static int file_ok(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && st.st_size > 0;
}

/* Where mapping @m's file is: under symfs, in the build-id cache, or at
 * its path.  Returns a new string or NULL. */
static char *find_file(const struct perf_in *p, const struct perf_mmap *m,
		       const struct pft_input_perf_config *pc)
{
	char path[PATH_MAX + 64];

	if (pc->symfs) {
		snprintf(path, sizeof(path), "%s%s", pc->symfs, m->filename);
		if (file_ok(path))
			return dup_str(path);
	}
	if (pc->buildid_dir && m->build_id_size) {
		char hex[41];
		size_t n = m->build_id_size < 20 ? m->build_id_size : 20;
		for (size_t i = 0; i < n; i++)
			snprintf(hex + 2 * i, 3, "%02x", m->build_id[i]);
		snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s/elf", pc->buildid_dir, hex,
			 hex + 2);
		if (file_ok(path))
			return dup_str(path);
		snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s", pc->buildid_dir, hex, hex + 2);
		if (file_ok(path))
			return dup_str(path);
	}
	(void)p;
	/* With --symfs, the host's own files are not the program's. */
	if (pc->symfs)
		return NULL;
	return file_ok(m->filename) ? dup_str(m->filename) : NULL;
}

/* The load bias that puts file offset @m->pgoff of ELF @path at
 * @m->addr: from the ELF's loadable segments (read into a scratch image). */
static int mmap_bias(struct perf_in *p, const struct perf_mmap *m, const char *path,
		     int64_t *bias, struct pft_diag *why)
{
	struct pft_image_section_info info;
	int err;
	struct pft_image *scratch = pft_image_alloc(&err);

	if (!scratch)
		return pft_diag_set(&p->error, err, "out of memory");
	err = pft_input_load_image(scratch, path, PFT_INPUT_IMAGE_ELF, 0, why);
	if (err < 0) {
		pft_image_free(scratch);
		return err;
	}
	err = -PFT_ERR_NOMAP;
	for (size_t i = 0; pft_image_section(scratch, i, &info, sizeof(info)) == 0; i++) {
		/* The segment the mapping covers: file bytes in common.  In
		 * unsigned arithmetic: the record's numbers are the file's. */
		if (info.file_offset < m->pub.pgoff + m->pub.len &&
		    m->pub.pgoff < info.file_offset + info.length) {
			*bias = (int64_t)((m->pub.addr - m->pub.pgoff) -
					  (info.vaddr - info.file_offset));
			err = 0;
			break;
		}
	}
	pft_image_free(scratch);
	return err;
}

/* A warning about mapping @m: what is wrong with it (@what), after which
 * the decode goes on without its code (its addresses are ADDR_NACC). */
static int mmap_warning(struct perf_in *p, struct pft_input *in, const struct perf_mmap *m,
			int err, const char *what)
{
	struct pft_diag d;

	pft_diag_offset(&d, err, p->path, m->pub.offset, "%s (mapped at 0x%" PRIx64 " by pid %"
			PRIu32 ") %s", m->filename, m->pub.addr, m->pub.pid, what);
	pft_diag_warning(&d);
	if ((err = pft_input_add_note(in, &d)) < 0)
		return pft_diag_set(&p->error, err, "out of memory");
	return 0;
}

/* Mapping @m's file was found but cannot be its image (@why): said once
 * per file, the decode goes on. */
static int unusable(struct perf_in *p, struct pft_input *in, struct perf_mmap *m, int err,
		    const char *why)
{
	char what[PFT_DIAG_TEXT_MAX];

	m->unusable = 1;
	for (size_t j = 0; j < (size_t)(m - p->mm); j++)
		if (p->mm[j].unusable && p->mm[j].found && !strcmp(p->mm[j].found, m->found))
			return 0;
	snprintf(what, sizeof(what), "cannot be its image: %s; its code is not decoded", why);
	return mmap_warning(p, in, m, err, what);
}

static int load_mmaps(struct perf_in *p, struct pft_input *in,
		      const struct pft_input_perf_config *pc)
{
	struct pft_image_section_info info;
	size_t nuser = 0;
	int err;

	p->img = pft_image_alloc(&err);
	if (!p->img)
		return pft_diag_set(&p->error, err, "out of memory");
	if ((err = pft_input_load_user_images(in, p->img, &p->error)) < 0)
		return err;
	while (pft_image_section(p->img, nuser, &info, sizeof(info)) == 0)
		nuser++;
	for (size_t i = 0; i < p->nmm; i++) {
		struct perf_mmap *m = &p->mm[i];
		struct pft_diag why;
		int64_t bias = 0;
		int loaded = 0;

		if (m->pub.addr > UINT32_MAX || m->pub.len > (uint64_t)UINT32_MAX + 1 - m->pub.addr) {
			if ((err = mmap_warning(p, in, m, -PFT_ERR_BAD_CONFIG, "past the 32-bit "
						"address space: its code is not decoded")) < 0)
				return err;
			continue;
		}
		m->found = find_file(p, m, pc);
		if (!m->found) {
			if ((err = mmap_warning(p, in, m, -PFT_ERR_NOT_FOUND, "is not found: give "
						"--elf, --symfs or --buildid-dir")) < 0)
				return err;
			continue;
		}
		err = mmap_bias(p, m, m->found, &bias, &why);
		if (err == -PFT_ERR_NOMAP)
			continue;   /* maps no loadable bytes (such as .bss) */
		if (err == -PFT_ERR_NOMEM)
			return pft_diag_set(&p->error, err, "out of memory");
		if (err < 0) {
			if ((err = unusable(p, in, m, err, why.text)) < 0)
				return err;
			continue;
		}
		m->pub.bias = bias;
		for (size_t j = 0; j < i; j++)
			if (p->mm[j].found && !p->mm[j].pub.user && p->mm[j].pub.bias == bias &&
			    !strcmp(p->mm[j].found, m->found))
				loaded = 1;   /* another segment of a file already in */
		if (loaded)
			continue;
		err = pft_input_load_image(p->img, m->found, PFT_INPUT_IMAGE_ELF, bias, &why);
		if (err == -PFT_ERR_BAD_CONFIG) {
			size_t idx;
			uint32_t at;
			if (!pft_image_conflict(p->img, &idx, &at) && idx < nuser) {
				m->pub.user = 1;   /* the user's image comes first */
				continue;
			}
		}
		if (err == -PFT_ERR_NOMEM)
			return pft_diag_set(&p->error, err, "out of memory");
		if (err < 0 && (err = unusable(p, in, m, err, why.text)) < 0)
			return err;
	}
	return 0;
}

/* ---- Sources and pipelines ---- */

static int source_config(struct perf_in *p, struct perf_src *s, const struct pft_perf_cpu *c)
{
	uint32_t traceidr = c->etmtraceidr;

	if (c->trace_id_pending) {
		if (c->cpu >= 1024 || p->trace_ids[c->cpu] < 0)
			return pft_diag_file(&p->error, -PFT_ERR_BAD_CONFIG, p->path, "CPU %" PRIu32
					     ": the trace ID is "
					     "given in no AUX_OUTPUT_HW_ID record", c->cpu);
		traceidr = (uint32_t)p->trace_ids[c->cpu];
	}
	if (c->is_ptm) {
		struct pft_perf_cpu cc = *c;
		cc.etmtraceidr = traceidr;
		pft_ptm_config_init(&s->ptm);
		if (pft_perf_cpu_config(&cc, &s->ptm) < 0)
			return pft_diag_file(&p->error, -PFT_ERR_BAD_CONFIG, p->path, "CPU %" PRIu32
					     ": the PTM's " "registers do not give a configuration",
					     c->cpu);
		s->pub.protocol = PFT_PROTO_PTM;
		s->pub.cfg = s->ptm;
		s->pub.id = s->ptm.trace_id;
		s->pub.timestamps = s->ptm.timestamps;
		s->pub.cycle_accurate = s->ptm.cycle_accurate;
		return 0;
	}
	pft_etm3_config_init(&s->etm3);
	if (pft_etm3_config_from_regs(&s->etm3, c->etmcr, c->etmccer, c->etmidr, traceidr) < 0)
		return pft_diag_file(&p->error, -PFT_ERR_BAD_CONFIG, p->path, "CPU %" PRIu32
				     ": ETMIDR 0x%08" PRIx32 " is neither a PTM nor an ETMv3",
				     c->cpu, c->etmidr);
	s->is_etm3 = 1;
	s->pub.protocol = PFT_PROTO_ETMV3;
	s->pub.id = s->etm3.trace_id;
	s->pub.timestamps = s->etm3.timestamps;
	s->pub.cycle_accurate = s->etm3.cycle_accurate;
	return 0;
}

static int add_source(struct perf_in *p, size_t queue, const struct pft_perf_cpu *c)
{
	struct perf_src *v = realloc(p->src, (p->nsrc + 1) * sizeof(*v));
	int err;

	if (!v)
		return pft_diag_set(&p->error, -PFT_ERR_NOMEM, "out of memory");
	p->src = v;
	struct perf_src *s = &v[p->nsrc];
	memset(s, 0, sizeof(*s));
	s->queue = queue;
	s->pipe_index = -1;
	s->pub.cpu = (int)c->cpu;
	s->pub.id = -1;
	if (p->q[queue].cpu == UINT32_MAX)
		snprintf(s->name, sizeof(s->name), "tid %" PRIu32 " cpu %" PRIu32,
			 p->q[queue].tid, c->cpu);
	else
		snprintf(s->name, sizeof(s->name), "cpu %" PRIu32, c->cpu);
	p->nsrc++;
	if (c->etm == PFT_PERF_ETM_V4 || c->etm == PFT_PERF_ETE) {
		s->pub.protocol = PFT_PROTO_ETMV4;
		return 0;
	}
	if ((err = source_config(p, s, c)) < 0)
		return err;
	if (pft_input_wants_id(&p->cfg, s->pub.id)) {
		s->pipe_index = 0;   /* set for real by open_pipe() */
		s->pub.decoded = 1;
		s->pub.image = p->img;
	}
	return 0;
}

static int make_sources(struct perf_in *p)
{
	size_t decoded = 0;
	int err;

	for (size_t qi = 0; qi < p->nq; qi++) {
		const struct perf_queue *q = &p->q[qi];
		size_t before = p->nsrc;

		for (size_t i = 0; i < p->ncpus; i++) {
			if (q->cpu != UINT32_MAX && p->cpus[i].cpu != q->cpu)
				continue;
			if ((err = add_source(p, qi, &p->cpus[i])) < 0)
				return err;
		}
		if (p->nsrc == before)
			return pft_diag_file(&p->error, -PFT_ERR_BAD_FILE, p->path,
					     "AUXTRACE buffers of CPU %" PRIu32
					     ", which AUXTRACE_INFO does not describe", q->cpu);
		size_t ndec = 0;
		for (size_t i = before; i < p->nsrc; i++)
			ndec += p->src[i].pub.decoded;
		if (p->any_raw && ndec > 1)
			return pft_diag_file(&p->error, -PFT_ERR_BAD_CONFIG, p->path,
					     "unformatted trace in a queue of %zu "
					     "CPUs: which one wrote it is not known", ndec);
		decoded += ndec;
	}
	for (int id = 1; id <= PFT_ID_MAX_VALID; id++) {
		size_t i = 0;
		while (i < p->nsrc && !(p->src[i].pub.decoded && p->src[i].pub.id == id))
			i++;
		if (pft_input_names_id(&p->cfg, id) && i == p->nsrc)
			return pft_diag_file(&p->error, -PFT_ERR_NO_SOURCE, p->path,
					     "no PTM or ETMv3 with trace ID 0x%02x", id);
	}
	if (!decoded) {
		return pft_diag_file(&p->error, -PFT_ERR_NO_SOURCE, p->path,
				     "no PTM or ETMv3 trace unit in AUXTRACE_INFO "
				     "(ETMv4 and ETE are not decoded)");
	}
	return 0;
}

/* A new pipeline for queue @qi in @format, with the queue's sources. */
static int open_pipe(struct perf_in *p, size_t qi, unsigned format)
{
	struct perf_queue *q = &p->q[qi];
	struct pft_pipe_config pc = { .size = sizeof(pc), .format = (uint8_t)format,
				      .packets = p->cfg.packets, .elements = p->cfg.elements,
				      .fit_check = p->cfg.fit_check };
	int err;

	q->pipe = pft_pipe_alloc(&pc, &err);
	if (!q->pipe)
		return pft_diag_set(&p->error, err, "out of memory");
	q->pipe_format = format;
	q->nmap = 0;
	q->closing = q->finished = 0;
	for (size_t i = 0; i < p->nsrc; i++) {
		struct perf_src *s = &p->src[i];
		if (s->queue != qi || !s->pub.decoded)
			continue;
		int idx = s->is_etm3 ? pft_pipe_add_etm3(q->pipe, s->pub.id, &s->etm3, p->img)
				     : pft_pipe_add_ptm(q->pipe, s->pub.id, &s->ptm, p->img);
		/* The pipeline refuses a reserved or repeated ID as a bad
		 * argument; here it is the file's metadata that is wrong. */
		if (idx == -PFT_ERR_INVALID)
			return pft_diag_file(&p->error, -PFT_ERR_BAD_CONFIG, p->path,
					     "%s: trace ID 0x%02x: reserved, or "
					     "another CPU has it", s->name, (unsigned)s->pub.id);
		if (idx < 0)
			return pft_diag_file(&p->error, idx, p->path, "%s: trace ID 0x%02x: %s",
					     s->name, (unsigned)s->pub.id,
					     pft_errstr(pft_errcode(idx)));
		s->pipe_index = idx;
		q->map[q->nmap++] = i;
	}
	return 0;
}

static void add_stats(struct pft_pipe_stats *to, const struct pft_pipe_stats *st)
{
	to->bytes += st->bytes;
	to->packets += st->packets;
	to->errors += st->errors;
	to->insns += st->insns;
}

/* Drop queue @qi's pipeline (after a gap), keeping its sources' counts. */
static void close_pipe(struct perf_in *p, size_t qi)
{
	struct perf_queue *q = &p->q[qi];

	for (size_t i = 0; i < q->nmap; i++) {
		struct perf_src *s = &p->src[q->map[i]];
		struct pft_pipe_stats st;
		if (!pft_pipe_source_stats(q->pipe, (unsigned)s->pipe_index, &st, sizeof(st)))
			add_stats(&s->done, &st);
	}
	pft_pipe_free(q->pipe);
	q->pipe = NULL;
}

static int aux_matches(const struct perf_queue *q, const struct pft_perf_record *rec,
		       size_t nq)
{
	const struct pft_perf_sample_id *id = &rec->sample_id;

	if (q->cpu != UINT32_MAX)
		return id->valid && id->has_cpu ? id->cpu == q->cpu : nq == 1;
	return id->valid && id->has_tid ? id->tid == q->tid : nq == 1;
}

/* Read queue @qi's records up to its next AUXTRACE buffer, or the end. */
static int next_buffer(struct perf_in *p, size_t qi)
{
	struct perf_queue *q = &p->q[qi];
	struct pft_perf_record rec;
	int err = -PFT_ERR_EOS;

	while (q->next_rec < q->nrecs) {
		uint64_t off = p->recs[q->first_rec + q->next_rec++];
		p->rd_queue = SIZE_MAX;
		if ((err = pft_perf_seek(p->rd, off, 0)) < 0 ||
		    (err = pft_perf_next(p->rd, &rec, sizeof(rec))) < 0)
			break;
		if (rec.type == PFT_PERF_AUX && aux_matches(q, &rec, p->nq)) {
			uint64_t end = rec.u.aux.aux_offset + rec.u.aux.aux_size;
			q->saw_aux = 1;
			q->next_format = (rec.u.aux.flags & PFT_PERF_AUX_FORMAT_MASK) ==
							 PFT_PERF_AUX_RAW
						 ? PFT_PIPE_RAW
						 : PFT_PIPE_FORMATTED;
			if (end > q->aux_end)
				q->aux_end = end;
			if (rec.u.aux.flags & GAP_FLAGS) {
				q->lost = 1;
				q->lost_at = end;
			}
			continue;
		}
		if (rec.type != PFT_PERF_AUXTRACE || rec.u.auxtrace.cpu != q->cpu ||
		    (q->cpu == UINT32_MAX && rec.u.auxtrace.tid != q->tid))
			continue;
		uint64_t len = rec.u.auxtrace.size;
		/* The buffer is padded to 8 bytes: feed what the AUX records
		 * say the kernel wrote. */
		if (q->saw_aux && q->aux_end > rec.u.auxtrace.offset &&
		    q->aux_end - rec.u.auxtrace.offset < len)
			len = q->aux_end - rec.u.auxtrace.offset;
		if (!len)
			continue;
		unsigned format = q->saw_aux ? q->next_format : PFT_PIPE_FORMATTED;
		if (q->lost && q->lost_at <= rec.u.auxtrace.offset) {
			/* Lost between the buffers. */
			q->lost = 0;
			q->gap_pending = q->fed > 0;
		}
		if (q->pipe && (q->gap_pending || format != q->pipe_format))
			q->closing = 1;
		q->next_format = format;
		q->aux_left = len;
		q->area_pos = rec.u.auxtrace.offset;
		q->rec_off = off;
		q->aux_read = 0;
		p->rd_queue = qi;
		return 0;
	}
	if (err != -PFT_ERR_EOS)
		return reader_fail(p, p->rd, err);
	q->reader_eof = 1;
	q->closing = q->pipe != NULL;
	return 0;
}

/* Put the reader back in queue @qi's AUXTRACE buffer, where the queue
 * left it, when another queue moved it. */
static int resume_aux(struct perf_in *p, size_t qi)
{
	struct perf_queue *q = &p->q[qi];
	struct pft_perf_record rec;
	int err;

	if (p->rd_queue == qi)
		return 0;
	if ((err = pft_perf_seek(p->rd, q->rec_off, q->aux_read)) < 0 ||
	    (err = pft_perf_next(p->rd, &rec, sizeof(rec))) < 0)
		return err;
	p->rd_queue = qi;
	return 0;
}

/* A queue read to its end (per thread: the next one starts): its fit
 * verdicts kept where something did not fit, its pipeline's counts
 * added up, its memory given back. */
static int retire_queue(struct perf_in *p, size_t qi)
{
	struct perf_queue *q = &p->q[qi];

	for (size_t i = 0; q->pipe && i < q->nmap; i++) {
		struct perf_src *s = &p->src[q->map[i]];
		struct pft_fit_verdict v;
		if (s->is_etm3 || pft_pipe_fit(q->pipe, (unsigned)s->pipe_index, &v, sizeof(v)) <= 0)
			continue;
		if (!(s->fit = malloc(sizeof(v))))
			return pft_diag_set(&p->error, -PFT_ERR_NOMEM, "out of memory");
		*s->fit = v;
	}
	if (q->pipe)
		close_pipe(p, qi);
	free(q->buf);
	q->buf = NULL;
	return 0;
}

/* The GAP item after queue @qi's trace in a file cut short: what the
 * queue wrote after it is lost. */
static int cut_gap(struct perf_in *p, size_t qi, struct pft_item *item, size_t size)
{
	const struct perf_queue *q = &p->q[qi];

	size_t src = 0;

	while (src + 1 < p->nsrc && (p->src[src].queue != qi || !p->src[src].pub.decoded))
		src++;
	memset(item, 0, size);
	item->type = PFT_ITEM_GAP;
	item->source = (uint16_t)src;
	item->protocol = p->src[src].pub.protocol;
	item->offset = q->fed;
	item->status = -PFT_ERR_TRUNCATED;
	return 0;
}

/* The next item of queue @qi: 0, -PFT_ERR_EOS or an error. */
static int queue_next(struct perf_in *p, size_t qi, struct pft_item *item, size_t size)
{
	struct perf_queue *q = &p->q[qi];
	int r;

	for (;;) {
		if (q->pipe) {
			r = pft_pipe_next(q->pipe, item, size);
			if (r == 0) {
				item->source = (uint16_t)q->map[item->source];
				return 0;
			}
			if (r == -PFT_ERR_EOS) {
				if (q->reader_eof && q->cut) {
					q->cut = 0;
					return cut_gap(p, qi, item, size);
				}
				if (q->reader_eof)
					return r;   /* kept for pft_input_fit() */
				close_pipe(p, qi);
				continue;
			}
			if (r != -PFT_ERR_NEED_INPUT)
				return pft_diag_file(&p->error, r, p->path, "%s",
						     pft_errstr(pft_errcode(r)));
			if (q->closing && !q->finished) {
				q->finished = 1;
				pft_pipe_finish(q->pipe);
				continue;
			}
			if (q->aux_left) {
				size_t n = q->aux_left < p->block ? (size_t)q->aux_left : p->block;
				/* Trace was lost inside this buffer: stop there. */
				if (q->lost && q->lost_at > q->area_pos && q->lost_at - q->area_pos < n)
					n = (size_t)(q->lost_at - q->area_pos);
				r = resume_aux(p, qi);
				if (r >= 0)
					r = pft_perf_read_aux(p->rd, q->buf, n);
				if (r <= 0)
					return reader_fail(p, p->rd, r < 0 ? r : -PFT_ERR_BAD_FILE);
				q->aux_read += (uint64_t)r;
				q->aux_left -= (uint64_t)r;
				q->fed += (uint64_t)r;
				q->area_pos += (uint64_t)r;
				if (q->lost && q->area_pos == q->lost_at && q->aux_left) {
					q->lost = 0;
					q->gap_pending = 1;
					q->closing = 1;
				}
				if ((r = pft_pipe_feed(q->pipe, q->buf, (size_t)r)) < 0)
					return pft_diag_file(&p->error, r, p->path, "%s",
							     pft_errstr(pft_errcode(r)));
				continue;
			}
		} else if (q->gap_pending) {
			q->gap_pending = 0;
			memset(item, 0, size);
			item->type = PFT_ITEM_GAP;
			item->source = (uint16_t)q->map[0];
			item->protocol = p->src[q->map[0]].pub.protocol;
			item->offset = q->fed;
			item->status = -PFT_ERR_TRUNCATED;   /* trace was lost */
			return 0;
		} else if (q->aux_left) {
			if (!q->buf && !(q->buf = malloc(p->block)))
				return pft_diag_set(&p->error, -PFT_ERR_NOMEM, "out of memory");
			if ((r = open_pipe(p, qi, q->next_format)) < 0)
				return r;
			continue;
		} else if (q->reader_eof && q->cut) {
			q->cut = 0;
			return cut_gap(p, qi, item, size);
		} else if (q->reader_eof) {
			return -PFT_ERR_EOS;
		}
		if ((r = next_buffer(p, qi)) < 0)
			return r;
	}
}

/* The timestamp an item carries, if it is one. */
static int item_timestamp(const struct pft_item *item, uint64_t *ts)
{
	if (item->type == PFT_ITEM_ELEM && item->elem && item->elem->type == PFT_ELEM_TIMESTAMP)
		*ts = item->elem->ts;
	else if (item->type == PFT_ITEM_PACKET && item->ptm && item->ptm->type == PFT_PTM_PKT_TIMESTAMP)
		*ts = item->ptm->ts;
	else if (item->type == PFT_ITEM_PACKET && item->etm3 &&
		 item->etm3->type == PFT_ETM3_PKT_TIMESTAMP)
		*ts = item->etm3->ts;
	else
		return 0;
	return 1;
}

/* Does queue @a's waiting item come before queue @b's? */
static int heap_before(const struct perf_in *p, size_t a, size_t b)
{
	return p->q[a].key < p->q[b].key || (p->q[a].key == p->q[b].key && a < b);
}

static void heap_push(struct perf_in *p, size_t qi)
{
	size_t i = p->nheap++;

	while (i && heap_before(p, qi, p->heap[(i - 1) / 2])) {
		p->heap[i] = p->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	p->heap[i] = qi;
}

static size_t heap_pop(struct perf_in *p)
{
	size_t top = p->heap[0], last = p->heap[--p->nheap], i = 0;

	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= p->nheap)
			break;
		if (c + 1 < p->nheap && heap_before(p, p->heap[c + 1], p->heap[c]))
			c++;
		if (!heap_before(p, p->heap[c], last))
			break;
		p->heap[i] = p->heap[c];
		i = c;
	}
	if (p->nheap)
		p->heap[i] = last;
	return top;
}

/* Give queue @qi an item to wait with, and its place in the merge. */
static int merge_fill(struct perf_in *p, size_t qi)
{
	struct perf_queue *q = &p->q[qi];
	uint64_t ts;
	int r = queue_next(p, qi, &q->pending, sizeof(q->pending));

	if (r == -PFT_ERR_EOS) {
		q->done = 1;
		return 0;
	}
	if (r < 0)
		return r;
	q->has_pending = 1;
	if (item_timestamp(&q->pending, &ts))
		q->key = ts;
	heap_push(p, qi);
	return 0;
}

int pft_perf_in_next(struct perf_in *p, struct pft_item *item, size_t size)
{
	if (!p->ready)
		return -PFT_ERR_INVALID;   /* the open failed */
	if (p->nq == 1 || p->q[0].cpu == UINT32_MAX) {
		/* Per thread: the threads' queues one after the other. */
		while (p->cur < p->nq) {
			int r = queue_next(p, p->cur, item, size);
			if (r != -PFT_ERR_EOS)
				return r;
			if ((r = retire_queue(p, p->cur)) < 0)
				return r;
			p->cur++;
		}
		return -PFT_ERR_EOS;
	}
	/* Per CPU: the queue whose waiting item has the least timestamp
	 * (the last one its queue saw), the first queue on a tie. */
	int r;
	if (!p->merging) {
		p->merging = 1;
		p->emitted = SIZE_MAX;
		if (!(p->heap = malloc(p->nq * sizeof(*p->heap))))
			return pft_diag_set(&p->error, -PFT_ERR_NOMEM, "out of memory");
		for (size_t i = 0; i < p->nq; i++)
			if ((r = merge_fill(p, i)) < 0)
				return r;
	} else if (p->emitted != SIZE_MAX) {
		size_t qi = p->emitted;
		p->emitted = SIZE_MAX;
		if ((r = merge_fill(p, qi)) < 0)
			return r;
	}
	if (!p->nheap)
		return -PFT_ERR_EOS;
	size_t best = heap_pop(p);
	memset(item, 0, size);
	memcpy(item, &p->q[best].pending, sizeof(*item));
	p->q[best].has_pending = 0;
	p->emitted = best;
	return 0;
}

size_t pft_perf_in_nsources(const struct perf_in *p)
{
	return p->nsrc;
}

int pft_perf_in_source(const struct perf_in *p, size_t index, struct pft_input_source *src,
		   size_t size)
{
	if (!src || size < sizeof(*src) || index >= p->nsrc)
		return -PFT_ERR_INVALID;
	const struct perf_src *s = &p->src[index];
	const struct perf_queue *q = &p->q[s->queue];

	memset(src, 0, size);
	*src = s->pub;
	src->name = s->name;
	src->path = p->path;
	src->stats = s->done;
	if (s->pub.decoded && q->pipe) {
		struct pft_pipe_stats st;
		if (!pft_pipe_source_stats(q->pipe, (unsigned)s->pipe_index, &st, sizeof(st)))
			add_stats(&src->stats, &st);
	}
	return 0;
}

int pft_perf_in_fit(const struct perf_in *p, size_t index, struct pft_fit_verdict *v, size_t size)
{
	if (index >= p->nsrc || !p->src[index].pub.decoded || p->src[index].is_etm3 || !v ||
	    size < sizeof(*v))
		return -PFT_ERR_INVALID;
	const struct perf_src *s = &p->src[index];
	if (p->q[s->queue].pipe)
		return pft_pipe_fit(p->q[s->queue].pipe, (unsigned)s->pipe_index, v, size);
	if (!s->fit)
		return -PFT_ERR_INVALID;   /* not read, or nothing to say */
	memset(v, 0, size);
	*v = *s->fit;
	return (int)v->reason;
}

static int open_queues(struct perf_in *p)
{
	size_t *n = calloc(p->nq, sizeof(*n));
	int err;

	if (!n)
		return pft_diag_set(&p->error, -PFT_ERR_NOMEM, "out of memory");
	for (size_t j = 0; j < p->nsrc; j++)
		n[p->src[j].queue]++;
	for (size_t i = 0; i < p->nq; i++)
		if (!(p->q[i].map = calloc(n[i] ? n[i] : 1, sizeof(*p->q[i].map)))) {
			free(n);
			return pft_diag_set(&p->error, -PFT_ERR_NOMEM, "out of memory");
		}
	free(n);
	/* Per CPU, every queue reads at once (their timestamps are merged):
	 * their read blocks share 16 MiB. */
	int per_thread = p->nq == 1 || p->q[0].cpu == UINT32_MAX;
	p->block = PERF_READ_BLOCK;
	if (!per_thread && p->nq > (16u << 20) / PERF_READ_BLOCK)
		p->block = (16u << 20) / p->nq < 4096 ? 4096 : (16u << 20) / p->nq;
	p->rd_queue = SIZE_MAX;
	p->rd = pft_perf_open(p->path, &err);
	if (!p->rd)
		return pft_diag_file(&p->error, err, p->path, "cannot open it again");
	return 0;
}

int pft_input_open_perf(struct pft_input *in, const char *path,
			const struct pft_input_perf_config *pc)
{
	struct perf_in *p;
	int err;

	if (!in || !path || !pc || pc->size < sizeof(*pc) || pft_input_opened(in))
		return -PFT_ERR_INVALID;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -PFT_ERR_NOMEM;
	pft_input_set_perf(in, p);   /* frees it, and gives pft_input_message() its message */
	p->cfg = *pft_input_get_config(in);
	if (p->cfg.survey) {   /* the units' bytes: their packets are read through */
		p->cfg.packets = 1;
		p->cfg.elements = 0;
	}
	for (size_t i = 0; i < sizeof(p->trace_ids) / sizeof(p->trace_ids[0]); i++)
		p->trace_ids[i] = -1;
	p->path = dup_str(path);
	struct stat st;
	if (p->path && !stat(path, &st) && S_ISREG(st.st_mode))
		p->file_size = (uint64_t)st.st_size;
	if (!p->path)
		return pft_diag_set(&p->error, -PFT_ERR_NOMEM, "out of memory");
	if ((err = scan(p)) < 0)
		return err;
	if (p->cut_at) {
		struct pft_diag note;
		pft_diag_offset(&note, -PFT_ERR_TRUNCATED, p->path, p->cut_at, "%s",
				p->cut_in_data ? "the file is cut short here: what it held after "
						 "this is lost; the trace before is decoded"
					       : "the file is cut short here, in its feature table "
						 "(the trace is whole): the build IDs and the AUXTRACE "
						 "index after this are lost");
		pft_diag_warning(&note);
		if ((err = pft_input_add_note(in, &note)) < 0)
			return pft_diag_set(&p->error, err, "out of memory");
	}
	if (p->cfg.elements && (err = load_mmaps(p, in, pc)) < 0)
		return err;
	if ((err = make_sources(p)) < 0 || (err = open_queues(p)) < 0)
		return err;
	p->ready = 1;
	return 0;
}

int pft_input_perf_mmap(const struct pft_input *in, size_t index, struct pft_input_perf_mmap *m,
			size_t size)
{
	const struct perf_in *p = in ? pft_input_get_perf(in) : NULL;

	if (!p || !m || size < sizeof(*m))
		return -PFT_ERR_INVALID;
	if (index >= p->nmm)
		return -PFT_ERR_EOS;
	const struct perf_mmap *mm = &p->mm[index];
	memset(m, 0, size);
	*m = mm->pub;
	m->size = sizeof(*m);
	m->filename = mm->filename;
	m->found = mm->found;
	return 0;
}
