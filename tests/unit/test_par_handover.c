/* test_par_handover - the parallel decode's hand-over (pft_par.c) on
 * hand-built raw PTM streams cut into 32-byte pieces: a piece takes over
 * only at an I-sync where its fresh decoders' states equal those of the
 * decoder that came from the start, so a timestamp or a return-stack entry
 * from before the piece moves the hand-over (or cancels it), and the items
 * are those of the serial decode whichever happens.
 *
 * Packets (pft-protocol.md 5): A-sync 00 00 00 00 00 80; I-sync 08 + the
 * address (little-endian) + an information byte (0: periodic, ARM); atom
 * 0x84 = one E atom; ignore 0x66; timestamp 0x42 + 7-bit groups (bit 7:
 * another follows), the 9th group of a 64-bit one 8 bits wide. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pft.h"
#include "core/pft_sync_state.h"
#include "decode/pft_par.h"
#include "ptunit.h"

enum { PIECE = 32 };

static char dir[] = "/tmp/test_par_handover.XXXXXX";

struct stream {
	uint8_t b[256];
	size_t n;
};

static void put(struct stream *s, const uint8_t *bytes, size_t n)
{
	memcpy(s->b + s->n, bytes, n);
	s->n += n;
}

static void async(struct stream *s)
{
	put(s, (const uint8_t[]){ 0, 0, 0, 0, 0, 0x80 }, 6);
}

static void isync(struct stream *s, uint32_t addr)
{
	put(s, (const uint8_t[]){ 0x08, (uint8_t)addr, (uint8_t)(addr >> 8),
				  (uint8_t)(addr >> 16), (uint8_t)(addr >> 24), 0 }, 6);
}

/* A 64-bit timestamp sent whole (all nine groups). */
static void full_timestamp(struct stream *s, uint64_t v)
{
	uint8_t t[10] = { 0x42 };

	for (int i = 0; i < 8; i++)
		t[1 + i] = (uint8_t)(0x80 | ((v >> (7 * i)) & 0x7f));
	t[9] = (uint8_t)(v >> 56);
	put(s, t, sizeof(t));
}

/* Ignore packets up to offset @to (the next piece). */
static void fill_to(struct stream *s, size_t to)
{
	while (s->n < to)
		s->b[s->n++] = 0x66;
}

static const char *write_file(const char *name, const void *bytes, size_t n)
{
	static char path[4][256];
	static int next;
	char *p = path[next++ % 4];
	FILE *f;

	snprintf(p, sizeof(path[0]), "%s/%s", dir, name);
	f = fopen(p, "wb");
	PTU_CHECK(f != NULL);
	if (f) {
		PTU_EQ(fwrite(bytes, 1, n, f), n);
		fclose(f);
	}
	return p;
}

/* Raw PTM file @trace under @cfg, with @image at 0x1000 (NULL: none),
 * decoded in @threads threads, in pieces of PIECE bytes. */
static struct pft_input *open_raw(const char *trace, const char *image,
				  const struct pft_ptm_config *cfg, unsigned threads)
{
	struct pft_input_config ic = { .size = sizeof(ic), .packets = 1, .elements = 1,
				       .fit_check = 1, .id = -1, .threads = threads,
				       .piece_size = PIECE };
	struct pft_input *in = pft_input_alloc(&ic, NULL);

	PTU_CHECK(in != NULL);
	if (!in)
		return NULL;
	if (image)
		PTU_EQ(pft_input_add_image(in, image, 0x1000), 0);
	PTU_EQ(pft_input_open_file(in, trace, PFT_PIPE_RAW), 0);
	PTU_EQ(pft_input_add_ptm(in, -1, cfg), 0);
	return in;
}

/* Every item of the decode, one line each (packets and elements with
 * the fields a listing shows), and the parallel decode's counts. */
