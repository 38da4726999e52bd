/* pft calls' listing in libpft (pft_calls_listing_*): the lines of
 * doc/listing-format.md written out by hand, the running counts across
 * the digits they keep, the writer's error, and many lines through the
 * buffer.  Without an image the functions are their addresses. */
#include "ptunit.h"

#include "pft.h"

static char out[4 << 20];
static size_t nout;
static int fail_with;

static int collect(void *ctx, const char *buf, size_t len)
{
	(void)ctx;
	if (fail_with)
		return fail_with;
	PTU_CHECK(nout + len < sizeof(out));
	if (nout + len < sizeof(out)) {
		memcpy(out + nout, buf, len);
		nout += len;
	}
	return 0;
}

static struct pft_calls_listing *listing(uint8_t format, uint8_t show_id)
{
	struct pft_calls_listing_config c = { .size = sizeof(c), .format = format,
					      .show_id = show_id, .write = collect };
	int err = 1;
	struct pft_calls_listing *l = pft_calls_listing_alloc(&c, &err);

	PTU_CHECK(l != NULL && err == 0);
	nout = 0;
	return l;
}

static const char *text(struct pft_calls_listing *l)
{
	PTU_EQ(pft_calls_listing_flush(l), 0);
	out[nout] = 0;
	return out;
}

static struct pft_call_event call(uint64_t insns, uint32_t depth)
{
	return (struct pft_call_event){ .kind = PFT_CALL_CALL, .depth = depth, .site = 0x105b8,
					.target = 0x109fc, .callee = 0x109fc, .caller = 0x10594,
					.insns = insns, .cycles = insns, .has_cycles = 1,
					.has_ts = 1, .ts = 0 };
}

static void text_lines(void)
{
	struct pft_calls_listing *l = listing(PFT_LISTING_TEXT, 0);
	struct pft_call_event ev = call(14, 1);

	PTU_EQ(pft_calls_listing_header(l), 0);
	PTU_EQ(pft_calls_listing_put(l, &ev, sizeof(ev), NULL, 0x10, -1), 0);
	ev = (struct pft_call_event){ .kind = PFT_CALL_RETURN, .depth = 0, .site = 0x29c20,
				      .target = 0x10a2c, .callee = 0x29bf0, .caller = 0x109fc,
				      .insns = 399, .flags = PFT_CALL_F_END };
	PTU_EQ(pft_calls_listing_put(l, &ev, sizeof(ev), NULL, 0x10, -1), 0);
	PTU_STREQ(text(l),
		  "       insns  kind           depth  from -> to\n"
		  "          14  call               1    0x00010594 -> 0x000109fc  cycles=14"
		  "  ts=0x0\n"
		  "         399  return             0  0x00029bf0 -> 0x000109fc  [end]\n");
	pft_calls_listing_free(l);

	/* Several IDs: the ID column; an unknown caller. */
	l = listing(PFT_LISTING_TEXT, 1);
	ev = call(7, 2);
	ev.caller = 0;
	ev.has_ts = 0;
	ev.has_cycles = 0;
	PTU_EQ(pft_calls_listing_header(l), 0);
	PTU_EQ(pft_calls_listing_put(l, &ev, sizeof(ev), NULL, 0x13, -1), 0);
	PTU_STREQ(text(l),
		  "       insns  id  kind           depth  from -> to\n"
		  "           7  13  call               2      ? -> 0x000109fc\n");
	pft_calls_listing_free(l);
}

static void json_lines(void)
{
	struct pft_calls_listing *l = listing(PFT_LISTING_JSONL, 0);
	struct pft_call_event ev = call(14, 1);

	ev.callee = 0;
	PTU_EQ(pft_calls_listing_header(l), -PFT_ERR_INVALID);
	PTU_EQ(pft_calls_listing_put(l, &ev, sizeof(ev), NULL, 0x10, 3), 0);
	PTU_STREQ(text(l),
		  "{\"id\":16,\"cpu\":3,\"kind\":\"call\",\"depth\":1,\"site\":\"0x105b8\","
		  "\"target\":\"0x109fc\",\"callee\":null,\"callee_addr\":\"0x0\","
		  "\"caller\":null,\"caller_addr\":\"0x10594\",\"insns\":14,\"cycles\":14,"
		  "\"ts\":\"0x0\",\"flags\":[]}\n");
	pft_calls_listing_free(l);
}

/* The counts step by little from line to line: the digits kept must
 * carry where the last four do (9999 -> 10000, 19995 -> 20003), and a
 * count that goes back is written whole. */
