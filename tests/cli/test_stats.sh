#!/bin/bash
# pft stats counts what pft encode writes: the same total bytes as the raw
# output, and per packet type the counts pft dump finds in it (the packet
# decoder reading the bytes independently).  Input: the bundled example's
# program under a configuration with every packet type the model makes.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
: "${PFT:?}" "${PFT_SOURCE:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ex=$PFT_SOURCE/examples/demo

# A log of the example program, from its own trace.
"$PFT" decode --snapshot "$ex" --format jsonl |
    python3 "$PFT_SOURCE/tests/cli/demo_log.py" "$ex/mem_0.bin" >"$tmp/demo.log"
cfg=(--elf "$ex/prog" --cycle-accurate --timestamps --ts-period 7 --ctxid-bytes 2 --ctxid 0x42
     --vmid --sync-period 100)
"$PFT" encode --log "$tmp/demo.log" "${cfg[@]}" --out-raw "$tmp/demo.raw" 2>"$tmp/encode.err"
"$PFT" stats --log "$tmp/demo.log" "${cfg[@]}" --format jsonl >"$tmp/stats"
# pft encode says what it wrote, in the counts pft stats gives (issue 24,
# item 15); --quiet silences it; stats, which writes its counts, does not.
packets=$(head -1 "$tmp/stats" | python3 -c 'import json,sys; print(json.load(sys.stdin)["packets"])')
check "encode: the line it writes" "$(cat "$tmp/encode.err")" \
    "pft: encode: 1565 instructions, $packets packets: $tmp/demo.raw ($(wc -c <"$tmp/demo.raw") bytes)"
"$PFT" encode --log "$tmp/demo.log" "${cfg[@]}" --out-raw "$tmp/q.raw" --out-snapshot "$tmp/q.ss" \
    --quiet >"$tmp/q.out" 2>&1
check "encode --quiet: silent" "$(cat "$tmp/q.out")" ""
"$PFT" encode --log "$tmp/demo.log" "${cfg[@]}" --out-formatted "$tmp/f.bin" --out-snapshot "$tmp/f.ss" \
    2>"$tmp/f.err"
check "encode: frames and snapshot" "$(cat "$tmp/f.err")" \
    "pft: encode: 1565 instructions, $packets packets: $tmp/f.bin (frames, $(wc -c <"$tmp/f.bin") bytes), $tmp/f.ss/ (snapshot, $(wc -c <"$tmp/f.ss/trace.bin") bytes of trace)"
check "lines in the log" "$(wc -l <"$tmp/demo.log")" 1565
check "instructions" "$(head -1 "$tmp/stats" | python3 -c 'import json,sys; print(json.load(sys.stdin)["instructions"])')" 1565
check "bytes" "$(head -1 "$tmp/stats" | python3 -c 'import json,sys; print(json.load(sys.stdin)["bytes"])')" \
    "$(wc -c <"$tmp/demo.raw")"
"$PFT" dump --raw "$tmp/demo.raw" --cycle-accurate --ctxid-bytes 2 --vmid --format jsonl |
    python3 -c '
import collections, json, sys
n = collections.Counter(json.loads(l)["type"] for l in sys.stdin)
print(" ".join("%s=%d" % kv for kv in sorted(n.items())))' >"$tmp/dumped"
tail -n +2 "$tmp/stats" | python3 -c '
import json, sys
print(" ".join("%s=%d" % (p["type"], p["count"]) for p in sorted(map(json.loads, sys.stdin), key=lambda p: p["type"])))' >"$tmp/counted"
check "packet counts" "$(cat "$tmp/counted")" "$(cat "$tmp/dumped")"
for t in async isync atom branch waypoint timestamp vmid; do
    grep -q "$t=" "$tmp/counted" && ok || bad "no $t packet"
done
summary
