#!/bin/sh
# Whole-process counting: `pft dump --count` against OpenCSD's packet
# processor and `pft decode --count` against its full decoder, both as
# programs that read the file and print a count (OpenCSD: build-bench/
# ocsd_count), on the large trace raw and as its snapshot, in the same
# run, alternating, RUNS rounds; prints the best and worst user+system
# time of each side, the ratio of the bests, and checks that both sides
# counted the same packets or instructions.
#
#   sh bench/count.sh OUTDIR [RUNS]
#
# OUTDIR: as bench/make-large-trace.sh made it (large.pft, snapshot/).
# PFT (default build/pft) is the CLI to measure, OCSD_COUNT (default
# build-bench/ocsd_count) the baseline; PFT_JOBS is added to pft's
# arguments (e.g. "-j 1").
set -eu
[ $# -ge 1 ] || { echo "usage: sh bench/count.sh OUTDIR [RUNS]" >&2; exit 2; }
dir=$1; runs=${2:-3}
here=$(cd "$(dirname "$0")" && pwd)
pft=${PFT:-$here/../build/pft}
ocsd=${OCSD_COUNT:-$here/../build-bench/ocsd_count}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ss=$dir/snapshot
reg() { sed -n "s/^$1([^)]*)=//p" "$ss/ptm_0.ini"; }
etmcr=$(reg ETMCR); traceid=$(reg ETMTRACEIDR)
# The memory dumps: --mem ADDR FILE for ocsd_count, --image FILE@ADDR for
# pft decode --raw.
mem=$(awk -F= -v d="$ss" '/^file=/ { f = $2 } /^address=/ { printf " --mem %s %s/%s", $2, d, f }' \
	"$ss/cpu_0.ini")
img=$(awk -F= -v d="$ss" '/^file=/ { f = $2 } /^address=/ { printf " --image %s/%s@%s", d, f, $2 }' \
	"$ss/cpu_0.ini")

# user+system seconds of one run of "$@"; its output in $tmp/out
t1() {
	/usr/bin/time -o "$tmp/t" -f "%U %S" "$@" >"$tmp/out" 2>&1 || true
	tail -n 1 "$tmp/t" | awk '{ printf "%.2f", $1 + $2 }'
}

# The count each side printed: pft's "N packets"/"N instructions" summary
# or ocsd_count's first number.
count_of() { grep -Eo '[0-9]+ (packets|instructions)' "$tmp/out" | head -n 1 | cut -d' ' -f1; }

# bench NAME -- PFT ARGS -- OCSD_COUNT ARGS
bench() {
	name=$1; shift 2
	pa=""; while [ "$1" != "--" ]; do pa="$pa $1"; shift; done; shift
	P=""; O=""; pc=""; oc=""
	for i in $(seq "$runs"); do
		P="$P $(t1 $pft $pa ${PFT_JOBS:-})"; pc=$(count_of)
		O="$O $(t1 $ocsd "$@")"; oc=$(count_of)
	done
	[ "$pc" = "$oc" ] && same="same count $pc" || same="COUNTS DIFFER: pft $pc, OpenCSD $oc"
	echo "$P" "$O" | awk -v name="$name" -v n="$runs" -v same="$same" '{
		pmin = pmax = $1; omin = omax = $(n + 1)
		for (i = 1; i <= n; i++) { if ($i < pmin) pmin = $i; if ($i > pmax) pmax = $i }
		for (i = n + 1; i <= 2 * n; i++) { if ($i < omin) omin = $i; if ($i > omax) omax = $i }
		printf "| %s | %.2f-%.2f s | %.2f-%.2f s | %.1fx | %s |\n", name, pmin, pmax,
		       omin, omax, (pmin > 0 ? omin / pmin : 0), same }'
}

cfg="--reg ETMCR=$etmcr --reg ETMTRACEIDR=$traceid"
ocfg="--etmcr $etmcr --traceid $traceid"
echo "$runs rounds, best-worst user+system time; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| what | pft ${PFT_JOBS:-} | OpenCSD (ocsd_count) | ratio (bests) | check |"
echo "| --- | --- | --- | --- | --- |"
bench "packets, raw" -- dump --raw "$dir/large.pft" $cfg --count -- $ocfg "$dir/large.pft"
bench "packets, snapshot" -- dump --snapshot "$ss" --count -- --formatted $ocfg "$ss/trace.bin"
bench "full decode, raw" -- decode --raw "$dir/large.pft" $cfg $img --count -- \
	--decode $ocfg $mem "$dir/large.pft"
bench "full decode, snapshot" -- decode --snapshot "$ss" --count -- \
	--decode --formatted $ocfg $mem "$ss/trace.bin"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
