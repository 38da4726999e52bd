#!/bin/bash
# `pft dump --count` passes over atoms and branch packets without making
# packet records (pft_ptm_pkt_skip_counted(), serial and in the parallel
# decode's workers), while the listing decodes every packet: the counts by
# type must be the listing's, and so must the packet, byte and error totals,
# on the captures and on long raw traces, whole and damaged, at -j 1 and
# with the trace cut into small pieces at -j 2 or 3.  `pft decode --count`
# counts each batch of elements at once: its counts by element type and
# its instructions must be those of the decode listing, and its messages
# (the fit check's verdict) the listing's; where the trace had errors and
# nothing else was said, one more: how many the listing has, and the first
# one's offset.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
PFT=${PFT:-build/pft}
SHARED=${PFT_SHARED:-../shared}
SRC=${PFT_SOURCE:-.}
SS=$SHARED/testdata/opencsd-snapshots
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# "TYPE N" lines of a listing (its packets counted by type with jq)...
listed() { jq -r '.type' "$1" | sort | uniq -c | awk '{ print $2, $1 }'; }
# ...and of --count's text (its per-type lines).
counted() { awk 'NF == 2 && $1 ~ /^[a-z_]+$/ { print $1, $2 }' "$1" | sort; }

# compare NAME PIECE JOBS ARGS...: --count (-j JOBS, pieces of PIECE
# bytes) against the listing (-j 1) of the same input.
compare() {
    local name=$1 piece=$2 jobs=$3
    shift 3
    "$PFT" dump "$@" --format jsonl -j 1 >"$tmp/list.jsonl" 2>"$tmp/list.err"
    PFT_PIECE_SIZE=$piece "$PFT" dump "$@" --count -j "$jobs" >"$tmp/count.txt" 2>"$tmp/count.err"
    check "$name -j $jobs: types" "$(counted "$tmp/count.txt")" "$(listed "$tmp/list.jsonl" | sort)"
    # The totals line: "..., N packets, E errors".
    # Bad packets are not listed, nor counted among the packets: each is
    # an error message on stderr, with its offset, in both.
    local total bad
    total=$(sed -n 's/.* \([0-9]*\) packets, .*/\1/p' "$tmp/count.txt" | head -n 1)
    bad=$(grep -c ': offset 0x' "$tmp/list.err")
    check "$name -j $jobs: packets" "$total" "$(wc -l <"$tmp/list.jsonl")"
    check "$name -j $jobs: error messages" "$(grep ': offset 0x' "$tmp/count.err")" \
        "$(grep ': offset 0x' "$tmp/list.err")"
    check "$name -j $jobs: errors" "$(sed -n 's/.*, \([0-9]*\) errors/\1/p' "$tmp/count.txt" | head -n 1)" "$bad"
    check "$name -j $jobs: listed something" "$([ "${total:-0}" -gt 0 ] && echo yes)" yes
}

# compare_decode NAME JOBS ARGS...: decode --count against the decode
# listing (-j 1).
compare_decode() {
    local name=$1 jobs=$2
    shift 2
    "$PFT" decode "$@" --format jsonl -j 1 >"$tmp/list.jsonl" 2>"$tmp/list.err"
    "$PFT" decode "$@" --count -j "$jobs" >"$tmp/count.txt" 2>"$tmp/count.err"
    check "decode $name -j $jobs: types" "$(counted "$tmp/count.txt")" "$(listed "$tmp/list.jsonl" | sort)"
    check "decode $name -j $jobs: instructions" \
        "$(sed -n 's/^\([0-9]*\) instructions$/\1/p' "$tmp/count.txt")" \
        "$(jq -s 'map(select(.type == "range") | .n) | add' "$tmp/list.jsonl")"
    local errors first
    errors=$(jq -s 'map(select(.type == "error")) | length' "$tmp/list.jsonl")
    first=$(jq -s 'map(select(.type == "error"))[0].offset // empty' "$tmp/list.jsonl")
    check "decode $name -j $jobs: messages" \
        "$(grep -v -e ' in the trace, the first at ' -e 'parallel decode: ' "$tmp/count.err")" \
        "$(grep -v 'parallel decode: ' "$tmp/list.err")"
    check "decode $name -j $jobs: errors" \
        "$(sed -n 's/.*: \([0-9]*\) errors\{0,1\} in the trace, the first at offset \(0x[0-9a-f]*\): .*/\1 \2/p' \
            "$tmp/count.err")" \
        "$([ "$errors" -gt 0 ] && ! grep -qv 'parallel decode: ' "$tmp/list.err" &&
            printf '%s 0x%x' "$errors" "$first")"
}

