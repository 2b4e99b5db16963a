"""Run benchmark scripts on this tree and on a reference commit, in one run, and print their ratios side by side.

Every ``bench_*.py`` prints mcda's speed as a ratio against a peer timed in the same process
("12.3x", "45×"). A change that should not change speed (a reorganisation of the package, say)
is checked by running the same scripts on both trees, interleaved, and reading each ratio of
this tree next to the reference's: the peer's time is the yardstick that cancels the machine's
load. Each tree runs its own copy of the script (module paths may differ between the trees).

The reference is checked out as a temporary ``git worktree`` and run with ``PYTHONPATH`` at its
``src``; the first run of each tree fills its numba cache and is not counted (``--warm-up``).

Run from the repository root::

    python benchmarks/compare_trees.py --ref fa22fbe bench_ranks.py bench_frequentist.py
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RATIO = re.compile(r"(\d+(?:\.\d+)?)\s*[x×](?!\s*[\d(])")
# a ratio column printed bare, after a time: "33.6 ms     13.5"
AFTER_TIME = re.compile(r"(?<![\d.])\d+(?:\.\d+)?\s*(?:ms|µs|us|s)\s+(\d+(?:\.\d+)?)(?![\d.]*\s*(?:ms|µs|us|s)\b)")


def run(tree: Path, script: str, extra: list[str]) -> str:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    done = subprocess.run([sys.executable, str(tree / "benchmarks" / script), *extra], cwd=tree, env=env,
                          capture_output=True, text=True)
    if done.returncode != 0:
        return f"failed: {(done.stderr.strip().splitlines() or ['?'])[-1]}"
    return done.stdout


def ratios(output: str) -> list[tuple[str, float]]:
    """(the line's words before its first ratio, the ratio) of every line that prints one."""
    rows = []
    for line in output.splitlines():
        for m in list(RATIO.finditer(line)) or list(AFTER_TIME.finditer(line))[:1]:
            label = re.sub(r"\s+", " ", line[:m.start()]).strip()[:44]
            after = re.sub(r"\s+", " ", line[m.end():]).strip()[:16]
            rows.append((f"{label} [{after}]" if after else label, float(m.group(1))))
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scripts", nargs="+", help="bench_*.py files of benchmarks/")
    parser.add_argument("--ref", required=True, help="the reference commit")
    parser.add_argument("--repeats", type=int, default=2, help="runs of each script on each tree, interleaved (their ratios are averaged)")
    parser.add_argument("--args", default="", help="extra arguments for every script")
    args = parser.parse_args(argv)
    extra = args.args.split()
    with tempfile.TemporaryDirectory() as tmp:
        ref = Path(tmp) / "ref"
        subprocess.run(["git", "worktree", "add", "--detach", str(ref), args.ref], cwd=ROOT, check=True,
                       capture_output=True)
        try:
            for script in args.scripts:
                best: dict[str, list[tuple[str, float]]] = {}
                for tree, name in ((ref, "ref"), (ROOT, "this")):
                    run(tree, script, extra)  # warm-up: numba's cache, imports
                for _ in range(args.repeats):
                    for tree, name in ((ref, "ref"), (ROOT, "this")):
                        rows = ratios(run(tree, script, extra))
                        if name not in best or len(best[name]) != len(rows):
                            best[name] = rows
                        else:
                            best[name] = [(lab, r + new) for (lab, r), (_, new) in zip(best[name], rows)]
                best = {name: [(lab, r / args.repeats) for lab, r in rows] for name, rows in best.items()}
                print(f"\n== {script}: each line's ratio against its yardstick, mean of {args.repeats} runs; the "
                      "words in [ ] say which way is faster ('slower than mcda': higher is better, 'of floor': lower)")
                print(f"{'line':<62} {args.ref[:10]:>10} {'this tree':>10} {'this/ref':>9}")
                for (label, r_ref), (_, r_this) in zip(best.get("ref", []), best.get("this", [])):
                    change = f"{r_this / r_ref:>9.2f}" if r_ref else f"{'n/a':>9}"
                    print(f"{label:<62} {r_ref:>10.2f} {r_this:>10.2f} {change}")
                if len(best.get("ref", [])) != len(best.get("this", [])):
                    print(f"  (the trees print different lines: ref {len(best.get('ref', []))}, "
                          f"this {len(best.get('this', []))})")
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(ref)], cwd=ROOT, capture_output=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
