/*
 * ETMv3 packet decoder: bytes of one trace source -> packets
 * (shared/spec/etmv3-protocol.md sections 3 and 4; doc/etmv3.md).
 *
 * The packet formats; the stream (feeds, the carry of a packet cut by a
 * feed, the search for an A-sync) is core/pft_pkt_stream.h's, as for PTM.
 * Memory is constant.
 */
#include <string.h>
#include <stdlib.h>

#include "pft.h"
#include "core/pft_pkt_stream.h"
#include "core/pft_trace_common.h"
#include "etm3/pft_etm3_config.h"
#include "etm3/pft_etm3_sync.h"
#include "common/pft_size.h"

enum {
	/* Zeros we accept in one A-sync (five are required). */
	ZMAX = PKT_ASYNC_MAX_ZEROS,
	/* The longest packet: 0x70, 5 count bytes, 4 ctxid bytes, info,
	 * 4 address bytes, 5 LSiP address bytes. */
	PKT_MAX = 20
};

_Static_assert((int)PKT_MAX * 2 <= (int)PKT_CARRY_MAX, "the carry holds two packets");

enum header_kind {
	HK_RESERVED = 0,
	HK_BRANCH,
	HK_PHEADER,
	HK_ZERO,
	HK_CYCLE_COUNT,
	HK_ISYNC,
	HK_ISYNC_CC,
	HK_TRIGGER,
	HK_VMID,
	HK_TIMESTAMP,
	HK_CONTEXTID,
	HK_IGNORE,
	HK_EXC_RETURN,
	HK_EXC_ENTRY,
	HK_DATA,
	HK_DATA_OOO,
	HK_STORE_FAILED,
	HK_PLACEHOLDER,
	HK_SUPPRESSED,
	HK_NOT_TRACED,
	HK_DATA_DISABLED
};

struct pft_etm3_pkt_decoder {
	struct pft_etm3_config cfg;
	uint8_t kind[256];      /* enum header_kind */
	/* P-headers: atoms (bit i = atom i, 1 = E), count, W cycles, format. */
	uint16_t ph_atoms[256];
	uint8_t ph_count[256], ph_cycles[256], ph_format[256];

	/* The bytes, the carry of a packet cut by a feed, sync; the zero
	 * bytes that ended the last packet (without data trace), for
	 * pft_stream_async_after(). */
	struct pkt_stream s;

	/* Packet-layer state. */
	uint32_t base_addr;
	enum pft_isa base_isa;
	uint8_t altis;
	uint32_t data_addr;
	uint64_t ts_raw;
};

/* Packets are cleared by copying this, not with memset: compilers turn a
 * memset of that size into a slow "rep stos". */
static const struct pft_etm3_packet empty_packet;

const char *pft_etm3_pkt_type_name(enum pft_etm3_packet_type type)
{
	static const char *const names[PFT_ETM3_PKT_TYPE_MAX] = {
		[PFT_ETM3_PKT_NOTSYNC] = "notsync",
		[PFT_ETM3_PKT_ASYNC] = "async",
		[PFT_ETM3_PKT_ISYNC] = "isync",
		[PFT_ETM3_PKT_PHEADER] = "pheader",
		[PFT_ETM3_PKT_BRANCH] = "branch",
		[PFT_ETM3_PKT_CYCLE_COUNT] = "cycle_count",
		[PFT_ETM3_PKT_CONTEXTID] = "ctxid",
		[PFT_ETM3_PKT_VMID] = "vmid",
		[PFT_ETM3_PKT_TIMESTAMP] = "timestamp",
		[PFT_ETM3_PKT_TRIGGER] = "trigger",
		[PFT_ETM3_PKT_IGNORE] = "ignore",
		[PFT_ETM3_PKT_EXCEPTION_ENTRY] = "exception_entry",
		[PFT_ETM3_PKT_EXCEPTION_RETURN] = "exception_return",
		[PFT_ETM3_PKT_DATA] = "data",
		[PFT_ETM3_PKT_DATA_OOO] = "data_ooo",
		[PFT_ETM3_PKT_DATA_PLACEHOLDER] = "data_placeholder",
		[PFT_ETM3_PKT_STORE_FAILED] = "store_failed",
		[PFT_ETM3_PKT_DATA_SUPPRESSED] = "data_suppressed",
		[PFT_ETM3_PKT_VALUE_NOT_TRACED] = "value_not_traced",
		[PFT_ETM3_PKT_BAD] = "error",
	};
	return (unsigned)type < PFT_ETM3_PKT_TYPE_MAX ? names[type] : "unknown";
}

