#!/bin/bash
# pft info: the sources of the real captures, their protocols (as the
# snapshots' device types name them) and PTM options (as their registers
# give them, worked out by hand below), in text and jsonl.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
tc2=$PFT_SHARED/testdata/opencsd-snapshots/TC2
a15=$PFT_SHARED/testdata/opencsd-snapshots/trace_cov_a15

# device_5..7.ini: type ETM3.5, IDs 0x10-0x12; device_8.ini: PTM1.1, ID
# 0x13, ETMCR 0x10001000 = bit 12 (cycle accurate) + bit 28 (timestamps).
out=$("$PFT" info --snapshot "$tc2" --format jsonl | sed 's/"bytes":[0-9]*,//')
check "TC2 snapshot" "$out" '{"id":16,"protocol":"etmv3"}
{"id":17,"protocol":"etmv3"}
{"id":18,"protocol":"etmv3"}
{"id":19,"protocol":"ptm","options":"--cycle-accurate --timestamps"}'

# The same buffer without the snapshot: framing and options detected.
out=$("$PFT" info --formatted "$tc2/cstrace.bin" | grep '^id 0x13')
check "TC2 formatted, 0x13" "$out" "id 0x13: 4533 bytes, ptm, options: --cycle-accurate --timestamps (detected; --return-stack, --branch-broadcast, --dmb-dsb-waypoints need an image)"
# Every byte of a frame but its auxiliary byte is an ID or data: the
# sources' bytes cannot exceed 15/16 of the buffer.
total=$("$PFT" info --formatted "$tc2/cstrace.bin" --format jsonl |
	sed 's/.*"bytes":\([0-9]*\).*/\1/' | awk '{ s += $1 } END { print s }')
size=$(stat -c %s "$tc2/cstrace.bin")
if [ "$total" -le $((size * 15 / 16)) ] && [ "$total" -gt $((size / 2)) ]; then
	ok
else
	bad "TC2 byte total $total of $size"
fi

# trace_cov_a15: one raw source (36 bytes); device5.ini ETMCR 0x20000400:
# bit 29, the return stack (which only an image could show).
out=$("$PFT" info --snapshot "$a15" --format jsonl)
check "a15 snapshot" "$out" '{"id":2,"bytes":36,"protocol":"ptm","options":"--return-stack"}'
out=$("$PFT" info --raw "$a15/PTM_0_2.bin")
check "a15 raw" "$out" "36 bytes, ptm, options: (none) (detected; --return-stack, --branch-broadcast, --dmb-dsb-waypoints need an image)"

# Usage errors: exit 2 with one line.
"$PFT" info 2>/dev/null; check "no input" $? 2
"$PFT" info --raw /nonexistent 2>/dev/null; check "missing file" $? 2
"$PFT" info --raw "$a15/PTM_0_2.bin" --tpiu 2>/dev/null; check "--tpiu without --formatted" $? 2
summary
