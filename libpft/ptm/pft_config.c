/* Configuration: defaults and derivation from PTM registers. */
#include <string.h>

#include "pft.h"
#include "common/pft_size.h"
#include "ptm/pft_config_int.h"
#include "core/pft_etm_regs.h"

int pft_config_init_size(struct pft_config *cfg, size_t size)
{
	struct pft_config c = { .size = size, .version_minor = 1, .ts_64bit = 1 };

	if (!cfg || size < PFT_FIRST_SIZE(struct pft_config))
		return -PFT_ERR_INVALID;
	/* A newer caller's fields this library lacks: zero, their default. */
	memset(cfg, 0, size);
	pft_copy_known(cfg, &c, size, sizeof(c));
	return 0;
}

int pft_config_from_regs(struct pft_config *cfg, uint32_t etmcr,
			 uint32_t etmccer, uint32_t etmidr, uint32_t etmtraceidr)
{
	struct pft_config c;

	if (!cfg || cfg->size < PFT_FIRST_SIZE(struct pft_config))
		return -PFT_ERR_INVALID;
	/* ETMIDR[11:8] is the major architecture. */
	if (pft_reg_field(etmidr, PFT_ETMIDR_MAJOR) != PFT_ETMIDR_MAJOR_PFT)
		return -PFT_ERR_BAD_CONFIG;

	pft_config_init(&c);
	c.version_minor = pft_reg_field(etmidr, PFT_ETMIDR_MINOR);
	c.branch_broadcast = pft_reg_bit(etmcr, PFT_ETMCR_BRANCH_BROADCAST);
	c.cycle_accurate = pft_reg_bit(etmcr, PFT_ETMCR_CYCLE_ACCURATE);
	c.ctxid_bytes = pft_reg_ctxid_bytes(etmcr);
	c.timestamps = pft_reg_bit(etmcr, PFT_ETMCR_TIMESTAMPS);
	c.return_stack = pft_reg_bit(etmcr, PFT_ETMCR_RETURN_STACK);
	c.dmb_dsb_waypoints = pft_reg_bit(etmccer, PFT_ETMCCER_DMB_WAYPOINTS);
	if (c.version_minor >= 1) {
		c.vmid = pft_reg_bit(etmcr, PFT_ETMCR_VMID);
		c.virtualization = pft_reg_bit(etmccer, PFT_ETMCCER_VIRTUALIZATION);
		c.ts_64bit = pft_reg_bit(etmccer, PFT_ETMCCER_TS_64BIT);
		c.ts_gray = !pft_reg_bit(etmccer, PFT_ETMCCER_TS_BINARY);
	} else {
		/* PFTv1.0: always 48-bit, and the encoding bit reads 0 (Gray);
		 * the Cortex-A9 captures confirm Gray coding. */
		c.ts_64bit = 0;
		c.ts_gray = 1;
	}
	c.trace_id = pft_reg_field(etmtraceidr, PFT_ETMTRACEIDR_ID);
	c.etmcr = etmcr;
	c.etmccer = etmccer;
	c.etmidr = etmidr;
	c.etmtraceidr = etmtraceidr;

	c.size = cfg->size;
	pft_copy_known(cfg, &c, cfg->size, sizeof(c));
	return 0;
}

int pft_config_copy(struct pft_config *dst, const struct pft_config *src)
{
	if (!dst || !src || src->size < PFT_FIRST_SIZE(struct pft_config))
		return -PFT_ERR_INVALID;
	if (!pft_ctxid_bytes_ok(src->ctxid_bytes))
		return -PFT_ERR_BAD_CONFIG;
	pft_config_init(dst);
	pft_copy_known(dst, src, src->size, sizeof(*dst));
	dst->size = sizeof(*dst);
	return 0;
}
