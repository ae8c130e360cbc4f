"""The main job's kernels compiled ahead of time, so that a run can start without numba.

numba compiles a kernel (or reads it from its cache) on first call, and its
first call in a process costs several times numba's import: it sets up its
whole compiler target. The kernels the main job calls (``mazeart picture.png
-o maze.svg``, or ``WxH``, or ``.png`` or ``.pdf`` out: the weighted DFS, the
checks, the joining of a picture's separate parts, the ends, the solution, the
drawing's path planning and painting) are therefore also built into one
extension module with :mod:`numba.pycc`, which needs a C compiler; loading that
module costs about a millisecond and imports no numba.

The module is built once, in the background, after a command-line job that
had to use numba (``python -m mazeart._aot`` builds it in the foreground), into
the user's cache folder (``MAZEART_AOT_DIR`` to choose another). Its name
holds a hash of everything it was built from (these sources, numba's and
Python's versions), so a changed kernel or an upgrade is never served by an
old build. ``MAZEART_AOT=0`` turns all of it off. A kernel uses the built
function only for arguments of exactly the types it was built for (checked
before each call: the built code trusts its arguments); anything else goes
to numba as before, so results never depend on which path ran.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# Argument kinds: an array is (dtype, ndim, writable), read-only allowed when not
# writable; "i8", "f8" and "b1" are Python (or numpy) ints, floats and bools.
# Results are written in numba's notation, read only by the build.
_B1, _U1, _I4, _I8, _U8, _F8 = "bool", "uint8", "int32", "int64", "uint64", "float64"
KERNELS: dict[tuple[str, str], tuple[tuple[Any, ...], str]] = {
    ("mazeart._graph", "_label_framed"): (((_B1, 1, True), "i8"), "Tuple((i4[::1], i8))"),
    ("mazeart._graph", "label_passages"): (
        ((_U1, 1, False), (_B1, 1, False), "i8"),
        "Tuple((i4[::1], i8))",
    ),
    ("mazeart._graph", "spanning_edges"): (
        ("i8", (_I8, 1, False), (_I8, 1, False), (_B1, 1, False)),
        "b1[::1]",
    ),
    ("mazeart.shape", "_voronoi"): (
        ((_I4, 1, False), (_B1, 1, False), "i8"),
        "Tuple((i4[::1], i4[::1], i8[::1]))",
    ),
    ("mazeart.shape", "_meetings"): (
        ((_I4, 1, False), (_I4, 1, False), (_B1, 1, False), "i8"),
        "i8[:, ::1]",
    ),
    ("mazeart.generators._common", "_reservoir_pick"): (
        ((_I4, 1, True), "i8", (_U8, 1, True)),
        "i8[::1]",
    ),
    ("mazeart.generators._common", "_pick"): (("i8", (_U8, 1, True)), "i8"),
    ("mazeart.generators._common", "_fill_lattice"): (((_B1, 2, True), (_I4, 2, True)), "none"),
    ("mazeart.generators._common", "lattice_passages"): (
        ((_I4, 2, True), "i8"),
        "Tuple((b1[:, ::1], u1[:, ::1]))",
    ),
    ("mazeart.generators.weighted_dfs", "_carve"): (
        ((_I4, 1, True), "i8", (_I8, 1, True), (_U8, 1, True), (_I4, 1, True), (_I8, 1, True)),
        "i8",
    ),
    ("mazeart.maze", "_check_grid"): (((_B1, 2, False), (_U1, 2, False), (_B1, 2, False)), "i8"),
    ("mazeart.solvers", "_farthest_pair"): (
        ((_U1, 1, False), "i8", "i8", (_I8, 1, True), (_I8, 1, True)),
        "Tuple((i8, i8, i8, b1))",
    ),
    ("mazeart.solvers", "_row_tree_pair"): (((_U1, 1, False), "i8", "i8"), "UniTuple(i8, 2)"),
    ("mazeart.solvers", "_bfs"): (((_U1, 1, False), "i8", "i8"), "i4[::1]"),
    ("mazeart.solvers", "_walk_back"): (((_U1, 1, False), "i8", (_I4, 1, False), "i8"), "i8[::1]"),
    ("mazeart.export.scene", "_row_runs"): (((_B1, 2, True),), "i8[:, ::1]"),
    ("mazeart.export.scene", "_walk_trails"): (
        ((_I8, 1, True), (_I8, 1, True), (_F8, 2, True), "i8"),
        "UniTuple(i8[::1], 2)",
    ),
    ("mazeart.export.scene", "_greedy_order"): (
        ((_F8, 2, True), "f8", "f8", "f8", "i8", "i8", (_I8, 1, True), (_I8, 1, True), "f8", "f8"),
        "Tuple((i8[::1], b1[::1]))",
    ),
    ("mazeart.export.scene", "_reorder"): (
        ((_I8, 1, True), (_I8, 1, True), (_B1, 1, True)),
        "UniTuple(i8[::1], 2)",
    ),
    ("mazeart.export.png", "_paint"): (
        ((_U1, 2, True), (_F8, 2, False), "f8", "f8", "i8", "i8", "b1"),
        "b1[::1]",
    ),
    ("mazeart.export.png", "_paint_segments"): (
        ((_U1, 2, True), (_F8, 2, False), "f8", "f8", "f8", "i8"),
        "none",
    ),
}
"""The kernels built ahead of time: (module, name) -> (argument kinds, result type)."""

_SOURCES = (
    "_aot.py", "_jit.py", "_graph.py", "_rng.py", "weights.py", "maze.py", "solvers.py",
    "generators/_common.py", "generators/_carve.py", "generators/weighted_dfs.py",
    "export/scene.py", "_kernels/topology.py", "_kernels/carve.py",
    "export/png.py", "shape.py",
)  # fmt: skip
"""The package's files the built module is made from (its name hashes them)."""


