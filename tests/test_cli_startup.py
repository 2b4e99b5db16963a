"""The command's start-up: what it leaves unimported, and that xarray still knows dask arrays."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).parent / "data" / "user_benchmark" / "tidy_model_column.csv"


def _python(code: str, tmp_path: Path) -> str:
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONPATH=os.pathsep.join([str(p) for p in sys.path if p]))
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=tmp_path,
                          timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_the_command_does_not_import_dask_array(tmp_path):
    out = _python(f"""
import sys
from mcda.app.cli import main
sys.argv = ["mcda", "compare", {str(DATA)!r}, "--metric", "accuracy", "--rng", "0", "--out", "out", "--no-figures"]
code = main(stdout=open("report.txt", "w"))
print("CODE", code, "DASK_ARRAY", "dask.array" in sys.modules)
""", tmp_path)
    assert "CODE 0 DASK_ARRAY False" in out, out
    assert "Friedman" in (tmp_path / "report.txt").read_text()


def test_xarray_still_recognises_dask_arrays_imported_later(tmp_path):
    out = _python("""
import numpy as np
import xarray as xr
from packaging.version import Version
from xarray.namedarray import pycompat
from mcda.app.cli import _defer_dask_array
_defer_dask_array()
print("BEFORE", pycompat.array_type("dask"), type(xr.DataArray(np.zeros(3)).data).__name__)
import dask
import dask.array as da
masked = da.ma.masked_array(da.arange(4, chunks=2), mask=[False, True, False, False])
lazy = xr.DataArray(da.zeros(4, chunks=2), dims="x")
print("AFTER", pycompat.array_type("dask") == (da.Array,), pycompat.mod_version("dask") == Version(dask.__version__),
      lazy.chunks, type(lazy.data).__name__, np.isnan(xr.DataArray(masked).values).tolist())
""", tmp_path)
    assert "BEFORE () ndarray" in out, out
    # a masked dask array is unmasked to NaN as xarray does for its own record of dask
    assert "AFTER True True ((2, 2),) Array [False, True, False, False]" in out, out
