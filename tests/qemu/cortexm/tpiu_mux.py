#!/usr/bin/env python3
"""A trace port's capture of several trace sources, written here without
pft (CoreSight Architecture Specification, the formatter; the TPIU's
synchronisation packets): what a probe records from a Cortex-M's TPIU
carrying its ETM and its ITM.

usage: tpiu_mux.py OUT ID:FILE [ID:FILE ...]
       tpiu_mux.py itm OUT     an ITM stream: syncs and instrumentation
                               packets (ARMv7-M ARM D4.2) spelling a text

The sources' bytes go out in turns of 4 to 11 bytes.  A 16-byte frame has
15 slots: an even slot holds a trace ID (bit 0 set, the ID in bits 7:1)
or data (bits 7:1; bit 0 goes to byte 15, bit k for slot 2k); odd slots
hold data.  A new ID takes effect at once when byte 15's bit for it is 0;
when it is 1, the data in the odd slot after it is still the previous
source's (a source whose last byte would fall in an even slot thus hands
over in that slot).  Padding at the end is trace ID 0.  An FSYNC (ff ff ff
7f) goes before the first frame and every fourth; a halfword sync (ff 7f)
into every third frame after its eighth byte, as a 16-bit port sends it.
"""
import sys


def mux(turns):
    """The frames carrying [(trace ID, bytes)] in that order."""
    frames, slots, aux = [], [], [0]

    def put(value, aux_bit=0):
        if len(slots) % 2 == 0:
            aux[0] |= aux_bit << (len(slots) // 2)
        slots.append(value)
        if len(slots) == 15:
            frames.append(bytes(slots) + bytes([aux[0]]))
            slots.clear()
            aux[0] = 0

    def data(b):
        if len(slots) % 2 == 0:
            put(b & 0xfe, b & 1)
        else:
            put(b)

    cur, held = None, None
    for ident, chunk in turns + [(0, bytes(15))]:     # padding: trace ID 0
        if held is not None and ident == cur:
            data(held)
        elif held is not None and len(slots) % 2 == 0 and len(slots) < 14:
            put(ident << 1 | 1, 1)     # delayed: the odd slot after is the old source's
            put(held)
        else:
            if held is not None:
                data(held)             # in an odd slot, or the frame's last
            put(ident << 1 | 1, 0)     # now an even slot: at once
        cur = ident
        for b in chunk[:-1]:
            data(b)
        held = chunk[-1]
    while slots:
        data(0)
    return frames


def turns_of(sources):
    """The sources' bytes in turns of 4 to 11 bytes, round robin."""
    pos = {i: 0 for i, _ in sources}
    turns, k = [], 0
    while any(pos[i] < len(b) for i, b in sources):
        i, b = sources[k % len(sources)]
        n = 4 + k % 8
        k += 1
        if pos[i] < len(b):
            turns.append((i, b[pos[i]:pos[i] + n]))
            pos[i] += n
    return turns


def main():
    if sys.argv[1:2] == ["itm"] and len(sys.argv) == 3:
        text = b"pft: ITM beside the ETM, one trace port"
        out = bytearray()
        for k in range(0, len(text), 8):
            out += b"\x00\x00\x00\x00\x00\x80"          # synchronisation
            for c in text[k:k + 8]:
                out += bytes([0x01, c])                  # stimulus port 0, 1 byte
        open(sys.argv[2], "wb").write(out)
        return 0
    sources = []
    for arg in sys.argv[2:]:
        ident, path = arg.split(":", 1)
        sources.append((int(ident, 0), open(path, "rb").read()))
    data = bytearray()
    for n, f in enumerate(mux(turns_of(sources))):
        if n % 4 == 0:
            data += b"\xff\xff\xff\x7f"
        data += f[:8] + b"\xff\x7f" + f[8:] if n % 3 == 2 else f
    open(sys.argv[1], "wb").write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
