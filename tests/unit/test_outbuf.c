/* The CLI's numbers formatted by hand (pft/outbuf.h), against printf():
 * every listing writes its counts, instructions and cycles through them. */
#include "ptunit.h"

#include "../../pft/outbuf.h"

static struct outbuf out;

static void check_number(uint64_t v)
{
	char want[32];

	out.len = 0;
	ob_dec(&out, v);
	snprintf(want, sizeof(want), "%" PRIu64, v);
	PTU_EQ(out.len, strlen(want));
	if (out.len != strlen(want) || memcmp(out.buf, want, out.len)) {
		fprintf(stderr, "ob_dec(%" PRIu64 ") wrote \"%.*s\"\n", v, (int)out.len, out.buf);
		PTU_CHECK(0);
	}
	out.len = 0;
	ob_dec_right(&out, v, 12);
	snprintf(want, sizeof(want), "%12" PRIu64, v);
	PTU_EQ(out.len, strlen(want));
	PTU_CHECK(memcmp(out.buf, want, out.len) == 0);
	if (v <= INT32_MAX) {
		out.len = 0;
		ob_int(&out, -(int)v);
		snprintf(want, sizeof(want), "%d", -(int)v);
		PTU_EQ(out.len, strlen(want));
		PTU_CHECK(memcmp(out.buf, want, out.len) == 0);
	}
}

/* Both sides of every power of ten, groups of four digits with zeros and
 * nines in them, and numbers of every size at random. */
static void decimal(void)
{
	static const uint64_t some[] = {
		99995, 199995, 100020003, 999900009999ull, 1000099990000ull, 12345678901234ull,
		UINT64_MAX, UINT64_MAX - 1, (uint64_t)INT64_MAX + 1
	};
	uint64_t ten = 1, x = 0x9e3779b97f4a7c15ull;

	for (int k = 0; k < 20; k++) {
		check_number(ten - 1);
		check_number(ten);
		check_number(ten + 1);
		check_number(9 * ten);
		if (k < 19)
			ten *= 10;
	}
	for (size_t i = 0; i < sizeof(some) / sizeof(some[0]); i++)
		check_number(some[i]);
	for (int i = 0; i < 100000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		check_number(x >> (x % 64));
	}
}

/* A running count against ob_dec() and ob_dec_right(): steps within and
 * across groups of four digits, over powers of ten, back down, and at
 * random, written left and right by turns. */
static void running(void)
{
	struct ob_running m = { 0 };
	char want[32], got[32];
	uint64_t v = 0, x = 0x2545f4914f6cdd1dull;

	for (int i = 0; i < 400000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		switch (i % 8) {
		case 0: v = x >> (x % 64); break;                       /* anywhere */
		case 1: v -= v ? x % (v < 100 ? v : 100) : 0; break;     /* back */
		case 2: v = (v / 10000 + 1) * 10000 - 1 - x % 3; break;  /* below a carry */
		default: v += x % (i % 3 ? 30 : 12000); break;           /* on */
		}
		out.len = 0;
		ob_dec_right(&out, v, 12);
		memcpy(want, out.buf, out.len);
		size_t want_len = out.len;
		out.len = 0;
		ob_running_dec_right(&out, &m, v, 12);
		PTU_EQ(out.len, want_len);
		memcpy(got, out.buf, out.len);
		if (out.len != want_len || memcmp(got, want, want_len)) {
			fprintf(stderr, "running %" PRIu64 ": \"%.*s\"\n", v, (int)out.len, got);
			PTU_CHECK(0);
			return;
		}
		out.len = 0;
		ob_running_dec(&out, &m, v);
		snprintf(want, sizeof(want), "%" PRIu64, v);
		PTU_EQ(out.len, strlen(want));
		PTU_CHECK(memcmp(out.buf, want, out.len) == 0);
	}
}

/* A memo's first @len bytes, whatever its room. */
static void memos(void)
{
	char large[224], small[32];

	for (size_t i = 0; i < sizeof(large); i++)
		large[i] = (char)('a' + i % 26);
	memcpy(small, large, sizeof(small));
	for (size_t len = 1; len <= sizeof(large); len++) {
		out.len = 3;
		memset(out.buf, 0, 512);
		ob_memo(&out, large, len);
		PTU_EQ(out.len, 3 + len);
		PTU_CHECK(memcmp(out.buf + 3, large, len) == 0);
		if (len <= sizeof(small)) {
			out.len = 0;
			ob_memo(&out, small, len);
			PTU_EQ(out.len, len);
			PTU_CHECK(memcmp(out.buf, small, len) == 0);
		}
	}
}

int main(void)
{
	PTU_RUN(decimal);
	PTU_RUN(running);
	PTU_RUN(memos);
	PTU_MAIN_END();
}
