#!/bin/bash
# Round trip through real ARM programs: C programs built for ARM and Thumb
# and run under qemu-user, encoded by pft encode under many PTM
# configurations, must decode (pft decode, and OpenCSD's trc_pkt_lister)
# to exactly the instructions qemu executed.  roundtrip.py has the details.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
: "${PFT:?}"
for tool in arm-linux-gnueabihf-gcc arm-linux-gnueabihf-nm qemu-arm trc_pkt_lister python3; do
    command -v "$tool" >/dev/null || { echo "missing tool: $tool"; exit 1; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# Programs x configurations, against qemu and OpenCSD (see roundtrip.py).
if python3 "$here/roundtrip.py" suite "$PFT"; then ok; else bad "round trips"; fi

# The other outputs carry the same stream: raw bytes, and frames with
# another trace ID, decode to the same elements as the snapshot (each with
# the ELF: JSON ranges name their function from its symbols).
bin=$tmp/switch.thumb
arm-linux-gnueabihf-gcc -static -O1 -mthumb -o "$bin" "$here/progs/switch.c"
qemu-arm -singlestep -d exec,nochain -D "$bin.log" "$bin" >/dev/null
"$PFT" encode --log "$bin.log" --elf "$bin" --return-stack --out-raw "$tmp/t.raw" \
    --out-formatted "$tmp/t.fmt" --id 0x2b --out-snapshot "$tmp/t.ss"
"$PFT" decode --snapshot "$tmp/t.ss" --elf "$bin" --format jsonl | cut -d, -f3- >"$tmp/t.ss.jsonl"
"$PFT" decode --raw "$tmp/t.raw" --return-stack --elf "$bin" --format jsonl |
    cut -d, -f3- >"$tmp/t.raw.jsonl"
"$PFT" decode --formatted "$tmp/t.fmt" --id 0x2b --return-stack --elf "$bin" --format jsonl |
    cut -d, -f3- >"$tmp/t.fmt.jsonl"
if [ -s "$tmp/t.ss.jsonl" ] && cmp -s "$tmp/t.ss.jsonl" "$tmp/t.raw.jsonl" &&
   cmp -s "$tmp/t.ss.jsonl" "$tmp/t.fmt.jsonl"; then
    ok
else
    bad "raw, formatted and snapshot outputs decode differently"
fi

summary
