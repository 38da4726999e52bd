/* Fit check: does a decode's configuration (and image) fit its trace?
 *
 * The check counts what goes wrong in the decode (bad packets after
 * A-syncs, flow errors, flow leaving the image right after I-syncs,
 * timestamps that fall) and keeps the first PFT_DETECT_PREFIX stream bytes.
 * For a verdict it detects the configuration of those bytes again and
 * names the field in which the best reading differs from the one in use.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/pft_detect.h"
#include "pft.h"
#include "common/pft_size.h"
#include "common/pft_diag.h"
#include "image/pft_image_int.h"


const char *pft_fit_reason_name(unsigned reason)
{
	static const char *const names[] = {
		"ok", "cycle_accurate", "ctxid_bytes", "ts_bits", "ts_gray",
		"version", "return_stack", "branch_broadcast", "dmb_dsb", "config",
		"image_address", "image_content", "not_ptm", "no_image"
	};
	return reason < PFT_FIT_REASON_MAX ? names[reason] : "unknown";
}

struct pft_fit *pft_fit_alloc(const struct pft_ptm_config *cfg, struct pft_image *image,
			      int *errcode)
{
	struct pft_fit *fit;
	int err = -PFT_ERR_INVALID;

	if (!cfg || cfg->size < PFT_FIRST_SIZE(struct pft_ptm_config))
		goto fail;
	err = -PFT_ERR_NOMEM;
	fit = calloc(1, sizeof(*fit));
	if (!fit)
		goto fail;
	fit->prefix = malloc(PFT_DETECT_PREFIX);
	if (!fit->prefix) {
		free(fit);
		goto fail;
	}
	pft_ptm_config_init(&fit->cfg);
	pft_copy_known(&fit->cfg, cfg, cfg->size, sizeof(fit->cfg));
	fit->cfg.size = sizeof(fit->cfg);
	fit->image = image;
	if (errcode)
		*errcode = 0;
	return fit;
fail:
	if (errcode)
		*errcode = err;
	return NULL;
}

void pft_fit_free(struct pft_fit *fit)
{
	if (!fit)
		return;
	free(fit->prefix);
	free(fit);
}

int pft_fit_packet(struct pft_fit *fit, const struct pft_ptm_packet *pkt, size_t size,
		   int status)
{
	(void)status;  /* the BAD packet says it all */
	if (!fit || !pkt || size < sizeof(*pkt) || (pkt->size && !pkt->raw))
		return -PFT_ERR_INVALID;
	/* Past the prefix (most packets): no copy, no call to memcpy. */
	if (fit->prefix_len < PFT_DETECT_PREFIX) {
		size_t room = PFT_DETECT_PREFIX - fit->prefix_len;
		size_t n = pkt->size < room ? pkt->size : room;
		memcpy(fit->prefix + fit->prefix_len, pkt->raw, n);
		fit->prefix_len += n;
	}

	/* The cases are PFT_FIT_COUNTED_TYPES (pft_detect.h). */
	switch (pkt->type) {
	case PFT_PTM_PKT_ASYNC:
		fit->asyncs++;
		fit->synced = 1;
		fit->error_since_sync = 0;
		fit->flow_error_since_sync = 0;
		break;
	case PFT_PTM_PKT_BAD:
		if (!fit->synced || pkt->bad == PFT_ERR_PKT_TRUNCATED)
			break;
		fit->bad++;
		if (!fit->error_since_sync)
			fit->errored_syncs++;
		fit->error_since_sync = 1;
		break;
	case PFT_PTM_PKT_ISYNC:
		fit->isyncs++;
		fit->first_after_isync = 1;
		fit->hyp_isyncs += pkt->hyp;
		break;
	case PFT_PTM_PKT_VMID:
		fit->vmids++;
		break;
	case PFT_PTM_PKT_EXCEPTION_RETURN:
		fit->exc_returns++;
		break;
	case PFT_PTM_PKT_TIMESTAMP:
		if (fit->have_ts)
			detect_ts_falls(fit->last_ts, pkt->ts_raw, &fit->ts_falls_binary,
					&fit->ts_falls_gray);
		fit->have_ts = 1;
		fit->last_ts = pkt->ts_raw;
		break;
	default:
		break;
	}
	return 0;
}

