/* The merge (pft.h, section merge): times on the common base and the
 * order of several sources, every expected value worked out by hand from
 * the rule in the header. */
#include "ptunit.h"
#include "pft.h"

/* A few elements of one source, put one at a time. */
static struct pft_elem range(uint64_t offset, uint32_t cycles)
{
	return (struct pft_elem){ .offset = offset, .type = PFT_ELEM_RANGE, .start = 0x8000,
				  .end = 0x8004, .last = 0x8000, .ninsn = 1,
				  .has_cycles = cycles != 0, .cycles = cycles };
}

static struct pft_elem stamp(uint64_t offset, uint64_t ts)
{
	return (struct pft_elem){ .offset = offset, .type = PFT_ELEM_TIMESTAMP, .ts = ts };
}

static int put(struct pft_merge *m, unsigned source, const struct pft_elem *e)
{
	struct pft_item it = { .type = PFT_ITEM_ELEM, .protocol = PFT_PROTO_PTM,
			       .source = (uint16_t)source, .elem = e, .count = 1 };
	return pft_merge_put(m, &it, sizeof(it));
}

static struct pft_merge *merge(uint32_t window, int order)
{
	struct pft_merge_config mc = { .size = sizeof(mc), .window = window,
				       .order = (uint8_t)order };
	return pft_merge_alloc(&mc, NULL);
}

static int source(struct pft_merge *m, uint32_t key, int timestamps, int interpolate)
{
	struct pft_merge_source s = { .size = sizeof(s), .key = key,
				      .timestamps = (uint8_t)timestamps,
				      .interpolate = (uint8_t)interpolate };
	return pft_merge_add_source(m, &s);
}

/* The next item's source, offset and time (UINT64_MAX: none), or the code. */
struct got {
	int r;
	unsigned source;
	uint64_t offset, time;
};

static struct got next(struct pft_merge *m)
{
	struct pft_item it;
	struct got g = { .r = pft_merge_next(m, &it, sizeof(it)) };

	if (g.r == 0) {
		g.source = it.source;
		g.offset = it.type == PFT_ITEM_ELEM ? it.elem->offset : it.offset;
		g.time = it.timed ? it.time : UINT64_MAX;
	}
	return g;
}

#define NEXT_IS(m, src, off, t)                                               \
	do {                                                                  \
		struct got g_ = next(m);                                      \
		PTU_EQ(g_.r, 0);                                              \
		PTU_EQ(g_.source, src);                                       \
		PTU_EQ(g_.offset, off);                                       \
		PTU_EQ(g_.time, t);                                           \
	} while (0)

/* Cycle-accurate: the cycles between two timestamps scaled to the ticks
 * between them; before the first, the first; after the last, the last. */
static void interpolation(void)
{
	struct pft_merge *m = merge(0, 1);
	struct pft_elem e[] = { range(1, 7), stamp(2, 100), range(3, 30), range(4, 10),
				stamp(5, 120), range(6, 4), range(7, 8) };

	PTU_EQ(source(m, 0x10, 1, 1), 0);
	PTU_EQ(put(m, 0, &e[0]), 0);
	/* Before the first timestamp: no time yet. */
	PTU_EQ(next(m).r, -PFT_ERR_NEED_INPUT);
	PTU_EQ(pft_merge_wanted(m), 0);
	PTU_EQ(put(m, 0, &e[1]), 0);
	NEXT_IS(m, 0, 1, 100);   /* at the first timestamp */
	NEXT_IS(m, 0, 2, 100);
	PTU_EQ(put(m, 0, &e[2]), 0);
	PTU_EQ(put(m, 0, &e[3]), 0);
	/* Their place waits for the next timestamp. */
	PTU_EQ(next(m).r, -PFT_ERR_NEED_INPUT);
	PTU_EQ(put(m, 0, &e[4]), 0);
	/* 20 ticks for 40 cycles: 30 cycles in, 100 + 20 * 30 / 40 = 115;
	 * 40 cycles in, 120. */
	NEXT_IS(m, 0, 3, 115);
	NEXT_IS(m, 0, 4, 120);
	NEXT_IS(m, 0, 5, 120);
	PTU_EQ(put(m, 0, &e[5]), 0);
	PTU_EQ(put(m, 0, &e[6]), 0);
	PTU_EQ(next(m).r, -PFT_ERR_NEED_INPUT);
	/* The end: after the last timestamp, at it. */
	PTU_EQ(pft_merge_finish(m), 0);
	NEXT_IS(m, 0, 6, 120);
	NEXT_IS(m, 0, 7, 120);
	PTU_EQ(next(m).r, -PFT_ERR_EOS);

	struct pft_merge_stats st;
	PTU_EQ(pft_merge_stats(m, 0, &st, sizeof(st)), 0);
	PTU_EQ(st.items, 7);
	PTU_EQ(st.timestamps, 2);
	PTU_EQ(st.first_time, 100);
	PTU_EQ(st.flat + st.late + st.untimed + st.backwards, 0);
	pft_merge_free(m);
}

