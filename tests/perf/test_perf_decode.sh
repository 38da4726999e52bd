#!/bin/bash
# pft decode --perf against qemu: the programs and configurations of
# test_perf_script.sh (perf_lib.sh; every configuration on switch.arm, those
# perf gets wrong on switch and inter, ARM and Thumb), written to perf.data by pft encode
# --out-perf, must decode to exactly the instructions qemu executed, in
# every configuration: also those perf decodes wrongly (64-bit timestamps,
# the return stack, DMB/DSB waypoints), because pft takes all four
# registers from the AUXTRACE_INFO metadata where perf hands OpenCSD only
# ETMCR and ETMTRACEIDR.  For those, perf script runs on the same file and
# the first place where its list differs from qemu's is shown beside
# pft's.  ETMv3 on switch too (perf script's own check of it:
# test_perf_script.sh), and the image found by --elf, --symfs and the
# build-id cache.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=perf_lib.sh
. "$here/perf_lib.sh"

# pft_insns OUT DATA [OPTIONS]: the instructions pft decodes, in perf's format.
pft_insns() {
    local out=$1 data=$2
    shift 2
    "$PFT" decode --perf "$data" --insn --format jsonl "$@" 2>"$tmp/pft.err" |
        sed -n 's/.*"type":"insn","addr":"0x\([0-9a-f]*\)".*/\1/p' >"$out"
}

# side_by_side WANT PERF PFT: three columns around perf's first difference.
side_by_side() {
    local line
    line=$(cmp "$1" "$2" 2>&1 | awk '/differ/ { print $NF } /EOF/ { print "eof" }')
    [ "$line" = eof ] && line=$(wc -l <"$2")
    local from=$((line > 2 ? line - 2 : 1)) to=$((line + 2))
    printf '      %-8s %-10s %-10s %s\n' line qemu perf pft
    paste "$1" "$2" "$3" | awk -v a="$from" -v b="$to" -v d="$line" \
        'NR >= a && NR <= b { split($0, f, "\t")
            printf "    %s %-8d %-10s %-10s %s\n", NR == d ? ">" : " ", NR, f[1], f[2], f[3] }'
}

# ETMv3 (an ETMv3 ETMIDR in AUXTRACE_INFO), with and without cycle counts
# and timestamps, on switch (ARM and Thumb).
etmv3=("--protocol etmv3" "--protocol etmv3 --cycle-accurate --timestamps")

for prog in switch inter; do
    for isa in arm thumb; do
        bin=$tmp/$prog.$isa
        if ! build "$prog" "$isa"; then
            bad "$prog.$isa: cannot build or run it"
            continue
        fi
        # Every configuration on one program; those perf gets wrong on all.
        cfgs=("${known[@]}")
        [ "$prog.$isa" = switch.arm ] && cfgs+=("${good[@]}")
        [ "$prog" = switch ] && cfgs+=("${etmv3[@]}")
        for cfg in "${cfgs[@]}"; do
            data=$tmp/t.data
            # shellcheck disable=SC2086
            if ! "$PFT" encode --log "$bin.log" --elf "$bin" --out-perf "$data" $cfg \
                2>"$tmp/err"; then
                bad "$prog.$isa [$cfg]: encode: $(cat "$tmp/err")"
                continue
            fi
            pft_insns "$tmp/pft" "$data"
            diff=$(same "$bin.want" "$tmp/pft" pft)
            if [ -n "$diff" ]; then
                bad "$prog.$isa [$cfg]: $diff ($(head -2 "$tmp/pft.err"))"
                continue
            fi
            ok
            # Side by side, where perf is known to go wrong (one program).
            [ "$prog" = switch ] || continue
            case " ${known[*]} " in *" $cfg "*) ;; *) continue ;; esac
            perf script -i "$data" --itrace=Zi1i -F ip 2>/dev/null | sed 's/^ *//' >"$tmp/perf"
            pdiff=$(same "$bin.want" "$tmp/perf")
            if [ -n "$pdiff" ]; then
                echo "$prog.$isa [$cfg]: perf: $pdiff; pft: all $(wc -l <"$tmp/pft") as qemu"
                side_by_side "$bin.want" "$tmp/perf" "$tmp/pft"
            else
                echo "NOTE $prog.$isa [$cfg]: perf decodes it right this time"
            fi
        done
    done
done

# Every element and instruction names its CPU (the writer's CPU 0).
"$PFT" encode --log "$tmp/switch.arm.log" --elf "$tmp/switch.arm" --out-perf "$tmp/c.data" \
    --return-stack
cpus=$("$PFT" decode --perf "$tmp/c.data" --insn --format jsonl | jq -c '.cpu' | sort | uniq -c)
if [ "$(awk '{ print $2 }' <<<"$cpus")" = 0 ]; then ok; else bad "cpu fields: $cpus"; fi

# --elf takes precedence over the mapped file (a copy of it would
# overlap it otherwise), and with the file gone, --symfs or the build-id
# cache finds it (without any: addr_nacc, test_perf_malformed.sh).
mkdir -p "$tmp/sym$tmp" "$tmp/copy"
cp "$tmp/switch.arm" "$tmp/copy/switch.arm"
pft_insns "$tmp/pft" "$tmp/c.data" --elf "$tmp/copy/switch.arm"
diff=$(same "$tmp/switch.arm.want" "$tmp/pft" "pft --elf")
if [ -z "$diff" ]; then ok; else bad "--elf: $diff $(head -1 "$tmp/pft.err")"; fi
mv "$tmp/switch.arm" "$tmp/sym$tmp/switch.arm"
pft_insns "$tmp/pft" "$tmp/c.data" --symfs "$tmp/sym"
diff=$(same "$tmp/switch.arm.want" "$tmp/pft" "pft --symfs")
if [ -z "$diff" ]; then ok; else bad "--symfs: $diff $(head -1 "$tmp/pft.err")"; fi

# The writer's HEADER_BUILD_ID holds the ELF's GNU build ID (readelf's),
# as perf itself reads it; with the file only in a build-id cache
# (perf's layout .build-id/xx/rest/elf), pft decodes from there.
id=$(arm-linux-gnueabihf-readelf -n "$tmp/sym$tmp/switch.arm" | awk '/Build ID:/ { print $3 }')
listed=$(perf buildid-list -i "$tmp/c.data" 2>/dev/null)
if [ -n "$id" ] && [ "$listed" = "$id $tmp/switch.arm" ]; then
    ok
else
    bad "build ID: readelf '$id', perf buildid-list '$listed'"
fi
mkdir -p "$tmp/cache/.build-id/${id:0:2}/${id:2}"
mv "$tmp/sym$tmp/switch.arm" "$tmp/cache/.build-id/${id:0:2}/${id:2}/elf"
pft_insns "$tmp/pft" "$tmp/c.data" --buildid-dir "$tmp/cache"
diff=$(same "$tmp/switch.arm.want" "$tmp/pft" "pft --buildid-dir")
if [ -z "$diff" ]; then ok; else bad "--buildid-dir: $diff $(head -1 "$tmp/pft.err")"; fi

summary
