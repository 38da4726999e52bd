/* Detection: the configuration of a PTM stream, from a bounded prefix.
 *
 * The options that change packet lengths (cycle-accurate mode, context ID
 * size, timestamp width) are found by decoding the prefix under each of
 * the 16 combinations and keeping the one with the fewest bad or
 * implausible packets.  The others are read off the winner's packets
 * (timestamps, VMID, version, Gray coding) or, with an image, off flow
 * decodes (return stack, branch broadcast, DMB/DSB waypoints).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptm/pft_detect_ptm.h"
#include "pft.h"
#include "common/pft_size.h"
#include "image/pft_image_int.h"

enum {
	ISYNC_INFO = 5,         /* PTM I-sync: header, 4 address bytes, info */
	RETSTACK_DEPTH = 16
};

/* Reserved information bits set (7 and 4, pft-protocol.md 5.2; bit 0
 * reads 1 in every capture but is not relied on), or an ARM address with
 * bit 1 set, or AltIS in ARM state: bytes that are not really a PTM
 * I-sync. */
static int isync_implausible(const struct pft_ptm_packet *pkt)
{
	uint8_t info = pkt->raw[ISYNC_INFO];
	int thumb = pkt->raw[1] & 1;

	if (info & 0x90)
		return 1;
	return !thumb && ((pkt->addr & 2) || (info & 4));
}

/* Mix @v into FNV-1a hash @h. */
static uint64_t mix(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++, v >>= 8)
		h = (h ^ (v & 0xff)) * 0x100000001b3ull;
	return h;
}

/* What a packet says, for the signature: two readings whose packets say
 * the same give the same decode. */
static uint64_t packet_signature(uint64_t h, const struct pft_ptm_packet *p)
{
	h = mix(h, (uint64_t)p->type | (uint64_t)p->n_atoms << 8 | (uint64_t)p->atoms << 16 |
		   (uint64_t)p->has_cycles << 24 | (uint64_t)p->isa << 32 |
		   (uint64_t)p->has_ctxid << 40 | (uint64_t)p->vmid << 48);
	h = mix(h, (uint64_t)p->addr << 32 | p->cycles);
	h = mix(h, (uint64_t)p->ctxid << 32 | p->exception);
	return mix(h, p->type == PFT_PTM_PKT_TIMESTAMP ? p->ts_raw : 0);
}

static void scan_packet(struct pft_ptm_detect_scan *s, const struct pft_ptm_packet *pkt,
			int *synced, int *have_ctxid, uint32_t *ctxid,
			int *have_ts, uint64_t *last_ts)
{
	if (*synced)
		s->signature = packet_signature(s->signature, pkt);
	switch (pkt->type) {
	case PFT_PTM_PKT_ASYNC:
		s->asyncs++;
		*synced = 1;
		break;
	case PFT_PTM_PKT_BAD:
		if (*synced && pkt->bad != PFT_ERR_PKT_TRUNCATED)
			s->bad++;
		break;
	case PFT_PTM_PKT_ISYNC:
		s->isyncs++;
		s->implausible += (uint32_t)isync_implausible(pkt);
		s->hyp_isyncs += pkt->hyp;
		if (pkt->has_ctxid) {
			if (*have_ctxid && pkt->ctxid != *ctxid)
				s->ctxid_jumps++;
			*have_ctxid = 1;
			*ctxid = pkt->ctxid;
		}
		break;
	case PFT_PTM_PKT_CONTEXTID:
		s->ctxids++;
		*have_ctxid = 1;
		*ctxid = pkt->ctxid;
		break;
	case PFT_PTM_PKT_VMID:
		s->vmids++;
		break;
	case PFT_PTM_PKT_EXCEPTION_RETURN:
		s->exc_returns++;
		break;
	case PFT_PTM_PKT_TIMESTAMP: {
		uint64_t raw = pkt->ts_raw;
		s->timestamps++;
		if (*have_ts)
			detect_ts_falls(*last_ts, raw, &s->ts_falls_binary, &s->ts_falls_gray);
		*have_ts = 1;
		*last_ts = raw;
		break;
	}
	default:
		break;
	}
}

int pft_ptm_detect_scan(const uint8_t *buf, size_t len, const struct pft_ptm_config *cfg,
		    struct pft_ptm_detect_scan *scan)
{
	struct pft_ptm_packet pkts[64];
	int err = 0, synced = 0, have_ctxid = 0, have_ts = 0;
	uint32_t ctxid = 0;
	uint64_t last_ts = 0;
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(cfg, &err);

