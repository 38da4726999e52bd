#!/usr/bin/env python3
"""Check a merged listing (pft decode --merge --format jsonl) of sources
that pft encode built from qemu logs on one timestamp clock.

usage: time_check.py LISTING SOURCE...
  SOURCE: KEY=LOG:START:CYCLES  - KEY the trace ID (decimal or 0x) or, with
  a "cpu" prefix (cpu0=...), the CPU of a perf.data source; LOG qemu's
  `-singlestep -d exec,nochain` log of the program, START the timestamp
  counter when its first instruction began (--ts-start), CYCLES its cycles
  per tick (--ts-cycles; every instruction takes one cycle).

What is built is known without pft: instruction k of a log (from 0) ends
at cycle k + 1, at tick START + (k + 1) / CYCLES.  The listing must
  1. give back every instruction of each log, in order (the ranges
     cover the log, one for one);
  2. carry, in each timestamp, the counter when the last instruction
     traced before it ended: START + floor(cycle / CYCLES);
  3. give each element the time shared/spec/cli.md defines, worked out
     here from those cycles: an element is at the cycles its source's
     trace counted up to it (a range with a cycle count: the end of its
     last instruction; a range without one, ended by a waypoint update:
     the cycles counted before it, the end of the instruction before its
     first; other elements: the last count); between two timestamps T0
     and T1 at cycles c0 and c1, T0 + floor((T1 - T0) * (c - c0) /
     (c1 - c0)); before the first timestamp, the first; after the last,
     the last;
  4. list the elements of all sources in the order of those times, ties
     by trace ID (CPU), each source's own order kept: exactly the order
     sorting them gives.
Prints what differs and exits 1, else a summary and exits 0.
"""
import json
import re
import sys


def log_pcs(path):
    pcs = []
    with open(path) as f:
        for line in f:
            m = re.match(r'Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/', line)
            if m:
                pcs.append(int(m.group(1), 16))
    return pcs


def main():
    listing, specs = sys.argv[1], sys.argv[2:]
    sources = {}
    field = 'id'
    for spec in specs:
        key, rest = spec.split('=', 1)
        log, start, cycles = rest.rsplit(':', 2)
        if key.startswith('cpu'):
            field, key = 'cpu', key[3:]
        sources[int(key, 0)] = {'pcs': log_pcs(log), 'start': int(start, 0),
                                'cpt': int(cycles, 0), 'next': 0, 'pos': 0, 'els': []}
    els = [json.loads(line) for line in open(listing)]
    problems = []
    for n, o in enumerate(els):
        s = sources.get(o.get(field))
        if s is None:
            problems.append('element %d of an unknown source: %s' % (n, o))
            continue
        if o['type'] == 'range':
            pcs, k = s['pcs'], s['next']
            start = int(o['start'], 16)
            if k >= len(pcs) or pcs[k] != start:
                problems.append('range %s of %s %d: qemu ran 0x%x next' %
                                (o['start'], field, o[field], pcs[k] if k < len(pcs) else -1))
                break
            last = k + o['n'] - 1
            if 'cycles' in o:
                s['pos'] = last + 1
            else:
                s['pos'] = k   # the cycles counted before it
            s['next'] = last + 1
        s['els'].append((n, o, s['pos']))
    for key, s in sources.items():
        if s['next'] != len(s['pcs']):
            problems.append('%s %d: %d of qemu\'s %d instructions listed' %
                            (field, key, s['next'], len(s['pcs'])))
    # 2. the timestamps, 3. the times.
    want = {}
    for key, s in sources.items():
        stamps = [(i, s['start'] + pos // s['cpt'], pos)
                  for i, (n, o, pos) in enumerate(s['els']) if o['type'] == 'timestamp']
        for i, value, pos in stamps:
            got = int(s['els'][i][1]['ts'], 16)
            if got != value:
                problems.append('%s %d: timestamp at cycle %d is 0x%x, built 0x%x' %
                                (field, key, pos, got, value))
        if not stamps:
            problems.append('%s %d: no timestamp' % (field, key))
            continue
        j = -1   # the last timestamp at or before element i
        for i, (n, o, pos) in enumerate(s['els']):
            while j + 1 < len(stamps) and stamps[j + 1][0] <= i:
                j += 1
            if o['type'] == 'timestamp':
                t = stamps[j][1]
            elif j < 0:
                t = stamps[0][1]
            elif j + 1 == len(stamps):
                t = stamps[j][1]
            else:
                (_, t0, c0), (_, t1, c1) = stamps[j], stamps[j + 1]
                t = t0 + (t1 - t0) * (pos - c0) // (c1 - c0) if c1 > c0 else t0
            want[n] = t
            if o.get('time') != t:
                problems.append('%s %d element %d (%s at offset %d): time %s, built %d' %
                                (field, key, n, o['type'], o['offset'], o.get('time'), t))
    # 4. the order.
    order = sorted(range(len(els)), key=lambda n: (want.get(n, -1), els[n].get(field), n))
    if order != list(range(len(els))):
        first = next(i for i, n in enumerate(order) if n != i)
        problems.append('the listing is not in the built order: element %d comes where '
                        'element %d (%s) should' % (first, order[first], els[order[first]]))
    for p in problems[:10]:
        print(p)
    if problems:
        return 1
    switches = sum(1 for a, b in zip(els, els[1:]) if a.get(field) != b.get(field))
    print('%d elements of %d sources, %d switches between them, as built' %
          (len(els), len(sources), switches))
    return 0


if __name__ == '__main__':
    sys.exit(main())
