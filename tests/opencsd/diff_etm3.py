#!/usr/bin/env python3
"""Compare libpft's ETMv3 decoders (through etm3_dump) with OpenCSD's trc_pkt_lister.

usage: diff_etm3.py packets|flow|ds5|all ETM3_DUMP SNAPSHOT_DIR TRACE_ID

packets: every synchronised packet of `trc_pkt_lister -pkt_mon` (NOTSYNC runs
  are chunked differently and left out) must be a pft packet at the same index
  with the same bytes, type and fields: addresses and ISA (branch, I-sync),
  the atom/W string and cycle count (P-headers), I-sync cycle counts and
  reasons, timestamps.
flow: the executed instructions of `trc_pkt_lister -decode_only` (one
  INSTR_RANGE per instruction for ETMv3) must equal the instructions of pft's
  ranges, in order; so must exceptions, exception returns and NACC points.
ds5: pft's ranges against the snapshot's DS-5 listing (diff_ds5).
Exits 0 when they agree, 1 otherwise (printing the first differences).
"""
import functools
import json
import os
import re
import subprocess
import sys
import tempfile

PKT = re.compile(r"^Idx:(\d+); ID:[0-9a-f]+; \[([^\]]*)\];\t(\w+) : (.*)$")
TYPES = {"A_SYNC": "async", "BRANCH_ADDRESS": "branch", "I_SYNC": "isync",
         "I_SYNC_CYCLE": "isync", "P_HDR": "pheader", "TIMESTAMP": "timestamp",
         "EXCEPTION_EXIT": "exception_return", "EXCEPTION_ENTRY": "exception_entry",
         "CYCLE_COUNT": "cycle_count", "CONTEXT_ID": "ctxid", "VMID": "vmid",
         "TRIGGER": "trigger", "IGNORE": "ignore"}
ISA = {"ARM(32)": "arm", "Thumb2": "thumb", "ARM": "arm", "ThumbEE": "thumbee",
       "Jazelle": "jazelle"}
REASONS = {"Periodic": 0, "Trace Enable": 1, "Trace Restart Overflow": 2,
           "Debug Exit": 3}


@functools.lru_cache(maxsize=None)
def run_cached(args):
    # trc_pkt_lister writes a log file into its working directory.
    with tempfile.TemporaryDirectory() as tmp:
        return subprocess.run(list(args), capture_output=True, text=True, check=False,
                              cwd=tmp).stdout


def run(args):
    """A command's output; each command runs once (the "all" mode asks twice)."""
    return run_cached(tuple(args))


def ocsd_packets(snapshot, trace_id):
    out = run(["trc_pkt_lister", "-ss_dir", snapshot, "-pkt_mon", "-id", hex(trace_id)])
    pkts = []
    for line in out.splitlines():
        m = PKT.match(line)
        if not m or m.group(3) == "NOTSYNC":
            continue
        idx, raw, kind, rest = m.groups()
        raw = " ".join(b[2:] for b in raw.split())
        f = {"type": TYPES.get(kind, kind), "raw": raw}
        a = re.search(r"Addr=0x([0-9a-fA-F]+)", rest)
        if a:
            f["addr"] = int(a.group(1), 16)
        i = re.search(r"ISA=([\w()]+)", rest)
        if i:
            f["isa"] = ISA.get(i.group(1), i.group(1))
        c = re.search(r"Cycles=(\d+)", rest)
        if c:
            f["cycles"] = int(c.group(1))
        t = re.search(r"TS=0x([0-9a-f]+)", rest)
        if t:
            f["ts"] = int(t.group(1), 16)
        if kind == "P_HDR":
            f["atoms"] = rest.split(";")[1].strip()
        r = re.search(r"\(([A-Za-z ]+)\); Addr", rest)
        if r:
            f["reason"] = REASONS.get(r.group(1), r.group(1))
        e = re.search(r"Exception=", rest)
        if e:
            f["exception"] = True
        pkts.append((int(idx), f))
    return pkts


