#!/bin/bash
# shellcheck disable=SC2016  # check_eval: single-quoted, evaluated later
# Issue 24, the views and the CLI's conventions: lcov without source lines
# (item 5), output errors with their reason (11), --clock values (12),
# --output for every listing, --quiet, the help and the man page (13), the
# calls view (14) and progress on a terminal (16).  Each block failed at the
# version the issue was filed against.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
: "${PFT:?}" "${PFT_SOURCE:?}"
SRC=$PFT_SOURCE
ex=$SRC/examples/demo
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# ---- 5. lcov needs source lines --------------------------------------------
# The demo's prog has no .debug_* section (readelf -S): no line table.
expect_error 2 "^pft: coverage: $ex/prog: no DWARF line table \(build with -g\): --format lcov needs source lines$" \
    "$PFT" coverage --snapshot "$ex" --elf "$ex/prog" --format lcov
check "lcov without lines: nothing on stdout" "$out" ""
# Without --elf the image is the snapshot's memory dump.
expect_error 2 "^pft: coverage: $ex/mem_0.bin: no DWARF line table \(a memory dump\): --format lcov needs source lines: give the program with --elf \(built with -g\)$" \
    "$PFT" coverage --snapshot "$ex" --format lcov
check "lcov of a dump: nothing on stdout" "$out" ""
# Checked before the output is created: the file is not left empty.
expect_status "lcov without lines, --output" 2 \
    "$PFT" coverage --snapshot "$ex" --format lcov --output "$tmp/cov.info"
check_true "lcov without lines: no file made" test ! -e "$tmp/cov.info"
# The text view needs no lines.
expect_status "coverage text without lines" 0 "$PFT" coverage --snapshot "$ex" --elf "$ex/prog"

# ---- 11. output errors name the file and the reason -------------------------
mkdir "$tmp/dir"
for c in coverage profile timeline calls decode dump info; do
    expect_error 2 "^pft: $tmp/dir: cannot create: Is a directory$" \
        "$PFT" "$c" --snapshot "$ex" --output "$tmp/dir"
done
expect_error 2 "^pft: $tmp/no/x: cannot create: No such file or directory$" \
    "$PFT" coverage --snapshot "$ex" --output "$tmp/no/x"
if [ -w /dev/full ]; then
    for c in calls decode timeline; do
        expect_error 2 "^pft: /dev/full: cannot write: No space left on device$" \
            "$PFT" "$c" --snapshot "$ex" --output /dev/full
    done
fi

# An output that is one of the inputs would destroy it before it is read.
cp -r "$ex" "$tmp/ss"
cp "$tmp/ss/prog" "$tmp/prog.copy"
expect_error 2 "^pft: $tmp/ss/mem_0.bin: cannot create: it is an input of this command \(it would be overwritten\)$" \
    "$PFT" decode --snapshot "$tmp/ss" --output "$tmp/ss/mem_0.bin"
expect_error 2 "^pft: $tmp/prog.copy: cannot create: it is an input of this command" \
    "$PFT" coverage --snapshot "$tmp/ss" --elf "$tmp/prog.copy" --output "$tmp/prog.copy"
check "the input is intact" "$(md5sum <"$tmp/ss/mem_0.bin")" "$(md5sum <"$ex/mem_0.bin")"

# ---- 12. --clock: one parser for frequencies --------------------------------
want=$("$PFT" timeline --snapshot "$ex" --clock 1000000000 | md5sum)
for v in 1e9 1.0e9 1000MHz 1GHz 1000000kHz 1000000000Hz 0x3b9aca00 "1 GHz"; do
    check "--clock $v" "$("$PFT" timeline --snapshot "$ex" --clock "$v" 2>&1 | md5sum)" "$want"
done
check "--clock 1.5e9" "$("$PFT" timeline --snapshot "$ex" --clock 1.5e9 2>&1 | md5sum)" \
    "$("$PFT" timeline --snapshot "$ex" --clock 1500000000 | md5sum)"
check "--clock 800MHz" "$("$PFT" timeline --snapshot "$ex" --clock 800mhz 2>&1 | md5sum)" \
    "$("$PFT" timeline --snapshot "$ex" --clock 800000000 | md5sum)"
# A frequency that makes every time 0 (one cycle < 0.01 ns) is refused.
expect_error 2 "^pft: timeline: --clock: '18446744073709551615' is not a frequency between 1 Hz and 100 GHz$" \
    "$PFT" timeline --snapshot "$ex" --clock 18446744073709551615
expect_error 2 "^pft: timeline: --clock: '101GHz' is not a frequency between 1 Hz and 100 GHz$" \
    "$PFT" timeline --snapshot "$ex" --clock 101GHz
