# SPDX-License-Identifier: GPL-2.0-or-later
"""One lock from the -o check to the end, and every write relative to a directory opened
once (docs/security.md; docs/hardening.md, the fourth attack): two runs racing into one new
-o never both succeed, a sweep point swapped for a link at any stage receives nothing, and a
FIFO or device planted where a sweep looks is never opened."""
import json
import os
import subprocess
import time

import pytest

from runhelp import (CPU_THREAD, TWO_POINT_SWEEP, finish, scenario_text, start, sweep_shard,
                     wait_for)

def test_two_runs_racing_into_one_new_dir_never_both_succeed(hgrun_bin, scenario, tmp_path):
    """The second of two runs started on one new -o, at every offset from together to
    after the first one's whole run, is refused (exit 3): the directory is locked from
    the check to the end. Before, the check took no lock on a new directory and hg_run
    took it after calibration, so a second run that checked before the first made the
    directory and locked after it ended replaced its results, both exit 0."""
    path = scenario(scenario_text("race", [CPU_THREAD], duration="1ms"))
    outcomes = []
    for i, delay_ms in enumerate(range(0, 300, 12)):
        out = tmp_path / f"out{i}"
        first = start(hgrun_bin, "run", path, "-o", out, "--quiet")
        time.sleep(delay_ms / 1000)
        second = start(hgrun_bin, "run", path, "-o", out, "--quiet")
        a, b = finish(first), finish(second)
        outcomes.append((delay_ms, a[0], b[0]))
        assert sorted([a[0], b[0]]) == [0, 3], (delay_ms, a, b)
        loser = b if a[0] == 0 else a
        assert ("another hgrun is writing there" in loser[2] or
                "holds an earlier run's results" in loser[2]), loser[2]
        winner = first if a[0] == 0 else second
        assert json.loads((out / "result.json").read_text())["pid"] == winner.pid
    assert len(outcomes) == 25


def _swap(path, victim):
    """What another user who can write the sweep directory does: the point's directory
    renamed away, a link to a directory of theirs in its place."""
    os.rename(path, path.with_name(path.name + ".away"))
    os.symlink(victim, path)


STAGES = {
    # the run directory made and opened: before or while the run starts
    "made": lambda run: run.is_dir(),
    # the writer has started: trace.bin and series.jsonl are being written
    "writing": lambda run: (run / "trace.bin").exists(),
    # the first checkpoint is there: the later ones and the final result.json follow
    "checkpointed": lambda run: (run / "result.json").exists(),
}


@pytest.mark.parametrize("stage", list(STAGES))
def test_a_point_swapped_for_a_link_gets_no_write(hgrun_bin, scenario, tmp_path, stage):
    """p000 renamed away and replaced by a link to another directory at each stage of
    its run: nothing is written through the link (every file of the run is written
    relative to the directory's fd, opened once), the run's files went with the
    directory, and the sweep says the run was moved (exit 1). Before, every file was
    written by path and went into the link's target."""
    path = scenario(TWO_POINT_SWEEP)
    out = tmp_path / "sw"
    victim = tmp_path / "victim"
    (victim / "r0").mkdir(parents=True)    # where writes by path through the link would land
    run = out / "p000" / "r0"
    proc = start(hgrun_bin, "sweep", path, "-o", out, "--duration", "2500ms", "--quiet",
                 "--grid-order")
    try:
        assert wait_for(lambda: STAGES[stage](run), timeout=30, poll=0.002), stage
        _swap(out / "p000", victim)
    finally:
        rc, _, err = finish(proc, timeout=90)
    assert sorted(victim.rglob("*")) == [victim / "r0"], sorted(victim.rglob("*"))
    assert rc == 1, err
    assert "p000/r0: its directory was moved or replaced while it ran" in err, err
    away = out / "p000.away" / "r0"
    result = json.loads((away / "result.json").read_text())
    assert result["complete"] is True and (away / "trace.bin").is_file()
    assert not (away / ".hgrun-reserve").exists() and not (away / ".hgrun-lock").exists()
    # the other point ran in its own directory as usual
    assert json.loads((out / "p001" / "r0" / "result.json").read_text())["complete"] is True


