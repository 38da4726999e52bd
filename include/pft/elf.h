/*
 * pft/elf.h - ELF files and symbol listings (System.map, kallsyms) added to an
 * image: pft_image_add_elf(), pft_image_add_elf_beneath(),
 * pft_image_add_symbols().  They read ELF through libelf, so they are in
 * libpft-io, not libpft.
 *
 * Link with libpft-io (pkg-config libpft-io), which needs libelf,
 * libdw and threads.  <pft.h> includes every header;
 * its head comment gives the conventions and the prefixes.
 */
#ifndef PFT_PUBLIC_ELF_H
#define PFT_PUBLIC_ELF_H

#include "pft/image.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Add a 32-bit little-endian ARM ELF file (ET_EXEC or ET_DYN): the
 * file-backed bytes (p_filesz) of each PT_LOAD segment, at p_vaddr + @bias
 * in space ANY, and its symbols (.symtab, or .dynsym without it; values
 * also moved by @bias).  Bytes between p_filesz and p_memsz (.bss) are not
 * added.  All or nothing: on failure the image is unchanged.  Returns the
 * number of loadable segments (>= 1), or:
 *   -PFT_ERR_INVALID       NULL @img or @path; @bias moves a segment out
 *                          of 0 .. 0xFFFFFFFF
 *   -PFT_ERR_BAD_FILE      unreadable or empty file, not ELF, or malformed
 *                          ELF: truncated headers, program or section
 *                          header table outside the file, a segment outside
 *                          the file or past 0xFFFFFFFF, segments
 *                          overlapping each other, no loadable bytes, a
 *                          broken symbol or string table
 *   -PFT_ERR_NOT_SUPPORTED an ELF that is not 32-bit, little-endian, ARM
 *                          (e_machine 40), ET_EXEC or ET_DYN
 *   -PFT_ERR_BAD_CONFIG    a segment overlaps other bytes in a section
 *                          already there (the same bytes are the same
 *                          image: pft/image.h "Overlaps"; see
 *                          pft_image_conflict())
 *   -PFT_ERR_NOMEM
 *   -PFT_ERR_INTERNAL      libelf refused to initialise
 * The whole file is read into memory while loading; the image keeps only
 * the segment bytes and the string table.
 */
pft_export int pft_image_add_elf(struct pft_image *img, const char *path,
				 int64_t bias);

/* What pft_image_add_elf_beneath() found where the image had bytes. */
struct pft_image_overlap {
	uint64_t covered;          /* ELF bytes left out: the image had some */
	uint64_t differ;           /* of those, bytes that differ */
	uint32_t first_differ;     /* the lowest such address (@differ > 0) */
	uint32_t reserved;         /* 0 */
};

/*
 * Add an ELF as pft_image_add_elf() does, except that where the image has
 * bytes already (a section of any space, such as a memory dump of the
 * running program, which may have patched its code), those are kept: the
 * ELF's segments fill only the addresses nothing covers, and the bytes they
 * would have put elsewhere are compared with the ones there, the result in
 * *@ov (@size = sizeof *@ov).  The symbols are added as usual.  Returns the
 * number of sections added (0 when the image covered every segment), or
 * the codes of pft_image_add_elf() (never -PFT_ERR_BAD_CONFIG), or
 * -PFT_ERR_INVALID for a NULL @ov or @size 0.
 */
pft_export int pft_image_add_elf_beneath(struct pft_image *img, const char *path,
					 int64_t bias, struct pft_image_overlap *ov,
					 size_t size);

/*
 * Add only the symbols of @path, moved by @bias; its bytes are not code.
 * @path is an ELF file (by its magic: the symbols pft_image_add_elf()
 * takes, with the ISA of its mapping symbols) or a symbol listing: a
 * System.map or /proc/kallsyms, lines "ADDR TYPE NAME" with an optional
 * "\t[module]" after the name.  Of a listing, the code symbols (types t, T,
 * w, W; ranked global T, weak W/w, local t; bit 0 of an address, a Thumb
 * function's, is cleared) are names; each reaches the next listed address
 * (of any type) above its own, the last one 4 bytes.  Other types end the
 * code symbol before them and are not names; ARM mapping symbols ($a, $t,
 * $d) are neither; addresses that do not fit 32 bits after @bias are left
 * out.  Bounds (the file may be hostile): a line of 4096 bytes at most, at
 * most 4 194 304 listed symbols; memory does not grow with the file past
 * that.  Returns the number of symbols added (0: the file names no code),
 * or:
 *   -PFT_ERR_INVALID   NULL @img or @path, @bias beyond 32 bits
 *   -PFT_ERR_BAD_FILE  cannot be opened or read, not a regular file; a
 *                      listing with a line that is not "ADDR TYPE NAME
 *                      [module]" (binary data, a line too long), too many
 *                      symbols, or every address 0 (kallsyms read without
 *                      the right to see addresses); a malformed ELF
 *   -PFT_ERR_NOT_SUPPORTED  an ELF that is not 32-bit little-endian ARM
 *   -PFT_ERR_NOMEM
 * On failure the image's symbols are unchanged.  Of a listing that is
 * refused, *@d (when not NULL) names the file and the line at fault
 * (its code stays 0 for an ELF: the code says what was wrong).
 */
pft_export int pft_image_add_symbols(struct pft_image *img, const char *path,
				     int64_t bias, struct pft_diag *d);

#ifdef __cplusplus
}
#endif

#endif /* PFT_PUBLIC_ELF_H */
