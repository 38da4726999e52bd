#!/usr/bin/env python3
"""What a qemu-system-arm M-profile log says ran, read independently of pft,
against what pft and OpenCSD decode from its trace.

usage: qemu_m_log.py list LOG           one line per item: an executed
                                        instruction's address (hex), or
                                        "exception N" (N the IPSR number)
       qemu_m_log.py decode LOG JSONL   `pft decode --insn --format jsonl`
                                        output must list exactly these
                                        instructions and exceptions
       qemu_m_log.py opencsd LOG SNAP   so must OpenCSD's trc_pkt_lister
                                        on snapshot SNAP (its exception
                                        numbers are the ETM's, translated
                                        here), and its atoms must be N
                                        exactly where an instruction
                                        failed its condition (a -d cpu log)
       qemu_m_log.py annotate LOG SNAP JSONL
                                        `pft annotate --format jsonl`
                                        must count each address as often
                                        as it ran, and its not_taken the
                                        times it failed its condition
Exit 0 when they agree; otherwise one line says where they part.

The log is that of `qemu-system-arm -M mps2-an385|mps2-an386 -singlestep
-d exec,nochain,int[,cpu]` (qemu 7.2).  Its rules, from qemu's sources
(accel/tcg/cpu-exec.c, target/arm/m_helper.c) and checked on its logs:
- every "Trace" line is a block of one instruction qemu was about to run;
  "Stopped execution of TB chain before ... [PC]" and "cpu_io_recompile:
  rewound execution of TB to PC" say the block at PC did not run (it is
  logged again when it does); with -d cpu, "XPSR=" gives the flags before
  the instruction ran;
- "Taking exception N [NAME]" then "...taking pending ... exception K":
  exception K (the IPSR number) was entered; an undefined instruction, a
  data abort, a breakpoint and the v7M UsageFaults were raised by the last
  instruction logged, which did not run; "Taking exception 8 [QEMU v7M
  exception exit]" is a return, and a "...taking pending" line after it
  an exception tail-chained to it; a semihosting call is no exception;
  a second "...taking pending" line for one "Taking exception" line (a
  fault while taking it) replaces the first, while another "Taking
  exception" before the handler's first instruction is a second exception
  entered (a higher priority one that became pending meanwhile).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

CUT = {"Undefined Instruction", "Data Abort", "Breakpoint", "v7M NOCP UsageFault",
       "v7M INVSTATE UsageFault", "v7M UNALIGNED UsageFault", "v7M DIVBYZERO UsageFault"}

TRACE = re.compile(r"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/")
STOPPED = re.compile(r"^Stopped execution of TB chain before 0x[0-9a-f]+ \[([0-9a-f]+)\]")
REWOUND = re.compile(r"^cpu_io_recompile: rewound execution of TB to ([0-9a-f]+)")
TAKING = re.compile(r"^Taking exception \d+ \[(.*)\]")
PENDING = re.compile(r"^\.\.\.taking pending \S+ exception (\d+)")
XPSR = re.compile(r"^XPSR=([0-9a-f]{8})")
REGS = re.compile(r"^R0([04])=([0-9a-f]{8}) R0[15]=([0-9a-f]{8}) R0[26]=([0-9a-f]{8}) "
                  r"R0[37]=([0-9a-f]{8})")

# The ETM's exception numbers on an M-profile core (etmv3-protocol.md 4.5,
# from the Cortex-M3 TRM): 1-7 IRQ1-7, 8 IRQ0, 9 UsageFault, 10 NMI, 11
# SVCall, 12 DebugMonitor, 13 MemManage, 14 PendSV, 15 SysTick, 17 Reset,
# 19 HardFault, 21 BusFault, and from 24 on IRQ8 onwards (n + 16).
IPSR_OF_ETM = {**{e: 16 + e for e in range(1, 8)}, 8: 16, 9: 6, 10: 2, 11: 11, 12: 12,
               13: 4, 14: 14, 15: 15, 17: 1, 19: 3, 21: 5}


def ipsr_of_etm(n):
    return n if n >= 24 else IPSR_OF_ETM.get(n, -n)


def items(path):
    """[["insn", addr, xpsr or None, [r0..r7] or None] | ["exception", ipsr]]
    in order."""
    out = []
    last_insn = None    # index in out of the last instruction logged
    taking = None
    derived = False     # a "...taking pending" line came for this "Taking"
    for line in open(path, errors="replace"):
        m = TRACE.match(line)
        if m:
            out.append(["insn", int(m.group(1), 16), None, [None] * 8])
            last_insn = len(out) - 1
            continue
        m = REGS.match(line)
        if m and last_insn is not None:
            base = int(m.group(1))
            for k in range(4):
                out[last_insn][3][base + k] = int(m.group(2 + k), 16)
            continue
        m = XPSR.match(line)
        if m and last_insn is not None:
            out[last_insn][2] = int(m.group(1), 16)
            continue
        m = STOPPED.match(line) or REWOUND.match(line)
        if m:
            if last_insn is not None and out[last_insn][:2] == ["insn", int(m.group(1), 16)]:
                del out[last_insn]
                last_insn = None
            continue
        m = TAKING.match(line)
        if m:
            taking = m.group(1)
            derived = False
            continue
        m = PENDING.match(line)
        if m:
            if taking in CUT and last_insn is not None:
                del out[last_insn]
            last_insn = None
            if derived:
                out.pop()
            out.append(["exception", int(m.group(1))])
            derived = True
    return out


def plain(seq):
    return [tuple(x[:2]) for x in seq]


def decoded(path):
    out = []
    for line in open(path):
        o = json.loads(line)
        if o["type"] == "insn":
            out.append(("insn", int(o["addr"], 16)))
        elif o["type"] == "exception":
            out.append(("exception", o["number"]))
        elif o["type"] in ("error", "addr_nacc"):
            out.append(("bad", line.strip()))
    return out


RANGE = re.compile(r"INSTR_RANGE\(exec range=0x([0-9a-f]+):\[0x[0-9a-f]+\] num_i\((\d+)\) "
                   r"last_sz\(\d\) \(ISA=\w+\) ([EN]) ")
EXC = re.compile(r"OCSD_GEN_TRC_ELEM_EXCEPTION\(excep num \(0x([0-9a-f]+)\)")


def opencsd(snapshot):
    """OpenCSD's instructions (with their atoms) and exceptions."""
    with tempfile.TemporaryDirectory() as tmp:   # it writes a log file there
        out = subprocess.run(["trc_pkt_lister", "-ss_dir", os.path.abspath(snapshot),
                              "-decode_only", "-logstdout"], capture_output=True, text=True,
                             check=False, cwd=tmp).stdout
    seq, atoms = [], []
    for line in out.splitlines():
        m = RANGE.search(line)
        if m:
            if m.group(2) != "1":
                seq.append(("bad", line))
            seq.append(("insn", int(m.group(1), 16)))
            atoms.append((int(m.group(1), 16), m.group(3)))
            continue
        m = EXC.search(line)
        if m:
            seq.append(("exception", ipsr_of_etm(int(m.group(1), 16))))
    return seq, atoms


