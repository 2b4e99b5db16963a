"""Write the user-style benchmark files of this folder (run: python make_files.py).

8 classifiers x 20 datasets x 5 seeds of accuracy, from a seeded simulation (true method effects
below, a dataset effect and seed noise), then saved the ways people save them: a tidy file whose
method column is called `model`, with runtime and notes columns; the same in percent; one method
run with seeds 100-104; one method lacking one dataset; one cell that lost a seed.
"""

from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).parent
MODELS = ["LogReg", "SVM", "kNN", "NaiveBayes", "RandomForest", "XGBoost", "MLP", "DecisionTree"]
EFFECTS = [0.00, 0.015, -0.02, -0.035, 0.025, 0.03, 0.02, -0.03]


def base() -> pd.DataFrame:
    rng = np.random.default_rng(20261201)
    rows = []
    for d in range(20):
        level = rng.uniform(0.70, 0.90)
        for model, effect in zip(MODELS, EFFECTS):
            spread = rng.normal(0.0, 0.012)  # model x dataset interaction
            for seed in range(5):
                acc = float(np.clip(level + effect + spread + rng.normal(0.0, 0.006), 0.0, 1.0))
                rows.append({"dataset": f"openml_{d:02d}", "model": model, "seed": seed, "accuracy": round(acc, 4),
                             "runtime_s": round(float(rng.lognormal(1.0, 0.5)), 2),
                             "notes": "default hyperparameters" if model != "XGBoost" else "tuned"})
    return pd.DataFrame(rows)


def main() -> None:
    frame = base()
    frame.to_csv(HERE / "tidy_model_column.csv", index=False)
    frame.assign(accuracy=(frame["accuracy"] * 100).round(2)).to_csv(HERE / "percent_scale.csv", index=False)
    unpaired = frame.copy()
    unpaired.loc[unpaired["model"] == "MLP", "seed"] += 100  # MLP run with seeds 100-104
    unpaired.to_csv(HERE / "unpaired_seeds.csv", index=False)
    missing = frame[~((frame["model"] == "kNN") & (frame["dataset"] == "openml_07"))]  # kNN never ran on one dataset
    missing.to_csv(HERE / "one_missing_cell.csv", index=False)
    lost = frame[~((frame["model"] == "SVM") & (frame["dataset"] == "openml_03") & (frame["seed"] == 2))]
    lost.to_csv(HERE / "lost_seed.csv", index=False)


if __name__ == "__main__":
    main()