@pytest.mark.skipif(not os.path.exists("/usr/bin/stress-ng"), reason="stress-ng is not installed")
def test_stress_ngs_scratch_directory_follows_no_swap(hgrun_bin, scenario, tmp_path):
    """stress-ng reaches its --temp-path through an fd (/proc/self/fd/4), so the point
    swapped for a link while its stressor writes leads none of its files there."""
    load = "loads:\n  - {name: disk, type: stress_ng, stressor: hdd, options: {hdd-bytes: 1M}}\n"
    path = scenario(TWO_POINT_SWEEP + load)
    out = tmp_path / "sw"
    victim = tmp_path / "victim"
    (victim / "r0" / "load-disk.tmp").mkdir(parents=True, mode=0o700)
    tmp = out / "p000" / "r0" / "load-disk.tmp"
    proc = start(hgrun_bin, "sweep", path, "-o", out, "--duration", "2s", "--quiet",
                 "--grid-order")
    try:
        assert wait_for(lambda: tmp.is_dir() and any(tmp.glob("tmp-stress-ng-hdd-*")), timeout=30,
                        poll=0.002)
        _swap(out / "p000", victim)
        time.sleep(0.5)
    finally:
        rc, _, err = finish(proc, timeout=90)
    assert list((victim / "r0" / "load-disk.tmp").iterdir()) == []
    assert sorted(p.name for p in (victim / "r0").iterdir()) == ["load-disk.tmp"]
    assert rc == 1 and "its directory was moved or replaced" in err, err
    assert not (out / "p000.away" / "r0" / "load-disk.tmp").exists()


def _fifo(target):
    os.mkfifo(target)


def _link_to_a_fifo(target):
    fifo = target.parents[3] / "elsewhere.fifo"
    os.mkfifo(fifo)
    os.symlink(fifo, target)


class _Opened:
    """inotify IN_OPEN on one file: whether anything opened it."""
    IN_OPEN = 0x20

    def __init__(self, path):
        import ctypes
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.fd = self.libc.inotify_init1(os.O_NONBLOCK)
        assert self.fd >= 0
        assert self.libc.inotify_add_watch(self.fd, str(path).encode(), self.IN_OPEN) >= 0

    def opened(self):
        try:
            return bool(os.read(self.fd, 4096))
        except BlockingIOError:
            return False


def _link_to_a_device(target):
    """A link to a character device (one like /dev/null, of our own: a link to
    /dev/watchdog would arm the watchdog), watched for opens."""
    dev = target.parents[3] / "device"
    os.mknod(dev, 0o600 | 0o020000, os.makedev(1, 3))
    os.symlink(dev, target)
    _link_to_a_device.watch = _Opened(dev)


@pytest.mark.parametrize("plant", [_fifo, _link_to_a_fifo, _link_to_a_device],
                         ids=["fifo", "link-to-fifo", "link-to-device"])
def test_a_fifo_or_device_in_a_sweep_is_never_opened(hgrun, hgrun_bin, scenario, tmp_path,
                                                     plant):
    """A FIFO, or a link to a FIFO or a device, at a run's result.json: `sweep` (its look
    for runs of this sweep already there), `sweep --resume` and `sweep-merge` go on
    without opening it, and refuse the run as not theirs. Before, `sweep` fopen()ed it:
    a FIFO hung it forever with the lock held, a device was opened as root."""
    if plant is _link_to_a_device and os.geteuid() != 0:
        pytest.skip("mknod needs root")
    path = scenario(TWO_POINT_SWEEP)
    out = tmp_path / "sw"
    r = hgrun("sweep", path, "-o", out, "--duration", "100ms", "--quiet", timeout=60)
    assert r.rc == 0, r.err
    (out / "p000" / "r0" / "result.json").unlink()     # p000 to be run again
    target = out / "p001" / "r0" / "result.json"
    target.unlink()
    plant(target)
    commands = {
        "sweep": ["sweep", path, "-o", out, "--duration", "100ms", "--quiet"],
        "resume": ["sweep", path, "-o", out, "--duration", "100ms", "--quiet", "--resume"],
        "merge": ["sweep-merge", tmp_path / "merged", out],
    }
    for what, args in commands.items():
        proc = start(hgrun_bin, *args)
        try:
            out_, err = proc.communicate(timeout=40)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            pytest.fail(f"{what}: hgrun blocked on the planted {plant.__name__}")
        assert proc.returncode == 1, (what, proc.returncode, err)
        if what == "merge":
            assert "run p001/r0: no shard holds it complete" in err, err
        else:
            assert "p001/r0" in err and "hgrun did not write" in err, (what, err)
    if plant is _link_to_a_device:
        assert not _link_to_a_device.watch.opened(), "the device was opened"


