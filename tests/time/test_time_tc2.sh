#!/bin/bash
# TC2's four sources with timestamps (0x10-0x12 Cortex-A7 ETMv3s, 0x13
# the Cortex-A15's PTM) on one time base (issue 25, shared/spec/cli.md
# "Several sources on one time base"):
#  - decode --merge: the same multiset of elements as without, each
#    source's order kept, times never falling, the sources interleaved,
#    every time the one the spec defines (tc2_check.py works it out from
#    the plain listing's timestamps and cycle counts), and the sources
#    starting where their first timestamps say: 0x11 24 454 ticks after
#    0x10, 0x13 48 237 (the issue's figures), 0x12 23 998;
#  - dump --merge: the same for the packets;
#  - the window: a small --merge-window gives lines out of time order, and
#    says how many (the count the listing shows), exit 0;
#  - --count: a line (object) per source, each equal to that source's
#    own decode, adding up to the total (dump: the JSON object with its
#    packet counts, the text line as before);
#  - pft timeline: every span at the time of an element of its source,
#    each track starting at its source's place; --ts-clock in real time;
#  - the options' mistakes: one line, exit 2.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
: "${PFT:?}"
: "${PFT_SHARED:=$here/../../../shared}"
S=$PFT_SHARED/testdata/opencsd-snapshots/TC2
[ -d "$S" ] || { echo "no $S"; exit 1; }
command -v python3 >/dev/null || { echo "missing tool: python3"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check=$here/tc2_check.py

# decode: the elements.
"$PFT" decode --snapshot "$S" --format jsonl --quiet >"$tmp/plain" &&
    "$PFT" decode --snapshot "$S" --format jsonl --merge --quiet >"$tmp/merged"
check "decode --merge: exit status" "$?" 0
if out=$(python3 "$check" merge "$tmp/plain" "$tmp/merged" 0x10); then
    ok
    check "first times, from 0x10's" "$(echo "$out" | tr '\n' ' ')" \
        "0x10 0 0x11 24454 0x12 23998 0x13 48237 "
else
    bad "decode --merge: $out"
fi
# Text: the same order, the time at the end of each line.
"$PFT" decode --snapshot "$S" --merge --quiet >"$tmp/text"
check "text lines" "$(wc -l <"$tmp/text")" "$(wc -l <"$tmp/merged")"
check "text times" "$(sed 's/.* time=//' "$tmp/text" | md5sum)" \
    "$(python3 -c 'import json,sys
for l in open(sys.argv[1]): print(json.loads(l)["time"])' "$tmp/merged" | md5sum)"

# dump: the packets.
"$PFT" dump --snapshot "$S" --format jsonl --quiet >"$tmp/pplain" &&
    "$PFT" dump --snapshot "$S" --format jsonl --merge --quiet >"$tmp/pmerged"
check "dump --merge: exit status" "$?" 0
if out=$(python3 "$check" merge "$tmp/pplain" "$tmp/pmerged"); then ok; else bad "dump --merge: $out"; fi

# The window: items held back past it go out of order, and it is said.
run "$PFT" decode --snapshot "$S" --format jsonl --merge --merge-window 200 --quiet
check "small window: exit status" "$status" 0
printf '%s\n' "$out" >"$tmp/small"
late=$(python3 "$check" late "$tmp/small")
said=$(printf '%s\n' "$err" | sed -n 's/.*: \([0-9]*\) items\{0,1\} out of time order.*--merge-window.*/\1/p' |
    awk '{ n += $1 } END { print n + 0 }')
check_eval "small window: out of order, and said ($late falls, $said said)" \
    '[ "$late" -gt 0 ] && [ "$late" -le "$said" ]'
check_eval "small window: the interpolation given up is said" \
    'printf "%s\n" "$err" | grep -q "placed at the timestamp before, not scaled by the cycles"'
# (The default window holds TC2 whole: nothing given up, nothing said.)
run "$PFT" decode --snapshot "$S" --merge --quiet
check "default window: nothing said" "$err" ""

# --count: per source, then the total.
"$PFT" decode --snapshot "$S" --count --format jsonl --quiet >"$tmp/count"
for id in 0x10 0x11 0x12 0x13; do
    "$PFT" decode --snapshot "$S" --id $id --count --format jsonl --quiet |
        sed -n 's/{"type":"summary",//p' >"$tmp/one"
    check "count of $id" "$(grep "\"type\":\"source\",\"id\":$((id))," "$tmp/count" |
        sed 's/{"type":"source","id":[0-9]*,//')" "$(cat "$tmp/one")"
