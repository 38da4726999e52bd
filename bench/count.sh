#!/bin/sh
# Whole-process counting: `pft dump --count` against OpenCSD's packet
# processor and `pft decode --count` against its full decoder, both as
# programs that read the file and print a count (OpenCSD: build-bench/
# ocsd_count), on the large trace raw and as its snapshot, in the same
# run, alternating pft -j 1, pft -j 2 and OpenCSD, RUNS rounds; prints
# the best and worst wall-clock time of each (and pft's user+system
# time), the ratios of the best wall-clock times (OpenCSD is one thread:
# its wall-clock time is its CPU time on an idle machine), and checks
# that every side counted the same packets or instructions.
#
#   sh bench/count.sh OUTDIR [RUNS]
#
# OUTDIR: as bench/make-large-trace.sh made it (large.pft, snapshot/).
# Then the same on the other benchmarks' default stream, TC2's trace
# repeated to 100 MB (made here from PFT_SHARED, default ../shared).
# PFT (default build/pft) is the CLI to measure, OCSD_COUNT (default
# build-bench/ocsd_count) the baseline.
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

# "wall/user+system" seconds of one run of "$@"; its output in $tmp/out
t1() {
	/usr/bin/time -o "$tmp/t" -f "%e %U %S" "$@" >"$tmp/out" 2>&1 || true
	tail -n 1 "$tmp/t" | awk '{ printf "%.2f/%.2f", $1, $2 + $3 }'
}

# The count each side printed: pft's "N packets"/"N instructions" summary
# or ocsd_count's first number.
count_of() { grep -Eo '[0-9]+ (packets|instructions)' "$tmp/out" | head -n 1 | cut -d' ' -f1; }

# bench NAME -- PFT ARGS -- OCSD_COUNT ARGS
bench() {
	name=$1; shift 2
	pa=""; while [ "$1" != "--" ]; do pa="$pa $1"; shift; done; shift
	A=""; B=""; O=""; ac=""; bc=""; oc=""
	for i in $(seq "$runs"); do
		A="$A $(t1 $pft $pa -j 1)"; ac=$(count_of)
		B="$B $(t1 $pft $pa -j 2)"; bc=$(count_of)
		O="$O $(t1 $ocsd "$@")"; oc=$(count_of)
	done
	[ "$ac" = "$oc" ] && [ "$bc" = "$oc" ] && same="same count $oc" ||
		same="COUNTS DIFFER: pft $ac / $bc, OpenCSD $oc"
	echo "$A|$B|$O" | awk -F'|' -v name="$name" -v same="$same" '
	# "wall best-worst (cpu best-worst)" of a list of wall/cpu pairs;
	# the best wall-clock time in @best.
	function range(s, cpu,   n, v, i, x, w, c, wmin, wmax, cmin, cmax) {
		n = split(s, v, " ")
		for (i = 1; i <= n; i++) {
			split(v[i], x, "/"); w = x[1] + 0; c = x[2] + 0
			if (i == 1 || w < wmin) wmin = w; if (i == 1 || w > wmax) wmax = w
			if (i == 1 || c < cmin) cmin = c; if (i == 1 || c > cmax) cmax = c
		}
		best = wmin
		if (!cpu)
			return sprintf("%.2f-%.2f s", wmin, wmax)
		return sprintf("%.2f-%.2f s (cpu %.2f-%.2f)", wmin, wmax, cmin, cmax)
	}
	{ a = range($1, 1); ab = best; b = range($2, 1); bb = best; o = range($3, 0); ob = best
	  printf "| %s | %s | %s | %s | %.1fx / %.1fx | %s |\n", name, a, b, o,
		 (ab > 0 ? ob / ab : 0), (bb > 0 ? ob / bb : 0), same }'
}

cfg="--reg ETMCR=$etmcr --reg ETMTRACEIDR=$traceid"
ocfg="--etmcr $etmcr --traceid $traceid"
echo "$runs rounds, best-worst wall-clock time (pft's user+system); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| what | pft -j 1 | pft -j 2 | OpenCSD (ocsd_count) | OpenCSD / pft, wall bests (-j 1 / -j 2) | check |"
echo "| --- | --- | --- | --- | --- | --- |"
bench "packets, raw" -- dump --raw "$dir/large.pft" $cfg --count -- $ocfg "$dir/large.pft"
bench "packets, snapshot" -- dump --snapshot "$ss" --count -- --formatted $ocfg "$ss/trace.bin"
bench "full decode, raw" -- decode --raw "$dir/large.pft" $cfg $img --count -- \
	--decode $ocfg $mem "$dir/large.pft"
bench "full decode, snapshot" -- decode --snapshot "$ss" --count -- \
	--decode --formatted $ocfg $mem "$ss/trace.bin"
# The benchmarks' default stream (bench/bench_common.h): the TC2 capture's
# trace ID 0x13 from its first A-sync, repeated to 100 MB, with the
# capture's kernel image; its registers are ocsd_count's defaults.
tc2=${PFT_SHARED:-$here/../../shared}/testdata/opencsd-snapshots/TC2
python3 - "$here/../tests/fuzz" "$tc2/cstrace.bin" "$tmp/tc2.pft" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from make_corpus import deformat
one = deformat(open(sys.argv[2], 'rb').read(), 0x13)
one = one[one.index(b'\0' * 5 + b'\x80'):]
open(sys.argv[3], 'wb').write(one * -(-(100 << 20) // len(one)))
PY
bench "packets, TC2 stream" -- dump --raw "$tmp/tc2.pft" --reg ETMCR=0x10001000 --count -- \
	"$tmp/tc2.pft"
bench "full decode, TC2 stream" -- decode --raw "$tmp/tc2.pft" --reg ETMCR=0x10001000 \
	--image "$tc2/kernel_dump.bin@0xC0008000" --count -- \
	--decode --mem 0xC0008000 "$tc2/kernel_dump.bin" "$tmp/tc2.pft"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
