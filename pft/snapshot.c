/* OpenCSD snapshot directories: a small INI reader and the snapshot model. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "snapshot.h"

/* One parsed INI file: a flat list of (section, key, value, line). */
struct ini_entry {
	char *section, *key, *value;
	unsigned line;
};

struct ini {
	char *path;
	struct ini_entry *e;
	size_t n, cap;
};

static void set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);

	if (p)
		memcpy(p, s, n);
	return p;
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' ||
		     s[n - 1] == '\n'))
		s[--n] = 0;
	/* File names may be quoted. */
	if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
		s[n - 1] = 0;
		s++;
	}
	return s;
}

static void ini_free(struct ini *ini)
{
	for (size_t i = 0; i < ini->n; i++) {
		free(ini->e[i].section);
		free(ini->e[i].key);
		free(ini->e[i].value);
	}
	free(ini->e);
	free(ini->path);
	memset(ini, 0, sizeof(*ini));
}

static int ini_add(struct ini *ini, const char *section, const char *key,
		   const char *value, unsigned line)
{
	if (ini->n == ini->cap) {
		size_t cap = ini->cap ? 2 * ini->cap : 32;
		struct ini_entry *e = realloc(ini->e, cap * sizeof(*e));
		if (!e)
			return -1;
		ini->e = e;
		ini->cap = cap;
	}
	struct ini_entry *e = &ini->e[ini->n];
	e->section = xstrdup(section);
	e->key = xstrdup(key);
	e->value = xstrdup(value);
	e->line = line;
	if (!e->section || !e->key || !e->value) {
		free(e->section);
		free(e->key);
		free(e->value);
		return -1;
	}
	ini->n++;
	return 0;
}

static int ini_read(const char *path, struct ini *ini, char *err, size_t errlen)
{
	char line[4096], section[256] = "";
	unsigned lineno = 0;
	FILE *f = fopen(path, "r");

	memset(ini, 0, sizeof(*ini));
	if (!f) {
		set_err(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	ini->path = xstrdup(path);
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			set_err(err, errlen, "%s:%u: line too long", path, lineno);
			goto fail;
		}
		/* Comments start with ';' or '#'. */
		char *c = strpbrk(line, ";#");
		if (c)
			*c = 0;
		char *s = trim(line);
		if (!*s)
			continue;
		if (*s == '[') {
			char *close = strchr(s, ']');
			if (!close || close == s + 1 || (size_t)(close - s - 1) >= sizeof(section)) {
				set_err(err, errlen, "%s:%u: malformed section header", path, lineno);
				goto fail;
			}
			*close = 0;
			snprintf(section, sizeof(section), "%s", trim(s + 1));
			continue;
		}
		char *eq = strchr(s, '=');
		if (!eq || !*section) {
			set_err(err, errlen, "%s:%u: expected key=value%s", path, lineno,
				*section ? "" : " inside a [section]");
			goto fail;
		}
		*eq = 0;
		char *key = trim(s), *value = trim(eq + 1);
		if (!*key) {
			set_err(err, errlen, "%s:%u: empty key", path, lineno);
			goto fail;
		}
		if (ini_add(ini, section, key, value, lineno)) {
			set_err(err, errlen, "%s: out of memory", path);
			goto fail;
		}
	}
	if (ferror(f)) {
		set_err(err, errlen, "%s: read error", path);
		goto fail;
	}
	fclose(f);
	return 0;
fail:
	fclose(f);
	ini_free(ini);
	return -1;
}

static const struct ini_entry *ini_get(const struct ini *ini, const char *section,
				       const char *key)
{
	for (size_t i = 0; i < ini->n; i++)
		if (!strcasecmp(ini->e[i].section, section) &&
		    !strcasecmp(ini->e[i].key, key))
			return &ini->e[i];
	return NULL;
}

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (!p)
		return NULL;
	if (name[0] == '/')
		snprintf(p, n, "%s", name);
	else
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

static int parse_number(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *trim(end) ? -1 : 0;
}

static int add_pair(struct snap_pair **arr, size_t *n, const char *k, const char *v)
{
	struct snap_pair *a = realloc(*arr, (*n + 1) * sizeof(**arr));

	if (!a)
		return -1;
	*arr = a;
	a[*n].key = xstrdup(k);
	a[*n].value = xstrdup(v);
	if (!a[*n].key || !a[*n].value) {
		free(a[*n].key);
		free(a[*n].value);
		return -1;
	}
	(*n)++;
	return 0;
}

