# SPDX-License-Identifier: GPL-2.0-or-later
"""Every parameter of every workload, timer and load is declared once, in
its plugin's table (runner/plan/param.h); `hgrun list --json`, `validate
--resolved`, schemas/scenario.schema.json and docs/scenario.md's key tables
must all show it, with the same kind, default and range."""
import json
import re

import jsonschema
import pytest
import yaml

from runhelp import ROOT, scenario_text

SCHEMA = json.loads((ROOT / "schemas" / "scenario.schema.json").read_text())
DOC = (ROOT / "docs" / "scenario.md").read_text()
FAMILIES = {"workloads": "Workloads", "timers": "Timers", "loads": "Loads"}
DURATION_NS = {"ns": 1, "us": 1_000, "ms": 1_000_000, "s": 1_000_000_000, "m": 60_000_000_000,
               "h": 3_600_000_000_000, "d": 86_400_000_000_000}
SIZE_B = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "KB": 1000, "MB": 10**6,
          "GB": 10**9}


@pytest.fixture(scope="module")
def registry(hgrun_bin):
    import subprocess
    out = subprocess.run([str(hgrun_bin), "list", "--json"], capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out)


def plugins(registry):
    """Every plugin, those that cannot work here too: a scenario using a load whose program
    is missing still validates (tests/e2e/test_missing_tools.py)."""
    return [(family, plugin) for family in FAMILIES for plugin in registry[family]]


def doc_rows(family):
    """(type, key) -> {kind, default, range} from the family's section."""
    section = re.search(rf"^## {FAMILIES[family]}\n(.*?)(?=^## )", DOC, re.S | re.M).group(1)
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[0].startswith("`") and cells[1].startswith("`"):
            rows[(cells[0].strip("`"), cells[1].strip("`"))] = {
                "kind": cells[2], "default": cells[3], "range": cells[4]}
    return rows


def doc_default(p):
    if p["required"]:
        return "*required*"
    return f"`{p['default']}`" if p["default"] is not None else "none"


def doc_kind(p):
    return " ".join(f"`{c}`" for c in p["choices"]) if p["choices"] else p["kind"]


def test_every_plugin_key_has_its_docs_row(registry):
    for family in FAMILIES:
        rows = doc_rows(family)
        declared = {(pl["name"], p["name"]) for pl in registry[family] for p in pl["params"]}
        assert set(rows) == declared, f"docs/scenario.md ## {FAMILIES[family]}: rows differ " \
            f"from the tables: missing {declared - set(rows)}, extra {set(rows) - declared}"
        for pl in registry[family]:
            for p in pl["params"]:
                row = rows[(pl["name"], p["name"])]
                want = {"kind": doc_kind(p), "default": doc_default(p), "range": p["range"]}
                assert row == want, f"docs row of {pl['name']}.{p['name']}"


def sample(p):
    """A valid value of a parameter, as a scenario writes it."""
    kind = p["kind"]
    if kind in ("duration", "exec"):
        return "20ms"
    if kind == "size":
        return "64KiB"
    if kind == "integer":
        return str(max(p["min"], 1))
    if kind == "enum":
        return p["choices"][-1]
    if kind == "bool":
        return "true"
    if kind == "endpoint":
        return "127.0.0.1:5001"
    if kind == "args":
        return ["--cpu-method", "matrixprod"]
    if p["name"] == "stressor":
        return "cpu"
    return "/tmp" if p["name"] == "dir" else "true"


def parsed(p, text):
    """The resolved value of a default or a sample."""
    kind = p["kind"]
    if kind in ("duration", "size"):
        m = re.fullmatch(r"([0-9.]+)([A-Za-z]+)", text)
        scale = (DURATION_NS if kind == "duration" else SIZE_B)[m.group(2)]
        return round(float(m.group(1)) * scale)
    if kind == "integer":
        return int(text)
    if kind == "bool":
        return text.lower() == "true"
    if kind == "exec":
        return {"kind": "fixed", "values_ns": [parsed({"kind": "duration"}, text)]}
    return text


def echo_key(family, p):
    prefix = "timer_" if family == "timers" else ""
    return prefix + p["name"] + ({"ns": "_ns", "bytes": "_bytes"}.get(p["unit"], "")
                                 if p["kind"] != "exec" else "")


