#!/usr/bin/env python3
"""Copy a perf.data pft encode --out-perf wrote with its first MMAP2
record changed: another file name, and optionally another address
(layout: shared/spec/perf-data.md; the header's data size follows).

    mkmmap.py OUT IN FILENAME [ADDR]
"""
import struct
import sys

MMAP2, AUXTRACE = 10, 71


def main():
    out, src, name = sys.argv[1], sys.argv[2], sys.argv[3].encode('utf-8', 'surrogateescape')
    addr = int(sys.argv[4], 0) if len(sys.argv) > 4 else None
    d = open(src, 'rb').read()
    off, size = struct.unpack_from('<QQ', d, 40)
    at, data, done = off, b'', False
    while at < off + size:
        typ, misc, sz = struct.unpack_from('<IHH', d, at)
        extra = struct.unpack_from('<Q', d, at + 8)[0] if typ == AUXTRACE else 0
        rec = d[at:at + sz + extra]
        if typ == MMAP2 and not done:
            done = True
            # pid, tid, addr, len, pgoff, 24 bytes of device or build ID,
            # prot, flags: 64 bytes after the header; then the name, NUL
            # padded to 8; then the sample trailer.
            fixed = bytearray(rec[8:72])
            old_end = rec.index(b"\0", 72)
            trailer = rec[(old_end + 8) & ~7:sz]
            if addr is not None:
                struct.pack_into('<Q', fixed, 8, addr)
            padded = name + b'\0' * (8 - len(name) % 8)
            body = bytes(fixed) + padded + trailer
            rec = struct.pack('<IHH', typ, misc, 8 + len(body)) + body
        data += rec
        at += sz + extra
    hdr = bytearray(d[:off])
    struct.pack_into('<QQ', hdr, 40, off, len(data))
    struct.pack_into('<4Q', hdr, 72, 0, 0, 0, 0)   # no feature sections
    open(out, 'wb').write(bytes(hdr) + data)


main()
