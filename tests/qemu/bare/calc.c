/* Bare-metal program 1 (built for ARM): arithmetic with recursion,
 * loops and calls through function pointers, interrupted by the timer
 * through each IRQ handler in turn, with the traps in between. */
#include "rt.h"

static unsigned fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static unsigned gcd(unsigned a, unsigned b)
{
	while (b) {
		while (a >= b)
			a -= b;
		unsigned t = a;
		a = b;
		b = t;
	}
	return a;
}

static unsigned op_add(unsigned a, unsigned b) { return a + b; }
static unsigned op_xor(unsigned a, unsigned b) { return a ^ b; }
static unsigned op_mul(unsigned a, unsigned b) { return a * b; }
static unsigned op_gcd(unsigned a, unsigned b) { return gcd(a | 1, b | 1); }

static unsigned (*const ops[])(unsigned, unsigned) = { op_add, op_xor, op_mul, op_gcd };

static unsigned fold(unsigned n)
{
	unsigned acc = 1;

	for (unsigned i = 0; i < n; i++)
		acc = ops[i & 3](acc, i + 3) & 0xffff;
	return acc;
}

static unsigned sieve(unsigned n)
{
	static unsigned char composite[400];
	unsigned count = 0;

	for (unsigned i = 0; i < n; i++)
		composite[i] = 0;
	for (unsigned i = 2; i < n; i++) {
		if (composite[i])
			continue;
		count++;
		for (unsigned j = i + i; j < n; j += i)
			composite[j] = 1;
	}
	return count;
}

int main(void)
{
	unsigned f, p, x;

	rt_init();
	set_irq_handler(IRQ_C);
	timer_start(700, 1);
	f = fib(11);
	x = fold(40);
	ex_traps();
	ex_fiq();

	set_irq_handler(IRQ_NESTED);
	p = sieve(300);
	x += fold(30);

	set_irq_handler(IRQ_SIMPLE);
	f += fib(9);
	ex_back_to_back();
	ex_irq_in_it();
	ex_svc_then_irq();
	timer_stop();
	ex_wfi();
	if (f != 89 + 34 || p != 62 || x == 0)
		rt_fail();
	return rt_finish(2);
}
