/* Profiled by pft and rebuilt by clang with the profile (test_sample.sh):
 * a switch-driven interpreter with an inlined helper.  clang warns at 90%:
 * two records sit where its IR has only branches and intrinsics. */
#include <stdio.h>
enum { PUSH, ADD, MUL, DUP, JNZ, DEC, HALT };
static const int prog[] = { PUSH, 10, PUSH, 1, DUP, MUL, DEC, JNZ, 4, HALT };
static inline int clampi(int v)
{
	if (v > 100000)
		return v % 100000;
	return v;
}
static int __attribute__((noinline)) run(const int *code)
{
	int st[16], sp = 0, pc = 0, steps = 0;
	for (;;) {
		steps++;
		switch (code[pc++]) {
		case PUSH: st[sp++] = code[pc++]; break;
		case ADD: sp--; st[sp - 1] = clampi(st[sp - 1] + st[sp]); break;
		case MUL: st[sp - 1] = clampi(st[sp - 1] * 3); break;
		case DUP: st[sp] = st[sp - 1]; sp++; sp--; break;
		case DEC: st[0]--; break;
		case JNZ: if (st[0]) pc = code[pc]; else pc++; break;
		default: return st[sp - 1] + steps;
		}
	}
}
int main(void)
{
	printf("%d\n", run(prog));
	return 0;
}
