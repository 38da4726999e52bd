/*
 * The calls listing of a parallel decode (views.h, pft_calls_listing_fold()).
 *
 * A decode thread puts the elements of the stretches it folds into a log
 * (pft_calls_log.h): its own tracker runs the calls without the stack
 * before them.  At the stretch's end, or when the log is full, the log
 * goes into the stream as one CALLS_LOG element.  The reading thread,
 * which meets it in order, stitches it onto its tracker (a few items per
 * log) and queues it, to be formatted and to be written.  The next decode
 * thread to fold a batch formats it (its events made exact by the
 * stitch, into a text of lines), and whichever thread finds the logs at
 * the head of the queue formatted writes them, one thread at a time, in
 * order, each followed by the lines the reading thread made of the
 * elements that reached it unfolded after it.  The reading thread formats
 * a log itself when it holds too many, or at the end.
 *
 * Memory: at most @logs_max logs of at most LOG_SIZE events and items
 * are out of the free list at once.  A thread that finds none free waits
 * for one, formatting the logs queued meanwhile, when its piece is ahead
 * of the reading thread's (pft_fold_ops.blocked).  In the piece the
 * reading thread reads, it sends its elements unfolded instead, which the
 * reading thread lists itself: the logs out may be those of the pieces
 * ahead, which only the reading thread's progress frees.  The decode
 * threads format into at most TEXTS_MAX texts (the reading thread, which
 * formats the first log queued, into one more when it must), and the
 * reading thread holds at most AFTER_PER_LOG of its own lines a log
 * behind the logs.  A log whose stream is dropped (a piece another one
 * decoded through) is never stitched: it is made free when a later log
 * of its thread is (a thread's logs are read in the order it made them).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "pft.h"
#include "common/pft_grow.h"
#include "decode/pft_fold.h"
#include "views/pft_calls.h"
#include "views/pft_calls_listing_par.h"
#include "views/pft_calls_log.h"

enum {
	/* Events and items a log holds (pft_calls_log_full()): its lines
	 * (about 200 KiB) are written soon after they are made, from the
	 * cache, and the locks are taken a few times a log. */
	LOG_SIZE = 1 << 11,
	/* Logs out of the free list by default (150 KiB or so each: 128 KiB
	 * of events and the rest: pft_calls_listing_config.par_logs), and
	 * the texts the decode threads format into (with a formatter each:
	 * about 700 KiB). */
	LOGS_DEFAULT = 128,
	TEXTS_MAX = 8,
	/* The reading thread's lines held behind the logs, per log there
	 * may be (1 MiB for the default's). */
	AFTER_PER_LOG = 8 << 10,
	HELD_MAX = 64              /* logs queued before the reading thread formats one */
};

enum plog_state { PLOG_FREE, PLOG_MADE, PLOG_STITCHED, PLOG_CLAIMED, PLOG_DONE };

/* Lines made in place (pft_calls_listing_set_sink()) by a formatter of
 * their own, which keeps what it wrote last (the names, the lines'
 * heads) from log to log. */
struct text {
	char *s;
	size_t len, cap;
	struct pft_calls_listing *fmt;
	struct text *next;         /* the free list */
};

struct plog {
	struct calls_log *log;
	struct plog *next_all;     /* every log made (freed with the listing) */
	struct plog *next_made;    /* its decode thread's, not yet stitched */
	struct plog *next;         /* the free list, or the queue to format */
	struct plog *next_held;    /* the queue to write, in order */
	unsigned owner;            /* the decode thread that made it */
	int state;                 /* enum plog_state, under the lock */
	int err;                   /* its formatting's */
	struct text *text;         /* its lines, once formatted */
	char *after;               /* the reading thread's lines after them */
	size_t after_len, after_cap;
};

