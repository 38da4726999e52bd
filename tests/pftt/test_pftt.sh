#!/bin/bash
# Compile every tests/pftt/*.pftt with pftc and check `pft dump` and
# `pft decode` (--format jsonl) against the expected outputs in it
# (doc/howto_pftt.md); only the files named, when some are.  One check
# per file; prints "N passed, N failed".
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
PFT=${PFT:?set PFT to the pft binary}
PFTC=${PFTC:-${PFT_BUILD:-$(dirname "$PFT")}/pftc}
work=$(mktemp -d /tmp/pftt-XXXXXX)
trap 'rm -rf "$work"' EXIT

# The exit statuses pft may give: 0 when no error is expected; when errors
# are, 1 (spec/cli.md) or 0 (the flow errors of the current CLI).
ok_status() {
	if grep -Eq '^([0-9]+ )?error( |$)' "$1"; then
		[ "$2" = 1 ] || [ "$2" = 0 ]
	else
		[ "$2" = 0 ]
	fi
}

[ $# -gt 0 ] || set -- "$here"/*.pftt
for spec in "$@"; do
	name=$(basename "$spec" .pftt)
	good=1
	if ! "$PFTC" "$spec" "$work"; then
		bad "$name: pftc failed"
		continue
	fi
	read -r -a opts < "$work/$name.opts"
	for sub in dump decode; do
		exp="$work/$name-$sub.exp"
		[ -f "$exp" ] || continue
		if [ $sub = dump ]; then
			"$PFT" dump --raw "$work/$name.bin" "${opts[@]}" --format jsonl \
				> "$work/$name-$sub.jsonl" 2> "$work/$name-$sub.err"
		else
			"$PFT" decode --raw "$work/$name.bin" --elf "$work/$name.elf" "${opts[@]}" \
				--format jsonl > "$work/$name-$sub.jsonl" 2> "$work/$name-$sub.err"
		fi
		status=$?
		if ! ok_status "$exp" $status; then
			echo "$name ($sub): exit status $status"
			cat "$work/$name-$sub.err"
			good=0
		fi
		if ! python3 "$here/compare.py" "$exp" "$work/$name-$sub.jsonl"; then
			echo "$name ($sub): output differs (above)"
			good=0
		fi
	done
	if [ $good = 1 ]; then ok; else bad "$name (above)"; fi
done
summary
