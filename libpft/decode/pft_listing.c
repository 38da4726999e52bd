/*
 * The lines of pft decode's and pft dump's listings (decode.h, listing
 * section), and the fold in which the parallel decode's threads write the
 * decode's (pft_fold.h).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "pft.h"
#include "common/pft_linefmt.h"
#include "decode/pft_fold.h"

_Static_assert(PFT_ELEM_TEXT_MAX == sizeof(struct pft_elem) - 2 &&
		       offsetof(struct pft_elem, isa) == offsetof(struct pft_elem, type) + 1,
	       "a TEXT element's bytes are all but its type and length");

/* Room kept past the names of a JSON range: its line and cycles, and the
 * copies of known size the writers make past what they write. */
enum { TAIL_MAX = 96 };

/* A field: ` key=value` (text) or `,"key":value` (JSON, quoted but for
 * numbers).  @k is a string literal: its length is known when compiled. */
#define field_key(p, k, json, quoted)                                          \
	((json) ? ((quoted) ? lf_lit((p), ",\"" k "\":\"") : lf_lit((p), ",\"" k "\":")) \
		: lf_lit((p), " " k "="))
#define field_str(p, k, v, json) str_value(field_key(p, k, json, 1), (v), (json))
#define field_hex(p, k, v, json) hex_value(field_key(p, k, json, 1), (v), (json))
#define field_int(p, k, v, json) pft_fmt_dec(field_key(p, k, json, 0), (v))

static char *str_value(char *p, const char *v, int json)
{
	p = lf_str(p, v, 200);
	if (json)
		*p++ = '"';
	return p;
}

static char *hex_value(char *p, uint64_t v, int json)
{
	p = lf_lit(p, "0x");
	p = pft_fmt_hex(p, v, 0);
	if (json)
		*p++ = '"';
	return p;
}

/* "{"offset":N,"id":N,"type":"TYPE"". */
static char *json_start(const struct pft_listing *l, uint64_t offset, const struct lf_name *type,
			char *p)
{
	p = lf_lit(p, "{\"offset\":");
	p = pft_fmt_dec(p, offset);
	p = lf_lit(p, ",\"id\":");
	p = lf_int(p, l->id);
	p = lf_lit(p, ",\"type\":\"");
	memcpy(p, type->s, LF_NAME_ROOM);
	p += type->len;
	*p++ = '"';
	return p;
}

/* The CPU of a perf.data source, the time of a merged item. */
static char *json_cpu_time(const struct pft_listing *l, char *p)
{
	if (l->cpu >= 0)
		p = field_int(p, "cpu", (uint64_t)l->cpu, 1);
	if (l->timed)
		p = field_int(p, "time", l->time, 1);
	return p;
}

/* @pre (@plen bytes), @s escaped (for JSON, @json, or a text listing)
 * and @close (if not 0) at @p when that fits in @room bytes: returns the
 * length, more than @room when it does not fit (and nothing was
 * written). */
static size_t name_at(char *p, size_t room, const char *pre, size_t plen, const char *s,
		      int json, char close)
{
	int (*escape)(char *, size_t, const char *, size_t) =
		json ? pft_fmt_escape_json : pft_fmt_escape_text;
	int n = escape(room > plen ? p + plen : NULL, room > plen ? room - plen : 0, s,
		       strlen(s));
	size_t total = plen + (n > 0 ? (size_t)n : 0) + (close != 0);

	if (total <= room) {
		memcpy(p, pre, plen);
		if (close)
			p[total - 1] = close;
	}
	return total;
}

/* Where the code is, of any length, at @p (@buf's line, @end its room
 * but TAIL_MAX): JSON ,"fn":"...","file":"...","line":N; text (an
 * instruction's, after its disassembly of @text_len characters)
 * <fn+0xOFF>  file:line.  Where it does not fit: NULL, and in *@need the
 * room the whole line takes (an upper bound). */
