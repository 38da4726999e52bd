#!/bin/bash
# Two cores on one timestamp clock, built from programs run under qemu
# (issue 25): recursion.c on core 0 (trace ID 0x10, its clock's counter at
# 1000 when it starts, one tick a cycle) and switch.c on core 1 (0x11,
# starting at 6000, two cycles a tick), encoded by one pft encode as two
# cycle-accurate PTM sources with timestamps whose trace a funnel merges
# into one buffer (a snapshot at 1 MHz, and the same frames alone).
# time_check.py works out from qemu's logs alone what was built (each
# instruction's cycle, the timestamps, each element's time as
# shared/spec/cli.md defines it, the order of all elements) and requires
# pft decode --merge to give exactly that, on the snapshot, on the bare
# buffer, on a snapshot with a buffer per core, at -j 1 and -j 2, and on
# perf.data (two CPUs of one program);
# pft timeline must put every span at the time of an element of its
# source, core 1's track starting after core 0's, in microseconds at the
# snapshot's frequency (or --ts-clock).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
: "${PFT:?}"
for tool in arm-linux-gnueabihf-gcc qemu-arm python3; do
    command -v "$tool" >/dev/null || { echo "missing tool: $tool"; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
progs=$here/../qemu/progs
tc2=$here/tc2_check.py
cd "$tmp" || exit 1

# Core 1's program lies above core 0's, so that one image holds both for
# the bare buffer (a snapshot gives each core its own memory).
arm-linux-gnueabihf-gcc -static -O1 -o a "$progs/recursion.c" &&
    arm-linux-gnueabihf-gcc -static -O1 -Wl,-Ttext-segment=0x400000 -o b "$progs/switch.c" &&
    env -i qemu-arm -singlestep -d exec,nochain -D a.log ./a >/dev/null &&
    env -i qemu-arm -singlestep -d exec,nochain -D b.log ./b >/dev/null || exit 1
built="16=a.log:1000:1 17=b.log:6000:2"

run "$PFT" encode --log a.log --elf a --id 0x10 --ts-start 1000 \
    --log b.log --elf b --id 0x11 --ts-start 6000 --ts-cycles 2 \
    --cycle-accurate --timestamps --ts-period 20 --ts-frequency 1MHz \
    --out-snapshot ss --out-formatted two.fmt
check "encode: exit status" "$status" 0
check_eval "encode: both sources in the snapshot" \
    '[ -f ss/ptm_0.ini ] && [ -f ss/ptm_1.ini ] && [ -f ss/cpu_1.ini ] &&
     grep -q "^frequency=1000000$" ss/trace.ini && cmp -s ss/trace.bin two.fmt'

# decode --merge: exactly as built.
"$PFT" decode --snapshot ss --merge --format jsonl --quiet >snap.jsonl
check "snapshot: exit status" "$?" 0
if out=$(python3 "$here/time_check.py" snap.jsonl $built); then ok; else bad "snapshot: $out"; fi
# The sources interleave in the buffer and in the listing.
check_eval "snapshot: interleaved ($out)" '[ "$(echo "$out" | cut -d" " -f6)" -gt 100 ]'
"$PFT" decode --formatted two.fmt --elf a --elf b --merge --format jsonl --quiet >fmt.jsonl
check "bare buffer: exit status" "$?" 0
if out=$(python3 "$here/time_check.py" fmt.jsonl $built); then ok; else bad "bare buffer: $out"; fi
# A buffer per core (DS-5's source_data buffers): the two files are read
# side by side.  The same trace, each source's encoded alone, raw.
cp -r ss ss2
"$PFT" encode --log a.log --elf a --ts-start 1000 --cycle-accurate --timestamps --ts-period 20 \
    --out-raw ss2/a.bin --quiet &&
    "$PFT" encode --log b.log --elf b --ts-start 6000 --ts-cycles 2 --cycle-accurate --timestamps \
        --ts-period 20 --out-raw ss2/b.bin --quiet || exit 1
printf '%s\n' '[trace_buffers]' 'buffers=buffer0,buffer1' '' '[buffer0]' 'name=BUF_A' 'file=a.bin' \
    'format=source_data' '' '[buffer1]' 'name=BUF_B' 'file=b.bin' 'format=source_data' '' \
    '[source_buffers]' 'PTM_0=BUF_A' 'PTM_1=BUF_B' '' '[core_trace_sources]' 'cpu_0=PTM_0' \
    'cpu_1=PTM_1' >ss2/trace.ini
"$PFT" decode --snapshot ss2 --merge --format jsonl --quiet >ss2.jsonl
check "a buffer per core: exit status" "$?" 0
if out=$(python3 "$here/time_check.py" ss2.jsonl $built); then ok; else bad "a buffer per core: $out"; fi
# Without --merge: the same elements, in the buffer's order, no time.
"$PFT" decode --snapshot ss --format jsonl --quiet >plain.jsonl
if out=$(python3 "$tc2" merge plain.jsonl snap.jsonl); then ok; else bad "plain and merged: $out"; fi
check "no time without --merge" "$(grep -c '"time"' plain.jsonl)" 0

# dump --merge: the packets, in the order of the same clock.
"$PFT" dump --snapshot ss --format jsonl --quiet >pplain.jsonl &&
    "$PFT" dump --snapshot ss --merge --format jsonl --quiet >pmerged.jsonl
if out=$(python3 "$tc2" merge pplain.jsonl pmerged.jsonl); then ok; else bad "dump --merge: $out"; fi

# -j 2 (pieces of 256 bytes) gives what -j 1 gives, merged too.
"$PFT" decode --formatted two.fmt --id 0x11 --elf b --merge --format jsonl -j 1 --quiet >j1.jsonl
PFT_PIECE_SIZE=256 "$PFT" decode --formatted two.fmt --id 0x11 --elf b --merge --format jsonl \
    -j 2 --quiet >j2.jsonl 2>j2.err
check_eval "-j 2 is -j 1 ($(cat j2.err))" \
    'cmp -s j1.jsonl j2.jsonl && [ -s j1.jsonl ] && grep -q "parallel decode: [1-9][0-9]* pieces" j2.err'
# Also where the window is too small for the timestamps' distance: it gives
# up on the same elements, whatever the items they came in (the serial
# decode's batches, the pieces' records).
"$PFT" decode --formatted two.fmt --id 0x11 --elf b --merge --merge-window 7 --format jsonl -j 1 \
    >w1.jsonl 2>w1.err
PFT_PIECE_SIZE=256 "$PFT" decode --formatted two.fmt --id 0x11 --elf b --merge --merge-window 7 \
    --format jsonl -j 2 >w2.jsonl 2>w2.err
flat=$(sed -n 's/.*: \([0-9]*\) items placed at the timestamp before.*/\1/p' w1.err)
check_eval "a small window: -j 2 is -j 1 ($flat items flat; $(grep -v 'parallel decode' w2.err))" \
    '[ "${flat:-0}" -gt 100 ] && cmp -s w1.jsonl w2.jsonl &&
     [ "$(grep -v "parallel decode" w2.err)" = "$(cat w1.err)" ]'

# The timeline: at the snapshot's 1 MHz one tick is a microsecond.
"$PFT" timeline --snapshot ss --quiet >tl.json
check "timeline: exit status" "$?" 0
if out=$(python3 "$tc2" spans tl.json snap.jsonl); then
    ok
    first0=$(echo "$out" | awk '$1 == "0x10" { print $2 }')
    first1=$(echo "$out" | awk '$1 == "0x11" { print $2 }')
    check_eval "tracks where built: core 0 from $first0, core 1 from $first1" \
        '[ "$first0" -ge 1000 ] && [ "$first0" -lt 6000 ] && [ "$first1" -ge 6000 ]'
else
    bad "timeline: $out"
fi
check "timeline: the unit said" "$(grep -c '"time":"timestamps at 1000000 Hz"' tl.json)" 2
"$PFT" timeline --snapshot ss --ts-clock 2MHz --quiet >tl2.json
if out=$(python3 "$tc2" spans tl2.json snap.jsonl 2e6); then ok; else bad "timeline at 2 MHz: $out"; fi
# The bare buffer has no frequency: ticks, and the file says so.
"$PFT" timeline --formatted two.fmt --elf a --elf b --quiet >tlf.json
if out=$(python3 "$tc2" spans tlf.json fmt.jsonl); then ok; else bad "timeline in ticks: $out"; fi
check "timeline in ticks: said" "$(grep -c '"time":"timestamp ticks"' tlf.json)" 2

# perf.data: two CPUs of one program (perf record -a), their clocks as above.
perf_dir=$here/../perf
"$PFT" encode --log a.log --elf a --id 0x10 --ts-start 1000 --cycle-accurate --timestamps \
    --ts-bits 48 --ts-period 20 --out-perf c0.data --quiet &&
    "$PFT" encode --log a.log --elf a --id 0x11 --ts-start 6000 --ts-cycles 2 --cycle-accurate \
        --timestamps --ts-bits 48 --ts-period 20 --out-perf c1.data --quiet &&
    python3 "$perf_dir/mkpercpu.py" cpus.data 1024 c0.data c1.data || exit 1
"$PFT" decode --perf cpus.data --merge --format jsonl --quiet >perf.jsonl
check "perf.data: exit status" "$?" 0
if out=$(python3 "$here/time_check.py" perf.jsonl cpu0=a.log:1000:1 cpu1=a.log:6000:2); then
    ok
else
    bad "perf.data: $out"
fi
# Trace lost (an AUX record flagged TRUNCATED after 1 KiB): the error
# element comes in its place with a time, the rest as without --merge.
"$PFT" encode --log a.log --elf a --cycle-accurate --timestamps --ts-bits 48 --ts-period 20 \
    --ts-start 1000 --out-perf t.data --perf-raw --quiet &&
    python3 "$perf_dir/mkpercpu.py" --aux-gap gap.data 1024 t.data || exit 1
run "$PFT" decode --perf gap.data --format jsonl --quiet
check "lost trace: exit status" "$status" 1
printf '%s\n' "$out" >gap.plain
run "$PFT" decode --perf gap.data --format jsonl --merge --quiet
check "lost trace, --merge: exit status" "$status" 1
printf '%s\n' "$out" >gap.merged
if out=$(python3 "$tc2" merge gap.plain gap.merged); then ok; else bad "lost trace, --merge: $out"; fi
check "lost trace, --merge: the error with its time" \
    "$(grep -c '"offset":1024,.*"type":"error","cpu":0,"time":[0-9]*,"msg":"truncated"' gap.merged)" 1
run "$PFT" decode --perf cpus.data --count --format jsonl --quiet
check "perf.data count: per CPU" "$(printf '%s\n' "$out" | grep -c '"type":"source","cpu":[01],"id":1[67],')" 2

# encode's mistakes.
expect_error 2 "several --log.*--out-raw and --out-perf write one" \
    "$PFT" encode --log a.log --elf a --log b.log --elf b --out-raw x.raw
expect_error 2 "--log b.log: no program image" \
    "$PFT" encode --log a.log --elf a --log b.log --out-formatted x.fmt
expect_error 2 "--log a.log and --log b.log have trace ID 0x12" \
    "$PFT" encode --log a.log --elf a --id 0x12 --log b.log --elf b --id 0x12 --out-formatted x.fmt
expect_error 2 "--ts-start and --ts-cycles go with --timestamps" \
    "$PFT" encode --log a.log --elf a --ts-start 5 --out-formatted x.fmt
expect_error 2 "--ts-frequency goes with --out-snapshot" \
    "$PFT" encode --log a.log --elf a --timestamps --ts-frequency 1MHz --out-formatted x.fmt
expect_error 2 "--ts-cycles: '0' is not a number above 0" \
    "$PFT" encode --log a.log --elf a --timestamps --ts-cycles 0 --out-formatted x.fmt
check "nothing written after a mistake" "$(ls x.* 2>/dev/null)" ""

summary
