/* Bare-metal runtime of the test programs: reset, stacks, the vector
 * table, the exception handlers' assembly parts, trap stubs in both
 * instruction sets and the semihosting exit.
 *
 * -DTHUMB_HANDLERS: the handlers are Thumb code, taken in Thumb state
 * (SCTLR.TE = 1, Thumb vector code); otherwise ARM.  -DBOARD_A9 or
 * -DBOARD_A15 (board.h).
 *
 * Exception returns, by handler:
 *   SVC                  ldm sp!, {..., pc}^ (ARM) / pop; movs pc, lr (Thumb)
 *   undefined            movs pc, lr; eret on the A15 (after a 32-bit Thumb UDF
 *                        with LR moved past it)
 *   prefetch abort       subsne pc, lr, #2 (Thumb BKPT) or movs pc, lr (BKPT,
 *                        fetch fault)
 *   data abort           subs pc, lr, #4 (past the aborted load)
 *   IRQ, irq_simple      subs pc, lr, #4; sub lr, lr, #4 ... eret on the A15
 *   IRQ, irq_nested      srsdb/cps in, IRQs re-enabled inside, rfeia sp!
 *   IRQ, irq_c (rt.c)    what gcc makes of __attribute__((interrupt("IRQ")))
 *   FIQ                  subs pc, lr, #4
 *   SMC (Monitor mode)   movs pc, lr
 */
#include "board.h"

/* offsetof(struct rt_counts, smc), checked in rt.c. */
#define RT_COUNTS_SMC 56

	.syntax unified
	.arch_extension sec

/* ERET: after each, a branch that never runs.  OpenCSD does not take an
 * A32 ERET for a waypoint (pft-flow.md 4.1, pft-protocol.md A17): its
 * range runs on to the next waypoint, which had better not be a call,
 * whose return address its return stack would keep. */
#define ERET eret; b .

#ifdef THUMB_HANDLERS
#define HANDLER_ISA .thumb
#define HANDLER_FUNC .thumb_func
#else
#define HANDLER_ISA .arm
#define HANDLER_FUNC
#endif

.macro handler name
	.global \name
	.type \name, %function
	HANDLER_ISA
	HANDLER_FUNC
\name:
.endm

.macro arm_func name
	.global \name
	.type \name, %function
	.arm
\name:
.endm

.macro thumb_func name
	.global \name
	.type \name, %function
	.thumb
	.thumb_func
\name:
.endm

/* ---- reset (qemu starts at the ELF entry, ARM state, SVC mode) ---- */
	.section .text.start, "ax"
	arm_func _start
	cpsid	if
	cps	#MODE_IRQ
	ldr	sp, =stack_irq_top
	cps	#MODE_FIQ
	ldr	sp, =stack_fiq_top
	cps	#MODE_ABT
	ldr	sp, =stack_abt_top
	cps	#MODE_UND
	ldr	sp, =stack_und_top
	cps	#MODE_SVC
	ldr	sp, =stack_svc_top
	cps	#MODE_SYS
	ldr	sp, =stack_sys_top
	ldr	r0, =vectors
	mcr	p15, 0, r0, c12, c0, 0		@ VBAR
	ldr	r0, =mon_vectors
	mcr	p15, 0, r0, c12, c0, 1		@ MVBAR: the SMC handler
	mrc	p15, 0, r0, c1, c0, 0		@ SCTLR
	bic	r0, r0, #(1 << 13)		@ V: low vectors (VBAR)
	bic	r0, r0, #(1 << 1)		@ A: no alignment checks yet
#ifdef THUMB_HANDLERS
	orr	r0, r0, #(1 << 30)		@ TE: exceptions taken in Thumb
#else
	bic	r0, r0, #(1 << 30)
