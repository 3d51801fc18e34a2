# SPDX-License-Identifier: GPL-2.0-or-later
"""scripts/slurm/ under a real Slurm (docs/slurm.md): the module starts a
one-node cluster of its own (a munge key, munged, slurm.conf, slurmctld and
slurmd, all in a temporary directory on free ports; batch_sched_delay=0, so a
task starts when the one before it ends, not up to 3 s later); each test
submits a 4-task job array of a small sweep with scripts/slurm/submit.sh,
waits, and checks that every task and the merge job completed, that each task
ran its own shard, that no two runs overlapped (--exclusive: one run per node
at a time) and that every run of the sweep is complete; and that when a task
fails, the merge job makes its runs.  After each test its jobs are cancelled;
after the module only the daemons it started are stopped, also when a test
fails.  Needs root and the Debian packages slurm-wlm and munge; skipped
otherwise, saying which."""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time

import pytest

from runhelp import ROOT

DAEMONS = ("munged", "munge", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "scontrol",
           "sinfo")
SWEEP = """\
hgrun: 1
name: slurm_array
duration: 5s
threads:
  - name: hog
sweep:
  grid:
    threads[hog].priority: [NORMAL, LOW, HIGH, IDLE]
  repeat: 2
"""


def why_not():
    missing = [d for d in DAEMONS if not shutil.which(d)]
    if missing:
        return f"Slurm test needs slurm-wlm and munge (apt-get install slurm-wlm munge); missing {missing}"
    if os.geteuid() != 0:
        return "Slurm test needs root (slurmd runs the jobs as their user)"
    return None


pytestmark = pytest.mark.skipif(why_not() is not None, reason=why_not() or "")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


SLURM_CONF = """\
ClusterName=hgtest
SlurmctldHost={node}(127.0.0.1)
SlurmctldPort={ctld_port}
SlurmdPort={slurmd_port}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={d}/munge/socket
CredType=cred/munge
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd.pid
SlurmctldLogFile={d}/slurmctld.log
SlurmdLogFile={d}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0
MpiDefault=none
SwitchType=switch/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
InactiveLimit=0
KillWait=5
MinJobAge=600
NodeName={node} NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN
PartitionName=hgtest Nodes={node} Default=YES MaxTime=INFINITE State=UP
"""


class Cluster:
    def __init__(self, d):
        self.d = d
        self.procs = []
        self.node = socket.gethostname().split(".")[0]
        self.env = dict(os.environ, SLURM_CONF=f"{d}/slurm.conf")

    def start(self, *argv, name):
        log = open(f"{self.d}/{name}.out", "w")
        self.procs.append(subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                                           env=self.env, start_new_session=True))

    def run(self, *argv, check=True):
        p = subprocess.run(argv, env=self.env, capture_output=True, text=True, timeout=30)
        if check and p.returncode != 0:
            raise AssertionError(f"{' '.join(argv)}: exit {p.returncode}\n{p.stderr}\n{self.logs()}")
        return p.stdout

    def logs(self):
        text = []
        for name in ("slurmctld.log", "slurmd.log", "munged.out", "slurmctld.out", "slurmd.out"):
            path = f"{self.d}/{name}"
            if os.path.exists(path):
                text.append(f"--- {name} (last lines)\n" + "".join(open(path).readlines()[-15:]))
        return "\n".join(text)

    def wait_for(self, what, ok, timeout):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if ok():
                return
            for p in self.procs:
                if p.poll() is not None:
                    raise AssertionError(f"{p.args[0]} ended (exit {p.returncode}) while waiting for "
                                         f"{what}\n{self.logs()}")
            time.sleep(0.2)
        raise AssertionError(f"timed out after {timeout} s waiting for {what}\n{self.logs()}")

    def cancel_jobs(self):
        """Cancels this cluster's jobs (if any are queued or running) and waits for them to go."""
        if not self.procs or self.procs[-1].poll() is not None:
            return
        end = time.monotonic() + 15
        while time.monotonic() < end:
            q = subprocess.run(["squeue", "-h"], env=self.env, capture_output=True, text=True,
                               timeout=30)
            if q.returncode != 0 or not q.stdout.strip():
                break
            subprocess.run(["scancel", "--full", "--user", "root"], env=self.env,
                           capture_output=True, timeout=30)
            time.sleep(0.5)

    def stop(self):
        """Cancels this cluster's jobs, then stops the daemons it started (by PID)."""
        self.cancel_jobs()
        for p in reversed(self.procs):   # slurmd, slurmctld, then munged
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait(timeout=15)


