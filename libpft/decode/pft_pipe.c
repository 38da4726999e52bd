/*
 * The decode pipeline: one trace buffer's bytes, deformatted and routed by
 * trace ID to per-source packet and flow decoders, drained as items in
 * trace order.  It is the only place where frames and packets meet
 * (ARCHITECTURE.md: "only the pipeline joins them").
 *
 * Pull model: pft_pipe_next() does just enough work for one item.  The
 * source being drained keeps a batch of packets; each packet is handed to
 * the flow decoder before it is returned, and its elements come next.
 * A deformatter chunk is fed to its source only once the previous one is
 * used up, so the packet decoder's borrowed input stays valid.
 *
 * Each source's decoders are driven through its protocol's table
 * (core/pft_proto.h).  Formatted input: the consecutive chunks of a source
 * whose protocol is staged (PTM) are staged (pft_stage.h), handed over
 * when the stage fills or another source's chunk, a gap or the end of the
 * input comes; the others' chunks go to their decoders as they come.
 */
#include <stdlib.h>
#include <string.h>

#include "common/pft_size.h"
#include "core/pft_proto.h"
#include "decode/pft_batch.h"
#include "decode/pft_detect.h"
#include "decode/pft_stage.h"
#include "pft.h"
#include "ptm/pft_pkt_decoder.h"

enum {
	PKT_BATCH = 64,   /* packets decoded at once, at most */
	ELEM_ROOM = PKT_BATCH * PFT_FLOW_ELEMS_MAX,
	ID_COUNT = 128,   /* trace IDs are 7 bits */
	NO_SOURCE = -1
};

struct source {
	const struct pft_proto *proto;
	int id;
	void *pkt, *flow;            /* the protocol's decoders */
	/* A batch of packets and the elements decoded with them. */
	unsigned char *pkts;         /* PKT_BATCH packets of the protocol */
	struct pft_elem *elems;
	uint16_t elem_end[PKT_BATCH];
	struct pft_batch batch;      /* over these */
	int flushed;                 /* the flow decoder gave what it held back */
	struct pft_pipe_stats stats;
	struct pft_fit *fit;         /* with fit_check */
	uint64_t fit_bytes;          /* packet bytes given to it */
	/* Counting only (pft_pipe_count_into()): what is counted without
	 * items goes there. */
	struct pft_input_counts *counts;
	/* Formatted staged sources: stream -> input offsets (stats.bytes is
	 * the next stream offset); map.e NULL for the others. */
	struct stage_map map;
};

struct pft_pipe {
	struct pft_pipe_config cfg;
	struct pft_dfmt *dfmt;
	struct source **src;
	size_t nsrc;
	int16_t by_id[ID_COUNT];
	uint64_t id_bytes[ID_COUNT];

	const uint8_t *raw_buf;      /* RAW: fed bytes not yet given on */
	size_t raw_len;
	uint64_t offset;             /* bytes fed so far */
	int fed;                     /* input given and not yet used up */
	int finishing;
	size_t next_to_finish;       /* sources whose decoder was finished */

	int cur;                     /* source being drained, or NO_SOURCE */

	/* Formatted: the staged bytes of source @stage_src (or NO_SOURCE),
	 * fed once @stage_feeding, and what came after them. */
	struct stage stage;
	int stage_src;
	int stage_feeding;
	struct stage_held held;

	/* A gap being reported to every source in turn. */
	int gap_active;
	size_t gap_next;
	int gap_status;
	uint64_t gap_offset;
};

const struct pft_proto *pft_proto_of(unsigned protocol)
{
	return protocol == PFT_PROTO_PTM ? &pft_ptm_proto
	       : protocol == PFT_PROTO_ETMV3 ? &pft_etm3_proto : NULL;
}

const char *pft_protocol_name(unsigned protocol)
{
	static const char *const names[PFT_PROTO_MAX] = {
		"unknown", "ptm", "etmv3", "etmv4", "stm", "itm"
	};

	return protocol < PFT_PROTO_MAX ? names[protocol] : "unknown";
}

