/*
 * etm3_dump - drive libpft's ETMv3 decoders over one source of an OpenCSD
 * snapshot, for the differential test against trc_pkt_lister
 * (test_etm3_opencsd.sh, diff_etm3.py).  Until the CLI decodes ETMv3.
 *
 * usage: etm3_dump packets|flow SNAPSHOT_DIR TRACE_ID
 *
 * The snapshot is read the way trc_pkt_lister reads it: the trace source
 * whose ETMTRACEIDR is TRACE_ID gives the registers, every cpu_*.ini
 * [dump] section is memory, trace.ini's buffer file is formatted trace.
 * Output, one line per packet or element:
 *   packets: OFFSET TYPE [hex bytes] key=value...
 *   flow:    range START LAST NINSN TAKEN CYCLES, then insn ADDR for each
 *            of its instructions; the other elements by type name (an
 *            exception with its number, NACC with its address, trace-on
 *            with its cycle count).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pft.h"

/* The value of key @key (case-insensitive, text before '(' ignored after
 * it, as "ETMCR(0x000)") in section @section of the ini file @path into
 * @out; returns 1 if found. */
static int ini_get(const char *path, const char *section, const char *key, char *out,
		   size_t outlen, int nth)
{
	FILE *fp = fopen(path, "r");
	char line[1024], cur[128] = "";
	int found = 0, seen = 0;

	if (!fp)
		return 0;
	while (fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\r\n")] = 0;
		if (line[0] == '[') {
			snprintf(cur, sizeof(cur), "%.*s", (int)strcspn(line + 1, "]"), line + 1);
			continue;
		}
		char *eq = strchr(line, '=');
		if (!eq || strcasecmp(cur, section) != 0)
			continue;
		*eq = 0;
		char *paren = strchr(line, '(');
		if (paren)
			*paren = 0;
		if (strcasecmp(line, key) == 0 && seen++ == nth) {
			snprintf(out, outlen, "%s", eq + 1);
			found = 1;
			break;
		}
	}
	fclose(fp);
	return found;
}

static uint32_t ini_u32(const char *path, const char *section, const char *key)
{
	char v[64];
	return ini_get(path, section, key, v, sizeof(v), 0) ? (uint32_t)strtoul(v, NULL, 0) : 0;
}

