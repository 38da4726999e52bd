#!/bin/bash
# CLI tests of 'pft event' and 'pft regs'.
# Expected values: shared/spec/ptm-registers-events.md (section 7.3 worked
# encodings, section 6.1 register dumps) and hand computation noted inline
# (value = function << 14 | B << 7 | A).
set -eu
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"

: "${PFT:?PFT must name the pft binary}"
: "${PFT_SHARED:?PFT_SHARED must name the shared directory}"
SNAP="$PFT_SHARED/testdata/opencsd-snapshots"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# run ARGS...: runs pft, leaving stdout, stderr and the exit code in
# $TMP/out, $TMP/err and $rc.
run() {
	rc=0
	"$PFT" "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
}

# fail WHAT: a failed check, with the last run's output.
fail() {
	bad "$*"
	echo "  stdout: $(head -c 300 "$TMP/out")" >&2
	echo "  stderr: $(head -c 300 "$TMP/err")" >&2
}

# expect_out WANT_RC WANT_STDOUT ARGS...: exact stdout, exit code, no stderr.
expect_out() {
	local want_rc=$1 want=$2
	shift 2
	run "$@"
	if [ "$rc" = "$want_rc" ] && [ "$(cat "$TMP/out")" = "$want" ] &&
	   [ ! -s "$TMP/err" ]; then
		ok
	else
		fail "pft $* -> rc $rc, want rc $want_rc and '$want'"
	fi
}

# expect_refused PATTERN ARGS...: exit 2, nothing on stdout, exactly one
# line on stderr, matching the extended regex PATTERN.
expect_refused() {
	local pattern=$1
	shift
	run "$@"
	if [ "$rc" = 2 ] && [ ! -s "$TMP/out" ] &&
	   [ "$(wc -l <"$TMP/err")" = 1 ] && grep -Eq -- "$pattern" "$TMP/err"; then
		ok
	else
		fail "pft $* -> rc $rc, want rc 2 and one line /$pattern/"
	fi
}

# expect_grep FILE PATTERN WHAT: FILE has a line matching PATTERN.
expect_grep() {
	if grep -Eq -- "$2" "$1"; then ok; else fail "$3: no line /$2/"; fi
}

# ---- pft event: the spec's worked encodings, both ways ----
while read -r value expr; do
	expect_out 0 "$value" event encode "$expr"
	expect_out 0 "$expr" event decode "$value"
done <<'EOF'
0x52 seq_state3
0x8941 counter2 & arc3
0x6f always
0x406f never
0x59 ctxid_cmp2
0x6d ns
EOF
expect_out 0 "counter2 & arc3" event decode 0x00008941
expect_out 0 "counter2 & arc3" event decode 35137       # decimal 0x8941
expect_out 0 "0x406f" event encode '!always'
# The shell may split an expression: the words are joined.
expect_out 0 "0x8941" event encode counter2 and arc3

# Equivalent forms (hand computed):
# NOT(A) AND B, A = counter1 0x40, B = arc1 0x10: 0xc000 | 0x800 | 0x40
expect_out 0 "0xc840" event encode 'arc1 & !counter1'
expect_out 0 "!counter1 & arc1" event decode 0xc840
# De Morgan: NOT(A) AND NOT(B), A = arc1, B = arc2: 0x10000 | 0x880 | 0x10
expect_out 0 "0x10890" event encode '!(arc1 | arc2)'
# NOT(A) OR B, A = ext_in1 0x60, B = ns 0x6d: 0x18000 | 0x3680 | 0x60
expect_out 0 "0x1b6e0" event encode 'NOT ext_in1 OR ns'
expect_out 0 "!ext_in1 | ns" event decode 0x1b6e0

# Round trips through both commands.
for v in 0x0 0x17 0x5f 0x6e 0x8941 0x10890 0x1c000 0x1f6ef 0x14000; do
	run event decode "$v"
	expr=$(cat "$TMP/out")
	expect_out 0 "$(printf '0x%x' "$v")" event encode "$expr"
