#!/usr/bin/env python3
"""Write the seed corpus of fuzz_etm3 (tests/fuzz/corpus/etm3): pieces of the
TC2 snapshot's ETMv3 sources (deformatted here) and hand-made streams of
every packet family, each behind the two configuration bytes fuzz_etm3.c
reads.  usage: make_etm3_seeds.py SHARED_DIR OUT_DIR"""
import os
import sys

ASYNC = bytes([0, 0, 0, 0, 0, 0x80])


def deformat(buf, want):
    """The bytes of trace ID @want from 16-byte CoreSight frames."""
    out, cur = bytearray(), None
    for f in range(0, len(buf) - 15, 16):
        fr = buf[f:f + 16]
        for i in range(8):
            b, aux = fr[2 * i], (fr[15] >> i) & 1
            nxt = fr[2 * i + 1] if i < 7 else None
            if b & 1:
                old, cur = cur, b >> 1
                if nxt is not None and (old if aux else cur) == want:
                    out.append(nxt)
            else:
                if cur == want:
                    out.append(b | aux)
                if nxt is not None and cur == want:
                    out.append(nxt)
    return bytes(out)


def main():
    shared, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    raw = open(os.path.join(shared, "testdata/opencsd-snapshots/TC2/cstrace.bin"), "rb").read()
    tc2 = bytes([0x09, 0x16])  # CA, 64-bit binary timestamps; virtualization, v3.5
    for tid in (0x10, 0x11, 0x12):
        s = deformat(raw, tid)
        for k, start in enumerate((0, len(s) // 3, 2 * len(s) // 3)):
            open(os.path.join(out, "tc2_%02x_%d" % (tid, k)), "wb").write(tc2 + s[start:start + 700])
    hand = {
        # 4-byte ctxid, data values and addresses: I-sync, data packets.
        "data": bytes([0xc6, 0x14]) + ASYNC + bytes([0x08, 0x78, 0x56, 0x34, 0x12, 0x21, 0x5d,
                                                     0x11, 0x02, 0xc0, 0x2e, 0x05, 0x78, 0x56,
                                                     0x34, 0x12, 0x06, 0xab, 0x2c, 0x11, 0x22,
                                                     0x33, 0x44, 0x74, 0x85, 0x01, 0x50, 0x62,
                                                     0x7a, 0x03, 0x6e, 0x44, 0x33, 0x22, 0x11]),
        # Alternative encoding (M profile): exception branches.
        "alt": bytes([0x20, 0x10]) + ASYNC + bytes([0x08, 0x01, 0x01, 0x00, 0x00, 0x20, 0x80,
                                                    0x81, 0x44, 0x90, 0x01, 0x9b, 0xc4, 0x0b,
                                                    0x81, 0x44, 0x9a, 0x41, 0x76, 0x7e]),
        # A Cortex-M4's ETM (alternative encoding, v3.5, M profile): an SVC,
        # its return tail-chained to PendSV (0x76, Cancel), the return, a
        # BusFault with Cancel, a reserved number (16), a timestamp.
        "m_profile": bytes([0x20, 0x34]) + ASYNC + bytes([0x08, 0x21, 0x01, 0x40, 0x00, 0x00,
                                                          0x88, 0x81, 0x42, 0x16, 0x88, 0x76,
                                                          0x81, 0x44, 0x3c, 0x84, 0x76, 0x85,
                                                          0x00, 0x88, 0x81, 0x60, 0xaa, 0x01,
                                                          0x84, 0x81, 0x60, 0x80, 0x01, 0x42,
                                                          0x85, 0x2b]),
        # Non-CA P-headers, exception branch with Cancel, LSiP I-sync.
        "plain": bytes([0x00, 0x16]) + ASYNC + bytes([0x08, 0x8b, 0x00, 0x80, 0x00, 0xc0, 0x09,
                                                      0xc8, 0x8a, 0xfc, 0x8d, 0x80, 0xfe, 0xff,
                                                      0x4f, 0x38, 0x88, 0x8d, 0x80, 0xfe, 0xff,
                                                      0x4f, 0x9d, 0xa0, 0x43, 0x42, 0x03, 0x0c,
                                                      0x66, 0x3c, 0x05]),
    }
    for name, data in hand.items():
        open(os.path.join(out, "hand_" + name), "wb").write(data)


if __name__ == "__main__":
    main()
