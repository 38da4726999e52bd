/*
 * PFT packet decoder: bytes of one trace source -> packets.
 *
 * Packets are decoded in place in the caller's buffer.  The stream (feeds,
 * the carry of a packet split across two feeds, the search for an A-sync)
 * is core/pft_pkt_stream.h's, shared with ETMv3; here are the packet
 * formats and the hot paths (atoms, packets whole in the buffer, batches,
 * counting).  The header byte is dispatched through a per-decoder
 * 256-entry table because two entries (0x80, 0x82) depend on the
 * configuration.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "pft.h"
#include "core/pft_pkt_stream.h"
#include "core/pft_trace_common.h"
#include "ptm/pft_config_int.h"
#include "ptm/pft_opcodes.h"
#include "ptm/pft_pkt_decoder.h"
#include "core/pft_sync_state.h"

enum {
	/* Longest A-sync packet: 15 zeros and 0x80.  The zeros of a longer
	 * A-sync come back first, in pieces (see parse_zeros). */
	PKT_MAX = PKT_ASYNC_MAX_ZEROS + 1,
	/* Zeros in sight before a piece of PKT_MAX zeros is split off, so
	 * that PKT_ASYNC_MAX_ZEROS are left for the A-sync packet. */
	ASYNC_LOOK = PKT_MAX + PKT_ASYNC_MAX_ZEROS,
};

_Static_assert((int)ASYNC_LOOK < (int)PKT_CARRY_MAX,
	       "the carry holds an A-sync look-ahead and its next byte");
_Static_assert(PFT_ISA_ARM == 0, "a reset decoder's base_isa is ARM");

enum header_kind {
	HK_RESERVED = 0,
	HK_BRANCH,
	HK_ATOM,
	HK_ATOM_NO_MARKER, /* 0x80/0x82 without cycle-accurate mode */
	HK_ATOM_CA,
	HK_ZERO,
	HK_ISYNC,
	HK_TRIGGER,
	HK_VMID,
	HK_TIMESTAMP,
	HK_IGNORE,
	HK_CONTEXTID,
	HK_WAYPOINT,
	HK_EXCEPTION_RETURN
};

struct pft_ptm_pkt_decoder {
	struct pft_ptm_config cfg;
	uint8_t kind[256];        /* enum header_kind by header byte */
	uint8_t atom_count[256];  /* non-CA atom headers: number of atoms */
	uint8_t atom_bits[256];   /* non-CA atom headers: E bits, oldest = bit 0 */

	/* The bytes, the carry of a packet cut by a feed, sync; it and all
	 * after it are reset to zero (base_isa: PFT_ISA_ARM). */
	struct pkt_stream s;
	/* The last bytes of the previous buffer, to see an A-sync whose first
	 * zeros lie there. */
	uint8_t hist[5];
	uint8_t hist_len;
	unsigned carry_prior;     /* zero bytes just before the carried packet */

	/* Packet-layer state (pft-flow.md section 2). */
	uint32_t base_addr;       /* address of the last address-bearing packet */
	enum pft_isa base_isa;
	/* Before the first I-sync or full branch address: how many low bits of
	 * base_addr the trace gave, and whether base_isa is known. */
	uint8_t known_bits;
	uint8_t isa_known;
	uint8_t altis;            /* sticky Thumb/ThumbEE selection */
	uint64_t ts_raw;          /* timestamp register, in its encoded domain */

};

