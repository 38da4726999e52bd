/*
 * OpenCSD snapshot directories: a bounded INI reader and the snapshot
 * model (devices, registers, memory dumps, buffers, which source writes to
 * which buffer and traces which core).
 *
 * Snapshots come from colleagues and bug reports, so every file is read
 * as hostile: only regular files inside the directory, each .ini read in
 * one piece of at most PFT_SNAP_INI_MAX bytes and parsed in place, and
 * every look-up by name done through a sorted index, so that the cost is
 * linear (times a logarithm) in the size of the files.
 */
/* realpath() is XSI. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pft.h"
#include "common/pft_diag.h"

/* ---- Messages ---- */

static int diag_where(struct pft_diag *d, int err, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* A diagnostic about @where, "FILE:LINE" as a file that names another
 * keeps it (a dump's where, the file naming a buffer or device). */
static int diag_where(struct pft_diag *d, int err, const char *where, const char *fmt, ...)
{
	char file[PFT_DIAG_FILE_MAX];
	const char *colon = where ? strrchr(where, ':') : NULL;

	if (!where)
		where = "";
	unsigned line = colon ? (unsigned)strtoul(colon + 1, NULL, 10) : 0;
	va_list ap;

	snprintf(file, sizeof(file), "%.*s", colon ? (int)(colon - where) : (int)strlen(where),
		 where);
	va_start(ap, fmt);
	pft_diag_vat(d, err, file, line, PFT_DIAG_NO_OFFSET, fmt, ap);
	va_end(ap);
	return err;
}

/* ---- Strings owned by the snapshot: one arena of blocks ---- */

struct strblock {
	struct strblock *next;
	char data[];
};

static char *keep(struct strblock **arena, const char *s)
{
	size_t n = strlen(s) + 1;
	struct strblock *b = malloc(sizeof(*b) + n);

	if (!b)
		return NULL;
	memcpy(b->data, s, n);
	b->next = *arena;
	*arena = b;
	return b->data;
}

/* ---- Files ---- */

/* Open @path for reading only if it is a regular file: opening a FIFO
 * without O_NONBLOCK would wait for a writer forever. */
static int open_regular(const char *path, struct stat *st, struct pft_diag *d)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		pft_diag_file(d, -PFT_ERR_BAD_FILE, path, "%s", strerror(errno));
		return -1;
	}
	if (fstat(fd, st) || !S_ISREG(st->st_mode)) {
		pft_diag_file(d, -PFT_ERR_BAD_FILE, path, "not a regular file");
		close(fd);
		return -1;
	}
	return fd;
}

/* ---- INI files ---- */

struct ini_entry {
	const char *key, *value;
	unsigned line;
};

struct ini_section {
	const char *name;
	unsigned line;
	size_t first, count;      /* its entries */
};

struct ini {
	const char *path;
	char *text;               /* the file, parsed in place */
	struct ini_entry *e;
	size_t n;
	struct ini_section *sec;
	size_t nsec;
	struct ini_section *sorted; /* the sections, sorted by name then line */
};

static void ini_free(struct ini *ini)
{
	free(ini->text);
	free(ini->e);
	free(ini->sec);
	free(ini->sorted);
	memset(ini, 0, sizeof(*ini));
}

/* The end of reading .ini file @path, with @err: free @ini, say when
 * memory ran out (other errors said why already).  Returns @err. */
static int ini_done(struct ini *ini, int err, const char *path, struct pft_diag *d)
{
	if (err == -PFT_ERR_NOMEM)
		pft_diag_file(d, err, path, "out of memory");
	ini_free(ini);
	return err;
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = 0;
	/* File names may be quoted. */
	if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
		s[n - 1] = 0;
		s++;
	}
	return s;
}

