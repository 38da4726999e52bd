/* Unit tests of the CoreSight frame deformatter (pft_dfmt_*).
 *
 * Expected chunks come from pft-flow.md section 11 (frame layout, worked
 * frame, sync patterns), worked out by hand in the comments, and from
 * OpenCSD's trc_pkt_lister on the TC2 capture.
 */
#define _GNU_SOURCE 1
#include <stdlib.h>
#include <unistd.h>

#include "frames/pft_dfmt.h"
#include "pft.h"
#include "ptunit.h"

/* What one pft_dfmt_next() call gave: a chunk (err == 0) or an error. */
struct event {
	int err;
	uint8_t id, flags;
	size_t len;
	uint64_t offset;
	uint8_t data[16];
};

enum { MAX_EVENTS = 8192 };

static struct event events[MAX_EVENTS];

/* Drain @d into @ev; returns the count or -1 when @max is exceeded.
 * Stops at -PFT_ERR_NEED_INPUT (not recorded) or -PFT_ERR_EOS (recorded). */
static int drain(struct pft_dfmt *d, struct event *ev, int n, int max)
{
	for (;;) {
		struct pft_dfmt_chunk c;
		int r = pft_dfmt_next(d, &c, sizeof(c));

		if (r == -PFT_ERR_NEED_INPUT)
			return n;
		if (n >= max)
			return -1;
		memset(&ev[n], 0, sizeof(ev[n]));
		ev[n].err = r;
		if (r == 0) {
			ev[n].id = c.id;
			ev[n].flags = c.flags;
			ev[n].len = c.len;
			ev[n].offset = c.offset;
			if (c.len <= sizeof(ev[n].data))
				memcpy(ev[n].data, c.data, c.len);
		} else {
			ev[n].offset = pft_dfmt_get_offset(d);
		}
		n++;
		if (r == -PFT_ERR_EOS)
			return n;
	}
}

/* Deformat @buf fed in pieces of @piece bytes (0: all at once), then
 * finish.  Returns the number of events (the last one is EOS) or -1. */
static int run(int tpiu, const uint8_t *buf, size_t len, size_t piece,
	       struct event *ev, int max)
{
	struct pft_dfmt_config cfg = { .size = sizeof(cfg), .tpiu = (uint8_t)tpiu };
	struct pft_dfmt *d = pft_dfmt_alloc(&cfg, NULL);
	int n = 0;

	if (!d)
		return -1;
	if (!piece)
		piece = len ? len : 1;
	for (size_t pos = 0; pos < len && n >= 0; pos += piece) {
		size_t k = len - pos < piece ? len - pos : piece;
		if (pft_dfmt_feed(d, buf + pos, k) != 0)
			n = -1;
		else
			n = drain(d, ev, n, max);
	}
	if (n >= 0 && pft_dfmt_finish(d) == 0)
		n = drain(d, ev, n, max);
	pft_dfmt_free(d);
	return n;
}

/* Check event @e is a chunk of @id at @offset holding @len bytes @data. */
#define CHECK_CHUNK(e, want_id, want_off, ...)                               \
	do {                                                                 \
		static const uint8_t want_[] = { __VA_ARGS__ };              \
		PTU_EQ((e).err, 0);                                          \
		PTU_EQ((e).flags, 0);                                        \
		PTU_EQ((e).id, want_id);                                     \
		PTU_EQ((e).offset, want_off);                                \
		PTU_EQ((e).len, sizeof(want_));                              \
		if ((e).len == sizeof(want_))                                \
			PTU_CHECK(memcmp((e).data, want_, sizeof(want_)) == 0); \
	} while (0)

#define CHECK_ERR(e, code, want_off)                                         \
	do {                                                                 \
		PTU_EQ((e).err, -(code));                                    \
		PTU_EQ((e).offset, want_off);                                \
	} while (0)

#define CHECK_EOS(e) PTU_EQ((e).err, -PFT_ERR_EOS)

/* A frame that sets ID 0x13 at byte 0 (0x13 << 1 | 1 = 0x27, aux bit 0 =
 * 0: byte 1 is the new ID's) followed by data 01..0e (even ones have bit
 * 0 clear, aux 0): one chunk of ID 0x13, offset 1, 14 bytes. */
static const uint8_t frame_set_13[16] = {
	0x27, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x00
};

/* pft-flow.md 11.1: the second frame of the TC2 buffer. */
static const uint8_t worked_frame[16] = {
	0x28, 0x21, 0x7e, 0x8b, 0x02, 0xc0, 0x21, 0x84,
	0x82, 0xa4, 0x84, 0xa4, 0x84, 0xbc, 0xb0, 0x0b
};

static void test_worked_frame_after_id(void)
{
	uint8_t buf[32];
	int n;

	memcpy(buf, frame_set_13, 16);
	memcpy(buf + 16, worked_frame, 16);
	n = run(0, buf, sizeof(buf), 0, events, MAX_EVENTS);
	PTU_EQ(n, 5);
	if (n != 5)
		return;
	CHECK_CHUNK(events[0], 0x13, 1, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06,
		    0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e);
	/* aux 0x0b: bit 0 = 1 -> 0x28 becomes 0x29; byte 1 = 0x21;
	 * bit 1 = 1 -> 0x7e becomes 0x7f; byte 3 = 0x8b; bit 2 = 0 -> 0x02;
	 * byte 5 = 0xc0; all still for ID 0x13, at offsets 16..21. */
	CHECK_CHUNK(events[1], 0x13, 16, 0x29, 0x21, 0x7f, 0x8b, 0x02, 0xc0);
	/* byte 6 = 0x21: ID 0x10; aux bit 3 = 1: byte 7 (0x84, offset 23)
	 * still belongs to 0x13. */
	CHECK_CHUNK(events[2], 0x13, 23, 0x84);
	/* bytes 8-14 go to 0x10; aux bits 4-7 are 0, so bit 0 stays 0. */
	CHECK_CHUNK(events[3], 0x10, 24, 0x82, 0xa4, 0x84, 0xa4, 0x84, 0xbc,
		    0xb0);
	CHECK_EOS(events[4]);
}

