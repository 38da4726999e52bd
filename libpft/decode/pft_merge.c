/*
 * The merge: the items of several sources on one time base (pft.h,
 * section merge).  Each source's items wait in a queue of their own, the
 * first ones with their time known, then those that wait for a timestamp
 * to place them; the merge takes the earliest head when no source can
 * still put anything earlier, or when the window is full.
 */
#include <stdlib.h>
#include <string.h>

#include "decode/pft_batch.h"
#include "decode/pft_merge.h"
#include "common/pft_size.h"

enum { MAX_SOURCES = 65536, RAW_MAX = 24 };

_Static_assert(RAW_MAX >= 20, "room for the longest packet of every protocol");

/* What an item held waits for. */
enum held_state {
	HELD_PENDING = 0,   /* its time: at its source's next timestamp */
	HELD_TIMED,         /* its time is known */
	HELD_UNTIMED        /* it goes out without a time */
};

struct held {
	uint64_t seq;            /* order of arrival, over all sources */
	uint64_t weight;         /* the decode's items it stands for (elem_weight()) */
	uint64_t cyc;            /* its source's cycles since its last timestamp,
				  * up to and including this item's */
	uint64_t time;
	uint64_t offset;         /* GAP */
	int status;
	uint8_t type, protocol, state, has_elem, has_pkt, pkt_size_ok;
	uint16_t source;
	struct pft_elem elem;
	union {
		struct pft_ptm_packet ptm;
		struct pft_etm3_packet etm3;
	} pkt;
	uint8_t raw[RAW_MAX];
};

struct msrc {
	struct pft_merge_source cfg;
	struct held *q;          /* a ring of @cap */
	size_t cap, head, n;
	size_t npending;         /* the last @npending of the queue */
	uint64_t pending_weight; /* theirs */
	int ended;
	int have_ts;             /* a timestamp was read */
	uint64_t t0;             /* the last timestamp (never falling) */
	uint64_t cyc;            /* cycles since it */
	struct pft_merge_stats st;
};

struct pft_merge {
	struct pft_merge_config cfg;
	struct msrc *src;
	size_t nsrc;
	int started, finished;
	uint64_t held;           /* items held, all sources, by their weight */
	uint64_t seq;
	uint64_t held_max;
	int wanted;
	int blocked;             /* @wanted blocks a head that is ready */
	int any_out;             /* @last_out is set */
	uint64_t last_out;       /* the latest time that went out (order) */
	/* What pft_merge_next() returned last: a slot its source's queue no
	 * longer holds, which only the next put can take again. */
	struct held *out;
};

struct pft_merge *pft_merge_alloc(const struct pft_merge_config *cfg, int *errcode)
{
	struct pft_merge_config c = { 0 };
	struct pft_merge *m = NULL;
	int err = -PFT_ERR_INVALID;

	if (cfg && cfg->size >= PFT_FIRST_SIZE(struct pft_merge_config)) {
		pft_copy_known(&c, cfg, cfg->size, sizeof(c));
		if (c.order <= 1 && c.packets <= 1) {
			err = -PFT_ERR_NOMEM;
			m = calloc(1, sizeof(*m));
		}
	}
	if (m) {
		err = 0;
		m->cfg = c;
		m->cfg.size = sizeof(c);
		if (!m->cfg.window)
			m->cfg.window = PFT_MERGE_WINDOW;
		m->wanted = -1;
	}
	if (errcode)
		*errcode = err;
	return m;
}

void pft_merge_free(struct pft_merge *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nsrc; i++)
		free(m->src[i].q);
	free(m->src);
	free(m);
}

int pft_merge_add_source(struct pft_merge *m, const struct pft_merge_source *s)
{
	if (!m || !s || s->size < PFT_FIRST_SIZE(struct pft_merge_source) || m->started ||
	    m->nsrc >= MAX_SOURCES)
		return -PFT_ERR_INVALID;
	struct msrc *v = realloc(m->src, (m->nsrc + 1) * sizeof(*v));
	if (!v)
		return -PFT_ERR_NOMEM;
	m->src = v;
	struct msrc *n = &v[m->nsrc];
	memset(n, 0, sizeof(*n));
	pft_copy_known(&n->cfg, s, s->size, sizeof(n->cfg));
	n->cfg.size = sizeof(n->cfg);
	n->cfg.timestamps = n->cfg.timestamps != 0;
	n->cfg.interpolate = n->cfg.interpolate != 0;
	return (int)m->nsrc++;
}

/* ---- A source's queue ---- */

static struct held *at(const struct msrc *s, size_t k)
{
	return &s->q[(s->head + k) & (s->cap - 1)];   /* @cap: a power of two */
}

