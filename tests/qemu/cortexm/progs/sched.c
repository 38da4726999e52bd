/* sched.c - a two-task round-robin scheduler, as a small RTOS switches
 * tasks on a Cortex-M: the tasks run in Thread mode on the process stack;
 * SVC 0 starts the first task (an exception return into Thread mode with
 * EXC_RETURN 0xFFFFFFFD), SysTick and SVC 1 (yield) pend PendSV, the
 * lowest priority exception, which saves r4-r11 of one task and restores
 * the other's before returning to it (often tail-chained to SysTick or
 * SVC).  The tasks call functions, and one of them ends the run. */
#include "cm.h"

struct task {
	uint32_t *sp;                /* saved process stack pointer */
	uint32_t stack[128];
};

static struct task tasks[2];
struct task *volatile current;
static volatile uint32_t switches, ticks, work[2];

/* Called from PendSV with the task switched away from: the one next. */
struct task *pick_next(struct task *t)
{
	switches++;
	return t == &tasks[0] ? &tasks[1] : &tasks[0];
}

__attribute__((naked)) void pendsv_handler(void)
{
	__asm volatile(
		"mrs r0, psp\n\t"
		"stmdb r0!, {r4-r11}\n\t"
		"ldr r3, =current\n\t"
		"ldr r1, [r3]\n\t"
		"str r0, [r1]\n\t"
		"push {r3, lr}\n\t"
		"mov r0, r1\n\t"
		"bl pick_next\n\t"
		"pop {r3, lr}\n\t"
		"str r0, [r3]\n\t"
		"ldr r0, [r0]\n\t"
		"ldmia r0!, {r4-r11}\n\t"
		"msr psp, r0\n\t"
		"bx lr\n");
}

/* SVC 0 (from main, on the main stack): start the current task.  SVC 1
 * (from a task): yield. */
__attribute__((naked)) void svc_handler(void)
{
	__asm volatile(
		"tst lr, #4\n\t"
		"ite eq\n\t"
		"mrseq r0, msp\n\t"
		"mrsne r0, psp\n\t"
		"ldr r1, [r0, #24]\n\t"
		"ldrb r1, [r1, #-2]\n\t"
		"cbz r1, 1f\n\t"
		"ldr r0, =0xE000ED04\n\t"
		"mov r1, #0x10000000\n\t"
		"str r1, [r0]\n\t"
		"bx lr\n"
		"1:\n\t"
		"ldr r3, =current\n\t"
		"ldr r0, [r3]\n\t"
		"ldr r0, [r0]\n\t"
		"ldmia r0!, {r4-r11}\n\t"
		"msr psp, r0\n\t"
		"ldr lr, =0xFFFFFFFD\n\t"
		"bx lr\n");
}

void systick_handler(void)
{
	ticks++;
	ICSR = ICSR_PENDSVSET;
}

static uint32_t __attribute__((noinline)) mix(uint32_t x, uint32_t k)
{
	for (uint32_t i = 0; i < k; i++)
		x = x * 33 + i;
	return x;
}

static void task_a(void)
{
	for (;;) {
		work[0] = mix(work[0], 3);
		if (switches > 12 && ticks > 4)
			cm_exit(work[1] != 0);
	}
}

static void task_b(void)
{
	for (;;) {
		work[1] = mix(work[1] + 1, 5);
		if (work[1] & 1)
			__asm volatile("svc 1");
	}
}

/* A task's first context: the frame an exception return pops (r0-r3,
 * r12, lr, pc, xPSR with the Thumb bit), under r4-r11. */
static void task_init(struct task *t, void (*entry)(void))
{
	uint32_t *sp = &t->stack[128];
	*--sp = 1u << 24;                 /* xPSR */
	*--sp = (uint32_t)entry & ~1u;    /* pc */
	*--sp = 0xfffffffdu;              /* lr: never returned to */
	for (int i = 0; i < 5; i++)
		*--sp = 0;                /* r12, r3-r0 */
	for (int i = 0; i < 8; i++)
		*--sp = 0;                /* r11-r4 */
	t->sp = sp;
}

int main(void)
{
	SHPR(14) = 0xff;          /* PendSV: the lowest */
	SHPR(15) = 0x40;
	SHPR(11) = 0x80;
	task_init(&tasks[0], task_a);
	task_init(&tasks[1], task_b);
	current = &tasks[0];
	SYST_RVR = 300;
	SYST_CVR = 0;
	SYST_CSR = 7;
	__asm volatile("svc 0");
	return 1;                 /* not reached: task_a ends the run */
}
