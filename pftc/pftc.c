/*
 * pftc - compile a .pftt test specification (doc/howto_pftt.md).
 *
 * A .pftt file is GNU as source for ARM/Thumb with directives in '@pft'
 * comments: the packets the trace holds and the output pft must print for
 * it.  pftc assembles and links the program (arm-linux-gnueabihf-as and -ld
 * as subprocesses), takes the label addresses from the ELF (nm), encodes
 * the packets with the protocol's encoder (PTM, or ETMv3 with
 * config(protocol=etmv3) or an ETMv3's regs()), and writes into OUTDIR:
 *   NAME.elf         the program
 *   NAME.bin         the raw trace
 *   NAME.opts        the pft configuration options for it, one line
 *   NAME-dump.exp    expected `pft dump` lines, %lN and %pN expanded (when
 *                    the file has some)
 *   NAME-decode.exp  expected `pft decode` lines (when the file has some)
 *
 * usage: pftc FILE.pftt OUTDIR
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pft.h"

enum { MAX_LABELS = 1024, MAX_PACKETS = 4096, MAX_TRACE = 1 << 20, LINE_MAX_LEN = 1024 };

struct label {
	char name[64];
	uint32_t addr;
};

static struct {
	const char *path;
	int line;
	struct label labels[MAX_LABELS];
	size_t nlabels;
	uint64_t packet_offset[MAX_PACKETS]; /* by pN; UINT64_MAX: not defined */
	uint8_t trace[MAX_TRACE];
	size_t ntrace;
	struct pft_ptm_config cfg;
	struct pft_etm3_config cfg3;   /* with etm3 */
	uint32_t text_addr;
	int have_config, have_regs, etm3;
	uint32_t etmcr, etmccer, etmidr; /* with have_regs */
} st;

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void die(const char *fmt, ...)
{
	va_list ap;

	if (st.line)
		fprintf(stderr, "pftc: %s:%d: ", st.path, st.line);
	else
		fprintf(stderr, "pftc: %s: ", st.path);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

/* Run @argv, with stdout to @out_path when given; die unless it exits 0. */
static void run(char *const argv[], const char *out_path)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		if (out_path && !freopen(out_path, "w", stdout))
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		die("%s failed (is gcc-arm-linux-gnueabihf installed?)", argv[0]);
}