/* One P-header entry: @n atoms from the list @e (1 = E), oldest first. */
static void set_pheader(struct pft_etm3_pkt_decoder *d, unsigned h, unsigned format,
			unsigned n, unsigned bits, unsigned cycles)
{
	d->kind[h] = HK_PHEADER;
	d->ph_format[h] = (uint8_t)format;
	d->ph_count[h] = (uint8_t)n;
	d->ph_atoms[h] = (uint16_t)bits;
	d->ph_cycles[h] = (uint8_t)cycles;
}

/* P-headers, section 4.1 (non-cycle-accurate) and 4.2 (cycle-accurate). */
static void build_pheaders(struct pft_etm3_pkt_decoder *d)
{
	for (unsigned h = 0x80; h < 0x100; h += 2) {
		if (!d->cfg.cycle_accurate) {
			if ((h & 0x83) == 0x80) {
				/* Format 1 b1NEEEE00: EEEE E atoms, then an N if N. */
				unsigned e = (h >> 2) & 0xf, nb = (h >> 6) & 1;
				set_pheader(d, h, 1, e + nb, (1u << e) - 1, 0);
			} else if ((h & 0xf3) == 0x82) {
				/* Format 2 b1000FF10: bit 3 older, bit 2 newer, 1 = N. */
				unsigned bits = (((h >> 3) & 1) ? 0 : 1) | (((h >> 2) & 1) ? 0 : 2);
				set_pheader(d, h, 2, 2, bits, 0);
			}
			continue;
		}
		if (h == 0x80) {
			/* Format 0: no atoms, no cycles (section 8.5). */
			set_pheader(d, h, 0, 0, 0, 0);
		} else if ((h & 0xa3) == 0x80) {
			/* Format 1 b1N0EEE00: EEE x WE, then WN if N. */
			unsigned e = (h >> 2) & 7, nb = (h >> 6) & 1;
			set_pheader(d, h, 1, e + nb, (1u << e) - 1, e + nb);
		} else if ((h & 0xf3) == 0x82) {
			/* Format 2 b1000FF10: W, then two atoms. */
			unsigned bits = (((h >> 3) & 1) ? 0 : 1) | (((h >> 2) & 1) ? 0 : 2);
			set_pheader(d, h, 2, 2, bits, 1);
		} else if ((h & 0xa3) == 0xa0) {
			/* Format 3 b1E1WWW00: WWW+1 W's, then an E if E. */
			unsigned e = (h >> 6) & 1;
			set_pheader(d, h, 3, e, e, ((h >> 2) & 7) + 1);
		} else if ((h & 0xb3) == 0x92) {
			/* Format 4: one atom, no W; bit 2 = N. */
			set_pheader(d, h, 4, 1, ((h >> 2) & 1) ? 0 : 1, 0);
		}
	}
}

static void build_tables(struct pft_etm3_pkt_decoder *d)
{
	const int data = d->cfg.data_value || d->cfg.data_address;

	memset(d->kind, HK_RESERVED, sizeof(d->kind));
	for (unsigned h = 0; h < 256; h++) {
		uint8_t k = HK_RESERVED;

		if (h & 1)
			k = HK_BRANCH;
		else if ((h & 0xd3) == 0x02)
			k = HK_DATA;
		else if ((h & 0x93) == 0x00 && (h & 0x60))
			k = HK_DATA_OOO;
		else if (h == 0x50)
			k = HK_STORE_FAILED;
		else if ((h & 0xd3) == 0x50)
			k = HK_PLACEHOLDER;
		else if (h == 0x62)
			k = HK_SUPPRESSED;
		else if ((h & 0xef) == 0x6a)
			k = HK_NOT_TRACED;
		if (k != HK_BRANCH && k != HK_RESERVED && !data)
			k = HK_DATA_DISABLED;
		switch (h) {
		case 0x00: k = HK_ZERO; break;
		case 0x04: k = d->cfg.cycle_accurate ? HK_CYCLE_COUNT : HK_RESERVED; break;
		case 0x08: k = HK_ISYNC; break;
		case 0x0c: k = HK_TRIGGER; break;
		case 0x70: k = HK_ISYNC_CC; break;
		case 0x3c: k = HK_VMID; break;
		case 0x42: case 0x46: k = HK_TIMESTAMP; break;
		case 0x6e: k = HK_CONTEXTID; break;
		case 0x66: k = HK_IGNORE; break;
		case 0x76: k = HK_EXC_RETURN; break;
		case 0x7e: k = HK_EXC_ENTRY; break;
		default: break;
		}
		d->kind[h] = k;
	}
	/* 0x80-0xfe even: P-headers where a format matches, else reserved. */
	for (unsigned h = 0x80; h < 0x100; h += 2)
		d->kind[h] = HK_RESERVED;
	build_pheaders(d);
}

