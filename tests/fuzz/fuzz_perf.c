/* fuzz_perf - the perf.data reader (pft_perf_open .. pft_perf_close).
 *
 * Input: a perf.data file, written to a private temporary file (the
 * reader's entry point takes a path).
 *
 * Properties (pft.h, perf section): every call returns 0 or a documented
 * error; a BAD_FILE comes with an offset inside the file and stays; the
 * records come in increasing file order inside the file, each with a
 * size of at least a header; their strings are NUL-terminated; the trace
 * bytes of an AUXTRACE record are handed out in full and never more than
 * asked; the CPU blocks match the AUXTRACE_INFO count; reading ends.
 * Then the same file as a pft_input (pft_input_open_perf(), packets only,
 * so no image is looked for): a documented code with a message, or items
 * of its sources until the end or a BAD_FILE with a message.
 *
 * Mutations (LLVMFuzzerCustomMutator): besides libFuzzer's byte-level
 * ones, half the time one change that keeps the file readable as records:
 * a record's size, type, AUXTRACE size/offset/CPU/thread, AUX flags
 * (lost trace, raw or formatted), a record duplicated or dropped, the
 * data section's size, or the file cut short.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "pft.h"

/* Whether @in reports a failure, with a line that says it. */
static int says_why(const struct pft_input *in)
{
	struct pft_diag d;
	int found = 0;

	for (size_t i = 0; pft_input_diag(in, i, &d) == 0; i++)
		found = d.severity == PFT_DIAG_ERROR && d.code && d.text[0];
	return found;
}

static char path[80];

/* libFuzzer's own mutator; absent (NULL) in the replay build, which never
 * mutates. */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size) __attribute__((weak));

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/* The offsets of the data section's records (at most 64), walked as the
 * reader would; returns how many. */
static size_t walk(const uint8_t *d, size_t size, uint64_t at[64])
{
	uint64_t off = get64(d + 40), end = off + get64(d + 48), pos = off;
	size_t n = 0;

	if (off >= size || end > size || end < off)
		return 0;
	while (n < 64 && pos + 8 <= end) {
		uint16_t sz;
		uint32_t type;
		memcpy(&type, d + pos, 4);
		memcpy(&sz, d + pos + 6, 2);
		if (sz < 8 || pos + sz > end)
			break;
		at[n++] = pos;
		pos += sz + (type == PFT_PERF_AUXTRACE && pos + 16 <= end ? get64(d + pos + 8) : 0);
	}
	return n;
}

size_t LLVMFuzzerCustomMutator(uint8_t *d, size_t size, size_t max_size, unsigned seed);

size_t LLVMFuzzerCustomMutator(uint8_t *d, size_t size, size_t max_size, unsigned seed)
{
	uint64_t at[64];
	size_t n = size >= 104 && !memcmp(d, "PERFILE2", 8) ? walk(d, size, at) : 0;
	uint32_t r = seed * 2654435761u;

	if (!n || (r & 1))
		return LLVMFuzzerMutate ? LLVMFuzzerMutate(d, size, max_size) : size;
	uint64_t rec = at[(r >> 1) % n], data_size = get64(d + 48);
	uint16_t sz;
	memcpy(&sz, d + rec + 6, 2);
	uint32_t v = r >> 8;
	switch ((r >> 4) % 8) {
	case 0: {   /* a record's size */
		uint16_t nsz = (uint16_t)(v & 1 ? (uint32_t)sz + 8 * (v % 5) - 16 : v);
		memcpy(d + rec + 6, &nsz, 2);
		break;
	}
	case 1: {   /* its type: one pft reads, or any */
		static const uint32_t types[] = { 1, 3, 9, 10, 11, 21, 70, 71, 72, 1u << 16 };
		uint32_t t = types[v % (sizeof(types) / sizeof(types[0]))];
		memcpy(d + rec, &t, 4);
		break;
	}
	case 2:     /* an AUXTRACE record's size, offset, CPU or thread */
	case 3:
		if (sz >= 48) {
			unsigned field = v % 4;
			uint64_t x = get64(d + rec + 8 + 8 * (field < 2 ? field : 0));
			if (field < 2)
				put64(d + rec + 8 + 8 * field, v & 16 ? x ^ (1ull << (v % 64)) : x / 2);
			else
				memcpy(d + rec + 36 + 4 * (field - 2), &v, 4);
		}
		break;
	case 4:     /* AUX flags: lost, partial, collision, raw or formatted */
		if (sz >= 32) {
			uint64_t f = get64(d + rec + 24) ^ (1ull << (v % 4)) ^ (v & 16 ? 0x100 : 0);
			put64(d + rec + 24, f);
		}
		break;
	case 5:     /* a record twice */
		if (size + sz <= max_size) {
			memmove(d + rec + sz, d + rec, size - rec);
			put64(d + 48, data_size + sz);
			return size + sz;
		}
		break;
	case 6:     /* a record dropped */
		if (rec + sz <= size && data_size >= sz) {
			memmove(d + rec, d + rec + sz, size - rec - sz);
			put64(d + 48, data_size - sz);
			return size - sz;
		}
		break;
	default:    /* the data section's size, or the file cut short */
		if (v & 1)
			put64(d + 48, data_size + (v % 4096) - 2048);
		else
			return rec + 1 + v % (size - rec);
		break;
	}
	return size;
}