static char *skip_space(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

static void trim_end(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
}

static const struct label *find_label(const char *name)
{
	for (size_t i = 0; i < st.nlabels; i++)
		if (!strcmp(st.labels[i].name, name))
			return &st.labels[i];
	return NULL;
}

/* The labels of @elf as nm lists them ("ADDR t NAME"); mapping symbols
 * ($a, $t, $d) are not labels. */
static void read_labels(const char *elf, const char *nm_out)
{
	char *argv[] = { "arm-linux-gnueabihf-nm", (char *)elf, NULL };
	char line[LINE_MAX_LEN], name[256], type;
	unsigned long addr;
	FILE *f;

	run(argv, nm_out);
	f = fopen(nm_out, "r");
	if (!f)
		die("%s: %s", nm_out, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx %c %255s", &addr, &type, name) != 3 || name[0] == '$')
			continue;
		if (strlen(name) >= sizeof(st.labels[0].name) || st.nlabels == MAX_LABELS)
			continue;
		strcpy(st.labels[st.nlabels].name, name);
		st.labels[st.nlabels++].addr = (uint32_t)addr;
	}
	fclose(f);
}

/* A number (C syntax) or a label. */
static uint64_t value_of(const char *s)
{
	const struct label *l;
	char *end;

	if (isdigit((unsigned char)*s)) {
		errno = 0;
		uint64_t v = strtoull(s, &end, 0);
		if (errno || *end)
			die("bad number '%s'", s);
		return v;
	}
	l = find_label(s);
	if (!l)
		die("unknown label '%s'", s);
	return l->addr;
}

/* Arguments "a, k=v, ..." of a directive: positional ones and k=v pairs. */
struct args {
	char *pos[8];
	size_t npos;
	char *key[16], *val[16];
	size_t nkv;
};

static void split_args(char *s, struct args *a)
{
	memset(a, 0, sizeof(*a));
	while (*(s = skip_space(s))) {
		char *comma = strchr(s, ',');

		if (comma)
			*comma = 0;
		trim_end(s);
		char *eq = strchr(s, '=');
		if (eq) {
			if (a->nkv == 16)
				die("too many arguments");
			*eq = 0;
			trim_end(s);
			a->key[a->nkv] = s;
			a->val[a->nkv++] = skip_space(eq + 1);
		} else if (*s) {
			if (a->npos == 8)
				die("too many arguments");
			a->pos[a->npos++] = s;
		}
		if (!comma)
			break;
		s = comma + 1;
	}
}

/* The value of key @k (NULL when absent); each key may be used once. */
static const char *arg(struct args *a, const char *k)
{
	for (size_t i = 0; i < a->nkv; i++) {
		if (a->key[i] && !strcmp(a->key[i], k)) {
			a->key[i] = NULL;
			return a->val[i];
		}
	}
	return NULL;
}

static void no_more_args(const struct args *a, size_t npos)
{
	if (a->npos > npos)
		die("unexpected argument '%s'", a->pos[npos]);
	for (size_t i = 0; i < a->nkv; i++)
		if (a->key[i])
			die("unknown argument '%s'", a->key[i]);
}

static unsigned flag_arg(struct args *a, const char *k)
{
	const char *v = arg(a, k);
	uint64_t n = v ? value_of(v) : 0;

	if (n > 1)
		die("%s must be 0 or 1", k);
	return (unsigned)n;
}

static enum pft_isa isa_arg(struct args *a)
{
	static const char *const names[] = { "arm", "thumb", "thumbee", "jazelle" };
	const char *v = arg(a, "isa");

	if (!v)
		return PFT_ISA_ARM;
	for (unsigned i = 0; i < 4; i++)
		if (!strcmp(v, names[i]))
			return (enum pft_isa)i;
	die("unknown isa '%s'", v);
}

static void cycles_arg(struct args *a, struct pft_ptm_packet *p)
{
	const char *v = arg(a, "cycles");

	if (v) {
		p->has_cycles = 1;
		p->cycles = (uint32_t)value_of(v);
	}
}

static void config_directive(char *body)
{
	struct args a;
	const char *v;

	split_args(body, &a);
	if ((v = arg(&a, "protocol"))) {
		if (strcmp(v, "ptm") && strcmp(v, "etmv3"))
			die("protocol is ptm or etmv3");
		st.etm3 = v[0] == 'e';
	}
	if ((v = arg(&a, "version"))) {
		if (strcmp(v, "1.0") && strcmp(v, "1.1"))
			die("version is 1.0 or 1.1");
		st.cfg.version_minor = (uint8_t)(v[2] - '0');
	}
	if ((v = arg(&a, "ctxid_bytes")))
		st.cfg.ctxid_bytes = (uint8_t)value_of(v);
	st.cfg.cycle_accurate = (uint8_t)flag_arg(&a, "cycle_accurate");
	st.cfg.timestamps = (uint8_t)flag_arg(&a, "timestamps");
	st.cfg.vmid = (uint8_t)flag_arg(&a, "vmid");
	st.cfg.return_stack = (uint8_t)flag_arg(&a, "return_stack");
	st.cfg.branch_broadcast = (uint8_t)flag_arg(&a, "branch_broadcast");
	no_more_args(&a, 0);
	st.have_config = 1;
}

/* regs(etmcr=, etmccer=, etmidr=): the configuration as a PTM's or an
 * ETMv3's registers give it (ETMIDR[11:8]: 3 PTM, 2 ETMv3), for what the
 * options cannot say (ETMCCER[24]: DMB and DSB are waypoints).  Registers
 * left out default as pft's --reg does them: ETMCR 0, a Cortex-A15's PTM
 * or, with config(protocol=etmv3) before, a Cortex-A7's ETMv3.5. */
static void regs_directive(char *body)
{
	struct args a;
	const char *v;
	uint32_t idr, ccer;

	split_args(body, &a);
	st.etmcr = (v = arg(&a, "etmcr")) ? (uint32_t)value_of(v) : 0;
	idr = (v = arg(&a, "etmidr")) ? (uint32_t)value_of(v) : 0;
	ccer = (v = arg(&a, "etmccer")) ? (uint32_t)value_of(v) : 0;
	no_more_args(&a, 0);
	if (idr)
		st.etm3 = pft_regs_protocol(idr, NULL) == PFT_PROTO_ETMV3;
	/* The defaults as pft's --reg takes them: the library's registers
	 * of its default configuration. */
	struct pft_trace_regs def = { .size = sizeof(def) };
	if (st.etm3)
		pft_etm3_config_to_regs(&st.cfg3, &def);
	else
		pft_ptm_config_to_regs(&st.cfg, &def);
	st.etmidr = idr ? idr : def.etmidr;
	st.etmccer = ccer ? ccer : def.etmccer;
	if (st.etm3 ? pft_etm3_config_from_regs(&st.cfg3, st.etmcr, st.etmccer, st.etmidr, 0) < 0
		    : pft_ptm_config_from_regs(&st.cfg, st.etmcr, st.etmccer, st.etmidr, 0) < 0)
		die("regs: not a%s's registers", st.etm3 ? "n ETMv3" : " PTM");
	st.have_regs = 1;
}

/* "EEN": oldest first. */
static void atoms_arg(const char *s, struct pft_ptm_packet *p)
{
	size_t n = strlen(s);

	if (n < 1 || n > 5)
		die("1 to 5 atoms");
	p->n_atoms = (uint8_t)n;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == 'E')
			p->atoms |= (uint8_t)(1u << i);
		else if (s[i] != 'N')
			die("atoms are E or N");
	}
}

