/* The decode pipeline (pft_pipe_*): routing by trace ID, packets followed
 * by their elements, the gap policy, the final flush and the arguments.
 *
 * Streams are built here from packets with the encoder, framed with the
 * formatter, so that every expected item is known from the input. */
#include "ptunit.h"

#include "pft.h"

/* A32 at 0x1000: mov r0, #0; b 0x1000 (a loop, one waypoint each pass). */
static const uint8_t loop_code[] = { 0x00, 0x00, 0xa0, 0xe3, 0xfd, 0xff, 0xff, 0xea };

struct stream {
	uint8_t bytes[256];
	size_t len;
};

static void put(struct pft_ptm_encoder *e, struct stream *s, const struct pft_ptm_packet *p)
{
	int n = pft_ptm_enc_packet(e, p, s->bytes + s->len, sizeof(s->bytes) - s->len);
	PTU_CHECK(n > 0);
	if (n > 0)
		s->len += (size_t)n;
}

/* A-sync, I-sync at 0x1000 (ARM, Non-secure when @ns), then @atoms E atoms
 * one packet each. */
static struct stream make_stream(int atoms, int ns)
{
	struct pft_ptm_config cfg;
	struct stream s = { .len = 0 };
	struct pft_ptm_packet p;

	pft_ptm_config_init(&cfg);
	struct pft_ptm_encoder *e = pft_ptm_enc_alloc(&cfg, NULL);
	memset(&p, 0, sizeof(p));
	p.type = PFT_PTM_PKT_ASYNC;
	put(e, &s, &p);
	memset(&p, 0, sizeof(p));
	p.type = PFT_PTM_PKT_ISYNC;
	p.addr = 0x1000;
	p.isa = PFT_ISA_ARM;
	p.reason = PFT_ISYNC_TRACE_ON;
	p.ns = (uint8_t)ns;
	put(e, &s, &p);
	for (int i = 0; i < atoms; i++) {
		memset(&p, 0, sizeof(p));
		p.type = PFT_PTM_PKT_ATOM;
		p.n_atoms = 1;
		p.atoms = 1;
		put(e, &s, &p);
	}
	pft_ptm_enc_free(e);
	return s;
}

/* Items one at a time (0) or in runs (1, pft_pipe_config.runs): main()
 * runs every test both ways, and the tallies must not differ. */
static int runs;

static struct pft_pipe *new_pipe(unsigned format, int packets, int elements)
{
	struct pft_pipe_config pc = { .size = sizeof(pc), .format = (uint8_t)format,
				      .packets = (uint8_t)packets,
				      .elements = (uint8_t)elements, .runs = (uint8_t)runs };
	int err = 1;
	struct pft_pipe *p = pft_pipe_alloc(&pc, &err);

	PTU_CHECK(p != NULL);
	PTU_EQ(err, 0);
	return p;
}

/* Everything the pipeline returns for @buf fed in pieces of @step bytes. */
struct tally {
	unsigned packets[4], ranges[4], gaps[4], errors[4];
	unsigned insns[4];
	int order_ok;      /* every element came right after its packet */
	int gap_status;
};

static void drain(struct pft_pipe *p, const uint8_t *buf, size_t len, size_t step,
		  struct tally *t)
{
	struct pft_item it;
	const struct pft_ptm_packet *last_pkt = NULL;
	size_t pos = 0;
	int r;

	memset(t, 0, sizeof(*t));
	t->order_ok = 1;
	for (;;) {
		r = pft_pipe_next(p, &it, sizeof(it));
		if (r == -PFT_ERR_NEED_INPUT) {
			if (pos < len) {
				size_t n = len - pos < step ? len - pos : step;
				PTU_EQ(pft_pipe_feed(p, buf + pos, n), 0);
				pos += n;
			} else {
				PTU_EQ(pft_pipe_finish(p), 0);
			}
			continue;
		}
		if (r == -PFT_ERR_EOS)
			break;
		PTU_EQ(r, 0);
		if (r)
			break;
		PTU_CHECK(it.source < 4);
		PTU_CHECK(runs || it.count == 1);
		PTU_CHECK(it.count >= 1);
		if (it.type == PFT_ITEM_PACKET) {
			t->packets[it.source] += it.count;
			if (it.status)
				t->errors[it.source] += it.count;
			last_pkt = &it.ptm[it.count - 1];
			PTU_EQ(it.protocol, PFT_PROTO_PTM);
		} else if (it.type == PFT_ITEM_ELEM) {
			if (it.ptm != last_pkt && last_pkt)
				t->order_ok = 0;
			/* Each element's packet: @ptm for the first, then the
			 * later packets of the run, in order. */
			PTU_EQ(it.elem[0].offset, it.ptm->offset);
			for (uint32_t i = 0; i < it.count; i++) {
				if (i)
					PTU_CHECK(it.elem[i].offset >= it.elem[i - 1].offset);
				if (it.elem[i].type != PFT_ELEM_RANGE)
					continue;
				t->ranges[it.source]++;
				t->insns[it.source] += it.elem[i].ninsn;
			}
		} else {
			t->gaps[it.source]++;
			t->gap_status = it.status;
		}
	}
}

