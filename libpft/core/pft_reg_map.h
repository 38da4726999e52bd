/* pft_reg_map.h - a protocol's configuration struct and its registers,
 * both ways: one table per protocol (ptm/pft_config.c,
 * etm3/pft_etm3_config.c) serves its *_config_init_size(), _copy(),
 * _from_regs() and _to_regs(). */
#ifndef PFT_REG_MAP_H
#define PFT_REG_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "pft.h"
#include "core/pft_etm_regs.h"

/* The registers a configuration comes from, as indexes of a uint32_t[]
 * (and the order of the uint32_t fields that keep them in the struct). */
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

/*
 * The fields PFT and ETMv3 keep at the same places (ptm-registers-events.md
 * 2-4 and 6, etmv3-protocol.md 2.1-2.4), for configuration struct @type:
 * timestamps from minor version @ts_since; VMID, Virtualization Extensions
 * and the timestamp format from @v_since, before it 64-bit timestamps
 * @ts64_before and Gray coding @gray_before.
 */
#define REG_MAP_SHARED(type, ts_since, v_since, ts64_before, gray_before)                     \
	REG_MAP_ENTRY(type, branch_broadcast, REG_ETMCR,                                       \
		      PFT_REG_BIT(PFT_ETMCR_BRANCH_BROADCAST), MAP_FIELD, 0, 0),               \
	REG_MAP_ENTRY(type, cycle_accurate, REG_ETMCR,                                         \
		      PFT_REG_BIT(PFT_ETMCR_CYCLE_ACCURATE), MAP_FIELD, 0, 0),                 \
	REG_MAP_ENTRY(type, ctxid_bytes, REG_ETMCR, PFT_ETMCR_CTXID_SIZE, MAP_CTXID, 0, 0),    \
	REG_MAP_ENTRY(type, timestamps, REG_ETMCR, PFT_REG_BIT(PFT_ETMCR_TIMESTAMPS),          \
		      MAP_FIELD, ts_since, 0),                                                 \
	REG_MAP_ENTRY(type, vmid, REG_ETMCR, PFT_REG_BIT(PFT_ETMCR_VMID), MAP_FIELD, v_since, 0), \
	REG_MAP_ENTRY(type, virtualization, REG_ETMCCER,                                       \
		      PFT_REG_BIT(PFT_ETMCCER_VIRTUALIZATION), MAP_READ_ONLY, v_since, 0),     \
	REG_MAP_ENTRY(type, ts_64bit, REG_ETMCCER, PFT_REG_BIT(PFT_ETMCCER_TS_64BIT),          \
		      MAP_FIELD, v_since, ts64_before),                                        \
	REG_MAP_ENTRY(type, ts_gray, REG_ETMCCER, PFT_REG_BIT(PFT_ETMCCER_TS_BINARY),          \
		      MAP_NOT_BIT, v_since, gray_before),                                      \
	REG_MAP_ENTRY(type, version_minor, REG_ETMIDR, PFT_ETMIDR_MINOR, MAP_FIELD, 0, 0),     \
	REG_MAP_ENTRY(type, trace_id, REG_ETMTRACEIDR, PFT_ETMTRACEIDR_ID, MAP_FIELD, 0, 0)

/* An implementation a protocol's to_regs describes, from minor version
 * @since on, for configurations of an M-profile core or not (@m_profile):
 * ETMIDR without the minor version, ETMCCER without the bits the table
 * writes, ETMCCR. */
struct reg_impl {
	uint8_t since;
	uint8_t m_profile;
	uint32_t etmidr, etmccer, etmccr;
};

/* A protocol's configuration struct @type (size_t size first, uint8_t
 * fields, ctxid_bytes and version_minor among them, then uint32_t etmcr, etmccer, etmidr,
 * etmtraceidr in that order), its defaults and its registers. */
struct reg_config {
	const struct reg_map *map;
	size_t n;
	const struct reg_impl *impl;   /* by ascending since */
	size_t nimpl;
	int protocol;                  /* the enum pft_protocol of its ETMIDR */
	size_t size, first_size, at_regs, at_ctxid, at_minor;
	size_t at_m_profile;           /* its uint8_t m_profile field; 0: none */
	const void *defaults;          /* besides zero (the size field unused) */
};

#define REG_CONFIG(type, map_, impl_, protocol_, defaults_, at_m_profile_)                    \
	{ .map = map_, .n = sizeof(map_) / sizeof(map_[0]), .impl = impl_,                      \
	  .nimpl = sizeof(impl_) / sizeof(impl_[0]), .protocol = protocol_,                     \
	  .size = sizeof(type), .first_size = offsetof(type, reserved),                         \
	  .at_regs = offsetof(type, etmcr), .at_ctxid = offsetof(type, ctxid_bytes),            \
	  .at_minor = offsetof(type, version_minor), .at_m_profile = at_m_profile_,            \
	  .defaults = defaults_ }

enum { REG_CONFIG_MAX = 128 };   /* bytes of the largest configuration */

/* *_config_init_size(). */
int pft_reg_config_init(const struct reg_config *rc, void *cfg, size_t size);

/* *_config_copy(): the part of @src its size covers, defaults for the
 * rest.  Returns 0, -PFT_ERR_INVALID or -PFT_ERR_BAD_CONFIG (ctxid_bytes
 * not 0, 1, 2 or 4). */
int pft_reg_config_copy(const struct reg_config *rc, void *dst, const void *src);

/* *_config_from_regs(): @cfg (its size set) from @regs.  Returns 0,
 * -PFT_ERR_INVALID or -PFT_ERR_BAD_CONFIG (ETMIDR names another protocol). */
int pft_reg_config_from_regs(const struct reg_config *rc, void *cfg, const uint32_t regs[REG_MAP_COUNT]);

/* *_config_to_regs(). */
int pft_reg_config_to_regs(const struct reg_config *rc, const void *cfg, struct pft_trace_regs *regs);

/*
 * The public functions of a protocol's configuration @type described by
 * @rc: @prefix_init_size, _copy, _from_regs and _to_regs (pft.h).
 */
#define REG_CONFIG_EXPORTS(prefix, type, rc)                                                   \
	int prefix##_init_size(type *cfg, size_t size) { return pft_reg_config_init(rc, cfg, size); } \
	int prefix##_copy(type *dst, const type *src) { return pft_reg_config_copy(rc, dst, src); }   \
	int prefix##_from_regs(type *cfg, uint32_t etmcr, uint32_t etmccer, uint32_t etmidr,    \
			       uint32_t etmtraceidr)                                            \
	{                                                                                       \
		const uint32_t regs[REG_MAP_COUNT] = { etmcr, etmccer, etmidr, etmtraceidr };   \
		return pft_reg_config_from_regs(rc, cfg, regs);                                     \
	}                                                                                       \
	int prefix##_to_regs(const type *cfg, struct pft_trace_regs *regs)                      \
	{                                                                                       \
		return pft_reg_config_to_regs(rc, cfg, regs);                                       \
	}

#endif
