"""mazeart: pictures in, mazes out.

>>> import mazeart
>>> maze = mazeart.generate(mazeart.preset_from_text("....\\n.##.\\n...."), seed=3)
>>> maze.n_cells
10

The pipeline is image → weights → generate → Maze → solve / measure / export:
:func:`weights_from_image`, :func:`generate`, :class:`Maze`, :func:`solve`,
:func:`measure` and :func:`save` (any format; ``.json`` is a saved maze that
:func:`load_maze` reads back).
"""

from mazeart import rooms, shape, tags
from mazeart.analyze import Metrics, best_of, measure
from mazeart.export import EXPORT_FORMATS, save
from mazeart.generate import ALGORITHMS, default_endpoints, generate
from mazeart.image import weights_from_image
from mazeart.maze import Maze
from mazeart.mazefile import load_maze, save_maze
from mazeart.rooms import Door, Room, load_rooms
from mazeart.shape import braid, connect, prune_dead_ends
from mazeart.solve import distances, random_paths, solve
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

__version__ = "0.1.0"

__all__ = [
    "ALGORITHMS",
    "EXPORT_FORMATS",
    "FORBIDDEN",
    "FREE",
    "PATH",
    "Door",
    "Maze",
    "Metrics",
    "Room",
    "__version__",
    "best_of",
    "braid",
    "connect",
    "default_endpoints",
    "distances",
    "generate",
    "load_maze",
    "load_preset",
    "load_rooms",
    "measure",
    "place_tags",
    "preset_from_text",
    "preset_to_text",
    "prune_dead_ends",
    "random_paths",
    "rooms",
    "save",
    "save_maze",
    "save_preset",
    "shape",
    "solve",
    "tags",
    "weights_from_image",
]
