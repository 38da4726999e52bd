/* fuzz_flow - packet decoder + flow decoder with a memory image.
 *
 * Input: byte 0 selects the configuration (bit 0 cycle-accurate, bits 2:1
 * context ID bytes 0/1/2/4, bit 3 return stack, bit 4 DMB/DSB waypoints,
 * bit 5 64-bit timestamps) and bits 7:6 the image:
 *   0  the code bytes at 0x00000000 (space ANY)
 *   1  the same, and a read callback that serves every other address below
 *      0xF0000000 with the code bytes repeated (so that wild branches find
 *      code)
 *   2  no image at all (every walk is ADDR_NACC)
 *   3  the code bytes at 0x00000000 in the Secure space and shifted by 2
 *      bytes in the Non-secure space
 * byte 1 gives the number of code bytes that follow, 4 << (byte 1 % 11)
 * (4 to 4096: a power of two, so that a piece of a real program image
 * taken at a multiple of its size is served at its own addresses by the
 * callback); the rest is the PFT stream.
 *
 * Properties (pft.h, flow section): pft_ptm_flow_put() succeeds when the
 * elements are taken; a packet produces at most 32 elements, each with the
 * packet's offset; a range has 1 or more instructions whose first one the
 * image can read, and ends 2 or 4 bytes after its last; the instruction
 * count is the sum of the ranges; and a decoder after pft_ptm_flow_reset()
 * (with its block cache warm) follows the same flow as a new one.
 */
#include <string.h>

#include "fuzz_util.h"
#include "pft.h"

struct code {
	const uint8_t *bytes;
	size_t len;
};

static int serve(uint8_t *buf, size_t len, uint32_t addr, enum pft_mem_space space,
		 void *ctx)
{
	const struct code *c = ctx;
	size_t n = 0;

	(void)space;
	while (n < len && addr + n < 0xF0000000u) {
		buf[n] = c->bytes[(addr + n) % c->len];
		n++;
	}
	return (int)n;
}

static struct pft_image *make_image(unsigned mode, struct code *code)
{
	if (mode == 2 || !code->len)
		return NULL;
	struct pft_image *img = pft_image_alloc(NULL);
	FUZZ_CHECK(img);
	if (mode == 3) {
		FUZZ_CHECK(pft_image_add_buffer(img, 0, code->bytes, code->len,
						PFT_SPACE_SECURE, 0) == 0);
		FUZZ_CHECK(pft_image_add_buffer(img, 2, code->bytes, code->len,
						PFT_SPACE_NONSECURE, 0) == 1);
		return img;
	}
	FUZZ_CHECK(pft_image_add_buffer(img, 0, code->bytes, code->len, PFT_SPACE_ANY, 0) == 0);
	if (mode == 1)
		FUZZ_CHECK(pft_image_set_callback(img, serve, code) == 0);
	return img;
}

/* The elements whose meaning does not depend on context reporting. */
static int compared(const struct pft_elem *e)
{
	return e->type != PFT_ELEM_CONTEXT && e->type != PFT_ELEM_NO_SYNC;
}

struct run {
	struct pft_elem *e;
	size_t n, cap;
	uint64_t insns;
};

static void check_elem(struct pft_image *img, const struct pft_ptm_packet *pkt,
		       const struct pft_elem *e)
{
	FUZZ_CHECK(e->type < PFT_ELEM_TYPE_MAX);
	FUZZ_CHECK(e->offset == pkt->offset);
	if (e->type == PFT_ELEM_RANGE) {
		uint8_t b[4];
		FUZZ_CHECK(e->ninsn >= 1 && e->ninsn <= 4096 + 64);
		FUZZ_CHECK(e->isa == PFT_ISA_ARM || e->isa == PFT_ISA_THUMB);
		FUZZ_CHECK(e->end - e->last == 2 || e->end - e->last == 4);
		FUZZ_CHECK(img && pft_image_read(img, e->start, PFT_SPACE_ANY, b, 2) > 0);
	}
	if (e->type == PFT_ELEM_ERROR)
		FUZZ_CHECK(e->reason >= PFT_ERR_FLOW_BAD_PACKET && e->reason <= PFT_ERR_FLOW_BAD_EXCEPTION);
}

