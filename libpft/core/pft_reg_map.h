/* pft_reg_map.h - a configuration struct's fields as register bits, both
 * ways: one table per protocol (ptm/pft_config.c, etm3/pft_etm3_config.c)
 * serves its *_config_from_regs() and *_config_to_regs(). */
#ifndef PFT_REG_MAP_H
#define PFT_REG_MAP_H

#include <stddef.h>
#include <stdint.h>

/* The registers a configuration comes from, as indexes of a uint32_t[]. */
enum reg_map_reg { REG_ETMCR, REG_ETMCCER, REG_ETMIDR, REG_ETMTRACEIDR, REG_MAP_COUNT };

enum reg_map_kind {
	MAP_FIELD,      /* the value of bits hi..lo */
	MAP_NOT_BIT,    /* 1 when bit lo reads 0 (Gray-coded timestamps) */
	MAP_CTXID,      /* 0, 1, 2 or 4 bytes as 0-3 in bits hi..lo */
	MAP_READ_ONLY   /* a field the implementation fixes: read, not written */
};

/* One uint8_t field of a configuration struct. */
struct reg_map {
	uint8_t offset;      /* of the field in the struct */
	uint8_t reg;         /* enum reg_map_reg */
	uint8_t hi, lo;
	uint8_t kind;        /* enum reg_map_kind */
	uint8_t since;       /* from this minor version on ... */
	uint8_t before;      /* ... else the field is this (the bits are reserved) */
};

/* An entry: REG_MAP_ENTRY(type, field, reg, hi, lo, kind, since, before);
 * "hi, lo" may come from one macro (PFT_ETMCR_CTXID_SIZE). */
#define REG_MAP_ENTRY(type, field, ...) REG_MAP_ENTRY_(offsetof(type, field), __VA_ARGS__)
#define REG_MAP_ENTRY_(offset, reg, hi, lo, kind, since, before) \
	{ (uint8_t)(offset), reg, hi, lo, kind, since, before }

/* Set the fields of @cfg that @map names from @regs, under minor version
 * @minor. */
void reg_map_read(const struct reg_map *map, size_t n, void *cfg, const uint32_t regs[REG_MAP_COUNT],
		  unsigned minor);

/* Put the fields of @cfg that @map names into @regs (ORed in), under minor
 * version @minor: fields before their version and read-only ones are left
 * out. */
void reg_map_write(const struct reg_map *map, size_t n, const void *cfg,
		   uint32_t regs[REG_MAP_COUNT], unsigned minor);

#endif
