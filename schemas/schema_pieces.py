"""The pieces schemas/gen_scenario_schema.py builds the scenario schema
from: regular expressions of the value kinds (JSON Schema has no
case-insensitive enums and no numeric ranges inside strings), small schema
constructors, and the schema of a plugin parameter from its row in
`hgrun list --json` (runner/plan/param.h)."""

MAX_CPU = 1023          # CPU_SETSIZE - 1
OS_NAME_MAX = 15        # Linux thread names: 15 characters

# ---- regular expressions ----------------------------------------------------


def ci(word):
    """A case-insensitive regular expression of one word: [Ss][Ll]..."""
    return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else c for c in word)


def ci_alternatives(words):
    return "^(?:" + "|".join(ci(w) for w in words) + ")$"


def _same_length(a, b):
    """Alternatives matching the decimal numbers a..b, both of the same length."""
    if len(a) == 1:
        return [a if a == b else f"[{a}-{b}]"]
    if a[0] == b[0]:
        return [a[0] + _group(_same_length(a[1:], b[1:]))]
    n = len(a) - 1
    out = []
    if a[1:] == "0" * n and b[1:] == "9" * n:
        return [f"[{a[0]}-{b[0]}][0-9]{{{n}}}" if n > 1 else f"[{a[0]}-{b[0]}][0-9]"]
    out.append(a[0] + _group(_same_length(a[1:], "9" * n)))
    lo, hi = int(a[0]) + 1, int(b[0]) - 1
    if lo <= hi:
        first = str(lo) if lo == hi else f"[{lo}-{hi}]"
        out.append(first + ("[0-9]" if n == 1 else f"[0-9]{{{n}}}"))
    out.append(b[0] + _group(_same_length("0" * n, b[1:])))
    return out


def _group(alts):
    return alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"


def int_range(lo, hi):
    """A regular expression (unanchored group) of the integers lo..hi >= 0
    written in decimal, leading zeros allowed (hgrun parses with strtoull)."""
    alts = []
    for length in range(len(str(lo)), len(str(hi)) + 1):
        a = max(lo, 10 ** (length - 1) if length > 1 else 0)
        b = min(hi, 10 ** length - 1)
        if a <= b:
            alts += _same_length(str(a), str(b))
    return "0*(?:" + "|".join(alts) + ")"


def cpu_list_pattern():
    """'0-3,6': CPU numbers and ranges, each range written low-high (hgrun
    refuses '3-1'). Ordering is checked digit by digit with backreferences to
    a common prefix; CPU numbers have at most 4 significant digits."""
    def item(g):                       # g: number of the next capture group
        sig = "(?:0|[1-9][0-9]{0,3})"
        alts = ["0*" + sig]           # a single CPU
        # a shorter low end is smaller: 7-12, 99-100
        for la in range(1, 4):
            s = "[0-9]" if la == 1 else f"[1-9][0-9]{{{la - 1}}}"
            alts.append(f"0*{s}-0*[1-9][0-9]{{{la},3}}")
        # the same number twice: 5-5
        alts.append(f"0*({sig})-0*\\{g}")
        g += 1
        # same length, first difference at digit k: 12-15, 100-199
        for length in range(1, 5):
            for k in range(length):
                m = length - k - 1
                tail = f"[0-9]{{{m}}}" if m > 1 else ("[0-9]" if m == 1 else "")
                if k == 0:
                    prefix, ref = "", ""
                else:
                    prefix = "([1-9]" + (f"[0-9]{{{k - 1}}}" if k > 2 else "[0-9]" * (k - 1)) + ")"
                    ref = f"\\{g}"
                    g += 1
                lowest = 1 if (k == 0 and length > 1) else 0
                pairs = [f"{x}{tail}-0*{ref}[{x + 1}-9]" for x in range(lowest, 9)]
                alts.append(f"0*{prefix}(?:" + "|".join(pairs) + f"){tail}")
        return "(?:" + "|".join(alts) + ")", g

    first, g = item(1)
    more, _ = item(g)
    return f"^{first}(?:,{more})*,?$"


DURATION = r"^[0-9]+(\.[0-9]+)?(ns|us|ms|s|m|h|d)$"
POSITIVE_DURATION = r"^(?![0.]+(ns|us|ms|s|m|h|d)$)[0-9]+(\.[0-9]+)?(ns|us|ms|s|m|h|d)$"
SIZE = r"^[0-9]+(\.[0-9]+)?(B|KiB|MiB|GiB|KB|MB|GB)$"
NAME = f"^[A-Za-z0-9_-]{{1,{OS_NAME_MAX}}}$"
NUMBER = r"^[0-9]+(\.[0-9]+)?$"
RATIO = r"^(?:0+(\.[0-9]+)?|0*1(\.0+)?)$"