static struct pft_image *loop_image(void)
{
	struct pft_image *img = pft_image_alloc(NULL);

	PTU_CHECK(pft_image_add_buffer(img, 0x1000, loop_code, sizeof(loop_code),
				       PFT_SPACE_ANY, 0) >= 0);
	return img;
}

/* Raw input: every packet, then the ranges its atoms give, in any feed size. */
static void pipe_raw_packets_and_elements(void)
{
	struct stream s = make_stream(5, 0);
	struct pft_image *img = loop_image();
	struct pft_ptm_config cfg;
	struct tally t;

	pft_ptm_config_init(&cfg);
	for (size_t step = 1; step <= s.len; step++) {
		struct pft_pipe *p = new_pipe(PFT_PIPE_RAW, 1, 1);
		PTU_EQ(pft_pipe_add_ptm(p, 0, &cfg, img), 0);
		drain(p, s.bytes, s.len, step, &t);
		PTU_EQ(t.packets[0], 7);      /* async, isync, 5 atoms */
		PTU_EQ(t.ranges[0], 5);
		PTU_EQ(t.insns[0], 10);
		PTU_CHECK(t.order_ok);
		PTU_EQ(pft_pipe_id_bytes(p, 0), s.len);
		struct pft_pipe_stats st;
		PTU_EQ(pft_pipe_source_stats(p, 0, &st, sizeof(st)), 0);
		PTU_EQ(st.bytes, s.len);
		PTU_EQ(st.packets, 7);
		PTU_EQ(st.insns, 10);
		PTU_EQ(st.errors, 0);
		pft_pipe_free(p);
	}
	pft_image_free(img);
}

/* Two IDs in frames: each source gets its own bytes; an ID with no source
 * is only counted. */
static void pipe_routes_by_id(void)
{
	struct stream a = make_stream(3, 0), b = make_stream(6, 0), c = make_stream(1, 0);
	struct pft_ffmt_config fc = { .size = sizeof(fc) };
	struct pft_ffmt *f = pft_ffmt_alloc(&fc, NULL);
	uint8_t framed[2048];
	struct pft_image *img = loop_image();
	struct pft_ptm_config cfg;
	struct tally t;

	PTU_EQ(pft_ffmt_put(f, 0x13, a.bytes, a.len), 0);
	PTU_EQ(pft_ffmt_put(f, 0x21, b.bytes, b.len), 0);
	PTU_EQ(pft_ffmt_put(f, 0x30, c.bytes, c.len), 0);
	PTU_EQ(pft_ffmt_flush(f), 0);
	int n = pft_ffmt_take(f, framed, sizeof(framed));
	PTU_CHECK(n > 0 && n % 16 == 0);
	pft_ffmt_free(f);

	pft_ptm_config_init(&cfg);
	struct pft_pipe *p = new_pipe(PFT_PIPE_FORMATTED, 0, 1);
	PTU_EQ(pft_pipe_add_ptm(p, 0x21, &cfg, img), 0);
	PTU_EQ(pft_pipe_add_ptm(p, 0x13, &cfg, img), 1);
	PTU_EQ(pft_pipe_add_ptm(p, 0x13, &cfg, img), -PFT_ERR_INVALID);  /* twice */
	PTU_EQ(pft_pipe_add_ptm(p, 0x70, &cfg, img), -PFT_ERR_INVALID);  /* reserved */
	drain(p, framed, (size_t)n, 7, &t);
	PTU_EQ(t.packets[0], 0);      /* elements only */
	PTU_EQ(t.ranges[0], 6);
	PTU_EQ(t.ranges[1], 3);
	PTU_EQ(pft_pipe_id_bytes(p, 0x13), a.len);
	PTU_EQ(pft_pipe_id_bytes(p, 0x21), b.len);
	PTU_EQ(pft_pipe_id_bytes(p, 0x30), c.len);
	/* Sources cannot be added once bytes have come. */
	PTU_EQ(pft_pipe_add_ptm(p, 0x30, &cfg, img), -PFT_ERR_INVALID);
	pft_pipe_free(p);
	pft_image_free(img);
}