static void decode(const struct pft_ptm_config *cfg, struct pft_ptm_flow *f, struct pft_image *img,
		   const uint8_t *stream, size_t len, struct run *run)
{
	int err = 1;
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(cfg, &err);
	struct pft_ptm_packet pkt;
	struct pft_elem e;

	FUZZ_CHECK(d && err == 0);
	FUZZ_CHECK(pft_ptm_pkt_feed(d, stream, len) == 0);
	FUZZ_CHECK(pft_ptm_pkt_finish(d) == 0);
	uint64_t before = pft_ptm_flow_insn_count(f);
	for (int idle = 0;; idle++) {
		int status = pft_ptm_pkt_next(d, &pkt, sizeof(pkt));
		if (status == -PFT_ERR_EOS)
			break;
		if (status == -PFT_ERR_NEED_INPUT) {
			/* After finish, finishing again must make progress. */
			FUZZ_CHECK(idle < 4);
			FUZZ_CHECK(pft_ptm_pkt_finish(d) == 0);
			continue;
		}
		idle = 0;
		FUZZ_CHECK(status == 0 || pkt.type == PFT_PTM_PKT_BAD);
		FUZZ_CHECK(pft_ptm_flow_put(f, &pkt, sizeof(pkt)) == 0);
		int n = 0;
		while (pft_ptm_flow_next(f, &e, sizeof(e)) == 0) {
			FUZZ_CHECK(++n <= 32);
			check_elem(img, &pkt, &e);
			if (e.type == PFT_ELEM_RANGE)
				run->insns += e.ninsn;
			if (compared(&e)) {
				if (run->n == run->cap) {
					run->cap = run->cap ? 2 * run->cap : 256;
					run->e = realloc(run->e, run->cap * sizeof(e));
					FUZZ_CHECK(run->e);
				}
				memcpy(&run->e[run->n++], &e, sizeof(e));
			}
		}
	}
	FUZZ_CHECK(pft_ptm_flow_insn_count(f) - before == run->insns);
	pft_ptm_pkt_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t ctxid_bytes[4] = { 0, 1, 2, 4 };
	struct pft_ptm_config cfg;

	if (size < 2)
		return 0;
	pft_ptm_config_init(&cfg);
	cfg.cycle_accurate = data[0] & 1;
	cfg.ctxid_bytes = ctxid_bytes[(data[0] >> 1) & 3];
	cfg.return_stack = (data[0] >> 3) & 1;
	cfg.dmb_dsb_waypoints = (data[0] >> 4) & 1;
	cfg.ts_64bit = (data[0] >> 5) & 1;
	cfg.timestamps = 1;
	unsigned mode = data[0] >> 6;
	struct code code = { data + 2, (size_t)4 << (data[1] % 11) };
	if (code.len > size - 2)
		code.len = size - 2;
	const uint8_t *stream = data + 2 + code.len;
	size_t len = size - 2 - code.len;

	struct pft_image *img = make_image(mode, &code);
	int err = 1;
	struct pft_ptm_flow *f = pft_ptm_flow_alloc(&cfg, img, &err);
	FUZZ_CHECK(f && err == 0);
	struct run fresh = { NULL, 0, 0, 0 }, again = { NULL, 0, 0, 0 };

	decode(&cfg, f, img, stream, len, &fresh);
	FUZZ_CHECK(pft_ptm_flow_reset(f) == 0);
	decode(&cfg, f, img, stream, len, &again);
	FUZZ_CHECK(fresh.n == again.n);
	FUZZ_CHECK(!fresh.n || !memcmp(fresh.e, again.e, fresh.n * sizeof(struct pft_elem)));

	free(fresh.e);
	free(again.e);
	pft_ptm_flow_free(f);
	pft_image_free(img);
	return 0;
}
