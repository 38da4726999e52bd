/* Detection: frame format and protocol of a trace buffer.
 *
 * Protocols are told apart by their sync patterns first and, for the
 * three that share the A-sync of five zeros and 0x80 (PTM, ETMv3, ITM), by
 * structure: whether an I-sync follows the syncs and which protocol's
 * packet lengths and reserved headers decode the bytes cleanly.  Each
 * decoded protocol scores a prefix through its table (core/pft_proto.h);
 * ITM, which the library does not decode, has a small length scanner
 * here that knows just enough of its packets to walk them.
 */
#include <stdlib.h>
#include <limits.h>
#include <string.h>

#include "core/pft_detect_scan.h"
#include "core/pft_proto.h"
#include "decode/pft_detect.h"
#include "etm3/pft_etm3_detect.h"
#include "pft.h"

const char *pft_frame_format_name(unsigned format)
{
	static const char *const names[] = { "unknown", "raw", "formatted", "tpiu" };
	return format < sizeof(names) / sizeof(names[0]) ? names[format] : "unknown";
}

/* ---- Sync patterns ---- */

struct sync_count {
	uint32_t zero_syncs;     /* >= 5 zeros then 0x80 */
	uint32_t etm4_syncs;     /* >= 11 zeros, 0x80, then a trace-info header */
	uint32_t stm_syncs;      /* 21 or more F nibbles, then a 0 nibble */
};

static void count_syncs(const uint8_t *p, size_t n, struct sync_count *c)
{
	size_t zeros = 0;
	unsigned fs = 0;

	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < n; i++) {
		uint8_t b = p[i];
		/* STPv2 is a nibble stream, low nibble first. */
		for (unsigned k = 0; k < 2; k++) {
			unsigned nib = k ? b >> 4 : b & 0xf;
			if (nib == 0xf) {
				fs++;
			} else {
				if (nib == 0 && fs >= 21)
					c->stm_syncs++;
				fs = 0;
			}
		}
		if (b == 0) {
			zeros++;
			continue;
		}
		if (b == 0x80 && zeros >= 5) {
			c->zero_syncs++;
			if (zeros >= 11 && i + 1 < n && p[i + 1] == 0x01)
				c->etm4_syncs++;
		}
		zeros = 0;
	}
}

/* One ITM/DWT packet (not a sync). */
static long itm_packet(const uint8_t *p, size_t n, int ca, unsigned ctxid,
		       int *isync, int *odd)
{
	static const uint8_t payload[4] = { 0, 1, 2, 4 };
	uint8_t h = p[0];
	long k;

	(void)ca;
	(void)ctxid;
	*isync = 0;
	*odd = 0;
	if (h == 0x70)                   /* overflow */
		return 1;
	if (h & 3)                       /* instrumentation or hardware source */
		return n < 1u + payload[h & 3] ? PFT_SCAN_TRUNCATED : 1 + payload[h & 3];
	if ((h & 0x0f) == 0 || (h & 0x0b) == 0x08) {
		/* local timestamp, extension: continuation bytes if C */
		if (!(h & 0x80))
			return 1;
		k = pft_scan_continued(p + 1, n - 1, 4);
		return k < 0 ? k : k + 1;
	}
	if (h == 0x94 || h == 0xb4) {    /* global timestamps 1 and 2 */
		k = pft_scan_continued(p + 1, n - 1, h == 0x94 ? 4 : 6);
		return k < 0 ? k : k + 1;
	}
	return PFT_SCAN_BAD;
}

/* A reading fits when it has I-syncs (unless @need_isync is 0) and its
 * errors are few next to its syncs: a damaged stretch of a buffer may cost
 * one resync, a wrong protocol costs one nearly every sync interval. */
static int fits(uint32_t score, uint32_t syncs, uint32_t isyncs, int need_isync)
{
	return syncs > 0 && score <= syncs / 4 && (isyncs > 0 || !need_isync);
}

/* Each I-sync right after an A-sync (08 b1 b2 b3 b4 b5, the layout
 * without context ID) votes: +1 when its information byte read as
 * ETMv3's (b1) has bit 0 set and as PTM's (b5) has not, -1 the other way
 * round.  That bit is 1 in every I-sync of every PTM and ETMv3 capture
 * pft has seen (pft-protocol.md 5.2, etmv3-protocol.md 4.4); the other
 * reading's byte is a byte of the address (for an M-profile core's code
 * below 0x20000000, its top byte, mostly even; for a PTM's, the Thumb
 * bit). */
static long isync_info_votes(const uint8_t *p, size_t n)
{
	long votes = 0;

	for (size_t i = 0; i + 12 <= n; i++) {
		size_t z = i;
		while (z < n && p[z] == 0)
			z++;
		if (z - i >= 5 && z + 7 <= n && p[z] == 0x80 && p[z + 1] == 0x08)
			votes += (p[z + 2] & 1) - (p[z + 6] & 1);
		i = z;
	}
	return votes;
}

