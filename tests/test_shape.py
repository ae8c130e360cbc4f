"""Connect and shape: bridges between islands, pruning, braiding; tags placed by rule."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest
from conftest import SKIMAGE_DATA, presets, run_cli
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageDraw, ImageFont

from mazeart import generate, solve, weights_from_image
from mazeart.export import to_png_image, to_svg
from mazeart.maze import DIRECTIONS
from mazeart.rooms import Room
from mazeart.shape import ShapeReport, braid, connect, dead_ends, degrees, prune_dead_ends
from mazeart.solvers import distances
from mazeart.tags import TAG_COLOURS, parse_place, place_tags
from mazeart.weights import FORBIDDEN, TAG


def all_reachable(maze) -> bool:
    return bool(np.all(distances(maze, maze.entrance)[maze.mask] >= 0))


def word_image() -> Image.Image:
    img = Image.new("L", (900, 230), 255)
    ImageDraw.Draw(img).text((20, 10), "Maze art", font=ImageFont.load_default(size=160), fill=0)
    return img


@pytest.mark.parametrize("geometry", ["cells", "blocks"])
def test_every_cell_of_the_text_image_is_reachable(geometry):
    weights = weights_from_image(SKIMAGE_DATA / "text.png", cells=150)
    report = ShapeReport()
    maze = generate(weights, rng=1, geometry=geometry, report=report)
    assert report.parts > 50  # handwriting is many islands
    assert report.bridges == report.parts - 1 - report.unreachable
    assert report.unreachable == 0
    assert all_reachable(maze)
    if geometry == "blocks":  # bridges keep the block rules
        m = maze.mask
        assert not np.any(m[:-1, :-1] & m[1:, :-1] & m[:-1, 1:] & m[1:, 1:])
        side_by_side = np.count_nonzero(m[:, 1:] & m[:, :-1]) + np.count_nonzero(m[1:] & m[:-1])
        assert side_by_side == maze.n_passages
    assert maze.n_passages == maze.n_cells - 1


def ground_distance_mst(maze) -> int:
    """Weight of a minimum spanning tree over the maze's pieces (networkx), where two
    pieces are as far apart as the fewest ground cells a corridor between them crosses
    (plain breadth-first search from each piece)."""
    from collections import deque

    import networkx as nx
    from scipy import ndimage

    pieces, n = ndimage.label(maze.mask)
    h, w = maze.shape
    g = nx.Graph()
    for a in range(1, n + 1):
        seen = np.zeros(maze.shape, dtype=bool)
        queue = deque()
        for r, c in np.argwhere(pieces == a):
            for _, dr, dc in DIRECTIONS:
                rr, cc = r + dr, c + dc
                if 0 <= rr < h and 0 <= cc < w and not maze.mask[rr, cc] and not seen[rr, cc]:
                    seen[rr, cc] = True
                    queue.append((rr, cc, 1))
        while queue:
            r, c, d = queue.popleft()
            for _, dr, dc in DIRECTIONS:
                rr, cc = r + dr, c + dc
                if not (0 <= rr < h and 0 <= cc < w):
                    continue
                b = pieces[rr, cc]
                if b and b != a and (not g.has_edge(a, b) or g[a][b]["weight"] > d):
                    g.add_edge(a, b, weight=d)
                if not maze.mask[rr, cc] and not seen[rr, cc]:
                    seen[rr, cc] = True
                    queue.append((rr, cc, d + 1))
    return int(nx.minimum_spanning_tree(g).size(weight="weight"))


@pytest.mark.parametrize("cells", [60, 120, 240])
def test_every_cell_of_a_rendered_word_is_reachable(cells):
    weights = weights_from_image(word_image(), cells=cells)
    alone = generate(weights, rng=3, islands="separate")
    report = ShapeReport()
    maze = generate(weights, rng=3, report=report)
    assert all_reachable(maze)
    assert not all_reachable(alone)  # the letters really are islands
    # The bridges are as short as can be: their lengths add up to a minimum spanning
    # tree of the letters' ground distances (Mehlhorn's Voronoi construction).
    assert report.bridge_cells == ground_distance_mst(alone)
    assert 0 < int(maze.mask.sum() - alone.mask.sum()) <= report.bridge_cells


@given(presets(), st.integers(0, 2**31), st.sampled_from(["cells", "blocks"]))
def test_pruning_leaves_no_one_cell_dead_end(weights, seed, geometry):
    maze = generate(weights, rng=seed, geometry=geometry)
    report = ShapeReport()
    pruned = prune_dead_ends(maze, report=report)
    deg = degrees(pruned)
    for r, c in np.argwhere(dead_ends(pruned)):
        if (r, c) in (pruned.entrance, pruned.exit):
            continue
        ((_, dr, dc),) = [d for d in DIRECTIONS if pruned.passages[r, c] & d[0]]
        assert deg[r + dr, c + dc] < 3
    assert report.pruned == maze.n_cells - pruned.n_cells
    assert pruned.n_passages == pruned.n_cells - 1  # still a tree
    assert all_reachable(pruned)


def reference_prune(maze):
    """Pruning as the rounds describe it, cell by cell: in each round every dead end
    (not kept) whose neighbour has three passages or more is a stub; one stub per
    junction, the first in reading order, is cut; until a round finds none."""
    keep = maze.room_mask.copy()
    for cell in [*maze.tags, maze.entrance, maze.exit]:
        if cell is not None:
            keep[cell] = True
    for room in maze.rooms:
        for door in room.doors:
            keep[door.outside] = True
    mask, p = maze.mask.copy(), maze.passages.copy()
    cut = 0
    while True:
        deg = degrees(p)
        seen, stubs = set(), []
        for r, c in np.argwhere(mask & (deg == 1) & ~keep):
            ((bit, dr, dc),) = [d for d in DIRECTIONS if p[r, c] & d[0]]
            junction = (r + dr, c + dc)
            if deg[junction] >= 3 and junction not in seen:
                seen.add(junction)
                stubs.append((r, c, junction, {1: 4, 2: 8, 4: 1, 8: 2}[bit]))
        if not stubs:
            return mask, p, cut
        for r, c, junction, back in stubs:
            p[r, c] = 0
            p[junction] &= ~np.uint8(back)
            mask[r, c] = False
            cut += 1


@given(
    presets(max_side=30),
    st.integers(0, 2**31),
    st.sampled_from([("prim", "cells"), ("kruskal", "cells"), ("weighted-dfs", "blocks")]),
)
def test_pruning_matches_the_round_by_round_reference(weights, seed, case):
    algorithm, geometry = case
    maze = generate(weights, rng=seed, algorithm=algorithm, geometry=geometry)
    cells = np.argwhere(maze.mask)
    tagged = tuple(int(x) for x in cells[seed % len(cells)])
    maze = maze.replace(tags={tagged: "loot"})  # tagged cells are kept too
    report = ShapeReport()
    pruned = prune_dead_ends(maze, report=report)
    mask, p, cut = reference_prune(maze)
    assert np.array_equal(pruned.mask, mask)
    assert np.array_equal(pruned.passages, p)
    assert report.pruned == cut


def test_pruning_keeps_rooms_doors_and_ends():
    room = (Room(tuple((r, c) for r in range(10, 14) for c in range(10, 15)), ()), [(10, 12, "N")])
    maze = generate(np.zeros((30, 30), np.int32), rng=2, algorithm="prim", rooms=[room])
    pruned = prune_dead_ends(maze)
    mask, p, _ = reference_prune(maze)
    assert np.array_equal(pruned.mask, mask) and np.array_equal(pruned.passages, p)
    assert np.all(pruned.mask[maze.room_mask]) and pruned.mask[9, 12]
    assert pruned.mask[maze.entrance] and pruned.mask[maze.exit]


@given(
    presets(max_side=24),
    st.integers(0, 2**31),
    st.sampled_from(["cells", "blocks"]),
    st.sampled_from([0.3, 1.0]),
)
def test_braid_rules(weights, seed, geometry, fraction):
    maze = generate(weights, rng=seed, geometry=geometry)
    report = ShapeReport()
    braided = braid(maze, fraction, seed, report=report)
    again = braid(maze, fraction, np.random.default_rng(seed))
    assert braided == again  # an int seed is the Generator it seeds
    before = int(dead_ends(maze).sum())
    assert report.dead_ends_before == before
    assert report.braided == before - int(dead_ends(braided).sum())
    assert report.braided <= round(fraction * before) + 1  # one opening may end two
    assert np.all(braided.mask[maze.mask]) and np.all(braided.region == maze.region)
    assert all_reachable(braided)
    m = braided.mask
    if geometry == "blocks":  # opened blocks lie in the region and keep the block rules
        assert not np.any(m & ~maze.region)
        assert not np.any(m[:-1, :-1] & m[1:, :-1] & m[:-1, 1:] & m[1:, 1:])
        side_by_side = np.count_nonzero(m[:, 1:] & m[:, :-1]) + np.count_nonzero(m[1:] & m[:-1])
        assert side_by_side == braided.n_passages
    else:
        assert np.array_equal(m, maze.mask)


def islands_preset(side: int, square: int = 8, spacing: int = 10) -> np.ndarray:
    """Free squares on forbidden ground: ``(side // spacing) ** 2`` islands."""
    weights = np.full((side, side), FORBIDDEN, np.int32)
    for r in range(0, side, spacing):
        for c in range(0, side, spacing):
            weights[r : r + square, c : c + square] = 0
    return weights


@pytest.mark.parametrize(("square", "spacing"), [(8, 10), (4, 7), (1, 3)])
def test_blocks_bridges_join_a_field_of_islands(square, spacing):
    weights = islands_preset(90, square, spacing)
    apart = generate(
        weights, algorithm="weighted-dfs", geometry="blocks", rng=1, islands="separate"
    )
    report = ShapeReport()
    maze = connect(apart, report=report)
    assert report.parts == (90 // spacing + (90 % spacing > 0)) ** 2
    assert report.unreachable == 0 and report.bridges == report.parts - 1
    assert all_reachable(maze.replace(entrance=tuple(np.argwhere(maze.mask)[0])))
    m = maze.mask
    assert np.all(m[apart.mask]) and np.all(maze.passages & apart.passages == apart.passages)
    assert int(np.count_nonzero(m & ~apart.mask)) == report.bridge_cells
    assert not np.any(m[:-1, :-1] & m[1:, :-1] & m[:-1, 1:] & m[1:, 1:])
    side_by_side = np.count_nonzero(m[:, 1:] & m[:, :-1]) + np.count_nonzero(m[1:] & m[:-1])
    assert side_by_side == maze.n_passages == maze.n_cells - 1
    assert connect(maze, report=ShapeReport()) is maze  # one part: nothing left to join


@pytest.mark.parametrize("fraction", [0.0, 0.1, 0.25, 0.5, 0.75, 1.0])
@pytest.mark.parametrize("geometry", ["cells", "blocks"])
def test_braid_fraction(fraction, geometry):
    maze = generate(
        np.zeros((40, 40), np.int32), rng=7, geometry=geometry, algorithm="weighted-dfs"
    )
    before = int(dead_ends(maze).sum())
    braided = braid(maze, fraction, np.random.default_rng(1))
    after = int(dead_ends(braided).sum())
    achieved = (before - after) / before
    target = fraction
    if geometry == "blocks":
        # A block maze braids only dead ends that can open without a 2 x 2 opening:
        # ask for everything to learn that ceiling, then expect min(fraction, ceiling).
        most = braid(maze, 1.0, np.random.default_rng(1))
        ceiling = (before - int(dead_ends(most).sum())) / before
        assert ceiling > 0.3  # a good share of a block maze's dead ends can open
        target = min(fraction, ceiling)
    # Within about one dead end (one opening can end two dead ends at once).
    assert abs(achieved - target) <= 1.5 / before, (achieved, fraction)
    loops = braided.n_passages - (braided.n_cells - 1)
    assert loops == (0 if fraction == 0 else loops) and (fraction == 0 or loops > 0)
    assert all_reachable(braided)
    if geometry == "blocks":
        m = braided.mask
        assert not np.any(m[:-1, :-1] & m[1:, :-1] & m[:-1, 1:] & m[1:, 1:])


def test_braid_rejects_bad_fraction():
    maze = generate(np.zeros((5, 5), np.int32), rng=1)
    with pytest.raises(ValueError, match=r"in \[0, 1\]"):
        braid(maze, 1.5, np.random.default_rng(0))


def test_place_spec_parsing():
    assert parse_place("loot=5, spawn=2") == {"loot": 5, "spawn": 2}
    assert parse_place({"key": 1}) == {"key": 1}
    for bad, message in (
        ("loot", "kind=count"),
        ("gold=3", "unknown tag kind"),
        ("loot=x", "not a number"),
        ("loot=-1", "negative"),
    ):
        with pytest.raises(ValueError, match=message):
            parse_place(bad)


@given(presets(max_side=18), st.integers(0, 2**31))
def test_tags_are_placed_as_asked_on_maze_cells(weights, seed):
    counts = {"loot": 2, "spawn": 2, "key": 1, "npc": 1, "trap": 2}
    room_for_tags = int(np.count_nonzero(weights == 0)) - 2
    if sum(counts.values()) > room_for_tags:
        with pytest.raises(ValueError, match="cannot place"):
            generate(weights, rng=seed, place=counts)
        return
    tagged = generate(weights, rng=seed, place=counts)
    again = generate(weights, rng=seed, place=counts)
    assert tagged.tags == again.tags  # reproducible
    kinds = list(tagged.tags.values())
    assert {k: kinds.count(k) for k in counts} == counts
    for cell in tagged.tags:
        assert tagged.is_cell(cell) and weights[cell] != FORBIDDEN
        assert cell not in (tagged.entrance, tagged.exit)


def test_tag_rules():
    maze = generate(np.zeros((30, 30), np.int32), rng=11, algorithm="kruskal")
    tagged = place_tags(maze, {"loot": 6, "trap": 3}, np.random.default_rng(0))
    ends = dead_ends(maze)
    far = distances(maze, maze.entrance)
    loot = [c for c, k in tagged.tags.items() if k == "loot"]
    assert all(ends[c] for c in loot)
    assert np.mean([far[c] for c in loot]) > np.percentile(far[ends], 75)
    path = {tuple(c) for c in solve(maze)}
    assert all(c in path for c, k in tagged.tags.items() if k == "trap")
    # spawns go into rooms when there are rooms
    room = (Room(tuple((r, c) for r in range(10, 14) for c in range(10, 15)), ()), [(10, 12, "N")])
    with_room = generate(np.zeros((30, 30), np.int32), rng=2, rooms=[room], place="spawn=3")
    spawns = [c for c, k in with_room.tags.items() if k == "spawn"]
    assert len(spawns) == 3 and all(c in with_room.rooms[0] for c in spawns)


def test_tags_in_the_preset_and_in_the_exports(tmp_path):
    weights = np.zeros((12, 16), np.int32)
    weights[5, 5] = TAG + 2  # loot painted into the preset: a free cell that carries it
    maze = generate(weights, rng=5, place="spawn=2")
    assert maze.tags[(5, 5)] == "loot"
    assert sorted(maze.tags.values()) == ["loot", "spawn", "spawn"]
    root = ET.fromstring(to_svg(maze, cell_size=10))
    dots = root.find("{http://www.w3.org/2000/svg}g[@id='tags']")
    found = {
        (round(float(d.get("cy")) / 10 - 0.5), round(float(d.get("cx")) / 10 - 0.5)): d.get(
            "data-kind"
        )
        for d in dots
    }
    assert found == maze.tags
    img = to_png_image(maze, cell_size=10, margin=1).convert("RGBA")
    for (r, c), kind in maze.tags.items():
        rgb = img.getpixel((10 + c * 10 + 5, 10 + r * 10 + 5))[:3]
        assert "#{:02x}{:02x}{:02x}".format(*rgb) == TAG_COLOURS[kind]


def test_shaping_through_the_command_line(tmp_path):
    word = tmp_path / "word.png"
    word_image().save(word)
    out = tmp_path / "w.svg"
    res = run_cli(
        word,
        "-o",
        out,
        "--cells",
        "100",
        "--seed",
        "2",
        "--braid",
        "0.5",
        "--prune-dead-ends",
        "--place",
        "loot=3",
    )
    assert res.returncode == 0, res.stderr
    assert "parts joined by" in res.stderr and "dead ends braided" in res.stderr
    assert "3 loot" in res.stderr
    res = run_cli(word, "-o", out, "--islands", "separate", "--seed", "2")
    assert res.returncode == 0 and "bridges" not in res.stderr
    for args, message in (
        (["--braid", "2"], "braid must be a finite number in [0, 1]"),
        (["--place", "gold=1"], "unknown tag kind"),
    ):
        res = run_cli(word, "-o", tmp_path / "bad.svg", *args)
        assert res.returncode == 2 and message in res.stderr
        assert not (tmp_path / "bad.svg").exists()
