/* pft event: encode and decode PTM event register values. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_ptm_impl.h"
#include "pft.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: pft event encode [OPTIONS] EXPR\n"
		"       pft event decode [OPTIONS] VALUE\n"
		"\n"
		"encode prints the 17-bit event register value of EXPR (0x hex);\n"
		"decode prints the canonical expression of VALUE (bits [16:0]).\n"
		"\n"
		"resources: addr_cmpN arcN instrN watchN counterN seq_stateN ctxid_cmpN\n"
		"           vmid_cmp startstop ext_inN ext_in_selN ns prohibited always never\n"
		"operators: ! & | ( ) and the words not, and, or\n"
		"\n"
		"options (which resources the PTM implements; default: all):\n"
		"%s", ptm_impl_usage);
}

/* The arguments after the options, joined by spaces (the shell may have
 * split the expression). */
static char *join_args(int argc, char **argv)
{
	size_t len = 1;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	char *s = malloc(len);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (int i = 0; i < argc; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

static int encode(const char *expr, const struct pft_event_limits *limits)
{
	struct pft_event_diag d;
	uint32_t value;

	if (pft_event_parse(expr, limits, &value, &d) < 0) {
		const char *what = pft_errstr(d.problem);

		/* Columns count from 1, as in compiler messages. */
		size_t col = d.column + 1;
		int len = (int)d.length;
		const char *tok = expr + d.column;

		switch (d.problem) {
		case PFT_ERR_EVENT_UNKNOWN_RESOURCE:
		case PFT_ERR_EVENT_BAD_INDEX:
		case PFT_ERR_EVENT_UNIMPLEMENTED:
		case PFT_ERR_EVENT_TOO_MANY_RESOURCES:
		case PFT_ERR_EVENT_BAD_CHAR:
			cli_error("event: column %zu: '%.*s': %s", col, len, tok, what);
			break;
		case PFT_ERR_EVENT_EXPECTED_OPERAND:
		case PFT_ERR_EVENT_EXPECTED_OPERATOR:
			if (len)
				cli_error("event: column %zu: %s, found '%.*s'", col,
					  what, len, tok);
			else
				cli_error("event: column %zu: %s, found the end", col,
					  what);
			break;
		default:
			cli_error("event: column %zu: %s", col, what);
			break;
		}
		return EXIT_USAGE;
	}
	printf("0x%x\n", value);
	return EXIT_OK;
}

static int decode(const char *arg, const struct pft_event_limits *limits)
{
	static const char *const type_bits[8] = { "000", "001", "010", "011",
						  "100", "101", "110", "111" };
	struct pft_event_diag d;
	char expr[PFT_EVENT_EXPR_MAX], name[PFT_EVENT_EXPR_MAX];
	uint32_t value;

	if (cli_parse_u32(arg, &value)) {
		cli_error("event: '%s' is not a number", arg);
		return EXIT_USAGE;
	}
	if (pft_event_format(value, limits, expr, sizeof(expr), &d) < 0) {
		if (d.problem == PFT_ERR_EVENT_HIGH_BITS)
			cli_error("event: 0x%x: %s; the event is bits [16:0] = 0x%x",
				  value, pft_errstr(d.problem),
				  value & 0x1ffff);
		else if (d.problem == PFT_ERR_EVENT_RESERVED)
			cli_error("event: 0x%x: resource %c 0x%02x (type b%s, index %u): %s",
				  value, d.operand, d.resource,
				  type_bits[pft_event_resource_type(d.resource)],
				  pft_event_resource_index(d.resource), pft_errstr(d.problem));
		else {
			pft_event_resource_name(d.resource, name, sizeof(name));
			cli_error("event: 0x%x: resource %c (%s): %s", value, d.operand,
				  name, pft_errstr(d.problem));
		}
		return EXIT_USAGE;
	}
	printf("%s\n", expr);
	/* The canonical value: that of the expression (B = 0). */
	uint32_t canonical = value;
	if (d.problem == PFT_ERR_EVENT_B_IGNORED &&
	    pft_event_parse(expr, limits, &canonical, NULL) >= 0)
		cli_error("event: 0x%x: note: %s (B = 0x%02x); canonical value 0x%x",
			  value, pft_errstr(d.problem), d.resource, canonical);
	return EXIT_OK;
}

int cmd_event(int argc, char **argv)
{
	struct ptm_impl impl;
	int npos = 0, rc;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	const char *verb = argv[1];
	if (strcmp(verb, "encode") && strcmp(verb, "decode")) {
		cli_error("event: unknown action '%s' (encode or decode)", verb);
		return EXIT_USAGE;
	}
	/* Options may come anywhere (an expression never starts with "--");
	 * the rest is gathered in place at the front of argv + 2. */
	char **pos = argv + 2;
	ptm_impl_init(&impl);
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			while (++i < argc)
				pos[npos++] = argv[i];
			break;
		}
		if (!strncmp(argv[i], "--", 2)) {
			int used = ptm_impl_option(&impl, argc - i, argv + i);

			if (used < 0)
				return EXIT_USAGE;
			if (used == 0) {
				cli_error("event: unknown option '%s'", argv[i]);
				return EXIT_USAGE;
			}
			i += used - 1;
			continue;
		}
		pos[npos++] = argv[i];
	}
	if (npos == 0) {
		cli_error("event %s: missing %s", verb,
			  verb[0] == 'e' ? "expression" : "value");
		return EXIT_USAGE;
	}

	struct pft_event_limits limits;
	const struct pft_event_limits *lp = NULL;
	if (impl.given) {
		if (ptm_impl_limits(&impl, &limits))
			return EXIT_USAGE;
		lp = &limits;
	}
	if (verb[0] == 'd') {
		if (npos != 1) {
			cli_error("event decode: one value expected");
			return EXIT_USAGE;
		}
		return decode(pos[0], lp);
	}
	char *expr = join_args(npos, pos);
	if (!expr) {
		cli_error("event: out of memory");
		return EXIT_USAGE;
	}
	rc = encode(expr, lp);
	free(expr);
	return rc;
}
