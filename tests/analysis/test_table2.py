"""Table 2 from a run with a periodic thread alone, a stream alone, and both."""
import json

RX = """\
hgrun: 1
name: rx_small
duration: 600ms
defaults:
  cpus: [0]
  priority: RTHIGH
  workload: {type: periodic, exec: 2ms, period: 5ms}
threads:
  - {name: alone, start: 0s, finish: 200ms}
  - {name: rt, start: 400ms, finish: 600ms}
loads:
  - {name: rx_alone, type: tcp_stream, cpus: [0], start: 200ms, stop: 400ms}
  - {name: rx, type: tcp_stream, cpus: [0], start: 400ms, stop: 600ms}
"""


def test_table2(make_run, hgreport):
    run = make_run(RX, "rx")
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