/* Not cycle-accurate: the last timestamp, at once; cycles (had it any)
 * change nothing.  Rounding down: 3 ticks over 4 cycles. */
static void flat_and_rounding(void)
{
	struct pft_merge *m = merge(0, 1);
	struct pft_elem e[] = { stamp(1, 50), range(2, 3), stamp(3, 53) };

	PTU_EQ(source(m, 7, 1, 0), 0);
	PTU_EQ(put(m, 0, &e[0]), 0);
	PTU_EQ(put(m, 0, &e[1]), 0);
	NEXT_IS(m, 0, 1, 50);
	NEXT_IS(m, 0, 2, 50);    /* no wait for the next timestamp */
	PTU_EQ(put(m, 0, &e[2]), 0);
	NEXT_IS(m, 0, 3, 53);
	pft_merge_free(m);

	m = merge(0, 1);
	struct pft_elem f[] = { stamp(1, 50), range(2, 1), range(3, 2), stamp(4, 53) };
	PTU_EQ(source(m, 7, 1, 1), 0);
	for (int i = 0; i < 4; i++)
		PTU_EQ(put(m, 0, &f[i]), 0);
	NEXT_IS(m, 0, 1, 50);
	/* 50 + 3 * 1 / 3 = 51; 50 + 3 * 3 / 3 = 53 (C = 3: the timestamp
	 * carries none). */
	NEXT_IS(m, 0, 2, 51);
	NEXT_IS(m, 0, 3, 53);
	NEXT_IS(m, 0, 4, 53);
	pft_merge_free(m);
}

/* Two sources: the order of time, ties by key, each source's own order
 * kept; a source that has put nothing blocks the others. */
