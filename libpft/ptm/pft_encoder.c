/* Packet encoder: struct pft_ptm_packet -> PFT bytes (pft-protocol.md).
 *
 * Every encode_* function validates the packet completely before it writes
 * a byte or changes the state, so that an error leaves both untouched. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "pft.h"
#include "core/pft_trace_enc.h"
#include "common/pft_size.h"
#include "ptm/pft_opcodes.h"
#include "core/pft_etm_regs.h"

/* Instruction alignments: an address packet needs 5 bytes when it differs
 * from the previous address packet's (Thumb and ThumbEE share one). */
enum align_class { ALIGN_ARM, ALIGN_THUMB, ALIGN_JAZELLE, ALIGN_NONE };

/* An address-bearing packet's address as a decoder keeps it for
 * decompressing the next one. */
struct enc_base {
	uint32_t addr;
	uint8_t align;          /* enum align_class */
	uint8_t valid;
};

/* Ambiguity A4: the spec takes the base from the last branch or I-sync,
 * OpenCSD also from waypoint updates.  Addresses are encoded so that both
 * readings give the same result. */
enum { BASE_SPEC, BASE_WAYPOINT, BASE_COUNT };

struct pft_ptm_encoder {
	uint8_t cycle_accurate, ctxid_bytes, v11;

	struct enc_base base[BASE_COUNT];

	/* NS, AltIS and Hyp as the decoder knows them; state_sent = 0 until
	 * an I-sync or EX0 has told it (the next branch then sends EX0). */
	uint8_t state_sent, ns, altis, hyp;

	uint32_t ctxid;         /* last context ID sent (repeated in I-syncs) */

	struct trace_ts_enc ts;
};

_Static_assert(sizeof(struct pft_ptm_encoder) <= TRACE_ENC_MAX_STATE &&
		       (int)PFT_PTM_ENC_MAX_PACKET == (int)TRACE_ENC_MAX_PACKET,
	       "see pft_trace_enc_packet()");

/* Address bits dropped by the alignment, and AB4 bits [5:3] (4.2.1). */
static const uint8_t addr_shift[3] = { 2, 1, 0 };
static const uint8_t ab4_isa_bits[3] = { 0x08, 0x10, 0x20 };

/* The alignment class of @isa, or ALIGN_NONE when @isa is not an ISA or
 * @addr is not aligned for it. */
static enum align_class addr_align(enum pft_isa isa, uint32_t addr)
{
	switch (isa) {
	case PFT_ISA_ARM:
		return addr & 3 ? ALIGN_NONE : ALIGN_ARM;
	case PFT_ISA_THUMB:
	case PFT_ISA_THUMBEE:
		return addr & 1 ? ALIGN_NONE : ALIGN_THUMB;
	case PFT_ISA_JAZELLE:
		return ALIGN_JAZELLE;
	case PFT_ISA_UNKNOWN:
		break;
	}
	return ALIGN_NONE;
}

/* The packet carries a cycle count exactly when the stream needs one. */
static int cycles_ok(const struct pft_ptm_packet *p, int needed)
{
	return trace_is_flag(p->has_cycles) && p->has_cycles == needed;
}

/* Spec table 4.8: bytes for the most significant 1 bit of @count. */
static unsigned cycle_bytes(uint32_t count)
{
	unsigned n = 1;

	while (n < 5 && count >> (4 + 7 * (n - 1)))
		n++;
	return n;
}

/* Cycle-count field (4.1).  @cc0 gives CC0 bits 7, 1 and 0. */
static size_t put_cycles(uint8_t *o, uint32_t count, uint8_t cc0)
{
	unsigned n = cycle_bytes(count);

	o[0] = (uint8_t)(cc0 | (n > 1) * PFT_CC_MORE | (count & 0xf) << 2);
	count >>= 4;
	for (unsigned i = 1; i < n; i++) {
		/* CC4 has no continuation bit: it holds Count[31:25]. */
		o[i] = (uint8_t)((i + 1 < n) << 7 | (count & 0x7f));
		count >>= 7;
	}
	return n;
}

static int ctxid_fits(const struct pft_ptm_encoder *e, uint32_t ctxid)
{
	return trace_ctxid_fits(e->ctxid_bytes, ctxid);
}

