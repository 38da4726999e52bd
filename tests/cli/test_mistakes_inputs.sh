#!/bin/bash
# Issue 24, what an input is (items 2, 6, 9, 17 and --allow-outside-files):
# every command gives the same verdict on a file given with the wrong
# option, --tpiu without trace-port syncs is said whatever the IDs, every
# --id given is decoded, the same image given twice is one image, and a
# snapshot naming files outside its directory is read with the option its
# message names.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
PFT=${PFT:-build/pft}
SS=${PFT_SHARED:-../shared}/testdata/opencsd-snapshots
SRC=${PFT_SOURCE:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ex=$SRC/examples/demo
tc2=$SS/TC2

# Inputs: the demo's run encoded with a return stack, raw (146 bytes, one
# A-sync), raw with a sync every 64 bytes, and as an ETB memory buffer
# (CoreSight frames without trace-port syncs: 160 bytes, trace ID 0x10).
"$PFT" decode --snapshot "$ex" --format jsonl | python3 "$SRC/tests/cli/demo_log.py" \
    "$ex/mem_0.bin" >"$tmp/plain.log"
enc() { "$PFT" encode --log "$tmp/plain.log" --elf "$ex/prog" --return-stack "$@" 2>/dev/null; }
enc --out-raw "$tmp/rs.raw" --out-formatted "$tmp/rs.fmt" --id 0x10
enc --sync-period 64 --out-raw "$tmp/rs64.raw"
check "inputs: rs.fmt is 160 bytes" "$(stat -c %s "$tmp/rs.fmt")" 160
: >"$tmp/empty.bin"

# ---- 17. The same image twice is one image --------------------------------
want=$("$PFT" decode --snapshot "$ex" --format jsonl | md5sum)
expect_status "--image twice" 0 "$PFT" decode --snapshot "$ex" \
    --image "$ex/mem_0.bin@0x10000" --image "$ex/mem_0.bin@0x10000" --format jsonl
check "--image twice: output" "$(printf '%s\n' "$out" | md5sum)" "$want"
check "--image twice: nothing on stderr" "$err" ""
want=$("$PFT" decode --raw "$tmp/rs64.raw" --elf "$ex/prog" --format jsonl 2>/dev/null | md5sum)
expect_status "--elf twice" 0 "$PFT" decode --raw "$tmp/rs64.raw" --elf "$ex/prog" --elf "$ex/prog" \
    --format jsonl
check "--elf twice: output" "$(printf '%s\n' "$out" | md5sum)" "$want"
expect_status "--image twice, no snapshot" 0 "$PFT" decode --raw "$tmp/rs.raw" --return-stack \
    --image "$ex/mem_0.bin@0x10000" --image "$ex/mem_0.bin@0x10000" --count
# The ELF and the dump of its code: the same bytes.
expect_status "--elf and its dump" 0 "$PFT" decode --raw "$tmp/rs.raw" --return-stack \
    --image "$ex/mem_0.bin@0x10000" --elf "$ex/prog" --count
# Bytes that differ stay an error: the dump 4 bytes off.
expect_error 2 "^pft: [^ ]*mem_0\.bin overlaps [^ ]*mem_0\.bin \(at 0x00010004\)$" \
    "$PFT" decode --raw "$tmp/rs.raw" --return-stack \
    --image "$ex/mem_0.bin@0x10000" --image "$ex/mem_0.bin@0x10004" --count

# ---- --allow-outside-files: the option the snapshot loader names -------------
# The demo snapshot with its memory dump one directory up.
mkdir "$tmp/up"
cp -r "$ex" "$tmp/up/ss"
chmod -R u+w "$tmp/up/ss"
mv "$tmp/up/ss/mem_0.bin" "$tmp/up/mem_0.bin"
sed -i 's|^file=mem_0\.bin|file=../mem_0.bin|' "$tmp/up/ss/cpu_0.ini"
for c in dump decode info coverage profile timeline calls regs; do
    expect_error 2 "^pft: $tmp/up/ss/cpu_0\.ini:[0-9]+: '\.\./mem_0\.bin' is outside the snapshot directory \(--allow-outside-files reads it\)$" \
        "$PFT" "$c" --snapshot "$tmp/up/ss"
    expect_status "$c --allow-outside-files" 0 "$PFT" "$c" --snapshot "$tmp/up/ss" --allow-outside-files
    case $c in dump|decode|info|timeline)
        check "$c --allow-outside-files: output" "$(printf '%s\n' "$out" | md5sum)" \
            "$("$PFT" "$c" --snapshot "$ex" | md5sum)";;
    esac
done
expect_error 2 "^pft: --allow-outside-files goes with --snapshot$" \
    "$PFT" decode --raw "$tmp/rs.raw" --allow-outside-files
expect_error 2 "^pft: regs: --allow-outside-files needs --snapshot$" \
    "$PFT" regs ETMCR=0x1000 --allow-outside-files

summary
