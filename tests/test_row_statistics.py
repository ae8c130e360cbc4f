"""Statistical tests of the choices the row-by-row square generators make.

The sidewinder, the binary tree and Eller's algorithm each make a maze out of
independent coin flips and uniform picks, so what their mazes look like has an
exact law that the textbook algorithm fixes. These tests read those choices
back off the public result, ``mazeart.generate(weights, algorithm=NAME, rng=SEED)``
on free rectangles, and hold them against that law with SciPy's exact binomial
and chi-square tests:

- sidewinder: each cell of a row below the top carves east with probability 1/2
  (else closes its run), runs close independently (the first run of a row is
  geometric), and the cell of a run that opens north is uniform over the run;
- binary tree (north/west, as ``binary_tree.py`` documents it): every cell off
  the top row and left column opens exactly one of north or west, north with
  probability 1/2, independently of its neighbours;
- Eller's: two adjacent cells of different sets on a row that is not the last
  are joined with probability 1/2; every set opens south at least once; a set of
  ``s`` cells opens south through each cell with probability 1/2 and, if that
  opened none, through one uniformly chosen cell, so it has ``j`` ways down with
  probability ``C(s, j) / 2**s`` for ``j >= 2`` and ``(s + 1) / 2**s`` for ``j = 1``;
- all three: every maze is a spanning tree (checked with a breadth-first search
  written here, not the package's).

Significance. Every statistical test passes when its p-value exceeds ``ALPHA =
1e-6``. Under the null hypothesis (a correct generator) a p-value falls below
``ALPHA`` with probability at most ``ALPHA`` (exactly so for the binomial test,
to the chi-square approximation for the others, whose expected counts are kept
at 100 or more), so a correct implementation fails each test with probability
about 1e-6. The seeds are fixed, so a run is reproducible. Each test notes the
smallest bias it detects at this sample size, and the tests at the end run the
same statistics on synthetic mazes from vectorised reference generators written
here: fair ones must pass (test_fair_reference_generators_pass_every_statistic),
slightly biased ones must be rejected (test_statistics_detect_bias), and broken
mazes must fail the structural checks (test_structure_checks_detect_broken_mazes).
So the tests can fail.

The merges Eller's makes below row 0 are coins taken only where the earlier
coins left two different sets; choosing which coins to look at from the past
leaves them fair, independent coins, so their count is binomial as well.
"""

from __future__ import annotations

import functools
from math import comb

import numpy as np
import pytest
from scipy import stats

import mazeart

N, E, S, W = 1, 2, 4, 8  # passage bits of Maze.passages

ALPHA = 1e-6  # a correct generator fails a test with probability ~ALPHA
MIN_EXPECTED = 100  # the chi-square tail at ALPHA is trustworthy for large expected counts
N_MAZES = 3000  # per algorithm, seeds 0 .. N_MAZES - 1
SHAPE = (8, 8)


# --- the mazes --------------------------------------------------------------------------


@functools.cache
def sample(algorithm: str) -> np.ndarray:
    """The ``(N_MAZES, H, W)`` passage bits of ``algorithm`` on a free rectangle."""
    weights = np.zeros(SHAPE, np.int32)
    return np.stack(
        [
            mazeart.generate(weights, algorithm=algorithm, rng=seed).passages
            for seed in range(N_MAZES)
        ]
    )


def bit(stack: np.ndarray, b: int) -> np.ndarray:
    return (stack & b) != 0


def from_links(east: np.ndarray, south: np.ndarray) -> np.ndarray:
    """Symmetric passage bits from ``(n, H, W)`` "open east" / "open south" grids."""
    e = east.astype(np.uint8)
    s = south.astype(np.uint8)
    p = e * E | s * S
    p[:, :, 1:] |= e[:, :, :-1] * W
    p[:, 1:, :] |= s[:, :-1, :] * N
    return p


# --- statistics -------------------------------------------------------------------------


def chisq_p(observed, probs) -> float:
    """Chi-square goodness of fit of counts ``observed`` against probabilities ``probs``."""
    observed = np.asarray(observed, dtype=np.int64)
    probs = np.asarray(probs, dtype=float)
    assert abs(probs.sum() - 1) < 1e-12
    expected = probs * observed.sum()
    assert expected.min() >= MIN_EXPECTED, f"too few samples: expected {expected}"
    return float(stats.chisquare(observed, expected).pvalue)


