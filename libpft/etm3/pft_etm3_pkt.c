/*
 * ETMv3 packet decoder: bytes of one trace source -> packets
 * (shared/spec/etmv3-protocol.md sections 3 and 4; doc/etmv3.md).
 *
 * The same streaming shape as the PFT decoder: packets are decoded in
 * place in the caller's buffer, a packet cut by a feed goes to a small
 * carry buffer, and unsynchronised bytes come back as NOTSYNC up to the
 * next A-sync.  Memory is constant.
 */
#include <string.h>
#include <stdlib.h>

#include "pft.h"
#include "core/pft_trace_common.h"
#include "etm3/pft_etm3_config.h"
#include "etm3/pft_etm3_sync.h"
#include "common/pft_size.h"

enum {
	/* Zeros we accept in one A-sync (five are required). */
	ZMAX = 15,
	/* The longest packet: 0x70, 5 count bytes, 4 ctxid bytes, info,
	 * 4 address bytes, 5 LSiP address bytes. */
	PKT_MAX = 20,
	CARRY_MAX = 2 * PKT_MAX,
	NOTSYNC_MAX = 16
};

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

	const uint8_t *buf;
	size_t len, pos;
	uint64_t buf_offset;
	int finished;
	int synced;

	/* A packet cut by a feed (synchronised). */
	uint8_t carry[CARRY_MAX];
	size_t ncarry;
	uint64_t carry_offset;
	size_t carry_notsync;   /* after sync_forward: carried bytes to report */
	/* Unsynchronised: zeros seen at the end of earlier input that may
	 * begin an A-sync (at most ZMAX). */
	size_t zpend;
	uint64_t zoff;

	/* Packet-layer state. */
	uint32_t base_addr;
	enum pft_isa base_isa;
	uint8_t altis;
	uint32_t data_addr;
	uint64_t ts_raw;
	/* Zero bytes that ended the last packet (at most 4), without data
	 * trace: see async_across_packets(). */
	uint8_t zeros_behind;
	/* zeros_behind while the zeros after a bad packet are held (zpend):
	 * they and these may make an A-sync. */
	uint8_t zprior;
};

static const uint8_t zero_bytes[ZMAX + 1];
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
	struct pft_etm3_pkt_decoder *d = NULL;
	int err = pft_etm3_config_copy(&c, cfg);

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
	return d;
}

void pft_etm3_pkt_free(struct pft_etm3_pkt_decoder *d)
{
	free(d);
}

int pft_etm3_pkt_reset(struct pft_etm3_pkt_decoder *d)
{
	if (!d)
		return -PFT_ERR_INVALID;
	size_t keep = offsetof(struct pft_etm3_pkt_decoder, buf);
	memset((uint8_t *)d + keep, 0, sizeof(*d) - keep);
	return 0;
}

int pft_etm3_pkt_feed_at(struct pft_etm3_pkt_decoder *d, const uint8_t *buf, size_t len,
			 uint64_t offset)
{
	if (!d || (!buf && len))
		return -PFT_ERR_INVALID;
	if (d->finished)
		return -PFT_ERR_EOS;
	d->buf = buf;
	d->len = len;
	d->pos = 0;
	d->buf_offset = offset;
	return 0;
}

int pft_etm3_pkt_feed(struct pft_etm3_pkt_decoder *d, const uint8_t *buf, size_t len)
{
	if (!d)
		return -PFT_ERR_INVALID;
	return pft_etm3_pkt_feed_at(d, buf, len, d->buf_offset + d->len);
}

int pft_etm3_pkt_finish(struct pft_etm3_pkt_decoder *d)
{
	if (!d)
		return -PFT_ERR_INVALID;
	d->finished = 1;
	return 0;
}

int pft_etm3_pkt_sync_forward(struct pft_etm3_pkt_decoder *d)
{
	if (!d)
		return -PFT_ERR_INVALID;
	if (d->synced && d->ncarry) {
		/* The carried bytes become NOTSYNC, but trailing zeros may
		 * still begin an A-sync. */
		size_t z = 0;
		while (z < d->ncarry && z < ZMAX && d->carry[d->ncarry - 1 - z] == 0)
			z++;
		d->zpend = z;
		d->zoff = d->carry_offset + d->ncarry - z;
		d->carry_notsync = d->ncarry - z;
		d->ncarry = 0;
	}
	d->synced = 0;
	return 0;
}

