/* Frame formatter tests.  Frames are checked against the worked frame of
 * pft-flow.md 11.1, against hand-built frames, and by a small deformatter
 * written here from the 11.1/11.2 rules. */
#include "ptunit.h"

#include "pft.h"

static const uint8_t fsync_bytes[4] = { 0xff, 0xff, 0xff, 0x7f };

static struct pft_ffmt *ffmt_new(uint8_t tpiu, uint8_t fsync_period)
{
	struct pft_ffmt_config cfg = { .size = sizeof(cfg), .tpiu = tpiu,
				       .fsync_period = fsync_period };
	int err = 1;
	struct pft_ffmt *f = pft_ffmt_alloc(&cfg, &err);

	PTU_CHECK(f != NULL);
	PTU_EQ(err, 0);
	return f;
}

/* Take everything; returns the byte count. */
static size_t take_all(struct pft_ffmt *f, uint8_t *out, size_t cap)
{
	size_t ready = pft_ffmt_ready(f);
	int n = pft_ffmt_take(f, out, cap);

	PTU_CHECK(n >= 0);
	PTU_EQ((size_t)n, ready < cap ? ready : cap);
	return n < 0 ? 0 : (size_t)n;
}

static void check_frame(const uint8_t *got, const char *hex, int line)
{
	uint8_t want[16];
	size_t n = 0;
	unsigned v;
	int used;

	while (n < 16 && sscanf(hex, " %2x%n", &v, &used) == 1) {
		want[n++] = (uint8_t)v;
		hex += used;
	}
	if (n != 16 || memcmp(got, want, 16) != 0) {
		fprintf(stderr, "%s:%d: frame differs\n  got :", __FILE__, line);
		for (int i = 0; i < 16; i++)
			fprintf(stderr, " %02x", got[i]);
		fprintf(stderr, "\n");
		ptu_failed_checks++;
	}
}

#define CHECK_FRAME(got, hex) check_frame(got, hex, __LINE__)

/* ---- A deformatter from pft-flow.md 11.1 and 11.2 ---- */

enum { MAX_ID_BYTES = 1 << 16 };

struct deformatted {
	uint8_t data[128][1024];
	size_t len[128];
	size_t frames;
	size_t max_frames_without_id;   /* longest run of frames with no ID */
	int errors;                     /* data before any ID, bad FSYNC, ... */
};

static void emit(struct deformatted *d, int id, uint8_t b)
{
	if (id < 0) {
		d->errors++;
		return;
	}
	if (d->len[id] < sizeof(d->data[id]))
		d->data[id][d->len[id]++] = b;
	else
		d->errors++;
}

/* @fsync_period: 0 for memory buffers, else an FSYNC must precede frame
 * indexes that are multiples of it, and nowhere else. */
static void deformat(struct deformatted *d, const uint8_t *buf, size_t len,
		     unsigned fsync_period)
{
	int cur = -1;
	size_t pos = 0, without_id = 0;

	memset(d, 0, sizeof(*d));
	while (pos < len) {
		const uint8_t *f;
		uint8_t aux;
		int next = -1, has_id = 0;

		if (fsync_period && d->frames % fsync_period == 0) {
			if (len - pos < 4 || memcmp(buf + pos, fsync_bytes, 4))
				d->errors++;
			pos += 4;
		}
		if (len - pos < 16) {
			d->errors++;
			break;
		}
		f = buf + pos;
		aux = f[15];
		for (int k = 0; k < 8; k++) {
			uint8_t b = f[2 * k];
			int auxbit = aux >> k & 1;

			if (b & 1) {
				has_id = 1;
				if (k == 7) {
					next = b >> 1;   /* from the next frame */
					continue;
				}
				/* aux 1 on a change: the data byte after it
				 * still belongs to the old ID. */
				if (auxbit && (b >> 1) != cur) {
					emit(d, cur, f[2 * k + 1]);
					cur = b >> 1;
				} else {
					cur = b >> 1;
					emit(d, cur, f[2 * k + 1]);
				}
			} else {
				emit(d, cur, (uint8_t)(b | auxbit));
				if (k < 7)
					emit(d, cur, f[2 * k + 1]);
			}
		}
		if (next >= 0)
			cur = next;
		without_id = has_id ? 0 : without_id + 1;
		if (without_id > d->max_frames_without_id)
			d->max_frames_without_id = without_id;
		d->frames++;
		pos += 16;
	}
}