def atom_string(fmt, atoms, cycles):
    """OpenCSD's W/E/N listing of a cycle-accurate P-header."""
    if fmt == 1:
        return "".join("W" + a for a in atoms)
    if fmt == 2:
        return "W" + atoms
    if fmt == 3:
        return "W" * cycles + atoms
    return atoms


def pft_packets(dump, snapshot, trace_id, cycle_accurate=True):
    out = run([dump, "packets", snapshot, hex(trace_id)])
    pkts = []
    for line in out.splitlines():
        m = re.match(r"^(\d+) (\w+) \[([^\]]*)\](.*)$", line)
        if not m:
            continue
        idx, kind, raw, rest = m.groups()
        f = {"type": kind, "raw": raw}
        kv = dict(re.findall(r"(\w+)=(\S*)", rest))
        if "addr" in kv:
            f["addr"] = int(kv["addr"], 16)
        if "isa" in kv:
            f["isa"] = kv["isa"]
        if "cycles" in kv:
            f["cycles"] = int(kv["cycles"])
        if "ts" in kv:
            f["ts"] = int(kv["ts"], 16)
        if "reason" in kv:
            f["reason"] = int(kv["reason"])
        if kind == "pheader":
            f["atoms"] = atom_string(int(kv["format"]), kv["atoms"], int(kv["cycles"])) \
                if cycle_accurate else kv["atoms"]
        if kv.get("exc", "0") != "0":
            f["exception"] = True
        pkts.append(f)
    return pkts


def diff_packets(dump, snapshot, trace_id):
    # In order, not by index: for formatted buffers OpenCSD's index is not
    # the file position of the packet's first byte.
    ours = [f for f in pft_packets(dump, snapshot, trace_id) if f["type"] != "notsync"]
    theirs = ocsd_packets(snapshot, trace_id)
    bad = 0
    for i in range(max(len(ours), len(theirs))):
        idx, f = theirs[i] if i < len(theirs) else (None, None)
        g = ours[i] if i < len(ours) else None
        if f is None or g is None or any(g.get(k) != v for k, v in f.items()) \
                or set(g) - set(f) - {"isa"}:
            bad += 1
            if bad <= 10:
                print(f"0x{trace_id:x} packet {i} (Idx {idx}): OpenCSD {f}\n"
                      f"{'':>20} pft     {g}")
    print(f"0x{trace_id:x}: {len(theirs)} packets compared, {bad} differences")
    return bad == 0 and len(theirs) > 0


RANGE = re.compile(r"INSTR_RANGE\(exec range=0x([0-9a-f]+):\[0x([0-9a-f]+)\] num_i\((\d+)\)")


def ocsd_flow(snapshot, trace_id):
    out = run(["trc_pkt_lister", "-ss_dir", snapshot, "-decode_only", "-logstdout",
               "-id", hex(trace_id)])
    seq = []
    for line in out.splitlines():
        m = RANGE.search(line)
        if m:
            if int(m.group(3)) != 1:
                seq.append(("multi-instruction range", line))
            seq.append(("insn", int(m.group(1), 16)))
        elif "ELEM_EXCEPTION_RET" in line:
            seq.append(("exception_return",))
        elif "ELEM_ADDR_NACC" in line:
            seq.append(("addr_nacc", int(re.search(r"0x([0-9a-f]+)", line).group(1), 16)))
        elif "ELEM_EXCEPTION(" in line:
            seq.append(("exception", int(re.search(r"excep num \(0x([0-9a-f]+)\)", line)
                                         .group(1), 16)))
    return seq


def pft_ptm_flow(dump, snapshot, trace_id):
    seq = []
    for line in run([dump, "flow", snapshot, hex(trace_id)]).splitlines():
        w = line.split()
        if w[0] == "insn":
            seq.append(("insn", int(w[1], 16)))
        elif w[0] in ("exception_return",):
            seq.append((w[0],))
        elif w[0] == "addr_nacc":
            seq.append((w[0], int(w[1], 16)))
        elif w[0] == "exception":
            seq.append((w[0], int(w[1])))
    return seq


