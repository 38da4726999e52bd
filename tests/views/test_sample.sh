#!/bin/bash
# LLVM sample profiles through the compiler that uses them: programs built
# by clang for ARM (-O2 -g -fdebug-info-for-profiling: DWARF 5 without
# .debug_aranges, discriminators, inlining) run under qemu, traced (PTM),
# and profiled by pft profile --format llvm-sample; clang builds them again
# with -fprofile-sample-use and the sample loader's coverage checks at 90%
# and must not warn.  The same profile with every line offset moved by one
# must make it warn: the check sees the records.  insn_check.py checks the
# instruction-level views of these programs against qemu as well.
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

for prog in hot:-marm views:-mthumb twins:-marm; do
    IFS=: read -r name isa <<<"$prog"
    src=$here/progs/$name.c
    # twins: a static function of one name in each of two files, one
    # profile for both
    [ "$name" = twins ] && src="$here/progs/twins/a.c $here/progs/twins/b.c"
    bin=$tmp/$name$isa
    # shellcheck disable=SC2086  # $src: one or two files
    if ! "${cc[@]}" "$isa" -o "$bin" $src ||
       ! { qemu-arm -singlestep -d exec,nochain -D "$bin.log" "$bin" >/dev/null; [ -s "$bin.log" ]; } ||
       ! "$PFT" encode --log "$bin.log" --elf "$bin" --out-raw "$bin.raw" 2>/dev/null ||
       ! "$PFT" profile --raw "$bin.raw" --elf "$bin" --quiet --format llvm-sample \
             --output "$bin.prof"; then
        bad "$name $isa: cannot build, run, encode or profile it"
        continue
    fi
    check_true "$name $isa: insn_check.py" \
        python3 "$here/insn_check.py" "$PFT" "$bin.log" "$bin" "$bin.raw" ptm
    if [ "$name" != twins ]; then
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

summary