static struct held *push(struct msrc *s)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct held *q = malloc(cap * sizeof(*q));
		if (!q)
			return NULL;
		for (size_t k = 0; k < s->n; k++)
			q[k] = *at(s, k);
		free(s->q);
		s->q = q;
		s->cap = cap;
		s->head = 0;
	}
	return at(s, s->n++);
}

/* (D * c) / C for c <= C, C > 0, exactly: the result is at most D. */
static uint64_t scale(uint64_t d, uint64_t c, uint64_t cc)
{
	if (d <= UINT32_MAX && c <= UINT32_MAX)
		return d * c / cc;
	/* d * c / cc = q * c + r * c / cc (d = q * cc + r, r < cc), the
	 * second term by long multiplication, bit by bit of c, keeping the
	 * quotient @part and a remainder @rem < cc (so nothing overflows). */
	uint64_t q = d / cc, r = d % cc, res = q * c, rem = 0, part = 0;
	for (int bit = 63; bit >= 0; bit--) {
		part <<= 1;   /* double (part, rem) */
		if (rem >= cc - rem) {
			rem -= cc - rem;
			part++;
		} else {
			rem += rem;
		}
		if (c >> bit & 1) {   /* add r */
			if (rem >= cc - r) {
				rem -= cc - r;
				part++;
			} else {
				rem += r;
			}
		}
	}
	return res + part;
}

/* The source's pending items get times: at the timestamp @t1 after them
 * (@c1: the cycles up to it; 0: none) or, without one, at @s->t0. */
static void place_pending(struct msrc *s, int have_t1, uint64_t t1, uint64_t c1)
{
	for (size_t k = s->n - s->npending; k < s->n; k++) {
		struct held *h = at(s, k);
		if (!s->have_ts) {
			h->time = t1;
		} else if (have_t1 && s->cfg.interpolate && c1) {
			uint64_t c = h->cyc < c1 ? h->cyc : c1;
			h->time = s->t0 + scale(t1 - s->t0, c, c1);
		} else {
			h->time = s->t0;
		}
		h->state = HELD_TIMED;
	}
	s->npending = 0;
	s->pending_weight = 0;
}

/* ---- Putting ---- */

/* The items of the decode element @e stands for: a range a fold joined
 * (PFT_ELEM_F_FOLDED) counts those it joined, so that the window fills at
 * the same place with a fold as without. */
static uint64_t elem_weight(const struct pft_elem *e)
{
	return e && e->type == PFT_ELEM_RANGE && (e->flags & PFT_ELEM_F_FOLDED) && e->ts ? e->ts : 1;
}

/* Copy packet @pkt of protocol @pr into @h. */
static void hold_packet(struct held *h, const struct pft_proto *pr, const void *pkt)
{
	memcpy(&h->pkt, pkt, pr->packet_size);
	uint16_t size = pft_proto_pkt_size(pr, &h->pkt);
	const uint8_t *raw = pft_proto_pkt_raw(pr, &h->pkt);
	if (size > RAW_MAX) {   /* (no protocol's packet is: kept in bounds all the same) */
		size = RAW_MAX;
		memcpy((unsigned char *)&h->pkt + pr->size_at, &size, sizeof(size));
	}
	if (raw && size)
		memcpy(h->raw, raw, size);
	h->has_pkt = 1;
}

/* One item (of a run, split) into source @s's queue, with what it tells
 * the clock: @cycles, and @is_ts with the timestamp @ts. */
static int hold(struct pft_merge *m, struct msrc *s, const struct pft_item *item,
		const struct pft_elem *e, const void *pkt, const struct pft_proto *pr,
		int is_ts, uint64_t ts, uint64_t cycles)
{
	struct held *h = push(s);

	if (!h)
		return -PFT_ERR_NOMEM;
	h->seq = m->seq++;
	h->type = item->type;
	h->protocol = item->protocol;
	h->source = item->source;
	h->status = item->status;
	h->offset = item->offset;
	h->has_elem = e != NULL;
	h->has_pkt = 0;
	if (e)
		h->elem = *e;
	if (pkt && pr)
		hold_packet(h, pr, pkt);
	h->time = 0;
	h->weight = elem_weight(e);
	m->held += h->weight;
	/* Joined ranges put one by one would have held one over the window
	 * at most: it gives up then. */
	uint64_t most = h->weight > 1 && m->held > m->cfg.window ? m->cfg.window + 1 : m->held;
	if (most > m->held_max)
		m->held_max = most;
	s->st.items += h->weight;
	if (!s->cfg.timestamps) {
		h->state = HELD_UNTIMED;
		return 0;
	}
	s->cyc += cycles;
	h->cyc = s->cyc;
	h->state = HELD_PENDING;
	s->npending++;
	s->pending_weight += h->weight;
	if (is_ts) {
		uint64_t t1 = ts;
		if (!s->st.timestamps++)
			s->st.first_time = ts;
		if (s->have_ts && t1 < s->t0) {
			if (!s->st.backwards++)
				s->st.backwards_offset = e ? e->offset : pft_proto_pkt_offset(pr, pkt);
			t1 = s->t0;
		}
		place_pending(s, 1, t1, s->cyc);
		h->time = t1;   /* itself: at its value, whatever its cycles */
		s->have_ts = 1;
		s->t0 = t1;
		s->cyc = 0;
	} else if (s->have_ts && !s->cfg.interpolate) {
		place_pending(s, 0, 0, 0);
	}
	return 0;
}