int pft_fit_elem(struct pft_fit *fit, const struct pft_elem *elem, size_t size)
{
	if (!fit || !elem || size < PFT_FIRST_SIZE(struct pft_elem))
		return -PFT_ERR_INVALID;
	switch (elem->type) {
	case PFT_ELEM_ERROR:
		/* Bad packets are counted from the packets themselves. */
		if (elem->reason == PFT_ERR_FLOW_BAD_PACKET)
			break;
		fit->flow_errors++;
		if (!fit->have_flow_error) {
			fit->have_flow_error = 1;
			fit->flow_error_offset = elem->offset;
			fit->flow_error_addr = elem->addr;
			fit->flow_error_reason = elem->reason;
		}
		if (!fit->flow_error_since_sync)
			fit->flow_errored_syncs++;
		fit->flow_error_since_sync = 1;
		break;
	case PFT_ELEM_ADDR_NACC:
		fit->nacc++;
		if (fit->first_after_isync) {
			fit->isync_ranges++;
			fit->nacc_after_isync++;
		}
		fit->first_after_isync = 0;
		break;
	case PFT_ELEM_RANGE:
		if (fit->first_after_isync)
			fit->isync_ranges++;
		fit->first_after_isync = 0;
		break;
	default:
		break;
	}
	return 0;
}

int pft_fit_evident(const struct pft_fit *fit)
{
	if (!fit)
		return -PFT_ERR_INVALID;
	return fit->errored_syncs >= 2 || fit->flow_errored_syncs >= 2 ||
	       (fit->isync_ranges >= 2 && fit->nacc_after_isync == fit->isync_ranges);
}

int pft_fit_sure(const struct pft_fit *fit)
{
	return fit->sure || pft_fit_evident(fit) > 0;
}

/* The error code of a verdict's reason: which kind of input is at fault. */
static int reason_error(enum pft_fit_reason reason)
{
	switch (reason) {
	case PFT_FIT_OK: return 0;
	case PFT_FIT_IMAGE_ADDRESS:
	case PFT_FIT_IMAGE_CONTENT:
	case PFT_FIT_NO_IMAGE: return -PFT_ERR_BAD_IMAGE;
	case PFT_FIT_NOT_PTM: return -PFT_ERR_NO_SOURCE;
	default: return -PFT_ERR_BAD_CONFIG;
	}
}

static void say(struct pft_fit_verdict *v, enum pft_fit_reason reason,
		const char *fmt, const char *a, const char *b)
{
	v->reason = reason;
	pft_diag_set(&v->diag, reason_error(reason), fmt, a, b);
}

/* The first parse field in which @det differs from @cur, as a verdict. */
static int parse_field(struct pft_fit_verdict *v, const struct pft_ptm_config *cur,
		       const struct pft_ptm_config *det)
{
	char n[16];

	if (det->cycle_accurate != cur->cycle_accurate) {
		say(v, PFT_FIT_CYCLE_ACCURATE, det->cycle_accurate ?
		    "bad packets after A-syncs: the trace is cycle-accurate; add %s%s" :
		    "bad packets after A-syncs: the trace is not cycle-accurate; drop %s%s",
		    "--cycle-accurate", "");
		return 1;
	}
	if (det->ctxid_bytes != cur->ctxid_bytes) {
		snprintf(n, sizeof(n), "%u", det->ctxid_bytes);
		say(v, PFT_FIT_CTXID_BYTES, det->ctxid_bytes ?
		    "bad packets after A-syncs: context IDs are %s bytes; use --ctxid-bytes %s" :
		    "bad packets after A-syncs: the trace has no context IDs; use --ctxid-bytes %s%s",
		    n, det->ctxid_bytes ? n : "");
		return 1;
	}
	if (det->ts_64bit != cur->ts_64bit) {
		say(v, PFT_FIT_TS_BITS,
		    "bad packets after timestamps: timestamps are %s bits; use --ts-bits %s",
		    det->ts_64bit ? "64" : "48", det->ts_64bit ? "64" : "48");
		return 1;
	}
	return 0;
}

