#!/bin/bash
# Malformed perf.data given to pft decode --perf (and dump, info): one
# line on stderr naming the file and the offset at fault and exit 2, or,
# where the decode can go on (an unknown record type, a missing image),
# the decode with exit 0 or addr_nacc elements and exit 1; never a crash.
# The files are a good one from pft encode --out-perf with one field
# changed; the offsets are found by walking the records here (perf.data
# layout: shared/spec/perf-data.md), not taken from pft.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=perf_lib.sh
. "$here/perf_lib.sh"
command -v python3 >/dev/null || { echo "missing tool: python3"; exit 1; }

# Without a build ID, the file has one feature section (AUXTRACE), whose
# table the cut data section below moves into the AUXTRACE record.
build switch arm -Wl,--build-id=none || { echo "cannot build switch.arm"; exit 1; }
bin=$tmp/switch.arm
good=$tmp/good.data
"$PFT" encode --log "$bin.log" --elf "$bin" --out-perf "$good" || exit 1

# record TYPE: the file offset of the first data record of that type.
record() {
    python3 - "$good" "$1" <<'EOF'
import struct, sys
d = open(sys.argv[1], 'rb').read()
off, size = struct.unpack_from('<QQ', d, 40)       # the data section
at = off
while at < off + size:
    typ, misc, sz = struct.unpack_from('<IHH', d, at)
    if typ == int(sys.argv[2]):
        print(at); break
    at += sz + (struct.unpack_from('<Q', d, at + 8)[0] if typ == 71 else 0)
EOF
}
# patch OUT OFFSET FORMAT VALUE: a copy of the good file with one field set.
patch() {
    python3 - "$good" "$1" "$2" "$3" "$4" <<'EOF'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
struct.pack_into(sys.argv[4], d, int(sys.argv[3]), int(sys.argv[5], 0))
open(sys.argv[2], 'wb').write(d)
EOF
}

# expect NAME FILE OFFSET [CMD]: exit 2, one line naming FILE and OFFSET.
expect() {
    local cmd=${4:-decode} rc
    "$PFT" "$cmd" --perf "$2" >/dev/null 2>"$tmp/err"
    rc=$?
    local want
    want=$(printf '%s: offset 0x%x: ' "$2" "$3")
    if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -qF "$want" "$tmp/err"; then
        ok
    else
        bad "$1 ($cmd): exit $rc, wanted 2 and '$want': $(cat "$tmp/err")"
    fi
}

info=$(record 70) comm=$(record 3) aux=$(record 11) auxtrace=$(record 71)
[ -n "$info" ] && [ -n "$comm" ] && [ -n "$aux" ] && [ -n "$auxtrace" ] ||
    { echo "FAIL: records not found"; exit 1; }

# Cut short inside the AUXTRACE record's header (the data section the
# header gives passes the end): no trace is left; the record is named.
# (test_perf_hostile.sh cuts the file everywhere else.)
head -c $((auxtrace + 20)) "$good" >"$tmp/trunc.data"
expect "truncated file" "$tmp/trunc.data" "$auxtrace"
# The data section (offset at 40, size at 48) ends inside that record.
patch "$tmp/cut.data" 48 '<Q' $((auxtrace + 20 - $(od -An -tu8 -j40 -N8 "$good")))
expect "truncated record" "$tmp/cut.data" "$auxtrace"
# A record size past the end of the data section.
patch "$tmp/size.data" $((comm + 6)) '<H' 0xfff8
expect "record size past the end" "$tmp/size.data" "$comm"
expect "record size past the end" "$tmp/size.data" "$comm" dump
# A record size of 0 would never advance.
patch "$tmp/zero.data" $((comm + 6)) '<H' 0
expect "record size 0" "$tmp/zero.data" "$comm"
# AUXTRACE trace bytes past the end of the file.
patch "$tmp/auxsize.data" $((auxtrace + 8)) '<Q' 0x7fffffff
expect "AUXTRACE size past the end" "$tmp/auxsize.data" "$auxtrace"
# A cs_etm header version perf does not know (3; it knows 0 to 2).
patch "$tmp/version.data" $((info + 16)) '<Q' 3
expect "cs_etm version 3" "$tmp/version.data" "$info"
expect "cs_etm version 3" "$tmp/version.data" "$info" info

# An unknown record type (the COMM's) is skipped: the decode is whole.
patch "$tmp/unknown.data" "$comm" '<I' 99
want=$("$PFT" decode --perf "$good" --count 2>&1)
got=$("$PFT" decode --perf "$tmp/unknown.data" --count 2>&1)
rc=$?
if [ "$rc" -eq 0 ] && [ "$got" = "$want" ]; then ok; else
    bad "unknown record type: exit $rc: $got"; fi

# A missing image: one line naming it and the MMAP2 record, addr_nacc
# elements, exit 1.
mmap=$(record 10)
mv "$bin" "$bin.moved"
"$PFT" decode --perf "$good" >"$tmp/out" 2>"$tmp/err"
rc=$?
want=$(printf '%s: offset 0x%x: %s (mapped at 0x' "$good" "$mmap" "$bin")
if [ "$rc" -eq 1 ] && grep -qF "$want" "$tmp/err" && grep -q "addr_nacc" "$tmp/out" &&
    ! grep -q "range" "$tmp/out"; then
    ok
else
    bad "missing image: exit $rc: $(head -3 "$tmp/err")"
fi
mv "$bin.moved" "$bin"

# Not a perf.data file at all, and a perf.data without CoreSight.
if "$PFT" decode --perf "$bin" >/dev/null 2>"$tmp/err"; then bad "an ELF accepted"
elif grep -qF "$bin: offset 0x0: " "$tmp/err"; then ok
else bad "an ELF: $(cat "$tmp/err")"; fi
patch "$tmp/noinfo.data" "$info" '<I' 99
if "$PFT" decode --perf "$tmp/noinfo.data" >/dev/null 2>"$tmp/err"; then bad "no AUXTRACE_INFO accepted"
elif grep -qF "$tmp/noinfo.data: no AUXTRACE_INFO record" "$tmp/err"; then ok
else bad "no AUXTRACE_INFO: $(cat "$tmp/err")"; fi

summary
