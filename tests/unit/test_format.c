/*
 * Escaping of untrusted names (pft_fmt_escape_json, pft_fmt_escape_text).
 * Expected strings are written by hand from the contract in pft.h, RFC 8259
 * (JSON string escapes) and RFC 3629 (valid UTF-8).
 */
#include "ptunit.h"
#include "pft.h"

#include <string.h>

typedef int (*escape_fn)(char *, size_t, const char *, size_t);

/* Escape @len bytes of @in and compare with @want, then check that every
 * smaller buffer gets the same length back and a NUL-terminated prefix. */
static void check(escape_fn fn, const char *in, size_t len, const char *want)
{
	char out[256];
	size_t wlen = strlen(want);

	PTU_EQ(fn(out, sizeof(out), in, len), wlen);
	PTU_STREQ(out, want);
	for (size_t cap = 0; cap <= wlen; cap++) {
		char small[256];

		memset(small, 'Z', sizeof(small));
		PTU_EQ(fn(cap ? small : NULL, cap, in, len), wlen);
		if (cap) {
			PTU_EQ(strlen(small), cap - 1);
			PTU_CHECK(memcmp(small, want, cap - 1) == 0);
		}
		PTU_EQ(small[cap], 'Z'); /* nothing written past @cap */
	}
}

#define S(lit) lit, sizeof(lit) - 1

static void json_hostile_names(void)
{
	/* A name that would close the string and the object. */
	check(pft_fmt_escape_json, S("\"}"), "\\\"}");
	check(pft_fmt_escape_json, S("a\\b"), "a\\\\b");
	/* Newline, tab, ESC[2J (clear screen), DEL. */
	check(pft_fmt_escape_json, S("x\ny\t"), "x\\u000ay\\u0009");
	check(pft_fmt_escape_json, S("\x1b[2J"), "\\u001b[2J");
	check(pft_fmt_escape_json, S("\x7f"), "\\u007f");
	/* A NUL inside the name is kept visible, not a terminator. */
	check(pft_fmt_escape_json, "a\0b", 3, "a\\u0000b");
	/* Valid UTF-8 passes: e-acute (C3 A9), euro (E2 82 AC), U+1F600. */
	check(pft_fmt_escape_json, S("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
	      "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	/* C1 CSI (U+009B, C2 9B) is a control: one code point. */
	check(pft_fmt_escape_json, S("\xc2\x9b" "2J"), "\\u009b2J");
	/* Invalid UTF-8: a lone continuation byte, a cut sequence, an
	 * overlong '/' (C0 AF), a surrogate (ED A0 80), past U+10FFFF (F4 90
	 * 80 80), 0xFF: each byte alone. */
	check(pft_fmt_escape_json, S("\x80"), "\\u0080");
	check(pft_fmt_escape_json, S("\xe2\x82"), "\\u00e2\\u0082");
	check(pft_fmt_escape_json, S("\xc0\xaf"), "\\u00c0\\u00af");
	check(pft_fmt_escape_json, S("\xed\xa0\x80"), "\\u00ed\\u00a0\\u0080");
	check(pft_fmt_escape_json, S("\xf4\x90\x80\x80"),
	      "\\u00f4\\u0090\\u0080\\u0080");
	check(pft_fmt_escape_json, S("\xff" "a"), "\\u00ffa");
	check(pft_fmt_escape_json, "", 0, "");
}

static void text_hostile_names(void)
{
	check(pft_fmt_escape_text, S("\x1b[2J"), "\\x1b[2J");
	check(pft_fmt_escape_text, S("main\n"), "main\\x0a");
	/* Quotes need nothing in text; the backslash is doubled so that the
	 * escapes can be read back. */
	check(pft_fmt_escape_text, S("\"}"), "\"}");
	check(pft_fmt_escape_text, S("\\x1b"), "\\\\x1b");
	check(pft_fmt_escape_text, "\0\x01", 2, "\\x00\\x01");
	check(pft_fmt_escape_text, S("\xc2\x9b" "2J"), "\\xc2\\x9b2J");
	check(pft_fmt_escape_text, S("caf\xc3\xa9"), "caf\xc3\xa9");
	check(pft_fmt_escape_text, S("\xff\xfe"), "\\xff\\xfe");
	check(pft_fmt_escape_text, S("\xe2\x82" "x"), "\\xe2\\x82x");
}

/* Binary without NULs: every byte 1..255 once.  The escaped form must be
 * valid UTF-8 without control characters, and a JSON string body: no bare
 * '"' and every '\\' starts an escape. */
static void binary_names(void)
{
	char in[255], out[2048];

	for (int i = 0; i < 255; i++)
		in[i] = (char)(i + 1);
	int n = pft_fmt_escape_json(out, sizeof(out), in, sizeof(in));
	PTU_CHECK(n > 0 && (size_t)n < sizeof(out));
	for (int i = 0; i < n; i++) {
		unsigned char c = (unsigned char)out[i];

		PTU_CHECK(c >= 0x20 && c != 0x7f && c < 0x80);
		PTU_CHECK(c != '"' || (i > 0 && out[i - 1] == '\\'));
		if (c == '\\') {
			PTU_CHECK(out[i + 1] == '\\' || out[i + 1] == '"' ||
				  out[i + 1] == 'u');
			i += out[i + 1] == 'u' ? 5 : 1;
		}
	}
	/* 0x01-0x1f and 0x7f: 6 bytes each; '"', '\\': 2; the other 93
	 * ASCII: 1; 0x80-0xff (all invalid alone): 6 each. */
	PTU_EQ(n, 32 * 6 + 2 * 2 + 93 + 128 * 6);
	n = pft_fmt_escape_text(out, sizeof(out), in, sizeof(in));
	/* Text: 32 controls and 128 high bytes as 4, '\\' as 2, 94 others. */
	PTU_EQ(n, 32 * 4 + 2 + 94 + 128 * 4);
}

static void bad_arguments(void)
{
	char out[4];

	PTU_EQ(pft_fmt_escape_json(out, sizeof(out), NULL, 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_fmt_escape_json(NULL, 4, "a", 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_fmt_escape_text(out, sizeof(out), NULL, 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_fmt_escape_text(NULL, 4, "a", 1), -PFT_ERR_INVALID);
	PTU_EQ(pft_fmt_escape_text(NULL, 0, NULL, 0), 0);
	PTU_EQ(pft_fmt_escape_json(NULL, 0, "\x1b", 1), 6);
}

int main(void)
{
	PTU_RUN(json_hostile_names);
	PTU_RUN(text_hostile_names);
	PTU_RUN(binary_names);
	PTU_RUN(bad_arguments);
	PTU_MAIN_END();
}
