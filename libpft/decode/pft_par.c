/*
 * Parallel decode of one source's trace file: raw, or a formatted memory
 * buffer (CoreSight frames) of which one trace ID is decoded.  The source's
 * decoders are driven through its protocol's table (core/pft_proto.h);
 * formatted buffers, whose pieces are staged as the serial pipeline stages
 * them, are of staged protocols (PTM) only.
 *
 * The file is cut into pieces of a fixed size.  Worker threads decode the
 * pieces, each with its own packet and flow decoders, into a stream of
 * batch records (the packets and elements as the decoders gave them); the
 * caller's thread returns them in trace order as items, in place, exactly
 * as the serial pipeline (pft_pipe.c) would.
 *
 * The hand-over between pieces is verified, never assumed.  A piece that
 * starts inside the trace has fresh decoders: it records, at each of its
 * first CAND_MAX I-syncs, the packet and flow decoders' states
 * (pft_sync_state.h) and where its stream stands.  The piece before it
 * decodes past its own end and, at each I-sync, compares its states with
 * the recorded ones at the same offset: at the first that is equal, the
 * two decoders produce the same output from there on, so the earlier
 * piece stops and the later one's stream is used from that I-sync on.  No
 * equal state before the later piece's last candidate: the earlier piece
 * goes on through it (its work is thrown away) to the next piece.  Slower,
 * never wrong.
 *
 * Counts and fit checks: the workers count their pieces in place and run
 * a fit check on each; each candidate keeps the piece's counts and fit
 * check so far, and a piece's part is what it counted from the candidate
 * it took over at to where it handed over, so the hand-over states include
 * the fit checks' (pft_fit_same_future()).  Counting only (count_only), the
 * stream holds just the BAD packets.
 *
 * Feeds: a worker's reads end where the serial decode's do (feed_block),
 * as NOTSYNC packets end at feed ends; a piece decodes one packet at a
 * time where an I-sync may matter to a hand-over.
 *
 * Formatted buffers: pieces are whole frames.  A worker deformats its
 * piece's frames, and past its end those up to its hand-over, keeping the
 * decoded ID's chunks, and feeds its packet decoder exactly as the serial
 * pipeline does (the stage, its stream -> input map and the NOTSYNC cuts
 * at chunk ends of pft_stage.h), so that packets, offsets and cuts are
 * the same; gaps (a frame of four FSYNCs, a dropped frame) reset the
 * decoders as there and go in the stream as records.  Its reads end at
 * every piece's start, so that no batch passes one unseen.  The
 * deformatter needs the ID in force at the piece's first frame: the last
 * frame that sets one within ID_SCAN_BACK bytes before it says which
 * (the start of the file: none); with no such frame (a single source
 * names its ID once), the piece assumes the decoded ID, and the piece
 * before it, which saw the true one there, hands over only if they agree
 * (an I-sync both see at the same offset would not tell: the IDs' byte
 * counts of the stretch before it would differ).  Those counts: each
 * piece notes each ID's bytes from its start to each later piece's start,
 * and the reader adds the range it uses of each.  A raw piece past the
 * fit check's prefix knows so from its offset; a formatted one cannot
 * (the decoded ID may have few of the bytes before it): every piece but
 * the first assumes so, and is taken over only where the piece before it
 * has given its check the prefix.  Decoding chunk by chunk
 * at input offsets, without the stage, would give the packets carried
 * across frames other offsets (the decoder counts them contiguous).
 *
 * Memory: at most par_window() live pieces, and a piece's stream waits
 * for the reader at chunks_max chunks (CHUNK_BUDGET MiB over the live
 * pieces, at least 2 each), so memory does not grow with the trace; nor
 * with the threads past RECORD_THREADS_MAX, as a decode that hands records
 * over runs no more (its reading thread, which takes every record, bounds
 * it long before).
 * A piece's stream takes about 60 bytes per byte of trace (packets and
 * elements are 72 and 64 bytes; about half that with elements in runs and
 * no packets, where a run keeps only its first packet): a piece of the
 * default size (pft_par_piece_size()) fills its chunks, and its worker
 * waits for the reader.  The views' folds write at most about
 * FOLD_BYTES_PER_BYTE: their pieces are as large as their chunks hold, so
 * that a worker finishes its piece before the reader comes to it, and one
 * more piece is live, so that the reader, which takes a piece faster than
 * a worker makes one, still finds the next piece made.
 *
 * Folds (pft_fold.h): a consumer's work on the elements, done by the
 * workers before they write them.  A worker folds from the start of the
 * file, or from its piece's last candidate (recording over), up to where
 * it decodes one packet at a time before its end: every record written
 * there is read, whichever candidate the piece is taken over at and
 * wherever it hands over; what the fold holds back comes out before the
 * stretch ends (close_fold()).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decode/pft_detect.h"
#include "frames/pft_dfmt.h"
#include "pft.h"
#include "decode/pft_batch.h"
#include "decode/pft_par.h"
#include "decode/pft_stage.h"
#include "core/pft_sync_state.h"
#include "common/pft_diag.h"

enum {
	CAND_MAX = 4,              /* I-syncs a piece records for its hand-over */
	CHUNK_SIZE = 1 << 20,      /* record stream chunk */
	/* Chunks a piece may hold before it waits: at most CHUNKS_MAX, and
	 * CHUNK_BUDGET over the live pieces (at least 2 each). */
	CHUNKS_MAX = 8,
	CHUNK_BUDGET = 32,
	BATCH = 64,                /* packets per batch, as in pft_pipe.c */
	PUBLISH_EVERY = 32,        /* batches */
	WAKE_BYTES = 64 << 10,     /* of records that wake a waiting reader */
	ELEM_ROOM = BATCH * PFT_FLOW_ELEMS_MAX,
	FOLD_ROOM = ELEM_ROOM + PFT_FOLD_EXTRA,   /* what a fold's close writes at a time */
	FRAME_SIZE = 16,
	ID_COUNT = 128,            /* trace IDs are 7 bits */
	/* Frames: how far back a piece looks for the ID in force at its start. */
	ID_SCAN_BACK = 4096,
	/* Bytes of trace per piece (pft_par_piece_size()).  Larger pieces
	 * waste less at their ends, where packets are decoded and recorded
	 * one by one and a fold starts over (coverage of the benchmark trace
	 * at -j 2, with its fold: 1.06-1.14 s with pieces of 256 KiB,
	 * 0.94-1.00 s with 1 MiB, 0.96-1.03 s with 2 MiB). */
	PIECE_SIZE = 256 << 10,
	LARGE_PIECE_SIZE = 1 << 20,
	/* Threads of a decode that hands records over (not count_only). */
	RECORD_THREADS_MAX = 16,
	/* Bytes of records a fold that folds (not keeps_size) writes at most
	 * per byte of trace, about: profile's, 14 to 15. */
	FOLD_BYTES_PER_BYTE = 16
};

_Static_assert(ELEM_ROOM <= UINT16_MAX, "a batch's element ends fit 16 bits (tally_batch())");

/* A batch of packets in the stream: this header, then the packets, their
 * elements and the packets' bytes (the packets' @raw point there), each
 * part 8-byte aligned.  No packets: a gap (frames), its offset in place
 * of the packets. */
struct record {
	uint32_t size;             /* of the whole record */
	uint16_t npkts, nelems;
	int32_t status;            /* of a lone BAD packet or a gap, else 0 */
	uint16_t elem_end[];       /* npkts: packet k's elements end there */
};

static size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* Where a record's parts start, from its header. */
struct record_parts {
	size_t pkts, elems, raw, size;
};

/* A record of @npkts packets of @pkt_size bytes, @nelems elements and
 * @raw packet bytes.  No packets and some elements: the elements a flow
 * decoder held back to the end of the stream. */
static struct record_parts record_layout(unsigned npkts, size_t pkt_size, unsigned nelems,
					 size_t raw)
{
	struct record_parts r;

	r.pkts = align8(sizeof(struct record) + npkts * sizeof(uint16_t));
	r.elems = r.pkts + npkts * pkt_size;
	r.raw = r.elems + nelems * sizeof(struct pft_elem);
	r.size = align8(r.raw + raw);
	return r;
}

struct chunk {
	struct chunk *next;
	size_t len;                /* bytes written and published */
	_Alignas(16) uint8_t data[CHUNK_SIZE];
};

/* What a piece has counted (count_only). */
struct tally {
	struct pft_input_counts c;
	uint64_t packets;
};

