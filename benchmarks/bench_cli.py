"""``mcda compare`` on the 8 × 20 × 5 benchmark file, with figures: this tree against commit e1f659f.

The targets: the warm run (numba's cache filled) at least 2× faster than at commit ``e1f659f``
(~11 s there, figures ~9 s of it), and the first run after install (an empty numba cache) at
most 2× the warm run. This script times both trees in one run,
on the same file and the same machine:

- the reference: a temporary ``git worktree`` of ``e1f659f`` in a temporary folder, run with
  ``PYTHONPATH`` pointing at its ``src`` (its ``.pyc`` files compiled first, as ``pip install``
  does, so that "cold" means only numba's cache);
- this tree (``src`` next to this folder).

This tree runs with the command line's default ``--jobs auto`` (the figures' pages drawn in
forked processes) and, warm only, with ``--jobs 1`` (one process). For each: cold runs, each
with a fresh ``NUMBA_CACHE_DIR`` (every kernel compiles), then warm runs with the cache the
first cold run filled (``--repeat`` of each, the trees interleaved; the fastest counts, cold as
warm: one unlucky run on a shared machine says nothing). Wall time and CPU time (user + system
of the command and every process it started and waited for) are printed, then the ratios.
``--jobs`` lowers the wall time, not the CPU time; on a shared machine the wall times move with
the load. On an empty cache this tree's command also forks one process that compiles the
kernels its analysis needs later (``mcda._core._kernels._precompile``): its CPU is in the cold CPU
time, and it is why the cold wall time can grow less than the cold CPU time.

Run from the repository root::

    python benchmarks/bench_cli.py            # 10 runs of mcda compare, about 3.5 minutes of CPU
    python benchmarks/bench_cli.py --warm-only
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "user_benchmark" / "tidy_model_column.csv"  # 8 models x 20 datasets x 5 seeds
REFERENCE = "e1f659f"


def run_cli(src: Path, cache: Path, out: Path, extra=()) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one ``mcda compare`` with figures, in a fresh process."""
    env = dict(os.environ, PYTHONPATH=str(src), NUMBA_CACHE_DIR=str(cache), MPLBACKEND="Agg")
    command = [sys.executable, "-m", "mcda.app.cli", "compare", str(DATA), "--metric", "accuracy", "--rng", "0",
               "--out", str(out), *extra]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=out.parent, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"mcda compare failed with {src}:\n{done.stderr[-2000:]}")
    figures = len(list(out.glob("*.png")))
    if figures == 0:
        raise SystemExit(f"mcda compare with {src} wrote no figure")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--warm-only", action="store_true", help="skip the cold runs")
    parser.add_argument("--repeat", type=int, default=2,
                        help="cold runs (each on an empty cache) and warm runs of each tree, interleaved; the "
                             "fastest of each counts (default: %(default)s)")
    parser.add_argument("--reference", default=REFERENCE, help="the commit to compare with (default: %(default)s)")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="mcda-bench-cli-"))
    reference = work / "reference"
    try:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(reference), args.reference],
                       check=True, capture_output=True)
        compileall.compile_dir(reference / "src", quiet=1)  # what pip install does; cold = numba's cache only
        trees = {f"reference {args.reference}": reference / "src", "this tree": ROOT / "src"}
        print(f"mcda compare {DATA.relative_to(ROOT)} --metric accuracy --rng 0 (with figures)")
        print(f"load average before: {os.getloadavg()[0]:.1f}")
        results = {label: {"warm": [], "cold": []} for label in trees}
        for r in range(1 if args.warm_only else args.repeat):  # cold: an empty cache each time, trees interleaved
            for i, (label, src) in enumerate(trees.items()):
                out = work / f"out-{i}-cold{r}"
                cache = work / f"numba-{i}-cold{r}"
                results[label]["cold"].append(run_cli(src, cache, out))
                results[label]["figures"] = len(list(out.glob("*.png")))
                if r == 0:  # the warm runs use the cache the first cold run filled
                    shutil.copytree(cache, work / f"numba-{i}")
                else:
                    shutil.rmtree(cache, ignore_errors=True)
            if args.warm_only:
                for t in results.values():
                    t["cold"] = []
        serial = "this tree --jobs 1"  # the figures drawn in one process: the CPU the default spreads over cores
        results[serial] = {"warm": [], "cold": [], "figures": results["this tree"]["figures"]}
        for r in range(args.repeat):  # warm: the filled cache, the trees interleaved so that both meet the same load
            for i, (label, src) in enumerate(trees.items()):
                results[label]["warm"].append(run_cli(src, work / f"numba-{i}", work / f"out-{i}-warm{r}"))
            results[serial]["warm"].append(run_cli(ROOT / "src", work / "numba-1", work / f"out-serial-warm{r}",
                                                   ("--jobs", "1")))
        print(f"load average after:  {os.getloadavg()[0]:.1f}")
        print(f"{'':22s} {'warm wall':>10s} {'warm CPU':>9s} {'cold wall':>10s} {'cold CPU':>9s}  PNG files")
        for label, t in results.items():
            for kind in ("warm", "cold"):
                runs = t.get(kind) or [(float("nan"), float("nan"))]
                t[kind] = (min(w for w, _ in runs), min(c for _, c in runs))
            cold = t["cold"]
            print(f"{label:22s} {t['warm'][0]:9.2f}s {t['warm'][1]:8.2f}s {cold[0]:9.2f}s {cold[1]:8.2f}s  "
                  f"{t['figures']}")
        old, new = results[f"reference {args.reference}"], results["this tree"]
        print(f"cores this process may use: {len(os.sched_getaffinity(0))} (--jobs auto)")
        for label in ("this tree", serial):
            t = results[label]
            print(f"warm speed-up, reference / {label}: wall {old['warm'][0] / t['warm'][0]:.2f}x, "
                  f"CPU {old['warm'][1] / t['warm'][1]:.2f}x (target: at least 2x; --jobs spreads the drawing "
                  "over cores: it lowers the wall time, not the CPU time)")
        if not args.warm_only:
            for label, t in results.items():
                if t["cold"][0] != t["cold"][0]:  # NaN: no cold run (--jobs 1 is timed warm only)
                    continue
                print(f"cold / warm, {label}: wall {t['cold'][0] / t['warm'][0]:.2f}, "
                      f"CPU {t['cold'][1] / t['warm'][1]:.2f} (target: at most 2)")
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(reference)],
                       capture_output=True)
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
