#!/bin/sh
# Make a large PTM trace (over 100 MB of PFT) from a real, long-running
# program, reproducibly, for the benchmarks:
#
#   sh bench/make-large-trace.sh OUTDIR [ROUNDS]
#
# bench/workload.c is built for Arm (Thumb, static, -O2) and run under
# qemu-user, which logs every instruction it executes; the log goes
# through a pipe (it would be ~30 GB) into `pft encode`, which models a
# Cortex-A15 PTM with the TC2 capture's configuration (cycle-accurate,
# timestamps) and writes
#   OUTDIR/large.pft     the raw PFT stream
#   OUTDIR/snapshot/     the same trace as an OpenCSD snapshot (frames,
#                        registers, the program's memory)
#   OUTDIR/workload      the program (ELF, with symbols); workload.out its output
# ROUNDS (default 3600: 107.7 MB, 277 million instructions) sets the
# length; the same ROUNDS gives the same bytes.  It takes about 8 minutes:
# qemu writes its log one line per system call.  Then:
#   build-bench/bench_pkt --raw OUTDIR/large.pft
#   build-bench/bench_flow --raw OUTDIR/large.pft --image OUTDIR/snapshot/mem_0.bin@ADDR
# (the script prints the exact commands; build-bench is made by
# bench/run.sh or `cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release
# -DPFT_BENCH=ON && cmake --build build-bench -j2`).  Not run by ctest.
set -eu
[ $# -ge 1 ] || { echo "usage: sh bench/make-large-trace.sh OUTDIR [ROUNDS]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
rounds=${2:-3600}
pft=$(cd "$(dirname "${PFT:-$here/../build/pft}")" && pwd)/$(basename "${PFT:-pft}")
[ -x "$pft" ] || { echo "no $pft: build pft first (see README), or set PFT" >&2; exit 2; }
mkdir -p "$1"
out=$(cd "$1" && pwd)
arm-linux-gnueabihf-gcc -static -O2 -o "$out/workload" "$here/workload.c"
# The log goes to file descriptor 3, the program's own output to a file.
# The same argv[0], an empty environment and output to a regular file make
# the C library's work, and so the trace, the same on every run.
(cd "$out" && env -i qemu-arm -singlestep -d exec,nochain -D /dev/fd/3 ./workload "$rounds" \
    3>&1 >"$out/workload.out" 2>&1) |
    "$pft" encode --log - --elf "$out/workload" --cycle-accurate --timestamps \
        --out-raw "$out/large.pft" --out-snapshot "$out/snapshot"
cat "$out/workload.out"
bytes=$(wc -c <"$out/large.pft")
addr=$(sed -n '/^\[dump1\]/,/^$/s/^address=//p' "$out/snapshot/cpu_0.ini")
echo "$out/large.pft: $bytes bytes of PFT"
[ "$bytes" -ge 100000000 ] || echo "warning: under 100 MB; give more ROUNDS" >&2
echo "benchmarks:"
echo "  build-bench/bench_pkt --raw $out/large.pft"
echo "  build-bench/bench_flow --raw $out/large.pft --image $out/snapshot/mem_0.bin@$addr"
echo "  sh bench/count.sh $out   (whole process, count modes, against build-bench/ocsd_count)"
