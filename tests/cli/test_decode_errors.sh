#!/bin/bash
# pft decode on bad input.  Files and options that cannot be used: exit 2
# and exactly one line on stderr naming the file (shared/spec/cli.md, "Exit
# status").  Trace that is corrupt or that the image does not cover: error,
# no_sync and addr_nacc elements on stdout, nothing on stderr, exit 0.
# Nothing may crash or hang (the test build has ASan/UBSan; every run has a
# time limit).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
: "${PFT:?}" "${PFT_SHARED:?}" "${PFT_SOURCE:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT


# run ARGS: pft ARGS with a time limit; stdout in $tmp/out, stderr in
# $tmp/err, exit code in $rc.
run() {
    timeout 60 "$PFT" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}

# expect CODE PATTERN -- ARGS: exit code CODE, one stderr line matching the
# extended regex PATTERN.
expect() {
    local code=$1 pattern=$2; shift 3
    run "$@"
    local lines
    lines=$(wc -l <"$tmp/err")
    if [ "$rc" -ne "$code" ] || [ "$lines" -ne 1 ] || ! grep -Eq "$pattern" "$tmp/err"; then
        bad "pft $* -> exit $rc (want $code), $lines stderr lines:"; sed 's/^/    /' "$tmp/err"
    else
        ok
    fi
}

# expect_decoded DESCRIPTION -- ARGS: exit 0, nothing on stderr, output.
# The exit status of a decode that read its input: 1 when it listed errors
# in the trace, else 0.
want_status() { grep -q '"type":"error"' "$tmp/out" && echo 1 || echo 0; }

expect_decoded() {
    local what=$1; shift 2
    run "$@"
    local want; want=$(want_status)
    if [ "$rc" -ne "$want" ] || [ -s "$tmp/err" ] || [ ! -s "$tmp/out" ]; then
        bad "$what: pft $* -> exit $rc (want $want), stderr:"; sed 's/^/    /' "$tmp/err"
        return 1
    fi
    ok
}

# check_listing DESCRIPTION COMMAND...: one more check on the last output
# (shown when it fails).
check_listing() {
    local failed=$fail
    check_true "$@"
    [ "$fail" = "$failed" ] || sed 's/^/    /' "$tmp/out" | head -20
}

count() { grep -c "\"type\":\"$1\"" "$tmp/out"; }

ss="$PFT_SHARED/testdata/opencsd-snapshots/trace_cov_a15"
trace="$tmp/trace.bin"
cp "$ss/PTM_0_2.bin" "$trace"
cp "$ss/mem_Cortex-A15_0_0_VECTORS.bin" "$tmp/A.bin"   # 632 bytes, 0x80000000
cp "$ss/mem_Cortex-A15_0_1_RO_CODE.bin" "$tmp/B.bin"   # 0x80000278
cfg=(--return-stack)                                     # PTM_0_2's ETMCR 0x20000400
images=(--image "$tmp/A.bin@0x80000000" --image "$tmp/B.bin@0x80000278")

# The clean decode, for comparison (pft-flow.md 10.1: 20 ranges).
expect_decoded "clean trace" -- decode --raw "$trace" "${cfg[@]}" "${images[@]}" --format jsonl
cp "$tmp/out" "$tmp/clean.jsonl"
check_listing "clean trace: 20 ranges" [ "$(count range)" -eq 20 ]

# ---- Image files that cannot be used ----
expect 2 "^pft: $tmp/missing.bin: No such file or directory$" -- \
    decode --raw "$trace" --image "$tmp/missing.bin@0x80000000"
expect 2 "^pft: $tmp/missing.elf: No such file or directory$" -- \
    decode --raw "$trace" --elf "$tmp/missing.elf"
: >"$tmp/empty.bin"
expect 2 "^pft: $tmp/empty.bin: empty file$" -- decode --raw "$trace" --image "$tmp/empty.bin@0x1000"
expect 2 "^pft: $tmp/empty.bin: empty file$" -- decode --raw "$trace" --elf "$tmp/empty.bin"
expect 2 "^pft: $tmp: is a directory$" -- decode --raw "$trace" --image "$tmp@0x1000"
cp "$tmp/A.bin" "$tmp/noread.bin"; chmod 000 "$tmp/noread.bin"
if [ -r "$tmp/noread.bin" ]; then
    echo "note: running as root, mode 000 does not make a file unreadable; skipped"