def cond_passed(cond, psr):
    n, z, c, v = (psr >> 31) & 1, (psr >> 30) & 1, (psr >> 29) & 1, (psr >> 28) & 1
    base = [z, c, n, v, c and not z, n == v, n == v and not z, True][cond >> 1]
    return bool(base) != bool(cond & 1 and cond != 15)


def expected_atoms(seq, halfword):
    """[(address, 'E' or 'N')]: the conditions of IT blocks and of B<c>
    (ARMv7-M ARM A7.3: the flags before the instruction), CBZ/CBNZ by the
    register it tests (A7.7.21)."""
    out, it = [], 0
    insns = [x for x in seq if x[0] == "insn"]
    for _, addr, psr, regs in insns:
        hw = halfword(addr)
        cond = 14
        if it:
            cond = it >> 4
            it = 0 if (it & 7) == 0 else (it & 0xe0) | ((it << 1) & 0x1f)
        elif hw & 0xf000 == 0xd000 and (hw >> 8) & 0xf < 14:
            cond = (hw >> 8) & 0xf                                  # B<c> T1
        elif hw & 0xf800 == 0xf000 and halfword(addr + 2) & 0xd000 == 0x8000 and \
                (hw >> 6) & 0xf < 14:
            cond = (hw >> 6) & 0xf                                  # B<c> T3
        elif hw & 0xf500 == 0xb100:                                 # CBZ, CBNZ
            if regs[hw & 7] is None:
                raise ValueError("no registers for the CBZ/CBNZ at 0x%x (log with "
                                 "-d exec,nochain,int,cpu)" % addr)
            zero = regs[hw & 7] == 0
            out.append((addr, "E" if zero != bool(hw & 0x800) else "N"))
            continue
        if not it and hw & 0xff00 == 0xbf00 and hw & 0xf:
            it = hw & 0xff                                          # IT: ITSTATE
        if psr is None and cond < 14:
            raise ValueError("no XPSR for the conditional instruction at 0x%x (log with "
                             "-d exec,nochain,int,cpu)" % addr)
        out.append((addr, "E" if cond >= 14 or cond_passed(cond, psr) else "N"))
    return out


