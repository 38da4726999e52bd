#!/usr/bin/env python3
"""One trace source's raw bytes from a formatted capture, repeated, for the
parallel decode's tests.

usage: source_bytes.py CAPTURE ID COPIES OUT [START STEP]

Writes to OUT the bytes of trace ID ID (hex or decimal) of the CoreSight
formatted CAPTURE, COPIES times over: a copy's end cuts its last packet and
the next copy's A-sync resynchronises.  With START and STEP, copy i gets a
reserved header byte (0x02) put in at START + STEP * i: damage a little
further every time."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fuzz"))
from make_corpus import deformat  # noqa: E402

capture, ident, copies, out = sys.argv[1], int(sys.argv[2], 0), int(sys.argv[3]), sys.argv[4]
one = deformat(open(capture, "rb").read(), ident)
if len(sys.argv) > 5:
    start, step = int(sys.argv[5]), int(sys.argv[6])
    data = b"".join(one[:start + step * i] + b"\x02" + one[start + step * i:]
                    for i in range(copies))
else:
    data = one * copies
open(out, "wb").write(data)
