/* Trace inputs: option handling, and opening them through the library. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "input.h"

void input_opts_init(struct input_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->id = -1;
	pft_ptm_config_init(&o->cfg);
	pft_etm3_config_init(&o->cfg3);
	/* Without registers, assume the common Cortex-A15 setting: PFTv1.1
	 * with 64-bit binary timestamps (pft_ptm_config_init's defaults). */
}

int input_names_id(const struct input_opts *o, int id)
{
	return id >= 1 && id <= PFT_ID_MAX_VALID && (o->ids[id / 8] >> (id % 8) & 1);
}

int input_option(struct input_opts *o, int code, const char *arg)
{
	uint32_t v;

	switch (code) {
	case OPT_SNAPSHOT: o->snapshot = arg; return 0;
	case OPT_RAW: o->raw = arg; return 0;
	case OPT_FORMATTED: o->formatted = arg; return 0;
	case OPT_TPIU: o->tpiu = 1; return 0;
	case OPT_ALLOW_OUTSIDE: o->allow_outside = 1; return 0;
	case OPT_PERF: o->perf = arg; return 0;
	case OPT_SYMFS: o->symfs = arg; return 0;
	case OPT_BUILDID_DIR: o->buildid_dir = arg; return 0;
	case OPT_CORE:
		o->core = pft_core_find(arg);
		if (!o->core) {
			char names[256] = "";
			const struct pft_core *c;
			for (size_t i = 0; (c = pft_core_at(i)) != NULL; i++)
				snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
					 i ? ", " : "", c->name);
			cli_error("--core: '%s' is not a core pft knows (%s)", arg, names);
			return -1;
		}
		return 0;
	case OPT_PROTOCOL:
		if (strcmp(arg, "ptm") && strcmp(arg, "etmv3")) {
			cli_error("--protocol: '%s' is not ptm or etmv3", arg);
			return -1;
		}
		o->etm3 = arg[0] == 'e';
		o->protocol_given = 1;
		return 0;
	case OPT_MERGE: o->merge = PFT_INPUT_MERGE_ORDER; return 0;
	case OPT_MERGE_WINDOW:
		if (cli_parse_u32(arg, &v) || v < 1 || v > (1u << 24)) {
			cli_error("--merge-window: '%s' is not a number of items (1-16777216)", arg);
			return -1;
		}
		o->merge_window = v;
		return 0;
	case OPT_JOBS:
		if (cli_parse_u32(arg, &v) || v < 1 || v > 1024) {
			cli_error("-j/--jobs: '%s' is not a number of threads (1-1024)", arg);
			return -1;
		}
		o->jobs = v;
		return 0;
	case OPT_ID:   /* repeatable, and a comma-separated list */
		for (const char *p = arg;; p++) {
			const char *end = strchr(p, ',');
			size_t n = end ? (size_t)(end - p) : strlen(p);
			char one[32];

			snprintf(one, sizeof(one), "%.*s", (int)(n < sizeof(one) ? n : sizeof(one) - 1), p);
			if (n >= sizeof(one) || cli_parse_u32(one, &v) || v < 1 || v > PFT_ID_MAX_VALID) {
				cli_error("--id: '%.*s' is not a trace ID (0x01-0x6f)", (int)n, p);
				return -1;
			}
			if (o->id < 0)
				o->id = (int)v;
			if (!input_names_id(o, (int)v))
				o->nids++;
			o->ids[v / 8] |= (uint8_t)(1u << (v % 8));
			if (!end)
				return 0;
			p = end;
		}
	case OPT_CYCLE_ACCURATE: o->cfg.cycle_accurate = 1; break;
	case OPT_TIMESTAMPS: o->cfg.timestamps = 1; break;
	case OPT_VMID: o->cfg.vmid = 1; break;
	case OPT_RETURN_STACK:
		o->cfg.return_stack = 1;
		o->ptm_only = "--return-stack";
		break;
	case OPT_BRANCH_BROADCAST: o->cfg.branch_broadcast = 1; break;
	case OPT_DMB_DSB_WAYPOINTS:
		o->cfg.dmb_dsb_waypoints = 1;
		o->ptm_only = "--dmb-dsb-waypoints";
		break;
	case OPT_TS_GRAY:
		o->cfg.ts_gray = 1;
		o->ts_format_given = 1;
		break;
	case OPT_CTXID_BYTES:
		if (cli_parse_u32(arg, &v) || (v != 0 && v != 1 && v != 2 && v != 4)) {
			cli_error("--ctxid-bytes: '%s' is not 0, 1, 2 or 4", arg);
			return -1;
		}
		o->cfg.ctxid_bytes = (uint8_t)v;
		break;
	case OPT_PFT_VERSION:
		o->ptm_only = "--pft-version";
		if (!strcmp(arg, "1.0")) {
			o->cfg.version_minor = 0;
			o->cfg.ts_64bit = 0;
			o->cfg.ts_gray = 1;
		} else if (!strcmp(arg, "1.1")) {
			o->cfg.version_minor = 1;
		} else {
			cli_error("--pft-version: '%s' is not 1.0 or 1.1", arg);
			return -1;
		}
		break;
	case OPT_TS_BITS:
		if (cli_parse_u32(arg, &v) || (v != 48 && v != 64)) {
			cli_error("--ts-bits: '%s' is not 48 or 64", arg);
			return -1;
		}
		o->cfg.ts_64bit = v == 64;
		o->ts_format_given = 1;
		break;
	case OPT_REG: {
		static const char *const names[4] = { "ETMCR", "ETMCCER", "ETMIDR", "ETMTRACEIDR" };
		struct pft_regs_info info;
		char name[32];
		uint32_t value;
		int i;

		if (cli_parse_assignment("--reg", arg, name, sizeof(name), &value))
			return -1;
		/* Register names as pft regs takes them (aliases included). */
		for (i = 0; i < 4; i++)
			if (pft_regs_lookup(name, &info) >= 0 && !strcmp(info.name, names[i]))
				break;
		if (i == 4) {
			cli_error("--reg: %s: not one of ETMCR, ETMCCER, ETMIDR, ETMTRACEIDR", name);
			return -1;
		}
		o->reg[i] = value;
		o->reg_given[i] = 1;
		return 0;
	}
	default:
		cli_error("internal: unknown option code %d", code);
		return -1;
	}
	o->cfg_given = 1;
	return 0;
}

