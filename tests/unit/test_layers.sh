#!/bin/bash
# The layering rule of doc/ARCHITECTURE.md, and the pft_ prefix of every
# global symbol of the library: each folder of libpft is a layer,
# and a layer uses only the layers below it.  Checked two ways:
#  - objects: the functions a module's .o (libpft/LAYER/NAME.c) or a unit
#    test's .o leaves undefined, each resolved to the module defining it,
#    whose folder must be the caller's or one below;
#  - headers: an #include "LAYER/x.h" in libpft must name the file's own
#    layer or one below, and no two files include each other, directly or
#    through others (no circles).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
B=${PFT_BUILD:?set PFT_BUILD to the build directory}
src=${PFT_SOURCE:-$(cd "$(dirname "$0")/../.." && pwd)}
python3 - "$B" "$src" <<'PY'
import glob, os, re, subprocess, sys

build, src = sys.argv[1], sys.argv[2]
objroot = build + "/CMakeFiles/pft_obj.dir/libpft"

# The layers, bottom up, and what each may use besides itself (closed
# transitively).  ptm and etm3 are peers: neither uses the other.
USES = {
    "common": "",
    "frames": "common",
    "image": "common",
    "core": "image",
    "ptm": "core",
    "etm3": "core",
    "decode": "frames ptm etm3",
    "input": "decode",
    "views": "input",
}
problems = 0
def problem(msg):
    global problems
    print(msg)
    problems += 1

folders = sorted(d for d in os.listdir(src + "/libpft") if os.path.isdir(src + "/libpft/" + d))
for d in folders:
    if d not in USES:
        problem("libpft/%s/ is no layer of test_layers.sh" % d)
for d in USES:
    if d not in folders:
        problem("layer %s has no folder libpft/%s/" % (d, d))

def below(l, seen=None):
    seen = set() if seen is None else seen
    for u in USES.get(l, "").split():
        if u not in seen:
            seen.add(u)
            below(u, seen)
    return seen

def nm(obj, *flags):
    return subprocess.run(["nm", *flags, obj], capture_output=True, text=True,
                          check=True).stdout.splitlines()

modules = sorted(glob.glob(objroot + "/*/*.c.o"))
layer_of, defined = {}, {}
for o in modules:
    layer, m = o.split("/")[-2], os.path.basename(o)[:-len(".c.o")]
    layer_of[m] = layer
    for line in nm(o, "--defined-only"):
        f = line.split()
        if len(f) == 3 and f[1] in "TDRB":
            defined[f[2]] = m
            # One prefix for every global symbol of the library (the
            # sanitizers' own, __odr_asan.NAME and the like, aside).
            if not f[2].startswith(("pft_", "__")):
                problem("libpft/%s/%s.c defines %s, a global without the pft_ prefix"
                        % (layer, m, f[2]))

def check(who, layer, obj, extra=""):
    allowed = below(layer) | {layer}
    for x in extra.split():
        allowed |= below(x) | {x}
    bad = {}
    for line in nm(obj, "-u"):
        s = line.split()[-1]
        m = defined.get(s)
        if m and layer_of[m] not in allowed:
            bad.setdefault(m, []).append(s)
    for m, ss in sorted(bad.items()):
        problem("%s (%s) uses %s (%s): %s" % (who, layer, m, layer_of[m], " ".join(sorted(ss)[:4])))

for o in modules:
    check("libpft/%s/%s.c" % (o.split("/")[-2], os.path.basename(o)[:-4]), o.split("/")[-2], o)

# Headers: the layer of every include, and no circles between files.
inc = re.compile(r'#include "([a-z0-9_]+)/([a-z0-9_]+\.h)"')
edges = {}
for f in sorted(glob.glob(src + "/libpft/*/*.[ch]")):
    layer = f.split("/")[-2]
    me = layer + "/" + os.path.basename(f)
    for l, h in inc.findall(open(f).read()):
        if l not in USES:
            continue
        if l != layer and l not in below(layer):
            problem("%s includes %s/%s (layer %s above %s)" % (me, l, h, l, layer))
        if not os.path.exists(src + "/libpft/" + l + "/" + h):
            problem("%s includes %s/%s, which does not exist" % (me, l, h))
        edges.setdefault(me, set()).add(l + "/" + h)
# A header and its own source are one file for this purpose.
def unit(name):
    return re.sub(r"\.[ch]$", "", name)
g = {}
for a, bs in edges.items():
    for b in bs:
        if unit(a) != unit(b):
            g.setdefault(unit(a), set()).add(unit(b))
state = {}
def visit(n, path):
    state[n] = 1
    for m in sorted(g.get(n, ())):
        if state.get(m) == 1:
            problem("circle: " + " -> ".join(path[path.index(m):] + [m]))
        elif m not in state:
            visit(m, path + [m])
    state[n] = 2
for n in sorted(g):
    if n not in state:
        visit(n, [n])

# Unit tests: test_X.c belongs to module X's layer; the others are named here.
TEST_LAYER = {"errors": None, "sizes": None,   # by purpose, every layer
              "views_bounds": "views", "calls_fold": "views", "outbuf": "common",
              "input_etm3": "input", "input_diag": "input", "par_handover": "input", "pipe_staging": "decode",
              "etm3_realign": "etm3", "detect": "decode", "dfmt": "frames", "ffmt": "frames",
              "encoder": "ptm", "model": "ptm", "flow": "ptm", "event": "ptm", "regs": "ptm",
              "etm3_pkt": "etm3", "etm3_flow": "etm3", "etm3_model": "etm3", "pft_input_get_perf": "input",
              "format": "common", "names": "views", "pipe": "decode", "info": "decode",
              "config_regs": "decode"}   # PTM and ETMv3 side by side
for p in ("pkt_batch", "pkt_branch", "pkt_decoder", "pkt_fuzz", "pkt_isync_atom",
          "pkt_realign", "pkt_timestamp"):
    TEST_LAYER[p] = "ptm"
# Layers a test may use besides its own, and why: exceptions for tests,
# never for modules.
TEST_EXTRA = {
    "pkt_batch": "frames",  # the real TC2 capture is a formatted file
}
tests = sorted(glob.glob(build + "/CMakeFiles/test_*.dir/tests/unit/test_*.c.o"))
for o in tests:
    t = os.path.basename(o)[len("test_"):-len(".c.o")]
    if t in TEST_LAYER:
        layer = TEST_LAYER[t]
        if layer is None:
            continue
    else:
        layer = layer_of.get("pft_" + t)
    if layer is None:
        problem("test_%s.c has no layer in test_layers.sh" % t)
        continue
    check("test_%s.c" % t, layer, o, TEST_EXTRA.get(t, ""))
want = len(glob.glob(src + "/tests/unit/test_*.c"))
if len(tests) != want:
    problem("%d unit test objects built, %d tests/unit/test_*.c" % (len(tests), want))
print("layers: %d folders, %d modules and %d unit tests checked, %d problems"
      % (len(folders), len(modules), len(tests), problems))
sys.exit(1 if problems or not tests or not modules else 0)
PY
if [ $? -eq 0 ]; then ok; else bad "the layering (problems above)"; fi
summary
