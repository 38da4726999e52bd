/* pft - the command-line front end of libpft. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "pft.h"

/* The CLI's state for the one command a run executes: --quiet, and
 * where --output sent standard output. */
static int quiet;
static const char *output_path;

/* The progress line (cli_progress()). */
static struct {
	int on;                 /* drawing allowed */
	int output_at_end;      /* standard output is written at the end */
	int64_t start_ms, next_ms, every_ms;
	size_t shown;           /* characters of the line on the terminal */
} progress;

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void cli_progress_start(int output_at_end)
{
	const char *env = getenv("PFT_PROGRESS_MS");
	uint64_t ms;

	progress.on = !quiet && isatty(STDERR_FILENO);
	progress.output_at_end = output_at_end;
	progress.every_ms = env && !cli_parse_u64(env, &ms) && ms < 60000 ? (int64_t)ms : 500;
	progress.start_ms = now_ms();
	/* The first line after a second (a short run shows none). */
	progress.next_ms = progress.start_ms + (env ? progress.every_ms : 1000);
	progress.shown = 0;
}

/* @v bytes as "12.3 MB" in @buf. */
static const char *human(uint64_t v, char buf[32])
{
	static const char *const unit[] = { "bytes", "kB", "MB", "GB", "TB" };
	double d = (double)v;
	int u = 0;

	while (d >= 1000 && u < 4) {
		d /= 1000;
		u++;
	}
	if (u)
		snprintf(buf, 32, "%.1f %s", d, unit[u]);
	else
		snprintf(buf, 32, "%" PRIu64 " %s", v, unit[0]);
	return buf;
}

int cli_progress_due(void)
{
	return progress.on && now_ms() >= progress.next_ms;
}

