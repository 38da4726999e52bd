#!/usr/bin/env python3
"""Make a per-CPU perf.data (as perf record -a writes it) from per-thread
files pft encode --out-perf wrote, one per CPU: the first file's header,
attributes, COMM and MMAP2 records; one AUXTRACE_INFO with each file's PTM
block (its cpu field set to 0, 1, ...); then each file's trace split into
AUXTRACE buffers of CPU 0, 1, ... taken in turn.  Layout: perf.data-file-
format.txt and cs-etm.h (shared/spec/perf-data.md).  No feature sections.

    mkpercpu.py OUT CHUNK IN0 IN1 ...   (CHUNK: buffer size, multiple of 16)
    mkpercpu.py --aux-gap OUT CHUNK IN  (one per-thread file, its trace in
        two buffers, the AUX record of the first flagged TRUNCATED)
"""
import struct
import sys

from perf_records import AUXTRACE_INFO, COMM, MMAP2, AUX, AUXTRACE, record, records


def auxtrace(payload, offset, tid, cpu):
    body = struct.pack('<QQQIIII', len(payload), offset, 0, 0, tid, cpu, 0)
    return record(AUXTRACE, 0, body) + payload


def main():
    gap = sys.argv[1] == '--aux-gap'
    args = sys.argv[2:] if gap else sys.argv[1:]
    out, chunk, ins = args[0], int(args[1]), args[2:]
    files = [open(p, 'rb').read() for p in ins]
    first = files[0]
    data_off = struct.unpack_from('<Q', first, 40)[0]
    recs = [list(records(d)) for d in files]
    blocks, traces, keep, tid, trailer = [], [], [], 0, b''
    for n, rs in enumerate(recs):
        for typ, rec, payload in rs:
            if typ == AUXTRACE_INFO:
                priv = struct.unpack_from('<%dQ' % ((len(rec) - 16) // 8), rec, 16)
                header, block = priv[:3], list(priv[3:])
                block[1] = n if not gap else block[1]
                blocks.append(block)
                info_head = rec[8:16]
            elif typ == AUXTRACE:
                tid = struct.unpack_from('<I', rec, 36)[0]
                traces.append(payload)
            elif typ == AUX:
                aux_size, aux_flags = struct.unpack_from('<QQ', rec, 16)
                trailer = rec[32:]   # pid, tid and id of the sample
            elif n == 0 and typ in (COMM, MMAP2):
                keep.append(rec)
    info = struct.pack('<QQQ', header[0], (header[1] >> 32 << 32) | len(blocks), header[2])
    data = record(AUXTRACE_INFO, 0, info_head + info + b''.join(
        struct.pack('<%dQ' % len(b), *b) for b in blocks)) + b''.join(keep)
    if gap:
        t = traces[0]
        # The first part, an AUX record that says trace was lost after
        # it (TRUNCATED), and the rest: two buffers of one thread.
        data += record(AUX, 0, struct.pack('<QQQ', 0, chunk, aux_flags | 0x01) + trailer)
        data += auxtrace(t[:chunk], 0, tid, 0xffffffff)
        data += record(AUX, 0, struct.pack('<QQQ', chunk, aux_size - chunk, aux_flags) + trailer)
        data += auxtrace(t[chunk:], chunk, tid, 0xffffffff)
    else:
        pos = [0] * len(traces)
        while any(p < len(t) for p, t in zip(pos, traces)):
            for cpu, t in enumerate(traces):
                if pos[cpu] < len(t):
                    data += auxtrace(t[pos[cpu]:pos[cpu] + chunk], pos[cpu], 0xffffffff, cpu)
                    pos[cpu] += chunk
    head = bytearray(first[:data_off])
    struct.pack_into('<QQ', head, 40, data_off, len(data))
    struct.pack_into('<4Q', head, 72, 0, 0, 0, 0)   # no feature sections
    open(out, 'wb').write(bytes(head) + data)


main()
