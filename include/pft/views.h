/*
 * pft/views.h - what is made of the decoded ranges: coverage (pft_cov_), names
 * made safe for outputs (pft_fmt_), source lines through libdw (pft_lines_),
 * calls and returns (pft_calls_), profiles, coverage listings and timelines
 * (pft_views_, pft_timeline_, pft_names_).
 *
 * Link with libpft-io (pkg-config libpft-io), which needs libelf,
 * libdw and threads.  <pft.h> includes every header;
 * its head comment gives the conventions and the prefixes.
 */
#ifndef PFT_PUBLIC_VIEWS_H
#define PFT_PUBLIC_VIEWS_H

#include "pft/common.h"
#include "pft/image.h"
#include "pft/flow.h"
#include "pft/decode.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================
 * Outputs: coverage (pft_cov_)
 * ====================================================================== */

/*
 * Which code a trace executed: feed it the RANGE elements of a flow
 * decoder, then ask how many bytes of an address range were executed.
 * Kept per halfword, in memory that grows with the code executed.
 */
struct pft_cov;

/* Returns NULL with *@errcode = -PFT_ERR_NOMEM on failure. */
pft_export struct pft_cov *pft_cov_alloc(int *errcode);
pft_export void pft_cov_free(struct pft_cov *c);

/* Count a flow element (@size = sizeof *@e): RANGE elements mark their
 * bytes @start .. @end - 1 as executed; other elements are ignored.
 * Returns 0, -PFT_ERR_INVALID (NULL argument, @size too small, a RANGE
 * with @end before @start or more than 4 bytes per instruction) or
 * -PFT_ERR_NOMEM. */
pft_export int pft_cov_add(struct pft_cov *c, const struct pft_elem *e, size_t size);

/* The number of executed bytes in @start .. @end - 1 (@end up to 2^32),
 * in *@bytes (halfword granularity).  Returns 0 or -PFT_ERR_INVALID (NULL
 * argument, @end < @start or beyond 2^32). */
pft_export int pft_cov_covered(const struct pft_cov *c, uint32_t start, uint64_t end,
			       uint64_t *bytes);

/* Instructions counted so far (the sum of the ranges' ninsn). */
pft_export uint64_t pft_cov_insn_count(const struct pft_cov *c);

/* ======================================================================
 * Source lines (pft_lines_): DWARF line tables through libdw
 * ====================================================================== */

/* ---- Section: lines ---- */

/*
 * Source lines and functions of ELF files, from their DWARF (read with
 * elfutils' libdw) and their ELF function symbols.  Load files with
 * pft_lines_add_elf(); then look addresses up, or list every line-table
 * row and every function (for coverage of what never ran).  All
 * addresses are run-time addresses (the file's plus its bias).  Strings
 * handed out (file and function names) are owned by the object and valid
 * until pft_lines_free().  Lookups do not change the object, but libdw
 * caches inside it: one object must not be used by two threads at once.
 */
struct pft_lines;

/* Returns NULL with *@errcode (if not NULL) = -PFT_ERR_NOMEM on failure. */
pft_export struct pft_lines *pft_lines_alloc(int *errcode);
pft_export void pft_lines_free(struct pft_lines *l);

/*
 * Load the line table and functions of the 32-bit ELF file @path, its
 * addresses moved by @bias.  Functions are the DWARF subprograms with code
 * (name, entry .. end, declaration file and line) and the sized STT_FUNC
 * symbols where no subprogram starts (file NULL, line 0); of several
 * symbols at one start, the global before the weak before the local, then
 * the name pft_image_symbolize() would choose.  A file without DWARF gives
 * symbols only.  Returns 1 (DWARF found), 0 (symbols only), or
 * -PFT_ERR_INVALID (NULL argument), -PFT_ERR_BAD_FILE (cannot open, not
 * ELF), -PFT_ERR_NOT_SUPPORTED (not 32-bit), -PFT_ERR_NOMEM or
 * -PFT_ERR_INTERNAL (libelf refused to start); on failure nothing is added.
 */
pft_export int pft_lines_add_elf(struct pft_lines *l, const char *path,
				 int64_t bias);

/* A function: code @start .. @end - 1 (@end 0: up to 2^32). */
struct pft_line_func {
	const char *name;
	uint32_t start, end;
	const char *file;       /* declaration file, NULL when unknown */
	uint32_t line;          /* declaration line, 0 when unknown */
};

/* What is known about one address. */
struct pft_line_info {
	const char *file;       /* from the line table; NULL: no row covers it */
	uint32_t line;
	/* The function a debugger would name here: the innermost inlined
	 * subroutine, else the out-of-line function; NULL if none. */
	const char *function;
	struct pft_line_func func; /* the out-of-line function (has_func) */
	uint8_t has_func;
	uint8_t reserved[7];
};

/*
 * Look @addr up (@size = sizeof *@info).  Returns 0, -PFT_ERR_NOMAP
 * (neither a row nor a function covers @addr) or -PFT_ERR_INVALID.
 */
pft_export int pft_lines_lookup(const struct pft_lines *l, uint32_t addr,
				struct pft_line_info *info, size_t size);

/* A line-table row: @file:@line is the code at @start .. @end - 1. */
struct pft_line_row {
	const char *file;
	uint32_t line;
	uint32_t start, end;
};

/*
 * Row @index of all rows (sorted by address, not overlapping; rows that
 * cover no byte are left out).  Returns 0, -PFT_ERR_EOS (past the last) or
 * -PFT_ERR_INVALID.
 */
pft_export int pft_lines_row(const struct pft_lines *l, size_t index,
			     struct pft_line_row *row, size_t size);

/*
 * Function @index of all functions (sorted by start, one per start).
 * Returns 0, -PFT_ERR_EOS (past the last) or -PFT_ERR_INVALID.
 */
pft_export int pft_lines_function(const struct pft_lines *l, size_t index,
				  struct pft_line_func *func, size_t size);

/* The function that covers @addr.  Returns 0, -PFT_ERR_NOMAP or
 * -PFT_ERR_INVALID. */
pft_export int pft_lines_function_at(const struct pft_lines *l, uint32_t addr,
				     struct pft_line_func *func, size_t size);

