/* fuzz_model - the model (pft_model_*) on walks through fuzzed code, and
 * its output back through the packet and flow decoders.
 *
 * Input: byte 0 the PTM configuration (bit 0 cycle-accurate, bit 1 return
 * stack, bit 2 branch broadcast (without the return stack), bit 3
 * timestamps, bits 5:4 context ID bytes 0/1/2/4, bit 6 PFT v1.1 (else
 * v1.0: Gray 48-bit timestamps), bit 7 DMB/DSB waypoints); byte 1 the sync
 * period (16 + 4 x byte); byte 2 the timestamp period (bits 1:0) and, with
 * bit 7, a trace filter from code offset 16 x byte 3 of 16 x byte 4 + 1
 * bytes; byte 5 the code size, 4 << (byte % 11); the code, loaded at
 * 0x10000; then one byte per executed instruction that picks where the
 * walk goes next among what the instruction allows (the next instruction,
 * a direct branch's target, anywhere after an indirect branch, sometimes
 * memory outside the image) and its cycles; a choice byte 0xf0-0xf7 also
 * takes an exception (number 2-15) before the next instruction, which the
 * walk then finds at a vector anywhere in the code.
 *
 * Properties (pft.h, model section): a walk that only takes the ways its
 * instructions allow is accepted; the packets come in stream order with
 * their offsets and bytes; the packet decoder reads the bytes back as the
 * same packets, with no error; the flow decoder gives back exactly the
 * instructions that were traced (inside the filter and the image), in
 * order, with no error, and the exceptions traced are among those taken,
 * in order, with their return addresses.
 */
#include <string.h>

#include "fuzz_util.h"
#include "pft.h"
#include "image/pft_isa.h"

enum { BASE = 0x10000 };

struct walk {
	struct pft_ptm_config cfg;
	struct pft_model_config mc;
	struct pft_image *img;
	struct pft_ptm_model *m;
	uint32_t code_len;
	struct pft_ptm_packet *pkts;   /* raw pointing into @bytes */
	size_t npkts, cap_pkts;
	uint8_t *bytes;
	size_t len, cap_bytes;
	uint32_t *seq;             /* executed instructions */
	uint8_t *seq_isa;
	size_t nseq;
	uint16_t *exc;             /* exceptions taken, and where they return */
	uint32_t *exc_ret;
	size_t nexc;
};

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	while (*cap < need)
		*cap = *cap ? 2 * *cap : 256;
	p = realloc(p, *cap * size);
	FUZZ_CHECK(p);
	return p;
}

static void take(struct walk *w)
{
	struct pft_ptm_packet p;
	int status;

	while ((status = pft_ptm_model_next(w->m, &p, sizeof(p))) == 0) {
		FUZZ_CHECK(p.offset == w->len && p.size >= 1 && p.size <= 16 && p.raw);
		w->bytes = grow(w->bytes, &w->cap_bytes, w->len + p.size, 1);
		memcpy(w->bytes + w->len, p.raw, p.size);
		w->len += p.size;
		w->pkts = grow(w->pkts, &w->cap_pkts, w->npkts + 1, sizeof(p));
		w->pkts[w->npkts++] = p;
	}
	FUZZ_CHECK(status == -PFT_ERR_NEED_INPUT || status == -PFT_ERR_EOS);
	FUZZ_CHECK(pft_ptm_model_bytes(w->m) == w->len);
}

static int classify(struct walk *w, uint32_t addr, uint8_t isa, struct pft_insn_class *c)
{
	uint8_t code[4];
	int n = pft_image_read(w->img, addr, PFT_SPACE_ANY, code, sizeof(code));

	return n > 0 && pft_isa_classify((enum pft_isa)isa, addr, code, (size_t)n,
					 w->cfg.dmb_dsb_waypoints ? PFT_ISA_DMB_DSB_WAYPOINTS : 0,
					 c) > 0;
}

static uint32_t anywhere(const struct walk *w, unsigned pick, uint8_t isa)
{
	return (BASE + pick * 37 % w->code_len) & (isa == PFT_ISA_ARM ? ~3u : ~1u);
}

