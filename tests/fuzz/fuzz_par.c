/* fuzz_par - the parallel decode (pft_input with @threads 2 to 5: 2 + the
 * input's size modulo 4, so that threads also wait for a place among the
 * pieces in flight) of a raw PTM file or a formatted memory buffer cut into
 * tiny pieces, against the serial decode (@threads 1).
 *
 * Input: byte 0: bit 0 packets returned, bit 1 elements returned
 * (neither: both), bit 2 items in runs, bit 3 counted (pft_input_count())
 * rather than listed, bit 4 the return stack, bit 5 cycle-accurate with
 * timestamps, bits 7:6 context ID bytes 0/1/2/4; byte 1: bits 6:0 the
 * piece size, 16 + 8 * N (formatted: rounded down to whole frames), bit 7
 * formatted; the rest is the trace, or for a formatted buffer what its
 * frames are made of (make_frames()), of which trace ID 0x10 is decoded.
 * Elements alone in runs, listed (byte 0 bits 3:0 0110): byte 1 bits
 * 1:0 choose the fold (FOLD_*), bits 6:2 the piece size,
 * 1024 + 128 * N (threads fold only short of a piece's last 1 KiB); with
 * the tracker's fold, cycles and timestamps, bit 2 set puts the elements
 * on their time base (the merge, as pft timeline reads them) with a window
 * of 1 + bits 6:3 items.
 * The image is fuzz_pipe's small program at 0x8000 (loaded from a file,
 * as pft_input takes it).
 *
 * Properties (pft.h, input section): the parallel decode returns the
 * serial decode's packets and elements, in the same order (runs may group
 * them otherwise), the same counts, source statistics and fit verdict,
 * and ends with the same status.  Elements alone in runs also go to the
 * consumers that fold (pft_views_fold(), pft_calls_fold(): the threads
 * then hand over other elements): the views (of every function, and
 * counting only) and a calls tracker see what they see of the serial
 * decode's elements: the same views written, the same call events (for
 * the fold of the views every consumer; for the others, their own); the
 * views without calling contexts, whose fold runs the calls stack in the
 * threads, write the serial decode's coverage.  Merged, each call event
 * has the time of the element before it (as the timeline's spans), and
 * the merge gives up as often, folded or not.  Then once more in threads
 * with the text listing's fold (pft_listing_fold_alloc()): the lines, the
 * threads' TEXT and the others written with pft_listing_line(), are the
 * serial decode's lines.  Counting packets only, which passes
 * over atoms and branches without their records: the counts by type, the
 * statistics and the fit verdict are those of the serial listing.
 */
#include <string.h>

#include "fuzz_util.h"
#include "pft.h"

/* The start of fuzz_pipe's program: mov, b, nop, cmp, beq, bl, bx lr. */
static const uint8_t code[] = {
	0x00, 0x00, 0xa0, 0xe3, 0x00, 0x00, 0x00, 0xea, 0x00, 0xf0, 0x20, 0xe3,
	0x01, 0x00, 0x50, 0xe3, 0xfb, 0xff, 0xff, 0x0a, 0x01, 0x00, 0x00, 0xeb,
	0x1e, 0xff, 0x2f, 0xe1,
};

static char trace_path[128], image_path[128];

enum { FRAME = 16, DECODED_ID = 0x10, OTHER_ID = 0x11, FRAMES_MAX = 4096 };

/* A formatted buffer from @data: a control byte per frame, whose low 3
 * bits choose a frame of 15 bytes of the current ID's data (0-3), one that
 * switches to ID 0x10 (4) or 0x11 (5) in byte 0 and holds 14 bytes of the
 * new ID's, a frame of four FSYNCs (6: a discontinuity) or the next 16
 * bytes as they are (7: any IDs, 0x7f among them); the data bytes follow
 * the control byte.  Returns the buffer's length. */
