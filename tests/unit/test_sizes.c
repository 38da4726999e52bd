/* Size-prefixed structs (pft.h, "Conventions"): a caller built against an
 * older pft.h passes its struct's first layout (up to the first reserved
 * member).  Each function taking such a struct works with that size, leaves
 * the bytes past it alone (outputs) or does not read them (inputs: they hold
 * poison that would be refused or noticed if read), and refuses one byte
 * less with -PFT_ERR_INVALID. */
#include <stddef.h>
#include <string.h>

#include "ptunit.h"
#include "pft.h"

#define POISON 0xa5
#define FIRST(type) offsetof(type, reserved)

/* A struct with room for poison past the caller's part. */
#define OLD(type) union { type s; uint8_t b[sizeof(type)]; }

static void poison_past(void *p, size_t from, size_t total)
{
	memset((uint8_t *)p + from, POISON, total - from);
}

static int poisoned_past(const void *p, size_t from, size_t total)
{
	for (size_t i = from; i < total; i++)
		if (((const uint8_t *)p)[i] != POISON)
			return 0;
	return 1;
}

/* A PTM configuration an older caller has: its fields set, what follows its
 * first layout poison. */
static void old_config(struct pft_ptm_config *c, size_t size)
{
	pft_ptm_config_init(c);
	c->cycle_accurate = 1;
	poison_past(c, size, sizeof(*c));
	c->size = size;
}