static void test_worked_frame_no_id(void)
{
	/* As at the start of the TC2 buffer: no ID yet, so bytes 0-5 and
	 * byte 7 (left to the previous, unknown, ID) are discarded. */
	int n = run(0, worked_frame, 16, 0, events, MAX_EVENTS);

	PTU_EQ(n, 2);
	if (n != 2)
		return;
	CHECK_CHUNK(events[0], 0x10, 8, 0x82, 0xa4, 0x84, 0xa4, 0x84, 0xbc,
		    0xb0);
	CHECK_EOS(events[1]);
}

/* Frame byte p of the test frames below: 0x80 | p (bit 0 of even bytes
 * is clear, as for data); data byte p comes out as 0x80 | p, plus the
 * auxiliary bit for even p. */
static uint8_t pattern(unsigned p)
{
	return (uint8_t)(0x80 | p);
}

/*
 * Frame 0 sets ID 0x11 in byte 0 (aux bit 0 = 0) and carries data;
 * frame 1 has the ID 0x12 (byte 0x25) in byte 2k and data elsewhere,
 * with aux bit k = @aux_bit and the other aux bits set so that every
 * even data byte gets bit 0 = 1.  By 11.1, frame 1 gives:
 *  - bytes 0 .. 2k-1 to 0x11 (if k > 0);
 *  - aux 1: byte 2k+1 to 0x11 alone, then bytes 2k+2 .. 14 to 0x12;
 *    aux 0: bytes 2k+1 .. 14 to 0x12;
 *  - k = 7 (byte 14): nothing after it; 0x12 applies from frame 2.
 */
static void check_id_at(unsigned k, unsigned aux_bit)
{
	uint8_t buf[48];
	uint8_t *f1 = buf + 16, *f2 = buf + 32;
	int n, i = 0;

	for (unsigned p = 0; p < 15; p++)
		buf[p] = f1[p] = f2[p] = pattern(p);
	buf[0] = 0x23; /* ID 0x11 */
	buf[15] = 0x00;
	f1[2 * k] = 0x25;
	f1[15] = (uint8_t)((0xff & ~(1u << k)) | aux_bit << k);
	f2[15] = 0x00;

	n = run(0, buf, sizeof(buf), 0, events, MAX_EVENTS);
	PTU_CHECK(n >= 4 && n <= 6);
	if (n < 4)
		return;
	/* Frame 0: bytes 1-14 for 0x11, unchanged (aux 0). */
	PTU_EQ(events[i].id, 0x11);
	PTU_EQ(events[i].offset, 1);
	PTU_EQ(events[i].len, 14);
	for (unsigned p = 1; p < 15 && events[i].len == 14; p++)
		PTU_EQ(events[i].data[p - 1], pattern(p));
	i++;

	/* Expected chunks of frame 1 as (id, first byte, end byte). */
	unsigned want[3][3], nwant = 0;
	if (k > 0) {
		want[nwant][0] = 0x11, want[nwant][1] = 0, want[nwant][2] = 2 * k;
		nwant++;
	}
	if (k < 7 && aux_bit) {
		want[nwant][0] = 0x11, want[nwant][1] = 2 * k + 1;
		want[nwant][2] = 2 * k + 2;
		nwant++;
	}
	if (k < 7) {
		want[nwant][0] = 0x12;
		want[nwant][1] = 2 * k + 1 + aux_bit;
		want[nwant][2] = 15;
		nwant++;
	}
	PTU_EQ(n, 1 + nwant + 2);
	if ((unsigned)n != 1 + nwant + 2)
		return;
	for (unsigned w = 0; w < nwant; w++, i++) {
		PTU_EQ(events[i].err, 0);
		PTU_EQ(events[i].id, want[w][0]);
		PTU_EQ(events[i].offset, 16 + want[w][1]);
		PTU_EQ(events[i].len, want[w][2] - want[w][1]);
		for (unsigned p = want[w][1]; p < want[w][2]; p++) {
			uint8_t b = pattern(p) | (p % 2 == 0 ? 1 : 0);
			PTU_EQ(events[i].data[p - want[w][1]], b);
		}
	}
	/* Frame 2: all data for 0x12, aux 0. */
	PTU_EQ(events[i].id, 0x12);
	PTU_EQ(events[i].offset, 32);
	PTU_EQ(events[i].len, 15);
	i++;
	CHECK_EOS(events[i]);
}

static void test_id_every_position(void)
{
	for (unsigned k = 0; k < 8; k++) {
		check_id_at(k, 0);
		check_id_at(k, 1);
	}
}

