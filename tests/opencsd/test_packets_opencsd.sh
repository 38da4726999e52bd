#!/bin/bash
# Differential test: pft dump against OpenCSD's trc_pkt_lister on every PTM
# source of every snapshot in ../shared/testdata/opencsd-snapshots, and on
# the synthetic snapshots in tests/opencsd/vectors (hand-made streams that
# cover the packet forms the captures lack).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
: "${PFT:?}" "${PFT_SHARED:?}"
# compare SNAPSHOT ID: pft dump lists the packets OpenCSD lists.
compare() {
    if python3 "$here/diff_packets.py" "$PFT" "$1" "$2"; then ok; else bad "$1 $2 differs from OpenCSD (above)"; fi
}
for ss in "$PFT_SHARED"/testdata/opencsd-snapshots/*/; do
    ss=${ss%/}
    # One check per PTM source that has trace: raw buffers by file, formatted by ID.
    while read -r kind id; do
        compare "$ss" "$id"
    done < <(python3 "$here/snapshot_sources.py" "$ss")
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for v in "$here"/vectors/*.hex; do
    name=$(basename "$v" .hex)
    python3 "$here/make_snapshot.py" "$tmp/$name" "$v"
    compare "$tmp/$name" raw
done
summary
