/* ETMv3 configuration: defaults, and the ETM's registers both ways
 * (shared/spec/etmv3-protocol.md section 2; one table, pft_reg_map.h). */
#include "pft.h"
#include "common/pft_size.h"
#include "etm3/pft_etm3_config.h"
#include "core/pft_etm_regs.h"
#include "core/pft_reg_map.h"
#include "core/pft_cores.h"

/* ETMv3's own bits (etmv3-protocol.md 2.1, 2.2). */
enum {
	ETMCR_DATA_VALUE = 2,
	ETMCR_DATA_ADDRESS = 3,
	ETMCR_DATA_ONLY = 20,
	ETMIDR_ALT_BRANCH = 20   /* from v3.4 */
};

/* Where the ETM's registers keep a configuration: the bits PFT shares
 * at PFT's places.  Timestamps, VMID, the Virtualization Extensions and the
 * timestamp format exist from v3.5 (before: pft_etm3_config_init()'s
 * defaults), the alternative branch encoding from v3.4. */
static const struct reg_map etm3_map[] = {
	REG_MAP_SHARED(struct pft_etm3_config, 5, 5, 1, 0),
	REG_MAP_ENTRY(struct pft_etm3_config, data_value, REG_ETMCR,
		      PFT_REG_BIT(ETMCR_DATA_VALUE), MAP_FIELD, 0, 0),
	REG_MAP_ENTRY(struct pft_etm3_config, data_address, REG_ETMCR,
		      PFT_REG_BIT(ETMCR_DATA_ADDRESS), MAP_FIELD, 0, 0),
	REG_MAP_ENTRY(struct pft_etm3_config, data_only, REG_ETMCR,
		      PFT_REG_BIT(ETMCR_DATA_ONLY), MAP_FIELD, 0, 0),
	REG_MAP_ENTRY(struct pft_etm3_config, alt_branch, REG_ETMIDR,
		      PFT_REG_BIT(ETMIDR_ALT_BRANCH), MAP_FIELD, 4, 0),
	/* Only the ETMs of ARMv7-M cores have the alternative encoding
	 * (etmv3-protocol.md 1): it is how their registers say M. */
	REG_MAP_ENTRY(struct pft_etm3_config, m_profile, REG_ETMIDR,
		      PFT_REG_BIT(ETMIDR_ALT_BRANCH), MAP_READ_ONLY, 4, 0),
};

/* The ETMs pft_etm3_config_to_regs() describes: TC2's Cortex-A7 ETMv3.5
 * (etmv3-protocol.md 2.5; ETMCCR: the value pft has always written for
 * it, the A9/A15 PTMs', the A7's is not known), and for an M-profile
 * configuration a Cortex-M4's (pft_core_find("cortex-m4")). */
static const struct reg_impl etm3_impl[] = {
	{ .since = 0, .etmidr = 0x410cf200, .etmccer = 0x044008f2, .etmccr = 0x8d294004 },
	{ .since = 4, .m_profile = 1, .etmidr = PFT_CORE_M_ETMIDR & ~0xf0u,
	  .etmccer = PFT_CORE_M4_ETMCCER & ~0x30000000u, .etmccr = PFT_CORE_M_ETMCCR },
};

/* pft_etm3_config_init(): ETMv3.5, 64-bit binary timestamps, original
 * branch encoding. */
static const struct pft_etm3_config etm3_defaults = { .version_minor = 5, .ts_64bit = 1 };

static const struct reg_config etm3_config =
	REG_CONFIG(struct pft_etm3_config, etm3_map, etm3_impl, PFT_PROTO_ETMV3, &etm3_defaults,
		   offsetof(struct pft_etm3_config, m_profile));

_Static_assert(sizeof(struct pft_etm3_config) <= REG_CONFIG_MAX, "REG_CONFIG_MAX too small");

REG_CONFIG_EXPORTS(pft_etm3_config, struct pft_etm3_config, &etm3_config)