/* Frames: the data bytes of each trace ID. */
struct id_bytes {
	uint64_t n[ID_COUNT];
};

/* Room for the protocols' packet and flow decoder states. */
enum { PKT_STATE_MAX = 64, FLOW_STATE_MAX = 512 };

/* A recorded I-sync: where a later piece may take over. */
struct cand {
	uint64_t offset;
	unsigned char ps[PKT_STATE_MAX];
	unsigned char fs[FLOW_STATE_MAX];
	struct chunk *chunk;       /* the stream after the I-sync's records */
	size_t pos;
	struct tally tally;        /* count_only: the piece's, up to the I-sync */
	struct pft_fit fit;        /* and its fit check's (prefix not copied) */
	/* count_only: the first ERROR element the piece counted after the
	 * I-sync (set once it has counted one). */
	uint64_t error_offset;
	uint32_t error_reason;
};

enum piece_state { PC_WAITING = 0, PC_RUNNING, PC_DONE, PC_DEAD };

struct piece {
	uint64_t start;
	struct cand cands[CAND_MAX];
	unsigned ncands;
	unsigned errors_noted;     /* candidates given the first error after them */
	int recorded;              /* no more candidates will come */
	struct chunk *head, *tail;
	unsigned nchunks;
	size_t next;               /* the piece that took over (npieces: none) */
	unsigned handover;         /* at next's candidate */
	int err;                   /* a read error ended it */
	int worker_gone;           /* its worker no longer touches it */
	/* Its worker waits for the reader to free one of its chunks. */
	pthread_cond_t room_cv;
	int room_waiting;
	int orphan;                /* the reader passed it: the worker frees it */
	struct tally tally;        /* count_only: all it decoded */
	struct pft_fit *fit;       /* count_only with fit_check */
	uint64_t fit_bytes;        /* packet bytes given to @fit */
	/* Frames: the current ID it assumed at its start, and the bytes of
	 * each ID it deformatted from its start to each later piece's start
	 * (@id_bytes_at[k]: to piece i + 1 + k's) and to the end. */
	uint8_t start_id;
	struct id_bytes *id_bytes_at;
	size_t nid_bytes_at;
	struct id_bytes id_bytes_end;
};

/* A worker's decoders and buffers, reused from piece to piece. */
struct worker {
	struct par *p;
	pthread_t thread;
	void *pkt, *flow;          /* the protocol's decoders */
	uint8_t *in;               /* feed_block bytes */
	unsigned char *pkts;       /* BATCH packets of the protocol */
	struct pft_elem *elems;    /* ELEM_ROOM */
	size_t end[BATCH];
	/* With a fold: its state, and whether it holds something back (to
	 * be closed before the stretch ends). */
	void *fold;
	int fold_open;
	size_t wpos;                  /* bytes written in the piece's last chunk */

	/* Frames: the deformatter and the stage, as the serial pipeline's
	 * (stream: the bytes fed to the packet decoder; staging: the stage
	 * is being fed), a deformatter result held back while the stage is
	 * fed first, the input read so far, the decoded ID's bytes
	 * deformatted in the piece, and the current ID seen at each piece's
	 * start (per piece). */
	struct pft_dfmt *dfmt;
	struct stage stage;
	struct stage_map map;
	uint64_t stream;
	int staging;
	struct stage_held held;
	uint64_t read_pos;
	struct id_bytes id_bytes;
	uint8_t *seen_id;
};

struct par {
	struct par_config c;
	const struct pft_proto *proto;
	int fd;
	size_t npieces;
	struct piece **pieces;     /* NULL: not started, or freed */
	uint8_t *state;            /* enum piece_state, per piece */
	size_t next_start;         /* the next piece a worker takes */
	unsigned live;             /* started, not dead, not yet passed by the reader */
	unsigned window;           /* the most live pieces: par_window() */
	unsigned chunks_max;       /* chunks a piece may hold (CHUNKS_MAX) */
	const struct pft_fold_ops *fold;   /* of c.fold, when the workers fold */
	int stop;
	/* Each kind of waiter has its own condition, so that a change wakes
	 * only the threads it concerns (one for all woke every thread at
	 * every chunk read): the reader waits for records (reader_cv), a
	 * worker for room in its piece (piece.room_cv), idle workers and
	 * workers comparing with the next piece for a piece's events
	 * (work_cv). */
	pthread_mutex_t mu;
	pthread_cond_t reader_cv, work_cv;
	/* Workers whose fold lacks what the reader's progress frees
	 * (fold_wait()) wait on fold_cv; fold_gen counts the fold's
	 * wake-ups (fold_wake()), so that none is lost between a worker's
	 * look and its wait. */
	pthread_cond_t fold_cv;
	atomic_uint fold_waiters, fold_gen;
	atomic_size_t reader_at;   /* @cur, read without the lock */
	int watching;              /* the fold has fold_wake() (ops->watch) */
	struct worker *workers;
	unsigned nworkers;         /* threads started */
	unsigned joined;           /* ... and joined (stop_workers()) */
	struct chunk *pool;        /* chunks for reuse */
	unsigned npool;
	int reader_waiting;
	size_t wait_pos;           /* the reader's position in its chunk then */
	struct pft_input_parallel counts;

	/* The reader (the caller's thread). */
	size_t cur;                /* piece being read; npieces: the end */
	struct chunk *rchunk;
	size_t rpos;
	size_t rlen;               /* of rchunk, published when last looked */
	struct pft_batch batch;    /* the record being returned */
	struct pft_pipe_stats stats;   /* @bytes; the counts come from @total */
	struct id_bytes id_bytes;  /* frames: of the pieces passed */
	int gap;                   /* frames: the record read is a gap */
	uint64_t gap_offset;
	struct pft_fit *fit;       /* the pieces' fit checks added up */
	int ended;
	/* The counts of the parts of the pieces passed, and the candidate
	 * where the piece being read took over (none: the first). */
	struct tally total, from_tally;
	unsigned from_handover;    /* the candidate of @from_tally */
	struct pft_fit from_fit;
	int from_cand;
	uint16_t flush_end;        /* a flush record's elements, as one packet's */
	struct pft_diag error;     /* the last failure (code 0: none) */
};

/* ---- Workers ---- */

/* Chunks are kept for reuse (a fresh one is a fresh mapping, and page
 * faults cost more than the decode): these two run under the lock. */
static struct chunk *chunk_get(struct par *p)
{
	struct chunk *c = p->pool;

	if (c) {
		p->pool = c->next;
		p->npool--;
	} else if (!(c = malloc(sizeof(*c)))) {
		return NULL;
	}
	c->next = NULL;
	c->len = 0;
	return c;
}

static void chunk_put(struct par *p, struct chunk *c)
{
	if (p->npool >= p->window * p->chunks_max) {
		free(c);
		return;
	}
	c->next = p->pool;
	p->pool = c;
	p->npool++;
}

/* The wake-ups, under the lock. */
static void wake_reader(struct par *p)
{
	if (p->reader_waiting)
		pthread_cond_signal(&p->reader_cv);
}

static void wake_room(struct piece *pc)
{
	if (pc && pc->room_waiting)
		pthread_cond_signal(&pc->room_cv);
}

/* A piece's events: started, recorded, done, passed or dead. */
static void wake_workers(struct par *p)
{
	pthread_cond_broadcast(&p->work_cv);
}

static void wake_folds(struct par *p)
{
	if (atomic_load(&p->fold_waiters))
		pthread_cond_broadcast(&p->fold_cv);
}

/* The fold's wake-up (pft_fold_ops.watch), from any thread but under
 * none of this decode's locks. */
static void fold_wake(void *arg)
{
	struct par *p = arg;

	atomic_fetch_add(&p->fold_gen, 1);
	if (atomic_load(&p->fold_waiters)) {
		pthread_mutex_lock(&p->mu);
		pthread_cond_broadcast(&p->fold_cv);
		pthread_mutex_unlock(&p->mu);
	}
}

/* Everyone: the decode stops. */
static void wake_all(struct par *p)
{
	wake_workers(p);
	wake_folds(p);
	wake_reader(p);
	for (size_t i = 0; p->pieces && i < p->npieces; i++)
		wake_room(p->pieces[i]);
}

static void free_chunks(struct par *p, struct chunk *c)
{
	while (c) {
		struct chunk *next = c->next;
		chunk_put(p, c);
		c = next;
	}
}

static void free_piece(struct par *p, struct piece *pc)
{
	if (pc) {
		free_chunks(p, pc->head);
		pft_fit_free(pc->fit);
		free(pc->id_bytes_at);
		pthread_cond_destroy(&pc->room_cv);
	}
	free(pc);
}

