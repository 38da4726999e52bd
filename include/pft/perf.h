/*
 * pft/perf.h - Linux perf.data files with CoreSight AUX trace: the reader and the
 * writer (pft_perf_), and perf.data as an input (pft_input_open_perf()).
 *
 * Link with libpft-io (pkg-config libpft-io), which needs libelf,
 * libdw and threads.  <pft.h> includes every header;
 * its head comment gives the conventions and the prefixes.
 */
#ifndef PFT_PUBLIC_PERF_H
#define PFT_PUBLIC_PERF_H

#include "pft/common.h"
#include "pft/input.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================
 * perf.data (pft_perf_): Linux perf's CoreSight AUX trace files
 * ====================================================================== */

/* ---- Section: perf ---- */

/*
 * Reading.  A perf.data file is pulled record by record: first the records
 * of the data section in file order, then the entries of the feature
 * sections pft understands (HEADER_AUXTRACE index entries, BUILD_ID
 * entries).  The header, the attributes and the cs_etm metadata are kept
 * by the reader; everything else is streamed, so memory does not grow
 * with the file: a record is at most 64 KiB, and the trace bytes that
 * follow an AUXTRACE record are read by the caller in chunks of its choice
 * with pft_perf_read_aux() (or skipped by the next pft_perf_next()).
 *
 * To decode one AUX buffer a caller needs, from these records:
 *  - AUXTRACE: cpu (UINT32_MAX in per-thread mode), tid, the position of
 *    the bytes in the thread's or CPU's AUX area (offset, size) and the
 *    bytes themselves;
 *  - AUX: the part [aux_offset, aux_offset + aux_size) of that area the
 *    kernel filled in one go, which lies inside one AUXTRACE buffer of the
 *    same tid (per thread) or cpu (sample_id); its gap flags (TRUNCATED,
 *    COLLISION: trace was lost before the next part, so the decoder
 *    restarts) and its data format (PFT_PERF_AUX_RAW: one unformatted
 *    source; otherwise 16-byte CoreSight frames);
 *  - the trace unit: pft_perf_cpu() lists the blocks; take the one whose
 *    cpu is the AUXTRACE cpu (per thread: whose trace ID the frames carry,
 *    or the only one), and pft_perf_cpu_config() for its pft_ptm_config.
 */

/* Record types (perf's PERF_RECORD_* numbers), and the feature entries
 * this reader returns after the data section (a data record of a type
 * from 0x10000 up is BAD_FILE: it would read as a feature entry). */
enum pft_perf_type {
	PFT_PERF_MMAP = 1,
	PFT_PERF_COMM = 3,
	PFT_PERF_MMAP2 = 10,
	PFT_PERF_AUX = 11,
	PFT_PERF_ITRACE_START = 12,
	PFT_PERF_AUX_OUTPUT_HW_ID = 21,
	PFT_PERF_AUXTRACE_INFO = 70,
	PFT_PERF_AUXTRACE = 71,
	/* Not records: entries of feature sections. */
	PFT_PERF_FEAT_AUXTRACE_INDEX = 0x10000,
	PFT_PERF_FEAT_BUILD_ID
};

/* AUX record flags. */
enum {
	PFT_PERF_AUX_TRUNCATED = 0x01,  /* the AUX area was full: data lost */
	PFT_PERF_AUX_OVERWRITE = 0x02,  /* snapshot mode: older data overwritten */
	PFT_PERF_AUX_PARTIAL = 0x04,    /* the record holds a partial sample */
	PFT_PERF_AUX_COLLISION = 0x08,  /* sample collided with another */
	PFT_PERF_AUX_FORMAT_MASK = 0xff00,
	PFT_PERF_AUX_RAW = 0x0100       /* CoreSight: unformatted, one source */
};

