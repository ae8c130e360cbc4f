"""Metrics against values counted by hand on small mazes drawn in ASCII."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mazeart import Maze, generate
from mazeart.analyze import best_of, measure

# 3 rows x 4 columns, a tree. Counted by hand:
# solution S(0,0) (0,1) (1,1) (1,0) (2,0) (2,1) (2,2) (1,2) (0,2) (0,3) E(1,3): 11 cells;
# one dead end (2,3), length 1, off the 3-way junction (2,2); straight cells (1,2) N-S
# and (2,1) W-E; corridors of cells with <= 2 passages: 6, 4 and 1 cells.
WINDING = """
#########
#S  #   #
### # # #
#   # #E#
# ### ###
#       #
#########
"""

# 3 x 3, a cross: three junctions (two 3-way, one 4-way) on the solution, four one-cell
# dead ends, nothing straight.
CROSS = """
#######
#S# # #
# # # #
#     #
# # # #
# # #E#
#######
"""

# 2 x 3 with one loop: the ring (0,0) (0,1) (1,1) (1,0), and the exit below (0,2).
RING = """
#######
#S    #
# # # #
#   #E#
#######
"""


def test_winding_maze_by_hand():
    m = measure(Maze.from_text(WINDING))
    assert (m.rows, m.cols, m.cells, m.passages, m.parts, m.loops) == (3, 4, 12, 11, 1, 0)
    assert m.solution_length == 11
    assert m.solution_share == pytest.approx(11 / 12, abs=1e-4)
    assert m.tortuosity == pytest.approx(10 / 4)
    assert m.decisions == 1
    assert (m.dead_ends, m.dead_end_mean, m.dead_end_max) == (1, 1.0, 1)
    assert (m.junctions_3, m.junctions_4) == (1, 0)
    assert m.straightness == pytest.approx(2 / 12, abs=1e-4)
    assert m.longest_corridor == 6
    assert m.difficulty == pytest.approx(1 * 1 / math.sqrt(12), abs=1e-4)


def test_cross_maze_by_hand():
    m = measure(Maze.from_text(CROSS))
    assert (m.cells, m.passages, m.loops) == (9, 8, 0)
    assert m.solution_length == 5
    assert m.tortuosity == 1.0
    assert m.decisions == 3
    assert (m.dead_ends, m.dead_end_mean, m.dead_end_max) == (4, 1.0, 1)
    assert (m.junctions_3, m.junctions_4) == (2, 1)
    assert m.straightness == 0.0
    assert m.longest_corridor == 1
    assert m.difficulty == pytest.approx(3 * 1 / 3)


def test_ring_counts_its_loop():
    m = measure(Maze.from_text(RING))
    assert (m.cells, m.passages, m.parts, m.loops) == (6, 6, 1, 1)
    assert m.solution_length == 4  # S (0,1) (0,2) E
    assert m.decisions == 1  # at (0,1), the ring's way down
    assert m.dead_ends == 0 and (m.junctions_3, m.junctions_4) == (1, 0)
    # the wrong turn at (0,1) leads two cells deep before meeting the path again
    assert m.difficulty == pytest.approx(1 * 2 / math.sqrt(6), abs=1e-4)


def test_long_dead_end_lengths():
    text = """
    ###########
    #S        #
    # ####### #
    # #E      #
    ###########
    """
    # (0,0)..(0,4) top row, (1,0) hangs below S; (1,1) E joined to (1,2)..(1,4) and (0,4).
    m = measure(Maze.from_text(text))
    assert m.dead_ends == 1  # (1,0): a one-cell stub off the entrance
    assert m.dead_end_max == 1
    assert m.solution_length == 9
    assert m.longest_corridor == 10  # no junction anywhere but the stub's


def test_best_of_keeps_the_extremes():
    weights = np.zeros((20, 20), np.int32)
    made = [generate(weights, rng=s, algorithm="kruskal") for s in range(6)]
    scores = [measure(m).difficulty for m in made]
    hi, hard, hm = best_of(made.__getitem__, 6)
    ei, easy, em = best_of(made.__getitem__, 6, target="easy")
    mi, mid, mm = best_of(made.__getitem__, 6, target="medium")
    assert made[hi] is hard and made[ei] is easy and made[mi] is mid
    assert hm.difficulty == max(scores) and em.difficulty == min(scores)
    assert abs(mm.difficulty - np.mean(scores)) == min(abs(s - np.mean(scores)) for s in scores)
    assert hard == made[int(np.argmax(scores))] and easy == made[int(np.argmin(scores))]
    assert mid in made
    seen = []
    best_of(made.__getitem__, 6, progress=seen.append)
    assert seen == [1, 2, 3, 4, 5, 6]
    with pytest.raises(ValueError, match="target"):
        best_of(made.__getitem__, 2, target="brutal")
