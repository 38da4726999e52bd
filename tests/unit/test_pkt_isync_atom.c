/*
 * Packet decoder: I-sync (pft-protocol.md 5.2, cycle counts 4.1) and atom
 * packets (5.3).  Expected values are worked out from the spec in the
 * comments; see pkt_check.h for how each vector is exercised.
 */
#include "pkt_check.h"

static struct pft_ptm_config plain, ca;

#define ISYNC(sz, a, i, r) \
	{ .type = PFT_PTM_PKT_ISYNC, .size = (sz), .addr = (a), .isa = (i), .reason = (r)

/* ---- I-sync ---- */

static void isync_cycle_counts(void)
{
	/* 4.1: CC0 = x C c3 c2 c1 c0 x x; CC1-CC3 = C + 7 bits; CC4 = 7 bits
	 * and always last.  I-sync CC0 has bit 7 = 1. */
	static const uint8_t s[] = {
		ASYNC6,
		/* 5.2: Thumb 0xC0018DDE trace-on, cc 03: CC0 1100_1100 ->
		 * C = 1, count 0011 = 3; CC1 3 -> 3 + 3*16 = 51. */
		0x08, 0xdf, 0x8d, 0x01, 0xc0, 0x21, 0xcc, 0x03,
		/* 5.2: Thumb 0xC00403E4, single CC byte 90 = 1001_0000 -> 4. */
		0x08, 0xe5, 0x03, 0x04, 0xc0, 0x21, 0x90,
		/* Periodic: never a cycle count even in CA; 84 is then a CA
		 * atom (E, count 1). */
		0x08, 0x83, 0x8d, 0x01, 0xc0, 0x01,
		0x84,
		/* Overflow, 3 CC bytes d4 b4 24: count[3:0] = 0101, [10:4] =
		 * 0x34, [17:11] = 0x24 -> 5 + 0x340 + 0x12000 = 0x12345. */
		0x08, 0x00, 0x10, 0x00, 0x00, 0x41, 0xd4, 0xb4, 0x24,
		/* Debug exit, 4 bytes fc de f9 2a: 0xF + 0x5E<<4 + 0x79<<11 +
		 * 0x2A<<18 = 0xF + 0x5E0 + 0x3C800 + 0xA80000 = 0xABCDEF. */
		0x08, 0x00, 0x10, 0x00, 0x00, 0x61, 0xfc, 0xde, 0xf9, 0x2a,
		/* 5 bytes f8 ff ff ff 7f: 0xE + 0x7F<<4 + 0x7F<<11 + 0x7F<<18
		 * + 0x7F<<25 = 0xFFFFFFFE. */
		0x08, 0x00, 0x10, 0x00, 0x00, 0x21, 0xf8, 0xff, 0xff, 0xff, 0x7f,
		/* 5 bytes c0 80 80 80 c0: CC4 bit 7 set but CC4 is the last
		 * byte whatever it holds; count 0x40<<25 = 0x80000000; 0c is
		 * then a trigger. */
		0x08, 0x00, 0x10, 0x00, 0x00, 0x21, 0xc0, 0x80, 0x80, 0x80, 0xc0,
		0x0c,
		/* CC0 bit 7 and bits 1:0 are ignored: 10 = 0001_0000 -> 4,
		 * 93 = 1001_0011 -> 4. */
		0x08, 0x00, 0x10, 0x00, 0x00, 0x21, 0x10,
		0x08, 0x00, 0x10, 0x00, 0x00, 0x21, 0x93,
		/* Count 0 (legal): 80. */
		0x08, 0x00, 0x10, 0x00, 0x00, 0x21, 0x80,
		0x0c
	};
	static const struct pft_ptm_packet e[] = {
		E_ASYNC(6),
		ISYNC(8, 0xC0018DDE, PFT_ISA_THUMB, PFT_ISYNC_TRACE_ON),
		  .has_cycles = 1, .cycles = 51 },
		ISYNC(7, 0xC00403E4, PFT_ISA_THUMB, PFT_ISYNC_TRACE_ON),
		  .has_cycles = 1, .cycles = 4 },
		ISYNC(6, 0xC0018D82, PFT_ISA_THUMB, PFT_ISYNC_PERIODIC) },
		{ .type = PFT_PTM_PKT_ATOM, .size = 1, .n_atoms = 1, .atoms = 1,
		  .has_cycles = 1, .cycles = 1 },
		ISYNC(9, 0x1000, PFT_ISA_ARM, PFT_ISYNC_OVERFLOW),
		  .has_cycles = 1, .cycles = 0x12345 },
		ISYNC(10, 0x1000, PFT_ISA_ARM, PFT_ISYNC_DEBUG_EXIT),
		  .has_cycles = 1, .cycles = 0xABCDEF },
		ISYNC(11, 0x1000, PFT_ISA_ARM, PFT_ISYNC_TRACE_ON),
		  .has_cycles = 1, .cycles = 0xFFFFFFFE },
		ISYNC(11, 0x1000, PFT_ISA_ARM, PFT_ISYNC_TRACE_ON),
		  .has_cycles = 1, .cycles = 0x80000000 },
		E_TRIGGER,
		ISYNC(7, 0x1000, PFT_ISA_ARM, PFT_ISYNC_TRACE_ON),
		  .has_cycles = 1, .cycles = 4 },
		ISYNC(7, 0x1000, PFT_ISA_ARM, PFT_ISYNC_TRACE_ON),
		  .has_cycles = 1, .cycles = 4 },
		ISYNC(7, 0x1000, PFT_ISA_ARM, PFT_ISYNC_TRACE_ON),
		  .has_cycles = 1, .cycles = 0 },
		E_TRIGGER
	};

	PC_CHECK(&ca, s, e);
}