static int by_section_name(const void *a, const void *b)
{
	const struct ini_section *x = a, *y = b;
	int c = strcasecmp(x->name, y->name);

	return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* Read @path whole and split it into sections and key=value entries. */
static int ini_read(const char *path, struct ini *ini, struct pft_diag *d)
{
	struct stat st;
	int fd;
	size_t size, lines = 1;

	memset(ini, 0, sizeof(*ini));
	ini->path = path;
	if ((fd = open_regular(path, &st, d)) < 0)
		return -PFT_ERR_BAD_FILE;
	if (st.st_size > PFT_SNAP_INI_MAX) {
		pft_diag_file(d, -PFT_ERR_BAD_FILE, path,
			      "%lld bytes: larger than an .ini file may be (%d)",
			      (long long)st.st_size, PFT_SNAP_INI_MAX);
		close(fd);
		return -PFT_ERR_BAD_FILE;
	}
	size = (size_t)st.st_size;
	ini->text = malloc(size + 1);
	if (!ini->text) {
		close(fd);
		return -PFT_ERR_NOMEM;
	}
	size_t got = 0;
	while (got < size) {
		ssize_t r = read(fd, ini->text + got, size - got);
		if (r <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			break;
		}
		got += (size_t)r;
	}
	close(fd);
	if (got != size) {
		return pft_diag_file(d, -PFT_ERR_BAD_FILE, path, "read error");
	}
	ini->text[size] = 0;
	for (size_t i = 0; i < size; i++) {
		if (ini->text[i] == '\n')
			lines++;
		else if (!ini->text[i]) {
			return pft_diag_line(d, -PFT_ERR_BAD_FILE, path, lines,
					     "a NUL byte: not a text file");
		}
	}
	/* Every line is at most one entry or section. */
	ini->e = malloc(lines * sizeof(*ini->e));
	ini->sec = malloc(lines * sizeof(*ini->sec));
	if (!ini->e || !ini->sec)
		return -PFT_ERR_NOMEM;

	char *line = ini->text;
	for (unsigned lineno = 1; line; lineno++) {
		char *next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		/* Comments start with ';' or '#'. */
		line[strcspn(line, ";#")] = 0;
		char *s = trim(line);
		line = next;
		if (!*s)
			continue;
		if (*s == '[') {
			char *close = strchr(s, ']');
			if (!close || close == s + 1) {
				return pft_diag_line(d, -PFT_ERR_BAD_FILE, path, lineno,
						     "malformed section header");
			}
			*close = 0;
			ini->sec[ini->nsec++] = (struct ini_section){ trim(s + 1), lineno, ini->n, 0 };
			continue;
		}
		char *eq = strchr(s, '=');
		if (!eq || !ini->nsec) {
			return pft_diag_line(d, -PFT_ERR_BAD_FILE, path, lineno,
					     "expected key=value%s",
					     ini->nsec ? "" : " inside a [section]");
		}
		*eq = 0;
		char *key = trim(s), *value = trim(eq + 1);
		if (!*key) {
			return pft_diag_line(d, -PFT_ERR_BAD_FILE, path, lineno, "empty key");
		}
		ini->e[ini->n++] = (struct ini_entry){ key, value, lineno };
		ini->sec[ini->nsec - 1].count++;
	}
	ini->sorted = malloc((ini->nsec ? ini->nsec : 1) * sizeof(*ini->sorted));
	if (!ini->sorted)
		return -PFT_ERR_NOMEM;
	memcpy(ini->sorted, ini->sec, ini->nsec * sizeof(*ini->sec));
	qsort(ini->sorted, ini->nsec, sizeof(*ini->sorted), by_section_name);
	return 0;
}

/* The position in ini->sorted of the first section named @name. */
static size_t ini_find(const struct ini *ini, const char *name)
{
	size_t lo = 0, hi = ini->nsec;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcasecmp(ini->sorted[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Key @key in section record @sec. */
static const struct ini_entry *sec_get(const struct ini *ini, const struct ini_section *sec,
				       const char *key)
{
	for (size_t i = sec->first; i < sec->first + sec->count; i++)
		if (!strcasecmp(ini->e[i].key, key))
			return &ini->e[i];
	return NULL;
}

/* Key @key in the sections named @section, searched in file order. */
static const struct ini_entry *ini_get(const struct ini *ini, const char *section,
				       const char *key)
{
	for (size_t k = ini_find(ini, section);
	     k < ini->nsec && !strcasecmp(ini->sorted[k].name, section); k++) {
		const struct ini_entry *e = sec_get(ini, &ini->sorted[k], key);
		if (e)
			return e;
	}
	return NULL;
}

static int parse_number(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

/* ---- The snapshot ---- */

struct dev_name {
	const char *name;
	size_t index;
};

struct snap {
	struct pft_snapshot pub;          /* first: the public view */
	struct pft_snap_device *devs;
	struct pft_snap_buffer *bufs;
	struct dev_name *dev_order;       /* device names, sorted */
	char *rdir;                       /* the directory, resolved */
	unsigned flags;
	struct strblock *arena;
};

/* Join @name to the snapshot directory and check where it leads. */
static const char *resolve(struct snap *s, const char *name, const char *where,
			   struct pft_diag *d)
{
	size_t n = strlen(s->pub.dir) + strlen(name) + 2;
	char *joined = malloc(n), *real;
	const char *kept = NULL;

	if (!joined)
		return NULL;
	if (name[0] == '/')
		snprintf(joined, n, "%s", name);
	else
		snprintf(joined, n, "%s/%s", s->pub.dir, name);
	if (!(s->flags & PFT_SNAP_ALLOW_OUTSIDE)) {
		real = realpath(joined, NULL);
		size_t dl = strlen(s->rdir);
		if (!real) {
			pft_diag_file(d, -PFT_ERR_BAD_FILE, joined, "%s%s%s%s", strerror(errno),
				      where ? " (named at " : "", where ? where : "",
				      where ? ")" : "");
			free(joined);
			return NULL;
		}
		if (name[0] == '/' || strncmp(real, s->rdir, dl) ||
		    (real[dl] != '/' && !(dl == 1 && s->rdir[0] == '/'))) {
			/* Named by another file at @where, or (snapshot.ini)
			 * by the directory itself. */
			if (where)
				diag_where(d, -PFT_ERR_BAD_FILE, where,
					   "'%s' is outside the snapshot directory "
					   "(--allow-outside-files reads it)", name);
			else
				pft_diag_file(d, -PFT_ERR_BAD_FILE, joined,
					      "it leads outside the snapshot directory, to %s "
					      "(--allow-outside-files reads it)", real);
			free(real);
			free(joined);
			return NULL;
		}
		free(real);
	}
	kept = keep(&s->arena, joined);
	free(joined);
	if (!kept)
		pft_diag_set(d, -PFT_ERR_NOMEM, "out of memory");
	return kept;
}

/* A file a snapshot names as a buffer or dump: inside, and regular. */
static const char *resolve_data(struct snap *s, const char *name, const char *where,
				struct pft_diag *d)
{
	const char *path = resolve(s, name, where, d);
	struct stat st;

	if (!path)
		return NULL;
	if (stat(path, &st)) {
		pft_diag_file(d, -PFT_ERR_BAD_FILE, path, "%s (named at %s)", strerror(errno),
			      where);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		pft_diag_file(d, -PFT_ERR_BAD_FILE, path, "not a regular file (named at %s)",
			      where);
		return NULL;
	}
	return path;
}

static enum pft_mem_space space_of(const char *s)
{
	static const char *const secure[] = { "S", "EL1S", "EL2S", "EL3" };
	static const char *const nonsecure[] = { "N", "EL1N", "EL2", "EL2N" };

	for (size_t i = 0; i < sizeof(secure) / sizeof(secure[0]); i++)
		if (!strcasecmp(s, secure[i]))
			return PFT_SPACE_SECURE;
	for (size_t i = 0; i < sizeof(nonsecure) / sizeof(nonsecure[0]); i++)
		if (!strcasecmp(s, nonsecure[i]))
			return PFT_SPACE_NONSECURE;
	return PFT_SPACE_ANY;
}

static uint8_t protocol_of(const char *cls, const char *type)
{
	if (strcasecmp(cls, "trace_source"))
		return PFT_PROTO_UNKNOWN;
	if (!strncasecmp(type, "PTM", 3) || !strncasecmp(type, "PFT", 3))
		return PFT_PROTO_PTM;
	if (!strncasecmp(type, "ETM3", 4) || !strncasecmp(type, "ETMv3", 5))
		return PFT_PROTO_ETMV3;
	if (!strncasecmp(type, "ETM4", 4) || !strncasecmp(type, "ETMv4", 5) ||
	    !strncasecmp(type, "ETE", 3))
		return PFT_PROTO_ETMV4;
	if (!strncasecmp(type, "STM", 3))
		return PFT_PROTO_STM;
	if (!strncasecmp(type, "ITM", 3))
		return PFT_PROTO_ITM;
	return PFT_PROTO_UNKNOWN;
}

/* 1 when section @sec is [@name] (@whole) or [@nameN...] (its name starts
 * with @name), case ignored. */
static int section_is(const struct ini_section *sec, const char *name, int whole)
{
	return whole ? !strcasecmp(sec->name, name) : !strncasecmp(sec->name, name, strlen(name));
}

/* The [@name...] sections of an .ini file (section_is()), in order, and
 * room for one item per section (@whole: per entry of each section). */
struct sections {
	const struct ini *ini;
	const char *name;
	int whole;
	size_t next;
	void *items;            /* zeroed; NULL when there are none */
};

/* Returns 0 or -PFT_ERR_NOMEM. */
static int sections_open(struct sections *it, const struct ini *ini, const char *name, int whole,
			 size_t item_size)
{
	size_t n = 0;

	for (size_t i = 0; i < ini->nsec; i++)
		if (section_is(&ini->sec[i], name, whole))
			n += whole ? ini->sec[i].count : 1;
	*it = (struct sections){ .ini = ini, .name = name, .whole = whole };
	it->items = n ? calloc(n, item_size) : NULL;
	return n && !it->items ? -PFT_ERR_NOMEM : 0;
}

/* The next section; NULL when none is left. */
static const struct ini_section *sections_next(struct sections *it)
{
	while (it->next < it->ini->nsec) {
		const struct ini_section *sec = &it->ini->sec[it->next++];
		if (section_is(sec, it->name, it->whole))
			return sec;
	}
	return NULL;
}

/* The [dump], [dump1], ... sections of a core device file, into @it's items. */
static int load_dumps(struct snap *s, struct pft_snap_device *dev, struct sections *it,
		      struct pft_diag *diag)
{
	const struct ini *ini = it->ini;
	struct pft_snap_dump *dumps = it->items;
	const struct ini_section *sec;
	char where[PATH_MAX + 32];

	while ((sec = sections_next(it)) != NULL) {
		struct pft_snap_dump *d = &dumps[dev->ndumps++];
		const struct ini_entry *file = sec_get(ini, sec, "file");
		const struct ini_entry *addr = sec_get(ini, sec, "address");
		const struct ini_entry *length = sec_get(ini, sec, "length");
		const struct ini_entry *off = sec_get(ini, sec, "offset");
		const struct ini_entry *space = sec_get(ini, sec, "space");

		snprintf(where, sizeof(where), "%s:%u", ini->path, sec->line);
		if (!file) {
			return pft_diag_line(diag, -PFT_ERR_BAD_FILE, ini->path, sec->line,
					     "[%s] needs file=", sec->name);
		}
		if (!addr || parse_number(addr->value, &d->address) || d->address > UINT32_MAX) {
			return pft_diag_line(diag, -PFT_ERR_BAD_FILE, ini->path, sec->line,
					     "[%s] needs address=<number> (32-bit)", sec->name);
		}
		if (length && parse_number(length->value, &d->length)) {
			return pft_diag_line(diag, -PFT_ERR_BAD_FILE, ini->path, length->line,
					     "bad length '%s'", length->value);
		}
		if (length && (!d->length || d->length > (uint64_t)UINT32_MAX + 1 - d->address)) {
			return pft_diag_line(diag, -PFT_ERR_BAD_FILE, ini->path, length->line,
					     "length 0x%llx at 0x%llx: %s",
					     (unsigned long long)d->length,
					     (unsigned long long)d->address,
					     d->length ? "passes 0xffffffff" : "empty");
		}
		if (off && parse_number(off->value, &d->offset)) {
			return pft_diag_line(diag, -PFT_ERR_BAD_FILE, ini->path, off->line,
					     "bad offset '%s'", off->value);
		}
		d->space_name = keep(&s->arena, space ? space->value : "ANY");
		d->space = space_of(d->space_name);
		d->where = keep(&s->arena, where);
		if (!d->space_name || !d->where)
			return -PFT_ERR_NOMEM;
		d->path = resolve_data(s, file->value, where, diag);
		if (!d->path)
			return -PFT_ERR_BAD_FILE;
	}
	return 0;
}

/* The [regs] section of a device file, into @it's items. */
static int load_regs(struct snap *s, struct pft_snap_device *dev, struct sections *it,
		     struct pft_diag *d)
{
	const struct ini *ini = it->ini;
	struct pft_snap_reg *regs = it->items;
	const struct ini_section *sec;

	while ((sec = sections_next(it)) != NULL) {
		for (size_t j = sec->first; j < sec->first + sec->count; j++) {
			const struct ini_entry *e = &ini->e[j];
			struct pft_snap_reg *r = &regs[dev->nregs++];
			char name[128];

			if (parse_number(e->value, &r->value)) {
				return pft_diag_line(d, -PFT_ERR_BAD_FILE, ini->path, e->line,
						     "register %s: bad value '%s'", e->key,
						     e->value);
			}
			/* "ETMCR(0x000)": the name is the part before '('. */
			snprintf(name, sizeof(name), "%.*s", (int)strcspn(e->key, "("), e->key);
			r->name = keep(&s->arena, trim(name));
			if (!r->name)
				return -PFT_ERR_NOMEM;
		}
	}
	return 0;
}

/* Read the .ini file the snapshot names @name (at @where) into *@ini,
 * its path in *@path.  Returns 0 or -PFT_ERR_BAD_FILE (*@ini is then
 * empty). */
static int ini_open(struct snap *s, const char *name, const char *where, struct ini *ini,
		    const char **path, struct pft_diag *d)
{
	int err;

	memset(ini, 0, sizeof(*ini));
	if (!(*path = resolve(s, name, where, d)))
		return -PFT_ERR_BAD_FILE;
	if ((err = ini_read(*path, ini, d)) < 0)
		ini_free(ini);
	return err;
}

static int load_device(struct snap *s, struct pft_snap_device *dev, const char *file,
		       const char *where, struct pft_diag *d)
{
	struct ini ini;
	const char *path;
	int err = ini_open(s, file, where, &ini, &path, d);

	if (err < 0)
		return err;
	const struct ini_entry *name = ini_get(&ini, "device", "name");
	const struct ini_entry *cls = ini_get(&ini, "device", "class");
	const struct ini_entry *type = ini_get(&ini, "device", "type");
	if (!name || !cls || !type) {
		pft_diag_file(d, -PFT_ERR_BAD_FILE, path, "[device] needs name, class and type");
		err = -PFT_ERR_BAD_FILE;
		goto out;
	}
	dev->file = path;
	dev->name = keep(&s->arena, name->value);
	dev->cls = keep(&s->arena, cls->value);
	dev->type = keep(&s->arena, type->value);
	dev->buffer = dev->core = -1;
	err = -PFT_ERR_NOMEM;
	if (!dev->name || !dev->cls || !dev->type)
		goto out;
	dev->protocol = protocol_of(dev->cls, dev->type);
	struct sections regs, dumps;
	if ((err = sections_open(&regs, &ini, "regs", 1, sizeof(*dev->regs))) < 0)
		goto out;
	dev->regs = regs.items;
	if ((err = sections_open(&dumps, &ini, "dump", 0, sizeof(*dev->dumps))) < 0)
		goto out;
	dev->dumps = dumps.items;
	err = load_regs(s, dev, &regs, d);
	if (!err)
		err = load_dumps(s, dev, &dumps, d);
out:
	return ini_done(&ini, err, path, d);
}

static int by_device_name(const void *a, const void *b)
{
	return strcmp(((const struct dev_name *)a)->name, ((const struct dev_name *)b)->name);
}

static long device_index(const struct snap *s, const char *name)
{
	struct dev_name key = { name, 0 };
	const struct dev_name *d = bsearch(&key, s->dev_order, s->pub.ndevs,
					   sizeof(*d), by_device_name);

	return d ? (long)d->index : -1;
}

static int load_trace(struct snap *s, const char *file, struct pft_diag *d)
{
	struct ini ini;
	const char *path;
	int err = ini_open(s, file, "snapshot.ini [trace] metadata", &ini, &path, d);

	if (err < 0)
		return err;
	err = -PFT_ERR_BAD_FILE;
	const struct ini_entry *list = ini_get(&ini, "trace_buffers", "buffers");
	if (!list) {
		pft_diag_file(d, -PFT_ERR_BAD_FILE, path, "[trace_buffers] needs buffers=");
		goto out;
	}
	/* The rate of the timestamps, when the capture recorded it. */
	const struct ini_entry *freq = ini_get(&ini, "timestamp", "frequency");
	if (freq && (parse_number(freq->value, &s->pub.ts_frequency) || !s->pub.ts_frequency)) {
		pft_diag_line(d, -PFT_ERR_BAD_FILE, path, freq->line,
			      "[timestamp] frequency '%s' is not a frequency in Hz", freq->value);
		goto out;
	}
	size_t n = 1;
	for (const char *c = list->value; *c; c++)
		n += *c == ',';
	s->bufs = calloc(n, sizeof(*s->bufs));
	char *names = keep(&s->arena, list->value);
	err = -PFT_ERR_NOMEM;
	if (!s->bufs || !names)
		goto out;
	s->pub.bufs = s->bufs;
	err = -PFT_ERR_BAD_FILE;
	for (char *save = NULL, *tok = strtok_r(names, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		const char *sec = trim(tok);
		const struct ini_entry *name = ini_get(&ini, sec, "name");
		const struct ini_entry *bfile = ini_get(&ini, sec, "file");
		const struct ini_entry *fmt = ini_get(&ini, sec, "format");
		char where[PATH_MAX + 32];

		if (!name || !bfile) {
			pft_diag_file(d, -PFT_ERR_BAD_FILE, path,
				      "buffer section [%s] needs name and file", sec);
			goto out;
		}
		snprintf(where, sizeof(where), "%s:%u", path, name->line);
		struct pft_snap_buffer *b = &s->bufs[s->pub.nbufs];
		b->name = name->value;
		b->format = fmt ? fmt->value : "coresight";
		if (!strcasecmp(b->format, "source_data"))
			b->pipe_format = PFT_PIPE_RAW;
		else if (!strcasecmp(b->format, "coresight"))
			b->pipe_format = PFT_PIPE_FORMATTED;
		else if (!strcasecmp(b->format, "dstream_coresight"))
			b->pipe_format = PFT_PIPE_TPIU;
		else {
			pft_diag_line(d, -PFT_ERR_BAD_FILE, path, name->line,
				      "buffer %s: unknown format '%s'", b->name, b->format);
			goto out;
		}
		for (size_t i = 0; i < s->pub.nbufs; i++)
			if (!strcmp(s->bufs[i].name, b->name)) {
				pft_diag_line(d, -PFT_ERR_BAD_FILE, path, name->line,
					      "buffer %s is named twice", b->name);
				goto out;
			}
		b->name = keep(&s->arena, b->name);
		b->format = keep(&s->arena, b->format);
		if (!b->name || !b->format) {
			err = -PFT_ERR_NOMEM;
			goto out;
		}
		if (!(b->path = resolve_data(s, bfile->value, where, d)))
			goto out;
		for (size_t i = 0; i < s->pub.nbufs; i++)
			if (!strcmp(s->bufs[i].path, b->path) &&
			    s->bufs[i].pipe_format != b->pipe_format) {
				pft_diag_line(d, -PFT_ERR_BAD_FILE, path, name->line,
					      "buffers %s and %s read %s as %s and as %s",
					      s->bufs[i].name, b->name, b->path, s->bufs[i].format,
					      b->format);
				goto out;
			}
		s->pub.nbufs++;
	}
	/* Which buffer each source writes to, and which core it traces. */
	for (size_t i = 0; i < ini.nsec; i++) {
		const struct ini_section *sec = &ini.sec[i];
		int is_buf = !strcasecmp(sec->name, "source_buffers");
		if (!is_buf && strcasecmp(sec->name, "core_trace_sources"))
			continue;
		for (size_t j = sec->first; j < sec->first + sec->count; j++) {
			const struct ini_entry *e = &ini.e[j];
			long src = device_index(s, is_buf ? e->key : e->value);
			long other = is_buf ? -1 : device_index(s, e->key);
			/* Links to devices the snapshot does not describe are
			 * common (OpenCSD's own examples have them): they name
			 * nothing to decode. */
			if (src < 0 || (!is_buf && other < 0))
				continue;
			if (is_buf) {
				size_t b = 0;
				while (b < s->pub.nbufs && strcmp(s->bufs[b].name, e->value))
					b++;
				if (b == s->pub.nbufs) {
					pft_diag_line(d, -PFT_ERR_BAD_FILE, path, e->line,
						      "no buffer named '%s'", e->value);
					goto out;
				}
				s->devs[src].buffer = (int)b;
			} else {
				s->devs[src].core = (int)other;
			}
		}
	}
	err = 0;
out:
	return ini_done(&ini, err, path, d);
}

static int load(struct snap *s, struct pft_diag *d)
{
	struct ini ini;
	const char *path;
	int err = ini_open(s, "snapshot.ini", NULL, &ini, &path, d);

	if (err < 0)
		return err;
	err = -PFT_ERR_BAD_FILE;
	const struct ini_entry *ver = ini_get(&ini, "snapshot", "version");
	if (ver && strcmp(ver->value, "1.0") && strcmp(ver->value, "1")) {
		pft_diag_line(d, -PFT_ERR_BAD_FILE, path, ver->line,
			      "unsupported snapshot version '%s'", ver->value);
		goto out;
	}
	size_t n = 0;
	for (size_t i = 0; i < ini.nsec; i++)
		if (!strcasecmp(ini.sec[i].name, "device_list"))
			n += ini.sec[i].count;
	s->devs = calloc(n ? n : 1, sizeof(*s->devs));
	s->dev_order = calloc(n ? n : 1, sizeof(*s->dev_order));
	if (!s->devs || !s->dev_order) {
		err = -PFT_ERR_NOMEM;
		goto out;
	}
	s->pub.devs = s->devs;
	for (size_t i = 0; i < ini.nsec; i++) {
		const struct ini_section *sec = &ini.sec[i];
		if (strcasecmp(sec->name, "device_list"))
			continue;
		for (size_t j = sec->first; j < sec->first + sec->count; j++) {
			char where[PATH_MAX + 32];
			snprintf(where, sizeof(where), "%s:%u", path, ini.e[j].line);
			/* Counted before it is loaded, so that a failure's
			 * allocations are freed with the rest. */
			size_t k = s->pub.ndevs++;
			err = load_device(s, &s->devs[k], ini.e[j].value, where, d);
			if (err < 0)
				goto out;
			s->dev_order[k] = (struct dev_name){ s->devs[k].name, k };
		}
	}
	qsort(s->dev_order, s->pub.ndevs, sizeof(*s->dev_order), by_device_name);
	for (size_t i = 1; i < s->pub.ndevs; i++)
		if (!strcmp(s->dev_order[i].name, s->dev_order[i - 1].name)) {
			pft_diag_file(d, -PFT_ERR_BAD_FILE, path, "two devices are named '%s'",
				      s->dev_order[i].name);
			err = -PFT_ERR_BAD_FILE;
			goto out;
		}
	const struct ini_entry *meta = ini_get(&ini, "trace", "metadata");
	if (!meta) {
		pft_diag_file(d, -PFT_ERR_BAD_FILE, path, "[trace] needs metadata=<file>");
		err = -PFT_ERR_BAD_FILE;
		goto out;
	}
	err = load_trace(s, meta->value, d);
out:
	return ini_done(&ini, err, path, d);
}

int pft_snap_load(const char *dir, unsigned flags, struct pft_snapshot **out, struct pft_diag *d)
{
	struct snap *s;
	int err;

	if (out)
		*out = NULL;
	if (!dir || !out || (flags & ~(unsigned)PFT_SNAP_ALLOW_OUTSIDE)) {
		return pft_diag_set(d, -PFT_ERR_INVALID, "invalid argument");
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		return pft_diag_set(d, -PFT_ERR_NOMEM, "out of memory");
	}
	s->flags = flags;
	s->pub.dir = keep(&s->arena, dir);
	s->rdir = realpath(dir, NULL);
	if (!s->pub.dir || !s->rdir) {
		err = s->pub.dir ? -PFT_ERR_BAD_FILE : -PFT_ERR_NOMEM;
		pft_diag_file(d, err, dir, "%s", s->pub.dir ? strerror(errno) : "out of memory");
		pft_snap_free(&s->pub);
		return err;
	}
	err = load(s, d);
	if (err < 0) {
		pft_snap_free(&s->pub);
		return err;
	}
	*out = &s->pub;
	return 0;
}

void pft_snap_free(struct pft_snapshot *pub)
{
	struct snap *s = (struct snap *)pub;

	if (!s)
		return;
	for (size_t i = 0; i < s->pub.ndevs; i++) {
		free((void *)s->devs[i].regs);
		free((void *)s->devs[i].dumps);
	}
	free(s->devs);
	free(s->dev_order);
	free(s->bufs);
	free(s->rdir);
	while (s->arena) {
		struct strblock *b = s->arena;
		s->arena = b->next;
		free(b);
	}
	free(s);
}

int pft_snap_reg(const struct pft_snap_device *d, const char *name, uint64_t *value)
{
	if (!d || !name || !value)
		return -PFT_ERR_INVALID;
	for (size_t i = 0; i < d->nregs; i++)
		if (!strcasecmp(d->regs[i].name, name)) {
			*value = d->regs[i].value;
			return 0;
		}
	return -PFT_ERR_NOT_FOUND;
}

int pft_snap_ptm_config(const struct pft_snap_device *d, struct pft_ptm_config *cfg,
			struct pft_diag *diag)
{
	static const char *const names[4] = { "ETMCR", "ETMCCER", "ETMIDR", "ETMTRACEIDR" };
	uint64_t v[4];

	if (!d || !cfg)
		return -PFT_ERR_INVALID;
	for (int i = 0; i < 4; i++) {
		if (pft_snap_reg(d, names[i], &v[i])) {
			return pft_diag_file(diag, -PFT_ERR_BAD_CONFIG, d->file,
					     "PTM %s needs ETMCR, ETMCCER, ETMIDR and ETMTRACEIDR",
					     d->name);
		}
		if (v[i] > UINT32_MAX) {
			return pft_diag_file(diag, -PFT_ERR_BAD_CONFIG, d->file,
					     "%s of %s is 0x%llx: wider than 32 bits", names[i],
					     d->name, (unsigned long long)v[i]);
		}
	}
	unsigned id = (unsigned)v[3] & 0x7f;
	if (id == 0 || id > PFT_ID_MAX_VALID) {
		return pft_diag_file(diag, -PFT_ERR_BAD_CONFIG, d->file,
				     "ETMTRACEIDR of %s gives trace ID 0x%02x, which is "
				     "reserved (sources use 0x01-0x6f)", d->name, id);
	}
	pft_ptm_config_init(cfg);
	if (pft_ptm_config_from_regs(cfg, (uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2],
				 (uint32_t)v[3])) {
		return pft_diag_file(diag, -PFT_ERR_BAD_CONFIG, d->file,
				     "ETMIDR 0x%08llx of %s is not a PTM (architecture %llu, "
				     "not 3)", (unsigned long long)v[2], d->name,
				     (unsigned long long)((v[2] >> 8) & 0xf));
	}
	return 0;
}

int pft_snap_add_dumps(const struct pft_snapshot *s, const struct pft_snap_device *core,
		       struct pft_image *img, struct pft_diag *d)
{
	size_t first = 0;
	struct pft_image_section_info info;

	if (!s || !core || !img)
		return -PFT_ERR_INVALID;
	while (pft_image_section(img, first, &info, sizeof(info)) == 0)
		first++;
	for (size_t i = 0; i < core->ndumps; i++) {
		const struct pft_snap_dump *dump = &core->dumps[i];
		int err = pft_image_add_file(img, dump->path, dump->offset, dump->length,
					     (uint32_t)dump->address, dump->space);
		size_t idx;
		uint32_t addr;

		if (err >= 0)
			continue;
		if (err == -PFT_ERR_BAD_CONFIG && !pft_image_conflict(img, &idx, &addr) &&
		    !pft_image_section(img, idx, &info, sizeof(info))) {
			/* Name the file from the command line first: it is the
			 * one that does not fit the snapshot's memory. */
			if (idx < first)
				pft_diag_set(d, err, "%s overlaps %s (at 0x%08x)",
					     info.path ? info.path : "an image", dump->path, addr);
			else
				diag_where(d, err, dump->where, "dump %s overlaps %s at 0x%08x",
					   dump->path, info.path ? info.path : "another dump",
					   addr);
		} else if (err == -PFT_ERR_BAD_FILE) {
			diag_where(d, -PFT_ERR_BAD_FILE, dump->where,
				   "dump %s: cannot read %s%llu bytes from offset " "0x%llx",
				   dump->path, dump->length ? "" : "any ",
				   (unsigned long long)dump->length,
				   (unsigned long long)dump->offset);
		} else if (err == -PFT_ERR_INVALID) {
			err = -PFT_ERR_BAD_CONFIG;
			diag_where(d, err, dump->where, "dump %s at 0x%08llx passes 0xffffffff",
				   dump->path, (unsigned long long)dump->address);
		} else {
			diag_where(d, err, dump->where, "dump %s: %s", dump->path,
				   pft_errstr(pft_errcode(err)));
		}
		return err;
	}
	return 0;
}
