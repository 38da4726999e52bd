/* insn_log.h - executed-instruction logs for pft encode and pft stats:
 * qemu-user's `-singlestep -d exec,nochain` log (with `,cpu` too: the
 * condition flags of each instruction), or one hexadecimal
 * address per line (odd = Thumb), optionally followed by the instruction's
 * cycles in decimal, '#' comments allowed, and lines "ctxid V", "vmid V",
 * "ns 0|1" that give the state from the next address on (the format is
 * detected from the first line that is not empty). */
#ifndef PFT_INSN_LOG_H
#define PFT_INSN_LOG_H

#include <stdint.h>
#include <stdio.h>

enum log_format { LOG_UNKNOWN = 0, LOG_QEMU, LOG_PLAIN };

struct log_entry {
	uint32_t addr;
	uint8_t isa;       /* enum pft_isa; PFT_ISA_UNKNOWN when the log does not say */
	uint8_t has_cycles;
	uint32_t cycles;   /* plain logs: the optional second column */
	/* Plain logs: state changes from the lines before this address. */
	uint8_t has_ctxid, has_vmid, has_ns;
	uint8_t vmid, ns;
	uint32_t ctxid;
	/* qemu logs with -d cpu: the flags N, Z, C, V before it ran. */
	uint8_t has_nzcv, nzcv;
	uint64_t line;     /* line number in the log, from 1 */
};

struct insn_log {
	const char *path;
	FILE *f;
	char *buf;
	size_t cap;
	uint64_t lineno;
	enum log_format format;
	/* qemu: the last Trace line waits until the next line, which may
	 * say that its instruction did not run after all. */
	int have_held;
	struct log_entry held;
	/* Plain: state lines waiting for the next address. */
	struct log_entry state;
};

/* Open @path ("-" = standard input).  Returns 0, or -1 after printing an
 * error. */
int log_open(struct insn_log *l, const char *path);
void log_close(struct insn_log *l);

/* The next executed instruction: returns 1 and fills @e, 0 at the end of
 * the log, or -1 after printing "pft: LOG:LINE: what". */
int log_next(struct insn_log *l, struct log_entry *e);

#endif