/* A function on the inline stack at an address (pft_lines_frames()). */
struct pft_line_frame {
	/* The function: its linkage (mangled) name, else its name, as
	 * compilers name it in profiles; NULL when DWARF gives none. */
	const char *name;
	uint32_t decl_line;      /* its declaration line (0: unknown) */
	/* Where in it: the innermost frame's line and discriminator are the
	 * address's (line table); an outer frame's are the call site of the
	 * frame inside it (DW_AT_call_line, DW_AT_GNU_discriminator). */
	uint32_t line, discriminator;
	/* The innermost frame: the address is in the function's prologue
	 * (before the line table's prologue_end mark), code the compiler
	 * made for the function's entry, not for a source line. */
	uint8_t prologue;
	uint8_t reserved[3];
};

/*
 * The inline stack at @addr from the DWARF: the out-of-line function in
 * @frames[0], then each inlined subroutine, the innermost last (@size =
 * sizeof *@frames; at most @max frames, the innermost dropped past it).
 * Returns the number of frames (>= 1), -PFT_ERR_NOMAP (no line-table row
 * or no function there) or -PFT_ERR_INVALID.
 */
pft_export int pft_lines_frames(const struct pft_lines *l, uint32_t addr,
				struct pft_line_frame *frames, size_t max, size_t size);

/* An ELF file pft_lines_add_elf() loaded. */
struct pft_lines_file {
	const char *path;       /* as given; valid until pft_lines_free() */
	uint64_t rows;          /* rows its DWARF line table gave; 0: none
				 * (not built with -g, or stripped) */
	uint8_t has_dwarf;      /* it has DWARF (perhaps without lines) */
	uint8_t reserved[7];
};

/*
 * File @index of those loaded, in the order they were added (@size =
 * sizeof *@f).  Returns 0, -PFT_ERR_EOS (past the last) or
 * -PFT_ERR_INVALID (NULL @l or @f, @size too small).
 */
pft_export int pft_lines_file(const struct pft_lines *l, size_t index,
			      struct pft_lines_file *f, size_t size);

/* The number of functions (@functions != 0) or rows; 0 for NULL @l. */
pft_export size_t pft_lines_count(const struct pft_lines *l, int functions);


/* ---- End of lines ---- */

/* ======================================================================
 * Calls (pft_calls_): call and return events over flow ranges
 * ====================================================================== */

/* ---- Section: calls ---- */

/*
 * Calls and returns, from the flow decoder's elements: put every element
 * (pft_calls_put), then take events (pft_calls_next) until
 * -PFT_ERR_NEED_INPUT.  The tracker keeps a stack of frames.
 *
 * What moves the stack is the class of each RANGE's last instruction,
 * when it was taken (pft_elem.iclass, taken); the destination is the start
 * of the next RANGE (or the address of an ADDR_NACC), so the events of a
 * branch come out when the element after it is put:
 *  - CALL, INDIRECT_CALL: push a frame (return address = the range's
 *    @end, the address after the call); event CALL at the callee's depth.
 *  - RETURN (also EXC_RETURN whose destination is a frame's return
 *    address, and INDIRECT_JUMP whose destination is a call frame's: an
 *    exception frame is left by an exception return only): the frames
 *    down to the deepest such frame are popped, one RETURN event each
 *    (those above it with PFT_CALL_F_UNWOUND: a longjmp).  With no such
 *    frame, the frames above the deepest one whose function contains the
 *    destination are popped (a longjmp into the middle of a function),
 *    all UNWOUND.  Otherwise the return is UNMATCHED_RETURN and the stack
 *    is left as it is; at depth 0 that is the only outcome, so the stack
 *    never underflows.
 *  - JUMP, INDIRECT_JUMP to the entry of a function (a symbol's start)
 *    other than the current one: TAIL_CALL, the top frame's function is
 *    replaced (at depth 0 the outermost function is).
 *  - EXCEPTION element: push an exception frame (return address = the
 *    preferred return address); event EXCEPTION.  EXC_RETURN (a range's
 *    last instruction, or an EXCEPTION_RETURN element not preceded by
 *    one) pops down to and including the most recent exception frame,
 *    event EXCEPTION_RETURN (frames above it UNWOUND); none: UNMATCHED.
 * Gaps (NO_SYNC, TRACE_ON, ERROR, ADDR_NACC) do not clear the stack: the
 * program went on while it was not seen.  A branch waiting for its
 * destination is settled with what is known (a direct call or jump's
 * encoded target, else none); when the first RANGE after a gap starts at
 * a frame's return address, the frames down to it are popped with
 * PFT_CALL_F_UNTRACED (the return happened out of sight, e.g. in code
 * outside the image or outside the trace filter).  The stack holds at most
 * @max_depth frames; a deeper push forgets the oldest frame (whose return
 * then no longer matches).  pft_calls_finish() pops every frame
 * (PFT_CALL_F_END) so that each CALL has exactly one RETURN.
 *
 * Time: each event carries the instructions executed up to and including
 * the branch, the sum of the ranges' cycle counts (cycle-accurate trace)
 * and the last timestamp seen.  Memory grows with the stack depth only
 * (at most @max_depth), and each element costs O(1) amortized whatever
 * the depth (pft_calls.c says how).
 */
enum pft_call_kind {
	PFT_CALL_CALL = 0,
	PFT_CALL_RETURN,
	PFT_CALL_TAIL_CALL,
	PFT_CALL_EXCEPTION,
	PFT_CALL_EXCEPTION_RETURN,
	PFT_CALL_UNMATCHED_RETURN,
	PFT_CALL_KIND_MAX
};

/* "call", "return", "tail_call", "exception", "exception_return",
 * "unmatched_return"; "unknown" out of range. */
pft_export const char *pft_call_kind_name(unsigned kind);

enum pft_call_flags {
	PFT_CALL_F_UNWOUND = 1 << 0,  /* popped by a return to a deeper frame */
	PFT_CALL_F_UNTRACED = 1 << 1, /* the return was not traced (a gap) */
	PFT_CALL_F_END = 1 << 2,      /* popped by pft_calls_finish() */
	PFT_CALL_F_NO_TARGET = 1 << 3 /* the callee's entry is unknown (0) */
};

