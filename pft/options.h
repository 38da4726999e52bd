/* options.h - the options of the commands that read a trace (dump, decode,
 * the views, info): one table of the options they share and one parsing
 * loop; each command names the groups of shared options it takes and adds
 * its own. */
#ifndef PFT_OPTIONS_H
#define PFT_OPTIONS_H

#include <getopt.h>
#include <stdio.h>

#include "images.h"
#include "input.h"

/* Groups of shared options. */
enum {
	OPTS_FILES = 1u << 0,   /* --snapshot --raw --formatted --perf --tpiu
				 * --allow-outside-files --quiet (every command
				 * that reads trace) */
	OPTS_INPUT = 1u << 1,   /* the other input and configuration options
				 * (--id, --reg, --protocol...); with it, the
				 * combination is checked (input_opts_check()) */
	OPTS_JOBS = 1u << 2,    /* -j N, --jobs N */
	OPTS_IMAGES = 1u << 3,  /* --elf, --image, --symbols */
	OPTS_FORMAT = 1u << 4,  /* --format */
	OPTS_OUTPUT = 1u << 5,  /* --output FILE */
	OPTS_MERGE = 1u << 6,   /* --merge, --merge-window N */
	OPTS_FUNCTION = 1u << 7 /* --function NAME (repeatable) */
};

/* What the shared options give. */
struct cmd_args {
	struct input_opts input;   /* OPTS_FILES, OPTS_INPUT, OPTS_JOBS */
	struct image_args images;  /* OPTS_IMAGES */
	int format;                /* OPTS_FORMAT (the command's format_default) */
	const char *output;        /* OPTS_OUTPUT: NULL, standard output */
	const char **functions;    /* OPTS_FUNCTION: the names given */
	size_t nfunctions;
};

/* A command's options. */
struct cmd_spec {
	const char *name;          /* the command, as messages name it */
	unsigned groups;           /* OPTS_* */
	int format_default;
	/* The command's own options (their codes below INPUT_OPT_BASE),
	 * ended by a zeroed entry; NULL: none. */
	const struct option *own;
	/* One of @own given: returns 0, or -1 after printing an error. */
	int (*option)(void *ctx, int code, const char *arg);
	/* The value of --format in *@format: returns 0, or -1 after printing
	 * an error; NULL: text or jsonl (cli_parse_format()). */
	int (*format)(void *ctx, const char *arg, int *format);
	/* --help: the usage on standard output. */
	void (*usage)(void *ctx);
	void *ctx;
};

/* What cmd_parse() returns when the command goes on. */
enum { CMD_GO_ON = -1 };

/* Parse @argv (argv[0] is the command) into *@a, which it initialises:
 * returns CMD_GO_ON, or the exit status the command returns: EXIT_OK
 * after --help, EXIT_USAGE after a one-line error (a wrong option, a
 * missing value, an argument that is no option, a combination that does
 * not go).  Free *@a with cmd_args_free() either way. */
int cmd_parse(int argc, char **argv, const struct cmd_spec *spec, struct cmd_args *a);
void cmd_args_free(struct cmd_args *a);

/* --output: standard output goes to a->output (cli_open_output()) unless
 * that file is one of the command's inputs (the trace file, an image, a
 * file of the snapshot directory), which it would destroy.  Returns 0, or
 * -1 after a one-line error. */
int cmd_open_output(const struct cmd_args *a);

/* Whether output @path is one of the @n files @inputs (NULLs and "-"
 * ignored) or, a directory, holds one directly: writing it would
 * destroy an input. */
int output_is_input(const char *path, const char *const *inputs, size_t n);

/* The --help texts of the shared options. */
#define INPUT_OPTIONS_HELP                                                    \
	"input (one of):\n"                                                   \
	"  --snapshot DIR        OpenCSD snapshot directory\n"                \
	"  --raw FILE            one source's PFT bytes ('-' = stdin)\n"      \
	"  --formatted FILE      CoreSight frame-formatted buffer\n"          \
	"  --perf FILE           perf.data of perf record -e cs_etm\n"        \
	"  --symfs DIR           --perf: look for the mapped files under DIR\n" \
	"  --buildid-dir DIR     --perf: build-id cache (default ~/.debug)\n"  \
	"  --id N[,N...]         trace IDs to decode, repeatable (default:\n"  \
	"                        every source of the protocol)\n"            \
	"  --tpiu                formatted input has FSYNC/HSYNC (trace port)\n" \
	"  --allow-outside-files a snapshot may name files outside its\n"     \
	"                        directory (or links leading out of it)\n"   \
	"configuration for --raw/--formatted:\n"                              \
	"  --protocol ptm|etmv3  the trace source (default ptm; an ETMv3's\n"   \
	"                        --reg ETMIDR selects etmv3)\n"               \
	"  --core NAME           the traced core: its protocol, profile and\n" \
	"                        registers (cortex-a5, -a7, -a8, -a9, -a15,\n" \
	"                        cortex-r4, -r5, cortex-m3, -m4)\n"            \
	"  --cycle-accurate --timestamps --ctxid-bytes N --vmid --return-stack\n" \
	"  --branch-broadcast --pft-version 1.0|1.1 --ts-bits 48|64 --ts-gray\n" \
	"  --dmb-dsb-waypoints   DMB and DSB are waypoints (ETMCCER[24])\n"     \
	"  --reg NAME=VALUE      a PTM or ETM register (ETMCR, ETMCCER, ETMIDR,\n" \
	"                        ETMTRACEIDR; repeatable): the configuration\n"  \
	"                        they give (missing ones: a Cortex-A15's PTM,\n" \
	"                        a Cortex-A7's ETMv3.5)\n"

/* --output and --quiet (OPTS_OUTPUT, and OPTS_FILES's --quiet). */
#define OUTPUT_HELP                                                           \
	"  --output FILE         write there instead of standard output\n"      \
	"  --quiet               no notes on standard error (detected options,\n" \
	"                        progress); errors are still reported\n"

#define FUNCTION_HELP                                                         \
	"  --function NAME       only the instructions of the function NAME\n" \
	"                        (symbol or DWARF name; repeatable)\n"

#define JOBS_HELP                                                             \
	"decoding:\n"                                                         \
	"  -j N, --jobs N        decode a large trace of one source in N\n" \
	"                        threads: PTM raw or in a formatted memory\n" \
	"                        buffer, ETMv3 raw\n" \
	"                        (default: the online CPUs, but 1 for dump's\n" \
	"                        listing; at most 16 but for --count; the\n" \
	"                        output is the same)\n"

#define MERGE_HELP                                                            \
	"  --merge               every source's items in the order of their time\n" \
	"                        (\"time\": timestamp ticks on the sources' common\n" \
	"                        base, cycles scaled between timestamps)\n"      \
	"  --merge-window N      --merge holds at most N items back (default\n"   \
	"                        65536); past them it says what it gave up\n"

#define IMAGES_HELP                                                           \
	"images (any number; a snapshot's memory dumps are used as well):\n"  \
	"  --elf FILE[@BIAS]     an ARM ELF executable or shared object\n"    \
	"  --image FILE@ADDR     a raw memory dump loaded at ADDR\n"          \
	"  --symbols FILE        symbols only (ELF, System.map, /proc/kallsyms)\n"

#endif
