/* What PTM and ETMv3 encode alike (pft_trace_common.h). */
#include "core/pft_trace_common.h"

size_t pft_trace_ts_parse(const uint8_t *p, size_t avail, int ts_64bit, int ts_gray,
			  uint64_t prev_raw, uint64_t *raw, uint64_t *ts, uint8_t *bits,
			  uint8_t *clock_change)
{
	const unsigned last = ts_64bit ? 8 : 6;
	const unsigned width = ts_64bit ? 64 : 48;
	uint64_t v = 0;
	unsigned nbits = 0;
	size_t n = 1;

	for (unsigned j = 0;; j++) {
		if (n >= avail)
			return 0;
		const uint8_t b = p[n++];
		if (j == last) {
			v |= (uint64_t)(b & (ts_64bit ? 0xff : 0x3f)) << nbits;
			nbits = width;
			break;
		}
		v |= (uint64_t)(b & 0x7f) << nbits;
		nbits += 7;
		if (!(b & 0x80))
			break;
	}
	const uint64_t mask = nbits >= 64 ? ~0ull : (1ull << nbits) - 1;
	uint64_t merged = (prev_raw & ~mask) | (v & mask);
	if (width == 48)
		merged &= (1ull << 48) - 1;
	*raw = merged;
	*ts = ts_gray ? trace_gray_to_binary(merged) : merged;
	*bits = (uint8_t)(nbits > width ? width : nbits);
	*clock_change = (p[0] >> 2) & 1;
	return n;
}