struct pft_etm3_pkt_decoder *pft_etm3_pkt_alloc(const struct pft_etm3_config *cfg,
						int *errcode)
{
	struct pft_etm3_config c;
	struct pft_etm3_pkt_decoder *d =
		pft_stream_decoder_alloc(sizeof(*d), pft_etm3_config_copy(&c, cfg), errcode);

	if (d) {
		d->cfg = c;
		build_tables(d);
	}
	return d;
}

/* At most ZMAX of a cut packet's trailing zeros may begin an A-sync. */
PKT_DECODER_API(pft_etm3_pkt, struct pft_etm3_pkt_decoder, s, ZMAX)

/* ---- Field parsers: return the bytes used, 0 when @avail is too short,
 * or -(bytes) for a bad packet (pkt->bad set).  A bad packet always takes
 * the byte that made it bad, so a packet that needed more bytes never
 * turns out bad inside the bytes it had. ---- */

/* Cycle count (section 4.3): 7 bits a byte, bit 7 = more; the 5th byte
 * carries the last 4 bits. */
static int parse_count(const uint8_t *p, size_t avail, uint32_t *count)
{
	uint32_t c = 0;

	for (size_t j = 0; j < 5; j++) {
		if (j >= avail)
			return 0;
		if (j == 4) {
			c |= (uint32_t)(p[j] & 0xf) << 28;
			*count = c;
			return 5;
		}
		c |= (uint32_t)(p[j] & 0x7f) << (7 * j);
		if (!(p[j] & 0x80)) {
			*count = c;
			return (int)j + 1;
		}
	}
	return 0; /* not reached */
}

static enum pft_isa thumb_or_thumbee(uint8_t altis)
{
	return altis ? PFT_ISA_THUMBEE : PFT_ISA_THUMB;
}

/* The exception number in the deprecated 5th-byte form (b1CXXXAAA):
 * OpenCSD's reading; 2 and 3 are reserved (-1). */
static int deprecated_exception(unsigned x)
{
	static const int8_t numbers[8] = { PFT_EXC_RESET, PFT_EXC_IRQ, -1, -1,
					   PFT_EXC_THUMBEE_CHECK, PFT_EXC_FIQ,
					   PFT_EXC_ASYNC_DATA_ABORT, PFT_EXC_DEBUG_HALT };
	return numbers[x & 7];
}

/*
 * Address bytes of a branch packet (section 4.5) at p[0], compressed
 * against @base/@base_isa.  Fills addr, isa, addr_bytes (and, for the
 * deprecated exception form, exception and cancel); *@exc_follows tells
 * whether exception bytes follow.
 */
static int parse_address(const struct pft_etm3_pkt_decoder *d, const uint8_t *p,
			 size_t avail, uint32_t base, enum pft_isa base_isa,
			 struct pft_etm3_packet *pkt, int *exc_follows)
{
	size_t k = 1;