/* "an ETMv3" or "a PTM" for enum pft_protocol @p. */
static const char *protocol_title(int p)
{
	return p == PFT_PROTO_ETMV3 ? "an ETMv3" : "a PTM";
}

/* Settle ETMv3 or PTM: --protocol, --core, or the architecture --reg
 * ETMIDR names; they must agree. */
static int settle_protocol(struct input_opts *o)
{
	if ((o->protocol_given || o->core) && (o->snapshot || o->perf)) {
		cli_error("%s does not go with %s (its registers say each source's protocol)",
			  o->core ? "--core" : "--protocol", o->snapshot ? "--snapshot" : "--perf");
		return -1;
	}
	if (o->core) {
		int etm3 = o->core->protocol == PFT_PROTO_ETMV3;
		if (o->protocol_given && o->etm3 != etm3) {
			cli_error("--protocol %s and --core %s (traced by %s) disagree",
				  o->etm3 ? "etmv3" : "ptm", o->core->name,
				  protocol_title(o->core->protocol));
			return -1;
		}
		o->etm3 = etm3;
	}
	if (!o->reg_given[2])
		return 0;
	unsigned arch;
	int protocol = pft_regs_protocol(o->reg[2], &arch);
	if (protocol != PFT_PROTO_PTM && protocol != PFT_PROTO_ETMV3) {
		cli_error("--reg ETMIDR=0x%08x: architecture %u is neither a PTM (3) nor an ETMv3 (2)",
			  o->reg[2], arch);
		return -1;
	}
	if ((o->protocol_given || o->core) && o->etm3 != (protocol == PFT_PROTO_ETMV3)) {
		if (o->core)
			cli_error("--core %s and --reg ETMIDR=0x%08x (%s) disagree", o->core->name,
				  o->reg[2], protocol_title(protocol));
		else
			cli_error("--protocol %s and --reg ETMIDR=0x%08x (%s) disagree",
				  o->etm3 ? "etmv3" : "ptm", o->reg[2], protocol_title(protocol));
		return -1;
	}
	o->etm3 = protocol == PFT_PROTO_ETMV3;
	return 0;
}

/* The configuration of --reg.  Registers left out are those of --core,
 * else of a Cortex-A15's PTM (PFTv1.1, 64-bit binary timestamps) or a
 * Cortex-A7's ETMv3.5 (TC2's), as the library's defaults give them. */
