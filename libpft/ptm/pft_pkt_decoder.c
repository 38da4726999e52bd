/*
 * PFT packet decoder: bytes of one trace source -> packets.
 *
 * Packets are decoded in place in the caller's buffer.  A packet split
 * across two feeds is copied into a small carry buffer (the longest packet
 * is 16 bytes), so memory stays constant however long the stream.  The
 * header byte is dispatched through a per-decoder 256-entry table because
 * two entries (0x80, 0x82) depend on the configuration.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "pft.h"
#include "core/pft_trace_common.h"
#include "ptm/pft_config_int.h"
#include "ptm/pft_opcodes.h"
#include "ptm/pft_pkt_decoder.h"
#include "core/pft_sync_state.h"

enum {
	/* Longest A-sync packet: 15 zeros and 0x80.  The zeros of a longer
	 * A-sync come back first, in pieces (see parse_zeros). */
	ASYNC_MAX_ZEROS = 15,
	PKT_MAX = ASYNC_MAX_ZEROS + 1,
	/* Zeros in sight before a piece of PKT_MAX zeros is split off, so
	 * that ASYNC_MAX_ZEROS are left for the A-sync packet. */
	ASYNC_LOOK = PKT_MAX + ASYNC_MAX_ZEROS,
	NOTSYNC_MAX = 16, /* bytes per NOTSYNC packet, for readable listings */
	CARRY_MAX = 2 * PKT_MAX
};

_Static_assert(ASYNC_LOOK < CARRY_MAX, "the carry holds an A-sync look-ahead and its next byte");

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

struct pft_pkt_decoder {
	struct pft_config cfg;
	uint8_t kind[256];        /* enum header_kind by header byte */
	uint8_t atom_count[256];  /* non-CA atom headers: number of atoms */
	uint8_t atom_bits[256];   /* non-CA atom headers: E bits, oldest = bit 0 */

	/* Input. */
	const uint8_t *buf;
	size_t len, pos;
	uint64_t buf_offset;      /* offset of buf[0] */
	int finished;

	/* A packet (or, unsynchronised, a run of zeros) cut by a feed. */
	uint8_t carry[CARRY_MAX];
	size_t ncarry;
	uint64_t carry_offset;
	size_t carry_notsync;     /* leading carried bytes to report as NOTSYNC */
	/* The last bytes of the previous buffer, to see an A-sync whose first
	 * zeros lie there. */
	uint8_t hist[5];
	uint8_t hist_len;
	size_t carry_shift;       /* carried bytes already returned, to drop */
	unsigned carry_prior;     /* zero bytes just before the carried packet */

	int synced;

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

static const uint8_t zero_bytes[NOTSYNC_MAX];

static void build_tables(struct pft_pkt_decoder *d)
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

struct pft_pkt_decoder *pft_pkt_alloc(const struct pft_config *cfg, int *errcode)
{
	struct pft_config c;
	struct pft_pkt_decoder *d = NULL;
	int err = pft_config_copy(&c, cfg);

