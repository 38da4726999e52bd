/* fpu.c - a Cortex-M4F's floating point across exceptions: the thread
 * and the handlers compute in single precision, so that exception entry
 * stacks an extended frame lazily (EXC_RETURN 0xFFFFFFE9/0xFFFFFFE1),
 * nested and tail-chained; the results must be exact. */
#include "cm.h"

static volatile float acc_irq, acc_tick;
static volatile uint32_t ticks, irqs;

static float __attribute__((noinline)) poly(float x)
{
	return (x * 0.5f + 1.25f) * x - 3.0f;
}

/* IRQ6 computes, lets IRQ7 (higher priority, computing too) nest in it,
 * then uses its result: both extended frames must hold. */
void irq_handler(void)
{
	uint32_t n;
	__asm volatile("mrs %0, ipsr" : "=r"(n));
	if ((n & 0x1ff) == 16 + 6) {
		float v = poly(1.0f);
		pend_irq(7);
		acc_irq += v;
	} else {
		acc_irq += poly(2.0f);
	}
	irqs++;
}

void systick_handler(void)
{
	ticks++;
	acc_tick += 0.25f;
	if (ticks == 4) {
		SYST_CSR = 0;
		ICSR = ICSR_PENDSVSET;
	}
}

void pendsv_handler(void)
{
	acc_tick *= 2.0f;
}

int main(void)
{
	float x = 1.0f;

	enable_irq(6, 0x80);
	enable_irq(7, 0x40);
	SHPR(15) = 0x60;
	SHPR(14) = 0xe0;
	SYST_RVR = 150;
	SYST_CVR = 0;
	SYST_CSR = 7;
	for (int i = 0; i < 40; i++) {
		x = poly(x) * 0.125f + 1.0f;
		if (i == 5)
			pend_irq(6);
	}
	while (ticks < 4)
		x += 1.0f;
	/* poly(2) + poly(1) = 1.5 - 1.25; four ticks of 0.25, doubled. */
	return !(irqs == 2 && acc_irq == 0.25f && acc_tick == 2.0f && x != 0.0f);
}
