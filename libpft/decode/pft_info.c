/* What a trace buffer holds, read as a stream (pft info): bytes per
 * source, and from each source's first bytes its protocol and PTM
 * configuration.  Memory is fixed: the first PFT_DETECT_PREFIX bytes of the
 * buffer (to decide the framing) and of each trace ID, whatever the length. */
#include <stdlib.h>
#include <string.h>

#include "pft.h"
#include "ptm/pft_detect_ptm.h"

enum { NIDS = PFT_ID_MAX_VALID + 1 };

struct info_id {
	uint64_t bytes;
	uint8_t *prefix;          /* the first PFT_DETECT_PREFIX bytes */
	size_t nprefix;
};

struct pft_info {
	uint8_t framing;          /* enum pft_frame_format; UNKNOWN until decided */
	int finished;
	struct pft_dfmt *dfmt;
	/* The buffer's first bytes while the framing is undecided. */
	uint8_t *head;
	size_t nhead;
	struct info_id ids[NIDS]; /* RAW: ids[0] is the one source */
	struct pft_info_source *src;
	size_t nsrc;
	struct pft_image *image;  /* detection's, or NULL */
};

struct pft_info *pft_info_alloc(const struct pft_info_config *cfg, int *errcode)
{
	struct pft_info *info = NULL;
	int err = -PFT_ERR_INVALID;

	if (!cfg || cfg->size < sizeof(*cfg) || cfg->framing > PFT_FRAMES_TPIU)
		goto out;
	err = -PFT_ERR_NOMEM;
	info = calloc(1, sizeof(*info));
	if (!info)
		goto out;
	info->framing = cfg->framing;
	if (info->framing == PFT_FRAMES_UNKNOWN && !(info->head = malloc(PFT_DETECT_PREFIX))) {
		free(info);
		info = NULL;
		goto out;
	}
	err = 0;
out:
	if (errcode)
		*errcode = err;
	return info;
}

void pft_info_free(struct pft_info *info)
{
	if (!info)
		return;
	pft_dfmt_free(info->dfmt);
	free(info->head);
	for (int i = 0; i < NIDS; i++)
		free(info->ids[i].prefix);
	free(info->src);
	free(info);
}

/* Count @len bytes of source @id and keep its first ones. */
static int take(struct pft_info *info, unsigned id, const uint8_t *p, size_t len)
{
	struct info_id *s = &info->ids[id];

	s->bytes += len;
	if (!len || s->nprefix == PFT_DETECT_PREFIX)
		return 0;
	if (!s->prefix && !(s->prefix = malloc(PFT_DETECT_PREFIX)))
		return -PFT_ERR_NOMEM;
	size_t k = len < PFT_DETECT_PREFIX - s->nprefix ? len : PFT_DETECT_PREFIX - s->nprefix;
	memcpy(s->prefix + s->nprefix, p, k);
	s->nprefix += k;
	return 0;
}

/* Deformat @len bytes (NULL: the end of the buffer). */
static int deformat(struct pft_info *info, const uint8_t *buf, size_t len)
{
	struct pft_dfmt_chunk c;
	int r;

	if (!info->dfmt) {
		struct pft_dfmt_config dc = { .size = sizeof(dc),
					      .tpiu = info->framing == PFT_FRAMES_TPIU };
		if (!(info->dfmt = pft_dfmt_alloc(&dc, &r)))
			return r;
	}
	r = buf ? pft_dfmt_feed(info->dfmt, buf, len) : pft_dfmt_finish(info->dfmt);
	if (r < 0)
		return r;
	while ((r = pft_dfmt_next(info->dfmt, &c, sizeof(c))) != -PFT_ERR_NEED_INPUT &&
	       r != -PFT_ERR_EOS) {
		if (r == 0 && c.id >= 1 && c.id <= PFT_ID_MAX_VALID &&
		    (r = take(info, c.id, c.data, c.len)) < 0)
			return r;
	}
	return 0;
}

