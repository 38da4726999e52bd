/* busy.c - ordinary code under a fast SysTick and a chatty interrupt: a
 * switch the compiler turns into a table branch (TBB/TBH), calls through
 * function pointers, recursion, loops and conditional code, interrupted
 * every few dozen instructions wherever the timer falls, after branches
 * as well as between them; the SysTick handler pends an external
 * interrupt now and then, which tail-chains.  Built with a short reload
 * (-DRVR=3), SysTick also comes before the first instruction of another
 * handler qemu has just entered (qemu takes it then, as a higher priority
 * exception preempting that one), and right after conditional branches and
 * returns, where only the flags and registers qemu logs tell where they
 * went. */
#include "cm.h"

#ifndef RVR
#define RVR 40   /* SysTick's reload: a tick every RVR + 1 cycles */
#endif

static volatile uint32_t ticks, irqs, sink;

void systick_handler(void)
{
	if (++ticks % 3 == 0)
		pend_irq(13);
}

void irq_handler(void)
{
	irqs++;
}

static uint32_t __attribute__((noinline)) op(uint32_t k, uint32_t x)
{
	switch (k % 9) {
	case 0: return x + 1;
	case 1: return x * 3;
	case 2: return x ^ 0x55;
	case 3: return x >> 1;
	case 4: return x - 7;
	case 5: return x << 2;
	case 6: return ~x;
	case 7: return x | 0x100;
	default: return x & 0xff;
	}
}

static uint32_t __attribute__((noinline)) fib(uint32_t n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static uint32_t add1(uint32_t x) { return x + 1; }
static uint32_t dbl(uint32_t x) { return x * 2; }
static uint32_t (*const table[2])(uint32_t) = { add1, dbl };

int main(void)
{
	uint32_t x = 1;

	enable_irq(13, 0x80);
	SHPR(15) = 0x40;
	SYST_RVR = RVR;
	SYST_CVR = 0;
	SYST_CSR = 7;
	for (uint32_t i = 0; i < 300; i++) {
		x = op(i, x);
		x = table[x & 1](x);
		if (i % 50 == 0)
			x += fib(6);
	}
	SYST_CSR = 0;
	sink = x;
	return !(ticks > 20 && irqs > 5);
}
