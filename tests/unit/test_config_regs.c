/* Tests of the configuration <-> register functions (pft_ptm_config_to_regs,
 * pft_etm3_config_to_regs, pft_etm3_config_from_ptm, pft_regs_protocol,
 * pft_ptm_config_check, pft_event_limits_to_regs) and their round trips
 * with the *_from_regs functions.
 *
 * Expected register values come from the register definitions in
 * shared/spec/ptm-registers-events.md (sections 2-6: bit positions, the
 * Cortex-A9/A15 ETMIDR examples, the TC2 dump of 6.1, ETMCCR 0x8D294004)
 * and shared/spec/etmv3-protocol.md (2.1-2.5: the ETMv3 bits, TC2's
 * Cortex-A7 ETMIDR 0x410CF250 and ETMCCER 0x344008F2, the ETMCR
 * 0x5000C000 of section 8), not from the library's own output.
 */
#include <stddef.h>
#include <string.h>

#include "ptunit.h"
#include "pft.h"

static struct pft_trace_regs ptm_regs(const struct pft_ptm_config *c)
{
	struct pft_trace_regs r = { .size = sizeof(r) };

	PTU_EQ(pft_ptm_config_to_regs(c, &r), 0);
	return r;
}

static struct pft_trace_regs etm3_regs(const struct pft_etm3_config *c)
{
	struct pft_trace_regs r = { .size = sizeof(r) };

	PTU_EQ(pft_etm3_config_to_regs(c, &r), 0);
	return r;
}

/* pft_ptm_config_init(): a Cortex-A15 PTM (PFTv1.1 rev 2, ptm-registers 4)
 * with TC2's ETMCCER (6.1: 64-bit binary timestamps) and the ETMCCR of
 * section 5; nothing enabled in ETMCR. */
static void ptm_defaults(void)
{
	struct pft_ptm_config c;
	pft_ptm_config_init(&c);
	struct pft_trace_regs r = ptm_regs(&c);

	PTU_EQ(r.etmidr, 0x411CF312u);
	PTU_EQ(r.etmccer, 0x34C01AC2u);
	PTU_EQ(r.etmccr, 0x8D294004u);
	PTU_EQ(r.etmcr, 0u);
	PTU_EQ(r.etmtraceidr, 0u);
}

/* Each ETMCR option at its bit (ptm-registers 2). */
static void ptm_etmcr_bits(void)
{
	struct pft_ptm_config c;

	pft_ptm_config_init(&c);
	c.branch_broadcast = 1;
	PTU_EQ(ptm_regs(&c).etmcr, 1u << 8);
	pft_ptm_config_init(&c);
	c.cycle_accurate = 1;
	PTU_EQ(ptm_regs(&c).etmcr, 1u << 12);
	pft_ptm_config_init(&c);
	c.timestamps = 1;
	PTU_EQ(ptm_regs(&c).etmcr, 1u << 28);
	pft_ptm_config_init(&c);
	c.return_stack = 1;
	PTU_EQ(ptm_regs(&c).etmcr, 1u << 29);
	pft_ptm_config_init(&c);
	c.vmid = 1;
	PTU_EQ(ptm_regs(&c).etmcr, 1u << 30);
	/* Context ID size, bits 15:14: 00 none, 01 one, 10 two, 11 four bytes. */
	static const uint32_t ctxid[5] = { 0, 0x4000, 0x8000, 0, 0xC000 };
	for (unsigned n = 0; n <= 4; n++) {
		if (n == 3)
			continue;
		pft_ptm_config_init(&c);
		c.ctxid_bytes = (uint8_t)n;
		PTU_EQ(ptm_regs(&c).etmcr, ctxid[n]);
	}
	/* TC2's A15 PTMs (6.1): TS on, CA on = 0x10001000, trace ID 0x13. */
	pft_ptm_config_init(&c);
	c.timestamps = c.cycle_accurate = 1;
	c.trace_id = 0x13;
	struct pft_trace_regs r = ptm_regs(&c);
	PTU_EQ(r.etmcr, 0x10001000u);
	PTU_EQ(r.etmtraceidr, 0x13u);
}

/* ETMCCER: 29 = 64-bit, 28 = binary (v1.1), 24 = DMB/DSB waypoints. */
static void ptm_etmccer_bits(void)
{
	struct pft_ptm_config c;

	pft_ptm_config_init(&c);
	c.ts_gray = 1;
	PTU_EQ(ptm_regs(&c).etmccer, 0x34C01AC2u & ~(1u << 28));
	pft_ptm_config_init(&c);
	c.ts_64bit = 0;
	PTU_EQ(ptm_regs(&c).etmccer, 0x34C01AC2u & ~(1u << 29));
	pft_ptm_config_init(&c);
	c.dmb_dsb_waypoints = 1;
	PTU_EQ(ptm_regs(&c).etmccer, 0x34C01AC2u | 1u << 24);
}

