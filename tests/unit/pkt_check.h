/*
 * pkt_check.h - shared harness of the packet-decoder unit tests.
 *
 * A test gives a byte vector and the packets it must decode to (written by
 * hand from shared/spec/pft-protocol.md).  pc_check_stream() then decodes
 * the vector in many ways and compares every field of every packet:
 *
 *   core         the whole vector, every split into two feeds and one byte
 *                per feed, draining before pft_ptm_pkt_finish();
 *   finish-first the same feeds with pft_ptm_pkt_finish() called before the
 *                last pft_ptm_pkt_next() calls;
 *   truncation   every packet cut after each of its bytes, then finish: a
 *                BAD/TRUNCATED packet holding exactly the bytes (NOTSYNC
 *                when the cut packet is the A-sync that would synchronise);
 *   NEED_INPUT   pft_ptm_pkt_next() must never ask for input after finish.
 *
 * Core mismatches fail the calling test at once.  The other groups are
 * counted per category and checked by their own tests (PC_CATEGORY_TESTS)
 * so that one decoder bug shows up as one failing test, not everywhere.
 *
 * NOTSYNC bytes may be returned in pieces of any size (the contract does not
 * fix it): runs of NOTSYNC packets are merged before comparing, and so are
 * the NOTSYNC bytes right after a BAD packet (the bytes a decoder skips
 * after an error).  Expected lists are written in that merged form.
 * Expected offsets are not written: they are the running sum of the
 * expected sizes, which must add up to the vector length.
 */
#ifndef PKT_CHECK_H
#define PKT_CHECK_H

#include <stdarg.h>
#include <stddef.h>

#include "pft.h"
#include "ptunit.h"

#define PC_UNUSED __attribute__((unused))

/* The A-sync an encoder emits (5.1). */
#define ASYNC6 0x00, 0x00, 0x00, 0x00, 0x00, 0x80

enum { PC_MAXPKT = 2048 };

struct pc_pkt {
	struct pft_ptm_packet pkt; /* pkt.raw is cleared: it is stale once copied */
	int status;
	int raw_ok;            /* pkt.raw held the input bytes at pkt.offset */
};

struct pc_run {
	struct pc_pkt p[PC_MAXPKT];
	size_t n;
	unsigned need_after_finish; /* NEED_INPUT returned after finish */
	int eos_early;              /* EOS before finish */
	int overflow, hang, setup_err;
};

enum pc_mode { PC_DRAIN_FIRST, PC_FINISH_FIRST };

enum pc_category {
	PC_CAT_FINISH_FIRST,   /* feeds decoded with finish before next */
	PC_CAT_TRUNC,          /* truncation, draining before finish */
	PC_CAT_TRUNC_FINISH_FIRST,
	PC_CAT_NEED_AFTER_FINISH,
	PC_CAT_MAX
};

static const char *const pc_category_name[PC_CAT_MAX] PC_UNUSED = {
	"finish before next", "truncation", "truncation, finish before next",
	"NEED_INPUT after finish"
};

static unsigned pc_cat_fail[PC_CAT_MAX] PC_UNUSED;
static unsigned pc_cat_runs[PC_CAT_MAX] PC_UNUSED;
static char pc_cat_msg[PC_CAT_MAX][4][1024] PC_UNUSED;
static struct pc_run pc_run_buf PC_UNUSED;

/* pc_check_stream_opt() options. */
enum {
	/* No truncation runs: for vectors whose prefixes are not simply "the
	 * vector up to a truncated packet" (a long zero run is an error only
	 * once its 16th zero has arrived); those get their own tests. */
	PC_OPT_NO_TRUNC = 1,
	/* Core runs only: for a disputed expectation, so that it fails its
	 * own test and not every category. */
	PC_OPT_CORE_ONLY = 2,
	/* Do not compare the altis field (see the waypoint tests). */
	PC_OPT_IGNORE_ALTIS = 4
};
static int pc_ignore_altis PC_UNUSED;
static struct pc_pkt pc_norm_buf[PC_MAXPKT] PC_UNUSED;

