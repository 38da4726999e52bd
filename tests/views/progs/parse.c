/* Profiled by pft and rebuilt by clang with the profile (test_sample.sh):
 * a number parser with inlined helpers in nested while loops.  clang
 * warns at 90%: two records sit where its IR has only branches. */
#include <stdio.h>
static inline int is_digit(char c) { return c >= '0' && c <= '9'; }
static inline int is_space(char c) { return c == ' ' || c == '\t'; }
static int __attribute__((noinline)) parse(const char *s, int *out, int max)
{
	int n = 0;
	while (*s && n < max) {
		while (is_space(*s))
			s++;
		int v = 0, any = 0;
		while (is_digit(*s)) {
			v = v * 10 + (*s++ - '0');
			any = 1;
		}
		if (any)
			out[n++] = v;
		else if (*s)
			s++;
	}
	return n;
}
int main(void)
{
	int v[32], total = 0;
	const char *in[] = { "12 7  300 x 41", "1 2 3 4 5 6 7 8 9", "\t99\t100 a 5" };
	for (int i = 0; i < 3; i++) {
		int n = parse(in[i], v, 32);
		for (int k = 0; k < n; k++)
			total += v[k];
	}
	printf("%d\n", total);
	return 0;
}
