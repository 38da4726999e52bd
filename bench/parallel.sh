#!/bin/sh
# The parallel decode (-j) against the serial one (-j 1) and against
# OpenCSD's trc_pkt_lister, whole process, in the same run, alternating,
# RUNS times each; prints the best and worst user+system and wall-clock
# times, and pft's peak resident memory at -j 2 on the whole trace.
#
#   sh bench/parallel.sh OUTDIR [MB] [RUNS]
#
# OUTDIR: the output of bench/make-large-trace.sh (trace.bin or large.pft:
# the raw PFT; snapshot/: its snapshot).  The parallel decode splits raw
# trace, so the snapshot is remade here with the raw bytes as its buffer
# (format=source_data, which trc_pkt_lister reads too).  MB (default 10):
# the first MB megabytes are timed (OpenCSD takes seconds per megabyte);
# the memory is measured on all of it.  PFT (default build/pft): the CLI.
set -eu
[ $# -ge 1 ] || { echo "usage: sh bench/parallel.sh OUTDIR [MB] [RUNS]" >&2; exit 2; }
out=$1; mb=${2:-10}; runs=${3:-3}
here=$(cd "$(dirname "$0")" && pwd)
pft=${PFT:-$here/../build/pft}
raw=$out/trace.bin; [ -f "$raw" ] || raw=$out/large.pft
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# snapshot DIR BYTES: the snapshot with the first BYTES of the raw trace.
snapshot() {
	mkdir "$1"
	cp "$out"/snapshot/cpu_0.ini "$out"/snapshot/ptm_0.ini "$out"/snapshot/snapshot.ini \
	   "$out"/snapshot/mem_*.bin "$1/"
	sed 's/^format=coresight$/format=source_data/' "$out/snapshot/trace.ini" >"$1/trace.ini"
	if [ "$2" = all ]; then cp "$raw" "$1/trace.bin"; else head -c "$2" "$raw" >"$1/trace.bin"; fi
}
snapshot "$tmp/cut" $((mb * 1024 * 1024))
snapshot "$tmp/all" all

# "user+system wall" seconds of one run of "$@", output to /dev/null
t1() {
	/usr/bin/time -o "$tmp/t" -f "%U %S %e" "$@" >/dev/null 2>&1 || true
	tail -n 1 "$tmp/t" | awk '{ printf "%.2f/%.2f", $1 + $2, $3 }'
}

# row NAME PFT_ARGS -- OPENCSD_ARGS: pft -j 1, pft -j 2, trc_pkt_lister.
row() {
	name=$1; shift
	pa=""; while [ "$1" != "--" ]; do pa="$pa $1"; shift; done; shift
	A=""; B=""; O=""
	for i in $(seq "$runs"); do
		A="$A $(t1 $pft $pa -j 1)"
		B="$B $(t1 $pft $pa -j 2)"
		O="$O $(t1 trc_pkt_lister "$@")"
	done
	echo "$A|$B|$O" | awk -F'|' -v name="$name" '
	function range(s,   n, v, i, c, w, cmin, cmax, wmin, wmax) {
		n = split(s, v, " ")
		for (i = 1; i <= n; i++) {
			split(v[i], w, "/"); c = w[1] + 0; e = w[2] + 0
			if (i == 1 || c < cmin) cmin = c; if (i == 1 || c > cmax) cmax = c
			if (i == 1 || e < wmin) wmin = e; if (i == 1 || e > wmax) wmax = e
		}
		best = cmin; bestw = wmin
		return sprintf("%.2f-%.2f s (wall %.2f-%.2f)", cmin, cmax, wmin, wmax)
	}
	{ a = range($1); a_best = best; a_w = bestw
	  b = range($2); b_best = best; b_w = bestw
	  o = range($3); o_best = best
	  printf "| %s | %s | %s | %s | %.1fx / %.1fx |\n", name, a, b, o,
		 (a_best > 0 ? o_best / a_best : 0), (b_best > 0 ? o_best / b_best : 0) }'
}

echo "first $mb MB of $(basename "$raw") (raw, one PTM), $runs runs each, best-worst" \
     "user+system time (wall-clock time); load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| what | pft -j 1 | pft -j 2 | trc_pkt_lister | OpenCSD / pft (bests, -j 1 / -j 2) |"
echo "| --- | --- | --- | --- | --- |"
row "packets, count / list to /dev/null" dump --snapshot "$tmp/cut" --count -- \
	-ss_dir "$tmp/cut" -logfilename /dev/null
row "full decode, count / -decode_only to /dev/null" decode --snapshot "$tmp/cut" --count -- \
	-ss_dir "$tmp/cut" -decode_only -logfilename /dev/null
row "packets, text listing to /dev/null" dump --snapshot "$tmp/cut" -- \
	-ss_dir "$tmp/cut" -logfilename /dev/null
row "full decode, text listing to /dev/null" decode --snapshot "$tmp/cut" -- \
	-ss_dir "$tmp/cut" -decode_only -logfilename /dev/null
row "full decode, jsonl listing to /dev/null" decode --snapshot "$tmp/cut" --format jsonl -- \
	-ss_dir "$tmp/cut" -decode_only -logfilename /dev/null
row "coverage (pft) / -decode_only" coverage --snapshot "$tmp/cut" -- \
	-ss_dir "$tmp/cut" -decode_only -logfilename /dev/null

# Memory on the whole trace; the listings are compared by checksum.
for cmd in "dump --count" "decode --count" dump decode; do
	for j in 1 2; do
		/usr/bin/time -o "$tmp/m" -f "%M %U %S %e" $pft $cmd --snapshot "$tmp/all" \
			-j $j 2>/dev/null | cksum >"$tmp/sum$j" || true
		echo "whole trace, $cmd -j $j: $(tail -n 1 "$tmp/m" | awk '{ printf "%.1f MB peak RSS, %.2f s user+system, %.2f s wall", $1 / 1024, $2 + $3, $4 }')"
	done
	cmp -s "$tmp/sum1" "$tmp/sum2" && echo "  -j 1 and -j 2 print the same" ||
		echo "  -j 1 and -j 2 DIFFER"
done