#endif
	orr	r0, r0, #1			@ M: the MMU on, with a flat map of
	ldr	r1, =ttb + ((RAM_BASE >> 20) << 2)	@ the program's section
	ldr	r2, =(RAM_BASE | 0xc02)		@ (AP = 3, strongly ordered)
	str	r2, [r1]
	ldr	r1, =ttb + ((DEVICE_BASE >> 20) << 2)	@ and the GIC's (Device);
	ldr	r2, =(DEVICE_BASE | 0xc06)	@ the rest of the table is zero
	str	r2, [r1]			@ (qemu's RAM starts zeroed): faults
	ldr	r1, =ttb
	mov	r2, #0
	mcr	p15, 0, r2, c2, c0, 2		@ TTBCR
	mcr	p15, 0, r1, c2, c0, 0		@ TTBR0
	mov	r2, #1
	mcr	p15, 0, r2, c3, c0, 0		@ DACR: domain 0, client
	mcr	p15, 0, r2, c8, c7, 0		@ TLBIALL
	mcr	p15, 0, r0, c1, c0, 0
	isb
	ldr	r0, =bss_start
	ldr	r1, =bss_end
	mov	r2, #0
1:	cmp	r0, r1
	strlo	r2, [r0], #4
	blo	1b
	bl	main
	bl	bare_exit
	.ltorg

/* ---- vector table: 32-byte aligned for VBAR ---- */
	.section .vectors, "ax"
	.balign 32
	.global vectors
	HANDLER_ISA
vectors:
#ifdef THUMB_HANDLERS
	b.w	.			@ reset (not used: qemu enters at _start)
	b.w	und_entry
	b.w	svc_entry
	b.w	pabt_entry
	b.w	dabt_entry
	b.w	.			@ hyp trap (not used)
	ldr.w	pc, irq_slot		@ the IRQ handler of the moment
	b.w	fiq_entry
#else
	b	.
	b	und_entry
	b	svc_entry
	b	pabt_entry
	b	dabt_entry
	b	.
	ldr	pc, irq_slot
	b	fiq_entry
#endif
	.balign 4
	.global irq_slot
irq_slot:
	.word	irq_simple

/* The Secure Monitor's: SMC only (both boards start in the Secure state,
 * with EL3). */
	.balign 32
	.global mon_vectors
mon_vectors:
#ifdef THUMB_HANDLERS
	b.w	.
	b.w	.
	b.w	smc_entry
	b.w	.
	b.w	.
	b.w	.
	b.w	.
	b.w	.
#else
	b	.
	b	.
	b	smc_entry
	b	.
	b	.
	b	.
	b	.
	b	.
#endif

/* ---- handlers ---- */
	.text
	handler svc_entry
	push	{r0-r3, r12, lr}
	mrs	r12, spsr
	tst	r12, #0x20
#ifdef THUMB_HANDLERS
	ite	ne
#endif
	ldrhne	r2, [lr, #-2]			@ Thumb SVC: imm8
	ldreq	r2, [lr, #-4]			@ ARM SVC: imm24
#ifdef THUMB_HANDLERS
	ite	ne
#endif
	andne	r2, r2, #0xff
	biceq	r2, r2, #0xff000000
	bl	svc_body			@ r0 = svc_body(r0, r1, number)
	str	r0, [sp]
#ifdef THUMB_HANDLERS
	pop	{r0-r3, r12, lr}
	movs	pc, lr
#else
	ldm	sp!, {r0-r3, r12, pc}^
#endif

	/* LR_und is the UDF's address + 4 (ARM) or + 2 (Thumb, even for a
	 * 32-bit UDF): und_body says where to return. */
	handler und_entry
	push	{r0-r3, r12, lr}
	mrs	r0, spsr
	mov	r1, lr
	bl	und_body			@ lr = und_body(spsr, lr)
	str	r0, [sp, #20]
	pop	{r0-r3, r12, lr}
#ifdef BOARD_A15
	ERET
#else
	movs	pc, lr
#endif

	/* BKPT: LR_abt is the BKPT's address + 4 in both states; a Thumb
	 * BKPT is 2 bytes long. */
	/* A fetch from an unmapped address (trap_pabt_*: a call there)
	 * returns to the caller, at LR_sys. */
	handler pabt_entry
	push	{r0-r3, r12, lr}
	mrs	r0, spsr
	mov	r1, lr
	bl	pabt_body			@ 0: BKPT, 1: a fetch fault
	cmp	r0, #0
	bne	2f
	mrs	r0, spsr
	tst	r0, #0x20
	pop	{r0-r3, r12, lr}
#ifdef THUMB_HANDLERS
	it	ne
#endif
	subsne	pc, lr, #2
	movs	pc, lr
2:	cps	#MODE_SYS
	mov	r0, lr
	cps	#MODE_ABT
	str	r0, [sp, #20]
	pop	{r0-r3, r12, lr}
	movs	pc, lr

	/* A data abort's LR_abt is the aborted instruction + 8: return to
	 * the instruction after it (the aborting loads are 4 bytes). */
	handler dabt_entry
	push	{r0-r3, r12, lr}
	mrs	r0, spsr
	sub	r1, lr, #8
	bl	dabt_body			@ dabt_body(spsr, address)
	pop	{r0-r3, r12, lr}
	subs	pc, lr, #4

	handler fiq_entry
	push	{r0-r3, r12, lr}
	bl	fiq_body
	pop	{r0-r3, r12, lr}
	subs	pc, lr, #4

	handler irq_simple
#ifdef BOARD_A15
	sub	lr, lr, #4
	push	{r0-r3, r12, lr}
	bl	irq_body
	pop	{r0-r3, r12, lr}
	ERET
#else
	push	{r0-r3, r12, lr}
	bl	irq_body
	pop	{r0-r3, r12, lr}
	subs	pc, lr, #4
#endif

	/* Re-entrant: the return state goes to the SVC stack, the handler
	 * runs in SVC mode and enables IRQs (irq_nested_body), so that a
	 * higher-priority interrupt preempts it. */
	handler irq_nested
	sub	lr, lr, #4
	srsdb	sp!, #MODE_SVC
	cps	#MODE_SVC
	push	{r0-r3, r12, lr}
	bl	irq_nested_body
	pop	{r0-r3, r12, lr}
	rfeia	sp!

	/* bare_exit(ok): semihosting SYS_EXIT, ADP_Stopped_ApplicationExit
	 * when ok, ADP_Stopped_RunTimeErrorUnknown (qemu exits 1) if not. */
	handler bare_exit
	cmp	r0, #0
	ldr	r1, =0x20026
	ldr	r2, =0x20023
#ifdef THUMB_HANDLERS
	it	eq
#endif
	moveq	r1, r2
	mov	r0, #0x18
#ifdef THUMB_HANDLERS
	svc	0xab
#else
	svc	0x123456
#endif
	b	.
	.ltorg

/* ---- traps, called from C: each returns its r0 ---- */
	.text
	arm_func trap_svc_add_arm		@ (a, b) -> a + b
	svc	#SVC_ADD
	bx	lr

	arm_func trap_svc_count_arm		@ (a) -> a + 1
	svc	#SVC_COUNT
	bx	lr

	arm_func trap_svc_cond_arm		@ (a): SVC only when a != 0
	cmp	r0, #0
	svcne	#SVC_COUNT
	bx	lr

	arm_func trap_svc_irq_on_arm		@ returns with IRQs enabled
	svc	#SVC_IRQ_ON
	bx	lr

	thumb_func trap_svc_thumb		@ (a) -> 2 * a
	svc	#SVC_THUMB
	bx	lr

	thumb_func trap_svc_cond_thumb		@ (a): SVC only when a != 0
	cmp	r0, #0
	it	ne
	svcne	#SVC_COUNT
	bx	lr

	thumb_func trap_svc_add_thumb
	nop
	svc	#SVC_ADD
	bx	lr

	/* (sgir, value, 0) -> 3: the store raises an SGI, whose IRQ comes
	 * inside the IT block; the block goes on after the return. */
	thumb_func trap_irq_in_it
	movs	r3, #0
	cmp	r2, #0
	ittte	eq
	streq	r1, [r0]
	addeq	r3, r3, #1
	addeq	r3, r3, #2
	addne	r3, r3, #4
	mov	r0, r3
	bx	lr

	/* Monitor mode has no stack: the SMC's callers (the trap stubs)
	 * leave r1 and r12 to it. */
	handler smc_entry
	ldr	r12, =rt_counts
	ldr	r1, [r12, #RT_COUNTS_SMC]
	add	r1, r1, #1
	str	r1, [r12, #RT_COUNTS_SMC]
	movs	pc, lr

	arm_func trap_smc_arm			@ (a) -> a
	smc	#0
	bx	lr

	thumb_func trap_smc_thumb		@ (a) -> a: after a NOP
	nop
	smc	#0
	bx	lr

	arm_func trap_udf_arm			@ (a) -> a: right after the call
	udf	#0x12
	bx	lr

	thumb_func trap_udf_thumb		@ 16-bit UDF after a NOP
	nop
	udf	#0x34
	bx	lr

	thumb_func trap_udf_thumb32		@ 32-bit UDF
	udf.w	#0x567
	bx	lr

	/* (a): a call to an unmapped address, in the caller's instruction
	 * set, aborts; the handler returns to the caller. */
	arm_func trap_pabt_arm
	push	{r4, lr}
	ldr	r3, =UNMAPPED
	blx	r3
	pop	{r4, pc}

	thumb_func trap_pabt_thumb
	push	{r4, lr}
	ldr	r3, =UNMAPPED + 1
	blx	r3
	pop	{r4, pc}
	.ltorg

	arm_func trap_bkpt_arm
	bkpt	#0x1
	bx	lr

	thumb_func trap_bkpt_thumb
	adds	r0, r0, #1
	bkpt	#0x2
	adds	r0, r0, #1
	bx	lr

	/* (p) -> 7: an unaligned load with SCTLR.A set aborts and the
	 * handler returns past it, leaving r0 as it was. */
	arm_func trap_dabt_arm
	mov	r1, r0
	mrc	p15, 0, r2, c1, c0, 0
	orr	r3, r2, #(1 << 1)
	mcr	p15, 0, r3, c1, c0, 0
	isb
	mov	r0, #7
	ldr	r0, [r1, #1]
	mcr	p15, 0, r2, c1, c0, 0
	isb
	bx	lr

	thumb_func trap_dabt_thumb		@ the load is a branch target
	mov	r1, r0
	mrc	p15, 0, r2, c1, c0, 0
	orr	r3, r2, #(1 << 1)
	mcr	p15, 0, r3, c1, c0, 0
	isb
	movs	r0, #7
	b.n	1f
	nop
1:	ldr.w	r0, [r1, #2]
	mcr	p15, 0, r2, c1, c0, 0
	isb
	bx	lr

/* ---- the translation table (not cleared at reset) ---- */
	.section .ttb, "aw", %nobits
	.balign 16384
ttb:
	.space	16384

/* ---- stacks (not cleared at reset) ---- */
	.section .stacks, "aw", %nobits
	.balign 8
	.space	1024
stack_irq_top:
	.space	256
stack_fiq_top:
	.space	512
stack_abt_top:
	.space	512
stack_und_top:
	.space	2048
stack_svc_top:
	.space	4096
stack_sys_top:
