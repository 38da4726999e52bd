/* What the PTM and ETMv3 encoders write alike (pft_trace_enc.h). */
#include <string.h>

#include "core/pft_trace_enc.h"
#include "core/pft_trace_common.h"

size_t pft_trace_put_addr(uint8_t *o, uint32_t addr, unsigned shift, unsigned k, unsigned flag6,
		      uint8_t isa_bits, int six_last)
{
	uint32_t v = addr >> shift;

	o[0] = (uint8_t)((k > 1) << 7 | (v & 0x3f) << 1 | 1);
	v >>= 6;
	for (unsigned i = 1; i < k; i++) {
		if (i == 4) {
			o[4] = (uint8_t)(flag6 << 6 | isa_bits | v);
		} else if (i == k - 1 && six_last) {
			o[i] = (uint8_t)(flag6 << 6 | (v & 0x3f));
			v >>= 6;
		} else {
			o[i] = (uint8_t)((i + 1 < k) << 7 | (v & 0x7f));
			v >>= 7;
		}
	}
	return k;
}

size_t pft_trace_ts_put(struct trace_ts_enc *t, uint8_t *o, uint64_t ts)
{
	const unsigned max = t->is_64bit ? 9 : 7;
	const uint64_t raw = t->gray ? ts ^ (ts >> 1) : ts;
	const uint64_t diff = t->sent ? raw ^ t->raw : ~(uint64_t)0;
	unsigned nb = 1;
	size_t n = 0;

	while (nb < max && diff >> (7 * nb))
		nb++;
	for (unsigned i = 0; i + 1 < nb; i++)
		o[n++] = (uint8_t)(0x80 | (raw >> (7 * i) & 0x7f));
	/* The final byte of a full-width value has no continuation bit. */
	o[n++] = (uint8_t)(nb == max ? raw >> (7 * (max - 1)) : raw >> (7 * (nb - 1)) & 0x7f);
	t->raw = raw;
	t->sent = 1;
	return n;
}

int pft_trace_enc_packet(void *state, size_t size, int (*encode)(void *, const void *, uint8_t *),
		     const void *pkt, uint8_t *out, size_t outlen)
{
	uint8_t tmp[TRACE_ENC_MAX_PACKET];
	unsigned char saved[TRACE_ENC_MAX_STATE];

	if (!state || !pkt || !out || size > sizeof(saved))
		return -PFT_ERR_INVALID;
	if (outlen >= sizeof(tmp))
		return encode(state, pkt, out);
	/* Short buffer: encode aside, and undo the state if it does not fit. */
	memcpy(saved, state, size);
	return trace_enc_fit(state, saved, size, encode(state, pkt, tmp), tmp, out, outlen);
}
