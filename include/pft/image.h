/*
 * pft/image.h - program memory for the flow decoders: sections from buffers and
 * files, a read callback, symbols, instruction sets (pft_image_).  ELF files
 * are added with pft/elf.h (libpft-io).
 *
 * Link with libpft (pkg-config libpft).  <pft.h> includes every header;
 * its head comment gives the conventions and the prefixes.
 */
#ifndef PFT_PUBLIC_IMAGE_H
#define PFT_PUBLIC_IMAGE_H

#include "pft/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================
 * Image: program memory
 * ====================================================================== */

/* ---- Section: image (pft_image_) ---- */

/*
 * An image is the program memory a flow decoder reads instructions from:
 * sections of bytes at 32-bit virtual addresses, each in a memory space,
 * plus the symbols of ELF files for listings.
 *
 * Memory spaces.  PTM trace tells the security state (NS bit), and code at
 * one address may differ between the Secure and Non-secure worlds.  A
 * section of space ANY serves every request; a SECURE or NONSECURE section
 * serves requests for its own space and requests for ANY.  Snapshot
 * [dump] spaces map as: S, EL1S, EL2S, EL3 -> SECURE; N, EL1N, EL2 ->
 * NONSECURE; ANY (or none) -> ANY.
 *
 * Overlaps.  Within one space sections never overlap: an add that would
 * make two sections of the same space, or an ANY section and any other
 * section, share an address fails with -PFT_ERR_BAD_CONFIG and changes
 * nothing; pft_image_conflict() then names the section in the way.  A
 * SECURE and a NONSECURE section may cover the same addresses; a request
 * for ANY there gets the SECURE one.  The same bytes at the same address
 * are the same image (one file given twice, two cores' dumps of one
 * memory, a dump of an ELF's code): where every section an add meets holds
 * the same bytes and serves every request the new one would (its own
 * space, or ANY), the add succeeds and only the addresses nothing covered
 * yet are added (an ELF file added again adds no symbols either).
 *
 * Threads.  pft_image_read() and pft_image_map() keep a last-hit cache and
 * a scratch buffer inside the image, so one image must not be used by two
 * threads at once.  The const functions may run concurrently.
 */
enum pft_mem_space {
	PFT_SPACE_ANY = 0,
	PFT_SPACE_SECURE,
	PFT_SPACE_NONSECURE
};

enum pft_image_flags {
	/* pft_image_add_buffer(): copy the bytes (otherwise the buffer is
	 * borrowed and must outlive the image, unchanged). */
	PFT_IMAGE_COPY = 1 << 0
};

struct pft_image;

/* Returns NULL on failure with *@errcode (if not NULL) set to
 * -PFT_ERR_NOMEM; on success *@errcode is 0. */
pft_export struct pft_image *pft_image_alloc(int *errcode);

/* Frees the image, its copies of files and buffers, and its symbols.
 * Borrowed buffers are not touched.  NULL is a no-op. */
pft_export void pft_image_free(struct pft_image *img);

/*
 * Add @len bytes at @buf as memory at @vaddr .. @vaddr + @len - 1 in
 * @space.  @flags: 0 or PFT_IMAGE_COPY.  Returns the new section's index
 * (for pft_image_section(); when every byte was there already, the same,
 * the index of the section holding the first), or:
 *   -PFT_ERR_INVALID     NULL @img or @buf, @len 0, the section would pass
 *                        0xFFFFFFFF, bad @space or unknown @flags
 *   -PFT_ERR_BAD_CONFIG  it overlaps other bytes in a section of the same
 *                        space (see "Overlaps", pft_image_conflict())
 *   -PFT_ERR_NOMEM
 */
pft_export int pft_image_add_buffer(struct pft_image *img, uint32_t vaddr,
				    const uint8_t *buf, size_t len,
				    enum pft_mem_space space, unsigned flags);

/*
 * Add @size bytes of the regular file @path, from @file_offset, at @vaddr
 * in @space (a snapshot [dump]).  @size 0 means up to the end of the file.
 * The bytes are read once, now.  Returns the new section's index (as
 * pft_image_add_buffer()), or:
 *   -PFT_ERR_INVALID     NULL @img or @path, bad @space, or the section
 *                        would pass 0xFFFFFFFF
 *   -PFT_ERR_BAD_FILE    the file cannot be opened or read, is not a
 *                        regular file, or has no byte at @file_offset, or
 *                        fewer than @size bytes from there (an empty file
 *                        fails this way too)
 *   -PFT_ERR_BAD_CONFIG  it overlaps other bytes in a section of the same
 *                        space (see "Overlaps")
 *   -PFT_ERR_NOMEM
 */
pft_export int pft_image_add_file(struct pft_image *img, const char *path,
				  uint64_t file_offset, uint64_t size,
				  uint32_t vaddr, enum pft_mem_space space);

/*
 * Install a memory-read callback for addresses no section covers (as
 * libipt's read_memory_callback_t), or with NULL @read remove it.  @read
 * may fill up to @len bytes at @buf with the memory at @addr in @space and
 * returns how many (values above @len count as @len), or <= 0 when it has
 * nothing there.  @len never reaches into a section that would serve the
 * request.  @ctx is passed through.  Returns 0 or -PFT_ERR_INVALID (NULL
 * @img).
 */
pft_export int pft_image_set_callback(struct pft_image *img,
				      int (*read)(uint8_t *buf, size_t len,
						  uint32_t addr,
						  enum pft_mem_space space,
						  void *ctx),
				      void *ctx);

