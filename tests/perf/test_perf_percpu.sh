#!/bin/bash
# pft decode --perf on per-CPU files (perf record -a) and on lost trace,
# built by mkpercpu.py from files pft encode --out-perf wrote for a qemu
# run of switch.arm:
#  - two CPUs (trace IDs 0x10 and 0x12, timestamps every 50 and every 70
#    waypoints), each CPU's trace in 1 KiB buffers taken in turn: each
#    CPU's instructions must be exactly qemu's, the merged listing must
#    interleave the CPUs and its timestamps must never fall;
#  - one thread whose AUX record says trace was lost (TRUNCATED) after the
#    first buffer (1 KiB of raw trace; the rest is the second): an error
#    element at the gap (after the one for the packet cut short there),
#    the instructions before it a prefix of qemu's, those after it a
#    suffix, and exit 1.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=perf_lib.sh
. "$here/perf_lib.sh"
command -v python3 >/dev/null || { echo "missing tool: python3"; exit 1; }

build switch arm || { echo "cannot build switch.arm"; exit 1; }
bin=$tmp/switch.arm
"$PFT" encode --log "$bin.log" --elf "$bin" --out-perf "$tmp/c0.data" --id 0x10 \
    --timestamps --ts-bits 48 --ts-period 50 &&
"$PFT" encode --log "$bin.log" --elf "$bin" --out-perf "$tmp/c1.data" --id 0x12 \
    --timestamps --ts-bits 48 --ts-period 70 &&
python3 "$here/mkpercpu.py" "$tmp/cpus.data" 1024 "$tmp/c0.data" "$tmp/c1.data" || exit 1

"$PFT" decode --perf "$tmp/cpus.data" --insn --format jsonl >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 0 ]; then ok; else bad "per-CPU decode: exit $rc: $(head -2 "$tmp/err")"; fi
for cpu in 0 1; do
    jq -r "select(.type == \"insn\" and .cpu == $cpu) | .addr" "$tmp/out" | sed 's/^0x//' >"$tmp/got"
    diff=$(same "$bin.want" "$tmp/got" "pft cpu $cpu")
    if [ -z "$diff" ]; then ok; else bad "cpu $cpu: $diff"; fi
done
# The timestamps in listing order, with their CPUs.
jq -r 'select(.type == "timestamp") | "\(.cpu) \(.ts)"' "$tmp/out" >"$tmp/ts"
falls=0 last=0
while read -r _ ts; do
    [ $((ts)) -lt "$last" ] && falls=$((falls+1))
    last=$((ts))
done <"$tmp/ts"
switches=$(awk 'NR > 1 && $1 != c { n++ } { c = $1 } END { print n + 0 }' "$tmp/ts")
# (qemu runs switch.arm in an empty environment: some 58 timestamps.)
if [ "$(wc -l <"$tmp/ts")" -gt 40 ] && [ "$falls" -eq 0 ] && [ "$switches" -gt 10 ]; then
    ok
else
    bad "merge: $(wc -l <"$tmp/ts") timestamps, $falls falls, $switches CPU switches"
fi

# Lost trace after the first 1 KiB, unformatted (a formatted stream cut
# anywhere would lose its trace ID as well: real sinks restart with one).
"$PFT" encode --log "$bin.log" --elf "$bin" --out-perf "$tmp/t.data" --perf-raw &&
python3 "$here/mkpercpu.py" --aux-gap "$tmp/gap.data" 1024 "$tmp/t.data" || exit 1
"$PFT" decode --perf "$tmp/gap.data" --insn --format jsonl >"$tmp/out" 2>"$tmp/err"
rc=$?
awk '/"type":"error"/ { gap = 1; next } /"type":"insn"/ {
        a = $0; sub(/.*"addr":"0x/, "", a); sub(/".*/, "", a)
        print a > (gap ? "'"$tmp"'/after" : "'"$tmp"'/before") }' "$tmp/out"
nb=$(wc -l <"$tmp/before") na=$(wc -l <"$tmp/after")
# The gap is an error at the cut (1024), after the packet it cut short.
if [ "$rc" -eq 1 ] && grep -q '"offset":1024,.*"type":"error","cpu":0,"msg":"truncated"' "$tmp/out" &&
    [ "$nb" -gt 0 ] &&
    [ "$na" -gt 0 ] && [ "$((nb + na))" -le "$(wc -l <"$bin.want")" ] &&
    [ -z "$(same <(head -n "$nb" "$bin.want") "$tmp/before" pft)" ] &&
    [ -z "$(same <(tail -n "$na" "$bin.want") "$tmp/after" pft)" ]; then
    ok
else
    bad "lost trace: exit $rc, $nb + $na instructions: $(grep '"type":"error"' "$tmp/out" | head -2)"
fi

summary
