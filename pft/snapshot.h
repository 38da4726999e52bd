/* snapshot.h - OpenCSD snapshot directories (snapshot.ini, trace.ini,
 * device .ini files), as described in shared/spec/pft-flow.md section 12. */
#ifndef PFT_SNAPSHOT_H
#define PFT_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

struct snap_reg {
	char *name;             /* the key before '(' , e.g. "ETMCR" */
	uint64_t value;
};

struct snap_dump {
	char *path;             /* file, joined with the snapshot directory */
	uint64_t address;
	uint64_t offset;        /* into the file */
	uint64_t length;        /* bytes to use; 0 with has_length = 0: whole file */
	int has_length;
	char *space;            /* "S", "N", "ANY", ... (never NULL) */
};

struct snap_device {
	char *name;
	char *cls;              /* "core" or "trace_source" */
	char *type;             /* "PTM1.1", "Cortex-A15", ... */
	char *file;             /* the device .ini, joined with the directory */
	struct snap_reg *regs;
	size_t nregs;
	struct snap_dump *dumps;
	size_t ndumps;
};

struct snap_buffer {
	char *name;
	char *path;             /* joined with the snapshot directory */
	char *format;           /* "coresight", "dstream_coresight", "source_data" */
};

struct snap_pair {
	char *key, *value;
};

struct snapshot {
	char *dir;
	struct snap_device *devs;
	size_t ndevs;
	struct snap_buffer *bufs;
	size_t nbufs;
	struct snap_pair *source_buffers;      /* source device -> buffer name */
	size_t nsource_buffers;
	struct snap_pair *core_trace_sources;  /* core device -> source device */
	size_t ncore_trace_sources;
};

/* Read a snapshot directory.  On failure returns -1 with a one-line
 * message naming the file (and line) in @err; @s is then empty. */
int snap_load(const char *dir, struct snapshot *s, char *err, size_t errlen);
void snap_free(struct snapshot *s);

const struct snap_device *snap_device(const struct snapshot *s, const char *name);
const struct snap_buffer *snap_buffer(const struct snapshot *s, const char *name);
/* The buffer a trace source writes to, or NULL. */
const struct snap_buffer *snap_source_buffer(const struct snapshot *s,
					     const char *source);
/* The core device a trace source traces, or NULL. */
const struct snap_device *snap_source_core(const struct snapshot *s,
					   const char *source);
/* Find register @name (the part before '('); returns 0 and the value, or -1. */
int snap_reg(const struct snap_device *d, const char *name, uint64_t *value);
/* Is @d a PTM/PFT trace source (type "PTM..." or "PFT...")? */
int snap_is_ptm(const struct snap_device *d);

#endif
