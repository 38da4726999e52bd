/* Writing OpenCSD snapshot directories. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "snapshot_out.h"

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

FILE *snap_out_begin(const char *dir)
{
	char *path;
	FILE *f;

	if (mkdir(dir, 0777) && errno != EEXIST) {
		cli_error("%s: %s", dir, strerror(errno));
		return NULL;
	}
	path = join(dir, SNAP_OUT_TRACE);
	if (!path) {
		cli_error("out of memory");
		return NULL;
	}
	f = fopen(path, "wb");
	if (!f)
		cli_error("%s: %s", path, strerror(errno));
	free(path);
	return f;
}

/* Write the text @fmt... to @dir/@name. */
static int write_text(const char *dir, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int write_text(const char *dir, const char *name, const char *fmt, ...)
{
	char *path = join(dir, name);
	FILE *f = path ? fopen(path, "w") : NULL;
	va_list ap;
	int bad;

	if (!f) {
		cli_error("%s: %s", path ? path : name, path ? strerror(errno) : "out of memory");
		free(path);
		return -1;
	}
	va_start(ap, fmt);
	bad = vfprintf(f, fmt, ap) < 0;
	va_end(ap);
	bad |= fclose(f) != 0;
	if (bad)
		cli_error("%s: cannot write: %s", path, errno ? strerror(errno) : "write error");
	free(path);
	return bad ? -1 : 0;
}

/* Copy the @len bytes at @addr of @img to @dir/@name. */
static int write_memory(const char *dir, const char *name, struct pft_image *img,
			uint32_t addr, uint64_t len, enum pft_mem_space space)
{
	char *path = join(dir, name);
	FILE *f = path ? fopen(path, "wb") : NULL;
	uint8_t buf[65536];
	int rc = 0;

	if (!f) {
		cli_error("%s: %s", path ? path : name, path ? strerror(errno) : "out of memory");
		free(path);
		return -1;
	}
	while (len && !rc) {
		size_t want = len < sizeof(buf) ? (size_t)len : sizeof(buf);
		int n = pft_image_read(img, addr, space, buf, want);
		if (n <= 0) {
			cli_error("%s: cannot read the memory at 0x%08x for it", path, addr);
			rc = -1;
		} else if (fwrite(buf, 1, (size_t)n, f) != (size_t)n) {
			cli_error("%s: cannot write: %s", path, strerror(errno));
			rc = -1;
		}
		if (rc)
			break;
		addr += (uint32_t)n;
		len -= (uint64_t)n;
	}
	if (fclose(f) && !rc) {
		cli_error("%s: cannot write: %s", path, strerror(errno));
		rc = -1;
	}
	free(path);
	return rc;
}

static const char *space_name(enum pft_mem_space s)
{
	return s == PFT_SPACE_SECURE ? "S" : s == PFT_SPACE_NONSECURE ? "N" : "ANY";
}

/* Core @k's device (cpu_K.ini): its type and one [dump] per image
 * section, written as mem_N.bin (core 0) or mem_K_N.bin. */
static int write_core(const char *dir, size_t k, const char *core, struct pft_image *img)
{
	size_t cap = 4096, len = 0;
	char *text = malloc(cap), ini[64];
	struct pft_image_section_info info;
	int rc = 0;

	if (!text) {
		cli_error("out of memory");
		return -1;
	}
	len += (size_t)snprintf(text, cap,
				"; written by pft encode\n[device]\nname=cpu_%zu\nclass=core\n"
				"type=%s\n\n[regs]\n",
				k, core);
	for (size_t i = 0; !rc && pft_image_section(img, i, &info, sizeof(info)) == 0; i++) {
		char name[64], entry[256];
		if (k)
			snprintf(name, sizeof(name), "mem_%zu_%zu.bin", k, i);
		else
			snprintf(name, sizeof(name), "mem_%zu.bin", i);
		rc = write_memory(dir, name, img, info.vaddr, info.length, info.space);
		int n = snprintf(entry, sizeof(entry),
				 "\n[dump%zu]\nfile=%s\naddress=0x%08x\nlength=0x%llx\nspace=%s\n",
				 i + 1, name, info.vaddr, (unsigned long long)info.length,
				 space_name(info.space));
		if (len + (size_t)n + 1 > cap) {
			char *t = realloc(text, cap *= 2);
			if (!t) {
				cli_error("out of memory");
				rc = -1;
				break;
			}
			text = t;
		}
		memcpy(text + len, entry, (size_t)n + 1);
		len += (size_t)n;
	}
	snprintf(ini, sizeof(ini), "cpu_%zu.ini", k);
	if (!rc)
		rc = write_text(dir, ini, "%s", text);
	free(text);
	return rc;
}

/* The text of @n lines made by @line(@ctx, k, buf, len) into @out. */
static int lines(char *out, size_t cap, size_t n,
		 void (*line)(const struct snap_out_source *s, size_t k, char *buf, size_t len),
		 const struct snap_out_source *src)
{
	size_t used = 0;

	out[0] = 0;
	for (size_t k = 0; k < n; k++) {
		char one[128];
		line(&src[k], k, one, sizeof(one));
		size_t l = strlen(one);
		if (used + l + 1 > cap) {
			cli_error("too many trace sources for a snapshot");
			return -1;
		}
		memcpy(out + used, one, l + 1);
		used += l;
	}
	return 0;
}

/* "PTM_K" or "ETM_K". */
static void source_name(const struct snap_out_source *s, size_t k, char *buf, size_t len)
{
	snprintf(buf, len, "%s_%zu", s->regs.etm3 ? "ETM" : "PTM", k);
}

static void device_line(const struct snap_out_source *s, size_t k, char *buf, size_t len)
{
	snprintf(buf, len, "device%zu=cpu_%zu.ini\ndevice%zu=%s_%zu.ini\n", 2 * k, k, 2 * k + 1,
		 s->regs.etm3 ? "etm" : "ptm", k);
}

static void buffer_line(const struct snap_out_source *s, size_t k, char *buf, size_t len)
{
	char name[32];
	source_name(s, k, name, sizeof(name));
	snprintf(buf, len, "%s=ETB_0\n", name);
}

static void core_line(const struct snap_out_source *s, size_t k, char *buf, size_t len)
{
	char name[32];
	source_name(s, k, name, sizeof(name));
	snprintf(buf, len, "cpu_%zu=%s\n", k, name);
}

int snap_out_finish(const char *dir, const struct snap_out_source *src, size_t n,
		    uint64_t ts_frequency)
{
	char devices[4096], buffers[4096], cores[4096], freq[96] = "";

	if (ts_frequency)
		snprintf(freq, sizeof(freq), "[timestamp]\nfrequency=%llu\n\n",
			 (unsigned long long)ts_frequency);
	if (lines(devices, sizeof(devices), n, device_line, src) ||
	    lines(buffers, sizeof(buffers), n, buffer_line, src) ||
	    lines(cores, sizeof(cores), n, core_line, src))
		return -1;
	int etm3 = 0, ptm = 0;
	for (size_t k = 0; k < n; k++)
		*(src[k].regs.etm3 ? &etm3 : &ptm) = 1;
	if (write_text(dir, "snapshot.ini",
		       "; written by pft encode\n[snapshot]\nversion=1.0\n"
		       "description=%s trace modelled by pft encode\n\n"
		       "[device_list]\n%s\n"
		       "[trace]\nmetadata=trace.ini\n",
		       etm3 && ptm ? "PTM and ETMv3" : etm3 ? "ETMv3" : "PTM", devices) ||
	    write_text(dir, "trace.ini",
		       "; written by pft encode\n%s[trace_buffers]\nbuffers=buffer0\n\n"
		       "[buffer0]\nname=ETB_0\nfile=" SNAP_OUT_TRACE "\nformat=coresight\n\n"
		       "[source_buffers]\n%s\n"
		       "[core_trace_sources]\n%s", freq, buffers, cores))
		return -1;
	for (size_t k = 0; k < n; k++) {
		const struct snap_out_source *s = &src[k];
		const struct ptm_regs *r = &s->regs;
		char name[32], ini[32], type[16];
		source_name(s, k, name, sizeof(name));
		snprintf(ini, sizeof(ini), "%s_%zu.ini", r->etm3 ? "etm" : "ptm", k);
		/* The ETM's version: ETMIDR[7:4]. */
		snprintf(type, sizeof(type), r->etm3 ? "ETM3.%u" : "PTM1.%u",
			 r->etm3 ? (unsigned)(r->regs.etmidr >> 4 & 0xf)
				 : s->cfg->version_minor ? 1u : 0u);
		if (write_text(dir, ini,
			       "; written by pft encode\n[device]\nname=%s\nclass=trace_source\n"
			       "type=%s\n\n[regs]\n"
			       "ETMCR(0x000)=0x%08X\nETMCCR(0x001)=0x%08X\nETMSYNCFR(0x078)=0x%08X\n"
			       "ETMIDR(0x079)=0x%08X\nETMCCER(0x07A)=0x%08X\n"
			       "ETMTRACEIDR(0x080)=0x%08X\n",
			       name, type, r->regs.etmcr, r->regs.etmccr, r->etmsyncfr,
			       r->regs.etmidr, r->regs.etmccer, r->regs.etmtraceidr) ||
		    write_core(dir, k,
			       r->core ? r->core
			       : r->etm3 ? "Cortex-A7"
			       : s->cfg->version_minor ? "Cortex-A15" : "Cortex-A9",
			       s->img))
			return -1;
	}
	return 0;
}