struct pft_call_event {
	uint8_t kind;          /* enum pft_call_kind */
	uint8_t flags;         /* enum pft_call_flags */
	uint16_t exception;    /* EXCEPTION: the exception number */
	/* CALL, TAIL_CALL, EXCEPTION: the new frame's depth (1 = the first
	 * frame above the outermost function); RETURN, EXCEPTION_RETURN: the
	 * depth returned to; UNMATCHED_RETURN: the depth (unchanged). */
	uint32_t depth;
	uint32_t site;         /* the branch instruction (0 for pops by a
				* gap or finish) */
	uint32_t target;       /* where it went: the callee's entry, the
				* return address reached */
	/* CALL, TAIL_CALL, EXCEPTION: the function entered (its entry, as
	 * @target) and the caller's function (the frame below; for TAIL_CALL
	 * the function replaced).  RETURN, EXCEPTION_RETURN: the function left
	 * (@callee) and the function returned to (@caller).  0 = unknown. */
	uint32_t callee, caller;
	uint64_t insns;        /* instructions executed up to the event */
	uint64_t cycles;       /* when has_cycles: cycles up to the event */
	uint64_t ts;           /* when has_ts: the last timestamp */
	uint64_t entry_insns;  /* RETURN, EXCEPTION_RETURN: @insns of the
				* frame's CALL (or EXCEPTION) event */
	uint8_t has_cycles, has_ts;
	uint8_t profile;       /* EXCEPTION: the enum pft_profile of @exception
				* (pft_elem.profile) */
	uint8_t reserved[5];
};

struct pft_calls_config {
	size_t size;               /* sizeof(struct pft_calls_config) */
	/* Borrowed, may be NULL: direct branch targets are read from it when
	 * a gap hides the destination, and function entries and extents
	 * (tail calls, longjmp) come from its symbols. */
	struct pft_image *image;
	uint32_t max_depth;        /* 0: 65536 */
	uint8_t reserved[4];
};

struct pft_calls;

/* Returns NULL with *@errcode set to -PFT_ERR_INVALID (NULL @cfg, @size
 * too small) or -PFT_ERR_NOMEM. */
pft_export struct pft_calls *pft_calls_alloc(const struct pft_calls_config *cfg,
					     int *errcode);
pft_export void pft_calls_free(struct pft_calls *c);

/* Apply one flow element (@size = sizeof *@e).  Returns 0,
 * -PFT_ERR_INVALID (NULL argument, @size too small, unknown element type,
 * or events of the previous put not all taken),
 * -PFT_ERR_EOS (after finish) or -PFT_ERR_NOMEM. */
pft_export int pft_calls_put(struct pft_calls *c, const struct pft_elem *e,
			     size_t size);

/* Apply the elements of a run (@n of them, each @size = sizeof *@e bytes
 * after the one before) until one makes events: the same as a
 * pft_calls_put() of each, with one call for most of a run.  Returns how
 * many were applied (1 to @n; the events of the last wait for
 * pft_calls_next(); an element of unknown type ends the run before it),
 * -PFT_ERR_INVALID (NULL argument, @n 0 or over INT32_MAX, @size too
 * small, @e[0] of unknown type, or events of the previous put not all
 * taken), -PFT_ERR_EOS (after finish) or -PFT_ERR_NOMEM. */
pft_export int pft_calls_put_run(struct pft_calls *c, const struct pft_elem *e,
				 size_t n, size_t size);

/* Apply every element of a run (as pft_calls_put_run()), the events of
 * all of them queued in order: the same as a pft_calls_put() of each, the
 * events taken after each.  For a caller that takes the events only after
 * the run: one call, not one per element that makes events.  The queue
 * holds the run's events until taken.
 * Returns how many were applied (@n, or fewer when an element of unknown
 * type ends the run before it) or the codes of pft_calls_put_run(). */
pft_export int pft_calls_put_all(struct pft_calls *c, const struct pft_elem *e,
				 size_t n, size_t size);

/* The end of the trace: settle the last branch and pop every frame.
 * Returns 0, -PFT_ERR_INVALID (NULL @c, or events not taken),
 * -PFT_ERR_EOS (already finished) or -PFT_ERR_NOMEM. */
pft_export int pft_calls_finish(struct pft_calls *c);

/* The next event (@size = sizeof *@ev): 0, -PFT_ERR_NEED_INPUT (all taken;
 * -PFT_ERR_EOS instead after finish) or -PFT_ERR_INVALID. */
pft_export int pft_calls_next(struct pft_calls *c, struct pft_call_event *ev,
			      size_t size);

/* The next event in place, or NULL when all are taken (or @c is NULL):
 * pft_calls_next() without the copy, for a caller that takes millions.
 * The event is the library's: valid until the next put, finish or free
 * of @c, and at least as large as the struct the caller knows. */
pft_export const struct pft_call_event *pft_calls_next_in_place(struct pft_calls *c);

/* The current depth (0 = in the outermost function); 0 for NULL. */
pft_export uint32_t pft_calls_depth(const struct pft_calls *c);

struct pft_fold;

/* What the parallel decode's threads can do for this tracker, for
 * pft_input_set_fold() (NULL for a NULL @c, or out of memory): the ranges
 * between which no branch that may move the stack is taken come folded
 * into one (PFT_ELEM_F_FOLDED), which the tracker takes as it takes them
 * (views given them would miss the ranges' counts: pft_views_fold() is
 * theirs, whose elements the tracker takes too).  Valid while @c lives. */
pft_export const struct pft_fold *pft_calls_fold(struct pft_calls *c);

/*
 * pft calls' listing: a line per event, text or JSON lines
 * (doc/listing-format.md), formatted into a buffer that goes to @write
 * many lines at a time.  Calls between the same few functions come
 * millions of times: it keeps the names and the lines' heads it wrote
 * last.
 */
