#!/usr/bin/env python3
"""Writes schemas/scenario.schema.json, the JSON Schema (draft 2020-12) of the
hgrun scenario format, version 1 (docs/scenario.md is the prose reference).

The schema is generated because JSON Schema has no case-insensitive enums
and no numeric ranges inside strings: both become regular expressions here
([Ss][Ll][Ee][Ee][Pp], 0*(?:[1-9][0-9]?|10[0-2][0-9]|...)), written in the
subset that ECMAScript (editors) and Python's re (tests) read alike.

The workloads, timers, loads, their parameters (kind, range, default,
required, help), priority levels and metrics are read from the runner's own
tables through `hgrun list --json`, so a parameter is declared once, in its
plugin's file (runner/README.md, "Adding a parameter").

    python3 schemas/gen_scenario_schema.py          # rewrite the schema
    python3 schemas/gen_scenario_schema.py --check  # exit 1 if it is stale
    (--hgrun PATH: the hgrun to ask; default build/hgrun)
"""
import argparse
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "schemas" / "scenario.schema.json"

# ---- the format as data ---------------------------------------------------
# Workloads, timers, loads (with their parameters), priority levels and
# metrics come from the runner itself (`hgrun list --json`: each plugin's
# parameter table, runner/plan/param.h); the rest of the format is below.

POLICIES = ["fifo", "rr", "other", "batch", "idle"]   # runner/scenario/resolve_values.c


def load_registry(hgrun):
    out = subprocess.run([str(hgrun), "list", "--json"], check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out)


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