/* Whether put_from() goes on to the element or packet at @k: the first
 * always; the others, with @until_full, while the window is not past its
 * size. */
static int put_more(const struct pft_merge *m, uint32_t k, uint32_t from, int until_full)
{
	return k == from || !(until_full && m->held > m->cfg.window);
}

/*
 * Put @item's elements or packets from @from on (a GAP: itself); with
 * @until_full, only up to the one after which the window holds more than
 * its size (at least one).  Returns how many it put, or a negative code.
 */
static int put_from(struct pft_merge *m, const struct pft_item *item, uint32_t from,
		    int until_full)
{
	if (!m || !item || m->finished || item->source >= m->nsrc ||
	    m->src[item->source].ended || (!item->count && item->type != PFT_ITEM_GAP) ||
	    item->type > PFT_ITEM_GAP)
		return -PFT_ERR_INVALID;
	m->started = 1;
	struct msrc *s = &m->src[item->source];
	const struct pft_proto *pr = pft_proto_of(item->protocol);
	const void *pkt0 = item->etm3 ? (const void *)item->etm3 : (const void *)item->ptm;
	int err = 0;
	uint32_t k = from;

	if (item->type == PFT_ITEM_GAP) {
		err = hold(m, s, item, NULL, NULL, NULL, 0, 0, 0);
		return err < 0 ? err : 1;
	}
	if (!pr || (item->type == PFT_ITEM_PACKET ? !pkt0 : !item->elem))
		return -PFT_ERR_INVALID;
	if (item->type == PFT_ITEM_PACKET) {
		while (k < item->count && !err && put_more(m, k, from, until_full)) {
			const void *pkt = (const unsigned char *)pkt0 + (size_t)k++ * pr->packet_size;
			uint64_t ts = 0;
			uint32_t cycles = 0;
			int is_ts = pr->pkt_clock(pkt, &ts, &cycles);
			if (!m->cfg.packets)
				is_ts = 0, cycles = 0;
			err = hold(m, s, item, NULL, pkt, pr, is_ts, ts, cycles);
		}
		return err < 0 ? err : (int)(k - from);
	}
	uint64_t pkt_offset = pkt0 ? pft_proto_pkt_offset(pr, pkt0) : 0;
	while (k < item->count && !err && put_more(m, k, from, until_full)) {
		const struct pft_elem *e = &item->elem[k++];
		int clock = !m->cfg.packets;
		int is_ts = clock && e->type == PFT_ELEM_TIMESTAMP;
		uint64_t cycles = clock && e->has_cycles ? e->cycles : 0;
		/* Its packet: the run's, where it produced the element, and only
		 * when it is a bad packet (what a listing says of the error): a
		 * copy per element cost more than the rest of the merge. */
		const void *pkt = pkt0 && item->status < 0 && e->offset == pkt_offset ? pkt0 : NULL;
		err = hold(m, s, item, e, pkt, pr, is_ts, e->ts, cycles);
	}
	return err < 0 ? err : (int)(k - from);
}

int pft_merge_put(struct pft_merge *m, const struct pft_item *item, size_t size)
{
	if (size < PFT_ITEM_SIZE_0_5)
		return -PFT_ERR_INVALID;
	int r = put_from(m, item, 0, 0);
	return r < 0 ? r : 0;
}

int pft_merge_put_until_full(struct pft_merge *m, const struct pft_item *item, uint32_t from)
{
	return put_from(m, item, from, 1);
}