struct pft_calls_listing_config {
	size_t size;                  /* sizeof(struct pft_calls_listing_config) */
	uint8_t format;               /* PFT_LISTING_TEXT or PFT_LISTING_JSONL */
	uint8_t show_id;              /* text: the trace ID column (several IDs) */
	/* Borrowed, may be NULL: the names, the DWARF's first, else the
	 * images' symbols; the labels of names that functions share
	 * (pft_names_label()). */
	const struct pft_lines *lines;
	const struct pft_names *labels;
	/* Where the lines go: returns 0, or an error that sticks (the puts
	 * return it). */
	int (*write)(void *ctx, const char *buf, size_t len);
	void *ctx;
	/* Added in 0.7: with pft_calls_listing_fold(), the most logs of the
	 * decode threads' calls out at once, each about 150 KiB: what the
	 * listing's memory grows with at -j (0: 128).  Past them, a thread
	 * ahead of the reading one waits, and the thread of the piece being
	 * read hands its elements over unfolded. */
	uint32_t par_logs;
};

struct pft_calls_listing;

/* NULL with *@errcode (may be NULL) -PFT_ERR_INVALID (no writer, a format
 * it has not) or -PFT_ERR_NOMEM. */
pft_export struct pft_calls_listing *
pft_calls_listing_alloc(const struct pft_calls_listing_config *cfg, int *errcode);
/* The text's row of column names. */
pft_export int pft_calls_listing_header(struct pft_calls_listing *l);
/* Event @ev's line (@size = sizeof *@ev): of a source with trace ID @id,
 * CPU @cpu (JSON lines; -1: none), whose code is in @image (may be NULL).
 * Returns 0, the writer's error, -PFT_ERR_INVALID or -PFT_ERR_NOMEM. */
pft_export int pft_calls_listing_put(struct pft_calls_listing *l,
				     const struct pft_call_event *ev, size_t size,
				     const struct pft_image *image, int id, int cpu);
/* pft_calls_listing_put() of every event @c has queued (taken from it),
 * but those @sel (may be NULL) leaves out (pft_select_event()). */
struct pft_select;
pft_export int pft_calls_listing_take(struct pft_calls_listing *l, struct pft_calls *c,
				      const struct pft_select *sel,
				      const struct pft_image *image, int id, int cpu);
/*
 * The listing of a parallel decode (pft_input_set_fold(), in place of
 * pft_calls_fold(@c)): the decode's threads run the calls over their
 * pieces without the stack at each piece's start, and format their lines
 * once this thread has stitched each piece onto tracker @c (which then
 * stands as if it had taken the piece); the lines go out in order with
 * those of the elements that come to this thread unfolded.  Feed the
 * input's runs to pft_calls_listing_put_run(); the flush writes what is
 * left.  @sel, @image, @id, @cpu: as pft_calls_listing_take(),
 * the same for every run; borrowed, and read by the decode's threads too.
 * The writer is then called from the decode's threads too, one call at a
 * time, in the lines' order.  NULL: out of memory, or @l has a fold
 * already.  Valid while @l lives; the input is closed before @l is freed.
 */
pft_export const struct pft_fold *
pft_calls_listing_fold(struct pft_calls_listing *l, struct pft_calls *c,
		       const struct pft_select *sel, const struct pft_image *image, int id,
		       int cpu);
/* Tracker @c takes the run of @n elements (@size bytes apart) and the
 * listing writes the events (pft_calls_put_all(), then
 * pft_calls_listing_take()), and those of the pieces the fold's threads
 * ran.  Returns 0, the tracker's codes, or the writer's first error. */
pft_export int pft_calls_listing_put_run(struct pft_calls_listing *l, struct pft_calls *c,
					 const struct pft_select *sel,
					 const struct pft_image *image, int id, int cpu,
					 const struct pft_elem *e, size_t n, size_t size);
/* Write what is buffered (with a fold, every piece's lines: the decode's
 * threads are done or help): returns 0 or the writer's first error. */
pft_export int pft_calls_listing_flush(struct pft_calls_listing *l);
/* Writes nothing: flush first. */
pft_export void pft_calls_listing_free(struct pft_calls_listing *l);


/* ---- End of calls ---- */

/* ======================================================================
 * Views (pft_prof_, pft_cov_): profiles, coverage, timelines
 * ====================================================================== */

/* ---- Section: views ---- */

/*
 * Views of the executed code: coverage, profile, folded stacks (struct
 * pft_views, an accumulator) and a timeline of calls (struct
 * pft_timeline, a streaming writer).
 *
 * Output goes through a caller-supplied writer: @write(@ctx, buf, len) is
 * called with pieces of the output and returns 0, or a negative value to
 * stop (which the writing function then returns).  The library never
 * touches a file itself.  Strings from the input (function and file
 * names) are escaped for each format: JSON escaping in JSON; in lcov,
 * callgrind and folded output, control characters become '?', and in
 * folded output ';' and blanks become '_' as well.
 *
 * Functions are those of @lines (DWARF subprograms and ELF function
 * symbols) when given, else the image's symbols; code in none is counted
 * under "[unknown]".  The accumulator borrows @image and @lines: they must
 * outlive it.  Its memory grows with the code executed and the distinct
 * call paths (at most max_depth deep), never with the trace length: at
 * most 2^20 distinct ranges, calling contexts (call paths) and caller ->
 * callee pairs each (pft_views.c says why).
 */
struct pft_views_config {
	size_t size;                 /* sizeof(struct pft_views_config) */
	struct pft_image *image;     /* required: the instructions of ranges */
	const struct pft_lines *lines; /* may be NULL: no source lines */
	uint32_t max_depth;          /* calls stack limit, 0: 65536 */
	/* Per-call lengths leave out the time spent in exception handlers
	 * (their own and those of handlers nested in them). */
	uint8_t exclude_exceptions;
	/* Count instructions only (per instruction, line and branch), not
	 * calls: no calls stack, calling contexts or call edges, so that an
	 * annotation costs little more than the decode.  The functions' self
	 * counts, entries and the calls are then 0 in every view. */
	uint8_t insns_only;
	/* Count instructions and the functions' entries (calls, tail calls
	 * and exceptions into their first instruction) and self counts: all
	 * a coverage report shows, without calling contexts, call edges or
	 * timing, so that the parallel decode's workers can run the calls
	 * stack over their pieces (pft_views_fold()).  The inclusive counts,
	 * the calls and their lengths are then 0 in every view. */
	uint8_t no_contexts;
	uint8_t reserved;
	/* Cycles per second: the writers give lengths of a cycle-accurate
	 * trace in nanoseconds (0: in cycles). */
	uint64_t clock_hz;
};