static size_t make_frames(const uint8_t *data, size_t size, uint8_t *out, size_t room)
{
	size_t n = 0, at = 0;

	while (at < size && n + FRAME <= room) {
		uint8_t kind = data[at++] & 7, *f = out + n;
		size_t take = kind < 4 ? 15 : kind < 6 ? 14 : kind == 7 ? FRAME : 0;
		uint8_t bytes[FRAME] = { 0 };

		memcpy(bytes, data + at, take <= size - at ? take : size - at);
		at += take <= size - at ? take : size - at;
		if (kind == 6) {
			for (int k = 0; k < FRAME; k++)
				f[k] = k % 4 == 3 ? 0x7f : 0xff;
		} else if (kind == 7) {
			memcpy(f, bytes, FRAME);
		} else {
			/* Data: even bytes without bit 0, which goes to the
			 * auxiliary byte. */
			int first = kind < 4 ? 0 : 1;
			const uint8_t *d = bytes;
			f[15] = 0;
			if (first)
				f[0] = (uint8_t)((kind == 4 ? DECODED_ID : OTHER_ID) << 1 | 1);
			for (int k = first; k < 15; k++, d++) {
				f[k] = k % 2 ? *d : (uint8_t)(*d & 0xfe);
				if (k % 2 == 0)
					f[15] |= (uint8_t)((*d & 1) << (k / 2));
			}
		}
		n += FRAME;
	}
	return n;
}

static void remove_trace(void)
{
	unlink(trace_path);
}

static void remove_image(void)
{
	unlink(image_path);
}

/* What a decode gave: a hash over every packet and element in order,
 * their numbers, the counts, statistics and fit verdict. */
struct result {
	uint64_t hash, npkts, nelems;
	uint64_t listing;                         /* the text listing's lines */
	uint64_t views, annotated, events;        /* the consumers' (fold) */
	int merged;                               /* on the time base */
	struct pft_merge_stats merge;
	int consumed, fold;                       /* which fold: FOLD_* */
	uint64_t by_type[PFT_INPUT_COUNT_TYPES];  /* packets listed */
	uint64_t errors_listed;                   /* ERROR elements, the first: */
	struct pft_elem first_error;
	int end;
	struct pft_input_counts counts;
	struct pft_input_source src;
	int fit;
	struct pft_fit_verdict verdict;
};

static void mix(uint64_t *h, const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		*h = (*h ^ b[i]) * 0x100000001b3ull;
}

static void mix_packet(uint64_t *h, const struct pft_ptm_packet *p, int status)
{
	mix(h, &status, sizeof(status));
	mix(h, &p->offset, sizeof(p->offset));
	mix(h, p->raw, p->size);
	mix(h, &p->ts, sizeof(p->ts));
	mix(h, &p->addr, sizeof(p->addr));
	mix(h, &p->cycles, sizeof(p->cycles));
	mix(h, &p->ctxid, sizeof(p->ctxid));
	mix(h, &p->type, 1);
	mix(h, &p->isa, 1);
	mix(h, &p->atoms, 1);
	mix(h, &p->n_atoms, 1);
	mix(h, &p->bad, 1);
}

static void mix_elem(uint64_t *h, const struct pft_elem *e)
{
	mix(h, &e->offset, sizeof(e->offset));
	mix(h, &e->ts, sizeof(e->ts));
	mix(h, &e->start, 4 * sizeof(uint32_t));   /* start, end, last, ninsn */
	mix(h, &e->addr, sizeof(e->addr));
	mix(h, &e->ctxid, sizeof(e->ctxid));
	mix(h, &e->type, 1);
	mix(h, &e->isa, 1);
	mix(h, &e->taken, 1);
	mix(h, &e->reason, 1);
}

/* The folds the consumers make (pft_views_fold() of the views of every
 * function is FOLD_VIEWS). */
enum { FOLD_VIEWS = 0, FOLD_CALLS = 1, FOLD_COUNTS = 2, FOLD_ENTRIES = 3 };

/* The consumers that fold, and what they made: a hash of the views
 * written and of the call events. */
struct consumers {
	struct pft_views *views, *counts;
	struct pft_views *entries;   /* without calling contexts: its fold's alone */
	struct pft_calls *calls;
	uint64_t events;
	int err;
	int merged;                  /* items one at a time, with their times */
	uint64_t time_before;        /* the time of the element before (merged) */
};

static int hash_write(void *ctx, const char *buf, size_t len)
{
	mix(ctx, buf, len);
	return 0;
}

static void take_events(struct consumers *c)
{
	struct pft_call_event ev;

	while (pft_calls_next(c->calls, &ev, sizeof(ev)) == 0) {
		if (c->merged)
			mix(&c->events, &c->time_before, sizeof(c->time_before));
		mix(&c->events, &ev.kind, 1);
		mix(&c->events, &ev.flags, 1);
		mix(&c->events, &ev.depth, sizeof(ev.depth));
		mix(&c->events, &ev.site, sizeof(ev.site));
		mix(&c->events, &ev.target, sizeof(ev.target));
		mix(&c->events, &ev.insns, sizeof(ev.insns));
		mix(&c->events, &ev.cycles, sizeof(ev.cycles));
		mix(&c->events, &ev.ts, sizeof(ev.ts));
	}
}

