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
	PTU_RUN(memos);
	PTU_MAIN_END();
}
