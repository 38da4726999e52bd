#!/bin/bash
# The installed product: build the project (plain Release, so that programs
# need no sanitizer runtime) into a temporary prefix, then build the two
# documented example programs against it with nothing but
#   cc SOURCE $(pkg-config --cflags --libs libpft-io)   (decode_snapshot.c)
#   cc SOURCE $(pkg-config --cflags --libs libpft)      (count_insns.c)
# and check that they decode the shared captures through the installed
# shared libraries exactly as `pft decode` does, with the instruction totals
# OpenCSD gives (README: TC2 9 548, trace_cov_a15 57).  Also: SONAMEs, the
# installed files and headers, the man pages render without warnings, the
# howto shows decode_snapshot.c verbatim, and the two libraries' split: a
# program that only decodes bytes (decode_bytes.c) links with libpft alone,
# statically and shared, with neither libelf, libdw nor threads.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
: "${PFT:?}" "${PFT_SHARED:?}" "${PFT_SOURCE:?}"
SNAPS=$PFT_SHARED/testdata/opencsd-snapshots

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- build and install -------------------------------------------------
prefix=$tmp/prefix
if ! { cmake -S "$PFT_SOURCE" -B "$tmp/b" -DCMAKE_BUILD_TYPE=Release \
         -DCMAKE_INSTALL_PREFIX="$prefix" >"$tmp/build.log" 2>&1 &&
       cmake --build "$tmp/b" -j2 --target libpft libpft_a libpft_io libpft_io_a pft_cli >>"$tmp/build.log" 2>&1 &&
       cmake --install "$tmp/b" >>"$tmp/build.log" 2>&1; }; then
    tail -30 "$tmp/build.log"
    bad "build and install"; summary
fi
ok "configure, build and install into a temporary prefix"

# GNUInstallDirs decides the library directory (lib, lib64 or multiarch).
pc=$(find "$prefix" -name libpft.pc -path '*/pkgconfig/*' | head -1)
libdir=$(dirname "$(dirname "$pc")")
for f in "$prefix/include/pft.h" "$prefix/bin/pft" "$pc" "$libdir/libpft.so" \
         "$libdir/libpft.so.0" "$libdir/libpft.a" "$libdir/libpft-io.so" \
         "$libdir/libpft-io.so.0" "$libdir/libpft-io.a" "$libdir/pkgconfig/libpft-io.pc" \
         "$prefix/share/man/man1/pft.1" "$prefix/share/man/man3/libpft.3"; do
    check_true "installed: ${f#"$prefix"/}" test -e "$f"
done
for h in "$PFT_SOURCE"/include/pft/*.h; do
    check_true "installed: include/pft/${h##*/}, as in the source" \
        cmp -s "$h" "$prefix/include/pft/${h##*/}"
done
n=$(ls "$prefix/include/pft" | wc -l)
check_true "include/pft/ holds the source's $(ls "$PFT_SOURCE/include/pft" | wc -l) headers ($n)" \
    test "$n" = "$(ls "$PFT_SOURCE/include/pft" | wc -l)"
for lib in libpft libpft-io; do
    soname=$(readelf -d "$libdir/$lib.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
    check_true "SONAME is $lib.so.0 (got '$soname')" test "$soname" = $lib.so.0
done

# ---- the two libraries ---------------------------------------------------
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' '; }
n=$(needed "$libdir/libpft.so")
check_true "libpft.so needs no libelf, libdw or libpthread (needs: $n)" \
    eval '! echo "$n" | grep -qE "libelf|libdw|libpthread"'
n=$(needed "$libdir/libpft-io.so")
check_true "libpft-io.so needs libelf and libdw (needs: $n)" \
    eval 'echo "$n" | grep -q libelf && echo "$n" | grep -q libdw'
exports() { nm -D --defined-only "$1" | awk '$2 == "T" {print $3}' | sort; }
exports "$libdir/libpft.so" >"$tmp/core.syms"
exports "$libdir/libpft-io.so" >"$tmp/io.syms"
both=$(comm -12 "$tmp/core.syms" "$tmp/io.syms" | head -5 | tr '\n' ' ')
check_true "libpft.so and libpft-io.so export no function twice${both:+: $both}" test -z "$both"
# Each header's functions are exported by the library its head comment
# names: elf.h, input.h, perf.h and views.h by libpft-io, the others by libpft.
for h in "$prefix"/include/pft/*.h; do
    lib=libpft; grep -q 'Link with libpft-io' "$h" && lib=libpft-io
    syms=$tmp/core.syms; [ $lib = libpft-io ] && syms=$tmp/io.syms
    tr '\n' ' ' <"$h" | grep -o 'pft_export[^;{]*;' | grep -o 'pft_[a-z0-9_]* *(' | tr -d ' (' |
        sort -u >"$tmp/decl"
    missing=$(comm -23 "$tmp/decl" "$syms" | head -5 | tr '\n' ' ')
    check_true "$lib.so exports the $(wc -l <"$tmp/decl") functions of pft/${h##*/}${missing:+; not: $missing}" \
        eval '[ -s "$tmp/decl" ] && [ -z "$missing" ]'
