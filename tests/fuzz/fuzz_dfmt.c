/* fuzz_dfmt - the deformatter, memory-buffer and trace-port modes.
 *
 * Input: byte 0 bit 0 selects trace-port (TPIU) mode, byte 1 seeds the
 * sizes the buffer is fed in; the rest is the captured buffer.
 *
 * Properties (pft.h, deformatter section):
 *  - data comes only for IDs 0x01-0x6f; data[i] came from input offset
 *    offset + i, so bits 7:1 equal that input byte's (bit 0 may come from
 *    the auxiliary byte), and offsets only grow: no input byte is used
 *    twice;
 *  - discontinuities carry no data; -PFT_ERR_TRUNCATED comes at most once
 *    and only after finish; no other errors than BAD_FRAME;
 *  - what comes out does not depend on how the input is cut into feeds.
 */
#include <string.h>

#include "fuzz_util.h"
#include "pft.h"

/* Everything one run produced, flattened to one event per data byte. */
struct event {
	uint64_t offset;
	int16_t what;        /* data: the ID; negative: an error or discontinuity */
	uint8_t byte;
};

struct run {
	struct event *e;
	size_t n, cap;
};

static void add(struct run *run, uint64_t offset, int what, uint8_t byte)
{
	FUZZ_CHECK(run->n < run->cap);
	run->e[run->n++] = (struct event){ offset, (int16_t)what, byte };
}

static void take(struct pft_dfmt *d, const uint8_t *in, size_t len, int finished,
		 struct run *run, uint64_t *last_offset, int *truncated)
{
	struct pft_dfmt_chunk c;

	for (size_t calls = 0;; calls++) {
		FUZZ_CHECK(calls <= 2 * len + 4);
		int status = pft_dfmt_next(d, &c, sizeof(c));
		if (status == -PFT_ERR_NEED_INPUT) {
			FUZZ_CHECK(!finished);
			return;
		}
		if (status == -PFT_ERR_EOS) {
			FUZZ_CHECK(finished);
			return;
		}
		if (status < 0) {
			FUZZ_CHECK(status == -PFT_ERR_BAD_FRAME ||
				   (status == -PFT_ERR_TRUNCATED && finished && !*truncated));
			if (status == -PFT_ERR_TRUNCATED)
				*truncated = 1;
			FUZZ_CHECK(pft_dfmt_get_offset(d) <= len);
			add(run, pft_dfmt_get_offset(d), status, 0);
			continue;
		}
		FUZZ_CHECK(status == 0);
		if (c.flags & PFT_DFMT_DISCONTINUITY) {
			FUZZ_CHECK(c.len == 0);
			FUZZ_CHECK(c.offset < len);
			add(run, c.offset, -1000, 0);
			continue;
		}
		FUZZ_CHECK(c.id >= 0x01 && c.id <= PFT_ID_MAX_VALID);
		FUZZ_CHECK(c.len > 0 && c.len <= 15 && c.data);
		for (size_t i = 0; i < c.len; i++) {
			uint64_t off = c.offset + i;
			FUZZ_CHECK(off < len);
			FUZZ_CHECK(*last_offset == UINT64_MAX || off > *last_offset);
			FUZZ_CHECK(((c.data[i] ^ in[off]) & 0xfe) == 0);
			*last_offset = off;
			add(run, off, c.id, c.data[i]);
		}
	}
}

static void deformat(int tpiu, const uint8_t *in, size_t len, uint32_t seed,
		     size_t max_cut, struct run *run)
{
	struct pft_dfmt_config cfg = { .size = sizeof(cfg), .tpiu = (uint8_t)tpiu };
	int err = 1;
	struct pft_dfmt *d = pft_dfmt_alloc(&cfg, &err);
	uint64_t last_offset = UINT64_MAX;
	int truncated = 0;

	FUZZ_CHECK(d && err == 0);
	for (size_t pos = 0; pos < len;) {
		size_t n = max_cut ? fuzz_next_cut(&seed, max_cut) : len;
		if (n > len - pos)
			n = len - pos;
		FUZZ_CHECK(pft_dfmt_feed(d, in + pos, n) == 0);
		pos += n;
		take(d, in, len, 0, run, &last_offset, &truncated);
	}
	FUZZ_CHECK(pft_dfmt_finish(d) == 0);
	take(d, in, len, 1, run, &last_offset, &truncated);
	FUZZ_CHECK(pft_dfmt_feed(d, in, len) == -PFT_ERR_EOS);
	pft_dfmt_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	int tpiu = data[0] & 1;
	uint32_t seed = data[1];
	const uint8_t *in = data + 2;
	size_t len = size - 2;
	/* At most one data byte per input byte, one error per frame, one
	 * discontinuity per four FSYNCs, and the final truncation. */
	size_t cap = 2 * len + 4;
	struct run whole = { calloc(cap, sizeof(struct event)), 0, cap };
	struct run cut = { calloc(cap, sizeof(struct event)), 0, cap };

	FUZZ_CHECK(whole.e && cut.e);
	deformat(tpiu, in, len, 0, 0, &whole);
	deformat(tpiu, in, len, seed, 1 + seed % 40, &cut);
	FUZZ_CHECK(whole.n == cut.n);
	for (size_t i = 0; i < whole.n; i++) {
		FUZZ_CHECK(whole.e[i].offset == cut.e[i].offset);
		FUZZ_CHECK(whole.e[i].what == cut.e[i].what);
		FUZZ_CHECK(whole.e[i].byte == cut.e[i].byte);
	}
	free(whole.e);
	free(cut.e);
	return 0;
}