def binom_p(successes: int, trials: int, p: float = 0.5) -> float:
    return float(stats.binomtest(int(successes), int(trials), p).pvalue)


def independence_p(x: np.ndarray, y: np.ndarray) -> float:
    """Chi-square test of independence of two boolean samples of equal shape (2x2 table)."""
    table = np.array(
        [[np.sum(~x & ~y), np.sum(~x & y)], [np.sum(x & ~y), np.sum(x & y)]], dtype=np.int64
    )
    res = stats.chi2_contingency(table, correction=False)
    assert res.expected_freq.min() >= MIN_EXPECTED
    return float(res.pvalue)


# --- sidewinder -------------------------------------------------------------------------


def observe_sidewinder(stack: np.ndarray) -> dict:
    """The runs of the rows below the top: each run's length and where it opens north.

    A run is a maximal stretch of a row joined east. ``north`` is the offset in its
    run of the one cell that opens north, or -1 when the run opens north other than
    exactly once. ``first`` is the length of the run that starts a row.
    """
    n, h, w = stack.shape
    has_n, has_e = bit(stack, N), bit(stack, E)
    lengths, norths, first = [], [], []
    for r in range(1, h):
        start = np.zeros(n, np.int64)
        count = np.zeros(n, np.int64)
        pos = np.zeros(n, np.int64)
        for c in range(w):
            up = has_n[:, r, c]
            count += up
            pos = np.where(up, c - start, pos)
            closes = ~has_e[:, r, c] if c < w - 1 else np.ones(n, bool)
            lengths.append((c - start + 1)[closes])
            norths.append(np.where(count == 1, pos, -1)[closes])
            first.append((c - start + 1)[closes & (start == 0)])
            start = np.where(closes, c + 1, start)
            count[closes] = 0
    return {
        "length": np.concatenate(lengths),
        "north": np.concatenate(norths),
        "first": np.concatenate(first),
        "east": has_e[:, 1:, :-1],
    }


def sidewinder_north_p(obs: dict, k: int) -> float:
    """Where a run of ``k`` cells opens north: uniform over its ``k`` cells."""
    at = obs["north"][(obs["length"] == k) & (obs["north"] >= 0)]
    return chisq_p(np.bincount(at, minlength=k), np.full(k, 1 / k))


def sidewinder_east_p(obs: dict) -> float:
    """East passages off the last column below the top row: each a fair coin."""
    east = obs["east"]
    return binom_p(east.sum(), east.size)


def sidewinder_first_run_p(obs: dict, width: int = SHAPE[1]) -> float:
    """Length of a row's first run: the run closes at each cell with probability 1/2,
    independently, so ``P(k) = 2**-k`` for ``k < W`` and ``2**-(W-1)`` for ``k = W``."""
    probs = [2.0**-k for k in range(1, width)] + [2.0 ** -(width - 1)]
    counts = np.bincount(obs["first"], minlength=width + 1)[1:]
    return chisq_p(counts, probs)


def test_sidewinder_structure():
    """The top row is one corridor, and every run below it opens north exactly once."""
    stack = sample("sidewinder")
    assert bit(stack[:, 0, :-1], E).all()
    obs = observe_sidewinder(stack)
    assert (obs["north"] >= 0).all(), f"{np.sum(obs['north'] < 0)} runs not opening north once"


@pytest.mark.parametrize("k", [2, 3, 4, 5])
def test_sidewinder_north_cell_is_uniform_over_its_run(k):
    # Why it can fail: about 23500 / 10600 / 4600 / 2000 runs of length 2 / 3 / 4 / 5 in the
    # sample, so the chi-square at ALPHA rejects one cell of the run chosen more (or less)
    # often than 1/k by about 0.016 / 0.024 / 0.035 / 0.052 (an off-by-one that never or
    # always picks the cell where the run closed is far beyond that; see
    # test_statistics_detect_bias[sidewinder-last_bias]).
    p = sidewinder_north_p(observe_sidewinder(sample("sidewinder")), k)
    assert p > ALPHA, f"north cell of runs of {k} not uniform, p = {p:.3g}"


