/*
 * Instruction classification for the flow decoder: which A32/T32
 * instructions the PTM treats as waypoints (shared/spec/pft-flow.md §4).
 *
 * The masks are the spec's tables; they describe what the PTM matches, so
 * UNPREDICTABLE encodings that fall under a mask are waypoints too.  Each
 * decoder dispatches on the top opcode bits first so that only the few
 * masks of one encoding group are tried per instruction.
 */
#include <string.h>

#include "image/pft_isa.h"

/* Bit @n of @v. */
#define BIT(v, n) (((v) >> (n)) & 1u)

/* Sign-extend the low @bits of @v; modular arithmetic, no UB. */
static uint32_t sign_extend(uint32_t v, unsigned bits)
{
	uint32_t sign = 1u << (bits - 1);

	return ((v & ((sign << 1) - 1)) ^ sign) - sign;
}

static void set_direct(struct pft_insn_class *c, uint32_t target,
		       enum pft_isa target_isa)
{
	c->kind = PFT_WP_DIRECT;
	c->target = target;
	c->target_isa = (uint8_t)target_isa;
}

/* ISB always; DMB/DSB only when the PTM is configured to trace them. */
static void set_barrier(struct pft_insn_class *c, int is_isb, unsigned flags)
{
	if (is_isb || (flags & PFT_ISA_DMB_DSB_WAYPOINTS))
		c->kind = PFT_WP_BARRIER;
}

/* ---- A32 ---- */

/* B, BL, BLX <imm>: PC + 8 + SignExtend(imm24:00) (+ H:0 for BLX). */
static uint32_t a32_branch_target(uint32_t op, uint32_t addr)
{
	return addr + 8 + sign_extend((op & 0x00ffffffu) << 2, 26);
}

/*
 * CP15 barrier forms (MCR p15, 0, Rt, c7, c5/c10, 4/5).  The spec's mask
 * ignores the condition field, so the MCR2 form (cond = 1111) matches too.
 */
static void a32_cp15_barrier(uint32_t op, unsigned flags,
			     struct pft_insn_class *c)
{
	switch (op & 0x0fff0fffu) {
	case 0x0e070f95u: set_barrier(c, 1, flags); break;   /* ISB */
	case 0x0e070fbau:                                   /* DMB */
	case 0x0e070f9au: set_barrier(c, 0, flags); break;   /* DSB */
	default: break;
	}
}

/* A data-processing instruction with S = 1 that writes the PC is an
 * exception return (SUBS PC, LR and relatives). */
static uint8_t a32_dp_reg_sets_flags(uint32_t op)
{
	int is_dp = (op & 0x90u) != 0x90u &&            /* not mult/extra ld/st */
		    (op & 0x01800000u) != 0x01000000u;  /* not TST..CMN/misc */

	return (uint8_t)(is_dp && BIT(op, 20));
}

/* op[27:25] = 000: data-processing (register), miscellaneous, multiply,
 * extra load/store. */
static void a32_group0(uint32_t op, struct pft_insn_class *c)
{
	if ((op & 0x0fffffffu) == 0x0160006eu) {        /* ERET */
		c->kind = PFT_WP_INDIRECT;
		c->exc_return = 1;
	} else if ((op & 0x0ff000d0u) == 0x01200010u) { /* BX, BLX Rm */
		c->kind = PFT_WP_INDIRECT;
		c->link = (uint8_t)BIT(op, 5);
		c->ret = (op & 0x0fffffffu) == 0x012fff1eu;   /* BX LR */
	} else if ((op & 0x0ff000f0u) == 0x01200020u) { /* BXJ */
		c->kind = PFT_WP_INDIRECT;
	} else if ((op & 0x0fe0f000u) == 0x01a0f000u) { /* MOV{S} PC, ... */
		c->kind = PFT_WP_INDIRECT;
		c->exc_return = a32_dp_reg_sets_flags(op);
		c->ret = (op & 0x0fffffffu) == 0x01a0f00eu;   /* MOV PC, LR */
	} else if ((op & 0x0f900080u) == 0x01000000u || /* miscellaneous */
		   (op & 0x0f9000f0u) == 0x01800090u) { /* LDREX/STREX.. */
		return;
	} else if ((op & 0x0000f000u) == 0x0000f000u) { /* Rd = PC */
		c->kind = PFT_WP_INDIRECT;
		c->exc_return = a32_dp_reg_sets_flags(op);
	}
}

