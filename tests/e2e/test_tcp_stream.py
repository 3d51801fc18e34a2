# SPDX-License-Identifier: GPL-2.0-or-later
"""tcp_stream against a remote side that is not there yet, goes away, resets or never answers:
the sender keeps trying, backing off, and connects again (docs/loads.md#tcp_stream); a window
with no stream, or a stream that had to be made again, is a warning that says so."""
import json
import socket
import struct
import subprocess
import threading
import time

import pytest

from runhelp import scenario_text

THREAD = "{name: be, workload: {type: cpu}}"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Sink(threading.Thread):
    """A TCP sink on 127.0.0.1:port that starts listening after `delay` s; each connection
    is read for `keep` s (or to its end) and then reset (SO_LINGER 0), `streams` times; the
    last one is read for `last` s (default `keep`)."""

    def __init__(self, port, delay=0.0, keep=None, streams=1, last=None):
        super().__init__(daemon=True)
        self.port, self.delay, self.keep, self.streams = port, delay, keep, streams
        self.last = keep if last is None else last
        self.accepted, self.received = 0, 0
        self.stop = threading.Event()

    def run(self):
        time.sleep(self.delay)
        with socket.socket() as srv:
            srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            srv.bind(("127.0.0.1", self.port))
            srv.listen(4)
            srv.settimeout(0.1)
            while self.accepted < self.streams and not self.stop.is_set():
                try:
                    c, _ = srv.accept()
                except socket.timeout:
                    continue
                self.accepted += 1
                keep = self.keep
                if self.accepted == self.streams:
                    srv.close()                        # nothing listens after the last one
                    keep = self.last
                c.settimeout(0.1)
                until = time.monotonic() + (3600 if keep is None else keep)
                while time.monotonic() < until and not self.stop.is_set():
                    try:
                        data = c.recv(1 << 16)
                    except socket.timeout:
                        continue
                    if not data:
                        break
                    self.received += len(data)
                c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                c.close()                                  # a reset


def run_load(hgrun, scenario, tmp_path, load, duration="2s"):
    path = scenario(scenario_text("tcp", [THREAD], duration=duration,
                                  extra=f"loads:\n  - {load}\n"))
    out = tmp_path / "out"
    r = hgrun("run", path, "-o", out, timeout=60)
    assert r.rc == 0, r.err
    result = json.loads((out / "result.json").read_text())
    (l,) = result["loads"]
    return result, l


def load_warnings(result, name):
    """The load's warnings about its stream; not the supervisor's "started X ms after its
    start time", which says the machine was busy (seen at load average 5-14), not what the
    stream did."""
    return [w for w in result["warnings"] if f"load {name}" in w
            and "after its start time" not in w]


def against_sink(hgrun, scenario, tmp_path, **sink):
    """A 2 s run whose load sends to a Sink(**sink): (result, the load, the sink)."""
    port = free_port()
    peer = Sink(port, **sink)
    peer.start()
    try:
        result, l = run_load(hgrun, scenario, tmp_path,
                             f'{{name: tx, type: tcp_stream, connect: "127.0.0.1:{port}"}}')
    finally:
        peer.stop.set()
        peer.join(5)
    return result, l, peer


def test_a_sink_that_starts_late_is_waited_for(hgrun, scenario, tmp_path):
    result, l, sink = against_sink(hgrun, scenario, tmp_path, delay=0.6)
    assert l["stats"]["connections"] == 1 == sink.accepted
    assert l["stats"]["bytes"] > 0 and sink.received > 0
    assert not load_warnings(result, "tx"), result["warnings"]


def test_a_reset_stream_is_made_again(hgrun, scenario, tmp_path):
    result, l, sink = against_sink(hgrun, scenario, tmp_path, keep=0.4, streams=3)
    port = sink.port
    assert sink.accepted == 3
    assert l["stats"]["connections"] == 3
    # after the third reset nothing listens: the load tried until it stopped, and says so
    (w,) = load_warnings(result, "tx")
    assert (f"connect 127.0.0.1:{port}: Connection refused (after the stream ended 3 times "
            "(last: Connection reset by peer); ") in w, w
    assert "still trying when the load stopped" in w


def test_a_stream_made_again_is_a_warning(hgrun, scenario, tmp_path):
    # one reset, then kept to the end
    result, l, sink = against_sink(hgrun, scenario, tmp_path, keep=0.4, streams=2, last=3600)
    port = sink.port
    assert l["stats"]["connections"] == 2 == sink.accepted
    (w,) = load_warnings(result, "tx")
    assert (f"the stream to 127.0.0.1:{port} ended 1 time (last: Connection reset by peer); "
            "made again each time") in w, w
    # bytes: what the sink's kernel acknowledged, never more than was sent to it
    assert 0 < l["stats"]["bytes"]


