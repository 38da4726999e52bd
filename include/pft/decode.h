/*
 * pft/decode.h - decoding a buffer of any framing and protocol: the pipeline
 * (bytes -> packets and elements of every source, pft_pipe_), detection
 * (framing, protocol, configuration, pft_detect_, pft_info_) and the fit
 * check (does the configuration and image fit the trace, pft_fit_).
 *
 * Link with libpft (pkg-config libpft).  <pft.h> includes every header;
 * its head comment gives the conventions and the prefixes.
 */
#ifndef PFT_PUBLIC_DECODE_H
#define PFT_PUBLIC_DECODE_H

#include "pft/common.h"
#include "pft/packets.h"
#include "pft/image.h"
#include "pft/flow.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================
 * Pipeline: one buffer's bytes -> packets and elements of every source
 * ====================================================================== */

/* ---- Section: pipeline (pft_pipe_) ---- */

/* Trace protocols a CoreSight source may speak. */
enum pft_protocol {
	PFT_PROTO_UNKNOWN = 0,
	PFT_PROTO_PTM,       /* PFT v1.0/v1.1: Cortex-A9, Cortex-A15 */
	PFT_PROTO_ETMV3,     /* ETMv3.x: Cortex-A5/A7/A8/R4/R5 */
	PFT_PROTO_ETMV4,     /* ETMv4/ETE: Armv8 cores (not decoded) */
	PFT_PROTO_STM,       /* System Trace Macrocell (not decoded) */
	PFT_PROTO_ITM,       /* Instrumentation Trace Macrocell (not decoded) */
	PFT_PROTO_MAX
};

/* "unknown", "ptm", "etmv3", "etmv4", "stm", "itm". */
pft_export const char *pft_protocol_name(unsigned protocol);

/* How the bytes given to a pipeline are laid out. */
enum pft_pipe_format {
	PFT_PIPE_RAW = 0,     /* one source's bytes, not frame-formatted */
	PFT_PIPE_FORMATTED,   /* CoreSight 16-byte frames (ETB, ETF, ETR) */
	PFT_PIPE_TPIU         /* frames with FSYNC/HSYNC (a trace port) */
};

struct pft_pipe_config {
	size_t size;          /* sizeof(struct pft_pipe_config) */
	uint8_t format;       /* enum pft_pipe_format */
	uint8_t packets;      /* return every packet as a PFT_ITEM_PACKET */
	uint8_t elements;     /* run the flow decoders: return PFT_ITEM_ELEM */
	uint8_t fit_check;    /* watch whether each source's configuration and
			       * image fit its trace (pft_pipe_fit()) */
	/* Return PTM packets and elements in runs (pft_item @count): a
	 * PACKET item carries every packet decoded in one go (one, when
	 * elements are returned too), an ELEM item the elements of a run of
	 * packets (a BAD packet's elements always come in a run of their own). */
	uint8_t runs;
	uint8_t reserved[3];
};

/* What pft_pipe_next() returns. */
enum pft_item_type {
	PFT_ITEM_PACKET = 0,  /* a packet of source @source */
	PFT_ITEM_ELEM,        /* a flow element of source @source */
	PFT_ITEM_GAP          /* source @source lost bytes at @offset */
};

struct pft_etm3_packet;

struct pft_item {
	uint8_t type;         /* enum pft_item_type */
	uint8_t protocol;     /* enum pft_protocol of the source */
	uint16_t source;      /* index returned by pft_pipe_add_*() */
	/* PACKET: 0, or the -PFT_ERR_* code of a BAD packet.  GAP: 0 for a
	 * discontinuity the frames mark (the decoders were reset), or the
	 * deformatter's -PFT_ERR_* code for bytes it dropped (the source's
	 * decoders wait for the next synchronisation). */
	int status;
	uint64_t offset;      /* GAP: position in the input of the gap */
	/* PACKET: the packet; ELEM: the packet that produced the element.
	 * Valid until the next pft_pipe_next() or pft_pipe_feed() call. */
	const struct pft_ptm_packet *ptm;
	const struct pft_elem *elem;   /* ELEM; valid as @ptm */
	/* ETMv3 sources: the packet (as @ptm is for PTM sources). */
	const struct pft_etm3_packet *etm3;
	/* PACKET and ELEM: 1, or with pft_pipe_config @runs the packets at
	 * @ptm (PACKET) or elements at @elem (ELEM; @ptm is then the packet of
	 * the first, the others' packets are known by their @offset). */
	uint32_t count;
	uint32_t reserved;
	/* Added in 0.6: the item's place on the time base its sources share
	 * (merge section), set by a merge (pft_merge_next(), or an input
	 * read with pft_input_config @merge): @time in timestamp ticks when
	 * @timed is 1; 0 and 0 otherwise.  A caller built against 0.5 passes
	 * the smaller size (PFT_ITEM_SIZE_0_5) and gets the fields before. */
	uint64_t time;
	uint8_t timed;
	uint8_t reserved2[7];
};

/* The size of struct pft_item in 0.5, before @time: the least @size the
 * functions that fill an item accept. */
#define PFT_ITEM_SIZE_0_5 offsetof(struct pft_item, time)

struct pft_pipe;