@pytest.fixture(scope="module")
def slurm():
    """One cluster for the module's tests (starting it is most of a test's time); each test
    works in a directory of its own under it and its jobs have ids of their own."""
    # a short path: the munge socket's must fit in sun_path (108 bytes)
    d = tempfile.mkdtemp(prefix="hg-slurm-")
    c = Cluster(d)
    try:
        for sub in ("state", "spool", "munge"):
            os.makedirs(f"{d}/{sub}")
        os.chmod(f"{d}/munge", 0o700)
        with open(f"{d}/munge/munge.key", "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(f"{d}/munge/munge.key", 0o400)
        with open(f"{d}/slurm.conf", "w") as f:
            f.write(SLURM_CONF.format(d=d, node=c.node, ctld_port=free_port(),
                                      slurmd_port=free_port(), cpus=os.cpu_count()))
        # -f: the temporary directory's parents (/tmp) are world-writable
        c.start("munged", "-F", "-f", f"--key-file={d}/munge/munge.key",
                f"--socket={d}/munge/socket", f"--pid-file={d}/munge/pid",
                f"--log-file={d}/munge/log", f"--seed-file={d}/munge/seed", name="munged")
        c.wait_for("munged's socket", lambda: os.path.exists(f"{d}/munge/socket"), 20)
        c.start("slurmctld", "-D", "-f", f"{d}/slurm.conf", name="slurmctld")
        c.start("slurmd", "-D", "-N", c.node, "-f", f"{d}/slurm.conf", name="slurmd")
        c.wait_for("the node to be idle",
                   lambda: c.run("sinfo", "-h", "-o", "%t", check=False).strip() == "idle", 60)
        yield c
    finally:
        c.stop()
        shutil.rmtree(d, ignore_errors=True)


@pytest.fixture
def cluster(slurm, request):
    """The module's cluster with a work directory for this test; afterwards no job of the
    test is left queued or running (a failed test's are cancelled)."""
    slurm.work = f"{slurm.d}/{request.node.name[:40]}"
    os.makedirs(slurm.work)
    yield slurm
    slurm.cancel_jobs()


def job_states(cluster, ids):
    """{"JOBID" or "JOBID_TASK": (JobState, ExitCode)} from scontrol."""
    out = "".join(cluster.run("scontrol", "-o", "show", "job", i) for i in ids)
    states = {}
    for line in out.splitlines():
        f = dict(re.findall(r"(\w+)=(\S*)", line))
        key = f"{f['ArrayJobId']}_{f['ArrayTaskId']}" if f.get("ArrayTaskId") else f["JobId"]
        states[key] = (f["JobState"], f["ExitCode"])
    return states


def submit(cluster, hgrun):
    """submit.sh 4 for SWEEP with --duration 200ms; waits for both jobs.
    Returns (work dir, scenario, sweep dir, array job id, merge job id)."""
    work = cluster.work
    scenario = f"{work}/sweep.yaml"
    with open(scenario, "w") as f:
        f.write(SWEEP)
    out = f"{work}/sweep"
    env = dict(cluster.env, HGRUN=str(hgrun), HG_REPORT="0")
    p = subprocess.run([str(ROOT / "scripts/slurm/submit.sh"), "4", scenario, out, "--duration",
                        "200ms"], cwd=work, env=env, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr + cluster.logs()
    m = re.search(r"array job (\d+) .* merge job (\d+)", p.stdout)
    assert m, p.stdout
    array, merge = m.groups()
    cluster.wait_for("the jobs to end",
                     lambda: not cluster.run("squeue", "-h", "-j", f"{array},{merge}").strip(), 300)
    return work, scenario, out, array, merge


def test_job_array_runs_every_shard_once_per_node_and_merges(cluster, hgrun_bin):
    work, scenario, out, array, merge = submit(cluster, hgrun_bin)

    states = job_states(cluster, [array, merge])
    tasks = [f"{array}_{k}" for k in range(4)]
    for job in tasks + [merge]:
        assert states.get(job) == ("COMPLETED", "0:0"), (job, states, cluster.logs())

    made = {}
    for k in range(4):
        text = open(f"{work}/hgrun-sweep-{array}_{k}.out").read()
        assert f"shard {k}/4 of {scenario}" in text, text
        made[k] = re.findall(r"^== run \d+/\d+: (p\d+/r\d+)", text, re.M)
        assert made[k] and "0 failed" in text.splitlines()[-1], text
    every = [run for runs in made.values() for run in runs]
    assert len(every) == len(set(every)) == 8, made
    merged = open(f"{work}/hgrun-sweep-merge-{merge}.out").read()
    assert "sweep: 0 succeeded, 0 failed, 8 skipped (complete already)" in merged, merged

    index = json.load(open(f"{out}/sweep.json"))
    runs = sorted(run for point in index["points"] for run in point["runs"])
    assert runs == sorted(every)
    spans = []
    for run in runs:
        r = json.load(open(f"{out}/{run}/result.json"))
        assert r["complete"] and r["exit_status"] == 0, run
        assert r["scenario"]["duration_ns"] == 200_000_000
        spans.append((r["tsc"]["start_monotonic_ns"], r["tsc"]["end_monotonic_ns"], run))
    # --exclusive on one node: the runs never overlap in time
    spans.sort()
    for (_, end, a), (start, _, b) in zip(spans, spans[1:]):
        assert end <= start, f"{a} and {b} ran at the same time on the one node"


def test_the_merge_job_makes_the_runs_of_a_failed_task(cluster, hgrun_bin):
    """Task 3 fails at once (an hgrun that exits 1 in that task only); the
    merge job, which runs after the array whatever happened, makes its runs."""
    wrapper = f"{cluster.d}/hgrun-failing-task-3"
    with open(wrapper, "w") as f:
        f.write('#!/bin/sh\n[ "${SLURM_ARRAY_TASK_ID:-}" = 3 ] && { echo "task 3 fails" >&2; exit 1; }\n'
                f'exec {hgrun_bin} "$@"\n')
    os.chmod(wrapper, 0o755)
    work, _, out, array, merge = submit(cluster, wrapper)
    states = job_states(cluster, [array, merge])
    assert states.get(f"{array}_3") == ("FAILED", "1:0"), states
    assert states.get(merge) == ("COMPLETED", "0:0"), (states, cluster.logs())
    merged = open(f"{work}/hgrun-sweep-merge-{merge}.out").read()
    made = re.findall(r"^== run \d+/8: (p\d+/r\d+)", merged, re.M)
    assert len(made) == 2 and "sweep: 2 succeeded, 0 failed, 6 skipped" in merged, merged
    index = json.load(open(f"{out}/sweep.json"))
    for run in (run for point in index["points"] for run in point["runs"]):
        assert json.load(open(f"{out}/{run}/result.json"))["complete"], run
