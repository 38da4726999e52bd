/* Profiled by pft and rebuilt by clang with the profile (test_sample.sh):
 * a binary search and a bit count inlined into a loop. */
#include <stdio.h>
static unsigned data[100];
static int __attribute__((noinline)) find(unsigned key)
{
	int lo = 0, hi = 99;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (data[mid] == key)
			return mid;
		if (data[mid] < key)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}
static int popcount(unsigned x)
{
	int c = 0;
	while (x) {
		c += x & 1;
		x >>= 1;
	}
	return c;
}
int main(void)
{
	int found = 0, bits = 0;
	for (unsigned i = 0; i < 100; i++)
		data[i] = i * 3 + 1;
	for (unsigned k = 0; k < 300; k += 7) {
		if (find(k) >= 0)
			found++;
		bits += popcount(k);
	}
	printf("%d %d\n", found, bits);
	return 0;
}
