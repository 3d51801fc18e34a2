# SPDX-License-Identifier: GPL-2.0-or-later
"""The contract of a figure of the report: `FIGURE = Figure(file, draw, applies, caption)` at
the end of its module of figures/, listed in the `figures` of the section that shows it
(report/sections/, report/section.py), which links it in report.md.

- `file`: its name in the report's directory (`gaps.png`);
- `applies(given)`: whether the run has anything for it to draw, decided before anything is
  drawn (report.md links it, summary.json lists it, and it may be drawn in another process);
  by default always;
- `draw(given, path)`: draws it into `path`. matplotlib is imported there, not when the
  module is: a command or a report that draws nothing never loads it;
- `caption`: the text under the image in report.md (a function of `given`, or a string);
- `cost`: about how long it takes to draw, relative to a one-panel figure (a function of
  `given`, or a number): the report draws the costliest first, so that its two processes end
  together (report/assemble.py). Only the order depends on it.

`given` is what the figure is drawn from: the run, the numbers of summary.json, the report's
directory and the options (report/section.py's Context)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Protocol

if TYPE_CHECKING:
    from ..read.rundir import Run


# Called with (figure, path) after a figure is drawn and saved, before it is closed (the tests
# check every figure's labels this way: tests/analysis/figcheck.py); with a hook, the report
# draws every figure in its own process (report/assemble.py), where the hook sees it.
SAVE_HOOKS: list[Any] = []


class Given(Protocol):
    run: "Run"
    summary: dict[str, Any]
    out: Path
    window: tuple[int, int] | None


def always(given: Given) -> bool:
    return True


@dataclass(frozen=True)
class Figure:
    file: str
    draw: Callable[[Given, Path], Any]
    applies: Callable[[Given], bool] = always
    caption: str | Callable[[Given], str] = ""
    cost: float | Callable[[Given], float] = 1.0

    def weight(self, given: Given) -> float:
        return float(self.cost(given) if callable(self.cost) else self.cost)

    def text(self, given: Given) -> str:
        """The image's link and its caption, as report.md shows them: lines ending with a
        newline, as a section's text does."""
        caption = self.caption(given) if callable(self.caption) else self.caption
        return f"![{self.file}]({self.file})\n" + (f"\n{caption}\n" if caption else "")