/* ---- Tests ---- */

/* Rebuild the worked frame of 11.1 from per-ID data: the previous ID
 * (0x13, chosen here) fills the first frame, then 7 more bytes of it and
 * 7 of ID 0x10. */
static void test_worked_frame(void)
{
	/* Odd values in even slots exercise the aux byte. */
	static const uint8_t first[14] = { 0x01, 0x03, 0x05, 0x07, 0x09,
					   0x0b, 0x0d, 0x0f, 0x11, 0x13,
					   0x15, 0x17, 0x19, 0x1b };
	static const uint8_t old_id[7] = { 0x29, 0x21, 0x7f, 0x8b, 0x02,
					   0xc0, 0x84 };
	static const uint8_t new_id[7] = { 0x82, 0xa4, 0x84, 0xa4, 0x84,
					   0xbc, 0xb0 };
	struct pft_ffmt *f = ffmt_new(0, 0);
	uint8_t out[64];

	if (!f)
		return;
	PTU_EQ(pft_ffmt_put(f, 0x13, first, sizeof(first)), 0);
	PTU_EQ(pft_ffmt_put(f, 0x13, old_id, sizeof(old_id)), 0);
	PTU_EQ(pft_ffmt_put(f, 0x10, new_id, sizeof(new_id)), 0);
	PTU_EQ(take_all(f, out, sizeof(out)), 32);
	/* ID 0x13 = 0x27 in slot 0, then 14 data bytes; even slots lose
	 * bit 0 to aux bits 1-7: aux = 0xfe. */
	CHECK_FRAME(out,
		    "27 01 02 05 06 09 0a 0d 0e 11 12 15 16 19 1a fe");
	CHECK_FRAME(out + 16,
		    "28 21 7e 8b 02 c0 21 84 82 a4 84 a4 84 bc b0 0b");
	pft_ffmt_free(f);
}

static void test_flush_padding(void)
{
	static const uint8_t two[2] = { 0xbb, 0xcd };
	static const uint8_t thirteen[13] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
					      11, 12, 13 };
	struct pft_ffmt *f = ffmt_new(0, 0);
	uint8_t out[64];

	if (!f)
		return;
	/* Nothing open: nothing to pad. */
	PTU_EQ(pft_ffmt_flush(f), 0);
	PTU_EQ(pft_ffmt_ready(f), 0);

	/* ID 5 (0x0b) and one byte, then ID 0 (0x01) and zero padding. */
	PTU_EQ(pft_ffmt_put(f, 5, two, 1), 0);
	PTU_EQ(pft_ffmt_ready(f), 0);
	PTU_EQ(pft_ffmt_flush(f), 0);
	PTU_EQ(take_all(f, out, sizeof(out)), 16);
	CHECK_FRAME(out, "0b bb 01 00 00 00 00 00 00 00 00 00 00 00 00 00");

	/* The second byte would take slot 2: ID 0 goes there with aux
	 * bit 1 = 1 and 0xcd moves to slot 3, still ID 5's. */
	PTU_EQ(pft_ffmt_put(f, 5, two, 2), 0);
	PTU_EQ(pft_ffmt_flush(f), 0);
	PTU_EQ(take_all(f, out, sizeof(out)), 16);
	CHECK_FRAME(out, "0b bb 01 cd 00 00 00 00 00 00 00 00 00 00 00 02");

	/* ID 5 + 13 bytes fill slots 0-13; ID 0 lands in slot 14. */
	PTU_EQ(pft_ffmt_put(f, 5, thirteen, 13), 0);
	PTU_EQ(pft_ffmt_flush(f), 0);
	PTU_EQ(take_all(f, out, sizeof(out)), 16);
	/* Even slots 2-12 hold 2,4,..,12 (bit 0 clear): aux = 0. */
	CHECK_FRAME(out, "0b 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 01 00");
	pft_ffmt_free(f);
}

