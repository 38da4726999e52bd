#!/usr/bin/env python3
"""Round trip of real ARM programs through pft encode, pft decode and OpenCSD.

usage: roundtrip.py suite PFT [etmv3]
       roundtrip.py check QEMU_LOG DECODE_JSONL SNAPSHOT_DIR [START-END]

suite: builds the C programs in progs/ for ARM and for Thumb (inter_* mixes
both in one program: inter_other.c is built in the other instruction set),
runs each under qemu-user with `-singlestep -d exec,nochain`, encodes the
log with `pft encode --out-snapshot` under several PTM configurations and
requires, for each,
 1. `pft decode --format jsonl` of the snapshot to give back exactly the
    instructions qemu executed (those inside the image and inside the
    --filter range, if any), one for one, in order;
 2. OpenCSD's trc_pkt_lister to decode the snapshot into the same ranges
    (../opencsd/diff_flow.py), apart from its documented deviation: a range
    ended by a waypoint-update packet is E for OpenCSD, which models the
    packet as an E atom (pft-flow.md 5.4).  Every run has one such range
    (at the end of the log, after the exit system call), loops.c more: it
    runs over 4096 bytes of straight-line code.
suite ... etmv3: the same for PROGRAMS_ETM3 with `pft encode --protocol
etmv3` under the ETMv3 configurations (CONFIGS_ETM3), qemu logging its
flags too (`-d exec,nochain,cpu`): `pft decode --insn` must list exactly
qemu's instructions, and so must OpenCSD (one INSTR_RANGE per instruction
for ETMv3, ../opencsd/diff_etm3.py), with no deviation; and OpenCSD must
read one atom per instruction, N exactly where the instruction failed its
condition, as worked out here from qemu's flags (CPSR[31:28] before each
instruction) and the encodings (ARM ARM: A32 cond field; T32 B<c>, IT
blocks, CBZ/CBNZ by the next address).
check: requirement 1 for one decoded snapshot.
Exits 0 when everything agrees, 1 otherwise.
"""
import configparser
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "opencsd"))
import diff_etm3  # noqa: E402
import diff_flow  # noqa: E402

CC = ["arm-linux-gnueabihf-gcc", "-static", "-O1"]
PROGRAMS = ["recursion", "loops", "switch", "fnptr", "longjmp", "inter"]
TRACE_ID = 0x10

# Every program runs under the first configuration and under RUNS_EACH of
# the others, taken in turn, so that each one meets several programs in
# both instruction sets.  FILTER_OWN is the program's own code (the
# functions of its main source file), FILTER_CUT a window that cuts
# through the C library in mid-function.
CONFIGS = [
    "",
    "--cycle-accurate",
    "--timestamps --ts-period 50",
    "--return-stack",
    "--ctxid-bytes 1 --ctxid 0x5a",
    "--ctxid-bytes 2 --ctxid 0x1234 --cycle-accurate --timestamps",
    "--ctxid-bytes 4 --ctxid 0xdeadbeef --return-stack --cycle-accurate",
    "--filter FILTER_OWN",
    "--return-stack --cycle-accurate --filter FILTER_OWN",
    "--filter FILTER_CUT --timestamps --ctxid-bytes 4 --ctxid 3",
    "--pft-version 1.0 --cycle-accurate --timestamps --return-stack",
    "--sync-period 64 --return-stack --ctxid-bytes 4 --ctxid 7",
    "--branch-broadcast --vmid --timestamps --cycle-accurate",
]
RUNS_EACH = 5
# ETMv3 (an ETMv3.5 of a Cortex-A7): the options that exist there.
CONFIGS_ETM3 = [
    "",
    "--cycle-accurate",
    "--timestamps --ts-period 20",
    "--ctxid-bytes 4 --ctxid 0xdeadbeef",
    "--ctxid-bytes 1 --ctxid 0x5a --cycle-accurate --timestamps",
    "--filter FILTER_OWN",
    "--filter FILTER_CUT --cycle-accurate --ctxid-bytes 2 --ctxid 0x1234",
    "--sync-period 64 --timestamps --ts-bits 48 --ts-gray",
    "--branch-broadcast --vmid --timestamps --cycle-accurate",
]
RUNS_EACH_ETM3 = 1
PROGRAMS_ETM3 = ["switch", "loops", "fnptr", "inter"]
FILTER_CUT = "0x14000-0x30000"


