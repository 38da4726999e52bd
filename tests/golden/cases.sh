# shellcheck shell=bash
# tests/golden/cases.sh - the cases of the golden-output test, sourced by
# test_golden.sh (which compares) and make_expected.sh (which records).
#
# The caller sets PFT (the binary), SS (the OpenCSD snapshots of
# ../shared/testdata), SRC (the source tree) and W (an empty work
# directory whose path has the length of /tmp/pft-golden.XXXXXX, see
# golden_programs), cds to W and defines
#   golden_run NAME [VAR=VALUE...] -- ARGS...   pft ARGS (in W, with the
#                                   variables set): its stdout and exit status
#   golden_file NAME FILE           a file an earlier case wrote
#   golden_sync                     waits for the cases started (the test
#                                   runs two at a time)
#   golden_input NAME HASH          a digest of generated inputs (the qemu
#                                   programs and what they executed): when it
#                                   differs, the outputs made from them cannot
#                                   be compared
# Every command line names its files relative to W (ss/..., demo/...,
# q/...), so that no output depends on where the tree or W are.

# The qemu programs: one binary per program and instruction set, built
# in W/q, run under qemu-user as tests/qemu/roundtrip.py runs them.
GOLDEN_PROGRAMS="recursion loops switch fnptr longjmp inter"
# Encoder configurations (those of roundtrip.py), taken in turn: binary i
# of the 12 gets PTM configuration i and ETMv3 configuration i mod 9.
# OWN is the range of the program's main.
GOLDEN_PTM_CONFIGS=(
    ""
    "--cycle-accurate"
    "--timestamps --ts-period 50"
    "--return-stack"
    "--ctxid-bytes 1 --ctxid 0x5a"
    "--ctxid-bytes 2 --ctxid 0x1234 --cycle-accurate --timestamps"
    "--ctxid-bytes 4 --ctxid 0xdeadbeef --return-stack --cycle-accurate"
    "--filter OWN"
    "--return-stack --cycle-accurate --filter OWN"
    "--filter 0x14000-0x30000 --timestamps --ctxid-bytes 4 --ctxid 3"
    "--pft-version 1.0 --cycle-accurate --timestamps --return-stack"
    "--sync-period 64 --return-stack --ctxid-bytes 4 --ctxid 7"
    "--branch-broadcast --vmid --timestamps --cycle-accurate"
)
GOLDEN_ETM3_CONFIGS=(
    ""
    "--cycle-accurate"
    "--timestamps --ts-period 20"
    "--ctxid-bytes 4 --ctxid 0xdeadbeef"
    "--ctxid-bytes 1 --ctxid 0x5a --cycle-accurate --timestamps"
    "--filter OWN"
    "--filter 0x14000-0x30000 --cycle-accurate --ctxid-bytes 2 --ctxid 0x1234"
    "--sync-period 64 --timestamps --ts-bits 48 --ts-gray"
    "--branch-broadcast --vmid --timestamps --cycle-accurate"
)