static int config_from_regs(struct input_opts *o)
{
	struct pft_trace_regs def = { .size = sizeof(def) };
	struct pft_ptm_config c;
	struct pft_etm3_config c3;

	pft_ptm_config_init(&c);
	pft_etm3_config_init(&c3);
	if (o->core) {
		def.etmidr = o->core->etmidr;
		def.etmccer = o->core->etmccer;
	} else if (o->etm3) {
		pft_etm3_config_to_regs(&c3, &def);
	} else {
		pft_ptm_config_to_regs(&c, &def);
	}

	uint32_t idr = o->reg_given[2] ? o->reg[2] : def.etmidr;
	uint32_t ccer = o->reg_given[1] ? o->reg[1] : def.etmccer;
	uint32_t traceid = o->reg_given[3] ? o->reg[3] : (o->id > 0 ? (uint32_t)o->id : 0);

	if (o->cfg_given) {
		cli_error("--reg and the configuration flags exclude each other");
		return -1;
	}
	if (o->etm3 ? pft_etm3_config_from_regs(&o->cfg3, o->reg[0], ccer, idr, traceid)
		    : pft_ptm_config_from_regs(&o->cfg, o->reg[0], ccer, idr, traceid)) {
		cli_error("--reg ETMIDR=0x%08x: not a%s", idr, o->etm3 ? "n ETMv3" : " PTM");
		return -1;
	}
	if (o->reg_given[3]) {
		unsigned id = o->etm3 ? o->cfg3.trace_id : o->cfg.trace_id;
		if (id < 1 || id > PFT_ID_MAX_VALID) {
			cli_error("--reg ETMTRACEIDR=0x%x: trace ID 0x%02x is reserved", traceid, id);
			return -1;
		}
		if (o->nids > 1) {
			cli_error("--reg ETMTRACEIDR=0x%x gives one trace ID, --id %d", traceid, o->nids);
			return -1;
		}
		if (o->id >= 0 && o->id != (int)id) {
			cli_error("--id 0x%02x and --reg ETMTRACEIDR=0x%x disagree", o->id, traceid);
			return -1;
		}
		if (o->formatted && o->id < 0) {
			o->id = (int)id;
			o->ids[id / 8] |= (uint8_t)(1u << (id % 8));
			o->nids = 1;
		}
	}
	return 0;
}

/* The options of enum pft_core_option, as flags and in words. */
static const struct {
	unsigned bit;
	const char *flag, *what;
} core_options[] = {
	{ PFT_CORE_CYCLE_ACCURATE, "--cycle-accurate", "no cycle-accurate mode" },
	{ PFT_CORE_CTXID, "--ctxid-bytes", "no context IDs" },
	{ PFT_CORE_VMID, "--vmid", "no VMID" },
	{ PFT_CORE_TIMESTAMPS, "--timestamps", "no timestamps" },
	{ PFT_CORE_RETURN_STACK, "--return-stack", "no return stack" },
	{ PFT_CORE_DMB_DSB_WAYPOINTS, "--dmb-dsb-waypoints", "no DMB/DSB waypoints" },
	{ PFT_CORE_BRANCH_BROADCAST, "--branch-broadcast", "no branch broadcast" },
};

/* The flags of @cfg that --core's trace unit has: 0, or -1 after naming
 * the first it has not. */
static int check_core_options(const struct input_opts *o, const struct pft_ptm_config *cfg)
{
	unsigned lacks = pft_core_lacks(o->core, cfg);

	for (size_t i = 0; i < sizeof(core_options) / sizeof(core_options[0]); i++)
		if (lacks & core_options[i].bit) {
			cli_error("%s: the %s's %s has %s", core_options[i].flag, o->core->type,
				  o->core->protocol == PFT_PROTO_ETMV3 ? "ETM" : "PTM",
				  core_options[i].what);
			return -1;
		}
	return 0;
}

/* The ETMv3 configuration of the flags: that of the ETM `pft encode
 * --protocol etmv3` models with them (pft_etm3_config_from_ptm()), or of
 * --core's ETM. */
static int etm3_config_from_flags(struct input_opts *o)
{
	struct pft_ptm_config c = o->cfg;

	if (o->core && check_core_options(o, &c))
		return -1;
	if (o->ptm_only) {
		if (o->core)
			cli_error("%s: the %s's ETM is an ETMv3, which has none", o->ptm_only,
				  o->core->type);
		else
			cli_error("--protocol etmv3: ETMv3 has no %s", o->ptm_only);
		return -1;
	}
	c.trace_id = o->id > 0 ? (uint8_t)o->id : 0;
	if (!o->core)
		return pft_etm3_config_from_ptm(&o->cfg3, &c);
	if (pft_etm3_config_for_core(&o->cfg3, o->core, &c)) {
		cli_error("--core %s: cannot configure its ETM", o->core->name);
		return -1;
	}
	/* The timestamp format is the core's, unless given. */
	if (o->ts_format_given) {
		o->cfg3.ts_64bit = o->cfg.ts_64bit;
		o->cfg3.ts_gray = o->cfg.ts_gray;
	}
	return 0;
}

/* The PTM configuration of the flags with --core: its PTM's version,
 * timestamp format (unless given) and DMB/DSB waypoints. */
static int ptm_config_for_core(struct input_opts *o)
{
	struct pft_ptm_config c;

	if (check_core_options(o, &o->cfg))
		return -1;
	pft_ptm_config_init(&c);
	if (pft_ptm_config_for_core(&c, o->core, &o->cfg)) {
		cli_error("--core %s: cannot configure its PTM", o->core->name);
		return -1;
	}
	if (o->ptm_only && !strcmp(o->ptm_only, "--pft-version") &&
	    c.version_minor != o->cfg.version_minor) {
		cli_error("--pft-version 1.%u: the %s's PTM is PFT 1.%u", o->cfg.version_minor,
			  o->core->type, c.version_minor);
		return -1;
	}
	if (o->ts_format_given) {
		c.ts_64bit = o->cfg.ts_64bit;
		c.ts_gray = o->cfg.ts_gray;
	}
	c.trace_id = o->cfg.trace_id;
	o->cfg = c;
	return 0;
}