# trace_cov_a15's raw PTM buffer; TC2's PTM (ID 0x13) on its own, from the
# formatted buffer.
compare trace_cov_a15 16 1 --snapshot "$SS/trace_cov_a15"
compare "TC2 id 0x13" 4096 1 --snapshot "$SS/TC2" --id 0x13

# TC2's ID 0x13 as raw bytes 160 times over (a copy's end cuts its last
# packet and the next A-sync resynchronises), and damaged: a reserved
# header byte put into each copy, a little further every time.
python3 "$SRC/tests/parallel/source_bytes.py" "$SS/TC2/cstrace.bin" 0x13 160 "$tmp/big.pft"
python3 "$SRC/tests/parallel/source_bytes.py" "$SS/TC2/cstrace.bin" 0x13 160 "$tmp/bad.pft" 1000 17
cfg=(--reg ETMCR=0x10001000)
for j in 1 3; do
    compare "TC2 x160" 4096 $j --raw "$tmp/big.pft" "${cfg[@]}"
    compare "TC2 x160, damaged" 4096 $j --raw "$tmp/bad.pft" "${cfg[@]}"
done
check "damaged trace: bad packets counted" \
    "$([ "$(sed -n 's/.*, \([0-9]*\) errors/\1/p' "$tmp/count.txt" | head -n 1)" -ge 50 ] && echo yes)" yes
# Without cycle counts (every atom one byte, read from the table): the
# same bytes as a non-cycle-accurate trace misparse, but the same way in
# both paths.
compare "TC2 x160 as non-cycle-accurate" 4096 2 --raw "$tmp/big.pft" --reg ETMCR=0x10000000

img=(--image "$SS/TC2/kernel_dump.bin@0xC0008000")
compare_decode "TC2 id 0x13" 1 --snapshot "$SS/TC2" --id 0x13
for j in 1 2; do
    compare_decode "TC2 x160" $j --raw "$tmp/big.pft" "${cfg[@]}" "${img[@]}"
    compare_decode "TC2 x160, damaged" $j --raw "$tmp/bad.pft" "${cfg[@]}" "${img[@]}"
done
check "damaged trace: decode --count says where the errors begin" \
    "$(grep -c ': [0-9]* errors in the trace, the first at offset 0x' "$tmp/count.err")" 1
# Cut inside its last packet: one error, at the cut, in the last of many
# pieces.
head -c $(($(wc -c <"$tmp/big.pft") - 2)) "$tmp/big.pft" >"$tmp/cut.pft"
for j in 1 2; do
    PFT_PIECE_SIZE=4096 compare_decode "TC2 x160, cut" $j --raw "$tmp/cut.pft" "${cfg[@]}" "${img[@]}"
done
check "cut trace: one error, at its end" "$(grep -c ': 1 error in the trace, the first at offset 0xb111d: ' \
    "$tmp/count.err")" 1
# Without an image: the verdict on the missing image says nothing of the
# trace's errors, so their line comes too.
"$PFT" decode --raw "$tmp/cut.pft" "${cfg[@]}" --count >/dev/null 2>"$tmp/noimg.err"
check "cut trace, no image: the errors' line beside the image's" \
    "$(grep -c -e ': 1 error in the trace, the first at offset 0xb111d: ' -e ': no image given: ' \
        "$tmp/noimg.err")" 2
# An image 4 KB off: the fit check's verdict comes after the counts.
compare_decode "TC2 x160, image 4 KB off" 1 --raw "$tmp/big.pft" "${cfg[@]}" \
    --image "$SS/TC2/kernel_dump.bin@0xC0009000"
check "image 4 KB off: a verdict" "$(grep -c 'image' "$tmp/count.err")" 1

summary