	if (!err) {
		d = calloc(1, sizeof(*d));
		if (!d)
			err = -PFT_ERR_NOMEM;
	}
	if (errcode)
		*errcode = err;
	if (err)
		return NULL;
	d->cfg = c;
	build_tables(d);
	d->base_isa = PFT_ISA_ARM;
	return d;
}

void pft_pkt_free(struct pft_pkt_decoder *d)
{
	free(d);
}

int pft_pkt_reset(struct pft_pkt_decoder *d)
{
	if (!d)
		return -PFT_ERR_INVALID;
	d->buf = NULL;
	d->len = d->pos = 0;
	d->buf_offset = 0;
	d->finished = 0;
	d->ncarry = 0;
	d->carry_notsync = 0;
	d->carry_shift = 0;
	d->hist_len = 0;
	d->synced = 0;
	d->base_addr = 0;
	d->base_isa = PFT_ISA_ARM;
	d->known_bits = 0;
	d->isa_known = 0;
	d->altis = 0;
	d->ts_raw = 0;
	return 0;
}

int pft_pkt_feed_at(struct pft_pkt_decoder *d, const uint8_t *buf, size_t len,
		    uint64_t offset)
{
	if (!d || (!buf && len))
		return -PFT_ERR_INVALID;
	if (d->finished)
		return -PFT_ERR_EOS;
	/* Bytes of the previous feed not yet decoded would be lost, and
	 * every offset after them wrong. */
	if (d->buf && d->pos < d->len)
		return -PFT_ERR_INVALID;
	d->buf = buf;
	d->len = len;
	d->pos = 0;
	d->buf_offset = offset;
	return 0;
}

int pft_pkt_feed(struct pft_pkt_decoder *d, const uint8_t *buf, size_t len)
{
	if (!d)
		return -PFT_ERR_INVALID;
	return pft_pkt_feed_at(d, buf, len, d->buf_offset + d->len);
}

int pft_pkt_finish(struct pft_pkt_decoder *d)
{
	if (!d)
		return -PFT_ERR_INVALID;
	d->finished = 1;
	return 0;
}

int pft_pkt_sync_forward(struct pft_pkt_decoder *d)
{
	if (!d)
		return -PFT_ERR_INVALID;
	if (d->synced && d->ncarry) {
		/* The carried bytes of a packet become unsynchronised data:
		 * the ones before their trailing zeros are NOTSYNC, the zeros
		 * may still begin an A-sync. */
		size_t z = 0;
		while (z < d->ncarry && d->carry[d->ncarry - 1 - z] == 0)
			z++;
		d->carry_notsync = d->ncarry - z;
	}
	d->synced = 0;
	return 0;
}

int pft_pkt_synced(const struct pft_pkt_decoder *d)
{
	return d->synced;
}

uint64_t pft_pkt_feed_pos(const struct pft_pkt_decoder *d)
{
	return d->buf_offset + d->pos;
}

int pft_pkt_cut_feed(struct pft_pkt_decoder *d, uint64_t end)
{
	if (end < d->buf_offset + d->pos || end > d->buf_offset + d->len)
		return -PFT_ERR_INVALID;
	size_t dropped = d->len - (size_t)(end - d->buf_offset);
	d->len -= dropped;
	return (int)dropped;
}

uint64_t pft_pkt_get_offset(const struct pft_pkt_decoder *d)
{
	if (!d)
		return 0;
	if (d->ncarry)
		return d->carry_offset;
	return d->buf_offset + d->pos;
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
static size_t add_cycles(const uint8_t *p, size_t n, size_t avail, struct pft_packet *pkt)
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
static size_t parse_address(const struct pft_pkt_decoder *d, const uint8_t *p,
			    size_t avail, struct pft_packet *pkt, int *e_flag)
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

/* Inlined where counting passes over branches (pft_pkt_skip_counted()),
 * called elsewhere (parse_branch()). */
static inline __attribute__((always_inline)) size_t
parse_branch_inline(const struct pft_pkt_decoder *d, const uint8_t *p, size_t avail,
		    struct pft_packet *pkt)
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

static size_t parse_branch(const struct pft_pkt_decoder *d, const uint8_t *p, size_t avail,
			   struct pft_packet *pkt)
{
	return parse_branch_inline(d, p, avail, pkt);
}

static size_t parse_waypoint(const struct pft_pkt_decoder *d, const uint8_t *p,
			     size_t avail, struct pft_packet *pkt)
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

static size_t parse_isync(const struct pft_pkt_decoder *d, const uint8_t *p,
			  size_t avail, struct pft_packet *pkt)
{
	size_t n = 6;

	if (avail < n)
		return 0;
	uint32_t a = (uint32_t)p[1] | (uint32_t)p[2] << 8 |
		     (uint32_t)p[3] << 16 | (uint32_t)p[4] << 24;
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
		for (unsigned i = 0; i < d->cfg.ctxid_bytes; i++)
			pkt->ctxid |= (uint32_t)p[n + i] << (8 * i);
		pkt->has_ctxid = 1;
		n += d->cfg.ctxid_bytes;
	}
	return n;
}

static size_t parse_timestamp(const struct pft_pkt_decoder *d, const uint8_t *p,
			      size_t avail, struct pft_packet *pkt)
{
	size_t n = trace_ts_parse(p, avail, d->cfg.ts_64bit, d->cfg.ts_gray, d->ts_raw,
				  &pkt->ts_raw, &pkt->ts, &pkt->ts_bits);

	if (!n)
		return 0;
	pkt->ts_clock_change = (p[0] & PFT_TS_CLOCK_CHANGE) != 0;
	return d->cfg.cycle_accurate ? add_cycles(p, n, avail, pkt) : n;
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
static int parse_zeros(const uint8_t *p, size_t avail, struct pft_packet *pkt)
{
	size_t z = 0;

	while (z < avail && z < ASYNC_LOOK && p[z] == 0)
		z++;
	if (z == ASYNC_LOOK) {
		pkt->type = PFT_PKT_ASYNC;
		return PKT_MAX;
	}
	if (z == avail)
		return 0;
	if (p[z] == PFT_OP_ASYNC_END && z >= PFT_ASYNC_MIN_ZEROS) {
		pkt->type = PFT_PKT_ASYNC;
		return z > ASYNC_MAX_ZEROS ? (int)(z - ASYNC_MAX_ZEROS) : (int)z + 1;
	}
	pkt->type = PFT_PKT_BAD;
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
static inline size_t decode_atom(const struct pft_pkt_decoder *d, const uint8_t *p,
				 size_t avail, uint64_t offset, struct pft_packet *pkt)
{
	const uint8_t h = p[0];
	uint32_t cycles = (h >> 2) & 0xf;
	size_t size = 1;

	if (d->kind[h] == HK_ATOM) {
		*pkt = (struct pft_packet){ .offset = offset, .raw = p, .size = 1,
					    .type = PFT_PKT_ATOM,
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
	*pkt = (struct pft_packet){ .offset = offset, .raw = p, .size = (uint16_t)size,
				    .type = PFT_PKT_ATOM, .n_atoms = 1,
				    .atoms = (h & PFT_CA_ATOM_N) ? 0 : 1, .has_cycles = 1,
				    .cycles = cycles };
	return size;
}

/*
 * Decode the packet at p[0] (synchronised).  Returns its length (> 0), 0 if
 * more bytes are needed, or -(bytes) of a bad packet (pkt->bad says why).
 */
static int parse_packet(const struct pft_pkt_decoder *d, const uint8_t *p,
			size_t avail, struct pft_packet *pkt)
{
	const uint8_t h = p[0];
	size_t n;

	switch ((enum header_kind)d->kind[h]) {
	case HK_ATOM:
	case HK_ATOM_CA:
		return (int)decode_atom(d, p, avail, 0, pkt);
	case HK_BRANCH:
		pkt->type = PFT_PKT_BRANCH;
		return (int)parse_branch(d, p, avail, pkt);
	case HK_ISYNC:
		pkt->type = PFT_PKT_ISYNC;
		return (int)parse_isync(d, p, avail, pkt);
	case HK_TIMESTAMP:
		pkt->type = PFT_PKT_TIMESTAMP;
		return (int)parse_timestamp(d, p, avail, pkt);
	case HK_WAYPOINT:
		pkt->type = PFT_PKT_WAYPOINT;
		return (int)parse_waypoint(d, p, avail, pkt);
	case HK_CONTEXTID:
		pkt->type = PFT_PKT_CONTEXTID;
		n = 1 + d->cfg.ctxid_bytes;
		if (avail < n)
			return 0;
		for (size_t i = 1; i < n; i++)
			pkt->ctxid |= (uint32_t)p[i] << (8 * (i - 1));
		pkt->has_ctxid = 1;
		return (int)n;
	case HK_VMID:
		pkt->type = PFT_PKT_VMID;
		if (avail < 2)
			return 0;
		pkt->vmid = p[1];
		return 2;
	case HK_TRIGGER:
		pkt->type = PFT_PKT_TRIGGER;
		return 1;
	case HK_IGNORE:
		pkt->type = PFT_PKT_IGNORE;
		return 1;
	case HK_EXCEPTION_RETURN:
		pkt->type = PFT_PKT_EXCEPTION_RETURN;
		return 1;
	case HK_ZERO:
		return parse_zeros(p, avail, pkt);
	case HK_ATOM_NO_MARKER:
		pkt->type = PFT_PKT_BAD;
		pkt->bad = PFT_ERR_PKT_ATOM_NO_MARKER;
		return -1;
	case HK_RESERVED:
		break;
	}
	pkt->type = PFT_PKT_BAD;
	pkt->bad = PFT_ERR_PKT_RESERVED_HEADER;
	return -1;
}

/* Apply a complete packet to the packet-layer state. */
static void commit(struct pft_pkt_decoder *d, const struct pft_packet *pkt)
{
	switch (pkt->type) {
	case PFT_PKT_ISYNC:
		d->altis = pkt->altis;
		d->base_addr = pkt->addr;
		d->base_isa = pkt->isa;
		d->known_bits = 32;
		d->isa_known = 1;
		break;
	case PFT_PKT_BRANCH:
	case PFT_PKT_WAYPOINT:
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
	case PFT_PKT_TIMESTAMP:
		d->ts_raw = pkt->ts_raw;
		break;
	default:
		break;
	}
}

static int bad_status(const struct pft_packet *pkt)
{
	switch (pkt->bad) {
	case PFT_ERR_PKT_RESERVED_HEADER:
	case PFT_ERR_PKT_ATOM_NO_MARKER: /* reserved without CA (pft-protocol.md 5.12) */
		return -PFT_ERR_BAD_OPCODE;
	case PFT_ERR_PKT_TRUNCATED:
		return -PFT_ERR_TRUNCATED;
	default:
		return -PFT_ERR_BAD_PACKET;
	}
}

/* How many zero bytes (up to 5) come just before buf[@pos] in the stream. */
static __attribute__((noinline, cold)) unsigned zeros_before_at(const struct pft_pkt_decoder *d,
								 size_t pos)
{
	unsigned n = 0;
	size_t i = pos;

	while (n < 5 && i > 0 && d->buf[i - 1] == 0) {
		n++;
		i--;
	}
	if (i == 0)
		for (unsigned h = d->hist_len; n < 5 && h > 0 && d->hist[h - 1] == 0; h--)
			n++;
	return n;
}

/*
 * Damage can make a packet swallow the first zeros of an A-sync (a cycle
 * count that goes on, a byte read as an I-sync header).  The pattern of
 * 47 zero bits and a one cannot occur inside packets (pft-protocol.md
 * 5.1), so zeros and 0x80 at @p that complete five zero bytes with the
 * ones before them are an A-sync.  Returns its length, or 0.
 */
static __attribute__((noinline, cold)) size_t async_across_packets(const uint8_t *p,
								   size_t avail,
								   unsigned prior)
{
	size_t z = 0;

	if (!prior)
		return 0;
	while (z < avail && z < PFT_ASYNC_MIN_ZEROS && p[z] == 0)
		z++;
	if (z >= PFT_ASYNC_MIN_ZEROS || z >= avail || p[z] != PFT_OP_ASYNC_END)
		return 0; /* a whole A-sync, or none: the usual rules apply */
	return z + prior >= PFT_ASYNC_MIN_ZEROS ? z + 1 : 0;
}

/* decode_at(): the zeros before a packet are those before the carry. */
#define CARRIED ((size_t)-1)

/*
 * The packet at @p (synchronised): parse_packet(), but first the end of an
 * A-sync whose zeros a damaged packet took (the zero bytes before @p are
 * those before buf[@pos], or before the carry), and branch packets, the
 * most common after atoms, without the dispatch.
 */
static int decode_at(const struct pft_pkt_decoder *d, const uint8_t *p, size_t avail,
		     size_t pos, struct pft_packet *pkt)
{
	if (*p == PFT_OP_ASYNC_ZERO || *p == PFT_OP_ASYNC_END) {
		unsigned prior = pos == CARRIED ? d->carry_prior : zeros_before_at(d, pos);
		size_t a = async_across_packets(p, avail, prior);
		if (a) {
			pkt->type = PFT_PKT_ASYNC;
			return (int)a;
		}
	}
	if (*p & 1) {
		pkt->type = PFT_PKT_BRANCH;
		return (int)parse_branch(d, p, avail, pkt);
	}
	return parse_packet(d, p, avail, pkt);
}

/* Remember the stream's last bytes before the caller may drop the buffer. */
static void keep_history(struct pft_pkt_decoder *d)
{
	for (size_t i = d->len > 5 ? d->len - 5 : 0; i < d->len; i++) {
		if (d->hist_len == sizeof(d->hist)) {
			memmove(d->hist, d->hist + 1, sizeof(d->hist) - 1);
			d->hist_len--;
		}
		d->hist[d->hist_len++] = d->buf[i];
	}
}

/*
 * Unsynchronised: look for >= 5 zeros and 0x80 from buf[pos].  Emits the
 * bytes before it as NOTSYNC (at most NOTSYNC_MAX at a time); keeps a
 * trailing run of zeros, which may start an A-sync, in the carry.  Looks at
 * most NOTSYNC_MAX + PKT_MAX bytes ahead: an A-sync that starts within the
 * next NOTSYNC_MAX bytes ends within that window.
 */
static int scan_unsynced(struct pft_pkt_decoder *d, struct pft_packet *pkt)
{
	const uint8_t *b = d->buf;
	const size_t pos = d->pos, limit = d->len;
	size_t end = limit - pos > NOTSYNC_MAX + PKT_MAX ? pos + NOTSYNC_MAX + PKT_MAX
							 : limit;
	size_t run = 0, i, stop;

	for (i = pos; i < end; i++) {
		if (b[i] == 0) {
			run++;
			continue;
		}
		if (b[i] == PFT_OP_ASYNC_END && run >= PFT_ASYNC_MIN_ZEROS)
			break;
		run = 0;
	}
	size_t zeros = run > ASYNC_MAX_ZEROS ? ASYNC_MAX_ZEROS : run;
	if (i < end) {
		stop = i - zeros;
		if (stop == pos) {
			pkt->type = PFT_PKT_ASYNC;
			pkt->size = (uint16_t)(zeros + 1);
			pkt->raw = b + stop;
			pkt->offset = d->buf_offset + stop;
			d->pos = i + 1;
			d->synced = 1;
			return 0;
		}
	} else if (end == limit) {
		stop = limit - zeros;
		if (stop == pos) {
			/* Only zeros are left: they may begin an A-sync. */
			memcpy(d->carry, b + pos, zeros);
			d->ncarry = zeros;
			d->carry_offset = d->buf_offset + pos;
			d->pos = limit;
			return -PFT_ERR_NEED_INPUT;
		}
	} else {
		stop = end;
	}
	if (stop - pos > NOTSYNC_MAX)
		stop = pos + NOTSYNC_MAX;
	pkt->type = PFT_PKT_NOTSYNC;
	pkt->size = (uint16_t)(stop - pos);
	pkt->raw = b + pos;
	pkt->offset = d->buf_offset + pos;
	d->pos = stop;
	return 0;
}

/* Unsynchronised with zeros carried over from the previous feed. */
static int resolve_carried_zeros(struct pft_pkt_decoder *d,
				 struct pft_packet *pkt)
{
	size_t z = 0, avail = d->len - d->pos;
	const uint8_t *b = d->buf + d->pos;

	while (z < avail && b[z] == 0)
		z++;
	size_t total = d->ncarry + z;
	int ends_async = z < avail && b[z] == PFT_OP_ASYNC_END && total >= PFT_ASYNC_MIN_ZEROS;

	if (z == avail && total <= ASYNC_MAX_ZEROS) {
		memcpy(d->carry + d->ncarry, b, z);
		d->ncarry = total;
		d->pos = d->len;
		return -PFT_ERR_NEED_INPUT;
	}
	if (ends_async && total <= ASYNC_MAX_ZEROS) {
		memcpy(d->carry + d->ncarry, b, z + 1);
		pkt->type = PFT_PKT_ASYNC;
		pkt->size = (uint16_t)(total + 1);
		pkt->raw = d->carry;
		pkt->offset = d->carry_offset;
		d->pos += z + 1;
		d->ncarry = 0;
		d->synced = 1;
		return 0;
	}
	/* The carried zeros (or the oldest of them) are not part of an
	 * A-sync: report them, keeping any that still may be. */
	size_t excess = d->ncarry;
	if ((ends_async || z == avail) && z < ASYNC_MAX_ZEROS)
		excess = total - ASYNC_MAX_ZEROS;
	/* A long A-sync's zeros, carried when sync was given up, may be more
	 * than one NOTSYNC packet holds. */
	if (excess > NOTSYNC_MAX)
		excess = NOTSYNC_MAX;
	pkt->type = PFT_PKT_NOTSYNC;
	pkt->size = (uint16_t)excess;
	pkt->raw = zero_bytes;
	pkt->offset = d->carry_offset;
	memmove(d->carry, d->carry + excess, d->ncarry - excess);
	d->ncarry -= excess;
	d->carry_offset += excess;
	return 0;
}

/* Finish a packet cut by a feed: append new bytes to the carry. */
static int resolve_carry(struct pft_pkt_decoder *d, struct pft_packet *pkt)
{
	size_t avail = d->len - d->pos;
	size_t take = CARRY_MAX - d->ncarry;

	if (take > avail)
		take = avail;
	memcpy(d->carry + d->ncarry, d->buf + d->pos, take);
	size_t have = d->ncarry + take;
	int n = decode_at(d, d->carry, have, CARRIED, pkt);

	if (n == 0) {
		if (take < avail)
			return -PFT_ERR_INTERNAL; /* longer than any packet */
		d->ncarry = have;
		d->pos = d->len;
		return -PFT_ERR_NEED_INPUT;
	}
	size_t used = (size_t)(n > 0 ? n : -n);
	pkt->size = (uint16_t)used;
	pkt->raw = d->carry;
	pkt->offset = d->carry_offset;
	if (used < d->ncarry) {
		/* Only a bad packet can end inside the carried bytes. */
		memmove(d->carry, d->carry + used, d->ncarry - used);
		d->ncarry -= used;
		d->carry_offset += used;
	} else {
		d->pos += used - d->ncarry;
		d->ncarry = 0;
	}
	if (n < 0) {
		d->synced = 0;
		return bad_status(pkt);
	}
	commit(d, pkt);
	return 0;
}

/* After finish: whatever is left in the carry. */
static int flush_carry(struct pft_pkt_decoder *d, struct pft_packet *pkt)
{
	memset(pkt, 0, sizeof(*pkt));
	pkt->raw = d->carry;
	pkt->offset = d->carry_offset;
	if (!d->synced) {
		pkt->size = (uint16_t)d->ncarry;
		pkt->type = PFT_PKT_NOTSYNC;
		d->ncarry = 0;
		return 0;
	}
	/* The zeros of a long A-sync may be more than a packet: the rest
	 * comes next, unsynchronised (moved on the next call: @pkt points
	 * at them). */
	pkt->size = (uint16_t)(d->ncarry > PKT_MAX ? PKT_MAX : d->ncarry);
	if (pkt->size < d->ncarry)
		d->carry_shift = pkt->size;
	else
		d->ncarry = 0;
	pkt->type = PFT_PKT_BAD;
	pkt->bad = PFT_ERR_PKT_TRUNCATED;
	d->synced = 0;
	return -PFT_ERR_TRUNCATED;
}

/* Everything but the hot path; kept out of line so that the hot path
 * needs no stack frame. */
static __attribute__((noinline)) int next_packet(struct pft_pkt_decoder *d,
						 struct pft_packet *pkt)
{

	if (d->carry_notsync) {
		pkt->type = PFT_PKT_NOTSYNC;
		pkt->size = (uint16_t)d->carry_notsync;
		pkt->raw = d->carry;
		pkt->offset = d->carry_offset;
		/* The packet points into the carry: move the rest on the next
		 * call, not now. */
		d->carry_shift = d->carry_notsync;
		d->carry_notsync = 0;
		return 0;
	}
	if (d->carry_shift) {
		memmove(d->carry, d->carry + d->carry_shift, d->ncarry - d->carry_shift);
		d->ncarry -= d->carry_shift;
		d->carry_offset += d->carry_shift;
		d->carry_shift = 0;
	}
	if (d->ncarry) {
		if (d->pos < d->len) {
			if (!d->synced)
				return resolve_carried_zeros(d, pkt);
			return resolve_carry(d, pkt);
		}
		if (!d->finished)
			return -PFT_ERR_NEED_INPUT;
		return flush_carry(d, pkt);
	}
	if (d->pos >= d->len)
		return d->finished ? -PFT_ERR_EOS : -PFT_ERR_NEED_INPUT;
	if (!d->synced)
		return scan_unsynced(d, pkt);

	const uint8_t *p = d->buf + d->pos;
	size_t avail = d->len - d->pos;
	int n = decode_at(d, p, avail, d->pos, pkt);

	if (n == 0) {
		d->carry_prior = zeros_before_at(d, d->pos);
		memcpy(d->carry, p, avail);
		d->ncarry = avail;
		d->carry_offset = d->buf_offset + d->pos;
		d->pos = d->len;
		if (!d->finished)
			return -PFT_ERR_NEED_INPUT;
		return flush_carry(d, pkt);
	}
	size_t used = (size_t)(n > 0 ? n : -n);
	pkt->size = (uint16_t)used;
	pkt->raw = p;
	pkt->offset = d->buf_offset + d->pos;
	d->pos += used;
	if (n < 0) {
		d->synced = 0;
		return bad_status(pkt);
	}
	commit(d, pkt);
	return 0;
}

/* Atoms are most packets: decode them here, without the dispatch. */
static inline int fast_atom(struct pft_pkt_decoder *d, struct pft_packet *pkt)
{
	const uint8_t *p = d->buf + d->pos;
	const uint8_t kind = d->kind[*p];

	/* 0x80 may end an A-sync whose zeros a damaged packet took: the slow
	 * path looks. */
	if (kind != HK_ATOM && (kind != HK_ATOM_CA || *p == PFT_OP_ASYNC_END))
		return 0;
	size_t size = decode_atom(d, p, d->len - d->pos, d->buf_offset + d->pos, pkt);
	d->pos += size;
	return size != 0;
}

/* next_packet(), but after finish it never asks for input: a path that
 * set bytes aside for the next feed is run again to flush them. */
static int next_finishing(struct pft_pkt_decoder *d, struct pft_packet *pkt)
{
	/* Each retry flushes what the previous one set aside, so two are
	 * enough; the bound only guards against a bug turning into a hang. */
	for (int tries = 0; tries < 4; tries++) {
		memset(pkt, 0, sizeof(*pkt));
		int status = next_packet(d, pkt);
		if (status == -PFT_ERR_NEED_INPUT && !d->finished)
			keep_history(d);
		if (status != -PFT_ERR_NEED_INPUT || !d->finished)
			return status;
	}
	return -PFT_ERR_INTERNAL;
}

static __attribute__((noinline)) int next_checked(struct pft_pkt_decoder *d,
						  struct pft_packet *pkt, size_t size)
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
static inline int decode_whole(struct pft_pkt_decoder *d, const uint8_t *buf, size_t len,
			       uint64_t base, size_t pos, struct pft_packet *pkt)
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
static __attribute__((noinline)) int next_in_buffer(struct pft_pkt_decoder *d,
						    struct pft_packet *pkt)
{
	const uint8_t *p = d->buf + d->pos;
	int n = decode_whole(d, d->buf, d->len, d->buf_offset, d->pos, pkt);

	if (__builtin_expect(n > 0, 1)) {
		d->pos += (size_t)n;
		return 0;
	}
	if (n == 0) /* cannot happen with PKT_MAX bytes; be safe */
		return next_finishing(d, pkt);
	pkt->size = (uint16_t)-n;
	pkt->raw = p;
	pkt->offset = d->buf_offset + d->pos;
	d->pos += (size_t)-n;
	d->synced = 0;
	return bad_status(pkt);
}

int pft_pkt_next(struct pft_pkt_decoder *d, struct pft_packet *pkt, size_t size)
{
	/* The hot path: tail calls away from everything else, so that it
	 * needs no stack frame. */
	if (__builtin_expect(d && pkt && size >= sizeof(*pkt) && d->synced &&
			     !d->ncarry && d->pos < d->len, 1)) {
		if (fast_atom(d, pkt))
			return 0;
		if (d->len - d->pos >= PKT_MAX)
			return next_in_buffer(d, pkt);
	}
	return next_checked(d, pkt, size);
}

int pft_pkt_next_batch(struct pft_pkt_decoder *d, struct pft_packet *pkts, size_t n,
		       size_t size)
{
	size_t k = 0;

	if (!d || !pkts || !n || size != sizeof(*pkts))
		return -PFT_ERR_INVALID;
	/* Atoms straight from the buffer, with the position in a register
	 * (the packet stores may alias the decoder as far as C knows). */
	if (d->synced && !d->ncarry) {
		const uint8_t *buf = d->buf;
		size_t pos = d->pos;
		const size_t len = d->len;
		const uint64_t base = d->buf_offset;

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
		d->pos = pos;
	}
	if (k)
		return (int)(k > INT_MAX ? INT_MAX : k);
	int status = pft_pkt_next(d, &pkts[0], size);
	return status < 0 ? status : 1;
}

int pft_pkt_skip_counted(struct pft_pkt_decoder *d, uint64_t limit, struct pkt_skipped *sk,
			 struct pft_packet *pkt)
{
	if (!d->synced || d->ncarry || d->len - d->pos < PKT_MAX || limit <= d->buf_offset)
		return 0;
	const uint8_t *const buf = d->buf;
	size_t pos = d->pos;
	/* Every packet that starts before @end is whole in the buffer. */
	size_t end = d->len - PKT_MAX;
	if (limit - d->buf_offset < end)
		end = (size_t)(limit - d->buf_offset);
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
			struct pft_packet b;
			b.exc_bytes = 0;
			size_t n = parse_branch_inline(d, buf + pos, PKT_MAX, &b);
			if (!n)
				break;
			b.type = PFT_PKT_BRANCH;
			commit(d, &b);
			branches++;
			pos += n;
			continue;
		}
		/* Another packet: whole, as pft_pkt_next() gives it; a bad one
		 * is left to it. */
		int n = decode_whole(d, buf, d->len, d->buf_offset, pos, pkt);
		if (n <= 0)
			break;
		pos += (size_t)n;
		other = 1;
		break;
	}
	d->pos = pos;
	sk->atoms += atoms;
	sk->branches += branches;
	return other;
}

void pft_pkt_sync_state(const struct pft_pkt_decoder *d, struct pkt_sync_state *s)
{
	memset(s, 0, sizeof(*s));
	s->ts_raw = d->ts_raw;
	s->base_addr = d->base_addr;
	s->synced = (uint8_t)d->synced;
	s->base_isa = (uint8_t)d->base_isa;
	s->known_bits = d->known_bits;
	s->isa_known = d->isa_known;
	s->altis = d->altis;
}

int pft_pkt_sync_state_equal(const struct pkt_sync_state *a, const struct pkt_sync_state *b)
{
	return !memcmp(a, b, sizeof(*a));
}
