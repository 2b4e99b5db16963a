"""mcda's GSD statistic and test decision against the authors' own results (Jansen et al. 2024), offline.

    python benchmarks/check_gsd_authors.py --data DIR

Not a test: the input tables come from the authors' public repository
(github hannahblo/Statistical-Multicriteria-Benchmarking-via-the-GSD-Front at commit b5da02a,
folder ``openml_permutation_results/``), which this project may read but not redistribute, so they
are not in ``tests/data``. ``DIR`` holds, written from their ``.rds`` files with R's ``readRDS``
(values unchanged):

- ``openml_svm_vs_<competitor>_dat_set.csv`` (competitor ``glmnet`` and ``kknn``): their
  ``classif.<competitor>_dat_set.rds``: one row per distinct outcome (``ordinal_1, ordinal_2,
  numeric``: binned training and testing CPU time, accuracy) with its count for SVM
  (``count_group_a``) and for the competitor (``count_group_b``);
- ``openml_svm_vs_<competitor>_permutations.csv``: their ``classif.<competitor>_result.rds`` field
  ``permutation_test``, column ``V1``: the 1000 permuted statistics (seed 2893) of the
  unregularised test.

What the authors report (their ``d_observed$result_eps_0``, solved with Gurobi, and
``proportion_below_df.rds``): SVM vs GLMNet d = −0.3375 with 0 of 1000 permuted statistics below it;
SVM vs kNN d = −0.3875, 0 of 1000. The script prints mcda's d, the difference, and its count of
permuted statistics below, and exits 1 if any differs (tolerance 1e-9 on d).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from mcda.stats.gsd import _pvalue, gsd_statistic

# the authors' d_observed$result_eps_0 (Gurobi) and their count of the 1000 permuted statistics below it
OPENML = {"glmnet": (-0.3375, 0), "kknn": (-0.3875, 0)}


def _samples(frame):
    values = frame[["ordinal_1", "ordinal_2", "numeric"]].to_numpy(float)
    svm = np.repeat(values, frame["count_group_a"].astype(int), axis=0)
    other = np.repeat(values, frame["count_group_b"].astype(int), axis=0)
    return svm, other


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, required=True, help="the folder of the authors' tables (see above)")
    args = parser.parse_args(argv)
    failed = False
    print(f"{'pair':<16} {'authors d':>10} {'mcda d':>12} {'|diff|':>9} {'below (authors)':>16} {'below (mcda)':>13} "
          f"{'mcda p':>8}")
    for competitor, (d_authors, below_authors) in OPENML.items():
        svm, other = _samples(pd.read_csv(args.data / f"openml_svm_vs_{competitor}_dat_set.csv"))
        # training and testing time are ordinal (binned deciles), accuracy cardinal
        d = gsd_statistic(other, svm, cardinal=[False, False, True])
        permuted = pd.read_csv(args.data / f"openml_svm_vs_{competitor}_permutations.csv")["V1"].to_numpy()
        below = int(np.count_nonzero(permuted < d))
        p = _pvalue(d, permuted, 0.0)
        print(f"svm vs {competitor:<9} {d_authors:>10.4f} {d:>12.9f} {abs(d - d_authors):>9.1e} {below_authors:>16} "
              f"{below:>13} {p:>8.4f}")
        failed |= abs(d - d_authors) > 1e-9 or below != below_authors
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