static void two_sources(void)
{
	struct pft_merge *m = merge(0, 1);
	/* Source 0 has key 0x11, source 1 key 0x10: on a tie, source 1. */
	struct pft_elem a[] = { stamp(10, 200), range(11, 0), stamp(12, 300), range(13, 0) };
	struct pft_elem b[] = { stamp(20, 100), range(21, 0), stamp(22, 200), range(23, 0),
				stamp(24, 400) };

	PTU_EQ(source(m, 0x11, 1, 0), 0);
	PTU_EQ(source(m, 0x10, 1, 0), 1);
	PTU_EQ(put(m, 0, &a[0]), 0);
	PTU_EQ(put(m, 0, &a[1]), 0);
	/* Source 1 may still put something earlier. */
	PTU_EQ(next(m).r, -PFT_ERR_NEED_INPUT);
	PTU_EQ(pft_merge_wanted(m), 1);
	PTU_EQ(put(m, 1, &b[0]), 0);
	NEXT_IS(m, 1, 20, 100);
	/* Source 1's next is at 100 at least: not yet past 200. */
	PTU_EQ(put(m, 1, &b[1]), 0);
	NEXT_IS(m, 1, 21, 100);
	PTU_EQ(next(m).r, -PFT_ERR_NEED_INPUT);
	PTU_EQ(put(m, 1, &b[2]), 0);
	/* 200 both: key 0x10 (source 1) first, then source 0's 200s. */
	NEXT_IS(m, 1, 22, 200);
	PTU_EQ(put(m, 1, &b[3]), 0);
	NEXT_IS(m, 1, 23, 200);
	PTU_EQ(next(m).r, -PFT_ERR_NEED_INPUT);   /* source 1 may put a 200 still */
	PTU_EQ(put(m, 1, &b[4]), 0);
	NEXT_IS(m, 0, 10, 200);
	NEXT_IS(m, 0, 11, 200);
	/* Source 0 is at 200 still: 400 waits. */
	PTU_EQ(next(m).r, -PFT_ERR_NEED_INPUT);
	PTU_EQ(pft_merge_wanted(m), 0);
	PTU_EQ(put(m, 0, &a[2]), 0);
	NEXT_IS(m, 0, 12, 300);
	PTU_EQ(put(m, 0, &a[3]), 0);
	NEXT_IS(m, 0, 13, 300);
	PTU_EQ(pft_merge_end(m, 0), 0);
	NEXT_IS(m, 1, 24, 400);
	PTU_EQ(next(m).r, -PFT_ERR_NEED_INPUT);   /* not finished */
	PTU_EQ(pft_merge_finish(m), 0);
	PTU_EQ(next(m).r, -PFT_ERR_EOS);
	pft_merge_free(m);
}

/* The window: a silent source blocks until it fills, then the earliest
 * goes; an earlier item that comes after is late (and counted). */
static void window_late(void)
{
	struct pft_merge *m = merge(3, 1);
	struct pft_elem a[] = { stamp(1, 500), range(2, 0), range(3, 0), range(4, 0) };
	struct pft_elem b[] = { stamp(9, 100), stamp(10, 600) };

	PTU_EQ(source(m, 1, 1, 0), 0);
	PTU_EQ(source(m, 2, 1, 0), 1);
	for (int i = 0; i < 3; i++)
		PTU_EQ(put(m, 0, &a[i]), 0);
	PTU_EQ(next(m).r, -PFT_ERR_NEED_INPUT);   /* 3 held: not past the window */
	PTU_EQ(put(m, 0, &a[3]), 0);
	NEXT_IS(m, 0, 1, 500);                    /* 4 held: one goes */
	PTU_EQ(next(m).r, -PFT_ERR_NEED_INPUT);   /* 3 held */
	PTU_EQ(put(m, 1, &b[0]), 0);
	NEXT_IS(m, 1, 9, 100);                    /* late: after 500 */
	PTU_EQ(next(m).r, -PFT_ERR_NEED_INPUT);   /* source 1 is at 100 */
	PTU_EQ(put(m, 1, &b[1]), 0);
	NEXT_IS(m, 0, 2, 500);
	NEXT_IS(m, 0, 3, 500);
	NEXT_IS(m, 0, 4, 500);
	PTU_EQ(pft_merge_finish(m), 0);
	NEXT_IS(m, 1, 10, 600);
	PTU_EQ(next(m).r, -PFT_ERR_EOS);

	struct pft_merge_stats st;
	PTU_EQ(pft_merge_stats(m, 1, &st, sizeof(st)), 0);
	PTU_EQ(st.late, 1);
	PTU_EQ(st.held_max, 4);
	PTU_EQ(pft_merge_stats(m, 0, &st, sizeof(st)), 0);
	PTU_EQ(st.late, 0);
	pft_merge_free(m);
}

/* The window: a cycle-accurate source whose next timestamp is far blocks
 * the others; its items are placed at the timestamp before instead. */
