/*
 * corrupt - damage real PTM and ETMv3 captures in the common ways and
 * measure how well decoding recovers.
 *
 * usage: corrupt [--variants N] [--seed S] [--show N] [--write DIR COUNT]
 *                SNAPSHOT_DIR...
 *
 * Every PTM and ETMv3 source of every snapshot (a frame-formatted buffer is
 * deformatted first) is decoded once as it is (the reference) and then
 * damaged N times per kind of damage (default 300; deterministic from the
 * seed):
 *   flip      1-3 bits of one byte inverted
 *   drop      1-8 bytes missing
 *   insert    1-8 random bytes added
 *   truncate  the capture ends early
 *   wrap      the capture starts late, in the middle of a packet (a
 *             circular buffer that wrapped)
 *   overflow  16-1024 bytes cut out (the trace port or buffer lost them)
 * Each damaged stream is decoded into packets and, with the snapshot's
 * memory image, into instruction ranges, and checked:
 *   (a) decoding ends (no crash, no hang: the tests run it under ASan);
 *   (b) every error (bad packet, flow error) has an offset inside the
 *       damaged stream, at or after the damage - before it the stream is
 *       intact, so an error there would be wrong;
 *   (c) the packets and instruction ranges before the damage and from the
 *       first synchronisation point after it (an A-sync followed by an
 *       I-sync) on are those of the reference, at the same offsets once
 *       the bytes added or removed are accounted for.  The data between
 *       the damage and that point is what an ideal decoder loses; a
 *       variant that loses anything else fails.
 * One exception in (c), because no decoder can know better: a timestamp
 * packet carries only the low bits that changed, so until a full-width
 * timestamp arrives after the damage only those bits are compared.
 *
 * It prints, per source and kind, how much was lost against the ideal,
 * how many variants were detected (an error was reported) and how far
 * after the damage the first error came.  Exit status: 0 when every
 * variant passed, 1 when one failed (the first --show failures are
 * described), 2 for a usage or input problem.
 *
 * --write DIR COUNT writes the first COUNT damaged variants of each kind of
 * each source as raw files instead, and prints one line per file, with
 * tabs between the path, the pft configuration options that decode it and
 * the pft decode --image options of its memory image (for the CLI test;
 * PTM sources only: the CLI reads ETMv3 from snapshots only).
 *
 * ETMv3 packets are kept as a struct pft_ptm_packet view (etm3_view()) that
 * holds every field that tells two of them apart, so that the comparison
 * is the same for both protocols.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pft.h"

enum kind { FLIP, DROP, INSERT, TRUNCATE, WRAP, OVERFLOW, NKINDS };

static const char *const kind_names[NKINDS] = {
	"flip", "drop", "insert", "truncate", "wrap", "overflow"
};

/* One PTM source: its bytes, configuration and memory image. */
struct source {
	char name[256];
	uint8_t *bytes;
	size_t len;
	struct pft_ptm_config cfg;   /* PTM; for ETMv3 only ts_64bit and trace_id */
	int etm3;
	struct pft_etm3_config ecfg;
	struct pft_image *image;
	char image_args[2048];   /* pft --image options for the same image */
};

/* What decoding a stream gave: packets (NOTSYNC bytes left out: they say
 * nothing), instruction ranges and the offsets of errors. */
struct decoded {
	struct pft_ptm_packet *pk;   /* raw = NULL */
	size_t npk, cappk;
	struct pft_elem *rg;
	size_t nrg, caprg;
	uint64_t *err;
	size_t nerr, caperr;
	int anomaly;             /* the decoder broke its contract */
};

/* The damage done to one variant, in offsets of the original stream. */
struct damage {
	enum kind kind;
	size_t at, n;
};

struct tally {
	unsigned variants, detected, silent, failed;
	uint64_t latency_sum, latency_max;
	uint64_t pk_ref, pk_ideal, pk_lost, insn_ref, insn_ideal, insn_lost;
	uint64_t ts_low_only;
};

struct options {
	unsigned variants, show;
	uint64_t seed;
	const char *write_dir;
	unsigned write_count;
};

static uint64_t rng_state;

static uint64_t rng(void)
{
	/* xorshift64*: deterministic and the same on every platform. */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1Dull;
}

static size_t rng_below(size_t n)
{
	return n ? (size_t)(rng() % n) : 0;
}

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap ? 2 * *cap : 1024;
	p = realloc(p, *cap * size);
	if (!p) {
		fprintf(stderr, "corrupt: out of memory\n");
		exit(2);
	}
	return p;
}

/* ---- Loading the captures ---- */

static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t cap = 0, n;

	*len = 0;
	if (!f)
		return NULL;
	do {
		buf = grow(buf, &cap, *len, 1);
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n);
	fclose(f);
	return buf;
}

/* The bytes of trace ID @id in a CoreSight frame-formatted buffer. */
static uint8_t *deformat(const uint8_t *buf, size_t len, int tpiu, uint8_t id,
			 size_t *out_len)
{
	struct pft_dfmt_config dc = { .size = sizeof(dc), .tpiu = (uint8_t)tpiu };
	struct pft_dfmt *d = pft_dfmt_alloc(&dc, NULL);
	struct pft_dfmt_chunk c;
	uint8_t *out = NULL;
	size_t cap = 0;
	int status;

	*out_len = 0;
	if (!d)
		return NULL;
	pft_dfmt_feed(d, buf, len);
	pft_dfmt_finish(d);
	while ((status = pft_dfmt_next(d, &c, sizeof(c))) != -PFT_ERR_EOS) {
		if (status < 0 || c.id != id)
			continue;
		out = grow(out, &cap, *out_len + c.len, 1);
		memcpy(out + *out_len, c.data, c.len);
		*out_len += c.len;
	}
	pft_dfmt_free(d);
	return out;
}

static int load_image(struct source *src, const struct pft_snapshot *snap,
		      const struct pft_snap_device *core)
{
	size_t used = 0;
	struct pft_diag why;

	src->image = pft_image_alloc(NULL);
	if (!src->image)
		return -1;
	if (core && pft_snap_add_dumps(snap, core, src->image, &why) < 0) {
		fprintf(stderr, "corrupt: %s\n", why.text);
		return -1;
	}
	for (size_t i = 0; core && i < core->ndumps; i++) {
		const struct pft_snap_dump *dump = &core->dumps[i];
		/* The CLI's --image takes whole files in space ANY. */
		if (!dump->offset && used < sizeof(src->image_args))
			used += (size_t)snprintf(src->image_args + used,
						 sizeof(src->image_args) - used,
						 "%s--image %s@0x%" PRIx64, used ? " " : "",
						 dump->path, dump->address);
	}
	return 0;
}

/* The ETMv3 configuration of @dev, from its registers. */
static int etm3_config(const struct pft_snap_device *dev, struct source *src)
{
	static const char *const names[4] = { "ETMCR", "ETMCCER", "ETMIDR", "ETMTRACEIDR" };
	uint64_t r[4];

	for (int i = 0; i < 4; i++)
		if (pft_snap_reg(dev, names[i], &r[i]))
			return -1;
	pft_etm3_config_init(&src->ecfg);
	if (pft_etm3_config_from_regs(&src->ecfg, (uint32_t)r[0], (uint32_t)r[1], (uint32_t)r[2],
				      (uint32_t)r[3]))
		return -1;
	src->etm3 = 1;
	pft_ptm_config_init(&src->cfg);
	src->cfg.ts_64bit = src->ecfg.ts_64bit;
	src->cfg.trace_id = src->ecfg.trace_id;
	return 0;
}

/* Every PTM and ETMv3 source of snapshot @dir that has trace. */
static int load_snapshot(const char *dir, struct source **srcs, size_t *nsrcs)
{
	struct pft_snapshot *snap;
	struct pft_diag why;

	if (pft_snap_load(dir, 0, &snap, &why)) {
		fprintf(stderr, "corrupt: %s\n", why.text);
		return -1;
	}
	for (size_t i = 0; i < snap->ndevs; i++) {
		const struct pft_snap_device *dev = &snap->devs[i];
		struct source src = { 0 };

		if (dev->buffer < 0 ||
		    (dev->protocol == PFT_PROTO_PTM ? pft_snap_ptm_config(dev, &src.cfg, NULL)
		     : dev->protocol != PFT_PROTO_ETMV3 || etm3_config(dev, &src)))
			continue;
		const struct pft_snap_buffer *b = &snap->bufs[dev->buffer];
		size_t len;
		uint8_t *buf = read_file(b->path, &len);
		if (!buf) {
			fprintf(stderr, "corrupt: %s: %s\n", b->path, strerror(errno));
			pft_snap_free(snap);
			return -1;
		}
		if (b->pipe_format != PFT_PIPE_RAW) {
			src.bytes = deformat(buf, len, b->pipe_format == PFT_PIPE_TPIU,
					     src.cfg.trace_id, &src.len);
			free(buf);
		} else {
			src.bytes = buf;
			src.len = len;
		}
		if (!src.len) {
			free(src.bytes);
			continue;
		}
		const char *base = strrchr(dir, '/');
		snprintf(src.name, sizeof(src.name), "%s:0x%02x", base && base[1] ? base + 1 : dir,
			 src.cfg.trace_id);
		if (load_image(&src, snap, dev->core >= 0 ? &snap->devs[dev->core] : NULL)) {
			pft_snap_free(snap);
			return -1;
		}
		*srcs = realloc(*srcs, (*nsrcs + 1) * sizeof(**srcs));
		if (!*srcs)
			exit(2);
		(*srcs)[(*nsrcs)++] = src;
	}
	pft_snap_free(snap);
	return 0;
}

/* ---- Decoding ---- */

static void add_error(struct decoded *out, uint64_t offset)
{
	out->err = grow(out->err, &out->caperr, out->nerr, sizeof(*out->err));
	out->err[out->nerr++] = offset;
}

static void take_elements(struct pft_ptm_flow *flow, struct decoded *out)
{
	struct pft_elem e;

	while (pft_ptm_flow_next(flow, &e, sizeof(e)) == 0) {
		if (e.type == PFT_ELEM_ERROR) {
			add_error(out, e.offset);
		} else if (e.type == PFT_ELEM_RANGE) {
			out->rg = grow(out->rg, &out->caprg, out->nrg, sizeof(e));
			memcpy(&out->rg[out->nrg++], &e, sizeof(e));
		}
	}
}

/* An ETMv3 packet as a struct pft_ptm_packet: the types the comparison looks
 * at (A-sync, I-sync, timestamp, NOTSYNC, BAD) map to theirs, the others
 * past PFT_PTM_PKT_TYPE_MAX; P-header atoms and format go in addr, Cancel and
 * resume in atoms. */
static void etm3_view(const struct pft_etm3_packet *e, struct pft_ptm_packet *p)
{
	memset(p, 0, sizeof(*p));
	switch (e->type) {
	case PFT_ETM3_PKT_NOTSYNC: p->type = PFT_PTM_PKT_NOTSYNC; break;
	case PFT_ETM3_PKT_ASYNC: p->type = PFT_PTM_PKT_ASYNC; break;
	case PFT_ETM3_PKT_ISYNC: p->type = PFT_PTM_PKT_ISYNC; break;
	case PFT_ETM3_PKT_TIMESTAMP: p->type = PFT_PTM_PKT_TIMESTAMP; break;
	case PFT_ETM3_PKT_BAD: p->type = PFT_PTM_PKT_BAD; break;
	default: p->type = (uint8_t)(PFT_PTM_PKT_TYPE_MAX + e->type); break;
	}
	p->offset = e->offset;
	p->size = e->size;
	p->ts = e->ts;
	p->ts_raw = e->ts_raw;
	p->ts_bits = e->ts_bits;
	p->ts_clock_change = e->ts_clock_change;
	p->addr = e->type == PFT_ETM3_PKT_PHEADER ? e->atoms | (uint32_t)e->format << 16 : e->addr;
	p->cycles = e->cycles;
	p->ctxid = e->ctxid;
	p->exception = e->exception;
	p->isa = e->isa;
	p->addr_bytes = e->addr_bytes;
	p->reason = e->reason;
	p->ns = e->ns;
	p->hyp = e->hyp;
	p->altis = e->altis;
	p->exc_bytes = e->exc_bytes;
	p->has_cycles = e->has_cycles;
	p->n_atoms = e->n_atoms;
	p->atoms = (uint8_t)(e->cancel | e->resume << 1);
	p->has_ctxid = e->has_ctxid;
	p->vmid = e->vmid;
	p->bad = e->bad;
}

static void keep_packet(struct decoded *out, struct pft_ptm_packet *p)
{
	p->raw = NULL;
	out->pk = grow(out->pk, &out->cappk, out->npk, sizeof(*p));
	memcpy(&out->pk[out->npk++], p, sizeof(*p));
}

static void take_etm3_elements(struct pft_etm3_flow *flow, struct decoded *out)
{
	struct pft_elem e;

	while (pft_etm3_flow_next(flow, &e, sizeof(e)) == 0) {
		if (e.type == PFT_ELEM_ERROR) {
			add_error(out, e.offset);
		} else if (e.type == PFT_ELEM_RANGE) {
			out->rg = grow(out->rg, &out->caprg, out->nrg, sizeof(e));
			memcpy(&out->rg[out->nrg++], &e, sizeof(e));
		}
	}
}

static void decode_etm3(const struct source *src, const uint8_t *buf, size_t len,
			struct decoded *out)
{
	struct pft_etm3_pkt_decoder *d = pft_etm3_pkt_alloc(&src->ecfg, NULL);
	struct pft_etm3_flow *flow = pft_etm3_flow_alloc(&src->ecfg, src->image, NULL);
	struct pft_etm3_packet e;
	struct pft_ptm_packet p;
	size_t calls = 0;
	int status;