# golden_programs: builds the programs and runs them under qemu, in W/q.
# The start-up code of a static glibc program walks its environment and
# the path it was started as, whose lengths change the stack's alignment
# and so the instructions run: qemu runs with an empty environment, as
# ./NAME, in W/q (a path of fixed length).  Prints one line per binary:
# NAME ISA.
golden_programs() {
    local progs=$SRC/tests/qemu/progs name isa other
    mkdir -p q
    cp "$progs"/*.c q/
    (
        cd q || exit 1
        for name in $GOLDEN_PROGRAMS; do
            for isa in arm thumb; do
                other=thumb
                [ $isa = thumb ] && other=arm
                # -g for lines in coverage; the prefix map keeps W out of the DWARF.
                local cc=(arm-linux-gnueabihf-gcc -static -O1 -g "-fdebug-prefix-map=$PWD=/golden")
                # $name.$isa.o: the program's own code (for --filter OWN).
                if [ $name = inter ]; then
                    "${cc[@]}" -m$isa -c -o $name.$isa.o inter_main.c &&
                        "${cc[@]}" -m$other -c -o $name.$isa.other.o inter_other.c &&
                        "${cc[@]}" -o $name.$isa $name.$isa.o $name.$isa.other.o || exit 1
                else
                    "${cc[@]}" -m$isa -c -o $name.$isa.o $name.c &&
                        "${cc[@]}" -o $name.$isa $name.$isa.o || exit 1
                fi
                env -i qemu-arm -singlestep -d exec,nochain -D $name.$isa.log ./$name.$isa >/dev/null ||
                    exit 1
                echo "$name $isa"
            done
        done
    )
}

# golden_own BINARY: START-END of the functions of the program's own
# source file (BINARY.o), as roundtrip.py's FILTER_OWN.
golden_own() {
    local lo=$((1 << 32)) hi=0 start size
    while read -r start size; do
        start=$((0x$start & ~1))
        [ $start -lt $lo ] && lo=$start
        [ $((start + 0x$size)) -gt $hi ] && hi=$((start + 0x$size))
    done < <(arm-linux-gnueabihf-nm --defined-only "$1.o" |
        awk '$2 ~ /^[tT]$/ && $3 !~ /^[$]/ { print $3 }' |
        awk 'NR == FNR { own[$1] = 1; next }
             NF == 4 && $3 ~ /^[tT]$/ && ($4 in own) { print $1, $2 }' - \
            <(arm-linux-gnueabihf-nm -S --defined-only "$1"))
    printf '0x%x-0x%x' $lo $hi
}

# golden_battery NAME PIECE INPUT ID IMAGES: every listing and view of an
# input (INPUT, ID and IMAGES: words of the command line; dump takes no
# images, info neither), at -j 1 and at -j 2 with pieces of PIECE bytes
# (PFT_PIECE_SIZE, so that -j 2 splits even a small trace), and pft info.
# shellcheck disable=SC2086  # $in, $id, $img: words
golden_battery() {
    local name=$1 piece=$2 in=$3 id=$4 img=$5 j env a
    for j in 1 2; do
        env=()
        [ $j = 2 ] && env=("PFT_PIECE_SIZE=$piece")
        a="$in $id"
        golden_run "$name/dump.j$j" "${env[@]}" -- dump $a -j $j
        golden_run "$name/dump.jsonl.j$j" "${env[@]}" -- dump $a --format jsonl -j $j
        golden_run "$name/dump.count.j$j" "${env[@]}" -- dump $a --count -j $j
        a="$in $id $img"
        golden_run "$name/decode.j$j" "${env[@]}" -- decode $a -j $j
        golden_run "$name/decode.jsonl.j$j" "${env[@]}" -- decode $a --format jsonl -j $j
        golden_run "$name/decode.insn.j$j" "${env[@]}" -- decode $a --insn -j $j
        golden_run "$name/decode.insn.jsonl.j$j" "${env[@]}" -- decode $a --insn --format jsonl -j $j
        golden_run "$name/decode.count.j$j" "${env[@]}" -- decode $a --count -j $j
        golden_run "$name/coverage.j$j" "${env[@]}" -- coverage $a -j $j
        golden_run "$name/coverage.jsonl.j$j" "${env[@]}" -- coverage $a --format jsonl -j $j
        case $img in *--elf*)   # lines: only an ELF's DWARF has them
            golden_run "$name/coverage.lcov.j$j" "${env[@]}" -- coverage $a --format lcov -j $j
            golden_run "$name/profile.llvm.j$j" "${env[@]}" -- profile $a --format llvm-sample -j $j ;;
        esac
        golden_run "$name/annotate.j$j" "${env[@]}" -- annotate $a -j $j
        golden_run "$name/annotate.jsonl.j$j" "${env[@]}" -- annotate $a --format jsonl --order address -j $j
        golden_run "$name/profile.j$j" "${env[@]}" -- profile $a -j $j
        golden_run "$name/profile.jsonl.j$j" "${env[@]}" -- profile $a --format jsonl -j $j
        golden_run "$name/profile.folded.j$j" "${env[@]}" -- profile $a --format folded -j $j
        golden_run "$name/profile.callgrind.j$j" "${env[@]}" -- profile $a --format callgrind -j $j
        golden_run "$name/timeline.j$j" "${env[@]}" -- timeline $a -j $j
        golden_run "$name/calls.j$j" "${env[@]}" -- calls $a -j $j
        golden_run "$name/calls.jsonl.j$j" "${env[@]}" -- calls $a --format jsonl -j $j
    done
    golden_run "$name/info" -- info $in
    golden_run "$name/info.jsonl" -- info $in --format jsonl
}

# golden_short NAME PIECE INPUT ID IMAGES: a few cases of the battery.
# shellcheck disable=SC2086
golden_short() {
    local name=$1 piece=$2 in=$3 id=$4 img=$5
    golden_run "$name/dump.jsonl.j2" "PFT_PIECE_SIZE=$piece" -- dump $in $id --format jsonl -j 2
    golden_run "$name/decode.jsonl.j2" "PFT_PIECE_SIZE=$piece" -- decode $in $id $img --format jsonl -j 2
    golden_run "$name/decode.insn.jsonl.j1" -- decode $in $id $img --insn --format jsonl -j 1
    golden_run "$name/calls.jsonl.j2" "PFT_PIECE_SIZE=$piece" -- calls $in $id $img --format jsonl -j 2
}

# golden_perf_file NAME FILE: a perf.data pft encode wrote, with W (the
# absolute path of the ELF the MMAP2 records name) as /tmp/pft-golden.WWWWWW.
golden_perf_file() {
    golden_sync
    LC_ALL=C sed "s|$PWD|/tmp/pft-golden.WWWWWW|g" "$2" >"$2.w"
    golden_file "$1" "$2.w"
}

# golden_snapshot NAME DIR: the files of a snapshot pft encode wrote, as one
# (name, content) stream.
golden_snapshot_file() {
    local f
    golden_sync
    for f in "$2"/*; do
        echo "== ${f##*/}"
        cat "$f"
    done >"$2.all"
    golden_file "$1" "$2.all"
}

