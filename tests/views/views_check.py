#!/usr/bin/env python3
"""Check the views that views_driver wrote against what qemu executed.

usage: views_check.py QEMU_LOG PROG OUTDIR

The oracles are independent of libpft: qemu's log of executed instructions,
the DWARF line table as binutils decodes it (objdump --dwarf=decodedline),
the symbols (nm -S) and the disassembly (objdump -d) of the program, and
callgrind_annotate reading the callgrind file.
 1. lines: the source lines lcov counts as executed (DA count > 0) are the
    lines of the instructions qemu executed in the program's own functions
    (each address -> the last line-table row at or below it);
 2. FNDA: each function's count is the number of times qemu arrived at its
    first instruction from outside it or by a BL/BLX (a call or tail call);
 3. self instructions: per function (by start address) in profile.jsonl,
    the instructions qemu executed between its start and end; callgrind's
    "fn" cost lines carry the same numbers and callgrind_annotate reports
    them, and the total is the number of traced instructions;
 4. calls: as many CALL events as qemu executed taken BL/BLX instructions,
    and the timeline's spans nest: each E closes the B of its depth.
Prints one line per failed check and "N passed, N failed"; exits 1 on
failure.
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "qemu"))
from roundtrip import qemu_addresses  # noqa: E402

failures = []
passed = 0


def check(ok, what):
    global passed
    if ok:
        passed += 1
    else:
        failures.append(what)


def run(args):
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def callgrind_self(path):
    """{function: self cost} of a callgrind file (positions: instr line):
    the cost lines under each fn=, without the inclusive cost line that
    follows each calls=."""
    out, fn, after_calls = {}, None, False
    for ln in open(path).read().splitlines():
        if ln.startswith("fn="):
            fn = ln[3:]
        elif ln.startswith("calls="):
            after_calls = True
        elif fn is not None and re.match(r"^(0x[0-9a-f]+|\d+) \d+ \d+$", ln):
            if not after_calls:
                out[fn] = out.get(fn, 0) + int(ln.split()[2])
            after_calls = False
    return out


def functions(prog):
    """{start: end} of the sized function symbols (aliases merged)."""
    out = {}
    for fields in (line.split() for line in run(["arm-linux-gnueabihf-nm", "-S", "--defined-only", prog]).splitlines()):
        if len(fields) == 4 and fields[2] in "tTwW" and int(fields[1], 16):
            start = int(fields[0], 16) & ~1
            out[start] = max(out.get(start, 0), start + int(fields[1], 16))
    return out


def mnemonics(prog):
    """{address: (mnemonic, size)} from the disassembly."""
    out = {}
    pat = re.compile(r"^\s*([0-9a-f]+):\s+((?:[0-9a-f]{4,8} ?)+)\s+(\S+)")
    for line in run(["arm-linux-gnueabihf-objdump", "-d", prog]).splitlines():
        m = pat.match(line)
        if m:
            size = sum(len(w) for w in m.group(2).split()) // 2
            out[int(m.group(1), 16)] = (m.group(3), size)
    return out


def line_rows(prog):
    """Sorted [(address, file basename, line)] in table order per address."""
    rows = []
    for line in run(["arm-linux-gnueabihf-objdump", "--dwarf=decodedline", prog]).splitlines():
        f = line.split()
        if len(f) >= 3 and f[1].isdigit() and f[2].startswith("0x"):
            rows.append((int(f[2], 16), len(rows), f[0], int(f[1])))
    rows.sort()
    return [(a, name, ln) for a, _, name, ln in rows]


def is_call(mn):
    return mn[0].split(".")[0] in ("bl", "blx")


def main():
    log, prog, out = sys.argv[1:4]
    executed = qemu_addresses(log)
    qemu = [a for a in executed if a < 0xffff0000]
    funcs = functions(prog)
    insns = mnemonics(prog)
    with open(os.path.join(out, "profile.jsonl")) as f:
        profile = [json.loads(x) for x in f]
    lcov = open(os.path.join(out, "lcov.info")).read().splitlines()

    # 1. Executed lines of the program's own functions (those lcov names).
    own = {}
    names = {}
    for x in profile:
        if x["type"] == "function":
            names[x["name"]] = int(x["start"], 16)
    fn_names = [ln.split(",", 1)[1] for ln in lcov if ln.startswith("FN:")]
    for name in fn_names:
        if name in names and names[name] in funcs:
            own[names[name]] = funcs[names[name]]
    # Functions never entered have no profile line: find them by symbol.
    for fields in (l.split() for l in run(["arm-linux-gnueabihf-nm", "-S", "--defined-only", prog]).splitlines()):
        if len(fields) == 4 and fields[3] in fn_names:
            start = int(fields[0], 16) & ~1
            own[start] = start + int(fields[1], 16)
    rows = line_rows(prog)
    addrs = [r[0] for r in rows]
    import bisect
    want_lines = set()
    for a in set(qemu):
        if any(s <= a < e for s, e in own.items()):
            i = bisect.bisect_right(addrs, a) - 1
            if i >= 0:
                want_lines.add((rows[i][1], rows[i][2]))
    got_lines = set()
    sf = None
    for ln in lcov:
        if ln.startswith("SF:"):
            sf = os.path.basename(ln[3:])
        elif ln.startswith("DA:"):
            line, count = ln[3:].split(",")[:2]
            if int(count) > 0:
                got_lines.add((sf, int(line)))
    check(want_lines and want_lines == got_lines,
          "executed lines differ: qemu only %s, lcov only %s" %
          (sorted(want_lines - got_lines), sorted(got_lines - want_lines)))

    # 2. FNDA: arrivals at a function's first instruction.
    fnda = {}
    for ln in lcov:
        if ln.startswith("FNDA:"):
            count, name = ln[5:].split(",", 1)
            fnda[name] = int(count)
    starts = {}
    for fields in (l.split() for l in run(["arm-linux-gnueabihf-nm", "--defined-only", prog]).splitlines()):
        if len(fields) == 3 and fields[2] in fnda:
            starts[fields[2]] = int(fields[0], 16) & ~1
    for name, start in starts.items():
        end = funcs.get(start, start + 1)
        n = sum(1 for i in range(1, len(qemu)) if qemu[i] == start and
                (not start <= qemu[i - 1] < end or is_call(insns.get(qemu[i - 1], ("?", 4)))))
        check(fnda.get(name) == n, "FNDA of %s: lcov %s, qemu %d" % (name, fnda.get(name), n))
    check(len(starts) == len(fnda) and fnda, "FNDA names without a symbol: %s" % sorted(set(fnda) - set(starts)))
    if "never_called" in fn_names:
        check(fnda.get("never_called") == 0, "never_called is listed with FNDA 0")

    # 3. Self instructions per function.
    sorted_starts = sorted(funcs)
    want_self = {}
    for a in qemu:
        i = bisect.bisect_right(sorted_starts, a) - 1
        if i >= 0 and a < funcs[sorted_starts[i]]:
            want_self[sorted_starts[i]] = want_self.get(sorted_starts[i], 0) + 1
        else:
            want_self[None] = want_self.get(None, 0) + 1
    got_self = {}
    for x in profile:
        if x["type"] == "function" and x["self"]:
            # Code outside sized symbols: the profile may name it after an
            # unsized symbol, the oracle has it as unknown.
            start = int(x["start"], 16) if x["name"] != "[unknown]" else None
            key = start if start in funcs else None
            got_self[key] = got_self.get(key, 0) + x["self"]
    diff = {k: (want_self.get(k), got_self.get(k)) for k in set(want_self) | set(got_self)
            if want_self.get(k) != got_self.get(k)}
    check(not diff, "self instructions differ (qemu, profile): %s" %
          {("0x%x" % k if k is not None else k): v for k, v in sorted(diff.items(), key=str)[:10]})
    by_name = {x["name"]: x["self"] for x in profile if x["type"] == "function" and x["self"]}
    cg_self = callgrind_self(os.path.join(out, "callgrind.out"))
    check({k: v for k, v in cg_self.items() if v} == by_name,
          "callgrind self costs differ from profile.jsonl")
    ann = run(["callgrind_annotate", "--threshold=100", os.path.join(out, "callgrind.out")])
    ann_self = {}
    table = ann.split("file:function", 1)[1].split("\n-----", 2)[1]
    for ln in table.splitlines():
        m = re.match(r"^\s*([\d,]+) \([\s\d.]+%\)\s+(.+):(.+?)(?: \[.*\])?$", ln)
        if m:
            ann_self[m.group(3)] = ann_self.get(m.group(3), 0) + int(m.group(1).replace(",", ""))
    check(ann_self == by_name, "callgrind_annotate per-function counts differ: %s" %
          sorted(set(ann_self.items()) ^ set(by_name.items()))[:10])
    total = re.search(r"([\d,]+) \([\s\d.]+%\)\s+PROGRAM TOTALS", ann)
    check(total and int(total.group(1).replace(",", "")) == len(qemu),
          "callgrind_annotate total is not the %d instructions qemu ran" % len(qemu))

    # 4. Calls and the timeline.
    with open(os.path.join(out, "calls.jsonl")) as f:
        events = [json.loads(x) for x in f]
    # (qemu's kernel helpers, outside the image, are called too.)
    taken_calls = sum(1 for i in range(len(executed) - 1)
                      if is_call(insns.get(executed[i], ("?", 4))) and
                      executed[i + 1] != executed[i] + insns[executed[i]][1])
    ncall = sum(1 for e in events if e["kind"] == "call")
    check(ncall == taken_calls, "%d CALL events, qemu ran %d taken BL/BLX" % (ncall, taken_calls))
    nret = sum(1 for e in events if e["kind"] in ("return", "exception_return"))
    check(nret == ncall, "%d returns for %d calls" % (nret, ncall))
    # Each return closes the frame its call opened, at the depth below it,
    # leaving the function the call entered; a return that is neither a
    # longjmp's unwinding nor the trace's end reaches the instruction after
    # the call (its size from objdump).
    # (views_driver's events: addresses as numbers, flags as pft.h's bits.)
    unwound_or_end = 1 | 4
    stack, bad = [], []
    for e in events:
        if e["kind"] in ("call", "exception"):
            if e["depth"] != len(stack) + 1:
                bad.append("call at depth %d over %d frames" % (e["depth"], len(stack)))
            stack.append(e)
        elif e["kind"] == "tail_call" and stack:
            stack[-1] = dict(stack[-1], callee=e["callee"])
        elif e["kind"] in ("return", "exception_return"):
            if not stack:
                bad.append("a return without a call")
                break
            call = stack.pop()
            if e["depth"] != len(stack) or e["callee"] != call["callee"]:
                bad.append("return at depth %d from 0x%x closes the call of 0x%x at depth %d" %
                           (e["depth"], e["callee"], call["callee"], call["depth"]))
            if (e["kind"] == "return" and not e["flags"] & unwound_or_end and
                    e["target"] != call["site"] + insns.get(call["site"], ("?", 0))[1]):
                bad.append("return to 0x%x after the call at 0x%x" % (e["target"], call["site"]))
    check(not bad and not stack, "calls and returns do not pair: %s (%d open)" % (bad[:3], len(stack)))
    with open(os.path.join(out, "timeline.json")) as f:
        trace = json.load(f)
    stack, ok, last_ts, spans = [], True, -1, 0
    for e in trace["traceEvents"]:
        if e["ph"] == "B":
            spans += 1
            ok &= e["args"]["depth"] == len(stack) + 1
            stack.append(e)
        elif e["ph"] == "E":
            ok &= bool(stack)
            if stack:
                stack.pop()
        if e["ph"] in "BE":
            ok &= e["ts"] >= last_ts
            last_ts = e["ts"]
    check(ok and not stack and spans >= ncall,
          "timeline spans do not nest (%d open at the end)" % len(stack))

    for f in failures:
        print("FAIL %s: %s" % (prog, f))
    print("%d passed, %d failed" % (passed, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