	if (!avail)
		return 0;
	while (k < 5 && (p[k - 1] & 0x80)) {
		if (k >= avail)
			return 0;
		k++;
	}
	enum pft_isa isa = base_isa;
	*exc_follows = 0;
	if (k == 5) {
		const uint8_t b = p[4];
		if (b & 0x80) {
			int x = deprecated_exception(b >> 3);
			if (x < 0) {
				pkt->bad = PFT_ERR_PKT_BAD_ISA;
				return -5;
			}
			isa = PFT_ISA_ARM;
			pkt->exception = (uint16_t)x;
			pkt->cancel = (b >> 6) & 1;
		} else if ((b & 0xb8) == 0x08) {
			isa = PFT_ISA_ARM;
		} else if ((b & 0xb0) == 0x10) {
			isa = thumb_or_thumbee(d->altis);
		} else if ((b & 0xa0) == 0x20) {
			isa = PFT_ISA_JAZELLE;
		} else {
			pkt->bad = PFT_ERR_PKT_BAD_ISA;
			return -5;
		}
		if (!(b & 0x80))
			*exc_follows = (b >> 6) & 1;
	} else if (d->cfg.alt_branch && k >= 2) {
		*exc_follows = (p[k - 1] >> 6) & 1;
	}
	const unsigned shift = isa == PFT_ISA_ARM ? 2 : isa == PFT_ISA_JAZELLE ? 0 : 1;
	uint32_t v = (uint32_t)((p[0] >> 1) & 0x3f) << shift;
	unsigned nbits = 6 + shift;
	for (size_t i = 1; i < k; i++) {
		if (i == 4) {
			v |= (uint32_t)(p[i] & ((1u << (32 - nbits)) - 1)) << nbits;
			nbits = 32;
		} else if (d->cfg.alt_branch && i == k - 1) {
			v |= (uint32_t)(p[i] & 0x3f) << nbits;
			nbits += 6;
		} else {
			v |= (uint32_t)(p[i] & 0x7f) << nbits;
			nbits += 7;
		}
	}
	if (nbits >= 32) {
		pkt->addr = v;
	} else {
		uint32_t mask = (1u << nbits) - 1;
		pkt->addr = (base & ~mask) | (v & mask);
	}
	pkt->isa = (uint8_t)isa;
	pkt->addr_bytes = (uint8_t)k;
	return (int)k;
}

static int parse_branch(const struct pft_etm3_pkt_decoder *d, const uint8_t *p, size_t avail,
			struct pft_etm3_packet *pkt)
{
	int exc_follows;
	int n = parse_address(d, p, avail, d->base_addr, d->base_isa, pkt, &exc_follows);

	if (n <= 0 || !exc_follows)
		return n;
	/* Exception bytes: E0, then E1 and/or E2 while bit 7 is set; a byte
	 * with bit 6 set after E0 is E2 (E1 skipped). */
	size_t k = (size_t)n;
	if (k >= avail)
		return 0;
	const uint8_t e0 = p[k++];
	pkt->exc_bytes = 1;
	pkt->ns = e0 & 1;
	pkt->exception = (e0 >> 1) & 0xf;
	pkt->cancel = (e0 >> 5) & 1;
	pkt->altis = (e0 >> 6) & 1;
	uint8_t more = e0 & 0x80;
	if (more) {
		if (k >= avail)
			return 0;
		const uint8_t e = p[k++];
		pkt->exc_bytes = 2;
		if (e & 0x40) {
			pkt->resume = e & 0xf;
			more = 0;
		} else {
			pkt->exception |= (uint16_t)((e & 0x1f) << 4);
			pkt->hyp = (e >> 5) & 1;
			more = e & 0x80;
		}
	}
	if (more) {
		if (k >= avail)
			return 0;
		pkt->resume = p[k++] & 0xf;
		pkt->exc_bytes = 3;
	}
	if (pkt->isa == PFT_ISA_THUMB || pkt->isa == PFT_ISA_THUMBEE)
		pkt->isa = (uint8_t)thumb_or_thumbee(pkt->altis);
	return (int)k;
}

/* I-sync (section 4.4): hdr [cc] ctxid info addr[4] [LSiP address]. */
static int parse_isync(const struct pft_etm3_pkt_decoder *d, const uint8_t *p, size_t avail,
		       struct pft_etm3_packet *pkt)
{
	size_t n = 1;

