"""A browser game in one self-contained HTML file.

The page embeds the mazes as data (one level per maze) and draws them on a
canvas. Arrow keys or WASD move, and so do the on-screen arrows (held down,
they repeat) and swipes on the maze: a finger dragged across the maze moves
the player a cell for every cell it travels. The timer starts at the first
move; the exit is the green square. Reaching it shows the time and the maze's
table of its five best times, kept in the browser's ``localStorage`` per maze
(under the maze's fingerprint, :func:`mazeart.play.game.maze_key`), so levels
of one size do not share a table. "Show solution" draws the path; a run during
which it was switched on is timed but not recorded, and the page says so.
With several levels the next one starts after a win.

A maze on another grid (a maze on another grid: hexagons,
triangles, polar rings, octagons and squares, weave) is played the same way,
on the walls of the shared drawing (:func:`mazeart.export.scene.build_scene`,
so it looks like the SVG), the player at the centre of a cell. A click or a
tap on a neighbouring cell moves there if a passage joins them; a key moves to
the open neighbour whose direction from the player's cell is nearest the key's
(within :data:`mazeart.play.game.REACH` degrees, embedded in the page; the
first in the grid's order of two as near), as in the terminal game: the arrows
and WASD, and Q, E, Z, C (or 7, 9, 1, 3, or Home, PgUp, End, PgDn) for the
slants, so that every neighbour of a hexagon is a key away; the on-screen
arrows gain the slants, and a swipe steps the way the finger travels. In a
weave maze a tunnel (an under node) is a cell of its own, beneath the crossing
it passes under: the player there is drawn faint, under the crossing
corridor's walls. Levels may mix grids.

The size field makes a new maze without reloading the page: a perfect maze of
that many cells across (``20``) or across and down (``30x20``), up to 200 a
side, generated in the page by the recursive backtracker from a random seed,
entered at the top-left corner's top and left at the bottom-right corner's
bottom (a square maze, whatever the grid of the page's levels). Its best times
are kept under its size and seed.

Tags are drawn in the colours every export uses
(:func:`mazeart.export._style.tag_colours`, embedded in the page), with a
legend of the kinds the maze holds. Nothing is loaded from the network. Text
the user gave (the title) is HTML-escaped, and the embedded JSON cannot close
its ``<script>`` element.

The page's state is visible for tests and tools: ``#game`` carries
``data-grid`` (the grid's kind, ``square`` for the square game), ``data-cell``
(the player's cell id: ``row * cols + col`` on the square grid), ``data-row``
and ``data-col`` (the square game only), ``data-under`` (other grids: the
player is in a weave maze's tunnel), ``data-level`` (``random`` for a
generated maze), ``data-won``, ``data-recorded`` (after a win: whether the
time was entered), ``data-peeked`` (the solution was shown in this run),
``data-rows``, ``data-cols``, ``data-key`` (the best-times key), ``data-seed``,
``data-scale`` (canvas pixels per cell, a unit of the drawing) and
``data-swipe`` (CSS pixels of finger travel per step); ``window.mazeart.state()``
returns the maze being played, the position and the best times: for the square
game its passages as one number per cell (bits N=1, E=2, S=4, W=8, -1 outside
the maze) and the position as ``[row, col]``; for another grid (``kind``) its
cells' centres, every cell's neighbours and open neighbours (``neighbours``,
``open``), the ends, the solution and the position as cell ids.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from mazeart._io import dump_json, plain
from mazeart.errors import MazeartError
from mazeart.export._style import GAME_COLOURS, TAG_FALLBACK, Style, tag_colours
from mazeart.maze import Maze

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["level_data", "to_html", "write_html"]

_PLACES = 4
"""Decimals kept of the coordinates a page embeds (a ten-thousandth of a cell)."""


def level_data(maze: Maze) -> dict[str, Any]:
    """What the page needs of one maze: passages, walls, ends, solution, tags, key.

    Parameters
    ----------
    maze : Maze
        A square maze, or a maze on any grid (:mod:`mazeart.grids`).

    Returns
    -------
    dict
        JSON-ready; ``kind`` is the grid's kind, ``key`` the maze's best-times
        key (:func:`mazeart.play.game.maze_key`). A square :class:`Maze` gives
        its passages as one hex digit per cell (``grid``); a :class:`Maze`
        its cells' centres and outlines, every cell's neighbours and open
        neighbours, and the walls to draw as polylines (``strokes``, the
        shared drawing's: :func:`mazeart.export.scene.build_scene`).

    Raises
    ------
    MazeartError
        If the maze has no entrance or exit, or they are not joined.
    """
    if not maze.is_square:
        return _grid_level(maze)
    from mazeart.mazefile import _grid_rows
    from mazeart.play.game import maze_key
    from mazeart.solvers import solve

    if maze.entrance is None or maze.exit is None:
        raise MazeartError("a game needs a maze with an entrance and an exit")
    path = solve(maze)
    data: dict[str, Any] = {
        "kind": "square",
        "rows": maze.height,
        "cols": maze.width,
        "geometry": maze.geometry,
        "grid": _grid_rows(maze),
        "entrance": list(maze.entrance),
        "exit": list(maze.exit),
        "entranceSide": maze.entrance_side,
        "exitSide": maze.exit_side,
        "solution": path.tolist(),
        "seed": maze.meta.get("seed"),
        "algorithm": maze.meta.get("algorithm"),
        "tags": [[r, c, k] for (r, c), k in sorted(maze.tags.items())],
        "rooms": [[list(cell) for cell in room.cells] for room in maze.rooms],
        "key": maze_key(maze),
    }
    if maze.geometry == "blocks":
        data["blocks"] = ["".join(map(str, row)) for row in maze.blocks(doors=True).tolist()]
    return data


def _flat(points: ArrayLike) -> list[float]:
    """Points ``(k, 2)`` as one flat list ``x0, y0, x1, y1, ...``, rounded."""
    return cast("list[float]", np.round(np.asarray(points, np.float64), _PLACES).ravel().tolist())


def _ragged_lists(indptr: Any, values: Any) -> list[list[Any]]:
    """A CSR table (or ragged rows) as one list per row."""
    flat = np.asarray(values).tolist()
    ptr = np.asarray(indptr).tolist()
    return [flat[a:b] for a, b in itertools.pairwise(ptr)]


GRID_GAME_CELLS = 200_000
"""The most cells of a game on a grid other than the square one: every cell's outline and
neighbours are in the page (a hexagonal game of 200,000 cells is written in about 0.6 GB, and
no browser moves through more with ease)."""


def _grid_level(maze: Maze) -> dict[str, Any]:
    """:func:`level_data` of a maze on any grid (a weave maze's tunnels are its under nodes:
    cells whose centre and outline are those of the cell they pass under)."""
    from mazeart.export.scene import build_scene
    from mazeart.play.game import maze_key
    from mazeart.solvers import solve

    if maze.entrance is None or maze.exit is None:
        raise MazeartError("a game needs a maze with an entrance and an exit")
    if maze.grid.n_cells > GRID_GAME_CELLS:  # each cell's outline and neighbours travel
        raise MazeartError(
            f"a game on the {maze.kind} grid holds at most {GRID_GAME_CELLS:,} cells, this "
            f"maze {maze.grid.n_cells:,} (draw it as SVG, PNG or PDF)"
        )
    g = maze.grid
    path = solve(maze)
    # the walls the SVG draws (a weave maze: its inset corridors and outer wall), the solution
    # through the cells' centres and out through the doors, the tags' dots; no legend (margin 0)
    style = Style(wall=GAME_COLOURS["wall"], margin=0.0, solution=True, tags=True)
    scene = build_scene(maze, style, solutions=[path], ordered=False, chained=True)
    strokes = [
        {"width": stroke.width, "cap": stroke.cap, "lines": [_flat(line) for line in stroke.lines]}
        for name in ("walls", "outline")
        if (layer := scene.layer(name)) is not None
        for stroke in layer.strokes
    ]
    solution = scene.layer("solution")
    line = _flat(next(iter(solution.strokes[0].lines))) if solution and solution.strokes else []
    tags = scene.layer("tags")  # its dots are the tags', in order
    radii = [0.28] * len(maze.tags) if tags is None else [d.radius for d in tags.dots]
    a, b = g.wall_cells[:, 0], g.wall_cells[:, 1]
    inner = (b >= 0) & maze.mask[a] & maze.mask[np.maximum(b, 0)]
    spans = np.hypot(*(g.centres[a[inner]] - g.centres[b[inner]]).T)
    spans = spans[spans > 1e-9]
    ends = [_end_fill(maze, cell) for cell in (maze.entrance, maze.exit)]
    rings = _ragged_lists(2 * g.cell_ptr, _flat(g.cell_points))  # those of maze cells are sent
    params = dict(g.params)
    rows, cols = params.get("rows", maze.height), params.get("cols", maze.width)
    data: dict[str, Any] = {
        "kind": g.kind,
        "params": params,
        "rows": int(rows),
        "cols": int(cols),
        "width": float(g.size[0]),
        "height": float(g.size[1]),
        "geometry": "cells",
        "cells": g.n_cells,
        "mask": "".join("1" if m else "0" for m in maze.mask.tolist()),
        "centres": _flat(g.centres),
        "polygons": [ring if m else [] for ring, m in zip(rings, maze.mask.tolist(), strict=True)],
        "neighbours": _ragged_lists(g.indptr, g.indices),
        "open": _ragged_lists(*maze.open_table),
        "strokes": strokes,
        "entrance": int(maze.entrance),
        "exit": int(maze.exit),
        "endFills": ends,
        "solution": np.asarray(path).tolist(),
        "solutionLine": line,
        "step": round(float(np.median(spans)) if spans.size else 1.0, _PLACES),
        "seed": maze.meta.get("seed"),
        "algorithm": maze.meta.get("algorithm"),
        "tags": [
            [cell, kind, round(r, _PLACES)]
            for (cell, kind), r in zip(maze.tags.items(), radii, strict=True)
        ],
        "rooms": [list(room.cells) for room in maze.rooms],
        "key": maze_key(maze),
    }
    if g.kind == "weave":  # cells from here on are tunnels, under the cell of the same centre
        data["under"] = int(g.params["rows"]) * int(g.params["cols"])
    return data


def _end_fill(maze: Maze, cell: int) -> list[list[float]]:
    """The rings to fill at an end: its cell's outline; on the weave grid, what of the inset
    drawing's floor is in the cell (its box and its door)."""
    g = maze.grid
    if g.kind != "weave":
        return [_flat(g.polygon(cell))]
    from mazeart.grids.weave import weave_boxes

    (x0, y0), (x1, y1) = g.polygon(cell).min(axis=0), g.polygon(cell).max(axis=0)
    boxes = weave_boxes(maze)
    eps = 1e-9
    mine = boxes[(boxes[:, 0] >= x0 - eps) & (boxes[:, 1] >= y0 - eps)
                 & (boxes[:, 2] <= x1 + eps) & (boxes[:, 3] <= y1 + eps)]  # fmt: skip
    return [_flat([[a, b], [c, b], [c, d], [a, d]]) for a, b, c, d in mine.tolist()]


def to_html(mazes: Maze | Sequence[Maze], *, title: str = "mazeart") -> str:
    """The game page for one maze or several levels.

    Parameters
    ----------
    mazes : Maze, Maze, or a sequence of them
        Played in turn; levels may mix grids.
    title : str, default 'mazeart'
        Page title and heading (escaped).

    Returns
    -------
    str
    """
    levels = [mazes] if isinstance(mazes, Maze) else list(mazes)
    if not levels:
        raise MazeartError("a game needs at least one maze")
    from mazeart.play.game import KEEP, REACH

    data = {
        "title": title,
        "levels": [level_data(m) for m in levels],
        "tagColours": tag_colours(),
        "tagFallback": TAG_FALLBACK,
        "colours": GAME_COLOURS,
        "keep": KEEP,
        "reach": REACH,
    }
    payload = dump_json(data, separators=(",", ":"))
    # No "</script>" (or "<!--") can appear inside the script element.
    payload = payload.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    fill = {"%TITLE%": escape(plain(title)), "%DATA%": payload}
    return re.sub("%TITLE%|%DATA%", lambda m: fill[m.group(0)], _PAGE)


def write_html(maze: Maze, fh: Any, **options: Any) -> None:
    """Exporter entry: write the one-maze game page (``title`` applies; drawing options do not)."""
    levels = options.get("levels") or [maze]
    fh.write(to_html(levels, title=options.get("title") or "mazeart").encode("utf-8"))


_PAGE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%TITLE%</title>
<style>
  body { font: 15px/1.4 system-ui, sans-serif; margin: 0; background: #f6f4ef; color: #222;
         display: flex; flex-direction: column; align-items: center; }
  h1 { font-size: 20px; margin: 12px 8px 2px; text-align: center; }
  #bar { display: flex; flex-wrap: wrap; justify-content: center; gap: 6px 16px;
         align-items: center; margin: 6px 8px; }
  #timer { font-variant-numeric: tabular-nums; min-width: 5em; text-align: right; }
  #message { min-height: 1.5em; font-weight: 600; color: #1a7f37; margin: 0 8px 6px;
             text-align: center; }
  #message.note { color: #8a4b00; }
  #main { display: flex; flex-wrap: wrap; justify-content: center; align-items: flex-start;
          gap: 14px; padding: 0 8px; }
  canvas { background: #fff; box-shadow: 0 1px 4px rgba(0,0,0,.2); touch-action: none;
           max-width: calc(100vw - 250px); max-height: calc(100vh - 150px); }
  canvas:focus { outline: none; }
  #side { display: flex; flex-direction: column; align-items: center; gap: 12px; width: 210px; }
  #pad { display: grid; grid-template-columns: repeat(3, 52px); grid-template-rows: repeat(3, 52px);
         gap: 4px; touch-action: manipulation; user-select: none; -webkit-user-select: none; }
  #pad button { font-size: 22px; padding: 0; border: 1px solid #bbb; border-radius: 10px;
                background: #fff; color: #333; touch-action: manipulation; }
  #pad button:active { background: #dde6f5; }
  #pad [data-dir="up"] { grid-area: 1 / 2; } #pad [data-dir="left"] { grid-area: 2 / 1; }
  #pad [data-dir="right"] { grid-area: 2 / 3; } #pad [data-dir="down"] { grid-area: 3 / 2; }
  #pad [data-dir="upleft"] { grid-area: 1 / 1; } #pad [data-dir="upright"] { grid-area: 1 / 3; }
  #pad [data-dir="downleft"] { grid-area: 3 / 1; } #pad [data-dir="downright"] { grid-area: 3 / 3; }
  #scores { border-collapse: collapse; font-variant-numeric: tabular-nums; min-width: 11em; }
  #scores caption { font-weight: 600; padding-bottom: 4px; }
  #scores td { padding: 1px 8px; border-top: 1px solid #ddd; }
  #scores td:first-child { text-align: right; color: #666; }
  #scores td:last-child { text-align: right; }
  #scores tr.this td { font-weight: 700; background: #e3f3e6; }
  #legend { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap;
            justify-content: center; gap: 4px 12px; font-size: 14px; }
  #legend li { display: flex; align-items: center; gap: 5px; }
  .swatch { display: inline-block; width: 12px; height: 12px; border-radius: 50%; }
  .square { border-radius: 2px; }
  #new { display: flex; gap: 6px; align-items: center; margin: 12px 8px 2px; }
  #size { width: 6.5em; font: inherit; padding: 3px 6px; }
  button { font: inherit; padding: 3px 10px; }
  .help { color: #666; font-size: 13px; margin: 4px 8px 12px; text-align: center; }
  [hidden] { display: none !important; }
  @media (max-width: 720px) {
    canvas { max-width: 96vw; max-height: calc(100vh - 300px); }
    #side { width: auto; flex-direction: row; flex-wrap: wrap; justify-content: center;
            align-items: flex-start; }
    #pad { grid-template-columns: repeat(3, 58px); grid-template-rows: repeat(3, 50px); }
  }
