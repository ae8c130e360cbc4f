"""Tiled maps: ``.tmj`` (Tiled's JSON map format) and ``.tmx`` (its XML format).

The map is orthogonal with one tile per position of the maze's block picture:
the ``(2H+1, 2W+1)`` raster of a ``cells`` maze (cells, the wall slots between
them and the corners) or the framed ``(H+2, W+2)`` blocks of a ``blocks``
maze. Two layers:

``maze`` (tile layer)
    gid 1 ``wall`` (property ``solid = true``), gid 2 ``floor``, gid 0 (empty)
    on the ground outside the figure.
``objects`` (object group)
    ``entrance`` and ``exit``, one ``room`` per room (a rectangle, or one
    rectangle per row of cells for other shapes, all with the room's ``name``
    and a ``room`` id property), one ``door`` per door (on the wall slot it
    opens, with ``room`` and ``side``), one object per tag with the tag kind as
    its type. Every object carries ``row`` and ``col`` of its maze cell.

A maze on the hex grid is a *hexagonal* map (``staggeraxis`` ``y``,
``staggerindex`` ``odd``: pointy-top hexagons, odd rows shifted right, as the
grid lays them), one tile per cell. The tile says which of the cell's six
sides are open: gid ``1 + bits`` with E=1, SE=2, SW=4, W=8, NW=16, NE=32 (each
tile also carries an ``open`` property, e.g. ``"E,SW"``), so a game reads the
passages from the tiles; the entrance's and exit's doors are open sides too.
gid 0 is the ground. The objects are the entrance, the exit, the tags, one
``room`` per room cell (with the room's ``name``, ``room`` id and ``kind``) and one
``door`` per door (on the room's cell, with ``side``, the side it opens through, and
``to``, the id of the cell it opens onto), each with the cell's ``row``, ``col`` and
``cell`` id. The other grids (triangles, rings,
octagons) have no Tiled map kind and are refused in one line.

Map properties record the algorithm, seed, geometry and cell counts. The
tileset is embedded in the map and points at an image written next to it
(``<name>.tiles.png``; wall and floor, or the 64 hexagons, ``tile_size``
pixels wide), so the map opens in Tiled as it is. Object types use the
``type`` field of Tiled 1.10+.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from mazeart._graph import SIDE_LETTER
from mazeart._io import atomic_write, check_writable, dump_json
from mazeart.errors import MazeartError, check_int
from mazeart.maze import STEP, Maze, check_maze

__all__ = ["HEX_SIDES", "tiled_map", "write_tiled"]

HEX_SIDES = ("E", "SE", "SW", "W", "NW", "NE")
"""The sides of a hex tile in the order of their bits (E=1 ... NE=32)."""

TILED_VERSION = "1.10"


def _prop(name: str, value: Any) -> dict[str, Any]:
    kind = (
        "bool"
        if isinstance(value, bool)
        else "int"
        if isinstance(value, int | np.integer)
        else "float"
        if isinstance(value, float)
        else "string"
    )
    cast = {"bool": bool, "int": int, "float": float, "string": str}[kind]
    return {"name": name, "type": kind, "value": cast(value)}


def _coord(v: float) -> int | float:
    v = float(v)
    return int(v) if v.is_integer() else v


def tiled_map(maze: Maze, *, tile_size: int = 16, tileset_image: str = "tiles.png") -> dict:
    """The maze as a Tiled JSON map (a dict ready for ``json.dump``).

    Parameters
    ----------
    maze : Maze
        A square maze, or a maze on the hex grid (a hexagonal map).
    tile_size : int, default 16
        Tile width and height in pixels (a hex tile's width; its height follows).
    tileset_image : str
        Path of the tileset image, relative to the map file.

    Returns
    -------
    dict
    """
    check_maze(maze)
    tile_size = check_int(tile_size, "tile size")
    if not maze.is_square:
        return _hex_map(maze, tile_size, tileset_image)
    gid = maze.picture().astype(np.int64)  # gid 0 ground, 1 wall, 2 floor
    scale = 2 if maze.geometry == "cells" else 1  # picture positions per cell step
    at = maze.picture_position
    rows, cols = gid.shape
    ts = tile_size
    objects: list[dict[str, Any]] = []

    def add(type_: str, name: str, r: float, c: float, h: float = 1, w: float = 1, **props):
        objects.append(
            {
                "id": len(objects) + 1,
                "name": name,
                "type": type_,
                "x": _coord(c * ts),
                "y": _coord(r * ts),
                "width": _coord(w * ts),
                "height": _coord(h * ts),
                "rotation": 0,
                "visible": True,
                "properties": [_prop(k, v) for k, v in props.items()],
            }
        )

    for cell, kind in ((maze.entrance, "entrance"), (maze.exit, "exit")):
        if cell is not None:
            add(kind, kind, *at(cell), row=cell[0], col=cell[1])
    for i, room in enumerate(maze.rooms, start=1):
        cells = np.array(room.cells)
        r0, c0 = cells.min(axis=0)
        r1, c1 = cells.max(axis=0)
        rect = len(cells) == (r1 - r0 + 1) * (c1 - c0 + 1)
        spans = (
            [(r0, c0, r1, c1)]
            if rect
            else [(r, c, r, c) for r, c in room.cells]  # merged per row below
        )
        if not rect:
            merged: list[tuple[int, int, int, int]] = []
            for r, c, _, _ in spans:
                if merged and merged[-1][0] == r and merged[-1][3] == c - 1:
                    merged[-1] = (r, merged[-1][1], r, c)
                else:
                    merged.append((r, c, r, c))
            spans = merged
        for ra, ca, rb, cb in spans:
            y, x = at((int(ra), int(ca)))
            y1, x1 = at((int(rb), int(cb)))
            add("room", room.name, y, x, y1 - y + 1, x1 - x + 1, room=i, kind=room.kind,
                row=int(ra), col=int(ca))  # fmt: skip
        for d in room.doors:
            dr, dc = STEP[d.side]
            y, x = at((d.row, d.col))
            add("door", f"{room.name} door", y + dr * (scale - 1), x + dc * (scale - 1),
                room=i, side=SIDE_LETTER[d.side], row=d.row, col=d.col)  # fmt: skip
    for (r, c), kind in sorted(maze.tags.items()):
        add(kind, kind, *at((r, c)), row=r, col=c)
    meta = {
        "algorithm": str(maze.meta.get("algorithm", "")),
        "geometry": maze.geometry,
        "maze_rows": maze.height,
        "maze_cols": maze.width,
        "cells": maze.n_cells,
    }
    if maze.meta.get("seed") is not None:
        meta["seed"] = int(maze.meta["seed"])
    return {
        "type": "map",
        "version": TILED_VERSION,
        "tiledversion": "1.10.2",
        "orientation": "orthogonal",
        "renderorder": "right-down",
        "infinite": False,
        "compressionlevel": -1,
        "width": cols,
        "height": rows,
        "tilewidth": ts,
        "tileheight": ts,
        "nextlayerid": 3,
        "nextobjectid": len(objects) + 1,
        "properties": [_prop(k, v) for k, v in meta.items()],
        "tilesets": [
            {
                "firstgid": 1,
                "name": "mazeart",
                "tilewidth": ts,
                "tileheight": ts,
                "tilecount": 2,
                "columns": 2,
                "margin": 0,
                "spacing": 0,
                "image": tileset_image,
                "imagewidth": 2 * ts,
                "imageheight": ts,
                "tiles": [
                    {"id": 0, "type": "wall", "properties": [_prop("solid", True)]},
                    {"id": 1, "type": "floor", "properties": [_prop("solid", False)]},
                ],
            }
        ],
        "layers": [
            {
                "id": 1,
                "name": "maze",
                "type": "tilelayer",
                "x": 0,
                "y": 0,
                "width": cols,
                "height": rows,
                "opacity": 1,
                "visible": True,
                "data": gid.reshape(-1).tolist(),
            },
            {
                "id": 2,
                "name": "objects",
                "type": "objectgroup",
                "draworder": "topdown",
                "x": 0,
                "y": 0,
                "opacity": 1,
                "visible": True,
                "objects": objects,
            },
        ],
    }


def _hex_sides(maze: Maze) -> NDArray[np.int64]:
    """Each cell's open sides as bits (:data:`HEX_SIDES`), doors of the two ends included."""
    g = maze.grid
    n = g.n_cells
    src = np.repeat(np.arange(n), np.diff(g.indptr))
    d = g.centres[g.indices] - g.centres[src]
    bits = np.zeros(n, np.int64)
    side = _hex_side(d[:, 0], d[:, 1])
    np.bitwise_or.at(bits, src, np.where(maze.passages[g.wall_of], 1 << side, 0))
    for end in (maze.entrance, maze.exit):
        wall = maze.door_wall(end)
        if end is None or wall < 0:
            continue
        mid = g.wall_points[g.wall_ptr[wall] : g.wall_ptr[wall + 1]].mean(axis=0)
        out = mid - g.centres[end]
        bits[end] |= 1 << int(_hex_side(np.array([out[0]]), np.array([out[1]]))[0])
    return bits


def _hex_side(dx: NDArray[np.float64], dy: NDArray[np.float64]) -> NDArray[np.int64]:
    """The side (index of :data:`HEX_SIDES`) a step ``(dx, dy)`` leaves by (y down)."""
    angle = np.degrees(np.arctan2(dy, dx))  # clockwise from east on the page
    return np.rint(angle / 60).astype(np.int64) % 6


def _hex_map(maze: Maze, tile_size: int, tileset_image: str) -> dict:
    g = maze.grid
    if g.kind != "hex":
        raise MazeartError(
            f"Tiled maps are square or hexagonal; the {g.kind} grid has no Tiled map kind"
        )
    rows, cols = int(g.params["rows"]), int(g.params["cols"])
    w = tile_size + tile_size % 2  # even, so odd rows shift by whole pixels
    side = max(2, 2 * round(w / (2 * np.sqrt(3.0))))  # even, so rows step by whole pixels
    h = 2 * side
    gid = np.where(maze.mask, 1 + _hex_sides(maze), 0)
    objects: list[dict[str, Any]] = []

    def add(type_: str, cell: int, name: str | None = None, **props: Any) -> None:
        r, c = divmod(cell, cols)
        objects.append(
            {
                "id": len(objects) + 1, "name": name or type_, "type": type_,
                "x": c * w + (w // 2 if r % 2 else 0), "y": r * (h + side) // 2,
                "width": w, "height": h, "rotation": 0, "visible": True,
                "properties": [_prop(k, v) for k, v in
                               {"row": r, "col": c, "cell": cell, **props}.items()],
            }
        )  # fmt: skip

    for cell, kind in ((maze.entrance, "entrance"), (maze.exit, "exit")):
        if cell is not None:
            add(kind, cell)
    for i, room in enumerate(maze.rooms, start=1):  # a room: one object a cell (a hexagon)
        for cell in room.cells:
            add("room", cell, room.name, room=i, kind=room.kind)
        for d in room.doors:
            step = g.centres[d.outside] - g.centres[d.cell]
            facing = HEX_SIDES[int(_hex_side(step[:1], step[1:])[0])]
            add("door", d.cell, f"{room.name} door", room=i, side=facing, to=d.outside)
    for cell, kind in sorted(maze.tags.items()):
        add(kind, cell)
    meta = {
        "algorithm": str(maze.meta.get("algorithm", "")),
        "grid": "hex",
        "maze_rows": rows,
        "maze_cols": cols,
        "cells": int(maze.mask.sum()),
        "sides": ",".join(HEX_SIDES),
    }
    if maze.meta.get("seed") is not None:
        meta["seed"] = int(maze.meta["seed"])
    tiles = [
        {"id": bits, "type": "cell",
         "properties": [_prop("open", ",".join(s for k, s in enumerate(HEX_SIDES)
                                               if bits >> k & 1))]}
        for bits in range(64)
    ]  # fmt: skip
    return {
        "type": "map", "version": TILED_VERSION, "tiledversion": "1.10.2",
        "orientation": "hexagonal", "renderorder": "right-down", "infinite": False,
        "compressionlevel": -1, "width": cols, "height": rows, "tilewidth": w,
        "tileheight": h, "hexsidelength": side, "staggeraxis": "y", "staggerindex": "odd",
        "nextlayerid": 3, "nextobjectid": len(objects) + 1,
        "properties": [_prop(k, v) for k, v in meta.items()],
        "tilesets": [
            {"firstgid": 1, "name": "mazeart-hex", "tilewidth": w, "tileheight": h,
             "tilecount": 64, "columns": 8, "margin": 0, "spacing": 0,
             "image": tileset_image, "imagewidth": 8 * w, "imageheight": 8 * h, "tiles": tiles}
        ],
        "layers": [
            {"id": 1, "name": "maze", "type": "tilelayer", "x": 0, "y": 0, "width": cols,
             "height": rows, "opacity": 1, "visible": True, "data": gid.tolist()},
            {"id": 2, "name": "objects", "type": "objectgroup", "draworder": "topdown",
             "x": 0, "y": 0, "opacity": 1, "visible": True, "objects": objects},
        ],
    }  # fmt: skip


def _hex_tileset_png(w: int, h: int, side: int) -> bytes:
    """The 64 hexagons, floor with a wall on every closed side, 8 to a row (gid - 1 = bits)."""
    import io

    from PIL import Image, ImageDraw, PngImagePlugin

    img = Image.new("RGBA", (8 * w, 8 * h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    top = (h - side) / 2  # the slanted sides' height
    # inside the tile's pixels: a closed side is drawn by both cells it parts, side by side
    x1, y1, mid = w - 1, h - 1, (w - 1) / 2
    corners = [(x1, top), (x1, y1 - top), (mid, y1), (0, y1 - top), (0, top), (mid, 0)]
    # side k runs between corners k and k + 1: E, SE, SW, W, NW, NE
    width = max(1, round(w / 8))
    for bits in range(64):
        ox, oy = (bits % 8) * w, (bits // 8) * h
        pts = [(ox + x, oy + y) for x, y in corners]
        draw.polygon(pts, fill=(255, 255, 255, 255))
        for k in range(6):
            if not bits >> k & 1:
                a, b = pts[k], pts[(k + 1) % 6]
                draw.line([a, b], fill=(40, 40, 48, 255), width=width)
    info = PngImagePlugin.PngInfo()
    info.add_text(_TILESET_MARK, "hexagons by open sides")
    buf = io.BytesIO()
    img.save(buf, format="PNG", pnginfo=info)
    return buf.getvalue()


def _tmx(doc: dict) -> bytes:
    """The same map in TMX (XML), tile data as CSV."""

    def props(parent: ET.Element, items: list[dict]) -> None:
        if not items:
            return
        el = ET.SubElement(parent, "properties")
        for p in items:
            value = p["value"]
            text = ("true" if value else "false") if p["type"] == "bool" else str(value)
            attrs = {"name": p["name"], "value": text}
            if p["type"] != "string":
                attrs["type"] = p["type"]
            ET.SubElement(el, "property", attrs)

    keys: tuple[str, ...] = (
        "version", "tiledversion", "orientation", "renderorder", "width", "height",
        "tilewidth", "tileheight", "infinite", "nextlayerid", "nextobjectid",
    )  # fmt: skip
    if doc["orientation"] == "hexagonal":
        keys = (*keys, "hexsidelength", "staggeraxis", "staggerindex")
    root = ET.Element("map", {k: str(int(doc[k]) if k == "infinite" else doc[k]) for k in keys})
    props(root, doc["properties"])
    ts = doc["tilesets"][0]
    tset = ET.SubElement(
        root,
        "tileset",
        {k: str(ts[k]) for k in ("firstgid", "name", "tilewidth", "tileheight", "tilecount",
                                 "columns")},
    )  # fmt: skip
    ET.SubElement(
        tset,
        "image",
        {"source": ts["image"], "width": str(ts["imagewidth"]), "height": str(ts["imageheight"])},
    )
    for tile in ts["tiles"]:
        el = ET.SubElement(tset, "tile", {"id": str(tile["id"]), "type": tile["type"]})
        props(el, tile["properties"])
    tiles, objs = doc["layers"]
    layer = ET.SubElement(
        root,
        "layer",
        {"id": "1", "name": tiles["name"], "width": str(tiles["width"]),
         "height": str(tiles["height"])},
    )  # fmt: skip
    data = ET.SubElement(layer, "data", {"encoding": "csv"})
    w = tiles["width"]
    flat = tiles["data"]
    data.text = "\n" + ",\n".join(
        ",".join(map(str, flat[i : i + w])) for i in range(0, len(flat), w)
    ) + "\n"  # fmt: skip
    group = ET.SubElement(root, "objectgroup", {"id": "2", "name": objs["name"]})
    for o in objs["objects"]:
        el = ET.SubElement(
            group,
            "object",
            {k: str(o[k]) for k in ("id", "name", "type", "x", "y", "width", "height")},
        )
        props(el, o["properties"])
    ET.indent(root, space=" ")
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="utf-8")


def _tileset_png(tile_size: int) -> bytes:
    import io

    from PIL import Image, PngImagePlugin

    img = Image.new("RGB", (2 * tile_size, tile_size), (255, 255, 255))
    img.paste((40, 40, 48), (0, 0, tile_size, tile_size))
    info = PngImagePlugin.PngInfo()
    info.add_text(_TILESET_MARK, "wall, floor")
    buf = io.BytesIO()
    img.save(buf, format="PNG", pnginfo=info)
    return buf.getvalue()


_TILESET_MARK = "mazeart-tileset"


def tileset_path(path: str | os.PathLike[str]) -> Path:
    """Where a map at ``path`` keeps its tileset image: ``NAME.tiles.png`` beside it."""
    p = Path(path)
    return p.with_name(f"{p.stem}.tiles.png")


def check_tileset(map_path: str | os.PathLike[str]) -> Path:
    """Where the tileset of a map at ``map_path`` goes, if mazeart may write it there.

    A file at that name that mazeart did not write is the user's: it is refused,
    never replaced.
    """
    path = check_writable(tileset_path(map_path))
    if not path.exists():
        return path
    import warnings

    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as img:
                ours = img.format == "PNG" and _TILESET_MARK in img.info
    except Exception:  # not a picture at all: certainly not ours
        ours = False
    if not ours:
        raise MazeartError(
            f"cannot write the map's tileset {path}: a file of that name exists that "
            "mazeart did not write (move it, or name the map differently)"
        )
    return path


def write_tiled(maze: Maze, fh: Any, *, path: str | os.PathLike[str], **options: Any) -> None:
    """Exporter entry: write a ``.tmj`` or ``.tmx`` map to ``fh`` and its tileset beside ``path``.

    Only ``tile_size`` (default 16) applies; drawing options are ignored.
    """
    p = Path(path)
    tile_size = options.get("tile_size", 16)
    tiles = check_tileset(p)
    doc = tiled_map(maze, tile_size=tile_size, tileset_image=tiles.name)
    with atomic_write(tiles) as img:
        if doc["orientation"] == "hexagonal":
            img.write(_hex_tileset_png(doc["tilewidth"], doc["tileheight"], doc["hexsidelength"]))
        else:
            img.write(_tileset_png(tile_size))
    if p.suffix.lower() == ".tmx":
        fh.write(_tmx(doc))
    else:
        # Indented for people, but the tile data one row per line as Tiled writes it.
        data = doc["layers"][0]["data"]
        doc["layers"][0]["data"] = "@DATA@"
        text = dump_json(doc, indent=1)
        w = doc["width"]
        rows = ",\n  ".join(",".join(map(str, data[i : i + w])) for i in range(0, len(data), w))
        fh.write(text.replace('"@DATA@"', f"[\n  {rows}\n ]").encode("utf-8"))