static int load_config(const char *dir, unsigned id, struct pft_etm3_config *cfg)
{
	DIR *dp = opendir(dir);
	struct dirent *de;
	char path[4096];
	int found = 0;

	if (!dp)
		return 0;
	while (!found && (de = readdir(dp))) {
		if (strncmp(de->d_name, "device_", 7) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if ((ini_u32(path, "regs", "ETMTRACEIDR") & 0x7f) != id)
			continue;
		pft_etm3_config_init(cfg);
		found = pft_etm3_config_from_regs(cfg, ini_u32(path, "regs", "ETMCR"),
						  ini_u32(path, "regs", "ETMCCER"),
						  ini_u32(path, "regs", "ETMIDR"),
						  ini_u32(path, "regs", "ETMTRACEIDR")) == 0;
	}
	closedir(dp);
	return found;
}

static struct pft_image *load_image(const char *dir)
{
	struct pft_image *img = pft_image_alloc(NULL);
	DIR *dp = opendir(dir);
	struct dirent *de;
	char path[4096], file[1024], file_path[8192];

	if (!img || !dp)
		exit(2);
	while ((de = readdir(dp))) {
		if (strncmp(de->d_name, "cpu_", 4) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (!ini_get(path, "dump", "file", file, sizeof(file), 0))
			continue;
		snprintf(file_path, sizeof(file_path), "%s/%s", dir, file);
		/* The cores share the kernel dump: the first add wins. */
		pft_image_add_file(img, file_path, 0, ini_u32(path, "dump", "length"),
				   ini_u32(path, "dump", "address"), PFT_SPACE_ANY);
	}
	closedir(dp);
	return img;
}

static void print_packet(const struct pft_etm3_packet *p)
{
	printf("%llu %s [", (unsigned long long)p->offset,
	       pft_etm3_pkt_type_name((enum pft_etm3_packet_type)p->type));
	for (unsigned i = 0; i < p->size; i++)
		printf("%s%02x", i ? " " : "", p->raw[i]);
	printf("]");
	switch (p->type) {
	case PFT_ETM3_PKT_ISYNC:
		printf(" addr=0x%x isa=%s reason=%u ns=%u", p->addr,
		       pft_isa_name((enum pft_isa)p->isa), p->reason, p->ns);
		if (p->has_cycles)
			printf(" cycles=%u", p->cycles);
		break;
	case PFT_ETM3_PKT_BRANCH:
		printf(" addr=0x%x isa=%s exc=%u", p->addr, pft_isa_name((enum pft_isa)p->isa),
		       p->exception);
		break;
	case PFT_ETM3_PKT_PHEADER:
		printf(" format=%u atoms=", p->format);
		for (unsigned i = 0; i < p->n_atoms; i++)
			putchar((p->atoms >> i) & 1 ? 'E' : 'N');
		printf(" cycles=%u", p->cycles);
		break;
	case PFT_ETM3_PKT_TIMESTAMP:
		printf(" ts=0x%llx", (unsigned long long)p->ts);
		break;
	case PFT_ETM3_PKT_CYCLE_COUNT:
		printf(" cycles=%u", p->cycles);
		break;
	case PFT_ETM3_PKT_CONTEXTID:
		printf(" ctxid=0x%x", p->ctxid);
		break;
	case PFT_ETM3_PKT_BAD:
		printf(" bad=%s", pft_errstr((enum pft_error_code)p->bad));
		break;
	default:
		break;
	}
	putchar('\n');
}

static void print_elems(struct pft_etm3_flow *flow, struct pft_image *img)
{
	struct pft_elem e;

	while (pft_etm3_flow_next(flow, &e, sizeof(e)) == 0) {
		if (e.type != PFT_ELEM_RANGE) {
			printf("%s", pft_elem_type_name((enum pft_elem_type)e.type));
			if (e.type == PFT_ELEM_EXCEPTION)
				printf(" %u", e.exception);
			if (e.type == PFT_ELEM_ADDR_NACC)
				printf(" 0x%x", e.addr);
			if (e.type == PFT_ELEM_TRACE_ON && e.has_cycles)
				printf(" %u", e.cycles);
			putchar('\n');
			continue;
		}
		printf("range 0x%x 0x%x %u %u %u\n", e.start, e.last, e.ninsn, e.taken, e.cycles);
		struct pft_insn_iter it;
		struct pft_insn insn;
		pft_insn_iter_init(&it, img, &e);
		while (pft_insn_iter_next(&it, &insn, sizeof(insn)) == 1)
			printf("insn 0x%x\n", insn.addr);
	}
}

int main(int argc, char **argv)
{
	struct pft_etm3_config cfg;

	if (argc != 4 || (strcmp(argv[1], "packets") && strcmp(argv[1], "flow"))) {
		fprintf(stderr, "usage: etm3_dump packets|flow SNAPSHOT_DIR TRACE_ID\n");
		return 2;
	}
	const int flow_mode = strcmp(argv[1], "flow") == 0;
	const char *dir = argv[2];
	const unsigned id = (unsigned)strtoul(argv[3], NULL, 0);
	char tpath[4096], buf_name[256], file[1024];

	if (!load_config(dir, id, &cfg)) {
		fprintf(stderr, "etm3_dump: %s: no ETMv3 source with ID 0x%x\n", dir, id);
		return 2;
	}
	snprintf(tpath, sizeof(tpath), "%s/trace.ini", dir);
	if (!ini_get(tpath, "trace_buffers", "buffers", buf_name, sizeof(buf_name), 0) ||
	    !ini_get(tpath, buf_name, "file", file, sizeof(file), 0))
		return 2;
	snprintf(tpath, sizeof(tpath), "%s/%s", dir, file);
	FILE *fp = fopen(tpath, "rb");
	if (!fp)
		return 2;

	struct pft_image *img = flow_mode ? load_image(dir) : NULL;
	struct pft_dfmt *dfmt = pft_dfmt_alloc(NULL, NULL);
	struct pft_etm3_pkt_decoder *dec = pft_etm3_pkt_alloc(&cfg, NULL);
	struct pft_etm3_flow *flow = flow_mode ? pft_etm3_flow_alloc(&cfg, img, NULL) : NULL;
	uint8_t in[4096];
	size_t n;
	int done = 0;

	if (!dfmt || !dec || (flow_mode && !flow))
		return 2;
	while (!done) {
		n = fread(in, 1, sizeof(in), fp);
		if (n)
			pft_dfmt_feed(dfmt, in, n);
		else {
			pft_dfmt_finish(dfmt);
			done = 1;
		}
		struct pft_dfmt_chunk c;
		int st;
		while ((st = pft_dfmt_next(dfmt, &c, sizeof(c))) != -PFT_ERR_NEED_INPUT &&
		       st != -PFT_ERR_EOS) {
			if (st < 0 || c.id != id || !c.len)
				continue;
			pft_etm3_pkt_feed_at(dec, c.data, c.len, c.offset);
			struct pft_etm3_packet p;
			while ((st = pft_etm3_pkt_next(dec, &p, sizeof(p))) != -PFT_ERR_NEED_INPUT) {
				if (st < 0 && p.type != PFT_ETM3_PKT_BAD)
					break;
				if (!flow_mode) {
					print_packet(&p);
					continue;
				}
				pft_etm3_flow_put(flow, &p, sizeof(p));
				print_elems(flow, img);
			}
		}
	}
	pft_etm3_pkt_finish(dec);
	struct pft_etm3_packet p;
	int st;
	while ((st = pft_etm3_pkt_next(dec, &p, sizeof(p))) == 0 || p.type == PFT_ETM3_PKT_BAD) {
		if (!flow_mode) {
			print_packet(&p);
		} else {
			pft_etm3_flow_put(flow, &p, sizeof(p));
			print_elems(flow, img);
		}
		if (st < 0)
			break;
	}
	if (flow_mode) {
		pft_etm3_flow_finish(flow);
		print_elems(flow, img);
	}
	fclose(fp);
	pft_etm3_flow_free(flow);
	pft_etm3_pkt_free(dec);
	pft_dfmt_free(dfmt);
	pft_image_free(img);
	return 0;
}