class Memory:
    """The memory dumps of a snapshot's cpu_0.ini."""

    def __init__(self, snapshot):
        ini = configparser.ConfigParser(inline_comment_prefixes=(";", "#"))
        ini.read(os.path.join(snapshot, "cpu_0.ini"))
        self.sections = []
        for name in ini.sections():
            if name.startswith("dump"):
                with open(os.path.join(snapshot, ini[name]["file"]), "rb") as f:
                    self.sections.append((int(ini[name]["address"], 0), f.read()))

    def covers(self, addr):
        return any(base <= addr < base + len(data) for base, data in self.sections)

    def halfword(self, addr):
        for base, data in self.sections:
            if base <= addr and addr + 2 <= base + len(data):
                return data[addr - base] | data[addr - base + 1] << 8
        raise KeyError("no memory at 0x%x" % addr)


def qemu_addresses(path):
    """Executed addresses, without blocks qemu logged but did not start
    ("Stopped execution of TB chain before ...")."""
    out = []
    with open(path) as f:
        for line in f:
            if line.startswith("Trace "):
                out.append(int(line[line.index("[") + 1:].split("/")[1], 16))
            elif line.startswith("Stopped execution"):
                pc = int(line[line.index("[") + 1:line.index("]")], 16)
                if out and out[-1] == pc:
                    out.pop()
    return out


def expand(start, end, thumb, mem):
    """Addresses of the instructions from start up to end."""
    out, addr = [], start
    while addr < end:
        out.append(addr)
        addr += 2 if thumb and mem.halfword(addr) >> 11 < 0x1d else 4
    if addr != end:
        raise ValueError("range 0x%x-0x%x does not end on an instruction" % (start, end))
    return out


def decoded_addresses(jsonl, mem):
    out, cache = [], {}
    for line in jsonl.splitlines():
        e = json.loads(line)
        if e["type"] != "range":
            continue
        key = (e["start"], e["end"], e["isa"])
        if key not in cache:
            cache[key] = expand(int(e["start"], 16), int(e["end"], 16), e["isa"] == "thumb", mem)
        insns = cache[key]
        if len(insns) != e["n"] or insns[-1] != int(e["last"], 16):
            raise ValueError("range %s: %d instructions by their sizes" % (line, len(insns)))
        out.extend(insns)
    return out


def first_difference(want, got):
    for i, (a, b) in enumerate(zip(want, got)):
        if a != b:
            return ("instruction %d: qemu 0x%x, decoded 0x%x\n   qemu:    %s\n   decoded: %s"
                    % (i, a, b, " ".join("%x" % x for x in want[max(0, i - 4):i + 4]),
                       " ".join("%x" % x for x in got[max(0, i - 4):i + 4])))
    if len(want) != len(got):
        return "qemu ran %d instructions, %d decoded" % (len(want), len(got))
    return None


def check(qemu, jsonl, snapshot, span=None):
    """None when the decoded instructions are qemu's, else what differs."""
    lo, hi = span or (0, 1 << 32)
    mem = Memory(snapshot)
    want = [a for a in qemu if lo <= a < hi and mem.covers(a)]
    try:
        got = decoded_addresses(jsonl, mem)
    except (ValueError, KeyError) as err:
        return str(err)
    return first_difference(want, got)


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, check=False, **kw)


def build(tmp, name, isa):
    """Link the program; return (binary, its main object file) or None."""
    out = os.path.join(tmp, "%s.%s" % (name, isa))
    other = "thumb" if isa == "arm" else "arm"
    if name == "inter":
        units = [("inter_main", isa), ("inter_other", other)]
    else:
        units = [(name, isa)]
    objs = []
    for unit, unit_isa in units:
        obj = "%s.%s.o" % (out, unit)
        r = run(CC + ["-m" + unit_isa, "-c", "-o", obj, os.path.join(HERE, "progs", unit + ".c")])
        if r.returncode:
            print(r.stderr)
            return None
        objs.append(obj)
    r = run(CC + ["-o", out] + objs)
    if r.returncode:
        print(r.stderr)
        return None
    return out, objs[0]


def text_symbols(path, sizes):
    """{name: (start, end)} or {name: None} of the defined code symbols."""
    args = ["arm-linux-gnueabihf-nm", "--defined-only"] + (["-S"] if sizes else []) + [path]
    syms = {}
    for fields in (line.split() for line in run(args).stdout.splitlines()):
        if len(fields) == (4 if sizes else 3) and fields[-2] in "tT" and \
                not fields[-1].startswith("$"):
            start = int(fields[0], 16) & ~1
            syms[fields[-1]] = (start, start + int(fields[1], 16)) if sizes else None
    return syms


