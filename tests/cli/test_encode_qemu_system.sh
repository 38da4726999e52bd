#!/bin/bash
# pft encode --log reading qemu-system-arm logs (-d exec,nochain,int[,cpu]),
# line by line: exception entries, the instruction an abort or breakpoint
# cut, blocks qemu printed but did not run (stopped before an interrupt,
# rewound by cpu_io_recompile, the handler's first one included), where an
# interrupt returns to (a stopped block, an exception return, the link
# register), semihosting calls; and the same in plain logs ("exception
# KIND [RET]").  Each log is hand-written against a small hand-assembled
# image; pft decode --insn must give back the instructions that ran and
# the exceptions with their return addresses, for PTM and ETMv3.  Logs the
# models cannot trace are refused with the line at fault.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
: "${PFT:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# The image (ARM, at 0):
#   0x00 nop                0x100 nop
#   0x04 movs pc, lr (und)  0x104 nop
#   0x08 movs pc, lr (svc)  0x108 svc #1
#   0x0c movs pc, lr (pabt) 0x10c ldr r0, [r1]
#   0x10 subs pc, lr, #4    0x110 bkpt #0
#   0x14 nop                0x114 b 0x100
#   0x18 subs pc, lr, #4    0x118 bx lr
#   0x1c nop                0x11c hvc #0
python3 - "$tmp/image.bin" <<'EOF'
import struct, sys
NOP, MOVS, SUBS4 = 0xe1a00000, 0xe1b0f00e, 0xe25ef004
words = {0x00: NOP, 0x04: MOVS, 0x08: MOVS, 0x0c: MOVS, 0x10: SUBS4, 0x14: NOP, 0x18: SUBS4,
         0x1c: NOP, 0x100: NOP, 0x104: NOP, 0x108: 0xef000001, 0x10c: 0xe5910000,
         0x110: 0xe1200070, 0x114: 0xeafffff9, 0x118: 0xe12fff1e, 0x11c: 0xe1400070}
img = bytearray(0x120)
for a, w in words.items():
    img[a:a + 4] = struct.pack("<I", w)
open(sys.argv[1], "wb").write(img)
EOF
img=(--image "$tmp/image.bin@0")

# qemu's exec line for ARM code at ADDR.
t() { printf 'Trace 0: 0x7f0000001000 [00000000/%08x/00000370/ff020201] \n' "$1"; }

# decode LOG [ENCODE OPTIONS]: the instructions and exceptions, one line.
decode() {
    local log=$1; shift
    rm -rf "$tmp/ss"
    "$PFT" encode --quiet --log "$log" "${img[@]}" --out-snapshot "$tmp/ss" "$@" || return
    "$PFT" decode --snapshot "$tmp/ss" --insn --format jsonl |
        python3 -c 'import json, sys
out = []
for line in sys.stdin:
    o = json.loads(line)
    if o["type"] == "insn":
        out.append(o["addr"][2:].lstrip("0") or "0")
    elif o["type"] == "exception":
        out.append("%s@%s" % (o["name"], o.get("ret", "-")))
print(" ".join(out))'
}

# An SVC (counts as executed: returns after it); a data abort at the load
# the SVC handler returns to (cut: it never ran, it is the return
# address); a breakpoint (cut too); an interrupt whose block qemu stopped
# (the return address), whose handler's first block was rewound once;
# the exception return qemu reports; a semihosting call, which is no
# exception.
{
    t 0x100; t 0x104; t 0x108
    echo "Taking exception 2 [SVC] on CPU 0"
    echo "...from EL1 to EL1"
    echo "...with ESR 0x11/0x46000001"
    t 0x8; t 0x10c
    echo "Taking exception 4 [Data Abort] on CPU 0"
    echo "...with DFSR 0x1 DFAR 0x1"
    t 0x10
    echo "Exception return from AArch32 abt to svc PC 0x00000110"
    t 0x110
    echo "Taking exception 7 [Breakpoint] on CPU 0"
    echo "...with IFSR 0x2 IFAR 0x0"
    t 0xc; t 0x114; t 0x100; t 0x104
    echo "Stopped execution of TB chain before 0x7f0000001000 [00000104] "
    echo "Taking exception 5 [IRQ] on CPU 0"
    t 0x18
    echo "cpu_io_recompile: rewound execution of TB to 00000018"
    t 0x18
    echo "Exception return from AArch32 irq to svc PC 0x00000104"
    echo "AArch32 mode switch from irq to svc PC 0x00000018"
    t 0x104; t 0x108
    echo "Taking exception 16 [Semihosting call] on CPU 0"
    echo "...handling as semihosting call 0x18"
} >"$tmp/a.log"
want="100 104 108 svc@0x10c 8 data_abort@0x10c 10 prefetch_abort@0x110 c 114 100"
want="$want irq@0x104 18 104 108"
for cfg in "" "--cycle-accurate --timestamps" "--return-stack" "--branch-broadcast" \
           "--protocol etmv3" "--protocol etmv3 --cycle-accurate"; do
    # shellcheck disable=SC2086
    check "qemu-system log [$cfg]" "$(decode "$tmp/a.log" $cfg)" "$want"
done
expect_error 0 "encode: 11 instructions, 4 exceptions, " \
    "$PFT" encode --log "$tmp/a.log" "${img[@]}" --out-raw "$tmp/a.raw"