	if (!d || !flow) {
		fprintf(stderr, "corrupt: out of memory\n");
		exit(2);
	}
	pft_etm3_pkt_feed(d, buf, len);
	pft_etm3_pkt_finish(d);
	while ((status = pft_etm3_pkt_next(d, &e, sizeof(e))) != -PFT_ERR_EOS) {
		if (++calls > 2 * len + 8) {
			out->anomaly = 1;
			break;
		}
		if (status == -PFT_ERR_NEED_INPUT) {
			pft_etm3_pkt_finish(d);
			continue;
		}
		if (status < 0 && e.type != PFT_ETM3_PKT_BAD) {
			out->anomaly = 1;
			break;
		}
		if (pft_etm3_flow_put(flow, &e, sizeof(e)) < 0)
			out->anomaly = 1;
		take_etm3_elements(flow, out);
		if (status < 0)
			add_error(out, e.offset);
		if (e.type == PFT_ETM3_PKT_NOTSYNC)
			continue;
		etm3_view(&e, &p);
		keep_packet(out, &p);
	}
	if (pft_etm3_flow_finish(flow) < 0)
		out->anomaly = 1;
	take_etm3_elements(flow, out);
	pft_etm3_flow_free(flow);
	pft_etm3_pkt_free(d);
}

static void decode_ptm(const struct source *src, const uint8_t *buf, size_t len,
		       struct decoded *out)
{
	struct pft_ptm_pkt_decoder *d = pft_ptm_pkt_alloc(&src->cfg, NULL);
	struct pft_ptm_flow *flow = pft_ptm_flow_alloc(&src->cfg, src->image, NULL);
	struct pft_ptm_packet p;
	size_t calls = 0;
	int status;

	if (!d || !flow) {
		fprintf(stderr, "corrupt: out of memory\n");
		exit(2);
	}
	pft_ptm_pkt_feed(d, buf, len);
	pft_ptm_pkt_finish(d);
	while ((status = pft_ptm_pkt_next(d, &p, sizeof(p))) != -PFT_ERR_EOS) {
		/* Each call takes a byte or more (a bound, against hangs). */
		if (++calls > 2 * len + 8) {
			out->anomaly = 1;
			break;
		}
		if (status == -PFT_ERR_NEED_INPUT) {
			pft_ptm_pkt_finish(d); /* "feed more (or finish)" */
			continue;
		}
		if (status < 0 && p.type != PFT_PTM_PKT_BAD) {
			out->anomaly = 1;
			break;
		}
		if (pft_ptm_flow_put(flow, &p, sizeof(p)) < 0)
			out->anomaly = 1;
		take_elements(flow, out);
		if (status < 0)
			add_error(out, p.offset);
		if (p.type == PFT_PTM_PKT_NOTSYNC)
			continue;
		keep_packet(out, &p);
	}
	pft_ptm_flow_free(flow);
	pft_ptm_pkt_free(d);
}

static void decode(const struct source *src, const uint8_t *buf, size_t len,
		   struct decoded *out)
{
	out->npk = out->nrg = out->nerr = 0;
	out->anomaly = 0;
	if (src->etm3)
		decode_etm3(src, buf, len, out);
	else
		decode_ptm(src, buf, len, out);
}

/* ---- Damage ---- */

static size_t make_damage(const struct source *src, enum kind kind, struct damage *dmg,
			  uint8_t *out)
{
	const size_t len = src->len;
	size_t at = rng_below(len), n = 0;

	memcpy(out, src->bytes, len);
	switch (kind) {
	case FLIP:
		n = 1;
		for (unsigned bits = 1 + (unsigned)rng_below(3); bits; bits--)
			out[at] ^= (uint8_t)(1u << rng_below(8));
		if (out[at] == src->bytes[at])
			out[at] ^= 1;
		break;
	case DROP:
	case OVERFLOW:
		n = kind == DROP ? 1 + rng_below(8) : 16 + rng_below(1009);
		if (n > len - at)
			n = len - at;
		memmove(out + at, src->bytes + at + n, len - at - n);
		break;
	case INSERT:
		n = 1 + rng_below(8);
		memcpy(out + at + n, src->bytes + at, len - at);
		for (size_t i = 0; i < n; i++)
			out[at + i] = (uint8_t)rng();
		break;
	case TRUNCATE:
		n = len - at;
		break;
	case WRAP:
		at = 1 + rng_below(len - 1);
		memcpy(out, src->bytes + at, len - at);
		break;
	case NKINDS:
		break;
	}
	dmg->kind = kind;
	dmg->at = at;
	dmg->n = n;
	switch (kind) {
	case DROP:
	case OVERFLOW:
	case TRUNCATE:
		return len - n;
	case INSERT:
		return len + n;
	case WRAP:
		return len - at;
	default:
		return len;
	}
}

