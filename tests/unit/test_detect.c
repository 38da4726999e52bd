/* Tests for detection (pft_detect_*) and the fit check (pft_fit_*).
 *
 * Expected values: the real captures' configurations come from their
 * snapshot registers (device .ini files, through pft_ptm_config_from_regs) and
 * their protocols from the snapshot's device types; the encoded streams'
 * from the configuration the PTM model was given.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pft.h"
#include "ptunit.h"

static char shared_dir[1024];
static char source_dir[1024];

static uint8_t *read_all(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	*len = 0;
	if (!fp)
		return NULL;
	if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) > 0 && fseek(fp, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n);
		if (buf && fread(buf, 1, (size_t)n, fp) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		if (buf)
			*len = (size_t)n;
	}
	fclose(fp);
	return buf;
}

/* The value of register @name ("ETMCR") in a snapshot device .ini file:
 * lines "NAME(0x000)=0x..." or "NAME(id:0x0)=0x...". */
static uint32_t ini_reg(const char *path, const char *name)
{
	char line[256];
	FILE *fp = fopen(path, "r");
	uint32_t value = 0;
	size_t n = strlen(name);

	PTU_CHECK(fp != NULL);
	if (!fp)
		return 0;
	while (fgets(line, sizeof(line), fp)) {
		char *eq = strchr(line, '=');
		if (strncmp(line, name, n) == 0 && line[n] == '(' && eq) {
			value = (uint32_t)strtoul(eq + 1, NULL, 0);
			break;
		}
	}
	fclose(fp);
	return value;
}

static struct pft_ptm_config regs_config(const char *ini)
{
	struct pft_ptm_config cfg;
	pft_ptm_config_init(&cfg);
	PTU_EQ(pft_ptm_config_from_regs(&cfg, ini_reg(ini, "ETMCR"), ini_reg(ini, "ETMCCER"),
				    ini_reg(ini, "ETMIDR"), ini_reg(ini, "ETMTRACEIDR")), 0);
	return cfg;
}

/* The bytes of trace ID @id in formatted @buf, through the deformatter. */
static uint8_t *id_bytes(const uint8_t *buf, size_t len, uint8_t id, int tpiu, size_t *out)
{
	struct pft_dfmt_config dc = { .size = sizeof(dc), .tpiu = (uint8_t)tpiu };
	struct pft_dfmt *d = pft_dfmt_alloc(&dc, NULL);
	struct pft_dfmt_chunk ch;
	uint8_t *bytes = malloc(len + 1);
	int st;

	*out = 0;
	pft_dfmt_feed(d, buf, len);
	pft_dfmt_finish(d);
	while ((st = pft_dfmt_next(d, &ch, sizeof(ch))) != -PFT_ERR_EOS) {
		if (st == 0 && ch.id == id) {
			memcpy(bytes + *out, ch.data, ch.len);
			*out += ch.len;
		}
		if (st == -PFT_ERR_NEED_INPUT)
			break;
	}
	pft_dfmt_free(d);
	return bytes;
}

/* Each field the detection says it determined equals @want's. */
static void check_determined(const struct pft_detect_ptm_result *r,
			     const struct pft_ptm_config *want, const char *what)
{
	const struct pft_ptm_config *got = &r->config;
	int before = ptu_failed_checks;

	if (r->determined & PFT_DETECT_CYCLE_ACCURATE)
		PTU_EQ(got->cycle_accurate, want->cycle_accurate);
	if (r->determined & PFT_DETECT_CTXID_BYTES)
		PTU_EQ(got->ctxid_bytes, want->ctxid_bytes);
	if (r->determined & PFT_DETECT_TIMESTAMPS)
		PTU_EQ(got->timestamps, want->timestamps);
	if (r->determined & PFT_DETECT_TS_64BIT)
		PTU_EQ(got->ts_64bit, want->ts_64bit);
	if (r->determined & PFT_DETECT_TS_GRAY)
		PTU_EQ(got->ts_gray, want->ts_gray);
	if (r->determined & PFT_DETECT_VMID)
		PTU_EQ(got->vmid, want->vmid);
	if (r->determined & PFT_DETECT_VERSION)
		PTU_EQ(got->version_minor, want->version_minor);
	if (r->determined & PFT_DETECT_RETURN_STACK)
		PTU_EQ(got->return_stack, want->return_stack);
	if (r->determined & PFT_DETECT_BRANCH_BROADCAST)
		PTU_EQ(got->branch_broadcast, want->branch_broadcast);
	if (r->determined & PFT_DETECT_DMB_DSB)
		PTU_EQ(got->dmb_dsb_waypoints, want->dmb_dsb_waypoints);
	if (ptu_failed_checks != before)
		fprintf(stderr, "  in %s (determined %#x)\n", what, r->determined);
}

/* ------------------------------------------------------------------ */
/* Real captures */

static void tc2_path(char *path, size_t size, const char *file)
{
	snprintf(path, size, "%s/testdata/opencsd-snapshots/TC2/%s", shared_dir, file);
}

/* TC2: an ETB buffer (device types: ETM_0-2 "ETM3.5" IDs 0x10-0x12,
 * PTM_0 "PTM1.1" ID 0x13; PTM_1 and the ITM have no data). */
