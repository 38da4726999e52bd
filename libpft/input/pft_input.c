/*
 * Inputs decoded whole: trace files and snapshots, read in blocks and
 * pushed through one pipeline per buffer file, with one program image per
 * traced core shared by that core's sources.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pft.h"
#include "input/pft_input_perf.h"
#include "input/pft_input_survey.h"
#include "input/pft_input_ids.h"
#include "etm3/pft_etm3_config.h"
#include "image/pft_image_int.h"
#include "ptm/pft_detect_ptm.h"
#include "decode/pft_batch.h"
#include "decode/pft_merge.h"
#include "decode/pft_par.h"
#include "common/pft_size.h"
#include "common/pft_diag.h"

enum { READ_BLOCK = 256 * 1024 };

struct user_image {
	char *path;
	int64_t addr;          /* ELF, symbols: bias; raw: load address */
	int kind;              /* enum pft_input_image_kind */
};

struct core_image {
	const struct pft_snap_device *core;  /* NULL: the one image of a file */
	struct pft_image *img;
};

struct in_file {
	char *path;
	unsigned format;
	struct pft_pipe *pipe;
	size_t *map;           /* pipeline source index -> input source index */
	size_t nmap;
	int fd;                /* -1 until reading starts */
	int done;
	uint64_t read;         /* bytes read */
	uint64_t size;         /* of a regular file (progress); 0: unknown */
	/* Files read side by side (a merge): each its own block, which its
	 * pipeline borrows until it needs more; NULL: the input's. */
	uint8_t *buf;
	/* Standard input: the bytes detection read, decoded before the rest;
	 * freed once the pipeline has taken them. */
	uint8_t *prefix;
	size_t nprefix;
	int prefix_fed;
};

struct in_source {
	struct pft_input_source pub;
	struct pft_etm3_config cfg3;   /* ETMv3 sources (pub.cfg: PTM ones) */
	char *name;
	size_t file;
	int pipe_index;        /* -1: not decoded */
};

enum { READ_ITEMS = 1, READ_COUNTS };

struct pft_input {
	struct pft_input_config cfg;
	struct pft_snapshot *snap;
	struct user_image *uimg;
	size_t nuimg;
	struct core_image *cimg;
	size_t ncimg;
	struct in_file *files;
	size_t nfiles;
	struct in_source *src;
	size_t nsrc;
	size_t cur;            /* file being read */
	int opened;
	struct perf_in *perf;  /* a perf.data file: it does the reading */
	struct pft_survey *survey;  /* cfg.survey: it does the reading */
	struct pft_image *survey_img;  /* the survey's user images, when given */
	struct par *par;       /* the parallel decode, once started */
	int par_tried;
	enum pft_input_serial serial;  /* without @par: why not */
	const struct pft_fold *fold;  /* pft_input_set_fold() */
	struct pft_merge *merge;  /* cfg.merge: the sources on one time base */
	int merge_none;        /* no decoded source has timestamps: no merge */
	/* The item pulled last, and how many of its elements or packets
	 * went into the merge (next_merged(); a GAP counts 1). */
	struct pft_item merging;
	uint32_t merged;
	int merge_done;        /* every stream read: the merge was finished */
	int reading;           /* READ_ITEMS or READ_COUNTS once reading starts */
	struct pft_input_counts *counts;  /* READ_COUNTS: per source */
	uint64_t counted;      /* items counted (progress) */
	uint8_t *buf;
	struct pft_diag *notes; /* pft_input_diag() */
	size_t nnotes;
	struct pft_diag error;  /* the last failure */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *progress_ctx;
};

static void report_progress(void *ctx);

static char *dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);

	if (p)
		memcpy(p, s, n);
	return p;
}

/* Whether @c's @ids are trace IDs 0x01-0x6f. */
static int ids_valid(const struct pft_input_config *c)
{
	for (int id = 0; id < 8 * (int)sizeof(c->ids); id++)
		if ((c->ids[id / 8] >> (id % 8) & 1) && (id < 1 || id > PFT_ID_MAX_VALID))
			return 0;
	return 1;
}

struct pft_input *pft_input_alloc(const struct pft_input_config *cfg, int *errcode)
{
	struct pft_input_config c = { 0 };
	struct pft_input *in;

	if (cfg && cfg->size >= PFT_FIRST_SIZE(struct pft_input_config))
		pft_copy_known(&c, cfg, cfg->size, sizeof(c));
	if (!cfg || cfg->size < PFT_FIRST_SIZE(struct pft_input_config) ||
	    !(c.packets || c.elements || c.survey) || c.survey > 1 ||
	    c.merge > PFT_INPUT_MERGE_ORDER ||
	    c.fit_check > 1 || c.id < -1 || c.id > PFT_ID_MAX_VALID || !ids_valid(&c)) {
		if (errcode)
			*errcode = -PFT_ERR_INVALID;
		return NULL;
	}
	in = calloc(1, sizeof(*in));
	if (in)
		in->buf = malloc(READ_BLOCK);
	if (in && in->buf && c.survey)
		in->survey = pft_survey_alloc(&c);
	if (!in || !in->buf || (c.survey && !in->survey)) {
		if (in)
			free(in->buf);
		free(in);
		if (errcode)
			*errcode = -PFT_ERR_NOMEM;
		return NULL;
	}
	in->cfg = c;
	in->cfg.size = sizeof(in->cfg);
	if (errcode)
		*errcode = 0;
	return in;
}

void pft_input_free(struct pft_input *in)
{
	if (!in)
		return;
	/* First: its threads read the images until they are stopped. */
	pft_par_free(in->par);
	pft_merge_free(in->merge);
	for (size_t i = 0; i < in->nfiles; i++) {
		struct in_file *f = &in->files[i];
		if (f->fd > 0)
			close(f->fd);
		pft_pipe_free(f->pipe);
		free(f->buf);
		free(f->map);
		free(f->path);
		free(f->prefix);
	}
	free(in->files);
	for (size_t i = 0; i < in->nsrc; i++)
		free(in->src[i].name);
	free(in->src);
	for (size_t i = 0; i < in->ncimg; i++)
		pft_image_free(in->cimg[i].img);
	free(in->cimg);
	for (size_t i = 0; i < in->nuimg; i++)
		free(in->uimg[i].path);
	free(in->uimg);
	pft_snap_free(in->snap);
	free(in->notes);
	pft_perf_in_free(in->perf);
	pft_survey_free(in->survey);
	pft_image_free(in->survey_img);
	free(in->counts);
	free(in->buf);
	free(in);
}

static int add_user_image(struct pft_input *in, const char *path, int64_t addr, int kind)
{
	if (!in || !path || in->opened)
		return -PFT_ERR_INVALID;
	struct user_image *v = realloc(in->uimg, (in->nuimg + 1) * sizeof(*v));
	if (!v)
		return -PFT_ERR_NOMEM;
	in->uimg = v;
	v[in->nuimg].path = dup_str(path);
	if (!v[in->nuimg].path)
		return -PFT_ERR_NOMEM;
	v[in->nuimg].addr = addr;
	v[in->nuimg++].kind = kind;
	return 0;
}

int pft_input_add_elf(struct pft_input *in, const char *path, int64_t bias)
{
	return add_user_image(in, path, bias, PFT_INPUT_IMAGE_ELF);
}

int pft_input_add_image(struct pft_input *in, const char *path, uint32_t addr)
{
	return add_user_image(in, path, addr, PFT_INPUT_IMAGE_RAW);
}

int pft_input_add_symbols(struct pft_input *in, const char *path)
{
	return add_user_image(in, path, 0, PFT_INPUT_IMAGE_SYMBOLS);
}

/* Why @path cannot be loaded, when the file system says so (else NULL).
 * Checked before the image layer opens it: a FIFO would block it.  An
 * empty file is refused unless @may_look_empty (/proc/kallsyms has size 0). */
