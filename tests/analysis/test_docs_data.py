# SPDX-License-Identifier: GPL-2.0-or-later
"""The stored summaries behind docs/reproductions*.md, docs/cache.md and docs/reference-run.md (docs/data/*.json,
each the JSON output of the hgreport command the doc names): every one the docs link exists,
every stored one is linked, and the numbers the docs quote are the stored ones."""
import json
import math
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
DATA = DOCS / "data"
PAGES = [DOCS / "reproductions.md", DOCS / "reproductions-abeni-dougan.md", DOCS / "cache.md",
         DOCS / "reference-run.md"]


def links():
    found = {}
    for page in PAGES:
        for ref in re.findall(r"\]\(((?:\.\./docs/)?data/[^)#\s]+\.json)\)", page.read_text()):
            found.setdefault(ref.split("data/", 1)[1], []).append(page.name)
    return found


def load(name):
    return json.loads((DATA / name).read_text())


def test_every_linked_summary_exists_and_every_summary_is_linked():
    linked = links()
    assert linked, "the reproduction pages link no stored summary"
    missing = sorted(n for n in linked if not (DATA / n).is_file())
    assert not missing, f"linked from the docs but not in docs/data: {missing}"
    stored = sorted(p.name for p in DATA.glob("*.json"))
    unlinked = [n for n in stored if n not in linked]
    assert not unlinked, f"in docs/data but linked from no page: {unlinked}"


def test_every_stored_summary_is_small():
    for p in DATA.glob("*.json"):
        assert p.stat().st_size < 32_000, f"{p.name}: a summary, not a trace"


def _us(text):
    return float(text.replace("−", "-").replace(",", ""))


def cache_rows():
    """(label, pairs, mean, low, high, verdict) per row of cache.md's table, in us."""
    rows = []
    for line in (DOCS / "cache.md").read_text().splitlines():
        m = re.match(r"\| (\d+ [KM]iB)(, rerun)? \| (\d+) \| (\S+) µs \| \[(\S+), (\S+)\] µs \| (.+?) \|$",
                     line)
        if m:
            rows.append((m[1].replace(" ", ""), bool(m[2]), int(m[3]), _us(m[4]), _us(m[5]),
                         _us(m[6]), m[7]))
    return rows


def test_cache_table_quotes_the_stored_cache_penalty():
    rows = cache_rows()
    assert len(rows) == 7, rows
    for ws, rerun, pairs, mean, low, high, verdict in rows:
        doc = load("cache_penalty_1mib.json" if rerun else "cache_penalty.json")
        stored = next(r for r in doc if r["label"] == f"working_set={ws}")
        assert pairs == len(stored["penalty_cpu_ns"]), ws
        for quoted, key in ((mean, "mean_cpu_ns"), (low, "low_cpu_ns"), (high, "high_cpu_ns")):
            assert abs(quoted - stored[key] / 1e3) <= 0.5, (ws, key, quoted, stored[key])
        assert verdict == stored["cpu_verdict"], ws


def test_dispatch_run_quotes_the_stored_table():
    row = load("dispatch_latency.json")["rows"][0]
    text = (DOCS / "reproductions.md").read_text()
    line = next(x for x in text.splitlines() if x.startswith("| hgrun here, run 3"))
    cells = [c.strip() for c in line.strip("|").split("|")]
    assert _us(cells[1]) == row["samples"]
    assert [_us(c) for c in cells[2:6]] == [row["later_than"][k] for k in
                                            ("1000000", "5000000", "10000000", "50000000")]
    assert cells[7] == f"{row['p99_ns'] / 1e6:.2f} ms" and cells[8] == f"{row['max_ns'] / 1e6:.2f} ms"


def test_rx_deadline_run_quotes_the_stored_table():
    rows = {r["row"]: r for r in load("rx_deadline.json")}
    text = " ".join((DOCS / "reproductions.md").read_text().split())
    m = re.search(r"alone (\S+)% \((\d+)/(\d+)\), the stream alone ([\d,]+) Mbit/s, the thread under "
                  r"the stream (\S+)% \((\d+)/(\d+)\), the stream under the thread ([\d,]+) Mbit/s", text)
    assert m, "the stored rx_deadline run is not quoted in docs/reproductions.md"
    a, rx, both = rows["alone"], rows["rx_alone"], rows["rt + rx"]
    assert (int(m[2]), int(m[3])) == (a["missed"], a["releases"])
    assert (int(m[6]), int(m[7])) == (both["missed"], both["releases"])
    assert m[1] == f"{100 * a['miss_ratio']:.2f}" and m[5] == f"{100 * both['miss_ratio']:.2f}"
    assert _us(m[4]) == round(rx["mbps"]) and _us(m[8]) == round(both["mbps"])