golden_cases() {
    ln -s "$SS" ss
    ln -s "$SRC/examples/demo" demo
    local img=ss/TC2/kernel_dump.bin@0xc0008000

    # The captures of ../shared/testdata and the demo.
    golden_battery tc2 1024 "--snapshot ss/TC2" "" ""
    golden_battery tc2.id13 1024 "--snapshot ss/TC2" "--id 0x13" ""
    golden_battery tc2.id10 1024 "--snapshot ss/TC2" "--id 0x10" ""
    golden_battery tc2.fmt 1024 "--formatted ss/TC2/cstrace.bin" "" "--image $img"
    golden_battery tc2.fmt.id13 1024 "--formatted ss/TC2/cstrace.bin" "--id 0x13" "--image $img"
    golden_battery a15 16 "--snapshot ss/trace_cov_a15" "" ""
    golden_battery demo 64 "--snapshot demo" "" "--elf demo/prog"
    golden_run regs.tc2 -- regs --snapshot ss/TC2
    golden_run regs.values -- regs ETMCR=0x10001000 ETMIDR=0x411CF312
    golden_run event.decode -- event decode 0x406f
    golden_run event.encode -- event encode 'counter2 & arc3'

    # The qemu programs: encoded as PTM and as ETMv3 trace (raw, formatted,
    # snapshot; switch also as perf.data), the snapshots (and perf.data)
    # decoded.
    command -v qemu-arm >/dev/null && command -v arm-linux-gnueabihf-gcc >/dev/null || {
        golden_input qemu "no qemu-arm or arm-linux-gnueabihf-gcc"
        return
    }
    local list
    list=$(golden_programs) || {
        golden_input qemu "the programs do not build or run"
        return
    }
    local bins
    mapfile -t bins < <(echo "$list" | tr ' ' .)
    golden_input qemu "$(cd q && sha256sum "${bins[@]}" | sha256sum | cut -c1-64) $(cd q &&
        for b in "${bins[@]}"; do awk -F/ '/^Trace/ { print $2 }' "$b.log"; done |
        sha256sum | cut -c1-64)" || return
    # The whole battery for a third of the traces of each protocol (both
    # instruction sets), a few cases for the others: the test's time.
    local i=0 prog isa b cfg own battery=(short battery)
    while read -r prog isa; do
        b=q/$prog.$isa
        own=$(golden_own $b)
        cfg=${GOLDEN_PTM_CONFIGS[i % ${#GOLDEN_PTM_CONFIGS[@]}]//OWN/$own}
        # shellcheck disable=SC2086  # $cfg: the configuration's words
        golden_run $b/encode.ptm -- encode --log $b.log --elf $b $cfg \
            --out-raw $b.ptm.raw --out-formatted $b.ptm.fmt --id 0x2b --out-snapshot $b.ptm.ss
        golden_file $b/encode.ptm.raw $b.ptm.raw
        golden_file $b/encode.ptm.formatted $b.ptm.fmt
        golden_snapshot_file $b/encode.ptm.snapshot $b.ptm.ss
        # shellcheck disable=SC2086
        golden_run $b/stats.ptm -- stats --log $b.log --elf $b $cfg
        golden_${battery[i % 3 == 0]} $b.ptm 64 "--snapshot $b.ptm.ss" "" "--elf $b"
        cfg=${GOLDEN_ETM3_CONFIGS[i % ${#GOLDEN_ETM3_CONFIGS[@]}]//OWN/$own}
        # shellcheck disable=SC2086
        golden_run $b/encode.etm3 -- encode --protocol etmv3 --log $b.log --elf $b $cfg \
            --out-raw $b.etm3.raw --out-formatted $b.etm3.fmt --out-snapshot $b.etm3.ss
        golden_file $b/encode.etm3.raw $b.etm3.raw
        golden_file $b/encode.etm3.formatted $b.etm3.fmt
        golden_snapshot_file $b/encode.etm3.snapshot $b.etm3.ss
        # shellcheck disable=SC2086
        golden_run $b/stats.etm3 -- stats --protocol etmv3 --log $b.log --elf $b $cfg --format jsonl
        golden_${battery[i % 3 == 1]} $b.etm3 64 "--snapshot $b.etm3.ss" "" "--elf $b"
        if [ $prog = switch ]; then
            golden_run $b/encode.ptm.perf -- encode --log $b.log --elf $b --out-perf $b.ptm.perf
            golden_perf_file $b/encode.ptm.perf.data $b.ptm.perf
            golden_short $b.ptm.perf 64 "--perf $b.ptm.perf" "" "--elf $b"
            golden_run $b.ptm.perf/info -- info --perf $b.ptm.perf
            golden_run $b/encode.etm3.perf -- encode --protocol etmv3 --log $b.log --elf $b \
                --cycle-accurate --out-perf $b.etm3.perf --perf-raw
            golden_perf_file $b/encode.etm3.perf.data $b.etm3.perf
            golden_short $b.etm3.perf 64 "--perf $b.etm3.perf" "" "--elf $b"
        fi
        i=$((i + 1))
    done <<<"$list"
}
