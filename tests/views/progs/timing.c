#include <setjmp.h>

static jmp_buf env;
volatile int sink;

__attribute__((noinline)) int leaf(int x) { return x * 3 + 1; }

__attribute__((noinline)) int nonleaf(int x)
{
	int s = 0;
	for (int i = 0; i < x; i++)
		s += leaf(i);
	return s;
}

__attribute__((noinline)) int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__attribute__((noinline)) int tail_target(int x) { return leaf(x) + 2; }

__attribute__((noinline)) int tail_caller(int x)
{
	sink = x;
	return tail_target(x + 1);
}

__attribute__((noinline)) void deep(int n)
{
	if (n == 0)
		longjmp(env, 1);
	deep(n - 1);
	sink++;
}

int main(void)
{
	int t = 0;
	for (int i = 0; i < 5; i++)
		t += nonleaf(i);
	t += fib(8);
	for (int i = 0; i < 4; i++)
		t += tail_caller(i);
	if (!setjmp(env))
		deep(3);
	sink = t;
	return 0;
}
