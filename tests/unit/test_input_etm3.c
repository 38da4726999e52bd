/* test_input_etm3 - ETMv3 sources of trace files (pft_input_add_etm3(),
 * pft.h input section): its error codes, a hand-made raw stream read back
 * as the spec encodes it, and the TC2 capture's formatted buffer, whose
 * snapshot (trace.ini, device_*.ini) says IDs 0x10-0x12 are ETMv3.5 and
 * 0x13 a PTM. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pft.h"
#include "ptunit.h"
#include "input_error.h"

static char dir[] = "/tmp/test_input_etm3.XXXXXX";

static struct pft_input *packets_input(void)
{
	struct pft_input_config ic = { .size = sizeof(ic), .packets = 1, .id = -1 };

	return pft_input_alloc(&ic, NULL);
}

static const char *write_file(const char *name, const uint8_t *bytes, size_t n)
{
	static char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(bytes, 1, n, f) != n)
		abort();
	fclose(f);
	return path;
}

/* @n @bytes of trace ID @id in CoreSight frames (a memory buffer), in
 * file @name. */
static const char *write_framed(const char *name, const uint8_t *bytes, size_t n, uint8_t id)
{
	uint8_t out[256];
	struct pft_ffmt *f = pft_ffmt_alloc(NULL, NULL);
	int len;

	if (!f || pft_ffmt_put(f, id, bytes, n) || pft_ffmt_flush(f))
		abort();
	len = pft_ffmt_take(f, out, sizeof(out));
	pft_ffmt_free(f);
	if (len <= 0)
		abort();
	return write_file(name, out, (size_t)len);
}

/* A-sync (five 0x00, then 0x80), then an I-sync (0x08): information
 * byte 0x21 (reason 01, tracing enabled; bit 0 as TC2 sends it), then
 * address 0x80001000 little-endian, bit 0 = 0 (ARM); etmv3-protocol.md
 * 4.1 and 4.4. */
static const uint8_t stream[] = { 0, 0, 0, 0, 0, 0x80, 0x08, 0x21, 0x00, 0x10, 0x00, 0x80 };

static void bad_arguments(void)
{
	struct pft_etm3_config cfg;
	struct pft_input *in = packets_input();

	pft_etm3_config_init(&cfg);
	PTU_CHECK(in != NULL);
	PTU_EQ(pft_input_add_etm3(NULL, -1, &cfg), -PFT_ERR_INVALID);
	PTU_EQ(pft_input_add_etm3(in, -1, NULL), -PFT_ERR_INVALID);
	/* No file open yet. */
	PTU_EQ(pft_input_add_etm3(in, -1, &cfg), -PFT_ERR_INVALID);
	PTU_EQ(pft_input_open_file(in, write_framed("f.bin", stream, sizeof(stream), 0x10),
				   PFT_PIPE_FORMATTED), 0);
	PTU_EQ(pft_input_add_etm3(in, -2, &cfg), -PFT_ERR_INVALID);
	PTU_EQ(pft_input_add_etm3(in, PFT_ID_MAX_VALID + 1, &cfg), -PFT_ERR_INVALID);
	PTU_EQ(pft_input_add_etm3(in, 0, &cfg), -PFT_ERR_INVALID);
	cfg.ctxid_bytes = 3;   /* not 0, 1, 2 or 4 */
	PTU_EQ(pft_input_add_etm3(in, 0x10, &cfg), -PFT_ERR_BAD_CONFIG);
	pft_input_free(in);
}

