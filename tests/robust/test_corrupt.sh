#!/bin/bash
# Corruption recovery: tests/robust/corrupt damages every PTM stream of the
# shared snapshots in 3600 ways (fixed seed) and checks that decoding
# recovers everything outside the damage (see corrupt.c); then the CLI is
# run on some damaged files: it must end with exit status 0 or 1 and give
# every error with its offset.
set -u
: "${PFT:?}" "${PFT_SHARED:?}" "${PFT_BUILD:?}"
ss="$PFT_SHARED/testdata/opencsd-snapshots"
corrupt="$PFT_BUILD/tests/corrupt"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0

"$corrupt" --variants 300 "$ss/TC2" "$ss/trace_cov_a15" || fail=1

# The CLI on damaged raw streams: 2 variants of each kind of each source.
"$corrupt" --write "$tmp" 2 "$ss/TC2" "$ss/trace_cov_a15" >"$tmp/list" || { echo "FAIL: corrupt --write"; exit 1; }
n=0
while IFS=$'\t' read -r file config images; do
    n=$((n+1))
    # shellcheck disable=SC2086
    "$PFT" dump --raw "$file" $config >/dev/null 2>"$tmp/err"
    rc=$?
    if [ $rc -gt 1 ] || grep -Evq "^pft: $file: (offset 0x[0-9a-f]+: .+|no trace data|no A-sync in [0-9]+ bytes: nothing could be decoded)$" "$tmp/err"; then
        echo "FAIL: pft dump --raw $file $config -> exit $rc:"; sed 's/^/    /' "$tmp/err"; fail=1
    fi
    # shellcheck disable=SC2086
    "$PFT" decode --raw "$file" $config $images --format jsonl >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -ne 0 ] || [ -s "$tmp/err" ] || grep -vq '^{"offset":[0-9]' "$tmp/out"; then
        echo "FAIL: pft decode --raw $file $config $images -> exit $rc:"; sed 's/^/    /' "$tmp/err"; fail=1
    fi
done <"$tmp/list"
[ "$n" -ge 24 ] || { echo "FAIL: only $n damaged files"; fail=1; }
echo "CLI on $n damaged streams: $([ $fail = 0 ] && echo ok || echo failures above)"
exit $fail
