#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes the fuzzer's dictionary: every key and every enumerated value of the scenario format,
read from schemas/scenario.schema.json (generated from the plugins' parameter tables, so a new
parameter reaches the fuzzer without a list to keep), plus YAML's tokens and a few shapes of
the format that the schema cannot list (sweep paths, units).

    tests/fuzz/make_dict.py OUT.dict
    tests/fuzz/make_dict.py --results OUT.dict   (sweep.json and result.json: JSON keys of
                                                  schemas/result.schema.json, run names, JSON)
"""
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "schemas" / "scenario.schema.json"
RESULT_SCHEMA = ROOT / "schemas" / "result.schema.json"

# sweep.json's keys and the shapes of run names, hostile ones included, and JSON's tokens.
RESULTS_EXTRA = ["format", "hgrun-sweep/1", "hgrun-result/1", "points", "runs", "axes", "repeat",
                 "overrides", "scenario", "complete", "p000/r0", "p1/r2", "../", "/", "p0/..",
                 "p0/r0/x", "p9999999999/r0", "\\u0000", "{", "}", "[", "]", ":", ",", "\"",
                 "true", "false", "null", "-0", "1e999", "9223372036854775808"]

# Shapes of the format beyond the schema's keys and enums, and YAML's own tokens.
EXTRA = ["-1", "0x", "18446744073709551616", "1e9", "99", ">", "null", "true", "~", "hgrun: 1", "threads[", "loads[", "].workload.exec", "- name: ", "per_cpu", "10ms",
         "1us", "2s", "1MiB", "&a", "*a", "<<", "[", "]", "{", "}", "- ", "---", "...", "\"",
         "'", "#", ": ", "\n  ", "!!str", "|"]


def words(schema):
    keys, values = set(), set()

    def walk(node):
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "properties" and isinstance(v, dict):
                    keys.update(v)
                elif k == "enum" and isinstance(v, list):
                    values.update(x for x in v if isinstance(x, str))
                elif k == "const" and isinstance(v, str):
                    values.add(v)
                walk(v)
        elif isinstance(node, list):
            for x in node:
                walk(x)
    walk(schema)
    return sorted(keys), sorted(values)


def quoted(text):
    out = []
    for ch in text:
        out.append(ch if 0x20 <= ord(ch) < 0x7f and ch not in '"\\' else f"\\x{ord(ch):02x}")
    return '"' + "".join(out) + '"'


def results_dict(out):
    keys, values = words(json.loads(RESULT_SCHEMA.read_text()))
    lines = ["# Made by tests/fuzz/make_dict.py --results: result.json keys, sweep.json keys,"
             " run names, JSON tokens."]
    lines += [quoted(f'"{k}":') for k in keys] + [quoted(v) for v in values]
    lines += [quoted(x) for x in RESULTS_EXTRA]
    pathlib.Path(out).write_text("\n".join(lines) + "\n")
    print(f"make_dict: {len(keys)} keys, {len(values)} values, {len(RESULTS_EXTRA)} tokens -> {out}")


def main(argv):
    if len(argv) == 3 and argv[1] == "--results":
        return results_dict(argv[2])
    if len(argv) != 2:
        sys.exit("usage: make_dict.py [--results] OUT.dict")
    keys, values = words(json.loads(SCHEMA.read_text()))
    lines = ["# Made by tests/fuzz/make_dict.py from schemas/scenario.schema.json: keys, values,"
             " YAML tokens."]
    lines += [quoted(k + ":") for k in keys] + [quoted(v) for v in values]
    lines += [quoted(x) for x in EXTRA]
    pathlib.Path(argv[1]).write_text("\n".join(lines) + "\n")
    print(f"make_dict: {len(keys)} keys, {len(values)} values, {len(EXTRA)} tokens -> {argv[1]}")


if __name__ == "__main__":
    main(sys.argv)
