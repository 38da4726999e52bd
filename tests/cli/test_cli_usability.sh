#!/bin/bash
# What a new user trips on (issue 9): --reg instead of flags, exit codes,
# --count in JSON, help for a command, output that cannot be written.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
PFT=${PFT:-build/pft}
SS=${PFT_SHARED:-../shared}/testdata/opencsd-snapshots
SRC=${PFT_SOURCE:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

tc2=$SS/TC2
img=(--image "$tc2/kernel_dump.bin@0xC0008000")
# TC2's PTM 0x13 (device_8.ini): ETMCR 0x10001000 (cycle-accurate,
# timestamps), ETMCCER 0x34C01AC2, ETMIDR 0x411CF312.  The snapshot decodes
# to 9548 instructions; the same registers given with --reg must too.
want=$("$PFT" decode --snapshot "$tc2" --id 0x13 --format jsonl | jq -c 'select(.type=="range")|[.start,.n]' | md5sum)
got=$("$PFT" decode --formatted "$tc2/cstrace.bin" --reg ETMCR=0x10001000 --reg ETMCCER=0x34C01AC2 \
      --reg ETMIDR=0x411CF312 --reg ETMTRACEIDR=0x13 "${img[@]}" --format jsonl |
      jq -c 'select(.type=="range")|[.start,.n]' | md5sum)
check "--reg decodes as the snapshot" "$got" "$want"
# Aliases as pft regs takes them, the trace ID from ETMTRACEIDR.
n=$("$PFT" decode --formatted "$tc2/cstrace.bin" --reg ETMCR=0x10001000 --reg ETMTRACEIDR=0x13 \
    "${img[@]}" --count --format jsonl | jq .insns)
check "--reg ETMCR and ETMTRACEIDR alone" "$n" 9548

expect() {  # expect STATUS REGEX -- ARGS...
    local want=$1 re=$2; shift 3
    "$PFT" "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    check "pft $* exit" "$rc" "$want"
    if [ -n "$re" ]; then
        check "pft $* message" "$(grep -cE "$re" "$tmp/err")" 1
        check "pft $* one line" "$(wc -l <"$tmp/err")" 1
    fi
}
expect 2 "^pft: --reg: ETMFOO: not one of ETMCR, ETMCCER, ETMIDR, ETMTRACEIDR$" -- \
    decode --formatted "$tc2/cstrace.bin" --id 0x13 --reg ETMFOO=1
expect 2 "^pft: --reg: ETMCR: '0x100000000' is not a 32-bit number$" -- \
    decode --formatted "$tc2/cstrace.bin" --id 0x13 --reg ETMCR=0x100000000
expect 2 "^pft: --reg and the configuration flags exclude each other$" -- \
    dump --formatted "$tc2/cstrace.bin" --id 0x13 --reg ETMCR=0x1000 --cycle-accurate
expect 2 "^pft: --protocol ptm and --reg ETMIDR=0x4100f250 \\(an ETMv3\\) disagree$" -- \
    dump --formatted "$tc2/cstrace.bin" --id 0x10 --protocol ptm --reg ETMIDR=0x4100F250
expect 2 "^pft: --id 0x13 and --reg ETMTRACEIDR=0x14 disagree$" -- \
    dump --formatted "$tc2/cstrace.bin" --id 0x13 --reg ETMTRACEIDR=0x14
expect 2 "^pft: --reg ETMTRACEIDR=0x70: trace ID 0x70 is reserved$" -- \
    dump --formatted "$tc2/cstrace.bin" --reg ETMTRACEIDR=0x70

# Exit 1 when the trace had errors: a reserved header in the middle.
printf '\x00\x00\x00\x00\x00\x80\x08\x00\x80\x00\x00\x00\x84\x02\x00\x00\x00\x00\x00\x80' >"$tmp/bad.pft"
expect 1 "" -- decode --raw "$tmp/bad.pft" --pft-version 1.1 --image "$tc2/kernel_dump.bin@0x8000"
grep -q '"type":"error"' <("$PFT" decode --raw "$tmp/bad.pft" --pft-version 1.1 --format jsonl 2>/dev/null) && ok \
    || bad "the bad packet is not listed as an error"
# Exit 0 when clean.
expect 0 "" -- decode --snapshot "$SRC/examples/demo"

# --count honours --format jsonl.
"$PFT" dump --snapshot "$SRC/examples/demo" --count --format jsonl >"$tmp/c.jsonl"
check "dump --count jsonl is JSON" "$(jq -s 'length' "$tmp/c.jsonl")" 2
check "dump --count jsonl packets" "$(jq -s '.[0].packets' "$tmp/c.jsonl")" \
    "$("$PFT" dump --snapshot "$SRC/examples/demo" --format jsonl | wc -l)"
check "decode --count jsonl insns" "$("$PFT" decode --snapshot "$SRC/examples/demo" --count --format jsonl | jq .insns)" \
    "$("$PFT" decode --snapshot "$SRC/examples/demo" --format jsonl | jq -s 'map(select(.type=="range").n)|add')"

# Help.
expect 0 "" -- help decode
check "pft help decode" "$(head -c 18 "$tmp/out")" "usage: pft decode "
expect 0 "" -- decode -h
expect 2 "^pft: help: unknown command 'nope' \(try 'pft --help'\)$" -- help nope

# Output that cannot be written: exit 2, one line.
"$PFT" decode --snapshot "$SRC/examples/demo" >/dev/full 2>"$tmp/err"
check "decode >/dev/full exit" "$?" 2
check "decode >/dev/full message" "$(cat "$tmp/err")" "pft: standard output: No space left on device"

summary
