"""The API reference (docs/api.md) is written from the docstrings and stays true: the
committed page is what docs/make_api.py writes now, it covers every public name, and
the examples it shows run."""

from __future__ import annotations

import doctest
import importlib.util
import inspect
import sys

import pytest
from conftest import REPO

import mazeart

spec = importlib.util.spec_from_file_location("make_api", REPO / "docs" / "make_api.py")
make_api = importlib.util.module_from_spec(spec)
sys.modules["make_api"] = make_api
spec.loader.exec_module(make_api)

DOCUMENTED = [name for _, _, names in make_api.STAGES for name in names]


def resolve(path: str):
    obj = mazeart
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def test_the_committed_page_is_current():
    page = (REPO / "docs" / "api.md").read_text(encoding="utf-8")
    assert page == make_api.page(), "docs/api.md is stale: run python docs/make_api.py"


def test_every_public_name_is_documented_once():
    public = set(mazeart.__all__) - {"__version__", "rooms", "shape", "tags"}
    top = [n for n in DOCUMENTED if "." not in n]
    assert sorted(top) == sorted(set(top)), "a name is listed twice"
    assert public == set(top)


@pytest.mark.parametrize("name", DOCUMENTED)
def test_each_entry_says_what_it_is(name):
    obj = resolve(name)
    if isinstance(obj, int | dict):  # constants and registries: described by the page
        return
    doc = inspect.getdoc(obj)
    assert doc and len(doc.splitlines()[0]) > 10, f"{name} has no summary line"
    if inspect.isfunction(obj):
        params = [p for p in inspect.signature(obj).parameters if not p.startswith("_")]
        if params:
            assert "Parameters\n----------" in doc, f"{name} documents no parameters"
            for p in params:
                assert p in doc, f"{name}: parameter {p} is not described"


def test_the_pages_examples_run():
    """Every example on the page is a docstring example of a documented object or one of
    its members; run each with its module's names, as doctest would."""
    finder, runner = (
        doctest.DocTestFinder(recurse=False),
        doctest.DocTestRunner(optionflags=doctest.ELLIPSIS),
    )
    ran = 0
    for name in DOCUMENTED:
        obj = resolve(name)
        if isinstance(obj, int | dict):
            continue
        objects = [obj]
        if inspect.isclass(obj):
            objects += [
                getattr(m, "fget", None) or getattr(m, "func", None) or m
                for _, m in make_api._members(obj)
            ]
        for item in objects:
            item = getattr(item, "__func__", item)
            module = sys.modules[getattr(item, "__module__", None) or obj.__module__]
            for test in finder.find(item, name, module=module, globs=vars(module).copy()):
                result = runner.run(test)
                assert result.failed == 0, f"an example of {name} fails"
                ran += result.attempted
    page = (REPO / "docs" / "api.md").read_text(encoding="utf-8")
    assert ran >= page.count(">>> ") > 20
