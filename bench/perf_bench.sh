#!/bin/bash
# pft decode --perf against perf script on one perf.data of over 20 MB of
# trace, in the same run (on demand, not a ctest):
#
#   bash bench/perf_bench.sh OUTDIR [ROUNDS] [RUNS]
#
# The file is made as bench/make-large-trace.sh makes its trace:
# bench/workload.c (Thumb, static, -O2) runs under qemu-user, whose
# instruction log goes through a pipe into `pft encode --out-perf`, which
# writes the modelled PTM (default configuration, which perf decodes
# correctly) as perf record would, frame-formatted, per thread.  ROUNDS
# (default 1100) sets the length: 1100 give about 22 MB of trace
# (750: 15.2 MB, 57.7 million instructions).  A file
# made before (OUTDIR/perf.data) is reused.  Each of RUNS (default 3)
# runs times both decoders back to back:
#   pft decode --perf OUTDIR/perf.data --count
#   perf script -i OUTDIR/perf.data --itrace=i1i -F ip > /dev/null
# and prints the user+system seconds of each and the ratio.
set -eu
[ $# -ge 1 ] || { echo "usage: bash bench/perf_bench.sh OUTDIR [ROUNDS] [RUNS]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
rounds=${2:-1100}
runs=${3:-3}
pft=$(cd "$(dirname "${PFT:-$here/../build/pft}")" && pwd)/$(basename "${PFT:-pft}")
[ -x "$pft" ] || { echo "no $pft: build pft first (see README), or set PFT" >&2; exit 2; }
mkdir -p "$1"
out=$(cd "$1" && pwd)
if [ ! -s "$out/perf.data" ]; then
    arm-linux-gnueabihf-gcc -static -O2 -o "$out/workload" "$here/workload.c"
    (cd "$out" && env -i qemu-arm -singlestep -d exec,nochain -D /dev/fd/3 ./workload "$rounds" \
        3>&1 >"$out/workload.out" 2>&1) |
        "$pft" encode --log - --elf "$out/workload" --out-perf "$out/perf.data"
fi
trace=$("$pft" info --perf "$out/perf.data" | sed -n 's/.*: \([0-9]*\) bytes.*/\1/p')
echo "$out/perf.data: $(wc -c <"$out/perf.data") bytes, $trace bytes of PTM trace"
[ "$trace" -ge 20000000 ] || echo "warning: under 20 MB of trace; give more ROUNDS" >&2
"$pft" decode --perf "$out/perf.data" --count | head -1
# cpu COMMAND...: its user + system seconds.
cpu() {
    local TIMEFORMAT="%U %S"
    { time "$@" >/dev/null 2>&1; } 2>"$out/time" || true
    awk '{ printf "%.2f", $1 + $2 }' "$out/time"
}
i=0
while [ "$i" -lt "$runs" ]; do
    p=$(cpu "$pft" decode --perf "$out/perf.data" --count)
    q=$(cpu perf script -i "$out/perf.data" --itrace=i1i -F ip)
    r=$(awk -v a="$q" -v b="$p" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')
    echo "run $((i + 1)): pft $p s, perf script $q s, perf/pft $r"
    i=$((i + 1))
done
