"""The contract of a section of report.md. A section is one module of report/sections/ that
defines `SECTION = Section(title, render, applies)`, listed once in report/registry.py, which
gives the order of the page:

- `title`: its heading, written as `## {title}` above what `render` returns ("" for none: the
  head of the page writes its own `#` title);
- `applies(ctx)`: whether the run has anything for it (loads, latency threads, a kernel
  trace...), from what is already known; by default always;
- `render(ctx)`: the Markdown under the heading, ending with an empty line ("" when, having
  looked, it has nothing to show). It may write the files it links (series.png) into
  `ctx.out`.

`ctx` holds the run, its summary (summary.json: the numbers of every table), the report's
directory and the figures written before the sections. A new section: one file in
report/sections/ and one entry in report/registry.py (analysis/README.md#code)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..read.rundir import Run


@dataclass
class Context:
    run: Run
    summary: dict[str, Any]                 # analyses/summary.py: what summary.json holds
    out: Path                               # the report's directory
    figures: list[str] = field(default_factory=list)   # files written before the sections


def always(ctx: Context) -> bool:
    return True


@dataclass(frozen=True)
class Section:
    title: str
    render: Callable[[Context], str]
    applies: Callable[[Context], bool] = always

    def markdown(self, ctx: Context) -> str:
        """The section as it stands in the page: heading and body; "" when it has nothing."""
        if not self.applies(ctx):
            return ""
        body = self.render(ctx)
        if not body:
            return ""
        return f"## {self.title}\n\n{body}" if self.title else body
