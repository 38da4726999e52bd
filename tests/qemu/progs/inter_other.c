/* The other half of inter_main.c, in the other instruction set. */
int here_inc(int x);

static int neg(int x) { return -x; }
static int sq(int x) { return x * x; }

int other_twice(int x) { return here_inc(x) * 2; }

int other_apply(int (*f)(int), int x) { return f(f(x)); }

int (*other_pick(int which))(int) { return which ? sq : neg; }
