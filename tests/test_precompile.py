"""Kernels compiled ahead in a forked process (mcda._core._kernels._precompile), on an empty numba cache.

Each test runs in a fresh interpreter with its own empty ``NUMBA_CACHE_DIR`` (a fork from the
test process would copy pytest's state; an empty cache is the case the module is for).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).parent / "data" / "user_benchmark" / "tidy_model_column.csv"  # 8 models x 20 datasets x 5 seeds


def _python(code: str, tmp_path: Path, timeout: int = 900) -> str:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"), MPLBACKEND="Agg",
               PYTHONPATH=os.pathsep.join([str(p) for p in sys.path if p]))
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=tmp_path,
                          timeout=timeout)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


_SIGNATURES = """
import sys
from numba.core.dispatcher import Dispatcher
from mcda._core._kernels._precompile import WARM_UPS

def signatures():
    out = set()
    for name in WARM_UPS:
        module = sys.modules.get(name)
        for attr, value in vars(module or object()).items():
            if isinstance(value, Dispatcher) and value.__module__ == name:
                out |= {(name, attr, str(sig)) for sig in value.signatures}
    return out
"""


def test_warm_ups_compile_every_kernel_type_the_command_uses(tmp_path):
    # the child compiles through WARM_UPS; a type the analysis passes that they miss would compile
    # again in the parent (no wrong number, but no time saved): after the warm-ups, the command's
    # analysis (with the figures whose analyses use kernels) must add no signature
    code = _SIGNATURES + f"""
for warm in WARM_UPS.values():
    warm()
before = signatures()
from mcda.app.cli import main
assert main(["compare", {str(DATA)!r}, "--metric", "accuracy", "--rng", "0", "--out", "out", "--jobs", "1",
             "--figures", "posterior_bars,rank_stability"], stdout=open("/dev/null", "w")) == 0
after = signatures()
print("NEW", sorted(after - before))
print("MODULES", sorted({{name for name, _, _ in before}}))
"""
    out = _python(code, tmp_path)
    assert "NEW []" in out, out
    for module in ("design_power", "counts", "signed_rank", "bootstrap", "dirichlet", "rank_positions"):
        assert f"mcda._core._kernels.{module}" in out.split("MODULES")[1]


def test_the_parent_loads_what_the_child_compiled_and_waits_while_it_compiles(tmp_path):
    code = """
import time
from mcda._core._kernels import _precompile
assert _precompile.start(["mcda._core._kernels.counts", "mcda._core._kernels.signed_rank"])
state = _precompile._child
deadline = time.monotonic() + 600
while "mcda._core._kernels.counts" not in state["done"] and time.monotonic() < deadline:
    _precompile._read(state, block_until=time.monotonic() + 1)
import numpy as np
from mcda._core._kernels.counts import region_counts  # compiled by the child: loaded from the cache
region_counts(np.zeros((2, 3)), 0.0, 0.0)
print("COUNTS", sum(region_counts.stats.cache_hits.values()), sum(region_counts.stats.cache_misses.values()))
while state["current"] != "mcda._core._kernels.signed_rank" and "mcda._core._kernels.signed_rank" not in state["done"]:
    _precompile._read(state, block_until=time.monotonic() + 1)
from mcda._core._kernels.signed_rank import sum_boundaries  # the import waits for the child's module
print("DONE", sorted(state["done"]))
sum_boundaries(np.zeros(3), 0.0, 0.0)
print("SIGNED", sum(sum_boundaries.stats.cache_hits.values()), sum(sum_boundaries.stats.cache_misses.values()))
_precompile.stop()
print("MARKED", _precompile.is_marked("mcda._core._kernels.counts"), _precompile.is_marked("mcda._core._kernels.signed_rank"))
print("AGAIN", _precompile.start(["mcda._core._kernels.counts", "mcda._core._kernels.signed_rank"]))
"""
    out = _python(code, tmp_path)
    assert "COUNTS 1 0" in out, out  # loaded, not compiled
    assert "mcda._core._kernels.signed_rank" in out.split("DONE ")[1].splitlines()[0], out
    assert "SIGNED 1 0" in out, out  # loaded, not compiled
    assert "MARKED True True" in out and "AGAIN False" in out, out  # a warm cache forks nothing


def test_a_failing_or_slow_child_changes_nothing(tmp_path):
    code = """
