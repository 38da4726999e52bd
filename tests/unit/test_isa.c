/*
 * Tests of the waypoint classifier (libpft/image/pft_isa.c).
 *
 * Part 1: hand-written vectors for every row of shared/spec/pft-flow.md
 * §4.1-4.4 and §5.6; the encodings were written from the ARM ARM and the
 * targets are computed in the comments (addresses are those of the
 * instruction; A32 reads PC + 8, T32 PC + 4).
 * Part 2: a differential test against capstone 4 (every 16-bit Thumb
 * encoding, millions of random A32 and 32-bit T32 encodings), where each
 * disagreement must belong to a documented class.
 */
#include <capstone/capstone.h>

#include "ptunit.h"
#include "image/pft_isa.h"

#define ARM PFT_ISA_ARM
#define THUMB PFT_ISA_THUMB
#define TEE PFT_ISA_THUMBEE
#define DMB_DSB PFT_ISA_DMB_DSB_WAYPOINTS

/* ====================================================================
 * Part 1: vectors
 * ==================================================================== */

struct vector {
	enum pft_isa isa;
	uint32_t addr;
	/* A32: the word.  T32: a 16-bit halfword (<= 0xffff), or
	 * hw1 << 16 | hw2 for a 32-bit instruction. */
	uint32_t insn;
	unsigned flags;
	uint8_t kind, link, conditional, exc_return, it_count;
	uint8_t target_isa;
	uint32_t target;
	const char *what;
};

/* Direct branch: target, target ISA, link, conditional. */
#define DIR(isa, addr, insn, target, tisa, link, cond, what) \
	{ isa, addr, insn, 0, PFT_WP_DIRECT, link, cond, 0, 0, tisa, target, what }
/* Indirect branch: link, exception return, conditional. */
#define IND(isa, insn, link, excret, cond, what) \
	{ isa, 0x8000, insn, 0, PFT_WP_INDIRECT, link, cond, excret, 0, 0, 0, what }
#define BAR(isa, insn, flags, cond, what) \
	{ isa, 0x8000, insn, flags, PFT_WP_BARRIER, 0, cond, 0, 0, 0, 0, what }
#define NONE(isa, insn, flags, cond, what) \
	{ isa, 0x8000, insn, flags, PFT_WP_NONE, 0, cond, 0, 0, 0, 0, what }
#define IT(insn, count, what) \
	{ THUMB, 0x8000, insn, 0, PFT_WP_NONE, 0, 0, 0, count, 0, 0, what }

