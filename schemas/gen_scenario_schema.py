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

from generated import write_or_check
from schema_pieces import *  # noqa: F401,F403 (the constructors and patterns)
from schema_values import value_defs

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "schemas" / "scenario.schema.json"

# ---- the format as data ---------------------------------------------------
# Workloads, timers, loads (with their parameters), priority levels and
# metrics come from the runner itself (`hgrun list --json`: each plugin's
# parameter table, runner/plan/param.h); the rest of the format is below.

def load_registry(hgrun):
    out = subprocess.run([str(hgrun), "list", "--json"], check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out)


def build(reg):
    WORKLOADS = {w["name"]: w for w in reg["workloads"]}
    TIMERS = {t["name"]: t["summary"] for t in reg["timers"]}
    METRICS = {m["name"]: m["summary"] for m in reg["metrics"] if m.get("expect", True)}
    wl_keys = list(union_props(reg["workloads"]))
    load_keys = list(union_props(reg["loads"]))
    defs = value_defs(reg)
    defs["timer_type"] = choice(TIMERS, "What a periodic or latency thread sleeps on, with its "
                                "keys ('?' optional): " + type_summary(reg["timers"])
                                + ". Default absolute.", default="absolute")
    timer_keys = list(union_props(reg["timers"]))
    # A mapping without a type is an absolute timer.
    untyped = {"if": {"not": {"required": ["type"]}},
               "then": {"properties": per_type_rules(
                   [t for t in reg["timers"] if t["name"] == "absolute"], timer_keys,
                   False)[0]["then"]["properties"]}}
    defs["timer"] = {
        "description": "What a periodic or latency thread sleeps on: a timer name, or "
                       "{type, KEY...} with the timer's keys. Setting it in a thread whose "
                       "workload never sleeps is an error. A thread's timer replaces the "
                       "default one whole.",
        "anyOf": [
            ref("timer_type"),
            {
                "type": "object",
                "properties": {"type": ref("timer_type"), **union_props(reg["timers"])},
                "additionalProperties": False,
                "allOf": per_type_rules(reg["timers"], timer_keys, False) + [untyped],
            },
        ],
        "default": "absolute",
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
        "optional": {"description": "When a program the load runs is not on this host's "
                                    "PATH (stress-ng, ping, ip): true leaves the load out of "
                                    "the run with a warning; false (the default) stops the "
                                    "run before it measures, exit 4.",
                     "anyOf": [{"type": "boolean"},
                               {"type": "string", "pattern": ci_alternatives(["true", "false"])}],
                     "default": False},
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
        "timer": ref("timer_type"), "timer.type": ref("timer_type"),
        "start": ref("duration"), "finish": ref("duration"),
        "workload.type": ref("workload/properties/type"),
    }
    for key in timer_keys:
        tkeys[f"timer.{key}"] = ref(f"timer/anyOf/1/properties/{key}")
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
        "$id": "urn:hgrun:scenario:1",
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
                    "late_wakeup": ref("duration", "With the kernel trace: each wake-up of a "
                                       "latency thread later than this gets its components "
                                       "(timer, interrupts, the task that held the CPU, the "
                                       "switch, time the kernel did not see) in "
                                       "late_wakeups.jsonl (docs/kernel-trace.md), 0s..1s. "
                                       "Default 50us."),
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
    return write_or_check(OUT, json.dumps(build(load_registry(args.hgrun)), indent=2) + "\n",
                          args.check, "the runner's parameter tables changed",
                          "python3 schemas/gen_scenario_schema.py")


if __name__ == "__main__":
    sys.exit(main())