static void build_tables(struct pft_ptm_pkt_decoder *d)
{
	for (unsigned h = 0; h < 256; h++) {
		uint8_t k = HK_RESERVED;

		if (h & PFT_HDR_BRANCH)
			k = HK_BRANCH;
		else if (h & PFT_HDR_ATOM) {
			if (d->cfg.cycle_accurate)
				k = HK_ATOM_CA;
			else if ((h & ~PFT_CA_ATOM_N) == PFT_HDR_ATOM)
				k = HK_ATOM_NO_MARKER;
			else
				k = HK_ATOM;
		} else {
			switch (h) {
			case PFT_OP_ASYNC_ZERO: k = HK_ZERO; break;
			case PFT_OP_ISYNC: k = HK_ISYNC; break;
			case PFT_OP_TRIGGER: k = HK_TRIGGER; break;
			case PFT_OP_VMID: k = HK_VMID; break;
			case PFT_OP_TIMESTAMP:
			case PFT_OP_TIMESTAMP | PFT_TS_CLOCK_CHANGE: k = HK_TIMESTAMP; break;
			case PFT_OP_IGNORE: k = HK_IGNORE; break;
			case PFT_OP_CONTEXTID: k = HK_CONTEXTID; break;
			case PFT_OP_WAYPOINT: k = HK_WAYPOINT; break;
			case PFT_OP_EXCEPTION_RETURN: k = HK_EXCEPTION_RETURN; break;
			default: break;
			}
		}
		d->kind[h] = k;

		/* Non-CA atoms: the highest set bit of [6:2] is a marker; the
		 * atoms are below it down to bit 1, oldest highest; 0 = E. */
		if (k == HK_ATOM) {
			int marker = 6;

			while (marker > 2 && !(h & (1u << marker)))
				marker--;
			uint8_t n = (uint8_t)(marker - 1), bits = 0;
			for (unsigned i = 0; i < n; i++)
				if (!(h & (1u << (n - i))))
					bits |= (uint8_t)(1u << i);
			d->atom_count[h] = n;
			d->atom_bits[h] = bits;
		}
	}
}

struct pft_ptm_pkt_decoder *pft_ptm_pkt_alloc(const struct pft_ptm_config *cfg, int *errcode)
{
	struct pft_ptm_config c;
	struct pft_ptm_pkt_decoder *d =
		pft_stream_decoder_alloc(sizeof(*d), pft_ptm_config_copy(&c, cfg), errcode);

	if (!d)
		return NULL;
	d->cfg = c;
	build_tables(d);
	return d;
}

/* A cut packet's trailing zeros, however many, may begin an A-sync. */
PKT_DECODER_API(pft_ptm_pkt, struct pft_ptm_pkt_decoder, s, SIZE_MAX)

int pft_ptm_pkt_synced(const struct pft_ptm_pkt_decoder *d)
{
	return d->s.synced;
}

uint64_t pft_ptm_pkt_feed_pos(const struct pft_ptm_pkt_decoder *d)
{
	return d->s.buf_offset + d->s.pos;
}

int pft_ptm_pkt_cut_feed(struct pft_ptm_pkt_decoder *d, uint64_t end)
{
	struct pkt_stream *s = &d->s;

	if (end < s->buf_offset + s->pos || end > s->buf_offset + s->len)
		return -PFT_ERR_INVALID;
	size_t dropped = s->len - (size_t)(end - s->buf_offset);
	s->len -= dropped;
	return (int)dropped;
}

/* ---- Field decoders.  Each returns the bytes used, or 0 if @avail is
 * too short.  None changes the decoder state. ---- */

/* Cycle count (pft-protocol.md 4.1): CC0 holds Count[3:0] in bits [5:2] and
 * the continuation in bit 6; up to four more bytes of 7 bits follow. */
static size_t parse_cycles(const uint8_t *p, size_t avail, uint32_t *count)
{
	if (!avail)
		return 0;
	uint32_t c = (p[0] >> 2) & 0xf;
	if (!(p[0] & PFT_CC_MORE)) {
		*count = c;
		return 1;
	}
	for (size_t j = 1; j <= 4; j++) {
		if (j >= avail)
			return 0;
		c |= (uint32_t)(p[j] & 0x7f) << (4 + 7 * (j - 1));
		if (j == 4 || !(p[j] & PFT_CONTINUE)) {
			*count = c;
			return j + 1;
		}
	}
	return 0; /* not reached */
}

/* The cycle count at p[@n] that a packet carries in cycle-accurate mode:
 * the packet's new length, or 0 if @avail is too short. */
static size_t add_cycles(const uint8_t *p, size_t n, size_t avail, struct pft_ptm_packet *pkt)
{
	size_t c = parse_cycles(p + n, avail - n, &pkt->cycles);

	if (!c)
		return 0;
	pkt->has_cycles = 1;
	return n + c;
}

static enum pft_isa thumb_or_thumbee(uint8_t altis)
{
	return altis ? PFT_ISA_THUMBEE : PFT_ISA_THUMB;
}

/*
 * Address section of branch and waypoint packets (pft-protocol.md 4.2),
 * starting at p[0] (which has bit 0 set).  Fills addr, isa, addr_bytes;
 * *@e_flag gets the E bit of the last byte (only meaningful for bytes
 * AB1-AB4).  The instruction set of a compressed address is that of the
 * previous address-bearing packet.
 */
