#!/bin/bash
# Captures as users have them (issue 9): a bare buffer plus its images,
# no --id and no configuration option, decodes to exactly the ranges its
# snapshot (with the registers) gives; and options that do not fit the
# trace give exit 1 and one line naming the cause.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
PFT=${PFT:-build/pft}
SS=${PFT_SHARED:-../shared}/testdata/opencsd-snapshots
SRC=${PFT_SOURCE:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ranges() { jq -c 'select(.type=="range") | [.start,.end,.n,.taken]' | md5sum; }

# TC2: the ETB buffer alone (four sources; 0x13 is the PTM).
tc2=$SS/TC2
want=$("$PFT" decode --snapshot "$tc2" --id 0x13 --format jsonl | ranges)
got=$("$PFT" decode --formatted "$tc2/cstrace.bin" --image "$tc2/kernel_dump.bin@0xC0008000" \
      --format jsonl 2>"$tmp/err" | ranges)
check "TC2 bare buffer: ranges" "$got" "$want"
check "TC2: what was detected" "$(grep -c 'id 0x13: detected --cycle-accurate --timestamps$' "$tmp/err")" 1
check "TC2: ETMv3 sources named" "$(grep -c 'trace ID 0x1[012]: etmv3 trace is not decoded$' "$tmp/err")" 3

# trace_cov_a15: the raw buffer and the dumps as images.
cov=$SS/trace_cov_a15
imgs=()
while read -r f a; do imgs+=(--image "$cov/$f@$a"); done < <(
    awk -F= '/^file=/{f=$2} /^address=/{a=$2} /^\[dump/{if (f) print f, a; f=""} END{print f, a}' \
        "$cov/device1.ini" | grep -v '^ ')
want=$("$PFT" decode --snapshot "$cov" --format jsonl | ranges)
got=$("$PFT" decode --raw "$cov/PTM_0_2.bin" "${imgs[@]}" --format jsonl 2>/dev/null | ranges)
check "trace_cov_a15 bare buffer: ranges" "$got" "$want"

# The bundled example: its formatted buffer and the ELF.
demo=$SRC/examples/demo
want=$("$PFT" decode --snapshot "$demo" --format jsonl | ranges)
got=$("$PFT" decode --formatted "$demo/trace.bin" --elf "$demo/prog" --format jsonl 2>/dev/null | ranges)
check "example bare buffer: ranges" "$got" "$want"

# Misconfigurations of TC2's PTM: exit 1, the listing still there, and one
# line naming the cause.
misfit() {  # misfit WHAT REGEX OPTIONS...
    local what=$1 re=$2; shift 2
    "$PFT" decode --formatted "$tc2/cstrace.bin" "$@" --count >/dev/null 2>"$tmp/err"
    local rc=$?
    check "$what: exit" "$rc" 1
    check "$what: one line naming the cause" "$(grep -cE "$re" "$tmp/err")" 1
}
img=(--image "$tc2/kernel_dump.bin@0xC0008000")
misfit "without --cycle-accurate" "id 0x13: .*add --cycle-accurate$" --id 0x13 --timestamps "${img[@]}"
misfit "--ctxid-bytes 4" "id 0x13: .*use --ctxid-bytes 0$" --id 0x13 --cycle-accurate --timestamps --ctxid-bytes 4 "${img[@]}"
misfit "--pft-version 1.0" "id 0x13: .*timestamps are 64 bits; use --ts-bits 64$" \
    --id 0x13 --cycle-accurate --timestamps --pft-version 1.0 "${img[@]}"
misfit "an ETMv3 source" "id 0x10: .*etmv3 trace, not PTM$" --id 0x10 --cycle-accurate "${img[@]}"
misfit "--tpiu on a memory buffer" "trace ID 0x13: no trace data \(no trace-port FSYNC found: without --tpiu\?\)$" \
    --id 0x13 --tpiu "${img[@]}"
# The image a page off, still covering the code the trace runs: its
# flow errors stay under every return-stack and branch setting, so the line
# names the image and its address, not a flow option.
misfit "image 0x1000 off inside the kernel" \
    "id 0x13: the image does not match the trace: at offset 0x[0-9a-f]+ \(address 0x[0-9a-f]{8}\) .*kernel_dump\.bin may not be the binary that ran, or is not at its address \(--image FILE@ADDR" \
    --id 0x13 --cycle-accurate --timestamps --image "$tc2/kernel_dump.bin@0xC0009000"
check "image 0x1000 off: no flow option named" "$(grep -c -- '--return-stack' "$tmp/err")" 0
# The image somewhere else: exit 1 and a line about the image or flow.
"$PFT" decode --formatted "$tc2/cstrace.bin" --id 0x13 --cycle-accurate --timestamps \
    --image "$tc2/kernel_dump.bin@0x80008000" --count >/dev/null 2>"$tmp/err"
check "image at a wrong address: exit" "$?" 1
check "image at a wrong address: one line" "$(grep -c 'id 0x13: ' "$tmp/err")" 1
# A formatted buffer given as raw.
"$PFT" decode --raw "$tc2/cstrace.bin" --count >/dev/null 2>"$tmp/err"
check "formatted as raw: exit" "$?" 2
check "formatted as raw: message" "$(grep -c 'formatted buffer (formatted frames), not raw trace: try --formatted$' "$tmp/err")" 1

# The right options: exit 0, nothing on stderr.
"$PFT" decode --formatted "$tc2/cstrace.bin" --id 0x13 --cycle-accurate --timestamps "${img[@]}" \
    --count >/dev/null 2>"$tmp/err"
check "right options: exit" "$?" 0
check "right options: stderr" "$(wc -c <"$tmp/err")" 0

summary
