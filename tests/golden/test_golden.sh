#!/bin/bash
# Golden outputs (issue 23): every standard output of pft - dump, decode
# (text, jsonl, --insn, --count), every view and format, at -j 1 and -j 2
# (small pieces, so that -j 2 splits), info, encode (raw, formatted,
# snapshot), stats, regs, event - over the captures of ../shared/testdata,
# the demo and the qemu programs of tests/qemu/progs encoded as PTM and
# ETMv3 trace, is what the pft of commit 2a982cb printed: the digest and
# exit status of each case in expected/manifest (cases.sh lists them;
# make_expected.sh records them).  On a difference: the case, its command
# line and, when the expected output is stored in full, a short diff.
# Standard error is not compared.
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$here/../lib.sh"
export LC_ALL=C
: "${PFT:?}"
PFT=$(readlink -f "$PFT")
SRC=${PFT_SOURCE:-$here/../..}
SRC=$(cd "$SRC" && pwd)
SS=$(readlink -f "${PFT_SHARED:-$SRC/../shared}/testdata/opencsd-snapshots")
exp=$here/expected
[ -d "$SS" ] || { echo "no $SS"; exit 1; }
# The work directory (see cases.sh): kept, for a look at a failure's
# files, when KEEP_TMP is set.
W=$(mktemp -d /tmp/pft-golden.XXXXXX)
if [ -n "${KEEP_TMP:-}" ]; then echo "work directory: $W"; else trap 'rm -rf "$W"' EXIT; fi

declare -A want inputs seen
while read -r hash rc name; do
    if [ "$hash" = input ]; then inputs[$rc]=$name; else want[$name]="$hash $rc"; fi
done <"$exp/manifest"

# compare NAME HASH STATUS FILE COMMAND-LINE
compare() {
    seen[$1]=1
    if [ -z "${want[$1]+set}" ]; then
        bad "$1: no such case in expected/manifest (run make_expected.sh?)"
    elif [ "${want[$1]}" = "$2 $3" ]; then
        ok
    else
        bad "$1: output $2 exit $3, want ${want[$1]}"
        echo "  command: $5"
        local full=$exp/out/${1//\//\~}
        if [ -f "$full" ]; then
            diff "$full" "$4" | head -12 | sed 's/^/  /'
        fi
    fi
}

# Two cases run at a time (the machine has two cores): golden_run starts
# pft in the background and reads the result of the oldest case while two
# are running; golden_sync reads them all, before anything reads a file a
# case wrote.
LANES=${GOLDEN_LANES:-2}
q_pid=() q_name=() q_seq=() q_cmd=()
seq=0 last=
golden_run() {
    local name=$1 envs=()
    shift
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    seq=$((seq + 1))
    env ${envs[@]+"${envs[@]}"} "$PFT" "$@" >"$W/out.$seq" 2>/dev/null &
    last="${envs[*]-}${envs[*]:+ }pft $*"
    q_pid+=("$!") q_name+=("$name") q_seq+=("$seq") q_cmd+=("$last")
    [ ${#q_pid[@]} -lt "$LANES" ] || golden_collect
}

# golden_collect: the oldest running case, compared.
golden_collect() {
    local rc=0 f=$W/out.${q_seq[0]}
    wait "${q_pid[0]}" || rc=$?
    compare "${q_name[0]}" "$(sha256sum <"$f" | cut -c1-64)" $rc "$f" "${q_cmd[0]}"
    rm -f "$f"
    q_pid=("${q_pid[@]:1}") q_name=("${q_name[@]:1}") q_seq=("${q_seq[@]:1}") q_cmd=("${q_cmd[@]:1}")
}

golden_sync() {
    while [ ${#q_pid[@]} -gt 0 ]; do golden_collect; done
}

# golden_file NAME FILE: FILE was written by the last golden_run's command.
golden_file() {
    local hash=-
    golden_sync
    [ -f "$2" ] && hash=$(sha256sum <"$2" | cut -c1-64)
    compare "$1" "$hash" 0 "$2" "$last (its file $2)"
}

# golden_input NAME DIGEST: 0 when the inputs are those the expected files
# were made from; otherwise the cases made from them are skipped, loudly.
skipped=
golden_input() {
    [ "${inputs[$1]-}" = "$2" ] && return 0
    echo "SKIP: the $1 cases: their inputs differ from those of the expected files" \
        "(another compiler or qemu?): '$2', want '${inputs[$1]-}'"
    skipped="$skipped $1"
    return 1
}

echo "golden: commands run in a work directory with ss -> $SS, demo -> $SRC/examples/demo" \
    "and the qemu programs in q/ (cases.sh)"
start=$SECONDS
last=
cd "$W" || exit 1
# shellcheck source=cases.sh
. "$here/cases.sh"
golden_cases
golden_sync
cd "$here" || exit 1

# Every expected case ran (but those of skipped inputs: qemu's are q/...).
for name in "${!want[@]}"; do
    [ -n "${seen[$name]-}" ] && continue
    case " $skipped " in *" qemu "*) [ "${name#q/}" != "$name" ] && continue ;; esac
    bad "$name: expected, but no longer a case"
done
echo "golden: ${#seen[@]} cases in $((SECONDS - start)) s"
summary
