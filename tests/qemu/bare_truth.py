#!/usr/bin/env python3
"""Ground truth of a bare-metal qemu-system-arm run, independent of pft.

usage: bare_truth.py summary LOG ELF      counts, and the exceptions
       bare_truth.py jsonl LOG ELF        the expected elements, one a line:
                                          {"type":"insn","addr":..,"isa":..}
                                          {"type":"exception","number":N,"ret":..}
       bare_truth.py strip LOG OUT        LOG without its cpu lines (PSR=, R..=):
                                          the plain `-d exec,nochain,int` form
       bare_truth.py check LOG ELF        the truth is consistent with the code
                                          (arm-none-eabi-objdump): every step to
                                          an address other than the next
                                          instruction's is a branch or an exception

LOG is a `-singlestep -d exec,nochain,int,cpu` log of qemu-system-arm 7.2;
ELF the program (its bytes give the sizes of Thumb instructions).  From the
log:
- `Trace 0: HOST [FLAGS2/PC/FLAGS/CFLAGS] SYM` starts a one-instruction block
  (FLAGS2 bit 23: Thumb); the cpu lines after it (R00=.., PSR=..) are the
  state before it runs.
- `Stopped execution of TB chain before HOST [PC]` and `cpu_io_recompile:
  rewound execution of TB to PC`: the Trace just before, at that PC, did not
  run (a rewound one is printed again).
- `Taking exception N [NAME] on CPU 0`: for SVC (2), undefined instruction
  (1), SMC (13) and HVC (11) the Trace before it raised it and ran; for data
  abort (4) and breakpoint (7) the Trace before it was cut: it did not run;
  a prefetch abort from a fetch (3) has no Trace for its address; an IRQ (5),
  FIQ (6), virtual IRQ/FIQ (14, 15) comes after the last Trace completed.
  16 (semihosting call) is not an exception: the SVC or HLT ran.
- `Exception return from AArch32 X to Y PC P` only when the mode changes.

Each exception is placed after the instructions executed before it, with
its number in the trace protocols (PTM and ETMv3 alike) and the preferred
return address the trace reports: the cut instruction (data abort,
breakpoint), the instruction after the one that raised it (SVC, UDF, SMC,
HVC: by its size, a Thumb instruction's from its first halfword), or from
R14 at the handler's first instruction: LR - 4 (IRQ, FIQ, prefetch abort).
Every return address is cross-checked against R14 where the architecture
fixes the offset, a prefetch abort's against IFAR, and an IRQ's against a
`Stopped execution` line just before it or the `Exception return` that
comes back to it; `check` also requires an exception return to come back
to every IRQ's and FIQ's.
"""
import json
import re
import struct
import subprocess
import sys

# qemu's exception index -> (name, PTM/ETMv3 exception number)
KINDS = {1: ("udf", 9), 2: ("svc", 10), 3: ("pabt", 11), 4: ("dabt", 12), 5: ("irq", 14),
         6: ("fiq", 15), 7: ("bkpt", 11), 11: ("hvc", 3), 12: ("hyp_trap", 3), 13: ("smc", 2),
         14: ("virq", 14), 15: ("vfiq", 15)}
RAISED = {1, 2, 11, 13}     # the Trace before ran and raised it
CUT = {4, 7}                # the Trace before was cut
ASYNC = {5, 6, 14, 15}      # after the last Trace completed
SEMIHOSTING = 16

TRACE = re.compile(r"^Trace \d+: \S+ \[([0-9a-f]+)/([0-9a-f]+)/[0-9a-f]+/[0-9a-f]+\]")
STOPPED = re.compile(r"^Stopped execution of TB chain before \S+ \[([0-9a-f]+)\]")
REWOUND = re.compile(r"^cpu_io_recompile: rewound execution of TB to ([0-9a-f]+)")
TAKING = re.compile(r"^Taking exception (\d+) \[([^\]]*)\]")
EXC_RETURN = re.compile(r"^Exception return from AArch32 (\w+) to (\w+) PC 0x([0-9a-f]+)")
R14 = re.compile(r"R14=([0-9a-f]{8})")
IFAR = re.compile(r"^\.\.\.with IFSR 0x[0-9a-f]+ IFAR 0x([0-9a-f]+)")


class TruthError(Exception):
    pass