done
check_true "libpft-io.so exports pft_input_next, not pft_pipe_next" \
    eval 'grep -qx pft_input_next "$tmp/io.syms" && ! grep -qx pft_pipe_next "$tmp/io.syms" &&
          grep -qx pft_pipe_next "$tmp/core.syms"'
for m in "" --static; do
    f=$(PKG_CONFIG_PATH=$libdir/pkgconfig pkg-config $m --libs libpft)
    # Flags, not substrings: the prefix is a mktemp directory ("tmp.Xudw...").
    check_true "pkg-config $m --libs libpft: no libelf, libdw or threads ($f)" \
        eval '! echo " $f " | grep -qE -- " (-lelf|-ldw|-pthread|-lpthread) "'
done
f=$(PKG_CONFIG_PATH=$libdir/pkgconfig pkg-config --static --libs libpft-io)
check_true "pkg-config --static --libs libpft-io: -lpft-io before -lpft, libelf, libdw, -pthread ($f)" \
    eval 'echo "$f" | grep -q -- "-lpft-io .*-lpft " && echo "$f" | grep -q -- -lelf &&
          echo "$f" | grep -q -- -ldw && echo "$f" | grep -q -- -pthread'

# ---- the man pages -----------------------------------------------------
for page in man1/pft.1 man3/libpft.3; do
    f=$prefix/share/man/$page
    warn=$(MANWIDTH=80 man --warnings -l "$f" 2>&1 >/dev/null)
    check_true "man --warnings renders $page silently${warn:+: $warn}" test -z "$warn"
    warn=$(groff -man -ww -z "$f" 2>&1)
    check_true "groff -man -ww -z $page silent${warn:+: $warn}" test -z "$warn"
    lines=$(MANWIDTH=80 man -l "$f" 2>/dev/null | wc -l)
    check_true "$page renders to more than 100 lines ($lines)" test "$lines" -gt 100
done
# Every command `pft --help` lists has its subsection in pft.1.
# (The installed pft has no run path to the prefix: LD_LIBRARY_PATH finds it.)
cmds=$(LD_LIBRARY_PATH=$libdir "$prefix/bin/pft" --help |
       awk '/^commands:/ {c = 1; next} c && !NF {exit} c {print $1}')
check_true "pft --help lists at least the 7 commands of 0.2 ($(echo $cmds))" \
    test "$(echo "$cmds" | wc -w)" -ge 7
for cmd in $cmds; do
    check_true "pft.1 documents 'pft $cmd'" grep -qE "^\.SS pft $cmd( |\$)" "$prefix/share/man/man1/pft.1"
done

# ---- the howto shows the example program verbatim ----------------------
awk '/^<!-- begin decode_snapshot.c -->/{getline; c=1; next} /^<!-- end decode_snapshot.c -->/{c=0} c' \
    "$PFT_SOURCE/doc/howto_libpft.md" | sed '$d' >"$tmp/howto.c"
check_true "doc/howto_libpft.md shows doc/examples/decode_snapshot.c verbatim" \
    cmp -s "$tmp/howto.c" "$PFT_SOURCE/doc/examples/decode_snapshot.c"

