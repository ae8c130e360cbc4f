"""A smooth outline: the figure's boundary drawn as the picture's own contour.

With ``--outline smooth`` the maze's outer wall is not the staircase of cell
sides but the contour of the picture's figure (``skimage.measure.find_contours``
at half coverage, lightly smoothed), in cell units. The pieces fit as follows:

- the maze cells are the cells whose centre lies inside the contour, at least a
  fifth of a cell from it (:func:`inside_cells`), and every passage's path (centre
  to side to centre) stays inside it, so a clipped corridor is still passable;
- a boundary cell whose centre is outside but part of whose area is inside is
  a *sliver*: it is given to one neighbouring maze cell (no wall between them),
  so the drawn maze fills the outline (:func:`owners`);
- walls are drawn between cells of different owners where no passage joins
  them, clipped to the contour; the contour is drawn as the outer wall, with a
  gap at the entrance and at the exit (:func:`outline_paths`).

The contour travels with the maze in ``maze.guide.outline`` (rings of ``(x, y)``
points in cell units, ``x`` across), so saved mazes keep it and every exporter
that draws thin walls can use it.
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from mazeart._jit import njit
from mazeart.maze import STEP, Maze

__all__ = [
    "blocked_doors",
    "bridge_cells",
    "clip_segments",
    "corridors",
    "door_mouths",
    "drawn_region",
    "drawn_sides",
    "edge_paths",
    "figure_contours",
    "inside_cells",
    "outline_paths",
    "owners",
    "passable_sides",
    "smooth_walls",
]

_MARGIN = 0.2


_CORNER = np.deg2rad(40.0)
"""A ring vertex that turns by more than this is a corner of the picture: smoothing keeps it."""


def _corners(ring: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Vertices where a closed ring turns by more than :data:`_CORNER`."""
    before = ring - np.roll(ring, 1, axis=0)
    after = np.roll(ring, -1, axis=0) - ring
    turn = np.arctan2(
        before[:, 0] * after[:, 1] - before[:, 1] * after[:, 0],
        (before * after).sum(axis=1),
    )
    return np.abs(turn) > _CORNER


def _chaikin(
    ring: NDArray[np.float64], rounds: int, corners: NDArray[np.bool_] | None = None
) -> NDArray[np.float64]:
    """Corner cutting on a closed ring (each round replaces a vertex by two points), except at
    the ``corners``, which stay where they are."""
    keep = np.zeros(len(ring), dtype=bool) if corners is None else corners
    for _ in range(rounds):
        nxt = np.roll(ring, -1, axis=0)
        keep_next = np.roll(keep, -1)
        q = np.where(keep[:, None], ring, 0.75 * ring + 0.25 * nxt)
        r = 0.25 * ring + 0.75 * nxt
        pts = np.stack([q, r], axis=1).reshape(-1, 2)
        flags = np.stack([keep, np.zeros_like(keep)], axis=1).reshape(-1)
        # the point before a corner is the corner itself (the next edge starts there)
        drop = np.stack([np.zeros_like(keep), keep_next], axis=1).reshape(-1)
        ring, keep = pts[~drop], flags[~drop]
    return ring


def figure_contours(
    coverage: NDArray[np.floating],
    shape: tuple[int, int],
    *,
    min_area: float = 1.0,
    smooth: int = 2,
    tolerance: float = 0.7,
) -> list[NDArray[np.float64]]:
    """Closed contours of the figure (coverage 0.5), in cell units of a grid of ``shape``.

    The pixel contour is simplified within ``tolerance`` pixels of the picture
    (whatever the grid), then smoothed by corner cutting everywhere but at the
    picture's corners (turns sharper than 40 degrees): curves come out round,
    corners and straight edges as the picture has them.

    Parameters
    ----------
    coverage : (h, w) ndarray of float
        Per-pixel figure share (:func:`mazeart.image.figure_coverage`).
    shape : (int, int)
        The grid ``(rows, cols)`` laid over the whole picture.
    min_area : float, default 1
        Rings enclosing less than this many cells are dropped (specks).
    smooth : int, default 2
        Rounds of corner cutting after simplifying the pixel contour.
    tolerance : float, default 0.7
        How far (in the picture's pixels) the simplified contour may stray.

    Returns
    -------
    list of (P, 2) ndarray of float
        Closed rings of ``(x, y)`` points (the last point is not repeated).
    """
    h, w = coverage.shape
    rows, cols = shape
    # within ``tolerance`` pixels, and within a tenth of a cell where a pixel is a cell or more
    tol = min(float(tolerance), 0.1 * w / cols)

    def to_cells(px: NDArray[np.float64]) -> NDArray[np.float64]:
        return np.stack([px[:, 0] * cols / w, px[:, 1] * rows / h], axis=1)

    return _contours(coverage, to_cells, tol, min_area=min_area, smooth=smooth)


def grid_contours(
    coverage: NDArray[np.floating],
    transform: Any,
    *,
    min_area: float = 1.0,
    smooth: int = 2,
    tolerance: float = 0.7,
) -> list[NDArray[np.float64]]:
    """:func:`figure_contours` in the units of a grid laid over the picture.

    Parameters
    ----------
    coverage : (h, w) ndarray of float
        Per-pixel figure share.
    transform : mazeart.grids.sample.Transform
        Where the grid lies on the picture (:func:`mazeart.grids.sample.fit_grid`).
    min_area, smooth, tolerance
        As for :func:`figure_contours` (a grid unit is a cell).

    Returns
    -------
    list of (P, 2) ndarray of float
        Closed rings of ``(x, y)`` points in grid units.
    """
    tol = min(float(tolerance), 0.1 * float(transform.scale))
    return _contours(coverage, transform.to_grid, tol, min_area=min_area, smooth=smooth)


def _contours(
    coverage: NDArray[np.floating],
    to_units: Any,
    tol: float,
    *,
    min_area: float,
    smooth: int,
) -> list[NDArray[np.float64]]:
    """The figure's contours simplified within ``tol`` pixels, mapped by ``to_units`` (pixel
    ``(x, y)`` points to cells), specks under ``min_area`` cells dropped, then smoothed."""
    import shapely
    from skimage.measure import find_contours

    padded = np.pad(np.asarray(coverage, dtype=np.float64), 1)
    rings = []
    for c in find_contours(padded, 0.5):
        yx = c - 1.0 + 0.5  # pixel centres -> pixel-edge coordinates
        if len(yx) < 4:
            continue
        line = shapely.simplify(shapely.LinearRing(yx[:, ::-1]), tol)
        px = np.asarray(line.coords)[:-1]
        if len(px) < 3:
            continue
        ring = np.asarray(to_units(px), dtype=np.float64)
        x, y = ring[:, 0], ring[:, 1]
        area = 0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
        if area < min_area:
            continue
        smoothed = _chaikin(ring, smooth, _corners(px))
        # corner cutting quadruples the points: keep those that matter (to 1/200 of a cell)
        fine = np.asarray(shapely.simplify(shapely.LinearRing(smoothed), 0.005).coords)[:-1]
        rings.append(fine if len(fine) >= 3 else smoothed)
    return rings