uint64_t pft_etm3_pkt_get_offset(const struct pft_etm3_pkt_decoder *d)
{
	if (!d)
		return 0;
	if (d->carry_notsync || d->ncarry)
		return d->carry_offset;
	if (d->zpend)
		return d->zoff;
	return d->buf_offset + d->pos;
}

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
	for (unsigned i = 0; i < d->cfg.ctxid_bytes; i++)
		pkt->ctxid |= (uint32_t)p[n + i] << (8 * i);
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
	uint32_t a = (uint32_t)p[n] | (uint32_t)p[n + 1] << 8 | (uint32_t)p[n + 2] << 16 |
		     (uint32_t)p[n + 3] << 24;
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

/* Timestamp (section 4.8): 7 bits a byte with bit 7 = more; the last of
 * 7 (48-bit) or 9 (64-bit) bytes carries 6 or 8 bits. */
static int parse_timestamp(const struct pft_etm3_pkt_decoder *d, const uint8_t *p,
			   size_t avail, struct pft_etm3_packet *pkt)
{
	size_t n = trace_ts_parse(p, avail, d->cfg.ts_64bit, d->cfg.ts_gray, d->ts_raw,
				  &pkt->ts_raw, &pkt->ts, &pkt->ts_bits);

	if (!n)
		return 0;
	pkt->ts_clock_change = (p[0] >> 2) & 1;
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

static int simple(struct pft_etm3_packet *pkt, enum pft_etm3_packet_type type)
{
	pkt->type = (uint8_t)type;
	return 1;
}

/*
 * Damage can make a packet swallow the first zeros of an A-sync (a branch
 * address or cycle count that goes on over them).  Without data trace no
 * packet holds five zero bytes (section 3.3: 47 zeros and a one realign),
 * so zeros and 0x80 at @p that make five zero bytes with the @prior ones
 * that ended the last packet are an A-sync.  Returns its length, or 0.
 */
static size_t async_across_packets(const uint8_t *p, size_t avail, unsigned prior)
{
	size_t z = 0;

	while (z < avail && z < 5 && p[z] == 0)
		z++;
	if (z >= 5 || z >= avail || p[z] != 0x80)
		return 0; /* a whole A-sync, or none: the usual rules apply */
	return z + prior >= 5 ? z + 1 : 0;
}

/* The packet at p[0] (synchronised). */
static int parse_packet(const struct pft_etm3_pkt_decoder *d, const uint8_t *p, size_t avail,
			struct pft_etm3_packet *pkt)
{
	const uint8_t h = p[0];
	int n;

	if ((h == 0 || h == 0x80) && d->zeros_behind) {
		size_t a = async_across_packets(p, avail, d->zeros_behind);
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
		pkt->type = PFT_ETM3_PKT_TIMESTAMP;
		return parse_timestamp(d, p, avail, pkt);
	case HK_CONTEXTID:
		pkt->type = PFT_ETM3_PKT_CONTEXTID;
		if (avail < 1u + d->cfg.ctxid_bytes)
			return 0;
		for (unsigned i = 0; i < d->cfg.ctxid_bytes; i++)
			pkt->ctxid |= (uint32_t)p[1 + i] << (8 * i);
		pkt->has_ctxid = 1;
		return 1 + d->cfg.ctxid_bytes;
	case HK_VMID:
		pkt->type = PFT_ETM3_PKT_VMID;
		if (avail < 2)
			return 0;
		pkt->vmid = p[1];
		return 2;
	case HK_TRIGGER:
		return simple(pkt, PFT_ETM3_PKT_TRIGGER);
	case HK_IGNORE:
		return simple(pkt, PFT_ETM3_PKT_IGNORE);
	case HK_EXC_RETURN:
		return simple(pkt, PFT_ETM3_PKT_EXCEPTION_RETURN);
	case HK_EXC_ENTRY:
		return simple(pkt, PFT_ETM3_PKT_EXCEPTION_ENTRY);
	case HK_STORE_FAILED:
		return simple(pkt, PFT_ETM3_PKT_STORE_FAILED);
	case HK_SUPPRESSED:
		return simple(pkt, PFT_ETM3_PKT_DATA_SUPPRESSED);
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
		pkt->type = PFT_ETM3_PKT_BAD;
		pkt->bad = PFT_ERR_PKT_DATA_DISABLED;
		return -1;
	case HK_RESERVED:
		break;
	}
	pkt->type = PFT_ETM3_PKT_BAD;
	pkt->bad = PFT_ERR_PKT_RESERVED_HEADER;
	return -1;
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

static int bad_status(const struct pft_etm3_packet *pkt)
{
	switch (pkt->bad) {
	case PFT_ERR_PKT_RESERVED_HEADER:
	case PFT_ERR_PKT_DATA_DISABLED:
		return -PFT_ERR_BAD_OPCODE;
	case PFT_ERR_PKT_TRUNCATED:
		return -PFT_ERR_TRUNCATED;
	default:
		return -PFT_ERR_BAD_PACKET;
	}
}

static int notsync(struct pft_etm3_packet *pkt, const uint8_t *raw, size_t n, uint64_t offset)
{
	pkt->type = PFT_ETM3_PKT_NOTSYNC;
	pkt->raw = raw;
	pkt->size = (uint16_t)n;
	pkt->offset = offset;
	return 0;
}

/* The A-sync of @size bytes at @raw (input offset @offset) that ends the
 * search for synchronisation. */
static int found_async(struct pft_etm3_pkt_decoder *d, struct pft_etm3_packet *pkt,
		       const uint8_t *raw, size_t size, uint64_t offset)
{
	pkt->type = PFT_ETM3_PKT_ASYNC;
	pkt->raw = raw;
	pkt->size = (uint16_t)size;
	pkt->offset = offset;
	d->synced = 1;
	return 0;
}

/* Unsynchronised, with zeros held from earlier input (section 3.3). */
static int scan_held_zeros(struct pft_etm3_pkt_decoder *d, struct pft_etm3_packet *pkt)
{
	const uint8_t *b = d->buf + d->pos;
	const size_t avail = d->len - d->pos;
	size_t z = 0;

	while (z < avail && z <= ZMAX && b[z] == 0)
		z++;
	const size_t total = d->zpend + z;
	size_t drop = d->zpend; /* held zeros that cannot start an A-sync */
	const unsigned prior = d->zprior;

	d->zprior = 0;
	if (z < avail && z <= ZMAX && b[z] == 0x80 && total + prior >= 5 && total <= ZMAX) {
		memset(d->carry, 0, total);
		d->carry[total] = 0x80;
		d->pos += z + 1;
		d->zpend = 0;
		return found_async(d, pkt, d->carry, total + 1, d->zoff);
	}
	if (total > ZMAX && (z == avail || b[z] == 0x80)) {
		/* The newest ZMAX zeros may still be (or begin) an A-sync. */
		drop = total - ZMAX < d->zpend ? total - ZMAX : d->zpend;
	} else if (z == avail) {
		/* More zeros may come. */
		d->zpend = total;
		d->zprior = (uint8_t)prior;
		d->pos = d->len;
		return -PFT_ERR_NEED_INPUT;
	}
	notsync(pkt, zero_bytes, drop, d->zoff);
	d->zpend -= drop;
	d->zoff += drop;
	return 0;
}

/* Unsynchronised: find >= 5 zeros and 0x80 from buf[pos]; bytes before it
 * are NOTSYNC (at most NOTSYNC_MAX a packet). */
static int scan_unsynced(struct pft_etm3_pkt_decoder *d, struct pft_etm3_packet *pkt)
{
	if (d->zpend) {
		/* Zeros a bad packet left in the carry: held, with its own. */
		if (d->zeros_behind) {
			d->zprior = d->zeros_behind;
			d->zeros_behind = 0;
		}
		return scan_held_zeros(d, pkt);
	}

	const uint8_t *b = d->buf;
	const size_t pos = d->pos;
	const size_t window = NOTSYNC_MAX + ZMAX + 1;
	const unsigned prior = d->zeros_behind;

	d->zeros_behind = 0;
	if (prior) {
		size_t a = async_across_packets(b + pos, d->len - pos, prior);
		if (a) {
			d->pos = pos + a;
			return found_async(d, pkt, b + pos, a, d->buf_offset + pos);
		}
	}
	const size_t end = d->len - pos > window ? pos + window : d->len;
	size_t run = 0, i;

	for (i = pos; i < end; i++) {
		if (b[i] == 0) {
			run++;
			continue;
		}
		if (b[i] == 0x80 && run >= 5)
			break;
		run = 0;
	}
	const size_t zeros = run > ZMAX ? ZMAX : run;
	size_t stop;
	if (i < end) {
		stop = i - zeros;
		if (stop == pos) {
			d->pos = i + 1;
			return found_async(d, pkt, b + pos, zeros + 1, d->buf_offset + pos);
		}
	} else {
		stop = end - zeros;
		if (stop == pos) {
			/* Only zeros up to the end of the input: hold them. */
			d->zpend = zeros;
			d->zprior = (uint8_t)prior;
			d->zoff = d->buf_offset + pos;
			d->pos = d->len;
			return -PFT_ERR_NEED_INPUT;
		}
	}
	if (stop - pos > NOTSYNC_MAX)
		stop = pos + NOTSYNC_MAX;
	d->pos = stop;
	return notsync(pkt, b + pos, stop - pos, d->buf_offset + pos);
}

/* A synchronised packet or bad packet of @n bytes at @raw: the result. */
static int deliver(struct pft_etm3_pkt_decoder *d, struct pft_etm3_packet *pkt, int n,
		   const uint8_t *raw, uint64_t offset)
{
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
	d->zeros_behind = 0;
	/* A bad packet's trailing zeros count too: the damage that made it
	 * may have swallowed an A-sync's first zeros (scan_unsynced()). */
	if (!d->cfg.data_value && !d->cfg.data_address && pkt->type != PFT_ETM3_PKT_ASYNC)
		while (d->zeros_behind < 4 && d->zeros_behind < pkt->size &&
		       !raw[pkt->size - 1 - d->zeros_behind])
			d->zeros_behind++;
	if (n < 0) {
		d->synced = 0;
		return bad_status(pkt);
	}
	commit(d, pkt);
	return 0;
}

static int truncated(struct pft_etm3_pkt_decoder *d, struct pft_etm3_packet *pkt)
{
	memset(pkt, 0, sizeof(*pkt));
	pkt->type = PFT_ETM3_PKT_BAD;
	pkt->bad = PFT_ERR_PKT_TRUNCATED;
	pkt->raw = d->carry;
	pkt->size = (uint16_t)d->ncarry;
	pkt->offset = d->carry_offset;
	d->ncarry = 0;
	d->synced = 0;
	return -PFT_ERR_TRUNCATED;
}

/* Finish the packet in the carry with bytes of the new input. */
static int resolve_carry(struct pft_etm3_pkt_decoder *d, struct pft_etm3_packet *pkt)
{
	const size_t avail = d->len - d->pos;
	size_t take = CARRY_MAX - d->ncarry;

	if (take > avail)
		take = avail;
	memcpy(d->carry + d->ncarry, d->buf + d->pos, take);
	const size_t have = d->ncarry + take;
	int n = parse_packet(d, d->carry, have, pkt);

	if (n == 0) {
		if (take < avail)
			return -PFT_ERR_INTERNAL; /* longer than any packet */
		d->ncarry = have;
		d->pos = d->len;
		return -PFT_ERR_NEED_INPUT;
	}
	const size_t used = (size_t)(n > 0 ? n : -n);
	const uint64_t offset = d->carry_offset;
	if (used >= d->ncarry) {
		d->pos += used - d->ncarry;
	} else {
		/* Only a zero run too long for an A-sync ends inside the
		 * carried bytes; its other zeros are rescanned. */
		for (size_t i = used; i < d->ncarry; i++)
			if (d->carry[i] != 0)
				return -PFT_ERR_INTERNAL;
		d->zpend = d->ncarry - used;
		d->zoff = d->carry_offset + used;
	}
	d->ncarry = 0;
	return deliver(d, pkt, n, d->carry, offset);
}

static int next_packet(struct pft_etm3_pkt_decoder *d, struct pft_etm3_packet *pkt)
{
	if (d->carry_notsync) {
		size_t n = d->carry_notsync;
		d->carry_notsync = 0;
		return notsync(pkt, d->carry, n, d->carry_offset);
	}
	if (d->ncarry) {
		if (d->pos < d->len)
			return resolve_carry(d, pkt);
		return d->finished ? truncated(d, pkt) : -PFT_ERR_NEED_INPUT;
	}
	if (d->pos >= d->len) {
		if (d->finished && d->zpend) {
			size_t n = d->zpend;
			d->zpend = 0;
			return notsync(pkt, zero_bytes, n, d->zoff);
		}
		return d->finished ? -PFT_ERR_EOS : -PFT_ERR_NEED_INPUT;
	}
	if (!d->synced)
		return scan_unsynced(d, pkt);

	const uint8_t *p = d->buf + d->pos;
	const size_t avail = d->len - d->pos;
	const uint64_t offset = d->buf_offset + d->pos;
	int n = parse_packet(d, p, avail, pkt);
	if (n == 0) {
		if (avail >= PKT_MAX)
			return -PFT_ERR_INTERNAL;
		memcpy(d->carry, p, avail);
		d->ncarry = avail;
		d->carry_offset = offset;
		d->pos = d->len;
		return d->finished ? truncated(d, pkt) : -PFT_ERR_NEED_INPUT;
	}
	d->pos += (size_t)(n > 0 ? n : -n);
	return deliver(d, pkt, n, p, offset);
}

/* Synchronised, nothing carried, a whole packet's worth of bytes ahead:
 * no feed boundary can cut the packet.  P-headers, most packets, are
 * written in one go. */
static int next_in_buffer(struct pft_etm3_pkt_decoder *d, struct pft_etm3_packet *pkt)
{
	const uint8_t *p = d->buf + d->pos;
	const uint8_t h = *p;
	const uint64_t offset = d->buf_offset + d->pos;

	if (d->kind[h] == HK_PHEADER && !d->zeros_behind) {
		*pkt = empty_packet;
		pkt->offset = offset;
		pkt->raw = p;
		pkt->size = 1;
		pkt->type = PFT_ETM3_PKT_PHEADER;
		pkt->n_atoms = d->ph_count[h];
		pkt->atoms = d->ph_atoms[h];
		pkt->cycles = d->ph_cycles[h];
		pkt->format = d->ph_format[h];
		d->pos++;
		return 0;
	}
	*pkt = empty_packet;
	int n = parse_packet(d, p, d->len - d->pos, pkt);
	if (n == 0)
		return -PFT_ERR_INTERNAL; /* longer than any packet */
	d->pos += (size_t)(n > 0 ? n : -n);
	return deliver(d, pkt, n, p, offset);
}

int pft_etm3_pkt_next(struct pft_etm3_pkt_decoder *d, struct pft_etm3_packet *pkt, size_t size)
{
	struct pft_etm3_packet full;

	if (d && pkt && size >= sizeof(*pkt) && d->synced && !d->ncarry && !d->carry_notsync &&
	    d->len - d->pos >= PKT_MAX)
		return next_in_buffer(d, pkt);
	if (!d || !pkt || size < PFT_FIRST_SIZE(struct pft_etm3_packet))
		return -PFT_ERR_INVALID;
	/* After finish, input set aside for a later feed is flushed by the
	 * next round; the bound only guards against a bug becoming a hang. */
	for (int tries = 0; tries < 4; tries++) {
		full = empty_packet;
		int status = next_packet(d, &full);
		if (status != -PFT_ERR_NEED_INPUT || !d->finished) {
			pft_copy_known(pkt, &full, size, sizeof(full));
			return status;
		}
	}
	return -PFT_ERR_INTERNAL;
}

void pft_etm3_pkt_sync_state(const struct pft_etm3_pkt_decoder *d,
			     struct etm3_pkt_sync_state *s)
{
	memset(s, 0, sizeof(*s));
	s->ts_raw = d->ts_raw;
	s->base_addr = d->base_addr;
	s->data_addr = d->data_addr;
	s->zpend = (uint32_t)d->zpend;
	s->synced = (uint8_t)d->synced;
	s->base_isa = (uint8_t)d->base_isa;
	s->altis = d->altis;
	s->zeros_behind = d->zeros_behind;
	s->zprior = d->zprior;
}