/* An ID in slot 14 applies from the next frame. */
static void test_id_in_last_slot(void)
{
	static const uint8_t thirteen[13] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
					      11, 12, 13 };
	static const uint8_t two[2] = { 0x41, 0x42 };
	struct pft_ffmt *f = ffmt_new(0, 0);
	uint8_t out[64];

	if (!f)
		return;
	PTU_EQ(pft_ffmt_put(f, 5, thirteen, 13), 0);
	PTU_EQ(pft_ffmt_put(f, 6, two, 2), 0);
	PTU_EQ(pft_ffmt_flush(f), 0);
	PTU_EQ(take_all(f, out, sizeof(out)), 32);
	CHECK_FRAME(out, "0b 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0d 00");
	/* 0x41 in slot 0: 0x40 + aux bit 0; then ID 0 (0x01) in slot 2. */
	CHECK_FRAME(out + 16,
		    "40 42 01 00 00 00 00 00 00 00 00 00 00 00 00 01");
	pft_ffmt_free(f);
}

/* TPIU: FSYNC before frame 0 and every 8th frame; ID at least every 8
 * frames even when it does not change. */
static void test_tpiu(void)
{
	static uint8_t data[15 * 9], out[1024];
	struct pft_ffmt *f = ffmt_new(1, 0);
	size_t n;

	if (!f)
		return;
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 2);   /* even: aux stays 0 */
	/* Frame 0: ID + 14 bytes; frames 1-7: 15 bytes each (119 in all);
	 * frame 8 starts with the repeated ID. */
	PTU_EQ(pft_ffmt_put(f, 5, data, 14 + 7 * 15 + 1), 0);
	PTU_EQ(pft_ffmt_flush(f), 0);
	n = take_all(f, out, sizeof(out));
	PTU_EQ(n, 4 + 8 * 16 + 4 + 16);
	PTU_CHECK(memcmp(out, fsync_bytes, 4) == 0);
	PTU_EQ(out[4], 0x0b);
	PTU_EQ(out[5], 0);            /* data[0] */
	PTU_EQ(out[4 + 16], 28);      /* frame 1 starts with data[14] */
	PTU_CHECK(memcmp(out + 4 + 8 * 16, fsync_bytes, 4) == 0);
	PTU_EQ(out[4 + 8 * 16 + 4], 0x0b);          /* repeated ID 5 */
	PTU_EQ(out[4 + 8 * 16 + 5], (uint8_t)(119 * 2)); /* last byte */
	PTU_EQ(out[4 + 8 * 16 + 6], 0x01);          /* padding ID 0 */
	pft_ffmt_free(f);

	/* FSYNC period 3: before frames 0, 3, 6. */
	f = ffmt_new(1, 3);
	if (!f)
		return;
	PTU_EQ(pft_ffmt_put(f, 7, data, 14 + 6 * 15), 0);
	n = take_all(f, out, sizeof(out));
	PTU_EQ(n, 7 * 16 + 3 * 4);
	PTU_CHECK(memcmp(out, fsync_bytes, 4) == 0);
	PTU_CHECK(memcmp(out + 4 + 3 * 16, fsync_bytes, 4) == 0);
	PTU_CHECK(memcmp(out + 8 + 6 * 16, fsync_bytes, 4) == 0);
	pft_ffmt_free(f);
}

