"""A representative subset of the hostile-input corpus (``tests/hostile.py``).

Each case runs the real ``mazeart`` command in a process of its own and must fail
the way the command line promises (see :mod:`hostile`): the expected exit status,
one line on stderr, no traceback, no file created, changed or left half-written,
at most 1 GiB of memory, an answer within 60 s. ``python tests/hostile.py`` runs
the whole corpus.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hostile import Result, corpus, remove_run, run_cases, show

SUBSET = (
    # sizes: counts past their caps, drawings too large, files that claim huge grids
    "sizes-cells-1000000000-svg",
    "sizes-cell-size-1e300-png",
    "sizes-maze-rows1e5-cols1e5-info",
    "sizes-npy-1e5x1e5-i4-svg",
    "sizes-preset-png-30000x30000-svg",
    "sizes-rooms-rect-1e8-json-svg",
    "sizes-bomb-13000x13000-svg",
    "sizes-past-the-cost-hex",
    "sizes-svg-masks-in-masks",
    # nesting: JSON and TOML deeper than the parsers (or the code after them) recurse
    "nesting-rooms-json-rect-100000-svg",
    "nesting-rooms-toml-array-100000-svg",
    "nesting-maze-meta-900-info",
    "nesting-preset-png-chunk-100000-svg",
    "nesting-best-times-100000-play-tty",
    # nonfinite: NaN, infinities and overflowing numbers in files and options
    "nonfinite-seed-Infinity-html",
    "nonfinite-rooms-rect-3-Infinity-svg",
    "nonfinite-maze-tone-nan-png",
    "nonfinite-bias-nan-svg-a-growing-tree",
    "nonfinite-rooms-toml-5000-digits",
    "nonfinite-centre-10000,0",
    # control: escape sequences and markup in names, kinds and file names
    "control-maze-tag-esc-clear-svg",
    "control-maze-tag-script-html",
    "control-maze-room-name-nul-tmx",
    "control-rooms-name-error-esc-clear",
    "control-output-name-esc-svg",
    "control-maze-tag-surrogate-svg",
    # special: FIFOs, directories, devices, loops, unreadable and sparse files
    "special-fifo-source-in.json-svg",
    "special-fifo-rooms-r.toml-svg",
    "special-dir-output-out.svg",
    "special-zero-link-source-in.png-svg",
    "special-locked-dir-svg",
    "special-sparse-8g-json",
    # partial: a job that fails half-way leaves every file as it was
    "partial-animate-missing-dir",
    "partial-animate-locked-dir",
    "partial-tiles-exists-level.tmj",
    "partial-readonly-output-ro.svg",
    "partial-book-bad-second-source",
    "partial-output-is-source",
    # signals: interrupted, terminated, killed, and a reader that goes away
    "signals-sigint-working",
    "signals-sigint-writing",
    "signals-sigterm-writing",
    "signals-sigterm-batch",
    "signals-sigkill-stale-part-rerun",
    "signals-closed-stdout-ascii",
)


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Result]]:
    """Every case of the subset, run two at a time."""
    root = Path(tmp_path_factory.mktemp("hostile"))
    try:
        yield run_cases(SUBSET, root, jobs=2)
    finally:
        remove_run(root)


def test_subset_is_in_the_corpus() -> None:
    cases = corpus()
    assert [n for n in SUBSET if n not in cases] == []
    assert {cases[n].cls for n in SUBSET} == {c.cls for c in cases.values()}


@pytest.mark.parametrize("name", SUBSET)
def test_hostile_input(name: str, results: dict[str, Result]) -> None:
    result = results[name]
    argv = " ".join(show(a) for a in corpus()[name].argv)
    detail = "\n".join(f"{kind}: {show(what)}" for kind, what in result.failures.items())
    stderr = "\n".join(show(line) for line in result.stderr.splitlines()[:3])
    if result.failures:
        pytest.fail(f"mazeart {argv}\n{detail}\nstderr:\n{stderr}", pytrace=False)
