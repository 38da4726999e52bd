/* The options the trace-reading commands share, and the one loop that
 * parses a command's options. */
#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "options.h"

/* The codes of the shared options that are not input options. */
enum { OPT_ELF = INPUT_OPT_END, OPT_IMAGE, OPT_SYMBOLS, OPT_FORMAT, OPT_OUTPUT, OPT_QUIET,
       OPT_FUNCTION, OPT_HELP };

static const struct shared_option {
	struct option opt;
	unsigned group;
} shared[] = {
	{ { "snapshot", required_argument, NULL, OPT_SNAPSHOT }, OPTS_FILES },
	{ { "raw", required_argument, NULL, OPT_RAW }, OPTS_FILES },
	{ { "formatted", required_argument, NULL, OPT_FORMATTED }, OPTS_FILES },
	{ { "perf", required_argument, NULL, OPT_PERF }, OPTS_FILES },
	{ { "tpiu", no_argument, NULL, OPT_TPIU }, OPTS_FILES },
	{ { "allow-outside-files", no_argument, NULL, OPT_ALLOW_OUTSIDE }, OPTS_FILES },
	{ { "quiet", no_argument, NULL, OPT_QUIET }, OPTS_FILES },
	{ { "id", required_argument, NULL, OPT_ID }, OPTS_INPUT },
	{ { "cycle-accurate", no_argument, NULL, OPT_CYCLE_ACCURATE }, OPTS_INPUT },
	{ { "timestamps", no_argument, NULL, OPT_TIMESTAMPS }, OPTS_INPUT },
	{ { "ctxid-bytes", required_argument, NULL, OPT_CTXID_BYTES }, OPTS_INPUT },
	{ { "vmid", no_argument, NULL, OPT_VMID }, OPTS_INPUT },
	{ { "return-stack", no_argument, NULL, OPT_RETURN_STACK }, OPTS_INPUT },
	{ { "pft-version", required_argument, NULL, OPT_PFT_VERSION }, OPTS_INPUT },
	{ { "ts-bits", required_argument, NULL, OPT_TS_BITS }, OPTS_INPUT },
	{ { "ts-gray", no_argument, NULL, OPT_TS_GRAY }, OPTS_INPUT },
	{ { "branch-broadcast", no_argument, NULL, OPT_BRANCH_BROADCAST }, OPTS_INPUT },
	{ { "dmb-dsb-waypoints", no_argument, NULL, OPT_DMB_DSB_WAYPOINTS }, OPTS_INPUT },
	{ { "reg", required_argument, NULL, OPT_REG }, OPTS_INPUT },
	{ { "symfs", required_argument, NULL, OPT_SYMFS }, OPTS_INPUT },
	{ { "buildid-dir", required_argument, NULL, OPT_BUILDID_DIR }, OPTS_INPUT },
	{ { "protocol", required_argument, NULL, OPT_PROTOCOL }, OPTS_INPUT },
	{ { "core", required_argument, NULL, OPT_CORE }, OPTS_INPUT },
	{ { "jobs", required_argument, NULL, OPT_JOBS }, OPTS_JOBS },
	{ { "elf", required_argument, NULL, OPT_ELF }, OPTS_IMAGES },
	{ { "image", required_argument, NULL, OPT_IMAGE }, OPTS_IMAGES },
	{ { "symbols", required_argument, NULL, OPT_SYMBOLS }, OPTS_IMAGES },
	{ { "format", required_argument, NULL, OPT_FORMAT }, OPTS_FORMAT },
	{ { "output", required_argument, NULL, OPT_OUTPUT }, OPTS_OUTPUT },
	{ { "merge", no_argument, NULL, OPT_MERGE }, OPTS_MERGE },
	{ { "merge-window", required_argument, NULL, OPT_MERGE_WINDOW }, OPTS_MERGE },
	{ { "function", required_argument, NULL, OPT_FUNCTION }, OPTS_FUNCTION },
};

enum { NSHARED = sizeof(shared) / sizeof(shared[0]), MAX_OWN = 16 };

/* Handle shared option @code: 0, or -1 after printing an error. */
static int shared_option(const struct cmd_spec *spec, struct cmd_args *a, int code,
			 const char *arg)
{
	switch (code) {
	case OPT_ELF:
	case OPT_IMAGE:
		return image_args_add(&a->images, arg, code == OPT_ELF);
	case OPT_SYMBOLS:
		return image_args_add_symbols(&a->images, arg);
	case OPT_FORMAT:
		return spec->format ? spec->format(spec->ctx, arg, &a->format)
				    : cli_parse_format(arg, &a->format);
	case OPT_OUTPUT:
		a->output = arg;
		return 0;
	case OPT_FUNCTION: {
		if (!*arg) {
			cli_error("%s: --function: an empty name", spec->name);
			return -1;
		}
		const char **f = realloc(a->functions, (a->nfunctions + 1) * sizeof(*f));
		if (!f) {
			cli_error("%s: out of memory", spec->name);
			return -1;
		}
		f[a->nfunctions++] = arg;
		a->functions = f;
		return 0;
	}
	case OPT_QUIET:
		cli_set_quiet(1);
		return 0;
	default:
		return input_option(&a->input, code, arg);
	}
}