static void test_tc2_frames(void)
{
	char path[1200];
	size_t len;
	tc2_path(path, sizeof(path), "cstrace.bin");
	uint8_t *buf = read_all(path, &len);
	struct pft_detect_frames fr;

	PTU_CHECK(buf != NULL);
	if (!buf)
		return;
	PTU_EQ(pft_detect_frames(buf, len, &fr, sizeof(fr)), 0);
	PTU_EQ(fr.format, PFT_FRAMES_MEMORY);
	PTU_STREQ(pft_frame_format_name(fr.format), "formatted");
	PTU_EQ(fr.nsources, 4);
	PTU_EQ(fr.bad_frames, 0);
	static const uint8_t ids[4] = { 0x10, 0x11, 0x12, 0x13 };
	static const uint8_t protos[4] = { PFT_PROTO_ETMV3, PFT_PROTO_ETMV3,
					   PFT_PROTO_ETMV3, PFT_PROTO_PTM };
	for (unsigned i = 0; i < 4 && i < fr.nsources; i++) {
		size_t n;
		uint8_t *s = id_bytes(buf, len, ids[i], 0, &n);
		PTU_EQ(fr.sources[i].id, ids[i]);
		PTU_EQ(fr.sources[i].bytes, n);
		PTU_EQ(fr.sources[i].protocol, protos[i]);
		/* The same bytes, unformatted, are the same protocol. */
		PTU_EQ(pft_detect_protocol(s, n), protos[i]);
		struct pft_detect_frames raw;
		PTU_EQ(pft_detect_frames(s, n, &raw, sizeof(raw)), 0);
		PTU_EQ(raw.format, PFT_FRAMES_RAW);
		PTU_EQ(raw.nsources, 1);
		PTU_EQ(raw.sources[0].bytes, n);
		PTU_EQ(raw.sources[0].protocol, protos[i]);
		free(s);
	}
	free(buf);
}

/* The TC2 buffer, the PTM's registers' configuration, the kernel image
 * (at 0xC0008000, or moved by @image_shift) and ID 0x13's bytes. */
struct tc2 {
	uint8_t *buf, *s;
	size_t len, n;
	struct pft_ptm_config cfg;
	struct pft_image *img;
};

static int tc2_load(struct tc2 *t, uint32_t image_shift)
{
	char path[1200], ini[1200], img_path[1200];

	tc2_path(path, sizeof(path), "cstrace.bin");
	tc2_path(ini, sizeof(ini), "device_8.ini");
	tc2_path(img_path, sizeof(img_path), "kernel_dump.bin");
	t->buf = read_all(path, &t->len);
	t->cfg = regs_config(ini);
	t->img = pft_image_alloc(NULL);
	t->s = NULL;
	PTU_CHECK(t->buf != NULL && t->img != NULL);
	if (!t->buf || !t->img)
		return 0;
	PTU_EQ(pft_image_add_file(t->img, img_path, 0, 0, 0xC0008000u + image_shift,
				  PFT_SPACE_ANY), 0);
	t->s = id_bytes(t->buf, t->len, 0x13, 0, &t->n);
	return 1;
}

static void tc2_free(struct tc2 *t)
{
	free(t->s);
	free(t->buf);
	pft_image_free(t->img);
}

/* TC2 0x13 against device_8.ini (ETMCR 0x10001000: cycle-accurate,
 * timestamps; ETMCCER: 64-bit binary; PFTv1.1); with the kernel image. */
static void test_tc2_ptm_config(void)
{
	struct tc2 t;
	struct pft_detect_ptm_result r;

	if (!tc2_load(&t, 0))
		goto out;
	PTU_EQ(pft_detect_ptm(t.s, t.n, NULL, &r, sizeof(r)), 0);
	check_determined(&r, &t.cfg, "TC2 0x13");
	/* Full 64-bit timestamps, cycle counts: all parse fields decided. */
	uint32_t must = PFT_DETECT_CYCLE_ACCURATE | PFT_DETECT_CTXID_BYTES |
			PFT_DETECT_TIMESTAMPS | PFT_DETECT_TS_64BIT | PFT_DETECT_TS_GRAY |
			PFT_DETECT_VMID | PFT_DETECT_VERSION;
	PTU_EQ(r.determined & must, must);
	PTU_EQ(r.errors, 0);
	PTU_EQ(r.ncandidates, 1);
	PTU_EQ(r.candidates[0].cycle_accurate, 1);
	char opts[128];
	PTU_EQ(pft_ptm_config_options(&r.config, opts, sizeof(opts)), strlen("--cycle-accurate --timestamps"));
	PTU_STREQ(opts, "--cycle-accurate --timestamps");

	PTU_EQ(pft_detect_ptm(t.s, t.n, t.img, &r, sizeof(r)), 0);
	check_determined(&r, &t.cfg, "TC2 0x13 with image");
	PTU_EQ(r.flow_errors, 0);
out:
	tc2_free(&t);
}

static void a15_path(char *path, size_t size, const char *file)
{
	snprintf(path, size, "%s/testdata/opencsd-snapshots/trace_cov_a15/%s", shared_dir, file);
}

static struct pft_image *a15_image(void)
{
	char vec[1200], code[1200];
	struct pft_image *img = pft_image_alloc(NULL);

	a15_path(vec, sizeof(vec), "mem_Cortex-A15_0_0_VECTORS.bin");
	a15_path(code, sizeof(code), "mem_Cortex-A15_0_1_RO_CODE.bin");
	PTU_EQ(pft_image_add_file(img, vec, 0, 0, 0x80000000u, PFT_SPACE_SECURE), 0);
	PTU_EQ(pft_image_add_file(img, code, 0, 0, 0x80000278u, PFT_SPACE_SECURE), 1);
	return img;
}

/* trace_cov_a15: 36 raw bytes, device5.ini ETMCR 0x20000400 (return
 * stack, nothing else); raw, and formatted both ways. */