/* ---- configurations ---- */

/* A v1.1 configuration (binary timestamps unless @gray). */
static inline struct pft_ptm_config pc_cfg(int ca, int ctxid_bytes, int ts64,
				       int gray)
{
	struct pft_ptm_config c;

	pft_ptm_config_init(&c);
	c.cycle_accurate = (uint8_t)ca;
	c.ctxid_bytes = (uint8_t)ctxid_bytes;
	c.ts_64bit = (uint8_t)ts64;
	c.ts_gray = (uint8_t)gray;
	return c;
}

/* ---- running the decoder ---- */

static inline void pc_record(struct pc_run *r, const struct pft_ptm_packet *pkt,
			     int status, const uint8_t *s, size_t len)
{
	if (r->n >= PC_MAXPKT) {
		r->overflow = 1;
		return;
	}
	struct pc_pkt *g = &r->p[r->n++];

	g->pkt = *pkt;
	g->pkt.raw = NULL;
	g->status = status;
	g->raw_ok = pkt->size && pkt->raw && pkt->offset <= len &&
		    pkt->size <= len - pkt->offset &&
		    memcmp(pkt->raw, s + pkt->offset, pkt->size) == 0;
}

/* Call pft_ptm_pkt_next() until it wants input or the stream is over. */
static inline void pc_drain(struct pft_ptm_pkt_decoder *d, const uint8_t *s,
			    size_t len, int finished, struct pc_run *r)
{
	unsigned needs = 0;

	for (unsigned guard = 0; guard < 100000; guard++) {
		struct pft_ptm_packet pkt;

		/* Poison: a field the decoder forgets to set shows up. */
		memset(&pkt, 0xa5, sizeof(pkt));
		int st = pft_ptm_pkt_next(d, &pkt, sizeof(pkt));

		if (st == -PFT_ERR_NEED_INPUT) {
			if (!finished)
				return;
			/* After finish there is nothing to wait for; keep
			 * asking so that no byte is lost, but count it. */
			r->need_after_finish++;
			if (++needs > 4)
				return;
			continue;
		}
		needs = 0;
		if (st == -PFT_ERR_EOS) {
			if (!finished)
				r->eos_early = 1;
			return;
		}
		pc_record(r, &pkt, st, s, len);
	}
	r->hang = 1;
}

/*
 * Decode s[0..len) fed in pieces ending at cuts[0..ncuts) and len, with
 * offsets from 0.  Results in *r.
 */
static inline void pc_run_pieces(const struct pft_ptm_config *cfg,
				 const uint8_t *s, size_t len,
				 const size_t *cuts, size_t ncuts,
				 enum pc_mode mode, struct pc_run *r)
{
	int err = 0;

	r->n = 0;
	r->need_after_finish = 0;
	r->eos_early = r->overflow = r->hang = r->setup_err = 0;

	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(cfg, &err);

	if (!d) {
		r->setup_err = 1;
		return;
	}
	size_t start = 0;

	for (size_t i = 0; i <= ncuts; i++) {
		size_t end = i < ncuts ? cuts[i] : len;
		int last = i == ncuts;

		if (pft_ptm_pkt_feed(d, s + start, end - start) != 0)
			r->setup_err = 1;
		if (last && mode == PC_FINISH_FIRST)
			pft_ptm_pkt_finish(d);
		pc_drain(d, s, len, last && mode == PC_FINISH_FIRST, r);
		start = end;
	}
	if (mode == PC_DRAIN_FIRST) {
		pft_ptm_pkt_finish(d);
		pc_drain(d, s, len, 1, r);
	}
	pft_ptm_pkt_free(d);
}

/* ---- comparing ---- */

