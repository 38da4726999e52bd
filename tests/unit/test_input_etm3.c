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
	PTU_EQ(pft_input_open_file(in, write_file("f.bin", stream, sizeof(stream)),
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
	PTU_EQ(pft_input_open_file(in, write_file("z.bin", zeros, sizeof(zeros)),
				   PFT_PIPE_FORMATTED), 0);
	PTU_EQ(pft_input_add_etm3(in, -1, &cfg), -PFT_ERR_NO_SOURCE);
	PTU_CHECK(strstr(input_error(in), "no ETMv3 trace source") != NULL);
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

int main(void)
{
	static const char *const files[] = { "f.bin", "r.bin", "z.bin" };

	if (!mkdtemp(dir))
		return 1;
	PTU_RUN(bad_arguments);
	PTU_RUN(raw_stream);
	PTU_RUN(formatted_without_etm3);
	PTU_RUN(tc2_buffer);
	ptu_remove_dir(dir, files, sizeof(files) / sizeof(files[0]));
	PTU_MAIN_END();
}
