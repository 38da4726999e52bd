/* startup.c - the vector table of the Cortex-M test programs (at 0, as
 * link.ld places it) and their reset handler. */
#include "cm.h"

extern uint32_t _stack_top, _data_load, _data_start, _data_end, _bss_start, _bss_end;

/* A handler the program does not define: the test fails. */
static void unexpected(void)
{
	cm_exit(0);
}

void nmi_handler(void) __attribute__((weak, alias("unexpected")));
void hardfault_handler(void) __attribute__((weak, alias("unexpected")));
void memmanage_handler(void) __attribute__((weak, alias("unexpected")));
void busfault_handler(void) __attribute__((weak, alias("unexpected")));
void usagefault_handler(void) __attribute__((weak, alias("unexpected")));
void svc_handler(void) __attribute__((weak, alias("unexpected")));
void debugmon_handler(void) __attribute__((weak, alias("unexpected")));
void pendsv_handler(void) __attribute__((weak, alias("unexpected")));
void systick_handler(void) __attribute__((weak, alias("unexpected")));
void irq_handler(void) __attribute__((weak, alias("unexpected")));

__attribute__((section(".vectors"), used)) static void (*const vectors[16 + 32])(void) = {
	(void (*)(void))&_stack_top, reset_handler, nmi_handler, hardfault_handler,
	memmanage_handler, busfault_handler, usagefault_handler, 0, 0, 0, 0, svc_handler,
	debugmon_handler, 0, pendsv_handler, systick_handler,
	[16 ... 47] = irq_handler,
};

void reset_handler(void)
{
	uint32_t *src = &_data_load, *dst = &_data_start;

#if defined(__ARM_FP)
	CPACR |= 0xfu << 20;   /* CP10, CP11: the FPU, before any FP instruction */
	__asm volatile("dsb\n\tisb");
#endif

	while (dst < &_data_end)
		*dst++ = *src++;
	for (dst = &_bss_start; dst < &_bss_end;)
		*dst++ = 0;
	cm_exit(main() == 0);
}
