@ sample.S - a tiny ARM/Thumb program for the image unit test
@ (tests/unit/test_image.c builds it with sample.ld).  The instruction
@ encodings in the comments are what the test expects to read back.
	.syntax unified
	.text

	.arm
	.global _start
	.type _start, %function
_start:				@ 0x10000
	mov	r0, #1		@ e3a00001
	bx	lr		@ e12fff1e
	.size _start, . - _start

	.global arm_func
	.type arm_func, %function
arm_func:			@ 0x10008
	add	r0, r0, r1	@ e0800001
	bx	lr		@ e12fff1e
	.size arm_func, . - arm_func

	@ A weak alias of arm_func: symbolize must prefer the global name.
	.weak weak_alias
	.type weak_alias, %function
	.set weak_alias, arm_func
	.size weak_alias, 8

literal:			@ 0x10010, local label, $d
	.word	0xdeadbeef

	.thumb
	.global thumb_func
	.type thumb_func, %function
	.thumb_func
thumb_func:			@ 0x10014 (symbol value 0x10015)
	adds	r0, r0, r1	@ 1840
	bx	lr		@ 4770
	.size thumb_func, . - thumb_func

	.global thumb_label	@ untyped and unsized: reaches .text's end
thumb_label:			@ 0x10018
	movs	r0, #2		@ 2002
	bx	lr		@ 4770
				@ .text ends at 0x1001c

	.data
	.global counter
	.type counter, %object
counter:			@ 0x20000
	.word	42
	.size counter, 4

	.bss
	.global scratch
	.type scratch, %object
scratch:			@ 0x20004, not in the file
	.space	16
	.size scratch, 16
