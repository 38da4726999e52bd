/*
 * pft/input.h - whole captures, as pft decode reads them: OpenCSD snapshot
 * directories (pft_snap_) and inputs (trace files or snapshots with their
 * images, decoded whole, in parallel where they can be, pft_input_).
 *
 * Link with libpft-io (pkg-config libpft-io), which needs libelf,
 * libdw and threads.  <pft.h> includes every header;
 * its head comment gives the conventions and the prefixes.
 */
#ifndef PFT_PUBLIC_INPUT_H
#define PFT_PUBLIC_INPUT_H

#include "pft/common.h"
#include "pft/image.h"
#include "pft/etm3.h"
#include "pft/decode.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================
 * Inputs: OpenCSD snapshot directories
 * ====================================================================== */

/* ---- Section: snapshot (pft_snap_) ---- */

/*
 * An OpenCSD snapshot directory (snapshot.ini, trace.ini, one .ini per
 * device, trace buffers and memory dumps), as pft-flow.md section 12
 * describes it.  Loading reads and checks every .ini file; buffers and
 * dumps are only named (and checked to be regular files inside the
 * directory).
 *
 * Bounds (hostile snapshots): each .ini file is at most PFT_SNAP_INI_MAX
 * bytes and is read in one piece; parsing is linear in its size, and the
 * memory it takes is the file's size plus a fixed amount per line.
 *
 * Confinement: every file a snapshot names must resolve (symbolic links
 * followed) inside the snapshot directory, unless PFT_SNAP_ALLOW_OUTSIDE
 * is given; absolute names and ".." that leave it are refused.
 */
enum {
	PFT_SNAP_INI_MAX = 16 * 1024 * 1024
};

enum pft_snap_flags {
	PFT_SNAP_ALLOW_OUTSIDE = 1 << 0  /* files may lie outside the directory */
};

struct pft_snap_reg {
	const char *name;       /* the key before any '(' : "ETMCR" */
	uint64_t value;
};

struct pft_snap_dump {
	const char *path;       /* joined with the snapshot directory */
	uint64_t address;
	uint64_t offset;        /* into the file */
	uint64_t length;        /* bytes to use; 0: up to the end of the file */
	enum pft_mem_space space;
	const char *space_name; /* as written: "S", "N", "EL1N", "ANY", ... */
	const char *where;      /* "FILE:LINE" of its section, for messages */
};

struct pft_snap_device {
	const char *name;
	const char *cls;        /* "core" or "trace_source" */
	const char *type;       /* "PTM1.1", "ETM3.5", "Cortex-A15", ... */
	const char *file;       /* its .ini file */
	uint8_t protocol;       /* trace sources: enum pft_protocol */
	const struct pft_snap_reg *regs;
	size_t nregs;
	const struct pft_snap_dump *dumps;
	size_t ndumps;
	int buffer;             /* trace sources: index of its buffer, or -1 */
	int core;               /* trace sources: index of the core device, or -1 */
};

struct pft_snap_buffer {
	const char *name;
	const char *path;
	const char *format;     /* "coresight", "dstream_coresight", "source_data" */
	uint8_t pipe_format;    /* enum pft_pipe_format */
};

struct pft_snapshot {
	const char *dir;
	const struct pft_snap_device *devs;
	size_t ndevs;
	const struct pft_snap_buffer *bufs;
	size_t nbufs;
	uint64_t ts_frequency;   /* trace.ini [timestamp] frequency: timestamp
				  * counts per second (0: not given) */
};

/*
 * Read the snapshot in directory @dir.  @flags: enum pft_snap_flags.
 * Returns the snapshot in *@out (free it with pft_snap_free()), or a
 * negative code with *@diag (when not NULL) naming the file and line:
 *   -PFT_ERR_BAD_FILE  a file is missing, unreadable, not a regular file,
 *                      too large, outside the directory, or malformed
 *   -PFT_ERR_INVALID   NULL @dir or @out, unknown @flags
 *   -PFT_ERR_NOMEM
 */
pft_export int pft_snap_load(const char *dir, unsigned flags,
			     struct pft_snapshot **out, struct pft_diag *diag);
pft_export void pft_snap_free(struct pft_snapshot *s);

/* Register @name of device @d in *@value: 0, -PFT_ERR_NOT_FOUND (the
 * device has no such register) or -PFT_ERR_INVALID. */
