#!/bin/bash
# A trace nesting more than 2^20 calls (issue 29, item 9): a function that
# calls itself 1 100 000 times.  profile and folded stacks count what fits
# their tables, write it, say what was merged, and exit 1; before, they
# wrote nothing ("not supported", exit 2).  coverage keeps no calling
# contexts (issue 31): it counts all, and exits 0.  Folded stacks stop
# paths at 256 frames ("[deeper]"): a context per level would otherwise
# print 10^12 frames.  (Outputs are limited to 100 MB here all the same.)
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
: "${PFT:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ulimit -f 200000

# 0x8000: bl 0x8000 (ARM), each instruction a call of itself.
printf '\xfe\xff\xff\xeb' >"$tmp/rec.bin"
python3 -c "import sys; sys.stdout.write('8000\n' * 1100000)" >"$tmp/rec.log"
"$PFT" encode --log "$tmp/rec.log" --image "$tmp/rec.bin@0x8000" --out-raw "$tmp/rec.raw" --quiet ||
    bad "pft encode"
img=(--image "$tmp/rec.bin@0x8000")

rc=0
"$PFT" profile --raw "$tmp/rec.raw" "${img[@]}" >"$tmp/profile" 2>"$tmp/err" || rc=$?
check "profile: exit 1" "$rc" 1
check "profile: what was merged, said" "$(grep -v detected "$tmp/err")" \
    "pft: profile: the trace nests deeper than 1048576 calling contexts: those past it of 1 function are merged, one a function, with no callers"
rc=0
"$PFT" coverage --raw "$tmp/rec.raw" "${img[@]}" >"$tmp/coverage" 2>"$tmp/err" || rc=$?
check "coverage: exit 0" "$rc" 0
check "coverage: nothing merged" "$(grep -v detected "$tmp/err")" ""
# In pieces, the workers' stacks past the calls stack's limit of 65536:
# the frames they make it forget.
PFT_PIECE_SIZE=16384 "$PFT" coverage --raw "$tmp/rec.raw" "${img[@]}" -j 2 >"$tmp/coverage2" \
    2>"$tmp/err2" || bad "coverage -j 2"
check_eval "coverage -j 2: in pieces, folded" 'grep -Eq "parallel decode: [0-9]{2,} pieces.* [1-9][0-9]* folded" "$tmp/err2"'
check_eval "coverage -j 2: as -j 1" 'cmp -s "$tmp/coverage" "$tmp/coverage2"'
# Every instruction decoded (all but the last, which no waypoint follows)
# counts, in the function and per instruction.
check_eval "profile: every instruction counted" \
    'grep -Eq "^ +1099999 +1099999 " "$tmp/profile"'
check_eval "coverage: the instruction executed" 'grep -q "1099999" "$tmp/coverage"'
"$PFT" profile --raw "$tmp/rec.raw" "${img[@]}" --format folded >"$tmp/folded" 2>/dev/null
check "folded: one line per depth up to 256, the deeper ones, the merged ones" \
    "$(wc -l <"$tmp/folded")" 258
check "folded: the merged contexts, marked" "$(grep -c '^\[deeper contexts\];' "$tmp/folded")" 1
check "folded: paths of at most 256 frames" \
    "$(awk -F';' '{ if (NF > n) n = NF } END { print n }' "$tmp/folded")" 257
check "folded: the instructions add up" "$(awk '{ n += $NF } END { print n }' "$tmp/folded")" 1099999
summary
