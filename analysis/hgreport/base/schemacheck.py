# SPDX-License-Identifier: GPL-2.0-or-later
"""A JSON Schema (Draft 2020-12) turned into a plain Python predicate that says only whether a
document is valid: the quick verdict on a valid result.json, whose full validation by
jsonschema walked every field of every thread through its generic machinery (1.3 s for 4096
threads, and 0.06 s of importing it for any run).

`compile_schema(schema)` returns the predicate, or None when the schema uses a keyword outside
the subset handled here (then every document goes to the full validator). The predicate is
never more lenient than the full validator: each keyword it knows is checked as jsonschema
checks it or more strictly ("integer" is a Python int, not also an integral float; `enum`
and `const` match by type and value), and only keywords whose verdict grows with their
subschemas' verdicts are handled (`anyOf`, `allOf`, `properties`, ...; not `oneOf` or `not`,
which a stricter branch could turn into acceptance). So when it says valid, jsonschema
says valid; when it says invalid, the caller asks jsonschema, which names the problem (or,
for a document only the stricter check refused, accepts it)."""
from __future__ import annotations

import re
from typing import Any, Callable

Check = Callable[[Any], bool]

# Keywords that say nothing about validity.
ANNOTATIONS = frozenset({"title", "description", "$comment", "examples", "default",
                         "deprecated", "readOnly", "writeOnly"})
_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,), "array": (list,), "string": (str,), "integer": (int,),
    "number": (int, float), "boolean": (bool,), "null": (type(None),),
}
_NUMBER = (int, float)


class Unsupported(Exception):
    """A keyword or form this module does not check."""


def compile_schema(schema: Any) -> Check | None:
    """The predicate of `schema` (a parsed JSON Schema), or None if it uses anything this
    module does not handle."""
    try:
        return _Compiler(schema).top()
    except Unsupported:
        return None


class _Compiler:
    def __init__(self, root: Any) -> None:
        self.root = root
        self.defs = root.get("$defs", {}) if isinstance(root, dict) else {}
        self.refs: dict[str, list[Check]] = {}     # a cell per definition: loops allowed

    def top(self) -> Check:
        if not isinstance(self.root, dict):
            return self.schema(self.root)
        body = {k: v for k, v in self.root.items() if k not in ("$schema", "$id", "$defs")}
        return self.schema(body)

    def ref(self, ref: Any) -> Check:
        if not (isinstance(ref, str) and ref.startswith("#/$defs/")):
            raise Unsupported(ref)
        name = ref[len("#/$defs/"):]
        if name not in self.defs or "/" in name or "~" in name:
            raise Unsupported(ref)
        if name not in self.refs:
            cell: list[Check] = []
            self.refs[name] = cell
            cell.append(self.schema(self.defs[name]))
        cell = self.refs[name]
        if cell:
            return cell[0]
        return lambda x: cell[0](x)                  # a definition that refers to itself

    def schema(self, s: Any) -> Check:
        if s is True:
            return lambda x: True
        if s is False:
            return lambda x: False
        if not isinstance(s, dict):
            raise Unsupported(s)
        checks: list[Check] = []
        keys = set(s) - ANNOTATIONS
        if "$ref" in keys:
            checks.append(self.ref(s["$ref"]))
        if "type" in keys:
            checks.append(_type(s["type"]))
        if "enum" in keys:
            checks.append(_enum(s["enum"]))
        if "const" in keys:
            checks.append(_enum([s["const"]]))
        checks += _numeric(s)
        checks += _string(s)
        if keys & {"items", "minItems", "maxItems"}:
            checks.append(self.array(s))
        if keys & {"properties", "patternProperties", "required", "additionalProperties",
                   "propertyNames", "minProperties", "maxProperties"}:
            checks.append(self.object(s))
        for key in ("anyOf", "allOf"):
            if key in keys:
                branches = s[key]
                if not isinstance(branches, list) or not branches:
                    raise Unsupported(key)
                compiled = [self.schema(b) for b in branches]
                checks.append(_any(compiled) if key == "anyOf" else _all(compiled))
        known = {"$ref", "type", "enum", "const", "minimum", "maximum", "exclusiveMinimum",
                 "exclusiveMaximum", "minLength", "maxLength", "pattern", "items", "minItems",
                 "maxItems", "properties", "patternProperties", "required",
                 "additionalProperties", "propertyNames", "minProperties", "maxProperties",
                 "anyOf", "allOf"}
        if keys - known:
            raise Unsupported(sorted(keys - known))
        return _all(checks)

    def array(self, s: dict[str, Any]) -> Check:
        items = self.schema(s["items"]) if "items" in s else None
        if "items" in s and not isinstance(s["items"], (dict, bool)):
            raise Unsupported("items")
        lo, hi = _count(s.get("minItems", 0)), s.get("maxItems")
        hi = None if hi is None else _count(hi)

        def check(x: Any) -> bool:
            if type(x) is not list:
                return True
            if len(x) < lo or hi is not None and len(x) > hi:
                return False
            if items is not None:
                for v in x:
                    if not items(v):
                        return False
            return True
        return check

    def object(self, s: dict[str, Any]) -> Check:
        props = s.get("properties", {})
        required = s.get("required", [])
        extra = s.get("additionalProperties", True)
        if not isinstance(props, dict) or not isinstance(required, list) or \
                not all(isinstance(k, str) for k in required):
            raise Unsupported("properties")
        compiled = {k: self.schema(v) for k, v in props.items()}
        patterns = s.get("patternProperties", {})
        if not isinstance(patterns, dict):
            raise Unsupported("patternProperties")
        try:
            by_pattern = [(re.compile(p).search, self.schema(v)) for p, v in patterns.items()]
        except re.error as e:
            raise Unsupported("patternProperties") from e
        key_check = self.schema(s["propertyNames"]) if "propertyNames" in s else None
        need = tuple(dict.fromkeys(required))
        fewest, most = _count(s.get("minProperties", 0)), s.get("maxProperties")
        most = None if most is None else _count(most)
        if extra is True:
            rest: Check | None = None
        elif extra is False:
            rest = lambda x: False                  # noqa: E731
        else:
            rest = self.schema(extra)

        def check(x: Any) -> bool:
            if type(x) is not dict:
                return True
            if len(x) < fewest or most is not None and len(x) > most:
                return False
            for k in need:
                if k not in x:
                    return False
            get = compiled.get
            for k, v in x.items():
                c = get(k)
                if c is not None and not c(v):
                    return False
                matched = False
                for search, p in by_pattern:
                    if search(k) is not None:
                        matched = True
                        if not p(v):
                            return False
                if c is None and not matched and rest is not None and not rest(v):
                    return False
                if key_check is not None and not key_check(k):
                    return False
            return True
        return check


