"""Every example notebook in ``notebooks/`` runs from top to bottom.

The notebooks ship with their outputs (``python notebooks/_make_notebooks.py`` writes and executes
them); here the stored cells must be their sources', every code cell must carry its outputs and
no error, no output may hold a machine path, and each notebook is executed again with nbclient in
a fresh ``python3`` kernel of the current environment (ipykernel installed alongside mcda), in a
temporary working directory: a failing cell fails the test with its source and error, and a cell
that prints other text than it stores fails it too (cells marked ``# varies:``, wall-clock
timings, excepted).
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="nbformat is in the `test` extra")
nbclient = pytest.importorskip("nbclient", reason="nbclient is in the `test` extra")
pytest.importorskip("ipykernel", reason="ipykernel is in the `test` extra")

NOTEBOOKS_DIR = Path(__file__).resolve().parents[1] / "notebooks"
NOTEBOOKS = sorted(NOTEBOOKS_DIR.glob("*.ipynb"))
CELL_TIMEOUT = 300  # seconds per cell
ANSI_COLOUR = re.compile(r"\x1b\[[0-9;]*m")  # IPython colours its tracebacks


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 3, f"expected the example notebooks in {NOTEBOOKS_DIR}; found {NOTEBOOKS}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_is_stored_with_its_outputs(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    code = [(i, cell) for i, cell in enumerate(nb.cells) if cell.cell_type == "code"]
    unrun = [i for i, cell in code if cell.get("execution_count") is None]
    assert not unrun, f"{path.name}: cells {unrun} were not executed; run python notebooks/_make_notebooks.py"
    counts = [cell["execution_count"] for _, cell in code]
    assert counts == list(range(1, len(code) + 1)), f"{path.name}: cells were not run top to bottom ({counts})"
    errors = [i for i, cell in code if any(o.get("output_type") == "error" for o in cell.get("outputs", []))]
    assert not errors, f"{path.name}: cells {errors} stored an error"
    assert sum(bool(cell.get("outputs")) for _, cell in code) >= len(code) // 2, f"{path.name}: few outputs stored"


def test_notebooks_match_their_generator():
    # Compare the cells, not the file text: the JSON layout may differ between nbformat versions.
    spec = importlib.util.spec_from_file_location("_make_notebooks", NOTEBOOKS_DIR / "_make_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    built = dict(module.build(module._load(source)) for source in module.SOURCES)
    assert sorted(built) == [p.name for p in NOTEBOOKS], "every notebook has a _nb_*.py source and vice versa"
    for name, nb in built.items():
        stored = nbformat.read(NOTEBOOKS_DIR / name, as_version=4)
        assert [(c.cell_type, c.source) for c in stored.cells] == [(c.cell_type, c.source) for c in nb.cells], (
            f"{name} differs from its _nb_*.py source: run python notebooks/_make_notebooks.py")


def _generator():
    spec = importlib.util.spec_from_file_location("_make_notebooks", NOTEBOOKS_DIR / "_make_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: An absolute path of some machine in an output: a temporary ipykernel file, a home, a checkout, an install.
MACHINE_PATH = re.compile(r"(/tmp/|/var/folders/|/private/|/home/|/Users/|/root/|/work/|/opt/|/usr/|site-packages"
                          r"|\b[A-Za-z]:\\[A-Za-z])")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_no_stored_output_holds_a_machine_path(path):
    nb = nbformat.read(path, as_version=4)
    found = [(i, MACHINE_PATH.search(text).group(0), text[:120])
             for i, cell in enumerate(c for c in nb.cells if c.cell_type == "code")
             for _, text in (_generator().text_outputs(nbformat.v4.new_notebook(cells=[cell]))[0] or [])
             if MACHINE_PATH.search(text)]
    assert not found, f"{path.name}: outputs of code cells hold machine paths: {found}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_and_prints_what_it_stores(path, tmp_path, monkeypatch):
    """Executed again (as _make_notebooks.py executes it), every cell prints the text it stores: a
    stored output the code no longer gives (a renamed column, a reworded report) fails here."""
    from nbclient.exceptions import CellExecutionError

    # The kernel starts in tmp_path, so whatever a notebook writes stays out of the repository.
    monkeypatch.chdir(tmp_path)
    generator = _generator()
    stored = nbformat.read(path, as_version=4)
    nb = nbformat.read(path, as_version=4)
    try:
        generator.execute(nb, timeout=CELL_TIMEOUT)
    except CellExecutionError as exc:
        pytest.fail(f"{path.name} failed:\n{ANSI_COLOUR.sub('', str(exc))}", pytrace=False)
    code = [c for c in stored.cells if c.cell_type == "code"]
    for number, (before, after) in enumerate(zip(generator.text_outputs(stored), generator.text_outputs(nb)), 1):
        assert before == after, (f"{path.name}, code cell {number} ({code[number - 1].source.splitlines()[0]!r}) "
                                 "prints other text than it stores: run python notebooks/_make_notebooks.py")
