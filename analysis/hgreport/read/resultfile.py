# SPDX-License-Identifier: GPL-2.0-or-later
"""result.json read and checked before anything uses it: strict JSON (UTF-8, no NaN or
Infinity, integers that fit 64 bits), the JSON Schema shipped with the package
(hgreport/schemas/result.schema.json: schemas/result.schema.json, linked), and the fields
of the resolved scenario echo that hgreport relies on (the schema leaves `scenario` open).
Every problem is an InputError naming the file and the place: `threads[2].stats.cpu_ns: ...`."""
from __future__ import annotations

import json
import math
import os
import sys
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Callable

from ..base.errors import InputError
from ..base.schemacheck import compile_schema
from .regular import open_fd

FORMAT = "hgrun-result/1"
MAX_BYTES = 256 * 1024 * 1024          # result.json is KB to a few MB; refuse a runaway file
_TOP_KEYS = ("complete", "scenario", "threads", "loads", "host", "gap", "warnings")
_STAT_KEYS = ("cpu_ns", "intervals", "gaps", "records", "records_dropped", "releases",
              "deadlines_hit", "deadlines_missed", "work_units", "latency")
_INT64 = 2**63
MAX_DEPTH = 100     # hgrun nests a result a dozen levels deep; Python's own limit varies by version


def read_json(path: Path, limit: int = MAX_BYTES) -> Any:
    """A JSON file, strictly: a regular file of at most `limit` bytes, UTF-8, no NaN /
    Infinity / out-of-range numbers, not absurdly nested."""
    if not os.path.lexists(path):
        raise InputError(path, "no such file (is this an hgrun result directory?)")
    fd = open_fd(path, follow=True)      # a regular file, never a FIFO; a link loop one line
    try:
        st = os.fstat(fd)
        if st.st_size > limit:
            raise InputError(path, f"{st.st_size} bytes: larger than the {limit >> 20} MiB an "
                                   "hgrun result.json can be")
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise InputError(path, f"cannot read: {e.strerror}") from e
    finally:
        os.close(fd)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(path, f"not UTF-8 text (byte {e.start}: {data[e.start:e.start + 1]!r})") from e
    try:
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite_float)
    except json.JSONDecodeError as e:
        raise InputError(path, f"invalid JSON at line {e.lineno} column {e.colno}: {e.msg}") from e
    except ValueError as e:
        raise InputError(path, str(e)) from e
    except RecursionError as e:
        raise InputError(path, "nested too deeply to be an hgrun result") from e


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number hgrun writes (JSON has no NaN or Infinity)")


def _finite_float(text: str) -> float:
    v = float(text)
    if not math.isfinite(v):
        raise ValueError(f"number {text[:40]} is out of range")
    return v


def _check_ints(path: Path, doc: Any, where: str = "") -> None:
    """Every integer fits a signed 64-bit field (numpy and the runner's own types), and
    nothing is nested deeper than MAX_DEPTH (the JSON parser of Python 3.11 refuses about
    1000 levels, that of 3.13 far more; the recursive checks after this one need a bound
    that does not depend on the interpreter)."""
    if _ints_and_depth_ok(doc):
        return
    stack = [(where, doc, 0)]
    while stack:
        at, v, depth = stack.pop()
        if isinstance(v, (dict, list)) and depth >= MAX_DEPTH:
            raise InputError(path, f"nested too deeply to be an hgrun result (more than "
                                   f"{MAX_DEPTH} levels at {at or '(top)'})")
        if isinstance(v, dict):
            stack.extend((f"{at}.{k}" if at else str(k), x, depth + 1) for k, x in v.items())
        elif isinstance(v, list):
            stack.extend((f"{at}[{i}]", x, depth + 1) for i, x in enumerate(v))
        elif isinstance(v, int) and not isinstance(v, bool) and not -_INT64 <= v < _INT64:
            raise InputError(path, f"{at or '(top)'}: integer {str(v)[:30]}... does not fit 64 bits")


def _ints_and_depth_ok(doc: Any) -> bool:
    """_check_ints' verdict without the places it names (a tenth of its time on thousands of
    threads): whether no container is MAX_DEPTH levels deep and every integer fits 64 bits."""
    stack: list[tuple[Any, int]] = [([doc], -1)]
    lo, hi = -_INT64, _INT64
    while stack:
        v, depth = stack.pop()
        if depth >= MAX_DEPTH:
            return False
        for x in (v.values() if type(v) is dict else v):
            t = type(x)
            if t is dict or t is list:
                stack.append((x, depth + 1))
            elif t is int and not lo <= x < hi:
                return False
    return True


def _compact(v: Any) -> Any:
    """A copy for the schema check in which every long list of plain integers (the latency
    histograms: thousands of counts) is replaced by its minimum and maximum. The result
    schema bounds such items by type, minimum and maximum only (no minItems, maxItems or
    uniqueItems on them: tests/analysis/test_package.py checks), so the verdict is the same
    and the check takes 2 ms instead of 200 ms on a run with a latency thread."""
    if isinstance(v, dict):
        return {k: _compact(x) for k, x in v.items()}
    if isinstance(v, list):
        if len(v) > 16 and all(type(x) is int for x in v):
            return [min(v), max(v)]
        return [_compact(x) for x in v]
    return v


def _type(path: Path, at: str, v: Any, types: tuple[type, ...], what: str,
          nullable: bool = False) -> None:
    if v is None and nullable:
        return
    if isinstance(v, bool) and bool not in types or not isinstance(v, types):
        raise InputError(path, f"{at}: expected {what}, got {type(v).__name__} {json.dumps(v)[:40]}")


