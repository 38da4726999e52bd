#!/bin/bash
# pft coverage against an independent computation: the ranges of
# `pft decode --format jsonl`, attributed to functions by the ELF's own
# symbol table (arm-linux-gnueabihf-nm), summed up in Python.
set -u
: "${PFT:?}" "${PFT_SOURCE:?}"
demo="$PFT_SOURCE/examples/demo"
python3 - "$PFT" "$demo" <<'PY'
import json, subprocess, sys
pft, demo = sys.argv[1:3]
fail = 0
def check(what, ok):
    global fail
    if not ok:
        print("FAIL:", what); fail += 1
# Function symbols and their sizes from nm (Thumb bit cleared).
syms = []
for line in subprocess.run(["arm-linux-gnueabihf-nm", "-S", "--defined-only", demo + "/prog"],
                           capture_output=True, text=True, check=True).stdout.splitlines():
    f = line.split()
    if len(f) == 4 and f[2] in "Tt":
        start = int(f[0], 16) & ~1
        syms.append((start, start + int(f[1], 16), f[3]))
ranges = [json.loads(l) for l in subprocess.run(
    [pft, "decode", "--snapshot", demo, "--elf", demo + "/prog", "--format", "jsonl"],
    capture_output=True, text=True, check=True).stdout.splitlines()]
ranges = [r for r in ranges if r["type"] == "range"]
want = {}
for r in ranges:
    s, e, n = int(r["start"], 16), int(r["end"], 16), r["n"]
    for (a, b, name) in syms:
        if a <= s < b:
            w = want.setdefault(name, [0, set(), b - a])
            w[0] += n
            w[1].update(range(s, e, 2))
got = {j["function"]: j for j in map(json.loads, subprocess.run(
    [pft, "coverage", "--snapshot", demo, "--elf", demo + "/prog", "--format", "jsonl"],
    capture_output=True, text=True, check=True).stdout.splitlines()) if j["type"] == "function"}
check("same functions %s vs %s" % (sorted(got), sorted(want)), sorted(got) == sorted(want))
for name, (insns, halfwords, size) in want.items():
    g = got.get(name, {})
    check("%s insns %s != %d" % (name, g.get("insns"), insns), g.get("insns") == insns)
    check("%s covered %s != %d" % (name, g.get("covered_bytes"), 2 * len(halfwords)),
          g.get("covered_bytes") == 2 * len(halfwords))
    check("%s size %s != %d" % (name, g.get("size"), size), g.get("size") == size)
total = sum(r["n"] for r in ranges)
text = subprocess.run([pft, "coverage", "--snapshot", demo, "--elf", demo + "/prog"],
                      capture_output=True, text=True, check=True).stdout
check("total line", ("%d instructions in %d functions" % (total, len(want))) in text)
print("%d passed, %d failed" % (1 if not fail else 0, 1 if fail else 0))
sys.exit(1 if fail else 0)
PY