static void test_a15(void)
{
	char path[1200], ini[1200];
	size_t len;
	a15_path(path, sizeof(path), "PTM_0_2.bin");
	a15_path(ini, sizeof(ini), "device5.ini");
	uint8_t *buf = read_all(path, &len);
	struct pft_ptm_config want = regs_config(ini);
	struct pft_detect_ptm_result r;
	struct pft_detect_frames fr;
	struct pft_image *img = a15_image();

	PTU_CHECK(buf != NULL);
	if (!buf)
		goto out;
	PTU_EQ(pft_detect_frames(buf, len, &fr, sizeof(fr)), 0);
	PTU_EQ(fr.format, PFT_FRAMES_RAW);
	PTU_EQ(fr.sources[0].protocol, PFT_PROTO_PTM);
	PTU_EQ(pft_detect_ptm(buf, len, img, &r, sizeof(r)), 0);
	check_determined(&r, &want, "trace_cov_a15");
	/* Two I-syncs: a context ID byte after them would take the atom
	 * and branch headers that follow, or give two different context IDs
	 * with no context ID packet; cycle counts would make the branch
	 * packets' next headers reserved (0x04).  No timestamp packet: the
	 * width cannot be told (48 and 64 remain), but both readings say the
	 * same: one candidate, no choice. */
	PTU_EQ(r.determined & (PFT_DETECT_CYCLE_ACCURATE | PFT_DETECT_CTXID_BYTES),
	       PFT_DETECT_CYCLE_ACCURATE | PFT_DETECT_CTXID_BYTES);
	PTU_EQ(r.determined & PFT_DETECT_TS_64BIT, 0);
	PTU_EQ(r.ncandidates, 1);

	for (int tpiu = 0; tpiu < 2; tpiu++) {
		struct pft_ffmt_config fc = { .size = sizeof(fc), .tpiu = (uint8_t)tpiu };
		struct pft_ffmt *f = pft_ffmt_alloc(&fc, NULL);
		uint8_t framed[256];
		PTU_EQ(pft_ffmt_put(f, 0x02, buf, len), 0);
		PTU_EQ(pft_ffmt_flush(f), 0);
		int n = pft_ffmt_take(f, framed, sizeof(framed));
		pft_ffmt_free(f);
		PTU_CHECK(n > 0);
		PTU_EQ(pft_detect_frames(framed, (size_t)n, &fr, sizeof(fr)), 0);
		PTU_EQ(fr.format, tpiu ? PFT_FRAMES_TPIU : PFT_FRAMES_MEMORY);
		PTU_EQ(fr.nsources, 1);
		PTU_EQ(fr.sources[0].id, 2);
		PTU_EQ(fr.sources[0].bytes, len);
		PTU_EQ(fr.sources[0].protocol, PFT_PROTO_PTM);
	}
out:
	pft_image_free(img);
	free(buf);
}

/* Sync patterns of the protocols without a decoder here. */
static void test_other_protocols(void)
{
	uint8_t b[256];

	/* ETMv4: A-sync of 11 zeros and 0x80, then trace info (0x01 ...). */
	memset(b, 0, sizeof(b));
	for (int k = 0; k < 4; k++) {
		uint8_t *p = b + 40 * k;
		p[11] = 0x80;
		p[12] = 0x01;
		p[13] = 0x00;
	}
	PTU_EQ(pft_detect_protocol(b, 160), PFT_PROTO_ETMV4);
	/* STM: STPv2 ASYNC is 21 F nibbles and a 0 nibble: FF x 10, 0F. */
	memset(b, 0x11, sizeof(b));
	memset(b + 3, 0xff, 10);
	b[13] = 0x0f;
	PTU_EQ(pft_detect_protocol(b, 64), PFT_PROTO_STM);
	/* ITM: syncs (5 zeros, 0x80) followed by stimulus packets
	 * (header 0x01: port 0, one byte), no I-syncs. */
	size_t n = 0;
	for (int k = 0; k < 4; k++) {
		static const uint8_t sync[6] = { 0, 0, 0, 0, 0, 0x80 };
		memcpy(b + n, sync, 6);
		n += 6;
		for (int j = 0; j < 10; j++) {
			b[n++] = 0x01;
			b[n++] = (uint8_t)('a' + j);
		}
	}
	PTU_EQ(pft_detect_protocol(b, n), PFT_PROTO_ITM);
	/* A Cortex-M's ETM (doc/detect.md): A-sync, I-sync 08 21 01 40 00
	 * 00 (information byte 21, Thumb 0x4000), P-headers, branches in the
	 * alternative encoding with exception bytes (81 42 16: SVCall), 76;
	 * twice.  Its packets read as cleanly as PFT's; the I-syncs' byte 1
	 * (ETMv3's information byte, bit 0 set) against byte 5 (PTM's: here
	 * the address's top byte, 00) make it ETMv3.  With bit 0 of byte 1
	 * clear (21 -> 20), and 01 in byte 5, not: then it reads as cleanly
	 * as a PTM and as an A/R ETMv3, which says nothing. */
	static const uint8_t m[] = { 0, 0, 0, 0, 0, 0x80, 0x08, 0x21, 0x01, 0x40, 0x00, 0x00,
				     0x88, 0x81, 0x42, 0x16, 0x88, 0x76, 0x81, 0x44, 0x3c, 0x84,
				     0x76, 0x85, 0x00, 0x84 };
	memcpy(b, m, sizeof(m));
	memcpy(b + sizeof(m), m, sizeof(m));
	PTU_EQ(pft_detect_protocol(b, 2 * sizeof(m)), PFT_PROTO_ETMV3);
	b[7] = b[sizeof(m) + 7] = 0x20;
	b[11] = b[sizeof(m) + 11] = 0x01;
	PTU_EQ(pft_detect_protocol(b, 2 * sizeof(m)), PFT_PROTO_UNKNOWN);
	/* Nothing: no sync at all. */
	memset(b, 0x55, sizeof(b));
	PTU_EQ(pft_detect_protocol(b, sizeof(b)), PFT_PROTO_UNKNOWN);
	PTU_EQ(pft_detect_protocol(NULL, 0), PFT_PROTO_UNKNOWN);
	PTU_EQ(pft_detect_protocol(NULL, 1), -PFT_ERR_INVALID);
	PTU_STREQ(pft_protocol_name(PFT_PROTO_ETMV3), "etmv3");
	PTU_STREQ(pft_protocol_name(99), "unknown");
	struct pft_detect_frames fr;
	PTU_EQ(pft_detect_frames(b, sizeof(b), &fr, sizeof(fr)), 0);
	PTU_EQ(fr.format, PFT_FRAMES_UNKNOWN);
	PTU_EQ(fr.nsources, 0);
}