static const struct vector vectors[] = {
	/* ---- A32 direct (§4.1): target = PC + 8 + SignExtend(imm24:00) */
	DIR(ARM, 0x8000, 0xeafffffe, 0x8000, ARM, 0, 0,
	    "b . : 0x8008 + (-2 << 2)"),
	DIR(ARM, 0x8000, 0xeb0003fe, 0x9000, ARM, 1, 0,
	    "bl: 0x8008 + 0x3fe * 4 = 0x9000"),
	DIR(ARM, 0x8000, 0x1afffbfe, 0x7000, ARM, 0, 1,
	    "bne: imm24 0xfffbfe = -0x402, 0x8008 - 0x1008"),
	DIR(ARM, 0x8000, 0x0bffffff, 0x8004, ARM, 1, 1,
	    "bleq: 0x8008 - 4"),
	DIR(ARM, 0x8000, 0xea7fffff, 0x2008004, ARM, 0, 0,
	    "b, largest forward offset: 0x8008 + 0x1fffffc"),
	DIR(ARM, 0x8000, 0xea800000, 0xfe008008, ARM, 0, 0,
	    "b, largest backward offset: 0x8008 - 0x2000000, modulo 2^32"),
	DIR(ARM, 0xfffffff8, 0xea000000, 0x00000000, ARM, 0, 0,
	    "b at 0xfffffff8: PC + 8 wraps to 0"),
	DIR(ARM, 0x8000, 0xfa0003fe, 0x9000, THUMB, 1, 0,
	    "blx imm, H = 0: 0x8008 + 0xff8, to Thumb"),
	DIR(ARM, 0x8000, 0xfb0003fe, 0x9002, THUMB, 1, 0,
	    "blx imm, H = 1: 0x8008 + 0xff8 + 2"),
	DIR(ARM, 0x8000, 0xfbfffffa, 0x7ff2, THUMB, 1, 0,
	    "blx imm backwards: imm24 = -6, H = 1: 0x8008 - 0x18 + 2"),

	/* ---- A32 indirect (§4.1) */
	IND(ARM, 0xe12fff1e, 0, 0, 0, "bx lr"),
	IND(ARM, 0xe12fff33, 1, 0, 0, "blx r3 (a call)"),
	IND(ARM, 0x012fff1e, 0, 0, 1, "bxeq lr"),
	IND(ARM, 0xe12fff22, 0, 0, 0, "bxj r2"),
	IND(ARM, 0xe8bd8010, 0, 0, 0, "pop {r4, pc}"),
	IND(ARM, 0x08bd8000, 0, 0, 1, "ldmeq sp!, {pc}"),
	IND(ARM, 0xe8d08002, 0, 1, 0, "ldm r0, {r1, pc}^ (exception return)"),
	IND(ARM, 0xe49df004, 0, 0, 0, "ldr pc, [sp], #4 (pop {pc})"),
	IND(ARM, 0xe59ff004, 0, 0, 0, "ldr pc, [pc, #4] (literal)"),
	IND(ARM, 0xe51ff004, 0, 0, 0, "ldr pc, [pc, #-4]"),
	IND(ARM, 0xe710f101, 0, 0, 0, "ldr pc, [r0, -r1, lsl #2]"),
	IND(ARM, 0xe79ff103, 0, 0, 0, "ldr pc, [pc, r3, lsl #2]"),
	IND(ARM, 0xe1a0f00e, 0, 0, 0, "mov pc, lr"),
	IND(ARM, 0xe1b0f00e, 0, 1, 0, "movs pc, lr (exception return)"),
	IND(ARM, 0xe25ef004, 0, 1, 0, "subs pc, lr, #4 (exception return)"),
	IND(ARM, 0xe24ef004, 0, 0, 0, "sub pc, lr, #4 (no S)"),
	IND(ARM, 0xe08ff100, 0, 0, 0, "add pc, pc, r0, lsl #2"),
	IND(ARM, 0xe280f008, 0, 0, 0, "add pc, r0, #8"),
	IND(ARM, 0xe3a0fa01, 0, 0, 0, "mov pc, #0x1000"),
	IND(ARM, 0xe1e0f000, 0, 0, 0, "mvn pc, r0"),
	IND(ARM, 0xf8bd0a00, 0, 1, 0, "rfeia sp!"),
	IND(ARM, 0xf8100a00, 0, 1, 0, "rfeda r0"),
	IND(ARM, 0xe160006e, 0, 1, 0, "eret (OpenCSD misses it)"),
	IND(ARM, 0xe020f291, 0, 0, 0,
	    "mla r0, r1, r2, pc: UNPREDICTABLE, under the spec's "
	    "data-processing (register) Rd = PC mask"),
	IND(ARM, 0xe110f001, 0, 0, 0,
	    "tst r0, r1 with SBZ field 1111: UNPREDICTABLE, the register "
	    "mask has no TST exclusion"),

	/* ---- A32 other waypoints: barriers */
	BAR(ARM, 0xf57ff06f, 0, 0, "isb sy"),
	BAR(ARM, 0xee070f95, 0, 0, "mcr p15, 0, r0, c7, c5, 4 (CP15 ISB)"),
	BAR(ARM, 0xee073f95, 0, 0, "CP15 ISB with r3"),
	BAR(ARM, 0x1e070f95, 0, 1, "mcrne CP15 ISB"),
	BAR(ARM, 0xfe070f95, 0, 0,
	    "mcr2 form: the spec's mask ignores the condition field"),
	BAR(ARM, 0xf57ff05f, DMB_DSB, 0, "dmb sy, ETMCCER[24] = 1"),
	BAR(ARM, 0xf57ff04f, DMB_DSB, 0, "dsb sy, ETMCCER[24] = 1"),
	BAR(ARM, 0xee070fba, DMB_DSB, 0, "CP15 DMB, ETMCCER[24] = 1"),
	BAR(ARM, 0xee070f9a, DMB_DSB, 0, "CP15 DSB, ETMCCER[24] = 1"),
	BAR(ARM, 0xf57ff06f, DMB_DSB, 0, "isb sy with the flag"),
	NONE(ARM, 0xf57ff05f, 0, 0, "dmb sy, ETMCCER[24] = 0"),
	NONE(ARM, 0xf57ff04f, 0, 0, "dsb sy, ETMCCER[24] = 0"),
	NONE(ARM, 0xee070fba, 0, 0, "CP15 DMB, ETMCCER[24] = 0"),
	NONE(ARM, 0xee070f9a, 0, 0, "CP15 DSB, ETMCCER[24] = 0"),

	/* ---- A32 not waypoints (§4.3) */
	NONE(ARM, 0xef000000, 0, 0, "svc #0"),
	NONE(ARM, 0xe1600070, 0, 0, "smc #0"),
	NONE(ARM, 0xe1400070, 0, 0, "hvc #0"),
	NONE(ARM, 0xe1200070, 0, 0, "bkpt #0"),
	NONE(ARM, 0xe7f000f0, 0, 0, "udf #0"),
	NONE(ARM, 0xe320f000, 0, 0, "nop"),
	NONE(ARM, 0xe320f001, 0, 0, "yield"),
	NONE(ARM, 0xe320f002, 0, 0, "wfe"),
	NONE(ARM, 0xe320f003, 0, 0, "wfi"),
	NONE(ARM, 0xe320f004, 0, 0, "sev"),
	NONE(ARM, 0xf10c0080, 0, 0, "cpsid i"),
	NONE(ARM, 0xf1010200, 0, 0, "setend be"),
	NONE(ARM, 0xf57ff01f, 0, 0, "clrex"),
	NONE(ARM, 0xf5d1f000, 0, 0, "pld [r1]"),
	NONE(ARM, 0xf591f000, 0, 0,
	     "pldw [r1]: cond = 1111, would match the LDR PC mask"),
	NONE(ARM, 0xf220f801, 0, 0,
	     "vadd.i32 d15, d0, d1: cond = 1111, would match the "
	     "data-processing immediate Rd = PC mask"),
	NONE(ARM, 0xe321f013, 0, 0, "msr cpsr_c, #0x13 (MSR imm exclusion)"),
	NONE(ARM, 0xe129f000, 0, 0, "msr cpsr_fc, r0 (miscellaneous space)"),
	NONE(ARM, 0xe10f0000, 0, 0, "mrs r0, apsr"),
	NONE(ARM, 0xe31f0001, 0, 0, "tst pc, #1"),
	NONE(ARM, 0xe310f001, 0, 0, "tst r0, #1 with SBZ 1111 (excluded)"),
	NONE(ARM, 0xe3500001, 0, 0, "cmp r0, #1"),
	NONE(ARM, 0xe1500001, 0, 0, "cmp r0, r1"),
	NONE(ARM, 0xe58df000, 0, 0, "str pc, [sp]"),
	NONE(ARM, 0xe92d8010, 0, 0, "push {r4, pc}"),
	NONE(ARM, 0xe59f0004, 0, 0, "ldr r0, [pc, #4]"),
	NONE(ARM, 0xe5d0f000, 0, 0, "ldrb pc, [r0] (B = 1 is not in the mask)"),
	NONE(ARM, 0xe181ff90, 0, 0, "strex pc, r0, [r1] (extra load/store)"),
	NONE(ARM, 0xe16fff10, 0, 0, "clz pc, r0 (miscellaneous space)"),
	NONE(ARM, 0xee010f10, 0, 0, "mcr p15, 0, r0, c1, c0, 0"),
	NONE(ARM, 0xee170f95, 0, 0, "mrc p15, 0, r0, c7, c5, 4 (not MCR)"),
	NONE(ARM, 0xe8d00006, 0, 0, "ldm r0, {r1, r2}^ (no pc)"),
	NONE(ARM, 0xe28f0008, 0, 0, "add r0, pc, #8"),
	NONE(ARM, 0x12800001, 0, 1, "addne r0, r0, #1 (conditional)"),
	NONE(ARM, 0xc1a00000, 0, 1, "movgt r0, r0 (conditional)"),

	/* ---- T32 direct (§4.2): target = PC + 4 + offset */
	DIR(THUMB, 0x8000, 0xd0fe, 0x8000, THUMB, 0, 1,
	    "beq . (T1): imm8 0xfe = -2, 0x8004 - 4"),
	DIR(THUMB, 0x8000, 0xd17e, 0x8100, THUMB, 0, 1,
	    "bne (T1): 0x8004 + 0x7e * 2"),
	DIR(THUMB, 0x8000, 0xdd80, 0x7f04, THUMB, 0, 1,
	    "ble (T1): imm8 0x80 = -128, 0x8004 - 0x100"),
	DIR(THUMB, 0x8000, 0xe7fe, 0x8000, THUMB, 0, 0, "b . (T2)"),
	DIR(THUMB, 0x8000, 0xe3fe, 0x8800, THUMB, 0, 0,
	    "b (T2): 0x8004 + 0x3fe * 2"),
	DIR(THUMB, 0x8000, 0xe5fe, 0x7c00, THUMB, 0, 0,
	    "b (T2): imm11 0x5fe = -0x202, 0x8004 - 0x404"),
	DIR(THUMB, 0x8000, 0xf43fafff, 0x8002, THUMB, 0, 1,
	    "beq.w (T3): S = 1, J1 = J2 = 1, imm6 = 0x3f, imm11 = 0x7ff: "
	    "-2, 0x8004 - 2"),
	DIR(THUMB, 0x8000, 0xf04787fe, 0x10000, THUMB, 0, 1,
	    "bne.w (T3): imm6 = 7, imm11 = 0x7fe: 0x7ffc"),
	DIR(THUMB, 0x8000, 0xf300a800, 0xc8004, THUMB, 0, 1,
	    "bgt.w (T3): J1 = J2 = 1 (bits 18, 19): 0x8004 + 0xc0000"),
	DIR(THUMB, 0x8000, 0xf7ffbffe, 0x8000, THUMB, 0, 0,
	    "b.w . (T4): S = 1, J1 = J2 = 1 -> I1 = I2 = 1: -4"),
	DIR(THUMB, 0x8000, 0xf000b000, 0x408004, THUMB, 0, 0,
	    "b.w (T4): S = 0, J1 = 1, J2 = 0 -> I1 = 0, I2 = 1: +0x400000"),
	DIR(THUMB, 0x8000, 0xf0009000, 0xc08004, THUMB, 0, 0,
	    "b.w (T4): S = 0, J1 = J2 = 0 -> I1 = I2 = 1: +0xc00000"),
	DIR(THUMB, 0x8000, 0xf000fffe, 0x9000, THUMB, 1, 0,
	    "bl: imm11 = 0x7fe, J1 = J2 = 1: 0x8004 + 0xffc"),
	DIR(THUMB, 0x8002, 0xf7fefffd, 0x7000, THUMB, 1, 0,
	    "bl at 0x8002: S = 1, imm10 = 0x3fe, imm11 = 0x7fd: "
	    "-0x1006, 0x8006 - 0x1006"),
	DIR(THUMB, 0x8000, 0xf000effe, 0x9000, ARM, 1, 0,
	    "blx imm: Align(0x8004, 4) + 0xffc, to ARM"),
	DIR(THUMB, 0x8002, 0xf000effe, 0x9000, ARM, 1, 0,
	    "blx imm at 0x8002: Align(0x8006, 4) = 0x8004, + 0xffc"),
	DIR(THUMB, 0x8002, 0xf7ffeffe, 0x8000, ARM, 1, 0,
	    "blx imm backwards: -4 from Align(0x8006, 4)"),
	DIR(THUMB, 0x8000, 0xb108, 0x8006, THUMB, 0, 1,
	    "cbz r0: i = 0, imm5 = 1: 0x8004 + 2"),
	DIR(THUMB, 0x8000, 0xbbfb, 0x8082, THUMB, 0, 1,
	    "cbnz r3: i = 1, imm5 = 0x1f: 0x8004 + 0x7e"),
	DIR(THUMB, 0x8000, 0xf3bf8f1f, 0x8004, TEE, 0, 0,
	    "enterx in Thumb state: next instruction, in ThumbEE"),
	DIR(TEE, 0x8000, 0xf3bf8f1f, 0x8004, TEE, 0, 0,
	    "enterx in ThumbEE state"),
	DIR(TEE, 0x8000, 0xf3bf8f0f, 0x8004, THUMB, 0, 0,
	    "leavex in ThumbEE state: next instruction, in Thumb"),
	DIR(THUMB, 0x8000, 0xf3bf8f0f, 0x8004, THUMB, 0, 0,
	    "leavex in Thumb state"),
	DIR(TEE, 0x8000, 0xe7fe, 0x8000, TEE, 0, 0,
	    "b . in ThumbEE stays in ThumbEE"),
	DIR(TEE, 0x8000, 0xf000fffe, 0x9000, TEE, 1, 0, "bl in ThumbEE"),

	/* ---- T32 indirect */
	IND(THUMB, 0x4770, 0, 0, 0, "bx lr"),
	IND(THUMB, 0x4798, 1, 0, 0, "blx r3"),
	IND(THUMB, 0x47f0, 1, 0, 0, "blx lr"),
	IND(THUMB, 0x4778, 0, 0, 0, "bx pc"),
	IND(THUMB, 0xf3c08f00, 0, 0, 0, "bxj r0"),
	IND(THUMB, 0xbd10, 0, 0, 0, "pop {r4, pc}"),
	IND(THUMB, 0xbd00, 0, 0, 0, "pop {pc}"),
	IND(THUMB, 0x4687, 0, 0, 0, "mov pc, r0"),
	IND(THUMB, 0x46f7, 0, 0, 0, "mov pc, lr"),
	IND(THUMB, 0x4487, 0, 0, 0, "add pc, r0"),
	IND(THUMB, 0xe8d0f001, 0, 0, 0, "tbb [r0, r1]"),
	IND(THUMB, 0xe8d0f011, 0, 0, 0, "tbh [r0, r1, lsl #1]"),
	IND(THUMB, 0xe81dc000, 0, 1, 0, "rfedb sp"),
	IND(THUMB, 0xe9bdc000, 0, 1, 0, "rfeia sp!"),
	IND(THUMB, 0xf3de8f04, 0, 1, 0, "subs pc, lr, #4"),
	IND(THUMB, 0xf3de8f00, 0, 1, 0, "eret (subs pc, lr, #0)"),
	IND(THUMB, 0xf8d0f008, 0, 0, 0, "ldr.w pc, [r0, #8]"),
	IND(THUMB, 0xf85ff004, 0, 0, 0, "ldr.w pc, [pc, #-4] (literal)"),
	IND(THUMB, 0xf8dff004, 0, 0, 0, "ldr.w pc, [pc, #4] (literal)"),
	IND(THUMB, 0xf85dfb04, 0, 0, 0, "ldr pc, [sp], #4 (a return)"),
	IND(THUMB, 0xf850fd08, 0, 0, 0, "ldr pc, [r0, #-8]!"),
	IND(THUMB, 0xf850f021, 0, 0, 0, "ldr.w pc, [r0, r1, lsl #2]"),
	IND(THUMB, 0xe8bd8010, 0, 0, 0, "pop.w {r4, pc}"),
	IND(THUMB, 0xe9108000, 0, 0, 0, "ldmdb r0, {pc}"),
	IND(TEE, 0xc205, 0, 0, 0, "hb #5 (ThumbEE)"),
	IND(TEE, 0xc305, 1, 0, 0, "hbl #5 (ThumbEE, a call)"),
	IND(TEE, 0xc064, 0, 0, 0, "hbp #3, #4 (ThumbEE)"),
	IND(TEE, 0xc464, 1, 0, 0, "hblp #3, #4 (ThumbEE, a call)"),
	IND(TEE, 0x4770, 0, 0, 0, "bx lr in ThumbEE"),

	/* ---- T32 barriers */
	BAR(THUMB, 0xf3bf8f6f, 0, 0, "isb sy"),
	BAR(THUMB, 0xf3bf8f60, 0, 0, "isb #0"),
	BAR(THUMB, 0xf3bf8f5f, DMB_DSB, 0, "dmb sy, ETMCCER[24] = 1"),
	BAR(THUMB, 0xf3bf8f4f, DMB_DSB, 0, "dsb sy, ETMCCER[24] = 1"),
	NONE(THUMB, 0xf3bf8f5f, 0, 0, "dmb sy, ETMCCER[24] = 0"),
	NONE(THUMB, 0xf3bf8f4f, 0, 0, "dsb sy, ETMCCER[24] = 0"),

	/* ---- T32 not waypoints */
	NONE(THUMB, 0xdf00, 0, 0, "svc #0 (B<c> T1 cond 1111)"),
	NONE(THUMB, 0xde00, 0, 0, "udf #0 (B<c> T1 cond 1110)"),
	NONE(THUMB, 0xbe00, 0, 0, "bkpt #0"),
	NONE(THUMB, 0xbf00, 0, 0, "nop"),
	NONE(THUMB, 0xbf30, 0, 0, "wfi"),
	NONE(THUMB, 0xb662, 0, 0, "cpsie i"),
	NONE(THUMB, 0xb500, 0, 0, "push {lr}"),
	NONE(THUMB, 0x4680, 0, 0, "mov r8, r0"),
	NONE(THUMB, 0x4587, 0, 0, "cmp pc, r0"),
	NONE(THUMB, 0x4485, 0, 0, "add sp, r0"),
	NONE(THUMB, 0xc205, 0, 0, "stmia r2!, {r0, r2} (HB in ThumbEE only)"),
	NONE(THUMB, 0xc305, 0, 0, "stmia r3!, {r0, r2}"),
	NONE(TEE, 0xc1ff, 0, 0, "ThumbEE 0xc1xx: no handler branch"),
	NONE(TEE, 0xca12, 0, 0, "chka (ThumbEE)"),
	NONE(THUMB, 0xf3808800, 0, 0, "msr apsr_nzcvq, r0"),
	NONE(THUMB, 0xf7f08000, 0, 0, "smc #0"),
	NONE(THUMB, 0xf7e08000, 0, 0, "hvc #0"),
	NONE(THUMB, 0xf7f0a000, 0, 0, "udf.w #0"),
	NONE(THUMB, 0xf3af8000, 0, 0, "nop.w"),
	NONE(THUMB, 0xf3af8003, 0, 0, "wfi.w"),
	NONE(THUMB, 0xf3bf8f2f, 0, 0, "clrex"),
	NONE(THUMB, 0xf000efff, 0, 0, "blx imm with H = 1: UNDEFINED"),
	NONE(THUMB, 0xea5f0f00, 0, 0,
	     "movs.w pc, r0: UNPREDICTABLE, not in the Thumb tables"),
	NONE(THUMB, 0xf890f000, 0, 0, "pld [r0] (LDRB with Rt = PC)"),
	NONE(THUMB, 0xf8cdf000, 0, 0, "str.w pc, [sp]"),
	NONE(THUMB, 0xe92d4010, 0, 0, "push.w {r4, lr}"),
	NONE(THUMB, 0xe8bd4010, 0, 0, "pop.w {r4, lr}"),

	/* ---- IT blocks (§5.6): the lowest set mask bit ends the block */
	IT(0xbf08, 1, "it eq: mask 1000"),
	IT(0xbf04, 2, "itt eq: mask 0100"),
	IT(0xbf0c, 2, "ite eq: mask 1100"),
	IT(0xbf1a, 3, "itte ne: mask 1010"),
	IT(0xbf01, 4, "itttt eq: mask 0001"),
	IT(0xbfcf, 4, "iteee gt: mask 1111"),
};