/*
 * A pipeline for one trace buffer: it deformats (unless @cfg->format is
 * RAW), routes each trace ID's bytes to its source's packet decoder and,
 * with @cfg->elements, flow decoder, and applies the gap policy: a
 * discontinuity marked in the frames resets a source's decoders, dropped
 * bytes make them wait for the next A-sync, and either is returned as a
 * GAP item.  Add the sources, feed bytes, and pull items with
 * pft_pipe_next().  Returns NULL with *@errcode (if not NULL) set to
 * -PFT_ERR_INVALID (NULL @cfg, a bad format, neither packets nor
 * elements) or -PFT_ERR_NOMEM.
 */
pft_export struct pft_pipe *pft_pipe_alloc(const struct pft_pipe_config *cfg,
					   int *errcode);

/* Frees the pipeline and its decoders (not the images).  NULL: no-op. */
pft_export void pft_pipe_free(struct pft_pipe *p);

/*
 * Decode trace ID @id (0x01-0x6f; ignored for RAW input, which has one
 * source) as a PTM with configuration @cfg (copied), reading instructions
 * from @image (borrowed; it may be shared by sources of one core, as they
 * are used one at a time; NULL: elements report every walk as ADDR_NACC).
 * Add sources before the first feed.  Returns the source's index (0, 1,
 * ...), or -PFT_ERR_INVALID (NULL argument, @id out of range or already
 * added, a second source for RAW input, bytes already fed),
 * -PFT_ERR_BAD_CONFIG (as pft_ptm_pkt_alloc()) or -PFT_ERR_NOMEM.
 */
pft_export int pft_pipe_add_ptm(struct pft_pipe *p, int id,
				const struct pft_ptm_config *cfg,
				struct pft_image *image);

/*
 * Decode trace ID @id as an ETMv3 with configuration @cfg (etm3 section),
 * as pft_pipe_add_ptm() does for a PTM.  (No fit check: it is PTM's.)
 */
struct pft_etm3_config;
pft_export int pft_pipe_add_etm3(struct pft_pipe *p, int id,
				 const struct pft_etm3_config *cfg,
				 struct pft_image *image);

/*
 * Give the pipeline the next @len bytes of the buffer (borrowed until
 * pft_pipe_next() returns -PFT_ERR_NEED_INPUT).  Returns 0, or
 * -PFT_ERR_INVALID (NULL argument, @len 0, bytes of the previous feed not
 * yet used up, or after pft_pipe_finish()).
 */
pft_export int pft_pipe_feed(struct pft_pipe *p, const uint8_t *buf, size_t len);

/* The buffer has ended: pft_pipe_next() then returns what is left (a
 * packet cut off at the end is a BAD packet, status -PFT_ERR_TRUNCATED),
 * then -PFT_ERR_EOS.  Returns 0 or -PFT_ERR_INVALID. */
pft_export int pft_pipe_finish(struct pft_pipe *p);

/*
 * The next item in trace order (a packet, then the elements it produced)
 * in *@item (@size = sizeof *@item).  Returns 0, -PFT_ERR_NEED_INPUT (feed
 * more, or finish), -PFT_ERR_EOS (after finish, all returned),
 * -PFT_ERR_INVALID (NULL argument, @size too small) or -PFT_ERR_INTERNAL.
 */
pft_export int pft_pipe_next(struct pft_pipe *p, struct pft_item *item, size_t size);

/* Bytes given to the pipeline so far. */
pft_export uint64_t pft_pipe_get_offset(const struct pft_pipe *p);

/* What a pipeline saw of one trace ID or source. */
struct pft_pipe_stats {
	uint64_t bytes;       /* trace bytes of this ID */
	uint64_t packets;     /* packets decoded (sources only) */
	uint64_t errors;      /* BAD packets and GAPs (sources only) */
	uint64_t insns;       /* instructions in the elements returned */
};

/*
 * Counts for source @source (as returned by pft_pipe_add_*()) in *@st
 * (@size = sizeof *@st).  Returns 0 or -PFT_ERR_INVALID.
 */
pft_export int pft_pipe_source_stats(const struct pft_pipe *p, unsigned source,
				     struct pft_pipe_stats *st, size_t size);

/* Trace bytes seen so far for trace ID @id (0-127), whether or not a
 * source decodes it (for RAW input: every byte counts under ID 0). */
pft_export uint64_t pft_pipe_id_bytes(const struct pft_pipe *p, unsigned id);

struct pft_fit_verdict;

/*
 * With fit_check: whether source @source's configuration and image fit
 * what it has decoded so far (pft_fit_verdict(), detection section), in
 * *@v (@size = sizeof *@v).  Returns the reason when the evidence is
 * conclusive (pft_fit_evident(): the problem recurs after several syncs;
 * one damaged stretch of trace is not a misfit), else PFT_FIT_OK (0), or
 * -PFT_ERR_INVALID (bad argument, no fit check) or -PFT_ERR_NOMEM.
 */
pft_export int pft_pipe_fit(const struct pft_pipe *p, unsigned source,
			    struct pft_fit_verdict *v, size_t size);

/* ---- End of pipeline ---- */

/* ======================================================================
 * Listing: the lines of pft decode and pft dump
 * ====================================================================== */

/* ---- Section: listing (pft_listing_) ---- */

/*
 * The lines pft decode lists the elements in, and pft dump the packets, one
 * a line, as text or JSON lines (doc/listing-format.md).  struct
 * pft_listing says how, for one source, and what of a line the element or
 * packet does not hold.
 */
