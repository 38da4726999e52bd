#!/usr/bin/env python3
"""Compare `pft decode --format jsonl` with OpenCSD's `trc_pkt_lister -decode_only`.

usage: diff_flow.py [--known-deviations] PFT SNAPSHOT_DIR TRACE_ID|raw [extra pft args...]

The check: the same sequence of instruction ranges (start, end, number of
instructions, taken or not), exceptions (number and preferred return
address) and address-not-accessible points.  Other elements (trace-on,
context, timestamps) are not part of the comparison.
Exits 0 when they agree, 1 otherwise (printing the first differences).

--known-deviations accepts (and counts) OpenCSD's documented deviations:
  - a range ended by a waypoint-update packet is "taken" for OpenCSD, which
    models the packet as an E atom, and not taken for pft, whose range has
    no waypoint at its end (pft-flow.md 5.4);
  - a branch packet with exception bytes but exception number 0 (a change
    of security state, AltIS or Hyp at an ordinary branch) is an exception
    0 for OpenCSD, which drops the range of the atom the packet implies;
    pft follows the spec (pft-protocol.md 7, A1);
  - (compare() with is_eret) an A32 ERET is no waypoint for OpenCSD: the
    range pft ends at the ERET (an exception return, taken) runs on, for
    OpenCSD, to the next waypoint after it (pft-flow.md 4.1, A17).
"""
import json
import re
import subprocess
import sys

RANGE = re.compile(r"INSTR_RANGE\(exec range=0x([0-9a-f]+):\[0x([0-9a-f]+)\] num_i\((\d+)\)"
                   r" last_sz\(\d+\) \(ISA=(\w+)\) ([EN]) ")
EXC = re.compile(r"ELEM_EXCEPTION\((?:pref ret addr:0x([0-9a-f]+); )?excep num \(0x([0-9a-f]+)\)")
NACC = re.compile(r"ELEM_ADDR_NACC\( 0x([0-9a-f]+) \)")


def ocsd_elems(snapshot, trace_id):
    args = ["trc_pkt_lister", "-ss_dir", snapshot, "-decode_only", "-logstdout"]
    if trace_id is not None:
        args += ["-id", hex(trace_id)]
    out = subprocess.run(args, capture_output=True, text=True, check=False).stdout
    elems = []
    for line in out.splitlines():
        m = RANGE.search(line)
        if m:
            s, e, n, _isa, t = m.groups()
            elems.append(("range", int(s, 16), int(e, 16), int(n), t == "E"))
            continue
        m = EXC.search(line)
        if m:
            ret, num = m.groups()
            elems.append(("exception", int(num, 16), int(ret, 16) if ret else None))
            continue
        m = NACC.search(line)
        if m:
            elems.append(("addr_nacc", int(m.group(1), 16)))
    return elems


def deviation_offsets(pft, snapshot, trace_id):
    """Offsets of the packets OpenCSD decodes differently (pft dump):
    waypoint updates, and branches with exception bytes but exception 0."""
    args = [pft, "dump", "--snapshot", snapshot, "--format", "jsonl"]
    if trace_id is not None:
        args += ["--id", str(trace_id)]
    r = subprocess.run(args, capture_output=True, text=True, check=False)
    packets = [json.loads(line) for line in r.stdout.splitlines()]
    return ({p["offset"] for p in packets if p["type"] == "waypoint"},
            {p["offset"] for p in packets if p["type"] == "branch" and p.get("exception") == 0})


def pft_elems(pft, snapshot, trace_id, extra):
    args = [pft, "decode", "--snapshot", snapshot, "--format", "jsonl"] + extra
    if trace_id is not None:
        args += ["--id", str(trace_id)]
    r = subprocess.run(args, capture_output=True, text=True, check=False)
    # Exit 1 says the trace had errors or no data, which is compared below;
    # anything else is a failure.
    if r.returncode not in (0, 1) or (r.returncode == 1 and not r.stdout.strip() and
                                      "no trace data" not in r.stderr):
        sys.exit("pft decode failed (%d): %s" % (r.returncode, r.stderr.strip()))
    elems = []
    for line in r.stdout.splitlines():
        p = json.loads(line)
        t = p["type"]
        if t == "range":
            elems.append(("range", int(p["start"], 16), int(p["end"], 16), p["n"], p["taken"],
                          p["offset"], int(p["last"], 16)))
        elif t == "exception":
            elems.append(("exception", p["number"], int(p["ret"], 16) if "ret" in p else None))
        elif t == "addr_nacc":
            elems.append(("addr_nacc", int(p["addr"], 16)))
    return elems


