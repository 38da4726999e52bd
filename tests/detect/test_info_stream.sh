#!/bin/bash
# pft info reads its input as a stream (issue 9): a 96 MiB formatted buffer
# (TC2's 32 KiB ETB buffer 3072 times over) is described with memory far
# below its size, its byte counts are 3072 times the single buffer's, and
# standard input gives the same answer as the file.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
PFT=${PFT:-build/pft}
tc2=${PFT_SHARED:-../shared}/testdata/opencsd-snapshots/TC2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 - "$tc2/cstrace.bin" "$tmp/big.bin" <<'EOF2'
import sys
one = open(sys.argv[1], "rb").read()
with open(sys.argv[2], "wb") as f:
    for _ in range(3072):
        f.write(one)
EOF2
size=$(stat -c %s "$tmp/big.bin")
check "buffer size" "$size" $((96 * 1024 * 1024))

# The single buffer's counts, times 3072 (frames are 16 bytes and the
# buffer a whole number of them, so each copy deformats alike).
"$PFT" info --formatted "$tc2/cstrace.bin" --format jsonl >"$tmp/one" || check "info of one buffer" $? 0
want=$(jq -c '[.id, .bytes * 3072, .protocol]' "$tmp/one")

# Max resident memory (MiB) of pft info on file $1, its output in $2.
rss_of() {
    python3 - "$PFT" "$1" "$2" <<'EOF2'
import resource, subprocess, sys
with open(sys.argv[3], "w") as out:
    subprocess.run([sys.argv[1], "info", "--formatted", sys.argv[2], "--format", "jsonl"],
                   stdout=out, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
EOF2
}
rss=$(rss_of "$tmp/big.bin" "$tmp/big.out") || check "info of the big buffer" 1 0
base=$(rss_of "$tc2/cstrace.bin" /dev/null) || check "info of one buffer" 1 0
check "big buffer: counts" "$(jq -c '[.id, .bytes, .protocol]' "$tmp/big.out")" "$want"
check "big buffer: options as for one" "$(jq -c '.options' "$tmp/big.out")" "$(jq -c '.options' "$tmp/one")"
# Reading the buffer whole took more than its 96 MiB; a stream needs the
# detection prefixes only, so the 96 MiB buffer takes about what the 32 KiB
# one does (measured against it: the sanitizer build's own memory is in
# both).
echo "max RSS: $rss MiB for 96 MiB, $base MiB for 32 KiB"
[ $((rss - base)) -lt 16 ] && check "max RSS grows by less than 16 MiB" 1 1 ||
    check "max RSS grows by less than 16 MiB ($base -> $rss)" 0 1

# Standard input: the file's answer.
check "standard input" "$(cat "$tmp/big.bin" | "$PFT" info --formatted - --format jsonl)" "$(cat "$tmp/big.out")"
check "raw from standard input" \
    "$(cat "$tc2/cstrace.bin" | "$PFT" info --raw - --format jsonl)" \
    "$("$PFT" info --raw "$tc2/cstrace.bin" --format jsonl)"

summary