enum pft_listing_format { PFT_LISTING_TEXT, PFT_LISTING_JSONL };

struct pft_listing {
	size_t size;            /* sizeof(struct pft_listing) */
	uint8_t format;         /* enum pft_listing_format */
	uint8_t show_id;        /* text: the trace ID column (several sources) */
	uint8_t timed;          /* the line ends with @time (sources merged) */
	uint8_t reserved;
	int id;                 /* the source's trace ID */
	int cpu;                /* JSON: the CPU of a perf.data source; -1: none */
	uint64_t time;          /* with @timed: on the sources' common time base */
	/* An ERROR's (a BAD packet's) message; NULL: that of its code. */
	const char *message;
	/* JSON RANGE and instruction lines: the function the code is in, its
	 * source file and line (NULL: unknown), and (text instruction lines)
	 * the offset in the function. */
	const char *fn, *file;
	uint32_t line, fn_offset;
};

/* The room a line takes at most, but for the names in @fn and @file. */
enum { PFT_LISTING_LINE_MAX = 512 };

/* Element @e's line, its newline included, at @buf (@size bytes, at least
 * PFT_LISTING_LINE_MAX).  Returns its length; a length over @size says
 * the names did not fit, nothing was written, and @size bytes of that
 * length will take the line.  -PFT_ERR_INVALID: NULL arguments, or @size
 * too small. */
pft_export int pft_listing_line(const struct pft_listing *l, const struct pft_elem *e,
				char *buf, size_t size);

/*
 * A fold (pft_input_set_fold()) in which the parallel decode's threads
 * write the lines of the text listing @l (copied) themselves: the caller
 * gets TEXT elements (pft_elem_text()) in place of most elements, and the
 * others as they were, in order, to list with pft_listing_line() (errors:
 * their messages need the packets).  NULL: out of memory, or a listing
 * the threads do not write: JSON lines (their names are the caller's to
 * look up), with @timed or @message.  Not for an input that merges
 * (pft_input_config.merge: each line would need its item's time).  It
 * must live until pft_input_next() has returned -PFT_ERR_EOS or the input
 * is freed.
 */
struct pft_fold;
pft_export struct pft_fold *pft_listing_fold_alloc(const struct pft_listing *l);
pft_export void pft_listing_fold_free(struct pft_fold *fold);

/*
 * pft dump's line of a packet (its offset, [ID], bytes, type and fields)
 * at @buf (@size bytes, at least PFT_LISTING_LINE_MAX), as @l says: its
 * format, ID (text: the column with @show_id; a PTM's JSON line has no
 * "id" for -1), time, and for a BAD packet the message in place of the
 * packet's own (a gap's).  A PTM source with @ctxid_bytes has its I-syncs'
 * context IDs listed; an ETMv3 exception is named as @profile (enum
 * pft_profile) numbers them.  Returns the length, or -PFT_ERR_INVALID
 * (NULL arguments, @size too small, a packet of over 64 bytes).
 */
struct pft_etm3_packet;
pft_export int pft_listing_ptm_packet(const struct pft_listing *l,
				      const struct pft_ptm_packet *p, unsigned ctxid_bytes,
				      char *buf, size_t size);
pft_export int pft_listing_etm3_packet(const struct pft_listing *l,
				       const struct pft_etm3_packet *p, unsigned profile,
				       char *buf, size_t size);

/*
 * With pft decode --insn, an instruction's line under its range's: at @buf
 * (@size bytes, at least PFT_LISTING_LINE_MAX) the instruction at @addr
 * (@isa, @bytes long) of the element at @offset, @text its disassembly
 * (text: as the column shows it; JSON: its "asm", NULL: none), and @l's
 * place of it.  Returns as pft_listing_line().
 */
pft_export int pft_listing_insn(const struct pft_listing *l, uint64_t offset, uint32_t addr,
				unsigned isa, unsigned bytes, const char *text, char *buf,
				size_t size);

/* ---- End of listing ---- */

/* ======================================================================
 * Merge: the items of several sources on one time base
 * ====================================================================== */

/* ---- Section: merge (pft_merge_) ---- */

