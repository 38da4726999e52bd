#!/usr/bin/env python3
"""Compare pft's --format jsonl output with a pftc expected file.

usage: compare.py EXPECTED.exp ACTUAL.jsonl

Each expected line is `[OFFSET] TYPE [KEY=VALUE ...]` and stands for one
output object, in order: the object's "type" must be TYPE, its "offset"
OFFSET when given, and each KEY must be present with VALUE (quoted when it
has spaces: msg="..."; numbers compare
by value, so 0x8000 matches "0x00008000"; true/false match JSON booleans); !KEY says the object has no KEY.
Fields not named are not compared, so that pft may add fields and change
its text layout without breaking the specifications.  Every output object
must be expected: a missing or extra line is a failure.
"""
import json
import shlex
import sys


def as_number(v):
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    try:
        return int(str(v), 0)
    except ValueError:
        return None


def same(want, got):
    if isinstance(got, bool):
        return want == ("true" if got else "false")
    w, g = as_number(want), as_number(got)
    if w is not None and g is not None:
        return w == g
    return want == str(got)


def check(line, obj):
    toks = shlex.split(line)
    problems = []
    if toks and as_number(toks[0]) is not None:
        if not same(toks[0], obj.get("offset")):
            problems.append("offset %s, want %s" % (obj.get("offset"), toks[0]))
        toks = toks[1:]
    if not toks:
        return ["empty expected line"]
    if obj.get("type") != toks[0]:
        problems.append("type %s, want %s" % (obj.get("type"), toks[0]))
    for kv in toks[1:]:
        if kv.startswith("!"):
            if kv[1:] in obj:
                problems.append("%s=%s, want none" % (kv[1:], obj[kv[1:]]))
            continue
        key, _, want = kv.partition("=")
        if key not in obj:
            problems.append("no %s (want %s)" % (key, want))
        elif not same(want, obj[key]):
            problems.append("%s=%s, want %s" % (key, obj[key], want))
    return problems


def main():
    exp_path, act_path = sys.argv[1], sys.argv[2]
    with open(exp_path) as f:
        expected = [l.strip() for l in f if l.strip()]
    with open(act_path) as f:
        actual = [json.loads(l) for l in f if l.strip()]
    failures = 0
    for i in range(max(len(expected), len(actual))):
        want = expected[i] if i < len(expected) else None
        got = actual[i] if i < len(actual) else None
        if want is None:
            print("  extra output line %d: %s" % (i + 1, json.dumps(got)))
            failures += 1
        elif got is None:
            print("  missing output line %d: %s" % (i + 1, want))
            failures += 1
        else:
            problems = check(want, got)
            if problems:
                print("  line %d: %s\n    expected: %s\n    got:      %s"
                      % (i + 1, "; ".join(problems), want, json.dumps(got)))
                failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
