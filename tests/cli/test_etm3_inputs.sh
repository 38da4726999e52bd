#!/bin/bash
# ETMv3 from --raw and --formatted files (--protocol etmv3).  The TC2
# snapshot's ETMv3 sources (IDs 0x10-0x12; the snapshot decode is checked
# against OpenCSD by ../opencsd/test_etm3_opencsd.sh) must give the same
# packets and, with the snapshot's memory dump as --image, the same
# instructions when read from its trace buffer with --id and the device's
# registers as --reg, from the buffer without --id, and from each source's
# bytes deformatted here (by ../fuzz/make_etm3_seeds.py, not by pft).  A
# program encoded by `pft encode --protocol etmv3 --out-raw` must decode
# from the raw file to the instructions qemu executed.  And the usage
# errors: one line, exit 2.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
: "${PFT:?}" "${PFT_SHARED:?}"
tc2=$PFT_SHARED/testdata/opencsd-snapshots/TC2
buf=$tc2/cstrace.bin
# Every ETM core of TC2 has this dump (cpu_0.ini .. cpu_2.ini).
image=(--image "$tc2/kernel_dump.bin@0xC0008000")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# The --reg options of the ETM device with trace ID $1, from its .ini file.
regs_of() {
    local f
    f=$(grep -l "^ETMTRACEIDR([^)]*)=0x0*${1#0x}\$" "$tc2"/device_*.ini) || return 1
    sed -n 's/^\(ETMCR\|ETMCCER\|ETMIDR\|ETMTRACEIDR\)([^)]*)=\(.*\)/--reg \1=\2/p' "$f"
}

# Lines of a jsonl file without what depends on the input's shape: offsets
# into a raw or a formatted file, trace IDs, and where the bytes before
# the first A-sync are cut into notsync lines (one per frame, or per block).
strip_shape() {
    python3 -c 'import json, sys
pending = None
for line in sys.stdin:
    o = json.loads(line)
    o.pop("offset", None); o.pop("id", None)
    if o["type"] == "notsync":
        pending = (pending + " " if pending else "") + o["bytes"]
        continue
    if pending:
        print(json.dumps({"type": "notsync", "bytes": pending}))
        pending = None
    print(json.dumps(o, sort_keys=True))'
}