/*
 * The cores of a system (Zynq-7000, i.MX6, TC2) share one timestamp
 * counter, so that their trace sources can be laid side by side.  A merge
 * is given the items of several sources (of one pipeline, of several, of
 * perf.data's CPUs), each source's in its own order, and gives them back
 * with their time on that common base (pft_item @time, @timed), in the
 * order of their times (@order) or as they came.
 *
 * The time of an item, in timestamp ticks.  A timestamp is at its value.
 * An item between two of its source's timestamps T0 and T1 is at
 * T0 + (T1 - T0) * c / C (rounded down), c being the cycles its source's
 * items carried after T0 up to and including its own, and C those up to
 * and including T1's, when the source is cycle-accurate (@interpolate:
 * cores run at their own clocks, so that cycles are scaled by the ticks
 * between the timestamps, never added to them) and C > 0; else it is at
 * T0.  Items before a source's first timestamp are at that timestamp,
 * items after its last at the last.  A timestamp below the one before it
 * does not take time back: the source stays at the one before until its
 * timestamps pass it (counted: @backwards).  So a source's times never
 * fall.  The clock reads the elements (ELEM items: a RANGE's @cycles when
 * @has_cycles, a TIMESTAMP's @ts), or with @packets the packets (their
 * cycle counts and timestamps); other items carry neither.
 *
 * Order (@order 1): by time; equal times by the sources' @key (the trace
 * ID, or the CPU), then by source index; each source's own order kept.
 * An item goes out once no source can still put an earlier one: a source
 * that has not ended and holds no item with a known time blocks the
 * others until its items show it is later (pft_merge_wanted() names it).
 * Memory is bounded: at most @window items are held (plus those of the
 * last put).  Past it the merge gives up what it must, and counts it
 * (pft_merge_stats()), in this order of preference:
 *   - the items of a cycle-accurate source that wait for its next
 *     timestamp are placed at the timestamp before instead, unscaled
 *     (@flat; the order stays right);
 *   - else, when a source that blocks holds no item (it is silent, or
 *     its trace lies further on), the earliest item goes out all the same:
 *     should that source then put an item with an earlier time, its item
 *     goes out after later ones (@late: its time is right, its place is
 *     not);
 *   - items of a source that has shown no timestamp yet go out without
 *     a time (@untimed).
 * Sources without timestamps (@timestamps 0) are not placed: their items
 * go out as they come, without a time.
 *
 * Without order (@order 0): an item goes out as soon as its time is known,
 * the items of all sources otherwise in the order they were put; the
 * same window bounds what waits.
 *
 * Items are copied when put, a run split into single items: each item
 * that comes out has @count 1; an ELEM item's @ptm is the BAD packet that
 * produced it (a run with a negative @status), else NULL.  What
 * pft_merge_next() returns is valid until the next call.
 */
enum { PFT_MERGE_WINDOW = 65536 };   /* items held, by default */

struct pft_merge_config {
	size_t size;             /* sizeof(struct pft_merge_config) */
	uint32_t window;         /* items held at most; 0: PFT_MERGE_WINDOW */
	uint8_t order;           /* 1: in the order of time; 0: times only */
	uint8_t packets;         /* the clock reads the packets, not the elements */
	uint8_t reserved[2];
};

/* How a source keeps time. */
struct pft_merge_source {
	size_t size;             /* sizeof(struct pft_merge_source) */
	uint32_t key;            /* ties: the trace ID, or the CPU */
	uint8_t timestamps;      /* it sends timestamps (else: not placed) */
	uint8_t interpolate;     /* cycle-accurate: scale the cycles between
				  * two timestamps to the ticks between them */
	uint8_t reserved[2];
};

/* What a source's time came to, and what the window gave up. */
struct pft_merge_stats {
	uint64_t items;          /* items put (a run's counted one by one) */
	uint64_t timestamps;     /* timestamps read */
	uint64_t first_time;     /* its first timestamp (when @timestamps) */
	uint64_t backwards;      /* timestamps below the one before */
	uint64_t backwards_offset; /* the first of them: its offset */
	uint64_t flat;           /* items not scaled, for the window */
	uint64_t late;           /* items that went out after later ones */
	uint64_t untimed;        /* items that went out without a time */
	uint64_t held_max;       /* the most items held at once, all sources */
};

struct pft_merge;

/* Returns NULL with *@errcode (if not NULL) set to -PFT_ERR_INVALID (NULL
 * @cfg, @size too small, @order or @packets not 0 or 1) or -PFT_ERR_NOMEM. */
pft_export struct pft_merge *pft_merge_alloc(const struct pft_merge_config *cfg,
					     int *errcode);
/* Frees the merge and what it holds.  NULL: no-op. */
pft_export void pft_merge_free(struct pft_merge *m);

/*
 * Add a source, @s (copied): its index (0, 1, ... in the order added),
 * which the @source of its items must be.  Add every source before the
 * first put.  Returns the index, or -PFT_ERR_INVALID (NULL argument, @size
 * too small, after a put, more than 65536 sources) or -PFT_ERR_NOMEM.
 */
pft_export int pft_merge_add_source(struct pft_merge *m, const struct pft_merge_source *s);

/*
 * Give the merge the next item of source @item->source (@size = sizeof
 * *@item, or PFT_ITEM_SIZE_0_5): its packets, elements and raw bytes are
 * copied.  Returns 0, -PFT_ERR_INVALID (NULL argument, @size too small,
 * an unknown source or one that has ended, a bad @type, @count 0 for a
 * PACKET or ELEM, after pft_merge_finish()) or -PFT_ERR_NOMEM.
 */
pft_export int pft_merge_put(struct pft_merge *m, const struct pft_item *item, size_t size);

/* Source @source has no more items: what it holds gets its time.
 * Returns 0 or -PFT_ERR_INVALID (NULL @m, an unknown source). */
pft_export int pft_merge_end(struct pft_merge *m, unsigned source);

/* Every source has ended (pft_merge_end() of each).  Returns 0 or
 * -PFT_ERR_INVALID. */
pft_export int pft_merge_finish(struct pft_merge *m);

/*
 * The next item in *@item (@size = sizeof *@item, or PFT_ITEM_SIZE_0_5,
 * which leaves out the time).  Returns 0, -PFT_ERR_NEED_INPUT (put more:
 * pft_merge_wanted() says whose), -PFT_ERR_EOS (after pft_merge_finish(),
 * all returned) or -PFT_ERR_INVALID (NULL argument, @size too small).
 */
pft_export int pft_merge_next(struct pft_merge *m, struct pft_item *item, size_t size);