	memset(scan, 0, sizeof(*scan));
	scan->signature = 0xcbf29ce484222325ull;
	if (!d)
		return err;
	if (len)
		pft_ptm_pkt_feed(d, buf, len);
	pft_ptm_pkt_finish(d);
	for (;;) {
		int n = pft_ptm_pkt_next_batch(d, pkts, 64, sizeof(pkts[0]));
		if (n == -PFT_ERR_EOS)
			break;
		if (n < 0) {
			if (pkts[0].type != PFT_PTM_PKT_BAD)
				break;
			n = 1;
		}
		for (int i = 0; i < n; i++)
			scan_packet(scan, &pkts[i], &synced, &have_ctxid, &ctxid,
				    &have_ts, &last_ts);
	}
	pft_ptm_pkt_free(d);
	return 0;
}

/* Parse candidates in order of preference on a tie: fewest context ID
 * bytes, then not cycle-accurate, then 64-bit timestamps (the v1.1 reset
 * default of the Cortex-A15, and pft_ptm_config_init()'s). */
static void candidate_config(unsigned index, struct pft_ptm_config *cfg)
{
	static const uint8_t ctxid_sizes[4] = { 0, 1, 2, 4 };

	pft_ptm_config_init(cfg);
	cfg->ctxid_bytes = ctxid_sizes[index / 4];
	cfg->cycle_accurate = (index / 2) & 1;
	cfg->ts_64bit = !(index & 1);
}

/* Evidence from one flow decode of the prefix. */
struct flow_scan {
	uint32_t errors, nacc;
	uint32_t direct_by_atom, direct_by_branch; /* taken direct branches */
	uint32_t returns_to_stack_top; /* by branch packet, to the pushed return address */
};

static void flow_evidence(struct flow_scan *fs, const struct pft_elem *e,
			  const struct pft_ptm_packet *pkt, uint32_t *stack,
			  unsigned *depth)
{
	switch (e->type) {
	case PFT_ELEM_ERROR:
		fs->errors++;
		return;
	case PFT_ELEM_ADDR_NACC:
		fs->nacc++;
		return;
	case PFT_ELEM_TRACE_ON:
		*depth = 0;
		return;
	case PFT_ELEM_RANGE:
		break;
	default:
		return;
	}
	if (!e->taken)
		return;
	if (e->iclass == PFT_ICLASS_CALL || e->iclass == PFT_ICLASS_JUMP) {
		if (pkt->type == PFT_PTM_PKT_BRANCH)
			fs->direct_by_branch++;
		else if (pkt->type == PFT_PTM_PKT_ATOM)
			fs->direct_by_atom++;
	}
	if (e->iclass == PFT_ICLASS_RETURN && pkt->type == PFT_PTM_PKT_BRANCH &&
	    *depth > 0) {
		if (stack[*depth - 1] == pkt->addr)
			fs->returns_to_stack_top++;
		(*depth)--;
	}
	if (e->iclass == PFT_ICLASS_CALL || e->iclass == PFT_ICLASS_INDIRECT_CALL) {
		if (*depth == RETSTACK_DEPTH) {
			memmove(stack, stack + 1, (RETSTACK_DEPTH - 1) * sizeof(*stack));
			(*depth)--;
		}
		stack[(*depth)++] = e->end;
	}
}

static int flow_scan(const uint8_t *buf, size_t len, const struct pft_ptm_config *cfg,
		     struct pft_image *image, struct flow_scan *fs)
{
	int err = 0;
	uint32_t stack[RETSTACK_DEPTH];
	unsigned depth = 0;
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(cfg, &err);
	struct pft_ptm_flow *f = d ? pft_ptm_flow_alloc(cfg, image, &err) : NULL;

	memset(fs, 0, sizeof(*fs));
	if (!f) {
		pft_ptm_pkt_free(d);
		return err;
	}
	if (len)
		pft_ptm_pkt_feed(d, buf, len);
	pft_ptm_pkt_finish(d);
	for (;;) {
		struct pft_ptm_packet pkt;
		struct pft_elem e;
		int st = pft_ptm_pkt_next(d, &pkt, sizeof(pkt));
		if (st == -PFT_ERR_EOS || (st < 0 && pkt.type != PFT_PTM_PKT_BAD))
			break;
		if (pft_ptm_flow_put(f, &pkt, sizeof(pkt)) < 0)
			break;
		while (pft_ptm_flow_next(f, &e, sizeof(e)) == 0)
			flow_evidence(fs, &e, &pkt, stack, &depth);
	}
	pft_ptm_flow_free(f);
	pft_ptm_pkt_free(d);
	return 0;
}