static char *place(const struct pft_listing *l, char *buf, char *p, char *end, size_t *need,
		   int json, size_t text_len)
{
	size_t room = (size_t)(end - p) - TAIL_MAX, t;
	size_t over = 0;

	if (!json && (l->fn || l->file))
		p = lf_spaces(p, text_len < 33 ? 33 - (int)text_len : 1);
	if (l->fn) {
		t = json ? name_at(p, room, ",\"fn\":\"", 7, l->fn, 1, '"')
			 : name_at(p, room, "<", 1, l->fn, 0, 0);
		if (t <= room) {
			p += t;
			room -= t;
			if (!json) {
				p = lf_lit(p, "+0x");
				p = pft_fmt_hex(p, l->fn_offset, 0);
				*p++ = '>';
			}
		} else {
			over += t;
		}
	}
	if (l->file) {
		t = json ? name_at(p, over ? 0 : room, ",\"file\":\"", 9, l->file, 1, '"')
			 : name_at(p, over ? 0 : room, "  ", l->fn ? 2 : 0, l->file, 0, ':');
		if (!over && t <= room) {
			p += t;
			if (json)
				p = lf_lit(p, ",\"line\":");
			p = pft_fmt_dec(p, l->line);
		} else {
			over += t;
		}
	}
	if (over) {
		*need = over + (size_t)(p - buf) + TAIL_MAX;
		return NULL;
	}
	return p;
}

static char *json_range(const struct pft_listing *l, const struct pft_elem *e, char *buf,
			char *p, char *end, size_t *need)
{
	p = field_hex(p, "start", e->start, 1);
	p = field_hex(p, "end", e->end, 1);
	p = field_hex(p, "last", e->last, 1);
	p = field_str(p, "isa", pft_isa_name(e->isa), 1);
	p = field_int(p, "n", e->ninsn, 1);
	p = e->taken ? lf_lit(p, ",\"taken\":true") : lf_lit(p, ",\"taken\":false");
	/* ETMv3: the last instruction failed its condition code check (not
	 * taken says no more of an instruction that is no branch). */
	if (e->flags & PFT_ELEM_F_FAILED)
		p = lf_lit(p, ",\"failed\":true");
	p = field_str(p, "iclass", pft_iclass_name(e->iclass), 1);
	return place(l, buf, p, end, need, 1, 0);
}

static const char *error_text(const struct pft_listing *l, const struct pft_elem *e)
{
	return l->message ? l->message : pft_errstr(e->reason);
}

/* A CONTEXT element's fields: what changed (text: "secure" or
 * "non-secure" for the security state). */
static char *context_fields(const struct pft_elem *e, char *p, int json)
{
	if (e->changed & PFT_CTX_CTXID)
		p = field_hex(p, "ctxid", e->ctxid, json);
	if (e->changed & PFT_CTX_VMID)
		p = field_int(p, "vmid", e->vmid, json);
	if ((e->changed & PFT_CTX_NS) && json)
		p = field_int(p, "ns", e->ns, json);
	else if (e->changed & PFT_CTX_NS)
		p = e->ns ? lf_lit(p, " non-secure") : lf_lit(p, " secure");
	if (e->changed & PFT_CTX_HYP)
		p = field_int(p, "hyp", e->hyp, json);
	if (e->changed & PFT_CTX_ISA)
		p = field_str(p, "isa", pft_isa_name(e->isa), json);
	return p;
}

static char *json_body(const struct pft_listing *l, const struct pft_elem *e, char *p)
{
	char name[PFT_EXCEPTION_NAME_MAX];

	switch (e->type) {
	case PFT_ELEM_TRACE_ON:
		p = field_str(p, "reason", pft_isync_reason_name(e->reason), 1);
		break;
	case PFT_ELEM_EXCEPTION:
		p = field_int(p, "number", e->exception, 1);
		p = field_str(p, "name",
			      pft_exception_name_in(e->profile, e->exception, name, sizeof(name)), 1);
		if (e->has_ret)
			p = field_hex(p, "ret", e->addr, 1);
		break;
	case PFT_ELEM_CONTEXT:
		p = context_fields(e, p, 1);
		break;
	case PFT_ELEM_TIMESTAMP:
		p = field_hex(p, "ts", e->ts, 1);
		break;
	case PFT_ELEM_ADDR_NACC:
		p = field_hex(p, "addr", e->addr, 1);
		break;
	case PFT_ELEM_ERROR:
		p = field_str(p, "msg", error_text(l, e), 1);
		break;
	default:
		break;
	}
	return p;
}

