/* ETMv3 detection: how cleanly a prefix reads as ETMv3, with just enough
 * of its packet lengths (etmv3-protocol.md 3.2 and 4) to walk them, over
 * the settings that change the lengths. */
#include <stddef.h>
#include <stdint.h>

#include "core/pft_detect_scan.h"
#include "etm3/pft_etm3_detect.h"

/* ETMv3 branch address: up to 5 address bytes, then exception bytes
 * after a fifth byte with bit 6 set or, in the alternative encoding (@alt:
 * the M-profile ETMs), after a last byte 2-4 with bit 6 set. */
static long etm3_branch(const uint8_t *p, size_t n, int alt)
{
	size_t i = 0;
	while (i < 4) {
		if (i >= n)
			return PFT_SCAN_TRUNCATED;
		if (!(p[i++] & 0x80)) {
			if (!alt || i == 1 || !(p[i - 1] & 0x40))
				return (long)i;
			long e = pft_scan_continued(p + i, n - i, 3);
			return e < 0 ? e : (long)i + e;
		}
	}
	if (i >= n)
		return PFT_SCAN_TRUNCATED;
	if (!(p[i++] & 0x40))
		return (long)i;
	long e = pft_scan_continued(p + i, n - i, 3);
	return e < 0 ? e : (long)i + e;
}

/* One ETMv3 packet at @p (not an A-sync): its length, PFT_SCAN_BAD or
 * PFT_SCAN_TRUNCATED.  *@isync is set for I-syncs, *@odd for an I-sync whose
 * information byte has reserved or data-trace bits set.  @alt: the
 * alternative branch encoding. */
static long etm3_packet_in(const uint8_t *p, size_t n, int ca, unsigned ctxid,
			   int *isync, int *odd, int alt)
{
	uint8_t h = p[0];
	long k;

	*isync = 0;
	if (h & 1)
		return etm3_branch(p, n, alt);
	if ((h & 0x81) == 0x80) {
		if (!ca)  /* format 1 b1NEEEE00, format 2 b1000FF10 */
			return (h & 0x83) == 0x80 || (h & 0xf3) == 0x82 ? 1 : PFT_SCAN_BAD;
		/* formats 0, 1, 3 (b1xxxxx00), 2 (b1000FF10), 4 (b10x1xF10) */
		return (h & 0x83) == 0x80 || (h & 0xf3) == 0x82 ||
		       (h & 0xb3) == 0x92 ? 1 : PFT_SCAN_BAD;
	}
	switch (h) {
	case 0x04:
		if (!ca)
			return PFT_SCAN_BAD;
		k = pft_scan_continued(p + 1, n - 1, 5);
		return k < 0 ? k : k + 1;
	case 0x70:
	case 0x08: {
		size_t i = 1;
		if (h == 0x70) {
			if (!ca)
				return PFT_SCAN_BAD;
			k = pft_scan_continued(p + 1, n - 1, 5);
			if (k < 0)
				return k;
			i += (size_t)k;
		}
		i += ctxid;
		if (i + 5 > n)
			return PFT_SCAN_TRUNCATED;
		uint8_t info = p[i];
		uint32_t addr = p[i + 1] | (uint32_t)p[i + 2] << 8 |
				(uint32_t)p[i + 3] << 16 | (uint32_t)p[i + 4] << 24;
		*isync = 1;
		/* LSiP and J set, or an ARM address with bit 1 set (the
		 * information byte's bit 0 is left alone, as for PTM) */
		*odd = (info & 0x90) || (!(addr & 1) && (addr & 2));
		i += 5;
		if (info & 0x80) {  /* load/store in progress: one more address */
			k = etm3_branch(p + i, n - i, alt);
			if (k < 0)
				return k;
			i += (size_t)k;
		}
		return (long)i;
	}
	case 0x0c: case 0x66: case 0x76: case 0x7e:
		return 1;
	case 0x3c:
		return n < 2 ? PFT_SCAN_TRUNCATED : 2;
	case 0x42: case 0x46:
		k = pft_scan_continued(p + 1, n - 1, 9);
		return k < 0 ? k : k + 1;
	case 0x6e:
		return n < 1 + ctxid ? PFT_SCAN_TRUNCATED : (long)(1 + ctxid);
	default:
		return PFT_SCAN_BAD;   /* reserved, or data trace (assumed off) */
	}
}

static long etm3_packet(const uint8_t *p, size_t n, int ca, unsigned ctxid, int *isync,
			int *odd)
{
	return etm3_packet_in(p, n, ca, ctxid, isync, odd, 0);
}

/* The M-profile ETMs: the alternative encoding, no cycle-accurate mode
 * and no context ID (the scan's @ca and @ctxid are 0). */
static long etm3_packet_alt(const uint8_t *p, size_t n, int ca, unsigned ctxid, int *isync,
			    int *odd)
{
	return etm3_packet_in(p, n, ca, ctxid, isync, odd, 1);
}

/* The best ETMv3 reading over cycle-accurate mode and context ID size. */
void pft_etm3_detect_scan(const uint8_t *p, size_t n, struct pft_scan_counts *best)
{
	static const uint8_t ctxid_sizes[4] = { 0, 1, 2, 4 };
	struct pft_scan_counts c;

	pft_scan_stream(p, n, etm3_packet, 0, 0, best);
	for (unsigned i = 1; i < 8; i++) {
		pft_scan_stream(p, n, etm3_packet, i & 1, ctxid_sizes[i / 2], &c);
		if (pft_scan_score(&c) < pft_scan_score(best))
			*best = c;
	}
}

void pft_etm3_detect_scan_m(const uint8_t *p, size_t n, struct pft_scan_counts *c)
{
	pft_scan_stream(p, n, etm3_packet_alt, 0, 0, c);
}