struct pft_pipe *pft_pipe_alloc(const struct pft_pipe_config *cfg, int *errcode)
{
	struct pft_pipe *p = NULL;
	int err = -PFT_ERR_INVALID;

	if (!cfg || cfg->size < PFT_FIRST_SIZE(struct pft_pipe_config) || cfg->format > PFT_PIPE_TPIU ||
	    !(cfg->packets || cfg->elements) || cfg->fit_check > 1 || cfg->runs > 1)
		goto fail;
	err = -PFT_ERR_NOMEM;
	p = calloc(1, sizeof(*p));
	if (!p)
		goto fail;
	pft_copy_known(&p->cfg, cfg, cfg->size, sizeof(p->cfg));
	p->cfg.size = sizeof(p->cfg);
	p->cur = NO_SOURCE;
	p->stage_src = NO_SOURCE;
	for (int i = 0; i < ID_COUNT; i++)
		p->by_id[i] = NO_SOURCE;
	if (cfg->format != PFT_PIPE_RAW) {
		struct pft_dfmt_config dc = { .size = sizeof(dc),
					      .tpiu = cfg->format == PFT_PIPE_TPIU };
		p->dfmt = pft_dfmt_alloc(&dc, &err);
		if (!p->dfmt)
			goto fail;
		err = -PFT_ERR_NOMEM;
		p->stage.buf = malloc(STAGE_BYTES);
		if (!p->stage.buf)
			goto fail;
	}
	if (errcode)
		*errcode = 0;
	return p;
fail:
	pft_pipe_free(p);
	if (errcode)
		*errcode = err;
	return NULL;
}

static void free_source(struct source *s)
{
	s->proto->pkt_free(s->pkt);
	s->proto->flow_free(s->flow);
	pft_fit_free(s->fit);
	free(s->pkts);
	free(s->elems);
	free(s->map.e);
	free(s);
}

void pft_pipe_free(struct pft_pipe *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nsrc; i++)
		free_source(p->src[i]);
	free(p->src);
	pft_dfmt_free(p->dfmt);
	free(p->stage.buf);
	free(p);
}

/* A new, empty source of trace ID @id in *@out (room made for it):
 * 0, or -PFT_ERR_INVALID/NOMEM. */
static int new_source(struct pft_pipe *p, int id, const struct pft_proto *proto,
		      struct source **out)
{
	if (p->offset || p->finishing || p->nsrc >= UINT16_MAX)
		return -PFT_ERR_INVALID;
	if (p->cfg.format == PFT_PIPE_RAW ? p->nsrc != 0
	    : id < 1 || id > PFT_ID_MAX_VALID || p->by_id[id] != NO_SOURCE)
		return -PFT_ERR_INVALID;
	struct source **v = realloc(p->src, (p->nsrc + 1) * sizeof(*v));
	if (!v)
		return -PFT_ERR_NOMEM;
	p->src = v;
	if (!(*out = calloc(1, sizeof(**out))))
		return -PFT_ERR_NOMEM;
	(*out)->proto = proto;
	return 0;
}

static int commit_source(struct pft_pipe *p, struct source *s, int id)
{
	int raw = p->cfg.format == PFT_PIPE_RAW;

	s->id = raw ? 0 : id;
	if (!raw)
		p->by_id[id] = (int16_t)p->nsrc;
	p->src[p->nsrc] = s;
	return (int)p->nsrc++;
}

/* A source of protocol @proto with configuration @cfg (the protocol's):
 * its index, or a negative code.  The fit check is PTM's (@ptm_cfg). */