/* Run the walk the choice bytes describe. */
static void run(struct walk *w, const uint8_t *choice, size_t nchoice)
{
	uint8_t isa = PFT_ISA_ARM;
	uint32_t addr = BASE, outside = 0;

	struct pft_model_insn exc = { .exception = 0 };

	w->seq = calloc(nchoice + 1, sizeof(*w->seq));
	w->seq_isa = calloc(nchoice + 1, 1);
	w->exc = calloc(nchoice + 1, sizeof(*w->exc));
	w->exc_ret = calloc(nchoice + 1, sizeof(*w->exc_ret));
	FUZZ_CHECK(w->seq && w->seq_isa && w->exc && w->exc_ret);
	for (size_t step = 0; step < nchoice; step++) {
		const unsigned pick = choice[step];
		struct pft_insn_class c;
		int in_image = classify(w, addr, isa, &c);
		struct pft_model_insn in = { .addr = addr, .isa = isa, .has_cycles = 1,
					     .cycles = pick >> 3, .exception = exc.exception,
					     .has_exc_ret = exc.has_exc_ret, .exc_ret = exc.exc_ret,
					     .exc_ret_isa = exc.exc_ret_isa };
		if (pick == 0xff) {
			in.has_ctxid = 1;
			in.ctxid = 0x1000u + (uint32_t)step;
		}
		int err = pft_ptm_model_put(w->m, &in, sizeof(in));
		if (err) {
			struct pft_diag why;
			pft_ptm_model_diag(w->m, &why);
			fprintf(stderr, "walk step %zu: %s (%s)\n", step, why.text, pft_isa_name(isa));
			FUZZ_CHECK(!"the model accepts every way the code allows");
		}
		w->seq_isa[w->nseq] = isa;
		w->seq[w->nseq++] = addr;
		if (exc.exception) {
			w->exc[w->nexc] = exc.exception;
			w->exc_ret[w->nexc++] = exc.exc_ret;
		}
		exc.exception = 0;
		take(w);
		if ((pick & 0xf8) == 0xf0) {
			/* An exception before the next instruction: the walk
			 * goes on where it would have, after the handler. */
			exc.exception = (uint16_t)(2 + step % 14);
			exc.has_exc_ret = 1;
		}
		if (!in_image) {
			isa = pick & 1 ? PFT_ISA_THUMB : PFT_ISA_ARM;
			addr = anywhere(w, pick, isa);
			goto next;
		}
		struct pft_insn_class next_c;
		unsigned way = pick & 7;
		if (c.kind == PFT_WP_DIRECT && way < 5) {
			addr = c.target;
			isa = c.target_isa;
		} else if (c.kind == PFT_WP_INDIRECT && way < 5) {
			isa = way & 1 ? PFT_ISA_THUMB : PFT_ISA_ARM;
			/* qemu-user's kernel helpers: outside every image. */
			addr = way == 4 ? 0xffff0fe0u + 4 * (outside++ % 8) : anywhere(w, pick, isa);
		} else if (classify(w, addr + c.size, isa, &next_c)) {
			addr += c.size;
		} else {
			break;
		}
next:
		if (exc.exception) {
			exc.exc_ret = addr;
			exc.exc_ret_isa = isa;
			addr = anywhere(w, pick + (unsigned)step, PFT_ISA_ARM);
			isa = PFT_ISA_ARM;
		}
	}
	FUZZ_CHECK(pft_ptm_model_finish(w->m) == 0);
	take(w);
	/* The last instruction, when a waypoint, has no known outcome: it is
	 * not traced. */
	struct pft_insn_class last;
	if (w->nseq && classify(w, w->seq[w->nseq - 1], w->seq_isa[w->nseq - 1], &last) &&
	    last.kind != PFT_WP_NONE)
		w->nseq--;
}

/* Was instruction @i traced: inside the filter, and wholly in the image
 * (the model traces what it can read and classify)? */
static int traced(struct walk *w, size_t i)
{
	struct pft_insn_class c;
	uint32_t addr = w->seq[i];

	return (!w->mc.filter || (addr >= w->mc.filter_start && addr < w->mc.filter_end)) &&
	       classify(w, addr, w->seq_isa[i], &c);
}

/* The bytes read back: the same packets, no error. */
static void check_packets(struct walk *w)
{
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(&w->cfg, NULL);
	struct pft_ptm_packet p;
	size_t i = 0;
	int status;

	FUZZ_CHECK(d);
	FUZZ_CHECK(pft_ptm_pkt_feed(d, w->bytes, w->len) == 0 && pft_ptm_pkt_finish(d) == 0);
	while ((status = pft_ptm_pkt_next(d, &p, sizeof(p))) != -PFT_ERR_EOS) {
		FUZZ_CHECK(status == 0);
		FUZZ_CHECK(i < w->npkts);
		const struct pft_ptm_packet *m = &w->pkts[i++];
		FUZZ_CHECK(p.type == m->type && p.offset == m->offset && p.size == m->size);
		if (p.type == PFT_PTM_PKT_ISYNC || p.type == PFT_PTM_PKT_BRANCH ||
		    p.type == PFT_PTM_PKT_WAYPOINT)
			FUZZ_CHECK(p.addr == m->addr && p.isa == m->isa);
		if (p.type == PFT_PTM_PKT_ISYNC)
			FUZZ_CHECK(p.reason == m->reason && p.ns == m->ns);
		if (p.type == PFT_PTM_PKT_ATOM)
			FUZZ_CHECK(p.n_atoms == m->n_atoms && p.atoms == m->atoms);
		FUZZ_CHECK(p.has_cycles == m->has_cycles && p.cycles == m->cycles);
		if (p.type == PFT_PTM_PKT_TIMESTAMP)
			FUZZ_CHECK(p.ts == m->ts);
		if (p.type == PFT_PTM_PKT_CONTEXTID)
			FUZZ_CHECK(p.ctxid == m->ctxid);
	}
	FUZZ_CHECK(i == w->npkts);
	pft_ptm_pkt_free(d);
}

