/* fuzz_pkt - the packet decoder in every configuration.
 *
 * Input: byte 0 selects the configuration (bit 0 cycle-accurate, bits 2:1
 * context ID bytes 0/1/2/4, bit 3 64-bit timestamps, bit 4 Gray-coded
 * timestamps, bit 5 PFT v1.1, bit 6 VMID), byte 1 seeds the sizes the
 * stream is fed in; the rest is the stream.
 *
 * Properties (pft.h, packet decoder section):
 *  - every byte is in exactly one packet, in order, and pkt.raw holds it;
 *  - a packet has 1-16 bytes; status 0 <=> not BAD; BAD comes with
 *    BAD_OPCODE, BAD_PACKET or TRUNCATED (TRUNCATED only after finish);
 *  - before the first A-sync and after a BAD packet only NOTSYNC bytes come,
 *    up to an A-sync;
 *  - the packets do not depend on how the stream is cut into feeds (NOTSYNC
 *    runs may be split differently) nor on whether they are taken one by
 *    one or in batches (pft_ptm_pkt_next_batch(), where a BAD packet comes
 *    alone), and pft_ptm_pkt_reset() gives a decoder that behaves as a new one.
 */
#include <stddef.h>
#include <string.h>

#include "fuzz_util.h"
#include "pft.h"

struct rec {
	struct pft_ptm_packet pkt;   /* raw cleared */
	int status;
};

struct run {
	struct rec *r;
	size_t n, cap;
};

static void add(struct run *run, const struct pft_ptm_packet *pkt, int status)
{
	/* Adjacent NOTSYNC runs are merged: their split depends on the feeds. */
	if (pkt->type == PFT_PTM_PKT_NOTSYNC && run->n &&
	    run->r[run->n - 1].pkt.type == PFT_PTM_PKT_NOTSYNC) {
		struct pft_ptm_packet *prev = &run->r[run->n - 1].pkt;
		FUZZ_CHECK(prev->offset + prev->size == pkt->offset);
		prev->size = (uint16_t)(prev->size + pkt->size);
		return;
	}
	FUZZ_CHECK(run->n < run->cap);
	struct rec *r = &run->r[run->n++];
	memcpy(&r->pkt, pkt, sizeof(*pkt));
	r->pkt.raw = NULL;
	/* The tail padding is unspecified (a packet built by a compound
	 * literal need not zero it): only the members are compared. */
	const size_t end = offsetof(struct pft_ptm_packet, addr_bits) + sizeof(pkt->addr_bits);
	memset((uint8_t *)&r->pkt + end, 0, sizeof(r->pkt) - end);
	r->status = status;
}

static int same(const struct rec *a, const struct rec *b)
{
	if (a->status != b->status)
		return 0;
	return !memcmp(&a->pkt, &b->pkt, sizeof(a->pkt));
}

static void show(const char *what, const struct rec *r)
{
	const struct pft_ptm_packet *p = &r->pkt;

	fprintf(stderr, "  %-5s status %d offset 0x%llx size %u type %s addr 0x%x isa %u "
		"atoms %u/0x%x cycles %u ts 0x%llx bad %u\n", what, r->status,
		(unsigned long long)p->offset, p->size, pft_ptm_pkt_type_name(p->type), p->addr,
		p->isa, p->n_atoms, p->atoms, p->cycles, (unsigned long long)p->ts, p->bad);
}

static void compare(const struct run *a, const struct run *b, const char *how)
{
	for (size_t i = 0; i < a->n || i < b->n; i++) {
		if (i < a->n && i < b->n && same(&a->r[i], &b->r[i]))
			continue;
		fprintf(stderr, "packet %zu differs %s:\n", i, how);
		if (i < a->n)
			show("first", &a->r[i]);
		if (i < b->n)
			show("then", &b->r[i]);
		FUZZ_CHECK(!"the same packets whichever way the stream is fed or taken");
	}
}

struct cursor {
	uint64_t next_offset;
	int synced;          /* an A-sync was seen and no BAD since */
};

static void check_packet(struct cursor *c, const uint8_t *stream, size_t len,
			 const struct pft_ptm_packet *pkt, int status, int finished)
{
	FUZZ_CHECK(pkt->offset == c->next_offset);
	FUZZ_CHECK(pkt->size >= 1 && pkt->size <= 16);
	FUZZ_CHECK(pkt->offset + pkt->size <= len);
	FUZZ_CHECK(pkt->raw && !memcmp(pkt->raw, stream + pkt->offset, pkt->size));
	FUZZ_CHECK(pkt->type < PFT_PTM_PKT_TYPE_MAX);
	c->next_offset += pkt->size;
	if (status == 0) {
		FUZZ_CHECK(pkt->type != PFT_PTM_PKT_BAD);
	} else {
		FUZZ_CHECK(pkt->type == PFT_PTM_PKT_BAD);
		FUZZ_CHECK(status == -PFT_ERR_BAD_OPCODE || status == -PFT_ERR_BAD_PACKET ||
			   (status == -PFT_ERR_TRUNCATED && finished));
		FUZZ_CHECK(c->synced); /* errors only while synchronised */
		c->synced = 0;
		return;
	}
	if (pkt->type == PFT_PTM_PKT_ASYNC)
		c->synced = 1;
	else if (!c->synced)
		FUZZ_CHECK(pkt->type == PFT_PTM_PKT_NOTSYNC);
	else
		FUZZ_CHECK(pkt->type != PFT_PTM_PKT_NOTSYNC);
}

