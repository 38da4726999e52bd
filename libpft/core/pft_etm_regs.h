/* pft_etm_regs.h - where the PTM register fields that decide decoding are
 * (IHI 0035B chapter 3): one place for pft_config.c, which derives a
 * configuration from them, and pft_regs.c, which explains them.  ETMv3
 * has the fields PFT shares at the same places (etmv3-protocol.md 2), so
 * pft_etm3_config.c reads them here too. */
#ifndef PFT_ETM_REGS_H
#define PFT_ETM_REGS_H

#include <stdint.h>

/* Single-bit fields: their bit numbers. */
enum pft_ptm_reg_bit {
	PFT_ETMCR_BRANCH_BROADCAST = 8,
	PFT_ETMCR_CYCLE_ACCURATE = 12,
	PFT_ETMCR_TIMESTAMPS = 28,
	PFT_ETMCR_RETURN_STACK = 29,
	PFT_ETMCR_VMID = 30,          /* PFTv1.1 */
	PFT_ETMCCER_TS_IMPLEMENTED = 22,
	PFT_ETMCCER_RS_IMPLEMENTED = 23,
	PFT_ETMCCER_DMB_WAYPOINTS = 24,
	PFT_ETMCCER_VIRTUALIZATION = 26, /* PFTv1.1 */
	PFT_ETMCCER_TS_BINARY = 28,   /* PFTv1.1; 0 = Gray */
	PFT_ETMCCER_TS_64BIT = 29,    /* PFTv1.1 */
};

/* Multi-bit fields: "hi, lo", as arguments to pft_reg_field(). */
#define PFT_ETMCR_CTXID_SIZE 15, 14   /* 0, 1, 2, 4 bytes */
#define PFT_ETMIDR_MINOR 7, 4
#define PFT_ETMIDR_MAJOR 11, 8
#define PFT_ETMTRACEIDR_ID 6, 0
/* A single bit as a field. */
#define PFT_REG_BIT(n) (n), (n)

enum { PFT_ETMIDR_MAJOR_PFT = 3, PFT_ETMIDR_MAJOR_ETMV3 = 2 };

/* Bits @hi..@lo of @v. */
static inline uint32_t pft_reg_field(uint32_t v, unsigned hi, unsigned lo)
{
	uint32_t width = hi - lo + 1;

	return width >= 32 ? v : (v >> lo) & ((1u << width) - 1);
}

static inline unsigned pft_reg_bit(uint32_t v, unsigned n)
{
	return (v >> n) & 1;
}

/* @v as bits @hi..@lo of a register (what does not fit is dropped). */
static inline uint32_t pft_reg_put(uint32_t v, unsigned hi, unsigned lo)
{
	uint32_t width = hi - lo + 1;

	return width >= 32 ? v : (v & ((1u << width) - 1)) << lo;
}

/* ETMCR[15:14] as context ID bytes. */
static inline uint8_t pft_reg_ctxid_bytes(uint32_t etmcr)
{
	static const uint8_t sizes[4] = { 0, 1, 2, 4 };

	return sizes[pft_reg_field(etmcr, PFT_ETMCR_CTXID_SIZE)];
}

/* A context ID size those two bits can give. */
static inline int pft_ctxid_bytes_ok(unsigned n)
{
	return n == 0 || n == 1 || n == 2 || n == 4;
}

#endif