def own_range(binary, obj):
    names = text_symbols(obj, False)
    spans = [v for k, v in text_symbols(binary, True).items() if k in names]
    return "0x%x-0x%x" % (min(s for s, _ in spans), max(e for _, e in spans))


def suite(pft, etm3=False):
    configs = CONFIGS_ETM3 if etm3 else CONFIGS
    runs_each = RUNS_EACH_ETM3 if etm3 else RUNS_EACH
    qemu_log = "exec,nochain,cpu" if etm3 else "exec,nochain"
    checks = 3 if etm3 else 2
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        turn = 0
        for name in PROGRAMS_ETM3 if etm3 else PROGRAMS:
            for isa in ("arm", "thumb"):
                prog = "%s.%s" % (name, isa)
                built = build(tmp, name, isa)
                log = os.path.join(tmp, prog + ".log")
                if not built or run(["qemu-arm", "-singlestep", "-d", qemu_log, "-D", log,
                                     built[0]]).returncode:
                    print("FAIL %s: cannot build or run it" % prog)
                    failed += 1
                    continue
                binary = built[0]
                qemu = qemu_addresses(log)
                own = own_range(binary, built[1])
                chosen = [0] + [1 + (turn + k) % (len(configs) - 1) for k in range(runs_each)]
                turn += runs_each
                for i in chosen:
                    cfg = configs[i].replace("FILTER_OWN", own).replace("FILTER_CUT", FILTER_CUT)
                    run_one = one_run_etm3 if etm3 else one_run
                    ok, report = run_one(pft, tmp, prog, binary, log, qemu, cfg, i)
                    passed += ok
                    failed += checks - ok
                    if report:
                        print(report)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def one_run(pft, tmp, prog, binary, log, qemu, cfg, index):
    """(checks passed out of 2, report of failures)."""
    ss = os.path.join(tmp, "ss_%s_%d" % (prog, index))
    label = "%s [%s]" % (prog, cfg)
    r = run([pft, "encode", "--log", log, "--elf", binary, "--out-snapshot", ss] + cfg.split())
    if r.returncode:
        return 0, "FAIL %s: encode: %s" % (label, r.stderr.strip())
    r = run([pft, "decode", "--snapshot", ss, "--format", "jsonl"])
    if r.returncode:
        return 0, "FAIL %s: decode: %s" % (label, r.stderr.strip())
    ok, reports = 0, []
    diff = check(qemu, r.stdout, ss, filter_span(cfg))
    if diff:
        reports.append("FAIL %s: decoded instructions differ from qemu's: %s" % (label, diff))
    else:
        ok += 1
    status, report = diff_flow.compare(pft, ss, TRACE_ID, known=True)
    if status:
        reports.append("FAIL %s: OpenCSD: %s" % (label, report))
    else:
        ok += 1
    return ok, "\n".join(reports)


def filter_span(cfg):
    if "--filter" not in cfg:
        return None
    return [int(x, 0) for x in cfg.split("--filter ")[1].split()[0].split("-")]


def one_run_etm3(pft, tmp, prog, binary, log, qemu, cfg, index):
    """(checks passed out of 3, report of failures) for an ETMv3 model."""
    ss = os.path.join(tmp, "ss3_%s_%d" % (prog, index))
    label = "%s [etmv3 %s]" % (prog, cfg)
    r = run([pft, "encode", "--protocol", "etmv3", "--log", log, "--elf", binary,
             "--out-snapshot", ss] + cfg.split())
    if r.returncode:
        return 0, "FAIL %s: encode: %s" % (label, r.stderr.strip())
    r = run([pft, "decode", "--snapshot", ss, "--insn", "--format", "jsonl"])
    if r.returncode:
        return 0, "FAIL %s: decode: %s" % (label, r.stderr.strip())
    lo, hi = filter_span(cfg) or (0, 1 << 32)
    mem = Memory(ss)
    want = [a for a in qemu if lo <= a < hi and mem.covers(a)]
    got = [int(o["addr"], 16) for o in map(json.loads, r.stdout.splitlines())
           if o["type"] == "insn"]
    ok, reports = 0, []
    diff = first_difference(want, got)
    if diff:
        reports.append("FAIL %s: pft decode differs from qemu: %s" % (label, diff))
    else:
        ok += 1
    ocsd = [x[1] for x in diff_etm3.ocsd_flow(ss, TRACE_ID) if x[0] == "insn"]
    diff = first_difference(want, ocsd)
    if diff:
        reports.append("FAIL %s: OpenCSD differs from qemu: %s" % (label, diff))
    else:
        ok += 1
    want = [x for x in expected_atoms(qemu_steps(log), mem) if lo <= x[0] < hi]
    got = ocsd_atoms(ss)
    if want != got or not any(a == "N" for _, a in want):
        bad = next((i for i, (a, b) in enumerate(zip(want, got)) if a != b),
                   min(len(want), len(got)))
        reports.append("FAIL %s: atoms differ at instruction %d of %d/%d: want %s, OpenCSD %s"
                       % (label, bad, len(want), len(got), want[bad:bad + 3], got[bad:bad + 3]))
    else:
        ok += 1
    return ok, "\n".join(reports)