def enabled() -> bool:
    """Whether built kernels may be used and built (``MAZEART_AOT=0`` says no)."""
    return os.environ.get("MAZEART_AOT", "1") != "0"


def folder() -> Path:
    """Where the built module lives: ``MAZEART_AOT_DIR``, else the user's cache folder."""
    given = os.environ.get("MAZEART_AOT_DIR")
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mazeart"


def _stamp(package: str) -> str:
    """A package's version as its files say it (no import): its folder, size and time."""
    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        return f"{package}:none"
    st = os.stat(spec.origin)
    return f"{package}:{spec.origin}:{st.st_size}:{st.st_mtime_ns}"


@functools.cache
def module_name() -> str:
    """The built module's name for this package, numba and Python (a hash of them)."""
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for name in _SOURCES:
        digest.update((here / name).read_bytes())
    for package in ("numba", "llvmlite", "numpy"):
        digest.update(_stamp(package).encode())
    digest.update(sys.version.encode())
    return f"mazeart_aot_{digest.hexdigest()[:16]}"


_LOADED: list[Any] = []


def built() -> Any:
    """The built module, or None (not built, turned off, or it cannot be loaded)."""
    if not _LOADED:
        _LOADED.append(_load() if enabled() else None)
    return _LOADED[0]


def _load() -> Any:
    try:
        name = module_name()  # (no sources to read, e.g. in a zip: nothing is used)
    except OSError:
        return None
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    path = folder() / f"{name}{suffix}"
    if not path.is_file():
        return None
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            return None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except (ImportError, OSError):
        return None
    return module


def function(module: str, name: str) -> Any:
    """The built function of kernel ``module.name``, or None."""
    if (module, name) not in KERNELS:
        return None
    mod = built()
    return None if mod is None else getattr(mod, _export_name(module, name), None)


def _export_name(module: str, name: str) -> str:
    return module.replace(".", "_") + "__" + name


def fits(module: str, name: str, args: tuple[Any, ...]) -> bool:
    """Whether ``args`` are exactly of the types kernel ``module.name`` was built for."""
    import numpy as np

    kinds = KERNELS[(module, name)][0]
    if len(kinds) != len(args):
        return False
    for kind, value in zip(kinds, args, strict=True):
        if kind == "i8":
            if type(value) is not int and type(value) is not np.int64:
                return False
        elif kind == "f8":
            if type(value) is not float and type(value) is not np.float64:
                return False
        elif kind == "b1":
            if type(value) is not bool and type(value) is not np.bool_:
                return False
        else:
            dtype, ndim, writable = kind
            if not (
                type(value) is np.ndarray
                and value.dtype == np.dtype(dtype)  # (in the machine's byte order)
                and value.ndim == ndim
                and value.flags.c_contiguous
                and value.flags.aligned
                and (value.flags.writeable or not writable)
            ):
                return False
    return True


# ----------------------------------------------------------------------------- building


def compiler() -> str | None:
    """The C compiler the build would use, or None when there is none (or no setuptools,
    through which numba drives it)."""
    if importlib.util.find_spec("setuptools") is None:
        return None
    for name in (os.environ.get("CC", ""), "cc", "gcc", "clang"):
        if name and shutil.which(name.split()[0]):
            return name
    return None