/* After -PFT_ERR_NEED_INPUT: the source whose next item the merge waits
 * for (whose input to read), or -1 when any will do; -PFT_ERR_INVALID for
 * NULL @m. */
pft_export int pft_merge_wanted(const struct pft_merge *m);

/* Source @source's statistics so far in *@st (@size = sizeof *@st).
 * Returns 0 or -PFT_ERR_INVALID. */
pft_export int pft_merge_stats(const struct pft_merge *m, unsigned source,
			       struct pft_merge_stats *st, size_t size);

/* ---- End of merge ---- */

/* ======================================================================
 * Detection (pft_detect_): which protocol and configuration a stream has
 * ====================================================================== */

/* ---- Section: detect ---- */

/*
 * Detection tells, from the bytes alone, how a trace buffer is framed,
 * which protocol each source speaks and, for PTM sources, the
 * configuration under which the stream decodes cleanly; the fit check
 * watches a running decode and says when its configuration or image looks
 * wrong.
 *
 * Bounded prefixes.  The detect functions are given a buffer and decide
 * from at most its first PFT_DETECT_PREFIX bytes (pft_detect_frames()
 * counts bytes per ID over the whole buffer, which costs one deformatter
 * pass; pass a prefix to keep it short).  Their cost is therefore fixed,
 * whatever the trace length: 16 packet-decoder passes (and 9 of two
 * small length scanners for protocol detection) over at most 64 KiB and,
 * with an image, 6 flow-decoder passes plus 6 per parse configuration the
 * packets alone cannot rule out.  Memory is freed on return.
 *
 * What the bytes can and cannot tell (pft-protocol.md "configuration a
 * packet parser needs"): cycle-accurate mode, context ID size and
 * timestamp width change packet lengths, so a wrong choice soon makes
 * bad packets, unless the packets that would show it are absent (no
 * context ID bytes without I-syncs, no width without a full timestamp).
 * Timestamps, VMID and the v1.1-only packets are seen or not.  Gray
 * coding is the reading under which consecutive timestamps rise.  Return
 * stack, branch broadcast and DMB/DSB waypoints change only the flow, so
 * they need the program image.  Every field the prefix does not decide is
 * reported as such (pft_detect_ptm_result.determined).
 */
enum {
	PFT_DETECT_PREFIX = 64 * 1024,   /* bytes a detect function reads */
	PFT_DETECT_MAX_SOURCES = 16,     /* trace IDs reported per buffer */
	PFT_DETECT_MAX_CANDIDATES = 16   /* parse configurations (2 x 4 x 2) */
};

/* How the bytes of a buffer are framed. */
enum pft_frame_format {
	PFT_FRAMES_UNKNOWN = 0,
	PFT_FRAMES_RAW,          /* one source, unformatted */
	PFT_FRAMES_MEMORY,       /* CoreSight frames from offset 0 (ETB/ETF/ETR) */
	PFT_FRAMES_TPIU          /* CoreSight frames with FSYNC/HSYNC (trace port) */
};

/* "unknown", "raw", "formatted", "tpiu". */
pft_export const char *pft_frame_format_name(unsigned format);

/* (enum pft_protocol and pft_protocol_name(): see the pipeline section.) */

/*
 * The protocol of one source's bytes, from at most the first
 * PFT_DETECT_PREFIX bytes of @buf: STPv2 ASYNC (21 nibbles F, then 0)
 * means STM; A-syncs of 11 zeros + 0x80 followed by a trace-info header
 * (0x01) mean ETMv4; A-syncs of 5 zeros + 0x80 are PTM, ETMv3 or ITM: PTM
 * and ETMv3 follow them with an I-sync (0x08, or 0x70 in ETMv3), whose
 * layout differs (PTM: address, then information byte; ETMv3: information
 * byte, then address), and the stream then decodes cleanly with only one
 * protocol's packet lengths and reserved headers; ITM syncs are not
 * followed by I-syncs.  Returns the enum pft_protocol value
 * (PFT_PROTO_UNKNOWN when no protocol decodes the bytes cleanly, or there
 * is no sync), or -PFT_ERR_INVALID (NULL @buf with @len > 0).
 */
pft_export int pft_detect_protocol(const uint8_t *buf, size_t len);

/* One trace source of a buffer. */
struct pft_detect_source {
	uint64_t bytes;          /* its bytes in the whole buffer */
	uint8_t id;              /* trace ID; 0 for raw input */
	uint8_t protocol;        /* enum pft_protocol (of its bytes in the prefix) */
	uint8_t reserved[6];
};

struct pft_detect_frames {
	size_t size;             /* sizeof(struct pft_detect_frames) */
	uint8_t format;          /* enum pft_frame_format */
	uint8_t nsources;        /* entries in @sources, by increasing ID */
	uint8_t more_sources;    /* 1: more IDs had data than @sources holds */
	uint8_t reserved[5];
	uint64_t bad_frames;     /* frames the deformatter rejected (whole buffer) */
	struct pft_detect_source sources[PFT_DETECT_MAX_SOURCES];
};