static char *text_body(const struct pft_listing *l, const struct pft_elem *e, char *p)
{
	char name[PFT_EXCEPTION_NAME_MAX];

	p = lf_lit(p, "0x");
	p = pft_fmt_hex(p, e->offset, 8);
	if (l->show_id) {
		p = lf_lit(p, "  ");
		p = pft_fmt_hex(p, (unsigned)l->id, 2);
	}
	p = lf_lit(p, "  ");
	p = lf_name_left(p, pft_elem_type_lf_name(e->type), 10);
	switch (e->type) {
	case PFT_ELEM_RANGE:
		p = lf_lit(p, " 0x");
		p = pft_fmt_hex(p, e->start, 8);
		p = lf_lit(p, "-0x");
		p = pft_fmt_hex(p, e->last, 8);
		*p++ = ' ';
		p = lf_name_left(p, pft_isa_lf_name(e->isa), 5);
		p = lf_lit(p, " n=");
		p = lf_dec_left(p, e->ninsn, 3);
		p = e->taken ? lf_lit(p, " E") : lf_lit(p, " N");
		break;
	case PFT_ELEM_TRACE_ON:
		*p++ = ' ';
		p = lf_str(p, pft_isync_reason_name(e->reason), 32);
		break;
	case PFT_ELEM_EXCEPTION:
		*p++ = ' ';
		p = lf_str(p, pft_exception_name_in(e->profile, e->exception, name, sizeof(name)),
			   sizeof(name));
		p = lf_lit(p, " (");
		p = pft_fmt_dec(p, e->exception);
		*p++ = ')';
		if (e->has_ret) {
			p = lf_lit(p, " ret=0x");
			p = pft_fmt_hex(p, e->addr, 8);
		}
		break;
	case PFT_ELEM_CONTEXT:
		p = context_fields(e, p, 0);
		break;
	case PFT_ELEM_TIMESTAMP:
		p = lf_lit(p, " 0x");
		p = pft_fmt_hex(p, e->ts, 0);
		break;
	case PFT_ELEM_ADDR_NACC:
		p = lf_lit(p, " 0x");
		p = pft_fmt_hex(p, e->addr, 8);
		p = lf_lit(p, ": no memory image here");
		break;
	case PFT_ELEM_ERROR:
		*p++ = ' ';
		p = lf_str(p, error_text(l, e), 200);
		break;
	default:
		break;
	}
	if (e->has_cycles)
		p = field_int(p, "cycles", e->cycles, 0);
	if (l->timed)
		p = field_int(p, "time", l->time, 0);
	*p++ = '\n';
	return p;
}

/* pft_listing_line() for a checked @l and @buf. */
static size_t line_of(const struct pft_listing *l, const struct pft_elem *e, char *buf,
		      size_t size)
{
	char *p = buf;
	size_t need = 0;

	if (l->format != PFT_LISTING_JSONL)
		return (size_t)(text_body(l, e, p) - buf);
	p = json_start(l, e->offset, pft_elem_type_lf_name(e->type), p);
	p = json_cpu_time(l, p);
	p = e->type == PFT_ELEM_RANGE ? json_range(l, e, buf, p, buf + size, &need) : json_body(l, e, p);
	if (!p)
		return need;
	if (e->has_cycles)
		p = field_int(p, "cycles", e->cycles, 1);
	p = lf_lit(p, "}\n");
	return (size_t)(p - buf);
}

int pft_listing_line(const struct pft_listing *l, const struct pft_elem *e, char *buf,
		     size_t size)
{
	if (!l || !e || !buf || l->size < sizeof(*l) || size < PFT_LISTING_LINE_MAX ||
	    size > INT32_MAX)
		return -PFT_ERR_INVALID;
	return (int)line_of(l, e, buf, size);
}