else
    expect 2 "^pft: $tmp/noread.bin: Permission denied$" -- \
        decode --raw "$trace" --image "$tmp/noread.bin@0x1000"
fi
# Opening a FIFO would block: it must be refused, not waited on.
mkfifo "$tmp/fifo"
expect 2 "^pft: $tmp/fifo: not a regular file$" -- decode --raw "$trace" --image "$tmp/fifo@0x1000"
expect 2 "^pft: $tmp/fifo: not a regular file$" -- decode --raw "$trace" --elf "$tmp/fifo"
# ELF files: the host's own executable is no ARM code; junk is no ELF.
expect 2 "^pft: /bin/true: not a 32-bit little-endian ARM ELF executable$" -- \
    decode --raw "$trace" --elf /bin/true
head -c 200 /dev/urandom >"$tmp/junk.elf"
expect 2 "^pft: $tmp/junk.elf: not an ELF file, or a malformed one$" -- \
    decode --raw "$trace" --elf "$tmp/junk.elf"
# A snapshot whose memory dump is missing.
cp -r "$ss" "$tmp/snap"; chmod -R u+w "$tmp/snap"; rm "$tmp/snap/mem_Cortex-A15_0_1_RO_CODE.bin"
expect 2 "^pft: $tmp/snap/mem_Cortex-A15_0_1_RO_CODE.bin: No such file or directory \(named at $tmp/snap/device1.ini:[0-9]+\)$" -- \
    decode --snapshot "$tmp/snap"

# ---- Overlapping images: one line naming both files and the address ----
expect 2 "^pft: $tmp/B.bin overlaps $tmp/A.bin \(at 0x00001000\)$" -- \
    decode --raw "$trace" --image "$tmp/A.bin@0x1000" --image "$tmp/B.bin@0x1000"
# B starts inside A (A is 632 = 0x278 bytes long).
expect 2 "^pft: $tmp/B.bin overlaps $tmp/A.bin \(at 0x00001100\)$" -- \
    decode --raw "$trace" --image "$tmp/A.bin@0x1000" --image "$tmp/B.bin@0x1100"
# A starts inside B.
expect 2 "^pft: $tmp/A.bin overlaps $tmp/B.bin \(at 0x00002000\)$" -- \
    decode --raw "$trace" --image "$tmp/B.bin@0x1100" --image "$tmp/A.bin@0x2000"
# An image over a snapshot's own memory dump.
expect 2 "^pft: $tmp/A.bin overlaps $ss/mem_Cortex-A15_0_0_VECTORS.bin \(at 0x80000100\)$" -- \
    decode --snapshot "$ss" --image "$tmp/A.bin@0x80000100"
# Adjacent is fine (A ends at 0x80000277).
expect_decoded "adjacent images" -- decode --raw "$trace" "${cfg[@]}" \
    --image "$tmp/B.bin@0x80000278" --image "$tmp/A.bin@0x80000000" --format jsonl
check_listing "adjacent images decode as the clean run" cmp -s "$tmp/out" "$tmp/clean.jsonl"

# ---- --image arguments ----
expect 2 "^pft: --image: '$tmp/A.bin' needs @ADDR" -- decode --raw "$trace" --image "$tmp/A.bin"
expect 2 "^pft: --image: 'zzz' is not a 32-bit address$" -- decode --raw "$trace" --image "$tmp/A.bin@zzz"
expect 2 "^pft: --image: '' is not a 32-bit address$" -- decode --raw "$trace" --image "$tmp/A.bin@"
expect 2 "^pft: --image: '0x100000000' is not a 32-bit address$" -- \
    decode --raw "$trace" --image "$tmp/A.bin@0x100000000"
expect 2 "^pft: --image: '-4' is not a 32-bit address$" -- decode --raw "$trace" --image "$tmp/A.bin@-4"
expect 2 "^pft: $tmp/A.bin: address 0xfffffff0 puts it past 0xffffffff$" -- \
    decode --raw "$trace" --image "$tmp/A.bin@0xfffffff0"
expect 2 "^pft: decode: option '--image' needs a value$" -- decode --raw "$trace" --image