static inline int pc_expected_status(const struct pft_ptm_packet *e)
{
	if (e->type != PFT_PTM_PKT_BAD)
		return 0;
	switch (e->bad) {
	case PFT_ERR_PKT_RESERVED_HEADER:
	/* 5.12 lists 0x80/0x82 outside CA mode among the reserved headers,
	 * and pft.h says BAD_OPCODE is "a reserved header". */
	case PFT_ERR_PKT_ATOM_NO_MARKER:
		return -PFT_ERR_BAD_OPCODE;
	case PFT_ERR_PKT_TRUNCATED:
		return -PFT_ERR_TRUNCATED;
	default:
		return -PFT_ERR_BAD_PACKET;
	}
}

/* Merge NOTSYNC packets into a preceding NOTSYNC or BAD packet they follow
 * directly (see the file comment).  Returns the new count. */
static inline size_t pc_normalize(struct pc_pkt *p, size_t n)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		struct pc_pkt *prev = m ? &p[m - 1] : NULL;

		if (prev && p[i].pkt.type == PFT_PTM_PKT_NOTSYNC &&
		    (prev->pkt.type == PFT_PTM_PKT_NOTSYNC ||
		     prev->pkt.type == PFT_PTM_PKT_BAD) &&
		    prev->pkt.offset + prev->pkt.size == p[i].pkt.offset) {
			prev->pkt.size += p[i].pkt.size;
			prev->raw_ok = prev->raw_ok && p[i].raw_ok;
			continue;
		}
		p[m++] = p[i];
	}
	return m;
}

#define PC_FIELD(f)                                                           \
	do {                                                                  \
		if ((unsigned long long)g->pkt.f !=                           \
		    (unsigned long long)e->pkt.f) {                           \
			snprintf(why, n, "%s = 0x%llx, expected 0x%llx", #f,  \
				 (unsigned long long)g->pkt.f,                \
				 (unsigned long long)e->pkt.f);               \
			return 1;                                             \
		}                                                             \
	} while (0)

/* Every field of struct pft_ptm_packet.  Returns 1 and a reason on mismatch. */
static inline int pc_cmp_pkt(const struct pc_pkt *g, const struct pc_pkt *e,
			     char *why, size_t n)
{
	PC_FIELD(type);
	PC_FIELD(offset);
	PC_FIELD(size);
	if (g->status != e->status) {
		snprintf(why, n, "status %d (%s), expected %d (%s)", g->status,
			 pft_errstr(pft_errcode(g->status)), e->status,
			 pft_errstr(pft_errcode(e->status)));
		return 1;
	}
	if (!g->raw_ok) {
		snprintf(why, n, "raw does not hold the input bytes");
		return 1;
	}
	PC_FIELD(addr);
	PC_FIELD(isa);
	PC_FIELD(addr_bytes);
	PC_FIELD(reason);
	PC_FIELD(ns);
	PC_FIELD(hyp);
	if (!pc_ignore_altis)
		PC_FIELD(altis);
	PC_FIELD(exc_bytes);
	PC_FIELD(exception);
	PC_FIELD(has_cycles);
	PC_FIELD(cycles);
	PC_FIELD(n_atoms);
	PC_FIELD(atoms);
	PC_FIELD(has_ctxid);
	PC_FIELD(ctxid);
	PC_FIELD(vmid);
	PC_FIELD(ts);
	PC_FIELD(ts_raw);
	PC_FIELD(ts_bits);
	PC_FIELD(ts_clock_change);
	PC_FIELD(bad);
	return 0;
}

