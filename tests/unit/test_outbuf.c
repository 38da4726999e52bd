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

int main(void)
{
	PTU_RUN(decimal);
	PTU_MAIN_END();
}