	if (p[0] == 0x70) {
		int c = parse_count(p + 1, avail - 1, &pkt->cycles);
		if (c <= 0)
			return c;
		pkt->has_cycles = 1;
		n += (size_t)c;
	}
	const size_t fixed = d->cfg.ctxid_bytes + 1u + (d->cfg.data_only ? 0u : 4u);
	if (avail - n < fixed)
		return 0;
	pkt->ctxid = pkt_le32(p + n, d->cfg.ctxid_bytes);
	pkt->has_ctxid = d->cfg.ctxid_bytes != 0;
	n += d->cfg.ctxid_bytes;
	const uint8_t info = p[n++];
	pkt->reason = (info >> 5) & 3;
	pkt->jazelle = (info >> 4) & 1;
	pkt->ns = (info >> 3) & 1;
	/* AltISA from v3.3, Hyp with the Virtualization Extensions. */
	pkt->altis = d->cfg.version_minor >= 3 ? (info >> 2) & 1 : 0;
	pkt->hyp = d->cfg.virtualization ? (info >> 1) & 1 : 0;
	pkt->lsip = (info >> 7) & 1;
	if (d->cfg.data_only)
		return (int)n;
	uint32_t a = pkt_le32(p + n, 4);
	n += 4;
	enum pft_isa isa;
	if (pkt->jazelle) {
		isa = PFT_ISA_JAZELLE; /* byte-aligned: bit 0 is an address bit */
	} else if (a & 1) {
		isa = thumb_or_thumbee(pkt->altis);
		a &= ~1u;
	} else {
		isa = PFT_ISA_ARM;
	}
	pkt->addr = a;
	pkt->isa = (uint8_t)isa;
	if (pkt->lsip) {
		/* The continuation address, in branch-address form against the
		 * load/store's address. */
		struct pft_etm3_packet tmp = { 0 };
		int exc_follows;
		int m = parse_address(d, p + n, avail - n, a, isa, &tmp, &exc_follows);
		if (m == 0)
			return 0;
		if (m < 0) {
			pkt->bad = tmp.bad;
			return -(int)(n + (size_t)-m);
		}
		pkt->lsip_addr = tmp.addr;
		n += (size_t)m;
	}
	return (int)n;
}

/* A data address (section 4.11) at p[0] when @present and addresses are
 * traced: 7 bits a byte with bit 7 = more; the 5th byte holds A[31:28]. */
static int parse_data_addr(const struct pft_etm3_pkt_decoder *d, const uint8_t *p,
			   size_t avail, int present, struct pft_etm3_packet *pkt)
{
	uint32_t v = 0;
	unsigned nbits = 0;
	size_t j = 0;

	if (!present || !d->cfg.data_address)
		return 0;
	for (;; j++) {
		if (j >= avail)
			return -1;
		if (j == 4) {
			v |= (uint32_t)(p[j] & 0xf) << 28;
			nbits = 32;
			j++;
			break;
		}
		v |= (uint32_t)(p[j] & 0x7f) << nbits;
		nbits += 7;
		if (!(p[j] & 0x80)) {
			j++;
			break;
		}
	}
	uint32_t mask = nbits >= 32 ? ~0u : (1u << nbits) - 1;
	pkt->addr = (d->data_addr & ~mask) | (v & mask);
	pkt->has_data_addr = 1;
	return (int)j;
}

/* Data packets: [address] then @value_bytes value bytes. */
static int parse_data(const struct pft_etm3_pkt_decoder *d, const uint8_t *p, size_t avail,
		      int addr_present, unsigned value_bytes, struct pft_etm3_packet *pkt)
{
	int a = parse_data_addr(d, p + 1, avail - 1, addr_present, pkt);

	if (a < 0)
		return 0;
	size_t n = 1 + (size_t)a;
	if (avail - n < value_bytes)
		return 0;
	for (unsigned i = 0; i < value_bytes; i++)
		pkt->value |= (uint32_t)p[n + i] << (8 * i);
	pkt->value_bytes = (uint8_t)value_bytes;
	return (int)(n + value_bytes);
}

static const uint8_t value_sizes[4] = { 0, 1, 2, 4 };

/* Zeros while synchronised: an A-sync is 5-ZMAX zeros and 0x80. */
static int parse_zeros(const uint8_t *p, size_t avail, struct pft_etm3_packet *pkt)
{
	size_t z = 0;

	while (z < avail && z <= ZMAX && p[z] == 0)
		z++;
	pkt->type = PFT_ETM3_PKT_BAD;
	pkt->bad = PFT_ERR_PKT_ASYNC;
	if (z > ZMAX)
		return -1; /* the rest may still be an A-sync: rescan */
	if (z == avail)
		return 0;
	if (p[z] == 0x80 && z >= 5) {
		pkt->type = PFT_ETM3_PKT_ASYNC;
		pkt->bad = 0;
		return (int)z + 1;
	}
	return -(int)(z + (p[z] == 0x80));
}