static const char *file_problem(const char *path, int may_look_empty)
{
	struct stat st;

	if (stat(path, &st))
		return strerror(errno);
	if (S_ISDIR(st.st_mode))
		return "is a directory";
	if (!S_ISREG(st.st_mode))
		return "not a regular file";
	if (st.st_size == 0 && !may_look_empty)
		return "empty file";
	if (access(path, R_OK))
		return strerror(errno);
	return NULL;
}

/* The symbols of @path in @img, with a message when there are none. */
static int load_symbols(struct pft_image *img, const char *path, int64_t bias,
			struct pft_diag *d)
{
	struct pft_diag why = { .code = 0 };
	int n = pft_image_add_symbols(img, path, bias, &why);

	if (n < 0 && why.code) {   /* a listing's line, named */
		if (d)
			*d = why;
		return n;
	}
	if (n == 0)
		return pft_diag_file(d, -PFT_ERR_BAD_FILE, path, "no code symbols in it");
	if (n == -PFT_ERR_BAD_FILE)
		return pft_diag_file(d, n, path, "not an ELF file, System.map or kallsyms listing "
				     "(or a malformed one, or one whose addresses are all 0)");
	if (n == -PFT_ERR_NOT_SUPPORTED)
		return pft_diag_file(d, -PFT_ERR_BAD_FILE, path,
				     "not a 32-bit little-endian ARM ELF");
	if (n < 0)
		return pft_diag_file(d, n, path, "%s", pft_errstr(pft_errcode(n)));
	return 0;
}

/* pft_input_load_image(); with @ov, an ELF goes beneath what @img holds. */
static int load_image(struct pft_image *img, const char *path, int kind, int64_t addr,
		      struct pft_image_overlap *ov, struct pft_diag *d)
{
	const char *problem;
	int is_elf = kind == PFT_INPUT_IMAGE_ELF;
	int err;

	if (!img || !path || kind < PFT_INPUT_IMAGE_RAW || kind > PFT_INPUT_IMAGE_SYMBOLS)
		return pft_diag_set(d, -PFT_ERR_INVALID, "invalid argument");
	if ((problem = file_problem(path, kind == PFT_INPUT_IMAGE_SYMBOLS)) != NULL)
		return pft_diag_file(d, -PFT_ERR_BAD_FILE, path, "%s", problem);
	if (kind == PFT_INPUT_IMAGE_SYMBOLS)
		return load_symbols(img, path, addr, d);
	if (!is_elf && (addr < 0 || addr > UINT32_MAX))
		return pft_diag_file(d, -PFT_ERR_BAD_CONFIG, path, "address 0x%" PRIx64
				     " is not 32-bit", (uint64_t)addr);
	err = is_elf ? (ov ? pft_image_add_elf_beneath(img, path, addr, ov, sizeof(*ov))
			   : pft_image_add_elf(img, path, addr))
		     : pft_image_add_file(img, path, 0, 0, (uint32_t)addr, PFT_SPACE_ANY);
	if (err >= 0)
		return 0;
	switch (err) {
	case -PFT_ERR_NOT_SUPPORTED:
		return pft_diag_file(d, -PFT_ERR_BAD_FILE, path,
				     "not a 32-bit little-endian ARM ELF executable");
	case -PFT_ERR_BAD_FILE:
		return pft_diag_file(d, err, path, "%s",
				     is_elf ? "not an ELF file, or a malformed one" : "cannot read it");
	case -PFT_ERR_INVALID:
		return pft_diag_file(d, -PFT_ERR_BAD_CONFIG, path, "%s 0x%" PRIx64
				     " puts it past 0xffffffff", is_elf ? "bias" : "address",
				     (uint64_t)addr);
	case -PFT_ERR_BAD_CONFIG: {
		size_t idx;
		uint32_t at;
		struct pft_image_section_info info;

		if (!pft_image_conflict(img, &idx, &at) &&
		    !pft_image_section(img, idx, &info, sizeof(info)))
			return pft_diag_set(d, err, "%s overlaps %s (at 0x%08x)", path,
					    info.path ? info.path : "a memory buffer", at);
		return pft_diag_set(d, err, "%s overlaps another image", path);
	}
	default:
		return pft_diag_file(d, err, path, "%s", pft_errstr(pft_errcode(err)));
	}
}

int pft_input_load_image(struct pft_image *img, const char *path, int kind, int64_t addr,
			 struct pft_diag *d)
{
	return load_image(img, path, kind, addr, NULL, d);
}

/* Keep note @note for pft_input_diag() (once, however many cores repeat it). */
static int add_note(struct pft_input *in, const struct pft_diag *note)
{
	for (size_t i = 0; i < in->nnotes; i++)
		if (!strcmp(in->notes[i].text, note->text))
			return 0;
	struct pft_diag *v = realloc(in->notes, (in->nnotes + 1) * sizeof(*v));
	if (!v)
		return pft_diag_set(&in->error, -PFT_ERR_NOMEM, "out of memory");
	in->notes = v;
	v[in->nnotes++] = *note;
	return 0;
}

int pft_input_add_note(struct pft_input *in, const struct pft_diag *note)
{
	return in && note ? add_note(in, note) : -PFT_ERR_INVALID;
}

/* ELF @u beneath a snapshot core's dumps in @img: the dumps' bytes are the
 * code (a running kernel patches its text), the ELF gives symbols and the
 * bytes no dump has; where the two differ, a note says so. */
static int load_elf_beneath(struct pft_input *in, struct pft_image *img,
			    const struct user_image *u)
{
	struct pft_image_overlap ov = { 0 };
	struct pft_diag note;
	int err = load_image(img, u->path, PFT_INPUT_IMAGE_ELF, u->addr, &ov, &in->error);

	if (err < 0 || !ov.differ)
		return err;
	pft_diag_file(&note, 0, u->path, "%" PRIu64 " of the %" PRIu64 " bytes it shares with "
		      "the snapshot's memory differ, the first at 0x%08" PRIx32 ": the snapshot's "
		      "bytes are used as code", ov.differ, ov.covered, ov.first_differ);
	return add_note(in, &note);
}

/* The user's images in @img; with @beneath_dumps, the ELFs are left for
 * load_elf_beneath(). */
static int load_user_images_into(struct pft_input *in, struct pft_image *img, int beneath_dumps,
				 struct pft_diag *d)
{
	for (size_t i = 0; i < in->nuimg; i++) {
		const struct user_image *u = &in->uimg[i];
		if (beneath_dumps && u->kind == PFT_INPUT_IMAGE_ELF)
			continue;
		int err = pft_input_load_image(img, u->path, u->kind, u->addr, d);
		if (err < 0)
			return err;
	}
	return 0;
}

int pft_input_load_user_images(struct pft_input *in, struct pft_image *img, struct pft_diag *d)
{
	return load_user_images_into(in, img, 0, d);
}

static int load_user_images(struct pft_input *in, struct pft_image *img, int beneath_dumps)
{
	return load_user_images_into(in, img, beneath_dumps, &in->error);
}

const struct pft_input_config *pft_input_get_config(const struct pft_input *in)
{
	return &in->cfg;
}

int pft_input_opened(const struct pft_input *in)
{
	return in->opened;
}

void pft_input_set_perf(struct pft_input *in, struct perf_in *p)
{
	in->opened = 1;
	in->perf = p;
}

struct perf_in *pft_input_get_perf(const struct pft_input *in)
{
	return in->perf;
}

/* The image of @core (NULL: of a trace file), made on first use. */
static int core_image(struct pft_input *in, const struct pft_snap_device *core,
		      struct pft_image **out)
{
	int err;

	*out = NULL;
	if (!in->cfg.elements)
		return 0;
	for (size_t i = 0; i < in->ncimg; i++)
		if (in->cimg[i].core == core) {
			*out = in->cimg[i].img;
			return 0;
		}
	struct core_image *v = realloc(in->cimg, (in->ncimg + 1) * sizeof(*v));
	if (!v)
		return pft_diag_set(&in->error, -PFT_ERR_NOMEM, "out of memory");
	in->cimg = v;
	struct pft_image *img = pft_image_alloc(&err);
	if (!img)
		return pft_diag_set(&in->error, err, "out of memory");
	v[in->ncimg++] = (struct core_image){ core, img };
	if ((err = load_user_images(in, img, core != NULL)) < 0)
		return err;
	if (core && (err = pft_snap_add_dumps(in->snap, core, img, &in->error)) < 0)
		return err;
	for (size_t i = 0; core && i < in->nuimg; i++)
		if (in->uimg[i].kind == PFT_INPUT_IMAGE_ELF &&
		    (err = load_elf_beneath(in, img, &in->uimg[i])) < 0)
			return err;
	*out = img;
	return 0;
}

