"""Every python code block in the docs runs (each page's blocks in order, in one namespace)."""

from __future__ import annotations

import os
import re
import warnings
from pathlib import Path

import pytest

import mcda

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
        name = f"{page.name}[block {i}]"
        with warnings.catch_warnings(record=True) as caught:
            # a guide may show mcda's own warnings (they are part of what a reader sees); any
            # other warning is an error, and mcda's must point at the guide's line
            warnings.simplefilter("error")
            warnings.simplefilter("always", mcda.McdaWarning)
            # matplotlib's note when a page draws more than 20 figures (the gallery); they are closed below
            warnings.filterwarnings("ignore", "More than 20 figures", RuntimeWarning)
            try:
                exec(compile(block, name, "exec"), namespace)
            except Exception as exc:  # pragma: no cover - the message is the point
                raise AssertionError(f"{page.relative_to(DOCS)}, code block {i} failed: {exc!r}\n{block}") from exc
        assert all(w.filename == name for w in caught), [(w.filename, w.lineno, str(w.message)[:60]) for w in caught]
    import matplotlib.pyplot as plt

    plt.close("all")


def test_there_are_pages_with_code():
    assert PAGES, f"no python code blocks found under {DOCS}"
    assert os.path.isdir(DOCS)


def test_gallery_script_redraws_every_figure(tmp_path):
    """The gallery PNGs are committed from docs/scripts/make_gallery.py; CI reruns it into a temporary folder.

    The suite never rewrites tracked files: the figures go to ``tmp_path``, and every PNG the
    two gallery pages show must be drawn there (and be committed under docs/figures/).
    """
    import subprocess
    import sys

    script = DOCS / "scripts" / "make_gallery.py"
    out = subprocess.run([sys.executable, str(script), "--out", str(tmp_path)], capture_output=True, text=True,
                         timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    shown = set()
    for page in ("gallery.md", "gallery-sizes.md"):
        shown |= set(re.findall(r"\(figures/([A-Za-z0-9_.-]+\.png)\)", (DOCS / page).read_text("utf-8")))
    assert shown and all((tmp_path / name).stat().st_size > 1000 for name in shown)
    assert all((DOCS / "figures" / name).exists() for name in shown)


def test_mkdocs_builds_strictly(tmp_path):
    """`mkdocs build --strict` fails on a broken reference, a missing page or a bad docstring link."""
    import shutil
    import subprocess
    import sys

    root = DOCS.parent
    mkdocs = shutil.which("mkdocs") or str(Path(sys.executable).with_name("mkdocs"))
    out = subprocess.run([mkdocs, "build", "--strict", "--site-dir", str(tmp_path / "site")], cwd=root,
                         capture_output=True, text=True, timeout=600,
                         env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert out.returncode == 0, (out.stdout + out.stderr)[-5000:]
    assert (tmp_path / "site" / "index.html").exists()
    assert (tmp_path / "site" / "gallery" / "index.html").exists()