/* The original offset of damaged offset @off in *@orig; returns 0 when the
 * byte there was added by the damage (it has none). */
static int original_offset(const struct damage *dmg, uint64_t off, uint64_t *orig)
{
	*orig = off;
	switch (dmg->kind) {
	case DROP:
	case OVERFLOW:
		if (off >= dmg->at)
			*orig = off + dmg->n;
		return 1;
	case INSERT:
		if (off >= dmg->at + dmg->n)
			*orig = off - dmg->n;
		return off < dmg->at || off >= dmg->at + dmg->n;
	case WRAP:
		*orig = off + dmg->at;
		return 1;
	default:
		return 1;
	}
}

/* Where the damage starts in the damaged stream, and the original span
 * [*start, *end) that it spoiled. */
static uint64_t damage_span(const struct damage *dmg, size_t len, uint64_t *start,
			    uint64_t *end)
{
	*start = dmg->at;
	switch (dmg->kind) {
	case FLIP:
		*end = dmg->at + 1;
		break;
	case DROP:
	case OVERFLOW:
		*end = dmg->at + dmg->n;
		break;
	case INSERT:
		*end = dmg->at;
		break;
	case TRUNCATE:
		*end = len;
		break;
	case WRAP:
		*start = 0;
		*end = dmg->at;
		return 0;
	case NKINDS:
		break;
	}
	return dmg->at;
}

/* ---- Comparison ---- */

static size_t find_packet(const struct decoded *ref, uint64_t offset)
{
	size_t lo = 0, hi = ref->npk;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ref->pk[mid].offset < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ref->npk && ref->pk[lo].offset == offset ? lo : SIZE_MAX;
}

/* The A-sync of @ref that ends at @end, or SIZE_MAX. */
static size_t async_ending_at(const struct decoded *ref, uint64_t end)
{
	size_t r = find_packet(ref, end);

	if (r == SIZE_MAX)
		return SIZE_MAX;
	return r > 0 && ref->pk[r - 1].type == PFT_PTM_PKT_ASYNC ? r - 1 : SIZE_MAX;
}

/* The first A-sync at or after @from that an I-sync follows. */
static uint64_t resync_point(const struct decoded *ref, uint64_t from, size_t len)
{
	for (size_t i = 0; i + 1 < ref->npk; i++)
		if (ref->pk[i].offset >= from && ref->pk[i].type == PFT_PTM_PKT_ASYNC &&
		    ref->pk[i + 1].type == PFT_PTM_PKT_ISYNC)
			return ref->pk[i].offset;
	return len;
}

/* Whole structs are compared: copies are made with memcpy, so that the
 * padding (zeroed by the decoders) is compared as zero too. */
static int same_packet(const struct pft_ptm_packet *ref, const struct pft_ptm_packet *got,
		       uint64_t orig, int ts_low_only)
{
	struct pft_ptm_packet a, b;

	memcpy(&a, ref, sizeof(a));
	memcpy(&b, got, sizeof(b));
	b.offset = orig;
	if (a.type == PFT_PTM_PKT_TIMESTAMP && ts_low_only && a.ts_bits < 64) {
		uint64_t mask = (1ull << a.ts_bits) - 1;
		a.ts_raw &= mask;
		b.ts_raw &= mask;
		a.ts = b.ts = 0;
	}
	return !memcmp(&a, &b, sizeof(a));
}

static int same_range(const struct pft_elem *ref, const struct pft_elem *got, uint64_t orig)
{
	struct pft_elem a, b;

	memcpy(&a, ref, sizeof(a));
	memcpy(&b, got, sizeof(b));
	b.offset = orig;
	return !memcmp(&a, &b, sizeof(a));
}

/* The packet whose end decides whether the range of packet @p of @ref can
 * be intact.  PTM: @p itself.  ETMv3: a range stays open (its last
 * instruction may still be cancelled, a next atom may extend it) until a
 * later packet with atoms or flow meaning closes it; padding, cycle counts
 * and W-only P-headers do not. */
static size_t range_closer(const struct source *src, const struct decoded *ref, size_t p)
{
	if (!src->etm3)
		return p;
	for (size_t q = p + 1; q < ref->npk; q++) {
		const struct pft_ptm_packet *k = &ref->pk[q];
		unsigned t = k->type >= PFT_PTM_PKT_TYPE_MAX ? k->type - PFT_PTM_PKT_TYPE_MAX : 0;
		if (k->type == PFT_PTM_PKT_ASYNC || t == PFT_ETM3_PKT_CYCLE_COUNT ||
		    t == PFT_ETM3_PKT_IGNORE || (t == PFT_ETM3_PKT_PHEADER && !k->n_atoms))
			continue;
		return q;
	}
	return SIZE_MAX;
}

