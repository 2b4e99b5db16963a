"""Write the example notebooks of ``notebooks/`` (nbformat v4, outputs stripped).

The notebooks are generated from the cell texts in the ``_nb_*.py`` modules beside this script
so that they are easy to review and to regenerate:

    python notebooks/_make_notebooks.py            # rewrite every notebook
    python notebooks/_make_notebooks.py --check    # exit 1 if a notebook differs from its source

Cell ids are deterministic (``<notebook>-<index>``), so regenerating an unchanged source gives
byte-identical files. ``tests/test_notebooks.py`` executes every notebook with nbclient.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent
SOURCES = sorted(HERE.glob("_nb_*.py"))


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build(module) -> tuple[str, nbformat.NotebookNode]:
    """The notebook file name and the notebook described by one ``_nb_*.py`` module."""
    stem = module.NAME
    cells = []
    for index, (kind, text) in enumerate(module.CELLS):
        text = text.strip("\n")
        if kind == "md":
            cell = new_markdown_cell(text)
        elif kind == "code":
            cell = new_code_cell(text)
        else:  # pragma: no cover - a typo in a source module
            raise ValueError(f"cell {index} of {stem}: kind must be 'md' or 'code'; got {kind!r}")
        cell["id"] = f"{stem.split('_')[0]}-{index:02d}"
        cells.append(cell)
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    nbformat.validate(nb)
    return f"{stem}.ipynb", nb


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the files on disk instead of writing")
    args = parser.parse_args(argv)
    stale = []
    for source in SOURCES:
        filename, nb = build(_load(source))
        text = nbformat.writes(nb) + "\n"
        target = HERE / filename
        if args.check:
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                stale.append(filename)
        else:
            target.write_text(text, encoding="utf-8")
            print(f"wrote {target.relative_to(HERE.parent)} ({len(nb.cells)} cells)")
    if stale:
        print("out of date (run python notebooks/_make_notebooks.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