int pft_listing_insn(const struct pft_listing *l, uint64_t offset, uint32_t addr,
		     unsigned isa, unsigned bytes, const char *text, char *buf, size_t size)
{
	static const struct lf_name insn = LF_NAME("insn");
	size_t need = 0, len = text ? strnlen(text, 200) : 0;
	char *p = buf;

	if (!l || !buf || l->size < sizeof(*l) || size < PFT_LISTING_LINE_MAX ||
	    size > INT32_MAX)
		return -PFT_ERR_INVALID;
	if (l->format == PFT_LISTING_JSONL) {
		p = json_start(l, offset, &insn, p);
		p = field_hex(p, "addr", addr, 1);
		p = field_str(p, "isa", pft_isa_name(isa), 1);
		p = field_int(p, "size", bytes, 1);
		p = json_cpu_time(l, p);
		if (!(p = place(l, buf, p, buf + size, &need, 1, 0)))
			return (int)need;
		if (text) {
			size_t room = (size_t)(buf + size - p) - TAIL_MAX;
			size_t t = name_at(p, room, ",\"asm\":\"", 8, text, 1, '"');
			if (t > room)
				return (int)(t + (size_t)(p - buf) + TAIL_MAX);
			p += t;
		}
		p = lf_lit(p, "}\n");
		return (int)(p - buf);
	}
	p = lf_lit(p, "    0x");
	p = pft_fmt_hex(p, addr, 8);
	p = lf_lit(p, "  ");
	p = lf_mem(p, text ? text : "", len);
	if (!(p = place(l, buf, p, buf + size, &need, 0, len)))
		return (int)need;
	*p++ = '\n';
	return (int)(p - buf);
}

/*
 * pft dump's lines: a packet's offset, [ID], bytes, type and fields as
 * "key=value" (text) or "key":value (JSON lines).
 */

/* The packet's bytes, two hex digits each, a space between. */
static char *packet_bytes(char *p, const uint8_t *raw, uint32_t size)
{
	for (uint32_t i = 0; i < size; i++) {
		if (i)
			*p++ = ' ';
		p = pft_fmt_hex(p, raw[i], 2);
	}
	return p;
}

/* "atoms": @n atoms of @bits (bit i: atom i, oldest first), E or N. */
static char *field_atoms(char *p, uint32_t bits, unsigned n, int json)
{
	char atoms[33];

	n = n < 32 ? n : 32;
	for (unsigned i = 0; i < n; i++)
		atoms[i] = (bits >> i) & 1 ? 'E' : 'N';
	atoms[n] = 0;
	return field_str(p, "atoms", atoms, json);
}

/* A packet's line up to its fields: offset, ID, bytes (text: in a column
 * 35 wide, pushed by longer packets), type.  ETMv3's (@etm3) has the ID
 * whatever @l says, and no bytes' column where it has no bytes. */
static char *packet_head(const struct pft_listing *l, char *p, uint64_t offset,
			 const uint8_t *raw, uint32_t size, const char *type, int etm3)
{
	if (l->format == PFT_LISTING_JSONL) {
		p = lf_lit(p, "{\"offset\":");
		p = pft_fmt_dec(p, offset);
		if (etm3 || l->id >= 0) {
			p = lf_lit(p, ",\"id\":");
			p = lf_int(p, l->id);
		}
		p = lf_lit(p, ",\"type\":\"");
		p = lf_str(p, type, 32);
		p = lf_lit(p, "\",\"bytes\":\"");
		p = packet_bytes(p, raw, size);
		*p++ = '"';
		return p;
	}
	p = lf_lit(p, "0x");
	p = pft_fmt_hex(p, offset, 8);
	if (etm3 || l->show_id) {
		p = lf_lit(p, "  ");
		p = pft_fmt_hex(p, (uint32_t)l->id, 2);
	}
	p = lf_lit(p, "  ");
	int width = size ? (int)(3 * size - 1) : etm3 ? 35 : 0;
	p = lf_spaces(packet_bytes(p, raw, size), width < 35 ? 35 - width : 0);
	p = lf_lit(p, "  ");
	return lf_str(p, type, 32);
}

/* A branch or waypoint address.  Before the first I-sync a compressed one
 * gives only its low bits and no instruction set: "addr_bits" says how
 * many (text: "addr=0x...(low N bits)"), and there is no "isa". */
