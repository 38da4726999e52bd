/* The other helper (see a.c). */
static int __attribute__((noinline)) helper(int x)
{
	return x ^ 0x55;
}

int b_entry(int x)
{
	return helper(x) + helper(x + 1);
}
