#!/bin/sh
# The parallel decode (-j) against the serial one (-j 1) and against
# OpenCSD's trc_pkt_lister, whole process, in the same run, alternating,
# RUNS times each; prints the best and worst user+system and wall-clock
# times.  Then what two threads at once get of the machine, and every
# command (the views too) on the whole trace at -j 1, -j 2 and every core:
# wall-clock and CPU time, memory, and whether the output is -j 1's.
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

# What the machine gives two threads at once: the serial decode alone,
# then two of it at once (independent processes, sharing nothing); the
# least wall-clock time of RUNS rounds each.  On two free cores the pair
# takes as long as one alone; where the cores share (a host's
# hyperthreads or caches, other guests) each runs slower, and -j 2 can
# take no less than half of -j 1 divided by the speed printed.
pair_round() {
	/usr/bin/time -o "$tmp/p1" -f "%e" $pft decode --snapshot "$tmp/all" $elf --count -j 1 \
		>/dev/null 2>&1 &
	/usr/bin/time -o "$tmp/p2" -f "%e" $pft decode --snapshot "$tmp/all" $elf --count -j 1 \
		>/dev/null 2>&1
	wait
	cat "$tmp/p1" "$tmp/p2" | sort -n | tail -n 1
}
elf=""; [ -f "$out/workload" ] && elf="--elf $out/workload"
alone=""; pair=""
for i in $(seq "$runs"); do
	/usr/bin/time -o "$tmp/p0" -f "%e" $pft decode --snapshot "$tmp/all" $elf --count -j 1 \
		>/dev/null 2>&1
	alone="$alone $(tail -n 1 "$tmp/p0")"
	pair="$pair $(pair_round)"
done
echo
echo "$alone|$pair" | awk -F'|' -v runs="$runs" '
function least(s,   n, v, i, m) { n = split(s, v, " "); m = v[1]; for (i = 2; i <= n; i++) if (v[i] < m) m = v[i]; return m }
{ a = least($1); b = least($2)
  printf "decode --count -j 1 on the whole trace, least of %d: alone %.2f s, two at once %.2f s" \
	 " (the later of the pair): each ran at %.2f of its speed alone\n", runs, a, b, (b > 0 ? a / b : 0) }'

# Every command on the whole trace at -j 1, -j 2 and every core: the
# least wall-clock time of RUNS runs, the user+system time of that run,
# the peak resident memory, and whether the output is the one of -j 1.
cores=$(nproc)
jobs="1 2"; [ "$cores" -gt 2 ] && jobs="$jobs $cores"
echo
echo "whole trace ($(($(stat -c %s "$raw") / 1048576)) MB), $runs runs each: least wall-clock time," \
     "the user+system time of that run, peak RSS; $cores cores"
printf "| command |"; for j in $jobs; do printf " -j %s |" "$j"; done; echo " -j 2 / -j 1 (wall) |"
printf "| --- |"; for j in $jobs; do printf " --- |"; done; echo " --- |"
for cmd in "dump --count" "decode --count" dump decode coverage profile calls annotate timeline; do
	printf "| %s |" "$cmd"
	case $cmd in dump*) img="" ;; *) img=$elf ;; esac
	w1=""; w2=""
	for j in $jobs; do
		# The output's checksum once, untimed; then the timed runs.
		# shellcheck disable=SC2086
		$pft $cmd --snapshot "$tmp/all" $img -j "$j" 2>/dev/null | cksum >"$tmp/sum$j" || true
		best=""
		for i in $(seq "$runs"); do
			# shellcheck disable=SC2086
			/usr/bin/time -o "$tmp/m" -f "%e %U %S %M" $pft $cmd --snapshot "$tmp/all" \
				$img -j "$j" >/dev/null 2>&1 || true
			line=$(tail -n 1 "$tmp/m")
			if [ -z "$best" ] || awk -v a="$line" -v b="$best" \
				'BEGIN { split(a, x, " "); split(b, y, " "); exit !(x[1] < y[1]) }'; then
				best=$line
			fi
		done
		same=""; [ "$j" = 1 ] || cmp -s "$tmp/sum1" "$tmp/sum$j" || same=" DIFFERS"
		echo "$best" | awk -v same="$same" '{ printf " %.2f s (cpu %.2f s, %.0f MB)%s |", $1, $2 + $3, $4 / 1024, same }'
		[ "$j" = 1 ] && w1=$(echo "$best" | cut -d" " -f1)
		[ "$j" = 2 ] && w2=$(echo "$best" | cut -d" " -f1)
	done
	awk -v a="$w1" -v b="$w2" 'BEGIN { printf " %.2f |\n", (a > 0 ? b / a : 0) }'
done
[ "$cores" -gt 16 ] && echo "(at -j $cores all but the --count commands ran 16 threads: a decode" \
	"that hands records over runs at most 16)"

# What bounds each command on more cores than this machine has: the
# reading thread's share of the work at -j 16 (perf cpu-clock samples of
# each thread; the reading thread is the process's first), and so how
# many times faster than -j 1 it could run before that thread alone
# bounded it.  Needs perf (linux-perf) and the right to sample.
if perf record -q -e cpu-clock -o "$tmp/perf.data" true >/dev/null 2>&1; then
	echo
	echo "at -j 16 (perf, one run each): the reading thread's share of the samples," \
	     "and the speed-up it would bound"
	echo "| command | samples | reading thread | at most |"
	echo "| --- | --- | --- | --- |"
	for cmd in "decode --count" coverage profile calls annotate timeline; do
		# shellcheck disable=SC2086
		perf record -q -e cpu-clock -F 1000 -o "$tmp/perf.data" $pft $cmd \
			--snapshot "$tmp/all" $elf -j 16 >/dev/null 2>&1 || continue
		perf report -i "$tmp/perf.data" -n --no-children -s pid 2>/dev/null |
		awk -v cmd="$cmd" '/^#/ || NF < 3 { next }
			{ split($3, a, ":"); tid = a[1] + 0; n[tid] = $2; all += $2
			  if (first == 0 || tid < first) first = tid }
			END { if (all) printf "| %s | %d | %.1f %% | %.0fx |\n", cmd, all,
				100 * n[first] / all, (n[first] ? all / n[first] : 0) }'
	done
fi
exit 0