static size_t decode(const char *trace, const char *image, const struct pft_ptm_config *cfg,
		     unsigned threads, char *out, size_t len, struct pft_input_parallel *par)
{
	struct pft_input *in = open_raw(trace, image, cfg, threads);
	struct pft_item it;
	size_t n = 0;
	int r;

	if (!in)
		return 0;
	while ((r = pft_input_next(in, &it, sizeof(it))) == 0 && n + 200 < len) {
		for (uint32_t k = 0; k < it.count; k++) {
			if (it.type == PFT_ITEM_PACKET) {
				const struct pft_ptm_packet *p = &it.ptm[k];
				n += (size_t)snprintf(out + n, len - n,
						      "P %d %llu %u %u %u %x %llx %u %u %u\n",
						      it.status, (unsigned long long)p->offset,
						      p->type, p->size, p->raw[0], p->addr,
						      (unsigned long long)p->ts, p->n_atoms,
						      p->atoms, p->isa);
			} else {
				const struct pft_elem *e = &it.elem[k];
				n += (size_t)snprintf(out + n, len - n,
						      "E %llu %u %x %x %u %u %llx %x\n",
						      (unsigned long long)e->offset, e->type,
						      e->start, e->end, e->ninsn, e->reason,
						      (unsigned long long)e->ts, e->addr);
			}
		}
	}
	PTU_EQ(r, -PFT_ERR_EOS);
	PTU_EQ(pft_input_parallel_stats(in, par, sizeof(*par)), 0);
	pft_input_free(in);
	return n;
}

/* The items' packets and elements counted by type (what a listing
 * shows), as pft_input_counts() gives them. */
static void count_items(const char *trace, const char *image, const struct pft_ptm_config *cfg,
			struct pft_input_counts *c)
{
	struct pft_input *in = open_raw(trace, image, cfg, 1);
	struct pft_item it;

	memset(c, 0, sizeof(*c));
	if (!in)
		return;
	while (pft_input_next(in, &it, sizeof(it)) == 0) {
		for (uint32_t k = 0; k < it.count; k++) {
			if (it.type == PFT_ITEM_PACKET) {
				c->packets[it.ptm[k].type]++;
				c->errors += it.status < 0;
			} else {
				const struct pft_elem *e = &it.elem[k];
				if (e->type == PFT_ELEM_ERROR && !c->elems[PFT_ELEM_ERROR]) {
					c->first_error_offset = e->offset;
					c->first_error_reason = e->reason;
				}
				c->elems[e->type]++;
				if (e->type == PFT_ELEM_RANGE)
					c->insns += e->ninsn;
			}
		}
	}
	struct pft_input_source src;
	PTU_EQ(pft_input_source(in, 0, &src, sizeof(src)), 0);
	c->bytes = src.stats.bytes;
	pft_input_free(in);
}

/* pft_input_count() over @trace with @threads: its counts in *@c, the
 * BAD packets it returned in *@bad; the parallel decode's counts in *@par. */
static void count(const char *trace, const char *image, const struct pft_ptm_config *cfg,
		  unsigned threads, struct pft_input_counts *c, uint64_t *bad,
		  struct pft_input_parallel *par)
{
	struct pft_input *in = open_raw(trace, image, cfg, threads);
	struct pft_item it;
	int r;