def test_sidewinder_closes_runs_with_probability_one_half():
    # Why it can fail: 147000 coins (7 rows x 7 columns x 3000 mazes), so the binomial test
    # at ALPHA rejects P(east) off 1/2 by about 0.0064.
    obs = observe_sidewinder(sample("sidewinder"))
    p = sidewinder_east_p(obs)
    east = obs["east"]
    assert p > ALPHA, f"P(east) = {east.mean():.4f} over {east.size} cells, p = {p:.3g}"


def test_sidewinder_run_lengths_are_geometric():
    # Why it can fail: 21000 first runs (at least 164 expected in each length class) reject
    # coins that depend on each other, e.g. a sticky coin that repeats the cell before's
    # decision 10% of the time, which the marginal frequency above cannot see.
    p = sidewinder_first_run_p(observe_sidewinder(sample("sidewinder")))
    assert p > ALPHA, f"first-run lengths not geometric, p = {p:.3g}"


# --- binary tree ------------------------------------------------------------------------


def binary_choices(stack: np.ndarray) -> np.ndarray:
    """``True`` where a cell off the top row and the left column opened north."""
    return bit(stack[:, 1:, 1:], N)


def binary_north_p(stack: np.ndarray) -> float:
    north = binary_choices(stack)
    return binom_p(north.sum(), north.size)


def binary_independence_p(stack: np.ndarray, axis: str) -> float:
    """2x2 independence of the choices of east or south neighbours. The pairs do not
    overlap (columns or rows 1-2, 3-4, 5-6, ... of the grid), so they are independent
    samples of the pair under the null hypothesis."""
    north = binary_choices(stack)  # grid rows/columns 1.. are its 0..
    if axis == "east":
        m = north.shape[2] // 2 * 2
        return independence_p(north[:, :, 0:m:2], north[:, :, 1:m:2])
    m = north.shape[1] // 2 * 2
    return independence_p(north[:, 0:m:2, :], north[:, 1:m:2, :])


def test_binary_tree_structure():
    """Each cell opens north or west (binary_tree.py's convention; no cell opens its own
    east or south): exactly one of them off the top row and left column, west along the
    top row, north down the left column, neither at the north-west corner."""
    stack = sample("binary-tree")
    has_n, has_w = bit(stack, N), bit(stack, W)
    assert (has_n[:, 1:, 1:] ^ has_w[:, 1:, 1:]).all()
    assert has_w[:, 0, 1:].all() and not has_n[:, 0, :].any()
    assert has_n[:, 1:, 0].all() and not has_w[:, :, 0].any()


def test_binary_tree_opens_north_with_probability_one_half():
    # Why it can fail: 147000 coins, so P(north) off 1/2 by about 0.0064 is rejected.
    north = binary_choices(sample("binary-tree"))
    p = binary_north_p(sample("binary-tree"))
    assert p > ALPHA, f"P(north) = {north.mean():.4f} over {north.size} cells, p = {p:.3g}"


@pytest.mark.parametrize("axis", ["east", "south"])
def test_binary_tree_neighbours_choose_independently(axis):
    # Why it can fail: 63000 disjoint pairs, so a correlation (phi) of about 0.0195 between
    # neighbours' choices is rejected: a cell that copies its neighbour 5% of the time, or
    # coin bits reused across cells or rows.
    p = binary_independence_p(sample("binary-tree"), axis)
    assert p > ALPHA, f"choices of {axis} neighbours depend on each other, p = {p:.3g}"


# --- Eller's ----------------------------------------------------------------------------