# An interrupt right after an indirect branch, with no block stopped:
# where the branch went is the link register at the handler (-d cpu);
# without it the model cannot tell, and says so.
{
    t 0x118
    echo "Taking exception 5 [IRQ] on CPU 0"
    t 0x18
    echo "R00=00000000 R01=00000000 R02=00000000 R03=00000000"
    echo "R12=00000000 R13=00000000 R14=00000104 R15=00000018"
    echo "PSR=400001d2 -Z-- A S irq32"
    t 0x100
} >"$tmp/lr.log"
check "interrupt after bx lr, -d cpu" "$(decode "$tmp/lr.log")" "118 irq@0x100 18 100"
grep -v '^R\|^PSR' "$tmp/lr.log" >"$tmp/nolr.log"
expect_error 2 "nolr.log:3: 0x00000018: an exception right after the branch at 0x00000118, whose outcome nothing tells: give its return address \\(qemu: log with -d exec,nochain,int,cpu\\)$" \
    "$PFT" encode --log "$tmp/nolr.log" "${img[@]}" --out-raw "$tmp/x.raw"

# A prefetch abort: the instruction it names (IFAR) never ran.
{
    t 0x118
    echo "Taking exception 3 [Prefetch Abort] on CPU 0"
    echo "...with IFSR 0x5 IFAR 0x104"
    t 0xc; t 0x104
} >"$tmp/pabt.log"
check "prefetch abort" "$(decode "$tmp/pabt.log" --protocol etmv3)" \
    "118 prefetch_abort@0x104 c 104"

# A fetch fault outside the image (a branch to memory that is not there):
# trace stays on, since nothing ran there, and the exception says where.
{
    t 0x118
    echo "Taking exception 3 [Prefetch Abort] on CPU 0"
    echo "...with IFSR 0x5 IFAR 0x00100000"
    t 0xc; t 0x104
} >"$tmp/fetch.log"
for cfg in "" "--protocol etmv3"; do
    # shellcheck disable=SC2086
    check "fetch fault outside the image [$cfg]" "$(decode "$tmp/fetch.log" $cfg)" \
        "118 prefetch_abort@0x100000 c 104"
done

# HVC (on a core with the Virtualization Extensions): raised by the
# instruction, which ran; an exception into Hyp mode (3).
{
    t 0x11c
    echo "Taking exception 11 [Hypervisor Call] on CPU 0"
    echo "...from EL1 to EL2"
    t 0x14; t 0x18
    echo "Exception return from AArch32 hyp to svc PC 0x00000104"
    t 0x104
} >"$tmp/hvc.log"
for cfg in "" "--protocol etmv3"; do
    # shellcheck disable=SC2086
    check "HVC [$cfg]" "$(decode "$tmp/hvc.log" $cfg)" "11c hyp@0x120 14 18 104"
done

# The same flows as a plain log.
printf '100\nexception irq\n18\n104\n108\nexception svc\n8\nexception 12 0x10c\n10\n110\n' \
    >"$tmp/plain.log"
check "plain log" "$(decode "$tmp/plain.log")" \
    "100 irq@0x104 18 104 108 svc@0x10c 8 data_abort@0x10c 10 110"

# Logs the models cannot trace.
{ t 0x100; echo "Taking exception 99 [Frobnicate] on CPU 0"; t 0x18; } >"$tmp/bad1.log"
expect_error 2 "bad1.log:2: qemu exception \[Frobnicate\] is not one the models trace" \
    "$PFT" encode --log "$tmp/bad1.log" "${img[@]}" --out-raw "$tmp/x.raw"
{ t 0x100; echo "Taking exception 5 [IRQ] on CPU 0"; echo "Taking exception 5 [IRQ] on CPU 0"
  t 0x18; } >"$tmp/bad2.log"
expect_error 2 "bad2.log:3: an exception before the handler of the one before ran" \
    "$PFT" encode --log "$tmp/bad2.log" "${img[@]}" --out-raw "$tmp/x.raw"
{ t 0x100; echo "Taking exception 5 IRQ"; } >"$tmp/bad3.log"
expect_error 2 "bad3.log:2: qemu 'Taking exception' line without \[NAME\]" \
    "$PFT" encode --log "$tmp/bad3.log" "${img[@]}" --out-raw "$tmp/x.raw"
printf '100\nexception bogus\n18\n' >"$tmp/bad4.log"
expect_error 2 "bad4.log:2: exception: not an exception number \(1-511\) or name" \
    "$PFT" encode --log "$tmp/bad4.log" "${img[@]}" --out-raw "$tmp/x.raw"
printf '100\nexception 600\n18\n' >"$tmp/bad5.log"
expect_error 2 "bad5.log:2: exception: not an exception number" \
    "$PFT" encode --log "$tmp/bad5.log" "${img[@]}" --out-raw "$tmp/x.raw"
printf '100\nexception irq 0x10g\n18\n' >"$tmp/bad6.log"
expect_error 2 "bad6.log:2: exception: " \
    "$PFT" encode --log "$tmp/bad6.log" "${img[@]}" --out-raw "$tmp/x.raw"
{ t 0x18; echo "Exception return from AArch32 irq to svc PC 0x00000104"; t 0x108; } \
    >"$tmp/bad8.log"
expect_error 2 "bad8.log:3: the exception return before \(line 2\) went to 0x00000104, not to this block's 0x00000108" \
    "$PFT" encode --log "$tmp/bad8.log" "${img[@]}" --out-raw "$tmp/x.raw"
{ t 0x100; echo "Exception return from AArch32 irq to svc"; } >"$tmp/bad7.log"
expect_error 2 "bad7.log:2: qemu 'Exception return' line without a PC" \
    "$PFT" encode --log "$tmp/bad7.log" "${img[@]}" --out-raw "$tmp/x.raw"

summary
