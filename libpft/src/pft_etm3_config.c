/* ETMv3 configuration: defaults and derivation from the ETM's registers
 * (shared/spec/etmv3-protocol.md section 2). */
#include <string.h>

#include "pft.h"
#include "pft_size.h"
#include "pft_etm3_int.h"

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
	static const uint8_t ctxid_sizes[4] = { 0, 1, 2, 4 };
	struct pft_etm3_config c;

	if (!cfg || cfg->size < PFT_FIRST_SIZE(struct pft_etm3_config))
		return -PFT_ERR_INVALID;
	/* ETMIDR[11:8]: 2 = ETMv3 (3 is PFT, 0 and 1 ETMv1 and v2). */
	if (((etmidr >> 8) & 0xf) != 2)
		return -PFT_ERR_BAD_CONFIG;

	pft_etm3_config_init(&c);
	c.version_minor = (etmidr >> 4) & 0xf;
	c.data_value = (etmcr >> 2) & 1;
	c.data_address = (etmcr >> 3) & 1;
	c.branch_broadcast = (etmcr >> 8) & 1;
	c.cycle_accurate = (etmcr >> 12) & 1;
	c.ctxid_bytes = ctxid_sizes[(etmcr >> 14) & 3];
	c.data_only = (etmcr >> 20) & 1;
	/* The alternative encoding exists from v3.4 (section 2.2). */
	c.alt_branch = ((etmidr >> 20) & 1) && c.version_minor >= 4;
	if (c.version_minor >= 5) {
		c.timestamps = (etmcr >> 28) & 1;
		c.vmid = (etmcr >> 30) & 1;
		c.virtualization = (etmccer >> 26) & 1;
		c.ts_64bit = (etmccer >> 29) & 1;
		c.ts_gray = !((etmccer >> 28) & 1);
	}
	c.trace_id = etmtraceidr & 0x7f;
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
	if (src->ctxid_bytes != 0 && src->ctxid_bytes != 1 && src->ctxid_bytes != 2 &&
	    src->ctxid_bytes != 4)
		return -PFT_ERR_BAD_CONFIG;
	pft_etm3_config_init(dst);
	pft_copy_known(dst, src, src->size, sizeof(*dst));
	dst->size = sizeof(*dst);
	return 0;
}