/* The flow options: return stack, branch broadcast, DMB/DSB waypoints, in
 * order of preference on a tie (nothing enabled first).  A PTM cannot
 * have the return stack with branch broadcast. */
static const uint8_t flow_options[][3] = {
	{ 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 }, { 1, 0, 1 }, { 0, 1, 1 }
};
enum { FLOW_OPTIONS = sizeof(flow_options) / sizeof(flow_options[0]) };

static int detect_flow_options(const uint8_t *buf, size_t len,
			       struct pft_image *image,
			       struct pft_detect_ptm_result *res)
{
	struct flow_scan scans[FLOW_OPTIONS];
	uint32_t best = UINT32_MAX;
	unsigned winner = 0;

	for (unsigned i = 0; i < FLOW_OPTIONS; i++) {
		struct pft_ptm_config cfg = res->config;
		cfg.return_stack = flow_options[i][0];
		cfg.branch_broadcast = flow_options[i][1];
		cfg.dmb_dsb_waypoints = flow_options[i][2];
		int err = flow_scan(buf, len, &cfg, image, &scans[i]);
		if (err < 0)
			return err;
		uint32_t score = scans[i].errors + scans[i].nacc;
		if (score < best) {
			best = score;
			winner = i;
		}
	}
	res->flow_errors = scans[winner].errors;
	/* Flow errors under every setting: the image is not the code that
	 * ran (or not at its address), and whichever setting errs least is
	 * chance: none is chosen. */
	if (scans[winner].errors > 0)
		return 0;
	res->config.return_stack = flow_options[winner][0];
	res->config.branch_broadcast = flow_options[winner][1];
	res->config.dmb_dsb_waypoints = flow_options[winner][2];

	/* A field is decided when every option set as good as the winner
	 * agrees on it. */
	int agree[3] = { 1, 1, 1 };
	for (unsigned i = 0; i < FLOW_OPTIONS; i++) {
		if (scans[i].errors + scans[i].nacc != best)
			continue;
		for (unsigned k = 0; k < 3; k++)
			agree[k] &= flow_options[i][k] == flow_options[winner][k];
	}
	/* Branch broadcast shows in how taken direct branches are traced. */
	const struct flow_scan *plain = &scans[0];
	if (plain->direct_by_atom + plain->direct_by_branch > 0) {
		res->config.branch_broadcast = plain->direct_by_branch > plain->direct_by_atom;
		if (res->config.branch_broadcast)
			res->config.return_stack = 0;
		agree[1] = 1;
	}
	/* Returns traced by address although the return address was known:
	 * a PTM with its return stack on would have sent an E atom. */
	if (!res->config.return_stack && plain->returns_to_stack_top > 0 &&
	    !res->config.branch_broadcast)
		agree[0] = 1;
	/* A PTM has no return stack with branch broadcast. */
	if (agree[1] && res->config.branch_broadcast)
		agree[0] = 1;
	if (agree[0])
		res->determined |= PFT_DETECT_RETURN_STACK;
	if (agree[1])
		res->determined |= PFT_DETECT_BRANCH_BROADCAST;
	if (agree[2])
		res->determined |= PFT_DETECT_DMB_DSB;
	return 0;
}

/* Timestamps, VMID, Gray coding and version, from the winner's packets. */
static void packet_options(const struct pft_ptm_detect_scan *s,
			   struct pft_detect_ptm_result *res)
{
	struct pft_ptm_config *c = &res->config;