struct listing_par {
	struct pft_fold fold;
	struct pft_calls_listing *l;           /* the reading thread's */
	int (*write)(void *ctx, const char *buf, size_t len);   /* the caller's writer */
	void *ctx;
	struct pft_calls_listing_config cfg;   /* for the formatters */
	const struct pft_select *sel;
	const struct pft_image *image;
	int id, cpu;
	struct pft_image *calls_image;         /* the tracker's */
	uint32_t max_depth;
	pthread_mutex_t mu;
	pthread_cond_t done_cv;                /* a log formatted */
	struct plog *all, *free_list;
	struct text *texts;                    /* free */
	size_t ntexts;                         /* made */
	size_t out;                            /* logs out of the free list */
	size_t logs_max;                       /* ... at most */
	/* ... of which the decode threads ahead of the reading thread's piece
	 * leave these to the thread of that piece, which then rarely sends
	 * its elements unfolded. */
	size_t logs_reserved;
	atomic_size_t spare;                   /* @logs_max - @out */
	void (*wake)(void *arg);               /* the decode's (pft_fold_ops.watch) */
	void *wake_arg;
	struct plog *fmt_head, *fmt_tail;      /* stitched, to be formatted */
	atomic_size_t to_format;
	/* A log was made: the reading thread looks for them (set before the
	 * log goes into a stream, which the reading thread reads after). */
	atomic_int made_any;
	unsigned workers;
	struct made {                          /* per decode thread: logs not yet stitched */
		struct plog *head, *tail;
	} *made;
	size_t cap_made;
	struct plog *held_head, *held_tail;    /* stitched, to be written */
	size_t nheld;
	size_t after_total;                    /* the reading thread's lines in them */
	int writing;                           /* a thread writes the head */
	int err;                               /* the writer's first error */
};

struct par_worker {
	struct listing_par *p;
	struct pft_calls *calls;               /* its tracker (pft_calls_log_put()) */
	unsigned index;
	struct plog *cur;                      /* the log being made */
	int ahead;                             /* its piece is ahead of the reading thread's */
	uint64_t folded;
};

static int append(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
	if (*len + n > *cap && pft_grow((void **)buf, cap, *len + n, 1))
		return -PFT_ERR_NOMEM;
	memcpy(*buf + *len, s, n);
	*len += n;
	return 0;
}

/* A formatter's sink: its text (@ctx) takes @len bytes. */
static char *text_sink(void *ctx, size_t len)
{
	struct text *t = ctx;

	t->len += len;
	if (t->len + CALLS_LISTING_ROOM > t->cap &&
	    pft_grow((void **)&t->s, &t->cap, t->len + CALLS_LISTING_ROOM, 1))
		return NULL;
	return t->s + t->len;
}

/* ... and its writer, for what does not fit the room it gave. */
static int text_write(void *ctx, const char *buf, size_t len)
{
	struct text *t = ctx;

	return append(&t->s, &t->len, &t->cap, buf, len);
}

static int write_held(struct listing_par *p, int all);

/* The reading thread's listing writes through here: after the last log
 * queued, else to the caller's writer (when no one writes; the writer
 * writes the last log's lines after it before it takes it off). */
static int ordered_write(void *ctx, const char *buf, size_t len)
{
	struct listing_par *p = ctx;
	int err;

	pthread_mutex_lock(&p->mu);
	struct plog *g = p->held_tail;
	/* Not more than that waiting behind the logs: they go first. */
	if (g && p->after_total + len > p->logs_max * AFTER_PER_LOG) {
		pthread_mutex_unlock(&p->mu);
		if ((err = write_held(p, 1)) != 0)
			return err;
		pthread_mutex_lock(&p->mu);
		g = p->held_tail;
	}
	if (g) {
		if (!(err = append(&g->after, &g->after_len, &g->after_cap, buf, len)))
			p->after_total += len;
	} else {
		err = p->err;
		if (!err && (err = p->write(p->ctx, buf, len)) != 0)
			p->err = err;
	}
	pthread_mutex_unlock(&p->mu);
	return err;
}

/* Text @t's formatter. */
static struct pft_calls_listing *formatter(struct listing_par *p, struct text *t)
{
	struct pft_calls_listing_config c = p->cfg;

	c.write = text_write;
	c.ctx = t;
	return pft_calls_listing_alloc(&c, NULL);
}

struct replay_ctx {
	struct listing_par *p;
	struct pft_calls_listing *fmt;
};