static void ptm_config_in(void)
{
	const size_t first = FIRST(struct pft_ptm_config);
	OLD(struct pft_ptm_config) u;
	char opts[64];
	int err = 1;

	old_config(&u.s, first);
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(&u.s, &err);
	PTU_CHECK(d != NULL);
	PTU_EQ(err, 0);
	pft_ptm_pkt_free(d);
	struct pft_ptm_flow *f = pft_ptm_flow_alloc(&u.s, NULL, &err);
	PTU_CHECK(f != NULL);
	pft_ptm_flow_free(f);
	struct pft_ptm_encoder *e = pft_ptm_enc_alloc(&u.s, &err);
	PTU_CHECK(e != NULL);
	pft_ptm_enc_free(e);
	PTU_EQ(pft_ptm_config_options(&u.s, opts, sizeof(opts)), strlen("--cycle-accurate"));
	PTU_CHECK(poisoned_past(&u.s, first, sizeof(u.s)));

	u.s.size = first - 1;
	err = 0;
	PTU_CHECK(pft_ptm_pkt_alloc(&u.s, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	err = 0;
	PTU_CHECK(pft_ptm_flow_alloc(&u.s, NULL, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	err = 0;
	PTU_CHECK(pft_ptm_enc_alloc(&u.s, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_config_options(&u.s, opts, sizeof(opts)), -PFT_ERR_INVALID);
}

/* Configurations written by the library: only the caller's part. */
static void configs_out(void)
{
	OLD(struct pft_ptm_config) c;
	OLD(struct pft_etm3_config) e;
	OLD(struct pft_event_limits) l;
	const size_t fc = FIRST(struct pft_ptm_config);
	const size_t fe = FIRST(struct pft_etm3_config);
	const size_t fl = FIRST(struct pft_event_limits);

	/* Cortex-A15 PTM (ETMIDR 0x411CF312): CA from ETMCR[12]. */
	poison_past(&c, 0, sizeof(c));
	c.s.size = fc;
	PTU_EQ(pft_ptm_config_from_regs(&c.s, 0x1000, 0, 0x411CF312, 0x13), 0);
	PTU_EQ(c.s.size, fc);
	PTU_EQ(c.s.cycle_accurate, 1);
	PTU_EQ(c.s.trace_id, 0x13);
	PTU_CHECK(poisoned_past(&c, fc, sizeof(c)));
	c.s.size = fc - 1;
	PTU_EQ(pft_ptm_config_from_regs(&c.s, 0x1000, 0, 0x411CF312, 0x13), -PFT_ERR_INVALID);

	/* ETMv3 (ETMIDR[11:8] = 2): trace ID from ETMTRACEIDR[6:0]. */
	poison_past(&e, 0, sizeof(e));
	e.s.size = fe;
	PTU_EQ(pft_etm3_config_from_regs(&e.s, 0, 0, 0x410CF250, 0x10), 0);
	PTU_EQ(e.s.size, fe);
	PTU_EQ(e.s.trace_id, 0x10);
	PTU_CHECK(poisoned_past(&e, fe, sizeof(e)));
	e.s.size = fe - 1;
	PTU_EQ(pft_etm3_config_from_regs(&e.s, 0, 0, 0x410CF250, 0x10), -PFT_ERR_INVALID);

	/* ETMCCR 0x8d294004: 4 address range comparators (ETMCCR[3:0]). */
	poison_past(&l, 0, sizeof(l));
	l.s.size = fl;
	PTU_EQ(pft_event_limits_from_regs(&l.s, 0x8d294004, 0, 0x411CF312), 0);
	PTU_EQ(l.s.arcs, 4);
	PTU_CHECK(poisoned_past(&l, fl, sizeof(l)));
	l.s.size = fl - 1;
	PTU_EQ(pft_event_limits_from_regs(&l.s, 0x8d294004, 0, 0x411CF312), -PFT_ERR_INVALID);
	/* size 0 is no longer "all of it". */
	l.s.size = 0;
	PTU_EQ(pft_event_limits_from_regs(&l.s, 0x8d294004, 0, 0x411CF312), -PFT_ERR_INVALID);
}

/* @alloc(cfg, &err) with the configuration in @u (its fields set) at its
 * first layout succeeds, poison past it notwithstanding; one byte less is
 * refused. */
#define ALLOC_AT_FIRST_LAYOUT(u, type, alloc, free_fn)                          \
	do {                                                                  \
		int err_ = 1;                                                 \
		poison_past(&(u), FIRST(type), sizeof(u));                    \
		(u).s.size = FIRST(type);                                     \
		void *obj_ = alloc(&(u).s, &err_);                            \
		PTU_CHECK(obj_ != NULL);                                      \
		PTU_EQ(err_, 0);                                              \
		free_fn(obj_);                                                \
		(u).s.size--;                                                 \
		PTU_CHECK(alloc(&(u).s, &err_) == NULL);                      \
		PTU_EQ(err_, -PFT_ERR_INVALID);                               \
	} while (0)

/* Configurations read by the library: their reserved bytes hold poison,
 * which dfmt and ffmt would refuse if they read it ("must be zero"). */
static void other_configs_in(void)
{
	OLD(struct pft_dfmt_config) dc;
	OLD(struct pft_ffmt_config) fc;
	OLD(struct pft_etm3_config) ec;
	OLD(struct pft_pipe_config) pc;
	OLD(struct pft_calls_config) cc;
	OLD(struct pft_event_limits) lc;
	OLD(struct pft_regs_context) rc;
	struct pft_regs_field fields[PFT_REGS_FIELDS_MAX];

	memset(&dc, 0, sizeof(dc));
	dc.s.tpiu = 1;
	ALLOC_AT_FIRST_LAYOUT(dc, struct pft_dfmt_config, pft_dfmt_alloc, pft_dfmt_free);
	memset(&fc, 0, sizeof(fc));
	ALLOC_AT_FIRST_LAYOUT(fc, struct pft_ffmt_config, pft_ffmt_alloc, pft_ffmt_free);
	pft_etm3_config_init(&ec.s);
	ALLOC_AT_FIRST_LAYOUT(ec, struct pft_etm3_config, pft_etm3_pkt_alloc, pft_etm3_pkt_free);
	memset(&pc, 0, sizeof(pc));
	pc.s.packets = 1;
	ALLOC_AT_FIRST_LAYOUT(pc, struct pft_pipe_config, pft_pipe_alloc, pft_pipe_free);
	/* An older calls configuration used to be ignored silently. */
	memset(&cc, 0, sizeof(cc));
	ALLOC_AT_FIRST_LAYOUT(cc, struct pft_calls_config, pft_calls_alloc, pft_calls_free);

	/* arc1 is resource 0x10; a limits struct with no comparators refuses
	 * it, so its counts were read. */
	uint32_t v;
	pft_event_limits_max(&lc.s);
	lc.s.arcs = 0;
	poison_past(&lc, FIRST(struct pft_event_limits), sizeof(lc));
	lc.s.size = FIRST(struct pft_event_limits);
	PTU_EQ(pft_event_parse("always", &lc.s, &v, NULL), 0);
	PTU_EQ(pft_event_parse("arc1", &lc.s, &v, NULL), -PFT_ERR_BAD_CONFIG);
	lc.s.size--;
	PTU_EQ(pft_event_parse("always", &lc.s, &v, NULL), -PFT_ERR_INVALID);

	memset(&rc, 0, sizeof(rc));
	poison_past(&rc, FIRST(struct pft_regs_context), sizeof(rc));
	rc.s.size = FIRST(struct pft_regs_context);
	PTU_CHECK(pft_regs_explain("ETMCR", 0, &rc.s, fields, PFT_REGS_FIELDS_MAX) > 0);
	rc.s.size--;
	PTU_EQ(pft_regs_explain("ETMCR", 0, &rc.s, fields, PFT_REGS_FIELDS_MAX),
	       -PFT_ERR_INVALID);
}

/* Elements: out of the flow decoder, into the consumers. */
static void elements(void)
{
	const size_t first = FIRST(struct pft_elem);
	struct pft_ptm_config cfg;
	struct pft_ptm_packet async = { .type = PFT_PTM_PKT_ASYNC };
	OLD(struct pft_elem) u;
	int err;

	pft_ptm_config_init(&cfg);
	struct pft_ptm_flow *f = pft_ptm_flow_alloc(&cfg, NULL, &err);
	PTU_CHECK(f != NULL);
	if (!f)
		return;
	/* The first packet gives a NO_SYNC element. */
	PTU_EQ(pft_ptm_flow_put(f, &async, sizeof(async)), 0);
	poison_past(&u, 0, sizeof(u));
	PTU_EQ(pft_ptm_flow_next(f, &u.s, first - 1), -PFT_ERR_INVALID);
	PTU_CHECK(poisoned_past(&u, 0, sizeof(u)));
	PTU_EQ(pft_ptm_flow_next(f, &u.s, first), 0);
	PTU_EQ(u.s.type, PFT_ELEM_NO_SYNC);
	PTU_CHECK(poisoned_past(&u, first, sizeof(u)));
	pft_ptm_flow_free(f);

	/* The element, poison and all, goes into the consumers. */
	struct pft_cov *cov = pft_cov_alloc(&err);
	struct pft_calls_config cc = { .size = sizeof(cc) };
	struct pft_calls *calls = pft_calls_alloc(&cc, &err);
	struct pft_call_event ev;

	PTU_CHECK(cov && calls);
	if (cov && calls) {
		PTU_EQ(pft_cov_add(cov, &u.s, first), 0);
		PTU_EQ(pft_cov_add(cov, &u.s, first - 1), -PFT_ERR_INVALID);
		PTU_EQ(pft_calls_put(calls, &u.s, first - 1), -PFT_ERR_INVALID);
		PTU_EQ(pft_calls_put(calls, &u.s, first), 0);
		while (pft_calls_next(calls, &ev, sizeof(ev)) == 0)
			;
		PTU_EQ(pft_calls_next(calls, &ev, FIRST(struct pft_call_event) - 1),
		       -PFT_ERR_INVALID);
	}
	pft_cov_free(cov);
	pft_calls_free(calls);
}

/* ETMv3 packets out of their decoder: an A-sync (5 zeros, 0x80). */
static void etm3_packets(void)
{
	static const uint8_t async[] = { 0, 0, 0, 0, 0, 0x80 };
	const size_t first = FIRST(struct pft_etm3_packet);
	struct pft_etm3_config cfg;
	OLD(struct pft_etm3_packet) u;
	int err;

	pft_etm3_config_init(&cfg);
	struct pft_etm3_pkt_decoder *d = pft_etm3_pkt_alloc(&cfg, &err);
	PTU_CHECK(d != NULL);
	if (!d)
		return;
	PTU_EQ(pft_etm3_pkt_feed(d, async, sizeof(async)), 0);
	poison_past(&u, 0, sizeof(u));
	PTU_EQ(pft_etm3_pkt_next(d, &u.s, first - 1), -PFT_ERR_INVALID);
	PTU_CHECK(poisoned_past(&u, 0, sizeof(u)));
	PTU_EQ(pft_etm3_pkt_next(d, &u.s, first), 0);
	PTU_EQ(u.s.type, PFT_ETM3_PKT_ASYNC);
	PTU_EQ(u.s.size, 6);
	PTU_CHECK(poisoned_past(&u, first, sizeof(u)));
	pft_etm3_pkt_free(d);
}

/* The init functions, as an older caller's inline would call them: they
 * write its first layout and nothing past it (fields with defaults set). */
static void inits(void)
{
	OLD(struct pft_ptm_config) c;
	OLD(struct pft_etm3_config) e;
	OLD(struct pft_event_limits) l;
	const size_t fc = FIRST(struct pft_ptm_config);
	const size_t fe = FIRST(struct pft_etm3_config);
	const size_t fl = FIRST(struct pft_event_limits);

	poison_past(&c, 0, sizeof(c));
	PTU_EQ(pft_ptm_config_init_size(&c.s, fc), 0);
	PTU_EQ(c.s.size, fc);
	PTU_EQ(c.s.version_minor, 1);
	PTU_EQ(c.s.ts_64bit, 1);
	PTU_EQ(c.s.cycle_accurate, 0);
	PTU_CHECK(poisoned_past(&c, fc, sizeof(c)));
	PTU_EQ(pft_ptm_config_init_size(&c.s, fc - 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_config_init_size(NULL, fc), -PFT_ERR_INVALID);

	poison_past(&e, 0, sizeof(e));
	PTU_EQ(pft_etm3_config_init_size(&e.s, fe), 0);
	PTU_EQ(e.s.size, fe);
	PTU_EQ(e.s.version_minor, 5);
	PTU_EQ(e.s.alt_branch, 0);
	PTU_CHECK(poisoned_past(&e, fe, sizeof(e)));
	PTU_EQ(pft_etm3_config_init_size(&e.s, fe - 1), -PFT_ERR_INVALID);

	/* The architectural maximum: 8 range comparators, 3 sequencer states. */
	poison_past(&l, 0, sizeof(l));
	PTU_EQ(pft_event_limits_max_size(&l.s, fl), 0);
	PTU_EQ(l.s.size, fl);
	PTU_EQ(l.s.arcs, 8);
	PTU_EQ(l.s.seq_states, 3);
	PTU_CHECK(poisoned_past(&l, fl, sizeof(l)));
	PTU_EQ(pft_event_limits_max_size(&l.s, fl - 1), -PFT_ERR_INVALID);

	/* The inline init is the full size. */
	PTU_EQ(pft_ptm_config_init(&c.s), 0);
	PTU_EQ(c.s.size, sizeof(c.s));
}

int main(void)
{
	PTU_RUN(inits);
	PTU_RUN(ptm_config_in);
	PTU_RUN(configs_out);
	PTU_RUN(other_configs_in);
	PTU_RUN(elements);
	PTU_RUN(etm3_packets);
	PTU_MAIN_END();
}