pft_export int pft_snap_reg(const struct pft_snap_device *d, const char *name,
			    uint64_t *value);

/*
 * The PTM configuration of trace source @d from its ETMCR, ETMCCER, ETMIDR
 * and ETMTRACEIDR, in *@cfg.  Returns 0, or -PFT_ERR_BAD_CONFIG (a register
 * missing, wider than 32 bits, not a PTM, or a reserved trace ID) with
 * *@diag (when not NULL) naming the device's file, or -PFT_ERR_INVALID.
 */
pft_export int pft_snap_ptm_config(const struct pft_snap_device *d,
				   struct pft_ptm_config *cfg, struct pft_diag *diag);

/*
 * Add core @core's memory dumps to @img.  A dump that overlaps what @img
 * holds already (such as the ELF a snapshot's dumps were taken from) is
 * left out when the bytes there are the same.  Returns 0, or a negative
 * code with *@diag (when not NULL) naming the files (-PFT_ERR_BAD_FILE:
 * an unreadable dump or one shorter than its length; -PFT_ERR_BAD_CONFIG:
 * a dump overlaps other bytes, or passes 0xFFFFFFFF; -PFT_ERR_INVALID;
 * -PFT_ERR_NOMEM).
 */
pft_export int pft_snap_add_dumps(const struct pft_snapshot *s,
				  const struct pft_snap_device *core,
				  struct pft_image *img, struct pft_diag *diag);

/* ---- End of snapshot ---- */

/* ======================================================================
 * Inputs: trace files and snapshots, decoded whole
 * ====================================================================== */

/* ---- Section: input (pft_input_) ---- */

/*
 * What `pft decode` does, for any program: open a snapshot, or trace files
 * with their configuration, add program images, and pull the items of
 * every source of every buffer in trace order.  The input reads its files
 * itself, in fixed-size blocks (memory does not grow with the trace), and
 * builds one program image per core (the user's images, then the core's
 * snapshot dumps), shared by the sources that trace that core.
 *
 * Errors: functions return -PFT_ERR_* codes; pft_input_diag() then
 * says why, naming the file (and offset or line) at fault.
 *
 * Parallel decode (@threads > 1): a PTM trace file, raw or a formatted
 * memory buffer (PFT_PIPE_RAW or PFT_PIPE_FORMATTED, from
 * pft_input_open_file() or a snapshot; a regular file of at least two
 * pieces) of which one PTM source is decoded (a buffer's other trace IDs
 * are only counted), is cut into pieces of @piece_size bytes (formatted:
 * whole frames) that @threads worker
 * threads decode at once; pft_input_next() still returns the items in
 * trace order, the same as with one thread (with @runs, the same packets
 * and elements, possibly grouped in other runs).  Where one piece's decode
 * hands over to the next is checked, not assumed: at an I-sync where both
 * pieces' decoders are in the same state (return stack, context,
 * timestamp...).  Where no such I-sync comes soon after a piece's start,
 * the piece before decodes it too: slower, the same result.  Memory: at
 * most @threads + 1 pieces in flight, with up to 32 MiB of decoded items
 * waiting for pft_input_next() over them all (up to 8 MiB a piece, 2 MiB
 * at least; a 256 KiB piece makes about 8 MiB; with elements in @runs and
 * no @packets, a run keeps only its first packet; a fold,
 * pft_input_set_fold(), makes fewer).  The threads count the items and
 * run the fit check on their pieces; the counts and verdicts are those of
 * the serial decode.  Other
 * inputs, and files smaller than two pieces, are decoded in the calling
 * thread, and no thread is started.
 */
