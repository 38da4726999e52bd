#!/bin/sh
# Whole-process benchmarks: the pft CLI against OpenCSD's trc_pkt_lister on
# the same snapshot, in the same run, alternating, RUNS times each; prints
# the best and worst user+system time of each and the ratio of the bests.
#
#   sh bench/cli.sh SNAPSHOT [MB] [RUNS]
#
# SNAPSHOT: a snapshot directory from bench/make-large-trace.sh (OUTDIR/snapshot).
# MB (default 5): the first MB megabytes of its trace buffer are used (a
# copy of the snapshot is cut in a temporary directory), so that OpenCSD's
# listings finish in reasonable time.  PFT (default build/pft) is the CLI
# to measure; -j options are passed on from PFT_JOBS (e.g. "-j 1").
set -eu
[ $# -ge 1 ] || { echo "usage: sh bench/cli.sh SNAPSHOT [MB] [RUNS]" >&2; exit 2; }
src=$1; mb=${2:-5}; runs=${3:-3}
here=$(cd "$(dirname "$0")" && pwd)
pft=${PFT:-$here/../build/pft}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/ss"
cp "$src"/*.ini "$src"/mem_*.bin "$tmp/ss/"
# Whole 16-byte frames.
head -c $((mb * 1024 * 1024 / 16 * 16)) "$src/trace.bin" >"$tmp/ss/trace.bin"
ss=$tmp/ss

# user+system seconds of one run of "$@", output to /dev/null
t1() {
	/usr/bin/time -o "$tmp/t" -f "%U %S" "$@" >/dev/null 2>&1 || true
	tail -n 1 "$tmp/t" | awk '{ printf "%.2f", $1 + $2 }'
}

# bench NAME -- PFT ARGS -- OPENCSD ARGS
bench() {
	name=$1; shift 2
	pa=""; while [ "$1" != "--" ]; do pa="$pa $1"; shift; done; shift
	pb="$pft$pa ${PFT_JOBS:-}"; ob="trc_pkt_lister $*"
	P=""; O=""
	for i in $(seq "$runs"); do
		P="$P $(t1 $pb)"
		O="$O $(t1 $ob)"
	done
	echo "$P" "$O" | awk -v name="$name" -v n="$runs" '{
		pmin = pmax = $1; omin = omax = $(n + 1)
		for (i = 1; i <= n; i++) { if ($i < pmin) pmin = $i; if ($i > pmax) pmax = $i }
		for (i = n + 1; i <= 2 * n; i++) { if ($i < omin) omin = $i; if ($i > omax) omax = $i }
		printf "| %s | %.2f-%.2f s | %.2f-%.2f s | %.1fx |\n", name, pmin, pmax, omin, omax,
		       (pmin > 0 ? omin / pmin : 0) }'
}

echo "$mb MB of trace buffer, $runs runs each, best-worst user+system time"
echo "| what | pft | trc_pkt_lister | ratio (bests) |"
echo "| --- | --- | --- | --- |"
bench "packets, count / list to /dev/null" -- dump --snapshot "$ss" --count -- \
	-ss_dir "$ss" -logfilename /dev/null
bench "packets, text listing" -- dump --snapshot "$ss" -- \
	-ss_dir "$ss" -logfilename /dev/null
bench "full decode, count / -decode_only to /dev/null" -- decode --snapshot "$ss" --count -- \
	-ss_dir "$ss" -decode_only -logfilename /dev/null
bench "full decode, text listing / -decode" -- decode --snapshot "$ss" -- \
	-ss_dir "$ss" -decode -logfilename /dev/null
