#!/bin/sh
# Minimise the grown corpora:  sh tests/fuzz/minimise.sh [TARGET...]
#
# For each TARGET (default: every one with a grown/TARGET/), keep in
# tests/fuzz/grown/TARGET/ only the inputs that add coverage to the
# hand-made corpus/TARGET/ and regressions/TARGET/ (which are left as they
# are): libFuzzer's merge (-set_cover_merge=1, the greedy set cover that
# -merge=1 approximates less tightly) of grown/TARGET/ and of what
# tests/fuzz/run.sh found since (build-fuzz/corpus/TARGET/, if present)
# into a copy of the hand-made inputs.  Prints the coverage libFuzzer
# reports (cov: edges, ft: features) over corpus + grown + regressions
# before and after: cov must not change; ft moves by one or two from run
# to run on some targets (their state persists across inputs).
# Builds build-fuzz/ with clang (PFT_FUZZ=ON) as run.sh does.
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
fz=$src/tests/fuzz
build=${PFT_FUZZ_BUILD:-$src/build-fuzz}
if [ $# -eq 0 ]; then
    # shellcheck disable=SC2046
    set -- $(cd "$fz/grown" && ls)
fi
mkdir -p "$build"
(
    flock 9
    if [ ! -f "$build/CMakeCache.txt" ]; then
        CC=clang cmake -S "$src" -B "$build" -DPFT_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    fi
    for x in "$@"; do
        cmake --build "$build" --target "fuzz_$x" -j2 >/dev/null
    done
) 9>"$build/.build-lock"
opts="-rss_limit_mb=2048 -timeout=30"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# cov DIR...: "cov: N ft: M" of the fuzzer run once over every input
cov() {
    # shellcheck disable=SC2086
    nice "$build/fuzz/fuzz_$t" -runs=0 $opts "$@" 2>&1 | grep INITED | grep -o 'cov: [0-9]* ft: [0-9]*'
}
for t in "$@"; do
    [ -f "$fz/fuzz_$t.c" ] || { echo "minimise.sh: no target '$t'" >&2; exit 2; }
    keep="$fz/corpus/$t"
    [ -d "$fz/regressions/$t" ] && keep="$keep $fz/regressions/$t"
    mkdir -p "$fz/grown/$t"
    new=
    [ -d "$build/corpus/$t" ] && new="$build/corpus/$t"
    files=$(find "$fz/grown/$t" -type f | wc -l)
    # shellcheck disable=SC2086
    before=$(cov $keep "$fz/grown/$t" $new)
    # The hand-made inputs first, under names that tell them apart.
    mkdir "$tmp/$t"
    for d in $keep; do
        for f in "$d"/*; do
            [ -f "$f" ] && cp "$f" "$tmp/$t/keep-$(basename "$d")-$(basename "$f")"
        done
    done
    # shellcheck disable=SC2086
    nice "$build/fuzz/fuzz_$t" -set_cover_merge=1 $opts "$tmp/$t" "$fz/grown/$t" $new \
        >"$build/minimise-$t.log" 2>&1 \
        || { echo "fuzz_$t: the merge failed, see $build/minimise-$t.log" >&2; exit 1; }
    find "$fz/grown/$t" -type f -exec rm {} +
    for f in "$tmp/$t"/*; do
        case $(basename "$f") in keep-*) ;; *) mv "$f" "$fz/grown/$t/" ;; esac
    done
    # shellcheck disable=SC2086
    after=$(cov $keep "$fz/grown/$t")
    echo "$t: $files -> $(find "$fz/grown/$t" -type f | wc -l) files; before $before; after $after"
done
