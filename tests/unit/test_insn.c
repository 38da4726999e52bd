/* Public instruction decoding (pft_insn_decode) and range iteration
 * (pft_insn_iter_*): sizes, classes and targets of hand-assembled A32 and
 * T32 encodings (ARM ARM encodings, checked with arm-linux-gnueabihf-as). */
#include "ptunit.h"

#include "pft.h"

static int iclass_of(enum pft_isa isa, const uint8_t *code, size_t len)
{
	struct pft_insn insn;
	int n = pft_insn_decode(isa, 0x8000, code, len, &insn, sizeof(insn));

	return n < 0 ? -1 : insn.iclass;
}

#define A32(w) (const uint8_t[]){ (w) & 0xff, ((w) >> 8) & 0xff, ((w) >> 16) & 0xff, (w) >> 24 }
#define T16(h) (const uint8_t[]){ (h) & 0xff, (h) >> 8 }
#define T32(h1, h2) (const uint8_t[]){ (h1) & 0xff, (h1) >> 8, (h2) & 0xff, (h2) >> 8 }

static void insn_a32_classes(void)
{
	PTU_EQ(iclass_of(PFT_ISA_ARM, A32(0xe3a00001u), 4), PFT_ICLASS_OTHER);   /* mov r0, #1 */
	PTU_EQ(iclass_of(PFT_ISA_ARM, A32(0xeb000010u), 4), PFT_ICLASS_CALL);    /* bl */
	PTU_EQ(iclass_of(PFT_ISA_ARM, A32(0xea000010u), 4), PFT_ICLASS_JUMP);    /* b */
	PTU_EQ(iclass_of(PFT_ISA_ARM, A32(0xfa000010u), 4), PFT_ICLASS_CALL);    /* blx imm */
	PTU_EQ(iclass_of(PFT_ISA_ARM, A32(0xe12fff33u), 4), PFT_ICLASS_INDIRECT_CALL); /* blx r3 */
	PTU_EQ(iclass_of(PFT_ISA_ARM, A32(0xe12fff1eu), 4), PFT_ICLASS_RETURN);  /* bx lr */
	PTU_EQ(iclass_of(PFT_ISA_ARM, A32(0x012fff1eu), 4), PFT_ICLASS_RETURN);  /* bxeq lr */
	PTU_EQ(iclass_of(PFT_ISA_ARM, A32(0xe12fff13u), 4), PFT_ICLASS_INDIRECT_JUMP); /* bx r3 */
	PTU_EQ(iclass_of(PFT_ISA_ARM, A32(0xe1a0f00eu), 4), PFT_ICLASS_RETURN);  /* mov pc, lr */
	PTU_EQ(iclass_of(PFT_ISA_ARM, A32(0xe8bd8010u), 4), PFT_ICLASS_RETURN);  /* pop {r4, pc} */
	PTU_EQ(iclass_of(PFT_ISA_ARM, A32(0xe49df004u), 4), PFT_ICLASS_RETURN);  /* pop {pc} (ldr) */
	PTU_EQ(iclass_of(PFT_ISA_ARM, A32(0xe8908010u), 4), PFT_ICLASS_INDIRECT_JUMP); /* ldm r0, {r4, pc} */
	PTU_EQ(iclass_of(PFT_ISA_ARM, A32(0xe590f000u), 4), PFT_ICLASS_INDIRECT_JUMP); /* ldr pc, [r0] */
	PTU_EQ(iclass_of(PFT_ISA_ARM, A32(0xe25ef004u), 4), PFT_ICLASS_EXC_RETURN); /* subs pc, lr, #4 */
	PTU_EQ(iclass_of(PFT_ISA_ARM, A32(0xe160006eu), 4), PFT_ICLASS_EXC_RETURN); /* eret */
	PTU_EQ(iclass_of(PFT_ISA_ARM, A32(0xf57ff06fu), 4), PFT_ICLASS_BARRIER); /* isb */
	PTU_EQ(iclass_of(PFT_ISA_ARM, A32(0xf57ff05fu), 4), PFT_ICLASS_OTHER);   /* dmb: no waypoint by default */
	PTU_EQ(iclass_of(PFT_ISA_ARM, A32(0xe3a00001u), 3), -1);                 /* too short */
}

static void insn_t32_classes(void)
{
	PTU_EQ(iclass_of(PFT_ISA_THUMB, T16(0x4770u), 2), PFT_ICLASS_RETURN);   /* bx lr */
	PTU_EQ(iclass_of(PFT_ISA_THUMB, T16(0x4718u), 2), PFT_ICLASS_INDIRECT_JUMP); /* bx r3 */
	PTU_EQ(iclass_of(PFT_ISA_THUMB, T16(0x4798u), 2), PFT_ICLASS_INDIRECT_CALL); /* blx r3 */
	PTU_EQ(iclass_of(PFT_ISA_THUMB, T16(0xbd10u), 2), PFT_ICLASS_RETURN);   /* pop {r4, pc} */
	PTU_EQ(iclass_of(PFT_ISA_THUMB, T16(0xe7feu), 2), PFT_ICLASS_JUMP);     /* b . */
	PTU_EQ(iclass_of(PFT_ISA_THUMB, T16(0x2001u), 2), PFT_ICLASS_OTHER);    /* movs r0, #1 */
	PTU_EQ(iclass_of(PFT_ISA_THUMB, T32(0xf000u, 0xf800u), 4), PFT_ICLASS_CALL); /* bl */
	PTU_EQ(iclass_of(PFT_ISA_THUMB, T32(0xe8bdu, 0x8010u), 4), PFT_ICLASS_RETURN); /* pop.w {r4, pc} */
	PTU_EQ(iclass_of(PFT_ISA_THUMB, T32(0xf85du, 0xfb04u), 4), PFT_ICLASS_RETURN); /* ldr.w pc, [sp], #4 */
	PTU_EQ(iclass_of(PFT_ISA_THUMB, T32(0xe8d0u, 0xf000u), 4), PFT_ICLASS_INDIRECT_JUMP); /* tbb [r0, r0] */
	PTU_EQ(iclass_of(PFT_ISA_THUMB, T32(0xf000u, 0xf800u), 2), -1);          /* half of it */
	PTU_EQ(iclass_of(PFT_ISA_JAZELLE, T16(0x2001u), 2), -1);
}

