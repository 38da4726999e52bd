#!/bin/bash
# Differential test: pft decode against OpenCSD's trc_pkt_lister -decode on
# every PTM source of every snapshot in ../shared/testdata/opencsd-snapshots:
# the same instruction ranges, exceptions and address-not-accessible points.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
: "${PFT:?}" "${PFT_SHARED:?}"
for ss in "$PFT_SHARED"/testdata/opencsd-snapshots/*/; do
    ss=${ss%/}
    while read -r kind id; do
        if python3 "$here/diff_flow.py" "$PFT" "$ss" "$id"; then ok; else bad "$ss source $id differs from OpenCSD (above)"; fi
    done < <(python3 "$here/snapshot_sources.py" "$ss")
done
summary