class Elf:
    """The loadable bytes of a 32-bit little-endian ELF."""

    def __init__(self, path):
        with open(path, "rb") as f:
            data = f.read()
        if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
            raise TruthError("%s: not a 32-bit little-endian ELF" % path)
        phoff, = struct.unpack_from("<I", data, 28)
        phentsize, phnum = struct.unpack_from("<HH", data, 42)
        self.segments = []
        for i in range(phnum):
            p_type, offset, vaddr, _paddr, filesz = struct.unpack_from(
                "<IIIII", data, phoff + i * phentsize)
            if p_type == 1 and filesz:
                self.segments.append((vaddr, data[offset:offset + filesz]))

    def halfword(self, addr):
        for base, data in self.segments:
            if base <= addr and addr + 2 <= base + len(data):
                return data[addr - base] | data[addr - base + 1] << 8
        raise TruthError("no code at 0x%x in the ELF" % addr)

    def size(self, addr, thumb):
        if not thumb:
            return 4
        return 4 if self.halfword(addr) >> 11 >= 0x1d else 2


class Step:
    __slots__ = ("addr", "thumb", "r14", "line")

    def __init__(self, addr, thumb, line):
        self.addr, self.thumb, self.r14, self.line = addr, thumb, None, line


class Exc:
    __slots__ = ("index", "qemu", "name", "number", "ret", "line", "checked")

    def __init__(self, index, qemu, ret, line):
        self.index, self.qemu, self.ret, self.line = index, qemu, ret, line
        self.name, self.number = KINDS[qemu]
        self.checked = []


class Truth:
    """insns: the executed Steps in order; exceptions: Exc, each after
    insns[:index]; returns: the `Exception return` lines (from, to, PC)."""

    def __init__(self):
        self.insns, self.exceptions, self.returns = [], [], []
        self.stopped = self.rewound = self.semihosting = 0

    def elements(self):
        """The expected stream: ("insn", addr, isa) and ("exception", number, ret)."""
        out, k = [], 0
        for i, s in enumerate(self.insns + [None]):
            while k < len(self.exceptions) and self.exceptions[k].index == i:
                e = self.exceptions[k]
                out.append(("exception", e.number, e.ret))
                k += 1
            if s is not None:
                out.append(("insn", s.addr, "thumb" if s.thumb else "arm"))
        return out


def parse(log, elf_path):
    """The Truth of a `-d exec,nochain,int,cpu` log."""
    elf = Elf(elf_path)
    t = Truth()
    last_popped = None      # the Step a Stopped line just removed, until the next Trace
    pending = []            # exceptions whose handler's first Trace has not come
    with open(log) as f:
        for n, line in enumerate(f, 1):
            m = TRACE.match(line)
            if m:
                step = Step(int(m.group(2), 16), int(m.group(1), 16) >> 23 & 1, n)
                t.insns.append(step)
                last_popped = None
                continue
            if line.startswith("R12=") and t.insns:
                m = R14.search(line)
                step = t.insns[-1]
                step.r14 = int(m.group(1), 16)
                for e in pending:
                    handler_entry(e, step, elf, t)
                pending = []
                continue
            m = STOPPED.match(line) or REWOUND.match(line)
            if m:
                pc = int(m.group(1), 16)
                if not t.insns or t.insns[-1].addr != pc:
                    raise TruthError("%s:%d: no Trace at 0x%x just before" % (log, n, pc))
                last_popped = t.insns.pop()
                if line.startswith("Stopped"):
                    t.stopped += 1
                else:
                    t.rewound += 1
                continue
            m = TAKING.match(line)
            if m:
                qemu = int(m.group(1))
                if qemu == SEMIHOSTING:
                    t.semihosting += 1
                    continue
                if qemu not in KINDS:
                    raise TruthError("%s:%d: exception %d (%s) not understood"
                                     % (log, n, qemu, m.group(2)))
                e = take(t, qemu, elf, last_popped, log, n)
                pending.append(e)
                last_popped = None
                continue
            m = IFAR.match(line)
            if m and pending and pending[-1].qemu == 3:
                pending[-1].checked.append(("ifar", int(m.group(1), 16)))
                continue
            m = EXC_RETURN.match(line)
            if m:
                t.returns.append((m.group(1), m.group(2), int(m.group(3), 16), n))
    for e in pending:
        raise TruthError("%s:%d: the log ends before exception %s's handler"
                         % (log, e.line, e.name))
    check_returns(t, log)
    return t


def take(t, qemu, elf, last_popped, log, n):
    if qemu in RAISED:
        if not t.insns:
            raise TruthError("%s:%d: exception without an instruction before" % (log, n))
        s = t.insns[-1]
        e = Exc(len(t.insns), qemu, s.addr + elf.size(s.addr, s.thumb), n)
    elif qemu in CUT:
        if not t.insns:
            raise TruthError("%s:%d: exception without an instruction before" % (log, n))
        s = t.insns.pop()
        e = Exc(len(t.insns), qemu, s.addr, n)
    else:
        e = Exc(len(t.insns), qemu, None, n)     # from R14 at the handler
        if qemu in ASYNC and last_popped is not None:
            e.checked.append(("stopped", last_popped.addr))
    t.exceptions.append(e)
    return e