/* Little-endian bytes of a vector's instruction; returns the size. */
static size_t vector_bytes(const struct vector *v, uint8_t *b)
{
	uint32_t x = v->insn;

	if (v->isa == PFT_ISA_ARM) {
		b[0] = (uint8_t)x;
		b[1] = (uint8_t)(x >> 8);
		b[2] = (uint8_t)(x >> 16);
		b[3] = (uint8_t)(x >> 24);
		return 4;
	}
	if (x <= 0xffff) {
		b[0] = (uint8_t)x;
		b[1] = (uint8_t)(x >> 8);
		return 2;
	}
	b[0] = (uint8_t)(x >> 16);
	b[1] = (uint8_t)(x >> 24);
	b[2] = (uint8_t)x;
	b[3] = (uint8_t)(x >> 8);
	return 4;
}

static void check_vector(const struct vector *v)
{
	uint8_t b[4];
	size_t size = vector_bytes(v, b);
	struct pft_insn_class c;
	uint32_t opcode = v->isa == PFT_ISA_ARM || v->insn > 0xffff ?
			  v->insn : v->insn << 16;
	int ret;

	memset(&c, 0xa5, sizeof(c));    /* everything must be written */
	ret = pft_isa_classify(v->isa, v->addr, b, size, v->flags, &c);
	if (ret != (int)size || c.kind != v->kind || c.link != v->link ||
	    c.conditional != v->conditional || c.exc_return != v->exc_return ||
	    c.it_count != v->it_count || c.size != size || c.opcode != opcode ||
	    (v->kind == PFT_WP_DIRECT &&
	     (c.target != v->target || c.target_isa != v->target_isa))) {
		fprintf(stderr, "vector %08" PRIx32 " (%s): ret %d size %u kind %u "
			"link %u cond %u excret %u it %u target %08" PRIx32
			" isa %u\n", v->insn, v->what, ret, c.size, c.kind,
			c.link, c.conditional, c.exc_return, c.it_count,
			c.target, c.target_isa);
		ptu_failed_checks++;
	}
	/* Non-branches have no target. */
	if (v->kind != PFT_WP_DIRECT)
		PTU_EQ(c.target, 0);
}

static void test_vectors(void)
{
	size_t i;

	for (i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++)
		check_vector(&vectors[i]);
}

/* Every ISB/DMB/DSB option value is the same barrier (spec masks ignore
 * the low nibble). */
