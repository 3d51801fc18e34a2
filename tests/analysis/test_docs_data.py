# SPDX-License-Identifier: GPL-2.0-or-later
"""The stored evidence behind docs/reproductions*.md, docs/cache.md and README.md (docs/data/,
docs/data/README.md): every number, interval and verdict measured here stands between
`<!-- data:ID -->` and `<!-- /data -->` and is exactly what scripts/docs_data.py makes from
the stored files; a number outside those spans is the papers' or the scenarios' (the list
below says which); every stored file is what scripts/reproduce.py writes (with its scenario,
commit, machine and kernel) and is listed in docs/data/manifest.toml."""
from __future__ import annotations

import importlib.util
import json
import pathlib
import re
import subprocess
import sys
import tomllib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
DATA = DOCS / "data"


def _module(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


docs_data = _module("docs_data")
MANIFEST = tomllib.loads((DATA / "manifest.toml").read_text())["data"]


# Made by another script than scripts/reproduce.py, with its own page and provenance:
# reference_run.json is scripts/reference_run.py's output (docs/reference-run.md).
OTHERS = {"reference_run": "docs/reference-run.md"}


def stored() -> list[pathlib.Path]:
    return sorted(p for p in DATA.glob("*.json") if p.stem not in OTHERS)


@pytest.mark.parametrize("name", sorted(OTHERS))
def test_the_other_stored_files_are_linked_from_their_page(name):
    assert (DATA / f"{name}.json").is_file(), name
    assert f"data/{name}.json" in (ROOT / OTHERS[name]).read_text(), name


def test_every_stored_file_is_in_the_manifest_and_every_entry_is_stored():
    names = {e["name"] for e in MANIFEST}
    files = {p.stem for p in stored()}
    assert files - names == set(), f"stored but not in docs/data/manifest.toml: {files - names}"
    # an entry not stored yet may only be said to be unmeasured: a span resting on it cannot
    # load it (docs_data.Pending) and says "not measured yet" instead of a number
    pages = "".join(p.read_text() for p in docs_data.PAGES)
    for name in sorted(names - files):
        assert not docs_data.ready(name)
        assert "*not measured yet: docs/data/" in pages, f"not stored, and no page says so: {name}"


@pytest.mark.parametrize("path", stored(), ids=lambda p: p.stem)
def test_a_stored_file_says_where_its_numbers_came_from(path):
    doc = json.loads(path.read_text())
    assert path.stat().st_size < 32_000, f"{path.name}: a summary, not a trace"
    for key in ("name", "rows", "scenarios", "made_utc", "commit", "regenerate", "hgrun",
                "took", "provenance", "summaries"):
        assert key in doc, f"{path.name}: no {key!r}"
    prov = doc["provenance"]
    assert prov["n"] == len(prov["runs"]) > 0
    host = prov["common"].get("host") or prov["runs"][0].get("host")
    assert host and host.get("kernel_release"), path.name
    # the kernel matrix's runs are in guests booted by scripts/kernel-matrix.sh: no host name
    assert host.get("hostname") or doc["hgrun"]["kind"] == "matrix", path.name
    assert doc["commit"], path.name
    assert doc["regenerate"] == f"scripts/reproduce.py {path.stem}"
    for r in prov["runs"]:
        assert isinstance(r["disturbed"], list)
    for s in doc["scenarios"]:
        assert (ROOT / s).is_file(), f"{path.name}: its scenario {s} is not in the repository"


@pytest.mark.parametrize("page", docs_data.PAGES, ids=lambda p: p.name)
def test_every_quoted_number_is_what_its_file_makes(page):
    diffs = docs_data.differences(page.read_text())
    assert not diffs, "\n".join(diffs[:5]) + (
        "\n(scripts/docs_data.py --write rewrites the spans from docs/data)" if diffs else "")


def _digit_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each span's text that holds a digit."""
    return [(m.start(2), m.end(2)) for m in docs_data.SPAN.finditer(text) if re.search(r"\d", m.group(2))]


@pytest.mark.parametrize("page", docs_data.PAGES, ids=lambda p: p.name)
def test_changing_one_number_fails(page):
    """The check is not vacuous: one digit changed in any span is found."""
    text = page.read_text()
    spans = _digit_spans(text)
    assert spans, f"{page.name} quotes no measured number from docs/data"
    for start, end in spans[:: max(1, len(spans) // 6)]:
        m = re.search(r"\d", text[start:end])
        i = start + m.start()
        changed = text[:i] + ("1" if text[i] != "1" else "2") + text[i + 1:]
        assert docs_data.differences(changed), f"{page.name}: a changed digit at {i} went unseen"


def test_every_span_has_a_renderer_and_every_renderer_a_span():
    used = set()
    for page in docs_data.PAGES:
        for ident, _, want in docs_data.expected(page.read_text()):
            assert not want.startswith("<no renderer"), f"{page.name}: {ident} has no renderer"
            used.add(ident)
    assert set(docs_data.RENDERERS) - used == set(), \
        f"renderers no page uses: {sorted(set(docs_data.RENDERERS) - used)}"


def test_every_linked_file_exists():
    for page in docs_data.PAGES:
        for ref in re.findall(r"\]\(((?:\.\./)?(?:docs/)?(?:data|figures)/[^)#\s]+)\)", page.read_text()):
            rel = ref.split("../", 1)[-1]
            rel = rel if rel.startswith("docs/") else f"docs/{rel}"
            assert (ROOT / rel).exists(), f"{page.name} links {ref}, which does not exist"


# Numbers outside the spans: each is the papers' (quoted in a section's **Paper.**), a
# scenario's or a command's setting, or a fact of the kernel's configuration, never one
# measured here. A number with a unit outside every span that is not listed fails: quote it
# from docs/data (a span) or say here what it is.
UNIT = r"(?:µs|us|ms|ns|s|min|h|%|Mbit/s|Mbps|M lines/s|/s|MB|MiB|KiB|KB|GB|MHz|GHz|kHz|Hz)"
NUMBER = re.compile(rf"(?<![\w.])(\d[\d,.]*(?:\s?[–-]\s?\d[\d,.]*)?)\s?({UNIT})(?![\w/])")
NOT_MEASURED = {
    # Hourglass (the paper's set-ups and results, quoted)
    "850 MHz", "10 µs", "30 µs", "60 s", "60 ms", "20 ms", "0.9 ms", "0.899095 ms",
    "0.002184–0.002198 ms", "2.2 µs", "45 s", "300 MB/s", "100 KB", "333 µs", "128 KB",
    "5.3 ms", "900 MB", "600 µs", "1 ms", "5 ms", "10 ms", "50 ms", "4 ms", "100 Mbps", "33.0%",
    "94 Mbps", "68 Mbps", "0.4%", "66 Mbps", "0.0%", "59 Mbps", "52 Mbps", "25 ms", "3 ms",
    "8 ms", "17 ms", "33 ms", "29 ms", "2 ms", "19 ms", "39 ms", "12 ms", "10 s", "3.1 ms",
    "17.1 ms", "0.1 ms", "256 KB", "5 s", "20 s", "18/s", "50/s", "7/s",
    # Abeni (the paper's set-ups and its garbled tables' orders of magnitude)
    "1.8 GHz", "100 µs", "100 ms", "128 MB", "512 MB", "10 h", "10–20 ms", "1–10 ms",
    "100 µs–1 ms", "10–100 ms", "25 s",
    # Dougan
    "2.2 GHz", "1 kHz", "862 ms", "47.3 µs", "13.2 µs", "100 Hz", "1.124 ms", "25%",
    "2.219 ms", "120 s",
    # the scenarios and commands (experiments/*.yaml, scripts/reproduce.py's manifest)
    "128 MiB", "8 MiB", "64 MiB", "256 MiB", "4 MiB", "4 KiB", "64 KiB", "1 MiB", "16 KiB",
    "100 Mbit/s", "30 s", "144 s", "34 s", "1 s", "20 ms", "1.8 GHz",
    "1–4 s", "6–12 s", "13–17 s", "18–22 s", "0–10 s", "10–20 s", "20–30 s", "0–9.5 s",
    "10–19.5 s", "0.5 s", "5%", "2 h 20 min", "1 h 48 min", "1 ms", "48 KiB", "2 MiB",
    # the kernel's configuration: EEVDF's default base slice
    "3 ms",
    # the confidence level, and lengths of the full sweeps (scenario x repeat x duration)
    "95%", "98%", "1 h", "48 min", "2 h", "20 min",
}


def _outside_spans(text: str) -> str:
    text = docs_data.SPAN.sub(" ", text)
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    return text


@pytest.mark.parametrize("page", docs_data.PAGES, ids=lambda p: p.name)
def test_no_measured_number_outside_the_spans(page):
    text = _outside_spans(page.read_text())
    found = {f"{m.group(1)} {m.group(2)}".replace("  ", " ") for m in NUMBER.finditer(text)}
    found = {re.sub(r"(\d)\s?(?=[^\d\s,.–-])", r"\1 ", x).replace("  ", " ") for x in found}
    unknown = sorted(x for x in found if x not in NOT_MEASURED and x.replace(" ", "") not in
                     {y.replace(" ", "") for y in NOT_MEASURED})
    assert not unknown, (f"{page.name}: numbers outside every data span that are neither the papers' "
                         f"nor a setting: {unknown}")


def test_the_manifest_names_real_scenarios_and_commands():
    from hgreport.cli import COMMANDS
    names = {c.name for c in COMMANDS}
    for e in MANIFEST:
        for s in e.get("scenarios") or [e["scenario"]]:
            assert (ROOT / s).is_file(), f"{e['name']}: {s}"
        for cmd in e.get("hgreport", []):
            assert cmd["args"][0] in names, f"{e['name']}: hgreport {cmd['args'][0]}"
        assert e["kind"] in ("run", "sweep", "two_host", "concurrent", "bench", "matrix"), e["name"]
        assert e["kind"] == "bench" or e["repeat"] >= 3, f"{e['name']}: fewer than 3 runs per point"


def test_reproduce_lists_and_plans_every_file():
    script = [sys.executable, str(ROOT / "scripts" / "reproduce.py")]
    out = subprocess.run(script + ["--list"], capture_output=True, text=True, check=True).stdout
    for e in MANIFEST:
        assert e["name"] in out
    assert "all" in out.splitlines()[-1]
    plan = subprocess.run(script + ["--dry-run", "--lock", "/tmp/lock", "all"], capture_output=True,
                          text=True, check=True)
    assert plan.stdout.count("[lock]") >= len(MANIFEST)
    bad = subprocess.run(script + ["no_such_row"], capture_output=True, text=True)
    assert bad.returncode != 0 and "no such file or row" in bad.stderr + bad.stdout


REPRODUCED = re.compile(r"\*\*reproduced(?: in form)?\*\* \(n = (\d+)([^\n]*)")


@pytest.mark.parametrize("page", docs_data.PAGES, ids=lambda p: p.name)
def test_every_reproduced_verdict_carries_n_and_an_interval(page):
    """The rubric (docs/reproductions.md): a "reproduced" says its n, at least 3, and the
    interval it rests on; anything less reads "partly"."""
    for m in REPRODUCED.finditer(page.read_text()):
        assert int(m[1]) >= 3, f"{page.name}: {m[0][:120]}"
        assert re.search(r"\[[^\]]+\]", m[2]), f"{page.name}: no interval in {m[0][:120]}"


def test_a_verdict_without_n_or_interval_is_downgraded(monkeypatch):
    doc = {"provenance": {"disturbed": 0, "n": 2}, "hgrun": {"repeat": 2}}
    monkeypatch.setattr(docs_data, "load", lambda name: doc)
    assert docs_data.verdict("reproduced", "x", "5.0 µs [4.0 µs, 6.0 µs]").startswith("**partly**")
    doc["hgrun"]["repeat"] = doc["provenance"]["n"] = 3
    assert docs_data.verdict("reproduced", "x", "5.0 µs, no interval").startswith("**partly**")
    assert docs_data.verdict("reproduced", "x", "5.0 µs [4.0 µs, 6.0 µs]").startswith("**reproduced**")
    doc["provenance"]["disturbed"] = 1
    assert docs_data.verdict("reproduced", "x", "5.0 µs [4.0 µs, 6.0 µs]").startswith("**partly**")


# The papers' forms that were missing (docs/reproductions.md lists them): each is a scenario,
# an hgreport command and a stored file, tagged in the manifest's rows.
FORMS = {
    "table2": "abeni-table2",        # Abeni table 2: each stress for a long window
    "abeni-fig4": "abeni-cdf",       # Abeni figure 4: the latency CDF per configuration
    "8": "interactivation",          # Abeni 4.1: inter-activation statistics
    "fig3": "slices",                # Hourglass figure 3: slice lengths per priority
    "fig6": "report",                # Hourglass figure 6: the two-host timeline
    "paper-loads": None,             # the papers' own loads as scenario variants
    "soft": "sweep",                 # soft reservations (Hourglass's -rs)
    "process": "switches",           # switches between threads against between processes
}


@pytest.mark.parametrize("form", sorted(FORMS))
def test_every_missing_form_has_a_scenario_a_command_and_stored_data(form):
    entries = [e for e in MANIFEST if form in e["rows"]]
    assert entries, f"no manifest entry makes the form {form!r}"
    for e in entries:
        scen = e.get("scenarios") or [e["scenario"]]
        assert all((ROOT / s).is_file() and s.startswith(("experiments/", "scripts/")) for s in scen)
        cmds = [c["args"][0] for c in e.get("hgreport", [])]
        assert FORMS[form] is None or FORMS[form] in cmds, (form, e["name"], cmds)
        assert docs_data.ready(e["name"]), f"{form}: docs/data/{e['name']}.json is not stored"
        if form == "paper-loads":
            assert len(scen) >= 2 and any("paper" in s for s in scen), (form, e["name"])


SETTING = re.compile(r"`(duration|sweep\.repeat): ([^`]+)`")


def _yaml_setting(path: pathlib.Path, key: str) -> str | None:
    import yaml
    doc = yaml.safe_load(path.read_text())
    for part in key.split("."):
        doc = doc.get(part) if isinstance(doc, dict) else None
    return None if doc is None else str(doc)


@pytest.mark.parametrize("page", docs_data.PAGES, ids=lambda p: p.name)
def test_quoted_scenario_settings_are_the_scenarios(page):
    """A paragraph that names a scenario file and quotes `duration: ...` or
    `sweep.repeat: ...` quotes what that file says (the "60 s per period" of a 20 s scenario)."""
    checked = 0
    for para in page.read_text().split("\n\n"):
        files = re.findall(r"`(?:experiments/)?([a-z0-9_]+\.yaml)`", para)
        for key, value in SETTING.findall(para):
            assert files, f"{page.name}: `{key}: {value}` names no scenario: {para[:120]}"
            path = ROOT / "experiments" / files[0]
            assert _yaml_setting(path, key) == value, f"{page.name}: {files[0]} {key} is not {value}"
            checked += 1
    if page.name.startswith("reproductions"):
        assert checked, f"{page.name} quotes no scenario setting"


def test_each_rows_word_is_its_verdicts():
    """The table's word for a row is the word its verdict ends with, after the downgrades."""
    text = "".join(p.read_text() for p in docs_data.PAGES)
    spans = {m[1]: m[2] for m in docs_data.SPAN.finditer(text)}
    for row in range(1, 11):
        word = spans[f"row{row}.word"]
        said = spans.get(f"row{row}.verdict") or (spans["cache.verdict"] if row == 3 else None)
        if said is None:                     # row 5's verdict is in its block
            continue
        assert said.startswith(word + " ("), (row, word, said[:60])


def _row(monkeypatch, kinds_per_run, effect):
    """A stored file whose runs warned of `kinds_per_run`, its row declaring `effect`."""
    runs = [{"run": f"r{i}", "disturbed": list(k), "outsiders_share": 0.01}
            for i, k in enumerate(kinds_per_run)]
    doc = {"provenance": {"disturbed": sum(1 for k in kinds_per_run if k), "n": len(runs),
                          "common": {}, "runs": runs}, "hgrun": {"repeat": len(runs)}}
    monkeypatch.setattr(docs_data, "load", lambda name: doc)
    monkeypatch.setattr(docs_data, "effects", lambda name: dict(effect))
    return docs_data.verdict("reproduced", "x", "5.0 µs [4.0 µs, 6.0 µs]")


def test_the_effect_under_study_is_no_disturbance(monkeypatch):
    """docs/reproductions.md, "Disturbance and the effect under study": a row's declared
    effect (a hard reservation's CPU not received) leaves its runs undisturbed and is still
    counted on the page; competition beside it, or a warning the row did not declare, makes
    the run disturbed and the verdict partly."""
    eff = {"cpu_not_received": "the reservation's throttling"}
    said = _row(monkeypatch, [["cpu_not_received"]] * 3, eff)
    assert said.startswith("**reproduced**"), said
    assert "3 of 3 runs warn of CPU not received, the effect under study" in said
    assert docs_data.disturbed("x") == (0, 3)
    assert "CPU not received" in docs_data.flag("x")            # counted, not dropped
    said = _row(monkeypatch, [["cpu_not_received"], ["competition", "cpu_not_received"], []], eff)
    assert said.startswith("**partly**") and "1 of 3 runs disturbed" in said, said
    assert "disturbed: 1 of 3 runs (competition 1)" in docs_data.flag("x")   # what, not the effect
    said = _row(monkeypatch, [["skipped_wakeups"], [], []], eff)     # not this row's effect
    assert said.startswith("**partly**") and "1 of 3 runs disturbed" in said, said
    said = _row(monkeypatch, [["cpu_not_received"]] * 3, {})         # nothing declared
    assert said.startswith("**partly**") and "3 of 3 runs disturbed" in said, said


@pytest.mark.parametrize("kind", ["competition", "steal", "mixed_machines", "incomplete",
                                  "damaged", "not_as_asked"])
def test_outside_disturbance_cannot_be_declared_an_effect(kind, monkeypatch, tmp_path):
    (tmp_path / "manifest.toml").write_text(
        f'[[data]]\nname = "x"\neffect = {{{kind} = "why"}}\n')
    monkeypatch.setattr(docs_data, "DATA", tmp_path)
    docs_data.effects.cache_clear()
    try:
        with pytest.raises(ValueError, match="cannot be an effect"):
            docs_data.effects("x")
    finally:
        docs_data.effects.cache_clear()


def test_every_declared_effect_is_explained_on_the_page():
    text = (DOCS / "reproductions.md").read_text()
    for e in MANIFEST:
        for kind, why in (e.get("effect") or {}).items():
            assert kind in docs_data.EFFECT_KINDS, (e["name"], kind)
            assert why in text, f"{e['name']}: the effect {kind} is not explained on the page"