/* Decide the framing from the buffer's first bytes, then deformat them. */
static int settle_framing(struct pft_info *info)
{
	struct pft_detect_frames fr = { .size = sizeof(fr) };
	int err = pft_detect_frames(info->head, info->nhead, &fr, sizeof(fr));

	if (err < 0)
		return err;
	info->framing = fr.format == PFT_FRAMES_TPIU ? PFT_FRAMES_TPIU : PFT_FRAMES_MEMORY;
	err = deformat(info, info->head, info->nhead);
	free(info->head);
	info->head = NULL;
	return err;
}

int pft_info_feed(struct pft_info *info, const uint8_t *buf, size_t len)
{
	if (!info || (!buf && len) || info->finished)
		return -PFT_ERR_INVALID;
	if (info->framing == PFT_FRAMES_RAW)
		return take(info, 0, buf, len);
	if (info->framing == PFT_FRAMES_UNKNOWN) {
		size_t k = len < PFT_DETECT_PREFIX - info->nhead ? len : PFT_DETECT_PREFIX - info->nhead;
		memcpy(info->head + info->nhead, buf, k);
		info->nhead += k;
		buf += k;
		len -= k;
		if (info->nhead < PFT_DETECT_PREFIX)
			return 0;
		int err = settle_framing(info);
		if (err < 0)
			return err;
	}
	return len ? deformat(info, buf, len) : 0;
}

/* The protocol and, for PTM, the detected configuration of one source. */
static void describe(struct pft_info_source *s, const struct info_id *id,
		     struct pft_image *image)
{
	struct pft_detect_ptm_result r = { .size = sizeof(r) };
	int proto = id->nprefix ? pft_detect_protocol(id->prefix, id->nprefix) : -1;

	s->bytes = id->bytes;
	s->protocol = proto < 0 ? PFT_PROTO_UNKNOWN : (uint8_t)proto;
	if (s->protocol == PFT_PROTO_PTM &&
	    pft_detect_ptm(id->prefix, id->nprefix, image, &r, sizeof(r)) == 0) {
		s->detected = 1;
		s->cfg = r.config;
		s->determined = r.determined;
		s->ncandidates = r.ncandidates;
		memcpy(s->candidates, r.candidates, sizeof(r.candidates));
		s->needs_image = pft_detect_needs_image(image);
	}
}

int pft_info_set_image(struct pft_info *info, struct pft_image *image)
{
	if (!info || info->finished)
		return -PFT_ERR_INVALID;
	info->image = image;
	return 0;
}

int pft_info_finish(struct pft_info *info)
{
	int err;

	if (!info || info->finished)
		return -PFT_ERR_INVALID;
	if (info->framing == PFT_FRAMES_UNKNOWN && (err = settle_framing(info)) < 0)
		return err;
	if (info->framing != PFT_FRAMES_RAW && (err = deformat(info, NULL, 0)) < 0)
		return err;
	info->finished = 1;
	size_t n = 0;
	for (int i = 0; i < NIDS; i++)
		n += info->ids[i].bytes > 0 || (i == 0 && info->framing == PFT_FRAMES_RAW);
	info->src = calloc(n ? n : 1, sizeof(*info->src));
	if (!info->src)
		return -PFT_ERR_NOMEM;
	for (int i = 0; i < NIDS; i++) {
		int raw = info->framing == PFT_FRAMES_RAW;
		if (!(info->ids[i].bytes > 0 || (i == 0 && raw)))
			continue;
		struct pft_info_source *s = &info->src[info->nsrc++];
		s->size = sizeof(*s);
		s->id = raw ? -1 : i;
		describe(s, &info->ids[i], info->image);
	}
	return 0;
}

int pft_info_framing(const struct pft_info *info)
{
	return info ? info->framing : -PFT_ERR_INVALID;
}

int pft_info_source(const struct pft_info *info, size_t index, struct pft_info_source *src,
		    size_t size)
{
	if (!info || !src || !size || !info->finished)
		return -PFT_ERR_INVALID;
	if (index >= info->nsrc)
		return -PFT_ERR_EOS;
	memset(src, 0, size);
	memcpy(src, &info->src[index], size < sizeof(*src) ? size : sizeof(*src));
	return 0;
}