int input_settle_config(struct input_opts *o, int model)
{
	int regs = o->reg_given[0] | o->reg_given[1] | o->reg_given[2] | o->reg_given[3];

	if (settle_protocol(o) || (regs && config_from_regs(o)) ||
	    (o->etm3 && !regs && etm3_config_from_flags(o)) ||
	    (!o->etm3 && !regs && o->core && (o->cfg_given || model) && ptm_config_for_core(o)))
		return -1;
	return 0;
}

int input_profile(const struct input_opts *o)
{
	if (o->core)
		return o->core->profile;
	return o->etm3 && o->cfg3.m_profile ? PFT_PROFILE_M : PFT_PROFILE_A;
}

int input_opts_check(struct input_opts *o)
{
	int n = !!o->snapshot + !!o->raw + !!o->formatted + !!o->perf;
	int regs = o->reg_given[0] | o->reg_given[1] | o->reg_given[2] | o->reg_given[3];

	if (n != 1) {
		cli_error(n ? "give only one of --snapshot, --raw, --formatted and --perf"
			    : "no input: give --snapshot DIR, --raw FILE, --formatted FILE or "
			      "--perf FILE");
		return -1;
	}
	if ((o->snapshot || o->perf) && (o->cfg_given || regs)) {
		cli_error("configuration flags do not go with %s (it has the registers)",
			  o->snapshot ? "--snapshot" : "--perf");
		return -1;
	}
	if ((o->symfs || o->buildid_dir) && !o->perf) {
		cli_error("%s goes with --perf", o->symfs ? "--symfs" : "--buildid-dir");
		return -1;
	}
	if (input_settle_config(o, 0))
		return -1;
	if (o->raw && o->nids) {
		cli_error("--id does not go with --raw (raw input has one source)");
		return -1;
	}
	if (o->formatted && !o->nids && (o->cfg_given || regs) && !o->etm3) {
		cli_error("--formatted with a PTM configuration needs --id N (the trace ID it is "
			  "for; 'pft info' lists them); without one, every source's is detected");
		return -1;
	}
	if (o->tpiu && !o->formatted) {
		cli_error("--tpiu goes with --formatted");
		return -1;
	}
	if (o->merge_window && !o->merge) {
		cli_error("--merge-window goes with --merge");
		return -1;
	}
	if (o->allow_outside && !o->snapshot) {
		cli_error("--allow-outside-files goes with --snapshot");
		return -1;
	}
	return 0;
}

void input_report_error(const struct pft_input *in, int err)
{
	struct pft_diag d, last = { .code = 0 };

	for (size_t i = 0; pft_input_diag(in, i, &d) == 0; i++)
		if (d.severity == PFT_DIAG_ERROR)
			last = d;
	cli_error("%s", last.code ? last.text : pft_errstr(pft_errcode(err)));
}

const char *input_id_prefix(const struct pft_input_source *s, char buf[16])
{
	buf[0] = 0;
	if (s->id >= 0)
		snprintf(buf, 16, "id 0x%02x: ", (unsigned)s->id);
	return buf;
}

void input_report_trace_errors(const struct pft_input_source *s, uint64_t n, uint64_t offset,
			       const char *what, const char *lists)
{
	char id[16];

	cli_error("%s: %s%" PRIu64 " error%s in the trace, the first at offset 0x%" PRIx64
		  ": %s (%s)", s->path, input_id_prefix(s, id), n, n == 1 ? "" : "s", offset, what,
		  lists);
}

int input_candidate_options(const struct pft_input_source *s, unsigned k, char *buf, size_t len)
{
	struct pft_ptm_config cfg = s->cfg;

	if (k > 0 && k < s->ncandidates && k < PFT_DETECT_MAX_CANDIDATES) {
		const struct pft_detect_candidate *c = &s->candidates[k];
		cfg.cycle_accurate = c->cycle_accurate;
		cfg.ctxid_bytes = c->ctxid_bytes;
		cfg.ts_64bit = c->ts_64bit;
		if (cfg.ts_64bit)
			cfg.version_minor = 1;   /* PFTv1.0 has 48-bit timestamps only */
	}
	return pft_ptm_config_options(&cfg, buf, len) < 0 ? -1 : 0;
}

