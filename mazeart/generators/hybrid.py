"""The hybrid: structures, Wilson's walks from every door, Wilson's fill, joins.

The algorithm is built for mazes walked from the inside, with rooms (its description's
*structures*: a fountain, a house, a spawn hall) read from the weight matrix:

1. **Structures.** Rooms are the ``ROOM + i`` / ``DOOR + i`` codes of the preset.
2. **No blocked door** (``door_walks``). From the cell in front of every door,
   in turn, a loop-erased random walk runs until it meets the maze grown so far
   (in each free part, the first door's cell starts it). A room with several
   doors would close a loop when a later door's walk meets the maze the room is
   already joined to; unless ``loops`` is asked for, that walk is cut in half
   (its middle passage left closed), as its description proposes, so both halves end
   blind and the room stays a single junction.
3. **Wilson's fill** of every other free cell, so most of the maze keeps Wilson's
   uniformity; a free part with no door starts from a random cell.
4. **Kruskal's join** of separate parts. Free parts that touch are one part here,
   so this is the connectivity pass every algorithm gets in
   :func:`mazeart.generate` (bridges across the ground). Installing the rooms
   (:func:`mazeart.shape.install_rooms`, as for every generator) checks that, with
   ``loops`` off, the maze with each room taken as one node is a tree.
5. **No one-cell dead ends**: ``generate(..., prune=True)`` (``--prune-dead-ends``)
   removes every dead end one cell long that hangs off a junction; it is the
   same step for every algorithm.

With no rooms it is Wilson's algorithm.
"""

from __future__ import annotations

import numpy as np

from mazeart._graph import find
from mazeart._jit import njit
from mazeart._kernels.carve import loop_erased_fill
from mazeart._rng import below
from mazeart.errors import MazeartError
from mazeart.generators._common import CellGrid, carve, label_parts
from mazeart.generators._registry import register
from mazeart.maze import Maze
from mazeart.rooms import Room, rooms_from_weights

__all__ = ["hybrid"]


@njit(cache=True)
def _door_walks(
    free, offsets, outs, room_of, part_of, n_rooms, state, passages, in_tree, loops, order
):
    """Step 2: walks from the cells before the doors; returns how many walks were cut."""
    n = free.size
    network = np.arange(n_rooms + 1)  # union-find over rooms joined through the maze
    net = np.zeros(n, np.int64)  # the room network an in-tree cell belongs to
    rooted = np.zeros(part_of.max() + 1, np.bool_)
    leave = np.zeros(n, np.int8)
    options = np.empty(4, np.int64)
    cuts = 0
    for k in range(outs.size):
        o = outs[k]
        r = room_of[k]
        if not rooted[part_of[o]]:
            rooted[part_of[o]] = True
            in_tree[o] = True
            net[o] = r
            continue
        if in_tree[o]:  # an earlier walk went past this door: the room joins its network
            a = find(network, net[o])
            b = find(network, r)
            if a != b:
                network[a] = b
            continue
        cur = o
        length = 0
        while not in_tree[cur]:
            kk = 0
            for d in range(4):
                if free[cur + offsets[d]]:
                    options[kk] = d
                    kk += 1
            d = options[0] if kk == 1 else options[below(state, kk)]
            leave[cur] = d
            cur = cur + offsets[d]
        a = find(network, net[cur])
        b = find(network, r)
        cut = -1
        if a == b and not loops:
            c2 = o  # the walk's loop-erased length, to find its middle
            while not in_tree[c2]:
                c2 = c2 + offsets[leave[c2]]
                length += 1
            cut = length // 2
            cuts += 1
        elif a != b:
            network[a] = b
        cur = o
        i = 0
        while not in_tree[cur]:
            d = leave[cur]
            nb = cur + offsets[d]
            if i != cut:
                carve(passages, order, cur, d, nb)
            in_tree[cur] = True
            net[cur] = b
            cur = nb
            i += 1
    return cuts


@register(
    "hybrid",
    description="hybrid: walks from every door, Wilson's fill, no blocked door",
)
def hybrid(
    weights: np.ndarray,
    rng: np.random.Generator,
    *,
    geometry: str = "cells",
    rooms: list[Room] | None = None,
    door_walks: bool = True,
    loops: bool = False,
) -> Maze:
    """Carve a maze around the preset's rooms with the hybrid algorithm.

    Structures (rooms), Wilson's walks from their doors, then Kruskal's joins.

    Parameters
    ----------
    weights : (H, W) array_like of int
        Preset; rooms are its ``ROOM + i`` / ``DOOR + i`` codes.
    rng : numpy.random.Generator
    geometry : {'cells'}
    rooms : list of Room, optional
        The preset's rooms with their door sides; read from its codes when omitted.
    door_walks : bool, default True
        Start Wilson's walks from every door first (step 2).
    loops : bool, default False
        Let rooms with several doors close loops instead of cutting the walks.

    Returns
    -------
    Maze
        With the rooms installed; with ``loops`` off, a tree once each room is
        taken as a single node.
    """
    if geometry != "cells":
        raise MazeartError(f"hybrid supports geometry 'cells' only; got {geometry!r}")
    from mazeart.shape import install_rooms

    g = CellGrid(weights, rng)
    rooms = rooms_from_weights(g.weights) if rooms is None else list(rooms)
    doors = [(d, i) for i, room in enumerate(rooms, start=1) for d in room.doors]
    outs = g.framed_index([d.outside for d, _ in doors]) if doors else np.zeros(0, np.int64)
    room_of = np.array([i for _, i in doors], dtype=np.int64)
    labels, _ = label_parts(g.free)
    h, w = g.free.shape
    part_of = np.zeros((h + 2) * (w + 2), dtype=np.int64)
    part_of.reshape(h + 2, w + 2)[1:-1, 1:-1] = labels
    in_tree = np.zeros(g.flat_free.size, dtype=np.bool_)
    if doors and door_walks:
        _door_walks(
            g.flat_free,
            g.offsets,
            outs,
            room_of,
            part_of,
            len(rooms),
            g.state,
            g.passages,
            in_tree,
            bool(loops),
            g.order,
        )
    # a free part that no walk reached starts from its random cell
    reached = np.zeros(labels.max() + 1, dtype=bool)
    reached[part_of[in_tree]] = True
    for s in g.starts:
        if not reached[part_of[s]]:
            in_tree[s] = True
    loop_erased_fill(g.topology, g.flat_free, in_tree, g.state, g.passages, g.order)
    return install_rooms(g.maze(), rooms, loops=bool(loops))  # cuts what the walks left
