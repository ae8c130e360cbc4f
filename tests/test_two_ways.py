"""Every kernel gives the same answer run by Python as compiled by numba.

A small job runs its kernels as Python and a large one compiles them (see
:mod:`mazeart._jit`), so a user's maze must not depend on which way ran. A
workload through the public API (every generator on every grid, the picture's
guidance, rooms, shaping, solving, measuring and drawing) runs once with every
kernel as Python and once with every kernel compiled, and what it makes is
compared byte for byte. While it runs as Python a profiler notes which kernels
ran, so that a kernel the workload does not reach is named (and the workload
grows) rather than silently untested.
"""

from __future__ import annotations

import hashlib
import importlib
import pkgutil
from pathlib import Path

import numpy as np
import pytest

import mazeart
from mazeart._jit import _Kernel, jit_mode
from mazeart.errors import MazeartError
from mazeart.generators import ALGORITHMS
from mazeart.grids import GRIDS
from mazeart.mazefile import dumps

SAMPLES = Path(__file__).resolve().parents[1] / "samples"


def all_kernels() -> dict[object, str]:
    """Every kernel of the package: its Python code → its name."""
    found: dict[object, str] = {}
    for info in pkgutil.walk_packages(mazeart.__path__, "mazeart."):
        if info.name == "mazeart.__main__":
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, _Kernel) and value.__module__ == info.name:
                found[value.py_func.__code__] = f"{info.name}.{value.__qualname__}"
    return found


def digest(value) -> str:
    if isinstance(value, bytes | str):
        data = value.encode() if isinstance(value, str) else value
    else:
        data = np.ascontiguousarray(value).tobytes()
    return hashlib.sha256(data).hexdigest()[:16]