static int format_events(void *ctx, const struct pft_call_event *ev, size_t n)
{
	struct replay_ctx *r = ctx;

	return pft_calls_listing_events(r->fmt, ev, n, r->p->sel, r->p->image, r->p->id, r->p->cpu);
}

static void release(struct listing_par *p, struct plog *g);

/* Under the lock: the logs at the head of the queue that are formatted,
 * written in order with the lines after each, unless another thread
 * writes (it then writes these too).  The lock is let go while a log's
 * own lines are written. */
static void write_ready(struct listing_par *p)
{
	struct plog *g;

	if (p->writing)
		return;
	p->writing = 1;
	while ((g = p->held_head) && g->state == PLOG_DONE) {
		int err = p->err ? p->err : g->err;
		if (!err && g->text && g->text->len) {
			pthread_mutex_unlock(&p->mu);
			err = p->write(p->ctx, g->text->s, g->text->len);
			pthread_mutex_lock(&p->mu);
		}
		/* The reading thread may add lines after it meanwhile. */
		if (!err && g->after_len)
			err = p->write(p->ctx, g->after, g->after_len);
		p->after_total -= g->after_len;
		if (err && !p->err)
			p->err = err;
		p->held_head = g->next_held;
		if (!p->held_head)
			p->held_tail = NULL;
		p->nheld--;
		release(p, g);
	}
	p->writing = 0;
	pthread_cond_broadcast(&p->done_cv);
}

/* A free text, under the lock: NULL when TEXTS_MAX are out, unless
 * @any, or when out of memory. */
static struct text *take_text(struct listing_par *p, int any)
{
	struct text *t = p->texts;

	if (t) {
		p->texts = t->next;
		return t;
	}
	if (!any && p->ntexts >= TEXTS_MAX)
		return NULL;
	if (!(t = calloc(1, sizeof(*t))))
		return NULL;
	if (!(t->fmt = formatter(p, t))) {
		free(t);
		return NULL;
	}
	p->ntexts++;
	return t;
}

static void free_text(struct text *t)
{
	if (t) {
		pft_calls_listing_free(t->fmt);
		free(t->s);
	}
	free(t);
}

/* Log @g's lines into text @t (NULL: out of memory), by its formatter;
 * then it is done, and what is done at the queue's head written. */
static void format_log(struct listing_par *p, struct plog *g, struct text *t)
{
	int err = -PFT_ERR_NOMEM;

	if (t) {
		struct replay_ctx r = { .p = p, .fmt = t->fmt };
		t->len = 0;
		if (!(err = pft_calls_listing_set_sink(t->fmt, text_sink, t)))
			err = pft_calls_log_replay(g->log, format_events, &r);
		int ferr = pft_calls_listing_flush(t->fmt);
		err = err ? err : ferr;
	}
	pthread_mutex_lock(&p->mu);
	g->text = t;
	g->err = err;
	g->state = PLOG_DONE;
	pthread_cond_broadcast(&p->done_cv);
	write_ready(p);
	pthread_mutex_unlock(&p->mu);
}

/* Take @g off the queue to format (under the lock). */
static void unqueue(struct listing_par *p, struct plog *g)
{
	struct plog **at = &p->fmt_head, *prev = NULL;

	while (*at && *at != g) {
		prev = *at;
		at = &(*at)->next;
	}
	if (!*at)
		return;
	*at = g->next;
	if (p->fmt_tail == g)
		p->fmt_tail = prev;
	g->next = NULL;
	atomic_fetch_sub(&p->to_format, 1);
}

/* A decode thread formats the first log queued, if any. */
static void help(struct par_worker *w)
{
	struct listing_par *p = w->p;

	if (!atomic_load_explicit(&p->to_format, memory_order_relaxed))
		return;
	pthread_mutex_lock(&p->mu);
	struct plog *g = p->fmt_head;
	struct text *t = g ? take_text(p, 0) : NULL;
	if (t) {
		unqueue(p, g);
		g->state = PLOG_CLAIMED;
	}
	pthread_mutex_unlock(&p->mu);
	if (t)
		format_log(p, g, t);
}

