"""Helpers of the run tests: run a tiny scenario, load and check its result."""
import json
import os
import pathlib

import jsonschema

import hgbin

ROOT = pathlib.Path(__file__).resolve().parents[2]


def hgrun_path():
    """The hgrun under test: $HGRUN, else build/hgrun."""
    env = os.environ.get("HGRUN")
    return pathlib.Path(env) if env else ROOT / "build" / "hgrun"

SCHEMA = json.loads((ROOT / "schemas" / "result.schema.json").read_text())
VALIDATOR = jsonschema.validators.validator_for(SCHEMA)(SCHEMA)


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
