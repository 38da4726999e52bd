/* The pipeline joins a formatted source's frame payloads before decoding
 * them: the packets and their input offsets must not depend on that, nor
 * on how the buffer is fed.
 *
 * The buffer is built here, frame by frame, with the layout written out
 * (pft-flow.md 11): byte 0 is the ID byte (ID << 1 | 1, auxiliary bit 0
 * clear: the ID applies from the next byte), bytes 1-14 data (the even
 * ones with bit 0 in auxiliary bit k of byte 15 for byte 2k), so data byte
 * j of frame n is at input offset 16n + 1 + j.  Two sources take turns
 * in runs of frames; source 0x13's stream has damage in it (a reserved
 * header, junk, zeros that are not an A-sync) so that its decoder loses
 * sync and scans NOTSYNC bytes across frames. */
#include "ptunit.h"

#include <stdlib.h>

#include "pft.h"

enum { FRAME_DATA = 14, FRAMES = 12000, MAX_PKTS = 200000, SRCS = 2 };

static const uint8_t ids[SRCS] = { 0x13, 0x21 };

struct source_stream {
	uint8_t *bytes;
	size_t len, cap;
	uint64_t *input;   /* input offset of each byte, once framed */
	size_t framed;     /* bytes framed so far */
};

static void append(struct source_stream *s, const uint8_t *b, size_t n)
{
	PTU_CHECK(s->len + n <= s->cap);
	if (s->len + n > s->cap)
		return;
	memcpy(s->bytes + s->len, b, n);
	s->len += n;
}

static void put(struct pft_ptm_encoder *e, struct source_stream *s, const struct pft_ptm_packet *p)
{
	uint8_t b[32];
	int n = pft_ptm_enc_packet(e, p, b, sizeof(b));

	PTU_CHECK(n > 0);
	if (n > 0)
		append(s, b, (size_t)n);
}

static void sync_packets(struct pft_ptm_encoder *e, struct source_stream *s)
{
	struct pft_ptm_packet p = { .type = PFT_PTM_PKT_ASYNC };

	put(e, s, &p);
	p = (struct pft_ptm_packet){ .type = PFT_PTM_PKT_ISYNC, .addr = 0x1000, .isa = PFT_ISA_ARM,
				 .reason = PFT_ISYNC_TRACE_ON };
	put(e, s, &p);
}

/* Atoms of 1-5 E/N atoms and a branch now and then, @n packets. */
static void body(struct pft_ptm_encoder *e, struct source_stream *s, int n, unsigned seed)
{
	for (int i = 0; i < n; i++) {
		struct pft_ptm_packet p = { .type = PFT_PTM_PKT_ATOM };
		seed = seed * 1103515245u + 12345u;
		if ((seed >> 16) % 7 == 0) {
			p.type = PFT_PTM_PKT_BRANCH;
			p.addr = 0x1000 + ((seed >> 8) & 0xfffc);
			p.isa = PFT_ISA_ARM;
		} else {
			p.n_atoms = (uint8_t)(1 + (seed >> 20) % 5);
			p.atoms = (uint8_t)((seed >> 24) & ((1u << p.n_atoms) - 1));
		}
		put(e, s, &p);
	}
}

static void make_streams(struct source_stream *src)
{
	struct pft_ptm_config cfg;
	pft_ptm_config_init(&cfg);
	for (int k = 0; k < SRCS; k++) {
		struct pft_ptm_encoder *e = pft_ptm_enc_alloc(&cfg, NULL);
		src[k].cap = FRAMES * FRAME_DATA;
		src[k].bytes = calloc(src[k].cap, 1);
		src[k].input = calloc(src[k].cap, sizeof(*src[k].input));
		sync_packets(e, &src[k]);
		body(e, &src[k], k ? 20000 : 25000, 7u + (unsigned)k);
		/* Source 0x13: 20 zeros ended by 0x01, a malformed A-sync, then
		 * junk; later 0x10, a reserved header, and junk.  Each time
		 * the stream goes on from an A-sync. */
		static const uint8_t junk[] = {
			0x5a, 0x31, 0x77, 0x42, 0x99, 0xc3, 0x18, 0x2e, 0x6b, 0x5a,
			0x31, 0x77, 0x42, 0x99, 0xc3, 0x18, 0x2e, 0x6b, 0x44, 0x21,
			0x5a, 0x31, 0x77, 0x42, 0x99, 0xc3, 0x18, 0x2e, 0x6b,
		};
		static const uint8_t zeros[20] = { 0 }, ends_zeros = 0x01, reserved = 0x10;
		for (int d = 0; !k && d < 2; d++) {
			if (d)
				append(&src[k], &reserved, 1);
			else {
				append(&src[k], zeros, sizeof(zeros));
				append(&src[k], &ends_zeros, 1);
			}
			append(&src[k], junk, sizeof(junk));
			pft_ptm_enc_free(e);
			e = pft_ptm_enc_alloc(&cfg, NULL);
			sync_packets(e, &src[k]);
			body(e, &src[k], 12000, 99u + (unsigned)d);
		}
		pft_ptm_enc_free(e);
	}
}

/* The frame at input offset @at with the next @n bytes of @s (14, or an
 * odd number: the padding after them is an ID byte 0 on an even byte). */
static size_t frame(uint8_t *out, struct source_stream *s, uint8_t id, size_t n, size_t at)
{
	uint8_t aux = 0;

	memset(out, 0, 16);
	out[0] = (uint8_t)(id << 1 | 1);
	for (size_t j = 0; j < FRAME_DATA; j++) {
		size_t pos = 1 + j;
		uint8_t d = 0;
		if (j < n) {
			d = s->bytes[s->framed];
			s->input[s->framed++] = at + pos;
		} else {
			out[pos] = 0x01;
			break;
		}
		if (pos % 2) {
			out[pos] = d;
		} else {
			out[pos] = (uint8_t)(d & ~1u);
			aux |= (uint8_t)((d & 1) << (pos / 2));
		}
	}
	out[15] = aux;
	return 16;
}