static void test_several_ids(void)
{
	/* byte: 0=ID 0x11, 1=a1, 2=ID 0x12, 3=a3, 4=a4, 5=a5, 6=ID 0x13,
	 * 7=a7, 8=a8, 9=a9, 10=ID 0x11, 11=ab, 12=ac, 13=ad, 14=ae.
	 * aux = 0x66 = bits 1, 2, 5, 6:
	 *  bit 0 = 0: byte 1 -> 0x11 (new ID);
	 *  bit 1 = 1: byte 3 -> 0x11 (old ID), alone;
	 *  bit 2 = 1: byte 4 data a4 -> a5; bytes 4-5 -> 0x12;
	 *  bit 3 = 0: byte 7 -> 0x13; bytes 7-9 (bit 4 = 0: a8 stays);
	 *  bit 5 = 1: byte 11 -> 0x13 (old), alone;
	 *  bytes 12-14 -> 0x11: bit 6 = 1: ac -> ad; bit 7 = 0: ae. */
	static const uint8_t f[16] = {
		0x23, 0xa1, 0x25, 0xa3, 0xa4, 0xa5, 0x27, 0xa7,
		0xa8, 0xa9, 0x23, 0xab, 0xac, 0xad, 0xae, 0x66
	};
	int n = run(0, f, 16, 0, events, MAX_EVENTS);

	PTU_EQ(n, 7);
	if (n != 7)
		return;
	CHECK_CHUNK(events[0], 0x11, 1, 0xa1);
	CHECK_CHUNK(events[1], 0x11, 3, 0xa3);
	CHECK_CHUNK(events[2], 0x12, 4, 0xa5, 0xa5);
	CHECK_CHUNK(events[3], 0x13, 7, 0xa7, 0xa8, 0xa9);
	CHECK_CHUNK(events[4], 0x13, 11, 0xab);
	CHECK_CHUNK(events[5], 0x11, 12, 0xad, 0xad, 0xae);
	CHECK_EOS(events[6]);
}

static void test_repeated_id(void)
{
	/* ID 0x11 in byte 0 and again in byte 6 with aux bit 3 = 1: the ID
	 * does not change, so byte 7 stays with 0x11; the chunk still ends
	 * at the ID byte.  Chunks: bytes 1-5 and bytes 7-14. */
	uint8_t f[16];

	for (unsigned p = 0; p < 15; p++)
		f[p] = pattern(p);
	f[0] = f[6] = 0x23;
	f[15] = 0x08;
	int n = run(0, f, 16, 0, events, MAX_EVENTS);
	PTU_EQ(n, 3);
	if (n != 3)
		return;
	CHECK_CHUNK(events[0], 0x11, 1, 0x81, 0x82, 0x83, 0x84, 0x85);
	CHECK_CHUNK(events[1], 0x11, 7, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c,
		    0x8d, 0x8e);
	CHECK_EOS(events[2]);
}

static void test_data_before_id(void)
{
	/* Frame 0: data only, no ID yet: discarded.  Frame 1: ID 0x11 in
	 * byte 4 with aux bit 2 = 1: bytes 0-3 and byte 5 belong to the
	 * unknown previous ID and are discarded; bytes 6-14 -> 0x11. */
	uint8_t buf[32];

	for (unsigned p = 0; p < 15; p++)
		buf[p] = buf[16 + p] = pattern(p);
	buf[15] = 0xff;
	buf[16 + 4] = 0x23;
	buf[31] = 0x04;
	struct pft_dfmt *d = pft_dfmt_alloc(NULL, NULL);
	struct pft_dfmt_chunk c;
	PTU_CHECK(d != NULL);
	if (!d)
		return;
	PTU_EQ(pft_dfmt_feed(d, buf, sizeof(buf)), 0);
	PTU_EQ(pft_dfmt_next(d, &c, sizeof(c)), 0);
	PTU_EQ(c.id, 0x11);
	PTU_EQ(c.offset, 22);
	PTU_EQ(c.len, 9);
	PTU_EQ(c.data[0], 0x86);
	PTU_EQ(c.data[8], 0x8e);
	PTU_EQ(pft_dfmt_next(d, &c, sizeof(c)), -PFT_ERR_NEED_INPUT);
	/* Data without an ID is not reserved-ID data. */
	PTU_EQ(pft_dfmt_reserved_bytes(d), 0);
	pft_dfmt_free(d);
}

static void test_padding_id(void)
{
	/* ID 0x11 in byte 0, ID 0x00 (byte 0x01) in byte 6, aux 0: bytes
	 * 1-5 -> 0x11; bytes 7-14 and all of frame 1 are padding. Frame 2
	 * sets 0x12 in byte 0: bytes 1-14 -> 0x12. */
	uint8_t buf[48];

	for (unsigned i = 0; i < 48; i++)
		buf[i] = pattern(i % 16);
	buf[0] = 0x23;
	buf[6] = 0x01;
	buf[15] = buf[31] = buf[47] = 0;
	buf[32] = 0x25;
	int n = run(0, buf, sizeof(buf), 0, events, MAX_EVENTS);
	PTU_EQ(n, 3);
	if (n != 3)
		return;
	CHECK_CHUNK(events[0], 0x11, 1, 0x81, 0x82, 0x83, 0x84, 0x85);
	PTU_EQ(events[1].id, 0x12);
	PTU_EQ(events[1].offset, 33);
	PTU_EQ(events[1].len, 14);
	CHECK_EOS(events[2]);
}