static char *ptm_address(char *p, const struct pft_ptm_packet *pk, int json)
{
	if (pk->isa != PFT_ISA_UNKNOWN) {
		p = field_hex(p, "addr", pk->addr, json);
		return field_str(p, "isa", pft_isa_name(pk->isa), json);
	}
	p = field_hex(p, "addr", pk->addr & ((1ull << pk->addr_bits) - 1), json);
	if (json)
		return field_int(p, "addr_bits", pk->addr_bits, json);
	p = lf_lit(p, "(low ");
	p = pft_fmt_dec(p, pk->addr_bits);
	return lf_lit(p, " bits) isa=unknown");
}

/* A BAD packet's message: @l's, else that of its code @bad, then (if not
 * -1) the reserved header byte @header it stopped at; "msg" in JSON. */
static char *bad_message(const struct pft_listing *l, char *p, int bad, int header, int json)
{
	p = json ? lf_lit(p, ",\"msg\":\"") : lf_lit(p, " ");
	p = lf_str(p, l->message ? l->message : pft_errstr(bad), 200);
	if (!l->message && header >= 0) {
		p = lf_lit(p, " 0x");
		p = pft_fmt_hex(p, (uint64_t)header, 2);
	}
	if (json)
		*p++ = '"';
	return p;
}

static char *ptm_fields(const struct pft_listing *l, const struct pft_ptm_packet *pk,
			unsigned ctxid_bytes, char *p, int json)
{
	switch (pk->type) {
	case PFT_PTM_PKT_ISYNC:
		p = field_hex(p, "addr", pk->addr, json);
		p = field_str(p, "isa", pft_isa_name(pk->isa), json);
		p = field_str(p, "reason", pft_isync_reason_name(pk->reason), json);
		p = field_int(p, "ns", pk->ns, json);
		p = field_int(p, "hyp", pk->hyp, json);
		if (pk->has_ctxid || ctxid_bytes)
			p = field_hex(p, "ctxid", pk->ctxid, json);
		break;
	case PFT_PTM_PKT_ATOM:
		p = field_atoms(p, pk->atoms, pk->n_atoms, json);
		break;
	case PFT_PTM_PKT_BRANCH:
		p = ptm_address(p, pk, json);
		if (pk->exc_bytes) {
			p = field_int(p, "exception", pk->exception, json);
			if (!json)
				p = field_str(p, "name", pft_exception_name(pk->exception), json);
			p = field_int(p, "ns", pk->ns, json);
			p = field_int(p, "hyp", pk->hyp, json);
			p = field_int(p, "altis", pk->altis, json);
		}
		break;
	case PFT_PTM_PKT_WAYPOINT:
		p = ptm_address(p, pk, json);
		break;
	case PFT_PTM_PKT_CONTEXTID:
		p = field_hex(p, "ctxid", pk->ctxid, json);
		break;
	case PFT_PTM_PKT_VMID:
		p = field_int(p, "vmid", pk->vmid, json);
		break;
	case PFT_PTM_PKT_TIMESTAMP:
		p = field_hex(p, "ts", pk->ts, json);
		if (pk->ts_clock_change)
			p = field_int(p, "clock_change", 1, json);
		break;
	case PFT_PTM_PKT_BAD:
		p = bad_message(l, p, pk->bad,
				pk->bad == PFT_ERR_PKT_RESERVED_HEADER && pk->raw && pk->size
					? pk->raw[0] : -1,
				json);
		break;
	default:
		break;
	}
	if (pk->has_cycles)
		p = field_int(p, "cycles", pk->cycles, json);
	return p;
}

/* Whether a packet line can be written: its bytes take three characters
 * each, and a packet's are few. */
static int packet_ok(const struct pft_listing *l, const char *buf, size_t size,
		     const uint8_t *raw, uint32_t psize)
{
	return l && buf && l->size >= sizeof(*l) && size >= PFT_LISTING_LINE_MAX &&
	       size <= INT32_MAX && (!psize || raw) && psize <= 64;
}

/* A packet line's end: the time of a merged item, the newline. */
static int packet_end(const struct pft_listing *l, char *buf, char *p, int json)
{
	if (l->timed)
		p = field_int(p, "time", l->time, json);
	p = json ? lf_lit(p, "}\n") : lf_lit(p, "\n");
	return (int)(p - buf);
}