static void running_counts(void)
{
	static const uint64_t steps[] = { 5, 9998, 9999, 10000, 10001, 19995, 20003, 20003,
					  99999999, 100000000, 100000007, 42, 1000000000000ull };
	struct pft_calls_listing *l = listing(PFT_LISTING_JSONL, 0);
	char want[256];

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		struct pft_call_event ev = call(steps[i], 1);
		ev.cycles = 3 * steps[i];
		nout = 0;
		PTU_EQ(pft_calls_listing_put(l, &ev, sizeof(ev), NULL, 1, -1), 0);
		text(l);
		snprintf(want, sizeof(want), "\"insns\":%llu,\"cycles\":%llu,",
			 (unsigned long long)steps[i], (unsigned long long)(3 * steps[i]));
		PTU_CHECK(strstr(out, want) != NULL);
	}
	pft_calls_listing_free(l);
}

/* The same at random against printf(): steps within and across groups of
 * four digits, over powers of ten, back down, anywhere; in text lines
 * (12 wide, right-aligned) and JSON lines by turns. */
static void running_random(void)
{
	struct pft_calls_listing *json = listing(PFT_LISTING_JSONL, 0);
	struct pft_calls_listing *txt = listing(PFT_LISTING_TEXT, 0);
	uint64_t v = 0, x = 0x2545f4914f6cdd1dull;
	char want[64];

	for (int i = 0; i < 200000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		switch (i % 8) {
		case 0: v = x >> (x % 64); break;                       /* anywhere */
		case 1: v -= v ? x % (v < 100 ? v : 100) : 0; break;     /* back */
		case 2: v = (v / 10000 + 1) * 10000 - 1 - x % 3; break;  /* below a carry */
		default: v += x % (i % 3 ? 30 : 12000); break;           /* on */
		}
		struct pft_call_event ev = call(v, 1);
		ev.has_cycles = ev.has_ts = 0;
		nout = 0;
		PTU_EQ(pft_calls_listing_put(txt, &ev, sizeof(ev), NULL, 1, -1), 0);
		text(txt);
		snprintf(want, sizeof(want), "%12llu  call", (unsigned long long)v);
		if (strncmp(out, want, strlen(want))) {
			fprintf(stderr, "running %llu: \"%.40s\"\n", (unsigned long long)v, out);
			PTU_CHECK(0);
			break;
		}
		nout = 0;
		PTU_EQ(pft_calls_listing_put(json, &ev, sizeof(ev), NULL, 1, -1), 0);
		text(json);
		snprintf(want, sizeof(want), "\"insns\":%llu,\"flags\"", (unsigned long long)v);
		if (!strstr(out, want)) {
			fprintf(stderr, "running %llu: \"%s\"\n", (unsigned long long)v, out);
			PTU_CHECK(0);
			break;
		}
	}
	pft_calls_listing_free(json);
	pft_calls_listing_free(txt);
}

/* Through the buffer many times over: the lines in order; the writer's
 * first error sticks. */
static void many_lines(void)
{
	struct pft_calls_listing *l = listing(PFT_LISTING_TEXT, 0);
	size_t lines = 0;

	for (uint64_t i = 0; i < 12000; i++) {
		struct pft_call_event ev = call(1000 * i, (uint32_t)(i % 40));
		PTU_EQ(pft_calls_listing_put(l, &ev, sizeof(ev), NULL, 1, -1), 0);
	}
	text(l);
	for (size_t k = 0; k < nout; k++)
		lines += out[k] == '\n';
	PTU_EQ(lines, 12000);
	PTU_CHECK(strstr(out, "\n    11999000  call              39") != NULL);
	fail_with = -PFT_ERR_BAD_FILE;
	struct pft_call_event ev = call(1, 1);
	PTU_EQ(pft_calls_listing_put(l, &ev, sizeof(ev), NULL, 1, -1), 0);
	PTU_EQ(pft_calls_listing_flush(l), -PFT_ERR_BAD_FILE);
	fail_with = 0;
	PTU_EQ(pft_calls_listing_put(l, &ev, sizeof(ev), NULL, 1, -1), -PFT_ERR_BAD_FILE);
	pft_calls_listing_free(l);

	struct pft_calls_listing_config c = { .size = sizeof(c), .format = 7, .write = collect };
	int err = 0;
	PTU_CHECK(pft_calls_listing_alloc(&c, &err) == NULL && err == -PFT_ERR_INVALID);
	c.format = PFT_LISTING_TEXT;
	c.write = NULL;
	PTU_CHECK(pft_calls_listing_alloc(&c, NULL) == NULL);
	PTU_EQ(pft_calls_listing_put(NULL, &ev, sizeof(ev), NULL, 1, -1), -PFT_ERR_INVALID);
	pft_calls_listing_free(NULL);
}

int main(void)
{
	PTU_RUN(text_lines);
	PTU_RUN(json_lines);
	PTU_RUN(running_counts);
	PTU_RUN(running_random);
	PTU_RUN(many_lines);
	PTU_MAIN_END();
}