static void test_barrier_options(void)
{
	unsigned opt;

	for (opt = 0; opt < 16; opt++) {
		struct pft_insn_class c;
		uint32_t t32 = 0xf3bf8f60u | opt;
		uint8_t a[4] = { (uint8_t)(0x60 | opt), 0xf0, 0x7f, 0xf5 };
		uint8_t t[4] = { 0xbf, 0xf3, (uint8_t)t32, 0x8f };

		PTU_EQ(pft_isa_classify(ARM, 0, a, 4, 0, &c), 4);
		PTU_EQ(c.kind, PFT_WP_BARRIER);
		PTU_EQ(pft_isa_classify(THUMB, 0, t, 4, 0, &c), 4);
		PTU_EQ(c.kind, PFT_WP_BARRIER);
		a[0] = (uint8_t)(0x50 | opt);   /* DMB */
		t[2] = (uint8_t)(0x50 | opt);
		PTU_EQ(pft_isa_classify(ARM, 0, a, 4, 0, &c), 4);
		PTU_EQ(c.kind, PFT_WP_NONE);
		PTU_EQ(pft_isa_classify(ARM, 0, a, 4, DMB_DSB, &c), 4);
		PTU_EQ(c.kind, PFT_WP_BARRIER);
		PTU_EQ(pft_isa_classify(THUMB, 0, t, 4, DMB_DSB, &c), 4);
		PTU_EQ(c.kind, PFT_WP_BARRIER);
	}
}

/* A32 condition codes: 0000-1101 conditional, 1110 not, and 1111 is the
 * unconditional space where 101x is BLX (not a conditional B). */
static void test_a32_conditions(void)
{
	unsigned cond;

	for (cond = 0; cond < 16; cond++) {
		struct pft_insn_class c;
		uint8_t b[4] = { 0xfe, 0xff, 0xff, (uint8_t)(cond << 4 | 0xa) };

		PTU_EQ(pft_isa_classify(ARM, 0x1000, b, 4, 0, &c), 4);
		PTU_EQ(c.kind, PFT_WP_DIRECT);
		PTU_EQ(c.conditional, cond < 14);
		/* B: 0x1008 - 8; BLX (cond 1111): same, H = 0, to Thumb. */
		PTU_EQ(c.target, 0x1000);
		PTU_EQ(c.target_isa, cond == 15 ? THUMB : ARM);
		PTU_EQ(c.link, cond == 15);
	}
}

/* T32 B<c> T1 for each condition; 1110 is UDF and 1111 SVC. */
static void test_t32_conditions(void)
{
	unsigned cond;

	for (cond = 0; cond < 16; cond++) {
		struct pft_insn_class c;
		uint8_t t1[2] = { 0x02, (uint8_t)(0xd0 | cond) };
		/* B<c>.W T3 with S = 1, imm11 = 1; cond 111x is the misc
		 * control space, where hw1 0xf780/0xf7c0 with hw2 0x8001
		 * matches none of the spec's masks. */
		uint8_t t3[4] = { (uint8_t)((cond & 3) << 6),
				  (uint8_t)(0xf4 | cond >> 2), 0x01, 0x80 };

		PTU_EQ(pft_isa_classify(THUMB, 0x2000, t1, 2, 0, &c), 2);
		if (cond < 14) {
			PTU_EQ(c.kind, PFT_WP_DIRECT);
			PTU_EQ(c.target, 0x2008);       /* 0x2004 + 2 * 2 */
			PTU_EQ(c.conditional, 1);
		} else {
			PTU_EQ(c.kind, PFT_WP_NONE);
		}
		PTU_EQ(pft_isa_classify(THUMB, 0x2000, t3, 4, 0, &c), 4);
		if (cond < 14) {
			PTU_EQ(c.kind, PFT_WP_DIRECT);
			/* 0x2004 + SignExtend(1:0...0:1:0, 21) = 0x2004
			 * - 0x100000 + 2 */
			PTU_EQ(c.target, 0xfff02006);
			PTU_EQ(c.conditional, 1);
		} else {
			PTU_EQ(c.kind, PFT_WP_NONE);
		}
	}
}

static void test_errors(void)
{
	static const uint8_t bl32[4] = { 0x00, 0xf0, 0xfe, 0xff }; /* bl */
	static const uint8_t bx16[4] = { 0x70, 0x47, 0xff, 0xff }; /* bx lr */
	static const uint8_t arm[4] = { 0x1e, 0xff, 0x2f, 0xe1 };  /* bx lr */
	struct pft_insn_class c, before;

	memset(&c, 0x5a, sizeof(c));
	before = c;
	/* Too short: nothing written. */
	PTU_EQ(pft_isa_classify(ARM, 0, arm, 3, 0, &c), -PFT_ERR_NOMAP);
	PTU_EQ(pft_isa_classify(ARM, 0, arm, 0, 0, &c), -PFT_ERR_NOMAP);
	PTU_EQ(pft_isa_classify(THUMB, 0, bx16, 1, 0, &c), -PFT_ERR_NOMAP);
	PTU_EQ(pft_isa_classify(THUMB, 0, bx16, 0, 0, &c), -PFT_ERR_NOMAP);
	PTU_EQ(pft_isa_classify(THUMB, 0, bl32, 2, 0, &c), -PFT_ERR_NOMAP);
	PTU_EQ(pft_isa_classify(THUMB, 0, bl32, 3, 0, &c), -PFT_ERR_NOMAP);
	PTU_EQ(pft_isa_classify(TEE, 0, bl32, 3, 0, &c), -PFT_ERR_NOMAP);
	PTU_CHECK(memcmp(&c, &before, sizeof(c)) == 0);
	/* A 16-bit instruction needs only 2 bytes. */
	PTU_EQ(pft_isa_classify(THUMB, 0, bx16, 2, 0, &c), 2);
	PTU_EQ(c.kind, PFT_WP_INDIRECT);
	PTU_EQ(pft_isa_classify(THUMB, 0, bl32, 4, 0, &c), 4);
	PTU_EQ(c.kind, PFT_WP_DIRECT);
	/* Unsupported and invalid instruction sets. */
	PTU_EQ(pft_isa_classify(PFT_ISA_JAZELLE, 0, arm, 4, 0, &c),
	       -PFT_ERR_NOT_SUPPORTED);
	PTU_EQ(pft_isa_classify(PFT_ISA_UNKNOWN, 0, arm, 4, 0, &c),
	       -PFT_ERR_NOT_SUPPORTED);
	PTU_EQ(pft_isa_classify((enum pft_isa)99, 0, arm, 4, 0, &c),
	       -PFT_ERR_INVALID);
	/* NULL arguments and unknown flags. */
	PTU_EQ(pft_isa_classify(ARM, 0, NULL, 4, 0, &c), -PFT_ERR_INVALID);
	PTU_EQ(pft_isa_classify(ARM, 0, arm, 4, 0, NULL), -PFT_ERR_INVALID);
	PTU_EQ(pft_isa_classify(THUMB, 0, NULL, 0, 0, &c), -PFT_ERR_INVALID);
	PTU_EQ(pft_isa_classify(ARM, 0, arm, 4, 1u << 5, &c), -PFT_ERR_INVALID);
}

/* ThumbEE is Thumb except for the handler branches in 0xc000-0xc7ff. */
static void test_thumbee_matches_thumb(void)
{
	uint32_t hw1;

	for (hw1 = 0; hw1 < 0xe800; hw1++) {
		uint8_t b[2] = { (uint8_t)hw1, (uint8_t)(hw1 >> 8) };
		struct pft_insn_class t, e;

		PTU_EQ(pft_isa_classify(THUMB, 0x100, b, 2, 0, &t), 2);
		PTU_EQ(pft_isa_classify(TEE, 0x100, b, 2, 0, &e), 2);
		if (hw1 >= 0xc000 && hw1 < 0xc800) {
			/* Thumb: STM of low registers, never a waypoint. */
			PTU_EQ(t.kind, PFT_WP_NONE);
			PTU_EQ(e.kind, (hw1 & 0xff00) == 0xc100 ?
			       PFT_WP_NONE : PFT_WP_INDIRECT);
			continue;
		}
		if (e.kind == PFT_WP_DIRECT) {
			PTU_EQ(e.target_isa, TEE);
			e.target_isa = THUMB;
		}
		PTU_CHECK(memcmp(&t, &e, sizeof(t)) == 0);
	}
}

/* ====================================================================
 * Part 2: differential test against capstone 4
 *
 * Capstone decodes an instruction; it "changes the PC" when it writes
 * ARM_REG_PC (implicitly or as an operand) or is in a jump, call, return
 * or relative-branch group.  That is compared with our waypoint kind, and
 * for branches with an immediate the target, for PC writers call vs link.
 * Every disagreement must fall into one of the documented exception
 * classes below (each an exact encoding pattern plus what capstone says),
 * or the test fails.
 * ==================================================================== */

enum mismatch {
	MM_SIZE,          /* instruction sizes differ */
	MM_WP_NOT_PC,     /* we: branch waypoint; capstone: no PC change */
	MM_WP_INVALID,    /* we: waypoint; capstone: cannot decode */
	MM_PC_NOT_WP,     /* capstone: changes the PC; we: not a waypoint */
	MM_BARRIER,       /* we: barrier waypoint (capstone: no PC change) */
	MM_TARGET,        /* direct targets differ */
	MM_DIRECTNESS,    /* capstone has an immediate target, we do not, or
			   * the other way round */
	MM_LINK,          /* call (capstone) vs link (us) */
	MM_COND,          /* A32 condition vs our conditional flag */
	MM_IT,            /* IT block length */
	MM_COUNT
};

