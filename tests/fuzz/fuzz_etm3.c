/* fuzz_etm3 - the ETMv3 packet and flow decoders in every configuration.
 *
 * Input: byte 0 selects the configuration (bit 0 cycle-accurate, bits 2:1
 * context ID bytes 0/1/2/4, bit 3 64-bit timestamps, bit 4 Gray-coded
 * timestamps, bit 5 alternative branch encoding, bit 6 data values, bit 7
 * data addresses), byte 1 more of it (bit 0 data-only, bit 1
 * virtualization, bits 4:2 minor version, bit 5 M profile) and seeds the
 * feed sizes; the rest is the stream, which is also the memory image at
 * address 0.
 *
 * Properties (pft.h, etm3 section):
 *  - every byte is in exactly one packet, in order, and pkt.raw holds it;
 *  - status 0 <=> not BAD; BAD comes with BAD_OPCODE, BAD_PACKET or
 *    TRUNCATED (only after finish); before the first A-sync and after a
 *    BAD packet only NOTSYNC bytes come, up to an A-sync;
 *  - the packets do not depend on how the stream is cut into feeds
 *    (NOTSYNC runs may be cut differently);
 *  - the flow decoder takes every packet, its elements are well formed
 *    (ranges of 1+ instructions, known types; M profile: Thumb ranges,
 *    exceptions numbered as the IPSR) and its instruction count is the
 *    sum of its ranges.
 */
#include <string.h>

#include "fuzz_util.h"
#include "pft.h"

enum { MAX_PKTS = 4096 };

struct run {
	struct pft_etm3_packet p[MAX_PKTS];
	int status[MAX_PKTS];
	size_t n;
};

static void add(struct run *run, const struct pft_etm3_packet *pkt, int status)
{
	if (pkt->type == PFT_ETM3_PKT_NOTSYNC && run->n &&
	    run->p[run->n - 1].type == PFT_ETM3_PKT_NOTSYNC) {
		struct pft_etm3_packet *prev = &run->p[run->n - 1];
		FUZZ_CHECK(prev->offset + prev->size == pkt->offset);
		prev->size = (uint16_t)(prev->size + pkt->size);
		return;
	}
	if (run->n == MAX_PKTS)
		return;
	run->p[run->n] = *pkt;
	run->p[run->n].raw = NULL;
	run->status[run->n++] = status;
}

struct flow_check {
	struct pft_etm3_flow *f;
	uint64_t insns;
	int m_profile;
};

static void take_elems(struct flow_check *fc)
{
	struct pft_elem e;
	int n = 0;

	while (pft_etm3_flow_next(fc->f, &e, sizeof(e)) == 0) {
		FUZZ_CHECK(e.type < PFT_ELEM_TYPE_MAX);
		if (e.type == PFT_ELEM_RANGE) {
			FUZZ_CHECK(e.ninsn >= 1);
			FUZZ_CHECK(e.last >= e.start || e.ninsn > 1);
			FUZZ_CHECK(!fc->m_profile || e.isa == PFT_ISA_THUMB);
			fc->insns += e.ninsn;
		}
		if (e.type == PFT_ELEM_EXCEPTION && fc->m_profile)
			FUZZ_CHECK(e.profile == PFT_PROFILE_M &&
				   pft_etm3_m_exception_etm(e.exception) > 0);
		FUZZ_CHECK(++n <= 64);
	}
	FUZZ_CHECK(pft_etm3_flow_insn_count(fc->f) == fc->insns);
}

