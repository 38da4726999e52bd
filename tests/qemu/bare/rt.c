/* The C part of the bare-metal runtime: the GIC and the timer, the
 * bodies of the exception handlers, an IRQ handler written in C
 * (__attribute__((interrupt("IRQ")))) and the exercises the programs
 * call.  Built in the handlers' instruction set. */
#include "rt.h"
#include <stddef.h>

_Static_assert(offsetof(struct rt_counts, smc) == 56, "RT_COUNTS_SMC in rt.S");

typedef unsigned int u32;
typedef unsigned char u8;

#define REG(base, off) (*(volatile u32 *)((base) + (off)))

volatile struct rt_counts rt_counts;
static volatile unsigned failures;
static unsigned timer_ticks;
static int timer_periodic;

extern void irq_simple(void);
extern void irq_nested(void);
extern volatile u32 irq_slot;

void rt_fail(void) { failures++; }

/* gcc may call these for copies and clears. */
void *memcpy(void *d, const void *s, unsigned n)
{
	u8 *dp = d;
	const u8 *sp = s;

	while (n--)
		*dp++ = *sp++;
	return d;
}

void *memset(void *d, int c, unsigned n)
{
	u8 *dp = d;

	while (n--)
		*dp++ = (u8)c;
	return d;
}

static void raise_sgi(unsigned id)
{
	REG(GICD_BASE, GICD_SGIR) = (2u << 24) | id; /* to this CPU only */
}

void rt_init(void)
{
	static const u8 ids[] = { TIMER_IRQ, SGI_NEST, SGI_PAIR_A, SGI_PAIR_B, SGI_FIQ };
	static const u8 prio[] = { PRIO_TIMER, PRIO_NEST, PRIO_PAIR, PRIO_PAIR, PRIO_FIQ };

	REG(GICD_BASE, GICD_CTLR) = 0;
	for (unsigned i = 0; i < sizeof(ids); i++) {
		*(volatile u8 *)(GICD_BASE + GICD_IPRIORITYR + ids[i]) = prio[i];
		REG(GICD_BASE, GICD_ISENABLER0) = 1u << ids[i];
	}
	/* Group 0 (FIQ): SGI_FIQ only; the GIC enables both groups, Secure
	 * reads of IAR acknowledge group 1 too (AckCtl), group 0 is FIQ. */
	REG(GICD_BASE, GICD_IGROUPR0) = ~(1u << SGI_FIQ);
	if (REG(GICD_BASE, GICD_IGROUPR0) != ~(1u << SGI_FIQ))
		rt_fail();
	REG(GICD_BASE, GICD_CTLR) = 3;
	REG(GICC_BASE, GICC_PMR) = 0xf0;
	REG(GICC_BASE, GICC_CTLR) = 0xf; /* EnableGrp0, EnableGrp1, AckCtl, FIQEn */
	__asm__ volatile("cpsie if" ::: "memory");
}

void set_irq_handler(enum irq_handler h)
{
	void (*fn)(void);
	extern void irq_c(void);

	switch (h) {
	case IRQ_NESTED:
		fn = irq_nested;
		break;
	case IRQ_C:
		fn = irq_c;
		break;
	default:
		fn = irq_simple;
		break;
	}
	irq_slot = (u32)fn;
}

/* ---- the timer ---- */
#ifdef BOARD_A9
static void timer_arm(void)
{
	REG(PTIMER_BASE, 8) = 0;
	REG(PTIMER_BASE, 0xc) = 1;
	REG(PTIMER_BASE, 0) = timer_ticks;
	REG(PTIMER_BASE, 8) = timer_periodic ? 7 : 5; /* enable, (auto reload,) IRQ */
}

void timer_stop(void)
{
	REG(PTIMER_BASE, 8) = 0;
	REG(PTIMER_BASE, 0xc) = 1;
}

static void timer_ack(void)
{
	REG(PTIMER_BASE, 0xc) = 1;
	if (!timer_periodic)
		REG(PTIMER_BASE, 8) = 0;
}
#else
static void cntv_tval(u32 v) { __asm__ volatile("mcr p15, 0, %0, c14, c3, 0" : : "r"(v)); }
static void cntv_ctl(u32 v) { __asm__ volatile("mcr p15, 0, %0, c14, c3, 1; isb" : : "r"(v)); }

static void timer_arm(void)
{
	cntv_tval(timer_ticks);
	cntv_ctl(1);
}

void timer_stop(void) { cntv_ctl(0); }

static void timer_ack(void)
{
	if (timer_periodic)
		cntv_tval(timer_ticks);
	else
		cntv_ctl(0);
}
#endif

