/* Indirect calls through function pointers, a callback from libc (qsort)
 * and a call into qemu-user's kernel helper page (0xffff0fe0, get_tls),
 * which is outside the program image. */
#include <stdio.h>
#include <stdlib.h>

typedef int (*op_fn)(int, int);
typedef void *(*kuser_get_tls_fn)(void);

static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int mul(int a, int b) { return a * b; }

static const op_fn ops[] = { add, sub, mul };

static int cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int main(void)
{
	int v[12] = { 5, 3, 9, 1, 12, 7, 2, 8, 11, 4, 10, 6 }, acc = 1;
	kuser_get_tls_fn get_tls = (kuser_get_tls_fn)0xffff0fe0;

	for (int i = 0; i < 9; i++)
		acc = ops[i % 3](acc, i + 2);
	qsort(v, 12, sizeof(v[0]), cmp);
	printf("acc %d first %d last %d tls %d\n", acc, v[0], v[11], get_tls() != 0);
	return 0;
}
