/* ETMv3 packet encoder: struct pft_etm3_packet -> bytes
 * (shared/spec/etmv3-protocol.md section 4; doc/etmv3.md "Encoder").
 *
 * Every encode_* function checks the packet before it writes a byte or
 * changes the state, so that an error leaves both untouched. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "pft.h"
#include "core/pft_trace_enc.h"
#include "etm3/pft_etm3_config.h"

struct pft_etm3_encoder {
	struct pft_etm3_config cfg;
	/* The previous branch or I-sync address: the compression base. */
	uint32_t base;
	uint8_t base_isa, base_valid;
	/* NS and Hyp as the decoder knows them (from I-sync or E0/E1). */
	uint8_t ns, hyp;
	struct trace_ts_enc ts;
};

_Static_assert(sizeof(struct pft_etm3_encoder) <= TRACE_ENC_MAX_STATE &&
		       (int)PFT_ETM3_ENC_MAX_PACKET == (int)TRACE_ENC_MAX_PACKET,
	       "see pft_trace_enc_packet()");

static int aligned(enum pft_isa isa, uint32_t addr)
{
	switch (isa) {
	case PFT_ISA_ARM: return !(addr & 3);
	case PFT_ISA_THUMB: return !(addr & 1);
	default: return 0;
	}
}

/* Cycle count payload (section 4.3): 7 bits a byte, bit 7 = more, the
 * 5th byte the last 4 bits; the fewest bytes. */
static size_t put_count(uint8_t *o, uint32_t v)
{
	size_t n = 0;

	while (n < 4 && v >> 7) {
		o[n++] = (uint8_t)(0x80 | (v & 0x7f));
		v >>= 7;
	}
	o[n++] = (uint8_t)v;
	return n;
}

static int ctxid_fits(const struct pft_etm3_encoder *e, uint32_t ctxid)
{
	return trace_ctxid_fits(e->cfg.ctxid_bytes, ctxid);
}

static int encode_isync(struct pft_etm3_encoder *e, const struct pft_etm3_packet *p,
			uint8_t *o)
{
	size_t n = 1;

	if (!aligned(p->isa, p->addr) || p->reason > 3 || !trace_is_flag(p->ns) ||
	    !trace_is_flag(p->hyp) || (p->hyp && !e->cfg.virtualization) || !trace_is_flag(p->has_cycles) ||
	    (p->has_cycles && !e->cfg.cycle_accurate) || p->lsip || p->jazelle ||
	    !ctxid_fits(e, p->ctxid))
		return -PFT_ERR_INVALID;
	o[0] = p->has_cycles ? 0x70 : 0x08;
	if (p->has_cycles)
		n += put_count(o + n, p->cycles);
	n += trace_put_le(o + n, p->ctxid, e->cfg.ctxid_bytes);
	/* Info bit 0 is 1 in every I-sync of the TC2 capture (section 8.15). */
	o[n++] = (uint8_t)(p->reason << 5 | p->ns << 3 | p->hyp << 1 | 1);
	n += trace_put_le(o + n, p->addr | (p->isa == PFT_ISA_THUMB), 4);
	e->base = p->addr;
	e->base_isa = p->isa;
	e->base_valid = 1;
	e->ns = p->ns;
	e->hyp = p->hyp;
	return (int)n;
}

/* Section 4.1 (format 1 E..EN, format 2 two atoms) and 4.2 (cycle-accurate
 * formats 0-4, with their W counts). */
static int encode_pheader(const struct pft_etm3_encoder *e, const struct pft_etm3_packet *p,
			  uint8_t *o)
{
	const unsigned n = p->n_atoms, atoms = p->atoms & ((1u << n) - 1);
	const int ca = e->cfg.cycle_accurate;
	/* Format 1: E atoms then at most one N, the last. */
	const unsigned ne = n && !(atoms >> (n - 1) & 1) ? n - 1 : n;
	const int run = n <= 16 && atoms == (1u << ne) - 1;

	switch (p->format) {
	case 0:
		if (!ca || n || p->cycles)
			break;
		o[0] = 0x80;
		return 1;
	case 1:
		if (!run || ne > (ca ? 7u : 15u) || (ca && (!n || p->cycles != n)) ||
		    (!ca && p->cycles))
			break;
		o[0] = (uint8_t)(0x80 | (ne < n) << 6 | ne << 2);
		return 1;
	case 2:
		if (n != 2 || p->cycles != (ca ? 1u : 0u))
			break;
		o[0] = (uint8_t)(0x82 | !(atoms & 1) << 3 | !(atoms & 2) << 2);
		return 1;
	case 3:
		if (!ca || n > 1 || (n && !atoms) || p->cycles < 1 || p->cycles > 8)
			break;
		o[0] = (uint8_t)(0xa0 | n << 6 | (p->cycles - 1) << 2);
		return 1;
	case 4:
		if (!ca || n != 1 || p->cycles)
			break;
		o[0] = (uint8_t)(0x92 | !atoms << 2);
		return 1;
	}
	return -PFT_ERR_INVALID;
}

/* Branch address (section 4.5): the original encoding (A- and R-class),
 * or the alternative one when the configuration selects it. */