done

# Bad expressions: one line, column counted from 1, exit 2.
expect_refused "^pft: event: column 15: 'arc3': " event encode 'arc1 & arc2 & arc3'
expect_refused "^pft: event: column 1: 'counter5': .*out of range" event encode counter5
expect_refused "^pft: event: column 8: 'bogus': unknown resource" event encode 'arc1 | bogus'
expect_refused "^pft: event: column 1: .*never closed" event encode '(arc1'
expect_refused "^pft: event: column 5: " event encode 'arc1)'
expect_refused "^pft: event: column 7: .*found the end" event encode 'arc1 &'
expect_refused "^pft: event: column 6: .*found 'arc2'" event encode 'arc1 arc2'
expect_refused "^pft: event: column 6: '\\^'" event encode 'arc1 ^ arc2'
expect_refused "^pft: event: column 1: empty expression" event encode ''
expect_refused "^pft: event encode: missing expression" event encode

# Bad values.
expect_refused "^pft: event: 0x7f: resource A 0x7f .*reserved" event decode 0x7f
expect_refused "^pft: event: 0x8830: resource B 0x10 .*reserved|^pft: event: 0x8830: resource A 0x30" event decode 0x8830
expect_refused "^pft: event: 0x2406f: bits above 16.*0x406f" event decode 0x2406f
expect_refused "not a number" event decode xyz
expect_refused "one value" event decode 1 2

# B ignored by function A: decoded, with a note on stderr, exit 0.
run event decode 0x952
if [ "$rc" = 0 ] && [ "$(cat "$TMP/out")" = seq_state3 ] &&
   [ "$(wc -l <"$TMP/err")" = 1 ] && grep -q "canonical value 0x52" "$TMP/err"; then
	ok
else
	fail "event decode 0x952"
fi

# Implementation limits (Cortex-A15: 2 counters, VMID comparator, 2
# selectors; Cortex-A9: PFTv1.0, no VMID comparator).
expect_refused "^pft: event: column 1: 'counter3': .*not implemented" \
	event encode --implementation a15 counter3
expect_out 0 "0x41" event encode --implementation a15 counter2
expect_out 0 "0x5b" event encode vmid_cmp --implementation a15
expect_refused "not implemented" event encode --implementation a9 vmid_cmp
expect_refused "^pft: event: 0x42: resource A \(counter3\)" event decode --implementation a15 0x42
expect_out 0 "0x69" event encode --etmccr 0x8D294004 --etmccer 0x34C01AC2 ext_in_sel2
expect_refused "not implemented" event encode --etmccr 0x8D294004 --etmccer 0x34C01AC2 ext_in_sel3
expect_refused "not a PTM|does not describe a PTM" event encode --etmidr 0x410CF250 ns
expect_refused "unknown 'a7'" event encode --implementation a7 ns
expect_refused "unknown action" event frobnicate ns
expect_refused "unknown option" event encode --bogus ns

# ---- pft regs NAME=VALUE ----
run regs ETMCR=0x10001000 ETMCCER=0x34C01AC2 ETMIDR=0x411CF312
if [ "$rc" = 0 ] && [ ! -s "$TMP/err" ]; then ok; else fail "regs TC2 registers"; fi
expect_grep "$TMP/out" '^ETMCR \(0x000\) = 0x10001000' "regs ETMCR header"
expect_grep "$TMP/out" '^  \[12\] +cycle_accurate +1 ' "regs CA"
expect_grep "$TMP/out" '^  \[28\] +timestamps +1 ' "regs TS"
expect_grep "$TMP/out" '^  \[29\] +return_stack +0 ' "regs RS"
expect_grep "$TMP/out" '^  \[15:14\] +ctxid_size +0x0 ' "regs ctxid"
expect_grep "$TMP/out" '^  \[7:4\] +minor +0x1 +PFTv1.1' "regs PFT version"

