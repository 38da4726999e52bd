#!/bin/sh
# Installs the Debian packages that building, testing and benchmarking pft
# need.  Run as root on Debian 12.  Does nothing when all are present.
set -e
PKGS="gcc make cmake pkg-config python3 libelf-dev libdw-dev libcapstone-dev
      libopencsd-bin libopencsd-dev
      qemu-user gcc-arm-linux-gnueabihf libc6-dev-armhf-cross
      qemu-system-arm gcc-arm-none-eabi
      clang libfuzzer-14-dev libclang-rt-14-dev valgrind hyperfine lcov
      man-db groff-base jq linux-perf llvm"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "install-deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing >/dev/null