int pft_etm3_config_from_ptm(struct pft_etm3_config *cfg, const struct pft_ptm_config *ptm)
{
	struct pft_trace_regs r = { .size = sizeof(r) };

	if (!cfg || cfg->size < PFT_FIRST_SIZE(struct pft_etm3_config) || !ptm ||
	    ptm->size < PFT_FIRST_SIZE(struct pft_ptm_config))
		return -PFT_ERR_INVALID;

	/* pft_etm3_config_init()'s ETMv3.5 with the options both have. */
	const struct pft_etm3_config c = {
		.size = sizeof(c), .version_minor = etm3_defaults.version_minor,
		.cycle_accurate = ptm->cycle_accurate, .ctxid_bytes = ptm->ctxid_bytes,
		.timestamps = ptm->timestamps, .ts_64bit = ptm->ts_64bit, .ts_gray = ptm->ts_gray,
		.vmid = ptm->vmid, .branch_broadcast = ptm->branch_broadcast,
		.trace_id = ptm->trace_id
	};
	int err = pft_etm3_config_to_regs(&c, &r);
	if (err)
		return err;
	return pft_etm3_config_from_regs(cfg, r.etmcr, r.etmccer, r.etmidr, r.etmtraceidr);
}

int pft_etm3_config_for_core(struct pft_etm3_config *cfg, const struct pft_core *core,
			     const struct pft_ptm_config *opts)
{
	struct pft_trace_regs r = { .size = sizeof(r) };
	struct pft_etm3_config c;

	if (!cfg || cfg->size < PFT_FIRST_SIZE(struct pft_etm3_config) || !core || !opts ||
	    opts->size < PFT_FIRST_SIZE(struct pft_ptm_config))
		return -PFT_ERR_INVALID;
	if (core->protocol != PFT_PROTO_ETMV3 || pft_core_lacks(core, opts) || opts->return_stack ||
	    opts->dmb_dsb_waypoints)
		return -PFT_ERR_BAD_CONFIG;
	/* ETMCR from the options (any ETMv3.5 writes it alike); the rest is
	 * the core's. */
	pft_etm3_config_init(&c);
	int err = pft_etm3_config_from_ptm(&c, opts);
	if (!err)
		err = pft_etm3_config_to_regs(&c, &r);
	if (err)
		return err;
	return pft_etm3_config_from_regs(cfg, r.etmcr, core->etmccer, core->etmidr, r.etmtraceidr);
}

/* ARMv7-M: the ETM's exception numbers 0-23 as IPSR numbers (-1:
 * none or reserved); from 24 on they are the same (IRQ8 on). */
static const int8_t m_ipsr_of_etm[24] = {
	-1, 17, 18, 19, 20, 21, 22, 23,    /* 1-7: IRQ1-IRQ7 */
	16, PFT_MEXC_USAGEFAULT, PFT_MEXC_NMI, PFT_MEXC_SVCALL, PFT_MEXC_DEBUGMONITOR,
	PFT_MEXC_MEMMANAGE, PFT_MEXC_PENDSV, PFT_MEXC_SYSTICK,
	-1, PFT_MEXC_RESET, -1, PFT_MEXC_HARDFAULT, -1, PFT_MEXC_BUSFAULT, -1, -1
};

int pft_etm3_m_exception_ipsr(unsigned etm)
{
	if (etm < 24)
		return m_ipsr_of_etm[etm];
	return etm <= PFT_MEXC_MAX ? (int)etm : -1;
}

int pft_etm3_m_exception_etm(unsigned ipsr)
{
	if (ipsr >= 24)
		return ipsr <= PFT_MEXC_MAX ? (int)ipsr : -1;
	for (unsigned e = 1; e < 24; e++)
		if (m_ipsr_of_etm[e] == (int)ipsr)
			return (int)e;
	return -1;
}