static void raw_stream(void)
{
	struct pft_etm3_config cfg;
	struct pft_input_source src;
	struct pft_item item;
	struct pft_input *in = packets_input();
	unsigned types[2], n = 0;
	uint32_t isync_addr = 0;

	pft_etm3_config_init(&cfg);
	PTU_EQ(pft_input_open_file(in, write_file("r.bin", stream, sizeof(stream)), PFT_PIPE_RAW),
	       0);
	PTU_EQ(pft_input_add_etm3(in, -1, &cfg), 1);
	PTU_EQ(pft_input_nsources(in), 1);
	/* A raw file holds one source. */
	PTU_EQ(pft_input_add_etm3(in, -1, &cfg), -PFT_ERR_BAD_CONFIG);
	PTU_CHECK(strstr(input_error(in), "room for one source") != NULL);
	PTU_EQ(pft_input_source(in, 0, &src, sizeof(src)), 0);
	PTU_EQ(src.protocol, PFT_PROTO_ETMV3);
	PTU_EQ(src.decoded, 1);
	PTU_EQ(src.id, -1);
	while (pft_input_next(in, &item, sizeof(item)) == 0) {
		PTU_CHECK(item.type == PFT_ITEM_PACKET && item.etm3 != NULL);
		if (n < 2)
			types[n] = item.etm3->type;
		if (item.etm3->type == PFT_ETM3_PKT_ISYNC)
			isync_addr = item.etm3->addr;
		n++;
	}
	PTU_EQ(n, 2);
	PTU_EQ(types[0], PFT_ETM3_PKT_ASYNC);
	PTU_EQ(types[1], PFT_ETM3_PKT_ISYNC);
	PTU_EQ(isync_addr, 0x80001000u);
	pft_input_free(in);
}

static void formatted_without_etm3(void)
{
	static const uint8_t zeros[64];
	struct pft_etm3_config cfg;
	struct pft_input *in = packets_input();

	pft_etm3_config_init(&cfg);
	/* No source in it at all, read as frames or raw: refused at once,
	 * as every command refuses it. */
	PTU_EQ(pft_input_open_file(in, write_file("z.bin", zeros, sizeof(zeros)),
				   PFT_PIPE_FORMATTED), -PFT_ERR_NO_SOURCE);
	PTU_CHECK(strstr(input_error(in), "not a CoreSight formatted buffer") != NULL);
	pft_input_free(in);
	/* The raw stream given as frames: the option that fits is named. */
	in = packets_input();
	PTU_EQ(pft_input_open_file(in, write_file("r.bin", stream, sizeof(stream)),
				   PFT_PIPE_FORMATTED), -PFT_ERR_NO_SOURCE);
	PTU_CHECK(strstr(input_error(in), "this is raw ETMv3 trace, not a formatted buffer: "
				       "try --raw") != NULL);
	pft_input_free(in);
}

static void tc2_buffer(void)
{
	const char *shared = getenv("PFT_SHARED");
	struct pft_etm3_config cfg;
	struct pft_input_source src;
	struct pft_input *in = packets_input();
	char path[4096];
	unsigned etm3_ids = 0, others = 0;

	PTU_CHECK(shared != NULL);
	if (!shared)
		return;
	snprintf(path, sizeof(path), "%s/testdata/opencsd-snapshots/TC2/cstrace.bin", shared);
	pft_etm3_config_init(&cfg);
	/* device_5.ini's registers (ETM_0); the others' differ in the ID only. */
	PTU_EQ(pft_etm3_config_from_regs(&cfg, 0x10001860, 0x344008F2, 0x410CF250, 0x10), 0);
	PTU_EQ(pft_input_open_file(in, path, PFT_PIPE_FORMATTED), 0);
	PTU_EQ(pft_input_add_etm3(in, -1, &cfg), 3);
	for (size_t i = 0; pft_input_source(in, i, &src, sizeof(src)) == 0; i++) {
		if (src.decoded) {
			PTU_EQ(src.protocol, PFT_PROTO_ETMV3);
			PTU_CHECK(src.id >= 0x10 && src.id <= 0x12);
			etm3_ids |= 1u << (src.id - 0x10);
		} else {
			PTU_CHECK(src.protocol != PFT_PROTO_ETMV3);
			others += src.id == 0x13 && src.protocol == PFT_PROTO_PTM;
		}
	}
	PTU_EQ(etm3_ids, 7);
	PTU_EQ(others, 1);
	pft_input_free(in);
}

