#!/bin/bash
# Before the first I-sync a branch address gives only its low bits and no
# instruction set (issue 9): pft dump says so instead of a full address with
# a guessed isa.  Hand-built PTM bytes (pft-protocol.md 4.2); each expected
# address is worked out below.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
PFT=${PFT:-build/pft}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A-sync; branch 21 (one byte: bits 6:1 = 0x10, ARM places them at
# A[7:2]: 0x40, 8 bits known); branch a1 05 (two bytes: 0x10 << 2 | 0x05 << 8
# = 0x540, 14 bits); branch 23 (0x11 << 2 = 0x44 over 0x540: 0x544, still
# 14 bits known); I-sync at 0x8000, ARM; branch 21 again: 0x8040, full.
printf '\x00\x00\x00\x00\x00\x80\x21\xa1\x05\x23\x08\x00\x80\x00\x00\x00\x21' >"$tmp/pre.bin"
out=$("$PFT" dump --raw "$tmp/pre.bin" --ctxid-bytes 0 --format jsonl)
check "dump exit" $? 0
sel() { jq -c "select(.offset==$1) | [.addr, .addr_bits, .isa]" <<<"$out"; }
check "one byte before I-sync" "$(sel 6)" '["0x40",8,null]'
check "two bytes before I-sync" "$(sel 7)" '["0x540",14,null]'
check "bits known stay known" "$(sel 9)" '["0x544",14,null]'
check "after the I-sync: full, ARM" "$(sel 16)" '["0x8040",null,"arm"]'
text=$("$PFT" dump --raw "$tmp/pre.bin" --ctxid-bytes 0)
check "text before I-sync" "$(grep -c 'branch addr=0x40(low 8 bits) isa=unknown$' <<<"$text")" 1
check "text after I-sync" "$(grep -c 'branch addr=0x8040 isa=arm$' <<<"$text")" 1

# A full five-byte address before any I-sync is known whole: 81 80 80 80
# then AB4 0x01 (ARM: bit 0 of AB4 is A[29]) is 0x20000000, ARM (AB4 bits
# 5:4 = 0).
printf '\x00\x00\x00\x00\x00\x80\x81\x80\x80\x80\x01\x21' >"$tmp/full.bin"
out=$("$PFT" dump --raw "$tmp/full.bin" --ctxid-bytes 0 --format jsonl)
check "full address before I-sync" "$(sel 6)" '["0x20000000",null,"arm"]'
# ... and makes the next compressed one full too.
check "compressed after a full one" "$(sel 11)" '["0x20000040",null,"arm"]'

summary
