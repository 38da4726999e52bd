#!/usr/bin/env python3
"""make_snapshot.py DIR VECTOR.hex: write an OpenCSD snapshot with one PTM
whose raw (source_data) buffer holds the vector's bytes.  The vector file
has '# ETMCR=0x...' (and optionally ETMCCER, ETMIDR) lines and hex bytes;
text after '#' on other lines is a comment."""
import os
import sys


def main():
    out, vec = sys.argv[1:3]
    regs = {"ETMCR": "0x00000000", "ETMIDR": "0x411CF312", "ETMCCER": "0x34C01AC2"}
    data = bytearray()
    for line in open(vec):
        line = line.strip()
        if line.startswith("#"):
            body = line[1:].strip()
            if "=" in body and body.split("=")[0] in regs:
                k, v = body.split("=", 1)
                regs[k] = v.strip()
            continue
        data += bytes.fromhex(line.split("#")[0])
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "trace.bin"), "wb") as f:
        f.write(data)
    files = {
        "snapshot.ini": "[snapshot]\nversion=1.0\n[device_list]\ndevice1=cpu.ini\n"
                        "device2=ptm.ini\n[trace]\nmetadata=trace.ini\n",
        "cpu.ini": "[device]\nname=cpu_0\nclass=core\ntype=Cortex-A15\n",
        "ptm.ini": "[device]\nname=PTM_0\nclass=trace_source\ntype=PTM1.1\n[regs]\n"
                   "ETMCR(0x000)=%s\nETMIDR(0x079)=%s\nETMCCER(0x07A)=%s\n"
                   "ETMTRACEIDR(0x080)=0x00000010\n" % (regs["ETMCR"], regs["ETMIDR"], regs["ETMCCER"]),
        "trace.ini": "[trace_buffers]\nbuffers=buffer0\n[buffer0]\nname=B0\nfile=trace.bin\n"
                     "format=source_data\n[source_buffers]\nPTM_0=B0\n[core_trace_sources]\ncpu_0=PTM_0\n",
    }
    for name, text in files.items():
        with open(os.path.join(out, name), "w") as f:
            f.write(text)


main()