static void window_flat(void)
{
	struct pft_merge *m = merge(3, 1);
	struct pft_elem a[] = { stamp(1, 100), range(2, 5), range(3, 5), range(4, 5),
				stamp(5, 200) };
	struct pft_elem b[] = { stamp(9, 150) };

	PTU_EQ(source(m, 1, 1, 1), 0);
	PTU_EQ(source(m, 2, 1, 0), 1);
	PTU_EQ(put(m, 1, &b[0]), 0);
	PTU_EQ(put(m, 0, &a[0]), 0);
	NEXT_IS(m, 0, 1, 100);
	PTU_EQ(put(m, 0, &a[1]), 0);
	PTU_EQ(put(m, 0, &a[2]), 0);
	PTU_EQ(next(m).r, -PFT_ERR_NEED_INPUT);   /* 3 held, 2 of them pending */
	PTU_EQ(pft_merge_wanted(m), 0);
	PTU_EQ(put(m, 0, &a[3]), 0);
	/* 4 held: source 0's three go at 100, unscaled, before 150. */
	NEXT_IS(m, 0, 2, 100);
	NEXT_IS(m, 0, 3, 100);
	NEXT_IS(m, 0, 4, 100);
	PTU_EQ(next(m).r, -PFT_ERR_NEED_INPUT);
	PTU_EQ(put(m, 0, &a[4]), 0);
	NEXT_IS(m, 1, 9, 150);
	PTU_EQ(next(m).r, -PFT_ERR_NEED_INPUT);   /* source 1 may put a 150 */
	PTU_EQ(pft_merge_finish(m), 0);
	NEXT_IS(m, 0, 5, 200);

	struct pft_merge_stats st;
	PTU_EQ(pft_merge_stats(m, 0, &st, sizeof(st)), 0);
	PTU_EQ(st.flat, 3);
	PTU_EQ(st.late, 0);
	pft_merge_free(m);
}

/* What a merge gave each offset: its time (UINT64_MAX: none), in order. */
struct given {
	uint64_t time[512];
	uint64_t order[512];
	size_t n;
};

/* Take what is ready of @m into @g: the code that ended it. */
static int take_ready(struct pft_merge *m, struct given *g)
{
	struct got x;

	while ((x = next(m)).r == 0 && x.offset < 512 && g->n < 512) {
		g->time[x.offset] = x.time;
		g->order[g->n++] = x.offset;
	}
	return x.r;
}

/* Put @e (one element) into @m, then take what is ready into @g. */
static void put_take(struct pft_merge *m, const struct pft_elem *e, struct given *g)
{
	PTU_EQ(put(m, 0, e), 0);
	PTU_EQ(take_ready(m, g), -PFT_ERR_NEED_INPUT);
}

/* The end: the rest into @g, the counts into *@st; @m freed. */
static void finish_take(struct pft_merge *m, struct given *g, struct pft_merge_stats *st)
{
	PTU_EQ(pft_merge_finish(m), 0);
	PTU_EQ(take_ready(m, g), -PFT_ERR_EOS);
	PTU_EQ(pft_merge_stats(m, 0, st, sizeof(*st)), 0);
	pft_merge_free(m);
}

/*
 * A fold's joined ranges (PFT_ELEM_F_FOLDED, @ts of them) against the
 * ranges one by one, at random windows, timestamps and runs, with and
 * without a first timestamp: each joined range goes out with the time its
 * last range had, in the same order, and the merge counts the same (items,
 * flat, untimed, the most held), as the parallel decode's fold needs.
 */