def test_a_peer_that_resets_at_once_is_not_hammered(hgrun, scenario, tmp_path):
    """Accepted and reset at once, again and again: the waits between attempts keep growing
    (10 ms doubling to 1 s) and the bytes are what the peer acknowledged, not what send()
    took into a socket buffer that the reset threw away."""
    result, l, sink = against_sink(hgrun, scenario, tmp_path, keep=0, streams=10_000)
    assert 2 <= l["stats"]["connections"] <= 12          # 10+20+...+640 ms + 1 s > 2 s
    (w,) = load_warnings(result, "tx")
    assert "(last: Connection reset by peer)" in w, w
    assert l["stats"]["bytes"] <= sink.received + l["stats"]["connections"] * (8 << 20)


def test_a_peer_that_never_answers_is_a_warning(hgrun, scenario, tmp_path):
    """A listener whose accept queue is full drops the SYNs: connect() waits through the
    whole window, and the warning says there was no answer."""
    with socket.socket() as srv, socket.socket() as filler:
        srv.bind(("127.0.0.1", 0))
        srv.listen(0)
        port = srv.getsockname()[1]
        filler.connect(("127.0.0.1", port))              # the queue's one place, never accepted
        result, l = run_load(hgrun, scenario, tmp_path,
                             f'{{name: tx, type: tcp_stream, connect: "127.0.0.1:{port}"}}')
    assert l["stats"]["connections"] == 0 and l["stats"]["bytes"] == 0
    (w,) = load_warnings(result, "tx")
    assert f"connect 127.0.0.1:{port}: no answer (" in w, w   # each attempt waits 1 s
    assert "still trying when the load stopped" in w


def test_a_stream_lost_near_the_end_is_a_warning(hgrun, scenario, tmp_path):
    """Made late (the waits have grown), reset soon after: whether the load stops while the
    sender waits to try again or while it tries, the warning says the stream ended."""
    result, l, sink = against_sink(hgrun, scenario, tmp_path, delay=0.9, keep=0.3, streams=1)
    assert l["stats"]["connections"] == 1 == sink.accepted
    (w,) = load_warnings(result, "tx")
    assert "ended 1 time (last: Connection reset by peer)" in w, w


def test_no_sink_at_all_is_a_warning_with_the_attempts(hgrun, scenario, tmp_path):
    port = free_port()
    result, l = run_load(hgrun, scenario, tmp_path,      # attempts at 0, 10, 30, 70 ms...
                         f'{{name: tx, type: tcp_stream, connect: "127.0.0.1:{port}"}}', "1s")
    assert l["stats"]["connections"] == 0 and l["stats"]["bytes"] == 0
    (w,) = load_warnings(result, "tx")
    attempts = int(w.split("Connection refused (")[1].split(" attempts")[0])
    assert attempts >= 3, w                          # 10 ms, 20, 40, ... up to 1 s apart
    assert "still trying when the load stopped" in w


def test_loopback_makes_one_connection(hgrun, scenario, tmp_path):
    result, l = run_load(hgrun, scenario, tmp_path, "{name: rx, type: tcp_stream}", "1s")
    assert l["stats"]["connections"] == 1
    assert l["stats"]["bytes"] > 0
    assert not load_warnings(result, "rx"), result["warnings"]


def test_a_listener_counts_the_senders_it_accepted(hgrun_bin, scenario, tmp_path):
    port = free_port()
    path = scenario(scenario_text("tcp", [THREAD], duration="2s", extra=(
        f"loads:\n  - {{name: rx, type: tcp_stream, listen: {port}}}\n")))
    out = tmp_path / "out"
    proc = subprocess.Popen([str(hgrun_bin), "run", path, "-o", out, "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        sent = 0
        for _ in range(2):                         # two senders, one after the other
            for _ in range(100):
                try:
                    c = socket.create_connection(("127.0.0.1", port), timeout=1)
                    break
                except OSError:
                    time.sleep(0.02)
            else:
                pytest.fail("the listening load never accepted")
            with c:
                sent += c.send(b"x" * 65536)
            time.sleep(0.1)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    (l,) = json.loads((out / "result.json").read_text())["loads"]
    assert l["stats"]["connections"] == 2
    assert l["stats"]["bytes"] == sent