int pft_detect_protocol(const uint8_t *buf, size_t len)
{
	static const struct pft_proto *const decoded[] = { &pft_ptm_proto, &pft_etm3_proto };
	struct sync_count sc;
	struct pft_scan_counts itm;

	if (!buf && len)
		return -PFT_ERR_INVALID;
	if (len > PFT_DETECT_PREFIX)
		len = PFT_DETECT_PREFIX;
	count_syncs(buf, len, &sc);
	if (sc.etm4_syncs > 0 && sc.etm4_syncs * 2 >= sc.zero_syncs)
		return PFT_PROTO_ETMV4;
	if (sc.zero_syncs == 0)
		return sc.stm_syncs > 0 ? PFT_PROTO_STM : PFT_PROTO_UNKNOWN;

	/* PTM and ETMv3 follow their A-syncs with I-syncs; ITM has none.  The
	 * fitting reading with the fewest errors wins; a tie says nothing. */
	int best = -1, tie = 0;
	uint32_t best_score = 0;
	for (size_t i = 0; i < sizeof(decoded) / sizeof(decoded[0]); i++) {
		uint32_t score, asyncs, isyncs;
		int r = decoded[i]->detect(buf, len, &score, &asyncs, &isyncs);
		if (r < 0)
			return r;
		if (r || !fits(score, asyncs, isyncs, 1))
			continue;
		if (best < 0 || score < best_score) {
			best = (int)i;
			best_score = score;
			tie = 0;
		} else if (score == best_score) {
			tie = 1;
		}
	}
	/* An M-profile ETM's packets read as cleanly as a PTM's: the first
	 * byte of each I-sync after an A-sync decides. */
	struct pft_scan_counts m;
	pft_etm3_detect_scan_m(buf, len, &m);
	if (fits(pft_scan_score(&m), m.asyncs, m.isyncs, 1) &&
	    (best < 0 || pft_scan_score(&m) < best_score ||
	     (pft_scan_score(&m) == best_score && isync_info_votes(buf, len) > 0)))
		return PFT_PROTO_ETMV3;
	if (best >= 0)
		return tie ? PFT_PROTO_UNKNOWN : decoded[best]->protocol;
	pft_scan_stream(buf, len, itm_packet, 0, 0, &itm);
	if (fits(pft_scan_score(&itm), itm.asyncs, 0, 0))
		return PFT_PROTO_ITM;
	return PFT_PROTO_UNKNOWN;
}

/* ---- Frame format ---- */

/* The bytes of one trace ID collected from a prefix. */
struct id_bytes {
	uint8_t *data;
	size_t len, cap;
};

struct deformatted {
	struct id_bytes ids[PFT_ID_MAX_VALID + 1];
	uint64_t bad_frames;
};

static void free_deformatted(struct deformatted *d)
{
	for (unsigned i = 0; i <= PFT_ID_MAX_VALID; i++)
		free(d->ids[i].data);
}

/* Deformat @buf[0..len) and keep each ID's bytes (@keep; @len is then at
 * most PFT_DETECT_PREFIX) and count them (@counts, may be NULL). */
static int deformat(const uint8_t *buf, size_t len, int tpiu, int keep,
		    uint64_t *counts, struct deformatted *out)
{
	struct pft_dfmt_config cfg = { .size = sizeof(cfg), .tpiu = (uint8_t)tpiu };
	struct pft_dfmt_chunk ch;
	int err = 0;
	struct pft_dfmt *d = pft_dfmt_alloc(&cfg, &err);

	memset(out, 0, sizeof(*out));
	if (!d)
		return err;
	pft_dfmt_feed(d, buf, len);
	pft_dfmt_finish(d);
	for (;;) {
		int st = pft_dfmt_next(d, &ch, sizeof(ch));
		if (st == -PFT_ERR_BAD_FRAME) {
			out->bad_frames++;
			continue;
		}
		if (st < 0)
			break;
		if (!ch.len || ch.id > PFT_ID_MAX_VALID)
			continue;
		if (counts)
			counts[ch.id] += ch.len;
		if (!keep)
			continue;
		struct id_bytes *ib = &out->ids[ch.id];
		if (ib->len + ch.len > ib->cap) {
			size_t cap = ib->cap ? 2 * ib->cap : 256;
			while (cap < ib->len + ch.len)
				cap *= 2;
			uint8_t *data = realloc(ib->data, cap);
			if (!data) {
				err = -PFT_ERR_NOMEM;
				break;
			}
			ib->data = data;
			ib->cap = cap;
		}
		memcpy(ib->data + ib->len, ch.data, ch.len);
		ib->len += ch.len;
	}
	pft_dfmt_free(d);
	if (err < 0)
		free_deformatted(out);
	return err;
}

