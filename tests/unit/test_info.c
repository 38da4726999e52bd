/* pft_info_*: a buffer described as a stream gives the same answer
 * however it is cut into blocks, and the one pft_detect_* gives for the
 * whole buffer. */
#include "ptunit.h"

#include "pft.h"

/* @data as trace ID 0x13's bytes in CoreSight frames, made by the frame
 * encoder (pft_ffmt); the expected byte count is what was put in. */
static uint8_t *frames(const uint8_t *data, size_t n, size_t *len)
{
	struct pft_ffmt *f = pft_ffmt_alloc(NULL, NULL);
	uint8_t *out = malloc(2 * n + 64);
	int k;

	pft_ffmt_put(f, 0x13, data, n);
	pft_ffmt_flush(f);
	k = pft_ffmt_take(f, out, 2 * n + 64);
	pft_ffmt_free(f);
	*len = k > 0 ? (size_t)k : 0;
	return out;
}

/* A real PTM source: trace_cov_a15's buffer (../shared, or $PFT_SHARED). */
static uint8_t *real_ptm(size_t *n)
{
	const char *shared = getenv("PFT_SHARED");
	char path[1024];
	static uint8_t buf[1 << 20];

	snprintf(path, sizeof(path), "%s/testdata/opencsd-snapshots/trace_cov_a15/PTM_0_2.bin",
		 shared ? shared : "../shared");
	FILE *f = fopen(path, "rb");
	*n = f ? fread(buf, 1, sizeof(buf), f) : 0;
	if (f)
		fclose(f);
	return buf;
}

static void describe(const uint8_t *buf, size_t len, size_t block, uint8_t framing,
		     struct pft_info_source *out, size_t *nout)
{
	struct pft_info_config ic = { .size = sizeof(ic), .framing = framing };
	struct pft_info *info = pft_info_alloc(&ic, NULL);

	for (size_t at = 0; at < len; at += block)
		PTU_EQ(pft_info_feed(info, buf + at, len - at < block ? len - at : block), 0);
	PTU_EQ(pft_info_finish(info), 0);
	*nout = 0;
	while (*nout < 4 && pft_info_source(info, *nout, &out[*nout], sizeof(out[0])) == 0)
		(*nout)++;
	pft_info_free(info);
}

static void same_in_any_blocks(void)
{
	size_t n, len;
	const uint8_t *ptm = real_ptm(&n);
	PTU_CHECK(n > 0);
	uint8_t *buf = frames(ptm, n, &len);
	struct pft_info_source whole[4], cut[4];
	size_t nwhole, ncut;

	describe(buf, len, len, PFT_FRAMES_UNKNOWN, whole, &nwhole);
	PTU_EQ(nwhole, 1);
	PTU_EQ(whole[0].id, 0x13);
	PTU_EQ(whole[0].bytes, n);
	PTU_EQ(whole[0].protocol, PFT_PROTO_PTM);
	PTU_EQ(whole[0].detected, 1);
	static const size_t blocks[] = { 1, 7, 4096, 65536, 65537 };
	for (size_t b = 0; b < sizeof(blocks) / sizeof(blocks[0]); b++) {
		describe(buf, len, blocks[b], PFT_FRAMES_UNKNOWN, cut, &ncut);
		PTU_EQ(ncut, 1);
		PTU_EQ(cut[0].bytes, n);
		PTU_EQ(cut[0].detected, 1);
		PTU_CHECK(!memcmp(&cut[0].cfg, &whole[0].cfg, sizeof(cut[0].cfg)));
	}
	/* The same bytes raw: one source, ID -1, all bytes. */
	describe(ptm, n, 1000, PFT_FRAMES_RAW, cut, &ncut);
	PTU_EQ(ncut, 1);
	PTU_EQ(cut[0].id, -1);
	PTU_EQ(cut[0].bytes, n);
	PTU_EQ(cut[0].protocol, PFT_PROTO_PTM);
	free(buf);
}

static void arguments(void)
{
	struct pft_info_config ic = { .size = sizeof(ic), .framing = PFT_FRAMES_RAW };
	struct pft_info_config bad = ic;
	struct pft_info_source s;
	int err = 1;

	PTU_CHECK(pft_info_alloc(NULL, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	bad.framing = PFT_FRAMES_TPIU + 1;
	PTU_CHECK(pft_info_alloc(&bad, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	struct pft_info *info = pft_info_alloc(&ic, &err);
	PTU_EQ(err, 0);
	PTU_EQ(pft_info_feed(NULL, (const uint8_t *)"", 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_info_feed(info, NULL, 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_info_source(info, 0, &s, sizeof(s)), -PFT_ERR_INVALID);  /* not finished */
	PTU_EQ(pft_info_finish(info), 0);
	PTU_EQ(pft_info_finish(info), -PFT_ERR_INVALID);
	PTU_EQ(pft_info_feed(info, (const uint8_t *)"", 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_info_source(info, 0, &s, sizeof(s)), 0);   /* an empty raw source */
	PTU_EQ(s.bytes, 0);
	PTU_EQ(s.protocol, PFT_PROTO_UNKNOWN);
	PTU_EQ(pft_info_source(info, 1, &s, sizeof(s)), -PFT_ERR_EOS);
	PTU_EQ(pft_info_source(info, 0, NULL, sizeof(s)), -PFT_ERR_INVALID);
	PTU_EQ(pft_info_framing(info), PFT_FRAMES_RAW);
	PTU_EQ(pft_info_framing(NULL), -PFT_ERR_INVALID);
	PTU_EQ(pft_info_finish(NULL), -PFT_ERR_INVALID);
	pft_info_free(info);
	pft_info_free(NULL);
}

int main(void)
{
	PTU_RUN(same_in_any_blocks);
	PTU_RUN(arguments);
	PTU_MAIN_END();
}
