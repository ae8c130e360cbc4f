"""The registry of maze generators: one decorator, read by the CLI, the docs and the tests."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mazeart.maze import GEOMETRIES

__all__ = ["ALGORITHMS", "Algorithm", "get_algorithm", "register"]


@dataclass(frozen=True)
class Algorithm:
    """A registered generator.

    Attributes
    ----------
    name : str
        Registry key, e.g. ``"weighted-dfs"``.
    func : callable
        ``func(weights, rng, *, geometry=..., **options) -> Maze``.
    description : str
        One line for ``mazeart algorithms``.
    geometries : tuple of str
        Geometries it can carve (the first is its default).
    uniform : bool
        Whether every spanning tree of the free cells is equally likely.
    options : dict
        Keyword options beyond ``geometry`` and their defaults, read from ``func``.
    """

    name: str
    func: Callable[..., Any]
    description: str
    geometries: tuple[str, ...]
    uniform: bool
    options: dict[str, Any] = field(default_factory=dict)
    takes_rooms: bool = False
    """Whether ``func`` takes ``rooms=`` and installs them itself (the hybrid)."""

    def coerce(self, option: str, text: str) -> Any:
        """Convert a text value (from a command line) to the type of ``option``'s default.

        Raises
        ------
        ValueError
            If the algorithm has no such option or the text does not convert.
        """
        if option not in self.options:
            valid = ", ".join(self.options) or "none"
            raise ValueError(f"{self.name} has no option {option!r} (its options: {valid})")
        default = self.options[option]
        try:
            if isinstance(default, bool):
                lowered = text.strip().lower()
                if lowered not in ("true", "false", "1", "0", "yes", "no"):
                    raise ValueError
                return lowered in ("true", "1", "yes")
            if isinstance(default, int):
                return int(text)
            if isinstance(default, float):
                return float(text)
        except ValueError:
            kind = type(default).__name__
            raise ValueError(
                f"option {option!r} of {self.name} wants a {kind}, got {text!r}"
            ) from None
        return text


_PIPELINE_KEYWORDS = ("geometry", "rooms")
"""Keywords the pipeline passes itself; the others are the algorithm's options."""

_GENERATE_KEYWORDS = frozenset(
    {
        "algorithm",
        "seed",
        "entrance",
        "exit",
        "islands",
        "prune",
        "braid",
        "place",
        "walls",
        "report",
    }
)
"""Names :func:`mazeart.generate` takes itself, so no algorithm option may use them."""

ALGORITHMS: dict[str, Algorithm] = {}
"""Every registered generator by name, in registration order."""


def register(
    name: str,
    *,
    description: str,
    geometries: tuple[str, ...] = ("cells",),
    uniform: bool = False,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a generator under ``name``.

    Parameters
    ----------
    name : str
        Unique, lower-case, hyphenated.
    description : str
        One line.
    geometries : tuple of str, default ('cells',)
        Geometries the function supports.
    uniform : bool, default False
        Whether its spanning trees are uniformly distributed.

    Returns
    -------
    callable
        A decorator that returns the function unchanged.
    """
    bad = [g for g in geometries if g not in GEOMETRIES]
    if bad or not geometries:
        raise ValueError(f"unknown geometries {bad} for algorithm {name!r}")

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        if name in ALGORITHMS:
            raise ValueError(f"algorithm {name!r} is already registered")
        sig = inspect.signature(func)
        clash = set(sig.parameters) & _GENERATE_KEYWORDS
        if clash:
            raise ValueError(
                f"algorithm {name!r}: option(s) {', '.join(sorted(clash))} would clash "
                "with generate()'s own keywords"
            )
        options = {
            p.name: p.default
            for p in sig.parameters.values()
            if p.kind is inspect.Parameter.KEYWORD_ONLY and p.name not in _PIPELINE_KEYWORDS
        }
        takes_rooms = "rooms" in sig.parameters
        ALGORITHMS[name] = Algorithm(
            name, func, description, tuple(geometries), uniform, options, takes_rooms
        )
        return func

    return decorate


def get_algorithm(name: str) -> Algorithm:
    """Look up a registered generator.

    Raises
    ------
    ValueError
        Naming the valid choices when ``name`` is unknown.
    """
    try:
        return ALGORITHMS[name]
    except KeyError:
        valid = ", ".join(ALGORITHMS)
        raise ValueError(f"unknown algorithm {name!r} (choose from {valid})") from None


def check_rng(rng: Any) -> np.random.Generator:
    """Insist on an explicit :class:`numpy.random.Generator`."""
    if not isinstance(rng, np.random.Generator):
        raise ValueError(
            f"rng must be a numpy.random.Generator (np.random.default_rng(seed)), "
            f"got {type(rng).__name__}"
        )
    return rng