static void isync_context_id(void)
{
	struct pft_ptm_config c1 = pc_cfg(0, 1, 1, 0), c2 = pc_cfg(0, 2, 1, 0),
			  c4 = pc_cfg(0, 4, 1, 0), c4ca = pc_cfg(1, 4, 1, 0);

	/* n = 1: context ID 2a after the info byte. */
	static const uint8_t s1[] = { ASYNC6, 0x08, 0x00, 0x10, 0x00, 0x00,
				      0x21, 0x2a, 0x0c };
	static const struct pft_ptm_packet e1[] = {
		E_ASYNC(6),
		ISYNC(7, 0x1000, PFT_ISA_ARM, PFT_ISYNC_TRACE_ON),
		  .has_ctxid = 1, .ctxid = 0x2a },
		E_TRIGGER
	};
	PC_CHECK(&c1, s1, e1);

	/* n = 2: 34 12 -> 0x1234 (little-endian). */
	static const uint8_t s2[] = { ASYNC6, 0x08, 0x00, 0x10, 0x00, 0x00,
				      0x01, 0x34, 0x12, 0x0c };
	static const struct pft_ptm_packet e2[] = {
		E_ASYNC(6),
		ISYNC(8, 0x1000, PFT_ISA_ARM, PFT_ISYNC_PERIODIC),
		  .has_ctxid = 1, .ctxid = 0x1234 },
		E_TRIGGER
	};
	PC_CHECK(&c2, s2, e2);

	/* n = 4, not CA: 78 56 34 12 -> 0x12345678. */
	static const uint8_t s4[] = { ASYNC6, 0x08, 0x83, 0x8d, 0x01, 0xc0,
				      0x21, 0x78, 0x56, 0x34, 0x12, 0x0c };
	static const struct pft_ptm_packet e4[] = {
		E_ASYNC(6),
		ISYNC(10, 0xC0018D82, PFT_ISA_THUMB, PFT_ISYNC_TRACE_ON),
		  .has_ctxid = 1, .ctxid = 0x12345678 },
		E_TRIGGER
	};
	PC_CHECK(&c4, s4, e4);

	/* 5.2 synthetic, n = 4 and CA: 08 00 80 00 80 21 84 78 56 34 12 =
	 * ARM @ 0x80008000, trace-on, CC 84 = 1, context ID 0x12345678;
	 * then a periodic one: no CC but the context ID (all reasons). */
	static const uint8_t s4ca[] = {
		ASYNC6,
		0x08, 0x00, 0x80, 0x00, 0x80, 0x21, 0x84, 0x78, 0x56, 0x34, 0x12,
		0x08, 0x00, 0x80, 0x00, 0x80, 0x01, 0xef, 0xbe, 0xad, 0xde,
		0x0c
	};
	static const struct pft_ptm_packet e4ca[] = {
		E_ASYNC(6),
		ISYNC(11, 0x80008000, PFT_ISA_ARM, PFT_ISYNC_TRACE_ON),
		  .has_cycles = 1, .cycles = 1, .has_ctxid = 1, .ctxid = 0x12345678 },
		ISYNC(10, 0x80008000, PFT_ISA_ARM, PFT_ISYNC_PERIODIC),
		  .has_ctxid = 1, .ctxid = 0xDEADBEEF },
		E_TRIGGER
	};
	PC_CHECK(&c4ca, s4ca, e4ca);
}