static const char *const mismatch_names[MM_COUNT] = {
	"size", "waypoint/no PC change", "waypoint/capstone invalid",
	"PC change/no waypoint", "barrier", "target", "direct/indirect",
	"call/link", "condition", "IT length"
};

/* What capstone says about one instruction. */
struct cs_view {
	int valid;
	unsigned id;
	unsigned size;
	int pc_change;
	int call;
	int has_target;         /* B, BL, BLX imm, CBZ, CBNZ */
	uint32_t target;
	int cc;                 /* arm_cc */
	char mnemonic[32];
};

struct sample {
	enum pft_isa isa;
	uint32_t inst;          /* as struct pft_insn_class.opcode */
	struct pft_insn_class ours;
	struct cs_view cs;
	enum mismatch mm;
};

static int cs_in_group(const cs_detail *d, unsigned group)
{
	int i;

	for (i = 0; i < d->groups_count; i++)
		if (d->groups[i] == group)
			return 1;
	return 0;
}

static int cs_writes_pc(const cs_detail *d)
{
	int i;

	for (i = 0; i < d->regs_write_count; i++)
		if (d->regs_write[i] == ARM_REG_PC)
			return 1;
	for (i = 0; i < d->arm.op_count; i++) {
		const cs_arm_op *op = &d->arm.operands[i];

		if (op->type == ARM_OP_REG && op->reg == ARM_REG_PC &&
		    (op->access & CS_AC_WRITE))
			return 1;
	}
	return 0;
}

static void cs_describe(csh h, cs_insn *insn, const uint8_t *code,
			size_t len, uint32_t addr, struct cs_view *v)
{
	const uint8_t *p = code;
	uint64_t a = addr;
	const cs_detail *d;
	int i;

	memset(v, 0, sizeof(*v));
	if (!cs_disasm_iter(h, &p, &len, &a, insn))
		return;
	d = insn->detail;
	v->valid = 1;
	v->id = insn->id;
	v->size = insn->size;
	v->call = cs_in_group(d, CS_GRP_CALL);
	v->pc_change = cs_writes_pc(d) || v->call ||
		       cs_in_group(d, CS_GRP_JUMP) ||
		       cs_in_group(d, CS_GRP_RET) ||
		       cs_in_group(d, CS_GRP_BRANCH_RELATIVE);
	v->cc = d->arm.cc;
	snprintf(v->mnemonic, sizeof(v->mnemonic), "%s", insn->mnemonic);
	if (insn->id == ARM_INS_B || insn->id == ARM_INS_BL ||
	    insn->id == ARM_INS_BLX || insn->id == ARM_INS_CBZ ||
	    insn->id == ARM_INS_CBNZ) {
		for (i = 0; i < d->arm.op_count; i++) {
			if (d->arm.operands[i].type == ARM_OP_IMM) {
				v->has_target = 1;
				v->target = (uint32_t)d->arm.operands[i].imm;
			}
		}
	}
}

/* ---- Documented exception classes ----
 *
 * Each class names the mismatch it explains, the instruction set, the
 * waypoint kind the spec requires of us there, and an encoding predicate
 * written from the ARM ARM (field names in the comments).  A classifier
 * bug shows up as a mismatch of another type, outside the encodings or
 * with another kind, and is reported as undocumented.
 */

#define MM(x) (1u << (x))
#define ANY_KIND 0xff

/* A32 fields. */
#define COND(op) ((op) >> 28)
#define RN(op) (((op) >> 16) & 0xf)
#define RD(op) (((op) >> 12) & 0xf)
/* T32 halves. */
#define HW1(i) ((i) >> 16)
#define HW2(i) ((i) & 0xffff)

/* ---- A32 ---- */

static int a32_isb(uint32_t op)
{
	return (op & 0xfffffff0u) == 0xf57ff060u ||
	       (op & 0x0fff0fffu) == 0x0e070f95u;  /* MCR/MCR2 CP15 form */
}

static int a32_rfe(uint32_t op)
{
	return (op & 0xfe500000u) == 0xf8100000u;
}

static int x_a32_isb(const struct sample *s)
{
	return a32_isb(s->inst) &&
	       (s->cs.id == ARM_INS_ISB || s->cs.id == ARM_INS_MCR ||
		s->cs.id == ARM_INS_MCR2);
}

static int x_a32_rfe(const struct sample *s)
{
	return a32_rfe(s->inst) && s->cs.id >= ARM_INS_RFEDA &&
	       s->cs.id <= ARM_INS_RFEIB;
}

static int x_a32_rfe_sbz(const struct sample *s)
{
	/* RFE: bits 15:0 are (0)(0)(0)(0)1010(0)(0)(0)(0)(0)(0)(0)(0). */
	return a32_rfe(s->inst) && (s->inst & 0xffff) != 0x0a00;
}

static int x_a32_bx_sbo(const struct sample *s)
{
	uint32_t op = s->inst;

	/* BX, BLX, BXJ: bits 19:8 are (1)...(1). */
	return COND(op) != 0xf &&
	       ((op & 0x0ff000d0u) == 0x01200010u ||
		(op & 0x0ff000f0u) == 0x01200020u) &&
	       (op & 0x000fff00u) != 0x000fff00u;
}

static int a32_extra_space(uint32_t op)
{
	/* op[27:25] = 000, op[7] = op[4] = 1: multiply, extra load/store,
	 * synchronization primitives. */
	return COND(op) != 0xf && (op & 0x0e000090u) == 0x00000090u;
}

static int a32_halfword_multiply(uint32_t op)
{
	return COND(op) != 0xf && (op & 0x0f900090u) == 0x01000080u;
}

static int a32_sync_exclusion(uint32_t op)
{
	return COND(op) != 0xf && (op & 0x0f9000f0u) == 0x01800090u;
}

static int x_a32_mov_sbz(const struct sample *s)
{
	uint32_t op = s->inst;

	/* MOV/MVN (opcode 1101/1111), Rd = PC, Rn (should be 0000) != 0. */
	return COND(op) != 0xf && (op & 0x0da0f000u) == 0x01a0f000u &&
	       RN(op) != 0 && !a32_extra_space(op);
}

static int x_a32_extra_pc(const struct sample *s)
{
	uint32_t op = s->inst;

	return (a32_extra_space(op) || a32_halfword_multiply(op)) &&
	       RD(op) == 0xf && !a32_sync_exclusion(op);
}

static int x_a32_strexd_pc(const struct sample *s)
{
	/* STREXD/LDREXD (0001 101L ... 1001) with Rd/Rt = PC fall under the
	 * spec's MOV PC mask, which comes before its exclusions. */
	return COND(s->inst) != 0xf &&
	       (s->inst & 0x0fe0f0f0u) == 0x01a0f090u;
}

static int x_a32_test_sbz(const struct sample *s)
{
	uint32_t op = s->inst;

	/* TST/TEQ/CMP/CMN (register), SBZ field bits 15:12 = 1111. */
	return COND(op) != 0xf && (op & 0x0f90f000u) == 0x0110f000u &&
	       (op & 0x90u) != 0x90u;
}

static int x_a32_ldrb_pc(const struct sample *s)
{
	uint32_t op = s->inst;

	return COND(op) != 0xf && ((op & 0x0e50f000u) == 0x0450f000u ||
				   (op & 0x0e50f010u) == 0x0650f000u);
}

static int x_a32_media_pc(const struct sample *s)
{
	uint32_t op = s->inst;

	return COND(op) != 0xf && (op & 0x0e000010u) == 0x06000010u &&
	       (RD(op) == 0xf || RN(op) == 0xf);
}

static int x_a32_misc_pc(const struct sample *s)
{
	uint32_t op = s->inst;

	return COND(op) != 0xf && (op & 0x0f900080u) == 0x01000000u &&
	       RD(op) == 0xf;
}

static int x_a32_sync_pc(const struct sample *s)
{
	uint32_t op = s->inst;

	return a32_sync_exclusion(op) &&
	       (RD(op) == 0xf || (op & 0xf) == 0xf || RN(op) == 0xf);
}

static int x_a32_multiply_high_pc(const struct sample *s)
{
	uint32_t op = s->inst;

	/* MUL/MLA/MLS Rd, long multiply RdHi, SMLAxy/SMULxy Rd: bits 19:16. */
	return ((COND(op) != 0xf && (op & 0x0f0000f0u) == 0x00000090u) ||
		a32_halfword_multiply(op)) && RN(op) == 0xf;
}

static int x_a32_ldrd_lr(const struct sample *s)
{
	uint32_t op = s->inst;

	/* LDRD Rt = LR: Rt2 = Rt + 1 = PC. */
	return COND(op) != 0xf && (op & 0x0e1000f0u) == 0x000000d0u &&
	       RD(op) == 0xe;
}

static int x_a32_writeback_pc(const struct sample *s)
{
	uint32_t op = s->inst;

	/* LDM/STM (100) and coprocessor load/store (110) with W = 1 and
	 * Rn = PC; LDR/STR (01x) with writeback (P = 0 or W = 1). */
	if (COND(op) == 0xf || RN(op) != 0xf)
		return 0;
	if ((op & 0x0a200000u) == 0x08200000u)
		return 1;
	return (op & 0x0c000000u) == 0x04000000u &&
	       (!(op & (1u << 24)) || (op & (1u << 21)));
}

