#!/usr/bin/env python3
"""Round trip of bare-metal programs that take exceptions, run under
qemu-system-arm, through pft encode, pft decode and OpenCSD.

usage: bare_roundtrip.py suite PFT [KEEP_DIR]
       bare_roundtrip.py build BOARD VARIANT PROGRAM OUT_ELF
       bare_roundtrip.py run BOARD ELF LOG
       bare_roundtrip.py one PFT LOG ELF [ptm|etmv3] [CONFIG...]

suite: builds the programs of bare/ (calc, text) for both boards
(vexpress-a9 with a Cortex-A9, vexpress-a15 with a Cortex-A15) in both
variants (handlers in ARM; handlers in Thumb, SCTLR.TE = 1), runs each under
qemu-system-arm with `-singlestep -d exec,nochain,int,cpu -icount shift=3`
(the program checks itself and must exit through semihosting with
ADP_Stopped_ApplicationExit), works out the ground truth (bare_truth.py:
the executed instructions, and each exception with its number and preferred
return address, at its place) and requires, for every configuration of
CONFIGS_PTM and CONFIGS_ETM3:
 1. `pft encode --log LOG --elf ELF --out-snapshot DIR CONFIG` to succeed;
    for PTM some configurations get the log without its cpu lines (the
    plain `-d exec,nochain,int` form), the others the whole log;
 2. `pft decode --snapshot DIR --insn --format jsonl` to give exactly the
    truth: its `insn` objects (address and instruction set) and `exception`
    objects (`number`, `ret`), in order;
 3. OpenCSD's trc_pkt_lister to agree: for PTM, the same ranges and
    exceptions (with return addresses) as pft decode (../opencsd/diff_flow.py
    and its documented deviations: waypoint updates, and on the A15 with ARM
    handlers the A32 ERETs, which OpenCSD does not take for waypoints:
    pft-flow.md 4.1, pft-protocol.md A17); for ETMv3, the truth's
    instructions and exception numbers (../opencsd/diff_etm3.py's reading
    of OpenCSD).
The builds, runs and configurations run in parallel (one per CPU).
Exits 0 when everything agrees, 1 otherwise.
build, run: one program, by hand.  one: steps 1-3 for one log.
"""
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
BARE = os.path.join(HERE, "bare")
sys.path.insert(0, os.path.join(HERE, "..", "opencsd"))
import bare_truth  # noqa: E402
import diff_etm3  # noqa: E402
import diff_flow  # noqa: E402

TRACE_ID = 0x10
BOARDS = {  # board: (qemu machine, cpu, RAM base, -D)
    "a9": ("vexpress-a9", "cortex-a9", 0x60000000, "BOARD_A9"),
    "a15": ("vexpress-a15", "cortex-a15", 0x80000000, "BOARD_A15"),
}
VARIANTS = ("arm", "thumb")
# Each program: its C files and the instruction set each is built in.
PROGRAMS = {
    "calc": [("calc.c", "arm")],
    "text": [("text.c", "thumb"), ("text_arm.c", "arm")],
}
CFLAGS = ["-O1", "-mfloat-abi=soft", "-ffreestanding", "-nostdlib", "-nostartfiles",
          "-Wall", "-Wextra"]
# gcc 12 (arm-none-eabi 12.2.rel1) tuned for the Cortex-A15 saves r0-r3 of
# a Thumb __attribute__((interrupt("IRQ"))) function with STRD and never
# restores them: rt.c is tuned for a generic ARMv7-A, which pushes and pops.
RT_TUNE = "-mtune=generic-armv7-a"

# (configuration, log): "cpu" the whole log, "plain" without the cpu lines.
CONFIGS_PTM = [
    ("", "plain"),
    ("", "cpu"),
    ("--cycle-accurate --timestamps", "plain"),
    ("--return-stack", "cpu"),
    ("--branch-broadcast", "plain"),
    ("--pft-version 1.0 --cycle-accurate --timestamps --return-stack", "cpu"),
]
CONFIGS_ETM3 = [
    ("", "cpu"),
    ("--cycle-accurate", "cpu"),
    ("--timestamps", "cpu"),
    ("--branch-broadcast", "cpu"),
]


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, check=False, **kw)