struct pft_input_config {
	size_t size;            /* sizeof(struct pft_input_config) */
	uint8_t packets;        /* return packets (as pft_pipe_config) */
	uint8_t elements;       /* return flow elements */
	uint8_t fit_check;      /* watch whether configurations and images fit
				 * the trace (pft_input_fit()) */
	uint8_t runs;           /* items in runs (as pft_pipe_config) */
	unsigned snap_flags;    /* enum pft_snap_flags, for snapshots */
	int id;                 /* decode only this trace ID (and those of
				 * @ids); -1: those of @ids, or with none
				 * there every source */
	uint32_t reserved;      /* ignored: the first layout ends here */
	unsigned threads;       /* decode threads; 0 or 1: the calling thread only */
	uint32_t piece_size;    /* parallel decode: bytes per piece; 0: 256 KiB
				 * (1 MiB for pft_input_count(), and with a
				 * fold, pft_input_set_fold(), up to 1 MiB as
				 * the memory per piece allows) */
	uint8_t survey;         /* survey the input instead (see below) */
	/* Added in 0.5: the trace IDs to decode, as a set: ID n is bit n % 8
	 * of @ids[n / 8] (0x01-0x6f; bit 0 and those above 0x6f must be 0).
	 * With @id, the IDs decoded are @id and these; all zero and @id -1:
	 * every source.  Snapshots, perf.data, pft_input_add_detected() and
	 * pft_input_add_etm3() with ID -1, and the survey take only these
	 * sources; a snapshot or perf.data without a source of an ID asked
	 * for is refused (-PFT_ERR_NO_SOURCE), and in a formatted file such
	 * an ID is decoded as asked (pft_input_add_detected()). */
	uint8_t ids[16];
	/* The caller knows the protocol (pft decode --protocol ptm): a RAW
	 * file whose first bytes read as another protocol (a stream of
	 * A-syncs reads as ITM) is decoded as PTM all the same by
	 * pft_input_add_detected(), which detects only its configuration. */
	uint8_t protocol_given;
	/* Added in 0.6: the sources on one time base (decode.h, merge
	 * section; enum pft_input_merge): items carry their @time, and with
	 * PFT_INPUT_MERGE_ORDER come in the order of their times (several
	 * files, such as a snapshot's per-core buffers, are then read side by
	 * side).  Counting (pft_input_count()) and the survey ignore it. */
	uint8_t merge;
	uint32_t merge_window;  /* items held at most; 0: PFT_MERGE_WINDOW */
};

enum pft_input_merge {
	PFT_INPUT_MERGE_OFF = 0,    /* items in the order of the files, no time */
	PFT_INPUT_MERGE_TIMES = 1,  /* each item with its time, as soon as known */
	PFT_INPUT_MERGE_ORDER = 2   /* every source's items in the order of time */
};

/*
 * Survey (@survey; what `pft info` prints): files and snapshot buffers are
 * read through, not decoded (no pft_input_add_*(); a PFT_PIPE_FORMATTED
 * file may have trace-port syncs).  pft_input_next() reads them all and
 * returns -PFT_ERR_EOS; then each trace ID with bytes in a file is a
 * source (pft_info_source()): @stats.bytes, @protocol, and for a PTM
 * @registers (a snapshot device's) or @detected @cfg.  perf.data is read
 * to its packets.  An unreadable file: -PFT_ERR_BAD_FILE; a file that is
 * not what its format says: pft_input_open_file()'s verdict (for standard
 * input, from pft_input_next()).
 */

struct pft_input;

/* Why a decode given two threads or more ran in the calling thread alone
 * (pft_input_parallel.serial). */
enum pft_input_serial {
	PFT_SERIAL_NOT = 0,       /* it ran in threads, or has not begun */
	PFT_SERIAL_ONE_THREAD,    /* pft_input_config.threads below 2 */
	PFT_SERIAL_SMALL,         /* less than two pieces of trace */
	PFT_SERIAL_PERF,          /* perf.data */
	PFT_SERIAL_FILES,         /* several trace files (a snapshot's buffers) */
	PFT_SERIAL_SOURCES,       /* several sources decoded from one file */
	PFT_SERIAL_STREAM,        /* standard input, a pipe or device, or a
				   * file whose start was read to detect it */
	PFT_SERIAL_PROTOCOL,      /* a protocol, or format, it does not cut
				   * (ETMv3 in a formatted buffer) */
	PFT_SERIAL_IMAGE_READER,  /* an image read through a callback */
	PFT_SERIAL_MAX
};