/* PFTv1.0: a Cortex-A9 (ETMIDR 0x411CF301, ptm-registers 4) whose ETMCCER
 * is its TRM's (the Snowball dump 0x000008EA with bits 12, 22 and 23, 6.1);
 * bits 29:28 and ETMCR[30] are reserved there and stay 0. */
static void ptm_v10(void)
{
	struct pft_ptm_config c;

	pft_ptm_config_init(&c);
	c.version_minor = 0;
	c.ts_64bit = 0;
	c.ts_gray = 1;
	struct pft_trace_regs r = ptm_regs(&c);
	PTU_EQ(r.etmidr, 0x411CF301u);
	PTU_EQ(r.etmccer, 0x000008EAu | 1u << 12 | 1u << 22 | 1u << 23);
	PTU_EQ(r.etmccr, 0x8D294004u);
	c.vmid = 1;
	c.ts_64bit = 1;
	c.ts_gray = 0;
	r = ptm_regs(&c);
	PTU_EQ(r.etmcr, 0u);
	PTU_EQ(r.etmccer >> 28, 0u);
}

/* @back, derived from @r, is @c with the registers it came from. */
#define SAME_CONFIG(c, back, r)                                                       \
	do {                                                                          \
		(c).etmcr = (r).etmcr;                                                \
		(c).etmccer = (r).etmccer;                                            \
		(c).etmidr = (r).etmidr;                                              \
		(c).etmtraceidr = (r).etmtraceidr;                                    \
		PTU_CHECK(!memcmp(&(c), &(back), sizeof(c)));                         \
	} while (0)

/* config -> regs -> config gives the configuration back, over every
 * combination of the options (the A15 has the Virtualization Extensions,
 * the A9 not; v1.0 timestamps are 48-bit Gray). */
static void ptm_round_trip(void)
{
	static const uint8_t ctxid[4] = { 0, 1, 2, 4 };
	unsigned n = 0;

	for (unsigned bits = 0; bits < 1u << 10; bits++) {
		struct pft_ptm_config c, back;
		pft_ptm_config_init(&c);
		c.version_minor = bits & 1;
		c.cycle_accurate = bits >> 1 & 1;
		c.timestamps = bits >> 2 & 1;
		c.return_stack = bits >> 3 & 1;
		c.branch_broadcast = bits >> 4 & 1;
		c.dmb_dsb_waypoints = bits >> 5 & 1;
		c.ctxid_bytes = ctxid[bits >> 6 & 3];
		c.vmid = c.version_minor && (bits >> 8 & 1);
		c.ts_64bit = c.version_minor && (bits >> 9 & 1);
		c.ts_gray = !c.version_minor || !(bits >> 8 & 1);
		c.virtualization = c.version_minor;
		c.trace_id = (uint8_t)(1 + bits % 0x6f);
		struct pft_trace_regs r = ptm_regs(&c);
		pft_ptm_config_init(&back);
		PTU_EQ(pft_ptm_config_from_regs(&back, r.etmcr, r.etmccer, r.etmidr, r.etmtraceidr), 0);
		SAME_CONFIG(c, back, r);
		n++;
	}
	PTU_EQ(n, 1024u);
	/* And regs -> config -> regs for TC2's PTM (6.1). */
	struct pft_ptm_config c;
	pft_ptm_config_init(&c);
	PTU_EQ(pft_ptm_config_from_regs(&c, 0x10001000, 0x34C01AC2, 0x411CF312, 0x13), 0);
	struct pft_trace_regs r = ptm_regs(&c);
	PTU_EQ(r.etmcr, 0x10001000u);
	PTU_EQ(r.etmccer, 0x34C01AC2u);
	PTU_EQ(r.etmidr, 0x411CF312u);
	PTU_EQ(r.etmtraceidr, 0x13u);
}

/* pft_etm3_config_init(): TC2's Cortex-A7 ETMv3.5 (etmv3-protocol 2.5). */
static void etm3_defaults(void)
{
	struct pft_etm3_config c;
	pft_etm3_config_init(&c);
	struct pft_trace_regs r = etm3_regs(&c);

	PTU_EQ(r.etmidr, 0x410CF250u);
	PTU_EQ(r.etmccer, 0x344008F2u);
	PTU_EQ(r.etmcr, 0u);
	PTU_EQ(r.etmtraceidr, 0u);
}