/* pft_input_config.ids: the sources of the IDs given, with their ETMv3
 * configuration (pft_input_add_etm3() with -1), in a formatted file and in
 * the snapshot; an ID the snapshot has no source for is refused; a bit
 * outside 0x01-0x6f is an invalid configuration. */
static void id_set(void)
{
	const char *shared = getenv("PFT_SHARED");
	struct pft_input_config ic = { .size = sizeof(ic), .packets = 1, .id = -1 };
	struct pft_etm3_config cfg;
	struct pft_input_source src;
	struct pft_input *in;
	char path[4096];
	unsigned decoded = 0;
	int err;

	PTU_CHECK(shared != NULL);
	if (!shared)
		return;
	ic.ids[0x10 / 8] |= 1u << (0x10 % 8);
	ic.ids[0x12 / 8] |= 1u << (0x12 % 8);
	snprintf(path, sizeof(path), "%s/testdata/opencsd-snapshots/TC2/cstrace.bin", shared);
	pft_etm3_config_init(&cfg);
	PTU_EQ(pft_etm3_config_from_regs(&cfg, 0x10001860, 0x344008F2, 0x410CF250, 0x10), 0);
	in = pft_input_alloc(&ic, NULL);
	PTU_EQ(pft_input_open_file(in, path, PFT_PIPE_FORMATTED), 0);
	PTU_EQ(pft_input_add_etm3(in, -1, &cfg), 2);
	for (size_t i = 0; pft_input_source(in, i, &src, sizeof(src)) == 0; i++) {
		PTU_EQ(src.decoded, 1);
		decoded |= 1u << (src.id - 0x10);
	}
	PTU_EQ(decoded, 5);
	pft_input_free(in);

	/* The snapshot: the two devices, and 0x13 with @id. */
	snprintf(path, sizeof(path), "%s/testdata/opencsd-snapshots/TC2", shared);
	ic.id = 0x13;
	in = pft_input_alloc(&ic, NULL);
	PTU_EQ(pft_input_open_snapshot(in, path), 0);
	decoded = 0;
	for (size_t i = 0; pft_input_source(in, i, &src, sizeof(src)) == 0; i++)
		if (src.decoded)
			decoded |= 1u << (src.id - 0x10);
	PTU_EQ(decoded, 13);
	pft_input_free(in);
	ic.ids[0x22 / 8] |= 1u << (0x22 % 8);
	in = pft_input_alloc(&ic, NULL);
	PTU_EQ(pft_input_open_snapshot(in, path), -PFT_ERR_NO_SOURCE);
	PTU_CHECK(strstr(input_error(in), "no PTM or ETMv3 with trace ID 0x22") != NULL);
	pft_input_free(in);

	/* Reserved IDs. */
	memset(ic.ids, 0, sizeof(ic.ids));
	ic.ids[0] = 1;   /* ID 0 */
	PTU_CHECK(pft_input_alloc(&ic, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	ic.ids[0] = 0;
	ic.ids[0x70 / 8] = 1u << (0x70 % 8);
	PTU_CHECK(pft_input_alloc(&ic, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	ic.ids[0x70 / 8] = 0;
	ic.ids[15] = 0x80;   /* ID 0x7f */
	PTU_CHECK(pft_input_alloc(&ic, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	ic.ids[15] = 0;
	ic.ids[0x6f / 8] = 1u << (0x6f % 8);
	in = pft_input_alloc(&ic, &err);
	PTU_CHECK(in != NULL);
	pft_input_free(in);
}

int main(void)
{
	static const char *const files[] = { "f.bin", "r.bin", "z.bin" };

	if (!mkdtemp(dir))
		return 1;
	PTU_RUN(bad_arguments);
	PTU_RUN(raw_stream);
	PTU_RUN(formatted_without_etm3);
	PTU_RUN(tc2_buffer);
	PTU_RUN(id_set);
	ptu_remove_dir(dir, files, sizeof(files) / sizeof(files[0]));
	PTU_MAIN_END();
}
