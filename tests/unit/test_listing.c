/* pft decode's listing lines (pft_listing_line()) and the fold in which
 * the parallel decode's threads write them (pft_listing_fold_alloc()).
 * The expected lines are doc/listing-format.md's examples and rules,
 * written out by hand. */
#include "ptunit.h"

#include "pft.h"
#include "decode/pft_fold.h"

static char buf[4096], want_line[512];

static const char *line(const struct pft_listing *l, const struct pft_elem *e)
{
	int n = pft_listing_line(l, e, buf, PFT_LISTING_LINE_MAX);

	PTU_CHECK(n > 0 && n < PFT_LISTING_LINE_MAX);
	buf[n > 0 && n < PFT_LISTING_LINE_MAX ? n : 0] = 0;
	return buf;
}

static struct pft_elem range(uint64_t offset, uint32_t start, uint32_t last, uint32_t n)
{
	return (struct pft_elem){ .type = PFT_ELEM_RANGE, .offset = offset, .start = start,
				  .last = last, .end = last + 2, .ninsn = n, .isa = PFT_ISA_THUMB,
				  .taken = 1, .iclass = PFT_ICLASS_JUMP, .has_cycles = 1,
				  .cycles = 522 };
}

static void text_lines(void)
{
	struct pft_listing l = { .size = sizeof(l), .format = PFT_LISTING_TEXT, .show_id = 1,
				 .id = 0x13, .cpu = -1 };
	struct pft_elem e = range(0x67de, 0xc0018d82, 0xc0018d86, 3);

	PTU_STREQ(line(&l, &e),
		  "0x000067de  13  range      0xc0018d82-0xc0018d86 thumb n=3   E cycles=522\n");
	e.taken = 0;
	e.has_cycles = 0;
	e.isa = PFT_ISA_ARM;
	e.ninsn = 1234;
	PTU_STREQ(line(&l, &e),
		  "0x000067de  13  range      0xc0018d82-0xc0018d86 arm   n=1234 N\n");
	e = (struct pft_elem){ .type = PFT_ELEM_TRACE_ON, .offset = 0x67cc,
			       .reason = PFT_ISYNC_PERIODIC };
	PTU_STREQ(line(&l, &e), "0x000067cc  13  trace_on   periodic\n");
	e = (struct pft_elem){ .type = PFT_ELEM_CONTEXT, .offset = 0x67cc, .isa = PFT_ISA_THUMB,
			       .changed = PFT_CTX_NS | PFT_CTX_HYP | PFT_CTX_ISA };
	PTU_STREQ(line(&l, &e), "0x000067cc  13  context    secure hyp=0 isa=thumb\n");
	e = (struct pft_elem){ .type = PFT_ELEM_ADDR_NACC, .offset = 0x6816, .addr = 0xc02f5b3a };
	PTU_STREQ(line(&l, &e), "0x00006816  13  addr_nacc  0xc02f5b3a: no memory image here\n");
	/* One source: no ID; an offset past 32 bits takes its digits. */
	l.show_id = 0;
	e = (struct pft_elem){ .type = PFT_ELEM_TIMESTAMP, .offset = 0x123456789ull,
			       .ts = 0xabc };
	PTU_STREQ(line(&l, &e), "0x123456789  timestamp  0xabc\n");
	/* A name longer than the column pushes the rest. */
	e = (struct pft_elem){ .type = PFT_ELEM_EXCEPTION_RETURN, .offset = 0x20 };
	PTU_STREQ(line(&l, &e), "0x00000020  exception_return\n");
	/* With the time (--merge), last. */
	l.timed = 1;
	l.time = 987654321;
	e = (struct pft_elem){ .type = PFT_ELEM_ERROR, .offset = 0x40,
			       .reason = PFT_ERR_FLOW_BAD_PACKET };
	l.message = "bad formatter frame";
	PTU_STREQ(line(&l, &e), "0x00000040  error      bad formatter frame time=987654321\n");
}

