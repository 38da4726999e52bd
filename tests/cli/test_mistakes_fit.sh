#!/bin/bash
# Issue 24, the fit check and detection: options or images that do not fit
# the trace are said (one line, the option that fits or the image named,
# exit 1), never obeyed in silence; every option a message suggests is
# one the command takes; info, dump and decode detect alike, name the
# readings that decode as cleanly but differently, and info takes images.
# Inputs: the bundled demo, traces made here with pft encode, TC2 of
# ../shared/testdata, and (item 3) two builds of a small program run under
# qemu-arm (skipped without the cross toolchain).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
PFT=${PFT:-build/pft}
SRC=${PFT_SOURCE:-.}
SS=${PFT_SHARED:-../shared}/testdata/opencsd-snapshots
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ex=$SRC/examples/demo
tc2=$SS/TC2
kimg=(--image "$tc2/kernel_dump.bin@0xC0008000")

"$PFT" decode --snapshot "$ex" --format jsonl |
    python3 "$SRC/tests/cli/demo_log.py" "$ex/mem_0.bin" >"$tmp/plain.log"
enc() { "$PFT" encode --log "$tmp/plain.log" --elf "$ex/prog" "$@" >/dev/null 2>&1; }
enc --pft-version 1.0 --timestamps --ts-period 5 --out-raw "$tmp/v10ts.raw"   # Gray timestamps
enc --timestamps --ts-period 5 --out-raw "$tmp/ts.raw"                        # binary timestamps
enc --return-stack --sync-period 64 --out-raw "$tmp/rs64.raw"

