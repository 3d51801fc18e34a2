# SPDX-License-Identifier: GPL-2.0-or-later
"""Helpers of the run tests: run a tiny scenario, load and check its result; start hgrun
in the background, wait for what it writes, find its children; sweep a two-point grid."""
import json
import os
import pathlib
import shutil
import subprocess
import time

import jsonschema

import hgbin

ROOT = pathlib.Path(__file__).resolve().parents[2]


def hgrun_path():
    """The hgrun under test: $HGRUN, else build/hgrun."""
    env = os.environ.get("HGRUN")
    return pathlib.Path(env) if env else ROOT / "build" / "hgrun"


def missing_programs(packages):
    """Why a test cannot run here for want of programs, or None: each program of
    {program: Debian package} that is not on PATH, with the command that installs it. A
    test that needs one skips with this as its reason (the suite's summary lists them)."""
    missing = {prog: pkg for prog, pkg in packages.items() if shutil.which(prog) is None}
    if not missing:
        return None
    return "not on PATH here: " + ", ".join(f"{prog} (apt-get install {pkg})"
                                          for prog, pkg in missing.items())


SCHEMA = json.loads((ROOT / "schemas" / "result.schema.json").read_text())
ANNOTATIONS = frozenset({"description", "title", "$comment", "examples"})


def inline_refs(schema):
    """The schema with every "$ref": "#/$defs/NAME" replaced by that definition (which must
    not refer to itself): the same document validates the same way, without jsonschema's
    reference lookup, which made one result.json with a latency histogram (thousands of
    "$ref"s, one per bin) take most of a second to check. VALIDATOR also checks an array of
    counts in one pass (_items_of_counts); tests/e2e/test_runhelp_schema.py checks that it
    judges as the schema does."""
    defs = schema.get("$defs", {})

    def walk(node, seen):
        if isinstance(node, list):
            return [walk(x, seen) for x in node]
        if not isinstance(node, dict):
            return node
        out = {k: walk(v, seen) for k, v in node.items() if k not in ("$ref", "$defs")}
        ref = node.get("$ref")
        if ref is None:
            return out
        name = ref.removeprefix("#/$defs/")
        assert ref.startswith("#/$defs/") and name in defs and name not in seen, ref
        body = walk(defs[name], seen | {name})
        if set(out) <= ANNOTATIONS:          # "$ref" beside a description only
            return {**body, **{k: v for k, v in out.items() if k not in body}}
        return {**out, "allOf": out.get("allOf", []) + [body]}

    flat = walk(schema, frozenset())
    assert "$ref" not in json.dumps(flat)
    return flat


def _items_of_counts(validator, items, instance, schema):
    """The "items" keyword, with one shortcut: an array whose items must be integers >= 0
    (a latency histogram's counts) and all are is valid at once; else jsonschema's own."""
    if (items == {"type": "integer", "minimum": 0} and "prefixItems" not in schema
            and isinstance(instance, list) and all(type(x) is int and x >= 0 for x in instance)):
        return
    yield from BASE.VALIDATORS["items"](validator, items, instance, schema)


BASE = jsonschema.validators.validator_for(SCHEMA)
VALIDATOR = jsonschema.validators.extend(BASE, {"items": _items_of_counts})(inline_refs(SCHEMA))


def scenario_text(name, threads, duration="1s", extra=""):
    """A scenario with one flow-style line per thread set."""
    lines = ["hgrun: 1", f"name: {name}", f"duration: {duration}", extra.rstrip(), "threads:"]
    lines += [f"  - {t}" for t in threads]
    return "\n".join(line for line in lines if line) + "\n"


class Run:
    def __init__(self, proc, out_dir):
        self.rc = proc.rc
        self.out = proc.out
        self.err = proc.err
        self.dir = out_dir
        path = out_dir / "result.json"
        self.result = json.loads(path.read_text()) if path.exists() else None

    def thread(self, os_name):
        return next(t for t in self.result["threads"] if t["os_name"] == os_name)

    def stats(self, os_name):
        return self.thread(os_name)["stats"]

    def lines(self, name):
        return [json.loads(line) for line in (self.dir / name).read_text().splitlines()]

    def trace(self):
        """trace.bin's intervals as dicts (thread name, instance, os_name, end name)."""
        return hgbin.intervals_as_dicts(self.dir / "trace.bin", self.result["threads"])

    def wakeups(self):
        """latency.bin's wake-ups as dicts (thread name, instance, seq, late_ns)."""
        return hgbin.wakeups_as_dicts(self.dir / "latency.bin", self.result["threads"])

    def validate(self):
        errors = sorted(VALIDATOR.iter_errors(self.result), key=lambda e: list(e.path))
        assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])


def run_scenario(hgrun, scenario, tmp_path, text, *args, duration="1s", timeout=30):
    path = scenario(text)
    out_dir = tmp_path / "out"
    proc = hgrun("run", path, "-o", out_dir, "--duration", duration, "--quiet", *args,
                 timeout=timeout)
    return Run(proc, out_dir)


# One best-effort thread, and a sweep of it over two points (p000, p001).
CPU_THREAD = "{name: be, workload: {type: cpu}}"
TWO_POINT_SWEEP = """\
hgrun: 1
name: sw
duration: 5s
threads:
  - {name: be, workload: {type: cpu}}
sweep:
  grid:
    threads[be].priority: [NORMAL, LOW]
"""


def start(hgrun_bin, *args):
    """hgrun with these arguments, started in the background (its stdout and stderr piped)."""
    return subprocess.Popen([str(hgrun_bin), *map(str, args)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def finish(proc, timeout=60):
    """(exit status, stdout, stderr) of a process of start(), killed past the timeout."""
    try:
        out, err = proc.communicate(timeout=timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, out, err


def wait_for(cond, timeout=20, poll=0.01):
    """cond()'s first true value within timeout seconds, asked every poll seconds; after
    that, its value once more (false, unless it came true at the last moment)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = cond()
        if v:
            return v
        time.sleep(poll)
    return cond()


def kill_when(proc, cond, settle=0.0):
    """SIGKILL a process of start() once cond() holds (asserted), `settle` seconds after, and
    reap it; killed all the same when the assertion fails."""
    try:
        assert wait_for(cond), "the condition never held before the kill"
        time.sleep(settle)
        proc.kill()
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def proc_stat(pid):
    """(comm, state, ppid) of a process, or None once it is gone."""
    try:
        text = pathlib.Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    comm = text[text.index("(") + 1:text.rindex(")")]
    state, ppid = text[text.rindex(")") + 2:].split()[:2]
    return comm, state, int(ppid)


def children(ppid, comm=None):
    """Live (not zombie) children of ppid, optionally only those named comm."""
    out = []
    for proc in pathlib.Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        s = proc_stat(proc.name)
        if s and s[2] == ppid and s[1] != "Z" and (comm is None or s[0] == comm):
            out.append(int(proc.name))
    return out


def sweep_shard(hgrun, scenario, tmp_path, name="shard", extra="", duration="100ms"):
    """TWO_POINT_SWEEP (with `extra` lines) swept into tmp_path/NAME, which is returned."""
    shard = tmp_path / name
    r = hgrun("sweep", scenario(TWO_POINT_SWEEP + extra, name=f"{name}.yaml"), "-o", shard,
              "--duration", duration, "--quiet", timeout=60)
    assert r.rc == 0, r.err
    return shard
