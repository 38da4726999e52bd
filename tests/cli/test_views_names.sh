#!/bin/bash
# Two functions of one name (tests/views/progs/twins: a static helper in
# a.c, entered 3 times, and one in b.c, entered twice; the counts are the
# program's loops) are told apart in pft calls, coverage and profile:
# "helper (a.c)" with DWARF (each file from binutils' addr2line),
# "helper@0x..." with symbols only (each address from binutils' nm); in JSON lines
# the name stays "helper" and a label field says which.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
: "${PFT:?}" "${PFT_SOURCE:?}"
for tool in arm-linux-gnueabihf-gcc arm-linux-gnueabihf-nm arm-linux-gnueabihf-addr2line \
            qemu-arm jq; do
    command -v "$tool" >/dev/null || { echo "missing tool: $tool"; exit 1; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

src=$PFT_SOURCE/tests/views/progs/twins
bin=$tmp/twins
arm-linux-gnueabihf-gcc -static -g -O1 -o "$bin" "$src/a.c" "$src/b.c" &&
(cd "$tmp" && qemu-arm -singlestep -d exec,nochain -D "$bin.log" "$bin"; [ $? -le 1 ]) &&
"$PFT" encode --log "$bin.log" --elf "$bin" --out-snapshot "$tmp/ss" >/dev/null ||
    { bad "cannot build, run or encode twins"; summary; }

# The two helpers: their addresses (Thumb bit clear) and files.
mapfile -t addrs < <(arm-linux-gnueabihf-nm "$bin" | awk '$3 == "helper" { print $1 }' | sort)
check_eval "nm lists two helpers" "[ ${#addrs[@]} -eq 2 ]"
[ ${#addrs[@]} -eq 2 ] || summary
declare -A label hexlabel entries
for a in "${addrs[@]}"; do
    a=$(printf '%08x' $((0x$a & ~1)))
    file=$(arm-linux-gnueabihf-addr2line -e "$bin" "0x$a" | sed 's/:.*//; s|.*/||')
    label[$a]="helper ($file)"
    hexlabel[$a]="helper@0x$a"
    entries[$a]=$([ "$file" = a.c ] && echo 3 || echo 2)
done
check_eval "addr2line puts them in a.c and b.c" \
      "[ \"$(printf '%s\n' "${label[@]}" | sort | tr '\n' ,)\" = 'helper (a.c),helper (b.c),' ]"

in=(--snapshot "$tmp/ss" --elf "$bin")
"$PFT" calls "${in[@]}" >"$tmp/calls.txt"
"$PFT" calls "${in[@]}" --format jsonl >"$tmp/calls.jsonl"
"$PFT" coverage "${in[@]}" >"$tmp/cov.txt"
"$PFT" coverage "${in[@]}" --format jsonl >"$tmp/cov.jsonl"
"$PFT" profile "${in[@]}" >"$tmp/prof.txt"
"$PFT" profile "${in[@]}" --format jsonl >"$tmp/prof.jsonl"
# Symbols only: no DWARF, so no files.
"$PFT" coverage --snapshot "$tmp/ss" --symbols "$bin" >"$tmp/cov-sym.txt"
"$PFT" calls --snapshot "$tmp/ss" --symbols "$bin" >"$tmp/calls-sym.txt"

# Calls (text) to label $2 that are "call" events: $1 of them.
calls_to() { [ "$(grep -F -- "-> $2" "$3" | grep -c '  call ')" -eq "$1" ]; }
# A listing's line for the function at $1 (0x...): "COUNT ... 0xADDR  LABEL",
# the count in field $4 of awk's split.
listed() { # file addr label column count
    awk -v a="$2" -v l="$3" -v c="$4" -v n="$5" '
        { i = index($0, a "  " l); if (i && (substr($0, i + length(a l) + 2, 1) ~ /^( |)$/) &&
          $c == n) found = 1 } END { exit !found }' "$1"
}
for a in "${!label[@]}"; do
    l=${label[$a]} h=${hexlabel[$a]} n=${entries[$a]}
    x=0x$(printf %x $((16#$a)))
    check_eval "calls: $n calls of $l" "calls_to $n '$l' '$tmp/calls.txt'"
    check_eval "calls --format jsonl: $n calls to $x named helper, labelled $l" \
          "[ \"\$(jq -c --arg x $x --arg l '$l' 'select(.kind == \"call\" and .callee_addr == \$x
              and .callee == \"helper\" and .callee_label == \$l)' '$tmp/calls.jsonl' | wc -l)\" -eq $n ]"
    check_eval "coverage: $l at 0x$a entered $n times" "listed '$tmp/cov.txt' 0x$a '$l' 1 $n"
    check_eval "coverage --format jsonl: helper at 0x$a has label $l" \
          "[ \"\$(jq -r 'select(.type == \"function\" and .start == \"0x$a\") |
                 .name + \"|\" + .label' '$tmp/cov.jsonl')\" = 'helper|$l' ]"
    check_eval "profile: $l entered $n times" "listed '$tmp/prof.txt' 0x$a '$l' 4 $n"
    check_eval "profile --format jsonl: its label $l, entered $n" \
          "[ \"\$(jq -r 'select(.type == \"function\" and .start == \"0x$a\") |
                 .label + \"|\" + (.entered | tostring)' '$tmp/prof.jsonl')\" = '$l|$n' ]"
    check_eval "symbols only: coverage names it $h" "listed '$tmp/cov-sym.txt' 0x$a '$h' 1 $n"
    check_eval "symbols only: calls name it $h ($n calls)" "calls_to $n '$h' '$tmp/calls-sym.txt'"
done
check_eval "no bare helper left in the text listings" \
      "! sed 's/helper (\(a\|b\)\.c)//g; s/helper@0x[0-9a-f]\{8\}//g' \
           '$tmp/calls.txt' '$tmp/cov.txt' '$tmp/prof.txt' '$tmp/calls-sym.txt' '$tmp/cov-sym.txt' |
         grep -qw helper"
check_eval "a name no other function has gets no label (b_entry, main)" \
      "grep -q ' main -> b_entry$' '$tmp/calls.txt' &&
       [ \"\$(jq -c 'select(.name == \"b_entry\" or .name == \"main\") | has(\"label\")' \
             '$tmp/cov.jsonl' | sort -u)\" = false ]"
check_eval "profile --format jsonl: the calls to each helper carry its label" \
      "[ \"\$(jq -r 'select(.type == \"call\" and .callee == \"helper\") | .callee_label' \
             '$tmp/prof.jsonl' | sort | tr '\n' ,)\" = 'helper (a.c),helper (b.c),' ]"

summary
