"""A maze as material: its walls and its plate as areas in millimetres, for a laser
cutter (:mod:`mazeart.export.cut`) and a 3-D printer (:mod:`mazeart.export.mesh`).

The areas come from the same scene the SVG draws (:func:`mazeart.export.scene.build_scene`),
so every grid, the smooth outline, tone and the design's edges are material as
they are ink: each stroke becomes the area its pen covers (a rectangle per
segment, reaching on by half the width where the stroke's ends are square, a
disc at every joint where they are round), and the areas are joined by
Clipper2 (manifold3d's :class:`~manifold3d.CrossSection`), which keeps them exact
and simple. The *plate* is the maze's floor and walls grown by the margin: the
outline of a cut piece, the base of a printed one.

Coordinates are millimetres with ``y`` up (a model seen from above is the picture,
not its mirror); the drawing's ``x`` runs on unchanged.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mazeart.errors import MazeartError, MazeartWarning, check_number
from mazeart.export._style import Style
from mazeart.export.scene import Lines, Scene, build_scene
from mazeart.maze import Maze

__all__ = ["MIN_WALL_MM", "RIM_MM", "Plan", "length_mm", "plan", "stroke_area", "wall_width"]

MIN_WALL_MM = 1.2
"""The thinnest wall made by default: three lines of a 0.4 mm printer nozzle, and a wall
a laser cuts from 3 mm plywood without it snapping. A thinner ``line_width`` is made
as asked."""

RIM_MM = 0.05
"""The plate reaches at least this far past the outermost wall (mm), even without a margin."""

_INK = ("walls", "outline", "edges")
_LENGTH = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(mm|cm|in)?\s*$")
_MM = {"mm": 1.0, "cm": 10.0, "in": 25.4}


def length_mm(text: str | float, what: str) -> float:
    """A length such as ``"90mm"``, ``"9cm"``, ``"3.5in"`` or a number (millimetres), in mm.

    Examples
    --------
    >>> length_mm("9cm", "size"), length_mm(42, "size")
    (90.0, 42.0)
    """
    if isinstance(text, bool):
        raise TypeError(f"{what} must be a length such as 90mm, got {text!r}")
    if isinstance(text, int | float):
        value = float(text)
    else:
        if not isinstance(text, str):
            raise TypeError(f"{what} must be a length such as 90mm, got {text!r}")
        m = _LENGTH.match(text)
        if not m:
            raise MazeartError(f"{what} must be a length such as 90mm, 9cm or 3.5in, got {text!r}")
        value = float(m.group(1)) * _MM[m.group(2) or "mm"]
    return check_number(value, what, low=0, high=100_000, low_open=True)


@dataclass(frozen=True, eq=False)
class Plan:
    """A maze's material, in millimetres with ``y`` up."""

    walls: Any
    """The walls (and outline, and design edges): a :class:`manifold3d.CrossSection`."""
    floor: Any
    """The area the maze's cells cover, walls included."""
    plate: Any
    """The floor grown by the margin: a cut piece's outline, a printed model's base."""
    path: Any
    """The solution's groove (an empty section without one)."""
    width: float
    height: float
    """The whole piece's size, margin included (mm)."""
    unit: float
    """Millimetres per cell."""
    wall: float
    """The walls' thickness (mm)."""
    transform: NDArray[np.float64]
    """``a, b, c, d``: a point ``x, y`` of the drawing (cells, ``y`` down) is at
    ``a x + b, c y + d`` (mm, ``y`` up)."""

    def to_mm(self, points: ArrayLike) -> NDArray[np.float64]:
        """Points of the drawing (cells, ``y`` down) in the plan's millimetres (``y`` up)."""
        p = np.asarray(points, np.float64).reshape(-1, 2)
        a, b, c, d = self.transform
        return np.stack([a * p[:, 0] + b, c * p[:, 1] + d], axis=1)

    def corridors(self) -> Any:
        """The floor the walls leave free: where a ball rolls, where a laser cuts out."""
        return self.floor - self.walls


def _rings(points: NDArray[np.float64], area_sign: float = 1.0) -> list[NDArray[np.float64]]:
    """``(K, P, 2)`` polygons as a list, each turned to wind the same way."""
    x, y = points[..., 0], points[..., 1]
    area = (x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y).sum(axis=1)
    points = np.where((area * area_sign < 0)[:, None, None], points[:, ::-1], points)
    return list(np.ascontiguousarray(points))