import time
import numpy as np
from mcda._core._kernels import _precompile

def fails():
    raise RuntimeError("the child fails")

def sleeps():
    time.sleep(600)

_precompile.WARM_UPS.update({"mcda._core._kernels.counts": fails, "mcda._core._kernels.signed_rank": sleeps})
assert _precompile.start(["mcda._core._kernels.counts"])
state = _precompile._child
while not state.get("ended"):
    _precompile._read(state, block_until=time.monotonic() + 1)
from mcda._core._kernels.counts import region_counts  # the child failed on it: compiled here
wins, equivalent, shared = region_counts(np.array([[1.0, 0.0], [0.0, 0.0]]), 0.0, 0.0)
print("WINS", wins.tolist(), "MARKED", _precompile.is_marked("mcda._core._kernels.counts"))
_precompile.stop()

assert _precompile.start(["mcda._core._kernels.signed_rank"])
state = _precompile._child
while state["current"] != "mcda._core._kernels.signed_rank":
    _precompile._read(state, block_until=time.monotonic() + 1)
_precompile._WAIT_SECONDS = 1.0  # the child is late on the module needed: the parent compiles it itself
started = time.monotonic()
from mcda._core._kernels.signed_rank import sum_boundaries
print("WAITED", round(time.monotonic() - started) <= 5)
print("BOUNDARIES", [a.tolist() for a in sum_boundaries(np.array([-1.0, 0.0, 2.0]), 0.0, 0.0)])
_precompile.stop()  # ends the sleeping child
print("STOPPED", _precompile._child is None, _precompile.is_marked("mcda._core._kernels.signed_rank"))
"""
    out = _python(code, tmp_path)
    assert "WINS [[0, 1], [0, 0]] MARKED False" in out, out
    assert "WAITED True" in out and "STOPPED True False" in out, out
    # sorted z = (-1, 0, 2): the first j with z_k + z_j >= 0 is (2, 1, 0), with z_k + z_j > 0 (2, 2, 0)
    assert "BOUNDARIES [[2, 1, 0], [2, 2, 0]]" in out, out


def test_a_cold_command_writes_the_same_files_as_a_warm_one(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"), MPLBACKEND="Agg",
               PYTHONPATH=os.pathsep.join([str(p) for p in sys.path if p]))
    outs = []
    for run in ("cold", "warm"):
        command = [sys.executable, "-m", "mcda.app.cli", "compare", str(DATA), "--metric", "accuracy", "--rng", "0",
                   "--out", str(tmp_path / run), "--figures", "rank_stability"]
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stderr[-3000:]
        outs.append(done.stdout.replace(str(tmp_path / run), "OUT"))
        if run == "cold":
            marked = sorted(p.name.rsplit(".", 1)[0] for p in (tmp_path / "numba" / "mcda-precompiled").iterdir())
            assert marked == [f"mcda._core._kernels.{m}" for m in ("bootstrap", "counts", "design_power", "dirichlet",
                                                              "rank_positions", "signed_rank")]
    assert outs[0] == outs[1]
    files = sorted(p.name for p in (tmp_path / "cold").iterdir())
    assert files == sorted(p.name for p in (tmp_path / "warm").iterdir()) and "rank_stability.png" in files
    for name in files:
        if not name.endswith(".pdf"):  # a PDF carries its creation date
            assert (tmp_path / "cold" / name).read_bytes() == (tmp_path / "warm" / name).read_bytes(), name