/* Source 0's elements to the consumers (their first error kept). */
static void consume(struct consumers *c, const struct pft_item *it)
{
	if (c->entries) {
		int err = pft_views_put_run(c->entries, 0, it->elem, it->count, sizeof(*it->elem));
		if (err && !c->err)
			c->err = err;
		return;
	}
	int err = pft_views_put_run(c->views, 0, it->elem, it->count, sizeof(*it->elem));

	if (!err)
		err = pft_views_put_run(c->counts, 0, it->elem, it->count, sizeof(*it->elem));
	for (uint32_t k = 0; !err && k < it->count;) {
		int n = pft_calls_put_run(c->calls, it->elem + k, it->count - k, sizeof(*it->elem));
		if (n < 0)
			err = n;
		else
			k += (uint32_t)n;
		take_events(c);
	}
	if (c->merged)
		c->time_before = it->timed ? it->time : UINT64_MAX;
	if (err && !c->err)
		c->err = err;
}

/* The views' output (the profile and coverage of @views, the annotation
 * of @counts), and the last events. */
static void consumers_end(struct consumers *c, uint64_t *views, uint64_t *counts)
{
	*views = *counts = 0xcbf29ce484222325ull;
	if (c->entries) {
		if (!c->err && !(c->err = pft_views_finish(c->entries)))
			c->err = pft_views_write(c->entries, PFT_VIEW_COVERAGE_JSONL, "fuzz",
						 hash_write, views);
		pft_views_free(c->entries);
		c->entries = NULL;
	}
	if (!c->err && !(c->err = pft_calls_finish(c->calls)))
		take_events(c);
	if (!c->err && !(c->err = pft_views_finish(c->views)))
		c->err = pft_views_finish(c->counts);
	if (!c->err)
		c->err = pft_views_write(c->views, PFT_VIEW_PROFILE_JSONL, "fuzz", hash_write, views);
	if (!c->err)
		c->err = pft_views_write(c->views, PFT_VIEW_COVERAGE_JSONL, "fuzz", hash_write, views);
	if (!c->err)
		c->err = pft_views_write(c->counts, PFT_VIEW_ANNOTATE_JSONL, "fuzz", hash_write,
					 counts);
	pft_views_free(c->views);
	pft_views_free(c->counts);
	pft_calls_free(c->calls);
}

/* Element @e's line in the text listing, into @r's hash of them: as
 * pft_listing_line() writes it, or as the threads wrote it (TEXT). */
static void mix_line(struct result *r, const struct pft_listing *l, const struct pft_elem *e)
{
	char line[PFT_LISTING_LINE_MAX];
	int n;

	if (e->type == PFT_ELEM_TEXT) {
		mix(&r->listing, line, pft_elem_text(e, line));
		return;
	}
	n = pft_listing_line(l, e, line, sizeof(line));
	FUZZ_CHECK(n > 0 && n <= (int)sizeof(line));
	mix(&r->listing, line, (size_t)n);
}

/* @listing: the parallel decode's threads write the text listing (its
 * fold instead of the consumers'). */