/* A bad frame (ID byte 0x7f) is a GAP with the deformatter's error for every
 * source, and each resynchronises at its next A-sync. */
static void pipe_gap_on_bad_frame(void)
{
	struct stream a = make_stream(4, 0);
	struct pft_ffmt_config fc = { .size = sizeof(fc) };
	struct pft_ffmt *f = pft_ffmt_alloc(&fc, NULL);
	uint8_t framed[1024];
	struct pft_ptm_config cfg;
	struct tally t;

	PTU_EQ(pft_ffmt_put(f, 0x13, a.bytes, a.len), 0);
	PTU_EQ(pft_ffmt_put(f, 0x13, a.bytes, a.len), 0);
	PTU_EQ(pft_ffmt_flush(f), 0);
	int n = pft_ffmt_take(f, framed, sizeof(framed));
	pft_ffmt_free(f);
	PTU_CHECK(n >= 32);
	framed[0] = 0xff;           /* ID 0x7f: the first frame is bad */

	pft_ptm_config_init(&cfg);
	struct pft_pipe *p = new_pipe(PFT_PIPE_FORMATTED, 1, 0);
	PTU_EQ(pft_pipe_add_ptm(p, 0x13, &cfg, NULL), 0);
	PTU_EQ(pft_pipe_add_ptm(p, 0x14, &cfg, NULL), 1);
	drain(p, framed, (size_t)n, (size_t)n, &t);
	PTU_EQ(t.gaps[0], 1);
	PTU_EQ(t.gaps[1], 1);
	PTU_EQ(t.gap_status, -PFT_ERR_BAD_FRAME);
	struct pft_pipe_stats st;
	PTU_EQ(pft_pipe_source_stats(p, 0, &st, sizeof(st)), 0);
	PTU_EQ(st.errors, 1);
	PTU_CHECK(st.bytes < 2 * a.len);   /* the bad frame's bytes were dropped */
	pft_pipe_free(p);
}

/* A packet cut off by the end of the input is a BAD packet (TRUNCATED). */
static void pipe_flushes_truncated_packet(void)
{
	struct stream s = make_stream(1, 0);
	struct pft_ptm_config cfg;
	struct tally t;

	pft_ptm_config_init(&cfg);
	struct pft_pipe *p = new_pipe(PFT_PIPE_RAW, 1, 0);
	PTU_EQ(pft_pipe_add_ptm(p, 0, &cfg, NULL), 0);
	/* Leave out the atom and the I-sync's last byte. */
	drain(p, s.bytes, s.len - 2, 3, &t);
	PTU_EQ(t.packets[0], 2);      /* async, the cut I-sync */
	PTU_EQ(t.errors[0], 1);
	pft_pipe_free(p);
}