enum { BATCH_MAX = 8 };

/* The next packets: one from pft_ptm_pkt_next(), or with @batch up to that
 * many from pft_ptm_pkt_next_batch().  Returns the count, or the status. */
static int next(struct pft_ptm_pkt_decoder *d, struct pft_ptm_packet *pkts, size_t batch)
{
	if (!batch)
		return pft_ptm_pkt_next(d, pkts, sizeof(*pkts));
	int n = pft_ptm_pkt_next_batch(d, pkts, batch, sizeof(*pkts));
	FUZZ_CHECK(n <= (int)batch);
	/* A BAD packet always comes alone. */
	for (int i = 0; i < n; i++)
		FUZZ_CHECK(pkts[i].type != PFT_PTM_PKT_BAD);
	return n;
}

/* Decode @stream fed in pieces (sizes from @seed; 0 = all at once), taking
 * packets one at a time (@batch 0) or in batches of 1 to @batch. */
static void decode(struct pft_ptm_pkt_decoder *d, const uint8_t *stream, size_t len,
		   uint32_t seed, size_t max_cut, size_t batch, struct run *run)
{
	struct cursor c = { 0, 0 };
	struct pft_ptm_packet pkts[BATCH_MAX];
	size_t pos = 0;
	int finished = 0;

	for (int idle = 0;; idle++) {
		if (pos < len) {
			size_t n = max_cut ? fuzz_next_cut(&seed, max_cut) : len;
			if (n > len - pos)
				n = len - pos;
			FUZZ_CHECK(pft_ptm_pkt_feed(d, stream + pos, n) == 0);
			pos += n;
			idle = 0;
			/* Sometimes finish before taking the last packets. */
			if (pos == len && (seed & 0x10000))
				finished = 1;
		} else {
			finished = 1;
		}
		if (finished) {
			/* "NEED_INPUT: feed more (or finish)": after finish the
			 * decoder may still ask; finishing again must make
			 * progress, never loop. */
			FUZZ_CHECK(idle < 4);
			FUZZ_CHECK(pft_ptm_pkt_finish(d) == 0);
		}
		/* Each call consumes at least one byte or ends the feed. */
		for (size_t calls = 0;; calls++) {
			FUZZ_CHECK(calls <= len + 2);
			size_t want = batch ? fuzz_next_cut(&seed, batch) : 0;
			int n = next(d, pkts, want);
			if (n == -PFT_ERR_NEED_INPUT)
				break;
			if (n == -PFT_ERR_EOS) {
				FUZZ_CHECK(finished);
				FUZZ_CHECK(c.next_offset == len);
				FUZZ_CHECK(pft_ptm_pkt_feed(d, stream, len) == -PFT_ERR_EOS);
				return;
			}
			/* A status (a BAD packet in pkts[0]), or a count. */
			int status = n < 0 ? n : 0;
			int count = batch && n > 0 ? n : 1;
			for (int i = 0; i < count; i++) {
				check_packet(&c, stream, len, &pkts[i], status, finished);
				add(run, &pkts[i], status);
			}
			idle = 0;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t ctxid_bytes[4] = { 0, 1, 2, 4 };
	struct pft_ptm_config cfg;

	if (size < 2)
		return 0;
	pft_ptm_config_init(&cfg);
	cfg.cycle_accurate = data[0] & 1;
	cfg.ctxid_bytes = ctxid_bytes[(data[0] >> 1) & 3];
	cfg.ts_64bit = (data[0] >> 3) & 1;
	cfg.ts_gray = (data[0] >> 4) & 1;
	cfg.version_minor = (data[0] >> 5) & 1;
	cfg.vmid = (data[0] >> 6) & 1;
	cfg.timestamps = 1;
	uint32_t seed = data[1];
	const uint8_t *stream = data + 2;
	size_t len = size - 2;

	int err = 1;
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(&cfg, &err);
	FUZZ_CHECK(d && err == 0);
	struct run whole = { calloc(len + 1, sizeof(struct rec)), 0, len + 1 };
	struct run cut = { calloc(len + 1, sizeof(struct rec)), 0, len + 1 };
	FUZZ_CHECK(whole.r && cut.r);

	decode(d, stream, len, 0, 0, 0, &whole);
	FUZZ_CHECK(pft_ptm_pkt_reset(d) == 0);
	decode(d, stream, len, seed, 1 + seed % 24, 0, &cut);
	compare(&whole, &cut, "when the stream is fed in pieces");
	cut.n = 0;
	FUZZ_CHECK(pft_ptm_pkt_reset(d) == 0);
	decode(d, stream, len, seed ^ 0x55, 1 + (seed >> 3) % 40, BATCH_MAX, &cut);
	compare(&whole, &cut, "when taken in batches");

	free(whole.r);
	free(cut.r);
	pft_ptm_pkt_free(d);
	return 0;
}