def test_a_shard_of_another_n_is_refused_by_name(hgrun_bin, hgrun, scenario, tmp_path):
    """`--shard 0/1` started beside a running array of `--shard K/2` on one directory
    (sbatch --array=0 resubmitted) is refused, naming the running shard and the fix.
    Before, it ran: it cleared and redid a run the other shard had completed, both exit 0."""
    path = scenario(TWO_POINT_SWEEP)
    out = tmp_path / "sw"
    first = start(hgrun_bin, "sweep", path, "-o", out, "--duration", "1500ms", "--quiet",
                  "--shard", "0/2")
    try:
        assert wait_for(lambda: any(out.glob("p*/r0/trace.bin")), poll=0.002)
        other = hgrun("sweep", path, "-o", out, "--duration", "1500ms", "--quiet",
                      "--shard", "0/1", timeout=60)
    finally:
        rc, _, err = finish(first)
    assert other.rc == 3, (other.rc, other.err)
    assert "shard 0/2 of this directory's sweep is running there" in other.err, other.err
    assert "every shard of one sweep must be given the same N" in other.err, other.err
    assert "--shard 0/2" in other.err, other.err
    assert rc == 0, err


def test_resume_and_merge_take_only_this_sweeps_own_runs(hgrun, scenario, tmp_path):
    """A run counts as done only if its result.json is a regular file of the user's, of
    this sweep (its id) and of its own point and repeat: a `{"complete": true}` in another
    user's run directory, a run copied from another sweep or from another point of this
    one, are run again by --resume and not merged. Before, --resume skipped them and
    sweep-merge copied them."""
    path = scenario(TWO_POINT_SWEEP)
    other = scenario(TWO_POINT_SWEEP.replace("[NORMAL, LOW]", "[NORMAL, HIGH]"), name="other.yaml")
    out, elsewhere = tmp_path / "sw", tmp_path / "elsewhere"
    for p, o in ((path, out), (other, elsewhere)):
        r = hgrun("sweep", p, "-o", o, "--duration", "100ms", "--quiet", "--grid-order",
                  timeout=60)
        assert r.rc == 0, r.err
    run = out / "p001" / "r0"
    if os.geteuid() == 0:
        # another user's run directory holding a complete-looking result.json
        for f in [*run.iterdir(), run]:
            os.chown(f, 4242, 4242)
        merged = hgrun("sweep-merge", tmp_path / "merged0", out, timeout=60)
        assert merged.rc == 1 and "run p001/r0: no shard holds it complete" in merged.err, \
            (merged.rc, merged.err)
        r = hgrun("sweep", path, "-o", out, "--duration", "100ms", "--quiet", "--resume",
                  timeout=60)
        assert "sweep: 0 succeeded, 1 failed, 1 skipped" in r.out, (r.out, r.err)
        assert r.rc == 1 and "p001/r0: a directory of another user (uid 4242)" in r.err, r.err
        for f in [*run.iterdir(), run]:
            os.chown(f, 0, 0)
    # p001/r0: another sweep's run of the same name
    (run / "result.json").write_bytes((elsewhere / "p001" / "r0" / "result.json").read_bytes())
    # p000/r0: this sweep's p001/r0 result, at p000
    mine = json.loads((out / "p000" / "r0" / "result.json").read_text())
    moved = json.loads((elsewhere / "p000" / "r0" / "result.json").read_text())
    moved["sweep_point"]["sweep_id"] = mine["sweep_point"]["sweep_id"]
    moved["sweep_point"]["id"] = "p001"
    (out / "p000" / "r0" / "result.json").write_text(json.dumps(moved))
    merged = hgrun("sweep-merge", tmp_path / "merged", out, timeout=60)
    assert merged.rc == 1, merged.err
    assert "run p000/r0: no shard holds it complete" in merged.err
    assert "run p001/r0: no shard holds it complete" in merged.err
    r = hgrun("sweep", path, "-o", out, "--duration", "100ms", "--quiet", "--resume", timeout=60)
    assert r.rc == 0, r.err
    assert "sweep: 2 succeeded, 0 failed, 0 skipped" in r.out, r.out


