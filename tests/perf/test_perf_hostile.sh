#!/bin/bash
# Hostile perf.data files (issue 29), made from the bundled example's trace
# (pft encode --out-perf, with timestamps):
# Files cut short, at every kind of place: what is there is decoded, one
# line names the offset of the cut, exit 1 (2 when no trace is left).
# Mapped files that are no image, out of range or named hostilely: said
# once, escaped, the rest decoded (mkmmap.py).
# Many queues (mkmany.py):
#  - per thread: every thread's instructions decoded (N times the one
#    thread's), and the memory pft takes does not grow with the threads
#    (4 times the threads, at most 1.5 times the peak);
#  - per CPU, with COMM records between the buffers: every CPU decoded,
#    the merged timestamps never fall.
# Each queue reads only its own records, so the time is linear in the
# file; that is measured by bench/, not here.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
: "${PFT:?}" "${PFT_SOURCE:?}"
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ex=$PFT_SOURCE/examples/demo

"$PFT" decode --snapshot "$ex" --format jsonl |
    python3 "$PFT_SOURCE/tests/cli/demo_log.py" "$ex/mem_0.bin" >"$tmp/demo.log"
"$PFT" encode --log "$tmp/demo.log" --elf "$ex/prog" --timestamps --ts-period 40 \
    --out-perf "$tmp/one.data" --quiet || bad "pft encode --out-perf"
one=$("$PFT" decode --perf "$tmp/one.data" --count | awk '$2 == "instructions" {print $1}')
check "one thread: the example's instructions" "$one" 1565

# peak KB of "$@" (its maximum resident set), its stdout in $tmp/out
peak() {
    python3 - "$@" >"$tmp/out" <<'EOF'
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)
EOF
}

# count KIND N: decode N queues of KIND: the instructions in $got, the
# peak in $kb.
count() {
    local kind=$1 n=$2
    if [ "$kind" = threads ]; then
        python3 "$here/mkmany.py" threads "$tmp/$kind$n.data" "$n" "$tmp/one.data"
    else
        python3 "$here/mkmany.py" cpus "$tmp/$kind$n.data" "$n" $((n * 40)) "$tmp/one.data"
    fi
    # A sanitizer build keeps freed memory aside (its quarantine), which
    # grows with every queue's pipeline made and freed: measured without.
    kb=$(ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0" \
        peak "$PFT" decode --perf "$tmp/$kind$n.data" --count 2>&1 >/dev/null)
    got=$(awk '$2 == "instructions" {print $1}' "$tmp/out")
}

for kind in threads cpus; do
    count "$kind" 100; small=$got small_kb=$kb
    count "$kind" 400; large=$got large_kb=$kb
    check "$kind: 100 queues decoded" "$small" $((100 * one))
    check "$kind: 400 queues decoded" "$large" $((400 * one))
    # Per CPU, the merge keeps a decoder per CPU (their read blocks share
    # 16 MiB): that memory grows with the CPUs the file describes, by an
    # amount a sanitizer build multiplies, so it is not checked here.
    if [ "$kind" = threads ]; then
        check_eval "threads: memory does not grow with them ($small_kb KB, then $large_kb KB)" \
            '[ $((large_kb * 2)) -le $((small_kb * 3)) ]'
    fi
done

# The merge of 400 CPUs: timestamps in order, every CPU's in turn.
"$PFT" decode --perf "$tmp/cpus400.data" --format jsonl >"$tmp/merged" 2>/dev/null
check "per CPU: the merge's timestamps never fall" "$(python3 - "$tmp/merged" <<'EOF'
import json, sys
last, falls, cpus = -1, 0, set()
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("type") == "timestamp":
        ts = int(e["ts"], 16)
        falls += ts < last
        last = ts
        cpus.add(e.get("cpu"))
print(falls, len(cpus))
EOF
)" "0 400"
# ---- Cut short ----
# The layout, walked here (shared/spec/perf-data.md): the data section, the
# AUXTRACE record, the feature table after the data.
read -r data_end auxtrace < <(python3 - "$tmp/one.data" <<'EOF'
import struct, sys
d = open(sys.argv[1], 'rb').read()
off, size = struct.unpack_from('<QQ', d, 40)
at = off
while at < off + size:
    typ, _, sz = struct.unpack_from('<IHH', d, at)
    if typ == 71:
        aux = at
    at += sz + (struct.unpack_from('<Q', d, at + 8)[0] if typ == 71 else 0)
print(off + size, aux)
EOF
)
cut() {   # cut NAME BYTES: the file's first BYTES bytes, decoded
    head -c "$2" "$tmp/one.data" >"$tmp/$1.data"
    rc=0
    "$PFT" decode --perf "$tmp/$1.data" --count >"$tmp/out" 2>"$tmp/err" || rc=$?
    got=$(awk '$2 == "instructions" {print $1}' "$tmp/out")
}
mid=$((auxtrace + 48 + (data_end - auxtrace - 48) / 2))
cut trace "$mid"
check "cut in the trace: exit 1" "$rc" 1
check "cut in the trace: the offset named" "$(cat "$tmp/err")" \
    "pft: $tmp/trace.data: offset $(printf 0x%x "$auxtrace"): the file is cut short here: what it held after this is lost; the trace before is decoded"