struct pft_views;

/* Returns NULL with *@errcode set to -PFT_ERR_INVALID (NULL @cfg or
 * @cfg->image, @size too small) or -PFT_ERR_NOMEM. */
pft_export struct pft_views *pft_views_alloc(const struct pft_views_config *cfg,
					     int *errcode);
pft_export void pft_views_free(struct pft_views *v);

/*
 * Count one flow element of trace source @source (0-127, e.g. the trace
 * ID; each source has its own calls stack, see the calls section).  Every
 * RANGE's instructions count for coverage and, in the function they are
 * in, as self instructions (cycles too in cycle-accurate trace); calls
 * count per caller -> callee edge and as entries of the callee (FNDA:
 * calls and tail calls that reach a function's first address).  Returns
 * 0, -PFT_ERR_INVALID (NULL argument, @size too small, @source > 127, a
 * RANGE of 2^22 or more instructions), -PFT_ERR_EOS (after
 * pft_views_finish()) or -PFT_ERR_NOMEM.  Past 2^20 distinct ranges,
 * calling contexts or caller -> callee pairs (a hostile trace would grow
 * them with its length), the counting goes on coarser, as
 * pft_views_cut() says.
 */
pft_export int pft_views_put(struct pft_views *v, unsigned source,
			     const struct pft_elem *e, size_t size);

/* pft_views_put() of each element of a run (@n of them, each @size bytes
 * after the one before), in one call.  Returns 0, -PFT_ERR_INVALID (as
 * pft_views_put(), @n 0 or over INT32_MAX, or an element of unknown type:
 * none is counted then), or the other errors of pft_views_put() (the
 * elements before the one that failed are counted). */
pft_export int pft_views_put_run(struct pft_views *v, unsigned source,
				 const struct pft_elem *e, size_t n, size_t size);

/*
 * What the parallel decode's threads can do for source @source of @v, for
 * pft_input_set_fold() (call it after pft_views_set_image() of the
 * source, if any): they count the ranges themselves (RANGE_COUNT
 * elements) and fold those of one function between which no branch that
 * may move the calls stack is taken (PFT_ELEM_F_FOLDED), so that the
 * views, given these, count exactly what they count of the elements
 * unfolded.  Where one function calls others that return at once, time
 * after time, they send the calls counted (LEAF_CALLS) and the caller's
 * ranges between them as one.  Views without calling contexts (no_contexts): they count
 * every range, and run the calls stack over them too, from their last
 * range handed over; they send the entries it finds (ENTRY_COUNT), the
 * branches only the frames before it settle (CALLS_BRANCH) and what it
 * did to the stack (CALLS_STATE, CALLS_FRAME), which only such views
 * take (the others refuse them).  NULL: a NULL @v, @source over 127,
 * after pft_views_finish(), or out of memory.  Valid while @v lives; one
 * source at a time.  One difference: past 2^20 distinct ranges, which
 * ranges are counted coarser (pft_views_cut()) may differ.
 */
pft_export const struct pft_fold *pft_views_fold(struct pft_views *v, unsigned source);

/* Distinct images one accumulator reads (the config's included). */
#define PFT_VIEWS_MAX_IMAGES 31

/*
 * Source @source reads @image (borrowed, as the config's) instead of the
 * config's: for cores with different memory.  Call it before the source's
 * first element.  Each image has its own functions (its symbols, counted
 * over the sources that read it); the functions of the config's @lines
 * (the --elf files every image holds) are shared, counted over all
 * sources, as are their instructions, lines and branches.  Returns 0,
 * -PFT_ERR_INVALID (NULL @v or @image, @source > 127 or already used,
 * more than PFT_VIEWS_MAX_IMAGES images), -PFT_ERR_EOS (after
 * pft_views_finish()) or -PFT_ERR_NOMEM.
 */
pft_export int pft_views_set_image(struct pft_views *v, unsigned source,
				   struct pft_image *image);

/*
 * The end of the trace: close every source's open calls, then resolve
 * instructions to addresses, source lines and branches (reading the
 * image).  Writing needs it.  Returns 0, -PFT_ERR_INVALID, -PFT_ERR_EOS
 * (already finished), -PFT_ERR_NOMAP (the image no longer holds an
 * executed instruction) or -PFT_ERR_NOMEM.
 */
pft_export int pft_views_finish(struct pft_views *v);

/* What did not fit the accumulator's tables (2^20 entries each), and was
 * counted coarser: all 0 when everything fit. */
struct pft_views_cut {
	size_t size;             /* sizeof(struct pft_views_cut) */
	uint64_t table_max;      /* entries a table holds (2^20) */
	uint64_t contexts;       /* functions called in contexts past the
				  * limit: those of each are merged into one,
				  * whose callers are not known ("[deeper
				  * contexts]" in folded stacks) */
	uint64_t calls;          /* calls of caller -> callee pairs past the
				  * limit: not counted per pair */
	uint64_t insns;          /* instructions of ranges past the limit:
				  * counted for their function, not per
				  * instruction, line or branch */
	uint64_t tail_calls;     /* tail calls past 4096 in one call's chain:
				  * the calls they end are not timed (the
				  * lengths of one call leave them out) */
};

/* Into *@c (@size = sizeof *@c; an older, shorter struct gets the fields
 * it has).  Returns 0 or -PFT_ERR_INVALID. */
pft_export int pft_views_cut(const struct pft_views *v, struct pft_views_cut *c, size_t size);

