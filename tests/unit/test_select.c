/* Function selections (pft_select_*), the views' output settings and
 * per-instruction answers (pft_views_set_output(), pft_views_insn(), the
 * annotation, insns_only), on tests/views/calls_sample.S (_start 0x8000
 * 8 bytes, fa 0x8100 16 bytes, fb 0x8200 4 bytes, fc 0x8300 8 bytes) and
 * on hand-built code.  Every expected figure is worked out by hand. */
#include "ptunit.h"

#include "pft.h"

#include "calls_sample.h"

static char elf[] = "/tmp/pft-test-select-XXXXXX";

struct buffer {
	char text[16384];
	size_t len;
};

static int to_buffer(void *ctx, const char *buf, size_t len)
{
	struct buffer *b = ctx;

	if (b->len + len >= sizeof(b->text))
		return -1;
	memcpy(b->text + b->len, buf, len);
	b->len += len;
	b->text[b->len] = 0;
	return 0;
}

static struct pft_select *select_in(struct pft_image *img)
{
	struct pft_image *images[] = { img };
	struct pft_select_config sc = { .size = sizeof(sc), .images = images, .nimages = 1 };
	struct pft_select *s = pft_select_alloc(&sc, NULL);

	PTU_CHECK(s != NULL);
	return s;
}

static void by_name(void)
{
	struct pft_image *img = pft_image_alloc(NULL);

	PTU_CHECK(pft_image_add_elf(img, elf, 0) >= 1);
	struct pft_select *s = select_in(img);
	PTU_EQ(pft_select_add(s, "fa"), 1);
	PTU_EQ(pft_select_add(s, "nosuch"), -PFT_ERR_NOT_FOUND);
	PTU_EQ(pft_select_count(s), 1);
	/* fa is 0x8100 .. 0x810f. */
	PTU_EQ(pft_select_contains(s, 0x80fc), 0);
	PTU_EQ(pft_select_contains(s, 0x8100), 1);
	PTU_EQ(pft_select_contains(s, 0x810c), 1);
	PTU_EQ(pft_select_contains(s, 0x8110), 0);
	PTU_EQ(pft_select_overlaps(s, 0x8000, 0x8101), 1);
	PTU_EQ(pft_select_overlaps(s, 0x8000, 0x8100), 0);
	PTU_EQ(pft_select_add(s, "fb"), 1);
	PTU_EQ(pft_select_count(s), 2);
	PTU_EQ(pft_select_contains(s, 0x8200), 1);
	/* Events: a call from _start into fa touches it, one from fc into
	 * fb touches fb; a return from fc to _start touches neither. */
	struct pft_call_event ev = { .kind = PFT_CALL_CALL, .site = 0x8000, .target = 0x8100 };
	PTU_EQ(pft_select_event(s, &ev), 1);
	ev = (struct pft_call_event){ .kind = PFT_CALL_RETURN, .site = 0x8304, .target = 0x8004 };
	PTU_EQ(pft_select_event(s, &ev), 0);
	/* fa's frame unwound by a branch elsewhere (a longjmp), or popped at
	 * the end (no site, no target): its return passes by fa; so does
	 * the unwound return of a function fa called (into fa); a call by
	 * a branch outside fa to a function outside it does not. */
	ev = (struct pft_call_event){ .kind = PFT_CALL_RETURN, .flags = PFT_CALL_F_UNWOUND,
				      .site = 0x8304, .target = 0x8004, .callee = 0x8100,
				      .caller = 0x8000 };
	PTU_EQ(pft_select_event(s, &ev), 1);
	ev = (struct pft_call_event){ .kind = PFT_CALL_RETURN, .flags = PFT_CALL_F_END,
				      .callee = 0x8100 };
	PTU_EQ(pft_select_event(s, &ev), 1);
	ev = (struct pft_call_event){ .kind = PFT_CALL_RETURN, .flags = PFT_CALL_F_UNWOUND,
				      .site = 0x8304, .target = 0x8004, .callee = 0x8300,
				      .caller = 0x8100 };
	PTU_EQ(pft_select_event(s, &ev), 1);
	ev = (struct pft_call_event){ .kind = PFT_CALL_CALL, .site = 0x8300, .target = 0x8400,
				      .callee = 0x8400, .caller = 0x8100 };
	PTU_EQ(pft_select_event(s, &ev), 0);
	PTU_EQ(pft_select_event(NULL, &ev), 1);
	PTU_EQ(pft_select_contains(NULL, 0), 1);
	pft_select_free(s);
	pft_image_free(img);
}

