#!/bin/bash
# Views of executed code against real programs: C programs built with -g
# for ARM and Thumb run under qemu-user; their logs are encoded (pft
# encode --out-raw), decoded by views_driver (libpft: flow, calls, views,
# lines) and every view is checked against qemu's log, binutils' view of
# the DWARF line table and symbols, and the real clients of the formats
# (views_check.py has the details; lcov and genhtml read the tracefile).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
: "${PFT:?}" "${PFT_BUILD:?}"
driver=$PFT_BUILD/tests/views_driver
for tool in arm-linux-gnueabihf-gcc arm-linux-gnueabihf-objdump arm-linux-gnueabihf-nm \
            qemu-arm python3 lcov genhtml callgrind_annotate; do
    command -v "$tool" >/dev/null || { echo "missing tool: $tool"; exit 1; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# program, instruction set, optimisation, PTM configuration (the driver
# takes the same flags)
runs="views:arm:-O2: views:thumb:-O2:--cycle-accurate
      longjmp:arm:-O1:--return-stack fnptr:thumb:-O1:--timestamps"
for run in $runs; do
    IFS=: read -r name isa opt cfg <<<"$run"
    src=$here/progs/$name.c
    [ -f "$src" ] || src=$here/../qemu/progs/$name.c
    bin=$tmp/$name.$isa
    out=$tmp/out.$name.$isa${cfg//-/_}
    mkdir -p "$out"
    if ! arm-linux-gnueabihf-gcc -static -g "$opt" -m$isa -o "$bin" "$src" ||
       ! qemu-arm -singlestep -d exec,nochain -D "$bin.log" "$bin" >/dev/null ||
       ! "$PFT" encode --log "$bin.log" --elf "$bin" --out-raw "$bin.raw" $cfg ||
       ! "$driver" "$bin.raw" "$bin" "$out" $cfg; then
        bad "$name.$isa [$cfg]: cannot build, run, encode or decode it"
        continue
    fi
    if python3 "$here/views_check.py" "$bin.log" "$bin" "$out"; then
        ok
    else
        bad "$name.$isa [$cfg]: views differ from what qemu executed"
    fi
done

# The real clients accept the formats.
out=$tmp/out.views.thumb__cycle_accurate
if lcov --summary "$out/lcov.info" --rc lcov_branch_coverage=1 >"$tmp/summary" 2>&1 &&
   grep -q "functions..: 88.9% (8 of 9 functions)" "$tmp/summary"; then
    ok
else
    cat "$tmp/summary"; bad "lcov --summary (8 of the 9 functions of views.c entered)"
fi
if genhtml --branch-coverage -q -o "$tmp/html" "$out/lcov.info" >"$tmp/genhtml" 2>&1 &&
   [ -s "$tmp/html/index.html" ]; then
    ok
else
    cat "$tmp/genhtml"; bad "genhtml --branch-coverage"
fi
# Folded stacks: every line is "frame;frame;... count" and the counts add
# up to the instructions executed.
total=$(awk '{ s += $NF } END { print s }' "$out/folded.txt")
want=$(python3 -c "import sys; sys.path.insert(0, '$here/../qemu'); import roundtrip
print(sum(1 for a in roundtrip.qemu_addresses('$tmp/views.thumb.log') if a < 0xffff0000))")
if [ "$total" = "$want" ] && ! grep -qvE '^[^ ;]+(;[^ ;]+)* [0-9]+$' "$out/folded.txt" &&
   grep -q ';main;tail ' "$out/folded.txt" && grep -q ';main;leaf ' "$out/folded.txt"; then
    ok
else
    bad "folded stacks: $total instructions, qemu ran $want"
fi

summary