/* perf_event_attr.sample_type bits the reader understands. */
enum {
	PFT_PERF_SAMPLE_IP = 1u << 0,
	PFT_PERF_SAMPLE_TID = 1u << 1,
	PFT_PERF_SAMPLE_TIME = 1u << 2,
	PFT_PERF_SAMPLE_ID = 1u << 6,
	PFT_PERF_SAMPLE_CPU = 1u << 7,
	PFT_PERF_SAMPLE_PERIOD = 1u << 8,
	PFT_PERF_SAMPLE_STREAM_ID = 1u << 9,
	PFT_PERF_SAMPLE_IDENTIFIER = 1u << 16
};

/* The cs_etm event's attr.config: ETM options at their ETMCR positions. */
enum {
	PFT_PERF_ETM_BRANCH_BROADCAST = 1u << 8,
	PFT_PERF_ETM_CYCLE_ACCURATE = 1u << 12,
	PFT_PERF_ETM_CONTEXTID = 1u << 14,
	PFT_PERF_ETM_TIMESTAMP = 1u << 28,
	PFT_PERF_ETM_RETURN_STACK = 1u << 29
};

/* The file header and the section table. */
struct pft_perf_header {
	size_t size;                  /* sizeof(struct pft_perf_header) */
	uint64_t attr_size;           /* bytes per attribute entry */
	uint64_t attrs_offset, attrs_size;
	uint64_t data_offset, data_size;
	uint64_t features[4];         /* feature bitmap (bit 18: AUXTRACE) */
	uint32_t nr_attrs;
	uint32_t nr_cpus;             /* ETM blocks in AUXTRACE_INFO (0 before it) */
	/* A file cut short (its data section or feature table passes the
	 * end of the file) is read up to the cut: the offset of the record
	 * or table the file ends in, once the reader has come to it; 0: the
	 * file is whole (so far).  An AUXTRACE record the file ends in comes
	 * with the trace bytes there are. */
	uint64_t cut_at;
};

/* One event attribute (perf_event_attr and its IDs). */
struct pft_perf_attr {
	size_t size;                  /* sizeof(struct pft_perf_attr) */
	uint32_t type;                /* PMU type: cs_etm's is dynamic */
	uint32_t attr_size;           /* perf_event_attr.size */
	uint64_t config;              /* cs_etm: PFT_PERF_ETM_* */
	uint64_t sample_type;         /* PFT_PERF_SAMPLE_* */
	uint64_t flags;               /* the bit-field word (disabled, ...) */
	uint8_t sample_id_all;        /* records carry the sample-ID trailer */
	uint8_t reserved[7];
	uint64_t nr_ids;              /* entries in the attribute's ID list */
	uint64_t first_id;            /* the first of them (0 when none) */
};

/* ETM architecture of a CPU's AUXTRACE_INFO block. */
enum pft_perf_etm {
	PFT_PERF_ETM_V3 = 0,          /* ETMv3 or PTM: registers decoded */
	PFT_PERF_ETM_V4,              /* ETMv4: named, not decoded */
	PFT_PERF_ETE                  /* ETE: named, not decoded */
};

/* One CPU's trace unit, from AUXTRACE_INFO (cs_etm). */
struct pft_perf_cpu {
	size_t size;                  /* sizeof(struct pft_perf_cpu) */
	enum pft_perf_etm etm;
	uint32_t cpu;
	uint32_t etmcr, etmtraceidr, etmccer, etmidr;  /* PFT_PERF_ETM_V3 only */
	uint8_t is_ptm;               /* ETMIDR[11:8] = 3 */
	uint8_t trace_id_pending;     /* version 2: ETMTRACEIDR[31] set, the ID
					 comes in AUX_OUTPUT_HW_ID */
	uint8_t reserved[6];
};

/* The sample-ID trailer of a record (attr.sample_id_all). */
struct pft_perf_sample_id {
	uint8_t valid;                /* a trailer was parsed */
	uint8_t has_tid, has_time, has_id, has_stream_id, has_cpu;
	uint8_t reserved[2];
	uint32_t pid, tid, cpu;
	uint64_t time, id, stream_id;
};

