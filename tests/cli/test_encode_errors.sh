#!/bin/bash
# pft encode / pft stats on bad input: each case must exit 2 with exactly
# one line on stderr, naming the log and the line the problem is on.
# Nothing may crash (the test build has ASan/UBSan).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
: "${PFT:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# expect CODE PATTERN -- ARGS: run pft ARGS, check exit code, one stderr
# line, and that it matches the extended regex PATTERN.
expect() {
    local code=$1 pattern=$2; shift 3
    expect_error "$code" "$pattern" "$PFT" "$@"
}

# A 12-byte ARM program at 0x8000 (little-endian words):
#   0x8000 e1a00000  mov r0, r0
#   0x8004 eafffffd  b 0x8000      (imm24 = (0x8000 - 0x800c) / 4 = -3)
#   0x8008 e12fff1e  bx lr
printf '\x00\x00\xa0\xe1\xfd\xff\xff\xea\x1e\xff\x2f\xe1' >"$tmp/prog.bin"
img=(--image "$tmp/prog.bin@0x8000")
log() { printf "$2" >"$tmp/$1.log"; }

# Logs the model accepts: the loop, then a return to memory outside the
# image (like qemu-user's kernel helpers), then back.
log good '8000\n8004\n8000\n8004\n8008\nffff0fe0\n8000 3  # with a cycle count\n'
"$PFT" encode --log "$tmp/good.log" "${img[@]}" --out-raw "$tmp/good.raw" 2>"$tmp/err"
if [ $? -eq 0 ] && [ -s "$tmp/good.raw" ] &&
   [ "$(cat "$tmp/err")" = "pft: encode: 7 instructions, 6 packets: $tmp/good.raw ($(wc -c <"$tmp/good.raw") bytes)" ]; then
    ok
else
    bad "a good log is refused: $(cat "$tmp/err")"
fi

# Impossible flows, with the line of the address that cannot come next.
log flow1 '8000\n8008\n'
expect 2 "^pft: $tmp/flow1.log:2: 0x00008008 cannot follow 0x00008000: the PC changed after an instruction that cannot branch$" \
    -- encode --log "$tmp/flow1.log" "${img[@]}" --out-raw "$tmp/x.raw"
log flow2 '\n# comment\n8000\n8004\n8000\n8004\n800c\n'
expect 2 "^pft: $tmp/flow2.log:7: 0x0000800c cannot follow 0x00008004: a direct branch went neither to its target nor to the next instruction$" \
    -- encode --log "$tmp/flow2.log" "${img[@]}" --out-raw "$tmp/x.raw"
log flow3 '8000\n8005\n'
expect 2 "^pft: $tmp/flow3.log:2: 0x00008004 cannot follow 0x00008000: the instruction set changed where it cannot$" \
    -- stats --log "$tmp/flow3.log" "${img[@]}"
# Addresses outside the image: at the start, or not reached by a branch.
log nomap1 '9000\n'
expect 2 "^pft: $tmp/nomap1.log:1: 0x00009000 is not in the image$" \
    -- encode --log "$tmp/nomap1.log" "${img[@]}" --out-raw "$tmp/x.raw"
printf '\x00\x00\xa0\xe1' >"$tmp/nop.bin"
log nomap2 '8000\n8004\n'
expect 2 "^pft: $tmp/nomap2.log:2: 0x00008004 is not in the image \(and no branch leads there\)$" \
    -- encode --log "$tmp/nomap2.log" --image "$tmp/nop.bin@0x8000" --out-raw "$tmp/x.raw"
# Lines that are not addresses.
log text '8000\n8004\nhello\n'
expect 2 "^pft: $tmp/text.log:3: not a hexadecimal address$" \
    -- encode --log "$tmp/text.log" "${img[@]}" --out-raw "$tmp/x.raw"
log cycles '8000 12\n8004 x\n'
expect 2 "^pft: $tmp/cycles.log:2: not a hexadecimal address \(and cycle count\)$" \
    -- encode --log "$tmp/cycles.log" "${img[@]}" --out-raw "$tmp/x.raw"
log big '8000\n1ffffffff\n'
expect 2 "^pft: $tmp/big.log:2: not a hexadecimal address$" \
    -- encode --log "$tmp/big.log" "${img[@]}" --out-raw "$tmp/x.raw"
