#!/bin/bash
# The layering rule of ARCHITECTURE.md and doc/hacking.md: a unit test calls
# only its layer and the layers below, and so does each library module.
# Every unit test links the whole static library (one object library), so
# this reads the objects instead: the functions a test_X.c.o or a module's
# .o leaves undefined, each resolved to the module that defines it, and
# that module's layer must be one the caller's layer may use.
set -u
B=${PFT_BUILD:?set PFT_BUILD to the build directory}
lib=$B/CMakeFiles/pft_obj.dir/libpft/src
src=${PFT_SOURCE:-$(cd "$(dirname "$0")/../.." && pwd)}
python3 - "$B" "$lib" "$src" <<'PY'
import glob, os, subprocess, sys

build, lib, src = sys.argv[1], sys.argv[2], sys.argv[3]

# Layer of each module (libpft/src/NAME.c), bottom up.
LAYERS = {
    "common": "error config grow",
    "configuration": "event regs",
    "frames": "dfmt ffmt",
    "packets": "packet pkt_decoder encoder trace_common",
    "isa": "isa",
    "image": "image elf symbols",
    "insn": "insn",
    "flow": "flow",
    "model": "model model_log",
    "etm3": "etm3_config etm3_pkt etm3_encoder etm3_flow etm3_model",
    "pipeline": "pipe detect detect_ptm detect_fit info",
    "inputs": "input input_perf par perf perf_write snapshot",
    "outputs": "format",
    "calls": "calls",
    "views": "views views_util views_write timeline lines coverage names",
}
# What each layer may use besides itself (closed transitively below).
USES = {
    "common": "",
    "configuration": "common",
    "frames": "common",
    "packets": "common",
    "isa": "common",
    "image": "common",
    "insn": "image isa",
    "flow": "packets image isa",
    "model": "packets image isa",
    "etm3": "packets image isa model",
    "pipeline": "frames packets flow insn etm3 configuration",
    "inputs": "pipeline image",
    "outputs": "flow",
    "calls": "flow insn",
    "views": "calls",
}
# Unit tests named after no module: their layer (None: every layer, by
# purpose: test_sizes checks the structs of all, test_errors provokes an
# error in each to check the one error model).
TEST_LAYER = {"errors": None, "sizes": None, "views_bounds": "views",
              "outbuf": "common"}  # the CLI's pft/outbuf.h: no module of the library
# Layers a test may use besides those of its layer, and why: exceptions
# for tests, never for modules.
TEST_EXTRA = {
    "model": "flow",        # the model's packets are checked by decoding them
    "pkt_batch": "frames",  # the real TC2 capture is a formatted file
}
for p in ("pkt_batch", "pkt_branch", "pkt_decoder", "pkt_fuzz", "pkt_isync_atom",
          "pkt_realign", "pkt_timestamp"):
    TEST_LAYER[p] = "packets"
TEST_LAYER["etm3_realign"] = "etm3"
TEST_LAYER.update({"input_etm3": "inputs", "par_handover": "inputs", "pipe_staging": "pipeline"})

layer_of = {m: l for l, ms in LAYERS.items() for m in ms.split()}
def below(l, seen=None):
    seen = seen if seen is not None else set()
    for u in USES[l].split():
        if u not in seen:
            seen.add(u)
            below(u, seen)
    return seen

def syms(obj, flag):
    out = subprocess.run(["nm", flag, obj], capture_output=True, text=True, check=True).stdout
    return [l.split()[-1] for l in out.splitlines() if l.strip()]

defined = {}
problems = 0
for o in sorted(glob.glob(lib + "/*.c.o")):
    m = os.path.basename(o)[len("pft_"):-len(".c.o")]
    if m not in layer_of:
        print("module %s has no layer in test_layers.sh" % m)
        problems += 1
        continue
    for line in subprocess.run(["nm", "--defined-only", o], capture_output=True,
                               text=True, check=True).stdout.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "TDRB":
            defined[f[2]] = m

def check(who, layer, obj, extra=""):
    global problems
    allowed = below(layer) | {layer}
    for x in extra.split():
        allowed |= below(x) | {x}
    bad = {}
    for s in syms(obj, "-u"):
        m = defined.get(s)
        if m and layer_of[m] not in allowed:
            bad.setdefault(m, []).append(s)
    for m, ss in sorted(bad.items()):
        print("%s (%s) uses %s (%s): %s" % (who, layer, m, layer_of[m], " ".join(sorted(ss)[:4])))
        problems += 1

for o in sorted(glob.glob(lib + "/*.c.o")):
    m = os.path.basename(o)[len("pft_"):-len(".c.o")]
    if m in layer_of:
        check("pft_%s.c" % m, layer_of[m], o)
tests = sorted(glob.glob(build + "/CMakeFiles/test_*.dir/tests/unit/test_*.c.o"))
for o in tests:
    t = os.path.basename(o)[len("test_"):-len(".c.o")]
    layer = TEST_LAYER[t] if t in TEST_LAYER else layer_of.get(t)
    if t in TEST_LAYER and layer is None:
        continue
    if layer is None:
        print("test_%s.c has no layer in test_layers.sh" % t)
        problems += 1
        continue
    check("test_%s.c" % t, layer, o, TEST_EXTRA.get(t, ""))
want = len(glob.glob(src + "/tests/unit/test_*.c"))
if len(tests) != want:
    print("%d unit test objects built, %d tests/unit/test_*.c" % (len(tests), want))
    problems += 1
print("layers: %d unit tests and %d modules checked, %d problems"
      % (len(tests), len(glob.glob(lib + "/*.c.o")), problems))
sys.exit(1 if problems or not tests else 0)
PY