static int add_source(struct pft_pipe *p, int id, const struct pft_proto *proto,
		      const void *cfg, const struct pft_ptm_config *ptm_cfg, struct pft_image *image)
{
	struct source *s;
	int err;

	if (!p || !cfg)
		return -PFT_ERR_INVALID;
	if ((err = new_source(p, id, proto, &s)) < 0)
		return err;
	s->pkt = proto->pkt_alloc(cfg, &err);
	if (s->pkt && !(s->pkts = malloc((size_t)proto->batch_max * proto->packet_size)))
		err = -PFT_ERR_NOMEM;
	if (s->pkts && p->cfg.elements) {
		s->flow = proto->flow_alloc(cfg, image, &err);
		s->elems = malloc(ELEM_ROOM * sizeof(*s->elems));
		if (s->flow && !s->elems) {
			proto->flow_free(s->flow);
			s->flow = NULL;
			err = -PFT_ERR_NOMEM;
		}
	}
	if (s->pkts && (!p->cfg.elements || s->flow) && p->cfg.fit_check && ptm_cfg)
		s->fit = pft_fit_alloc(ptm_cfg, image, &err);
	if (p->dfmt && proto->staged && !(s->map.e = malloc(STAGE_MAP_ROOM * sizeof(*s->map.e))))
		err = -PFT_ERR_NOMEM;
	if (!s->pkts || (p->cfg.elements && !s->flow) ||
	    (p->cfg.fit_check && ptm_cfg && !s->fit) || (p->dfmt && proto->staged && !s->map.e)) {
		free_source(s);
		return err;
	}
	return commit_source(p, s, id);
}

int pft_pipe_add_ptm(struct pft_pipe *p, int id, const struct pft_ptm_config *cfg,
		     struct pft_image *image)
{
	return add_source(p, id, &pft_ptm_proto, cfg, cfg, image);
}

int pft_pipe_add_etm3(struct pft_pipe *p, int id, const struct pft_etm3_config *cfg,
		      struct pft_image *image)
{
	return add_source(p, id, &pft_etm3_proto, cfg, NULL, image);
}

int pft_pipe_feed(struct pft_pipe *p, const uint8_t *buf, size_t len)
{
	if (!p || !buf || !len || p->fed || p->finishing)
		return -PFT_ERR_INVALID;
	if (p->dfmt) {
		int err = pft_dfmt_feed(p->dfmt, buf, len);
		if (err < 0)
			return err;
	} else {
		p->raw_buf = buf;
		p->raw_len = len;
	}
	p->fed = 1;
	p->offset += len;
	return 0;
}

int pft_pipe_finish(struct pft_pipe *p)
{
	if (!p)
		return -PFT_ERR_INVALID;
	if (!p->finishing && p->dfmt)
		pft_dfmt_finish(p->dfmt);
	p->finishing = 1;
	return 0;
}

uint64_t pft_pipe_get_offset(const struct pft_pipe *p)
{
	return p ? p->offset : 0;
}

int pft_pipe_source_stats(const struct pft_pipe *p, unsigned source,
			  struct pft_pipe_stats *st, size_t size)
{
	if (!p || !st || size < sizeof(*st) || source >= p->nsrc)
		return -PFT_ERR_INVALID;
	memset(st, 0, size);
	*st = p->src[source]->stats;
	return 0;
}

uint64_t pft_pipe_id_bytes(const struct pft_pipe *p, unsigned id)
{
	return p && id < ID_COUNT ? p->id_bytes[id] : 0;
}

int pft_pipe_fit(const struct pft_pipe *p, unsigned source, struct pft_fit_verdict *v,
		 size_t size)
{
	if (!p || source >= p->nsrc || !p->src[source]->fit)
		return -PFT_ERR_INVALID;
	return pft_fit_report(p->src[source]->fit, v, size);
}

static void start_gap(struct pft_pipe *p, uint64_t offset, int status)
{
	p->gap_active = 1;
	p->gap_next = 0;
	p->gap_status = status;
	p->gap_offset = offset;
}

/* The next source's share of the gap: reset or resynchronise its
 * decoders, then tell the caller. */