static int isync_reason(const char *s)
{
	for (unsigned r = 0; r < 4; r++)
		if (!strcmp(s, pft_isync_reason_name(r)))
			return (int)r;
	die("unknown I-sync reason '%s'", s);
}

static void emit(const uint8_t *b, size_t n)
{
	if (st.ntrace + n > MAX_TRACE)
		die("trace too long");
	memcpy(st.trace + st.ntrace, b, n);
	st.ntrace += n;
}

/* raw(08 00 80 ...): bytes as they are. */
static void raw_directive(char *body)
{
	for (char *t = strtok(body, " \t,"); t; t = strtok(NULL, " \t,")) {
		char *end;
		unsigned long v = strtoul(t, &end, 16);

		if (*end || v > 0xff)
			die("raw bytes are two hex digits each, not '%s'", t);
		uint8_t b = (uint8_t)v;
		emit(&b, 1);
	}
}

static void packet_directive(struct pft_ptm_encoder *enc, const char *name, char *body)
{
	struct pft_ptm_packet p = { 0 };
	struct args a;
	const char *v;
	uint8_t out[PFT_PTM_ENC_MAX_PACKET];
	size_t npos = 0;

	split_args(body, &a);
	if (!strcmp(name, "async")) {
		p.type = PFT_PTM_PKT_ASYNC;
	} else if (!strcmp(name, "isync")) {
		p.type = PFT_PTM_PKT_ISYNC;
		npos = 1;
		v = arg(&a, "reason");
		p.reason = (uint8_t)(v ? isync_reason(v) : PFT_ISYNC_PERIODIC);
		p.ns = (uint8_t)flag_arg(&a, "ns");
		p.hyp = (uint8_t)flag_arg(&a, "hyp");
		if ((v = arg(&a, "ctxid"))) {
			p.has_ctxid = 1;
			p.ctxid = (uint32_t)value_of(v);
		}
	} else if (!strcmp(name, "atom")) {
		p.type = PFT_PTM_PKT_ATOM;
		if (a.npos < 1)
			die("atom(E|N...)");
		atoms_arg(a.pos[0], &p);
		npos = 1;
	} else if (!strcmp(name, "branch")) {
		p.type = PFT_PTM_PKT_BRANCH;
		npos = 1;
		if ((v = arg(&a, "exception")))
			p.exception = (uint16_t)value_of(v);
		p.ns = (uint8_t)flag_arg(&a, "ns");
		p.hyp = (uint8_t)flag_arg(&a, "hyp");
	} else if (!strcmp(name, "waypoint")) {
		p.type = PFT_PTM_PKT_WAYPOINT;
		npos = 1;
	} else if (!strcmp(name, "ctxid") || !strcmp(name, "vmid") ||
		   !strcmp(name, "timestamp")) {
		if (a.npos < 1)
			die("%s(VALUE)", name);
		uint64_t x = value_of(a.pos[0]);
		if (name[0] == 'c') {
			p.type = PFT_PTM_PKT_CONTEXTID;
			p.ctxid = (uint32_t)x;
		} else if (name[0] == 'v') {
			p.type = PFT_PTM_PKT_VMID;
			p.vmid = (uint8_t)x;
		} else {
			p.type = PFT_PTM_PKT_TIMESTAMP;
			p.ts = x;
			p.ts_clock_change = (uint8_t)flag_arg(&a, "clock_change");
		}
		a.pos[0] = NULL;
		a.npos = 0;
	} else if (!strcmp(name, "trigger")) {
		p.type = PFT_PTM_PKT_TRIGGER;
	} else if (!strcmp(name, "ignore")) {
		p.type = PFT_PTM_PKT_IGNORE;
	} else if (!strcmp(name, "exception_return")) {
		p.type = PFT_PTM_PKT_EXCEPTION_RETURN;
	} else {
		die("unknown directive '%s'", name);
	}
	if (npos == 1 && p.type != PFT_PTM_PKT_ATOM) {
		if (a.npos < 1)
			die("%s(ADDRESS, ...)", name);
		p.addr = (uint32_t)value_of(a.pos[0]);
		p.isa = (uint8_t)isa_arg(&a);
	}
	if (p.type == PFT_PTM_PKT_ATOM || p.type == PFT_PTM_PKT_BRANCH ||
	    p.type == PFT_PTM_PKT_ISYNC || p.type == PFT_PTM_PKT_TIMESTAMP)
		cycles_arg(&a, &p);
	no_more_args(&a, npos);
	int n = pft_ptm_enc_packet(enc, &p, out, sizeof(out));
	if (n < 0)
		die("%s: the encoder refuses it: %s", name, pft_errstr(pft_errcode(n)));
	emit(out, (size_t)n);
}