def _all(checks: list[Check]) -> Check:
    if not checks:
        return lambda x: True
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        a, b = checks
        return lambda x: a(x) and b(x)
    return lambda x: all(c(x) for c in checks)


def _any(checks: list[Check]) -> Check:
    if len(checks) == 1:
        return checks[0]
    return lambda x: any(c(x) for c in checks)


def _type(t: Any) -> Check:
    names = [t] if isinstance(t, str) else t
    if not isinstance(names, list) or not names or not all(n in _TYPES for n in names):
        raise Unsupported(f"type {t!r}")
    allowed = frozenset(c for n in names for c in _TYPES[n])
    return lambda x: type(x) in allowed


def _enum(values: Any) -> Check:
    """Equal in type and value to one of `values` (strings, numbers, booleans, null: what
    jsonschema's `equal` compares as such); anything else is left to jsonschema."""
    if not isinstance(values, list) or not values:
        raise Unsupported("enum")
    if not all(v is None or type(v) in (str, int, float, bool) for v in values):
        raise Unsupported("enum of containers")
    allowed = frozenset((type(v), v) for v in values)
    return lambda x: type(x) in (str, int, float, bool, type(None)) and (type(x), x) in allowed


def _count(v: Any) -> int:
    if type(v) is not int or v < 0:
        raise Unsupported(v)
    return v


def _bound(v: Any) -> float | int:
    if type(v) not in _NUMBER:
        raise Unsupported(v)
    return v


def _numeric(s: dict[str, Any]) -> list[Check]:
    out: list[Check] = []
    if "minimum" in s:
        lo = _bound(s["minimum"])
        out.append(lambda x: type(x) not in _NUMBER or x >= lo)
    if "maximum" in s:
        hi = _bound(s["maximum"])
        out.append(lambda x: type(x) not in _NUMBER or x <= hi)
    if "exclusiveMinimum" in s:
        xlo = _bound(s["exclusiveMinimum"])
        out.append(lambda x: type(x) not in _NUMBER or x > xlo)
    if "exclusiveMaximum" in s:
        xhi = _bound(s["exclusiveMaximum"])
        out.append(lambda x: type(x) not in _NUMBER or x < xhi)
    return out


def _string(s: dict[str, Any]) -> list[Check]:
    out: list[Check] = []
    if "minLength" in s:
        lo = _count(s["minLength"])
        out.append(lambda x: type(x) is not str or len(x) >= lo)
    if "maxLength" in s:
        hi = _count(s["maxLength"])
        out.append(lambda x: type(x) is not str or len(x) <= hi)
    if "pattern" in s:
        if not isinstance(s["pattern"], str):
            raise Unsupported("pattern")
        try:
            search = re.compile(s["pattern"]).search
        except re.error as e:
            raise Unsupported("pattern") from e
        out.append(lambda x: type(x) is not str or search(x) is not None)
    return out
