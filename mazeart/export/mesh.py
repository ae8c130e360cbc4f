"""3-D print: a maze as walls standing on a plate, written as STL or 3MF.

The model is built from the maze's material (:func:`mazeart.export.solid.plan`) by
manifold3d, which keeps every boolean watertight and manifold: the plate extruded
``base`` millimetres, the walls extruded from the floor up to ``base + wall_height``
and joined to it, and the solution (when asked) cut as a groove into the floor.
Sizes are millimetres, the unit slicers read STL in and the one a 3MF declares.

manifold3d is a small compiled library (numpy its only dependency) kept by the
authors of OpenSCAD's and Blender's mesh booleans; it is what guarantees that a
model of tens of thousands of walls has no open edge and no self-intersection.
"""

from __future__ import annotations

import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mazeart._io import plain
from mazeart._jit import njit
from mazeart.errors import MazeartError, check_number
from mazeart.export.solid import length_mm, plan
from mazeart.maze import Maze

__all__ = ["MODEL_SIZE", "Model", "render_model", "solid_model", "write_3mf", "write_stl"]

MODEL_SIZE = "100mm"
"""A model's width without ``size``."""


@dataclass(frozen=True, eq=False)
class Model:
    """A closed triangle mesh, millimetres."""

    vertices: NDArray[np.float64]
    """``(V, 3)``."""
    triangles: NDArray[np.int64]
    """``(T, 3)`` vertex indices, counter-clockwise seen from outside."""

    @property
    def volume(self) -> float:
        """The enclosed volume (mm³)."""
        a, b, c = (self.vertices[self.triangles[:, i]] for i in range(3))
        return float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6)


def solid_model(
    maze: Maze,
    *,
    size: str | float = MODEL_SIZE,
    wall_height: float = 4.0,
    base: float = 2.0,
    line_width: float | None = None,
    margin: float = 1.0,
    solutions: Sequence[ArrayLike] | None = None,
) -> Model:
    """The maze as a printable model: walls on a plate, the solution grooved in its floor.

    Parameters
    ----------
    maze : Maze
        On any grid.
    size : str or float, default "100mm"
        The model's width, plate's rim included: ``"90mm"``, ``"9cm"``, ``"3.5in"``
        or a number of millimetres.
    wall_height : float, default 4
        How far the walls stand above the floor (mm).
    base : float, default 2
        The plate's thickness (mm).
    line_width : float, optional
        The walls' thickness as a share of a cell (default: the drawing's, at
        least :data:`mazeart.export.solid.MIN_WALL_MM`).
    margin : float, default 1
        The plate's rim around the maze (cells).
    solutions : sequence of array_like, optional
        A path to groove into the floor (the first), half the plate deep at most.

    Returns
    -------
    Model

    Examples
    --------
    >>> import mazeart
    >>> model = solid_model(mazeart.make("6x4", rng=1).maze, size="60mm")
    >>> float(round(model.vertices[:, 0].max() - model.vertices[:, 0].min(), 6))
    60.0
    """
    from manifold3d import Manifold

    width = length_mm(size, "size")
    check_number(wall_height, "wall_height", low=0, high=10_000, low_open=True)
    check_number(base, "base", low=0, high=10_000, low_open=True)
    mat = plan(maze, size=width, line_width=line_width, margin=margin, solutions=solutions,
               what="a printed maze")  # fmt: skip
    # the walls rise from inside the plate: no face of one lies on a face of the other
    walls = Manifold.extrude(mat.walls, base / 2 + wall_height).translate((0.0, 0.0, base / 2))
    solid = Manifold.extrude(mat.plate, base) + walls
    if not mat.path.is_empty():
        depth = min(base / 2, 1.0)
        groove = Manifold.extrude(mat.path, depth + 1.0).translate((0.0, 0.0, base - depth))
        solid = solid - groove
    mesh = solid.to_mesh()
    if solid.status().name != "NoError" or not len(mesh.tri_verts):
        raise MazeartError(f"the maze's model could not be built ({solid.status().name})")
    return Model(np.asarray(mesh.vert_properties[:, :3], np.float64),
                 np.asarray(mesh.tri_verts, np.int64))  # fmt: skip


def _model(maze: Maze, options: dict[str, Any]) -> tuple[Model, str]:
    title = plain(options.pop("title", "") or "")
    return solid_model(maze, **options), title


_STL = np.dtype([("normal", "<f4", 3), ("corners", "<f4", (3, 3)), ("attr", "<u2")])


def write_stl(maze: Maze, fh: BinaryIO, **options: Any) -> None:
    """Write :func:`solid_model` as a binary STL (millimetres)."""
    model, title = _model(maze, options)
    corners = model.vertices[model.triangles]
    normal = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    normal /= np.maximum(np.linalg.norm(normal, axis=1, keepdims=True), 1e-30)
    rows = np.zeros(len(corners), _STL)
    rows["normal"], rows["corners"] = normal, corners
    head = f"mazeart maze{': ' + title if title else ''}, millimetres".encode("ascii", "replace")
    fh.write(head[:80].ljust(80, b" "))
    fh.write(np.uint32(len(rows)).tobytes())
    fh.write(rows.tobytes())


_CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" '
    'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="model" '
    'ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/>'
    "</Types>"
)
_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Target="/3D/3dmodel.model" Id="rel0" '
    'Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/>'
    "</Relationships>"
)


def _rows(template: str, values: NDArray[Any]) -> bytes:
    """``template`` filled with each row of ``values``, one per line."""
    import io

    out = io.StringIO()
    np.savetxt(out, values, fmt=template)
    return out.getvalue().encode("ascii")


