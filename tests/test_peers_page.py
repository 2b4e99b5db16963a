"""docs/peers.md has one row per registered procedure, and every row names tests that exist."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from mcda.stats.procedures import PROCEDURES

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "peers.md"
ROW = re.compile(r"^\| `([a-z0-9-]+)` \|(.*)\|\s*$", re.M)
TEST = re.compile(r"`tests/(test_[a-z0-9_]+\.py)::(test_[A-Za-z0-9_]+)`")


def _rows() -> dict:
    rows: dict = {}
    for name, rest in ROW.findall(PAGE.read_text(encoding="utf-8")):
        assert name not in rows, f"two rows for {name!r}"
        rows[name] = rest
    return rows


def test_every_registered_procedure_has_exactly_one_row():
    rows = _rows()
    assert sorted(set(PROCEDURES) - set(rows)) == [], "registered procedures without a row on docs/peers.md"
    assert sorted(set(rows) - set(PROCEDURES)) == [], "rows on docs/peers.md for names that are not registered"


def test_every_row_names_tests_that_exist():
    defined: dict = {}
    for name, rest in _rows().items():
        cited = TEST.findall(rest.rsplit("|", 1)[-1])
        assert cited, f"the row of {name!r} names no test in its last column"
        for module, function in cited:
            if module not in defined:
                path = ROOT / "tests" / module
                assert path.exists(), f"{name!r}: tests/{module} does not exist"
                tree = ast.parse(path.read_text(encoding="utf-8"))
                defined[module] = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
            assert function in defined[module], f"{name!r}: tests/{module}::{function} does not exist"


def test_the_page_is_in_the_navigation_and_linked_from_the_index():
    assert "peers.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "(peers.md)" in (ROOT / "docs" / "index.md").read_text(encoding="utf-8")


def test_every_test_named_on_the_page_exists():
    # the rows of registered procedures and the other functions' table alike
    defined: dict = {}
    for module, function in TEST.findall(PAGE.read_text(encoding="utf-8")):
        if module not in defined:
            tree = ast.parse((ROOT / "tests" / module).read_text(encoding="utf-8"))
            defined[module] = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        assert function in defined[module], (module, function)
