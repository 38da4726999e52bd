#!/bin/bash
# Differential test of libpft's ETMv3 decoders against OpenCSD's
# trc_pkt_lister on the Cortex-A7 ETMv3.5 sources of the TC2 snapshot
# (IDs 0x10-0x12): the same packets (bytes, types, addresses, atoms, cycle
# counts, timestamps) and the same executed instructions, in order; and
# against the snapshot's DS-5 listings (an independent decoder): the same
# instructions, condition failures, per-range cycle counts and trace gaps.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${PFT_SHARED:?}" "${PFT_BUILD:?}"
tc2=$PFT_SHARED/testdata/opencsd-snapshots/TC2
dump=$PFT_BUILD/etm3_dump
pass=0 fail=0
for id in 0x10 0x11 0x12; do
    if python3 "$here/diff_etm3.py" all "$dump" "$tc2" "$id"; then
        pass=$((pass+1))
    else
        fail=$((fail+1))
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -eq 3 ]
