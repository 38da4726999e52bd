@ Functions at known addresses for tests/unit/test_calls.c (linked with
@ -Ttext=0x8000): symbols give function entries and extents.
	.syntax unified
	.arm
	.text
	.global _start
	.type _start, %function
_start:			@ 0x8000
	bl	fa		@ 0x8000
	b	.		@ 0x8004
	.size _start, . - _start

	@ Calls outside any function: where calls end (test_calls_fold.c).
	bl	fb		@ 0x8008
	nop			@ 0x800c
	blx	r3		@ 0x8010
	nop			@ 0x8014
	bl	fc		@ 0x8018
	nop			@ 0x801c

	.org 0x100
	.type fa, %function
fa:			@ 0x8100
	bl	fb		@ 0x8100
	b	fc		@ 0x8104: a tail call
	b	fa + 4		@ 0x8108: a jump inside fa
	bx	lr		@ 0x810c
	.size fa, . - fa

	.org 0x200
	.type fb, %function
fb:			@ 0x8200
	bx	lr
	.size fb, . - fb

	.org 0x300
	.type fc, %function
fc:			@ 0x8300
	bl	fb		@ 0x8300
	bx	lr		@ 0x8304
	.size fc, . - fc

	.org 0x400
	.type fd, %function
fd:			@ 0x8400: calls again and again (test_calls_fold.c)
	bl	fb		@ 0x8400
	bl	fb		@ 0x8404
	bl	fc		@ 0x8408
	bl	fb		@ 0x840c
	bx	lr		@ 0x8410
	.size fd, . - fd

	.org 0x500
	.type fe, %function
fe:			@ 0x8500: its last call returns into ff
	bl	fb		@ 0x8500
	bl	fb		@ 0x8504
	.size fe, . - fe
	.type ff, %function
ff:			@ 0x8508
	bl	fb		@ 0x8508
	bx	lr		@ 0x850c
	.size ff, . - ff
