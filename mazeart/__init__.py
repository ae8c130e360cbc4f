"""mazeart: pictures in, mazes out.

>>> import mazeart, pathlib, tempfile
>>> made = mazeart.make(mazeart.preset_from_text("......\\n......\\n......"), rng=3)
>>> made.summary()
'weighted-dfs, cells, seed 3, 6 x 3 grid, 18 maze cells; 1 part'
>>> mazeart.save(made, pathlib.Path(tempfile.mkdtemp()) / "maze.svg", solution=True).name
'maze.svg'

>>> maze = mazeart.generate(mazeart.preset_from_text("....\\n.##.\\n...."), rng=3)
>>> maze.n_cells
10

The pipeline is image → weights → generate → Maze → solve / measure / export.
:func:`make` runs all of it from a source and the command line's options, and
:func:`save` writes the result in any format; each stage is also a function of
its own: :func:`weights_from_image`, :func:`generate`, :class:`Maze`,
:func:`solve`, :func:`measure`, :func:`load_maze`.

Errors a user can cause are :class:`MazeartError` (a :class:`ValueError`) with
one line that names the problem; wrong types raise :class:`TypeError`.
"""

from typing import TYPE_CHECKING

from mazeart._version import __version__

if TYPE_CHECKING:
    from mazeart import rooms, shape, tags
    from mazeart._limits import Limits, limits
    from mazeart._version import __version__
    from mazeart.analyze import Metrics, best_of, measure
    from mazeart.design import Design, load_design, save_design
    from mazeart.errors import FileFormatError, InvalidMazeError, MazeartError, NoPathError
    from mazeart.export import EXPORT_FORMATS
    from mazeart.generators import ALGORITHMS, default_endpoints, generate
    from mazeart.grids import Grid, make_grid
    from mazeart.image import weights_from_image
    from mazeart.maze import Guide, Maze
    from mazeart.mazefile import load_maze, save_maze
    from mazeart.pipeline import Made, make, make_book, make_design, make_many, make_preset, save
    from mazeart.recipe import At, Recipe
    from mazeart.rooms import Door, Room, load_rooms
    from mazeart.shape import braid, connect, prune_dead_ends
    from mazeart.solvers import distances, random_paths, solve
    from mazeart.tags import place_tags
    from mazeart.weights import (
        FORBIDDEN,
        FREE,
        PATH,
        load_preset,
        preset_from_text,
        preset_to_text,
        save_preset,
    )

# Each name is imported when first used: ``import mazeart`` stays light, and the command
# line can guard Ctrl-C before the heavy imports begin.
_HOME = {
    "rooms": "mazeart.rooms",
    "shape": "mazeart.shape",
    "tags": "mazeart.tags",
    "Limits": "mazeart._limits",
    "limits": "mazeart._limits",
    "Metrics": "mazeart.analyze",
    "best_of": "mazeart.analyze",
    "measure": "mazeart.analyze",
    "FileFormatError": "mazeart.errors",
    "InvalidMazeError": "mazeart.errors",
    "MazeartError": "mazeart.errors",
    "NoPathError": "mazeart.errors",
    "EXPORT_FORMATS": "mazeart.export",
    "ALGORITHMS": "mazeart.generators",
    "default_endpoints": "mazeart.generators",
    "generate": "mazeart.generators",
    "Grid": "mazeart.grids",
    "make_grid": "mazeart.grids",
    "weights_from_image": "mazeart.image",
    "Guide": "mazeart.maze",
    "Maze": "mazeart.maze",
    "load_maze": "mazeart.mazefile",
    "save_maze": "mazeart.mazefile",
    "Made": "mazeart.pipeline",
    "make": "mazeart.pipeline",
    "make_book": "mazeart.pipeline",
    "make_many": "mazeart.pipeline",
    "make_preset": "mazeart.pipeline",
    "Recipe": "mazeart.recipe",
    "At": "mazeart.recipe",
    "Design": "mazeart.design",
    "load_design": "mazeart.design",
    "make_design": "mazeart.pipeline",
    "save_design": "mazeart.design",
    "save": "mazeart.pipeline",
    "Door": "mazeart.rooms",
    "Room": "mazeart.rooms",
    "load_rooms": "mazeart.rooms",
    "braid": "mazeart.shape",
    "connect": "mazeart.shape",
    "prune_dead_ends": "mazeart.shape",
    "distances": "mazeart.solvers",
    "random_paths": "mazeart.solvers",
    "solve": "mazeart.solvers",
    "place_tags": "mazeart.tags",
    "FORBIDDEN": "mazeart.weights",
    "FREE": "mazeart.weights",
    "PATH": "mazeart.weights",
    "load_preset": "mazeart.weights",
    "preset_from_text": "mazeart.weights",
    "preset_to_text": "mazeart.weights",
    "save_preset": "mazeart.weights",
}


def __getattr__(name: str) -> object:
    import importlib

    home = _HOME.get(name)
    if home is None:  # a module of the package (mazeart.export, mazeart.grids, ...)
        import importlib.util

        spec = None if name.startswith("_") else importlib.util.find_spec(f"mazeart.{name}")
        if spec is None or spec.origin is None:  # none, private, or a folder of data
            raise AttributeError(f"module 'mazeart' has no attribute {name!r}")
        module = importlib.import_module(f"mazeart.{name}")
        globals()[name] = module
        return module
    module = importlib.import_module(home)
    value = module if name in ("rooms", "shape", "tags") else getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "ALGORITHMS",
    "EXPORT_FORMATS",
    "FORBIDDEN",
    "FREE",
    "PATH",
    "At",
    "Design",
    "Door",
    "FileFormatError",
    "Grid",
    "Guide",
    "InvalidMazeError",
    "Limits",
    "Made",
    "Maze",
    "MazeartError",
    "Metrics",
    "NoPathError",
    "Recipe",
    "Room",
    "__version__",
    "best_of",
    "braid",
    "connect",
    "default_endpoints",
    "distances",
    "generate",
    "limits",
    "load_design",
    "load_maze",
    "load_preset",
    "load_rooms",
    "make",
    "make_book",
    "make_design",
    "make_grid",
    "make_many",
    "make_preset",
    "measure",
    "place_tags",
    "preset_from_text",
    "preset_to_text",
    "prune_dead_ends",
    "random_paths",
    "rooms",
    "save",
    "save_design",
    "save_maze",
    "save_preset",
    "shape",
    "solve",
    "tags",
    "weights_from_image",
]
