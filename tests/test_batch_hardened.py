"""Batches whose workers die, that are stopped, that would overwrite their input, or whose
files cannot all be moved into place: run through the real command line, each case
checked against an undisturbed run of the same seed."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import ClassVar

import pytest
from conftest import REPO, run_cli
from PIL import Image

HORSE = REPO / "samples" / "horse.png"
BATCH = ("batch", str(HORSE), "--count", "8", "--format", "png", "--cells", "70", "--seed", "4")


def _children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(x) for x in out.split()]


def _run_killing(out: Path, sig: int, kills: int, extra: tuple[str, ...] = ()) -> tuple:
    """The batch on two workers, ``kills`` of them sent ``sig`` one after another."""
    proc = subprocess.Popen([sys.executable, "-m", "mazeart", *BATCH, "-o", str(out), "--jobs",
                             "2", *extra], stderr=subprocess.PIPE, text=True)  # fmt: skip
    sent, deadline = 0, time.monotonic() + 120
    while sent < kills and proc.poll() is None and time.monotonic() < deadline:
        kids = _children(proc.pid)
        if kids:
            os.kill(kids[0], sig)
            sent += 1
            while proc.poll() is None and kids[0] in _children(proc.pid):
                time.sleep(0.02)
            time.sleep(0.05)  # the new pool's workers start
        time.sleep(0.02)
    err = proc.communicate(timeout=300)[1]
    return proc.returncode, err, sent


@pytest.fixture(scope="module")
def undisturbed(tmp_path_factory) -> dict[str, bytes]:
    out = tmp_path_factory.mktemp("calm") / "b"
    assert run_cli(*BATCH, "-o", out, "--jobs", "1").returncode == 0
    return {p.name: p.read_bytes() for p in out.iterdir()}


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGSEGV],
                         ids=["kill", "term", "segv"])  # fmt: skip
def test_a_worker_that_dies_is_retried_and_the_batch_is_whole(sig, tmp_path, undisturbed):
    status, err, sent = _run_killing(tmp_path / "b", sig, 1)
    assert sent == 1 and status == 0, err
    got = {p.name: p.read_bytes() for p in (tmp_path / "b").iterdir()}
    assert got == undisturbed  # the same mazes, byte for byte, as a run nobody disturbed


def test_a_worker_that_dies_twice_is_one_line_and_what_finished_is_kept(tmp_path, undisturbed):
    status, err, sent = _run_killing(tmp_path / "b", signal.SIGKILL, 2)
    assert sent == 2 and status == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert "died twice" in err
    folder = tmp_path / "b"
    rows = json.loads((folder / "metrics.json").read_text())
    listed = {name for row in rows for name in row["files"]}
    assert {p.name for p in folder.iterdir()} == listed | {"metrics.json"}  # no partial file
    assert f"the {len(rows)} of 8 mazes finished" in err
    for name in listed:  # each kept file whole: the undisturbed run's bytes
        assert (folder / name).read_bytes() == undisturbed[name]
        Image.open(folder / name).verify()


def test_ctrl_c_in_a_batch_exits_130_and_keeps_what_finished(tmp_path, undisturbed):
    folder = tmp_path / "b"
    proc = subprocess.Popen([sys.executable, "-m", "mazeart", *BATCH, "-o", str(folder),
                             "--jobs", "1"], stderr=subprocess.PIPE, text=True)  # fmt: skip
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # wait for the third maze staged, then interrupt
        staged = [p for d in folder.glob(".mazeart-batch-*") for p in d.glob("maze-*.png")]
        if len(staged) >= 3:
            break
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    err = proc.communicate(timeout=120)[1]
    assert proc.returncode == 130 and err.strip() == "mazeart: interrupted", err
    rows = json.loads((folder / "metrics.json").read_text())
    assert len(rows) >= 3
    assert {p.name for p in folder.iterdir()} == {n for r in rows for n in r["files"]} | {
        "metrics.json"
    }
    assert all((folder / n).read_bytes() == undisturbed[n] for r in rows for n in r["files"])


def test_a_batch_never_writes_over_its_input(tmp_path):
    folder = tmp_path / "m"
    folder.mkdir()
    picture = folder / "maze-0001.png"
    picture.write_bytes(HORSE.read_bytes())
    res = run_cli("batch", picture, "-o", folder, "--count", "2", "--format", "png")
    assert res.returncode == 2 and "it is the batch's input" in res.stderr
    assert picture.read_bytes() == HORSE.read_bytes() and list(folder.iterdir()) == [picture]
    # a picture of the same folder that the batch does not name is fine
    other = folder / "horse.png"
    other.write_bytes(HORSE.read_bytes())
    assert run_cli("batch", other, "-o", folder, "--count", "2", "--format", "png",
                   "--cells", "20").returncode == 0  # fmt: skip
    assert other.read_bytes() == HORSE.read_bytes()


def test_a_batch_moves_all_of_its_files_or_none(tmp_path, monkeypatch):
    """A move that fails half way puts back what was there: the folder is as it was."""
    from mazeart import batch

    folder = tmp_path / "b"
    batch.run_batch("8x6", 3, folder, rng=1, jobs=1, formats="svg,json")
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    real, into = os.replace, []

    def failing(src, dst):  # the third file moved into the folder fails
        if Path(dst).parent == folder:
            into.append(dst)
            if len(into) == 3:
                raise OSError(28, "No space left on device")
        return real(src, dst)

    monkeypatch.setattr(batch.os, "replace", failing)
    with pytest.raises(batch.MazeartError, match="nothing in it changed"):
        batch.run_batch("8x6", 3, folder, rng=2, jobs=1, formats="svg,json")
    monkeypatch.setattr(batch.os, "replace", real)
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


@pytest.mark.parametrize("jobs", ["99999999999999999999", "257", "-3", "0"])
@pytest.mark.parametrize("command", ["batch", "book"])
def test_any_number_of_jobs_is_one_line(jobs, command, tmp_path):
    out = tmp_path / ("b" if command == "batch" else "b.pdf")
    res = run_cli(command, "10x10", "-o", out, "--count", "2", "--jobs", jobs)
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and "--jobs" in res.stderr
    assert not out.exists()


def test_a_scheduler_that_accepts_and_says_nothing_is_one_line(tmp_path, monkeypatch):
    """A listener that takes the connection and never answers: refused within the deadline."""
    import socket
    import threading

    pytest.importorskip("distributed")
    from conftest import run_cli as run

    monkeypatch.setattr("mazeart.cli._CONNECT_TIMEOUT", 1.0)
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(5)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            with contextlib.suppress(OSError):
                held.append(server.accept()[0])

    threading.Thread(target=accept, daemon=True).start()
    port = server.getsockname()[1]
    started = time.monotonic()
    try:
        res = run("batch", "8x6", "-o", tmp_path / "b", "--count", "2",
                  "--scheduler", f"tcp://127.0.0.1:{port}")  # fmt: skip
    finally:
        stop.set()
        server.close()
    assert res.returncode == 2 and res.stderr.count("\n") == 1, res.stderr
    assert "did not answer" in res.stderr or "cannot reach" in res.stderr
    assert time.monotonic() - started < 30 and not (tmp_path / "b").exists()


def test_a_scheduler_with_no_workers_is_one_line(tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=None) as cluster:
        res = run_cli("batch", "8x6", "-o", tmp_path / "b", "--count", "2",
                      "--scheduler", cluster.scheduler_address)  # fmt: skip
    assert res.returncode == 2 and "has no workers" in res.stderr, res.stderr
    assert not (tmp_path / "b").exists()


def test_a_cluster_whose_last_worker_dies_is_not_waited_on_forever(monkeypatch):
    """Results are awaited in slices; between them the cluster's workers are counted."""
    from concurrent.futures import ThreadPoolExecutor

    from mazeart import _pool

    monkeypatch.setattr(_pool, "WATCH_EVERY", 0.2)
    gone = threading.Event()
    with ThreadPoolExecutor(1) as inner:
        watched = _pool.Watched(inner, lambda: not gone.is_set())
        items = _pool.ordered_map(_sleep_forever, [gone], executor=watched)
        threading.Timer(0.5, gone.set).start()  # the last worker goes away
        with pytest.raises(_pool.MazeartError, match="no workers left"):
            next(items)
        items.close()


