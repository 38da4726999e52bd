/*
 * decode_bytes - a program that only decodes bytes, with libpft alone
 * (tests/install/test_install.sh links it statically, without libelf,
 * libdw or threads).  It uses the decoding headers only: a loop of ARM
 * code in memory (image.h), PTM packets made by the encoder (packets.h),
 * put into CoreSight frames and taken out again (frames.h), decoded to
 * packets and then to the executed ranges (flow.h).  Prints the ranges
 * and "ok" when they are the ones the loop runs.
 */
#include <stdio.h>
#include <string.h>

#include <pft/common.h>
#include <pft/frames.h>
#include <pft/packets.h>
#include <pft/image.h>
#include <pft/flow.h>

#define BASE 0x8000u
#define ID 0x10

/* mov r0, #0; loop: add r0, r0, #1; cmp r0, #3; bne loop; b . */
static const uint8_t code[] = {
	0x00, 0x00, 0xa0, 0xe3, 0x01, 0x00, 0x80, 0xe2, 0x03, 0x00, 0x50, 0xe3,
	0xfc, 0xff, 0xff, 0x1a, 0xfe, 0xff, 0xff, 0xea,
};

static int fail(const char *what, int rc)
{
	fprintf(stderr, "decode_bytes: %s: %s\n", what, pft_errstr(pft_errcode(rc)));
	return 1;
}

int main(void)
{
	struct pft_ptm_config cfg;
	struct pft_ptm_packet in[4];
	uint8_t stream[64], framed[256], bytes[64];
	size_t n = 0, nbytes = 0;
	int rc, err, i;

	pft_ptm_config_init(&cfg);
	/* The packets: A-sync, I-sync at the loop's start, then the atoms of
	 * the three branches: bne taken twice, then not; b . taken. */
	memset(in, 0, sizeof in);
	in[0].type = PFT_PTM_PKT_ASYNC;
	in[1].type = PFT_PTM_PKT_ISYNC;
	in[1].addr = BASE;
	in[1].isa = PFT_ISA_ARM;
	in[1].reason = PFT_ISYNC_TRACE_ON;
	in[2].type = PFT_PTM_PKT_ATOM;
	in[2].n_atoms = 3;
	in[2].atoms = 0x3;  /* E E N */
	in[3].type = PFT_PTM_PKT_ATOM;
	in[3].n_atoms = 1;
	in[3].atoms = 0x1;  /* E */
	struct pft_ptm_encoder *enc = pft_ptm_enc_alloc(&cfg, &err);
	if (!enc)
		return fail("pft_ptm_enc_alloc", err);
	for (i = 0; i < 4; i++) {
		rc = pft_ptm_enc_packet(enc, &in[i], stream + n, sizeof stream - n);
		if (rc < 0)
			return fail("pft_ptm_enc_packet", rc);
		n += (size_t)rc;
	}
	pft_ptm_enc_free(enc);

	/* Into frames of source ID and out again. */
	struct pft_ffmt *ff = pft_ffmt_alloc(NULL, &err);
	if (!ff)
		return fail("pft_ffmt_alloc", err);
	if ((rc = pft_ffmt_put(ff, ID, stream, n)) < 0 || (rc = pft_ffmt_flush(ff)) < 0 ||
	    (rc = pft_ffmt_take(ff, framed, sizeof framed)) < 0)
		return fail("formatter", rc);
	size_t nframed = (size_t)rc;
	pft_ffmt_free(ff);
	struct pft_dfmt *df = pft_dfmt_alloc(NULL, &err);
	if (!df)
		return fail("pft_dfmt_alloc", err);
	struct pft_dfmt_chunk ch;
	if ((rc = pft_dfmt_feed(df, framed, nframed)) < 0 || (rc = pft_dfmt_finish(df)) < 0)
		return fail("pft_dfmt_feed", rc);
	while ((rc = pft_dfmt_next(df, &ch, sizeof ch)) == 0)
		if (ch.id == ID && nbytes + ch.len <= sizeof bytes) {
			memcpy(bytes + nbytes, ch.data, ch.len);
			nbytes += ch.len;
		}
	pft_dfmt_free(df);
	if (rc != -PFT_ERR_EOS || nbytes != n || memcmp(bytes, stream, n) != 0)
		return fail("the deformatter gave other bytes", rc);

	/* Packets, then ranges, over the code in memory. */
	struct pft_image *img = pft_image_alloc(&err);
	if (!img)
		return fail("pft_image_alloc", err);
	if ((rc = pft_image_add_buffer(img, BASE, code, sizeof code, PFT_SPACE_ANY, 0)) < 0)
		return fail("pft_image_add_buffer", rc);
	struct pft_ptm_pkt_decoder *pd = pft_ptm_pkt_alloc(&cfg, &err);
	struct pft_ptm_flow *fl = pft_ptm_flow_alloc(&cfg, img, &err);
	if (!pd || !fl)
		return fail("pft_ptm_pkt_alloc/pft_ptm_flow_alloc", err);
	if ((rc = pft_ptm_pkt_feed(pd, bytes, nbytes)) < 0 || (rc = pft_ptm_pkt_finish(pd)) < 0)
		return fail("pft_ptm_pkt_feed", rc);
	static const uint32_t want[][3] = { /* start, ninsn, taken */
		{ BASE, 4, 1 }, { BASE + 4, 3, 1 }, { BASE + 4, 3, 0 }, { BASE + 16, 1, 1 },
	};
	size_t nranges = 0, bad = 0;
	struct pft_ptm_packet pkt;
	while ((rc = pft_ptm_pkt_next(pd, &pkt, sizeof pkt)) == 0) {
		if ((rc = pft_ptm_flow_put(fl, &pkt, sizeof pkt)) < 0)
			return fail("pft_ptm_flow_put", rc);
		struct pft_elem e;
		while ((rc = pft_ptm_flow_next(fl, &e, sizeof e)) == 0) {
			if (e.type != PFT_ELEM_RANGE)
				continue;
			printf("range 0x%x-0x%x n=%u taken=%u\n", (unsigned)e.start,
			       (unsigned)e.end, (unsigned)e.ninsn, (unsigned)e.taken);
			if (nranges >= 4 || e.start != want[nranges][0] ||
			    e.ninsn != want[nranges][1] || e.taken != want[nranges][2])
				bad++;
			nranges++;
		}
		if (rc != -PFT_ERR_NEED_INPUT)
			return fail("pft_ptm_flow_next", rc);
	}
	if (rc != -PFT_ERR_EOS)
		return fail("pft_ptm_pkt_next", rc);
	pft_ptm_flow_free(fl);
	pft_ptm_pkt_free(pd);
	pft_image_free(img);
	if (bad || nranges != 4) {
		fprintf(stderr, "decode_bytes: %zu ranges, %zu unexpected\n", nranges, bad);
		return 1;
	}
	printf("ok: %s\n", pft_version());
	return 0;
}
