/* Profiled by pft and rebuilt by clang with the profile (test_sample.sh):
 * a tree built and walked by recursion, and the Ackermann function. */
#include <stdio.h>
struct node { struct node *l, *r; int v; };
static struct node pool[63];
static int used;
static struct node * __attribute__((noinline)) build(int depth, int v)
{
	struct node *n = &pool[used++];
	n->v = v;
	if (depth > 0) {
		n->l = build(depth - 1, 2 * v);
		n->r = build(depth - 1, 2 * v + 1);
	} else {
		n->l = n->r = 0;
	}
	return n;
}
static int sum(const struct node *n)
{
	if (!n)
		return 0;
	return n->v + sum(n->l) + sum(n->r);
}
static unsigned ack(unsigned m, unsigned n)
{
	if (m == 0)
		return n + 1;
	if (n == 0)
		return ack(m - 1, 1);
	return ack(m - 1, ack(m, n - 1));
}
int main(void)
{
	struct node *t = build(5, 1);
	printf("%d %u\n", sum(t), ack(2, 3));
	return 0;
}