static void json_lines(void)
{
	struct pft_listing l = { .size = sizeof(l), .format = PFT_LISTING_JSONL, .id = 0x10,
				 .cpu = 2, .fn = "main", .file = "a \"b\".c", .line = 7 };
	struct pft_elem e = range(100, 0x10594, 0x105b6, 14);

	e.flags = PFT_ELEM_F_FAILED;
	PTU_STREQ(line(&l, &e),
		  "{\"offset\":100,\"id\":16,\"type\":\"range\",\"cpu\":2,\"start\":\"0x10594\","
		  "\"end\":\"0x105b8\",\"last\":\"0x105b6\",\"isa\":\"thumb\",\"n\":14,"
		  "\"taken\":true,\"failed\":true,\"iclass\":\"jump\",\"fn\":\"main\","
		  "\"file\":\"a \\\"b\\\".c\",\"line\":7,\"cycles\":522}\n");
	l.cpu = -1;
	e = (struct pft_elem){ .type = PFT_ELEM_EXCEPTION, .offset = 13, .exception = 1,
			       .has_ret = 1, .addr = 0x80000504 };
	PTU_STREQ(line(&l, &e),
		  "{\"offset\":13,\"id\":16,\"type\":\"exception\",\"number\":1,"
		  "\"name\":\"debug_halt\",\"ret\":\"0x80000504\"}\n");
}

/* Names longer than the room: the length says how much a line takes, and
 * a buffer of that size takes it. */
static void long_names(void)
{
	static char fn[3000];
	struct pft_listing l = { .size = sizeof(l), .format = PFT_LISTING_JSONL, .cpu = -1,
				 .fn = fn, .file = "x.c", .line = 1 };
	struct pft_elem e = range(0, 0x1000, 0x1000, 1);

	memset(fn, 'f', sizeof(fn) - 1);
	fn[5] = '\n';   /* escaped: 6 bytes */
	int need = pft_listing_line(&l, &e, buf, PFT_LISTING_LINE_MAX);
	PTU_CHECK(need > (int)sizeof(fn) + 5);
	PTU_CHECK(need <= (int)sizeof(buf));
	int n = pft_listing_line(&l, &e, buf, (size_t)need);
	PTU_CHECK(n > 0 && n <= need);
	PTU_CHECK(n > 0 && buf[n - 1] == '\n' && buf[n - 2] == '}');
	PTU_CHECK(strstr(buf, "\"fn\":\"fffff\\u000afff") != NULL);
	PTU_CHECK(strstr(buf, "\"file\":\"x.c\",\"line\":1,\"cycles\":522}\n") != NULL);
	/* The file's name too long alone. */
	l.fn = "main";
	l.file = fn;
	need = pft_listing_line(&l, &e, buf, PFT_LISTING_LINE_MAX);
	PTU_CHECK(need > PFT_LISTING_LINE_MAX);
	n = pft_listing_line(&l, &e, buf, (size_t)need);
	PTU_CHECK(n > (int)sizeof(fn) && n <= need);
	PTU_CHECK(pft_listing_line(&l, &e, buf, PFT_LISTING_LINE_MAX - 1) == -PFT_ERR_INVALID);
	PTU_CHECK(pft_listing_line(NULL, &e, buf, sizeof(buf)) == -PFT_ERR_INVALID);
}

/* Any bytes as an element (a caller's, not the decoder's): a line within
 * PFT_LISTING_LINE_MAX, ended by its newline, in either format. */
static void any_element(void)
{
	struct pft_listing l = { .size = sizeof(l), .show_id = 1, .id = 0x7f, .cpu = 1023 };
	uint64_t x = 0x9e3779b97f4a7c15ull;

	for (int i = 0; i < 20000; i++) {
		struct pft_elem e;
		unsigned char *b = (unsigned char *)&e;
		for (size_t k = 0; k < sizeof(e); k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			b[k] = (unsigned char)x;
		}
		if (i % 2)
			e.type = (uint8_t)(e.type % (PFT_ELEM_TYPE_MAX + 2));
		l.format = (uint8_t)(i % 4 < 2 ? PFT_LISTING_TEXT : PFT_LISTING_JSONL);
		l.timed = (uint8_t)(i % 3 == 0);
		l.time = x;
		int n = pft_listing_line(&l, &e, buf, PFT_LISTING_LINE_MAX);
		PTU_CHECK(n > 0 && n < PFT_LISTING_LINE_MAX && buf[n - 1] == '\n');
		if (!(n > 0 && n < PFT_LISTING_LINE_MAX))
			break;
	}
}

/* pft dump's packet lines: offset, ID (with @show_id), the bytes in a
 * column 35 wide, the type and the fields (doc/listing-format.md). */