log empty '\n# nothing\n'
expect 2 "^pft: $tmp/empty.log: no instruction in the log$" \
    -- encode --log "$tmp/empty.log" "${img[@]}" --out-raw "$tmp/x.raw"
# qemu logs: a malformed exec line, a foreign line.
log qemu1 'Trace 0: 0x7f00 [00000480/00008000/00000000/00000201] \nTrace 0: 0x7f40 [00000480/0000zz04/00000000/00000201] \n'
expect 2 "^pft: $tmp/qemu1.log:2: qemu exec line: bad \[...\] fields$" \
    -- encode --log "$tmp/qemu1.log" "${img[@]}" --out-raw "$tmp/x.raw"
log qemu2 'Trace 0: 0x7f00 [00000480/00008000/00000000/00000201] \n8004\n'
expect 2 "^pft: $tmp/qemu2.log:2: not a qemu -d exec line \(Trace ...\)$" \
    -- encode --log "$tmp/qemu2.log" "${img[@]}" --out-raw "$tmp/x.raw"
# A Thumb flag (bit 23 of the first field) where the code is ARM.
log qemu3 'Trace 0: 0x7f00 [00000480/00008000/00000000/00000201] \nTrace 0: 0x7f40 [00800480/00008004/00000000/00000201] \n'
expect 2 "^pft: $tmp/qemu3.log:2: 0x00008004 cannot follow 0x00008000: the instruction set changed where it cannot$" \
    -- encode --log "$tmp/qemu3.log" "${img[@]}" --out-raw "$tmp/x.raw"

# A block qemu logged but did not start ("Stopped execution of TB chain")
# is dropped: the log below encodes exactly like the plain 8000 8004 8000.
log stopped 'Trace 0: 0x7f00 [00000480/00008000/00000000/00000201] \nTrace 0: 0x7f40 [00000480/00008004/00000000/00000201] \nStopped execution of TB chain before 0x7f40 [00008004] \nTrace 0: 0x7f40 [00000480/00008004/00000000/00000201] \nTrace 0: 0x7f00 [00000480/00008000/00000000/00000201] \n'
log plain '8000\n8004\n8000\n'
"$PFT" encode --log "$tmp/stopped.log" "${img[@]}" --out-raw "$tmp/a.raw"
"$PFT" encode --log "$tmp/plain.log" "${img[@]}" --out-raw "$tmp/b.raw"
if [ -s "$tmp/a.raw" ] && cmp -s "$tmp/a.raw" "$tmp/b.raw"; then
    ok
else
    bad "the stopped block was not dropped"
fi

# A snapshot's memory dumps and the image they were taken from, given
# again to decode: the identical dump is left out; a differing one is an
# overlap.
"$PFT" encode --log "$tmp/good.log" "${img[@]}" --out-snapshot "$tmp/ss" &&
"$PFT" decode --snapshot "$tmp/ss" "${img[@]}" --format jsonl >"$tmp/with.jsonl" &&
"$PFT" decode --snapshot "$tmp/ss" --format jsonl >"$tmp/without.jsonl"
if [ $? -eq 0 ] && grep -q '"range"' "$tmp/with.jsonl" && cmp -s "$tmp/with.jsonl" "$tmp/without.jsonl"; then
    ok
else
    bad "decode --snapshot with the same image"
fi
printf '\x01' | dd of="$tmp/ss/mem_0.bin" bs=1 seek=4 conv=notrunc 2>/dev/null
expect 2 "^pft: $tmp/prog.bin overlaps $tmp/ss/mem_0.bin \(at 0x00008000\)$" \
    -- decode --snapshot "$tmp/ss" "${img[@]}"

# Options.
expect 2 "^pft: encode: no log: give --log FILE$" -- encode "${img[@]}" --out-raw "$tmp/x.raw"
expect 2 "^pft: encode: no program image" -- encode --log "$tmp/good.log" --out-raw "$tmp/x.raw"
expect 2 "^pft: encode: no output" -- encode --log "$tmp/good.log" "${img[@]}"
expect 2 "^pft: $tmp/missing.log: No such file or directory$" \
    -- encode --log "$tmp/missing.log" "${img[@]}" --out-raw "$tmp/x.raw"
expect 2 "^pft: $tmp/missing.bin: No such file or directory$" \
    -- encode --log "$tmp/good.log" --image "$tmp/missing.bin@0x8000" --out-raw "$tmp/x.raw"