struct pft_perf_record {
	size_t size;                  /* sizeof(struct pft_perf_record) */
	uint32_t type;                /* enum pft_perf_type, or another PERF_RECORD_* */
	uint16_t misc;
	uint16_t rec_size;            /* perf_event_header.size */
	uint64_t offset;              /* file offset of the record */
	struct pft_perf_sample_id sample_id;
	/* By type; pointers stay valid until the next call on the reader. */
	union {
		struct {              /* MMAP, MMAP2 */
			uint32_t pid, tid;
			uint64_t addr, len, pgoff;
			uint32_t maj, min;            /* MMAP2 without build ID */
			uint64_t ino, ino_generation;
			uint8_t build_id_size;        /* MMAP2 with build ID */
			uint8_t build_id[20];
			uint32_t prot, flags;         /* MMAP2 */
			const char *filename;
		} mmap;
		struct {              /* COMM */
			uint32_t pid, tid;
			const char *comm;
		} comm;
		struct {              /* AUX */
			uint64_t aux_offset, aux_size, flags;
		} aux;
		struct {              /* ITRACE_START */
			uint32_t pid, tid;
		} itrace_start;
		struct {              /* AUX_OUTPUT_HW_ID */
			uint64_t hw_id;
			uint8_t trace_id;             /* bits 7:0 */
			uint8_t version_major, version_minor;  /* 63:60, 59:56 */
			uint32_t sink_id;             /* bits 39:8 */
		} hw_id;
		struct {              /* AUXTRACE_INFO (cs_etm) */
			uint32_t type;                /* 3 = cs_etm */
			uint64_t version;             /* header version 0..2 */
			uint32_t pmu_type;
			uint32_t nr_cpus;             /* pft_perf_cpu() 0..nr-1 */
			uint64_t snapshot;
		} auxtrace_info;
		struct {              /* AUXTRACE: bytes via pft_perf_read_aux() */
			uint64_t size;                /* bytes that follow */
			uint64_t offset;              /* position in the AUX area */
			uint64_t reference;
			uint32_t idx, tid, cpu;       /* cpu = UINT32_MAX: per thread */
		} auxtrace;
		struct {              /* FEAT_AUXTRACE_INDEX */
			uint64_t file_offset, size;   /* of an AUXTRACE record */
		} index;
		struct {              /* FEAT_BUILD_ID */
			int32_t pid;
			uint8_t build_id_size;
			uint8_t build_id[20];
			const char *filename;
		} build_id;
	} u;
};

struct pft_perf;

/*
 * Open the perf.data file @path for reading.  Only a regular file is
 * accepted (a FIFO or device is refused without blocking).  The header is
 * read by the first pft_perf_header(), pft_perf_attr() or pft_perf_next(),
 * so that a malformed one is reported with its offset.  Returns the
 * reader (free with pft_perf_close()), or NULL with *@errcode (if @errcode
 * is not NULL) set to -PFT_ERR_INVALID (NULL @path), -PFT_ERR_NOMEM or
 * -PFT_ERR_BAD_FILE (cannot be opened, not a regular file).
 */
pft_export struct pft_perf *pft_perf_open(const char *path, int *errcode);

/* Close @r (NULL is a no-op). */
pft_export void pft_perf_close(struct pft_perf *r);

/*
 * The file header into @hdr (@size = sizeof *@hdr; nr_cpus counts the
 * AUXTRACE_INFO blocks read so far).  Returns 0, -PFT_ERR_INVALID (NULL
 * argument, @size 0) or -PFT_ERR_BAD_FILE (no PERFILE2 magic, a
 * big-endian file, a header size other than 104 (such as perf's pipe
 * format), sections outside the file, attribute entries of a size or
 * number the reader cannot take: over 1 KiB, over 256).
 */
