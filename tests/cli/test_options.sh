#!/bin/bash
# The options of the trace commands (dump, decode, the views, info): one
# table and one parsing loop (pft/options.c), each command taking its
# groups of shared options and its own.  Each takes what it took before,
# and says what is wrong in the same words: the messages and exit statuses
# below are those of the version before the shared parser.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
PFT=${PFT:-build/pft}
# expect STATUS MESSAGE ARGS...: pft ARGS exits STATUS with one line MESSAGE.
expect() {
    local status=$1 msg=$2; shift 2
    local err; err=$("$PFT" "$@" 2>&1 >/dev/null); local rc=$?
    check "pft $*: status" "$rc" "$status"
    check "pft $*: message" "$err" "$msg"
}

expect 2 "pft: dump: unknown option '--bogus' (try 'pft dump --help')" dump --bogus
expect 2 "pft: dump: unknown option '-x' (try 'pft dump --help')" dump -x
expect 2 "pft: dump: unknown option '-j' (try 'pft dump --help')" dump -j
expect 2 "pft: dump: option '--jobs' needs a value" dump --jobs
expect 2 "pft: dump: option '--raw' needs a value" dump --raw
expect 2 "pft: dump: unknown option '--fo' (try 'pft dump --help')" dump --fo x
expect 2 "pft: --format: 'xml' is not text or jsonl" dump --format xml
expect 2 "pft: dump: unexpected argument 'extra'" dump --raw A extra
expect 2 "pft: dump: unknown option '--insn' (try 'pft dump --help')" dump --insn
expect 2 "pft: dump: unknown option '--elf' (try 'pft dump --help')" dump --elf x
expect 2 "pft: dump: option '--output' needs a value" dump --output
expect 2 "pft: dump: unknown option '--clock' (try 'pft dump --help')" dump --clock 5
expect 2 "pft: decode: option '--output' needs a value" decode --count --insn --output
expect 2 "pft: decode: unknown option '--clock' (try 'pft decode --help')" decode --clock 5
expect 2 "pft: --image: 'foo' needs @ADDR (the address of its first byte)" decode --image foo
expect 2 "pft: coverage: --clock goes with pft timeline, profile and exceptions" coverage --clock 5
expect 2 "pft: coverage: --format: 'callgrind' is not one of this command's formats (try 'pft coverage --help')" coverage --format callgrind
expect 2 "pft: profile: --format: 'lcov' is not one of this command's formats (try 'pft profile --help')" profile --format lcov
expect 2 "pft: timeline: --clock: '0' is not a frequency between 1 Hz and 100 GHz" timeline --clock 0
expect 2 "pft: timeline: --format: 'jsonl' is not one of this command's formats (try 'pft timeline --help')" timeline --format jsonl
expect 2 "pft: calls: --clock goes with pft timeline, profile and exceptions" calls --cl x
expect 2 "pft: info: unknown option '--cycle-accurate' (try 'pft info --help')" info --cycle-accurate
expect 2 "pft: info: unknown option '-j' (try 'pft info --help')" info -j 2
expect 2 "pft: info: unknown option '--cycle-accurate' (try 'pft info --help')" info --cycle-accurate
expect 2 "pft: info: give one input: --raw FILE, --formatted FILE, --snapshot DIR or --perf FILE" info --raw a --snapshot b
expect 2 "pft: info: --tpiu goes with --formatted" info --raw a --tpiu
expect 2 "pft: --format: 'xml' is not text or jsonl" info --format xml
expect 2 "pft: info: unexpected argument 'b'" info --raw a b
expect 2 "pft: give only one of --snapshot, --raw, --formatted and --perf" dump --raw a --snapshot b
expect 2 "pft: --protocol: 'foo' is not ptm or etmv3" decode --protocol foo
expect 2 "pft: -j/--jobs: '0' is not a number of threads (1-1024)" dump -j 0
expect 2 "pft: --tpiu goes with --formatted" calls --raw a --tpiu

# --help: the usage on standard output, status 0, for every command;
# each command lists its own options and only those.
for c in dump decode coverage profile timeline calls info; do
    out=$("$PFT" $c --help); check "$c --help: status" $? 0
    check "$c --help: usage line" "${out%%$'\n'*}" "$("$PFT" help $c | head -1)"
done
check "decode --help lists --insn" "$("$PFT" decode --help | grep -c -- '--insn ')" 1
check "dump --help lists no --elf" "$("$PFT" dump --help | grep -c -- '--elf')" 0
check "timeline --help lists --clock" "$("$PFT" timeline --help | grep -c -- '--clock HZ ')" 1
check "calls --help lists no --clock" "$("$PFT" calls --help | grep -c -- '--clock')" 0

summary
