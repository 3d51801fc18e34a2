# SPDX-License-Identifier: GPL-2.0-or-later
"""The contract of a section of report.md. A section is one module of report/sections/ that
defines `SECTION = Section(title, render, applies, prepare=..., figures=...)`, listed once in
report/registry.py, which gives the order of the page:

- `title`: its heading, written as `## {title}` above what `render` returns ("" for none: the
  head of the page writes its own `#` title);
- `applies(ctx)`: whether the run has anything for it (loads, latency threads, a kernel
  trace...), from what is already known; by default always;
- `prepare(run)`: reads and checks what only this section reads (series.jsonl, kernel.jsonl,
  late_wakeups.jsonl), before the report writes anything: a bad input is refused before any
  file is written, and what the reading warns of is among the report's warnings. What it
  reads is kept by the analyses' memos (read/memo.py) for `render` and the figures;
- `figures`: the figures it shows (figures/figure.py: `Figure(file, draw, applies)`), each
  drawn by the report when the section and the figure apply, and linked by the section:
  where `render` puts `ctx.figure(FIGURE)`, else after its text;
- `render(ctx)`: the Markdown under the heading, ending with an empty line ("" when, having
  looked, it has nothing to show). It draws nothing; a data file it writes beside its text
  (series.json) goes through `ctx.write`, which lists it in summary.json's `files`.

`ctx` holds the run, its summary (summary.json: the numbers of every table), the report's
directory, the options and the figures the report draws. A new section: one file in
report/sections/ and one entry in report/registry.py; a new figure: one file in figures/ and
one entry in its section's `figures` (analysis/README.md#code)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..base import safeout
from ..figures.figure import Figure
from ..read.rundir import Run


@dataclass
class Context:
    run: Run
    summary: dict[str, Any]                 # analyses/summary.py: what summary.json holds
    out: Path                               # the report's directory
    window: tuple[int, int] | None = None   # the timeline's (start, length), --window
    figures: list[str] = field(default_factory=list)   # the files of the figures drawn
    written: list[str] = field(default_factory=list)   # other files the sections wrote
    placed: set[str] = field(default_factory=set)      # figures already linked in the page

    def figure(self, fig: Figure) -> str:
        """The figure's image and caption in report.md, where a section wants them; "" when
        the report does not draw it."""
        if fig.file not in self.figures or fig.file in self.placed:
            return ""
        self.placed.add(fig.file)
        return fig.text(self)

    def write(self, name: str, text: str) -> None:
        """A file of the section beside report.md (safeout.py), listed in summary.json."""
        safeout.make_dir(self.out)
        safeout.write_text(self.out / name, text)
        if name not in self.written:
            self.written.append(name)


def always(ctx: Context) -> bool:
    return True


def nothing(run: Run) -> None:
    return None


@dataclass(frozen=True)
class Section:
    title: str
    render: Callable[[Context], str]
    applies: Callable[[Context], bool] = always
    prepare: Callable[[Run], Any] = nothing
    figures: tuple[Figure, ...] = ()

    def planned(self, ctx: Context) -> list[Figure]:
        """The figures of this section the report draws for this run."""
        if not self.figures or not self.applies(ctx):
            return []
        return [f for f in self.figures if f.applies(ctx)]

    def markdown(self, ctx: Context) -> str:
        """The section as it stands in the page: heading, body and the figures it did not
        place itself; "" when it has nothing."""
        if not self.applies(ctx):
            return ""
        body = self.render(ctx)
        body += "".join("\n" + text for text in map(ctx.figure, self.figures) if text)
        if not body:
            return ""
        return f"## {self.title}\n\n{body}" if self.title else body
