#!/bin/bash
# LLVM sample profiles through the compiler that uses them: programs built
# by clang for ARM (-O2 -g -fdebug-info-for-profiling: DWARF 5 without
# .debug_aranges, discriminators, inlining) run under qemu, traced (PTM),
# and profiled by pft profile --format llvm-sample; clang builds them again
# with -fprofile-sample-use and the sample loader's coverage checks at 90%
# and must not warn.  The same profile with every line offset moved by one
# must make it warn: the check sees the records.  insn_check.py checks the
# instruction-level views of these programs against qemu as well.
#
# Programs whose exact profile clang cannot fully apply (doc/verification.md,
# "LLVM sample profiles and clang's coverage checks"): clang warns, and
# sample_unused.py, reading the IR clang annotated, must explain the warning
# to the record: the loader's own rule (one record per instruction, none for
# branches, PHIs and intrinsics) gives the numbers clang prints, and every
# record it leaves unused lies where clang's IR has only such instructions.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
: "${PFT:?}"
for tool in clang arm-linux-gnueabihf-gcc qemu-arm python3 llvm-profdata; do
    command -v "$tool" >/dev/null || { echo "missing tool: $tool"; exit 1; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cc=(clang --target=arm-linux-gnueabihf -O2 -g -fdebug-info-for-profiling -static)
checks=(-mllvm -sample-profile-check-record-coverage=90
        -mllvm -sample-profile-check-sample-coverage=90)

# Build, run under qemu, encode and profile $src as $bin ($isa); check
# the instruction-level views.
profile() {
    # shellcheck disable=SC2086  # $src: one or two files
    if ! "${cc[@]}" "$isa" -o "$bin" $src ||
       ! { qemu-arm -singlestep -d exec,nochain -D "$bin.log" "$bin" >/dev/null; [ -s "$bin.log" ]; } ||
       ! "$PFT" encode --log "$bin.log" --elf "$bin" --out-raw "$bin.raw" 2>/dev/null ||
       ! "$PFT" profile --raw "$bin.raw" --elf "$bin" --quiet --format llvm-sample \
             --output "$bin.prof"; then
        bad "$name $isa: cannot build, run, encode or profile it"
        return 1
    fi
    check_true "$name $isa: insn_check.py" \
        python3 "$here/insn_check.py" "$PFT" "$bin.log" "$bin" "$bin.raw" ptm
}

for prog in hot:-marm views:-mthumb twins:-marm search:-mthumb trees:-marm; do
    IFS=: read -r name isa <<<"$prog"
    src=$here/progs/$name.c
    # twins: a static function of one name in each of two files, one
    # profile for both
    [ "$name" = twins ] && src="$here/progs/twins/a.c $here/progs/twins/b.c"
    bin=$tmp/$name$isa
    profile || continue
    if [ "$name" = trees ]; then
        # A recursion the compiler made a loop: ack's calls from outside
        # it; the head-count check (insn_check.py) says how many.
        check_eval "trees: profiles of build, sum and ack" \
            "grep -q '^build:' '$bin.prof' && grep -q '^sum:' '$bin.prof' && grep -q '^ack:' '$bin.prof'"
    elif [ "$name" != twins ]; then
        # Functions with inlined call sites are there (an indented name:total).
        check_eval "$name: the profile has inline call-site records" \
            "grep -Eq '^ +[0-9]+(\\.[0-9]+)?: [A-Za-z_][A-Za-z0-9_]*:[0-9]+$' '$bin.prof'"
    else
        # One helper profile, entered 3 + 2 times (twins/a.c says so).
        check_eval "twins: one profile for both helpers, head 5" \
            "[ \"\$(grep -c '^helper:' '$bin.prof')\" = 1 ] && grep -Eq '^helper:[0-9]+:5$' '$bin.prof'"
    fi
    # Every record's line offset 1000 further: records no instruction has.
    sed -E 's/^( +)([0-9]+)/\1\2000/' "$bin.prof" >"$bin.moved"
    for file in $src; do
        run "${cc[@]}" "$isa" "${checks[@]}" -fprofile-sample-use="$bin.prof" -c -o "$bin.o" "$file"
        check "$name $isa ${file##*/}: clang -fprofile-sample-use warns: $err" "$status:$err" "0:"
        run "${cc[@]}" "$isa" "${checks[@]}" -fprofile-sample-use="$bin.moved" -c -o "$bin.o" \
            "$file"
        check_eval "$name $isa ${file##*/}: a profile with wrong lines makes clang warn" \
            "grep -q 'profile records (.*) were applied' <<<\"\$err\""
    done
done

# Programs clang warns about, each warning explained record by record.
for prog in loops:-marm interp:-mthumb parse:-marm doloop:-marm; do
    IFS=: read -r name isa <<<"$prog"
    src=$here/progs/$name.c
    [ "$name" = loops ] && src=$here/../qemu/progs/loops.c
    bin=$tmp/$name$isa
    profile || continue
    run "${cc[@]}" "$isa" "${checks[@]}" -fprofile-sample-use="$bin.prof" \
        -mllvm -print-after=sample-profile -c -o "$bin.o" "$src"
    # (The IR dump is on stderr with the warnings.)
    grep -E 'warning: .* available profile records' <<<"$err" >"$bin.warn"
    printf '%s\n' "$err" >"$bin.ir"
    if ! python3 "$here/sample_unused.py" "$bin.prof" "$bin.ir" >"$bin.unused"; then
        bad "$name $isa: sample_unused.py fails"
        continue
    fi
    # clang's "USED of TOTAL available profile records" per function, and
    # the model's numbers for the functions under 90%.
    clang_says=$(sed -E 's/.*: ([0-9]+) of ([0-9]+) available profile records.*/\1 \2/' \
                 "$bin.warn" | sort)
    model_says=$(awk '!/^ / && $2 * 100 < 90 * $3 { print $2, $3 }' "$bin.unused" | sort)
    check "$name $isa: clang's record coverage warnings, as the loader's rule predicts" \
        "$model_says" "$clang_says"
    check_eval "$name $isa: clang warns" "[ -n \"\$clang_says\" ]"
    check "$name $isa: records clang left unused where its IR has instructions it reads" \
        "$(grep '^  unused' "$bin.unused" | grep -v ' ignored$')" ""
    # The same check sees wrong lines: no instruction at all there.
    sed -E 's/^( +)([0-9]+)/\1\2000/' "$bin.prof" >"$bin.moved"
    python3 "$here/sample_unused.py" "$bin.moved" "$bin.ir" >"$bin.unused"
    check_eval "$name $isa: records moved to lines without code are found" \
        "grep -q ' absent$' '$bin.unused'"
done

summary