/* The [dump], [dump1], ... sections of a core device file. */
static int load_dumps(struct snapshot *s, struct snap_device *dev,
		      const struct ini *ini, char *err, size_t errlen)
{
	for (size_t i = 0; i < ini->n; i++) {
		const char *sec = ini->e[i].section;
		if (strncasecmp(sec, "dump", 4) || strcasecmp(ini->e[i].key, "file"))
			continue;
		const struct ini_entry *addr = ini_get(ini, sec, "address");
		const struct ini_entry *len = ini_get(ini, sec, "length");
		const struct ini_entry *off = ini_get(ini, sec, "offset");
		const struct ini_entry *space = ini_get(ini, sec, "space");
		struct snap_dump d = { 0 };

		if (!addr || parse_number(addr->value, &d.address) || d.address > UINT32_MAX) {
			set_err(err, errlen, "%s:%u: [%s] needs address=<number> (32-bit)",
				ini->path, ini->e[i].line, sec);
			return -1;
		}
		if (len && parse_number(len->value, &d.length)) {
			set_err(err, errlen, "%s:%u: bad length '%s'", ini->path, len->line,
				len->value);
			return -1;
		}
		d.has_length = len != NULL;
		if (off && parse_number(off->value, &d.offset)) {
			set_err(err, errlen, "%s:%u: bad offset '%s'", ini->path, off->line,
				off->value);
			return -1;
		}
		struct snap_dump *a = realloc(dev->dumps, (dev->ndumps + 1) * sizeof(*a));
		if (!a)
			goto nomem;
		dev->dumps = a;
		d.path = join(s->dir, ini->e[i].value);
		d.space = xstrdup(space ? space->value : "ANY");
		a[dev->ndumps++] = d;
		if (!d.path || !d.space)
			goto nomem;
	}
	return 0;
nomem:
	set_err(err, errlen, "%s: out of memory", ini->path);
	return -1;
}

static int load_device(struct snapshot *s, const char *file, char *err, size_t errlen)
{
	struct ini ini;
	char *path = join(s->dir, file);

	if (!path) {
		set_err(err, errlen, "out of memory");
		return -1;
	}
	if (ini_read(path, &ini, err, errlen)) {
		free(path);
		return -1;
	}
	const struct ini_entry *name = ini_get(&ini, "device", "name");
	const struct ini_entry *cls = ini_get(&ini, "device", "class");
	const struct ini_entry *type = ini_get(&ini, "device", "type");
	if (!name || !cls || !type) {
		set_err(err, errlen, "%s: [device] needs name, class and type", path);
		goto fail;
	}
	struct snap_device *a = realloc(s->devs, (s->ndevs + 1) * sizeof(*a));
	if (!a)
		goto nomem;
	s->devs = a;
	struct snap_device *dev = &a[s->ndevs++];
	memset(dev, 0, sizeof(*dev));
	dev->name = xstrdup(name->value);
	dev->cls = xstrdup(cls->value);
	dev->type = xstrdup(type->value);
	dev->file = path;
	path = NULL;
	if (!dev->name || !dev->cls || !dev->type)
		goto nomem;

	for (size_t i = 0; i < ini.n; i++) {
		if (strcasecmp(ini.e[i].section, "regs"))
			continue;
		uint64_t v;
		if (parse_number(ini.e[i].value, &v)) {
			set_err(err, errlen, "%s:%u: register %s: bad value '%s'", dev->file,
				ini.e[i].line, ini.e[i].key, ini.e[i].value);
			goto fail;
		}
		struct snap_reg *r = realloc(dev->regs, (dev->nregs + 1) * sizeof(*r));
		if (!r)
			goto nomem;
		dev->regs = r;
		char *key = xstrdup(ini.e[i].key);
		if (!key)
			goto nomem;
		key[strcspn(key, "(")] = 0;
		r[dev->nregs].name = xstrdup(trim(key));
		free(key);
		r[dev->nregs].value = v;
		if (!r[dev->nregs++].name)
			goto nomem;
	}
	if (load_dumps(s, dev, &ini, err, errlen))
		goto fail;
	ini_free(&ini);
	return 0;
nomem:
	set_err(err, errlen, "%s: out of memory", ini.path);
fail:
	free(path);
	ini_free(&ini);
	return -1;
}