def observe_eller(stack: np.ndarray) -> dict:
    """Replay Eller's sets from the outside.

    Row by row, a label per cell names its set: row 0's cells start in sets of their own;
    cells joined east share a label; a cell below a south passage inherits its set, any
    other cell starts a new set. (For any maze these labels are the connected parts of
    the rows so far, which is what Eller's sets are.) It records each pair of adjacent
    cells of different sets on a row above the last (``merge_row``, ``merged``), and for
    each set of a row above the last, after the row's joins, its cells on the row
    (``size``), how many of them open south (``down``), and the offset among them of the
    one that does when only one does (``sole``). ``cycles`` counts east passages between
    cells of one set, ``unjoined`` adjacent different sets left apart on the last row.
    """
    n, h, w = stack.shape
    has_e, has_s = bit(stack, E), bit(stack, S)
    cols = np.arange(w)
    label = np.tile(cols, (n, 1))
    merge_row, merged, set_row, size, down, sole = [], [], [], [], [], []
    cycles = unjoined = 0
    for r in range(h):
        for c in range(w - 1):
            a, b = label[:, c], label[:, c + 1]
            apart, joined = a != b, has_e[:, r, c]
            cycles += int(np.sum(~apart & joined))
            if r < h - 1:
                merge_row.append(np.full(int(apart.sum()), r))
                merged.append(joined[apart])
            else:
                unjoined += int(np.sum(apart & ~joined))
            join = apart & joined
            label = np.where(join[:, None] & (label == b[:, None]), a[:, None], label)
        if r == h - 1:
            break
        same = label[:, :, None] == label[:, None, :]  # (n, cell, cell)
        before = np.tril(same, -1)  # same set, further west
        leader = ~before.any(axis=2)  # westmost cell of its set stands for it
        rank = before.sum(axis=2)  # offset of a cell among its set's cells
        south = has_s[:, r, :]
        downs = same & south[:, None, :]
        n_down = downs.sum(axis=2)
        sole_at = np.where(n_down == 1, (downs * rank[:, None, :]).sum(axis=2), -1)
        set_row.append(np.full(int(leader.sum()), r))
        size.append(same.sum(axis=2)[leader])
        down.append(n_down[leader])
        sole.append(sole_at[leader])
        label = np.where(south, label, (r + 1) * w + cols)
    cat = np.concatenate
    return {
        "merge_row": cat(merge_row),
        "merged": cat(merged),
        "set_row": cat(set_row),
        "size": cat(size),
        "down": cat(down),
        "sole": cat(sole),
        "cycles": cycles,
        "unjoined": unjoined,
    }


def down_probs(s: int) -> np.ndarray:
    """P(a set of ``s`` cells opens south through j = 1..s of them) under Eller's rule:
    a fair coin per cell, then one uniformly random cell if no coin came up."""
    probs = np.array([comb(s, j) / 2**s for j in range(1, s + 1)])
    probs[0] += 1 / 2**s
    return probs


def eller_merge_p(obs: dict, rows: str) -> float:
    keep = obs["merge_row"] == 0 if rows == "first" else np.ones(obs["merged"].size, bool)
    merged = obs["merged"][keep]
    return binom_p(merged.sum(), merged.size)


def eller_down_p(obs: dict, s: int, rows: str) -> float:
    keep = obs["size"] == s
    if rows == "first":
        keep &= obs["set_row"] == 0
    counts = np.bincount(obs["down"][keep], minlength=s + 1)
    assert counts[0] == 0, "a set with no way down"
    return chisq_p(counts[1:], down_probs(s))


def eller_sole_p(obs: dict, s: int) -> float:
    at = obs["sole"][(obs["size"] == s) & (obs["down"] == 1)]
    return chisq_p(np.bincount(at, minlength=s), np.full(s, 1 / s))


def test_eller_structure():
    """No east passage inside a set, the last row joins every set, and every set of every
    other row opens south at least once."""
    obs = observe_eller(sample("eller"))
    assert obs["cycles"] == 0
    assert obs["unjoined"] == 0
    assert (obs["down"] >= 1).all(), f"{np.sum(obs['down'] == 0)} sets with no way down"


@pytest.mark.parametrize("rows", ["first", "all"])
def test_eller_joins_different_sets_with_probability_one_half(rows):
    # Why it can fail: row 0 alone gives 21000 pure merge coins, so P(join) off 1/2 by about
    # 0.017 is rejected; all rows above the last (different sets found by replaying the
    # sets) give about 125600 coins, 0.0069.
    obs = observe_eller(sample("eller"))
    p = eller_merge_p(obs, rows)
    assert p > ALPHA, f"P(join) over {rows} rows, p = {p:.3g}"


@pytest.mark.parametrize(("s", "rows"), [(2, "first"), (2, "all"), (3, "all"), (4, "all")])
def test_eller_number_of_ways_down_follows_the_rule(s, rows):
    # Why it can fail: sets of 2 in row 0 (about 3350 sets, P(1 way down) = 3/4) reject
    # P(1) off by about 0.037; over all rows (about 17500 / 9200 / 5300 sets of 2 / 3 / 4)
    # by about 0.016 for sets of 2. A per-cell coin of 0.55 instead of 0.5, or no coin at
    # all (always exactly one way down), is far beyond that.
    p = eller_down_p(observe_eller(sample("eller")), s, rows)
    assert p > ALPHA, f"ways down of sets of {s} ({rows} rows), p = {p:.3g}"