/* How the parallel decode went (final at the end of the trace). */
struct pft_input_parallel {
	uint64_t pieces;        /* pieces the file was cut into; 0: not parallel */
	uint64_t handovers;     /* pieces taken over at a verified I-sync */
	uint64_t absorbed;      /* pieces decoded by the piece before instead (no
				 * I-sync with the same state soon enough) */
	/* Added in 0.7: what the threads folded for a fold
	 * (pft_input_set_fold()), parts decoded twice included: ranges joined
	 * to the range before, or counted and left out (the views'), or
	 * elements written as lines (a listing's). */
	uint64_t folded;
	/* Added in 0.7: the times a thread waited, its piece's records taking
	 * all the room a piece has, for the reader to read them (the reader
	 * is the slower), and the times the reader waited for records (the
	 * threads are). */
	uint64_t room_waits, reader_waits;
	/* Added in 0.7: the threads that decoded (0: not in parallel), of
	 * those asked for: one per piece at most, and 16 where records are
	 * handed over (all but counting: the one reading thread, which takes
	 * every record, bounds such a decode long before, and each thread's
	 * pieces hold 2 MiB). */
	uint64_t threads;
	/* Added in 0.7: why it was not parallel (enum pft_input_serial), once
	 * the decode has begun. */
	uint64_t serial;
	/* Added in 0.7: the times a thread ahead of the reader waited for
	 * what its fold needs and only the reader's progress frees (a calls
	 * listing's logs), instead of handing its elements over unfolded. */
	uint64_t fold_waits;
};

/* The parallel decode's counts in *@st (@size = sizeof *@st; one that
 * ends before @folded gets the fields it has).  Returns 0 or
 * -PFT_ERR_INVALID (NULL argument, @size too small). */
pft_export int pft_input_parallel_stats(const struct pft_input *in,
					struct pft_input_parallel *st, size_t size);

/*
 * How far the reading of @in has got, for a progress display: *@done bytes
 * of *@total.  The bytes are those of the trace files decoded (a
 * snapshot's buffers; a file's bytes as they are read; in the parallel
 * decode, the pieces whose items were returned) or, for perf.data, of the
 * file (the records its slowest trace unit has reached).  *@total is 0
 * when not known (standard input, a pipe, a survey).  Cheap: call it
 * between items, from the thread that reads them.  Returns 0 or
 * -PFT_ERR_INVALID (NULL argument).
 */
pft_export int pft_input_progress(const struct pft_input *in, uint64_t *done,
				  uint64_t *total);

/*
 * Have @fn called with pft_input_progress()'s figures (and @ctx) as
 * reading goes on inside one call (pft_input_count() reads a whole trace
 * in one): after each block read, each batch of the parallel decode, and
 * every few thousand items counted; from the thread that called the
 * reading function.  @fn NULL: no calls.  Returns 0 or -PFT_ERR_INVALID
 * (NULL @in).
 */
pft_export int pft_input_set_progress(struct pft_input *in,
				      void (*fn)(void *ctx, uint64_t done, uint64_t total),
				      void *ctx);

/*
 * Counting: what `pft dump --count` and `pft decode --count` print, without
 * an item per packet or element.  pft_input_count() decodes the input to
 * its end, counting each source's packets (with @packets) and elements
 * (with @elements), and returns only the items that report a problem, in
 * trace order: a BAD packet (a PACKET item with a negative @status, with
 * @packets) and a gap that lost bytes (a GAP item with a negative
 * @status); their packets and elements are counted already.  The
 * parallel decode counts in its threads, each piece in place, and adds up
 * each piece's counts from where the piece before handed over to it (the
 * same verified I-syncs as its items): the counts are those of the serial
 * decode.  An input is read either with pft_input_next() or with
 * pft_input_count(), not both.
 */
enum { PFT_INPUT_COUNT_TYPES = 32 };   /* room per type table, > every *_TYPE_MAX */

struct pft_input_counts {
	uint64_t packets[PFT_INPUT_COUNT_TYPES];      /* PTM, by enum pft_ptm_packet_type */
	uint64_t etm3_packets[PFT_INPUT_COUNT_TYPES]; /* by enum pft_etm3_packet_type */
	uint64_t elems[PFT_INPUT_COUNT_TYPES];        /* by enum pft_elem_type */
	uint64_t insns;         /* instructions in RANGE elements */
	uint64_t bytes;         /* trace bytes of the source */
	uint64_t errors;        /* BAD packets and gaps that lost bytes */
	/* Added in 0.7, where @elems[PFT_ELEM_ERROR] is not 0: the first
	 * ERROR element's @offset and @reason, which say where the trace went
	 * wrong without listing it. */
	uint64_t first_error_offset;
	uint32_t first_error_reason;
	uint32_t reserved;
};

/*
 * The next problem item of a counting decode (see above) in *@item (@size
 * = sizeof *@item).  Returns 0, -PFT_ERR_EOS (the input is decoded: the
 * counts are final), -PFT_ERR_INVALID (NULL argument, @size too small,
 * or the input was read with pft_input_next()), or pft_input_next()'s
 * errors.
 */
