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

/* Print "pft: <message>" as cli_error() does, unless --quiet was given:
 * a note (what was detected or assumed, progress), not an error. */
void cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* --quiet: cli_note() prints nothing from now on. */
void cli_set_quiet(int quiet);

/* Progress on standard error, when it is a terminal and not --quiet:
 * cli_progress_start() before a long run (@output_at_end: the command
 * writes its output at the end only, so a terminal on standard output
 * does not rule progress out); cli_progress() as it goes (@done bytes of
 * @total, 0: not known), which draws one line, rewritten in place, at most
 * every half second after the first second (PFT_PROGRESS_MS: both delays
 * in milliseconds, for tests); cli_progress_end() erases it.  cli_error()
 * and cli_note() erase it before they print. */
void cli_progress_start(int output_at_end);
int cli_progress_due(void);   /* whether cli_progress() would draw now */
void cli_progress(uint64_t done, uint64_t total);
void cli_progress_end(void);

/* Non-zero once writing to standard output has failed (a full disk, a
 * closed pipe): long listings stop then rather than go on unseen. */
int cli_output_failed(void);
/* One line saying why writing the output failed, naming the --output
 * file (else standard output) and the reason (errno). */
void cli_output_error(void);

/* --output FILE: standard output goes to @path (created or truncated)
 * from now on; NULL: it stays.  Returns 0, or -1 after a one-line error
 * naming the file and the reason. */
int cli_open_output(const char *path);

/* Listing formats (--format). */
enum { FMT_TEXT, FMT_JSONL };

/* The value of --format: FMT_TEXT or FMT_JSONL in *@format; returns 0, or
 * -1 after printing an error. */
int cli_parse_format(const char *arg, int *format);

/* Parse a decimal or 0x-hex unsigned number; the whole string must be one.
 * Returns 0 or -1. */
int cli_parse_u64(const char *s, uint64_t *out);
int cli_parse_u32(const char *s, uint32_t *out);

/* A frequency in Hz for option @opt (--clock, --ts-clock): a number
 * (1000000000, 1e9, 1.5e9) with an optional unit Hz, kHz, MHz or GHz (any
 * case): a whole number of Hz from 1 Hz to 100 GHz.  Returns 0, or -1
 * after printing an error that names @cmd and @opt and says what is
 * taken. */
int cli_parse_hz(const char *cmd, const char *opt, const char *s, uint64_t *hz);

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
int cmd_annotate(int argc, char **argv) __attribute__((weak));
int cmd_exceptions(int argc, char **argv) __attribute__((weak));

#endif
