#!/bin/bash
# Valgrind memcheck on the CLI end to end: a representative set of pft
# commands (dump, decode, encode, stats, event, regs on the shared
# snapshots and the demo program, damaged and bad inputs) run by pft_memcheck, a pft built without the sanitizers
# (tests/valgrind/CMakeLists.txt).  Any invalid access, use of undefined
# memory or leak makes Valgrind exit with 99; the command's own exit code
# is not checked here (tests/cli does that).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
: "${PFT_SHARED:?}" "${PFT_BUILD:?}" "${PFT_SOURCE:?}"
pft="$PFT_BUILD/tests/pft_memcheck"
command -v valgrind >/dev/null || { echo "FAIL: valgrind is not installed (scripts/install-deps.sh)"; exit 1; }
[ -x "$pft" ] || { echo "FAIL: $pft was not built"; exit 1; }
ss="$PFT_SHARED/testdata/opencsd-snapshots"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# memcheck ARGS...: pft ARGS runs clean under Valgrind.
memcheck() {
    valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect \
        --errors-for-leak-kinds=definite,indirect --log-file="$tmp/vg" \
        "$pft" "$@" >/dev/null 2>"$tmp/err"
    local rc=$?
    if [ $rc -eq 99 ] || [ $rc -gt 128 ] || [ -s "$tmp/vg" ]; then
        bad "pft $* (exit $rc):"; sed 's/^/    /' "$tmp/vg" "$tmp/err" | head -40
    else
        ok
    fi
}

tc2=(--cycle-accurate --timestamps --ts-bits 64)
# The shared snapshots, every output form.
memcheck dump --snapshot "$ss/TC2"
memcheck dump --snapshot "$ss/TC2" --format jsonl
memcheck dump --snapshot "$ss/trace_cov_a15" --count
memcheck dump --formatted "$ss/TC2/cstrace.bin" --id 0x13 "${tc2[@]}"
memcheck dump --formatted "$ss/TC2/cstrace.bin" --id 0x13 --tpiu "${tc2[@]}"
memcheck decode --snapshot "$ss/TC2"
memcheck decode --snapshot "$ss/TC2" --format jsonl
memcheck decode --snapshot "$ss/trace_cov_a15" --insn
memcheck decode --snapshot "$ss/TC2" --count
memcheck decode --formatted "$ss/TC2/cstrace.bin" --id 0x13 "${tc2[@]}" \
    --image "$ss/TC2/kernel_dump.bin@0xc0008000" --insn
memcheck regs --snapshot "$ss/trace_cov_a15"
memcheck regs ETMCR=0x10001000 ETMTEEVR=0x6f
memcheck event encode 'counter2 & !arc3'
memcheck event decode 0x1b6e0

# Bad inputs: files, snapshots, options.
: >"$tmp/empty.bin"
head -c 4096 /dev/urandom >"$tmp/random.bin"
printf '\x00\x00\x00\x00\x00\x80\x84\x02\x84' >"$tmp/reserved.bin"
printf '\x00\x00\x00\x00\x00\x80\x08\x00\x10' >"$tmp/cut.bin"
memcheck dump --raw "$tmp/missing.bin"
memcheck dump --raw "$tmp"
memcheck dump --raw "$tmp/empty.bin"
memcheck dump --raw "$tmp/random.bin" "${tc2[@]}"
memcheck dump --raw "$tmp/reserved.bin"
memcheck decode --raw "$tmp/cut.bin" --image "$tmp/random.bin@0"
memcheck decode --raw "$tmp/random.bin" --elf "$tmp/random.bin"
memcheck decode --formatted "$tmp/random.bin" --id 0x13 --image "$tmp/random.bin@0x1000"
cp -r "$ss/trace_cov_a15" "$tmp/bad"; chmod -R u+w "$tmp/bad"
printf '[snapshot]\nversion=1.0\n[device_list]\ndevice1=device1.ini\njunk\n' >"$tmp/bad/snapshot.ini"
memcheck dump --snapshot "$tmp/bad"
memcheck decode --snapshot "$tmp/nowhere"
memcheck dump --bogus-option
memcheck decode --raw
memcheck event encode 'arc1 & arc2 & arc3'
memcheck event decode 0x7ffff
memcheck regs NOTAREG=1

# The model: pft encode and pft stats on the demo program's qemu log.
demo="$PFT_SOURCE/examples/demo/prog"
if command -v qemu-arm >/dev/null && qemu-arm -singlestep -d exec,nochain -D "$tmp/demo.log" "$demo" >/dev/null; then
    memcheck encode --log "$tmp/demo.log" --elf "$demo" --return-stack --cycle-accurate --timestamps \
        --out-raw "$tmp/demo.pft" --out-formatted "$tmp/demo.fmt" --id 0x21 --out-snapshot "$tmp/demo.ss"
    memcheck encode --log "$tmp/demo.log" --elf "$demo" --ctxid-bytes 4 --vmid --branch-broadcast \
        --sync-period 64 --out-raw "$tmp/demo2.pft"
    memcheck stats --log "$tmp/demo.log" --elf "$demo" --cycle-accurate --format jsonl
    memcheck decode --snapshot "$tmp/demo.ss" --elf "$demo" --insn
    printf '10000\nzzz\n10004\n' >"$tmp/bad.log"
    memcheck encode --log "$tmp/bad.log" --elf "$demo" --out-raw "$tmp/bad.pft"
    memcheck stats --log "$tmp/random.bin" --elf "$demo"
else
    echo "note: no qemu-arm, pft encode and stats not checked"
fi

# Damaged captures (tests/robust/corrupt): one of each kind.
if "$PFT_BUILD/tests/corrupt" --write "$tmp" 1 "$ss/TC2" >"$tmp/list"; then
    while IFS=$'\t' read -r file config images; do
        # shellcheck disable=SC2086
        memcheck decode --raw "$file" $config $images
    done <"$tmp/list"
else
    bad "corrupt --write"
fi

summary
