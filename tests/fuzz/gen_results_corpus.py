#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes hostile seeds for the sweep.json / result.json readers' fuzz target
(tests/fuzz/fuzz_results.c): an index whose run names lead outside the
directory, deep nesting around jansson's limit, huge numbers, duplicate keys,
NUL bytes, truncated documents, a result.json whose `complete` is not a
boolean.

    tests/fuzz/gen_results_corpus.py OUT_DIR
"""
import json
import pathlib
import sys

BASE = {"format": "hgrun-sweep/1", "hgrun_version": "0.1.0", "source": "s.yaml",
        "scenario": {"duration_ns": 1000000, "threads": [{"name": "rt"}]}, "overrides": {},
        "axes": [{"path": "duration", "values": ["1s", "2s"]}], "repeat": 2, "runs": 4,
        "points": [{"index": 0, "id": "p000", "overrides": {"duration": "1s"},
                    "runs": ["p000/r0", "p000/r1"]},
                   {"index": 1, "id": "p001", "overrides": {"duration": "2s"},
                    "runs": ["p001/r0", "p001/r1"]}]}

NAMES = ["../../victim/cron.d", "/etc/cron.d", "p000/../../x", "p000/r0/../../..", "p000/r0/x",
         "p000", "r0", "p-1/r0", "p000/r", "p/r0", "p000//r0", "p000/r0\u0000/x", "..", ".",
         "p0000000000/r0", "p000/r00000000000", "", "p000/r0/", " p000/r0", 7, None, [], {}]


def seeds():
    yield json.dumps(BASE)
    for name in NAMES:
        b = json.loads(json.dumps(BASE))
        b["points"][1]["runs"][1] = name
        yield json.dumps(b)
    for depth in (10, 2047, 2049, 5000):
        yield "[" * depth + "]" * depth
        yield '{"a":' * depth + "1" + "}" * depth
    yield '{"format": "hgrun-sweep/1", "format": "hgrun-sweep/1", "points": []}'
    yield '{"format": "hgrun-sweep/1", "points": {"runs": ["p000/r0"]}}'
    yield '{"format": "hgrun-sweep/1", "points": [{"runs": "p000/r0"}]}'
    yield json.dumps(BASE)[:200]
    yield '{"complete": true}'
    yield '{"complete": "true"}'
    yield '{"complete": 1, "checkpoint": null}'
    yield '{"complete": true, "big": 1e99999, "n": 99999999999999999999999}'
    yield '{"s": "' + "\\u0000" * 100 + '"}'
    yield '\x00{"complete": true}'


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: gen_results_corpus.py OUT_DIR")
    out = pathlib.Path(argv[1])
    out.mkdir(parents=True, exist_ok=True)
    n = 0
    for n, text in enumerate(seeds(), 1):
        (out / f"gen-{n:03d}.json").write_text(text)
    print(f"gen_results_corpus: {n} seeds -> {out}")


if __name__ == "__main__":
    main(sys.argv)