static void test_reserved_ids(void)
{
	/* Frame 0: ID 0x70 (0xe1) in byte 0, aux 0: 14 bytes of reserved
	 * data; frame 1: data only, still 0x70: 15 more; frame 2: ID 0x7d
	 * (0xfb, trigger) in byte 0 and ID 0x11 in byte 8 (aux 0): bytes
	 * 1-7 reserved (7 more, 36 in all), bytes 9-14 -> 0x11. */
	uint8_t buf[48];
	struct pft_dfmt *d = pft_dfmt_alloc(NULL, NULL);
	struct pft_dfmt_chunk c;

	PTU_CHECK(d != NULL);
	if (!d)
		return;
	for (unsigned i = 0; i < 48; i++)
		buf[i] = pattern(i % 16);
	buf[15] = buf[31] = buf[47] = 0;
	buf[0] = 0xe1;
	buf[32] = 0xfb;
	buf[40] = 0x23;
	PTU_EQ(pft_dfmt_feed(d, buf, 32), 0);
	PTU_EQ(pft_dfmt_next(d, &c, sizeof(c)), -PFT_ERR_NEED_INPUT);
	PTU_EQ(pft_dfmt_reserved_bytes(d), 29);
	PTU_EQ(pft_dfmt_feed(d, buf + 32, 16), 0);
	PTU_EQ(pft_dfmt_next(d, &c, sizeof(c)), 0);
	PTU_EQ(c.id, 0x11);
	PTU_EQ(c.offset, 41);
	PTU_EQ(c.len, 6);
	PTU_EQ(pft_dfmt_next(d, &c, sizeof(c)), -PFT_ERR_NEED_INPUT);
	PTU_EQ(pft_dfmt_reserved_bytes(d), 36);
	pft_dfmt_free(d);
}

static void test_aux_bit_positions(void)
{
	/* After frame_set_13, a data-only frame of zero bytes with aux =
	 * 1 << k: only byte 2k becomes 0x01.  Also with an ID byte in the
	 * frame (byte 14 = 0x27, same ID; k < 7), which takes the other
	 * path through the decoder: bytes 0-13 then. */
	for (unsigned with_id = 0; with_id < 2; with_id++) {
		for (unsigned k = 0; k < 8 - with_id; k++) {
			uint8_t buf[32] = { 0 };
			memcpy(buf, frame_set_13, 16);
			buf[31] = (uint8_t)(1u << k);
			if (with_id)
				buf[30] = 0x27;
			int n = run(0, buf, sizeof(buf), 0, events, MAX_EVENTS);
			PTU_EQ(n, 3);
			if (n != 3)
				continue;
			PTU_EQ(events[1].id, 0x13);
			PTU_EQ(events[1].offset, 16);
			PTU_EQ(events[1].len, with_id ? 14 : 15);
			for (unsigned p = 0; p < events[1].len; p++)
				PTU_EQ(events[1].data[p], p == 2 * k ? 1 : 0);
		}
	}
}

static void test_fsync_frame_memory(void)
{
	/* Memory mode: a frame of four FSYNCs is a discontinuity (chunk of
	 * no data at its offset) and forgets the ID: frame 2 (data only) is
	 * dropped, frame 3's ID 0x12 in byte 0 brings data back. */
	uint8_t buf[64];

	memcpy(buf, frame_set_13, 16);
	for (unsigned i = 16; i < 32; i += 4)
		memcpy(buf + i, "\xff\xff\xff\x7f", 4);
	for (unsigned i = 32; i < 64; i++)
		buf[i] = pattern(i % 16);
	buf[47] = buf[63] = 0;
	buf[48] = 0x25;
	int n = run(0, buf, sizeof(buf), 0, events, MAX_EVENTS);
	PTU_EQ(n, 4);
	if (n != 4)
		return;
	PTU_EQ(events[0].id, 0x13);
	PTU_EQ(events[1].err, 0);
	PTU_EQ(events[1].flags, PFT_DFMT_DISCONTINUITY);
	PTU_EQ(events[1].len, 0);
	PTU_EQ(events[1].offset, 16);
	PTU_EQ(events[2].id, 0x12);
	PTU_EQ(events[2].offset, 49);
	PTU_EQ(events[2].len, 14);
	CHECK_EOS(events[3]);
}

/*
 * A trace-port stream, offsets written down:
 *   0- 2  00 11 22           before the first FSYNC: skipped
 *   3- 6  FSYNC
 *   7-12  frame A bytes 0-5: 23 (ID 0x11, aux bit 0 = 0) 01 02 03 04 05
 *  13-14  HSYNC (removed)
 *  15-24  frame A bytes 6-15: 06 .. 0e, aux 00
 *  25-28  FSYNC
 *  29-44  frame B: 20+p for p = 0..14, aux 01 -> byte 0 = 0x21
 *  45-60  four FSYNCs: discontinuity at 45, ID forgotten
 *  61-76  frame C: data only -> discarded
 *  77-78  HSYNC at a frame boundary
 *  79-94  frame D: 25 (ID 0x12) then 01 .. 0e, aux 00
 */
static size_t tpiu_stream(uint8_t *s)
{
	static const uint8_t fsync[4] = { 0xff, 0xff, 0xff, 0x7f };
	size_t n = 0;

	s[n++] = 0x00, s[n++] = 0x11, s[n++] = 0x22;
	memcpy(s + n, fsync, 4), n += 4;
	s[n++] = 0x23;
	for (unsigned p = 1; p < 6; p++)
		s[n++] = (uint8_t)p;
	s[n++] = 0xff, s[n++] = 0x7f;
	for (unsigned p = 6; p < 15; p++)
		s[n++] = (uint8_t)p;
	s[n++] = 0x00;
	memcpy(s + n, fsync, 4), n += 4;
	for (unsigned p = 0; p < 15; p++)
		s[n++] = (uint8_t)(0x20 + p);
	s[n++] = 0x01;
	for (unsigned i = 0; i < 4; i++)
		memcpy(s + n, fsync, 4), n += 4;
	for (unsigned p = 0; p < 15; p++)
		s[n++] = pattern(p);
	s[n++] = 0x00;
	s[n++] = 0xff, s[n++] = 0x7f;
	s[n++] = 0x25;
	for (unsigned p = 1; p < 15; p++)
		s[n++] = (uint8_t)p;
	s[n++] = 0x00;
	return n;
}