int input_needs_image(const struct pft_input_source *s, unsigned k, const char **name)
{
	static const struct { uint32_t bit; const char *name; } flow[] = {
		{ PFT_DETECT_RETURN_STACK, "--return-stack" },
		{ PFT_DETECT_BRANCH_BROADCAST, "--branch-broadcast" },
		{ PFT_DETECT_DMB_DSB, "--dmb-dsb-waypoints" },
	};
	for (unsigned i = 0; i < 3; i++)
		if ((s->needs_image & flow[i].bit) && k-- == 0) {
			*name = flow[i].name;
			return 0;
		}
	return -1;
}

/* Say what configuration was assumed, as the options that give it, and
 * the other readings that decode the trace as cleanly but differently. */
static void report_detected(const struct pft_input_source *s)
{
	char opts[256], alt[1024] = "", one[256], buf[16];
	const char *id = input_id_prefix(s, buf);
	size_t used = 0;

	if (input_candidate_options(s, 0, opts, sizeof(opts)) < 0)
		snprintf(opts, sizeof(opts), "?");
	for (unsigned k = 1; k < s->ncandidates && k < PFT_DETECT_MAX_CANDIDATES; k++) {
		if (input_candidate_options(s, k, one, sizeof(one)) < 0)
			snprintf(one, sizeof(one), "?");
		int n = snprintf(alt + used, sizeof(alt) - used, "%s%s", k > 1 ? "; " : "",
				 *one ? one : "no options");
		if (n < 0 || (size_t)n >= sizeof(alt) - used)
			break;
		used += (size_t)n;
	}
	if (*alt)
		cli_note("%s: %sdetected %s (it also decodes cleanly, but differently, with: %s; "
			  "give --reg or the options to choose)", s->path, id,
			  *opts ? opts : "no options", alt);
	else
		cli_note("%s: %sdetected %s", s->path, id, *opts ? opts : "no options");
}

int input_check_sources(const struct input *in, const struct input_opts *o, int packets)
{
	int problems = 0;

	for (size_t i = 0; i < in->nsrc; i++) {
		const struct source *s = &in->src[i];
		char id[32] = "";

		if (!s->info.decoded)
			continue;
		if (s->info.id >= 0)
			snprintf(id, sizeof(id), "trace ID 0x%02x: ", s->info.id);
		if (!s->info.stats.bytes && (o->nids || in->nsrc == 1)) {
			cli_error("%s: %sno trace data", s->info.path, id);
			problems++;
		} else if (packets && s->info.stats.bytes && !s->synced_once) {
			cli_error("%s: %sno A-sync in %" PRIu64 " bytes: nothing could be decoded",
				  s->info.path, id, s->info.stats.bytes);
			problems++;
		} else if (!packets && s->info.stats.bytes && !s->flow_once) {
			cli_error("%s: %sno A-sync followed by an I-sync in %" PRIu64 " bytes: no "
				  "program flow could be decoded", s->info.path, id,
				  s->info.stats.bytes);
			problems++;
		}
	}
	return problems;
}

int input_fit_report(struct input *in)
{
	int misfits = 0;

	for (size_t i = 0; i < in->nsrc; i++) {
		struct pft_fit_verdict v;
		const struct pft_input_source *s = &in->src[i].info;
		int reason = s->decoded ? pft_input_fit(in->in, i, &v, sizeof(v)) : 0;
		/* A damaged trace is reported error by error already; the
		 * image verdicts need an image to be about; perf.data's
		 * missing images were named already. */
		if (reason <= 0 || reason == PFT_FIT_CONFIG ||
		    (!in->has_images && (reason == PFT_FIT_IMAGE_ADDRESS ||
					 reason == PFT_FIT_IMAGE_CONTENT)))
			continue;
		if (!(in->perf && reason == PFT_FIT_NO_IMAGE))
			cli_error("%s", v.diag.text);
		misfits++;
		/* A missing image, or code outside it, says nothing of the
		 * trace's errors; the other verdicts say where they begin. */
		if (reason != PFT_FIT_NO_IMAGE && reason != PFT_FIT_IMAGE_ADDRESS)
			in->errors_said = 1;
	}
	in->errors_said |= in->warnings != 0;
	return misfits + in->warnings;   /* damaged input, said at the open */
}

