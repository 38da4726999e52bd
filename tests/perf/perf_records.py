"""The records of a perf.data file, for the generators of these tests
(layout: shared/spec/perf-data.md)."""
import struct

AUXTRACE_INFO, COMM, MMAP2, AUX, AUXTRACE = 70, 3, 10, 11, 71


def records(d):
    """(type, record bytes, AUXTRACE trace bytes) of the data section."""
    off, size = struct.unpack_from('<QQ', d, 40)
    at = off
    while at < off + size:
        typ, _, sz = struct.unpack_from('<IHH', d, at)
        extra = struct.unpack_from('<Q', d, at + 8)[0] if typ == AUXTRACE else 0
        yield typ, d[at:at + sz], d[at + sz:at + sz + extra]
        at += sz + extra


def record(typ, misc, body):
    return struct.pack('<IHH', typ, misc, 8 + len(body)) + body