/* Address bytes needed to go from @b to @addr (table 4.5 without the
 * exception-byte rule; 5 on an alignment change or without a base). */
static unsigned addr_bytes_from(const struct enc_base *b, uint32_t addr,
				enum align_class align)
{
	if (!b->valid || b->align != align)
		return 5;
	return trace_addr_bytes(addr ^ b->addr, addr_shift[align], 1);
}

/* The byte count right under both readings of the base (A4). */
static unsigned addr_bytes(const struct pft_ptm_encoder *e, uint32_t addr,
			   enum align_class align)
{
	unsigned a = addr_bytes_from(&e->base[BASE_SPEC], addr, align);
	unsigned b = addr_bytes_from(&e->base[BASE_WAYPOINT], addr, align);

	return a > b ? a : b;
}

static void set_base(struct enc_base *b, uint32_t addr, enum align_class align)
{
	b->addr = addr;
	b->align = (uint8_t)align;
	b->valid = 1;
}

/* Address section (4.2.1) in @k bytes.  @flag6 is bit 6 of the last byte
 * when that is AB1-AB4 (E in a branch; the info flag in a waypoint AB4). */
static size_t put_addr(uint8_t *o, uint32_t addr, enum align_class align,
		       unsigned k, unsigned flag6)
{
	return pft_trace_put_addr(o, addr, addr_shift[align], k, flag6, ab4_isa_bits[align], 1);
}

static int encode_async(uint8_t *o)
{
	static const uint8_t async[PFT_ASYNC_MIN_ZEROS + 1] = {
		[PFT_ASYNC_MIN_ZEROS] = PFT_OP_ASYNC_END
	};

	memcpy(o, async, sizeof(async));
	return (int)sizeof(async);
}

static int encode_isync(struct pft_ptm_encoder *e, const struct pft_ptm_packet *p,
			uint8_t *o)
{
	enum align_class align = addr_align(p->isa, p->addr);
	int with_cycles = e->cycle_accurate && p->reason != PFT_ISYNC_PERIODIC;
	unsigned altis = p->isa == PFT_ISA_THUMBEE;
	size_t n = 6;

	if (align == ALIGN_NONE || align == ALIGN_JAZELLE || p->reason > 3 ||
	    !trace_is_flag(p->ns) || !trace_is_flag(p->hyp) || (p->hyp && !e->v11) ||
	    !cycles_ok(p, with_cycles) || !trace_is_flag(p->has_ctxid) ||
	    (p->has_ctxid && (!e->ctxid_bytes || !ctxid_fits(e, p->ctxid))))
		return -PFT_ERR_INVALID;

	o[0] = PFT_OP_ISYNC;
	/* Bit 0 of the address byte is T (A[0] is always 0). */
	o[1] = (uint8_t)((p->addr & 0xfe) | (align == ALIGN_THUMB));
	o[2] = (uint8_t)(p->addr >> 8);
	o[3] = (uint8_t)(p->addr >> 16);
	o[4] = (uint8_t)(p->addr >> 24);
	/* Info bit 0 is 1 in every observed I-sync (A10). */
	o[5] = (uint8_t)(p->reason << 5 | p->ns << 3 | altis << 2 |
			 p->hyp << 1 | 1);
	if (with_cycles)
		n += put_cycles(o + n, p->cycles, 0x80);
	if (p->has_ctxid)
		e->ctxid = p->ctxid;
	n += trace_put_le(o + n, e->ctxid, e->ctxid_bytes);

	set_base(&e->base[BASE_SPEC], p->addr, align);
	set_base(&e->base[BASE_WAYPOINT], p->addr, align);
	e->state_sent = 1;
	e->ns = p->ns;
	e->altis = (uint8_t)altis;
	e->hyp = p->hyp;
	return (int)n;
}