pft_export int pft_perf_header(struct pft_perf *r, struct pft_perf_header *hdr,
			       size_t size);

/*
 * Attribute @index (0 .. nr_attrs - 1) into @attr (@size = sizeof *@attr).
 * Returns 0, -PFT_ERR_EOS (@index is past the last), -PFT_ERR_INVALID
 * (NULL argument, @size 0) or -PFT_ERR_BAD_FILE (as pft_perf_header()).
 */
pft_export int pft_perf_attr(struct pft_perf *r, size_t index,
			     struct pft_perf_attr *attr, size_t size);

/*
 * The next record or feature entry into @rec (@size = sizeof *@rec).  The
 * trace bytes after an AUXTRACE record that pft_perf_read_aux() has not
 * taken are skipped.  Unknown record types come with their header fields
 * only.  Returns 0, -PFT_ERR_EOS (no more), -PFT_ERR_INVALID (NULL
 * argument, @size 0) or -PFT_ERR_BAD_FILE: a malformed header or record
 * (a size of 0 or past the end of its section, a cs_etm header version
 * above 2, counts that do not fit the record); the offset of the fault is
 * pft_perf_get_offset(), and every later call fails the same way.  A file
 * cut short is not malformed: its records end at the cut
 * (pft_perf_header()'s @cut_at).
 */
pft_export int pft_perf_next(struct pft_perf *r, struct pft_perf_record *rec,
			     size_t size);

/*
 * Go back (or forward) to the data record at file offset @offset, one
 * that pft_perf_next() returned before (its @offset): the next
 * pft_perf_next() returns it again, and, for an AUXTRACE record,
 * pft_perf_read_aux() then reads its trace bytes from byte @aux_skip on.
 * Reading the records of one queue this way costs what they take, not
 * the file.  Returns 0, -PFT_ERR_INVALID (NULL @r, @offset outside the
 * data section) or -PFT_ERR_BAD_FILE (the reader failed before).
 */
pft_export int pft_perf_seek(struct pft_perf *r, uint64_t offset, uint64_t aux_skip);

/*
 * Up to @len trace bytes of the AUXTRACE record pft_perf_next() returned
 * last, into @buf.  Returns the number of bytes (0 once all were read),
 * -PFT_ERR_INVALID (NULL argument) or -PFT_ERR_BAD_FILE (read error, or
 * the reader failed before).
 */
pft_export int pft_perf_read_aux(struct pft_perf *r, uint8_t *buf, size_t len);

/*
 * The file offset of the last record returned, or of the fault after
 * -PFT_ERR_BAD_FILE, into *@offset.  Returns 0 or -PFT_ERR_INVALID.
 */
pft_export int pft_perf_get_offset(const struct pft_perf *r, uint64_t *offset);

/*
 * CPU block @index (0 .. nr_cpus - 1) of the last AUXTRACE_INFO record
 * into @cpu (@size = sizeof *@cpu).  Returns 0, -PFT_ERR_EOS (no such
 * block) or -PFT_ERR_INVALID (NULL argument, @size 0).
 */
pft_export int pft_perf_cpu(const struct pft_perf *r, size_t index,
			    struct pft_perf_cpu *cpu, size_t size);

/*
 * The decoder configuration of @cpu from all four of its registers
 * (pft_ptm_config_from_regs()); @cfg must have been initialised.  With
 * @cpu->trace_id_pending the trace ID is the legacy placeholder: take
 * cfg->trace_id from the AUX_OUTPUT_HW_ID record of the CPU instead.  Returns 0,
 * -PFT_ERR_INVALID (NULL argument), -PFT_ERR_NOT_SUPPORTED (an ETMv4 or
 * ETE block) or -PFT_ERR_BAD_CONFIG (an ETMv3, not a PTM).
 */
pft_export int pft_perf_cpu_config(const struct pft_perf_cpu *cpu,
				   struct pft_ptm_config *cfg);

