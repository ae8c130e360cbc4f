"""The places a run meets the machine: the kernel cache, photos' orientation, file permissions,
and several outputs written as one."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import mazeart
from mazeart import MazeartError
from mazeart._io import all_or_nothing, atomic_write

MAKE = "import mazeart; print(mazeart.make('....\\n....', rng=1).maze.n_cells)"


def _python(code: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    """``code`` in a fresh interpreter, every kernel compiled (a small job would run them as
    Python and never reach the cache)."""
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "TMPDIR": str(tmp_path), "MAZEART_JIT": "always", **env},
        timeout=300,
    )


def _denied(allowed: str) -> str:
    """Code that makes every folder but ``allowed`` unwritable, as on a read-only install
    with an unwritable home, for numba's probes and ours alike (root writes anywhere)."""
    return textwrap.dedent(f"""
        import tempfile
        real = tempfile.TemporaryFile
        def probe(*args, dir=None, **kwargs):
            if {allowed!r} and str(dir).startswith({allowed!r}):
                return real(*args, dir=dir, **kwargs)
            raise PermissionError(13, "Permission denied", str(dir))
        tempfile.TemporaryFile = probe
    """)


def test_kernels_fall_back_to_a_temporary_cache(tmp_path):
    run = _python(_denied(str(tmp_path)) + MAKE, tmp_path, NUMBA_CACHE_DIR="")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "8" and run.stderr == ""
    cache = tmp_path / f"mazeart-numba-cache-{os.getuid()}"
    assert any(cache.rglob("*.nbi")), "nothing was cached in the fallback folder"


def test_kernels_run_uncached_with_one_warning_when_nothing_is_writable(tmp_path):
    run = _python(_denied("") + MAKE, tmp_path, NUMBA_CACHE_DIR="")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "8"
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("mazeart: warning: no writable cache")


def test_exif_orientation_turns_the_photo_upright(tmp_path):
    # A wide picture stored sideways: EXIF orientation 6 says "turn 90 degrees clockwise".
    pixels = np.full((20, 40), 255, np.uint8)
    pixels[:, :10] = 0  # a dark band on the stored picture's left: the top once upright
    img = Image.fromarray(pixels)
    exif = Image.Exif()
    exif[0x0112] = 6
    path = tmp_path / "photo.jpg"
    img.save(path, exif=exif, quality=95)
    weights = mazeart.make_preset(path, cells=10)
    assert weights.shape == (20, 10)  # upright: tall, not wide
    assert (weights[:5] == mazeart.FREE).all() and (weights[6:] != mazeart.FREE).all()


def test_read_only_output_is_refused_and_kept(tmp_path, monkeypatch):
    out = tmp_path / "maze.svg"
    out.write_text("mine")
    out.chmod(0o444)
    # root may write anywhere, as the shell's > would; a user may not: ask as a user would
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, m: False if Path(p) == out else real(p, m))
    with pytest.raises(MazeartError, match="read-only"), atomic_write(out) as fh:
        fh.write(b"new")
    assert out.read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["maze.svg"]


def test_a_replaced_file_keeps_its_permissions(tmp_path):
    out = tmp_path / "maze.svg"
    out.write_text("old")
    out.chmod(0o640)
    with atomic_write(out) as fh:
        fh.write(b"new")
    assert out.read_text() == "new" and (out.stat().st_mode & 0o777) == 0o640


def test_several_outputs_move_into_place_together_or_not_at_all(tmp_path):
    a, b = tmp_path / "a.svg", tmp_path / "b.gif"
    a.write_text("old a")
    with pytest.raises(RuntimeError), all_or_nothing():
        with atomic_write(a) as fh:
            fh.write(b"new a")
        assert a.read_text() == "old a"  # complete, but waiting for the others
        raise RuntimeError("the second output failed")
    assert a.read_text() == "old a" and not b.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.svg"]
    with all_or_nothing():
        for path in (a, b):
            with atomic_write(path) as fh:
                fh.write(b"new")
    assert a.read_bytes() == b.read_bytes() == b"new"


def test_stale_temporary_files_are_swept_but_a_living_writers_is_not(tmp_path):
    out = tmp_path / "maze.svg"
    stale = tmp_path / ".maze.svg.k1ll3d00.part"  # a killed run's: nobody holds its lock
    stale.write_text("half")
    other = tmp_path / ".maze.svg.notes.part"  # not of our naming: never touched
    other.write_text("mine")
    with atomic_write(out) as fh:
        (living,) = [p for p in tmp_path.glob(".maze.svg.*.part") if p not in (stale, other)]
        with atomic_write(out) as fh2:  # a second writer to the same place sweeps...
            fh2.write(b"second")
        assert living.exists()  # ...but not the file the first one still writes
        fh.write(b"first")
    assert not stale.exists() and other.exists()
    assert out.read_bytes() == b"first"


@pytest.mark.parametrize("delivered", ["to this thread", "to another thread"])
def test_a_signal_just_after_the_temporary_file_is_made_leaves_nothing(
    tmp_path, monkeypatch, delivered
):
    """A signal the system hands to another thread of the process has its handler run
    in the main thread at once, whatever that thread's mask: it too must wait."""
    import signal
    import tempfile

    from mazeart._signals import guarded

    made = tempfile.mkstemp

    def mkstemp_then_ctrl_c(*args, **kwargs):
        fd, name = made(*args, **kwargs)
        if delivered == "to this thread":  # lands before the writer has noted the file
            os.kill(os.getpid(), signal.SIGINT)
        else:  # what Python does when another thread took it: the handler runs here
            signal.getsignal(signal.SIGINT)(signal.SIGINT, None)
        return fd, name

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp_then_ctrl_c)
    out = tmp_path / "maze.svg"
    out.write_text("old")

    def write() -> int:
        with atomic_write(out) as fh:
            fh.write(b"new")
        return 0

    assert guarded(write) == 130
    assert sorted(p.name for p in tmp_path.iterdir()) == ["maze.svg"]
    assert out.read_text() == "old"