expect_error 2 "^pft: timeline: --clock: 'fast' is not a frequency: give Hz \(1000000000, 1e9, 1.5e9\) or with a unit \(800MHz, 1GHz\)$" \
    "$PFT" timeline --snapshot "$ex" --clock fast
expect_error 2 "^pft: timeline: --clock: '5THz' is not a frequency: give Hz" \
    "$PFT" timeline --snapshot "$ex" --clock 5THz
expect_error 2 "^pft: timeline: --clock: '1.5' is not a whole number of Hz$" \
    "$PFT" timeline --snapshot "$ex" --clock 1.5

# ---- 13. --output for decode, dump and info; --quiet; help; man page --------
for c in decode dump info; do
    "$PFT" "$c" --snapshot "$ex" --output "$tmp/o.$c" >"$tmp/stdout.$c" 2>/dev/null
    check "$c --output: the listing" "$(md5sum <"$tmp/o.$c")" \
        "$("$PFT" "$c" --snapshot "$ex" 2>/dev/null | md5sum)"
    check "$c --output: nothing on stdout" "$(wc -c <"$tmp/stdout.$c")" 0
done
# --quiet: no notes (detected options), errors still said.
"$PFT" decode --snapshot "$ex" --format jsonl |
    python3 "$SRC/tests/cli/demo_log.py" "$ex/mem_0.bin" >"$tmp/demo.log"
"$PFT" encode --log "$tmp/demo.log" --elf "$ex/prog" --out-raw "$tmp/demo.raw" 2>/dev/null
# pft encode's outputs too (the log is the demo's, made below).
if [ -w /dev/full ]; then
    for out in --out-raw --out-formatted --out-perf; do
        expect_error 2 "^pft: /dev/full: cannot write: No space left on device$" \
            "$PFT" encode --log "$tmp/demo.log" --elf "$ex/prog" "$out" /dev/full
    done
fi
run "$PFT" decode --raw "$tmp/demo.raw" --elf "$ex/prog" --count
check_eval "a note without --quiet" '[ "$status" = 0 ] && printf "%s" "$err" | grep -q detected'
for c in decode calls coverage; do
    expect_status "$c --quiet" 0 "$PFT" "$c" --quiet --raw "$tmp/demo.raw" --elf "$ex/prog"
    check "$c --quiet: no note" "$err" ""
done
expect_status "dump --quiet" 0 "$PFT" dump --quiet --raw "$tmp/demo.raw"
check "dump --quiet: no note" "$err" ""
expect_status "info --quiet" 0 "$PFT" info --quiet --raw "$tmp/demo.raw"
expect_error 2 "^pft: info: give one input" "$PFT" info --quiet
for o in --raw --formatted --tpiu --snapshot --perf --format --output --quiet; do
    check_eval "info --help lists $o" '"$PFT" info --help | grep -q -- "^ *$o "'
done
# Every option of every command's --help is in the man page.
for c in dump decode coverage profile exceptions timeline calls encode stats event regs info; do
    for o in $("$PFT" "$c" --help 2>&1 | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u); do
        grep -qF -- "$(printf '%s' "$o" | sed 's/-/\\-/g')" "$SRC/doc/man/pft.1" ||
            bad "doc/man/pft.1 does not list pft $c $o"
    done
done
ok
check_true "the CLI contract is in doc/" test -f "$SRC/doc/cli.md"
check_eval "the README points at doc/cli.md" 'grep -q "doc/cli.md" "$SRC/README.md"'

# ---- 14. calls: a header row, the ID column, cpu, one name per function -----
check "calls: the header row" "$("$PFT" calls --snapshot "$ex" | head -1)" \
    "       insns  id  kind           depth  from -> to"
check "calls --id: header and ID column" "$("$PFT" calls --snapshot "$ex" --id 0x10 | sed -n '1p;2p' |
    awk '{print $2}' | tr '\n' ' ')" "id 10 "
check "calls --raw: no ID column" "$("$PFT" calls --quiet --raw "$tmp/demo.raw" | head -1)" \
    "       insns  kind           depth  from -> to"