# A decode whose image does not fit the trace: its listing as usual, exit 1
# and one line naming the image as the likely cause (issue 9).
expect_misfit() {
    local what=$1; shift 2
    run "$@"
    local msg="^pft: $trace: the trace starts outside the image after 2 of 2 I-syncs: wrong load address or missing code$"
    if [ "$rc" -ne 1 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -Eq "$msg" "$tmp/err" || [ ! -s "$tmp/out" ]; then
        bad "$what: pft $* -> exit $rc (want 1 and the image named), stderr:"; sed 's/^/    /' "$tmp/err"
        return 1
    fi
    ok
}

# ---- An image that does not cover the traced code: addr_nacc, exit 1 ----
# Only the vectors: the I-sync's 0x80000558 (10.1) is not covered, so the
# first atom reports it, and no instruction is known.
expect_misfit "vectors only" -- decode --raw "$trace" "${cfg[@]}" --image "$tmp/A.bin@0x80000000" \
    --format jsonl
check_listing "vectors only: no range" [ "$(count range)" -eq 0 ]
check_listing "vectors only: first addr_nacc at 0x80000558" \
    grep -q -m1 '"type":"addr_nacc","addr":"0x80000558"' "$tmp/out"
check_listing "vectors only: the exceptions are still there" [ "$(count exception)" -eq 2 ]
# No image at all: the listing, exit 1 and one line saying so (issue 24).
run decode --raw "$trace" "${cfg[@]}" --format jsonl
check "no image: exit" "$rc" 1
check "no image: said" "$(cat "$tmp/err")" \
    "pft: $trace: no image given: $(grep -c '"type":"addr_nacc"' "$tmp/out") addresses could not be decoded (give --elf or --image)"
check_listing "no image: addr_nacc, no range" [ "$(count range)" -eq 0 -a "$(count addr_nacc)" -ge 1 ]
# The code at the wrong address.
expect_misfit "wrong address" -- decode --raw "$trace" "${cfg[@]}" --image "$tmp/B.bin@0x10000000" \
    --format jsonl
check_listing "wrong address: addr_nacc, no range" [ "$(count range)" -eq 0 -a "$(count addr_nacc)" -ge 1 ]
# Text format too.
expect_misfit "vectors only, text" -- decode --raw "$trace" "${cfg[@]}" --image "$tmp/A.bin@0x80000000"
check_listing "text addr_nacc line" grep -Eq '^0x0000000c  addr_nacc  0x80000558' "$tmp/out"

# ---- Corrupt trace: error / no_sync elements, no crash, exit 0 or 1 ----
# Random bytes, no A-sync anywhere: nothing but no_sync, and said (exit 1),
# as every command says it.
head -c 8192 /dev/urandom | tr -d '\000' >"$tmp/random.bin"
n=$(stat -c %s "$tmp/random.bin")
noflow="^pft: $tmp/random.bin: no A-sync followed by an I-sync in $n bytes: no program flow could be decoded$"
expect 1 "$noflow" -- decode --raw "$tmp/random.bin" "${cfg[@]}" "${images[@]}" --format jsonl
check_listing "random bytes: one no_sync line" [ "$(wc -l <"$tmp/out")" -eq 1 -a "$(count no_sync)" -eq 1 ]
for view in coverage profile calls timeline annotate; do
    expect 1 "$noflow" -- "$view" --raw "$tmp/random.bin" "${cfg[@]}" "${images[@]}"
done
expect 1 "$noflow" -- decode --raw "$tmp/random.bin" "${cfg[@]}" "${images[@]}" --count
# Random bytes after the real trace: the real part decodes as before.
cat "$trace" "$tmp/random.bin" >"$tmp/tail.bin"
expect_decoded "random tail" -- decode --raw "$tmp/tail.bin" "${cfg[@]}" "${images[@]}" --format jsonl
check_listing "random tail: the clean decode is a prefix" \
    cmp -s <(head -n "$(wc -l <"$tmp/clean.jsonl")" "$tmp/out") "$tmp/clean.jsonl"
# A reserved header: a located error line saying what was wrong.
{ head -c 29 "$trace"; printf '\x02\x84\x84'; } >"$tmp/reserved.bin"
expect_decoded "reserved header" -- decode --raw "$tmp/reserved.bin" "${cfg[@]}" "${images[@]}" --format jsonl
check_listing "reserved header: error at offset 29" \
    grep -Eq '^\{"offset":29,"id":[0-9]+,"type":"error","msg":"[^"]*reserved header 0x02' "$tmp/out"
check_listing "reserved header: nothing decoded after it" [ "$(tail -n1 "$tmp/out" | grep -c '"type":"error"')" -eq 1 ]
# A file cut inside the last packet (the exception at 30 is 6 bytes).
head -c 33 "$trace" >"$tmp/cut.bin"
expect_decoded "cut file" -- decode --raw "$tmp/cut.bin" "${cfg[@]}" "${images[@]}" --format jsonl
check_listing "cut file: the last line is an error at offset 30" \
    grep -Eq '^\{"offset":30,"id":[0-9]+,"type":"error","msg":"[^"]*truncated' <(tail -n1 "$tmp/out")
check_listing "cut file: everything before it as in the clean decode" \
    cmp -s <(head -n -1 "$tmp/out") <(grep -v '"offset":30,' "$tmp/clean.jsonl")
# Cut inside the first I-sync: no_sync, then the error.
head -c 9 "$trace" >"$tmp/cut9.bin"
expect_decoded "cut I-sync" -- decode --raw "$tmp/cut9.bin" "${cfg[@]}" "${images[@]}" --format jsonl
cut9_ok() {
    [ "$(wc -l <"$tmp/out")" -eq 2 ] && grep -q '"offset":0,.*"type":"no_sync"' <(head -n1 "$tmp/out") \
        && grep -q '"offset":6,.*"type":"error".*truncated' <(tail -n1 "$tmp/out")
}
check_listing "cut I-sync: no_sync then an error at 6" cut9_ok
# Only an A-sync: read to its end, nothing to decode, and said.
printf '\x00\x00\x00\x00\x00\x80' >"$tmp/async.bin"
expect 1 "^pft: $tmp/async.bin: no A-sync followed by an I-sync in 6 bytes: no program flow could be decoded$" \
    -- decode --raw "$tmp/async.bin" "${cfg[@]}" --format jsonl
check_listing "A-sync only: no_sync only" [ "$(count no_sync)" -eq 1 -a "$(wc -l <"$tmp/out")" -eq 1 ]
# Every byte value after a valid start, several times over: no crash.
for i in 1 2 3 4 5; do
    { head -c 12 "$trace"; head -c 4096 /dev/urandom; } >"$tmp/fuzz.bin"
    run decode --raw "$tmp/fuzz.bin" "${cfg[@]}" "${images[@]}" --format jsonl
    check_listing "random after an I-sync ($i): exit 0 or 1 as errors were listed, no stderr" \
        [ "$rc" -eq "$(want_status)" -a ! -s "$tmp/err" ]
done
# Random bytes given as frames: no trace source in them, read as frames or
# raw, whatever the ID asked for: refused (exit 2), as every command
# refuses them (issue 24).
head -c 4096 /dev/urandom >"$tmp/frames.bin"
expect 2 "^pft: $tmp/frames\.bin: not a CoreSight formatted buffer: no trace source in its 4096 bytes" \
    -- decode --formatted "$tmp/frames.bin" --id 0x10 "${images[@]}" --format jsonl

# A frame with the illegal ID 0x7f in the TC2 buffer: an error line at its
# offset (cli.md: errors inside the trace are listed, exit 1), then decoding
# starts again (no_sync, later a trace_on) and still finds ranges.
python3 -c "import sys; b=bytearray(open(sys.argv[1],'rb').read()); b[0x6800:0x6802]=b'\xff\xff'; open(sys.argv[2],'wb').write(b)" \
    "$PFT_SHARED/testdata/opencsd-snapshots/TC2/cstrace.bin" "$tmp/badframe.bin"
run decode --formatted "$tmp/badframe.bin" --id 0x13 --cycle-accurate --timestamps --format jsonl \
    --image "$PFT_SHARED/testdata/opencsd-snapshots/TC2/kernel_dump.bin@0xC0008000"
check_listing "bad frame: exit 1, nothing on stderr" [ "$rc" -eq 1 -a ! -s "$tmp/err" ]
if python3 -c "
import json, sys
e = [json.loads(l) for l in open(sys.argv[1])]
i = next(k for k, x in enumerate(e) if x['type'] == 'error')
assert e[i]['offset'] == 0x6800 and e[i]['msg'] == 'bad formatter frame' and e[i]['id'] == 0x13, e[i]
rest = [x['type'] for x in e[i + 1:]]
assert rest[0] == 'no_sync' and 'trace_on' in rest and 'range' in rest, rest[:10]
" "$tmp/out"; then ok; else bad "bad frame: error line or recovery"; fi

summary