static int encode_atom(struct pft_ptm_encoder *e, const struct pft_ptm_packet *p,
		       uint8_t *o)
{
	unsigned n = p->n_atoms;
	uint8_t b;

	if (!cycles_ok(p, e->cycle_accurate))
		return -PFT_ERR_INVALID;
	if (e->cycle_accurate) {
		/* One atom; F (bit 1) = 1 for N. */
		if (n != 1)
			return -PFT_ERR_INVALID;
		return (int)put_cycles(o, p->cycles,
				       (uint8_t)(PFT_HDR_ATOM | !(p->atoms & 1) * PFT_CA_ATOM_N));
	}
	if (n < 1 || n > 5)
		return -PFT_ERR_INVALID;
	/* Marker at bit n + 1; atom i (oldest first) at bit n - i, 0 = E. */
	b = (uint8_t)(PFT_HDR_ATOM | 1u << (n + 1));
	for (unsigned i = 0; i < n; i++)
		if (!(p->atoms >> i & 1))
			b |= (uint8_t)(1u << (n - i));
	o[0] = b;
	return 1;
}

static int encode_branch(struct pft_ptm_encoder *e, const struct pft_ptm_packet *p,
			 uint8_t *o)
{
	enum align_class align = addr_align(p->isa, p->addr);
	unsigned altis = p->isa == PFT_ISA_THUMBEE;
	unsigned ex1, ex0, k;
	size_t n;

	if (align == ALIGN_NONE || p->exception > 0x1ff || !trace_is_flag(p->ns) ||
	    !trace_is_flag(p->hyp) || (p->hyp && !e->v11) ||
	    !cycles_ok(p, e->cycle_accurate))
		return -PFT_ERR_INVALID;

	/* EX1 is the only place a branch can carry Hyp (A8). */
	ex1 = p->exception > 15 || p->hyp != e->hyp;
	ex0 = ex1 || p->exception || !e->state_sent || p->ns != e->ns ||
	      altis != e->altis;
	k = addr_bytes(e, p->addr, align);
	/* E lives in AB1-AB4: exception bytes need at least 2 bytes. */
	if (ex0 && k == 1)
		k = 2;

	n = put_addr(o, p->addr, align, k, ex0);
	if (ex0) {
		o[n++] = (uint8_t)(ex1 << 7 | altis << 6 |
				   (p->exception & 0xf) << 1 | p->ns);
		if (ex1)
			o[n++] = (uint8_t)(p->hyp << 5 | p->exception >> 4);
		e->state_sent = 1;
		e->ns = p->ns;
		e->altis = (uint8_t)altis;
		e->hyp = p->hyp;
	}
	if (e->cycle_accurate)
		n += put_cycles(o + n, p->cycles, 0x00);

	set_base(&e->base[BASE_SPEC], p->addr, align);
	set_base(&e->base[BASE_WAYPOINT], p->addr, align);
	return (int)n;
}

static int encode_waypoint(struct pft_ptm_encoder *e, const struct pft_ptm_packet *p,
			   uint8_t *o)
{
	enum align_class align = addr_align(p->isa, p->addr);
	unsigned altis = p->isa == PFT_ISA_THUMBEE;
	unsigned info, k;
	size_t n;

	if (align == ALIGN_NONE || align == ALIGN_JAZELLE || !cycles_ok(p, 0))
		return -PFT_ERR_INVALID;

	/* A5: the AltIS byte only follows a 5-byte address, and bit 6 of a
	 * shorter last byte is never set. */
	info = align == ALIGN_THUMB && altis != e->altis;
	k = info ? 5 : addr_bytes(e, p->addr, align);

	o[0] = PFT_OP_WAYPOINT;
	n = 1 + put_addr(o + 1, p->addr, align, k, info);
	if (info) {
		o[n++] = (uint8_t)(altis << 6);
		/* Decoders may or may not apply it: the next branch must
		 * state AltIS again. */
		e->altis = (uint8_t)altis;
		e->state_sent = 0;
	}
	set_base(&e->base[BASE_WAYPOINT], p->addr, align);
	return (int)n;
}

static int encode_ctxid(struct pft_ptm_encoder *e, const struct pft_ptm_packet *p,
			uint8_t *o)
{
	if (!e->ctxid_bytes || !ctxid_fits(e, p->ctxid))
		return -PFT_ERR_INVALID;
	o[0] = PFT_OP_CONTEXTID;
	e->ctxid = p->ctxid;
	return (int)(1 + trace_put_le(o + 1, p->ctxid, e->ctxid_bytes));
}