static void insn_decode_fields(void)
{
	struct pft_insn insn;

	/* bl from 0x8000 to 0x8048 (imm24 = 0x10: 8 + 0x40) */
	PTU_EQ(pft_insn_decode(PFT_ISA_ARM, 0x8000, A32(0xeb000010u), 4, &insn, sizeof(insn)), 4);
	PTU_EQ(insn.addr, 0x8000);
	PTU_EQ(insn.size, 4);
	PTU_EQ(insn.target, 0x8048);
	PTU_EQ(insn.target_isa, PFT_ISA_ARM);
	PTU_EQ(insn.conditional, 0);
	PTU_EQ(insn.raw[3], 0xeb);
	/* beq: conditional */
	PTU_EQ(pft_insn_decode(PFT_ISA_ARM, 0x8000, A32(0x0a000000u), 4, &insn, sizeof(insn)), 4);
	PTU_EQ(insn.conditional, 1);
	PTU_EQ(insn.iclass, PFT_ICLASS_JUMP);
	PTU_EQ(pft_insn_decode(PFT_ISA_ARM, 0, NULL, 4, &insn, sizeof(insn)), -PFT_ERR_INVALID);
	PTU_EQ(pft_insn_decode(PFT_ISA_ARM, 0, A32(0u), 4, &insn, 4), -PFT_ERR_INVALID);
	PTU_STREQ(pft_iclass_name(PFT_ICLASS_INDIRECT_CALL), "indirect_call");
	PTU_STREQ(pft_iclass_name(99), "unknown");
}

/* A Thumb range of mixed sizes, read from the space the range names. */
static void insn_iter_walks_range(void)
{
	static const uint8_t secure[] = { 0x01, 0x20, 0x00, 0xf0, 0x00, 0xf8, 0x70, 0x47 };
	static const uint8_t nonsec[] = { 0x00, 0xbf, 0x00, 0xbf, 0x00, 0xbf, 0x00, 0xbf };
	struct pft_image *img = pft_image_alloc(NULL);
	struct pft_elem r = { .type = PFT_ELEM_RANGE, .start = 0x100, .end = 0x108,
			      .last = 0x106, .ninsn = 3, .isa = PFT_ISA_THUMB,
			      .space = PFT_SPACE_SECURE };
	struct pft_insn_iter it;
	struct pft_insn insn;

	PTU_CHECK(pft_image_add_buffer(img, 0x100, secure, sizeof(secure), PFT_SPACE_SECURE, 0) >= 0);
	PTU_CHECK(pft_image_add_buffer(img, 0x100, nonsec, sizeof(nonsec), PFT_SPACE_NONSECURE, 0) >= 0);
	PTU_EQ(pft_insn_iter_init(&it, img, &r), 0);
	PTU_EQ(pft_insn_iter_next(&it, &insn, sizeof(insn)), 1);
	PTU_EQ(insn.addr, 0x100);
	PTU_EQ(insn.size, 2);
	PTU_EQ(insn.space, PFT_SPACE_SECURE);
	PTU_EQ(pft_insn_iter_next(&it, &insn, sizeof(insn)), 1);
	PTU_EQ(insn.addr, 0x102);
	PTU_EQ(insn.size, 4);
	PTU_EQ(insn.iclass, PFT_ICLASS_CALL);
	PTU_EQ(pft_insn_iter_next(&it, &insn, sizeof(insn)), 1);
	PTU_EQ(insn.addr, 0x106);
	PTU_EQ(insn.iclass, PFT_ICLASS_RETURN);
	PTU_EQ(pft_insn_iter_next(&it, &insn, sizeof(insn)), 0);

	/* The Non-secure copy holds NOPs. */
	r.space = PFT_SPACE_NONSECURE;
	r.ninsn = 4;
	PTU_EQ(pft_insn_iter_init(&it, img, &r), 0);
	for (int i = 0; i < 4; i++) {
		PTU_EQ(pft_insn_iter_next(&it, &insn, sizeof(insn)), 1);
		PTU_EQ(insn.raw[1], 0xbf);
	}
	/* Past the image: NOMAP. */
	r.start = 0x106;
	r.ninsn = 2;
	PTU_EQ(pft_insn_iter_init(&it, img, &r), 0);
	PTU_EQ(pft_insn_iter_next(&it, &insn, sizeof(insn)), 1);
	PTU_EQ(pft_insn_iter_next(&it, &insn, sizeof(insn)), -PFT_ERR_NOMAP);
	r.type = PFT_ELEM_TIMESTAMP;
	PTU_EQ(pft_insn_iter_init(&it, img, &r), -PFT_ERR_INVALID);
	pft_image_free(img);
}

int main(void)
{
	PTU_RUN(insn_a32_classes);
	PTU_RUN(insn_t32_classes);
	PTU_RUN(insn_decode_fields);
	PTU_RUN(insn_iter_walks_range);
	PTU_MAIN_END();
}