static size_t parse_address(const struct pft_ptm_pkt_decoder *d, const uint8_t *p,
			    size_t avail, struct pft_ptm_packet *pkt, int *e_flag)
{
	size_t k = 1;

	while (k < 5 && (p[k - 1] & PFT_CONTINUE)) {
		if (k >= avail)
			return 0;
		k++;
	}

	enum pft_isa isa = d->base_isa;
	if (k == 5) {
		uint8_t ab4 = p[4];
		if (ab4 & 0x20)
			isa = PFT_ISA_JAZELLE;
		else if (ab4 & 0x10)
			isa = thumb_or_thumbee(d->altis);
		else
			isa = PFT_ISA_ARM;
	}
	unsigned shift = isa == PFT_ISA_ARM ? 2 : isa == PFT_ISA_JAZELLE ? 0 : 1;
	uint32_t v = (uint32_t)((p[0] >> 1) & 0x3f) << shift;
	unsigned nbits = 6 + shift;
	*e_flag = 0;
	for (size_t i = 1; i < k; i++) {
		uint8_t b = p[i];
		if (i == 4) {
			/* AB4: ARM A[31:29], Thumb A[31:28], Jazelle A[31:27]. */
			v |= (uint32_t)(b & ((1u << (32 - nbits)) - 1)) << nbits;
			nbits = 32;
			*e_flag = (b >> 6) & 1;
		} else if (i == k - 1) {
			v |= (uint32_t)(b & 0x3f) << nbits;
			nbits += 6;
			*e_flag = (b >> 6) & 1;
		} else {
			v |= (uint32_t)(b & 0x7f) << nbits;
			nbits += 7;
		}
	}
	if (nbits >= 32) {
		pkt->addr = v;
		pkt->addr_bits = 32;
	} else {
		uint32_t mask = (1u << nbits) - 1;
		pkt->addr = (d->base_addr & ~mask) | (v & mask);
		pkt->addr_bits = (uint8_t)(nbits > d->known_bits ? nbits : d->known_bits);
	}
	/* Before any I-sync the instruction set of a compressed address is not
	 * known (ARM is assumed for the bits' positions). */
	pkt->isa = k == 5 || d->isa_known ? isa : PFT_ISA_UNKNOWN;
	pkt->addr_bytes = (uint8_t)k;
	return k;
}

/* Inlined where counting passes over branches (pft_ptm_pkt_skip_counted()),
 * called elsewhere (parse_branch()). */
static inline __attribute__((always_inline)) size_t
parse_branch_inline(const struct pft_ptm_pkt_decoder *d, const uint8_t *p, size_t avail,
		    struct pft_ptm_packet *pkt)
{
	int e_flag;
	size_t n = parse_address(d, p, avail, pkt, &e_flag);

	if (!n)
		return 0;
	if (n >= 2 && e_flag) {
		if (n >= avail)
			return 0;
		uint8_t ex0 = p[n++];
		pkt->exc_bytes = 1;
		pkt->ns = ex0 & 1;
		pkt->exception = (ex0 >> 1) & 0xf;
		pkt->altis = (ex0 >> 6) & 1;
		if (ex0 & PFT_CONTINUE) {
			if (n >= avail)
				return 0;
			uint8_t ex1 = p[n++];
			pkt->exc_bytes = 2;
			pkt->exception |= (uint16_t)((ex1 & 0x1f) << 4);
			pkt->hyp = (ex1 >> 5) & 1;
		}
		if (pkt->isa == PFT_ISA_THUMB || pkt->isa == PFT_ISA_THUMBEE)
			pkt->isa = thumb_or_thumbee(pkt->altis);
	}
	return d->cfg.cycle_accurate ? add_cycles(p, n, avail, pkt) : n;
}

static size_t parse_branch(const struct pft_ptm_pkt_decoder *d, const uint8_t *p, size_t avail,
			   struct pft_ptm_packet *pkt)
{
	return parse_branch_inline(d, p, avail, pkt);
}

