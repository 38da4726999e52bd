#!/bin/bash
# pft encode --out-perf against Linux perf: ARM and Thumb programs run under
# qemu-user, encoded into perf.data under several PTM and ETMv3
# configurations, must
# decode with `perf script --itrace=Zi1i -F ip` (one line per executed
# instruction; Z: the model's timestamps start at zero, which perf would
# otherwise take for a missing one) to exactly the instructions qemu
# executed.
#
# perf (6.1, with OpenCSD) gives OpenCSD only ETMCR and ETMTRACEIDR of a PTM
# (shared/spec/perf-data.md), so OpenCSD decodes as PFTv1.0 without 64-bit
# timestamps, the return stack or DMB/DSB waypoints.  Those configurations
# are run too and reported as KNOWN when perf gets them wrong, as it does;
# one that agrees is reported as NOTE.
#
# The programs run to their exit call.  A log cut short in mid-program is
# not used: perf then may leave out the last instructions (1 to some
# hundreds, in every configuration, formatted or raw), though its own
# packet dump shows all packets and OpenCSD's trc_pkt_lister decodes them
# (perf's handling of the end of a buffer).
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${PFT:?}"
for tool in arm-linux-gnueabihf-gcc arm-linux-gnueabihf-readelf qemu-arm perf; do
    command -v "$tool" >/dev/null || { echo "missing tool: $tool"; exit 1; }
done
tmp=$(mktemp -d); [ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$tmp"' EXIT; echo "tmp: $tmp"
progs=$here/../qemu/progs
pass=0 fail=0
bad() { echo "FAIL: $*"; fail=$((fail+1)); }

# Configurations perf decodes correctly.
good=(
    ""
    "--perf-raw"
    "--cycle-accurate"
    "--timestamps --ts-bits 48 --cycle-accurate"
    "--ctxid-bytes 4 --ctxid 4242"
    "--ctxid-bytes 1 --ctxid 0x5a --cycle-accurate --perf-raw"
    "--branch-broadcast --timestamps --ts-bits 48 --ts-gray"
    "--vmid --id 0x2b"
)
# ETMv3 (--protocol etmv3, a Cortex-A7's ETMv3.5): perf reads the same
# metadata block (ETMIDR says ETMv3) and decodes with OpenCSD's ETMv3
# decoder, which perf configures from all four registers.
good+=(
    "--protocol etmv3"
    "--protocol etmv3 --cycle-accurate --perf-raw"
    "--protocol etmv3 --ctxid-bytes 4 --ctxid 4242 --timestamps"
    "--protocol etmv3 --timestamps --ts-bits 48 --ts-gray --branch-broadcast --vmid"
)
# Configurations perf decodes wrongly (see above), and one it decodes
# right mostly: with a timestamp every 50 waypoints, twice (both in full
# ctest runs, never alone) perf printed all but the last 25 (ARM) or 15
# (Thumb) of the instructions of inter.ARM/THUMB, whose packets its dump
# lists in full; not yet understood.
known=(
    "--timestamps --ts-bits 64"
    "--return-stack"
    "--dmb-dsb-waypoints"
    "--timestamps --ts-bits 48 --ts-period 50"
)

# The addresses qemu executed inside the program's loaded segments (not
# the kernel's helper page at 0xffff0000, which no MMAP2 record maps, as
# roundtrip.py leaves out what the image does not cover), one per line in
# perf's format, without blocks qemu logged but did not start ("Stopped
# execution of TB chain before PC": as roundtrip.py's qemu_addresses()).
qemu_addresses() {  # BINARY LOG
    arm-linux-gnueabihf-readelf -lW "$1" | awk '$1 == "LOAD" { print $3, $5 }' >"$1.loads"
    awk 'function hex(s) { sub(/^0+/, "", s); return s }
         function val(s,  i, v) { sub(/^0x/, "", s); v = 0
             for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
             return v }
         FNR == NR { lo[nl] = val($1); hi[nl++] = val($1) + val($2); next }
         /^Trace / { split(substr($0, index($0, "[") + 1), f, "/"); pc = val(f[2])
                     ok = 0; for (i = 0; i < nl; i++) if (pc >= lo[i] && pc < hi[i]) ok = 1
                     if (ok) a[n++] = hex(f[2]); else a[n++] = "" }
         /^Stopped execution/ { pc = substr($0, index($0, "[") + 1); sub(/].*/, "", pc)
                                if (n && a[n - 1] == hex(pc)) n-- }
         END { for (i = 0; i < n; i++) if (a[i] != "") print a[i] }' "$1.loads" "$2"
}

# same WANT GOT: empty when the address lists agree, else the first difference.
same() {
    cmp -s "$1" "$2" && return
    local line
    line=$(cmp "$1" "$2" 2>&1 | awk '/differ/ { print $NF } /EOF/ { print "eof" }')
    if [ "$line" = eof ]; then
        echo "qemu ran $(wc -l <"$1") instructions, perf printed $(wc -l <"$2")"
    else
        echo "instruction $line: qemu 0x$(sed -n "${line}p" "$1"), perf 0x$(sed -n "${line}p" "$2")"
    fi
}

