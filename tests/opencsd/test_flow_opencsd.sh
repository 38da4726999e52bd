#!/bin/bash
# Differential test: pft decode against OpenCSD's trc_pkt_lister -decode on
# every PTM source of every snapshot in ../shared/testdata/opencsd-snapshots:
# the same instruction ranges, exceptions and address-not-accessible points.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${PFT:?}" "${PFT_SHARED:?}"
pass=0 fail=0
for ss in "$PFT_SHARED"/testdata/opencsd-snapshots/*/; do
    ss=${ss%/}
    while read -r kind id; do
        if python3 "$here/diff_flow.py" "$PFT" "$ss" "$id"; then pass=$((pass+1)); else fail=$((fail+1)); fi
    done < <(python3 "$here/snapshot_sources.py" "$ss")
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