def build_later() -> None:
    """Start building the module in the background, when it is missing, turned on, a C
    compiler exists and no other build is under way; return at once."""
    if not enabled() or built() is not None or compiler() is None:
        return
    target = folder()
    try:
        target.mkdir(parents=True, exist_ok=True)
        name = module_name()  # (raises OSError when there are no sources to read)
        if (target / f"{name}.failed").exists():
            return  # it cannot be built here (the file says why); a new version tries again
        lock = target / f"{name}.lock"
        with contextlib.suppress(FileNotFoundError):
            if time.time() - lock.stat().st_mtime > 600:  # a build killed long ago
                lock.unlink()
        try:  # one build at a time: the lock is made only if it is not there
            os.close(os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
        except FileExistsError:
            return
        # The child builds this very package (not one its folder happens to hold: -P, and
        # the package's own folder first on its path) and checks the name it was asked for.
        home = str(Path(__file__).resolve().parents[1])
        path = os.pathsep.join(filter(None, [home, os.environ.get("PYTHONPATH")]))
        try:
            subprocess.Popen(
                [sys.executable, "-P", "-m", "mazeart._aot", "--background", name],
                cwd=target,
                env={**os.environ, "PYTHONPATH": path},
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # not stopped with the job, nor by its Ctrl-C
                close_fds=True,
            )
        except OSError:
            lock.unlink()
    except OSError:
        return


def build() -> Path:
    """Build the module in the foreground (numba and a C compiler needed); its path.

    Raises
    ------
    RuntimeError
        When numba cannot build it (no C compiler, or a kernel that does not compile).
    """
    import importlib

    from numba.pycc import CC

    name = module_name()
    target = folder()
    target.mkdir(parents=True, exist_ok=True)
    here = Path(__file__).resolve().parent
    for old in target.glob(".build-*"):  # what killed builds left
        if time.time() - old.stat().st_mtime > 3600:
            shutil.rmtree(old, ignore_errors=True)
    with tempfile.TemporaryDirectory(dir=target, prefix=".build-") as work:
        cc = CC(name)
        cc.output_dir = work
        cc.verbose = False
        for (module, kernel), (arguments, result) in KERNELS.items():
            source = importlib.import_module(module)
            if here not in Path(str(source.__file__)).resolve().parents:
                raise RuntimeError(f"{module} is not this package's ({source.__file__})")
            k = getattr(source, kernel)
            k.compiled()  # the kernels it calls, resolved first
            kinds = [_numba_type(kind) for kind in arguments]
            result_type = eval(result, {"__builtins__": {}}, _type_names())  # (our own table)
            cc.export(_export_name(module, kernel), result_type(*kinds))(k.py_func)
        with contextlib.redirect_stdout(sys.stderr):
            cc.compile()
        (made,) = Path(work).glob(f"{name}*")
        final = target / made.name
        os.replace(made, final)  # whole, or not at all
    return final


def _numba_type(kind: Any) -> Any:
    from numba import types

    if kind == "i8":
        return types.int64
    if kind == "f8":
        return types.float64
    if kind == "b1":
        return types.boolean
    dtype, ndim, writable = kind
    return types.Array(getattr(types, dtype if dtype != "bool" else "boolean"), ndim, "C",
                       readonly=not writable)  # fmt: skip


def _type_names() -> dict[str, Any]:
    """numba's types by the short names the table's results are written with."""
    from numba import types

    return {
        "b1": types.boolean, "u1": types.uint8, "i4": types.int32, "i8": types.int64,
        "u8": types.uint64, "f8": types.float64, "none": types.none,
        "Tuple": types.Tuple, "UniTuple": types.UniTuple,
    }  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    """Build the module (``python -m mazeart._aot``); 0 when built, 1 when not.

    ``--background NAME`` is how :func:`build_later` starts it: the build must be of
    the module ``NAME``, and it removes the lock its starter made."""
    args = sys.argv[1:] if argv is None else argv
    background = args[:1] == ["--background"]
    lock = folder() / f"{module_name()}.lock"
    try:
        if background and args[1:2] != [module_name()]:
            raise RuntimeError(f"asked for {args[1:2]}, these sources make {module_name()}")
        print(build())
    except Exception as exc:  # a build that fails leaves numba to do the work
        why = f"mazeart: the kernels were not built ahead of time: {exc}"
        print(why, file=sys.stderr)
        with contextlib.suppress(OSError):  # not tried again in the background
            lock.with_suffix(".failed").write_text(why + "\n")
        return 1
    finally:
        if background:
            with contextlib.suppress(OSError):
                lock.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