void cli_progress(uint64_t done, uint64_t total)
{
	char line[128], a[32], b[32];
	int n;

	if (!cli_progress_due())
		return;
	progress.next_ms = now_ms() + progress.every_ms;
	/* A listing on the same terminal is sign of life enough (asked now:
	 * --output moves standard output after the start). */
	if (!progress.output_at_end && isatty(STDOUT_FILENO))
		return;
	if (total)
		n = snprintf(line, sizeof(line), "pft: %s of %s (%u%%)", human(done, a),
			     human(total, b), (unsigned)(done >= total ? 100 : done * 100 / total));
	else
		n = snprintf(line, sizeof(line), "pft: %s read", human(done, a));
	if (n < 0)
		return;
	/* Rewrite the line in place, blanking what the last one had more. */
	size_t len = (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1;
	fprintf(stderr, "\r%s%*s", line,
		progress.shown > len ? (int)(progress.shown - len) : 0, "");
	if (progress.shown > len)
		fprintf(stderr, "\r%s", line);
	fflush(stderr);
	progress.shown = len;
}

void cli_progress_end(void)
{
	if (progress.shown) {
		fprintf(stderr, "\r%*s\r", (int)progress.shown, "");
		fflush(stderr);
	}
	progress.shown = 0;
}

/* One line on standard error, the progress line out of its way. */
static void say(const char *fmt, va_list ap)
{
	cli_progress_end();
	fputs("pft: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
}

void cli_note(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
}

void cli_set_quiet(int q)
{
	quiet = q;
}

int cli_open_output(const char *path)
{
	if (!path)
		return 0;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0) {
		cli_error("%s: cannot create: %s", path, strerror(errno));
		return -1;
	}
	/* Standard output itself goes there: every listing writes to it. */
	fflush(stdout);
	if (fd != STDOUT_FILENO && dup2(fd, STDOUT_FILENO) < 0) {
		cli_error("%s: cannot write: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (fd != STDOUT_FILENO)
		close(fd);
	output_path = path;
	return 0;
}

void cli_output_error(void)
{
	const char *why = errno ? strerror(errno) : "write error";

	if (output_path)
		cli_error("%s: cannot write: %s", output_path, why);
	else
		cli_error("standard output: %s", why);
}

int cli_parse_hz(const char *cmd, const char *opt, const char *s, uint64_t *hz)
{
	static const struct {
		const char *name;
		double scale;
	} units[] = { { "", 1 }, { "hz", 1 }, { "khz", 1e3 }, { "mhz", 1e6 }, { "ghz", 1e9 } };
	const double max = 100e9;
	uint64_t whole;
	char *end;
	double v;

	if (!cli_parse_u64(s, &whole)) {   /* exact: decimal or 0x hex */
		v = (double)whole;
		end = (char *)s + strlen(s);
	} else if ((*s >= '0' && *s <= '9') || *s == '.') {
		errno = 0;
		v = strtod(s, &end);
		if (errno == ERANGE)
			v = 2 * max;
	} else {
		end = (char *)s;
	}
	size_t u = 0, nunits = sizeof(units) / sizeof(units[0]);
	if (end != s) {
		while (*end == ' ')
			end++;
		for (u = 0; u < nunits && strcasecmp(end, units[u].name); u++)
			;
	}
	if (end == s || u == nunits) {
		cli_error("%s: %s: '%s' is not a frequency: give Hz (1000000000, 1e9, 1.5e9) or "
			  "with a unit (800MHz, 1GHz)", cmd, opt, s);
		return -1;
	}
	v *= units[u].scale;
	if (!(v >= 0.5 && v <= max)) {
		cli_error("%s: %s: '%s' is not a frequency between 1 Hz and 100 GHz", cmd, opt, s);
		return -1;
	}
	/* 1.1GHz is 1100000000 Hz give or take the rounding of 1.1. */
	double r = (double)(uint64_t)(v + 0.5);
	if (v - r > 1e-6 * v || r - v > 1e-6 * v) {
		cli_error("%s: %s: '%s' is not a whole number of Hz", cmd, opt, s);
		return -1;
	}
	*hz = (uint64_t)r;
	return 0;
}

int cli_parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int cli_parse_format(const char *arg, int *format)
{
	if (!strcmp(arg, "text") || !strcmp(arg, "jsonl")) {
		*format = strcmp(arg, "text") ? FMT_JSONL : FMT_TEXT;
		return 0;
	}
	cli_error("--format: '%s' is not text or jsonl", arg);
	return -1;
}

int cli_parse_u32(const char *s, uint32_t *out)
{
	uint64_t v;

	if (cli_parse_u64(s, &v) || v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int cli_parse_assignment(const char *what, const char *arg, char *name, size_t namelen,
			 uint32_t *value)
{
	const char *eq = strchr(arg, '=');

	if (!eq || eq == arg || (size_t)(eq - arg) >= namelen) {
		cli_error("%s: '%s' is not NAME=VALUE", what, arg);
		return -1;
	}
	memcpy(name, arg, (size_t)(eq - arg));
	name[eq - arg] = '\0';
	if (cli_parse_u32(eq + 1, value)) {
		cli_error("%s: %s: '%s' is not a 32-bit number", what, name, eq + 1);
		return -1;
	}
	return 0;
}

void cli_bad_option(const char *cmd, char **argv, int opt)
{
	const char *word = argv[optind - 1];

	/* getopt_long sets optopt to 0 for an unknown long option, and to the
	 * option's code when a known one lacks its value. */
	if (opt && !strncmp(word, "--", 2))
		cli_error("%s: option '%s' needs a value", cmd, word);
	else if (opt)
		cli_error("%s: unknown option '-%c' (try 'pft %s --help')", cmd, opt, cmd);
	else
		cli_error("%s: unknown option '%s' (try 'pft %s --help')", cmd, word, cmd);
}

int cli_output_failed(void)
{
	return ferror(stdout);
}

/* What a command printed must have reached its destination: a full disk
 * or a closed pipe is an error (exit 2), not a silent loss. */
static int finish_output(int rc)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	if (rc != EXIT_USAGE)   /* else the command has said so already */
		cli_output_error();
	return EXIT_USAGE;
}

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static void usage(FILE *out, const struct command *cmds, size_t n)
{
	fprintf(out, "usage: pft COMMAND [OPTIONS]\n\ncommands:\n");
	for (size_t i = 0; i < n; i++)
		if (cmds[i].run)
			fprintf(out, "  %-9s %s\n", cmds[i].name, cmds[i].summary);
	fprintf(out, "\n'pft COMMAND --help' describes a command's options.\n");
}

int main(int argc, char **argv)
{
	const struct command cmds[] = {
		{ "dump", cmd_dump, "list the packets of a PTM trace" },
		{ "decode", cmd_decode, "reconstruct the executed instructions" },
		{ "coverage", cmd_coverage, "which functions, lines and branches ran" },
		{ "profile", cmd_profile, "instructions and calls per function" },
		{ "timeline", cmd_timeline, "the calls as nested spans (Chrome JSON)" },
		{ "calls", cmd_calls, "the stream of calls and returns" },
		{ "annotate", cmd_annotate, "exact counts on every instruction and line" },
		{ "exceptions", cmd_exceptions, "exceptions taken and their handlers' lengths" },
		{ "encode", cmd_encode, "model a PTM: instruction log to PFT trace" },
		{ "stats", cmd_stats, "trace bandwidth of an instruction log" },
		{ "event", cmd_event, "encode or decode a PTM event register" },
		{ "regs", cmd_regs, "explain PTM trace registers" },
		{ "info", cmd_info, "trace sources, protocols and detected options" },
	};
	const size_t n = sizeof(cmds) / sizeof(cmds[0]);

	if (argc < 2) {
		usage(stderr, cmds, n);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "help") && argc > 2) {
		/* pft help CMD: the command's own --help. */
		char *help_argv[] = { argv[2], "--help", NULL };
		for (size_t i = 0; i < n; i++)
			if (!strcmp(argv[2], cmds[i].name) && cmds[i].run)
				return finish_output(cmds[i].run(2, help_argv));
		cli_error("help: unknown command '%s' (try 'pft --help')", argv[2]);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout, cmds, n);
		return finish_output(EXIT_OK);
	}
	if (!strcmp(argv[1], "--version")) {
		printf("pft %s\n", pft_version());
		return EXIT_OK;
	}
	for (size_t i = 0; i < n; i++) {
		if (strcmp(argv[1], cmds[i].name))
			continue;
		if (!cmds[i].run) {
			cli_error("'%s' is not available in this build", argv[1]);
			return EXIT_USAGE;
		}
		/* -h is --help for every command (none takes -h otherwise). */
		for (int a = 2; a < argc; a++)
			if (!strcmp(argv[a], "-h"))
				argv[a] = "--help";
		return finish_output(cmds[i].run(argc - 1, argv + 1));
	}
	cli_error("unknown command '%s' (try 'pft --help')", argv[1]);
	return EXIT_USAGE;
}