static int flow_field(struct pft_fit_verdict *v, const struct pft_ptm_config *cur,
		      const struct pft_ptm_config *det)
{
	if (det->return_stack != cur->return_stack) {
		say(v, PFT_FIT_RETURN_STACK, det->return_stack ?
		    "E atoms on returns: the return stack was on; add %s%s" :
		    "returns are traced by address: the return stack was off; drop %s%s",
		    "--return-stack", "");
		return 1;
	}
	if (det->branch_broadcast != cur->branch_broadcast) {
		say(v, PFT_FIT_BRANCH_BROADCAST, det->branch_broadcast ?
		    "direct branches are traced by address: add %s%s" :
		    "direct branches are traced by atoms: drop %s%s",
		    "--branch-broadcast", "");
		return 1;
	}
	if (det->dmb_dsb_waypoints != cur->dmb_dsb_waypoints) {
		say(v, PFT_FIT_DMB_DSB, det->dmb_dsb_waypoints ?
		    "flow errors: DMB and DSB are waypoints in this trace; add %s%s" :
		    "flow errors: DMB and DSB are not waypoints in this trace; drop %s%s",
		    "--dmb-dsb-waypoints", "");
		return 1;
	}
	return 0;
}

/* The file of @img's section at @addr (NULL: none, or a buffer). */
static const char *image_file_at(const struct pft_image *img, uint32_t addr)
{
	struct pft_image_section_info si;

	for (size_t i = 0; pft_image_section(img, i, &si, sizeof(si)) == 0; i++)
		if (addr >= si.vaddr && addr - si.vaddr < si.length)
			return si.path;
	for (size_t i = 0; pft_image_section(img, i, &si, sizeof(si)) == 0; i++)
		if (si.path)
			return si.path;
	return NULL;
}

/* The image contradicts the flow the trace describes, first at the
 * recorded flow error. */
static void image_mismatch(struct pft_fit *fit, struct pft_fit_verdict *v)
{
	char where[96], sym[160] = "";
	const char *file = image_file_at(fit->image, fit->flow_error_addr);
	const char *name;
	uint32_t off;

	if (fit->flow_error_addr &&
	    pft_image_symbolize(fit->image, fit->flow_error_addr, &name, &off) == 0)
		snprintf(sym, sizeof(sym), " in %.100s+0x%x", name, (unsigned)off);
	if (fit->flow_error_addr)
		snprintf(where, sizeof(where), "at offset 0x%llx (address 0x%08x%.60s)",
			 (unsigned long long)fit->flow_error_offset,
			 (unsigned)fit->flow_error_addr, sym);
	else
		snprintf(where, sizeof(where), "at offset 0x%llx",
			 (unsigned long long)fit->flow_error_offset);
	v->reason = PFT_FIT_IMAGE_CONTENT;
	pft_diag_set(&v->diag, -PFT_ERR_BAD_IMAGE,
		     "the image does not match the trace: %s the flow contradicts the code "
		     "(%s, %u flow errors in all): %s may not be the binary that ran, or is "
		     "not at its address (--image FILE@ADDR, --elf FILE@BIAS)",
		     where, pft_errstr(fit->flow_error_reason), fit->flow_errors,
		     file ? file : "the image");
}