def handler_entry(e, step, elf, t):
    """R14 at the handler's first instruction: the return address of an
    IRQ, FIQ or prefetch abort, a check of the others'."""
    lr = step.r14
    if e.ret is None:
        if e.qemu in (11, 12):
            raise TruthError("line %d: %s: no return address from R14 (ELR_hyp)" % (e.line, e.name))
        e.ret = lr - 4
        for kind, addr in e.checked:
            if addr != e.ret:
                raise TruthError("line %d: %s returns to 0x%x (R14), but %s says 0x%x"
                                 % (e.line, e.name, e.ret,
                                    "IFAR" if kind == "ifar" else "qemu stopped before", addr))
        return
    # The instruction that raised or was cut is insns[e.index - 1] or the
    # cut one; the offsets are the architecture's (ARM ARM B1.8.3).
    if e.qemu == 4:
        want = e.ret + 8
    elif e.qemu == 7:
        want = e.ret + 4
    elif e.qemu == 2:
        want = e.ret
    elif e.qemu == 1:
        s = t.insns[e.index - 1]
        want = s.addr + (2 if s.thumb else 4)
    elif e.qemu == 13:
        want = e.ret
    else:
        return
    if lr != want:
        raise TruthError("line %d: %s: R14 is 0x%x, want 0x%x for return address 0x%x"
                         % (e.line, e.name, lr, want, e.ret))
    e.checked.append(("r14", lr))


def check_returns(t, log):
    """An `Exception return ... PC P` line comes back to an interrupted
    instruction: P is the return address of an IRQ or FIQ still open (the
    innermost that matches; those nested inside it returned without a
    mode change)."""
    events = sorted([(e.line, "exc", e) for e in t.exceptions] +
                    [(r[3], "ret", r) for r in t.returns], key=lambda x: x[0])
    open_ = []
    for _line, kind, x in events:
        if kind == "exc":
            if x.qemu in ASYNC:
                open_.append(x)
            continue
        for k in range(len(open_) - 1, -1, -1):
            if open_[k].ret == x[2]:
                open_[k].checked.append(("return", x[2]))
                del open_[k:]
                break


def summary(t):
    kinds = {}
    for e in t.exceptions:
        kinds[e.name] = kinds.get(e.name, 0) + 1
    checked = {}
    for e in t.exceptions:
        for kind, _ in e.checked:
            checked[kind] = checked.get(kind, 0) + 1
    thumb = sum(s.thumb for s in t.insns)
    lines = ["%d instructions (%d Thumb), %d exceptions: %s" % (
                 len(t.insns), thumb, len(t.exceptions),
                 ", ".join("%s %d" % kv for kv in sorted(kinds.items()))),
             "log: %d stopped, %d rewound, %d exception returns with a mode change, "
             "%d semihosting calls" % (t.stopped, t.rewound, len(t.returns), t.semihosting),
             "return addresses cross-checked: %s" % ", ".join(
                 "%s %d" % kv for kv in sorted(checked.items()))]
    unchecked = {}
    for e in t.exceptions:
        if not e.checked:
            unchecked[e.name] = unchecked.get(e.name, 0) + 1
    if unchecked:
        lines.append("not cross-checked from the log alone: %s (`check` finds their returns)"
                     % ", ".join("%s %d" % kv for kv in sorted(unchecked.items())))
    return "\n".join(lines)


def strip(log, out):
    """The log without the cpu lines: the `-d exec,nochain,int` form."""
    with open(log) as f, open(out, "w") as g:
        for line in f:
            if not (line.startswith("PSR=") or re.match(r"^R\d\d=", line)):
                g.write(line)


BRANCHY = re.compile(r"^(b|bl|blx|bx|cbz|cbnz|tbb|tbh|eret|rfe\w*|udf|svc|bkpt|wfi)"
                     r"(\w\w)?(\.[nw])?$")


def objdump(elf_path):
    """{address: (mnemonic, operands)} of the ELF's code."""
    out = subprocess.run(["arm-none-eabi-objdump", "-d", elf_path], capture_output=True,
                         text=True, check=True).stdout
    insns = {}
    for line in out.splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\s+(?:[0-9a-f]{4,8} ?)+\s+(\S+)\s*([^;@]*)", line)
        if m:
            insns[int(m.group(1), 16)] = (m.group(2), m.group(3).strip())
    return insns


