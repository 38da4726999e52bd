#!/bin/bash
# Cortex-M3 and Cortex-M4 (issue 28): bare-metal programs of cortexm/progs/ run
# under qemu-system-arm (mps2-an385, mps2-an386), each checking itself
# (exit status 0), logged with -singlestep -d exec,nochain,int,cpu.  Each
# log is encoded by `pft encode --core cortex-m3|cortex-m4` as the
# M-profile ETM would trace it, plain, with branch broadcast and, on the
# Cortex-M4, with timestamps, raw, as a trace port's frames (--tpiu) and
# as an OpenCSD snapshot; then
#  - pft decode of the raw stream, of the trace-port capture and of the
#    snapshot, and OpenCSD 1.3.3's trc_pkt_lister on the snapshot, must
#    give exactly the instructions qemu executed and one exception element
#    per exception entered, with its IPSR number (qemu_m_log.py reads the
#    log on its own), and OpenCSD's atoms are N exactly where the flags
#    qemu logged fail the condition;
#  - exceptions are named as the ARMv7-M names them, and dump's numbers
#    are the ETM's encoding of them (etmv3-protocol.md 4.5);
#  - a capture of the ETM and an ITM through one trace port, formatted
#    here without pft (tpiu_mux.py), decodes to the same instructions,
#    the ITM named and left alone;
#  - the calls view closes every exception a tail-chain replaced, and the
#    exceptions view counts and names each kind as qemu took it;
#  - pft annotate counts each instruction as often as qemu ran it, and
#    not taken as often as it failed its condition.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")/cortexm" && pwd)
: "${PFT:?}"
for tool in arm-none-eabi-gcc qemu-system-arm trc_pkt_lister python3; do
    command -v "$tool" >/dev/null || { echo "missing tool: $tool"; exit 1; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
check_log=$here/qemu_m_log.py

# build NAME CORE FLAGS...: progs/NAME.c for CORE into $tmp/NAME.CORE.elf
build() {
    local name=$1 core=$2
    shift 2
    arm-none-eabi-gcc -mcpu="$core" -mthumb -g -nostdlib -ffreestanding "$@" \
        -T "$here/progs/link.ld" -o "$tmp/$name.$core.elf" \
        "$here/progs/startup.c" "$here/progs/$name.c"
}

# run NAME CORE: its qemu log; the program's own checks must pass
run_qemu() {
    local name=$1 core=$2 machine=mps2-an385
    [ "$core" = cortex-m4 ] && machine=mps2-an386
    timeout 120 qemu-system-arm -M "$machine" -cpu "$core" -nodefaults -nographic \
        -kernel "$tmp/$name.$core.elf" -singlestep -d exec,nochain,int,cpu \
        -icount shift=3,sleep=off -semihosting-config enable=on,target=native \
        -D "$tmp/$name.$core.log" >/dev/null 2>&1
}

# busy with a tick every few cycles: interrupts right after conditional
# branches and returns, and (Cortex-M4 at -O0) SysTick preempting a
# handler qemu has entered before its first instruction.
programs=(
    "exc cortex-m3 -O1"
    "sched cortex-m3 -O2"
    "busy cortex-m3 -Os -DRVR=3"
    "exc cortex-m4 -O2 -mfloat-abi=soft"
    "sched cortex-m4 -Os -mfloat-abi=soft"
    "fpu cortex-m4 -O2 -mfloat-abi=hard -mfpu=fpv4-sp-d16"
    "busy cortex-m4 -O0 -mfloat-abi=soft -DRVR=7"
)
configs_m3=("" "--branch-broadcast")
configs_m4=("" "--branch-broadcast" "--timestamps --ts-period 7"
            "--timestamps --branch-broadcast --sync-period 64")

id=32
for p in "${programs[@]}"; do
    read -r name core flags <<<"$p"
    # shellcheck disable=SC2086
    if ! build "$name" "$core" $flags || ! run_qemu "$name" "$core"; then
        bad "$name on $core: did not build, or failed its own checks under qemu"
        continue
    fi
    elf=$tmp/$name.$core.elf log=$tmp/$name.$core.log
    if [ "$core" = cortex-m3 ]; then configs=("${configs_m3[@]}"); else configs=("${configs_m4[@]}"); fi
    for cfg in "${configs[@]}"; do
        id=$((id + 1))
        t="$name.$core [$cfg]"
        base=$tmp/$name.$core.$id
        # shellcheck disable=SC2086
        if ! "$PFT" encode --quiet --core "$core" $cfg --log "$log" --elf "$elf" \
               --out-raw "$base.raw" --out-formatted "$base.tpiu" --tpiu --id "$id" \
               --out-snapshot "$base.ss"; then
            bad "$t: encode failed"
            continue
        fi
        dcfg=${cfg% --ts-period 7}
        dcfg=${dcfg% --sync-period 64}
        # shellcheck disable=SC2086
        "$PFT" decode --quiet --raw "$base.raw" --core "$core" $dcfg --elf "$elf" --insn \
            --format jsonl >"$base.raw.jsonl"
        check "$t: decode raw: exit" "$?" 0
        check_true "$t: raw: qemu's instructions and exceptions" \
            python3 "$check_log" decode "$log" "$base.raw.jsonl"
        # shellcheck disable=SC2086
        "$PFT" decode --quiet --formatted "$base.tpiu" --tpiu --core "$core" $dcfg --elf "$elf" \
            --insn --format jsonl >"$base.tpiu.jsonl"
        check "$t: decode trace port: exit" "$?" 0
        check_true "$t: trace port: qemu's instructions and exceptions" \
            python3 "$check_log" decode "$log" "$base.tpiu.jsonl"
        "$PFT" decode --quiet --snapshot "$base.ss" --insn --format jsonl >"$base.ss.jsonl"
        check "$t: decode snapshot: exit" "$?" 0
        check_true "$t: snapshot: qemu's instructions and exceptions" \
            python3 "$check_log" decode "$log" "$base.ss.jsonl"
        check_true "$t: OpenCSD: qemu's instructions, exceptions and atoms" \
            python3 "$check_log" opencsd "$log" "$base.ss"
        if [ -z "$cfg" ]; then
            "$PFT" annotate --quiet --snapshot "$base.ss" --elf "$elf" --format jsonl \
                >"$base.annotate.jsonl"
            check "$t: annotate: exit" "$?" 0
            check_true "$t: annotate: qemu's counts and failed conditions" \
                python3 "$check_log" annotate "$log" "$base.ss" "$base.annotate.jsonl"
        fi
    done
done

# The parallel decode (pieces handed over at I-syncs, carrying a pending
# exception return) gives the serial decode's elements.
elf=$tmp/sched.cortex-m3.elf
"$PFT" encode --quiet --core cortex-m3 --sync-period 64 --log "$tmp/sched.cortex-m3.log" \
    --elf "$elf" --out-raw "$tmp/par.raw"
"$PFT" decode --quiet --raw "$tmp/par.raw" --core cortex-m3 --elf "$elf" --insn --format jsonl \
    -j 1 >"$tmp/par1.jsonl"
run env PFT_PIECE_SIZE=512 "$PFT" decode --raw "$tmp/par.raw" --core cortex-m3 --elf "$elf" \
    --insn --format jsonl -j 2
printf '%s\n' "$out" >"$tmp/par2.jsonl"
check_eval "-j 2 in pieces: the serial decode's elements" \
    'cmp -s "$tmp/par1.jsonl" "$tmp/par2.jsonl" && [[ "$err" == *" handovers"* ]] && [[ "$err" != *" 0 handovers"* ]]'
check_true "-j 2 in pieces: qemu's instructions" \
    python3 "$check_log" decode "$tmp/sched.cortex-m3.log" "$tmp/par2.jsonl"

# The names of the exceptions, and dump's numbers the ETM's (the spec's
# table, written out in qemu_m_log.py), for exc on the Cortex-M3.
base=$(ls -d "$tmp"/exc.cortex-m3.*.ss | head -1)
base=${base%.ss}
if python3 - "$base.raw.jsonl" <<'PY'
import json, sys
names = {2: "nmi", 3: "hardfault", 4: "memmanage", 5: "busfault", 6: "usagefault",
         11: "svcall", 14: "pendsv", 15: "systick"}
seen = {}
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o["type"] == "exception":
        want = names.get(o["number"], "irq%d" % (o["number"] - 16))
        if o["name"] != want:
            sys.exit("exception %d is named %s, not %s" % (o["number"], o["name"], want))
        seen[o["number"]] = o["name"]
# Every kind the program takes: below and above IRQ8, faults, nesting.
want = {2, 3, 4, 5, 6, 11, 14, 15, 16 + 3, 16 + 5, 16 + 9, 16 + 20, 16 + 31}
if set(seen) != want:
    sys.exit("exceptions %s, not %s" % (sorted(seen), sorted(want)))
PY
then ok; else bad "exception names"; fi
"$PFT" dump --quiet --raw "$base.raw" --core cortex-m3 --format jsonl >"$tmp/dump.jsonl"
if python3 - "$tmp/dump.jsonl" "$base.raw.jsonl" "$check_log" <<'PY'
import json, sys, importlib.util
spec = importlib.util.spec_from_file_location("q", sys.argv[3])
q = importlib.util.module_from_spec(spec)
spec.loader.exec_module(q)
raw = [json.loads(l) for l in open(sys.argv[1])]
raw = [o["exception"] for o in raw if o["type"] == "branch" and "exception" in o]
dec = [json.loads(l)["number"] for l in open(sys.argv[2]) if '"exception"' in l]
if [q.ipsr_of_etm(n) for n in raw] != dec or raw == dec:
    sys.exit("dump %s, decode %s" % (raw, dec))
PY
then ok; else bad "dump's exception numbers: the ETM's"; fi

# The ETM and an ITM through one trace port, formatted without pft.
python3 "$here/tpiu_mux.py" itm "$tmp/itm.bin"
python3 "$here/tpiu_mux.py" "$tmp/mux.tpiu" "0x22:$base.raw" "0x05:$tmp/itm.bin"
run "$PFT" decode --formatted "$tmp/mux.tpiu" --tpiu --core cortex-m3 --elf "$tmp/exc.cortex-m3.elf" \
    --insn --format jsonl
check "ETM and ITM through a trace port: exit" "$status" 0
printf '%s\n' "$out" >"$tmp/mux.jsonl"
check_true "ETM and ITM through a trace port: qemu's instructions" \
    python3 "$check_log" decode "$tmp/exc.cortex-m3.log" "$tmp/mux.jsonl"
check_eval "ETM and ITM: the ITM named, not decoded" \
    '[[ "$err" == *"trace ID 0x05: itm trace is not decoded"* ]]'
expect_output "pft info of the trace port" "id 0x05: 108 bytes, itm
id 0x22: $(stat -c %s "$base.raw") bytes, etmv3" "$PFT" info --formatted "$tmp/mux.tpiu"

# Calls: a tail-chained exception's handler replaces the one it chained
# from (PendSV enters at the depth SVCall had, IRQ3 at IRQ9's), and every
# exception returns.
run "$PFT" calls --quiet --raw "$base.raw" --core cortex-m3 --elf "$tmp/exc.cortex-m3.elf" \
    --format jsonl
printf '%s\n' "$out" >"$tmp/calls.jsonl"
if python3 - "$tmp/calls.jsonl" <<'PY'
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
exc = [(e["exception"], e["depth"]) for e in ev if e["kind"] == "exception"]
ret = [e for e in ev if e["kind"] == "exception_return"]
assert len(exc) == 18 and len(ret) == 18, (len(exc), len(ret))
depth = dict(exc)
assert depth[14] == depth[11] == 2 and depth[16 + 3] == depth[16 + 9] == 2 and \
    depth[16 + 5] == 2 and depth[16 + 20] == 3 and depth[2] == 4, exc
PY
then ok; else bad "calls: exceptions, tail-chains and returns"; fi

# Exceptions: each kind as often as qemu took it, named as the M profile
# names it, every handler returned (a tail-chained one too), the
# functions it interrupted named from the ELF (MemManage's: the XN
# address the program called, in none).
run "$PFT" exceptions --quiet --raw "$base.raw" --core cortex-m3 --elf "$tmp/exc.cortex-m3.elf" \
    --format jsonl
printf '%s\n' "$out" >"$tmp/exceptions.jsonl"
if python3 - "$tmp/exceptions.jsonl" "$tmp/exc.cortex-m3.log" "$check_log" <<'PY'
import collections, importlib.util, json, sys
spec = importlib.util.spec_from_file_location("q", sys.argv[3])
q = importlib.util.module_from_spec(spec)
spec.loader.exec_module(q)
taken = collections.Counter(x[1] for x in q.items(sys.argv[2]) if x[0] == "exception")
names = {2: "nmi", 3: "hardfault", 4: "memmanage", 5: "busfault", 6: "usagefault",
         11: "svcall", 14: "pendsv", 15: "systick"}
got = {}
for line in open(sys.argv[1]):
    o = json.loads(line)
    n = o["number"]
    got[n] = o["count"]
    assert o["name"] == names.get(n, "irq%d" % (n - 16)), o
    assert o["returned"] == o["count"], o
    fns = [f["fn"] for f in o["interrupted"]]
    assert (fns == ["[unknown]"]) == (n == 4), o
assert got == dict(taken), (got, taken)
PY
then ok; else bad "exceptions: kinds, counts, names and returns"; fi

summary
