/* pft regs: explain PTM registers, given on the command line or taken from
 * an OpenCSD snapshot. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_ptm_impl.h"
#include "pft.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: pft regs [OPTIONS] NAME=VALUE...\n"
		"       pft regs --snapshot DIR [--device NAME] [--allow-outside-files]\n"
		"\n"
		"Explains PTM registers field by field (ETMCR, ETMCCR, ETMCCER, ETMIDR,\n"
		"ETMTRACEIDR, event registers, ...).  ETMIDR, ETMCCR and ETMCCER, when\n"
		"given, say what the PTM implements; so do these options:\n"
		"%s"
		"  --snapshot DIR            every PTM of an OpenCSD snapshot\n"
		"  --device NAME             only this trace source of the snapshot\n"
		"  --allow-outside-files     the snapshot may name files outside its\n"
		"                            directory (or links leading out of it)\n"
		"\n"
		"Exit status: 0, 1 when a setting is reserved or inconsistent\n"
		"(lines marked 'warning:'), 2 for bad arguments.\n",
		ptm_impl_usage);
}

static const char *flag_prefix(unsigned flag)
{
	return flag == PFT_REGS_FLAG_WARN ? "warning: "
	       : flag == PFT_REGS_FLAG_NOTE ? "note: " : "";
}

/* Print one register; returns the number of warnings. */
static int print_register(const char *name, uint32_t value,
			  const struct pft_regs_context *ctx)
{
	struct pft_regs_field fields[PFT_REGS_FIELDS_MAX];
	struct pft_regs_info info;
	int warnings = 0;

	if (pft_regs_lookup(name, &info) < 0) {
		printf("%s = 0x%08x  (not explained)\n", name, value);
		return 0;
	}
	int n = pft_regs_explain(name, value, ctx, fields, PFT_REGS_FIELDS_MAX);
	if (n < 0) {
		printf("%s = 0x%08x  (%s)\n", name, value, pft_errstr(pft_errcode(n)));
		return 0;
	}
	if (n > PFT_REGS_FIELDS_MAX)
		n = PFT_REGS_FIELDS_MAX;
	printf("%s (0x%03x) = 0x%08x  %s\n", info.name, info.number, value,
	       info.title);
	for (int i = 0; i < n; i++) {
		const struct pft_regs_field *f = &fields[i];
		char range[16], val[16];

		if (f->hi == f->lo)
			snprintf(range, sizeof(range), "[%u]", f->hi);
		else
			snprintf(range, sizeof(range), "[%u:%u]", f->hi, f->lo);
		if (f->hi == f->lo)
			snprintf(val, sizeof(val), "%u", f->value);
		else
			snprintf(val, sizeof(val), "0x%x", f->value);
		printf("  %-8s %-18s %-10s %s%s\n", range, f->name, val,
		       flag_prefix(f->flag), f->meaning);
		warnings += f->flag == PFT_REGS_FLAG_WARN;
	}
	return warnings;
}

/* ---- NAME=VALUE arguments ---- */

struct assignment {
	char name[32];
	uint32_t value;
};

static int parse_assignment(const char *arg, struct assignment *a)
{
	return cli_parse_assignment("regs", arg, a->name, sizeof(a->name), &a->value);
}

/* ID registers among the arguments describe the PTM too. */
static void context_from(const struct assignment *a, size_t n,
			 struct pft_regs_context *ctx)
{
	for (size_t i = 0; i < n; i++) {
		struct pft_regs_info info;

		if (pft_regs_lookup(a[i].name, &info) < 0)
			continue;
		if (!strcmp(info.name, "ETMIDR")) {
			ctx->etmidr = a[i].value;
			ctx->have_etmidr = 1;
		} else if (!strcmp(info.name, "ETMCCR")) {
			ctx->etmccr = a[i].value;
			ctx->have_etmccr = 1;
		} else if (!strcmp(info.name, "ETMCCER")) {
			ctx->etmccer = a[i].value;
			ctx->have_etmccer = 1;
		}
	}
}

