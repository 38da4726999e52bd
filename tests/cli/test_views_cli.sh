#!/bin/bash
# pft coverage, profile, timeline, calls and decode --insn against the
# library-level truth of tests/views: a -g program run under qemu, its log
# encoded both as a raw stream (read by views_driver, the library client
# that tests/views checks against qemu) and as a snapshot (read by the
# CLI).  The CLI must write what the library writes for the same trace;
# the real clients (lcov, genhtml, callgrind_annotate, binutils' addr2line)
# must read what it writes.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
: "${PFT:?}" "${PFT_BUILD:?}" "${PFT_SOURCE:?}"
driver=$PFT_BUILD/tests/views_driver
for tool in arm-linux-gnueabihf-gcc arm-linux-gnueabihf-addr2line arm-linux-gnueabihf-objcopy \
            qemu-arm python3 lcov genhtml callgrind_annotate; do
    command -v "$tool" >/dev/null || { echo "missing tool: $tool"; exit 1; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

bin=$tmp/views
cfg=--cycle-accurate
arm-linux-gnueabihf-gcc -static -g -O2 -mthumb -o "$bin" "$here/../views/progs/views.c" &&
qemu-arm -singlestep -d exec,nochain -D "$bin.log" "$bin" >/dev/null &&
"$PFT" encode --log "$bin.log" --elf "$bin" --out-raw "$bin.raw" --out-snapshot "$tmp/ss" $cfg &&
mkdir "$tmp/lib" && "$driver" "$bin.raw" "$bin" "$tmp/lib" $cfg ||
    { bad "cannot build, run, encode or decode views.c"; summary; }
in=(--snapshot "$tmp/ss" --elf "$bin")

# The views the CLI writes are the library's (lcov's TN names the writer).
for v in "coverage text coverage.txt" "coverage jsonl coverage.jsonl" "coverage lcov lcov.info" \
         "profile text profile.txt" "profile jsonl profile.jsonl" \
         "profile callgrind callgrind.out" "profile folded folded.txt"; do
    read -r cmd fmt file <<<"$v"
    "$PFT" "$cmd" "${in[@]}" --format "$fmt" --output "$tmp/$file"
    check_eval "pft $cmd --format $fmt exits 0" "[ $? -eq 0 ]"
    check_eval "pft $cmd --format $fmt = the library's $file" \
          "diff <(grep -v '^TN:' '$tmp/$file') <(grep -v '^TN:' '$tmp/lib/$file') >/dev/null"
done
check_eval "--output and standard output agree" \
      "cmp -s <('$PFT' profile ${in[*]} --format folded) '$tmp/folded.txt'"

# The real clients read them.
check_eval "lcov --summary reads the CLI's tracefile (8 of 9 functions, as tests/views)" \
      "lcov --summary '$tmp/lcov.info' --rc lcov_branch_coverage=1 2>&1 |
       grep -q 'functions..: 88.9% (8 of 9 functions)'"
check_eval "genhtml --branch-coverage renders it" \
      "genhtml --branch-coverage -q -o '$tmp/html' '$tmp/lcov.info' >/dev/null 2>&1 &&
       [ -s '$tmp/html/index.html' ]"
total=$("$PFT" decode "${in[@]}" --count | sed -n 's/^\([0-9]*\) instructions$/\1/p')
check_eval "callgrind_annotate's total Ir ($total) = pft decode --count" \
      "callgrind_annotate '$tmp/callgrind.out' 2>/dev/null | tr -d , |
       grep -Eq '^ *$total( \(100.0%\))? +PROGRAM TOTALS'"

# Calls and the timeline: the same events as the library's tracker, every
# call returned, and spans that nest.
"$PFT" calls "${in[@]}" --format jsonl >"$tmp/calls.jsonl"
"$PFT" timeline "${in[@]}" --format chrome >"$tmp/timeline.json"
python3 - "$tmp" <<'PY'
import json, sys
tmp = sys.argv[1]
cli = [json.loads(l) for l in open(tmp + "/calls.jsonl")]
lib = [json.loads(l) for l in open(tmp + "/lib/calls.jsonl")]
bad = []
key = lambda e, h: (e["kind"], e["depth"], e["insns"], int(e["callee_addr" if h else "callee"], 16) if h else e["callee"])
if [key(e, 1) for e in cli] != [key(e, 0) for e in lib]:
    bad.append("calls: not the library's events")
opens = sum(e["kind"] in ("call", "exception") for e in cli)
closes = sum(e["kind"] in ("return", "exception_return") for e in cli)
if not cli or opens != closes:
    bad.append("calls: %d calls, %d returns" % (opens, closes))
if not any(e["kind"] == "call" and e["callee"] == "fib" for e in cli):
    bad.append("calls: no call of fib by name")
t = json.load(open(tmp + "/timeline.json"))["traceEvents"]
stack = {}
for ev in t:
    if ev["ph"] == "B":
        stack.setdefault(ev["tid"], []).append(ev["name"])
    elif ev["ph"] == "E":
        if not stack.get(ev["tid"]):
            bad.append("timeline: an end without a begin"); break
        stack[ev["tid"]].pop()
if any(stack.values()):
    bad.append("timeline: spans left open")
# The library's spans (the driver's clock is instructions, the CLI's the
# trace's cycles: their times differ, never go back).
lt = [e for e in json.load(open(tmp + "/lib/timeline.json"))["traceEvents"] if e["ph"] in "BE"]
spans = [e for e in t if e["ph"] in "BE"]
if [(e["ph"], e.get("name")) for e in spans] != [(e["ph"], e.get("name")) for e in lt]:
    bad.append("timeline: not the library's spans")
if any(a["ts"] > b["ts"] for a, b in zip(spans, spans[1:])):
    bad.append("timeline: time goes back")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
[ $? -eq 0 ] && ok || bad "the views of the CLI and of the library (above)"

# decode --insn: the source line of each instruction is addr2line's, in the
# text listing and in JSON (one insn object per instruction of its range).
"$PFT" decode "${in[@]}" --insn >"$tmp/insn.txt"
"$PFT" decode "${in[@]}" --insn --format jsonl >"$tmp/insn.jsonl"
python3 - "$tmp" "$bin" <<'PY'
import json, os, re, subprocess, sys
tmp, binary = sys.argv[1:3]
bad = []
text = {}
for l in open(tmp + "/insn.txt"):
    m = re.match(r"    0x([0-9a-f]{8})  .*  (\S+):(\d+)$", l)
    if m:
        text[int(m.group(1), 16)] = (os.path.basename(m.group(2)), int(m.group(3)))
rows = [json.loads(l) for l in open(tmp + "/insn.jsonl")]
insns, want_n, n = [], 0, 0
for r in rows:
    if r["type"] == "range":
        if n != want_n:
            bad.append("a range of %d instructions has %d insn objects" % (want_n, n))
        want_n, n = r["n"], 0
    elif r["type"] == "insn":
        n += 1
        insns.append(r)
if not insns:
    bad.append("no insn objects")
addrs = sorted({r["addr"] for r in insns if "file" in r})
a2l = subprocess.run(["arm-linux-gnueabihf-addr2line", "-e", binary] + addrs,
                     capture_output=True, text=True, check=True).stdout.split()
truth = {int(a, 16): (os.path.basename(w.split(":")[0]), int(w.split(":")[1].split()[0]))
         for a, w in zip(addrs, a2l)}
for r in insns:
    a = int(r["addr"], 16)
    if "file" in r and (os.path.basename(r["file"]), r["line"]) != truth[a]:
        bad.append("0x%x: JSON %s:%d, addr2line %s:%d" % ((a, r["file"], r["line"]) + truth[a]))
        break
    if "file" in r and text.get(a) != truth[a]:
        bad.append("0x%x: text %s, addr2line %s" % (a, text.get(a), truth[a]))
        break
if not any(os.path.basename(r.get("file", "")) == "views.c" for r in insns):
    bad.append("no instruction of views.c has its source line")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
[ $? -eq 0 ] && ok || bad "decode --insn: source lines (above)"

# The bundled example (symbols, no DWARF): every function, and names from
# the input escaped (a symbol renamed to hold a quote and an ESC).
demo=$PFT_SOURCE/examples/demo
check_eval "coverage of the example: 5 of 5 functions" \
      "'$PFT' coverage --snapshot '$demo' --elf '$demo/prog' | grep -q '^functions: 5 of 5 executed'"
# (A copy of the snapshot without its memory dump, which the renamed ELF
# would overlap.)
cp -r "$demo" "$tmp/demo"
sed -i '/^\[dump1\]/,$d' "$tmp/demo/cpu_0.ini"
arm-linux-gnueabihf-objcopy --redefine-sym "below=be\"l"$'\x1b'"ow" "$demo/prog" "$tmp/prog"
check_eval "JSON escapes a symbol name" \
      "'$PFT' calls --snapshot '$tmp/demo' --elf '$tmp/prog' --format jsonl |
       python3 -c 'import json, sys
sys.exit(0 if any(json.loads(l)[\"callee\"] == \"be\\\"l\\x1bow\" for l in sys.stdin) else 1)'"
check_eval "text shows the control character" \
      "'$PFT' calls --snapshot '$tmp/demo' --elf '$tmp/prog' | grep -qF 'sort -> be\"l\\x1bow'"
check_eval "--clock 2000000: times are half the counts" \
      "python3 -c 'import json, sys
a, b = (json.load(open(f))[\"traceEvents\"] for f in sys.argv[1:])
ta = [e[\"ts\"] for e in a if e[\"ph\"] == \"B\"]
tb = [e[\"ts\"] for e in b if e[\"ph\"] == \"B\"]
sys.exit(0 if ta and len(ta) == len(tb) and all(abs(x / 2 - y) < 0.001 for x, y in zip(ta, tb)) else 1)' \
       '$tmp/timeline.json' <('$PFT' timeline ${in[*]} --clock 2000000)"
# The snapshot's timestamp frequency (trace.ini [timestamp] frequency, as
# DS-5 captures write it) makes timestamps the clock: each span begins at
# its call's timestamp (pft calls) / frequency, in microseconds.
"$PFT" encode --log "$bin.log" --elf "$bin" --out-snapshot "$tmp/ts" $cfg --timestamps
for hz in 1000000 4000000; do
    cp -r "$tmp/ts" "$tmp/ts$hz"
    printf '\n[timestamp]\nfrequency=%s\n' "$hz" >>"$tmp/ts$hz/trace.ini"
    check_eval "timeline with [timestamp] frequency=$hz: times are timestamps / $hz" \
          "python3 -c 'import json, sys
hz = int(sys.argv[1])
spans = [e[\"ts\"] for e in json.load(open(sys.argv[2]))[\"traceEvents\"] if e[\"ph\"] == \"B\"]
calls = [json.loads(l) for l in open(sys.argv[3])]
want = [int(c[\"ts\"], 16) * 1e6 / hz for c in calls
        if c[\"kind\"] in (\"call\", \"exception\") or (c[\"kind\"] == \"tail_call\" and c[\"depth\"])]
sys.exit(0 if spans and len(spans) == len(want) and len(set(want)) > 1 and
         all(abs(x - y) < 0.001 for x, y in zip(spans, want)) else 1)' $hz \
           <('$PFT' timeline --snapshot '$tmp/ts$hz' --elf '$bin') \
           <('$PFT' calls --snapshot '$tmp/ts$hz' --elf '$bin' --format jsonl)"
done
check_eval "--clock wins over the snapshot's frequency" \
      "'$PFT' timeline --snapshot '$tmp/ts1000000' --elf '$bin' --clock 1000000 |
       cmp -s - <('$PFT' timeline --snapshot '$tmp/ts' --elf '$bin' --clock 1000000)"
cp -r "$tmp/ts" "$tmp/tsbad"
printf '\n[timestamp]\nfrequency=fast\n' >>"$tmp/tsbad/trace.ini"
check_eval "a frequency that is not a number is an error naming the file" \
      "'$PFT' timeline --snapshot '$tmp/tsbad' --elf '$bin' 2>&1 >/dev/null | grep -q 'trace.ini:[0-9]*: .*frequency'"
# TC2: four cores (three Cortex-A7 ETMv3, one Cortex-A15 PTM), each with its
# own memory.  Over all sources the views count what the views of each
# --id count, summed: instructions per function, and every conditional
# branch with its taken and not-taken counts.
tc2=$PFT_SHARED/testdata/opencsd-snapshots/TC2
if [ -d "$tc2" ]; then
    for id in all 0x10 0x11 0x12 0x13; do
        sel=; [ "$id" = all ] || sel="--id $id"
        "$PFT" coverage --snapshot "$tc2" $sel --format jsonl >"$tmp/tc2-$id.jsonl" 2>/dev/null
    done
    check_eval "TC2: coverage over all sources = the sum of each --id's" \
          "python3 -c 'import collections, json, sys
def load(path):
    funcs, branches = collections.Counter(), collections.Counter()
    for r in map(json.loads, open(path)):
        if r[\"type\"] == \"function\":
            funcs[r[\"name\"], r[\"start\"]] += r[\"insns\"]
        elif r[\"type\"] == \"branch\":
            branches[r[\"addr\"], r[\"taken\"], r[\"not_taken\"]] += 1
    return funcs, branches
union = load(sys.argv[1])
parts = [load(p) for p in sys.argv[2:]]
funcs = sum((p[0] for p in parts), collections.Counter())
branches = sum((p[1] for p in parts), collections.Counter())
sys.exit(0 if union == (funcs, branches) and sum(funcs.values()) > 20000 and
         all(sum(p[0].values()) for p in parts) else 1)' '$tmp/tc2-all.jsonl' '$tmp/tc2-0x10.jsonl' \
           '$tmp/tc2-0x11.jsonl' '$tmp/tc2-0x12.jsonl' '$tmp/tc2-0x13.jsonl'"
    # 26171 = 7205 + 7471 + 1947 + 9548, the instructions of each --id.
    check_eval "TC2: profile over all sources counts every instruction" \
          "'$PFT' profile --snapshot '$tc2' --format callgrind 2>/dev/null | grep -qx 'totals: 26171'"
fi
# The views list no errors: stderr says how many the trace had and where
# the first was (where pft decode lists it), and what the options or
# image seem to get wrong; the exit status is 1.  Clean: nothing, 0.
raw=(--raw "$bin.raw" --elf "$bin" $cfg)
for v in coverage profile timeline calls; do
    "$PFT" "$v" "${raw[@]}" >/dev/null 2>"$tmp/clean.err"
    check_eval "pft $v of a clean trace: exit 0, nothing on stderr" "[ $? -eq 0 ] && [ ! -s '$tmp/clean.err' ]"
done
# Cut inside a packet of three bytes or more past the middle.
cut=$("$PFT" dump --raw "$bin.raw" $cfg --format jsonl | python3 -c 'import json, sys
rows = [json.loads(l) for l in sys.stdin]
half = rows[-1]["offset"] // 2
print(next(r["offset"] + 1 for r in rows if r["offset"] > half and len(r["bytes"].split()) >= 3))')
head -c "$cut" "$bin.raw" >"$tmp/cut.raw"
first=$("$PFT" decode --raw "$tmp/cut.raw" --elf "$bin" $cfg | awk '$2 == "error" { print $1; exit }')
first=$(printf '0x%x' "$first")   # as stderr writes offsets
for v in coverage profile timeline calls; do
    "$PFT" "$v" --raw "$tmp/cut.raw" --elf "$bin" $cfg >/dev/null 2>"$tmp/cut.err"
    check_eval "pft $v of a cut trace: exit 1" "[ $? -eq 1 ]"
    check_eval "pft $v of a cut trace: one line naming the file and decode's first error ($first)" \
          "[ \"\$(cat '$tmp/cut.err')\" = \"pft: $tmp/cut.raw: 1 error in the trace, the first at offset $first: bad packet: waiting for the next synchronisation (the views count what decoded; pft decode lists the errors)\" ]"
    "$PFT" "$v" --raw "$bin.raw" --elf "$bin@0x1000" $cfg >/dev/null 2>"$tmp/bias.err"
    check_eval "pft $v with the ELF misplaced: exit 1, the image named" \
          "[ $? -eq 1 ] && grep -q '^pft: $bin.raw: the image does not match the trace' '$tmp/bias.err'"
done

check_eval "pft coverage refuses --clock" \
      "! '$PFT' coverage --snapshot '$demo' --clock 5 2>/dev/null"
check_eval "pft exceptions refuses --exclude-exceptions" \
      "! '$PFT' exceptions --snapshot '$demo' --exclude-exceptions 2>/dev/null"
check_eval "pft timeline refuses --format text" \
      "! '$PFT' timeline --snapshot '$demo' --format text 2>/dev/null"

summary
