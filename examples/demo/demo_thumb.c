/* The Thumb half of the example: an insertion sort that calls back into
 * ARM code through a function pointer. */
int sort(unsigned *v, int n, int (*before)(unsigned, unsigned))
{
	int moves = 0;

	for (int i = 1; i < n; i++) {
		unsigned x = v[i];
		int j = i;
		for (; j > 0 && before(x, v[j - 1]); j--, moves++)
			v[j] = v[j - 1];
		v[j] = x;
	}
	return moves;
}