static size_t parse_waypoint(const struct pft_ptm_pkt_decoder *d, const uint8_t *p,
			     size_t avail, struct pft_ptm_packet *pkt)
{
	int e_flag;

	if (avail < 2)
		return 0;
	size_t n = parse_address(d, p + 1, avail - 1, pkt, &e_flag);
	if (!n)
		return 0;
	n += 1;
	/* Ambiguity A5: the information byte follows only a 5-byte address
	 * whose last byte has bit 6 set. */
	if (pkt->addr_bytes == 5 && e_flag) {
		if (n >= avail)
			return 0;
		pkt->exc_bytes = 1;
		pkt->altis = (p[n++] >> 6) & 1;
		if (pkt->isa == PFT_ISA_THUMB || pkt->isa == PFT_ISA_THUMBEE)
			pkt->isa = thumb_or_thumbee(pkt->altis);
	}
	return n;
}

static size_t parse_isync(const struct pft_ptm_pkt_decoder *d, const uint8_t *p,
			  size_t avail, struct pft_ptm_packet *pkt)
{
	size_t n = 6;

	if (avail < n)
		return 0;
	uint32_t a = pkt_le32(p + 1, 4);
	uint8_t info = p[5];
	pkt->reason = (info >> 5) & 3;
	pkt->ns = (info >> 3) & 1;
	pkt->altis = (a & 1) ? (info >> 2) & 1 : 0;
	pkt->hyp = (info >> 1) & 1;
	pkt->addr = a & ~1u;
	pkt->addr_bits = 32;
	pkt->isa = (a & 1) ? thumb_or_thumbee(pkt->altis) : PFT_ISA_ARM;
	if (d->cfg.cycle_accurate && pkt->reason != PFT_ISYNC_PERIODIC) {
		n = add_cycles(p, n, avail, pkt);
		if (!n)
			return 0;
	}
	if (d->cfg.ctxid_bytes) {
		if (avail - n < d->cfg.ctxid_bytes)
			return 0;
		pkt->ctxid = pkt_le32(p + n, d->cfg.ctxid_bytes);
		pkt->has_ctxid = 1;
		n += d->cfg.ctxid_bytes;
	}
	return n;
}

static size_t parse_timestamp(const struct pft_ptm_pkt_decoder *d, const uint8_t *p,
			      size_t avail, struct pft_ptm_packet *pkt)
{
	size_t n = pft_trace_ts_parse(p, avail, d->cfg.ts_64bit, d->cfg.ts_gray, d->ts_raw,
				      &pkt->ts_raw, &pkt->ts, &pkt->ts_bits,
				      &pkt->ts_clock_change);

	return n && d->cfg.cycle_accurate ? add_cycles(p, n, avail, pkt) : n;
}

/*
 * A zero header while synchronised: an A-sync, >= 5 zeros and 0x80
 * (pft-protocol.md 5.1: decoders accept more than five).  One packet holds
 * at most 15 zeros and the 0x80; the zeros before those come back first,
 * as A-sync packets of zeros only, at most PKT_MAX each, so that a run of
 * any length needs no more than the carry.  A piece of PKT_MAX is split
 * off once ASYNC_LOOK zeros are in sight; a shorter run is settled by the
 * byte after it.  Zeros ended by anything but 0x80 are malformed (the
 * pieces already given are not taken back).
 */
static int parse_zeros(const uint8_t *p, size_t avail, struct pft_ptm_packet *pkt)
{
	size_t z = 0;

	while (z < avail && z < ASYNC_LOOK && p[z] == 0)
		z++;
	if (z == ASYNC_LOOK) {
		pkt->type = PFT_PTM_PKT_ASYNC;
		return PKT_MAX;
	}
	if (z == avail)
		return 0;
	if (p[z] == PFT_OP_ASYNC_END && z >= PFT_ASYNC_MIN_ZEROS) {
		pkt->type = PFT_PTM_PKT_ASYNC;
		return z > PKT_ASYNC_MAX_ZEROS ? (int)(z - PKT_ASYNC_MAX_ZEROS) : (int)z + 1;
	}
	pkt->type = PFT_PTM_PKT_BAD;
	pkt->bad = PFT_ERR_PKT_ASYNC;
	size_t bad = z + (p[z] == PFT_OP_ASYNC_END);
	return -(int)(bad > PKT_MAX ? PKT_MAX : bad);
}

/*
 * The atom packet at p[0] (a HK_ATOM or HK_ATOM_CA header), written whole
 * into *@pkt (it is one cache line) with @offset.  Returns its size, or 0
 * if @avail is too short.  Non-CA atoms come from the tables; a CA atom
 * is one atom (bit 1: 0 = E) and a cycle count, usually of one or two
 * bytes, decoded inline.
 */
