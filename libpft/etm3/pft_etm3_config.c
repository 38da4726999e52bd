/* ETMv3 configuration: defaults and derivation from the ETM's registers
 * (shared/spec/etmv3-protocol.md section 2). */
#include <string.h>

#include "pft.h"
#include "common/pft_size.h"
#include "etm3/pft_etm3_config.h"
#include "core/pft_etm_regs.h"

int pft_etm3_config_init_size(struct pft_etm3_config *cfg, size_t size)
{
	struct pft_etm3_config c = { .size = size, .version_minor = 5, .ts_64bit = 1 };

	if (!cfg || size < PFT_FIRST_SIZE(struct pft_etm3_config))
		return -PFT_ERR_INVALID;
	memset(cfg, 0, size);
	pft_copy_known(cfg, &c, size, sizeof(c));
	return 0;
}

int pft_etm3_config_from_regs(struct pft_etm3_config *cfg, uint32_t etmcr,
			      uint32_t etmccer, uint32_t etmidr, uint32_t etmtraceidr)
{
	struct pft_etm3_config c;

	if (!cfg || cfg->size < PFT_FIRST_SIZE(struct pft_etm3_config))
		return -PFT_ERR_INVALID;
	/* ETMIDR[11:8]: 2 = ETMv3 (3 is PFT, 0 and 1 ETMv1 and v2). */
	if (pft_reg_field(etmidr, PFT_ETMIDR_MAJOR) != 2)
		return -PFT_ERR_BAD_CONFIG;

	pft_etm3_config_init(&c);
	c.version_minor = pft_reg_field(etmidr, PFT_ETMIDR_MINOR);
	c.data_value = pft_reg_bit(etmcr, 2);
	c.data_address = pft_reg_bit(etmcr, 3);
	c.branch_broadcast = pft_reg_bit(etmcr, PFT_ETMCR_BRANCH_BROADCAST);
	c.cycle_accurate = pft_reg_bit(etmcr, PFT_ETMCR_CYCLE_ACCURATE);
	c.ctxid_bytes = pft_reg_ctxid_bytes(etmcr);
	c.data_only = pft_reg_bit(etmcr, 20);
	/* The alternative encoding exists from v3.4 (section 2.2). */
	c.alt_branch = ((etmidr >> 20) & 1) && c.version_minor >= 4;
	if (c.version_minor >= 5) {
		c.timestamps = pft_reg_bit(etmcr, PFT_ETMCR_TIMESTAMPS);
		c.vmid = pft_reg_bit(etmcr, PFT_ETMCR_VMID);
		c.virtualization = pft_reg_bit(etmccer, PFT_ETMCCER_VIRTUALIZATION);
		c.ts_64bit = pft_reg_bit(etmccer, PFT_ETMCCER_TS_64BIT);
		c.ts_gray = !pft_reg_bit(etmccer, PFT_ETMCCER_TS_BINARY);
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

int pft_etm3_config_copy(struct pft_etm3_config *dst, const struct pft_etm3_config *src)
{
	if (!dst || !src || src->size < PFT_FIRST_SIZE(struct pft_etm3_config))
		return -PFT_ERR_INVALID;
	if (!pft_ctxid_bytes_ok(src->ctxid_bytes))
		return -PFT_ERR_BAD_CONFIG;
	pft_etm3_config_init(dst);
	pft_copy_known(dst, src, src->size, sizeof(*dst));
	dst->size = sizeof(*dst);
	return 0;
}
