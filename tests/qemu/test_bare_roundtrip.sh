#!/bin/bash
# Round trip through bare-metal programs that take exceptions: two C
# programs (tests/qemu/bare/) for vexpress-a9 and vexpress-a15, each with
# its exception handlers in ARM and in Thumb, run under qemu-system-arm
# (timer interrupts through the GIC, nested and back-to-back interrupts,
# SVC, UDF, BKPT, data aborts, WFI, every form of exception return),
# encoded by pft encode as a PTM and as an ETMv3 under several
# configurations, must decode (pft decode --insn, and OpenCSD's
# trc_pkt_lister) to exactly the instructions qemu executed and the
# exceptions it took, each with its number and return address, in place.
# bare_roundtrip.py has the details, bare_truth.py reads qemu's log.
# Skipped (exit 77) without qemu-system-arm or arm-none-eabi-gcc.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
: "${PFT:?}"
for tool in qemu-system-arm arm-none-eabi-gcc; do
    command -v "$tool" >/dev/null || skip "no $tool: the bare-metal round trips"
done
for tool in arm-none-eabi-objdump trc_pkt_lister python3; do
    command -v "$tool" >/dev/null || { echo "missing tool: $tool"; exit 1; }
done

# Programs x boards x variants x configurations (see bare_roundtrip.py).
if python3 "$here/bare_roundtrip.py" suite "$PFT"; then ok; else bad "bare-metal round trips"; fi

summary