static inline size_t decode_atom(const struct pft_ptm_pkt_decoder *d, const uint8_t *p,
				 size_t avail, uint64_t offset, struct pft_ptm_packet *pkt)
{
	const uint8_t h = p[0];
	uint32_t cycles = (h >> 2) & 0xf;
	size_t size = 1;

	if (d->kind[h] == HK_ATOM) {
		*pkt = (struct pft_ptm_packet){ .offset = offset, .raw = p, .size = 1,
					    .type = PFT_PTM_PKT_ATOM,
					    .n_atoms = d->atom_count[h],
					    .atoms = d->atom_bits[h] };
		return 1;
	}
	if (h & PFT_CC_MORE) {
		if (avail >= 2 && !(p[1] & PFT_CONTINUE)) {
			cycles |= (uint32_t)p[1] << 4;
			size = 2;
		} else {
			size = parse_cycles(p, avail, &cycles);
			if (!size)
				return 0;
		}
	}
	*pkt = (struct pft_ptm_packet){ .offset = offset, .raw = p, .size = (uint16_t)size,
				    .type = PFT_PTM_PKT_ATOM, .n_atoms = 1,
				    .atoms = (h & PFT_CA_ATOM_N) ? 0 : 1, .has_cycles = 1,
				    .cycles = cycles };
	return size;
}

/*
 * Decode the packet at p[0] (synchronised).  Returns its length (> 0), 0 if
 * more bytes are needed, or -(bytes) of a bad packet (pkt->bad says why).
 */
static int parse_packet(const struct pft_ptm_pkt_decoder *d, const uint8_t *p,
			size_t avail, struct pft_ptm_packet *pkt)
{
	const uint8_t h = p[0];
	struct pft_stream_id id;

	switch ((enum header_kind)d->kind[h]) {
	case HK_ATOM:
	case HK_ATOM_CA:
		return (int)decode_atom(d, p, avail, 0, pkt);
	case HK_BRANCH:
		pkt->type = PFT_PTM_PKT_BRANCH;
		return (int)parse_branch(d, p, avail, pkt);
	case HK_ISYNC:
		pkt->type = PFT_PTM_PKT_ISYNC;
		return (int)parse_isync(d, p, avail, pkt);
	case HK_TIMESTAMP:
		pkt->type = PFT_PTM_PKT_TIMESTAMP;
		return (int)parse_timestamp(d, p, avail, pkt);
	case HK_WAYPOINT:
		pkt->type = PFT_PTM_PKT_WAYPOINT;
		return (int)parse_waypoint(d, p, avail, pkt);
	case HK_CONTEXTID:
		id = pft_stream_id_payload(p, avail, d->cfg.ctxid_bytes);
		pkt->type = PFT_PTM_PKT_CONTEXTID;
		pkt->ctxid = id.id;
		pkt->has_ctxid = 1;
		return (int)id.size;
	case HK_VMID:
		id = pft_stream_id_payload(p, avail, 1);
		pkt->type = PFT_PTM_PKT_VMID;
		pkt->vmid = (uint8_t)id.id;
		return (int)id.size;
	case HK_TRIGGER:
		pkt->type = PFT_PTM_PKT_TRIGGER;
		return 1;
	case HK_IGNORE:
		pkt->type = PFT_PTM_PKT_IGNORE;
		return 1;
	case HK_EXCEPTION_RETURN:
		pkt->type = PFT_PTM_PKT_EXCEPTION_RETURN;
		return 1;
	case HK_ZERO:
		return parse_zeros(p, avail, pkt);
	case HK_ATOM_NO_MARKER:
		pkt->type = PFT_PTM_PKT_BAD;
		pkt->bad = PFT_ERR_PKT_ATOM_NO_MARKER;
		return -1;
	case HK_RESERVED:
		break;
	}
	pkt->type = PFT_PTM_PKT_BAD;
	pkt->bad = PFT_ERR_PKT_RESERVED_HEADER;
	return -1;
}