# ---- decoding bytes with libpft alone ------------------------------------
# decode_bytes.c includes pft/common.h, frames.h, packets.h, image.h and
# flow.h: linked statically from libpft.a it needs only the C library, no
# -lelf, -ldw or -lpthread; linked shared it loads neither libelf nor libdw.
export PKG_CONFIG_PATH=$libdir/pkgconfig
src=$PFT_SOURCE/tests/install/decode_bytes.c
# shellcheck disable=SC2046
check_true "decode_bytes.c is warning-free C11" cc -std=c11 -Wall -Wextra -Werror -pedantic \
    -fsyntax-only $(pkg-config --cflags libpft) "$src"
static_libs=$(pkg-config --static --libs libpft)
# shellcheck disable=SC2086
check_true "cc decode_bytes.c -Wl,-Bstatic $static_libs -Wl,-Bdynamic" \
    cc "$src" $(pkg-config --cflags libpft) -Wl,-Bstatic $static_libs -Wl,-Bdynamic \
    -o "$tmp/decode_bytes_static"
n=$(needed "$tmp/decode_bytes_static")
check_true "static decode_bytes needs the C library alone (needs: $n)" test "$n" = "libc.so.6 "
out=$("$tmp/decode_bytes_static" 2>&1)
check_true "static decode_bytes decodes its loop: $(echo "$out" | tail -1)" \
    eval 'echo "$out" | grep -q "^ok: " && [ "$(echo "$out" | grep -c "^range ")" = 4 ]'
# shellcheck disable=SC2046
check_true "cc decode_bytes.c \$(pkg-config --cflags --libs libpft)" \
    cc "$src" $(pkg-config --cflags --libs libpft) -o "$tmp/decode_bytes"
loaded=$(LD_LIBRARY_PATH=$libdir ldd "$tmp/decode_bytes" | awk '{print $1}' | tr '\n' ' ')
check_true "shared decode_bytes loads libpft and neither libelf, libdw nor libpthread ($loaded)" \
    eval 'echo "$loaded" | grep -q "libpft.so.0" && ! echo "$loaded" | grep -qE "libelf|libdw|libpthread|libpft-io"'
check_true "shared decode_bytes decodes its loop" \
    eval 'LD_LIBRARY_PATH=$libdir "$tmp/decode_bytes" | grep -q "^ok: "'