void input_merge_report(const struct input *in, const char *window_option)
{
	char hint[64] = "";

	if (window_option)
		snprintf(hint, sizeof(hint), " (%s)", window_option);
	for (size_t i = 0; i < in->nsrc; i++) {
		const struct pft_input_source *s = &in->src[i].info;
		struct pft_merge_stats st;
		char id[16];

		if (!s->decoded || pft_input_merge_stats(in->in, i, &st, sizeof(st)))
			continue;
		input_id_prefix(s, id);
		if (s->timestamps && !st.timestamps && st.items)
			cli_note("%s: %sno timestamp in its trace: its items have no time", s->path, id);
		if (st.backwards)
			cli_error("%s: %s%" PRIu64 " timestamp%s below the one before (the first at "
				  "offset 0x%" PRIx64 "): the times after %s held until the "
				  "timestamps pass it again", s->path, id, st.backwards,
				  st.backwards == 1 ? "" : "s", st.backwards_offset,
				  st.backwards == 1 ? "it are" : "each are");
		if (st.flat)
			cli_error("%s: %s%" PRIu64 " item%s placed at the timestamp before, not "
				  "scaled by the cycles: the next timestamp came later than the "
				  "merge could hold items back%s", s->path, id, st.flat,
				  st.flat == 1 ? "" : "s", hint);
		if (st.late)
			cli_error("%s: %s%" PRIu64 " item%s out of time order: %s held back longer "
				  "than the merge could%s; %s time is right, %s place "
				  "is not", s->path, id, st.late, st.late == 1 ? "" : "s",
				  st.late == 1 ? "it was" : "they were", hint, st.late == 1 ? "its" : "their",
				  st.late == 1 ? "its" : "their");
		if (st.untimed && st.timestamps)
			cli_error("%s: %s%" PRIu64 " item%s before its first timestamp without a "
				  "time: the timestamp came later than the merge could hold them "
				  "back%s", s->path, id, st.untimed, st.untimed == 1 ? "" : "s", hint);
	}
}

int input_add_images(struct pft_input *in, const struct image_args *images)
{
	int err = 0;

	for (size_t i = 0; images && i < images->n && err >= 0; i++)
		err = images->v[i].symbols ? pft_input_add_symbols(in, images->v[i].path)
		      : images->v[i].is_elf
			      ? pft_input_add_elf(in, images->v[i].path, (int64_t)images->v[i].addr)
			      : pft_input_add_image(in, images->v[i].path,
						    (uint32_t)images->v[i].addr);
	return err;
}

/* Whether @images give code (--symbols alone gives none). */
static int has_code_images(const struct image_args *images)
{
	for (size_t i = 0; images && i < images->n; i++)
		if (!images->v[i].symbols)
			return 1;
	return 0;
}

static int open_perf(struct pft_input *in, const struct input_opts *o)
{
	struct pft_input_perf_config pc = { .size = sizeof(pc), .symfs = o->symfs,
					     .buildid_dir = o->buildid_dir };
	char cache[4096];
	const char *home = getenv("HOME");

	if (!pc.buildid_dir && home && *home) {
		snprintf(cache, sizeof(cache), "%s/.debug", home);
		pc.buildid_dir = cache;
	}
	return pft_input_open_perf(in, o->perf, &pc);
}

/* PFT_PIECE_SIZE (bytes): small pieces, so that tests split even small
 * traces (0: the default size); the parallel decode's counts are then
 * reported at the end. */
static uint32_t piece_size_for_tests(void)
{
	const char *s = getenv("PFT_PIECE_SIZE");
	uint32_t v;

	return s && !cli_parse_u32(s, &v) ? v : 0;
}

/* -j's default: a thread per CPU (the library decodes a small input in
 * the calling thread whatever this says), but one for a listing of
 * packets alone: the packet decoder is faster than the threads can hand
 * its packets over (the 108 MB benchmark's `dump` took 5 % longer at
 * -j 2 on an idle machine, where `decode` took 10 % less). */
static unsigned default_jobs(const struct input_opts *o, int packets, int elements)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (packets && !elements && !o->counting)
		return 1;
	return n < 1 ? 1 : n > 64 ? 64 : (unsigned)n;
}

/* The library's progress callback: a line on a terminal, now and then. */
static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
	(void)ctx;
	cli_progress(done, total);
}