pft_export int pft_input_count(struct pft_input *in, struct pft_item *item, size_t size);

/*
 * Source @index's counts so far in *@c (@size = sizeof *@c; one that ends
 * before @first_error_offset gets the fields it has); for a source that
 * is not decoded, or an input read with pft_input_next(), only @bytes and
 * @errors (its pft_input_source() statistics).  Returns 0 or
 * -PFT_ERR_INVALID (NULL argument, @size too small, @index out of range).
 */
pft_export int pft_input_counts(const struct pft_input *in, size_t index,
				struct pft_input_counts *c, size_t size);

/* Returns NULL with *@errcode (if not NULL) set to -PFT_ERR_INVALID (NULL
 * or bad @cfg) or -PFT_ERR_NOMEM. */
pft_export struct pft_input *pft_input_alloc(const struct pft_input_config *cfg,
					     int *errcode);
/* Frees the input, its pipelines and images, and the snapshot.  NULL: no-op. */
pft_export void pft_input_free(struct pft_input *in);

/*
 * Program images every source reads instructions from.  Give them before
 * opening anything.  pft_input_add_elf(): an ARM ELF moved by @bias;
 * pft_input_add_image(): a raw memory dump whose first byte is at @addr;
 * pft_input_add_symbols(): symbols only (pft_image_add_symbols(): an ELF,
 * System.map or kallsyms), its bytes are not code.  Raw images come before
 * a snapshot's dumps (a dump with the same bytes is then left out, other
 * overlaps are errors); ELFs go beneath a snapshot's dumps
 * (pft_image_add_elf_beneath(): the dumps' bytes are the code, the ELF
 * gives symbols and fills the gaps) and where their bytes differ,
 * a note (pft_input_diag()) says so.  Returns 0, or -PFT_ERR_INVALID (NULL
 * argument, or after an open).  The files are read when the first input is
 * opened.
 */
pft_export int pft_input_add_elf(struct pft_input *in, const char *path, int64_t bias);
pft_export int pft_input_add_image(struct pft_input *in, const char *path, uint32_t addr);
pft_export int pft_input_add_symbols(struct pft_input *in, const char *path);

/* What pft_input_load_image() loads. */
enum pft_input_image_kind {
	PFT_INPUT_IMAGE_RAW = 0,     /* a memory dump at @addr */
	PFT_INPUT_IMAGE_ELF = 1,     /* an ELF moved by @addr */
	PFT_INPUT_IMAGE_SYMBOLS = 2  /* symbols only, moved by @addr */
};

/*
 * Add the program file @path to @img as @kind (enum pft_input_image_kind)
 * says; on failure *@diag (when not NULL) names the file and the problem: -PFT_ERR_BAD_FILE (missing, not a regular file, empty,
 * unreadable, not a 32-bit little-endian ARM ELF; for symbols, not a
 * listing or none in it), -PFT_ERR_BAD_CONFIG (it overlaps what @img
 * holds, or passes 0xFFFFFFFF), -PFT_ERR_INVALID or -PFT_ERR_NOMEM.  (The
 * check comes before the image layer opens the file, so that a FIFO is
 * refused rather than waited on.)
 */
pft_export int pft_input_load_image(struct pft_image *img, const char *path, int kind,
				    int64_t addr, struct pft_diag *diag);

/*
 * Decode the PTM and ETMv3 sources of snapshot directory @dir (with config
 * id, only that one).  Sources of other protocols are listed by pft_input_source()
 * with decoded = 0.  Returns 0, or -PFT_ERR_BAD_FILE (the snapshot, a
 * buffer, a dump or an image cannot be used), -PFT_ERR_BAD_CONFIG (a
 * source's registers, overlapping images), -PFT_ERR_NO_SOURCE (no source to
 * decode), -PFT_ERR_INVALID or -PFT_ERR_NOMEM.
 */
pft_export int pft_input_open_snapshot(struct pft_input *in, const char *dir);

