#!/bin/bash
# The bundled example (examples/demo, made by its make.sh with pft encode):
# the README's first command lists its instructions with symbols, and
# OpenCSD decodes its snapshot to the same ranges as pft.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
: "${PFT:?}" "${PFT_SOURCE:?}"
ex=$PFT_SOURCE/examples/demo
out=$("$PFT" decode --snapshot "$ex" --elf "$ex/prog" --insn 2>&1)
rc=$?
# demo.c's _start (ARM) calls sort in demo_thumb.c with blx.
for want in '0x000100f8  push     \{r7, lr\} +<_start\+0x0>' \
            'blx +#0x10198' '0x00010198  push.w .*<sort\+0x0>'; do
    if [ $rc -eq 0 ] && grep -Eq "$want" <<<"$out"; then
        ok
    else
        bad "no line matching '$want' (exit $rc)"
    fi
done
if python3 "$PFT_SOURCE/tests/opencsd/diff_flow.py" --known-deviations "$PFT" "$ex" 0x10; then
    ok
else
    bad "diff_flow.py: OpenCSD decodes the demo otherwise"
fi
summary