static int cancelled(struct par *p, size_t i)
{
	return p->stop || p->state[i] == PC_DEAD;
}

/* Room for one packet's records at the end of piece @i's stream: a new
 * chunk when the last is full; at chunks_max chunks, wait for the reader
 * (the piece's recording is over then, so that no one waits for it).
 * Returns 0, 1 when the piece was cancelled, or -PFT_ERR_NOMEM. */
static int make_room(struct worker *w, size_t i, struct piece *pc, size_t need)
{
	struct par *p = w->p;

	if (pc->tail && CHUNK_SIZE - w->wpos >= need)
		return 0;
	pthread_mutex_lock(&p->mu);
	if (pc->tail && pc->tail->len != w->wpos) {
		pc->tail->len = w->wpos;   /* all of it, before waiting */
		wake_reader(p);
	}
	if (pc->nchunks >= p->chunks_max && !pc->recorded) {
		pc->recorded = 1;
		wake_workers(p);
	}
	if (pc->nchunks >= p->chunks_max && !cancelled(p, i)) {
		p->counts.room_waits++;
		pc->room_waiting = 1;
		do
			pthread_cond_wait(&pc->room_cv, &p->mu);
		while (pc->nchunks >= p->chunks_max && !cancelled(p, i));
		pc->room_waiting = 0;
	}
	int stop = cancelled(p, i);
	struct chunk *c = stop ? NULL : chunk_get(p);
	if (c) {
		if (pc->tail)
			pc->tail->next = c;       /* its length is final */
		else
			pc->head = c;
		pc->tail = c;
		pc->nchunks++;
		w->wpos = 0;
	}
	pthread_mutex_unlock(&p->mu);
	return stop ? 1 : c ? 0 : -PFT_ERR_NOMEM;
}

/* Append the worker's @npkts packets, with status @status and their
 * elements, to the stream (not yet published); with @fold, the fold's
 * output of the elements, written in place.  Returns 0, 1 when the piece
 * was cancelled, or -PFT_ERR_NOMEM. */
static int put_record(struct worker *w, size_t i, struct piece *pc, int npkts, int status,
		      int fold)
{
	const struct pft_proto *pr = w->p->proto;
	const size_t psize = pr->packet_size;
	size_t raw = 0;
	int with_elems = w->flow && !w->p->c.count_only;
	unsigned nelems = with_elems ? (unsigned)w->end[npkts - 1] : 0;
	const unsigned char *from = w->pkts;
	int one = 0;

	/* Elements in runs, without packets: a run's item shows only the
	 * packet of its first element, so only that one is kept. */
	if (with_elems && !w->p->c.packets && w->p->c.runs) {
		if (!nelems)
			return 0;
		int k = 0;
		while (!w->end[k])
			k++;
		from = w->pkts + (size_t)k * psize;
		one = 1;
		npkts = 1;
	}
	for (int k = 0; k < npkts; k++)
		raw += pft_proto_pkt_size(pr, from + (size_t)k * psize);
	struct record_parts l = record_layout((unsigned)npkts, psize,
					      fold ? (unsigned)PFT_FOLD_OUT_MAX(nelems) : nelems, raw);
	int err = make_room(w, i, pc, l.size);
	if (err)
		return err;
	uint8_t *o = pc->tail->data + w->wpos;
	if (fold) {
		int n = w->p->fold->fold(w->fold, w->elems, nelems,
						(struct pft_elem *)(void *)(o + l.elems));
		if (n < 0)
			return -PFT_ERR_NOMEM;
		if (!n)
			return 0;
		nelems = (unsigned)n;
		l = record_layout((unsigned)npkts, psize, nelems, raw);
	} else if (nelems) {
		memcpy(o + l.elems, w->elems, nelems * sizeof(struct pft_elem));
	}
	struct record *r = (struct record *)o;
	unsigned char *pkts = o + l.pkts;
	uint8_t *bytes = o + l.raw;

	r->size = (uint32_t)l.size;
	r->npkts = (uint16_t)npkts;
	r->nelems = (uint16_t)nelems;
	r->status = status;
	for (int k = 0; k < npkts; k++)
		r->elem_end[k] = (uint16_t)(!with_elems ? 0 : one ? nelems : w->end[k]);
	memcpy(pkts, from, (size_t)npkts * psize);
	for (int k = 0; k < npkts; k++) {
		unsigned char *pkt = pkts + (size_t)k * psize;
		uint16_t size = pft_proto_pkt_size(pr, pkt);
		memcpy(bytes, pft_proto_pkt_raw(pr, pkt), size);
		pft_proto_set_pkt_raw(pr, pkt, bytes);
		bytes += size;
	}
	w->wpos += l.size;
	return 0;
}

/* Append a record without packets to the stream: @nelems elements (from
 * w->elems) that the flow decoder held back to the end of the stream, or
 * a gap with status @status (0: a discontinuity) whose input offset is
 * the @rawlen bytes at @raw.  Returns as put_record(). */
static int put_bare(struct worker *w, size_t i, struct piece *pc, unsigned nelems, int status,
		    const void *raw, size_t rawlen)
{
	struct record_parts l = record_layout(0, 0, nelems, rawlen);
	int err = make_room(w, i, pc, l.size);

	if (err)
		return err;
	uint8_t *o = pc->tail->data + w->wpos;
	struct record *r = (struct record *)o;
	r->size = (uint32_t)l.size;
	r->npkts = 0;
	r->nelems = (uint16_t)nelems;
	r->status = status;
	memcpy(o + l.elems, w->elems, nelems * sizeof(struct pft_elem));
	if (rawlen)
		memcpy(o + l.raw, raw, rawlen);
	w->wpos += l.size;
	return 0;
}

static int put_gap(struct worker *w, size_t i, struct piece *pc, int status, uint64_t offset)
{
	return put_bare(w, i, pc, 0, status, &offset, sizeof(offset));
}

/* Count @n elements into piece @pc's tally; the candidates recorded
 * since its last ERROR element get the next one's place (add_part()). */
static void tally_elems(struct piece *pc, const struct pft_elem *elems, size_t n)
{
	uint64_t errors = pc->tally.c.elems[PFT_ELEM_ERROR];

	ptm_count_elems(&pc->tally.c, elems, n);
	if (pc->tally.c.elems[PFT_ELEM_ERROR] == errors || pc->errors_noted == pc->ncands)
		return;
	const struct pft_elem *e = elems;
	while (e->type != PFT_ELEM_ERROR)
		e++;
	for (; pc->errors_noted < pc->ncands; pc->errors_noted++) {
		pc->cands[pc->errors_noted].error_offset = e->offset;
		pc->cands[pc->errors_noted].error_reason = e->reason;
	}
}

/* Count the worker's @npkts packets (status @status) and their elements
 * into piece @pc, giving them to its fit check in the serial decode's
 * order (pft_batch_item(): each packet, then its elements). */
static void tally_batch(struct worker *w, struct piece *pc, int npkts, int status)
{
	struct tally *t = &pc->tally;
	size_t nelems = w->flow ? w->end[npkts - 1] : 0;

	t->packets += (uint64_t)npkts;
	if (status < 0)
		t->c.errors++;
	if (w->p->c.packets)
		w->p->proto->count_packets(&t->c, w->pkts, (size_t)npkts);
	tally_elems(pc, w->elems, nelems);
	if (!pc->fit)
		return;
	/* Fit checks are of PTM sources; the serial decode's way over the
	 * batch, which passes over what the check does not look at (going
	 * through every packet and element was 5 % of decode --count's
	 * instructions at -j 2). */
	uint16_t ends[BATCH];
	for (int k = 0; w->flow && k < npkts; k++)
		ends[k] = (uint16_t)w->end[k];
	const struct pft_batch b = { .pkts = w->pkts, .pkt_size = (uint32_t)w->p->proto->packet_size,
				     .elems = w->flow ? w->elems : NULL, .elem_end = ends,
				     .npkts = npkts, .status = status };
	pft_batch_fit(&b, pc->fit, &pc->fit_bytes, 0, 0);
}