def write_3mf(maze: Maze, fh: BinaryIO, **options: Any) -> None:
    """Write :func:`solid_model` as a 3MF package (one object, millimetres)."""
    from html import escape

    model, title = _model(maze, options)
    head = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<model unit="millimeter" xml:lang="en-US" '
        'xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02">\n'
        '<metadata name="Application">mazeart</metadata>\n'
        + (f'<metadata name="Title">{escape(title)}</metadata>\n' if title else "")
        + '<resources>\n<object id="1" type="model" name="maze">\n<mesh>\n<vertices>\n'
    ).encode("utf-8")
    with zipfile.ZipFile(fh, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", _CONTENT_TYPES)
        z.writestr("_rels/.rels", _RELS)
        with z.open("3D/3dmodel.model", "w") as part:
            part.write(head)
            part.write(_rows('<vertex x="%.4f" y="%.4f" z="%.4f"/>', model.vertices))
            part.write(b"</vertices>\n<triangles>\n")
            part.write(_rows('<triangle v1="%d" v2="%d" v3="%d"/>', model.triangles))
            part.write(b"</triangles>\n</mesh>\n</object>\n</resources>\n"
                       b'<build>\n<item objectid="1"/>\n</build>\n</model>\n')  # fmt: skip


# ----------------------------------------------------------------------------- a look at it


def _raster_work(xy: Any, depth: Any, shade: Any, tris: Any, width: int, height: int) -> int:
    """What :func:`_raster` costs, in the kernels' units of work: the picture's pixels and
    those of each triangle's box (its arrays alone would not tell a large picture)."""
    span = np.ptp(np.asarray(xy)[np.asarray(tris)], axis=1) + 1.0  # (T, 2): each box
    return int(width * height + float(np.sum(span[:, 0] * span[:, 1])))


@njit(cache=True, work=_raster_work)
def _raster(xy, depth, shade, tris, width, height):
    """Flat-shaded triangles through a depth buffer: the nearest (largest depth) wins."""
    zbuf = np.full((height, width), -np.inf)
    image = np.zeros((height, width), np.float64)
    for t in range(tris.shape[0]):
        i, j, k = tris[t, 0], tris[t, 1], tris[t, 2]
        x0, y0, x1, y1, x2, y2 = xy[i, 0], xy[i, 1], xy[j, 0], xy[j, 1], xy[k, 0], xy[k, 1]
        area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)
        if area == 0:
            continue
        lo_x = max(int(np.floor(min(x0, x1, x2))), 0)
        hi_x = min(int(np.ceil(max(x0, x1, x2))), width - 1)
        lo_y = max(int(np.floor(min(y0, y1, y2))), 0)
        hi_y = min(int(np.ceil(max(y0, y1, y2))), height - 1)
        for py in range(lo_y, hi_y + 1):
            for px in range(lo_x, hi_x + 1):
                cx, cy = px + 0.5, py + 0.5
                w0 = ((x1 - cx) * (y2 - cy) - (x2 - cx) * (y1 - cy)) / area
                w1 = ((x2 - cx) * (y0 - cy) - (x0 - cx) * (y2 - cy)) / area
                w2 = 1.0 - w0 - w1
                if w0 < 0 or w1 < 0 or w2 < 0:
                    continue
                d = w0 * depth[i] + w1 * depth[j] + w2 * depth[k]
                if d > zbuf[py, px]:
                    zbuf[py, px] = d
                    image[py, px] = shade[t]
    return image, zbuf


def render_model(
    model: Model, *, width: int = 900, elevation: float = 50.0, azimuth: float = -30.0
) -> Any:
    """A picture of a model: flat-shaded, seen from above at ``elevation`` degrees,
    turned ``azimuth`` degrees (a look at what a printer will make).

    Parameters
    ----------
    model : Model
    width : int, default 900
        The picture's width in pixels.
    elevation, azimuth : float
        Where the eye is (degrees).

    Returns
    -------
    PIL.Image.Image
        RGB, the model in grey on white.
    """
    from PIL import Image

    check_number(width, "width", low=16, high=8000)
    az, el = np.radians(azimuth), np.radians(elevation)
    v = model.vertices - model.vertices.mean(axis=0)
    turn = np.array([[np.cos(az), -np.sin(az), 0], [np.sin(az), np.cos(az), 0], [0, 0, 1]])
    tilt = np.array([[1, 0, 0], [0, np.sin(el), np.cos(el)], [0, -np.cos(el), np.sin(el)]])
    eye = v @ turn.T @ tilt.T  # x across, y up the picture, z towards the eye
    lo, hi = eye[:, :2].min(axis=0), eye[:, :2].max(axis=0)
    scale = (width - 20) / max(float(hi[0] - lo[0]), 1e-9)
    height = int((hi[1] - lo[1]) * scale) + 20
    xy = np.stack([(eye[:, 0] - lo[0]) * scale + 10, (hi[1] - eye[:, 1]) * scale + 10], axis=1)
    a, b, c = (eye[model.triangles[:, i]] for i in range(3))
    normal = np.cross(b - a, c - a)
    normal /= np.maximum(np.linalg.norm(normal, axis=1, keepdims=True), 1e-30)
    light = np.array([-0.4, 0.5, 0.77])
    light /= np.linalg.norm(light)
    shade = 0.25 + 0.75 * np.clip(normal @ light, 0, 1)
    image, zbuf = _raster(xy, eye[:, 2].copy(), shade, model.triangles, width, height)
    grey = np.where(np.isfinite(zbuf), 40 + 200 * image, 255).astype(np.uint8)
    return Image.fromarray(grey).convert("RGB")