/* ETMv3 atoms "EEN" (oldest first) as a P-header: format 1 (E..E and at
 * most one N) where it can say them, else format 2 (two atoms); format=N
 * chooses (cycle-accurate formats 0, 3 and 4 included); cycles=N: its W
 * cycles. */
static void pheader_arg(struct args *a, struct pft_etm3_packet *p)
{
	const char *s = a->pos[0], *v;
	size_t n = strlen(s), e = strspn(s, "E");

	if (n > 16)
		die("at most 16 atoms");
	for (size_t i = 0; i < n; i++) {
		if (s[i] == 'E')
			p->atoms |= 1u << i;
		else if (s[i] != 'N')
			die("atoms are E or N");
	}
	p->n_atoms = (uint8_t)n;
	if ((v = arg(a, "format")))
		p->format = (uint8_t)value_of(v);
	else
		p->format = e + 1 >= n ? 1 : 2;
	if ((v = arg(a, "cycles")))
		p->cycles = (uint32_t)value_of(v);
}

static void etm3_packet_directive(struct pft_etm3_encoder *enc, const char *name, char *body)
{
	struct pft_etm3_packet p = { 0 };
	struct args a;
	const char *v;
	uint8_t out[PFT_ETM3_ENC_MAX_PACKET];
	size_t npos = 0;

	split_args(body, &a);
	if (!strcmp(name, "async")) {
		p.type = PFT_ETM3_PKT_ASYNC;
	} else if (!strcmp(name, "isync")) {
		p.type = PFT_ETM3_PKT_ISYNC;
		npos = 1;
		v = arg(&a, "reason");
		p.reason = (uint8_t)(v ? isync_reason(v) : PFT_ISYNC_PERIODIC);
		p.ns = (uint8_t)flag_arg(&a, "ns");
		p.hyp = (uint8_t)flag_arg(&a, "hyp");
		if ((v = arg(&a, "ctxid")))
			p.ctxid = (uint32_t)value_of(v);
		if ((v = arg(&a, "cycles"))) {
			p.has_cycles = 1;
			p.cycles = (uint32_t)value_of(v);
		}
	} else if (!strcmp(name, "atom")) {
		p.type = PFT_ETM3_PKT_PHEADER;
		if (a.npos < 1)
			die("atom(E|N...)");
		pheader_arg(&a, &p);
		npos = 1;
	} else if (!strcmp(name, "branch")) {
		p.type = PFT_ETM3_PKT_BRANCH;
		npos = 1;
		if ((v = arg(&a, "exception")))
			p.exception = (uint16_t)value_of(v);
		p.cancel = (uint8_t)flag_arg(&a, "cancel");
		p.ns = (uint8_t)flag_arg(&a, "ns");
		p.hyp = (uint8_t)flag_arg(&a, "hyp");
	} else if (!strcmp(name, "cycle_count") || !strcmp(name, "ctxid") ||
		   !strcmp(name, "vmid") || !strcmp(name, "timestamp")) {
		if (a.npos < 1)
			die("%s(VALUE)", name);
		uint64_t x = value_of(a.pos[0]);
		if (name[0] == 'c' && name[1] == 'y') {
			p.type = PFT_ETM3_PKT_CYCLE_COUNT;
			p.cycles = (uint32_t)x;
		} else if (name[0] == 'c') {
			p.type = PFT_ETM3_PKT_CONTEXTID;
			p.ctxid = (uint32_t)x;
		} else if (name[0] == 'v') {
			p.type = PFT_ETM3_PKT_VMID;
			p.vmid = (uint8_t)x;
		} else {
			p.type = PFT_ETM3_PKT_TIMESTAMP;
			p.ts = x;
			p.ts_clock_change = (uint8_t)flag_arg(&a, "clock_change");
		}
		a.pos[0] = NULL;
		a.npos = 0;
	} else if (!strcmp(name, "trigger")) {
		p.type = PFT_ETM3_PKT_TRIGGER;
	} else if (!strcmp(name, "ignore")) {
		p.type = PFT_ETM3_PKT_IGNORE;
	} else if (!strcmp(name, "exception_return")) {
		p.type = PFT_ETM3_PKT_EXCEPTION_RETURN;
	} else {
		die("unknown ETMv3 directive '%s'", name);
	}
	if (npos == 1 && p.type != PFT_ETM3_PKT_PHEADER) {
		if (a.npos < 1)
			die("%s(ADDRESS, ...)", name);
		p.addr = (uint32_t)value_of(a.pos[0]);
		p.isa = (uint8_t)isa_arg(&a);
	}
	no_more_args(&a, npos);
	int n = pft_etm3_enc_packet(enc, &p, out, sizeof(out));
	if (n < 0)
		die("%s: the ETMv3 encoder refuses it: %s", name, pft_errstr(pft_errcode(n)));
	emit(out, (size_t)n);
}

