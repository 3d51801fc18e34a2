"""Schemas of the scenario's value kinds and shared mappings (durations,
sizes, names, CPU lists, priorities, reservations, counts, exec), for
schemas/gen_scenario_schema.py; docs/scenario.md is the prose reference."""
from schema_pieces import *  # noqa: F401,F403 (the constructors and patterns)

POLICIES = ["fifo", "rr", "other", "batch", "idle"]   # runner/scenario/resolve_values.c


def value_defs(reg):
    """$defs of the value kinds; priority levels come from `hgrun list --json`."""
    PRIORITY_LEVELS = {p["name"]: p["summary"] for p in reg["priorities"]}
    defs = {}
    def text(pattern, description, examples):
        return {"type": "string", "pattern": pattern, "description": description,
                "examples": examples}

    defs["duration"] = text(DURATION, "A duration: a number with a unit ns, us, ms, s, m, h or "
                            "d, no space, no sign, no exponent, at most 1 ns precision (87.0us, "
                            "1.5s, 3m).", ["5ms", "87.0us", "1.5s", "3m"])
    defs["positive_duration"] = text(POSITIVE_DURATION, "A duration greater than zero (ns, us, "
                                     "ms, s, m, h, d: 5ms, 1.5s, 24h).", ["5ms", "1.5s"])
    defs["size"] = text(SIZE, "A size: a number with a unit B, KiB, MiB, GiB (powers of 1024) "
                        "or KB, MB, GB (powers of 1000), no space (64KiB, 1.5MiB).",
                        ["4KiB", "64KiB", "1MiB", "128MiB"])
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
    return defs