/* ---- atoms ---- */

/* Non-CA atom headers: the atoms, oldest first, read from the bit below
 * the marker (the highest set bit of [6:2]) down to bit 1; 0 = E (5.3).
 * The spec's examples 84 E, 86 N, 88 EE, 8a EN, 94 ENE, a8 ENEE, c2 EEEEN,
 * c8 EENEE, dc ENNNE, f0 NNEEE are rows of this table. */
static const struct {
	uint8_t h;
	const char *atoms;
} atom_table[62] = {
	{ 0x84, "E" }, { 0x86, "N" }, { 0x88, "EE" }, { 0x8A, "EN" }, { 0x8C, "NE" }, { 0x8E, "NN" },
	{ 0x90, "EEE" }, { 0x92, "EEN" }, { 0x94, "ENE" }, { 0x96, "ENN" }, { 0x98, "NEE" }, { 0x9A, "NEN" },
	{ 0x9C, "NNE" }, { 0x9E, "NNN" }, { 0xA0, "EEEE" }, { 0xA2, "EEEN" }, { 0xA4, "EENE" }, { 0xA6, "EENN" },
	{ 0xA8, "ENEE" }, { 0xAA, "ENEN" }, { 0xAC, "ENNE" }, { 0xAE, "ENNN" }, { 0xB0, "NEEE" }, { 0xB2, "NEEN" },
	{ 0xB4, "NENE" }, { 0xB6, "NENN" }, { 0xB8, "NNEE" }, { 0xBA, "NNEN" }, { 0xBC, "NNNE" }, { 0xBE, "NNNN" },
	{ 0xC0, "EEEEE" }, { 0xC2, "EEEEN" }, { 0xC4, "EEENE" }, { 0xC6, "EEENN" }, { 0xC8, "EENEE" }, { 0xCA, "EENEN" },
	{ 0xCC, "EENNE" }, { 0xCE, "EENNN" }, { 0xD0, "ENEEE" }, { 0xD2, "ENEEN" }, { 0xD4, "ENENE" }, { 0xD6, "ENENN" },
	{ 0xD8, "ENNEE" }, { 0xDA, "ENNEN" }, { 0xDC, "ENNNE" }, { 0xDE, "ENNNN" }, { 0xE0, "NEEEE" }, { 0xE2, "NEEEN" },
	{ 0xE4, "NEENE" }, { 0xE6, "NEENN" }, { 0xE8, "NENEE" }, { 0xEA, "NENEN" }, { 0xEC, "NENNE" }, { 0xEE, "NENNN" },
	{ 0xF0, "NNEEE" }, { 0xF2, "NNEEN" }, { 0xF4, "NNENE" }, { 0xF6, "NNENN" }, { 0xF8, "NNNEE" }, { 0xFA, "NNNEN" },
	{ 0xFC, "NNNNE" }, { 0xFE, "NNNNN" },
};

static void atoms_every_non_ca_header(void)
{
	uint8_t s[6 + 62 + 1] = { ASYNC6 };
	struct pft_ptm_packet e[64];

	memset(e, 0, sizeof(e));
	e[0].type = PFT_PTM_PKT_ASYNC;
	e[0].size = 6;
	for (size_t i = 0; i < 62; i++) {
		const char *a = atom_table[i].atoms;
		uint8_t bits = 0;

		PTU_EQ(atom_table[i].h, 0x84 + 2 * i); /* every header once */
		s[6 + i] = atom_table[i].h;
		/* pft.h: bit i of @atoms is atom i, oldest first, 1 = E. */
		for (size_t j = 0; a[j]; j++)
			if (a[j] == 'E')
				bits |= (uint8_t)(1u << j);
		e[1 + i].type = PFT_PTM_PKT_ATOM;
		e[1 + i].size = 1;
		e[1 + i].n_atoms = (uint8_t)strlen(a);
		e[1 + i].atoms = bits;
	}
	s[6 + 62] = 0x0c;
	e[63].type = PFT_PTM_PKT_TRIGGER;
	e[63].size = 1;
	pc_check_stream(__FILE__, __LINE__, &plain, s, sizeof(s), e, 64);
}

