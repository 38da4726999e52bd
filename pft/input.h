/* input.h - trace inputs shared by the subcommands: snapshots, raw and
 * frame-formatted files, and the options that select them. */
#ifndef PFT_INPUT_H
#define PFT_INPUT_H

#include <getopt.h>
#include <stdint.h>

#include "pft.h"
#include "snapshot.h"

/* Options every trace-reading command takes (see shared/spec/cli.md). */
struct input_opts {
	const char *snapshot, *raw, *formatted;
	int id;                 /* -1: every PTM source */
	int tpiu;               /* formatted input has FSYNC/HSYNC */
	struct pft_config cfg;  /* for --raw/--formatted */
	int cfg_given;          /* a configuration flag was given */
};

/* The getopt_long entries of the shared options; their codes start at
 * INPUT_OPT_BASE.  A command lists INPUT_LONG_OPTIONS in its own table. */
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
	OPT_ETMCR,
	INPUT_OPT_END
};

#define INPUT_LONG_OPTIONS                                                    \
	{ "snapshot", required_argument, NULL, OPT_SNAPSHOT },                \
	{ "raw", required_argument, NULL, OPT_RAW },                          \
	{ "formatted", required_argument, NULL, OPT_FORMATTED },              \
	{ "id", required_argument, NULL, OPT_ID },                            \
	{ "tpiu", no_argument, NULL, OPT_TPIU },                              \
	{ "cycle-accurate", no_argument, NULL, OPT_CYCLE_ACCURATE },          \
	{ "timestamps", no_argument, NULL, OPT_TIMESTAMPS },                  \
	{ "ctxid-bytes", required_argument, NULL, OPT_CTXID_BYTES },          \
	{ "vmid", no_argument, NULL, OPT_VMID },                              \
	{ "return-stack", no_argument, NULL, OPT_RETURN_STACK },              \
	{ "pft-version", required_argument, NULL, OPT_PFT_VERSION },          \
	{ "ts-bits", required_argument, NULL, OPT_TS_BITS },                  \
	{ "ts-gray", no_argument, NULL, OPT_TS_GRAY },                        \
	{ "branch-broadcast", no_argument, NULL, OPT_BRANCH_BROADCAST }

#define INPUT_OPTIONS_HELP                                                    \
	"input (one of):\n"                                                   \
	"  --snapshot DIR        OpenCSD snapshot directory\n"                \
	"  --raw FILE            one source's PFT bytes ('-' = stdin)\n"      \
	"  --formatted FILE      CoreSight frame-formatted buffer\n"          \
	"  --id N                trace ID to decode (default: every PTM)\n"   \
	"  --tpiu                formatted input has FSYNC/HSYNC (trace port)\n" \
	"configuration for --raw/--formatted:\n"                              \
	"  --cycle-accurate --timestamps --ctxid-bytes N --vmid --return-stack\n" \
	"  --branch-broadcast --pft-version 1.0|1.1 --ts-bits 48|64 --ts-gray\n"

void input_opts_init(struct input_opts *o);
/* Handle a shared option; returns 0, or -1 after printing an error. */
int input_option(struct input_opts *o, int code, const char *arg);
/* Check the combination; returns 0, or -1 after printing an error. */
int input_opts_check(const struct input_opts *o);

/* One trace source being decoded. */
struct stream {
	int id;                          /* trace ID, -1 for raw input */
	const char *name;                /* device name, or the file name */
	const char *path;                /* the file its bytes come from */
	struct pft_config cfg;
	struct pft_pkt_decoder *pkt;
	const struct snap_device *core;  /* snapshot core it traces, or NULL */
	uint64_t bytes;                  /* bytes of this source seen */
	uint64_t packets, errors;
	int synced_once;
	void *user;                      /* the command's per-stream state */
};

struct input_file {
	const char *path;
	int formatted, tpiu;
	struct stream *raw;              /* unformatted: its only source */
	struct stream *by_id[128];       /* formatted: sources by trace ID */
};

struct input {
	struct snapshot snap;
	int has_snap;
	struct input_file *files;
	size_t nfiles;
	struct stream *streams;
	size_t nstreams;
};

/* Open the input the options name: reads the snapshot and checks the
 * files and configuration.  Returns 0, or an exit code after printing a
 * one-line error. */
int input_open(struct input *in, const struct input_opts *o);
void input_close(struct input *in);

/* Called for every packet of every stream, in input order.  @status is
 * pft_pkt_next()'s result (0, or negative for a BAD packet).  Returns 0 to
 * go on, non-zero to stop. */
typedef int (*packet_fn)(void *ctx, struct stream *s, const struct pft_packet *pkt,
			 int status);
/* Called for each source of a formatted input whose bytes have a gap at
 * input offset @offset: @status is 0 for a marked discontinuity (four
 * FSYNCs: the packet decoder was reset), or the deformatter's error for a
 * frame that was dropped (the packet decoder now waits for an A-sync). */
typedef void (*gap_fn)(void *ctx, struct stream *s, uint64_t offset, int status);

/* Decode every file.  Returns 0, or an exit code after printing an error
 * (unreadable file). */
int input_run(struct input *in, packet_fn on_packet, gap_fn on_gap, void *ctx);

#endif