@pytest.mark.parametrize("name", ["cache_penalty.json", "cache_penalty_1mib.json",
                                  "cache_penalty_pilot.json"])
def test_cache_summaries_are_hgreport_output(name):
    for r in load(name):
        assert {"label", "penalty_cpu_ns", "mean_cpu_ns", "low_cpu_ns", "high_cpu_ns",
                "cpu_verdict"} <= set(r), name


def test_rm_feasibility_sweep_quotes_the_stored_summary():
    points = load("rm_feasibility.json")["points"]

    def video_missed(kind, tick, exec_):
        p = next(p for p in points if list(p["overrides"].values()) == [kind, tick, exec_])
        m = {(x["subject"], x["metric"]): x["mean"] for x in p["metrics"]}
        k = m[("video", "deadlines_missed")]
        return int(k), round(k / m[("video", "deadline_miss_ratio")])

    text = " ".join((DOCS / "reproductions.md").read_text().split())
    m = re.search(r"10 ms tick at 17 ms missed (\d+) of (\d+) \(sleep\) and (\d+) of (\d+) \(absolute\)",
                  text)
    assert m, "the stored rm_feasibility sweep is not quoted in docs/reproductions.md"
    assert (int(m[1]), int(m[2])) == video_missed("sleep", "10ms", "17ms")
    assert (int(m[3]), int(m[4])) == video_missed("absolute", "10ms", "17ms")


def test_yield_minima_quote_the_stored_table():
    sw = load("ctx_switch_yield.json")["switches"]
    vol = [t["voluntary"]["cost_min_ns"] / 1e3 for t in sw]
    inv = [t["involuntary"]["cost_min_ns"] / 1e3 for t in sw]
    text = (DOCS / "reproductions.md").read_text()
    m = re.search(r"minima: (\S+)–(\S+) µs voluntary vs (\d+)–(\d+) µs involuntary", text)
    assert m
    assert (float(m[1]), float(m[2])) == (round(min(vol), 1), round(max(vol), 1))
    assert (int(m[3]), int(m[4])) == (round(min(inv)), round(max(inv)))
    assert max(vol) < min(inv)


def sweep_missed(name, subject, values):
    p = next(p for p in load(name)["points"] if list(p["overrides"].values()) == values)
    m = {(x["subject"], x["metric"]): x["mean"] for x in p["metrics"]}
    k, r = m[(subject, "deadlines_missed")], m[(subject, "deadline_miss_ratio")]
    return int(k), (round(k / r) if r else None)


def test_cpu_reservation_sweep_quotes_the_stored_summary():
    text = " ".join((DOCS / "reproductions.md").read_text().split())
    m = re.search(r"exact budgets audio (\d+) of (\d+) and video (\d+) of (\d+) missed, the paper's "
                  r"padding video (\d+) of (\d+), 4 / 20 ms audio (\d+) of (\d+)", text)
    assert m, "the stored cpu_reservation sweep is not quoted in docs/reproductions.md"
    q = [int(x) for x in m.groups()]
    assert tuple(q[0:2]) == sweep_missed("cpu_reservation.json", "audio", ["3ms", "17ms"])
    assert tuple(q[2:4]) == sweep_missed("cpu_reservation.json", "video", ["3ms", "17ms"])
    assert tuple(q[4:6]) == sweep_missed("cpu_reservation.json", "video", ["3.1ms", "17.1ms"])
    assert tuple(q[6:8]) == sweep_missed("cpu_reservation.json", "audio", ["4ms", "20ms"])
    assert sweep_missed("cpu_reservation.json", "video", ["4ms", "20ms"])[0] == 0