enum pft_view_format {
	/* Coverage: per function (every function, executed or not), per
	 * source line, per conditional branch. */
	PFT_VIEW_COVERAGE_TEXT = 0,
	PFT_VIEW_COVERAGE_JSONL,
	/* lcov tracefile (TN, SF, FN, FNDA, FNF, FNH, DA, BRDA, BRF, BRH,
	 * LF, LH, end_of_record) for the source files in the line tables.
	 * DA counts a line by the most-executed of its instructions; BRDA
	 * has two branches per conditional branch instruction (0 taken,
	 * 1 not taken; block = the instruction's ordinal in its line). */
	PFT_VIEW_LCOV,
	/* Profile: per function self, inclusive, cycles, entries and the
	 * lengths of one call (struct pft_view_calls); per caller -> callee
	 * edge calls, inclusive instructions and the lengths of one call. */
	PFT_VIEW_PROFILE_TEXT,
	PFT_VIEW_PROFILE_JSONL,
	/* Callgrind (event Ir = instructions executed), for
	 * callgrind_annotate and KCachegrind. */
	PFT_VIEW_CALLGRIND,
	/* Folded stacks: "outer;...;inner SELF" per call path. */
	PFT_VIEW_FOLDED,
	/* Exceptions: per kind, how often, how long its handler ran, what it
	 * interrupted most (struct pft_view_exception). */
	PFT_VIEW_EXCEPTIONS_TEXT,
	PFT_VIEW_EXCEPTIONS_JSONL,
	/* Annotated code: per function (those executed, in the output's
	 * order), every instruction with its execution count, disassembly
	 * (the output's @disasm) and source line, source lines interleaved,
	 * and how often it changed the flow and did not where the trace tells
	 * it (pft_views_insn()). */
	PFT_VIEW_ANNOTATE_TEXT,
	/* The same as JSON lines: one {"type":"insn"} per executed
	 * instruction. */
	PFT_VIEW_ANNOTATE_JSONL,
	/* An LLVM sample profile in its text form (llvm-profdata, clang
	 * -fprofile-sample-use): per function its total and head (entry)
	 * count, per line offset from the function's declaration line and
	 * DWARF discriminator the executions of the line, the call targets of
	 * each call site, the inlined call sites' own records.  Needs source
	 * lines, as lcov does. */
	PFT_VIEW_LLVM_SAMPLE,
	PFT_VIEW_FORMAT_MAX
};

/* In which order the listings give functions (pft_views_output). */
enum pft_views_order {
	PFT_VIEWS_ORDER_ADDRESS = 0,  /* by start address */
	PFT_VIEWS_ORDER_HOT           /* most instructions executed first */
};

/*
 * How pft_views_write() writes (@size = sizeof *@o; set it before
 * writing, the default is all zeros):
 *  - @select (borrowed; NULL: everything): only the functions, lines,
 *    instructions, branches, calls (by their call site) and call paths
 *    (those that end in a selected function) of the selection are
 *    written;
 *  - @order: of the functions in the annotation (the other listings keep
 *    theirs);
 *  - @disasm: the disassembly of @insn for the annotation, written into
 *    @buf (@len bytes, NUL-terminated); it returns 0, or a negative value
 *    when it has none (NULL: the instruction's bytes in hex).
 */
struct pft_views_output {
	size_t size;                     /* sizeof(struct pft_views_output) */
	const struct pft_select *select;
	int (*disasm)(void *ctx, const struct pft_insn *insn, char *buf, size_t len);
	void *disasm_ctx;
	uint8_t order;                   /* enum pft_views_order */
	uint8_t reserved[7];
};

/* Returns 0, -PFT_ERR_INVALID (NULL argument, @size too small, unknown
 * order). */
pft_export int pft_views_set_output(struct pft_views *v, const struct pft_views_output *o);

/*
 * Write view @format after a pft_views_finish() that succeeded.
 * @test_name: lcov's TN (NULL: empty).  Returns 0, -PFT_ERR_INVALID (NULL
 * @v or @write, unknown @format, not finished), -PFT_ERR_NOT_FOUND
 * (PFT_VIEW_LCOV without source lines: pft_views_check_format()),
 * -PFT_ERR_NOMEM, or the writer's negative value (writing stops there).
 */
pft_export int pft_views_write(const struct pft_views *v,
			       enum pft_view_format format,
			       const char *test_name,
			       int (*write)(void *ctx, const char *buf, size_t len),
			       void *ctx);

/*
 * Whether view @format can be written from what @cfg gives, checked before
 * any trace is decoded: PFT_VIEW_LCOV needs source lines (a DWARF line
 * table in at least one file of @cfg->lines).  Returns 0, -PFT_ERR_INVALID
 * (NULL @cfg, @size too small, unknown @format) or -PFT_ERR_NOT_FOUND
 * (no source lines) with *@why (may be NULL) naming the file: the first
 * of @cfg->lines, else the first file of @cfg->image (a memory dump).
 */
pft_export int pft_views_check_format(const struct pft_views_config *cfg,
				      enum pft_view_format format,
				      struct pft_diag *why);

/*
 * The lengths of one call, over the calls that ended within the trace
 * (@returned of them): a call runs from the function's first instruction
 * through the instruction at which the calls tracker closes its frame
 * (its return, the return of a function it tail-called, a longjmp past
 * it; not the end of the trace), its callees included (inclusive) or not
 * (self).  Exception handlers that interrupt it count in both unless the
 * config's @exclude_exceptions; a handler is no callee.  The unit is
 * pft_views_len_unit()'s.  All 0 when @returned is 0.
 */
struct pft_view_calls {
	uint64_t returned;
	uint64_t incl_min, incl_max, incl_sum;
	uint64_t self_min, self_max, self_sum;
};

enum pft_view_len_unit {
	PFT_VIEW_LEN_INSNS = 0,  /* instructions */
	PFT_VIEW_LEN_CYCLES,     /* a cycle-accurate trace */
	PFT_VIEW_LEN_NS          /* ... with the config's clock_hz */
};

/* The unit of the lengths of calls and handlers after a successful
 * finish; "insns", "cycles", "ns" by pft_view_len_unit_name(). */
pft_export enum pft_view_len_unit pft_views_len_unit(const struct pft_views *v);
pft_export const char *pft_view_len_unit_name(unsigned unit);

/* Per-function figures, for callers that format their own. */
struct pft_view_func {
	const char *name;        /* "[unknown]" for code in no function */
	uint32_t start, end;
	const char *file;        /* NULL when unknown */
	uint32_t line;
	uint64_t entered;        /* calls and tail calls to @start */
	uint64_t self_insns;     /* instructions executed in it */
	uint64_t incl_insns;     /* ... in it and its callees (recursion once) */
	uint64_t self_cycles;    /* cycle-accurate trace: cycles of its ranges */
	struct pft_view_calls calls; /* the lengths of one call */
};

