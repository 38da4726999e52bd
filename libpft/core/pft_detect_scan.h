/* pft_detect_scan.h - walking a prefix of a protocol whose A-sync is five
 * or more zeros and 0x80 (ETMv3, ITM) packet by packet with just enough
 * of its packet lengths, for protocol detection: how many syncs, I-syncs
 * and bad packets a reading of the bytes gives. */
#ifndef PFT_DETECT_SCAN_H
#define PFT_DETECT_SCAN_H

#include <stddef.h>
#include <stdint.h>

/* A packet scanner's results besides a length. */
enum { PFT_SCAN_BAD = 0, PFT_SCAN_TRUNCATED = -1 };

struct pft_scan_counts {
	uint32_t bad, implausible, asyncs, isyncs;
};

/* One packet at @p (not an A-sync), under cycle-accurate mode @ca and
 * @ctxid context ID bytes: its length, PFT_SCAN_BAD or PFT_SCAN_TRUNCATED;
 * *@isync set for I-syncs, *@odd for one with reserved bits set. */
typedef long (*pft_scan_packet_fn)(const uint8_t *p, size_t n, int ca, unsigned ctxid,
				   int *isync, int *odd);

/* Bytes while bit 7 (continue) is set, ending with one that has it clear,
 * at most @max; PFT_SCAN_TRUNCATED when the buffer ends first. */
long pft_scan_continued(const uint8_t *p, size_t n, size_t max);

/* Walk @p with @packet from the first zero sync; after a bad packet, skip
 * to the next sync. */
void pft_scan_stream(const uint8_t *p, size_t n, pft_scan_packet_fn packet, int ca,
		     unsigned ctxid, struct pft_scan_counts *c);

/* The errors of a reading: bad packets and implausible I-syncs. */
static inline uint32_t pft_scan_score(const struct pft_scan_counts *c)
{
	return c->bad + c->implausible;
}

#endif
