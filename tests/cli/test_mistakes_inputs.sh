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

# ---- 9. One verdict on what an input is, from every command ----------------
same_verdict() {  # same_verdict NAME REGEX OPTION FILE: exit 2, the same line
    local name=$1 re=$2 opt=$3 file=$4 first='' c
    for c in info dump decode coverage; do
        expect_error 2 "$re" "$PFT" "$c" "$opt" "$file"
        check "$name: $c prints nothing" "$out" ""
        [ -n "$first" ] || first=$err
        check "$name: $c says what info says" "$err" "$first"
    done
}
same_verdict "raw as --formatted" \
    "^pft: $tmp/rs64\.raw: this is raw PTM trace, not a formatted buffer: try --raw$" \
    --formatted "$tmp/rs64.raw"
same_verdict "memory dump as --formatted" \
    "^pft: $ex/mem_0\.bin: not a CoreSight formatted buffer: no trace source in its 536 bytes, read as frames or as raw trace$" \
    --formatted "$ex/mem_0.bin"
same_verdict "formatted as --raw" \
    "^pft: $tc2/cstrace\.bin: this is a formatted buffer \(formatted frames\), not raw trace: try --formatted$" \
    --raw "$tc2/cstrace.bin"
same_verdict "empty --raw" "^pft: $tmp/empty\.bin: empty file: no trace$" --raw "$tmp/empty.bin"
same_verdict "empty --formatted" "^pft: $tmp/empty\.bin: empty file: no trace$" --formatted "$tmp/empty.bin"
# The same from standard input.
for c in info decode; do
    expect_error 2 "^pft: standard input: this is raw PTM trace, not a formatted buffer: try --raw$" \
        sh -c '"$1" "$2" --formatted - <"$3"' sh "$PFT" "$c" "$tmp/rs64.raw"
    expect_error 2 "^pft: standard input: this is a formatted buffer \(formatted frames\), not raw trace: try --formatted$" \
        sh -c '"$1" "$2" --raw - <"$3"' sh "$PFT" "$c" "$tc2/cstrace.bin"
    expect_error 2 "^pft: standard input: empty: no trace$" \
        sh -c '"$1" "$2" --raw - </dev/null' sh "$PFT" "$c"
done
# What fits still reads: the raw file as --raw, the buffer as --formatted.
# (info_of: its lines up to what detection adds in parentheses.)
info_of() { "$PFT" info "$@" 2>/dev/null | sed 's/ (detected.*//'; }
check "info --raw" "$(info_of --raw "$tmp/rs.raw")" "146 bytes, ptm, options: (none)"
check "info --formatted" "$(info_of --formatted "$tmp/rs.fmt")" "id 0x10: 146 bytes, ptm, options: (none)"

# ---- 2. --tpiu on a memory buffer: no FSYNC, whatever the IDs ---------------
for c in decode dump info coverage; do
    expect_error 2 "^pft: $tmp/rs\.fmt: no trace-port FSYNC found in 160 bytes: a memory \(ETB/ETF\) buffer, not a trace-port capture; drop --tpiu$" \
        "$PFT" "$c" --formatted "$tmp/rs.fmt" --tpiu
done
for c in decode dump; do
    expect_error 2 "^pft: $tmp/rs\.fmt: no trace-port FSYNC found in 160 bytes: .*; drop --tpiu$" \
        "$PFT" "$c" --formatted "$tmp/rs.fmt" --tpiu --id 0x10
done
expect_error 2 "^pft: $tc2/cstrace\.bin: no trace-port FSYNC found in 32768 bytes: a memory \(ETB/ETF\) buffer, not a trace-port capture; drop --tpiu$" \
    "$PFT" decode --formatted "$tc2/cstrace.bin" --tpiu --count
expect_error 2 "^pft: standard input: no trace-port FSYNC found in 160 bytes: .*; drop --tpiu$" \
    sh -c '"$1" decode --formatted - --tpiu <"$2"' sh "$PFT" "$tmp/rs.fmt"