static int x_a32_coproc_rt_pc(const struct sample *s)
{
	uint32_t op = s->inst;

	if (COND(op) == 0xf)
		return 0;
	/* MRC/VMOV/VMRS (core <- coprocessor) with Rt = 15. */
	if ((op & 0x0f100010u) == 0x0e100010u && RD(op) == 0xf)
		return 1;
	/* MRRC/VMOV (two core registers) with Rt or Rt2 = 15. */
	return (op & 0x0ff00000u) == 0x0c500000u &&
	       (RD(op) == 0xf || RN(op) == 0xf);
}

static int x_a32_hvc_cond(const struct sample *s)
{
	return (s->inst & 0x0ff000f0u) == 0x01400070u &&
	       COND(s->inst) != 0xe && COND(s->inst) != 0xf;
}

static int x_a32_msr_banked_cc(const struct sample *s)
{
	/* MSR (banked register): cond 0001 0R10 M1 1111 (0)(0)1M 0000 Rn. */
	return (s->inst & 0x0fb0fef0u) == 0x0120f200u &&
	       s->cs.id == ARM_INS_MSR;
}

/* ---- T32 ---- */

static int t32_rfe(uint32_t i)
{
	return (i & 0xffd00000u) == 0xe8100000u ||
	       (i & 0xffd00000u) == 0xe9900000u;
}

static int x_t32_isb(const struct sample *s)
{
	return (s->inst & 0xfffffff0u) == 0xf3bf8f60u &&
	       s->cs.id == ARM_INS_ISB;
}

static int x_t32_enterx_leavex(const struct sample *s)
{
	return s->inst == 0xf3bf8f1fu || s->inst == 0xf3bf8f0fu;
}

static int x_t32_rfe(const struct sample *s)
{
	return t32_rfe(s->inst) && s->cs.id >= ARM_INS_RFEDA &&
	       s->cs.id <= ARM_INS_RFEIB;
}

static int x_t32_rfe_sbz(const struct sample *s)
{
	/* RFE: hw2 is (1)(1)(0)(0)...(0). */
	return t32_rfe(s->inst) && HW2(s->inst) != 0xc000;
}

static int x_t32_misc_sbz(const struct sample *s)
{
	uint32_t i = s->inst;

	/* BXJ: hw2 = 10(0)0 (1)(1)(1)(1) 0000 0000 (bit 13 0, 11:8 1111).
	 * SUBS PC, LR, #imm8: Rn = (1)(1)(1)(0), hw2 = 10(0)0 (1)(1)(1)(1). */
	if ((i & 0xfff0d000u) == 0xf3c08000u)
		return (i & 0x2fffu) != 0x0f00u;
	if ((i & 0xfff0d000u) == 0xf3d08000u)
		return (i & 0x000f2f00u) != 0x000e0f00u;
	return 0;
}

static unsigned popcount16(uint32_t v)
{
	unsigned n = 0;

	for (v &= 0xffff; v; v &= v - 1)
		n++;
	return n;
}

static int x_t32_ldm_list(const struct sample *s)
{
	uint32_t i = s->inst, rn = HW1(i) & 0xf, wback = (i >> 21) & 1;

	/* LDM with PC: UNPREDICTABLE if Rn = PC, SP or PC+LR in the list,
	 * fewer than 2 registers, or writeback with Rn in the list. */
	return (i & 0xfe508000u) == 0xe8108000u && !t32_rfe(i) &&
	       (rn == 15 || (i & 0x6000u) || popcount16(i) < 2 ||
		(wback && (i & (1u << rn))));
}

static int x_t32_ldr_pc_undef(const struct sample *s)
{
	/* LDR (immediate, T4) with P = 0 and W = 0: UNDEFINED. */
	return (s->inst & 0xfff0fd00u) == 0xf850f800u;
}

static int x_t16_bx_sbz(const struct sample *s)
{
	uint32_t hw1 = HW1(s->inst);

	/* BX/BLX Rm: bits 2:0 are (0)(0)(0). */
	return (hw1 & 0xff00u) == 0x4700u && (hw1 & 7u) != 0;
}

static int x_t32_dual_excl_pc(const struct sample *s)
{
	uint32_t i = s->inst, hw2 = HW2(i), hw1 = HW1(i);

	/* Load/store dual, exclusive (not TBB/TBH): Rt (15:12), Rt2/Rd
	 * (11:8), Rd (3:0) or a written-back Rn = PC. */
	return (hw1 & 0xfe40u) == 0xe840u &&
	       (i & 0xfff0ffe0u) != 0xe8d0f000u &&
	       ((hw2 & 0xf000u) == 0xf000u || (hw2 & 0x0f00u) == 0x0f00u ||
		(hw2 & 0xfu) == 0xfu || ((hw1 & 0xf) == 0xf && (hw1 & 0x20)));
}

static int x_t32_dp_pc(const struct sample *s)
{
	uint32_t hw1 = HW1(s->inst), hw2 = HW2(s->inst);

	/* Data processing (shifted register, modified or plain immediate),
	 * Rd (hw2 11:8) = PC. */
	return ((hw1 & 0xfe00u) == 0xea00u ||
		((hw1 & 0xf800u) == 0xf000u && !(hw2 & 0x8000u))) &&
	       (hw2 & 0x0f00u) == 0x0f00u;
}

static int x_t32_dpreg_mul_pc(const struct sample *s)
{
	uint32_t hw1 = HW1(s->inst), hw2 = HW2(s->inst);

	/* Data processing (register), multiply, long multiply, divide:
	 * Rd (11:8) or RdLo/Ra (15:12) = PC. */
	return (hw1 & 0xfe00u) == 0xfa00u &&
	       ((hw2 & 0x0f00u) == 0x0f00u || (hw2 & 0xf000u) == 0xf000u);
}

static int x_t32_byte_half_pc(const struct sample *s)
{
	/* Byte/halfword loads and stores (1111 100x x0xx) with Rt = PC:
	 * PLD/PLI/unallocated hints, or UNPREDICTABLE. */
	return (HW1(s->inst) & 0xfe40u) == 0xf800u &&
	       (HW2(s->inst) & 0xf000u) == 0xf000u;
}

static int x_t32_writeback_pc(const struct sample *s)
{
	uint32_t hw1 = HW1(s->inst);

	/* LDM/STM (1110 100x x01x 1111) and coprocessor load/store
	 * (111x 110x xx1x 1111): writeback to Rn = PC. */
	return (hw1 & 0xfe6fu) == 0xe82fu || (hw1 & 0xee2fu) == 0xec2fu;
}

static int x_t32_coproc_rt_pc(const struct sample *s)
{
	uint32_t hw1 = HW1(s->inst), hw2 = HW2(s->inst);

	if ((hw1 & 0xef10u) == 0xee10u && (hw2 & 0x10u) &&
	    (hw2 & 0xf000u) == 0xf000u)
		return 1;       /* MRC/VMOV/VMRS, Rt = 15 */
	return (hw1 & 0xeff0u) == 0xec50u &&   /* MRRC/VMOV, Rt or Rt2 = 15 */
	       ((hw2 & 0xf000u) == 0xf000u || (hw1 & 0xfu) == 0xfu);
}

static int x_t32_mrs_pc(const struct sample *s)
{
	/* MRS (incl. banked): 1111 0011 111R xxxx 10x0 Rd xxxx xxxx. */
	return (s->inst & 0xffe0d000u) == 0xf3e08000u &&
	       (HW2(s->inst) & 0x0f00u) == 0x0f00u;
}

struct exception_class {
	enum pft_isa isa;
	unsigned mismatches;    /* MM() set this class may explain */
	uint8_t kind;           /* what we must have said (ANY_KIND: any) */
	int (*match)(const struct sample *s);
	const char *name;
	const char *why;
	unsigned long count;
};

#define EXC(isa, mismatches, kind, match, name, why) \
	{ isa, mismatches, kind, match, name, why, 0 }