static int explain_args(char **args, int n, const struct ptm_impl *impl)
{
	struct assignment *a = calloc((size_t)n, sizeof(*a));
	struct pft_regs_context ctx;
	int warnings = 0;

	if (!a) {
		cli_error("regs: out of memory");
		return EXIT_USAGE;
	}
	for (int i = 0; i < n; i++) {
		if (parse_assignment(args[i], &a[i])) {
			free(a);
			return EXIT_USAGE;
		}
	}
	memset(&ctx, 0, sizeof(ctx));
	ctx.size = sizeof(ctx);
	ptm_impl_context(impl, &ctx);
	context_from(a, (size_t)n, &ctx);
	for (int i = 0; i < n; i++)
		warnings += print_register(a[i].name, a[i].value, &ctx);
	free(a);
	return warnings ? EXIT_DECODE_ERRORS : EXIT_OK;
}

/* ---- Snapshots ---- */

static int dev_reg32(const struct pft_snap_device *d, const char *name, uint32_t *v)
{
	uint64_t v64;

	if (pft_snap_reg(d, name, &v64) || v64 > UINT32_MAX)
		return -1;
	*v = (uint32_t)v64;
	return 0;
}

/* One line on what the trace looks like (what a decoder needs). */
static void print_summary(const struct pft_snap_device *d)
{
	uint32_t etmcr, etmidr, etmccer = 0, traceid = 0;
	struct pft_ptm_config cfg;
	int have_ccer = !dev_reg32(d, "ETMCCER", &etmccer);

	dev_reg32(d, "ETMTRACEIDR", &traceid);
	if (dev_reg32(d, "ETMCR", &etmcr) || dev_reg32(d, "ETMIDR", &etmidr)) {
		printf("  configuration: unknown (ETMCR or ETMIDR missing)\n");
		return;
	}
	pft_ptm_config_init(&cfg);
	if (pft_ptm_config_from_regs(&cfg, etmcr, etmccer, etmidr, traceid) < 0) {
		printf("  configuration: ETMIDR 0x%08x is not a PTM\n", etmidr);
		return;
	}
	char ts[64];
	if (!cfg.timestamps)
		snprintf(ts, sizeof(ts), "off");
	else if (!have_ccer)
		snprintf(ts, sizeof(ts), "on (format unknown: no ETMCCER)");
	else
		snprintf(ts, sizeof(ts), "on (%s-bit, %s)", cfg.ts_64bit ? "64" : "48",
			 cfg.ts_gray ? "Gray-coded" : "natural binary");
	printf("  PFTv1.%u, trace ID 0x%02x; cycle-accurate %s, timestamps %s, "
	       "context ID %s%s, return stack %s, branch broadcast %s, VMID %s\n",
	       cfg.version_minor, cfg.trace_id, cfg.cycle_accurate ? "on" : "off",
	       ts, cfg.ctxid_bytes ? "" : "none",
	       cfg.ctxid_bytes == 0 ? "" : cfg.ctxid_bytes == 1 ? "1 byte"
					 : cfg.ctxid_bytes == 2 ? "2 bytes"
								: "4 bytes",
	       cfg.return_stack ? "on" : "off", cfg.branch_broadcast ? "on" : "off",
	       cfg.vmid ? "on" : "off");
}

/* Sorts after every register number. */
#define UNKNOWN_KEY 0x10000u

struct ordered {
	size_t index;           /* into the device's registers */
	unsigned key;           /* register number, or after all of them */
};