/* Apply a complete packet to the packet-layer state. */
static void commit(struct pft_ptm_pkt_decoder *d, const struct pft_ptm_packet *pkt)
{
	switch (pkt->type) {
	case PFT_PTM_PKT_ISYNC:
		d->altis = pkt->altis;
		d->base_addr = pkt->addr;
		d->base_isa = pkt->isa;
		d->known_bits = 32;
		d->isa_known = 1;
		break;
	case PFT_PTM_PKT_BRANCH:
	case PFT_PTM_PKT_WAYPOINT:
		/* EX0 (and the waypoint information byte) always carry AltIS;
		 * it is 0 for ARM and Jazelle targets (pft-protocol.md 4.3). */
		if (pkt->exc_bytes)
			d->altis = pkt->altis;
		d->base_addr = pkt->addr;
		d->known_bits = pkt->addr_bits;
		if (pkt->isa != PFT_ISA_UNKNOWN) {
			d->base_isa = pkt->isa;
			d->isa_known = 1;
		}
		break;
	case PFT_PTM_PKT_TIMESTAMP:
		d->ts_raw = pkt->ts_raw;
		break;
	default:
		break;
	}
}

/* How many zero bytes (up to 5) come just before buf[@pos] in the stream. */
static __attribute__((noinline, cold)) unsigned zeros_before_at(const struct pft_ptm_pkt_decoder *d,
								 size_t pos)
{
	unsigned n = 0;
	size_t i = pos;

	while (n < 5 && i > 0 && d->s.buf[i - 1] == 0) {
		n++;
		i--;
	}
	if (i == 0)
		for (unsigned h = d->hist_len; n < 5 && h > 0 && d->hist[h - 1] == 0; h--)
			n++;
	return n;
}

/* pft_stream_async_after(), out of the way of decode_at(). */
static __attribute__((noinline, cold)) size_t async_after(const uint8_t *p, size_t avail,
							  unsigned prior)
{
	return pft_stream_async_after(p, avail, prior);
}

/*
 * The packet at @p (synchronised): parse_packet(), but first the end of an
 * A-sync whose zeros a damaged packet took (the zero bytes before @p are
 * those before buf[@pos], or before the carry), and branch packets, the
 * most common after atoms, without the dispatch.
 */
static int decode_at(const struct pft_ptm_pkt_decoder *d, const uint8_t *p, size_t avail,
		     size_t pos, struct pft_ptm_packet *pkt)
{
	if (*p == PFT_OP_ASYNC_ZERO || *p == PFT_OP_ASYNC_END) {
		unsigned prior = pos == PKT_CARRIED ? d->carry_prior : zeros_before_at(d, pos);
		size_t a = async_after(p, avail, prior);
		if (a) {
			pkt->type = PFT_PTM_PKT_ASYNC;
			return (int)a;
		}
	}
	if (*p & 1) {
		pkt->type = PFT_PTM_PKT_BRANCH;
		return (int)parse_branch(d, p, avail, pkt);
	}
	return parse_packet(d, p, avail, pkt);
}

/* Remember the stream's last bytes before the caller may drop the buffer. */
static void keep_history(void *dv)
{
	struct pft_ptm_pkt_decoder *d = dv;

	for (size_t i = d->s.len > 5 ? d->s.len - 5 : 0; i < d->s.len; i++) {
		if (d->hist_len == sizeof(d->hist)) {
			memmove(d->hist, d->hist + 1, sizeof(d->hist) - 1);
			d->hist_len--;
		}
		d->hist[d->hist_len++] = d->s.buf[i];
	}
}

/* The protocol's part of the stream's loop (core/pft_pkt_stream.h). */
static int ptm_decode(const void *d, const uint8_t *p, size_t avail, size_t pos, void *pkt)
{
	return decode_at(d, p, avail, pos, pkt);
}

static int ptm_deliver(void *dv, void *pv, int n, const uint8_t *raw, uint64_t offset)
{
	struct pft_ptm_pkt_decoder *d = dv;
	struct pft_ptm_packet *pkt = pv;

	pkt->size = (uint16_t)(n > 0 ? n : -n);
	pkt->raw = raw;
	pkt->offset = offset;
	if (n < 0) {
		d->s.synced = 0;
		return pft_stream_bad_status(pkt->bad);
	}
	commit(d, pkt);
	return 0;
}

static int ptm_emit(void *pv, const struct pkt_span *sp)
{
	struct pft_ptm_packet *pkt = pv;
	int status = 0;

	if (sp->kind == PKT_SPAN_TRUNCATED) {
		memset(pkt, 0, sizeof(*pkt));
		pkt->type = PFT_PTM_PKT_BAD;
		pkt->bad = PFT_ERR_PKT_TRUNCATED;
		status = -PFT_ERR_TRUNCATED;
	} else {
		pkt->type = sp->kind == PKT_SPAN_ASYNC ? PFT_PTM_PKT_ASYNC : PFT_PTM_PKT_NOTSYNC;
	}
	pkt->raw = sp->raw;
	pkt->offset = sp->offset;
	pkt->size = (uint16_t)sp->size;
	return status;
}

