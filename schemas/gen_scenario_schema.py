#!/usr/bin/env python3
"""Writes schemas/scenario.schema.json, the JSON Schema (draft 2020-12) of the
hgrun scenario format, version 1 (docs/scenario.md is the prose reference).

The schema is generated because JSON Schema has no case-insensitive enums
and no numeric ranges inside strings: both become regular expressions here
([Ss][Ll][Ee][Ee][Pp], 0*(?:[1-9][0-9]?|10[0-2][0-9]|...)), written in the
subset that ECMAScript (editors) and Python's re (tests) read alike.

    python3 schemas/gen_scenario_schema.py          # rewrite the schema
    python3 schemas/gen_scenario_schema.py --check  # exit 1 if it is stale
"""
import json
import pathlib
import sys

OUT = pathlib.Path(__file__).resolve().parent / "scenario.schema.json"

# ---- the format as data ---------------------------------------------------

PRIORITY_LEVELS = {
    "IDLE": "SCHED_IDLE: runs only when nothing else wants the CPU",
    "LOW": "SCHED_OTHER, nice 10",
    "NORMAL": "SCHED_OTHER, nice 0 (the default)",
    "HIGH": "SCHED_OTHER, nice -10",
    "HIGHEST": "SCHED_OTHER, nice -20",
    "RTLOW": "SCHED_FIFO 1 (bottom of the range)",
    "RTMED": "SCHED_FIFO 50 (middle of the range)",
    "RTHIGH": "SCHED_FIFO 98 (top; 99 is left to hgrun's watchdog)",
}
POLICIES = ["fifo", "rr", "other", "batch", "idle"]
TIMERS = {
    "sleep": "relative clock_nanosleep on CLOCK_MONOTONIC (the paper's NATIVE usleep)",
    "absolute": "clock_nanosleep on CLOCK_MONOTONIC with TIMER_ABSTIME (the paper's HR; the default)",
    "timerfd": "a timerfd on CLOCK_MONOTONIC, armed at each absolute release",
    "signal": "a POSIX timer delivering a signal to the thread (Abeni's itimer)",
    "spin": "busy-waits on the cycle counter (no sleep at all)",
}
# workload type -> (parameters it takes, parameters it needs, blocks on its timer)
WORKLOADS = {
    "cpu": ([], [], False),
    "cpu_scan": (["working_set", "pattern"], ["working_set"], False),
    "cpu_yield": (["yield_after"], ["yield_after"], False),
    "cpu_scan_yield": (["working_set", "yield_after", "pattern"], ["working_set", "yield_after"],
                       False),
    "periodic": (["exec", "period"], ["exec", "period"], True),
    "cpu_periodic": (["exec", "period"], ["exec", "period"], False),
    "latency": (["period", "align"], ["period"], True),
}
WORKLOAD_PARAMS = ["exec", "period", "working_set", "yield_after", "align", "pattern"]
# load type -> (parameters it takes, parameters it needs)
LOADS = {
    "cpu": (["workers"], []),
    "memory": (["size", "workers"], ["size"]),
    "io": (["size", "dir", "workers"], ["size"]),
    "fork": (["workers", "population"], []),
    "procfs": (["workers"], []),
    "tcp_stream": (["connect", "listen"], []),
    "exec": (["command"], ["command"]),
}
LOAD_PARAMS = ["workers", "size", "dir", "connect", "listen", "command", "population"]
METRICS = {
    "deadline_miss_ratio": "deadlines_missed / releases, in 0..1 (periodic, cpu_periodic)",
    "deadlines_missed": "periods whose job did not finish in time (periodic, cpu_periodic)",
    "deadlines_hit": "periods whose job finished in time (periodic, cpu_periodic)",
    "releases": "jobs released (periodic, cpu_periodic)",
    "latency_max_ns": "worst wake-up lateness (latency)",
    "latency_mean_ns": "mean wake-up lateness (latency)",
    "latency_p50_ns": "median wake-up lateness (latency)",
    "latency_p99_ns": "99th percentile wake-up lateness (latency)",
    "latency_p999_ns": "99.9th percentile wake-up lateness (latency)",
    "cpu_ns": "CPU time received, the sum of the thread's intervals",
    "gaps": "gaps seen in the thread's execution",
    "intervals": "intervals of continuous CPU",
    "records_dropped": "intervals lost to a full ring (the streaming writer fell behind)",
    "work_units": "cache lines touched (cpu_scan, cpu_scan_yield)",
}
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