static void folded_weights(void)
{
	uint64_t x = 0x853c49e6748fea9bull;

	for (int round = 0; round < 3000; round++) {
		struct pft_elem all[400], joined[400];
		size_t n = 0, nj = 0;
		uint64_t ts = 1000;
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		uint32_t window = 1 + (uint32_t)(x % 40);
		int gap = 2 + (int)((x >> 8) % 60);   /* ranges between timestamps, about */
		int first_ts = (x >> 20) & 1;
		if (first_ts) {
			all[0] = stamp(0, ts);
			n = 1;
		}
		while (n < 380) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			if ((int)(x % (uint64_t)gap) == 0) {
				ts += 1 + x % 500;
				all[n] = stamp(n, ts);
				n++;
				continue;
			}
			all[n] = range(n, 1 + (uint32_t)(x >> 32) % 7);
			n++;
		}
		/* Join runs of ranges (1 to 9 of them) as a fold does. */
		for (size_t i = 0; i < n;) {
			if (all[i].type != PFT_ELEM_RANGE) {
				joined[nj++] = all[i++];
				continue;
			}
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			size_t len = 1 + x % 9, k = i;
			struct pft_elem r = all[i];
			r.flags = PFT_ELEM_F_FOLDED;
			r.ts = 0;
			r.cycles = 0;
			while (k < n && k < i + len && all[k].type == PFT_ELEM_RANGE) {
				r.cycles += all[k].cycles;
				r.offset = all[k].offset;
				r.ts++;
				k++;
			}
			joined[nj++] = r;
			i = k;
		}
		struct given one = { .n = 0 }, folded = { .n = 0 };
		struct pft_merge_stats s1, s2;
		struct pft_merge *m = merge(window, 0);
		PTU_EQ(source(m, 1, 1, 1), 0);
		for (size_t i = 0; i < n; i++)
			put_take(m, &all[i], &one);
		finish_take(m, &one, &s1);
		m = merge(window, 0);
		PTU_EQ(source(m, 1, 1, 1), 0);
		for (size_t i = 0; i < nj; i++)
			put_take(m, &joined[i], &folded);
		finish_take(m, &folded, &s2);

		int same = s1.items == s2.items && s1.flat == s2.flat && s1.untimed == s2.untimed &&
			   s1.held_max == s2.held_max;
		size_t k = 0;
		for (size_t i = 0; i < folded.n && same; i++) {
			uint64_t off = folded.order[i];
			while (k < one.n && one.order[k] != off)
				k++;          /* the joined ranges before it, passed over */
			same = k < one.n && one.time[off] == folded.time[off];
			if (!same)
				fprintf(stderr, "offset %llu: %llu alone, %llu joined\n",
					(unsigned long long)off, (unsigned long long)one.time[off],
					(unsigned long long)folded.time[off]);
		}
		if (!same) {
			fprintf(stderr, "round %d (window %u, gap %d): items %llu/%llu flat %llu/%llu "
				"untimed %llu/%llu held_max %llu/%llu\n", round, window, gap,
				(unsigned long long)s1.items, (unsigned long long)s2.items,
				(unsigned long long)s1.flat, (unsigned long long)s2.flat,
				(unsigned long long)s1.untimed, (unsigned long long)s2.untimed,
				(unsigned long long)s1.held_max, (unsigned long long)s2.held_max);
			PTU_CHECK(0);
			return;
		}
		PTU_EQ(folded.n, nj);
	}
}

/* A timestamp below the one before: time stays, counted with its offset. */
static void backwards(void)
{
	struct pft_merge *m = merge(0, 1);
	struct pft_elem e[] = { stamp(1, 100), range(2, 0), stamp(3, 90), range(4, 0),
				stamp(5, 130) };

	PTU_EQ(source(m, 1, 1, 1), 0);
	for (int i = 0; i < 5; i++)
		PTU_EQ(put(m, 0, &e[i]), 0);
	NEXT_IS(m, 0, 1, 100);
	NEXT_IS(m, 0, 2, 100);
	NEXT_IS(m, 0, 3, 100);
	NEXT_IS(m, 0, 4, 100);   /* no cycles: at the timestamp before */
	NEXT_IS(m, 0, 5, 130);

	struct pft_merge_stats st;
	PTU_EQ(pft_merge_stats(m, 0, &st, sizeof(st)), 0);
	PTU_EQ(st.backwards, 1);
	PTU_EQ(st.backwards_offset, 3);
	pft_merge_free(m);
}

