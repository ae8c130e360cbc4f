"""The registry of maze generators: one decorator, read by the CLI, the docs and the tests."""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mazeart.errors import MazeartError
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
    kernel: Callable[..., Any] | None = None
    """Its kernel written for every grid (:mod:`mazeart._kernels.carve`), or ``None`` for a
    generator of the square grid alone (rows and columns, blocks, the weight matrix)."""

    @property
    def grids(self) -> tuple[str, ...]:
        """The grid kinds it carves: every kind when it has a kernel for every grid."""
        if self.kernel is None:
            return ("square",)
        from mazeart.grids import GRIDS

        return tuple(kind for kind in GRIDS if kind != "weave")

    def coerce(self, option: str, text: str) -> Any:
        """Convert a text value (from a command line) to the type of ``option``'s default.

        Raises
        ------
        ValueError
            If the algorithm has no such option or the text does not convert.
        """
        if option not in self.options:
            valid = ", ".join(self.options) or "none"
            raise MazeartError(f"{self.name} has no option {option!r} (its options: {valid})")
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
                value = float(text)
                if not math.isfinite(value):
                    raise ValueError
                return value
        except ValueError:
            kind = type(default).__name__
            raise MazeartError(
                f"option {option!r} of {self.name} wants a {kind}, got {text!r}"
            ) from None
        return text

    def parse_args(self, tokens: Sequence[str]) -> dict[str, Any]:
        """Read command-line ``--name value`` (or ``--name=value``, ``--flag``,
        ``--no-flag``) pairs as options of this algorithm.

        >>> from mazeart.generators import get_algorithm
        >>> get_algorithm("growing-tree").parse_args(["--select", "newest", "--bias=0.2"])
        {'select': 'newest', 'bias': 0.2}

        Raises
        ------
        MazeartError
            Naming the option that is unknown, lacks a value or does not convert.
        """
        options: dict[str, Any] = {}
        rest = list(tokens)
        while rest:
            token = rest.pop(0)
            if not token.startswith("--") or token == "--":
                raise MazeartError(f"unexpected argument {token!r}")
            name, eq, value = token[2:].partition("=")
            key = name.replace("-", "_")
            negated = key.startswith("no_") and isinstance(self.options.get(key[3:]), bool)
            if negated or (isinstance(self.options.get(key), bool) and not eq):
                if eq:
                    raise MazeartError(f"--{name} takes no value")
                options[key[3:] if negated else key] = not negated
                continue
            if key not in self.options or self.options[key] is None:  # arrays: library only
                offered = ", ".join(
                    "--" + o.replace("_", "-") for o, v in self.options.items() if v is not None
                )
                takes = f"its options: {offered}" if offered else "it takes no options"
                raise MazeartError(f"no such option --{name} for algorithm {self.name} ({takes})")
            if not eq:
                if not rest or rest[0].startswith("--"):
                    raise MazeartError(f"option --{name} needs a value")
                value = rest.pop(0)
            options[key] = self.coerce(key, value)
        return options


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
    kernel: Callable[..., Any] | None = None,
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
    kernel : callable, optional
        Its kernel written for every grid (:mod:`mazeart._kernels.carve`): given one, the
        generator carves every grid kind, not only the square one.

    Returns
    -------
    callable
        A decorator that returns the function unchanged.
    """
    bad = [g for g in geometries if g not in GEOMETRIES]
    if bad or not geometries:
        raise MazeartError(f"unknown geometries {bad} for algorithm {name!r}")

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        if name in ALGORITHMS:
            raise MazeartError(f"algorithm {name!r} is already registered")
        sig = inspect.signature(func)
        clash = set(sig.parameters) & _GENERATE_KEYWORDS
        if clash:
            raise MazeartError(
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
            name, func, description, tuple(geometries), uniform, options, takes_rooms, kernel
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
        raise MazeartError(f"unknown algorithm {name!r} (choose from {valid})") from None