static struct exception_class exceptions[] = {
	EXC(ARM, MM(MM_BARRIER), PFT_WP_BARRIER, x_a32_isb, "A32 ISB",
	  "ISB is a waypoint (spec tables, A15 capture) but does not branch; "
	  "the spec's CP15 mask ignores cond, so MCR2 matches too"),
	EXC(ARM, MM(MM_WP_NOT_PC), PFT_WP_INDIRECT, x_a32_rfe, "A32 RFE",
	  "capstone 4 omits the PC from RFE's written registers"),
	EXC(ARM, MM(MM_WP_INVALID), PFT_WP_INDIRECT, x_a32_rfe_sbz,
	  "A32 RFE, bits 15:0 != 0x0a00",
	  "should-be bits; capstone refuses them, the spec's mask ignores them"),
	EXC(ARM, MM(MM_WP_INVALID), PFT_WP_INDIRECT, x_a32_bx_sbo,
	  "A32 BX/BLX/BXJ, SBO bits",
	  "bits 19:8 should be ones; capstone refuses, the spec's mask ignores"),
	EXC(ARM, MM(MM_WP_INVALID), PFT_WP_INDIRECT, x_a32_mov_sbz,
	  "A32 MOV/MVN PC, Rn != 0",
	  "Rn should be zero; capstone refuses, the spec's masks ignore it"),
	EXC(ARM, MM(MM_WP_NOT_PC) | MM(MM_WP_INVALID), PFT_WP_INDIRECT,
	  x_a32_extra_pc, "A32 mul/extra ld-st, [15:12]=PC",
	  "the spec's data-processing (register) Rd = PC mask covers the "
	  "multiply, halfword-multiply and extra load/store encodings: Ra, "
	  "RdLo or Rt = PC there is UNPREDICTABLE or UNDEFINED"),
	EXC(ARM, MM(MM_WP_NOT_PC) | MM(MM_WP_INVALID), PFT_WP_INDIRECT,
	    x_a32_strexd_pc, "A32 STREXD/LDREXD PC",
	    "UNPREDICTABLE; matched by the spec's MOV PC mask (0x01a0f000 "
	    "under 0x0fe0f000)"),
	EXC(ARM, MM(MM_WP_NOT_PC), PFT_WP_INDIRECT, x_a32_test_sbz,
	  "A32 TST/CMP reg, SBZ = 1111",
	  "UNPREDICTABLE (legacy TSTP); only the spec's immediate mask "
	  "excludes TST/TEQ/CMP/CMN"),
	EXC(ARM, MM(MM_PC_NOT_WP), PFT_WP_NONE, x_a32_ldrb_pc, "A32 LDRB PC",
	  "UNPREDICTABLE; the spec's masks cover LDR (B = 0) only"),
	EXC(ARM, MM(MM_PC_NOT_WP), PFT_WP_NONE, x_a32_media_pc,
	  "A32 media, Rd = PC", "UNPREDICTABLE; not in the spec's tables"),
	EXC(ARM, MM(MM_PC_NOT_WP), PFT_WP_NONE, x_a32_misc_pc,
	  "A32 misc space, Rd = PC",
	  "QADD/CLZ/MRS... into PC: UNPREDICTABLE; the spec excludes the "
	  "miscellaneous space"),
	EXC(ARM, MM(MM_PC_NOT_WP), PFT_WP_NONE, x_a32_sync_pc,
	  "A32 LDREX/STREX with PC",
	  "UNPREDICTABLE; the spec excludes this space (0x01800090)"),
	EXC(ARM, MM(MM_PC_NOT_WP), PFT_WP_NONE, x_a32_multiply_high_pc,
	  "A32 multiply, [19:16] = PC",
	  "Rd/RdHi = PC is UNPREDICTABLE; the spec's mask looks at 15:12"),
	EXC(ARM, MM(MM_PC_NOT_WP), PFT_WP_NONE, x_a32_ldrd_lr, "A32 LDRD LR, PC",
	  "Rt = LR makes Rt2 = PC: UNPREDICTABLE, not in the spec's tables"),
	EXC(ARM, MM(MM_PC_NOT_WP), PFT_WP_NONE, x_a32_writeback_pc,
	  "A32 writeback to Rn = PC",
	  "UNPREDICTABLE; capstone counts the base update as a PC write"),
	EXC(ARM, MM(MM_PC_NOT_WP), PFT_WP_NONE, x_a32_coproc_rt_pc,
	  "A32 MRC/VMOV Rt = PC",
	  "Rt = 15 means APSR_nzcv for MRC/VMRS, UNPREDICTABLE for VMOV; "
	  "capstone reports a PC write"),
	EXC(ARM, MM(MM_COND), ANY_KIND, x_a32_hvc_cond, "A32 HVC cond != AL",
	  "HVC must have cond = 1110 (else UNPREDICTABLE); capstone reports "
	  "AL, we report the field"),
	EXC(ARM, MM(MM_COND), ANY_KIND, x_a32_msr_banked_cc,
	  "A32 MSR banked, capstone cc",
	  "capstone 4 misdecodes some MSR (banked register) encodings as "
	  "'msreq reg, #cond'"),
	EXC(THUMB, MM(MM_BARRIER), PFT_WP_BARRIER, x_t32_isb, "T32 ISB",
	  "ISB is a waypoint but does not branch"),
	EXC(THUMB, MM(MM_WP_INVALID), PFT_WP_DIRECT, x_t32_enterx_leavex,
	  "T32 ENTERX/LEAVEX",
	  "ThumbEE state changes, direct waypoints in the spec; capstone 4 "
	  "has no ThumbEE"),
	EXC(THUMB, MM(MM_WP_NOT_PC), PFT_WP_INDIRECT, x_t32_rfe, "T32 RFE",
	  "capstone 4 omits the PC from RFE's written registers"),
	EXC(THUMB, MM(MM_WP_INVALID), PFT_WP_INDIRECT, x_t32_rfe_sbz,
	  "T32 RFE, hw2 != 0xc000",
	  "should-be bits; capstone refuses them, the spec's mask ignores them"),
	EXC(THUMB, MM(MM_WP_INVALID), PFT_WP_INDIRECT, x_t32_misc_sbz,
	  "T32 BXJ/SUBS PC,LR fields",
	  "should-be bits (and Rn = LR for SUBS PC, LR); capstone refuses "
	  "them, the spec's masks ignore them"),
	EXC(THUMB, MM(MM_WP_INVALID), PFT_WP_INDIRECT, x_t32_ldm_list,
	  "T32 LDM PC, bad list",
	  "SP, LR+PC, < 2 registers, Rn = PC or written-back Rn in the list: "
	  "UNPREDICTABLE; capstone refuses, the spec's mask matches"),
	EXC(THUMB, MM(MM_WP_INVALID), PFT_WP_INDIRECT, x_t32_ldr_pc_undef,
	  "T32 LDR PC, P = W = 0",
	  "UNDEFINED; the spec's LDR PC [Rn, #+-imm8] mask includes it"),
	EXC(THUMB, MM(MM_WP_INVALID), PFT_WP_INDIRECT, x_t16_bx_sbz,
	  "T16 BX/BLX, bits 2:0 != 0",
	  "should-be-zero bits; capstone refuses some, the spec's mask "
	  "ignores them"),
	EXC(THUMB, MM(MM_PC_NOT_WP), PFT_WP_NONE, x_t32_dual_excl_pc,
	  "T32 LDRD/LDREX/STREX PC",
	  "UNPREDICTABLE; only TBB/TBH are waypoints in that space"),
	EXC(THUMB, MM(MM_PC_NOT_WP), PFT_WP_NONE, x_t32_dp_pc,
	  "T32 data-processing Rd = PC",
	  "UNPREDICTABLE (Rd = 15 is only TST/TEQ/CMP/CMN); not in the "
	  "spec's Thumb tables"),
	EXC(THUMB, MM(MM_PC_NOT_WP), PFT_WP_NONE, x_t32_dpreg_mul_pc,
	  "T32 reg DP/multiply Rd = PC", "UNPREDICTABLE; not in the tables"),
	EXC(THUMB, MM(MM_PC_NOT_WP), PFT_WP_NONE, x_t32_byte_half_pc,
	  "T32 LDRB/LDRH/STRB.. Rt = PC",
	  "preload hints or UNPREDICTABLE; capstone reports a PC write"),
	EXC(THUMB, MM(MM_PC_NOT_WP), PFT_WP_NONE, x_t32_writeback_pc,
	  "T32 writeback to Rn = PC",
	  "UNPREDICTABLE; capstone counts the base update as a PC write"),
	EXC(THUMB, MM(MM_PC_NOT_WP), PFT_WP_NONE, x_t32_coproc_rt_pc,
	  "T32 MRC/VMOV Rt = PC",
	  "APSR_nzcv or UNPREDICTABLE; capstone reports a PC write"),
	EXC(THUMB, MM(MM_PC_NOT_WP), PFT_WP_NONE, x_t32_mrs_pc,
	  "T32 MRS PC", "UNPREDICTABLE; not in the tables"),
	{ ARM, 0, 0, NULL, NULL, NULL, 0 }
};

/* ---- Driver ---- */

struct diff_stats {
	unsigned long total, agree_none, agree_branch, agree_barrier;
	unsigned long cs_invalid_none, undocumented;
	unsigned long by_mismatch[MM_COUNT];
};

#define MAX_REPORTS 40

static const struct exception_class *find_exception(const struct sample *s)
{
	struct exception_class *e;

	for (e = exceptions; e->name; e++) {
		if (e->isa == s->isa && (e->mismatches & MM(s->mm)) &&
		    (e->kind == ANY_KIND || e->kind == s->ours.kind) &&
		    e->match(s)) {
			e->count++;
			return e;
		}
	}
	return NULL;
}