def test_abeni_timer_sweep_quotes_the_stored_summary():
    points = load("abeni_timer_resolution.json")["points"]

    def metric(period, tick, name):
        p = next(p for p in points if list(p["overrides"].values()) == [period, tick])
        return next(x["mean"] for x in p["metrics"] if x["metric"] == name)

    text = " ".join((DOCS / "reproductions-abeni-dougan.md").read_text().split())
    m = re.search(r"without a tick, p99 (\S+) µs, (\S+) ms, (\S+) µs and (\S+) µs at 100 µs", text)
    assert m, "the stored abeni_timer_resolution sweep is not quoted"
    quoted = [float(m[1]) * 1e3, float(m[2]) * 1e6, float(m[3]) * 1e3, float(m[4]) * 1e3]
    stored = [metric(p, "0s", "latency_p99_ns") for p in ("100us", "1ms", "10ms", "100ms")]
    assert all(abs(q - s) <= 100 for q, s in zip(quoted, stored)), (quoted, stored)
    m = re.search(r"with the 10 ms tick, p50 (\S+) ms, (\S+) ms, (\S+) ms and (\S+) ms", text)
    assert m
    stored = [metric(p, "10ms", "latency_p50_ns") for p in ("100us", "1ms", "10ms", "100ms")]
    assert all(abs(float(q) * 1e6 - s) <= 1000 for q, s in zip(m.groups(), stored)), stored


def test_ctx_switch_cpu_run_quotes_the_stored_table():
    sw = load("ctx_switch_cpu.json")["switches"]
    inv = [t["involuntary"] for t in sw]
    text = " ".join((DOCS / "reproductions.md").read_text().split())
    m = re.search(r"disturbed\* too: (\d+) involuntary switches \((\d+)/s\) of median cost (\S+)–(\S+) ms "
                  r"per thread, minimum (\S+)–(\S+) µs", text)
    assert m, "the stored ctx_switch_cpu run is not quoted"
    assert int(m[1]) == sum(t["count"] for t in inv)
    assert int(m[2]) == round(sum(t["per_s"] for t in inv))
    med = [t["cost_median_ns"] / 1e6 for t in inv]
    low = [t["cost_min_ns"] / 1e3 for t in inv]
    assert (float(m[3]), float(m[4])) == (round(min(med), 2), round(max(med), 2))
    assert (float(m[5]), float(m[6])) == (round(min(low), 1), round(max(low), 1))


def test_abeni_nonpreemptible_run_quotes_the_stored_table():
    win = load("abeni_nonpreemptible.json")["threads"][0]["windows"]
    text = " ".join((DOCS / "reproductions-abeni-dougan.md").read_text().split())
    m = re.search(r"p99 per window: no load (\S+) µs, memory (\S+) µs, I/O (\S+) µs, procfs (\S+) µs, "
                  r"fork (\S+) µs", text)
    assert m, "the stored abeni_nonpreemptible run is not quoted"
    names = ["no load", "memory", "io", "procfs", "fork"]
    assert [float(x) for x in m.groups()] == [round(win[n]["latency"]["p99_ns"] / 1e3, 1) for n in names]
    assert max(names, key=lambda n: win[n]["latency"]["p99_ns"]) == "io"


def _wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of k of n, as the reproductions quote it (within one run:
    it treats the wake-ups as independent, docs/reproductions.md says so)."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def test_dougan_runs_quote_the_stored_table():
    rows = {(r["run"][-1], r["label"]): r for r in load("dougan_jitter.json")["rows"]}
    assert load("dougan_jitter.json")["thresholds_ns"] == [1_000_000, 2_219_000, 10_000_000]
    text = (DOCS / "reproductions-abeni-dougan.md").read_text()
    section = text.split("## 10. Dougan")[1]
    quoted = [[c.strip() for c in x.strip().strip("|").split("|")]
              for x in section.splitlines() if re.match(r"\| [12] \| jitter\.[01] ", x)]
    assert len(quoted) == len(rows) == 4, quoted
    for cells in quoted:
        row = rows[(cells[0], cells[1].split()[0])]
        assert _us(cells[2]) == row["samples"]
        assert [_us(c) for c in cells[3:6]] == [row["later_than"][k] for k in
                                                ("1000000", "2219000", "10000000")]
        assert cells[6] == f"{row['p99_ns'] / 1e6:.2f} ms"
        assert cells[7].strip("*") == f"{row['max_ns'] / 1e6:.2f} ms"
        # the Wilson interval quoted for the 2.219 ms bound is this row's
        k, n = row["later_than"]["2219000"], row["samples"]
        lo, hi = _wilson(k, n)
        assert f"{100 * k / n:.2f}% [{100 * lo:.2f}, {100 * hi:.2f}]" in " ".join(section.split())