/* ETMCR (etmv3-protocol 2.1): 2 data value, 3 data address, 8 branch
 * output, 12 cycle accurate, 15:14 context ID size, 20 data-only, 28
 * timestamps (v3.5), 30 VMID (v3.5); ETMIDR[20] the alternative encoding
 * (v3.4+, 2.2). */
static void etm3_bits(void)
{
	struct pft_etm3_config c;

	pft_etm3_config_init(&c);
	c.data_value = 1;
	c.data_address = 1;
	c.data_only = 1;
	PTU_EQ(etm3_regs(&c).etmcr, 1u << 2 | 1u << 3 | 1u << 20);
	pft_etm3_config_init(&c);
	c.branch_broadcast = 1;
	c.cycle_accurate = 1;
	PTU_EQ(etm3_regs(&c).etmcr, 1u << 8 | 1u << 12);
	/* Section 8's example: 4-byte context ID, timestamps, VMID. */
	pft_etm3_config_init(&c);
	c.ctxid_bytes = 4;
	c.timestamps = 1;
	c.vmid = 1;
	PTU_EQ(etm3_regs(&c).etmcr, 0x5000C000u);
	pft_etm3_config_init(&c);
	c.ts_gray = 1;
	c.ts_64bit = 0;
	PTU_EQ(etm3_regs(&c).etmccer, 0x044008F2u);
	/* v3.4 with the alternative encoding: minor 4, bit 20; timestamps and
	 * VMID (v3.5) are not there to enable. */
	pft_etm3_config_init(&c);
	c.version_minor = 4;
	c.alt_branch = 1;
	c.timestamps = 1;
	struct pft_trace_regs r = etm3_regs(&c);
	PTU_EQ(r.etmidr >> 4 & 0xf, 4u);
	PTU_EQ(r.etmidr >> 8 & 0xf, 2u);
	PTU_EQ(r.etmidr >> 20 & 1, 1u);
	PTU_EQ(r.etmcr, 0u);
	/* Before v3.4 there is no alternative encoding. */
	c.version_minor = 3;
	PTU_EQ(etm3_regs(&c).etmidr >> 20 & 1, 0u);
}

static void etm3_round_trip(void)
{
	static const uint8_t ctxid[4] = { 0, 1, 2, 4 };

	for (unsigned bits = 0; bits < 1u << 11; bits++) {
		struct pft_etm3_config c, back;
		pft_etm3_config_init(&c);
		c.version_minor = (bits & 1) ? 5 : 4;
		c.cycle_accurate = bits >> 1 & 1;
		c.branch_broadcast = bits >> 2 & 1;
		c.data_value = bits >> 3 & 1;
		c.data_address = bits >> 4 & 1;
		c.data_only = bits >> 5 & 1;
		c.ctxid_bytes = ctxid[bits >> 6 & 3];
		c.alt_branch = bits >> 8 & 1;
		/* Only an M-profile core's ETM has the alternative encoding
		 * (etmv3-protocol.md 1): the registers say M with it, and the
		 * ETM-M4's have no Virtualization Extensions. */
		c.m_profile = c.alt_branch;
		if (c.version_minor == 5) {
			c.timestamps = bits >> 9 & 1;
			c.vmid = bits >> 10 & 1;
			c.ts_gray = bits >> 9 & 1;
			c.ts_64bit = bits >> 10 & 1;
			c.virtualization = !c.m_profile;
		}
		c.trace_id = (uint8_t)(1 + bits % 0x6f);
		struct pft_trace_regs r = etm3_regs(&c);
		pft_etm3_config_init(&back);
		PTU_EQ(pft_etm3_config_from_regs(&back, r.etmcr, r.etmccer, r.etmidr, r.etmtraceidr),
		       0);
		SAME_CONFIG(c, back, r);
	}
	/* TC2's ETM (2.5): the options survive; the port bits are not
	 * configuration. */
	struct pft_etm3_config c;
	pft_etm3_config_init(&c);
	PTU_EQ(pft_etm3_config_from_regs(&c, 0x10001860, 0x344008F2, 0x410CF250, 0x10), 0);
	struct pft_trace_regs r = etm3_regs(&c);
	PTU_EQ(r.etmcr, 0x10001000u);
	PTU_EQ(r.etmccer, 0x344008F2u);
	PTU_EQ(r.etmidr, 0x410CF250u);
	PTU_EQ(r.etmtraceidr, 0x10u);
}