expect_error 2 "^pft: standard input: no trace-port FSYNC found in 160 bytes: .*; drop --tpiu$" \
    sh -c '"$1" dump --formatted - --tpiu --id 0x10 --cycle-accurate <"$2"' sh "$PFT" "$tmp/rs.fmt"
# A trace-port capture (FSYNC, HSYNC) decodes with --tpiu as without.
enc --out-formatted "$tmp/tp.fmt" --id 0x10 --tpiu
ranges() { jq -c 'select(.type=="range") | [.start,.end,.n,.taken]' | md5sum; }
want=$("$PFT" decode --formatted "$tmp/rs.fmt" --elf "$ex/prog" --format jsonl 2>/dev/null | ranges)
for t in --tpiu ""; do
    # shellcheck disable=SC2086
    check "trace-port capture $t: decoded" \
        "$("$PFT" decode --formatted "$tmp/tp.fmt" $t --elf "$ex/prog" --format jsonl 2>/dev/null | ranges)" "$want"
    # shellcheck disable=SC2086
    check "trace-port capture $t: info" "$(info_of --formatted "$tmp/tp.fmt" $t)" \
        "id 0x10: 146 bytes, ptm, options: (none)"
done

# ---- 6. Every --id given is decoded -----------------------------------------
ids() { jq -r .id | sort -un | tr '\n' ' '; }
check "dump --id twice" "$("$PFT" dump --snapshot "$tc2" --id 0x10 --id 0x13 --format jsonl | ids)" "16 19 "
check "dump --id list" "$("$PFT" dump --snapshot "$tc2" --id 0x10,0x13 --format jsonl | ids)" "16 19 "
check "decode --id twice" \
    "$("$PFT" decode --snapshot "$tc2" --id 0x13 --id 0x11 --format jsonl | ids)" "17 19 "
# Each ID decodes as it does alone.
for id in 0x10 0x13; do
    check "dump --id 0x10,0x13: $id as alone" \
        "$("$PFT" dump --snapshot "$tc2" --id 0x10,0x13 --format jsonl |
           jq -c "select(.id == $((id)))" | md5sum)" \
        "$("$PFT" dump --snapshot "$tc2" --id "$id" --format jsonl | md5sum)"
done
# A formatted buffer: detection for each ID given, the others not read.
run "$PFT" dump --formatted "$tc2/cstrace.bin" --id 0x12 --id 0x11 --protocol etmv3 --format jsonl
check "formatted --protocol etmv3 --id twice" "$(printf '%s\n' "$out" | ids)" "17 18 "
run "$PFT" dump --formatted "$tc2/cstrace.bin" --id 0x13 --id 0x11 --format jsonl
check "formatted, detected: the PTM decoded" "$(printf '%s\n' "$out" | ids)" "19 "
check "formatted, detected: the ETMv3 asked for is named" \
    "$(printf '%s\n' "$err" | grep -c 'cstrace\.bin: trace ID 0x11: etmv3 trace is not decoded$')" 1
# An ID with no trace data: named, per ID, by every command; exit 1.
run "$PFT" dump --formatted "$tc2/cstrace.bin" --id 0x13,0x25 --count
check "formatted --id 0x13,0x25: exit" "$status" 1
check "formatted --id 0x13,0x25: 0x25 named" \
    "$(printf '%s\n' "$err" | grep -c "^pft: $tc2/cstrace\.bin: trace ID 0x25: no trace data$")" 1
check "formatted --id 0x13,0x25: 0x13 decoded" \
    "$(printf '%s\n' "$out" | grep -c '^id 0x13 .*: 4533 bytes, 1798 packets, 0 errors$')" 1
run "$PFT" dump --formatted "$tc2/cstrace.bin" --id 0x25 --id 0x26 --format jsonl
check "two IDs without data: exit" "$status" 1
check "two IDs without data: both named" \
    "$(printf '%s\n' "$err" | grep -cE 'cstrace\.bin: trace ID 0x2[56]: no trace data$')" 2