def fmt(e):
    if e[0] == "range":
        return "range 0x%x-0x%x n=%d %s" % (e[1], e[2], e[3], "E" if e[4] else "N")
    if e[0] == "exception":
        return "exception %d ret=%s" % (e[1], "0x%x" % e[2] if e[2] is not None else "-")
    return "addr_nacc 0x%x" % e[1]


def compare(pft, snapshot, trace_id, extra=(), known=False, is_eret=None):
    """Returns (0 when they agree else 1, a report of one or more lines).
    is_eret: whether the instruction at an address is an A32 ERET (the
    caller knows the image), for OpenCSD's deviation there."""
    ours = pft_elems(pft, snapshot, trace_id, list(extra))
    theirs = ocsd_elems(snapshot, trace_id)
    wp_offsets, ex0_offsets = (deviation_offsets(pft, snapshot, trace_id) if known
                               else (set(), set()))
    label = "%s id %s" % (snapshot, "raw" if trace_id is None else hex(trace_id))
    deviations = {"wp": 0, "ex0": 0, "eret": 0}
    i = j = 0
    while i < len(ours) and j < len(theirs):
        a, b = ours[i], theirs[j]
        if a[0] == "range":
            if a[5] in wp_offsets and not a[4] and b[0] == "range" and b[4] and a[1:4] == b[1:4]:
                deviations["wp"] += 1
                i, j = i + 1, j + 1
                continue
            if a[5] in ex0_offsets and a[4] and b[:2] == ("exception", 0):
                deviations["ex0"] += 1
                i, j = i + 1, j + 1
                continue
            if is_eret and a[4] and b[0] == "range" and b[4] and a[1] == b[1] and \
                    b[3] > a[3] and is_eret(a[6]):
                deviations["eret"] += 1
                i, j = i + 1, j + 1
                continue
            a = a[:5]
        if a != b:
            lines = ["DIFFER %s at element %d/%d: pft %s, OpenCSD %s" % (label, i, j, fmt(a), fmt(b))]
            for k in range(-3, 4):
                if 0 <= i + k < len(ours) and 0 <= j + k < len(theirs):
                    lines.append("   %d: pft %-40s OpenCSD %s" % (i + k, fmt(ours[i + k]),
                                                                 fmt(theirs[j + k])))
            return 1, "\n".join(lines)
        i, j = i + 1, j + 1
    if i < len(ours) or j < len(theirs):
        return 1, "DIFFER %s: pft %d elements, OpenCSD %d" % (label, len(ours), len(theirs))
    n = sum(e[3] for e in ours if e[0] == "range")
    notes = []
    if deviations["wp"]:
        notes.append("%d waypoint-update ranges E for OpenCSD (pft-flow.md 5.4)" % deviations["wp"])
    if deviations["ex0"]:
        notes.append("%d branches with exception 0 taken as exceptions by OpenCSD (A1)"
                     % deviations["ex0"])
    if deviations["eret"]:
        notes.append("%d A32 ERET ranges run on to the next waypoint by OpenCSD (A17)"
                     % deviations["eret"])
    return 0, "same %s: %d elements, %d instructions%s" % (
        label, len(ours), n, "".join(", " + note for note in notes))


def main():
    args = sys.argv[1:]
    known = args[:1] == ["--known-deviations"]
    if known:
        args = args[1:]
    pft, snapshot, ident = args[0:3]
    trace_id = None if ident == "raw" else int(ident, 0)
    status, report = compare(pft, snapshot, trace_id, args[3:], known)
    print(report)
    return status


if __name__ == "__main__":
    sys.exit(main())