	c->timestamps = s->timestamps > 0;
	if (s->timestamps > 0 || s->isyncs >= 2)
		res->determined |= PFT_DETECT_TIMESTAMPS;
	c->vmid = s->vmids > 0;
	if (s->vmids > 0 || s->isyncs >= 2)
		res->determined |= PFT_DETECT_VMID;
	if (s->ts_falls_binary != s->ts_falls_gray) {
		c->ts_gray = s->ts_falls_gray < s->ts_falls_binary;
		res->determined |= PFT_DETECT_TS_GRAY;
	}
	/* A full 48-bit timestamp ends without a continuation bit, so it
	 * parses the same in 64-bit mode: only 64-bit streams are told apart
	 * (by the 48-bit reading failing). */
	int wide = (res->determined & PFT_DETECT_TS_64BIT) && c->ts_64bit;
	if (s->vmids || s->exc_returns || s->hyp_isyncs || wide) {
		c->version_minor = 1;
		res->determined |= PFT_DETECT_VERSION;
	} else if (c->timestamps && c->ts_gray &&
		   (res->determined & PFT_DETECT_TS_GRAY)) {
		/* 48-bit Gray is PFTv1.0's only timestamp format. */
		c->version_minor = 0;
		c->ts_64bit = 0;
	}
	if (c->vmid)
		c->virtualization = 1;
}

/* The fewest error and ADDR_NACC elements of any flow option set, for a
 * parse configuration. */
static int best_flow_score(const uint8_t *buf, size_t len, const struct pft_ptm_config *parse,
			   struct pft_image *image, uint32_t *score)
{
	*score = UINT32_MAX;
	for (unsigned i = 0; i < FLOW_OPTIONS; i++) {
		struct pft_ptm_config cfg = *parse;
		struct flow_scan fs;
		cfg.return_stack = flow_options[i][0];
		cfg.branch_broadcast = flow_options[i][1];
		cfg.dmb_dsb_waypoints = flow_options[i][2];
		int err = flow_scan(buf, len, &cfg, image, &fs);
		if (err < 0)
			return err;
		if (fs.errors + fs.nacc < *score)
			*score = fs.errors + fs.nacc;
	}
	return 0;
}

int pft_detect_ptm(const uint8_t *buf, size_t len, struct pft_image *image,
		   struct pft_detect_ptm_result *res, size_t size)
{
	struct pft_ptm_detect_scan scans[PFT_DETECT_MAX_CANDIDATES];
	uint32_t flow_scores[PFT_DETECT_MAX_CANDIDATES];
	uint32_t best = UINT32_MAX, best_flow = UINT32_MAX;
	unsigned winner = 0;
	int tied[PFT_DETECT_MAX_CANDIDATES];
	unsigned added[PFT_DETECT_MAX_CANDIDATES];
	unsigned ntied = 0;

	if (!res || size < sizeof(*res) || (!buf && len))
		return -PFT_ERR_INVALID;
	if (len > PFT_DETECT_PREFIX)
		len = PFT_DETECT_PREFIX;
	if (!pft_image_has_code(image))
		image = NULL;   /* an empty image tells nothing */
	memset(res, 0, sizeof(*res));
	res->size = sizeof(*res);
	pft_ptm_config_init(&res->config);
	res->examined = len;

	for (unsigned i = 0; i < PFT_DETECT_MAX_CANDIDATES; i++) {
		struct pft_ptm_config cfg;
		candidate_config(i, &cfg);
		int err = pft_ptm_detect_scan(buf, len, &cfg, &scans[i]);
		if (err < 0)
			return err;
		if (detect_ptm_score(&scans[i]) < best)
			best = detect_ptm_score(&scans[i]);
	}
	for (unsigned i = 0; i < PFT_DETECT_MAX_CANDIDATES; i++)
		if ((tied[i] = detect_ptm_score(&scans[i]) == best))
			ntied++;
	/* Readings the packets cannot tell apart may differ in flow: a
	 * non-cycle-accurate stream read as cycle-accurate has one atom per
	 * atom packet, and the program then disagrees. */
	if (image && ntied > 1) {
		for (unsigned i = 0; i < PFT_DETECT_MAX_CANDIDATES; i++) {
			struct pft_ptm_config cfg;
			if (!tied[i])
				continue;
			candidate_config(i, &cfg);
			int err = best_flow_score(buf, len, &cfg, image, &flow_scores[i]);
			if (err < 0)
				return err;
			if (flow_scores[i] < best_flow)
				best_flow = flow_scores[i];
		}
		for (unsigned i = 0; i < PFT_DETECT_MAX_CANDIDATES; i++)
			tied[i] = tied[i] && flow_scores[i] == best_flow;
	}
	while (!tied[winner])
		winner++;