static void clip(void)
{
	struct pft_image *img = pft_image_alloc(NULL);
	struct pft_elem out[4];

	PTU_CHECK(pft_image_add_elf(img, elf, 0) >= 1);
	struct pft_select *s = select_in(img);
	PTU_EQ(pft_select_add(s, "fa"), 1);
	/* Wholly inside: copied as it is. */
	struct pft_elem in = arm_range(0x8100, 2, PFT_ICLASS_JUMP, 1);
	PTU_EQ(pft_select_clip(s, img, &in, out, 4, sizeof(*out)), 1);
	PTU_CHECK(!memcmp(&out[0], &in, sizeof(in)));
	/* Wholly outside: nothing, not even room needed. */
	in = arm_range(0x8300, 2, PFT_ICLASS_RETURN, 1);
	PTU_EQ(pft_select_clip(s, img, &in, NULL, 0, sizeof(*out)), 0);
	/* From 0x80f8 (_start's padding, read from the ELF) through fa's
	 * first two: 0x80f8, 0x80fc outside, 0x8100 and 0x8104 inside, its
	 * last: taken, a jump. */
	in = arm_range(0x80f8, 4, PFT_ICLASS_JUMP, 1);
	PTU_EQ(pft_select_clip(s, img, &in, out, 4, sizeof(*out)), 1);
	PTU_EQ(out[0].start, 0x8100);
	PTU_EQ(out[0].last, 0x8104);
	PTU_EQ(out[0].end, 0x8108);
	PTU_EQ(out[0].ninsn, 2);
	PTU_EQ(out[0].taken, 1);
	/* From fa's last (0x810c) on out of it: the piece ends there, not
	 * taken, its class that of bx lr. */
	in = arm_range(0x810c, 3, PFT_ICLASS_OTHER, 1);
	PTU_EQ(pft_select_clip(s, img, &in, out, 4, sizeof(*out)), 1);
	PTU_EQ(out[0].start, 0x810c);
	PTU_EQ(out[0].ninsn, 1);
	PTU_EQ(out[0].taken, 0);
	PTU_EQ(out[0].iclass, PFT_ICLASS_RETURN);
	/* No room: said. */
	PTU_EQ(pft_select_clip(s, img, &in, out, 0, sizeof(*out)), -PFT_ERR_NOSPACE);
	PTU_EQ(pft_select_clip(s, img, NULL, out, 4, sizeof(*out)), -PFT_ERR_INVALID);
	PTU_EQ(pft_select_clip(s, img, &in, out, 4, 8), -PFT_ERR_INVALID);
	pft_select_free(s);
	pft_image_free(img);
}