/* op[27:25] = 001: data-processing (immediate), MOVW/MOVT, MSR, hints. */
static void a32_group1(uint32_t op, struct pft_insn_class *c)
{
	if ((op & 0x0000f000u) != 0x0000f000u ||
	    (op & 0x0f90f000u) == 0x0310f000u ||        /* TST/TEQ/CMP/CMN */
	    (op & 0x0fb0f000u) == 0x0320f000u)          /* MSR imm, hints */
		return;
	c->kind = PFT_WP_INDIRECT;
	c->exc_return = (uint8_t)BIT(op, 20);  /* S (MOVW/MOVT have 0) */
}

/* cond = 1111: the unconditional space has its own decoding; only BLX
 * <imm>, RFE and the barriers are waypoints in it. */
static void a32_unconditional(uint32_t op, uint32_t addr, unsigned flags,
			      struct pft_insn_class *c)
{
	switch ((op >> 25) & 7) {
	case 2:
		if ((op & 0xffffff00u) == 0xf57ff000u) {
			unsigned type = (op >> 4) & 0xf;

			if (type == 6)                  /* ISB */
				set_barrier(c, 1, flags);
			else if (type == 4 || type == 5) /* DSB, DMB */
				set_barrier(c, 0, flags);
		}
		break;
	case 4:
		if ((op & 0xfe500000u) == 0xf8100000u) { /* RFE */
			c->kind = PFT_WP_INDIRECT;
			c->exc_return = 1;
		}
		break;
	case 5:                                         /* BLX <imm> */
		set_direct(c, a32_branch_target(op, addr) + (BIT(op, 24) << 1),
			   PFT_ISA_THUMB);
		c->link = 1;
		break;
	case 7:
		a32_cp15_barrier(op, flags, c);
		break;
	default:
		break;
	}
}

static void classify_a32(uint32_t op, uint32_t addr, unsigned flags,
			 struct pft_insn_class *c)
{
	unsigned cond = op >> 28;

	c->opcode = op;
	c->size = 4;
	if (cond == 0xf) {
		a32_unconditional(op, addr, flags, c);
		return;
	}
	c->conditional = cond != 0xe;
	switch ((op >> 25) & 7) {
	case 0:
		a32_group0(op, c);
		break;
	case 1:
		a32_group1(op, c);
		break;
	case 2:                 /* LDR PC, imm/literal (not LDRB) */
		if ((op & 0x0050f000u) == 0x0010f000u) {
			c->kind = PFT_WP_INDIRECT;
			/* LDR PC, [SP], #4: POP {PC} */
			c->ret = (op & 0x0ffff000u) == 0x049df000u;
		}
		break;
	case 3:                 /* LDR PC, register (bit 4 = 1: media) */
		if ((op & 0x0050f010u) == 0x0010f000u)
			c->kind = PFT_WP_INDIRECT;
		break;
	case 4:                 /* LDM with PC in the list; ^ returns */
		if ((op & 0x00108000u) == 0x00108000u) {
			c->kind = PFT_WP_INDIRECT;
			c->exc_return = (uint8_t)BIT(op, 22);
			/* LDMIA SP!, {.., PC}: POP */
			c->ret = (op & 0x0fff8000u) == 0x08bd8000u;
		}
		break;
	case 5:                 /* B, BL */
		set_direct(c, a32_branch_target(op, addr), PFT_ISA_ARM);
		c->link = (uint8_t)BIT(op, 24);
		break;
	case 7:
		a32_cp15_barrier(op, flags, c);
		break;
	default:                /* 6: coprocessor load/store */
		break;
	}
}

/* ---- T32 ---- */

/* IT mask -> block length: the lowest set bit of the mask ends it. */
static const uint8_t it_block_length[16] = {
	0, 4, 3, 4, 2, 4, 3, 4, 1, 4, 3, 4, 2, 4, 3, 4
};

/* ThumbEE handler branches replace the 16-bit STM space (0xC000-0xC7FF):
 * HBP 11000000, HB/HBL 1100001L, HBLP 110001.  The target is TEEHBR +
 * handler * 32, a register, so they are indirect. */
static void thumbee_handler_branch(uint32_t hw1, struct pft_insn_class *c)
{
	if ((hw1 & 0xff00u) == 0xc000u) {               /* HBP */
		c->kind = PFT_WP_INDIRECT;
	} else if ((hw1 & 0xfe00u) == 0xc200u) {        /* HB, HBL */
		c->kind = PFT_WP_INDIRECT;
		c->link = (uint8_t)BIT(hw1, 8);
	} else if ((hw1 & 0xfc00u) == 0xc400u) {        /* HBLP */
		c->kind = PFT_WP_INDIRECT;
		c->link = 1;
	}
}