def diff_flow(dump, snapshot, trace_id):
    a, b = ocsd_flow(snapshot, trace_id), pft_ptm_flow(dump, snapshot, trace_id)
    bad = 0
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else None
        y = b[i] if i < len(b) else None
        if x != y:
            bad += 1
            if bad <= 10:
                print(f"0x{trace_id:x} element {i}: OpenCSD {x}, pft {y}")
    n = sum(1 for x in a if x[0] == "insn")
    print(f"0x{trace_id:x}: {n} instructions compared, {bad} differences")
    return bad == 0 and n > 0


def diff_cli(dump, snapshot, trace_id):
    """The CLI (pft decode --insn, through the library's pipeline) executes
    the instructions OpenCSD does, in order."""
    want = [x[1] for x in ocsd_flow(snapshot, trace_id) if x[0] == "insn"]
    r = subprocess.run([os.environ["PFT"], "decode", "--snapshot", snapshot, "--id", hex(trace_id),
                        "--insn", "--format", "jsonl"], capture_output=True, text=True, check=False)
    got = [int(o["addr"], 16) for o in map(json.loads, r.stdout.splitlines())
           if o["type"] == "insn"]
    same = r.returncode in (0, 1) and got == want and len(want) > 0
    print(f"0x{trace_id:x}: pft decode: {len(got)} instructions, OpenCSD {len(want)}: "
          f"{'same' if same else 'DIFFERENT'} (exit {r.returncode})")
    return same


def ds5_records(path):
    insns, gaps = [], []
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if f[0] == "Instruction":
            insns.append((int(f[2].split(":")[1], 16), int(f[4]), f[6] == "true",
                          len(f) > 7 and f[7] == "fail"))
        elif f[0] == "Cycle Count":
            gaps.append(int(f[4]))
    return insns, gaps


def diff_ds5(dump, snapshot, trace_id):
    """pft's ranges against the DS-5 instruction listing (an independent
    decoder): the same instructions; a range's cycles are the sum of its
    instructions' (etmv3-protocol.md 5.5); only a range's last instruction
    can fail its condition, and then the range is not taken; a taken range
    ends at a DS-5 branch.  The trace-on gaps equal DS-5's "Cycle Count"
    records."""
    insns, gaps = ds5_records(f"{snapshot}/ds5-dumps/etmv3_0x{trace_id:x}.txt")
    i, bad, ranges, our_gaps = 0, 0, 0, []
    for line in run([dump, "flow", snapshot, hex(trace_id)]).splitlines():
        w = line.split()
        if w[0] == "trace_on" and len(w) > 1:
            our_gaps.append(int(w[1]))
        if w[0] != "range":
            continue
        start, last, n, taken, cycles = int(w[1], 16), int(w[2], 16), int(w[3]), int(w[4]), int(w[5])
        mine = insns[i:i + n]
        i += n
        ranges += 1
        problems = []
        if len(mine) != n or mine[0][0] != start or mine[-1][0] != last:
            problems.append("instructions")
        elif sum(x[1] for x in mine) != cycles:
            problems.append(f"cycles {cycles} != {sum(x[1] for x in mine)}")
        elif any(x[3] for x in mine[:-1]) or (mine[-1][3] and taken):
            problems.append("condition failure")
        elif taken and not mine[-1][2]:
            problems.append("taken but not a branch")
        if problems:
            bad += 1
            if bad <= 10:
                print(f"0x{trace_id:x} range {line}: {', '.join(problems)}; DS-5 {mine}")
    if i != len(insns):
        bad += 1
        print(f"0x{trace_id:x}: pft has {i} instructions, DS-5 {len(insns)}")
    if our_gaps != gaps:
        bad += 1
        print(f"0x{trace_id:x}: trace-on cycle counts differ from DS-5's")
    print(f"0x{trace_id:x}: {ranges} ranges, {i} instructions against DS-5, {bad} differences")
    return bad == 0 and i > 0


def main():
    mode, trace_id = sys.argv[1], int(sys.argv[4], 0)
    dump, snapshot = os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    modes = {"packets": diff_packets, "flow": diff_flow, "ds5": diff_ds5}
    if "PFT" in os.environ:
        modes["cli"] = diff_cli
    checks = list(modes.values()) if mode == "all" else [modes[mode]]
    ok = all([check(dump, snapshot, trace_id) for check in checks])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
