#!/usr/bin/env python3
"""Which records of an LLVM sample profile clang's sample loader can use.

usage: sample_unused.py PROFILE IR_DUMP

IR_DUMP: clang's stderr with -mllvm -print-after=sample-profile (the IR
the loader annotated, after its own inlining).  The loader (LLVM 14,
SampleProfileLoader::getInstWeight) reads one record per instruction: the
one at the instruction's line offset from its function's line and base
discriminator, in the inline context of its inlinedAt chain; it skips
branches, PHIs and intrinsics.  For each function of the profile, this
prints "NAME USED TOTAL" (the records at a location where the IR has an
instruction the loader reads; every record), then one line per other
record: "  unused PATH OFFSET[.DISC] COUNT KIND", KIND being "ignored"
(the IR has instructions there, all of them branches, PHIs or
intrinsics) or "absent" (no instruction of the IR has that location).
TOTAL counts the records of every inlined call site; clang's check counts
those of hot call sites only (test_sample.sh compares the numbers).
"""
import re
import sys

FIELD = re.compile(r'(\w+): ("(?:[^"\\]|\\.)*"|![0-9]+|[^,)]+)')


def disc_base(d):
    """LLVM's base discriminator (llvm/Support/Discriminator.h)."""
    if d & 1:
        return 0
    d >>= 1
    return ((d >> 1) & 0xfe0) | (d & 0x1f) if d & 0x20 else d & 0x1f


def read_ir(path):
    """The metadata nodes and each instruction of the last module dump:
    (its !dbg, its kind: 'ignored' or 'used')."""
    text = open(path, encoding='utf-8', errors='replace').read()
    dumps = text.split('*** IR Dump After ')
    module = dumps[-1]
    meta, insns = {}, []
    for line in module.splitlines():
        m = re.match(r'^!([0-9]+) = (?:distinct )?!(\w+)\((.*)\)$', line)
        if m:
            fields = {k: v for k, v in FIELD.findall(m.group(3))}
            meta[m.group(1)] = (m.group(2), fields)
            continue
        m = re.search(r', !dbg !([0-9]+)', line)
        if not m or not line.startswith('  '):
            continue
        body = line.strip()
        ignored = (body.startswith('br ') or ' = phi ' in body or
                   re.search(r'call [^@]*@llvm\.', body) is not None)
        insns.append((m.group(1), 'ignored' if ignored else 'used'))
    return meta, insns


def subprogram(meta, scope):
    while scope in meta:
        kind, f = meta[scope]
        if kind == 'DISubprogram':
            return f
        scope = f.get('scope', '')[1:]
    return None


def name_of(sp):
    name = sp.get('linkageName') or sp.get('name') or '""'
    return name.strip('"')


def where(meta, loc):
    """(offset, base discriminator, subprogram) of DILocation !loc."""
    kind, f = meta[loc]
    scope = f['scope'][1:]
    disc = 0
    if meta[scope][0] == 'DILexicalBlockFile':
        disc = int(meta[scope][1].get('discriminator', '0'))
    sp = subprogram(meta, scope)
    offset = (int(f.get('line', '0')) - int(sp.get('line', '0'))) & 0xffff
    return offset, disc_base(disc), sp


def context(meta, loc):
    """The profile path of DILocation !loc: (root name, ((offset, disc,
    callee), ...), offset, disc)."""
    offset, disc, sp = where(meta, loc)
    path = []
    callee = name_of(sp)
    at = meta[loc][1].get('inlinedAt')
    while at:
        o, d, s = where(meta, at[1:])
        path.insert(0, (o, d, callee))
        callee = name_of(s)
        at = meta[at[1:]][1].get('inlinedAt')
    return callee, tuple(path), offset, disc


def read_profile(path):
    """{(root, path, offset, disc): count} of the body records."""
    recs, stack = {}, []
    for line in open(path, encoding='utf-8'):
        line = line.rstrip('\n')
        if not line.startswith(' '):
            stack = [(line.split(':')[0], None)]
            continue
        depth = len(line) - len(line.lstrip(' '))
        loc, rest = line.strip().split(': ', 1)
        off, _, disc = loc.partition('.')
        off, disc = int(off), int(disc or 0)
        del stack[depth:]
        m = re.match(r'^([^ :]+):([0-9]+)$', rest)
        if m and not rest.split(' ')[0].isdigit():
            stack.append(((off, disc, m.group(1)), None))
            continue
        root = stack[0][0]
        path = tuple(s[0] for s in stack[1:])
        recs[(root, path, off, disc)] = int(rest.split(' ')[0])
    return recs


def main():
    recs = read_profile(sys.argv[1])
    meta, insns = read_ir(sys.argv[2])
    kinds = {}
    for loc, kind in insns:
        if loc not in meta or meta[loc][0] != 'DILocation':
            continue
        key = context(meta, loc)
        if kinds.get(key) != 'used':
            kinds[key] = kind
    for root in sorted({r[0] for r in recs}):
        mine = sorted(k for k in recs if k[0] == root)
        used = [k for k in mine if kinds.get(k) == 'used']
        print(root, len(used), len(mine))
        for k in mine:
            if kinds.get(k) != 'used':
                path = '/'.join('%d.%d:%s' % p for p in k[1]) or '-'
                print('  unused', path, '%d.%d' % (k[2], k[3]), recs[k],
                      kinds.get(k, 'absent'))


main()