void timer_start(unsigned insns, int periodic)
{
	/* Without a division (the A9 has none): 8/10 or 8/16 of insns. */
	timer_ticks = TIMER_TICK_PS == 10000 ? insns - (insns >> 2) + (insns >> 4) : insns >> 1;
	timer_periodic = periodic;
	timer_arm();
}

/* ---- interrupts ---- */
static void dispatch(unsigned id)
{
	switch (id) {
	case TIMER_IRQ:
		rt_counts.timer++;
		timer_ack();
		break;
	case SGI_PAIR_A:
		rt_counts.sgi_pair++;
		break;
	case SGI_PAIR_B: /* a FIQ preempts its handler */
		rt_counts.sgi_pair++;
		raise_sgi(SGI_FIQ);
		break;
	case 1023:
		rt_counts.spurious++;
		break;
	default:
		rt_counts.bad++;
		break;
	}
}

static unsigned ack(void) { return REG(GICC_BASE, GICC_IAR); }
static void eoi(unsigned iar) { REG(GICC_BASE, GICC_EOIR) = iar; }

/* irq_simple's body. */
void irq_body(void)
{
	unsigned iar = ack();

	rt_counts.irq_simple++;
	dispatch(iar & 0x3ff);
	if ((iar & 0x3ff) != 1023)
		eoi(iar);
}

/* irq_nested's body, in SVC mode: a timer interrupt raises a more urgent
 * SGI and enables IRQs, and the SGI preempts it. */
void irq_nested_body(void)
{
	unsigned iar = ack(), id = iar & 0x3ff;

	if (id == SGI_NEST) {
		rt_counts.nest_inner++;
	} else if (id == TIMER_IRQ) {
		unsigned before = rt_counts.nest_inner;

		rt_counts.nest_outer++;
		dispatch(id);
		raise_sgi(SGI_NEST);
		__asm__ volatile("cpsie i" ::: "memory");
		for (volatile int i = 0; i < 3; i++)
			;
		__asm__ volatile("cpsid i" ::: "memory");
		if (rt_counts.nest_inner != before + 1)
			rt_fail();
	} else {
		dispatch(id);
	}
	if (id != 1023)
		eoi(iar);
}

void fiq_body(void)
{
	unsigned iar = ack();

	rt_counts.fiq++;
	if ((iar & 0x3ff) != SGI_FIQ)
		rt_fail();
	if ((iar & 0x3ff) != 1023)
		eoi(iar);
}

__attribute__((interrupt("IRQ"))) void irq_c(void)
{
	unsigned iar = ack();

	rt_counts.irq_c++;
	dispatch(iar & 0x3ff);
	if ((iar & 0x3ff) != 1023)
		eoi(iar);
}

/* ---- the bodies of the other handlers ---- */
unsigned svc_body(unsigned a, unsigned b, unsigned num)
{
	unsigned spsr;

	rt_counts.svc++;
	switch (num) {
	case SVC_COUNT:
		return a + 1;
	case SVC_ADD:
		return a + b;
	case SVC_IRQ_ON:
		__asm__ volatile("mrs %0, spsr" : "=r"(spsr));
		__asm__ volatile("msr spsr_fsxc, %0" : : "r"(spsr & ~0x80u));
		return a;
	case SVC_THUMB:
		return a * 2;
	default:
		rt_counts.bad++;
		return 0;
	}
}

/* lr: LR_und, the UDF's address + 4 (ARM) or + 2 (Thumb).  Returns the
 * address of the instruction after the UDF. */
unsigned und_body(unsigned spsr, unsigned lr)
{
	int ok;

	rt_counts.und++;
	if (spsr & 0x20) {
		unsigned h0 = *(volatile unsigned short *)(lr - 2);

		if (h0 >> 11 >= 0x1d) { /* the first half of a 32-bit instruction */
			unsigned h1 = *(volatile unsigned short *)lr;

			ok = (h0 & 0xfff0) == 0xf7f0 && (h1 & 0xf000) == 0xa000;
			lr += 2;
		} else {
			ok = (h0 >> 8) == 0xde;
		}
	} else {
		ok = (*(volatile u32 *)(lr - 4) & 0xfff000f0) == 0xe7f000f0;
	}
	if (!ok)
		rt_fail();
	return lr;
}

/* A BKPT (0) or a fetch from UNMAPPED (1). */
int pabt_body(unsigned spsr, unsigned lr)
{
	unsigned ifsr, ifar;

	(void)spsr;
	__asm__ volatile("mrc p15, 0, %0, c5, c0, 1" : "=r"(ifsr));
	if ((ifsr & 0x40f) == 2) { /* debug event */
		rt_counts.bkpt++;
		return 0;
	}
	__asm__ volatile("mrc p15, 0, %0, c6, c0, 2" : "=r"(ifar));
	rt_counts.pabt++;
	if ((ifsr & 0x40f) != 5 || ifar != UNMAPPED || lr != UNMAPPED + 4) /* section translation */
		rt_fail();
	return 1;
}