/*
 * Writing: a perf.data file as `perf record -e cs_etm//u` writes it in
 * per-thread mode, for one thread on one CPU with a PTM, which Linux perf
 * (6.1) reads and decodes: one cs_etm attribute, AUXTRACE_INFO (header
 * version 1, one ETMv3/PTM block), COMM, an MMAP2 per pft_perf_write_mmap(),
 * then one AUX record and one AUXTRACE buffer with all the trace, the
 * HEADER_BUILD_ID feature (the GNU build ID note of each mapped ELF file
 * that has one, so that perf or pft_input_open_perf() find the file in a
 * build-id cache) and the HEADER_AUXTRACE index.  The trace is streamed
 * to the file.
 */
struct pft_perf_write_config {
	size_t size;                  /* sizeof(struct pft_perf_write_config) */
	uint32_t etmcr, etmtraceidr, etmccer, etmidr;  /* the PTM's registers */
	uint32_t pid, tid;            /* the traced thread */
	uint32_t cpu;                 /* the CPU it ran on */
	uint32_t pmu_type;            /* cs_etm's PMU type (0: 8) */
	const char *comm;             /* its name (copied; NULL: "pft") */
	uint8_t raw;                  /* trace bytes are one unformatted source,
					 not CoreSight frames */
	uint8_t reserved[7];
};

struct pft_perf_writer;

/*
 * Create @path and write the header records.  Returns the writer, or NULL
 * with *@errcode (if not NULL) set to -PFT_ERR_INVALID (NULL @path or
 * @wc, @wc->size 0), -PFT_ERR_NOMEM or -PFT_ERR_BAD_FILE (cannot create
 * or write the file).
 */
pft_export struct pft_perf_writer *
pft_perf_write_alloc(const char *path, const struct pft_perf_write_config *wc,
		     int *errcode);

/*
 * An MMAP2 record: @filename (an absolute path, so that perf finds it) is
 * mapped at [@addr, @addr + @len) from file offset @pgoff; its build ID,
 * if it is a readable ELF file with one, is read now for HEADER_BUILD_ID.
 * All mappings come before the trace.  Returns 0, -PFT_ERR_INVALID (NULL
 * argument, a name over 4 KiB, called after pft_perf_write_trace()),
 * -PFT_ERR_NOMEM or -PFT_ERR_BAD_FILE (write error).
 */
pft_export int pft_perf_write_mmap(struct pft_perf_writer *w, uint64_t addr,
				   uint64_t len, uint64_t pgoff,
				   const char *filename);

/* Append @len trace bytes.  Returns 0, -PFT_ERR_INVALID (NULL argument,
 * called after pft_perf_write_finish()) or -PFT_ERR_BAD_FILE (write
 * error). */
pft_export int pft_perf_write_trace(struct pft_perf_writer *w,
				    const uint8_t *buf, size_t len);

/*
 * Complete the file: the AUX and AUXTRACE sizes, the feature sections and
 * the header.  Returns 0, -PFT_ERR_INVALID (NULL @w, finished before) or
 * -PFT_ERR_BAD_FILE (write error).
 */
pft_export int pft_perf_write_finish(struct pft_perf_writer *w);

/* Close the file and free @w (NULL is a no-op); without
 * pft_perf_write_finish() the file is incomplete. */
pft_export void pft_perf_write_free(struct pft_perf_writer *w);

