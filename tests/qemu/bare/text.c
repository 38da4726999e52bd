/* Bare-metal program 2 (built for Thumb, with text_arm.c in ARM): text
 * processing with a switch-driven tokenizer, a sort through a comparison
 * function pointer, recursion and interworking calls, interrupted by the
 * timer through each IRQ handler in turn, with the traps in between. */
#include "rt.h"

/* text_arm.c (ARM) */
unsigned checksum(const char *s, unsigned n);
unsigned apply_each(const char *s, unsigned (*f)(unsigned), unsigned n);

static const char input[] = "let x1 = 42 + y7 * (3 - z); if x1 > 9 then print \"big\" else x1 = 0;";

enum kind { K_SPACE, K_WORD, K_NUM, K_PUNCT, K_STRING };

static enum kind classify(char c)
{
	if (c == ' ')
		return K_SPACE;
	if (c >= '0' && c <= '9')
		return K_NUM;
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')
		return K_WORD;
	if (c == '"')
		return K_STRING;
	return K_PUNCT;
}

/* Counts words, numbers, punctuation and strings. */
static void tokenize(const char *s, unsigned counts[5])
{
	enum kind state = K_SPACE;

	for (; *s; s++) {
		enum kind k = classify(*s);

		switch (state) {
		case K_STRING:
			if (k == K_STRING)
				state = K_SPACE;
			continue;
		case K_WORD:
			if (k == K_WORD || k == K_NUM)
				continue;
			break;
		case K_NUM:
			if (k == K_NUM)
				continue;
			break;
		default:
			break;
		}
		if (k != K_SPACE)
			counts[k]++;
		state = k == K_PUNCT ? K_SPACE : k;
	}
}

static int by_value(const void *a, const void *b)
{
	return *(const unsigned char *)a - *(const unsigned char *)b;
}

static int by_value_desc(const void *a, const void *b) { return by_value(b, a); }

static void sort(unsigned char *v, unsigned n, int (*cmp)(const void *, const void *))
{
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j > 0 && cmp(&v[j - 1], &v[j]) > 0; j--) {
			unsigned char t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

/* The number of balanced bracket strings of length 2n, recursively. */
static unsigned balanced(unsigned open, unsigned close)
{
	if (!open && !close)
		return 1;
	return (open ? balanced(open - 1, close + 1) : 0) + (close ? balanced(open, close - 1) : 0);
}

static unsigned upper(unsigned c) { return c >= 'a' && c <= 'z' ? c - 32 : c; }
static unsigned rot13(unsigned c)
{
	if (c >= 'a' && c <= 'z')
		return 'a' + (c - 'a' + 13) % 26;
	return c;
}

int main(void)
{
	unsigned counts[5] = { 0 }, b, sum;
	unsigned char buf[24];

	rt_init();
	set_irq_handler(IRQ_SIMPLE);
	timer_start(600, 1);
	tokenize(input, counts);
	b = balanced(4, 0);
	ex_back_to_back();

	set_irq_handler(IRQ_C);
	ex_traps();
	for (unsigned i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)input[i];
	sort(buf, sizeof(buf), by_value);
	sum = checksum((const char *)buf, sizeof(buf));

	set_irq_handler(IRQ_NESTED);
	sort(buf, sizeof(buf), by_value_desc);
	ex_fiq();
	ex_irq_in_it();
	sum += apply_each(input, upper, 20) + apply_each(input, rot13, 20);
	ex_svc_then_irq();
	timer_stop();
	ex_wfi();
	if (counts[K_WORD] != 10 || counts[K_NUM] != 4 || counts[K_STRING] != 1 || b != 14 ||
	    buf[0] != 'y' || sum == 0)
		rt_fail();
	return rt_finish(2);
}