static void packet_lines(void)
{
	struct pft_listing l = { .size = sizeof(l), .format = PFT_LISTING_TEXT, .show_id = 1,
				 .id = 0x13, .cpu = -1 };
	static const uint8_t isync[] = { 0x08, 0x83, 0x8d, 0x01, 0xc0, 0x01 };
	static const uint8_t atom[] = { 0xe8, 0x20 }, bad[] = { 0x02 }, branch[] = { 0x41 };
	struct pft_ptm_packet p = { .type = PFT_PTM_PKT_ISYNC, .offset = 0x67cc, .raw = isync,
				    .size = sizeof(isync), .addr = 0xc0018d82, .isa = PFT_ISA_THUMB,
				    .reason = PFT_ISYNC_PERIODIC };
	int n = pft_listing_ptm_packet(&l, &p, 0, buf, PFT_LISTING_LINE_MAX);

	buf[n > 0 ? n : 0] = 0;
	PTU_STREQ(buf, "0x000067cc  13  08 83 8d 01 c0 01                    isync addr=0xc0018d82 "
		       "isa=thumb reason=periodic ns=0 hyp=0\n");
	p = (struct pft_ptm_packet){ .type = PFT_PTM_PKT_ATOM, .offset = 0x67de, .raw = atom,
				     .size = sizeof(atom), .n_atoms = 1, .atoms = 1,
				     .has_cycles = 1, .cycles = 522 };
	n = pft_listing_ptm_packet(&l, &p, 0, buf, PFT_LISTING_LINE_MAX);
	buf[n > 0 ? n : 0] = 0;
	PTU_STREQ(buf, "0x000067de  13  e8 20                                atom atoms=E "
		       "cycles=522\n");
	/* Before the first I-sync: the low bits alone, no instruction set. */
	p = (struct pft_ptm_packet){ .type = PFT_PTM_PKT_BRANCH, .offset = 5, .raw = branch,
				     .size = 1, .addr = 0x12345640, .addr_bits = 7,
				     .isa = PFT_ISA_UNKNOWN };
	l.show_id = 0;
	n = pft_listing_ptm_packet(&l, &p, 0, buf, PFT_LISTING_LINE_MAX);
	buf[n > 0 ? n : 0] = 0;
	PTU_STREQ(buf, "0x00000005  41                                   branch addr=0x40(low 7 bits) "
		       "isa=unknown\n");
	l.format = PFT_LISTING_JSONL;
	n = pft_listing_ptm_packet(&l, &p, 0, buf, PFT_LISTING_LINE_MAX);
	buf[n > 0 ? n : 0] = 0;
	PTU_STREQ(buf, "{\"offset\":5,\"id\":19,\"type\":\"branch\",\"bytes\":\"41\","
		       "\"addr\":\"0x40\",\"addr_bits\":7}\n");
	p = (struct pft_ptm_packet){ .type = PFT_PTM_PKT_BAD, .offset = 0x3e8, .raw = bad,
				     .size = 1, .bad = PFT_ERR_PKT_RESERVED_HEADER };
	l.id = -1;
	n = pft_listing_ptm_packet(&l, &p, 0, buf, PFT_LISTING_LINE_MAX);
	buf[n > 0 ? n : 0] = 0;
	snprintf(want_line, sizeof(want_line),
		 "{\"offset\":1000,\"type\":\"error\",\"bytes\":\"02\",\"msg\":\"%s 0x02\"}\n",
		 pft_errstr(PFT_ERR_PKT_RESERVED_HEADER));
	PTU_STREQ(buf, want_line);
	/* A gap: no bytes, its message, the time of a merge. */
	p = (struct pft_ptm_packet){ .type = PFT_PTM_PKT_BAD, .offset = 0x40 };
	l = (struct pft_listing){ .size = sizeof(l), .show_id = 1, .id = 0x10, .timed = 1,
				  .time = 77, .message = "bad formatter frame" };
	n = pft_listing_ptm_packet(&l, &p, 0, buf, PFT_LISTING_LINE_MAX);
	buf[n > 0 ? n : 0] = 0;
	PTU_STREQ(buf, "0x00000040  10                                       error bad formatter "
		       "frame time=77\n");

	/* ETMv3: the ID always; an exception named as the core numbers it. */
	static const uint8_t e3[] = { 0x01, 0x02, 0x03, 0x04, 0x05 };
	struct pft_etm3_packet q = { .type = PFT_ETM3_PKT_BRANCH, .offset = 0x700, .raw = e3,
				     .size = sizeof(e3), .addr = 0x1000, .isa = PFT_ISA_THUMB,
				     .exception = 11 };
	l = (struct pft_listing){ .size = sizeof(l), .id = 0x10 };
	n = pft_listing_etm3_packet(&l, &q, PFT_PROFILE_M, buf, PFT_LISTING_LINE_MAX);
	buf[n > 0 ? n : 0] = 0;
	char name[PFT_EXCEPTION_NAME_MAX];
	pft_exception_name_in(PFT_PROFILE_M, (unsigned)pft_etm3_m_exception_ipsr(11), name,
			      sizeof(name));
	snprintf(want_line, sizeof(want_line), "0x00000700  10  01 02 03 04 05                       "
		 "branch addr=0x1000 isa=thumb exception=11 (%s) cancel=0\n", name);
	PTU_STREQ(buf, want_line);
	q = (struct pft_etm3_packet){ .type = PFT_ETM3_PKT_PHEADER, .offset = 0x701, .raw = e3,
				      .size = 1, .n_atoms = 3, .atoms = 5, .cycles = 2 };
	l.format = PFT_LISTING_JSONL;
	n = pft_listing_etm3_packet(&l, &q, PFT_PROFILE_A, buf, PFT_LISTING_LINE_MAX);
	buf[n > 0 ? n : 0] = 0;
	PTU_STREQ(buf, "{\"offset\":1793,\"id\":16,\"type\":\"pheader\",\"bytes\":\"01\","
		       "\"atoms\":\"ENE\",\"cycles\":2}\n");
	q.size = 65;
	PTU_EQ(pft_listing_etm3_packet(&l, &q, 0, buf, PFT_LISTING_LINE_MAX), -PFT_ERR_INVALID);
}