/* @pkt is of @type; returns @n (its size, or -1: a bad one-byte packet). */
static int typed(struct pft_etm3_packet *pkt, enum pft_etm3_packet_type type, int n)
{
	pkt->type = (uint8_t)type;
	return n;
}

/* The packet at p[0] (synchronised). */
static int parse_packet(const struct pft_etm3_pkt_decoder *d, const uint8_t *p, size_t avail,
			struct pft_etm3_packet *pkt)
{
	const uint8_t h = p[0];
	struct pft_stream_id id;
	int n;

	/* Damage can make a packet swallow the first zeros of an A-sync (a
	 * branch address or cycle count that goes on over them).  Without
	 * data trace no packet holds five zero bytes (section 3.3: 47 zeros
	 * and a one realign). */
	if ((h == 0 || h == 0x80) && d->s.zeros_behind) {
		size_t a = pft_stream_async_after(p, avail, d->s.zeros_behind);
		if (a) {
			pkt->type = PFT_ETM3_PKT_ASYNC;
			return (int)a;
		}
	}

	switch ((enum header_kind)d->kind[h]) {
	case HK_PHEADER:
		pkt->type = PFT_ETM3_PKT_PHEADER;
		pkt->n_atoms = d->ph_count[h];
		pkt->atoms = d->ph_atoms[h];
		pkt->cycles = d->ph_cycles[h];
		pkt->format = d->ph_format[h];
		return 1;
	case HK_BRANCH:
		pkt->type = PFT_ETM3_PKT_BRANCH;
		return parse_branch(d, p, avail, pkt);
	case HK_ISYNC:
	case HK_ISYNC_CC:
		pkt->type = PFT_ETM3_PKT_ISYNC;
		return parse_isync(d, p, avail, pkt);
	case HK_CYCLE_COUNT:
		pkt->type = PFT_ETM3_PKT_CYCLE_COUNT;
		n = parse_count(p + 1, avail - 1, &pkt->cycles);
		return n > 0 ? n + 1 : n;
	case HK_TIMESTAMP:
		/* Section 4.8: as for PTM, without a cycle count. */
		pkt->type = PFT_ETM3_PKT_TIMESTAMP;
		return (int)pft_trace_ts_parse(p, avail, d->cfg.ts_64bit, d->cfg.ts_gray,
					       d->ts_raw, &pkt->ts_raw, &pkt->ts, &pkt->ts_bits,
					       &pkt->ts_clock_change);
	case HK_CONTEXTID:
		id = pft_stream_id_payload(p, avail, d->cfg.ctxid_bytes);
		pkt->ctxid = id.id;
		pkt->has_ctxid = 1;
		return typed(pkt, PFT_ETM3_PKT_CONTEXTID, (int)id.size);
	case HK_VMID:
		id = pft_stream_id_payload(p, avail, 1);
		pkt->vmid = (uint8_t)id.id;
		return typed(pkt, PFT_ETM3_PKT_VMID, (int)id.size);
	case HK_TRIGGER:
		return typed(pkt, PFT_ETM3_PKT_TRIGGER, 1);
	case HK_IGNORE:
		return typed(pkt, PFT_ETM3_PKT_IGNORE, 1);
	case HK_EXC_RETURN:
		return typed(pkt, PFT_ETM3_PKT_EXCEPTION_RETURN, 1);
	case HK_EXC_ENTRY:
		return typed(pkt, PFT_ETM3_PKT_EXCEPTION_ENTRY, 1);
	case HK_STORE_FAILED:
		return typed(pkt, PFT_ETM3_PKT_STORE_FAILED, 1);
	case HK_SUPPRESSED:
		return typed(pkt, PFT_ETM3_PKT_DATA_SUPPRESSED, 1);
	case HK_DATA: /* b00A0SS10 */
		pkt->type = PFT_ETM3_PKT_DATA;
		return parse_data(d, p, avail, (h >> 5) & 1, value_sizes[(h >> 2) & 3], pkt);
	case HK_DATA_OOO: /* b0TT0SS00 */
		pkt->type = PFT_ETM3_PKT_DATA_OOO;
		pkt->tag = (h >> 5) & 3;
		return parse_data(d, p, avail, 0, value_sizes[(h >> 2) & 3], pkt);
	case HK_PLACEHOLDER: /* b01A1TT00 */
		pkt->type = PFT_ETM3_PKT_DATA_PLACEHOLDER;
		pkt->tag = (h >> 2) & 3;
		return parse_data(d, p, avail, (h >> 5) & 1, 0, pkt);
	case HK_NOT_TRACED: /* b011A1010 */
		pkt->type = PFT_ETM3_PKT_VALUE_NOT_TRACED;
		return parse_data(d, p, avail, (h >> 4) & 1, 0, pkt);
	case HK_ZERO:
		return parse_zeros(p, avail, pkt);
	case HK_DATA_DISABLED:
		pkt->bad = PFT_ERR_PKT_DATA_DISABLED;
		return typed(pkt, PFT_ETM3_PKT_BAD, -1);
	default: /* HK_RESERVED */
		pkt->bad = PFT_ERR_PKT_RESERVED_HEADER;
		return typed(pkt, PFT_ETM3_PKT_BAD, -1);
	}
}