/*
 * Decode trace file @path ("-": standard input) in @format (enum
 * pft_pipe_format).  Then declare its sources with pft_input_add_ptm(),
 * pft_input_add_etm3() or pft_input_add_detected().  What a regular file
 * holds is checked first against @format, the same for a decode and a
 * survey (standard input: its first 4 MiB are read now, and decoded
 * first; a survey's first block, by pft_input_next()): refused are an
 * empty file (-PFT_ERR_BAD_FILE), a formatted buffer
 * given as PFT_PIPE_RAW, and given as frames a raw stream, bytes in which
 * no trace source is found read as frames or as raw trace, or for
 * PFT_PIPE_TPIU bytes without a trace-port FSYNC in the first 4 MiB
 * (-PFT_ERR_NO_SOURCE); pft_input_diag() names the file, what it holds and
 * the option that fits (--raw, --formatted, drop --tpiu).  Returns 0, or
 * -PFT_ERR_BAD_FILE (cannot be opened, a directory, empty),
 * -PFT_ERR_NO_SOURCE, -PFT_ERR_INVALID or -PFT_ERR_NOMEM.
 */
pft_export int pft_input_open_file(struct pft_input *in, const char *path,
				   unsigned format);

/*
 * A PTM source of the file opened last: trace ID @id (ignored for RAW
 * files) with configuration @cfg (copied).  Returns the source's index, or
 * -PFT_ERR_INVALID (no file open, @id out of range or given twice),
 * -PFT_ERR_BAD_CONFIG, -PFT_ERR_BAD_FILE (an image cannot be loaded) or
 * -PFT_ERR_NOMEM.
 */
pft_export int pft_input_add_ptm(struct pft_input *in, int id, const struct pft_ptm_config *cfg);

/*
 * Add the sources of the file opened last with their configuration
 * detected from the trace (detection section): for a RAW file its one
 * source; for a formatted file every PTM source (@id -1; with the
 * configuration's @id or @ids, those IDs) or trace ID @id, and whether
 * the buffer has trace-port syncs.  An ID asked for (@id, or the
 * configuration's) that the first bytes do not show is decoded under the
 * defaults, so that the decode says what it finds (no bytes: statistics
 * with none).  Sources of other protocols
 * are listed with decoded = 0.  Detection reads the first bytes of the file
 * once more (standard input: the 4 MiB pft_input_open_file() kept), and
 * with the images given
 * before, decides the flow options too.  Returns the number of sources
 * added, or -PFT_ERR_NO_SOURCE (no PTM trace: pft_input_diag() says what the
 * file holds), -PFT_ERR_BAD_FILE, -PFT_ERR_INVALID or -PFT_ERR_NOMEM.
 */
pft_export int pft_input_add_detected(struct pft_input *in, int id);

/*
 * ETMv3 sources of the file opened last, decoded under @cfg (copied; its
 * trace_id is replaced by each source's ID): for a RAW file its one source;
 * for a formatted file trace ID @id, or with @id -1 every source whose first
 * bytes pft_detect_frames() finds to be ETMv3 (with @cfg->m_profile, or
 * PTM: an M-profile ETM's packets read as PFT's, and such a system has no
 * PTM; sources of other protocols are listed with decoded = 0, and
 * trace-port syncs are detected as by pft_input_add_detected()).  The configuration is not detected: take it
 * from the ETM's registers (pft_etm3_config_from_regs()).  Returns the
 * number of sources added, or -PFT_ERR_NO_SOURCE (@id -1 and no ETMv3 source
 * in the file: pft_input_diag() says so), -PFT_ERR_BAD_CONFIG (a bad
 * @cfg, or a second source in a RAW file), -PFT_ERR_BAD_FILE,
 * -PFT_ERR_INVALID (NULL argument, no file open, after a snapshot, @id out
 * of range) or -PFT_ERR_NOMEM.
 */
pft_export int pft_input_add_etm3(struct pft_input *in, int id,
				  const struct pft_etm3_config *cfg);

/*
 * Work for the parallel decode's threads (pft_views_fold(),
 * pft_calls_fold(); borrowed: it must live until pft_input_next() has
 * returned -PFT_ERR_EOS or @in is freed, where the threads stop), done on the
 * elements before they come back: it applies only to an input decoded in
 * parallel (@threads) that returns elements in @runs without packets;
 * NULL: none.  With @merge a range it joins has the time of the last it
 * joined, and counts as all of them in the merge's window.  Call it before
 * the first pft_input_next().
 * Returns 0, or -PFT_ERR_INVALID (NULL @in, reading started).
 */
struct pft_fold;
pft_export int pft_input_set_fold(struct pft_input *in, const struct pft_fold *fold);

