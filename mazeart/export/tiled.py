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

Map properties record the algorithm, seed, geometry and cell counts. The
tileset is embedded in the map and points at a two-tile image written next to
it (``<name>.tiles.png``; wall and floor, ``tile_size`` pixels each), so the map
opens in Tiled as it is. Object types use the ``type`` field of Tiled 1.10+.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import numpy as np

from mazeart._graph import SIDE_LETTER
from mazeart._io import atomic_write, check_writable, dump_json
from mazeart.errors import MazeartError, check_int
from mazeart.maze import STEP, Maze

__all__ = ["tiled_map", "write_tiled"]

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
    tile_size : int, default 16
        Tile width and height in pixels.
    tileset_image : str
        Path of the tileset image, relative to the map file.

    Returns
    -------
    dict
    """
    tile_size = check_int(tile_size, "tile size")
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

    keys = ("version", "tiledversion", "orientation", "renderorder", "width", "height",
            "tilewidth", "tileheight", "infinite", "nextlayerid", "nextobjectid")  # fmt: skip
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