static int by_key(const void *a, const void *b)
{
	const struct ordered *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Explain every register of @d: known ones in register order, then the
 * others raw, in file order. */
static int print_device(const struct pft_snap_device *d, const struct ptm_impl *impl)
{
	struct pft_regs_context ctx;
	struct ordered *order = calloc(d->nregs ? d->nregs : 1, sizeof(*order));
	int warnings = 0;

	if (!order) {
		cli_error("regs: out of memory");
		return -1;
	}
	memset(&ctx, 0, sizeof(ctx));
	ctx.size = sizeof(ctx);
	ptm_impl_context(impl, &ctx);
	ctx.have_etmidr |= !dev_reg32(d, "ETMIDR", &ctx.etmidr);
	ctx.have_etmccr |= !dev_reg32(d, "ETMCCR", &ctx.etmccr);
	ctx.have_etmccer |= !dev_reg32(d, "ETMCCER", &ctx.etmccer);

	printf("%s: %s %s (%s)\n", d->name, d->type, d->cls, d->file);
	print_summary(d);
	for (size_t i = 0; i < d->nregs; i++) {
		struct pft_regs_info info;

		order[i].index = i;
		order[i].key = pft_regs_lookup(d->regs[i].name, &info) < 0
			       ? UNKNOWN_KEY : info.number;
	}
	qsort(order, d->nregs, sizeof(*order), by_key);
	for (size_t i = 0; i < d->nregs; i++) {
		const struct pft_snap_reg *r = &d->regs[order[i].index];

		if (order[i].key == UNKNOWN_KEY &&
		    (i == 0 || order[i - 1].key != UNKNOWN_KEY))
			printf("registers not explained:\n");
		if (order[i].key == UNKNOWN_KEY)
			printf("  %s = 0x%08llx\n", r->name, (unsigned long long)r->value);
		else if (r->value > UINT32_MAX)
			printf("%s = 0x%llx  (not a 32-bit value)\n", r->name,
			       (unsigned long long)r->value);
		else
			warnings += print_register(r->name, (uint32_t)r->value, &ctx);
	}
	free(order);
	return warnings;
}

static int explain_snapshot(const char *dir, const char *device, unsigned flags,
			    const struct ptm_impl *impl)
{
	struct pft_snapshot *s;
	struct pft_diag why;
	int warnings = 0, shown = 0, rc = EXIT_OK;

	if (pft_snap_load(dir, flags, &s, &why) < 0) {
		cli_error("%s", why.text);
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < s->ndevs && rc == EXIT_OK; i++) {
		const struct pft_snap_device *d = &s->devs[i];
		int is_ptm = d->protocol == PFT_PROTO_PTM;

		if (device ? strcmp(d->name, device) : !is_ptm)
			continue;
		if (!is_ptm) {
			cli_error("regs: %s: not a PTM trace source (type %s)", device, d->type);
			rc = EXIT_USAGE;
			break;
		}
		if (shown++)
			printf("\n");
		int w = print_device(d, impl);
		if (w < 0)
			rc = EXIT_USAGE;
		else
			warnings += w;
	}
	if (rc == EXIT_OK && !shown) {
		if (device)
			cli_error("regs: %s: no device '%s' in the snapshot", dir, device);
		else
			cli_error("regs: %s: no PTM trace source in the snapshot", dir);
		rc = EXIT_USAGE;
	}
	pft_snap_free(s);
	if (rc == EXIT_OK && warnings)
		rc = EXIT_DECODE_ERRORS;
	return rc;
}

int cmd_regs(int argc, char **argv)
{
	struct ptm_impl impl;
	const char *snapshot = NULL, *device = NULL;
	int npos = 0, allow_outside = 0;
	char **pos = argv + 1;

	ptm_impl_init(&impl);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return EXIT_OK;
		}
		if (!strcmp(a, "--allow-outside-files")) {
			allow_outside = 1;
			continue;
		}
		if (!strcmp(a, "--snapshot") || !strcmp(a, "--device")) {
			if (i + 1 >= argc) {
				cli_error("regs: %s needs a value", a);
				return EXIT_USAGE;
			}
			*(a[2] == 's' ? &snapshot : &device) = argv[++i];
			continue;
		}
		if (!strncmp(a, "--", 2)) {
			int used = ptm_impl_option(&impl, argc - i, argv + i);

			if (used < 0)
				return EXIT_USAGE;
			if (used == 0) {
				cli_error("regs: unknown option '%s'", a);
				return EXIT_USAGE;
			}
			i += used - 1;
			continue;
		}
		pos[npos++] = argv[i];
	}
	if (snapshot && npos) {
		cli_error("regs: NAME=VALUE arguments and --snapshot exclude each other");
		return EXIT_USAGE;
	}
	if ((device || allow_outside) && !snapshot) {
		cli_error("regs: %s needs --snapshot", device ? "--device" : "--allow-outside-files");
		return EXIT_USAGE;
	}
	if (snapshot)
		return explain_snapshot(snapshot, device,
					allow_outside ? PFT_SNAP_ALLOW_OUTSIDE : 0u, &impl);
	if (!npos) {
		usage(stderr);
		return EXIT_USAGE;
	}
	return explain_args(pos, npos, &impl);
}