static void test_tpiu_syncs(void)
{
	uint8_t s[128];
	size_t len = tpiu_stream(s);

	PTU_EQ(len, 95);
	int n = run(1, s, len, 0, events, MAX_EVENTS);
	PTU_EQ(n, 6);
	if (n != 6)
		return;
	/* Frame A: bytes 1-5 at 8-12, then (HSYNC gap) bytes 6-14 at 15-23. */
	CHECK_CHUNK(events[0], 0x11, 8, 0x01, 0x02, 0x03, 0x04, 0x05);
	CHECK_CHUNK(events[1], 0x11, 15, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b,
		    0x0c, 0x0d, 0x0e);
	CHECK_CHUNK(events[2], 0x11, 29, 0x21, 0x21, 0x22, 0x23, 0x24, 0x25,
		    0x26, 0x27, 0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e);
	PTU_EQ(events[3].err, 0);
	PTU_EQ(events[3].flags, PFT_DFMT_DISCONTINUITY);
	PTU_EQ(events[3].len, 0);
	PTU_EQ(events[3].offset, 45);
	CHECK_CHUNK(events[4], 0x12, 80, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06,
		    0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e);
	CHECK_EOS(events[5]);

	/* Memory mode reads the same bytes as frames from offset 0: the
	 * syncs are not removed, so frames hold the ID 0x7f and are bad. */
	n = run(0, s, len, 0, events, MAX_EVENTS);
	PTU_CHECK(n > 0 && events[0].err == -PFT_ERR_BAD_FRAME);
}

static void test_tpiu_fsync_runs(void)
{
	static const uint8_t fsync[4] = { 0xff, 0xff, 0xff, 0x7f };
	uint8_t s[64];
	size_t n = 0;
	int k;

	/* Three FSYNCs (0-11) are no discontinuity; the frame at 12 sets
	 * 0x11 in byte 0 (aux 0): bytes 1-14 at 13. */
	for (unsigned i = 0; i < 3; i++)
		memcpy(s + n, fsync, 4), n += 4;
	memcpy(s + n, frame_set_13, 16), n += 16;
	s[12] = 0x23;
	k = run(1, s, n, 0, events, MAX_EVENTS);
	PTU_EQ(k, 2);
	if (k == 2) {
		PTU_EQ(events[0].flags, 0);
		PTU_EQ(events[0].id, 0x11);
		PTU_EQ(events[0].offset, 13);
		CHECK_EOS(events[1]);
	}

	/* FSYNC (0-3), frame 0x13 (4-19), five FSYNCs (20-39): one
	 * discontinuity, at 20; the data-only frame at 40 has no ID. */
	n = 0;
	memcpy(s + n, fsync, 4), n += 4;
	memcpy(s + n, frame_set_13, 16), n += 16;
	for (unsigned i = 0; i < 5; i++)
		memcpy(s + n, fsync, 4), n += 4;
	memset(s + n, 0x40, 16), n += 16;
	k = run(1, s, n, 0, events, MAX_EVENTS);
	PTU_EQ(k, 3);
	if (k == 3) {
		PTU_EQ(events[0].id, 0x13);
		PTU_EQ(events[0].offset, 5);
		PTU_EQ(events[1].err, 0);
		PTU_EQ(events[1].flags, PFT_DFMT_DISCONTINUITY);
		PTU_EQ(events[1].offset, 20);
		CHECK_EOS(events[2]);
	}
}

static void test_tpiu_ffff_in_frame(void)
{
	/* 0-3 FSYNC; 4-7 frame start 23 01 02 03; 8-9 FF FF inside the
	 * frame: bad frame at 4, nothing of it delivered; the search for
	 * sync restarts at 8 and finds FF FF FF 7F at 8-11; 12-27 frame
	 * with ID 0x12 in byte 0, data 01..0e, aux 0 -> chunk at 13.
	 * 28-31 FF FF 12 34: an FSYNC cut short at a frame boundary: bad at
	 * 28; no FSYNC follows, so the last 3 bytes are skipped. */
	uint8_t s[64];
	size_t n = 0;

	memcpy(s + n, "\xff\xff\xff\x7f\x23\x01\x02\x03", 8), n += 8;
	memcpy(s + n, "\xff\xff\xff\x7f", 4), n += 4;
	s[n++] = 0x25;
	for (unsigned p = 1; p < 15; p++)
		s[n++] = (uint8_t)p;
	s[n++] = 0;
	memcpy(s + n, "\xff\xff\x12\x34\x56\x78\x9a", 7), n += 7;
	for (size_t piece = 0; piece < 18; piece++) {
		int k = run(1, s, n, piece, events, MAX_EVENTS);
		PTU_EQ(k, 4);
		if (k != 4)
			continue;
		CHECK_ERR(events[0], PFT_ERR_BAD_FRAME, 4);
		CHECK_CHUNK(events[1], 0x12, 13, 0x01, 0x02, 0x03, 0x04, 0x05,
			    0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d,
			    0x0e);
		CHECK_ERR(events[2], PFT_ERR_BAD_FRAME, 28);
		CHECK_EOS(events[3]);
	}
}

