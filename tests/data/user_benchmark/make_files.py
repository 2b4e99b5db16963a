"""Write the user-style benchmark files of this folder (run: python make_files.py).

8 classifiers x 20 datasets x 5 seeds of accuracy, from a seeded simulation (true method effects
below, a dataset effect and seed noise), then saved the ways people save them: a tidy file whose
method column is called `model`, with runtime and notes columns; the same in percent; one method
run with seeds 100-104; one method lacking one dataset; one cell that lost a seed; two methods that
each lost a different seed of the same dataset; a wide table of seed means written methods x
datasets (transposed) and one written datasets x methods with an "Average" row; an unbalanced
incomplete design (several methods each missing a few datasets); a benchmark with no real
differences; and 50 methods with long names on 30 datasets.
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
    # SVM lost seed 2 and RandomForest seed 4 of openml_03: both ran the same seeds, each lost one
    two = frame[~((frame["dataset"] == "openml_03") & (((frame["model"] == "SVM") & (frame["seed"] == 2))
                                                      | ((frame["model"] == "RandomForest") & (frame["seed"] == 4))))]
    two.to_csv(HERE / "lost_seeds_two_methods.csv", index=False)
    means = frame.groupby(["dataset", "model"], sort=False)["accuracy"].mean().round(4).unstack("model")[MODELS]
    means.T.rename_axis("model").to_csv(HERE / "transposed_wide.csv")  # rows: methods; columns: datasets
    with_average = means.copy()
    with_average.loc["Average"] = means.mean().round(4)
    with_average.to_csv(HERE / "wide_with_average_row.csv")
    rng = np.random.default_rng(20261206)
    holes = frame.copy()
    for model in ("kNN", "MLP", "DecisionTree", "SVM"):  # each lacks 3 datasets, a different 3 for each
        gone = rng.choice(20, 3, replace=False)
        holes = holes[~((holes["model"] == model) & holes["dataset"].isin([f"openml_{d:02d}" for d in gone]))]
    holes.to_csv(HERE / "incomplete_design.csv", index=False)
    null = frame.copy()  # every model's true effect removed: only dataset, interaction and seed noise remain
    null["accuracy"] = (null["accuracy"] - null["model"].map(dict(zip(MODELS, EFFECTS)))).round(4)
    null.to_csv(HERE / "no_real_difference.csv", index=False)
    many = pd.DataFrame({f"method_{m:02d}_{'with_a_long_descriptive_name' if m % 3 == 0 else 'short'}":
                         np.clip(rng.uniform(0.7, 0.9, 30) + 0.001 * m + rng.normal(0, 0.01, 30), 0, 1).round(4)
                         for m in range(50)}, index=pd.Index([f"dataset_{d:02d}" for d in range(30)], name="dataset"))
    many.to_csv(HERE / "fifty_methods_wide.csv")


if __name__ == "__main__":
    main()