static void ptm_clear(void *pkt)
{
	memset(pkt, 0, sizeof(struct pft_ptm_packet));
}

static void ptm_hold(void *dv, size_t pos)
{
	struct pft_ptm_pkt_decoder *d = dv;

	d->carry_prior = zeros_before_at(d, pos);
}

static const struct pkt_proto ptm_proto = {
	.decode = ptm_decode,
	.deliver = ptm_deliver,
	.emit = ptm_emit,
	.clear = ptm_clear,
	.hold = ptm_hold,
	.need = keep_history,
	.pkt_max = PKT_MAX,
};

/* Atoms are most packets: decode them here, without the dispatch. */
static inline int fast_atom(struct pft_ptm_pkt_decoder *d, struct pft_ptm_packet *pkt)
{
	const uint8_t *p = d->s.buf + d->s.pos;
	const uint8_t kind = d->kind[*p];

	/* 0x80 may end an A-sync whose zeros a damaged packet took: the slow
	 * path looks. */
	if (kind != HK_ATOM && (kind != HK_ATOM_CA || *p == PFT_OP_ASYNC_END))
		return 0;
	size_t size = decode_atom(d, p, d->s.len - d->s.pos, d->s.buf_offset + d->s.pos, pkt);
	d->s.pos += size;
	return size != 0;
}

/* Everything but the hot path; kept out of line so that the hot path
 * needs no stack frame. */
static __attribute__((noinline)) int next_finishing(struct pft_ptm_pkt_decoder *d,
						    struct pft_ptm_packet *pkt)
{
	return pft_stream_next(&d->s, &ptm_proto, d, pkt);
}

static __attribute__((noinline)) int next_checked(struct pft_ptm_pkt_decoder *d,
						  struct pft_ptm_packet *pkt, size_t size)
{
	if (!d || !pkt || size < sizeof(*pkt))
		return -PFT_ERR_INVALID;
	return next_finishing(d, pkt);
}

/* The packet at @buf[@pos] (@buf: the feed of @len bytes at stream
 * offset @base), synchronised and whole in the buffer, decoded into *@pkt
 * (zeroed here) with its size, bytes and offset, and its state committed.
 * Returns its size, or decode_at()'s 0 or -(bytes) of a bad packet with
 * *@pkt as decode_at() left it, nothing committed. */
static inline int decode_whole(struct pft_ptm_pkt_decoder *d, const uint8_t *buf, size_t len,
			       uint64_t base, size_t pos, struct pft_ptm_packet *pkt)
{
	memset(pkt, 0, sizeof(*pkt));
	int n = decode_at(d, buf + pos, len - pos, pos, pkt);

	if (n > 0) {
		pkt->size = (uint16_t)n;
		pkt->raw = buf + pos;
		pkt->offset = base + pos;
		commit(d, pkt);
	}
	return n;
}

/* Synchronised, nothing carried, and a whole packet's worth of bytes in
 * the buffer: no boundary can cut the packet. */
static __attribute__((noinline)) int next_in_buffer(struct pft_ptm_pkt_decoder *d,
						    struct pft_ptm_packet *pkt)
{
	const uint8_t *p = d->s.buf + d->s.pos;
	int n = decode_whole(d, d->s.buf, d->s.len, d->s.buf_offset, d->s.pos, pkt);

	if (__builtin_expect(n > 0, 1)) {
		d->s.pos += (size_t)n;
		return 0;
	}
	if (n == 0) /* cannot happen with PKT_MAX bytes; be safe */
		return next_finishing(d, pkt);
	pkt->size = (uint16_t)-n;
	pkt->raw = p;
	pkt->offset = d->s.buf_offset + d->s.pos;
	d->s.pos += (size_t)-n;
	d->s.synced = 0;
	return pft_stream_bad_status(pkt->bad);
}

int pft_ptm_pkt_next(struct pft_ptm_pkt_decoder *d, struct pft_ptm_packet *pkt, size_t size)
{
	/* The hot path: tail calls away from everything else, so that it
	 * needs no stack frame. */
	if (__builtin_expect(d && pkt && size >= sizeof(*pkt) && d->s.synced &&
			     !d->s.ncarry && d->s.pos < d->s.len, 1)) {
		if (fast_atom(d, pkt))
			return 0;
		if (d->s.len - d->s.pos >= PKT_MAX)
			return next_in_buffer(d, pkt);
	}
	return next_checked(d, pkt, size);
}