int pft_merge_end(struct pft_merge *m, unsigned source)
{
	if (!m || source >= m->nsrc)
		return -PFT_ERR_INVALID;
	struct msrc *s = &m->src[source];

	if (s->ended)
		return 0;
	s->ended = 1;
	if (s->npending && s->have_ts) {
		place_pending(s, 0, 0, 0);   /* after the last timestamp */
	} else if (s->npending) {
		/* No timestamp ever: no time. */
		for (size_t k = s->n - s->npending; k < s->n; k++)
			at(s, k)->state = HELD_UNTIMED;
		s->st.untimed += s->pending_weight;
		s->npending = 0;
		s->pending_weight = 0;
	}
	return 0;
}

int pft_merge_finish(struct pft_merge *m)
{
	if (!m)
		return -PFT_ERR_INVALID;
	for (size_t i = 0; i < m->nsrc; i++)
		pft_merge_end(m, (unsigned)i);
	m->finished = 1;
	return 0;
}

/* ---- Taking ---- */

/* Does (time @ta, source @a) come before (time @tb, source @b)? */
static int before(const struct pft_merge *m, uint64_t ta, size_t a, uint64_t tb, size_t b)
{
	if (ta != tb)
		return ta < tb;
	if (m->src[a].cfg.key != m->src[b].cfg.key)
		return m->src[a].cfg.key < m->src[b].cfg.key;
	return a < b;
}

/* Whether source @s's head is ready to go (timed or without time). */
static int head_ready(const struct msrc *s)
{
	return s->n > s->npending;
}

/* Take source @i's head: m->out. */
static void take(struct pft_merge *m, size_t i)
{
	struct msrc *s = &m->src[i];
	struct held *h = at(s, 0);

	m->out = h;
	s->head = (s->head + 1) & (s->cap - 1);
	s->n--;
	m->held -= h->weight;
	if (h->state == HELD_TIMED && m->cfg.order) {
		if (m->any_out && h->time < m->last_out)
			s->st.late++;
		else
			m->last_out = h->time;
		m->any_out = 1;
	}
}

/* Give up on source @s's pending items: they go at its last timestamp,
 * unscaled, or without a time before its first. */
static void give_up_all(struct msrc *s)
{
	if (s->have_ts) {
		s->st.flat += s->pending_weight;
		place_pending(s, 0, 0, 0);
		return;
	}
	for (size_t k = s->n - s->npending; k < s->n; k++)
		at(s, k)->state = HELD_UNTIMED;
	s->st.untimed += s->pending_weight;
	s->npending = 0;
	s->pending_weight = 0;
}

/*
 * give_up_all(), as it would have gone had the ranges a fold joined into
 * the item put last come one by one: the window was passed at one of them
 * (and again every window + 1 after it), and each time every pending item
 * went.  Of the joined ranges only the last one's time is seen (the
 * others' are passed over): it stays pending, standing for those after
 * the last time the window was passed, unless that was at itself.
 */
static void give_up(struct pft_merge *m, struct msrc *s)
{
	struct held *last = s->npending ? at(s, s->n - 1) : NULL;

	if (!last || last->weight < 2 || last->seq + 1 != m->seq) {
		give_up_all(s);
		return;
	}
	uint64_t w = last->weight, window = m->cfg.window, before = m->held - w;
	uint64_t first = before < window ? window - before + 1 : 1;
	uint64_t at_last = first + (w - first) / (window + 1) * (window + 1);
	if (at_last == w) {
		give_up_all(s);
		return;
	}
	/* The others, and the joined items up to the last time, given up:
	 * the last, out of the queue meanwhile, stays pending for the rest. */
	s->n--;
	s->npending--;
	s->pending_weight -= w - at_last;
	give_up_all(s);
	s->n++;
	s->npending = 1;
	last->weight = w - at_last;
	s->pending_weight = last->weight;
	m->held -= at_last;
}

/* The source with the pending item that came first (@with_ts: among
 * those that have a timestamp), or m->nsrc. */
static size_t oldest_pending(const struct pft_merge *m, int with_ts)
{
	size_t best = m->nsrc;
	uint64_t seq = 0;

	for (size_t i = 0; i < m->nsrc; i++) {
		const struct msrc *s = &m->src[i];
		if (!s->npending || s->have_ts != with_ts)
			continue;
		uint64_t first = at(s, s->n - s->npending)->seq;
		if (best == m->nsrc || first < seq) {
			best = i;
			seq = first;
		}
	}
	return best;
}

/* The source whose head goes next, or -1: none may yet (m->wanted then
 * says whose input would settle it: the source that blocks the earliest
 * head, or with no head ready one that has not ended).  @force: the
 * window is full, the earliest head goes whatever blocks it. */
