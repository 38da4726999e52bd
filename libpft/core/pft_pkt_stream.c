/* The byte stream under every protocol's packet decoder: allocation,
 * giving up sync, and the unsynchronised paths (pft_pkt_stream.h). */
#include <stdlib.h>
#include <string.h>

#include "core/pft_pkt_stream.h"

/* The bytes of NOTSYNC packets of held zeros. */
static const uint8_t zero_bytes[PKT_NOTSYNC_MAX];

void *pft_stream_decoder_alloc(size_t size, int err, int *errcode)
{
	void *d = NULL;

	if (!err) {
		d = calloc(1, size);
		if (!d)
			err = -PFT_ERR_NOMEM;
	}
	if (errcode)
		*errcode = err;
	return d;
}

void pft_stream_sync_forward(struct pkt_stream *s, size_t zeros_max)
{
	if (s->synced && s->ncarry) {
		size_t z = 0;
		while (z < s->ncarry && z < zeros_max && s->carry[s->ncarry - 1 - z] == 0)
			z++;
		s->carry_notsync = s->ncarry - z;
	}
	s->synced = 0;
}

static int span(struct pkt_span *sp, enum pkt_span_kind kind, const uint8_t *raw, size_t size,
		uint64_t offset)
{
	*sp = (struct pkt_span){ .raw = raw, .offset = offset, .size = size, .kind = kind };
	return 0;
}

/* Hold the zeros buf[pos, len) in the carry, with the @prior zero bytes
 * before them. */
static int hold_zeros(struct pkt_stream *s, size_t zeros, unsigned prior)
{
	memcpy(s->carry + s->ncarry, s->buf + s->pos, zeros);
	if (!s->ncarry)
		s->carry_offset = s->buf_offset + s->pos;
	s->ncarry += zeros;
	s->held_prior = (uint8_t)prior;
	s->pos = s->len;
	return -PFT_ERR_NEED_INPUT;
}

/*
 * Unsynchronised: look for >= 5 zeros and 0x80 from buf[pos].  Gives the
 * bytes before it as NOTSYNC (at most PKT_NOTSYNC_MAX at a time); holds a
 * trailing run of zeros, which may start an A-sync, in the carry.  Looks
 * at most PKT_SCAN_WINDOW bytes ahead.
 */
int pft_stream_scan(struct pkt_stream *s, struct pkt_span *sp)
{
	const uint8_t *b = s->buf;
	const size_t pos = s->pos, limit = s->len;
	const unsigned prior = s->zeros_behind;

	s->zeros_behind = 0;
	if (prior) {
		size_t a = pft_stream_async_after(b + pos, limit - pos, prior);
		if (a) {
			s->pos = pos + a;
			s->synced = 1;
			return span(sp, PKT_SPAN_ASYNC, b + pos, a, s->buf_offset + pos);
		}
	}
	const size_t end = limit - pos > PKT_SCAN_WINDOW ? pos + PKT_SCAN_WINDOW : limit;
	size_t run = 0, i, stop;

	for (i = pos; i < end; i++) {
		if (b[i] == 0) {
			run++;
			continue;
		}
		if (b[i] == PKT_ASYNC_END && run >= PKT_ASYNC_MIN_ZEROS)
			break;
		run = 0;
	}
	const size_t zeros = run > PKT_ASYNC_MAX_ZEROS ? PKT_ASYNC_MAX_ZEROS : run;
	if (i < end) {
		stop = i - zeros;
		if (stop == pos) {
			s->pos = i + 1;
			s->synced = 1;
			return span(sp, PKT_SPAN_ASYNC, b + pos, zeros + 1, s->buf_offset + pos);
		}
	} else {
		/* Before the window's end, an A-sync would have been seen. */
		stop = end - zeros;
		if (stop == pos)
			return hold_zeros(s, zeros, prior); /* only zeros are left */
	}
	if (stop - pos > PKT_NOTSYNC_MAX)
		stop = pos + PKT_NOTSYNC_MAX;
	s->pos = stop;
	return span(sp, PKT_SPAN_NOTSYNC, b + pos, stop - pos, s->buf_offset + pos);
}

int pft_stream_held_zeros(struct pkt_stream *s, struct pkt_span *sp)
{
	const uint8_t *b = s->buf + s->pos;
	const size_t avail = s->len - s->pos;
	size_t z = 0;

	if (s->zeros_behind) {
		/* Zeros that ended a bad packet: held with the packet's own. */
		s->held_prior = s->zeros_behind;
		s->zeros_behind = 0;
	}
	const unsigned prior = s->held_prior;
	s->held_prior = 0;
	while (z < avail && b[z] == 0)
		z++;
	const size_t total = s->ncarry + z;
	const int ends_async = z < avail && b[z] == PKT_ASYNC_END &&
			       total + prior >= PKT_ASYNC_MIN_ZEROS;

	if (z == avail && total <= PKT_ASYNC_MAX_ZEROS)
		return hold_zeros(s, z, prior); /* more zeros may come */
	if (ends_async && total <= PKT_ASYNC_MAX_ZEROS) {
		memcpy(s->carry + s->ncarry, b, z + 1);
		s->pos += z + 1;
		s->ncarry = 0;
		s->synced = 1;
		return span(sp, PKT_SPAN_ASYNC, s->carry, total + 1, s->carry_offset);
	}
	/* The held zeros (or the oldest of them) are not part of an A-sync:
	 * give them, keeping any that still may be. */
	size_t excess = s->ncarry;
	if ((ends_async || z == avail) && z < PKT_ASYNC_MAX_ZEROS)
		excess = total - PKT_ASYNC_MAX_ZEROS;
	/* A long A-sync's zeros, carried when sync was given up, may be more
	 * than one NOTSYNC packet holds. */
	if (excess > PKT_NOTSYNC_MAX)
		excess = PKT_NOTSYNC_MAX;
	span(sp, PKT_SPAN_NOTSYNC, zero_bytes, excess, s->carry_offset);
	memmove(s->carry, s->carry + excess, s->ncarry - excess);
	s->ncarry -= excess;
	s->carry_offset += excess;
	return 0;
}

void pft_stream_flush(struct pkt_stream *s, size_t pkt_max, struct pkt_span *sp)
{
	if (!s->synced) {
		span(sp, PKT_SPAN_NOTSYNC, s->carry, s->ncarry, s->carry_offset);
		s->ncarry = 0;
		return;
	}
	/* The zeros of a long A-sync may be more than a packet: the rest
	 * comes next, unsynchronised (moved on the next call: the packet
	 * points at them). */
	size_t size = s->ncarry > pkt_max ? pkt_max : s->ncarry;
	if (size < s->ncarry)
		s->carry_shift = size;
	else
		s->ncarry = 0;
	s->synced = 0;
	span(sp, PKT_SPAN_TRUNCATED, s->carry, size, s->carry_offset);
}
