"""Every example notebook in ``notebooks/`` runs from top to bottom.

The notebooks ship with their outputs (``python notebooks/_make_notebooks.py`` writes and executes
them); here the stored cells must be their sources', every code cell must carry its outputs and
no error, and each notebook is executed again with nbclient in a fresh ``python3`` kernel of the
current environment (ipykernel installed alongside mcda), in a temporary working directory; a
failing cell fails the test with its source and error.
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


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path, tmp_path, monkeypatch):
    from nbclient.exceptions import CellExecutionError

    # The kernel starts in tmp_path, so whatever a notebook writes stays out of the repository.
    monkeypatch.chdir(tmp_path)
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    try:
        client.execute()
    except CellExecutionError as exc:
        pytest.fail(f"{path.name} failed:\n{ANSI_COLOUR.sub('', str(exc))}", pytrace=False)