struct verdict {
	uint64_t pk_ideal, pk_lost, insn_ideal, insn_lost, ts_low_only;
	int detected, failed;
	uint64_t latency;
	char why[256];
};

static void judge(const struct source *src, const struct decoded *ref, const struct damage *dmg,
		  size_t dlen, const struct decoded *got, struct verdict *v)
{
	uint64_t start, end, orig;
	uint64_t dstart = damage_span(dmg, src->len, &start, &end);
	const uint64_t resync = resync_point(ref, end, src->len);
	uint8_t *pk_ok = calloc(ref->npk + 1, 1), *rg_ok = calloc(ref->nrg + 1, 1);
	const unsigned ts_width = src->cfg.ts_64bit ? 64 : 48;
	int ts_full = 0;

	memset(v, 0, sizeof(*v));
	if (!pk_ok || !rg_ok)
		exit(2);
	if (got->anomaly) {
		v->failed = 1;
		snprintf(v->why, sizeof(v->why), "the decoder broke its contract (status, or no end)");
	}
	/* (b) errors: inside the stream, not before the damage - that is, not
	 * before the packet the damage begins in (errors are reported at the
	 * offset of the packet they are found in). */
	for (size_t r = 0; r < ref->npk && dstart; r++) {
		if (ref->pk[r].offset + ref->pk[r].size > dstart) {
			if (ref->pk[r].offset < dstart)
				dstart = ref->pk[r].offset;
			break;
		}
	}
	for (size_t i = 0; i < got->nerr; i++) {
		if (got->err[i] < dstart || got->err[i] >= dlen) {
			v->failed = 1;
			snprintf(v->why, sizeof(v->why), "error at offset 0x%" PRIx64
				 " outside the damage (from 0x%" PRIx64 ")", got->err[i], dstart);
		}
		if (!v->detected || got->err[i] - dstart < v->latency)
			v->latency = got->err[i] - dstart;
		v->detected = 1;
	}
	/* (c) packets, matched by original offset. */
	for (size_t i = 0; i < got->npk; i++) {
		const struct pft_ptm_packet *p = &got->pk[i];
		size_t r;
		if (p->type == PFT_PTM_PKT_ASYNC) {
			/* Unsynchronised, zeros that end the packet before an
			 * A-sync (or added ones) look like more of the A-sync:
			 * an A-sync that ends at the same byte is the same. */
			if (!original_offset(dmg, p->offset + p->size - 1, &orig))
				continue;
			r = async_ending_at(ref, orig + 1);
		} else {
			if (!original_offset(dmg, p->offset, &orig))
				continue;
			if (p->type == PFT_PTM_PKT_TIMESTAMP && p->ts_bits >= ts_width && orig >= end)
				ts_full = 1;
			r = find_packet(ref, orig);
		}
		if (r == SIZE_MAX)
			continue;
		if (p->type == PFT_PTM_PKT_ASYNC) {
			pk_ok[r] = 1;
		} else if (same_packet(&ref->pk[r], p, orig, 0)) {
			pk_ok[r] = 1;
		} else if (orig >= resync && !ts_full && same_packet(&ref->pk[r], p, orig, 1)) {
			pk_ok[r] = 1;
			v->ts_low_only++;
		}
	}
	for (size_t r = 0; r < ref->npk; r++) {
		const struct pft_ptm_packet *p = &ref->pk[r];
		int ideal_loss = p->offset + p->size > start && p->offset < resync;
		v->pk_ideal += ideal_loss;
		if (pk_ok[r])
			continue;
		v->pk_lost++;
		if (!ideal_loss && !v->failed) {
			v->failed = 1;
			snprintf(v->why, sizeof(v->why), "%s packet at 0x%" PRIx64
				 " lost (damage 0x%" PRIx64 "-0x%" PRIx64 ", resync at 0x%" PRIx64 ")",
				 pft_ptm_pkt_type_name(p->type), p->offset, start, end, resync);
		}
	}
	/* (c) instruction ranges: the k-th range of the packet at an offset
	 * against the k-th range of the damaged packet at the same original
	 * offset (both lists are in offset order). */
	for (size_t r = 0, g = 0; r < ref->nrg;) {
		const uint64_t off = ref->rg[r].offset;
		size_t r_end = r, g_end;
		while (r_end < ref->nrg && ref->rg[r_end].offset == off)
			r_end++;
		while (g < got->nrg && (!original_offset(dmg, got->rg[g].offset, &orig) ||
					orig < off))
			g++;
		for (g_end = g; g_end < got->nrg; g_end++)
			if (!original_offset(dmg, got->rg[g_end].offset, &orig) || orig != off)
				break;
		for (size_t k = 0; r + k < r_end && g + k < g_end; k++)
			rg_ok[r + k] = same_range(&ref->rg[r + k], &got->rg[g + k], off);
		r = r_end;
		g = g_end;
	}
	for (size_t r = 0; r < ref->nrg; r++) {
		const struct pft_elem *e = &ref->rg[r];
		size_t p = find_packet(ref, e->offset);
		size_t c = p == SIZE_MAX ? SIZE_MAX : range_closer(src, ref, p);
		int ideal_loss = p != SIZE_MAX &&
				 (c == SIZE_MAX || ref->pk[c].offset + ref->pk[c].size > start) &&
				 e->offset < resync;
		if (ideal_loss)
			v->insn_ideal += e->ninsn;
		if (rg_ok[r])
			continue;
		v->insn_lost += e->ninsn;
		if (!ideal_loss && !v->failed) {
			v->failed = 1;
			snprintf(v->why, sizeof(v->why), "range 0x%08x-0x%08x of the packet at 0x%"
				 PRIx64 " lost (damage 0x%" PRIx64 "-0x%" PRIx64 ", resync at 0x%"
				 PRIx64 ")", e->start, e->last, e->offset, start, end, resync);
		}
	}
	free(pk_ok);
	free(rg_ok);
}