/* The ETMv3 configuration of a PTM's options. */
static void etm3_from_ptm(void)
{
	struct pft_ptm_config p;
	struct pft_etm3_config c;

	pft_ptm_config_init(&p);
	p.ctxid_bytes = 4;
	p.timestamps = 1;
	p.vmid = 1;
	p.return_stack = 1;       /* ETMv3 has none: ETMCR[29] is reserved */
	p.dmb_dsb_waypoints = 1;
	p.trace_id = 0x21;
	pft_etm3_config_init(&c);
	PTU_EQ(pft_etm3_config_from_ptm(&c, &p), 0);
	PTU_EQ(c.etmcr, 0x5000C000u);
	PTU_EQ(c.etmidr, 0x410CF250u);
	PTU_EQ(c.etmccer, 0x344008F2u);
	PTU_EQ(c.etmtraceidr, 0x21u);
	PTU_EQ(c.version_minor, 5);
	PTU_EQ(c.ctxid_bytes, 4);
	PTU_EQ(c.timestamps, 1);
	PTU_EQ(c.vmid, 1);
	PTU_EQ(c.virtualization, 1);
	PTU_EQ(c.ts_64bit, 1);
	PTU_EQ(c.ts_gray, 0);
	PTU_EQ(c.trace_id, 0x21);
	p.ts_gray = 1;
	p.ts_64bit = 0;
	p.cycle_accurate = 1;
	p.branch_broadcast = 1;
	PTU_EQ(pft_etm3_config_from_ptm(&c, &p), 0);
	PTU_EQ(c.etmcr, 0x5000C000u | 1u << 8 | 1u << 12);
	PTU_EQ(c.etmccer, 0x044008F2u);
	PTU_EQ(c.ts_gray, 1);
	PTU_EQ(c.ts_64bit, 0);
}

/* ETMIDR[11:8]: 3 PFT, 2 ETMv3 (ptm-registers 4, etmv3-protocol 2.2). */
static void protocol(void)
{
	unsigned arch = 99;

	PTU_EQ(pft_regs_protocol(0x411CF312, &arch), PFT_PROTO_PTM);
	PTU_EQ(arch, 3u);
	PTU_EQ(pft_regs_protocol(0x411CF301, NULL), PFT_PROTO_PTM);
	PTU_EQ(pft_regs_protocol(0x410CF250, &arch), PFT_PROTO_ETMV3);
	PTU_EQ(arch, 2u);
	PTU_EQ(pft_regs_protocol(0x4114F240, NULL), PFT_PROTO_ETMV3);
	PTU_EQ(pft_regs_protocol(0x410CF120, &arch), PFT_PROTO_UNKNOWN);
	PTU_EQ(arch, 1u);
	PTU_EQ(pft_regs_protocol(0, &arch), PFT_PROTO_UNKNOWN);
	PTU_EQ(arch, 0u);
}

static void check(void)
{
	struct pft_ptm_config c;

	pft_ptm_config_init(&c);
	PTU_EQ(pft_ptm_config_check(&c), PFT_PTM_CONFIG_OK);
	c.ctxid_bytes = 3;
	PTU_EQ(pft_ptm_config_check(&c), PFT_PTM_CONFIG_CTXID_BYTES);
	pft_ptm_config_init(&c);
	c.version_minor = 0;
	c.vmid = 1;
	PTU_EQ(pft_ptm_config_check(&c), PFT_PTM_CONFIG_VMID_V10);
	pft_ptm_config_init(&c);
	c.return_stack = c.branch_broadcast = 1;
	PTU_EQ(pft_ptm_config_check(&c), PFT_PTM_CONFIG_RS_AND_BB);
	PTU_EQ(pft_ptm_config_check(NULL), -PFT_ERR_INVALID);
}

/* pft_event_limits_to_regs(): the resource fields of ETMCCR, ETMCCER and
 * ETMIDR (ptm-registers-events.md 3-5) for TC2's A15 PTM: ETMCCR 0x8D294004
 * (4 comparator pairs, 2 counters, sequencer, 4 external inputs, 1 context
 * ID comparator, start/stop block), ETMCCER 0x34C01AC2, ETMIDR 0x411CF312.
 * Fields that are no resource (ETMCCR[31], [27], [22:20]; ETMCCER's bus
 * size and feature bits; the revision and bit 18 of ETMIDR) read 0. */
