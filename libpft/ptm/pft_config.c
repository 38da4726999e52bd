/* Configuration: defaults, and the PTM's registers both ways (one table,
 * core/pft_reg_map.h). */
#include "pft.h"
#include "common/pft_size.h"
#include "ptm/pft_config_int.h"
#include "core/pft_etm_regs.h"
#include "core/pft_reg_map.h"

/* Where the PTM's registers keep a configuration (ptm-registers-events.md
 * 2-4, 6).  PFTv1.0 has no VMID or Virtualization Extensions, and always
 * 48-bit timestamps whose encoding bit reads 0 (Gray); the Cortex-A9
 * captures confirm Gray coding. */
static const struct reg_map ptm_map[] = {
	REG_MAP_SHARED(struct pft_ptm_config, 0, 1, 0, 1),
	REG_MAP_ENTRY(struct pft_ptm_config, return_stack, REG_ETMCR,
		      PFT_REG_BIT(PFT_ETMCR_RETURN_STACK), MAP_FIELD, 0, 0),
	REG_MAP_ENTRY(struct pft_ptm_config, dmb_dsb_waypoints, REG_ETMCCER,
		      PFT_REG_BIT(PFT_ETMCCER_DMB_WAYPOINTS), MAP_FIELD, 0, 0),
};

/* The PTMs pft_ptm_config_to_regs() describes: the Cortex-A9's TRM ETMCCER
 * (DDI 0401A table 2.11) and ID; the Cortex-A15's values in the snapshots
 * (ptm-registers-events.md 4, 5 and 6.1). */
static const struct reg_impl ptm_impl[] = {
	{ .since = 0, .etmidr = 0x411cf301, .etmccer = 0x00c018ea, .etmccr = 0x8d294004 },
	{ .since = 1, .etmidr = 0x411cf302, .etmccer = 0x04c01ac2, .etmccr = 0x8d294004 },
};

/* pft_ptm_config_init(): PFTv1.1, 64-bit binary timestamps. */
static const struct pft_ptm_config ptm_defaults = { .version_minor = 1, .ts_64bit = 1 };

static const struct reg_config ptm_config =
	REG_CONFIG(struct pft_ptm_config, ptm_map, ptm_impl, PFT_PROTO_PTM, &ptm_defaults, 0);

_Static_assert(sizeof(struct pft_ptm_config) <= REG_CONFIG_MAX, "REG_CONFIG_MAX too small");

REG_CONFIG_EXPORTS(pft_ptm_config, struct pft_ptm_config, &ptm_config)

int pft_ptm_config_check(const struct pft_ptm_config *c)
{
	if (!c || c->size < PFT_FIRST_SIZE(struct pft_ptm_config))
		return -PFT_ERR_INVALID;
	if (!pft_ctxid_bytes_ok(c->ctxid_bytes))
		return PFT_PTM_CONFIG_CTXID_BYTES;
	if (c->vmid && c->version_minor == 0)
		return PFT_PTM_CONFIG_VMID_V10;
	if (c->return_stack && c->branch_broadcast)
		return PFT_PTM_CONFIG_RS_AND_BB;
	return PFT_PTM_CONFIG_OK;
}

int pft_ptm_config_for_core(struct pft_ptm_config *cfg, const struct pft_core *core,
			    const struct pft_ptm_config *opts)
{
	struct pft_trace_regs r = { .size = sizeof(r) };
	struct pft_ptm_config o;

	if (!cfg || cfg->size < PFT_FIRST_SIZE(struct pft_ptm_config) || !core || !opts ||
	    opts->size < PFT_FIRST_SIZE(struct pft_ptm_config))
		return -PFT_ERR_INVALID;
	if (core->protocol != PFT_PROTO_PTM || pft_core_lacks(core, opts))
		return -PFT_ERR_BAD_CONFIG;
	/* ETMCR from the options alone: the version and the timestamp format
	 * are the core's, DMB/DSB waypoints its ETMCCER's. */
	pft_ptm_config_init(&o);
	pft_copy_known(&o, opts, opts->size, sizeof(o));
	o.size = sizeof(o);
	o.version_minor = (uint8_t)pft_reg_field(core->etmidr, PFT_ETMIDR_MINOR);
	o.dmb_dsb_waypoints = 0;
	int err = pft_ptm_config_to_regs(&o, &r);
	if (err)
		return err;
	return pft_ptm_config_from_regs(cfg, r.etmcr, core->etmccer, core->etmidr, r.etmtraceidr);
}