expect_error 1 "^pft: $tc2/cstrace\.bin: trace ID 0x14: no trace data$" \
    "$PFT" decode --snapshot "$tc2" --id 0x13 --id 0x14 --count
expect_error 2 "^pft: $tc2: no PTM or ETMv3 with trace ID 0x22$" \
    "$PFT" decode --snapshot "$tc2" --id 0x13 --id 0x22 --count
# The views and info.
expect_status "calls --id twice" 0 "$PFT" calls --snapshot "$tc2" --id 0x13,0x10 --format jsonl
check "calls --id twice: the IDs" "$(printf '%s\n' "$out" | ids)" "16 19 "
check "info --id twice" "$(info_of --formatted "$tc2/cstrace.bin" --id 0x13 --id 0x10)" \
    "id 0x10: 10873 bytes, etmv3
id 0x13: 4533 bytes, ptm, options: --cycle-accurate --timestamps"
expect_error 1 "^pft: $tc2/cstrace\.bin: trace ID 0x25: no trace data$" \
    "$PFT" info --formatted "$tc2/cstrace.bin" --id 0x13,0x25
check "info --id 0x13,0x25: 0x13 listed" "${out%% (detected*}" \
    "id 0x13: 4533 bytes, ptm, options: --cycle-accurate --timestamps"
check "info --snapshot --id" "$("$PFT" info --snapshot "$tc2" --id 0x11 --id 0x12 --format jsonl | ids)" "17 18 "
# Options.
expect_error 2 "^pft: --id: '0x80' is not a trace ID \(0x01-0x6f\)$" \
    "$PFT" decode --snapshot "$tc2" --id 0x10,0x80
expect_error 2 "^pft: --id: '' is not a trace ID \(0x01-0x6f\)$" \
    "$PFT" decode --snapshot "$tc2" --id 0x10,
expect_error 2 "^pft: (info: )?--id does not go with --raw" "$PFT" info --raw "$tmp/rs.raw" --id 0x10

# A snapshot copied as links (cp -rs, issue 29 item 8): every file, its
# snapshot.ini too, leads outside the directory named.  Said, naming the
# file (once a crash: the link had no file naming it); read with
# --allow-outside-files.
cp -rs "$ex" "$tmp/links"
expect_error 2 "^pft: $tmp/links/snapshot.ini: it leads outside the snapshot directory, to .*snapshot.ini \(--allow-outside-files reads it\)$" \
    "$PFT" decode --snapshot "$tmp/links" --count
check "links: --allow-outside-files reads them" \
    "$("$PFT" decode --snapshot "$tmp/links" --allow-outside-files --count 2>/dev/null)" \
    "$("$PFT" decode --snapshot "$ex" --count 2>/dev/null)"

# A raw file of nothing but A-syncs reads as ITM; --protocol ptm is
# obeyed (issue 29, item 11).
python3 -c "import sys; sys.stdout.buffer.write((b'\\0' * 5 + b'\\x80') * 100)" >"$tmp/asyncs.raw"
expect_error 2 "^pft: $tmp/asyncs.raw: this is itm trace, not PTM$" "$PFT" decode --raw "$tmp/asyncs.raw" --count
expect_status "A-syncs with --protocol ptm" 1 "$PFT" decode --raw "$tmp/asyncs.raw" --protocol ptm --count
check "A-syncs with --protocol ptm: no I-sync, said" "$("$PFT" decode --raw "$tmp/asyncs.raw" \
    --protocol ptm --count 2>&1 >/dev/null | grep -c 'asyncs.raw: no A-sync followed by an I-sync in 600 bytes: no program flow could be decoded$')" 1
check "A-syncs with --protocol ptm: read as PTM" "$("$PFT" dump --raw "$tmp/asyncs.raw" --protocol ptm --count 2>/dev/null | grep -E '^ +async')" \
    "  async             100"

summary
