/* Configuration fields <-> register bits (pft_reg_map.h). */
#include "pft.h"
#include "core/pft_reg_map.h"
#include "core/pft_etm_regs.h"

/* Context ID bytes 0, 1, 2, 4 and their codes 0-3. */
static const uint8_t ctxid_bytes[4] = { 0, 1, 2, 4 };

void reg_map_read(const struct reg_map *map, size_t n, void *cfg, const uint32_t regs[REG_MAP_COUNT],
		  unsigned minor)
{
	uint8_t *c = cfg;

	for (size_t i = 0; i < n; i++) {
		const struct reg_map *m = &map[i];
		uint32_t v = pft_reg_field(regs[m->reg], m->hi, m->lo);

		if (minor < m->since)
			v = m->before;
		else if (m->kind == MAP_NOT_BIT)
			v = !v;
		else if (m->kind == MAP_CTXID)
			v = ctxid_bytes[v & 3];
		c[m->offset] = (uint8_t)v;
	}
}

void reg_map_write(const struct reg_map *map, size_t n, const void *cfg,
		   uint32_t regs[REG_MAP_COUNT], unsigned minor)
{
	const uint8_t *c = cfg;

	for (size_t i = 0; i < n; i++) {
		const struct reg_map *m = &map[i];
		uint32_t v = c[m->offset];

		if (minor < m->since || m->kind == MAP_READ_ONLY)
			continue;
		if (m->kind == MAP_NOT_BIT) {
			v = !v;
		} else if (m->kind == MAP_CTXID) {
			uint32_t code = 0;
			while (code < 3 && ctxid_bytes[code] != v)
				code++;
			v = ctxid_bytes[code] == v ? code : 0;
		}
		regs[m->reg] |= pft_reg_put(v, m->hi, m->lo);
	}
}

int pft_regs_protocol(uint32_t etmidr, unsigned *arch)
{
	const unsigned major = pft_reg_field(etmidr, PFT_ETMIDR_MAJOR);

	if (arch)
		*arch = major;
	return major == PFT_ETMIDR_MAJOR_PFT	 ? PFT_PROTO_PTM
	       : major == PFT_ETMIDR_MAJOR_ETMV3 ? PFT_PROTO_ETMV3
						 : PFT_PROTO_UNKNOWN;
}