/* Log @g back to the free list (under the lock). */
static void release(struct listing_par *p, struct plog *g)
{
	pft_calls_log_reset(g->log);
	g->state = PLOG_FREE;
	if (g->text) {
		g->text->next = p->texts;
		p->texts = g->text;
		g->text = NULL;
	}
	g->after_len = 0;
	/* A large one (all that may wait, now and then) is not kept. */
	if (g->after_cap > CALLS_LISTING_ROOM) {
		free(g->after);
		g->after = NULL;
		g->after_cap = 0;
	}
	g->err = 0;
	g->next = p->free_list;
	p->free_list = g;
	p->out--;
	atomic_store(&p->spare, p->logs_max - p->out);
	if (p->wake)
		p->wake(p->wake_arg);
}

/* A free log for decode thread @w, or NULL (no more may be out for it,
 * or no memory). */
static struct plog *get_log(struct par_worker *w)
{
	struct listing_par *p = w->p;
	struct plog *g = NULL;

	pthread_mutex_lock(&p->mu);
	if (p->logs_max - p->out <= (w->ahead ? p->logs_reserved : 0)) {
		g = NULL;
	} else if (p->free_list) {
		g = p->free_list;
		p->free_list = g->next;
	} else if ((g = calloc(1, sizeof(*g)))) {
		if (!(g->log = pft_calls_log_alloc(LOG_SIZE))) {
			free(g);
			g = NULL;
		} else {
			g->next_all = p->all;
			p->all = g;
		}
	}
	if (g) {
		struct made *m = &p->made[w->index];
		atomic_store_explicit(&p->made_any, 1, memory_order_relaxed);
		p->out++;
		g->next = g->next_made = NULL;
		g->state = PLOG_MADE;
		g->owner = w->index;
		if (m->tail)
			m->tail->next_made = g;
		else
			m->head = g;
		m->tail = g;
	}
	atomic_store(&p->spare, p->logs_max - p->out);
	pthread_mutex_unlock(&p->mu);
	return g;
}

static void *worker_alloc(void *ctx)
{
	struct listing_par *p = ctx;
	struct par_worker *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->p = p;
	pthread_mutex_lock(&p->mu);
	if (p->workers == p->cap_made &&
	    pft_grow((void **)&p->made, &p->cap_made, p->workers + 1, sizeof(*p->made))) {
		pthread_mutex_unlock(&p->mu);
		free(w);
		return NULL;
	}
	w->index = p->workers;
	p->made[p->workers++] = (struct made){ NULL, NULL };
	pthread_mutex_unlock(&p->mu);
	/* The image is only read. */
	struct pft_calls_config cc = { .size = sizeof(cc), .image = p->calls_image,
				       .max_depth = p->max_depth };
	if (!(w->calls = pft_calls_alloc(&cc, NULL))) {
		free(w);
		return NULL;
	}
	return w;
}

static void worker_free(void *worker)
{
	struct par_worker *w = worker;

	if (w)
		pft_calls_free(w->calls);
	free(w);
}

/* The log being made, at @out as a CALLS_LOG element: returns 1, or 0
 * when there is none. */
static size_t close_log(struct par_worker *w, struct pft_elem *out)
{
	if (!w->cur)
		return 0;
	/* Out of memory: the stitch says so. */
	pft_calls_log_end(w->cur->log, w->calls);
	*out = (struct pft_elem){ .type = PFT_ELEM_CALLS_LOG, .ts = (uint64_t)(uintptr_t)w->cur };
	w->cur = NULL;
	return 1;
}

/* Elements @in (@n) into the logs, or through to @out when no log is
 * free, and errors through as they are, which the caller counts (the log
 * before each goes first): returns how many written at @out. */