/* Compare a run with (normalised) expected packets. */
static inline int pc_cmp_run(const struct pc_run *r, const struct pc_pkt *e,
			     size_t ne, char *why, size_t n)
{
	char sub[300];

	if (r->setup_err || r->overflow || r->hang || r->eos_early) {
		snprintf(why, n, "%s", r->setup_err ? "alloc/feed failed" :
				       r->overflow ? "too many packets" :
				       r->hang ? "decoder never stops" :
						 "EOS before finish");
		return 1;
	}
	memcpy(pc_norm_buf, r->p, r->n * sizeof(r->p[0]));
	size_t ng = pc_normalize(pc_norm_buf, r->n);

	for (size_t i = 0; i < ng || i < ne; i++) {
		if (i >= ng) {
			snprintf(why, n, "packet %zu (type %d offset %llu) missing",
				 i, e[i].pkt.type,
				 (unsigned long long)e[i].pkt.offset);
			return 1;
		}
		if (i >= ne) {
			snprintf(why, n, "extra packet %zu (type %d offset %llu size %u)",
				 i, pc_norm_buf[i].pkt.type,
				 (unsigned long long)pc_norm_buf[i].pkt.offset,
				 pc_norm_buf[i].pkt.size);
			return 1;
		}
		if (pc_cmp_pkt(&pc_norm_buf[i], &e[i], sub, sizeof(sub))) {
			snprintf(why, n, "packet %zu (%s at offset %llu): %s", i,
				 pft_ptm_pkt_type_name(e[i].pkt.type),
				 (unsigned long long)e[i].pkt.offset, sub);
			return 1;
		}
	}
	return 0;
}

/* ---- reporting ---- */

static inline void pc_cat_note(enum pc_category c, const char *file, int line,
			       const char *what, const char *why)
{
	if (getenv("PC_VERBOSE"))
		fprintf(stderr, "[%s] %s:%d: %s: %s\n", pc_category_name[c],
			file, line, what, why);
	if (pc_cat_fail[c] < 4)
		snprintf(pc_cat_msg[c][pc_cat_fail[c]], sizeof(pc_cat_msg[c][0]),
			 "%.200s:%d: %.150s: %.400s", file, line, what, why);
	pc_cat_fail[c]++;
}

/* One run of the matrix.  @c < 0: a core run (fails the caller). */
static inline void pc_one(const char *file, int line, int c, const char *what,
			  const struct pft_ptm_config *cfg, const uint8_t *s,
			  size_t len, const size_t *cuts, size_t ncuts,
			  enum pc_mode mode, const struct pc_pkt *e, size_t ne,
			  unsigned *core_reports)
{
	char why[400];
	struct pc_run *r = &pc_run_buf;

	pc_run_pieces(cfg, s, len, cuts, ncuts, mode, r);
	pc_cat_runs[PC_CAT_NEED_AFTER_FINISH]++;
	if (r->need_after_finish)
		pc_cat_note(PC_CAT_NEED_AFTER_FINISH, file, line, what,
			    "pft_ptm_pkt_next returned NEED_INPUT after pft_ptm_pkt_finish");
	if (c >= 0)
		pc_cat_runs[c]++;
	if (!pc_cmp_run(r, e, ne, why, sizeof(why)))
		return;
	if (c >= 0) {
		pc_cat_note((enum pc_category)c, file, line, what, why);
		return;
	}
	ptu_failed_checks++;
	if ((*core_reports)++ < 3)
		fprintf(stderr, "%s:%d: %s: %s\n", file, line, what, why);
}

/* Whole, every two-piece split and byte-by-byte, in @mode. */
static inline void pc_feed_matrix(const char *file, int line, int c,
				  const char *label,
				  const struct pft_ptm_config *cfg,
				  const uint8_t *s, size_t len,
				  enum pc_mode mode, const struct pc_pkt *e,
				  size_t ne, unsigned *core_reports)
{
	static size_t cuts[4096];
	char what[160];
	const char *m = mode == PC_FINISH_FIRST ? ", finish first" : "";

	snprintf(what, sizeof(what), "%sfed whole%s", label, m);
	pc_one(file, line, c, what, cfg, s, len, NULL, 0, mode, e, ne,
	       core_reports);
	for (size_t k = 1; k < len; k++) {
		snprintf(what, sizeof(what), "%sfed in two at %zu%s", label, k, m);
		cuts[0] = k;
		pc_one(file, line, c, what, cfg, s, len, cuts, 1, mode, e, ne,
		       core_reports);
	}
	if (len > 1 && len - 1 <= sizeof(cuts) / sizeof(cuts[0])) {
		for (size_t k = 1; k < len; k++)
			cuts[k - 1] = k;
		snprintf(what, sizeof(what), "%sfed byte by byte%s", label, m);
		pc_one(file, line, c, what, cfg, s, len, cuts, len - 1, mode, e,
		       ne, core_reports);
	}
}