expect 2 "^pft: --filter: '0x9000' is not START-END" \
    -- encode --log "$tmp/good.log" "${img[@]}" --out-raw "$tmp/x.raw" --filter 0x9000
expect 2 "^pft: --filter: '0x9000-0x8000' is empty" \
    -- encode --log "$tmp/good.log" "${img[@]}" --out-raw "$tmp/x.raw" --filter 0x9000-0x8000
expect 2 "^pft: --sync-period: '0' is not a number above 0$" \
    -- encode --log "$tmp/good.log" "${img[@]}" --out-raw "$tmp/x.raw" --sync-period 0
expect 2 "^pft: --vmid needs --pft-version 1.1" \
    -- encode --log "$tmp/good.log" "${img[@]}" --out-raw "$tmp/x.raw" --vmid --pft-version 1.0
expect 2 "^pft: --return-stack and --branch-broadcast do not go together$" \
    -- stats --log "$tmp/good.log" "${img[@]}" --return-stack --branch-broadcast
expect 2 "^pft: --ctxid-bytes: '3' is not 0, 1, 2 or 4$" \
    -- encode --log "$tmp/good.log" "${img[@]}" --out-raw "$tmp/x.raw" --ctxid-bytes 3
expect 2 "^pft: --id: '0x70' is not a trace ID" \
    -- encode --log "$tmp/good.log" "${img[@]}" --out-formatted "$tmp/x.fmt" --id 0x70
expect 2 "^pft: encode: unknown option '--bogus'" \
    -- encode --log "$tmp/good.log" "${img[@]}" --out-raw "$tmp/x.raw" --bogus
expect 2 "^pft: --tpiu goes with --out-formatted$" \
    -- encode --log "$tmp/good.log" "${img[@]}" --out-raw "$tmp/x.raw" --tpiu
expect 2 "^pft: $tmp/nodir/x.raw: No such file or directory$" \
    -- encode --log "$tmp/good.log" "${img[@]}" --out-raw "$tmp/nodir/x.raw"

# Outputs never overwrite inputs (issue 29, item 7): the log, an image, a
# snapshot directory holding one; a snapshot into a non-empty directory
# only with --force.
cp "$tmp/good.log" "$tmp/keep.log"; cp "$tmp/prog.bin" "$tmp/keep.bin"
expect 2 "^pft: $tmp/keep.log: cannot create: it is an input of this command \(it would be overwritten\)$" \
    -- encode --log "$tmp/keep.log" "${img[@]}" --out-raw "$tmp/keep.log"
expect 2 "^pft: $tmp/keep.bin: cannot create: it is an input of this command" \
    -- encode --log "$tmp/good.log" --image "$tmp/keep.bin@0x8000" --out-perf "$tmp/keep.bin"
expect 2 "^pft: $tmp/keep.bin: cannot create: it is an input of this command" \
    -- encode --log "$tmp/good.log" --image "$tmp/keep.bin@0x8000" --out-formatted "$tmp/keep.bin"
check "the inputs are intact" "$(cmp "$tmp/good.log" "$tmp/keep.log" && cmp "$tmp/prog.bin" "$tmp/keep.bin" && echo yes)" yes
mkdir "$tmp/full"; cp "$tmp/good.log" "$tmp/full/"
expect 2 "^pft: $tmp/full: cannot create: the directory is not empty \(--force writes into it\)$" \
    -- encode --log "$tmp/good.log" "${img[@]}" --out-snapshot "$tmp/full"
expect 2 "^pft: $tmp/full: cannot create: it holds an input of this command" \
    -- encode --log "$tmp/full/good.log" "${img[@]}" --out-snapshot "$tmp/full" --force
expect_status "--force: a snapshot into a directory with other files" 0 \
    "$PFT" encode --log "$tmp/good.log" "${img[@]}" --out-snapshot "$tmp/full" --force --quiet
"$PFT" encode --log "$tmp/good.log" "${img[@]}" --out-snapshot "$tmp/fresh" --quiet
check "--force: the snapshot is the one a new directory gets" \
    "$("$PFT" decode --snapshot "$tmp/full" --count 2>&1)" "$("$PFT" decode --snapshot "$tmp/fresh" --count 2>&1)"

summary