static int next_gap_item(struct pft_pipe *p, struct pft_item *item)
{
	if (p->gap_next >= p->nsrc) {
		p->gap_active = 0;
		return 0;
	}
	size_t i = p->gap_next++;
	struct source *s = p->src[i];

	/* Reset, the decoder holds no bytes whose offsets are mapped;
	 * resynchronised, it may. */
	if (p->gap_status == 0) {
		s->proto->pkt_reset(s->pkt);
		s->map.n = s->map.at = 0;
	} else {
		s->proto->pkt_sync_forward(s->pkt);
	}
	if (s->flow)
		s->proto->flow_reset(s->flow);
	s->batch.npkts = s->batch.ipkt = s->batch.ielem = 0;
	if (p->gap_status)
		s->stats.errors++;
	item->type = PFT_ITEM_GAP;
	item->protocol = s->proto->protocol;
	item->source = (uint16_t)i;
	item->status = p->gap_status;
	item->offset = p->gap_offset;
	return 1;
}

static void src_feed(struct source *s, const uint8_t *buf, size_t len, uint64_t offset)
{
	s->proto->pkt_feed_at(s->pkt, buf, len, offset);
	s->stats.bytes += len;
}

/* A bad packet has cost staged source @s its sync: its NOTSYNC packets
 * end where the chunk does. */
static void cut_at_chunk_end(struct pft_pipe *p, struct source *s)
{
	if (p->stage_feeding && p->src[p->stage_src] == s)
		s->stats.bytes -= stage_cut_at_chunk_end(&p->stage, &s->map, s->pkt);
}

/* The end of source @s's stream: what its flow decoder held back, as a
 * batch of elements without a packet: 1, or 0 when there is none. */
static int flush_batch(struct source *s)
{
	if (!s->flow || !s->proto->flow_finish || s->flushed)
		return 0;
	s->flushed = 1;
	int n = s->proto->flow_finish(s->flow, s->elems, ELEM_ROOM);
	if (n < 0)
		return n;
	s->elem_end[0] = (uint16_t)n;
	s->batch = (struct pft_batch){ .pkts = NULL, .protocol = s->proto->protocol,
				       .elems = s->elems, .elem_end = s->elem_end,
				       .npkts = 1, .ipkt = 1 };
	return n > 0;
}

/* A new batch of packets for source @s, with their elements: 1, or 0
 * when its decoder needs input (or has ended), or a fatal negative code. */
static int next_batch(struct pft_pipe *p, struct source *s)
{
	const struct pft_proto *proto = s->proto;
	/* Counting only, one packet: the atoms and branches after it are
	 * passed over. */
	int got = proto->pkt_next_batch(s->pkt, s->pkts, s->counts && !s->flow ? 1 : proto->batch_max);

	if (got == -PFT_ERR_NEED_INPUT)
		return 0;
	if (got == -PFT_ERR_EOS)
		return flush_batch(s);
	if (got < 0 && s->pkts[proto->type_offset] != proto->bad_type)
		return -PFT_ERR_INTERNAL;
	s->batch = (struct pft_batch){ .pkts = s->pkts, .pkt_size = proto->packet_size,
				       .protocol = proto->protocol,
				       .elems = s->flow ? s->elems : NULL,
				       .elem_end = s->elem_end, .npkts = got > 0 ? got : 1,
				       .status = got > 0 ? 0 : got };
	if (s->map.e) {
		/* Staged: PTM packets. */
		struct pft_ptm_packet *pkts = (struct pft_ptm_packet *)s->pkts;
		if (got < 0)
			cut_at_chunk_end(p, s);
		for (int k = 0; k < s->batch.npkts; k++)
			pkts[k].offset = stage_input_offset(&s->map, pkts[k].offset);
	}
	if (!s->flow)
		return 1;
	size_t end[PKT_BATCH];
	int n = proto->flow_decode(s->flow, s->pkts, s->batch.npkts, s->elems, ELEM_ROOM, end);
	/* The room is enough for every packet, and they come from the decoder. */
	if (n != s->batch.npkts)
		return -PFT_ERR_INTERNAL;
	for (int k = 0; k < n; k++)
		s->elem_end[k] = (uint16_t)end[k];
	return 1;
}

