#!/bin/sh
# Rebuild views_image.h, the ELF fuzz_views decodes against, from views_image.s.
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
arm-linux-gnueabihf-as -march=armv7-a -g --debug-prefix-map "$PWD"=. views_image.s -o "$tmp/v.o"
arm-linux-gnueabihf-ld -N -Ttext=0x8000 -e main --no-warn-rwx-segments "$tmp/v.o" -o "$tmp/v.elf"
arm-linux-gnueabihf-objcopy -R .ARM.attributes "$tmp/v.elf" "$tmp/views_image"
{
	echo "/* Made by make_views_image.sh from views_image.s: do not edit. */"
	(cd "$tmp" && xxd -i views_image) | sed "s/^unsigned/static const unsigned/"
} > views_image.h