int pft_ptm_pkt_next_batch(struct pft_ptm_pkt_decoder *d, struct pft_ptm_packet *pkts, size_t n,
		       size_t size)
{
	size_t k = 0;

	if (!d || !pkts || !n || size != sizeof(*pkts))
		return -PFT_ERR_INVALID;
	/* Atoms straight from the buffer, with the position in a register
	 * (the packet stores may alias the decoder as far as C knows). */
	if (d->s.synced && !d->s.ncarry) {
		const uint8_t *buf = d->s.buf;
		size_t pos = d->s.pos;
		const size_t len = d->s.len;
		const uint64_t base = d->s.buf_offset;

		while (k < n && pos < len) {
			const uint8_t h = buf[pos];
			const uint8_t kind = d->kind[h];
			if (kind == HK_ATOM || (kind == HK_ATOM_CA && h != PFT_OP_ASYNC_END)) {
				size_t sz = decode_atom(d, buf + pos, len - pos, base + pos,
							&pkts[k]);
				if (sz) {
					k++;
					pos += sz;
					continue;
				}
			}
			if (len - pos < PKT_MAX)
				break;
			/* Another packet, whole in the buffer. */
			int m = decode_whole(d, buf, len, base, pos, &pkts[k]);
			if (m <= 0)
				break; /* a bad packet is returned on its own */
			pos += (size_t)m;
			k++;
		}
		d->s.pos = pos;
	}
	if (k)
		return (int)(k > INT_MAX ? INT_MAX : k);
	int status = pft_ptm_pkt_next(d, &pkts[0], size);
	return status < 0 ? status : 1;
}

int pft_ptm_pkt_skip_counted(struct pft_ptm_pkt_decoder *d, uint64_t limit, struct pkt_skipped *sk,
			 struct pft_ptm_packet *pkt)
{
	if (!d->s.synced || d->s.ncarry || d->s.len - d->s.pos < PKT_MAX || limit <= d->s.buf_offset)
		return 0;
	const uint8_t *const buf = d->s.buf;
	size_t pos = d->s.pos;
	/* Every packet that starts before @end is whole in the buffer. */
	size_t end = d->s.len - PKT_MAX;
	if (limit - d->s.buf_offset < end)
		end = (size_t)(limit - d->s.buf_offset);
	uint64_t atoms = 0, branches = 0;
	int other = 0;

	while (pos < end) {
		const uint8_t h = buf[pos];
		const uint8_t kind = d->kind[h];
		if (kind == HK_ATOM) {
			atoms++;
			pos++;
			continue;
		}
		if (kind == HK_ATOM_CA && h != PFT_OP_ASYNC_END) {
			uint32_t cycles;
			atoms++;
			pos += (h & PFT_CC_MORE) ? parse_cycles(buf + pos, PKT_MAX, &cycles) : 1;
			continue;
		}
		if (h & 1) {
			/* A branch changes the address state the next ones
			 * build on. */
			struct pft_ptm_packet b;
			b.exc_bytes = 0;
			size_t n = parse_branch_inline(d, buf + pos, PKT_MAX, &b);
			if (!n)
				break;
			b.type = PFT_PTM_PKT_BRANCH;
			commit(d, &b);
			branches++;
			pos += n;
			continue;
		}
		/* Another packet: whole, as pft_ptm_pkt_next() gives it; a bad one
		 * is left to it. */
		int n = decode_whole(d, buf, d->s.len, d->s.buf_offset, pos, pkt);
		if (n <= 0)
			break;
		pos += (size_t)n;
		other = 1;
		break;
	}
	d->s.pos = pos;
	sk->atoms += atoms;
	sk->branches += branches;
	return other;
}

void pft_ptm_pkt_sync_state(const struct pft_ptm_pkt_decoder *d, struct pkt_sync_state *s)
{
	memset(s, 0, sizeof(*s));
	s->ts_raw = d->ts_raw;
	s->base_addr = d->base_addr;
	s->synced = (uint8_t)d->s.synced;
	s->base_isa = (uint8_t)d->base_isa;
	s->known_bits = d->known_bits;
	s->isa_known = d->isa_known;
	s->altis = d->altis;
}