/* Packet @k of batch @b: its statistics, and its fit check (PTM only). */
static void account_packet(struct pft_batch *b, struct pft_pipe_stats *stats,
			   struct pft_fit *fit, uint64_t *fit_bytes, int k)
{
	if (fit)
		ptm_fit_packet(fit, fit_bytes, (const struct pft_ptm_packet *)b->pkts + k, b->status);
	if (!stats)
		return;
	stats->packets++;
	if (b->status < 0)
		stats->errors++;
}

static void account_elem(struct pft_pipe_stats *stats, struct pft_fit *fit,
			 const struct pft_elem *e)
{
	if (stats && e->type == PFT_ELEM_RANGE)
		stats->insns += e->ninsn;
	if (fit)
		ptm_fit_elem(fit, e);
}

void pft_batch_fit(const struct pft_batch *b, struct pft_fit *fit, uint64_t *fit_bytes,
		   int ipkt, int ielem)
{
	/* In locals: the calls may write *@b as far as C knows.  Fit checks
	 * are of PTM sources. */
	const struct pft_ptm_packet *pkts = (const struct pft_ptm_packet *)b->pkts;
	const struct pft_elem *elems = b->elems;
	const uint16_t *elem_end = b->elem_end;
	const int npkts = b->npkts;

	while (ipkt < npkts) {
		/* Past its detection prefix and the range after an I-sync, the
		 * fit check looks only at the packets it counts and at elements
		 * other than ranges: go to the first packet with either. */
		if (*fit_bytes >= PFT_DETECT_PREFIX && !fit->first_after_isync) {
			int k = ipkt;
			while (k < npkts && !(PFT_FIT_COUNTED_TYPES >> pkts[k].type & 1))
				k++;
			int e = ielem, before = elems && k > ipkt ? elem_end[k - 1] : ielem;
			while (e < before && elems[e].type == PFT_ELEM_RANGE)
				e++;
			if (e < before)
				for (k = ipkt; elem_end[k] <= e; k++)
					;
			if (k == npkts)
				return;
			ipkt = k;
			ielem = e;
		}
		ptm_fit_packet(fit, fit_bytes, &pkts[ipkt], b->status);
		for (; elems && ielem < elem_end[ipkt]; ielem++)
			ptm_fit_elem(fit, &elems[ielem]);
		ipkt++;
	}
}

int pft_batch_item(struct pft_batch *b, int packets, int runs, struct pft_pipe_stats *stats,
		   struct pft_fit *fit, uint64_t *fit_bytes, struct pft_item *item)
{
	for (;;) {
		/* The elements of the packet returned last. */
		if (b->elems && b->ipkt && b->ielem < b->elem_end[b->ipkt - 1]) {
			int end = runs ? b->elem_end[b->ipkt - 1] : b->ielem + 1;
			item->type = PFT_ITEM_ELEM;
			pft_batch_item_packet(b, b->ipkt - 1, item);
			item->elem = &b->elems[b->ielem];
			item->count = (uint32_t)(end - b->ielem);
			while (b->ielem < end)
				account_elem(stats, fit, &b->elems[b->ielem++]);
			return 1;
		}
		if (b->ipkt >= b->npkts)
			return 0;
		if (packets) {
			int end = runs && !b->elems ? b->npkts : b->ipkt + 1;
			item->type = PFT_ITEM_PACKET;
			item->status = b->status;
			pft_batch_item_packet(b, b->ipkt, item);
			item->count = (uint32_t)(end - b->ipkt);
			while (b->ipkt < end)
				account_packet(b, stats, fit, fit_bytes, b->ipkt++);
			return 1;
		}
		if (!runs) {
			account_packet(b, stats, fit, fit_bytes, b->ipkt++);
			continue;
		}
		/* Elements only, in runs: the rest of the batch at once. */
		int ipkt = b->ipkt, first = b->ielem;
		int end = b->elems ? b->elem_end[b->npkts - 1] : first;
		if (fit)
			pft_batch_fit(b, fit, fit_bytes, ipkt, first);
		/* Without @stats the elements stay untouched: the run's consumer
		 * is the first to read them (the lines of another core's). */
		if (stats) {
			uint64_t insns = 0;
			for (int k = first; k < end; k++)
				insns += b->elems[k].type == PFT_ELEM_RANGE ? b->elems[k].ninsn : 0;
			stats->insns += insns;
			stats->packets += (uint64_t)(b->npkts - ipkt);
			if (b->status < 0)
				stats->errors += (uint64_t)(b->npkts - ipkt);
		}
		b->ipkt = b->npkts;
		b->ielem = end;
		if (end > first) {
			while (b->elem_end[ipkt] <= first)
				ipkt++;
			item->type = PFT_ITEM_ELEM;
			pft_batch_item_packet(b, ipkt, item);
			item->elem = &b->elems[first];
			item->count = (uint32_t)(end - first);
			return 1;
		}
	}
}