/* Let the reader see what piece @i wrote; returns 1 when it is cancelled. */
static int publish(struct par *p, size_t i, struct piece *pc, size_t written)
{
	pthread_mutex_lock(&p->mu);
	/* The reader is woken only for enough new to read in the piece it
	 * waits in: woken for less, it caught up at once and slept again
	 * (futex calls and context switches were an eighth of the CPU time
	 * of a view at -j 2).  A chunk filled, a piece done wake it anyway. */
	if (pc->tail && pc->tail->len != written) {
		pc->tail->len = written;
		if (i == p->cur && (p->rchunk != pc->tail || written - p->wait_pos >= WAKE_BYTES))
			wake_reader(p);
	}
	int stop = cancelled(p, i);
	pthread_mutex_unlock(&p->mu);
	return stop;
}

/* Piece @i's position against piece @j's candidates at the I-sync at
 * @offset (states @ps, @fs; frames: @i saw current ID @seen_id at @j's
 * start): 1 when @i hands over there (j's candidate *@k), -1 when no later
 * candidate of @j can match (or @j deformatted under another ID), 0 to go
 * on.  Waits
 * until @j's candidates are all known; @i's own recording (*@recording)
 * ends before it waits, so that no piece waits for a piece that waits. */
static int compare_with(struct par *p, size_t i, struct piece *pc, int *recording, size_t j,
			uint8_t seen_id, uint64_t offset, const unsigned char *ps,
			const unsigned char *fs, const struct pft_fit *fit, unsigned *k)
{
	int r = -1;

	pthread_mutex_lock(&p->mu);
	if (*recording && !(p->pieces[j] && p->pieces[j]->recorded)) {
		*recording = 0;
		pc->recorded = 1;
		wake_workers(p);
	}
	while (!cancelled(p, i) && !(p->pieces[j] && p->pieces[j]->recorded))
		pthread_cond_wait(&p->work_cv, &p->mu);
	if (cancelled(p, i)) {
		pthread_mutex_unlock(&p->mu);
		return 0;
	}
	const struct piece *pj = p->pieces[j];
	/* Frames: the serial decode's fit check has its prefix here only if
	 * @i's has (the later piece assumed it). */
	int fit_ok = !fit || !p->c.frames || pc->fit_bytes >= PFT_DETECT_PREFIX;
	for (unsigned n = 0; n < pj->ncands && (!p->c.frames || seen_id == pj->start_id) && fit_ok;
	     n++) {
		const struct cand *c = &pj->cands[n];
		if (c->offset > offset) {
			r = 0;
			break;
		}
		if (c->offset == offset && !memcmp(ps, c->ps, p->proto->pkt_state_size) &&
		    !memcmp(fs, c->fs, p->proto->flow_state_size) &&
		    (!fit || pft_fit_same_future(fit, &c->fit))) {
			*k = n;
			r = 1;
			break;
		}
	}
	pthread_mutex_unlock(&p->mu);
	return r;
}

/* Pieces @j up to @end (exclusive) are decoded by an earlier piece
 * instead: stop their workers. */
static void absorb(struct par *p, size_t j, size_t end)
{
	pthread_mutex_lock(&p->mu);
	for (; j < end; j++) {
		if (p->state[j] == PC_DEAD)
			continue;
		if (p->state[j] != PC_WAITING)
			p->live--;
		p->state[j] = PC_DEAD;
		p->counts.absorbed++;
		wake_room(p->pieces[j]);
	}
	wake_folds(p);
	wake_workers(p);
	wake_reader(p);
	pthread_mutex_unlock(&p->mu);
}

/* With absorb_unbegun: whether piece @pc, come to piece @j's start, is to
 * decode @j too (absorb it) instead of handing over: no thread has begun
 * @j, and @pc's records so far hold half its room at most.  Pieces take
 * their threads unequal times: with two threads, the thread of a piece
 * that ends before the piece before it often waited for the next piece to
 * be begun, which only the other thread, once done with that piece, could
 * do (0.15 to 0.3 s of the threads' time in coverage -j 2 of the benchmark
 * trace).  A piece whose records fill its room would wait for the reader
 * instead. */
static int takes_unbegun(struct par *p, const struct piece *pc, size_t j)
{
	pthread_mutex_lock(&p->mu);
	int unbegun = p->c.absorb_unbegun && j < p->npieces && p->next_start <= j &&
		      p->state[j] == PC_WAITING && pc->nchunks * 2 <= p->chunks_max;
	pthread_mutex_unlock(&p->mu);
	return unbegun;
}

/* The next live piece after @j (npieces: none). */
static size_t next_live(const struct par *p, size_t j)
{
	while (j < p->npieces && p->state[j] == PC_DEAD)
		j++;
	return j;
}

static int read_at(struct par *p, uint8_t *buf, size_t len, uint64_t offset)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(p->fd, buf + got, len - got, (off_t)(offset + got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? errno : EIO;
		got += (size_t)n;
	}
	return 0;
}

static int read_error(struct par *p, uint64_t offset, int e)
{
	return pft_diag_offset(&p->error, -PFT_ERR_BAD_FILE, p->c.path, offset, "%s", strerror(e));
}

/* Frames: start deformatting piece @pc at its start, with the current ID
 * of the last frame before it that sets one, if one does close by; else
 * it assumes the decoded ID, and the piece before it checks that before
 * it hands over (compare_with()). */
static int start_frames(struct worker *w, struct piece *pc)
{
	struct par *p = w->p;
	uint64_t from = pc->start > ID_SCAN_BACK ? pc->start - ID_SCAN_BACK : 0;
	size_t n = (size_t)(pc->start - from);
	uint8_t id = from ? p->c.trace_id : PFT_DFMT_ID_NONE;
	int e = read_at(p, w->in, n, from);

	if (e)
		return read_error(p, from, e);
	for (; n >= FRAME_SIZE; n -= FRAME_SIZE)
		if (pft_dfmt_frame_id(w->in + n - FRAME_SIZE, &id))
			break;
	pc->start_id = id;
	pft_dfmt_start_at(w->dfmt, pc->start, id);
	w->map.n = w->map.at = 0;
	w->stage.len = w->stage.fed = 0;
	w->stream = 0;
	w->staging = w->held.held = 0;
	w->read_pos = pc->start;
	memset(&w->id_bytes, 0, sizeof(w->id_bytes));
	return 0;
}

/* Frames: give the deformatter the next block, which ends at the next
 * piece's start (where the current ID and the bytes so far are noted), or
 * end it at the end of the file.  Returns 0 or a negative error. */
static int read_frames(struct worker *w, size_t i, struct piece *pc)
{
	struct par *p = w->p;
	uint64_t pos = w->read_pos, piece = p->c.piece_size;

	if (pos == p->c.length) {
		pc->id_bytes_end = w->id_bytes;
		return pft_dfmt_finish(w->dfmt);
	}
	if (pos % piece == 0 && pos > pc->start) {
		size_t k = (size_t)(pos / piece);
		if (pc->nid_bytes_at != k - i - 1)
			return -PFT_ERR_INTERNAL;
		struct id_bytes *v = realloc(pc->id_bytes_at, (pc->nid_bytes_at + 1) * sizeof(*v));
		if (!v)
			return -PFT_ERR_NOMEM;
		pc->id_bytes_at = v;
		v[pc->nid_bytes_at++] = w->id_bytes;
		w->seen_id[k] = pft_dfmt_current_id(w->dfmt);
	}
	uint64_t end = (pos / piece + 1) * piece;
	if (end > pos + p->c.feed_block)
		end = pos + p->c.feed_block;
	if (end > p->c.length)
		end = p->c.length;
	int e = read_at(p, w->in, (size_t)(end - pos), pos);
	if (e)
		return read_error(p, pos, e);
	w->read_pos = end;
	return pft_dfmt_feed(w->dfmt, w->in, (size_t)(end - pos));
}

/* Frames: the stage's next bytes to the packet decoder. */
static void feed_stage(struct worker *w)
{
	size_t end = stage_feed_end(&w->stage, &w->map, w->pkt);

	w->p->proto->pkt_feed_at(w->pkt, w->stage.buf + w->stage.fed, end - w->stage.fed,
				 w->stream);
	w->stream += end - w->stage.fed;
	w->stage.fed = end;
	w->staging = 1;
}

/* Frames: a gap (status 0: a discontinuity; else a frame dropped) resets
 * or resynchronises the decoders, as pft_pipe.c's next_gap_item().
 * Returns as put_record(). */
static int frames_gap(struct worker *w, size_t i, struct piece *pc, int status, uint64_t offset)
{
	const struct pft_proto *pr = w->p->proto;

	if (status == 0) {
		pr->pkt_reset(w->pkt);
		w->map.n = w->map.at = 0;
	} else {
		pr->pkt_sync_forward(w->pkt);
		pc->tally.c.errors++;
	}
	if (w->flow)
		pr->flow_reset(w->flow);
	/* Counting, pft_input_count() returns only the gaps with errors. */
	if (w->p->c.count_only && !status)
		return 0;
	return put_gap(w, i, pc, status, offset);
}