void dabt_body(unsigned spsr, unsigned addr)
{
	unsigned dfsr;

	(void)spsr;
	(void)addr;
	rt_counts.dabt++;
	__asm__ volatile("mrc p15, 0, %0, c5, c0, 0" : "=r"(dfsr));
	if ((dfsr & 0x40f) != 1) /* alignment fault */
		rt_fail();
}

/* ---- exercises ---- */
static void expect(unsigned got, unsigned want)
{
	if (got != want)
		rt_fail();
}

void ex_traps(void)
{
	static const u32 word[2] = { 0x11223344, 0x55667788 };
	unsigned svc = rt_counts.svc, und = rt_counts.und;

	expect(trap_svc_add_arm(3, 4), 7);
	expect(trap_svc_count_arm(9), 10);
	expect(trap_svc_cond_arm(5), 6);
	expect(trap_svc_cond_arm(0), 0); /* condition fails: no SVC */
	expect(trap_svc_thumb(21), 42);
	expect(trap_svc_cond_thumb(1), 2);
	expect(trap_svc_cond_thumb(0), 0);
	expect(trap_svc_add_thumb(30, 12), 42);
	expect(rt_counts.svc - svc, 6);
	expect(trap_udf_arm(1), 1);
	expect(trap_udf_thumb(2), 2);
	expect(trap_udf_thumb32(3), 3);
	expect(rt_counts.und - und, 3);
	expect(trap_pabt_arm(8), 8);
	expect(trap_pabt_thumb(9), 9);
	expect(rt_counts.pabt, 2);
	expect(trap_bkpt_arm(4), 4);
	expect(trap_bkpt_thumb(5), 7);
	expect(trap_dabt_arm(word), 7);
	expect(trap_dabt_thumb(word), 7);
	expect(trap_smc_arm(11), 11);
	expect(trap_smc_thumb(12), 12);
	expect(rt_counts.smc, 2);
}

/* Two SGIs pending at once: the second is taken right after the first's
 * handler returns, and its handler is preempted by a FIQ. */
void ex_back_to_back(void)
{
	unsigned n = rt_counts.sgi_pair, f = rt_counts.fiq;

	__asm__ volatile("cpsid i" ::: "memory");
	raise_sgi(SGI_PAIR_A);
	raise_sgi(SGI_PAIR_B);
	__asm__ volatile("cpsie i" ::: "memory");
	expect(rt_counts.sgi_pair - n, 2);
	expect(rt_counts.fiq - f, 1);
}

/* An SVC returns with IRQs enabled and an SGI pending: the IRQ comes
 * right after the SVC's exception return. */
void ex_svc_then_irq(void)
{
	unsigned n = rt_counts.sgi_pair;

	__asm__ volatile("cpsid i" ::: "memory");
	raise_sgi(SGI_PAIR_A);
	expect(trap_svc_irq_on_arm(5), 5);
	expect(rt_counts.sgi_pair - n, 1);
}

/* WFI until the timer's one interrupt. */
void ex_wfi(void)
{
	unsigned n = rt_counts.timer;

	timer_start(400, 0);
	while (rt_counts.timer == n)
		__asm__ volatile("wfi" ::: "memory");
}

/* A FIQ from an SGI: taken right after the write that raises it. */
void ex_fiq(void)
{
	unsigned n = rt_counts.fiq;

	raise_sgi(SGI_FIQ);
	expect(rt_counts.fiq - n, 1);
}

/* An IRQ taken inside a Thumb IT block. */
void ex_irq_in_it(void)
{
	unsigned n = rt_counts.sgi_pair;

	expect(trap_irq_in_it((volatile void *)(GICD_BASE + GICD_SGIR), (2u << 24) | SGI_PAIR_A, 0), 3);
	expect(rt_counts.sgi_pair - n, 1);
}

int rt_finish(unsigned min_each)
{
	const volatile struct rt_counts *c = &rt_counts;

	timer_stop();
	__asm__ volatile("cpsid i" ::: "memory");
	if (c->irq_c < min_each || c->irq_simple < min_each || c->nest_outer < min_each ||
	    c->nest_inner != c->nest_outer || c->bad || c->spurious || c->und < 3 ||
	    c->bkpt < 2 || c->dabt < 2 || c->fiq < 2)
		rt_fail();
	return failures == 0;
}