/* Function @index after a successful finish: every function of @lines
 * (run or not) and every other one code ran in, sorted by start,
 * "[unknown]" last.  Returns 0, -PFT_ERR_EOS past the last, or
 * -PFT_ERR_INVALID (NULL argument, @size too small, not finished). */
pft_export int pft_views_function(const struct pft_views *v, size_t index,
				  struct pft_view_func *func, size_t size);

/* One kind of exception taken: how often, its handler's length (from
 * the vector's first instruction through the instruction that returns,
 * nested handlers included; @len's self fields are its inclusive ones)
 * over the handlers that returned within the trace, and the functions it
 * interrupted most (most first; names as pft_views_function() gives them,
 * valid while @v lives). */
struct pft_view_exception {
	uint16_t number;         /* as the decoder's exception elements */
	uint8_t profile;         /* its enum pft_profile: the name is
				  * pft_exception_name_in(profile, number) */
	uint8_t reserved[5];
	uint64_t count;
	struct pft_view_calls len;
	size_t ninterrupted;
	struct {
		const char *name;
		uint32_t start;
		uint64_t count;
	} interrupted[8];
};

/* Kind @index (by number) of the exceptions taken, after a successful
 * finish.  Returns 0, -PFT_ERR_EOS past the last, or -PFT_ERR_INVALID. */
pft_export int pft_views_exception(const struct pft_views *v, size_t index,
				   struct pft_view_exception *e, size_t size);

/*
 * Timeline: Chrome trace-event JSON written as the calls happen.  Write
 * pft_timeline_begin() once, then put the events of each source's calls
 * tracker (pft_calls_next()) into that source's pft_timeline (one track,
 * "tid", per source), or the source's elements through its tracker
 * (pft_timeline_put_run()), then pft_timeline_end() once.  Each CALL,
 * TAIL_CALL and EXCEPTION opens a span ("ph":"B") named after the
 * function entered, each RETURN/EXCEPTION_RETURN (or the TAIL_CALL that
 * replaces it) closes it ("ph":"E"), so spans nest.  Time ("ts", in
 * microseconds): the event's cycles, timestamp or instruction count (as
 * @clock says) divided by @hz / 1e6; with @hz 0, one count is one
 * microsecond.  PFT_TIMELINE_TIME puts every track on the time base its
 * sources share (decode.h, merge section): the elements come with their
 * times (pft_timeline_put_time()), and an event is at the time of the
 * element before the one that made it (the branch that made the call or
 * return; an event of pft_calls_finish(), at the last element's); the
 * track's name event says so ("time": "timestamp ticks", with @hz
 * "timestamps at HZ Hz").
 */
enum pft_timeline_clock {
	PFT_TIMELINE_INSNS = 0,
	PFT_TIMELINE_CYCLES,     /* events without cycles fall back to insns */
	PFT_TIMELINE_TIMESTAMP,  /* events without a timestamp fall back to insns */
	PFT_TIMELINE_TIME        /* the elements' times on the common base (0.6) */
};

struct pft_timeline_config {
	size_t size;                 /* sizeof(struct pft_timeline_config) */
	int (*write)(void *ctx, const char *buf, size_t len);
	void *ctx;
	struct pft_image *image;     /* names (may be NULL; borrowed) */
	const struct pft_lines *lines; /* names first (may be NULL; borrowed) */
	const char *track_name;      /* copied; NULL: "trace <tid>" */
	uint64_t hz;
	uint32_t tid;
	uint8_t clock;               /* enum pft_timeline_clock */
	uint8_t reserved[3];
};

struct pft_timeline;

/* Returns NULL with *@errcode set to -PFT_ERR_INVALID (NULL @cfg or
 * @write, @size too small, unknown @clock) or -PFT_ERR_NOMEM.  Writes
 * the track's name (a metadata event). */
pft_export struct pft_timeline *pft_timeline_alloc(const struct pft_timeline_config *cfg,
						   int *errcode);
pft_export void pft_timeline_free(struct pft_timeline *t);

/* Write the opening of the JSON document (and a process name event).
 * Returns 0, -PFT_ERR_INVALID (NULL @write) or the writer's value. */
pft_export int pft_timeline_begin(int (*write)(void *ctx, const char *buf, size_t len),
				  void *ctx);
/* Write the closing of the JSON document.  Same returns. */
pft_export int pft_timeline_end(int (*write)(void *ctx, const char *buf, size_t len),
				void *ctx);

/* Write the spans event @ev (@size = sizeof *@ev) opens or closes (a
 * return also closes the spans of frames the calls tracker forgot at its
 * depth limit above the depth returned to, so that every span ends).
 * UNMATCHED_RETURN writes nothing.  Events are buffered, whole, in the
 * track (tracks may share one writer): the writer sees them when the
 * buffer fills and at pft_timeline_flush().  Returns 0, -PFT_ERR_INVALID
 * or the writer's value (once it failed, every later call returns it). */
pft_export int pft_timeline_put(struct pft_timeline *t,
				const struct pft_call_event *ev, size_t size);
/* Put run @e (@n elements @size bytes apart) into calls tracker @c
 * (pft_calls_put_run()) and write the spans of the events it makes, as
 * pft_timeline_put() of each (without their copies): the events are
 * taken.  Returns 0, -PFT_ERR_INVALID, the tracker's error or the
 * writer's value. */
pft_export int pft_timeline_put_run(struct pft_timeline *t, struct pft_calls *c,
				    const struct pft_elem *e, size_t n, size_t size);
/* PFT_TIMELINE_TIME: put element @e, whose time on the common base is
 * @time (pft_item @time), as pft_timeline_put_run() of it; its events
 * are at the time of the element put before it.  An element without a
 * time goes through pft_timeline_put_run() (its events at the last time
 * known).  Returns as pft_timeline_put_run(). */
pft_export int pft_timeline_put_time(struct pft_timeline *t, struct pft_calls *c,
				     const struct pft_elem *e, size_t size, uint64_t time);