def memory(snapshot):
    """The halfword reader of a snapshot's cpu_0.ini dumps."""
    import configparser
    ini = configparser.ConfigParser(inline_comment_prefixes=(";", "#"))
    ini.read(os.path.join(snapshot, "cpu_0.ini"))
    sections = []
    for name in ini.sections():
        if name.startswith("dump"):
            with open(os.path.join(snapshot, ini[name]["file"]), "rb") as f:
                sections.append((int(ini[name]["address"], 0), f.read()))

    def halfword(addr):
        for base, data in sections:
            if base <= addr and addr + 2 <= base + len(data):
                return data[addr - base] | data[addr - base + 1] << 8
        raise KeyError("no memory at 0x%x" % addr)
    return halfword


def show(item):
    if item is None:
        return "nothing"
    return "exception %d" % item[1] if item[0] == "exception" else (
        "%x" % item[1] if item[0] == "insn" else item[1])


def compare(who, want, got):
    if got == want and want:
        return 0
    n = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
    print("%s differs from qemu at item %d of %d (%d decoded): %s, qemu %s"
          % (who, n, len(want), len(got), show(got[n] if n < len(got) else None),
             show(want[n] if n < len(want) else None)))
    return 1


def annotate(seq, halfword, path):
    """pft annotate's JSON lines against qemu: each address run as often,
    and its not_taken the times it failed its condition."""
    import collections
    runs = collections.Counter(x[1] for x in seq if x[0] == "insn")
    failed = collections.Counter(a for a, e in expected_atoms(seq, halfword) if e == "N")
    got, not_taken = {}, {}
    for line in open(path):
        o = json.loads(line)
        if o["type"] == "insn":
            got[int(o["addr"], 16)] = o["count"]
            if o.get("not_taken"):
                not_taken[int(o["addr"], 16)] = o["not_taken"]
    bad = 0
    if got != dict(runs):
        diff = sorted(a for a in set(got) | set(runs) if got.get(a) != runs.get(a))
        print("pft annotate's counts differ from qemu's at %d addresses, first 0x%x: %s, qemu %s"
              % (len(diff), diff[0], got.get(diff[0]), runs.get(diff[0])))
        bad = 1
    if not_taken != dict(failed) or not failed:
        diff = sorted(a for a in set(not_taken) | set(failed)
                      if not_taken.get(a) != failed.get(a))
        print("pft annotate's not_taken differ from qemu's conditions at %d addresses%s"
              % (len(diff), ", first 0x%x: %s, qemu %s" % (diff[0], not_taken.get(diff[0]),
                                                         failed.get(diff[0])) if diff else ""))
        bad = 1
    return bad


def main():
    if sys.argv[1:2] == ["list"] and len(sys.argv) == 3:
        for it in items(sys.argv[2]):
            print(show(it))
        return 0
    if sys.argv[1:2] == ["decode"] and len(sys.argv) == 4:
        return compare("pft decode", plain(items(sys.argv[2])), decoded(sys.argv[3]))
    if sys.argv[1:2] == ["opencsd"] and len(sys.argv) == 4:
        seq = items(sys.argv[2])
        got, atoms = opencsd(sys.argv[3])
        bad = compare("OpenCSD", plain(seq), got)
        want = expected_atoms(seq, memory(sys.argv[3]))
        if atoms != want or not any(a == "N" for _, a in want):
            n = next((i for i, (a, b) in enumerate(zip(atoms, want)) if a != b),
                     min(len(atoms), len(want)))
            print("OpenCSD's atoms differ from qemu's conditions at instruction %d of %d: "
                  "%s, qemu %s" % (n, len(want), atoms[n:n + 2], want[n:n + 2]))
            bad = 1
        return bad
    if sys.argv[1:2] == ["annotate"] and len(sys.argv) == 5:
        return annotate(items(sys.argv[2]), memory(sys.argv[3]), sys.argv[4])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())