def one_plugin_scenario(family, plugin, given):
    """A scenario that uses the plugin, writing the keys in `given`."""
    keys = ", ".join(f"{k}: {json.dumps(v)}" for k, v in given.items())
    if family == "workloads":
        return scenario_text("p", [f"{{name: a, workload: {{type: {plugin['name']}"
                                   + (f", {keys}" if keys else "") + "}}"])
    if family == "timers":
        return scenario_text("p", ["{name: a, timer: " + (
            f"{{type: {plugin['name']}, {keys}}}" if keys else plugin["name"])
            + ", workload: {type: latency, period: 1ms}}"])
    return scenario_text("p", ["{name: a}"], extra="loads:\n  - {name: l, type: "
                         + plugin["name"] + (f", {keys}" if keys else "") + "}")


def resolved_part(doc, family):
    if family == "loads":
        return doc["loads"][0]
    if family == "timers":
        return doc["threads"][0]
    return doc["threads"][0]["workload"]


@pytest.mark.parametrize("with_optional", [False, True], ids=["defaults", "given"])
def test_resolved_echoes_every_key(registry, hgcli, scenario, with_optional):
    for family, plugin in plugins(registry):
        if family == "timers" and not plugin["params"]:
            continue
        given = {p["name"]: sample(p) for p in plugin["params"]
                 if p["required"] or with_optional}
        if plugin["name"] == "tcp_stream":
            given.pop("listen", None)   # connect or listen, not both
        if family == "timers" and "tick" in given:
            given["tick"] = "1ms"       # 0 or at least 1us
        r = hgcli("validate", "--resolved", scenario(one_plugin_scenario(family, plugin, given)))
        assert r.rc == 0, r.err
        part = resolved_part(r.json(), family)
        for p in plugin["params"]:
            key = echo_key(family, p)
            assert key in part, f"{plugin['name']}: {key} missing from --resolved"
            if p["name"] in given:
                assert part[key] == parsed(p, given[p["name"]]), f"{plugin['name']}.{key}"
            elif p["default"] is not None:
                assert part[key] == parsed(p, p["default"]), f"{plugin['name']}.{key} default"
            else:
                assert part[key] is None, f"{plugin['name']}.{key}: absent and no default"


def schema_of(family):
    return SCHEMA["$defs"]["workload" if family == "workloads" else "load"]


def type_rule(family, name):
    for rule in schema_of(family)["allOf"]:
        if rule.get("if", {}).get("properties", {}).get("type", {}).get("pattern", "") \
                and re.match(rule["if"]["properties"]["type"]["pattern"], name):
            return rule["then"]["properties"]
    raise AssertionError(f"no schema rule for {family} type {name}")


def test_schema_takes_exactly_the_declared_keys(registry):
    for family in ("workloads", "loads"):
        props = schema_of(family)["properties"]
        for plugin in registry[family]:
            rule = type_rule(family, plugin["name"])
            mine = {p["name"] for p in plugin["params"]}
            for key in set(props) - {"type", "name", "start", "stop", "priority", "cpus", "optional"}:
                assert (rule.get(key) is not False) == (key in mine), \
                    f"schema: {plugin['name']} and key {key}"
            for p in plugin["params"]:
                schema = rule[p["name"]]
                if p["kind"] == "integer":
                    bounds = schema["anyOf"][0]
                    assert (bounds["minimum"], bounds["maximum"]) == (p["min"], p["max"])
                if p["default"] is not None and "default" in schema:
                    assert str(schema["default"]) == p["default"]
                if p["kind"] == "enum":
                    assert schema["anyOf"][0]["enum"] == p["choices"]


def test_schema_and_hgrun_agree_on_each_sample(registry, hgcli, scenario):
    """A scenario with each plugin's required keys passes both; one with a
    key of another plugin fails both."""
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for family, plugin in plugins(registry):
        if family == "timers":
            continue
        given = {p["name"]: sample(p) for p in plugin["params"] if p["required"]}
        text = one_plugin_scenario(family, plugin, given)
        assert hgcli("validate", scenario(text)).rc == 0
        assert validator.is_valid(yaml.safe_load(text)), plugin["name"]
        others = [p for _, pl in plugins(registry) if pl is not plugin and _ == family
                  for p in pl["params"] if p["name"] not in given
                  and all(q["name"] != p["name"] for q in plugin["params"])]
        if others:
            bad = one_plugin_scenario(family, plugin, {**given, others[0]["name"]: sample(others[0])})
            assert hgcli("validate", scenario(bad)).rc == 2
            assert not validator.is_valid(yaml.safe_load(bad)), (plugin["name"], others[0]["name"])


def test_list_says_whether_each_plugin_works_here(registry, hgcli):
    text = hgcli("list").out
    for family, plugin in plugins(registry):
        assert isinstance(plugin["supported"], bool)
        assert (plugin["unsupported_why"] is None) == plugin["supported"], plugin["name"]
        if not plugin["supported"]:
            assert f"[unsupported here: {plugin['unsupported_why']}]" in text