</style>
</head>
<body>
<h1>%TITLE%</h1>
<div id="bar">
  <span id="level"></span>
  <span id="timer">0.0 s</span>
  <span id="best"></span>
  <button id="toggle" type="button">Show solution</button>
  <button id="next" type="button" hidden>Next maze</button>
</div>
<div id="message" role="status"></div>
<div id="main">
  <canvas id="game" width="10" height="10" tabindex="0" aria-label="the maze"></canvas>
  <div id="side">
    <div id="pad" role="group" aria-label="move">
      <button type="button" data-dir="up" aria-label="up">&#9650;</button>
      <button type="button" data-dir="left" aria-label="left">&#9664;</button>
      <button type="button" data-dir="right" aria-label="right">&#9654;</button>
      <button type="button" data-dir="down" aria-label="down">&#9660;</button>
      <button type="button" data-dir="upleft" aria-label="up and left" hidden>&#9700;</button>
      <button type="button" data-dir="upright" aria-label="up and right" hidden>&#9701;</button>
      <button type="button" data-dir="downleft" aria-label="down and left" hidden>&#9699;</button>
      <button type="button" data-dir="downright" aria-label="down and right" hidden>&#9698;</button>
    </div>
    <table id="scores" hidden><caption>Best times, this maze</caption><tbody></tbody></table>
    <ul id="legend" aria-label="legend"></ul>
  </div>