def check_result(path: Path, doc: Any) -> None:
    """The fields hgreport relies on, then the JSON Schema, then the scenario echo."""
    if not isinstance(doc, dict):
        raise InputError(path, f"not a JSON object (a {type(doc).__name__})")
    if doc.get("format") != FORMAT:
        raise InputError(path, f"format is {doc.get('format')!r}, expected {FORMAT!r}")
    for key in _TOP_KEYS:
        if key not in doc:
            raise InputError(path, f"missing key {key!r}")
    _check_ints(path, doc)
    _type(path, "threads", doc["threads"], (list,), "a list")
    for i, t in enumerate(doc["threads"]):
        _type(path, f"threads[{i}]", t, (dict,), "an object")
        for key in ("name", "instance", "stats"):
            if key not in t:
                raise InputError(path, f"threads[{i}]: missing key {key!r}")
        _type(path, f"threads[{i}].stats", t["stats"], (dict,), "an object")
        for key in _STAT_KEYS:
            if key not in t["stats"]:
                raise InputError(path, f"threads[{i}].stats: missing key {key!r}")
    try:
        _check_schema(path, doc)
    except RecursionError as e:
        raise InputError(path, "nested too deeply to be an hgrun result") from e
    _check_scenario(path, doc["scenario"])


@lru_cache(maxsize=1)
def _schema() -> dict[str, Any]:
    """The shipped result schema, its `$ref`s inlined."""
    text = resources.files("hgreport").joinpath("schemas/result.schema.json").read_text()
    return inline_refs(json.loads(text))


@lru_cache(maxsize=1)
def _quick() -> Callable[[Any], bool] | None:
    """The schema as a plain predicate (base/schemacheck.py): it accepts only what the full
    validator accepts, in a tenth of the time, without importing jsonschema."""
    return compile_schema(_schema())


@lru_cache(maxsize=1)
def _validator() -> Any:
    """The Draft 2020-12 validator of the shipped schema, or None without jsonschema."""
    try:
        import jsonschema
    except ImportError:
        print("hgreport: note: python3-jsonschema is not installed: result.json is checked only "
              "for the fields hgreport uses (pip install jsonschema)", file=sys.stderr)
        return None
    return jsonschema.Draft202012Validator(_schema())


ANNOTATIONS = {"description", "title", "$comment", "examples"}


def inline_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with each `{"$ref": "#/$defs/NAME"}` replaced by the definition itself (beside
    it only annotations, kept): the same verdict and messages, and 40% less time on a result of
    thousands of threads, whose every field was a reference to look up (2.9 s against 1.7 s
    for 4096 threads). A reference with other keywords beside it, or a loop of references,
    is left as it is."""
    defs = schema.get("$defs") or {}

    def inline(v: Any, seen: tuple[str, ...]) -> Any:
        if isinstance(v, list):
            return [inline(x, seen) for x in v]
        if not isinstance(v, dict):
            return v
        ref = v.get("$ref")
        name = ref[len("#/$defs/"):] if isinstance(ref, str) and ref.startswith("#/$defs/") else None
        if (name in defs and name not in seen and isinstance(defs[name], dict)
                and set(v) - {"$ref"} <= ANNOTATIONS):
            return {**inline(defs[name], seen + (name,)),
                    **{k: x for k, x in v.items() if k != "$ref"}}
        return {k: inline(x, seen) for k, x in v.items()}

    return inline(schema, ())


def _check_schema(path: Path, doc: dict[str, Any]) -> None:
    quick = _quick()
    if quick is not None and quick(doc):
        return                            # valid: jsonschema would find nothing to say
    validator = _validator()
    if validator is None:
        return
    from jsonschema.exceptions import best_match
    error = best_match(validator.iter_errors(_compact(doc)))
    if error is None:
        return
    while error.context:                  # anyOf / oneOf: the branch that got furthest
        error = best_match(error.context)
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    message = error.message if len(error.message) <= 160 else error.message[:157] + "..."
    raise InputError(path, f"{where.lstrip('.') or '(top)'}: {message} "
                           "(does not match the result schema)")


def _check_scenario(path: Path, sc: Any) -> None:
    """The resolved scenario's fields that hgreport reads (the schema leaves them open)."""
    _type(path, "scenario.name", sc.get("name"), (str,), "a string", nullable=True)
    _type(path, "scenario.duration_ns", sc.get("duration_ns"), (int,), "an integer (ns)", True)
    threads = sc.get("threads", [])
    _type(path, "scenario.threads", threads, (list,), "a list")
    for i, s in enumerate(threads):
        at = f"scenario.threads[{i}]"
        _type(path, at, s, (dict,), "an object")
        _type(path, f"{at}.name", s.get("name"), (str,), "a string", nullable=True)
        for key in ("instance", "start_ns", "finish_ns"):
            _type(path, f"{at}.{key}", s.get(key), (int,), "an integer", nullable=True)
        w = s.get("workload")
        _type(path, f"{at}.workload", w, (dict,), "an object", nullable=True)
        if not w:
            continue
        _type(path, f"{at}.workload.type", w.get("type"), (str,), "a string", nullable=True)
        _type(path, f"{at}.workload.period_ns", w.get("period_ns"), (int,), "an integer", True)
        e = w.get("exec")
        if isinstance(e, dict) and e.get("values_ns") is not None:
            _type(path, f"{at}.workload.exec.values_ns", e["values_ns"], (list,), "a list")
            for k, v in enumerate(e["values_ns"]):
                _type(path, f"{at}.workload.exec.values_ns[{k}]", v, (int,), "an integer")
