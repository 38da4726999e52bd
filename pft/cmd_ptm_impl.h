/* Options that describe the PTM a command is about: --implementation,
 * --etmccr, --etmccer, --etmidr (shared by 'pft event' and 'pft regs'). */
#ifndef PFT_CMD_PTM_IMPL_H
#define PFT_CMD_PTM_IMPL_H

#include <stdint.h>

#include "pft.h"

struct ptm_impl {
	int given;                      /* any of the options was given */
	uint32_t etmccr, etmccer, etmidr;
	int have_etmccr, have_etmccer, have_etmidr;
};

/* The options' lines for a usage message. */
extern const char ptm_impl_usage[];

void ptm_impl_init(struct ptm_impl *impl);

/* If argv[0] is one of the options, take it (and its value): returns the
 * number of arguments used, 0 when argv[0] is not ours, -1 after printing
 * an error. */
int ptm_impl_option(struct ptm_impl *impl, int argc, char **argv);

/* The resources the described PTM implements (registers not given count
 * as the architectural maximum).  Returns 0, or -1 after printing an
 * error (not a PTM, impossible counts). */
int ptm_impl_limits(const struct ptm_impl *impl, struct pft_event_limits *limits);

/* Mark the given ID registers as known in @ctx (others are left alone). */
void ptm_impl_context(const struct ptm_impl *impl, struct pft_regs_context *ctx);

#endif