def test_a_signal_between_a_writers_steps_leaves_nothing(tmp_path):
    import signal

    from mazeart._signals import guarded

    out = tmp_path / "maze.svg"
    kept = []

    def stopped_mid_step() -> int:  # the writer entered, then never resumed (its exit skipped)
        writer = atomic_write(out)
        kept.append(writer)  # held alive: nothing but the run's end removes its file
        writer.__enter__().write(b"half")
        assert len(list(tmp_path.glob(".maze.svg.*.part"))) == 1
        os.kill(os.getpid(), signal.SIGTERM)
        return 0

    assert guarded(stopped_mid_step) == 143
    assert list(tmp_path.iterdir()) == []


def test_a_second_signal_during_the_clean_up_waits(tmp_path, monkeypatch):
    import signal

    from mazeart import _signals

    out = tmp_path / "maze.svg"
    writer = atomic_write(out)
    cleaned = _signals._remove_pending

    def cleanup_hit_again() -> None:  # Ctrl-C pressed twice: the handler runs mid-clean-up
        signal.getsignal(signal.SIGINT)(signal.SIGINT, None)
        cleaned()

    monkeypatch.setattr(_signals, "_remove_pending", cleanup_hit_again)

    def stopped_mid_write() -> int:
        writer.__enter__().write(b"half")
        os.kill(os.getpid(), signal.SIGINT)
        return 0

    assert _signals.guarded(stopped_mid_write) == 130
    assert list(tmp_path.iterdir()) == []


def test_signals_are_not_left_held_when_one_arrives_as_they_are_held(monkeypatch):
    """CPython may run a pending handler inside the masking call itself."""
    import signal

    from mazeart import _signals

    real = signal.pthread_sigmask
    calls = []

    def mask_and_deliver(how, sigs):
        before = real(how, sigs)
        if how == signal.SIG_BLOCK and not calls:
            calls.append(how)
            signal.getsignal(signal.SIGTERM)(signal.SIGTERM, None)  # it lands right here
        return before

    monkeypatch.setattr(signal, "pthread_sigmask", mask_and_deliver)

    def hold() -> int:
        with _signals.held():
            pass
        return 0

    assert _signals.guarded(hold) == 143
    assert not set(_signals.HANDLED) & real(signal.SIG_BLOCK, [])  # nothing left blocked


def test_a_signal_python_cannot_raise_stops_the_run_in_one_line(tmp_path, capsys, monkeypatch):
    """A Ctrl-C that lands in a callback Python drops exceptions from (a process pool's
    fork bookkeeping, a finaliser) is neither printed as a traceback nor lost: the run
    stops before it writes."""
    import gc
    import signal

    from mazeart._signals import guarded

    class Doomed:
        def __del__(self) -> None:
            signal.getsignal(signal.SIGINT)(signal.SIGINT, None)

    dropped: list[BaseException] = []  # what Python would print as "Exception ignored in"
    monkeypatch.setattr(sys, "unraisablehook", lambda info: dropped.append(info.exc_value))
    out = tmp_path / "maze.svg"

    def dropped_then_write() -> int:
        Doomed()
        gc.collect()
        with atomic_write(out) as fh:
            fh.write(b"new")
        return 0

    assert guarded(dropped_then_write) == 130
    assert capsys.readouterr().err == "mazeart: interrupted\n"
    assert dropped == []
    assert list(tmp_path.iterdir()) == []

    class Loud:
        def __del__(self) -> None:
            raise RuntimeError("dropped")

    Loud()  # outside a run, Python's report is left alone
    gc.collect()
    assert [type(e).__name__ for e in dropped] == ["RuntimeError"]


def test_a_temporary_file_swept_before_it_is_locked_is_made_again(tmp_path, monkeypatch):
    """Another run's sweep can remove a file in the instant between its making and its lock."""
    import tempfile

    made = tempfile.mkstemp
    swept = []

    def made_then_swept(*args, **kwargs):
        fd, name = made(*args, **kwargs)
        if not swept:
            os.unlink(name)
            swept.append(name)
        return fd, name

    monkeypatch.setattr(tempfile, "mkstemp", made_then_swept)
    out = tmp_path / "maze.svg"
    with atomic_write(out) as fh:
        fh.write(b"whole")
    assert swept and out.read_bytes() == b"whole"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["maze.svg"]


def test_a_stop_swallowed_on_the_way_ends_the_run_before_it_writes(tmp_path):
    """Python drops an exception raised in a ctypes callback (numba writing its cache while
    it compiles): a Ctrl-C landing there is noted, and the run stops at its next step,
    with the Ctrl-C status and no output file."""
    import signal

    from mazeart import _signals
    from mazeart._progress import step

    out = tmp_path / "m.svg"

    def run() -> int:
        try:  # what a ctypes callback does with the handler's exception
            _signals._stop(signal.SIGINT, None)
        except _signals.Stopped:
            pass
        step("drawing")  # the next step
        out.write_text("drawn")
        return 0

    assert _signals.guarded(run) == 130 and not out.exists()
    step("carving")  # seen out: the next run is not stopped by it
