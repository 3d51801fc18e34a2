# SPDX-License-Identifier: GPL-2.0-or-later
"""schemas/scenario.schema.json and `hgrun validate` give the same verdict on
every scenario of the test corpus, for the faults a JSON Schema can express.

The cases listed in BEYOND_SCHEMA are faults a JSON Schema cannot see (rules
across fields, YAML-level faults, values that only the units parser can
judge); for those the schema must accept the document (it must never be
stricter than hgrun) while hgrun rejects it.
"""
import json
import pathlib

import jsonschema
import pytest
import yaml

from runhelp import ROOT

SCHEMA = json.loads((ROOT / "schemas" / "scenario.schema.json").read_text())
INVALID = sorted(p for p in (ROOT / "tests" / "scenarios" / "invalid").iterdir() if p.is_dir())
VALID = sorted((ROOT / "tests" / "scenarios" / "valid").glob("*.yaml")) + sorted(
    (ROOT / "experiments").glob("*.yaml"))

# case -> why a JSON Schema cannot reject it
BEYOND_SCHEMA = {
    "duplicate_key": "YAML parsers keep the last of duplicate keys; the schema never sees both",
    "yaml_alias": "aliases are expanded by the YAML parser before the schema sees the document",
    "duplicate_thread_name": "uniqueness of a field across list items",
    "load_duplicate_name": "uniqueness of a field across list items",
    "exec_above_period": "compares two durations",
    "exec_list_above_period": "compares durations",
    "exec_uniform_min_above_max": "compares two durations",
    "finish_after_duration": "compares two durations",
    "start_after_finish": "compares two durations",
    "load_stop_after_duration": "compares two durations",
    "stagger_past_stop": "compares a product of durations with the load's window",
    "reservation_budget_above_period": "compares two durations",
    "reservation_deadline_above_period": "compares two durations",
    "period_too_short": "a minimum on a duration string",
    "trace_series_too_short": "a minimum on a duration string",
    "too_fine_duration": "sub-nanosecond precision of a decimal",
    "rtc_tick_fraction": "sub-nanosecond precision of a decimal",
    "expect_unknown_thread": "refers to a name defined elsewhere",
    "expect_latency_on_periodic": "depends on the referenced thread's workload",
    "sweep_unknown_thread": "refers to a name defined elsewhere",
    "sweep_value_exec_above_period": "compares a swept duration with another",
    "sweep_combination_invalid": "compares two swept durations",
    "cpu_dma_latency_fraction": "whole microseconds of a decimal duration",
    "cpus_string_duplicate": "overlap between the ranges of a CPU string",
    "two_documents": "a YAML stream property",
    "merge_key": "PyYAML applies merge keys before the schema sees the document",
    "yaml_alias": "PyYAML expands aliases before the schema sees the document",
    "working_set_tiny": "a minimum on a size string",
    "flood_ping_peer_option": "a load's check hook: a peer that would read as a ping option",
}


def load(path):
    try:
        docs = list(yaml.safe_load_all(path.read_bytes().decode()))
    except (yaml.YAMLError, UnicodeDecodeError):
        return None, False
    return (docs[0] if docs else None), True


# One validator for every document: jsonschema.validate() checks the 100 KB schema itself on
# each call (0.86 s here, against 0.02 s for a document); test_schema_is_a_valid_json_schema
# checks it once.
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def schema_verdict(doc):
    return VALIDATOR.is_valid(doc)


def test_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("path", VALID, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_valid_scenarios_pass_both(hgcli, path):
    r = hgcli("validate", path)
    assert r.rc == 0, r.err
    doc, parsed = load(path)
    assert parsed and schema_verdict(doc), f"the schema refuses a scenario hgrun accepts: {path}"


@pytest.mark.parametrize("case", INVALID, ids=lambda p: p.name)
def test_invalid_scenarios_agree(hgcli, case):
    path = case / "scenario.yaml"
    r = hgcli("validate", path)
    assert r.rc == 2, "hgrun accepted an invalid case"
    doc, parsed = load(path)
    if not parsed:
        return  # a YAML syntax error: both reject it
    if case.name in BEYOND_SCHEMA:
        assert schema_verdict(doc), (
            f"{case.name} is listed as beyond the schema, but the schema rejects it: "
            "remove it from BEYOND_SCHEMA")
    else:
        assert not schema_verdict(doc), (
            f"the schema accepts {case.name}, which hgrun rejects: {(case / 'expected').read_text()}")