def test_merge_copies_only_hgruns_files_as_recorded(hgrun, scenario, tmp_path):
    """sweep-merge copies what result.json lists under hgrun's own names, each exactly the
    size result.json records: a planted shell script stays behind, a trace.bin grown by a
    1 GiB hole refuses its run (never 1 GiB of blocks in OUT), and a sparse file of the
    recorded size stays sparse. Before, every regular file was copied, holes as data."""
    shard = sweep_shard(hgrun, scenario, tmp_path, duration="200ms")
    (shard / "p000" / "r0" / "run-me.sh").write_text("#!/bin/sh\necho pwned\n")
    grown = shard / "p001" / "r0" / "trace.bin"
    recorded = grown.stat().st_size
    with open(grown, "r+b") as f:
        f.truncate(recorded + (1 << 30))
    out = tmp_path / "merged"
    r = hgrun("sweep-merge", out, shard, timeout=120)
    assert r.rc == 1, r.err
    assert not (out / "p000" / "r0" / "run-me.sh").exists()
    assert (out / "p000" / "r0" / "result.json").is_file()
    assert "p001/r0: not copied: trace.bin holds " in r.err, r.err
    assert f"(1 GiB), but result.json records {recorded}" in r.err, r.err
    assert "run p001/r0: no shard holds it complete" in r.err
    assert not (out / "p001" / "r0" / "trace.bin").exists()
    # a trace.bin of 8 MiB, mostly a hole, and result.json saying so: copied, still sparse
    result = json.loads((shard / "p001" / "r0" / "result.json").read_text())
    assert result["file_bytes"]["trace.bin"] == recorded
    big = 8 << 20
    with open(grown, "r+b") as f:
        f.truncate(big)
        f.seek(big - 4096)
        f.write(b"\1" * 4096)
    result["file_bytes"]["trace.bin"] = big
    (shard / "p001" / "r0" / "result.json").write_text(json.dumps(result))
    out2 = tmp_path / "merged2"
    r = hgrun("sweep-merge", out2, shard, timeout=120)
    assert r.rc == 0, r.err
    copy = out2 / "p001" / "r0" / "trace.bin"
    assert copy.stat().st_size == big
    assert copy.stat().st_blocks * 512 < big // 4, copy.stat().st_blocks
    assert copy.read_bytes() == grown.read_bytes()


def test_merge_into_a_full_disk_says_so_and_leaves_out_as_it_was(hgrun, scenario, tmp_path):
    """OUT on a file system too small: `No space left on device`, what the merge copied is
    removed again, and the advice names what sweep-merge takes (no --force, no --resume).
    Before: `Input/output error`, a half-merged OUT, and advice to add --force."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    # 300 kB of an exec load's output: copied in writes the full disk cuts short
    shard = sweep_shard(hgrun, scenario, tmp_path, duration="200ms",
                        extra='loads:\n  - {name: x, type: exec, command: '
                              '"yes | head -c 300000; sleep 9"}\n')
    small = tmp_path / "small"
    small.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(small)], check=True)
    try:
        out = small / "out"
        r = hgrun("sweep-merge", out, shard, timeout=60)
        assert r.rc == 1, r.err
        assert "No space left on device" in r.err, r.err
        assert "Input/output error" not in r.err
        assert "--force" not in r.err and "--resume" not in r.err, r.err
        assert "run the same sweep-merge again" in r.err, r.err
        assert not out.exists() or list(out.iterdir()) == [], list(out.rglob("*"))
    finally:
        subprocess.run(["umount", str(small)], check=False)
    # an OUT that holds an earlier sweep: refused with sweep-merge's own advice
    out = tmp_path / "merged"
    assert hgrun("sweep-merge", out, shard, timeout=60).rc == 0
    r = hgrun("sweep-merge", out, shard, timeout=60)
    assert r.rc == 3, r.err
    assert "sweep-merge writes only into a new or empty directory" in r.err, r.err
    assert "--force" not in r.err and "--resume" not in r.err, r.err