/* Counting elements only: source @s's new batch (no bad packet in it)
 * goes to its counts, statistics and fit check at once, packet by packet
 * with its elements after it, as pft_batch_item() would give them. */
static void count_batch(struct source *s)
{
	struct pft_batch *b = &s->batch;
	const int nelems = b->elem_end[b->npkts - 1];
	uint64_t insns = s->counts->insns;

	ptm_count_elems(s->counts, b->elems, (size_t)nelems);
	s->stats.insns += s->counts->insns - insns;
	s->stats.packets += (uint64_t)b->npkts;
	if (s->fit)
		pft_batch_fit(b, s->fit, &s->fit_bytes, 0, 0);
	b->ipkt = b->npkts;
	b->ielem = nelems;
}

/* The source being drained's next item: 1, 0 when it needs input (or
 * has ended), or a fatal negative code. */
static int drain(struct pft_pipe *p, struct source *s, struct pft_item *item)
{
	int r;

	item->protocol = s->proto->protocol;
	item->source = (uint16_t)p->cur;
	item->count = 1;
	while (!pft_batch_item(&s->batch, p->cfg.packets, p->cfg.runs, &s->stats, s->fit,
			       &s->fit_bytes, item)) {
		if (s->counts && !s->flow)
			s->stats.packets += ptm_skip_counted(s->pkt, UINT64_MAX, s->counts, s->fit,
							     &s->fit_bytes);
		if ((r = next_batch(p, s)) <= 0)
			return r;
		if (s->counts && s->flow && !s->batch.status)
			count_batch(s);
	}
	return 1;
}

int pft_pipe_count_into(struct pft_pipe *p, unsigned source, struct pft_input_counts *c)
{
	if (!p || source >= p->nsrc || !c)
		return -PFT_ERR_INVALID;
	struct source *s = p->src[source];
	/* Packets with their elements come back as items.  Counting in place
	 * needs the PTM decoder's skipping. */
	if (s->proto->staged && !(s->flow && p->cfg.packets))
		s->counts = c;
	return 0;
}

/* Give the staged source its next bytes (pft_stage.h).  It is drained
 * next. */
static void feed_stage(struct pft_pipe *p)
{
	struct source *s = p->src[p->stage_src];
	size_t end = stage_feed_end(&p->stage, &s->map, s->pkt);

	src_feed(s, p->stage.buf + p->stage.fed, end - p->stage.fed, s->stats.bytes);
	p->stage.fed = end;
	p->stage_feeding = 1;
	p->cur = p->stage_src;
}

/* Formatted input: deformat until a source has bytes to decode.  Returns 2
 * with a gap item in *@item, 1 when there is something to drain, or 0 when
 * the deformatter needs input or has ended. */
