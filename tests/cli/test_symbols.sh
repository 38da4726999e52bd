#!/bin/bash
# Images as users have them (issue 9):
#  - --symbols FILE (an ELF, a System.map, a /proc/kallsyms listing) names
#    the code as --elf does, but its bytes are not code: without an image,
#    the flow stops at the first address as it does with no file at all;
#  - an ELF that overlaps a snapshot's memory: the snapshot's bytes are the
#    code, the ELF gives the names, and one line says where they differ.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
PFT=${PFT:-build/pft}
SRC=${PFT_SOURCE:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
NM=$(command -v arm-linux-gnueabihf-nm || command -v nm)

demo=$SRC/examples/demo
# A System.map as the kernel's build makes it: nm's listing, sorted.
"$NM" -n "$demo/prog" >"$tmp/System.map"
# A kallsyms listing: the same symbols with a module name after a tab.
awk '{ printf "%s %s %s\t[demo]\n", $1, $2, $3 }' "$tmp/System.map" >"$tmp/kallsyms"

names() { grep -o '<[^>]*>' | md5sum; }
want=$("$PFT" decode --snapshot "$demo" --elf "$demo/prog" --insn | names)
check "the ELF names the instructions" "$("$PFT" decode --snapshot "$demo" --elf "$demo/prog" --insn | grep -c '<_start+0x4>')" 1
for f in "$tmp/System.map" "$tmp/kallsyms" "$demo/prog"; do
    got=$("$PFT" decode --snapshot "$demo" --symbols "$f" --insn | names)
    check "--symbols $(basename "$f"): the names of --elf" "$got" "$want"
done
# The views name the functions alike (their order among equal counts aside).
want=$("$PFT" profile --snapshot "$demo" --elf "$demo/prog" | sort | md5sum)
got=$("$PFT" profile --snapshot "$demo" --symbols "$tmp/System.map" | sort | md5sum)
check "profile --symbols: the functions of --elf" "$got" "$want"

# Without an image, the symbols give no code: the listing is the one
# without any file (an addr_nacc where the code starts).
want=$("$PFT" decode --formatted "$demo/trace.bin" --format jsonl 2>/dev/null)
got=$("$PFT" decode --formatted "$demo/trace.bin" --symbols "$tmp/System.map" --format jsonl 2>/dev/null)
check "--symbols alone: no code" "$got" "$want"
first=$(jq -r 'select(.type=="addr_nacc") | .addr' <<<"$got" | head -1)
check "--symbols alone: addr_nacc at _start first" "$((first))" $((0x100f8))

# Files that are not symbol listings: exit 2, one line naming the file.
printf 'c0008000 T %05000d\n' 0 >"$tmp/long.map"
head -c 4096 "$demo/mem_0.bin" >"$tmp/binary.map"
printf '00000000 T a\n00000000 t b\n' >"$tmp/hidden.map"
printf '00010000 D data_only\n' >"$tmp/data.map"
for f in long binary hidden data; do
    "$PFT" decode --snapshot "$demo" --symbols "$tmp/$f.map" >/dev/null 2>"$tmp/err"
    check "--symbols $f.map: exit" $? 2
    check "--symbols $f.map: one line naming it" "$(grep -c "^pft: $tmp/$f.map\(:[0-9]*\)\?: " "$tmp/err")" 1
done
# A long System.map with one bad line: the line is named (issue 29, item 10).
awk 'BEGIN { for (i = 0; i < 200000; i++) printf "%08x T f%d\n", 0xc0008000 + 4 * i, i;
             print "c0ffee00 T two words" }' >"$tmp/oneline.map"
"$PFT" decode --snapshot "$demo" --symbols "$tmp/oneline.map" >/dev/null 2>"$tmp/err"
check "--symbols: a bad line, named" "$(cat "$tmp/err")" \
    "pft: $tmp/oneline.map:200001: not \"ADDR TYPE NAME [module]\": no symbol listing (System.map, kallsyms)"
check "--symbols: every address 0" "$("$PFT" decode --snapshot "$demo" --symbols "$tmp/hidden.map" 2>&1 >/dev/null)" \
    "pft: $tmp/hidden.map: every address is 0 (kallsyms read without the right to see addresses: read it as root)"

# An ELF over a snapshot whose memory was patched in three bytes (a live
# kernel patches its text): `sub sp, sp, #0x40` at 0x100fc (the second
# instruction of _start) becomes `sub sp, sp, #0x44`, and two bytes of the
# literal data past the code change.
ss=$tmp/ss
cp -r "$demo" "$ss"
chmod -R u+w "$ss"
python3 - "$ss/mem_0.bin" <<'EOF'
import sys
path = sys.argv[1]
b = bytearray(open(path, "rb").read())
assert b[0xfc:0x100] == bytes.fromhex("40d04de2")   # e24dd040, little-endian
b[0xfc] = 0x44
b[0x210] ^= 0xff
b[0x211] ^= 0xff
open(path, "wb").write(b)
EOF
out=$("$PFT" decode --snapshot "$ss" --elf "$demo/prog" --insn 2>"$tmp/err")
check "patched snapshot: exit" $? 0
check "patched snapshot: one line on the differences" "$(cat "$tmp/err")" \
    "pft: $demo/prog: 3 of the 536 bytes it shares with the snapshot's memory differ, the first at 0x000100fc: the snapshot's bytes are used as code"
check "patched snapshot: the snapshot's instruction" "$(grep -c '0x000100fc  sub      sp, sp, #0x44 .*<_start+0x4>' <<<"$out")" 1
# The same ELF over the original memory: no line.
"$PFT" decode --snapshot "$demo" --elf "$demo/prog" >/dev/null 2>"$tmp/err"
check "unpatched snapshot: nothing said" "$(wc -c <"$tmp/err")" 0

summary
