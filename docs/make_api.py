"""Write docs/api.md, the public API's reference, from the package's docstrings.

Run ``python docs/make_api.py`` after changing a public docstring or signature;
``tests/test_docs.py`` fails while the committed page differs from what this
writes, and the examples in the docstrings run as doctests with the test suite.
``python docs/make_api.py --check`` only compares.
"""

from __future__ import annotations

import argparse
import inspect
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PAGE = HERE / "api.md"

# The public names, stage by stage as the pipeline runs (every name of mazeart.__all__ but the
# three modules and __version__ appears once; tests/test_docs.py checks it).
STAGES: list[tuple[str, str, list[str]]] = [
    ("The whole pipeline",
     "A source (a picture, a preset, a saved maze or a plain rectangle) and the command line's "
     "options by their Python names in; a finished maze out, written in any format.",
     ["make", "Recipe", "At", "save", "Made", "make_many", "make_book", "make_preset", "limits",
      "Limits"]),
    ("Designs",
     "What a designer decided in the studio (paint over the picture, rooms, ends and tags in "
     "fractions of it, the options and the seed) as one file the command line renders.",
     ["Design", "load_design", "save_design", "make_design"]),
    ("Image → weights",
     "A picture becomes a preset: an int32 weight matrix, 0 free and 1000 forbidden, other "
     "values for rooms, doors and tags.",
     ["weights_from_image", "preset_from_text", "preset_to_text", "load_preset", "save_preset",
      "FREE", "FORBIDDEN", "PATH"]),
    ("Generate",
     "Every generator takes the same weight matrix and an explicit random generator and returns "
     "the same Maze.",
     ["generate", "ALGORITHMS", "default_endpoints"]),
    ("The model",
     "One Maze for every generator, solver and exporter, on every grid; rooms are reserved "
     "areas with doors.",
     ["Maze", "Guide", "Room", "Door", "load_rooms"]),
    ("Grids",
     "Squares, hexagons, triangles, polar rings, octagons with squares and weave mazes: a grid "
     "is cells, their neighbours and the shape of every cell and wall. The square grid's "
     "neighbours are arithmetic; the others hold a neighbour table.",
     ["make_grid", "Grid"]),
    ("Connect and shape",
     "Join separate parts, open dead ends into loops, prune them, place tags.",
     ["connect", "braid", "prune_dead_ends", "place_tags"]),
    ("Solve and measure",
     "Shortest paths, distances, several different paths, and the metrics of difficulty.",
     ["solve", "distances", "random_paths", "measure", "Metrics", "best_of"]),
    ("Save and export",
     "The saved-maze format, and every drawing and game format by its suffix.",
     ["save_maze", "load_maze", "EXPORT_FORMATS", "export.write", "export.to_svg",
      "export.to_png_image", "export.to_ascii"]),
    ("Errors",
     "Everything a user can get wrong raises MazeartError (a ValueError) with one line that "
     "names the problem; a wrong type raises TypeError.",
     ["MazeartError", "InvalidMazeError", "NoPathError", "FileFormatError"]),
]  # fmt: skip

_ROLE = re.compile(r":(?:func|class|meth|attr|data|mod|obj|exc):`~?([^`]+)`")
_SECTIONS = ("Parameters", "Returns", "Yields", "Raises", "Attributes", "Other Parameters")


def _inline(text: str) -> str:
    """Sphinx roles and double backticks as Markdown code."""
    return _ROLE.sub(r"`\1`", text).replace("``", "`")


def _sections(doc: str) -> list[tuple[str, list[str]]]:
    """The docstring cut at its numpydoc section headers (a title over a line of dashes)."""
    lines = doc.splitlines()
    out: list[tuple[str, list[str]]] = [("", [])]
    i = 0
    while i < len(lines):
        if (
            i + 1 < len(lines)
            and lines[i].strip()
            and set(lines[i + 1].strip()) == {"-"}
            and len(lines[i + 1].strip()) >= len(lines[i].strip())
        ):
            out.append((lines[i].strip(), []))
            i += 2
            continue
        out[-1][1].append(lines[i])
        i += 1
    return out


def _entries(lines: list[str]) -> list[str]:
    """``name : type`` entries with their indented descriptions, as a Markdown list."""
    items: list[list[str]] = []
    for line in lines:
        if line and not line[0].isspace():
            items.append([line.strip(), ""])
        elif items and line.strip().startswith("- "):  # a list inside the description
            items[-1][1] += "\n  " + line.strip()
        elif items and line.strip():
            items[-1][1] += " " + line.strip()
    out = []
    for head, text in items:
        name, _, kind = head.partition(" : ")
        label = f"`{name}`" + (f" ({_inline(kind)})" if kind else "")
        text = "\n".join(part.rstrip() for part in text.strip().split("\n"))
        out.append(f"- {label}" + (f": {_inline(text)}" if text else ""))
    return out


def _examples(lines: list[str]) -> list[str]:
    body = "\n".join(lines).strip("\n")
    return ["```pycon", body, "```"] if body else []


