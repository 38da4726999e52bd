# tests/lib.sh - the helper every test script (tests/*/test_*.sh) sources:
# shellcheck shell=bash
#
#     . "$(dirname "$0")/../lib.sh"
#
# It counts checks (pass, fail) and ends the script with summary, which
# prints the closing line "N passed, N failed" and exits 1 when a check
# failed.  A failing check prints one line starting with "FAIL: ".
#
#   ok                         a check passed
#   bad WHAT...                a check failed: prints "FAIL: WHAT"
#   check NAME GOT WANT        GOT is WANT (strings)
#   check_true NAME CMD...     CMD succeeds (exit status 0)
#   check_eval NAME EXPR       the shell expression EXPR is true
#   run CMD...                 runs CMD: its exit status in $status, its
#                              standard output in $out, its standard error
#                              in $err (command substitution: without
#                              trailing newlines)
#   expect_status NAME WANT CMD...    CMD exits with status WANT
#   expect_stderr NAME REGEX CMD...   CMD writes a line matching the
#                                     extended REGEX on stderr
#   expect_output NAME WANT CMD...    CMD prints exactly WANT on stdout
#                                     (without trailing newlines)
#   summary                    the closing line and the exit status
#
# The run/expect helpers leave $status, $out and $err of the last command.
set -u
pass=0 fail=0
status=0 out='' err=''

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

run() {
    local errfile
    errfile=$(mktemp)
    out=$("$@" 2>"$errfile")
    status=$?
    err=$(cat "$errfile")
    rm -f "$errfile"
}

expect_status() {
    local name=$1 want=$2
    shift 2
    run "$@"
    if [ "$status" = "$want" ]; then ok; else bad "$name: exit status $status, want $want"; fi
}

expect_stderr() {
    local name=$1 regex=$2
    shift 2
    run "$@"
    if printf '%s\n' "$err" | grep -Eq -- "$regex"; then
        ok
    else
        bad "$name: no line matching '$regex' on stderr: $(printf '%s' "$err" | head -3)"
    fi
}

expect_output() {
    local name=$1 want=$2
    shift 2
    run "$@"
    check "$name" "$out" "$want"
}

summary() {
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ] && exit 0
    exit 1
}
