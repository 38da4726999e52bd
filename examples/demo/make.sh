#!/bin/sh
# Rebuild the example: compile demo.c (ARM) and demo_thumb.c (Thumb) without
# a C library, run the program under qemu-user logging every instruction,
# and encode the log as a PTM would trace it (return stack on, cycle-
# accurate, one cycle per instruction) into this directory as an OpenCSD
# snapshot.  Usage: sh examples/demo/make.sh [PFT]  (default build/pft)
set -e
here=$(cd "$(dirname "$0")" && pwd)
pft=${1:-build/pft}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cc="arm-linux-gnueabihf-gcc -O1 -ffreestanding -fno-stack-protector -fno-pic"
$cc -marm -c -o "$tmp/demo.o" "$here/demo.c"
$cc -mthumb -c -o "$tmp/demo_thumb.o" "$here/demo_thumb.c"
$cc -static -nostdlib -Wl,--build-id=none -o "$here/prog" "$tmp/demo.o" "$tmp/demo_thumb.o"
qemu-arm -singlestep -d exec,nochain -D "$tmp/exec.log" "$here/prog"
rm -f "$here"/*.ini "$here"/*.bin
"$pft" encode --log "$tmp/exec.log" --elf "$here/prog" --return-stack --cycle-accurate \
    --out-snapshot "$here"