static void remove_file(void)
{
	unlink(path);
}

static void check_string(const char *s)
{
	FUZZ_CHECK(s && strlen(s) < 0x10000);
}

static void check_cpus(struct pft_perf *p, uint32_t nr)
{
	struct pft_perf_cpu cpu;
	struct pft_ptm_config cfg;

	for (uint32_t i = 0; i < nr; i++) {
		FUZZ_CHECK(pft_perf_cpu(p, i, &cpu, sizeof(cpu)) == 0);
		FUZZ_CHECK(cpu.etm <= PFT_PERF_ETE);
		pft_ptm_config_init(&cfg);
		int err = pft_perf_cpu_config(&cpu, &cfg);
		FUZZ_CHECK(err == 0 || err == -PFT_ERR_NOT_SUPPORTED || err == -PFT_ERR_BAD_CONFIG);
		FUZZ_CHECK((err == -PFT_ERR_NOT_SUPPORTED) == (cpu.etm != PFT_PERF_ETM_V3));
		FUZZ_CHECK((err == -PFT_ERR_BAD_CONFIG) == (cpu.etm == PFT_PERF_ETM_V3 && !cpu.is_ptm));
	}
	FUZZ_CHECK(pft_perf_cpu(p, nr, &cpu, sizeof(cpu)) == -PFT_ERR_EOS);
}

/* Take the trace bytes in chunks of varying size. */
static void read_trace(struct pft_perf *p, uint64_t size, uint32_t *seed)
{
	uint8_t buf[4096];
	uint64_t got = 0;
	int n;

	while ((n = pft_perf_read_aux(p, buf, fuzz_next_cut(seed, sizeof(buf)))) > 0)
		got += (uint64_t)n;
	FUZZ_CHECK(n == 0 || n == -PFT_ERR_BAD_FILE);
	FUZZ_CHECK(n < 0 || got == size);
}

