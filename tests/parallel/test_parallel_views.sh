#!/bin/bash
# The views of a parallel decode (issue 31): every view of `-j N` prints
# byte for byte what `-j 1` prints, where the decode's threads fold the
# elements for the views and the calls tracker (pft_views_fold(),
# pft_calls_fold()).  The traces are of real programs: qemu-user programs
# with recursion, longjmp and calls through pointers, and a bare-metal
# program with interrupts (PTM and ETMv3), encoded by pft encode with
# cycles and timestamps; pieces made small through PFT_PIECE_SIZE split
# them in many, and the counts pft then reports on stderr prove both the
# split and the folding ("parallel decode: P pieces, H handovers, A
# absorbed, F folded").
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=same.sh
. "$(dirname "$0")/same.sh"
PFT=${PFT:-build/pft}
case $PFT in /*) ;; *) PFT=$PWD/$PFT ;; esac
SRC=${PFT_SOURCE:-$(cd "$(dirname "$0")/../.." && pwd)}
for tool in arm-linux-gnueabihf-gcc qemu-arm python3; do
    command -v "$tool" >/dev/null || { echo "missing tool: $tool"; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# same PIECE JOBS ARGS...: same_as_serial (same.sh), of an output that is
# not empty.
same() {
    same_as_serial "$@"
    check "${*:3} -j $2 (pieces of $1): output not empty" \
        "$([ -s "$tmp/serial.out" ] && echo yes)" yes
}

# views INPUT_ARGS...: every view, in every format, -j 2 and -j 3; the
# views and the tracker must have had elements folded.
views() {
    local cmd piece=$1
    shift
    local -a cmds=(
        "coverage" "coverage --format lcov" "coverage --format jsonl"
        "profile" "profile --format callgrind" "profile --format folded"
        "profile --format jsonl" "profile --format llvm-sample"
        "calls" "calls --format jsonl" "timeline"
        "annotate" "annotate --format jsonl" "exceptions" "exceptions --format jsonl")
    for cmd in "${cmds[@]}"; do
        case "${no_dwarf:-}$cmd" in 1*lcov|1*llvm-sample) continue ;; esac
        case "${exceptions:-}$cmd" in exceptions*) continue ;; esac
        # shellcheck disable=SC2086
        same $piece 2 $cmd "$@"
        check "$cmd $*: split into several pieces" "$([ "${pieces:-0}" -ge 4 ] && echo yes)" yes
        check "$cmd $*: the threads folded elements" "$([ "${folded:-0}" -gt 0 ] && echo yes)" yes
    done
    same $((piece / 2)) 3 profile --format callgrind "$@"
    same $((piece / 2)) 3 calls --format jsonl "$@"
    same $((piece / 2)) 3 coverage --format jsonl "$@"
    # More threads than cores and than a view runs (16): most wait, for a
    # place among the pieces in flight or for room in theirs.
    same $((piece / 4)) 20 calls --format jsonl "$@"
}

# Small qemu-user programs (recursion, longjmp, calls through pointers),
# their pieces absorbed more often than handed over: exact all the same.
small() {
    local prog=$1 isa=$2 cfg=$3 bin=$tmp/$1.$2 cmd
    # shellcheck disable=SC2086  # $cfg: options
    arm-linux-gnueabihf-gcc -static -O1 -g "-m$isa" -o "$bin" "$SRC/tests/qemu/progs/$prog.c" &&
        qemu-arm -singlestep -d exec,nochain -D "$bin.log" "$bin" >/dev/null &&
        "$PFT" encode --log "$bin.log" --elf "$bin" $cfg --sync-period 256 --out-raw "$bin.pft" \
            --quiet || { bad "$prog ($isa): build, run under qemu, pft encode $cfg"; return; }
    for cmd in "profile --format callgrind" "calls --format jsonl" "coverage --format lcov"; do
        # shellcheck disable=SC2086
        same 1024 2 $cmd --raw "$bin.pft" $cfg --elf "$bin"
    done
}
small recursion thumb "--return-stack --cycle-accurate --timestamps"
small longjmp arm "--cycle-accurate"
small fnptr thumb ""

# bench/workload.c (sorting through a callback, recursion, an interpreter's
# switch, string functions) for 4 rounds: about 150 KB of trace, in
# pieces of 8 KB; PTM with cycles and timestamps, PTM with the return
# stack, ETMv3.
wl=$tmp/workload
if arm-linux-gnueabihf-gcc -static -O2 -g -mthumb -o "$wl" "$SRC/bench/workload.c" &&
   (cd "$tmp" && qemu-arm -singlestep -d exec,nochain -D /dev/fd/3 "$wl" 4 3>&1 >/dev/null |
    "$PFT" encode --log - --elf "$wl" --cycle-accurate --timestamps --out-raw "$wl.ca.pft" --quiet) &&
   (cd "$tmp" && qemu-arm -singlestep -d exec,nochain -D /dev/fd/3 "$wl" 4 3>&1 >/dev/null |
    "$PFT" encode --log - --elf "$wl" --return-stack --out-raw "$wl.rs.pft" --quiet) &&
   (cd "$tmp" && qemu-arm -singlestep -d exec,nochain -D /dev/fd/3 "$wl" 4 3>&1 >/dev/null |
    "$PFT" encode --log - --elf "$wl" --protocol etmv3 --out-raw "$wl.etm.pft" --quiet); then
    # No exceptions in user mode: nothing for pft exceptions to list.
    exceptions='' views 8192 --raw "$wl.ca.pft" --cycle-accurate --timestamps --elf "$wl"
    exceptions='' views 8192 --raw "$wl.rs.pft" --return-stack --elf "$wl"
    exceptions='' views 8192 --raw "$wl.etm.pft" --protocol etmv3 --elf "$wl"
    # --function narrows what the views print, not what they count.
    for cmd in "coverage --format lcov" "profile --format callgrind" "calls" "annotate"; do
        # shellcheck disable=SC2086
        same 8192 2 $cmd --raw "$wl.ca.pft" --cycle-accurate --timestamps --elf "$wl" \
            --function fib --function compare
    done
    # Pieces of 512 bytes, every one absorbed by the piece before: their
    # own threads are still at work when the reading ends, and the views
    # free their folds then.  The threads stop at the end of the trace
    # (under ASan, a thread still folding was a use after free, in about
    # one run in 25 here).
    runs=0
    while [ $runs -lt 20 ] && PFT_PIECE_SIZE=512 "$PFT" calls --format jsonl --raw "$wl.rs.pft" \
              --return-stack --elf "$wl" -j 20 >/dev/null 2>"$tmp/end.err"; do
        runs=$((runs + 1))
    done
    check "calls -j 20, pieces absorbed: 20 clean runs, the threads stopped at the end" \
        "$runs $(grep -v 'parallel decode:' "$tmp/end.err")" "20 "
else
    bad "workload: build, run under qemu, pft encode"
fi

# Code that passes from function to function without a call, return or
# jump to an entry (fallthrough.S): runs of ranges end at functions.
ft=$tmp/fallthrough
if arm-linux-gnueabihf-gcc -nostdlib -static -o "$ft" "$SRC/tests/parallel/fallthrough.S" &&
   qemu-arm -singlestep -d exec,nochain -D "$ft.log" "$ft" &&
   "$PFT" encode --log "$ft.log" --elf "$ft" --cycle-accurate --out-raw "$ft.pft" --quiet; then
    exceptions='' no_dwarf=1 views 4096 --raw "$ft.pft" --cycle-accurate --elf "$ft"
else
    bad "fallthrough.S: build, run under qemu, pft encode"
fi

# A bare-metal program with interrupts (exceptions in both models), built
# without DWARF (no lcov or LLVM profile then): its trace 20 times over,
# each copy's end cut and resynchronised by the next one's A-sync.
if command -v qemu-system-arm >/dev/null && command -v arm-none-eabi-gcc >/dev/null; then
    elf=$tmp/calc.elf
    err=$(cd "$SRC/tests/qemu" && python3 -c '
import sys, bare_roundtrip as b  # its build and run of the bare-metal programs
e = b.build("a9", "arm", "calc", sys.argv[1]) or b.qemu("a9", sys.argv[1], sys.argv[2])
print(e or "")' "$elf" "$elf.log")
    if [ -z "$err" ]; then
        for cfg in "--cycle-accurate --timestamps" "--protocol etmv3 --cycle-accurate"; do
            # shellcheck disable=SC2086
            if "$PFT" encode --log "$elf.log" --elf "$elf" $cfg --out-raw "$elf.1" --quiet; then
                for _ in $(seq 20); do cat "$elf.1"; done >"$elf.pft"
                # shellcheck disable=SC2086
                no_dwarf=1 exceptions=1 views 8192 --raw "$elf.pft" $cfg --elf "$elf"
            else
                bad "calc: pft encode $cfg"
            fi
        done
    else
        bad "calc: build and run under qemu-system-arm: $err"
    fi
fi

summary
