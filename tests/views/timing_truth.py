#!/usr/bin/env python3
"""Per-call lengths worked out from a qemu log, independently of pft.

usage: timing_truth.py QEMU_LOG ELF [FUNCTION...]

The log is qemu-arm's `-singlestep -d exec,nochain,cpu` (each executed
instruction with the registers before it).  A call of a function starts
at an instruction at the function's first address reached by a call (the
link register holds the address after the instruction before) or from
another function (a tail call by a jump), with the link register
(the return address, RA) and the stack pointer (SP) it has there; it
ends at the instruction before the first one executed at RA with the
same SP (its return, or the return of the function it tail-called), or
before the first instruction that lands, not at a function's first
address, in the function of an open call further out (a longjmp past
it: the calls above that one end there).  Inclusive length: the
instructions from its first through its last; self length: those less
the inclusive lengths of the calls started while it was the innermost
open call.  Instructions outside the ELF (qemu's kernel helpers) are
not traced, so not counted.  Only calls that ended count.

Prints, for each FUNCTION (default: all with calls that ended), a JSON
object as pft profile --format jsonl gives its statistics ("function"),
and one per caller -> callee pair of them ("call").

usage: timing_truth.py compare TRUTH_JSONL PROFILE_JSONL
compares those objects with pft profile's: exit 0 when every statistic is
the same, 1 (printing the differences) otherwise.
"""
import json
import subprocess
import sys


def functions(elf):
    out = subprocess.run(["arm-linux-gnueabihf-nm", "-S", "--defined-only", elf],
                         capture_output=True, text=True, check=True).stdout
    funcs = {}
    for fields in (line.split() for line in out.splitlines()):
        if len(fields) == 4 and fields[2] in "tTW" and not fields[3].startswith("$"):
            start = int(fields[0], 16) & ~1
            size = int(fields[1], 16)
            if size:
                funcs.setdefault(start, (fields[3], start + size))
    return funcs


def image_ranges(elf):
    out = subprocess.run(["arm-linux-gnueabihf-readelf", "-lW", elf], capture_output=True,
                         text=True, check=True).stdout
    ranges = []
    for line in out.splitlines():
        f = line.split()
        if f and f[0] == "LOAD":
            ranges.append((int(f[2], 16), int(f[2], 16) + int(f[4], 16)))
    return ranges


def steps(log):
    """(address, SP, LR) of each executed instruction."""
    out = []
    for line in open(log):
        if line.startswith("Trace "):
            out.append([int(line[line.index("[") + 1:].split("/")[1], 16), None, None])
        elif line.startswith("R12=") and out:
            regs = dict(x.split("=") for x in line.split())
            out[-1][1] = int(regs["R13"], 16)
            out[-1][2] = int(regs["R14"], 16)
        elif line.startswith("Stopped execution"):
            pc = int(line[line.index("[") + 1:line.index("]")], 16)
            if out and out[-1][0] == pc:
                out.pop()
    return out


class Stat:
    def __init__(self):
        self.incl, self.self_ = [], []

    def add(self, incl, self_):
        self.incl.append(incl)
        self.self_.append(self_)

    def fields(self):
        n = len(self.incl)
        return {"returned": n, "incl_min": min(self.incl), "incl_max": max(self.incl),
                "incl_avg": round(sum(self.incl) / n, 2), "self_min": min(self.self_),
                "self_max": max(self.self_), "self_avg": round(sum(self.self_) / n, 2)}


KEYS = ["returned", "incl_min", "incl_max", "incl_avg", "self_min", "self_max", "self_avg"]


def compare(truth_path, profile_path):
    truth = [json.loads(line) for line in open(truth_path)]
    got = [json.loads(line) for line in open(profile_path)]
    bad = 0
    for t in truth:
        if t["type"] == "function":
            what = t["name"]
            match = [p for p in got if p["type"] == "function" and p["name"] == what]
        else:
            what = "%s -> %s" % (t["caller"], t["callee"])
            match = [p for p in got if p["type"] == "call" and p["caller"] == t["caller"] and
                     p["callee"] == t["callee"]]
        if len(match) != 1:
            print("%s: %d objects in the profile" % (what, len(match)))
            bad += 1
            continue
        want = {k: t[k] for k in KEYS}
        have = {k: match[0].get(k) for k in KEYS}
        if want != have:
            print("%s: qemu %s, pft %s" % (what, want, have))
            bad += 1
    if not truth:
        print("no calls in the log")
        bad += 1
    return 1 if bad else 0


def main():
    if sys.argv[1:2] == ["compare"]:
        return compare(sys.argv[2], sys.argv[3])
    log, elf, wanted = sys.argv[1], sys.argv[2], set(sys.argv[3:])
    funcs = functions(elf)
    starts = sorted(funcs)
    ranges = image_ranges(elf)

    def func_of(addr):
        import bisect
        i = bisect.bisect_right(starts, addr) - 1
        if i >= 0 and addr < funcs[starts[i]][1]:
            return funcs[starts[i]][0]
        return None

    stats, pairs = {}, {}
    stack = []            # open calls: [name, caller, start, ra, sp, child]
    n = 0                 # traced instructions so far
    prev_func, prev_addr, root = None, None, None
    for addr, sp, lr in steps(log):
        if not any(lo <= addr < hi for lo, hi in ranges):
            continue      # not traced
        # Calls that ended before this instruction.
        f = func_of(addr)
        depth = len(stack)
        while depth and addr == stack[depth - 1][3] and sp == stack[depth - 1][4]:
            depth -= 1
        if depth == len(stack) and stack and f != stack[-1][0] and addr not in funcs:
            outer = [k for k in range(len(stack) - 1) if stack[k][0] == f]
            if outer:
                depth = outer[-1] + 1
            elif f == root:
                depth = 0
        while len(stack) > depth:
            name, caller, start, ra, csp, child = stack.pop()
            incl = n - start
            stats.setdefault(name, Stat()).add(incl, incl - child)
            pairs.setdefault((caller, name), Stat()).add(incl, incl - child)
            if stack:
                stack[-1][5] += incl
        called = prev_addr is not None and (lr & ~1) - prev_addr in (2, 4)
        if root is None:
            root = f
        if addr in funcs and (f != prev_func or called):
            caller = stack[-1][0] if stack else root
            stack.append([f, caller, n, lr & ~1, sp, 0])
        n += 1
        prev_func, prev_addr = f, addr
    for name in sorted(stats):
        if wanted and name not in wanted:
            continue
        print(json.dumps(dict({"type": "function", "name": name}, **stats[name].fields())))
    for (caller, callee) in sorted(pairs, key=str):
        if wanted and (callee not in wanted or caller not in wanted):
            continue
        print(json.dumps(dict({"type": "call", "caller": caller, "callee": callee},
                              **pairs[(caller, callee)].fields())))


if __name__ == "__main__":
    sys.exit(main())