@pytest.mark.parametrize("s", [2, 3, 4])
def test_eller_sole_way_down_is_uniform_over_the_set(s):
    # A set that opens south once does so through each of its cells alike (the coins are
    # symmetric and the forced cell is uniform). Why it can fail: about 13100 / 4600 / 1600
    # such sets of 2 / 3 / 4 reject a cell favoured by about 0.021 / 0.037 / 0.060; a forced
    # cell that is always the set's westmost gives 2/3 instead of 1/2 for sets of 2.
    p = eller_sole_p(observe_eller(sample("eller")), s)
    assert p > ALPHA, f"sole way down of sets of {s} not uniform, p = {p:.3g}"


# --- every generator: a spanning tree ---------------------------------------------------


def edges(stack: np.ndarray) -> np.ndarray:
    return bit(stack, E).sum(axis=(1, 2)) + bit(stack, S).sum(axis=(1, 2))


def reachable(stack: np.ndarray) -> np.ndarray:
    """Breadth-first search from the corner cell of every maze at once, level by level
    through the open sides: the cells it reaches."""
    has_n, has_e, has_s, has_w = (bit(stack, b) for b in (N, E, S, W))
    seen = np.zeros(stack.shape, bool)
    seen[:, 0, 0] = True
    frontier = seen.copy()
    while frontier.any():
        nxt = np.zeros_like(seen)
        nxt[:, :-1, :] |= frontier[:, 1:, :] & has_n[:, 1:, :]
        nxt[:, 1:, :] |= frontier[:, :-1, :] & has_s[:, :-1, :]
        nxt[:, :, 1:] |= frontier[:, :, :-1] & has_e[:, :, :-1]
        nxt[:, :, :-1] |= frontier[:, :, 1:] & has_w[:, :, 1:]
        frontier = nxt & ~seen
        seen |= frontier
    return seen


def tree_problems(stack: np.ndarray) -> list[str]:
    """What keeps the mazes of ``stack`` from being spanning trees of their grid."""
    _, h, w = stack.shape
    problems = []
    off = bit(stack[:, 0, :], N).any() or bit(stack[:, -1, :], S).any()
    if off or bit(stack[:, :, 0], W).any() or bit(stack[:, :, -1], E).any():
        problems.append("a passage leads off the grid")
    if (bit(stack[:, :, :-1], E) != bit(stack[:, :, 1:], W)).any() or (
        bit(stack[:, :-1, :], S) != bit(stack[:, 1:, :], N)
    ).any():
        problems.append("asymmetric passages")
    wrong = np.flatnonzero(edges(stack) != h * w - 1)
    if wrong.size:
        problems.append(f"{wrong.size} mazes without cells - 1 passages, e.g. #{wrong[0]}")
    apart = np.flatnonzero(~reachable(stack).all(axis=(1, 2)))
    if apart.size:
        problems.append(f"{apart.size} mazes not connected, e.g. #{apart[0]}")
    return problems


ALGORITHMS = ["sidewinder", "binary-tree", "eller"]
SHAPES = [(1, 1), (1, 9), (9, 1), (2, 2), (3, 11), (11, 3)]


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("shape", SHAPES, ids=[f"{h}x{w}" for h, w in SHAPES])
def test_every_maze_is_a_spanning_tree(algorithm, shape):
    weights = np.zeros(shape, np.int32)
    mazes = [mazeart.generate(weights, algorithm=algorithm, rng=seed) for seed in range(40)]
    assert all(m.mask.all() for m in mazes)
    assert tree_problems(np.stack([m.passages for m in mazes])) == []


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_every_sampled_maze_is_a_spanning_tree(algorithm):
    assert tree_problems(sample(algorithm)) == []


# --- the statistics can fail: reference generators, fair and biased ---------------------
#
# Vectorised textbook generators (numpy, seeded) with a knob for one small bias each. The
# fair ones must pass every statistic above (this also checks the expected laws, such as
# down_probs, against an independent implementation); a biased one must fail the
# statistic aimed at its bias, at the same sample size as the tests above.


