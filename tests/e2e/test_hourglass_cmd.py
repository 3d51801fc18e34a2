# SPDX-License-Identifier: GPL-2.0-or-later
"""`hgrun hourglass ARGS...`: every Hourglass command line the paper quotes (Regehr, USENIX
2002, sections 3.1 and 5.1-5.6) becomes a scenario that validates and means the same."""
import json
import pathlib
import re

import pytest

# (command line as the paper prints it, without `hourglass`; what the resolved scenario must say:
# per thread (priority level or reservation, workload type, timer), duration)
QUOTED = [
    ("-n 3 -d 5s -t 0 -p LOW -t 1 -p NORMAL -t 2 -p HIGH",
     [("LOW", "cpu", None), ("NORMAL", "cpu", None), ("HIGH", "cpu", None)], 5),
    ("-d 60s -n 10 -a -p NORMAL -w CPU", [("NORMAL", "cpu", None)] * 10, 60),
    ("-d 60s -n 10 -a -p NORMAL -w CPU_YIELD 0.9ms", [("NORMAL", "cpu_yield", None)] * 10, 60),
    ("-d 6m -n 1 -t 0 -p RTHIGH -w LAT 5.3ms -i RTC", [("RTHIGH", "latency", "absolute")], 360),
    ("-d 20s -n 1 -t 0 -p RTHIGH -w PERIODIC 4ms 5ms -i RTC",
     [("RTHIGH", "periodic", "absolute")], 20),
    ("-n 2 -t 0 -p RTMED -w PERIODIC 3ms 8ms -i HR -t 1 -p RTLOW -w PERIODIC 17ms 33ms -i NATIVE",
     [("RTMED", "periodic", "absolute"), ("RTLOW", "periodic", "sleep")], 10),
    ("-n 2 -t 0 -p RTMED -w PERIODIC 3ms 8ms -i HR -t 1 -p RTLOW -w PERIODIC 17ms 33ms -i HR",
     [("RTMED", "periodic", "absolute"), ("RTLOW", "periodic", "absolute")], 10),
    ("-n 2 -t 0 -p RTMED -w PERIODIC 3ms 8ms -i HR -t 1 -p RTLOW -w PERIODIC 12ms 33ms -i NATIVE",
     [("RTMED", "periodic", "absolute"), ("RTLOW", "periodic", "sleep")], 10),
    ("-n 2 -t 0 -w PERIODIC 3ms 8ms -rh 3ms 8ms -t 1 -w PERIODIC 17ms 33ms -rh 17ms 33ms",
     [("3ms", "periodic", "sleep"), ("17ms", "periodic", "sleep")], 10),
    ("-n 2 -t 0 -w PERIODIC 3ms 8ms -rh 3.1ms 8ms -t 1 -w PERIODIC 17ms 33ms -rh 17.1ms 33ms",
     [("3.1ms", "periodic", "sleep"), ("17.1ms", "periodic", "sleep")], 10),
]

SEED = pathlib.Path("/work/shared/seeds/hourglass-usenix2002.md")
NS = {"ms": 10**6, "us": 10**3, "s": 10**9}


def _ns(text):
    m = re.fullmatch(r"([\d.]+)(ms|us|s)", text)
    return round(float(m.group(1)) * NS[m.group(2)])


def _paper_command_lines(text):
    """Every code block of the paper that starts with `hourglass`, joined over its `\\`."""
    out = []
    for block in re.findall(r"```\s*\n(.*?)```", text, re.S):
        if block.strip().startswith("hourglass "):
            words = block.replace("\\", " ").split()
            out.append(" ".join(words[1:]))
    return out


@pytest.mark.skipif(not SEED.exists(), reason="the paper's text is not on this machine")
def test_the_list_is_every_command_line_the_paper_quotes():
    assert sorted(_paper_command_lines(SEED.read_text())) == sorted(c for c, _, _ in QUOTED)


@pytest.mark.parametrize("args,threads,seconds", QUOTED, ids=[c for c, _, _ in QUOTED])
def test_quoted_command_line_becomes_a_valid_equivalent_scenario(hgrun, tmp_path, args, threads,
                                                                 seconds):
    r = hgrun("hourglass", *args.split())
    assert r.rc == 0, r.err
    assert r.out.startswith(f"# Translated by `hgrun hourglass {args}`")
    path = tmp_path / "s.yaml"
    path.write_text(r.out)
    v = hgrun("validate", "--resolved", str(path))
    assert v.rc == 0, v.err + r.out
    plan = json.loads(v.out)
    assert plan["duration_ns"] == seconds * 10**9
    assert plan["description"] == "hourglass " + args
    got = plan["threads"]
    assert len(got) == len(threads)
    for i, (t, (prio, work, timer)) in enumerate(zip(got, threads)):
        assert t["os_name"] in (f"t{i}", f"t.{i}")      # Hourglass's thread ids, in order
        if prio[0].isdigit():       # a reservation: -rh budget
            assert t["reservation"]["budget_ns"] == _ns(prio)
            assert t["reservation"]["mode"] == "hard"
            assert t["cpus"] is None          # SCHED_DEADLINE: not pinned
        else:
            assert t["priority"]["level"] == prio
            assert t["cpus"] == [0]
        assert t["workload"]["type"] == work
        if timer:
            assert t["timer"] == timer
    # the numbers carried over exactly
    for word in args.split():
        if re.fullmatch(r"[\d.]+(ms|us)", word):
            assert re.search(rf"\b{re.escape(word)}\b", r.out), word