static int refill_formatted(struct pft_pipe *p, struct pft_item *item)
{
	if (p->stage_feeding) {
		if (p->stage.fed < p->stage.len) {
			feed_stage(p);
			return 1;
		}
		p->stage_feeding = 0;
		p->stage_src = NO_SOURCE;
		p->stage.len = p->stage.fed = 0;
	}
	for (;;) {
		struct pft_dfmt_chunk c;
		int fresh, idx = NO_SOURCE;
		uint64_t err_offset;
		int r = stage_next_chunk(&p->held, p->dfmt, &c, &err_offset, &fresh);

		if (r == 0 && !(c.flags & PFT_DFMT_DISCONTINUITY)) {
			idx = p->by_id[c.id & (ID_COUNT - 1)];
			if (idx == NO_SOURCE || !c.len) {
				p->id_bytes[c.id & (ID_COUNT - 1)] += c.len;
				continue;
			}
		}
		/* The staged bytes come before anything that is not theirs. */
		if (p->stage_src != NO_SOURCE &&
		    (idx != p->stage_src || !stage_room(&p->stage, &p->src[idx]->map, c.len))) {
			stage_hold(&p->held, &c, r, err_offset);
			feed_stage(p);
			return 1;
		}
		if (r == -PFT_ERR_NEED_INPUT || r == -PFT_ERR_EOS)
			return 0;
		if (r < 0 || (c.flags & PFT_DFMT_DISCONTINUITY)) {
			/* A discontinuity, or a frame dropped (or cut off at the end). */
			start_gap(p, r < 0 ? err_offset : c.offset, r);
			return next_gap_item(p, item) ? 2 : 1;
		}
		p->id_bytes[c.id & (ID_COUNT - 1)] += c.len;
		struct source *s = p->src[idx];
		if (!s->proto->staged) {
			src_feed(s, c.data, c.len, c.offset);
			p->cur = idx;
			return 1;
		}
		if (c.len > STAGE_BYTES) /* longer than any frame's data */
			return -PFT_ERR_INTERNAL;
		if (p->stage_src == NO_SOURCE) {
			stage_begin(&p->stage, &s->map, s->pkt, s->stats.bytes);
			p->stage_src = idx;
		}
		stage_add(&p->stage, &s->map, c.data, c.len, c.offset);
	}
}

/* Give the current source more bytes, or end it.  Returns 1 when there
 * is something to drain, 0 when input is needed or all has ended
 * (*@eos then tells which), or a negative code. */
static int refill(struct pft_pipe *p, struct pft_item *item, int *eos)
{
	*eos = 0;
	if (!p->dfmt) {
		if (p->raw_buf) {
			if (p->nsrc) {
				src_feed(p->src[0], p->raw_buf, p->raw_len, p->offset - p->raw_len);
				p->cur = 0;
			}
			p->id_bytes[0] += p->raw_len;
			p->raw_buf = NULL;
			return p->nsrc != 0;
		}
	} else {
		int r = refill_formatted(p, item);
		if (r)
			return r;
	}
	p->fed = 0;
	if (!p->finishing)
		return 0;
	/* End every source's packet decoder, one at a time. */
	if (p->next_to_finish < p->nsrc) {
		p->cur = (int)p->next_to_finish++;
		p->src[p->cur]->proto->pkt_finish(p->src[p->cur]->pkt);
		return 1;
	}
	*eos = 1;
	return 0;
}

int pft_pipe_next(struct pft_pipe *p, struct pft_item *item, size_t size)
{
	if (!p || !item || size < PFT_ITEM_SIZE_0_5)
		return -PFT_ERR_INVALID;
	/* Cleared field by field: this runs once per item, on the hot path.
	 * (A caller built against 0.5 has no room for the time.) */
	if (size >= sizeof(*item)) {
		item->time = 0;
		item->timed = 0;
		if (size > sizeof(*item))
			memset((char *)item + sizeof(*item), 0, size - sizeof(*item));
	}
	item->status = 0;
	item->offset = 0;
	item->ptm = NULL;
	item->elem = NULL;
	item->etm3 = NULL;
	item->count = 1;
	for (;;) {
		if (p->gap_active) {
			if (next_gap_item(p, item))
				return 0;
			continue;
		}
		if (p->cur != NO_SOURCE) {
			int r = drain(p, p->src[p->cur], item);
			if (r)
				return r < 0 ? r : 0;
			p->cur = NO_SOURCE;
			continue;
		}
		int eos, r = refill(p, item, &eos);
		if (r < 0)
			return r;
		if (r == 2)
			return 0;
		if (r == 0)
			return eos ? -PFT_ERR_EOS : -PFT_ERR_NEED_INPUT;
	}
}
