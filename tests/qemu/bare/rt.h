/* The runtime the bare-metal test programs share (rt.S, rt.c). */
#ifndef BARE_RT_H
#define BARE_RT_H

#include "board.h"

/* Traps (rt.S), in the instruction set their name says. */
unsigned trap_svc_add_arm(unsigned a, unsigned b);
unsigned trap_svc_count_arm(unsigned a);
unsigned trap_svc_cond_arm(unsigned a);
unsigned trap_svc_irq_on_arm(unsigned a);
unsigned trap_svc_thumb(unsigned a);
unsigned trap_svc_cond_thumb(unsigned a);
unsigned trap_svc_add_thumb(unsigned a, unsigned b);
unsigned trap_irq_in_it(volatile void *sgir, unsigned value, unsigned zero);
unsigned trap_udf_arm(unsigned a);
unsigned trap_udf_thumb(unsigned a);
unsigned trap_udf_thumb32(unsigned a);
unsigned trap_pabt_arm(unsigned a);
unsigned trap_pabt_thumb(unsigned a);
unsigned trap_bkpt_arm(unsigned a);
unsigned trap_bkpt_thumb(unsigned a);
unsigned trap_dabt_arm(const void *p);
unsigned trap_dabt_thumb(const void *p);
unsigned trap_smc_arm(unsigned a);
unsigned trap_smc_thumb(unsigned a);

/* What the handlers counted. */
struct rt_counts {
	unsigned svc, und, bkpt, pabt, dabt, fiq;
	unsigned irq_c, irq_simple, nest_outer, nest_inner;
	unsigned timer, sgi_pair, spurious, bad;
	unsigned smc;             /* rt.S's RT_COUNTS_SMC */
};
extern volatile struct rt_counts rt_counts;

enum irq_handler { IRQ_SIMPLE, IRQ_NESTED, IRQ_C };

void rt_init(void);
void set_irq_handler(enum irq_handler h);
/* The timer interrupts every `insns` instructions (about), or once. */
void timer_start(unsigned insns, int periodic);
void timer_stop(void);

/* The exercises: each takes its exceptions and checks what came back. */
void ex_traps(void);
void ex_back_to_back(void);
void ex_svc_then_irq(void);
void ex_wfi(void);
void ex_fiq(void);
void ex_irq_in_it(void);
/* A failed check (counted, makes the program exit 1). */
void rt_fail(void);
/* Whether everything went as it should, the timer having interrupted
 * each kind of handler at least min_each times. */
int rt_finish(unsigned min_each);

#endif