/* --insn's lines: the disassembly in a column 33 wide, then the place
 * (text: <fn+0xOFF>  file:line, names escaped for text); JSON: the place
 * and "asm", escaped, after the CPU and the time. */
static void insn_lines(void)
{
	struct pft_listing l = { .size = sizeof(l), .id = 0x10, .cpu = -1, .fn = "main",
				 .fn_offset = 0x1c, .file = "views.c", .line = 61 };
	char text[64];
	int n = pft_listing_insn(&l, 7, 0x1035c, PFT_ISA_THUMB, 2, "movs     r0, #1", buf,
				 PFT_LISTING_LINE_MAX);

	buf[n > 0 ? n : 0] = 0;
	snprintf(text, sizeof(text), "%-33s", "movs     r0, #1");
	snprintf(want_line, sizeof(want_line), "    0x0001035c  %s<main+0x1c>  views.c:61\n", text);
	PTU_STREQ(buf, want_line);
	/* A name with a control character; no file; a long disassembly. */
	l.fn = "m\x1bx";
	l.file = NULL;
	n = pft_listing_insn(&l, 7, 0x1035c, PFT_ISA_ARM, 4,
			     "ldr      r0, [pc, #0x120]   ; some long comment", buf,
			     PFT_LISTING_LINE_MAX);
	buf[n > 0 ? n : 0] = 0;
	PTU_STREQ(buf, "    0x0001035c  ldr      r0, [pc, #0x120]   ; some long comment "
		       "<m\\x1bx+0x1c>\n");
	l = (struct pft_listing){ .size = sizeof(l), .format = PFT_LISTING_JSONL, .id = 0x10,
				  .cpu = 1, .timed = 1, .time = 9, .fn = "f", .file = "a.c",
				  .line = 3 };
	n = pft_listing_insn(&l, 7, 0x8000, PFT_ISA_ARM, 4, "b \"x\"", buf, PFT_LISTING_LINE_MAX);
	buf[n > 0 ? n : 0] = 0;
	PTU_STREQ(buf, "{\"offset\":7,\"id\":16,\"type\":\"insn\",\"addr\":\"0x8000\","
		       "\"isa\":\"arm\",\"size\":4,\"cpu\":1,\"time\":9,\"fn\":\"f\","
		       "\"file\":\"a.c\",\"line\":3,\"asm\":\"b \\\"x\\\"\"}\n");
	/* No disassembly, no place: the line's fixed fields alone. */
	l.fn = l.file = NULL;
	l.timed = 0;
	l.cpu = -1;
	n = pft_listing_insn(&l, 7, 0x8000, PFT_ISA_ARM, 4, NULL, buf, PFT_LISTING_LINE_MAX);
	buf[n > 0 ? n : 0] = 0;
	PTU_STREQ(buf, "{\"offset\":7,\"id\":16,\"type\":\"insn\",\"addr\":\"0x8000\","
		       "\"isa\":\"arm\",\"size\":4}\n");
	/* A file name longer than the room: the length the line takes. */
	static char file[2000];
	memset(file, 'd', sizeof(file) - 1);
	l.format = PFT_LISTING_TEXT;
	l.file = file;
	n = pft_listing_insn(&l, 7, 0x8000, PFT_ISA_ARM, 4, "nop", buf, PFT_LISTING_LINE_MAX);
	PTU_CHECK(n > PFT_LISTING_LINE_MAX && n <= (int)sizeof(buf));
	int m = pft_listing_insn(&l, 7, 0x8000, PFT_ISA_ARM, 4, "nop", buf, (size_t)n);
	PTU_CHECK(m > (int)sizeof(file) && m <= n && buf[m - 1] == '\n');
}