/* Frames: the packet decoder has used its input up; give it the next
 * bytes of the decoded ID as the serial pipeline's refill_formatted()
 * does.  Returns 0, 1 when the piece was cancelled, or a negative error. */
static int refill_frames(struct worker *w, size_t i, struct piece *pc)
{
	if (w->staging) {
		if (w->stage.fed < w->stage.len) {
			feed_stage(w);
			return 0;
		}
		w->staging = 0;
		w->stage.len = w->stage.fed = 0;
	}
	for (;;) {
		struct pft_dfmt_chunk c;
		uint64_t err_offset;
		int fresh, r = stage_next_chunk(&w->held, w->dfmt, &c, &err_offset, &fresh);
		int gap = r < 0 || (c.flags & PFT_DFMT_DISCONTINUITY);

		if (fresh && !gap)
			w->id_bytes.n[c.id & (ID_COUNT - 1)] += c.len;
		int ours = !gap && c.id == w->p->c.trace_id && c.len;
		if (!gap && !ours)
			continue;
		/* The staged bytes come before anything that is not theirs. */
		if (w->stage.len && (!ours || !stage_room(&w->stage, &w->map, c.len))) {
			stage_hold(&w->held, &c, r, err_offset);
			feed_stage(w);
			return 0;
		}
		if (r == -PFT_ERR_NEED_INPUT) {
			if ((r = read_frames(w, i, pc)) < 0)
				return r;
			continue;
		}
		if (r == -PFT_ERR_EOS)
			return w->p->proto->pkt_finish(w->pkt);
		if (gap)
			return frames_gap(w, i, pc, r, r < 0 ? err_offset : c.offset);
		if (c.len > STAGE_BYTES)   /* longer than any frame's data */
			return -PFT_ERR_INTERNAL;
		if (!w->stage.len)
			stage_begin(&w->stage, &w->map, w->pkt, w->stream);
		stage_add(&w->stage, &w->map, c.data, c.len, c.offset);
	}
}

/* Raw: give the packet decoder the next bytes of the file, or end it. */
static int refill_raw(struct worker *w, uint64_t *fed)
{
	struct par *p = w->p;

	if (*fed == p->c.length)
		return p->proto->pkt_finish(w->pkt);
	/* Feeds end where the serial decode's do: NOTSYNC packets end at
	 * feed ends too. */
	uint64_t end = (*fed / p->c.feed_block + 1) * p->c.feed_block;
	size_t n = (size_t)((end < p->c.length ? end : p->c.length) - *fed);
	int e = read_at(p, w->in, n, *fed);
	if (e)
		return read_error(p, *fed, e);
	p->proto->pkt_feed_at(w->pkt, w->in, n, *fed);
	*fed += n;
	return 0;
}

/* The end of a stretch the worker folds: what the fold holds goes into
 * piece @i's stream, in records without packets written in place (into
 * none for @i SIZE_MAX: a piece cancelled).  Returns as put_record(). */
static int close_fold(struct worker *w, size_t i, struct piece *pc)
{
	const struct pft_fold_ops *ops = w->p->fold;
	const struct record_parts room = record_layout(0, 0, FOLD_ROOM, 0);
	size_t n;

	w->fold_open = 0;
	do {
		if (i == SIZE_MAX) {
			n = ops->close(w->fold, w->elems, ELEM_ROOM);
			continue;
		}
		int err = make_room(w, i, pc, room.size);
		if (err)
			return err;
		uint8_t *o = pc->tail->data + w->wpos;
		n = ops->close(w->fold, (struct pft_elem *)(void *)(o + room.elems), FOLD_ROOM);
		if (!n)
			break;
		struct record *r = (struct record *)o;
		struct record_parts l = record_layout(0, 0, (unsigned)n, 0);
		*r = (struct record){ .size = (uint32_t)l.size, .nelems = (uint16_t)n };
		w->wpos += l.size;
	} while (n == (i == SIZE_MAX ? ELEM_ROOM : FOLD_ROOM));
	return 0;
}

/*
 * Before the worker folds a batch: when its fold lacks what only the
 * reader's progress frees (pft_fold_ops.blocked: a calls listing's free
 * logs), it would hand the elements over unfolded, which the reader then
 * works through alone; instead piece @i's records so far are published
 * and it waits, unless the reader reads or reaches the piece (whose
 * records must never wait: the reader may wait for them).  Returns 1
 * when the piece is cancelled.
 */
static int fold_wait(struct worker *w, size_t i, struct piece *pc)
{
	struct par *p = w->p;
	int stop = 0;

	if (!p->watching)
		return 0;
	for (;;) {
		unsigned gen = atomic_load(&p->fold_gen);
		int ahead = i > atomic_load_explicit(&p->reader_at, memory_order_relaxed);
		if (!p->fold->blocked(w->fold, ahead) || !ahead)
			return 0;
		pthread_mutex_lock(&p->mu);
		if (pc->tail && pc->tail->len != w->wpos) {
			pc->tail->len = w->wpos;
			if (i == p->cur)
				wake_reader(p);
		}
		if ((stop = cancelled(p, i)) || i <= p->cur) {
			pthread_mutex_unlock(&p->mu);
			/* Not ahead now: the reserve is the worker's. */
			if (!stop)
				p->fold->blocked(w->fold, 0);
			return stop;
		}
		atomic_fetch_add(&p->fold_waiters, 1);
		if (atomic_load(&p->fold_gen) == gen) {
			p->counts.fold_waits++;
			pthread_cond_wait(&p->fold_cv, &p->mu);
		}
		atomic_fetch_sub(&p->fold_waiters, 1);
		pthread_mutex_unlock(&p->mu);
	}
}

/* Decode piece @i until it hands over, the file ends, or it is cancelled.
 * Returns 0 or a negative error code (stored in the piece). */
