#!/usr/bin/env python3
"""Make perf.data files with many trace queues, from one per-thread file
pft encode --out-perf wrote (layout: shared/spec/perf-data.md):

    mkmany.py threads OUT N IN
        N threads, each with the whole trace of IN in one AUXTRACE buffer
        (after its AUX record), in one file: as perf record --per-thread
        writes a program with N threads.
    mkmany.py cpus OUT N FILLER IN
        N CPUs (AUXTRACE_INFO with IN's PTM block N times, cpu 0..N-1),
        each with IN's trace in one buffer, and FILLER COMM records spread
        between them: a system-wide recording.

The header, attributes, COMM and MMAP2 records are IN's; no feature
sections.
"""
import struct
import sys

from perf_records import AUXTRACE_INFO, COMM, MMAP2, AUX, AUXTRACE, record, records


def auxtrace(payload, tid, cpu):
    body = struct.pack('<QQQIIII', len(payload), 0, 0, 0, tid, cpu, 0)
    return record(AUXTRACE, 0, body) + payload


def main():
    mode, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    filler = int(sys.argv[4]) if mode == 'cpus' else 0
    src = open(sys.argv[-1], 'rb').read()
    data_off = struct.unpack_from('<Q', src, 40)[0]
    keep, info, aux, trace, comm = [], None, None, None, None
    for typ, rec, payload in records(src):
        if typ == AUXTRACE_INFO:
            info = rec
        elif typ == AUXTRACE:
            trace = payload
        elif typ == AUX:
            aux = rec
        elif typ in (COMM, MMAP2):
            keep.append(rec)
            if typ == COMM:
                comm = rec
    # The sample trailer of the AUX record: pid, tid (then the sample id).
    aux_body, trailer = aux[8:32], aux[32:]
    pid = struct.unpack_from('<I', trailer, 0)[0]
    if mode == 'threads':
        data = info + b''.join(keep)
        for k in range(n):
            tid = pid + 1 + k
            t = struct.pack('<II', pid, tid) + trailer[8:]
            data += record(AUX, 0, aux_body + t)
            data += auxtrace(trace, tid, 0xffffffff)
    else:
        priv = struct.unpack_from('<%dQ' % ((len(info) - 16) // 8), info, 16)
        header, block = priv[:3], list(priv[3:])
        blocks = []
        for cpu in range(n):
            b = list(block)
            b[1] = cpu
            blocks.append(b)
        head = struct.pack('<QQQ', header[0], (header[1] >> 32 << 32) | n, header[2])
        data = record(AUXTRACE_INFO, 0, info[8:16] + head + b''.join(
            struct.pack('<%dQ' % len(b), *b) for b in blocks)) + b''.join(keep)
        per = filler // n if n else 0
        for cpu in range(n):
            data += comm * per
            data += auxtrace(trace, 0xffffffff, cpu)
    hdr = bytearray(src[:data_off])
    struct.pack_into('<QQ', hdr, 40, data_off, len(data))
    struct.pack_into('<4Q', hdr, 72, 0, 0, 0, 0)   # no feature sections
    open(out, 'wb').write(bytes(hdr) + data)


main()
