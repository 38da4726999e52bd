/* pft_trace_enc.h - what the PTM and ETMv3 encoders write alike: flags,
 * little-endian context IDs, compressed addresses (the 7-bit groups of
 * pft-protocol.md 4.2 and etmv3-protocol.md 4.5), timestamps and the
 * short-buffer handling around a packet. */
#ifndef PFT_TRACE_ENC_H
#define PFT_TRACE_ENC_H

#include <stddef.h>
#include <stdint.h>

#include "pft.h"

enum { TRACE_ENC_MAX_PACKET = 16, TRACE_ENC_MAX_STATE = 256 };

/* A packet field that must be 0 or 1. */
static inline int trace_is_flag(uint8_t v)
{
	return v <= 1;
}

/* @v as @n little-endian bytes (context IDs, I-sync addresses). */
static inline size_t trace_put_le(uint8_t *o, uint32_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		o[i] = (uint8_t)(v >> (8 * i));
	return n;
}

/* Does @ctxid fit @bytes (0, 1, 2 or 4) of context ID? */
static inline int trace_ctxid_fits(unsigned bytes, uint32_t ctxid)
{
	return bytes >= 4 || ctxid >> (8 * bytes) == 0;
}

/*
 * Address packets: bytes 1-4 carry 6, 7, 7, 7 address bits above the
 * @shift alignment bits (2 ARM, 1 Thumb, 0 Jazelle) with a continuation
 * bit, the 5th the rest with the ISA bits.  With @six_last (PFT, ETMv3's
 * alternative encoding) a last byte 2-4 carries 6 bits and bit 6 is
 * @flag6 (exception bytes follow).
 */

/* The address bits that @k = 1..5 bytes give. */
static inline unsigned trace_addr_bits(unsigned shift, unsigned k, int six_last)
{
	return k >= 5 ? 32 : shift + 6 + 7 * (k - 1) - (six_last && k > 1);
}

/* The fewest bytes that give the bits of @diff (address XOR base). */
static inline unsigned trace_addr_bytes(uint32_t diff, unsigned shift, int six_last)
{
	unsigned k = 1;

	while (k < 5 && diff >> trace_addr_bits(shift, k, six_last))
		k++;
	return k;
}

/* Write @addr in @k bytes; @isa_bits go in a 5th byte.  Returns @k. */
size_t pft_trace_put_addr(uint8_t *o, uint32_t addr, unsigned shift, unsigned k, unsigned flag6,
		      uint8_t isa_bits, int six_last);

/* Timestamps: the 7-bit groups covering every bit changed since the last
 * one sent (all after a reset or force_tsync), the last of 7 (48-bit) or 9
 * (64-bit) bytes carrying 6 or 8 bits; Gray coded when so configured. */
struct trace_ts_enc {
	uint64_t raw;            /* last timestamp as sent (Gray if gray) */
	uint8_t sent;            /* 0: the next one goes in full */
	uint8_t is_64bit, gray;
};

/* Can @ts be sent? */
static inline int trace_ts_fits(const struct trace_ts_enc *t, uint64_t ts)
{
	return t->is_64bit || !(ts >> 48);
}

/* Write @ts's bytes after the header; returns how many. */
size_t pft_trace_ts_put(struct trace_ts_enc *t, uint8_t *o, uint64_t ts);

/*
 * An encoder's packet: @encode(@state, @pkt, out) writes at most
 * TRACE_ENC_MAX_PACKET bytes, changing @state (@size bytes).  An @outlen
 * shorter than that gets the packet when it fits, else -PFT_ERR_NOSPACE
 * with @state unchanged.  Returns the bytes written or a negative error.
 */
int pft_trace_enc_packet(void *state, size_t size, int (*encode)(void *, const void *, uint8_t *),
		     const void *pkt, uint8_t *out, size_t outlen);

/*
 * The public functions of an encoder struct @type (with a struct
 * trace_ts_enc ts) for packets @pkt: @prefix_free, _packet (through the
 * file's static encode()), _reset (through its static reset_state()) and
 * _force_tsync (pft.h).
 */
#define TRACE_ENC_EXPORTS(prefix, type, pkt)                                          \
	void prefix##_free(type *e) { free(e); }                                      \
	int prefix##_packet(type *e, const pkt *p, uint8_t *out, size_t outlen)       \
	{                                                                             \
		return pft_trace_enc_packet(e, sizeof(*e), encode, p, out, outlen);       \
	}                                                                             \
	int prefix##_reset(type *e)                                                   \
	{                                                                             \
		if (!e)                                                               \
			return -PFT_ERR_INVALID;                                      \
		reset_state(e);                                                       \
		return 0;                                                             \
	}                                                                             \
	int prefix##_force_tsync(type *e)                                             \
	{                                                                             \
		if (!e)                                                               \
			return -PFT_ERR_INVALID;                                      \
		e->ts.sent = 0;                                                       \
		return 0;                                                             \
	}

#endif
