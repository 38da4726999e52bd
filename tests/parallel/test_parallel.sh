#!/bin/bash
# Parallel decode (issue 14): `-j N` gives byte for byte what `-j 1` (the
# serial decode) gives, on the captures and on a multi-MB trace, with
# pieces made small through PFT_PIECE_SIZE so that even the small captures
# are split, and the split proven by the counts pft then reports on stderr
# ("parallel decode: P pieces, H handovers, A absorbed").
set -u
PFT=${PFT:-build/pft}
SHARED=${PFT_SHARED:-../shared}
SRC=${PFT_SOURCE:-.}
SS=$SHARED/testdata/opencsd-snapshots
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() { if [ "$2" = "$3" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1: '$2' != '$3'"; fi; }

# same PIECE JOBS MIN_PIECES ARGS...: pft ARGS -j JOBS with pieces of
# PIECE bytes prints what pft ARGS -j 1 prints (standard output, the other
# messages on stderr, exit code), split into at least MIN_PIECES pieces.
same() {
    local piece=$1 jobs=$2 min=$3
    shift 3
    local name="$* -j $jobs (pieces of $piece)"
    "$PFT" "$@" -j 1 >"$tmp/serial.out" 2>"$tmp/serial.err"
    local rc1=$?
    PFT_PIECE_SIZE=$piece "$PFT" "$@" -j "$jobs" >"$tmp/par.out" 2>"$tmp/par.err"
    local rc2=$?
    check "$name: exit code" "$rc2" "$rc1"
    if cmp -s "$tmp/serial.out" "$tmp/par.out"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $name: output differs from -j 1"
        diff "$tmp/serial.out" "$tmp/par.out" | head -5
    fi
    check "$name: messages" "$(grep -v 'parallel decode:' "$tmp/par.err")" "$(cat "$tmp/serial.err")"
    local pieces
    pieces=$(sed -n 's/.*parallel decode: \([0-9]*\) pieces.*/\1/p' "$tmp/par.err")
    check "$name: split into >= $min pieces" "$([ "${pieces:-0}" -ge "$min" ] && echo yes)" yes
    last_counts=$(grep 'parallel decode:' "$tmp/par.err")
}

# trace_cov_a15: a snapshot whose PTM buffer is raw (36 bytes): pieces of
# 16 bytes cut it in three, inside its packets.
a15=$SS/trace_cov_a15
same 16 2 3 dump --snapshot "$a15"
same 16 2 3 dump --snapshot "$a15" --count
same 16 2 3 decode --snapshot "$a15"
same 16 2 3 decode --snapshot "$a15" --insn
same 16 2 3 decode --snapshot "$a15" --count
same 16 2 3 profile --snapshot "$a15"
for j in 2 3; do
    same 16 $j 3 dump --snapshot "$a15" --format jsonl
    same 16 $j 3 decode --snapshot "$a15" --format jsonl
done

# TC2: a formatted buffer of several sources is decoded serially (0 pieces).
same 4096 2 0 decode --snapshot "$SS/TC2" --count
same 4096 2 0 dump --snapshot "$SS/TC2" --format jsonl

# TC2's PTM (trace ID 0x13) as raw bytes (deformatted here), once and
# 160 times over (725 KB): a copy's end cuts its last packet, and the next
# copy's A-sync resynchronises, so the pieces meet trace of every kind.
python3 - "$SRC/tests/fuzz" "$SS/TC2/cstrace.bin" "$tmp" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from make_corpus import deformat
one = deformat(open(sys.argv[2], 'rb').read(), 0x13)
open(sys.argv[3] + '/one.pft', 'wb').write(one)
open(sys.argv[3] + '/big.pft', 'wb').write(one * 160)
PY
check "TC2 0x13 bytes" "$(stat -c %s "$tmp/one.pft")" 4533
cfg=(--reg ETMCR=0x10001000 --image "$SS/TC2/kernel_dump.bin@0xC0008000")
for j in 2 3; do
    same 256 $j 17 dump --raw "$tmp/one.pft" "${cfg[@]:0:2}" --format jsonl
    same 256 $j 17 decode --raw "$tmp/one.pft" "${cfg[@]}" --format jsonl
done
same 256 2 17 decode --raw "$tmp/one.pft" "${cfg[@]}" --insn
same 4096 2 177 decode --raw "$tmp/big.pft" "${cfg[@]}" --count
handovers=$(echo "$last_counts" | sed -n 's/.* \([0-9]*\) handovers.*/\1/p')
check "big trace: pieces handed over at verified I-syncs" "$([ "${handovers:-0}" -gt 100 ] && echo yes)" yes
same 4096 3 177 dump --raw "$tmp/big.pft" "${cfg[@]:0:2}" --count
# --count: the workers count in place and only the bad packets come back,
# each listed on stderr where -j 1 lists it.  bad.pft: the copies with a
# reserved header byte (0x02) put into each, a little further every time.
python3 - "$tmp" <<'PY'
import sys
one = open(sys.argv[1] + '/one.pft', 'rb').read()
open(sys.argv[1] + '/bad.pft', 'wb').write(
    b''.join(one[:1000 + 17 * i] + b'\x02' + one[1000 + 17 * i:] for i in range(160)))
PY
same 4096 2 177 dump --raw "$tmp/bad.pft" "${cfg[@]:0:2}" --count --format jsonl
check "bad trace: bad packets listed" "$([ "$(grep -c 'offset 0x' "$tmp/par.err")" -gt 50 ] && echo yes)" yes
same 4096 2 177 decode --raw "$tmp/bad.pft" "${cfg[@]}" --count
# Unsynchronised bytes come in NOTSYNC packets that end where the serial
# decode's 256 KiB reads end: the pieces' reads end there too.
same 4096 2 177 dump --raw "$tmp/bad.pft" "${cfg[@]:0:2}"
same 256 2 17 decode --raw "$tmp/one.pft" "${cfg[@]}" --count --format jsonl
same 65536 2 11 decode --raw "$tmp/big.pft" "${cfg[@]}" --format jsonl
same 65536 2 11 coverage --raw "$tmp/big.pft" "${cfg[@]}"
# Detection (no configuration given) happens before the split.
same 65536 2 11 dump --raw "$tmp/big.pft" --count

# Without -j: a thread per CPU.
PFT_PIECE_SIZE=4096 "$PFT" dump --raw "$tmp/big.pft" "${cfg[@]:0:2}" --count >/dev/null 2>"$tmp/err"
if [ "$(nproc)" -gt 1 ]; then
    check "default -j: parallel" "$(grep -c 'parallel decode: 178 pieces' "$tmp/err")" 1
fi
PFT_PIECE_SIZE=4096 "$PFT" dump --raw "$tmp/one.pft" "${cfg[@]:0:2}" --count >/dev/null 2>"$tmp/err"
check "default -j, one piece: serial" "$(grep -c "parallel decode: 0 pieces" "$tmp/err")" 1
# ... but dump's listing: its packets decode faster than they are handed over.
PFT_PIECE_SIZE=4096 "$PFT" dump --raw "$tmp/big.pft" "${cfg[@]:0:2}" >/dev/null 2>"$tmp/err"
check "default -j, dump listing: serial" "$(grep -c "parallel decode: 0 pieces" "$tmp/err")" 1

# -j takes a number of threads.
"$PFT" decode --raw "$tmp/one.pft" -j 0 >/dev/null 2>"$tmp/err"
check "-j 0: usage error" "$?" 2
check "-j 0: message" "$(cat "$tmp/err")" "pft: -j/--jobs: '0' is not a number of threads (1-1024)"
"$PFT" decode --raw "$tmp/one.pft" --jobs 2 "${cfg[@]}" --count >"$tmp/out" 2>/dev/null
check "--jobs 2" "$?" 0

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
