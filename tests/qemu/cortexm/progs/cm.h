/* cm.h - what the Cortex-M test programs share: the system registers
 * they program, semihosting, and the handler names of startup.c's vector
 * table (ARMv7-M ARM B3; every handler a program does not define ends it
 * with a failure). */
#ifndef CM_H
#define CM_H

#include <stdint.h>

#define REG(a) (*(volatile uint32_t *)(a))
#define SYST_CSR REG(0xE000E010)
#define SYST_RVR REG(0xE000E014)
#define SYST_CVR REG(0xE000E018)
#define NVIC_ISER(n) REG(0xE000E100 + 4 * (n))
#define NVIC_ISPR(n) REG(0xE000E200 + 4 * (n))
#define NVIC_IPR(n) (*(volatile uint8_t *)(0xE000E400 + (n)))
#define ICSR REG(0xE000ED04)
#define CCR REG(0xE000ED14)
#define SHPR(n) (*(volatile uint8_t *)(0xE000ED18 + (n) - 4))  /* exception n's priority */
#define SHCSR REG(0xE000ED24)
#define CFSR REG(0xE000ED28)
#define HFSR REG(0xE000ED2C)
#define CPACR REG(0xE000ED88)

#define ICSR_NMIPENDSET (1u << 31)
#define ICSR_PENDSVSET (1u << 28)
#define ICSR_PENDSTSET (1u << 26)
#define SHCSR_FAULTS (7u << 16)     /* MemManage, BusFault, UsageFault enabled */
#define CCR_DIV_0_TRP (1u << 4)

/* Pend external interrupt @n. */
static inline void pend_irq(unsigned n)
{
	NVIC_ISPR(n / 32) = 1u << (n % 32);
}

static inline void enable_irq(unsigned n, uint8_t prio)
{
	NVIC_IPR(n) = prio;
	NVIC_ISER(n / 32) = 1u << (n % 32);
}

/* Semihosting SYS_EXIT: 0x20026 is a normal exit (qemu exits 0), another
 * reason a failure (qemu exits 1). */
static inline void __attribute__((noreturn)) cm_exit(int ok)
{
	register uint32_t r0 __asm("r0") = 0x18;
	register uint32_t r1 __asm("r1") = ok ? 0x20026 : 0x20023;
	__asm volatile("bkpt 0xab" : : "r"(r0), "r"(r1) : "memory");
	for (;;)
		;
}

void reset_handler(void);
void nmi_handler(void);
void hardfault_handler(void);
void memmanage_handler(void);
void busfault_handler(void);
void usagefault_handler(void);
void svc_handler(void);
void debugmon_handler(void);
void pendsv_handler(void);
void systick_handler(void);
void irq_handler(void);       /* every external interrupt */
int main(void);

#endif