	const struct pft_ptm_detect_scan *w = &scans[winner];
	candidate_config(winner, &res->config);
	res->errors = best;
	res->asyncs = w->asyncs;
	res->isyncs = w->isyncs;
	if (w->asyncs == 0)
		return -PFT_ERR_NOSYNC;

	res->determined = PFT_DETECT_CYCLE_ACCURATE | PFT_DETECT_CTXID_BYTES |
			  PFT_DETECT_TS_64BIT;
	for (unsigned i = winner; i < PFT_DETECT_MAX_CANDIDATES; i++) {
		struct pft_ptm_config cfg;
		if (!tied[i])
			continue;
		candidate_config(i, &cfg);
		/* A reading whose packets say what an earlier one's say is
		 * no choice (a field no packet exercises): not a candidate. */
		int same = 0;
		for (unsigned k = 0; k < res->ncandidates; k++)
			same |= scans[added[k]].signature == scans[i].signature;
		if (!same) {
			added[res->ncandidates] = i;
			struct pft_detect_candidate *c = &res->candidates[res->ncandidates++];
			c->cycle_accurate = cfg.cycle_accurate;
			c->ctxid_bytes = cfg.ctxid_bytes;
			c->ts_64bit = cfg.ts_64bit;
			c->bad = best;
		}
		if (cfg.cycle_accurate != res->config.cycle_accurate)
			res->determined &= ~(uint32_t)PFT_DETECT_CYCLE_ACCURATE;
		if (cfg.ctxid_bytes != res->config.ctxid_bytes)
			res->determined &= ~(uint32_t)PFT_DETECT_CTXID_BYTES;
		if (cfg.ts_64bit != res->config.ts_64bit)
			res->determined &= ~(uint32_t)PFT_DETECT_TS_64BIT;
	}
	packet_options(w, res);
	if (image)
		return detect_flow_options(buf, len, image, res);
	return 0;
}

uint32_t pft_detect_needs_image(const struct pft_image *image)
{
	return pft_image_has_code(image) ? 0 : PFT_DETECT_RETURN_STACK |
		PFT_DETECT_BRANCH_BROADCAST | PFT_DETECT_DMB_DSB;
}

int pft_ptm_config_options(const struct pft_ptm_config *cfg, char *buf, size_t len)
{
	struct pft_ptm_config def;
	size_t used = 0;
	int truncated = 0;

	if (!cfg || !buf || cfg->size < PFT_FIRST_SIZE(struct pft_ptm_config))
		return -PFT_ERR_INVALID;
	pft_ptm_config_init(&def);
	if (len)
		buf[0] = 0;

#define OPT(...)                                                              \
	do {                                                                  \
		int n_ = snprintf(buf + used, len > used ? len - used : 0,    \
				  "%s" __VA_ARGS__);                          \
		if (n_ < 0 || (size_t)n_ >= (len > used ? len - used : 0))    \
			truncated = 1;                                        \
		used += n_ > 0 ? (size_t)n_ : 0;                              \
	} while (0)
	const char *sep = "";
	if (cfg->cycle_accurate) {
		OPT("--cycle-accurate", sep);
		sep = " ";
	}
	if (cfg->ctxid_bytes) {
		OPT("--ctxid-bytes %u", sep, cfg->ctxid_bytes);
		sep = " ";
	}
	if (cfg->timestamps) {
		OPT("--timestamps", sep);
		sep = " ";
	}
	/* PFTv1.0 implies 48-bit Gray timestamps (pft_ptm_config_from_regs). */
	if (cfg->version_minor == 0) {
		OPT("--pft-version 1.0", sep);
		sep = " ";
	} else {
		if (cfg->ts_64bit != def.ts_64bit) {
			OPT("--ts-bits 48", sep);
			sep = " ";
		}
		if (cfg->ts_gray) {
			OPT("--ts-gray", sep);
			sep = " ";
		}
	}
	if (cfg->vmid) {
		OPT("--vmid", sep);
		sep = " ";
	}
	if (cfg->return_stack) {
		OPT("--return-stack", sep);
		sep = " ";
	}
	if (cfg->branch_broadcast) {
		OPT("--branch-broadcast", sep);
		sep = " ";
	}
	if (cfg->dmb_dsb_waypoints)
		OPT("--dmb-dsb-waypoints", sep);
#undef OPT
	if (truncated) {
		if (len)
			buf[len - 1] = 0;
		return -PFT_ERR_NOSPACE;
	}
	return (int)used;
}