def build(reg):
    WORKLOADS = {w["name"]: w for w in reg["workloads"]}
    PRIORITY_LEVELS = {p["name"]: p["summary"] for p in reg["priorities"]}
    TIMERS = {t["name"]: t["summary"] for t in reg["timers"]}
    METRICS = {m["name"]: m["summary"] for m in reg["metrics"]}
    wl_keys = list(union_props(reg["workloads"]))
    load_keys = list(union_props(reg["loads"]))
    defs = {}
    defs["duration"] = {
        "type": "string",
        "pattern": DURATION,
        "description": "A duration: a number with a unit ns, us, ms, s, m, h or d, no space, no sign, "
                       "no exponent, at most 1 ns precision (87.0us, 1.5s, 3m).",
        "examples": ["5ms", "87.0us", "1.5s", "3m"],
    }
    defs["positive_duration"] = {
        "type": "string",
        "pattern": POSITIVE_DURATION,
        "description": "A duration greater than zero (ns, us, ms, s, m, h, d: 5ms, 1.5s, 24h).",
        "examples": ["5ms", "1.5s"],
    }
    defs["size"] = {
        "type": "string",
        "pattern": SIZE,
        "description": "A size: a number with a unit B, KiB, MiB, GiB (powers of 1024) or KB, MB, "
                       "GB (powers of 1000), no space (64KiB, 1.5MiB).",
        "examples": ["4KiB", "64KiB", "1MiB", "128MiB"],
    }
    defs["name"] = {
        "description": "A thread-set or load name: 1 to 15 letters, digits, '_' or '-'. It becomes "
                       "the OS thread name (name.N for numbered instances, 15 characters at most).",
        "anyOf": [
            {"type": "string", "pattern": NAME},
            # unquoted 2024 or yes are numbers and booleans to YAML 1.1 parsers
            {"type": "integer", "minimum": -99999999999999, "maximum": 999999999999999},
            {"type": "boolean"},
        ],
        "examples": ["audio", "video", "rt", "hog"],
    }
    defs["cpus"] = {
        "description": "CPU affinity: a list of CPU numbers [0, 1] or a string of numbers and "
                       "low-high ranges \"0-3,6\". Default: every online CPU. A CPU the machine "
                       "lacks is an error of `run`, not of `validate`.",
        "anyOf": [
            {
                "type": "array",
                "minItems": 1,
                "uniqueItems": True,
                "items": uint(0, MAX_CPU, "A CPU number, 0..1023."),
            },
            {"type": "string", "pattern": cpu_list_pattern()},
            {"type": "integer", "minimum": 0, "maximum": MAX_CPU},
        ],
        "examples": [[0], [0, 1], "0-1", "0,2-3"],
    }
    defs["priority"] = {
        "description": "Scheduling priority: a named level (IDLE LOW NORMAL HIGH HIGHEST RTLOW "
                       "RTMED RTHIGH, any case), or {policy: fifo|rr, priority: 1..98} or "
                       "{policy: other|batch, nice: -20..19} or {policy: idle}. Default NORMAL.",
        "anyOf": [
            choice(PRIORITY_LEVELS, "A named priority level: " + "; ".join(
                f"{k}: {v}" for k, v in PRIORITY_LEVELS.items()) + "."),
            ref("priority_mapping"),
        ],
        "default": "NORMAL",
    }
    rt = ci_alternatives(["fifo", "rr"])
    niced = ci_alternatives(["other", "batch"])
    defs["priority_mapping"] = {
        "type": "object",
        "description": "An explicit policy: fifo/rr take `priority: 1..98`, other/batch take "
                       "`nice: -20..19` (default 0), idle takes neither.",
        "properties": {
            "policy": choice(POLICIES, "Scheduling policy: fifo (SCHED_FIFO), rr (SCHED_RR), "
                             "other (SCHED_OTHER), batch (SCHED_BATCH), idle (SCHED_IDLE)."),
            "priority": uint(1, 98, "Real-time priority of fifo/rr, 1..98 (99 is hgrun's "
                             "watchdog)."),
            "nice": {
                "description": "Nice value of other/batch, -20..19 (default 0).",
                "anyOf": [
                    {"type": "integer", "minimum": -20, "maximum": 19},
                    {"type": "string",
                     "pattern": f"^(?:\\+?{int_range(0, 19)}|-{int_range(0, 20)})$"},
                ],
                "default": 0,
            },
        },
        "required": ["policy"],
        "additionalProperties": False,
        "allOf": [
            {"if": {"properties": {"policy": {"pattern": rt}}},
             "then": {"required": ["priority"], "properties": {"nice": False}},
             "else": {"properties": {"priority": False}}},
            {"if": {"properties": {"policy": {"pattern": niced}}},
             "else": {"properties": {"nice": False}}},
        ],
    }
    defs["reservation"] = {
        "type": "object",
        "description": "A CPU reservation (SCHED_DEADLINE): `budget` of CPU in every `period`, "
                       "by `deadline`. Rule: 1.024us <= budget <= deadline <= period. A thread "
                       "has a reservation or an explicit priority, not both.",
        "properties": {
            "budget": ref("positive_duration", "CPU time reserved per period (SCHED_DEADLINE "
                          "runtime), at least 1.024us.", examples=["3.1ms"]),
            "period": ref("positive_duration", "Reservation period.", examples=["8ms"]),
            "deadline": ref("positive_duration", "Relative deadline, budget <= deadline <= "
                            "period. Default: the period."),
            "mode": choice(["hard", "soft"], "hard: the thread is throttled once its budget "
                           "is spent; soft: it may also use spare CPU time (reclaiming). "
                           "Default hard.", default="hard"),
        },
        "required": ["budget", "period"],
        "additionalProperties": False,
    }
    defs["timer"] = choice(TIMERS, "What a periodic or latency thread sleeps on: " + "; ".join(
        f"{k}: {v}" for k, v in TIMERS.items()) + ". Default absolute. Setting it in a thread "
        "whose workload never sleeps is an error.", default="absolute")
    defs["count"] = {
        "description": "Instances in the thread set: 1..1024, or per_cpu (one pinned instance "
                       "per CPU of `cpus`). Instances are named name.0 .. name.N-1 whenever "
                       "count is given. Default 1.",
        "anyOf": [
            uint(1, 1024, "A number of instances, 1..1024."),
            {"type": "string", "pattern": ci_alternatives(["per_cpu"]),
             "description": "One instance per CPU, each pinned to its CPU."},
        ],
        "default": 1,
        "examples": [1, 10, "per_cpu"],
    }
    dur_items = {"type": "array", "minItems": 1, "items": ref("positive_duration"),
                 "description": "Execution times cycled job by job (like MPEG frame types)."}
    defs["exec"] = {
        "description": "CPU time each job must RECEIVE (measured from the gap trace): a "
                       "duration, a list of durations cycled per job, or a distribution "
                       "{dist: uniform, min, max} / {dist: normal, mean, stddev, min?, max?} "
                       "with an optional integer seed. Every value (the max) <= period.",
        "anyOf": [ref("positive_duration"), dur_items, ref("exec_distribution")],
        "examples": ["4ms", ["6ms", "2ms", "2ms"], {"dist": "uniform", "min": "2ms", "max": "3ms"}],
    }
    defs["exec_distribution"] = {
        "type": "object",
        "description": "Execution times drawn per job: uniform in [min, max], or normal "
                       "(mean, stddev) clipped to [min, max].",
        "properties": {
            "dist": choice(["uniform", "normal"], "The distribution."),
            "min": ref("duration", "Smallest execution time (required for uniform)."),
            "max": ref("duration", "Largest execution time (required for uniform); must "
                       "be <= period."),
            "mean": ref("duration", "Mean (normal only)."),
            "stddev": ref("duration", "Standard deviation (normal only)."),
            "seed": {
                "description": "Seed of the pseudo-random generator (default 1), an integer "
                               "0..2^64-1.",
                "anyOf": [{"type": "integer", "minimum": 0, "maximum": 18446744073709551615},
                          {"type": "string", "pattern": "^[0-9]{1,20}$"}],
                "default": 1,
            },
        },
        "required": ["dist"],
        "additionalProperties": False,
        "allOf": [
            {"if": {"properties": {"dist": {"pattern": ci_alternatives(["uniform"])}}},
             "then": {"required": ["min", "max"],
                      "properties": {"mean": False, "stddev": False}}},
            {"if": {"properties": {"dist": {"pattern": ci_alternatives(["normal"])}}},
             "then": {"required": ["mean", "stddev"]}},
        ],
    }
    wl_props = {
        "type": choice(WORKLOADS, "Thread execution model (Hourglass section 3.2), with its "
                       "keys ('?' optional): " + type_summary(reg["workloads"])
                       + ". Default cpu.", default="cpu"),
        **union_props(reg["workloads"]),
    }
    defs["workload"] = {
        "type": "object",
        "description": "What the thread does, `type` plus that type's parameters (a parameter "
                       "of another type is an error). Missing keys come from defaults.workload.",
        "properties": wl_props,
        "additionalProperties": False,
        "allOf": per_type_rules(reg["workloads"], wl_keys, False),
    }
    defs["defaults_workload"] = {
        "type": "object",
        "description": "Workload keys applied one by one to threads that do not set them; a "
                       "parameter that does not belong to a thread's type is ignored there.",
        "properties": wl_props,
        "additionalProperties": False,
    }

    def thread_props(workload_ref):
        return {
            "count": ref("count"),
            "cpus": ref("cpus"),
            "priority": ref("priority"),
            "reservation": ref("reservation"),
            "timer": ref("timer"),
            "start": ref("duration", "When the thread starts measuring, from the run's start "
                         "(Hourglass -s). Default 0s; start < finish.", default="0s"),
            "finish": ref("duration", "When the thread stops (Hourglass -f). Default: the "
                          "run's duration; finish <= duration."),
            "workload": ref(workload_ref),
        }

    props = {"name": ref("name", "Thread-set name, unique among threads: 1 to 15 of "
                         "A-Z a-z 0-9 _ -; with count, name.N-1 must fit 15 characters "
                         "(at most 12 characters leaves room for 100 instances).")}
    props.update(thread_props("workload"))
    nonblocking = [w["name"] for w in reg["workloads"] if not w["blocks"]]
    name_by_count = []
    for lo, hi, limit in [(1, 10, 13), (11, 100, 12), (101, 1000, 11), (1001, 1024, 10)]:
        name_by_count.append({
            "if": {"required": ["count"],
                   "properties": {"count": {"type": "integer", "minimum": lo, "maximum": hi}}},
            "then": {"properties": {"name": {"maxLength": limit}}},
        })
    defs["thread"] = {
        "type": "object",
        "description": "A thread set: `count` instances of one thread description.",
        "properties": props,
        "required": ["name"],
        "additionalProperties": False,
        "allOf": [
            {"not": {"required": ["reservation", "priority"]},
             "description": "A thread has a reservation or an explicit priority, not both."},
            {"if": {"required": ["timer", "workload"],
                    "properties": {"workload": type_is(nonblocking)}},
             "then": False,
             "description": "A timer on a workload that never sleeps has no effect: an error."},
        ] + name_by_count,
    }
    defs["defaults"] = {
        "type": "object",
        "description": "Settings applied to every thread that does not set the key itself "
                       "(Hourglass -a); workload keys merge one by one. Takes every thread key "
                       "except name. A thread's own priority overrides a default reservation.",
        "properties": thread_props("defaults_workload"),
        "additionalProperties": False,
    }

    lprops = {
        "name": ref("name", "Load name, unique among loads (same rules as thread names)."),
        "type": choice([ld["name"] for ld in reg["loads"]], "Background load, with its keys "
                       "('?' optional): " + type_summary(reg["loads"]) + "."),
        "start": ref("duration", "When the load starts. Default 0s; start < stop.",
                     default="0s"),
        "stop": ref("duration", "When the load is stopped. Default: the run's duration; "
                    "stop <= duration."),
        "priority": ref("priority"),
        "cpus": ref("cpus"),
        **union_props(reg["loads"]),
    }
    lrules = per_type_rules(reg["loads"], load_keys, True)
    # A rule across two keys of one load (tcp_stream's check hook) that a schema can say.
    lrules.append({"not": {"required": ["connect", "listen"]},
                   "description": "A tcp_stream connects or listens, not both."})
    defs["load"] = {
        "type": "object",
        "description": "Background load started and stopped on the run's timeline.",
        "properties": lprops,
        "required": ["name", "type"],
        "additionalProperties": False,
        "allOf": lrules,
    }

    ns_metrics = [m for m in METRICS if m.endswith("_ns")]
    number = {"anyOf": [{"type": "number", "minimum": 0},
                        {"type": "string", "pattern": NUMBER}]}
    ns_value = {"anyOf": [{"type": "number", "minimum": 0},
                          {"type": "string", "pattern": NUMBER},
                          ref("duration")]}
    ratio_value = {"anyOf": [{"type": "number", "minimum": 0, "maximum": 1},
                             {"type": "string", "pattern": RATIO}]}
    bound = "a number >= 0; for *_ns metrics also a duration (100us); deadline_miss_ratio in 0..1."
    defs["expect"] = {
        "type": "object",
        "description": "A pass/fail gate on one metric of one thread set (every instance): "
                       "exactly one of max or min. A failed expectation makes the run exit 1.",
        "properties": {
            "thread": ref("name", "The thread set, by name."),
            "metric": choice(METRICS, "The metric: " + "; ".join(
                f"{k}: {v}" for k, v in METRICS.items()) + "."),
            "max": {"description": "Upper bound, " + bound, "anyOf": ns_value["anyOf"]},
            "min": {"description": "Lower bound, " + bound, "anyOf": ns_value["anyOf"]},
        },
        "required": ["thread", "metric"],
        "additionalProperties": False,
        "oneOf": [{"required": ["max"]}, {"required": ["min"]}],
        "allOf": [
            {"if": {"properties": {"metric": {"pattern": ci_alternatives(ns_metrics)}}},
             "else": {"properties": {"max": number, "min": number}}},
            {"if": {"properties": {"metric": {"pattern": ci_alternatives(["deadline_miss_ratio"])}}},
             "then": {"properties": {"max": ratio_value, "min": ratio_value}}},
        ],
    }

    # sweep.grid: path -> schema of one swept value
    scalar = {"type": ["string", "number", "boolean"]}
    tkeys = {
        "count": ref("count"), "cpus": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
        "priority": scalar, "priority.policy": ref("priority_mapping/properties/policy"),
        "priority.priority": ref("priority_mapping/properties/priority"),
        "priority.nice": ref("priority_mapping/properties/nice"),
        "reservation.budget": ref("positive_duration"),
        "reservation.period": ref("positive_duration"),
        "reservation.deadline": ref("positive_duration"),
        "reservation.mode": ref("reservation/properties/mode"),
        "timer": ref("timer"), "start": ref("duration"), "finish": ref("duration"),
        "workload.type": ref("workload/properties/type"),
    }
    for key in wl_keys:
        if key == "exec":   # a swept exec is one duration, or one key of a distribution
            tkeys["workload.exec"] = ref("positive_duration")
            for sub in ("min", "max", "mean", "stddev"):
                tkeys[f"workload.exec.{sub}"] = ref("duration")
            tkeys["workload.exec.seed"] = ref("exec_distribution/properties/seed")
        else:
            tkeys[f"workload.{key}"] = ref(f"workload/properties/{key}")
    lkeys = {
        "start": ref("duration"), "stop": ref("duration"), "priority": scalar,
        "cpus": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
    }
    for key in load_keys:
        lkeys[key] = ref(f"load/properties/{key}")

    def axis(item, what):
        return {"type": "array", "minItems": 1, "items": item,
                "description": f"Values of {what}, one sweep point each."}

    bracket = r"\[[A-Za-z0-9_-]{1,15}\]\."
    pattern_props = {"^duration$": axis(ref("positive_duration"), "the run's duration")}
    for key, item in tkeys.items():
        pattern_props[f"^threads{bracket}{key.replace('.', chr(92) + '.')}$"] = axis(
            item, f"threads[NAME].{key}")
    for key, item in lkeys.items():
        pattern_props[f"^loads{bracket}{key.replace('.', chr(92) + '.')}$"] = axis(
            item, f"loads[NAME].{key}")
    defs["sweep"] = {
        "type": "object",
        "description": "Parameter sweep, used by `hgrun sweep` (ignored by `run`): the "
                       "cartesian product of the grid, each point run `repeat` times.",
        "properties": {
            "grid": {
                "type": "object",
                "description": "Swept path -> list of values. Paths: duration, "
                               "threads[NAME].key[.key], loads[NAME].key (NAME must exist). "
                               "In flow style ({...}) quote paths: they hold [ ].",
                "minProperties": 1,
                "patternProperties": pattern_props,
                "additionalProperties": False,
                "examples": [{"threads[audio].workload.exec": ["2ms", "3ms", "4ms"]}],
            },
            "repeat": uint(1, 1000, "Runs per grid point, 1..1000 (confidence intervals "
                           "need several). Default 1.", default=1),
        },
        "required": ["grid"],
        "additionalProperties": False,
    }

    # Parameters a thread's own workload type needs, unless defaults.workload has them.
    needs_rules = []
    required = [k for k in wl_keys
                if any(p["name"] == k and p["required"] for w in reg["workloads"] for p in w["params"])]
    for param in required:
        types = [w["name"] for w in reg["workloads"]
                 if any(p["name"] == param and p["required"] for p in w["params"])]
        needs_rules.append({
            "if": {"not": {"required": ["defaults"], "properties": {"defaults": {
                "required": ["workload"], "properties": {"workload": {"required": [param]}}}}}},
            "then": {"properties": {"threads": {"items": {
                "if": {"required": ["workload"], "properties": {"workload": type_is(types)}},
                "then": {"properties": {"workload": {"required": [param]}}}}}}},
            "description": f"Workload types {', '.join(types)} need '{param}' (in the thread "
                           "or in defaults.workload).",
        })
    # A thread workload without a type takes the type of defaults.workload, else cpu.
    for wtype, w in WORKLOADS.items():
        takes = [p["name"] for p in w["params"]]
        others = forbid([p for p in wl_keys if p not in takes])
        if wtype == "cpu":
            cond = {"not": {"required": ["defaults"], "properties": {"defaults": {
                "required": ["workload"], "properties": {"workload": {"required": ["type"]}}}}}}
        else:
            cond = {"required": ["defaults"], "properties": {"defaults": {
                "required": ["workload"], "properties": {"workload": type_is([wtype])}}}}
        needs_rules.append({
            "if": cond,
            "then": {"properties": {"threads": {"items": {
                "if": {"required": ["workload"],
                       "properties": {"workload": {"not": {"required": ["type"]}}}},
                "then": {"properties": {"workload": {"properties": others}}}}}}},
            "description": f"A thread workload without a type runs {wtype} "
                           + ("(no default type)" if wtype == "cpu" else "(the default type)")
                           + ", and takes only that type's parameters.",
        })
    # A thread that sets a timer but whose type is cpu by default.
    needs_rules.append({
        "if": {"not": {"required": ["defaults"], "properties": {"defaults": {
            "required": ["workload"], "properties": {"workload": {"required": ["type"]}}}}}},
        "then": {"properties": {"threads": {"items": {
            "if": {"required": ["timer"], "not": {"properties": {"workload": {
                "required": ["type"]}}, "required": ["workload"]}},
            "then": False}}}},
        "description": "A thread without a workload type runs cpu, which takes no timer.",
    })

    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://hgrun.invalid/schemas/scenario.schema.json",
        "title": "hgrun scenario, format version 1",
        "description": "A declarative real-time experiment for hgrun (a modern Hourglass). "
                       "Reference: docs/scenario.md. Rules across fields (exec <= period, "
                       "start < finish <= duration, unique names, expect names an existing "
                       "thread, ...) are checked by `hgrun validate`, not by this schema.",
        "type": "object",
        "properties": {
            "hgrun": {"description": "Format version, must be 1.", "enum": [1, "1"]},
            "name": {"anyOf": [{"type": "string", "pattern": "^[a-z0-9_-]{1,63}$"},
                               {"type": "integer"}, {"type": "boolean"}],
                     "description": "Scenario name, 1 to 63 of a-z 0-9 _ - (it names the "
                                    "results directory).",
                     "examples": ["rx_deadline"]},
            "description": {"type": ["string", "number", "boolean"],
                            "description": "Free text: what the scenario reproduces and "
                                           "which number to look at."},
            "duration": ref("positive_duration", "Length of the run, at least 1ms.",
                            examples=["20s", "60s", "6m"]),
            "trace": {
                "type": "object",
                "description": "Gap-trace and streaming settings (docs/results.md).",
                "properties": {
                    "records": uint(1, 100000000, "Ring between each thread and the streaming "
                                    "writer, in interval records, 1..100000000 (rounded up to "
                                    "a power of two). A full ring drops and counts. "
                                    "Default 65536.", default=65536),
                    "gap": {
                        "description": "Gap threshold: auto (from the measured loop cost) "
                                       "or a duration in 1ns..1s. Default auto.",
                        "anyOf": [{"enum": ["auto"]},
                                  {"type": "string", "pattern": ci_alternatives(["auto"])},
                                  ref("positive_duration")],
                        "default": "auto",
                    },
                    "mode": choice(["full", "outliers", "none"],
                                   "What reaches trace.bin and latency.bin: every record "
                                   "(full), windows around outliers (outliers), nothing "
                                   "(none). Default full.", default="full"),
                    "series": ref("positive_duration", "Series interval of series.jsonl, "
                                  "10ms..1d. Default 1s.", examples=["1s", "1m"]),
                    "outlier_gap": ref("positive_duration", "outliers: a gap longer than "
                                       "this opens a window, 1ns..1s. Default 500us."),
                    "outlier_latency": ref("positive_duration", "outliers: a wake-up later "
                                           "than this opens a window, 1ns..1s. Default 500us."),
                    "before": ref("duration", "outliers: the window starts this long before "
                                  "the trigger, 0s..1s. Default 5ms."),
                    "after": ref("duration", "outliers: the window ends this long after the "
                                 "trigger, 0s..1s. Default 5ms."),
                    "budget": ref("size", "At most this many bytes of trace.bin + latency.bin "
                                  "(at least 4KiB); then full switches to outliers, outliers "
                                  "to none. Default: the free disk.", examples=["10GB"]),
                    "kernel": {
                        "description": "Record the kernel's scheduling, IRQ, softirq, timer and "
                                       "IPI events on the scenario's CPUs through a tracefs "
                                       "instance of hgrun's own, and attribute each gap to a "
                                       "cause (docs/kernel-trace.md). Needs root; without it the "
                                       "run goes on with a warning (exit 4 with --strict). "
                                       "Default false.",
                        "anyOf": [{"type": "boolean"},
                                  {"type": "string",
                                   "pattern": ci_alternatives(["true", "false"])}],
                        "default": False,
                    },
                },
                "additionalProperties": False,
            },
            "lock_memory": {
                "description": "mlockall and pre-touch every buffer before measuring. "
                               "Default true.",
                "anyOf": [{"type": "boolean"},
                          {"type": "string", "pattern": ci_alternatives(["true", "false"])}],
                "default": True,
            },
            "cpu_dma_latency": {
                "description": "Hold /dev/cpu_dma_latency at this value (whole microseconds; "
                               "0us keeps CPUs out of deep idle states, as cyclictest does) "
                               "for the run. Default: leave the machine as it is.",
                "type": "string",
                "pattern": "^[0-9]+(\\.[0-9]+)?(ns|us|ms|s|m)$",
            },
            "defaults": ref("defaults"),
            "threads": {"type": "array", "minItems": 1, "items": ref("thread"),
                        "description": "Thread sets, at least one."},
            "loads": {"type": "array", "items": ref("load"),
                      "description": "Background loads."},
            "expect": {"type": "array", "items": ref("expect"),
                       "description": "Pass/fail expectations checked after the run."},
            "sweep": ref("sweep"),
        },
        "required": ["hgrun", "name", "duration", "threads"],
        "additionalProperties": False,
        "allOf": needs_rules,
        "$defs": defs,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the schema is stale")
    ap.add_argument("--hgrun", default=str(ROOT / "build" / "hgrun"),
                    help="the hgrun whose tables to read (default build/hgrun)")
    args = ap.parse_args()
    text = json.dumps(build(load_registry(args.hgrun)), indent=2) + "\n"
    if args.check:
        if OUT.read_text() != text:
            print(f"{OUT} is stale: the runner's parameter tables changed; run "
                  f"python3 schemas/gen_scenario_schema.py and commit the schema", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
