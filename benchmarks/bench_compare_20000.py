"""``mcda compare`` on 20,000 datasets × 30 methods, end to end: this tree against the release before the regression.

Adding the Bayesian signed-rank test to the report made this run take hours (435 pairs, each
draw of its sampler weighing all 20,000 datasets) where it took about half a minute before. The
report now leaves that test out by its cost and says so (``Report.signed_rank_skipped``). This
script guards that: it writes the CSV (seeded), runs ``mcda compare --no-figures`` on it with
this tree and with the reference commit (a temporary ``git worktree``, ``PYTHONPATH`` at its
``src``), interleaved, warm (a first run of each fills numba's cache), and prints wall time, CPU
time and peak memory of each and their ratio. The reference, ``afc0d4e^``, is the last commit
before the report ran the signed-rank test.

Run from the repository root::

    python benchmarks/bench_compare_20000.py               # about 5 minutes
    python benchmarks/bench_compare_20000.py --datasets 5000
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = "afc0d4e^"


def write_csv(path: Path, n_datasets: int, n_methods: int) -> None:
    rng = np.random.default_rng(0)
    scores = (0.7 + rng.normal(0, 0.05, (n_datasets, 1)) + np.linspace(0, 0.03, n_methods)
              + rng.normal(0, 0.01, (n_datasets, n_methods)))
    frame = pd.DataFrame({"dataset": np.repeat([f"ds{i}" for i in range(n_datasets)], n_methods),
                          "method": np.tile([f"m{j}" for j in range(n_methods)], n_datasets),
                          "accuracy": np.clip(scores, 0, 1).round(4).ravel()})
    frame.to_csv(path, index=False)


def run(tree: Path, csv: Path, out: Path) -> tuple[float, float, float, str]:
    """(wall s, CPU s, peak RSS MiB, last line) of one ``mcda compare`` with ``tree``'s code."""
    module = "mcda" if (tree / "src" / "mcda" / "__main__.py").exists() else "mcda.cli"
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    argv = ["mcda", "compare", str(csv), "--metric", "accuracy", "--rng", "0", "--no-figures", "--out", str(out),
            "--force"]
    # the command's own peak memory, printed on its way out (RUSAGE_CHILDREN would give the largest child so far)
    code = ("import atexit, resource, runpy, sys; sys.argv = " + repr(argv) + "; atexit.register(lambda: "
            "print('PEAK_MIB', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, file=sys.stderr)); "
            f"runpy.run_module({module!r}, run_name='__main__')")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    last = (done.stdout.strip().splitlines() or ["?"])[-1] if done.returncode == 0 else \
        "failed: " + (done.stderr.strip().splitlines() or ["?"])[-1]
    peaks = [float(line.split()[1]) for line in done.stderr.splitlines() if line.startswith("PEAK_MIB")]
    return wall, cpu, (peaks[-1] if peaks else float("nan")), last


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=int, default=20_000)
    parser.add_argument("--methods", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=1, help="warm runs of each tree (the fastest counts)")
    parser.add_argument("--ref", default=REFERENCE)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        csv = tmp / "scores.csv"
        write_csv(csv, args.datasets, args.methods)
        ref = tmp / "ref"
        subprocess.run(["git", "worktree", "add", "--detach", str(ref), args.ref], cwd=ROOT, check=True,
                       capture_output=True)
        try:
            trees = {"reference " + args.ref: ref, "this tree": ROOT}
            best: dict[str, tuple] = {}
            for name, tree in trees.items():  # warm-up: each tree's numba cache
                run(tree, csv, tmp / "out")
            for _ in range(args.repeats):
                for name, tree in trees.items():
                    result = run(tree, csv, tmp / "out")
                    if name not in best or result[0] < best[name][0]:
                        best[name] = result
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(ref)], cwd=ROOT, capture_output=True)
    print(f"mcda compare --no-figures on {args.datasets:,} datasets x {args.methods} methods (warm, best of "
          f"{args.repeats}); load average {os.getloadavg()[0]:.1f}")
    print(f"{'':28} {'wall s':>8} {'CPU s':>8} {'peak MiB':>9}")
    for name, (wall, cpu, peak, _) in best.items():
        print(f"{name:28} {wall:8.1f} {cpu:8.1f} {peak:9.0f}")
    (w_ref, c_ref, *_), (w_this, c_this, *_) = best.values()
    print(f"ratio this / reference: wall {w_this / w_ref:.2f}x, CPU {c_this / c_ref:.2f}x")
    print(f"this tree's last line: {best['this tree'][3]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
