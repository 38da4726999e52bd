#!/bin/bash
# pft encode --out-perf against Linux perf: ARM and Thumb programs run under
# qemu-user, encoded into perf.data under several PTM and ETMv3
# configurations, must
# decode with `perf script --itrace=Zi1i -F ip` (one line per executed
# instruction; Z: the model's timestamps start at zero, which perf would
# otherwise take for a missing one) to exactly the instructions qemu
# executed.
#
# perf (6.1, with OpenCSD) gives OpenCSD only ETMCR and ETMTRACEIDR of a PTM
# (shared/spec/perf-data.md), so OpenCSD decodes as PFTv1.0 without 64-bit
# timestamps, the return stack or DMB/DSB waypoints.  Those configurations
# are run too and reported as KNOWN when perf gets them wrong, as it does;
# one that agrees is reported as NOTE.
#
# The programs run to their exit call.  A log cut short in mid-program is
# not used: perf then may leave out the last instructions (1 to some
# hundreds, in every configuration, formatted or raw), though its own
# packet dump shows all packets and OpenCSD's trc_pkt_lister decodes them
# (perf's handling of the end of a buffer).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=perf_lib.sh
. "$here/perf_lib.sh"
# ETMv3 (--protocol etmv3, a Cortex-A7's ETMv3.5): perf reads the same
# metadata block (ETMIDR says ETMv3) and decodes with OpenCSD's ETMv3
# decoder, which perf configures from all four registers.
good+=(
    "--protocol etmv3"
    "--protocol etmv3 --cycle-accurate --perf-raw"
    "--protocol etmv3 --ctxid-bytes 4 --ctxid 4242 --timestamps"
    "--protocol etmv3 --timestamps --ts-bits 48 --ts-gray --branch-broadcast --vmid"
)

# run BINARY CONFIG: prints what differs, or nothing.
run() {
    local data=$tmp/t.data
    # shellcheck disable=SC2086
    if ! "$PFT" encode --log "$1.log" --elf "$1" --out-perf "$data" $2 2>"$tmp/err"; then
        echo "encode: $(cat "$tmp/err")"
        return
    fi
    if ! perf script -i "$data" --itrace=Zi1i -F ip >"$tmp/out" 2>"$tmp/err"; then
        echo "perf script failed: $(head -3 "$tmp/err")"
        return
    fi
    sed 's/^ *//' "$tmp/out" >"$tmp/got"
    local diff tail
    diff=$(same "$1.want" "$tmp/got")
    # perf (6.1) may leave out what follows the stream's last I-sync, which
    # OpenCSD's own trc_pkt_lister decodes from the same bytes (as pft does:
    # test_perf_decode.sh): seen on ETMv3 and PTM, with and without
    # timestamps, depending on where the program's exit falls.  Only that
    # exact tail is excused, the rest must be qemu's.
    if [ -n "$diff" ] && short_prefix "$1.want" "$tmp/got"; then
        tail=$(after_last_isync "$data")
        if [ "$(( $(wc -l <"$1.want") - $(wc -l <"$tmp/got") ))" = "$tail" ]; then
            echo "KNOWN $(basename "$1") [$2]: perf leaves out the $tail instructions after the last I-sync" >&2
            diff=
        fi
    fi
    echo "$diff"
}

# after_last_isync DATA: how many instructions pft decodes from the packets
# after the last I-sync of perf.data DATA.
after_last_isync() {
    local last
    last=$("$PFT" dump --perf "$1" --format jsonl | jq -r 'select(.type == "isync") | .offset' | tail -1)
    "$PFT" decode --perf "$1" --format jsonl |
        jq -n --argjson last "${last:-0}" '[inputs | select(.type == "range" and .offset > $last) | .n] | add // 0'
}

# short_prefix WANT GOT: GOT is WANT without some of its last lines.
short_prefix() {
    local n
    n=$(wc -l <"$2")
    [ "$n" -lt "$(wc -l <"$1")" ] && head -n "$n" "$1" | cmp -s - "$2"
}

for prog in switch inter fnptr; do
    for isa in arm thumb; do
        bin=$tmp/$prog.$isa
        if ! build "$prog" "$isa"; then
            bad "$prog.$isa: cannot build or run it"
            continue
        fi
        for cfg in "${good[@]}"; do
            diff=$(run "$bin" "$cfg")
            if [ -z "$diff" ]; then ok; else bad "$prog.$isa [$cfg]: $diff"; fi
        done
        [ "$prog" = fnptr ] && continue
        for cfg in "${known[@]}"; do
            diff=$(run "$bin" "$cfg")
            if [ -n "$diff" ]; then
                echo "KNOWN $prog.$isa [$cfg]: perf decodes it wrongly: $diff"
            else
                echo "NOTE $prog.$isa [$cfg]: perf decodes it right this time"
            fi
        done
    done
done

# The file perf decodes is also what pft's reader sees (test_perf.c checks
# the reader on hand-built files): perf's own dump lists the records.
"$PFT" encode --log "$tmp/switch.arm.log" --elf "$tmp/switch.arm" --out-perf "$tmp/d.data" \
    --ctxid-bytes 4 --ctxid 4242
dump=$(perf report -D -i "$tmp/d.data" 2>/dev/null)
for want in "PERF_RECORD_AUXTRACE_INFO type: 3" "PERF_RECORD_COMM: switch.arm:4242/4242" \
            "PERF_RECORD_MMAP2 4242/4242" "PERF_RECORD_AUX offset: 0" "PERF_RECORD_AUXTRACE size:"; do
    if grep -qF "$want" <<<"$dump"; then ok; else bad "perf report -D: no '$want'"; fi
done

# The thread is the traced context ID (its low byte with --ctxid-bytes 1).
"$PFT" encode --log "$tmp/switch.arm.log" --elf "$tmp/switch.arm" --out-perf "$tmp/c.data" \
    --ctxid-bytes 1 --ctxid 0x1234 --perf-raw
if perf report -D -i "$tmp/c.data" 2>/dev/null | grep -qF "PERF_RECORD_COMM: switch.arm:52/52"; then
    ok
else
    bad "--ctxid-bytes 1 --ctxid 0x1234: the thread is not 0x34"
fi
diff=$(run "$tmp/switch.arm" "--ctxid-bytes 1 --ctxid 0x1234")
if [ -z "$diff" ]; then ok; else bad "switch.arm [ctxid 0x1234, 1 byte]: $diff"; fi

# Usage errors.
if "$PFT" encode --log "$tmp/switch.arm.log" --elf "$tmp/switch.arm" --out-raw /dev/null \
    --perf-raw 2>"$tmp/err"; then
    bad "--perf-raw without --out-perf accepted"
elif grep -q -- "--perf-raw goes with --out-perf" "$tmp/err"; then
    ok
else
    bad "--perf-raw without --out-perf: $(cat "$tmp/err")"
fi
if "$PFT" encode --log "$tmp/switch.arm.log" --elf "$tmp/switch.arm" \
    --out-perf /nonexistent/dir/x.data 2>"$tmp/err"; then
    bad "--out-perf into a missing directory accepted"
elif grep -q "/nonexistent/dir/x.data: No such file" "$tmp/err"; then
    ok
else
    bad "--out-perf into a missing directory: $(cat "$tmp/err")"
fi

summary