static void limits_regs(void)
{
	struct pft_event_limits l = { .size = sizeof(l) }, back = { .size = sizeof(back) };
	struct pft_regs_context ctx = { .size = sizeof(ctx) };

	PTU_EQ(pft_event_limits_from_regs(&l, 0x8D294004, 0x34C01AC2, 0x411CF312), 0);
	PTU_EQ(pft_event_limits_to_regs(&l, &ctx), 0);
	PTU_EQ(ctx.etmccr, 0x8D294004u & ~(1u << 31 | 1u << 27 | 7u << 20));
	PTU_EQ(ctx.etmccer, 0x34C01AC2u & (7u | 7u << 13 | 0xfu << 16 | 1u << 26));
	PTU_EQ(ctx.etmidr, 0x411CF312u & ~(0xfu | 1u << 18));
	PTU_EQ(ctx.have_etmccr && ctx.have_etmccer && ctx.have_etmidr, 1);
	PTU_EQ(pft_event_limits_from_regs(&back, ctx.etmccr, ctx.etmccer, ctx.etmidr), 0);
	PTU_CHECK(!memcmp(&l, &back, sizeof(l)));
	/* The maximum: 8 pairs, 4 counters, sequencer, 4 inputs, 3 context ID
	 * comparators, start/stop; 4 selectors, 4 instrumentation resources,
	 * 8 watchpoints, VMID comparator; Security Extensions. */
	pft_event_limits_max(&l);
	PTU_EQ(pft_event_limits_to_regs(&l, &ctx), 0);
	PTU_EQ(ctx.etmccr, 8u | 4u << 13 | 1u << 16 | 4u << 17 | 3u << 24 | 1u << 26);
	PTU_EQ(ctx.etmccer, 4u | 4u << 13 | 8u << 16 | 1u << 26);
	PTU_EQ(ctx.etmidr, 0x41u << 24 | 1u << 20 | 1u << 19 | 0xfu << 12 | 3u << 8 | 1u << 4);
	PTU_EQ(pft_event_limits_from_regs(&back, ctx.etmccr, ctx.etmccer, ctx.etmidr), 0);
	PTU_CHECK(!memcmp(&l, &back, sizeof(l)));
	PTU_EQ(pft_event_limits_to_regs(NULL, &ctx), -PFT_ERR_INVALID);
	PTU_EQ(pft_event_limits_to_regs(&l, NULL), -PFT_ERR_INVALID);
}

static void arguments(void)
{
	struct pft_ptm_config c;
	struct pft_etm3_config e;
	struct pft_trace_regs r = { .size = sizeof(r) };

	pft_ptm_config_init(&c);
	pft_etm3_config_init(&e);
	PTU_EQ(pft_ptm_config_to_regs(NULL, &r), -PFT_ERR_INVALID);
	PTU_EQ(pft_ptm_config_to_regs(&c, NULL), -PFT_ERR_INVALID);
	PTU_EQ(pft_etm3_config_to_regs(NULL, &r), -PFT_ERR_INVALID);
	PTU_EQ(pft_etm3_config_from_ptm(&e, NULL), -PFT_ERR_INVALID);
	r.size = 4;
	PTU_EQ(pft_ptm_config_to_regs(&c, &r), -PFT_ERR_INVALID);
	PTU_EQ(pft_etm3_config_to_regs(&e, &r), -PFT_ERR_INVALID);
	r.size = sizeof(r);
	c.ctxid_bytes = 3;
	PTU_EQ(pft_ptm_config_to_regs(&c, &r), -PFT_ERR_BAD_CONFIG);
	e.ctxid_bytes = 5;
	PTU_EQ(pft_etm3_config_to_regs(&e, &r), -PFT_ERR_BAD_CONFIG);
	/* The wrong protocol's ETMIDR. */
	pft_ptm_config_init(&c);
	pft_etm3_config_init(&e);
	PTU_EQ(pft_ptm_config_from_regs(&c, 0, 0, 0x410CF250, 0), -PFT_ERR_BAD_CONFIG);
	PTU_EQ(pft_etm3_config_from_regs(&e, 0, 0, 0x411CF312, 0), -PFT_ERR_BAD_CONFIG);
}

int main(void)
{
	PTU_RUN(ptm_defaults);
	PTU_RUN(ptm_etmcr_bits);
	PTU_RUN(ptm_etmccer_bits);
	PTU_RUN(ptm_v10);
	PTU_RUN(ptm_round_trip);
	PTU_RUN(etm3_defaults);
	PTU_RUN(etm3_bits);
	PTU_RUN(etm3_round_trip);
	PTU_RUN(etm3_from_ptm);
	PTU_RUN(protocol);
	PTU_RUN(check);
	PTU_RUN(limits_regs);
	PTU_RUN(arguments);
	PTU_MAIN_END();
}
