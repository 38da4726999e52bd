/* input.h - trace inputs shared by the subcommands: snapshots, raw and
 * frame-formatted files, and the options that select them. */
#ifndef PFT_INPUT_H
#define PFT_INPUT_H

#include <stdint.h>

#include "pft.h"
#include "images.h"

/* Options every trace-reading command takes (see shared/spec/cli.md). */
struct input_opts {
	const char *snapshot, *raw, *formatted;
	const char *perf;       /* --perf FILE */
	const char *symfs, *buildid_dir;
	int id;                 /* the first --id; -1: none given, every
				 * source of the protocol */
	uint8_t ids[16];        /* every --id: ID n is bit n % 8 of ids[n / 8] */
	int nids;               /* how many (each counted once) */
	int tpiu;               /* formatted input has FSYNC/HSYNC */
	int allow_outside;      /* --allow-outside-files: a snapshot may name
				 * files outside its directory */
	struct pft_ptm_config cfg;  /* for --raw/--formatted */
	int cfg_given;          /* a configuration flag was given */
	int ts_format_given;    /* --ts-bits or --ts-gray */
	const struct pft_core *core; /* --core */
	const char *ptm_only;   /* a flag ETMv3 does not have, when given */
	int etm3;               /* --protocol etmv3, or an ETMv3's --reg ETMIDR */
	int protocol_given;     /* --protocol */
	struct pft_etm3_config cfg3; /* with etm3: the configuration */
	/* --reg values: ETMCR, ETMCCER, ETMIDR, ETMTRACEIDR */
	uint32_t reg[4];
	int reg_given[4];
	unsigned jobs;          /* -j/--jobs: decode threads; 0: the default */
	int counting;           /* the command reads with input_count() */
	/* --merge (enum pft_input_merge: ORDER), or a view's TIMES;
	 * --merge-window N (0: the library's default). */
	int merge;
	uint32_t merge_window;
};

/* The codes of the shared input options (options.c has their table). */
enum {
	INPUT_OPT_BASE = 1000,
	OPT_SNAPSHOT = INPUT_OPT_BASE,
	OPT_RAW,
	OPT_FORMATTED,
	OPT_ID,
	OPT_TPIU,
	OPT_CYCLE_ACCURATE,
	OPT_TIMESTAMPS,
	OPT_CTXID_BYTES,
	OPT_VMID,
	OPT_RETURN_STACK,
	OPT_PFT_VERSION,
	OPT_TS_BITS,
	OPT_TS_GRAY,
	OPT_BRANCH_BROADCAST,
	OPT_REG,
	OPT_PERF,
	OPT_SYMFS,
	OPT_BUILDID_DIR,
	OPT_PROTOCOL,
	OPT_JOBS,
	OPT_DMB_DSB_WAYPOINTS,
	OPT_ALLOW_OUTSIDE,
	OPT_MERGE,
	OPT_MERGE_WINDOW,
	OPT_CORE,
	INPUT_OPT_END
};

void input_opts_init(struct input_opts *o);
/* Handle a shared input option (code OPT_*); returns 0, or -1 after
 * printing an error. */
int input_option(struct input_opts *o, int code, const char *arg);
/* Check the combination and settle the configuration (from --reg);
 * returns 0, or -1 after printing an error. */
int input_opts_check(struct input_opts *o);
/* Settle the protocol and configuration of --protocol, --core, the flags
 * and --reg (input_opts_check() does; encode calls it alone, with
 * @model: --core's PTM version even without flags, where a decode would
 * detect the configuration): 0, or -1 after printing an error. */
int input_settle_config(struct input_opts *o, int model);
/* The profile of the traced core (enum pft_profile): --core's, else that
 * of the configuration (an M-profile ETM's --reg ETMIDR). */
int input_profile(const struct input_opts *o);

/* What the command keeps of each source (pft_input_source()), plus
 * whether an A-sync was seen in it, and program flow. */
struct source {
	struct pft_input_source info;
	int synced_once;
	int flow_once;            /* an element other than NO_SYNC came */
	struct pft_input_counts counts;   /* input_count(): final at the end */
};

