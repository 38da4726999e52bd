#!/bin/bash
# Instruction-level views (pft annotate, callgrind positions, LLVM sample
# profiles, --function, coverage without symbols) against qemu: C programs
# for ARM and Thumb, with and without DWARF, run under qemu-user, encoded
# as PTM and as ETMv3 and checked by insn_check.py (its head says how).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
: "${PFT:?}"
for tool in arm-linux-gnueabihf-gcc arm-linux-gnueabihf-objdump arm-linux-gnueabihf-nm \
            arm-linux-gnueabihf-strip qemu-arm python3 callgrind_annotate llvm-profdata; do
    command -v "$tool" >/dev/null || { echo "missing tool: $tool"; exit 1; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# program:isa:optimisation:protocol:decode options (the encoder's too); a
# program's exit status is its own (twins exits 1): its log must be there
runs="views:thumb:-O2:ptm: loops:arm:-O1:ptm:--return-stack
      switch:thumb:-O1:ptm:--cycle-accurate recursion:arm:-O2:ptm:--branch-broadcast
      switch:thumb:-O1:etmv3: loops:arm:-O1:etmv3:--cycle-accurate
      fnptr:thumb:-O2:etmv3: twins:arm:-O1:ptm:"
for r in $runs; do
    IFS=: read -r name isa opt proto cfg <<<"$r"
    src=$here/progs/$name.c
    [ -f "$src" ] || src=$here/../qemu/progs/$name.c
    # twins: a static function of one name in each of two files
    [ "$name" = twins ] && src="$here/progs/twins/a.c $here/progs/twins/b.c"
    bin=$tmp/$name.$isa$opt.$proto
    flags=(-d exec,nochain)
    [ "$proto" = etmv3 ] && flags=(-d exec,nochain,cpu)
    # shellcheck disable=SC2086  # $src: one or two files
    if ! arm-linux-gnueabihf-gcc -static -g "$opt" -m$isa -o "$bin" $src ||
       ! { qemu-arm -singlestep "${flags[@]}" -D "$bin.log" "$bin" >/dev/null; [ -s "$bin.log" ]; } ||
       ! "$PFT" encode --protocol "$proto" --log "$bin.log" --elf "$bin" --out-raw "$bin.raw" \
             --out-snapshot "$bin.ss" $cfg 2>/dev/null; then
        bad "$name.$isa $proto [$cfg]: cannot build, run or encode it"
        continue
    fi
    if python3 "$here/insn_check.py" "$PFT" "$bin.log" "$bin" "$bin.raw" "$proto" $cfg; then
        ok
    else
        bad "$name.$isa $proto [$cfg]: instruction-level views differ from qemu"
    fi
done

summary