	memset(c, 0, sizeof(*c));
	*bad = 0;
	if (!in)
		return;
	while ((r = pft_input_count(in, &it, sizeof(it))) == 0) {
		PTU_EQ(it.type, PFT_ITEM_PACKET);
		PTU_EQ(it.ptm->type, PFT_PTM_PKT_BAD);
		PTU_CHECK(it.status < 0);
		*bad += 1;
	}
	PTU_EQ(r, -PFT_ERR_EOS);
	/* Read by counting: not by items. */
	PTU_EQ(pft_input_next(in, &it, sizeof(it)), -PFT_ERR_INVALID);
	PTU_EQ(pft_input_counts(in, 0, c, sizeof(*c)), 0);
	/* A caller built before the first error's place: the fields it has. */
	const size_t old = offsetof(struct pft_input_counts, first_error_offset);
	struct pft_input_counts before;
	memset(&before, 0xee, sizeof(before));
	PTU_EQ(pft_input_counts(in, 0, &before, old - 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_input_counts(in, 0, &before, old), 0);
	PTU_CHECK(!memcmp(&before, c, old));
	PTU_EQ(before.first_error_offset, 0xeeeeeeeeeeeeeeeeull);
	PTU_EQ(pft_input_parallel_stats(in, par, sizeof(*par)), 0);
	pft_input_free(in);
}

/* Counting @s with one thread and with two gives the counts of the
 * serial decode's items. */
static void counts_as_items(const struct stream *s, const char *image, int return_stack)
{
	struct pft_input_counts want, one, two;
	struct pft_input_parallel par;
	struct pft_ptm_config cfg;
	uint64_t bad1, bad2;
	const char *trace = write_file("count.pft", s->b, s->n);

	pft_ptm_config_init(&cfg);
	cfg.return_stack = (uint8_t)return_stack;
	count_items(trace, image, &cfg, &want);
	count(trace, image, &cfg, 1, &one, &bad1, &par);
	PTU_EQ(par.pieces, 0);
	count(trace, image, &cfg, 2, &two, &bad2, &par);
	PTU_EQ(par.pieces, (s->n + PIECE - 1) / PIECE);
	PTU_CHECK(!memcmp(&one, &want, sizeof(want)));
	PTU_CHECK(!memcmp(&two, &want, sizeof(want)));
	PTU_EQ(bad1, want.packets[PFT_PTM_PKT_BAD]);
	PTU_EQ(bad2, want.packets[PFT_PTM_PKT_BAD]);
	PTU_EQ(two.errors, want.errors);
}

/* Decode @s with one thread and with two: the same items, and with two,
 * @pieces pieces of which @handovers were taken over at an I-sync and
 * @absorbed decoded by the piece before. */
static void same_as_serial(const struct stream *s, const char *image, int return_stack,
			   uint64_t pieces, uint64_t handovers, uint64_t absorbed)
{
	static char serial[1 << 16], parallel[1 << 16];
	struct pft_input_parallel none, par;
	struct pft_ptm_config cfg;
	const char *trace = write_file("trace.pft", s->b, s->n);

	pft_ptm_config_init(&cfg);
	cfg.return_stack = (uint8_t)return_stack;
	size_t n1 = decode(trace, image, &cfg, 1, serial, sizeof(serial), &none);
	size_t n2 = decode(trace, image, &cfg, 2, parallel, sizeof(parallel), &par);
	PTU_EQ(none.pieces, 0);
	PTU_EQ(none.serial, PFT_SERIAL_ONE_THREAD);
	PTU_EQ(par.serial, pieces ? PFT_SERIAL_NOT : PFT_SERIAL_SMALL);
	PTU_CHECK(n1 > 0);
	PTU_EQ(n2, n1);
	PTU_CHECK(n1 == n2 && !memcmp(serial, parallel, n1));
	PTU_EQ(par.pieces, pieces);
	PTU_EQ(par.handovers, handovers);
	PTU_EQ(par.absorbed, absorbed);
	if (pieces)
		counts_as_items(s, image, return_stack);
}

/* Piece 0 with a full timestamp (0x1234), piece 1's A-sync and I-sync. */
static void timestamped_start(struct stream *s)
{
	async(s);
	isync(s, 0x1000);
	full_timestamp(s, 0x1234);
	fill_to(s, PIECE);
	async(s);                      /* 32 */
	isync(s, 0x1000);              /* 38 */
}

/* A full timestamp before piece 1, and short ones after it: at piece 1's
 * I-syncs (38, 70) its packet decoder lacks the timestamp's high bits
 * (0x1234 >> 7), so neither it nor piece 2 may take over. */
static void timestamp_before_the_piece(void)
{
	struct stream s = { .n = 0 };

	timestamped_start(&s);
	put(&s, (const uint8_t[]){ 0x42, 0x05 }, 2);   /* low 7 bits only */
	fill_to(&s, 2 * PIECE);
	async(&s);                     /* 64 */
	isync(&s, 0x1000);             /* 70 */
	put(&s, (const uint8_t[]){ 0x42, 0x06 }, 2);
	fill_to(&s, 3 * PIECE);
	same_as_serial(&s, NULL, 0, 3, 0, 2);
}

/* The same, but piece 1 sends a full timestamp (0x2000) before its second
 * I-sync: there the states agree, and piece 1 takes over; piece 2, fresh
 * at 70 without it, is decoded by piece 1. */
static void full_timestamp_resynchronises(void)
{
	struct stream s = { .n = 0 };

	timestamped_start(&s);         /* at 38 the timestamps differ */
	full_timestamp(&s, 0x2000);    /* 44 */
	fill_to(&s, 2 * PIECE);
	async(&s);                     /* 64 */
	isync(&s, 0x1000);             /* 70: piece 0 hands over to piece 1 */
	fill_to(&s, 3 * PIECE);
	same_as_serial(&s, NULL, 0, 3, 1, 1);
}

/* Code: 0x1000 BL 0x2000; 0x1004 B 0x1004; 0x2000 BX LR (ARM). */
static const char *code_image(void)
{
	static uint8_t code[0x1004];

	memcpy(code, (const uint8_t[]){ 0xfe, 0x03, 0x00, 0xeb, 0xfe, 0xff, 0xff, 0xea }, 8);
	memcpy(code + 0x1000, (const uint8_t[]){ 0x1e, 0xff, 0x2f, 0xe1 }, 4);
	return write_file("code.bin", code, sizeof(code));
}

/* The BL's return address is on the return stack at the I-sync at 38
 * (in the pipeline from the start, not in piece 1's fresh one); the BX LR
 * pops it before the I-sync at 70. */
static void call_stream(struct stream *s)
{
	async(s);
	isync(s, 0x1000);
	s->b[s->n++] = 0x84;           /* E: the BL */
	fill_to(s, PIECE);
	async(s);                      /* 32 */
	isync(s, 0x2000);              /* 38 */
	s->b[s->n++] = 0x84;           /* E: the BX LR returns to 0x1004 */
	fill_to(s, 2 * PIECE);
	async(s);                      /* 64 */
	isync(s, 0x1004);              /* 70 */
	s->b[s->n++] = 0x84;           /* E: B 0x1004 */
	fill_to(s, 3 * PIECE);
}

/* With the return stack, piece 1 differs at 38 (one entry against none)
 * and takes over at 70; piece 2 takes over from piece 1 at 70 too.
 * Without it the BX LR's E atom is an error either way, the states agree
 * at 38, and each piece takes over at its first I-sync. */
static void return_stack_moves_the_handover(void)
{
	struct stream s = { .n = 0 };

	call_stream(&s);
	same_as_serial(&s, code_image(), 1, 3, 2, 0);
	same_as_serial(&s, code_image(), 0, 3, 2, 0);
}

/* The sync states themselves: the decoders of the whole stream and of
 * piece 1 alone, after the I-sync at 38: their flow states differ by the
 * return-stack entry (0x1004, ARM) and nothing else. */
static void flow_states_at_the_isync(void)
{
	struct stream s = { .n = 0 };
	struct pft_ptm_config cfg;
	struct pft_image *img = pft_image_alloc(NULL);
	struct pft_ptm_packet pkt;
	struct flow_sync_state whole, fresh;
	struct pkt_sync_state pwhole, pfresh;

	pft_ptm_config_init(&cfg);
	cfg.return_stack = 1;
	call_stream(&s);
	PTU_CHECK(img != NULL);
	PTU_EQ(pft_image_add_file(img, code_image(), 0, 0, 0x1000, PFT_SPACE_ANY), 0);
	for (int from = 0; from <= PIECE; from += PIECE) {
		struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(&cfg, NULL);
		struct pft_ptm_flow *f = pft_ptm_flow_alloc(&cfg, img, NULL);

		pft_ptm_pkt_feed_at(d, s.b + from, 44 - (size_t)from, (uint64_t)from);
		while (pft_ptm_pkt_next(d, &pkt, sizeof(pkt)) == 0) {
			PTU_EQ(pft_ptm_flow_put(f, &pkt, sizeof(pkt)), 0);
			struct pft_elem e;
			while (pft_ptm_flow_next(f, &e, sizeof(e)) == 0)
				;
		}
		pft_ptm_flow_sync_state(f, from ? &fresh : &whole);
		pft_ptm_pkt_sync_state(d, from ? &pfresh : &pwhole);
		pft_ptm_pkt_free(d);
		pft_ptm_flow_free(f);
	}
	PTU_EQ(whole.rs_count, 1);
	PTU_EQ(whole.rs[0].addr, 0x1004);
	PTU_EQ(fresh.rs_count, 0);
	PTU_EQ(!memcmp(&whole, &fresh, sizeof(whole)), 0);
	PTU_EQ(!memcmp(&pwhole, &pfresh, sizeof(pwhole)), 1);
	whole.rs_count = 0;
	memset(whole.rs, 0, sizeof(whole.rs));
	PTU_EQ(!memcmp(&whole, &fresh, sizeof(whole)), 1);
	pft_image_free(img);
}

/* Bad packets in two pieces: a reserved header (0x02) in piece 1 costs
 * the sync until piece 2's A-sync (the 19 bytes between are two NOTSYNC
 * packets: the decoder returns at most 16 bytes in one), and an I-sync
 * cut off by the end of the file.  Counted (by hand): 3 A-syncs, 3
 * I-syncs, 20 + 18 ignores, 2 NOTSYNC, 2 BAD; and
 * counting returns the two BAD packets, in trace order. */
static void counting_bad_packets(void)
{
	struct stream s = { .n = 0 };
	struct pft_input_counts c;
	struct pft_input_parallel par;
	struct pft_ptm_config cfg;
	uint64_t bad;

	async(&s);
	isync(&s, 0x1000);
	fill_to(&s, PIECE);
	async(&s);                     /* 32 */
	isync(&s, 0x1000);             /* 38 */
	s.b[s.n++] = 0x02;             /* 44: reserved */
	fill_to(&s, 2 * PIECE);        /* 45-63: not synchronised */
	async(&s);                     /* 64 */
	isync(&s, 0x1000);             /* 70 */
	fill_to(&s, 3 * PIECE - 2);
	put(&s, (const uint8_t[]){ 0x08, 0x00 }, 2);   /* 94: cut off */
	pft_ptm_config_init(&cfg);
	for (unsigned threads = 1; threads <= 2; threads++) {
		count(write_file("bad.pft", s.b, s.n), NULL, &cfg, threads, &c, &bad, &par);
		PTU_EQ(par.pieces, threads == 2 ? 3 : 0);
		PTU_EQ(c.packets[PFT_PTM_PKT_ASYNC], 3);
		PTU_EQ(c.packets[PFT_PTM_PKT_ISYNC], 3);
		PTU_EQ(c.packets[PFT_PTM_PKT_IGNORE], 38);
		PTU_EQ(c.packets[PFT_PTM_PKT_NOTSYNC], 2);
		PTU_EQ(c.packets[PFT_PTM_PKT_BAD], 2);
		PTU_EQ(c.errors, 2);
		PTU_EQ(c.bytes, 96);
		PTU_EQ(bad, 2);
	}
	counts_as_items(&s, NULL, 0);
}

/* The counting calls' arguments. */
static void counting_arguments(void)
{
	struct pft_input_config ic = { .size = sizeof(ic), .packets = 1, .id = -1 };
	struct pft_input *in = pft_input_alloc(&ic, NULL);
	struct pft_item it;
	struct pft_input_counts c;

	PTU_CHECK(in != NULL);
	PTU_EQ(pft_input_count(NULL, &it, sizeof(it)), -PFT_ERR_INVALID);
	PTU_EQ(pft_input_count(in, NULL, sizeof(it)), -PFT_ERR_INVALID);
	/* Smaller than 0.5's struct (0.5's own size is taken: the time left out). */
	PTU_EQ(pft_input_count(in, &it, PFT_ITEM_SIZE_0_5 - 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_input_counts(NULL, 0, &c, sizeof(c)), -PFT_ERR_INVALID);
	PTU_EQ(pft_input_counts(in, 0, NULL, sizeof(c)), -PFT_ERR_INVALID);
	PTU_EQ(pft_input_counts(in, 0, &c, sizeof(c)), -PFT_ERR_INVALID);  /* no source */
	/* Read by items: not by counting. */
	PTU_EQ(pft_input_next(in, &it, sizeof(it)), -PFT_ERR_EOS);
	PTU_EQ(pft_input_count(in, &it, sizeof(it)), -PFT_ERR_INVALID);
	pft_input_free(in);
}

/* Two files, each large enough to cut: decoded in one thread, and said
 * why; nothing said before the decode begins. */
static void serial_for_two_files(void)
{
	struct stream s = { .n = 0 };
	struct pft_input_parallel par;
	struct pft_ptm_config cfg;
	struct pft_item it;
	int r;

	async(&s);
	isync(&s, 0x1000);
	fill_to(&s, 4 * PIECE);
	const char *trace = write_file("two.pft", s.b, s.n);
	const char *second = write_file("two-b.pft", s.b, s.n);
	pft_ptm_config_init(&cfg);
	struct pft_input *in = open_raw(trace, NULL, &cfg, 2);
	if (!in)
		return;
	PTU_EQ(pft_input_open_file(in, second, PFT_PIPE_RAW), 0);
	PTU_EQ(pft_input_add_ptm(in, -1, &cfg), 1);   /* the second source */
	PTU_EQ(pft_input_parallel_stats(in, &par, sizeof(par)), 0);
	PTU_EQ(par.serial, PFT_SERIAL_NOT);
	while ((r = pft_input_next(in, &it, sizeof(it))) == 0)
		;
	PTU_EQ(r, -PFT_ERR_EOS);
	PTU_EQ(pft_input_parallel_stats(in, &par, sizeof(par)), 0);
	PTU_EQ(par.pieces, 0);
	PTU_EQ(par.serial, PFT_SERIAL_FILES);
	pft_input_free(in);
	/* The same file alone is cut. */
	in = open_raw(trace, NULL, &cfg, 2);
	while (in && (r = pft_input_next(in, &it, sizeof(it))) == 0)
		;
	PTU_EQ(pft_input_parallel_stats(in, &par, sizeof(par)), 0);
	PTU_EQ(par.pieces, 4);
	PTU_EQ(par.serial, PFT_SERIAL_NOT);
	pft_input_free(in);
}

/* One thread, or a file of fewer than two pieces: the serial decode. */
static void not_split(void)
{
	struct stream s = { .n = 0 };
	struct pft_input_parallel par;

	async(&s);
	isync(&s, 0x1000);
	fill_to(&s, PIECE + 8);
	same_as_serial(&s, NULL, 0, 0, 0, 0);
	struct pft_input_config ic = { .size = sizeof(ic), .packets = 1, .id = -1 };
	struct pft_input *in = pft_input_alloc(&ic, NULL);
	PTU_EQ(pft_input_parallel_stats(NULL, &par, sizeof(par)), -PFT_ERR_INVALID);
	PTU_EQ(pft_input_parallel_stats(in, NULL, sizeof(par)), -PFT_ERR_INVALID);
	const size_t first = offsetof(struct pft_input_parallel, folded);
	PTU_EQ(pft_input_parallel_stats(in, &par, first - 1), -PFT_ERR_INVALID);
	/* A caller built before @folded: its struct ends there, and that is
	 * all that is written. */
	par.folded = 77;
	PTU_EQ(pft_input_parallel_stats(in, &par, first), 0);
	PTU_EQ(par.folded, 77);
	PTU_EQ(pft_input_parallel_stats(in, &par, sizeof(par)), 0);
	PTU_EQ(par.pieces, 0);
	PTU_EQ(par.folded, 0);
	/* A caller built before threads existed: its struct ends at @id. */
	ic.size = offsetof(struct pft_input_config, reserved);
	struct pft_input *old = pft_input_alloc(&ic, NULL);
	PTU_CHECK(old != NULL);
	ic.size = offsetof(struct pft_input_config, reserved) - 1;
	PTU_CHECK(pft_input_alloc(&ic, NULL) == NULL);
	pft_input_free(old);
	pft_input_free(in);
}

/* The pieces' default size: counting, 1 MiB; a fold's, as large as the
 * memory each piece may hold its records in allows (32 MiB over threads
 * + 2 pieces, 8 MiB each at most) at 16 bytes of records per byte, never
 * below the 256 KiB of the others, whose records take 30 to 60. */
static void default_piece_sizes(void)
{
	for (unsigned t = 2; t <= 64; t++) {
		PTU_EQ(pft_par_piece_size(t, 1, 0), 1u << 20);
		PTU_EQ(pft_par_piece_size(t, 0, 0), 256u << 10);
		uint32_t fold = pft_par_piece_size(t, 0, 1);
		unsigned chunks = 32 / (t + 2) > 8 ? 8 : 32 / (t + 2);
		PTU_CHECK(fold >= 256u << 10 && fold <= 1u << 20);
		PTU_CHECK(fold == 256u << 10 || (uint64_t)fold * 16 <= (uint64_t)chunks << 20);
		PTU_CHECK(fold <= pft_par_piece_size(t - 1, 0, 1));
	}
	PTU_EQ(pft_par_piece_size(2, 0, 1), 512u << 10);
	PTU_EQ(pft_par_piece_size(3, 0, 1), 384u << 10);
	PTU_EQ(pft_par_piece_size(4, 0, 1), 320u << 10);
	PTU_EQ(pft_par_piece_size(5, 0, 1), 256u << 10);
	PTU_EQ(pft_par_piece_size(16, 0, 1), 256u << 10);
}

/* Raw PTM file @trace (default configuration, no image), its packets read
 * with @threads threads in pieces of @piece bytes; NULL when it cannot be
 * opened (a failed check). */
static struct pft_input *open_packets(const char *trace, unsigned threads, uint32_t piece)
{
	struct pft_input_config ic = { .size = sizeof(ic), .packets = 1, .id = -1,
				       .threads = threads, .piece_size = piece };
	struct pft_input *in = pft_input_alloc(&ic, NULL);
	struct pft_ptm_config cfg;

	pft_ptm_config_init(&cfg);
	PTU_CHECK(in != NULL);
	if (in && (pft_input_open_file(in, trace, PFT_PIPE_RAW) || pft_input_add_ptm(in, -1, &cfg))) {
		PTU_CHECK(0);
		pft_input_free(in);
		in = NULL;
	}
	return in;
}

/* The packets of open_packets(), summed: how many, and a hash of their
 * offsets, types and first bytes in the order read.  The parallel counts
 * in *@par. */
static void read_packets(const char *trace, unsigned threads, uint32_t piece, uint64_t *n,
			 uint64_t *hash, struct pft_input_parallel *par)
{
	struct pft_input *in = open_packets(trace, threads, piece);
	struct pft_item it;
	int r;

	*n = 0;
	*hash = 14695981039346656037ull;
	if (!in)
		return;
	while ((r = pft_input_next(in, &it, sizeof(it))) == 0)
		for (uint32_t k = 0; k < it.count; k++) {
			const struct pft_ptm_packet *p = &it.ptm[k];
			*hash = (*hash ^ (p->offset << 16 ^ p->type << 8 ^ p->raw[0])) *
				1099511628211ull;
			++*n;
		}
	PTU_EQ(r, -PFT_ERR_EOS);
	PTU_EQ(pft_input_parallel_stats(in, par, sizeof(*par)), 0);
	pft_input_free(in);
}

/* Sixteen threads on pieces whose packets' records need more room than a
 * piece has at sixteen (two 1 MiB chunks): the threads wait for a place
 * among the pieces in flight and for room in theirs, the reader for
 * records; each waits for its own condition, and a wake-up lost would
 * hang here.  The packets are those of one thread, in its order.  More
 * threads than 16 are asked for in vain, but for counting. */
static void many_threads_little_room(void)
{
	enum { BIG = 256 << 10, NPIECES = 40 };
	size_t len = (size_t)BIG * NPIECES;
	uint8_t *b = malloc(len);
	struct pft_input_parallel par;
	uint64_t n1, h1, n, h;

	PTU_CHECK(b != NULL);
	if (!b)
		return;
	/* An A-sync and an I-sync every KiB, ignore packets between. */
	for (size_t at = 0; at < len; at += 1024) {
		struct stream s = { .n = 0 };
		async(&s);
		isync(&s, 0x1000);
		memcpy(b + at, s.b, s.n);
		memset(b + at + s.n, 0x66, 1024 - s.n);
	}
	const char *trace = write_file("room.pft", b, len);
	free(b);
	read_packets(trace, 1, BIG, &n1, &h1, &par);
	PTU_EQ(par.pieces, 0);
	read_packets(trace, 16, BIG, &n, &h, &par);
	PTU_EQ(n1, (uint64_t)NPIECES * 256 * (1 + 1 + 1012));
	PTU_EQ(n, n1);
	PTU_CHECK(h == h1);
	PTU_EQ(par.pieces, NPIECES);
	PTU_EQ(par.handovers, NPIECES - 1);
	PTU_EQ(par.threads, 16);
	PTU_CHECK(par.room_waits > 0);

	/* Asked for 64: records handed over, 16 decode (memory stays that of
	 * 17 pieces in flight); counting, one per piece. */
	read_packets(trace, 64, BIG, &n, &h, &par);
	PTU_EQ(n, n1);
	PTU_EQ(par.threads, 16);
	struct pft_input *in = open_packets(trace, 64, BIG);
	struct pft_input_counts c;
	struct pft_item it;
	if (!in)
		return;
	PTU_EQ(pft_input_count(in, &it, sizeof(it)), -PFT_ERR_EOS);
	PTU_EQ(pft_input_counts(in, 0, &c, sizeof(c)), 0);
	PTU_EQ(c.packets[PFT_PTM_PKT_IGNORE], (uint64_t)NPIECES * 256 * 1012);
	PTU_EQ(pft_input_parallel_stats(in, &par, sizeof(par)), 0);
	PTU_EQ(par.threads, NPIECES);
	pft_input_free(in);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	PTU_RUN(timestamp_before_the_piece);
	PTU_RUN(full_timestamp_resynchronises);
	PTU_RUN(return_stack_moves_the_handover);
	PTU_RUN(flow_states_at_the_isync);
	PTU_RUN(not_split);
	PTU_RUN(serial_for_two_files);
	PTU_RUN(counting_bad_packets);
	PTU_RUN(counting_arguments);
	PTU_RUN(default_piece_sizes);
	PTU_RUN(many_threads_little_room);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", dir);
	PTU_MAIN_END();
}