/*
 * Copy up to @len bytes of memory at @addr in @space to @buf.  The read
 * continues through adjacent sections and callback memory and stops at the
 * first address that nothing serves.  Returns the number of bytes copied
 * (1 .. min(@len, INT_MAX)), or:
 *   -PFT_ERR_NOMAP    nothing serves @addr
 *   -PFT_ERR_INVALID  NULL @img or @buf, @len 0, bad @space
 */
pft_export int pft_image_read(struct pft_image *img, uint32_t addr,
			      enum pft_mem_space space, uint8_t *buf,
			      size_t len);

/*
 * The bytes at @addr in @space without copying: *@ptr points at @addr's
 * byte and the return value (1 .. INT_MAX) says how many contiguous bytes
 * follow there, up to the end of one section (the next section, even if
 * adjacent, needs another call; pft_image_read() joins them).  *@ptr
 * stays valid while the image lives, except for callback memory, which is
 * in a scratch buffer valid until the next pft_image_read()/map() call.
 * Returns -PFT_ERR_NOMAP (nothing serves @addr) or -PFT_ERR_INVALID (NULL
 * @img or @ptr, bad @space).
 */
pft_export int pft_image_map(struct pft_image *img, uint32_t addr,
			     enum pft_mem_space space, const uint8_t **ptr);

/* Where a section's bytes came from, for messages. */
struct pft_image_section_info {
	uint32_t vaddr;            /* first address */
	uint64_t length;           /* bytes (1 .. 2^32) */
	enum pft_mem_space space;
	const char *path;          /* the file (as given), NULL for buffers;
				      valid while the image lives */
	uint64_t file_offset;      /* offset of the first byte in @path */
	int elf_segment;           /* program header index, -1 if not ELF */
};

/*
 * Section @index (0 = the first added; sections are numbered in the order
 * they were added).  @size = sizeof *@info.  Returns 0, -PFT_ERR_EOS
 * (@index is past the last section) or -PFT_ERR_INVALID (NULL @img or
 * @info, @size 0).
 */
pft_export int pft_image_section(const struct pft_image *img, size_t index,
				 struct pft_image_section_info *info,
				 size_t size);

/*
 * After an add failed with -PFT_ERR_BAD_CONFIG: the index of the section
 * that was in the way in *@index and the lowest address both cover in
 * *@addr (of several in the way, the one that starts meeting first).
 * Returns 0, -PFT_ERR_NOT_FOUND (the last add on @img did not fail because of
 * an overlap) or -PFT_ERR_INVALID (NULL argument).
 */
pft_export int pft_image_conflict(const struct pft_image *img, size_t *index,
				  uint32_t *addr);

/*
 * The symbol at @addr: *@name (valid while the image lives) and @addr's
 * *@offset from its start.  Symbols are the ELF function, object and
 * untyped (assembler label) symbols defined in a section, with the Thumb
 * bit of function values cleared; ARM mapping symbols ($a, $t, $d) are not
 * names.  The candidate is the symbol with the highest start at or below
 * @addr; it covers st_size bytes (size 0: up to the end of its ELF
 * section).  So a symbol nested in a bigger one ends the bigger one's
 * reach.  Of symbols starting at the same address, functions come before
 * objects before labels, then global before weak before local, then sized
 * before unsized, then (aliases) the first name by strcmp() (pft_lines_
 * names a function by the same rule); the first that covers @addr is the
 * answer.  Returns 0, or
 * -PFT_ERR_NOMAP (no symbol covers @addr) or -PFT_ERR_INVALID (NULL
 * @img or @name; @offset may be NULL).  Look-ups take O(log n) time for n
 * symbols, however many share a start.
 */
pft_export int pft_image_symbolize(const struct pft_image *img, uint32_t addr,
				   const char **name, uint32_t *offset);

/* A symbol: its name (valid while the image lives) and the addresses it
 * covers, @start .. @end - 1 (as pft_image_symbolize() sees them).  @end
 * is 64-bit so that a symbol reaching 0xFFFFFFFF ends at 2^32. */
struct pft_image_symbol {
	const char *name;
	uint32_t start;
	uint32_t reserved;         /* 0 */
	uint64_t end;              /* exclusive, @start + 1 .. 2^32 */
};

/*
 * The symbol that covers @addr (the one pft_image_symbolize() names), in
 * *@sym (@size = sizeof *@sym).  Returns 0, -PFT_ERR_NOMAP (no symbol covers
 * @addr) or -PFT_ERR_INVALID (NULL @img or @sym, @size 0).
 */
pft_export int pft_image_symbol_at(const struct pft_image *img, uint32_t addr,
				   struct pft_image_symbol *sym, size_t size);

/*
 * The instruction set at @addr according to the ELF ARM mapping symbols
 * ($a: PFT_ISA_ARM, $t: PFT_ISA_THUMB, $d: PFT_ISA_UNKNOWN, data), each
 * covering up to the next mapping symbol or the end of its ELF section; for
 * an ELF without mapping symbols, according to its sized function symbols
 * (Thumb bit).  Returns the enum pft_isa value, or -PFT_ERR_NOMAP (nothing
 * known at @addr) or -PFT_ERR_INVALID (NULL @img).
 */
pft_export int pft_image_isa(const struct pft_image *img, uint32_t addr);

/* ---- End of image ---- */

#ifdef __cplusplus
}
#endif

#endif /* PFT_PUBLIC_IMAGE_H */
