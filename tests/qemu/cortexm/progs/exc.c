/* exc.c - the exceptions of a Cortex-M3/M4, each in turn: SVC (which
 * pends PendSV: tail-chained at its return), external interrupts below
 * and above 8 pended through the NVIC, nested (a higher priority one
 * pended inside a handler, and NMI inside that), two pended together
 * (the second tail-chained), SysTick waited for with WFI, and faults:
 * UsageFault (an undefined instruction, a division by zero), the same
 * escalated to HardFault, a precise BusFault, a MemManage fault on
 * fetching from an execute-never region.  Each handler checks it runs for
 * the right exception (IPSR); the fault handlers return past the
 * instruction that faulted. */
#include "cm.h"

static volatile uint32_t seen[64];   /* entries per IPSR number */
static volatile uint32_t ticks, order[8], norder;
static volatile int failed;

static uint32_t ipsr(void)
{
	uint32_t v;
	__asm volatile("mrs %0, ipsr" : "=r"(v));
	return v & 0x1ff;
}

static void note(uint32_t want)
{
	uint32_t n = ipsr();
	if (n != want)
		failed = 1;
	seen[n & 63]++;
	if (norder < 8)
		order[norder++] = n;
}

/* The 2 or 4 bytes of the Thumb instruction at @pc. */
static uint32_t insn_size(uint32_t pc)
{
	return *(volatile uint16_t *)pc >> 11 >= 0x1d ? 4 : 2;
}

/* The exception frame's stacked PC skips the instruction that faulted. */
void skip_faulting(uint32_t *frame)
{
	frame[6] += insn_size(frame[6]);
}

#define FRAME_HANDLER(name, body)                                            \
	__attribute__((naked)) void name(void)                               \
	{                                                                    \
		__asm volatile("tst lr, #4\n\tite eq\n\tmrseq r0, msp\n\t"   \
			       "mrsne r0, psp\n\tb " #body "\n");            \
	}

void usagefault_c(uint32_t *frame)
{
	note(6);
	CFSR = CFSR;
	skip_faulting(frame);
}

void hardfault_c(uint32_t *frame)
{
	note(3);
	HFSR = HFSR;
	CFSR = CFSR;
	skip_faulting(frame);
}

void busfault_c(uint32_t *frame)
{
	note(5);
	CFSR = CFSR;
	skip_faulting(frame);
}

/* The branch into the execute-never region came from a BLX: go back to
 * its link register. */
void memmanage_c(uint32_t *frame)
{
	note(4);
	CFSR = CFSR;
	frame[6] = frame[5] & ~1u;
}

FRAME_HANDLER(usagefault_handler, usagefault_c)
FRAME_HANDLER(hardfault_handler, hardfault_c)
FRAME_HANDLER(busfault_handler, busfault_c)
FRAME_HANDLER(memmanage_handler, memmanage_c)

void svc_handler(void)
{
	note(11);
	ICSR = ICSR_PENDSVSET;   /* lower priority: runs when SVC returns */
}

void pendsv_handler(void)
{
	note(14);
}

void nmi_handler(void)
{
	note(2);
}

void systick_handler(void)
{
	note(15);
	if (++ticks == 3)
		SYST_CSR = 0;
}

void irq_handler(void)
{
	uint32_t n = ipsr();

	note(n);
	if (n == 16 + 5)
		pend_irq(20);            /* higher priority: nests here */
	else if (n == 16 + 20)
		ICSR = ICSR_NMIPENDSET;  /* nests in that */
}

static int check(unsigned n, uint32_t times)
{
	return seen[n] == times;
}

int main(void)
{
	SHPR(11) = 0xc0;          /* SVCall */
	SHPR(14) = 0xe0;          /* PendSV, lowest */
	SHPR(15) = 0x20;          /* SysTick */
	enable_irq(3, 0x60);
	enable_irq(9, 0x40);
	enable_irq(5, 0x80);
	enable_irq(20, 0x40);
	enable_irq(31, 0xa0);

	__asm volatile("svc 7");

	/* Below and above 8. */
	pend_irq(3);
	pend_irq(31);
	pend_irq(9);

	/* Nested: 5, then 20 inside, then NMI inside that. */
	pend_irq(5);

	/* Two pended while masked: 9 first (higher priority), then 3
	 * tail-chained. */
	__asm volatile("cpsid i" ::: "memory");
	pend_irq(3);
	pend_irq(9);
	__asm volatile("cpsie i" ::: "memory");

	/* SysTick, three times. */
	SYST_RVR = 200;
	SYST_CVR = 0;
	SYST_CSR = 7;
	while (ticks < 3)
		__asm volatile("wfi");

	/* Faults: escalated while UsageFault is disabled, then enabled. */
	__asm volatile(".short 0xde01");
	SHCSR |= SHCSR_FAULTS;
	__asm volatile(".short 0xde02");
	CCR |= CCR_DIV_0_TRP;
	{
		volatile int zero = 0, r;
		int a = 7, b = zero;
		__asm volatile("sdiv %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
	}
	{
		uint32_t v;
		__asm volatile("ldr %0, [%1]" : "=r"(v) : "r"(0x50000000u) : "memory");
	}
	{
		void (*xn)(void) = (void (*)(void))0xe0001001u;
		xn();
	}

	/* IT blocks: some instructions fail their condition. */
	uint32_t acc = 0;
	for (uint32_t i = 0; i < 10; i++)
		__asm volatile("cmp %1, #5\n\tite lt\n\taddlt %0, %0, #1\n\tsubge %0, %0, #2"
			       : "+r"(acc) : "r"(i) : "cc");

	if (failed || acc != (uint32_t)(5 - 10) || !check(11, 1) || !check(14, 1) ||
	    !check(16 + 3, 2) || !check(16 + 9, 2) || !check(16 + 31, 1) || !check(16 + 5, 1) ||
	    !check(16 + 20, 1) || !check(2, 1) || !check(15, 3) || !check(3, 1) ||
	    !check(6, 2) || !check(5, 1) || !check(4, 1))
		return 1;
	return 0;
}
