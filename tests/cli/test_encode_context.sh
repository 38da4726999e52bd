#!/bin/bash
# Context changes given in a plain log (lines "ctxid V", "vmid V", "ns 1"):
# pft encode sends Context ID / VMID packets and carries the security
# change in a branch packet or a new I-sync; pft decode reports the changes
# in order, gives back every instruction, and OpenCSD decodes the snapshot
# to the same ranges, apart from its documented deviation A1 (the branch
# that carries the security change is an exception 0 for it,
# pft-protocol.md 7).  Input: the bundled example program's execution.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
: "${PFT:?}" "${PFT_SOURCE:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ex=$PFT_SOURCE/examples/demo

"$PFT" decode --snapshot "$ex" --format jsonl |
    python3 "$PFT_SOURCE/tests/cli/demo_log.py" "$ex/mem_0.bin" >"$tmp/plain.log"
# Context ID 0x100 + k before every 300th instruction, VMID k before every
# 500th, and the switch to Non-secure before instruction 1000.
awk '{ n = NR - 1
       if (n % 300 == 0) printf "ctxid 0x%x\n", 256 + n / 300
       if (n % 500 == 0) printf "vmid %d\n", n / 500
       if (n == 1000) print "ns 1"
       print }' "$tmp/plain.log" >"$tmp/ctx.log"
"$PFT" encode --log "$tmp/ctx.log" --elf "$ex/prog" --ctxid-bytes 4 --vmid --return-stack \
    --out-snapshot "$tmp/ss" || bad "pft encode --log ctx.log"
"$PFT" decode --snapshot "$tmp/ss" --format jsonl >"$tmp/out.jsonl"
check "context IDs" "$(grep -o '"ctxid":"[^"]*"' "$tmp/out.jsonl" | tr '\n' ' ')" \
    '"ctxid":"0x100" "ctxid":"0x101" "ctxid":"0x102" "ctxid":"0x103" "ctxid":"0x104" "ctxid":"0x105" '
# (The first VMID packet, after the I-sync, says 0: a decoder may report
# that first value as well.)
check "VMIDs" "$(grep -o '"vmid":[0-9]*' "$tmp/out.jsonl" | sed '1{/"vmid":0/d}' | tr '\n' ' ')" \
    '"vmid":1 "vmid":2 "vmid":3 '
check "security" "$(grep -o '"ns":[01]' "$tmp/out.jsonl" | tr '\n' ' ')" '"ns":0 "ns":1 '
python3 "$PFT_SOURCE/tests/cli/demo_log.py" "$ex/mem_0.bin" <"$tmp/out.jsonl" >"$tmp/back.log"
check "instructions" "$(cmp -s "$tmp/plain.log" "$tmp/back.log" && echo same)" same
if python3 "$PFT_SOURCE/tests/opencsd/diff_flow.py" --known-deviations "$PFT" "$tmp/ss" 0x10 \
        >"$tmp/diff" && grep -q "1 branches with exception 0" "$tmp/diff"; then
    ok
else
    bad "diff_flow.py: not the one known deviation:"; cat "$tmp/diff"
fi
summary