def _sleep_forever(gone) -> None:
    gone.wait()
    time.sleep(0.5)


class _BrokenAtSubmit:
    """A process pool whose worker died before the next item was handed over: its first
    ``breaks`` submits raise, as ``ProcessPoolExecutor.submit`` does on a broken pool."""

    made: ClassVar[list[_BrokenAtSubmit]] = []

    def __init__(self, breaks: int) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self.breaks, self.inner = breaks, ThreadPoolExecutor(1)
        _BrokenAtSubmit.made.append(self)

    def submit(self, *args, **kwargs):
        from concurrent.futures.process import BrokenProcessPool

        if self.breaks:
            self.breaks -= 1
            raise BrokenProcessPool("A child process terminated abruptly")
        return self.inner.submit(*args, **kwargs)

    def shutdown(self, *args, **kwargs) -> None:
        self.inner.shutdown(wait=True)


@pytest.mark.parametrize("deaths", [1, 2])
def test_a_pool_broken_before_an_item_is_handed_over_retries_once(monkeypatch, deaths):
    """A worker can die between two items, so that handing over the next one is what finds
    the pool broken (the SIGTERM case above once ended so, in a traceback): the items
    still to do run once more in a new pool, in order; a second death is the one error
    that names it."""
    from mazeart import _pool

    _BrokenAtSubmit.made.clear()
    pools = iter([_BrokenAtSubmit(1), _BrokenAtSubmit(deaths - 1)])
    monkeypatch.setattr(_pool, "_pool", lambda workers: next(pools))
    run = _pool.ordered_map(abs, [-1, -2, -3, -4, -5], jobs=2)
    if deaths == 1:
        assert list(run) == [1, 2, 3, 4, 5]
        assert len(_BrokenAtSubmit.made) == 2
    else:
        with pytest.raises(_pool.WorkerDied, match="died twice"):
            list(run)
