#!/bin/bash
# Program images of snapshot inputs (issue 11):
#  - a capture whose dumps are marked Secure and Non-secure: every range's
#    instructions are read from the space the trace is in;
#  - the sources of one core share one copy of its images: 20 PTMs tracing
#    one core with a 64 MB dump take the memory of one copy.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
PFT=${PFT:-build/pft}
SRC=${PFT_SOURCE:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

demo=$SRC/examples/demo
base=$("$PFT" decode --snapshot "$demo" --format jsonl) || bad "decode of the example"
insns=$("$PFT" decode --snapshot "$demo" --insn | grep -c '^    0x')
[ "$insns" -gt 100 ] && ok || bad "example lists $insns instructions"

# The example traced in Non-secure state: its log with an 'ns 1' line.
"$PFT" decode --snapshot "$demo" --format jsonl | python3 "$SRC/tests/cli/demo_log.py" "$demo/mem_0.bin" >"$tmp/addrs"
for ns in 0 1; do
    d=$tmp/ns$ns
    { echo "ns $ns"; cat "$tmp/addrs"; } >"$tmp/log$ns"
    "$PFT" encode --log "$tmp/log$ns" --elf "$demo/prog" --out-snapshot "$d" \
        || { bad "encode ns=$ns"; continue; }
    # The program's bytes in the traced space, 0xff words (undecodable, no
    # waypoint) in the other one, at the same addresses.
    head -c "$(stat -c %s "$demo/mem_0.bin")" /dev/zero | tr '\0' '\377' >"$d/other.bin"
    real=$([ $ns = 1 ] && echo N || echo S)
    other=$([ $ns = 1 ] && echo S || echo N)
    sed -i "s/^space=.*/space=$real/" "$d/cpu_0.ini"
    printf '\n[dump2]\nfile=other.bin\naddress=0x00010000\nspace=%s\n' "$other" >>"$d/cpu_0.ini"
    grep -q "space=$real" "$d/cpu_0.ini" || bad "ns=$ns: dump space not set"
    out=$("$PFT" decode --snapshot "$d" --insn) || bad "decode ns=$ns"
    n=$(grep -c '^    0x' <<<"$out")
    u=$(grep -c 'undecodable' <<<"$out")
    [ "$n" = "$insns" ] && ok || bad "ns=$ns: $n instructions listed, want $insns"
    [ "$u" = 0 ] && ok || bad "ns=$ns: $u instructions read from the wrong space"
    # Ranges equal to the original decode's.
    if diff <(jq -c 'select(.type=="range") | [.start,.end,.n]' <<<"$base") \
            <("$PFT" decode --snapshot "$d" --format jsonl | jq -c 'select(.type=="range") | [.start,.end,.n]') >/dev/null; then
        ok
    else
        bad "ns=$ns: ranges differ from the example's"
    fi
done

# Twenty sources on one core, one 64 MB dump: the image is loaded once.
m=$tmp/many
cp -r "$demo" "$m"
chmod -R u+w "$m"
truncate -s 64M "$m/big.bin"
printf '\n[dump2]\nfile=big.bin\naddress=0x10000000\n' >>"$m/cpu_0.ini"
{
    printf '[snapshot]\nversion=1.0\n\n[device_list]\ndevice0=cpu_0.ini\n'
    for i in $(seq 0 19); do printf 'device%d=ptm_%d.ini\n' $((i + 1)) "$i"; done
    printf '\n[trace]\nmetadata=trace.ini\n'
} >"$m/snapshot.ini"
{
    printf '[trace_buffers]\nbuffers=buffer0\n\n[buffer0]\nname=ETB_0\nfile=trace.bin\nformat=coresight\n\n[source_buffers]\n'
    for i in $(seq 0 19); do printf 'PTM_%d=ETB_0\n' "$i"; done
    printf '\n[core_trace_sources]\n'
    for i in $(seq 0 19); do printf 'cpu_0=PTM_%d\n' "$i"; done
} >"$m/trace.ini"
for i in $(seq 1 19); do
    sed -e "s/^name=PTM_0/name=PTM_$i/" \
        -e "s/^ETMTRACEIDR(0x080)=.*/ETMTRACEIDR(0x080)=$(printf '0x%08x' $((0x10 + i)))/" \
        "$m/ptm_0.ini" >"$m/ptm_$i.ini"
done
rss=$(python3 - "$PFT" "$m" <<'EOF'
import resource, subprocess, sys
subprocess.run([sys.argv[1], "decode", "--snapshot", sys.argv[2], "--count"],
               stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
EOF
) || bad "decode of the 20-source snapshot"
# One copy is 64 MB; twenty would be 1.3 GB.  (The sanitizer build adds
# its own shadow memory: allow twice one copy plus a margin.)
[ -n "$rss" ] && [ "$rss" -lt 200 ] && ok || bad "20 sources on one core: peak ${rss} MB (one 64 MB image should be loaded once)"
"$PFT" decode --snapshot "$m" --count | grep -q "^[1-9][0-9]* instructions" && ok \
    || bad "the 20-source snapshot decodes nothing"

summary
