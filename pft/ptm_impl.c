/* --implementation and the ID-register options. */
#include <string.h>

#include "cli.h"
#include "cmd_ptm_impl.h"

struct preset {
	const char *name;
	uint32_t etmccr, etmccer, etmidr;
};

/* ETMCCR and ETMCCER from the PTM TRMs (A9: DDI 0401A tables 2.4 and 2.11;
 * A15: the values of the A15 snapshots); ETMIDR from the captures. */
static const struct preset presets[] = {
	{ "a15", 0x8d294004, 0x34c01ac2, 0x411cf312 },
	{ "a9", 0x8d294004, 0x00c018ea, 0x411cf301 },
};

/* Registers not given: every resource at its maximum, and a PFTv1.1 PTM
 * with the Security Extensions. */
enum {
	ETMCCR_MAX = 0x07098008,
	ETMCCER_MAX = 0x04088004,
	ETMIDR_ANY_V11 = 0x4118f310
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
			const struct preset *p = &presets[i];

			if (strcmp(arg, p->name))
				continue;
			/* Explicit registers win, whatever the order. */
			if (!impl->have_etmccr)
				impl->etmccr = p->etmccr;
			if (!impl->have_etmccer)
				impl->etmccer = p->etmccer;
			if (!impl->have_etmidr)
				impl->etmidr = p->etmidr;
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
	uint32_t ccr = impl->have_etmccr ? impl->etmccr : ETMCCR_MAX;
	uint32_t ccer = impl->have_etmccer ? impl->etmccer : ETMCCER_MAX;
	uint32_t idr = impl->have_etmidr ? impl->etmidr : ETMIDR_ANY_V11;

	pft_event_limits_max(limits);
	if (pft_event_limits_from_regs(limits, ccr, ccer, idr) < 0) {
		if (((idr >> 8) & 0xf) != 3)
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
