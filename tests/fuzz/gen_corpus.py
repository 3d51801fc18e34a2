#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Structure-aware seeds for the scenario fuzzer: scenarios written from a
small grammar of the format (keys and values of schemas/scenario.schema.json)
with the hostile shapes mixed in: aliases and anchors, deep flow and block
nesting (with quotes before it), mappings with thousands of keys (and
duplicates), sweeps with many values or many axes, thread sets with large
counts, long keys and odd scalars.

    tests/fuzz/gen_corpus.py OUT_DIR [--count N] [--seed S]

Every file is a YAML text libFuzzer then mutates (tests/fuzz/run.sh)."""
import argparse
import pathlib
import random

WORKLOADS = {
    "cpu_periodic": {"period": ["10ms", "1ms", "100us"], "exec": ["1ms", "[1ms, 2ms]", "50us"]},
    "periodic": {"period": ["10ms", "5ms"], "exec": ["1ms", "2ms"]},
    "latency": {"period": ["1ms", "500us"]},
    "cpu": {},
    "cpu_scan": {"working_set": ["64KiB", "1MiB"]},
}
TIMERS = ["sleep", "timerfd", "spin", "absolute", "signal"]
LOADS = {
    "cpu": {"workers": ["1", "2", "0"]},
    "memory": {"size": ["1MiB", "64KiB"]},
    "io": {"size": ["1MiB"], "dir": ["/tmp"]},
    "exec": {"command": ["'true'", "'sleep 1'"]},
    "tcp_stream": {"connect": ["127.0.0.1:9"], "listen": ["0"]},
}
PRIORITIES = ["high", "low", "50", "{policy: fifo, priority: 10}", "{policy: other, nice: 5}", "idle"]
ODD = ["", "~", "null", "-1", "0", "1e309", "18446744073709551616", "0x10", "'quoted'",
       '"a\\"b"', "!!str 1", "|\n      block", "1ms1ms", "per_cpu", "99999999999d"]


def thread(r, i, count=None):
    wtype = r.choice(list(WORKLOADS))
    params = ", ".join(f"{k}: {r.choice(v)}" for k, v in WORKLOADS[wtype].items())
    lines = [f"  - name: t{i}", f"    workload: {{type: {wtype}{', ' if params else ''}{params}}}"]
    if r.random() < 0.5:
        lines.append(f"    priority: {r.choice(PRIORITIES)}")
    if count is not None:
        lines.append(f"    count: {count}")
    elif r.random() < 0.3:
        lines.append(f"    count: {r.choice(['1', '4', 'per_cpu', '1024', r.choice(ODD)])}")
    if r.random() < 0.3:
        lines.append(f"    cpus: {r.choice(['[0]', '0-1', 'all', '[0, 1]', r.choice(ODD)])}")
    if r.random() < 0.2 and wtype in ("periodic", "latency"):
        lines.append(f"    timer: {r.choice(TIMERS)}")
    return "\n".join(lines)


def load(r, i):
    ltype = r.choice(list(LOADS))
    lines = [f"  - name: l{i}", f"    type: {ltype}"]
    for k, v in LOADS[ltype].items():
        if r.random() < 0.8:
            lines.append(f"    {k}: {r.choice(v)}")
    return "\n".join(lines)


def base(r, n_threads=1, count=None, loads=0):
    text = ["hgrun: 1", f"name: g{r.randrange(1000)}", f"duration: {r.choice(['1s', '2s', '100ms'])}"]
    if r.random() < 0.3:
        text.append('description: "it\'s a \\"quoted\\" [text]"')
    if r.random() < 0.2:
        text.append("defaults:\n  priority: high")
    text.append("threads:")
    text += [thread(r, i, count) for i in range(n_threads)]
    if loads:
        text.append("loads:")
        text += [load(r, i) for i in range(loads)]
    return "\n".join(text) + "\n"


def sweep(r, axes, values):
    lines = ["sweep:", f"  repeat: {r.choice(['1', '2', '1000'])}", "  grid:"]
    for a in range(axes):
        path = "threads[t0].workload.exec" if a == 0 else f"loads[l{a}].workers"
        vals = ", ".join(r.choice(["1ms", "2ms", "3", "1", "bad"]) for _ in range(values))
        lines.append(f'    "{path}": [{vals}]')
    return "\n".join(lines) + "\n"


def aliases(r):
    depth, fan = r.randint(2, 9), r.randint(2, 9)
    lines = ['a0: &a0 ["x"]']
    for i in range(1, depth):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * fan) + "]")
    return base(r) + "\n".join(lines) + "\n"


def flow_nesting(r):
    n = r.choice([10, 63, 64, 65, 200, 5000])
    quote = r.choice(["", "description: \"it's\"\n", "description: 'a \"b'\n"])
    open_, close = r.choice([("[", "]"), ("{a: ", "}")])
    return base(r).replace("threads:", quote + "threads:", 1) + "x: " + open_ * n + "1" + close * n + "\n"


def block_nesting(r):
    n = r.choice([50, 127, 129, 400])
    if r.random() < 0.5:
        return base(r) + "x:\n  " + "- " * n + "1\n"
    return base(r) + "x:\n" + "".join(" " * i + f"k{i}:\n" for i in range(1, n)) + " " * n + "v: 1\n"


def many_keys(r):
    n = r.choice([100, 2000, 20000])
    dup = r.random() < 0.5
    return base(r) + "x:\n" + "".join(f"  k{0 if dup else i}: {i}\n" for i in range(n))


def big_sweep(r):
    if r.random() < 0.5:
        return base(r) + sweep(r, 1, r.choice([100, 1024, 1025, 5000]))
    axes = r.choice([2, 8, 33, 65])
    return base(r, loads=axes) + sweep(r, axes, r.choice([1, 2, 3]))


def many_threads(r):
    return base(r, n_threads=r.choice([3, 10, 50]), count=r.choice([1, 100, 1024, "per_cpu"]))


def odd_values(r):
    text = base(r, n_threads=2, loads=2)
    lines = text.splitlines()
    for _ in range(r.randint(1, 5)):
        i = r.randrange(len(lines))
        if ": " in lines[i]:
            key = lines[i].split(": ", 1)[0]
            lines[i] = f"{key}: {r.choice(ODD)}"
    if r.random() < 0.2:
        lines.append("k" * r.choice([100, 5000]) + ": 1")
    return "\n".join(lines) + "\n"


def valid_ish(r):
    text = base(r, n_threads=r.randint(1, 3), loads=r.randint(0, 2))
    if r.random() < 0.4:
        text += sweep(r, 1, r.randint(1, 4))
    if r.random() < 0.3:
        text += "expect:\n  - thread: t0\n    metric: max_gap_ns\n    max: 1ms\n"
    return text


KINDS = [aliases, flow_nesting, block_nesting, many_keys, big_sweep, many_threads, odd_values,
         valid_ish]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    r = random.Random(args.seed)
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for i in range(args.count):
        kind = KINDS[i % len(KINDS)]
        (out / f"gen-{kind.__name__}-{i:04d}.yaml").write_text(kind(r))


if __name__ == "__main__":
    main()
