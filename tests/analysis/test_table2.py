# SPDX-License-Identifier: GPL-2.0-or-later
"""Table 2 from a run with a periodic thread alone, a stream alone, and both."""
import json
import pathlib

# The scenario of the golden `rx` case (other tests make real runs of it with make_run).
RX = (pathlib.Path(__file__).resolve().parent / "golden" / "scenarios" / "rx.yaml").read_text()


def test_table2(rx_run, hgreport):
    run = rx_run
    rc, out, err = hgreport("table2", run, "--json")
    assert rc == 0, err
    rows = json.loads(out)
    res = json.loads((run / "result.json").read_text())
    loads = {ld["name"]: ld["stats"]["mbps"] for ld in res["loads"]}
    stats = {t["name"]: t["stats"] for t in res["threads"]}
    assert [(r["row"], r["what"]) for r in rows] == [
        ("alone", "thread alone"), ("rx_alone", "load alone"), ("rt + rx", "thread under load")]
    assert rows[0]["missed"] == stats["alone"]["deadlines_missed"]
    assert rows[0]["releases"] == stats["alone"]["releases"]
    assert 30 <= stats["alone"]["releases"] <= 40   # 200 ms / 5 ms; late jobs shift the phase
    assert rows[1]["mbps"] == loads["rx_alone"] and rows[2]["mbps"] == loads["rx"]
    rc, out, _ = hgreport("table2", run)
    assert rc == 0 and "| alone | thread alone |" in out and "Mbit/s" in out