/*
 * How @buf (@len bytes from the start of a capture) is framed, and its
 * sources.  Each reading (raw, memory-buffer frames, and trace-port frames
 * when an FSYNC occurs) of the first PFT_DETECT_PREFIX bytes is scored by
 * the bytes of its sources whose protocol pft_detect_protocol() recognises;
 * the best wins (raw on a tie: fewest assumptions; frames only when their
 * recognised sources hold at least half the prefix).  Then the whole
 * buffer is deformatted in that format to count each ID's bytes.  @res
 * (@size = sizeof *@res) is filled also when the format is unknown (no
 * sources then).  Returns 0, -PFT_ERR_INVALID (NULL @res or NULL @buf
 * with @len > 0, @size too small) or -PFT_ERR_NOMEM.
 */
pft_export int pft_detect_frames(const uint8_t *buf, size_t len,
				 struct pft_detect_frames *res, size_t size);

/*
 * The first bytes of trace ID @id in the CoreSight frames at @buf (@tpiu:
 * trace-port frames with syncs), up to @cap of them into @out: the prefix
 * to give pft_detect_protocol() and pft_detect_ptm() for one source of a
 * formatted buffer.  Bad frames are skipped.  Returns the number of bytes
 * copied, or -PFT_ERR_INVALID (NULL @buf or @out) or -PFT_ERR_NOMEM.
 */
pft_export int pft_detect_id_bytes(const uint8_t *buf, size_t len, int tpiu, unsigned id,
				   uint8_t *out, size_t cap);

/* Bits of pft_detect_ptm_result.determined: the fields the trace decided. */
enum pft_detect_field {
	PFT_DETECT_CYCLE_ACCURATE = 1 << 0,
	PFT_DETECT_CTXID_BYTES = 1 << 1,
	PFT_DETECT_TIMESTAMPS = 1 << 2,
	PFT_DETECT_TS_64BIT = 1 << 3,
	PFT_DETECT_TS_GRAY = 1 << 4,
	PFT_DETECT_VMID = 1 << 5,
	PFT_DETECT_VERSION = 1 << 6,
	PFT_DETECT_RETURN_STACK = 1 << 7,
	PFT_DETECT_BRANCH_BROADCAST = 1 << 8,
	PFT_DETECT_DMB_DSB = 1 << 9
};

/* A parse configuration: the three options that change packet lengths. */
struct pft_detect_candidate {
	uint8_t cycle_accurate, ctxid_bytes, ts_64bit;
	uint8_t reserved;
	uint32_t bad;            /* its bad packets + implausible packets */
};

struct pft_detect_ptm_result {
	size_t size;             /* sizeof(struct pft_detect_ptm_result) */
	/* The best reading; fields not in @determined keep the defaults of
	 * pft_ptm_config_init() (nothing optional enabled, PFTv1.1, 64-bit binary
	 * timestamps) or the best guess noted below. */
	struct pft_ptm_config config;
	uint32_t determined;     /* enum pft_detect_field bits */
	/* Bad or implausible packets under @config after the first A-sync
	 * (0 for a clean decode; more means no candidate fits: damaged trace
	 * or not PTM).  With an image: flow errors under @config too. */
	uint32_t errors;
	uint32_t flow_errors;    /* with an image: error elements under @config */
	uint32_t asyncs, isyncs; /* under @config */
	uint64_t examined;       /* bytes read */
	/* The parse configurations that decode the prefix as well as the
	 * best (it included, first) and whose packets say something else
	 * (readings whose packets are the best's, such as either timestamp
	 * width without a full timestamp, are no choice and are left out):
	 * more than one means the prefix cannot tell them apart.  The
	 * fields where any reading as good as the best differs are not in
	 * @determined. */
	uint32_t ncandidates;
	struct pft_detect_candidate candidates[PFT_DETECT_MAX_CANDIDATES];
};

/*
 * Find the PTM configuration of one source's bytes @buf, from at most the
 * first PFT_DETECT_PREFIX bytes.  Every parse configuration (cycle-accurate
 * 0/1 x context ID 0/1/2/4 x timestamps 48/64 bits) decodes the prefix;
 * each scores one per bad packet after the first A-sync (a truncated packet
 * at the end of the prefix does not count), per I-sync with reserved bits
 * set or an ARM address that is not word aligned, and per context ID that
 * changes in an I-sync with no context ID packet before it; the lowest
 * score wins, the simplest configuration (fewest context ID bytes, not
 * cycle-accurate, 48-bit) on a tie.  Then under the winner: timestamps and
 * VMID are on when their packets occur (and off when at least two I-syncs
 * came without them); Gray coding when the Gray reading of consecutive
 * timestamps falls less often than the binary one; PFTv1.1 is determined
 * by a VMID or exception-return packet, a Hyp I-sync or 64-bit timestamps
 * (the guess is v1.0 with 48-bit Gray timestamps, else v1.1).  With
 * @image (borrowed; may be NULL), parse configurations that tie are also
 * decoded into flow and the ones with the fewest flow errors stay (a
 * stream read as cycle-accurate when it is not can parse cleanly, but has
 * one atom per atom packet then); and the flow decoder runs the prefix under
 * return stack x branch broadcast x DMB/DSB waypoints (no return stack
 * with branch broadcast) and the fewest error and ADDR_NACC elements
 * decide; branch broadcast is also told by how taken direct branches are
 * traced (branch packets or E atoms).  When every flow setting has flow
 * errors, the image is not the code that ran (or not at its address):
 * the flow options stay off and undetermined (@flow_errors says how
 * many).  An image with no code is no image.  @res (@size = sizeof *@res).
 * Returns 0, -PFT_ERR_NOSYNC (no A-sync in the prefix; @res still filled,
 * with nothing determined), -PFT_ERR_INVALID (NULL @res, NULL @buf with
 * @len > 0, @size too small) or -PFT_ERR_NOMEM.
 */