static int new_file(struct pft_input *in, const char *path, unsigned format, size_t *index)
{
	struct pft_pipe_config pc = { .size = sizeof(pc), .format = (uint8_t)format,
				      .packets = in->cfg.packets,
				      .elements = in->cfg.elements,
				      .fit_check = in->cfg.fit_check,
				      .runs = in->cfg.runs };
	int err;

	for (size_t i = 0; i < in->nfiles; i++)
		if (!strcmp(in->files[i].path, path)) {
			*index = i;
			return 0;
		}
	struct in_file *v = realloc(in->files, (in->nfiles + 1) * sizeof(*v));
	if (!v)
		return pft_diag_set(&in->error, -PFT_ERR_NOMEM, "out of memory");
	in->files = v;
	struct in_file *f = &v[in->nfiles];
	memset(f, 0, sizeof(*f));
	f->fd = -1;
	f->format = format;
	f->path = dup_str(path);
	f->pipe = pft_pipe_alloc(&pc, &err);
	if (!f->path || !f->pipe) {
		free(f->path);
		pft_pipe_free(f->pipe);
		return pft_diag_set(&in->error, f->path ? err : -PFT_ERR_NOMEM, "out of memory");
	}
	/* Its size, for pft_input_progress() (0: a pipe, standard input). */
	struct stat st;
	if (strcmp(path, "-") && !stat(path, &st) && S_ISREG(st.st_mode))
		f->size = (uint64_t)st.st_size;
	*index = in->nfiles++;
	return 0;
}

static int new_source(struct pft_input *in, const char *name, size_t file, int id,
		      uint8_t protocol, struct in_source **out)
{
	struct in_source *v = realloc(in->src, (in->nsrc + 1) * sizeof(*v));

	if (!v)
		return pft_diag_set(&in->error, -PFT_ERR_NOMEM, "out of memory");
	in->src = v;
	struct in_source *s = &v[in->nsrc];
	memset(s, 0, sizeof(*s));
	s->name = dup_str(name);
	if (!s->name)
		return pft_diag_set(&in->error, -PFT_ERR_NOMEM, "out of memory");
	s->file = file;
	s->pipe_index = -1;
	s->pub.cpu = -1;
	s->pub.id = id;
	s->pub.protocol = protocol;
	in->nsrc++;
	*out = s;
	return 0;
}

/* The ETMv3 configuration of snapshot device @dev from its registers. */
static int snap_etm3_config(struct pft_input *in, const struct pft_snap_device *dev,
			    struct pft_etm3_config *cfg)
{
	static const char *const names[4] = { "ETMCR", "ETMCCER", "ETMIDR", "ETMTRACEIDR" };
	uint64_t v[4];

	for (int i = 0; i < 4; i++)
		if (pft_snap_reg(dev, names[i], &v[i]) || v[i] > UINT32_MAX)
			return pft_diag_file(&in->error, -PFT_ERR_BAD_CONFIG, dev->file,
					     "ETM %s needs ETMCR, ETMCCER, ETMIDR "
					     "and ETMTRACEIDR (32-bit)", dev->name);
	pft_etm3_config_init(cfg);
	if (pft_etm3_config_from_regs(cfg, (uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2],
				      (uint32_t)v[3]) < 0)
		return pft_diag_file(&in->error, -PFT_ERR_BAD_CONFIG, dev->file,
				     "ETMIDR 0x%08llx of %s is not an ETMv3",
				     (unsigned long long)v[2], dev->name);
	unsigned id = (unsigned)v[3] & 0x7f;
	if (id == 0 || id > PFT_ID_MAX_VALID)
		return pft_diag_file(&in->error, -PFT_ERR_BAD_CONFIG, dev->file,
				     "ETMTRACEIDR of %s gives trace ID 0x%02x, "
				     "which is reserved", dev->name, id);
	return 0;
}

/* Decode source @s (the last added) in its file's pipeline: as a PTM
 * under @ptm, or as an ETMv3 under @etm3 (the other NULL). */
static int start_source(struct pft_input *in, struct in_source *s, const struct pft_ptm_config *ptm,
			const struct pft_etm3_config *etm3, const struct pft_snap_device *core)
{
	struct in_file *f = &in->files[s->file];
	struct pft_image *img;
	int err;

	if ((err = core_image(in, core, &img)) < 0)
		return err;
	size_t *map = realloc(f->map, (f->nmap + 1) * sizeof(*map));
	if (!map)
		return pft_diag_set(&in->error, -PFT_ERR_NOMEM, "out of memory");
	f->map = map;
	if (etm3) {
		s->cfg3 = *etm3;
		s->pub.profile = etm3->m_profile ? PFT_PROFILE_M : PFT_PROFILE_A;
	}
	int idx = etm3 ? pft_pipe_add_etm3(f->pipe, s->pub.id, etm3, img)
		       : pft_pipe_add_ptm(f->pipe, s->pub.id, ptm, img);
	if (idx < 0) {
		if (idx == -PFT_ERR_BAD_CONFIG)
			return pft_diag_set(&in->error, idx,
					    "%s: the %s configuration is not valid", s->name,
					    etm3 ? "ETMv3" : "PTM");
		for (size_t i = 0; i + 1 < in->nsrc; i++)
			if (in->src[i].file == s->file && in->src[i].pipe_index >= 0) {
				if (f->format == PFT_PIPE_RAW)
					return pft_diag_file(&in->error, -PFT_ERR_BAD_CONFIG,
							     f->path,
							     "%s and %s write to this unformatted "
							     "buffer: it has room for one source",
							     in->src[i].name, s->name);
				return pft_diag_file(&in->error, -PFT_ERR_BAD_CONFIG, f->path,
						     "%s and %s share trace ID 0x%02x",
						     in->src[i].name, s->name, s->pub.id);
			}
		return pft_diag_set(&in->error, idx, "%s: %s", s->name,
				    pft_errstr(pft_errcode(idx)));
	}
	f->map[f->nmap++] = in->nsrc - 1;
	s->pipe_index = idx;
	s->pub.decoded = 1;
	if (ptm)
		s->pub.cfg = *ptm;
	s->pub.timestamps = ptm ? ptm->timestamps : etm3->timestamps;
	s->pub.cycle_accurate = ptm ? ptm->cycle_accurate : etm3->cycle_accurate;
	s->pub.image = img;
	return (int)(in->nsrc - 1);
}

/* The survey of the snapshot's buffers, framed as it says; a raw
 * buffer's source has the trace ID of (the last) device writing to it. */
static int survey_snapshot(struct pft_input *in)
{
	const struct pft_snapshot *snap = in->snap;

	pft_survey_set_snapshot(in->survey, snap);
	for (size_t i = 0; i < snap->nbufs; i++) {
		const struct pft_snap_buffer *b = &snap->bufs[i];
		uint8_t framing = b->pipe_format == PFT_PIPE_RAW    ? PFT_FRAMES_RAW
				  : b->pipe_format == PFT_PIPE_TPIU ? PFT_FRAMES_TPIU
								    : PFT_FRAMES_MEMORY;
		int raw_id = -1;
		for (size_t k = 0; framing == PFT_FRAMES_RAW && k < snap->ndevs; k++) {
			uint64_t tid;
			const struct pft_snap_device *dev = &snap->devs[k];
			if (dev->buffer == (int)i && pft_snap_reg(dev, "ETMTRACEIDR", &tid) == 0)
				raw_id = (int)(tid & 0x7f);
		}
		int err = pft_survey_add_file(in->survey, b->path, framing, raw_id, 0, &in->error);
		if (err < 0)
			return err;
	}
	return 0;
}