int input_open(struct input *in, const struct input_opts *o, int packets, int elements,
	       const struct image_args *images)
{
	struct pft_input_config ic = { .size = sizeof(ic), .packets = (uint8_t)packets,
				       .elements = (uint8_t)elements, .fit_check = 1,
				       .runs = 1, .id = -1,
				       .snap_flags = o->allow_outside ? PFT_SNAP_ALLOW_OUTSIDE : 0u,
				       .threads = o->jobs ? o->jobs
							  : default_jobs(o, packets, elements),
				       .piece_size = piece_size_for_tests() };
	int given = o->cfg_given || o->reg_given[0] || o->reg_given[1] || o->reg_given[2] ||
		    o->reg_given[3];
	int err = 0;

	memset(in, 0, sizeof(*in));
	memcpy(ic.ids, o->ids, sizeof(ic.ids));
	ic.protocol_given = (uint8_t)o->protocol_given;
	ic.merge = (uint8_t)o->merge;
	ic.merge_window = o->merge_window;
	in->counting = o->counting;
	in->jobs = o->jobs;
	in->in = pft_input_alloc(&ic, &err);
	if (!in->in) {
		cli_error("%s", pft_errstr(pft_errcode(err)));
		return EXIT_USAGE;
	}
	err = input_add_images(in->in, images);
	if (err >= 0) {
		if (o->snapshot) {
			err = pft_input_open_snapshot(in->in, o->snapshot);
		} else if (o->perf) {
			err = open_perf(in->in, o);
		} else {
			const char *path = o->raw ? o->raw : o->formatted;
			unsigned format = o->raw ? PFT_PIPE_RAW
						 : o->tpiu ? PFT_PIPE_TPIU : PFT_PIPE_FORMATTED;
			err = pft_input_open_file(in->in, path, format);
			/* A configuration for each --id in turn; detection
			 * takes them all (the input's configuration has them). */
			if (err >= 0 && o->nids && (o->etm3 || given)) {
				for (int id = 1; err >= 0 && id <= PFT_ID_MAX_VALID; id++)
					if (input_names_id(o, id))
						err = o->etm3 ? pft_input_add_etm3(in->in, id, &o->cfg3)
							      : pft_input_add_ptm(in->in, id, &o->cfg);
			} else if (err >= 0 && o->etm3) {
				err = pft_input_add_etm3(in->in, -1, &o->cfg3);
			} else if (err >= 0) {
				err = given ? pft_input_add_ptm(in->in, -1, &o->cfg)
					    : pft_input_add_detected(in->in, -1);
			}
			if (err >= 0 && o->etm3 && !given)
				cli_note("%s: ETMv3 configuration is not detected: assumed %s%s%snone of "
					  "the options (give them, or --reg, if the ETM had any)", path,
					  o->core ? "a " : "", o->core ? o->core->type : "",
					  o->core ? "'s ETM with " : "");
		}
	}
	if (err < 0) {
		input_report_error(in->in, err);
		return EXIT_USAGE;
	}
	struct pft_diag note;
	for (size_t i = 0; pft_input_diag(in->in, i, &note) == 0; i++)
		if (note.severity == PFT_DIAG_WARNING) {   /* counted: exit 1 */
			cli_error("%s", note.text);
			in->warnings++;
		} else if (note.severity == PFT_DIAG_NOTE) {   /* --quiet silences */
			cli_note("%s", note.text);
		}
	in->has_images = o->snapshot || o->perf || has_code_images(images);
	in->perf = o->perf != NULL;
	in->nsrc = pft_input_nsources(in->in);
	in->src = calloc(in->nsrc, sizeof(*in->src));
	if (!in->src) {
		cli_error("out of memory");
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < in->nsrc; i++) {
		struct pft_input_source *s = &in->src[i].info;
		pft_input_source(in->in, i, s, sizeof(*s));
		if (s->id >= 0)
			in->multi_id = 1;
		if (!s->decoded && s->protocol != (o->etm3 ? PFT_PROTO_ETMV3 : PFT_PROTO_PTM) &&
		    (!o->nids || input_names_id(o, s->id))) {
			char who[300] = "";
			if (strcmp(s->name, s->path))
				snprintf(who, sizeof(who), "%s ", s->name);
			if (s->id >= 0)
				cli_note("%s: %strace ID 0x%02x: %s trace is not decoded", s->path,
					  who, (unsigned)s->id, pft_protocol_name(s->protocol));
			else
				cli_note("%s: %s%s trace is not decoded", s->path, who,
					  pft_protocol_name(s->protocol));
		}
		if (s->detected)
			report_detected(s);
	}
	/* Listings of packets or elements go to standard output as they
	 * come; counts are printed at the end.  Counting reads the whole
	 * trace in one call: the library says how far it got. */
	cli_progress_start(o->counting);
	pft_input_set_progress(in->in, on_progress, NULL);
	return 0;
}

void input_close(struct input *in)
{
	cli_progress_end();
	pft_input_free(in->in);
	free(in->src);
	memset(in, 0, sizeof(*in));
}

/* -j N given, the decode ran in one thread: a note on why (a small trace
 * is decoded in one on purpose, and says nothing). */
static void report_serial(struct input *in)
{
	static const char *const why[PFT_SERIAL_MAX] = {
		[PFT_SERIAL_PERF] = "perf.data is not cut into pieces",
		[PFT_SERIAL_FILES] = "the input has several trace files; the parallel decode cuts "
				     "one",
		[PFT_SERIAL_SOURCES] = "the buffer holds several trace sources; the parallel decode "
				       "takes one (--id ID picks it)",
		[PFT_SERIAL_STREAM] = "standard input and pipes are not cut into pieces; a regular "
				      "file is",
		[PFT_SERIAL_PROTOCOL] = "the parallel decode takes PTM raw or in a formatted "
					"buffer, and ETMv3 raw",
		[PFT_SERIAL_IMAGE_READER] = "an image is read through a callback",
	};
	struct pft_input_parallel par;

	if (in->jobs < 2 || !in->nsrc || in->serial_said ||
	    pft_input_parallel_stats(in->in, &par, sizeof(par)) || par.serial >= PFT_SERIAL_MAX ||
	    !why[par.serial])
		return;
	in->serial_said = 1;
	cli_note("%s: -j %u: decoded in one thread: %s", in->src[0].info.path, in->jobs,
		 why[par.serial]);
}