build() {  # NAME ISA: the binary in $tmp, and its qemu log
    local out=$tmp/$1.$2 other=thumb
    [ "$2" = thumb ] && other=arm
    if [ "$1" = inter ]; then
        arm-linux-gnueabihf-gcc -static -O1 -m"$2" -c -o "$out.m.o" "$progs/inter_main.c" &&
        arm-linux-gnueabihf-gcc -static -O1 -m"$other" -c -o "$out.o.o" "$progs/inter_other.c" &&
        arm-linux-gnueabihf-gcc -static -O1 -o "$out" "$out.m.o" "$out.o.o"
    else
        arm-linux-gnueabihf-gcc -static -O1 -m"$2" -o "$out" "$progs/$1.c"
    fi && qemu-arm -singlestep -d exec,nochain -D "$out.log" "$out" >/dev/null &&
        qemu_addresses "$out" "$out.log" >"$out.want"
}

# run BINARY CONFIG: prints what differs, or nothing.
run() {
    local data=$tmp/t.data
    # shellcheck disable=SC2086
    if ! "$PFT" encode --log "$1.log" --elf "$1" --out-perf "$data" $2 2>"$tmp/err"; then
        echo "encode: $(cat "$tmp/err")"
        return
    fi
    if ! perf script -i "$data" --itrace=Zi1i -F ip >"$tmp/out" 2>"$tmp/err"; then
        echo "perf script failed: $(head -3 "$tmp/err")"
        return
    fi
    sed 's/^ *//' "$tmp/out" >"$tmp/got"
    same "$1.want" "$tmp/got"
}

for prog in switch inter fnptr; do
    for isa in arm thumb; do
        bin=$tmp/$prog.$isa
        if ! build "$prog" "$isa"; then
            bad "$prog.$isa: cannot build or run it"
            continue
        fi
        for cfg in "${good[@]}"; do
            diff=$(run "$bin" "$cfg")
            if [ -z "$diff" ]; then pass=$((pass+1)); else bad "$prog.$isa [$cfg]: $diff"; fi
        done
        [ "$prog" = fnptr ] && continue
        for cfg in "${known[@]}"; do
            diff=$(run "$bin" "$cfg")
            if [ -n "$diff" ]; then
                echo "KNOWN $prog.$isa [$cfg]: perf decodes it wrongly: $diff"
            else
                echo "NOTE $prog.$isa [$cfg]: perf decodes it right this time"
            fi
        done
    done
done

# The file perf decodes is also what pft's reader sees (test_perf.c checks
# the reader on hand-built files): perf's own dump lists the records.
"$PFT" encode --log "$tmp/switch.arm.log" --elf "$tmp/switch.arm" --out-perf "$tmp/d.data" \
    --ctxid-bytes 4 --ctxid 4242
dump=$(perf report -D -i "$tmp/d.data" 2>/dev/null)
for want in "PERF_RECORD_AUXTRACE_INFO type: 3" "PERF_RECORD_COMM: switch.arm:4242/4242" \
            "PERF_RECORD_MMAP2 4242/4242" "PERF_RECORD_AUX offset: 0" "PERF_RECORD_AUXTRACE size:"; do
    if grep -qF "$want" <<<"$dump"; then pass=$((pass+1)); else bad "perf report -D: no '$want'"; fi
done

# The thread is the traced context ID (its low byte with --ctxid-bytes 1).
"$PFT" encode --log "$tmp/switch.arm.log" --elf "$tmp/switch.arm" --out-perf "$tmp/c.data" \
    --ctxid-bytes 1 --ctxid 0x1234 --perf-raw
if perf report -D -i "$tmp/c.data" 2>/dev/null | grep -qF "PERF_RECORD_COMM: switch.arm:52/52"; then
    pass=$((pass+1))
else
    bad "--ctxid-bytes 1 --ctxid 0x1234: the thread is not 0x34"
fi
diff=$(run "$tmp/switch.arm" "--ctxid-bytes 1 --ctxid 0x1234")
if [ -z "$diff" ]; then pass=$((pass+1)); else bad "switch.arm [ctxid 0x1234, 1 byte]: $diff"; fi

# Usage errors.
if "$PFT" encode --log "$tmp/switch.arm.log" --elf "$tmp/switch.arm" --out-raw /dev/null \
    --perf-raw 2>"$tmp/err"; then
    bad "--perf-raw without --out-perf accepted"
elif grep -q -- "--perf-raw goes with --out-perf" "$tmp/err"; then
    pass=$((pass+1))
else
    bad "--perf-raw without --out-perf: $(cat "$tmp/err")"
fi
if "$PFT" encode --log "$tmp/switch.arm.log" --elf "$tmp/switch.arm" \
    --out-perf /nonexistent/dir/x.data 2>"$tmp/err"; then
    bad "--out-perf into a missing directory accepted"
elif grep -q "/nonexistent/dir/x.data: No such file" "$tmp/err"; then
    pass=$((pass+1))
else
    bad "--out-perf into a missing directory: $(cat "$tmp/err")"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