static void classify_t16(enum pft_isa isa, uint32_t hw1, uint32_t addr,
			 struct pft_insn_class *c)
{
	switch (hw1 >> 12) {
	case 0x4:
		if ((hw1 & 0xff00u) == 0x4700u) {       /* BX, BLX Rm */
			c->kind = PFT_WP_INDIRECT;
			c->link = (uint8_t)BIT(hw1, 7);
			c->ret = hw1 == 0x4770u;                /* BX LR */
		} else if ((hw1 & 0xfd87u) == 0x4487u) { /* ADD/MOV PC, Rm */
			c->kind = PFT_WP_INDIRECT;
		}
		break;
	case 0xb:
		if ((hw1 & 0xf500u) == 0xb100u) {       /* CBZ, CBNZ */
			uint32_t off = ((hw1 >> 3) & 0x1f) << 1 |
				       BIT(hw1, 9) << 6;

			set_direct(c, addr + 4 + off, isa);
			c->conditional = 1;
		} else if ((hw1 & 0xff00u) == 0xbd00u) { /* POP {.., PC} */
			c->kind = PFT_WP_INDIRECT;
			c->ret = 1;
		} else if ((hw1 & 0xff00u) == 0xbf00u) { /* IT (mask 0: hint) */
			c->it_count = it_block_length[hw1 & 0xf];
		}
		break;
	case 0xc:
		if (isa == PFT_ISA_THUMBEE)
			thumbee_handler_branch(hw1, c);
		break;
	case 0xd:                                       /* B<c> T1 */
		if (((hw1 >> 9) & 7) != 7) {            /* 111x: UDF, SVC */
			set_direct(c, addr + 4 +
				   sign_extend((hw1 & 0xff) << 1, 9), isa);
			c->conditional = 1;
		}
		break;
	case 0xe:                                       /* B T2 */
		set_direct(c, addr + 4 + sign_extend((hw1 & 0x7ff) << 1, 12),
			   isa);
		break;
	default:
		break;
	}
}

/* Barriers, ENTERX/LEAVEX, BXJ, SUBS PC, LR: the branch space with
 * hw2[14,12] = 00 and cond = 111x. */
static void t32_misc_control(uint32_t inst, uint32_t addr, unsigned flags,
			     struct pft_insn_class *c)
{
	if ((inst & 0xffffff00u) == 0xf3bf8f00u) {
		switch (inst & 0xffu) {
		case 0x1f: set_direct(c, addr + 4, PFT_ISA_THUMBEE); return;
		case 0x0f: set_direct(c, addr + 4, PFT_ISA_THUMB); return;
		default: break;                         /* ENTERX, LEAVEX */
		}
		switch ((inst >> 4) & 0xf) {
		case 6: set_barrier(c, 1, flags); break;        /* ISB */
		case 4:                                         /* DSB */
		case 5: set_barrier(c, 0, flags); break;        /* DMB */
		default: break;
		}
	} else if ((inst & 0xfff0d000u) == 0xf3c08000u) {       /* BXJ */
		c->kind = PFT_WP_INDIRECT;
	} else if ((inst & 0xfff0d000u) == 0xf3d08000u) {       /* SUBS PC,LR */
		c->kind = PFT_WP_INDIRECT;
		c->exc_return = 1;
	}
}

/* hw1[15:11] = 11110, hw2[15] = 1: branches and miscellaneous control. */
static void t32_branch(enum pft_isa isa, uint32_t inst, uint32_t addr,
		       unsigned flags, struct pft_insn_class *c)
{
	uint32_t s = BIT(inst, 26), j1 = BIT(inst, 13), j2 = BIT(inst, 11);
	uint32_t i1 = !(j1 ^ s), i2 = !(j2 ^ s);
	uint32_t high = s << 24 | i1 << 23 | i2 << 22 | ((inst >> 16) & 0x3ff) << 12;

	if (inst & 0x1000u) {                           /* B.W T4, BL */
		set_direct(c, addr + 4 + sign_extend(high | (inst & 0x7ff) << 1, 25),
			   isa);
		c->link = (uint8_t)BIT(inst, 14);
	} else if (inst & 0x4000u) {                    /* BLX <imm> T2 */
		if (inst & 1)                           /* H = 1: UNDEFINED */
			return;
		set_direct(c, ((addr + 4) & ~3u) +
			   sign_extend(high | (inst & 0x7fe) << 1, 25),
			   PFT_ISA_ARM);
		c->link = 1;
	} else if (((inst >> 23) & 7) != 7) {           /* B<c>.W T3 */
		uint32_t off = s << 20 | j2 << 19 | j1 << 18 |
			       ((inst >> 16) & 0x3f) << 12 | (inst & 0x7ff) << 1;

		set_direct(c, addr + 4 + sign_extend(off, 21), isa);
		c->conditional = 1;
	} else {
		t32_misc_control(inst, addr, flags, c);
	}
}