# ---- schema pieces -------------------------------------------------------------


def ref(name, description=None, **extra):
    s = {"$ref": f"#/$defs/{name}"}
    if description:
        s["description"] = description
    s.update(extra)
    return s


def choice(values, description, default=None):
    """A case-insensitive enum: the canonical spellings (for completion) or
    any other case of them."""
    s = {
        "description": description,
        "anyOf": [
            {"enum": list(values)},
            {"type": "string", "pattern": ci_alternatives(values)},
        ],
    }
    if default is not None:
        s["default"] = default
    return s


def uint(lo, hi, description, default=None, examples=None):
    """An integer in lo..hi, also accepted quoted ("4"), as hgrun reads text."""
    s = {
        "description": description,
        "anyOf": [
            {"type": "integer", "minimum": lo, "maximum": hi},
            {"type": "string", "pattern": f"^{int_range(lo, hi)}$"},
        ],
    }
    if default is not None:
        s["default"] = default
    if examples:
        s["examples"] = examples
    return s


def forbid(keys):
    return {k: False for k in keys}


def type_is(values):
    """A subschema: `type` is present and names one of values (any case)."""
    return {"required": ["type"], "properties": {"type": {"pattern": ci_alternatives(values)}}}


def param_schema(p):
    """The JSON Schema of one parameter, from its row in `hgrun list --json`."""
    bits = [p["help"]]
    if p["range"]:
        bits.append(p["range"])
    if p["default"] is not None:
        bits.append(f"default {p['default']}")
    description = "; ".join(bits) + "."
    kind = p["kind"]
    if kind == "duration":
        s = ref("positive_duration" if p["min"] else "duration", description)
    elif kind == "size":
        s = ref("size", description)
    elif kind == "integer":
        s = uint(p["min"], p["max"], description)
    elif kind == "enum":
        s = choice(p["choices"], description)
    elif kind == "bool":
        s = {"description": description,
             "anyOf": [{"type": "boolean"},
                       {"type": "string", "pattern": ci_alternatives(["true", "false"])}]}
    elif kind == "string":
        s = {"type": "string", "minLength": p["min"], "description": description}
    elif kind == "endpoint":
        s = {"type": "string", "pattern": f"^.+:{int_range(1, 65535)}$",
             "description": description, "examples": ["192.0.2.7:5001"]}
    elif kind == "exec":
        s = ref("exec", description)
    elif kind == "args":
        scalar = {"type": ["string", "number", "boolean"]}
        s = {"description": description,
             "anyOf": [{"type": "object", "propertyNames": {"pattern": "^[^-]"},
                        "additionalProperties": scalar},
                       {"type": "array", "items": {"type": ["string", "number"]},
                        "maxItems": 128}],
             "examples": [{"vm-bytes": "1G", "vm-keep": True}, ["--vm-bytes", "1G"]]}
    else:
        raise SystemExit(f"gen_scenario_schema.py: unknown parameter kind {kind!r}")
    if p["default"] is not None and kind in ("enum", "integer"):
        s["default"] = int(p["default"]) if kind == "integer" else p["default"]
    return s


def union_props(plugins):
    """key -> schema accepted by some plugin: one schema when every plugin
    that takes the key declares it alike, else any of their schemas."""
    seen = {}
    for plugin in plugins:
        for p in plugin["params"]:
            variants = seen.setdefault(p["name"], [])
            schema = param_schema(p)
            if schema not in variants:
                variants.append(schema)
    out = {}
    for key, variants in seen.items():
        takers = [pl["name"] for pl in plugins if any(q["name"] == key for q in pl["params"])]
        if len(variants) == 1:
            out[key] = dict(variants[0])
            out[key]["description"] = f"{', '.join(takers)}: " + variants[0]["description"]
        else:
            out[key] = {"description": f"{', '.join(takers)}: see each type.", "anyOf": variants}
    return out


def per_type_rules(plugins, all_keys, required_here):
    """For each type: its own schema of each key, the keys of other types
    forbidden, and (required_here) its required keys."""
    rules = []
    for plugin in plugins:
        mine = {p["name"]: param_schema(p) for p in plugin["params"]}
        then = {"properties": {**forbid([k for k in all_keys if k not in mine]), **mine}}
        needs = [p["name"] for p in plugin["params"] if p["required"]]
        if required_here and needs:
            then["required"] = needs
        rules.append({"if": type_is([plugin["name"]]), "then": then})
    return rules


def type_summary(plugins):
    return "; ".join(
        plugin["name"] + (" {" + ", ".join(p["name"] + ("" if p["required"] else "?")
                                            for p in plugin["params"]) + "}"
                          if plugin["params"] else "") + ": " + plugin["summary"]
        for plugin in plugins)
