/* Error codes and the names of enumerated values. */
#include "pft.h"

const char *pft_errstr(enum pft_error_code code)
{
	switch (code) {
	case PFT_ERR_OK: return "success";
	case PFT_ERR_INTERNAL: return "internal error";
	case PFT_ERR_INVALID: return "invalid argument";
	case PFT_ERR_NOMEM: return "out of memory";
	case PFT_ERR_BAD_CONFIG: return "bad configuration";
	case PFT_ERR_NEED_INPUT: return "need more input";
	case PFT_ERR_EOS: return "end of stream";
	case PFT_ERR_NOSYNC: return "not synchronised";
	case PFT_ERR_BAD_OPCODE: return "reserved packet header";
	case PFT_ERR_BAD_PACKET: return "bad packet";
	case PFT_ERR_TRUNCATED: return "truncated";
	case PFT_ERR_BAD_FRAME: return "bad formatter frame";
	case PFT_ERR_NOMAP: return "no memory image at address";
	case PFT_ERR_BAD_INSN: return "bad instruction";
	case PFT_ERR_BAD_FILE: return "bad file";
	case PFT_ERR_NOT_SUPPORTED: return "not supported";
	case PFT_ERR_MAX: break;
	}
	return "unknown error";
}

enum pft_error_code pft_errcode(int status)
{
	if (status >= 0)
		return PFT_ERR_OK;
	if (-status >= PFT_ERR_MAX)
		return PFT_ERR_INTERNAL;
	return (enum pft_error_code)-status;
}

#define PFT_STR(x) #x
#define PFT_XSTR(x) PFT_STR(x)

const char *pft_version(void)
{
	return PFT_XSTR(PFT_VERSION_MAJOR) "." PFT_XSTR(PFT_VERSION_MINOR) "."
	       PFT_XSTR(PFT_VERSION_PATCH);
}

unsigned pft_library_version(void)
{
	return PFT_VERSION;
}

const char *pft_isa_name(enum pft_isa isa)
{
	switch (isa) {
	case PFT_ISA_ARM: return "arm";
	case PFT_ISA_THUMB: return "thumb";
	case PFT_ISA_THUMBEE: return "thumbee";
	case PFT_ISA_JAZELLE: return "jazelle";
	case PFT_ISA_UNKNOWN: break;
	}
	return "unknown";
}

const char *pft_pkt_type_name(enum pft_packet_type type)
{
	static const char *const names[PFT_PKT_TYPE_MAX] = {
		[PFT_PKT_NOTSYNC] = "notsync",
		[PFT_PKT_ASYNC] = "async",
		[PFT_PKT_ISYNC] = "isync",
		[PFT_PKT_ATOM] = "atom",
		[PFT_PKT_BRANCH] = "branch",
		[PFT_PKT_WAYPOINT] = "waypoint",
		[PFT_PKT_TRIGGER] = "trigger",
		[PFT_PKT_CONTEXTID] = "ctxid",
		[PFT_PKT_VMID] = "vmid",
		[PFT_PKT_TIMESTAMP] = "timestamp",
		[PFT_PKT_IGNORE] = "ignore",
		[PFT_PKT_EXCEPTION_RETURN] = "exception_return",
		[PFT_PKT_BAD] = "error",
	};
	if ((unsigned)type >= PFT_PKT_TYPE_MAX)
		return "unknown";
	return names[type];
}

const char *pft_isync_reason_name(unsigned reason)
{
	static const char *const names[4] = { "periodic", "trace_on",
					      "overflow", "debug" };
	return reason < 4 ? names[reason] : "unknown";
}

const char *pft_bad_reason_str(enum pft_bad_reason reason)
{
	switch (reason) {
	case PFT_BAD_NONE: return "no error";
	case PFT_BAD_RESERVED_HEADER: return "reserved header";
	case PFT_BAD_ATOM_NO_MARKER: return "atom header without atoms (not cycle-accurate)";
	case PFT_BAD_ASYNC: return "malformed A-sync (zeros not ended by 0x80)";
	case PFT_BAD_TRUNCATED: return "truncated packet";
	}
	return "unknown error";
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
