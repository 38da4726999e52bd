# shellcheck shell=bash
# tests/lib.sh - the helper every test script (tests/*/test_*.sh) sources:
#
#     . "$(dirname "$0")/../lib.sh"
#
# It counts checks (pass, fail) and ends the script with summary, which
# prints the closing line "N passed, N failed" and exits 1 when a check
# failed.  A failing check prints one line starting with "FAIL: " (and
# perhaps indented lines after it).  It works under set -e and set -u.
#
#   ok                         a check passed
#   bad WHAT...                a check failed: prints "FAIL: WHAT"
#   check NAME GOT WANT        GOT is WANT (strings)
#   check_true NAME CMD...     CMD succeeds (exit status 0)
#   check_eval NAME EXPR       the shell expression EXPR is true (eval)
#   run CMD...                 runs CMD: its exit status in $status, its
#                              standard output in $out and its standard
#                              error in $err (as command substitution
#                              gives them: without trailing newlines),
#                              the number of lines on stderr in $errlines
#   expect_status NAME WANT CMD...   CMD exits with status WANT
#   expect_output NAME WANT CMD...   CMD prints exactly WANT on stdout
#                                    (its trailing newlines aside)
#   expect_error CODE REGEX CMD...   CMD exits with status CODE and
#                                    writes exactly one line on stderr,
#                                    which matches the extended REGEX
#   summary                    the closing line and the exit status
#   skip WHY...                the test cannot run here (a tool it needs
#                              is missing): prints "SKIP: WHY" and exits
#                              77, which ctest reports as skipped
#
# run and the expect helpers leave $status, $out and $err of the command.
pass=0 fail=0
status=0 out='' err='' errlines=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

check() {
    if [ "$2" = "$3" ]; then ok; else bad "$1: '$2' != '$3'"; fi
}

check_true() {
    local name=$1
    shift
    if "$@"; then ok; else bad "$name"; fi
}

check_eval() {
    if eval "$2"; then ok; else bad "$1"; fi
}

# (The expect helpers call lib_run: a script may have a run of its own.)
lib_run() {
    local errfile
    errfile=$(mktemp)
    status=0
    out=$("$@" 2>"$errfile") || status=$?
    err=$(cat "$errfile")
    errlines=$(wc -l <"$errfile")
    rm -f "$errfile"
}
run() { lib_run "$@"; }

expect_status() {
    local name=$1 want=$2
    shift 2
    lib_run "$@"
    check "$name: exit status" "$status" "$want"
}

expect_output() {
    local name=$1 want=$2
    shift 2
    lib_run "$@"
    check "$name" "$out" "$want"
}

expect_error() {
    local code=$1 regex=$2
    shift 2
    lib_run "$@"
    if [ "$status" -ne "$code" ] || [ "$errlines" -ne 1 ] || ! printf '%s\n' "$err" | grep -Eq -- "$regex"; then
        bad "$* -> exit $status (want $code), $errlines stderr lines (want 1 matching '$regex'):"
        [ -z "$err" ] || printf '%s\n' "$err" | sed 's/^/    /'
    else
        ok
    fi
}

summary() {
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ] && exit 0
    exit 1
}

skip() {
    echo "SKIP: $*"
    exit 77
}
