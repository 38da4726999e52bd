#!/usr/bin/env python3
"""Instruction-level views against what qemu executed.

usage: insn_check.py PFT QEMU_LOG PROG RAW ptm|etmv3 [DECODE OPTION...]

PROG is the program qemu ran (ELF, perhaps with DWARF), RAW its trace
(pft encode --out-raw), decoded with the options after the protocol; for
ETMv3 the same run as a snapshot beside it (RAW without .raw, plus .ss)
gives the memory the instructions' conditions are read from.  The
oracles are qemu's log (the executed addresses, in order; with
`-d exec,nochain,cpu` the flags before each instruction), binutils' view
of the program (objdump -d: sizes; nm -S: functions; strip) and the real
clients of the formats (callgrind_annotate, llvm-profdata):
 1. pft annotate --format jsonl: every executed instruction of the image,
    each with qemu's count, none other;
 2. directions: every instruction after which the flow changed (the next
    address is not the one after it) has "taken" and "not_taken", and every
    one that has them has taken = the times it changed the flow (ETMv3: the
    times it passed its condition, worked out from qemu's flags and the
    encodings as ../qemu/roundtrip.py does) and not_taken = the rest;
    on ETMv3 every instruction that failed its condition has them, and
    pft decode's JSON lines mark "failed" the ranges it ends, as often;
 3. --function NAME (for each function of the program's own code that
    ran): pft decode --insn lists exactly qemu's instructions inside it, in
    order, and pft annotate exactly those addresses with qemu's counts;
 4. with DWARF: callgrind_annotate --auto=yes reads pft profile --format
    callgrind and shows a count on exactly the source lines that pft
    coverage --format lcov counts as executed, and its total is qemu's;
 5. with DWARF: llvm-profdata reads pft profile --format llvm-sample, and
    each function's head count is the number of times qemu arrived at its
    first instruction by a call or from outside it;
 6. the program stripped (no symbols, no DWARF): pft coverage --format
    jsonl's ranges cover exactly qemu's executed addresses, each with its
    count, and the text's total is their number.
Prints one line per failed check and "N passed, N failed"; exits 1 on
failure.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "qemu"))
import roundtrip  # noqa: E402

failures = []
passed = 0


def check(ok, what):
    global passed
    if ok:
        passed += 1
    else:
        failures.append(what)


def run(args, check_rc=True):
    r = subprocess.run(args, capture_output=True, text=True, check=False)
    if check_rc and r.returncode:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr.strip()))
    return r.stdout


def insn_sizes(prog):
    """{address: size} of the disassembly."""
    out = {}
    pat = re.compile(r"^\s*([0-9a-f]+):\s+((?:[0-9a-f]{4,8} ?)+)\s+\S+")
    for line in run(["arm-linux-gnueabihf-objdump", "-d", prog]).splitlines():
        m = pat.match(line)
        if m:
            out[int(m.group(1), 16)] = sum(len(w) for w in m.group(2).split()) // 2
    return out


def own_functions(prog):
    """{name: [(start, end), ...]} of the sized function symbols (static
    functions of one name in several files: a span each)."""
    out = {}
    for f in (line.split() for line in run(["arm-linux-gnueabihf-nm", "-S", "--defined-only",
                                             prog]).splitlines()):
        if len(f) == 4 and f[2] in "tT" and int(f[1], 16):
            start = int(f[0], 16) & ~1
            span = (start, start + int(f[1], 16))
            if span not in out.setdefault(f[3], []):
                out[f[3]].append(span)
    return out


def jsonl(text):
    return [json.loads(x) for x in text.splitlines() if x.strip()]


def image_span(prog):
    """[(start, end)] of the program's loadable code."""
    spans = []
    for line in run(["arm-linux-gnueabihf-objdump", "-h", prog]).splitlines():
        f = line.split()
        if len(f) >= 7 and f[0].isdigit():
            spans.append((int(f[3], 16), int(f[3], 16) + int(f[2], 16)))
    return spans