/* Apply a complete packet to the packet-layer state. */
static void commit(struct pft_etm3_pkt_decoder *d, const struct pft_etm3_packet *pkt)
{
	switch (pkt->type) {
	case PFT_ETM3_PKT_ISYNC:
		if (d->cfg.data_only)
			break;
		d->altis = pkt->altis;
		d->base_addr = pkt->lsip ? pkt->lsip_addr : pkt->addr;
		d->base_isa = (enum pft_isa)pkt->isa;
		break;
	case PFT_ETM3_PKT_BRANCH:
		if (pkt->exc_bytes)
			d->altis = pkt->altis;
		d->base_addr = pkt->addr;
		d->base_isa = (enum pft_isa)pkt->isa;
		break;
	case PFT_ETM3_PKT_TIMESTAMP:
		d->ts_raw = pkt->ts_raw;
		break;
	default:
		if (pkt->has_data_addr)
			d->data_addr = pkt->addr;
		break;
	}
}

/* A synchronised packet or bad packet of @n bytes at @raw: the result. */
static int deliver(void *dv, void *pv, int n, const uint8_t *raw, uint64_t offset)
{
	struct pft_etm3_pkt_decoder *d = dv;
	struct pft_etm3_packet *pkt = pv;

	if (n < 0) {
		/* Only the reason: fields parsed before the fault mean nothing. */
		const uint8_t bad = pkt->bad;
		memset(pkt, 0, sizeof(*pkt));
		pkt->type = PFT_ETM3_PKT_BAD;
		pkt->bad = bad;
	}
	pkt->raw = raw;
	pkt->size = (uint16_t)(n > 0 ? n : -n);
	pkt->offset = offset;
	d->s.zeros_behind = 0;
	/* A bad packet's trailing zeros count too: the damage that made it
	 * may have swallowed an A-sync's first zeros (pft_stream_scan()). */
	if (!d->cfg.data_value && !d->cfg.data_address && pkt->type != PFT_ETM3_PKT_ASYNC)
		while (d->s.zeros_behind < 4 && d->s.zeros_behind < pkt->size &&
		       !raw[pkt->size - 1 - d->s.zeros_behind])
			d->s.zeros_behind++;
	if (n < 0) {
		d->s.synced = 0;
		return pft_stream_bad_status(pkt->bad);
	}
	commit(d, pkt);
	return 0;
}

/* The protocol's part of the stream's loop (core/pft_pkt_stream.h). */
static int decode(const void *d, const uint8_t *p, size_t avail, size_t pos, void *pkt)
{
	(void)pos;
	return parse_packet(d, p, avail, pkt);
}

static void clear(void *pkt)
{
	*(struct pft_etm3_packet *)pkt = empty_packet;
}

