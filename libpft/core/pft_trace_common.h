/* pft_trace_common.h - what PTM and ETMv3 encode alike, for their decoders,
 * encoders and detection: Gray-coded timestamps, the timestamp payload,
 * and an encoder's handling of a short output buffer. */
#ifndef PFT_TRACE_INT_H
#define PFT_TRACE_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pft.h"

/* Gray code to binary: bit n is the XOR of Gray bits [63:n]. */
static inline uint64_t trace_gray_to_binary(uint64_t g)
{
	for (unsigned s = 1; s < 64; s <<= 1)
		g ^= g >> s;
	return g;
}

/*
 * Read the timestamp after the header at p[0] (@avail bytes from the
 * header on): 7 bits a byte, bit 7 = more; the last of 7 (48-bit) or 9
 * (64-bit) bytes carries 6 or 8 bits (pft-protocol.md, etmv3-protocol.md
 * 4.8).  The bits not sent are @prev_raw's.  Sets *@raw (the merged value
 * as sent), *@ts (@raw Gray decoded when the timestamps are) and *@bits
 * (how many low bits were sent), and *@clock_change the header's R bit
 * (bit 2 of 0x42/0x46 in both protocols: the clock changed).  Returns the
 * bytes read, the header included, or 0 when @avail ends first (nothing
 * set).
 */
size_t pft_trace_ts_parse(const uint8_t *p, size_t avail, int ts_64bit, int ts_gray,
			  uint64_t prev_raw, uint64_t *raw, uint64_t *ts, uint8_t *bits,
			  uint8_t *clock_change);

/*
 * An encoder's packet for an output buffer shorter than the longest
 * packet: @n bytes (or the error @n) were encoded into @tmp, changing the
 * encoder's state @state (@size bytes).  When they fit @outlen they are
 * copied to @out; else the state is put back from @saved (a copy taken
 * before) and -PFT_ERR_NOSPACE returned.
 */
static inline int trace_enc_fit(void *state, const void *saved, size_t size, int n,
				const uint8_t *tmp, uint8_t *out, size_t outlen)
{
	if (n < 0)
		return n;
	if ((size_t)n > outlen) {
		memcpy(state, saved, size);
		return -PFT_ERR_NOSPACE;
	}
	memcpy(out, tmp, (size_t)n);
	return n;
}

#endif
