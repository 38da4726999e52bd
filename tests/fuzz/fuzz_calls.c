/* fuzz_calls - the calls layer and the views accumulator fed random flow
 * elements.
 *
 * Input: byte 0: bits 2:0 the stack limit (1 << bits, 1-128), bit 3 an
 * image (the input bytes at 0x8000, so that direct targets decode and
 * ranges walk) or none, bit 4 views without calling contexts (which take
 * a fold's stack states, made up here; the others refuse them); then 8
 * bytes per element: type, last
 * instruction's class, flags (bit 0 taken, bit 1 has_cycles, bit 2
 * has_ret, bit 3 Thumb), instruction count - 1 (mod 16), a 16-bit start
 * (word index from 0x8000), a 16-bit value (exception number, cycles,
 * timestamp, ADDR_NACC address).
 *
 * Properties (pft.h, calls section): every put succeeds once the events
 * are taken; a push (CALL, EXCEPTION) is one deeper than the depth before
 * it (or at the limit, with the oldest forgotten), a RETURN or
 * EXCEPTION_RETURN one shallower, other events keep the depth; the depth
 * never exceeds the limit and pft_calls_depth() agrees with the events;
 * instruction counts never go back; after finish every push has had its
 * return.  The same elements in runs (pft_calls_put_run()), or all at
 * once (pft_calls_put_all()), give the same events.  The views accumulator takes the same elements, finishes
 * and writes every format; another takes them in one run
 * (pft_views_put_run()) and writes the same.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "pft.h"

struct state {
	struct pft_calls *calls;
	uint32_t depth, limit;
	uint64_t insns, pushes, pops;
	uint64_t hash, events;    /* of the events, in order; how many */
};

/* FNV-1a over an event's fields. */
static uint64_t fold(uint64_t h, const struct pft_call_event *ev)
{
	const uint64_t fields[] = { ev->kind, ev->flags, ev->exception, ev->depth, ev->site,
				    ev->target, ev->callee, ev->caller, ev->insns, ev->cycles,
				    ev->ts, ev->entry_insns, ev->has_cycles, ev->has_ts };

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		h = (h ^ fields[i]) * 0x100000001b3ull;
	return h;
}

/* The events of @calls folded into *@hash; how many. */
static size_t hash_events(struct pft_calls *calls, uint64_t *hash)
{
	struct pft_call_event ev;
	size_t n = 0;

	for (; pft_calls_next(calls, &ev, sizeof(ev)) == 0; n++)
		*hash = fold(*hash, &ev);
	return n;
}

/* A writer that folds what it is given into the uint64_t at @ctx. */
static int hash_text(void *ctx, const char *buf, size_t len)
{
	uint64_t *h = ctx;

	for (size_t i = 0; i < len; i++)
		*h = (*h ^ (uint8_t)buf[i]) * 0x100000001b3ull;
	return 0;
}