pft_export int pft_detect_ptm(const uint8_t *buf, size_t len,
			      struct pft_image *image,
			      struct pft_detect_ptm_result *res, size_t size);

/*
 * Write @cfg as pft command-line options into @buf (@len bytes, NUL
 * terminated), the options a user passes to get it: "--cycle-accurate
 * --ctxid-bytes 4 --timestamps --ts-bits 48 --ts-gray --vmid
 * --return-stack --branch-broadcast --dmb-dsb-waypoints --pft-version
 * 1.0", each only when it differs from pft_ptm_config_init()'s default.
 * Returns the length (0 for the default configuration), -PFT_ERR_INVALID
 * (NULL argument) or -PFT_ERR_NOSPACE (@len too small; @buf holds a
 * truncated string when @len > 0).
 */
pft_export int pft_ptm_config_options(const struct pft_ptm_config *cfg, char *buf,
				  size_t len);

/* ---- Fit check: does the configuration (and image) fit the trace? ---- */

/* The likely cause when a decode looks wrong. */
enum pft_fit_reason {
	PFT_FIT_OK = 0,              /* nothing wrong seen */
	PFT_FIT_CYCLE_ACCURATE,      /* cycle-accurate mode is wrong */
	PFT_FIT_CTXID_BYTES,         /* context ID size is wrong */
	PFT_FIT_TS_BITS,             /* timestamp width is wrong */
	PFT_FIT_TS_GRAY,             /* timestamp encoding (Gray/binary) is wrong */
	PFT_FIT_VERSION,             /* PFT version is wrong */
	PFT_FIT_RETURN_STACK,        /* return stack setting is wrong */
	PFT_FIT_BRANCH_BROADCAST,    /* branch broadcast setting is wrong */
	PFT_FIT_DMB_DSB,             /* DMB/DSB waypoint setting is wrong */
	PFT_FIT_CONFIG,              /* errors after syncs; no configuration fits */
	PFT_FIT_IMAGE_ADDRESS,       /* trace runs outside the image: wrong address? */
	PFT_FIT_IMAGE_CONTENT,       /* the image's code contradicts the trace */
	PFT_FIT_NOT_PTM,             /* the bytes are another protocol or framed */
	PFT_FIT_NO_IMAGE,            /* flow decoded with no code image at all */
	PFT_FIT_REASON_MAX
};

/* "ok", "cycle_accurate", "ctxid_bytes", "ts_bits", "ts_gray",
 * "version", "return_stack", "branch_broadcast", "dmb_dsb", "config",
 * "image_address", "image_content", "not_ptm", "no_image"; "unknown" out
 * of range. */
pft_export const char *pft_fit_reason_name(unsigned reason);

struct pft_fit_verdict {
	size_t size;             /* sizeof(struct pft_fit_verdict) */
	uint32_t reason;         /* enum pft_fit_reason */
	/* Under the configuration in use: */
	uint32_t bad_packets;    /* bad packets after the first A-sync */
	uint32_t asyncs, isyncs;
	uint32_t flow_errors;    /* ERROR elements */
	uint32_t addr_nacc;      /* ADDR_NACC elements */
	uint32_t nacc_after_isync; /* ... of the first range after an I-sync */
	/* The configuration the saved prefix decodes best with (when the
	 * reason is a configuration field; else the one in use). */
	struct pft_ptm_config suggested;
	/* Why, naming the option or image to change: code PFT_ERR_BAD_CONFIG
	 * (a configuration field), PFT_ERR_BAD_IMAGE (the image) or
	 * PFT_ERR_NO_SOURCE (not PTM); 0 when it fits.  From
	 * pft_input_fit(), @diag.file is the trace file and @diag.text
	 * starts with it (and the trace ID). */
	struct pft_diag diag;
};

struct pft_fit;

/*
 * Allocate a fit check for a decode under @cfg (copied) with @image
 * (borrowed, may be NULL; must outlive the fit check).  The fit check keeps
 * a copy of the first PFT_DETECT_PREFIX stream bytes it is given (memory
 * is constant), to find the configuration that would fit.  Returns NULL
 * with *@errcode (if not NULL) set to -PFT_ERR_INVALID (NULL @cfg) or
 * -PFT_ERR_NOMEM.
 */
pft_export struct pft_fit *pft_fit_alloc(const struct pft_ptm_config *cfg,
					 struct pft_image *image, int *errcode);
pft_export void pft_fit_free(struct pft_fit *fit);

/*
 * Count a packet of the decode: @pkt as pft_ptm_pkt_next() filled it and
 * @status its return value (0 or a negative error with a BAD packet).
 * Packets must come in stream order, each once.  Returns 0 or
 * -PFT_ERR_INVALID (NULL argument, @size too small).
 */
pft_export int pft_fit_packet(struct pft_fit *fit, const struct pft_ptm_packet *pkt,
			      size_t size, int status);

/* Count a flow element of the decode (@size = sizeof *@elem).  Returns 0
 * or -PFT_ERR_INVALID. */
pft_export int pft_fit_elem(struct pft_fit *fit, const struct pft_elem *elem,
			    size_t size);