static void test_bad_frame_memory(void)
{
	/* Frame 0 sets 0x13; frame 1 has 0xff in byte 4 (ID 0x7f): bad at
	 * 16, nothing delivered (its byte 0 is data of 0x13 otherwise) and
	 * the ID is forgotten, so frame 2 (data only) is dropped; frame 3
	 * sets 0x12 in byte 0 and delivers bytes 1-14 at 49. */
	uint8_t buf[64];

	memcpy(buf, frame_set_13, 16);
	for (unsigned i = 16; i < 64; i++)
		buf[i] = pattern(i % 16);
	buf[31] = buf[47] = buf[63] = 0;
	buf[20] = 0xff;
	buf[48] = 0x25;
	for (size_t piece = 0; piece < 18; piece++) {
		int n = run(0, buf, sizeof(buf), piece, events, MAX_EVENTS);
		PTU_EQ(n, 4);
		if (n != 4)
			continue;
		PTU_EQ(events[0].id, 0x13);
		CHECK_ERR(events[1], PFT_ERR_BAD_FRAME, 16);
		PTU_EQ(events[2].id, 0x12);
		PTU_EQ(events[2].offset, 49);
		PTU_EQ(events[2].len, 14);
		CHECK_EOS(events[3]);
	}
}

static void test_truncated(void)
{
	/* Memory: one frame and 5 bytes: the chunk, then TRUNCATED at 16
	 * (reported once), then EOS for good. */
	uint8_t buf[21];
	struct pft_dfmt *d = pft_dfmt_alloc(NULL, NULL);
	struct pft_dfmt_chunk c;

	PTU_CHECK(d != NULL);
	if (!d)
		return;
	memcpy(buf, frame_set_13, 16);
	memset(buf + 16, 0x23, 5);
	PTU_EQ(pft_dfmt_feed(d, buf, sizeof(buf)), 0);
	PTU_EQ(pft_dfmt_next(d, &c, sizeof(c)), 0);
	PTU_EQ(pft_dfmt_get_offset(d), 0);
	PTU_EQ(pft_dfmt_next(d, &c, sizeof(c)), -PFT_ERR_NEED_INPUT);
	PTU_EQ(pft_dfmt_finish(d), 0);
	PTU_EQ(pft_dfmt_next(d, &c, sizeof(c)), -PFT_ERR_TRUNCATED);
	PTU_EQ(pft_dfmt_get_offset(d), 16);
	PTU_EQ(pft_dfmt_next(d, &c, sizeof(c)), -PFT_ERR_EOS);
	PTU_EQ(pft_dfmt_next(d, &c, sizeof(c)), -PFT_ERR_EOS);
	PTU_EQ(pft_dfmt_feed(d, buf, 1), -PFT_ERR_EOS);
	pft_dfmt_free(d);

	/* Trace port: FSYNC (0-3), then 11 bytes of a frame: TRUNCATED at 4.
	 * A whole frame after the FSYNC ends cleanly. */
	uint8_t s[20] = { 0xff, 0xff, 0xff, 0x7f };
	int n = run(1, s, 15, 0, events, MAX_EVENTS);
	PTU_EQ(n, 2);
	if (n == 2) {
		CHECK_ERR(events[0], PFT_ERR_TRUNCATED, 4);
		CHECK_EOS(events[1]);
	}
	n = run(1, s, 20, 0, events, MAX_EVENTS);
	PTU_EQ(n, 1);
	if (n == 1)
		CHECK_EOS(events[0]);
	/* Nothing at all: EOS. */
	n = run(0, s, 0, 0, events, MAX_EVENTS);
	PTU_EQ(n, 1);
	if (n == 1)
		CHECK_EOS(events[0]);
}

static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long size;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 &&
	    fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)size);
		if (buf && fread(buf, 1, (size_t)size, f) != (size_t)size) {
			free(buf);
			buf = NULL;
		}
		*len = (size_t)size;
	}
	fclose(f);
	return buf;
}

static const char *tc2_dir(char *path, size_t size)
{
	const char *shared = getenv("PFT_SHARED");

	if (!shared) {
		fprintf(stderr, "PFT_SHARED is not set\n");
		return NULL;
	}
	snprintf(path, size, "%s/testdata/opencsd-snapshots/TC2", shared);
	return path;
}

static int same_events(const struct event *a, int na, const struct event *b,
		       int nb)
{
	if (na != nb)
		return 0;
	for (int i = 0; i < na; i++) {
		if (a[i].err != b[i].err || a[i].id != b[i].id ||
		    a[i].flags != b[i].flags || a[i].len != b[i].len ||
		    a[i].offset != b[i].offset ||
		    memcmp(a[i].data, b[i].data, a[i].len) != 0)
			return 0;
	}
	return 1;
}

static struct event events_whole[MAX_EVENTS];

static void check_pieces(int tpiu, const uint8_t *buf, size_t len)
{
	int n = run(tpiu, buf, len, 0, events_whole, MAX_EVENTS);

	PTU_CHECK(n > 1);
	for (size_t piece = 1; piece <= 17; piece++) {
		int k = run(tpiu, buf, len, piece, events, MAX_EVENTS);
		if (!same_events(events_whole, n, events, k)) {
			fprintf(stderr, "tpiu %d, pieces of %zu differ\n", tpiu,
				piece);
			PTU_CHECK(0);
		}
	}
}