def build(board, variant, prog, out):
    """Builds bare/PROG for BOARD with handlers in VARIANT; None or an error."""
    _machine, cpu, ram, define = BOARDS[board]
    flags = ["-mcpu=" + cpu, "-D" + define, "-I" + BARE] + CFLAGS
    if variant == "thumb":
        flags.append("-DTHUMB_HANDLERS")
    units = [("rt.S", None, []), ("rt.c", variant, [RT_TUNE])] + \
        [(src, isa, []) for src, isa in PROGRAMS[prog]]
    objs = []
    for src, isa, extra in units:
        obj = "%s.%s.o" % (out, src)
        isa_flag = ["-m" + isa] if isa else []
        r = run(["arm-none-eabi-gcc"] + flags + isa_flag + extra +
                ["-c", os.path.join(BARE, src), "-o", obj])
        if r.returncode:
            return "%s: %s" % (src, r.stderr.strip())
        objs.append(obj)
    r = run(["arm-none-eabi-gcc"] + flags + ["-T", os.path.join(BARE, "bare.ld"),
                                             "-Wl,--defsym=RAM_BASE=0x%x" % ram,
                                             "-o", out] + objs + ["-lgcc"])
    if r.returncode:
        return "link: %s" % r.stderr.strip()
    return None


def qemu(board, elf, log):
    """Runs ELF; None or an error.  -icount makes the run (and the log)
    the same every time; the log is limited to 64 MB."""
    machine, cpu, _ram, _define = BOARDS[board]
    args = ["qemu-system-arm", "-M", machine, "-cpu", cpu, "-nodefaults", "-nographic",
            "-audiodev", "none,id=snd0", "-global", "pl041.audiodev=snd0",
            "-kernel", elf, "-singlestep", "-d", "exec,nochain,int,cpu",
            "-icount", "shift=3,sleep=off", "-semihosting-config", "enable=on,target=native",
            "-D", log]
    try:
        r = subprocess.run(["bash", "-c", 'ulimit -f 131072 && exec "$@"', "qemu"] + args,
                           capture_output=True, text=True, check=False, timeout=60)
    except subprocess.TimeoutExpired:
        return "qemu-system-arm ran for 60 s"
    if r.returncode:
        return "qemu-system-arm exited %d (the program's checks failed?): %s" % (
            r.returncode, r.stderr.strip()[-300:])
    return None


def decoded(jsonl):
    """The `insn` and `exception` objects of pft decode, as the truth's elements."""
    out = []
    for line in jsonl.splitlines():
        o = json.loads(line)
        if o["type"] == "insn":
            out.append(("insn", int(o["addr"], 16), o["isa"]))
        elif o["type"] == "exception":
            out.append(("exception", o["number"], int(o["ret"], 16) if "ret" in o else None))
    return out


def fmt(el):
    if el is None:
        return "(end)"
    if el[0] == "insn":
        return "0x%x %s" % (el[1], el[2])
    return "exception %s ret=%s" % (el[1], "0x%x" % el[2] if el[2] is not None else "-")


def first_difference(want, got, what="decoded"):
    n = min(len(want), len(got))
    i = next((k for k in range(n) if want[k] != got[k]), n)
    if i == n and len(want) == len(got):
        return None
    lines = ["element %d of %d (truth) / %d (%s): truth %s, %s %s" % (
        i, len(want), len(got), what, fmt(want[i] if i < len(want) else None), what,
        fmt(got[i] if i < len(got) else None))]
    for k in range(max(0, i - 4), i + 3):
        a = fmt(want[k]) if k < len(want) else ""
        b = fmt(got[k]) if k < len(got) else ""
        lines.append("   %s%6d: truth %-28s %s %s" % (">" if k == i else " ", k, a, what, b))
    return "\n".join(lines)