/*
 * Whether the evidence so far is conclusive: 1 when bad packets followed
 * at least two A-syncs, flow errors came in at least two sync intervals,
 * or the flow left the image right after each of at least two I-syncs (a
 * caller may then ask for the verdict early), else 0; -PFT_ERR_INVALID for
 * NULL @fit.
 */
pft_export int pft_fit_evident(const struct pft_fit *fit);

/*
 * The verdict (@size = sizeof *@v), the first of: bad packets and the
 * saved prefix is formatter frames or another protocol (NOT_PTM); another
 * parse configuration decodes the prefix cleanly (the field that differs:
 * CYCLE_ACCURATE, CTXID_BYTES, TS_BITS); bad packets after A-syncs that no
 * configuration avoids (CONFIG: damaged trace); packets PFTv1.0 cannot
 * send under version 1.0 (VERSION); timestamps that fall under the
 * encoding in use and rise under the other (TS_GRAY); with an image: the
 * first range after most I-syncs outside it (IMAGE_ADDRESS); a flow option
 * the prefix decides otherwise, errors or not (RETURN_STACK,
 * BRANCH_BROADCAST, DMB_DSB); other flow errors (IMAGE_CONTENT).  Can be
 * asked at any time and repeatedly.  Returns the reason (>= 0),
 * -PFT_ERR_INVALID (NULL argument, @size too small) or -PFT_ERR_NOMEM.
 */
pft_export int pft_fit_verdict(struct pft_fit *fit, struct pft_fit_verdict *v,
			       size_t size);

/*
 * What a buffer holds (pft info), read as a stream: feed it in blocks of
 * any size, then finish; memory stays fixed (the first PFT_DETECT_PREFIX
 * bytes of the buffer and of each trace ID), whatever the buffer's length.
 * Per source: its bytes, its protocol (pft_detect_protocol() of its first
 * bytes) and for PTM the configuration pft_detect_ptm() finds.
 */
struct pft_info_config {
	size_t size;             /* sizeof(struct pft_info_config) */
	/* enum pft_frame_format: PFT_FRAMES_RAW (one source), _MEMORY or
	 * _TPIU; PFT_FRAMES_UNKNOWN: frames, with or without trace-port syncs
	 * as pft_detect_frames() decides from the first bytes. */
	uint8_t framing;
	uint8_t reserved[7];
};

struct pft_info_source {
	size_t size;             /* sizeof(struct pft_info_source) */
	int id;                  /* trace ID; -1 for a raw buffer */
	uint8_t protocol;        /* enum pft_protocol */
	uint8_t detected;        /* PTM: @cfg, @determined, @ncandidates are set */
	uint8_t reserved[2];
	uint64_t bytes;          /* the source's bytes in the buffer */
	uint32_t determined;     /* as struct pft_detect_ptm_result */
	uint32_t ncandidates;
	struct pft_ptm_config cfg;
	/* PTM, detected: the enum pft_detect_field bits only an image can
	 * decide, when no image with code was given (pft_info_set_image()):
	 * return stack, branch broadcast, DMB/DSB waypoints; else 0. */
	uint32_t needs_image;
	uint32_t reserved2;
	/* The readings that decode the prefix as cleanly as @cfg but say
	 * something else (@ncandidates of them, @cfg's first), as struct
	 * pft_detect_ptm_result. */
	struct pft_detect_candidate candidates[PFT_DETECT_MAX_CANDIDATES];
};

struct pft_info;

/* Returns NULL with *@errcode (if not NULL) set to -PFT_ERR_INVALID (NULL
 * or bad @cfg) or -PFT_ERR_NOMEM. */
pft_export struct pft_info *pft_info_alloc(const struct pft_info_config *cfg, int *errcode);
/* NULL: no-op. */
pft_export void pft_info_free(struct pft_info *info);

/* The next @len bytes of the buffer (not kept: @buf may be reused at
 * once).  Returns 0, -PFT_ERR_INVALID (NULL @info, NULL @buf with @len,
 * after pft_info_finish()) or -PFT_ERR_NOMEM. */
pft_export int pft_info_feed(struct pft_info *info, const uint8_t *buf, size_t len);

/* Detect with @image (borrowed, may be NULL; it must outlive @info), as
 * pft_detect_ptm() does: the flow options too.  Before pft_info_finish().
 * Returns 0 or -PFT_ERR_INVALID. */
pft_export int pft_info_set_image(struct pft_info *info, struct pft_image *image);

/* The end of the buffer: detection runs now.  Returns 0, -PFT_ERR_INVALID
 * (NULL, or finished already) or -PFT_ERR_NOMEM. */
pft_export int pft_info_finish(struct pft_info *info);

/* The framing (enum pft_frame_format; decided once PFT_DETECT_PREFIX bytes
 * were fed, or at the finish), or -PFT_ERR_INVALID. */
pft_export int pft_info_framing(const struct pft_info *info);

/* After pft_info_finish(): source @index (raw: the one source; frames:
 * every trace ID with bytes, by increasing ID) in *@src (@size = sizeof
 * *@src).  Returns 0, -PFT_ERR_EOS (past the last) or -PFT_ERR_INVALID. */
pft_export int pft_info_source(const struct pft_info *info, size_t index,
			       struct pft_info_source *src, size_t size);

/* ---- End of detect ---- */

#ifdef __cplusplus
}
#endif

#endif /* PFT_PUBLIC_DECODE_H */