static void errors(void)
{
	struct pft_select_config sc = { .size = sizeof(sc), .nimages = 1 };
	int err = 0;

	PTU_CHECK(pft_select_alloc(NULL, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	PTU_CHECK(pft_select_alloc(&sc, &err) == NULL);   /* 1 image, none given */
	PTU_EQ(err, -PFT_ERR_INVALID);
	sc.nimages = 0;
	sc.size = 8;
	PTU_CHECK(pft_select_alloc(&sc, &err) == NULL);
	PTU_EQ(err, -PFT_ERR_INVALID);
	PTU_EQ(pft_select_add(NULL, "x"), -PFT_ERR_INVALID);
	PTU_EQ(pft_select_count(NULL), 0);
	pft_select_free(NULL);

	struct pft_views_output o = { .size = sizeof(o), .order = 7 };
	struct pft_view_insn insn;
	PTU_EQ(pft_views_set_output(NULL, &o), -PFT_ERR_INVALID);
	PTU_EQ(pft_views_insn(NULL, 0, &insn, sizeof(insn)), -PFT_ERR_INVALID);
	struct pft_line_frame f;
	PTU_EQ(pft_lines_frames(NULL, 0, &f, 1, sizeof(f)), -PFT_ERR_INVALID);
}

/* ARM words at 0x1000: cmp r0, #0; moveq r1, #1 (conditional, no
 * branch); beq 0x1014; mov r0, #1; bx lr; (0x1014) bx lr. */
static const uint8_t code[] = {
	0x00, 0x00, 0x50, 0xe3, 0x01, 0x10, 0xa0, 0x03, 0x01, 0x00, 0x00, 0x0a,
	0x01, 0x00, 0xa0, 0xe3, 0x1e, 0xff, 0x2f, 0xe1, 0x1e, 0xff, 0x2f, 0xe1,
};

static void insn_at(struct pft_views *v, size_t index, uint32_t addr, uint64_t count, int dir,
		    uint64_t taken, uint64_t not_taken)
{
	struct pft_view_insn i;

	PTU_EQ(pft_views_insn(v, index, &i, sizeof(i)), 0);
	PTU_EQ(i.addr, addr);
	PTU_EQ(i.count, count);
	PTU_EQ(i.has_direction, dir);
	if (dir) {
		PTU_EQ(i.taken, taken);
		PTU_EQ(i.not_taken, not_taken);
	}
}

/* PTM: ranges end at waypoints only; the MOVEQ's condition is not
 * traced.  r0 == 0 twice (MOVEQ runs, BEQ taken to 0x1014, bx lr), r0 != 0
 * once (BEQ not taken, mov, bx lr). */
static void directions_ptm(void)
{
	struct pft_image *img = pft_image_alloc(NULL);
	struct pft_views_config cfg = { .size = sizeof(cfg), .image = img };
	struct pft_elem eq = arm_range(0x1000, 3, PFT_ICLASS_JUMP, 1);
	struct pft_elem ne = arm_range(0x1000, 3, PFT_ICLASS_JUMP, 0);
	struct pft_elem ret = arm_range(0x1014, 1, PFT_ICLASS_RETURN, 1);
	struct pft_elem rest = arm_range(0x100c, 2, PFT_ICLASS_RETURN, 1);

	PTU_EQ(pft_image_add_buffer(img, 0x1000, code, sizeof(code), PFT_SPACE_ANY, 0), 0);
	for (int insns_only = 0; insns_only < 2; insns_only++) {
		cfg.insns_only = (uint8_t)insns_only;
		struct pft_views *v = pft_views_alloc(&cfg, NULL);
		const struct pft_elem *trace[] = { &eq, &ret, &ne, &rest, &eq, &ret };
		for (size_t i = 0; i < 6; i++)
			PTU_EQ(pft_views_put(v, 0, trace[i], sizeof(*trace[i])), 0);
		PTU_EQ(pft_views_finish(v), 0);
		insn_at(v, 0, 0x1000, 3, 0, 0, 0);   /* cmp */
		insn_at(v, 1, 0x1004, 3, 0, 0, 0);   /* moveq: not traced on PTM */
		insn_at(v, 2, 0x1008, 3, 1, 2, 1);   /* beq */
		insn_at(v, 3, 0x100c, 1, 0, 0, 0);
		insn_at(v, 4, 0x1010, 1, 1, 1, 0);   /* bx lr */
		insn_at(v, 5, 0x1014, 2, 1, 2, 0);
		struct pft_view_insn i;
		PTU_EQ(pft_views_insn(v, 6, &i, sizeof(i)), -PFT_ERR_EOS);
		/* The annotation: no symbols, "[unknown]"; the bytes in hex
		 * without a disassembler. */
		struct buffer out = { .len = 0 };
		PTU_EQ(pft_views_write(v, PFT_VIEW_ANNOTATE_JSONL, NULL, to_buffer, &out), 0);
		PTU_CHECK(strstr(out.text, "{\"type\":\"insn\",\"addr\":\"0x00001008\",\"count\":3,"
				 "\"fn\":\"[unknown]\",\"isa\":\"arm\",\"text\":\"0a000001\","
				 "\"taken\":2,\"not_taken\":1}\n") != NULL);
		out.len = 0;
		PTU_EQ(pft_views_write(v, PFT_VIEW_ANNOTATE_TEXT, NULL, to_buffer, &out), 0);
		PTU_CHECK(strstr(out.text, "13 instructions executed in 1 function") != NULL);
		PTU_CHECK(strstr(out.text, "           3           2           1  0x00001008  "
				 "0a000001\n") != NULL);
		/* Coverage without symbols: runs of one count, end exclusive:
		 * 0x1000-0x100c 3 times, 0x100c-0x1014 once, 0x1014 twice. */
		out.len = 0;
		PTU_EQ(pft_views_write(v, PFT_VIEW_COVERAGE_JSONL, NULL, to_buffer, &out), 0);
		PTU_CHECK(strstr(out.text, "{\"type\":\"range\",\"start\":\"0x00001000\",\"end\":"
				 "\"0x0000100c\",\"count\":3,\"insns\":3}\n{\"type\":\"range\","
				 "\"start\":\"0x0000100c\",\"end\":\"0x00001014\",\"count\":1,"
				 "\"insns\":2}\n{\"type\":\"range\",\"start\":\"0x00001014\","
				 "\"end\":\"0x00001018\",\"count\":2,\"insns\":1}\n") != NULL);
		pft_views_free(v);
	}
	pft_image_free(img);
}

/* ETMv3: every conditional instruction traced.  The MOVEQ passes twice
 * (the range goes on) and fails once (an N atom ends the range there). */
static void directions_etm3(void)
{
	struct pft_image *img = pft_image_alloc(NULL);
	struct pft_views_config cfg = { .size = sizeof(cfg), .image = img };
	struct pft_elem eq = arm_range(0x1000, 3, PFT_ICLASS_JUMP, 1);
	struct pft_elem failed = arm_range(0x1000, 2, PFT_ICLASS_OTHER, 0);
	struct pft_elem beq_n = arm_range(0x1008, 1, PFT_ICLASS_JUMP, 0);

	eq.flags = PFT_ELEM_F_CONDS;
	failed.flags = PFT_ELEM_F_CONDS | PFT_ELEM_F_FAILED;
	beq_n.flags = PFT_ELEM_F_CONDS | PFT_ELEM_F_FAILED;
	PTU_EQ(pft_image_add_buffer(img, 0x1000, code, sizeof(code), PFT_SPACE_ANY, 0), 0);
	struct pft_views *v = pft_views_alloc(&cfg, NULL);
	PTU_EQ(pft_views_put(v, 0, &eq, sizeof(eq)), 0);
	PTU_EQ(pft_views_put(v, 0, &failed, sizeof(failed)), 0);
	PTU_EQ(pft_views_put(v, 0, &beq_n, sizeof(beq_n)), 0);
	PTU_EQ(pft_views_put(v, 0, &eq, sizeof(eq)), 0);
	PTU_EQ(pft_views_finish(v), 0);
	insn_at(v, 0, 0x1000, 3, 0, 0, 0);   /* cmp: no condition */
	insn_at(v, 1, 0x1004, 3, 1, 2, 1);   /* moveq */
	insn_at(v, 2, 0x1008, 3, 1, 2, 1);   /* beq */
	pft_views_free(v);
	pft_image_free(img);
}

/* The output's selection and order on the calls sample: _start calls
 * fa, fa calls fb and tail-calls fc, fc calls fb. */
static void selection_and_order(void)
{
	static const struct { uint32_t start; unsigned iclass; } trace[] = {
		{ 0x8000, PFT_ICLASS_CALL }, { 0x8100, PFT_ICLASS_CALL },
		{ 0x8200, PFT_ICLASS_RETURN }, { 0x8104, PFT_ICLASS_JUMP },
		{ 0x8300, PFT_ICLASS_CALL }, { 0x8200, PFT_ICLASS_RETURN },
		{ 0x8304, PFT_ICLASS_RETURN }, { 0x8004, PFT_ICLASS_JUMP },
	};
	struct pft_image *img = pft_image_alloc(NULL);
	struct buffer out = { .len = 0 };

	PTU_CHECK(pft_image_add_elf(img, elf, 0) >= 1);
	struct pft_views_config cfg = { .size = sizeof(cfg), .image = img };
	struct pft_views *v = pft_views_alloc(&cfg, NULL);
	for (size_t i = 0; i < 8; i++) {
		struct pft_elem e = arm_range(trace[i].start, 1, trace[i].iclass, 1);
		PTU_EQ(pft_views_put(v, 0, &e, sizeof(e)), 0);
	}
	PTU_EQ(pft_views_finish(v), 0);
	struct pft_select *s = select_in(img);
	PTU_EQ(pft_select_add(s, "fb"), 1);
	struct pft_views_output o = { .size = sizeof(o), .select = s };
	PTU_EQ(pft_views_set_output(v, &o), 0);
	/* Only fb: its two instructions' runs, its row, no edge of others. */
	PTU_EQ(pft_views_write(v, PFT_VIEW_PROFILE_TEXT, NULL, to_buffer, &out), 0);
	PTU_CHECK(strstr(out.text, "fb\n") != NULL);
	PTU_CHECK(strstr(out.text, "fa") == NULL && strstr(out.text, "_start") == NULL);
	out.len = 0;
	PTU_EQ(pft_views_write(v, PFT_VIEW_FOLDED, NULL, to_buffer, &out), 0);
	PTU_STREQ(out.text, "_start;fa;fb 1\n_start;fc;fb 1\n");
	out.len = 0;
	PTU_EQ(pft_views_write(v, PFT_VIEW_ANNOTATE_JSONL, NULL, to_buffer, &out), 0);
	PTU_STREQ(out.text, "{\"type\":\"insn\",\"addr\":\"0x00008200\",\"count\":2,\"fn\":\"fb\","
			    "\"isa\":\"arm\",\"text\":\"e12fff1e\",\"taken\":2,\"not_taken\":0}\n");
	/* Hottest first: each ran 2 instructions, so by address. */
	o.select = NULL;
	o.order = PFT_VIEWS_ORDER_HOT;
	PTU_EQ(pft_views_set_output(v, &o), 0);
	out.len = 0;
	PTU_EQ(pft_views_write(v, PFT_VIEW_ANNOTATE_TEXT, NULL, to_buffer, &out), 0);
	char *a = strstr(out.text, "\n_start"), *b = strstr(out.text, "\nfa"),
	     *c = strstr(out.text, "\nfb"), *d = strstr(out.text, "\nfc");
	PTU_CHECK(a && b && c && d && a < b && b < c && c < d);
	PTU_CHECK(strstr(out.text, "entered 2  instructions 2") != NULL);   /* fb */
	pft_views_free(v);
	pft_select_free(s);
	pft_image_free(img);
}

int main(void)
{
	if (build_calls_sample(elf) == 0) {
		PTU_RUN(by_name);
		PTU_RUN(clip);
		PTU_RUN(selection_and_order);
	} else {
		ptu_tests_failed++;
	}
	PTU_RUN(errors);
	PTU_RUN(directions_ptm);
	PTU_RUN(directions_etm3);
	unlink(elf);
	PTU_MAIN_END();
}
