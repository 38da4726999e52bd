/* The timeline: Chrome trace-event JSON spans written as call events come
 * (pft.h, section views).  Nothing is kept but the configuration and a
 * count of the open spans. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pft_views_int.h"
#include "pft_size.h"

struct pft_timeline {
	int (*write)(void *ctx, const char *buf, size_t len);
	void *ctx;
	struct pft_image *image;
	const struct pft_lines *lines;
	uint64_t hz;
	uint32_t tid;
	uint8_t clock;
	/* Spans begun and not ended: one per frame of the calls tracker, plus
	 * the frames it forgot at its depth limit (a CALL there is one span
	 * more at the same depth), which a return below them ends, so that
	 * spans nest and every one ends.  A count, not a stack: O(1) memory. */
	uint32_t open;
};

static const char *const pid_field = "\"pid\":1";

struct pft_timeline *pft_timeline_alloc(const struct pft_timeline_config *cfg, int *errcode)
{
	struct pft_timeline *t = NULL;
	int err = -PFT_ERR_INVALID;

	if (cfg && cfg->size >= PFT_FIRST_SIZE(struct pft_timeline_config) && cfg->write &&
	    cfg->clock <= PFT_TIMELINE_TIMESTAMP) {
		err = -PFT_ERR_NOMEM;
		t = calloc(1, sizeof(*t));
	}
	if (t) {
		struct vout *o = malloc(sizeof(*o));
		t->write = cfg->write;
		t->ctx = cfg->ctx;
		t->image = cfg->image;
		t->lines = cfg->lines;
		t->hz = cfg->hz;
		t->tid = cfg->tid;
		t->clock = cfg->clock;
		err = -PFT_ERR_NOMEM;
		if (o) {
			vout_init(o, t->write, t->ctx);
			vout_printf(o, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",%s,\"tid\":%" PRIu32
				    ",\"args\":{\"name\":", pid_field, t->tid);
			if (cfg->track_name) {
				vout_json(o, cfg->track_name);
			} else {
				vout_printf(o, "\"trace %" PRIu32 "\"", t->tid);
			}
			vout_printf(o, "}}");
			err = vout_end(o);
			free(o);
		}
		if (err) {
			free(t);
			t = NULL;
		}
	}
	if (errcode)
		*errcode = err;
	return t;
}

void pft_timeline_free(struct pft_timeline *t)
{
	free(t);
}

static int write_text(int (*write)(void *ctx, const char *buf, size_t len), void *ctx,
		      const char *text)
{
	if (!write)
		return -PFT_ERR_INVALID;
	int r = write(ctx, text, strlen(text));
	return r < 0 ? r : 0;
}

int pft_timeline_begin(int (*write)(void *ctx, const char *buf, size_t len), void *ctx)
{
	/* A first event, so that every later one starts with a comma. */
	return write_text(write, ctx,
			  "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"
			  "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,"
			  "\"args\":{\"name\":\"pft\"}}");
}

int pft_timeline_end(int (*write)(void *ctx, const char *buf, size_t len), void *ctx)
{
	return write_text(write, ctx, "\n]}\n");
}

static void timestamp(const struct pft_timeline *t, struct vout *o,
		      const struct pft_call_event *ev)
{
	uint64_t value = ev->insns;

	if (t->clock == PFT_TIMELINE_CYCLES && ev->has_cycles)
		value = ev->cycles;
	else if (t->clock == PFT_TIMELINE_TIMESTAMP && ev->has_ts)
		value = ev->ts;
	if (t->hz)
		vout_printf(o, "\"ts\":%.3f", (double)value * 1e6 / (double)t->hz);
	else
		vout_printf(o, "\"ts\":%" PRIu64, value);
}

static void begin_span(const struct pft_timeline *t, struct vout *o,
		       const struct pft_call_event *ev)
{
	uint32_t start;
	const char *name = ev->target ?
		pft_views_name_at(t->lines, t->image, ev->target, &start) : NULL;

	vout_printf(o, ",\n{\"ph\":\"B\",%s,\"tid\":%" PRIu32 ",", pid_field, t->tid);
	timestamp(t, o, ev);
	vout_printf(o, ",\"name\":");
	if (ev->kind == PFT_CALL_EXCEPTION) {
		vout_printf(o, "\"exception %s\"", pft_exception_name(ev->exception));
	} else if (name) {
		vout_json(o, name);
	} else {
		vout_printf(o, "\"0x%08" PRIx32 "\"", ev->target);
	}
	vout_printf(o, ",\"args\":{\"depth\":%" PRIu32 ",\"site\":\"0x%08" PRIx32
		    "\",\"entry\":\"0x%08" PRIx32 "\"}}", ev->depth, ev->site, ev->target);
}

static void end_span(const struct pft_timeline *t, struct vout *o,
		     const struct pft_call_event *ev)
{
	vout_printf(o, ",\n{\"ph\":\"E\",%s,\"tid\":%" PRIu32 ",", pid_field, t->tid);
	timestamp(t, o, ev);
	vout_printf(o, "}");
}

int pft_timeline_put(struct pft_timeline *t, const struct pft_call_event *ev, size_t size)
{
	struct vout o;

	if (!t || !ev || size < PFT_FIRST_SIZE(struct pft_call_event))
		return -PFT_ERR_INVALID;
	vout_init(&o, t->write, t->ctx);
	switch (ev->kind) {
	case PFT_CALL_CALL:
	case PFT_CALL_EXCEPTION:
		begin_span(t, &o, ev);
		t->open++;
		break;
	case PFT_CALL_TAIL_CALL:
		/* The outermost function has no span to replace. */
		if (ev->depth) {
			end_span(t, &o, ev);
			begin_span(t, &o, ev);
		}
		break;
	case PFT_CALL_RETURN:
	case PFT_CALL_EXCEPTION_RETURN:
		do {
			end_span(t, &o, ev);
			if (t->open)
				t->open--;
		} while (t->open > ev->depth);
		break;
	default:
		break;
	}
	return vout_end(&o);
}