/* An input opened for a command: the library's pft_input and its sources. */
struct input {
	struct pft_input *in;
	struct source *src;
	size_t nsrc;
	int multi_id;            /* the input has trace IDs: print them */
	int has_images;          /* a snapshot, or --elf/--image given */
	int perf;                /* a perf.data input: its missing images are
				  * named as they are found missing */
	int counting;            /* read with input_count() */
	int warnings;            /* the input is damaged (said when opened) */
	unsigned jobs;           /* -j N given (0: not) */
	int serial_said;         /* the note on why -j ran one thread */
	int errors_said;         /* input_fit_report() said why the trace has errors */
};

/* After a decode with a merge: one line on stderr for each source whose
 * times or order the merge's window gave up (pft_merge_stats()), naming
 * @window_option (NULL: none) that widens it, and for timestamps that
 * went back. */
void input_merge_report(const struct input *in, const char *window_option);

/* Open the input the options name, for packets and/or elements, with the
 * program images @images (may be NULL).  Names the sources it will not
 * decode on stderr.  Returns 0, or an exit code after printing a one-line
 * error. */
int input_open(struct input *in, const struct input_opts *o, int packets, int elements,
	       const struct image_args *images);
void input_close(struct input *in);

/* After the decode: one line on stderr for each source that had no trace,
 * or no A-sync in it (when @packets were listed), or no program flow (when
 * elements were).  Returns how many. */
int input_check_sources(const struct input *in, const struct input_opts *o, int packets);

/* Whether the options name trace ID @id (--id). */
int input_names_id(const struct input_opts *o, int id);

/* "id 0x13: " in @buf for a source with an ID, else "": what a message
 * about source @s puts after the file name.  Returns @buf. */
const char *input_id_prefix(const struct pft_input_source *s, char buf[16]);
/* One line on stderr for the @n errors in source @s's trace, the first at
 * @offset (@what was wrong); @lists says what lists them all. */
void input_report_trace_errors(const struct pft_input_source *s, uint64_t n, uint64_t offset,
			       const char *what, const char *lists);
/* The options of detected source @s's reading @k (0: @s->cfg's; up to
 * @s->ncandidates) into @buf: "" for none.  0, or -1 when they do not fit. */
int input_candidate_options(const struct pft_input_source *s, unsigned k, char *buf, size_t len);
/* The options only an image decides that @s needs one for (@s->needs_image),
 * the @k-th of them in *@name: 0, or -1 past the last. */
int input_needs_image(const struct pft_input_source *s, unsigned k, const char **name);
/* Print why the last call on @in failed with @err. */
void input_report_error(const struct pft_input *in, int err);
/* Add @images (may be NULL) to @in: 0 or a negative error code
 * (pft_input_diag() says why). */
int input_add_images(struct pft_input *in, const struct image_args *images);

/* After the decode: one line on stderr for each source whose
 * configuration or image does not fit its trace.  Returns how many, plus
 * the warnings the open gave (a damaged input: exit 1 too); sets
 * in->errors_said where one of those lines accounts for the trace's
 * errors. */
int input_fit_report(struct input *in);

/* The next item: 1, 0 at the end (the sources' counts are then up to
 * date), or -1 after printing a one-line error.  Packets and elements
 * come in runs (item.count; they cost less, in the parallel decode
 * above all); an element's @ptm is the packet of the run's first. */
int input_next(struct input *in, struct pft_item *item);

/* Decode the input counting (pft_input_count()): the next item that
 * reports a problem (a BAD packet, a gap that lost bytes), as
 * input_next() returns it; at the end, each source's counts are in its
 * @counts. */
int input_count(struct input *in, struct pft_item *item);

/* Whether one source of @in is decoded (the one a parallel decode cuts
 * into pieces), and which (*@k). */
int input_one_decoded(const struct input *in, size_t *k);

/* The selection of --function's @n @names in *@sel (left NULL without
 * any): their code in @lines and the images of the decoded sources.
 * Returns 0, or -1 after a one-line error naming a name that no function
 * has. */
int input_select(const struct input *in, const char *cmd, const struct pft_lines *lines,
		 const char *const *names, size_t n, struct pft_select **sel);

#endif