static void decode(uint8_t flags, uint32_t piece, int frames, unsigned threads, int fold,
		   uint32_t window, int listing, struct result *r)
{
	struct pft_listing lst = { .size = sizeof(lst), .format = PFT_LISTING_TEXT,
				   .id = DECODED_ID, .cpu = -1 };
	struct pft_fold *listing_fold = NULL;
	int packets = flags & 1, elements = flags & 2, counting = flags & 8;
	struct pft_input_config ic = { .size = sizeof(ic), .packets = (uint8_t)(packets || !elements),
				       .elements = (uint8_t)(elements || !packets),
				       .fit_check = 1, .runs = (flags >> 2) & 1, .id = -1,
				       .threads = threads, .piece_size = piece,
				       .merge = window ? PFT_INPUT_MERGE_TIMES : PFT_INPUT_MERGE_OFF,
				       .merge_window = window };
	struct pft_ptm_config cfg;
	struct pft_item it;
	struct pft_input *in = pft_input_alloc(&ic, NULL);

	memset(r, 0, sizeof(*r));
	FUZZ_CHECK(in != NULL);
	pft_ptm_config_init(&cfg);
	cfg.return_stack = (flags >> 4) & 1;
	cfg.cycle_accurate = cfg.timestamps = (flags >> 5) & 1;
	cfg.ctxid_bytes = (uint8_t)((const uint8_t[]){ 0, 1, 2, 4 })[flags >> 6];
	FUZZ_CHECK(pft_input_add_image(in, image_path, 0x8000) == 0);
	/* Bytes that are no trace of the framing given (no source in them,
	 * frames given as raw, ...): refused alike, before any thread. */
	r->end = pft_input_open_file(in, trace_path, frames ? PFT_PIPE_FORMATTED : PFT_PIPE_RAW);
	FUZZ_CHECK(r->end == 0 || r->end == -PFT_ERR_NO_SOURCE || r->end == -PFT_ERR_BAD_FILE);
	if (r->end < 0) {
		pft_input_free(in);
		return;
	}
	FUZZ_CHECK(pft_input_add_ptm(in, frames ? DECODED_ID : -1, &cfg) == 0);
	r->hash = r->listing = 0xcbf29ce484222325ull;
	/* Elements alone, in runs, listed: the consumers that fold. */
	struct consumers c = { .events = 0xcbf29ce484222325ull, .merged = window != 0,
			       .time_before = UINT64_MAX };
	struct pft_input_source src0;
	r->consumed = elements && !packets && (flags & 4) && !counting &&
		      pft_input_source(in, 0, &src0, sizeof(src0)) == 0 && src0.image;
	if (r->consumed && listing) {
		FUZZ_CHECK((listing_fold = pft_listing_fold_alloc(&lst)) != NULL);
		FUZZ_CHECK(pft_input_set_fold(in, listing_fold) == 0);
	} else if (r->consumed) {
		struct pft_views_config vc = { .size = sizeof(vc), .image = src0.image };
		struct pft_calls_config cc = { .size = sizeof(cc), .image = src0.image };
		FUZZ_CHECK((c.views = pft_views_alloc(&vc, NULL)) != NULL);
		vc.insns_only = 1;
		FUZZ_CHECK((c.counts = pft_views_alloc(&vc, NULL)) != NULL);
		FUZZ_CHECK((c.calls = pft_calls_alloc(&cc, NULL)) != NULL);
		vc.insns_only = 0;
		vc.no_contexts = 1;
		if (fold == FOLD_ENTRIES)
			FUZZ_CHECK((c.entries = pft_views_alloc(&vc, NULL)) != NULL);
		/* One fold: the views' (its elements do for all three), the
		 * tracker's or the counting views' (each for its own only). */
		r->fold = fold;
		const struct pft_fold *f = r->fold == FOLD_CALLS ? pft_calls_fold(c.calls)
				       : r->fold == FOLD_COUNTS ? pft_views_fold(c.counts, 0)
				       : r->fold == FOLD_ENTRIES ? pft_views_fold(c.entries, 0)
				       : pft_views_fold(c.views, 0);
		FUZZ_CHECK(pft_input_set_fold(in, f) == 0);
	}
	while ((r->end = counting ? pft_input_count(in, &it, sizeof(it))
				  : pft_input_next(in, &it, sizeof(it))) == 0) {
		for (uint32_t k = 0; k < it.count; k++) {
			if (it.type == PFT_ITEM_PACKET) {
				mix_packet(&r->hash, &it.ptm[k], it.status);
				r->npkts++;
				r->by_type[it.ptm[k].type]++;
			} else if (it.type == PFT_ITEM_ELEM && it.elem[k].type < PFT_ELEM_RANGE_COUNT &&
				   !(it.elem[k].flags & PFT_ELEM_F_FOLDED)) {
				if (it.elem[k].type == PFT_ELEM_ERROR && !r->errors_listed++)
					r->first_error = it.elem[k];
				mix_elem(&r->hash, &it.elem[k]);
				r->nelems++;
			}
		}
		for (uint32_t k = 0; r->consumed && it.type == PFT_ITEM_ELEM && k < it.count; k++)
			mix_line(r, &lst, &it.elem[k]);
		if (r->consumed && !listing && it.type == PFT_ITEM_ELEM)
			consume(&c, &it);
	}
	if (r->consumed && !listing) {
		consumers_end(&c, &r->views, &r->annotated);
		r->events = c.events;
		FUZZ_CHECK(c.err == 0);
	}
	if (counting)
		FUZZ_CHECK(pft_input_counts(in, 0, &r->counts, sizeof(r->counts)) == 0);
	r->merged = window && pft_input_merge_stats(in, 0, &r->merge, sizeof(r->merge)) == 0;
	FUZZ_CHECK(pft_input_source(in, 0, &r->src, sizeof(r->src)) == 0);
	r->fit = pft_input_fit(in, 0, &r->verdict, sizeof(r->verdict));
	pft_input_free(in);
	pft_listing_fold_free(listing_fold);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct result serial, parallel;

	if (size < 3)
		return 0;
	uint8_t flags = data[0];
	uint32_t piece = 16 + 8 * (uint32_t)(data[1] & 0x7f);
	int frames = data[1] >> 7, fold = data[1] & 3;
	uint32_t window = 0;
	if ((flags & 15) == 6) {
		piece = 1024 + 128 * (uint32_t)(data[1] >> 2 & 0x1f);
		if (fold == FOLD_CALLS && (flags & 0x20) && (data[1] & 4))
			window = 1 + (data[1] >> 3 & 15);
	}
	static uint8_t buf[FRAMES_MAX * FRAME];
	const uint8_t *trace = data + 2;
	size_t len = size - 2;
	if (frames) {
		len = make_frames(data + 2, size - 2, buf, sizeof(buf));
		trace = buf;
	}
	fuzz_write_file(image_path, sizeof(image_path), "par-image", remove_image, code,
			sizeof(code));
	fuzz_write_file(trace_path, sizeof(trace_path), "par", remove_trace, trace, len);
	decode(flags, piece, frames, 1, fold, window, 0, &serial);
	decode(flags, piece, frames, 2 + (unsigned)(size % 4), fold, window, 0, &parallel);
	FUZZ_CHECK(parallel.end == serial.end);
	/* Folded, the threads hand over other elements: the consumers tell. */
	FUZZ_CHECK(parallel.consumed || parallel.hash == serial.hash);
	FUZZ_CHECK(parallel.consumed || parallel.nelems == serial.nelems);
	FUZZ_CHECK(parallel.npkts == serial.npkts);
	FUZZ_CHECK(parallel.consumed == serial.consumed);
	FUZZ_CHECK(fold == FOLD_CALLS || fold == FOLD_COUNTS || parallel.views == serial.views);
	FUZZ_CHECK(fold == FOLD_CALLS || parallel.annotated == serial.annotated);
	FUZZ_CHECK(fold == FOLD_COUNTS || parallel.events == serial.events);
	FUZZ_CHECK(parallel.merged == serial.merged);
	FUZZ_CHECK(!parallel.merged || (parallel.merge.items == serial.merge.items &&
					parallel.merge.flat == serial.merge.flat &&
					parallel.merge.untimed == serial.merge.untimed &&
					parallel.merge.held_max == serial.merge.held_max));
	FUZZ_CHECK(!memcmp(&parallel.counts, &serial.counts, sizeof(serial.counts)));
	FUZZ_CHECK(parallel.src.stats.bytes == serial.src.stats.bytes);
	FUZZ_CHECK(parallel.src.stats.packets == serial.src.stats.packets);
	FUZZ_CHECK(parallel.src.stats.errors == serial.src.stats.errors);
	FUZZ_CHECK(parallel.src.stats.insns == serial.src.stats.insns);
	FUZZ_CHECK(parallel.fit == serial.fit);
	FUZZ_CHECK(!memcmp(&parallel.verdict, &serial.verdict, sizeof(serial.verdict)));
	if (serial.consumed && !window) {
		struct result lines;
		decode(flags, piece, frames, 2 + (unsigned)(size % 4), fold, 0, 1, &lines);
		FUZZ_CHECK(lines.end == serial.end);
		FUZZ_CHECK(lines.listing == serial.listing);
	}
	if ((flags & 11) == 9) {
		struct result listed;
		decode(flags & ~8, piece, frames, 1, fold, 0, 0, &listed);
		FUZZ_CHECK(!memcmp(listed.by_type, serial.counts.packets, sizeof(listed.by_type)));
		/* Where the elements were counted, the first error is the
		 * listing's. */
		const struct pft_input_counts *c = &serial.counts;
		FUZZ_CHECK(!c->elems[PFT_ELEM_ERROR] ||
			   (listed.errors_listed == c->elems[PFT_ELEM_ERROR] &&
			    listed.first_error.offset == c->first_error_offset &&
			    listed.first_error.reason == c->first_error_reason));
		FUZZ_CHECK(listed.src.stats.packets == serial.src.stats.packets);
		FUZZ_CHECK(listed.src.stats.errors == serial.src.stats.errors);
		FUZZ_CHECK(listed.fit == serial.fit);
		FUZZ_CHECK(!memcmp(&listed.verdict, &serial.verdict, sizeof(serial.verdict)));
	}
	return 0;
}