static int par_fold(void *worker, const struct pft_elem *in, size_t n, struct pft_elem *out)
{
	struct par_worker *w = worker;
	size_t k = 0;

	help(w);
	for (size_t i = 0; i < n;) {
		if (in[i].type == PFT_ELEM_ERROR) {
			k += close_log(w, out + k);
			out[k++] = in[i++];
			continue;
		}
		if (!w->cur && !(w->cur = get_log(w))) {
			memcpy(out + k, in + i, (n - i) * sizeof(*in));
			return (int)(k + n - i);
		}
		int took = pft_calls_log_put(w->cur->log, w->calls, in + i, n - i);
		if (took < 0)
			return -1;
		w->folded += (uint64_t)took;
		i += (size_t)took;
		if (pft_calls_log_full(w->cur->log))
			k += close_log(w, out + k);
	}
	return (int)k;
}

/* Whether the worker has no log and none is free for it (@ahead: its
 * piece is ahead of the reading thread's, whose thread may have the last
 * @logs_reserved): the logs queued are formatted first. */
static int par_blocked(void *worker, int ahead)
{
	struct par_worker *w = worker;

	w->ahead = ahead;
	if (w->cur)
		return 0;
	help(w);
	return atomic_load(&w->p->spare) <= (ahead ? w->p->logs_reserved : 0);
}

static void par_watch(void *ctx, void (*wake)(void *arg), void *arg)
{
	struct listing_par *p = ctx;

	pthread_mutex_lock(&p->mu);
	p->wake = wake;
	p->wake_arg = arg;
	pthread_mutex_unlock(&p->mu);
}

/* Never: par_fold() closes a log where it fills. */
static int par_full(void *worker)
{
	(void)worker;
	return 0;
}

static uint64_t par_folded(const void *worker)
{
	return ((const struct par_worker *)worker)->folded;
}

static size_t par_close(void *worker, struct pft_elem *out, size_t room)
{
	struct par_worker *w = worker;

	return room ? close_log(w, out) : 0;
}

static const struct pft_fold_ops par_ops = {
	.worker_alloc = worker_alloc,
	.worker_free = worker_free,
	.fold = par_fold,
	.full = par_full,
	.folded = par_folded,
	.close = par_close,
	.blocked = par_blocked,
	.watch = par_watch,
};

const struct pft_fold *pft_calls_listing_fold(struct pft_calls_listing *l, struct pft_calls *c,
					      const struct pft_select *sel,
					      const struct pft_image *image, int id, int cpu)
{
	struct listing_par **slot = l && c ? pft_calls_listing_par(l) : NULL;

	if (!slot || *slot)
		return NULL;
	struct listing_par *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	*p = (struct listing_par){ .fold = { .ops = &par_ops, .ctx = p }, .l = l,
				   .cfg = *pft_calls_listing_config(l), .sel = sel, .image = image,
				   .id = id, .cpu = cpu, .calls_image = c->image,
				   .max_depth = c->max_depth };
	p->write = p->cfg.write;
	p->ctx = p->cfg.ctx;
	atomic_init(&p->to_format, 0);
	atomic_init(&p->made_any, 0);
	p->logs_max = p->cfg.par_logs ? p->cfg.par_logs : LOGS_DEFAULT;
	p->logs_reserved = (p->logs_max + 15) / 16;
	atomic_init(&p->spare, p->logs_max);
	if (pthread_mutex_init(&p->mu, NULL)) {
		free(p);
		return NULL;
	}
	if (pthread_cond_init(&p->done_cv, NULL)) {
		pthread_mutex_destroy(&p->mu);
		free(p);
		return NULL;
	}
	/* What the listing wrote so far goes out first. */
	if (pft_calls_listing_flush(l)) {
		pft_listing_par_free(p);
		return NULL;
	}
	pft_calls_listing_set_writer(l, ordered_write, p);
	*slot = p;
	return &p->fold;
}

/* The reading thread: with @all, every log queued written (formatted
 * here if no decode thread has taken it), else only when more than
 * HELD_MAX are queued, the first formatted here if no one has. */
