#!/bin/sh
# Run one fuzz target for a while:  sh tests/fuzz/run.sh TARGET SECONDS [libFuzzer options]
# TARGET: dfmt pkt flow snapshot elf event model calls etm3 perf pipe views par symbols insnlog.  Builds build-fuzz/ with clang
# (PFT_FUZZ=ON) the first time.  New inputs go to build-fuzz/corpus/TARGET
# (the seed corpus in tests/fuzz/corpus/TARGET is only read); a crash is
# written to build-fuzz/crashes/TARGET/ - minimise it with
#   build-fuzz/fuzz/fuzz_TARGET -minimize_crash=1 -runs=20000 CRASH
# and keep it in tests/fuzz/regressions/TARGET/.  The log is in
# build-fuzz/TARGET.log; the last line has the executions and coverage.
set -eu
[ $# -ge 2 ] || { echo "usage: sh tests/fuzz/run.sh TARGET SECONDS [libFuzzer options]" >&2; exit 2; }
target=$1 seconds=$2; shift 2
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${PFT_FUZZ_BUILD:-$src/build-fuzz}
[ -f "$src/tests/fuzz/fuzz_$target.c" ] || { echo "run.sh: no target '$target'" >&2; exit 2; }
mkdir -p "$build"
# Two runs may start together: one builds at a time.
(
    flock 9
    if [ ! -f "$build/CMakeCache.txt" ]; then
        CC=clang cmake -S "$src" -B "$build" -DPFT_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    fi
    cmake --build "$build" --target "fuzz_$target" -j2 >/dev/null
) 9>"$build/.build-lock"
mkdir -p "$build/corpus/$target" "$build/crashes/$target"
dict=
[ -f "$src/tests/fuzz/dict/$target.dict" ] && dict="-dict=$src/tests/fuzz/dict/$target.dict"
# shellcheck disable=SC2086
"$build/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$build/crashes/$target/" $dict "$@" \
    "$build/corpus/$target" "$src/tests/fuzz/corpus/$target" 2>"$build/$target.log" \
    || { echo "fuzz_$target: stopped on a problem, see $build/$target.log and $build/crashes/$target/" >&2; exit 1; }
grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ +DONE)' "$build/$target.log" || true
