/*
 * The survey of an input (pft info): each trace file read through in
 * blocks into a pft_info (bytes per trace ID, protocol and PTM
 * configuration detected from each ID's first bytes), nothing decoded:
 * memory stays fixed whatever the files' length.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/pft_input_survey.h"
#include "common/pft_diag.h"

struct survey_file {
	char *path;
	uint8_t framing;           /* enum pft_frame_format */
	int raw_id;
	struct pft_info_source *src;
	size_t nsrc;
};

struct pft_survey {
	struct survey_file *files;
	size_t nfiles;
	const struct pft_snapshot *snap;
	struct pft_image *image;       /* detection's, or NULL */
	struct pft_input_source *src;  /* after the read */
	size_t nsrc;
};

struct pft_survey *pft_survey_alloc(void)
{
	return calloc(1, sizeof(struct pft_survey));
}

void pft_survey_free(struct pft_survey *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nfiles; i++) {
		free(s->files[i].path);
		free(s->files[i].src);
	}
	free(s->files);
	free(s->src);
	free(s);
}

int pft_survey_add_file(struct pft_survey *s, const char *path, uint8_t framing, int raw_id,
			struct pft_diag *d)
{
	struct stat st;

	/* A file that cannot be opened or read (a directory) is said so
	 * now; an empty one is a source without bytes. */
	if (strcmp(path, "-") && (stat(path, &st) || S_ISDIR(st.st_mode) || access(path, R_OK)))
		return pft_diag_file(d, -PFT_ERR_BAD_FILE, path, "cannot read the file");
	struct survey_file *v = realloc(s->files, (s->nfiles + 1) * sizeof(*v));
	if (!v)
		return pft_diag_set(d, -PFT_ERR_NOMEM, "out of memory");
	s->files = v;
	struct survey_file *f = &v[s->nfiles];
	memset(f, 0, sizeof(*f));
	f->framing = framing;
	f->raw_id = raw_id;
	if (!(f->path = malloc(strlen(path) + 1)))
		return pft_diag_set(d, -PFT_ERR_NOMEM, "out of memory");
	memcpy(f->path, path, strlen(path) + 1);
	s->nfiles++;
	return 0;
}

void pft_survey_set_snapshot(struct pft_survey *s, const struct pft_snapshot *snap)
{
	s->snap = snap;
}

void pft_survey_set_image(struct pft_survey *s, struct pft_image *image)
{
	s->image = image;
}

/* File @f through a pft_info. */
static int read_file(struct survey_file *f, struct pft_image *image, uint8_t *buf, size_t size,
		     struct pft_diag *d)
{
	struct pft_info_config ic = { .size = sizeof(ic), .framing = f->framing };
	int is_stdin = !strcmp(f->path, "-");
	int fd = is_stdin ? 0 : open(f->path, O_RDONLY | O_CLOEXEC);
	int err = 0;
	struct pft_info *info = NULL;

	free(f->src);   /* a read again after an error starts afresh */
	f->src = NULL;
	f->nsrc = 0;
	if (fd < 0)
		return pft_diag_file(d, -PFT_ERR_BAD_FILE, f->path, "cannot read the file");
	if (!(info = pft_info_alloc(&ic, &err))) {
		err = pft_diag_set(d, err, "out of memory");
		goto out;
	}
	pft_info_set_image(info, image);
	for (;;) {
		ssize_t n = read(fd, buf, size);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = pft_diag_file(d, -PFT_ERR_BAD_FILE, f->path, "cannot read the file");
			goto out;
		}
		if (n == 0)
			break;
		if ((err = pft_info_feed(info, buf, (size_t)n)) < 0)
			break;
	}
	if (err >= 0)
		err = pft_info_finish(info);
	for (struct pft_info_source is; err >= 0 &&
	     pft_info_source(info, f->nsrc, &is, sizeof(is)) == 0; f->nsrc++) {
		struct pft_info_source *v = realloc(f->src, (f->nsrc + 1) * sizeof(*v));
		if (!v) {
			err = -PFT_ERR_NOMEM;
			break;
		}
		f->src = v;
		v[f->nsrc] = is;
	}
	if (err < 0)
		pft_diag_file(d, err, f->path, "%s", pft_errstr(pft_errcode(err)));
out:
	if (!is_stdin)
		close(fd);
	pft_info_free(info);
	return err < 0 ? err : 0;
}

/* The configuration of the snapshot's PTM with trace ID @id (-1: the
 * first PTM), if its registers give one: 1, else 0. */
static int snapshot_config(const struct pft_snapshot *snap, int id, struct pft_ptm_config *cfg)
{
	for (size_t i = 0; snap && i < snap->ndevs; i++) {
		const struct pft_snap_device *d = &snap->devs[i];
		uint64_t tid;
		if (d->protocol != PFT_PROTO_PTM || pft_snap_reg(d, "ETMTRACEIDR", &tid) < 0 ||
		    (id >= 0 && (int)(tid & 0x7f) != id))
			continue;
		return pft_snap_ptm_config(d, cfg, NULL) == 0;
	}
	return 0;
}

int pft_survey_read(struct pft_survey *s, uint8_t *buf, size_t size, struct pft_diag *d)
{
	size_t n = 0;
	int err;

	if (s->src)
		return -PFT_ERR_EOS;
	for (size_t i = 0; i < s->nfiles; i++) {
		if ((err = read_file(&s->files[i], s->image, buf, size, d)) < 0)
			return err;
		n += s->files[i].nsrc;
	}
	if (!(s->src = calloc(n ? n : 1, sizeof(*s->src))))
		return pft_diag_set(d, -PFT_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < s->nfiles; i++) {
		const struct survey_file *f = &s->files[i];
		for (size_t k = 0; k < f->nsrc; k++) {
			const struct pft_info_source *is = &f->src[k];
			struct pft_input_source *src = &s->src[s->nsrc++];

			src->name = src->path = f->path;
			src->id = is->id >= 0 ? is->id : f->raw_id;
			src->protocol = is->protocol;
			src->stats.bytes = is->bytes;
			src->cpu = -1;
			struct pft_ptm_config cfg;
			if (snapshot_config(s->snap, src->id, &cfg)) {
				src->cfg = cfg;
				src->protocol = PFT_PROTO_PTM;
				src->registers = 1;
			} else if (is->detected) {
				src->detected = 1;
				src->cfg = is->cfg;
				src->determined = is->determined;
				src->ncandidates = is->ncandidates;
				src->needs_image = is->needs_image;
				memcpy(src->candidates, is->candidates, sizeof(src->candidates));
			}
		}
	}
	return -PFT_ERR_EOS;
}

size_t pft_survey_nsources(const struct pft_survey *s)
{
	return s->nsrc;
}

int pft_survey_source(const struct pft_survey *s, size_t index, struct pft_input_source *src,
		      size_t size)
{
	if (!src || size < sizeof(*src) || index >= s->nsrc)
		return -PFT_ERR_INVALID;
	memset(src, 0, size);
	*src = s->src[index];
	return 0;
}