/* A source without timestamps is not placed: its items go at once. */
static void untimed_source(void)
{
	struct pft_merge *m = merge(0, 1);
	struct pft_elem a[] = { range(1, 0) };
	struct pft_elem b[] = { range(2, 0) };

	PTU_EQ(source(m, 1, 1, 0), 0);
	PTU_EQ(source(m, 2, 0, 0), 1);
	PTU_EQ(put(m, 0, &a[0]), 0);
	PTU_EQ(put(m, 1, &b[0]), 0);
	NEXT_IS(m, 1, 2, UINT64_MAX);
	PTU_EQ(next(m).r, -PFT_ERR_NEED_INPUT);
	PTU_EQ(pft_merge_finish(m), 0);
	NEXT_IS(m, 0, 1, UINT64_MAX);   /* no timestamp ever: no time */
	struct pft_merge_stats st;
	PTU_EQ(pft_merge_stats(m, 0, &st, sizeof(st)), 0);
	PTU_EQ(st.untimed, 1);
	pft_merge_free(m);
}

/* Without order: each item as soon as its time is known, as they came. */
static void times_only(void)
{
	struct pft_merge *m = merge(0, 0);
	struct pft_elem a[] = { stamp(1, 500), range(2, 4), stamp(3, 504) };
	struct pft_elem b[] = { stamp(9, 100) };

	PTU_EQ(source(m, 1, 1, 1), 0);
	PTU_EQ(source(m, 2, 1, 0), 1);
	PTU_EQ(put(m, 0, &a[0]), 0);
	NEXT_IS(m, 0, 1, 500);
	PTU_EQ(put(m, 0, &a[1]), 0);
	PTU_EQ(put(m, 1, &b[0]), 0);
	NEXT_IS(m, 1, 9, 100);          /* source 0's range waits for 504 */
	PTU_EQ(put(m, 0, &a[2]), 0);
	NEXT_IS(m, 0, 2, 504);
	NEXT_IS(m, 0, 3, 504);
	pft_merge_free(m);
}

/* A run is split: one item each, the run's bad packet only with the
 * elements it produced; packets' raw bytes are copied. */
static void runs_and_packets(void)
{
	struct pft_merge *m = merge(0, 1);
	uint8_t bytes[2] = { 0x42, 0x99 };
	struct pft_ptm_packet pkt = { .offset = 7, .raw = bytes, .size = 2,
				      .type = PFT_PTM_PKT_BAD };
	struct pft_elem e[3] = { stamp(7, 10), range(7, 0), range(9, 0) };
	struct pft_item it = { .type = PFT_ITEM_ELEM, .protocol = PFT_PROTO_PTM, .source = 0,
			       .ptm = &pkt, .elem = e, .count = 3,
			       .status = -PFT_ERR_TRUNCATED };   /* a bad packet's */
	struct pft_item out;

	PTU_EQ(source(m, 1, 1, 0), 0);
	PTU_EQ(pft_merge_put(m, &it, sizeof(it)), 0);
	bytes[0] = 0;   /* the merge has its own copy */
	PTU_EQ(pft_merge_finish(m), 0);
	for (int k = 0; k < 3; k++) {
		PTU_EQ(pft_merge_next(m, &out, sizeof(out)), 0);
		PTU_EQ(out.count, 1);
		PTU_EQ(out.elem->offset, e[k].offset);
		PTU_EQ(out.time, 10);
		PTU_CHECK((out.ptm != NULL) == (k < 2));
		if (out.ptm) {
			PTU_EQ(out.ptm->raw[0], 0x42);
			PTU_EQ(out.ptm->raw[1], 0x99);
		}
	}
	pft_merge_free(m);

	/* A good packet's elements come without it. */
	m = merge(0, 1);
	PTU_EQ(source(m, 1, 1, 0), 0);
	it.status = 0;
	pkt.type = PFT_PTM_PKT_ATOM;
	PTU_EQ(pft_merge_put(m, &it, sizeof(it)), 0);
	PTU_EQ(pft_merge_finish(m), 0);
	for (int k = 0; k < 3; k++) {
		PTU_EQ(pft_merge_next(m, &out, sizeof(out)), 0);
		PTU_CHECK(out.ptm == NULL);
	}
	pft_merge_free(m);

	/* The clock from packets: a cycle count, a timestamp. */
	struct pft_merge_config mc = { .size = sizeof(mc), .order = 1, .packets = 1 };
	m = pft_merge_alloc(&mc, NULL);
	PTU_EQ(source(m, 1, 1, 1), 0);
	struct pft_ptm_packet p[3] = {
		{ .offset = 1, .type = PFT_PTM_PKT_TIMESTAMP, .ts = 1000 },
		{ .offset = 2, .type = PFT_PTM_PKT_ATOM, .has_cycles = 1, .cycles = 6 },
		{ .offset = 3, .type = PFT_PTM_PKT_TIMESTAMP, .ts = 1004, .has_cycles = 1,
		  .cycles = 2 },
	};
	it = (struct pft_item){ .type = PFT_ITEM_PACKET, .protocol = PFT_PROTO_PTM,
				.ptm = p, .count = 3 };
	PTU_EQ(pft_merge_put(m, &it, sizeof(it)), 0);
	uint64_t want[3] = { 1000, 1003, 1004 };   /* 1000 + 4 * 6 / 8 = 1003 */
	for (int k = 0; k < 3; k++) {
		PTU_EQ(pft_merge_next(m, &out, sizeof(out)), 0);
		PTU_EQ(out.type, PFT_ITEM_PACKET);
		PTU_EQ(out.ptm->offset, p[k].offset);
		PTU_EQ(out.time, want[k]);
	}
	pft_merge_free(m);
}