int pft_listing_ptm_packet(const struct pft_listing *l, const struct pft_ptm_packet *pk,
			   unsigned ctxid_bytes, char *buf, size_t size)
{
	if (!pk || !packet_ok(l, buf, size, pk->raw, pk->size))
		return -PFT_ERR_INVALID;
	int json = l->format == PFT_LISTING_JSONL;
	char *p = packet_head(l, buf, pk->offset, pk->raw, pk->size,
			      pft_ptm_pkt_type_name(pk->type), 0);
	return packet_end(l, buf, ptm_fields(l, pk, ctxid_bytes, p, json), json);
}

/* An ETMv3 packet's fields (@profile: how its exceptions are numbered). */
static char *etm3_fields(const struct pft_listing *l, const struct pft_etm3_packet *pk,
			 unsigned profile, char *p, int json)
{
	switch (pk->type) {
	case PFT_ETM3_PKT_ISYNC:
	case PFT_ETM3_PKT_BRANCH:
		p = field_hex(p, "addr", pk->addr, json);
		p = field_str(p, "isa", pft_isa_name(pk->isa), json);
		if (pk->type == PFT_ETM3_PKT_BRANCH && pk->exception) {
			/* The packet's own number; the name of the exception it
			 * means on the traced core. */
			char name[PFT_EXCEPTION_NAME_MAX];
			int m = profile == PFT_PROFILE_M;
			int ipsr = m ? pft_etm3_m_exception_ipsr(pk->exception) : pk->exception;
			if (ipsr < 0)
				memcpy(name, "reserved", sizeof("reserved"));
			else
				pft_exception_name_in(profile, (unsigned)ipsr, name, sizeof(name));
			p = field_int(p, "exception", pk->exception, json);
			if (json) {
				p = field_str(p, "name", name, json);
			} else {
				p = lf_lit(p, " (");
				p = lf_str(p, name, sizeof(name));
				*p++ = ')';
			}
			p = field_int(p, "cancel", pk->cancel, json);
			if (pk->resume)
				p = field_int(p, "resume", pk->resume, json);
		}
		break;
	case PFT_ETM3_PKT_PHEADER:
		p = field_atoms(p, pk->atoms, pk->n_atoms < 16 ? pk->n_atoms : 16, json);
		break;
	case PFT_ETM3_PKT_CONTEXTID:
		p = field_hex(p, "ctxid", pk->ctxid, json);
		break;
	case PFT_ETM3_PKT_TIMESTAMP:
		p = field_hex(p, "ts", pk->ts, json);
		break;
	case PFT_ETM3_PKT_BAD:
		p = bad_message(l, p, pk->bad, -1, json);
		break;
	default:
		break;
	}
	if (pk->cycles && (pk->type == PFT_ETM3_PKT_PHEADER ||
			   pk->type == PFT_ETM3_PKT_CYCLE_COUNT || pk->has_cycles))
		p = field_int(p, "cycles", pk->cycles, json);
	return p;
}

int pft_listing_etm3_packet(const struct pft_listing *l, const struct pft_etm3_packet *pk,
			    unsigned profile, char *buf, size_t size)
{
	if (!pk || !packet_ok(l, buf, size, pk->raw, pk->size))
		return -PFT_ERR_INVALID;
	int json = l->format == PFT_LISTING_JSONL;
	char *p = packet_head(l, buf, pk->offset, pk->raw, pk->size,
			      pft_etm3_pkt_type_name(pk->type), 1);
	return packet_end(l, buf, etm3_fields(l, pk, profile, p, json), json);
}

/*
 * The fold: the threads write the lines of the elements they decode as
 * TEXT elements, PFT_ELEM_TEXT_MAX bytes each but the last of a batch
 * (nothing is held back: the workers write gaps between batches).  They
 * leave a batch whole where it has elements whose line they cannot write
 * the same as the caller: an ERROR (a bad packet's message needs the
 * packet, which stays the run's), and what no listing has (the other
 * folds' elements).
 */
struct listing_fold {
	struct pft_fold fold;        /* first: pft_listing_fold_free() */
	struct pft_listing l;
};

