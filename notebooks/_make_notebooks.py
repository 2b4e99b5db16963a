"""Write and execute the example notebooks of ``notebooks/`` (nbformat v4, shipped with their outputs).

The notebooks are generated from the cell texts in the ``_nb_*.py`` modules beside this script
so that they are easy to review, then executed top to bottom (nbclient, kernel ``python3``, in a
temporary directory) so that they ship with their outputs, as the README promises:

    python notebooks/_make_notebooks.py            # rewrite and execute every notebook
    python notebooks/_make_notebooks.py --check    # exit 1 if a notebook's cells differ from its source

Cell ids are deterministic (``<notebook>-<index>``). ``tests/test_notebooks.py`` checks that the
stored cells are the sources', that every code cell carries its outputs without an error, and
executes every notebook again.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
import tempfile
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


#: Run in the kernel before the first cell and not stored: warnings print as "Category: message",
#: without the file and line they point at (a temporary ipykernel file or this machine's install),
#: so that no stored output holds a machine path and a re-run prints the same text.
SETUP = ("import warnings\n"
         "warnings.formatwarning = lambda message, category, *args, **kwargs: f'{category.__name__}: {message}\\n'")
#: A code cell whose source holds this marker prints what differs on every run (wall-clock
#: timings): :func:`text_outputs` leaves it out of the comparison of a re-run with the stored text.
VARIES = "# varies:"
# mcda's progress line, shown by elapsed time: "name: 25%, about 7 s left" while it runs, "name: 100%, 0.6 s" at the end
_PROGRESS = re.compile(r"\r?[^\r\n]*: +\d+%, (?:about \d+ s left|[\d.]+ s) *")


def execute(nb: nbformat.NotebookNode, *, timeout: int = 300) -> nbformat.NotebookNode:
    """Run every cell of ``nb`` in a fresh ``python3`` kernel, in a temporary directory; the outputs stay in it.

    :data:`SETUP` runs first as a cell of its own, removed afterwards (the cells keep counts 1, 2, ...).
    """
    import nbclient
    from nbformat.v4 import new_code_cell

    nb.cells.insert(0, new_code_cell(SETUP))
    try:
        with tempfile.TemporaryDirectory() as workdir:
            client = nbclient.NotebookClient(nb, timeout=timeout, kernel_name="python3",
                                             resources={"metadata": {"path": workdir}})
            client.execute()
    finally:
        del nb.cells[0]
    for cell in nb.cells:
        if cell.cell_type == "code" and cell.get("execution_count") is not None:
            cell["execution_count"] -= 1
            for output in cell.get("outputs", []):
                if output.get("execution_count") is not None:
                    output["execution_count"] -= 1
    nb.metadata.pop("widgets", None)
    return nb


def text_outputs(nb: nbformat.NotebookNode) -> list:
    """Every code cell's outputs as text (streams, plain, Markdown and HTML), mcda's progress lines
    removed; a cell marked :data:`VARIES` gives None. Two runs of a notebook must give the same list."""
    cells = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        if VARIES in cell.source:
            cells.append(None)
            continue
        texts = []
        for output in cell.get("outputs", []):
            kind = output.get("output_type")
            if kind == "stream":
                text = _PROGRESS.sub("", output.get("text", "")).strip("\n")
                if text.strip():
                    texts.append((output.get("name"), text))
            elif kind in ("execute_result", "display_data"):
                data = output.get("data", {})
                texts += [(key, data[key] if isinstance(data[key], str) else "".join(data[key]))
                          for key in ("text/plain", "text/markdown", "text/html") if key in data]
            elif kind == "error":
                texts.append(("error", f"{output.get('ename')}: {output.get('evalue')}"))
        merged = []  # a stream may arrive in several chunks: consecutive chunks of one stream joined
        for name, text in texts:
            if merged and name in ("stdout", "stderr") and merged[-1][0] == name:
                merged[-1] = (name, merged[-1][1] + "\n" + text)
            else:
                merged.append((name, text))
        cells.append(merged)
    return cells


def _cells(nb) -> list:
    return [(c.cell_type, c.source) for c in nb.cells]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the files on disk instead of writing")
    args = parser.parse_args(argv)
    stale = []
    for source in SOURCES:
        filename, nb = build(_load(source))
        target = HERE / filename
        if args.check:
            if not target.exists() or _cells(nbformat.read(target, as_version=4)) != _cells(nb):
                stale.append(filename)
        else:
            nb = execute(nb)
            target.write_text(nbformat.writes(nb) + "\n", encoding="utf-8")
            print(f"wrote {target.relative_to(HERE.parent)} ({len(nb.cells)} cells, executed)")
    if stale:
        print("out of date (run python notebooks/_make_notebooks.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