/* ---- Reporting ---- */

static void print_header(void)
{
	printf("%-24s %-8s %8s %8s %7s %8s %10s %10s %11s %11s %6s\n", "source", "damage",
	       "variants", "detected", "silent", "latency", "pkts lost", "lost/ideal",
	       "insns lost", "lost/ideal", "failed");
}

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

static void print_tally(const char *name, const char *kind, const struct tally *t)
{
	char lat[32] = "-";

	if (t->detected)
		snprintf(lat, sizeof(lat), "%" PRIu64 "/%" PRIu64, t->latency_sum / t->detected,
			 t->latency_max);
	printf("%-24s %-8s %8u %7.1f%% %6.1f%% %8s %10" PRIu64 " %10.3f %11" PRIu64
	       " %11.3f %6u\n", name, kind, t->variants, 100.0 * ratio(t->detected, t->variants),
	       100.0 * ratio(t->silent, t->variants), lat, t->pk_lost,
	       ratio(t->pk_lost, t->pk_ideal), t->insn_lost, ratio(t->insn_lost, t->insn_ideal),
	       t->failed);
}

static void add_tally(struct tally *sum, const struct tally *t)
{
	sum->variants += t->variants;
	sum->detected += t->detected;
	sum->silent += t->silent;
	sum->failed += t->failed;
	sum->latency_sum += t->latency_sum;
	if (t->latency_max > sum->latency_max)
		sum->latency_max = t->latency_max;
	sum->pk_ref += t->pk_ref;
	sum->pk_ideal += t->pk_ideal;
	sum->pk_lost += t->pk_lost;
	sum->insn_ref += t->insn_ref;
	sum->insn_ideal += t->insn_ideal;
	sum->insn_lost += t->insn_lost;
	sum->ts_low_only += t->ts_low_only;
}

static void write_variant(const struct options *o, const struct source *src, enum kind kind,
			  unsigned i, const uint8_t *buf, size_t len)
{
	char path[4096], name[256];

	if (src->etm3)
		return;
	snprintf(name, sizeof(name), "%s", src->name);
	for (char *c = name; *c; c++)
		if (*c == ':' || *c == '/')
			*c = '_';
	snprintf(path, sizeof(path), "%s/%s-%s-%u.bin", o->write_dir, name, kind_names[kind], i);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "corrupt: %s: cannot write it\n", path);
		exit(2);
	}
	const struct pft_ptm_config *c = &src->cfg;
	printf("%s\t--pft-version 1.%u%s%s --ctxid-bytes %u --ts-bits %u%s%s%s\t%s\n", path,
	       c->version_minor, c->cycle_accurate ? " --cycle-accurate" : "",
	       c->timestamps ? " --timestamps" : "", c->ctxid_bytes, c->ts_64bit ? 64 : 48,
	       c->ts_gray ? " --ts-gray" : "", c->vmid ? " --vmid" : "",
	       c->return_stack ? " --return-stack" : "", src->image_args);
}