def ref_sidewinder(
    rng, *, p_east=0.5, last_bias=0.0, sticky=0.0, n=N_MAZES, shape=SHAPE
) -> np.ndarray:
    """``last_bias``: the run's last cell opens north that much more often;
    ``sticky``: a cell repeats its west neighbour's decision that often."""
    h, w = shape
    east = np.zeros((n, h, w), bool)
    south = np.zeros((n, h, w), bool)
    east[:, 0, :-1] = True
    for r in range(1, h):
        start = np.zeros(n, np.int64)
        prev = np.zeros(n, bool)
        for c in range(w):
            go = rng.random(n) < p_east
            if c:
                go = np.where(rng.random(n) < sticky, prev, go)
            prev = go
            go = go if c < w - 1 else np.zeros(n, bool)
            east[:, r, c] = go
            pick = start + (rng.random(n) * (c - start + 1)).astype(np.int64)
            pick = np.where(rng.random(n) < last_bias, c, pick)
            closes = np.flatnonzero(~go)
            south[closes, r - 1, pick[closes]] = True
            start = np.where(go, start, c + 1)
    return from_links(east, south)


def ref_binary_tree(rng, *, p_north=0.5, copy_west=0.0, copy_north=0.0, n=N_MAZES, shape=SHAPE):
    """``copy_west`` / ``copy_north``: a cell copies that neighbour's choice that often."""
    h, w = shape
    north = rng.random((n, h, w)) < p_north
    for c in range(2, w):
        copy = rng.random((n, h)) < copy_west
        north[:, :, c] = np.where(copy, north[:, :, c - 1], north[:, :, c])
    for r in range(2, h):
        copy = rng.random((n, w)) < copy_north
        north[:, r, :] = np.where(copy, north[:, r - 1, :], north[:, r, :])
    north[:, 0, :] = False
    north[:, 1:, 0] = True
    west = ~north
    west[:, :, 0] = False
    east = np.zeros((n, h, w), bool)
    south = np.zeros((n, h, w), bool)
    east[:, :, :-1] = west[:, :, 1:]
    south[:, :-1, :] = north[:, 1:, :]
    return from_links(east, south)


def ref_eller(rng, *, p_join=0.5, p_down=0.5, forced="uniform", force=True, n=N_MAZES, shape=SHAPE):
    """``forced``: 'uniform' or 'westmost' cell of a set with no coin down opens south;
    ``force=False`` forgets to open such a set south at all."""
    h, w = shape
    cols = np.arange(w)
    east = np.zeros((n, h, w), bool)
    south = np.zeros((n, h, w), bool)
    label = np.tile(cols, (n, 1))
    for r in range(h):
        for c in range(w - 1):
            a, b = label[:, c], label[:, c + 1]
            join = (a != b) & ((r == h - 1) | (rng.random(n) < p_join))
            east[:, r, c] = join
            label = np.where(join[:, None] & (label == b[:, None]), a[:, None], label)
        if r == h - 1:
            break
        same = label[:, :, None] == label[:, None, :]
        down = rng.random((n, w)) < p_down
        if force:
            key = rng.random((n, w)) if forced == "uniform" else -cols.astype(float)[None, :]
            key = np.broadcast_to(key, (n, w))
            best = np.where(same, key[:, None, :], -np.inf).max(axis=2)
            none = ~(same & down[:, None, :]).any(axis=2)
            down |= none & (key == best)
        south[:, r, :] = down
        label = np.where(down, label, (r + 1) * w + cols)
    return from_links(east, south)


SIDEWINDER_STATS = {
    **{f"north{k}": functools.partial(sidewinder_north_p, k=k) for k in (2, 3, 4, 5)},
    "east": sidewinder_east_p,
    "first_run": sidewinder_first_run_p,
}
BINARY_STATS = {
    "north": binary_north_p,
    "east_pairs": functools.partial(binary_independence_p, axis="east"),
    "south_pairs": functools.partial(binary_independence_p, axis="south"),
}
ELLER_STATS = {
    "merge_first": functools.partial(eller_merge_p, rows="first"),
    "merge_all": functools.partial(eller_merge_p, rows="all"),
    "down2_first": functools.partial(eller_down_p, s=2, rows="first"),
    **{f"down{s}": functools.partial(eller_down_p, s=s, rows="all") for s in (2, 3, 4)},
    **{f"sole{s}": functools.partial(eller_sole_p, s=s) for s in (2, 3, 4)},
}


