/* The two qemu-system-arm boards the bare-metal programs run on, chosen
 * with -DBOARD_A9 (vexpress-a9, -cpu cortex-a9) or -DBOARD_A15
 * (vexpress-a15, -cpu cortex-a15).  Included by the assembly and the C.
 *
 * vexpress-a9: RAM at 0x60000000; the MPCore private region at 0x1e000000
 * holds the GIC CPU interface (+0x100), the private timer (+0x600, PPI 29,
 * 10 ns ticks with prescaler 0) and the distributor (+0x1000).
 * vexpress-a15: RAM at 0x80000000; GIC distributor 0x2c001000, CPU
 * interface 0x2c002000; the generic timer's virtual timer (CNTV_TVAL,
 * CNTV_CTL), PPI 27, 62.5 MHz (16 ns ticks).
 *
 * Under `-icount shift=3` an instruction takes 8 ns of virtual time. */
#ifndef BARE_BOARD_H
#define BARE_BOARD_H

#if defined(BOARD_A9)
#define RAM_BASE 0x60000000
#define GICC_BASE 0x1e000100
#define GICD_BASE 0x1e001000
#define PTIMER_BASE 0x1e000600
#define DEVICE_BASE 0x1e000000 /* the 1 MB section of the GIC and the timer */
#define TIMER_IRQ 29
#define TIMER_TICK_PS 10000 /* picoseconds per tick */
#elif defined(BOARD_A15)
#define RAM_BASE 0x80000000
#define GICC_BASE 0x2c002000
#define GICD_BASE 0x2c001000
#define DEVICE_BASE 0x2c000000
#define TIMER_IRQ 27
#define TIMER_TICK_PS 16000
#else
#error "define BOARD_A9 or BOARD_A15"
#endif
#define INSN_PS 8000 /* -icount shift=3 */
#define UNMAPPED 0x00100000 /* no translation: fetches abort */

/* GIC registers (offsets) */
#define GICC_CTLR 0x0
#define GICC_PMR 0x4
#define GICC_IAR 0xc
#define GICC_EOIR 0x10
#define GICD_CTLR 0x0
#define GICD_IGROUPR0 0x080
#define GICD_ISENABLER0 0x100
#define GICD_IPRIORITYR 0x400
#define GICD_SGIR 0xf00

/* The interrupts the programs use and their priorities (lower is more
 * urgent): the timer, an SGI that preempts the timer's handler (nested),
 * two SGIs of one priority raised together (back to back), and an SGI in
 * group 0, signalled as FIQ, all others being in group 1 (where the GIC
 * has the security extensions: both boards' GICs in qemu 7.2). */
#define SGI_NEST 5
#define SGI_PAIR_A 1
#define SGI_PAIR_B 2
#define SGI_FIQ 7
#define PRIO_TIMER 0xa0
#define PRIO_NEST 0x20
#define PRIO_PAIR 0x80
#define PRIO_FIQ 0x10

/* Modes */
#define MODE_FIQ 0x11
#define MODE_IRQ 0x12
#define MODE_SVC 0x13
#define MODE_ABT 0x17
#define MODE_UND 0x1b
#define MODE_SYS 0x1f

/* SVC numbers the programs call (besides semihosting's) */
#define SVC_COUNT 0x11   /* counts a call, returns its argument + 1 */
#define SVC_ADD 0x22     /* returns r0 + r1 */
#define SVC_IRQ_ON 0x33  /* clears SPSR.I: returns with IRQs enabled */
#define SVC_THUMB 0x44   /* from Thumb code: returns r0 * 2 */

#endif