def test_mappings_are_said_on_stderr(hgrun):
    r = hgrun("hourglass", *"-d 6m -n 1 -t 0 -p RTHIGH -w LAT 5.3ms -i RTC".split())
    assert "-i RTC: timer absolute" in r.err
    assert "/dev/rtc" in r.err
    assert "CPU 0" in r.err
    r = hgrun("hourglass", *"-n 2 -t 0 -p RTMED -w PERIODIC 3ms 8ms -i HR "
                            "-t 1 -p RTLOW -w PERIODIC 17ms 33ms -i NATIVE".split())
    assert "-i NATIVE" in r.err and "tick: 10ms" in r.err
    assert "no -d: duration 10s" in r.err
    assert r.err.count("-i NATIVE") == 1          # said once, not per thread


def test_rtc_tick_is_rounded_to_the_nearest_ns_and_says_so(hgrun, tmp_path):
    r = hgrun("hourglass", *"-d 2s -n 1 -t 0 -p RTHIGH -w LAT 976.5625us -i RTC".split())
    assert r.rc == 0, r.err
    assert "-w LAT 976.5625us is finer than 1 ns: used 976563ns" in r.err
    assert "period: 976563ns" in r.out
    path = tmp_path / "s.yaml"
    path.write_text(r.out)
    v = hgrun("validate", "--resolved", str(path))
    assert v.rc == 0, v.err
    assert json.loads(v.out)["threads"][0]["workload"]["period_ns"] == 976563


@pytest.mark.parametrize("option,text,key,ns", [
    ("-d", "1.0000000000000000000000000000ms", "duration_ns", 10**6),
    ("-d", "2.00000000000000000000000000000s", "duration_ns", 2 * 10**9),
    ("-w LAT", "5.0000000000000000000000000000ms", "period_ns", 5 * 10**6),
])
def test_a_long_exact_time_is_kept_whole(hgrun, tmp_path, option, text, key, ns):
    """An exact time written with more digits than the translator's field holds is
    translated as its ns, never cut: `…0000ms` cut to `…0000m` was minutes."""
    r = hgrun("hourglass", "-n", "1", "-t", "0", "-p", "RTHIGH", *option.split(), text)
    assert r.rc == 0, r.err
    path = tmp_path / "s.yaml"
    path.write_text(r.out)
    v = hgrun("validate", "--resolved", str(path))
    assert v.rc == 0, v.err + r.out
    plan = json.loads(v.out)
    got = plan[key] if key in plan else plan["threads"][0]["workload"][key]
    assert got == ns, (got, r.out)


def test_a_scenario_refuses_a_fractional_ns_naming_the_exact_values(hgrun, tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("hgrun: 1\nname: d\nduration: 2s\nthreads:\n  - name: l\n"
                    "    workload: {type: latency, period: 976.5625us}\n")
    v = hgrun("validate", str(path))
    assert v.rc == 2
    assert "'976.5625us' is finer than 1 ns: write 976562ns or 976563ns" in v.err


@pytest.mark.parametrize("args,message", [
    ("-d 5s -t 0 -p LOW", "-n <number of threads> is Hourglass's one mandatory option"),
    ("-n 2 -t 2 -p LOW", "-t 2: a thread number 0..n-1"),
    ("-n 1 -t 0 -x", "unknown option '-x'"),
    ("-n 1 -p LOW", "-p before -t or -a"),
    ("-n 1 -t 0 -w FOO", "-w FOO: unknown workload"),
    ("-n 1 -t 0 -p REALTIME", "-p REALTIME: unknown priority"),
    ("-n 1 -t 0 -w LAT 5", "-w LAT: '5' needs a unit"),
    ("-n 1 -t 0 -w PERIODIC 3ms", "PERIODIC needs a value"),
    ("-n 1 -t 0 -i PIT", "-i PIT: unknown timer"),
    ("-n 0", "-n: the number of threads, 1..1024"),
])
def test_bad_hourglass_command_lines_are_refused_with_a_reason(hgrun, args, message):
    r = hgrun("hourglass", *args.split())
    assert r.rc == 3
    assert r.out == ""
    assert message in r.err


def test_values_hgrun_refuses_exit_2_with_validates_error_and_the_yaml(hgrun, tmp_path):
    # Hourglass ran an exec longer than its period; hgrun's loader refuses it, so exit 0
    # would hand the user a file `hgrun validate` rejects.
    r = hgrun("hourglass", *"-n 1 -d 1s -t 0 -w PERIODIC 8ms 6ms".split())
    assert r.rc == 2, r.err
    assert "the translation is not a valid scenario" in r.err
    assert re.search(r"^translation:\d+:\d+: error: threads\[0\]\.workload\.exec: exec 8ms "
                     r"is longer than the period 6ms", r.err, re.M), r.err
    assert "period: 6ms" in r.out              # the YAML is still there to edit
    path = tmp_path / "s.yaml"
    path.write_text(r.out)
    v = hgrun("validate", str(path))
    assert v.rc == 2
    line = re.search(r"^translation:(\d+:\d+):", r.err, re.M).group(1)
    assert f"{path}:{line}: error: threads[0].workload.exec" in v.err, v.err


def test_help(hgrun):
    r = hgrun("hourglass", "--help")
    assert r.rc == 0 and "usage: hgrun hourglass" in r.out
    top = hgrun("--help").out          # the command's usage line and its row in the list
    assert "hgrun hourglass HOURGLASS_OPTIONS" in top
    assert re.search(r"^\s+hourglass\s+a Hourglass command line", top, re.M), top