/* The verdict's counts, and "fits" until something says otherwise. */
static int verdict_begin(struct pft_fit *fit, struct pft_fit_verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->size = sizeof(*v);
	v->bad_packets = fit->bad;
	v->asyncs = fit->asyncs;
	v->isyncs = fit->isyncs;
	v->flow_errors = fit->flow_errors;
	v->addr_nacc = fit->nacc;
	v->nacc_after_isync = fit->nacc_after_isync;
	v->suggested = fit->cfg;
	fit->sure = 0;
	int has_code = pft_image_has_code(fit->image);
	say(v, PFT_FIT_OK, "the configuration%s the trace%s",
	    has_code ? " and image fit" : " fits", "");
	return has_code;
}

/* Nothing a reportable verdict could rest on: no bad packet, no flow
 * error, no address the image lacks, no timestamp that falls as the
 * encoding in use reads it (read the other way, most timestamped traces
 * have some), no PFTv1.1 packet under PFTv1.0.  (A flow setting the
 * prefix decides otherwise is reported only with flow errors.) */
static int nothing_wrong(const struct pft_fit *fit)
{
	return !fit->bad && !fit->flow_errors && !fit->nacc &&
	       !(fit->cfg.ts_gray ? fit->ts_falls_gray : fit->ts_falls_binary) &&
	       !(fit->cfg.version_minor == 0 && (fit->vmids || fit->exc_returns || fit->hyp_isyncs));
}

int pft_fit_report(struct pft_fit *fit, struct pft_fit_verdict *v, size_t size)
{
	if (!fit || !v || size < sizeof(*v))
		return -PFT_ERR_INVALID;
	/* The verdict below detects again, several times: not for a decode
	 * that went well (a perf.data input checks a source per thread). */
	if (nothing_wrong(fit)) {
		verdict_begin(fit, v);
		return PFT_FIT_OK;
	}
	int r = pft_fit_verdict(fit, v, size);
	/* One damaged stretch is not a misfit: only evidence from several
	 * syncs is, or a verdict conclusive by itself. */
	return r > 0 && !pft_fit_sure(fit) ? PFT_FIT_OK : r;
}

