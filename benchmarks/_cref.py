"""Build and run the plain C reference generators (``c_reference.c``), and check their mazes.

    python benchmarks/_cref.py                    # C table at 1000 and 4000, plus the checks
    python benchmarks/_cref.py --compare          # also the package's generators, side by side
    python benchmarks/_cref.py --sizes 500 --repeat 5

The C program is compiled with the system compiler (``cc``, ``gcc`` or
``clang``, ``-O2 -std=c11``). Each C time is the best of ``--repeat`` runs, each
run allocating and zeroing its arrays. With ``--compare`` the package's
registered function of the same family is timed on an all-free ``n x n`` preset
(best of ``--repeat`` after one warm-up call), and so is its compiled kernel on
its own (the arrays of a prepared ``CellGrid``, fresh passages each run), which
leaves out checking the preset, labelling its parts and building the Maze.

The checks: every C family's maze is a spanning tree of the grid (symmetric
passage bits, no passage out of the grid, ``H * W - 1`` passages, connected),
and, where the package's kernel draws the same random numbers in the same
order, the C maze equals the package kernel's maze for the same stream.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections import deque
from pathlib import Path

import numpy as np

SOURCE = Path(__file__).resolve().with_name("c_reference.c")

FAMILIES = (
    "backtracker", "prim", "kruskal", "wilson", "eller", "sidewinder", "binary_tree", "digging"
)  # fmt: skip
"""C names of the families, in table order."""

BLOCKS = ("digging",)
"""Families carved on blocks (the package's ``geometry="blocks"``): their passages are a tree
over the road blocks, which leaves the other blocks as wall."""

PACKAGE_NAME = {f: f.replace("_", "-") for f in FAMILIES}
"""The registered name of each family in ``mazeart.ALGORITHMS``."""

CFLAGS = ("-O2", "-std=c11")

N, E, S, W = 1, 2, 4, 8


def build(out_dir: Path, extra_flags: tuple[str, ...] = ()) -> Path | None:
    """Compile ``c_reference.c`` into ``out_dir``; None when there is no C compiler."""
    compiler = next((c for c in ("cc", "gcc", "clang") if shutil.which(c)), None)
    if compiler is None:
        return None
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    binary = out_dir / "c_reference"
    subprocess.run(
        [compiler, *CFLAGS, *extra_flags, "-o", str(binary), str(SOURCE)],
        check=True,
        capture_output=True,
        text=True,
    )
    return binary


def run(binary: Path, algo: str, h: int, w: int, seed: int = 1, repeat: int = 3) -> dict:
    """Run one family; the parsed JSON line (``best_s``, ``checksum``, ``edges``, ...)."""
    res = subprocess.run(
        [str(binary), algo, str(h), str(w), str(seed), str(repeat)],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(res.stdout)


def dump(binary: Path, algo: str, h: int, w: int, seed: int = 1) -> np.ndarray:
    """The ``(h, w)`` uint8 passages the C program carves for ``seed``."""
    res = subprocess.run(
        [str(binary), algo, str(h), str(w), str(seed), "1", "-"], check=True, capture_output=True
    )
    if len(res.stdout) != h * w:
        raise RuntimeError(f"{algo}: dumped {len(res.stdout)} bytes, expected {h * w}")
    return np.frombuffer(res.stdout, dtype=np.uint8).reshape(h, w).copy()


def tree_problems(p: np.ndarray, *, blocks: bool = False) -> list[str]:
    """Why passages ``p`` are not a spanning tree of their grid (empty when they are); with
    ``blocks``, why they are not a road: a tree over the blocks it touches (the road), with
    no two road blocks side by side unless joined (an induced tree) and no 2 x 2 of road."""
    h, w = p.shape
    problems = []
    road = (p != 0) if blocks else np.ones((h, w), bool)
    if blocks and h * w > 1:
        if not road.any():
            problems.append("no road")
        side = (road[:, :-1] & road[:, 1:] & ((p[:, :-1] & E) == 0)).any() or (
            road[:-1] & road[1:] & ((p[:-1] & S) == 0)
        ).any()
        if side:
            problems.append("road blocks side by side, not joined")
        if (road[:-1, :-1] & road[1:, :-1] & road[:-1, 1:] & road[1:, 1:]).any():
            problems.append("a 2 x 2 square of road")
    if np.any(p > 15):
        problems.append("bits above W")
    if np.any(p[0] & N) or np.any(p[-1] & S) or np.any(p[:, 0] & W) or np.any(p[:, -1] & E):
        problems.append("passage out of the grid")
    if not np.array_equal((p[:, :-1] & E) != 0, (p[:, 1:] & W) != 0):
        problems.append("E/W bits not symmetric")
    if not np.array_equal((p[:-1] & S) != 0, (p[1:] & N) != 0):
        problems.append("S/N bits not symmetric")
    edges = int(np.count_nonzero(p & E) + np.count_nonzero(p & S))
    cells = int(road.sum()) if h * w > 1 else 1
    if edges != cells - 1:
        problems.append(f"{edges} passages, expected {cells - 1}")
    first = tuple(int(i) for i in np.argwhere(road)[0]) if road.any() else (0, 0)
    seen = ~road if blocks else np.zeros((h, w), dtype=bool)
    seen[first] = True
    queue = deque([first])
    while queue:
        r, c = queue.popleft()
        bits = p[r, c]
        for bit, dr, dc in ((N, -1, 0), (E, 0, 1), (S, 1, 0), (W, 0, -1)):
            rr, cc = r + dr, c + dc
            if bits & bit and 0 <= rr < h and 0 <= cc < w and not seen[rr, cc]:
                seen[rr, cc] = True
                queue.append((rr, cc))
    if not seen.all():
        problems.append(f"{int((~seen).sum())} cells not reached from (0, 0)")
    return problems


# ------------------------------------------------------------------ the package side

_GOLDEN = 0x9E3779B97F4A7C15
_MASK = (1 << 64) - 1


def _below(state: int, k: int) -> tuple[int, int]:
    """SplitMix64 + Lemire draw in pure Python: (value in [0, k), new state)."""
    s = (state + _GOLDEN) & _MASK
    z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    z ^= z >> 31
    return ((z >> 32) * k) >> 32, s


# Package kernels that draw like the C program; True when the C draws a start cell first.
_SAME_STREAM = {
    "backtracker": ("mazeart._kernels.carve", "backtracker", True),
    "prim": ("mazeart._kernels.carve", "prim", True),
    "wilson": ("mazeart._kernels.carve", "wilson", True),
    "sidewinder": ("mazeart.generators.sidewinder", "_sidewinder", False),
    "binary_tree": ("mazeart.generators.binary_tree", "_binary_tree", False),
}


def _framed(h: int, w: int) -> tuple[np.ndarray, np.ndarray, int]:
    free = np.zeros((h + 2, w + 2), dtype=bool)
    free[1:-1, 1:-1] = True
    stride = w + 2
    return free.reshape(-1), np.array([-stride, 1, stride, -1], dtype=np.int64), stride


def call(kernel, module, free, offsets, stride, starts, state, passages, order=None) -> None:
    """Run a package kernel on framed arrays: the kernels written for every grid
    (``mazeart._kernels``) take the grid's topology, the square-only ones its steps."""
    from mazeart._kernels.topology import square_topology

    order = np.zeros(1, np.int64) if order is None else order
    if module.startswith("mazeart._kernels"):
        kernel(square_topology(stride), free, starts, state, passages, order)
    else:
        kernel(free, offsets, stride, starts, state, passages, order)


def package_same_stream(algo: str, h: int, w: int, seed: int) -> np.ndarray | None:
    """The package kernel's ``(h, w)`` passages for the C program's stream (None if it draws
    differently: kruskal's bucketed shuffle, eller's buffered coins)."""
    if algo not in _SAME_STREAM:
        return None
    import importlib

    module, attr, draws_start = _SAME_STREAM[algo]
    kernel = getattr(importlib.import_module(module), attr)
    free, offsets, stride = _framed(h, w)
    state = seed & _MASK
    start = 0
    if draws_start:
        start, state = _below(state, h * w)
    r, c = divmod(start, w)
    starts = np.array([(r + 1) * stride + c + 1], dtype=np.int64)
    passages = np.zeros(free.size, dtype=np.uint8)
    call(kernel, module, free, offsets, stride, starts, np.array([state], np.uint64), passages)
    return passages.reshape(h + 2, w + 2)[1:-1, 1:-1].copy()


def best_of(fn, repeat: int) -> float:
    """Best wall time of ``repeat`` calls after one warm-up call."""
    fn()
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def time_package(algo: str, n: int, repeat: int) -> float:
    """Best time of the registered function on an all-free ``n x n`` preset."""
    from mazeart import ALGORITHMS

    func = ALGORITHMS[PACKAGE_NAME[algo]].func
    weights = np.zeros((n, n), np.int32)
    return best_of(lambda: func(weights, np.random.default_rng(1)), repeat)


_KERNELS = {
    **{k: v[:2] for k, v in _SAME_STREAM.items()},
    "eller": ("mazeart.generators.eller", "_eller"),
    "digging": ("mazeart.generators.digging", "_dig"),
}


def time_package_kernel(algo: str, n: int, repeat: int) -> float:
    """Best time of the family's compiled work alone on a prepared ``CellGrid``.

    Each run zeroes fresh passages and runs the kernel; the row-by-row families
    also run the (here empty) forest join the registered function runs, and
    kruskal is that join itself.
    """
    import importlib

    from mazeart.generators._common import CellGrid

    g = CellGrid(np.zeros((n, n), np.int32), np.random.default_rng(1))
    state0 = g.state.copy()
    kernel, module = None, ""
    if algo in _KERNELS:
        module, attr = _KERNELS[algo]
        kernel = getattr(importlib.import_module(module), attr)
    join = algo in ("kruskal", "eller", "sidewinder", "binary_tree")

    def once():
        g.passages = np.zeros(g.flat_free.size, np.uint8)
        g.state[:] = state0
        if kernel is not None:
            call(kernel, module, g.flat_free, g.offsets, g.stride, g.starts, g.state,
                 g.passages, g.order)  # fmt: skip
        if join:
            g.complete()

    return best_of(once, repeat)


# ------------------------------------------------------------------------ command line


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 4000])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check-size", type=int, default=50)
    ap.add_argument("--compare", action="store_true", help="time the package's generators too")
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        binary = build(Path(tmp))
        if binary is None:
            print("no C compiler (cc, gcc or clang) found", file=sys.stderr)
            return 1

        n = args.check_size
        print(f"checks: spanning tree at {n} x {n}, {n} x {2 * n + 3}, 1 x {n}, {n} x 1, 1 x 1")
        failed = False
        try:
            import mazeart  # noqa: F401

            have_package = True
        except ImportError:
            have_package = False
        for algo in FAMILIES:
            notes = []
            for h, w in ((n, n), (n, 2 * n + 3), (1, n), (n, 1), (1, 1)):
                for seed in (args.seed, args.seed + 1):
                    problems = tree_problems(dump(binary, algo, h, w, seed),
                                             blocks=algo in BLOCKS)  # fmt: skip
                    if problems:
                        failed = True
                        notes.append(f"{h}x{w} seed {seed}: {'; '.join(problems)}")
            what = "road tree ok" if algo in BLOCKS else "spanning tree ok"
            line = what if not notes else "FAILED " + " | ".join(notes)
            if have_package:
                same = package_same_stream(algo, n, 2 * n + 3, args.seed)
                if same is not None:
                    equal = np.array_equal(same, dump(binary, algo, n, 2 * n + 3, args.seed))
                    failed |= not equal
                    line += (
                        ", same maze as the package kernel" if equal else ", DIFFERS from kernel"
                    )
            print(f"  {algo:<12} {line}")

        for size in args.sizes:
            print(f"\n{size} x {size} cells, best of {args.repeat}")
            head = f"  {'family':<12} {'C ms':>9} {'C M/s':>7} {'edges ok':>8}"
            if args.compare:
                head += f" {'pkg ms':>9} {'pkg/C':>6} {'kernel ms':>9} {'kern/C':>6}"
            print(head)
            for algo in FAMILIES:
                res = run(binary, algo, size, size, args.seed, args.repeat)
                t = res["best_s"]
                ok = algo in BLOCKS or res["edges"] == size * size - 1
                failed |= not ok
                line = f"  {algo:<12} {t * 1e3:9.1f} {size * size / t / 1e6:7.1f} {ok!s:>8}"
                if args.compare:
                    tp = time_package(algo, size, args.repeat)
                    tk = time_package_kernel(algo, size, args.repeat)
                    line += f" {tp * 1e3:9.1f} {tp / t:6.2f} {tk * 1e3:9.1f} {tk / t:6.2f}"
                print(line, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