static void take_events(struct state *s)
{
	struct pft_call_event ev;

	while (pft_calls_next(s->calls, &ev, sizeof(ev)) == 0) {
		s->hash = fold(s->hash, &ev);
		s->events++;
		FUZZ_CHECK(ev.insns >= s->insns);
		s->insns = ev.insns;
		switch (ev.kind) {
		case PFT_CALL_CALL:
		case PFT_CALL_EXCEPTION:
			FUZZ_CHECK(ev.depth == s->depth + 1 ||
				   (s->depth == s->limit && ev.depth == s->limit));
			if (s->depth == s->limit)
				s->pops++;  /* the oldest frame is forgotten */
			s->pushes++;
			break;
		case PFT_CALL_RETURN:
		case PFT_CALL_EXCEPTION_RETURN:
			FUZZ_CHECK(s->depth > 0 && ev.depth == s->depth - 1);
			s->pops++;
			break;
		default:
			FUZZ_CHECK(ev.depth == s->depth);
			break;
		}
		FUZZ_CHECK(ev.kind < PFT_CALL_KIND_MAX && ev.depth <= s->limit);
		s->depth = ev.depth;
	}
	FUZZ_CHECK(pft_calls_depth(s->calls) == s->depth);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	struct pft_image *img = NULL;
	struct state s = { .limit = 1u << (data[0] & 7) };
	struct pft_calls_config cc = { .size = sizeof(cc), .max_depth = s.limit };
	struct pft_views *views = NULL, *run_views = NULL;
	struct pft_elem *elems = calloc(size / 8 + 1, sizeof(*elems));
	uint8_t *sources = calloc(size / 8 + 1, 1);
	size_t nelems = 0, nviews = 0;
	int err;

	FUZZ_CHECK(elems && sources);

	if ((data[0] & 8) && size > 1) {
		img = pft_image_alloc(NULL);
		FUZZ_CHECK(img && pft_image_add_buffer(img, 0x8000, data + 1, size - 1,
						       PFT_SPACE_ANY, 0) == 0);
		struct pft_views_config vc = { .size = sizeof(vc), .image = img,
					       .max_depth = s.limit,
					       .no_contexts = (data[0] >> 4) & 1 };
		views = pft_views_alloc(&vc, &err);
		run_views = pft_views_alloc(&vc, &err);
		FUZZ_CHECK(views && run_views);
	}
	cc.image = img;
	s.calls = pft_calls_alloc(&cc, &err);
	FUZZ_CHECK(s.calls && err == 0);

	for (size_t i = 1; i + 8 <= size; i += 8) {
		const uint8_t *p = data + i;
		uint32_t start = 0x8000 + 4u * (uint32_t)(p[4] | p[5] << 8);
		uint32_t value = (uint32_t)(p[6] | p[7] << 8);
		uint32_t n = (p[3] & 15) + 1, step = (p[2] & 8) ? 2 : 4;
		struct pft_elem e = {
			.type = (uint8_t)(p[0] % PFT_ELEM_TYPE_MAX),
			.iclass = (uint8_t)(p[1] % PFT_ICLASS_MAX),
			.taken = p[2] & 1, .has_cycles = (p[2] >> 1) & 1,
			.has_ret = (p[2] >> 2) & 1,
			.isa = (p[2] & 8) ? PFT_ISA_THUMB : PFT_ISA_ARM,
			.start = start, .ninsn = n, .last = start + step * (n - 1),
			.end = start + step * n, .cycles = value, .ts = value,
			.exception = (uint16_t)(value & 15), .addr = value << 4,
		};
		FUZZ_CHECK(pft_calls_put(s.calls, &e, sizeof(e)) == 0);
		take_events(&s);
		int refused = !(data[0] & 16) && e.type > PFT_ELEM_RANGE_COUNT;
		if (views)
			FUZZ_CHECK(pft_views_put(views, p[0] >> 7, &e, sizeof(e)) ==
				   (refused ? -PFT_ERR_INVALID : 0));
		sources[nelems] = p[0] >> 7;
		elems[nelems++] = e;
		nviews += !refused;
	}
	FUZZ_CHECK(pft_calls_finish(s.calls) == 0);
	take_events(&s);
	FUZZ_CHECK(s.depth == 0 && s.pushes == s.pops);
	FUZZ_CHECK(pft_calls_finish(s.calls) == -PFT_ERR_EOS);

	/* The same elements in runs: the same events. */
	struct pft_calls *run = pft_calls_alloc(&cc, &err);
	uint64_t hash = 0, events = 0;
	FUZZ_CHECK(run);
	for (size_t i = 0; i < nelems;) {
		int got = pft_calls_put_run(run, &elems[i], nelems - i, sizeof(*elems));
		FUZZ_CHECK(got >= 1 && (size_t)got <= nelems - i);
		i += (size_t)got;
		events += hash_events(run, &hash);
	}
	FUZZ_CHECK(pft_calls_finish(run) == 0);
	events += hash_events(run, &hash);
	FUZZ_CHECK(hash == s.hash && events == s.events);
	pft_calls_free(run);
	/* All of them at once (pft_calls_put_all()): the same events. */
	run = pft_calls_alloc(&cc, &err);
	hash = events = 0;
	FUZZ_CHECK(run);
	if (nelems) {
		FUZZ_CHECK(pft_calls_put_all(run, elems, nelems, sizeof(*elems)) == (int)nelems);
		events += hash_events(run, &hash);
	}
	FUZZ_CHECK(pft_calls_finish(run) == 0);
	events += hash_events(run, &hash);
	FUZZ_CHECK(hash == s.hash && events == s.events);
	pft_calls_free(run);
	/* Each source's elements in runs as they come, without those the
	 * views refused. */
	for (size_t i = 0, n = 0; i < nelems; i++)
		if ((data[0] & 16) || elems[i].type <= PFT_ELEM_RANGE_COUNT) {
			sources[n] = sources[i];
			elems[n++] = elems[i];
		}
	for (size_t i = 0, j; run_views && i < nviews; i = j) {
		for (j = i + 1; j < nviews && sources[j] == sources[i]; j++)
			;
		FUZZ_CHECK(pft_views_put_run(run_views, sources[i], &elems[i], j - i,
					     sizeof(*elems)) == 0);
	}

	if (views) {
		/* Ranges were walked in the image as they came: finishing walks
		 * them again, so it can only fail on a missing instruction. */
		err = pft_views_finish(views);
		FUZZ_CHECK(err == 0 || err == -PFT_ERR_NOMAP);
		FUZZ_CHECK(pft_views_finish(run_views) == err);
		for (int f = 0; err == 0 && f < PFT_VIEW_FORMAT_MAX; f++) {
			uint64_t one = 0, whole = 0;
			/* No source lines here: lcov and LLVM sample profiles
			 * are refused. */
			int want = f == PFT_VIEW_LCOV || f == PFT_VIEW_LLVM_SAMPLE
				   ? -PFT_ERR_NOT_FOUND : 0;
			FUZZ_CHECK(pft_views_write(views, (enum pft_view_format)f, "fuzz",
						   hash_text, &one) == want);
			FUZZ_CHECK(pft_views_write(run_views, (enum pft_view_format)f, "fuzz",
						   hash_text, &whole) == want);
			FUZZ_CHECK(one == whole);
		}
	}
	free(elems);
	free(sources);
	pft_views_free(views);
	pft_views_free(run_views);
	pft_calls_free(s.calls);
	pft_image_free(img);
	return 0;
}
