/* workload.c - a long-running, deterministic program for large PTM traces
 * (bench/make-large-trace.sh): a mix of what makes PFT packets - sorting
 * with a callback (indirect calls, returns), recursion, a bytecode
 * interpreter (a switch: table branches), bit loops (conditional
 * branches) and C library string functions.  usage: workload ROUNDS */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned seed = 12345;

static unsigned next_random(void)
{
	seed = seed * 1103515245u + 12345u;
	return seed >> 8;
}

static int compare(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return (x > y) - (x < y);
}

static unsigned fib(unsigned n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static unsigned crc32(const unsigned char *p, size_t n)
{
	unsigned crc = ~0u;

	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = crc & 1 ? (crc >> 1) ^ 0xedb88320u : crc >> 1;
	}
	return ~crc;
}

enum { OP_PUSH, OP_ADD, OP_MUL, OP_DUP, OP_SWAP, OP_DROP, OP_JNZ, OP_DEC, OP_HALT };

/* A tiny stack machine: a countdown loop that accumulates. */
static unsigned interpret(unsigned count)
{
	static const unsigned char code[] = {
		OP_PUSH, 0, OP_PUSH, 0,            /* acc, counter (set below) */
		OP_SWAP, OP_DUP, OP_PUSH, 3, OP_MUL, OP_ADD, OP_SWAP,   /* 4: acc += 3 * counter... */
		OP_DEC, OP_DUP, OP_JNZ, 4, OP_DROP, OP_HALT
	};
	unsigned stack[16], sp = 0, pc = 0;

	for (;;) {
		unsigned char op = code[pc++];
		switch (op) {
		case OP_PUSH: stack[sp++] = code[pc++]; if (sp == 2) stack[1] = count; break;
		case OP_ADD: sp--; stack[sp - 1] += stack[sp]; break;
		case OP_MUL: sp--; stack[sp - 1] *= stack[sp]; break;
		case OP_DUP: stack[sp] = stack[sp - 1]; sp++; break;
		case OP_SWAP: { unsigned t = stack[sp - 1]; stack[sp - 1] = stack[sp - 2];
				stack[sp - 2] = t; break; }
		case OP_DROP: sp--; break;
		case OP_JNZ: { unsigned to = code[pc++]; if (stack[--sp]) pc = to; break; }
		case OP_DEC: stack[sp - 1]--; break;
		default: return stack[0];
		}
	}
}

int main(int argc, char **argv)
{
	unsigned rounds = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 10, sum = 0;
	static unsigned v[256];
	char text[200];

	for (unsigned r = 0; r < rounds; r++) {
		for (int i = 0; i < 256; i++)
			v[i] = next_random();
		qsort(v, 256, sizeof(v[0]), compare);
		sum += v[r & 255] + fib(12 + r % 4) + interpret(20 + r % 8);
		snprintf(text, sizeof(text), "round %u sum %08x", r, sum);
		sum += crc32((const unsigned char *)text, strlen(text));
	}
	printf("%u rounds, sum %08x\n", rounds, sum);
	return 0;
}