def qemu_steps(path):
    """(address, CPSR before it) of each executed instruction of a
    `-d exec,nochain,cpu` log."""
    out = []
    for line in open(path):
        if line.startswith("Trace "):
            out.append([int(line[line.index("[") + 1:].split("/")[1], 16), None])
        elif line.startswith("PSR=") and out:
            out[-1][1] = int(line[4:12], 16)
        elif line.startswith("Stopped execution"):
            pc = int(line[line.index("[") + 1:line.index("]")], 16)
            if out and out[-1][0] == pc:
                out.pop()
    return out


def cond_passed(cond, psr):
    n, z, c, v = (psr >> 31) & 1, (psr >> 30) & 1, (psr >> 29) & 1, (psr >> 28) & 1
    base = [z, c, n, v, c and not z, n == v, n == v and not z, True][cond >> 1]
    return bool(base) != bool(cond & 1 and cond != 15)


def expected_atoms(steps, mem):
    """[(address, 'E' or 'N')] for the steps inside the image."""
    out, it = [], 0
    for i, (addr, psr) in enumerate(steps):
        if not mem.covers(addr):
            it = 0
            continue
        thumb = psr >> 5 & 1
        nxt = steps[i + 1][0] if i + 1 < len(steps) else None
        hw = mem.halfword(addr)
        cond = 14
        if not thumb:
            cond = (hw | mem.halfword(addr + 2) << 16) >> 28
        elif it:
            cond = it >> 4
            it = 0 if (it & 7) == 0 else (it & 0xe0) | ((it << 1) & 0x1f)  # block ends at IT[2:0]=0
        elif hw & 0xf000 == 0xd000 and (hw >> 8) & 0xf < 14:
            cond = (hw >> 8) & 0xf                                  # B<c> T1
        elif hw & 0xf800 == 0xf000 and mem.halfword(addr + 2) & 0xd000 == 0x8000 and \
                (hw >> 6) & 0xf < 14:
            cond = (hw >> 6) & 0xf                                  # B<c> T3
        elif hw & 0xf500 == 0xb100:                                 # CBZ, CBNZ
            out.append((addr, "N" if nxt == addr + 2 else "E"))
            continue
        if thumb and not it and hw & 0xff00 == 0xbf00 and hw & 0xf:
            it = hw & 0xff                                          # IT: ITSTATE
        out.append((addr, "E" if cond >= 14 or cond_passed(cond, psr) else "N"))
    return out


def ocsd_atoms(snapshot):
    import re
    pat = re.compile(r"INSTR_RANGE\(exec range=0x([0-9a-f]+):\[0x[0-9a-f]+\] num_i\(1\) "
                     r"last_sz\(\d\) \(ISA=\w+\) ([EN]) ")
    lines = diff_etm3.run(["trc_pkt_lister", "-ss_dir", snapshot, "-decode_only", "-logstdout",
                           "-id", hex(TRACE_ID)]).splitlines()
    return [(int(m.group(1), 16), m.group(2)) for m in map(pat.search, lines) if m]


def main():
    if sys.argv[1:2] == ["suite"] and len(sys.argv) in (3, 4):
        return suite(sys.argv[2], sys.argv[3:] == ["etmv3"])
    if sys.argv[1:2] == ["check"] and len(sys.argv) in (5, 6):
        span = [int(x, 0) for x in sys.argv[5].split("-")] if len(sys.argv) == 6 else None
        with open(sys.argv[3]) as f:
            diff = check(qemu_addresses(sys.argv[2]), f.read(), sys.argv[4], span)
        print(diff or "same")
        return 1 if diff else 0
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())