int pft_fit_verdict(struct pft_fit *fit, struct pft_fit_verdict *v, size_t size)
{
	struct pft_ptm_detect_scan cur;
	struct pft_detect_ptm_result det;
	int err;

	if (!fit || !v || size < sizeof(*v))
		return -PFT_ERR_INVALID;
	int has_code = verdict_begin(fit, v);

	/* Bad packets because the bytes are no single PTM source at all. */
	if (fit->bad > 0) {
		struct pft_detect_frames fr;
		err = pft_detect_frames(fit->prefix, fit->prefix_len, &fr, sizeof(fr));
		if (err < 0)
			return err;
		if (fr.format == PFT_FRAMES_MEMORY || fr.format == PFT_FRAMES_TPIU) {
			say(v, PFT_FIT_NOT_PTM, "bad packets: the bytes are CoreSight %s frames, "
			    "not one source; give them with %s", fr.format == PFT_FRAMES_TPIU ?
			    "trace-port" : "formatter", "--formatted");
			return (int)v->reason;
		}
		if (fr.format == PFT_FRAMES_RAW && fr.sources[0].protocol != PFT_PROTO_PTM) {
			say(v, PFT_FIT_NOT_PTM, "bad packets: the bytes look like %s trace, not PTM%s",
			    pft_protocol_name(fr.sources[0].protocol), "");
			return (int)v->reason;
		}
	}

	/* Parse options: the saved bytes decode cleanly another way.  When
	 * that way has no bad packet at all, one bad packet is enough. */
	err = pft_ptm_detect_scan(fit->prefix, fit->prefix_len, &fit->cfg, &cur);
	if (err < 0)
		return err;
	err = pft_detect_ptm(fit->prefix, fit->prefix_len, NULL, &det, sizeof(det));
	if (err == -PFT_ERR_NOMEM)
		return err;
	if (err == 0 && det.errors < detect_ptm_score(&cur) && det.errors <= det.asyncs / 4) {
		struct pft_ptm_config s = fit->cfg;
		s.cycle_accurate = det.config.cycle_accurate;
		s.ctxid_bytes = det.config.ctxid_bytes;
		s.ts_64bit = det.config.ts_64bit;
		v->suggested = s;
		if (parse_field(v, &fit->cfg, &det.config)) {
			fit->sure = det.errors == 0;
			return (int)v->reason;
		}
	}
	if (fit->errored_syncs > 0) {
		say(v, PFT_FIT_CONFIG, "bad packets after %s A-syncs and no configuration "
		    "decodes the trace cleanly: damaged trace or not PTM%s",
		    fit->errored_syncs > 1 ? "several" : "an", "");
		return (int)v->reason;
	}

	/* Version: packets PFTv1.0 never sends. */
	if (fit->cfg.version_minor == 0 && (fit->vmids || fit->exc_returns || fit->hyp_isyncs)) {
		v->suggested.version_minor = 1;
		say(v, PFT_FIT_VERSION, "VMID, exception-return or Hyp packets: the trace is "
		    "PFTv1.1; use %s%s", "--pft-version 1.1", "");
		fit->sure = 1;
		return (int)v->reason;
	}
	/* Timestamp encoding: timestamps that fall under the encoding in use
	 * and rise under the other; conclusive when they fall repeatedly and
	 * the other reading falls at most a quarter as often. */
	uint32_t falls_used = fit->cfg.ts_gray ? fit->ts_falls_gray : fit->ts_falls_binary;
	uint32_t falls_other = fit->cfg.ts_gray ? fit->ts_falls_binary : fit->ts_falls_gray;
	if (falls_used > falls_other) {
		v->suggested.ts_gray = !fit->cfg.ts_gray;
		if (fit->cfg.ts_gray)
			say(v, PFT_FIT_TS_GRAY, "timestamps fall when read as Gray code and rise as "
			    "binary: drop %s%s", fit->cfg.version_minor == 0 ? "--pft-version 1.0"
			    : "--ts-gray", fit->cfg.version_minor == 0 ? " (the trace is PFTv1.1)" : "");
		else
			say(v, PFT_FIT_TS_GRAY, "timestamps fall when read as binary and rise as "
			    "Gray code: add %s%s", "--ts-gray", " (or --pft-version 1.0 for a PFTv1.0 "
			    "PTM such as a Cortex-A9's)");
		fit->sure = falls_used >= 2 && falls_other * 4 <= falls_used;
		return (int)v->reason;
	}

	if (!has_code) {
		if (fit->nacc > 0) {
			char n[32];
			snprintf(n, sizeof(n), "%u", fit->nacc);
			say(v, PFT_FIT_NO_IMAGE, "no image given: %s addresses could not be decoded "
			    "(give %s)", n, "--elf or --image");
			fit->sure = 1;
		}
		return (int)v->reason;
	}
	if (fit->isync_ranges > 0 && fit->nacc_after_isync * 2 > fit->isync_ranges) {
		char where[32];
		snprintf(where, sizeof(where), "%u of %u", fit->nacc_after_isync,
			 fit->isync_ranges);
		say(v, PFT_FIT_IMAGE_ADDRESS, "the trace starts outside the image after %s "
		    "I-syncs: wrong load address or missing code%s", where, "");
		return (int)v->reason;
	}
	/* Flow options: the ones the prefix decides must be the ones in use,
	 * errors or not: a wrong branch broadcast or return stack setting can
	 * decode quietly.  Only when some setting decodes the prefix without
	 * flow errors: otherwise the image is at fault, and the setting with
	 * the fewest errors is chance (an image shifted by a page inside the
	 * kernel's code still has E atoms on returns somewhere). */
	err = pft_detect_ptm(fit->prefix, fit->prefix_len, fit->image, &det, sizeof(det));
	if (err == -PFT_ERR_NOMEM)
		return err;
	if (err == 0 && det.errors == 0 && det.flow_errors == 0) {
		struct pft_ptm_config want = fit->cfg;
		if (det.determined & PFT_DETECT_RETURN_STACK)
			want.return_stack = det.config.return_stack;
		if (det.determined & PFT_DETECT_BRANCH_BROADCAST)
			want.branch_broadcast = det.config.branch_broadcast;
		if (det.determined & PFT_DETECT_DMB_DSB)
			want.dmb_dsb_waypoints = det.config.dmb_dsb_waypoints;
		if (flow_field(v, &fit->cfg, &want)) {
			v->suggested = want;
			fit->sure = fit->flow_errors > 0 && fit->bad == 0;
			return (int)v->reason;
		}
	}
	/* Flow errors that no flow setting avoids, in a trace whose packets
	 * decode cleanly: the image is not the code that ran. */
	if (fit->flow_errors > 0 && fit->have_flow_error) {
		image_mismatch(fit, v);
		fit->sure = fit->bad == 0;
	}
	return (int)v->reason;
}