/* Decoded by the flow decoder: the traced instructions, in order. */
static void check_flow(struct walk *w)
{
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(&w->cfg, NULL);
	struct pft_ptm_flow *f = pft_ptm_flow_alloc(&w->cfg, w->img, NULL);
	struct pft_ptm_packet p;
	struct pft_elem e;
	size_t at = 0, exc = 0;

	FUZZ_CHECK(d && f);
	pft_ptm_pkt_feed(d, w->bytes, w->len);
	pft_ptm_pkt_finish(d);
	while (pft_ptm_pkt_next(d, &p, sizeof(p)) == 0) {
		FUZZ_CHECK(pft_ptm_flow_put(f, &p, sizeof(p)) == 0);
		while (pft_ptm_flow_next(f, &e, sizeof(e)) == 0) {
			FUZZ_CHECK(e.type != PFT_ELEM_ERROR);
			if (e.type == PFT_ELEM_EXCEPTION) {
				while (exc < w->nexc && (w->exc[exc] != e.exception ||
							 w->exc_ret[exc] != e.addr))
					exc++;
				FUZZ_CHECK(exc < w->nexc && e.has_ret);
				exc++;
			}
			if (e.type != PFT_ELEM_RANGE)
				continue;
			uint32_t a = e.start;
			for (uint32_t k = 0; k < e.ninsn; k++) {
				while (at < w->nseq && !traced(w, at))
					at++;
				if (at >= w->nseq || a != w->seq[at]) {
					fprintf(stderr, "instruction %zu: decoded 0x%x, ran 0x%x\n", at,
						a, at < w->nseq ? w->seq[at] : 0);
					FUZZ_CHECK(!"the flow decoder gives back what ran");
				}
				at++;
				uint8_t hw[2];
				FUZZ_CHECK(pft_image_read(w->img, a, PFT_SPACE_ANY, hw, 2) == 2 ||
					   e.isa == PFT_ISA_ARM);
				a += e.isa == PFT_ISA_THUMB && (hw[1] >> 3) < 0x1d ? 2 : 4;
			}
		}
	}
	while (at < w->nseq && !traced(w, at))
		at++;
	if (at != w->nseq)
		fprintf(stderr, "decoded up to instruction %zu of %zu\n", at, w->nseq);
	FUZZ_CHECK(at == w->nseq);
	pft_ptm_flow_free(f);
	pft_ptm_pkt_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t ctxid_bytes[4] = { 0, 1, 2, 4 };
	struct walk w = { 0 };

	if (size < 6)
		return 0;
	pft_ptm_config_init(&w.cfg);
	w.cfg.cycle_accurate = data[0] & 1;
	w.cfg.return_stack = (data[0] >> 1) & 1;
	w.cfg.branch_broadcast = !w.cfg.return_stack && ((data[0] >> 2) & 1);
	w.cfg.timestamps = (data[0] >> 3) & 1;
	w.cfg.ctxid_bytes = ctxid_bytes[(data[0] >> 4) & 3];
	w.cfg.version_minor = (data[0] >> 6) & 1;
	w.cfg.ts_gray = !w.cfg.version_minor;
	w.cfg.ts_64bit = w.cfg.version_minor;
	w.cfg.dmb_dsb_waypoints = data[0] >> 7;
	w.mc.size = sizeof(w.mc);
	w.mc.sync_period = 16 + 4u * data[1];
	w.mc.ts_period = data[2] & 3;
	w.code_len = 4u << (data[5] % 11);
	if (data[2] & 0x80) {
		w.mc.filter = 1;
		w.mc.filter_start = BASE + 16u * data[3];
		w.mc.filter_end = w.mc.filter_start + 1 + 16u * data[4];
	}
	if (w.code_len > size - 6)
		return 0;
	const uint8_t *choice = data + 6 + w.code_len;
	size_t nchoice = size - 6 - w.code_len;

	w.img = pft_image_alloc(NULL);
	FUZZ_CHECK(w.img);
	FUZZ_CHECK(pft_image_add_buffer(w.img, BASE, data + 6, w.code_len, PFT_SPACE_ANY, 0) == 0);
	int err = 1;
	w.m = pft_ptm_model_alloc(&w.cfg, &w.mc, w.img, &err);
	FUZZ_CHECK(w.m && err == 0);
	run(&w, choice, nchoice);
	check_packets(&w);
	check_flow(&w);
	pft_ptm_model_free(w.m);
	pft_image_free(w.img);
	free(w.pkts);
	free(w.bytes);
	free(w.seq);
	free(w.seq_isa);
	free(w.exc);
	free(w.exc_ret);
	return 0;
}
