# perf_lib.sh - shared by the tests/perf scripts (sourced, not a test):
# qemu-run programs, their executed addresses, and the PTM configurations
# perf decodes right or wrongly.  Defines tmp, progs, qemu_addresses(),
# same(), build(), good[] and known[]; the counting (ok, bad, summary) is
# tests/lib.sh's, which the scripts source first.
set -u
: "${PFT:?}"
for tool in arm-linux-gnueabihf-gcc arm-linux-gnueabihf-readelf qemu-arm perf; do
    command -v "$tool" >/dev/null || { echo "missing tool: $tool"; exit 1; }
done
tmp=$(mktemp -d); [ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$tmp"' EXIT; echo "tmp: $tmp"
progs=$here/../qemu/progs

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
# Configurations perf decodes wrongly (see above), and one it decodes
# right mostly: with a timestamp every 50 waypoints, twice (both in full
# ctest runs, never alone) perf printed all but the last 25 (ARM) or 15
# (Thumb) of the instructions of inter.ARM/THUMB, whose packets its dump
# lists in full: what follows the last I-sync, which test_perf_script.sh's
# run() now excuses exactly, in every configuration.
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

# same WANT GOT [WHO]: empty when the address lists agree, else the first
# difference (WHO, default perf, printed GOT).
same() {
    local who=${3:-perf}
    cmp -s "$1" "$2" && return
    local line
    line=$(cmp "$1" "$2" 2>&1 | awk '/differ/ { print $NF } /EOF/ { print "eof" }')
    if [ "$line" = eof ]; then
        echo "qemu ran $(wc -l <"$1") instructions, $who printed $(wc -l <"$2")"
    else
        echo "instruction $line: qemu 0x$(sed -n "${line}p" "$1"), $who 0x$(sed -n "${line}p" "$2")"
    fi
}

# qemu runs in an empty environment: the program's start-up (and so its
# log) would otherwise differ from one machine or ctest run to the next.
# shellcheck disable=SC2086  # $link: no word, or one
build() {  # NAME ISA [LINK_OPTION]: the binary in $tmp, and its qemu log
    local out=$tmp/$1.$2 other=thumb link=${3:-}
    [ "$2" = thumb ] && other=arm
    if [ "$1" = inter ]; then
        arm-linux-gnueabihf-gcc -static -O1 -m"$2" -c -o "$out.m.o" "$progs/inter_main.c" &&
        arm-linux-gnueabihf-gcc -static -O1 -m"$other" -c -o "$out.o.o" "$progs/inter_other.c" &&
        arm-linux-gnueabihf-gcc -static -O1 $link -o "$out" "$out.m.o" "$out.o.o"
    else
        arm-linux-gnueabihf-gcc -static -O1 $link -m"$2" -o "$out" "$progs/$1.c"
    fi && env -i "$(command -v qemu-arm)" -singlestep -d exec,nochain -D "$out.log" "$out" >/dev/null &&
        qemu_addresses "$out" "$out.log" >"$out.want"
}