/* Expected packets -> normalised pc_pkt list with running offsets.
 * Returns the count, or 0 (and fails) if the sizes do not cover @len. */
static inline size_t pc_prepare(const char *file, int line,
				const struct pft_ptm_packet *exp, size_t nexp,
				size_t len, struct pc_pkt *e)
{
	uint64_t off = 0;

	for (size_t i = 0; i < nexp; i++) {
		e[i].pkt = exp[i];
		e[i].pkt.offset = off;
		e[i].status = pc_expected_status(&exp[i]);
		e[i].raw_ok = 1;
		off += exp[i].size;
	}
	if (off != len) {
		fprintf(stderr, "%s:%d: test bug: expected sizes add up to %llu, vector has %zu bytes\n",
			file, line, (unsigned long long)off, len);
		ptu_failed_checks++;
		return 0;
	}
	return pc_normalize(e, nexp);
}

/* Every packet cut after each of its bytes, then finish. */
static inline void pc_truncations(const char *file, int line,
				  const struct pft_ptm_config *cfg,
				  const uint8_t *s, const struct pc_pkt *e,
				  size_t ne, unsigned *core_reports)
{
	static struct pc_pkt te[PC_MAXPKT];
	static size_t cuts[4096];
	char what[160];

	for (size_t j = 0; j < ne; j++) {
		const struct pft_ptm_packet *p = &e[j].pkt;

		if (p->type == PFT_PTM_PKT_NOTSYNC || p->type == PFT_PTM_PKT_BAD)
			continue;
		int synced = j > 0 && e[j - 1].pkt.type != PFT_PTM_PKT_NOTSYNC &&
			     e[j - 1].pkt.type != PFT_PTM_PKT_BAD;

		for (uint32_t k = 1; k < p->size; k++) {
			size_t plen = (size_t)p->offset + k;

			memcpy(te, e, j * sizeof(e[0]));
			memset(&te[j], 0, sizeof(te[j]));
			te[j].pkt.offset = p->offset;
			te[j].pkt.size = k;
			te[j].raw_ok = 1;
			if (synced) {
				te[j].pkt.type = PFT_PTM_PKT_BAD;
				te[j].pkt.bad = PFT_ERR_PKT_TRUNCATED;
				te[j].status = -PFT_ERR_TRUNCATED;
			} else {
				te[j].pkt.type = PFT_PTM_PKT_NOTSYNC;
			}
			size_t nte = pc_normalize(te, j + 1);

			for (int mode = PC_DRAIN_FIRST; mode <= PC_FINISH_FIRST; mode++) {
				int c = mode == PC_DRAIN_FIRST ? PC_CAT_TRUNC
							       : PC_CAT_TRUNC_FINISH_FIRST;
				const char *m = mode == PC_FINISH_FIRST ? ", finish first" : "";

				snprintf(what, sizeof(what),
					 "%s cut after %u of its %u bytes%s",
					 pft_ptm_pkt_type_name(p->type), k, p->size, m);
				pc_one(file, line, c, what, cfg, s, plen, NULL, 0,
				       (enum pc_mode)mode, te, nte, core_reports);
				for (size_t i = 1; i < plen; i++)
					cuts[i - 1] = i;
				snprintf(what, sizeof(what),
					 "%s cut after %u of its %u bytes, byte by byte%s",
					 pft_ptm_pkt_type_name(p->type), k, p->size, m);
				pc_one(file, line, c, what, cfg, s, plen, cuts,
				       plen - 1, (enum pc_mode)mode, te, nte,
				       core_reports);
			}
		}
	}
}

