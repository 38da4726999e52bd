#!/bin/bash
# The public headers: include/pft.h includes include/pft/*.h, one header
# per layer.  Each of them compiles alone (included first, and twice: its
# guard) as C11 with -Wall -Wextra -Werror -pedantic, and as C++ when g++
# is there (extern "C"); each starts with a head comment naming itself;
# pft.h includes every one; no function is declared in two headers.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
src=${PFT_SOURCE:-$(cd "$(dirname "$0")/../.." && pwd)}
inc=$src/include
cc=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# quiet_check DESCRIPTION COMMAND...: as check_true, the command's output
# shown only when it fails.
quiet_check() {
    local what=$1; shift
    if "$@" >"$tmp/log" 2>&1; then ok
    else bad "$what"; head -20 "$tmp/log" | sed 's/^/    /'; fi
}

headers=$(cd "$inc" && ls pft/*.h)
quiet_check "include/pft/ has headers ($(echo $headers | wc -w))" test -n "$headers"
cxx=
command -v g++ >/dev/null && cxx=g++
[ -z "$cxx" ] && echo "note: no g++, the C++ checks are skipped"

for h in $headers pft.h; do
    printf '#include "%s"\n#include "%s"\n' "$h" "$h" >"$tmp/t.c"
    quiet_check "$h compiles alone as C11" \
        "$cc" -std=c11 -Wall -Wextra -Werror -pedantic -I"$inc" -c "$tmp/t.c" -o "$tmp/t.o"
    if [ -n "$cxx" ]; then
        cp "$tmp/t.c" "$tmp/t.cc"
        quiet_check "$h compiles alone as C++11" \
            "$cxx" -std=c++11 -Wall -Wextra -Werror -pedantic -I"$inc" -c "$tmp/t.cc" -o "$tmp/t.o"
    fi
    quiet_check "$h starts with a head comment naming it" \
        eval "head -2 '$inc/$h' | tail -1 | grep -q '^ \* $h - '"
done
for h in $headers; do
    quiet_check "pft.h includes $h" grep -qx "#include \"$h\"" "$inc/pft.h"
    quiet_check "$h includes only standard C headers and pft/ headers" \
        eval "! grep '^#include' '$inc/$h' | grep -v '^#include \"pft/[a-z0-9]*\.h\"\$' |
              grep -Ev '^#include <(std[a-z]*|string)\.h>\$'"
done

# The headers of libpft include none of libpft-io's (the head comment says
# which library a header belongs to).
for h in $headers; do
    grep -q 'Link with libpft-io' "$inc/$h" && continue
    io=$(grep -o '#include "pft/[a-z0-9]*\.h"' "$inc/$h" | grep -o 'pft/[a-z0-9]*\.h' |
         while read -r d; do grep -q 'Link with libpft-io' "$inc/$d" && echo "$d"; done)
    quiet_check "$h (libpft) includes no libpft-io header${io:+: $io}" test -z "$io"
done

# The guards are the headers' own (an internal header of the same name
# with the same guard would hide one of them).
for h in $headers; do
    g=$(sed -n 's/^#ifndef \(PFT_[A-Z0-9_]*\)$/\1/p' "$inc/$h" | head -1)
    others=$(grep -rlx "#ifndef $g" "$src/libpft" "$src/pft" "$src/include" 2>/dev/null | grep -v "/include/$h\$")
    quiet_check "$h has its own include guard ($g${others:+, also in $others})" \
        eval "[ -n '$g' ] && [ -z '$others' ]"
done

# Each exported function is declared in one header only.
dups=$(cd "$inc" && cat $headers | tr '\n' ' ' | grep -o 'pft_export[^;{]*;' |
       grep -o 'pft_[a-z0-9_]* *(' | tr -d ' (' | sort | uniq -d)
quiet_check "no function declared twice${dups:+: $dups}" test -z "$dups"
n=$(cd "$inc" && cat $headers | tr '\n' ' ' | grep -o 'pft_export[^;{]*;' | wc -l)
quiet_check "the headers declare more than 200 functions ($n)" test "$n" -gt 200

summary