int pft_input_open_snapshot(struct pft_input *in, const char *dir)
{
	int err;
	size_t decoded = 0;
	uint8_t found[16] = { 0 };   /* trace IDs decoded */

	if (!in || !dir || in->snap || in->perf)
		return -PFT_ERR_INVALID;
	in->opened = 1;
	err = pft_snap_load(dir, in->cfg.snap_flags, &in->snap, &in->error);
	if (err < 0)
		return err;
	if (in->survey)
		return survey_snapshot(in);
	for (size_t i = 0; i < in->snap->ndevs; i++) {
		const struct pft_snap_device *dev = &in->snap->devs[i];
		struct pft_ptm_config cfg;
		struct in_source *s;
		size_t file;
		uint64_t traceid;
		int id = -1;

		if (dev->protocol == PFT_PROTO_UNKNOWN || dev->buffer < 0)
			continue;   /* not a trace source, or no trace */
		const struct pft_snap_buffer *b = &in->snap->bufs[dev->buffer];
		if (dev->protocol == PFT_PROTO_PTM &&
		    (err = pft_snap_ptm_config(dev, &cfg, &in->error)) < 0)
			return err;
		if (dev->protocol == PFT_PROTO_PTM)
			id = cfg.trace_id;
		else if (!pft_snap_reg(dev, "ETMTRACEIDR", &traceid) ||
			 !pft_snap_reg(dev, "TRCTRACEIDR", &traceid))
			id = (int)(traceid & 0x7f);
		if ((err = new_file(in, b->path, b->pipe_format, &file)) < 0 ||
		    (err = new_source(in, dev->name, file, b->pipe_format == PFT_PIPE_RAW ? -1 : id,
				      dev->protocol, &s)) < 0)
			return err;
		if ((dev->protocol != PFT_PROTO_PTM && dev->protocol != PFT_PROTO_ETMV3) ||
		    !pft_input_wants_id(&in->cfg, id))
			continue;
		const struct pft_snap_device *core =
			dev->core >= 0 ? &in->snap->devs[dev->core] : NULL;
		if (dev->protocol == PFT_PROTO_ETMV3) {
			struct pft_etm3_config e3;
			if ((err = snap_etm3_config(in, dev, &e3)) < 0)
				return err;
			/* The core's type says M too (OpenCSD takes it from there). */
			const struct pft_core *kind = core ? pft_core_find(core->type) : NULL;
			if (kind && kind->profile == PFT_PROFILE_M)
				e3.m_profile = 1;
			if ((err = start_source(in, s, NULL, &e3, core)) < 0)
				return err;
		} else if ((err = start_source(in, s, &cfg, NULL, core)) < 0) {
			return err;
		}
		decoded++;
		if (id > 0)
			found[id / 8] |= (uint8_t)(1u << (id % 8));
	}
	for (int id = 1; id <= PFT_ID_MAX_VALID; id++)
		if (pft_input_names_id(&in->cfg, id) && !(found[id / 8] >> (id % 8) & 1))
			return pft_diag_file(&in->error, -PFT_ERR_NO_SOURCE, dir,
					     "no PTM or ETMv3 with trace ID 0x%02x", id);
	if (!decoded)
		return pft_diag_file(&in->error, -PFT_ERR_NO_SOURCE, dir,
				     "no PTM or ETMv3 trace source has a trace " "buffer");
	return 0;
}

/* Detection reads this much of a file at most: enough for 64 KiB of one
 * source among several in frames. */
enum { DETECT_READ = 4 * 1024 * 1024 };

/* The first bytes of file @path ("-": standard input, which is left
 * open), at most @cap, in *@buf. */
