/* PTM event registers: expressions <-> bits [16:0] (IHI 0035B 3.8). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "pft.h"
#include "ptm/pft_event.h"
#include "common/pft_size.h"
#include "core/pft_etm_regs.h"

#define EVENT_MASK 0x1ffffu
#define RES_MASK 0x7fu
#define B_SHIFT 7
#define FN_SHIFT 14
/* Parentheses deeper than this are refused: the parser recurses on them. */
#define NESTING_MAX 64
/* No resource has more than 16 instances: two digits would do. */
#define INDEX_DIGITS_MAX 3

enum { ALWAYS_PRESENT = -1 };

/* A family of resources with consecutive indexes of one type. */
struct resource_kind {
	const char *name;
	uint8_t type;   /* bits [6:4] of the resource number */
	uint8_t first;  /* index of instance 1 */
	uint8_t max;    /* architectural count; 0: one instance, no number in its name */
	int16_t limit;  /* offset of its count in struct pft_event_limits,
			   or ALWAYS_PRESENT */
};

#define LIMIT(field) ((int16_t)offsetof(struct pft_event_limits, field))

/* PFT resource table (IHI 0035B table 3.5); the rest is reserved. */
static const struct resource_kind kinds[] = {
	{ "addr_cmp", 0, 0, 16, LIMIT(addr_cmps) },
	{ "arc", 1, 0, 8, LIMIT(arcs) },
	{ "instr", 1, 8, 4, LIMIT(instr) },
	{ "watch", 2, 0, 8, LIMIT(watchpoints) },
	{ "counter", 4, 0, 4, LIMIT(counters) },
	{ "seq_state", 5, 0, 3, LIMIT(seq_states) },
	{ "ctxid_cmp", 5, 8, 3, LIMIT(ctxid_cmps) },
	{ "vmid_cmp", 5, 11, 0, LIMIT(vmid_cmp) },
	{ "startstop", 5, 15, 0, LIMIT(startstop) },
	{ "ext_in", 6, 0, 4, LIMIT(ext_ins) },
	{ "ext_in_sel", 6, 8, 4, LIMIT(ext_in_sels) },
	{ "ns", 6, 13, 0, LIMIT(nonsecure) },
	{ "prohibited", 6, 14, 0, ALWAYS_PRESENT },
	{ "always", 6, 15, 0, ALWAYS_PRESENT },
};

#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

static unsigned kind_count(const struct resource_kind *k)
{
	return k->max ? k->max : 1;
}

/* The kind of resource number @res and its instance (from 1), or NULL
 * when @res is reserved. */
static const struct resource_kind *kind_of(unsigned res, unsigned *instance)
{
	unsigned type = res >> 4, index = res & 0xf;

	for (size_t i = 0; i < NKINDS; i++) {
		const struct resource_kind *k = &kinds[i];

		if (k->type == type && index >= k->first &&
		    index < k->first + kind_count(k)) {
			*instance = index - k->first + 1;
			return k;
		}
	}
	return NULL;
}

static unsigned resource_of(const struct resource_kind *k, unsigned instance)
{
	return (unsigned)k->type << 4 | (k->first + instance - 1);
}

static int is_implemented(const struct resource_kind *k, unsigned instance,
			  const struct pft_event_limits *limits)
{
	if (k->limit == ALWAYS_PRESENT)
		return 1;
	return instance <= ((const uint8_t *)limits)[k->limit];
}

/* ---- Limits ---- */

static uint8_t at_most(uint32_t v, uint8_t max)
{
	return v > max ? max : (uint8_t)v;
}

int pft_event_limits_max_size(struct pft_event_limits *limits, size_t size)
{
	struct pft_event_limits l = { .size = size };

	if (!limits || size < PFT_FIRST_SIZE(struct pft_event_limits))
		return -PFT_ERR_INVALID;
	for (size_t i = 0; i < NKINDS; i++)
		if (kinds[i].limit != ALWAYS_PRESENT)
			((uint8_t *)&l)[kinds[i].limit] = (uint8_t)kind_count(&kinds[i]);
	memset(limits, 0, size);
	pft_copy_known(limits, &l, size, sizeof(l));
	return 0;
}

