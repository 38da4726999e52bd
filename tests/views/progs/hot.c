/* A program for the LLVM sample profile round trip: hot loops the
 * compiler unrolls and vectorises, functions it inlines, a recursion, a
 * jump table and calls through pointers. */
#include <stdio.h>
#include <string.h>

static unsigned table[256];

static inline unsigned rotate(unsigned x, int k)
{
	return (x << k) | (x >> (32 - k));
}

static unsigned hash(const char *s, size_t n)
{
	unsigned h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = rotate(h ^ (unsigned char)s[i], 5) * 16777619u;
	return h;
}

static void __attribute__((noinline)) fill(unsigned seed)
{
	for (int i = 0; i < 256; i++) {
		seed = seed * 1103515245u + 12345u;
		table[i] = seed >> 8;
	}
}

static unsigned __attribute__((noinline)) sum(const unsigned *v, int n)
{
	unsigned s = 0;

	for (int i = 0; i < n; i++)
		s += v[i] & 0xff;
	return s;
}

static int __attribute__((noinline)) classify(unsigned x)
{
	switch (x % 7) {
	case 0: return 3;
	case 1: return (int)(x & 15);
	case 2: return 11;
	case 3: return (int)(x >> 28);
	case 4: return 5;
	case 5: return 1;
	default: return 0;
	}
}

static int __attribute__((noinline)) ack(int m, int n)
{
	if (m == 0)
		return n + 1;
	if (n == 0)
		return ack(m - 1, 1);
	return ack(m - 1, ack(m, n - 1));
}

static unsigned twice(unsigned x) { return x * 2; }
static unsigned thrice(unsigned x) { return x * 3; }

int main(int argc, char **argv)
{
	static const char *words[] = { "alpha", "beta", "gamma", "delta", "epsilon" };
	unsigned (*ops[2])(unsigned) = { twice, thrice };
	unsigned acc = (unsigned)argc;
	int classes[16] = { 0 };

	(void)argv;
	for (int round = 0; round < 40; round++) {
		fill(acc + (unsigned)round);
		acc += sum(table, 256);
		for (int i = 0; i < 64; i++)
			classes[classify(table[i])]++;
		const char *w = words[round % 5];
		acc ^= hash(w, strlen(w));
		acc = ops[round & 1](acc);
	}
	acc += (unsigned)ack(2, 3);
	printf("%u %d %d\n", acc, classes[3], classes[11]);
	return 0;
}