# Inconsistent or reserved settings: 'warning:' lines and exit 1.
for reg in ETMCR=0x20000100 ETMTRACEIDR=0x70 ETMTRACEIDR=0 ETMIDR=0x410CF250 \
	   ETMTEEVR=0x7f ETMCR=0x80000000; do
	run regs "$reg"
	if [ "$rc" = 1 ] && grep -q 'warning:' "$TMP/out"; then ok; else fail "regs $reg"; fi
done
# Timestamps enabled but an ETMCCER that can be believed (bit 12 reads 1)
# says they are not implemented.
run regs ETMCCER=0x000018EA ETMCR=0x10000000
if [ "$rc" = 1 ] && grep -Eq '\[28\] +timestamps +1 +warning:' "$TMP/out"; then ok
else fail "regs ETMCR with an ETMCCER without timestamps"; fi
# Snowball's Cortex-A9 ETMCCER says the same, but its reserved bit 12 reads
# 0 and its trace has timestamps: no warning, the dump is said untrusted.
run regs ETMCCER=0x000008EA ETMCR=0x10000000
if [ "$rc" = 0 ] && ! grep -q 'warning:' "$TMP/out" &&
   grep -Eq '\[28\] +timestamps +1 +timestamp packets on' "$TMP/out" &&
   grep -Eq '\[22\] .*not implemented \(so this dump says; bit 12 says not to trust it\)' "$TMP/out"
then ok; else fail "regs ETMCR with Snowball ETMCCER"; cat "$TMP/out"; fi
# An event beyond the implementation.
run regs --implementation a15 ETMTRIGGER=0x42
if [ "$rc" = 1 ] && grep -q 'not implemented' "$TMP/out"; then ok; else fail "regs a15 event"; fi
expect_out 0 "ETMFOO = 0x00000001  (not explained)" regs ETMFOO=1
expect_refused "is not NAME=VALUE" regs ETMCR
expect_refused "not a 32-bit number" regs ETMCR=zz
expect_refused "exclude each other" regs --snapshot "$SNAP/TC2" ETMCR=0

# ---- pft regs --snapshot ----
# A Cortex-A9 capture with timestamps whose ETMCCER is the Snowball dump's
# (bit 12 reads 0, "no timestamps"): the registers are explained with no
# warning, and the trace indeed holds timestamps.
demo="${PFT_SOURCE:-$(dirname "$0")/../..}/examples/demo"
"$PFT" decode --snapshot "$demo" --format jsonl |
	python3 "$(dirname "$0")/demo_log.py" "$demo/mem_0.bin" >"$TMP/demo.log"
"$PFT" encode --log "$TMP/demo.log" --elf "$demo/prog" --pft-version 1.0 --timestamps \
	--cycle-accurate --out-snapshot "$TMP/a9" >/dev/null 2>&1
