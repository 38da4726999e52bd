/* A program for the views of executed code: recursion, calls through
 * function pointers, a callback from the C library (qsort), a tail call,
 * an inlined function, setjmp/longjmp, a conditional branch that always
 * goes one way, and a function that is never called. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static jmp_buf env;
static volatile int sink;

static int __attribute__((noinline)) fib(int n)
{
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

static int __attribute__((noinline)) add(int a, int b) { return a + b; }
static int __attribute__((noinline)) mul(int a, int b) { return a * b; }

static int (*const ops[])(int, int) = { add, mul };

static int cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static inline __attribute__((always_inline)) int square(int x)
{
	sink = x;  /* a volatile store: code of its own where inlined */
	return x * x;
}

static int __attribute__((noinline)) leaf(int x)
{
	sink = x;
	return x + 1;
}

/* Ends with a jump to leaf (a tail call at -O2). */
int __attribute__((noinline)) tail(int x)
{
	sink = x * 3;
	return leaf(x + sink);
}

static void __attribute__((noinline)) deep(int n)
{
	if (n == 0)
		longjmp(env, 1);
	deep(n - 1);
	sink = n;
}

int __attribute__((noinline)) never_called(int x)
{
	return x * 7 + 1;
}

int main(int argc, char **argv)
{
	int v[8] = { 5, 3, 7, 1, 8, 2, 6, 4 }, acc = 1;
	(void)argv;

	for (int i = 0; i < 6; i++)
		acc = ops[i & 1](acc, i + 1);
	acc += fib(7) + square(argc + 2);
	qsort(v, 8, sizeof(v[0]), cmp);
	acc += tail(acc);
	if (!setjmp(env))
		deep(4);
	if (argc > 5)
		acc += never_called(acc);
	printf("%d %d\n", acc, v[0]);
	return 0;
}