static int load_trace(struct snapshot *s, const char *file, char *err, size_t errlen)
{
	struct ini ini;
	char *path = join(s->dir, file);

	if (!path || ini_read(path, &ini, err, errlen)) {
		if (!path)
			set_err(err, errlen, "out of memory");
		free(path);
		return -1;
	}
	free(path);
	const struct ini_entry *list = ini_get(&ini, "trace_buffers", "buffers");
	if (!list) {
		set_err(err, errlen, "%s: [trace_buffers] needs buffers=", ini.path);
		goto fail;
	}
	char *names = xstrdup(list->value);
	if (!names)
		goto nomem;
	for (char *save = NULL, *tok = strtok_r(names, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *sec = trim(tok);
		const struct ini_entry *name = ini_get(&ini, sec, "name");
		const struct ini_entry *bfile = ini_get(&ini, sec, "file");
		const struct ini_entry *fmt = ini_get(&ini, sec, "format");
		if (!name || !bfile) {
			set_err(err, errlen, "%s: buffer section [%s] needs name and file",
				ini.path, sec);
			free(names);
			goto fail;
		}
		struct snap_buffer *b = realloc(s->bufs, (s->nbufs + 1) * sizeof(*b));
		if (!b) {
			free(names);
			goto nomem;
		}
		s->bufs = b;
		b = &b[s->nbufs++];
		b->name = xstrdup(name->value);
		b->path = join(s->dir, bfile->value);
		b->format = xstrdup(fmt ? fmt->value : "coresight");
		if (!b->name || !b->path || !b->format) {
			free(names);
			goto nomem;
		}
	}
	free(names);
	for (size_t i = 0; i < ini.n; i++) {
		int r = 0;
		if (!strcasecmp(ini.e[i].section, "source_buffers"))
			r = add_pair(&s->source_buffers, &s->nsource_buffers, ini.e[i].key,
				     ini.e[i].value);
		else if (!strcasecmp(ini.e[i].section, "core_trace_sources"))
			r = add_pair(&s->core_trace_sources, &s->ncore_trace_sources,
				     ini.e[i].key, ini.e[i].value);
		if (r)
			goto nomem;
	}
	ini_free(&ini);
	return 0;
nomem:
	set_err(err, errlen, "%s: out of memory", ini.path);
fail:
	ini_free(&ini);
	return -1;
}

int snap_load(const char *dir, struct snapshot *s, char *err, size_t errlen)
{
	struct ini ini;

	memset(s, 0, sizeof(*s));
	s->dir = xstrdup(dir);
	char *path = join(dir, "snapshot.ini");
	if (!s->dir || !path) {
		free(path);
		set_err(err, errlen, "out of memory");
		goto fail_noini;
	}
	if (ini_read(path, &ini, err, errlen)) {
		free(path);
		goto fail_noini;
	}
	free(path);
	const struct ini_entry *ver = ini_get(&ini, "snapshot", "version");
	if (ver && strcmp(ver->value, "1.0") && strcmp(ver->value, "1")) {
		set_err(err, errlen, "%s:%u: unsupported snapshot version '%s'", ini.path,
			ver->line, ver->value);
		goto fail;
	}
	for (size_t i = 0; i < ini.n; i++)
		if (!strcasecmp(ini.e[i].section, "device_list") &&
		    load_device(s, ini.e[i].value, err, errlen))
			goto fail;
	const struct ini_entry *meta = ini_get(&ini, "trace", "metadata");
	if (!meta) {
		set_err(err, errlen, "%s: [trace] needs metadata=<file>", ini.path);
		goto fail;
	}
	if (load_trace(s, meta->value, err, errlen))
		goto fail;
	ini_free(&ini);
	return 0;
fail:
	ini_free(&ini);
fail_noini:
	snap_free(s);
	return -1;
}

void snap_free(struct snapshot *s)
{
	for (size_t i = 0; i < s->ndevs; i++) {
		struct snap_device *d = &s->devs[i];
		free(d->name);
		free(d->cls);
		free(d->type);
		free(d->file);
		for (size_t j = 0; j < d->nregs; j++)
			free(d->regs[j].name);
		free(d->regs);
		for (size_t j = 0; j < d->ndumps; j++) {
			free(d->dumps[j].path);
			free(d->dumps[j].space);
		}
		free(d->dumps);
	}
	free(s->devs);
	for (size_t i = 0; i < s->nbufs; i++) {
		free(s->bufs[i].name);
		free(s->bufs[i].path);
		free(s->bufs[i].format);
	}
	free(s->bufs);
	for (size_t i = 0; i < s->nsource_buffers; i++) {
		free(s->source_buffers[i].key);
		free(s->source_buffers[i].value);
	}
	free(s->source_buffers);
	for (size_t i = 0; i < s->ncore_trace_sources; i++) {
		free(s->core_trace_sources[i].key);
		free(s->core_trace_sources[i].value);
	}
	free(s->core_trace_sources);
	free(s->dir);
	memset(s, 0, sizeof(*s));
}

const struct snap_device *snap_device(const struct snapshot *s, const char *name)
{
	for (size_t i = 0; i < s->ndevs; i++)
		if (!strcmp(s->devs[i].name, name))
			return &s->devs[i];
	return NULL;
}

const struct snap_buffer *snap_buffer(const struct snapshot *s, const char *name)
{
	for (size_t i = 0; i < s->nbufs; i++)
		if (!strcmp(s->bufs[i].name, name))
			return &s->bufs[i];
	return NULL;
}

const struct snap_buffer *snap_source_buffer(const struct snapshot *s,
					     const char *source)
{
	for (size_t i = 0; i < s->nsource_buffers; i++)
		if (!strcmp(s->source_buffers[i].key, source))
			return snap_buffer(s, s->source_buffers[i].value);
	return NULL;
}

const struct snap_device *snap_source_core(const struct snapshot *s,
					   const char *source)
{
	for (size_t i = 0; i < s->ncore_trace_sources; i++)
		if (!strcmp(s->core_trace_sources[i].value, source))
			return snap_device(s, s->core_trace_sources[i].key);
	return NULL;
}

int snap_reg(const struct snap_device *d, const char *name, uint64_t *value)
{
	for (size_t i = 0; i < d->nregs; i++)
		if (!strcmp(d->regs[i].name, name)) {
			*value = d->regs[i].value;
			return 0;
		}
	return -1;
}

int snap_is_ptm(const struct snap_device *d)
{
	return !strcasecmp(d->cls, "trace_source") &&
	       (!strncasecmp(d->type, "PTM", 3) || !strncasecmp(d->type, "PFT", 3));
}
