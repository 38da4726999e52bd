/* Configuration: defaults, and the PTM's registers both ways (one table,
 * pft_reg_map.h). */
#include <string.h>

#include "pft.h"
#include "common/pft_size.h"
#include "ptm/pft_config_int.h"
#include "core/pft_etm_regs.h"
#include "core/pft_reg_map.h"

#define PTM(field, ...) REG_MAP_ENTRY(struct pft_config, field, __VA_ARGS__)

/* The fields of a configuration and where the registers keep them
 * (ptm-registers-events.md 2-4, 6).  PFTv1.0 has no VMID or
 * Virtualization Extensions, and always 48-bit timestamps whose encoding
 * bit reads 0 (Gray); the Cortex-A9 captures confirm Gray coding. */
static const struct reg_map ptm_map[] = {
	PTM(branch_broadcast, REG_ETMCR, PFT_REG_BIT(PFT_ETMCR_BRANCH_BROADCAST), MAP_FIELD, 0, 0),
	PTM(cycle_accurate, REG_ETMCR, PFT_REG_BIT(PFT_ETMCR_CYCLE_ACCURATE), MAP_FIELD, 0, 0),
	PTM(ctxid_bytes, REG_ETMCR, PFT_ETMCR_CTXID_SIZE, MAP_CTXID, 0, 0),
	PTM(timestamps, REG_ETMCR, PFT_REG_BIT(PFT_ETMCR_TIMESTAMPS), MAP_FIELD, 0, 0),
	PTM(return_stack, REG_ETMCR, PFT_REG_BIT(PFT_ETMCR_RETURN_STACK), MAP_FIELD, 0, 0),
	PTM(vmid, REG_ETMCR, PFT_REG_BIT(PFT_ETMCR_VMID), MAP_FIELD, 1, 0),
	PTM(dmb_dsb_waypoints, REG_ETMCCER, PFT_REG_BIT(PFT_ETMCCER_DMB_WAYPOINTS), MAP_FIELD, 0, 0),
	PTM(virtualization, REG_ETMCCER, PFT_REG_BIT(PFT_ETMCCER_VIRTUALIZATION), MAP_READ_ONLY, 1, 0),
	PTM(ts_64bit, REG_ETMCCER, PFT_REG_BIT(PFT_ETMCCER_TS_64BIT), MAP_FIELD, 1, 0),
	PTM(ts_gray, REG_ETMCCER, PFT_REG_BIT(PFT_ETMCCER_TS_BINARY), MAP_NOT_BIT, 1, 1),
	PTM(version_minor, REG_ETMIDR, PFT_ETMIDR_MINOR, MAP_FIELD, 0, 0),
	PTM(trace_id, REG_ETMTRACEIDR, PFT_ETMTRACEIDR_ID, MAP_FIELD, 0, 0),
};

/* The PTMs pft_config_to_regs() describes: ETMIDR without the minor
 * version, ETMCCER without the bits the table writes, ETMCCR.  A9: its
 * TRM's ETMCCER (DDI 0401A table 2.11) and ID; A15: the snapshots' values
 * (ptm-registers-events.md 4, 5 and 6.1). */
enum {
	A9_ETMIDR = 0x411cf301,
	A9_ETMCCER = 0x00c018ea,
	A15_ETMIDR = 0x411cf302,
	A15_ETMCCER = 0x04c01ac2,
	A9_A15_ETMCCR = 0x8d294004
};

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
	const uint32_t regs[REG_MAP_COUNT] = { etmcr, etmccer, etmidr, etmtraceidr };
	struct pft_config c;

	if (!cfg || cfg->size < PFT_FIRST_SIZE(struct pft_config))
		return -PFT_ERR_INVALID;
	if (pft_regs_protocol(etmidr, NULL) != PFT_PROTO_PTM)
		return -PFT_ERR_BAD_CONFIG;
	pft_config_init(&c);
	reg_map_read(ptm_map, sizeof(ptm_map) / sizeof(ptm_map[0]), &c, regs,
		     pft_reg_field(etmidr, PFT_ETMIDR_MINOR));
	c.etmcr = etmcr;
	c.etmccer = etmccer;
	c.etmidr = etmidr;
	c.etmtraceidr = etmtraceidr;
	c.size = cfg->size;
	pft_copy_known(cfg, &c, cfg->size, sizeof(c));
	return 0;
}

int pft_config_to_regs(const struct pft_config *cfg, struct pft_trace_regs *regs)
{
	struct pft_config c;
	struct pft_trace_regs r = { .etmccr = A9_A15_ETMCCR };
	int err = pft_config_copy(&c, cfg);

	if (!regs || regs->size < PFT_FIRST_SIZE(struct pft_trace_regs))
		return -PFT_ERR_INVALID;
	if (err)
		return err;
	uint32_t v[REG_MAP_COUNT] = { 0, c.version_minor ? A15_ETMCCER : A9_ETMCCER,
				      c.version_minor ? A15_ETMIDR : A9_ETMIDR, 0 };
	reg_map_write(ptm_map, sizeof(ptm_map) / sizeof(ptm_map[0]), &c, v, c.version_minor);
	r.size = regs->size;
	r.etmcr = v[REG_ETMCR];
	r.etmccer = v[REG_ETMCCER];
	r.etmidr = v[REG_ETMIDR];
	r.etmtraceidr = v[REG_ETMTRACEIDR];
	pft_copy_known(regs, &r, regs->size, sizeof(r));
	return 0;
}

int pft_config_check(const struct pft_config *c)
{
	if (!c || c->size < PFT_FIRST_SIZE(struct pft_config))
		return -PFT_ERR_INVALID;
	if (!pft_ctxid_bytes_ok(c->ctxid_bytes))
		return PFT_CONFIG_CTXID_BYTES;
	if (c->vmid && c->version_minor == 0)
		return PFT_CONFIG_VMID_V10;
	if (c->return_stack && c->branch_broadcast)
		return PFT_CONFIG_RS_AND_BB;
	return PFT_CONFIG_OK;
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