/* Write the events still buffered: call it for every track before
 * pft_timeline_end() (pft_timeline_free() writes nothing).  Returns 0,
 * -PFT_ERR_INVALID (NULL @t) or the writer's value. */
pft_export int pft_timeline_flush(struct pft_timeline *t);

/*
 * Function names a reader can tell apart.  A program can have two
 * functions of one name (static functions of two files, a symbol in two
 * images at two addresses); the listings (pft calls, coverage and profile
 * text and JSON lines) then write a label instead of the bare name:
 *   "name (file.c)"      the base name of its DWARF declaration file, when
 *                        no other function of that name has one alike;
 *   "name@0x0001a2b4"    else its start address.
 * A name is ambiguous when the program's functions (those of @lines and
 * the function symbols of @images, one per name and start) have it at two
 * or more starts.  The names and files are borrowed: @lines and @images
 * must outlive the object; memory follows the ambiguous names only.
 */
struct pft_names_config {
	size_t size;                   /* sizeof(struct pft_names_config) */
	const struct pft_lines *lines; /* may be NULL */
	struct pft_image *const *images; /* @nimages of them (NULL entries skipped) */
	size_t nimages;
	uint8_t reserved[8];
};

struct pft_names;

/* Returns NULL with *@errcode set to -PFT_ERR_INVALID (NULL @cfg, @size
 * too small, NULL @images with @nimages > 0) or -PFT_ERR_NOMEM. */
pft_export struct pft_names *pft_names_alloc(const struct pft_names_config *cfg,
					     int *errcode);
pft_export void pft_names_free(struct pft_names *names);

/* The label of the function @name starting at @start: @name itself when
 * it is not ambiguous (or @names or @name is NULL), else a string that
 * lives as long as @names.  No errors. */
pft_export const char *pft_names_label(const struct pft_names *names, const char *name,
				       uint32_t start);


/*
 * A selection of functions by name (--function): the address spans of
 * the functions of @lines (DWARF subprograms and ELF function symbols)
 * and the function symbols of @images that have the name.  Borrows
 * @lines and @images (they must outlive it); memory follows the
 * functions selected.
 */
struct pft_select_config {
	size_t size;                    /* sizeof(struct pft_select_config) */
	const struct pft_lines *lines;  /* may be NULL */
	struct pft_image *const *images; /* @nimages of them (NULL entries skipped) */
	size_t nimages;                 /* at most PFT_VIEWS_MAX_IMAGES */
	uint8_t reserved[8];
};

struct pft_select;

/* Returns NULL with *@errcode set to -PFT_ERR_INVALID (NULL @cfg, @size
 * too small, NULL @images with @nimages > 0, too many images) or
 * -PFT_ERR_NOMEM. */
pft_export struct pft_select *pft_select_alloc(const struct pft_select_config *cfg,
					       int *errcode);
pft_export void pft_select_free(struct pft_select *s);

/* Select every function named @name (exactly; aliases and functions of
 * one name in several files or images all count).  Returns how many were
 * found (> 0), -PFT_ERR_NOT_FOUND (none has the name: nothing changes),
 * -PFT_ERR_INVALID or -PFT_ERR_NOMEM. */
pft_export int pft_select_add(struct pft_select *s, const char *name);

/* Spans selected (functions that touch or overlap are one); 0 for NULL. */
pft_export size_t pft_select_count(const struct pft_select *s);

/* Whether @addr is in a selected function (NULL @s selects everything). */
pft_export int pft_select_contains(const struct pft_select *s, uint32_t addr);
/* Whether any address of @start .. @end - 1 is selected. */
pft_export int pft_select_overlaps(const struct pft_select *s, uint32_t start, uint64_t end);

/*
 * The pieces of RANGE @e that lie in selected functions, read from @image
 * (the range's image), into @out (at most @max elements, each @size =
 * sizeof *@e bytes; @out may be NULL when @max is 0): the same element with its start, end, last and
 * instruction count cut to the piece; a piece that ends before @e's last
 * instruction has that piece's last instruction's class, is not taken and
 * carries no cycles.  A range wholly inside is copied, one wholly outside
 * gives none, without reading the image.  Returns the number of pieces,
 * -PFT_ERR_NOSPACE (more than @max), -PFT_ERR_NOMAP (the image lacks an
 * instruction) or -PFT_ERR_INVALID.
 */
pft_export int pft_select_clip(const struct pft_select *s, struct pft_image *image,
			       const struct pft_elem *e, struct pft_elem *out, size_t max,
			       size_t size);

/* Whether call event @ev touches the selection: its branch (@site) or
 * where it went (@target) is in a selected function, or it is a RETURN or
 * EXCEPTION_RETURN that leaves one or returns to one (@callee, @caller:
 * a longjmp that unwinds the frame, the end of the trace), so that the
 * calls and returns of the functions selected pass, each call with its
 * return, and those between other functions do not.  1 for NULL @s. */
pft_export int pft_select_event(const struct pft_select *s, const struct pft_call_event *ev);

/*
 * One executed instruction after a successful pft_views_finish(), in
 * address order (@index 0 ..): its count and, where the trace tells it,
 * how often it changed the flow (@taken; for a conditional instruction
 * that is no branch, how often it passed its condition) and how often
 * not.  PTM tells it for waypoints (branches, ISB, ...); ETMv3 for those
 * and for every conditional instruction (IT blocks included).
 */
struct pft_view_insn {
	uint32_t addr;
	uint8_t has_direction;   /* @taken and @not_taken are known */
	uint8_t conditional;     /* a conditional branch (coverage's branches) */
	uint8_t reserved[2];
	uint64_t count, taken, not_taken;
	const char *file;        /* its source line (NULL: none) */
	uint32_t line;
	uint32_t reserved2;
};

/* Returns 0, -PFT_ERR_EOS past the last, or -PFT_ERR_INVALID (NULL
 * argument, @size too small, not finished). */
pft_export int pft_views_insn(const struct pft_views *v, size_t index,
			      struct pft_view_insn *insn, size_t size);

/* ---- End of views ---- */

#ifdef __cplusplus
}
#endif

#endif /* PFT_PUBLIC_VIEWS_H */