def stroke_area(lines: Lines, width: float, *, square: bool, sides: int = 12) -> Any:
    """The area a pen ``width`` wide covers drawing ``lines``, as a CrossSection.

    Parameters
    ----------
    lines : Lines
        In any units (the area's are the same).
    width : float
    square : bool
        Square ends, reaching on by half the width (joints are then square too:
        a maze's walls meet at right angles); else round ends and joints.
    sides : int, default 12
        Sides of the polygon a round joint is drawn as.

    Returns
    -------
    manifold3d.CrossSection
    """
    from manifold3d import CrossSection, FillRule

    segs = lines.segments()
    segs = segs[np.any(segs[:, :2] != segs[:, 2:], axis=1)]
    if not len(segs):
        return CrossSection()
    half = width / 2
    d = segs[:, 2:] - segs[:, :2]
    unit = d / np.hypot(d[:, 0], d[:, 1])[:, None]
    normal = np.stack([-unit[:, 1], unit[:, 0]], axis=1) * half
    a, b = segs[:, :2], segs[:, 2:]
    if square:
        a, b = a - unit * half, b + unit * half
    quads = np.stack([a + normal, b + normal, b - normal, a - normal], axis=1)
    polys = _rings(quads)
    if not square:
        joints = np.unique(np.round(np.vstack([segs[:, :2], segs[:, 2:]]), 9), axis=0)
        t = np.linspace(0, 2 * np.pi, sides, endpoint=False)
        circle = np.stack([np.cos(t), np.sin(t)], axis=1) * half / np.cos(np.pi / sides)
        polys += _rings(joints[:, None, :] + circle[None])
    return CrossSection(polys, FillRule.NonZero)


def _even_odd(lines: Lines) -> Any:
    """Closed rings filled by the even-odd rule, as a CrossSection."""
    from manifold3d import CrossSection, FillRule

    rings = [np.ascontiguousarray(r) for r in lines if len(r) >= 3]
    return CrossSection(rings, FillRule.EvenOdd) if rings else CrossSection()


def _rects(rects: NDArray[np.float64]) -> Any:
    from manifold3d import CrossSection, FillRule

    if not len(rects):
        return CrossSection()
    x0, y0, x1, y1 = rects.T
    quads = np.stack([np.stack([x0, y0], 1), np.stack([x1, y0], 1), np.stack([x1, y1], 1),
                      np.stack([x0, y1], 1)], axis=1)  # fmt: skip
    return CrossSection(_rings(quads), FillRule.NonZero)


def _joined(area: Any, eps: float) -> Any:
    """``area`` grown by ``2 eps`` and shrunk by ``eps`` (mm): parts that touched at a point
    are joined by a neck, not left pinched (growing and shrinking alike would pinch again);
    and no two corners closer than a tenth of ``eps``, which a mesh's single-precision
    points would make one."""
    from manifold3d import JoinType

    return area.offset(2 * eps, JoinType.Miter).offset(-eps, JoinType.Miter).simplify(eps / 10)


def _flip(lines: Lines, k: float, margin: float, height: float) -> Lines:
    """Maze units (``y`` down) to millimetres (``y`` up), the margin's corner at 0."""
    pts = np.empty_like(lines.points)
    pts[:, 0] = (lines.points[:, 0] + margin) * k
    pts[:, 1] = (height + margin - lines.points[:, 1]) * k
    return Lines(pts, lines.starts)


def wall_width(style_width: float | None, unit: float, *, what: str) -> float:
    """The walls' thickness in mm: as given (a share of a cell), or by default the style's
    but at least :data:`MIN_WALL_MM` and at most half a cell (said when cells are too small
    for that)."""
    if style_width is not None:
        return style_width * unit
    wanted = max(Style.line_width * unit, MIN_WALL_MM)
    if wanted > unit / 2:
        warnings.warn(
            f"cells of {unit:.2g} mm are too small for {what}: walls of {unit / 2:.2g} mm; "
            "give a larger --size or fewer --cells",
            MazeartWarning,
            stacklevel=3,
        )
        return unit / 2
    return wanted


