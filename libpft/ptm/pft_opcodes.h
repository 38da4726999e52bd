/* pft_opcodes.h - PFT packet header bytes and field bits (pft-protocol.md
 * section 2 and 5), shared by the encoder and the decoder. */
#ifndef PFT_OPCODES_H
#define PFT_OPCODES_H

enum pft_opcode {
	PFT_OP_ASYNC_ZERO = 0x00,     /* A-sync: >= 5 of these, then ... */
	PFT_OP_ASYNC_END = 0x80,      /* ... this */
	PFT_OP_ISYNC = 0x08,
	PFT_OP_TRIGGER = 0x0c,
	PFT_OP_VMID = 0x3c,
	PFT_OP_TIMESTAMP = 0x42,      /* | PFT_TS_CLOCK_CHANGE */
	PFT_OP_IGNORE = 0x66,
	PFT_OP_CONTEXTID = 0x6e,
	PFT_OP_WAYPOINT = 0x72,
	PFT_OP_EXCEPTION_RETURN = 0x76,
};

enum pft_opcode_bits {
	PFT_HDR_BRANCH = 0x01,        /* bit 0: a branch address packet */
	PFT_HDR_ATOM = 0x80,          /* bit 7 with bit 0 clear: an atom */
	PFT_TS_CLOCK_CHANGE = 0x04,   /* timestamp header R bit */
	PFT_CA_ATOM_N = 0x02,         /* cycle-accurate atom: N, not E */
	PFT_CC_MORE = 0x40,           /* cycle-accurate atom: count continues */
	PFT_CONTINUE = 0x80,          /* continuation bit of multi-byte fields */
};

enum { PFT_ASYNC_MIN_ZEROS = 5 };

#endif