void pft_event_limits_apply(struct pft_event_limits *l, const uint32_t *etmccr,
			    const uint32_t *etmccer, const uint32_t *etmidr)
{
	if (etmccr) {
		uint8_t pairs = at_most(*etmccr & 0xf, 8);

		l->arcs = pairs;
		l->addr_cmps = (uint8_t)(2 * pairs);
		l->counters = at_most((*etmccr >> 13) & 7, 4);
		l->seq_states = (*etmccr >> 16) & 1 ? 3 : 0;
		l->ext_ins = at_most((*etmccr >> 17) & 7, 4);
		l->ctxid_cmps = (*etmccr >> 24) & 3;
		l->startstop = (*etmccr >> 26) & 1;
	}
	if (etmccer) {
		l->ext_in_sels = at_most(*etmccer & 7, 4);
		l->instr = at_most((*etmccer >> 13) & 7, 4);
		/* ETMv3.4 meaning of [19:16]; the A9/A15 PTMs read 0 there. */
		l->watchpoints = at_most((*etmccer >> 16) & 0xf, 8);
		l->vmid_cmp = (*etmccer >> 26) & 1;
	}
	if (etmidr) {
		l->nonsecure = (*etmidr >> 19) & 1;
		/* PFTv1.0 has no VMID comparator; ETMCCER[26] is RAZ there. */
		if (((*etmidr >> 4) & 0xf) == 0)
			l->vmid_cmp = 0;
	}
}

int pft_event_limits_from_regs(struct pft_event_limits *limits, uint32_t etmccr,
			       uint32_t etmccer, uint32_t etmidr)
{
	struct pft_event_limits l;

	if (!limits || limits->size < PFT_FIRST_SIZE(struct pft_event_limits))
		return -PFT_ERR_INVALID;
	if (((etmidr >> 8) & 0xf) != 3)
		return -PFT_ERR_BAD_CONFIG;
	if ((etmccr & 0xf) > 8 || ((etmccr >> 13) & 7) > 4 ||
	    ((etmccr >> 17) & 7) > 4 || (etmccer & 7) > 4 ||
	    ((etmccer >> 13) & 7) > 4 || ((etmccer >> 16) & 0xf) > 8)
		return -PFT_ERR_BAD_CONFIG;

	pft_event_limits_max(&l);
	pft_event_limits_apply(&l, &etmccr, &etmccer, &etmidr);
	l.size = limits->size;
	pft_copy_known(limits, &l, limits->size, sizeof(l));
	return 0;
}

int pft_event_limits_to_regs(const struct pft_event_limits *limits,
			     struct pft_regs_context *ctx)
{
	struct pft_event_limits l;
	struct pft_regs_context c = { .have_etmidr = 1, .have_etmccr = 1, .have_etmccer = 1 };

	if (!limits || !ctx || limits->size < PFT_FIRST_SIZE(struct pft_event_limits) ||
	    ctx->size < PFT_FIRST_SIZE(struct pft_regs_context))
		return -PFT_ERR_INVALID;
	memset(&l, 0, sizeof(l));
	pft_copy_known(&l, limits, limits->size, sizeof(l));
	/* ptm-registers-events.md 3-5: the fields pft_event_limits_apply()
	 * reads, ETMCCR[31] (ETMIDR present), ETMCCER[12] (reads 1) left 0 as
	 * in the maximum pft has always assumed. */
	c.etmccr = pft_reg_put(l.arcs, 3, 0) | pft_reg_put(l.counters, 15, 13) |
		   pft_reg_put(l.seq_states != 0, 16, 16) | pft_reg_put(l.ext_ins, 19, 17) |
		   pft_reg_put(l.ctxid_cmps, 25, 24) | pft_reg_put(l.startstop, 26, 26);
	c.etmccer = pft_reg_put(l.ext_in_sels, 2, 0) | pft_reg_put(l.instr, 15, 13) |
		    pft_reg_put(l.watchpoints, 19, 16) |
		    pft_reg_put(l.vmid_cmp, PFT_REG_BIT(PFT_ETMCCER_VIRTUALIZATION));
	/* An ARM PFTv1.1 PTM: implementer 0x41, bit 20 and bits 15:12 as
	 * they read. */
	c.etmidr = pft_reg_put(0x41, 31, 24) | pft_reg_put(1, 20, 20) |
		   pft_reg_put(l.nonsecure, 19, 19) | pft_reg_put(0xf, 15, 12) |
		   pft_reg_put(PFT_ETMIDR_MAJOR_PFT, PFT_ETMIDR_MAJOR) |
		   pft_reg_put(1, PFT_ETMIDR_MINOR);
	c.size = ctx->size;
	pft_copy_known(ctx, &c, ctx->size, sizeof(c));
	return 0;
}