static int encode_vmid(const struct pft_ptm_encoder *e, const struct pft_ptm_packet *p,
		       uint8_t *o)
{
	if (!e->v11)
		return -PFT_ERR_INVALID;
	o[0] = PFT_OP_VMID;
	o[1] = p->vmid;
	return 2;
}

static int encode_timestamp(struct pft_ptm_encoder *e, const struct pft_ptm_packet *p,
			    uint8_t *o)
{
	size_t n = 1;

	if (!trace_ts_fits(&e->ts, p->ts) || !trace_is_flag(p->ts_clock_change) ||
	    !cycles_ok(p, e->cycle_accurate))
		return -PFT_ERR_INVALID;
	o[0] = (uint8_t)(PFT_OP_TIMESTAMP | p->ts_clock_change * PFT_TS_CLOCK_CHANGE);
	n += pft_trace_ts_put(&e->ts, o + n, p->ts);
	if (e->cycle_accurate)
		n += put_cycles(o + n, p->cycles, 0x00);
	return (int)n;
}

static int encode_one_byte(uint8_t header, uint8_t *o)
{
	o[0] = header;
	return 1;
}

/* @o has room for PFT_PTM_ENC_MAX_PACKET bytes. */
static int encode(void *state, const void *pkt, uint8_t *o)
{
	struct pft_ptm_encoder *e = state;
	const struct pft_ptm_packet *p = pkt;

	switch (p->type) {
	case PFT_PTM_PKT_ASYNC: return encode_async(o);
	case PFT_PTM_PKT_ISYNC: return encode_isync(e, p, o);
	case PFT_PTM_PKT_ATOM: return encode_atom(e, p, o);
	case PFT_PTM_PKT_BRANCH: return encode_branch(e, p, o);
	case PFT_PTM_PKT_WAYPOINT: return encode_waypoint(e, p, o);
	case PFT_PTM_PKT_TRIGGER: return encode_one_byte(PFT_OP_TRIGGER, o);
	case PFT_PTM_PKT_CONTEXTID: return encode_ctxid(e, p, o);
	case PFT_PTM_PKT_VMID: return encode_vmid(e, p, o);
	case PFT_PTM_PKT_TIMESTAMP: return encode_timestamp(e, p, o);
	case PFT_PTM_PKT_IGNORE: return encode_one_byte(PFT_OP_IGNORE, o);
	case PFT_PTM_PKT_EXCEPTION_RETURN: return encode_one_byte(PFT_OP_EXCEPTION_RETURN, o);
	case PFT_PTM_PKT_NOTSYNC:
	case PFT_PTM_PKT_BAD:
	case PFT_PTM_PKT_TYPE_MAX:
		break;
	}
	return -PFT_ERR_INVALID;
}

static void reset_state(struct pft_ptm_encoder *e)
{
	memset(e->base, 0, sizeof(e->base));
	e->state_sent = e->ns = e->altis = e->hyp = 0;
	e->ctxid = 0;
	e->ts.raw = 0;
	e->ts.sent = 0;
}

struct pft_ptm_encoder *pft_ptm_enc_alloc(const struct pft_ptm_config *cfg, int *errcode)
{
	struct pft_ptm_encoder *e;
	int err = 0;

	if (!cfg || cfg->size < PFT_FIRST_SIZE(struct pft_ptm_config))
		err = -PFT_ERR_INVALID;
	else if (!pft_ctxid_bytes_ok(cfg->ctxid_bytes))
		err = -PFT_ERR_BAD_CONFIG;
	else if (!(e = calloc(1, sizeof(*e))))
		err = -PFT_ERR_NOMEM;
	if (err) {
		if (errcode)
			*errcode = err;
		return NULL;
	}
	e->cycle_accurate = !!cfg->cycle_accurate;
	e->ctxid_bytes = cfg->ctxid_bytes;
	e->ts.is_64bit = !!cfg->ts_64bit;
	e->ts.gray = !!cfg->ts_gray;
	e->v11 = cfg->version_minor >= 1;
	reset_state(e);
	if (errcode)
		*errcode = 0;
	return e;
}

TRACE_ENC_EXPORTS(pft_ptm_enc, struct pft_ptm_encoder, struct pft_ptm_packet)