check "calls --format jsonl: no header" "$("$PFT" calls --snapshot "$ex" --format jsonl | head -c 7)" '{"id":1'
if command -v arm-linux-gnueabihf-gcc >/dev/null && command -v qemu-arm >/dev/null; then
    # A static glibc program: __libc_start_main and __libc_start_main_impl
    # are two GLOBAL FUNC symbols of one address and size (readelf -s).
    printf 'int f(int x) { return x * 3 + 1; }\nint main(int c, char **v) { int s = 0; for (int i = 0; i < 10; i++) s += f(i + c); return s & 1; }\n' >"$tmp/hello.c"
    arm-linux-gnueabihf-gcc -O1 -marm -static -o "$tmp/hello" "$tmp/hello.c" ||
        bad "cannot build hello.c"
    # (its exit status is the program's)
    qemu-arm -singlestep -d exec,nochain -D "$tmp/hello.log" "$tmp/hello" >/dev/null 2>&1
    "$PFT" encode --log "$tmp/hello.log" --elf "$tmp/hello" --out-raw "$tmp/hello.raw" \
        --out-perf "$tmp/hello.perf.data" 2>/dev/null || bad "cannot encode hello's log"
    check "calls --perf jsonl: every line has cpu" "$("$PFT" calls --perf "$tmp/hello.perf.data" \
        --format jsonl 2>/dev/null | grep -vc '^{"id":[0-9]*,"cpu":[0-9]*,"kind"')" 0
    check_eval "calls --perf jsonl: lines" '[ "$("$PFT" calls --perf "$tmp/hello.perf.data" --format jsonl 2>/dev/null | wc -l)" -gt 10 ]'
    perf_names=$("$PFT" calls --perf "$tmp/hello.perf.data" 2>/dev/null | grep -o '__libc_start_main[a-z_]*' | sort -u)
    elf_names=$("$PFT" calls --raw "$tmp/hello.raw" --elf "$tmp/hello" 2>/dev/null | grep -o '__libc_start_main[a-z_]*' | sort -u)
    check "one name per function: --perf" "$perf_names" "__libc_start_main"
    check "one name per function: --elf" "$elf_names" "__libc_start_main"
else
    echo "skipped: calls --perf (no arm-linux-gnueabihf-gcc or qemu-arm)"
fi

# ---- 16. progress on a terminal ---------------------------------------------
# script(1) gives the command a terminal: its stderr (and its stdout, unless
# redirected) go there, and into the typescript.  PFT_PROGRESS_MS=0 drops
# the first second's delay and the half second between lines.
if script -qec true /dev/null >/dev/null 2>&1; then
    tty_run() { PFT_PROGRESS_MS=0 script -qec "$*" "$tmp/tty.out" >/dev/null 2>&1
                sed '1d;$d' "$tmp/tty.out"; }
    raw=(--raw "$tmp/demo.raw" --elf "$ex/prog")
    got=$(tty_run "$PFT" decode "${raw[*]}" --insn ">/dev/null")
    check_eval "progress on a terminal" 'printf "%s" "$got" | grep -Eq "pft: [0-9]+ bytes of [0-9]+ bytes \([0-9]+%\)"'
    # One line rewritten in place (\r), erased at the end: the last
    # characters are \r, blanks, \r (then the note on its own line).
    check_eval "progress erased" 'printf "%s" "$got" | tr "\r\n" "#@" | grep -q "%)# *#"'
    got=$(tty_run "$PFT" decode --quiet "${raw[*]}" --insn ">/dev/null")
    check "no progress with --quiet" "$(printf '%s' "$got" | tr -d '\r\n')" ""
    got=$(tty_run "$PFT" decode "${raw[*]}" --count ">/dev/null")
    check_eval "progress while counting" 'printf "%s" "$got" | grep -Eq "[0-9]+%"'
    got=$(tty_run "$PFT" coverage --quiet "${raw[*]}" ">/dev/null")
    check_eval "progress of a view" '! printf "%s" "$got" | grep -Eq "[0-9]+%"'
    got=$(tty_run "$PFT" coverage "${raw[*]}" ">/dev/null")
    check_eval "progress of a view" 'printf "%s" "$got" | grep -Eq "[0-9]+%"'
    # A listing on the terminal is sign of life enough: no line in it.
    got=$(tty_run "$PFT" decode "${raw[*]}" --insn)
    check_eval "no progress in a listing on the terminal" '! printf "%s" "$got" | grep -Eq "bytes \([0-9]+%"'
    got=$(tty_run "$PFT" decode "${raw[*]}" --insn --output "$tmp/listing")
    check_eval "progress with --output" 'printf "%s" "$got" | grep -Eq "[0-9]+%"'
    # Off a terminal: none.
    PFT_PROGRESS_MS=0 "$PFT" decode "${raw[@]}" --insn >/dev/null 2>"$tmp/err"
    check_eval "no progress off a terminal" '! grep -Eq "[0-9]+%" "$tmp/err"'
else
    echo "skipped: progress (no script(1))"
fi

summary