</div>
<form id="new" autocomplete="off">
  <label for="size">Size</label>
  <input id="size" name="size" type="text" spellcheck="false" placeholder="30x20"
         title="cells across, or across x down (2 to 200)">
  <button type="submit">New maze</button>
</form>
<div class="help" id="help">Arrow keys, W A S D, the arrows or a swipe on the maze move.
Reach the green square.</div>
<script id="mazeart-data" type="application/json">%DATA%</script>
<script>
"use strict";
(function () {
  const DATA = JSON.parse(document.getElementById("mazeart-data").textContent);
  const COLOURS = DATA.colours, KEEP = DATA.keep, MAX_SIDE = 200;
  const $ = (id) => document.getElementById(id);
  const canvas = $("game");
  const ctx = canvas.getContext("2d");
  const board = document.createElement("canvas");  // the maze without the player
  const STEPS = { up: [1, -1, 0], right: [2, 0, 1], down: [4, 1, 0], left: [8, 0, -1] };
  const KEYS = {
    ArrowUp: "up", ArrowRight: "right", ArrowDown: "down", ArrowLeft: "left",
    w: "up", d: "right", s: "down", a: "left", W: "up", D: "right", S: "down", A: "left",
  };
  // other grids: any direction (degrees, clockwise from the right: y runs down), the slants too
  const ANGLES = { right: 0, downright: 45, down: 90, downleft: 135, left: 180,
    upleft: -135, up: -90, upright: -45 };
  const GRID_KEYS = {
    q: "upleft", e: "upright", z: "downleft", c: "downright",
    Q: "upleft", E: "upright", Z: "downleft", C: "downright",
    7: "upleft", 9: "upright", 1: "downleft", 3: "downright", 8: "up", 2: "down", 4: "left",
    6: "right", Home: "upleft", PageUp: "upright", End: "downleft", PageDown: "downright",
  };
  const REACH = DATA.reach;  // degrees a step may lie off a key's way (the terminal game's)
  const SQUARE_HELP = $("help").textContent;
  const GRID_HELP = "Click or tap a neighbouring cell, or use the arrow keys, W A S D and, "
    + "for the slants, Q E Z C (or 7 9 1 3), the arrows or a swipe on the maze. "
    + "Reach the green cell.";
  let level = 0, random = null, maze, bits, pos, started = null, finished = null, tick = null;
  let showSolution = false, peeked = false, touch = null, held = null;
  let onGrid = false;  // the maze is on another grid than the square game's (pos: a cell id)

  // ------------------------------------------------------------------ mazes
  function cellBits(grid) {
    return grid.map((row) => Array.from(row, (ch) => {
      const v = parseInt(ch, 16);
      return Number.isNaN(v) ? -1 : v;  // -1: not a maze cell
    }));
  }
  function prng(seed) {  // mulberry32: the same seed, the same maze
    let a = seed >>> 0;
    return function () {
      a = (a + 0x6D2B79F5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  function solve(b, from, to) {  // breadth-first search through the passages
    const rows = b.length, cols = b[0].length, prev = new Int32Array(rows * cols).fill(-1);
    const queue = [from[0] * cols + from[1]];
    prev[queue[0]] = queue[0];
    for (let i = 0; i < queue.length; i++) {
      const r = Math.floor(queue[i] / cols), c = queue[i] % cols;
      for (const [bit, dr, dc] of Object.values(STEPS)) {
        const n = (r + dr) * cols + c + dc;
        if ((b[r][c] & bit) && prev[n] < 0) { prev[n] = queue[i]; queue.push(n); }
      }
    }
    const path = [];
    for (let n = to[0] * cols + to[1]; prev[n] >= 0; n = prev[n]) {
      path.push([Math.floor(n / cols), n % cols]);
      if (prev[n] === n) break;
    }
    return path.reverse();
  }
  function generate(cols, rows, seed) {  // the recursive backtracker: a perfect maze
    const rand = prng(seed);
    const b = Array.from({ length: rows }, () => new Array(cols).fill(0));
    const seen = Array.from({ length: rows }, () => new Array(cols).fill(false));
    const stack = [[0, 0]];
    seen[0][0] = true;
    while (stack.length) {
      const [r, c] = stack[stack.length - 1];
      const open = [];
      for (const [bit, dr, dc] of Object.values(STEPS)) {
        const rr = r + dr, cc = c + dc;
        if (rr >= 0 && rr < rows && cc >= 0 && cc < cols && !seen[rr][cc]) {
          open.push([bit, rr, cc]);
        }
      }
      if (!open.length) { stack.pop(); continue; }
      const [bit, rr, cc] = open[Math.floor(rand() * open.length)];
      b[r][c] |= bit;
      b[rr][cc] |= { 1: 4, 2: 8, 4: 1, 8: 2 }[bit];
      seen[rr][cc] = true;
      stack.push([rr, cc]);
    }
    return {
      rows, cols, geometry: "cells", seed, algorithm: "backtracker",
      grid: b.map((row) => row.map((v) => v.toString(16)).join("")),
      entrance: [0, 0], exit: [rows - 1, cols - 1], entranceSide: 1, exitSide: 4,
      solution: solve(b, [0, 0], [rows - 1, cols - 1]), tags: [], rooms: [],
      key: "random " + cols + "x" + rows + " seed " + seed,
    };
  }
  function parseSize(text) {
    const m = /^\s*(\d{1,4})\s*(?:[x×X*,\s]\s*(\d{1,4}))?\s*$/.exec(text);
    if (!m) return null;
    const cols = Number(m[1]), rows = m[2] === undefined ? cols : Number(m[2]);
    if (cols < 2 || rows < 2 || cols > MAX_SIDE || rows > MAX_SIDE) return null;
    return [cols, rows];
  }

  // ------------------------------------------------------------------ other grids
  function centre(cell) { return [maze.centres[2 * cell], maze.centres[2 * cell + 1]]; }
  function inside(cell, x, y) {  // the point in the cell's outline (even-odd)
    const p = maze.polygons[cell];
    let hit = false;
    for (let i = 0, j = p.length - 2; i < p.length; j = i, i += 2) {
      const xi = p[i], yi = p[i + 1], xj = p[j], yj = p[j + 1];
      if ((yi > y) !== (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) hit = !hit;
    }
    return hit;
  }
  function inradius(cell) {  // from the cell's centre to its nearest side
    const p = maze.polygons[cell], [x, y] = centre(cell);
    let best = Infinity;
    for (let i = 0, j = p.length - 2; i < p.length; j = i, i += 2) {
      const ax = p[j], ay = p[j + 1], dx = p[i] - ax, dy = p[i + 1] - ay;
      const along = ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy || 1);
      const t = Math.max(0, Math.min(1, along));
      best = Math.min(best, Math.hypot(ax + t * dx - x, ay + t * dy - y));
    }
    return best;
  }
  function under() {  // in a weave maze's tunnel, under another corridor
    return onGrid && maze.under !== undefined && pos >= maze.under;
  }
  function toward(deg) {  // the open neighbour nearest a direction, within REACH; or -1
    const [x, y] = centre(pos);
    let best = -1, least = REACH + 1e-9;
    for (const cell of maze.open[pos]) {  // in the grid's order: the first of equals
      const [nx, ny] = centre(cell);
      let off = Math.abs(Math.atan2(ny - y, nx - x) * 180 / Math.PI - deg) % 360;
      if (off > 180) off = 360 - off;
      if (off < least - 1e-9) { best = cell; least = off; }
    }
    return best;
  }

  // ------------------------------------------------------------------ best times
  function storeKey() { return "mazeart-times " + maze.key; }
  function readTimes() {
    try {
      const v = JSON.parse(localStorage.getItem(storeKey()) || "[]");
      if (!Array.isArray(v)) return [];
      return v.filter((t) => typeof t === "number" && t > 0 && Number.isFinite(t))
        .sort((a, b) => a - b).slice(0, KEEP);
    } catch (e) { return []; }
  }
  function enterTime(t) {  // into the maze's table; the run's place in it, or 0
    const times = readTimes();
    let at = times.findIndex((x) => x > t);
    if (at < 0) at = times.length;
    if (at >= KEEP) return [times, 0];
    times.splice(at, 0, t);
    times.length = Math.min(times.length, KEEP);
    try { localStorage.setItem(storeKey(), JSON.stringify(times)); } catch (e) { /* private */ }
    return [times, at + 1];
  }
  function showBest() {
    const times = readTimes();
    $("best").textContent = times.length ? "best " + times[0].toFixed(1) + " s" : "";
  }
  function showScores(times, rank) {
    const body = $("scores").tBodies[0];
    body.textContent = "";
    times.forEach((t, i) => {
      const row = body.insertRow();
      row.insertCell().textContent = (i + 1) + ".";
      row.insertCell().textContent = t.toFixed(1) + " s";
      if (i + 1 === rank) row.className = "this";
    });
    if (!times.length) body.insertRow().insertCell().textContent = "none yet";
    $("scores").hidden = false;
  }

  // ------------------------------------------------------------------ playing
  function elapsed() {
    if (started === null) return 0;
    return ((finished === null ? performance.now() : finished) - started) / 1000;
  }
  function updateTimer() { $("timer").textContent = elapsed().toFixed(1) + " s"; }
  function say(text, note) {
    $("message").textContent = text;
    $("message").className = note ? "note" : "";
  }

  function play(data) {
    maze = data;
    onGrid = Array.isArray(maze.open);
    bits = onGrid ? null : cellBits(maze.grid);
    pos = onGrid ? maze.entrance : maze.entrance.slice();
    started = finished = null;
    clearInterval(tick);
    peeked = showSolution;
    const d = canvas.dataset;
    $("level").textContent = random
      ? "random " + maze.cols + "x" + maze.rows + ", seed " + maze.seed
      : DATA.levels.length > 1 ? "level " + (level + 1) + " / " + DATA.levels.length : "";
    say(peeked ? "The solution is shown: this run's time will not be recorded." : "", peeked);
    d.level = random ? "random" : String(level + 1);
    d.won = "false";
    d.recorded = "";
    d.peeked = String(peeked);
    d.rows = String(maze.rows);
    d.cols = String(maze.cols);
    d.key = maze.key;
    d.seed = maze.seed === null || maze.seed === undefined ? "" : String(maze.seed);
    d.grid = maze.kind || "square";
    $("size").value = maze.cols + "x" + maze.rows;
    $("next").hidden = true;
    $("scores").hidden = true;
    $("help").textContent = onGrid ? GRID_HELP : SQUARE_HELP;
    for (const b of document.querySelectorAll("#pad button")) {
      if (!(b.dataset.dir in STEPS)) b.hidden = !onGrid;  // the slants: for other grids
    }
    const across = onGrid ? maze.width : maze.cols, down = onGrid ? maze.height : maze.rows;
    const most = onGrid ? Math.floor(28 / Math.min(1, maze.step)) : 28;  // small cells: larger
    const size = Math.max(4, Math.min(most, Math.floor(900 / Math.max(across, down))));
    d.scale = String(size);
    canvas.width = board.width = Math.ceil((across + 2) * size);
    canvas.height = board.height = Math.ceil((down + 2) * size);
    legend();
    showBest();
    updateTimer();
    drawBoard();
    draw();
    canvas.focus({ preventScroll: true });
  }
  function hasNext() { return random !== null || level + 1 < DATA.levels.length; }
  function next() {
    if (random) play(generate(maze.cols, maze.rows, newSeed()));
    else if (level + 1 < DATA.levels.length) { level += 1; play(DATA.levels[level]); }
  }
  function newSeed() { return Math.floor(Math.random() * 4294967296); }

  function tagColour(kind) {
    return Object.prototype.hasOwnProperty.call(DATA.tagColours, kind)
      ? DATA.tagColours[kind] : DATA.tagFallback;
  }
  function legend() {
    const list = $("legend"), kinds = [];
    for (const tag of maze.tags) {
      const kind = onGrid ? tag[1] : tag[2];  // [cell, kind, radius] or [row, col, kind]
      if (!kinds.includes(kind)) kinds.push(kind);
    }
    const order = Object.keys(DATA.tagColours);
    kinds.sort((a, b) => (order.includes(a) ? order.indexOf(a) : 1e6)
      - (order.includes(b) ? order.indexOf(b) : 1e6) || (a < b ? -1 : a > b ? 1 : 0));
    list.textContent = "";
    const item = (name, colour, square, kind) => {
      const li = document.createElement("li"), dot = document.createElement("span");
      dot.className = "swatch" + (square ? " square" : "");
      dot.style.background = colour;
      li.append(dot, document.createTextNode(name));
      if (kind !== undefined) li.dataset.kind = kind;
      list.append(li);
    };
    item("exit", COLOURS.exit, true);
    for (const kind of kinds) item(kind, tagColour(kind), false, kind);
  }

  function drawGridBoard(g, cs) {  // the walls of the shared drawing (the SVG's), polylines
    g.fillStyle = COLOURS.room;
    for (const room of maze.rooms) {
      g.beginPath();
      for (const cell of room) {
        const p = maze.polygons[cell];
        g.moveTo(p[0] * cs, p[1] * cs);
        for (let k = 2; k < p.length; k += 2) g.lineTo(p[k] * cs, p[k + 1] * cs);
        g.closePath();
      }
      g.fill();
    }
    maze.endFills.forEach((rings, i) => {
      g.fillStyle = i ? COLOURS.exit : COLOURS.entrance;
      g.beginPath();
      for (const p of rings) {
        g.moveTo(p[0] * cs, p[1] * cs);
        for (let k = 2; k < p.length; k += 2) g.lineTo(p[k] * cs, p[k + 1] * cs);
        g.closePath();
      }
      g.fill();
    });
    g.strokeStyle = COLOURS.wall;
    for (const stroke of maze.strokes) {
      g.lineWidth = Math.max(1, stroke.width * cs);
      g.lineCap = stroke.cap;
      g.lineJoin = stroke.cap === "square" ? "miter" : "round";
      g.beginPath();
      for (const line of stroke.lines) {
        g.moveTo(line[0] * cs, line[1] * cs);
        for (let i = 2; i < line.length; i += 2) g.lineTo(line[i] * cs, line[i + 1] * cs);
      }
      g.stroke();
    }
    for (const [cell, kind, radius] of maze.tags) {
      const [x, y] = centre(cell);
      g.fillStyle = tagColour(kind);
      g.beginPath(); g.arc(x * cs, y * cs, radius * cs, 0, 2 * Math.PI); g.fill();
    }
  }
  function drawBoard() {
    const g = board.getContext("2d"), cs = Number(canvas.dataset.scale);
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, board.width, board.height);
    g.translate(cs, cs);
    if (onGrid) { drawGridBoard(g, cs); return; }
    const cx = (c) => (c + 0.5) * cs, cy = (r) => (r + 0.5) * cs;
    g.fillStyle = COLOURS.room;
    for (const room of maze.rooms) for (const [r, c] of room) g.fillRect(c * cs, r * cs, cs, cs);
    g.fillStyle = COLOURS.entrance;
    g.fillRect(maze.entrance[1] * cs, maze.entrance[0] * cs, cs, cs);
    g.fillStyle = COLOURS.exit;
    g.fillRect(maze.exit[1] * cs, maze.exit[0] * cs, cs, cs);
    if (maze.geometry === "blocks") {
      g.fillStyle = COLOURS.wall;
      maze.blocks.forEach((row, r) => {
        for (let c = 0; c < row.length; c++) {
          if (row[c] === "1") g.fillRect((c - 1) * cs, (r - 1) * cs, cs, cs);
        }
      });
    } else {
      g.strokeStyle = COLOURS.wall;
      g.lineWidth = Math.max(1, cs * 0.15);
      g.lineCap = "square";
      g.beginPath();
      const doors = [[maze.entrance, maze.entranceSide], [maze.exit, maze.exitSide]];
      const isDoor = (r, c, side) => doors.some(([p, s]) => p[0] === r && p[1] === c && s === side);
      const nb = (r, c) => r >= 0 && r < maze.rows && c >= 0 && c < maze.cols ? bits[r][c] : -1;
      for (let r = 0; r < maze.rows; r++) {
        for (let c = 0; c < maze.cols; c++) {
          const b = bits[r][c];
          if (b < 0) continue;
          const x = c * cs, y = r * cs;
          if (!(b & 1) && !isDoor(r, c, 1)) { g.moveTo(x, y); g.lineTo(x + cs, y); }
          if (!(b & 8) && !isDoor(r, c, 8)) { g.moveTo(x, y); g.lineTo(x, y + cs); }
          if (nb(r + 1, c) < 0 && !isDoor(r, c, 4)) {
            g.moveTo(x, y + cs); g.lineTo(x + cs, y + cs);
          }
          if (nb(r, c + 1) < 0 && !isDoor(r, c, 2)) {
            g.moveTo(x + cs, y); g.lineTo(x + cs, y + cs);
          }
        }
      }
      g.stroke();
    }
    for (const [r, c, kind] of maze.tags) {
      g.fillStyle = tagColour(kind);
      g.beginPath(); g.arc(cx(c), cy(r), cs * 0.28, 0, 2 * Math.PI); g.fill();
    }
  }
  function draw() {
    const cs = Number(canvas.dataset.scale);
    const cx = (c) => (c + 0.5) * cs, cy = (r) => (r + 0.5) * cs;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(board, 0, 0);
    ctx.translate(cs, cs);
    if (showSolution) {
      ctx.strokeStyle = COLOURS.solution;
      ctx.lineWidth = Math.max(1, cs * 0.3);
      ctx.lineJoin = ctx.lineCap = "round";
      ctx.beginPath();
      if (onGrid) {  // through the cells' centres and out through the doors
        const line = maze.solutionLine;
        for (let i = 0; i < line.length; i += 2) ctx.lineTo(line[i] * cs, line[i + 1] * cs);
      } else {
        maze.solution.forEach(([r, c], i) => {
          if (i) ctx.lineTo(cx(c), cy(r)); else ctx.moveTo(cx(c), cy(r));
        });
      }
      ctx.stroke();
    }
    ctx.fillStyle = COLOURS.player;
    ctx.strokeStyle = "#ffffff";
    ctx.lineWidth = Math.max(1, cs * 0.08);
    ctx.beginPath();
    if (onGrid) {
      const [x, y] = centre(pos), low = under();
      if (low) {  // under the crossing corridor: seen through it
        ctx.globalAlpha = 0.45;
        ctx.setLineDash([Math.max(2, cs * 0.1), Math.max(2, cs * 0.08)]);
      }
      ctx.arc(x * cs, y * cs, cs * Math.min(0.33, 0.85 * inradius(pos)), 0, 2 * Math.PI);
      ctx.fill(); ctx.stroke();
      ctx.globalAlpha = 1;
      ctx.setLineDash([]);
      if (low) {  // the walls of the corridor over it pass over it
        ctx.setTransform(1, 0, 0, 1, 0, 0);
        ctx.drawImage(board, 0, 0);
      }
      const d = canvas.dataset;
      delete d.row;
      delete d.col;
      d.cell = String(pos);
      d.under = String(low);
      return;
    }
    ctx.arc(cx(pos[1]), cy(pos[0]), cs * 0.33, 0, 2 * Math.PI);
    ctx.fill(); ctx.stroke();
    canvas.dataset.row = String(pos[0]);
    canvas.dataset.col = String(pos[1]);
    canvas.dataset.cell = String(pos[0] * maze.cols + pos[1]);
    delete canvas.dataset.under;
  }

  function begin() {  // the clock starts at the first step
    if (started === null) { started = performance.now(); tick = setInterval(updateTimer, 100); }
  }
  function step(dir) {  // one cell; false when a wall (or the win) is in the way
    if (canvas.dataset.won === "true") return false;
    if (onGrid) return go(ANGLES[dir]);
    if (!(dir in STEPS)) return false;
    const [bit, dr, dc] = STEPS[dir];
    if (!(bits[pos[0]][pos[1]] & bit)) return false;
    begin();
    pos = [pos[0] + dr, pos[1] + dc];
    draw();
    if (pos[0] === maze.exit[0] && pos[1] === maze.exit[1]) win();
    return true;
  }
  function moveTo(cell) {  // other grids: onto a cell an open passage joins to the player's
    if (canvas.dataset.won === "true") return false;
    begin();
    pos = cell;
    draw();
    if (pos === maze.exit) win();
    return true;
  }
  function go(deg) {  // other grids: to the open neighbour that way, if one is near enough
    const cell = toward(deg);
    return cell >= 0 && moveTo(cell);
  }
  function scale() {  // CSS pixels of the page per maze unit
    return canvas.getBoundingClientRect().width / canvas.width * Number(canvas.dataset.scale);
  }
  function tapAt(clientX, clientY) {  // other grids: onto the neighbouring cell there, if open
    if (!onGrid || canvas.dataset.won === "true") return false;
    const rect = canvas.getBoundingClientRect(), unit = scale();
    const x = (clientX - rect.left) / unit - 1, y = (clientY - rect.top) / unit - 1;
    for (const cell of maze.open[pos]) if (inside(cell, x, y)) return moveTo(cell);
    return false;
  }
  function win() {
    finished = performance.now();
    clearInterval(tick);
    const t = Math.max(0.001, Math.round(elapsed() * 1000) / 1000);
    updateTimer();
    canvas.dataset.won = "true";
    let text = "Solved in " + t.toFixed(1) + " s";
    if (peeked) {
      canvas.dataset.recorded = "false";
      text += " \u2014 not recorded: the solution was shown";
      showScores(readTimes(), 0);
    } else {
      const [times, rank] = enterTime(t);
      canvas.dataset.recorded = String(rank > 0);
      text += rank === 1 ? " \u2014 a new best!"
        : " (best " + times[0].toFixed(1) + " s" + (rank ? ", #" + rank : "") + ")";
      showScores(times, rank);
    }
    showBest();
    if (hasNext()) {
      text += " \u2014 any key or \u201cNext maze\u201d for the next one";
      $("next").hidden = false;
    }
    say(text, peeked);
  }

  // ------------------------------------------------------------------ input
  document.addEventListener("keydown", (ev) => {
    const target = ev.target;
    if (target && target.tagName === "INPUT") return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (canvas.dataset.won === "true") {
      const idle = ["Shift", "Control", "Alt", "Meta", "Tab", "CapsLock"].includes(ev.key);
      if (hasNext() && !ev.repeat && !idle) { ev.preventDefault(); next(); }
      return;
    }
    const dir = KEYS[ev.key] || (onGrid ? GRID_KEYS[ev.key] : undefined);
    if (!dir) return;
    ev.preventDefault();
    step(dir);
  });
  function swipeUnit() {  // CSS pixels of finger travel per step: a cell, at least 14
    if (onGrid) return Math.max(14, maze.step * scale());  // the usual step between centres
    const shown = canvas.getBoundingClientRect().width / (maze.cols + 2);
    return Math.max(14, shown);
  }
  function direction(dx, dy) {
    if (Math.abs(dx) >= Math.abs(dy)) return dx > 0 ? "right" : "left";
    return dy > 0 ? "down" : "up";
  }
  canvas.addEventListener("touchstart", (ev) => {
    if (ev.touches.length !== 1) { touch = null; return; }
    ev.preventDefault();
    const t = ev.touches[0];
    touch = { x: t.clientX, y: t.clientY, moved: false, unit: swipeUnit() };
    canvas.dataset.swipe = String(touch.unit);
  }, { passive: false });
  canvas.addEventListener("touchmove", (ev) => {
    if (!touch || ev.touches.length !== 1) return;
    ev.preventDefault();
    const t = ev.touches[0];
    if (onGrid) { swipeGrid(t); return; }
    for (;;) {  // a step for every unit the finger travelled, along its main direction
      const dx = t.clientX - touch.x, dy = t.clientY - touch.y;
      if (Math.max(Math.abs(dx), Math.abs(dy)) < touch.unit) break;
      const dir = direction(dx, dy);
      step(dir);
      touch.moved = true;
      if (dir === "left" || dir === "right") touch.x += Math.sign(dx) * touch.unit;
      else touch.y += Math.sign(dy) * touch.unit;
    }
  }, { passive: false });
  function swipeGrid(t) {  // other grids: a step for every unit travelled, the finger's way
    for (let k = 0; k < 64; k++) {
      const dx = t.clientX - touch.x, dy = t.clientY - touch.y, far = Math.hypot(dx, dy);
      if (far < touch.unit) break;
      const from = centre(pos);
      touch.moved = true;
      if (go(Math.atan2(dy, dx) * 180 / Math.PI)) {  // the finger's start follows the player
        const to = centre(pos), unit = scale();
        const sx = (to[0] - from[0]) * unit, sy = (to[1] - from[1]) * unit;
        if (Math.hypot(dx - sx, dy - sy) < far) { touch.x += sx; touch.y += sy; continue; }
      }
      touch.x += dx / far * touch.unit;  // a wall, or a step past the finger: travel spent
      touch.y += dy / far * touch.unit;
    }
  }
  canvas.addEventListener("touchend", (ev) => {
    if (!touch) return;
    ev.preventDefault();
    const t = ev.changedTouches[0];
    const dx = t.clientX - touch.x, dy = t.clientY - touch.y;
    const swiped = Math.max(Math.abs(dx), Math.abs(dy)) >= 10;
    if (canvas.dataset.won === "true" && !touch.moved && hasNext()) next();
    else if (!touch.moved && swiped && onGrid) go(Math.atan2(dy, dx) * 180 / Math.PI);
    else if (!touch.moved && swiped) step(direction(dx, dy));
    else if (!touch.moved && onGrid) tapAt(t.clientX, t.clientY);
    touch = null;
  }, { passive: false });
  canvas.addEventListener("click", (ev) => {
    if (!onGrid) return;
    tapAt(ev.clientX, ev.clientY);
    canvas.focus({ preventScroll: true });
  });
  canvas.addEventListener("touchcancel", () => { touch = null; });

  function release() { if (held) { clearTimeout(held); held = null; } }
  for (const button of document.querySelectorAll("#pad button")) {
    const dir = button.dataset.dir;
    button.addEventListener("pointerdown", (ev) => {
      ev.preventDefault();
      release();
      step(dir);
      const again = () => { if (step(dir)) held = setTimeout(again, 110); else held = null; };
      held = setTimeout(again, 350);  // held down: it repeats
    });
    for (const name of ["pointerup", "pointercancel", "pointerleave"]) {
      button.addEventListener(name, release);
    }
    button.addEventListener("click", (ev) => { if (ev.detail === 0) step(dir); });  // keyboard
    button.addEventListener("contextmenu", (ev) => ev.preventDefault());
  }
  $("toggle").addEventListener("click", () => {
    showSolution = !showSolution;
    $("toggle").textContent = showSolution ? "Hide solution" : "Show solution";
    if (showSolution && canvas.dataset.won !== "true" && !peeked) {
      peeked = true;
      canvas.dataset.peeked = "true";
      say("The solution is shown: this run's time will not be recorded.", true);
    }
    draw();
    canvas.focus({ preventScroll: true });
  });
  $("next").addEventListener("click", () => { if (hasNext()) next(); });
  $("new").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const size = parseSize($("size").value);
    if (!size) {
      say("Size: cells across (20) or across x down (30x20), each from 2 to " + MAX_SIDE + ".",
        true);
      return;
    }
    random = { cols: size[0], rows: size[1] };
    play(generate(size[0], size[1], newSeed()));
  });

  window.mazeart = Object.freeze({
    state() {
      if (onGrid) {
        const pairs = [];
        for (let i = 0; i < maze.cells; i++) pairs.push(centre(i));
        return {
          kind: maze.kind, rows: maze.rows, cols: maze.cols, width: maze.width,
          height: maze.height, geometry: maze.geometry, key: maze.key, seed: maze.seed,
          cells: maze.cells, mask: maze.mask, centres: pairs,
          neighbours: maze.neighbours.map((a) => a.slice()),
          open: maze.open.map((a) => a.slice()), entrance: maze.entrance, exit: maze.exit,
          solution: maze.solution.slice(), position: pos, under: under(),
          won: canvas.dataset.won === "true", peeked, times: readTimes(),
        };
      }
      return {
        kind: "square", rows: maze.rows, cols: maze.cols, geometry: maze.geometry, key: maze.key,
        seed: maze.seed, grid: bits.map((row) => row.slice()), entrance: maze.entrance.slice(),
        exit: maze.exit.slice(), solution: maze.solution.map((p) => p.slice()),
        position: pos.slice(), won: canvas.dataset.won === "true", peeked, times: readTimes(),
      };
    },
    newMaze(cols, rows, seed) {
      if (!parseSize(cols + "x" + rows)) throw new RangeError("size out of range");
      random = { cols, rows };
      play(generate(cols, rows, seed === undefined ? newSeed() : seed >>> 0));
    },
  });
  play(DATA.levels[0]);
})();
</script>
</body>
</html>
"""
