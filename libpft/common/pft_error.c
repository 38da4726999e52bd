/* Error codes, the version, and the name of the ISA (a common type). */
#include "pft.h"
#include "common/pft_linefmt.h"

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
	case PFT_ERR_NOSPACE: return "output buffer too small";
	case PFT_ERR_NO_SOURCE: return "no trace source to decode";
	case PFT_ERR_NOT_FOUND: return "not found";
	case PFT_ERR_BAD_IMAGE: return "the program image does not match the trace";
	case PFT_ERR_MAX: break;

	case PFT_ERR_PKT_RESERVED_HEADER: return "reserved header";
	case PFT_ERR_PKT_ATOM_NO_MARKER: return "atom header without atoms (not cycle-accurate)";
	case PFT_ERR_PKT_ASYNC: return "malformed A-sync (zeros not ended by 0x80)";
	case PFT_ERR_PKT_TRUNCATED: return "truncated packet";
	case PFT_ERR_PKT_DATA_DISABLED: return "data trace header, but data trace is off (ETMCR[3:2])";
	case PFT_ERR_PKT_BAD_ISA: return "branch address names no instruction set";

	case PFT_ERR_FLOW_BAD_PACKET: return "bad packet: waiting for the next synchronisation";
	case PFT_ERR_FLOW_NO_WAYPOINT: return "no waypoint where the trace expects one (image does not match the trace?)";
	case PFT_ERR_FLOW_RETSTACK_EMPTY: return "E atom on an indirect branch but the return stack is empty";
	case PFT_ERR_FLOW_INDIRECT_ATOM: return "E atom on an indirect branch without a return stack";
	case PFT_ERR_FLOW_WP_UPDATE_PAST: return "waypoint update beyond the next waypoint";
	case PFT_ERR_FLOW_BAD_INSN: return "cannot follow this instruction set";
	case PFT_ERR_FLOW_BAD_EXCEPTION: return "an exception number the M profile reserves";

	case PFT_ERR_MODEL_NOT_IN_IMAGE: return "address not in the image";
	case PFT_ERR_MODEL_NOT_BRANCH: return "the PC changed after an instruction that cannot branch";
	case PFT_ERR_MODEL_DIRECT_ELSEWHERE: return "a direct branch went neither to its target nor to the next instruction";
	case PFT_ERR_MODEL_ISA_CHANGE: return "the instruction set changed where it cannot";
	case PFT_ERR_MODEL_MISALIGNED: return "address not aligned for its instruction set";
	case PFT_ERR_MODEL_BAD_ISA: return "instruction set not supported by the model";
	case PFT_ERR_MODEL_EXC_RET_UNKNOWN:
		return "an exception right after a branch whose outcome nothing tells";
	case PFT_ERR_MODEL_BAD_EXCEPTION: return "not an exception the model traces (2-511; M profile: an IPSR number)";
	case PFT_ERR_MODEL_EXC_RETURN: return "an exception return the model cannot trace (after no indirect branch, or on an A/R-profile core)";

	case PFT_ERR_EVENT_EMPTY: return "empty expression";
	case PFT_ERR_EVENT_BAD_CHAR: return "unexpected character";
	case PFT_ERR_EVENT_EXPECTED_OPERAND: return "expected a resource, '!' or '('";
	case PFT_ERR_EVENT_EXPECTED_OPERATOR: return "expected '&', '|', ')' or the end";
	case PFT_ERR_EVENT_UNCLOSED_PAREN: return "'(' is never closed";
	case PFT_ERR_EVENT_UNOPENED_PAREN: return "')' without '('";
	case PFT_ERR_EVENT_UNKNOWN_RESOURCE: return "unknown resource";
	case PFT_ERR_EVENT_BAD_INDEX: return "resource number missing or out of range";
	case PFT_ERR_EVENT_TOO_MANY_RESOURCES: return "a third resource: an event combines at most two";
	case PFT_ERR_EVENT_TOO_DEEP: return "parentheses nested too deeply";
	case PFT_ERR_EVENT_UNIMPLEMENTED: return "resource not implemented by this PTM";
	case PFT_ERR_EVENT_RESERVED: return "reserved resource";
	case PFT_ERR_EVENT_HIGH_BITS: return "bits above 16 set (not part of an event)";
	case PFT_ERR_EVENT_B_IGNORED: return "resource B is not 0 but the function ignores it";
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

const struct lf_name *pft_isa_lf_name(unsigned isa)
{
	static const struct lf_name names[PFT_ISA_UNKNOWN + 1] = {
		[PFT_ISA_ARM] = LF_NAME("arm"),
		[PFT_ISA_THUMB] = LF_NAME("thumb"),
		[PFT_ISA_THUMBEE] = LF_NAME("thumbee"),
		[PFT_ISA_JAZELLE] = LF_NAME("jazelle"),
		[PFT_ISA_UNKNOWN] = LF_NAME("unknown"),
	};
	return &names[isa < PFT_ISA_UNKNOWN ? isa : PFT_ISA_UNKNOWN];
}

const char *pft_isa_name(enum pft_isa isa)
{
	return pft_isa_lf_name(isa)->s;
}