static int run_piece(struct worker *w, size_t i, struct piece *pc)
{
	struct par *p = w->p;
	const struct pft_proto *pr = p->proto;
	const size_t psize = pr->packet_size;
	const uint64_t ahead = (uint64_t)pr->batch_max * pr->pkt_bytes_max;
	uint64_t fed = pc->start;
	size_t next = i + 1 < p->npieces ? i + 1 : p->npieces;
	uint64_t until = next < p->npieces ? next * (uint64_t)p->c.piece_size : UINT64_MAX;
	int recording = i > 0, checking = 0, unpublished = 0;
	int err;

	pr->pkt_reset(w->pkt);
	if (w->flow)
		pr->flow_reset(w->flow);
	if (w->fold_open)   /* left by a piece cancelled */
		close_fold(w, SIZE_MAX, pc);
	if (p->c.frames && (err = start_frames(w, pc)) < 0)
		return err;
	for (;;) {
		/* One packet at a time where I-syncs matter: the first ones
		 * (recording), and those from the next piece's start on
		 * (checking), which a batch must not pass unseen.  Frames: a
		 * feed never holds bytes on both sides of a piece's start. */
		int single = recording || checking ||
			     (p->c.frames ? w->read_pos > until
					  : pr->pkt_get_offset(w->pkt) + ahead > until);
		/* Counting packets only: pass over what needs no record,
		 * short of where single packets begin, then one packet (the
		 * PTM decoder's skipping). */
		int skipping = !single && p->c.count_only && !w->flow && pr->staged;
		if (skipping)
			pc->tally.packets += ptm_skip_counted(w->pkt, p->c.frames ? UINT64_MAX
									: until - ahead,
							      &pc->tally.c, pc->fit, &pc->fit_bytes);
		int got = pr->pkt_next_batch(w->pkt, w->pkts, single || skipping ? 1 : pr->batch_max);
		int status = 0;

		if (got == -PFT_ERR_NEED_INPUT) {
			err = p->c.frames ? refill_frames(w, i, pc) : refill_raw(w, &fed);
			if (err)
				return err < 0 ? err : 0;
			continue;
		}
		if (got == -PFT_ERR_EOS)
			break;
		if (got < 0) {
			if (pft_proto_pkt_type(pr, w->pkts) != pr->bad_type)
				return -PFT_ERR_INTERNAL;
			status = got;
			got = 1;
		}
		if (p->c.frames) {
			/* As the pipeline's next_batch(): the stream offsets
			 * back to the file's. */
			if (status < 0 && w->staging)
				w->stream -= stage_cut_at_chunk_end(&w->stage, &w->map, w->pkt);
			for (int k = 0; k < got; k++) {
				unsigned char *pkt = w->pkts + (size_t)k * psize;
				pft_proto_set_pkt_offset(pr, pkt, stage_input_offset(
					&w->map, pft_proto_pkt_offset(pr, pkt)));
			}
		}
		uint64_t first = pft_proto_pkt_offset(pr, w->pkts);
		if (single && !checking && first >= until)
			checking = 1;   /* past the end: look for the hand-over */
		if (w->flow && pr->flow_decode(w->flow, w->pkts, got, w->elems, ELEM_ROOM,
					       w->end) != got)
			return -PFT_ERR_INTERNAL;
		tally_batch(w, pc, got, status);
		/* Folded where every record will be read: from the file's
		 * start or the piece's last candidate on, up to where single
		 * packets begin before its end (pft_fold.h). */
		if (w->fold_open && single && (err = close_fold(w, i, pc)) != 0)
			return err < 0 ? err : 0;
		int fold = w->fold && !single;
		w->fold_open |= fold;
		if (fold && (err = fold_wait(w, i, pc)) != 0)
			return err < 0 ? err : 0;
		if ((!p->c.count_only || (status < 0 && p->c.packets)) &&
		    (err = put_record(w, i, pc, got, status, fold)) != 0)
			return err < 0 ? err : 0;
		if (w->fold_open && p->fold->full(w->fold) &&
		    (err = close_fold(w, i, pc)) != 0)
			return err < 0 ? err : 0;
		/* Published now and then (the lock is not free), and at the
		 * I-syncs that may end or start the piece's part. */
		int isync = single && pft_proto_pkt_type(pr, w->pkts) == pr->isync_type && !status;
		if (isync || ++unpublished == PUBLISH_EVERY) {
			unpublished = 0;
			if (publish(p, i, pc, w->wpos))
				return 0;
		}
		if (!isync)
			continue;

		unsigned char ps[PKT_STATE_MAX], fs[FLOW_STATE_MAX];
		pr->pkt_sync_state(w->pkt, ps);
		if (w->flow)
			pr->flow_sync_state(w->flow, fs);
		else
			memset(fs, 0, pr->flow_state_size);
		uint64_t at = first;
		if (recording) {
			pthread_mutex_lock(&p->mu);
			if (pc->tail)
				pc->tail->len = w->wpos;
			/* Recording ends early when the stream fills up. */
			if (!pc->recorded) {
				struct cand *c = &pc->cands[pc->ncands++];
				c->offset = at;
				memcpy(c->ps, ps, pr->pkt_state_size);
				memcpy(c->fs, fs, pr->flow_state_size);
				c->chunk = pc->tail;
				c->pos = w->wpos;
				c->tally = pc->tally;
				if (pc->fit)
					c->fit = *pc->fit;
			}
			if (pc->ncands == CAND_MAX || pc->recorded) {
				pc->recorded = 1;
				recording = 0;
				wake_workers(p);
			}
			wake_reader(p);
			pthread_mutex_unlock(&p->mu);
		}
		if (!checking)
			continue;
		unsigned k = 0;
		int unbegun = takes_unbegun(p, pc, next);
		int r = unbegun ? -1
				: compare_with(p, i, pc, &recording, next,
					       p->c.frames ? w->seen_id[next] : 0, at, ps, fs, pc->fit,
					       &k);
		if (r > 0) {
			pc->next = next;
			pc->handover = k;
			return 0;
		}
		if (r < 0) {
			/* No hand-over into @next: decode it here, up to the one
			 * after it. */
			absorb(p, next, next + 1);
			pthread_mutex_lock(&p->mu);
			if (unbegun && recording) {   /* as compare_with() ends it */
				recording = 0;
				pc->recorded = 1;
				wake_workers(p);
			}
			next = next_live(p, next + 1);
			pthread_mutex_unlock(&p->mu);
			until = next < p->npieces ? next * (uint64_t)p->c.piece_size : UINT64_MAX;
			checking = at >= until;
		}
	}
	/* The end of the file: what the flow decoder held back, and every
	 * later piece was decoded here. */
	if (w->fold_open && (err = close_fold(w, i, pc)) != 0)
		return err < 0 ? err : 0;
	if (w->flow && pr->flow_finish) {
		int n = pr->flow_finish(w->flow, w->elems, ELEM_ROOM);
		if (n < 0)
			return n;
		w->end[0] = (size_t)n;
		tally_elems(pc, w->elems, (size_t)n);
		if (n && !p->c.count_only && (err = put_bare(w, i, pc, (unsigned)n, 0, NULL, 0)) != 0)
			return err < 0 ? err : 0;
	}
	if (publish(p, i, pc, w->wpos))
		return 0;
	absorb(p, next, p->npieces);
	pc->next = p->npieces;
	return 0;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct par *p = w->p;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (p->next_start < p->npieces && p->state[p->next_start] == PC_DEAD)
			p->next_start++;
		if (p->stop || p->next_start >= p->npieces)
			break;
		if (p->live >= p->window) {
			pthread_cond_wait(&p->work_cv, &p->mu);
			continue;
		}
		size_t i = p->next_start++;
		struct piece *pc = calloc(1, sizeof(*pc));
		if (pc && p->fit && !(pc->fit = pft_fit_alloc(&p->c.cfg, p->c.image, NULL))) {
			free(pc);
			pc = NULL;
		}
		if (!pc) {
			p->stop = 1;
			pft_diag_set(&p->error, -PFT_ERR_NOMEM, "out of memory");
			wake_all(p);
			break;
		}
		pthread_cond_init(&pc->room_cv, NULL);
		pc->start = i * (uint64_t)p->c.piece_size;
		/* Every byte of a raw file is in a packet: by the time the
		 * reader adds this piece's part, the detection prefix holds
		 * the bytes before its start, so a piece past the prefix
		 * gives its fit check only the packets it counts.  Frames
		 * (fewer packet bytes than file bytes): every piece but the
		 * first assumes so, and is taken over only where the piece
		 * before it has given its check the prefix. */
		if (p->c.frames ? i > 0 : pc->start >= PFT_DETECT_PREFIX)
			pc->fit_bytes = PFT_DETECT_PREFIX;
		pc->next = p->npieces;
		p->pieces[i] = pc;
		p->state[i] = PC_RUNNING;
		p->live++;
		pthread_mutex_unlock(&p->mu);

		int err = run_piece(w, i, pc);

		pthread_mutex_lock(&p->mu);
		pc->err = err;
		pc->recorded = 1;
		if (p->state[i] == PC_RUNNING)
			p->state[i] = PC_DONE;
		if (p->state[i] == PC_DEAD) {
			/* Nobody reads it: give its memory back now. */
			free_chunks(p, pc->head);
			pc->head = pc->tail = NULL;
			pc->nchunks = 0;
		}
		pc->worker_gone = 1;
		if (pc->orphan) {
			p->pieces[i] = NULL;
			free_piece(p, pc);
		}
		wake_reader(p);
		wake_workers(p);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* ---- Setup ---- */

static void stop_workers(struct par *p)
{
	pthread_mutex_lock(&p->mu);
	p->stop = 1;
	wake_all(p);
	pthread_mutex_unlock(&p->mu);
	for (unsigned t = p->joined; t < p->nworkers; t++)
		pthread_join(p->workers[t].thread, NULL);
	p->joined = p->nworkers;
	/* The fold's context may be freed from now on. */
	if (p->watching) {
		p->fold->watch(p->c.fold->ctx, NULL, NULL);
		p->watching = 0;
	}
}

void pft_par_free(struct par *p)
{
	if (!p)
		return;
	stop_workers(p);
	for (size_t i = 0; p->workers && i < p->c.threads; i++) {
		p->proto->pkt_free(p->workers[i].pkt);
		p->proto->flow_free(p->workers[i].flow);
		free(p->workers[i].pkts);
		free(p->workers[i].in);
		free(p->workers[i].elems);
		if (p->workers[i].fold)
			p->fold->worker_free(p->workers[i].fold);
		pft_dfmt_free(p->workers[i].dfmt);
		free(p->workers[i].stage.buf);
		free(p->workers[i].map.e);
		free(p->workers[i].seen_id);
	}
	free(p->workers);
	for (size_t i = 0; p->pieces && i < p->npieces; i++)
		free_piece(p, p->pieces[i]);
	free(p->pieces);
	free(p->state);
	while (p->pool) {
		struct chunk *c = p->pool;
		p->pool = c->next;
		free(c);
	}
	pft_fit_free(p->fit);
	if (p->fd >= 0)
		close(p->fd);
	pthread_cond_destroy(&p->reader_cv);
	pthread_cond_destroy(&p->work_cv);
	pthread_cond_destroy(&p->fold_cv);
	pthread_mutex_destroy(&p->mu);
	free(p);
}

static int init_worker(struct par *p, struct worker *w)
{
	int err = 0;

	w->p = p;
	w->pkt = p->proto->pkt_alloc(p->c.proto_cfg, &err);
	if (w->pkt && p->c.elements)
		w->flow = p->proto->flow_alloc(p->c.proto_cfg, p->c.image, &err);
	w->in = malloc(p->c.feed_block > ID_SCAN_BACK ? p->c.feed_block : ID_SCAN_BACK);
	w->elems = malloc(ELEM_ROOM * sizeof(*w->elems));
	w->pkts = malloc((size_t)p->proto->batch_max * p->proto->packet_size);
	if (!w->pkt || (p->c.elements && !w->flow))
		return err;
	if (!w->pkts)
		return -PFT_ERR_NOMEM;
	if (p->fold && !(w->fold = p->fold->worker_alloc(p->c.fold->ctx)))
		return -PFT_ERR_NOMEM;
	if (p->c.frames) {
		struct pft_dfmt_config dc = { .size = sizeof(dc) };
		if (!(w->dfmt = pft_dfmt_alloc(&dc, &err)))
			return err;
		w->stage.buf = malloc(STAGE_BYTES);
		w->map.e = malloc(STAGE_MAP_ROOM * sizeof(*w->map.e));
		w->seen_id = malloc(p->npieces);
		if (!w->stage.buf || !w->map.e || !w->seen_id)
			return -PFT_ERR_NOMEM;
	}
	return w->in && w->elems ? 0 : -PFT_ERR_NOMEM;
}

int pft_par_protocol_ok(unsigned protocol, int frames)
{
	const struct pft_proto *pr = pft_proto_of(protocol);

	/* Hand-overs compare the decoders' states; formatted pieces are
	 * staged. */
	return pr && pr->pkt_sync_state && pr->flow_sync_state && (!frames || pr->staged);
}

/* The chunks a piece's stream may hold when @window pieces are live. */
static unsigned chunks_per_piece(size_t window)
{
	size_t n = CHUNK_BUDGET / window;

	return n > CHUNKS_MAX ? CHUNKS_MAX : n < 2 ? 2 : (unsigned)n;
}

/* The threads asked for, as a decode that counts (@count_only) or hands
 * records over runs them (before the limit of one per piece). */
static unsigned par_threads(unsigned threads, int count_only)
{
	return !count_only && threads > RECORD_THREADS_MAX ? RECORD_THREADS_MAX : threads;
}

/* The most live pieces with @threads threads: one a thread and the one
 * the reader reads, and one more with a fold that folds (@fold). */
static unsigned par_window(unsigned threads, int fold)
{
	return threads + 1 + (fold != 0);
}

uint32_t pft_par_piece_size(unsigned threads, int count_only, int fold)
{
	threads = par_threads(threads, count_only);
	if (count_only)
		return LARGE_PIECE_SIZE;
	if (!fold)
		return PIECE_SIZE;
	uint32_t size = chunks_per_piece(par_window(threads, fold)) * (CHUNK_SIZE / FOLD_BYTES_PER_BYTE);
	return size > PIECE_SIZE ? size : PIECE_SIZE;
}

int pft_par_alloc(const struct par_config *c, struct par **out)
{
	int err = -PFT_ERR_NOMEM;

	const struct pft_proto *proto = pft_proto_of(c->protocol);

	*out = NULL;
	if (!c->piece_size || !c->feed_block || c->threads < 2 || c->length / c->piece_size < 2 ||
	    (c->frames && c->piece_size % FRAME_SIZE) || !pft_par_protocol_ok(c->protocol, c->frames))
		return 0;
	if (proto->batch_max > BATCH || proto->pkt_state_size > PKT_STATE_MAX ||
	    proto->flow_state_size > FLOW_STATE_MAX)
		return -PFT_ERR_INTERNAL;
	struct par *p = calloc(1, sizeof(*p));
	if (!p)
		return -PFT_ERR_NOMEM;
	p->c = *c;
	p->proto = proto;
	p->fd = -1;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->reader_cv, NULL);
	pthread_cond_init(&p->work_cv, NULL);
	pthread_cond_init(&p->fold_cv, NULL);
	atomic_init(&p->fold_waiters, 0);
	atomic_init(&p->fold_gen, 0);
	atomic_init(&p->reader_at, 0);
	p->npieces = (size_t)((c->length + c->piece_size - 1) / c->piece_size);
	/* More threads than pieces would only wait. */
	p->c.threads = par_threads(p->c.threads, c->count_only);
	if (p->c.threads > p->npieces)
		p->c.threads = (unsigned)p->npieces;
	p->counts.threads = p->c.threads;
	/* Its ops are static: the workers' states can be freed after the
	 * consumer that made the fold. */
	if (c->fold && !c->count_only && c->elements && c->runs && !c->packets)
		p->fold = c->fold->ops;
	p->window = par_window(p->c.threads, p->fold && !p->fold->keeps_size);
	if (p->fold && p->fold->blocked && p->fold->watch) {
		p->fold->watch(c->fold->ctx, fold_wake, p);
		p->watching = 1;
	}
	p->chunks_max = chunks_per_piece(p->window);
	p->counts.pieces = p->npieces;
	p->pieces = calloc(p->npieces, sizeof(*p->pieces));
	p->state = calloc(p->npieces, 1);
	p->workers = calloc(p->c.threads, sizeof(*p->workers));
	if (!p->pieces || !p->state || !p->workers)
		goto fail;
	if (c->fit_check && c->protocol == PFT_PROTO_PTM &&
	    !(p->fit = pft_fit_alloc(&c->cfg, c->image, &err)))
		goto fail;
	p->fd = open(c->path, O_RDONLY | O_CLOEXEC);
	if (p->fd < 0) {
		err = -PFT_ERR_BAD_FILE;
		goto fail;
	}
	for (unsigned t = 0; t < p->c.threads; t++)
		if ((err = init_worker(p, &p->workers[t])) < 0)
			goto fail;
	for (unsigned t = 0; t < p->c.threads; t++) {
		if (pthread_create(&p->workers[t].thread, NULL, worker_main, &p->workers[t])) {
			err = -PFT_ERR_INVALID;
			goto fail;
		}
		p->nworkers++;
	}
	*out = p;
	return 0;
fail:
	pft_par_free(p);
	return err;
}

