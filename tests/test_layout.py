"""The package's layout: no import cycles, and only the command line imports typer.

Every ``import`` / ``from ... import`` statement counts, wherever it stands: at
module level, inside a function, or under ``if TYPE_CHECKING``. An edge goes to
the module named (``from mazeart.maze import Maze`` → ``mazeart.maze``; ``from
mazeart import rooms`` → ``mazeart.rooms``), not to the packages above it.

Run as a script to print the graph's cycles: ``python tests/test_layout.py``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

PACKAGE = Path(__file__).resolve().parents[1] / "mazeart"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> nx.DiGraph:
    """Modules of the package and the package modules each one imports."""
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                # "from pkg import mod" imports the module pkg.mod when there is one
                targets = [
                    f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in modules
                    else node.module
                    for a in node.names
                ]  # fmt: skip
            for target in targets:
                if target in modules and target != name:
                    graph.add_edge(name, target)
    return graph


def cycles(graph: nx.DiGraph) -> list[list[str]]:
    return sorted(sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1)


def test_no_import_cycles():
    found = cycles(import_graph())
    assert found == [], f"import cycles: {found}"


def test_the_checker_finds_a_cycle():
    graph = import_graph()
    graph.add_edge("mazeart._graph", "mazeart.maze")  # maze imports _graph: a circle
    assert any({"mazeart._graph", "mazeart.maze"} <= set(c) for c in cycles(graph))


def test_only_the_command_line_imports_typer():
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text())
        names = {
            alias.name.split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom)
            for alias in (
                node.names if isinstance(node, ast.Import) else [ast.alias(node.module or "")]
            )
        }
        assert ("typer" in names) == (path.name == "cli.py"), path


def test_the_ground_floor_imports_nothing_above_it():
    """The weight contract, errors, sides, union-find, signals and file helpers sit at the
    bottom."""
    graph = import_graph()
    ground = {
        "mazeart.errors", "mazeart._graph", "mazeart._io", "mazeart._jit", "mazeart._limits",
        "mazeart._names", "mazeart._rng", "mazeart._signals", "mazeart._svg", "mazeart.weights",
    }  # fmt: skip
    for name in ground:
        assert set(graph.successors(name)) <= ground, (name, set(graph.successors(name)))


if __name__ == "__main__":
    g = import_graph()
    found = cycles(g)
    print(f"{g.number_of_nodes()} modules, {g.number_of_edges()} imports, {len(found)} cycles")
    for c in found:
        print("  cycle:", " <-> ".join(c))
