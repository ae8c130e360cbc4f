"""A browser game in one self-contained HTML file.

The page embeds the mazes as data (one level per maze) and draws them on a
canvas: arrow keys or WASD move, the timer starts at the first move, reaching
the exit shows the time and the best time (kept in the browser's
``localStorage`` per maze size), "Show solution" toggles the path, and with
several levels the next one starts after a win. Nothing is loaded from the
network. Text the user gave (the title) is HTML-escaped, and the embedded JSON
cannot close its ``<script>`` element.

The page's state is visible for tests and tools: ``#game`` carries
``data-row``, ``data-col``, ``data-level`` and ``data-won``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape
from typing import Any

from mazeart._io import dump_json, plain
from mazeart.errors import MazeartError
from mazeart.maze import Maze

__all__ = ["level_data", "to_html", "write_html"]


def level_data(maze: Maze) -> dict[str, Any]:
    """What the page needs of one maze: passages, blocks, ends, solution, tags.

    Raises
    ------
    ValueError
        If the maze has no entrance or exit, or they are not joined.
    """
    from mazeart.mazefile import _grid_rows
    from mazeart.solve import solve

    if maze.entrance is None or maze.exit is None:
        raise MazeartError("a game needs a maze with an entrance and an exit")
    path = solve(maze)
    data: dict[str, Any] = {
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
    }
    if maze.geometry == "blocks":
        data["blocks"] = ["".join(map(str, row)) for row in maze.blocks(doors=True).tolist()]
    return data


def to_html(mazes: Maze | Sequence[Maze], *, title: str = "mazeart") -> str:
    """The game page for one maze or several levels.

    Parameters
    ----------
    mazes : Maze or sequence of Maze
        Played in turn.
    title : str, default 'mazeart'
        Page title and heading (escaped).

    Returns
    -------
    str
    """
    levels = [mazes] if isinstance(mazes, Maze) else list(mazes)
    if not levels:
        raise MazeartError("a game needs at least one maze")
    payload = dump_json({"title": title, "levels": [level_data(m) for m in levels]})
    # No "</script>" (or "<!--") can appear inside the script element.
    payload = payload.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    fill = {"%TITLE%": escape(plain(title)), "%DATA%": payload}
    return re.sub("%TITLE%|%DATA%", lambda m: fill[m.group(0)], _PAGE)


def write_html(maze: Maze, fh: Any, **options: Any) -> None:
    """Exporter entry: write the one-maze game page (``title`` applies; drawing options do not)."""
    levels = options.get("levels") or [maze]
    fh.write(to_html(levels, title=options.get("title") or "mazeart").encode("utf-8"))


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%TITLE%</title>
<style>
  body { font: 15px/1.4 system-ui, sans-serif; margin: 0; background: #f6f4ef; color: #222;
         display: flex; flex-direction: column; align-items: center; }
  h1 { font-size: 20px; margin: 14px 0 4px; }
  #bar { display: flex; gap: 18px; align-items: center; margin: 6px 0 10px; }
  #timer { font-variant-numeric: tabular-nums; min-width: 6em; }
  #message { min-height: 1.5em; font-weight: 600; color: #1a7f37; }
  canvas { background: #fff; box-shadow: 0 1px 4px rgba(0,0,0,.2); max-width: 96vw;
           max-height: 78vh; image-rendering: pixelated; }
  button { font: inherit; padding: 3px 10px; }
  .help { color: #666; font-size: 13px; margin: 8px; }
</style>
</head>
<body>
<h1>%TITLE%</h1>
<div id="bar">
  <span id="level"></span>
  <span id="timer">0.0 s</span>
  <span id="best"></span>
  <button id="toggle" type="button">Show solution</button>
</div>
<div id="message" role="status"></div>
<canvas id="game" width="10" height="10" tabindex="0"></canvas>
<div class="help">Arrow keys or W A S D move. Reach the red square.</div>
<script id="mazeart-data" type="application/json">%DATA%</script>
<script>
"use strict";
(function () {
  const DATA = JSON.parse(document.getElementById("mazeart-data").textContent);
  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");
  const $ = (id) => document.getElementById(id);
  const MOVES = {
    ArrowUp: [1, -1, 0], ArrowRight: [2, 0, 1], ArrowDown: [4, 1, 0], ArrowLeft: [8, 0, -1],
    w: [1, -1, 0], d: [2, 0, 1], s: [4, 1, 0], a: [8, 0, -1],
    W: [1, -1, 0], D: [2, 0, 1], S: [4, 1, 0], A: [8, 0, -1],
  };
  let level = 0, maze, bits, pos, started = null, finished = null, showSolution = false, tick;

  function cellBits(grid) {
    return grid.map((row) => Array.from(row, (ch) => {
      const v = parseInt(ch, 16);
      return Number.isNaN(v) ? -1 : v;  // -1: not a maze cell
    }));
  }
  function bestKey() {
    return "mazeart-best-" + maze.cols + "x" + maze.rows + "-" + maze.geometry;
  }
  function readBest() {
    try { const v = localStorage.getItem(bestKey()); return v === null ? null : Number(v); }
    catch (e) { return null; }
  }
  function writeBest(t) {
    try { localStorage.setItem(bestKey(), String(t)); } catch (e) { /* private mode */ }
  }
  function showBest() {
    const b = readBest();
    $("best").textContent = b === null ? "" : "best " + b.toFixed(1) + " s";
  }
  function elapsed() {
    if (started === null) return 0;
    return ((finished === null ? performance.now() : finished) - started) / 1000;
  }
  function updateTimer() { $("timer").textContent = elapsed().toFixed(1) + " s"; }

  function load(i) {
    level = i;
    maze = DATA.levels[i];
    bits = cellBits(maze.grid);
    pos = maze.entrance.slice();
    started = finished = null;
    $("level").textContent = DATA.levels.length > 1
      ? "level " + (i + 1) + " / " + DATA.levels.length : "";
    $("message").textContent = "";
    canvas.dataset.level = String(i + 1);
    canvas.dataset.won = "false";
    const size = Math.max(4, Math.min(28, Math.floor(900 / Math.max(maze.cols, maze.rows))));
    canvas.dataset.cell = String(size);
    canvas.width = (maze.cols + 2) * size;
    canvas.height = (maze.rows + 2) * size;
    showBest();
    updateTimer();
    draw();
    canvas.focus();
  }

  function draw() {
    const cs = Number(canvas.dataset.cell);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.translate(cs, cs);
    const cx = (c) => (c + 0.5) * cs, cy = (r) => (r + 0.5) * cs;
    ctx.fillStyle = "#f4e2b0";
    for (const room of maze.rooms) for (const [r, c] of room) ctx.fillRect(c * cs, r * cs, cs, cs);
    ctx.fillStyle = "#e8f4ea";
    ctx.fillRect(maze.entrance[1] * cs, maze.entrance[0] * cs, cs, cs);
    ctx.fillStyle = "#f8d0d0";
    ctx.fillRect(maze.exit[1] * cs, maze.exit[0] * cs, cs, cs);
    if (maze.geometry === "blocks") {
      ctx.fillStyle = "#222";
      maze.blocks.forEach((row, r) => {
        for (let c = 0; c < row.length; c++) {
          if (row[c] === "1") ctx.fillRect((c - 1) * cs, (r - 1) * cs, cs, cs);
        }
      });
    } else {
      ctx.strokeStyle = "#222";
      ctx.lineWidth = Math.max(1, cs * 0.15);
      ctx.lineCap = "square";
      ctx.beginPath();
      const doors = [[maze.entrance, maze.entranceSide], [maze.exit, maze.exitSide]];
      const isDoor = (r, c, side) => doors.some(([p, s]) => p[0] === r && p[1] === c && s === side);
      for (let r = 0; r < maze.rows; r++) {
        for (let c = 0; c < maze.cols; c++) {
          const b = bits[r][c];
          if (b < 0) continue;
          const x = c * cs, y = r * cs;
          const nb = (rr, cc) => rr >= 0 && rr < maze.rows && cc >= 0 && cc < maze.cols
            ? bits[rr][cc] : -1;
          if (!(b & 1) && !isDoor(r, c, 1)) { ctx.moveTo(x, y); ctx.lineTo(x + cs, y); }
          if (!(b & 8) && !isDoor(r, c, 8)) { ctx.moveTo(x, y); ctx.lineTo(x, y + cs); }
          if (nb(r + 1, c) < 0 && !isDoor(r, c, 4)) {
            ctx.moveTo(x, y + cs); ctx.lineTo(x + cs, y + cs);
          }
          if (nb(r, c + 1) < 0 && !isDoor(r, c, 2)) {
            ctx.moveTo(x + cs, y); ctx.lineTo(x + cs, y + cs);
          }
        }
      }
      ctx.stroke();
    }
    for (const [r, c, kind] of maze.tags) {
      ctx.fillStyle = {loot: "#e6b800", spawn: "#1f77b4", key: "#9467bd", npc: "#17becf",
                       trap: "#8c564b"}[kind] || "#7f7f7f";
      ctx.beginPath(); ctx.arc(cx(c), cy(r), cs * 0.22, 0, 2 * Math.PI); ctx.fill();
    }
    if (showSolution) {
      ctx.strokeStyle = "rgba(214, 39, 40, 0.75)";
      ctx.lineWidth = Math.max(1, cs * 0.3);
      ctx.lineJoin = ctx.lineCap = "round";
      ctx.beginPath();
      maze.solution.forEach(([r, c], i) => {
        if (i) ctx.lineTo(cx(c), cy(r)); else ctx.moveTo(cx(c), cy(r));
      });
      ctx.stroke();
    }
    ctx.fillStyle = "#2ca02c";
    ctx.beginPath(); ctx.arc(cx(pos[1]), cy(pos[0]), cs * 0.33, 0, 2 * Math.PI); ctx.fill();
    canvas.dataset.row = String(pos[0]);
    canvas.dataset.col = String(pos[1]);
  }

  function win() {
    finished = performance.now();
    clearInterval(tick);
    const t = elapsed();
    const best = readBest();
    const record = best === null || t < best;
    if (record) writeBest(t);
    showBest();
    updateTimer();
    canvas.dataset.won = "true";
    const last = level + 1 >= DATA.levels.length;
    $("message").textContent = "Solved in " + t.toFixed(1) + " s" + (record ? " (best!)" : "")
      + (last ? "" : " \\u2014 press any key for the next maze");
  }

  document.addEventListener("keydown", (ev) => {
    if (canvas.dataset.won === "true") {
      if (level + 1 < DATA.levels.length && !ev.repeat) { ev.preventDefault(); load(level + 1); }
      return;
    }
    const move = MOVES[ev.key];
    if (!move) return;
    ev.preventDefault();
    const [bit, dr, dc] = move;
    if (!(bits[pos[0]][pos[1]] & bit)) return;  // a wall
    if (started === null) { started = performance.now(); tick = setInterval(updateTimer, 100); }
    pos = [pos[0] + dr, pos[1] + dc];
    draw();
    if (pos[0] === maze.exit[0] && pos[1] === maze.exit[1]) win();
  });
  $("toggle").addEventListener("click", () => {
    showSolution = !showSolution;
    $("toggle").textContent = showSolution ? "Hide solution" : "Show solution";
    draw();
    canvas.focus();
  });
  load(0);
})();
</script>
</body>
</html>
"""