static void report(struct diff_stats *st, struct sample *s, enum mismatch mm)
{
	s->mm = mm;
	if (find_exception(s))
		return;
	st->undocumented++;
	st->by_mismatch[mm]++;
	if (st->undocumented <= MAX_REPORTS)
		fprintf(stderr, "undocumented %s: %s %08" PRIx32
			" ours kind %u link %u cond %u target %08" PRIx32
			" | capstone %s%s id %u size %u pc %d call %d "
			"target %d:%08" PRIx32 " cc %d\n",
			mismatch_names[mm], s->isa == ARM ? "A32" : "T32",
			s->inst, s->ours.kind, s->ours.link,
			s->ours.conditional, s->ours.target,
			s->cs.valid ? "" : "INVALID ", s->cs.mnemonic,
			s->cs.id, s->cs.size, s->cs.pc_change, s->cs.call,
			s->cs.has_target, s->cs.target, s->cs.cc);
}

/* Compare one instruction; @code holds 4 bytes (2 used for 16-bit T32). */
static void compare_one(csh h, cs_insn *insn, enum pft_isa isa,
			const uint8_t *code, uint32_t addr,
			struct diff_stats *st)
{
	struct sample s;
	int size, ours_branch;

	memset(&s, 0, sizeof(s));
	s.isa = isa;
	size = pft_isa_classify(isa, addr, code, 4, 0, &s.ours);
	if (size < 0) {
		fprintf(stderr, "classify failed: %d\n", size);
		st->undocumented++;
		return;
	}
	s.inst = s.ours.opcode;
	cs_describe(h, insn, code, (size_t)size, addr, &s.cs);
	st->total++;
	ours_branch = s.ours.kind == PFT_WP_DIRECT ||
		      s.ours.kind == PFT_WP_INDIRECT;

	if (!s.cs.valid) {
		if (s.ours.kind == PFT_WP_NONE)
			st->cs_invalid_none++;
		else
			report(st, &s, MM_WP_INVALID);
		return;
	}
	if (s.cs.size != (unsigned)size) {
		report(st, &s, MM_SIZE);
		return;
	}
	if (isa == ARM && (s.ours.conditional !=
			   (s.cs.cc != ARM_CC_AL && s.cs.cc != ARM_CC_INVALID)))
		report(st, &s, MM_COND);
	if (s.cs.id == ARM_INS_IT &&
	    s.ours.it_count != strlen(s.cs.mnemonic) - 1)
		report(st, &s, MM_IT);
	else if (s.cs.id != ARM_INS_IT && s.ours.it_count)
		report(st, &s, MM_IT);

	if (s.ours.kind == PFT_WP_BARRIER) {
		if (s.cs.pc_change)
			report(st, &s, MM_PC_NOT_WP);
		else
			report(st, &s, MM_BARRIER);
		return;
	}
	if (ours_branch && !s.cs.pc_change) {
		report(st, &s, MM_WP_NOT_PC);
		return;
	}
	if (!ours_branch) {
		if (s.cs.pc_change)
			report(st, &s, MM_PC_NOT_WP);
		else
			st->agree_none++;
		return;
	}
	if ((s.ours.kind == PFT_WP_DIRECT) != s.cs.has_target) {
		report(st, &s, MM_DIRECTNESS);
		return;
	}
	if (s.cs.has_target && s.cs.target != s.ours.target) {
		report(st, &s, MM_TARGET);
		return;
	}
	if (s.cs.call != s.ours.link) {
		report(st, &s, MM_LINK);
		return;
	}
	st->agree_branch++;
}

/* splitmix64: deterministic, seedable, good enough to spread samples. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void put_a32(uint8_t *b, uint32_t op)
{
	b[0] = (uint8_t)op;
	b[1] = (uint8_t)(op >> 8);
	b[2] = (uint8_t)(op >> 16);
	b[3] = (uint8_t)(op >> 24);
}

static void put_t32(uint8_t *b, uint32_t hw1, uint32_t hw2)
{
	b[0] = (uint8_t)hw1;
	b[1] = (uint8_t)(hw1 >> 8);
	b[2] = (uint8_t)hw2;
	b[3] = (uint8_t)(hw2 >> 8);
}

static void print_stats(const char *what, const struct diff_stats *st)
{
	int i;

	printf("%s: %lu instructions: %lu agree (not waypoints), %lu agree "
	       "(branches), %lu capstone-invalid non-waypoints, "
	       "%lu undocumented\n", what, st->total, st->agree_none,
	       st->agree_branch, st->cs_invalid_none, st->undocumented);
	for (i = 0; i < MM_COUNT; i++)
		if (st->by_mismatch[i])
			printf("  undocumented %s: %lu\n", mismatch_names[i],
			       st->by_mismatch[i]);
}

enum {
	A32_SAMPLES = 3000000,
	T32_SAMPLES = 2000000
};

static void test_capstone(void)
{
	static const uint16_t second_halfwords[] = {
		0x0000, 0x8000, 0xf000, 0xffff, 0x8f00, 0xd000
	};
	struct diff_stats hand = { 0 }, a32 = { 0 }, t16 = { 0 }, t32 = { 0 };
	uint64_t rng = 0x5046545f495341ull;     /* fixed seed: "PFT_ISA" */
	csh arm_h, thumb_h;
	cs_insn *arm_insn, *thumb_insn;
	struct exception_class *e;
	uint8_t b[4];
	uint32_t hw1, i;
	size_t k;

	PTU_EQ(cs_open(CS_ARCH_ARM, CS_MODE_ARM, &arm_h), CS_ERR_OK);
	PTU_EQ(cs_open(CS_ARCH_ARM, CS_MODE_THUMB, &thumb_h), CS_ERR_OK);
	cs_option(arm_h, CS_OPT_DETAIL, CS_OPT_ON);
	cs_option(thumb_h, CS_OPT_DETAIL, CS_OPT_ON);
	arm_insn = cs_malloc(arm_h);
	thumb_insn = cs_malloc(thumb_h);

	/* The hand-written vectors, at their own addresses: capstone
	 * checks the hand-computed targets, and the rare classes (ISB,
	 * ENTERX, canonical RFE) are exercised. */
	for (k = 0; k < sizeof(vectors) / sizeof(vectors[0]); k++) {
		const struct vector *v = &vectors[k];

		if (v->isa == TEE)
			continue;
		memset(b, 0, sizeof(b));
		vector_bytes(v, b);
		compare_one(v->isa == ARM ? arm_h : thumb_h,
			    v->isa == ARM ? arm_insn : thumb_insn, v->isa, b,
			    v->addr, &hand);
	}
	/* Every first halfword; 32-bit prefixes with a few second ones. */
	for (hw1 = 0; hw1 <= 0xffff; hw1++) {
		for (k = 0; k < sizeof(second_halfwords) / 2; k++) {
			put_t32(b, hw1, second_halfwords[k]);
			compare_one(thumb_h, thumb_insn, THUMB, b, 0x10000, &t16);
			if (hw1 < 0xe800)
				break;
		}
	}
	/* Random A32 words; half of them with bits 15:12 = 1111 (Rd or Rt
	 * = PC), where most waypoints live. */
	for (i = 0; i < A32_SAMPLES; i++) {
		uint32_t op = (uint32_t)next_random(&rng);

		if (i & 1)
			op |= 0xf000;
		put_a32(b, op);
		compare_one(arm_h, arm_insn, ARM, b, 0x20000000, &a32);
	}
	/* Random 32-bit T32; a third with hw2[15:12] = 1111 (Rt = PC), a
	 * third with hw2[11:8] = 1111 (Rd = PC). */
	for (i = 0; i < T32_SAMPLES; i++) {
		uint64_t r = next_random(&rng);
		uint32_t hw2 = (uint32_t)r & 0xffff;

		hw1 = 0xe800 + (uint32_t)((r >> 16) % 0x1800);
		if (i % 3 == 1)
			hw2 |= 0xf000;
		else if (i % 3 == 2)
			hw2 |= 0x0f00;
		put_t32(b, hw1, hw2);
		compare_one(thumb_h, thumb_insn, THUMB, b, 0x30000002, &t32);
	}

	print_stats("hand-written vectors", &hand);
	print_stats("T32 16-bit sweep", &t16);
	print_stats("A32 random", &a32);
	print_stats("T32 32-bit random", &t32);
	printf("documented capstone differences:\n");
	for (e = exceptions; e->name; e++)
		printf("  %-28s %9lu  %s\n", e->name, e->count, e->why);
	PTU_EQ(hand.undocumented + a32.undocumented + t16.undocumented +
	       t32.undocumented, 0);
	/* The sweep and samples must have exercised real branches. */
	PTU_CHECK(t16.agree_branch > 1000);
	PTU_CHECK(a32.agree_branch > 100000);
	PTU_CHECK(t32.agree_branch > 10000);

	cs_free(arm_insn, 1);
	cs_free(thumb_insn, 1);
	cs_close(&arm_h);
	cs_close(&thumb_h);
}


int main(void)
{
	PTU_RUN(test_vectors);
	PTU_RUN(test_barrier_options);
	PTU_RUN(test_a32_conditions);
	PTU_RUN(test_t32_conditions);
	PTU_RUN(test_errors);
	PTU_RUN(test_thumbee_matches_thumb);
	PTU_RUN(test_capstone);
	PTU_MAIN_END();
}
