#!/bin/bash
# Differential test of libpft's ETMv3 decoders against OpenCSD's
# trc_pkt_lister on the Cortex-A7 ETMv3.5 sources of the TC2 snapshot
# (IDs 0x10-0x12): the same packets (bytes, types, addresses, atoms, cycle
# counts, timestamps) and the same executed instructions, in order; and
# against the snapshot's DS-5 listings (an independent decoder): the same
# instructions, condition failures, per-range cycle counts and trace gaps.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
: "${PFT_SHARED:?}" "${PFT_BUILD:?}"
tc2=$PFT_SHARED/testdata/opencsd-snapshots/TC2
dump=$PFT_BUILD/etm3_dump
for id in 0x10 0x11 0x12; do
    if python3 "$here/diff_etm3.py" all "$dump" "$tc2" "$id"; then
        ok
    else
        bad "ETMv3 source $id differs from OpenCSD or DS-5 (above)"
    fi
done
[ "$pass" -eq 3 ] || bad "$pass of the 3 ETMv3 sources agree"
summary