/* The range's bytes come from the security state the trace gives. */
static void pipe_reads_the_traced_space(void)
{
	static const uint8_t other[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	struct pft_image *img = pft_image_alloc(NULL);
	struct pft_ptm_config cfg;

	PTU_CHECK(pft_image_add_buffer(img, 0x1000, loop_code, sizeof(loop_code),
				       PFT_SPACE_NONSECURE, 0) >= 0);
	PTU_CHECK(pft_image_add_buffer(img, 0x1000, other, sizeof(other),
				       PFT_SPACE_SECURE, 0) >= 0);
	pft_ptm_config_init(&cfg);
	for (int ns = 0; ns <= 1; ns++) {
		struct stream s = make_stream(2, ns);
		struct pft_pipe *p = new_pipe(PFT_PIPE_RAW, 0, 1);
		struct pft_item it;
		int r, ranges = 0;

		PTU_EQ(pft_pipe_add_ptm(p, 0, &cfg, img), 0);
		PTU_EQ(pft_pipe_feed(p, s.bytes, s.len), 0);
		PTU_EQ(pft_pipe_feed(p, s.bytes, s.len), -PFT_ERR_INVALID); /* not used up */
		PTU_EQ(pft_pipe_finish(p), 0);
		while ((r = pft_pipe_next(p, &it, sizeof(it))) == 0) {
			for (uint32_t i = 0; i < it.count; i++) {
				const struct pft_elem *e = &it.elem[i];
				if (e->type != PFT_ELEM_RANGE)
					continue;
				ranges++;
				PTU_EQ(e->space, ns ? PFT_SPACE_NONSECURE : PFT_SPACE_SECURE);
				struct pft_insn_iter iter;
				struct pft_insn insn;
				PTU_EQ(pft_insn_iter_init(&iter, img, e), 0);
				PTU_EQ(pft_insn_iter_next(&iter, &insn, sizeof(insn)), 1);
				PTU_EQ(insn.raw[3], ns ? 0xe3 : 0xff);
			}
		}
		PTU_EQ(r, -PFT_ERR_EOS);
		/* Non-secure: the loop, two ranges.  Secure: 0xffffffff is no
		 * waypoint, so the walk runs over both words to the end of the
		 * memory: one range, then ADDR_NACC. */
		PTU_EQ(ranges, ns ? 2 : 1);
		pft_pipe_free(p);
	}
	pft_image_free(img);
}

static void pipe_arguments(void)
{
	struct pft_pipe_config pc = { .size = sizeof(pc), .format = PFT_PIPE_RAW };
	struct pft_ptm_config cfg;
	struct pft_item it;
	int err = 0;

	pft_ptm_config_init(&cfg);
	PTU_CHECK(!pft_pipe_alloc(&pc, &err));  /* neither packets nor elements */
	PTU_EQ(err, -PFT_ERR_INVALID);
	pc.packets = 1;
	pc.format = 9;
	PTU_CHECK(!pft_pipe_alloc(&pc, &err));
	PTU_CHECK(!pft_pipe_alloc(NULL, &err));
	pc.format = PFT_PIPE_RAW;
	pc.size = 4;
	PTU_CHECK(!pft_pipe_alloc(&pc, NULL));
	pc.size = sizeof(pc);
	struct pft_pipe *p = pft_pipe_alloc(&pc, NULL);
	PTU_EQ(pft_pipe_add_ptm(p, 0, NULL, NULL), -PFT_ERR_INVALID);
	PTU_EQ(pft_pipe_add_ptm(p, 0, &cfg, NULL), 0);
	PTU_EQ(pft_pipe_add_ptm(p, 0, &cfg, NULL), -PFT_ERR_INVALID);  /* raw: one */
	cfg.ctxid_bytes = 3;
	PTU_EQ(pft_pipe_add_ptm(NULL, 0, &cfg, NULL), -PFT_ERR_INVALID);
	PTU_EQ(pft_pipe_next(p, &it, 8), -PFT_ERR_INVALID);
	PTU_EQ(pft_pipe_next(p, &it, sizeof(it)), -PFT_ERR_NEED_INPUT);
	PTU_EQ(pft_pipe_feed(p, NULL, 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_pipe_source_stats(p, 1, NULL, 0), -PFT_ERR_INVALID);
	PTU_EQ(pft_pipe_finish(p), 0);
	PTU_EQ(pft_pipe_next(p, &it, sizeof(it)), -PFT_ERR_EOS);
	PTU_EQ(pft_pipe_feed(p, loop_code, 1), -PFT_ERR_INVALID);     /* after finish */
	pft_pipe_free(p);
	pft_pipe_free(NULL);
	PTU_STREQ(pft_protocol_name(PFT_PROTO_ETMV3), "etmv3");
	PTU_STREQ(pft_protocol_name(99), "unknown");
	pc.format = PFT_PIPE_FORMATTED;
	p = pft_pipe_alloc(&pc, NULL);
	cfg.ctxid_bytes = 3;
	PTU_EQ(pft_pipe_add_ptm(p, 0x10, &cfg, NULL), -PFT_ERR_BAD_CONFIG);
	pft_pipe_free(p);
}

int main(void)
{
	for (runs = 0; runs < 2; runs++) {
		PTU_RUN(pipe_raw_packets_and_elements);
		PTU_RUN(pipe_routes_by_id);
		PTU_RUN(pipe_gap_on_bad_frame);
		PTU_RUN(pipe_flushes_truncated_packet);
		PTU_RUN(pipe_reads_the_traced_space);
	}
	runs = 0;
	PTU_RUN(pipe_arguments);
	PTU_MAIN_END();
}
