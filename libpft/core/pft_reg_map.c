/* A protocol's configuration and its registers (pft_reg_map.h). */
#include <string.h>

#include "pft.h"
#include "core/pft_reg_map.h"
#include "common/pft_size.h"

/* Context ID bytes 0, 1, 2, 4 and their codes 0-3. */
static const uint8_t ctxid_bytes[4] = { 0, 1, 2, 4 };

/* The fields of @cfg @map names from @regs, under minor version @minor. */
static void map_read(const struct reg_map *map, size_t n, unsigned char *cfg,
		     const uint32_t regs[REG_MAP_COUNT], unsigned minor)
{
	for (size_t i = 0; i < n; i++) {
		const struct reg_map *m = &map[i];
		uint32_t v = pft_reg_field(regs[m->reg], m->hi, m->lo);

		if (minor < m->since)
			v = m->before;
		else if (m->kind == MAP_NOT_BIT)
			v = !v;
		else if (m->kind == MAP_CTXID)
			v = ctxid_bytes[v & 3];
		cfg[m->offset] = (uint8_t)v;
	}
}

/* The fields of @cfg @map names into @regs (ORed in), under minor version
 * @minor: fields before their version and read-only ones are left out. */
static void map_write(const struct reg_map *map, size_t n, const unsigned char *cfg,
		      uint32_t regs[REG_MAP_COUNT], unsigned minor)
{
	for (size_t i = 0; i < n; i++) {
		const struct reg_map *m = &map[i];
		uint32_t v = cfg[m->offset];

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

static size_t size_of(const void *cfg)
{
	size_t size;

	memcpy(&size, cfg, sizeof(size));
	return size;
}

int pft_reg_config_init(const struct reg_config *rc, void *cfg, size_t size)
{
	if (!cfg || size < rc->first_size)
		return -PFT_ERR_INVALID;
	/* A newer caller's fields this library lacks: zero, their default. */
	memset(cfg, 0, size);
	pft_copy_known(cfg, rc->defaults, size, rc->size);
	memcpy(cfg, &size, sizeof(size));
	return 0;
}

int pft_reg_config_copy(const struct reg_config *rc, void *dst, const void *src)
{
	if (!dst || !src || size_of(src) < rc->first_size)
		return -PFT_ERR_INVALID;
	const unsigned char *s = src;
	int i = 0;
	while (i < 4 && ctxid_bytes[i] != s[rc->at_ctxid])
		i++;
	if (i == 4)
		return -PFT_ERR_BAD_CONFIG;
	pft_reg_config_init(rc, dst, rc->size);
	pft_copy_known(dst, src, size_of(src), rc->size);
	memcpy(dst, &rc->size, sizeof(rc->size));
	return 0;
}

int pft_reg_config_from_regs(const struct reg_config *rc, void *cfg, const uint32_t regs[REG_MAP_COUNT])
{
	_Alignas(max_align_t) unsigned char c[REG_CONFIG_MAX];

	if (!cfg || size_of(cfg) < rc->first_size)
		return -PFT_ERR_INVALID;
	if (pft_regs_protocol(regs[REG_ETMIDR], NULL) != rc->protocol)
		return -PFT_ERR_BAD_CONFIG;
	pft_reg_config_init(rc, c, rc->size);
	map_read(rc->map, rc->n, c, regs, pft_reg_field(regs[REG_ETMIDR], PFT_ETMIDR_MINOR));
	memcpy(c + rc->at_regs, regs, REG_MAP_COUNT * sizeof(regs[0]));
	memcpy(c, cfg, sizeof(size_t));
	pft_copy_known(cfg, c, size_of(cfg), rc->size);
	return 0;
}

int pft_reg_config_to_regs(const struct reg_config *rc, const void *cfg, struct pft_trace_regs *regs)
{
	_Alignas(max_align_t) unsigned char c[REG_CONFIG_MAX];
	struct pft_trace_regs r = { .size = 0 };
	int err = pft_reg_config_copy(rc, c, cfg);

	if (!regs || regs->size < PFT_FIRST_SIZE(struct pft_trace_regs))
		return -PFT_ERR_INVALID;
	if (err)
		return err;

	const unsigned minor = c[rc->at_minor];
	const uint8_t m_profile = rc->at_m_profile && c[rc->at_m_profile];
	const struct reg_impl *impl = &rc->impl[0];
	for (size_t i = 1; i < rc->nimpl; i++)
		if (minor >= rc->impl[i].since && rc->impl[i].m_profile == m_profile)
			impl = &rc->impl[i];

	uint32_t v[REG_MAP_COUNT] = { 0, impl->etmccer, impl->etmidr, 0 };
	map_write(rc->map, rc->n, c, v, minor);
	r.size = regs->size;
	r.etmcr = v[REG_ETMCR];
	r.etmccr = impl->etmccr;
	r.etmccer = v[REG_ETMCCER];
	r.etmidr = v[REG_ETMIDR];
	r.etmtraceidr = v[REG_ETMTRACEIDR];
	pft_copy_known(regs, &r, regs->size, sizeof(r));
	return 0;
}