/* Score a formatted reading: bytes of the IDs whose protocol is known,
 * less one frame's worth per bad frame. */
static int score_formatted(const struct deformatted *df, uint8_t *protocols,
			   int64_t *score)
{
	*score = -(int64_t)df->bad_frames * 16;
	for (unsigned id = 1; id <= PFT_ID_MAX_VALID; id++) {
		const struct id_bytes *ib = &df->ids[id];
		protocols[id] = PFT_PROTO_UNKNOWN;
		if (!ib->len)
			continue;
		int p = pft_detect_protocol(ib->data, ib->len);
		if (p < 0)
			return p;
		protocols[id] = (uint8_t)p;
		if (p != PFT_PROTO_UNKNOWN)
			*score += (int64_t)ib->len;
	}
	return 0;
}

static int has_fsync(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i + 4 <= n; i++)
		if (p[i] == 0xff && p[i + 1] == 0xff && p[i + 2] == 0xff && p[i + 3] == 0x7f)
			return 1;
	return 0;
}

int pft_detect_frames(const uint8_t *buf, size_t len,
		      struct pft_detect_frames *res, size_t size)
{
	uint8_t protocols[2][PFT_ID_MAX_VALID + 1];
	size_t prefix = len > PFT_DETECT_PREFIX ? PFT_DETECT_PREFIX : len;
	int64_t best = 0;
	int err;

	if (!res || size < sizeof(*res) || (!buf && len))
		return -PFT_ERR_INVALID;
	memset(res, 0, sizeof(*res));
	res->size = sizeof(*res);

	int raw = pft_detect_protocol(buf, prefix);
	if (raw < 0)
		return raw;
	if (raw != PFT_PROTO_UNKNOWN) {
		res->format = PFT_FRAMES_RAW;
		best = (int64_t)prefix;
	}
	for (int tpiu = 0; tpiu < 2; tpiu++) {
		struct deformatted df;
		int64_t score;
		if (tpiu && !has_fsync(buf, prefix))
			break;
		err = deformat(buf, prefix, tpiu, 1, NULL, &df);
		if (err < 0)
			return err;
		err = score_formatted(&df, protocols[tpiu], &score);
		free_deformatted(&df);
		if (err < 0)
			return err;
		/* Frames must explain most of the bytes: a few chance syncs in
		 * the pseudo-sources of unformatted bytes do not make frames. */
		if (score > best && score >= (int64_t)prefix / 2) {
			best = score;
			res->format = tpiu ? PFT_FRAMES_TPIU : PFT_FRAMES_MEMORY;
		}
	}

	if (res->format == PFT_FRAMES_RAW) {
		res->nsources = len > 0;
		res->sources[0].bytes = len;
		res->sources[0].protocol = (uint8_t)raw;
		return 0;
	}
	if (res->format == PFT_FRAMES_UNKNOWN)
		return 0;

	uint64_t counts[PFT_ID_MAX_VALID + 1] = { 0 };
	struct deformatted df;
	int tpiu = res->format == PFT_FRAMES_TPIU;
	err = deformat(buf, len, tpiu, 0, counts, &df);
	if (err < 0)
		return err;
	res->bad_frames = df.bad_frames;
	for (unsigned id = 1; id <= PFT_ID_MAX_VALID; id++) {
		if (!counts[id])
			continue;
		if (res->nsources == PFT_DETECT_MAX_SOURCES) {
			res->more_sources = 1;
			break;
		}
		struct pft_detect_source *s = &res->sources[res->nsources++];
		s->id = (uint8_t)id;
		s->bytes = counts[id];
		s->protocol = protocols[tpiu][id];
	}
	return 0;
}

int pft_detect_id_bytes(const uint8_t *buf, size_t len, int tpiu, unsigned id, uint8_t *out,
			size_t cap)
{
	struct pft_dfmt_config dc = { .size = sizeof(dc), .tpiu = (uint8_t)!!tpiu };
	struct pft_dfmt_chunk c;
	struct pft_dfmt *d;
	size_t n = 0;
	int r, err;

	if (!buf || !out || cap > INT_MAX)
		return -PFT_ERR_INVALID;
	if (!(d = pft_dfmt_alloc(&dc, &err)))
		return err;
	pft_dfmt_feed(d, buf, len);
	pft_dfmt_finish(d);
	while (n < cap && (r = pft_dfmt_next(d, &c, sizeof(c))) != -PFT_ERR_EOS &&
	       r != -PFT_ERR_NEED_INPUT) {
		if (r || c.id != id)
			continue;   /* a bad frame, or another source */
		size_t k = c.len < cap - n ? c.len : cap - n;
		memcpy(out + n, c.data, k);
		n += k;
	}
	pft_dfmt_free(d);
	return (int)n;
}