def render_doc(doc: str | None) -> list[str]:
    """A numpydoc docstring as Markdown lines."""
    if not doc:
        return ["*(no description)*"]
    out: list[str] = []
    for title, lines in _sections(inspect.cleandoc(doc)):
        if title in _SECTIONS:
            out += ["", f"**{title}**", "", *_entries(lines)]
        elif title == "Examples":
            out += ["", "**Examples**", "", *_examples(lines)]
        elif title:
            out += ["", f"**{title}**", "", *(_inline(x) for x in lines)]
        else:
            text, fenced = [], False
            for line in lines:  # a doctest in the summary keeps its own block
                if line.lstrip().startswith(">>>") and not fenced:
                    text.append("```pycon")
                    fenced = True
                elif fenced and not line.strip():
                    text.append("```")
                    fenced = False
                text.append(line if fenced else _inline(line))
            if fenced:
                text.append("```")
            while text and not text[-1].strip():
                text.pop()
            out += text
    while out and not out[-1].strip():
        out.pop()
    return out


class _Raw(str):
    """An annotation as written in the source (shown without quotes)."""

    def __repr__(self) -> str:
        return str(self)


def _signature(name: str, obj: Any, *, skip: int = 0) -> str:
    """``name(...)`` with the annotations as written, one parameter a line when long; the
    first ``skip`` parameters (``self``, ``cls``) and private ones (``_name``) left out."""
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return name

    def bare(annotation: Any) -> Any:
        return _Raw(annotation) if isinstance(annotation, str) else annotation

    params = [
        p.replace(annotation=bare(p.annotation))
        for p in list(sig.parameters.values())[skip:]
        if not p.name.startswith("_")
    ]
    sig = sig.replace(parameters=params, return_annotation=bare(sig.return_annotation))
    text = re.sub(r" at 0x[0-9a-f]+", "", f"{name}{sig}")
    if len(text) <= 88:
        return text
    parts = [re.sub(r" at 0x[0-9a-f]+", "", str(p)) for p in sig.parameters.values()]
    shown, star = [], False
    for p, param in zip(parts, sig.parameters.values(), strict=True):
        if param.kind is inspect.Parameter.KEYWORD_ONLY and not star:
            shown.append("*")
            star = True
        if param.kind is inspect.Parameter.VAR_POSITIONAL:
            star = True
        shown.append(p)
    ret = "" if sig.return_annotation is inspect.Signature.empty else f" -> {sig.return_annotation}"
    return f"{name}(\n" + "".join(f"    {p},\n" for p in shown) + f"){ret}"


def _members(cls: type) -> list[tuple[str, Any]]:
    """A class's own public methods and properties, in source order."""
    out = []
    for key, value in vars(cls).items():
        if key.startswith("_"):
            continue
        if isinstance(value, property | staticmethod | classmethod) or inspect.isfunction(value):
            out.append((key, value))
        elif type(value).__name__ == "cached_property":
            out.append((key, value))
    return out


def render_name(path: str) -> list[str]:
    import mazeart

    obj: Any = mazeart
    for part in path.split("."):
        obj = getattr(obj, part)
    title = f"mazeart.{path}"
    if inspect.isclass(obj):
        kind = "exception" if issubclass(obj, BaseException) else "class"
        out = [f"### `{title}`", "", f"*{kind}*", "", "```python", _signature(path, obj), "```", ""]
        out += render_doc(obj.__doc__)
        for key, member in _members(obj):
            is_property = isinstance(member, property) or type(member).__name__ == (
                "cached_property"
            )
            func = getattr(member, "fget", None) or getattr(member, "func", None) or member
            func = getattr(func, "__func__", func)
            if is_property:
                out += ["", f"#### `{path}.{key}` *(property)*", ""]
            else:
                sig = _signature(f"{path}.{key}", func, skip=1)
                out += ["", f"#### `{path}.{key}`", "", "```python", sig, "```", ""]
            out += render_doc(func.__doc__)
        return out
    if callable(obj):
        return [f"### `{title}`", "", "```python", _signature(path, obj), "```", "",
                *render_doc(obj.__doc__)]  # fmt: skip
    if isinstance(obj, int):
        return [f"### `{title}` = `{obj}`", ""]
    described = ", ".join(f"`{k}`" for k in obj)  # a registry: its keys
    return [f"### `{title}`", "", f"{type(obj).__name__} of {described}."]


def page() -> str:
    """The whole reference page."""
    out = [
        "# mazeart API reference",
        "",
        "<!-- Written by docs/make_api.py from the docstrings; edit those, not this page. -->",
        "",
        "The names below are importable from `mazeart` (`import mazeart`); the stages follow the",
        "pipeline: image → weights → generate → Maze → connect and shape → solve, measure →",
        "export. Every example runs as a doctest with the test suite.",
        "",
    ]
    out += [f"- [{title}](#{_anchor(title)})" for title, _, _ in STAGES]
    for title, about, names in STAGES:
        out += ["", f"## {title}", "", about]
        for name in names:
            out += ["", *render_name(name)]
    return "\n".join(out).rstrip() + "\n"


def _anchor(title: str) -> str:
    slug = re.sub(r"[^\w\- ]", "", title.lower()).strip()
    return slug.replace(" ", "-")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare with docs/api.md")
    args = parser.parse_args(argv)
    text = page()
    if args.check:
        same = PAGE.is_file() and PAGE.read_text(encoding="utf-8") == text
        print("docs/api.md is up to date" if same else "docs/api.md is stale")
        return 0 if same else 1
    PAGE.write_text(text, encoding="utf-8")
    print(f"wrote {PAGE.relative_to(HERE.parent)} ({len(text.splitlines())} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