static inline void pc_check_stream_opt(const char *file, int line,
				       const struct pft_ptm_config *cfg,
				       const uint8_t *s, size_t len,
				       const struct pft_ptm_packet *exp,
				       size_t nexp, int opts)
{
	static struct pc_pkt e[PC_MAXPKT];
	unsigned core_reports = 0;
	size_t ne = pc_prepare(file, line, exp, nexp, len, e);

	if (!ne)
		return;
	pc_ignore_altis = !!(opts & PC_OPT_IGNORE_ALTIS);
	pc_feed_matrix(file, line, -1, "", cfg, s, len, PC_DRAIN_FIRST, e, ne,
		       &core_reports);
	/* A vector whose core decode is wrong already fails its test; its
	 * other runs would only repeat that in every category. */
	if (!(opts & PC_OPT_CORE_ONLY) && !core_reports) {
		pc_feed_matrix(file, line, PC_CAT_FINISH_FIRST, "", cfg, s, len,
			       PC_FINISH_FIRST, e, ne, &core_reports);
		if (!(opts & PC_OPT_NO_TRUNC))
			pc_truncations(file, line, cfg, s, e, ne, &core_reports);
	}
	pc_ignore_altis = 0;
}

static inline void pc_check_stream(const char *file, int line,
				   const struct pft_ptm_config *cfg,
				   const uint8_t *s, size_t len,
				   const struct pft_ptm_packet *exp, size_t nexp)
{
	pc_check_stream_opt(file, line, cfg, s, len, exp, nexp, 0);
}

#define PC_CHECK(cfg, s, e)                                                   \
	pc_check_stream(__FILE__, __LINE__, (cfg), (s), sizeof(s), (e),       \
			sizeof(e) / sizeof((e)[0]))

/* ---- the category tests (run last, after every vector) ---- */

static inline void pc_check_category(enum pc_category c)
{
	if (!pc_cat_runs[c]) {
		fprintf(stderr, "no run in category '%s'\n", pc_category_name[c]);
		ptu_failed_checks++;
		return;
	}
	if (!pc_cat_fail[c])
		return;
	fprintf(stderr, "category '%s': %u of %u runs wrong; first ones:\n",
		pc_category_name[c], pc_cat_fail[c], pc_cat_runs[c]);
	for (unsigned i = 0; i < pc_cat_fail[c] && i < 4; i++)
		fprintf(stderr, "  %s\n", pc_cat_msg[c][i]);
	ptu_failed_checks++;
}

static inline void finish_before_next_decodes_the_same(void)
{
	pc_check_category(PC_CAT_FINISH_FIRST);
}
static inline void truncation_at_every_byte(void)
{
	pc_check_category(PC_CAT_TRUNC);
}
static inline void truncation_at_every_byte_finish_first(void)
{
	pc_check_category(PC_CAT_TRUNC_FINISH_FIRST);
}
static inline void no_need_input_after_finish(void)
{
	pc_check_category(PC_CAT_NEED_AFTER_FINISH);
}

#define PC_CATEGORY_TESTS()                                                   \
	do {                                                                  \
		PTU_RUN(truncation_at_every_byte);                            \
		PTU_RUN(finish_before_next_decodes_the_same);                 \
		PTU_RUN(truncation_at_every_byte_finish_first);               \
		PTU_RUN(no_need_input_after_finish);                          \
	} while (0)

/* Build expected-packet initialisers tersely. */
#define E_ASYNC(n) { .type = PFT_PTM_PKT_ASYNC, .size = (n) }
#define E_NOTSYNC(n) { .type = PFT_PTM_PKT_NOTSYNC, .size = (n) }
#define E_TRIGGER { .type = PFT_PTM_PKT_TRIGGER, .size = 1 }
#define E_BAD(reason, n) { .type = PFT_PTM_PKT_BAD, .bad = (reason), .size = (n) }

#endif
