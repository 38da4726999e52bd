#!/bin/sh
# The cost of the views against `pft decode --count` on the same trace:
#
#   sh bench/views.sh OUTDIR [RUNS]
#
# OUTDIR is what bench/make-large-trace.sh made (snapshot/, workload).
# Each round runs decode --count and then every view (output to
# /dev/null), RUNS rounds (default 3), one after the other so that all see
# the same load; prints the least user+system time of each and its ratio
# to decode --count's, and the most (the spread over the rounds).
# VIEWS_CALLS=1 adds pft calls (text and jsonl).  Every command runs
# with -j ${JOBS:-1}: user+system time compares like with like in one
# thread (a parallel decode adds its hand-over's CPU time, which a view's
# records make larger than a count's).
# Not run by ctest.
set -eu
[ $# -ge 1 ] || { echo "usage: sh bench/views.sh OUTDIR [RUNS]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
pft=${PFT:-$here/../build/pft}
runs=${2:-3}
in="--snapshot $1/snapshot --elf $1/workload"
times=$(mktemp)
trap 'rm -f "$times"' EXIT
for round in $(seq "$runs"); do
	for view in "decode --count" coverage profile "profile --format callgrind" annotate \
		    "annotate --format jsonl" \
		    timeline ${VIEWS_CALLS+calls "calls --format jsonl"}; do
		# shellcheck disable=SC2086
		/usr/bin/time -f "%U %S" -o "$times.1" "$pft" $view $in -j "${JOBS:-1}" >/dev/null
		echo "$view:$(cat "$times.1")" >>"$times"
	done
	echo "round $round of $runs done" >&2
done
rm -f "$times.1"
awk -F: '{ split($2, t, " "); s = t[1] + t[2]
	   if (!($1 in best) || s < best[$1]) best[$1] = s
	   if (!($1 in worst) || s > worst[$1]) worst[$1] = s
	   if (!($1 in seen)) { seen[$1] = 1; order[n++] = $1 } }
	 END { base = best["decode --count"]
	       printf "%-28s %8s %6s %8s\n", "command", "seconds", "ratio", "most"
	       for (i = 0; i < n; i++)
		   printf "%-28s %8.2f %6.2f %8.2f\n", order[i], best[order[i]],
			  best[order[i]] / base, worst[order[i]] }' "$times"