/* Cycles and ticks past 32 bits: the scaling stays exact. */
static void wide_values(void)
{
	struct pft_merge *m = merge(0, 1);
	uint64_t t0 = 1ull << 50, ticks = 1ull << 40;
	struct pft_elem e[] = { stamp(1, t0), range(2, 0), range(3, 0), stamp(4, t0 + ticks) };
	/* Cycle counts are 32 bits an element: 2^35 cycles in all, 3 * 2^33
	 * of them in the elements at offset 2. */
	uint64_t total = 1ull << 35, part = 3ull << 33;

	PTU_EQ(source(m, 1, 1, 1), 0);
	PTU_EQ(put(m, 0, &e[0]), 0);
	/* part = 3 * 2^33 = 6 * 2^32: six elements of 2^32 - 1 and one of 6. */
	for (int i = 0; i < 6; i++) {
		struct pft_elem r = range(2, 0xffffffffu);
		PTU_EQ(put(m, 0, &r), 0);
	}
	struct pft_elem r6 = range(2, 6);
	PTU_EQ(put(m, 0, &r6), 0);
	/* the rest: 2^35 - 6 * 2^32 = 2 * 2^32: two of 2^32 - 1 and one of 2. */
	for (int i = 0; i < 2; i++) {
		struct pft_elem r = range(3, 0xffffffffu);
		PTU_EQ(put(m, 0, &r), 0);
	}
	struct pft_elem r2 = range(3, 2);
	PTU_EQ(put(m, 0, &r2), 0);
	PTU_EQ(put(m, 0, &e[3]), 0);
	NEXT_IS(m, 0, 1, t0);
	for (int i = 0; i < 6; i++) {
		/* (i + 1) * (2^32 - 1) cycles: 2^40 * that / 2^35 = 32 * that. */
		NEXT_IS(m, 0, 2, t0 + 32ull * (uint64_t)(i + 1) * 0xffffffffull);
	}
	NEXT_IS(m, 0, 2, t0 + 3 * (ticks / 4));   /* part / total = 3/4 of the way */
	PTU_EQ(part * 4, total * 3);
	for (int i = 0; i < 2; i++)
		NEXT_IS(m, 0, 3, t0 + 32ull * (part + (uint64_t)(i + 1) * 0xffffffffull));
	NEXT_IS(m, 0, 3, t0 + ticks);
	NEXT_IS(m, 0, 4, t0 + ticks);
	pft_merge_free(m);
}

