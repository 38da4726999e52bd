/* The smallest program whose exact profile clang cannot fully apply
 * (test_sample.sh, doc/verification.md): clang computes the loop's result
 * after it (sum + 15) in an instruction it gives the line of "do", where
 * its IR, when the sample loader reads the profile, has only a branch. */
#include <stdio.h>

int main(int argc, char **argv)
{
	unsigned sum = (unsigned)argc, j = 5;

	do
		sum += j;
	while (--j);
	printf("%u %s\n", sum, argv[0]);
	return 0;
}