static int read_prefix(struct pft_input *in, const char *path, size_t cap, uint8_t **buf,
		       size_t *len)
{
	int is_stdin = !strcmp(path, "-");
	int fd = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;
	int err = 0;

	if (fd < 0)
		return pft_diag_file(&in->error, -PFT_ERR_BAD_FILE, path, "%s", strerror(errno));
	*buf = malloc(cap ? cap : 1);
	if (!*buf)
		err = pft_diag_set(&in->error, -PFT_ERR_NOMEM, "out of memory");
	while (!err && got < cap) {
		ssize_t n = read(fd, *buf + got, cap - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			err = pft_diag_offset(&in->error, -PFT_ERR_BAD_FILE,
					      is_stdin ? "standard input" : path, got, "%s",
					      strerror(errno));
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	if (!is_stdin)
		close(fd);
	if (err) {
		free(*buf);
		*buf = NULL;
		return err;
	}
	*len = got;
	return 0;
}

/* pft_input_verdict() on regular file @path (other files are not read twice:
 * a pipe's bytes would be lost). */
static int file_verdict(struct pft_input *in, const char *path, unsigned format,
			const struct stat *st)
{
	/* A trace-port FSYNC comes often, but perhaps after other bytes. */
	size_t cap = format == PFT_PIPE_TPIU ? DETECT_READ : PFT_DETECT_PREFIX;
	uint8_t *buf = NULL;
	size_t len = 0;
	int err;

	if (!S_ISREG(st->st_mode))
		return 0;
	if (st->st_size == 0)
		return pft_input_verdict(&in->error, path, format, NULL, 0, 1);
	if ((err = read_prefix(in, path, cap, &buf, &len)) < 0)
		return err;
	err = pft_input_verdict(&in->error, path, format, buf, len,
				(uint64_t)st->st_size <= len);
	free(buf);
	return err;
}

int pft_input_open_file(struct pft_input *in, const char *path, unsigned format)
{
	struct stat st;
	size_t file;

	if (!in || !path || format > PFT_PIPE_TPIU || in->snap || in->perf)
		return -PFT_ERR_INVALID;
	in->opened = 1;
	if (strcmp(path, "-")) {
		int err;

		if (stat(path, &st))
			return pft_diag_file(&in->error, -PFT_ERR_BAD_FILE, path, "%s",
					     strerror(errno));
		if (S_ISDIR(st.st_mode))
			return pft_diag_file(&in->error, -PFT_ERR_BAD_FILE, path, "is a directory");
		if (access(path, R_OK))
			return pft_diag_file(&in->error, -PFT_ERR_BAD_FILE, path, "%s",
					     strerror(errno));
		if ((err = file_verdict(in, path, format, &st)) < 0)
			return err;
	}
	if (in->survey)
		return pft_survey_add_file(in->survey, path,
					   format == PFT_PIPE_RAW    ? PFT_FRAMES_RAW
					   : format == PFT_PIPE_TPIU ? PFT_FRAMES_TPIU
								     : PFT_FRAMES_UNKNOWN,
					   -1, !strcmp(path, "-"), &in->error);
	for (size_t i = 0; i < in->nfiles; i++)
		if (!strcmp(in->files[i].path, path))
			return pft_diag_file(&in->error, -PFT_ERR_INVALID, path, "given twice");
	int err = new_file(in, path, format, &file);
	if (err < 0 || strcmp(path, "-"))
		return err;
	/* Standard input: its first bytes are read now, judged, and decoded
	 * first (detection reads them too). */
	struct in_file *f = &in->files[file];
	if ((err = read_prefix(in, path, DETECT_READ, &f->prefix, &f->nprefix)) < 0)
		return err;
	return pft_input_verdict(&in->error, path, format, f->prefix, f->nprefix,
				 f->nprefix < DETECT_READ);
}

int pft_input_add_ptm(struct pft_input *in, int id, const struct pft_ptm_config *cfg)
{
	struct in_source *s;
	int err;

	if (!in || !cfg || !in->nfiles || in->snap)
		return -PFT_ERR_INVALID;
	size_t file = in->nfiles - 1;
	int raw = in->files[file].format == PFT_PIPE_RAW;
	if (!raw && (id < 1 || id > PFT_ID_MAX_VALID))
		return pft_diag_set(&in->error, -PFT_ERR_INVALID, "trace ID 0x%02x is reserved",
				    (unsigned)id);
	if ((err = new_source(in, in->files[file].path, file, raw ? -1 : id, PFT_PROTO_PTM,
			      &s)) < 0)
		return err;
	struct pft_ptm_config c = *cfg;
	if (!raw)
		c.trace_id = (uint8_t)id;
	return start_source(in, s, &c, NULL, NULL);
}

/* A source whose configuration the trace does not show (no PTM A-sync and
 * I-sync in its first bytes: damaged, empty or not PTM): decoded under the
 * defaults, so that what is wrong with it is reported packet by packet. */
static int add_default_ptm(struct pft_input *in, size_t file, int id)
{
	struct pft_ptm_config cfg;
	struct in_source *s = NULL;
	int err;

	pft_ptm_config_init(&cfg);
	if (id >= 0)
		cfg.trace_id = (uint8_t)id;
	if ((err = new_source(in, in->files[file].path, file, id, PFT_PROTO_PTM, &s)) < 0)
		return err;
	err = start_source(in, s, &cfg, NULL, NULL);
	return err < 0 ? err : 0;
}

/* Detect source @id's configuration from its first bytes and add it. */
static int add_detected_ptm(struct pft_input *in, size_t file, int id, const uint8_t *bytes,
			    size_t n)
{
	struct pft_detect_ptm_result r = { .size = sizeof(r) };
	struct pft_image *img;
	struct in_source *s;
	int err;

	if ((err = core_image(in, NULL, &img)) < 0)
		return err;
	err = pft_detect_ptm(bytes, n, img, &r, sizeof(r));
	if (err == -PFT_ERR_NOSYNC)
		return add_default_ptm(in, file, id);
	if (err < 0)
		return pft_diag_file(&in->error, err, in->files[file].path, "detection: %s",
				     pft_errstr(pft_errcode(err)));
	if ((err = new_source(in, in->files[file].path, file, id, PFT_PROTO_PTM, &s)) < 0)
		return err;
	if (id >= 0)
		r.config.trace_id = (uint8_t)id;
	err = start_source(in, s, &r.config, NULL, NULL);
	if (err < 0)
		return err;
	s->pub.detected = 1;
	s->pub.determined = r.determined;
	s->pub.ncandidates = r.ncandidates;
	memcpy(s->pub.candidates, r.candidates, sizeof(r.candidates));
	s->pub.needs_image = pft_detect_needs_image(img);
	return 0;
}

/* An ETMv3 source of file @file, trace ID @id (-1: RAW), under @cfg. */
static int add_etm3_source(struct pft_input *in, size_t file, int id,
			   const struct pft_etm3_config *cfg)
{
	struct pft_etm3_config c;
	struct in_source *s;
	int err;

	if ((err = pft_etm3_config_copy(&c, cfg)) < 0)
		return pft_diag_file(&in->error, err, in->files[file].path,
				     "the ETMv3 configuration is not valid");
	if (id >= 0)
		c.trace_id = (uint8_t)id;
	if ((err = new_source(in, in->files[file].path, file, id, PFT_PROTO_ETMV3, &s)) < 0)
		return err;
	err = start_source(in, s, NULL, &c, NULL);
	return err < 0 ? err : 0;
}

/* pft_input_add_detected(); with @etm3, the ETMv3 sources of a formatted
 * file are decoded under it instead of the PTM ones. */
static int add_detected(struct pft_input *in, int id, const struct pft_etm3_config *etm3)
{
	uint8_t want = etm3 ? PFT_PROTO_ETMV3 : PFT_PROTO_PTM;
	struct pft_detect_frames fr = { .size = sizeof(fr) };
	uint8_t *buf = NULL, *bytes = NULL;
	uint8_t seen[16] = { 0 };   /* trace IDs the first bytes show */
	size_t len = 0, added = 0, asked = 0;
	int err;

	if (!in || !in->nfiles || in->snap || id < -1 || id > PFT_ID_MAX_VALID)
		return -PFT_ERR_INVALID;
	size_t file = in->nfiles - 1;
	struct in_file *f = &in->files[file];
	if (!strcmp(f->path, "-")) {
		/* Read once, when it was opened: the decode starts with these
		 * bytes. */
		buf = f->prefix;
		len = f->nprefix;
	} else if ((err = read_prefix(in, f->path, DETECT_READ, &buf, &len)) < 0) {
		return err;
	}
	if (f->format == PFT_PIPE_RAW) {
		int proto = pft_detect_protocol(buf, len);
		if (proto > PFT_PROTO_PTM && !in->cfg.protocol_given) {
			err = pft_diag_file(&in->error, -PFT_ERR_NO_SOURCE, f->path,
					    "this is %s trace, not PTM",
					    pft_protocol_name((unsigned)proto));
			goto out;
		}
		err = add_detected_ptm(in, file, -1, buf, len < PFT_DETECT_PREFIX ? len
										  : PFT_DETECT_PREFIX);
		added = err == 0;
		goto out;
	}
	if ((err = pft_detect_frames(buf, len, &fr, sizeof(fr))) < 0) {
		err = pft_diag_file(&in->error, err, f->path, "detection: %s",
				    pft_errstr(pft_errcode(err)));
		goto out;
	}
	if (fr.format == PFT_FRAMES_TPIU && f->format == PFT_PIPE_FORMATTED) {
		/* Trace-port syncs: the pipeline must remove them. */
		struct pft_pipe_config pc = { .size = sizeof(pc), .format = PFT_PIPE_TPIU,
					      .packets = in->cfg.packets,
					      .elements = in->cfg.elements,
					      .fit_check = in->cfg.fit_check,
				      .runs = in->cfg.runs };
		struct pft_pipe *tpiu = pft_pipe_alloc(&pc, &err);
		if (!tpiu || f->nmap) {
			pft_pipe_free(tpiu);
			err = pft_diag_file(&in->error, tpiu ? -PFT_ERR_INVALID : err, f->path,
					    "cannot switch to " "trace-port frames");
			goto out;
		}
		pft_pipe_free(f->pipe);
		f->pipe = tpiu;
		f->format = PFT_PIPE_TPIU;
	}
	bytes = malloc(PFT_DETECT_PREFIX);
	if (!bytes) {
		err = pft_diag_set(&in->error, -PFT_ERR_NOMEM, "out of memory");
		goto out;
	}
	for (unsigned i = 0; i < fr.nsources; i++) {
		const struct pft_detect_source *ds = &fr.sources[i];
		struct in_source *s;

		if (id >= 0 ? ds->id != id : !pft_input_wants_id(&in->cfg, ds->id))
			continue;
		seen[ds->id / 8] |= (uint8_t)(1u << (ds->id % 8));
		/* An M-profile ETM's packets have PFT's lengths, and an
		 * M-profile system has no PTM: a source that reads as one is
		 * the ETM. */
		if (ds->protocol != want &&
		    !(etm3 && etm3->m_profile && ds->protocol == PFT_PROTO_PTM)) {
			if ((err = new_source(in, f->path, file, ds->id, ds->protocol, &s)) < 0)
				goto out;
			continue;
		}
		if (etm3) {
			if ((err = add_etm3_source(in, file, ds->id, etm3)) < 0)
				goto out;
			added++;
			continue;
		}
		int n = pft_detect_id_bytes(buf, len, f->format == PFT_PIPE_TPIU, ds->id, bytes,
					    PFT_DETECT_PREFIX);
		if (n < 0) {
			err = pft_diag_set(&in->error, n, "out of memory");
			goto out;
		}
		if ((err = add_detected_ptm(in, file, ds->id, bytes, (size_t)n)) < 0)
			goto out;
		added++;
	}
	err = 0;
	/* An ID asked for that is not in the first bytes: decoded as asked,
	 * the decode will say what it finds. */
	for (int k = 1; k <= PFT_ID_MAX_VALID && err >= 0; k++) {
		if ((id >= 0 ? k != id : !pft_input_names_id(&in->cfg, k)) ||
		    (seen[k / 8] >> (k % 8) & 1))
			continue;
		asked++;
		err = etm3 ? add_etm3_source(in, file, k, etm3) : add_default_ptm(in, file, k);
	}
	if (err >= 0 && !added && !asked && id < 0 && !pft_input_names_ids(&in->cfg))
		err = pft_diag_file(&in->error, -PFT_ERR_NO_SOURCE, f->path,
				    "no %s trace source in the first %zu bytes "
				    "(%u sources of other protocols)", etm3 ? "ETMv3" : "PTM", len,
				    fr.nsources);
out:
	if (buf != in->files[file].prefix)
		free(buf);
	free(bytes);
	return err < 0 ? err : (int)added;
}

int pft_input_add_detected(struct pft_input *in, int id)
{
	return add_detected(in, id, NULL);
}

int pft_input_add_etm3(struct pft_input *in, int id, const struct pft_etm3_config *cfg)
{
	if (!in || !cfg || !in->nfiles || in->snap || id < -1 || id > PFT_ID_MAX_VALID)
		return -PFT_ERR_INVALID;
	size_t file = in->nfiles - 1;
	int raw = in->files[file].format == PFT_PIPE_RAW;
	if (!raw && id < 0)
		return add_detected(in, -1, cfg);
	if (!raw && id < 1)
		return pft_diag_set(&in->error, -PFT_ERR_INVALID, "trace ID 0x%02x is reserved",
				    (unsigned)id);
	int err = add_etm3_source(in, file, raw ? -1 : id, cfg);
	return err < 0 ? err : 1;
}

static int source_fit(const struct pft_input *in, size_t index, struct pft_fit_verdict *v,
		      size_t size)
{
	if (in->perf)
		return pft_perf_in_fit(in->perf, index, v, size);
	if (index >= in->nsrc || in->src[index].pipe_index < 0)
		return -PFT_ERR_INVALID;
	if (in->par)
		return pft_par_fit(in->par, v, size);
	return pft_pipe_fit(in->files[in->src[index].file].pipe,
			    (unsigned)in->src[index].pipe_index, v, size);
}

int pft_input_fit(const struct pft_input *in, size_t index, struct pft_fit_verdict *v,
		  size_t size)
{
	struct pft_input_source src;

	if (!in || pft_input_source(in, index, &src, sizeof(src)) < 0)
		return -PFT_ERR_INVALID;
	int reason = source_fit(in, index, v, size);
	if (reason <= 0)
		return reason;
	/* Where: the trace file, and the source in it. */
	struct pft_diag *d = &v->diag;
	char what[sizeof(d->text)];
	memcpy(what, d->text, sizeof(what));
	if (src.id >= 0)
		pft_diag_file(d, -(int)d->code, src.path, "id 0x%02x: %s", (unsigned)src.id, what);
	else
		pft_diag_file(d, -(int)d->code, src.path, "%s", what);
	return reason;
}

/* Read the next block of file @f into its pipeline. */
static int read_more(struct pft_input *in, struct in_file *f)
{
	if (f->prefix && !f->prefix_fed) {
		f->prefix_fed = 1;
		f->read += f->nprefix;
		if (f->nprefix)
			return pft_pipe_feed(f->pipe, f->prefix, f->nprefix);
	}
	free(f->prefix);   /* the pipeline is done with it */
	f->prefix = NULL;
	if (f->fd < 0) {
		f->fd = strcmp(f->path, "-") ? open(f->path, O_RDONLY | O_CLOEXEC) : 0;
		if (f->fd < 0)
			return pft_diag_file(&in->error, -PFT_ERR_BAD_FILE, f->path, "%s",
					     strerror(errno));
	}
	uint8_t *buf = f->buf ? f->buf : in->buf;
	for (;;) {
		ssize_t n = read(f->fd, buf, READ_BLOCK);
		if (n > 0) {
			f->read += (uint64_t)n;
			report_progress(in);
			return pft_pipe_feed(f->pipe, buf, (size_t)n);
		}
		if (n == 0)
			return pft_pipe_finish(f->pipe);
		if (errno != EINTR)
			return pft_diag_offset(&in->error, -PFT_ERR_BAD_FILE, f->path, f->read,
					       "%s", strerror(errno));
	}
}

/* The parallel decode, when asked for and the input is one that it
 * handles: one file, raw or a formatted memory buffer, not yet read, with
 * one PTM source decoded from it (a formatted buffer's other trace IDs are
 * then counted, not decoded), whose image reads no callback (it is read
 * from every thread). */
static int start_parallel(struct pft_input *in)
{
	struct stat st;

	in->par_tried = 1;
	in->serial = in->cfg.threads < 2 ? PFT_SERIAL_ONE_THREAD
		     : in->perf ? PFT_SERIAL_PERF
		     : in->nfiles != 1 ? PFT_SERIAL_FILES : PFT_SERIAL_NOT;
	if (in->serial)
		return 0;
	struct in_file *f = &in->files[0];
	int frames = f->format == PFT_PIPE_FORMATTED;
	in->serial = f->format != PFT_PIPE_RAW && !frames ? PFT_SERIAL_PROTOCOL
		     : f->nmap > 1 ? PFT_SERIAL_SOURCES
		     : f->prefix || f->read || !strcmp(f->path, "-") || stat(f->path, &st) ||
				     !S_ISREG(st.st_mode) ? PFT_SERIAL_STREAM
		     : PFT_SERIAL_NOT;
	if (in->serial || !f->nmap)
		return 0;
	const struct in_source *s = &in->src[f->map[0]];
	in->serial = !pft_par_protocol_ok(s->pub.protocol, frames) ? PFT_SERIAL_PROTOCOL
		     : s->pub.image && s->pub.image->read_cb ? PFT_SERIAL_IMAGE_READER
		     : PFT_SERIAL_NOT;
	if (in->serial)
		return 0;
	const struct pft_fold *fold = in->cfg.runs && in->cfg.elements && !in->cfg.packets &&
				      in->reading != READ_COUNTS ? in->fold : NULL;
	uint32_t piece = in->cfg.piece_size ? in->cfg.piece_size
			 : pft_par_piece_size(in->cfg.threads, in->reading == READ_COUNTS,
					      fold && !fold->ops->keeps_size);
	if (frames)   /* whole frames */
		piece = piece < 16 ? 16 : piece & ~15u;
	struct par_config pc = { .path = f->path, .length = (uint64_t)st.st_size,
				 .protocol = s->pub.protocol,
				 .proto_cfg = s->pub.protocol == PFT_PROTO_ETMV3
						? (const void *)&s->cfg3 : (const void *)&s->pub.cfg,
				 .cfg = s->pub.cfg, .image = s->pub.image,
				 .packets = in->cfg.packets, .elements = in->cfg.elements,
				 .fit_check = in->cfg.fit_check, .runs = in->cfg.runs,
				 .count_only = in->reading == READ_COUNTS,
				 .feed_block = READ_BLOCK,
				 .progress = in->progress ? report_progress : NULL,
				 .progress_ctx = in,
				 .threads = in->cfg.threads, .piece_size = piece,
				 .absorb_unbegun = !in->cfg.piece_size,
				 .fold = fold,
				 .frames = (uint8_t)frames, .trace_id = (uint8_t)s->pub.id };
	int err = pft_par_alloc(&pc, &in->par);
	if (err < 0)
		return pft_diag_file(&in->error, err, f->path,
				     "cannot start the parallel decode: %s",
				     pft_errstr(pft_errcode(err)));
	if (!in->par)   /* its other reasons were checked above */
		in->serial = PFT_SERIAL_SMALL;
	return 0;
}

static int next_parallel(struct pft_input *in, struct pft_item *item, size_t size)
{
	int r = pft_par_next(in->par, item, size);

	if (r == 0) {
		item->source = (uint16_t)in->files[0].map[0];
		return 0;
	}
	if (r == -PFT_ERR_EOS)
		return r;
	if (pft_par_error(in->par)->code) {
		in->error = *pft_par_error(in->par);
		return r;
	}
	return pft_diag_file(&in->error, r, in->files[0].path, "%s", pft_errstr(pft_errcode(r)));
}

int pft_input_progress(const struct pft_input *in, uint64_t *done, uint64_t *total)
{
	if (!in || !done || !total)
		return -PFT_ERR_INVALID;
	*done = *total = 0;
	if (in->survey)
		return 0;
	if (in->perf) {
		pft_perf_in_progress(in->perf, done, total);
		return 0;
	}
	for (size_t i = 0; i < in->nfiles; i++) {
		const struct in_file *f = &in->files[i];

		if (!f->nmap)   /* nothing decoded in it: not read */
			continue;
		if (!f->size) {   /* a pipe: the total is not known */
			*done = *total = 0;
			return 0;
		}
		*total += f->size;
		/* The pipeline's offset: what was decoded, not the block read
		 * ahead of it. */
		uint64_t at = in->par && i == 0 ? pft_par_position(in->par)
			      : f->done ? f->size
			      : f->pipe ? pft_pipe_get_offset(f->pipe) : f->read;
		*done += at < f->size ? at : f->size;
	}
	return 0;
}

int pft_input_set_progress(struct pft_input *in,
			   void (*fn)(void *ctx, uint64_t done, uint64_t total), void *ctx)
{
	if (!in)
		return -PFT_ERR_INVALID;
	in->progress = fn;
	in->progress_ctx = ctx;
	return 0;
}

/* Tell the progress callback how far reading has got. */
static void report_progress(void *ctx)
{
	struct pft_input *in = ctx;
	uint64_t done, total;

	if (in->progress && !pft_input_progress(in, &done, &total))
		in->progress(in->progress_ctx, done, total);
}

int pft_input_parallel_stats(const struct pft_input *in, struct pft_input_parallel *st,
			     size_t size)
{
	struct pft_input_parallel all = { 0 };

	if (!in || !st || size < offsetof(struct pft_input_parallel, folded))
		return -PFT_ERR_INVALID;
	if (in->par)
		pft_par_counts(in->par, &all);
	else
		all.serial = in->serial;
	pft_copy_known(st, &all, size, sizeof(all));
	return 0;
}

/* The next item of file @f (its sources' input indices): 0, -PFT_ERR_EOS
 * once it is read to its end, or an error. */
static int file_next(struct pft_input *in, struct in_file *f, struct pft_item *item, size_t size)
{
	for (;;) {
		if (!f->nmap || f->done)
			return -PFT_ERR_EOS;
		int r = pft_pipe_next(f->pipe, item, size);
		if (r == 0) {
			item->source = (uint16_t)f->map[item->source];
			return 0;
		}
		if (r == -PFT_ERR_EOS) {
			if (f->fd > 0)
				close(f->fd);
			f->fd = -1;
			f->done = 1;
			return r;
		}
		if (r != -PFT_ERR_NEED_INPUT)
			return pft_diag_offset(&in->error, r, f->path, pft_pipe_get_offset(f->pipe),
					       "%s", pft_errstr(pft_errcode(r)));
		if ((r = read_more(in, f)) < 0)
			return r;
	}
}

/* The next item from wherever the input's items come from. */
static int next_item(struct pft_input *in, struct pft_item *item, size_t size)
{
	int err;

	if (in->perf && in->survey) {   /* read through: no items */
		while ((err = pft_perf_in_next(in->perf, item, size)) == 0)
			;
		return err;
	}
	if (in->perf) {
		if (!in->par_tried)
			start_parallel(in);   /* says why not */
		return pft_perf_in_next(in->perf, item, size);
	}
	if (in->survey && in->nuimg && !in->survey_img) {
		/* The user's images: detection then tells the flow options
		 * too, as a decode's does. */
		if (!(in->survey_img = pft_image_alloc(&err)))
			return pft_diag_set(&in->error, err, "out of memory");
		if ((err = load_user_images(in, in->survey_img, 0)) < 0)
			return err;
		pft_survey_set_image(in->survey, in->survey_img);
	}
	if (in->survey)
		return pft_survey_read(in->survey, in->buf, READ_BLOCK, &in->error);
	if (!in->par_tried && (err = start_parallel(in)) < 0)
		return err;
	if (in->par)
		return next_parallel(in, item, size);
	while (in->cur < in->nfiles) {
		int r = file_next(in, &in->files[in->cur], item, size);
		if (r != -PFT_ERR_EOS)
			return r;
		in->cur++;
	}
	return -PFT_ERR_EOS;
}

/* ---- The sources on one time base (cfg.merge) ---- */

/* The merge, with every source of the input (those not decoded have
 * ended already). */
static int start_merge(struct pft_input *in)
{
	struct pft_merge_config mc = { .size = sizeof(mc), .window = in->cfg.merge_window,
				       .order = in->cfg.merge == PFT_INPUT_MERGE_ORDER,
				       .packets = !in->cfg.elements };
	int err, timed = 0;

	for (size_t i = 0; i < pft_input_nsources(in); i++) {
		struct pft_input_source src;
		pft_input_source(in, i, &src, sizeof(src));
		timed |= src.decoded && src.timestamps;
	}
	/* Times only, and none to be had: the items as they are (in runs). */
	in->merge_none = !timed && in->cfg.merge == PFT_INPUT_MERGE_TIMES;
	if (in->merge_none)
		return 0;
	/* Several files are read side by side: each needs its own block. */
	size_t decoding = 0;
	for (size_t i = 0; i < in->nfiles; i++)
		decoding += in->files[i].nmap != 0;
	for (size_t i = 0; decoding > 1 && i < in->nfiles; i++)
		if (in->files[i].nmap && !(in->files[i].buf = malloc(READ_BLOCK)))
			return pft_diag_set(&in->error, -PFT_ERR_NOMEM, "out of memory");
	if (!(in->merge = pft_merge_alloc(&mc, &err)))
		return pft_diag_set(&in->error, err, "%s", pft_errstr(pft_errcode(err)));
	for (size_t i = 0; i < pft_input_nsources(in); i++) {
		struct pft_input_source src;
		pft_input_source(in, i, &src, sizeof(src));
		struct pft_merge_source ms = {
			.size = sizeof(ms), .timestamps = src.timestamps,
			.interpolate = src.cycle_accurate,
			.key = src.cpu >= 0 ? (uint32_t)src.cpu
			       : src.id >= 0 ? (uint32_t)src.id : src.cfg.trace_id
		};
		if ((err = pft_merge_add_source(in->merge, &ms)) < 0)
			return pft_diag_set(&in->error, err, "%s", pft_errstr(pft_errcode(err)));
		if (!src.decoded)
			pft_merge_end(in->merge, (unsigned)i);
	}
	return 0;
}

/* The next item for the merge, from the stream that holds source @want
 * (-1: any): 0, 1 when a stream ended instead (its sources have ended in
 * the merge), -PFT_ERR_EOS when every stream is read, or an error. */
static int merge_pull(struct pft_input *in, int want, struct pft_item *item)
{
	int r;

	if (!in->par_tried && (r = start_parallel(in)) < 0)
		return r;
	if (in->perf || in->par) {   /* one stream: perf.data's CPUs, or the pieces */
		r = in->perf ? pft_perf_in_next(in->perf, item, sizeof(*item))
			     : next_parallel(in, item, sizeof(*item));
		if (r != -PFT_ERR_EOS)
			return r;
		for (size_t i = 0; i < pft_input_nsources(in); i++)
			pft_merge_end(in->merge, (unsigned)i);
		return -PFT_ERR_EOS;
	}
	/* Files side by side: the wanted source's, else the first not read. */
	size_t fi = in->nfiles;
	if (want >= 0 && (size_t)want < in->nsrc && in->src[want].pipe_index >= 0 &&
	    !in->files[in->src[want].file].done)
		fi = in->src[want].file;
	for (size_t i = 0; i < in->nfiles && fi == in->nfiles; i++)
		if (in->files[i].nmap && !in->files[i].done)
			fi = i;
	if (fi == in->nfiles)
		return -PFT_ERR_EOS;
	struct in_file *f = &in->files[fi];
	r = file_next(in, f, item, sizeof(*item));
	if (r != -PFT_ERR_EOS)
		return r;
	for (size_t k = 0; k < f->nmap; k++)
		pft_merge_end(in->merge, (unsigned)f->map[k]);
	return 1;
}

/* The next item on the common time base. */
static int next_merged(struct pft_input *in, struct pft_item *item, size_t size)
{
	struct pft_item got;
	int r;

	if (!in->merge && !in->merge_none && (r = start_merge(in)) < 0)
		return r;
	if (in->merge_none)
		return next_item(in, item, size);
	for (;;) {
		r = pft_merge_next(in->merge, item, size);
		if (r != -PFT_ERR_NEED_INPUT)
			return r;
		if (in->merged == in->merging.count) {
			r = merge_pull(in, pft_merge_wanted(in->merge), &got);
			if (r == -PFT_ERR_EOS) {
				pft_merge_finish(in->merge);
				continue;
			}
			if (r < 0)
				return r;
			if (r > 0)    /* a file ended: nothing pulled */
				continue;
			in->merging = got;
			in->merged = 0;
			if (got.type == PFT_ITEM_GAP)
				in->merging.count = 1;   /* goes in as one */
		}
		/* The item pulled last, up to where the window fills. */
		if ((r = pft_merge_put_until_full(in->merge, &in->merging, in->merged)) < 0)
			return pft_diag_set(&in->error, r, "%s", pft_errstr(pft_errcode(r)));
		in->merged += (uint32_t)r;
	}
}

int pft_input_set_fold(struct pft_input *in, const struct pft_fold *fold)
{
	if (!in || in->par_tried || in->reading)
		return -PFT_ERR_INVALID;
	in->fold = fold;
	return 0;
}

int pft_input_next(struct pft_input *in, struct pft_item *item, size_t size)
{
	if (!in || !item || size < PFT_ITEM_SIZE_0_5 || in->reading == READ_COUNTS)
		return -PFT_ERR_INVALID;
	if (size < sizeof(*item)) {   /* a caller built against 0.5 */
		struct pft_item whole;
		int r = pft_input_next(in, &whole, sizeof(whole));
		if (r == 0)
			memcpy(item, &whole, size);
		return r;
	}
	in->reading = READ_ITEMS;
	if (in->cfg.merge && !in->survey)
		return next_merged(in, item, size);
	return next_item(in, item, size);
}

_Static_assert((int)PFT_PTM_PKT_TYPE_MAX <= (int)PFT_INPUT_COUNT_TYPES &&
	       (int)PFT_ETM3_PKT_TYPE_MAX <= (int)PFT_INPUT_COUNT_TYPES &&
	       (int)PFT_ELEM_TYPE_MAX <= (int)PFT_INPUT_COUNT_TYPES, "count tables too small");

/* Count @item into @c (the serial decode's items). */
static void count_item(struct pft_input_counts *c, const struct pft_item *item)
{
	if (item->type == PFT_ITEM_PACKET) {
		const struct pft_proto *pr = pft_proto_of(item->protocol);
		const void *pkt = item->etm3 ? (const void *)item->etm3 : (const void *)item->ptm;
		if (pr)
			pr->count_packets(c, pkt, item->count);
	}
	else if (item->type == PFT_ITEM_ELEM)
		ptm_count_elems(c, item->elem, item->count);
}

int pft_input_count(struct pft_input *in, struct pft_item *item, size_t size)
{
	if (!in || !item || size < PFT_ITEM_SIZE_0_5 || in->reading == READ_ITEMS)
		return -PFT_ERR_INVALID;
	if (size < sizeof(*item)) {   /* a caller built against 0.5 */
		struct pft_item whole;
		int r = pft_input_count(in, &whole, sizeof(whole));
		if (r == 0)
			memcpy(item, &whole, size);
		return r;
	}
	if (in->survey) {   /* nothing to count: the sources' bytes */
		in->reading = READ_COUNTS;
		return next_item(in, item, size);
	}
	if (!in->reading) {
		size_t n = pft_input_nsources(in);
		if (!(in->counts = calloc(n ? n : 1, sizeof(*in->counts))))
			return -PFT_ERR_NOMEM;
		for (size_t i = 0; i < in->nsrc && !in->perf; i++)
			if (in->src[i].pipe_index >= 0)
				pft_pipe_count_into(in->files[in->src[i].file].pipe,
						    (unsigned)in->src[i].pipe_index, &in->counts[i]);
		in->reading = READ_COUNTS;
	}
	for (;;) {
		int r = next_item(in, item, size);
		if (r)
			return r;
		/* The parallel decode counted its items, and returns the BAD
		 * packets only. */
		if (in->par)
			return 0;
		count_item(&in->counts[item->source], item);
		if (item->status)
			return 0;
		if (in->perf && !(++in->counted % 4096))
			report_progress(in);
	}
}

int pft_input_counts(const struct pft_input *in, size_t index, struct pft_input_counts *c,
		     size_t size)
{
	struct pft_input_source src;
	struct pft_input_counts all = { 0 };

	if (!in || !c || size < offsetof(struct pft_input_counts, first_error_offset) ||
	    pft_input_source(in, index, &src, sizeof(src)))
		return -PFT_ERR_INVALID;
	if (in->par && src.decoded)
		pft_par_total(in->par, &all);
	else if (in->counts)
		all = in->counts[index];
	all.bytes = src.stats.bytes;
	all.errors = src.stats.errors;
	pft_copy_known(c, &all, size, sizeof(all));
	return 0;
}

int pft_input_merge_stats(const struct pft_input *in, size_t index, struct pft_merge_stats *st,
			  size_t size)
{
	if (!in || !in->merge || index > UINT32_MAX)
		return -PFT_ERR_INVALID;
	return pft_merge_stats(in->merge, (unsigned)index, st, size);
}

int pft_input_diag(const struct pft_input *in, size_t index, struct pft_diag *d)
{
	if (!in || !d)
		return -PFT_ERR_INVALID;
	if (index < in->nnotes) {
		*d = in->notes[index];
		return 0;
	}
	const struct pft_diag *error = in->perf && pft_perf_in_error(in->perf)->code
					       ? pft_perf_in_error(in->perf) : &in->error;
	if (index > in->nnotes || !error->code)
		return -PFT_ERR_EOS;
	*d = *error;
	return 0;
}

size_t pft_input_nsources(const struct pft_input *in)
{
	if (in && in->perf)
		return pft_perf_in_nsources(in->perf);
	if (in && in->survey)
		return pft_survey_nsources(in->survey);
	return in ? in->nsrc : 0;
}

int pft_input_source(const struct pft_input *in, size_t index, struct pft_input_source *src,
		     size_t size)
{
	if (src && size >= PFT_INPUT_SOURCE_SIZE_0_5 && size < sizeof(*src)) {
		/* A caller built against 0.5: the fields it knows. */
		struct pft_input_source whole;
		int r = pft_input_source(in, index, &whole, sizeof(whole));
		if (r == 0)
			memcpy(src, &whole, size);
		return r;
	}
	if (in && in->perf)
		return pft_perf_in_source(in->perf, index, src, size);
	if (in && in->survey)
		return pft_survey_source(in->survey, index, src, size);
	if (!in || !src || size < sizeof(*src) || index >= in->nsrc)
		return -PFT_ERR_INVALID;
	const struct in_source *s = &in->src[index];
	const struct in_file *f = &in->files[s->file];

	memset(src, 0, size);
	*src = s->pub;
	src->name = s->name;
	src->path = f->path;
	if (s->pipe_index >= 0 && in->par)
		pft_par_source_stats(in->par, &src->stats);
	else if (s->pipe_index >= 0)
		pft_pipe_source_stats(f->pipe, (unsigned)s->pipe_index, &src->stats,
				      sizeof(src->stats));
	else if (in->par)
		src->stats.bytes = pft_par_id_bytes(in->par, s->pub.id >= 0 ? (unsigned)s->pub.id : 0);
	else
		src->stats.bytes = pft_pipe_id_bytes(f->pipe, s->pub.id >= 0 ? (unsigned)s->pub.id : 0);
	return 0;
}