# ---- build the examples with pkg-config alone --------------------------
# decode_snapshot.c opens a snapshot (pft_input_*: libpft-io); count_insns.c
# feeds a pipeline (libpft alone).
for ex in decode_snapshot:libpft-io count_insns:libpft; do
    lib=${ex#*:} ex=${ex%:*}
    src=$PFT_SOURCE/doc/examples/$ex.c
    # shellcheck disable=SC2046
    if cc "$src" $(pkg-config --cflags --libs $lib) -o "$tmp/$ex" 2>"$tmp/cc.log"; then
        ok "cc $ex.c \$(pkg-config --cflags --libs $lib)"
    else
        cat "$tmp/cc.log"; bad "cc $ex.c \$(pkg-config --cflags --libs $lib)"
    fi
    # shellcheck disable=SC2046
    check_true "$ex.c is warning-free C11" cc -std=c11 -Wall -Wextra -Werror -pedantic \
        -fsyntax-only $(pkg-config --cflags $lib) "$src"
    check_true "$ex.c says to link with $lib" grep -q "pkg-config --cflags --libs $lib)" "$src"
done
# The static libraries: libpft-io.a, then libpft.a, then the system's.
# shellcheck disable=SC2046
check_true "cc decode_snapshot.c with libpft-io.a and libpft.a" \
    cc "$PFT_SOURCE/doc/examples/decode_snapshot.c" $(pkg-config --cflags libpft-io) \
    "$libdir/libpft-io.a" "$libdir/libpft.a" $(pkg-config --libs libelf libdw) -pthread \
    -o "$tmp/decode_snapshot_static"
n=$(needed "$tmp/decode_snapshot_static")
check_true "static decode_snapshot needs no libpft (needs: $n)" eval '! echo "$n" | grep -q libpft'
"$tmp/decode_snapshot_static" "$SNAPS/trace_cov_a15" >"$tmp/static.out" 2>&1
check_true "static decode_snapshot: 57 instructions for trace_cov_a15" \
    test "$(grep -c '^    0x' "$tmp/static.out")" = 57
# libpft(3)'s EXAMPLE section, as rendered, is a program too.
MANWIDTH=200 man -l "$prefix/share/man/man3/libpft.3" 2>/dev/null |
    sed -n '/^EXAMPLE/,/^SEE ALSO/p' | sed -n 's/^              //p' >"$tmp/man_example.c"
# shellcheck disable=SC2046
check_true "libpft(3)'s example compiles against the installed libraries" \
    cc -std=c11 -Wall -Wextra -Werror "$tmp/man_example.c" $(pkg-config --cflags --libs libpft-io) \
    -o "$tmp/man_example"
[ -x "$tmp/decode_snapshot" ] && [ -x "$tmp/count_insns" ] ||
    { bad "the example programs were not built"; summary; }
export LD_LIBRARY_PATH=$libdir
for ex in decode_snapshot:libpft count_insns:libpft decode_snapshot:libpft-io; do
    lib=${ex#*:} ex=${ex%:*}
    resolved=$(ldd "$tmp/$ex" | awk -v l=$lib.so.0 '$1 == l {print $3}')
    check_true "$ex resolves $lib.so.0 from the prefix ($resolved)" \
        test "$(readlink -f "$resolved")" = "$(readlink -f "$libdir/$lib.so.0")"
done
loaded=$(ldd "$tmp/count_insns" | awk '{print $1}' | tr '\n' ' ')
check_true "count_insns loads neither libpft-io, libelf nor libdw ($loaded)" \
    eval '! echo "$loaded" | grep -qE "libpft-io|libelf|libdw"'

# ---- decode_snapshot against pft decode --------------------------------
# Normalisers: ranges in order as "id start end n" (decimal), from pft
# decode's JSON lines and from the example's "range id=0x.. start=0x.. ..".
ranges_cli() {
    python3 -c '
import json, sys
for line in sys.stdin:
    o = json.loads(line)
    if o["type"] == "range":
        print(o["id"], int(o["start"], 16), int(o["end"], 16), o["n"])'
}
ranges_ex() {
    python3 -c '
import sys
for line in sys.stdin:
    f = line.split()
    if f and f[0] == "range":
        v = dict(x.split("=") for x in f[1:5])
        print(int(v["id"], 16), int(v["start"], 16), int(v["end"], 16), int(v["n"]))'
}
# Each range line is followed by exactly n instruction lines, the first at
# the range's start.
ranges_have_their_insns() {
    python3 -c '
import sys
want, first = 0, None
for line in open(sys.argv[1]):
    f = line.split()
    if f[0] == "range":
        if want: sys.exit(1)
        v = dict(x.split("=") for x in f[1:5])
        want, first = int(v["n"]), int(v["start"], 16)
    else:
        if first is not None and int(f[0], 16) != first: sys.exit(1)
        first = None
        want -= 1
sys.exit(want != 0)' "$1"
}
for name in TC2 trace_cov_a15 demo; do
    dir=$SNAPS/$name elf=() elfopt=()
    if [ $name = demo ]; then
        dir=$PFT_SOURCE/examples/demo elf=("$dir/prog") elfopt=(--elf "$dir/prog")
    fi
    "$tmp/decode_snapshot" "$dir" "${elf[@]}" >"$tmp/ex.out" 2>"$tmp/ex.err"
    rc=$?
    cp "$tmp/ex.out" "$tmp/ex.$name"
    check_true "$name: decode_snapshot exits 0 (rc $rc $(head -1 "$tmp/ex.err"))" test $rc = 0
    "$PFT" decode --snapshot "$dir" "${elfopt[@]}" --format jsonl 2>/dev/null | ranges_cli >"$tmp/cli.ranges"
    ranges_ex <"$tmp/ex.out" >"$tmp/ex.ranges"
    nr=$(wc -l <"$tmp/cli.ranges")
    check_true "$name: the same $nr ranges (id, start, end, n), in order, as pft decode" \
        eval '[ "$nr" -gt 0 ] && cmp -s "$tmp/cli.ranges" "$tmp/ex.ranges"'
    "$PFT" decode --snapshot "$dir" "${elfopt[@]}" --insn 2>/dev/null |
        awk '/^    0x/ {print $1}' >"$tmp/cli.insns"
    awk '/^    0x/ {print $1}' "$tmp/ex.out" >"$tmp/ex.insns"
    ni=$(wc -l <"$tmp/cli.insns")
    check_true "$name: the same $ni instruction addresses as pft decode --insn" \
        eval '[ "$ni" -gt 0 ] && cmp -s "$tmp/cli.insns" "$tmp/ex.insns"'
    check_true "$name: each range is followed by its n instructions, from its start" \
        ranges_have_their_insns "$tmp/ex.out"
    total=$(awk '{t += $4} END {print t + 0}' "$tmp/ex.ranges")
    case $name in
    # TC2: 9548 of the PTM and 16623 of the three ETMv3 sources (OpenCSD's
    # counts; tests/opencsd/test_etm3_opencsd.sh compares them one by one).
    TC2) check_true "TC2: 26171 instructions, as OpenCSD (got $total)" test "$total" = 26171 ;;
    trace_cov_a15) check_true "trace_cov_a15: 57 instructions, as OpenCSD (got $total)" test "$total" = 57 ;;
    esac
