/* --implementation and the ID-register options. */
#include <string.h>

#include "cli.h"
#include "cmd_ptm_impl.h"

/* The PTMs --implementation names, as pft_ptm_config_to_regs() gives their
 * ETMCCR, ETMCCER and ETMIDR: the Cortex-A15's (PFTv1.1) and the
 * Cortex-A9's (PFTv1.0). */
struct preset {
	const char *name;
	uint8_t version_minor;
};

static const struct preset presets[] = {
	{ "a15", 1 },
	{ "a9", 0 },
};

const char ptm_impl_usage[] =
	"  --implementation a15|a9   a Cortex-A15 or Cortex-A9 PTM\n"
	"  --etmccr VALUE            configuration code register\n"
	"  --etmccer VALUE           configuration code extension register\n"
	"  --etmidr VALUE            ID register\n";

void ptm_impl_init(struct ptm_impl *impl)
{
	memset(impl, 0, sizeof(*impl));
}

static int take_value(const char *opt, const char *arg, uint32_t *out, int *have)
{
	if (!arg) {
		cli_error("%s needs a value", opt);
		return -1;
	}
	if (cli_parse_u32(arg, out)) {
		cli_error("%s: '%s' is not a 32-bit number", opt, arg);
		return -1;
	}
	*have = 1;
	return 2;
}

int ptm_impl_option(struct ptm_impl *impl, int argc, char **argv)
{
	const char *opt = argv[0], *arg = argc > 1 ? argv[1] : NULL;
	int used = 0;

	if (!strcmp(opt, "--implementation")) {
		if (!arg) {
			cli_error("--implementation needs a value (a15 or a9)");
			return -1;
		}
		for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
			struct pft_trace_regs r = { .size = sizeof(r) };
			struct pft_ptm_config c;

			if (strcmp(arg, presets[i].name))
				continue;
			pft_ptm_config_init(&c);
			c.version_minor = presets[i].version_minor;
			pft_ptm_config_to_regs(&c, &r);
			/* Explicit registers win, whatever the order. */
			if (!impl->have_etmccr)
				impl->etmccr = r.etmccr;
			if (!impl->have_etmccer)
				impl->etmccer = r.etmccer;
			if (!impl->have_etmidr)
				impl->etmidr = r.etmidr;
			impl->have_etmccr = impl->have_etmccer = impl->have_etmidr = 1;
			used = 2;
		}
		if (!used) {
			cli_error("--implementation: unknown '%s' (a15 or a9)", arg);
			return -1;
		}
	} else if (!strcmp(opt, "--etmccr")) {
		used = take_value(opt, arg, &impl->etmccr, &impl->have_etmccr);
	} else if (!strcmp(opt, "--etmccer")) {
		used = take_value(opt, arg, &impl->etmccer, &impl->have_etmccer);
	} else if (!strcmp(opt, "--etmidr")) {
		used = take_value(opt, arg, &impl->etmidr, &impl->have_etmidr);
	}
	if (used > 0)
		impl->given = 1;
	return used;
}

int ptm_impl_limits(const struct ptm_impl *impl, struct pft_event_limits *limits)
{
	/* Registers not given: every resource at its maximum, and a PFTv1.1
	 * PTM with the Security Extensions. */
	struct pft_regs_context max = { .size = sizeof(max) };

	pft_event_limits_max(limits);
	pft_event_limits_to_regs(limits, &max);

	uint32_t ccr = impl->have_etmccr ? impl->etmccr : max.etmccr;
	uint32_t ccer = impl->have_etmccer ? impl->etmccer : max.etmccer;
	uint32_t idr = impl->have_etmidr ? impl->etmidr : max.etmidr;

	if (pft_event_limits_from_regs(limits, ccr, ccer, idr) < 0) {
		if (pft_regs_protocol(idr, NULL) != PFT_PROTO_PTM)
			cli_error("ETMIDR 0x%08x does not describe a PTM", idr);
		else
			cli_error("ETMCCR 0x%08x / ETMCCER 0x%08x: resource counts above "
				  "the PTM maximum", ccr, ccer);
		return -1;
	}
	return 0;
}

void ptm_impl_context(const struct ptm_impl *impl, struct pft_regs_context *ctx)
{
	if (impl->have_etmccr) {
		ctx->etmccr = impl->etmccr;
		ctx->have_etmccr = 1;
	}
	if (impl->have_etmccer) {
		ctx->etmccer = impl->etmccer;
		ctx->have_etmccer = 1;
	}
	if (impl->have_etmidr) {
		ctx->etmidr = impl->etmidr;
		ctx->have_etmidr = 1;
	}
}