/* The TEXT elements of @out[0..@n), appended at @text (*@len). */
static void take_text(const struct pft_elem *out, size_t n, char *text, size_t *len)
{
	for (size_t i = 0; i < n; i++) {
		PTU_EQ(out[i].type, PFT_ELEM_TEXT);
		PTU_CHECK(out[i].isa <= PFT_ELEM_TEXT_MAX);
		*len += pft_elem_text(&out[i], text + *len);
	}
}

/* The fold writes the lines pft_listing_line() writes, in TEXT elements
 * each full but the last of a call; a batch with an error it leaves
 * whole, after the text before it; JSON and timed listings it refuses. */
static void fold(void)
{
	struct pft_listing l = { .size = sizeof(l), .format = PFT_LISTING_TEXT, .id = 0x13,
				 .cpu = -1 };
	struct pft_fold *f = pft_listing_fold_alloc(&l);
	enum { N = 40 };
	struct pft_elem in[N], out[PFT_FOLD_OUT_MAX(N)];
	static char want[N * 200], got[N * 200 + PFT_ELEM_TEXT_MAX];
	size_t nwant = 0, ngot = 0;

	PTU_CHECK(f != NULL);
	if (!f)
		return;
	void *w = f->ops->worker_alloc(f->ctx);
	PTU_CHECK(w != NULL);
	for (int i = 0; i < N; i++) {
		in[i] = range(0x100 + 7 * (uint64_t)i, 0x8000 + 4 * (uint32_t)i, 0x8010, (uint32_t)i);
		if (i % 5 == 3)
			in[i] = (struct pft_elem){ .type = PFT_ELEM_TIMESTAMP, .offset = 9, .ts = 77 };
		nwant += (size_t)pft_listing_line(&l, &in[i], want + nwant, PFT_LISTING_LINE_MAX);
	}
	int k = f->ops->fold(w, in, N, out);
	PTU_CHECK(k > 0 && (size_t)k <= PFT_FOLD_OUT_MAX(N));
	for (int i = 0; i + 1 < k; i++)
		PTU_EQ(out[i].isa, PFT_ELEM_TEXT_MAX);
	take_text(out, (size_t)k, got, &ngot);
	PTU_EQ(f->ops->close(w, out, 4), 0);
	PTU_EQ(ngot, nwant);
	PTU_CHECK(ngot == nwant && memcmp(got, want, nwant) == 0);
	PTU_EQ(f->ops->folded(w), N);

	/* An error: the batch as it was, nothing held back. */
	in[1] = (struct pft_elem){ .type = PFT_ELEM_ERROR, .offset = 3,
				   .reason = PFT_ERR_FLOW_BAD_PACKET };
	k = f->ops->fold(w, in, 2, out);
	PTU_EQ(k, 2);
	PTU_CHECK(k == 2 && !memcmp(out, in, sizeof(*in) * 2));
	f->ops->worker_free(w);
	pft_listing_fold_free(f);

	l.format = PFT_LISTING_JSONL;
	PTU_CHECK(pft_listing_fold_alloc(&l) == NULL);
	l.format = PFT_LISTING_TEXT;
	l.timed = 1;
	PTU_CHECK(pft_listing_fold_alloc(&l) == NULL);
	pft_listing_fold_free(NULL);
}

int main(void)
{
	PTU_RUN(text_lines);
	PTU_RUN(json_lines);
	PTU_RUN(long_names);
	PTU_RUN(any_element);
	PTU_RUN(packet_lines);
	PTU_RUN(insn_lines);
	PTU_RUN(fold);
	PTU_MAIN_END();
}