/* The caller's limits as a full struct: NULL is the maximum, fields past
 * the caller's size are "not implemented".  -PFT_ERR_INVALID when its size
 * is below the first layout. */
static int load_limits(const struct pft_event_limits *in,
		       struct pft_event_limits *out)
{
	pft_event_limits_max(out);
	if (!in)
		return 0;
	if (in->size < PFT_FIRST_SIZE(struct pft_event_limits))
		return -PFT_ERR_INVALID;
	memset(out, 0, sizeof(*out));
	pft_copy_known(out, in, in->size, sizeof(*out));
	return 0;
}

/* ---- Fields and names ---- */

int pft_event_unpack(uint32_t value, struct pft_event *ev)
{
	if (!ev || value > EVENT_MASK)
		return -PFT_ERR_INVALID;
	ev->function = (uint8_t)(value >> FN_SHIFT);
	ev->b = (uint8_t)((value >> B_SHIFT) & RES_MASK);
	ev->a = (uint8_t)(value & RES_MASK);
	return 0;
}

int pft_event_pack(const struct pft_event *ev, uint32_t *value)
{
	if (!ev || !value || ev->function > 7 || ev->a > RES_MASK ||
	    ev->b > RES_MASK)
		return -PFT_ERR_INVALID;
	*value = (uint32_t)ev->function << FN_SHIFT |
		 (uint32_t)ev->b << B_SHIFT | ev->a;
	return 0;
}

/* Append the name of @res; returns the new length or -1 on overflow. */
static int put_name(char *buf, size_t len, size_t at, const char *prefix,
		    const struct resource_kind *k, unsigned instance)
{
	int n = k->max ? snprintf(buf + at, len - at, "%s%s%u", prefix, k->name,
				  instance)
		       : snprintf(buf + at, len - at, "%s%s", prefix, k->name);
	if (n < 0 || (size_t)n >= len - at)
		return -1;
	return (int)(at + (size_t)n);
}

int pft_event_resource_name(unsigned resource, char *buf, size_t len)
{
	const struct resource_kind *k;
	unsigned instance;

	if (!buf || resource > RES_MASK)
		return -PFT_ERR_INVALID;
	if (len)
		buf[0] = '\0';
	k = kind_of(resource, &instance);
	if (!k)
		return -PFT_ERR_INVALID;
	int n = len ? put_name(buf, len, 0, "", k, instance) : -1;
	if (n < 0) {
		if (len)
			buf[0] = '\0';
		return -PFT_ERR_NOSPACE;
	}
	return n;
}

/* ---- Parsing ---- */

enum tok_kind { T_END, T_NOT, T_AND, T_OR, T_LPAREN, T_RPAREN, T_NAME, T_BAD };

struct token {
	enum tok_kind kind;
	size_t col, len;
};

/* A resource, possibly negated. */
struct literal {
	uint8_t res, neg;
	size_t col, len;
};

/* What a subexpression reduces to: one literal, or two joined by one
 * operator (more cannot be encoded, so they are refused on sight). */
struct formula {
	unsigned n;
	int is_or;
	struct literal lit[2];
};

struct parser {
	const char *s;
	size_t pos;
	struct token tok;
	const struct pft_event_limits *limits;
	struct pft_event_diag diag;
	int err;
	unsigned depth;
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	       c == '\f';
}

static int is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Does s[0..len) spell @word, ignoring case? */
static int spells(const char *s, size_t len, const char *word)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!word[i] || lower(s[i]) != word[i])
			return 0;
	return word[i] == '\0';
}