/* An expected line with %lN (label address, 0x hex) and %pN (packet
 * offset, decimal) expanded. */
static void expand(const char *s, FILE *out)
{
	while (*s) {
		if (s[0] == '%' && (s[1] == 'l' || s[1] == 'p') && isdigit((unsigned char)s[2])) {
			char *end;
			unsigned long n = strtoul(s + 2, &end, 10);

			if (s[1] == 'p') {
				if (n >= MAX_PACKETS || st.packet_offset[n] == UINT64_MAX)
					die("%%p%lu: no packet p%lu", n, n);
				fprintf(out, "%" PRIu64, st.packet_offset[n]);
			} else {
				char name[32];
				snprintf(name, sizeof(name), "l%lu", n);
				fprintf(out, "0x%" PRIx32, (uint32_t)value_of(name));
			}
			s = end;
		} else {
			fputc(*s++, out);
		}
	}
	fputc('\n', out);
}

static FILE *open_out(const char *dir, const char *name, const char *suffix, const char *mode)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s%s", dir, name, suffix);
	f = fopen(path, mode);
	if (!f)
		die("%s: %s", path, strerror(errno));
	return f;
}

/* Lines of the .pftt, read once into memory (test files are small). */
static char **read_lines(const char *path, size_t *n)
{
	FILE *f = fopen(path, "r");
	char buf[LINE_MAX_LEN], **lines = NULL;
	size_t cap = 0;

	*n = 0;
	if (!f)
		die("%s", strerror(errno));
	while (fgets(buf, sizeof(buf), f)) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			lines = realloc(lines, cap * sizeof(*lines));
			if (!lines)
				die("out of memory");
		}
		trim_end(buf);
		lines[(*n)++] = strdup(buf);
	}
	fclose(f);
	return lines;
}