/*
 * The next item of the input (pft_pipe_next()'s items; @item->source is
 * the input's source index).  Returns 0, -PFT_ERR_EOS (every file read to
 * its end), -PFT_ERR_BAD_FILE (a read error; pft_input_diag() says
 * where), -PFT_ERR_INVALID or -PFT_ERR_NOMEM.
 */
pft_export int pft_input_next(struct pft_input *in, struct pft_item *item, size_t size);

/*
 * Diagnostic @index (0, 1, ...) of @in in *@d: first the notes, in the
 * order they arose (PFT_DIAG_NOTE: something the user should know that is
 * not an error, such as an ELF whose bytes differ from a snapshot's
 * memory, each once), then the failure of the last call that failed
 * (PFT_DIAG_ERROR).  Returns 0, -PFT_ERR_EOS (past the last) or
 * -PFT_ERR_INVALID (NULL argument).
 */
pft_export int pft_input_diag(const struct pft_input *in, size_t index, struct pft_diag *d);

struct pft_input_source {
	const char *name;       /* device name, or the file name */
	const char *path;       /* the file its bytes come from */
	int id;                 /* trace ID; -1 for RAW files */
	uint8_t protocol;       /* enum pft_protocol */
	uint8_t decoded;        /* 0: listed only (protocol not decoded,
				 * or left out by config id) */
	uint8_t detected;       /* @cfg was detected from the trace */
	uint8_t registers;      /* survey: @cfg is a snapshot's registers' */
	uint32_t determined;    /* detected: enum pft_detect_field bits the
				 * trace decided (the others are defaults) */
	uint32_t ncandidates;   /* detected: configurations that decode the
				 * trace equally well (1: no doubt) */
	struct pft_ptm_config cfg;  /* PTM sources */
	struct pft_image *image;/* owned by the input; NULL without elements */
	struct pft_pipe_stats stats;
	int cpu;                /* perf.data: the CPU of this trace unit (every
				 * item of the source comes from it); -1 for
				 * other inputs */
	/* detected: the enum pft_detect_field bits only an image decides,
	 * when none with code was given (else 0); and the readings that
	 * decode the trace as cleanly as @cfg but differently
	 * (@ncandidates, @cfg's first; pft_detect_ptm_result). */
	uint32_t needs_image;
	struct pft_detect_candidate candidates[PFT_DETECT_MAX_CANDIDATES];
	/* Added in 0.6, for every protocol (a PTM's as @cfg says): the source
	 * sends timestamps, and is cycle-accurate; the traced core's enum
	 * pft_profile (ETMv3 sources of M-profile cores: PFT_PROFILE_M, whose
	 * branch packets number exceptions the ETM's M-profile way,
	 * pft_etm3_m_exception_ipsr()).  A caller built against 0.5 passes
	 * the size before (PFT_INPUT_SOURCE_SIZE_0_5). */
	uint8_t timestamps;
	uint8_t cycle_accurate;
	uint8_t profile;
	uint8_t reserved[5];
};

/* The size of struct pft_input_source in 0.5: the least @size
 * pft_input_source() accepts. */
#define PFT_INPUT_SOURCE_SIZE_0_5 offsetof(struct pft_input_source, timestamps)

/* With fit_check: whether decoded source @index's configuration and image
 * fit its trace so far (pft_pipe_fit()).  Returns the reason (0: fits),
 * or -PFT_ERR_INVALID or -PFT_ERR_NOMEM. */
pft_export int pft_input_fit(const struct pft_input *in, size_t index,
			     struct pft_fit_verdict *v, size_t size);

/* With @merge, once reading has begun: what source @index's times came
 * to and what the merge's window gave up (pft_merge_stats()).  Returns 0
 * or -PFT_ERR_INVALID (NULL argument, @size too small, @index out of
 * range, an input without a merge, or not read yet). */
pft_export int pft_input_merge_stats(const struct pft_input *in, size_t index,
				     struct pft_merge_stats *st, size_t size);

/* The number of sources (decoded or listed). */
pft_export size_t pft_input_nsources(const struct pft_input *in);

/* Source @index in *@src (@size = sizeof *@src).  Returns 0 or
 * -PFT_ERR_INVALID. */
pft_export int pft_input_source(const struct pft_input *in, size_t index,
				struct pft_input_source *src, size_t size);

/* ---- End of input ---- */

#ifdef __cplusplus
}
#endif

#endif /* PFT_PUBLIC_INPUT_H */