/* A small deterministic generator (xorshift32). */
static uint32_t next_random(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* Random interleavings: the deformatter must give back every source's
 * bytes; memory mode must use exactly one slot per byte plus one per ID
 * change (frames = ceil(slots / 15)); TPIU must have an ID within every 8
 * frames and FSYNCs where due. */
static void test_random_roundtrip(void)
{
	static struct deformatted d;
	static uint8_t want[128][1024], out[1 << 16];
	size_t want_len[128];
	uint32_t seed = 12345;

	for (int round = 0; round < 200; round++) {
		int tpiu = round & 1;
		unsigned period = tpiu ? 1 + round % 9 : 0;
		struct pft_ffmt *f = ffmt_new((uint8_t)tpiu, (uint8_t)period);
		size_t total = 0, changes = 0, len = 0;
		int last = -1;

		if (!f)
			return;
		memset(want_len, 0, sizeof(want_len));
		for (int put = 0; put < 40; put++) {
			/* Few IDs, so that consecutive puts often repeat one. */
			uint8_t id = (uint8_t)(1 + next_random(&seed) % 3) *
				     (round % 5 == 0 ? 0x25 : 1);
			size_t n = next_random(&seed) % (round < 100 ? 4 : 40);
			uint8_t buf[64];

			if (want_len[id] + n > sizeof(want[id]))
				break;
			for (size_t i = 0; i < n; i++) {
				buf[i] = (uint8_t)next_random(&seed);
				want[id][want_len[id]++] = buf[i];
			}
			PTU_EQ(pft_ffmt_put(f, id, buf, n), 0);
			if (n && id != last) {
				changes++;
				last = id;
			}
			total += n;
			/* Take now and then, to test partial takes. */
			if (next_random(&seed) % 4 == 0)
				len += take_all(f, out + len,
						next_random(&seed) % 40);
		}
		PTU_EQ(pft_ffmt_flush(f), 0);
		len += take_all(f, out + len, sizeof(out) - len);
		PTU_EQ(pft_ffmt_ready(f), 0);
		pft_ffmt_free(f);

		deformat(&d, out, len, period);
		PTU_EQ(d.errors, 0);
		for (int id = 1; id < 128; id++) {
			PTU_EQ(d.len[id], want_len[id]);
			PTU_CHECK(memcmp(d.data[id], want[id], want_len[id]) == 0);
		}
		if (!tpiu)
			PTU_EQ(d.frames, (total + changes + 14) / 15);
		else
			PTU_CHECK(d.max_frames_without_id <= 7);
	}
}

static void test_invalid(void)
{
	struct pft_ffmt_config cfg = { .size = 0 };
	uint8_t b = 0x55, out[16];
	struct pft_ffmt *f;
	int err = 0;

	PTU_CHECK(pft_ffmt_alloc(&cfg, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	PTU_CHECK(pft_ffmt_alloc(&cfg, NULL) == NULL);

	err = 1;
	f = pft_ffmt_alloc(NULL, &err);   /* memory buffer */
	PTU_CHECK(f != NULL);
	PTU_EQ(err, 0);
	if (!f)
		return;
	PTU_EQ(pft_ffmt_put(NULL, 1, &b, 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_ffmt_put(f, 0, &b, 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_ffmt_put(f, 0x70, &b, 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_ffmt_put(f, 0x7f, &b, 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_ffmt_put(f, 1, NULL, 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_ffmt_put(f, 1, NULL, 0), 0);
	PTU_EQ(pft_ffmt_put(f, 0x6f, &b, 1), 0);
	PTU_EQ(pft_ffmt_take(NULL, out, sizeof(out)), -PFT_ERR_INVALID);
	PTU_EQ(pft_ffmt_take(f, NULL, 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_ffmt_take(f, NULL, 0), 0);
	PTU_EQ(pft_ffmt_flush(NULL), -PFT_ERR_INVALID);
	PTU_EQ(pft_ffmt_ready(NULL), 0);
	/* ID 0x6f = byte 0xdf; then 0x55; then ID 0 padding. */
	PTU_EQ(pft_ffmt_flush(f), 0);
	PTU_EQ(pft_ffmt_take(f, out, 5), 5);
	PTU_EQ(out[0], 0xdf);
	PTU_EQ(out[1], 0x55);
	PTU_EQ(out[2], 0x01);
	PTU_EQ(pft_ffmt_ready(f), 11);
	PTU_EQ(pft_ffmt_take(f, out, sizeof(out)), 11);
	pft_ffmt_free(f);
	pft_ffmt_free(NULL);
}

int main(void)
{
	PTU_RUN(test_worked_frame);
	PTU_RUN(test_flush_padding);
	PTU_RUN(test_id_in_last_slot);
	PTU_RUN(test_tpiu);
	PTU_RUN(test_random_roundtrip);
	PTU_RUN(test_invalid);
	PTU_MAIN_END();
}