static int emit(void *pv, const struct pkt_span *sp)
{
	struct pft_etm3_packet *pkt = pv;
	int status = 0;

	switch (sp->kind) {
	case PKT_SPAN_NOTSYNC:
		pkt->type = PFT_ETM3_PKT_NOTSYNC;
		break;
	case PKT_SPAN_ASYNC:
		pkt->type = PFT_ETM3_PKT_ASYNC;
		break;
	case PKT_SPAN_TRUNCATED:
		clear(pkt);
		pkt->type = PFT_ETM3_PKT_BAD;
		pkt->bad = PFT_ERR_PKT_TRUNCATED;
		status = -PFT_ERR_TRUNCATED;
		break;
	}
	pkt->raw = sp->raw;
	pkt->size = (uint16_t)sp->size;
	pkt->offset = sp->offset;
	return status;
}

/* No .hold, no .need: the zeros before a packet are s.zeros_behind. */
static const struct pkt_proto etm3_proto = {
	.decode = decode, .deliver = deliver, .emit = emit, .clear = clear, .pkt_max = PKT_MAX
};

/* Synchronised, nothing carried, a whole packet's worth of bytes ahead:
 * no feed boundary can cut the packet.  P-headers, most packets, are
 * written in one go. */
static __attribute__((noinline)) int next_in_buffer(struct pft_etm3_pkt_decoder *d,
						    struct pft_etm3_packet *pkt)
{
	const uint8_t *p = d->s.buf + d->s.pos;
	const uint8_t h = *p;
	const uint64_t offset = d->s.buf_offset + d->s.pos;

	if (d->kind[h] == HK_PHEADER && !d->s.zeros_behind) {
		*pkt = empty_packet;
		pkt->offset = offset;
		pkt->raw = p;
		pkt->size = 1;
		pkt->type = PFT_ETM3_PKT_PHEADER;
		pkt->n_atoms = d->ph_count[h];
		pkt->atoms = d->ph_atoms[h];
		pkt->cycles = d->ph_cycles[h];
		pkt->format = d->ph_format[h];
		d->s.pos++;
		return 0;
	}
	*pkt = empty_packet;
	int n = parse_packet(d, p, d->s.len - d->s.pos, pkt);
	if (n == 0)
		return -PFT_ERR_INTERNAL; /* longer than any packet */
	d->s.pos += (size_t)(n > 0 ? n : -n);
	return deliver(d, pkt, n, p, offset);
}

/* Everything but the packets whole in the buffer; out of line, so that
 * the fast path keeps a small frame. */
static __attribute__((noinline)) int next_slow(struct pft_etm3_pkt_decoder *d,
					       struct pft_etm3_packet *pkt, size_t size)
{
	struct pft_etm3_packet full;

	if (!d || !pkt || size < PFT_FIRST_SIZE(struct pft_etm3_packet))
		return -PFT_ERR_INVALID;
	if (size >= sizeof(*pkt))
		return pft_stream_next(&d->s, &etm3_proto, d, pkt);
	/* A caller's shorter (older) packet: decode whole, copy its part. */
	int status = pft_stream_next(&d->s, &etm3_proto, d, &full);
	pft_copy_known(pkt, &full, size, sizeof(full));
	return status;
}

int pft_etm3_pkt_next(struct pft_etm3_pkt_decoder *d, struct pft_etm3_packet *pkt, size_t size)
{
	if (d && pkt && size >= sizeof(*pkt) && d->s.synced && !d->s.ncarry &&
	    !d->s.carry_notsync && d->s.len - d->s.pos >= PKT_MAX)
		return next_in_buffer(d, pkt);
	return next_slow(d, pkt, size);
}

void pft_etm3_pkt_sync_state(const struct pft_etm3_pkt_decoder *d,
			     struct etm3_pkt_sync_state *s)
{
	memset(s, 0, sizeof(*s));
	s->ts_raw = d->ts_raw;
	s->base_addr = d->base_addr;
	s->data_addr = d->data_addr;
	/* Unsynchronised, the carry holds zeros that may begin an A-sync
	 * (after the bytes of a cut packet still to give as NOTSYNC). */
	if (!d->s.synced)
		s->zpend = (uint32_t)(d->s.ncarry - d->s.carry_notsync - d->s.carry_shift);
	s->synced = (uint8_t)d->s.synced;
	s->base_isa = (uint8_t)d->base_isa;
	s->altis = d->altis;
	s->zeros_behind = d->s.zeros_behind;
	s->zprior = d->s.held_prior;
}