def test_reference_generators_are_spanning_trees():
    rng = np.random.default_rng(1)
    for stack in (ref_sidewinder(rng, n=300), ref_binary_tree(rng, n=300), ref_eller(rng, n=300)):
        assert tree_problems(stack) == []


def test_fair_reference_generators_pass_every_statistic():
    rng = np.random.default_rng(20240601)
    sw = observe_sidewinder(ref_sidewinder(rng))
    bt = ref_binary_tree(rng)
    el = observe_eller(ref_eller(rng))
    p = {
        **{f"sidewinder {k}": f(sw) for k, f in SIDEWINDER_STATS.items()},
        **{f"binary-tree {k}": f(bt) for k, f in BINARY_STATS.items()},
        **{f"eller {k}": f(el) for k, f in ELLER_STATS.items()},
    }
    assert min(p.values()) > ALPHA, {k: v for k, v in p.items() if v <= ALPHA}


BIASED = [
    # (generator, its bias, statistics that must reject it)
    ("sidewinder", {"p_east": 0.52}, ["east"]),
    ("sidewinder", {"last_bias": 0.08}, ["north2", "north3", "north4", "north5"]),
    ("sidewinder", {"sticky": 0.1}, ["first_run"]),
    ("binary-tree", {"p_north": 0.52}, ["north"]),
    ("binary-tree", {"copy_west": 0.05}, ["east_pairs"]),
    ("binary-tree", {"copy_north": 0.05}, ["south_pairs"]),
    ("eller", {"p_join": 0.54}, ["merge_first", "merge_all"]),
    ("eller", {"p_down": 0.55}, ["down2_first", "down2", "down3", "down4"]),
    ("eller", {"forced": "westmost"}, ["sole2", "sole3", "sole4"]),
]


@pytest.mark.parametrize(
    ("algorithm", "bias", "rejecting"), BIASED, ids=[f"{a}-{next(iter(b))}" for a, b, _ in BIASED]
)
def test_statistics_detect_bias(algorithm, bias, rejecting):
    rng = np.random.default_rng(7)
    if algorithm == "sidewinder":
        obs, statistics = observe_sidewinder(ref_sidewinder(rng, **bias)), SIDEWINDER_STATS
    elif algorithm == "binary-tree":
        obs, statistics = ref_binary_tree(rng, **bias), BINARY_STATS
    else:
        obs, statistics = observe_eller(ref_eller(rng, **bias)), ELLER_STATS
    p = {name: statistics[name](obs) for name in rejecting}
    assert max(p.values()) < ALPHA, p


def test_structure_checks_detect_broken_mazes():
    """The structural checks reject what a broken generator could make."""
    rng = np.random.default_rng(3)
    # a set Eller's forgets to send south: the set-replay sees it, and the maze falls apart
    broken = ref_eller(rng, force=False, n=200)
    assert np.any(observe_eller(broken)["down"] == 0)
    assert any("not connected" in p for p in tree_problems(broken))
    # a sidewinder run that opens north twice
    twice = ref_sidewinder(rng, n=1)
    r, c = 5, int(np.flatnonzero(~bit(twice[0, 5], N))[0])  # a cell of row 5 closed north
    twice[0, r, c] |= N
    twice[0, r - 1, c] |= S
    assert (observe_sidewinder(twice)["north"] == -1).sum() == 1
    # one passage too many (a loop) is seen by the count ...
    loop = ref_binary_tree(rng, n=1)
    r, c = np.argwhere(~bit(loop[0, :, :-1], E))[0]  # a closed east wall
    loop[0, r, c] |= E
    loop[0, r, c + 1] |= W
    assert any("cells - 1" in p for p in tree_problems(loop))
    # ... but cells - 1 passages that close a loop and cut a part off only by the search:
    # on a 2 x 3 grid, the square of columns 0-1 plus the edge down column 2
    east = np.zeros((1, 2, 3), bool)
    south = np.zeros((1, 2, 3), bool)
    east[0, :, 0] = True
    south[0, 0, :] = True
    assert tree_problems(from_links(east, south)) == ["1 mazes not connected, e.g. #0"]
