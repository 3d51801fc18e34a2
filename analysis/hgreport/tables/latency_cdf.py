# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgreport abeni-cdf`'s page, data and figure: P{latency <= x} in one window, per run and per
configuration over its runs (Abeni et al. figure 4)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..analyses.over_runs import method_text
from ..base import safeout
from ..base.markdown import table
from ..base.units import fmt_ns
from ..figures import latency_cdf as figure
from .estimates import estimate_cell


def _p(x: float) -> str:
    return f"{x:.4f}"


def page(doc: dict[str, Any]) -> str:
    at = doc["at_ns"]
    out = [f"# Abeni figure 4: the latency CDF in the `{doc['window']}` window", "",
           "P{latency <= x} of the wake-ups whose intended time is in the window, per run, "
           "then per configuration over its runs.", ""]
    rows = [[r["label"], r["samples"], fmt_ns(r["max_ns"])] +
            [_p(r["at"][str(x)]) if r["at"][str(x)] is not None else "–" for x in at]
            for r in doc["runs"]]
    out += [table(["run", "wake-ups", "worst"] + [f"P{{L <= {fmt_ns(x)}}}" for x in at], rows,
                  "lrr" + "r" * len(at)), ""]
    many = [c for c in doc["configurations"] if len(c["runs"]) > 1]
    if many:
        rows = [[c["label"], len(c["runs"])] + [estimate_cell(c["at"][str(x)], _p) for x in at]
                for c in many]
        out += ["## Per configuration, over its runs", "",
                table(["configuration", "runs"] + [f"P{{L <= {fmt_ns(x)}}}" for x in at], rows,
                      "lr" + "r" * len(at)), "", method_text(), ""]
    return "\n".join(out)


def write(doc: dict[str, Any], out: Path) -> str:
    safeout.make_dir(out)
    text = page(doc) + "\n![latency CDF](abeni_cdf.png)\n"
    safeout.write_text(out / "abeni_cdf.md", text)
    configs = [c["label"] for c in doc["configurations"]]
    figure.plot(doc["runs"], [r["configuration"] for r in doc["runs"]], configs, doc["window"],
                out / "abeni_cdf.png")
    slim = dict(doc, runs=[{k: v for k, v in r.items() if k != "curve_ns"} for r in doc["runs"]])
    safeout.write_text(out / "abeni_cdf.json", json.dumps(slim, indent=1) + "\n")
    return text