static int pick(struct pft_merge *m, int force)
{
	size_t best = m->nsrc, first = m->nsrc, early = m->nsrc;
	const struct held *hb = NULL, *hf = NULL, *he = NULL;

	m->wanted = -1;
	m->blocked = 0;
	/* One pass over the heads that may go: the first without a time (they
	 * go first, as they came), the earliest arrival (without order), the
	 * earliest time. */
	for (size_t i = 0; i < m->nsrc; i++) {
		const struct msrc *s = &m->src[i];
		if (!head_ready(s))
			continue;
		const struct held *h = at(s, 0);
		if (h->state == HELD_UNTIMED) {
			if (!hf || h->seq < hf->seq)
				first = i, hf = h;
			continue;
		}
		if (!he || h->seq < he->seq)
			early = i, he = h;
		if (!hb || before(m, h->time, i, hb->time, best))
			best = i, hb = h;
	}
	if (first < m->nsrc)
		return (int)first;
	if (!m->cfg.order)
		return early < m->nsrc ? (int)early : -1;
	if (best == m->nsrc) {
		for (size_t i = 0; i < m->nsrc && m->wanted < 0; i++)
			if (!m->src[i].ended && m->src[i].cfg.timestamps)
				m->wanted = (int)i;
		return -1;
	}
	if (force)
		return (int)best;
	uint64_t t = hb->time;
	/* Every other source that may still put an item: is it later? */
	for (size_t i = 0; i < m->nsrc; i++) {
		const struct msrc *s = &m->src[i];
		if (i == best || s->ended || !s->cfg.timestamps || head_ready(s))
			continue;
		/* It holds nothing with a time: its next is at s->t0 at least. */
		if (s->have_ts && before(m, t, best, s->t0, i))
			continue;
		m->wanted = (int)i;
		m->blocked = 1;
		return -1;
	}
	return (int)best;
}

int pft_merge_next(struct pft_merge *m, struct pft_item *item, size_t size)
{
	if (!m || !item || size < PFT_ITEM_SIZE_0_5)
		return -PFT_ERR_INVALID;
	int i = pick(m, 0);

	/* The window is full: give up what unblocks (pft.h says what). */
	while (i < 0 && m->held > m->cfg.window) {
		size_t k = m->nsrc;
		if (m->blocked && m->src[m->wanted].npending && m->src[m->wanted].have_ts)
			k = (size_t)m->wanted;      /* its items wait for a timestamp */
		else if (m->blocked)
			i = pick(m, 1);             /* do not wait for it */
		else if ((k = oldest_pending(m, 1)) == m->nsrc)
			k = oldest_pending(m, 0);
		if (i >= 0 || k == m->nsrc)
			break;
		give_up(m, &m->src[k]);
		i = pick(m, 0);
	}
	if (i < 0) {
		if (m->finished && !m->held)
			return -PFT_ERR_EOS;
		return -PFT_ERR_NEED_INPUT;
	}
	take(m, (size_t)i);

	struct held *h = m->out;
	/* Filled in place, field by field: an item built aside and copied
	 * whole was read back before its stores had landed (a store
	 * forwarding stall, most of the merge's time). */
	struct pft_item whole, *it = size >= sizeof(*item) ? item : &whole;
	it->type = h->type;
	it->protocol = h->protocol;
	it->source = h->source;
	it->status = h->status;
	it->offset = h->offset;
	it->ptm = NULL;
	it->etm3 = NULL;
	it->elem = h->has_elem ? &h->elem : NULL;
	it->count = 1;
	it->reserved = 0;
	if (h->has_pkt) {
		const struct pft_proto *pr = pft_proto_of(h->protocol);
		pft_proto_set_pkt_raw(pr, &h->pkt, h->raw);
		if (h->protocol == PFT_PROTO_ETMV3)
			it->etm3 = &h->pkt.etm3;
		else
			it->ptm = &h->pkt.ptm;
	}
	it->timed = h->state == HELD_TIMED;
	it->time = it->timed ? h->time : 0;
	memset(it->reserved2, 0, sizeof(it->reserved2));
	if (size > sizeof(*item))
		memset((char *)item + sizeof(*item), 0, size - sizeof(*item));
	else if (it == &whole)
		memcpy(item, &whole, size);   /* a caller built against 0.5 */
	return 0;
}

int pft_merge_wanted(const struct pft_merge *m)
{
	return m ? m->wanted : -PFT_ERR_INVALID;
}

int pft_merge_stats(const struct pft_merge *m, unsigned source, struct pft_merge_stats *st,
		    size_t size)
{
	if (!m || !st || size < sizeof(*st) || source >= m->nsrc)
		return -PFT_ERR_INVALID;
	memset(st, 0, size);
	*st = m->src[source].st;
	st->held_max = m->held_max;
	return 0;
}