def plan(
    maze: Maze,
    *,
    size: float,
    line_width: float | None = None,
    margin: float = 1.0,
    solutions: Sequence[ArrayLike] | None = None,
    solution_width: float | None = None,
    what: str = "a solid maze",
) -> Plan:
    """A maze's walls, floor, plate and solution groove in millimetres.

    Parameters
    ----------
    maze : Maze
        On any grid.
    size : float
        The piece's width (mm): the plate's, rim included (a picture that does not
        fill its grid's width is made larger to fill it).
    line_width : float, optional
        The walls' thickness as a share of a cell (default: the drawing's, but at
        least :data:`MIN_WALL_MM`).
    margin : float, default 1
        The rim of plate around the maze (cells).
    solutions : sequence of array_like, optional
        Paths whose grooves :attr:`Plan.path` holds (the first only).
    solution_width : float, optional
        The groove's width, a share of a cell (default: the walls' gap less a third).
    what : str
        What is made, for a warning.

    Returns
    -------
    Plan
    """
    from manifold3d import CrossSection, JoinType

    check_number(margin, "margin", low=0, high=10_000)
    if line_width is not None:
        check_number(line_width, "line_width", low=0, high=1, low_open=True)
    across = float(maze.width if maze.is_square else maze.grid.size[0])
    k = size / (across + 2 * margin)
    wall = wall_width(line_width, k, what=what)
    style = Style(floor="#ffffff", markers=False, tags=False, margin=margin,
                  line_width=wall / k, solution=False)  # fmt: skip
    scene: Scene = build_scene(maze, style, ordered=False, chained=True,
                               solutions=list(solutions or [])[:1])  # fmt: skip

    def flip(lines: Lines) -> Lines:
        return _flip(lines, k, margin, scene.height)

    walls = CrossSection()
    for name in _INK:
        layer = scene.layer(name)
        for st in layer.strokes if layer else ():
            walls += stroke_area(flip(st.lines), st.width * k, square=st.cap == "square")
    floor = walls
    ground = scene.layer("floor")
    for fill in ground.fills if ground is not None else ():
        rects = fill.rects.copy()
        if len(rects):
            x0, y0, x1, y1 = rects.T
            top = scene.height + margin
            rects = np.stack([(x0 + margin) * k, (top - y1) * k, (x1 + margin) * k,
                              (top - y0) * k], axis=1)  # fmt: skip
        floor = floor + _rects(rects) + _even_odd(flip(fill.rings))
    # a rim of at least RIM_MM, so that no side of a wall lies on the plate's side; gaps
    # in it narrower than two walls closed (no slit or pinch a cutter or printer breaks)
    rim = max(margin * k, RIM_MM)
    plate = floor.offset(rim + wall, JoinType.Round, circular_segments=48)
    plate = plate.offset(-wall, JoinType.Round, circular_segments=48)
    # areas that touch at a point only (walls meeting corner to corner, a rim that closes
    # on itself) are joined by a neck: a solid with a pinch is manifold to manifold3d
    # but not in an STL, which keeps no topology
    walls, floor, plate = (_joined(x, 1e-3) for x in (walls, floor, plate))
    path = CrossSection()
    sol = scene.layer("solution")
    if sol is not None and sol.strokes:
        gap = (1 - style.line_width) * k
        width = solution_width * k if solution_width is not None else gap * 2 / 3
        # clear of the walls by a tenth of a millimetre: no face of the groove on a wall's
        clear = (plate - walls.offset(0.1, JoinType.Miter)).offset(-1e-3, JoinType.Miter)
        path = _joined(stroke_area(flip(sol.strokes[0].lines), width, square=False) ^ clear, 1e-3)
    # the plate (the picture's shape and rim) made exactly ``size`` wide, its corner at 0
    x0, y0, x1, y1 = plate.bounds()
    grow = size / (x1 - x0)
    walls, floor, plate, path = (x.translate((-x0, -y0)).scale((grow, grow))
                                 for x in (walls, floor, plate, path))  # fmt: skip
    top = scene.height + margin
    to_mm = np.array([k * grow, margin * k * grow - x0 * grow, -k * grow,
                      top * k * grow - y0 * grow])  # fmt: skip
    return Plan(walls, floor, plate, path, size, (y1 - y0) * grow, k * grow, wall * grow, to_mm)