/* hw1[15:11] = 11101: load/store multiple and dual, table branch. */
static void t32_multiple(uint32_t inst, struct pft_insn_class *c)
{
	if ((inst & 0xffd00000u) == 0xe8100000u ||      /* RFEDB */
	    (inst & 0xffd00000u) == 0xe9900000u) {      /* RFEIA */
		c->kind = PFT_WP_INDIRECT;
		c->exc_return = 1;
	} else if ((inst & 0xfe508000u) == 0xe8108000u || /* LDM with PC */
		   (inst & 0xfff0ffe0u) == 0xe8d0f000u) { /* TBB, TBH */
		c->kind = PFT_WP_INDIRECT;
		c->ret = (inst & 0xffff8000u) == 0xe8bd8000u; /* POP.W */
	}
}

/* hw1[15:11] = 11111: single loads into PC. */
static void t32_load(uint32_t inst, struct pft_insn_class *c)
{
	if ((inst & 0xfff0f000u) == 0xf8d0f000u ||      /* [Rn, #imm12] */
	    (inst & 0xff7ff000u) == 0xf85ff000u ||      /* literal */
	    (inst & 0xfff0f800u) == 0xf850f800u ||      /* [Rn, #+-imm8]{!} */
	    (inst & 0xfff0ffc0u) == 0xf850f000u) {      /* [Rn, Rm, LSL #n] */
		c->kind = PFT_WP_INDIRECT;
		c->ret = inst == 0xf85dfb04u;           /* LDR PC, [SP], #4 */
	}
}

static int classify_t32(enum pft_isa isa, uint32_t addr, const uint8_t *code,
			size_t avail, unsigned flags, struct pft_insn_class *c)
{
	uint32_t hw1, inst;

	if (avail < 2)
		return -PFT_ERR_NOMAP;
	hw1 = (uint32_t)code[0] | (uint32_t)code[1] << 8;
	if (hw1 < 0xe800u) {
		memset(c, 0, sizeof(*c));
		c->opcode = hw1 << 16;
		c->size = 2;
		classify_t16(isa, hw1, addr, c);
		return 2;
	}
	if (avail < 4)
		return -PFT_ERR_NOMAP;
	inst = hw1 << 16 | (uint32_t)code[2] | (uint32_t)code[3] << 8;
	memset(c, 0, sizeof(*c));
	c->opcode = inst;
	c->size = 4;
	switch (hw1 >> 11) {
	case 0x1d:
		t32_multiple(inst, c);
		break;
	case 0x1e:
		if (inst & 0x8000u)
			t32_branch(isa, inst, addr, flags, c);
		break;
	default:
		t32_load(inst, c);
		break;
	}
	return 4;
}

int pft_isa_classify(enum pft_isa isa, uint32_t addr, const uint8_t *code,
		     size_t avail, unsigned flags, struct pft_insn_class *out)
{
	uint32_t op;

	if (!code || !out || (flags & ~(unsigned)PFT_ISA_FLAGS_ALL))
		return -PFT_ERR_INVALID;
	switch (isa) {
	case PFT_ISA_ARM:
		if (avail < 4)
			return -PFT_ERR_NOMAP;
		op = (uint32_t)code[0] | (uint32_t)code[1] << 8 |
		     (uint32_t)code[2] << 16 | (uint32_t)code[3] << 24;
		memset(out, 0, sizeof(*out));
		classify_a32(op, addr, flags, out);
		return 4;
	case PFT_ISA_THUMB:
	case PFT_ISA_THUMBEE:
		return classify_t32(isa, addr, code, avail, flags, out);
	case PFT_ISA_JAZELLE:
	case PFT_ISA_UNKNOWN:
		return -PFT_ERR_NOT_SUPPORTED;
	}
	return -PFT_ERR_INVALID;
}

enum pft_iclass pft_isa_iclass(const struct pft_insn_class *c)
{
	switch (c->kind) {
	case PFT_WP_DIRECT:
		return c->link ? PFT_ICLASS_CALL : PFT_ICLASS_JUMP;
	case PFT_WP_INDIRECT:
		if (c->exc_return)
			return PFT_ICLASS_EXC_RETURN;
		if (c->link)
			return PFT_ICLASS_INDIRECT_CALL;
		return c->ret ? PFT_ICLASS_RETURN : PFT_ICLASS_INDIRECT_JUMP;
	case PFT_WP_BARRIER:
		return PFT_ICLASS_BARRIER;
	default:
		return PFT_ICLASS_OTHER;
	}
}