done
check "count: the total last" "$(tail -1 "$tmp/count" | cut -c1-19)" '{"type":"summary","'
if python3 - "$tmp/count" <<'EOF'; then ok; else bad "count: the sources do not add up to the total"; fi
import collections, json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
total = collections.Counter(objs[-1]['counts'])
insns = sum(o['insns'] for o in objs[:-1])
summed = sum((collections.Counter(o['counts']) for o in objs[:-1]), collections.Counter())
sys.exit(0 if summed == total and insns == objs[-1]['insns'] and len(objs) == 6 else 1)
EOF
run "$PFT" decode --snapshot "$S" --count --quiet
check "count text: a line per source" "$(printf '%s\n' "$out" | grep -c '^id 0x1[0-4] ([EP]TM_[0-9]): [0-9]* instructions')" 5
check "count text: 0x13" "$(printf '%s\n' "$out" | grep '^id 0x13')" \
    "id 0x13 (PTM_0): 9548 instructions, range 1554, no_sync 1, trace_on 137, context 1, exception_return 4, timestamp 42, addr_nacc 16"
check "count text: the total" "$(printf '%s\n' "$out" | sed -n 6p)" "26171 instructions"
run "$PFT" dump --snapshot "$S" --count --quiet
check "dump count text: the line as it was" "$(printf '%s\n' "$out" | grep '^id 0x13')" \
    "id 0x13 (PTM_0): 4533 bytes, 1798 packets, 0 errors"
run "$PFT" dump --snapshot "$S" --count --format jsonl --quiet
check "dump count json: 0x13" "$(printf '%s\n' "$out" | grep '"id":19')" \
    '{"type":"source","id":19,"bytes":4533,"packets":1798,"errors":0,"counts":{"notsync":9,"async":5,"isync":140,"atom":1283,"branch":315,"timestamp":42,"exception_return":4}}'

# The timeline: every track on the time base, in ticks (TC2 gives no
# frequency), or in microseconds at --ts-clock.
"$PFT" timeline --snapshot "$S" --quiet >"$tmp/tl.json"
check "timeline: exit status" "$?" 0
if out=$(python3 "$check" spans "$tmp/tl.json" "$tmp/merged"); then
    ok
    # Each track begins with its first call, after its first timestamp.
    check_eval "tracks start in their source's order: $(echo "$out" | tr '\n' ' ')" \
        "[ \"\$(echo \"\$out\" | sort -k2 -n | cut -d' ' -f1 | tr '\n' ' ')\" = '0x10 0x12 0x11 0x13 ' ]"
else
    bad "timeline: $out"
fi
check "timeline: the unit said" "$(grep -c '"time":"timestamp ticks"' "$tmp/tl.json")" 5
"$PFT" timeline --snapshot "$S" --ts-clock 25MHz --quiet >"$tmp/tl25.json"
if out=$(python3 "$check" spans "$tmp/tl25.json" "$tmp/merged" 25e6); then ok; else bad "timeline at 25 MHz: $out"; fi
check "timeline at 25 MHz: the unit said" "$(grep -c '"time":"timestamps at 25000000 Hz"' "$tmp/tl25.json")" 5

# Mistakes.
expect_error 2 "--merge-window goes with --merge" "$PFT" decode --snapshot "$S" --merge-window 10
expect_error 2 "--merge-window: '0' is not a number of items" "$PFT" decode --snapshot "$S" --merge --merge-window 0
expect_error 2 "ts-clock" "$PFT" decode --snapshot "$S" --ts-clock 1MHz
expect_error 2 "--ts-clock goes with pft timeline" "$PFT" calls --snapshot "$S" --ts-clock 1MHz
expect_error 2 "--ts-clock" "$PFT" timeline --snapshot "$S" --ts-clock fast

summary