def one(pft, tmp, label, log, plain, elf, truth, protocol, index, cfg):
    """(checks passed, checks failed, report) for configuration INDEX."""
    ss = os.path.join(tmp, "ss_%s_%s_%d" % (label, protocol, index))
    shutil.rmtree(ss, ignore_errors=True)
    name = "%s [%s%s%s]" % (label, protocol, " " + cfg[0] if cfg[0] else "",
                            ", no cpu lines" if cfg[1] == "plain" else "")
    args = [pft, "encode", "--log", plain if cfg[1] == "plain" else log, "--elf", elf,
            "--out-snapshot", ss, "--quiet"] + cfg[0].split()
    if protocol == "etmv3":
        args += ["--protocol", "etmv3"]
    r = run(args)
    if r.returncode:
        return 0, 3, "FAIL %s: encode (exit %d): %s" % (name, r.returncode, r.stderr.strip())
    r = run([pft, "decode", "--snapshot", ss, "--insn", "--format", "jsonl"])
    if r.returncode:
        return 0, 2, "FAIL %s: decode (exit %d): %s" % (name, r.returncode, r.stderr.strip())
    passed, failed, reports = 1, 0, []
    want = truth.elements()
    diff = first_difference(want, decoded(r.stdout))
    if diff:
        failed += 1
        reports.append("FAIL %s: pft decode differs from the truth: %s" % (name, diff))
    else:
        passed += 1
    r = run([pft, "exceptions", "--snapshot", ss, "--elf", elf, "--format", "jsonl"])
    diff = handler_difference(truth.handlers, r.stdout) if not r.returncode else \
        "exit %d: %s" % (r.returncode, r.stderr.strip())
    if diff:
        failed += 1
        reports.append("FAIL %s: pft exceptions: %s" % (name, diff))
    else:
        passed += 1
    if protocol == "ptm":
        elf_image = bare_truth.Elf(elf)
        status, report = diff_flow.compare(pft, ss, TRACE_ID, known=True,
                                           is_eret=lambda addr: is_a32_eret(elf_image, addr))
    else:
        status, report = ocsd_etm3(ss, want)
    if status:
        failed += 1
        reports.append("FAIL %s: OpenCSD: %s" % (name, report))
    else:
        passed += 1
        if protocol == "ptm" and index == 0:  # what OpenCSD deviated in, once a run
            reports.append("%s: OpenCSD: %s" % (name, report.split(": ", 1)[1]))
    return passed, failed, "\n".join(reports)


def handler_difference(kinds, jsonl):
    """None when pft exceptions' objects give, per kind, the truth's count
    and handler lengths (one cycle per instruction in a cycle-accurate
    trace, as the model counts them), else what differs."""
    got = {}
    for line in jsonl.splitlines():
        o = json.loads(line)
        got[o["number"]] = (o["count"], o["returned"], o["min"], o["max"], o["total"])
    want = {}
    for number, (count, lengths) in kinds.items():
        want[number] = (count, len(lengths), min(lengths, default=0), max(lengths, default=0),
                        sum(lengths))
    if got == want:
        return None
    return "truth (count, returned, min, max, total) %s, pft %s" % (
        sorted(want.items()), sorted(got.items()))


def is_a32_eret(elf, addr):
    """The A32 ERET (pft-flow.md 4.1), which OpenCSD does not take for a
    waypoint (A17): its range runs on, for OpenCSD, to the next waypoint."""
    try:
        word = elf.halfword(addr) | elf.halfword(addr + 2) << 16
    except bare_truth.TruthError:
        return False
    return word & 0x0fffffff == 0x0160006e


def ocsd_etm3(ss, want):
    """OpenCSD's ETMv3 flow (one INSTR_RANGE per instruction) against the
    truth: the instructions and the exception numbers (OpenCSD gives no
    return address for ETMv3 exceptions)."""
    got = []
    for x in diff_etm3.ocsd_flow(ss, TRACE_ID):
        if x[0] == "insn":
            got.append(("insn", x[1], ""))
        elif x[0] == "exception":
            got.append(("exception", x[1], None))
        elif x[0] == "multi-instruction range":
            return 1, "a range of several instructions: %s" % x[1]
    want = [(w[0], w[1], "" if w[0] == "insn" else None) for w in want]
    diff = first_difference(want, got, "OpenCSD")
    return (1, diff) if diff else (0, None)