static void test_invalid(void)
{
	struct pft_detect_frames fr;
	struct pft_detect_ptm_result r;
	struct pft_ptm_config cfg;
	char s[8];
	uint8_t zero[4] = { 0 };

	PTU_EQ(pft_detect_frames(NULL, 1, &fr, sizeof(fr)), -PFT_ERR_INVALID);
	PTU_EQ(pft_detect_frames(zero, 4, NULL, sizeof(fr)), -PFT_ERR_INVALID);
	PTU_EQ(pft_detect_frames(zero, 4, &fr, sizeof(fr) - 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_detect_ptm(NULL, 1, NULL, &r, sizeof(r)), -PFT_ERR_INVALID);
	PTU_EQ(pft_detect_ptm(zero, 4, NULL, NULL, sizeof(r)), -PFT_ERR_INVALID);
	PTU_EQ(pft_detect_ptm(zero, 4, NULL, &r, 8), -PFT_ERR_INVALID);
	PTU_EQ(pft_detect_ptm(zero, 4, NULL, &r, sizeof(r)), -PFT_ERR_NOSYNC);
	PTU_EQ(r.determined, 0);
	pft_ptm_config_init(&cfg);
	PTU_EQ(pft_ptm_config_options(NULL, s, sizeof(s)), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_config_options(&cfg, NULL, 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_config_options(&cfg, s, sizeof(s)), 0);
	PTU_STREQ(s, "");
	cfg.cycle_accurate = 1;
	PTU_EQ(pft_ptm_config_options(&cfg, s, sizeof(s)), -PFT_ERR_NOSPACE);
	PTU_EQ(strlen(s), sizeof(s) - 1);
	PTU_CHECK(pft_fit_alloc(NULL, NULL, NULL) == NULL);
	int err = 0;
	PTU_CHECK(pft_fit_alloc(NULL, NULL, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	pft_fit_free(NULL);
	PTU_EQ(pft_fit_evident(NULL), -PFT_ERR_INVALID);
	struct pft_fit *fit = pft_fit_alloc(&cfg, NULL, &err);
	struct pft_fit_verdict v;
	struct pft_ptm_packet pkt;
	struct pft_elem e;
	memset(&pkt, 0, sizeof(pkt));
	memset(&e, 0, sizeof(e));
	PTU_EQ(pft_fit_packet(NULL, &pkt, sizeof(pkt), 0), -PFT_ERR_INVALID);
	PTU_EQ(pft_fit_packet(fit, &pkt, 4, 0), -PFT_ERR_INVALID);
	PTU_EQ(pft_fit_elem(fit, NULL, sizeof(e)), -PFT_ERR_INVALID);
	PTU_EQ(pft_fit_verdict(fit, NULL, sizeof(v)), -PFT_ERR_INVALID);
	PTU_EQ(pft_fit_verdict(fit, &v, 4), -PFT_ERR_INVALID);
	PTU_EQ(pft_fit_verdict(fit, &v, sizeof(v)), PFT_FIT_OK);
	PTU_STREQ(pft_fit_reason_name(PFT_FIT_CTXID_BYTES), "ctxid_bytes");
	PTU_STREQ(pft_fit_reason_name(PFT_FIT_REASON_MAX), "unknown");
	pft_fit_free(fit);
}

/* ------------------------------------------------------------------ */
/* Streams of the PTM model, under every configuration it supports */

struct insn_log {
	struct pft_model_insn *insns;
	size_t n;
};

static struct pft_image *demo_image(uint32_t bias)
{
	char path[1200];
	struct pft_image *img = pft_image_alloc(NULL);

	snprintf(path, sizeof(path), "%s/examples/demo/prog", source_dir);
	PTU_CHECK(pft_image_add_elf(img, path, bias) >= 1);
	return img;
}

/* The instructions the demo program executed: the ranges of its bundled
 * trace (examples/demo, made from a qemu log), expanded. */
static int demo_log(struct pft_image *img, struct insn_log *log)
{
	char path[1200], ini[1200];
	size_t len, n;

	snprintf(path, sizeof(path), "%s/examples/demo/trace.bin", source_dir);
	snprintf(ini, sizeof(ini), "%s/examples/demo/ptm_0.ini", source_dir);
	uint8_t *buf = read_all(path, &len);
	if (!buf)
		return 0;
	struct pft_ptm_config cfg = regs_config(ini);
	uint8_t *s = id_bytes(buf, len, cfg.trace_id, 0, &n);
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(&cfg, NULL);
	struct pft_ptm_flow *f = pft_ptm_flow_alloc(&cfg, img, NULL);
	struct pft_ptm_packet pkt;
	struct pft_elem e;
	size_t cap = 1 << 16;

	log->insns = calloc(cap, sizeof(*log->insns));
	log->n = 0;
	pft_ptm_pkt_feed(d, s, n);
	pft_ptm_pkt_finish(d);
	while (pft_ptm_pkt_next(d, &pkt, sizeof(pkt)) != -PFT_ERR_EOS) {
		pft_ptm_flow_put(f, &pkt, sizeof(pkt));
		while (pft_ptm_flow_next(f, &e, sizeof(e)) == 0) {
			struct pft_insn_iter it;
			struct pft_insn insn;
			if (e.type != PFT_ELEM_RANGE)
				continue;
			pft_insn_iter_init(&it, img, &e);
			while (pft_insn_iter_next(&it, &insn, sizeof(insn)) == 1 && log->n < cap) {
				struct pft_model_insn *mi = &log->insns[log->n++];
				mi->addr = insn.addr;
				mi->isa = insn.isa;
			}
		}
	}
	pft_ptm_flow_free(f);
	pft_ptm_pkt_free(d);
	free(s);
	free(buf);
	return log->n > 1000;
}

/* The stream the model makes of @log under @cfg, with a periodic sync
 * every 96 bytes (so that a few kilobytes hold many syncs), a timestamp
 * every 8 waypoints, and the context ID and VMID changing every 400
 * instructions. */
static uint8_t *encode(const struct pft_ptm_config *cfg, struct pft_image *img,
		       const struct insn_log *log, size_t *len)
{
	struct pft_model_config mc = { .size = sizeof(mc), .sync_period = 96, .ts_period = 8 };
	int err = 0;
	struct pft_ptm_model *m = pft_ptm_model_alloc(cfg, &mc, img, &err);
	size_t cap = 1 << 16;
	uint8_t *out = malloc(cap);
	struct pft_ptm_packet pkt;

	*len = 0;
	PTU_CHECK(m != NULL);
	if (!m)
		return out;
	for (size_t i = 0; i <= log->n; i++) {
		if (i < log->n) {
			struct pft_model_insn mi = log->insns[i];
			if (i % 400 == 0 && cfg->ctxid_bytes) {
				mi.has_ctxid = 1;
				mi.ctxid = 0x20 + (uint32_t)(i / 400);
			}
			if (i % 400 == 200 && cfg->vmid) {
				mi.has_vmid = 1;
				mi.vmid = (uint8_t)(3 + i / 400);
			}
			mi.has_cycles = 1;
			mi.cycles = 1 + (uint32_t)(i % 3);
			PTU_EQ(pft_ptm_model_put(m, &mi, sizeof(mi)), 0);
		} else {
			PTU_EQ(pft_ptm_model_finish(m), 0);
		}
		while (pft_ptm_model_next(m, &pkt, sizeof(pkt)) == 0) {
			PTU_CHECK(*len + pkt.size <= cap);
			if (*len + pkt.size <= cap) {
				memcpy(out + *len, pkt.raw, pkt.size);
				*len += pkt.size;
			}
		}
	}
	pft_ptm_model_free(m);
	return out;
}

/* Whether the program executes DMB or DSB (A32 F57FF04x/5x, T32
 * F3BF 8F4x/5x): without them the waypoint option cannot show. */
static int has_dmb_dsb(struct pft_image *img, const struct insn_log *log)
{
	for (size_t i = 0; i < log->n; i++) {
		uint8_t b[4];
		if (pft_image_read(img, log->insns[i].addr, PFT_SPACE_ANY, b, 4) != 4)
			continue;
		uint32_t w = b[0] | b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
		if (log->insns[i].isa == PFT_ISA_ARM && (w & 0xffffffe0u) == 0xf57ff040u)
			return 1;
		if (log->insns[i].isa == PFT_ISA_THUMB && (w & 0xffe0ffffu) == 0x8f40f3bfu)
			return 1;
	}
	return 0;
}

struct timestamp_format {
	uint8_t on, bits64, gray;
};

static void test_encoded_streams(void)
{
	struct pft_image *img = demo_image(0);
	struct insn_log log = { 0 };
	static const uint8_t ctxids[4] = { 0, 1, 2, 4 };
	static const struct timestamp_format v11_ts[5] = {
		{ 0, 1, 0 }, { 1, 0, 0 }, { 1, 0, 1 }, { 1, 1, 0 }, { 1, 1, 1 }
	};
	static const uint8_t flow_opts[4][3] = {
		{ 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 }
	};
	unsigned streams = 0, exact = 0;

	PTU_CHECK(demo_log(img, &log));
	int dmb = has_dmb_dsb(img, &log);
	PTU_EQ(dmb, 0);
	for (unsigned version = 0; version < 2; version++)
	for (unsigned ca = 0; ca < 2; ca++)
	for (unsigned c = 0; c < 4; c++)
	for (unsigned t = 0; t < (version ? 5u : 2u); t++)
	for (unsigned vmid = 0; vmid < (version ? 2u : 1u); vmid++)
	for (unsigned fo = 0; fo < 4; fo++) {
		struct pft_ptm_config cfg;
		pft_ptm_config_init(&cfg);
		cfg.version_minor = (uint8_t)version;
		cfg.cycle_accurate = (uint8_t)ca;
		cfg.ctxid_bytes = ctxids[c];
		if (version) {
			cfg.timestamps = v11_ts[t].on;
			cfg.ts_64bit = v11_ts[t].bits64;
			cfg.ts_gray = v11_ts[t].gray;
		} else {
			cfg.timestamps = (uint8_t)t;
			cfg.ts_64bit = 0;
			cfg.ts_gray = 1;
		}
		cfg.vmid = (uint8_t)vmid;
		cfg.return_stack = flow_opts[fo][0];
		cfg.branch_broadcast = flow_opts[fo][1];
		cfg.dmb_dsb_waypoints = flow_opts[fo][2];

		size_t len;
		uint8_t *s = encode(&cfg, img, &log, &len);
		struct pft_detect_ptm_result r;
		char what[160];
		pft_ptm_config_options(&cfg, what, sizeof(what));
		streams++;
		PTU_EQ(pft_detect_protocol(s, len), PFT_PROTO_PTM);
		PTU_EQ(pft_detect_ptm(s, len, img, &r, sizeof(r)), 0);
		PTU_EQ(r.errors, 0);
		PTU_EQ(r.flow_errors, 0);
		check_determined(&r, &cfg, what[0] ? what : "(defaults)");

		/* What must be decided, and why the rest cannot be. */
		uint32_t must = PFT_DETECT_CYCLE_ACCURATE | PFT_DETECT_CTXID_BYTES |
				PFT_DETECT_TIMESTAMPS | PFT_DETECT_VMID |
				PFT_DETECT_RETURN_STACK | PFT_DETECT_BRANCH_BROADCAST;
		/* A full 48-bit timestamp ends without a continuation bit and
		 * reads the same in 64-bit mode; without timestamps there is
		 * nothing to tell the width or the coding by. */
		if (cfg.timestamps && cfg.ts_64bit)
			must |= PFT_DETECT_TS_64BIT;
		if (cfg.timestamps)
			must |= PFT_DETECT_TS_GRAY;
		/* PFTv1.1 shows only in packets v1.0 cannot send. */
		if (version && (cfg.vmid || (cfg.timestamps && cfg.ts_64bit)))
			must |= PFT_DETECT_VERSION;
		/* No DMB or DSB in the program: the option changes nothing. */
		if (dmb)
			must |= PFT_DETECT_DMB_DSB;
		if ((r.determined & must) != must)
			fprintf(stderr, "  %s: determined %#x, must %#x\n", what,
				r.determined, must);
		PTU_EQ(r.determined & must, must);
		if (!(r.determined & PFT_DETECT_DMB_DSB))
			PTU_EQ(r.config.dmb_dsb_waypoints, 0);
		/* v1.0 is the guess for 48-bit Gray timestamps. */
		if (!version && cfg.timestamps)
			PTU_EQ(r.config.version_minor, 0);
		exact += r.config.cycle_accurate == cfg.cycle_accurate &&
			 r.config.ctxid_bytes == cfg.ctxid_bytes &&
			 r.config.timestamps == cfg.timestamps &&
			 r.config.vmid == cfg.vmid &&
			 r.config.return_stack == cfg.return_stack &&
			 r.config.branch_broadcast == cfg.branch_broadcast;
		free(s);
	}
	PTU_EQ(streams, 2 * 4 * (2 + 5 * 2) * 4);
	PTU_EQ(exact, streams);
	free(log.insns);
	pft_image_free(img);
}

/* ------------------------------------------------------------------ */
/* Fit check: each misconfiguration is named */

/* pft_fit_evident() at the end of the last fit_run(). */
static int fit_evident;

/* Decode @s under @cfg with @img, feeding the fit check; its verdict. */
static int fit_run(const uint8_t *s, size_t len, const struct pft_ptm_config *cfg,
		   struct pft_image *img, struct pft_fit_verdict *v)
{
	int err = 0;
	struct pft_fit *fit = pft_fit_alloc(cfg, img, &err);
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(cfg, NULL);
	struct pft_ptm_flow *f = pft_ptm_flow_alloc(cfg, img, NULL);
	struct pft_ptm_packet pkt;
	struct pft_elem e;
	int st;

	pft_ptm_pkt_feed(d, s, len);
	pft_ptm_pkt_finish(d);
	while ((st = pft_ptm_pkt_next(d, &pkt, sizeof(pkt))) != -PFT_ERR_EOS) {
		if (st < 0 && pkt.type != PFT_PTM_PKT_BAD)
			break;
		PTU_EQ(pft_fit_packet(fit, &pkt, sizeof(pkt), st), 0);
		pft_ptm_flow_put(f, &pkt, sizeof(pkt));
		while (pft_ptm_flow_next(f, &e, sizeof(e)) == 0)
			PTU_EQ(pft_fit_elem(fit, &e, sizeof(e)), 0);
	}
	int reason = pft_fit_verdict(fit, v, sizeof(*v));
	fit_evident = pft_fit_evident(fit);
	pft_ptm_flow_free(f);
	pft_ptm_pkt_free(d);
	pft_fit_free(fit);
	return reason;
}

struct misconfig {
	const char *what;
	struct pft_ptm_config made, used;  /* stream made with, decoded with */
	int other_image;                /* 1: image moved, 2: another program */
	int framed;                     /* decode the formatted bytes as raw */
	unsigned reason;
};

static void test_fit_table(void)
{
	struct pft_image *img = demo_image(0);
	struct pft_image *moved = demo_image(0x1000);
	struct pft_image *other = pft_image_alloc(NULL);
	struct insn_log log = { 0 };
	struct pft_ptm_config base, plain, v10;
	struct misconfig t[32];
	unsigned n = 0;
	char a15_code[1200];
	size_t a15_len;

	PTU_CHECK(demo_log(img, &log));
	/* Another program at the demo's address: the A15 test's code. */
	a15_path(a15_code, sizeof(a15_code), "mem_Cortex-A15_0_1_RO_CODE.bin");
	uint8_t *code = read_all(a15_code, &a15_len);
	PTU_CHECK(code != NULL);
	if (code)
		PTU_EQ(pft_image_add_buffer(other, 0x10000, code, a15_len, PFT_SPACE_ANY,
					    PFT_IMAGE_COPY), 0);

	pft_ptm_config_init(&base);
	base.cycle_accurate = 1;
	base.ctxid_bytes = 4;
	base.timestamps = 1;
	base.return_stack = 1;
	plain = base;
	plain.cycle_accurate = 0;
	plain.ctxid_bytes = 0;
	plain.return_stack = 0;
	v10 = plain;
	v10.version_minor = 0;
	v10.ts_64bit = 0;
	v10.ts_gray = 1;

#define ROW(w, m, u, img_, fr, r)                                             \
	do {                                                                  \
		t[n].what = w;                                                \
		t[n].made = m;                                                \
		t[n].used = u;                                                \
		t[n].other_image = img_;                                      \
		t[n].framed = fr;                                             \
		t[n].reason = r;                                              \
		n++;                                                          \
	} while (0)
	struct pft_ptm_config u;
	ROW("right configuration", base, base, 0, 0, PFT_FIT_OK);
	ROW("right configuration, plain", plain, plain, 0, 0, PFT_FIT_OK);
	u = base; u.cycle_accurate = 0;
	ROW("cycle-accurate stream, decoded without", base, u, 0, 0, PFT_FIT_CYCLE_ACCURATE);
	u = plain; u.cycle_accurate = 1;
	ROW("plain stream, decoded cycle-accurate", plain, u, 0, 0, PFT_FIT_CYCLE_ACCURATE);
	u = base; u.ctxid_bytes = 0;
	ROW("ctxid 4, decoded with 0", base, u, 0, 0, PFT_FIT_CTXID_BYTES);
	u = base; u.ctxid_bytes = 1;
	ROW("ctxid 4, decoded with 1", base, u, 0, 0, PFT_FIT_CTXID_BYTES);
	u = plain; u.ctxid_bytes = 4;
	ROW("ctxid 0, decoded with 4", plain, u, 0, 0, PFT_FIT_CTXID_BYTES);
	u = base; u.ts_64bit = 0;
	ROW("64-bit timestamps, decoded as 48", base, u, 0, 0, PFT_FIT_TS_BITS);
	u = base; u.ts_gray = 1;
	ROW("binary timestamps, decoded as Gray", base, u, 0, 0, PFT_FIT_TS_GRAY);
	u = v10; u.version_minor = 1; u.ts_gray = 0;
	ROW("PFTv1.0 (Gray) stream, decoded as v1.1 binary", v10, u, 0, 0, PFT_FIT_TS_GRAY);
	/* v1.1 with 48-bit Gray timestamps, as v1.0 has them: only VMID
	 * packets show the version. */
	struct pft_ptm_config m = plain;
	m.vmid = 1;
	m.ts_64bit = 0;
	m.ts_gray = 1;
	u = m; u.version_minor = 0; u.vmid = 0;
	ROW("v1.1 stream with VMID, decoded as v1.0", m, u, 0, 0, PFT_FIT_VERSION);
	u = base; u.return_stack = 0;
	ROW("return stack on, decoded without", base, u, 0, 0, PFT_FIT_RETURN_STACK);
	u = plain; u.return_stack = 1;
	ROW("return stack off, decoded with", plain, u, 0, 0, PFT_FIT_RETURN_STACK);
	m = plain; m.branch_broadcast = 1;
	u = plain;
	ROW("branch broadcast on, decoded without", m, u, 0, 0, PFT_FIT_BRANCH_BROADCAST);
	u = plain; u.branch_broadcast = 1;
	ROW("branch broadcast off, decoded with", plain, u, 0, 0, PFT_FIT_BRANCH_BROADCAST);
	ROW("image at the wrong address", base, base, 1, 0, PFT_FIT_IMAGE_ADDRESS);
	ROW("image of another program", base, base, 2, 0, PFT_FIT_IMAGE_CONTENT);
	ROW("formatted bytes given as raw", base, base, 0, 1, PFT_FIT_NOT_PTM);
#undef ROW

	for (unsigned i = 0; i < n; i++) {
		size_t len;
		uint8_t *s = encode(&t[i].made, img, &log, &len);
		struct pft_fit_verdict v;
		struct pft_image *use = t[i].other_image == 1 ? moved :
					t[i].other_image == 2 ? other : img;
		if (t[i].framed) {
			struct pft_ffmt *f = pft_ffmt_alloc(NULL, NULL);
			uint8_t *framed = malloc(2 * len + 64);
			pft_ffmt_put(f, 0x10, s, len);
			pft_ffmt_flush(f);
			int k = pft_ffmt_take(f, framed, 2 * len + 64);
			pft_ffmt_free(f);
			free(s);
			s = framed;
			len = k > 0 ? (size_t)k : 0;
		}
		int reason = fit_run(s, len, &t[i].used, use, &v);
		if ((unsigned)reason != t[i].reason)
			fprintf(stderr, "  %s: got %s (%s), want %s\n", t[i].what,
				pft_fit_reason_name((unsigned)reason), v.diag.text,
				pft_fit_reason_name(t[i].reason));
		PTU_EQ(reason, t[i].reason);
		PTU_EQ(v.reason, t[i].reason);
		PTU_CHECK(v.diag.text[0] != 0);
		/* The code says which input is at fault. */
		PTU_EQ(v.diag.code, t[i].reason == PFT_FIT_OK ? PFT_ERR_OK
				    : t[i].reason == PFT_FIT_IMAGE_ADDRESS ||
					      t[i].reason == PFT_FIT_IMAGE_CONTENT
				    ? PFT_ERR_BAD_IMAGE
				    : t[i].reason == PFT_FIT_NOT_PTM ? PFT_ERR_NO_SOURCE
								     : PFT_ERR_BAD_CONFIG);
		if (getenv("PFT_TEST_VERBOSE"))
			printf("%-50s %-16s %s\n", t[i].what, pft_fit_reason_name(v.reason), v.diag.text);
		static const char *const mention[PFT_FIT_REASON_MAX] = {
			[PFT_FIT_CYCLE_ACCURATE] = "--cycle-accurate",
			[PFT_FIT_CTXID_BYTES] = "--ctxid-bytes",
			[PFT_FIT_TS_BITS] = "--ts-bits",
			[PFT_FIT_TS_GRAY] = "--ts-gray",
			[PFT_FIT_VERSION] = "--pft-version 1.1",
			[PFT_FIT_RETURN_STACK] = "--return-stack",
			[PFT_FIT_BRANCH_BROADCAST] = "--branch-broadcast",
			[PFT_FIT_IMAGE_ADDRESS] = "image",
			[PFT_FIT_IMAGE_CONTENT] = "image",
			[PFT_FIT_NOT_PTM] = "--formatted",
		};
		if (t[i].reason < PFT_FIT_REASON_MAX && mention[t[i].reason])
			PTU_CHECK(strstr(v.diag.text, mention[t[i].reason]) != NULL);
		free(s);
	}
	free(code);
	free(log.insns);
	pft_image_free(other);
	pft_image_free(moved);
	pft_image_free(img);
}

/* The TC2 0x13 capture decoded with wrong options or a misplaced image:
 * without --cycle-accurate the decode lists a few dozen instructions and
 * bad packets; the fit check must say why. */
static void test_fit_tc2(void)
{
	struct tc2 t = { 0 }, moved = { 0 };
	struct pft_ptm_config wrong;
	struct pft_fit_verdict v;

	if (!tc2_load(&t, 0) || !tc2_load(&moved, 0x100000))
		goto out;
	PTU_EQ(fit_run(t.s, t.n, &t.cfg, t.img, &v), PFT_FIT_OK);
	PTU_EQ(v.bad_packets, 0);
	PTU_EQ(fit_evident, 0);
	wrong = t.cfg;
	wrong.cycle_accurate = 0;
	PTU_EQ(fit_run(t.s, t.n, &wrong, t.img, &v), PFT_FIT_CYCLE_ACCURATE);
	PTU_CHECK(v.bad_packets > 0);
	PTU_EQ(fit_evident, 1);
	PTU_EQ(v.suggested.cycle_accurate, 1);
	wrong = t.cfg;
	wrong.ts_64bit = 0;
	PTU_EQ(fit_run(t.s, t.n, &wrong, t.img, &v), PFT_FIT_TS_BITS);
	wrong = t.cfg;
	wrong.ctxid_bytes = 2;
	PTU_EQ(fit_run(t.s, t.n, &wrong, t.img, &v), PFT_FIT_CTXID_BYTES);
	PTU_EQ(fit_run(t.s, t.n, &t.cfg, moved.img, &v), PFT_FIT_IMAGE_ADDRESS);
	PTU_EQ(fit_evident, 1);
	/* Damage: a reserved header (0x10, reserved in PTM and ETMv3) every
	 * 200 bytes after the first A-sync makes bad packets under every
	 * configuration: no option to blame. */
	uint8_t *damaged = malloc(t.n);
	memcpy(damaged, t.s, t.n);
	for (size_t i = 400; i < t.n; i += 200)
		damaged[i] = 0x10;
	PTU_EQ(fit_run(damaged, t.n, &t.cfg, t.img, &v), PFT_FIT_CONFIG);
	PTU_CHECK(strstr(v.diag.text, "damaged") != NULL);
	free(damaged);
	/* The formatted buffer itself given as one source. */
	PTU_EQ(fit_run(t.buf, t.len, &t.cfg, t.img, &v), PFT_FIT_NOT_PTM);
	/* An ETMv3 source given as PTM. */
	size_t n3;
	uint8_t *s3 = id_bytes(t.buf, t.len, 0x10, 0, &n3);
	PTU_EQ(fit_run(s3, n3, &t.cfg, NULL, &v), PFT_FIT_NOT_PTM);
	PTU_CHECK(strstr(v.diag.text, "etmv3") != NULL);
	free(s3);
out:
	tc2_free(&moved);
	tc2_free(&t);
}

int main(void)
{
	const char *shared = getenv("PFT_SHARED"), *source = getenv("PFT_SOURCE");
	char tree[900];

	snprintf(tree, sizeof(tree), "%s", __FILE__);
	char *cut = strstr(tree, "/tests/unit/");
	if (cut)
		*cut = '\0';
	snprintf(source_dir, sizeof(source_dir), "%s", source ? source : tree);
	if (shared)
		snprintf(shared_dir, sizeof(shared_dir), "%s", shared);
	else
		snprintf(shared_dir, sizeof(shared_dir), "%s/../shared", tree);

	PTU_RUN(test_invalid);
	PTU_RUN(test_other_protocols);
	PTU_RUN(test_tc2_frames);
	PTU_RUN(test_tc2_ptm_config);
	PTU_RUN(test_a15);
	PTU_RUN(test_encoded_streams);
	PTU_RUN(test_fit_table);
	PTU_RUN(test_fit_tc2);
	PTU_MAIN_END();
}