/* What pft_input_next() or pft_input_count() returned (@r, the item in
 * *@item), as input_next() returns it. */
static int took_item(struct input *in, struct pft_item *item, int r)
{
	if (r == 0 && cli_output_failed()) {
		cli_output_error();
		return -1;
	}
	if (r == 0 && cli_progress_due()) {
		uint64_t done, total;
		if (!pft_input_progress(in->in, &done, &total))
			cli_progress(done, total);
	}
	if (r == 0) {
		struct source *src = &in->src[item->source];
		/* The elements of a source, until one is more than NO_SYNC. */
		for (uint32_t i = 0; item->type == PFT_ITEM_ELEM && !src->flow_once &&
				     i < item->count; i++)
			src->flow_once = item->elem[i].type != PFT_ELEM_NO_SYNC;
		if (item->type == PFT_ITEM_PACKET && item->etm3)
			src->synced_once |= item->etm3->type == PFT_ETM3_PKT_ASYNC;
		else if (item->type == PFT_ITEM_PACKET)
			for (uint32_t i = 0; i < item->count; i++)
				src->synced_once |= item->ptm[i].type == PFT_PTM_PKT_ASYNC;
		return 1;
	}
	cli_progress_end();
	for (size_t i = 0; i < in->nsrc; i++) {
		struct source *s = &in->src[i];
		pft_input_source(in->in, i, &s->info, sizeof(s->info));
		if (in->counting && !pft_input_counts(in->in, i, &s->counts, sizeof(s->counts))) {
			s->synced_once |= s->counts.packets[PFT_PTM_PKT_ASYNC] ||
					  s->counts.etm3_packets[PFT_ETM3_PKT_ASYNC];
			for (int t = 0; t < PFT_INPUT_COUNT_TYPES; t++)
				s->flow_once |= t != PFT_ELEM_NO_SYNC && s->counts.elems[t];
		}
	}
	struct pft_input_parallel par;
	if (r == -PFT_ERR_EOS && getenv("PFT_PIECE_SIZE") &&
	    !pft_input_parallel_stats(in->in, &par, sizeof(par)))
		cli_error("parallel decode: %" PRIu64 " pieces, %" PRIu64 " handovers, %" PRIu64
			  " absorbed, %" PRIu64 " folded, %" PRIu64 " fold waits", par.pieces,
			  par.handovers, par.absorbed, par.folded, par.fold_waits);
	if (r == -PFT_ERR_EOS) {
		report_serial(in);
		return 0;
	}
	input_report_error(in->in, r);
	return -1;
}

int input_next(struct input *in, struct pft_item *item)
{
	return took_item(in, item, pft_input_next(in->in, item, sizeof(*item)));
}

int input_count(struct input *in, struct pft_item *item)
{
	return took_item(in, item, pft_input_count(in->in, item, sizeof(*item)));
}

int input_one_decoded(const struct input *in, size_t *k)
{
	size_t decoded = 0;

	for (size_t i = 0; i < in->nsrc; i++)
		if (in->src[i].info.decoded) {
			decoded++;
			*k = i;
		}
	return decoded == 1;
}

int input_select(const struct input *in, const char *cmd, const struct pft_lines *lines,
		 const char *const *names, size_t n, struct pft_select **sel)
{
	struct pft_image *images[PFT_VIEWS_MAX_IMAGES];
	struct pft_select_config sc = { .size = sizeof(sc), .lines = lines, .images = images };
	int err;

	*sel = NULL;
	if (!n)
		return 0;
	for (size_t i = 0; i < in->nsrc; i++) {
		struct pft_image *img = in->src[i].info.image;
		size_t k = 0;
		if (!in->src[i].info.decoded || !img)
			continue;
		while (k < sc.nimages && images[k] != img)
			k++;
		if (k == sc.nimages && sc.nimages < PFT_VIEWS_MAX_IMAGES)
			images[sc.nimages++] = img;
	}
	*sel = pft_select_alloc(&sc, &err);
	if (!*sel) {
		cli_error("%s: %s", cmd, pft_errstr(pft_errcode(err)));
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		err = pft_select_add(*sel, names[i]);
		if (err == -PFT_ERR_NOT_FOUND) {
			cli_error("%s: --function %s: no function of that name in the images' "
				  "symbols%s", cmd, names[i],
				  lines ? " or the DWARF of the --elf files" : "");
			return -1;
		}
		if (err < 0) {
			cli_error("%s: --function %s: %s", cmd, names[i],
				  pft_errstr(pft_errcode(err)));
			return -1;
		}
	}
	return 0;
}
