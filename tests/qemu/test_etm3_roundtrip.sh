#!/bin/bash
# Round trip through real ARM programs for ETMv3: four programs of
# test_roundtrip.sh, encoded by `pft encode --protocol etmv3` under the
# ETMv3 configurations of roundtrip.py (plain, cycle-accurate, context ID,
# timestamps, filters, VMID, branch broadcast), must decode to exactly the
# instructions qemu executed, by pft decode --insn and by OpenCSD; and with
# qemu's flags, the atoms are E and N as the conditions say.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
: "${PFT:?}"
for tool in arm-linux-gnueabihf-gcc arm-linux-gnueabihf-nm qemu-arm trc_pkt_lister python3; do
    command -v "$tool" >/dev/null || { echo "missing tool: $tool"; exit 1; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

if python3 "$here/roundtrip.py" suite "$PFT" etmv3; then ok; else bad "ETMv3 round trips"; fi

# The raw output is the stream the snapshot holds (its packets' bytes as
# pft dump lists them), and the formatted output is its trace buffer.
bin=$tmp/switch.thumb
arm-linux-gnueabihf-gcc -static -O1 -mthumb -o "$bin" "$here/progs/switch.c"
qemu-arm -singlestep -d exec,nochain -D "$bin.log" "$bin" >/dev/null
"$PFT" encode --protocol etmv3 --log "$bin.log" --elf "$bin" --cycle-accurate --timestamps \
    --out-raw "$tmp/t.raw" --out-formatted "$tmp/t.fmt" --out-snapshot "$tmp/t.ss"
"$PFT" dump --snapshot "$tmp/t.ss" --format jsonl |
    python3 -c 'import json, sys
sys.stdout.buffer.write(b"".join(bytes.fromhex(json.loads(l)["bytes"]) for l in sys.stdin))' \
    >"$tmp/t.dumped"
if [ -s "$tmp/t.raw" ] && cmp -s "$tmp/t.raw" "$tmp/t.dumped" &&
   cmp -s "$tmp/t.fmt" "$tmp/t.ss/trace.bin"; then
    ok
else
    bad "raw or formatted output is not the snapshot's stream"
fi

# The snapshot names an ETMv3.5, and pft info reads it as one.
if grep -q '^type=ETM3.5$' "$tmp/t.ss/etm_0.ini" &&
   "$PFT" info --snapshot "$tmp/t.ss" --format jsonl | grep -q '"protocol":"etmv3"'; then
    ok
else
    bad "the snapshot does not describe an ETMv3 source"
fi

# Options ETMv3 does not have are refused.
if "$PFT" encode --protocol etmv3 --return-stack --log "$bin.log" --elf "$bin" \
       --out-raw "$tmp/x" 2>"$tmp/err"; then
    bad "--protocol etmv3 --return-stack accepted"
elif grep -q "return stack" "$tmp/err"; then ok; else bad "no reason for refusing --return-stack"; fi

summary
