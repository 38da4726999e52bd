#!/usr/bin/env python3
"""The executed addresses of the bundled example, as a plain pft encode log.

usage: pft decode --snapshot examples/demo --format jsonl | demo_log.py examples/demo/mem_0.bin

The example's trace covers every instruction the program ran (pft decode's
ranges, expanded; Thumb addresses odd, so that the log says the ISA)."""
import json
import sys

BASE = 0x10000  # examples/demo/cpu_0.ini: dump1 address
mem = open(sys.argv[1], "rb").read()
for line in sys.stdin:
    e = json.loads(line)
    if e["type"] != "range":
        continue
    a, end, thumb = int(e["start"], 16), int(e["end"], 16), e["isa"] == "thumb"
    while a < end:
        print("%x" % (a | thumb))
        hw = mem[a - BASE] | mem[a - BASE + 1] << 8
        a += 2 if thumb and hw >> 11 < 0x1d else 4