static void decode(const struct pft_etm3_config *cfg, const uint8_t *s, size_t len,
		   uint32_t seed, struct run *run, struct flow_check *fc)
{
	struct pft_etm3_pkt_decoder *d = pft_etm3_pkt_alloc(cfg, NULL);
	uint64_t next_offset = 0;
	size_t pos = 0;
	int synced = 0, finished = 0;

	FUZZ_CHECK(d);
	for (int idle = 0;; idle++) {
		if (pos < len) {
			size_t n = seed ? fuzz_next_cut(&seed, 24) : len - pos;
			if (n > len - pos)
				n = len - pos;
			FUZZ_CHECK(pft_etm3_pkt_feed(d, s + pos, n) == 0);
			pos += n;
			idle = 0;
		} else {
			finished = 1;
			FUZZ_CHECK(idle < 4);
			FUZZ_CHECK(pft_etm3_pkt_finish(d) == 0);
		}
		for (size_t calls = 0;; calls++) {
			struct pft_etm3_packet p;
			FUZZ_CHECK(calls <= len + 2);
			int st = pft_etm3_pkt_next(d, &p, sizeof(p));
			if (st == -PFT_ERR_NEED_INPUT)
				break;
			if (st == -PFT_ERR_EOS) {
				FUZZ_CHECK(finished && next_offset == len);
				pft_etm3_pkt_free(d);
				return;
			}
			FUZZ_CHECK(p.offset == next_offset);
			FUZZ_CHECK(p.size >= 1 && p.size <= 20);
			FUZZ_CHECK(p.offset + p.size <= len);
			FUZZ_CHECK(p.raw && !memcmp(p.raw, s + p.offset, p.size));
			FUZZ_CHECK(p.type < PFT_ETM3_PKT_TYPE_MAX);
			next_offset += p.size;
			if (st == 0) {
				FUZZ_CHECK(p.type != PFT_ETM3_PKT_BAD);
				if (p.type == PFT_ETM3_PKT_ASYNC)
					synced = 1;
				FUZZ_CHECK((p.type == PFT_ETM3_PKT_NOTSYNC) == !synced ||
					   p.type == PFT_ETM3_PKT_ASYNC);
			} else {
				FUZZ_CHECK(p.type == PFT_ETM3_PKT_BAD && synced);
				FUZZ_CHECK(st == -PFT_ERR_BAD_OPCODE || st == -PFT_ERR_BAD_PACKET ||
					   (st == -PFT_ERR_TRUNCATED && finished));
				synced = 0;
			}
			add(run, &p, st);
			if (fc) {
				FUZZ_CHECK(pft_etm3_flow_put(fc->f, &p, sizeof(p)) == 0);
				take_elems(fc);
			}
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t ctxid_bytes[4] = { 0, 1, 2, 4 };
	static struct run whole, cut;
	struct pft_etm3_config cfg;

	if (size < 3)
		return 0;
	pft_etm3_config_init(&cfg);
	cfg.cycle_accurate = data[0] & 1;
	cfg.ctxid_bytes = ctxid_bytes[(data[0] >> 1) & 3];
	cfg.ts_64bit = (data[0] >> 3) & 1;
	cfg.ts_gray = (data[0] >> 4) & 1;
	cfg.alt_branch = (data[0] >> 5) & 1;
	cfg.data_value = (data[0] >> 6) & 1;
	cfg.data_address = (data[0] >> 7) & 1;
	cfg.data_only = data[1] & 1;
	cfg.virtualization = (data[1] >> 1) & 1;
	cfg.version_minor = (data[1] >> 2) & 7;
	cfg.m_profile = (data[1] >> 5) & 1;
	const uint8_t *s = data + 2;
	const size_t len = size - 2;

	struct pft_image *img = pft_image_alloc(NULL);
	FUZZ_CHECK(img);
	FUZZ_CHECK(pft_image_add_buffer(img, 0, s, len, PFT_SPACE_ANY, 0) >= 0);
	struct flow_check fc = { pft_etm3_flow_alloc(&cfg, img, NULL), 0, cfg.m_profile };
	FUZZ_CHECK(fc.f);

	whole.n = cut.n = 0;
	decode(&cfg, s, len, 0, &whole, &fc);
	FUZZ_CHECK(pft_etm3_flow_finish(fc.f) == 0);
	take_elems(&fc);
	decode(&cfg, s, len, data[1] | 1u, &cut, NULL);
	FUZZ_CHECK(whole.n == cut.n);
	for (size_t i = 0; i < whole.n; i++)
		FUZZ_CHECK(whole.status[i] == cut.status[i] &&
			   !memcmp(&whole.p[i], &cut.p[i], sizeof(whole.p[i])));

	/* reset gives a decoder that behaves as a new one. */
	FUZZ_CHECK(pft_etm3_flow_reset(fc.f) == 0);
	FUZZ_CHECK(pft_etm3_flow_insn_count(fc.f) == 0);
	pft_etm3_flow_free(fc.f);
	pft_image_free(img);
	return 0;
}