def build():
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
    defs["timer_type"] = choice(TIMERS, "What a periodic or latency thread sleeps on: " + "; ".join(
        f"{k}: {v}" for k, v in TIMERS.items()) + ". Default absolute.", default="absolute")
    defs["timer"] = {
        "description": "What a periodic or latency thread sleeps on: a timer name, or "
                       "{type, tick, slack}. Setting it in a thread whose workload never "
                       "sleeps is an error. A thread's timer replaces the default one whole.",
        "anyOf": [
            ref("timer_type"),
            {
                "type": "object",
                "properties": {
                    "type": ref("timer_type"),
                    "tick": ref("duration", "Emulates a tick-based kernel: every wake-up is "
                                "rounded up to the next multiple of tick on CLOCK_MONOTONIC "
                                "(10ms: Linux 2.4's jiffies, 1ms: HZ=1000); lateness is "
                                "still measured from the unrounded release. 0 or 1us..1s. "
                                "Default 0 (none).", examples=["10ms", "1ms"]),
                    "slack": ref("duration", "The kernel's timer slack (PR_SET_TIMERSLACK) "
                                 "for this thread: how late the kernel may fire its "
                                 "clock_nanosleep wake-ups to batch them. SCHED_OTHER, BATCH "
                                 "and IDLE threads with type sleep or absolute only (real-time "
                                 "threads get none). At most 1s. Default: 1ns (the minimum).",
                                 examples=["50us"]),
                },
                "additionalProperties": False,
            },
        ],
        "default": "absolute",
    }
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
        "type": choice(WORKLOADS, "Thread execution model (Hourglass section 3.2): cpu, "
                       "cpu_scan {working_set, pattern?}, cpu_yield {yield_after}, cpu_scan_yield "
                       "{working_set, yield_after, pattern?}, periodic {exec, period}, cpu_periodic "
                       "{exec, period}, latency {period, align?}. Default cpu.",
                       default="cpu"),
        "exec": ref("exec"),
        "period": ref("positive_duration", "Period of periodic, cpu_periodic and latency "
                      "threads, at least 10us.", examples=["5ms", "1ms"]),
        "working_set": ref("size", "Array scanned by cpu_scan and cpu_scan_yield, at least "
                           "64B.", examples=["32KiB"]),
        "yield_after": ref("positive_duration", "CPU time received between yields (cpu_yield, "
                           "cpu_scan_yield).", examples=["0.9ms"]),
        "align": choice(["relative", "absolute"], "latency only: relative (the next wake-up "
                        "is a period after the actual one, as Hourglass did) or absolute (on "
                        "a fixed grid of releases). Default relative.", default="relative"),
        "pattern": choice(["sequential", "random"], "cpu_scan and cpu_scan_yield only: "
                          "sequential (lines in address order; the prefetcher hides memory) "
                          "or random (one random cycle through every line, one dependent "
                          "load each: the rate falls with the working set). Default "
                          "sequential.", default="sequential"),
    }
    per_type = []
    for wtype, (takes, _needs, _blocks) in WORKLOADS.items():
        others = [p for p in WORKLOAD_PARAMS if p not in takes]
        per_type.append({"if": type_is([wtype]), "then": {"properties": forbid(others)}})
    defs["workload"] = {
        "type": "object",
        "description": "What the thread does, `type` plus that type's parameters (a parameter "
                       "of another type is an error). Missing keys come from defaults.workload.",
        "properties": wl_props,
        "additionalProperties": False,
        "allOf": per_type,
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
    nonblocking = [w for w, (_, _, blocks) in WORKLOADS.items() if not blocks]
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
        "type": choice(LOADS, "Background load: cpu {workers}, memory {size, workers}, io "
                       "{size, dir, workers}, fork {workers, population}, procfs {workers}, tcp_stream "
                       "{connect | listen}, exec {command}."),
        "start": ref("duration", "When the load starts. Default 0s; start < stop.",
                     default="0s"),
        "stop": ref("duration", "When the load is stopped. Default: the run's duration; "
                    "stop <= duration."),
        "priority": ref("priority"),
        "cpus": ref("cpus"),
        "workers": uint(0, 1024, "Worker processes. cpu: 0..1024, 0 (the default) means one "
                        "per CPU the load may use; other types: 1..1024, default 1."),
        "size": ref("size", "memory: buffer streamed over (mapped and unmapped); io: bytes "
                    "written, fsynced and read back per file. At least 4KiB.",
                    examples=["128MiB"]),
        "dir": {"type": "string", "minLength": 1,
                "description": "io: the files go in a fresh directory under dir. Default /var/tmp."},
        "connect": {"type": "string",
                    "pattern": f"^.+:{int_range(1, 65535)}$",
                    "description": "tcp_stream: send to a remote sink host:port instead of "
                                   "the loopback receiver.",
                    "examples": ["192.0.2.7:5001"]},
        "listen": uint(1, 65535, "tcp_stream: receive a stream from a remote sender on this "
                       "port instead of the loopback sender."),
        "population": uint(1, 4096, "fork: keep this many children alive (each sleeps "
                           "50-150 ms, exits and is replaced at once), shared among the workers "
                           "(population >= workers). Default: none (a fork/exit storm)."),
        "command": {"type": "string", "minLength": 1,
                    "description": "exec: a shell command line, run with /bin/sh -c, output "
                                   "captured, killed at stop."},
    }
    lrules = []
    for ltype, (takes, needs) in LOADS.items():
        then = {"properties": forbid([p for p in LOAD_PARAMS if p not in takes])}
        if ltype != "cpu" and "workers" in takes:
            then["properties"]["workers"] = {"not": {"anyOf": [{"const": 0},
                                                             {"type": "string", "pattern": "^0+$"}]}}
        if needs:
            then["required"] = needs
        lrules.append({"if": type_is([ltype]), "then": then})
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
        "timer": ref("timer_type"), "timer.type": ref("timer_type"),
        "timer.tick": ref("duration"), "timer.slack": ref("duration"),
        "start": ref("duration"), "finish": ref("duration"),
        "workload.type": ref("workload/properties/type"),
        "workload.exec": ref("positive_duration"),
        "workload.exec.min": ref("duration"), "workload.exec.max": ref("duration"),
        "workload.exec.mean": ref("duration"), "workload.exec.stddev": ref("duration"),
        "workload.exec.seed": ref("exec_distribution/properties/seed"),
        "workload.period": ref("positive_duration"),
        "workload.working_set": ref("size"),
        "workload.yield_after": ref("positive_duration"),
        "workload.align": ref("workload/properties/align"),
        "workload.pattern": ref("workload/properties/pattern"),
    }
    lkeys = {
        "start": ref("duration"), "stop": ref("duration"), "priority": scalar,
        "cpus": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
        "workers": ref("load/properties/workers"), "size": ref("size"),
        "dir": ref("load/properties/dir"), "connect": ref("load/properties/connect"),
        "listen": ref("load/properties/listen"), "command": ref("load/properties/command"),
    }

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
    for param in ["exec", "period", "working_set", "yield_after"]:
        types = [w for w, (_, needs, _) in WORKLOADS.items() if param in needs]
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
    for wtype, (takes, _needs, _blocks) in WORKLOADS.items():
        others = forbid([p for p in WORKLOAD_PARAMS if p not in takes])
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
    text = json.dumps(build(), indent=2) + "\n"
    if "--check" in sys.argv[1:]:
        if OUT.read_text() != text:
            print(f"{OUT} is stale: run {sys.argv[0]}", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
