#!/bin/bash
# --core NAME (cli.md "M-profile ETM"): the library's table of cores gives
# the protocol, the trace unit's registers and the profile, for every
# command that decodes or encodes.  What a core's trace unit lacks is a
# usage error naming the option; a core contradicting --protocol or --reg
# ETMIDR too.  Encoding with a core writes its registers and type into the
# snapshot (ETMIDR and ETMCCER from the core's TRM, etmv3-protocol.md 1:
# the M-profile ETMs have the alternative branch encoding, ETMIDR[20]), and
# each decode path reads that back: --core on a raw stream, the snapshot by
# itself.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
: "${PFT:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# Thumb at 0x100: movs r0, #1 / svc 0 / movs r1, #2; a handler at 0x200:
# movs r2, #3 / bx lr.  A plain log: the SVC (IPSR 11), its return.
python3 - "$tmp/m.bin" <<'PY'
import struct, sys
hw = {0x100: 0x2001, 0x102: 0xdf00, 0x104: 0x2102, 0x200: 0x2203, 0x202: 0x4770}
img = bytearray(0x204)
for a, h in hw.items():
    img[a:a + 2] = struct.pack("<H", h)
open(sys.argv[1], "wb").write(img)
PY
printf '%s\n' 101 103 "exception svcall" 201 203 "exception return" 105 >"$tmp/m.log"
img=(--image "$tmp/m.bin@0")
raw=(--raw "$tmp/m.raw")

expect_error 2 "^pft: --core: 'cortex-m7' is not a core pft knows \(cortex-a5, cortex-a7, cortex-a8, cortex-a9, cortex-a15, cortex-r4, cortex-r5, cortex-m3, cortex-m4\)$" \
    "$PFT" decode --raw "$tmp/m.log" --core cortex-m7
expect_error 2 "^pft: --cycle-accurate: the Cortex-M3's ETM has no cycle-accurate mode$" \
    "$PFT" encode --core cortex-m3 --cycle-accurate --log "$tmp/m.log" "${img[@]}" --out-raw "$tmp/x"
expect_error 2 "^pft: --timestamps: the Cortex-M3's ETM has no timestamps$" \
    "$PFT" decode "${raw[@]}" --core cortex-m3 --timestamps
expect_error 2 "^pft: --ctxid-bytes: the Cortex-M4's ETM has no context IDs$" \
    "$PFT" dump "${raw[@]}" --core cortex-m4 --ctxid-bytes 4
expect_error 2 "^pft: --return-stack: the Cortex-A7's ETM has no return stack$" \
    "$PFT" calls "${raw[@]}" --core cortex-a7 --return-stack
expect_error 2 "^pft: --vmid: the Cortex-A9's PTM has no VMID$" \
    "$PFT" decode "${raw[@]}" --core cortex-a9 --vmid
expect_error 2 "^pft: --pft-version 1.1: the Cortex-A9's PTM is PFT 1.0$" \
    "$PFT" decode "${raw[@]}" --core cortex-a9 --pft-version 1.1
expect_error 2 "^pft: --protocol ptm and --core cortex-m4 \(traced by an ETMv3\) disagree$" \
    "$PFT" decode "${raw[@]}" --core cortex-m4 --protocol ptm
expect_error 2 "^pft: --core cortex-m4 and --reg ETMIDR=0x411cf312 \(a PTM\) disagree$" \
    "$PFT" decode "${raw[@]}" --core cortex-m4 --reg ETMIDR=0x411CF312
expect_error 2 "^pft: --core does not go with --snapshot" \
    "$PFT" decode --snapshot "$tmp" --core cortex-m4

# Encoded for the Cortex-M4: its registers and type in the snapshot.
"$PFT" encode --quiet --core cortex-m4 --timestamps --log "$tmp/m.log" "${img[@]}" \
    --out-raw "$tmp/m.raw" --out-snapshot "$tmp/ss"
check "snapshot: the Cortex-M4's ETM" \
    "$(grep -E '^(type|ETMIDR|ETMCCER|ETMCR)' "$tmp/ss/etm_0.ini" | tr '\n' ' ')" \
    "type=ETM3.5 ETMCR(0x000)=0x10000000 ETMIDR(0x079)=0x4114F250 ETMCCER(0x07A)=0x18541800 "
check "snapshot: the core" "$(grep '^type' "$tmp/ss/cpu_0.ini")" "type=Cortex-M4"
want='insn 100 insn 102 exception 11 svcall 0x104 insn 200 insn 202 exception_return insn 104'
listing() {
    python3 -c 'import json, sys
out = []
for l in sys.stdin:
    o = json.loads(l)
    if o["type"] == "insn": out += ["insn", o["addr"][2:]]
    elif o["type"] == "exception": out += ["exception", str(o["number"]), o["name"], o.get("ret", "-")]
    elif o["type"] == "exception_return": out.append("exception_return")
print(" ".join(out))'
}
check "decode --raw --core cortex-m4" "$("$PFT" decode --quiet "${raw[@]}" --core cortex-m4 \
    --timestamps "${img[@]}" --insn --format jsonl | listing)" "$want"
check "decode --snapshot (a Cortex-M4's)" "$("$PFT" decode --quiet --snapshot "$tmp/ss" --insn \
    --format jsonl | listing)" "$want"
# The ETMv3 of a Cortex-A7 reads the same bytes otherwise: no M profile.
run "$PFT" decode "${raw[@]}" --protocol etmv3 --timestamps "${img[@]}" --format jsonl
check_eval "decode as a Cortex-A7's ETM: not silently the same" \
    '[ "$status" -ne 0 ] || ! printf "%s\n" "$out" | grep -q "\"name\":\"svcall\""'
# dump names the exception the ETM's number (11 for SVCall) means on the core.
run "$PFT" dump "${raw[@]}" --core cortex-m4 --timestamps
check_eval "dump: the ETM's number and its name" \
    '[[ "$out" == *"exception=11 (svcall) cancel=0"* ]]'
# Without options, the note says which ETM was assumed.
expect_error 0 "m.raw: ETMv3 configuration is not detected: assumed a Cortex-M4's ETM with none of the options" \
    "$PFT" dump "${raw[@]}" --core cortex-m4 --count

# A PTM core: its version (the Cortex-A9's PFT 1.0) in the snapshot.
"$PFT" encode --quiet --core cortex-a9 --log "$tmp/m.log" "${img[@]}" --out-snapshot "$tmp/a9" \
    2>"$tmp/err" || true
check "--core cortex-a9 and an M-profile log" "$(cat "$tmp/err")" \
    "pft: $tmp/m.log:4: an M-profile log (qemu mps2-an385/an386): give --core cortex-m3 or --core cortex-m4"
printf '%s\n' 101 103 105 >"$tmp/a.log"
"$PFT" encode --quiet --core cortex-a9 --log "$tmp/a.log" "${img[@]}" --out-snapshot "$tmp/a9b"
check "snapshot: the Cortex-A9's PTM" \
    "$(grep -E '^type' "$tmp/a9b/ptm_0.ini" "$tmp/a9b/cpu_0.ini" | sed 's|.*/||' | tr '\n' ' ')" \
    "ptm_0.ini:type=PTM1.0 cpu_0.ini:type=Cortex-A9 "
expect_output "decode the Cortex-A9's snapshot" "3" \
    sh -c "'$PFT' decode --quiet --snapshot '$tmp/a9b' --insn --format jsonl | grep -c '\"insn\"'"

summary
