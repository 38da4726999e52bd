/* ETMv3 configuration: defaults, and the ETM's registers both ways
 * (shared/spec/etmv3-protocol.md section 2; one table, pft_reg_map.h). */
#include <string.h>

#include "pft.h"
#include "common/pft_size.h"
#include "etm3/pft_etm3_config.h"
#include "core/pft_etm_regs.h"
#include "core/pft_reg_map.h"

/* ETMv3's own bits (etmv3-protocol.md 2.1, 2.2). */
enum {
	ETMCR_DATA_VALUE = 2,
	ETMCR_DATA_ADDRESS = 3,
	ETMCR_DATA_ONLY = 20,
	ETMIDR_ALT_BRANCH = 20   /* from v3.4 */
};

#define ETM3(field, ...) REG_MAP_ENTRY(struct pft_etm3_config, field, __VA_ARGS__)

/* The fields of a configuration and where the registers keep them; the
 * bits PFT shares are at PFT's places.  Timestamps, VMID and the
 * Virtualization Extensions exist from v3.5 (before: the defaults of
 * pft_etm3_config_init()), the alternative branch encoding from v3.4. */
static const struct reg_map etm3_map[] = {
	ETM3(data_value, REG_ETMCR, PFT_REG_BIT(ETMCR_DATA_VALUE), MAP_FIELD, 0, 0),
	ETM3(data_address, REG_ETMCR, PFT_REG_BIT(ETMCR_DATA_ADDRESS), MAP_FIELD, 0, 0),
	ETM3(branch_broadcast, REG_ETMCR, PFT_REG_BIT(PFT_ETMCR_BRANCH_BROADCAST), MAP_FIELD, 0, 0),
	ETM3(cycle_accurate, REG_ETMCR, PFT_REG_BIT(PFT_ETMCR_CYCLE_ACCURATE), MAP_FIELD, 0, 0),
	ETM3(ctxid_bytes, REG_ETMCR, PFT_ETMCR_CTXID_SIZE, MAP_CTXID, 0, 0),
	ETM3(data_only, REG_ETMCR, PFT_REG_BIT(ETMCR_DATA_ONLY), MAP_FIELD, 0, 0),
	ETM3(alt_branch, REG_ETMIDR, PFT_REG_BIT(ETMIDR_ALT_BRANCH), MAP_FIELD, 4, 0),
	ETM3(timestamps, REG_ETMCR, PFT_REG_BIT(PFT_ETMCR_TIMESTAMPS), MAP_FIELD, 5, 0),
	ETM3(vmid, REG_ETMCR, PFT_REG_BIT(PFT_ETMCR_VMID), MAP_FIELD, 5, 0),
	ETM3(virtualization, REG_ETMCCER, PFT_REG_BIT(PFT_ETMCCER_VIRTUALIZATION), MAP_READ_ONLY, 5, 0),
	ETM3(ts_64bit, REG_ETMCCER, PFT_REG_BIT(PFT_ETMCCER_TS_64BIT), MAP_FIELD, 5, 1),
	ETM3(ts_gray, REG_ETMCCER, PFT_REG_BIT(PFT_ETMCCER_TS_BINARY), MAP_NOT_BIT, 5, 0),
	ETM3(version_minor, REG_ETMIDR, PFT_ETMIDR_MINOR, MAP_FIELD, 0, 0),
	ETM3(trace_id, REG_ETMTRACEIDR, PFT_ETMTRACEIDR_ID, MAP_FIELD, 0, 0),
};

/* The ETM pft_etm3_config_to_regs() describes: TC2's Cortex-A7 ETMv3.5
 * (etmv3-protocol.md 2.5), its ETMIDR without the minor version and
 * ETMCCER without the timestamp-format bits 29:28.  ETMCCR: the value pft
 * has always written for it, the A9/A15 PTMs' (the A7's is not known). */
enum {
	A7_ETMIDR = 0x410cf200,
	A7_ETMCCER = 0x044008f2,
	A7_ETMCCR = 0x8d294004
};

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
	const uint32_t regs[REG_MAP_COUNT] = { etmcr, etmccer, etmidr, etmtraceidr };
	struct pft_etm3_config c;

	if (!cfg || cfg->size < PFT_FIRST_SIZE(struct pft_etm3_config))
		return -PFT_ERR_INVALID;
	if (pft_regs_protocol(etmidr, NULL) != PFT_PROTO_ETMV3)
		return -PFT_ERR_BAD_CONFIG;
	pft_etm3_config_init(&c);
	reg_map_read(etm3_map, sizeof(etm3_map) / sizeof(etm3_map[0]), &c, regs,
		     pft_reg_field(etmidr, PFT_ETMIDR_MINOR));
	c.etmcr = etmcr;
	c.etmccer = etmccer;
	c.etmidr = etmidr;
	c.etmtraceidr = etmtraceidr;
	c.size = cfg->size;
	pft_copy_known(cfg, &c, cfg->size, sizeof(c));
	return 0;
}

int pft_etm3_config_to_regs(const struct pft_etm3_config *cfg, struct pft_trace_regs *regs)
{
	struct pft_etm3_config c;
	struct pft_trace_regs r = { .etmccr = A7_ETMCCR };
	uint32_t v[REG_MAP_COUNT] = { 0, A7_ETMCCER, A7_ETMIDR, 0 };
	int err = pft_etm3_config_copy(&c, cfg);

	if (!regs || regs->size < PFT_FIRST_SIZE(struct pft_trace_regs))
		return -PFT_ERR_INVALID;
	if (err)
		return err;
	reg_map_write(etm3_map, sizeof(etm3_map) / sizeof(etm3_map[0]), &c, v, c.version_minor);
	r.size = regs->size;
	r.etmcr = v[REG_ETMCR];
	r.etmccer = v[REG_ETMCCER];
	r.etmidr = v[REG_ETMIDR];
	r.etmtraceidr = v[REG_ETMTRACEIDR];
	pft_copy_known(regs, &r, regs->size, sizeof(r));
	return 0;
}

int pft_etm3_config_from_ptm(struct pft_etm3_config *cfg, const struct pft_config *ptm)
{
	struct pft_etm3_config c;
	struct pft_trace_regs r = { .size = sizeof(r) };

	if (!cfg || cfg->size < PFT_FIRST_SIZE(struct pft_etm3_config) || !ptm ||
	    ptm->size < PFT_FIRST_SIZE(struct pft_config))
		return -PFT_ERR_INVALID;
	pft_etm3_config_init(&c);
	c.cycle_accurate = ptm->cycle_accurate;
	c.ctxid_bytes = ptm->ctxid_bytes;
	c.timestamps = ptm->timestamps;
	c.ts_64bit = ptm->ts_64bit;
	c.ts_gray = ptm->ts_gray;
	c.vmid = ptm->vmid;
	c.branch_broadcast = ptm->branch_broadcast;
	c.trace_id = ptm->trace_id;
	int err = pft_etm3_config_to_regs(&c, &r);
	if (err)
		return err;
	return pft_etm3_config_from_regs(cfg, r.etmcr, r.etmccer, r.etmidr, r.etmtraceidr);
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