static void next_token(struct parser *p)
{
	const char *s = p->s;
	size_t i = p->pos;

	while (is_blank(s[i]))
		i++;
	struct token t = { T_BAD, i, 1 };
	char c = s[i];

	if (c == '\0') {
		t.kind = T_END;
		t.len = 0;
	} else if (c == '!') {
		t.kind = T_NOT;
	} else if (c == '&' || c == '|') {
		t.kind = c == '&' ? T_AND : T_OR;
		if (s[i + 1] == c) /* C-style && and || */
			t.len = 2;
	} else if (c == '(') {
		t.kind = T_LPAREN;
	} else if (c == ')') {
		t.kind = T_RPAREN;
	} else if (is_name_char(c)) {
		while (is_name_char(s[i + t.len]))
			t.len++;
		if (spells(s + i, t.len, "not"))
			t.kind = T_NOT;
		else if (spells(s + i, t.len, "and"))
			t.kind = T_AND;
		else if (spells(s + i, t.len, "or"))
			t.kind = T_OR;
		else
			t.kind = T_NAME;
	}
	p->tok = t;
	p->pos = i + t.len;
}

static void fail_at(struct parser *p, enum pft_error_code problem,
		    size_t col, size_t len)
{
	if (p->err)
		return;
	p->err = problem == PFT_ERR_EVENT_UNIMPLEMENTED ? -PFT_ERR_BAD_CONFIG
						    : -PFT_ERR_INVALID;
	p->diag.problem = problem;
	p->diag.column = col;
	p->diag.length = len;
}

static void fail(struct parser *p, enum pft_error_code problem)
{
	fail_at(p, problem, p->tok.col, p->tok.len);
}

/* The current token, a name, as a literal. */
static void parse_resource(struct parser *p, struct literal *lit)
{
	const char *name = p->s + p->tok.col;
	size_t len = p->tok.len, digits = 0;

	while (digits < len && name[len - digits - 1] >= '0' &&
	       name[len - digits - 1] <= '9')
		digits++;
	size_t stem = len - digits;

	lit->col = p->tok.col;
	lit->len = len;
	lit->neg = 0;
	if (digits == 0 && spells(name, len, "never")) {
		lit->res = PFT_EVENT_RES_ALWAYS;
		lit->neg = 1;
		return;
	}
	const struct resource_kind *k = NULL;
	for (size_t i = 0; i < NKINDS && !k; i++)
		if (spells(name, stem, kinds[i].name))
			k = &kinds[i];
	if (!k) {
		fail(p, PFT_ERR_EVENT_UNKNOWN_RESOURCE);
		return;
	}
	unsigned instance = 1;
	if (k->max) {
		if (digits == 0 || digits > INDEX_DIGITS_MAX) {
			fail(p, PFT_ERR_EVENT_BAD_INDEX);
			return;
		}
		instance = 0;
		for (size_t i = stem; i < len; i++)
			instance = instance * 10 + (unsigned)(name[i] - '0');
		if (instance < 1 || instance > k->max) {
			fail(p, PFT_ERR_EVENT_BAD_INDEX);
			return;
		}
	} else if (digits) {
		fail(p, PFT_ERR_EVENT_BAD_INDEX);
		return;
	}
	lit->res = (uint8_t)resource_of(k, instance);
	if (!is_implemented(k, instance, p->limits)) {
		p->diag.resource = lit->res;
		fail(p, PFT_ERR_EVENT_UNIMPLEMENTED);
	}
}

static void negate(struct formula *f)
{
	/* De Morgan: !(x & y) = !x | !y and !(x | y) = !x & !y. */
	for (unsigned i = 0; i < f->n; i++)
		f->lit[i].neg ^= 1;
	if (f->n == 2)
		f->is_or = !f->is_or;
}

static void combine(struct parser *p, struct formula *f,
		    const struct formula *r, int is_or)
{
	if (f->n + r->n > 2) {
		const struct literal *third = &r->lit[f->n == 2 ? 0 : 1];

		fail_at(p, PFT_ERR_EVENT_TOO_MANY_RESOURCES, third->col, third->len);
		return;
	}
	f->lit[1] = r->lit[0];
	f->n = 2;
	f->is_or = is_or;
}

static void parse_or(struct parser *p, struct formula *f);