/* The directive on a line ("@pft X"), or NULL. */
static char *directive(char *line)
{
	char *at = strstr(line, "@pft");

	if (!at || (at[4] && !isspace((unsigned char)at[4])))
		return NULL;
	return skip_space(at + 4);
}

/* config(), regs() and image(): read before the program is built. */
static int setup_directive(const char *d)
{
	return !strncmp(d, "config(", 7) || !strncmp(d, "regs(", 5) || !strncmp(d, "image(", 6);
}

/* Split "pN: name(body)" into its parts; *@index is -1 without pN. */
static void parse_call(char *d, long *index, char **name, char **body)
{
	char *colon = strchr(d, ':'), *open, *close;

	*index = -1;
	if (colon && d[0] == 'p' && isdigit((unsigned char)d[1])) {
		*index = strtol(d + 1, NULL, 10);
		if (*index >= MAX_PACKETS)
			die("packet index too large");
		d = skip_space(colon + 1);
	}
	open = strchr(d, '(');
	close = strrchr(d, ')');
	if (!open || !close || close < open)
		die("expected NAME(ARGS)");
	*open = 0;
	*close = 0;
	*name = d;
	trim_end(*name);
	*body = open + 1;
}

int main(int argc, char **argv)
{
	char *lines_path, elf[4096], obj[4096], nm_out[4096], addr[32], name[256];
	char **lines;
	size_t nlines;
	const char *base;

	if (argc != 3) {
		fprintf(stderr, "usage: pftc FILE.pftt OUTDIR\n");
		return 2;
	}
	st.path = lines_path = argv[1];
	base = strrchr(argv[1], '/');
	base = base ? base + 1 : argv[1];
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(base, "."), base);
	lines = read_lines(argv[1], &nlines);
	pft_ptm_config_init(&st.cfg);
	pft_etm3_config_init(&st.cfg3);
	st.text_addr = 0x8000;
	for (size_t i = 0; i < MAX_PACKETS; i++)
		st.packet_offset[i] = UINT64_MAX;

	/* Pass 1: configuration and link address, before anything else. */
	for (size_t i = 0; i < nlines; i++) {
		char *d = directive(lines[i]), *copy, *nm, *body;
		long idx;

		st.line = (int)i + 1;
		if (!d || !setup_directive(d))
			continue;
		copy = strdup(d);
		parse_call(copy, &idx, &nm, &body);
		if (!strcmp(nm, "config"))
			config_directive(body);
		else if (!strcmp(nm, "regs"))
			regs_directive(body);
		else
			st.text_addr = (uint32_t)value_of(skip_space(body));
		free(copy);
	}
	if (st.have_config && st.have_regs)
		die("config() and regs() exclude each other (as pft's options and --reg do)");
	st.line = 0;

	/* The program: the .pftt is GNU as source as it is. */
	snprintf(obj, sizeof(obj), "%s/%s.o", argv[2], name);
	snprintf(elf, sizeof(elf), "%s/%s.elf", argv[2], name);
	snprintf(nm_out, sizeof(nm_out), "%s/%s.nm", argv[2], name);
	snprintf(addr, sizeof(addr), "-Ttext=0x%" PRIx32, st.text_addr);
	char *as_argv[] = { "arm-linux-gnueabihf-as", "-march=armv7-a", "-o", obj, lines_path, NULL };
	char *ld_argv[] = { "arm-linux-gnueabihf-ld", "-N", "--no-warn-rwx-segments", "-e", "0", addr, "-o", elf, obj, NULL };
	run(as_argv, NULL);
	run(ld_argv, NULL);
	read_labels(elf, nm_out);

	/* Pass 2: packets and expected output. */
	int err = 0;
	struct pft_ptm_encoder *enc = NULL;
	struct pft_etm3_encoder *enc3 = NULL;
	if (st.etm3 && !st.have_regs) {
		if (st.cfg.return_stack || st.cfg.version_minor != 1)
			die("config(protocol=etmv3): ETMv3 has no return stack and no PFT version");
		/* As pft --protocol etmv3 takes the options (64-bit binary
		 * timestamps: the --ts-bits 64 of the options written). */
		if (pft_etm3_config_from_ptm(&st.cfg3, &st.cfg) < 0)
			die("config(protocol=etmv3): not an ETMv3 configuration");
	}
	if (st.etm3)
		enc3 = pft_etm3_enc_alloc(&st.cfg3, &err);
	else
		enc = pft_ptm_enc_alloc(&st.cfg, &err);
	if (!enc && !enc3)
		die("configuration: %s", pft_errstr(pft_errcode(err)));
	FILE *exp = NULL, *dump = NULL, *decode = NULL;
	for (size_t i = 0; i < nlines; i++) {
		char *d = directive(lines[i]);
		long idx;
		char *nm, *body;

		st.line = (int)i + 1;
		if (!d) {
			/* Expected lines: "@LINE" right after .exp(); "@ text"
			 * there is a comment. */
			char *c = skip_space(lines[i]);
			if (exp && c[0] == '@' && c[1] && !isspace((unsigned char)c[1]))
				expand(c + 1, exp);
			else if (!exp || c[0] != '@')
				exp = NULL;
			continue;
		}
		exp = NULL;
		if (setup_directive(d))
			continue;
		parse_call(d, &idx, &nm, &body);
		if (!strcmp(nm, ".exp")) {
			if (!strcmp(skip_space(body), "dump")) {
				if (!dump)
					dump = open_out(argv[2], name, "-dump.exp", "w");
				exp = dump;
			} else if (!strcmp(skip_space(body), "decode")) {
				if (!decode)
					decode = open_out(argv[2], name, "-decode.exp", "w");
				exp = decode;
			} else {
				die(".exp(dump) or .exp(decode)");
			}
			continue;
		}
		if (idx >= 0) {
			if (st.packet_offset[idx] != UINT64_MAX)
				die("p%ld defined twice", idx);
			st.packet_offset[idx] = st.ntrace;
		}
		if (!strcmp(nm, "raw"))
			raw_directive(body);
		else if (enc3)
			etm3_packet_directive(enc3, nm, body);
		else
			packet_directive(enc, nm, body);
	}
	st.line = 0;
	pft_ptm_enc_free(enc);
	pft_etm3_enc_free(enc3);
	if (dump)
		fclose(dump);
	if (decode)
		fclose(decode);

	FILE *bin = open_out(argv[2], name, ".bin", "wb");
	if (fwrite(st.trace, 1, st.ntrace, bin) != st.ntrace || fclose(bin))
		die("cannot write the trace");
	FILE *opts = open_out(argv[2], name, ".opts", "w");
	if (st.etm3 && !st.have_regs)
		fprintf(opts, "--protocol etmv3 --ctxid-bytes %u%s%s%s%s\n", st.cfg.ctxid_bytes,
			st.cfg.cycle_accurate ? " --cycle-accurate" : "",
			st.cfg.timestamps ? " --timestamps --ts-bits 64" : "",
			st.cfg.vmid ? " --vmid" : "",
			st.cfg.branch_broadcast ? " --branch-broadcast" : "");
	else if (st.have_regs)
		fprintf(opts, "--reg ETMCR=0x%" PRIx32 " --reg ETMCCER=0x%" PRIx32
			" --reg ETMIDR=0x%" PRIx32 "\n", st.etmcr, st.etmccer, st.etmidr);
	else
		fprintf(opts, "--pft-version 1.%u --ctxid-bytes %u%s%s%s%s%s\n",
			st.cfg.version_minor, st.cfg.ctxid_bytes,
			st.cfg.cycle_accurate ? " --cycle-accurate" : "",
			st.cfg.timestamps ? " --timestamps --ts-bits 64" : "",
			st.cfg.vmid ? " --vmid" : "",
			st.cfg.return_stack ? " --return-stack" : "",
			st.cfg.branch_broadcast ? " --branch-broadcast" : "");
	fclose(opts);
	for (size_t i = 0; i < nlines; i++)
		free(lines[i]);
	free(lines);
	return 0;
}