sed -i 's/^ETMCCER([^)]*)=.*/ETMCCER(0x07A)=0x000008EA/' "$TMP/a9"/*.ini
run regs --snapshot "$TMP/a9"
if [ "$rc" = 0 ] && ! grep -q 'warning:' "$TMP/out" "$TMP/err" &&
   grep -q 'timestamps on' "$TMP/out" && grep -q 'ETMCCER (0x07a) = 0x000008ea' "$TMP/out"
then ok; else fail "regs --snapshot of a Cortex-A9 capture with Snowball's ETMCCER"; fi
run decode --snapshot "$TMP/a9" --count
if grep -Eq '^ *timestamp +[1-9]' "$TMP/out"; then ok
else fail "the Cortex-A9 capture has timestamps"; fi
run regs --snapshot "$SNAP/TC2"
if [ "$rc" = 0 ] && [ ! -s "$TMP/err" ]; then ok; else fail "regs TC2 snapshot"; fi
cp "$TMP/out" "$TMP/tc2"
expect_grep "$TMP/tc2" '^PTM_0: PTM1.1 ' "TC2 PTM_0"
expect_grep "$TMP/tc2" '^PTM_1: PTM1.1 ' "TC2 PTM_1"
expect_grep "$TMP/tc2" '^  PFTv1.1, trace ID 0x13; cycle-accurate on, timestamps on \(64-bit, natural binary\), context ID none, return stack off, branch broadcast off, VMID off$' "TC2 PTM_0 summary"
expect_grep "$TMP/tc2" '^  PFTv1.1, trace ID 0x14; ' "TC2 PTM_1 summary"
expect_grep "$TMP/tc2" '^ETMTRACEIDR \(0x080\) = 0x00000013' "TC2 trace ID"
if grep -q 'ETM_0\|ITM_0\|warning:' "$TMP/tc2"; then fail "TC2: only PTMs, no warnings"; else ok; fi

run regs --snapshot "$SNAP/trace_cov_a15" --device PTM_0_2
if [ "$rc" = 0 ] && [ ! -s "$TMP/err" ]; then ok; else fail "regs trace_cov_a15"; fi
cp "$TMP/out" "$TMP/cov"
expect_grep "$TMP/cov" '^  PFTv1.1, trace ID 0x02; cycle-accurate off, timestamps off, context ID none, return stack on, branch broadcast off, VMID off$' "cov summary"
expect_grep "$TMP/cov" '^ETMCR \(0x000\) = 0x20000400' "cov ETMCR"
expect_grep "$TMP/cov" '^  \[10\] +programming +1 +note: ' "cov Programming bit"
expect_grep "$TMP/cov" '^  \[29\] +return_stack +1 ' "cov return stack"
expect_grep "$TMP/cov" '^  \[16:0\] +event +0x406f +never$' "cov never"
expect_grep "$TMP/cov" '^  \[16:0\] +event +0x6f +always$' "cov always"
expect_grep "$TMP/cov" '^  \[11:0\] +period +0x400 +.* 1024 bytes' "cov ETMSYNCFR"
expect_grep "$TMP/cov" '^  \[17\] +reserved +1 +reserved, reads as one' "cov ETMCNTENR bit 17"
expect_grep "$TMP/cov" '^ETMCNTENR3 \(0x056\) = 0x00000000 .*' "cov ETMCNTENR3"
expect_grep "$TMP/cov" '^registers not explained:$' "cov unexplained header"
expect_grep "$TMP/cov" '^  ETMACTR1 = 0x00000001$' "cov raw ETMACTR1"
if grep -q 'warning:' "$TMP/cov"; then fail "cov: no warnings"; else ok; fi
# Every register of the device file is shown, explained or raw.
missing=0
for name in $(sed -n '/^\[regs\]/,/^\[/s/^\([A-Z0-9_]*\)(.*/\1/p' \
	"$SNAP/trace_cov_a15/device5.ini"); do
	grep -Eq "^(  )?$name( \(|  =| = )" "$TMP/cov" || { missing=1; echo "missing $name" >&2; }
done
if [ "$missing" = 0 ]; then ok; else fail "cov: all registers shown"; fi

# Both PTMs of trace_cov_a15 without --device; the ETMs are not PTMs.
run regs --snapshot "$SNAP/trace_cov_a15"
if [ "$rc" = 0 ] && grep -q '^PTM_0_2: ' "$TMP/out" && grep -q '^PTM_1_3: ' "$TMP/out" &&
   ! grep -q '^ETM_0_4' "$TMP/out"; then ok; else fail "cov both PTMs"; fi
expect_refused "ETM_0_4: not a PTM" regs --snapshot "$SNAP/trace_cov_a15" --device ETM_0_4
expect_refused "no device 'nosuch'" regs --snapshot "$SNAP/trace_cov_a15" --device nosuch
expect_refused "^pft: " regs --snapshot "$TMP/no-such-dir"
expect_refused "needs --snapshot" regs --device PTM_0

summary