static void check_input(size_t size)
{
	struct pft_input_config ic = { .size = sizeof(ic), .packets = 1, .id = -1 };
	struct pft_input_perf_config pc = { .size = sizeof(pc) };
	struct pft_item item;
	int err;
	struct pft_input *in = pft_input_alloc(&ic, &err);

	FUZZ_CHECK(in);
	err = pft_input_open_perf(in, path, &pc);
	FUZZ_CHECK(err == 0 || err == -PFT_ERR_BAD_FILE || err == -PFT_ERR_NO_SOURCE ||
		   err == -PFT_ERR_BAD_CONFIG || err == -PFT_ERR_NOMEM);
	FUZZ_CHECK(err == 0 || says_why(in));
	/* Every packet takes at least one trace byte, a gap one AUX record. */
	for (size_t n = 0; !err; n++) {
		FUZZ_CHECK(n <= 2 * size + 2);
		err = pft_input_next(in, &item, sizeof(item));
		if (!err)
			FUZZ_CHECK(item.source < pft_input_nsources(in));
	}
	FUZZ_CHECK(err >= 0 || err == -PFT_ERR_EOS || err == -PFT_ERR_BAD_FILE ||
		   err == -PFT_ERR_NOMEM || err == -PFT_ERR_NO_SOURCE || err == -PFT_ERR_BAD_CONFIG);
	FUZZ_CHECK(err == -PFT_ERR_EOS || says_why(in));
	pft_input_free(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pft_perf_header hdr;
	struct pft_perf_attr attr;
	struct pft_perf_record rec;
	uint64_t off, last_data = 0;
	uint32_t seed = (uint32_t)size;
	int err;

	fuzz_write_file(path, sizeof(path), "perf", remove_file, data, size);

	struct pft_perf *p = pft_perf_open(path, &err);
	FUZZ_CHECK(p);
	err = pft_perf_header(p, &hdr, sizeof(hdr));
	if (!err) {
		/* The data section may pass the end: the file is cut short. */
		FUZZ_CHECK(hdr.data_offset <= size);
		for (uint32_t i = 0; i < hdr.nr_attrs; i++)
			FUZZ_CHECK(pft_perf_attr(p, i, &attr, sizeof(attr)) == 0);
		FUZZ_CHECK(pft_perf_attr(p, hdr.nr_attrs, &attr, sizeof(attr)) == -PFT_ERR_EOS);
	}
	/* Records take at least 8 bytes of the data section, feature entries
	 * 16 of a feature section (which may overlap the data): the number
	 * of records is bounded by the file size. */
	for (size_t n = 0; !err; n++) {
		FUZZ_CHECK(n <= size / 4 + 2);
		err = pft_perf_next(p, &rec, sizeof(rec));
		if (err)
			break;
		FUZZ_CHECK(pft_perf_get_offset(p, &off) == 0 && off == rec.offset);
		FUZZ_CHECK(rec.offset < size);
		if (rec.type < PFT_PERF_FEAT_AUXTRACE_INDEX) {
			FUZZ_CHECK(rec.rec_size >= 8 && rec.offset + rec.rec_size <= size);
			FUZZ_CHECK(!last_data || rec.offset > last_data);
			last_data = rec.offset;
		}
		switch (rec.type) {
		case PFT_PERF_MMAP:
		case PFT_PERF_MMAP2:
			check_string(rec.u.mmap.filename);
			FUZZ_CHECK(rec.u.mmap.build_id_size <= 20);
			break;
		case PFT_PERF_COMM:
			check_string(rec.u.comm.comm);
			break;
		case PFT_PERF_FEAT_BUILD_ID:
			check_string(rec.u.build_id.filename);
			FUZZ_CHECK(rec.u.build_id.build_id_size <= 20);
			break;
		case PFT_PERF_AUXTRACE_INFO:
			if (rec.u.auxtrace_info.type == 3) {
				FUZZ_CHECK(rec.u.auxtrace_info.version <= 2);
				check_cpus(p, rec.u.auxtrace_info.nr_cpus);
			}
			break;
		case PFT_PERF_AUXTRACE:
			FUZZ_CHECK(rec.offset + rec.rec_size + rec.u.auxtrace.size <= size);
			/* Read the bytes of every other buffer, skip the rest. */
			if (n % 2)
				read_trace(p, rec.u.auxtrace.size, &seed);
			break;
		default:
			break;
		}
	}
	FUZZ_CHECK(err == -PFT_ERR_EOS || err == -PFT_ERR_BAD_FILE || err == -PFT_ERR_NOMEM);
	if (err == -PFT_ERR_BAD_FILE) {
		FUZZ_CHECK(pft_perf_get_offset(p, &off) == 0 && off <= size);
		FUZZ_CHECK(pft_perf_next(p, &rec, sizeof(rec)) == -PFT_ERR_BAD_FILE);
		FUZZ_CHECK(pft_perf_header(p, &hdr, sizeof(hdr)) == -PFT_ERR_BAD_FILE);
	} else if (err == -PFT_ERR_EOS) {
		FUZZ_CHECK(pft_perf_next(p, &rec, sizeof(rec)) == -PFT_ERR_EOS);
	}
	pft_perf_close(p);
	check_input(size);
	return 0;
}