for id in 0x10 0x11 0x12; do
    regs=$(regs_of "$id") || { bad "$id: no device .ini"; continue; }
    # shellcheck disable=SC2086
    set -- $regs
    [ $# -eq 8 ] || { bad "$id: registers not found ($regs)"; continue; }
    "$PFT" dump --snapshot "$tc2" --id "$id" --format jsonl >"$tmp/s.dump"
    "$PFT" decode --snapshot "$tc2" --id "$id" --insn --format jsonl >"$tmp/s.dec"
    [ -s "$tmp/s.dump" ] && grep -q '"type":"insn"' "$tmp/s.dec" ||
        { bad "$id: the snapshot decodes to nothing"; continue; }

    # The formatted buffer with --id and the registers: the same lines.
    if "$PFT" dump --formatted "$buf" --id "$id" --protocol etmv3 "$@" --format jsonl \
           >"$tmp/f.dump" 2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
       cmp -s "$tmp/s.dump" "$tmp/f.dump"; then
        ok
    else
        bad "$id: dump --formatted --protocol etmv3 differs from dump --snapshot"
    fi
    if "$PFT" decode --formatted "$buf" --id "$id" --protocol etmv3 "$@" "${image[@]}" \
           --insn --format jsonl >"$tmp/f.dec" && cmp -s "$tmp/s.dec" "$tmp/f.dec"; then
        ok
    else
        bad "$id: decode --formatted --protocol etmv3 differs from decode --snapshot"
    fi

    # ETMIDR says ETMv3 by itself: no --protocol needed.
    if [ "$id" != 0x10 ]; then
        :
    elif "$PFT" decode --formatted "$buf" --id "$id" "$@" "${image[@]}" --insn --format jsonl \
           >"$tmp/g.dec" && cmp -s "$tmp/s.dec" "$tmp/g.dec"; then
        ok
    else
        bad "$id: an ETMv3 --reg ETMIDR does not select ETMv3"
    fi

    # The source's own bytes as a raw file: the same packets and
    # instructions, but for offsets and IDs.
    python3 -c 'import sys
sys.path.insert(0, sys.argv[1])
from make_etm3_seeds import deformat
sys.stdout.buffer.write(deformat(open(sys.argv[2], "rb").read(), int(sys.argv[3], 0)))' \
        "$here/../fuzz" "$buf" "$id" >"$tmp/r.bin"
    # ETMTRACEIDR does not go with --raw's one source.
    read -r -a raw_regs <<<"$(echo "$regs" | grep -v ETMTRACEIDR | tr '\n' ' ')"
    if "$PFT" dump --raw "$tmp/r.bin" --protocol etmv3 "${raw_regs[@]}" --format jsonl \
           >"$tmp/r.dump" &&
       [ "$(strip_shape <"$tmp/s.dump")" = "$(strip_shape <"$tmp/r.dump")" ]; then
        ok
    else
        bad "$id: dump --raw --protocol etmv3 differs from the snapshot's packets"
    fi
    if "$PFT" decode --raw "$tmp/r.bin" --protocol etmv3 "${raw_regs[@]}" "${image[@]}" \
           --insn --format jsonl >"$tmp/r.dec" &&
       [ "$(strip_shape <"$tmp/s.dec")" = "$(strip_shape <"$tmp/r.dec")" ]; then
        ok
    else
        bad "$id: decode --raw --protocol etmv3 differs from the snapshot's instructions"
    fi
done

# The TC2 ETMs' ETMCR (0x10001860) is cycle-accurate with timestamps:
# without --id, the flags decode every ETMv3 source of the buffer, each as
# the snapshot does, and the PTM (0x13) is named as not decoded.
"$PFT" decode --snapshot "$tc2" --insn --format jsonl >"$tmp/all_s.dec" 2>/dev/null
same_etm3_sources() {
    for n in 16 17 18; do
        grep -q "\"id\":$n," "$tmp/all_f.dec" &&
            cmp -s <(grep "\"id\":$n," "$tmp/all_s.dec") <(grep "\"id\":$n," "$tmp/all_f.dec") ||
            return 1
    done
}
if "$PFT" decode --formatted "$buf" --protocol etmv3 --cycle-accurate --timestamps \
       "${image[@]}" --insn --format jsonl >"$tmp/all_f.dec" 2>"$tmp/err" &&
   [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "trace ID 0x13: ptm trace is not decoded" "$tmp/err" &&
   ! grep -q '"id":19' "$tmp/all_f.dec" && same_etm3_sources; then
    ok
else
    bad "--formatted --protocol etmv3 without --id: not every ETMv3 source as the snapshot"
fi
# Under the wrong configuration (not cycle-accurate) the decode is not clean.
if "$PFT" decode --formatted "$buf" --id 0x10 --protocol etmv3 --timestamps "${image[@]}" \
       --count >/dev/null 2>&1; then
    bad "a cycle-accurate ETMv3 trace decodes cleanly without --cycle-accurate"
else
    ok
fi
# A view takes the same options: the same profile as from the snapshot.
"$PFT" profile --snapshot "$tc2" --id 0x11 --format folded >"$tmp/s.prof"
if "$PFT" profile --formatted "$buf" --id 0x11 --protocol etmv3 --cycle-accurate --timestamps \
       "${image[@]}" --format folded >"$tmp/f.prof" 2>/dev/null && [ -s "$tmp/s.prof" ] &&
   cmp -s "$tmp/s.prof" "$tmp/f.prof"; then
    ok
else
    bad "profile --formatted --protocol etmv3 differs from profile --snapshot"
fi

# Round trip: qemu runs a program, pft encode --protocol etmv3 writes its
# raw stream (and a snapshot, for its memory), pft decode --raw
# --protocol etmv3 under the same options gives qemu's instructions back.
if command -v arm-linux-gnueabihf-gcc >/dev/null && command -v qemu-arm >/dev/null; then
    for isa in thumb arm; do
        # Two configurations each: the four between them.
        [ $isa = thumb ] && cfgs=("" "--cycle-accurate --timestamps") ||
            cfgs=("--ctxid-bytes 4 --vmid --branch-broadcast" "--timestamps --ts-bits 48 --ts-gray")
        bin=$tmp/switch.$isa
        arm-linux-gnueabihf-gcc -static -O1 -m$isa -o "$bin" "$here/../qemu/progs/switch.c"
        qemu-arm -singlestep -d exec,nochain -D "$bin.log" "$bin" >/dev/null
        for cfg in "${cfgs[@]}"; do
            rm -rf "$tmp/rt.ss"
            # shellcheck disable=SC2086
            if "$PFT" encode --protocol etmv3 --log "$bin.log" --elf "$bin" $cfg \
                   --out-raw "$tmp/rt.raw" --out-snapshot "$tmp/rt.ss" &&
               "$PFT" decode --raw "$tmp/rt.raw" --protocol etmv3 $cfg --elf "$bin" \
                   --format jsonl >"$tmp/rt.dec" 2>/dev/null &&
               python3 "$here/../qemu/roundtrip.py" check "$bin.log" "$tmp/rt.dec" "$tmp/rt.ss" \
                   >/dev/null
            then
                ok
            else
                bad "round trip $isa [$cfg]: decode --raw --protocol etmv3 is not qemu's run"
            fi
        done
    done
else
    bad "no arm-linux-gnueabihf-gcc or qemu-arm for the round trip"
fi

# Usage errors: one line on stderr, exit 2.
usage_error() {   # $1: what stderr must say; the rest: pft's arguments
    local want=$1; shift
    "$PFT" "$@" >/dev/null 2>"$tmp/err"
    local rc=$?
    if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q -- "$want" "$tmp/err"; then
        ok
    else
        bad "pft $*: exit $rc, stderr: $(cat "$tmp/err")"
    fi
}
usage_error "is not ptm or etmv3" dump --formatted "$buf" --protocol etmv4
usage_error "disagree" dump --formatted "$buf" --id 0x10 --protocol ptm --reg ETMIDR=0x410CF250
usage_error "disagree" dump --formatted "$buf" --id 0x13 --protocol etmv3 --reg ETMIDR=0x411CF312
usage_error "no --return-stack" decode --raw "$tmp/r.bin" --protocol etmv3 --return-stack
usage_error "no --pft-version" dump --raw "$tmp/r.bin" --protocol etmv3 --pft-version 1.1
usage_error "does not go with --snapshot" dump --snapshot "$tc2" --protocol etmv3
usage_error "neither a PTM" dump --raw "$tmp/r.bin" --reg ETMIDR=0x41000450

summary