static size_t make_buffer(uint8_t *buf, size_t cap, struct source_stream *src)
{
	size_t len = 0;
	unsigned seed = 1;
	int k = 0;

	while (len + 16 <= cap && (src[0].framed < src[0].len || src[1].framed < src[1].len)) {
		seed = seed * 1103515245u + 12345u;
		if (src[k].framed >= src[k].len) {
			k ^= 1;
			continue;
		}
		/* A run of 1-40 frames, some of them not full. */
		for (unsigned f = 1 + (seed >> 16) % 40; f && src[k].framed < src[k].len; f--) {
			size_t n = src[k].len - src[k].framed;
			if (n > FRAME_DATA)
				n = FRAME_DATA;
			if ((seed >> 8) % 11 == 0 && n > 3)
				n -= 3;
			if (n < FRAME_DATA && n % 2 == 0)
				n--;
			if (len + 16 > cap)
				break;
			len += frame(buf + len, &src[k], ids[k], n, len);
		}
		k ^= 1;
	}
	PTU_EQ(src[0].framed, src[0].len);
	PTU_EQ(src[1].framed, src[1].len);
	return len;
}

struct rec {
	uint64_t offset;
	uint16_t size, source;
	uint8_t type;
	int status;
};

/* The packets for @buf fed in pieces of @step bytes; each is checked
 * against its source's stream: its bytes and, from where it starts in the
 * stream, its input offset. */
static size_t decode(const uint8_t *buf, size_t len, size_t step, struct source_stream *src,
		     struct rec *out, unsigned *notsync)
{
	struct pft_pipe_config pc = { .size = sizeof(pc), .format = PFT_PIPE_FORMATTED,
				      .packets = 1 };
	struct pft_pipe *p = pft_pipe_alloc(&pc, NULL);
	struct pft_ptm_config cfg;
	size_t n = 0, pos = 0, at[SRCS] = { 0, 0 };
	struct pft_item it;
	int r;

	pft_ptm_config_init(&cfg);
	PTU_EQ(pft_pipe_add_ptm(p, ids[0], &cfg, NULL), 0);
	PTU_EQ(pft_pipe_add_ptm(p, ids[1], &cfg, NULL), 1);
	*notsync = 0;
	while ((r = pft_pipe_next(p, &it, sizeof(it))) != -PFT_ERR_EOS) {
		if (r == -PFT_ERR_NEED_INPUT) {
			size_t m = len - pos < step ? len - pos : step;
			if (m)
				PTU_EQ(pft_pipe_feed(p, buf + pos, m), 0);
			else
				PTU_EQ(pft_pipe_finish(p), 0);
			pos += m;
			continue;
		}
		PTU_EQ(r, 0);
		if (r || it.type != PFT_ITEM_PACKET || it.source >= SRCS || n == MAX_PKTS) {
			PTU_CHECK(!"a packet of a known source");
			break;
		}
		const struct pft_ptm_packet *pkt = it.ptm;
		struct source_stream *s = &src[it.source];
		size_t a = at[it.source];
		PTU_CHECK(a + pkt->size <= s->len);
		if (a + pkt->size > s->len)
			break;
		PTU_EQ(pkt->offset, s->input[a]);
		PTU_CHECK(!memcmp(pkt->raw, s->bytes + a, pkt->size));
		if (pkt->type == PFT_PTM_PKT_NOTSYNC) {
			(*notsync)++;
			/* A NOTSYNC packet never spans two frames. */
			PTU_EQ(s->input[a + pkt->size - 1] / 16, pkt->offset / 16);
		}
		at[it.source] += pkt->size;
		/* Field by field: the records are compared with memcmp. */
		out[n].offset = pkt->offset;
		out[n].size = pkt->size;
		out[n].source = it.source;
		out[n].type = pkt->type;
		out[n++].status = it.status;
	}
	PTU_EQ(at[0], src[0].len);
	PTU_EQ(at[1], src[1].len);
	pft_pipe_free(p);
	return n;
}

static void staged_packets_are_those_of_any_feed(void)
{
	struct source_stream src[SRCS] = { { 0 } };
	size_t cap = 2 * FRAMES * 16;
	uint8_t *buf = malloc(cap);
	struct rec *whole = calloc(MAX_PKTS, sizeof(*whole)), *cut = calloc(MAX_PKTS, sizeof(*cut));
	unsigned notsync, notsync_cut;

	make_streams(src);
	size_t len = make_buffer(buf, cap, src);
	/* Enough that a source's staging buffer (16 KB) fills many times. */
	PTU_CHECK(len > 3 * 16384);
	size_t n = decode(buf, len, len, src, whole, &notsync);
	/* The 29 junk bytes span three frames at least, twice. */
	PTU_CHECK(notsync >= 6);
	static const size_t steps[] = { 7, 13, 4099 };
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		size_t m = decode(buf, len, steps[i], src, cut, &notsync_cut);
		PTU_EQ(m, n);
		PTU_EQ(notsync_cut, notsync);
		PTU_CHECK(!memcmp(whole, cut, n * sizeof(*whole)));
	}
	for (int k = 0; k < SRCS; k++) {
		free(src[k].bytes);
		free(src[k].input);
	}
	free(whole);
	free(cut);
	free(buf);
}

int main(void)
{
	PTU_RUN(staged_packets_are_those_of_any_feed);
	PTU_MAIN_END();
}