int pft_fit_same_future(const struct pft_fit *a, const struct pft_fit *b)
{
	return a->synced == b->synced && a->error_since_sync == b->error_since_sync &&
	       a->flow_error_since_sync == b->flow_error_since_sync &&
	       a->first_after_isync == b->first_after_isync && a->have_ts == b->have_ts &&
	       (!a->have_ts || a->last_ts == b->last_ts);
}

void pft_fit_add_part(struct pft_fit *into, const struct pft_fit *end, const struct pft_fit *start)
{
	static const struct pft_fit none;

	if (!start)
		start = &none;
	/* The counters count on; the state is where the part ended. */
	into->bad += end->bad - start->bad;
	into->asyncs += end->asyncs - start->asyncs;
	into->isyncs += end->isyncs - start->isyncs;
	into->errored_syncs += end->errored_syncs - start->errored_syncs;
	into->flow_errors += end->flow_errors - start->flow_errors;
	into->nacc += end->nacc - start->nacc;
	into->flow_errored_syncs += end->flow_errored_syncs - start->flow_errored_syncs;
	into->isync_ranges += end->isync_ranges - start->isync_ranges;
	into->nacc_after_isync += end->nacc_after_isync - start->nacc_after_isync;
	into->ts_falls_binary += end->ts_falls_binary - start->ts_falls_binary;
	into->ts_falls_gray += end->ts_falls_gray - start->ts_falls_gray;
	into->vmids += end->vmids - start->vmids;
	into->exc_returns += end->exc_returns - start->exc_returns;
	into->hyp_isyncs += end->hyp_isyncs - start->hyp_isyncs;
	into->synced = end->synced;
	into->error_since_sync = end->error_since_sync;
	into->flow_error_since_sync = end->flow_error_since_sync;
	into->first_after_isync = end->first_after_isync;
	into->have_ts = end->have_ts;
	into->last_ts = end->last_ts;
	if (!into->have_flow_error && end->have_flow_error) {
		into->have_flow_error = 1;
		into->flow_error_offset = end->flow_error_offset;
		into->flow_error_addr = end->flow_error_addr;
		into->flow_error_reason = end->flow_error_reason;
	}
	/* The part's packet bytes after @start, up to the room left (the
	 * part kept at least that many: it began no later in the trace). */
	if (end->prefix_len > start->prefix_len && into->prefix_len < PFT_DETECT_PREFIX) {
		size_t n = end->prefix_len - start->prefix_len;
		size_t room = PFT_DETECT_PREFIX - into->prefix_len;
		memcpy(into->prefix + into->prefix_len, end->prefix + start->prefix_len,
		       n < room ? n : room);
		into->prefix_len += n < room ? n : room;
	}
}