def prepare(tmp, board, variant, prog):
    """Build, run, truth: (label, log, plain log, elf, truth) or an error."""
    label = "%s.%s.%s" % (prog, board, variant)
    elf = os.path.join(tmp, label)
    log = elf + ".log"
    plain = elf + ".plain.log"
    err = build(board, variant, prog, elf) or qemu(board, elf, log)
    if err:
        return label, "FAIL %s: %s" % (label, err)
    try:
        truth = bare_truth.parse(log, elf)
    except bare_truth.TruthError as e:
        return label, "FAIL %s: truth: %s" % (label, e)
    problems = bare_truth.check(truth, elf)
    if problems:
        return label, "FAIL %s: the truth does not fit the code:\n  %s" % (
            label, "\n  ".join(problems[:10]))
    bare_truth.strip(log, plain)
    truth.handlers = bare_truth.handlers(truth, elf)
    return label, (log, plain, elf, truth)


def suite(pft, keep=None):
    tmp = keep or tempfile.mkdtemp(prefix="bare_roundtrip.")
    os.makedirs(tmp, exist_ok=True)
    os.chdir(tmp)  # trc_pkt_lister writes its log into the working directory
    passed = failed = 0
    workers = os.cpu_count() or 2
    try:
        with concurrent.futures.ThreadPoolExecutor(workers) as pool:
            runs = [pool.submit(prepare, tmp, b, v, p)
                    for p in PROGRAMS for b in BOARDS for v in VARIANTS]
            jobs = []
            for f in runs:
                label, res = f.result()
                if isinstance(res, str):
                    print(res)
                    failed += 1
                    continue
                log, plain, elf, truth = res
                print("%s: %s" % (label, bare_truth.summary(truth).split("\n")[0]))
                passed += 1
                for protocol, configs in (("ptm", CONFIGS_PTM), ("etmv3", CONFIGS_ETM3)):
                    for i, cfg in enumerate(configs):
                        jobs.append(pool.submit(one, pft, tmp, label, log, plain, elf, truth,
                                                protocol, i, cfg))
            for f in jobs:
                try:
                    p, q, report = f.result()
                except Exception:  # a bug here: say where, count it, go on
                    p, q, report = 0, 1, "FAIL (python): %s" % traceback.format_exc()
                passed += p
                failed += q
                if report:
                    print(report)
    finally:
        os.chdir("/")
        if not keep:
            shutil.rmtree(tmp, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def main():
    a = sys.argv[1:]
    if a[:1] == ["suite"] and len(a) in (2, 3):
        return suite(os.path.abspath(a[1]), os.path.abspath(a[2]) if len(a) == 3 else None)
    if a[:1] == ["build"] and len(a) == 5:
        err = build(a[1], a[2], a[3], os.path.abspath(a[4]))
    elif a[:1] == ["run"] and len(a) == 4:
        err = qemu(a[1], a[2], a[3])
    elif a[:1] == ["one"] and len(a) >= 4:
        pft, log, elf = os.path.abspath(a[1]), a[2], a[3]
        protocol = a[4] if len(a) > 4 else "ptm"
        tmp = tempfile.mkdtemp(prefix="bare_one.")
        plain = os.path.join(tmp, "plain.log")
        bare_truth.strip(log, plain)
        truth = bare_truth.parse(log, elf)
        p, q, report = one(pft, tmp, "one", log, plain, elf, truth, protocol, 0,
                           (" ".join(a[5:]), "cpu"))
        print(report or "%d passed" % p)
        shutil.rmtree(tmp, ignore_errors=True)
        return 1 if q else 0
    else:
        sys.exit(__doc__)
    if err:
        print(err)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
