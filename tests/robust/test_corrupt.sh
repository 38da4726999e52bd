#!/bin/bash
# Corruption recovery: tests/robust/corrupt damages every PTM and ETMv3
# stream of the shared snapshots in 1800 ways and seven pft-encode-made
# streams (four PTM, three ETMv3) in 300 ways each (fixed seed) and checks
# that decoding recovers everything outside the damage (see corrupt.c); then the CLI is run on some damaged files: it
# must end with exit status 0 or 1 and give every error with its offset.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
: "${PFT:?}" "${PFT_SHARED:?}" "${PFT_BUILD:?}" "${PFT_SOURCE:?}"
ss="$PFT_SHARED/testdata/opencsd-snapshots"
corrupt="$PFT_BUILD/tests/corrupt"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

if "$corrupt" --variants 300 "$ss/TC2" "$ss/trace_cov_a15"; then ok; else bad "corrupt: the shared snapshots (above)"; fi

# Encoder-made streams: a real program (tests/qemu/progs/switch.c, Thumb)
# run under qemu and traced by pft encode (PTM and ETMv3) under
# configurations the captures do not have, with A-syncs every 128-256 bytes.
for tool in arm-linux-gnueabihf-gcc qemu-arm; do
    command -v $tool >/dev/null || { echo "FAIL: missing $tool (scripts/install-deps.sh)"; exit 1; }
done
# An empty environment: libc's start-up walks it, so the instructions (and
# the damage each variant meets) would otherwise differ from machine to machine.
prog="$tmp/switch"
arm-linux-gnueabihf-gcc -static -O1 -mthumb -o "$prog" "$PFT_SOURCE/tests/qemu/progs/switch.c" &&
    env -i "$(command -v qemu-arm)" -singlestep -d exec,nochain -D "$prog.log" "$prog" >/dev/null ||
    { echo "FAIL: cannot build and run $prog"; exit 1; }
encode() {
    local name=$1; shift
    if "$PFT" encode --log "$prog.log" --elf "$prog" "$@" --out-snapshot "$tmp/$name"; then
        ok
    else
        bad "pft encode $*"
    fi
}
encode enc-ca-ts --cycle-accurate --timestamps --sync-period 256
encode enc-rs-ctxid4-vmid --return-stack --ctxid-bytes 4 --ctxid 0x1234abcd --vmid --sync-period 256
encode enc-bb-v1.0-ts --branch-broadcast --timestamps --pft-version 1.0 --ts-period 16 --sync-period 256
encode enc-dmb-ctxid1-ts48 --dmb-dsb-waypoints --ctxid-bytes 1 --timestamps --ts-bits 48 \
    --ts-period 7 --cycle-accurate --sync-period 128
encode enc3-ca-ts --protocol etmv3 --cycle-accurate --timestamps --sync-period 256
encode enc3-ctxid4-vmid-bb --protocol etmv3 --ctxid-bytes 4 --ctxid 0x1234abcd --vmid \
    --branch-broadcast --sync-period 256
encode enc3-ctxid1-ts48-gray --protocol etmv3 --ctxid-bytes 1 --timestamps --ts-bits 48 --ts-gray \
    --ts-period 7 --sync-period 128
if "$corrupt" --variants 50 "$tmp"/enc*; then ok; else bad "corrupt: the encoded streams (above)"; fi

# The CLI on damaged raw streams: 2 variants of each kind of each source.
"$corrupt" --write "$tmp" 2 "$ss/TC2" "$ss/trace_cov_a15" >"$tmp/list" || { echo "FAIL: corrupt --write"; exit 1; }
n=0
while IFS=$'\t' read -r file config images; do
    n=$((n+1))
    # shellcheck disable=SC2086
    "$PFT" dump --raw "$file" $config >/dev/null 2>"$tmp/err"
    rc=$?
    if [ $rc -gt 1 ] || grep -Evq "^pft: $file: (offset 0x[0-9a-f]+: .+|no trace data|no A-sync in [0-9]+ bytes: nothing could be decoded)$" "$tmp/err"; then
        bad "pft dump --raw $file $config -> exit $rc:"; sed 's/^/    /' "$tmp/err"
    else
        ok
    fi
    # shellcheck disable=SC2086
    "$PFT" decode --raw "$file" $config $images --format jsonl >"$tmp/out" 2>"$tmp/err"
    rc=$?
    # exit 1: errors were listed, or nothing but no_sync, which is said.
    want=0 noflow=
    grep -q '"type":"error"' "$tmp/out" && want=1
    if ! grep -vq '"type":"no_sync"' "$tmp/out"; then
        want=1 noflow="pft: $file: no A-sync followed by an I-sync in $(stat -c %s "$file") bytes: no program flow could be decoded"
    fi
    if [ $rc -ne $want ] || [ "$(cat "$tmp/err")" != "$noflow" ] || grep -vq '^{"offset":[0-9]' "$tmp/out"; then
        bad "pft decode --raw $file $config $images -> exit $rc:"; sed 's/^/    /' "$tmp/err"
    else
        ok
    fi
done <"$tmp/list"
if [ "$n" -ge 24 ]; then ok; else bad "only $n damaged files"; fi
echo "CLI on $n damaged streams"
summary
