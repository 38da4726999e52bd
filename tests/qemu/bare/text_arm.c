/* The ARM half of program 2 (text.c is Thumb): called from Thumb code,
 * and calling back into it through function pointers. */
unsigned checksum(const char *s, unsigned n)
{
	unsigned h = 0x811c9dc5;

	for (unsigned i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h = (h << 5 | h >> 27) + (h >> 3);
	}
	return h;
}

unsigned apply_each(const char *s, unsigned (*f)(unsigned), unsigned n)
{
	unsigned sum = 0;

	for (unsigned i = 0; i < n && s[i]; i++)
		sum += f((unsigned char)s[i]) << (i & 7);
	return sum;
}