def workload(tmp: Path, part: str = "all") -> dict[str, str]:
    """What the public API makes, as digests by name: all of it, or its ``"square"`` part
    (the square and weave grids, the pictures, the streams) or its ``"grids"`` part (the
    other grids), which compile different kernels (see ``warm`` in ``conftest.py``)."""
    out: dict[str, str] = {}

    def keep(name: str, maze) -> None:
        out[name] = digest(dumps(maze))

    own = ("square", "weave")
    for kind in [k for k in GRIDS if part == "all" or (k in own) == (part == "square")]:
        grid = {"weave": True} if kind == "weave" else {"grid": kind}
        first = None
        for name in ALGORITHMS:
            try:
                made = mazeart.make("9x7", algorithm=name, rng=7, record=True, **grid)
            except MazeartError:
                continue  # not on this grid: a refusal, the same both ways
            keep(f"{kind}/{name}", made.maze)
            first = first or made
        maze = first.maze
        for method in ("bfs", "astar", "dead-end-filling", "wall-follower"):
            try:
                path = mazeart.solve(maze, method=method)
            except MazeartError:
                continue
            out[f"{kind}/solve-{method}"] = digest(np.asarray(path))
        out[f"{kind}/distances"] = digest(np.asarray(mazeart.distances(maze, maze.entrance)))
        keep(f"{kind}/braid", mazeart.braid(maze, 0.5, rng=1))
        keep(f"{kind}/prune", mazeart.prune_dead_ends(maze))
        keep(f"{kind}/tags", mazeart.place_tags(maze, {"loot": 2}, rng=1))
        out[f"{kind}/measure"] = repr(mazeart.measure(maze))
        paths = mazeart.random_paths(mazeart.braid(maze, 1.0, rng=2), 2, rng=3)
        out[f"{kind}/paths"] = digest(b"".join(np.asarray(p).tobytes() for p in paths))
        # (at 40 cells the word falls apart on every grid, the adaptive one included)
        apart = mazeart.make(str(SAMPLES / "word.png"), rng=4, islands="separate", cells=40, **grid)
        keep(f"{kind}/connect", mazeart.connect(apart.maze))
        try:  # a solution that writes a letter (a weave refuses it: the same both ways)
            keep(f"{kind}/route", mazeart.make("16x12", rng=5, solution_text="L", **grid).maze)
        except MazeartError as err:
            out[f"{kind}/route"] = str(err)
        for suffix in ("svg", "png"):
            path = mazeart.save(first, tmp / f"{kind}.{suffix}")
            out[f"{kind}/{suffix}"] = digest(path.read_bytes())
        # one pen stroke per group of walls, a sheet to cut, a model to print
        for name, how in (("one.svg", {"plotter": True, "one_stroke": True}),
                          ("cut.svg", {"cut": True}), ("stl", {"solution": True})):  # fmt: skip
            path = mazeart.save(first, tmp / f"{kind}.{name}", **how)
            out[f"{kind}/{name}"] = digest(path.read_bytes())
    if part == "grids":
        return out
    square = mazeart.make("12x9", rng=3).maze
    from mazeart.export.mesh import render_model, solid_model

    out["model/render"] = digest(render_model(solid_model(square), width=120).tobytes())
    for method in ("bfs", "astar", "dead-end-filling", "wall-follower"):
        out[f"solve/{method}"] = digest(np.asarray(mazeart.solve(square, method=method)))
    for name, options in {
        "horse": {},
        "horse-blocks": {"geometry": "blocks"},
        "horse-smooth": {"outline": "smooth", "prune": True},
        "logo-edges": {"edges": True},
        "logo-regions": {"regions": True},
        "word-separate": {"islands": "separate"},
        "word-blocks": {"geometry": "blocks", "braid": 0.5},
        "rooms-hybrid": {"rooms": str(SAMPLES / "rooms-fractions.toml"), "algorithm": "hybrid"},
        "camera-tone": {"tone": True},
        "rooms": {"rooms": str(SAMPLES / "rooms-fractions.toml")},
        "hard": {"difficulty": "hard", "best_of": 2},
    }.items():
        picture = {"logo": "logo.png", "word": "word.png"}.get(name.split("-")[0], "horse.png")
        made = mazeart.make(str(SAMPLES / picture), rng=5, cells=28, **options)
        keep(f"picture/{name}", made.maze)
        for suffix in ("svg", "png", "txt", "pdf"):
            try:
                path = mazeart.save(made, tmp / f"{name}.{suffix}")
            except MazeartError:
                continue
            out[f"picture/{name}.{suffix}"] = digest(path.read_bytes())
    blocks = mazeart.make(str(SAMPLES / "word.png"), rng=5, cells=40, geometry="blocks",
                          islands="separate").maze  # fmt: skip
    keep("blocks/connect", mazeart.connect(blocks))
    logo = mazeart.make(str(SAMPLES / "logo.png"), rng=5, cells=40, geometry="blocks").maze
    keep("blocks/braid", mazeart.braid(logo, 0.5, rng=1))
    gif = mazeart.save(mazeart.make("8x6", rng=2, record=True), tmp / "carve.gif")
    out["gif"] = digest(gif.read_bytes())
    from mazeart.stream import stream_json, stream_png

    stream_png(tmp / "rows.png", 20, 30, rng=1)
    out["stream.png"] = digest((tmp / "rows.png").read_bytes())
    stream_json(tmp / "rows.json", 20, 30, rng=1)
    out["stream.json"] = digest((tmp / "rows.json").read_bytes())
    return out


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


@pytest.fixture(scope="module")
def both_ways(tmp_path_factory, monkeypatch_module):
    kernels = all_kernels()
    ran: set[object] = set()
    call = _Kernel.__call__

    def note(self, *args, **kwargs):  # every call of a kernel, named or nested, comes here
        ran.add(self.py_func.__code__)
        return call(self, *args, **kwargs)

    folder = tmp_path_factory.mktemp("two-ways")
    monkeypatch_module.setenv("SOURCE_DATE_EPOCH", "1700000000")  # a PDF's date, the same both ways
    with jit_mode("never"):
        _Kernel.__call__ = note  # type: ignore[method-assign]
        try:
            as_python = workload(folder)
        finally:
            _Kernel.__call__ = call  # type: ignore[method-assign]
    with jit_mode("always"):
        compiled = workload(folder)
    return as_python, compiled, {kernels[c] for c in ran}, set(kernels.values())


def test_python_and_numba_make_the_same(both_ways):
    as_python, compiled, _, _ = both_ways
    assert as_python.keys() == compiled.keys()
    differ = sorted(k for k in as_python if as_python[k] != compiled[k])
    assert not differ, f"run as Python and compiled they differ: {differ}"


# Kernels the workload above cannot reach through the public API, each with its reason.
UNREACHED: dict[str, str] = {}


def test_the_workload_reaches_every_kernel(both_ways):
    _, _, ran, every = both_ways
    missed = sorted(every - ran - set(UNREACHED))
    assert not missed, f"no part of the workload runs {missed}"
    assert not set(UNREACHED) - every, "UNREACHED names a kernel that is gone"