static int write_held(struct listing_par *p, int all)
{
	pthread_mutex_lock(&p->mu);
	for (struct plog *g; (g = p->held_head) && (all || p->nheld > HELD_MAX);) {
		if (g->state == PLOG_STITCHED) {
			unqueue(p, g);
			g->state = PLOG_CLAIMED;
			struct text *t = take_text(p, 1);
			pthread_mutex_unlock(&p->mu);
			format_log(p, g, t);
			pthread_mutex_lock(&p->mu);
			continue;
		}
		if (!all)
			break;
		/* Another thread formats it, or writes. */
		if (g->state != PLOG_DONE || p->writing)
			pthread_cond_wait(&p->done_cv, &p->mu);
		else
			write_ready(p);
	}
	int err = p->err;
	pthread_mutex_unlock(&p->mu);
	return err;
}

/* Log @g, met in the stream: stitched onto tracker @c, held, queued to be
 * formatted. */
static int take_log(struct listing_par *p, struct pft_calls *c, struct plog *g)
{
	/* The lines before it go out before its own. */
	int err = pft_calls_listing_flush_buffer(p->l);

	if (!err)
		err = pft_calls_log_stitch(g->log, c);
	pthread_mutex_lock(&p->mu);
	/* Its thread's logs before it were dropped with their streams. */
	struct made *m = &p->made[g->owner];
	for (struct plog *x; (x = m->head) && x != g;) {
		m->head = x->next_made;
		release(p, x);
	}
	m->head = g->next_made;
	if (!m->head)
		m->tail = NULL;
	if (err) {
		release(p, g);
	} else {
		g->state = PLOG_STITCHED;
		if (p->fmt_tail)
			p->fmt_tail->next = g;
		else
			p->fmt_head = g;
		p->fmt_tail = g;
		atomic_fetch_add(&p->to_format, 1);
		/* A thread waiting for a log formats it meanwhile. */
		if (p->wake)
			p->wake(p->wake_arg);
		g->next_held = NULL;
		if (p->held_tail)
			p->held_tail->next_held = g;
		else
			p->held_head = g;
		p->held_tail = g;
		p->nheld++;
	}
	pthread_mutex_unlock(&p->mu);
	return err;
}

int pft_calls_listing_put_run(struct pft_calls_listing *l, struct pft_calls *c,
			      const struct pft_select *sel, const struct pft_image *image, int id,
			      int cpu, const struct pft_elem *e, size_t n, size_t size)
{
	struct listing_par *p = l ? *pft_calls_listing_par(l) : NULL;
	int err;

	if (!l || !c || !e || size < sizeof(*e))
		return -PFT_ERR_INVALID;
	for (size_t i = 0; i < n;) {
		size_t j = p && atomic_load_explicit(&p->made_any, memory_order_relaxed) ? i : n;
		while (j < n && pft_elem_at(e, j, size)->type != PFT_ELEM_CALLS_LOG)
			j++;
		/* The events of the elements before it, taken after them (an
		 * element of unknown type ends them: the tracker refuses it). */
		for (size_t k = i; k < j; k += (size_t)err) {
			err = pft_calls_put_all(c, pft_elem_at(e, k, size), j - k, size);
			if (err < 0)
				return err;
			int lerr = pft_calls_listing_take(l, c, sel, image, id, cpu);
			if (lerr)
				return lerr;
		}
		if (j < n) {
			const struct pft_elem *x = pft_elem_at(e, j, size);
			if (!p)
				return -PFT_ERR_INVALID;
			if ((err = take_log(p, c, (struct plog *)(uintptr_t)x->ts)) != 0)
				return err;
		}
		i = j + 1;
	}
	return p && (err = write_held(p, 0)) != 0 ? err : 0;
}

int pft_listing_par_drain(struct listing_par *p)
{
	return write_held(p, 1);
}

void pft_listing_par_free(struct listing_par *p)
{
	if (!p)
		return;
	for (struct plog *g = p->all, *next; g; g = next) {
		next = g->next_all;
		free_text(g->text);
		pft_calls_log_free(g->log);
		free(g->after);
		free(g);
	}
	for (struct text *t = p->texts, *next; t; t = next) {
		next = t->next;
		free_text(t);
	}
	free(p->made);
	pthread_cond_destroy(&p->done_cv);
	pthread_mutex_destroy(&p->mu);
	free(p);
}
