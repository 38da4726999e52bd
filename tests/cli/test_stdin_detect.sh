#!/bin/bash
# Detection from standard input (issue 9): `--formatted -` and `--raw -`
# without a configuration keep the first bytes detection reads (at most
# 4 MiB) and decode them followed by the rest of the stream, so the output
# is the one of the same bytes given as a file.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
PFT=${PFT:-build/pft}
SS=${PFT_SHARED:-../shared}/testdata/opencsd-snapshots
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

tc2=$SS/TC2
img=(--image "$tc2/kernel_dump.bin@0xC0008000")
# TC2's ETB buffer 136 times over: 4.25 MiB, more than detection reads, so
# the decode crosses from the kept prefix to the stream.
for i in $(seq 136); do cat "$tc2/cstrace.bin"; done >"$tmp/big.bin"
check "the buffer is past the detection prefix" "$(( $(stat -c %s "$tmp/big.bin") > 4 * 1024 * 1024 ))" 1
for f in "$tc2/cstrace.bin" "$tmp/big.bin"; do
    want=$("$PFT" decode --formatted "$f" "${img[@]}" --format jsonl 2>"$tmp/err.file" | md5sum)
    got=$(cat "$f" | "$PFT" decode --formatted - "${img[@]}" --format jsonl 2>"$tmp/err.pipe" | md5sum)
    check "$(basename "$f") through a pipe: the file's decode" "$got" "$want"
    check "$(basename "$f") through a pipe: detected alike" \
        "$(sed 's/^pft: [^:]*: //' "$tmp/err.pipe")" "$(sed 's/^pft: [^:]*: //' "$tmp/err.file")"
done
grep -q 'id 0x13: detected --cycle-accurate --timestamps$' "$tmp/err.pipe"
check "what was detected from the pipe" $? 0

# A raw source (trace_cov_a15), packets.
raw=$SS/trace_cov_a15/PTM_0_2.bin
want=$("$PFT" dump --raw "$raw" --format jsonl 2>/dev/null | md5sum)
got=$(cat "$raw" | "$PFT" dump --raw - --format jsonl 2>/dev/null | md5sum)
check "raw through a pipe: the file's packets" "$got" "$want"

# An empty pipe: exit 2 and a message.
: | "$PFT" decode --raw - >/dev/null 2>"$tmp/err"
check "empty pipe: exit" $? 2
check "empty pipe: message" "$(cat "$tmp/err")" "pft: standard input: empty: no trace"

summary
