/* Two static functions named helper, one here and one in b.c: the views
 * must tell them apart (tests/cli/test_views_names.sh).  helper here is
 * entered 3 times, b.c's twice. */
int b_entry(int x);

static int __attribute__((noinline)) helper(int x)
{
	return x * 3 + 1;
}

int main(void)
{
	volatile int sum = 0;

	for (int i = 0; i < 3; i++)
		sum += helper(i);
	sum += b_entry(sum);
	return sum & 1;
}