/* A caller built against 0.5: its smaller item, without the time. */
static void old_item_size(void)
{
	struct pft_merge *m = merge(0, 1);
	struct pft_elem e = stamp(1, 5);
	unsigned char buf[sizeof(struct pft_item)];

	PTU_EQ(source(m, 1, 1, 0), 0);
	PTU_EQ(put(m, 0, &e), 0);
	memset(buf, 0xa5, sizeof(buf));
	PTU_EQ(pft_merge_next(m, (struct pft_item *)(void *)buf, PFT_ITEM_SIZE_0_5), 0);
	PTU_EQ(((struct pft_item *)(void *)buf)->elem->offset, 1);
	for (size_t k = PFT_ITEM_SIZE_0_5; k < sizeof(buf); k++)
		PTU_EQ(buf[k], 0xa5);   /* nothing written past it */
	pft_merge_free(m);
}

static void arguments(void)
{
	struct pft_merge_config mc = { .size = sizeof(mc), .order = 2 };
	struct pft_merge *m;
	struct pft_item it;
	struct pft_elem e = range(1, 0);
	int err = 0;

	PTU_CHECK(pft_merge_alloc(NULL, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	PTU_CHECK(pft_merge_alloc(&mc, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	m = merge(0, 1);
	PTU_EQ(pft_merge_add_source(m, NULL), -PFT_ERR_INVALID);
	PTU_EQ(source(m, 1, 1, 0), 0);
	PTU_EQ(put(m, 1, &e), -PFT_ERR_INVALID);   /* no source 1 */
	it = (struct pft_item){ .type = PFT_ITEM_ELEM, .protocol = PFT_PROTO_PTM, .elem = &e };
	PTU_EQ(pft_merge_put(m, &it, sizeof(it)), -PFT_ERR_INVALID);   /* count 0 */
	/* A gap's count means nothing (perf.data's lost trace has 0). */
	struct pft_item gap = { .type = PFT_ITEM_GAP, .protocol = PFT_PROTO_PTM, .offset = 77,
				.status = -PFT_ERR_TRUNCATED };
	PTU_EQ(pft_merge_put(m, &gap, sizeof(gap)), 0);
	it.count = 1;
	PTU_EQ(pft_merge_put(m, &it, PFT_ITEM_SIZE_0_5 - 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_merge_put(m, &it, sizeof(it)), 0);
	PTU_EQ(source(m, 2, 1, 0), -PFT_ERR_INVALID);   /* after a put */
	PTU_EQ(pft_merge_next(m, &it, PFT_ITEM_SIZE_0_5 - 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_merge_end(m, 3), -PFT_ERR_INVALID);
	PTU_EQ(pft_merge_end(m, 0), 0);
	PTU_EQ(put(m, 0, &e), -PFT_ERR_INVALID);   /* ended */
	PTU_EQ(pft_merge_wanted(NULL), -PFT_ERR_INVALID);
	struct pft_merge_stats st;
	PTU_EQ(pft_merge_stats(m, 1, &st, sizeof(st)), -PFT_ERR_INVALID);
	PTU_EQ(pft_merge_stats(m, 0, &st, sizeof(st) - 1), -PFT_ERR_INVALID);
	pft_merge_free(m);
	pft_merge_free(NULL);
}

int main(void)
{
	PTU_RUN(interpolation);
	PTU_RUN(flat_and_rounding);
	PTU_RUN(two_sources);
	PTU_RUN(window_late);
	PTU_RUN(window_flat);
	PTU_RUN(folded_weights);
	PTU_RUN(backwards);
	PTU_RUN(untimed_source);
	PTU_RUN(times_only);
	PTU_RUN(runs_and_packets);
	PTU_RUN(wide_values);
	PTU_RUN(old_item_size);
	PTU_RUN(arguments);
	PTU_MAIN_END();
}