static int encode_branch(struct pft_etm3_encoder *e, const struct pft_etm3_packet *p,
			 uint8_t *o)
{
	const enum pft_isa isa = (enum pft_isa)p->isa;
	const int alt = e->cfg.alt_branch;
	const unsigned shift = isa == PFT_ISA_ARM ? 2 : 1;

	if (!aligned(isa, p->addr) || p->exception > 0x1ff || !trace_is_flag(p->ns) ||
	    !trace_is_flag(p->hyp) || !trace_is_flag(p->cancel) || (p->hyp && !e->cfg.virtualization))
		return -PFT_ERR_INVALID;
	const int e1 = p->exception > 15 || p->hyp != e->hyp;
	const int exc = e1 || p->exception || p->cancel || p->ns != e->ns;
	/* Only the 5th byte names the ISA; in the original encoding only it
	 * can announce exception bytes.  Alternative: the last of bytes 2-4
	 * carries 6 bits. */
	unsigned k = 5;
	if (e->base_valid && e->base_isa == isa && (!exc || alt)) {
		k = trace_addr_bytes(p->addr ^ e->base, shift, alt);
		if (exc && k == 1)
			k = 2;
	}
	size_t n = pft_trace_put_addr(o, p->addr, shift, k, (unsigned)exc,
				  isa == PFT_ISA_ARM ? 0x08 : 0x10, alt);
	if (exc) {
		o[n++] = (uint8_t)(e1 << 7 | p->cancel << 5 | (p->exception & 0xf) << 1 | p->ns);
		if (e1)
			o[n++] = (uint8_t)(p->hyp << 5 | p->exception >> 4);
		e->ns = p->ns;
		e->hyp = p->hyp;
	}
	e->base = p->addr;
	e->base_isa = isa;
	e->base_valid = 1;
	return (int)n;
}

/* Section 4.8: the 7-bit groups covering every changed bit; the last of
 * 7 (48-bit) or 9 (64-bit) bytes carries 6 or 8 bits. */
static int encode_timestamp(struct pft_etm3_encoder *e, const struct pft_etm3_packet *p,
			    uint8_t *o)
{
	if (!trace_ts_fits(&e->ts, p->ts) || !trace_is_flag(p->ts_clock_change))
		return -PFT_ERR_INVALID;
	o[0] = (uint8_t)(0x42 | p->ts_clock_change << 2);
	return 1 + (int)pft_trace_ts_put(&e->ts, o + 1, p->ts);
}

static int one_byte(uint8_t *o, uint8_t b)
{
	o[0] = b;
	return 1;
}

static int encode(void *state, const void *pkt, uint8_t *o)
{
	struct pft_etm3_encoder *e = state;
	const struct pft_etm3_packet *p = pkt;
	static const uint8_t async[6] = { 0, 0, 0, 0, 0, 0x80 };

	switch (p->type) {
	case PFT_ETM3_PKT_ASYNC:
		memcpy(o, async, sizeof(async));
		return (int)sizeof(async);
	case PFT_ETM3_PKT_ISYNC: return encode_isync(e, p, o);
	case PFT_ETM3_PKT_PHEADER: return encode_pheader(e, p, o);
	case PFT_ETM3_PKT_BRANCH: return encode_branch(e, p, o);
	case PFT_ETM3_PKT_CYCLE_COUNT:
		if (!e->cfg.cycle_accurate)
			break;
		o[0] = 0x04;
		return 1 + (int)put_count(o + 1, p->cycles);
	case PFT_ETM3_PKT_CONTEXTID:
		if (!e->cfg.ctxid_bytes || !ctxid_fits(e, p->ctxid))
			break;
		o[0] = 0x6e;
		return 1 + (int)trace_put_le(o + 1, p->ctxid, e->cfg.ctxid_bytes);
	case PFT_ETM3_PKT_VMID:
		o[0] = 0x3c;
		o[1] = p->vmid;
		return 2;
	case PFT_ETM3_PKT_TIMESTAMP: return encode_timestamp(e, p, o);
	case PFT_ETM3_PKT_TRIGGER: return one_byte(o, 0x0c);
	case PFT_ETM3_PKT_IGNORE: return one_byte(o, 0x66);
	case PFT_ETM3_PKT_EXCEPTION_RETURN: return one_byte(o, 0x76);
	default:
		break;
	}
	return -PFT_ERR_INVALID;
}

/* Back to the state after alloc: the configuration stays. */
static void reset_state(struct pft_etm3_encoder *e)
{
	const struct pft_etm3_config c = e->cfg;

	memset(e, 0, sizeof(*e));
	e->cfg = c;
	e->ts.is_64bit = !!c.ts_64bit;
	e->ts.gray = !!c.ts_gray;
}

struct pft_etm3_encoder *pft_etm3_enc_alloc(const struct pft_etm3_config *cfg, int *errcode)
{
	struct pft_etm3_config c;
	struct pft_etm3_encoder *e = NULL;
	int err = pft_etm3_config_copy(&c, cfg);

	/* Data trace and data-only mode are not modelled. */
	if (!err && (c.data_value || c.data_address || c.data_only))
		err = -PFT_ERR_BAD_CONFIG;
	if (!err && !(e = calloc(1, sizeof(*e))))
		err = -PFT_ERR_NOMEM;
	if (errcode)
		*errcode = err;
	if (err)
		return NULL;
	e->cfg = c;
	reset_state(e);
	return e;
}

TRACE_ENC_EXPORTS(pft_etm3_enc, struct pft_etm3_encoder, struct pft_etm3_packet)