static void test_pieces(void)
{
	char dir[4096], path[4200];
	size_t len = 0;
	uint8_t s[128];

	if (!tc2_dir(dir, sizeof(dir))) {
		PTU_CHECK(0);
		return;
	}
	snprintf(path, sizeof(path), "%s/cstrace.bin", dir);
	uint8_t *buf = read_file(path, &len);
	PTU_CHECK(buf != NULL);
	if (!buf)
		return;
	/* The first 4 KiB keep the event count small. */
	check_pieces(0, buf, len < 4096 ? len : 4096);
	free(buf);
	check_pieces(1, s, tpiu_stream(s));
}

/* Per-ID byte streams. */
struct streams {
	uint8_t *data[128];
	size_t len[128];
};

static void streams_add(struct streams *st, unsigned id, const uint8_t *p,
			size_t n)
{
	memcpy(st->data[id] + st->len[id], p, n);
	st->len[id] += n;
}

static int streams_init(struct streams *st, size_t cap)
{
	memset(st, 0, sizeof(*st));
	for (unsigned i = 0; i < 128; i++)
		if (!(st->data[i] = malloc(cap)))
			return -1;
	return 0;
}

static void streams_free(struct streams *st)
{
	for (unsigned i = 0; i < 128; i++)
		free(st->data[i]);
}

/* Parse trc_pkt_lister -o_raw_unpacked lines:
 *   "Frame Data; Index   16;   ID_DATA[0x10]; 82 a4 84 ..."
 * Data for "[????]" (no ID yet) is not any source's. */
static int opencsd_streams(const char *dir, struct streams *st)
{
	char tmp[] = "/tmp/pft_test_dfmt_XXXXXX", cmd[8400], line[4096];
	int lines = 0;

	if (!mkdtemp(tmp))
		return -1;
	/* trc_pkt_lister writes trc_pkt_lister.ppl in its working directory
	 * whatever the output options. */
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && trc_pkt_lister -ss_dir '%s' -o_raw_unpacked "
		 "-logstdout; s=$?; rm -f trc_pkt_lister.ppl; exit $s",
		 tmp, dir);
	FILE *p = popen(cmd, "r");
	if (!p) {
		rmdir(tmp);
		return -1;
	}
	while (fgets(line, sizeof(line), p)) {
		char *q = strstr(line, "ID_DATA[0x");
		if (strncmp(line, "Frame Data;", 11) != 0 || !q)
			continue;
		unsigned id = (unsigned)strtoul(q + 10, &q, 16);
		if (id >= 128 || strncmp(q, "];", 2) != 0)
			continue;
		q += 2;
		for (;;) {
			char *end;
			unsigned long b = strtoul(q, &end, 16);
			if (end == q || b > 0xff)
				break;
			uint8_t byte = (uint8_t)b;
			streams_add(st, id, &byte, 1);
			q = end;
		}
		lines++;
	}
	int status = pclose(p);
	rmdir(tmp);
	if (status != 0) {
		fprintf(stderr, "trc_pkt_lister failed (status %d)\n", status);
		return -1;
	}
	return lines;
}

static void test_opencsd_tc2(void)
{
	char dir[4096], path[4200];
	struct streams ref, ours;
	size_t len = 0;

	if (!tc2_dir(dir, sizeof(dir))) {
		PTU_CHECK(0);
		return;
	}
	snprintf(path, sizeof(path), "%s/cstrace.bin", dir);
	uint8_t *buf = read_file(path, &len);
	PTU_CHECK(buf != NULL);
	PTU_EQ(len, 32768);
	if (!buf)
		return;
	if (streams_init(&ref, len) || streams_init(&ours, len)) {
		PTU_CHECK(0);
		goto out;
	}
	int lines = opencsd_streams(dir, &ref);
	PTU_CHECK(lines > 1000);

	struct pft_dfmt *d = pft_dfmt_alloc(NULL, NULL);
	struct pft_dfmt_chunk c;
	int r;
	PTU_CHECK(d != NULL);
	if (!d)
		goto out;
	PTU_EQ(pft_dfmt_feed(d, buf, len), 0);
	PTU_EQ(pft_dfmt_finish(d), 0);
	uint64_t prev_end = 0;
	while ((r = pft_dfmt_next(d, &c, sizeof(c))) == 0) {
		/* Chunks come in input order and never overlap. */
		PTU_CHECK(c.offset >= prev_end);
		prev_end = c.offset + c.len;
		PTU_CHECK(c.id >= 1 && c.id <= PFT_ID_MAX_VALID);
		PTU_CHECK(c.len >= 1 && c.len <= 15);
		streams_add(&ours, c.id, c.data, c.len);
	}
	PTU_EQ(r, -PFT_ERR_EOS);
	pft_dfmt_free(d);

	for (unsigned id = 1; id <= PFT_ID_MAX_VALID; id++) {
		if (ref.len[id] != ours.len[id] ||
		    memcmp(ref.data[id], ours.data[id], ref.len[id]) != 0) {
			fprintf(stderr, "ID 0x%02x: OpenCSD %zu bytes, ours %zu\n",
				id, ref.len[id], ours.len[id]);
			PTU_CHECK(0);
		}
	}
	/* The capture's sources (pft-flow.md 12.3) all had data. */
	for (unsigned id = 0x10; id <= 0x13; id++)
		PTU_CHECK(ours.len[id] > 1000);
out:
	streams_free(&ref);
	streams_free(&ours);
	free(buf);
}

