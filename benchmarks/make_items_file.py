"""Write a tidy Parquet file of per-item scores: 20 models × 5 benchmarks × 2,000 items, clustered.

    python benchmarks/make_items_file.py [items.parquet] [--models 20] [--benchmarks 5] [--items 2000]
                                         [--missing 25] [--csv]

Columns ``dataset, method, item, cluster, score`` (one row per model and item; ``score`` is 1.0
when the model answered the item correctly, 0.0 otherwise: the ``exact_match`` card). Each
benchmark's items come in clusters of 1 to 15 (questions sharing a passage, functions of one
repository); item labels are unique across benchmarks (``"arc/0042"``), cluster labels too.
A model's chance of answering an item is a logistic function of its skill on that benchmark,
the item's difficulty and how well the model knows the cluster's topic, so the items of a
cluster are correlated and the clustered standard errors are wider than the naive ones. The
models' skills are spread so that the leaderboard has clear leaders and a crowd of near-ties.
The last model timed out on ``--missing`` items of the first benchmark: those rows are absent
(mcda counts and names them).

The same arguments always give the same file (a fixed generator). ``mcda compare items.parquet``
analyses it.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
import pandas as pd

BENCHMARKS = ("arc", "gsm", "mmlu", "humaneval", "squad", "boolq", "hellaswag", "drop", "race", "piqa")


def make_frame(n_models: int = 20, n_benchmarks: int = 5, n_items: int = 2000, missing: int = 25,
               seed: int = 33) -> pd.DataFrame:
    """The tidy table of per-item scores (see the module docstring)."""
    if not 1 <= n_benchmarks <= len(BENCHMARKS):
        raise ValueError(f"`n_benchmarks` must lie in [1, {len(BENCHMARKS)}]; got {n_benchmarks}")
    rng = np.random.default_rng(seed)
    models = [f"model-{i:02d}" for i in range(n_models)]
    skill = np.sort(rng.normal(0.0, 0.6, n_models))[::-1]  # model-00 is the strongest on average
    frames = []
    for b, name in enumerate(BENCHMARKS[:n_benchmarks]):
        sizes = []
        while sum(sizes) < n_items:
            sizes.append(int(rng.integers(1, 16)))
        sizes[-1] -= sum(sizes) - n_items
        cluster = np.repeat(np.arange(len(sizes)), sizes)
        difficulty = rng.normal(-0.3 + 0.3 * b, 1.2, n_items)
        topic = rng.normal(0.0, 0.8, (n_models, len(sizes)))[:, cluster]
        bench_skill = skill[:, None] + rng.normal(0.0, 0.25, (n_models, 1))
        logit = bench_skill - difficulty[None, :] + topic
        correct = (rng.random((n_models, n_items)) < 1.0 / (1.0 + np.exp(-logit))).astype(np.float64)
        frame = pd.DataFrame({
            "dataset": name,
            "method": np.repeat(models, n_items),
            "item": np.tile([f"{name}/{i:04d}" for i in range(n_items)], n_models),
            "cluster": np.tile([f"{name}/c{c:03d}" for c in cluster], n_models),
            "score": correct.reshape(-1),
        })
        if b == 0 and missing:
            timed_out = rng.choice(n_items, size=min(missing, n_items), replace=False)
            lost = (frame["method"] == models[-1]) & frame["item"].isin([f"{name}/{i:04d}" for i in timed_out])
            frame = frame[~lost]
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("path", nargs="?", default="items.parquet")
    parser.add_argument("--models", type=int, default=20)
    parser.add_argument("--benchmarks", type=int, default=5)
    parser.add_argument("--items", type=int, default=2000)
    parser.add_argument("--missing", type=int, default=25)
    parser.add_argument("--csv", action="store_true", help="write CSV instead of Parquet")
    args = parser.parse_args(argv)
    frame = make_frame(args.models, args.benchmarks, args.items, args.missing)
    if args.csv:
        frame.to_csv(args.path, index=False)
    else:
        frame.to_parquet(args.path, index=False)
    print(f"wrote {args.path}: {len(frame):,} rows ({args.models} models x {args.benchmarks} benchmarks x "
          f"{args.items:,} items, {frame.groupby('dataset')['cluster'].nunique().sum():,} clusters, "
          f"{args.missing} results missing)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
