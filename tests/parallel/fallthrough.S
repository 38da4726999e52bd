@ Code that goes from function to function without a call, a return or a
@ jump to an entry (test_parallel_views.sh): f runs on into g, g jumps
@ into the middle of h, h returns to f's caller.  A fold must not make
@ one run of ranges of several functions.  Linux user mode (qemu-arm).
	.syntax unified
	.arm
	.text
	.global _start
	.type _start, %function
_start:
	ldr	r4, =4000
1:	bl	f
	tst	r4, #3
	blne	h
	subs	r4, r4, #1
	bne	1b
	mov	r0, #0
	mov	r7, #1		@ exit
	svc	#0
	.size _start, . - _start

	.type f, %function
f:
	add	r0, r0, #1
	tst	r0, #1
	addeq	r0, r0, #2	@ a conditional instruction
	bvs	f		@ never taken (V is clear): a waypoint, then on into g
	.size f, . - f

	.type g, %function
g:
	add	r1, r0, #3
	b	h_mid		@ into h, not at its entry
	.size g, . - g

	.type h, %function
h:
	add	r2, r2, #1
h_mid:
	add	r3, r3, #1
	bx	lr
	.size h, . - h
