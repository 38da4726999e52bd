/* fuzz_pipe - the pipeline (pft_pipe_*) over raw, formatted and TPIU
 * bytes, with PTM and ETMv3 sources.
 *
 * Input: byte 0: bits 1:0 the format (0 raw, 1 formatted, 2 TPIU, 3
 * formatted), bit 2 packets returned, bit 3 elements returned (neither:
 * both), bit 4 the first source is an ETMv3 (else a PTM), bit 5
 * cycle-accurate with timestamps (as TC2's sources), bits 7:6 context ID
 * bytes 0/1/2/4; byte 1 bit 0 the PTM's return stack, and seeds the feed
 * sizes; the rest is the buffer.  Raw input has one source; formatted
 * input two: ID 0x13 and ID 0x10 of the other protocol (in the TC2
 * capture 0x13 is a PTM, 0x10 an ETMv3).  The image is a small fixed
 * program at 0x8000 (ARM and Thumb branches, calls).
 *
 * Properties (pft.h, pipeline section): pft_pipe_next() returns only 0,
 * NEED_INPUT or EOS; every item has a known type, the protocol of its
 * source and a source index that was returned; packets come only when
 * asked for, elements too; ranges have 1+ instructions; after finish the
 * pipeline drains to EOS and refuses more bytes; the byte count is the
 * input's length; per source, the instructions counted are those of the
 * ranges returned.
 */
#include <string.h>

#include "fuzz_util.h"
#include "pft.h"

/* A32 then T32 code at 0x8000: b, beq, bl, bx lr, blx to Thumb, Thumb
 * b.n, cbz, bl, bx lr (encodings from arm-linux-gnueabihf-as). */
static const uint8_t code[] = {
	0x00, 0x00, 0xa0, 0xe3,  /* 0x8000 mov r0, #0 */
	0x00, 0x00, 0x00, 0xea,  /* 0x8004 b 0x800c */
	0x00, 0xf0, 0x20, 0xe3,  /* 0x8008 nop */
	0x01, 0x00, 0x50, 0xe3,  /* 0x800c cmp r0, #1 */
	0xfb, 0xff, 0xff, 0x0a,  /* 0x8010 beq 0x8004 */
	0x01, 0x00, 0x00, 0xeb,  /* 0x8014 bl 0x8020 */
	0x1e, 0xff, 0x2f, 0xe1,  /* 0x8018 bx lr */
	0x00, 0x00, 0x00, 0xfa,  /* 0x801c blx 0x8024 (Thumb) */
	0x1e, 0xff, 0x2f, 0xe1,  /* 0x8020 bx lr */
	0x00, 0x28,              /* 0x8024 cmp r0, #0 */
	0x08, 0xb1,              /* 0x8026 cbz r0, 0x802c */
	0xfc, 0xe7,              /* 0x8028 b.n 0x8024 */
	0x70, 0x47,              /* 0x802a bx lr */
	0xff, 0xf7, 0xfa, 0xff,  /* 0x802c bl 0x8024 */
	0x70, 0x47,              /* 0x8030 bx lr */
};

enum { MAX_SOURCES = 2 };

struct drain {
	struct pft_pipe *p;
	int nsources;
	uint8_t protocol[MAX_SOURCES];
	int packets, elements;
	uint64_t insns[MAX_SOURCES];
};

/* Pull every item; returns the last status (NEED_INPUT or EOS). */
static int drain(struct drain *d)
{
	struct pft_item it;
	int err;

	while ((err = pft_pipe_next(d->p, &it, sizeof(it))) == 0) {
		FUZZ_CHECK(it.source < d->nsources);
		FUZZ_CHECK(it.protocol == d->protocol[it.source]);
		switch (it.type) {
		case PFT_ITEM_PACKET:
			FUZZ_CHECK(d->packets);
			FUZZ_CHECK(it.protocol == PFT_PROTO_PTM ? it.ptm != NULL
								: it.etm3 != NULL);
			FUZZ_CHECK(it.status <= 0);
			break;
		case PFT_ITEM_ELEM:
			FUZZ_CHECK(d->elements && it.elem);
			FUZZ_CHECK(it.elem->type < PFT_ELEM_TYPE_MAX);
			if (it.elem->type == PFT_ELEM_RANGE) {
				FUZZ_CHECK(it.elem->ninsn >= 1);
				d->insns[it.source] += it.elem->ninsn;
			}
			break;
		case PFT_ITEM_GAP:
			FUZZ_CHECK(it.status <= 0);
			break;
		default:
			FUZZ_CHECK(!"unknown item type");
		}
	}
	FUZZ_CHECK(err == -PFT_ERR_NEED_INPUT || err == -PFT_ERR_EOS);
	return err;
}

static int add_source(struct pft_pipe *p, int id, int etm3, const uint8_t *sel,
		      struct pft_image *img)
{
	static const uint8_t ctxid[4] = { 0, 1, 2, 4 };

	if (etm3) {
		struct pft_etm3_config c;
		pft_etm3_config_init(&c);
		c.cycle_accurate = c.timestamps = (sel[0] >> 5) & 1;
		c.ctxid_bytes = ctxid[sel[0] >> 6];
		return pft_pipe_add_etm3(p, id, &c, img);
	}
	struct pft_ptm_config c;
	pft_ptm_config_init(&c);
	c.cycle_accurate = c.timestamps = (sel[0] >> 5) & 1;
	c.ctxid_bytes = ctxid[sel[0] >> 6];
	c.return_stack = sel[1] & 1;
	return pft_pipe_add_ptm(p, id, &c, img);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 3)
		return 0;
	static const uint8_t formats[4] = { PFT_PIPE_RAW, PFT_PIPE_FORMATTED,
					    PFT_PIPE_TPIU, PFT_PIPE_FORMATTED };
	struct pft_pipe_config pc = { .size = sizeof(pc), .format = formats[data[0] & 3],
				      .packets = (data[0] >> 2) & 1,
				      .elements = (data[0] >> 3) & 1 };
	int etm3 = (data[0] >> 4) & 1, err;
	uint32_t seed = data[1];
	const uint8_t *buf = data + 2;
	size_t len = size - 2;

	if (!pc.packets && !pc.elements)
		pc.packets = pc.elements = 1;
	struct pft_image *img = pft_image_alloc(NULL);
	FUZZ_CHECK(img && pft_image_add_buffer(img, 0x8000, code, sizeof(code),
					       PFT_SPACE_ANY, 0) == 0);
	struct drain d = { .packets = pc.packets, .elements = pc.elements };
	d.p = pft_pipe_alloc(&pc, &err);
	FUZZ_CHECK(d.p && err == 0);

	/* A second source for raw input is refused. */
	static const int ids[MAX_SOURCES] = { 0x13, 0x10 };
	int n = pc.format == PFT_PIPE_RAW ? 1 : 2;
	for (int i = 0; i < n; i++) {
		int proto_etm3 = i ? !etm3 : etm3;
		FUZZ_CHECK(add_source(d.p, ids[i], proto_etm3, data, img) == i);
		d.protocol[i] = proto_etm3 ? PFT_PROTO_ETMV3 : PFT_PROTO_PTM;
	}
	d.nsources = n;
	if (pc.format == PFT_PIPE_RAW)
		FUZZ_CHECK(add_source(d.p, 0x11, etm3, data, img) == -PFT_ERR_INVALID);

	for (size_t pos = 0; pos < len;) {
		size_t cut = fuzz_next_cut(&seed, 64);
		if (cut > len - pos)
			cut = len - pos;
		FUZZ_CHECK(pft_pipe_feed(d.p, buf + pos, cut) == 0);
		/* The previous bytes are not used up until NEED_INPUT. */
		FUZZ_CHECK(drain(&d) == -PFT_ERR_NEED_INPUT);
		pos += cut;
	}
	FUZZ_CHECK(pft_pipe_get_offset(d.p) == len);
	FUZZ_CHECK(pft_pipe_finish(d.p) == 0);
	FUZZ_CHECK(drain(&d) == -PFT_ERR_EOS);
	FUZZ_CHECK(pft_pipe_feed(d.p, buf, len) == -PFT_ERR_INVALID);

	for (int i = 0; i < n; i++) {
		struct pft_pipe_stats st;
		FUZZ_CHECK(pft_pipe_source_stats(d.p, (unsigned)i, &st, sizeof(st)) == 0);
		if (pc.elements)
			FUZZ_CHECK(st.insns == d.insns[i]);
	}
	pft_pipe_free(d.p);
	pft_image_free(img);
	return 0;
}