def _edges(rings: Sequence[NDArray]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Every ring edge as start points ``a`` and end points ``b``, ``(E, 2)`` each."""
    a = np.concatenate([np.asarray(r, dtype=np.float64).reshape(-1, 2) for r in rings])
    sizes = np.fromiter((len(r) for r in rings), dtype=np.int64, count=len(rings))
    ends = np.cumsum(sizes)
    following = np.arange(1, len(a) + 1)
    following[ends[sizes > 0] - 1] = (ends - sizes)[sizes > 0]  # a ring's last point: its first
    return a, a[following]


def _lattice_work(a, b, x0, y0, step, nx, ny, *rest):  # type: ignore[no-untyped-def]
    """A lattice test's work: its edges and its points (the fill and the boxes cover them)."""
    return a.shape[0] + nx * ny


@njit(cache=True, work=_lattice_work)
def _lattice_inside(a, b, x0, y0, step, nx, ny):  # pragma: no cover - compiled
    """Even-odd inside test of the lattice ``(x0 + i*step, y0 + j*step)``: each row is filled
    between alternate crossings of the ring edges (:func:`_crossings`)."""
    levels = y0 + np.arange(ny) * step
    starts, xs = _crossings(a[:, 0], a[:, 1], b[:, 0], b[:, 1], levels)
    out = np.zeros((ny, nx), np.bool_)
    for j in range(ny):
        for k in range(starts[j], starts[j + 1] - 1, 2):
            i0 = max(0, int(np.ceil((xs[k] - x0) / step)))
            i1 = min(nx - 1, int(np.ceil((xs[k + 1] - x0) / step)) - 1)
            if i1 >= i0:
                out[j, i0 : i1 + 1] = True
    return out


@njit(cache=True, work=_lattice_work)
def _lattice_near(a, b, x0, y0, step, nx, ny, margin):  # pragma: no cover - compiled
    """Lattice points closer than ``margin`` to an edge (exact point-to-segment distance),
    visiting for each edge only the points of its box grown by ``margin``."""
    out = np.zeros((ny, nx), np.bool_)
    m2 = margin * margin
    for e in range(a.shape[0]):
        ax, ay, bx, by = a[e, 0], a[e, 1], b[e, 0], b[e, 1]
        dx, dy = bx - ax, by - ay
        length2 = max(dx * dx + dy * dy, 1e-12)
        i0 = max(0, int(np.ceil((min(ax, bx) - margin - x0) / step)))
        i1 = min(nx - 1, int(np.floor((max(ax, bx) + margin - x0) / step)))
        j0 = max(0, int(np.ceil((min(ay, by) - margin - y0) / step)))
        j1 = min(ny - 1, int(np.floor((max(ay, by) + margin - y0) / step)))
        for j in range(j0, j1 + 1):
            py = y0 + j * step
            for i in range(i0, i1 + 1):
                if out[j, i]:
                    continue
                px = x0 + i * step
                t = min(1.0, max(0.0, ((px - ax) * dx + (py - ay) * dy) / length2))
                ex, ey = ax + t * dx - px, ay + t * dy - py
                if ex * ex + ey * ey < m2:
                    out[j, i] = True
    return out


def _on_lattice(
    rings: Sequence[NDArray],
    origin: tuple[float, float],
    step: float,
    size: tuple[int, int],
    margin: float,
) -> NDArray[np.bool_]:
    """Points ``(x0 + i*step, y0 + j*step)`` (``size = (ny, nx)``) inside the rings (even-odd)
    and at least ``margin`` from them."""
    ny, nx = size
    if not rings:
        return np.zeros(size, dtype=bool)
    a, b = _edges(rings)
    x0, y0 = origin
    inside = _lattice_inside(a, b, x0, y0, step, nx, ny)
    if margin > 0:
        inside &= ~_lattice_near(a, b, x0, y0, step, nx, ny, margin)
    return inside


def inside_cells(
    rings: Sequence[NDArray[np.float64]], shape: tuple[int, int], *, margin: float = _MARGIN
) -> NDArray[np.bool_]:
    """Cells whose centre lies inside the rings, at least ``margin`` cells from them."""
    return _on_lattice(rings, (0.5, 0.5), 1.0, shape, margin)


def passable_sides(
    rings: Sequence[NDArray[np.float64]], shape: tuple[int, int], *, margin: float = 0.15
) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """Whether a passage through each cell's east and south side stays inside the rings: its
    path from centre to centre (checked at a quarter, half and three quarters of the way)
    at least ``margin`` cells from them, room for the pen between the walls."""
    east = np.ones(shape, dtype=bool)
    south = np.ones(shape, dtype=bool)
    for t in (0.75, 1.0, 1.25):
        east &= _on_lattice(rings, (t, 0.5), 1.0, shape, margin)
        south &= _on_lattice(rings, (0.5, t), 1.0, shape, margin)
    return east, south


def _cell_overlap(rings: Sequence[NDArray[np.float64]], shape: tuple[int, int]) -> NDArray:
    """Share of each cell inside the rings, sampled on a 4 x 4 grid per cell."""
    rows, cols = shape
    k = 4
    inside = _on_lattice(rings, (0.5 / k, 0.5 / k), 1.0 / k, (rows * k, cols * k), 0.0)
    return inside.reshape(rows, k, cols, k).mean(axis=(1, 3))


def _contact(
    rings: Sequence[NDArray[np.float64]], shape: tuple[int, int]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The share of each cell side the rings hold on both its sides (a twentieth of a cell
    away), sampled at 8 points a side: ``(vertical,
    horizontal)``, ``vertical[r, c]`` the side at ``x = c`` of row ``r`` (``(H, W + 1)``),
    ``horizontal[r, c]`` the side at ``y = r`` of column ``c`` (``(H + 1, W)``)."""
    rows, cols = shape
    k = 8
    d = 0.05  # a point counts when the figure holds it on both sides of the side
    ver = np.ones((rows * k, cols * k + 1), bool)
    hor = np.ones((rows * k + 1, cols * k), bool)
    for off in (-d, d):
        ver &= _on_lattice(rings, (off, 0.5 / k), 1.0 / k, (rows * k, cols * k + 1), 0.0)
        hor &= _on_lattice(rings, (0.5 / k, off), 1.0 / k, (rows * k + 1, cols * k), 0.0)
    vertical = ver[:, ::k].reshape(rows, k, cols + 1).mean(axis=1)
    horizontal = hor[::k].reshape(rows + 1, cols, k).mean(axis=2)
    return vertical, horizontal


_OWNERS: dict[int, tuple[weakref.ref, NDArray[np.int64]]] = {}


def owners(maze: Maze) -> NDArray[np.int64]:
    """Which maze cell each grid cell's floor belongs to (flat index), or -1.

    Maze cells own themselves, and the cell in front of each door belongs to
    its end (the way out stays open). A sliver (a cell partly inside the
    outline whose centre is not a maze cell) belongs to the maze neighbour it
    shares the most inside side with (N, W, S, E on a tie), so nothing stands
    between the two; a sliver that shares no inside side with a maze cell
    belongs to none, and is not floor (:func:`drawn_region` leaves it out).

    Returns
    -------
    ndarray of int64
        ``(H, W)`` on the square grid, ``(n,)`` cell ids on another grid.
    """
    hit = _OWNERS.get(id(maze))
    if hit is not None and hit[0]() is maze:
        return hit[1]
    own = _square_owners(maze) if maze.is_square else _grid_owners(maze)
    own.flags.writeable = False
    key = id(maze)
    _OWNERS[key] = (weakref.ref(maze, lambda _: _OWNERS.pop(key, None)), own)
    return own


def _square_owners(maze: Maze) -> NDArray[np.int64]:
    """:func:`owners` on the square grid: ``(H, W)``."""
    h, w = maze.shape
    own = np.where(maze.mask.reshape(-1), np.arange(h * w), -1).reshape(h, w)
    rings = _rings(maze)
    if rings:
        for cell, side in maze.end_doors:
            dr, dc = STEP[side]
            rr, cc = cell[0] + dr, cell[1] + dc
            if 0 <= rr < h and 0 <= cc < w and not maze.mask[rr, cc]:
                own[rr, cc] = cell[0] * w + cell[1]
        overlap = _cell_overlap(rings, (h, w))
        vertical, horizontal = _contact(rings, (h, w))
        can_own = maze.mask & ~bridge_cells(maze)  # a bridge is a corridor: it owns no sliver
        for r, c in zip(*np.nonzero((overlap > 0) & (own < 0)), strict=True):
            best, share = -1, 0.0
            for shared, dr, dc in (
                (horizontal[r, c], -1, 0), (vertical[r, c], 0, -1),
                (horizontal[r + 1, c], 1, 0), (vertical[r, c + 1], 0, 1),
            ):  # fmt: skip
                rr, cc = r + dr, c + dc
                if 0 <= rr < h and 0 <= cc < w and can_own[rr, cc] and shared > share:
                    best, share = rr * w + cc, float(shared)
            own[r, c] = best
    return own


def _rings(maze: Maze) -> list[NDArray[np.float64]]:
    return list(maze.guide.outline)


def smooth_walls(maze: Maze) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """Cell sides to draw inside a smooth outline (before clipping to it).

    A side is a wall when the cells on either side have different owners and
    no passage joins them.

    Returns
    -------
    horizontal : (H + 1, W) ndarray of bool
    vertical : (H, W + 1) ndarray of bool
        Laid out as :meth:`mazeart.maze.Maze.walls`.
    """
    own = owners(maze)
    h, w = maze.shape
    pad = np.full((h + 2, w + 2), -1, dtype=np.int64)
    pad[1:-1, 1:-1] = own
    hor = pad[:-1, 1:-1] != pad[1:, 1:-1]  # (H + 1, W): between row y - 1 and row y
    ver = pad[1:-1, :-1] != pad[1:-1, 1:]  # (H, W + 1)
    both_none_h = (pad[:-1, 1:-1] < 0) & (pad[1:, 1:-1] < 0)
    both_none_v = (pad[1:-1, :-1] < 0) & (pad[1:-1, 1:] < 0)
    hor &= ~both_none_h
    ver &= ~both_none_v
    hor[1:-1] &= (maze.passages[:-1] & 4) == 0
    ver[:, 1:-1] &= (maze.passages[:, :-1] & 2) == 0
    return hor, ver


def bridge_cells(maze: Maze) -> NDArray[np.bool_]:
    """Maze cells whose centre is outside the outline: bridges across the ground between
    islands. Each is drawn as a corridor narrower than a cell along its passages (the
    outline opens where it crosses it)."""
    rings = _rings(maze)
    if not rings:
        return np.zeros(maze.shape, dtype=bool)
    return maze.mask & ~inside_cells(rings, (maze.height, maze.width), margin=0.0)


def corridors(maze: Maze) -> tuple[NDArray, NDArray]:
    """The ways through the outline, each a cell wide: first the doors (the entrance's, then the
    exit's), from the end cell's centre outward; then every passage whose path from centre to
    centre crosses the outline (a bridge going out to the ground between islands, or coming
    back, or a short cut the connectivity pass made across a narrow neck).

    Returns
    -------
    starts : (K, 2) ndarray
        Where each corridor starts (a cell centre, ``x, y``).
    steps : (K, 2) ndarray
        Its direction (a unit step).
    """
    import shapely

    starts, steps = [], []
    for cell, side in maze.end_doors:
        dr, dc = STEP[side]
        starts.append(np.array([cell[1] + 0.5, cell[0] + 0.5]))
        steps.append(np.array([dc, dr], dtype=float))
    rings = _rings(maze)
    links = maze.links()
    if rings and len(links):
        r0, c0 = np.divmod(links[:, 0], maze.width)
        r1, c1 = np.divmod(links[:, 1], maze.width)
        a = np.stack([c0 + 0.5, r0 + 0.5], axis=1)
        b = np.stack([c1 + 0.5, r1 + 0.5], axis=1)
        paths = shapely.linestrings(np.stack([a, b], axis=1))
        edge = shapely.boundary(_figure(rings))
        shapely.prepare(edge)
        crossing = shapely.intersects(edge, paths)
        for p, q in zip(a[crossing], b[crossing], strict=True):
            starts.append(p)
            steps.append(q - p)
    if not starts:
        return np.zeros((0, 2)), np.zeros((0, 2))
    return np.array(starts), np.array(steps)


_NECK = 0.1
"""Half the width (cells) of the narrowest neck of the figure that the floor keeps."""

_BRIDGE = 0.5
"""The width (cells) of a bridge's corridor across the ground: narrower than a cell, so
that a bridge reads as a way between two islands rather than a block of the figure, and
wide enough to walk (the pen takes 0.15 of it)."""


def _narrow(
    figure: Any, centres: NDArray[np.float64], bridge: NDArray[np.bool_], links: NDArray[np.intp]
) -> NDArray[np.bool_]:
    """The passages drawn as narrow corridors: those of a bridge cell, and those whose way
    from centre to centre crosses the ground (a gap in the figure thinner than a cell)."""
    over = _over_ground(figure, centres[links[:, 0]], centres[links[:, 1]])
    return np.asarray(bridge[links[:, 0]] | bridge[links[:, 1]] | over, bool)


def _bridge_ways(
    centres: NDArray[np.float64],
    bridge: NDArray[np.bool_],
    ways: NDArray[np.intp],
    openings: NDArray[np.float64],
    width: float,
    figure: Any,
    polygons: NDArray[np.object_],
) -> tuple[list[Any], list[Any]]:
    """The floor of the bridge cells (maze cells whose centre is outside the outline) and
    of the other narrow passages (:func:`_narrow`): a square ``width`` a side at each bridge
    cell's middle and a corridor as wide along each of the ``ways``, from middle to the
    middle of the wall it opens and on to the next middle (the part in a figure cell lies on
    the figure).

    A bridge cell's middle is its centre, or where some of it is figure (a cell the outline
    cuts whose centre falls just outside), the middle of its largest piece of figure (the
    centre of the largest circle in it) when half a corridor fits in that piece: its
    corridors then run over the figure rather than out of it (a thinner sliver would put
    the middle on the cell's side, and the corridor along a wall that closes it). Its other
    pieces of figure that no corridor of its own meets are no floor: no way reaches them.

    Parameters
    ----------
    centres : (n, 2) ndarray
        Every cell's centre, ``x, y``.
    bridge : (n,) ndarray of bool
    ways : (K, 2) ndarray of int
        The passages drawn narrow, as cell pairs (rows of :meth:`mazeart.maze.Maze.links`).
    openings : (K, 2) ndarray
        The middle of the wall each of ``ways`` opens, ``x, y``.
    width : float
    figure : shapely geometry
        The figure inside the outline.
    polygons : (B,) ndarray of shapely polygons
        The bridge cells' outlines, in the order of ``np.flatnonzero(bridge)``.

    Returns
    -------
    ways : list of shapely polygons
        The squares and corridors.
    stray : list of shapely polygons
        The pieces of figure in bridge cells that none of their corridors meets.
    """
    import shapely

    cells = np.flatnonzero(bridge)
    if not len(cells) and not len(ways):
        return [], []
    middle = np.array(centres, dtype=np.float64, copy=True)
    held = shapely.intersection(polygons, figure)
    pieces = [shapely.get_parts(_polygonal(part)) for part in held]
    shares = shapely.area(held) / np.maximum(shapely.area(polygons), 1e-12)
    for cell, parts, share in zip(cells, pieces, shares, strict=True):
        if share >= 0.02:
            largest = parts[int(np.argmax(shapely.area(parts)))]
            circle = shapely.maximum_inscribed_circle(largest)
            if shapely.length(circle) >= width / 4:  # half a corridor fits in it
                middle[cell] = shapely.get_coordinates(circle)[0]
    squares = shapely.buffer(shapely.points(middle[cells]), width / 2, cap_style="square")
    paths = shapely.linestrings(
        np.stack([middle[ways[:, 0]], openings, middle[ways[:, 1]]], axis=1)
    )
    strips = shapely.buffer(paths, width / 2, cap_style="flat", join_style="mitre")
    stray: list[Any] = []
    for k, (cell, parts) in enumerate(zip(cells, pieces, strict=True)):
        if len(parts) < 1:
            continue
        own = (ways[:, 0] == cell) | (ways[:, 1] == cell)
        reach = shapely.union_all([squares[k], *strips[own]])
        stray.extend(p for p in parts if p.area > 1e-9 and not shapely.intersects(p, reach))
    return [*squares, *strips], stray


def _over_ground(figure: Any, a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray:
    """Which of the lines from ``a`` to ``b`` (``(K, 2)`` points each) cross the ground
    outside ``figure`` (for more than a thousandth of a cell)."""
    import shapely

    out = np.zeros(len(a), bool)
    if not len(a):
        return out
    paths = shapely.linestrings(np.stack([a, b], axis=1))
    shapely.prepare(figure)  # a prepared geometry speeds up its own predicates: it goes first
    out = ~shapely.contains(figure, paths)
    out[out] = shapely.length(shapely.difference(paths[out], figure)) > 1e-3
    return out


def _polygonal(geometry: Any) -> Any:
    """The areas of a shapely geometry, without the lines and points an overlay can leave
    where two areas touch."""
    import shapely

    parts = [p for p in shapely.get_parts(geometry) if p.geom_type in ("Polygon", "MultiPolygon")]
    return shapely.union_all(parts) if parts else shapely.Polygon()


def _stray_pieces(maze: Maze, figure: Any, own: NDArray[np.int64]) -> tuple[Any, list[Any]]:
    """The pieces of the figure inside a cell's square that its floor does not reach: a piece
    apart from the one holding a maze cell's centre, or, in a sliver, apart from the pieces on
    the side it shares with its owner (two letters' edges in one cell). Those :func:`_settle`
    makes floor stay (the walls' parts it opens are returned, where no wall is drawn); the
    others would be sealed by walls or make loops, and are left out of the floor (their
    union, or None)."""
    import shapely

    w = maze.width
    rr, cc = np.nonzero(own >= 0)
    boxes = shapely.box(cc, rr, cc + 1.0, rr + 1.0)
    shapely.prepare(figure)
    edge = shapely.intersects(figure, boxes) & ~shapely.contains_properly(figure, boxes)
    rr, cc, boxes = rr[edge], cc[edge], boxes[edge]
    corners = zip(rr.tolist(), cc.tolist(), strict=True)
    cut = np.array([shapely.clip_by_rect(figure, c, r, c + 1.0, r + 1.0) for r, c in corners])
    several = shapely.get_num_geometries(cut) > 1
    loose: list[tuple[int, Any]] = []
    flat = own.reshape(-1)
    for r, c, piece_set in zip(rr[several], cc[several], cut[several], strict=True):
        pieces = [p for p in shapely.get_parts(piece_set)
                  if p.geom_type == "Polygon" and p.area > 1e-9]  # fmt: skip
        if len(pieces) >= 2:
            loose += [(r * w + c, p) for p in _loose_pieces(maze.grid, flat, r * w + c, pieces)]
    stray, opens = _settle(maze, figure, flat, loose)
    return (shapely.union_all(stray).buffer(1e-6) if stray else None), opens


def _figure(rings: Sequence[NDArray]) -> Any:
    """The area the rings enclose (even-odd), as a shapely geometry: their symmetric
    differences taken in pairs, then pairs of those (a picture of thousands of islands
    combines in as many rounds as doubling takes, not one island at a time)."""
    import shapely

    parts = np.array([shapely.make_valid(shapely.Polygon(r)) for r in rings if len(r) >= 3],
                     dtype=object)  # fmt: skip
    if not len(parts):
        return shapely.Polygon()
    while len(parts) > 1:
        paired = shapely.symmetric_difference(parts[0 : len(parts) - 1 : 2], parts[1::2])
        parts = np.concatenate([paired, parts[len(parts) - len(parts) % 2 :]])
    return parts[0]


def _door_reach(figure: Any, start: NDArray, step: NDArray) -> float | None:
    """How far the door corridor from ``start`` (the end cell's centre) runs out of the cell
    before it has left the figure: where a cross-section a cell wide no longer meets it. None
    for a door that does not leave the figure within a few cells (it would open onto a
    pocket, or run into another part of the figure)."""
    import shapely

    across = np.array([-step[1], step[0]]) * 0.5
    for t in np.arange(0.5, 4.0, 0.05):
        at = start + t * step
        if not shapely.intersects(figure, shapely.LineString([at - across, at + across])):
            return float(t)
    return None


def blocked_doors(maze: Maze) -> list[Any]:
    """The cells in front of the ends whose door cannot open through a smooth outline: the
    way out from the end runs into the figure again within a few cells (an end chosen
    there needs another place; ``generate(inside=...)`` takes these cells). ``(row, col)``
    on the square grid, cell ids on another."""
    rings = _rings(maze)
    if not rings:
        return []
    figure = _figure(rings)
    if not maze.is_square:  # nor where it would open into a hole of the figure
        import shapely

        filled = shapely.union_all([shapely.Polygon(p.exterior) for p in
                                    shapely.get_parts(_polygonal(figure))])  # fmt: skip
        g, pair, fronts = maze.grid, maze.grid.wall_cells, []
        for end, wall, mid, normal in _end_doors(maze):
            line = g.wall(wall)
            reach = _way_out(figure, line[0], line[-1], normal)
            beyond = None if reach is None else shapely.Point(mid + (reach + 0.1) * normal)
            if beyond is None or shapely.contains(filled, beyond):
                front = int(pair[wall, 1] if pair[wall, 0] == end else pair[wall, 0])
                fronts.extend([front] if front >= 0 else [])
        return fronts + _crowded_ends(maze, rings)
    out = []
    for cell, side in maze.end_doors:
        dr, dc = STEP[side]
        start = np.array([cell[1] + 0.5, cell[0] + 0.5])
        if _door_reach(figure, start, np.array([dc, dr], float)) is None:
            out.append((cell[0] + dr, cell[1] + dc))
    return out


def _crowded_ends(maze: Maze, rings: Sequence[NDArray[np.float64]]) -> list[int]:
    """When an end's centre lies under the outline's line or within a reader's gap of it
    (less than :data:`_END_ROOM` inside the contour: its marker on the line, the pen's
    start in the ink), the cells of the ground beside every such cell of the maze's rim,
    so that none of them is an end again; none while fewer than two rim cells would be
    left (a figure too thin for any)."""
    mask = maze.mask.reshape(-1)
    g = maze.grid
    ends = [maze.cell_index(e) for e in (maze.entrance, maze.exit) if e is not None]
    if not ends or inside_points(rings, g.centres[ends], margin=_END_ROOM).all():
        return []
    rim = np.flatnonzero(maze.boundary.reshape(-1))
    roomy = inside_points(rings, g.centres[rim], margin=_END_ROOM)
    if np.count_nonzero(roomy) < 2:
        return []
    crowded = np.zeros(g.n_cells, bool)
    crowded[rim[~roomy]] = True
    pair = g.wall_cells
    a, b = pair[:, 0], pair[:, 1]
    inner = b >= 0
    a, b = a[inner], b[inner]
    ground = ~mask
    fronts = np.concatenate([b[crowded[a] & ground[b]], a[crowded[b] & ground[a]]])
    return np.unique(fronts).tolist()


_REGIONS: dict[int, tuple[weakref.ref, Any, list, Any, Any, dict]] = {}
"""Each living maze's drawn region, door mouths, walled region, figure and those regions
inset (by what and how far), by id (a Maze is immutable: computed once)."""


def _drawn(maze: Maze) -> tuple[Any, list[tuple[NDArray, NDArray]]]:
    """:func:`drawn_region` and :func:`door_mouths`, computed together once per maze."""
    hit = _REGIONS.get(id(maze))
    if hit is not None and hit[0]() is maze:
        return hit[1], hit[2]
    region, mouths, walled, figure = (_square_drawn(maze) if maze.is_square
                                      else _grid_drawn(maze))  # fmt: skip
    key = id(maze)

    def forget(_: object) -> None:
        _REGIONS.pop(key, None)

    _REGIONS[key] = (weakref.ref(maze, forget), region, mouths, walled, figure, {})
    return region, mouths


def _square_drawn(maze: Maze) -> tuple[Any, list[tuple[NDArray, NDArray]], Any, Any]:
    """The drawn region, door mouths, walled region and figure of a smooth square maze."""
    import shapely

    from mazeart._graph import runs

    # the figure less its necks too narrow for the pen (two letters that just touch): a
    # morphological opening, a tenth of a cell each way
    figure = _figure(_rings(maze))
    figure = shapely.buffer(shapely.buffer(figure, -_NECK, quad_segs=4), _NECK, quad_segs=4)
    own = owners(maze)
    # the figure where a cell's floor lies: a piece no maze cell owns is not floor
    rr, aa, bb = runs(own >= 0)
    owned = shapely.union_all(shapely.box(aa, rr, bb, rr + 1.0)) if len(rr) else None
    floor = figure if owned is None else shapely.intersection(figure, owned)
    stray, opens = _stray_pieces(maze, figure, own)
    parts = [shapely.difference(floor, stray) if stray is not None else floor]
    mouths = []
    ways = []  # each door's way out, from the end cell's side to its mouth
    starts, steps = corridors(maze)
    doors = len(maze.end_doors)
    bridge = bridge_cells(maze).reshape(-1)
    rows, cols = np.divmod(np.arange(bridge.size), maze.width)
    centres = np.stack([cols + 0.5, rows + 0.5], axis=1)
    links = maze.links()
    ways_narrow = links[_narrow(figure, centres, bridge, links)]
    narrow = {(int(a), int(b)) for a, b in ways_narrow}
    for k, (start, step) in enumerate(zip(starts, steps, strict=True)):
        if k >= doors:  # a passage across the outline: one over the ground is drawn narrow
            there = start + step
            a, b = sorted(int(p[1]) * maze.width + int(p[0]) for p in (start, there))
            if (a, b) in narrow:
                continue
        across = np.array([-step[1], step[0]]) * 0.5
        # a door's way runs a tenth of a cell past the cell's side at least, as on the other
        # grids (ending on the side, it would leave the side's wall standing in the door)
        reach = max(_door_reach(figure, start, step) or 0.5, 0.6) if k < doors else 1.0
        end = start + reach * step
        parts.append(shapely.Polygon([start - across, end - across, end + across, start + across]))
        if k < doors:
            mouths.append((end - across, end + across))
            side, inner = start + 0.45 * step, across * 0.9  # (the side's wall inside it)
            ways.append(shapely.Polygon([side - inner, end - inner, end + inner, side + inner]))
    rr, cc = np.nonzero(bridge.reshape(maze.shape))
    boxes = shapely.box(cc, rr, cc + 1.0, rr + 1.0)
    openings = (centres[ways_narrow[:, 0]] + centres[ways_narrow[:, 1]]) / 2
    crossings, unreached = _bridge_ways(centres, bridge, ways_narrow, openings, _BRIDGE, figure,
                                        boxes)  # fmt: skip
    if unreached:
        parts[0] = shapely.difference(parts[0], shapely.union_all(unreached).buffer(1e-6))
    parts.extend(crossings)
    # the cells the outline cuts or bridges, where the floor may be sealed
    ids = np.flatnonzero(own.reshape(-1) >= 0)
    squares = _cell_polygons(maze.grid, ids)
    cut = bridge[ids] | (~shapely.contains_properly(figure, squares)
                         & shapely.intersects(figure, squares))  # fmt: skip
    region, walled = _settled(maze, shapely.union_all(parts), ways + opens, ids[cut], mouths)
    return region, mouths, walled, figure


def drawn_region(maze: Maze, *, inset: float = 0.0) -> Any:
    """The area a smooth maze's floor covers, as a shapely geometry: the figure inside the
    outline, the bridges' corridors, and the corridors that cross the outline (each
    bridge's passage in and out of it, and each door's way out to beyond the outline);
    ``inset`` (grid units) inside its boundary (see :func:`outline_paths`).

    Its boundary, less the two doors' mouths, is the drawn outline
    (:func:`outline_paths`); the walls inside are clipped to it.
    """
    _drawn(maze)
    return _inset(maze, 1, inset)


def walled_region(maze: Maze, *, inset: float = 0.0) -> Any:
    """Where a smooth maze's inner walls are drawn: :func:`drawn_region` less each door's way
    out (from the end cell's side to the door's mouth), which no wall may cross; ``inset``
    (grid units) inside its boundary (see :func:`outline_paths`)."""
    _drawn(maze)
    return _inset(maze, 3, inset)


def _inset(maze: Maze, which: int, inset: float) -> Any:
    """The region ``which`` of :data:`_REGIONS` (the drawn region 1, the walled region 3) of
    ``maze``'s drawing shrunk by ``inset`` where it lies on the figure: the corridors across
    the ground (bridges, doors' ways out) keep their width, which is made for the pen drawn
    on their edges, and the silhouette is the figure's only where there is figure. Itself
    for 0; computed once."""
    entry = _REGIONS[id(maze)]
    region = entry[which]
    if inset <= 0:
        return region
    made = entry[5].get((which, inset))
    if made is None:
        import shapely

        made = entry[5].get((1, inset))
        if made is None:
            made = entry[5][1, inset] = _shrunk(entry[1], entry[4], inset)
        if which != 1:  # (the walled region lies within the drawn one)
            made = entry[5][which, inset] = _polygonal(shapely.intersection(made, region))
    return made


def _shrunk(region: Any, figure: Any, inset: float) -> Any:
    """:func:`_inset`'s work: ``region`` less a band ``inset`` wide inside its boundary on
    ``figure``."""
    import shapely

    inner = shapely.buffer(region, -inset, quad_segs=4)
    # the ground's corridors, without the slivers a difference leaves along shared edges
    ground = shapely.difference(region, figure)
    ground = shapely.buffer(shapely.buffer(ground, -1e-6, quad_segs=1), 1e-6, quad_segs=1)
    # (and the floor within a line's width of them, so that where a corridor meets the
    # figure the two lines do not close in on its mouth)
    keep = [shapely.intersection(shapely.buffer(ground, 2 * _PEN, quad_segs=4), region)]
    # and the floor too narrow for two lines drawn inside it and a gap between (a stroke's
    # tip, a neck): inset, its lines' ink would close it; drawn as it was, a reader passes
    near = shapely.buffer(inner, 1e-6, quad_segs=1)
    shapely.prepare(near)

    def narrow(gap: float) -> list[Any]:
        reach = inset + _PEN + gap
        opened = shapely.buffer(shapely.buffer(region, -reach, quad_segs=4), reach, quad_segs=4)
        pieces = shapely.get_parts(shapely.difference(region, opened))
        held = shapely.intersects(near, pieces) if near.area else np.ones(len(pieces), bool)
        return list(pieces[(shapely.area(pieces) > 1e-6) & held])

    keep += narrow(_GAP)  # (a corner's sliver that misses the inset floor is not kept)
    # and a neck or tip too narrow for the wider gap :func:`_sealed` asks (which stays open
    # at 8 pixels a cell), with the band's wedges beside it: where it meets the inset floor,
    # or a notch's tip beside it is inset, the band pokes in and its ink would close in on
    # the way past it (a corner's piece holds no disk as wide as the band: left as it was)
    wide = np.array(narrow(_SEAL_GAP), dtype=object)
    ways = list(wide[~shapely.is_empty(shapely.buffer(wide, -inset, quad_segs=1))])
    made = shapely.union_all([inner, *keep, *ways])
    if ways:  # the band less what a line half its width cannot sweep, beside them (the
        # band looked at a little wider, so that where it is cut off it is not thin)
        ways_at = shapely.union_all(ways)
        window = shapely.buffer(ways_at, 3 * inset, quad_segs=4)
        band = shapely.intersection(shapely.difference(region, made), window)
        r = 0.45 * inset
        swept = shapely.buffer(shapely.buffer(band, -r, quad_segs=4), r, quad_segs=4)
        beside = shapely.buffer(ways_at, 2 * inset, quad_segs=4)
        made = shapely.union(made, shapely.intersection(shapely.difference(band, swept), beside))
    return _polygonal(made)


def _region_rings(region: Any) -> list[NDArray[np.float64]]:
    """Every ring of a shapely area (exteriors and holes), open, as ``(P, 2)`` arrays."""
    import shapely

    out = []
    for poly in shapely.get_parts(region):
        if poly.geom_type != "Polygon" or poly.is_empty:
            continue
        for ring in (poly.exterior, *poly.interiors):
            pts = np.asarray(ring.coords, dtype=np.float64)
            if len(pts) >= 4:
                out.append(pts[:-1])
    return out


def door_mouths(maze: Maze) -> list[tuple[NDArray, NDArray]]:
    """Where each door opens the drawn outline: the two ends of its mouth, ``(x, y)`` each."""
    return list(_drawn(maze)[1])


def outline_paths(maze: Maze, *, inset: float = 0.0) -> list[NDArray[np.float64]]:
    """The drawn outline: the boundary of :func:`drawn_region`, open at the two doors.

    The outline runs along the picture's contour, around each bridge and out
    along each door's corridor, so it opens to the outside at the doors' mouths
    (one corridor wide) and nowhere else. With ``inset`` (grid units; half the pen's
    width for a drawing) it runs that far inside, so a line drawn along it lies
    within the figure, its outer edge on the contour, as a designer aligns a stroke
    to the inside of a shape: the drawing's silhouette is the figure's, not a pen's
    half width bolder all round.
    """
    import shapely

    region = drawn_region(maze, inset=inset)
    outline = shapely.boundary(region)
    for a, b in door_mouths(maze):
        mouth = shapely.LineString([a, b]).buffer(inset + 1e-6)
        outline = shapely.difference(outline, mouth)
    outline = shapely.line_merge(outline) if not outline.is_empty else outline
    out = []
    for line in shapely.get_parts(outline):
        pts = np.asarray(line.coords, dtype=np.float64)
        if len(pts) >= 2:
            out.append(pts)
    return out


def _separated(maze: Maze) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """Which pairs of neighbouring maze cells an edge curve separates: ``(east, south)``,
    ``east[r, c]`` for ``(r, c)`` and ``(r, c + 1)``. A pair is separated when a curve
    crosses the straight way between the two centres."""
    lab, curves = maze.guide.edge_labels, maze.guide.edge_curves
    h, w = maze.shape
    east = np.zeros((h, w), bool)
    south = np.zeros((h, w), bool)
    if lab is None or not curves or lab.shape != maze.shape:
        return east, south
    import shapely

    m = maze.mask
    lines = shapely.multilinestrings([shapely.linestrings(c) for c in curves if len(c) >= 2])
    shapely.prepare(lines)
    for out, (dr, dc) in ((east, (0, 1)), (south, (1, 0))):
        a, b = lab[: h - dr, : w - dc], lab[dr:, dc:]
        rr, cc = np.nonzero((a != b) & m[: h - dr, : w - dc] & m[dr:, dc:])
        if not len(rr):
            continue
        ways = np.stack([cc + 0.5, rr + 0.5, cc + 0.5 + dc, rr + 0.5 + dr], axis=1)
        hit = shapely.intersects(lines, shapely.linestrings(ways.reshape(-1, 2, 2)))
        out[rr[hit], cc[hit]] = True
    return east, south


def drawn_sides(maze: Maze) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """The cell sides drawn as walls, with a smooth outline and edge curves taken into account.

    A side between two maze cells that an edge curve separates (a boundary
    between the picture's colour regions, :func:`mazeart.guide.edge_layout`) is
    not drawn: the curve is drawn instead (:func:`edge_paths`).
    """
    hor, ver = smooth_walls(maze) if _rings(maze) else maze.walls()
    east, south = _separated(maze)
    ver[:, 1:] &= ~east
    hor[1:] &= ~south
    return hor, ver


_DOOR_GAP = 0.4
"""How far (cells) on either side of a door's way an edge curve is cut open (between 0.15 and
0.85 of the way along it, where a curve crosses it: a curve passing a cell's centre in
another direction stays whole)."""


def edge_paths(maze: Maze) -> list[NDArray[np.float64]]:
    """The colour-region boundaries as polylines, cut open where a door passage crosses
    them: within :data:`_DOOR_GAP` of the way between the two cells' centres."""
    lab, curves = maze.guide.edge_labels, maze.guide.edge_curves
    if lab is None:
        return []
    p = maze.passages
    doors = []  # centre-to-centre ways of passages between cells a curve separates
    east, south = _separated(maze)
    for bit, dr, dc, cut in ((2, 0, 1, east), (4, 1, 0, south)):
        rr, cc = np.nonzero(((p & bit) != 0) & cut)
        for r, c in zip(rr, cc, strict=True):
            doors.append((np.array([c + 0.5, r + 0.5]), np.array([c + 0.5 + dc, r + 0.5 + dr])))
    out = []
    for curve in curves:
        pts = _densify(curve, 0.05)
        keep = np.ones(len(pts), dtype=bool)
        for a, b in doors:  # a box along the way, clear of both centres
            ab = b - a
            t = ((pts - a) @ ab) / (ab @ ab)
            d = np.abs((pts - a) @ np.array([-ab[1], ab[0]])) / np.hypot(*ab)
            keep &= (d > _DOOR_GAP) | (t < 0.15) | (t > 0.85)
        if keep.all():
            out.append(np.asarray(curve, dtype=np.float64))
            continue
        run: list[int] = []
        for i, k in enumerate(keep):
            if k:
                run.append(i)
            else:
                if len(run) >= 2:
                    out.append(pts[run])
                run = []
        if len(run) >= 2:
            out.append(pts[run])
    return out


def _densify(pts: NDArray[np.float64], step: float) -> NDArray[np.float64]:
    """The polyline with extra points so no segment is longer than ``step``."""
    out = [pts[:1]]
    for a, b in itertools.pairwise(pts):
        n = max(1, int(np.ceil(np.linalg.norm(b - a) / step)))
        t = np.arange(1, n + 1)[:, None] / n
        out.append(a + (b - a) * t)
    return np.vstack(out)


@njit(cache=True)
def _crossings(pa, la, pb, lb, levels):  # pragma: no cover - compiled
    """Where the edges ``(pa, la) -> (pb, lb)`` cross each of the sorted ``levels``: the
    positions ``xs[starts[k]:starts[k + 1]]`` along level ``k``, sorted (half-open rule)."""
    n = levels.shape[0]
    counts = np.zeros(n, np.int64)
    for e in range(pa.shape[0]):
        lo, hi = min(la[e], lb[e]), max(la[e], lb[e])
        k0 = np.searchsorted(levels, lo)
        k1 = np.searchsorted(levels, hi, side="right")
        for k in range(k0, k1):
            v = levels[k]
            if (la[e] <= v < lb[e]) or (lb[e] <= v < la[e]):
                counts[k] += 1
    starts = np.zeros(n + 1, np.int64)
    for k in range(n):
        starts[k + 1] = starts[k] + counts[k]
    xs = np.empty(starts[n], np.float64)
    fill = starts[:-1].copy()
    for e in range(pa.shape[0]):
        lo, hi = min(la[e], lb[e]), max(la[e], lb[e])
        k0 = np.searchsorted(levels, lo)
        k1 = np.searchsorted(levels, hi, side="right")
        for k in range(k0, k1):
            v = levels[k]
            if (la[e] <= v < lb[e]) or (lb[e] <= v < la[e]):
                t = (v - la[e]) / (lb[e] - la[e])
                xs[fill[k]] = pa[e] + t * (pb[e] - pa[e])
                fill[k] += 1
    for k in range(n):
        xs[starts[k] : starts[k + 1]] = np.sort(xs[starts[k] : starts[k + 1]])
    return starts, xs


@njit(cache=True)
def _clip_runs(lo, hi, level, starts, xs):  # pragma: no cover - compiled
    """The parts of each run ``[lo, hi]`` on level ``level`` that lie between alternate
    crossings: ``(u0, u1, level index)`` rows."""
    total = 0
    for s in range(lo.shape[0]):
        k = level[s]
        for c in range(starts[k], starts[k + 1] - 1, 2):
            if min(hi[s], xs[c + 1]) > max(lo[s], xs[c]):
                total += 1
    out = np.empty((total, 3), np.float64)
    n = 0
    for s in range(lo.shape[0]):
        k = level[s]
        for c in range(starts[k], starts[k + 1] - 1, 2):
            u0, u1 = max(lo[s], xs[c]), min(hi[s], xs[c + 1])
            if u1 > u0:
                out[n, 0], out[n, 1], out[n, 2] = u0, u1, k
                n += 1
    return out


def clip_segments(segs: NDArray, rings: Sequence[NDArray[np.float64]]) -> NDArray[np.float64]:
    """The parts of axis-parallel segments that lie inside the rings (even-odd rule).

    The drawing scene cuts walls to the outline with it, for every format: each
    distinct horizontal (or vertical) line is crossed with every ring edge once
    (compiled), and the segments on it keep what falls between alternate crossings.

    Parameters
    ----------
    segs : (K, 4) array_like
        ``x0, y0, x1, y1`` with ``y0 == y1`` or ``x0 == x1``.
    rings : sequence of (P, 2) ndarray

    Returns
    -------
    (M, 4) ndarray of float
    """
    segs = np.asarray(segs, dtype=float).reshape(-1, 4)
    if not rings or not len(segs):
        return segs
    a, b = _edges(rings)
    out = []
    for axis in (1, 0):  # 1: horizontal segments (constant y); 0: vertical (constant x)
        if axis == 1:
            mine = segs[segs[:, 1] == segs[:, 3]]
        else:
            mine = segs[(segs[:, 0] == segs[:, 2]) & (segs[:, 1] != segs[:, 3])]
        if not len(mine):
            continue
        along = 1 - axis  # the coordinate that varies along the segment
        levels, level = np.unique(mine[:, axis], return_inverse=True)
        starts, xs = _crossings(a[:, along], a[:, axis], b[:, along], b[:, axis], levels)
        lo = np.minimum(mine[:, along], mine[:, along + 2])
        hi = np.maximum(mine[:, along], mine[:, along + 2])
        runs = _clip_runs(lo, hi, level.astype(np.int64), starts, xs)
        at = levels[runs[:, 2].astype(np.int64)]
        if axis == 1:
            out.append(np.stack([runs[:, 0], at, runs[:, 1], at], axis=1))
        else:
            out.append(np.stack([at, runs[:, 0], at, runs[:, 1]], axis=1))
    return np.vstack(out) if out else np.zeros((0, 4))


# --- the smooth outline on a grid of polygons (hex, triangle, polar, upsilon) -------------
#
# The same drawing as on the square grid, in terms every grid has: each cell's polygon,
# each wall's polyline and the two cells beside it. Maze cells own themselves, the cell in
# front of a door its end, a sliver the maze neighbour it shares the most figure-held wall
# with; the floor is the figure inside the owned cells (each cell's piece that reaches its
# owner), the bridge cells whole, and a corridor wherever a passage crosses the outline and
# out of each door; the drawn walls are the closed walls between cells of different owners,
# cut to the floor less the doors' ways out.


def _unit(grid: Any) -> float:
    """A grid's cell, as a length: the square root of its mean cell area, at most 1 (the
    adaptive grid's unit is its smallest square)."""
    return float(min(1.0, np.sqrt(grid.size[0] * grid.size[1] / max(grid.n_cells, 1))))


def margin_of(grid: Any) -> float:
    """How far from the contour a cell's centre must lie to hold maze: a fifth of a cell
    (:func:`_unit`)."""
    return _MARGIN * _unit(grid)


def inside_points(
    rings: Sequence[NDArray[np.float64]], points: NDArray[np.float64], *, margin: float = 0.0
) -> NDArray[np.bool_]:
    """Which points lie inside the rings (even-odd), at least ``margin`` from them.

    Parameters
    ----------
    rings : sequence of (P, 2) ndarray
    points : (N, 2) ndarray
    margin : float, default 0

    Returns
    -------
    (N,) ndarray of bool
    """
    import shapely

    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if not rings or not len(pts):
        return np.zeros(len(pts), dtype=bool)
    figure = _figure(rings)
    shapely.prepare(figure)
    out = shapely.contains_xy(figure, pts[:, 0], pts[:, 1])
    if margin > 0 and out.any():
        edge = shapely.boundary(figure)
        shapely.prepare(edge)
        near = shapely.dwithin(edge, shapely.points(pts[out]), margin)
        out[np.flatnonzero(out)[near]] = False
    return out


def _rows(
    points: NDArray[np.float64], ptr: NDArray[np.int64], ids: NDArray[np.int64]
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """The ragged rows ``ids`` of ``points`` (row ``i`` is ``points[ptr[i]:ptr[i + 1]]``),
    one after another, and the row each point comes from (0 for the first of ``ids``)."""
    lens = ptr[ids + 1] - ptr[ids]
    take = np.repeat(ptr[ids] - np.concatenate([[0], np.cumsum(lens)[:-1]]), lens)
    take += np.arange(int(lens.sum()))
    return points[take], np.repeat(np.arange(len(ids)), lens)


def _cell_polygons(grid: Any, ids: NDArray[np.int64]) -> NDArray[np.object_]:
    """The shapely polygons of cells ``ids``."""
    import shapely

    if not len(ids):
        return np.zeros(0, dtype=object)
    points, which = _rows(grid.cell_points, grid.cell_ptr, ids)
    return shapely.polygons(shapely.linearrings(points, indices=which))


def _wall_lines(grid: Any, walls: NDArray[np.int64]) -> NDArray[np.object_]:
    """The shapely polylines of walls ``walls``."""
    import shapely

    if not len(walls):
        return np.zeros(0, dtype=object)
    points, which = _rows(grid.wall_points, grid.wall_ptr, walls)
    return shapely.linestrings(points, indices=which)


def _end_doors(maze: Maze) -> list[tuple[int, int, NDArray, NDArray]]:
    """Each end's cell id, its door wall, the wall's middle and the unit normal out of the
    cell (an end without a door is left out)."""
    from mazeart.export._walls import door

    out = []
    for end in (maze.entrance, maze.exit):
        way = None if end is None else door(maze, maze.cell_index(end))
        if way is not None:
            out.append((int(maze.cell_index(end)), maze.door_wall(end), *way))
    return out


def _grid_owners(maze: Maze) -> NDArray[np.int64]:
    """:func:`owners` on a grid of polygons: ``(n,)`` cell ids."""
    import shapely

    g = maze.grid
    mask = maze.mask.reshape(-1)
    own = np.where(mask, np.arange(g.n_cells), -1)
    rings = _rings(maze)
    if not rings:
        return own
    pair = g.wall_cells
    for end, wall, _, _ in _end_doors(maze):
        front = int(pair[wall, 1] if pair[wall, 0] == end else pair[wall, 0])
        if front >= 0 and not mask[front]:
            own[front] = end
    figure = _figure(rings)
    shapely.prepare(figure)
    # slivers: cells of no owner yet beside a maze cell, whose polygon meets the figure
    a, b = pair[:, 0], pair[:, 1]
    bb = np.maximum(b, 0)
    beside = (b >= 0) & (mask[a] ^ mask[bb]) & ((own[a] < 0) | (own[bb] < 0))
    walls = np.flatnonzero(beside)
    if not len(walls):
        return own
    sliver = np.where(mask[a[walls]], b[walls], a[walls])
    owner = np.where(mask[a[walls]], a[walls], b[walls])
    # a bridge (a maze cell whose centre is outside) is a corridor: it owns no sliver
    keep = (own[sliver] < 0) & inside_points(rings, g.centres[owner])
    walls, sliver, owner = walls[keep], sliver[keep], owner[keep]
    cells = np.unique(sliver)
    meets = shapely.intersects(figure, _cell_polygons(g, cells))
    keep = np.isin(sliver, cells[meets])
    walls, sliver, owner = walls[keep], sliver[keep], owner[keep]
    # the share of each wall the figure holds (a sliver joins the neighbour it shares most)
    held = shapely.length(shapely.intersection(_wall_lines(g, walls), figure))
    ok = held > 1e-9
    walls, sliver, owner, held = walls[ok], sliver[ok], owner[ok], held[ok]
    order = np.lexsort((-held, sliver))
    first = np.ones(len(order), dtype=bool)
    first[1:] = sliver[order][1:] != sliver[order][:-1]
    best = order[first]
    own[sliver[best]] = owner[best]
    return own


def _grid_drawn(maze: Maze) -> tuple[Any, list[tuple[NDArray, NDArray]], Any, Any]:
    """The drawn region, door mouths, walled region and figure of a smooth maze on a grid."""
    import shapely

    g = maze.grid
    mask = maze.mask.reshape(-1)
    figure = _figure(_rings(maze))
    figure = shapely.buffer(shapely.buffer(figure, -_NECK, quad_segs=4), _NECK, quad_segs=4)
    shapely.prepare(figure)
    own = owners(maze)
    ids = np.flatnonzero(own >= 0)
    polys = _cell_polygons(g, ids)
    # the floor: the figure inside the owned cells (one overlay, so no seam opens between
    # two cells), the bridges' corridors, less each cut cell's pieces that miss its owner
    bridge = mask[ids] & ~inside_points(_rings(maze), g.centres[ids])
    is_bridge = np.zeros(g.n_cells, bool)
    is_bridge[ids[bridge]] = True
    floor = shapely.intersection(figure, shapely.coverage_union_all(polys))
    links = maze.links()
    opened = np.flatnonzero(maze.passages)  # in the order of ``links``
    narrow = _narrow(figure, g.centres, is_bridge, links)
    openings = shapely.get_coordinates(shapely.line_interpolate_point(
        _wall_lines(g, opened[narrow]), 0.5, normalized=True)).reshape(-1, 2)  # fmt: skip
    # half a cell, and never narrower than the pen and the gap :func:`_sealed` asks for
    # (the triangle grid's cells are small: half of one would be sealed as no way)
    width = max(_BRIDGE * _unit(g), 2 * (_PEN + _SEAL_GAP) + 2.0 / _SEAL_PX)
    corridors, stray = _bridge_ways(g.centres, is_bridge, links[narrow], openings, width,
                                    figure, polys[bridge])  # fmt: skip
    pieces = [floor, *corridors]
    cut = ~bridge & ~shapely.contains_properly(figure, polys) & shapely.intersects(figure, polys)
    pair = g.wall_cells
    loose: list[tuple[int, Any]] = []  # pieces a cell's floor does not reach
    for cell, inside in zip(ids[cut], shapely.intersection(polys[cut], figure), strict=True):
        parts = [p for p in shapely.get_parts(_polygonal(inside)) if p.area > 1e-9]
        if len(parts) >= 2:
            loose += [(int(cell), p) for p in _loose_pieces(g, own, int(cell), parts)]
    left_out, opens = _settle(maze, figure, own, loose)
    stray += left_out
    if stray:
        pieces[0] = shapely.difference(floor, shapely.union_all(stray).buffer(1e-6))
    mouths, ways = [], []
    for end, wall, mid, normal in _end_doors(maze):
        line = g.wall(wall)
        p0, p1 = line[0].astype(np.float64), line[-1].astype(np.float64)
        wide, most = float(np.hypot(*(p1 - p0))), _DOOR_WIDE * _unit(g)
        if wide > most:  # a longer side (a big square of the adaptive grid): the door its middle
            middle, along = 0.5 * (p0 + p1), (p1 - p0) * (0.5 * most / wide)
            p0, p1 = middle - along, middle + along
        centre = g.centres[end]
        bulge = max(0.0, float(np.max((line - p0) @ normal)))  # an arc's beyond its chord
        half = 0.5 * (p1 - p0)
        back = _out_before(figure, p0, p1, normal, float((mid - centre) @ normal))
        if back > 0:  # the cell reaches out of the figure (a big square of the adaptive grid):
            # its door opens where its way leaves the figure, not on its side beyond
            p0, p1, mid = p0 - back * normal, p1 - back * normal, mid - back * normal
            q0, q1 = p0, p1
        else:
            reach = max(_way_out(figure, p0, p1, normal) or 0.5, bulge + 0.1)
            q0, q1 = p0 + reach * normal, p1 + reach * normal
            pieces.append(shapely.Polygon([centre, p0, q0, q1, p1]))
        # from the end's centre to the wall as wide as the door (within the cell), then out
        inner = shapely.Polygon([centre - half, mid - half, mid + half, centre + half])
        pieces.append(shapely.intersection(inner, _cell_polygons(g, np.array([end]))[0]))
        mouths.append((q0, q1))
        inner = 0.05 * (p1 - p0)
        if back > 0:  # (no wall crosses the mouth: the last half cell of the way)
            p0, p1 = p0 - 0.5 * normal, p1 - 0.5 * normal
        ways.append(shapely.Polygon([p0 + inner, q0 + inner, q1 - inner, p1 - inner]))
    # passages whose way from centre to centre crosses the outline, or passes within a pen's
    # width of it (its opening half cut off by a corner): a corridor through it
    if len(links):
        opened = opened[~narrow]
        ca, cb = g.centres[pair[opened, 0]], g.centres[pair[opened, 1]]
        paths = shapely.linestrings(np.stack([ca, cb], axis=1))
        edge = shapely.boundary(figure)
        shapely.prepare(edge)
        crossing = shapely.dwithin(edge, paths, 1.5 * _PEN)
        both = _cell_polygons(g, pair[opened[crossing]].reshape(-1)).reshape(-1, 2)
        for w, p, q, cells in zip(opened[crossing], ca[crossing], cb[crossing], both,
                                  strict=True):  # fmt: skip
            line = g.wall(int(w))
            # as wide as a bridge all the way from centre to centre, within the two cells,
            # and through the middle of the wall (a small cell's wall on a big one's side)
            ends = np.array([line[0], line[-1]], np.float64)
            along = ends[1] - ends[0]
            middle = 0.5 * (ends[0] + ends[1])
            half = along * min(0.5, 0.5 * width / max(float(np.hypot(*along)), 1e-12))
            strip = shapely.buffer(shapely.LineString([p, q]), 0.5 * width, cap_style="flat")
            pieces.append(shapely.intersection(strip, shapely.union(*cells)))
            pieces.append(
                shapely.convex_hull(shapely.multipoints([p, q, middle - half, middle + half]))
            )
    region, walled = _settled(maze, shapely.union_all(pieces), ways + opens, ids[cut | bridge],
                              mouths)  # fmt: skip
    return region, mouths, walled, figure


_SPECK_HOLE = 0.1
"""The largest hole (cells²) of the drawn floor that is filled: narrower than about two of
the outline's lines, its ring would be drawn as a blot (where a corridor crosses the tip
of a notch in the figure)."""


def _settled(
    maze: Maze,
    floor: Any,
    closed: list[Any],
    cut: NDArray[np.int64],
    mouths: Sequence[tuple[NDArray, NDArray]],
) -> tuple[Any, Any]:
    """The drawn region and the walled region (no wall crosses the ``closed`` ways) from the
    union of the floor's pieces, on every grid: holes under :data:`_SPECK_HOLE` filled, and
    the floor no way reaches (:func:`_sealed`, in the ``cut`` cells) left out, the outline
    going round it, but for a piece that a passage's way (centre to centre) crosses: there
    the neck is the passage's own, and leaving it out would cut the maze."""
    import shapely

    region = _solid(_polygonal(floor), _SPECK_HOLE)
    walled = _polygonal(shapely.difference(region, shapely.union_all(closed)))
    sealed = _sealed(maze, region, walled, cut, mouths)
    if sealed is not None:
        g = maze.grid
        near = np.zeros(g.n_cells, bool)
        near[cut] = True
        pair = g.wall_cells[maze.open_walls]
        pair = pair[(pair >= 0).all(axis=1)]  # (between two cells: not a door's wall)
        pair = pair[near[pair[:, 0]] | near[pair[:, 1]]]
        pieces = shapely.get_parts(sealed)
        paths = shapely.linestrings(np.stack([g.centres[pair[:, 0]], g.centres[pair[:, 1]]], 1))
        on_way = np.unique(shapely.STRtree(paths).query(pieces, predicate="intersects")[0])
        sealed = shapely.union_all(np.delete(pieces, on_way)) if len(on_way) else sealed
    if sealed is not None and not sealed.is_empty:
        region = _polygonal(shapely.difference(region, sealed))
        walled = _polygonal(shapely.difference(walled, sealed))
    return region, walled


def _loose_pieces(g: Any, own: NDArray[np.int64], cell: int, pieces: list[Any]) -> list[Any]:
    """The pieces of figure in ``cell`` that its floor (:func:`_anchor`) does not reach (a
    thin line of ground between), when one piece holds it; else none. ``own`` is flat
    (:func:`owners`)."""
    import shapely

    anchor = _anchor(g, own, cell)
    if anchor is None or not any(shapely.intersects(p, anchor) for p in pieces):
        return []
    return [p for p in pieces if not shapely.intersects(p, anchor)]


def _settle(
    maze: Maze, figure: Any, own: NDArray[np.int64], loose: list[tuple[int, Any]]
) -> tuple[list[Any], list[Any]]:
    """Which loose pieces (``(cell, piece)``, :func:`_loose_pieces`) are floor, so that
    each group of them is reached from the floor by one way and makes no loop.

    Pieces join across walls that are not drawn (the same owner, or a passage:
    :func:`grid_smooth_walls`), and so does a piece and a cell's floor. The pieces are
    taken largest first, each while the group it makes meets the floor by one way at most;
    a group that meets none has one wall it runs along (a pen and a reader's gap each side)
    to a cell's floor opened there (a maze cell's before a sliver's, then the longest), or
    is left out. Returns the pieces left out, and the walls' parts opened (thin areas where
    no wall is drawn)."""
    import shapely

    if not loose:
        return [], []
    g = maze.grid
    ip, ix = maze.open_table
    least = 2 * (_PEN + _GAP)
    by_cell: dict[int, list[int]] = {}
    for i, (cell, _) in enumerate(loose):
        by_cell.setdefault(cell, []).append(i)
    floors: dict[int, Any] = {}

    def floor_of(cell: int) -> Any:
        if cell not in floors:
            floors[cell] = _own_floor(maze, figure, own, cell) if own[cell] >= 0 else None
        return floors[cell]

    ways = np.zeros(len(loose), np.int64)  # ways to a floor across walls not drawn
    beside: list[set[int]] = [set() for _ in loose]  # pieces across walls not drawn
    choices: list[list[tuple[bool, float, Any]]] = [[] for _ in loose]  # walls to open
    for i, (cell, piece) in enumerate(loose):
        other = g.indices[g.indptr[cell] : g.indptr[cell + 1]]
        walls = np.asarray(g.wall_of[g.indptr[cell] : g.indptr[cell + 1]], np.int64)
        if not len(other):
            continue
        along = shapely.intersection(_wall_lines(g, walls), shapely.buffer(piece, 1e-6))
        length = shapely.length(along)
        opened = np.isin(other, ix[ip[cell] : ip[cell + 1]])
        drawn = (own[other] != own[cell]) & ~opened  # as grid_smooth_walls draws them
        for k in np.flatnonzero(length > 1e-3):
            z = int(other[k])
            floor = floor_of(z)
            seam = None if floor is None else shapely.intersection(
                along[k], shapely.buffer(floor, 1e-6))  # fmt: skip
            if not drawn[k]:
                if seam is not None:  # each stretch of the seam is a way in
                    ways[i] += sum(part.length > 1e-3 for part in shapely.get_parts(seam))
                for j in by_cell.get(z, []):  # a loose piece of the neighbour across it
                    shared = shapely.intersection(along[k], shapely.buffer(loose[j][1], 1e-6))
                    if shapely.length(shared) > 1e-3:
                        beside[i].add(j)
                        beside[j].add(i)
            elif seam is not None and shapely.length(seam) >= least:
                choices[i].append((bool(own[z] == z), float(shapely.length(seam)), seam))
    group = list(range(len(loose)))  # among the pieces taken

    def root(i: int) -> int:
        while group[i] != i:
            group[i] = group[group[i]]
            i = group[i]
        return i

    taken = np.zeros(len(loose), bool)
    meets = ways.copy()  # per group root: its ways in
    for i in sorted(range(len(loose)), key=lambda i: -loose[i][1].area):
        roots = [root(j) for j in beside[i] if taken[j]]
        if len(set(roots)) < len(roots):  # two ways into one group: a loop
            continue
        if ways[i] + sum(int(meets[r]) for r in roots) > 1:
            continue
        taken[i] = True
        for r in roots:
            group[r] = i
        meets[i] = ways[i] + sum(int(meets[r]) for r in roots)
    stray = [loose[q][1] for q in np.flatnonzero(~taken).tolist()]
    opens: list[Any] = []
    members: dict[int, list[int]] = {}
    for q in np.flatnonzero(taken).tolist():
        members.setdefault(root(q), []).append(q)
    for r, group_of in members.items():
        if meets[r] == 0:  # no way in yet: open one, or leave the group out
            best = max((c for i in group_of for c in choices[i]), default=None,
                       key=lambda c: (c[0], c[1]))  # fmt: skip
            if best is None:
                stray += [loose[i][1] for i in group_of]
            else:
                opens.append(shapely.buffer(best[2], 1e-3, cap_style="flat"))
    return stray, opens


def _anchor(g: Any, own: NDArray[np.int64], cell: int) -> Any:
    """Where an owned cell's floor is: about its centre (a maze cell), or along the walls
    it shares with its owner (a sliver); None for a sliver with no such wall."""
    import shapely

    o = int(own[cell])
    if o == cell:
        return shapely.Point(g.centres[cell]).buffer(0.05)
    pair = g.wall_cells
    shared = np.flatnonzero(((pair[:, 0] == cell) & (pair[:, 1] == o))
                            | ((pair[:, 0] == o) & (pair[:, 1] == cell)))  # fmt: skip
    return shapely.union_all(_wall_lines(g, shared)).buffer(0.02) if len(shared) else None


def _own_floor(maze: Maze, figure: Any, own: NDArray[np.int64], cell: int) -> Any:
    """The piece of ``figure`` in owned ``cell`` that its floor holds: the one holding its
    centre (a maze cell), or the ones on the side it shares with its owner (a sliver); None
    when there is none (a bridge cell, drawn as corridors)."""
    import shapely

    g = maze.grid
    inside = shapely.intersection(shapely.Polygon(g.polygon(cell)), figure)
    parts = [p for p in shapely.get_parts(_polygonal(inside)) if p.area > 1e-9]
    anchor = _anchor(g, own, cell)
    if anchor is None:
        return None
    held = [p for p in parts if shapely.intersects(p, anchor)]
    return shapely.union_all(held) if held else None


_DOOR_WIDE = 1.0
"""A door's widest, in cells (:func:`_unit`, the adaptive grid's smallest square): an end
on a longer side (a big square of the adaptive grid) opens on the middle of it, so its way
out stays near the figure."""
_PEN = 0.1
"""Half the width (cells) of a drawn line with room to spare (a line is 0.15 wide)."""
_GAP = 0.05
"""Half the narrowest gap (cells) between two lines' ink that a reader can pass through."""


_LINE = 0.15
"""The width (cells) of a drawn line, as a style draws it by default."""
_END_ROOM = _LINE + 2 * _GAP
"""How far inside the contour (cells) an end's centre lies at least, where it can: clear of
the outline's line by a reader's gap."""

_SEAL_PX = 24
"""Pixels a cell at which :func:`_sealed` draws the floor near the outline."""
_SEAL_GAP = 0.1
"""Half the gap (cells) :func:`_sealed` asks of a way between two lines' ink: twice a
reader's narrowest (:data:`_GAP`), so that a way stays open drawn at 8 pixels a cell, where
a slanted line's ink takes whole pixels each side of it. The bridges are made that wide."""


def _sealed(
    maze: Maze,
    region: Any,
    walled: Any,
    cut: NDArray[np.int64],
    mouths: Sequence[tuple[NDArray, NDArray]],
) -> Any:
    """The floor near the outline that no way reaches: in the cells the outline cuts or
    bridges and their neighbours, drawn at :data:`_SEAL_PX` pixels a cell tile by tile
    (:data:`_TILE` cells, each seen with two cells around it), the floor less the walls'
    (cut to ``walled``, as they are drawn) and the outline's ink (:data:`_PEN` either side)
    is opened by :data:`_SEAL_GAP` (a gap narrower than twice that is no way); what the
    opened pieces holding a maze cell's centre do not reach is sealed (where the contour
    comes within a pen's width of a wall), as an area. None when there is none."""
    import shapely

    from mazeart.export._walls import wall_segments

    if not len(cut):
        return None
    g = maze.grid
    pair = g.wall_cells
    near = np.zeros(g.n_cells, bool)
    near[cut] = True
    near[[end for end, *_ in _end_doors(maze)]] = True  # and the doors' ways out
    touching = near[pair[:, 0]] | ((pair[:, 1] >= 0) & near[np.maximum(pair[:, 1], 0)])
    beside = pair[touching].reshape(-1)
    near[beside[beside >= 0]] = True
    ids = np.flatnonzero(near)
    cells = shapely.coverage_union_all(_cell_polygons(g, ids))
    band = _polygonal(shapely.intersection(region, cells))
    segs, wall = wall_segments(maze, grid_smooth_walls(maze))
    mine = touching[wall] | near[pair[wall, 0]]
    ink = [clip_lines(segs[mine], walled).reshape(-1, 2, 2)]
    outline = shapely.intersection(shapely.boundary(region), cells)  # ink, but at the mouths
    for a, b in mouths:
        outline = shapely.difference(outline, shapely.LineString([a, b]).buffer(1e-6))
    for part in shapely.get_parts(outline):
        if part.geom_type == "LineString":
            pts = shapely.get_coordinates(part)
            ink.append(np.stack([pts[:-1], pts[1:]], axis=1))
    ink_segs = np.concatenate(ink)
    lo, hi = ink_segs.min(axis=1), ink_segs.max(axis=1)
    centres = g.centres[ids[maze.mask.reshape(-1)[ids]]]
    shapely.prepare(band)
    x0, y0, x1, y1 = cells.bounds
    dead = []
    for ty in np.arange(y0, y1, _TILE):
        for tx in np.arange(x0, x1, _TILE):
            core = shapely.box(tx, ty, tx + _TILE, ty + _TILE)
            if not shapely.intersects(band, core):
                continue
            window = np.array([tx - 2, ty - 2, tx + _TILE + 2, ty + _TILE + 2])
            floor = shapely.intersection(band, shapely.box(*window))
            # drawn as far as the floor there goes (and a little more), within the window
            bounds = np.array(floor.bounds) + np.array([-1, -1, 1, 1]) * 4 / _SEAL_PX
            bounds[:2] = np.maximum(bounds[:2], window[:2])
            bounds[2:] = np.minimum(bounds[2:], window[2:])
            seen = (hi[:, 0] >= bounds[0]) & (lo[:, 0] <= bounds[2])
            seen &= (hi[:, 1] >= bounds[1]) & (lo[:, 1] <= bounds[3])
            piece = _sealed_tile(floor, ink_segs[seen], centres, tuple(bounds))
            if piece is not None:
                dead.append(shapely.intersection(piece, core))
    if not dead:
        return None
    return shapely.intersection(shapely.union_all(dead), cells)


_TILE = 32
"""Cells a side of the tiles :func:`_sealed` draws one at a time."""


def _disk(r: float) -> NDArray[np.int64]:
    """The pixel offsets ``(dy, dx)`` within ``r`` of a pixel."""
    k = int(np.floor(r + 0.01))
    dy, dx = np.mgrid[-k : k + 1, -k : k + 1]
    inside = np.hypot(dy, dx) <= r + 0.01
    return np.stack([dy[inside], dx[inside]], axis=1)


def _morph(image: NDArray[np.bool_], disk: NDArray[np.int64], *, grow: bool) -> NDArray:
    """``image`` dilated (``grow``) or eroded by the pixel offsets ``disk``, outside the image
    being empty: one pass of whole-array logic per offset (a small disk's morphology in a
    tenth of a generic one's time)."""
    k = int(np.abs(disk).max())
    h, w = image.shape
    padded = np.pad(image, k)
    out = np.zeros_like(image) if grow else np.ones_like(image)
    for dy, dx in disk.tolist():
        shifted = padded[k + dy : k + dy + h, k + dx : k + dx + w]
        if grow:
            out |= shifted
        else:
            out &= shifted
    return out


def _stamp(segs: NDArray[np.float64], size: tuple[int, int]) -> NDArray[np.bool_]:
    """The pixels (``(height, width)`` ``size``) the segments ``segs`` (``(K, 2, 2)`` pixel
    coordinates, pixel centres at whole numbers) pass through, sampled every half pixel."""
    out = np.zeros(size, bool)
    if not len(segs):
        return out
    a, d = segs[:, 0], segs[:, 1] - segs[:, 0]
    n = np.ceil(2 * np.hypot(d[:, 0], d[:, 1])).astype(np.int64) + 1
    which = np.repeat(np.arange(len(segs)), n)
    t = np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n)
    pts = np.rint(a[which] + d[which] * (t / np.maximum(n - 1, 1)[which])[:, None])
    x, y = pts[:, 0].astype(np.int64), pts[:, 1].astype(np.int64)
    keep = (x >= 0) & (x < size[1]) & (y >= 0) & (y < size[0])
    out[y[keep], x[keep]] = True
    return out


def _sealed_tile(
    band: Any, segs: NDArray[np.float64], centres: NDArray, bounds: tuple[float, ...]
) -> Any:
    """:func:`_sealed` in one window ``bounds``: the dead floor of ``band`` there, or None."""
    import shapely
    from PIL import Image, ImageDraw
    from scipy import ndimage
    from skimage.measure import find_contours

    x0, y0, x1, y1 = bounds
    px = float(_SEAL_PX)
    size = (int(np.ceil((x1 - x0) * px)), int(np.ceil((y1 - y0) * px)))
    origin = np.array([x0, y0])

    def at(points: Any) -> list[tuple[float, float]]:
        return [tuple(p) for p in ((np.asarray(points) - origin) * px).tolist()]

    floor_img = Image.new("1", size, 0)
    draw = ImageDraw.Draw(floor_img)
    for poly in sorted(shapely.get_parts(_polygonal(band)), key=lambda p: -p.area):
        draw.polygon(at(poly.exterior.coords), fill=1)
        for hole in poly.interiors:
            draw.polygon(at(hole.coords), fill=0)
    # the ink: every line's pixels widened by the pen (round joints and caps)
    lines = _stamp((segs - origin) * px, (size[1], size[0]))
    floor = np.asarray(floor_img, dtype=bool) & ~_morph(lines, _disk(_PEN * px), grow=True)
    disk = _disk(max(1, round(_SEAL_GAP * px)))
    opened = _morph(_morph(floor, disk, grow=False), disk, grow=True)
    labels, count = ndimage.label(opened)
    spots = ((centres - origin) * px).astype(np.int64)
    inside = (spots[:, 0] >= 0) & (spots[:, 0] < size[0]) & (spots[:, 1] >= 0)
    inside &= spots[:, 1] < size[1]
    keep = np.zeros(count + 1, bool)
    keep[labels[spots[inside, 1], spots[inside, 0]]] = True
    # the window's rim: floor that goes on beyond it is reached from there
    for rim in (labels[0], labels[-1], labels[:, 0], labels[:, -1]):
        keep[rim] = True
    keep[0] = False
    alive = keep[labels]
    reached = _morph(_morph(alive, disk, grow=True), disk, grow=True)
    dead = floor & ~reached
    rows, cols = np.flatnonzero(dead.any(axis=1)), np.flatnonzero(dead.any(axis=0))
    if not len(rows):
        return None
    pen = _disk(_PEN * px + 1)
    k = int(np.abs(pen).max())
    r0, r1 = max(rows[0] - k, 0), min(rows[-1] + k + 1, dead.shape[0])
    c0, c1 = max(cols[0] - k, 0), min(cols[-1] + k + 1, dead.shape[1])
    dead, floor = dead[r0:r1, c0:c1], floor[r0:r1, c0:c1]  # where there is any
    origin = origin + np.array([c0, r0]) / px
    # a speck where two lines meet (smaller than a square as wide as the gap asked for) is
    # no pocket a reader sees: sealed, the outline would only notch round it
    pieces, count = ndimage.label(dead)
    sizes = np.bincount(pieces.reshape(-1), minlength=count + 1)
    big = sizes >= (2 * _SEAL_GAP * px) ** 2
    big[0] = False
    dead = big[pieces]
    if not dead.any():
        return None
    # and the lines' ink about it, so that the outline is drawn where they were; never the
    # floor a way reaches (the outline round the dead floor is drawn inside that alone)
    dead |= _morph(dead, pen, grow=True) & ~floor
    rings = [c[:, ::-1] / px + origin for c in find_contours(np.pad(dead, 1).astype(float), 0.5)]
    rings = [ring - 1.0 / px for ring in rings if len(ring) >= 4]
    area = _figure(rings)
    return None if area.is_empty else area


def _solid(region: Any, least: float = 1e-3) -> Any:
    """The area without the holes smaller than ``least`` (by default seams where two pieces
    of floor were cut apart by rounding, not holes of the figure)."""
    import shapely

    polys = []
    for poly in shapely.get_parts(region):
        holes = [h for h in poly.interiors if shapely.Polygon(h).area >= least]
        polys.append(shapely.Polygon(poly.exterior, holes))
    return shapely.union_all(polys) if polys else region


def _first_miss(
    figure: Any, p0: NDArray, p1: NDArray, normal: NDArray, offsets: NDArray
) -> float | None:
    """The first of ``offsets`` (along ``normal`` from a door's wall, ``p0`` to ``p1``) at
    which a cross-section as wide as the door misses the figure; None if none does."""
    import shapely

    shrink = 0.02 * (p1 - p0)
    for t in offsets:
        section = shapely.LineString([p0 + shrink + t * normal, p1 - shrink + t * normal])
        if not shapely.intersects(figure, section):
            return float(t)
    return None


def _out_before(figure: Any, p0: NDArray, p1: NDArray, normal: NDArray, depth: float) -> float:
    """How far before a door's wall (``p0`` to ``p1``, ``depth`` beyond its cell's centre)
    a cross-section as wide as the door first misses the figure, going out from a tenth of
    a cell past the centre; 0 when every one up to the wall meets it."""
    t = _first_miss(figure, p0, p1, normal, np.arange(0.1, depth, 0.05) - depth)
    return 0.0 if t is None else -t


def _way_out(figure: Any, p0: NDArray, p1: NDArray, normal: NDArray) -> float | None:
    """How far beyond a door's wall (``p0`` to ``p1``) its way out runs before a
    cross-section as wide as the door no longer meets the figure (at least a tenth of a
    cell); None for a door that does not leave the figure within a cell and a half (it
    opens onto a notch, runs into another part of the figure, or along its edge)."""
    return _first_miss(figure, p0, p1, normal, np.arange(0.1, 1.5, 0.05))


def grid_smooth_walls(maze: Maze) -> NDArray[np.bool_]:
    """The walls of a smooth maze drawn inside its outline (before clipping to it): a wall
    between cells of different owners that no passage opens, ``(n_walls,)`` (on the square
    grid, the sides :func:`smooth_walls` draws)."""
    own = owners(maze).reshape(-1)
    a, b = maze.grid.wall_cells[:, 0], maze.grid.wall_cells[:, 1]
    oa = own[a]
    ob = np.where(b >= 0, own[np.maximum(b, 0)], -1)
    return (oa != ob) & ((oa >= 0) | (ob >= 0)) & ~maze.open_walls


def clip_lines(segs: NDArray, region: Any) -> NDArray[np.float64]:
    """The parts of segments ``x0, y0, x1, y1`` (any direction) inside a shapely area:
    those wholly inside kept as they are, those across its boundary cut by geometry (or,
    when every segment is axis-parallel, by :func:`clip_segments` on the area's rings).

    Parameters
    ----------
    segs : (K, 4) array_like
    region : shapely geometry

    Returns
    -------
    (M, 4) ndarray of float
    """
    import shapely

    segs = np.asarray(segs, dtype=float).reshape(-1, 4)
    if not len(segs):
        return segs
    square = (segs[:, 0] == segs[:, 2]) | (segs[:, 1] == segs[:, 3])
    if square.all():  # the square grid's walls: crossed with the rings, compiled
        return clip_segments(segs, _region_rings(region))
    lines = shapely.linestrings(segs.reshape(-1, 2, 2))
    shapely.prepare(region)
    inside = shapely.contains_properly(region, lines)
    across = ~inside & shapely.intersects(region, lines)
    out = [segs[inside]]
    for piece in shapely.intersection(lines[across], region):
        for part in shapely.get_parts(piece):
            if part.geom_type != "LineString" or part.length < 1e-9:
                continue
            pts = np.asarray(part.coords)
            out.append(np.hstack([pts[:-1], pts[1:]]))
    return np.vstack(out)