def writes_pc(mnemonic, operands):
    if BRANCHY.match(mnemonic):
        return True
    ops = [o.strip() for o in operands.split(",")]
    if mnemonic.startswith(("pop", "ldm")) and "pc" in operands:
        return True
    return bool(ops) and ops[0] == "pc"


def check(t, elf_path):
    """Problems (a list of lines): a step to an address other than the next
    instruction's from something that is not a branch, with no exception
    between (an IRQ may come anywhere)."""
    elf = Elf(elf_path)
    code = objdump(elf_path)
    at = {}
    for e in t.exceptions:
        at.setdefault(e.index, []).append(e)
    problems = []
    for i in range(len(t.insns) - 1):
        s, nxt = t.insns[i], t.insns[i + 1]
        if i + 1 in at:
            continue
        follow = s.addr + elf.size(s.addr, s.thumb)
        if nxt.addr == follow:
            continue
        mnem, ops = code.get(s.addr, ("?", ""))
        if not writes_pc(mnem, ops):
            problems.append("line %d: 0x%x %s %s is followed by 0x%x (line %d)"
                            % (s.line, s.addr, mnem, ops, nxt.addr, nxt.line))
    for e in t.exceptions:
        if e.qemu in CUT and e.index < len(t.insns) and t.insns[e.index].addr == e.ret:
            problems.append("line %d: %s: the cut instruction 0x%x runs next"
                            % (e.line, e.name, e.ret))
    # An interrupt's return address is where an exception return comes
    # back to later (or where another interrupt is taken right after it).
    landings = {}
    for j in range(1, len(t.insns) + 1):
        mnem, ops = code.get(t.insns[j - 1].addr, ("?", ""))
        if not is_exception_return(mnem, ops):
            continue
        for e in at.get(j, []):
            landings.setdefault(e.ret, []).append(j)
        if j < len(t.insns):
            landings.setdefault(t.insns[j].addr, []).append(j)
    for e in t.exceptions:
        if e.qemu in ASYNC and not any(j > e.index for j in landings.get(e.ret, [])):
            problems.append("line %d: %s: nothing returns to 0x%x" % (e.line, e.name, e.ret))
    return problems


def handlers(t, elf_path):
    """Per exception number: [count, [handler lengths]].  A handler runs
    from its vector's first instruction through the exception return
    (objdump's mnemonics; a conditional one that falls through is none)
    that closes it, the innermost open one first; nested handlers count in
    the outer one's length as well as in their own."""
    elf = Elf(elf_path)
    code = objdump(elf_path)
    at = {}
    for e in t.exceptions:
        at.setdefault(e.index, []).append(e)
    kinds, open_ = {}, []
    for j in range(len(t.insns) + 1):
        for e in at.get(j, []):
            kinds.setdefault(e.number, [0, []])[0] += 1
            open_.append((e.number, j))
        if j == len(t.insns):
            break
        s = t.insns[j]
        mnem, ops = code.get(s.addr, ("?", ""))
        if not open_ or not is_exception_return(mnem, ops):
            continue
        follow = s.addr + elf.size(s.addr, s.thumb)
        went = j + 1 in at or (j + 1 < len(t.insns) and t.insns[j + 1].addr != follow)
        if went:
            number, start = open_.pop()
            kinds[number][1].append(j - start + 1)
    return kinds


def is_exception_return(mnemonic, operands):
    ops = operands.replace(" ", "")
    return (mnemonic.startswith(("subs", "movs")) and ops.startswith("pc,lr")) or \
        (mnemonic.startswith(("ldm", "pop")) and ops.endswith("^")) or \
        mnemonic.startswith(("rfe", "eret"))


def main():
    args = sys.argv[1:]
    if len(args) != 3 or args[0] not in ("summary", "jsonl", "strip", "check"):
        sys.exit(__doc__)
    if args[0] == "strip":
        strip(args[1], args[2])
        return 0
    try:
        t = parse(args[1], args[2])
    except TruthError as err:
        print("bare_truth: %s" % err, file=sys.stderr)
        return 1
    if args[0] == "summary":
        print(summary(t))
    elif args[0] == "jsonl":
        for el in t.elements():
            if el[0] == "insn":
                print(json.dumps({"type": "insn", "addr": "0x%x" % el[1], "isa": el[2]},
                                 separators=(",", ":")))
            else:
                print(json.dumps({"type": "exception", "number": el[1], "ret": "0x%x" % el[2]},
                                 separators=(",", ":")))
    else:
        problems = check(t, args[2])
        for p in problems[:20]:
            print(p)
        print("%d instructions, %d exceptions: %s" % (
            len(t.insns), len(t.exceptions),
            "%d problems" % len(problems) if problems else "consistent"))
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
