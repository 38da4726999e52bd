/* Interworking, with inter_other.c built in the other instruction set:
 * direct calls (BL becomes BLX), calls through pointers, and callbacks
 * back into this file. */
#include <stdio.h>

int other_twice(int x);
int other_apply(int (*f)(int), int x);
int (*other_pick(int which))(int);

int here_inc(int x) { return x + 1; }

int main(void)
{
	int s = 0;

	for (int i = 0; i < 6; i++) {
		s += other_twice(i);
		s += other_apply(here_inc, i);
		s += other_pick(i & 1)(i);
	}
	printf("interwork %d\n", s);
	return 0;
}
