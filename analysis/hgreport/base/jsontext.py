# SPDX-License-Identifier: GPL-2.0-or-later
"""json.dumps(obj, indent=N), the same text, written faster: with an indent the standard
library encodes in Python, a generator per level (0.4-0.5 s of the summary.json of a
4096-thread report; analysis/README.md#performance). Here a list of numbers or strings is
joined in one call and every other value is written by one small recursive function. What
json would refuse (a type it cannot encode, a key it cannot take, a cycle) is handed to
json.dumps, which raises its own error."""
from __future__ import annotations

import json
from json.encoder import encode_basestring_ascii as _str
from typing import Any

_INF = float("inf")


def _float(f: float) -> str:
    if f != f:
        return "NaN"
    if f == _INF:
        return "Infinity"
    if f == -_INF:
        return "-Infinity"
    return float.__repr__(f)


def _scalar(o: Any) -> str | None:
    """The text of a value that is no container, None when it is a container or unknown."""
    if isinstance(o, str):
        return _str(o)
    if o is None:
        return "null"
    if o is True:
        return "true"
    if o is False:
        return "false"
    if isinstance(o, int):
        return int.__repr__(o)
    if isinstance(o, float):
        return _float(o)
    return None


def _key(k: Any) -> str:
    if isinstance(k, str):
        return _str(k)
    if isinstance(k, float):
        return _str(_float(k))
    if k is True:
        return '"true"'
    if k is False:
        return '"false"'
    if k is None:
        return '"null"'
    if isinstance(k, int):
        return _str(int.__repr__(k))
    raise TypeError(k)


def dumps(obj: Any, indent: int) -> str:
    """json.dumps(obj, indent=indent), character for character."""
    out: list[str] = []
    pad = " " * indent

    def enc(o: Any, depth: int) -> None:
        text = _scalar(o)
        if text is not None:
            out.append(text)
            return
        if depth > 200:
            raise RecursionError          # json's own check of cycles and depth decides
        if isinstance(o, (list, tuple)):
            if not o:
                out.append("[]")
                return
            inner = "\n" + pad * (depth + 1)
            texts = [_scalar(v) for v in o]
            if None not in texts:
                out.append("[" + inner + ("," + inner).join(texts))     # type: ignore[arg-type]
            else:
                out.append("[")
                for i, v in enumerate(o):
                    out.append(inner if i == 0 else "," + inner)
                    enc(v, depth + 1)
            out.append("\n" + pad * depth + "]")
        elif isinstance(o, dict):
            if not o:
                out.append("{}")
                return
            inner = "\n" + pad * (depth + 1)
            sep = "{" + inner
            for k, v in o.items():
                key = _str(k) if type(k) is str else _key(k)
                t = type(v)             # the common exact types first, then _scalar's checks
                text = (_str(v) if t is str else int.__repr__(v) if t is int else
                        "null" if v is None else _float(v) if t is float else _scalar(v))
                if text is not None:
                    out.append(sep + key + ": " + text)
                else:
                    out.append(sep + key + ": ")
                    enc(v, depth + 1)
                sep = "," + inner
            out.append("\n" + pad * depth + "}")
        else:
            raise TypeError(type(o).__name__)

    try:
        enc(obj, 0)
    except (TypeError, RecursionError):
        return json.dumps(obj, indent=indent)      # raises as json does (or agrees)
    return "".join(out)
