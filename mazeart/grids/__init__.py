"""Grids: which cells a maze has, which are neighbours, and the shape of every cell and wall.

The grid layer under maze on another grid: :mod:`mazeart.grids.core`
holds :class:`Grid` and the square grid, :mod:`mazeart.grids.shapes` the hexagons,
triangles, polar rings and octagons (all in :data:`GRIDS`, rebuilt by
:func:`make_grid`), :mod:`mazeart.grids.sample` lays a grid over a picture,
:mod:`mazeart.grids.carve` carves it and :mod:`mazeart.grids.generate` does the rest of
the pipeline (solving, shaping, tags and metrics are one module each for every grid).

>>> from mazeart.grids import make_grid
>>> g = make_grid("hex", rows=3, cols=4)
>>> g.n_cells, len(g.neighbours(5))
(12, 6)
"""

from mazeart.grids import _weavegrid  # noqa: F401  (registers the weave grid)
from mazeart.grids import shapes as _shapes  # noqa: F401  (registers the other kinds)

# isort: split
from mazeart.grids import adaptive as _adaptive  # noqa: F401  (registers it, after the others)
from mazeart.grids.core import GRIDS, Grid, grid_from_pairs, make_grid, square_grid

__all__ = ["GRIDS", "Grid", "grid_from_pairs", "make_grid", "square_grid"]