def main():
    pft, log, prog, raw, proto = sys.argv[1:6]
    opts = sys.argv[6:]
    trace = ["--raw", raw] + (["--protocol", "etmv3"] if proto == "etmv3" else []) + opts
    spans = image_span(prog)
    in_image = lambda a: any(s <= a < e for s, e in spans)  # noqa: E731
    steps = [a for a in roundtrip.qemu_addresses(log)]
    sizes = insn_sizes(prog)
    count = {}
    for a in steps:
        if in_image(a):
            count[a] = count.get(a, 0) + 1
    changed = {}
    for a, b in zip(steps, steps[1:]):
        if in_image(a) and b != a + sizes.get(a, 0):
            changed[a] = changed.get(a, 0) + 1
    elf = ["--elf", prog, "--quiet"]

    # 1. Counts.
    ann = jsonl(run([pft, "annotate"] + trace + elf + ["--format", "jsonl"]))
    got = {int(x["addr"], 16): x["count"] for x in ann}
    diff = sorted(a for a in set(got) | set(count) if got.get(a) != count.get(a))
    check(count and not diff, "annotate counts differ from qemu's at %d addresses: %s" %
          (len(diff), ["0x%x qemu %s pft %s" % (a, count.get(a), got.get(a)) for a in diff[:5]]))

    # 2. Directions.
    failed = {}
    if proto == "etmv3":
        ss = os.path.splitext(raw)[0] + ".ss"   # the same run as a snapshot
        mem = roundtrip.Memory(ss) if os.path.isdir(ss) else None
        if mem:
            for a, atom in roundtrip.expected_atoms(roundtrip.qemu_steps(log), mem):
                if atom == "N":
                    failed[a] = failed.get(a, 0) + 1
        check(mem is not None and failed, "ETMv3: no snapshot to work the atoms out from, or "
              "no instruction failed its condition")
    bad = []
    directed = set()
    for x in ann:
        a = int(x["addr"], 16)
        if "taken" not in x:
            continue
        directed.add(a)
        if proto == "etmv3":
            want = (x["count"] - failed.get(a, 0), failed.get(a, 0))
        else:
            want = (changed.get(a, 0), x["count"] - changed.get(a, 0))
        if (x["taken"], x["not_taken"]) != want:
            bad.append("0x%x: taken %d not %d, qemu %d %d" % (a, x["taken"], x["not_taken"],
                                                            want[0], want[1]))
    last = steps[-1] if steps else None
    need = {a for a in changed if a != last} | set(failed)
    missing = sorted(need - directed)
    check(not bad and not missing and directed,
          "directions differ from qemu's: %s; none at %s" %
          (bad[:5], ["0x%x" % a for a in missing[:5]]))

    # 2b. ETMv3: pft decode marks "failed" the ranges whose last
    # instruction failed its condition, as often as qemu's flags say.
    if proto == "etmv3" and failed:
        marked = {}
        for x in jsonl(run([pft, "decode"] + trace + elf + ["--format", "jsonl"])):
            if x.get("type") == "range" and x.get("failed"):
                a = int(x["last"], 16)
                marked[a] = marked.get(a, 0) + 1
        check(marked == failed, "decode: ranges marked failed differ from qemu's: %s" %
              ["0x%x qemu %s pft %s" % (a, failed.get(a), marked.get(a))
               for a in sorted(set(marked) | set(failed)) if marked.get(a) != failed.get(a)][:5])

    # 3. --function.
    funcs = own_functions(prog)
    inside = lambda a, spans: any(s <= a < e for s, e in spans)  # noqa: E731
    ran = [n for n, spans in sorted(funcs.items(), key=lambda kv: kv[1])
           if any(inside(a, spans) for a in count) and not n.startswith("_")]
    # main, the names two functions have, and a few others.
    chosen = [n for n in ran if n == "main"] + [n for n in ran if len(funcs[n]) > 1] + \
        [n for n in ran if n != "main" and len(funcs[n]) == 1][:3]
    starts = {}
    for n, spans in funcs.items():
        for s, _ in spans:
            starts.setdefault(s, []).append(n)
    for name in chosen:
        spans = funcs[name]
        if any(len(starts[s]) > 1 for s, _ in spans):
            continue   # an alias: the name has the same code as another
        want = [a for a in steps if inside(a, spans)]
        dec = jsonl(run([pft, "decode"] + trace + elf + ["--function", name, "--insn",
                                                          "--format", "jsonl"]))
        got = [int(x["addr"], 16) for x in dec if x["type"] == "insn"]
        diff = roundtrip.first_difference(want, got)
        check(want and not diff, "decode --function %s: %s" % (name, diff))
        fa = jsonl(run([pft, "annotate"] + trace + elf + ["--function", name, "--format",
                                                          "jsonl"]))
        got = {int(x["addr"], 16): x["count"] for x in fa}
        check(got == {a: c for a, c in count.items() if inside(a, spans)},
              "annotate --function %s: not qemu's instructions of it" % name)

    has_dwarf = ".debug_line" in run(["arm-linux-gnueabihf-objdump", "-h", prog])
    with tempfile.TemporaryDirectory() as tmp:
        if has_dwarf:
            # 4. callgrind_annotate --auto=yes: counts on the lines lcov ran.
            cg = os.path.join(tmp, "callgrind.out")
            run([pft, "profile"] + trace + elf + ["--format", "callgrind", "--output", cg])
            lcov = run([pft, "coverage"] + trace + elf + ["--format", "lcov"])
            want, sf = set(), None
            for line in lcov.splitlines():
                if line.startswith("SF:"):
                    sf = os.path.realpath(line[3:])
                elif line.startswith("DA:") and int(line.split(",")[1]) > 0:
                    want.add((sf, int(line[3:].split(",")[0])))
            # (--threshold=100: every file; by default the coldest are left out.)
            text = run(["callgrind_annotate", "--auto=yes", "--threshold=100", "--context=0", cg])
            got, cur, lineno = set(), None, 0
            for line in text.splitlines():
                m = re.match(r"^-- Auto-annotated source: (.*)$", line)
                if m:
                    cur, lineno = os.path.realpath(m.group(1).strip()), 0
                    continue
                m = re.match(r"^-- line (\d+) -", line)
                if m and cur:
                    lineno = int(m.group(1))
                    continue
                if not cur or line.startswith("--") or not line.strip():
                    continue
                if re.match(r"^\s*[\d,]+(?: \([ \d.]+%\))?\s+=> ", line):
                    continue   # a call's inclusive cost, not a source line
                m = re.match(r"^\s*([\d,]+)(?: \([ \d.]+%\))?  ", line)
                if m:
                    got.add((cur, lineno))
                    lineno += 1
                elif re.match(r"^\s*\.  ", line):
                    lineno += 1
            total = re.search(r"^\s*([\d,]+)(?: \([ \d.]+%\))?\s+PROGRAM TOTALS", text, re.M)
            check(want and got == want,
                  "callgrind_annotate counts lines lcov does not, or not those it does: %s / %s"
                  % (sorted(got - want)[:5], sorted(want - got)[:5]))
            check(total and int(total.group(1).replace(",", "")) == sum(count.values()),
                  "callgrind_annotate's total is not qemu's %d" % sum(count.values()))

            # 5. llvm-profdata; head counts = calls.
            prof = os.path.join(tmp, "prog.prof")
            run([pft, "profile"] + trace + elf + ["--format", "llvm-sample", "--output", prof])
            r = subprocess.run(["llvm-profdata", "show", "--sample", prof], capture_output=True,
                               text=True, check=False)
            check(r.returncode == 0 and "Function:" in r.stdout,
                  "llvm-profdata show --sample: %s" % r.stderr.strip())
            heads = {}
            for line in open(prof):
                m = re.match(r"^([^ :][^:]*):(\d+):(\d+)$", line.rstrip("\n"))
                if m:
                    heads[m.group(1)] = int(m.group(3))
            # (Functions of one name are one profile: their calls add up.)
            arrivals = {}
            for name, spans in funcs.items():
                if name in heads:
                    arrivals[name] = sum(1 for a, b in zip(steps, steps[1:]) for s, e in spans
                                         if b == s and (not s <= a < e or
                                                        run_is_call(a, sizes, prog)))
            wrong = {n: (heads[n], arrivals[n]) for n in arrivals if heads[n] != arrivals[n]}
            check(arrivals and not wrong, "head counts differ from qemu's calls: %s" % wrong)

        # 6. Stripped: the executed ranges.
        bare = os.path.join(tmp, "stripped")
        run(["arm-linux-gnueabihf-strip", "-o", bare, prog])
        cov = jsonl(run([pft, "coverage"] + trace + ["--elf", bare, "--quiet", "--format",
                                                     "jsonl"]))
        got, bad = {}, []
        for x in cov:
            if x["type"] != "range":
                continue
            a, end = int(x["start"], 16), int(x["end"], 16)
            n = 0
            while a < end and a in sizes:
                got[a] = x["count"]
                a += sizes[a]
                n += 1
            if a != end or n != x["insns"]:
                bad.append(x)
        check(not bad and got == count,
              "stripped: ranges differ from qemu's addresses (%d bad ranges; qemu only %d, "
              "pft only %d, counts differ at %d)" %
              (len(bad), len(set(count) - set(got)), len(set(got) - set(count)),
               sum(1 for a in got if a in count and got[a] != count[a])))
        text = run([pft, "coverage"] + trace + ["--elf", bare, "--quiet"])
        m = re.search(r"^code in no function: (\d+) instructions executed$", text, re.M)
        check(m and int(m.group(1)) == len(count),
              "stripped: the text does not count qemu's %d instructions" % len(count))

    for f in failures:
        print("FAIL %s [%s %s]: %s" % (os.path.basename(prog), proto, " ".join(opts), f))
    print("%d passed, %d failed" % (passed, len(failures)))
    return 1 if failures else 0


_calls = {}


def run_is_call(addr, sizes, prog):
    """Whether the instruction at @addr is a BL or BLX (objdump)."""
    if prog not in _calls:
        pat = re.compile(r"^\s*([0-9a-f]+):\s+(?:[0-9a-f]{4,8} ?)+\s+(\S+)")
        _calls[prog] = {int(m.group(1), 16) for m in map(pat.match, run(
            ["arm-linux-gnueabihf-objdump", "-d", prog]).splitlines())
            if m and m.group(2).split(".")[0] in ("bl", "blx")}
    return addr in _calls[prog]


if __name__ == "__main__":
    sys.exit(main())
