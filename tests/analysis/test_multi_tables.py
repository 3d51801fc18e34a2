# SPDX-License-Identifier: GPL-2.0-or-later
"""table2 and the dispatch-latency table of several runs: a row per run; one run unchanged."""
import json
import pytest



def test_table2_several_runs(rx_run, copy_run, hgreport):
    a, b = rx_run, copy_run(rx_run, lambda d: d["host"].update(kernel_release="9.9.9"), "rx_b")
    rc, out, err = hgreport("table2", a, b)
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0] == "# Hourglass table 2: 2 runs"
    assert lines[2] == ("| run | alone missed | rx_alone throughput | rt + rx missed | "
                        "rt + rx throughput |")
    assert [x.split(" | ")[0] for x in lines[4:6]] == ["| kernel " + json.loads((a / "result.json").read_text())["host"]["kernel_release"], "| kernel 9.9.9"]   # labelled by what differs
    rc, out, _ = hgreport("table2", a, b, "--json")
    doc = json.loads(out)
    res = json.loads((b / "result.json").read_text())
    assert doc[1]["rows"][0]["missed"] == res["threads"][0]["stats"]["deadlines_missed"]
    rc, one, _ = hgreport("table2", a)
    assert rc == 0 and one.startswith("# Hourglass table 2: rx_small (")       # single run: as before


def test_dispatch_several_runs(mix_run, copy_run, hgreport):
    other = copy_run(mix_run, lambda d: d["host"].update(kernel_release="9.9.9"), "other")
    rc, out, err = hgreport("dispatch", mix_run, other, "--thresholds", "10us,1ms")
    assert rc == 0, err
    assert "| run | thread | wake-ups | skipped | over | > 10.0 us | > 1.000 ms | p99 | max |" in out
    res = json.loads((mix_run / "result.json").read_text())
    kernel = res["host"]["kernel_release"]
    assert f"| kernel {kernel} | lat |" in out and "| kernel 9.9.9 | lat |" in out
    rc, out, _ = hgreport("dispatch", mix_run, "--json", "--thresholds", "10us")
    doc = json.loads(out)
    lat = next(t for t in res["threads"] if t["name"] == "lat")["stats"]["latency"]
    assert doc["rows"][0]["samples"] == lat["samples"] and doc["rows"][0]["max_ns"] == lat["max_ns"]
    assert 0 <= doc["rows"][0]["later_than"]["10000"] <= lat["samples"]


@pytest.mark.parametrize("name, alias", [("abeni-table1", "table1"),
                                         ("hourglass-table1", "dispatch"),
                                         ("hourglass-table2", "table2")])
def test_a_table_command_names_its_paper_and_keeps_its_old_name(name, alias, mix_run, hgreport):
    rc, new, err = hgreport(name, mix_run)
    assert rc == 0, err
    rc, old, err = hgreport(alias, mix_run)
    assert rc == 0, err
    assert new == old and new.startswith("# Abeni table 1: " if name == "abeni-table1" else "# ")
    rc, usage, _ = hgreport("--help")
    assert f"hgreport {name} " in usage and f"(also: {alias})" in usage
