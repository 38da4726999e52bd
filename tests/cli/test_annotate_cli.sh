#!/bin/bash
# pft annotate and --function on the command line: the text interleaves
# the source lines (the file's own text) with the instructions and agrees
# with the JSON lines; the orders; --function in the calls, the timeline
# and decode --count; the errors (one line, exit 2).  The counts and
# directions themselves are checked against qemu in tests/views/test_insn.sh.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
: "${PFT:?}"
for tool in arm-linux-gnueabihf-gcc arm-linux-gnueabihf-nm qemu-arm python3; do
    command -v "$tool" >/dev/null || { echo "missing tool: $tool"; exit 1; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

src=$here/../views/progs/views.c
bin=$tmp/views
arm-linux-gnueabihf-gcc -static -g -O2 -mthumb -o "$bin" "$src" &&
qemu-arm -singlestep -d exec,nochain -D "$bin.log" "$bin" >/dev/null &&
"$PFT" encode --log "$bin.log" --elf "$bin" --out-raw "$bin.raw" 2>/dev/null ||
    { bad "cannot build, run or encode views.c"; summary; }
in=(--raw "$bin.raw" --elf "$bin" --quiet)

"$PFT" annotate "${in[@]}" >"$tmp/a.txt"
check "annotate exits 0" $? 0
"$PFT" annotate "${in[@]}" --format jsonl --order address >"$tmp/a.jsonl"
"$PFT" annotate "${in[@]}" --order address >"$tmp/addr.txt"
python3 - "$tmp" "$src" "$bin" <<'PY'
import json, os, re, subprocess, sys
tmp, src, binary = sys.argv[1:4]
bad = []
lines = open(src).read().split("\n")
base = os.path.basename(src)
rows = [json.loads(l) for l in open(tmp + "/a.jsonl")]
if not rows or any(set(r) - {"taken", "not_taken", "label"} != {"type", "addr", "count", "fn", "isa", "text"}
                   | ({"file", "line"} if "file" in r else set()) for r in rows):
    bad.append("jsonl: not the fields of the spec")
if any(("taken" in r) != ("not_taken" in r) or ("taken" in r and r["taken"] + r["not_taken"] != r["count"])
       for r in rows):
    bad.append("jsonl: taken + not_taken is not the count")
# Text: per instruction "count [taken not_taken] 0xADDR text"; the source
# rows "FILE:LINE  text" carry the file's line (tabs as spaces).
text, src_rows, funcs = {}, 0, []
for l in open(tmp + "/a.txt"):
    m = re.match(r"^ *(\d+|-)(?: +(\d+) +(\d+))? +0x([0-9a-f]{8})  (.*)$", l.rstrip("\n"))
    if m:
        text[int(m.group(4), 16)] = (0 if m.group(1) == "-" else int(m.group(1)), m.group(5))
        continue
    m = re.match(r"^ {38}(\S+):(\d+)  (.*)$", l.rstrip("\n"))
    if m and m.group(1) == base:
        src_rows += 1
        if m.group(3).strip() != lines[int(m.group(2)) - 1].expandtabs(8).strip():
            bad.append("text: %s:%s is not the file's line" % (m.group(1), m.group(2)))
            break
    m = re.match(r"^(\S+)  0x([0-9a-f]{8})-", l)
    if m:
        funcs.append(m.group(1))
if not src_rows:
    bad.append("text: no source line of views.c")
for r in rows:
    a = int(r["addr"], 16)
    if text.get(a, (None,))[0] != r["count"] or text[a][1] != r["text"]:
        bad.append("text and jsonl differ at %s" % r["addr"])
        break
# Instructions that did not run are listed ("-") inside the functions.
if not any(c == 0 for c, _ in text.values()):
    bad.append("text: no instruction that did not run")
# Orders: by address; hottest first (each function's "instructions N").
starts = [int(m.group(1), 16) for m in re.finditer(r"^\S+  0x([0-9a-f]{8})-", open(tmp + "/addr.txt").read(), re.M)]
if starts != sorted(starts) or len(starts) < 5:
    bad.append("--order address: functions not by address")
hot = [int(x) for x in re.findall(r"instructions (\d+)$", open(tmp + "/a.txt").read(), re.M)]
if hot != sorted(hot, reverse=True) or len(hot) < 5:
    bad.append("--order hot: functions not hottest first")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
check "annotate text, jsonl and orders (above)" $? 0

# --function in the calls and the timeline: each call event touches fib
# (its branch or where it went), the spans are fib's and nest.
read -r lo size < <(arm-linux-gnueabihf-nm -S "$bin" | awk '$4 == "fib" { print $1, $2 }')
"$PFT" calls "${in[@]}" --function fib --format jsonl >"$tmp/calls.jsonl"
"$PFT" timeline "${in[@]}" --function fib >"$tmp/tl.json"
python3 - "$tmp" $((0x$lo & ~1)) $((0x$size)) <<'PY'
import json, sys
tmp, lo, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
inside = lambda a: lo <= int(a, 16) < lo + size
ev = [json.loads(l) for l in open(tmp + "/calls.jsonl")]
bad = []
if not ev or any(not (inside(e["site"]) or inside(e["target"])) for e in ev):
    bad.append("calls --function fib: an event that does not touch fib")
if sum(e["kind"] == "call" for e in ev) != 21:   # fib(7): 21 calls (main's 1 + 20 recursive)
    bad.append("calls --function fib: not fib's 21 calls")
t = [e for e in json.load(open(tmp + "/tl.json"))["traceEvents"] if e["ph"] in "BE"]
depth = 0
for e in t:
    depth += 1 if e["ph"] == "B" else -1
    if depth < 0 or (e["ph"] == "B" and e["name"] != "fib"):
        bad.append("timeline --function fib: spans not fib's, or not nested")
        break
if depth or len(t) != 42:
    bad.append("timeline --function fib: %d events, not 21 spans" % len(t))
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
check "calls and timeline --function (above)" $? 0

# decode --function --count counts what decode --function lists.
listed=$("$PFT" decode "${in[@]}" --function fib --function leaf --insn | grep -c '^    0x')
expect_output "decode --function --count" "$listed instructions
  range             $("$PFT" decode "${in[@]}" --function fib --function leaf | grep -c ' range ')" \
    "$PFT" decode "${in[@]}" --function fib --function leaf --count

# Errors: one line naming the option, exit 2.
expect_error 2 "annotate: --function nosuch: no function of that name" \
    "$PFT" annotate "${in[@]}" --function nosuch
expect_error 2 "decode: --function: an empty name" "$PFT" decode "${in[@]}" --function ''
expect_error 2 "annotate: --order: 'x' is neither hot nor address" \
    "$PFT" annotate "${in[@]}" --order x
expect_error 2 "profile: --order goes with pft annotate" "$PFT" profile "${in[@]}" --order hot
expect_error 2 "profile: .*: --format llvm-sample needs source lines" \
    "$PFT" profile --raw "$bin.raw" --image "$bin.raw@0x10000" --format llvm-sample --quiet
run "$PFT" annotate --help
check_eval "annotate --help names --order and --function" \
    "grep -q -- '--order hot|address' <<<\"\$out\" && grep -q -- '--function NAME' <<<\"\$out\""
run "$PFT"
check_eval "pft's command list has annotate" "grep -q '^  annotate ' <<<\"\$err\""

# A longjmp out of the function selected: its frames are unwound by a
# branch in __longjmp; each of deep's calls still has its return, and each
# timeline span its end.
lj=$tmp/longjmp
if arm-linux-gnueabihf-gcc -static -O1 -g -marm -o "$lj" "$here/../qemu/progs/longjmp.c" &&
   qemu-arm -singlestep -d exec,nochain -D "$lj.log" "$lj" >/dev/null &&
   "$PFT" encode --log "$lj.log" --elf "$lj" --out-raw "$lj.pft" --quiet; then
    "$PFT" calls --raw "$lj.pft" --elf "$lj" --function deep --format jsonl 2>/dev/null >"$tmp/lj.jsonl"
    "$PFT" timeline --raw "$lj.pft" --elf "$lj" --function deep 2>/dev/null >"$tmp/lj.json"
    python3 - "$tmp" <<'PY'
import json, sys
tmp = sys.argv[1]
ev = [json.loads(l) for l in open(tmp + "/lj.jsonl")]
calls = sum(e["kind"] == "call" for e in ev)
rets = sum(e["kind"] == "return" for e in ev)
unwound = sum(e["kind"] == "return" and "unwound" in e.get("flags", []) for e in ev)
t = [e for e in json.load(open(tmp + "/lj.json"))["traceEvents"] if e["ph"] in "BE"]
b, e = sum(x["ph"] == "B" for x in t), sum(x["ph"] == "E" for x in t)
bad = []
if calls != 27 or rets != 27:   # 3 rounds: main -> deep, 6..8 deep -> deep, deep -> longjmp
    bad.append("calls --function deep: %d calls, %d returns, not 27 each" % (calls, rets))
if unwound < 24:
    bad.append("calls --function deep: %d unwound returns" % unwound)
if b != 27 or e != 27:
    bad.append("timeline --function deep: %d begins, %d ends, not 27 each" % (b, e))
for x in bad:
    print("FAIL:", x)
sys.exit(1 if bad else 0)
PY
    check "calls and timeline --function past a longjmp (above)" $? 0
else
    bad "longjmp.c: build, run under qemu, pft encode"
fi

summary
