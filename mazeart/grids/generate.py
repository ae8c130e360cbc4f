"""The whole generation on any grid: weights per cell in, a finished :class:`Maze` out.

The same steps as on squares (:func:`mazeart.generators.generate`): carve every free
part (:mod:`mazeart.grids.carve`), join the parts with bridges through the ground,
choose the entrance and exit, prune or braid dead ends, record how it was made.

>>> import numpy as np
>>> from mazeart.grids import square_grid
>>> g = square_grid(4, 5)
>>> maze = generate_on_grid(np.zeros(g.n_cells, np.int32), g, algorithm="wilson", rng=2)
>>> maze.n_cells, maze.n_passages, maze.entrance != maze.exit
(20, 19, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mazeart._rng import RngLike, as_generator, fresh_seed
from mazeart.errors import MazeartError, check_choice, check_number
from mazeart.generators import finish, recorded_options
from mazeart.grids import Grid
from mazeart.grids.carve import GRAPH_ALGORITHMS, carve_graph
from mazeart.maze import Guide, Maze
from mazeart.shape import ShapeReport

__all__ = ["generate_on_grid"]

"""Options of the graph generators (the others take none)."""


def grid_weights(weights: ArrayLike, grid: Grid) -> NDArray[np.int32]:
    """``weights`` as one int32 value per cell of ``grid`` (the weight-matrix codes).

    Raises
    ------
    MazeartError
        For the wrong number of cells or values outside the codes.
    """
    from mazeart.weights import validate_weights

    w = np.asarray(weights)
    if w.size != grid.n_cells:
        raise MazeartError(
            f"the weights have {w.size} cells, the {grid.kind} grid has {grid.n_cells}"
        )
    return validate_weights(w.reshape(1, -1)).reshape(-1)


def generate_on_grid(
    weights: ArrayLike,
    grid: Grid,
    *,
    algorithm: str = "backtracker",
    rng: RngLike = None,
    islands: str = "connect",
    prune: bool = False,
    braid: float = 0.0,
    entrance: int | None = None,
    exit: int | None = None,
    place: str | Mapping[str, int] | None = None,
    labels: ArrayLike | None = None,
    rooms: Any = None,
    inside: ArrayLike | None = None,
    report: ShapeReport | None = None,
    route: ArrayLike | None = None,
    decoys: float | None = None,
    wander: float | None = None,
    **options: Any,
) -> Maze:
    """A maze on ``grid`` from a weight per cell: the whole generation.

    Parameters
    ----------
    weights : (n,) array_like of int
        One weight-matrix code per cell of ``grid`` (``0`` free, ``1000`` forbidden).
    grid : Grid
    algorithm : str, default 'backtracker'
        One of :data:`mazeart.grids.carve.GRAPH_ALGORITHMS`.
    rng : int or numpy.random.Generator, optional
    islands : {'connect', 'separate'}, default 'connect'
    prune : bool, default False
    braid : float, default 0.0
    entrance, exit : int, optional
        Cell ids (default: :func:`mazeart.generators.default_endpoints`).
    place : str or mapping, optional
        Tags to place (``"loot=5,spawn=2"``; :func:`mazeart.tags.place_tags`),
        never on a bridge across the ground.
    labels : (n,) array_like of int, optional
        Each cell's colour region (``edges``): each region is carved on its own, and
        the regions that touch are joined through as few doors as keep the maze one
        (one a pair of touching parts, on a random shared wall); the labels ride in
        ``maze.guide.edge_labels``, so the drawing marks the walls between regions.
    rooms : rooms in any form :func:`mazeart.rooms.place_rooms_on_grid` takes, optional
        Rooms of cell ids with their doors, or rooms in fractions of the grid's size:
        open areas entered only through their doors (the maze is carved around them).
    inside : (n,) array_like of bool, optional
        Cells of the figure that hold no maze (a smooth outline's margin): they join the
        maze's ``region``, so they are figure, not ground, and no door opens onto them.
    report : ShapeReport, optional
    route : (L,) array_like of int, optional
        A chain of cells the solution follows (:func:`mazeart.route.plan_route`): the maze
        is carved around it (:func:`mazeart.route.carve_route`, whatever ``algorithm``
        says), its ends are the entrance and the exit, and it is the only way between them.
    decoys : float, optional
        With ``route``: the share of its cells a wrong turn leaves from
        (:data:`mazeart.route.DECOYS` by default).
    wander : float, optional
        With ``route``: the share of its steps that go round by a few cells beside it
        (:func:`mazeart.route.wander`; none by default); the route recorded is the one the
        solution follows.
    **options
        The algorithm's options (``select``, ``bias`` for growing-tree).

    Returns
    -------
    Maze
    """
    w = grid_weights(weights, grid)
    if algorithm not in GRAPH_ALGORITHMS:
        raise MazeartError(
            f"{algorithm} does not run on the {grid.kind} grid "
            f"(these do: {', '.join(GRAPH_ALGORITHMS)})"
        )
    from mazeart.generators import ALGORITHMS

    allowed = ALGORITHMS[algorithm].options if algorithm in ALGORITHMS else {}
    unknown = set(options) - set(allowed)
    if unknown:
        valid = ", ".join(allowed) or "none"
        raise MazeartError(
            f"{algorithm} has no option {', '.join(sorted(unknown))} (its options: {valid})"
        )
    check_choice(islands, "islands", ("connect", "separate"))
    braid = check_number(braid, "braid", low=0.0, high=1.0)
    wander = 0.0 if wander is None else check_number(wander, "wander", low=0.0, high=1.0)
    free = w == 0
    room_list = []
    if rooms is not None:
        from mazeart.rooms import place_rooms_on_grid

        room_list = place_rooms_on_grid(rooms, grid, free)
        for room in room_list:
            free[list(room.cells)] = False
    if not free.any():
        raise MazeartError("the preset has no free cell: there is nothing to carve")
    given = None if isinstance(rng, np.random.Generator) else fresh_seed() if rng is None else rng
    generator = as_generator(rng if given is None else given)
    report = report if report is not None else ShapeReport()
    if route is not None:
        from mazeart.route import DECOYS, carve_route

        for what, value in (("colour regions", labels is not None), ("braid", braid),
                            ("prune", prune), ("rooms", room_list)):  # fmt: skip
            if value:
                raise MazeartError(f"a route is the one way through: it does not take {what}")
        if entrance is not None or exit is not None:
            raise MazeartError("a route's ends are the entrance and the exit: give no other")
        route = np.asarray(route, np.int64).reshape(-1)
        opened, route = carve_route(grid, free, route, generator, wander=wander,
                                    decoys=DECOYS if decoys is None else decoys)  # fmt: skip
        entrance, exit = int(route[0]), int(route[-1])
        guide = None
    elif labels is None:
        opened = carve_graph(grid, free, algorithm, generator, **options)
        guide = None
    else:
        region = np.asarray(labels, np.int64).reshape(-1)
        if region.size != grid.n_cells:
            raise MazeartError(f"labels has {region.size} cells, the grid {grid.n_cells}")
        opened = np.zeros(grid.n_walls, bool)
        for label in np.unique(region[free]):
            opened |= carve_graph(grid, free & (region == label), algorithm, generator,
                                  **options)  # fmt: skip
        opened |= _doors_between(grid, free, opened, region, generator, report)
        shape = (-1,) if grid.kind != "square" else (grid.params["rows"], grid.params["cols"])
        guide = Guide(edge_labels=region.astype(np.int8).reshape(shape))
    maze = Maze(free, opened, grid=grid, guide=guide)
    if room_list:
        from mazeart.rooms import Door, Room
        from mazeart.shape import install_rooms

        if maze.is_square:  # the square grid names its cells (row, col)
            at = maze.cell_at
            room_list = [Room(tuple(at(c) for c in room.cells),
                              tuple(Door(at(d.cell), at(d.outside)) for d in room.doors),
                              name=room.name, kind=room.kind) for room in room_list]  # fmt: skip
        maze = install_rooms(maze, room_list)
    if inside is not None:
        figure = np.asarray(inside, dtype=bool).reshape(-1)
        if figure.size != grid.n_cells:
            raise MazeartError(f"inside has {figure.size} cells, the grid {grid.n_cells}")
        maze = maze.replace(region=maze.region | figure.reshape(maze.region.shape))
    from mazeart.tags import parse_place

    ends = [None if e is None else maze.cell_at(e) for e in (entrance, exit)]  # ids to cells
    maze = finish(maze, generator, report=report, islands=islands, entrance=ends[0],
                  exit=ends[1], prune=prune, braid=braid,
                  place=parse_place(place) if place else None,
                  allowed=free | maze.room_mask.reshape(-1))  # fmt: skip
    meta: dict[str, Any] = {
        "algorithm": algorithm if route is None else "route",
        "seed": None if given is None else int(given),
        "grid": grid.kind,
        "options": recorded_options(allowed, options),
        "islands": islands,
        "prune": bool(prune),
        "braid": braid,
    }
    if route is not None:
        meta["route"] = [int(c) for c in route]
    return maze.replace(meta=meta)


def _doors_between(
    grid: Grid,
    free: NDArray[np.bool_],
    opened: NDArray[np.bool_],
    region: NDArray[np.int64],
    rng: np.random.Generator,
    report: ShapeReport,
) -> NDArray[np.bool_]:
    """The doors that join touching parts of different regions into one tree: a random
    spanning tree of the parts (Kruskal's over their shared walls, in random order), one
    wall a pair. Parts that touch nothing are left for the connectivity pass."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    n = grid.n_cells
    a, b = grid.wall_cells[:, 0].astype(np.int64), grid.wall_cells[:, 1].astype(np.int64)
    link = opened & (b >= 0)
    graph = coo_matrix((np.ones(int(link.sum())), (a[link], b[link])), shape=(n, n))
    _, part = connected_components(graph, directed=False)
    bb = np.maximum(b, 0)
    between = (b >= 0) & free[a] & free[bb] & (part[a] != part[bb])
    candidates = np.flatnonzero(between)
    candidates = candidates[rng.permutation(candidates.size)]
    parent = np.arange(int(part.max()) + 1)

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = int(parent[x])
        return x

    doors = np.zeros(grid.n_walls, bool)
    for w in candidates.tolist():
        p, q = find(int(part[a[w]])), find(int(part[b[w]]))
        if p != q:
            parent[p] = q
            doors[w] = True
    report.doors += int(doors.sum())
    return doors
