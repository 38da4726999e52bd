#!/bin/bash
# pft dump on bad input: each case must exit with the right code and print
# exactly one line on stderr that names the file (and the offset where the
# problem has one).  Nothing may crash (the test build has ASan/UBSan).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
: "${PFT:?}" "${PFT_SHARED:?}" "${PFT_SOURCE:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# expect CODE PATTERN -- ARGS: run pft ARGS, check exit code, one stderr
# line, and that it matches the extended regex PATTERN.
expect() {
    local code=$1 pattern=$2; shift 3
    expect_error "$code" "$pattern" "$PFT" "$@"
}

ss="$PFT_SHARED/testdata/opencsd-snapshots"
# Files that cannot be read.
expect 2 "^pft: $tmp/missing.bin: No such file" -- dump --raw "$tmp/missing.bin"
expect 2 "^pft: $tmp: is a directory" -- dump --raw "$tmp"
: >"$tmp/empty.bin"
expect 2 "^pft: $tmp/empty.bin: empty file: no trace$" -- dump --raw "$tmp/empty.bin"
# Random bytes: no A-sync anywhere.
head -c 4096 /dev/urandom | tr -d '\000' >"$tmp/random.bin"
expect 1 "^pft: $tmp/random.bin: no A-sync in [0-9]+ bytes" -- dump --raw "$tmp/random.bin"
# A reserved header after synchronisation: located error, decoding goes on.
printf '\x00\x00\x00\x00\x00\x80\x84\x02\x84' >"$tmp/reserved.bin"
expect 1 "^pft: $tmp/reserved.bin: offset 0x7: reserved header 0x02$" -- dump --raw "$tmp/reserved.bin" --pft-version 1.1
grep -q '"type":"error"' <("$PFT" dump --raw "$tmp/reserved.bin" --pft-version 1.1 --format jsonl 2>/dev/null) \
    && ok || bad "error packet not listed"
# A packet cut by the end of the file.
printf '\x00\x00\x00\x00\x00\x80\x08\x00\x10' >"$tmp/cut.bin"
expect 1 "^pft: $tmp/cut.bin: offset 0x6: truncated packet$" -- dump --raw "$tmp/cut.bin" --pft-version 1.1

# A formatter frame with the illegal ID 0x7f: one located error line on
# stderr and in the listing, and packets again after the next A-sync.
python3 -c "import sys; b=bytearray(open(sys.argv[1],'rb').read()); b[0x6800:0x6802]=b'\xff\xff'; open(sys.argv[2],'wb').write(b)" \
    "$ss/TC2/cstrace.bin" "$tmp/badframe.bin"
expect 1 "^pft: $tmp/badframe.bin: offset 0x6800: id 0x13: bad formatter frame$" -- dump --formatted "$tmp/badframe.bin" --id 0x13 --cycle-accurate --timestamps
if "$PFT" dump --formatted "$tmp/badframe.bin" --id 0x13 --cycle-accurate --timestamps --format jsonl 2>/dev/null |
    python3 -c "
import json, sys
p = [json.loads(l) for l in sys.stdin]
i = next(k for k, x in enumerate(p) if x['type'] == 'error')
assert p[i]['offset'] == 0x6800 and p[i]['msg'] == 'bad formatter frame', p[i]
after = [x['type'] for x in p[i + 1:]]
assert 'async' in after and 'isync' in after[after.index('async'):], after[:20]
"; then ok; else bad "bad frame not listed, or no recovery after it"; fi

# Snapshots.
mkdir -p "$tmp/nosnap"
expect 2 "^pft: $tmp/nosnap/snapshot.ini: No such file" -- dump --snapshot "$tmp/nosnap"
cp -r "$ss/trace_cov_a15" "$tmp/bad1"; chmod -R u+w "$tmp/bad1"
printf '[snapshot]\nversion=1.0\n[device_list]\ndevice1=device1.ini\nthis line is junk\n' >"$tmp/bad1/snapshot.ini"
expect 2 "^pft: $tmp/bad1/snapshot.ini:5: expected key=value" -- dump --snapshot "$tmp/bad1"
cp -r "$ss/trace_cov_a15" "$tmp/bad2"; chmod -R u+w "$tmp/bad2"; rm "$tmp/bad2/device5.ini"
expect 2 "^pft: $tmp/bad2/device5.ini: No such file" -- dump --snapshot "$tmp/bad2"
cp -r "$ss/trace_cov_a15" "$tmp/bad3"; chmod -R u+w "$tmp/bad3"
sed -i 's/^ETMIDR(id:0x79)=0x411CF312/ETMIDR(id:0x79)=0x410CF250/' "$tmp/bad3/device5.ini"
expect 2 "^pft: $tmp/bad3/device5.ini: ETMIDR 0x410cf250 of PTM_0_2 is not a PTM" -- dump --snapshot "$tmp/bad3"
cp -r "$ss/trace_cov_a15" "$tmp/bad4"; chmod -R u+w "$tmp/bad4"; rm "$tmp/bad4/PTM_0_2.bin"
expect 2 "^pft: $tmp/bad4/PTM_0_2.bin: No such file" -- dump --snapshot "$tmp/bad4"
cp -r "$ss/trace_cov_a15" "$tmp/bad5"; chmod -R u+w "$tmp/bad5"
sed -i 's/^ETMCR(id:0x0)=0x20000400/ETMCR(id:0x0)=zzz/' "$tmp/bad5/device5.ini"
expect 2 "^pft: $tmp/bad5/device5.ini:[0-9]+: register ETMCR\(id:0x0\): bad value 'zzz'" -- dump --snapshot "$tmp/bad5"
# A trace ID that is not there.
expect 2 "^pft: $ss/TC2: no PTM or ETMv3 with trace ID 0x22" -- dump --snapshot "$ss/TC2" --id 0x22
expect 1 "^pft: $ss/TC2/cstrace.bin: trace ID 0x14: no trace data" -- dump --snapshot "$ss/TC2" --id 0x14
expect 1 "^pft: $ss/TC2/cstrace.bin: trace ID 0x25: no trace data" -- dump --formatted "$ss/TC2/cstrace.bin" --id 0x25

# Options.
expect 2 "^pft: no input" -- dump
expect 2 "^pft: give only one of" -- dump --raw a --snapshot b
expect 2 "^pft: --format: 'xml' is not text or jsonl" -- dump --raw a --format xml
expect 2 "^pft: --id: '0x7f' is not a trace ID" -- dump --formatted a --id 0x7f
expect 2 "^pft: --ctxid-bytes: '3' is not 0, 1, 2 or 4" -- dump --raw a --ctxid-bytes 3
expect 2 "^pft: --formatted with a PTM configuration needs --id N" -- dump --formatted a --cycle-accurate
expect 2 "^pft: unknown command 'dumpp'" -- dumpp
expect 2 "^pft: dump: unknown option '--bogus'" -- dump --bogus
expect 2 "^pft: dump: option '--id' needs a value" -- dump --raw a --id
expect 2 "^pft: dump: unexpected argument 'extra'" -- dump --raw a extra

summary