static void parse_primary(struct parser *p, struct formula *f)
{
	if (p->tok.kind == T_NAME) {
		f->n = 1;
		f->is_or = 0;
		parse_resource(p, &f->lit[0]);
		if (!p->err)
			next_token(p);
		return;
	}
	if (p->tok.kind != T_LPAREN) {
		fail(p, p->tok.kind == T_BAD ? PFT_ERR_EVENT_BAD_CHAR
					     : PFT_ERR_EVENT_EXPECTED_OPERAND);
		return;
	}
	struct token open = p->tok;

	if (++p->depth > NESTING_MAX) {
		fail(p, PFT_ERR_EVENT_TOO_DEEP);
		return;
	}
	next_token(p);
	parse_or(p, f);
	if (p->err)
		return;
	if (p->tok.kind == T_END)
		fail_at(p, PFT_ERR_EVENT_UNCLOSED_PAREN, open.col, open.len);
	else if (p->tok.kind == T_BAD)
		fail(p, PFT_ERR_EVENT_BAD_CHAR);
	else if (p->tok.kind != T_RPAREN)
		fail(p, PFT_ERR_EVENT_EXPECTED_OPERATOR);
	else
		next_token(p);
	p->depth--;
}

static void parse_unary(struct parser *p, struct formula *f)
{
	unsigned nots = 0;

	while (p->tok.kind == T_NOT) {
		nots++;
		next_token(p);
	}
	parse_primary(p, f);
	if (!p->err && nots % 2)
		negate(f);
}

static void parse_and(struct parser *p, struct formula *f)
{
	parse_unary(p, f);
	while (!p->err && p->tok.kind == T_AND) {
		struct formula r;

		next_token(p);
		parse_unary(p, &r);
		if (!p->err)
			combine(p, f, &r, 0);
	}
}

static void parse_or(struct parser *p, struct formula *f)
{
	parse_and(p, f);
	while (!p->err && p->tok.kind == T_OR) {
		struct formula r;

		next_token(p);
		parse_and(p, &r);
		if (!p->err)
			combine(p, f, &r, 1);
	}
}

/* The register value of a formula: the negated operand goes to A. */
static uint32_t encode(const struct formula *f)
{
	const struct literal *x = &f->lit[0], *y = &f->lit[1];
	unsigned fn;

	if (f->n == 1) {
		fn = x->neg ? PFT_EVENT_NOT_A : PFT_EVENT_A;
		return (uint32_t)fn << FN_SHIFT | x->res;
	}
	if (!x->neg && y->neg) {
		const struct literal *t = x;
		x = y;
		y = t;
	}
	if (f->is_or)
		fn = !x->neg ? PFT_EVENT_A_OR_B
		     : !y->neg ? PFT_EVENT_NOT_A_OR_B : PFT_EVENT_NOT_A_OR_NOT_B;
	else
		fn = !x->neg ? PFT_EVENT_A_AND_B
		     : !y->neg ? PFT_EVENT_NOT_A_AND_B : PFT_EVENT_NOT_A_AND_NOT_B;
	return (uint32_t)fn << FN_SHIFT | (uint32_t)y->res << B_SHIFT | x->res;
}

static void diag_clear(struct pft_event_diag *diag)
{
	memset(diag, 0, sizeof(*diag));
	diag->problem = PFT_ERR_OK;
}

int pft_event_parse(const char *expr, const struct pft_event_limits *limits,
		    uint32_t *value, struct pft_event_diag *diag)
{
	struct pft_event_limits lim;
	struct parser p;
	struct formula f;

	if (diag)
		diag_clear(diag);
	if (!expr || !value || load_limits(limits, &lim) < 0)
		return -PFT_ERR_INVALID;
	memset(&p, 0, sizeof(p));
	diag_clear(&p.diag);
	p.s = expr;
	p.limits = &lim;
	next_token(&p);
	if (p.tok.kind == T_END) {
		fail(&p, PFT_ERR_EVENT_EMPTY);
	} else {
		parse_or(&p, &f);
		if (!p.err && p.tok.kind == T_RPAREN)
			fail(&p, PFT_ERR_EVENT_UNOPENED_PAREN);
		else if (!p.err && p.tok.kind == T_BAD)
			fail(&p, PFT_ERR_EVENT_BAD_CHAR);
		else if (!p.err && p.tok.kind != T_END)
			fail(&p, PFT_ERR_EVENT_EXPECTED_OPERATOR);
	}
	if (diag)
		*diag = p.diag;
	if (p.err)
		return p.err;
	*value = encode(&f);
	return 0;
}

/* ---- Formatting ---- */

