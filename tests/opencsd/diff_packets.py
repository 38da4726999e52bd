#!/usr/bin/env python3
"""Compare `pft dump --format jsonl` with OpenCSD's `trc_pkt_lister -pkt_mon`.

usage: diff_packets.py PFT SNAPSHOT_DIR TRACE_ID|raw

Both decoders list the packets of one PTM source of a snapshot.  The check:
the same packets in the same order, with the same bytes, types and decoded
fields; the same offsets when the buffer is raw (for frame-formatted buffers
OpenCSD's index counts deformatted bytes, ours is the file position).

NOTSYNC runs are compared as one byte string (the two decoders cut them
differently).  Known OpenCSD deviations, each checked rather than ignored:
  * VMID: trc_pkt_lister prints the VMID value wrongly ("VMID=0x0" for 0x05,
    "0x0v" for 0x76); the packet's bytes are compared instead.
  * Reserved headers: OpenCSD keeps decoding after one; the spec
    (pft-protocol.md 5.12) says to resynchronise at the next A-sync, which
    pft does, so after an error the comparison stops at the next A-sync.
Exits 0 when the listings agree, 1 otherwise (printing the first differences).
"""
import json
import re
import subprocess
import sys

LINE = re.compile(r"^Idx:(\d+); ID:([0-9a-fA-F]+); \[([^\]]*)\];\s+(\w+) :(.*)$")

OCSD_TYPES = {
    "NOTSYNC": "notsync", "ASYNC": "async", "ISYNC": "isync", "ATOM": "atom",
    "BRANCH_ADDRESS": "branch", "WP_UPDATE": "waypoint", "TRIGGER": "trigger",
    "CTXTID": "ctxid", "VMID": "vmid", "TIMESTAMP": "timestamp",
    "IGNORE": "ignore", "ERET": "exception_return", "RESERVED": "error",
    "BAD_SEQUENCE": "error", "INCOMPLETE_EOT": "error",
}
ISA = {"ARM(32)": "arm", "Thumb2": "thumb", "ThumbEE": "thumbee", "Jazelle": "jazelle"}
REASON = [("Periodic", "periodic"), ("Trace Enable", "trace_on"),
          ("Overflow", "overflow"), ("Debug", "debug")]


def ocsd_packets(snapshot, trace_id):
    args = ["trc_pkt_lister", "-ss_dir", snapshot, "-pkt_mon", "-logstdout"]
    if trace_id is not None:
        args += ["-id", hex(trace_id)]
    out = subprocess.run(args, capture_output=True, text=True, check=False).stdout
    pkts = []
    for line in out.splitlines():
        # An error report may be printed in front of the packet line.
        i = line.find("Idx:")
        m = LINE.match(line[i:]) if i >= 0 else None
        if not m:
            continue
        idx, ident, raw, typ, rest = m.groups()
        if trace_id is not None and int(ident, 16) != trace_id:
            continue
        p = {"offset": int(idx), "type": OCSD_TYPES.get(typ, "?" + typ),
             "bytes": " ".join(b[2:] for b in raw.split()), "text": rest}
        parse_fields(p, rest)
        pkts.append(p)
    return pkts


def parse_fields(p, rest):
    f = {}
    m = re.search(r"Addr=0x([0-9A-Fa-f]+)", rest)
    if m:
        f["addr"] = int(m.group(1), 16)
    m = re.search(r"ISA=([\w()]+)", rest)
    if m:
        f["isa"] = ISA.get(m.group(1), m.group(1))
    m = re.search(r"Cycles=(\d+)", rest)
    if m:
        f["cycles"] = int(m.group(1))
    m = re.search(r"; (N?S);", rest)
    if m:
        f["ns"] = 1 if m.group(1) == "NS" else 0
    m = re.search(r"Excep=[^\[]*\[([0-9a-fA-F]+)\]", rest)
    if m:
        f["exception"] = int(m.group(1), 16)
    m = re.search(r"CtxtID=(?:0x)?([0-9A-Fa-f]+)", rest)
    if m:
        f["ctxid"] = int(m.group(1), 16)
    m = re.search(r"TS=0x([0-9A-Fa-f]+)", rest)
    if m:
        f["ts"] = int(m.group(1), 16)
    if p["type"] == "atom":
        m = re.search(r"; ([EN]+);", rest)
        if m:
            f["atoms"] = m.group(1)
    if p["type"] == "isync":
        for word, name in REASON:
            if word in rest:
                f["reason"] = name
    p["fields"] = f


def pft_packets(pft, snapshot, trace_id):
    args = [pft, "dump", "--snapshot", snapshot, "--format", "jsonl"]
    if trace_id is not None:
        args += ["--id", str(trace_id)]
    r = subprocess.run(args, capture_output=True, text=True, check=False)
    if r.returncode not in (0, 1):
        sys.exit("pft dump failed (%d): %s" % (r.returncode, r.stderr.strip()))
    pkts = []
    for line in r.stdout.splitlines():
        p = json.loads(line)
        for k in ("addr", "ctxid", "ts"):
            if k in p:
                p[k] = int(p[k], 16)
        pkts.append(p)
    return pkts


def merge_notsync(pkts):
    out = []
    for p in pkts:
        if p["type"] == "notsync" and out and out[-1]["type"] == "notsync":
            out[-1]["bytes"] += " " + p["bytes"]
        else:
            out.append(dict(p))
    return out


def compare(ours, theirs, raw_offsets):
    diffs = []
    skipping = False
    i = j = 0
    while i < len(ours) and j < len(theirs):
        a, b = ours[i], theirs[j]
        if skipping:
            # After an error pft resynchronises at the next A-sync; OpenCSD
            # goes on decoding.  Realign both at that A-sync.
            if a["type"] != "async":
                i += 1
                continue
            if b["type"] != "async":
                j += 1
                continue
            skipping = False
        where = "pft #%d offset %d / OpenCSD #%d idx %d" % (i, a["offset"], j, b["offset"])
        if a["type"] != b["type"]:
            diffs.append("%s: type %s != %s" % (where, a["type"], b["type"]))
        elif a["bytes"] != b["bytes"]:
            diffs.append("%s: bytes [%s] != [%s]" % (where, a["bytes"], b["bytes"]))
        else:
            if raw_offsets and a["offset"] != b["offset"]:
                diffs.append("%s: offset differs" % where)
            for k, v in b["fields"].items():
                if a.get(k) != v:
                    diffs.append("%s: %s %r != %r (%s)" % (where, k, a.get(k), v, b["text"]))
        if a["type"] == "error":
            skipping = True
        i += 1
        j += 1
        if len(diffs) > 20:
            break
    if not skipping and (i < len(ours) or j < len(theirs)) and len(diffs) <= 20:
        diffs.append("packet counts differ: pft %d, OpenCSD %d" % (len(ours), len(theirs)))
    return diffs


def main():
    pft, snapshot, ident = sys.argv[1:4]
    trace_id = None if ident == "raw" else int(ident, 0)
    ours = merge_notsync(pft_packets(pft, snapshot, trace_id))
    theirs = merge_notsync(ocsd_packets(snapshot, trace_id))
    if not theirs and not ours:
        print("same %s id %s: no packets from either decoder" % (snapshot, ident))
        return 0
    diffs = compare(ours, theirs, trace_id is None)
    label = "%s id %s" % (snapshot, ident)
    if diffs:
        print("DIFFER %s" % label)
        for d in diffs:
            print("  " + d)
        return 1
    print("same %s: %d packets" % (label, len(theirs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