check_eval "cut in the trace: the instructions before it decoded ($got)" \
    '[ "${got:-0}" -gt 0 ] && [ "$got" -lt "$one" ]'
check_eval "cut in the trace: an error at the cut" 'grep -Eq "^ +error +[12]$" "$tmp/out"'
cut features $((data_end + 8))
check "cut in the feature table: exit 1" "$rc" 1
check "cut in the feature table: the trace whole" "$got" "$one"
check_eval "cut in the feature table: said" \
    'grep -q "offset $(printf 0x%x "$data_end"): the file is cut short here, in its feature table (the trace is whole)" "$tmp/err"'
cut header $((auxtrace + 20))
check "cut before any trace: exit 2" "$rc" 2
check "cut before any trace: said" "$(cat "$tmp/err")" \
    "pft: $tmp/header.data: offset $(printf 0x%x "$auxtrace"): the file is cut short here, before any trace"
# At every 64th byte of the trace: never a crash, exit 1, a prefix decoded.
worst=0
for ((n = auxtrace + 48; n < data_end; n += 64)); do
    cut every "$n"
    [ "$rc" = 1 ] || worst=$n
done
check "cut anywhere in the trace: exit 1 every time (first other at)" "$worst" 0

# ---- Mapped files (items 3 to 5) ----
# A mapping of a file that is not a 32-bit ARM ELF: named once with the
# reason, the rest decoded (its addresses are addr_nacc), exit 1.
python3 "$here/mkmmap.py" "$tmp/ls.data" "$tmp/one.data" /bin/ls
rc=0; "$PFT" decode --perf "$tmp/ls.data" --count >"$tmp/out" 2>"$tmp/err" || rc=$?
check "a mapped file that is no ARM ELF: exit 1" "$rc" 1
check_eval "a mapped file that is no ARM ELF: one line, the file and why" \
    '[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "/bin/ls (mapped at 0x10000 by pid [0-9]*) cannot be its image: /bin/ls: not a 32-bit little-endian ARM ELF executable; its code is not decoded$" "$tmp/err"'
check_eval "a mapped file that is no ARM ELF: the trace decoded to addr_nacc" \
    'grep -Eq "^ +addr_nacc +[1-9]" "$tmp/out"'
# A mapping past the 32-bit address space: said, never undefined arithmetic.
python3 "$here/mkmmap.py" "$tmp/high.data" "$tmp/one.data" "$ex/prog" 0x8000000000000000
rc=0; "$PFT" decode --perf "$tmp/high.data" --count >"$tmp/out" 2>"$tmp/err" || rc=$?
check "a mapping at 2^63: exit 1" "$rc" 1
check_eval "a mapping at 2^63: said" \
    'grep -q "(mapped at 0x8000000000000000 by pid [0-9]*) past the 32-bit address space: its code is not decoded" "$tmp/err"'
# With --symfs, the host's own files are not looked at.
mkdir "$tmp/symfs"
rc=0; "$PFT" decode --perf "$tmp/one.data" --symfs "$tmp/symfs" --count >"$tmp/out" 2>"$tmp/err" || rc=$?
check "--symfs without the file: exit 1" "$rc" 1
check_eval "--symfs without the file: not found" 'grep -q "prog (mapped at 0x10000 by pid [0-9]*) is not found" "$tmp/err"'
mkdir -p "$tmp/symfs/$(dirname "$ex/prog")" && cp "$ex/prog" "$tmp/symfs/$ex/prog"
check "--symfs with the file: decoded" \
    "$("$PFT" decode --perf "$tmp/one.data" --symfs "$tmp/symfs" --count 2>&1 | head -1)" "$one instructions"
# A name with a newline and an escape sequence: one line, nothing raw.
python3 "$here/mkmmap.py" "$tmp/esc.data" "$tmp/one.data" "$(printf '/x\ny\033[2Jz')"
"$PFT" decode --perf "$tmp/esc.data" --count >/dev/null 2>"$tmp/err"
check "a name with control characters: one line" "$(wc -l <"$tmp/err")" 1
check_eval "a name with control characters: escaped" \
    '! grep -q "$(printf "\033")" "$tmp/err" && grep -qF "/x\x0ay\x1b[2Jz (mapped at" "$tmp/err"'

summary
