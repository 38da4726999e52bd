/* Loops: counted, nested, early exit, do/while, and a long run of
 * straight-line code (more than 4096 bytes without a branch, which needs
 * a waypoint update). */
#include <stdio.h>

static unsigned sink;

/* A volatile local: no literal pool (and no branch around one) in between. */
#define S1(i) v = v * 3u + (i);
#define S10(i) S1(i) S1(i + 1) S1(i + 2) S1(i + 3) S1(i + 4) S1(i + 5) S1(i + 6) S1(i + 7) S1(i + 8) S1(i + 9)
#define S100(i) S10(i) S10(i + 10) S10(i + 20) S10(i + 30) S10(i + 40) S10(i + 50) S10(i + 60) S10(i + 70) S10(i + 80) S10(i + 90)

static unsigned __attribute__((noinline)) straight(void)
{
	volatile unsigned v = 1;

	S100(0) S100(100) S100(200) S100(300) S100(400) S100(500) S100(600)
	return v;
}

int main(void)
{
	unsigned a[64], sum = 0, i, j;

	for (i = 0; i < 64; i++)
		a[i] = i * i;
	for (i = 0; i < 8; i++)
		for (j = i; j < 64; j += 7)
			sum += a[j] ^ i;
	for (i = 0; i < 64 && a[i] < 1000; i++)
		sum++;
	j = 5;
	do
		sum += j;
	while (--j);
	sink = straight();
	printf("sum %u sink %u\n", sum, sink);
	return 0;
}
