/* A small program without a C library, for the bundled example trace:
 * ARM code (this file) calling Thumb code (demo_thumb.c) and back.
 * Built and traced by make.sh. */
int sort(unsigned *v, int n, int (*before)(unsigned, unsigned));

static long syscall3(long number, long a, long b, long c)
{
	register long r0 __asm__("r0") = a;
	register long r1 __asm__("r1") = b;
	register long r2 __asm__("r2") = c;
	register long r7 __asm__("r7") = number;

	__asm__ volatile("svc 0" : "+r"(r0) : "r"(r1), "r"(r2), "r"(r7) : "memory");
	return r0;
}

static int __attribute__((noinline)) fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static int __attribute__((noinline)) below(unsigned a, unsigned b)
{
	return a < b;
}

/* Decimal digits of @v at the end of @buf; returns where they start. */
static char *__attribute__((noinline)) format(unsigned v, char *end)
{
	do
		*--end = (char)('0' + v % 10);
	while (v /= 10);
	return end;
}

void __attribute__((noreturn)) _start(void)
{
	unsigned v[8] = { 34, 3, 21, 8, 1, 13, 5, 2 };
	char line[32], *p = line + sizeof(line);

	*--p = '\n';
	sort(v, 8, below);
	p = format(v[0] * 1000 + v[7], p);
	*--p = ' ';
	p = format((unsigned)fib(9), p);
	syscall3(4, 1, (long)p, line + sizeof(line) - p);   /* write */
	syscall3(1, 0, 0, 0);                                /* exit */
	__builtin_unreachable();
}
