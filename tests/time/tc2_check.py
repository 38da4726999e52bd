#!/usr/bin/env python3
"""Checks of TC2's four sources on one time base (test_time_tc2.sh).

usage: tc2_check.py merge PLAIN MERGED [ID]
         PLAIN: pft decode (dump) --format jsonl without --merge, MERGED the
         same with --merge: the same multiset of lines (but "time"), each
         source's lines in the same order, every line with a time, times
         never falling, the sources interleaved, each time what
         shared/spec/cli.md defines (worked out here from PLAIN's
         timestamps and cycle counts: T0 + (T1 - T0) * c / C between two
         timestamps of a cycle-accurate source, the timestamp before on
         one that is not, the first before the first, the last after the
         last), and with ID the first time of each source, less ID's,
         printed ("0x10 0" ...).
       tc2_check.py late MERGED   the number of lines whose time is below
         one before it
       tc2_check.py spans TIMELINE MERGED [HZ]
         every span event of each track of pft timeline at the time of an
         element of its source in MERGED (ticks, or microseconds at HZ),
         and the first of each track printed as "ID TICKS" (from HZ).
"""
import collections
import json
import sys


def lines(path):
    return [json.loads(line) for line in open(path)]


def strip(o):
    o = dict(o)
    o.pop('time', None)
    return json.dumps(o, sort_keys=True)


def expected_times(plain, cycle_accurate):
    """The spec's time of every element of PLAIN, source by source."""
    by_src = collections.defaultdict(list)
    for i, o in enumerate(plain):
        by_src[o['id']].append(i)
    want = {}
    for sid, idx in by_src.items():
        pos, c = [], 0   # the cycles counted up to and including each
        for i in idx:
            c += plain[i].get('cycles', 0)
            pos.append(c)
        stamps = [(k, int(plain[i]['ts'], 16), pos[k]) for k, i in enumerate(idx)
                  if plain[i]['type'] == 'timestamp']
        j = -1
        for k, i in enumerate(idx):
            while j + 1 < len(stamps) and stamps[j + 1][0] <= k:
                j += 1
            if not stamps:
                continue
            if plain[i]['type'] == 'timestamp':
                t = stamps[j][1]
            elif j < 0:
                t = stamps[0][1]
            elif j + 1 == len(stamps) or not cycle_accurate:
                t = stamps[j][1]
            else:
                (_, t0, c0), (_, t1, c1) = stamps[j], stamps[j + 1]
                t = t0 + (t1 - t0) * (pos[k] - c0) // (c1 - c0) if c1 > c0 else t0
            want[(sid, k)] = t
    return want


def merge(plain_path, merged_path, base=None):
    plain, merged = lines(plain_path), lines(merged_path)
    bad = []
    if collections.Counter(map(strip, plain)) != collections.Counter(map(strip, merged)):
        bad.append('not the same lines (%d, %d)' % (len(plain), len(merged)))
    ids = sorted(set(o['id'] for o in plain))
    for sid in ids:
        if [strip(o) for o in plain if o['id'] == sid] != \
           [strip(o) for o in merged if o['id'] == sid]:
            bad.append('id 0x%x: its own order changed' % sid)
    times = [o.get('time') for o in merged]
    if None in times:
        bad.append('%d lines without a time' % times.count(None))
    falls = sum(1 for a, b in zip(times, times[1:]) if a is not None and b is not None and b < a)
    if falls:
        bad.append('time falls %d times' % falls)
    switches = sum(1 for a, b in zip(merged, merged[1:]) if a['id'] != b['id'])
    # Interleaved: many switches, and each source comes back after another.
    back = {sid: False for sid in ids}
    seen = set()
    for a, b in zip(merged, merged[1:]):
        if a['id'] != b['id'] and b['id'] in seen:
            back[b['id']] = True
        seen.add(a['id'])
    if len(ids) > 1 and (switches < 100 or sum(back.values()) < min(3, len(ids))):
        bad.append('not interleaved: %d switches, back: %s' % (switches, back))
    # The spec's times (every TC2 source is cycle-accurate).
    want = expected_times(plain, True)
    k_of = collections.Counter()
    for o in merged:
        k = k_of[o['id']]
        k_of[o['id']] += 1
        w = want.get((o['id'], k))
        if w is not None and o.get('time') != w:
            bad.append('id 0x%x line %d (%s, offset %d): time %s, want %d' %
                       (o['id'], k, o['type'], o['offset'], o.get('time'), w))
            break
    for b in bad:
        print(b)
    if bad:
        return 1
    if base is not None:
        first = {}
        for o in merged:
            first.setdefault(o['id'], o['time'])
        for sid in ids:
            print('0x%x %d' % (sid, first[sid] - first[base]))
    return 0


def late(merged_path):
    top, n = None, 0
    for o in lines(merged_path):
        t = o.get('time')
        if t is None:
            continue
        if top is not None and t < top:
            n += 1
        top = t if top is None or t > top else top
    print(n)
    return 0


def spans(timeline_path, merged_path, hz=None):
    doc = json.load(open(timeline_path))
    times = collections.defaultdict(set)
    for o in lines(merged_path):
        if 'time' in o:
            times[o['id']].add(o['time'])
    first, bad = {}, 0
    for e in doc['traceEvents']:
        if e.get('ph') not in ('B', 'E'):
            continue
        ticks = e['ts'] if hz is None else round(e['ts'] * hz / 1e6)
        first.setdefault(e['tid'], ticks)
        if ticks not in times[e['tid']]:
            bad += 1
            if bad <= 3:
                print('track %d: a span at %s, no element of its source then' % (e['tid'], e['ts']))
    for tid in sorted(first):
        print('0x%x %d' % (tid, first[tid]))
    return 1 if bad else 0


if __name__ == '__main__':
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == 'merge':
        sys.exit(merge(args[0], args[1], int(args[2], 0) if len(args) > 2 else None))
    if cmd == 'late':
        sys.exit(late(args[0]))
    if cmd == 'spans':
        sys.exit(spans(args[0], args[1], float(args[2]) if len(args) > 2 else None))
    sys.exit(2)