static int run_source(const struct options *o, const struct source *src, struct tally *total,
		      unsigned *shown)
{
	struct decoded ref = { 0 }, got = { 0 };
	uint8_t *buf = malloc(src->len + 16);
	int failed = 0;

	if (!buf)
		exit(2);
	decode(src, src->bytes, src->len, &ref);
	if (ref.anomaly || ref.nerr) {
		fprintf(stderr, "corrupt: %s: the undamaged capture does not decode cleanly\n",
			src->name);
		return 1;
	}
	uint64_t ref_insns = 0;
	for (size_t i = 0; i < ref.nrg; i++)
		ref_insns += ref.rg[i].ninsn;
	for (int kind = 0; kind < NKINDS; kind++) {
		struct tally t = { 0 };
		for (unsigned i = 0; i < o->variants; i++) {
			struct damage dmg;
			struct verdict v;
			size_t dlen = make_damage(src, (enum kind)kind, &dmg, buf);

			if (o->write_dir && i < o->write_count) {
				write_variant(o, src, (enum kind)kind, i, buf, dlen);
				continue;
			}
			decode(src, buf, dlen, &got);
			judge(src, &ref, &dmg, dlen, &got, &v);
			t.variants++;
			t.pk_ref += ref.npk;
			t.insn_ref += ref_insns;
			t.pk_ideal += v.pk_ideal;
			t.pk_lost += v.pk_lost;
			t.insn_ideal += v.insn_ideal;
			t.insn_lost += v.insn_lost;
			t.ts_low_only += v.ts_low_only;
			if (!v.detected && v.pk_lost)
				t.silent++;
			if (v.detected) {
				t.detected++;
				t.latency_sum += v.latency;
				if (v.latency > t.latency_max)
					t.latency_max = v.latency;
			}
			if (v.failed) {
				t.failed++;
				failed = 1;
				if ((*shown)++ < o->show)
					fprintf(stderr, "FAIL %s %s at 0x%zx (%zu bytes): %s\n",
						src->name, kind_names[kind], dmg.at, dmg.n, v.why);
			}
		}
		if (!o->write_dir)
			print_tally(src->name, kind_names[kind], &t);
		add_tally(total, &t);
	}
	free(ref.pk);
	free(ref.rg);
	free(ref.err);
	free(got.pk);
	free(got.rg);
	free(got.err);
	free(buf);
	return failed;
}

static int usage(void)
{
	fprintf(stderr, "usage: corrupt [--variants N] [--seed S] [--show N] "
			"[--write DIR COUNT] SNAPSHOT_DIR...\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct options o = { .variants = 300, .show = 10, .seed = 0x5eedc0de2024ull };
	struct source *srcs = NULL;
	size_t nsrcs = 0;
	int i;

	for (i = 1; i < argc && !strncmp(argv[i], "--", 2); i++) {
		if (!strcmp(argv[i], "--variants") && i + 1 < argc)
			o.variants = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			o.seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--show") && i + 1 < argc)
			o.show = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--write") && i + 2 < argc) {
			o.write_dir = argv[++i];
			o.write_count = (unsigned)strtoul(argv[++i], NULL, 0);
		} else
			return usage();
	}
	if (i == argc || !o.variants || !o.seed)
		return usage();
	for (; i < argc; i++)
		if (load_snapshot(argv[i], &srcs, &nsrcs))
			return 2;
	if (!nsrcs) {
		fprintf(stderr, "corrupt: no PTM trace in the snapshots\n");
		return 2;
	}
	if (o.write_dir && o.write_count < o.variants)
		o.variants = o.write_count;

	struct tally total = { 0 };
	unsigned shown = 0;
	int failed = 0;
	rng_state = o.seed;
	if (!o.write_dir)
		print_header();
	for (size_t s = 0; s < nsrcs; s++)
		failed |= run_source(&o, &srcs[s], &total, &shown);
	if (!o.write_dir) {
		print_tally("all", "all", &total);
		printf("\n%u variants, %u failed.  detected: an error was reported; silent: packets"
		       " were lost without an error; latency: bytes from the packet the damage\n"
		       "begins in to the first error (mean/max); lost: packets (NOTSYNC bytes"
		       " aside) and instructions of the undamaged decode that the damaged one\n"
		       "does not reproduce; ideal: those from the damage to the next A-sync +"
		       " I-sync, which no decoder can recover.  Timestamps compared on their\n"
		       "low bits only (no full-width one since the damage): %" PRIu64 ".\n",
		       total.variants, total.failed, total.ts_low_only);
	}
	for (size_t s = 0; s < nsrcs; s++) {
		free(srcs[s].bytes);
		pft_image_free(srcs[s].image);
	}
	free(srcs);
	return failed;
}