# Every option a message suggests ("add X", "use X", "drop X", "detected
# X", "give X", "with: X; Y") is accepted by the command that said it.
suggest_ok() {  # suggest_ok NAME STDERR CMD ARGS...
    local name=$1 msgs=$2; shift 2
    local o n=0
    for o in $(printf '%s\n' "$msgs" |
               grep -oE -- '(add|use|detected|give|try|with:|;) (--[a-z0-9-]+( [0-9.]+)?)' |
               grep -oE -- '--[a-z0-9-]+( [0-9.]+)?' | sort -u | tr ' ' '='); do
        o=${o//=/ }
        n=$((n + 1))
        # shellcheck disable=SC2086
        "$PFT" "$@" $o --count >/dev/null 2>"$tmp/sg.err"
        if grep -q "unknown option" "$tmp/sg.err"; then bad "$name: suggests $o, which $1 rejects"; else ok; fi
    done
    [ "$n" -gt 0 ] || bad "$name: no option suggested in: $msgs"
}

# ---- 1. timestamp encoding and width ----------------------------------
# A PFTv1.0 capture (Gray timestamps) decoded as PFTv1.1 (binary).
expect_error 1 "^pft: $tmp/v10ts\.raw: timestamps fall when read as binary and rise as Gray code: add --ts-gray \(or --pft-version 1\.0 for a PFTv1\.0 PTM such as a Cortex-A9's\)$" \
    "$PFT" decode --raw "$tmp/v10ts.raw" --elf "$ex/prog" --timestamps --count
suggest_ok "Gray" "$err" decode --raw "$tmp/v10ts.raw" --elf "$ex/prog" --timestamps
"$PFT" decode --raw "$tmp/v10ts.raw" --elf "$ex/prog" --timestamps --ts-gray --count >/dev/null 2>"$tmp/e"
check "v1.0 with --ts-gray: clean" "$?:$(cat "$tmp/e")" "0:"
# A binary trace read as Gray, with the image.
expect_error 1 "^pft: $tmp/ts\.raw: timestamps fall when read as Gray code and rise as binary: drop --ts-gray$" \
    "$PFT" decode --raw "$tmp/ts.raw" --elf "$ex/prog" --timestamps --ts-gray --count
# TC2's 0x13 (binary) with --ts-gray and its image.
expect_error 1 "^pft: $tc2/cstrace\.bin: id 0x13: timestamps fall when read as Gray code and rise as binary: drop --ts-gray$" \
    "$PFT" decode --formatted "$tc2/cstrace.bin" --id 0x13 --cycle-accurate --timestamps --ts-gray \
    "${kimg[@]}" --count
# A wrong width on a trace with one sync: the bad timestamp packet is named.
expect_error 1 "^pft: $tmp/ts\.raw: bad packets after timestamps: timestamps are 64 bits; use --ts-bits 64$" \
    "$PFT" decode --raw "$tmp/ts.raw" --elf "$ex/prog" --timestamps --ts-bits 48 --count
suggest_ok "ts-bits" "$err" decode --raw "$tmp/ts.raw" --elf "$ex/prog" --timestamps

# ---- 3. --dmb-dsb-waypoints is an option of every decoding command -------
for c in decode dump coverage profile calls; do
    img=(--elf "$ex/prog"); [ "$c" = dump ] && img=()
    "$PFT" "$c" --raw "$tmp/rs64.raw" --dmb-dsb-waypoints --return-stack "${img[@]}" \
        >/dev/null 2>"$tmp/e"
    check_eval "$c takes --dmb-dsb-waypoints" '! grep -q "unknown option" "$tmp/e"'
done
check_eval "decode --help lists --dmb-dsb-waypoints" \
    '"$PFT" decode --help | grep -q -- --dmb-dsb-waypoints'
expect_error 2 "^pft: --protocol etmv3: ETMv3 has no --dmb-dsb-waypoints$" \
    "$PFT" decode --raw "$tmp/rs64.raw" --protocol etmv3 --dmb-dsb-waypoints

# ---- 4. no image at all ------------------------------------------------
run "$PFT" decode --formatted "$tc2/cstrace.bin" --id 0x13 --count
check "no image: exit" "$status" 1
check "no image: said" "$(printf '%s\n' "$err" | grep -v 'detected')" \
    "pft: $tc2/cstrace.bin: id 0x13: no image given: 403 addresses could not be decoded (give --elf or --image)"
expect_error 1 "^pft: $tmp/rs64\.raw: no image given: [0-9]+ addresses could not be decoded \(give --elf or --image\)$" \
    "$PFT" decode --raw "$tmp/rs64.raw" --return-stack --count
# dump needs no image: nothing said.
expect_status "dump without an image" 0 "$PFT" dump --raw "$tmp/rs64.raw" --return-stack --count

# ---- 7. info with images; what needs one ---------------------------------
expect_output "info with the image" "186 bytes, ptm, options: --return-stack (detected)" \
    "$PFT" info --raw "$tmp/rs64.raw" --elf "$ex/prog"
check "info jsonl: needs_image" "$("$PFT" info --raw "$tmp/rs64.raw" --format jsonl | jq -c .needs_image)" \
    '["--return-stack","--branch-broadcast","--dmb-dsb-waypoints"]'
check "info jsonl with the image: no needs_image" \
    "$("$PFT" info --raw "$tmp/rs64.raw" --elf "$ex/prog" --format jsonl | jq -c .needs_image)" null
check_eval "info text: which options need an image" \
    '"$PFT" info --raw "$tmp/rs64.raw" | grep -q "; --return-stack, --branch-broadcast, --dmb-dsb-waypoints need an image)$"'
check "info with --symbols only: still needs one" \
    "$("$PFT" info --raw "$tmp/rs64.raw" --symbols "$ex/prog" --format jsonl | jq -c .needs_image)" \
    '["--return-stack","--branch-broadcast","--dmb-dsb-waypoints"]'

# ---- 8. one detection; alternatives named, only where they matter --------
# rs64 has no timestamps: the width is no choice; with the image, the
# return stack is told and nothing else remains.
expect_error 0 "^pft: $tmp/rs64\.raw: detected --return-stack$" \
    "$PFT" decode --raw "$tmp/rs64.raw" --elf "$ex/prog" --count
# Without an image, info, dump and decode detect alike (and name the
# reading that decodes as cleanly but differently).
i=$("$PFT" info --raw "$tmp/rs64.raw" --format jsonl | jq -r '.options, (.alternatives // [] | join("; "))' | paste -sd'|')
for c in decode dump; do
    d=$("$PFT" "$c" --raw "$tmp/rs64.raw" --count 2>&1 >/dev/null | grep detected |
        sed -E 's/.*detected (no options|[^(]*[^ (])( \(it also decodes cleanly, but differently, with: (.*); give --reg or the options to choose\))?$/\1|\3/; s/^no options//')
    check "info and $c detect alike" "$d" "$i"
done
run "$PFT" decode --raw "$tmp/rs64.raw" --count
check_eval "alternatives named" \
    'printf "%s\n" "$err" | grep -q "detected no options (it also decodes cleanly, but differently, with: --cycle-accurate; give --reg or the options to choose)$"'
suggest_ok "alternatives" "$err" decode --raw "$tmp/rs64.raw"
check_eval "no unnamed count of configurations" \
    '! printf "%s\n" "$err" | grep -q "configurations decode the trace alike"'
# info and decode with the same image agree.
i=$("$PFT" info --raw "$tmp/rs64.raw" --elf "$ex/prog" | sed 's/.*options: //; s/ (detected)//')
check "info and decode with the image" "$i" "--return-stack"

# ---- 3. a stale ELF: the image is blamed, no flow option detected ---------
if command -v arm-linux-gnueabihf-gcc >/dev/null && command -v qemu-arm >/dev/null; then
    cat >"$tmp/hello.c" <<'EOF'
int f(int x) { return x * 3 + 1; }
int main(int c, char **v) { int s = 0; for (int i = 0; i < 10; i++) s += f(i + c); return s & 1; }
EOF
    sed 's/i < 10/i < 30000/' "$tmp/hello.c" >"$tmp/loop.c"
    for p in hello loop; do arm-linux-gnueabihf-gcc -O1 -marm -static -o "$tmp/$p" "$tmp/$p.c"; done
    qemu-arm -singlestep -d exec,nochain -D "$tmp/hello.log" "$tmp/hello" || true
    "$PFT" encode --log "$tmp/hello.log" --elf "$tmp/hello" --out-raw "$tmp/hello.raw" >/dev/null 2>&1
    "$PFT" encode --log "$tmp/hello.log" --elf "$tmp/hello" --return-stack \
        --out-raw "$tmp/hello_rs.raw" >/dev/null 2>&1
    "$PFT" encode --log "$tmp/hello.log" --elf "$tmp/hello" --dmb-dsb-waypoints \
        --out-raw "$tmp/hello_dmb.raw" >/dev/null 2>&1
    stale="^pft: $tmp/hello(_rs)?\.raw: the image does not match the trace: at offset 0x[0-9a-f]+ \(address 0x[0-9a-f]{8}( in [^)]*)?\) the flow contradicts the code \([^)]*\): $tmp/loop may not be the binary that ran, or is not at its address \(--image FILE@ADDR, --elf FILE@BIAS\)$"
    run "$PFT" decode --raw "$tmp/hello.raw" --elf "$tmp/loop" --count
    check "stale ELF: exit" "$status" 1
    check "stale ELF: the image blamed" "$(printf '%s\n' "$err" | grep -cE "$stale")" 1
    check "stale ELF: no flow option detected" "$(printf '%s\n' "$err" | grep -c 'detected .*--return-stack')" 0
    expect_error 1 "$stale" "$PFT" decode --raw "$tmp/hello_rs.raw" --elf "$tmp/loop" --return-stack --count
    # The right image: the flow option is detected, or named when wrong.
    run "$PFT" decode --raw "$tmp/hello_dmb.raw" --elf "$tmp/hello" --count
    check "DMB/DSB detected" "$status:$(printf '%s\n' "$err" | grep -c 'detected --dmb-dsb-waypoints')" "0:1"
    suggest_ok "detection" "$err" decode --raw "$tmp/hello_dmb.raw" --elf "$tmp/hello"
    expect_error 1 "^pft: $tmp/hello_dmb\.raw: flow errors: DMB and DSB are waypoints in this trace; add --dmb-dsb-waypoints$" \
        "$PFT" decode --raw "$tmp/hello_dmb.raw" --elf "$tmp/hello" --timestamps --count
    suggest_ok "fit check" "$err" decode --raw "$tmp/hello_dmb.raw" --elf "$tmp/hello" --timestamps
    expect_status "the suggestion decodes cleanly" 0 \
        "$PFT" decode --raw "$tmp/hello_dmb.raw" --elf "$tmp/hello" --timestamps --dmb-dsb-waypoints --count
else
    echo "skipped (no arm-linux-gnueabihf-gcc or qemu-arm): the stale-ELF checks"
fi

summary
