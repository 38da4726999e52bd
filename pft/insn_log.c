/* Executed-instruction logs (qemu-user exec traces, address lists). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "cli.h"
#include "insn_log.h"
#include "pft.h"

/* qemu 7.2 (accel/tcg/cpu-exec.c) logs every translation block it runs as
 *   Trace CPU: HOSTPTR [FLAGS2/PC/FLAGS/CFLAGS] SYMBOL
 * (with -singlestep a block is one instruction).  For Arm, FLAGS2 (the
 * cs_base field) holds the AArch32 state; bit 23 is Thumb.  A block that
 * was logged but did not start is followed by
 *   Stopped execution of TB chain before HOSTPTR [PC] SYMBOL */
static const char QEMU_TRACE[] = "Trace ";
static const char QEMU_PSR[] = "PSR=";
static const char QEMU_STOPPED[] = "Stopped execution of TB chain before ";
enum { QEMU_THUMB_BIT = 23 };

int log_open(struct insn_log *l, const char *path)
{
	memset(l, 0, sizeof(*l));
	l->path = path;
	l->f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!l->f) {
		cli_error("%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

void log_close(struct insn_log *l)
{
	if (l->f && l->f != stdin)
		fclose(l->f);
	free(l->buf);
	memset(l, 0, sizeof(*l));
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Parse hex digits (with an optional 0x) at *@s into @v (at most 32 bits);
 * *@s moves past them.  Returns 0, or -1 when there are none or too many. */
static int parse_hex32(const char **s, uint32_t *v)
{
	const char *p = *s;
	uint64_t x = 0;
	int n = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && hexval(p[2]) >= 0)
		p += 2;
	for (; hexval(*p) >= 0; p++, n++) {
		x = x << 4 | (uint64_t)hexval(*p);
		if (x > UINT32_MAX)
			return -1;
	}
	if (!n)
		return -1;
	*v = (uint32_t)x;
	*s = p;
	return 0;
}

static int line_error(const struct insn_log *l, const char *what)
{
	cli_error("%s:%llu: %s", l->path, (unsigned long long)l->lineno, what);
	return -1;
}

/* "[FLAGS2/PC/FLAGS/CFLAGS]" or an older "[CS_BASE/PC/FLAGS]". */
static int parse_qemu_trace(const struct insn_log *l, const char *s, struct log_entry *e)
{
	uint32_t field[4];
	int n = 0;

	s = strchr(s, '[');
	if (!s)
		return line_error(l, "qemu exec line without [...]");
	s++;
	for (;;) {
		if (n == 4 || parse_hex32(&s, &field[n]))
			return line_error(l, "qemu exec line: bad [...] fields");
		n++;
		if (*s == ']')
			break;
		if (*s++ != '/')
			return line_error(l, "qemu exec line: bad [...] fields");
	}
	if (n < 2)
		return line_error(l, "qemu exec line: no PC in [...]");
	memset(e, 0, sizeof(*e));
	e->addr = field[1];
	e->isa = n == 4 ? ((field[0] >> QEMU_THUMB_BIT) & 1 ? PFT_ISA_THUMB : PFT_ISA_ARM)
			: PFT_ISA_UNKNOWN;
	e->line = l->lineno;
	return 1;
}

/* "ctxid V", "vmid V" or "ns 0|1": 1 when @s is one (kept in l->state),
 * 0 when it is not, -1 on error. */
static int parse_state(struct insn_log *l, const char *s)
{
	static const char *const words[] = { "ctxid", "vmid", "ns" };
	static const uint64_t limits[] = { UINT32_MAX, 255, 1 };
	char *end;

	s += strspn(s, " \t");
	for (int i = 0; i < 3; i++) {
		size_t n = strlen(words[i]);
		if (strncmp(s, words[i], n) || !strchr(" \t", s[n]))
			continue;
		errno = 0;
		unsigned long long v = strtoull(s + n, &end, 0);
		end += strspn(end, " \t\r\n");
		if (errno || end == s + n || v > limits[i] || (*end && *end != '#')) {
			char what[64];
			snprintf(what, sizeof(what), "%s: bad value (0-%llu)", words[i],
				 (unsigned long long)limits[i]);
			return line_error(l, what);
		}
		if (i == 0) {
			l->state.has_ctxid = 1;
			l->state.ctxid = (uint32_t)v;
		} else if (i == 1) {
			l->state.has_vmid = 1;
			l->state.vmid = (uint8_t)v;
		} else {
			l->state.has_ns = 1;
			l->state.ns = (uint8_t)v;
		}
		return 1;
	}
	return 0;
}

static int parse_plain(struct insn_log *l, const char *s, struct log_entry *e)
{
	uint32_t v;
	char *end;
	int r = parse_state(l, s);

	if (r)
		return r < 0 ? -1 : 3;
	*e = l->state;
	memset(&l->state, 0, sizeof(l->state));
	s += strspn(s, " \t");
	if (parse_hex32(&s, &v) || (*s && !strchr(" \t\r\n#", *s)))
		return line_error(l, "not a hexadecimal address");
	s += strspn(s, " \t\r\n");
	if (*s >= '0' && *s <= '9') {
		errno = 0;
		unsigned long long c = strtoull(s, &end, 10);
		if (errno || c > UINT32_MAX || (*end && !strchr(" \t\r\n#", *end)))
			return line_error(l, "the cycle count is not a 32-bit decimal number");
		e->has_cycles = 1;
		e->cycles = (uint32_t)c;
		s = end + strspn(end, " \t\r\n");
	}
	if (*s && *s != '#')
		return line_error(l, "not a hexadecimal address (and cycle count)");
	/* An odd address is Thumb code (as in interworking branches). */
	e->addr = v & ~1u;
	e->isa = v & 1 ? PFT_ISA_THUMB : PFT_ISA_UNKNOWN;
	e->line = l->lineno;
	return 1;
}

static int blank(const char *s)
{
	s += strspn(s, " \t\r\n");
	return !*s || *s == '#';
}

/* The next entry as the log states it (qemu: before the held one is
 * confirmed).  Returns 1, 0 at the end, -1 on error, 2 for a qemu
 * "stopped" line naming @e->addr.  (3 is internal: a state line.) */
static int read_entry(struct insn_log *l, struct log_entry *e)
{
	for (;;) {
		ssize_t len = getline(&l->buf, &l->cap, l->f);
		if (len < 0) {
			if (ferror(l->f)) {
				cli_error("%s: read error after line %llu", l->path,
					  (unsigned long long)l->lineno);
				return -1;
			}
			return 0;
		}
		l->lineno++;
		if ((size_t)len != strlen(l->buf))
			return line_error(l, "NUL byte in the log");
		if (l->format == LOG_UNKNOWN) {
			if (blank(l->buf))
				continue;
			l->format = strncmp(l->buf, QEMU_TRACE, sizeof(QEMU_TRACE) - 1)
					    ? LOG_PLAIN : LOG_QEMU;
		}
		if (l->format == LOG_PLAIN) {
			int r = blank(l->buf) ? 3 : parse_plain(l, l->buf, e);
			if (r == 3)
				continue;
			return r;
		}
		if (!strncmp(l->buf, QEMU_TRACE, sizeof(QEMU_TRACE) - 1))
			return parse_qemu_trace(l, l->buf, e);
		if (!strncmp(l->buf, QEMU_PSR, sizeof(QEMU_PSR) - 1)) {
			/* -d cpu: the state before the held block ran; its
			 * flags N, Z, C, V are CPSR[31:28]. */
			const char *s = l->buf + sizeof(QEMU_PSR) - 1;
			uint32_t psr;
			if (parse_hex32(&s, &psr))
				return line_error(l, "qemu PSR= line without a value");
			if (l->have_held) {
				l->held.has_nzcv = 1;
				l->held.nzcv = (uint8_t)(psr >> 28);
			}
			continue;
		}
		if (l->buf[0] == 'R' && l->buf[1] >= '0' && l->buf[1] <= '9')
			continue; /* -d cpu: the general registers */
		if (!strncmp(l->buf, QEMU_STOPPED, sizeof(QEMU_STOPPED) - 1)) {
			const char *s = strchr(l->buf, '[');
			if (!s || (s++, parse_hex32(&s, &e->addr)) || *s != ']')
				return line_error(l, "qemu 'Stopped execution' line without [PC]");
			return 2;
		}
		if (blank(l->buf))
			continue;
		return line_error(l, "not a qemu -d exec line (Trace ...)");
	}
}

int log_next(struct insn_log *l, struct log_entry *e)
{
	struct log_entry next;

	for (;;) {
		int r = read_entry(l, &next);
		if (r < 0)
			return -1;
		if (r == 2) {
			/* The held block did not run: it will be logged again. */
			if (l->have_held && l->held.addr == next.addr)
				l->have_held = 0;
			continue;
		}
		if (l->format == LOG_PLAIN && r == 1) {
			*e = next;
			return 1;
		}
		if (r == 0) {
			if (!l->have_held)
				return 0;
			*e = l->held;
			l->have_held = 0;
			return 1;
		}
		int had = l->have_held;
		struct log_entry out = l->held;
		l->held = next;
		l->have_held = 1;
		if (had) {
			*e = out;
			return 1;
		}
	}
}
