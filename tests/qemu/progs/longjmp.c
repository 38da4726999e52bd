/* setjmp/longjmp: a non-local return that skips frames (the return stack
 * no longer matches), and a second setjmp return. */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf env;

static void __attribute__((noinline)) deep(int n)
{
	if (n == 0)
		longjmp(env, 7);
	deep(n - 1);
}

int main(void)
{
	volatile int rounds = 0;
	int r = setjmp(env);

	if (rounds++ < 3)
		deep(5 + rounds);
	printf("setjmp %d rounds %d\n", r, rounds);
	return 0;
}
