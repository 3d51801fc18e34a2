# SPDX-License-Identifier: GPL-2.0-or-later
"""runhelp's result validator (schemas/result.schema.json with its "$defs" inlined and arrays
of counts checked in one pass, for speed) judges a result.json as the schema does: the golden
runs pass it, and damaged copies of one (its latency histograms cut to a few bins, so that the
schema's own validator is quick on it) fail it with the same errors as under the schema."""
import copy
import json

import jsonschema
import pytest

from runhelp import ROOT, SCHEMA, VALIDATOR

GOLDEN = sorted((ROOT / "tests" / "analysis" / "golden").rglob("result.json"))
REFERENCE = jsonschema.Draft202012Validator(SCHEMA)


def errors(validator, doc):
    return sorted((list(e.absolute_path), e.message) for e in validator.iter_errors(doc))


def small_mix():
    """golden/mix's result.json with each histogram cut to 4 bins."""
    doc = json.loads((ROOT / "tests" / "analysis" / "golden" / "mix" / "result.json").read_text())
    for t in doc["threads"]:
        if t["stats"].get("latency"):
            t["stats"]["latency"]["histogram"]["counts"][4:] = []
    return doc


def hist(doc):
    return next(t["stats"]["latency"]["histogram"] for t in doc["threads"]
                if t["stats"].get("latency"))


DAMAGE = {     # each where the schema uses a "$defs" entry (count, ns) or a "$ref" beside a description
    "negative histogram count": lambda d: hist(d)["counts"].__setitem__(0, -1),
    "histogram count a boolean": lambda d: hist(d)["counts"].__setitem__(2, True),
    "histogram count a string": lambda d: hist(d)["counts"].__setitem__(3, "7"),
    "histogram overflow a string": lambda d: hist(d).__setitem__("overflow", "none"),
    "negative cpu_ns": lambda d: d["threads"][0]["stats"].__setitem__("cpu_ns", -5),
    "fractional intervals": lambda d: d["threads"][0]["stats"].__setitem__("intervals", 1.5),
}


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: str(p.parent.relative_to(p.parents[2])))
def test_golden_runs_pass(path):
    assert errors(VALIDATOR, json.loads(path.read_text())) == []


def test_the_cut_run_passes_both():
    doc = small_mix()
    assert errors(VALIDATOR, doc) == errors(REFERENCE, doc) == []


@pytest.mark.parametrize("damage", DAMAGE)
def test_damage_fails_both_alike(damage):
    doc = small_mix()
    DAMAGE[damage](doc)
    got = errors(VALIDATOR, doc)
    assert got and got == errors(REFERENCE, doc), got