/* ---- The reader ---- */

const struct pft_diag *pft_par_error(const struct par *p)
{
	return &p->error;
}

void pft_par_source_stats(const struct par *p, struct pft_pipe_stats *st)
{
	*st = p->stats;
	st->packets = p->total.packets;
	st->errors = p->total.c.errors;
	st->insns = p->total.c.insns;
}

uint64_t pft_par_id_bytes(const struct par *p, unsigned id)
{
	return p->c.frames && id < ID_COUNT ? p->id_bytes.n[id] : 0;
}

void pft_par_total(const struct par *p, struct pft_input_counts *c)
{
	*c = p->total.c;
	c->bytes = p->stats.bytes;
}

int pft_par_fit(const struct par *p, struct pft_fit_verdict *v, size_t size)
{
	if (!p->fit)
		return -PFT_ERR_INVALID;
	return pft_fit_report(p->fit, v, size);
}

void pft_par_counts(struct par *p, struct pft_input_parallel *st)
{
	pthread_mutex_lock(&p->mu);
	*st = p->counts;
	for (unsigned k = 0; p->fold && k < p->nworkers; k++)
		st->folded += p->fold->folded(p->workers[k].fold);
	pthread_mutex_unlock(&p->mu);
}

/* Move the reader from the piece it finished to @next, at candidate
 * @handover; the pieces passed are freed (or left to their workers). */
static void add_counts(struct pft_input_counts *to, const struct pft_input_counts *end,
		       const struct pft_input_counts *start)
{
	for (int t = 0; t < PFT_INPUT_COUNT_TYPES; t++) {
		to->packets[t] += end->packets[t] - start->packets[t];
		to->etm3_packets[t] += end->etm3_packets[t] - start->etm3_packets[t];
		to->elems[t] += end->elems[t] - start->elems[t];
	}
	to->insns += end->insns - start->insns;
	to->errors += end->errors - start->errors;
}