/* A batch's lines are written at @text until TEXT_BATCH bytes are there,
 * then go out but for the last bytes short of a TEXT element, moved to
 * the start. */
enum { TEXT_BATCH = 4096 };

struct listing_worker {
	const struct listing_fold *f;
	uint64_t lines;
	size_t len;                  /* bytes at @text */
	char text[TEXT_BATCH + PFT_LISTING_LINE_MAX];
};

static void *lf_worker_alloc(void *ctx)
{
	/* Zeroed: a last TEXT element copies the bytes past its count too. */
	struct listing_worker *w = calloc(1, sizeof(*w));

	if (w)
		w->f = ctx;
	return w;
}

static void lf_worker_free(void *w)
{
	free(w);
}

/* TEXT element @out of the PFT_ELEM_TEXT_MAX bytes at @s, @n of which count. */
static void put_text(struct pft_elem *out, const char *s, size_t n)
{
	char *b = (char *)out;
	const size_t first = offsetof(struct pft_elem, type);

	memcpy(b, s, first);
	memcpy(b + offsetof(struct pft_elem, taken), s + first, PFT_ELEM_TEXT_MAX - first);
	out->type = PFT_ELEM_TEXT;
	out->isa = (uint8_t)n;
}

/* The whole TEXT elements of the bytes at w->text, at @out (the rest
 * moved to the start; with @all, a last one of them too): how many. */
static size_t put_texts(struct listing_worker *w, struct pft_elem *out, int all)
{
	size_t k = 0, at = 0;

	for (; w->len - at >= PFT_ELEM_TEXT_MAX; at += PFT_ELEM_TEXT_MAX)
		put_text(&out[k++], w->text + at, PFT_ELEM_TEXT_MAX);
	w->len -= at;
	if (all && w->len) {
		put_text(&out[k++], w->text + at, w->len);
		w->len = 0;
	}
	memmove(w->text, w->text + at, w->len);
	return k;
}

/* The types the threads list: those whose lines are theirs alone, and no
 * NO_SYNC (the CLI watches for a flow beyond those). */
static int listed_by_threads(unsigned type)
{
	return type < PFT_ELEM_ERROR && type != PFT_ELEM_NO_SYNC;
}

static int lf_fold(void *worker, const struct pft_elem *in, size_t n, struct pft_elem *out)
{
	struct listing_worker *w = worker;
	const struct pft_listing *l = &w->f->l;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!listed_by_threads(in[i].type)) {
			k = put_texts(w, out, 1);
			memcpy(out + k, in, n * sizeof(*in));
			return (int)(k + n);
		}
	for (size_t i = 0; i < n; i++) {
		w->len += line_of(l, &in[i], w->text + w->len, PFT_LISTING_LINE_MAX);
		if (w->len >= TEXT_BATCH)
			k += put_texts(w, out + k, 0);
	}
	w->lines += n;
	return (int)(k + put_texts(w, out + k, 1));
}

static int lf_full(void *worker)
{
	(void)worker;
	return 0;
}

static uint64_t lf_folded(const void *worker)
{
	return ((const struct listing_worker *)worker)->lines;
}

/* Each batch's lines went out whole. */
static size_t lf_close(void *worker, struct pft_elem *out, size_t room)
{
	(void)worker;
	(void)out;
	(void)room;
	return 0;
}

static const struct pft_fold_ops listing_fold_ops = {
	.worker_alloc = lf_worker_alloc,
	.worker_free = lf_worker_free,
	.fold = lf_fold,
	.full = lf_full,
	.folded = lf_folded,
	.close = lf_close,
	.keeps_size = 1,
};

struct pft_fold *pft_listing_fold_alloc(const struct pft_listing *l)
{
	struct listing_fold *f;

	/* JSON lines of ranges name their places: the caller's lookups. */
	if (!l || l->size < sizeof(*l) || l->format != PFT_LISTING_TEXT || l->timed || l->message)
		return NULL;
	if (!(f = malloc(sizeof(*f))))
		return NULL;
	f->fold = (struct pft_fold){ .ops = &listing_fold_ops, .ctx = f };
	f->l = *l;
	return &f->fold;
}

void pft_listing_fold_free(struct pft_fold *fold)
{
	free(fold);
}
