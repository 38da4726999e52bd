/* The cores pft knows (pft.h, section cores): profile, trace protocol and
 * the ID registers of their trace units. */
#include <strings.h>

#include "pft.h"
#include "core/pft_cores.h"
#include "common/pft_size.h"

enum {
	/* What every ETMv3 and PTM of an A or R core can do. */
	AR_BASE = PFT_CORE_CYCLE_ACCURATE | PFT_CORE_CTXID | PFT_CORE_BRANCH_BROADCAST,
	PTM_BASE = AR_BASE | PFT_CORE_RETURN_STACK | PFT_CORE_TIMESTAMPS
};

/* ID registers: the trace unit's TRM where one gives them, TC2's
 * snapshot for the Cortex-A7 and Cortex-A15 (etmv3-protocol.md 1 and
 * 2.5, ptm-registers-events.md); for the others the architecture version
 * their TRMs name, with the features that version has. */
static const struct pft_core cores[] = {
	/* ETM-A5 (DDI 0435): ETMv3.5, original encoding; timestamps. */
	{ "cortex-a5", "Cortex-A5", PFT_PROFILE_A, PFT_PROTO_ETMV3,
	  AR_BASE | PFT_CORE_TIMESTAMPS, 0x410cf250u, 0x304008f2u, 0x8d294004u },
	/* TC2's Cortex-A7 ETMv3.5: 64-bit binary timestamps, Virtualization
	 * Extensions. */
	{ "cortex-a7", "Cortex-A7", PFT_PROFILE_A, PFT_PROTO_ETMV3,
	  AR_BASE | PFT_CORE_TIMESTAMPS | PFT_CORE_VMID, 0x410cf250u, 0x344008f2u, 0x8d294004u },
	/* ETM-A8: ETMv3.3, no timestamps. */
	{ "cortex-a8", "Cortex-A8", PFT_PROFILE_A, PFT_PROTO_ETMV3, AR_BASE, 0x410cf230u,
	  0x000008f2u, 0x8d294004u },
	/* PTM-A9 (DDI 0401A): PFTv1.0, Gray-coded timestamps. */
	{ "cortex-a9", "Cortex-A9", PFT_PROFILE_A, PFT_PROTO_PTM, PTM_BASE, 0x411cf301u,
	  0x00c018eau, 0x8d294004u },
	/* TC2's Cortex-A15 PTM: PFTv1.1, 64-bit binary timestamps, VMID. */
	{ "cortex-a15", "Cortex-A15", PFT_PROFILE_A, PFT_PROTO_PTM, PTM_BASE | PFT_CORE_VMID,
	  0x411cf312u, 0x34c01ac2u, 0x8d294004u },
	/* ETM-R4 and ETM-R5: ETMv3.3 (the R5 r2p0's ETMIDR). */
	{ "cortex-r4", "Cortex-R4", PFT_PROFILE_R, PFT_PROTO_ETMV3, AR_BASE, 0x4104f230u,
	  0x000008f2u, 0x8d294004u },
	{ "cortex-r5", "Cortex-R5", PFT_PROFILE_R, PFT_PROTO_ETMV3, AR_BASE, 0x4104f232u,
	  0x000008f2u, 0x8d294004u },
	/* The M-profile ETMs: no cycle-accurate mode, no context ID
	 * (pft_cores.h); the ETM-M4 has timestamps. */
	{ "cortex-m3", "Cortex-M3", PFT_PROFILE_M, PFT_PROTO_ETMV3, PFT_CORE_BRANCH_BROADCAST,
	  PFT_CORE_M_ETMIDR, PFT_CORE_M3_ETMCCER, PFT_CORE_M_ETMCCR },
	{ "cortex-m4", "Cortex-M4", PFT_PROFILE_M, PFT_PROTO_ETMV3,
	  PFT_CORE_BRANCH_BROADCAST | PFT_CORE_TIMESTAMPS, PFT_CORE_M_ETMIDR, PFT_CORE_M4_ETMCCER,
	  PFT_CORE_M_ETMCCR },
};

const struct pft_core *pft_core_at(size_t i)
{
	return i < sizeof(cores) / sizeof(cores[0]) ? &cores[i] : NULL;
}

const struct pft_core *pft_core_find(const char *name)
{
	const struct pft_core *c;

	for (size_t i = 0; name && (c = pft_core_at(i)) != NULL; i++)
		if (!strcasecmp(name, c->name) || !strcasecmp(name, c->type))
			return c;
	return NULL;
}

unsigned pft_core_lacks(const struct pft_core *core, const struct pft_ptm_config *cfg)
{
	unsigned want = 0;

	if (!core || !cfg || cfg->size < PFT_FIRST_SIZE(struct pft_ptm_config))
		return 0;
	want |= cfg->cycle_accurate ? PFT_CORE_CYCLE_ACCURATE : 0;
	want |= cfg->ctxid_bytes ? PFT_CORE_CTXID : 0;
	want |= cfg->vmid ? PFT_CORE_VMID : 0;
	want |= cfg->timestamps ? PFT_CORE_TIMESTAMPS : 0;
	want |= cfg->return_stack ? PFT_CORE_RETURN_STACK : 0;
	want |= cfg->dmb_dsb_waypoints ? PFT_CORE_DMB_DSB_WAYPOINTS : 0;
	want |= cfg->branch_broadcast ? PFT_CORE_BRANCH_BROADCAST : 0;
	return want & ~(unsigned)core->options;
}
