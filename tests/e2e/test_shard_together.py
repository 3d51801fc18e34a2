# SPDX-License-Identifier: GPL-2.0-or-later
"""Shards of a job array that start at the same moment into one shared,
new -o DIR (scripts/slurm/sweep.sbatch on several nodes): each must take
the directory another shard just made as that sweep's, not as an earlier
sweep's results, and every run ends up complete."""
import json
import subprocess

SWEEP = """\
hgrun: 1
name: together
duration: 5s
threads:
  - name: hog
sweep:
  grid:
    threads[hog].priority: [NORMAL, LOW, HIGH, IDLE]
  repeat: 2
"""


def test_shards_started_together_share_a_new_directory(hgrun_bin, scenario, tmp_path):
    path = scenario(SWEEP)
    for attempt in range(3):   # the race is in the first milliseconds: try it a few times
        out = tmp_path / f"sw{attempt}"
        procs = [subprocess.Popen([str(hgrun_bin), "sweep", str(path), "-o", str(out), "--duration",
                                   "30ms", "--quiet", "--shard", f"{k}/4"],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for k in range(4)]
        for k, p in enumerate(procs):
            _, err = p.communicate(timeout=120)
            assert p.returncode == 0, f"attempt {attempt}, shard {k}/4: exit {p.returncode}\n{err}"
        index = json.loads((out / "sweep.json").read_text())
        runs = sorted(run for point in index["points"] for run in point["runs"])
        assert len(runs) == 8
        for run in runs:
            assert json.loads((out / run / "result.json").read_text())["complete"], run