/* The operator and the negations of A and B, for each function. */
static const struct {
	const char *op;  /* NULL: A alone */
	uint8_t neg_a, neg_b;
} shapes[8] = {
	[PFT_EVENT_A] = { NULL, 0, 0 },
	[PFT_EVENT_NOT_A] = { NULL, 1, 0 },
	[PFT_EVENT_A_AND_B] = { " & ", 0, 0 },
	[PFT_EVENT_NOT_A_AND_B] = { " & ", 1, 0 },
	[PFT_EVENT_NOT_A_AND_NOT_B] = { " & ", 1, 1 },
	[PFT_EVENT_A_OR_B] = { " | ", 0, 0 },
	[PFT_EVENT_NOT_A_OR_B] = { " | ", 1, 0 },
	[PFT_EVENT_NOT_A_OR_NOT_B] = { " | ", 1, 1 },
};

/* Check the resource in field @operand (against @limits unless NULL);
 * returns 0, or an error described in @diag. */
static int check_operand(unsigned res, char operand,
			 const struct pft_event_limits *limits,
			 struct pft_event_diag *diag)
{
	unsigned instance;
	const struct resource_kind *k = kind_of(res, &instance);

	diag->operand = operand;
	diag->resource = (uint8_t)res;
	if (!k) {
		diag->problem = PFT_ERR_EVENT_RESERVED;
		return -PFT_ERR_INVALID;
	}
	if (limits && !is_implemented(k, instance, limits)) {
		diag->problem = PFT_ERR_EVENT_UNIMPLEMENTED;
		return -PFT_ERR_BAD_CONFIG;
	}
	diag->operand = 0;
	diag->resource = 0;
	return 0;
}

static int format_checked(const struct pft_event *ev, char *buf, size_t len)
{
	unsigned ia = 0, ib = 0; /* set by kind_of() whenever it returns a kind */
	const struct resource_kind *ka = kind_of(ev->a, &ia);
	int n;

	if (!shapes[ev->function].op) {
		int never = ev->function == PFT_EVENT_NOT_A &&
			    ev->a == PFT_EVENT_RES_ALWAYS;
		if (never)
			n = snprintf(buf, len, "never");
		else
			n = put_name(buf, len, 0, shapes[ev->function].neg_a ? "!" : "",
				     ka, ia);
		return n < 0 || (size_t)n >= len ? -1 : n;
	}
	const struct resource_kind *kb = kind_of(ev->b, &ib);

	n = put_name(buf, len, 0, shapes[ev->function].neg_a ? "!" : "", ka, ia);
	if (n >= 0) {
		int m = snprintf(buf + n, len - (size_t)n, "%s",
				 shapes[ev->function].op);
		n = m < 0 || (size_t)m >= len - (size_t)n ? -1 : n + m;
	}
	if (n >= 0)
		n = put_name(buf, len, (size_t)n,
			     shapes[ev->function].neg_b ? "!" : "", kb, ib);
	return n;
}

int pft_event_format(uint32_t value, const struct pft_event_limits *limits,
		     char *buf, size_t len, struct pft_event_diag *diag)
{
	struct pft_event_diag d;
	struct pft_event_limits lim;
	struct pft_event ev;
	int err;

	diag_clear(&d);
	if (buf && len)
		buf[0] = '\0';
	if (!buf) {
		err = -PFT_ERR_INVALID;
		goto out;
	}
	if (pft_event_unpack(value, &ev) < 0) {
		d.problem = PFT_ERR_EVENT_HIGH_BITS;
		err = -PFT_ERR_INVALID;
		goto out;
	}
	if (load_limits(limits, &lim) < 0) {
		err = -PFT_ERR_INVALID;
		goto out;
	}
	int uses_b = shapes[ev.function].op != NULL;

	/* Reserved before unimplemented: it is the graver fault. */
	err = check_operand(ev.a, 'A', NULL, &d);
	if (!err && uses_b)
		err = check_operand(ev.b, 'B', NULL, &d);
	if (!err)
		err = check_operand(ev.a, 'A', &lim, &d);
	if (!err && uses_b)
		err = check_operand(ev.b, 'B', &lim, &d);
	if (err)
		goto out;
	err = len ? format_checked(&ev, buf, len) : -1;
	if (err < 0) {
		if (len)
			buf[0] = '\0';
		err = -PFT_ERR_NOSPACE;
		goto out;
	}
	if (!uses_b && ev.b) {
		d.problem = PFT_ERR_EVENT_B_IGNORED;
		d.operand = 'B';
		d.resource = ev.b;
	}
out:
	if (diag)
		*diag = d;
	return err;
}
