"""Every python code block in the docs runs (each page's blocks in order, in one namespace)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
PAGES = sorted(p for p in DOCS.rglob("*.md") if BLOCK.search(p.read_text(encoding="utf-8")))


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(DOCS)) for p in PAGES])
def test_code_blocks_run(page, tmp_path, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    namespace: dict = {"__name__": "__docs__"}
    for i, block in enumerate(BLOCK.findall(page.read_text(encoding="utf-8"))):
        try:
            exec(compile(block, f"{page.name}[block {i}]", "exec"), namespace)
        except Exception as exc:  # pragma: no cover - the message is the point
            raise AssertionError(f"{page.relative_to(DOCS)}, code block {i} failed: {exc!r}\n{block}") from exc
    import matplotlib.pyplot as plt

    plt.close("all")


def test_there_are_pages_with_code():
    assert PAGES, f"no python code blocks found under {DOCS}"
    assert os.path.isdir(DOCS)
