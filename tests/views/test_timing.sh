#!/bin/bash
# Per-call statistics of pft profile (returned, inclusive and self
# lengths: min, max, mean) against ground truth: a C program with leaf,
# non-leaf, recursive, tail-calling and longjmp functions, built for ARM
# and for Thumb at -O2 (tail calls become jumps), run under qemu-arm with
# its registers logged; timing_truth.py works every call's lengths out of
# the log (entry at the function's first address, end at the return
# address with the entry SP, or at a longjmp's landing), and every
# statistic of every function of the program and every caller -> callee
# pair among them must be pft's, in instructions and, cycle-accurate
# (one cycle per instruction), in cycles.  Then the options: --clock
# gives ns, --exclude-exceptions says so, and misplaced ones are refused.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
: "${PFT:?}"
for tool in arm-linux-gnueabihf-gcc arm-linux-gnueabihf-nm qemu-arm python3; do
    command -v "$tool" >/dev/null || { echo "missing tool: $tool"; exit 1; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
own="leaf nonleaf fib tail_target tail_caller deep main"

for isa in arm thumb; do
    bin=$tmp/timing.$isa
    arm-linux-gnueabihf-gcc -static -O2 -m$isa -o "$bin" "$here/progs/timing.c"
    qemu-arm -singlestep -d exec,nochain,cpu -D "$bin.log" "$bin"
    # shellcheck disable=SC2086
    python3 "$here/timing_truth.py" "$bin.log" "$bin" $own >"$bin.truth"
    check "$isa: tail calls and longjmp in the truth" \
        "$(grep -c '"name": "tail_target"\|"name": "deep", "returned": 4' "$bin.truth")" 2
    for cfg in "" "--cycle-accurate --return-stack" "--branch-broadcast --timestamps"; do
        rm -rf "$tmp/ss"
        # shellcheck disable=SC2086
        "$PFT" encode --quiet --log "$bin.log" --elf "$bin" --out-snapshot "$tmp/ss" $cfg
        "$PFT" profile --snapshot "$tmp/ss" --elf "$bin" --format jsonl >"$tmp/p.jsonl"
        if python3 "$here/timing_truth.py" compare "$bin.truth" "$tmp/p.jsonl" >"$tmp/diff"
        then ok; else bad "$isa [$cfg]: statistics differ:"; cat "$tmp/diff"; fi
    done
done

# The unit: cycles on the cycle-accurate trace (the last one of the loop
# above has none), ns with --clock; the same figures scaled (2 GHz: a
# cycle is half a ns, so fib's longest call of N cycles is N/2 ns).
"$PFT" encode --quiet --log "$tmp/timing.arm.log" --elf "$tmp/timing.arm" --cycle-accurate \
    --out-snapshot "$tmp/ca"
"$PFT" profile --snapshot "$tmp/ca" --elf "$tmp/timing.arm" --format jsonl >"$tmp/c.jsonl"
"$PFT" profile --snapshot "$tmp/ca" --elf "$tmp/timing.arm" --format jsonl --clock 2GHz \
    >"$tmp/n.jsonl"
check "cycles unit" "$(grep -m1 -o '"len_unit":"[a-z]*"' "$tmp/c.jsonl")" '"len_unit":"cycles"'
check "ns unit" "$(grep -m1 -o '"len_unit":"[a-z]*"' "$tmp/n.jsonl")" '"len_unit":"ns"'
cycles=$(grep '"name":"fib"' "$tmp/c.jsonl" | grep -o '"incl_max":[0-9]*' | cut -d: -f2)
ns=$(grep '"name":"fib"' "$tmp/n.jsonl" | grep -o '"incl_max":[0-9]*' | cut -d: -f2)
check "2 GHz: ns = cycles / 2 (rounded)" "$ns" "$(( (cycles + 1) / 2 ))"
check "text names the unit" "$("$PFT" profile --snapshot "$tmp/ca" --elf "$tmp/timing.arm" \
    --clock 2GHz | head -1)" "# lengths of one call in ns"

# --exclude-exceptions: no handler ran here, so the same lengths, and
# the objects say it.
"$PFT" profile --snapshot "$tmp/ca" --elf "$tmp/timing.arm" --format jsonl \
    --exclude-exceptions >"$tmp/x.jsonl"
check "excluded: said with every length" \
    "$(grep -c '"len_unit"' "$tmp/x.jsonl")" "$(grep -c '"exceptions":"excluded"' "$tmp/x.jsonl")"
check "excluded: same lengths without handlers" \
    "$(sed 's/,"exceptions":"excluded"//' "$tmp/x.jsonl" | md5sum)" "$(md5sum <"$tmp/c.jsonl")"
expect_error 2 "^pft: coverage: --exclude-exceptions goes with pft profile$" \
    "$PFT" coverage --snapshot "$tmp/ca" --exclude-exceptions
expect_error 2 "^pft: calls: --clock goes with pft timeline, profile and exceptions$" \
    "$PFT" calls --snapshot "$tmp/ca" --clock 1GHz

summary
