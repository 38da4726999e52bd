#!/bin/bash
# Parallel decode (issue 14): `-j N` gives byte for byte what `-j 1` (the
# serial decode) gives, on the captures and on a multi-MB trace, with
# pieces made small through PFT_PIECE_SIZE so that even the small captures
# are split, and the split proven by the counts pft then reports on stderr
# ("parallel decode: P pieces, H handovers, A absorbed").
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=same.sh
. "$(dirname "$0")/same.sh"
PFT=${PFT:-build/pft}
SHARED=${PFT_SHARED:-../shared}
SRC=${PFT_SOURCE:-.}
SS=$SHARED/testdata/opencsd-snapshots
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# same PIECE JOBS MIN_PIECES ARGS...: same_as_serial (same.sh), split into
# at least MIN_PIECES pieces.
same() {
    local piece=$1 jobs=$2 min=$3
    shift 3
    same_as_serial "$piece" "$jobs" "$@"
    check "$* -j $jobs (pieces of $piece): split into >= $min pieces" \
        "$([ "${pieces:-0}" -ge "$min" ] && echo yes)" yes
    last_counts=$par_counts
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

# TC2: a formatted buffer of several sources decoded is decoded serially
# (0 pieces).
same 4096 2 0 decode --snapshot "$SS/TC2" --count
same 4096 2 0 dump --snapshot "$SS/TC2" --format jsonl

# TC2's PTM (trace ID 0x13) as raw bytes (deformatted here), once and
# 160 times over (725 KB): a copy's end cuts its last packet, and the next
# copy's A-sync resynchronises, so the pieces meet trace of every kind.
bytes_of() { python3 "$SRC/tests/parallel/source_bytes.py" "$SS/TC2/cstrace.bin" "$@"; }
bytes_of 0x13 1 "$tmp/one.pft"
bytes_of 0x13 160 "$tmp/big.pft"
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
bytes_of 0x13 160 "$tmp/bad.pft" 1000 17
same 4096 2 177 dump --raw "$tmp/bad.pft" "${cfg[@]:0:2}" --count --format jsonl
check "bad trace: bad packets listed" "$([ "$(grep -c 'offset 0x' "$tmp/par.err")" -gt 50 ] && echo yes)" yes
same 4096 2 177 decode --raw "$tmp/bad.pft" "${cfg[@]}" --count
# Unsynchronised bytes come in NOTSYNC packets that end where the serial
# decode's 256 KiB reads end: the pieces' reads end there too.
same 4096 2 177 dump --raw "$tmp/bad.pft" "${cfg[@]:0:2}"
same 256 2 17 decode --raw "$tmp/one.pft" "${cfg[@]}" --count --format jsonl
same 65536 2 11 decode --raw "$tmp/big.pft" "${cfg[@]}" --format jsonl
same 65536 2 11 coverage --raw "$tmp/big.pft" "${cfg[@]}"
same 65536 2 11 annotate --raw "$tmp/big.pft" "${cfg[@]}" --format jsonl
# Detection (no configuration given) happens before the split.
same 65536 2 11 dump --raw "$tmp/big.pft" --count

# Formatted memory buffers (CoreSight frames) with one PTM source decoded:
# the workers deformat their pieces themselves.  TC2's buffer holds five
# sources whose IDs change every few frames; --id 0x13 decodes one, the
# others' bytes are counted (dump --count prints the IDs' bytes).
tc2=$SS/TC2
for j in 2 3; do
    same 256 $j 100 dump --snapshot "$tc2" --id 0x13
    same 256 $j 100 decode --snapshot "$tc2" --id 0x13 --format jsonl
done
same 256 2 100 dump --snapshot "$tc2" --id 0x13 --count --format jsonl
same 256 2 100 decode --snapshot "$tc2" --id 0x13 --count
same 256 2 100 decode --snapshot "$tc2" --id 0x13 --insn
same 1024 2 30 profile --snapshot "$tc2" --id 0x13
same 1024 2 30 annotate --snapshot "$tc2" --id 0x13
same 1024 2 30 calls --snapshot "$tc2" --id 0x13
# Most pieces start in a stretch of another ID (0x13 has a tenth of the
# frames), whose bytes they must not take as 0x13's.
same 256 2 100 dump --snapshot "$tc2" --id 0x13 --count

# mkbuf NAME SRC_DIR PYTHON: a copy of snapshot SRC_DIR whose trace buffer
# (TRACE, named in its trace.ini) the Python code rewrites (bytes b in, b
# out), in $tmp/NAME.
mkbuf() {
    rm -rf "$tmp/$1"; cp -r "$2" "$tmp/$1"; chmod -R u+w "$tmp/$1"
    local f
    f=$tmp/$1/$(sed -n 's/^file=//p' "$tmp/$1/trace.ini")
    python3 -c "import sys
b = open(sys.argv[1], 'rb').read()
$3
open(sys.argv[1], 'wb').write(b)" "$f"
}
# TC2 eight times over (256 KB), damaged: a byte in every 700 flipped
# (packets break, ID bytes appear, vanish and change), an ID byte 0x7f
# (reserved: the frame is dropped, an error) every 9000 bytes, and a frame
# of four FSYNCs (a discontinuity) every 40000 bytes.
mkbuf tc2bad "$tc2" "
b = bytearray(b * 8)
for i in range(300, len(b), 700):
    b[i] ^= 1 << (i // 700 % 8)
for i in range(4000, len(b), 9000):
    b[i] = 0xff
for i in range(40000, len(b), 40000):
    b[i:i + 16] = bytes.fromhex('ffffff7f') * 4
b = bytes(b)"
same 4096 2 60 dump --snapshot "$tmp/tc2bad" --id 0x13
check "damaged TC2: bad packets" "$([ "$(grep -c 'id 0x13: ' "$tmp/serial.err")" -gt 4 ] && echo yes)" yes
same 4096 2 60 decode --snapshot "$tmp/tc2bad" --id 0x13 --format jsonl
check "damaged TC2: frames dropped" "$([ "$(grep -c '"error".*frame' "$tmp/serial.out")" -gt 20 ] && echo yes)" yes
same 4096 2 60 dump --snapshot "$tmp/tc2bad" --id 0x13 --count --format jsonl
same 4096 2 60 decode --snapshot "$tmp/tc2bad" --id 0x13 --count
same 4096 3 60 decode --snapshot "$tmp/tc2bad" --id 0x13 --insn
# Many sources decoded: serial.
same 4096 2 0 decode --snapshot "$tmp/tc2bad" --count
# A piece is taken over only once the fit check has had its first 64 KiB
# of 0x13's packets (the pieces after the first assume so): TC2 24 times
# over (768 KB, 77 KB of 0x13's) has hand-overs after that.
mkbuf tc2big "$tc2" "b = b * 24"
same 8192 2 90 dump --snapshot "$tmp/tc2big" --id 0x13 --count
same 8192 2 90 decode --snapshot "$tmp/tc2big" --id 0x13 --count
handovers=$(echo "$last_counts" | sed -n 's/.* \([0-9]*\) handovers.*/\1/p')
check "TC2 x 24: pieces handed over at verified I-syncs" "$([ "${handovers:-0}" -gt 5 ] && echo yes)" yes

# Pieces of the default size (PFT_PIECE_SIZE=0: 256 KiB for a listing,
# 512 KiB for the views' folds at -j 2): raw, formatted, and with a fold.
same 0 2 2 decode --raw "$tmp/bad.pft" "${cfg[@]}" --format jsonl
same 0 2 2 dump --raw "$tmp/bad.pft" "${cfg[@]:0:2}"
same 0 2 2 decode --snapshot "$tmp/tc2big" --id 0x13 --format jsonl
same 0 3 2 dump --snapshot "$tmp/tc2big" --id 0x13
bytes_of 0x13 300 "$tmp/big300.pft"
same 0 2 2 profile --raw "$tmp/big300.pft" "${cfg[@]}" --format callgrind
same 0 2 2 calls --raw "$tmp/big300.pft" "${cfg[@]}" --format jsonl
same 16384 16 40 calls --raw "$tmp/big300.pft" "${cfg[@]}" --format jsonl
all_folded=$folded
# The calls listing's threads out of logs (PFT_CALLS_LOGS: 4, or 1, for 16
# threads): a thread ahead of the reading one waits for a log, formatting
# the logs queued meanwhile; the thread of the piece being read hands its
# elements over unfolded, and the reading thread's own lines wait behind
# the logs (pft_calls_listing_par.c).
for logs in 4 1; do
    PFT_CALLS_LOGS=$logs same 16384 16 40 calls --raw "$tmp/big300.pft" "${cfg[@]}" --format jsonl
    waits=$(echo "$par_counts" | sed -n 's/.* \([0-9]*\) fold waits.*/\1/p')
    check "calls -j 16, $logs logs: threads ahead of the reading one waited for logs" \
        "$([ "${waits:-0}" -gt 0 ] && echo yes)" yes
    check "calls -j 16, $logs logs: elements handed over unfolded" \
        "$([ "${folded:-0}" -lt "$all_folded" ] && echo yes)" yes
done

# The benchmark's snapshot (one source, whose ID is set once, in the
# first frame), when there: its first 2 MB, and damaged with
# discontinuities.
bench=${PFT_BENCH_DATA:-/work/bench-data}/snapshot
if [ -f "$bench/trace.bin" ]; then
    mkbuf bench "$bench" "b = b[:2 << 20]"
    same 131072 2 16 decode --snapshot "$tmp/bench" --count
    same 131072 2 16 dump --snapshot "$tmp/bench" --count --format jsonl
    mkbuf bench "$bench" "b = b[:1 << 19]"
    same 32768 2 16 decode --snapshot "$tmp/bench" --format jsonl
    same 32768 2 16 dump --snapshot "$tmp/bench"
    mkbuf benchbad "$bench" "
b = bytearray(b[:1 << 19])
for i in range(5000, len(b), 9000):
    b[i] ^= 0x21
for i in range(60000, len(b), 60000):
    b[i:i + 16] = bytes.fromhex('ffffff7f') * 4
b = bytes(b)"
    same 32768 2 16 decode --snapshot "$tmp/benchbad" --format jsonl
    same 32768 2 16 dump --snapshot "$tmp/benchbad" --count
    same 32768 2 16 decode --snapshot "$tmp/benchbad" --count
    # Stretches of 4992 bytes, longer than a piece's look back for its ID,
    # of ID 0x22 (an ID byte in their first frame's byte 0, and 0x10's in
    # their last frame's byte 14) put in before three of 0x10's A-syncs
    # past the first 128 KiB (where the pieces are taken over: the fit
    # check has its prefix) that then lie in an 8 KiB piece's first 300
    # bytes: the piece, which
    # assumes 0x10 from its start, has the same I-syncs and states as the
    # piece before it from that A-sync on, but must not be taken over (it
    # counted the stretch's last bytes as 0x10's).
    mkbuf benchids "$bench" "
b = b[:1 << 19]
def asyncs():  # input offsets where 0x10's A-syncs start (past the ID frame)
    zeros = 0
    for f in range(16, len(b), 16):
        for i in range(15):
            v = b[f + i]
            v = v & 0xfe | b[f + 15] >> i // 2 & 1 if i % 2 == 0 else v
            if v == 0x80 and zeros >= 5:
                yield f + i - zeros
            zeros = zeros + 1 if v == 0 else 0
out, at, n = [], 0, 5000 // 16 * 16
for x in asyncs():
    f = x // 16 * 16
    if f - n < max(at, 1 << 17) or not 48 <= (f + len(out) // 2 * n + n) % 8192 <= 300 or len(out) == 6:
        continue
    junk = bytearray(b[f - n:f])
    junk[0] = 0x22 << 1 | 1
    junk[15] &= 0xfe
    junk[-2] = 0x10 << 1 | 1
    out += [b[at:f], bytes(junk)]
    at = f
b = b''.join(out) + b[at:]
"
    same 8192 2 60 dump --snapshot "$tmp/benchids" --count
    absorbed=$(echo "$last_counts" | sed -n 's/.* \([0-9]*\) absorbed.*/\1/p')
    check "ID stretches: the pieces in them absorbed" "$([ "${absorbed:-0}" -ge 3 ] && echo yes)" yes
    same 8192 2 60 decode --snapshot "$tmp/benchids" --format jsonl
else
    echo "note: $bench not found: the benchmark snapshot's cases are skipped"
fi

# ETMv3: TC2's Cortex-A7 source 0x10 as raw bytes, once and 100 times
# over (1 MB), and the same with a reserved header byte (0x02) put into
# each copy, a little further every time.  Hand-overs compare the ETMv3
# decoders' states (the open range of its per-instruction atoms, pending
# W cycles) as PTM's are compared.
bytes_of 0x10 100 "$tmp/e3big.bin"
bytes_of 0x10 100 "$tmp/e3bad.bin" 2000 31
check "TC2 0x10 bytes" "$(stat -c %s "$tmp/e3big.bin")" 1087300
e3=(--reg ETMCR=0x10001860 --reg ETMIDR=0x410CF250 --reg ETMCCER=0x344008F2)
e3img=(--image "$SS/TC2/kernel_dump.bin@0xC0008000")
for j in 2 3; do
    same 16384 $j 66 dump --raw "$tmp/e3big.bin" "${e3[@]}" --format jsonl
    same 16384 $j 66 decode --raw "$tmp/e3big.bin" "${e3[@]}" "${e3img[@]}" --format jsonl
done
handovers=$(echo "$last_counts" | sed -n 's/.* \([0-9]*\) handovers.*/\1/p')
check "ETMv3: pieces handed over at verified I-syncs" "$([ "${handovers:-0}" -gt 40 ] && echo yes)" yes
same 16384 2 66 decode --raw "$tmp/e3big.bin" "${e3[@]}" "${e3img[@]}" --insn
same 16384 2 66 decode --raw "$tmp/e3big.bin" "${e3[@]}" "${e3img[@]}" --count
same 16384 2 66 dump --raw "$tmp/e3big.bin" "${e3[@]}" --count
same 65536 2 16 coverage --raw "$tmp/e3big.bin" "${e3[@]}" "${e3img[@]}"
same 65536 2 16 calls --raw "$tmp/e3big.bin" "${e3[@]}" "${e3img[@]}" --format jsonl
same 65536 2 16 timeline --raw "$tmp/e3big.bin" "${e3[@]}" "${e3img[@]}"
same 16384 2 66 decode --raw "$tmp/e3bad.bin" "${e3[@]}" "${e3img[@]}" --format jsonl
e3errors=$(jq -s 'map(select(.type == "error")) | length' "$tmp/serial.out")
e3first=$(printf '0x%x' "$(jq -s 'map(select(.type == "error"))[0].offset' "$tmp/serial.out")")
# --count: how many errors and the first one's offset, the listing's (the
# parallel count adds its pieces' first errors up).
same 16384 2 66 decode --raw "$tmp/e3bad.bin" "${e3[@]}" "${e3img[@]}" --count
check "ETMv3 bad trace, decode --count: the errors and the first's offset" \
    "$(sed -n 's/.*: \([0-9]*\) errors in the trace, the first at offset \(0x[0-9a-f]*\): .*/\1 \2/p' \
        "$tmp/par.err")" "$e3errors $e3first"
same 16384 2 66 dump --raw "$tmp/e3bad.bin" "${e3[@]}" --count --format jsonl
check "ETMv3 bad trace: bad packets listed" "$([ "$(grep -c 'offset 0x' "$tmp/par.err")" -gt 50 ] && echo yes)" yes
# A formatted buffer's ETMv3 source is decoded serially (0 pieces).
same 256 2 0 decode --snapshot "$tc2" --id 0x10 --count

# The text listing: the threads write its lines (the listing's fold), but
# those of errors, which need their bad packets; the reading thread writes
# the lines where the threads hand over.  "folded": the lines the threads
# wrote.  On clean, cut and damaged PTM, deformatted TC2, and ETMv3.
folded_some() {
    check "$1: the threads wrote lines" "$([ "${folded:-0}" -gt "$2" ] && echo yes)" yes
}
same 256 2 17 decode --raw "$tmp/one.pft" "${cfg[@]}"
same 4096 3 177 decode --raw "$tmp/big.pft" "${cfg[@]}"
folded_some "TC2 x160" 100000
same 4096 2 177 decode --raw "$tmp/bad.pft" "${cfg[@]}"
check "bad trace: error lines" "$([ "$(grep -c ' error ' "$tmp/par.out")" -gt 100 ] && echo yes)" yes
folded_some "bad trace" 100000
same 4096 2 60 decode --snapshot "$tmp/tc2bad" --id 0x13
check "damaged TC2: bad packets' lines" "$([ "$(grep -c 'bad packet (' "$tmp/par.out")" -ge 3 ] && echo yes)" yes
folded_some "damaged TC2" 10000
same 16384 2 66 decode --raw "$tmp/e3bad.bin" "${e3[@]}" "${e3img[@]}"
folded_some "ETMv3 bad trace" 10000
# Lines the threads cannot write as the reading thread does: none written.
same 4096 2 177 decode --raw "$tmp/big.pft" "${cfg[@]}" --format jsonl
check "JSON lines: the reading thread's" "$folded" 0
same 4096 2 60 decode --snapshot "$tmp/tc2bad" --id 0x13 --merge
check "--merge: the reading thread's" "$folded" 0

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

# -j N given where the decode runs in one thread: a note says why, the
# output is the same; none without -j, with --quiet, or for a small trace
# (decoded in one thread on purpose).
serial_note() { grep -c -- "-j 2: decoded in one thread: $1" "$tmp/err"; }
"$PFT" decode --snapshot "$tc2" --count >"$tmp/one.txt" 2>/dev/null
"$PFT" decode --snapshot "$tc2" --count -j 2 >"$tmp/out" 2>"$tmp/err"
check "-j 2, several sources in the buffer: the note" \
    "$(serial_note 'the buffer holds several trace sources; the parallel decode takes one (--id ID picks it)$')" 1
check "-j 2, several sources: the same counts" "$(cat "$tmp/out")" "$(cat "$tmp/one.txt")"
"$PFT" decode --snapshot "$tc2" --count -j 2 --quiet >/dev/null 2>"$tmp/err"
check "-j 2 --quiet: no note" "$(serial_note '')" 0
"$PFT" decode --snapshot "$tc2" --count >/dev/null 2>"$tmp/err"
check "no -j: no note" "$(serial_note '')" 0
"$PFT" decode --snapshot "$tc2" --id 0x13 --count -j 2 >/dev/null 2>"$tmp/err"
check "-j 2, one source, small: no note" "$(serial_note '')" 0
"$PFT" decode --raw - "${cfg[@]}" --count -j 2 <"$tmp/big.pft" >"$tmp/out" 2>"$tmp/err"
check "-j 2, standard input: the note" \
    "$(serial_note 'standard input and pipes are not cut into pieces; a regular file is$')" 1
"$PFT" decode --raw "$tmp/big.pft" "${cfg[@]}" --count -j 1 >"$tmp/one.txt" 2>/dev/null
check "-j 2, standard input: the same counts" "$(cat "$tmp/out")" "$(cat "$tmp/one.txt")"
"$PFT" decode --snapshot "$tc2" --id 0x10 --count -j 2 >/dev/null 2>"$tmp/err"
check "-j 2, ETMv3 in a formatted buffer: the note" \
    "$(serial_note 'the parallel decode takes PTM raw or in a formatted buffer, and ETMv3 raw$')" 1

summary