/* count_only: add the part of piece @pc the reader is leaving, from the
 * candidate it took over at. */
static void add_part(struct par *p, const struct piece *pc)
{
	static const struct tally none;
	const struct tally *from = p->from_cand ? &p->from_tally : &none;
	struct pft_input_counts *c = &p->total.c;
	int first = !c->elems[PFT_ELEM_ERROR];

	add_counts(c, &pc->tally.c, &from->c);
	if (first && c->elems[PFT_ELEM_ERROR]) {
		const struct cand *at = &pc->cands[p->from_handover];
		c->first_error_offset = from->c.elems[PFT_ELEM_ERROR] ? at->error_offset
						: pc->tally.c.first_error_offset;
		c->first_error_reason = from->c.elems[PFT_ELEM_ERROR] ? at->error_reason
						: pc->tally.c.first_error_reason;
	}
	p->total.packets += pc->tally.packets - from->packets;
	if (p->fit && pc->fit)
		pft_fit_add_part(p->fit, pc->fit, p->from_cand ? &p->from_fit : NULL);
}

static void pass_pieces(struct par *p, size_t next, unsigned handover)
{
	const struct piece *cur = p->cur < p->npieces ? p->pieces[p->cur] : NULL;

	if (cur)
		add_part(p, cur);
	/* Frames: the IDs' bytes are those the piece deformatted up to the
	 * next one's start (the decoded ID's, as the serial decode's
	 * statistics count them, are then all counted at the end). */
	if (cur && p->c.frames) {
		const struct id_bytes *b = next >= p->npieces ? &cur->id_bytes_end
			: next - p->cur - 1 < cur->nid_bytes_at ? &cur->id_bytes_at[next - p->cur - 1]
			: NULL;
		for (int id = 0; b && id < ID_COUNT; id++)
			p->id_bytes.n[id] += b->n[id];
		p->stats.bytes = p->id_bytes.n[p->c.trace_id & (ID_COUNT - 1)];
	}
	for (size_t j = p->cur; j < next && j < p->npieces; j++) {
		struct piece *pc = p->pieces[j];
		if (p->state[j] != PC_DEAD)
			p->live--;
		if (!pc)
			continue;
		if (pc->worker_gone) {
			p->pieces[j] = NULL;
			free_piece(p, pc);
		} else {
			pc->orphan = 1;
		}
	}
	p->cur = next;
	atomic_store_explicit(&p->reader_at, next, memory_order_relaxed);
	wake_folds(p);
	p->rchunk = NULL;
	if (next < p->npieces) {
		struct piece *pc = p->pieces[next];
		p->rchunk = pc->cands[handover].chunk;
		p->rpos = pc->cands[handover].pos;
		p->from_tally = pc->cands[handover].tally;
		p->from_handover = handover;
		p->from_fit = pc->cands[handover].fit;
		p->from_cand = 1;
		/* The chunks before the hand-over are never read (none: the
		 * piece had recorded nothing yet, the reader starts at its head). */
		while (p->rchunk && pc->head != p->rchunk) {
			struct chunk *c = pc->head;
			pc->head = c->next;
			pc->nchunks--;
			chunk_put(p, c);
		}
		wake_room(pc);
		p->counts.handovers++;
	}
	wake_workers(p);
}

/* The next published record for the reader (under the lock), waited for,
 * in *@in; NULL at the end of the trace.  Returns 0 or an error. */
static int readable(struct par *p, const uint8_t **in)
{
	*in = NULL;
	while (p->cur < p->npieces) {
		struct piece *pc = p->pieces[p->cur];
		int done = p->state[p->cur] == PC_DONE;

		if (pc && done && pc->err)
			return pc->err;
		if (pc && !p->rchunk && pc->head) {
			p->rchunk = pc->head;   /* the first piece: from its start */
			p->rpos = 0;
		}
		if (p->rchunk && p->rpos < p->rchunk->len) {
			*in = p->rchunk->data + p->rpos;
			return 0;
		}
		if (p->rchunk && p->rchunk->next) {
			struct chunk *c = p->rchunk;
			p->rchunk = c->next;
			p->rpos = 0;
			pc->head = c->next;
			pc->nchunks--;
			chunk_put(p, c);
			wake_room(pc);
			continue;
		}
		if (pc && done) {
			pass_pieces(p, next_live(p, pc->next),
				    pc->next < p->npieces ? pc->handover : 0);
			continue;
		}
		if (p->stop)
			return -PFT_ERR_NOMEM;
		p->reader_waiting = 1;
		p->counts.reader_waits++;
		p->wait_pos = p->rpos;
		pthread_cond_wait(&p->reader_cv, &p->mu);
		p->reader_waiting = 0;
	}
	return 0;
}

/* The next record of the stream in the reader's batch: 1, 0 at the
 * end, or a negative error. */
static int next_batch(struct par *p)
{
	const uint8_t *in;

	/* The lock only when what was published is read. */
	if (p->rchunk && p->rpos < p->rlen) {
		in = p->rchunk->data + p->rpos;
	} else {
		pthread_mutex_lock(&p->mu);
		int err = readable(p, &in);
		p->rlen = p->rchunk ? p->rchunk->len : 0;
		pthread_mutex_unlock(&p->mu);
		if (err < 0)
			return err;
	}
	p->batch.npkts = 0;
	if (!in)
		return 0;
	/* Published records do not change: read them unlocked, in place. */
	const struct pft_proto *pr = p->proto;
	const struct record *r = (const struct record *)in;
	struct record_parts l = record_layout(r->npkts, pr->packet_size, r->nelems, 0);
	p->rpos += r->size;
	if (!r->npkts && r->nelems) {
		/* The elements held back to the end, as if of a packet
		 * returned already (pft_batch.h). */
		p->flush_end = r->nelems;
		p->batch = (struct pft_batch){ .pkts = NULL, .protocol = pr->protocol,
					       .elems = (const struct pft_elem *)(in + l.elems),
					       .elem_end = &p->flush_end, .npkts = 1, .ipkt = 1 };
		return 1;
	}
	if (!r->npkts) {
		p->gap = 1;
		p->batch.status = r->status;
		memcpy(&p->gap_offset, in + l.raw, sizeof(p->gap_offset));
		return 1;
	}
	p->batch = (struct pft_batch){ .pkts = in + l.pkts, .pkt_size = pr->packet_size,
				       .protocol = pr->protocol,
				       .elems = p->c.elements && !p->c.count_only
							? (const struct pft_elem *)
								(in + l.elems) : NULL,
				       .elem_end = r->elem_end, .npkts = r->npkts,
				       .status = r->status };
	const unsigned char *last = in + l.pkts + (size_t)(r->npkts - 1) * pr->packet_size;
	if (!p->c.frames)
		p->stats.bytes = pft_proto_pkt_offset(pr, last) + pft_proto_pkt_size(pr, last);
	return 1;
}

int pft_par_next(struct par *p, struct pft_item *item, size_t size)
{
	int r;

	if (size > sizeof(*item))
		memset((char *)item + sizeof(*item), 0, size - sizeof(*item));
	memset(item, 0, sizeof(*item));
	item->protocol = p->proto->protocol;
	item->count = 1;
	uint64_t fit_bytes = 0;

	/* The workers counted the items, and gave the fit checks theirs. */
	while (!pft_batch_item(&p->batch, p->c.packets, p->c.runs, NULL, NULL, &fit_bytes, item)) {
		if (p->ended)
			return -PFT_ERR_EOS;
		if ((r = next_batch(p)) < 0)
			return r;
		if (p->c.progress)
			p->c.progress(p->c.progress_ctx);
		if (p->gap) {
			p->gap = 0;
			item->type = PFT_ITEM_GAP;
			item->status = p->batch.status;
			item->offset = p->gap_offset;
			p->batch.status = 0;
			return 0;
		}
		if (!r) {
			p->ended = 1;
			if (!p->c.frames)
				p->stats.bytes = p->c.length;
			/* Threads still on pieces the reading passed would
			 * touch the fold's context, which its owner may free
			 * once the trace has ended. */
			stop_workers(p);
		}
	}
	return 0;
}

uint64_t pft_par_position(const struct par *p)
{
	uint64_t at = p->cur * (uint64_t)p->c.piece_size;

	return at < p->c.length ? at : p->c.length;
}
