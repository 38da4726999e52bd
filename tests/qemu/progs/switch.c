/* Dense switches become jump tables (ARM: ldr pc / add pc; Thumb: tbb,
 * tbh); a sparse one becomes a compare chain. */
#include <stdio.h>

static int __attribute__((noinline)) dense(int x)
{
	switch (x) {
	case 0: return 11;
	case 1: return x * 7;
	case 2: return 5 - x;
	case 3: return x << 4;
	case 4: return 99;
	case 5: return x ^ 0x55;
	case 6: return -x;
	case 7: return x + 1000;
	default: return 0;
	}
}

static int __attribute__((noinline)) wide(int x)
{
	/* Big enough cases for Thumb's tbh (halfword offsets). */
	switch (x) {
	case 0: x += 3; break;
	case 1: x *= 5; break;
	case 2: x -= 9; break;
	case 3: x ^= 0x1234; break;
	case 4: x |= 0x400; break;
	case 5: x = x * x; break;
	case 6: x >>= 1; break;
	case 7: x = ~x; break;
	case 8: x += 8; break;
	case 9: x = 1; break;
	default: x = -1; break;
	}
	return x;
}

static int __attribute__((noinline)) sparse(int x)
{
	switch (x) {
	case 3: return 1;
	case 100: return 2;
	case 1000: return 3;
	case 10000: return 4;
	default: return 0;
	}
}

int main(void)
{
	int s = 0;

	for (int i = -1; i < 12; i++)
		s += dense(i) + wide(i) + sparse(i * i * i);
	s += sparse(1000) + sparse(10000);
	printf("switch %d\n", s);
	return 0;
}
