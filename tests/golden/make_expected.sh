#!/bin/bash
# make_expected.sh PFT_BINARY: records what PFT_BINARY prints for every
# case of cases.sh in tests/golden/expected/: the manifest (one line
# "SHA256 EXIT-STATUS NAME" per case and "input NAME DIGEST" per set of
# generated inputs) and, in out/, the standard outputs of at most 4 KB in
# full (for the test's diffs; the files encode writes are binary).  The expected files were made by the pft of commit
# 2a982cb; a change that alters an output on purpose reruns this and says
# why in its commit.
set -u
export LC_ALL=C
[ $# -eq 1 ] && [ -x "$1" ] || { echo "usage: make_expected.sh PFT_BINARY" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
PFT=$(readlink -f "$1")
SRC=$(cd "$here/../.." && pwd)
SS=$(readlink -f "${PFT_SHARED:-$SRC/../shared}/testdata/opencsd-snapshots")
[ -d "$SS" ] || { echo "no $SS" >&2; exit 2; }
W=$(mktemp -d /tmp/pft-golden.XXXXXX)
trap 'rm -rf "$W" "$here/expected.new"' EXIT
# Made aside, then put in the place of expected/ (which a running test reads).
exp=$here/expected.new
rm -rf "$exp"
mkdir -p "$exp/out"
manifest=$exp/manifest
: >"$manifest"
FULL_LIMIT=4096

# The stored copy of a small output: out/NAME with / as ~.
keep() {
    local size
    size=$(stat -c %s "$2")
    [ "$size" -le $FULL_LIMIT ] && cp "$2" "$exp/out/${1//\//\~}"
}

golden_run() {
    local name=$1 envs=() rc
    shift
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    env ${envs[@]+"${envs[@]}"} "$PFT" "$@" >"$W/out" 2>"$W/err"
    rc=$?
    echo "$(sha256sum <"$W/out" | cut -c1-64) $rc $name" >>"$manifest"
    keep "$name" "$W/out"
    case " ${envs[*]-} " in
    *PFT_PIECE_SIZE*) echo "$name: $(grep -o 'parallel decode: [0-9]* pieces' "$W/err")" ;;
    esac
}

golden_file() {
    if [ -f "$2" ]; then
        echo "$(sha256sum <"$2" | cut -c1-64) 0 $1" >>"$manifest"
    else
        echo "- 0 $1" >>"$manifest"
    fi
}

golden_sync() { :; }   # (the test runs cases two at a time)

golden_input() {
    echo "input $1 $2" >>"$manifest"
}

cd "$W" || exit 1
# shellcheck source=cases.sh
. "$here/cases.sh"
golden_cases
rm -rf "$here/expected" && mv "$exp" "$here/expected" && exp=$here/expected
echo "$(grep -vc '^input ' "$exp/manifest") cases, $(ls "$exp/out" | wc -l) kept in full," \
    "$(du -sk "$exp" | cut -f1) KB"
