#!/usr/bin/env python3
"""List the PTM sources of a snapshot that have trace: 'raw raw' for a
source_data buffer, 'formatted 0xNN' for a source in a formatted buffer
(sources whose ID has no bytes in the buffer are still listed: OpenCSD
and pft must then both list nothing, which diff_packets reports)."""
import configparser
import os
import sys


def read(path):
    c = configparser.ConfigParser(inline_comment_prefixes=(";", "#"), strict=False, delimiters=("=",))
    c.optionxform = str
    with open(path) as f:
        c.read_string(f.read())
    return c


def main():
    d = sys.argv[1]
    snap = read(os.path.join(d, "snapshot.ini"))
    trace = read(os.path.join(d, snap["trace"]["metadata"]))
    buffers = {}
    for sec in trace["trace_buffers"]["buffers"].split(","):
        b = trace[sec.strip()]
        buffers[b["name"]] = b.get("format", "coresight")
    for key, fname in snap["device_list"].items():
        dev = read(os.path.join(d, fname))
        typ = dev["device"]["type"].upper()
        if dev["device"]["class"] != "trace_source" or not typ.startswith(("PTM", "PFT")):
            continue
        name = dev["device"]["name"]
        buf = trace["source_buffers"].get(name) if trace.has_section("source_buffers") else None
        if buf is None:
            continue
        regs = {k.split("(")[0]: int(v, 0) for k, v in dev["regs"].items()}
        if buffers.get(buf) == "source_data":
            print("raw raw")
        else:
            print("formatted 0x%02x" % (regs["ETMTRACEIDR"] & 0x7F))


main()