static void atoms_without_marker_invalid(void)
{
	/* 5.3/A2/5.12: 0x80 and 0x82 have no marker outside CA mode: an
	 * error, then NOTSYNC (84 not decoded) up to the next A-sync. */
	static const uint8_t s80[] = { ASYNC6, 0x80, 0x84, ASYNC6, 0x86 };
	static const uint8_t s82[] = { ASYNC6, 0x82, 0x84, ASYNC6, 0x86 };
	static const struct pft_ptm_packet e[] = {
		E_ASYNC(6), E_BAD(PFT_ERR_PKT_ATOM_NO_MARKER, 2), E_ASYNC(6),
		{ .type = PFT_PTM_PKT_ATOM, .size = 1, .n_atoms = 1, .atoms = 0 }
	};

	/* Core runs only: the status (BAD_OPCODE) is a reading of 5.12. */
	pc_check_stream_opt(__FILE__, __LINE__, &plain, s80, sizeof(s80), e, 4,
			    PC_OPT_CORE_ONLY);
	pc_check_stream_opt(__FILE__, __LINE__, &plain, s82, sizeof(s82), e, 4,
			    PC_OPT_CORE_ONLY);
}

static void atoms_cycle_accurate(void)
{
	/* 5.3 CA: byte 0 = 1 C c3 c2 c1 c0 F 0 (F = 0 -> E), then C + 7
	 * count bits per byte, at most 5 bytes. */
	static const uint8_t s[] = {
		ASYNC6,
		0x80,                   /* E, 0 (valid in CA) */
		0x82,                   /* N, 0 */
		0x84,                   /* E, 1 */
		0x86,                   /* N, 1 */
		0xbc,                   /* 1011_1100: E, 15 */
		0xbe,                   /* 1011_1110: N, 15 */
		0xe8, 0x20,             /* E, 10 + 32*16 = 522 */
		0xde, 0x01,             /* N, 7 + 16 = 23 */
		0xd4, 0xb4, 0x24,       /* E, 5 + 0x34<<4 + 0x24<<11 = 0x12345 */
		0xd6, 0xb4, 0x24,       /* N, 0x12345 */
		0xfc, 0xde, 0xf9, 0x2a, /* E, 0xF + 0x5E<<4 + 0x79<<11 + 0x2A<<18 = 0xABCDEF */
		0xfe, 0xde, 0xf9, 0x2a, /* N, 0xABCDEF */
		0xfc, 0xff, 0xff, 0xff, 0x7f, /* E, all ones: 0xFFFFFFFF (overflow) */
		0xc2, 0x80, 0x80, 0x80, 0xc0, /* N, 0x40<<25 = 0x80000000; 5th byte is last */
		0xc0, 0x00,             /* E, continuation to a zero byte: 0 */
		0x0c
	};
#define CA_ATOM(sz, e_, c) \
	{ .type = PFT_PTM_PKT_ATOM, .size = (sz), .n_atoms = 1, .atoms = (e_), \
	  .has_cycles = 1, .cycles = (c) }
	static const struct pft_ptm_packet e[] = {
		E_ASYNC(6),
		CA_ATOM(1, 1, 0), CA_ATOM(1, 0, 0), CA_ATOM(1, 1, 1),
		CA_ATOM(1, 0, 1), CA_ATOM(1, 1, 15), CA_ATOM(1, 0, 15),
		CA_ATOM(2, 1, 522), CA_ATOM(2, 0, 23),
		CA_ATOM(3, 1, 0x12345), CA_ATOM(3, 0, 0x12345),
		CA_ATOM(4, 1, 0xABCDEF), CA_ATOM(4, 0, 0xABCDEF),
		CA_ATOM(5, 1, 0xFFFFFFFF), CA_ATOM(5, 0, 0x80000000),
		CA_ATOM(2, 1, 0),
		E_TRIGGER
	};
#undef CA_ATOM

	PC_CHECK(&ca, s, e);
}

int main(void)
{
	plain = pc_cfg(0, 0, 1, 0);
	ca = pc_cfg(1, 0, 1, 0);

	PTU_RUN(isync_cycle_counts);
	PTU_RUN(isync_context_id);
	PTU_RUN(atoms_every_non_ca_header);
	PTU_RUN(atoms_without_marker_invalid);
	PTU_RUN(atoms_cycle_accurate);
	PC_CATEGORY_TESTS();
	PTU_MAIN_END();
}
