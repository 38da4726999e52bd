/* Walking a zero-sync protocol's packets for detection (pft_detect_scan.h). */
#include <string.h>

#include "core/pft_detect_scan.h"

/* Bytes while bit 7 (continue) is set, ending with one that has it clear,
 * at most @max; PFT_SCAN_TRUNCATED when the buffer ends first. */
long pft_scan_continued(const uint8_t *p, size_t n, size_t max)
{
	for (size_t i = 0; i < max; i++) {
		if (i >= n)
			return PFT_SCAN_TRUNCATED;
		if (!(p[i] & 0x80))
			return (long)i + 1;
	}
	return (long)max;
}

/* Walk @p with @packet from the first zero sync; after a bad packet, skip
 * to the next sync. */
void pft_scan_stream(const uint8_t *p, size_t n, pft_scan_packet_fn packet, int ca,
		     unsigned ctxid, struct pft_scan_counts *c)
{
	size_t i = 0;
	int synced = 0;

	memset(c, 0, sizeof(*c));
	while (i < n) {
		if (p[i] == 0) {
			size_t z = i;
			while (z < n && p[z] == 0)
				z++;
			if (z == n)
				return;
			if (p[z] == 0x80 && z - i >= 5) {
				c->asyncs++;
				synced = 1;
			} else if (synced) {
				c->bad++;
				synced = 0;
			}
			i = z + (p[z] == 0x80);
			continue;
		}
		if (!synced) {
			i++;
			continue;
		}
		int isync = 0, odd = 0;
		long len = packet(p + i, n - i, ca, ctxid, &isync, &odd);
		if (len == PFT_SCAN_TRUNCATED)
			return;
		if (len == PFT_SCAN_BAD) {
			c->bad++;
			synced = 0;
			i++;
			continue;
		}
		c->isyncs += (uint32_t)isync;
		c->implausible += (uint32_t)(isync && odd);
		i += (size_t)len;
	}
}