done

# The man page's shorter program lists the same instructions.
same_insns() { # the man example's output, decode_snapshot's output
    python3 -c '
import sys
a = [int(l.split()[0], 16) for l in open(sys.argv[1]) if l.startswith("    0x")]
b = [int(l.split()[0], 16) for l in open(sys.argv[2]) if l.startswith("    0x")]
sys.exit(not a or a != b)' "$1" "$2"
}
"$tmp/man_example" "$SNAPS/TC2" >"$tmp/man.out" 2>&1
check_true "TC2: libpft(3)'s example lists the same instructions" same_insns "$tmp/man.out" "$tmp/ex.TC2"

# ---- count_insns: the pipeline fed by the program's own read loop ------
reg() { sed -n "s/^$2([^)]*)=//p" "$1" | tr -d '\r'; }
regs() { echo "$(reg "$1" ETMCR):$(reg "$1" ETMCCER):$(reg "$1" ETMIDR):$(reg "$1" ETMTRACEIDR)"; }
dumps() { # FILE@ADDR for each [dump] section of a core's .ini
    awk -F= -v d="$(dirname "$1")" '/^\[/ {a = f = ""} /^address=/ {a = $2} /^file=/ {f = $2}
        a != "" && f != "" {print d "/" f "@" a; a = f = ""}' "$1" | tr -d '\r'
}
cli_counts() { # count_insns's lines, computed from pft decode's ranges
    "$PFT" decode --snapshot "$@" --format jsonl 2>/dev/null | python3 -c '
import json, sys
t = {}
for line in sys.stdin:
    o = json.loads(line)
    if o["type"] == "range":
        c = t.setdefault(o["id"], [0, 0]); c[0] += o["n"]; c[1] += 1
for i in sorted(t): print("id=0x%x insns=%d ranges=%d" % (i, t[i][0], t[i][1]))'
}
T=$SNAPS/TC2
# shellcheck disable=SC2046
"$tmp/count_insns" formatted "$T/cstrace.bin" $(dumps "$T/cpu_3.ini") \
    "$(regs "$T/device_8.ini")" "$(regs "$T/device_9.ini")" >"$tmp/count.out" 2>&1
check_true "TC2: count_insns: 9548 instructions for 0x13 (OpenCSD's count), none for 0x14: $(tr '\n' ' ' <"$tmp/count.out")" \
    eval 'grep -qx "id=0x13 insns=9548 ranges=[0-9]*" "$tmp/count.out" &&
          grep -qx "id=0x14 insns=0 ranges=0" "$tmp/count.out"'
check_true "TC2: count_insns agrees with pft decode" \
    eval '[ "$(grep -v "insns=0 " "$tmp/count.out")" = "$(cli_counts "$T" --id 0x13)" ]'
T=$SNAPS/trace_cov_a15
# shellcheck disable=SC2046
"$tmp/count_insns" raw "$T/PTM_0_2.bin" $(dumps "$T/device1.ini") \
    "$(regs "$T/device5.ini")" >"$tmp/count.out" 2>&1
check_true "trace_cov_a15: count_insns: 57 instructions (OpenCSD's count): $(cat "$tmp/count.out")" \
    grep -qx "id=0x2 insns=57 ranges=[0-9]*" "$tmp/count.out"
check_true "trace_cov_a15: count_insns agrees with pft decode" \
    eval '[ "$(cat "$tmp/count.out")" = "$(cli_counts "$T")" ]'

summary
