/* Recursion deeper than a PTM's return stack (16 entries), mutual
 * recursion, and a non-tail call chain with several returns. */
#include <stdio.h>

static int fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static int is_odd(unsigned n);

static int is_even(unsigned n)
{
	return n == 0 ? 1 : is_odd(n - 1);
}

static int is_odd(unsigned n)
{
	return n == 0 ? 0 : is_even(n - 1);
}

static unsigned depth(unsigned n)
{
	/* Deep enough to overflow the return stack. */
	return n ? 1 + depth(n - 1) * 1u : 0;
}

int main(void)
{
	printf("fib %d even %d depth %u\n", fib(12), is_even(41), depth(40));
	return 0;
}
