# shellcheck shell=bash
# What the parallel tests share (sourced after ../lib.sh, with $PFT and
# $tmp set).
#
# same_as_serial PIECE JOBS ARGS...: pft ARGS -j JOBS with pieces of PIECE
# bytes (PFT_PIECE_SIZE) prints what pft ARGS -j 1 prints: standard output
# (kept in $tmp/serial.out), the other messages on stderr (but the note
# on why -j JOBS ran one thread), exit code.
# Sets $pieces and $folded from the parallel decode's counts, and
# $par_counts to their whole line.
# shellcheck disable=SC2154,SC2034  # $tmp is the caller's; the counts are for it
same_as_serial() {
    local piece=$1 jobs=$2
    shift 2
    local name="$* -j $jobs (pieces of $piece)"
    "$PFT" "$@" -j 1 >"$tmp/serial.out" 2>"$tmp/serial.err"
    local rc1=$?
    PFT_PIECE_SIZE=$piece "$PFT" "$@" -j "$jobs" >"$tmp/par.out" 2>"$tmp/par.err"
    local rc2=$?
    check "$name: exit code" "$rc2" "$rc1"
    if cmp -s "$tmp/serial.out" "$tmp/par.out"; then
        ok
    else
        bad "$name: output differs from -j 1"
        diff "$tmp/serial.out" "$tmp/par.out" | head -5
    fi
    check "$name: messages" \
        "$(grep -v -e 'parallel decode:' -e ": -j $jobs: decoded in one thread: " "$tmp/par.err")" \
        "$(cat "$tmp/serial.err")"
    pieces=$(sed -n 's/.*parallel decode: \([0-9]*\) pieces.*/\1/p' "$tmp/par.err")
    folded=$(sed -n 's/.*absorbed, \([0-9]*\) folded.*/\1/p' "$tmp/par.err")
    par_counts=$(grep 'parallel decode:' "$tmp/par.err")
}