/*
 * perf.data as a pft_input (input section): pft_input_open_perf() reads
 * the AUXTRACE_INFO metadata and makes one source per CPU block (PTM and
 * ETMv3 decoded with all four registers; ETMv4 and ETE listed with
 * decoded = 0; pft_input_source()'s cpu says which CPU), per queue of
 * AUXTRACE buffers: the CPU's in per-CPU mode (perf record -a), the
 * thread's in per-thread mode, where every CPU block is a source of the
 * one frame-formatted stream.  The buffers are fed as their AUX records
 * say: frame-formatted or raw (PFT_PERF_AUX_RAW), and only the bytes the
 * AUX records cover; an AUX record flagged TRUNCATED, PARTIAL or
 * COLLISION (trace was lost after it) ends the decode state: the next
 * buffer of the queue starts a new pipeline, after a GAP item with status
 * -PFT_ERR_TRUNCATED.  With several queues the
 * items are merged in trace-timestamp order: a queue's items carry the
 * last timestamp it decoded (0 before the first), and the queue with the
 * lowest goes next (queues without timestamps: in queue order).
 *
 * Images: the user's (pft_input_add_elf(), _image()) first; then every
 * executable MMAP/MMAP2 of a process (not the kernel's, pid -1, nor
 * "[vdso]"-like names) as an ELF at the bias the mapping gives, found as
 * @pc->symfs + path, then in the build-id cache (@pc->buildid_dir/
 * .build-id/xx/rest/elf, or the file without /elf) when the file has a
 * build ID, then by its path.  A mapping that meets a user image is left
 * to it (user = 1); one found nowhere is listed with found = NULL and its
 * addresses decode to ADDR_NACC elements.  All processes share one image:
 * two that map different files at one address cannot be decoded together
 * (-PFT_ERR_BAD_CONFIG).
 *
 * Memory: each queue holds one perf.data reader (its record buffer, at
 * most 64 KiB), one read block (256 KiB) and one pipeline; at most one
 * item per queue waits for the merge.  The mappings are kept (one entry
 * per MMAP record of a process).  Nothing grows with the trace.
 */
struct pft_input_perf_config {
	size_t size;             /* sizeof(struct pft_input_perf_config) */
	const char *symfs;       /* NULL: none */
	const char *buildid_dir; /* perf's ~/.debug; NULL: no build-id cache */
};

/*
 * Decode perf.data file @path in @in (nothing else opened before).
 * Returns 0, or (pft_input_diag() names the file and offset):
 * -PFT_ERR_BAD_FILE (cannot be read, malformed: as pft_perf_next(), an
 * AUXTRACE buffer of a CPU no block describes, an image that is not an
 * ARM ELF), -PFT_ERR_NO_SOURCE (no AUXTRACE_INFO of cs_etm, no trace unit pft
 * decodes, no trace), -PFT_ERR_BAD_CONFIG (registers, overlapping images),
 * -PFT_ERR_INVALID (NULL argument, @in opened before) or -PFT_ERR_NOMEM.
 * After a failure, @in is spent: pft_input_next() returns -PFT_ERR_INVALID.
 */
pft_export int pft_input_open_perf(struct pft_input *in, const char *path,
				   const struct pft_input_perf_config *pc);

/* One MMAP/MMAP2 record of a process, and where its file was found. */
struct pft_input_perf_mmap {
	size_t size;             /* sizeof(struct pft_input_perf_mmap) */
	uint64_t offset;         /* of the record in the file */
	uint32_t pid;
	uint32_t reserved;
	uint64_t addr, len, pgoff;
	const char *filename;    /* as recorded */
	const char *found;       /* the file loaded; NULL: not found */
	int64_t bias;            /* found: the ELF's load bias */
	uint8_t user;            /* left to a user image */
	uint8_t pad[7];
};

/* Mapping @index (0, 1, ...) of the perf.data input @in into @m (@size =
 * sizeof *@m; strings valid while @in lives).  Returns 0, -PFT_ERR_EOS
 * (past the last) or -PFT_ERR_INVALID (NULL argument, @in has no
 * perf.data). */
pft_export int pft_input_perf_mmap(const struct pft_input *in, size_t index,
				   struct pft_input_perf_mmap *m, size_t size);

/* ---- End of perf ---- */

#ifdef __cplusplus
}
#endif

#endif /* PFT_PUBLIC_PERF_H */
