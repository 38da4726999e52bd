/* cli.h - what the pft subcommands share. */
#ifndef PFT_CLI_H
#define PFT_CLI_H

#include <stdint.h>
#include <stdio.h>

/* Exit codes (see doc/listing-format.md). */
enum {
	EXIT_OK = 0,
	EXIT_DECODE_ERRORS = 1, /* the input was read, errors were reported */
	EXIT_USAGE = 2          /* wrong options, unreadable files */
};

/* Print "pft: <message>" as one line on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Non-zero once writing to standard output has failed (a full disk, a
 * closed pipe): long listings stop then rather than go on unseen. */
int cli_output_failed(void);

/* Listing formats (--format). */
enum { FMT_TEXT, FMT_JSONL };

/* The value of --format: FMT_TEXT or FMT_JSONL in *@format; returns 0, or
 * -1 after printing an error. */
int cli_parse_format(const char *arg, int *format);

/* Parse a decimal or 0x-hex unsigned number; the whole string must be one.
 * Returns 0 or -1. */
int cli_parse_u64(const char *s, uint64_t *out);
int cli_parse_u32(const char *s, uint32_t *out);

/* Parse "NAME=VALUE" with a 32-bit VALUE: the name (at most @namelen - 1
 * characters) in @name.  Returns 0, or -1 after printing an error that
 * names @what (the command or option). */
int cli_parse_assignment(const char *what, const char *arg, char *name, size_t namelen,
			 uint32_t *value);

/* After getopt_long returned '?' (with opterr = 0): print one line saying
 * which option of subcommand @cmd was wrong. @opt is getopt's optopt. */
void cli_bad_option(const char *cmd, char **argv, int opt);

/* Subcommands: each gets argv[0] = its own name. Return the exit code.
 * A subcommand that is not linked into this build is NULL (weak). */
int cmd_dump(int argc, char **argv) __attribute__((weak));
int cmd_decode(int argc, char **argv) __attribute__((weak));
int cmd_encode(int argc, char **argv) __attribute__((weak));
int cmd_stats(int argc, char **argv) __attribute__((weak));
int cmd_event(int argc, char **argv) __attribute__((weak));
int cmd_regs(int argc, char **argv) __attribute__((weak));
int cmd_coverage(int argc, char **argv) __attribute__((weak));
int cmd_info(int argc, char **argv) __attribute__((weak));
int cmd_profile(int argc, char **argv) __attribute__((weak));
int cmd_timeline(int argc, char **argv) __attribute__((weak));
int cmd_calls(int argc, char **argv) __attribute__((weak));

#endif
