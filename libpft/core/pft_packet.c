/* The packet layer's names: packet types, I-sync reasons, exceptions
 * (pft-protocol.md 5.2, 4.3). */
#include <stdio.h>

#include "pft.h"

const char *pft_ptm_pkt_type_name(enum pft_ptm_packet_type type)
{
	static const char *const names[PFT_PTM_PKT_TYPE_MAX] = {
		[PFT_PTM_PKT_NOTSYNC] = "notsync",
		[PFT_PTM_PKT_ASYNC] = "async",
		[PFT_PTM_PKT_ISYNC] = "isync",
		[PFT_PTM_PKT_ATOM] = "atom",
		[PFT_PTM_PKT_BRANCH] = "branch",
		[PFT_PTM_PKT_WAYPOINT] = "waypoint",
		[PFT_PTM_PKT_TRIGGER] = "trigger",
		[PFT_PTM_PKT_CONTEXTID] = "ctxid",
		[PFT_PTM_PKT_VMID] = "vmid",
		[PFT_PTM_PKT_TIMESTAMP] = "timestamp",
		[PFT_PTM_PKT_IGNORE] = "ignore",
		[PFT_PTM_PKT_EXCEPTION_RETURN] = "exception_return",
		[PFT_PTM_PKT_BAD] = "error",
	};
	if ((unsigned)type >= PFT_PTM_PKT_TYPE_MAX)
		return "unknown";
	return names[type];
}

const char *pft_isync_reason_name(unsigned reason)
{
	static const char *const names[4] = { "periodic", "trace_on",
					      "overflow", "debug" };
	return reason < 4 ? names[reason] : "unknown";
}

const char *pft_exception_name(unsigned number)
{
	static const char *const names[16] = {
		"none", "debug_halt", "smc", "hyp", "async_data_abort",
		"thumbee_check", "reserved", "reserved", "reset", "undefined",
		"svc", "prefetch_abort", "data_abort", "generic", "irq", "fiq"
	};
	return number < 16 ? names[number] : "generic";
}

/* ARMv7-M: the IPSR numbers below 16 (B1.5.2 of the ARMv7-M ARM). */
static const char *m_exception_name(unsigned number)
{
	static const char *const names[16] = {
		"none", "reset", "nmi", "hardfault", "memmanage", "busfault", "usagefault",
		"reserved", "reserved", "reserved", "reserved", "svcall", "debugmonitor",
		"reserved", "pendsv", "systick"
	};
	return names[number];
}

const char *pft_exception_name_in(unsigned profile, unsigned number, char *buf, size_t len)
{
	if (!buf || !len)
		return "";
	if (profile != PFT_PROFILE_M)
		snprintf(buf, len, "%s", pft_exception_name(number));
	else if (number < PFT_MEXC_IRQ0)
		snprintf(buf, len, "%s", m_exception_name(number));
	else if (number <= PFT_MEXC_MAX)
		snprintf(buf, len, "irq%u", number - PFT_MEXC_IRQ0);
	else
		snprintf(buf, len, "reserved");
	return buf;
}