static void test_invalid(void)
{
	struct pft_dfmt_config cfg = { .size = sizeof(cfg) };
	struct pft_dfmt_chunk c;
	uint8_t buf[32] = { 0 };
	int err = 0;

	cfg.size = offsetof(struct pft_dfmt_config, reserved) - 1;
	PTU_CHECK(pft_dfmt_alloc(&cfg, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	cfg.size = sizeof(cfg);
	cfg.tpiu = 2;
	err = 0;
	PTU_CHECK(pft_dfmt_alloc(&cfg, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	cfg.tpiu = 1;
	cfg.reserved[6] = 1;
	err = 0;
	PTU_CHECK(pft_dfmt_alloc(&cfg, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	PTU_CHECK(pft_dfmt_alloc(&cfg, NULL) == NULL);
	cfg.reserved[6] = 0;
	err = 1;
	struct pft_dfmt *d = pft_dfmt_alloc(&cfg, &err);
	PTU_CHECK(d != NULL);
	PTU_EQ(err, 0);
	pft_dfmt_free(d);

	pft_dfmt_free(NULL);
	PTU_EQ(pft_dfmt_feed(NULL, buf, 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_dfmt_next(NULL, &c, sizeof(c)), -PFT_ERR_INVALID);
	PTU_EQ(pft_dfmt_finish(NULL), -PFT_ERR_INVALID);
	PTU_EQ(pft_dfmt_get_offset(NULL), 0);
	PTU_EQ(pft_dfmt_reserved_bytes(NULL), 0);

	d = pft_dfmt_alloc(NULL, &err);
	PTU_CHECK(d != NULL);
	if (!d)
		return;
	PTU_EQ(pft_dfmt_feed(d, NULL, 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_dfmt_feed(d, NULL, 0), 0);
	PTU_EQ(pft_dfmt_next(d, NULL, sizeof(c)), -PFT_ERR_INVALID);
	PTU_EQ(pft_dfmt_next(d, &c, sizeof(c) - 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_dfmt_next(d, &c, sizeof(c)), -PFT_ERR_NEED_INPUT);
	/* Feeding again before the buffer is used up would lose it. */
	memcpy(buf, frame_set_13, 16);
	PTU_EQ(pft_dfmt_feed(d, buf, 32), 0);
	PTU_EQ(pft_dfmt_feed(d, buf, 32), -PFT_ERR_INVALID);
	PTU_EQ(pft_dfmt_next(d, &c, sizeof(c)), 0); /* 0x13 at 1 */
	PTU_EQ(pft_dfmt_next(d, &c, sizeof(c)), 0); /* 0x13 at 16: zeros */
	PTU_EQ(c.offset, 16);
	PTU_EQ(pft_dfmt_next(d, &c, sizeof(c)), -PFT_ERR_NEED_INPUT);
	PTU_EQ(pft_dfmt_feed(d, buf, 16), 0);
	PTU_EQ(pft_dfmt_finish(d), 0);
	PTU_EQ(pft_dfmt_finish(d), 0);
	PTU_EQ(pft_dfmt_feed(d, buf, 16), -PFT_ERR_EOS);
	/* Input fed before finish is still decoded: frame at 32. */
	PTU_EQ(pft_dfmt_next(d, &c, sizeof(c)), 0);
	PTU_EQ(c.offset, 33);
	PTU_EQ(pft_dfmt_next(d, &c, sizeof(c)), -PFT_ERR_EOS);
	pft_dfmt_free(d);
}

/* A deterministic byte soup never crashes, hangs or returns what the
 * contract does not allow, in both modes and in pieces. */
static void test_random(void)
{
	static uint8_t buf[1 << 12];
	uint32_t x = 12345;

	for (size_t i = 0; i < sizeof(buf); i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = (uint8_t)(x >> 16);
		/* Make syncs and 0xff likely. */
		if ((x >> 28) < 4)
			buf[i] = (x >> 27) & 1 ? 0xff : 0x7f;
	}
	for (int tpiu = 0; tpiu < 2; tpiu++) {
		for (size_t piece = 0; piece < 20; piece += 7) {
			int n = run(tpiu, buf, sizeof(buf), piece, events,
				    MAX_EVENTS);
			PTU_CHECK(n > 0);
			for (int i = 0; i < n; i++) {
				int e = events[i].err;
				PTU_CHECK(e == 0 || e == -PFT_ERR_BAD_FRAME ||
					  e == -PFT_ERR_TRUNCATED ||
					  (e == -PFT_ERR_EOS && i == n - 1));
				PTU_CHECK(events[i].offset < sizeof(buf));
			}
		}
	}
}

int main(void)
{
	PTU_RUN(test_worked_frame_after_id);
	PTU_RUN(test_worked_frame_no_id);
	PTU_RUN(test_id_every_position);
	PTU_RUN(test_several_ids);
	PTU_RUN(test_repeated_id);
	PTU_RUN(test_data_before_id);
	PTU_RUN(test_padding_id);
	PTU_RUN(test_reserved_ids);
	PTU_RUN(test_aux_bit_positions);
	PTU_RUN(test_fsync_frame_memory);
	PTU_RUN(test_tpiu_syncs);
	PTU_RUN(test_tpiu_fsync_runs);
	PTU_RUN(test_tpiu_ffff_in_frame);
	PTU_RUN(test_bad_frame_memory);
	PTU_RUN(test_truncated);
	PTU_RUN(test_pieces);
	PTU_RUN(test_opencsd_tc2);
	PTU_RUN(test_invalid);
	PTU_RUN(test_random);
	PTU_MAIN_END();
}