int cmd_parse(int argc, char **argv, const struct cmd_spec *spec, struct cmd_args *a)
{
	struct option longopts[NSHARED + MAX_OWN + 2];
	size_t n = 0;
	int c;

	memset(a, 0, sizeof(*a));
	input_opts_init(&a->input);
	a->format = spec->format_default;
	for (size_t i = 0; i < NSHARED; i++)
		if (shared[i].group & spec->groups)
			longopts[n++] = shared[i].opt;
	for (size_t i = 0; spec->own && spec->own[i].name; i++) {
		if (i == MAX_OWN) {
			cli_error("internal: %s has too many options", spec->name);
			return EXIT_USAGE;
		}
		longopts[n++] = spec->own[i];
	}
	longopts[n++] = (struct option){ "help", no_argument, NULL, OPT_HELP };
	longopts[n] = (struct option){ NULL, 0, NULL, 0 };

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, spec->groups & OPTS_JOBS ? "j:" : "", longopts,
				NULL)) != -1) {
		int err;

		if (c == 'j' && (spec->groups & OPTS_JOBS))
			c = OPT_JOBS;
		if (c == OPT_HELP) {
			spec->usage(spec->ctx);
			return EXIT_OK;
		} else if (c >= INPUT_OPT_BASE) {
			err = shared_option(spec, a, c, optarg);
		} else if (c != '?' && spec->option) {
			err = spec->option(spec->ctx, c, optarg);
		} else {
			cli_bad_option(spec->name, argv, optopt);
			return EXIT_USAGE;
		}
		if (err)
			return EXIT_USAGE;
	}
	if (optind < argc) {
		cli_error("%s: unexpected argument '%s'", spec->name, argv[optind]);
		return EXIT_USAGE;
	}
	if ((spec->groups & OPTS_INPUT) && input_opts_check(&a->input))
		return EXIT_USAGE;
	return CMD_GO_ON;
}

void cmd_args_free(struct cmd_args *a)
{
	image_args_free(&a->images);
	free(a->functions);
	a->functions = NULL;
}

/* Whether @path names the file @st describes. */
static int same_file(const struct stat *st, const char *path)
{
	struct stat other;

	return path && strcmp(path, "-") && !stat(path, &other) && other.st_dev == st->st_dev &&
	       other.st_ino == st->st_ino;
}

/* Whether @st is a file directly in directory @dir. */
static int in_dir(const struct stat *st, const char *dir)
{
	DIR *d = dir ? opendir(dir) : NULL;
	struct dirent *e;
	char path[4096];
	int found = 0;

	while (d && !found && (e = readdir(d)) != NULL) {
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		found = same_file(st, path);
	}
	if (d)
		closedir(d);
	return found;
}

int output_is_input(const char *path, const char *const *inputs, size_t n)
{
	struct stat st, in;

	if (!path || stat(path, &st))
		return 0;   /* not there yet: nothing to overwrite */
	for (size_t i = 0; i < n; i++) {
		if (S_ISREG(st.st_mode) && same_file(&st, inputs[i]))
			return 1;
		if (S_ISDIR(st.st_mode) && inputs[i] && strcmp(inputs[i], "-") &&
		    !stat(inputs[i], &in) && in_dir(&in, path))
			return 1;
	}
	return 0;
}

int cmd_open_output(const struct cmd_args *a)
{
	const struct input_opts *o = &a->input;
	struct stat st;
	int input = 0;

	/* An output file that exists: not an input file, nor a file of the
	 * snapshot directory read. */
	if (a->output && !stat(a->output, &st) && S_ISREG(st.st_mode)) {
		const char **inputs = malloc((3 + a->images.n) * sizeof(*inputs));
		if (!inputs) {
			cli_error("out of memory");
			return -1;
		}
		inputs[0] = o->raw;
		inputs[1] = o->formatted;
		inputs[2] = o->perf;
		for (size_t i = 0; i < a->images.n; i++)
			inputs[3 + i] = a->images.v[i].path;
		input = output_is_input(a->output, inputs, 3 + a->images.n) ||
			in_dir(&st, o->snapshot);
		free((void *)inputs);
	}
	if (input) {
		cli_error("%s: cannot create: it is an input of this command (it would be overwritten)",
			  a->output);
		return -1;
	}
	return cli_open_output(a->output);
}
